"""Dr. Factor's behaviour model and the location filter (solver/belief/factor_model.py,
solver/belief/location_filter.py)."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import solver.games
from solver.belief.factor_model import (
    FEATURES,
    MODEL_FORMAT,
    UNIFORM,
    Decision,
    FactorModel,
    fit,
    load_model,
    log_likelihood,
    model_from_json,
    move_features,
)
from solver.belief.location_filter import filtered_belief, main, replay
from solver.core import BadStateError
from solver.games.police07 import codec
from solver.games.police07.locations import possible_locations
from tests.test_police07_locations import Branches
from tests.test_police07_rules import MINI_BOARD

BUDAPEST = solver.games.load("police07")
MOVE_HEADS = ("taxi", "bus", "metro", "joker")


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("boards") / "mini.json"
    path.write_text(json.dumps(MINI_BOARD))
    return str(path)


def _policy(game: Any, state: Any, theta: np.ndarray) -> dict[int, float]:
    # The model's probability of each legal move of Dr. Factor in a live engine state.
    moves = [a for a in state.legal_actions() if codec.is_move(a)]
    if not moves:
        return {}
    z = move_features(game.board, moves, [s for s in state.pos[1:] if s]) @ theta
    p = np.exp(z - z.max())
    return dict(zip(moves, p / p.sum(), strict=True))


class Enumeration(Branches):
    """The model's posterior over his stop, by following every branch of the engine's own rules
    (:class:`Branches` of the set test, each branch with the model's probability mass)."""

    def __init__(self, game: Any, theta: np.ndarray) -> None:
        super().__init__(game)
        self.theta = theta
        self.mass: dict[int, float] = {0: 1.0}

    def feed(self, piece: int, text: str) -> None:
        words = text.split()
        if not (piece == 0 and words[0] in MOVE_HEADS):
            super().feed(piece, text)  # the mass stays with its stop (the start moves it to his stop)
            self.mass = {s: self.mass.get(s, 1.0 if len(self.mass) == 1 else 0.0) for s in self.states}
            return
        states: dict[int, Any] = {}
        mass: dict[int, float] = defaultdict(float)
        for stop, state in self.states.items():
            if state.is_terminal():
                continue
            for action, p in _policy(self.game, state, self.theta).items():
                move = self.game.action_to_str(action).split()
                if move[0] != words[0] or (words[-1] != "?" and move[-1] != words[-1]):
                    continue
                if int(move[-1]) not in states:
                    states[int(move[-1])] = state.clone()
                    states[int(move[-1])].apply(action)
                mass[int(move[-1])] += self.mass[stop] * p
        self.states, self.mass = states, dict(mass)

    def posterior(self, view: dict[str, Any]) -> dict[int, float]:
        keep = {s: self.mass[s] for s, st in self.states.items() if st.view(view["seat"]).to_json() == view}
        total = sum(keep.values())
        return {s: m / total for s, m in keep.items()}


def _theta(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.0, 1.0, len(FEATURES))


@pytest.mark.parametrize("seed", range(24))
def test_filter_equals_enumeration_on_a_small_board(mini: str, seed: int) -> None:
    """The matrix filter gives every stop the posterior that following each rules branch gives."""
    options = [{"players": 2, "pieces": [1]}, {"players": 3, "pieces": [1, 1]}, {"players": 2, "pieces": [2]},
               {"players": 2, "pieces": [1], "unlimited_tickets": True}][seed % 4]
    game = solver.games.load("police07", board=mini, **options)
    theta = _theta(seed)
    model = FactorModel(tuple(theta.tolist()), source="test")
    rng = np.random.default_rng(seed)
    checked = 0
    while checked < 5:  # a game can end before any detective decision: play another
        checked += _compare_game(game, model, theta, rng)


def _compare_game(game: Any, model: FactorModel, theta: np.ndarray, rng: np.random.Generator) -> int:
    # One random game, filter against enumeration at every detective decision; how many compared.
    state = game.new_initial_state()
    enum = Enumeration(game, theta)
    fed = checked = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat > 0:
            data = state.view(seat).to_json()
            for piece, text in data["history"][fed:]:
                enum.feed(piece, text)
            fed = len(data["history"])
            got = filtered_belief(game, data, model)
            expected = enum.posterior(data)
            assert set(got) == set(expected) == possible_locations(game, data)
            for stop, p in expected.items():
                assert got[stop] == pytest.approx(p, abs=1e-9)
            checked += 1
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return checked


@pytest.mark.parametrize("seed", range(6))
def test_filter_on_the_real_board_keeps_the_true_stop(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    state = BUDAPEST.new_initial_state()
    while not state.is_terminal():
        seat = state.current_player()
        if seat > 0:
            data = state.view(seat).to_json()
            belief = filtered_belief(BUDAPEST, data)
            assert set(belief) == possible_locations(BUDAPEST, data)
            assert math.isclose(sum(belief.values()), 1.0)
            assert belief[state.pos[0]] > 0
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])


def test_factor_view_and_free_start() -> None:
    state = BUDAPEST.new_initial_state()
    while state.current_player() != 0:
        state.apply(state.legal_actions()[0])
    assert filtered_belief(BUDAPEST, state.view(0)) == {state.pos[0]: 1.0}
    free = solver.games.load("police07", free_start=True)
    start = free.new_initial_state()
    assert filtered_belief(free, start.view(1).to_json()) == {}


def test_fit_recovers_a_known_model() -> None:
    """Decisions drawn from a known theta: the fit finds it (up to the ridge and sampling)."""
    rng = np.random.default_rng(7)
    truth = np.zeros(len(FEATURES))
    truth[FEATURES.index("bucket=1")] = -2.0
    truth[FEATURES.index("kind=metro")] = 1.0
    truth[FEATURES.index("close=0")] = 0.8
    decisions = []
    stops = np.arange(1, BUDAPEST.board.num_stops + 1)
    for _ in range(3000):
        here = int(rng.choice(stops))
        dets = [int(s) for s in rng.choice(stops[stops != here], size=3, replace=False)]
        moves = [codec.move_action(c, n) for c in range(3) for n in BUDAPEST.board.neighbours[c][here]
                 if n not in dets]
        if len(moves) < 2:
            continue
        rows = move_features(BUDAPEST.board, moves, dets)
        z = rows @ truth
        p = np.exp(z - z.max())
        decisions.append(Decision(rows, int(rng.choice(len(moves), p=p / p.sum()))))
    theta = fit(decisions)
    assert log_likelihood(theta, decisions) >= log_likelihood(truth, decisions)
    # Groups overlap (no detective within 2 means the nearest is 3+ away), so compare what the
    # model says, the choice probabilities, not single weights.
    def probs(t: np.ndarray, rows: np.ndarray) -> np.ndarray:
        p = np.exp(rows @ t - (rows @ t).max())
        return p / p.sum()
    gaps = [0.5 * np.abs(probs(theta, d.rows) - probs(truth, d.rows)).sum() for d in decisions]
    assert float(np.mean(gaps)) < 0.03
    uniform = [0.5 * np.abs(probs(np.zeros(len(FEATURES)), d.rows) - probs(truth, d.rows)).sum()
               for d in decisions]
    assert float(np.mean(uniform)) > 0.1  # the test can tell a wrong model apart


def test_shipped_model_loads_and_prefers_distance() -> None:
    model = load_model()
    theta = model.array()
    assert len(theta) == len(FEATURES)
    assert theta[FEATURES.index("bucket=1")] < theta[FEATURES.index("bucket=4")]
    assert model.provenance["heldout_mean_log_prob"]["filter"] > (
        model.provenance["heldout_mean_log_prob"]["categories"])


@pytest.mark.parametrize(("data", "fault"), [
    ([], "not a"),
    ({"format": MODEL_FORMAT, "features": ["x"], "theta": [0.0]}, "'features' must be"),
    ({"format": MODEL_FORMAT, "features": list(FEATURES), "theta": [0.0]}, "'theta' must be"),
    ({"format": MODEL_FORMAT, "features": list(FEATURES), "theta": [float("nan")] * len(FEATURES)},
     "'theta' must be"),
])
def test_bad_model_files_are_named(data: Any, fault: str) -> None:
    with pytest.raises(BadStateError, match=fault):
        model_from_json(data, "my.json")


def test_model_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    model = FactorModel(tuple(float(i) / 10 for i in range(len(FEATURES))))
    path.write_text(json.dumps(model.to_json({"command": "test"})))
    again = load_model(path)
    assert again.theta == model.theta and again.provenance == {"command": "test"}
    with pytest.raises(BadStateError, match="cannot read"):
        load_model(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(BadStateError, match="not valid JSON"):
        load_model(tmp_path / "bad.json")


def test_uniform_model_is_not_uniform_over_the_set() -> None:
    """Even with theta = 0 the filter weighs stops by how many paths reach them."""
    rng = np.random.default_rng(3)
    state = BUDAPEST.new_initial_state()
    spread = []
    while not state.is_terminal() and len(spread) < 20:
        seat = state.current_player()
        if seat > 0:
            belief = filtered_belief(BUDAPEST, state.view(seat).to_json(), UNIFORM)
            if len(belief) > 2:
                spread.append(max(belief.values()) - min(belief.values()))
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    assert max(spread) > 1e-3


def test_fit_command_on_recorded_games(tmp_path: Path) -> None:
    """The command replays arena reports, scores the held-out games and writes a loadable model."""
    rng = np.random.default_rng(5)
    games = []
    for _ in range(6):
        state = BUDAPEST.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        games.append({"bots": ["random", "random", "random", "random"],
                      "actions": state.to_json()["actions"]})
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"game": "police07", "config": {}, "games": games}))
    out = tmp_path / "model.json"
    assert main([str(report), "--holdout-every", "3", "--out", str(out)]) == 0
    model = load_model(out)
    assert model.provenance["games"] == 6
    played = replay(BUDAPEST, games[0]["actions"])
    assert played.decisions and all(0 <= d.chosen < len(d.rows) for d in played.decisions)
    scores: dict[str, float] = defaultdict(float, model.provenance["heldout_mean_log_prob"])
    assert scores["filter"] <= 0 and scores["uniform"] <= 0
