"""Exact role inference for Good Cop Bad Cop (solver.belief.gcbc_posterior).

The posterior is checked against full enumeration of every deal and hidden permutation (equal to
1e-9, deduction-only and with a behaviour model), the true deal always has positive mass, nothing
the seat cannot see changes it, updates equal fresh computations, and sampled deals replay.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import bots
from solver.belief.gcbc_behaviour import CLASSES, SCHEMES, BehaviourModel, class_of, fit, load_behaviour
from solver.belief.gcbc_clusters import ByOrder, Factors, admitted
from solver.belief.gcbc_posterior import (
    GCBCPosterior,
    _all_deals,
    _factors,
    brute_force_posterior,
    posterior,
)
from solver.belief.gcbc_walk import Choice, Walk
from solver.core import BadStateError, ConfigError
from solver.games import load
from solver.games.gcbc.deal import INTEGRITY_NAMES
from solver.games.gcbc.rules import GCBCGame, GCBCState
from tests.test_gcbc_reference import play as play_reference
from tests.test_gcbc_reference import prefix

TOL = 1e-9


def _model(seed: int, scheme: str = "team") -> BehaviourModel:
    """A behaviour model with arbitrary (seeded) weights: every kind of factor becomes non-trivial
    (one set of weights per class of ``scheme``)."""
    rng = np.random.default_rng(seed)
    shows = ["A", "K", "u", "h", "c", "hh", "hc", "cc", "hhc", "hcc"]
    feats = {
        "announce": ["equip", "arm", *[f"{k}:{c}" for k in ("inv", "shoot") for c in shows]],
        "aim": shows, "flip": list(INTEGRITY_NAMES), "give": list(INTEGRITY_NAMES), "aimed": list("AKhcm"),
    }
    weights = {k: [{f: float(rng.uniform(0.2, 3.0)) for f in fs} for _ in SCHEMES[scheme]]
               for k, fs in feats.items()}
    return BehaviourModel(weights, temper=0.8, scheme=scheme)


def _pair_model(seed: int, pair_seats: int, scheme: str = "team") -> BehaviourModel:
    """:func:`_model` with pair factors: seeded weights for every public feature and seen cards."""
    model = _model(seed, scheme)
    rng = np.random.default_rng(seed + 1)
    seen = ["", *("+".join(c) for k in (1, 2, 3)
                  for c in itertools.combinations_with_replacement(sorted(INTEGRITY_NAMES), k))]
    shows = list(model.weights["aim"][0])
    announce = ["equip", "arm", *(f"{k}:{c}" for k in ("inv", "shoot") for c in shows)]
    for kind, names in {"aim": shows, "announce": announce}.items():
        model.weights[f"{kind}-seen"] = [
            {f"{f}|{x}": float(rng.uniform(0.2, 3.0)) for f in names for x in seen} for _ in model.classes]
    model.pair_seats = pair_seats
    return model


def _play(n: int, bot: str, seed: int) -> Iterator[GCBCState]:
    """The live state of one seeded game after every action (not a copy)."""
    game = load("gcbc", players=n)
    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    seats = {s: bots.make(game, bot, seat=s, rng=rng) for s in range(n)}
    while not st.is_terminal():
        if st.is_chance_node():
            outcomes, probs = zip(*st.chance_outcomes(), strict=True)
            st.apply(int(rng.choice(outcomes, p=probs)))
        else:
            st.apply(seats[st.current_player()].step(st.view(st.current_player())))
        yield st


def _positions(n: int, bot: str, seed: int, stops: int) -> Iterator[GCBCState]:
    """Copies of states of one seeded game: ``stops`` seeded moments, right after swaps and
    Flashbangs, and the end."""
    at = set(np.random.default_rng(seed + 1000).integers(15, 400, size=stops).tolist())
    for k, st in enumerate(_play(n, bot, seed), start=1):
        text = st.game.action_to_str(st.history[-1])
        if k in at or st.is_terminal() or text.startswith("pick") \
                or any(card in text for card in ("flashbang", "blackmail")):
            yield st.clone()


def _true_deal(st: GCBCState) -> list[list[str]]:
    """The set-up deal of ``st``'s game (replayed up to the first turn)."""
    again = st.game.new_initial_state()
    for action in st.history:
        if again.turn >= 1:
            break
        again.apply(action)
    return [[INTEGRITY_NAMES[c] for c in hand] for hand in again.cards]


def _close(a: list[dict[str, Any]], b: list[dict[str, Any]], tol: float = TOL) -> None:
    for x, y in zip(a, b, strict=True):
        for key in ("p_honest", "p_agent", "p_kingpin"):
            assert x[key] == pytest.approx(y[key], abs=tol), (x["seat"], key)
        assert len(x["cards"]) == len(y["cards"])
        for cx, cy in zip(x["cards"], y["cards"], strict=True):
            for name in INTEGRITY_NAMES:
                assert cx.get(name, 0.0) == pytest.approx(cy.get(name, 0.0), abs=tol)


@pytest.mark.parametrize(("n", "seed", "stops", "viewers"), [(4, 1, 4, 2), (4, 5, 3, 1), (5, 2, 2, 1)])
def test_equals_brute_force(n: int, seed: int, stops: int, viewers: int) -> None:
    model = _model(seed)
    seen = 0
    for st in _positions(n, "random", seed, stops):
        for seat in range(viewers):
            view = st.view((seat + seen) % n).to_json()
            for m in (None, model):
                _close(posterior(st.game, view, m).marginals(), brute_force_posterior(st.game, view, m))
        seen += 1
        if seen >= 8:
            break
    assert seen >= 3


@pytest.mark.parametrize(("n", "bot", "seed", "pair_seats", "refused", "scheme"), [
    (4, "random", 1, 2, False, "team"), (5, "random", 3, 2, True, "team"),
    (4, "heuristic", 5, 3, False, "team"), (5, "heuristic", 2, 3, False, "team"),
    (4, "heuristic", 7, 3, False, "hand"), (5, "random", 3, 2, True, "hand")])
def test_pair_factors_equal_brute_force(n: int, bot: str, seed: int, pair_seats: int, refused: bool,
                                        scheme: str) -> None:
    """With pair factors (an aim or announcement on the actor's cells and the cells it had seen):
    the factor set the cluster-size rule admits, the same in both computations (``refused``: the
    rule turns some pair factor away in these positions), with either class scheme."""
    model = _pair_model(seed, pair_seats, scheme)
    admitted_pairs = pairs = 0
    for k, st in enumerate(_positions(n, bot, seed, 4)):
        view = st.view(k % n).to_json()
        factors = _factors(st.game, view, model)
        admitted_pairs += sum(1 for cells in admitted(factors) if cells in factors.pairs)
        pairs += len(factors.pairs)
        _close(posterior(st.game, view, model).marginals(), brute_force_posterior(st.game, view, model))
        if k >= 5:
            break
    assert admitted_pairs > 0 and (admitted_pairs < pairs) == refused


@pytest.mark.parametrize(("seed", "actions"), [(31, 54), (322, 40)])
def test_pair_factors_across_a_hidden_flashbang_equal_brute_force(seed: int, actions: int) -> None:
    """The positions of tests/test_gcbc_reference.py where what a pair factor counts depends on a
    hidden Flashbang's order (a card looked at before and after it; a card seen before it and face
    up now): the factor is kept per order (:class:`ByOrder`), equal to the brute force under the
    cluster-size rule at 2 to 4 seats, and an update equals a fresh posterior."""
    truth = play_reference(seed, False, actions)
    game, view = truth.game, truth.view(1).to_json()
    earlier = prefix(truth, actions - 6).view(1).to_json()
    by_order = 0
    for pair_seats in (2, 3, 4):
        model = _pair_model(seed, pair_seats)
        by_order += sum(isinstance(f, ByOrder) for f in admitted(_factors(game, view, model)).values())
        fresh = posterior(game, view, model)
        _close(fresh.marginals(), brute_force_posterior(game, view, model))
        _close(posterior(game, earlier, model).update(view).marginals(), fresh.marginals(), 1e-12)
    assert by_order > 0


def test_set_up_positions_equal_brute_force() -> None:
    model = _model(0)
    for k, st in enumerate(_play(4, "random", 9), start=1):
        view = st.view(2).to_json()  # between its deal and its layout too: canonical order
        _close(posterior(st.game, view, model).marginals(), brute_force_posterior(st.game, view, model))
        if k >= 14:
            break


def _check_first_positions(bot: str, stops: int, seeds: int,
                           wanted: Callable[[GCBCState, int], bool]) -> None:
    """Posterior equals brute force at the first ``wanted(state, seat)`` position of two of the
    4-player games ``0..seeds-1`` (seat ``seed % 4`` looks)."""
    game = load("gcbc", players=4)
    found = 0
    for seed in range(seeds):
        seat = seed % 4
        st = next((st for st in _positions(4, bot, seed, stops) if wanted(st, seat)), None)
        if st is None:
            continue
        view = st.view(seat).to_json()
        model = _model(seed)
        _close(posterior(game, view, model).marginals(), brute_force_posterior(game, view, model))
        found += 1
        if found >= 2:
            break
    assert found >= 2


def test_positions_with_swaps_and_flashbangs_equal_brute_force() -> None:
    def wanted(st: GCBCState, seat: int) -> bool:
        texts = [st.game.action_to_str(a) for a in st.history]
        return any("flashbang" in t for t in texts) and any("blackmail" in t for t in texts)

    _check_first_positions("random", 0, 40, wanted)


def test_positions_with_aimed_outcomes_equal_brute_force() -> None:
    """Factors on an aimer's cells from before a later reveal (the ``aimed`` decisions)."""
    def wanted(st: GCBCState, seat: int) -> bool:
        if st.is_terminal() or not st.alive[seat]:
            return False  # the end reveals every card: nothing left to infer
        walk = Walk(st.game, seat)
        walk.extend(st.view(seat).to_json()["history"])
        return any(c.kind == "aimed" and c.actor != seat for c in walk.choices)

    _check_first_positions("heuristic", 6, 60, wanted)


@pytest.mark.parametrize(("n", "bot"), [(4, "random"), (6, "heuristic"), (8, "heuristic"), (7, "random")])
def test_true_deal_has_positive_mass(n: int, bot: str) -> None:
    model = load_behaviour()
    for i, st in enumerate(_positions(n, bot, 11 + n, 5)):
        deal = _true_deal(st)
        for seat in range(n):
            view = st.view(seat).to_json()
            for m in (None, model):
                assert posterior(st.game, view, m).deal_probability(deal) > 0, (i, seat)
        if i >= 6:
            break


def _investigate_then_aim(actor: int, target: int, pos: int) -> list[list[Any]]:
    action = f"investigate {target}.{pos}"
    return [[actor, action, [{"kind": "ActionAnnounced", "seat": actor, "action": action, "again": False}]],
            [-1, "pass", [{"kind": "Investigated", "by": actor, "seat": target, "pos": pos, "card": None}]],
            [actor, "arm", [{"kind": "ActionAnnounced", "seat": actor, "action": "arm", "again": False}]],
            [-1, "pass", [{"kind": "GunTaken", "seat": actor, "source": "centre"}]],
            [actor, f"aim {target}", [{"kind": "Aimed", "seat": actor, "target": target}]]]


@pytest.mark.parametrize(("shown", "pair_seats", "expected"), [
    (False, 2, [True, False]),  # seats 0+1, then 2+0: three seats of unknown cards
    (False, 3, [True, True]),
    (True, 2, [True, True]),  # seat 2's cards are all face up: it adds no unknown seat
])
def test_cluster_size_rule(shown: bool, pair_seats: int, expected: list[bool]) -> None:
    flips = [[2, f"flip {p}", [{"kind": "CardFlipped", "seat": 2, "pos": p, "card": c}]]
             for p, c in enumerate(["honest", "honest", "crooked"])]
    history = [*(flips if shown else []), *_investigate_then_aim(0, 1, 0), *_investigate_then_aim(2, 0, 1)]
    walk = Walk(GCBCGame(players=4), 3)
    walk.extend(history)
    weights = {"aim-seen": [{"u|honest": 2.0, "u|crooked": 0.5} for _ in CLASSES]}
    factors = Factors(walk, BehaviourModel(weights, 1.0, pair_seats=pair_seats))
    factors.catch_up()
    seats = [[s // 3 for s in cells if isinstance(s, int)] for cells in factors.pairs]
    assert seats == [[0, 0, 0, 1], [2, 2, 2, 0]]  # aimer's three cells, then the one it saw
    chosen = admitted(factors)
    assert [cells in chosen for cells in factors.pairs] == expected


def test_deal_probabilities_sum_to_one() -> None:
    game = GCBCGame(players=4)
    st = next(s for i, s in enumerate(_positions(4, "random", 3, 3)) if i == 1)
    post = posterior(game, st.view(2).to_json(), _model(3))
    own = st.view(2).to_json()["players"][2]["cards"]
    deals = _all_deals(4, game.side_cards)
    deals = deals[(deals[:, 6:9] == [INTEGRITY_NAMES.index(c["card"]) for c in own]).all(axis=1)]
    total = sum(post.deal_probability([[INTEGRITY_NAMES[c] for c in row[3 * s:3 * s + 3]] for s in range(4)])
                for row in deals)  # the seat knows its own set-up cards (no swap yet in this game)
    assert total == pytest.approx(1.0, abs=TOL)
    marg = post.marginals()
    assert sum(m["p_agent"] for m in marg) == pytest.approx(1.0)
    assert sum(m["p_kingpin"] for m in marg) == pytest.approx(1.0)


def test_no_leak_from_what_the_seat_cannot_see() -> None:
    game = load("gcbc", players=5)
    model = load_behaviour()
    rng = np.random.default_rng(0)
    for i, st in enumerate(_positions(5, "heuristic", 4, 3)):
        seat = i % 5
        view = st.view(seat)
        other = game.resample(view, rng)  # another world this seat cannot tell apart
        assert other.view(seat).to_json() == view.to_json()
        a = posterior(game, view.to_json(), model).marginals()
        b = posterior(game, other.view(seat).to_json(), model).marginals()
        assert a == b
        if i >= 3:
            break


def test_update_equals_fresh_computation() -> None:
    game = load("gcbc", players=6)
    model = load_behaviour()
    post: GCBCPosterior | None = None
    for k, st in enumerate(_play(6, "heuristic", 8), start=1):
        view = st.view(3).to_json()
        post = posterior(game, view, model) if post is None else post.update(view)
        if k <= 20 or k % 37 == 0 or st.is_terminal():  # all of set-up: own cards dealt, not laid out
            _close(post.marginals(), posterior(game, view, model).marginals(), 1e-12)
    assert post is not None and post.matches(view)


def test_sample_deal_is_seeded_consistent_and_replays() -> None:
    game = load("gcbc", players=5)
    st = next(s for i, s in enumerate(_positions(5, "heuristic", 6, 4)) if i == 2)
    view = st.view(1)
    post = posterior(game, view.to_json(), load_behaviour())
    a = [post.sample_deal(view.to_json(), np.random.default_rng(5)) for _ in range(3)]
    b = [post.sample_deal(view.to_json(), np.random.default_rng(5)) for _ in range(3)]
    assert a == b
    rng = np.random.default_rng(1)
    draws = [post.sample_deal(view.to_json(), rng) for _ in range(1500)]
    assert all(post.deal_probability(d) > 0 for d in draws[:50])
    marg = post.marginals()
    for s in range(5):  # the set-up agent seat's frequency against the exact marginal (no swaps yet)
        freq = np.mean(["agent" in d[s] for d in draws])
        if not any("blackmail" in game.action_to_str(x) for x in st.history):
            assert freq == pytest.approx(marg[s]["p_agent"], abs=0.05)
    for deal in draws[:3]:  # the belief hook: a state with exactly this view
        assert game.resample(view, rng, belief=[(1.0, deal)]).view(1).to_json() == view.to_json()
    assert game.resample(view, rng, belief=post).view(1).to_json() == view.to_json()


def test_deduction_only_and_model_agree_on_certain_facts() -> None:
    game = load("gcbc", players=4)
    *_, end = _positions(4, "heuristic", 2, 0)
    view = end.view(0).to_json()  # the end: every card is shown
    for m in (None, load_behaviour()):
        post = posterior(game, view, m)
        assert post.deal_probability(_true_deal(end)) == pytest.approx(1.0)
        for s, x in enumerate(post.marginals()):
            assert x["p_agent"] in (0.0, 1.0) and x["p_kingpin"] in (0.0, 1.0)
            shown = [max(c, key=c.__getitem__) for c in x["cards"]]
            assert shown == [INTEGRITY_NAMES[c] for c in end.cards[s]]
        top = post.top_leader()
        assert "agent" in [INTEGRITY_NAMES[c] for c in end.cards[top["agent"]]]


def test_bad_input_raises_typed_errors() -> None:
    game = load("gcbc", players=4)
    st = next(_positions(4, "random", 0, 1))
    view = st.view(0).to_json()
    with pytest.raises(ConfigError):
        posterior(load("gcbc", players=5), view)
    with pytest.raises(BadStateError):
        posterior(game, {**view, "seat": 9})
    with pytest.raises(BadStateError):
        posterior(game, {**view, "history": "nope"})
    with pytest.raises(BadStateError):
        posterior(game, {**view, "history": [[0, "flip 0", [{"kind": "CardFlipped", "seat": 0}]]]})
    broken = [list(h) for h in view["history"]]
    broken.append([1, "pass", [{"kind": "CardFlipped", "seat": 1, "pos": 0, "card": "agent"},
                               {"kind": "CardFlipped", "seat": 2, "pos": 0, "card": "agent"}]])
    with pytest.raises(BadStateError):
        posterior(game, {**view, "history": broken})


def test_behaviour_model_fit_and_file() -> None:
    shipped = load_behaviour()
    assert shipped.temper > 0 and "command" in shipped.meta
    again = BehaviourModel(**{"weights": shipped.weights, "temper": shipped.temper})
    assert again.to_json()["weights"] == shipped.to_json()["weights"]
    # Synthetic flips: honest players turn Honest cards, crooked ones Crooked cards.
    samples = []
    for hand, pick in itertools.product([(2, 2, 3), (3, 3, 2)], range(20)):
        chosen = hand.index(2) if hand.count(2) == 2 else hand.index(3)
        samples.append((Choice(pick, 1, "flip", (3, 4, 5), False, chosen, (0, 1, 2)), hand))
    w = fit(samples)["flip"]
    honest, crooked = CLASSES.index("honest"), CLASSES.index("crooked")
    assert class_of((2, 2, 3), False) == honest and class_of((3, 3, 2), False) == crooked
    assert w[honest]["honest"] > 5 * w[honest]["crooked"]
    assert w[crooked]["crooked"] > 5 * w[crooked]["honest"]
    # The same by hand: one class per multiset of cards, kept in the file.
    by_hand = fit(samples, scheme="hand")["flip"]
    hhc, ccH = SCHEMES["hand"].index("HHC"), SCHEMES["hand"].index("HCC")
    assert class_of((2, 3, 2), False, "hand") == hhc and class_of((3, 2, 3), False, "hand") == ccH
    assert by_hand[hhc]["honest"] > 5 * by_hand[hhc]["crooked"]
    assert by_hand[ccH]["crooked"] > 5 * by_hand[ccH]["honest"]
    assert sum(1 for w in by_hand if w) == 2  # the other classes were never seen


def test_behaviour_file_round_trip_and_bad_files(tmp_path: Any) -> None:
    model = _pair_model(4, 3, "hand")
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model.to_json()))
    again = load_behaviour(path)
    assert (again.scheme, again.pair_seats, again.temper) == ("hand", 3, model.temper)
    assert again.weights == model.weights
    data = model.to_json()
    for bad in ({**data, "scheme": "seat"}, {**data, "scheme": "team"}, {**data, "temper": 0}):
        path.write_text(json.dumps(bad))
        with pytest.raises(BadStateError):
            load_behaviour(path)
    with pytest.raises(ConfigError):
        BehaviourModel({}, scheme="seat")


def test_top_leader_breaks_exact_ties_to_the_lowest_seat() -> None:
    # Before any play, the seats a viewer knows nothing about are exchangeable: their leader
    # chances are equal in exact arithmetic, and the answer must not hang on rounding.
    game = load("gcbc", players=6)
    for seed in range(6):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[int(rng.integers(len(outcomes)))][0])
        view = state.view(0).to_json()
        post = posterior(game, view, None)
        marginals = post.marginals()
        top = post.top_leader()
        for leader, key in (("agent", "p_agent"), ("kingpin", "p_kingpin")):
            values = [m[key] for m in marginals]
            tied = [s for s, v in enumerate(values) if abs(v - max(values)) < 1e-9]
            assert top[leader] == min(tied), (seed, leader, values)
            if values[0] < max(values):  # seat 0 holds no such leader: seats 1..5 tie
                assert tied == [1, 2, 3, 4, 5]
