"""Escape Plan stand-in check: seeded games of heuristic bots, and the distribution of their results.

Issue 23 asks that the stand-in content (``solver/games/escape/data/content.json``, ``city.json``) lets
a game of three heuristic bots end with most players escaping and scores spread over a realistic range.
This script plays N seeded games (game ``g`` is seeded ``seed + g``: chance and every bot draw from
generators seeded from it) and prints the escape rate, the arrests, the score distribution of the
escaped players (mean, sd, min, percentiles, max), where the points come from (the scoring pad's lines,
"Final Scoring") and the winners' share by seat.

    PYTHONPATH=. python bench/escape_standins.py --games 60 --seed 0
    PYTHONPATH=. python bench/escape_standins.py --games 60 --content other.json   # try other values

Results: ``bench/results/escape-standins.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from bots.base import Bot
from bots.escape.heuristic import EscapeHeuristic
from solver.core.referee import play_out
from solver.games.escape import board as pb
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState

#: the scoring pad's lines, in its order ("Final Scoring")
LINES = ("group1", "group2", "safe_houses", "money", "used_assets", "contacts", "tiles", "notoriety",
         "wounds")


def play(players: int, seed: int, content: str | None, city: str | None) -> EscapeState:
    """One seeded game with a heuristic bot in every seat."""
    game = EscapeGame(players=players, content=content, city=city)
    seeds = np.random.SeedSequence(seed).spawn(players + 1)
    bots: list[Bot] = [EscapeHeuristic(game, s, np.random.default_rng(seeds[s + 1])) for s in range(players)]
    st = play_out(game.new_initial_state(), lambda state, seat: bots[seat].step(state.view(seat)),
                  np.random.default_rng(seeds[0]))
    if not isinstance(st, EscapeState):
        raise TypeError("escape: play_out returned another game's state")
    return st


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (linear interpolation, numpy's default)."""
    return float(np.percentile(values, q))


def summarise(states: list[EscapeState]) -> dict[str, Any]:
    """Escape rate, arrests, scores of the escaped players, scoring lines, winners by seat."""
    players = states[0].n
    seats = players * len(states)
    escaped = sum(sum(st.escaped) for st in states)
    arrested = sum(sum(st.arrested) for st in states)
    scores: list[float] = []
    lines = {name: 0.0 for name in LINES}
    wins = [0.0] * players
    everyone = 0
    for st in states:
        content = st.game.content
        if all(st.escaped):
            everyone += 1
        for s in range(players):
            if st.escaped[s]:
                pad = pb.score(st.boards[s], content.plans[st.plan[s]], content)
                scores.append(float(pad.total))
                for name in LINES:
                    lines[name] += getattr(pad, name)
        winners = st.winners()
        for s in winners:
            wins[s] += 1 / len(winners)
    out: dict[str, Any] = {
        "games": len(states), "players": players, "escape_rate": escaped / seats,
        "all_escaped": everyone / len(states), "arrested": arrested,
        "stayed": seats - escaped - arrested, "no_winner": sum(1 for st in states if not st.winners()),
        "win_share": [w / len(states) for w in wins],
    }
    if scores:
        out.update(mean=statistics.fmean(scores), sd=statistics.pstdev(scores), min=min(scores),
                   p10=percentile(scores, 10), p25=percentile(scores, 25), median=percentile(scores, 50),
                   p75=percentile(scores, 75), p90=percentile(scores, 90), max=max(scores),
                   lines={k: v / len(scores) for k, v in lines.items()})
    return out


def report(summary: dict[str, Any], seconds: float) -> str:
    """The summary as plain text."""
    s = summary
    rows = [
        f"{s['games']} games of {s['players']} heuristic bots in {seconds:.1f} s "
        f"({seconds / s['games']:.2f} s a game)",
        f"escape rate {s['escape_rate']:.1%}  (every player escaped in {s['all_escaped']:.0%} of games); "
        f"arrested {s['arrested']}, still in the city at the end {s['stayed']}; games without a winner "
        f"{s['no_winner']}",
    ]
    if "mean" in s:
        rows.append(f"score of the escaped ($k): mean {s['mean']:.1f}  sd {s['sd']:.1f}  min {s['min']:.0f}  "
                    f"p10 {s['p10']:.0f}  p25 {s['p25']:.0f}  median {s['median']:.0f}  p75 {s['p75']:.0f}  "
                    f"p90 {s['p90']:.0f}  max {s['max']:.0f}")
        rows.append("mean scoring lines ($k): " + "  ".join(f"{k} {v:.1f}" for k, v in s["lines"].items()))
    share = "  ".join(f"seat {i} {w:.1%}" for i, w in enumerate(s["win_share"]))
    rows.append(f"winner share by seat: {share}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Run the games and print the distribution."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--content", default=None, help="a content file (default: the shipped stand-ins)")
    parser.add_argument("--city", default=None, help="a city file (default: the shipped stand-ins)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    states = [play(args.players, args.seed + g, args.content, args.city) for g in range(args.games)]
    print(report(summarise(states), time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
