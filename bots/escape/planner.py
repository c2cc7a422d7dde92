"""Escape Plan: the ``planner`` bot, a route re-planned every turn (issue 24).

At the Action decision (Rest / Move / Pass) and at the Travel the bot builds its seat's route problem
from its view (:func:`solver.plan.escape_problem.build`: the Locations it can still profit from, the
turns between them, the police on the way, its money and the escape on day 3), solves it with CP-SAT
(:func:`solver.plan.escape_cpsat.solve_cpsat`) and plays the plan's first step:

* **Action**: Move when the plan makes a stop; Rest ("Rest") instead when the plan with one turn fewer
  plus the heuristic's value of resting beats it, never on day 3 ("Escaping the City": a turn lost may
  strand the player); Pass only when nothing else is legal.
* **Travel** ("Step 1: Travel"): the legal Travel to the plan's next Location whose tiles left are the
  plan's (else the one to that Location with fewest officers); on day 3, the escape when the next stop
  is the open exit.

Everything else (gas cans, the Avoid step, executive windows, the Visit's choices, tiles, Extra Action
discs) is the ``heuristic`` bot's scoring (:func:`bots.escape.heuristic.score`). At a Visit the plan's
money is protected by the heuristic's reserve: purchases, contacts' prices, the master key and the
Hospital are refused when they dip into the escape's worst price and fees (:meth:`Reader.reserve`),
which is also the plan's ``need`` on day 3; when no route keeps that much, the plan keeps today's
price of the escape instead. When the plan has no stop or no route (infeasible: the day-3 exit out of
reach, or no money for the escape), the heuristic decides.

The plan depends on the view only (the resample feeds the Travel's context: public facts and the
seat's own turn). Ties between optimal routes: CP-SAT with several workers may return any of them, so
the default is one worker, deterministic for its fixed seed when the solve ends before its time limit
(bench/results/escape-planner.md).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Final

from bots.base import Advice, Option, RankedAction
from bots.escape.display import content_of
from bots.escape.heuristic import EscapeHeuristic, Scored, _reach, _rest_value, _task_of, ranked, score
from bots.registry import register
from solver.core import Action, View
from solver.games.escape import codec
from solver.plan.escape_cpsat import solve_cpsat
from solver.plan.escape_problem import DECAY, MAX_NODES, PlanInstance, build
from solver.plan.escape_route import SCALE, Plan, RouteProblem
from solver.plan.escape_values import Reader

#: solved problems kept (the Travel usually re-asks the problem of its turn's Action)
_CACHE: Final = 16
#: decisions the plan makes; every other one is the heuristic's
_PLANNED: Final = frozenset({"action", "travel"})


class PlannerBot(EscapeHeuristic):
    """Re-plans a prize-collecting route every turn and plays its first step (module docstring)."""

    name: ClassVar[str] = "planner"
    description: ClassVar[str] = ("re-plans its route every turn with CP-SAT (prizes, turns, police, "
                                  "money, the escape) and plays the first step; heuristic elsewhere")
    options: ClassVar[Mapping[str, Option]] = {
        "seconds": Option(5.0, float, "CP-SAT time limit a solve", 0.01, 600.0),
        "workers": Option(1, int, "CP-SAT search workers (1: the same route every run)", 1, 16),
        "max_nodes": Option(MAX_NODES, int, "prize Locations kept in the plan (the best by value)", 1, 40),
        "decay": Option(DECAY, float, "share of a prize lost per turn before the route reaches it", 0.0, 1.0),
    }

    def __init__(self, game: Any, seat: int, rng: Any, **options: Any) -> None:
        super().__init__(game, seat, rng, **options)
        #: the instance and plan of the last planned decision (the hint shows them)
        self.last_plan: tuple[PlanInstance, Plan] | None = None
        #: every plan this bot's solves returned, in order (their seconds and status: bench and report)
        self.solves: list[Plan] = []
        self._solved: OrderedDict[RouteProblem, Plan] = OrderedDict()
        #: why the last planned decision fell back to the heuristic's ranking ("" when the plan ranked)
        self.fallback = ""

    # --- solving -----------------------------------------------------------------------------------
    def solve(self, p: RouteProblem) -> Plan:
        """CP-SAT's plan for ``p`` (remembered per problem). Each solve gets the fixed ``seconds`` (not
        what is left of the decision: the same parameters give the same route), so an Action, which may
        solve twice (Move, Rest), takes at most twice that."""
        got = self._solved.get(p)
        if got is None:
            got = solve_cpsat(p, seconds=float(self.settings["seconds"]),
                              workers=int(self.settings["workers"]))
            self.solves.append(got)
            self._solved[p] = got
            if len(self._solved) > _CACHE:
                self._solved.popitem(last=False)
        return got

    def plan_for(self, data: Mapping[str, Any], st: Any | None) -> tuple[PlanInstance, Plan]:
        """The instance built from the view ``data`` and its plan."""
        inst = build(self.game, data, st, max_nodes=int(self.settings["max_nodes"]),
                     decay=float(self.settings["decay"]))
        plan = self.solve(inst.problem)
        p = inst.problem
        if plan.status == "infeasible" and p.end is not None:
            # The day-3 plan keeps the dearest escape's price and fees (everyone else leaving first);
            # when no route reaches that, plan for today's price instead: the escape may be paid
            # if it comes before the others' ("Escaping the City").
            escaped = sum(1 for e in data["escaped"] if e)
            now = content_of(self.game).escape_cost(self.game.num_players, escaped) * SCALE
            if now < p.need:
                easier = replace(inst, problem=replace(p, need=now))
                relaxed = self.solve(easier.problem)
                if relaxed.status != "infeasible":
                    inst, plan = easier, relaxed
        self.last_plan = (inst, plan)
        return inst, plan

    # --- decisions ---------------------------------------------------------------------------------
    def scores(self, view: View) -> list[Scored]:
        """Every legal action with its score ($k) and reason, best first for the planned decisions."""
        legal = self.check_view(view)
        data = view.to_json()
        task = _task_of(str(data["decision"]["prompt"]), view.seat)
        self.fallback = ""
        if task not in _PLANNED:
            return super().scores(view)
        st = self.game.resample(view, self.rng) if task == "travel" else None
        inst, plan = self.plan_for(data, st)
        heuristic = ranked(score(self.game, data, legal, st))
        if plan.status not in ("optimal", "feasible") or not plan.stops:
            self.fallback = f"the plan has no stop (CP-SAT: {plan.status})"
            return [(a, s, f"heuristic (plan {plan.status}, no stop): {why}") for a, s, why in heuristic]
        r = Reader(self.game, data, st)
        if task == "action":
            return self._action(r, inst, plan, legal, heuristic)
        return self._travel(r, inst, plan, legal, heuristic)

    def _action(self, r: Reader, inst: PlanInstance, plan: Plan, legal: Sequence[Action],
                heuristic: list[Scored]) -> list[Scored]:
        """Move along the plan, or Rest when a turn fewer plus the rest is worth more (module docstring)."""
        out: list[Scored] = []
        move = plan.value / SCALE
        if codec.MOVE in legal:
            out.append((codec.MOVE, move, f"move: {_route_text(inst, plan)}"))
        if codec.REST in legal:
            if r.day >= 3:
                out.append((codec.REST, -1e6, "no rest on the day of the escape"))
            else:
                p = inst.problem
                # a Rest delays every stop by a turn: each prize decays once more
                decayed = p.prize if p.decay is None else tuple(x - d for x, d in zip(p.prize, p.decay,
                                                                                        strict=True))
                later = self.solve(replace(p, today=max(0, p.today - 1), horizon=max(0, p.horizon - 1),
                                           prize=decayed))
                rest = (later.value / SCALE if later.status in ("optimal", "feasible") else -1e6)
                rest += _rest_value(r)
                out.append((codec.REST, rest, f"rest, then a plan of {later.value / SCALE:.0f}k"))
        out += [(a, s, why) for a, s, why in heuristic if a not in (codec.MOVE, codec.REST)]
        return ranked(out)

    def _travel(self, r: Reader, inst: PlanInstance, plan: Plan, legal: Sequence[Action],
                heuristic: list[Scored]) -> list[Scored]:
        """The legal Travel that makes the plan's next leg; the heuristic's ranking after it."""
        leg = inst.first_leg(plan)
        chosen = _leg_action(r, inst, plan, leg, legal) if leg is not None else None
        if chosen is None:
            self.fallback = "the plan's next Travel is not legal now"
            return [(a, s, f"heuristic (the plan's next Travel is not legal): {why}")
                    for a, s, why in heuristic]
        out: list[Scored] = [(chosen, plan.value / SCALE, f"plan: {_route_text(inst, plan)}")]
        return out + [row for row in heuristic if row[0] != chosen]

    def step(self, view: View) -> Action:
        """The plan's first step at an Action or Travel, the heuristic's choice elsewhere."""
        return self.scores(view)[0][0] if self._planned(view) else super().step(view)

    def _planned(self, view: View) -> bool:
        return _task_of(str(view.decision.prompt), view.seat) in _PLANNED

    def advise(self, view: View, budget: float | None = None) -> Advice:
        """The legal actions ranked (at an Action or Travel the plan's step first, then the heuristic's
        ranking of the others), with the plan in the belief. The solve's wall time is left out of the
        advice (the same view gives the same advice); ``last_plan[1].seconds`` holds it."""
        rows = self.scores(view)
        planned = self._planned(view)
        if not planned:
            rows = ranked(rows)
        game = self.game
        out = tuple(RankedAction(a, game.action_to_str(a), s, why) for a, s, why in rows)
        belief: dict[str, Any] = {}
        summary = f"planner: {out[0].text} ({out[0].reason})"
        if not planned:
            # the heuristic's own ranking and reasons (the planner is the heuristic off its route)
            note = ("a decision other than the Action and the Travel: the planner plans only those two "
                    "and leaves the others (gas cans, executive windows, the Avoid step, the Visit's "
                    "choices, tiles, Extra Action discs) to the heuristic")
            return Advice(view.seat, out, belief, f"heuristic: {out[0].text} ({out[0].reason})",
                          decided_by="heuristic", note=note)
        if self.last_plan is not None:
            inst, plan = self.last_plan
            belief = {"plan": [{"stop": name, "value": value} for name, value in inst.describe(plan)],
                      "status": plan.status, "value": plan.value / SCALE, "bound": plan.bound / SCALE,
                      "solver": plan.solver, "turns_today": inst.problem.today,
                      "turns_left": inst.problem.horizon}
        if self.fallback:  # the plan gives no step: its rows are the heuristic's ranking
            return Advice(view.seat, out, belief, f"heuristic: {out[0].text} ({out[0].reason})",
                          decided_by="heuristic",
                          note=f"{self.fallback}: the planner leaves the decision to the heuristic")
        return Advice(view.seat, out, belief, summary)


def _route_text(inst: PlanInstance, plan: Plan) -> str:
    """The plan in a line: its stops, value and status (not its wall time: the same view must give the
    same advice)."""
    stops = " -> ".join(f"{name} ({value:.0f}k)" for name, value in inst.describe(plan))
    return f"{stops}; {plan.value / SCALE:.0f}k, {plan.status}"


def _leg_action(r: Reader, inst: PlanInstance, plan: Plan, leg: tuple[int, frozenset[int]],
                legal: Sequence[Action]) -> Action | None:
    """The legal Travel (or escape) to ``leg``'s Location leaving exactly its tiles, else the one to that
    Location with fewest officers on the tiles left; None when none is legal."""
    dest, tiles = leg
    escape = inst.escapes_now(plan)
    sets = _reach(r, int(r.st.ctx["mp"]) if r.st is not None else 3).get(dest, [])
    options: list[tuple[int, Action]] = []
    for route, left in enumerate(sets):
        a = (codec.ESCAPE + route) if escape else codec.travel(dest, route)
        if a not in legal:
            continue
        if left == tiles:
            return a
        counted = left | {r.city.locations[dest].tile} if escape else left
        options.append((sum(len(r.officers.get(t, [])) for t in counted), a))
    return min(options)[1] if options else None


register("escape", PlannerBot)
