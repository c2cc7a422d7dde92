"""Location categorisation (solver/belief/categories.py), its shipped weights and the learner."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import solver.games
from bots.police07 import learn_categories
from solver.belief.categories import (
    BUCKETS,
    SCHEMES,
    WEIGHTS_FORMAT,
    LocationWeights,
    categories,
    category_names,
    category_weights,
    detective_stops,
    load_weights,
    stop_types,
)
from solver.core import BadStateError
from solver.games.police07.board import Line
from solver.games.police07.distances import UNREACHABLE, detective_distances
from solver.games.police07.locations import possible_locations

BOARD = solver.games.load("police07").board


# --- categories -----------------------------------------------------------------------------------
def test_category_names() -> None:
    assert category_names("distance") == ("1", "2", "3", "4", "5+")
    names = category_names("distance_type")
    assert len(names) == 15 and names[0] == "1/taxi" and names[-1] == "5+/metro"
    with pytest.raises(BadStateError, match="unknown scheme 'nearest'"):
        category_names("nearest")


def test_stop_types_follow_the_links() -> None:
    types = stop_types(BOARD)
    for s in BOARD.stops:
        if BOARD.neighbours[Line.METRO][s]:
            assert types[s] == 2
        elif BOARD.neighbours[Line.BUS][s]:
            assert types[s] == 1
        else:
            assert types[s] == 0
    assert set(types[1:].tolist()) == {0, 1, 2}


@pytest.mark.parametrize("seed", range(20))
def test_distance_buckets_match_the_table(seed: int) -> None:
    rng = np.random.default_rng(seed)
    dets = [int(s) for s in rng.choice(np.arange(1, BOARD.num_stops + 1), size=1 + seed % 5, replace=False)]
    stops = sorted(int(s) for s in rng.choice(np.arange(1, BOARD.num_stops + 1), size=30, replace=False))
    table = detective_distances(BOARD)
    by_distance = categories(BOARD, stops, dets, "distance")
    crossed = categories(BOARD, stops, dets, "distance_type")
    for s, cat, both in zip(stops, by_distance, crossed, strict=True):
        d = min(int(table[p, s]) for p in dets)
        expected = min(max(d, 1), 5) - 1
        assert cat == expected and both == expected * 3 + stop_types(BOARD)[s]
        assert category_names("distance")[cat] == BUCKETS[expected]


def test_no_detective_and_unreachable_are_far() -> None:
    assert categories(BOARD, [1, 50, 196], [], "distance").tolist() == [4, 4, 4]
    assert UNREACHABLE > 5


# --- weights over a view --------------------------------------------------------------------------
def detective_decisions(game: Any, seed: int, every: int = 3) -> list[Any]:
    """Detective views (with the true state) from a random game, every ``every``-th decision."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    found = []
    n = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat > 0:
            n += 1
            if n % every == 0:
                found.append((state.clone(), state.view(seat)))
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return found


@pytest.mark.parametrize("scheme", SCHEMES)
def test_category_weights_normalised_and_proportional(scheme: str) -> None:
    game = solver.games.load("police07", players=2, pieces=[1], unlimited_tickets=True)
    table = load_weights(scheme=scheme)
    checked = 0
    for seed in range(6):
        for state, view in detective_decisions(game, seed):
            data = view.to_json()
            probs = category_weights(game, view, table)
            possible = possible_locations(game, data)
            assert set(probs) == possible and state.pos[0] in probs
            assert sum(probs.values()) == pytest.approx(1.0)
            if len(possible) < 2:
                continue
            stops = sorted(possible)
            cats = categories(game.board, stops, detective_stops(data), scheme)
            ref = probs[stops[0]] / table.weights[cats[0]]
            for s, c in zip(stops, cats, strict=True):
                assert probs[s] == pytest.approx(ref * table.weights[c])
            checked += 1
    assert checked > 20


def test_factor_view_and_free_start() -> None:
    game = solver.games.load("police07", players=3, free_start=True)
    state = game.new_initial_state()
    while state.current_player() != 0:
        state.apply(state.legal_actions()[0])
    assert category_weights(game, state.view(1)) == {}  # he has not placed his piece yet
    state.apply(state.legal_actions()[0])
    assert category_weights(game, state.view(0).to_json()) == {state.pos[0]: 1.0}


@pytest.mark.parametrize("seed", range(12))
def test_weighted_resample_is_always_consistent(seed: int) -> None:
    options = [{"players": 2, "pieces": [1], "unlimited_tickets": True}, {"players": 4},
               {"players": 4, "voluntary_show": True, "free_start": True}][seed % 3]
    game = solver.games.load("police07", **options)
    rng = np.random.default_rng(seed)
    for _, view in detective_decisions(game, seed, every=2):
        belief = category_weights(game, view)
        data = view.to_json()
        for _ in range(3):
            drawn = game.resample(view, rng, belief=belief)
            assert drawn.view(view.seat).to_json() == data
            if belief:
                assert drawn.pos[0] in belief


def test_weighted_resample_follows_the_weights() -> None:
    """Stop frequencies of weighted resampling track the category probabilities."""
    game = solver.games.load("police07", players=2, pieces=[1], unlimited_tickets=True)
    for seed in range(50):
        candidates = [v for _, v in detective_decisions(game, seed, every=1)
                      if 6 <= len(possible_locations(game, v.to_json())) <= 15]
        spread = [v for v in candidates if len(set(category_weights(game, v).values())) > 1]
        if spread:
            view = spread[0]
            break
    else:
        pytest.fail("no position with several categories among 6..15 possible stops")
    probs = category_weights(game, view)
    rng = np.random.default_rng(0)
    n = 3000
    drawn = Counter(game.resample(view, rng, belief=probs).pos[0] for _ in range(n))
    for s, p in probs.items():
        assert abs(drawn[s] / n - p) < 4 * np.sqrt(p * (1 - p) / n) + 0.005, (s, p, drawn[s])


# --- the data file and user files -----------------------------------------------------------------
def test_shipped_weights_name_their_provenance() -> None:
    table = load_weights()
    assert table.source == "shipped" and table.scheme in SCHEMES
    prov = table.provenance
    # the shipped file was made before issue 20 moved the command from solver.belief to bots.police07
    assert prov["command"].split()[:3] in (["python", "-m", "solver.belief.learn_categories"],
                                           ["python", "-m", "bots.police07.learn_categories"])
    assert prov["command"].split()[3] == "--games"
    assert prov["games"] >= 1000 and isinstance(prov["seed"], int)
    assert prov["bots"]["factor"] == "heuristic" and prov["bots"]["detectives"] == "heuristic"
    assert prov["decisions"] > 10_000
    assert all(w > 0 for w in table.weights)
    distance = dict(zip(load_weights(scheme="distance").names, load_weights(scheme="distance").weights,
                        strict=True))
    # The heuristic Dr. Factor keeps out of a detective's reach: adjacent stops are rarer than uniform.
    assert distance["1"] < 1.0 < distance["3"]


def test_shipped_file_counts_add_up() -> None:
    path = Path(learn_categories.DEFAULT_OUT)
    data = json.loads(path.read_text())
    assert data["format"] == WEIGHTS_FORMAT
    decisions = data["provenance"]["decisions"]
    for scheme in SCHEMES:
        entry = data["schemes"][scheme]
        assert sum(entry["hits"]) == decisions
        assert sum(entry["share"]) == pytest.approx(decisions, rel=1e-3)
        for w, h, e in zip(entry["weights"], entry["hits"], entry["share"], strict=True):
            assert w == pytest.approx((h + 1) / (e + 1), rel=1e-3, abs=1e-3)
    assert data["evaluation"][data["default_scheme"]] >= data["evaluation"]["uniform"]


def write_weights(path: Path, weights: list[float], **changes: Any) -> Path:
    data: dict[str, Any] = {
        "format": WEIGHTS_FORMAT,
        "default_scheme": "distance",
        "schemes": {"distance": {"categories": list(BUCKETS), "weights": weights}},
        "provenance": {"command": "by hand", "games": 0},
    }
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


def test_user_weights_file(tmp_path: Path) -> None:
    path = write_weights(tmp_path / "mine.json", [1.0, 1.0, 1.0, 1.0, 1000.0])
    table = load_weights(path)
    assert isinstance(table, LocationWeights) and table.source == str(path)
    game = solver.games.load("police07", players=2, pieces=[1], unlimited_tickets=True)
    for seed in range(10):
        for _, view in detective_decisions(game, seed):
            data = view.to_json()
            probs = category_weights(game, view, weights=str(path))
            stops = sorted(probs)
            cats = categories(game.board, stops, detective_stops(data), "distance") if stops else []
            if len(stops) > 1 and 4 in cats and min(cats) != 4:
                far = sum(probs[s] for s, c in zip(stops, cats, strict=True) if c == 4)
                assert far > 0.9
                return
    pytest.fail("no position with far and near possible stops")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a 'copsolver-police07-location-weights/1' file"),
        ({"default_scheme": "distance_type"}, "no scheme 'distance_type'"),
        ({"schemes": {}}, "'schemes' must be an object"),
        ({"provenance": None}, "'provenance' must say"),
        ({"schemes": {"distance": {"categories": ["1"], "weights": [1.0]}}}, "must list the categories"),
    ],
)
def test_bad_weights_files(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    path = write_weights(tmp_path / "bad.json", [1.0] * 5, **change)
    with pytest.raises(BadStateError, match=message):
        load_weights(path)


@pytest.mark.parametrize(("weights", "message"), [
    ([1.0, 1.0, 0.0, 1.0, 1.0], "finite positive weights"),
    ([1.0] * 4, "finite positive weights"),
    # json.dumps writes NaN, which the strict reader (solver.core.files) refuses before any check
    ([1, 1, 1, 1, float("nan")], "NaN is not a JSON number"),
])
def test_weights_must_be_positive_and_complete(tmp_path: Path, weights: list[float], message: str) -> None:
    path = write_weights(tmp_path / "bad.json", weights)
    with pytest.raises(BadStateError, match=message):
        load_weights(path)


def test_unreadable_weights_file(tmp_path: Path) -> None:
    with pytest.raises(BadStateError, match="cannot read"):
        load_weights(tmp_path / "missing.json")
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(BadStateError, match="not valid JSON"):
        load_weights(tmp_path / "junk.json")


# --- the learner ----------------------------------------------------------------------------------
def test_learner_writes_a_loadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "weights.json"
    assert learn_categories.main(["--games", "5", "--seed", "3", "--out", str(out), "--quiet"]) == 0
    assert "wrote" in capsys.readouterr().out
    table = load_weights(out)
    assert table.provenance["command"] == "python -m bots.police07.learn_categories --games 5 --seed 3"
    assert table.provenance["games"] == 5 and table.provenance["seed"] == 3
    data = json.loads(out.read_text())
    assert data["evaluation"]["decisions"] > 0  # game 4 is held out
    for scheme in SCHEMES:
        assert load_weights(out, scheme=scheme).scheme == scheme


def test_learner_is_deterministic() -> None:
    first = learn_categories.learn(3, seed=11, players=[4])
    second = learn_categories.learn(3, seed=11, players=[4])
    for data in (first, second):
        data["provenance"].pop("cpu_seconds")
    assert first == second
    assert first["provenance"]["command"].endswith("--players 4")


def test_learner_rejects_bad_options() -> None:
    with pytest.raises(SystemExit):
        learn_categories.main(["--games", "0"])
    with pytest.raises(SystemExit):
        learn_categories.main(["--players", "7"])
