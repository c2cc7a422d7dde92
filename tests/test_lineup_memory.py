"""The LineUp memory model (solver.belief.lineup_memory): formula, exact P(correct), recall draws."""

from __future__ import annotations

import math
from itertools import combinations, product
from pathlib import Path

import numpy as np
import pytest

import solver.games
from solver.belief.lineup_memory import (
    LEVELS,
    Memory,
    feature_values,
    level,
    likelihoods,
    p_correct,
    pick,
)
from solver.core import ConfigError
from solver.games.lineup.content import SuspectCard, Suspects

GAME = solver.games.load("lineup", players=2)
SUSPECTS = GAME.suspects


def test_retention_formula_and_levels() -> None:
    adult = LEVELS["adult"]
    assert adult.retention(0, 1) == pytest.approx(adult.s0)
    assert adult.retention(3, 2) == pytest.approx(adult.s0 * math.exp(-3 / adult.tau) * adult.beta)
    assert LEVELS["perfect"].retention(50, 3) == 1.0
    assert p_correct(SUSPECTS, "bakery", 1.0, 10) == pytest.approx(1.0)
    with pytest.raises(ConfigError, match="genius"):
        level("genius")
    with pytest.raises(ConfigError):
        p_correct(SUSPECTS, "moon", 0.5, 4)


@pytest.mark.parametrize(("age", "load", "size"), [(0, 1, 4), (1, 1, 3), (2, 2, 5), (4, 3, 10), (8, 1, 6)])
def test_better_memory_never_lowers_p_correct(age: int, load: int, size: int) -> None:
    ps = [p_correct(SUSPECTS, "wharf", LEVELS[n].retention(age, load), size) for n in LEVELS]
    assert ps == sorted(ps)
    assert all(1 / size - 1e-12 <= p <= 1 + 1e-12 for p in ps)


def test_p_correct_falls_with_age_load_and_size() -> None:
    adult = LEVELS["adult"]
    by_age = [p_correct(SUSPECTS, "bank", adult.retention(a, 1), 4) for a in range(6)]
    by_load = [p_correct(SUSPECTS, "bank", adult.retention(1, k), 4) for k in (1, 2, 3)]
    by_size = [p_correct(SUSPECTS, "bank", adult.retention(1, 1), n) for n in range(1, 11)]
    assert by_age == sorted(by_age, reverse=True)
    assert by_load == sorted(by_load, reverse=True)
    assert by_size == sorted(by_size, reverse=True) and by_size[0] == pytest.approx(1.0)
    assert p_correct(SUSPECTS, "bank", 0.0, 4) == pytest.approx(0.25)  # nothing remembered: a guess


def tiny_deck() -> Suspects:
    """Three features (2, 3, 2 values) and five cards: small enough to enumerate every lineup."""
    cards = [("a", "x", "p"), ("b", "x", "p"), ("a", "y", "p"), ("a", "z", "q"), ("b", "y", "q")]
    scene = tuple(SuspectCard(f"s-{i}", c) for i, c in enumerate(cards))
    decks = {name: scene for name in ("one", "two", "three", "four")}
    return Suspects("tiny", ("f1", "f2", "f3"), decks, False)


@pytest.mark.parametrize(("s", "size"), [(0.0, 3), (0.3, 2), (0.6, 3), (0.9, 5), (1.0, 4)])
def test_exact_p_correct_equals_full_enumeration(s: float, size: int) -> None:
    deck = tiny_deck()
    values = feature_values(deck)
    cards = [c.values for c in deck.scenes["one"]]
    ks = [len(v) for v in values.values()]
    total = 0.0
    for g, guilty in enumerate(cards):
        others = [c for j, c in enumerate(cards) if j != g]
        subsets = list(combinations(others, size - 1))
        for recalled in product(*values.values()):
            pr = math.prod(s + (1 - s) / k if r == t else (1 - s) / k
                           for r, t, k in zip(recalled, guilty, ks, strict=True))
            if pr == 0:
                continue
            for innocents in subsets:
                lineup = [guilty, *innocents]
                post = likelihoods(s, recalled, lineup, values)
                best = np.flatnonzero(post >= post.max() * (1 - 1e-12))
                total += pr * (1 / len(best) if 0 in best else 0.0) / len(subsets)
    assert p_correct(deck, "one", s, size) == pytest.approx(total / len(cards), abs=1e-12)


def test_simulated_identifications_match_the_exact_chance() -> None:
    rng = np.random.default_rng(7)
    values = feature_values(SUSPECTS)
    deck = SUSPECTS.scenes["pet-shop"]
    adult = LEVELS["adult"]
    s, size, n, right = adult.retention(2, 2), 5, 4000, 0
    for _ in range(n):
        memory = Memory(values)
        g = int(rng.integers(len(deck)))
        memory.drawn()
        memory.study(1, "pet-shop", SUSPECTS.features_of(deck[g]), 0, rng)
        trace = memory.lined_up(1)
        assert trace is not None
        others = rng.choice([j for j in range(len(deck)) if j != g], size - 1, replace=False)
        stands = [deck[g].values, *(deck[int(j)].values for j in others)]
        j, _ = pick(s, trace.recall(s), stands, values, rng)
        right += j == 0
    exact = p_correct(SUSPECTS, "pet-shop", s, size)
    assert abs(right / n - exact) < 4 * math.sqrt(exact * (1 - exact) / n)


def test_recall_draws_are_seeded_and_forgetting_is_monotone() -> None:
    values = feature_values(SUSPECTS)
    features = SUSPECTS.features_of(SUSPECTS.scenes["bakery"][3])
    notes = []
    for _ in range(2):
        memory = Memory(values)
        memory.study(1, "bakery", features, 4, np.random.default_rng(11))
        notes.append(memory.traces[0])
    assert notes[0] == notes[1]
    trace = notes[0]
    assert trace is not None and "bakery-04" not in repr(trace)  # features only, never the card id
    true = tuple(features[f] for f in values)
    assert trace.recall(1.0) == true
    remembered = [{f for f, u in enumerate(trace.u) if u < s} for s in (1.0, 0.8, 0.5, 0.2, 0.0)]
    assert all(b <= a for a, b in zip(remembered, remembered[1:], strict=False))


def test_the_documented_level_table_is_what_the_model_gives() -> None:
    """docs/lineup-bots.md's table of levels: parameters and every P(correct) cell, to 3 decimals."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "lineup-bots.md").read_text()
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].split(" ")[0] in LEVELS:
            rows[cells[0].split(" ")[0]] = cells
    assert sorted(rows) == sorted(LEVELS)
    columns = [(1, 1, 4), (2, 2, 4), (4, 2, 6), (1, 1, 10)]  # (age, load, size) as the header says
    assert "P (age 1, 1 held, size 4) | P (age 2, 2 held, size 4) | P (age 4, 2 held, size 6) | " \
           "P (age 1, 1 held, size 10)" in text
    for name, cells in rows.items():
        lv = LEVELS[name]
        tau = math.inf if cells[2] == "∞" else float(cells[2])
        assert (float(cells[1]), tau, float(cells[3])) == (lv.s0, lv.tau, lv.beta)
        assert float(cells[4]) == pytest.approx(lv.retention(1, 1), abs=5e-4)
        for cell, (age, load, size) in zip(cells[5:9], columns, strict=True):
            assert float(cell) == pytest.approx(p_correct(SUSPECTS, "bakery", lv.retention(age, load), size),
                                                abs=5e-4), (name, age, load, size)
