"""Possible-location sets against the rules-engine brute force, over many games (issue 19).

Plays ``--games`` games on each board (random, heuristic and mixed seats in turn, every player
count and variant of ``tests/p07_bruteforce.py``'s tables) and compares ``possible_locations`` with
the brute force (:class:`tests.p07_bruteforce.FactorPaths`: every legal action of every branch
through the rules engine, whole views compared) at every decision point: each detective's, each of
Dr. Factor's (his turn start, after a double and between its moves, after a show, each take) and
the end. Every ``--resample-every``-th checkpoint of a live game also checks ``game.resample``
(a live state with the same view) and ``game.view_from_json`` (the genuine view is accepted); every
``--sweep-every``-th turn-start checkpoint resamples once per possible stop, forced by the belief.

The engine is the compiled one when built; ``COPSOLVER_PUREPYTHON=1`` runs the pure twins. One
process, no workers (the machine is shared).

Run: ``python bench/locations_bruteforce.py --games 1000`` (boards: ``budapest``, the tests'
16-stop ``mini`` board and their random 255-stop board ``random255``; ``--boards`` picks). Prints
one line per board and a total; exits 1 on any mismatch, printing the first ones.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver._accel import load_ext  # noqa: E402
from tests.p07_bruteforce import POLICIES, Tally, board_files, run  # noqa: E402

BOARDS = ("budapest", "mini", "random255")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per board (default 1000)")
    parser.add_argument("--boards", nargs="+", choices=BOARDS, default=list(BOARDS))
    parser.add_argument("--policies", nargs="+", choices=POLICIES, default=list(POLICIES))
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--resample-every", type=int, default=5)
    parser.add_argument("--sweep-every", type=int, default=20)
    args = parser.parse_args(argv)
    engine = "pure" if load_ext("p07belief") is None else "compiled"
    total = Tally()
    with tempfile.TemporaryDirectory() as folder:
        paths = board_files(Path(folder))
        for board in args.boards:
            start = time.perf_counter()
            tally = run(board, paths[board], args.games, tuple(args.policies), args.first_seed,
                        args.resample_every, args.sweep_every)
            seconds = time.perf_counter() - start
            total.add(tally)
            c = tally.counts
            each = seconds / max(1, c["games"])
            print(f"{engine} {board}: {c['games']} games, {c['checkpoints']} checkpoints "
                  f"({c['factor turn start']} turn starts, {c['factor between double moves']} between "
                  f"double moves, {c['detective']} detective decisions), {c['resamples']} resamples, "
                  f"{c['view_from_json']} view_from_json, largest set {c['largest']}, "
                  f"mismatches {len(tally.mismatches)}; {seconds:.0f} s ({each:.2f} s/game)",
                  flush=True)
    print(f"{engine} total: {total.counts['games']} games, {total.counts['checkpoints']} checkpoints, "
          f"mismatches {len(total.mismatches)}")
    for line in total.mismatches[:10]:
        print("MISMATCH", line)
    return 1 if total.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
