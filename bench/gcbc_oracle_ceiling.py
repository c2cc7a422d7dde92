"""How much one Good Cop Bad Cop seat can gain with the compiled search when it sees every card.

A diagnostic of issue 35's strength target, never a bot: the ``ismcts`` bot with every setting as
shipped (pruning, margin, window share, concealment left to the heuristic) except its worlds, which
are the true state instead of draws from the seat's posterior. Seat substitution as in
``copsolver arena gcbc --substitute``: per deal and seat, the oracle in that seat and then the
``heuristic`` there, the ``heuristic`` in every other seat, the same deal seed; the paired difference
of the seat's win rate with a 95% normal interval (:func:`bots.arena.tournament.paired_difference`).

What the oracle makes is an upper bound on what determinized search with this playout policy and
these defaults can make in one seat: the honest bot's gap to it is the price of not knowing the
deal, and a target above it needs another method, not more iterations.

Run: ``python bench/gcbc_oracle_ceiling.py --deals 150 --seed 3600 --iterations 2000 --workers 2``
(a JSON report with ``--json PATH``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

import bots
from bots.arena.tournament import paired_difference
from bots.gcbc import ismcts as gcbc_ismcts
from bots.gcbc.ismcts import GCBCISMCTSBot
from solver import games
from solver.core import Action, Seat, State, referee
from solver.core.rng import SplitMix64
from solver.search.sim import Determinizer


class OracleBot(GCBCISMCTSBot):
    """The ``ismcts`` bot whose pool is the true state (set in :attr:`truth` before each step)."""

    truth: State | None = None

    def ready(self, determinizer: Determinizer, rng: SplitMix64) -> Determinizer:
        """One world: the true state, replayed in the compiled rules."""
        sim, search = gcbc_ismcts._SIM, gcbc_ismcts._SEARCH
        if sim is None or search is None or self.truth is None:
            raise SystemExit("the oracle needs the compiled kernels and the true state")
        pool = search.GCBCPool(getattr(determinizer, "allowed", None))
        pool.add(sim.GCBCRulesSim.from_actions(self.game, self.truth.history))
        return pool  # type: ignore[no-any-return]


def play(players: int, deal: int, seed: int, seat: int | None, iterations: int,
         options: dict[str, Any]) -> list[float]:
    """One game of deal ``deal``: the oracle (with bot ``options``) in ``seat`` (None: heuristics
    everywhere); the returns."""
    game = games.load("gcbc", players=players)
    base = seed * 100_000 + deal * 100
    seated: dict[int, Any] = {
        s: bots.make(game, "heuristic", seat=s, rng=base + s) for s in range(players) if s != seat
    }
    if seat is not None:
        seated[seat] = OracleBot(game, seat, np.random.default_rng(base + seat), iterations=iterations,
                                 **options)

    def act(st: State, who: Seat) -> Action:
        bot = seated[who]
        if isinstance(bot, OracleBot):
            bot.truth = st
        action: Action = bot.step(st.view(who))
        return action

    state = referee.play_out(game.new_initial_state(), act, np.random.default_rng(base))
    return [float(r) for r in state.returns()]


def _job(args: tuple[int, int, int, int | None, int, dict[str, Any]]) -> tuple[int, int | None, list[float]]:
    players, deal, seed, seat, iterations, options = args
    return deal, seat, play(players, deal, seed, seat, iterations, options)


def main(argv: list[str] | None = None) -> None:
    """Run the substitution and print (and optionally write) the paired difference."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=3600)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--margin", type=float, default=None, help="the bot's margin (default: its own)")
    parser.add_argument("--prune", type=int, default=None, help="the bot's prune (default: its own)")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    if not gcbc_ismcts.compiled():
        raise SystemExit("the compiled GCBC kernels are not built")
    options = {k: v for k, v in (("margin", args.margin), ("prune", args.prune)) if v is not None}
    jobs = [(args.players, d, args.seed, s, args.iterations, options)
            for d in range(args.deals) for s in [None, *range(args.players)]]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = {(deal, seat): r for deal, seat, r in pool.map(_job, jobs, chunksize=4)}
    seconds = time.perf_counter() - started
    diffs = []
    for d in range(args.deals):
        base = results[(d, None)]
        for s in range(args.players):
            oracle_won, heuristic_won = results[(d, s)][s] > 0, base[s] > 0
            diffs.append(int(oracle_won) - int(heuristic_won))
    diff = paired_difference(diffs)
    low, high = diff.interval
    mean = diff.mean or 0.0
    line = (f"oracle ismcts ({args.iterations} iterations, {options or 'defaults'}, the true state as "
            f"its one world) in a heuristic "
            f"field: {100 * mean:+.1f} points over heuristic (95% CI {100 * low:+.1f} to {100 * high:+.1f}; "
            f"{diff.pairs} pairs, oracle alone won {diff.a_wins}, heuristic alone won {diff.b_wins}); "
            f"{seconds:.0f} s")
    print(line)
    if args.json:
        given = sys.argv[1:] if argv is None else argv
        report = {"command": "python bench/gcbc_oracle_ceiling.py " + " ".join(given),
                  "settings": vars(args), "difference": diff.to_json(), "seconds": round(seconds, 1),
                  "games": [{"deal": d, "seat": s, "returns": r} for (d, s), r in sorted(
                      results.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None else kv[0][1]))]}
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1)


if __name__ == "__main__":
    main()
