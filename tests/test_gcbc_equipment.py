"""Good Cop Bad Cop Equipment: every card of both decks, every timing rule, and the content file.

Positions use the helpers of :mod:`tests.test_gcbc_rules` (forced deals, ``do`` passing windows).
Hands are ``HANDS4``: seat 0 the Agent [agent, honest, crooked], seat 1 the Kingpin [kingpin, crooked,
honest], seat 2 honest [honest, honest, crooked], seat 3 crooked [crooked, crooked, honest]. The
expected behaviour is the card texts of ``data/equipment.json`` and the rulebook's [Equipo] section.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import solver.games
from solver.core import BadStateError, ConfigError
from solver.games.gcbc.equipment import parse_equipment
from tests.test_gcbc_rules import (
    HANDS4,
    cards_seen,
    do,
    events_seen,
    face_up,
    legal,
    pass_windows,
    start,
    view,
    who,
)

REPLACED = {"blackmail", "coffee", "k9", "planted-evidence", "wiretap"}


def shipped() -> dict[str, Any]:
    text = resources.files("solver.games.gcbc").joinpath("data/equipment.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def pass_until(state: Any, seat: int, turn_of: int) -> None:
    """Pass window decisions until ``seat`` is asked in a window of ``turn_of``'s turn."""
    while not (who(state)[1:] == (seat, turn_of) and "pass" in legal(state)):
        state.apply_str("pass")


def investigate_any(state: Any) -> None:
    """The deciding seat (after passing windows) investigates the first card it may."""
    pass_windows(state)
    do(state, next(t for t in legal(state) if t.startswith("investigate")))


# --- the content file -----------------------------------------------------------------------------
def test_sixteen_cards_with_sources() -> None:
    data = shipped()
    assert [c["id"] for c in data["cards"]] == [
        "blackmail", "coffee", "defibrillator", "evidence-bag", "flashbang", "k9", "metal-detector",
        "planted-evidence", "polygraph", "report-audit", "restraining-order", "smoke-grenade",
        "surveillance-camera", "taser", "truth-serum", "wiretap",
    ]
    for card in data["cards"]:
        assert card["players"] is None  # components.md: no player-count number on Equipment
        rule = card["rulebook"]["source"]
        if card["id"] in REPLACED:
            assert rule.startswith("STAND-IN")
            assert card["4th"]["source"].startswith("public 4th-edition text")
        else:
            assert rule.startswith("editions 1-3") and "4th" not in card


@pytest.mark.parametrize("deck", ["rulebook", "4th"])
def test_decks_load(deck: str) -> None:
    game = solver.games.load("gcbc", players=5, deck=deck)
    cards = game.equipment.cards
    assert len(cards) == 16 and game.card_ids == tuple(c["id"] for c in shipped()["cards"])
    for card in cards:
        expected = "4th-edition" if deck == "4th" and card.id in REPLACED else ""
        assert expected in card.source


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d["decks"].pop("rulebook"), "at least the 'rulebook' deck"),
        (lambda d: d["cards"][0]["rulebook"].update(effect="teleport"), "'teleport' is not a valid Effect"),
        (lambda d: d["cards"][10]["rulebook"].update(timing="any"), "takes timing shot-announced"),
        (lambda d: d["cards"][13]["rulebook"].update(timing="shot-announced"), "takes timing any or"),
        (lambda d: d["cards"][1].update(id="blackmail"), "appears twice"),
        (lambda d: d["cards"][1].update(id="2x"), "must be lowercase letters"),
        (lambda d: d["cards"][2]["rulebook"].update(source=""), "'source' must be"),
        (lambda d: d["cards"][2].update(players="4"), "'players' must be null or an int"),
        (lambda d: d.update(cards=[]), "'cards' must list"),
    ],
)
def test_content_is_validated(change: Any, message: str) -> None:
    data = copy.deepcopy(shipped())
    change(data)
    with pytest.raises(BadStateError, match=message):
        parse_equipment(data, "rulebook")


def test_user_content_replaces_the_cards(tmp_path: Path) -> None:
    """A user file of the same format plays its own texts: here a Taser usable at any time."""
    data = copy.deepcopy(shipped())
    data["cards"][13]["rulebook"]["timing"] = "any"
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    game = solver.games.load("gcbc", players=4, content=str(path))
    assert game.config() == {"players": 4, "deck": "rulebook", "content": str(path)}
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ConfigError, match="cannot read it"):
        solver.games.load("gcbc", players=4, content=str(bad))
    few = copy.deepcopy(data)
    few["cards"] = few["cards"][:5]
    small = tmp_path / "few.json"
    small.write_text(json.dumps(few))
    with pytest.raises(ConfigError, match="need at least 6 Equipment cards"):
        solver.games.load("gcbc", players=4, content=str(small))


# --- timing ------------------------------------------------------------------------------------------
def test_any_time_cards_in_every_window_but_not_as_the_announcement() -> None:
    """[Equipo] any time: the start, announcement and resolution windows; announcing is an action."""
    for window, name in enumerate(["start of turn", "seat 0 announced investigate 1.0", "action resolved"]):
        state = start(equipment=["coffee", "smoke-grenade", "truth-serum", "polygraph"])
        if window >= 1:
            do(state, "investigate 1.0")
        if window == 2:
            for _ in range(4):
                state.apply_str("pass")
        assert who(state)[1] == 0 and "pass" in legal(state)
        do(state, "pass")
        assert name in state.decision().prompt and "play smoke-grenade" in legal(state)
    state = start(equipment=["truth-serum", "smoke-grenade", "coffee", "polygraph"])
    pass_windows(state)
    assert not any(t.startswith("play") for t in legal(state))  # seat 0 announcing: no Truth Serum


def test_taser_only_as_the_action() -> None:
    """Taser: on your turn, as your action; it resolves at once (no announcement window)."""
    state = start(equipment=["coffee", "taser", "truth-serum", "polygraph"])
    do(state, "arm", "aim 1", "flip 1")
    pass_until(state, 1, 0)
    assert legal(state) == ["pass"]  # a Taser is not played in windows
    do(state, "aim 2")
    pass_windows(state)
    assert who(state) == ("turn", 1, 1) and "play taser 0" in legal(state)
    state.apply_str("play taser 0")
    assert legal(state) == ["aim 0", "aim 2", "aim 3"]  # aim at once [Armas]
    state.apply_str("aim 3")
    data = view(state, 2)
    assert data["players"][1]["gun"] and not data["players"][0]["gun"] and data["players"][1]["aim"] == 3
    assert not any(e["kind"] == "ActionAnnounced" for e in data["history"][-2][2])
    assert state.decision().turn_of == 1 and "pass" in legal(state)  # the resolution window
    do(state, "aim 0")  # the Aim phase
    pass_windows(state)
    assert view(state, 0)["active"] == 2


def test_report_audit_only_on_your_own_turn() -> None:
    """Report Audit: on your turn, as a free action: every player with no face-up card turns one."""
    state = start(equipment=["coffee", "report-audit", "truth-serum", "polygraph"])
    do(state, "equip", "draw k9", "keep k9", "flip 1")  # seat 0 now has a face-up card
    pass_until(state, 1, 0)
    assert "play report-audit" not in legal(state)  # not seat 1's turn
    pass_until(state, 1, 1)
    assert "play report-audit" in legal(state)
    state.apply_str("play report-audit")
    flips = []
    while legal(state)[0].startswith("flip"):
        flips.append(state.decision().seat)
        state.apply_str(legal(state)[-1])
    assert flips == [1, 2, 3]  # each chooses; seat 0 already shows a card
    assert [face_up(state, s) for s in (1, 2, 3)] == [[False, False, True]] * 3
    assert "equip" in legal(state) or "pass" in legal(state)  # the action is still to come


def test_restraining_order() -> None:
    """When another player announces a shot, they must aim elsewhere and shoot that player."""
    state = start(equipment=["coffee", "restraining-order", "truth-serum", "polygraph"])
    do(state, "arm", "aim 3", "flip 1", "aim 3")
    for _ in (1, 2, 3):
        investigate_any(state)
    do(state, "shoot", "pass")
    assert who(state) == ("response", 1, 0) and "play restraining-order" in legal(state)
    state.apply_str("play restraining-order")
    assert who(state) == ("turn", 0, 0) and legal(state) == ["aim 1", "aim 2"]  # not 3, not oneself
    state.apply_str("aim 2")
    assert legal(state) == ["shoot"]  # the shot must follow
    state.apply_str("shoot")
    pass_windows(state)
    assert not view(state, 0)["players"][2]["alive"] and view(state, 0)["players"][3]["alive"]


def test_restraining_order_not_with_two_players_left() -> None:
    state = start(equipment=["coffee", "restraining-order", "truth-serum", "polygraph"])
    do(state, "arm", "aim 3", "flip 1", "aim 3")
    do(state, "arm", "aim 2", "flip 1", "aim 2")  # seat 1
    investigate_any(state)
    investigate_any(state)
    do(state, "shoot")  # seat 0 shoots seat 3 (seat 1 passes its Restraining Order)
    do(state, "shoot")  # seat 1 shoots seat 2: two players left
    pass_windows(state)
    assert [p["alive"] for p in view(state, 0)["players"]] == [True, True, False, False]
    do(state, "arm", "aim 1", "flip 0", "aim 1")
    investigate_any(state)
    do(state, "shoot")
    assert who(state) == ("turn", 0, 0) and legal(state) == ["pass", "play coffee 1"]
    state.apply_str("pass")
    assert who(state)[1] == 1 and legal(state) == ["pass"]  # no Restraining Order with two left


def test_surveillance_camera_right_after_an_investigation() -> None:
    state = start(equipment=["coffee", "smoke-grenade", "truth-serum", "surveillance-camera"])
    pass_windows(state)
    assert not any(t.startswith("play surveillance") for t in legal(state))
    do(state, "investigate 2.1")
    for _ in range(4):  # the announcement window: nothing investigated yet
        assert not any(t.startswith("play surveillance") for t in legal(state))
        state.apply_str("pass")
    do(state, "play surveillance-camera 2")
    assert cards_seen(state, 1, 2) == [None, "honest", None]
    assert events_seen(state, 1, "CardFlipped")[-1] == {"kind": "CardFlipped", "seat": 2, "pos": 1,
                                                        "card": "honest"}


def test_surveillance_camera_not_after_another_card() -> None:
    state = start(equipment=["coffee", "smoke-grenade", "truth-serum", "surveillance-camera"])
    do(state, "investigate 2.1")
    pass_windows_count(state, 4)
    state.apply_str("pass")  # seat 0
    state.apply_str("play smoke-grenade")  # seat 1: a card in between
    while "pass" in legal(state):
        assert not any(t.startswith("play surveillance") for t in legal(state))
        state.apply_str("pass")


def test_surveillance_camera_after_a_two_card_look_picks_the_card() -> None:
    state = start(equipment=["wiretap", "smoke-grenade", "truth-serum", "surveillance-camera"])
    do(state, "play wiretap 1", "investigate 1.2", "investigate 1.0")
    do(state, "pass", "pass", "play surveillance-camera 1")  # seats 1 and 2 pass, seat 3 plays
    assert who(state) == ("response", 3, 0) and legal(state) == ["pick 1.0", "pick 1.2"]
    state.apply_str("pick 1.2")
    assert cards_seen(state, 2, 1) == [None, None, "honest"]


def pass_windows_count(state: Any, count: int) -> None:
    for _ in range(count):
        state.apply_str("pass")


def test_playing_after_an_announcement_changes_the_action() -> None:
    """[Equipo] a card after the announcement: the active player may change the action."""
    state = start(equipment=["coffee", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "investigate 2.0", "pass", "play smoke-grenade")
    assert who(state) == ("turn", 0, 0)
    assert "investigate 2.0" in legal(state) and "equip" in legal(state)
    state.apply_str("equip")  # the action changes
    assert view(state, 1)["announced"] == "equip"
    assert events_seen(state, 1, "ActionAnnounced")[-1] == {
        "kind": "ActionAnnounced", "seat": 0, "action": "equip", "again": True}
    assert who(state) == ("turn", 0, 0) and "pass" in legal(state)  # a fresh window from seat 0


def test_an_action_that_became_illegal_must_change() -> None:
    """Truth Serum turns the announced card face up: that investigation is no longer possible."""
    state = start(equipment=["coffee", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "investigate 1.2", "pass", "pass", "play truth-serum 1", "flip 2")
    assert who(state) == ("turn", 0, 0) and "investigate 1.2" not in legal(state)


def test_several_cards_before_an_action_resolves() -> None:
    state = start(equipment=["coffee", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "investigate 3.0", "pass", "play smoke-grenade", "investigate 3.0", "pass",
       "play polygraph 0", "investigate 3.0")
    pass_windows(state)
    assert view(state, 0)["investigated"][-1][1:] == [3, 0, "crooked"]
    assert [e["card"] for e in events_seen(state, 0, "EquipmentPlayed")] == ["smoke-grenade", "polygraph"]


def test_one_card_resolves_at_a_time() -> None:
    """While a card's own decisions are pending, nobody is asked to play another."""
    state = start(equipment=["coffee", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "pass", "pass", "play truth-serum 1")
    assert who(state) == ("response", 1, 0) and all(t.startswith("flip") for t in legal(state))


def test_hand_limit_is_settled_at_once() -> None:
    """[Equipo] holding two cards, a seat chooses at once; the other card goes under face down."""
    state = start()
    do(state, "equip")
    pass_windows(state)
    state.apply_str("draw coffee")
    assert legal(state) == ["keep coffee", "keep taser"] and state.decision().seat == 0
    state.apply_str("keep taser")
    assert view(state, 0)["deck"]["bottom"] == ["coffee"] and view(state, 1)["deck"]["bottom"] == [None]
    assert view(state, 1)["players"][0]["equipment"] == 1


# --- every card, the rulebook deck ------------------------------------------------------------------
def test_blackmail_stand_in_swaps_own_card() -> None:
    state = start(equipment=["blackmail", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "play blackmail 2", "pick 0.1", "pick 2.2")
    assert cards_seen(state, 0, 0) == ["agent", "crooked", "crooked"]
    assert cards_seen(state, 2, 2) == ["honest", "honest", "honest"]
    assert events_seen(state, 3, "CardsSwapped") == [
        {"kind": "CardsSwapped", "seat_a": 0, "pos_a": 1, "seat_b": 2, "pos_b": 2}]
    assert events_seen(state, 3, "CardReceived") == []


def test_coffee_stand_in_gives_the_next_turn() -> None:
    state = start(equipment=["polygraph", "smoke-grenade", "coffee", "truth-serum"])
    do(state, "pass", "pass", "play coffee 3")
    investigate_any(state)
    pass_windows(state)
    assert view(state, 0)["active"] == 3
    investigate_any(state)
    pass_windows(state)
    assert view(state, 0)["active"] == 0  # play continues from seat 3


def test_defibrillator_revives_with_one_card() -> None:
    state = start(equipment=["coffee", "defibrillator", "truth-serum", "polygraph"])
    do(state, "arm", "aim 3", "flip 1", "aim 3")
    for _ in (1, 2, 3):
        investigate_any(state)
    do(state, "shoot")
    pass_until(state, 1, 1)
    assert not view(state, 0)["players"][3]["alive"]
    state.apply_str("play defibrillator 3")
    assert who(state) == ("response", 3, 1) and legal(state) == ["keep 0", "keep 1", "keep 2"]
    state.apply_str("keep 2")
    data = view(state, 0)["players"][3]
    assert data["alive"] and data["cards"] == [{"card": "honest", "face_up": True}]
    assert data["equipment"] == 0 and not data["gun"]


def test_defibrillator_needs_someone_eliminated_not_oneself() -> None:
    state = start(equipment=["coffee", "defibrillator", "truth-serum", "polygraph"])
    state.apply_str("pass")
    assert legal(state) == ["pass"]


def test_evidence_bag_takes_a_card() -> None:
    state = start(equipment=["evidence-bag", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "play evidence-bag 2")
    assert view(state, 0)["hand"] == ["truth-serum"] and view(state, 2)["hand"] == []
    assert events_seen(state, 2, "EquipmentTaken")[0]["card"] == "truth-serum"
    assert events_seen(state, 1, "EquipmentTaken")[0]["card"] is None


def test_flashbang_lays_the_cards_face_down_again() -> None:
    state = start(equipment=["flashbang", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "equip", "draw coffee", "keep flashbang", "flip 0")
    assert face_up(state, 0) == [True, False, False] and who(state) == ("turn", 0, 0)
    state.apply_str("play flashbang")
    assert who(state) == ("turn", 0, 0) and len(legal(state)) == 6
    state.apply_str("arrange 210")
    assert cards_seen(state, 0, 0) == ["crooked", "honest", "agent"] and face_up(state, 0) == [False] * 3
    assert cards_seen(state, 1, 0) == [None, None, None]
    assert view(state, 1)["history"][-1][1] == "arrange ?"


def test_k9_stand_in_sees_an_equipment_card() -> None:
    state = start(equipment=["k9", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "play k9 3")
    assert events_seen(state, 0, "EquipmentSeen")[0]["card"] == "polygraph"
    assert events_seen(state, 1, "EquipmentSeen")[0]["card"] is None


def test_metal_detector_investigates_every_armed_player() -> None:
    state = start(equipment=["coffee", "smoke-grenade", "truth-serum", "metal-detector"])
    do(state, "arm", "aim 2", "flip 1", "aim 2")
    do(state, "arm", "aim 3", "flip 1", "aim 3")
    do(state, "pass", "play metal-detector")  # in seat 2's start window
    assert legal(state) == ["investigate 0.0", "investigate 0.2"]
    state.apply_str("investigate 0.2")
    assert legal(state) == ["investigate 1.0", "investigate 1.2"]
    state.apply_str("investigate 1.0")
    assert [x[1:] for x in view(state, 3)["investigated"]] == [[0, 2, "crooked"], [1, 0, "kingpin"]]


def test_planted_evidence_stand_in_re_aims_a_gun() -> None:
    state = start(equipment=["coffee", "smoke-grenade", "planted-evidence", "polygraph"])
    do(state, "arm", "aim 1", "flip 1")
    do(state, "pass", "pass", "play planted-evidence 0")
    assert legal(state) == ["aim 2", "aim 3"]  # not its holder, not where it points
    state.apply_str("aim 3")
    assert view(state, 1)["players"][0]["aim"] == 3


def test_polygraph_shows_both_hands() -> None:
    state = start()
    do(state, "pass", "pass", "pass", "play polygraph 1")
    assert events_seen(state, 3, "PolygraphSeen")[0]["cards"] == list(HANDS4[1])
    assert events_seen(state, 1, "PolygraphSeen")[-1]["cards"] == list(HANDS4[3])
    assert all(e["cards"] is None for e in events_seen(state, 0, "PolygraphSeen"))


def test_smoke_grenade_reverses_the_turn_order() -> None:
    state = start()
    do(state, "pass", "play smoke-grenade")
    investigate_any(state)
    pass_windows(state)
    assert view(state, 0)["active"] == 3 and view(state, 0)["direction"] == -1


def test_truth_serum_target_chooses() -> None:
    state = start()
    do(state, "pass", "pass", "play truth-serum 3")
    assert who(state) == ("response", 3, 0) and legal(state) == ["flip 0", "flip 1", "flip 2"]
    state.apply_str("flip 2")
    assert cards_seen(state, 0, 3) == [None, None, "honest"]


def test_wiretap_stand_in_two_cards_of_one_player() -> None:
    state = start(equipment=["wiretap", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "play wiretap 1", "investigate 1.2")
    assert legal(state) == ["investigate 1.0", "investigate 1.1"]
    state.apply_str("investigate 1.0")
    assert [x[1:] for x in view(state, 0)["investigated"]] == [[1, 2, "honest"], [1, 0, "kingpin"]]


# --- the 4th-edition variants --------------------------------------------------------------------------
def test_blackmail_4th_swaps_two_other_players_cards() -> None:
    state = start(equipment=["blackmail", "smoke-grenade", "truth-serum", "polygraph"], deck="4th")
    do(state, "play blackmail")
    assert all(not t.startswith("pick 0.") for t in legal(state)) and len(legal(state)) == 9
    state.apply_str("pick 1.0")
    assert all(t.startswith(("pick 2.", "pick 3.")) for t in legal(state))
    state.apply_str("pick 3.2")
    assert cards_seen(state, 1, 1) == ["honest", "crooked", "honest"]
    assert cards_seen(state, 3, 3) == ["crooked", "crooked", "kingpin"]
    assert cards_seen(state, 0, 3) == [None, None, None]


def test_coffee_4th_extra_turn() -> None:
    state = start(equipment=["polygraph", "smoke-grenade", "coffee", "truth-serum"], deck="4th")
    do(state, "pass", "pass", "play coffee")
    investigate_any(state)
    pass_windows(state)
    assert view(state, 0)["active"] == 2  # the extra turn right after the current one
    investigate_any(state)
    pass_windows(state)
    assert view(state, 0)["active"] == 1  # then play resumes after seat 0


def test_k9_4th_disarms_and_the_shot_must_change() -> None:
    state = start(equipment=["coffee", "k9", "truth-serum", "polygraph"], deck="4th")
    do(state, "arm", "aim 3", "flip 1", "aim 3")
    do(state, "pass", "investigate 0.0")
    investigate_any(state)
    investigate_any(state)
    do(state, "shoot", "pass", "play k9 0")
    assert who(state) == ("turn", 0, 0) and "shoot" not in legal(state) and "arm" in legal(state)
    assert view(state, 2)["guns_centre"] == 2


def test_planted_evidence_4th_inverts_a_team() -> None:
    """Seat 3 (two Crooked, one Honest) counts as honest, so it wins with the honest team."""
    state = start(equipment=["coffee", "smoke-grenade", "planted-evidence", "polygraph"], deck="4th")
    do(state, "pass", "pass", "play planted-evidence 3")
    assert view(state, 0)["players"][3]["inverted"] is True
    do(state, "arm", "aim 1", "flip 1", "aim 1")
    for _ in (1, 2, 3):
        investigate_any(state)
    do(state, "shoot")
    pass_windows(state)
    state.apply_str("draw wiretap")
    state.apply_str(legal(state)[0])
    for _ in (1, 2, 3):
        investigate_any(state)
    do(state, "arm", "aim 1", "flip 0", "aim 1")
    for _ in (1, 2, 3):
        investigate_any(state)
    do(state, "shoot")
    pass_windows(state)
    assert view(state, 0)["winner"] == "honest" and view(state, 0)["winners"] == [0, 2, 3]


def test_wiretap_4th_two_players() -> None:
    state = start(equipment=["wiretap", "smoke-grenade", "truth-serum", "polygraph"], deck="4th")
    do(state, "play wiretap", "investigate 2.0")
    assert all(t.startswith(("investigate 1.", "investigate 3.")) for t in legal(state))
    state.apply_str("investigate 3.1")
    assert [x[1:] for x in view(state, 0)["investigated"]] == [[2, 0, "honest"], [3, 1, "crooked"]]
