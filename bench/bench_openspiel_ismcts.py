"""OpenSpiel's own Python ISMCTS on Police 07 through our adapter: iterations per second.

The yardstick for our ISMCTS (DESIGN.md section 8: compare in one run). The positions are
``bench_ismcts.position``'s, where our ISMCTS is timed: a 6-player game (5 detectives), the
detective's or Dr. Factor's decision after Dr. Factor's 5th move. That function hands over the
seat's view; the true state searched from is drawn from it by ``game.resample``, which changes
nothing for ISMCTS, since every iteration resamples from the information state anyway.

OpenSpiel's bot searches with random rollouts, one ``resample_from_infostate`` per iteration and
nodes keyed by information-state strings (see :func:`bots.adapters.openspiel.openspiel_ismcts_bot`);
``extra_info`` records ``iterations_per_s``. Skipped without the ``openspiel`` extra.

    python -m pytest bench/bench_openspiel_ismcts.py bench/bench_ismcts.py --benchmark-only
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import solver
from bench.bench_ismcts import position as view_position

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'copsolver[openspiel]')")

from bots.adapters import openspiel  # noqa: E402  (needs pyspiel, checked just above)

#: as many as bench_ismcts gives our pure-Python search
ITERATIONS = 300


def position(role: str) -> tuple[Any, Any]:
    """The pyspiel game and a state at ``role``'s ("detective" or "factor") benchmark decision."""
    view = view_position(role)
    state = view.game.resample(view, np.random.default_rng(0))
    game = openspiel.register("police07", **view.game.config())
    spiel_state = game.new_initial_state(state.to_json())
    expected = json.dumps(view.to_json(), sort_keys=True, separators=(",", ":"))
    if spiel_state.information_state_string() != expected:
        raise RuntimeError(f"the {role} position does not match bench_ismcts's view")
    if len(spiel_state.legal_actions()) < 2:
        raise RuntimeError(f"the {role} position has a single legal move: nothing to search")
    return game, spiel_state


@pytest.mark.parametrize("role", ["detective", "factor"])
def test_openspiel_ismcts(benchmark: Any, role: str) -> None:
    game, state = position(role)
    bot = openspiel.openspiel_ismcts_bot(game, iterations=ITERATIONS, seed=0)
    benchmark.pedantic(bot.step, args=(state,), rounds=3, warmup_rounds=1, iterations=1)
    mean = benchmark.stats.stats.mean
    players = game.num_players()
    benchmark.extra_info["what"] = (
        f"OpenSpiel Python ISMCTS (adapter), {ITERATIONS} iterations, {players} players, {role} to act"
    )
    benchmark.extra_info["iterations"] = ITERATIONS
    benchmark.extra_info["iterations_per_s"] = round(ITERATIONS / mean, 1) if mean else None
    benchmark.extra_info["compiled_rules"] = solver.is_compiled()
    benchmark.extra_info["history_length"] = len(state.history())
