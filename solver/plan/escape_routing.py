"""The Escape Plan route problem as an OR-Tools routing model: a second formulation (issue 24).

One vehicle leaves node 0 and ends at ``end``, or, when the route may end anywhere, at a dummy node
reached from every node for nothing (no turn, officer, money or cost). The model of
:class:`~solver.plan.escape_route.RouteProblem`:

* **Optional stops.** Each node but the start and the end is in its own disjunction; leaving a node
  with a positive prize out costs that prize, so minimising cost maximises the prizes collected. A
  node with a prize <= 0 has penalty 0 and costs ``-prize`` on every arc into it instead, which keeps
  the cost equal to (positive prizes) - (route's value). Missing arcs (``NO_ARC``) are removed from
  the next-node variables.
* **Turns** ("Step 1: Travel"): a dimension with transit ``turns[u][v]``, capacity ``horizon``, no
  slack, starting at 0 (as the police dimension).
* **Money**: a dimension with transit ``gain[v]`` on arcs into v (negative for a price), cumuls in
  [0, money + positive gains] (never below zero after a stop), the start fixed at ``money``, the end
  at least ``need``.
* **Police** ("Step 2: Avoid", "Final Scoring"): a dimension with transit ``officers[u][v]`` whose
  end cumul has a soft upper bound ``free_avoids`` at cost ``wound`` per officer beyond it.

The routing library has no arc costs that depend on when the arc is used, so officers must not
change after ``today``: :func:`solve_routing` raises :class:`ConfigError` when ``officers`` and
``later_officers`` differ on an arc that the horizon lets start after ``today`` turns, and prizes must
not decay nor cards count (a disjunction's penalty is fixed). Routing does
not prove optimality: a plan is ``feasible`` (or ``infeasible`` when no route was found, which is not
a proof) and its ``bound`` is the trivial one, every positive prize.

OR-Tools documentation read: the routing guides "Vehicle Routing Problem", "Penalties and Dropping
Visits", "Dimensions", "Routing Options" (first solution strategies, guided local search, time
limits) and the ``RoutingModel`` reference (``AddDisjunction``, ``AddDimension``,
``SetCumulVarSoftUpperBound``, ``NextVar``).
"""

from __future__ import annotations

import time

from ortools.constraint_solver import pywrapcp, routing_enums_pb2
from ortools.util import optional_boolean_pb2

from solver.core import BadStateError, ConfigError
from solver.plan.escape_route import NO_ARC, Plan, RouteProblem, value_of

__all__ = ["solve_routing", "time_dependent_arcs"]

#: first solution strategies tried in turn: the cheapest-arc path, then insertion, then nothing
#: visited (money or the end may make one of them fail where another succeeds)
FIRST_SOLUTIONS = (
    routing_enums_pb2.FirstSolutionStrategy.PATH_CHEAPEST_ARC,
    routing_enums_pb2.FirstSolutionStrategy.LOCAL_CHEAPEST_INSERTION,
    routing_enums_pb2.FirstSolutionStrategy.ALL_UNPERFORMED,
)

#: local search operators that are off by default and swap visited nodes for skipped ones (or insert
#: and remove several at once): on 180 seeded instances of 3-8 nodes at 0.2 s they took the matches
#: of the brute-force optimum from 138 to 144 of 145 (a route often improves only by trading stops
#: under a tight horizon or purse, which single insertions and removals cannot reach)
EXTRA_OPERATORS = (
    "use_extended_swap_active",
    "use_relocate_and_make_active",
    "use_exchange_and_make_active",
    "use_inactive_lns",
    "use_path_lns",
)


def time_dependent_arcs(p: RouteProblem) -> list[tuple[int, int]]:
    """Arcs whose officers change after ``today`` and that may start that late within the horizon."""
    if p.horizon <= p.today:
        return []  # an arc ends by the horizon and takes a turn, so it starts before ``today``
    n = p.size
    return [(u, v) for u in range(n) for v in range(n)
            if u != v and p.turns[u][v] != NO_ARC and p.officers[u][v] != p.later_officers[u][v]]


def solve_routing(p: RouteProblem, *, seconds: float = 1.0) -> Plan:
    """A route of ``p`` by the OR-Tools routing solver (guided local search for ``seconds``).

    Raises :class:`ConfigError` when an arc's officers depend on when it starts, a prize decays or
    cards gained have a value (see the module docstring). The plan's value is :func:`value_of` of
    the route found; its status is ``feasible``, or ``infeasible`` when no first solution was found.
    Guided local search has no stopping rule of its own: a solve with a route takes the whole
    ``seconds``.
    """
    changing = time_dependent_arcs(p)
    if changing:
        u, v = changing[0]
        raise ConfigError(f"routing model: arc {u}->{v} has {p.officers[u][v]} officers today and "
                          f"{p.later_officers[u][v]} later (time-dependent police: use solve_cpsat)")
    if p.cards is not None and any(p.cards) and len(p.card_values) > 1:
        raise ConfigError("routing model: a value of the cards gained has no routing form (the "
                          "routing model's nodes carry fixed penalties): use solve_cpsat")
    if p.decay is not None and any(p.decay):
        raise ConfigError("routing model: prizes that decay with time have no routing form (the "
                          "routing model's nodes carry fixed penalties): use solve_cpsat")
    started = time.perf_counter()
    bound = sum(max(0, x) for x in p.prize[1:])
    if p.end == 0:
        # The route must end where it starts: it is empty (no node is a stop twice).
        ok = p.money >= p.need
        return Plan((), 0, "feasible" if ok else "infeasible", bound, time.perf_counter() - started,
                    "routing")
    stops = _search(p, seconds)
    wall = time.perf_counter() - started
    if stops is None:
        return Plan((), 0, "infeasible", bound, wall, "routing")
    value = value_of(p, stops)
    if value is None:
        raise BadStateError(f"routing route {stops} breaks a rule of the route problem")
    return Plan(stops, value, "feasible", bound, wall, "routing")


def _search(p: RouteProblem, seconds: float) -> tuple[int, ...] | None:
    """The stops of the best route found, or None when no first solution strategy finds one."""
    deadline = time.perf_counter() + seconds
    for strategy in FIRST_SOLUTIONS:
        left = deadline - time.perf_counter()
        stops = _solve_with(p, strategy, max(left, 0.01))
        if stops is not None:
            return stops
    return None


def _solve_with(p: RouteProblem, strategy: int, seconds: float) -> tuple[int, ...] | None:
    """One routing solve from ``strategy`` with guided local search for ``seconds``."""
    n = p.size
    end = n if p.end is None else p.end
    top_money = p.money + sum(g for g in p.gain[1:] if g > 0)
    if p.need > top_money or (p.end is not None and not any(_usable(p, 0, v) for v in range(1, n))):
        # No route; the constraint solver would fail outright (an exception) on the empty domain.
        return None
    nodes = n + 1 if p.end is None else n
    manager = pywrapcp.RoutingIndexManager(nodes, 1, [0], [end])
    routing = pywrapcp.RoutingModel(manager)
    # Costs are scaled by more than any route's turns, and each arc also costs its turns: the best
    # cost is still the best value (turns < scale), and guided local search, which penalises
    # arcs by their cost, has a cost on every arc to work with (with the prizes all in the
    # disjunction penalties it had none and stopped at the first local optimum).
    scale = p.horizon + 1

    def arc(i: int, j: int) -> tuple[int, int]:
        return manager.IndexToNode(i), manager.IndexToNode(j)

    def cost(i: int, j: int) -> int:
        u, v = arc(i, j)
        visit = -p.prize[v] if v < n and v != end and p.prize[v] < 0 else 0
        return scale * visit + (p.turns[u][v] if v < n and u != v and _usable(p, u, v) else 0)

    def turns(i: int, j: int) -> int:
        u, v = arc(i, j)
        return max(0, p.turns[u][v]) if v < n and u != v else 0  # removed arcs: any value

    def money(i: int, j: int) -> int:
        _, v = arc(i, j)
        return p.gain[v] if v < n else 0

    def officers(i: int, j: int) -> int:
        u, v = arc(i, j)
        return p.officers[u][v] if v < n and u != v else 0

    routing.SetArcCostEvaluatorOfAllVehicles(routing.RegisterTransitCallback(cost))
    top_officers = sum(max(row) for row in p.officers) + 1
    for name, fn, cap in (("turns", turns, p.horizon), ("money", money, top_money),
                          ("officers", officers, top_officers)):
        routing.AddDimension(routing.RegisterTransitCallback(fn), 0, cap, name != "money", name)
    start, finish = routing.Start(0), routing.End(0)
    cash = routing.GetDimensionOrDie("money")
    cash.CumulVar(start).SetValue(p.money)
    cash.CumulVar(finish).SetMin(p.need)
    if p.wound:
        police = routing.GetDimensionOrDie("officers")
        police.SetCumulVarSoftUpperBound(finish, p.free_avoids, scale * p.wound)

    for v in range(1, n):
        if v != end:
            routing.AddDisjunction([manager.NodeToIndex(v)], scale * max(0, p.prize[v]))
    # Missing arcs are removed from the successor domains (the dummy end is reachable from all).
    for u in range(n):
        if u == end:
            continue
        nxt = routing.NextVar(manager.NodeToIndex(u))
        for v in range(1, n):
            if v != u and not _usable(p, u, v):
                nxt.RemoveValue(finish if v == end else manager.NodeToIndex(v))

    params = pywrapcp.DefaultRoutingSearchParameters()
    params.first_solution_strategy = strategy
    params.local_search_metaheuristic = routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
    ops = params.local_search_operators
    for name in EXTRA_OPERATORS:
        setattr(ops, name, optional_boolean_pb2.BOOL_TRUE)
    params.time_limit.FromMilliseconds(max(1, round(seconds * 1000)))
    solution = routing.SolveWithParameters(params)
    if solution is None:
        return None
    stops: list[int] = []
    index = solution.Value(routing.NextVar(start))
    while not routing.IsEnd(index):
        stops.append(manager.IndexToNode(index))
        index = solution.Value(routing.NextVar(index))
    if p.end is not None:
        stops.append(end)
    return tuple(stops)


def _usable(p: RouteProblem, u: int, v: int) -> bool:
    """Whether arc u->v exists and fits the horizon."""
    return p.turns[u][v] != NO_ARC and p.turns[u][v] <= p.horizon
