"""How much a search bot adds to the heuristic on the exact posterior, on the very pairs it was measured on.

A substitution run of ``ismcts`` against the ``heuristic`` (``copsolver arena gcbc --substitute``)
measures the search and its base policy together: the bot prunes to, and falls back on, the
heuristic on the exact posterior (``estimate=posterior``), which gains on its own. This script
replays each run's deals (same seed, same deal count, same field) with that base heuristic in the
substituted seat, then pairs every (seed, deal, seat) game three ways: the run's A seat against the
base's (what the search adds), the base against the heuristic (what the estimate adds) and the run
as recorded. Because the base games are cheap (about a minute per 30 deals), the first difference
can be read on every committed run; the base-minus-heuristic term varies from one deal set to the
next by several points, and that spread is most of the spread between the runs' headlines.

The ``rollout`` bot's runs are read the same way. Its base is the heuristic itself, so its run as
recorded is already its gain over its base; the first difference then says what it adds over the
heuristic on the exact posterior, which it does not use to choose its candidates (but its worlds
are drawn from that posterior).

The B games (the heuristic in the seat) are played again too, and the script counts those whose
result differs from the file's: 0 means the replay is the recorded one.

Run: ``python bench/gcbc_over_base.py bench/results/arena-gcbc-ismcts-1000it-vs-heuristic-seed23.json``
(``--workers N``, default 2; files whose A entrant is neither ``ismcts`` nor ``rollout``, or whose B
entrant is not the plain ``heuristic``, are refused).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bots.arena.substitution import run as substitute
from bots.arena.tournament import BotSpec, PairedDifference, paired_difference
from solver import games
from solver.core import ConfigError

BASE = BotSpec("heuristic", {"estimate": "posterior"})
#: the B entrant a run must have: the plain heuristic (compared as its file records it)
HEURISTIC = BotSpec("heuristic")
#: the A entrants read: the search bots whose runs are split
SEARCHES = ("ismcts", "rollout")
Key = tuple[int, int, int]  # (seed, deal, seat)


def _wins(records: Sequence[dict[str, Any]], side: str, seed: int) -> dict[Key, int]:
    """1 or 0 per (seed, deal, seat) of a run file's games: whether ``side``'s substituted seat won
    (:attr:`bots.arena.substitution.SubstitutionGame.won` on the recorded returns)."""
    return {(seed, g["deal"], g["seat"]): int(g["returns"][g["seat"]] > 0)
            for g in records if g["side"] == side}


def replay_base(run: dict[str, Any], workers: int) -> tuple[dict[Key, int], dict[Key, int]]:
    """The base heuristic's and the heuristic's wins on ``run``'s deals, replayed."""
    if run["entrants"]["A"]["name"] not in SEARCHES or run["entrants"]["B"] != HEURISTIC.to_json():
        raise ConfigError("gcbc_over_base: wants an ismcts- or rollout-vs-heuristic run, "
                          f"not {run['headline']!r}")
    config = run["config"]
    game = games.load("gcbc", players=config["players"], deck=config["deck"])
    field = BotSpec(run["field"]["name"], run["field"]["options"])
    report = substitute(game, BASE, HEURISTIC, games=run["games_per_seat"], seed=run["seed"],
                        field=field, seats=run["seats"], backend="process", workers=workers)
    seed = run["seed"]
    # the replayed games' own SubstitutionGame.won, with no trip through their JSON
    won = [{(seed, g.deal, g.seat): int(g.won) for g in report.played if g.side == side} for side in "AB"]
    return won[0], won[1]


def differences(run: dict[str, Any], base: dict[Key, int], again: dict[Key, int]
                ) -> tuple[list[int], list[int], list[int], int]:
    """Per (deal, seat) of ``run``: search - base, base - heuristic and search - heuristic (each
    -1, 0 or 1), and how many of the replayed heuristic games ``again`` differ from the file's."""
    searched, heuristic = _wins(run["games"], "A", run["seed"]), _wins(run["games"], "B", run["seed"])
    keys = sorted(searched)
    missing = [k for k in keys if k not in base or k not in again or k not in heuristic]
    if missing:
        raise ConfigError(f"gcbc_over_base: (seed, deal, seat) {missing[0]} was not replayed")
    return ([searched[k] - base[k] for k in keys], [base[k] - heuristic[k] for k in keys],
            [searched[k] - heuristic[k] for k in keys], sum(again[k] != heuristic[k] for k in keys))


def _cell(p: PairedDifference) -> str:
    lo, hi = p.interval
    return f"{100 * (p.mean or 0.0):+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"


def main(argv: Sequence[str] | None = None) -> None:
    """Print one markdown row per run file and one for all of them together."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path,
                        help="substitution JSON files of ismcts or rollout vs heuristic")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    print("| run | pairs | search over the base heuristic | base over the heuristic | run as recorded "
          "| B games replayed differently |")
    print("|---|---|---|---|---|---|")
    pooled: tuple[list[int], list[int], list[int]] = ([], [], [])
    for path in args.runs:
        run = json.loads(path.read_text())
        *diffs, changed = differences(run, *replay_base(run, args.workers))
        for pool, d in zip(pooled, diffs, strict=True):
            pool.extend(d)
        cells = " | ".join(_cell(paired_difference(d)) for d in diffs)
        print(f"| {path.name} | {len(diffs[0])} | {cells} | {changed} |")
    over_base, estimate, recorded = (paired_difference(d) for d in pooled)
    print(f"| all | {over_base.pairs} | {_cell(over_base)} | {_cell(estimate)} | {_cell(recorded)} | |")


if __name__ == "__main__":
    main()
