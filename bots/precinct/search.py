"""Police Precinct for search: a sim whose playouts are the heuristic's, cut at a horizon and scored.

A whole Police Precinct game is ~330 decisions with a choice, and a heuristic playout of it costs
tens of milliseconds, so a search a move affords only a few of them, each a noisy win or loss. The
sim here (:class:`PrecinctSim`) instead plays the ``heuristic`` bot for every seat for ``horizon``
cop turns after the root and then scores the position with the learnt value function
(:mod:`solver.search.precinct_value`: the chance the good team wins from there, fitted on heuristic
self-play): truncated playouts with an evaluation, far less noisy than a game's end and several times
cheaper (Tesauro & Galperin 1996 truncate their backgammon rollouts the same way).

* **Playouts.** Each seat plays the heuristic's best action on *its own* board data
  (:func:`solver.games.precinct.view.policy_data`: the part of its view the heuristic reads, without
  the history and the action texts, which are most of a view's cost), ties broken by the search's
  SplitMix64 stream (:func:`heuristic_action`). A simulated seat thus knows its own hand only; the
  dirty cop plays the heuristic's plausible sabotage.
* **Horizon.** A line of play ends once ``horizon`` more cop turns have begun than at the root
  (``horizon=0``: play to the end), or at the game's end; its returns are then the value's estimate
  for the good seats and its complement for the dirty ones (:meth:`PrecinctSim.returns`).
* **Suspicion.** A hidden dirty cop's search may also watch how he looks to the table
  (:class:`bots.precinct.suspicion.Watch`): a cut line of play then scores him ``1 - value`` less
  ``suspicion`` times the table's P(he is dirty) at its end, so that of two lines equally bad for the
  team he prefers the one that keeps him unsuspected (an exposed dirty cop loses his car, his hand
  and his loyalty card's skill).
* **Keys** are the per-observer running hashes of :class:`bots.observer_sim.ObserverSim`.

Reference: G. Tesauro and G. R. Galperin, "On-line Policy Improvement using Monte-Carlo Search",
NIPS 9, 1997, pp. 1068-1074.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, cast

from bots.observer_sim import ObserverSim
from bots.precinct.heuristic import HIDE_THRESHOLD, score
from bots.precinct.suspicion import Watch
from solver.core import CHANCE, Action, State
from solver.core.rng import SplitMix64
from solver.games.precinct.view import policy_data

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState

#: scores closer than this are ties (the heuristic bot's tolerance)
_TIE: Final = 1e-9

#: P(the good team wins) from a state (the learnt value, or a stand-in in tests)
Evaluate = Callable[["PrecinctState"], float]


def heuristic_action(st: PrecinctState, rng: SplitMix64, hide_threshold: float = HIDE_THRESHOLD) -> Action:
    """The heuristic bot's choice for the seat to act in ``st``, read off its board data.

    The same scores as :class:`bots.precinct.heuristic.PrecinctHeuristic` on the seat's view (the
    heuristic reads no history), ties broken by ``rng`` (one draw, only when there is a tie). The
    board data is :func:`~solver.games.precinct.view.policy_data`, the part the heuristic reads.
    """
    legal = st.legal_actions()
    if len(legal) == 1:
        return legal[0]
    scored = score(st.game, policy_data(st, st.current_player()), legal, hide_threshold)
    top = max(s for _, s, _ in scored)
    best = [a for a, s, _ in scored if s >= top - _TIE]
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


def turns_begun(st: PrecinctState) -> int:
    """Cop turns begun so far, counted on the Turn Track (a round is every cop's turn once)."""
    return st.turn_track * len(st.order) + st.at if st.order else 0


class PrecinctSim(ObserverSim):
    """The Python rules as a search sim: heuristic playouts cut at ``horizon`` turns, scored by
    ``evaluate`` (module docstring)."""

    salt = "precinct-seat"

    def __init__(self, state: Any, *, hashes: list[int | None] | None = None,
                 upto: list[int] | None = None, horizon: int = 0,
                 evaluate: Evaluate | None = None, stop_at: int | None = None,
                 watch: Watch | None = None, suspicion: float = 0.0) -> None:
        super().__init__(state, hashes=hashes, upto=upto)
        self.horizon = horizon
        self.evaluate = evaluate
        #: the turn count at which a line of play ends (set at the root by :meth:`prepare`)
        self.stop_at = stop_at
        #: the table's view of a hidden dirty seat, and what each unit of its P(dirty) costs him
        self.watch = watch
        self.suspicion = suspicion

    def prepare(self) -> None:
        """Fill every seat's key, and fix where this world's lines of play stop."""
        super().prepare()
        if self.horizon > 0:
            self.stop_at = turns_begun(cast("PrecinctState", self.state)) + self.horizon

    def is_terminal(self) -> bool:
        """The game's end, the horizon, or (below the root) the decision's time."""
        if self.stop_at is not None and turns_begun(cast("PrecinctState", self.state)) >= self.stop_at:
            return True
        return super().is_terminal()

    def returns(self) -> list[float]:
        """Win/loss at the end; before it, the value's P(good win) for the good seats (1 - it for the
        dirty, less ``suspicion`` times the table's P(dirty) of a watched hidden dirty seat), or 1/2
        for everyone without an evaluation. A watched seat's returns, end or cut, are then mapped
        from [-suspicion, 1] into [0, 1]."""
        st = cast("PrecinctState", self.state)
        if st.result != 0:
            out = super().returns()
        else:
            v = 0.5 if self.evaluate is None else self.evaluate(st)
            out = [1.0 - v if st.loyalty[s] else v for s in range(st.n)]
            if self.watch is not None and self.suspicion > 0.0 and not st.revealed[self.watch.seat]:
                out[self.watch.seat] -= self.suspicion * self.watch.chance(st)
        if self.watch is not None and self.suspicion > 0.0:
            # the watched seat's returns span [-suspicion, 1]: mapped back into [0, 1] in every line
            # (the same increasing map for all, so no choice changes), where the search's standard
            # errors assume them (bots.pruned_ismcts.mean_se)
            w = self.watch.seat
            out[w] = (out[w] + self.suspicion) / (1.0 + self.suspicion)
        return out

    def default_action(self, rng: SplitMix64) -> Action:
        """The heuristic for the seat to act; chance by its probabilities."""
        st = cast("PrecinctState", self.state)
        if st.current_player() == CHANCE:
            return super().default_action(rng)
        return heuristic_action(st, rng)

    def _copy_with(self, state: State) -> PrecinctSim:
        return PrecinctSim(state, hashes=list(self._hashes), upto=list(self._upto), horizon=self.horizon,
                           evaluate=self.evaluate, stop_at=self.stop_at, watch=self.watch,
                           suspicion=self.suspicion)
