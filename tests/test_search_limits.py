"""Search scopes (solver/search/limits.py): caps and cancellation read by both ISMCTS engines,
which stay equal to each other inside a scope; the compiled kernel lets other threads run."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from solver.core import ConfigError
from solver.core.rng import SplitMix64
from solver.search.ismcts import Budget, SearchParams, SearchResult, run_search
from solver.search.limits import SearchCaps, SearchScope, checkpoint, current_scope, granted, search_scope
from tests.test_ismcts import CAPTURE, TRAP, _p07_determinizers, needs_kernel

ENGINES = ["pure", pytest.param("compiled", marks=needs_kernel)]


def _det(engine: str, actions: list[str] = CAPTURE) -> tuple[Any, int]:
    pure, compiled, seat = _p07_determinizers(actions)
    if engine == "compiled":
        from solver.search.ismcts import is_compiled_determinizer

        if not is_compiled_determinizer(compiled):
            pytest.skip("the compiled Police 07 simulator is not built")
        return compiled, seat
    return pure, seat


def _run(engine: str, budget: Budget, seed: int = 3, **kwargs: Any) -> SearchResult:
    det, seat = _det(engine)
    return run_search(det, seat, budget, SplitMix64(seed), engine="pure" if engine == "pure" else "auto",
                      **kwargs)


def test_no_scope_outside_search_scope() -> None:
    assert current_scope() is None and not checkpoint()
    assert granted(10**9, None) == (10**9, None)
    scope = SearchScope(SearchCaps(max_iterations=5, max_seconds=1.0))
    with search_scope(scope):
        assert current_scope() is scope
        assert granted(10**9, None) == (5, 1.0)
        assert granted(3, 60.0) == (3, 1.0)
        assert not checkpoint()
        scope.cancel()
        assert checkpoint()
    assert current_scope() is None


def test_a_parent_event_cancels_the_scope() -> None:
    shutdown = threading.Event()
    scope = SearchScope(None, shutdown)
    assert not scope.cancelled()
    shutdown.set()
    assert scope.cancelled()


@pytest.mark.parametrize("caps", [{"max_iterations": 0}, {"max_nodes": True}, {"max_seconds": float("inf")},
                                  {"max_seconds": -1.0}])
def test_caps_are_checked(caps: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        SearchCaps(**caps)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_scope_cuts_the_iterations_a_search_asked_for(engine: str) -> None:
    with search_scope(SearchScope(SearchCaps(max_iterations=30))):
        result = _run(engine, Budget(iterations=5000))
    assert result.iterations == 30 and sum(s.visits for s in result.stats) == 30
    assert not result.stopped


@pytest.mark.parametrize("engine", ENGINES)
def test_a_scope_cuts_the_seconds_a_search_asked_for(engine: str) -> None:
    began = time.perf_counter()
    with search_scope(SearchScope(SearchCaps(max_seconds=0.2))):
        result = _run(engine, Budget(seconds=3600.0))
    assert time.perf_counter() - began < 30  # a generous bound: the cut is 0.2 s, the ask an hour
    assert result.iterations >= 1 and not result.stopped


@pytest.mark.parametrize("engine", ENGINES)
def test_a_scope_caps_the_tree_nodes(engine: str) -> None:
    with search_scope(SearchScope(SearchCaps(max_nodes=25))):
        result = _run(engine, Budget(iterations=2000))
    assert result.nodes == 25 and result.iterations < 2000


@needs_kernel
@pytest.mark.parametrize("actions", [CAPTURE, TRAP], ids=["capture", "trap"])
@pytest.mark.parametrize("caps", [SearchCaps(), SearchCaps(max_iterations=77), SearchCaps(max_nodes=40)],
                         ids=["defaults", "iterations", "nodes"])
@pytest.mark.parametrize("keys", ["actor", "searcher"])
def test_the_twins_stay_equal_inside_a_scope(actions: list[str], caps: SearchCaps, keys: str) -> None:
    pure_det, compiled_det, seat = _p07_determinizers(actions)
    from solver.search.ismcts import is_compiled_determinizer

    if not is_compiled_determinizer(compiled_det):
        pytest.skip("the compiled Police 07 simulator is not built")
    params = SearchParams(keys=keys)  # type: ignore[arg-type]
    rng_pure, rng_compiled = SplitMix64(9), SplitMix64(9)
    with search_scope(SearchScope(caps)):
        pure = run_search(pure_det, seat, Budget(iterations=300), rng_pure, params, engine="pure")
        compiled = run_search(compiled_det, seat, Budget(iterations=300), rng_compiled, params)
    assert compiled.engine == "compiled"
    assert pure.same_search(compiled, tol=1e-12), (pure.stats, compiled.stats)
    assert rng_pure.state == rng_compiled.state
    # and the scope changed nothing the caps did not cut
    if caps == SearchCaps():
        outside = run_search(pure_det, seat, Budget(iterations=300), SplitMix64(9), params, engine="pure")
        assert outside.same_search(pure)


@pytest.mark.parametrize("engine", ENGINES)
def test_cancelling_the_scope_stops_a_search_from_another_thread(engine: str) -> None:
    det, seat = _det(engine)
    scope = SearchScope(SearchCaps(max_iterations=2**31 - 1, max_seconds=3600.0, max_nodes=2**31 - 1))
    results: list[SearchResult] = []

    def work() -> None:
        with search_scope(scope):
            results.append(run_search(det, seat, Budget(seconds=600.0), SplitMix64(1),
                                      engine="pure" if engine == "pure" else "auto"))

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    # This thread wakes up and cancels while the search runs: the kernel lets go of the GIL between
    # its iterations (a kernel that held it would keep this thread asleep for the whole 600 s).
    time.sleep(0.3)
    scope.cancel()
    thread.join(timeout=10)
    assert not thread.is_alive()
    [result] = results
    assert result.stopped and scope.stopped_searches == 1
    assert result.iterations >= 1 and sum(s.visits for s in result.stats) == result.iterations
