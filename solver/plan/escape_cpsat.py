"""The Escape Plan route problem as a CP-SAT model: proven-optimal routes (issue 24).

The model of :class:`~solver.plan.escape_route.RouteProblem`, exactly :func:`value_of`'s rules:

* **Route as a circuit.** Nodes are the problem's nodes plus a sink ``D``. One Boolean per arc u->v
  whose ``turns`` is not ``NO_ARC`` (and fits the horizon), one per u->D (every u when ``end`` is
  None, only ``end`` otherwise), the closing arc D->0, and a self-loop per node 1..n-1 (true: the
  route skips it). ``AddCircuit`` over these makes the used arcs one cycle 0 -> stops -> D -> 0, so
  the stops form an open path from the start ("Step 1: Travel": one arc a move) that ends anywhere or
  at ``end``. Node 0 and D have no self-loop: both are always on the cycle; nothing enters node 0
  but D->0, so the start is never a stop.
* **Turns.** ``elapsed[v]`` in [earliest, latest], 0 at the start, ``elapsed[v] = elapsed[u] +
  turns[u][v]`` when u->v is used. The window is by shortest paths: from the start, and to ``end``
  within the horizon; arcs that cannot fit in it are left out. A redundant total, the used arcs'
  turns <= horizon, helps the LP relaxation.
* **Money.** ``money[v]`` in [0, money + positive gains] (never below zero after a stop), ``p.money``
  at the start, ``money[v] = money[u] + gain[v]`` on a used arc; the stop before D holds ``>= need``.
  Redundant: money + the visited nodes' gains >= need. A skipped node's time and money are pinned
  (one value each: fewer symmetric solutions).
* **Police** ("Step 2: Avoid"). An arc whose officers differ today and later, and whose start may
  fall on either side of ``today`` (by the node's window), is two Booleans, ``before + after ==
  arc``, with ``before`` implying ``elapsed[u] < today`` and ``after`` the opposite; the route's
  officers are ``officers * before + later_officers * after`` summed (the other arcs: their one
  count times the arc). This is the brief's "later + (today - later) * (arc AND departs today)" in
  a form the LP relaxation reads better. ``excess = max(0, total - free_avoids)`` (an exact max, so
  a timed-out solution's objective is its true value too).
* **Objective.** Maximise the prizes of visited nodes less ``wound * excess`` ("Final Scoring": a
  red wound costs $20k), less each visited node's ``decay`` times its arrival (its elapsed turns when
  visited, 0 when skipped: one more integer per decaying node), plus ``card_values`` at the number of
  cards the visited nodes give, capped at the table's last entry (``add_element``).

Ties: CP-SAT with several workers is not bit-deterministic in *which* of several optimal routes it
returns. We keep the objective as it is (a secondary term would make the proof of optimality harder
for no value to the player) and fix ``random_seed``; a caller that needs one answer per position uses
``workers=1``, which is deterministic for a fixed seed when the solve ends before its time limit.

OR-Tools documentation read: the CP-SAT Python reference (``CpModel.add_circuit``,
``only_enforce_if``, ``add_max_equality``, ``CpSolver`` parameters
``num_workers``, ``max_time_in_seconds``, ``random_seed``) and the "Solving a CP-SAT problem" and
"Channeling constraints" guides.
"""

from __future__ import annotations

import time
from math import floor, isfinite

import numpy as np
from ortools.sat.python import cp_model

from solver.core import BadStateError
from solver.plan.escape_route import NO_ARC, Plan, RouteProblem, value_of

__all__ = ["solve_cpsat"]

#: the seed every solve uses (the solver holds no randomness of ours; this fixes its own)
SEED = 24


def solve_cpsat(p: RouteProblem, *, seconds: float = 5.0, workers: int = 2) -> Plan:
    """The best route of ``p`` found by CP-SAT within ``seconds`` on ``workers`` search workers.

    Status ``optimal`` when proven, ``feasible`` on a time-out with a route, ``infeasible`` when no
    route exists, ``unknown`` on a time-out without one (both with no stops and value 0). Raises
    :class:`BadStateError` when the route found does not have the model's value under
    :func:`value_of` (a model bug must not pass silently).
    """
    started = time.perf_counter()
    model = cp_model.CpModel()
    n = p.size
    sink = n
    early, late = _time_window(p)
    arcs: dict[tuple[int, int], cp_model.IntVar] = {}
    for u in range(n):
        for v in range(1, n):
            if u != v and p.turns[u][v] != NO_ARC and early[u] + p.turns[u][v] <= late[v]:
                arcs[u, v] = model.new_bool_var(f"x{u}_{v}")
        if (p.end is None or p.end == u) and early[u] <= late[u]:
            arcs[u, sink] = model.new_bool_var(f"x{u}_end")
    skip = {v: model.new_bool_var(f"skip{v}") for v in range(1, n)}
    circuit = [(u, v, lit) for (u, v), lit in arcs.items()]
    circuit += [(v, v, lit) for v, lit in skip.items()]
    circuit.append((sink, 0, model.new_constant(1)))
    model.add_circuit(circuit)

    top_money = p.money + sum(g for g in p.gain[1:] if g > 0)
    elapsed = [model.new_constant(0)] + [model.new_int_var(early[v], max(early[v], late[v]), f"t{v}")
                                         for v in range(1, n)]
    money = [model.new_constant(p.money)] + [model.new_int_var(0, top_money, f"m{v}")
                                             for v in range(1, n)]
    for v, lit in skip.items():
        model.add(elapsed[v] == early[v]).only_enforce_if(lit)
        model.add(money[v] == 0).only_enforce_if(lit)
    for (u, v), lit in arcs.items():
        if v == sink:
            model.add(money[u] >= p.need).only_enforce_if(lit)
        else:
            model.add(elapsed[v] == elapsed[u] + p.turns[u][v]).only_enforce_if(lit)
            model.add(money[v] == money[u] + p.gain[v]).only_enforce_if(lit)
    # Redundant totals (the route's turns, its final money) that the LP relaxation can use: the
    # per-arc implications above are weak in it.
    model.add(sum(p.turns[u][v] * lit for (u, v), lit in arcs.items() if v != sink) <= p.horizon)
    model.add(p.money + sum(p.gain[v] * (1 - lit) for v, lit in skip.items()) >= p.need)

    officers = _officer_terms(model, p, arcs, elapsed, (early, late))
    most = sum(max(0, c) for c, _ in officers)
    excess = model.new_int_var(0, max(0, most - p.free_avoids), "excess")
    model.add_max_equality(excess, [0, sum(c * lit for c, lit in officers) - p.free_avoids])
    prizes = sum(p.prize[v] * (1 - lit) for v, lit in skip.items())
    main = prizes - p.wound * excess - _decay_terms(model, p, skip, elapsed) + _card_term(model, p, skip)
    model.maximize(main)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.random_seed = SEED
    status = solver.solve(model)
    wall = time.perf_counter() - started
    if status == cp_model.INFEASIBLE:
        return Plan((), 0, "infeasible", 0, wall, "cp-sat")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if status == cp_model.MODEL_INVALID:
            raise BadStateError(f"CP-SAT rejected the route model: {model.validate()}")
        bound = solver.best_objective_bound
        return Plan((), 0, "unknown", floor(bound) if isfinite(bound) else _prize_bound(p), wall,
                    "cp-sat")

    stops = _route(solver, arcs, n)
    visited = [v for v, lit in skip.items() if not solver.boolean_value(lit)]
    value = sum(p.prize[v] for v in visited) - p.wound * solver.value(excess)
    if p.decay is not None:
        value -= sum(p.decay[v] * solver.value(elapsed[v]) for v in visited)
    if p.cards is not None:
        value += p.card_values[min(sum(p.cards[v] for v in visited), len(p.card_values) - 1)]
    if value_of(p, stops) != value:
        raise BadStateError(f"CP-SAT route {stops} has value {value_of(p, stops)} under value_of, "
                            f"the model says {value}")
    optimal = status == cp_model.OPTIMAL
    bound = value if optimal else floor(solver.best_objective_bound)
    return Plan(stops, value, "optimal" if optimal else "feasible", bound, wall, "cp-sat")


def _officer_terms(model: cp_model.CpModel, p: RouteProblem,
                   arcs: dict[tuple[int, int], cp_model.IntVar], elapsed: list[cp_model.IntVar],
                   window: tuple[list[int], list[int]]) -> list[tuple[int, cp_model.IntVar]]:
    """(officers, literal) pairs whose weighted sum is the route's officers (``arc_officers``)."""
    early, late = window

    def fixed(u: int) -> bool | None:
        # Whether an arc out of u surely departs before ``today`` (None: it depends on the route).
        # An arc out of u starts at elapsed[u], in [early[u], late[u]] and below the horizon (it
        # takes a turn and ends by the horizon); the start departs at 0.
        if early[u] >= p.today:
            return False
        if u == 0 or p.today >= min(p.horizon, late[u] + 1):
            return True
        return None

    terms: list[tuple[int, cp_model.IntVar]] = []
    for (u, v), lit in arcs.items():
        if v == p.size:
            continue
        later, now = p.later_officers[u][v], p.officers[u][v]
        side = fixed(u)
        if side is not None or now == later:
            if now if side else later:
                terms.append((now if side else later, lit))
            continue
        # The arc is split in two Booleans, used today or used later, each tied to its side of
        # ``today`` (stronger in the LP relaxation than the product of the arc and a "departs
        # today" Boolean; bench/results/escape-planner.md has the measurement).
        before = model.new_bool_var(f"now{u}_{v}")
        after = model.new_bool_var(f"later{u}_{v}")
        model.add(before + after == lit)
        model.add(elapsed[u] < p.today).only_enforce_if(before)
        model.add(elapsed[u] >= p.today).only_enforce_if(after)
        terms += [(c, x) for c, x in ((now, before), (later, after)) if c]
    return terms


def _decay_terms(model: cp_model.CpModel, p: RouteProblem, skip: dict[int, cp_model.IntVar],
                 elapsed: list[cp_model.IntVar]) -> cp_model.LinearExpr:
    """The prizes' decay: ``decay[v]`` times the turns elapsed at a visited node ``v`` (a skipped node's
    time is pinned, not 0, so each decaying node gets its arrival: elapsed when visited, else 0)."""
    terms: list[cp_model.LinearExpr] = []
    if p.decay is None:
        return cp_model.LinearExpr.sum(terms)
    for v, lit in skip.items():
        if p.decay[v] <= 0:
            continue
        arrival = model.new_int_var(0, p.horizon, f"a{v}")
        model.add(arrival == elapsed[v]).only_enforce_if(~lit)
        model.add(arrival == 0).only_enforce_if(lit)
        terms.append(p.decay[v] * arrival)
    return cp_model.LinearExpr.sum(terms)


def _card_term(model: cp_model.CpModel, p: RouteProblem,
               skip: dict[int, cp_model.IntVar]) -> cp_model.LinearExpr:
    """What the cards gained are worth: ``card_values`` at their number, capped at its last entry
    (an element constraint: the table is any shape, the contacts table a convex one)."""
    if p.cards is None or not any(p.cards) or len(p.card_values) == 1:
        return cp_model.LinearExpr.sum([])
    top = len(p.card_values) - 1
    gained = model.new_int_var(0, sum(p.cards), "cards")
    model.add(gained == sum(p.cards[v] * (1 - lit) for v, lit in skip.items() if p.cards[v]))
    counted = model.new_int_var(0, top, "cards_counted")
    model.add_min_equality(counted, [gained, top])
    worth = model.new_int_var(min(p.card_values), max(p.card_values), "cards_worth")
    model.add_element(counted, list(p.card_values), worth)
    return cp_model.LinearExpr.sum([worth])


def _route(solver: cp_model.CpSolver, arcs: dict[tuple[int, int], cp_model.IntVar],
           n: int) -> tuple[int, ...]:
    """The stops of the solution's cycle, in order from the start up to the sink."""
    succ = {u: v for (u, v), lit in arcs.items() if solver.boolean_value(lit)}
    stops: list[int] = []
    here = succ[0]
    while here != n:
        stops.append(here)
        here = succ[here]
    return tuple(stops)


def _prize_bound(p: RouteProblem) -> int:
    """A trivial upper bound on any route's value: every positive prize, no wound."""
    return sum(max(0, x) for x in p.prize[1:])


def _time_window(p: RouteProblem) -> tuple[list[int], list[int]]:
    """Per node, the earliest turn a route can stop there and the latest it can leave to end in time.

    Shortest paths over the arcs' turns (a route is a path, so never shorter): from the start, and
    to ``end`` when it is set. A node whose earliest exceeds its latest is never a stop.
    """
    n = p.size
    far = p.horizon + 1  # beyond the horizon: as good as unreachable
    d = np.full((n, n), far, dtype=np.int64)
    t = np.array(p.turns, dtype=np.int64).reshape(n, n)
    d[t != NO_ARC] = np.minimum(t[t != NO_ARC], far)
    np.fill_diagonal(d, 0)
    for k in range(n):  # Floyd-Warshall
        np.minimum(d, d[:, k, None] + d[None, k, :], out=d)
    early = [int(x) for x in np.minimum(d[0], far)]
    to_end = [0] * n if p.end is None else [int(x) for x in np.minimum(d[:, p.end], far)]
    return early, [p.horizon - x for x in to_end]
