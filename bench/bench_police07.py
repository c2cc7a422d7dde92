"""Police 07 speed: random playouts, move generation, clone, views, location sets, resampling.

Run with ``python -m pytest bench/ --benchmark-only`` (add ``COPSOLVER_PUREPYTHON=1`` for the
pure-Python twins; the kernel benchmark below times both twins side by side in one run). Every
position is built from a fixed seed, so runs compare like with like.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import solver
import solver.games
from solver._accel import load_ext
from solver.games.police07 import _moves
from solver.games.police07.locations import possible_locations

CONFIGS = {
    "2p": {"players": 2},
    "4p": {"players": 4},
    "6p-all-variants": {"players": 6, "voluntary_show": True, "unlimited_tickets": True, "free_start": True},
}


def playout(game: Any, rng: np.random.Generator) -> Any:
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


def mid_game(game: Any, moves: int = 10) -> Any:
    """A detective's decision after Dr. Factor's ``moves``-th move, from the first seed that gets there."""
    for seed in range(1000):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() > 0 and state.view(0).to_json()["factor"]["moves"] >= moves:
                return state
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    raise RuntimeError(f"no seed reaches move {moves}")


def _note(benchmark: Any, name: str, per_call: str) -> None:
    benchmark.extra_info["compiled"] = solver.is_compiled()
    mean = benchmark.stats.stats.mean
    benchmark.extra_info[per_call] = round(1.0 / mean, 1) if mean else None
    benchmark.extra_info["what"] = name


@pytest.mark.parametrize("config", list(CONFIGS))
def test_random_playout(benchmark: Any, config: str) -> None:
    game = solver.games.load("police07", **CONFIGS[config])
    rng = np.random.default_rng(0)
    benchmark(playout, game, rng)
    _note(benchmark, "one random game to the end (checked apply)", "playouts_per_s")


@pytest.mark.parametrize("who", ["factor", "detective"])
def test_legal_actions(benchmark: Any, who: str) -> None:
    state = mid_game(solver.games.load("police07", players=4))
    if who == "factor":
        while state.current_player() != 0:
            state.apply(state.legal_actions()[0])
    benchmark(state.legal_actions)
    _note(benchmark, f"legal_actions at a mid-game {who} decision", "calls_per_s")


def test_clone(benchmark: Any) -> None:
    state = mid_game(solver.games.load("police07", players=4))
    benchmark(state.clone)
    _note(benchmark, "clone of a mid-game state", "calls_per_s")


def test_clone_and_apply(benchmark: Any) -> None:
    state = mid_game(solver.games.load("police07", players=4))
    action = state.legal_actions()[0]

    def step() -> None:
        state.clone().apply_unchecked(action)

    benchmark(step)
    _note(benchmark, "clone + apply_unchecked (one search step)", "calls_per_s")


@pytest.mark.parametrize("seat", [0, 1])
def test_view(benchmark: Any, seat: int) -> None:
    state = mid_game(solver.games.load("police07", players=4))
    benchmark(state.view, seat)
    _note(benchmark, f"view({seat}) of a mid-game state", "calls_per_s")


@pytest.mark.parametrize("config", ["2p", "4p"])
def test_possible_locations(benchmark: Any, config: str) -> None:
    game = solver.games.load("police07", **CONFIGS[config])
    state = mid_game(game, moves=12)
    view = state.view(state.current_player()).to_json()
    stops = benchmark(possible_locations, game, view)
    benchmark.extra_info["set_size"] = len(stops)
    _note(benchmark, "possible_locations from a mid-game detective view", "calls_per_s")


def test_resample(benchmark: Any) -> None:
    game = solver.games.load("police07", players=4)
    state = mid_game(game, moves=12)
    view = state.view(state.current_player())
    rng = np.random.default_rng(0)
    benchmark(game.resample, view, rng)
    _note(benchmark, "resample a full state from a mid-game detective view", "calls_per_s")


@pytest.mark.parametrize("kernel", ["python", "compiled"])
def test_move_kernel(benchmark: Any, kernel: str) -> None:
    """The move generator alone, both twins on the same position (the compiled/pure ratio)."""
    ext = load_ext("p07moves")
    if kernel == "compiled" and ext is None:
        pytest.skip("compiled kernels not built or COPSOLVER_PUREPYTHON=1")
    game = solver.games.load("police07", players=4)
    state = mid_game(game)
    while state.current_player() != 0:
        state.apply(state.legal_actions()[0])
    view = state.view(0).to_json()
    occupied = bytearray(game.board.num_stops + 1)
    for piece in view["pieces"]:
        occupied[piece["stop"]] = 1
    t = view["factor"]["tickets"]
    flat, offsets = _moves.flatten(game.board.neighbours)
    py_tables = (flat.tolist(), offsets.tolist())  # the twin reads plain lists fastest
    fn: Any = ext.legal_moves if kernel == "compiled" else _moves.legal_moves
    tables = (flat, offsets) if kernel == "compiled" else py_tables
    rest = (game.board.num_stops, view["factor"]["stop"], t["taxi"], t["bus"], t["metro"], t["joker"],
            occupied, True)
    call = (*tables, *rest)
    assert fn(*call) == _moves.legal_moves(*py_tables, *rest)
    benchmark(fn, *call)
    _note(benchmark, f"{kernel} legal_moves kernel, Dr. Factor mid-game", "calls_per_s")
