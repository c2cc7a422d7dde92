"""Escape Plan: where the substituted seat's lost games go, line by line of the scoring pad.

For every game of an arena JSON in which side A's seat did not win, the seat's pad lines beside those
of the seat that beat it, and the pad of A's won games, so a strength gap can be read line by line.

    PYTHONPATH=. python bench/escape_losses.py bench/results/arena-escape-planner-3p.json
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.escape_arena_table import LINES, final_scores, pad_lines, replay
from solver.games.escape.rules import EscapeGame


def main(path: str) -> None:
    """Print the loss table of the arena JSON at ``path``."""
    run = json.loads(Path(path).read_text())
    c = run["config"]
    game = EscapeGame(players=int(c["players"]), city=c.get("city"), content=c.get("content"))
    lost: dict[str, list[float]] = {n: [] for n in LINES}
    winner: dict[str, list[float]] = {n: [] for n in LINES}
    won: dict[str, list[float]] = {n: [] for n in LINES}
    margins: list[float] = []
    for g in run["games"]:
        if g["side"] != "A":
            continue
        st = replay(game, g["actions"])
        seat = int(g["seat"])
        scores = final_scores(st)
        best = max((s for s in range(st.n) if s != seat), key=lambda s: scores[s])
        if seat in st.winners():
            for n, v in pad_lines(st, seat).items():
                won[n].append(v)
            continue
        margins.append(float(scores[seat] - scores[best]))
        for n, v in pad_lines(st, seat).items():
            lost[n].append(v)
        for n, v in pad_lines(st, best).items():
            winner[n].append(v)
    print(f"A lost {len(margins)} games; margin to the winner: mean {statistics.fmean(margins):+.1f}k, "
          f"median {statistics.median(margins):+.1f}k")
    print("| line | A in its losses | the winner there | A in its wins |")
    print("|---|---|---|---|")
    for n in LINES:
        print(f"| {n} | {statistics.fmean(lost[n]):.1f} | {statistics.fmean(winner[n]):.1f} | "
              f"{statistics.fmean(won[n]):.1f} |")


if __name__ == "__main__":
    main(sys.argv[1])
