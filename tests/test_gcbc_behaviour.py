"""The public features the Good Cop Bad Cop behaviour model scores (solver.belief.gcbc_walk and
solver.belief.gcbc_behaviour), as tables: small hand-written histories of a 4-player game and the
decisions the walk must find in them, feature by feature; and the pair factors' decisions (with the
cards the actor had seen) and tables.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from solver.belief.gcbc_behaviour import CLASSES, BehaviourModel, class_of, hand_ids
from solver.belief.gcbc_walk import OUTCOMES, Choice, Known, Walk
from solver.games.gcbc.deal import INTEGRITY_NAMES
from solver.games.gcbc.rules import GCBCGame

Entry = list[Any]


def flip(seat: int, pos: int, card: str) -> Entry:
    return [seat, f"flip {pos}", [{"kind": "CardFlipped", "seat": seat, "pos": pos, "card": card}]]


def aim(seat: int, target: int, by: int | None = None) -> Entry:
    """``seat``'s Gun is aimed at ``target`` (by ``by``'s Planted Evidence when given)."""
    actor = seat if by is None else by
    return [actor, f"aim {target}", [{"kind": "Aimed", "seat": seat, "target": target}]]


def arm(seat: int) -> list[Entry]:
    return [[seat, "arm", [{"kind": "ActionAnnounced", "seat": seat, "action": "arm", "again": False}]],
            [-1, "pass", [{"kind": "GunTaken", "seat": seat, "source": "centre"}]]]


def shoot(seat: int, target: int, cards: list[str]) -> Entry:
    return [seat, "shoot", [
        {"kind": "ActionAnnounced", "seat": seat, "action": "shoot", "again": False},
        {"kind": "Shot", "by": seat, "seat": target},
        {"kind": "CardsRevealed", "seat": target, "cards": cards},
        {"kind": "Eliminated", "seat": target, "reason": "shot"},
    ]]


def swap(a: int, pa: int, b: int, pb: int) -> Entry:
    event = {"kind": "CardsSwapped", "seat_a": a, "pos_a": pa, "seat_b": b, "pos_b": pb}
    return [a, "play blackmail", [event]]


def invert(seat: int) -> Entry:
    return [-1, "pass", [{"kind": "AllegianceInverted", "seat": seat, "inverted": True}]]


#: Seat 1 shows two Honest cards, seat 2 a Crooked one, seat 3 the Kingpin.
SHOWING: list[Entry] = [
    flip(1, 0, "honest"), flip(1, 1, "honest"), flip(2, 0, "crooked"), flip(3, 2, "kingpin")]


def walk(history: list[Entry], seat: int = 3) -> Walk:
    w = Walk(GCBCGame(players=4), seat)
    w.extend(history)
    return w


def decisions(history: list[Entry], kind: str) -> list[Choice]:
    return [c for c in walk(history).choices if c.kind == kind]


@pytest.mark.parametrize(("history", "expected"), [
    ([], ["u", "u", "u", "u"]),
    (SHOWING, ["u", "hh", "c", "K"]),
    ([flip(1, 0, "honest"), flip(1, 2, "crooked")], ["u", "hc", "u", "u"]),
    ([flip(2, 0, "crooked"), invert(2)], ["u", "u", "h", "u"]),  # Planted Evidence counts the other way
    ([flip(0, 1, "agent"), flip(0, 0, "crooked")], ["A", "u", "u", "u"]),
    ([flip(1, 0, "honest"), flip(1, 1, "honest"), flip(1, 2, "crooked")], ["u", "hhc", "u", "u"]),
])
def test_what_each_seat_shows(history: list[Entry], expected: list[str]) -> None:
    w = walk(history)
    assert [w.shows(t) for t in range(4)] == expected


@pytest.mark.parametrize(("history", "chosen", "options"), [
    ([*SHOWING, aim(0, 1)], "hh", ("hh", "c", "K")),
    ([*SHOWING, aim(0, 3)], "K", ("hh", "c", "K")),
    ([*SHOWING, aim(2, 1)], "hh", ("u", "hh", "K")),
])
def test_aim_features(history: list[Entry], chosen: str, options: tuple[str, ...]) -> None:
    (choice,) = decisions(history, "aim")
    assert (choice.chosen, choice.options) == (chosen, options)


def test_aims_among_seats_that_look_alike_are_not_scored() -> None:
    assert decisions([aim(0, 1)], "aim") == []


def test_announce_features() -> None:
    history = [*SHOWING, *arm(0), aim(0, 1),
               [0, "shoot", [{"kind": "ActionAnnounced", "seat": 0, "action": "shoot", "again": False}]]]
    first, last = decisions(history, "announce")
    assert first.chosen == "arm"
    assert sorted(first.options) == sorted(
        ["equip", "arm", "inv:hh", "inv:c", "inv:c", "inv:K", "inv:K"])
    assert last.chosen == "shoot:hh"
    assert sorted(last.options) == sorted(
        ["equip", "shoot:hh", "inv:hh", "inv:c", "inv:c", "inv:K", "inv:K"])


def test_a_shot_hand_scores_the_aims_at_it() -> None:
    history = [*SHOWING, aim(0, 1), aim(2, 1), aim(0, 1), shoot(0, 1, ["honest", "honest", "crooked"])]
    found = decisions(history, "aimed")
    # one per aimer, at its last aim there, on its cells then; the outcome is the revealed hand
    assert [(c.actor, c.index, c.cells, c.chosen, c.options) for c in found] == [
        (0, 6, (0, 1, 2), "h", OUTCOMES), (2, 5, (6, 7, 8), "h", OUTCOMES)]


@pytest.mark.parametrize(("history", "expected"), [
    # the aim at seat 1 is not scored (every seat looks alike), what seat 1 turned out to be is
    ([aim(0, 1), shoot(0, 1, ["kingpin", "honest", "crooked"])], [(0, "K")]),
    # a hand flipped face up card by card counts once its last card is up, and only once
    ([aim(0, 2), flip(2, 0, "crooked"), flip(2, 1, "crooked")], []),
    ([aim(0, 2), flip(2, 0, "crooked"), flip(2, 1, "crooked"), flip(2, 2, "honest"), flip(1, 0, "honest")],
     [(0, "c")]),
    # an aim at a hand already all face up has its outcome at once
    ([flip(2, 0, "crooked"), flip(2, 1, "crooked"), flip(2, 2, "honest"), aim(0, 2)], [(0, "c")]),
    # a Gun pointed by someone else's Planted Evidence is not its holder's choice
    ([aim(0, 1, by=2), shoot(0, 1, ["honest", "honest", "crooked"])], []),
    # the target's cards changed hands after the aim: that aim was at other cards
    ([aim(0, 1), swap(1, 0, 2, 0), shoot(0, 1, ["honest", "honest", "crooked"])], []),
    # an aim at another seat says nothing about the shot one
    ([aim(0, 2), shoot(3, 1, ["honest", "honest", "crooked"])], []),
])
def test_aimed_outcomes(history: list[Entry], expected: list[tuple[int, str]]) -> None:
    assert [(c.actor, c.chosen) for c in decisions(history, "aimed")] == expected


def test_aimed_outcomes_arrive_with_the_entry_that_reveals() -> None:
    history = [aim(0, 1), aim(2, 3), shoot(0, 1, ["honest", "honest", "crooked"])]
    w = walk(history[:2])
    assert [c for c in w.choices if c.kind == "aimed"] == []
    w.extend(history)
    assert [(c.actor, c.index) for c in w.choices if c.kind == "aimed"] == [(0, 0)]


def test_aimed_table_is_the_outcome_probability_per_class() -> None:
    weights = {"aimed": [{"c": 4.0, "h": 1.0}, {"h": 4.0, "c": 1.0}, {"K": 9.0}, {"A": 9.0}]}
    model = BehaviourModel(weights, temper=1.0)
    choice = Choice(0, 0, "aimed", (0, 1, 2), False, "c", OUTCOMES)
    table = model.table(choice)
    hands = hand_ids(3)
    expected = {"honest": 4.0 / 8.0, "crooked": 1.0 / 8.0, "agent": 1.0 / 13.0, "kingpin": 1.0 / 13.0}
    for i in (0, 5, 10, 15, 27, 42, 63):
        cls = CLASSES[class_of(tuple(int(x) for x in hands[i]), False)]
        assert table[i] == pytest.approx(expected[cls])
    assert np.asarray(BehaviourModel(weights, temper=0.5).table(choice)) == pytest.approx(table ** 0.5)


# --- pair factors: decisions with the cards the actor had seen ---------------------------------------
def look(seat: int, target: int, pos: int) -> Entry:
    """The public part of ``seat``'s look at ``target``'s card ``pos`` (an investigation resolving,
    or an Equipment card's look)."""
    return [-1, "pass", [{"kind": "Investigated", "by": seat, "seat": target, "pos": pos, "card": None}]]


def investigate(seat: int, target: int, pos: int) -> list[Entry]:
    """An announced investigation, then (after the window's passes) the look."""
    action = f"investigate {target}.{pos}"
    return [[seat, action, [{"kind": "ActionAnnounced", "seat": seat, "action": action, "again": False}]],
            look(seat, target, pos)]


def known(history: list[Entry], seat: int = 3) -> list[Known]:
    return walk(history, seat).known


def test_known_decisions_carry_the_cells_the_actor_saw() -> None:
    history = [*investigate(0, 1, 2), *arm(0), aim(0, 1)]
    announce, aimed = known(history)
    # seat 1's card 2 is token 5; the look is history entry 1 (the investigation resolving)
    assert announce.kind == "announce" and announce.options[announce.chosen] == ("arm", (5,))
    assert ("inv:u", (5,)) in announce.options and ("inv:u", ()) in announce.options
    assert (aimed.kind, aimed.cells, aimed.chosen, aimed.scored) == ("aim", (0, 1, 2), 0, False)
    assert aimed.options == (("u", (5,)), ("u", ()), ("u", ()))
    assert aimed.looked == (((1, 1, 2),), (), ()) and aimed.seen() == (5,) and aimed.seats() == 1


@pytest.mark.parametrize("between", [
    [flip(1, 2, "crooked")],  # the seen card is face up now: public, no longer the actor's own
    [swap(1, 2, 2, 0)],  # the seat's hand changed: looks at it are dropped
])
def test_looks_that_no_longer_count(between: list[Entry]) -> None:
    assert known([*investigate(0, 1, 2), *between, *arm(0), aim(0, 1)]) == []


def test_an_investigation_is_seen_only_after_it() -> None:
    first, second = investigate(0, 1, 2), investigate(0, 1, 0)
    assert known(first) == []
    assert known(first[:1] + second) == []  # announced, never carried out: not seen
    (again,) = known([*first, *second])
    assert again.options[again.chosen] == ("inv:u", (5,))


def test_equipment_looks_count_as_seen() -> None:
    # a look by an Equipment card (an Investigated event with no announcement), then a Polygraph
    # (both seats see every card of the other)
    polygraph = [1, "play polygraph 0", [{"kind": "PolygraphSeen", "by": 1, "seat": 0, "cards": None},
                                         {"kind": "PolygraphSeen", "by": 0, "seat": 1, "cards": None}]]
    (aimed,) = [k for k in known([look(0, 2, 1), polygraph, *arm(0), aim(0, 2)]) if k.kind == "aim"]
    assert aimed.options[aimed.chosen] == ("u", (7,)) and aimed.looked[aimed.chosen] == ((0, 2, 1),)
    assert ("u", (3, 4, 5)) in aimed.options  # seat 1's three cards, from the Polygraph


def test_known_table_is_the_conditional_logit_with_seen_cards() -> None:
    seen = {"u|crooked": 4.0, "u|honest": 0.5, "u|": 1.0}
    weights = {"aim-seen": [dict(seen) for _ in CLASSES], "aim": [{"u": 1.0, "hh": 3.0} for _ in CLASSES]}
    model = BehaviourModel(weights, temper=1.0, pair_seats=2)
    hands = hand_ids(3)
    honest_hand = next(i for i in range(64) if CLASSES[class_of(tuple(hands[i].tolist()), False)] == "honest")
    options = (("u", (5,)), ("u", ()), ("u", ()))
    plain = model.known_table(Known(0, 0, "aim", (0, 1, 2), False, 0, options, (((0, 1, 2),), (), ()), False))
    assert plain is not None and plain.shape == (4 ** 4,)
    card = {name: i for i, name in enumerate(INTEGRITY_NAMES)}
    assert plain[honest_hand + 64 * card["crooked"]] == pytest.approx(4.0 / 6.0)
    assert plain[honest_hand + 64 * card["honest"]] == pytest.approx(0.5 / 2.5)
    assert plain[honest_hand + 64 * card["agent"]] == pytest.approx(1.0 / 3.0)  # never offered: "u|"
    # scored as a single-seat aim too: divided by that choice's probability (1 / (1 + 3 + 1))
    options = (("u", (5,)), ("hh", ()), ("u", ()))
    scored = model.known_table(Known(0, 0, "aim", (0, 1, 2), False, 0, options, (((0, 1, 2),), (), ()), True))
    assert scored is not None
    assert scored[honest_hand + 64 * card["crooked"]] == pytest.approx((4.0 / 6.0) / (1.0 / 5.0))
    # no factor beyond the cluster-size rule, or without the weights
    assert BehaviourModel(weights, 1.0, pair_seats=1).known_table(
        Known(0, 0, "aim", (0, 1, 2), False, 0, options, (((0, 1, 2),), (), ()), True)) is None
