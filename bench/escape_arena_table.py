"""Escape Plan tournament tables: escapes and score margins of an arena run, by replaying its games.

``copsolver arena escape --substitute ... --json RUN.json`` reports wins with Wilson intervals; issue 24
also asks for the escape rate of the substituted seat and mean score margins. This script replays every
game of the JSON through the rules (each game's action texts, chance outcomes included) and prints, for
entrant A and entrant B in the substituted seat: games, escape rate, arrests, mean final score (0 when the
seat did not escape: "Goal of the Game") and its scoring pad's lines, mean margin over the best other
seat, and the paired difference A - B of the seat's score per (deal, seat) with a 95% interval (normal
approximation).

    PYTHONPATH=. python bench/escape_arena_table.py bench/results/arena-escape-planner-3p.json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.games.escape import board as pb
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState

#: the scoring pad's lines ("Final Scoring"), shown per entrant
LINES = ("group1", "group2", "safe_houses", "money", "used_assets", "contacts", "tiles", "notoriety",
         "wounds")


def final_scores(st: EscapeState) -> list[int]:
    """Each seat's final score; 0 for a seat that did not escape (it scores nothing)."""
    content = st.game.content
    return [pb.score(st.boards[s], content.plans[st.plan[s]], content).total if st.escaped[s] else 0
            for s in range(st.n)]


def pad_lines(st: EscapeState, seat: int) -> dict[str, float]:
    """The seat's scoring pad line by line (all 0 when it did not escape)."""
    content = st.game.content
    pad = pb.score(st.boards[seat], content.plans[st.plan[seat]], content)
    return {name: float(getattr(pad, name)) if st.escaped[seat] else 0.0 for name in LINES}


def replay(game: EscapeGame, actions: list[str]) -> EscapeState:
    """The final state of one logged game."""
    st = game.new_initial_state()
    for text in actions:
        st.apply_str(text)
    if not isinstance(st, EscapeState) or not st.is_terminal():
        raise ValueError("escape arena table: a logged game does not end where its log ends")
    return st


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return mean, mean - half, mean + half


def table(run: dict[str, Any]) -> str:
    """The escapes-and-margins table of one arena JSON."""
    config = run["config"]
    game = EscapeGame(players=int(config["players"]), city=config.get("city"), content=config.get("content"))
    rows: dict[str, dict[str, list[float]]] = {}
    by_pair: dict[tuple[int, int], dict[str, float]] = {}
    for g in run["games"]:
        st = replay(game, g["actions"])
        seat, side = int(g["seat"]), str(g["side"])
        scores = final_scores(st)
        others = max(scores[s] for s in range(st.n) if s != seat)
        row = rows.setdefault(side, {"escaped": [], "arrested": [], "score": [], "margin": [], "won": [],
                                     **{name: [] for name in LINES}})
        for name, value in pad_lines(st, seat).items():
            row[name].append(value)
        row["escaped"].append(float(st.escaped[seat]))
        row["arrested"].append(float(st.arrested[seat]))
        row["score"].append(float(scores[seat]))
        row["margin"].append(float(scores[seat] - others))
        row["won"].append(float(seat in st.winners()) / max(1, len(st.winners())))
        by_pair.setdefault((int(g["deal"]), seat), {})[side] = float(scores[seat])
    names = {side: str(e["label"]) for side, e in run["entrants"].items()}
    out = [" ".join(run["command"]), "",
           "| side | bot | games | escaped | arrested | mean score $k | mean margin over best other $k "
           "| win share |", "|---|---|---|---|---|---|---|---|"]
    for side in sorted(rows):
        r = rows[side]
        out.append(f"| {side} | {names.get(side, side)} | {len(r['score'])} | "
                   f"{statistics.fmean(r['escaped']):.1%} | {int(sum(r['arrested']))} | "
                   f"{statistics.fmean(r['score']):.1f} | {statistics.fmean(r['margin']):+.1f} | "
                   f"{statistics.fmean(r['won']):.1%} |")
    out += ["", "| side | " + " | ".join(LINES) + " |", "|---|" + "---|" * len(LINES)]
    for side in sorted(rows):
        means = (f"{statistics.fmean(rows[side][n]):.1f}" for n in LINES)
        out.append(f"| {side} | " + " | ".join(means) + " |")
    diffs = [p["A"] - p["B"] for p in by_pair.values() if "A" in p and "B" in p]
    if diffs:
        mean, lo, hi = interval(diffs)
        out += ["", f"paired A - B score in the substituted seat: {mean:+.1f} $k (95% CI {lo:+.1f} to "
                f"{hi:+.1f}; {len(diffs)} pairs)"]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Print the table of each arena JSON named."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="arena --json files of escape runs")
    args = parser.parse_args(argv)
    for path in args.runs:
        print(table(json.loads(Path(path).read_text())))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
