"""Search sims for games that keep action records: per-observer keys, a pruned root, a pool of worlds.

A game whose state mixes in :class:`~solver.core.records.ActionRecords` (Good Cop Bad Cop, Police
Precinct) logs what each seat saw of every action. Its search bots share three pieces, kept here:

* :class:`ObserverSim`, a :class:`~bots.ismcts_bot.WinLossSim` whose ``key(seat)`` is a running hash
  of everything ``seat`` observed (:func:`observe`): the text of each action as that seat saw it and
  the events it was shown. Views are functions of these observations (perfect recall), so equal keys
  are equal information sets, and the hash is extended by the new actions only, where a view key
  rebuilds the whole history. It also offers only the root's candidate actions at the root
  (:meth:`ObserverSim.restrict_root`, a search pruned by a heuristic).
* :class:`PoolDeterminizer`: ``size`` worlds drawn once per search by the game's resampler (from a
  belief), each iteration playing a copy of one chosen uniformly. The pool is a sample of the belief,
  so the iterations still weight worlds by it (Cowling, Powley & Whitehouse 2012, section 4: one
  determinization per iteration, drawn from the searcher's belief), at the cost of a copy rather
  than a resample per iteration. A timed search stops the pool at its deadline, also during a
  draw when the game's resampler can give up at one (:func:`timed_resampler`): the first world is
  always drawn in full, later ones only while the pool has time.

Reference: P. I. Cowling, E. J. Powley and D. Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 4(2), 2012, pp. 120-143 (multiple-observer keys: section 5).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Self, TypeVar, cast

import numpy as np

from bots.base import DecisionClock
from bots.ismcts_bot import CutOff, Expired, WinLossSim
from solver.core import Action, Game, Seat, State, View
from solver.core.rng import SplitMix64


def observe(state: Any, seat: Seat, start: int, h: int) -> int:
    """``h`` extended by what ``seat`` observed in actions ``start..`` of ``state``'s records."""
    records, marks, events = state.records, state.marks, state.events
    n = len(records)
    for i in range(start, n):
        _, text, seen, hidden = records[i]
        end = marks[i + 1] if i + 1 < n else len(events)
        shown = tuple(e for e in events[marks[i]:end] if e.visible(seat))
        h = hash((h, text if seen is None or seat in seen else hidden, shown))
    return h


class ObserverSim(WinLossSim):
    """Win/loss returns, running per-observer keys and a pruned root (module docstring).

    ``salt`` starts each seat's hash (a game's name keeps two games' keys apart).
    """

    salt = "records"

    def __init__(self, state: Any, *, hashes: list[int | None] | None = None,
                 upto: list[int] | None = None) -> None:
        super().__init__(state)
        n = state.game.num_players
        self._hashes: list[int | None] = hashes if hashes is not None else [None] * n
        self._upto: list[int] = upto if upto is not None else [0] * n
        #: the root's candidate actions (heuristic pruning) and the root's history length
        self._allowed: frozenset[Action] | None = None
        self._root_len = -1

    def prepare(self) -> None:
        """Fill every seat's key now, so that copies extend them by the actions since."""
        for seat in range(self.num_players):
            self.key(seat)

    def restrict_root(self, allowed: frozenset[Action] | None) -> None:
        """Offer only ``allowed`` (those legal) at the current position; None: every legal action."""
        self._allowed = allowed
        self._root_len = len(self.state.records)  # type: ignore[attr-defined]

    def legal_actions(self) -> list[Action]:
        """The rules' legal actions; at the root, only the candidates when some are legal."""
        legal = self.state.legal_actions()
        if self._allowed is not None and self._at_root():
            return [a for a in legal if a in self._allowed] or legal
        return legal

    def key(self, seat: Seat) -> int:
        """The running hash of ``seat``'s observations, extended by the actions since the last call."""
        h = self._hashes[seat]
        end = len(self.state.records)  # type: ignore[attr-defined]
        if h is None:
            h = observe(self.state, seat, 0, hash((self.salt, seat)))
        elif self._upto[seat] < end:
            h = observe(self.state, seat, self._upto[seat], h)
        else:
            return h
        self._hashes[seat], self._upto[seat] = h, end
        return h

    def copy(self) -> Self:
        """An independent copy (key caches copied, not shared; root and cut-off kept)."""
        other = self._copy_with(self.state.clone())
        other._allowed, other._root_len, other.expired = self._allowed, self._root_len, self.expired
        return other

    def _copy_with(self, state: State) -> Self:
        """A sim of ``state`` with this sim's key caches (subclasses add their own fields)."""
        return type(self)(state, hashes=list(self._hashes), upto=list(self._upto))

    def _at_root(self) -> bool:
        return len(self.state.records) == self._root_len  # type: ignore[attr-defined]


SimT = TypeVar("SimT", bound=ObserverSim)

#: a resampler that gives up at a deadline: (view, rng, belief, expired) -> a world, or None once
#: ``expired()`` is true before one is found
TimedDraw = Callable[[View, np.random.Generator, Any, Expired], State | None]


def timed_resampler(game: Game) -> TimedDraw | None:
    """The game's ``resample_within(view, rng, belief, expired)``, a resampler that gives up once a
    deadline passes, or None when it has none (its draws then run to the end). A draw may take far
    longer than the usual one (Police Precinct: a stack look that a later claim rules out,
    :mod:`solver.games.precinct.resample`), and a timed pool cannot wait for it."""
    method = getattr(game, "resample_within", None)
    return cast(TimedDraw, method) if callable(method) else None


class NoWorldInTime(Exception):
    """A timed search's first world was not drawn before the decision's time ran out (the search
    bot then plays unsearched). Not a :class:`ValueError`: no input is at fault."""


class PoolDeterminizer(CutOff, Generic[SimT]):
    """Draws ``size`` worlds once (lazily, at the first sample) and hands out copies of them, each
    a world chosen uniformly. ``world(state)`` makes a world's sim. A timed search sets
    :attr:`expired` (its sims' cut-off) and :attr:`pool_full` (no more worlds once true, after the
    first): a draw after the first gives up once ``pool_full()`` is true, when the game's resampler
    can (:func:`timed_resampler`), and the pool keeps the worlds already drawn. The first world is
    drawn whatever ``pool_full`` says (a search needs one), but not past the decision's time: when
    ``expired()`` turns true during it, :class:`NoWorldInTime`. Untimed, every world is
    ``game.resample``'s."""

    def __init__(self, game: Game, view: View, belief: Any | None, size: int,
                 allowed: frozenset[Action] | None, world: Callable[[State], SimT]) -> None:
        self.game = game
        self.view = view
        self.belief = belief
        self.size = size
        self.allowed = allowed
        self.world = world
        self.pool: list[SimT] = []
        self.pool_full: Expired | None = None
        #: a timed search's clock, and the seconds its first world took to draw on it
        self.clock: DecisionClock | None = None
        self.world_seconds: float | None = None

    def sample(self, rng: SplitMix64) -> SimT:
        """A copy of one world of the pool, chosen uniformly (the pool is drawn at the first call)."""
        if not self.pool:
            self.fill(rng)
        return self.pool[rng.below(len(self.pool))].copy()

    def fill(self, rng: SplitMix64) -> None:
        """Draw the pool's worlds (as many as its time allows, at least one), each seeded from ``rng``."""
        for _ in range(self.size):
            if self.pool and self.pool_full is not None and self.pool_full():
                break
            started = None if self.clock is None else self.clock.elapsed()
            np_rng = np.random.default_rng(rng.next())
            state = self._draw(np_rng, self.pool_full if self.pool else self.expired)
            if state is None and not self.pool:  # the decision's time ran out in the first draw
                raise NoWorldInTime(f"{self.game.name}: no world drawn in the decision's time")
            if state is None:  # the pool's time ran out during this draw: keep those drawn
                break
            world = self.world(state)
            world.expired = self.expired
            world.prepare()
            world.restrict_root(self.allowed)
            self.pool.append(world)
            if self.clock is not None and started is not None and self.world_seconds is None:
                self.world_seconds = self.clock.elapsed() - started

    def _draw(self, rng: np.random.Generator, expired: Expired | None) -> State | None:
        """One world from the game's resampler; with ``expired``, None once it is true first
        (when the resampler can give up: else the draw runs to its end)."""
        if expired is not None:
            timed = timed_resampler(self.game)
            if timed is not None:
                return timed(self.view, rng, self.belief, expired)
        return self.game.resample(self.view, rng, self.belief)
