"""The game-agnostic hidden-role posterior (solver.belief.roles) against explicit enumeration.

The brute force here shares no code with the module: it shuffles labelled cards (every order of
the physical deck equally likely), deals the first ``seats * k`` to the seats in order, drops the
orders that leave a ``must_deal`` card over, multiplies each deal's weight by its factors, and
normalises. The dynamic programme must give the same deal probabilities and marginals to 1e-12.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from solver.belief.gcbc_clusters import honest_prior, supply
from solver.belief.roles import (
    Deck,
    Factor,
    FloatArray,
    IntArray,
    JointFactor,
    RolePosterior,
    SeatEvidence,
    posterior,
)
from solver.core import BadStateError, ConfigError
from solver.games.gcbc.deal import SIDE_CARDS

TOL = 1e-12
Deal = tuple[tuple[int, ...], ...]


def brute_force(deck: Deck, seats: int, k: int, evidence: Mapping[int, SeatEvidence] | None = None,
                seat_factors: Mapping[int, Sequence[Factor]] | None = None,
                joint_factors: Sequence[JointFactor] = (),
                must_deal: Sequence[int] = ()) -> dict[Deal, float]:
    """The posterior probability of every deal, by enumerating every order of the labelled deck."""
    labels = [kind for kind, count in enumerate(deck.counts) for _ in range(count)]
    weight: Counter[Deal] = Counter()
    for order in itertools.permutations(labels):
        if any(kind in order[seats * k:] for kind in must_deal):
            continue
        weight[tuple(tuple(order[s * k:(s + 1) * k]) for s in range(seats))] += 1
    out = {}
    for deal, w in weight.items():
        p = float(w)
        for s, hand in enumerate(deal):
            ev = (evidence or {}).get(s)
            if ev is not None and (any(hand[pos] != kind for pos, kind in ev.known.items())
                                   or any(kind in hand for kind in ev.excluded)):
                p = 0.0
            for factor in (seat_factors or {}).get(s, ()):
                row = np.array([hand])
                if callable(factor):
                    p *= float(factor(row)[0])
                else:
                    p *= float(factor[sum(c * deck.kinds ** i for i, c in enumerate(hand))])
        for jf in joint_factors:
            p *= float(jf.fn(np.array([[c for s in jf.seats for c in deal[s]]]))[0])
        out[deal] = p
    total = sum(out.values())
    return {deal: p / total for deal, p in out.items()}


def check(post: RolePosterior, truth: dict[Deal, float], deck: Deck, seats: int, k: int) -> None:
    """Every deal's probability, the marginals per seat and position, and the chance of holding
    each kind agree with the brute force."""
    for deal, p in truth.items():
        assert post.deal_probability(deal) == pytest.approx(p, abs=TOL), deal
    assert sum(truth.values()) == pytest.approx(1.0, abs=TOL)
    marg = post.marginals()
    assert [m.seat for m in marg] == list(range(seats))
    for s in range(seats):
        for pos in range(k):
            for kind in range(deck.kinds):
                want = sum(p for deal, p in truth.items() if deal[s][pos] == kind)
                assert marg[s].cards[pos, kind] == pytest.approx(want, abs=TOL), (s, pos, kind)
        for kind in range(deck.kinds):
            want = sum(p for deal, p in truth.items() if kind in deal[s])
            assert marg[s].holds[kind] == pytest.approx(want, abs=TOL), (s, kind)


def _table(rng: np.random.Generator, kinds: int, k: int) -> FloatArray:
    return rng.uniform(0.05, 2.0, size=kinds ** k)


def _joint(rng: np.random.Generator, kinds: int, seats: tuple[int, ...], k: int) -> JointFactor:
    """A joint factor on ``seats`` with arbitrary (seeded) weights over every card combination."""
    table = rng.uniform(0.05, 2.0, size=(kinds,) * (k * len(seats)))
    return JointFactor(seats, lambda rows: table[tuple(rows.T)])


def _prefer_b(rows: IntArray) -> FloatArray:
    """A behaviour callable: likelier the more cards of kind 1 the hand holds."""
    return np.asarray(1.0 + 2.0 * (rows == 1).sum(axis=1), dtype=np.float64)


def test_independent_seats_with_table_factors() -> None:
    """No constraint, a table per seat; every card dealt."""
    deck = Deck(("a", "b", "c"), (1, 2, 3))
    rng = np.random.default_rng(0)
    factors = {s: [_table(rng, 3, 2)] for s in range(3)}
    post = posterior(deck, 3, 2, seat_factors=factors)
    assert len(post.clusters) == 3
    check(post, brute_force(deck, 3, 2, seat_factors=factors), deck, 3, 2)


def test_constraints_callables_and_a_joint_factor_with_cards_left_over() -> None:
    deck = Deck(("x", "y", "z"), (1, 3, 4))  # two cards left over: the draw chances differ
    rng = np.random.default_rng(1)
    evidence = {0: SeatEvidence(known={1: 2}), 2: SeatEvidence(excluded=frozenset({0}))}
    factors: dict[int, list[Factor]] = {0: [_table(rng, 3, 2)], 1: [_prefer_b, _table(rng, 3, 2)],
                                        2: [_prefer_b]}
    joint = [_joint(rng, 3, (2, 0), 2)]  # seats out of order: columns follow the factor's seats
    post = posterior(deck, 3, 2, evidence=evidence, seat_factors=factors, joint_factors=joint)
    assert sorted(cl.seats for cl in post.clusters) == [(0, 2), (1,)]
    check(post, brute_force(deck, 3, 2, evidence, factors, joint), deck, 3, 2)


def test_several_clusters_and_must_deal() -> None:
    """Two clusters of two seats, kinds that are always dealt (as GCBC's leader cards are)."""
    deck = Deck(("agent", "kingpin", "honest", "crooked"), (1, 1, 3, 3))
    rng = np.random.default_rng(2)
    factors = {s: [_table(rng, 4, 1)] for s in range(6)}
    joint = [_joint(rng, 4, (0, 1), 1), _joint(rng, 4, (3, 5), 1)]
    for must in ((), (0, 1)):
        post = posterior(deck, 6, 1, seat_factors=factors, joint_factors=joint, must_deal=must)
        assert sorted(cl.seats for cl in post.clusters) == [(0, 1), (2,), (3, 5), (4,)]
        check(post, brute_force(deck, 6, 1, None, factors, joint, must), deck, 6, 1)
        if must:
            assert sum(m.holds[0] for m in post.marginals()) == pytest.approx(1.0, abs=TOL)


@pytest.mark.parametrize("seed", range(6))
def test_random_tables_equal_brute_force(seed: int) -> None:
    """Random decks (2-4 kinds, at most 8 cards), seat sizes, constraints and joint factors."""
    rng = np.random.default_rng(100 + seed)
    kinds = int(rng.integers(2, 5))
    counts = [int(c) for c in rng.integers(1, 4, size=kinds)]
    while sum(counts) > 8:
        counts[int(np.argmax(counts))] -= 1
    deck = Deck(tuple("pqrs"[:kinds]), tuple(counts))
    k = 2 if sum(counts) >= 4 and rng.random() < 0.5 else 1
    seats = int(rng.integers(2, sum(counts) // k + 1))
    evidence = {int(rng.integers(seats)): SeatEvidence(excluded=frozenset({int(rng.integers(kinds))}))}
    factors = {s: [_table(rng, kinds, k)] for s in range(seats)}
    a, b = (int(x) for x in rng.choice(seats, size=2, replace=False))
    joint = [_joint(rng, kinds, (a, b), k)]
    try:
        truth = brute_force(deck, seats, k, evidence, factors, joint)
    except ZeroDivisionError:  # no deal is consistent: the DP must say so too
        with pytest.raises(BadStateError):
            posterior(deck, seats, k, evidence=evidence, seat_factors=factors, joint_factors=joint)
        return
    check(posterior(deck, seats, k, evidence=evidence, seat_factors=factors, joint_factors=joint),
          truth, deck, seats, k)


def test_dirty_cop_shaped_case() -> None:
    """Five players, one loyalty card each from six (one Dirty Cop card), one card unseen; seat 3
    was revealed honest; a behaviour factor per seat, P(its public actions | its loyalty)."""
    deck = Deck(("honest", "dirty"), (5, 1))
    honest, dirty = 0, 1
    likelihood = {0: (0.5, 0.5), 1: (0.6, 0.2), 2: (0.3, 0.9), 3: (0.7, 0.1), 4: (0.4, 0.4)}
    factors: dict[int, list[Factor]] = {s: [np.array(lk)] for s, lk in likelihood.items()}
    evidence = {3: SeatEvidence(known={0: honest})}
    post = posterior(deck, 5, 1, evidence=evidence, seat_factors=factors)
    check(post, brute_force(deck, 5, 1, evidence, factors), deck, 5, 1)
    # By hand: each of the six cards is left over with chance 1/6; if the Dirty Cop card is left
    # over nobody is dirty, else seat s is dirty with weight l_s(dirty) * prod_{t != s} l_t(honest).
    all_honest = np.prod([lk[honest] for lk in likelihood.values()])
    weight = {s: all_honest / likelihood[s][honest] * likelihood[s][dirty] if s != 3 else 0.0
              for s in range(5)}
    total = all_honest + sum(weight.values())
    for s, m in enumerate(post.marginals()):
        assert m.holds[dirty] == pytest.approx(weight[s] / total, abs=TOL)
    assert post.marginals()[2].holds[dirty] > post.marginals()[0].holds[dirty]


def test_sampling_is_seeded_and_follows_the_posterior() -> None:
    deck = Deck(("a", "b", "c"), (2, 2, 3))
    rng = np.random.default_rng(3)
    factors = {s: [_table(rng, 3, 2)] for s in range(3)}
    post = posterior(deck, 3, 2, seat_factors=factors, joint_factors=[_joint(rng, 3, (0, 1), 2)])
    first = [post.sample_deal(np.random.default_rng(9)) for _ in range(3)]
    assert first == [post.sample_deal(np.random.default_rng(9)) for _ in range(3)]
    draws = Counter(tuple(map(tuple, post.sample_deal(rng))) for _ in range(4000))
    assert all(post.deal_probability(deal) > 0 for deal in draws)
    for deal, count in draws.most_common(5):
        assert count / 4000 == pytest.approx(post.deal_probability(deal), abs=0.03)


def test_gcbc_supply_prior_is_the_gcbc_deal_prior() -> None:
    """GCBC plugs in its deck (one Agent, one Kingpin, Honest and Crooked cards, the leaders always
    dealt): the generic prior at one leader of each is GCBC's own ``f(h)``."""
    for n, side in SIDE_CARDS.items():
        sup = supply(n, side)
        f = honest_prior(n, side)
        for h in range(3 * n + 1):
            g = sup.prior[(1, 1, h) @ sup.strides] if h <= side else 0.0
            assert g == pytest.approx(f[h], abs=TOL), (n, h)
        assert np.count_nonzero(sup.prior) == np.count_nonzero(f)


def test_bad_input() -> None:
    deck = Deck(("honest", "dirty"), (5, 1))
    with pytest.raises(BadStateError):  # every seat excluded from the only Dirty card, which must be dealt
        posterior(deck, 5, 1, evidence={s: SeatEvidence(excluded=frozenset({1})) for s in range(5)},
                  must_deal=(1,))
    with pytest.raises(ConfigError):
        posterior(deck, 7, 1)  # seven cards from six
    with pytest.raises(ConfigError):
        Deck(("a", "a"), (1, 2))
    with pytest.raises(ConfigError):
        posterior(deck, 5, 1, seat_factors={0: [np.ones(3)[:1]]})  # a table too short for 2 kinds
    with pytest.raises(ConfigError):
        posterior(deck, 5, 1, joint_factors=[JointFactor((0, 9), lambda rows: np.ones(len(rows)))])
    assert posterior(Deck(("honest",), (4,)), 3, 1).marginals()[2].holds[0] == 1.0  # nothing hidden
    post = posterior(deck, 5, 1)
    assert post.deal_probability([[1], [1], [0], [0], [0]]) == 0.0  # two Dirty cards: not a deal
    with pytest.raises(BadStateError):
        post.deal_probability([[0], [0]])
