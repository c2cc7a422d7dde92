"""Search scopes: caps and cancellation that every search in a context obeys.

A server (or any caller) that runs bot code on behalf of someone else opens a :class:`SearchScope`
around the call::

    scope = SearchScope(SearchCaps(max_iterations=200_000, max_seconds=30.0), parent=shutdown)
    with search_scope(scope):
        bot.step(view)          # any search inside is capped, and ends early once cancelled

Bots need no new argument: :func:`solver.search.ismcts.search` and the compiled kernel read the
scope of the calling context (a :class:`contextvars.ContextVar`, so each thread and each request
has its own). Inside a scope a search

* is cut to ``max_iterations`` iterations and ``max_seconds`` of wall time, whatever budget its bot
  asked for (the budget the scope grants is the smaller of the two);
* stops after the iteration at which its tree holds ``max_nodes`` nodes (memory; every search
  starts from an empty tree);
* polls :meth:`SearchScope.cancelled` between iterations, at most every :data:`POLL_SECONDS`, and
  stops once it returns True, with the statistics it has (at least one iteration always runs).

A search loop of a bot's own (one that does not go through ``solver.search.ismcts``) calls
:func:`checkpoint` between its rounds and :func:`granted` for its budget.

Cancellation is a :class:`threading.Event` per scope plus optional parent events (a server-wide
shutdown): setting any of them cancels every search in the scope. Without a scope nothing is capped
or cancelled and searches behave as before.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final

from solver.core import ConfigError

#: A search polls its scope's cancellation at most this often (seconds between polls); the
#: compiled kernel also lets other threads run (releases the GIL) at each poll.
POLL_SECONDS: Final[float] = 0.001


@dataclass(frozen=True)
class SearchCaps:
    """The most one search may spend: iterations, wall-clock seconds, and tree nodes (memory)."""

    max_iterations: int = 200_000
    max_seconds: float = 30.0
    #: about 250 bytes a node in the compiled kernel, several kB in the pure-Python reference
    max_nodes: int = 250_000

    def __post_init__(self) -> None:
        for name in ("max_iterations", "max_nodes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 2**31 - 1:
                raise ConfigError(f"search caps: {name} must be an int in 1..{2**31 - 1}, not {value!r}")
        s = self.max_seconds
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not (math.isfinite(s) and s > 0):
            raise ConfigError(f"search caps: max_seconds must be a finite number > 0, not {s!r}")

    def cut(self, iterations: int | None, seconds: float | None) -> tuple[int, float]:
        """A budget of ``iterations`` and ``seconds`` (None: not set) cut to these caps."""
        return (self.max_iterations if iterations is None else min(iterations, self.max_iterations),
                self.max_seconds if seconds is None else min(seconds, self.max_seconds))


class SearchScope:
    """Caps and a cancellation flag shared by every search run inside :func:`search_scope`."""

    def __init__(self, caps: SearchCaps | None = None, *parents: threading.Event) -> None:
        self.caps = caps if caps is not None else SearchCaps()
        self.event = threading.Event()
        self.parents = parents
        #: searches in this scope that ended early because the scope was cancelled
        self.stopped_searches = 0

    def cancel(self) -> None:
        """Ask every search in the scope to stop after its current iteration."""
        self.event.set()

    def cancelled(self) -> bool:
        """True once this scope or one of its parents was cancelled."""
        return self.event.is_set() or any(p.is_set() for p in self.parents)

    def note_stopped(self) -> None:
        """Record that a search ended early because the scope was cancelled."""
        self.stopped_searches += 1


_SCOPE: ContextVar[SearchScope | None] = ContextVar("copsolver_search_scope", default=None)


def current_scope() -> SearchScope | None:
    """The scope of the calling context, or None (no caps, no cancellation)."""
    return _SCOPE.get()


@contextlib.contextmanager
def search_scope(scope: SearchScope) -> Iterator[SearchScope]:
    """Run the ``with`` body inside ``scope`` (nested scopes: the innermost one applies)."""
    token = _SCOPE.set(scope)
    try:
        yield scope
    finally:
        _SCOPE.reset(token)


def granted(iterations: int | None, seconds: float | None) -> tuple[int | None, float | None]:
    """``(iterations, seconds)`` cut to the current scope's caps; with a scope, both are set."""
    scope = _SCOPE.get()
    return (iterations, seconds) if scope is None else scope.caps.cut(iterations, seconds)


def checkpoint() -> bool:
    """True when the current scope was cancelled (a search loop then stops); False without one."""
    scope = _SCOPE.get()
    return scope is not None and scope.cancelled()
