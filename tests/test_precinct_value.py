"""The Precinct state value (solver/search/precinct_value.py): features, the model file, the fit."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from solver import games
from solver.core import CHANCE, BadStateError
from solver.core.referee import draw_chance
from solver.games.precinct.state import PrecinctState
from solver.search.precinct_value import (
    DIRTY,
    FORMAT,
    NAMES,
    SIGNS,
    ValueModel,
    features,
    fit_logistic,
    load_value,
    model_from_json,
    penalised_gradient,
)


def _turn_starts(seed: int, players: int = 4, dirty: bool = False
                 ) -> tuple[list[PrecinctState], PrecinctState]:
    """Clones of the state at every cop's turn start of a seeded random game, and the final state."""
    game = games.load("precinct", players=players, dirty_cop=dirty)
    rng = np.random.default_rng(seed)
    st = game.new_initial_state()
    seen = 0
    out: list[PrecinctState] = []
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            st.apply(draw_chance(st, rng))
        else:
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
        if st.turns != seen and st.result == 0:
            seen = st.turns
            out.append(st.clone())
    return out, st


@pytest.fixture(scope="module")
def positions() -> list[PrecinctState]:
    return [s for seed in range(6) for s in _turn_starts(seed)[0]]


def test_features_finite_and_named(positions: list[PrecinctState]) -> None:
    assert len(set(NAMES)) == len(NAMES)
    for st in positions:
        x = features(st)
        assert x.dtype == np.float64 and x.shape == (len(NAMES),)
        assert np.all(np.isfinite(x))


@pytest.mark.parametrize("players", [1, 3, 6])
def test_features_at_other_player_counts(players: int) -> None:
    starts, _ = _turn_starts(11, players)
    model = load_value()
    for st in starts:
        assert np.all(np.isfinite(features(st)))
        assert 0.0 < model.value(st) < 1.0


def test_features_read_no_hidden_fact(positions: list[PrecinctState]) -> None:
    # hand contents, deck orders and (without the Dirty Cop) loyalty cards change; the features must not
    st = positions[len(positions) // 2]
    other = st.clone()
    for cop in other.cops:
        cop.hand = [(k + 1) % len(st.game.content.police) for k in cop.hand]
    other.loyalty = [not x for x in other.loyalty]
    other.police = list(reversed(other.police))
    assert np.array_equal(features(st), features(other))


def test_value_in_unit_interval(positions: list[PrecinctState]) -> None:
    model = load_value()
    values = [model.value(st) for st in positions]
    assert all(0.0 < v < 1.0 for v in values)
    assert max(values) - min(values) > 0.05  # it reads the position, not a constant


def test_terminal_states_are_exact() -> None:
    model = load_value()
    results = set()
    for seed in range(4):
        starts, final = _turn_starts(seed)
        assert final.result != 0
        assert model.value(final) == (1.0 if final.result > 0 else 0.0)
        results.add(final.result)
        won, lost = starts[-1].clone(), starts[-1].clone()
        won.end(True, "test")
        lost.end(False, "test")
        assert model.value(won) == 1.0 and model.value(lost) == 0.0


def test_more_evidence_never_lowers_the_value(positions: list[PrecinctState]) -> None:
    model = load_value()
    checked = 0
    for st in positions:
        for d, (need, _) in enumerate(st.game.content.decks):
            stack = st.stacks[d]
            if st.placed[d] >= need or stack.evidence == 0:
                continue
            more = st.clone()
            more.placed[d] += 1
            more.stacks[d].evidence -= 1
            more.stacks[d].shuffle()
            if more.placed[d] >= need:
                more.stacks[d].gone = True
            assert model.value(more) >= model.value(st) - 1e-12, (d, st.placed)
            checked += 1
    assert checked > 50


def test_more_crime_never_raises_the_value(positions: list[PrecinctState]) -> None:
    model = load_value()
    checked = 0
    for st in positions:
        if st.crime + 1 >= st.game.content.crime_fail:
            continue
        worse = st.clone()
        worse.crime += 1
        assert model.value(worse) <= model.value(st) + 1e-12, st.crime
        checked += 1
    assert checked > 50


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _good() -> dict[str, object]:
    return {"format": FORMAT, "bias": 0.1, "weights": {n: 0.0 for n in NAMES}}


@pytest.mark.parametrize("edit, fault", [
    (lambda d: d.update(format="other/1"), "format"),
    (lambda d: d.update(weights=[1, 2]), "'weights'"),
    (lambda d: d["weights"].update(mystery=1.0), "unknown features"),
    (lambda d: d["weights"].update({NAMES[3]: "big"}), "not a finite number"),
    (lambda d: d.update(bias=True), "not a finite number"),
    (lambda d: d["weights"].pop(NAMES[2]), "prefix"),
])
def test_loader_rejects_bad_files(tmp_path: Path, edit, fault: str) -> None:  # type: ignore[no-untyped-def]
    data = _good()
    edit(data)
    with pytest.raises(BadStateError, match=fault) as err:
        load_value(_write(tmp_path, data))
    assert "\n" not in str(err.value) and "precinct value model" in str(err.value)


def test_loader_rejects_text_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{weights:", encoding="utf-8")
    with pytest.raises(BadStateError, match="not valid JSON"):
        load_value(path)


def test_loader_reads_a_good_file_and_a_prefix(tmp_path: Path) -> None:
    model = load_value(_write(tmp_path, _good()))
    st = _turn_starts(0)[0][3]
    assert model.value(st) == pytest.approx(1 / (1 + math.exp(-0.1)))
    short = model_from_json({"format": FORMAT, "bias": 0.0, "weights": {NAMES[0]: 2.0}}, "test")
    assert short.logit(st) == pytest.approx(2.0 * features(st)[0])


def test_shipped_model_covers_every_feature() -> None:
    model = load_value()
    assert model.names == NAMES
    assert "fitted_by" in model.meta and "learn_value" in model.meta["fitted_by"]


def _toy(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(300, 4)) * np.array([1.0, 0.2, 3.0, 0.0]) + np.array([0.0, 1.0, -2.0, 5.0])
    true = np.array([1.5, -2.0, 0.3, 0.0])
    y = (rng.random(300) < 1 / (1 + np.exp(-(x @ true - 0.5)))).astype(float)
    return x, y


def test_fit_is_deterministic_and_optimal() -> None:
    x, y = _toy(3)
    w1, b1 = fit_logistic(x, y, l2=0.5)
    w2, b2 = fit_logistic(x, y, l2=0.5)
    assert np.array_equal(w1, w2) and b1 == b2
    assert w1[3] == 0.0  # a constant column is no information
    assert np.max(np.abs(penalised_gradient(x, y, w1, b1, 0.5))) < 1e-8
    # and the optimum is one: moving off it raises the penalised objective
    def objective(w: np.ndarray, b: float) -> float:
        scale = np.where(x.std(axis=0) > 1e-12, x.std(axis=0), 1.0)
        z = x @ w + b
        return float(np.sum(np.logaddexp(0, z) - y * z) + 0.5 * 0.5 * np.sum((w * scale) ** 2))
    base = objective(w1, b1)
    for k in range(3):
        bumped = w1.copy()
        bumped[k] += 1e-3
        assert objective(bumped, b1) > base
    assert objective(w1, b1 + 1e-3) > base


def test_fit_keeps_the_signs_it_is_given() -> None:
    x, y = _toy(4)
    free, _ = fit_logistic(x, y, l2=0.5)
    assert free[0] > 0.5  # the data want a clearly positive first weight
    w, b = fit_logistic(x, y, l2=0.5, signs=[-1, 0, 0, 0])
    assert w[0] == 0.0 and w[1] != 0.0
    # the other columns are at the optimum of the problem without column 0
    assert np.max(np.abs(penalised_gradient(x[:, 1:], y, w[1:], b, 0.5))) < 1e-8


def test_fit_recovers_the_truth_without_penalty() -> None:
    rng = np.random.default_rng(5)
    x = rng.normal(size=(20000, 2))
    y = (rng.random(20000) < 1 / (1 + np.exp(-(x @ np.array([1.0, -0.5]) + 0.25)))).astype(float)
    w, b = fit_logistic(x, y, l2=0.0)
    assert np.allclose(w, [1.0, -0.5], atol=0.06) and abs(b - 0.25) < 0.06


def test_model_values_match_per_state(positions: list[PrecinctState]) -> None:
    model = load_value()
    x = np.array([features(st) for st in positions[:40]])
    rows = model.values(x)
    assert np.allclose(rows, [model.value(st) for st in positions[:40]], atol=1e-12)


def test_value_model_rejects_mismatched_names() -> None:
    with pytest.raises(BadStateError):
        ValueModel(("crime",), [1.0], 0.0)


# --- the Dirty Cop ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dirty_positions() -> list[PrecinctState]:
    """Turn starts of seeded random 4- and 5-player games with the Dirty Cop (random play reveals and
    accuses, so hidden, self-revealed and exposed dirty cops all occur)."""
    return [s for seed in range(10) for players in (4, 5) for s in _turn_starts(seed, players, dirty=True)[0]]


def _dirty_cols() -> slice:
    return slice(NAMES.index(DIRTY[0]), NAMES.index(DIRTY[-1]) + 1)


def test_dirty_features_are_zero_without_the_dirty_cop(positions: list[PrecinctState]) -> None:
    assert NAMES[-len(DIRTY):] == DIRTY
    for st in positions:
        assert not np.any(features(st)[_dirty_cols()])


def test_dirty_features_read_the_deal(dirty_positions: list[PrecinctState]) -> None:
    hidden, under = NAMES.index("dirty_hidden"), NAMES.index("dirty_underground")
    seen = set()
    model = load_value()
    for st in dirty_positions:
        x = features(st)
        assert np.all(np.isfinite(x)) and 0.0 < model.value(st) < 1.0
        dirty = [p for p in range(st.n) if st.loyalty[p]]
        assert x[hidden] == sum(1 for p in dirty if not st.revealed[p])
        assert x[under] == sum(st.underground)
        seen.add((x[hidden], x[under], x[NAMES.index("dirty_exposed")]))
    # random play leaves the dirty cop hidden, lets him reveal himself and exposes him
    assert {(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 1.0, 1.0)} <= seen


def test_dirty_features_read_no_hand_or_deck(dirty_positions: list[PrecinctState]) -> None:
    for st in dirty_positions[::25]:
        other = st.clone()
        for cop in other.cops:
            cop.hand = [(k + 1) % len(st.game.content.police) for k in cop.hand]
        other.police = list(reversed(other.police))
        assert np.array_equal(features(st), features(other))


def test_shipped_weights_keep_their_signs() -> None:
    model = load_value()
    for name, sign in SIGNS.items():
        assert sign * model.weights[NAMES.index(name)] >= 0.0, name


def _dirty_seat(st: PrecinctState) -> int:
    return next(p for p in range(st.n) if st.loyalty[p])


def test_dirty_donuts_never_raise_the_value(dirty_positions: list[PrecinctState]) -> None:
    # by the sign constraints: a donut in a dirty cop's hands (hidden or underground) is sabotage
    model = load_value()
    checked = {True: 0, False: 0}
    for st in dirty_positions:
        p = _dirty_seat(st)
        if st.revealed[p] and not st.underground[p]:
            continue
        more = st.clone()
        for cop in more.cops:
            if cop.seat == p:
                cop.donuts += 1
        assert model.value(more) <= model.value(st) + 1e-12
        checked[bool(st.underground[p])] += 1
    assert min(checked.values()) > 20


def test_exposed_is_no_worse_than_self_revealed(dirty_positions: list[PrecinctState]) -> None:
    # the same underground dirty cop, once with his own reveal on record and once without (exposed by
    # an accusation: the rules take his loyalty skill); the sign constraint orders the two
    model = load_value()
    exposed = NAMES.index("dirty_exposed")
    checked = 0
    for st in dirty_positions:
        p = _dirty_seat(st)
        if not st.underground[p]:
            continue
        revealed, accused = st.clone(), st.clone()
        revealed.records = [*st.records, (p, "reveal", None, "reveal")]
        accused.records = [r for r in st.records if not (r[0] == p and r[1] == "reveal")]
        fr, fa = features(revealed), features(accused)
        assert fr[exposed] == 0.0 and fa[exposed] == 1.0
        others = np.arange(len(NAMES)) != exposed
        assert np.array_equal(fr[others], fa[others])
        assert model.value(accused) >= model.value(revealed) - 1e-12
        checked += 1
    assert checked > 20


def test_the_reveal_scan_resumes_on_clones(dirty_positions: list[PrecinctState]) -> None:
    # the cached scan of the action records must give what a fresh scan gives, down a line of play
    for seed, st in enumerate(dirty_positions[::40]):
        rng = np.random.default_rng(seed)
        features(st)  # the cache is now on st and goes to its clones
        line = st.clone()
        for _ in range(60):
            if line.is_terminal():
                break
            if line.current_player() == CHANCE:
                line.apply(draw_chance(line, rng))
            else:
                legal = line.legal_actions()
                line.apply(legal[int(rng.integers(len(legal)))])
            fresh = line.clone()
            if hasattr(fresh, "_pv_revealed"):
                del fresh._pv_revealed
            assert np.array_equal(features(line), features(fresh))


def test_learn_value_pads_old_files_and_splits_each_file_alone(tmp_path: Path) -> None:
    from bots.precinct.learn_value import _held_out, load_data, table_name

    old_names = NAMES[: len(NAMES) - len(DIRTY)]
    rng = np.random.default_rng(0)

    def save(name: str, names: tuple[str, ...], games: int, **meta: object) -> Path:
        gid = np.repeat(np.arange(games), 3)
        path = tmp_path / name
        info = {"games": games, "seed": 1, "players": 4, "names": list(names), **meta}
        np.savez_compressed(path, x=0.1 + rng.random((len(gid), len(names))), game=gid,
                            y=rng.random(len(gid)) < 0.5, meta=json.dumps(info))
        return path

    old = save("old.npz", old_names, 20)
    new = save("new.npz", NAMES, 10, dirty=True, accuse_at=0.7)
    x, _, gid, metas, files = load_data([old, new])
    assert x.shape == (90, len(NAMES))
    assert not np.any(x[files == 0][:, len(old_names):])  # no Dirty Cop: his features are 0
    assert np.all(x[files == 1][:, len(old_names):] > 0)
    assert [table_name(m) for m in metas] == ["4p", "4p dirty accuse 0.7"]
    # the old file's held-out games are the same read alone or with another file
    alone = _held_out(*load_data([old])[2::2], seed=1)
    assert np.array_equal(_held_out(gid, files, seed=1)[files == 0], alone)
    assert alone.sum() == 4 * 3
    with pytest.raises(SystemExit, match="regenerate"):
        load_data([save("bad.npz", old_names, 5, dirty=True)])
