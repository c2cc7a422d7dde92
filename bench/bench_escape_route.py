"""Escape Plan route solvers: CP-SAT against the routing solver on the same seeded instances.

Instances of 12, 20 and 30 nodes (:func:`instance`): nodes at seeded points of a unit square, an
arc's turns 1-3 by distance and about one arc in five missing, 0-2 officers an arc (the same today
and later, so the routing solver applies), prizes -$2k..$12k, prices and income at the stops, a
horizon of 4 + n/3 turns, 4 free avoids at $20k a wound, and every other instance a need and an end.

* pytest-benchmark: ``solve_cpsat`` (5 s limit, 2 workers) and ``solve_routing`` (1 s) on one
  instance per size; each records its value in ``extra_info``.
* Script: a table per size over ``--instances`` seeds: CP-SAT's median/p95/max seconds and how many
  it proved optimal; routing's median seconds, how often its value equals CP-SAT's and the mean gap
  (CP-SAT's value less routing's, in value units: tenths of $1k) where both found a route; ``no route``
  counts instances where CP-SAT found one and routing none, ``infeasible`` those CP-SAT proved so.

    python -m pytest bench/bench_escape_route.py --benchmark-only
    python bench/bench_escape_route.py --instances 30
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pytest

from solver.plan.escape_cpsat import solve_cpsat
from solver.plan.escape_route import NO_ARC, Plan, RouteProblem
from solver.plan.escape_routing import solve_routing

SIZES = (12, 20, 30)


def instance(n: int, seed: int) -> RouteProblem:
    """A seeded route problem of ``n`` nodes with time-independent officers (see the docstring)."""
    rng = np.random.default_rng([n, seed])
    xy = rng.random((n, 2))
    dist = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
    turns = np.clip(np.ceil(dist * 3), 1, 3).astype(int)
    turns[(rng.random((n, n)) < 0.2) | np.eye(n, dtype=bool)] = NO_ARC
    cops = rng.integers(0, 3, size=(n, n))
    prize = rng.integers(-20, 121, size=n)
    gain = rng.integers(-30, 41, size=n)
    prize[0] = gain[0] = 0
    hard = seed % 2 == 1
    grid = tuple(tuple(int(x) for x in row) for row in turns)
    police = tuple(tuple(int(x) for x in row) for row in cops)
    horizon = 4 + n // 3
    return RouteProblem(
        names=tuple(f"L{i}" for i in range(n)), prize=tuple(int(x) for x in prize), turns=grid,
        officers=police, later_officers=police, today=horizon // 2, horizon=horizon, free_avoids=4,
        wound=200, money=50, gain=tuple(int(x) for x in gain), need=100 if hard else 0,
        end=n - 1 if hard else None)


@pytest.mark.parametrize("n", SIZES)
def test_cpsat(benchmark: Any, n: int) -> None:
    p = instance(n, 0)
    plan: Plan = benchmark.pedantic(solve_cpsat, args=(p,), rounds=3, iterations=1)
    benchmark.extra_info.update(value=plan.value, status=plan.status)
    assert plan.status in ("optimal", "feasible")


@pytest.mark.parametrize("n", SIZES)
def test_routing(benchmark: Any, n: int) -> None:
    p = instance(n, 0)
    plan: Plan = benchmark.pedantic(solve_routing, args=(p,), rounds=1, iterations=1)
    benchmark.extra_info.update(value=plan.value, status=plan.status)
    assert plan.status == "feasible"


def table(instances: int, cpsat_seconds: float, routing_seconds: float) -> list[str]:
    """The script's table, one line per size."""
    lines = [f"{'nodes':>5} {'cp-sat median':>13} {'p95':>6} {'max':>6} {'optimal':>8} "
             f"{'routing median':>14} {'equal':>6} {'mean gap':>8} {'no route':>8} {'infeasible':>10}"]
    for n in SIZES:
        cp_times: list[float] = []
        rt_times: list[float] = []
        optimal = equal = infeasible = missed = 0
        gaps: list[int] = []
        for seed in range(instances):
            p = instance(n, seed)
            a = solve_cpsat(p, seconds=cpsat_seconds)
            b = solve_routing(p, seconds=routing_seconds)
            cp_times.append(a.seconds)
            rt_times.append(b.seconds)
            optimal += a.status == "optimal"
            if a.status == "infeasible":
                infeasible += 1
                continue
            if b.status != "feasible":
                missed += 1  # CP-SAT has a route, routing found none
                continue
            equal += a.value == b.value
            gaps.append(a.value - b.value)
        q = np.quantile(cp_times, [0.5, 0.95])
        gap = f"{np.mean(gaps):8.1f}" if gaps else f"{'-':>8}"
        lines.append(f"{n:5d} {q[0]:13.3f} {q[1]:6.2f} {max(cp_times):6.2f} {optimal:4d}/{instances:<3d} "
                     f"{np.median(rt_times):14.3f} {equal:2d}/{len(gaps):<3d} {gap} {missed:8d} "
                     f"{infeasible:10d}")
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=30, help="seeds per size")
    parser.add_argument("--cpsat-seconds", type=float, default=5.0, help="CP-SAT time limit")
    parser.add_argument("--routing-seconds", type=float, default=1.0, help="routing time limit")
    args = parser.parse_args()
    print(f"{args.instances} instances a size; CP-SAT {args.cpsat_seconds} s on 2 workers, "
          f"routing {args.routing_seconds} s (guided local search)")
    print("\n".join(table(args.instances, args.cpsat_seconds, args.routing_seconds)))
