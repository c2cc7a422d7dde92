"""Escape Plan planner: solve time of the route plan by day and player count.

Positions are every Travel decision of seeded games of ``heuristic`` bots at 2, 3 and 4 players (the
decision at which the ``planner`` bot re-plans); at each, the mover's view is turned into its route
problem (:func:`solver.plan.escape_problem.build`) and solved by CP-SAT with 2 workers
(:func:`solver.plan.escape_cpsat.solve_cpsat`). The script prints, per player count and day, the number
of plans, how many were proven optimal (or proven infeasible: no route reaches the day-3 exit or
pays the escape, where the bot falls back on its heuristic), the nodes and horizon of the problems,
and the build and solve seconds (median, p95, max); the issue's target is every plan proven optimal,
p95 <= 1 s, max <= 5 s.

    PYTHONPATH=. python bench/bench_escape_plan.py --games 3 --seed 0
    python -m pytest bench/bench_escape_plan.py --benchmark-only      # a few positions, per solve

Results: ``bench/results/escape-planner.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from bots.escape.heuristic import EscapeHeuristic
from solver.core import CHANCE, View
from solver.core.referee import draw_chance
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState
from solver.plan.escape_cpsat import solve_cpsat
from solver.plan.escape_problem import build


def travel_views(players: int, seed: int) -> list[tuple[EscapeGame, View, int]]:
    """The mover's view at every Travel decision of one seeded game of heuristic bots, with the day."""
    game = EscapeGame(players=players)
    seeds = np.random.SeedSequence(seed).spawn(players + 1)
    chance = np.random.default_rng(seeds[0])
    bots = [EscapeHeuristic(game, s, np.random.default_rng(seeds[s + 1])) for s in range(players)]
    st = game.new_initial_state()
    out: list[tuple[EscapeGame, View, int]] = []
    while not st.is_terminal():
        seat = st.current_player()
        if seat == CHANCE:
            st.apply(draw_chance(st, chance))
            continue
        if not isinstance(st, EscapeState):
            raise TypeError("escape: another game's state")
        view = st.view(seat)
        if st.todo[0][0] == "travel":
            out.append((game, view, int(st.day)))
        st.apply(bots[seat].step(view))
    return out


def measure(players: int, games: int, seed: int) -> list[dict[str, Any]]:
    """Build and solve at every Travel decision of ``games`` seeded games."""
    rows: list[dict[str, Any]] = []
    for g in range(games):
        for game, view, day in travel_views(players, seed + g):
            t0 = time.perf_counter()
            inst = build(game, view.to_json())
            t1 = time.perf_counter()
            plan = solve_cpsat(inst.problem, seconds=5.0, workers=2)
            rows.append({"players": players, "day": day, "nodes": inst.problem.size,
                         "horizon": inst.problem.horizon, "build": t1 - t0, "solve": plan.seconds,
                         "status": plan.status})
    return rows


def summary(rows: list[dict[str, Any]]) -> str:
    """Per player count and day: plans, proven optimal, nodes, horizon, build and solve seconds."""
    out = ["| players | day | plans | proven optimal | proven infeasible | nodes (max) | horizon (max) | "
           "build median s | solve median s | solve p95 s | solve max s |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    keys = sorted({(r["players"], r["day"]) for r in rows}) + [(0, 0)]
    for players, day in keys:
        sel = [r for r in rows if (players, day) == (0, 0) or (r["players"], r["day"]) == (players, day)]
        solve = [r["solve"] for r in sel]
        label = ("all", "all") if players == 0 else (str(players), str(day))
        out.append(f"| {label[0]} | {label[1]} | {len(sel)} | "
                   f"{sum(r['status'] == 'optimal' for r in sel)} | "
                   f"{sum(r['status'] == 'infeasible' for r in sel)} | {max(r['nodes'] for r in sel)} | "
                   f"{max(r['horizon'] for r in sel)} | {statistics.median(r['build'] for r in sel):.3f} | "
                   f"{statistics.median(solve):.3f} | {float(np.percentile(solve, 95)):.3f} | "
                   f"{max(solve):.3f} |")
    return "\n".join(out)


# --- pytest-benchmark: a few positions of one seeded 3-player game ----------------------------------------

def _positions() -> list[tuple[EscapeGame, View, int]]:
    views = travel_views(3, 0)
    return views[:: max(1, len(views) // 6)]


def test_build(benchmark: Any) -> None:
    """Building the route problems of a handful of positions."""
    views = _positions()
    insts = benchmark(lambda: [build(g, v.to_json()) for g, v, _ in views])
    assert all(i.problem.size >= 1 for i in insts)


def test_solve(benchmark: Any) -> None:
    """Solving them by CP-SAT with 2 workers."""
    insts = [build(g, v.to_json()) for g, v, _ in _positions()]
    plans = benchmark(lambda: [solve_cpsat(i.problem, seconds=5.0, workers=2) for i in insts])
    assert all(p.status in ("optimal", "feasible") for p in plans)


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="seeded games per player count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    rows = [r for n in args.players for r in measure(n, args.games, args.seed)]
    print(summary(rows))
    print(f"\n{len(rows)} plans in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
