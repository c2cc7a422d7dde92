"""Escape Plan: the seat's route plan as the hint prints and draws it (issue 24).

:func:`seat_plan` builds the advised seat's route problem from its view alone
(:func:`solver.plan.escape_problem.build`) and solves it with CP-SAT on one worker (the same view gives
the same plan); :func:`steps` walks the plan stop by stop: the Travels it takes (waypoints for a stop
more than one turn away), the turns, the officers on the tiles it leaves, how many of them the seat's
face-up avoid components cover (the model's ``free_avoids``, spent in route order) and how many are
wounds ("Step 2: Avoid"; "Final Scoring": -$20k per red wound); a stop's value is its prize when the
plan reaches it (prizes decay a little per turn), and the contact cards the plan gains are counted
together by the contacts table (:func:`cards_worth`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from solver.core import Game, View
from solver.plan.escape_cpsat import solve_cpsat
from solver.plan.escape_problem import PlanInstance, build
from solver.plan.escape_route import SCALE, Plan

#: CP-SAT's time limit for the hint's plan (the planner bot's default)
SECONDS: Final = 5.0


@dataclass(frozen=True)
class Step:
    """One stop of a plan: where, what it is worth, and the police on the way."""

    #: the stop's name (``escape via Exit 2`` for the escape)
    name: str
    #: its prize when the route reaches it (after its decay), $k, the contact card left out
    value: float
    #: whether the stop gives a contact card (the cards are worth the contacts table together)
    card: bool
    #: the Locations the Travels end at, the stop last (more than one: stopovers on the way)
    path: tuple[int, ...]
    #: the turn of the plan the stop is reached at (1: this turn)
    turn: int
    #: officers on the tiles the Travels leave (the estimate for later days past today)
    officers: int
    #: of them, covered by the seat's avoid components
    covered: int
    #: of them, red wounds
    wounds: int


def applies(view: View) -> bool:
    """Whether the view's seat has a plan to make: its day turns are under way and it is in the city."""
    data = view.to_json()
    seat = view.seat
    return (int(data.get("day", 0)) >= 1 and int(data.get("part", -1)) >= 0 and bool(data.get("placed"))
            and not data["escaped"][seat] and not data["arrested"][seat])


#: the last view's plan: ``hint --svg`` prints it and draws it, one solve for both
_LAST: list[tuple[tuple[Game, str], tuple[PlanInstance, Plan]]] = []


def seat_plan(game: Game, view: View) -> tuple[PlanInstance, Plan] | None:
    """The seat's route problem and its CP-SAT plan, from its view; None when it has none to make."""
    if game.name != "escape" or not applies(view):
        return None
    data = view.to_json()
    key = (game, json.dumps(data, sort_keys=True))
    if _LAST and _LAST[0][0] == key:
        return _LAST[0][1]
    inst = build(game, data)
    got = inst, solve_cpsat(inst.problem, seconds=SECONDS, workers=1)
    _LAST[:] = [(key, got)]
    return got


def steps(inst: PlanInstance, plan: Plan) -> list[Step]:
    """The plan's stops in order with their Travels, turns and police (module docstring)."""
    p = inst.problem
    out: list[Step] = []
    here, elapsed, free = 0, 0, p.free_avoids
    for stop in plan.stops:
        cops = p.arc_officers(here, stop, elapsed)
        covered = min(cops, free)
        free -= covered
        elapsed += p.turns[here][stop]
        path = tuple(loc for loc, _ in inst.legs.get((here, stop), ()))
        worth = p.prize[stop] - (p.decay[stop] * elapsed if p.decay is not None else 0)
        card = p.cards is not None and p.cards[stop] > 0
        out.append(Step(p.names[stop], worth / SCALE, card, path, elapsed, cops, covered, cops - covered))
        here = stop
    return out


def cards_worth(inst: PlanInstance, plan: Plan) -> tuple[int, float]:
    """The contact cards the plan gains and what they add to the contacts table, $k."""
    p = inst.problem
    if p.cards is None:
        return 0, 0.0
    k = sum(p.cards[s] for s in plan.stops)
    return k, p.card_values[min(k, len(p.card_values) - 1)] / SCALE


def lines(game: Game, view: View) -> list[str]:
    """The plan as text lines for the hint (empty when the seat has no plan to make)."""
    got = seat_plan(game, view)
    if got is None:
        return []
    inst, plan = got
    p = inst.problem
    head = (f"Route plan (CP-SAT, {plan.status}, {plan.seconds:.2f} s; {p.size - 1} prize Locations, "
            f"{p.today} turns today, {p.horizon} in all; {p.free_avoids} officers covered by your avoid "
            f"components): value {plan.value / SCALE:.1f}k")
    if plan.status == "infeasible":
        return [head, "  no route meets the plan's rules (on day 3: the exit out of reach or the escape "
                      "unaffordable); the bot falls back on its heuristic"]
    if not plan.stops:
        return [head, "  no stop is worth its police: stay or rest"]
    names = game.location_names  # type: ignore[attr-defined]
    out = [head]
    for i, s in enumerate(steps(inst, plan), 1):
        via = [names[loc] for loc in s.path[:-1]]
        way = f" via {', '.join(via)}" if via else ""
        police = ("no officers" if s.officers == 0 else
                  f"{s.officers} officer(s): {s.covered} avoided by your components"
                  + (f", {s.wounds} wound(s) (-${p.wound * s.wounds / SCALE:.0f}k)" if s.wounds else ""))
        card = " + a contact card" if s.card else ""
        out.append(f"  {i}. turn {s.turn}: {s.name}{way}, worth {s.value:.1f}k{card}; {police}")
    k, worth = cards_worth(inst, plan)
    if k:
        out.append(f"  contact cards gained: {k}, worth {worth:.1f}k on the contacts table")
    return out
