"""Seconds per decision of every time-budgeted search bot, under load (issue 19).

A script, not a pytest-benchmark suite (``bench/conftest.py`` collects it, and finds no test in
it): it starts ``--load`` CPU-bound busy loops in their own processes (two by default), so the bots
are timed on a machine that has less CPU to give than it has cores, as in a tournament with
parallel games. Then, for each case (game, bot, role) and each budget, it plays games in which the
measured seats are that bot with ``seconds`` = the budget and every other seat the game's
``heuristic``, and times every ``step`` call that has two legal actions or more, as the arena does
(``time.perf_counter`` around ``step``). The bot is restarted and informed as the arena does it,
and plays its own moves, so its positions are its own. A case stops after ``--decisions`` timed
decisions (a game may stop half-way).

Per case and budget it prints the decisions timed, the mean, 95th percentile and largest seconds
per decision, the mean CPU seconds the process got during a decision (far below the wall time
when the machine has more runnable processes than cores: the bot is then waiting, and can overrun
by as long as it waits at its deadline), and the overrun fraction: decisions longer than the
budget plus its tolerance,
``max(5% of it, 2 ms)`` (:func:`bots.arena.tournament.overrun_tolerance`'s rule, written out here
so that the script also runs on code from before it). A Good Cop Bad Cop bot spends only a share
of its budget on an Equipment-window decision (its ``window_share``); those decisions are timed
and counted against the full budget, as the arena counts them.

Run (about three minutes on the 2-core development machine; ``--load 0`` for no added load,
``--cases gcbc`` for some cases only)::

    PYTHONPATH=. python bench/bench_budget.py --decisions 30 --json budget.json

Results and the command that produced them: ``bench/results/budget.md``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import bots
from solver import _accel
from solver import games as game_registry
from solver.core import Action, Game, Seat, State
from solver.core.referee import play_out


@dataclass(frozen=True)
class Case:
    """One bot in one role: the game (and its options), the bot, the seats it takes, its options."""

    label: str
    game: str
    config: dict[str, Any]
    bot: str
    seats: tuple[Seat, ...]
    options: dict[str, Any] = field(default_factory=dict)


CASES: tuple[Case, ...] = (
    Case("police07 ismcts detectives", "police07", {"players": 4}, "ismcts", (1, 2, 3)),
    Case("police07 ismcts factor", "police07", {"players": 4}, "ismcts", (0,)),
    Case("police07 nw2012 detectives", "police07", {"players": 4}, "nw2012", (1, 2, 3)),
    Case("police07 nw2012 factor", "police07", {"players": 4}, "nw2012", (0,)),
    Case("gcbc ismcts", "gcbc", {"players": 6}, "ismcts", (0,)),
    Case("gcbc rollout", "gcbc", {"players": 6}, "rollout", (0,)),
    Case("lineup ismcts", "lineup", {"players": 2}, "ismcts", (0,)),
)


def tolerance(budget: float) -> float:
    """How far past its budget a decision may run: 5% of it, or 2 ms if that is more."""
    return max(0.05 * budget, 0.002)


def busy() -> None:
    """A CPU-bound loop that runs until its process is terminated."""
    x = 0
    while True:
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF


def timed_decisions(game: Game, case: Case, budget: float, decisions: int,
                    seed: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of each timed ``step`` of ``case``'s seats at ``budget``, over games from
    ``seed`` on (CPU: this process's, which the bots run in)."""
    out: list[tuple[float, float]] = []
    deal = seed
    while len(out) < decisions:
        rng = np.random.default_rng(deal)
        children = rng.spawn(game.num_players + 1)
        players = {
            seat: bots.make(game, case.bot, seat=seat, rng=children[seat], seconds=budget, **case.options)
            if seat in case.seats else bots.make(game, "heuristic", seat=seat, rng=children[seat])
            for seat in range(game.num_players)
        }
        state = game.new_initial_state()
        for seat, bot in players.items():
            bot.restart(state.view(seat))
        informed = 0

        # ``players`` bound per deal: the closures run only inside this deal's play_out
        def act(st: State, seat: Seat, players: dict[Seat, bots.Bot] = players) -> Action:
            view = st.view(seat)
            start, cpu = time.perf_counter(), time.process_time()
            action = players[seat].step(view)
            spent, used = time.perf_counter() - start, time.process_time() - cpu
            if seat in case.seats and len(view.legal_actions) >= 2:
                out.append((spent, used))
            return action

        def inform(st: State, _: Seat, __: Action, players: dict[Seat, bots.Bot] = players) -> None:
            nonlocal informed
            for event in st.events[informed:]:
                for bot_seat, bot in players.items():
                    if event.visible(bot_seat):
                        bot.inform(event)
            informed = len(st.events)

        play_out(state, act, children[-1], on_step=inform, stop=lambda _: len(out) >= decisions)
        deal += 1
    return out


def summary(timed: Sequence[tuple[float, float]], budget: float) -> dict[str, Any]:
    """Decisions, mean / p95 / max seconds, the overrun fraction and the mean CPU seconds of
    ``timed`` at ``budget``."""
    times = [wall for wall, _ in timed]
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(np.ceil(0.95 * len(ordered))) - 1)]
    over = sum(t > budget + tolerance(budget) for t in times)
    return {
        "budget": budget,
        "decisions": len(times),
        "mean": statistics.fmean(times),
        "p95": p95,
        "max": ordered[-1],
        "overruns": over,
        "overrun_fraction": over / len(times),
        "cpu_mean": statistics.fmean(cpu for _, cpu in timed),
    }


def table(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a Markdown table (times in ms)."""
    lines = ["| case | budget (s) | decisions | mean (ms) | p95 (ms) | max (ms) | overrun | CPU mean (ms) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['case']} | {r['budget']:g} | {r['decisions']} | {1000 * r['mean']:.1f} | "
                     f"{1000 * r['p95']:.1f} | {1000 * r['max']:.1f} | "
                     f"{100 * r['overrun_fraction']:.0f}% ({r['overruns']}) | {1000 * r['cpu_mean']:.1f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="0.05,0.2", help="seconds per decision, comma-separated")
    parser.add_argument("--decisions", type=int, default=30, help="timed decisions per case and budget")
    parser.add_argument("--load", type=int, default=2, help="competing CPU-bound processes")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed")
    parser.add_argument("--cases", default="", help="only the cases whose label contains one of these "
                        "comma-separated words (default: all)")
    parser.add_argument("--json", help="write the rows and the run's settings here")
    args = parser.parse_args(argv)
    budgets = [float(b) for b in args.budgets.split(",")]
    words = [w for w in args.cases.split(",") if w]
    cases = [c for c in CASES if not words or any(w in c.label for w in words)]
    load = [multiprocessing.Process(target=busy, daemon=True) for _ in range(args.load)]
    for p in load:
        p.start()
    rows: list[dict[str, Any]] = []
    try:
        for case in cases:
            game = game_registry.load(case.game, **case.config)
            for budget in budgets:
                times = timed_decisions(game, case, budget, args.decisions, args.seed)
                rows.append({"case": case.label, **summary(times, budget)})
                print(table(rows[-1:]).splitlines()[-1], flush=True)
    finally:
        for p in load:
            p.terminate()
            p.join()
    print()
    print(table(rows))
    if args.json:
        data = {
            "command": ["python", "bench/bench_budget.py", *(argv if argv is not None else sys.argv[1:])],
            "load_processes": args.load,
            "cpus": os.cpu_count(),
            "loadavg_at_end": os.getloadavg(),
            "compiled": all(_accel.compiled_status().values()),
            "platform": platform.platform(),
            "rows": rows,
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
