"""Good Cop Bad Cop rules as tables of positions (python-chess / PokerKit style).

Positions are built by forcing the chance nodes of the deal: ``leaders A K`` (the seats of the Agent
and the Kingpin), ``deal H honest`` per seat, ``draw <card>`` per seat, then each seat lays its cards
out (``arrange``). :func:`start` does all of that from a table of hands written in the positions the
seats lay them; :func:`do` then plays notation, passing every Equipment window on the way until the
next text is legal. The expected values come from the rulebook
(``shared/rulebooks/good-cop-bad-cop.es.txt``), ``shared/research/components.md`` and the decisions
in ``docs/gcbc-rules.md``; nothing is read back from the engine's tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from math import comb
from typing import Any

import pytest

import solver.games
from solver.core import CHANCE, TERMINAL, ConfigError, DecisionKind, IllegalActionError, InvalidActionError
from solver.games.gcbc import ops

#: Seat 0 the Agent, seat 1 the Kingpin, seat 2 honest, seat 3 crooked (5 Honest, 5 Crooked in play).
HANDS4 = [
    ["agent", "honest", "crooked"],
    ["kingpin", "crooked", "honest"],
    ["honest", "honest", "crooked"],
    ["crooked", "crooked", "honest"],
]
EQUIP4 = ["taser", "smoke-grenade", "truth-serum", "polygraph"]
#: Honest cards in play (as many Crooked) and Guns, per player count (components.md).
SIDE = {4: 5, 5: 7, 6: 8, 7: 10, 8: 11}
GUNS = {4: 2, 5: 3, 6: 3, 7: 4, 8: 4}
CANONICAL = ["agent", "kingpin", "honest", "crooked"]
EIGHT_CARDS = ["blackmail", "coffee", "defibrillator", "evidence-bag", "flashbang", "k9", "metal-detector",
               "polygraph"]


# --- building positions ---------------------------------------------------------------------------
def new_game(players: int = 4, deck: str = "rulebook", **options: Any) -> Any:
    return solver.games.load("gcbc", players=players, deck=deck, **options)


def default_hands(players: int) -> list[list[str]]:
    """Agent at seat 0, Kingpin at seat 1, Honest and Crooked cards alternating after them."""
    pool = ["honest", "crooked"] * SIDE[players]
    hands: list[list[str]] = [["agent"], ["kingpin"]] + [[] for _ in range(players - 2)]
    for hand in hands:
        while len(hand) < 3:
            hand.append(pool.pop(0))
    return hands


def layout(hand: Sequence[str]) -> str:
    """The ``arrange`` notation that lays a dealt hand (canonical order) out as ``hand``."""
    dealt = sorted(hand, key=CANONICAL.index)
    for order in permutations(range(len(hand))):
        if [dealt[i] for i in order] == list(hand):
            return "arrange " + "".join(map(str, order))
    raise AssertionError(hand)


def setup_actions(hands: Sequence[Sequence[str]], equipment: Sequence[str]) -> list[str]:
    agent = next(s for s, h in enumerate(hands) if "agent" in h)
    kingpin = next(s for s, h in enumerate(hands) if "kingpin" in h)
    actions = [f"leaders {agent} {kingpin}"]
    actions += [f"deal {hand.count('honest')} honest" for hand in hands]
    actions += [f"draw {card}" for card in equipment]
    actions += [layout(hand) for hand in hands]
    return actions


def start(hands: Sequence[Sequence[str]] = HANDS4, equipment: Sequence[str] = EQUIP4,
          deck: str = "rulebook") -> Any:
    """The state at the start of seat 0's first turn."""
    state = new_game(len(hands), deck).new_initial_state()
    for text in setup_actions(hands, equipment):
        state.apply_str(text)
    return state


def legal(state: Any) -> list[str]:
    return [state.game.action_to_str(a) for a in state.legal_actions()]


def do(state: Any, *texts: str) -> None:
    """Apply each text, first passing every window decision until it is legal."""
    for text in texts:
        while text not in legal(state):
            if "pass" not in legal(state):
                raise AssertionError(f"{text!r} is not legal and no window to pass: {state.decision()}, "
                                     f"legal {legal(state)}")
            state.apply_str("pass")
        state.apply_str(text)


def pass_windows(state: Any) -> int:
    """Pass until a decision that is not a window; return how many passes."""
    count = 0
    while "pass" in legal(state):
        state.apply_str("pass")
        count += 1
    return count


def who(state: Any) -> tuple[str, int, int]:
    d = state.decision()
    return str(d.kind), d.seat, d.turn_of


def view(state: Any, seat: int) -> dict[str, Any]:
    data: dict[str, Any] = state.view(seat).to_json()
    return data


def cards_seen(state: Any, seat: int, of: int) -> list[str | None]:
    return [c["card"] for c in view(state, seat)["players"][of]["cards"]]


def face_up(state: Any, of: int) -> list[bool]:
    return [c["face_up"] for c in view(state, of)["players"][of]["cards"]]


def events_seen(state: Any, seat: int, kind: str) -> list[dict[str, Any]]:
    return [e for e in (x.to_json() for x in state.events_for(seat)) if e["kind"] == kind]


# --- options and set-up ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 3}, "players must be 4..8"),
        ({"players": 9}, "players must be 4..8"),
        ({"players": True}, "players must be 4..8"),
        ({"players": "6"}, "players must be 4..8"),
        ({"deck": "5th"}, "deck must be one of rulebook, 4th"),
        ({"deck": 4}, "deck must be a deck name"),
        ({"content": 7}, "content must be a file path"),
        ({"content": "/nonexistent/equipment.json"}, "cannot read it"),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        solver.games.load("gcbc", **options)


def test_default_config() -> None:
    game = solver.games.load("gcbc")
    assert game.config() == {"players": 6, "deck": "rulebook", "content": None}
    assert solver.games.load("gcbc", **game.config()) == game


@pytest.mark.parametrize("players", range(4, 9))
def test_table_per_player_count(players: int) -> None:
    """[Preparar] Guns by player count, three Integrity cards and one Equipment card each, all face
    down; a seat sees its own cards only."""
    hands = default_hands(players)
    equipment = EIGHT_CARDS[:players]
    state = start(hands, equipment)
    for seat in range(players):
        data = view(state, seat)
        assert data["guns_centre"] == GUNS[players]
        assert data["hand"] == [equipment[seat]]
        assert data["deck"] == {"unseen": 16 - players, "bottom": []}
        for other, p in enumerate(data["players"]):
            assert p["equipment"] == 1 and not p["gun"] and p["alive"] and not p["wounded"]
            assert [c["face_up"] for c in p["cards"]] == [False] * 3
            expected = hands[other] if other == seat else [None] * 3
            assert [c["card"] for c in p["cards"]] == expected
    assert state.decision().seat == 0 and view(state, 0)["active"] == 0


@pytest.mark.parametrize("players", range(4, 9))
def test_leaders_are_two_different_seats(players: int) -> None:
    """[Preparar] the Agent and the Kingpin are always dealt, never to one seat."""
    state = new_game(players).new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    pairs = [tuple(int(x) for x in state.game.action_to_str(a).split()[1:]) for a, _ in outcomes]
    assert sorted(pairs) == [(a, k) for a in range(players) for k in range(players) if a != k]
    assert all(p == pytest.approx(1 / (players * (players - 1))) for _, p in outcomes)
    with pytest.raises(InvalidActionError, match="two seats"):
        state.game.str_to_action("leaders 2 2")


@pytest.mark.parametrize("players", [4, 6, 8])
def test_views_during_the_deal_do_not_tell_the_leaders_seats(players: int) -> None:
    """[Preparar] everyone is dealt at once: what a seat's view shows of the others during the deal is
    the same whichever other seats hold the Agent and the Kingpin (the model deals the leaders first,
    so their card counts would tell)."""
    game = new_game(players)
    for viewer in range(players):
        seen: dict[int, list[Any]] = {}
        for first in range(players):
            state = game.new_initial_state()
            kingpin = next(s for s in range(players) if s not in (first, viewer))
            state.apply_str(f"leaders {first} {kingpin}")
            if first == viewer:
                continue
            steps: list[Any] = []
            while any(task[0] == ops.DEAL for task in state.stack):
                data = view(state, viewer)
                steps.append([p["cards"] for p in data["players"] if p["seat"] != viewer])
                state.apply(state.legal_actions()[0])
            seen[first] = steps
        assert len(seen) == players - 1 and all(v == seen[min(seen)] for v in seen.values())


def test_deal_is_hypergeometric() -> None:
    """After the leaders, seat 0 (the Agent's) gets 2 of the 10 Honest/Crooked cards (5 + 5)."""
    state = new_game(4).new_initial_state()
    state.apply_str("leaders 0 1")
    got = {state.game.action_to_str(a): p for a, p in state.chance_outcomes()}
    expected = {f"deal {h} honest": comb(5, h) * comb(5, 2 - h) / comb(10, 2) for h in range(3)}
    assert got == pytest.approx(expected)
    state.apply_str("deal 2 honest")
    state.apply_str("deal 2 honest")  # the Kingpin's seat: 1 Honest and 5 Crooked left
    got = {state.game.action_to_str(a): p for a, p in state.chance_outcomes()}
    assert got == pytest.approx({"deal 0 honest": 0.5, "deal 1 honest": 0.5})
    state.apply_str("deal 1 honest")
    assert legal(state) == ["deal 0 honest"]  # four players: the deck is used up exactly


@pytest.mark.parametrize(("players", "left"), [(4, 0), (5, 1), (6, 0), (7, 1), (8, 0)])
def test_leftover_card_is_removed_unseen(players: int, left: int) -> None:
    """[Preparar] a card left over is removed without being seen: it is never dealt or shown."""
    state = start(default_hands(players), EIGHT_CARDS[:players])
    assert state.honest_left + state.crooked_left == left
    for seat in range(players):
        others = [p for p in view(state, seat)["players"] if p["seat"] != seat]
        assert all(c["card"] is None for p in others for c in p["cards"])


def test_laying_out_cards() -> None:
    """[Integridad] each seat lays its cards in an order of its choice; equal cards are one choice."""
    game = new_game(4)
    state = game.new_initial_state()
    for text in setup_actions(HANDS4, EQUIP4)[:9]:
        state.apply_str(text)
    assert who(state) == ("turn", 0, 0)
    assert legal(state) == [f"arrange {''.join(map(str, p))}" for p in permutations(range(3))]  # A, H, C
    for text in setup_actions(HANDS4, EQUIP4)[9:11]:
        state.apply_str(text)
    assert legal(state) == ["arrange 012", "arrange 021", "arrange 201"]  # H, H, C
    state.apply_str("arrange 201")
    assert cards_seen(state, 2, 2) == ["crooked", "honest", "honest"]
    assert cards_seen(state, 0, 2) == [None, None, None]
    assert view(state, 1)["history"][-1][1] == "arrange ?"  # nobody else learns the order


# --- the turn and its windows -----------------------------------------------------------------------------
def test_turn_structure_and_window_order() -> None:
    """Act (behind a start window), an announcement window, a resolution window, then the next seat."""
    state = start()
    asked = []
    for _ in range(4):
        asked.append(who(state))
        state.apply_str("pass")
    assert asked == [("turn", 0, 0), ("response", 1, 0), ("response", 2, 0), ("response", 3, 0)]
    assert who(state) == ("turn", 0, 0) and "equip" in legal(state) and "pass" not in legal(state)
    state.apply_str("investigate 3.0")
    assert view(state, 2)["announced"] == "investigate 3.0"
    asked = []
    for _ in range(8):  # the announcement window, then the resolution window
        asked.append(who(state))
        state.apply_str("pass")
    assert asked == [("turn", 0, 0), ("response", 1, 0), ("response", 2, 0), ("response", 3, 0)] * 2
    assert who(state) == ("turn", 1, 1) and "pass" in legal(state)  # seat 1's start window
    assert view(state, 0)["active"] == 1 and view(state, 0)["turn"] == 2


def test_window_skips_seats_without_equipment() -> None:
    """Only seats holding an Equipment card are asked; who holds one is public."""
    state = start()
    do(state, "pass", "play smoke-grenade")  # seat 1 plays its only card
    assert [p["equipment"] for p in view(state, 0)["players"]] == [1, 0, 1, 1]
    asked = []
    while "pass" in legal(state):
        asked.append(state.decision().seat)
        state.apply_str("pass")
    assert asked == [0, 3, 2]  # the window goes on after seat 1, in the now reversed order, and closes


def test_a_window_closes_only_after_everyone_passes_in_a_row() -> None:
    state = start()
    do(state, "pass", "pass", "play truth-serum 3", "flip 1")
    assert who(state) == ("response", 3, 0)  # after the card, the window goes on from seat 3 ...
    asked = []
    while "pass" in legal(state):
        asked.append(state.decision().seat)
        state.apply_str("pass")
    assert asked == [3, 0, 1]  # ... and asks every seat holding a card again (seat 2 has none now)
    assert who(state) == ("turn", 0, 0) and "equip" in legal(state)


# --- actions ----------------------------------------------------------------------------------------------
def test_investigate() -> None:
    """[Actúa: Investigar] look at a face-down card of another player; show it to no one."""
    state = start()
    pass_windows(state)
    options = [t for t in legal(state) if t.startswith("investigate")]
    assert options == [f"investigate {s}.{p}" for s in (1, 2, 3) for p in range(3)]  # not one's own
    do(state, "investigate 1.0")
    pass_windows(state)
    at = next(i for i, (_, _, events) in enumerate(view(state, 0)["history"])
              if any(e["kind"] == "Investigated" for e in events))
    assert view(state, 0)["investigated"] == [[at, 1, 0, "kingpin"]]
    for seat in (1, 2, 3):
        seen = events_seen(state, seat, "Investigated")
        assert seen == [{"kind": "Investigated", "by": 0, "seat": 1, "pos": 0, "card": None}]
        assert view(state, seat)["investigated"] == []
    assert face_up(state, 1) == [False, False, False]


def test_face_up_cards_cannot_be_investigated() -> None:
    state = start()
    do(state, "equip", "draw coffee", "keep coffee", "flip 1")  # seat 0 shows its Honest card
    do(state, "pass")
    pass_windows(state)
    assert state.decision().seat == 1
    assert "investigate 0.1" not in legal(state) and "investigate 0.0" in legal(state)
    assert cards_seen(state, 2, 0) == [None, "honest", None]


def test_equip_draws_then_flips_and_keeps_the_hand_limit() -> None:
    """[Actúa: Equipar] draw a card, turn a card face up; [Equipo] hand limit 1, chosen at once."""
    state = start()
    do(state, "equip")
    pass_windows(state)
    assert state.current_player() == CHANCE and len(legal(state)) == 12  # the 12 cards nobody holds
    state.apply_str("draw k9")
    assert who(state) == ("turn", 0, 0)
    assert legal(state) == ["keep k9", "keep taser"]
    state.apply_str("keep k9")
    assert legal(state) == ["flip 0", "flip 1", "flip 2"]
    state.apply_str("flip 2")
    assert view(state, 0)["hand"] == ["k9"]
    assert view(state, 0)["deck"] == {"unseen": 11, "bottom": ["taser"]}
    assert view(state, 3)["deck"] == {"unseen": 11, "bottom": [None]}  # returned face down
    assert cards_seen(state, 3, 0) == [None, None, "crooked"]
    assert view(state, 1)["history"][-3:][0][1] == "draw ?"
    assert view(state, 1)["history"][-2][1] == "keep ?"


def test_equip_with_every_card_face_up_draws_only() -> None:
    """[Actúa: Equipar] the flip is only "if you have face-down cards"."""
    state = start()
    for _ in range(4):  # seat 0 equips on each of its turns; the others investigate
        do(state, "equip")
        pass_windows(state)
        state.apply(state.legal_actions()[0])  # the draw
        if legal(state)[0].startswith("keep"):
            state.apply_str(legal(state)[0])
        flips = [t for t in legal(state) if t.startswith("flip")]
        if all(face_up(state, 0)):
            assert not flips
        else:
            state.apply_str(flips[0])
        for _ in (1, 2, 3):
            pass_windows(state)
            do(state, next(t for t in legal(state) if t.startswith("investigate")))
        pass_windows(state)
    assert face_up(state, 0) == [True, True, True]


def test_arm_aims_at_once_and_flips() -> None:
    """[Actúa: Brazo] take a Gun, aim it at once [Armas], turn a card face up; then the Aim phase."""
    state = start()
    do(state, "arm")
    pass_windows(state)
    assert legal(state) == ["aim 1", "aim 2", "aim 3"]  # never at oneself
    state.apply_str("aim 2")
    assert legal(state) == ["flip 0", "flip 1", "flip 2"]
    state.apply_str("flip 0")
    assert cards_seen(state, 1, 0) == ["agent", None, None]
    pass_windows(state)
    assert legal(state) == ["aim 1", "aim 2", "aim 3"]  # the Aim phase: change it or not
    state.apply_str("aim 3")
    data = view(state, 1)
    assert data["players"][0]["gun"] and data["players"][0]["aim"] == 3 and data["guns_centre"] == 1


def test_arm_needs_a_free_hand_and_a_gun_in_the_centre() -> None:
    """[Armas] one Gun at a time; 4 players have 2 Guns."""
    state = start()
    do(state, "arm", "aim 1", "flip 1", "aim 1")
    do(state, "arm", "aim 0", "flip 1", "aim 0")
    pass_windows(state)
    assert state.decision().seat == 2 and "arm" not in legal(state)
    do(state, "investigate 0.0")
    pass_windows(state)
    pass_windows(state)
    do(state, "investigate 0.0")
    pass_windows(state)
    assert state.decision().seat == 0 and "arm" not in legal(state) and "shoot" in legal(state)


def test_aim_changes_only_in_the_aim_phase() -> None:
    """[Armas] a Gun keeps its aim through other turns; its holder re-aims after acting."""
    state = start()
    do(state, "arm", "aim 2", "flip 1", "aim 2")
    for seat in (1, 2, 3):
        do(state, "investigate 0.0" if seat != 0 else "equip")
        pass_windows(state)
        assert view(state, seat)["players"][0]["aim"] == 2
    pass_windows(state)
    do(state, "investigate 1.0")
    pass_windows(state)
    assert legal(state) == ["aim 1", "aim 2", "aim 3"]


# --- being shot -----------------------------------------------------------------------------------------
def shoot_round(state: Any, target: int) -> None:
    """Seat 0 arms and aims at ``target``; seats 1-3 investigate; seat 0 announces the shot."""
    do(state, "arm", f"aim {target}", "flip 1", f"aim {target}")
    for _ in (1, 2, 3):
        pass_windows(state)
        do(state, next(t for t in legal(state) if t.startswith("investigate")))
    do(state, "shoot")


def test_shot_non_leader_is_eliminated() -> None:
    """[Recibir un disparo] cards face up, turned sideways (out), Equipment to the bottom, Gun back."""
    state = start()
    shoot_round(state, 3)
    pass_windows(state)  # the announcement window
    data = view(state, 1)
    assert data["players"][3]["alive"] is False
    assert [c["card"] for c in data["players"][3]["cards"]] == HANDS4[3]
    assert data["players"][3]["equipment"] == 0 and data["deck"]["bottom"] == [None]  # face down
    assert view(state, 3)["deck"]["bottom"] == ["polygraph"]
    assert data["guns_centre"] == 2 and not data["players"][0]["gun"]  # the shooter dropped the Gun
    history = view(state, 1)["history"]
    step = next(events for _, _, events in history if any(e["kind"] == "Shot" for e in events))
    assert [e["kind"] for e in step] == ["Shot", "CardsRevealed", "EquipmentReturned", "Eliminated",
                                         "GunReturned"]
    pass_windows(state)
    assert state.decision().turn_of == 1
    for _ in (1, 2):
        do(state, "investigate 0.0")
        pass_windows(state)
    assert state.decision().turn_of == 0  # seat 3 is skipped
    assert not any(t.startswith("investigate 3.") for t in legal(state))


def test_leader_is_wounded_then_eliminated() -> None:
    """[Recibir un disparo] a leader's first shot: Wounded token and an Equipment card; the second ends
    the game [Fin]: the Kingpin out, the honest team wins."""
    state = start()
    shoot_round(state, 1)
    pass_windows(state)
    assert state.current_player() == CHANCE  # the wounded leader draws
    state.apply_str("draw wiretap")
    assert who(state) == ("response", 1, 0) and legal(state) == ["keep smoke-grenade", "keep wiretap"]
    state.apply_str("keep wiretap")
    data = view(state, 2)
    assert data["players"][1]["wounded"] and data["players"][1]["alive"]
    assert [c["card"] for c in data["players"][1]["cards"]] == HANDS4[1]
    do(state, "pass")
    pass_windows(state)
    do(state, "investigate 0.0")  # seat 1
    for _ in (2, 3):
        pass_windows(state)
        do(state, next(t for t in legal(state) if t.startswith("investigate")))
    do(state, "arm", "aim 1", "flip 0", "aim 1")  # seat 0 arms again (the Gun went back)
    for _ in (1, 2, 3):
        pass_windows(state)
        do(state, next(t for t in legal(state) if t.startswith("investigate")))
    do(state, "shoot")
    pass_windows(state)
    assert state.is_terminal()
    data = view(state, 3)
    assert data["winner"] == "honest" and data["winners"] == [0, 2]
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]
    assert all(c["face_up"] for p in data["players"] for c in p["cards"])  # every card shown
    assert state.decision().kind == DecisionKind.NONE and state.current_player() == TERMINAL


def test_agent_eliminated_crooked_win() -> None:
    hands = [HANDS4[1], HANDS4[0], HANDS4[2], HANDS4[3]]  # seat 0 the Kingpin, seat 1 the Agent
    state = start(hands)
    shoot_round(state, 1)
    pass_windows(state)
    state.apply_str("draw wiretap")
    state.apply_str("keep wiretap")
    for _ in (1, 2, 3):
        pass_windows(state)
        do(state, next(t for t in legal(state) if t.startswith("investigate")))
    do(state, "arm", "aim 1", "flip 0", "aim 1")
    for _ in (1, 2, 3):
        pass_windows(state)
        do(state, next(t for t in legal(state) if t.startswith("investigate")))
    do(state, "shoot")
    pass_windows(state)
    assert view(state, 0)["winner"] == "crooked" and state.returns() == [1.0, -1.0, -1.0, 1.0]


def test_cannot_shoot_an_eliminated_player() -> None:
    state = start()
    do(state, "arm", "aim 3", "flip 1", "aim 3")
    do(state, "arm", "aim 3", "flip 1", "aim 3")  # seat 1 aims at seat 3 too
    for _ in (2, 3):
        pass_windows(state)
        do(state, next(t for t in legal(state) if t.startswith("investigate")))
    do(state, "shoot")  # seat 0 eliminates seat 3
    pass_windows(state)
    pass_windows(state)
    assert state.decision().seat == 1
    assert "shoot" not in legal(state)  # its Gun points at an eliminated player
    do(state, "investigate 0.0")
    pass_windows(state)
    assert legal(state) == ["aim 0", "aim 2"]  # re-aim at a living player


# --- the end of the game ------------------------------------------------------------------------------------
def test_both_leader_cards_in_one_hand_win_alone() -> None:
    """[Fin] a player holding the Agent and the Kingpin wins alone (here by the stand-in Blackmail)."""
    state = start(equipment=["blackmail", "smoke-grenade", "truth-serum", "polygraph"])
    do(state, "play blackmail 1")
    assert legal(state) == ["pick 0.0", "pick 0.1", "pick 0.2"]
    state.apply_str("pick 0.1")  # give seat 1 the Honest card ...
    assert legal(state) == ["pick 1.0", "pick 1.1", "pick 1.2"]
    state.apply_str("pick 1.0")  # ... and take the Kingpin
    assert state.is_terminal()
    data = view(state, 2)
    assert data["winner"] == "solo" and data["winners"] == [0]
    assert state.returns() == [1.0, -1.0, -1.0, -1.0]


def test_wounded_leader_who_loses_the_leader_card_is_eliminated() -> None:
    """[Recibir un disparo] a wounded leader no longer holding a leader card is out; the game goes on,
    and the new holder of the Kingpin is not wounded."""
    state = start(equipment=["taser", "smoke-grenade", "blackmail", "polygraph"])
    shoot_round(state, 1)
    pass_windows(state)
    state.apply_str("draw wiretap")
    state.apply_str("keep smoke-grenade")
    do(state, "play blackmail 1", "pick 2.0", "pick 1.0")  # seat 2 takes the wounded Kingpin's card
    data = view(state, 3)
    assert not state.is_terminal()
    assert data["players"][1]["alive"] is False and not data["players"][2]["wounded"]
    assert events_seen(state, 3, "Eliminated")[-1]["reason"] == "lost the leader card"
    assert cards_seen(state, 3, 2)[0] == "kingpin"  # it was face up (shot) and stays face up
    assert cards_seen(state, 3, 1) == ["honest", "crooked", "honest"]  # out: every card face up


def test_wounded_leader_holding_the_other_leader_card_stays() -> None:
    """Decision: the rulebook's "la carta de Agente o Kingpin" is read literally: a wounded player who
    swaps one leader card for the other still holds a leader card and stays in."""
    hands = [HANDS4[0], HANDS4[1], HANDS4[2], HANDS4[3]]
    state = start(hands, ["taser", "blackmail", "truth-serum", "polygraph"])
    shoot_round(state, 1)
    pass_windows(state)
    state.apply_str("draw wiretap")
    state.apply_str("keep blackmail")
    do(state, "play blackmail 0", "pick 1.0", "pick 0.0")  # the wounded Kingpin takes the Agent
    data = view(state, 2)
    assert data["players"][1]["alive"] and data["players"][1]["wounded"] and not state.is_terminal()
    assert cards_seen(state, 1, 1) == ["agent", "crooked", "honest"]
    assert cards_seen(state, 2, 1) == [None, "crooked", "honest"]  # each card keeps its face state
    assert cards_seen(state, 2, 0)[0] == "kingpin"


def test_turn_order_skips_the_eliminated_and_goes_clockwise() -> None:
    state = start()
    seats = []
    for _ in range(5):
        pass_windows(state)
        seats.append(state.decision().seat)
        do(state, next(t for t in legal(state) if t.startswith("investigate")))
    assert seats == [0, 1, 2, 3, 0]


def test_illegal_and_unreadable_actions_are_rejected() -> None:
    state = start()
    with pytest.raises(IllegalActionError, match="'shoot' is not legal now"):
        state.apply_str("shoot")
    with pytest.raises(InvalidActionError, match="not an Equipment card"):
        state.apply_str("play nothing")
    with pytest.raises(InvalidActionError, match="seat.position"):
        state.apply_str("investigate 2")
