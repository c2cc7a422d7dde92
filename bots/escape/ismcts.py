"""ISMCTS for Escape Plan (``ismcts`` for escape): the planner's route as the playout policy (issue 24).

The shared pruned search of :mod:`bots.pruned_ismcts` and :mod:`bots.observer_sim` on Escape Plan:

1. **Searched decisions.** Only the Action (Rest / Move / Pass, "Actions") and the Travel ("Step 1:
   Travel") are searched; every other decision (gas cans, executive windows, the Avoid step, the
   Visit's choices, tiles, Extra Action discs) is the ``planner`` bot's, which is the heuristic's there
   (:meth:`EscapeISMCTSBot.unsearched_decision`).
2. **Root and choice.** The ``planner`` (:class:`bots.escape.planner.PlannerBot`) ranks the root: its
   plan's step first, then the heuristic's order. Its best ``prune`` actions are searched (less those
   it scores as losing the whole score, such as a Rest on day 3: a few playouts cannot be trusted to
   see that, and one unlucky playout of the Move once let the margin rule pick such a Rest), and its own
   choice stands unless the most visited action beats it by ``margin`` standard errors
   (:func:`bots.pruned_ismcts.conservative_choice`): rollout improves on its base policy by what its
   estimates resolve (Bertsekas, Tsitsiklis & Wu 1997).
3. **Worlds.** ``worlds`` full states drawn once per search by the game's exact resample
   (``game.resample(view, rng)``: the other seats' plan cards and hidden tiles, "Hidden information"
   in docs/escape-rules.md) into a pool (:class:`bots.observer_sim.PoolDeterminizer`); each iteration
   copies one. Nodes are keyed per observer (the records' running hashes of :class:`ObserverSim`),
   so an opponent's decisions are grouped by what that opponent saw (Cowling, Powley & Whitehouse 2012,
   section 5).
4. **Playouts: the planner's route.** The searching seat's plan is solved once at the root, from its
   view (:meth:`PlannerBot.plan_for`, CP-SAT). In a playout, at that seat's Action it moves while a
   stop of the plan is left, and at its Travel it takes the legal Travel that brings the next stop not
   yet reached closest: fewest further Travels (:meth:`Reader.turns_to`, the planner's multi-turn
   arcs through stopovers), then fewest wounds on the tiles left ("Step 2: Avoid"), then the lower
   id; the escape ("Escaping the City") when the stop is the open exit. A stop no legal Travel can end
   on although one Travel would reach it (a Business closed or visited meanwhile: "Step 3: Visit") is
   skipped, as is one out of reach. Once the stops are used up, and at every other decision and for
   every other seat, the ``heuristic`` plays (:func:`bots.escape.heuristic.score`), reading the drawn
   state's public facts and the acting seat's own (:func:`seat_data`: the view without its history,
   which the heuristic never reads; the full view, history included, made the playout 1.6-3 times
   slower). A CP-SAT solve per playout step would cost several times the playout itself
   (``bench/results/escape-planner.md``), so the route is solved once, at the root.
5. **Returns.** ``value=score`` (the default): a seat that did not escape 0, one that did the logistic
   of its score's margin over the best other escaped score, in units of :data:`SCORE_UNIT` ("Final
   Scoring"); ``value=win``: the game's outcome as a win (1), a loss (0) or 1/2 (a shared win counts as
   a win; :class:`bots.ismcts_bot.WinLossSim`). A graded return tells a dozen playouts more than a
   win/loss bit that three seats share out; the two measured within noise of each other
   (``bench/results/escape-planner.md``).
6. **Budget.** A playout from day 1 costs a few tenths of a second at 3 players, less later, so the
   default is 12 iterations over 4 worlds (about a second a searched decision); ``seconds`` sets a
   time per decision instead. A day-3 decision whose planner rules out all but one action is not
   searched.

References: P. I. Cowling, E. J. Powley and D. Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012, pp. 120-143. D. P. Bertsekas, J. N. Tsitsiklis and C. Wu, "Rollout
Algorithms for Combinatorial Optimization", Journal of Heuristics 3(3), 1997, pp. 245-262.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

import numpy as np

from bots.base import Advice, Bot, Option
from bots.escape.heuristic import _reach, _travel_target, ranked, score
from bots.escape.planner import PlannerBot
from bots.ismcts_bot import _BUDGET_OPTIONS
from bots.observer_sim import ObserverSim, PoolDeterminizer
from bots.pruned_ismcts import PRUNED_OPTIONS, PrunedISMCTSBot
from bots.registry import register
from solver.core import CHANCE, Action, ConfigError, Game, Seat, State, View
from solver.core.rng import SplitMix64
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape.state import view_data
from solver.plan.escape_problem import PlanInstance
from solver.plan.escape_route import Plan
from solver.plan.escape_values import STAKE, Reader
from solver.search.ismcts import MAX_ITERATIONS

if TYPE_CHECKING:
    from solver.games.escape.state import EscapeState

#: the decisions the search makes (and the route steers in playouts); the planner makes the others
SEARCHED: Final = frozenset({"action", "travel"})
#: $k of score margin that moves ``value=score`` from 1/2 to 1/(1 + e^-1) ~ 0.73 (the 3-player
#: heuristic games' scores have a standard deviation of about $70k: bench/results/escape-standins.md)
SCORE_UNIT: Final = 40.0
#: a Location the route cannot reach (:meth:`Reader.turns_to`'s answer)
UNREACHABLE: Final = 99


def check_escape(bot: str, game: Game) -> None:
    """ConfigError unless ``game`` is Escape Plan."""
    if game.name != "escape":
        raise ConfigError(f"{bot} bot: this one plays escape, not {game.name!r}")


def is_searched(legal: Sequence[Action]) -> bool:
    """True for the Action (rest, move or pass) and the Travel (destinations and escapes)."""
    if all(a in (codec.REST, codec.MOVE, codec.PASS) for a in legal):
        return True
    return all(codec.TRAVEL <= a < codec.ESCAPE + codec.MAX_ROUTES for a in legal)


def seat_data(st: EscapeState, seat: Seat) -> dict[str, Any]:
    """``st.view(seat).to_json()`` without ``history`` and ``legal_actions`` (the heuristic and the
    planner read neither; the history is most of a view's cost)."""
    data = view_data(st, seat)
    data["decision"] = st.decision().to_json()
    return data


def heuristic_action(st: EscapeState, seat: Seat, legal: Sequence[Action]) -> Action:
    """The ``heuristic`` bot's choice for ``seat`` at ``st`` (its best score, the lower id on ties)."""
    return ranked(score(st.game, seat_data(st, seat), legal, st))[0][0]


@dataclass(frozen=True)
class Route:
    """The searching seat's plan as the playout follows it: its stops' Locations, in order."""

    seat: Seat
    stops: tuple[int, ...]
    #: the last stop is the open exit, reached by escaping ("Escaping the City")
    escape: bool = False

    @classmethod
    def of(cls, seat: Seat, inst: PlanInstance, plan: Plan) -> Route:
        """The route of ``plan`` (no stop when the solve found none)."""
        if plan.status not in ("optimal", "feasible"):
            return cls(seat, ())
        stops = tuple(inst.locations[s] for s in plan.stops)
        escape = bool(plan.stops) and plan.stops[-1] == inst.exit_node
        return cls(seat, stops, escape)


def toward(r: Reader, target: int, escape: bool, legal: Sequence[Action]) -> tuple[Action, int] | None:
    """The legal Travel that brings ``target`` closest, with the Travels still needed after it: fewest
    of them, then fewest wounds on the tiles left, then the lower id (module docstring, item 4). With
    ``escape`` only an escape reaches the target. None when no Travel gets it within reach."""
    st = r.st
    sets = _reach(r, int(st.ctx["mp"]) if st is not None else 3)
    best: tuple[int, int, Action] | None = None
    for a in legal:
        dest, route, escaping = _travel_target(r, a)
        if escaping and not escape:
            continue
        # ending on the target is 0 Travels after (turns_to(target, target) is the way out and back)
        after = 0 if escaping or (dest == target and not escape) else r.turns_to(target, dest)
        if after >= UNREACHABLE:
            continue
        found = sets.get(dest, [])
        tiles = sorted(found[route]) if route < len(found) else []
        if escaping:
            tiles = sorted(set(tiles) | {r.city.locations[dest].tile})
        key = (after, r.wounds_on(tiles), a)
        if best is None or key < best:
            best = key
    return None if best is None else (best[2], best[0])


class EscapeSim(ObserverSim):
    """A drawn world: per-observer keys, the route's playout for the searching seat, the heuristic's for
    every other decision, win/loss or score-margin returns (module docstring)."""

    salt = "escape"

    def __init__(self, state: Any, *, hashes: list[int | None] | None = None,
                 upto: list[int] | None = None, route: Route | None = None, value: str = "win",
                 reached: int = 0) -> None:
        super().__init__(state, hashes=hashes, upto=upto)
        self.route = route
        self.value = value
        #: stops of the route reached (or given up) so far
        self.reached = reached

    @property
    def st(self) -> EscapeState:
        """The drawn world's state."""
        return cast("EscapeState", self.state)

    def _copy_with(self, state: State) -> EscapeSim:
        return EscapeSim(state, hashes=list(self._hashes), upto=list(self._upto), route=self.route,
                         value=self.value, reached=self.reached)

    def apply(self, action: Action) -> None:
        """Apply unchecked; a stop of the route is reached when the seat's Travel ends on it (a seat
        standing on the open exit has not reached its escape)."""
        route = self.route
        if route is None or self.reached >= len(route.stops):
            super().apply(action)
            return
        before = self.st.location[route.seat]
        super().apply(action)
        where = self.st.location[route.seat]
        if where != before and where == route.stops[self.reached]:
            self.reached += 1

    def default_action(self, rng: SplitMix64) -> Action:
        """Chance by its probabilities; the route at the searching seat's Action and Travel while it has
        a stop left; the heuristic everywhere else."""
        st = self.st
        seat = st.current_player()
        if seat == CHANCE:
            return super().default_action(rng)
        legal = st.legal_actions()
        if len(legal) == 1:
            return legal[0]
        route = self.route
        if route is not None and seat == route.seat and st.todo[0][0] in SEARCHED:
            chosen = self.route_action(legal)
            if chosen is not None:
                return chosen
        return heuristic_action(st, seat, legal)

    def route_action(self, legal: Sequence[Action]) -> Action | None:
        """The route's step (module docstring, item 4), None once its stops are used up."""
        route = self.route
        if route is None:
            return None
        st = self.st
        if st.todo[0][0] == "action":
            return codec.MOVE if self.reached < len(route.stops) and codec.MOVE in legal else None
        r = Reader(st.game, seat_data(st, route.seat), st)
        while self.reached < len(route.stops):
            target = route.stops[self.reached]
            escape = route.escape and self.reached == len(route.stops) - 1
            got = toward(r, target, escape, legal)
            if got is not None and not (got[1] > 0 and r.turns_to(target, r.my_location()) <= 1):
                return got[0]
            self.reached += 1  # out of reach, or one Travel away yet no Travel may end there
        return None

    def returns(self) -> list[float]:
        """``value=win``: win 1, loss 0, else 1/2; ``value=score``: the score margin's logistic for an
        escaped seat, 0 for one that did not escape, 1/2 for every seat of a game cut short."""
        if self.value == "win" or not self.st.is_terminal():
            return super().returns()
        st = self.st
        content = st.game.content
        scores = [pb.score(st.boards[s], content.plans[st.plan[s]], content).total if st.escaped[s]
                  else None for s in range(st.n)]
        out = []
        for s, mine in enumerate(scores):
            if mine is None:
                out.append(0.0)
                continue
            others = [x for o, x in enumerate(scores) if o != s and x is not None]
            margin = mine - max(others, default=0)
            out.append(1.0 / (1.0 + math.exp(-margin / SCORE_UNIT)))
        return out


class EscapeISMCTSBot(PrunedISMCTSBot):
    """ISMCTS over Escape Plan: the planner ranks the root, its route drives the searching seat's
    playouts, the heuristic every other decision (module docstring)."""

    description: ClassVar[str] = (
        "Information Set MCTS (Cowling et al. 2012) at the Action and the Travel over worlds drawn from "
        "the seat's view, playouts along the planner's route (heuristic elsewhere), the planner's choice "
        "unless the search beats it; strength by --iterations or --seconds"
    )
    options: ClassVar[Mapping[str, Option]] = {
        **_BUDGET_OPTIONS,
        "iterations": Option(12, int, "search iterations per move (unless seconds is given)", 1,
                             MAX_ITERATIONS),
        **{k: v for k, v in PRUNED_OPTIONS.items() if k != "window_share"},
        "worlds": Option(4, int, "determinized worlds drawn per search and copied by its iterations",
                         1, 4096),
        "value": Option("score", str, "playout returns: win (1 / 0 / 1/2) or score (a logistic of the "
                        "score margin over the best other escaped seat)", choices=("win", "score")),
        "plan_seconds": Option(5.0, float, "CP-SAT time limit of the root plan (the planner's)",
                               0.01, 600.0),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        check_escape("ismcts", game)
        super().__init__(game, seat, rng, **options)
        #: the base policy and root planner, sharing the bot's generator
        self._base = PlannerBot(game, seat, self.rng, seconds=self.settings["plan_seconds"])
        self._route: Route | None = None
        self._out: frozenset[Action] = frozenset()

    def world(self, state: State) -> EscapeSim:
        """A drawn world's sim, its searching seat following the root's route."""
        return EscapeSim(state, route=self._route, value=self.settings["value"])

    def determinizer(self, view: View) -> PoolDeterminizer[Any]:
        """The pool of worlds, once the root's plan is solved (from the view alone)."""
        self._route = self.route_for(view)
        return super().determinizer(view)

    def route_for(self, view: View) -> Route:
        """The searching seat's plan from ``view`` as a :class:`Route`."""
        inst, plan = self._base.plan_for(view.to_json(), None)
        return Route.of(self.seat, inst, plan)

    def candidates(self, view: View) -> frozenset[Action] | None:
        """The planner's best ``prune`` actions, less those it rules out (a score of -:data:`STAKE` or
        below: a Rest on day 3, a Travel after which the exit is out of reach, "Escaping the City"),
        unless nothing else is left. A handful of iterations cannot be trusted to see a whole score
        lost: one unlucky playout of the base's choice let the margin rule pick such a Rest."""
        roots = super().candidates(view)
        if roots is None:
            return None
        kept = frozenset(a for a in roots if a not in self._ruled_out(view))
        return kept or roots

    def _heuristic_advice(self, view: View) -> Advice:
        """The planner's advice on ``view`` (its plan's step first), and the actions it rules out."""
        cached = self._ranking
        if cached is not None and cached[0] is view:
            return cached[1]
        advice = self._base.advise(view)
        self._ranking = (view, advice)
        self._out = frozenset(r.action for r in advice.ranked if r.score <= -STAKE)
        return advice

    def _ruled_out(self, view: View) -> frozenset[Action]:
        """The actions the planner's ranking of ``view`` scores at -:data:`STAKE` or below."""
        self._heuristic_advice(view)
        return self._out

    def unsearched_decision(self, legal: tuple[Action, ...]) -> bool:
        """Every decision but the Action and the Travel (module docstring, item 1)."""
        return not is_searched(legal)

    def unsearched_note(self, view: View) -> str:
        """A decision other than the Action and the Travel (module docstring, item 1)."""
        return "ismcts searches only the Action and the Travel and leaves this decision to the planner"

    def single_candidate_note(self, view: View) -> str:
        """One candidate: the planner ruled out the others, or ``prune`` is 1."""
        roots = super().candidates(view) or frozenset()
        if len(roots & frozenset(view.legal_actions)) > 1:
            return ("one candidate move: the planner rules out every other (each loses the whole "
                    "score): nothing to search")
        return super().single_candidate_note(view)

    def pruned_reason(self, view: View, action: Action) -> str:
        """Ruled out by the planner (:meth:`candidates`), or below its best ``prune``."""
        if action in self._ruled_out(view):
            return "not searched: the planner rules it out (it loses the whole score)"
        return super().pruned_reason(view, action)

    def _heuristic(self) -> Bot:
        return self._base

    def belief(self, view: View) -> dict[str, Any]:
        """The root's plan, for advice (none unless the planner planned this very view)."""
        last = self._base.last_plan
        cached = self._ranking
        if last is None or cached is None or cached[0] is not view or not is_searched(view.legal_actions):
            return {}
        inst, plan = last
        return {"plan": [{"stop": name, "value": value} for name, value in inst.describe(plan)],
                "status": plan.status}


register("escape", EscapeISMCTSBot)
