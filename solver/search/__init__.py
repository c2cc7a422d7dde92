"""Search: ISMCTS (pure reference and compiled kernel) over the Sim contract, and the arena."""

from solver.search.ismcts import Budget, SearchParams, SearchResult, run_search, search

__all__ = ["Budget", "SearchParams", "SearchResult", "run_search", "search"]
