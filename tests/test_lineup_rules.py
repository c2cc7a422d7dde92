"""LineUp rules as tables of positions (python-chess / PokerKit style).

Positions are built by playing notation with every chance node forced (``die 3``, ``draw bakery-05``,
``innocent bakery-01``, ``guilty 2``, ``lucky hinder``) on a small test board written here, so the
expected values can be read off its drawing. They come from the rulebook
(``shared/rulebooks/lineup.txt``), ``shared/research/components.md`` and docs/lineup-rules.md; nothing
is read back from the engine's tables.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import solver.games
import solver.games.lineup
from solver.core import BadStateError, ConfigError, IllegalActionError, InvalidActionError
from solver.games.lineup.board import parse_board
from solver.games.lineup.content import load_lucky, load_suspects
from solver.plan.lineup_plan import distances

#: The test board::
#:
#:     warehouse(11)        pet-shop(10)
#:         |                    |
#:  bakery(7) - 1 - 2 - station(0) - 3 - 4L - 5 - bank(8)
#:                          |                  |
#:                          6 - car-lot(9)    13 - wharf(12)
#:
#: (4L: a Lucky Break space; warehouse hangs off 1, pet-shop off 4.)
EDGES = [[0, 2], [2, 1], [1, 7], [1, 11], [0, 3], [3, 4], [4, 5], [5, 8], [4, 10], [0, 6], [6, 9],
         [5, 13], [13, 12]]
NAMES = {0: "station", 7: "bakery", 8: "bank", 9: "car-lot", 10: "pet-shop", 11: "warehouse", 12: "wharf"}


def board_doc() -> dict[str, Any]:
    spaces = []
    for i in range(14):
        kind = "station" if i == 0 else "scene" if i in NAMES else "lucky" if i == 4 else "street"
        spaces.append({"id": i, "kind": kind, **({"name": NAMES[i]} if i in NAMES else {})})
    edges = [list(e) for e in EDGES]
    return {"format": "copsolver-lineup-board/1", "name": "test", "spaces": spaces, "edges": edges}


@pytest.fixture(scope="module")
def board_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("lineup") / "board.json"
    path.write_text(json.dumps(board_doc()))
    return str(path)


def new(board_path: str, players: int = 2) -> Any:
    return solver.games.load("lineup", players=players, board=board_path).new_initial_state()


def legal(state: Any) -> list[str]:
    return [state.game.action_to_str(a) for a in state.legal_actions()]


def do(state: Any, *texts: str) -> None:
    for text in texts:
        state.apply_str(text)


def idle(state: Any) -> None:
    """The active seat shuttles between the station and space 6 (an empty street)."""
    seat = state.current_player()
    do(state, "roll", "die 1", "move 6" if state.pos[seat] == 0 else "move station")


def settle(state: Any) -> None:
    """Finish the active seat's turn after its move: study a drawn card, decline what is offered."""
    seat = state.active
    while state.active == seat and not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.legal_actions()[0])
        else:
            do(state, "study" if "study" in legal(state) else "end")


def fetch(state: Any, scene: str, die: int, card: str) -> None:
    """The active seat (at the station) goes to ``scene`` and studies ``card``; the other seat idles."""
    do(state, "roll", f"die {die}", f"move {scene}", f"draw {card}", "study")
    idle(state)


def lineup(state: Any, held: int, innocents: list[str], guilty: int, pick: int) -> None:
    do(state, f"lineup {held}", *[f"innocent {c}" for c in innocents], f"guilty {guilty}", f"pick {pick}")


def cards(scene: str, *numbers: int) -> list[str]:
    return [f"{scene}-{n:02d}" for n in numbers]


# --- movement [Game Play] -------------------------------------------------------------------------
MOVES = [
    # (path of (die, destination) turns for seat 0 first, then die) -> the destinations offered
    ([], 1, ["2", "3", "6"]),
    ([], 2, ["1", "2", "3", "4", "6", "car-lot"]),
    ([], 3, ["1", "2", "3", "4", "5", "6", "bakery", "car-lot", "pet-shop", "warehouse"]),
    # scenes are entered without exact count; nothing lies beyond them
    ([], 6, ["1", "2", "3", "4", "5", "6", "13", "bakery", "bank", "car-lot", "pet-shop", "warehouse",
             "wharf"]),
    # the station ends a move: from the car lot a 3 cannot pass through it
    ([(2, "car-lot")], 3, ["6", "station"]),
    # any direction, from a street space
    ([(2, "4")], 1, ["3", "5", "pet-shop"]),
    ([(2, "4")], 2, ["13", "3", "5", "bank", "pet-shop", "station"]),  # not through the station
]


@pytest.mark.parametrize(("path", "die", "expected"), MOVES)
def test_moves_up_to_the_roll_in_any_direction(board_path: str, path: list[tuple[int, str]], die: int,
                                               expected: list[str]) -> None:
    state = new(board_path)
    for roll, dest in path:
        do(state, "roll", f"die {roll}", f"move {dest}")
        settle(state)
        idle(state)
    do(state, "roll", f"die {die}")
    assert sorted(legal(state)) == sorted(f"move {d}" for d in expected)


def test_move_needs_a_roll_and_a_reachable_space(board_path: str) -> None:
    state = new(board_path)
    with pytest.raises(IllegalActionError):
        state.apply_str("move 2")  # roll first
    do(state, "roll", "die 1")
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_str("move bakery")  # three spaces away
    with pytest.raises(IllegalActionError):
        state.apply_str("move station")  # staying put is not a move


# --- crime scenes, the station, staying [At a Crime Scene], [At the Police Station] ---------------------
def test_a_scene_draws_a_card_to_study_and_ends_the_turn(board_path: str) -> None:
    state = new(board_path)
    do(state, "roll", "die 2", "move car-lot")
    assert state.is_chance_node() and len(state.chance_outcomes()) == 16
    do(state, "draw car-lot-07")
    assert legal(state) == ["study"] and state.current_player() == 0
    do(state, "study")
    assert state.current_player() == 1 and state.held[0] == [(2, 6)]


STAYING = [
    # (cards fetched by seat 0 before it is back at the station, legal at the start of its turn)
    (0, ["roll"]),
    (1, ["lineup 1", "roll"]),
    (2, ["lineup 1", "lineup 2", "roll"]),
]


@pytest.mark.parametrize(("fetched", "expected"), STAYING)
def test_staying_at_the_station_to_request_a_lineup(board_path: str, fetched: int,
                                                    expected: list[str]) -> None:
    state = new(board_path)
    for i in range(fetched):
        fetch(state, "car-lot", 2, f"car-lot-{i + 1:02d}")
        do(state, "roll", "die 3", "move station", "end")  # back, no lineup yet
        idle(state)
    assert state.pos[0] == 0 and sorted(legal(state)) == sorted(expected)


def test_arriving_at_the_station_offers_lineups_or_end(board_path: str) -> None:
    state = new(board_path)
    fetch(state, "car-lot", 2, "car-lot-05")
    do(state, "roll", "die 6", "move station")
    assert legal(state) == ["end", "lineup 1"]
    empty = new(board_path)
    do(empty, "roll", "die 1", "move 6")
    idle(empty)
    do(empty, "roll", "die 1", "move station")  # nothing to line up: the turn is over
    assert empty.current_player() == 1


# --- lineups [Lineups] --------------------------------------------------------------------------
COUNTS = [
    # (results of seat 0's lineups in order, its Lineup Count after each) from 4, never below 3
    (["right"], [5]),
    (["wrong"], [3]),
    (["wrong", "wrong"], [3, 3]),
    (["right", "right", "wrong"], [5, 6, 5]),
    (["wrong", "right", "right"], [3, 4, 5]),
]


@pytest.mark.parametrize(("results", "counts"), COUNTS)
def test_count_goes_up_when_right_and_down_when_wrong(board_path: str, results: list[str],
                                                      counts: list[int]) -> None:
    state = new(board_path)
    fresh = cards("car-lot", *range(16, 3, -1))  # cards never drawn yet (innocents go under the deck)
    for i, result in enumerate(results):
        fetch(state, "car-lot", 2, f"car-lot-{i + 1:02d}")
        do(state, "roll", "die 2", "move station")
        size = state.count[0]
        innocents, fresh = fresh[: size - 1], fresh[size - 1:]
        lineup(state, 1, innocents, 1, 1 if result == "right" else 2)
        assert state.count[0] == counts[i]
        assert len(state.identified[0]) == results[: i + 1].count("right")
        idle(state)


def test_lineup_size_is_the_count_and_cards_go_to_the_bottom(board_path: str) -> None:
    state = new(board_path)
    fetch(state, "bakery", 3, "bakery-05")
    do(state, "roll", "die 3", "move station", "lineup 1")
    do(state, *[f"innocent {c}" for c in cards("bakery", 1, 2, 3)])
    assert state.is_chance_node() and len(state.chance_outcomes()) == 4  # the Guilty stand: 4 places
    do(state, "guilty 2")
    shown = state.view(1).to_json()["lineup"]
    assert [s["card"] for s in shown["stands"]] == cards("bakery", 1, 5, 2, 3)
    do(state, "pick 3")
    assert state.current_player() == 1 and state.count[0] == 3  # wrong: turn over
    assert sorted(state.returned[0]) == [0, 1, 2, 4]  # all four under the deck
    assert len(state.unseen[0]) == 12


def test_chained_lineups_while_right(board_path: str) -> None:
    state = new(board_path)
    fetch(state, "bakery", 3, "bakery-05")
    do(state, "roll", "die 3", "move station", "end")
    idle(state)
    fetch(state, "car-lot", 2, "car-lot-02")
    do(state, "roll", "die 2", "move station")
    lineup(state, 1, cards("bakery", 1, 2, 3), 4, 4)  # right
    assert legal(state) == ["end", "lineup 1"] and state.current_player() == 0
    lineup(state, 1, cards("car-lot", 1, 3, 4, 6), 1, 2)  # wrong: the chain ends
    assert state.current_player() == 1 and state.count[0] == 4


def test_chain_ends_when_no_card_is_left(board_path: str) -> None:
    state = new(board_path)
    fetch(state, "car-lot", 2, "car-lot-02")
    do(state, "roll", "die 2", "move station")
    lineup(state, 1, cards("car-lot", 1, 3, 4), 1, 1)
    assert state.current_player() == 1


def test_count_never_above_ten(board_path: str) -> None:
    state = new(board_path)
    state.count[0] = 10
    fetch(state, "car-lot", 2, "car-lot-02")
    do(state, "roll", "die 2", "move station")
    lineup(state, 1, cards("car-lot", 1, 3, 4, 5, 6, 7, 8, 9, 10), 1, 1)
    assert state.count[0] == 10


def test_four_suspects_from_four_scenes_win(board_path: str) -> None:
    state = new(board_path)
    trips = [("bakery", 3, 3), ("car-lot", 2, 2), ("pet-shop", 3, 3), ("bakery", 3, 3), ("warehouse", 3, 3)]
    for i, (scene, there, back) in enumerate(trips):
        again = [t[0] for t in trips[:i]].count(scene)  # the second bakery trip takes other cards
        fetch(state, scene, there, f"{scene}-{16 - again}")
        do(state, "roll", f"die {back}", "move station")
        size = state.count[0]
        innocents = cards(scene, *range(1 + 8 * again, size + 8 * again))
        lineup(state, 1, innocents, 1, 1)
        scenes = {s for s, _ in state.identified[0]}
        if i < 4:  # the second bakery card makes four cards but three scenes
            assert not state.is_terminal() and len(scenes) == min(i + 1, 3)
            idle(state)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.view(1).to_json()["winner"] == "seat 0"
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_str("roll")


# --- Lucky Break [On a Lucky Break Space] ---------------------------------------------------------
def to_lucky(state: Any, kind: str, keep: bool = True) -> None:
    """Seat 0 (at the station or on 3) steps onto the Lucky Break space 4 and draws ``kind``."""
    do(state, "roll", "die 2" if state.pos[0] == 0 else "die 1", "move 4", "lucky", f"lucky {kind}")
    if keep:
        do(state, "end")
        idle(state)


def test_lucky_break_draw_is_optional_and_weighted_by_the_deck(board_path: str) -> None:
    state = new(board_path)
    do(state, "roll", "die 2", "move 4")
    assert legal(state) == ["end", "lucky"]
    do(state, "lucky")
    assert dict((state.game.action_to_str(a), p) for a, p in state.chance_outcomes()) == {
        "lucky another-look": 10 / 26, "lucky to-station": 8 / 26, "lucky hinder": 8 / 26}
    do(state, "lucky hinder")
    assert legal(state) == ["end", "play hinder 1"]
    assert state.view(0).to_json()["hand"] == ["hinder"] and state.view(1).to_json()["hand"] == []
    assert state.view(1).to_json()["history"][-1][1] == "lucky ?"


def test_hand_of_at_most_three(board_path: str) -> None:
    state = new(board_path)
    for _ in range(3):
        to_lucky(state, "hinder")
        do(state, "roll", "die 1", "move 3")
        idle(state)
    assert sum(state.hand[0]) == 3
    do(state, "roll", "die 1", "move 4")
    assert state.current_player() == 1  # no draw with three cards: the turn is over


LUCKY = [
    # (kind, the play, what must hold after it)
    ("hinder", "play hinder 1", lambda st: st.count[1] == 5 and st.current_player() == 1),
    ("to-station", "play to-station", lambda st: st.pos[0] == 0 and st.current_player() == 1),
    ("another-look", None, lambda st: True),  # needs a face-down card: not playable now
]


@pytest.mark.parametrize(("kind", "play", "check"), LUCKY)
def test_lucky_break_used_at_once(board_path: str, kind: str, play: str | None, check: Any) -> None:
    state = new(board_path)
    to_lucky(state, kind, keep=False)
    if play is None:
        assert legal(state) == ["end"]
        return
    do(state, play)
    assert check(state) and sum(state.hand[0]) == 0 and sum(state.lucky_returned) == 1


def test_lucky_break_saved_for_later(board_path: str) -> None:
    state = new(board_path)
    to_lucky(state, "another-look")
    do(state, "roll", "die 2", "move station")
    idle(state)
    fetch(state, "car-lot", 2, "car-lot-07")
    assert "play another-look 1" in legal(state)
    do(state, "play another-look 1")
    seen = state.view(0).to_json()["studying"]
    assert seen["card"] == "car-lot-07" and state.view(1).to_json()["studying"] is None
    do(state, "study")
    assert "roll" in legal(state) and "car-lot-07" not in json.dumps(state.view(0).to_json())


def test_hinder_stops_at_ten(board_path: str) -> None:
    state = new(board_path)
    to_lucky(state, "hinder", keep=False)
    state.count[1] = 10
    assert legal(state) == ["end"]


# --- the study moment (views) -----------------------------------------------------------------------
def test_the_card_is_seen_only_while_studied(board_path: str) -> None:
    state = new(board_path)
    do(state, "roll", "die 2", "move car-lot", "draw car-lot-07")
    own, other = state.view(0).to_json(), state.view(1).to_json()
    features = load_suspects().scenes["car-lot"][6].values
    assert own["studying"]["card"] == "car-lot-07"
    assert tuple(own["studying"]["features"].values()) == features
    assert other["studying"] is None and "car-lot-07" not in json.dumps(other)
    assert own["history"][-1][1] == other["history"][-1][1] == "draw car-lot ?"
    do(state, "study")
    for seat in (0, 1):
        assert "car-lot-07" not in json.dumps(state.view(seat).to_json())
        assert [e.kind for e in state.events_for(seat) if e.kind == "SuspectStudied"] == (
            ["SuspectStudied"] if seat == 0 else [])


# --- content, stand-ins, bad input --------------------------------------------------------------------
def test_shipped_content_is_marked_stand_in_and_fits_the_components() -> None:
    game = solver.games.load("lineup", players=2)
    assert game.board.stand_in and game.suspects.stand_in and game.lucky.stand_in
    assert sorted(game.board.scene_names) == ["bakery", "bank", "car-lot", "pet-shop", "warehouse", "wharf"]
    assert all(len(deck) == 16 for deck in game.suspects.scenes.values())
    assert sum(load_lucky().counts) == 26 and all(load_lucky().counts)
    board = game.board  # the stand-in's note: 5 spaces from the station, scenes in pairs 4 apart, else 6
    assert all(distances(board, board.station)[s] == 5 for s in board.scenes)
    apart = [sorted(distances(board, s)[t] for t in board.scenes if t != s)[:2] for s in board.scenes]
    assert apart == [[4, 6]] * 6
    for deck in game.suspects.scenes.values():  # genuinely confusable: every card has a near twin
        for card in deck:
            diffs = [sum(a != b for a, b in zip(card.values, other.values, strict=True))
                     for other in deck if other is not card]
            assert min(diffs) == 1


BAD_BOARDS = [
    (lambda d: d["spaces"].append({"id": 14, "kind": "station", "name": "station"}), "exactly one"),
    (lambda d: d["spaces"][7].update(name="bank"), "used twice"),
    (lambda d: d["spaces"][3].update(kind="river"), "not one of"),
    (lambda d: d["edges"].append([0, 99]), "pair of space ids"),
    (lambda d: d["edges"].append([3, 3]), "itself"),
    (lambda d: d["edges"].append([2, 0]), "twice"),
    (lambda d: d["edges"].remove([13, 12]), "cannot be reached"),
    (lambda d: d.update(format="other"), "format"),
]


@pytest.mark.parametrize(("spoil", "message"), BAD_BOARDS)
def test_bad_board_files_name_the_fault(spoil: Any, message: str) -> None:
    doc = board_doc()
    spoil(doc)
    with pytest.raises(BadStateError, match=message):
        parse_board(doc)


def test_bad_options_and_files(board_path: str, tmp_path: Path) -> None:
    for players in (1, 7, "4", True):
        with pytest.raises(ConfigError, match="players"):
            solver.games.load("lineup", players=players)
    with pytest.raises(ConfigError, match="cannot read"):
        solver.games.load("lineup", board=str(tmp_path / "missing.json"))
    doc = board_doc()
    doc["spaces"][12]["name"] = "harbour"
    (tmp_path / "b.json").write_text(json.dumps(doc))
    with pytest.raises(ConfigError, match="not the suspect decks"):
        solver.games.load("lineup", board=str(tmp_path / "b.json"))
    (tmp_path / "l.json").write_text(json.dumps({"format": "copsolver-lineup-lucky/1",
                                                  "cards": [{"kind": "jail", "count": 2}]}))
    with pytest.raises(ConfigError, match="'jail'"):
        solver.games.load("lineup", lucky=str(tmp_path / "l.json"))


def test_user_suspect_and_lucky_files_replace_the_stand_ins(tmp_path: Path) -> None:
    data = Path(solver.games.lineup.__file__).parent / "data"
    suspects = json.loads((data / "suspects.json").read_text())
    suspects.update(stand_in=False, name="our decks")
    suspects["features"]["shoes"] = ["boots", "sandals"]  # a feature of the user's own
    for scene in suspects["scenes"].values():
        for i, card in enumerate(scene["cards"]):
            card["features"]["shoes"] = ("boots", "sandals")[i % 2]
    lucky = {"format": "copsolver-lineup-lucky/1", "name": "our Lucky Breaks", "stand_in": False,
             "cards": [{"kind": "another-look", "count": 3}, {"kind": "to-station", "count": 2},
                       {"kind": "hinder", "count": 1}]}
    (tmp_path / "s.json").write_text(json.dumps(suspects))
    (tmp_path / "l.json").write_text(json.dumps(lucky))
    game = solver.games.load("lineup", players=3, suspects=str(tmp_path / "s.json"),
                             lucky=str(tmp_path / "l.json"))
    assert not game.suspects.stand_in and not game.lucky.stand_in and sum(game.lucky.counts) == 6
    state = game.new_initial_state()
    for text in ("roll", "die 5", "move bakery", "draw bakery-02"):
        state.apply_str(text)
    assert state.view(0).to_json()["studying"]["features"]["shoes"] == "sandals"


@pytest.mark.parametrize("text", ["pick 11", "pick 0", "move nowhere", "draw bakery-99", "lineup x", "fly"])
def test_unreadable_actions(board_path: str, text: str) -> None:
    with pytest.raises(InvalidActionError):
        new(board_path).game.str_to_action(text)


def test_illegal_actions_are_rejected_with_the_position(board_path: str) -> None:
    state = new(board_path)
    with pytest.raises(IllegalActionError, match="legal: roll"):
        state.apply_str("pick 1")
    with pytest.raises(IllegalActionError):
        state.apply_str("lineup 1")  # no face-down card
