"""How often the compiled GCBC playout policy picks one of the Python heuristic's best actions.

The compiled policy (``solver._ext.gcbc_search.policy_action``) is a C port of the rule-based
heuristic (``bots/gcbc/heuristic.py`` with ``estimate="rules"``) that reads each seat's knowledge from
the compiled rules' ``know`` table instead of the view's history. This script plays seeded games
with the Python heuristic in every seat (chance from a numpy Generator), keeps a compiled game
(``solver._ext.gcbc_sim.GCBCRulesSim``) in step, and at every decision with a choice asks both: the
Python bot's scores (``HeuristicBot.scores``; its top-scored ties are the set to match) and the
compiled choice (``policy_choice``, a fresh SplitMix64 seed per decision). It reports the rate at
which the compiled choice is in the Python top set, per decision kind and overall, on the decisions
that are not a window both pass, and how many of the misses fall where the Python reader holds
"floating" cards (seen before a Flashbang hid their positions; ``know`` forgets them).

    python bench/gcbc_policy_agreement.py --players 6 --games 200 --seed 0

With ``--search N`` it times the compiled ISMCTS kernel instead, on a ``GCBCPool`` of worlds drawn
by the game's resampler (32 worlds, uniform belief) from N mid-game positions of seeded heuristic
games (the first announcement from turn 8 on), and the policy's playouts alone (1000 from each
position); rates per wall second and per CPU second of the searching thread:

    python bench/gcbc_policy_agreement.py --players 6 --search 8 --iterations 20000
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bots.gcbc.heuristic import HeuristicBot, best_actions
from solver import games
from solver.core import CHANCE
from solver.games.gcbc import codec, ops
from solver.games.gcbc.rules import GCBCState

KINDS = {
    ops.ANNOUNCE: "announce", ops.WINDOW: "window", ops.AIM: "aim", ops.REAIM: "aim", ops.FLIP: "flip",
    ops.PICK: "pick", ops.KEEP_EQUIP: "keep", ops.KEEP_CARD: "keep", ops.ARRANGE: "arrange",
}


@dataclass
class Tally:
    """Decisions and agreements, per kind and in all."""

    decisions: Counter[str] = field(default_factory=Counter)
    agree: Counter[str] = field(default_factory=Counter)
    #: misses where the Python reader keeps floating cards (the accepted difference)
    floating_misses: Counter[str] = field(default_factory=Counter)
    #: a few misses to read: (kind, python top set, compiled choice, floating)
    examples: list[tuple[str, list[int], int, bool]] = field(default_factory=list)

    def add(self, kind: str, ok: bool, floating: bool, top: list[int], choice: int) -> None:
        """Count one decision under ``kind``, under "all", and (not a window both pass) "non-pass"."""
        both_pass = kind == "window" and top == [codec.PASS] and choice == codec.PASS
        for key in (kind, "all", *(() if both_pass else ("non-pass",))):
            self.decisions[key] += 1
            self.agree[key] += ok
            if not ok and floating:
                self.floating_misses[key] += 1
        if not ok and len(self.examples) < 40:
            self.examples.append((kind, top, choice, floating))

    def rate(self, key: str) -> float:
        """Agreement rate of ``key`` (1.0 when there were none)."""
        return self.agree[key] / self.decisions[key] if self.decisions[key] else 1.0

    def table(self) -> list[dict[str, Any]]:
        """One row per kind: decisions, agreement rate, misses, misses with floating cards."""
        order = ["announce", "window", "aim", "flip", "pick", "keep", "arrange", "non-pass", "all"]
        return [
            {"kind": key, "decisions": self.decisions[key], "agree": round(self.rate(key), 4),
             "misses": self.decisions[key] - self.agree[key], "floating": self.floating_misses[key]}
            for key in order if self.decisions[key]
        ]


def measure(players: int, games_n: int, seed: int, deck: str = "rulebook",
            tally: Tally | None = None) -> Tally:
    """Play ``games_n`` seeded heuristic games and tally the compiled policy's agreement."""
    from solver._ext.gcbc_search import policy_choice
    from solver._ext.gcbc_sim import GCBCRulesSim

    tally = tally if tally is not None else Tally()
    game = games.load("gcbc", players=players, deck=deck)
    for g in range(games_n):
        gseed = seed + g
        rng = np.random.default_rng(gseed)
        state = game.new_initial_state()
        assert isinstance(state, GCBCState)
        sim = GCBCRulesSim.from_actions(game, [])
        seated = [HeuristicBot(game, s, np.random.default_rng(gseed * 16 + s), estimate="rules")
                  for s in range(players)]
        step = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                outcomes = state.chance_outcomes()
                action = outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]
            else:
                view = state.view(seat)
                bot = seated[seat]
                legal = state.legal_actions()
                if len(legal) > 1:
                    scored, k = bot.scores(view)
                    top = best_actions(scored)
                    choice = policy_choice(sim, (gseed << 20) + step)
                    floating = any(k.floating[s] for s in range(players))
                    tally.add(KINDS.get(state.stack[-1][0], "other"), choice in top, floating, top, choice)
                action = bot.step(view)
            state.apply(action)
            sim.apply(action)
            step += 1
    return tally


def position(game: Any, seed: int, turn: int) -> GCBCState:
    """A seeded heuristic game stopped at its first announcement from ``turn`` on."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    assert isinstance(state, GCBCState)
    seated = [HeuristicBot(game, s, np.random.default_rng(seed * 16 + s), estimate="rules")
              for s in range(game.num_players)]
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
            continue
        if state.turn >= turn and state.stack[-1][0] == ops.ANNOUNCE and len(state.legal_actions()) > 1:
            return state
        state.apply(seated[seat].step(state.view(seat)))
    raise RuntimeError(f"game {seed} ended before turn {turn}")


def search_speed(players: int, positions: int, seed: int, iterations: int, worlds: int = 32,
                 deck: str = "rulebook") -> list[dict[str, Any]]:
    """Per position: the search's iterations a second, the playout's microseconds and length."""
    from solver._ext.gcbc_search import GCBCPool, GCBCSearchSim, play_out
    from solver._ext.gcbc_sim import GCBCRulesSim
    from solver.core.rng import SplitMix64
    from solver.search.ismcts import Budget, run_search

    game = games.load("gcbc", players=players, deck=deck)
    rows = []
    for i in range(positions):
        state = position(game, seed + i, 8)
        seat = state.current_player()
        view = state.view(seat)
        rng = np.random.default_rng(seed + i)
        pool = GCBCPool()
        for _ in range(worlds):
            pool.add(GCBCRulesSim.from_actions(game, game.resample(view, rng).history))
        root = GCBCSearchSim.from_actions(game, state.history)
        start = time.perf_counter()
        steps = sum(play_out(root.copy(), k) for k in range(1000))
        playout = (time.perf_counter() - start) / 1000
        cpu = time.thread_time()
        result = run_search(pool, seat, Budget(iterations=iterations), SplitMix64(seed + i))
        cpu = time.thread_time() - cpu
        rows.append({"position": i, "turn": state.turn, "seat": seat, "legal": len(state.legal_actions()),
                     "it_per_s": result.iterations / result.elapsed, "it_per_cpu_s": result.iterations / cpu,
                     "playout_us": playout * 1e6,
                     "playout_steps": steps / 1000, "nodes": result.nodes, "engine": result.engine})
    return rows


def main() -> None:
    """Command line: measure and print the table (and the misses with --examples)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deck", default="rulebook")
    parser.add_argument("--examples", action="store_true", help="print the first misses")
    parser.add_argument("--search", type=int, default=0, help="time the search on this many positions")
    parser.add_argument("--iterations", type=int, default=20000)
    args = parser.parse_args()
    if args.search:
        rows = search_speed(args.players, args.search, args.seed, args.iterations, deck=args.deck)
        for row in rows:
            print(f"position {row['position']} turn {row['turn']} seat {row['seat']} "
                  f"({row['legal']} actions): "
                  f"{row['it_per_s']:.0f} it/s ({row['it_per_cpu_s']:.0f} a CPU second), "
                  f"{row['nodes']} nodes ({row['engine']}); "
                  f"playout {row['playout_us']:.0f} us, {row['playout_steps']:.0f} actions")
        for key, what in (("it_per_s", "wall"), ("it_per_cpu_s", "CPU")):
            rates = [row[key] for row in rows]
            print(f"iterations a {what} second: mean {sum(rates) / len(rates):.0f}, min {min(rates):.0f}")
        return
    start = time.perf_counter()
    tally = measure(args.players, args.games, args.seed, args.deck)
    elapsed = time.perf_counter() - start
    print(f"{args.games} games, {args.players} players, deck {args.deck}, seed {args.seed} ({elapsed:.0f} s)")
    print(f"{'kind':<10}{'decisions':>10}{'agree':>8}{'misses':>8}{'floating':>10}")
    for row in tally.table():
        print(f"{row['kind']:<10}{row['decisions']:>10}{row['agree']:>8.4f}{row['misses']:>8}{row['floating']:>10}")
    if args.examples:
        print(json.dumps(tally.examples, indent=None))


if __name__ == "__main__":
    main()
