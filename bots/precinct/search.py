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
* **Compiled playouts.** Below the tree, :meth:`PrecinctSim.rollout` plays the line in C
  (``solver._ext.precinct_playout``, tested equal to the Python loop: same actions, same SplitMix64
  draws) and scores a cut with ``solver._ext.precinct_value`` (bit-equal to the shipped
  :class:`~solver.search.precinct_value.ValueModel`), when the kernels are built and nothing the C
  state lacks is needed: no watched seat (its suspicion reads the Python history), the shipped value
  or none, a timed cut-off not yet reached, and no ``reveal`` in the line (the value's self-revealed
  seats are read from the action records). Otherwise, and with :data:`COMPILED` set to None, the
  Python loop plays.

Reference: G. Tesauro and G. R. Galperin, "On-line Policy Improvement using Monte-Carlo Search",
NIPS 9, 1997, pp. 1068-1074.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, cast

from bots.observer_sim import ObserverSim
from bots.precinct.heuristic import HIDE_THRESHOLD, score
from bots.precinct.suspicion import Watch
from solver._accel import load_ext
from solver.core import CHANCE, Action, BadStateError, Game, State
from solver.core.rng import SplitMix64
from solver.games.precinct import codec
from solver.games.precinct.view import policy_data

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState

#: scores closer than this are ties (the heuristic bot's tolerance)
_TIE: Final = 1e-9

#: P(the good team wins) from a state (the learnt value, or a stand-in in tests)
Evaluate = Callable[["PrecinctState"], float]


def _load_compiled() -> tuple[Any, Any, Any] | None:
    """The compiled playout, state and value modules, or None when they are not built (or
    ``COPSOLVER_PUREPYTHON=1``): then every line of play runs in Python."""
    mods = tuple(load_ext(name) for name in ("precinct_playout", "precinct_state", "precinct_value"))
    return None if any(m is None for m in mods) else (mods[0], mods[1], mods[2])


#: (precinct_playout, precinct_state, precinct_value) when built, else None; tests set it to None to
#: force the Python playouts (the same search results, slower)
COMPILED: tuple[Any, Any, Any] | None = _load_compiled()

#: per game (by id, the game kept to check identity): its C playout and its C value of the shipped model
_KERNELS: dict[int, tuple[Game, Any, Any]] = {}


def _kernels(mods: tuple[Any, Any, Any], game: Game) -> tuple[Any, Any]:
    """The C playout and value of ``game``, built once (they convert its content and city)."""
    entry = _KERNELS.get(id(game))
    if entry is None or entry[0] is not game:
        playout, _, value = mods
        entry = _KERNELS[id(game)] = (game, playout.PrecinctCPlayout(game), value.PrecinctCValue(game))
    return entry[1], entry[2]


def _shipped_value(evaluate: Evaluate | None) -> bool:
    """True when ``evaluate`` is None or the shipped model's ``value`` (the one the C value computes)."""
    if evaluate is None:
        return True
    from solver.search.precinct_value import ValueModel, load_value

    return (getattr(evaluate, "__self__", None) is load_value()
            and getattr(evaluate, "__func__", None) is ValueModel.value)


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
        #: after a compiled :meth:`rollout`: the C state where the line stopped (the Python state is
        #: then stale, still at the line's start)
        self._cline: Any = None

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
        if self._cline is not None:
            return self._compiled_returns(st, self._cline)
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

    def rollout(self, rng: SplitMix64, max_steps: int) -> int:
        """The playout below the tree (the search's hook, :class:`solver.search.sim.Sim`): exactly
        ``while steps < max_steps and not is_terminal(): apply(default_action(rng))``, the same draws
        from ``rng`` and the same :meth:`returns`; the steps played.

        In C when it can be (module docstring, *Compiled playouts*). The C line then plays on a copy:
        this sim's Python state stays where the line started, so after a compiled rollout only
        :meth:`returns` may be read (the search reads nothing else before dropping the sim).
        """
        self._cline = None
        mods = COMPILED
        # a timed search's line too while its time is not up: a C line takes ~0.03 ms, far inside
        # the cut-off's grace, where the Python loop would stop it mid-line only at the deadline
        if (mods is not None and (self.watch is None or self.suspicion <= 0.0)
                and (self.expired is None or not self.expired()) and _shipped_value(self.evaluate)):
            st = cast("PrecinctState", self.state)
            cplay, cvalue = _kernels(mods, st.game)
            try:
                cs = mods[1].PrecinctCState.from_state(st)
                actions, state, _ = cplay.play(cs, rng.state, self.stop_at, max_steps)
            except BadStateError:
                # beyond the C layout, or max_steps played with the line unfinished (the C playout
                # calls that an error): the Python loop below plays it, from the same draws
                actions = None
            # a reveal changes the value's self-revealed seats, read from records the C state lacks
            if actions is not None and codec.REVEAL not in actions:
                rng.state = state
                self._cline = (cs, cvalue)
                return len(actions)
        steps = 0
        while steps < max_steps and not self.is_terminal():
            self.apply(self.default_action(rng))
            steps += 1
        return steps

    def _compiled_returns(self, st: PrecinctState, line: tuple[Any, Any]) -> list[float]:
        """:meth:`returns` at the end of a compiled line (its C state and the game's C value; no
        watch, so its branches are not needed); ``st`` is the line's start, whose self-revealed seats
        are the end's (the line has no reveal)."""
        cs, cvalue = line
        core = cs.to_core()
        result, loyalty = core["result"], core["loyalty"]
        if result != 0:
            good_won = result > 0
            return [1.0 if good_won != loyalty[s] else 0.0 for s in range(st.n)]
        if self.evaluate is None:
            return [0.5] * st.n
        from solver.search.precinct_value import _self_revealed

        # as ValueModel.value: the records are scanned only once someone is underground
        v = cvalue.value(cs, _self_revealed(st) if any(core["underground"]) else 0)
        return [1.0 - v if loyalty[s] else v for s in range(st.n)]

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
