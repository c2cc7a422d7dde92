"""Many lockstep games of the compiled Good Cop Bad Cop rules against the Python rules.

    python bench/gcbc_sim_equality.py --games 10000 --seed 0 --jobs 1

Game i is played with ``4 + i % 5`` players, the ``rulebook`` or ``4th`` deck (alternating every
five games) and one of three policies: ``random`` (uniform), ``cards`` (a play rather than ``pass``
half the time, so every Equipment card comes up) and ``heuristic`` (the heuristic bot at every seat,
on each seat's view; the slowest, so ``--heuristic-share`` sets how many of every hundred games use
it: 34 by default, a third). A Python ``GCBCState`` and a compiled ``GCBCRulesSim`` take the same
actions; at every step the player to act, the legal actions, the chance outcomes with their
probabilities (exact float equality), every rules field and the truth of each seat's card knowledge
are compared, and at the end the payoffs and ``from_actions(history)`` against the lockstep sim
(state, knowledge, keys). Every mismatch is counted, not raised, and the first few are described.

The results go to ``bench/results/gcbc-sim-equality.md`` (``--out``): games and steps per kind,
Effects, PICK purposes and window kinds exercised, mismatches, seconds, and the command.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bots.gcbc.heuristic import HeuristicBot  # noqa: E402
from solver.core import CHANCE  # noqa: E402
from solver.games.gcbc.equipment import Effect  # noqa: E402
from solver.games.gcbc.rules import GCBCGame  # noqa: E402
from tests.test_gcbc_kernel_rules import (  # noqa: E402
    DECKS,
    PICK_PURPOSES,
    WINDOW_KINDS,
    choose,
    gcbc_sim,
    note_coverage,
    py_state_dict,
)

OUT = ROOT / "bench" / "results" / "gcbc-sim-equality.md"


def plan(i: int, heuristic_share: int) -> tuple[int, str, str]:
    """(players, deck, mode) of game ``i``."""
    mode = "heuristic" if i % 100 < heuristic_share else ("random", "cards")[i % 2]
    return 4 + i % 5, DECKS[i // 5 % 2], mode


def differences(st: Any, sim: Any) -> list[str]:
    """What differs between the Python state and the sim now (empty when nothing)."""
    out = []
    if sim.current_player() != st.current_player():
        out.append(f"current player {sim.current_player()} != {st.current_player()}")
    if sim.legal_actions() != st.legal_actions():
        out.append(f"legal {sim.legal_actions()} != {st.legal_actions()}")
    if st.current_player() == CHANCE and sim.chance_outcomes() != st.chance_outcomes():
        out.append("chance outcomes differ")
    ours, theirs = sim.state_dict(), py_state_dict(st)
    out += [f"field {k}: {ours[k]} != {theirs[k]}" for k in theirs if ours.get(k) != theirs[k]]
    for v in range(st.n):
        know = sim.know(v)
        for s in range(st.n):
            for p in range(3):
                truth = st.cards[s][p] if p < len(st.cards[s]) else -1
                if know[s][p] not in (-1, truth):
                    out.append(f"seat {v} knows {s}.{p} as {know[s][p]}, it is {truth}")
    return out


def play(args: tuple[int, int, int]) -> dict[str, Any]:
    """One lockstep game; its counts and any mismatch."""
    i, seed, share = args
    players, deck, mode = plan(i, share)
    game = GCBCGame(players, deck)
    rng = np.random.default_rng([seed, i])
    st, sim = game.new_initial_state(), gcbc_sim.GCBCRulesSim(game)
    bots = ([HeuristicBot(game, s, np.random.default_rng([seed, i, s])) for s in range(players)]
            if mode == "heuristic" else None)
    coverage: Counter[tuple[str, Any]] = Counter()
    steps, problems = 0, []
    while not problems:
        problems = differences(st, sim)
        if st.is_terminal() or problems:
            break
        action = choose(st, rng, mode, bots)
        note_coverage(st, action, coverage)
        st.apply(action)
        sim.apply(action)
        steps += 1
    if not problems:
        if sim.payoffs() != st.returns():
            problems.append(f"payoffs {sim.payoffs()} != {st.returns()}")
        other = gcbc_sim.GCBCRulesSim.from_actions(game, st.history)
        if other.state_dict() != sim.state_dict() or any(
                other.key(v) != sim.key(v) or other.know(v) != sim.know(v) for v in range(players)):
            problems.append("from_actions differs from the lockstep sim")
    return {"i": i, "players": players, "deck": deck, "mode": mode, "steps": steps,
            "coverage": coverage, "problems": problems[:3], "winner": st.winner}


def main() -> None:
    """Run the games and write the markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--heuristic-share", type=int, default=34,
                        help="games in every hundred played by the heuristic bot (default 34)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    if gcbc_sim is None:
        raise SystemExit("solver._ext.gcbc_sim is not built")
    start = time.perf_counter()
    jobs = [(i, args.seed, args.heuristic_share) for i in range(args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play, jobs, chunksize=20))
    else:
        results = [play(j) for j in jobs]
    seconds = time.perf_counter() - start

    games: Counter[tuple[str, ...]] = Counter()
    steps: Counter[tuple[str, ...]] = Counter()
    coverage: Counter[tuple[str, Any]] = Counter()
    bad = [r for r in results if r["problems"]]
    for r in results:
        for key in (("mode", r["mode"]), ("players", str(r["players"])), ("deck", r["deck"]),
                    ("winner", r["winner"] or "none")):
            games[key] += 1
            steps[key] += r["steps"]
        coverage.update(r["coverage"])
    total_steps = sum(r["steps"] for r in results)
    argv = " ".join(sys.argv[1:])
    lines = [
        "# Compiled Good Cop Bad Cop rules against the Python rules",
        "",
        "`ext/gcbc_sim.pyx` (`GCBCRulesSim`) and `solver/games/gcbc` (`GCBCState`) in lockstep from the "
        "state before the deal: at every step the player to act, the legal actions (in order), the chance",
        "outcomes with their probabilities (exact), every rules field and the truth of every seat's card",
        "knowledge; at the end the payoffs and `from_actions(history)` against the lockstep sim (fields,",
        "knowledge, keys). Policies: `random` uniform, `cards` a play rather than pass half the time,",
        f"`heuristic` the heuristic bot at every seat ({args.heuristic_share} games in every hundred; it "
        "builds the seat's view at every decision, so its games are the slowest per step). Player counts",
        "4..8 in turn, the `rulebook` and `4th` decks alternating every five games.",
        "",
        f"Command: `python bench/gcbc_sim_equality.py {argv}`",
        "",
        "| games | steps checked | mismatching games | seconds |",
        "| ---: | ---: | ---: | ---: |",
        f"| {len(results):,} | {total_steps:,} | {len(bad)} | {seconds:,.0f} |",
        "",
        "| kind | games | steps |",
        "| --- | ---: | ---: |",
    ]
    lines += [f"| {k[0]} {k[1]} | {games[k]:,} | {steps[k]:,} |" for k in sorted(games)]
    lines += ["", "Exercised (decisions or plays, all games):", "",
              "| what | count |", "| --- | ---: |"]
    lines += [f"| effect {e.value} | {coverage['effect', e]:,} |" for e in Effect]
    lines += [f"| pick purpose {p} | {coverage['pick', p]:,} |" for p in sorted(PICK_PURPOSES)]
    lines += [f"| window kind {w} | {coverage['window', w]:,} |" for w in sorted(WINDOW_KINDS)]
    lines += ["", "Mismatches: " + ("none." if not bad else f"{len(bad)} games; the first:")]
    for r in bad[:10]:
        lines.append(f"- game {r['i']} ({r['players']}p {r['deck']} {r['mode']}) step {r['steps']}: "
                     + "; ".join(r["problems"]))
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[13:17]))
    if bad:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
