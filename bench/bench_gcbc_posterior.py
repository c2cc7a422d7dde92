"""Good Cop Bad Cop posterior speed at 4 and 8 players (pure Python; numpy for the tables).

Positions: seeded ``heuristic`` self-play, the view of seat 0 after 200 actions (8 players; 100 at
4 players), with the shipped behaviour model. Three timings:

* ``update``: one history entry more, from the posterior of the entry before (what a bot or a
  tracker pays per observed action: the walk of one entry, the clusters whose factors changed,
  the forward/backward pass). This is the "update" the 5 ms target is about.
* ``scratch``: the whole posterior from the view JSON alone (walk of the whole history).
* ``sample``: one ``sample_deal`` (a determinization's deal) from a posterior already made.

    python -m pytest bench/bench_gcbc_posterior.py --benchmark-only
    python bench/bench_gcbc_posterior.py          # milliseconds per call, no pytest
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots
from solver.belief.gcbc_behaviour import load_behaviour
from solver.belief.gcbc_posterior import posterior
from solver.core.referee import play_out
from solver.games import load

ACTIONS = {4: 100, 8: 200}


def views(players: int, seed: int = 1) -> tuple[Any, list[Any]]:
    """The game and seat 0's views after each of the first ``ACTIONS[players]`` actions."""
    game = load("gcbc", players=players)
    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    seats = {s: bots.make(game, "heuristic", seat=s, rng=rng) for s in range(players)}
    out: list[Any] = []
    # chance and the bots share ``rng`` in play order; one view of seat 0 after each action
    play_out(st, lambda state, seat: seats[seat].step(state.view(seat)), rng, max_steps=ACTIONS[players],
             on_step=lambda state, _, __: out.append(state.view(0).to_json()))
    return game, out


@pytest.mark.parametrize("players", [4, 8])
def test_update(benchmark: Any, players: int) -> None:
    game, vs = views(players)
    model = load_behaviour()
    # Each round updates a fresh copy of a posterior one entry behind (update consumes its walk).
    state = {"i": 0}

    def setup() -> tuple[tuple[Any, Any], dict[str, Any]]:
        i = state["i"] % 40
        state["i"] += 1
        return (posterior(game, vs[-41 + i], model), vs[-40 + i]), {}

    benchmark.pedantic(lambda post, view: post.update(view), setup=setup, rounds=40)


@pytest.mark.parametrize("players", [4, 8])
def test_scratch(benchmark: Any, players: int) -> None:
    game, vs = views(players)
    model = load_behaviour()
    benchmark(posterior, game, vs[-1], model)


@pytest.mark.parametrize("players", [4, 8])
def test_sample(benchmark: Any, players: int) -> None:
    game, vs = views(players)
    post = posterior(game, vs[-1], load_behaviour())
    rng = np.random.default_rng(0)
    benchmark(post.sample_deal, vs[-1], rng)


def main(path: str | None = None) -> None:
    """Print median (and the slowest update's) milliseconds per call; ``path``: another model file."""
    model = load_behaviour(path)
    for players in ACTIONS:
        game, vs = views(players)
        ups, scratch = [], []
        for i in range(1, len(vs)):
            post = posterior(game, vs[i - 1], model)
            t = time.perf_counter()
            post.update(vs[i])
            ups.append(time.perf_counter() - t)
        for _ in range(20):
            t = time.perf_counter()
            posterior(game, vs[-1], model)
            scratch.append(time.perf_counter() - t)
        print(f"{players} players: update {1e3 * np.median(ups):.2f} ms (median of {len(ups)}; "
              f"max {1e3 * max(ups):.2f} ms), from scratch {1e3 * np.median(scratch):.2f} ms "
              f"({len(vs)} history entries)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
