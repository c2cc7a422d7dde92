"""Police 07 rules as tables of positions (python-chess / PokerKit style).

Every row is (description, options, actions to play, what must hold). Positions are built on a small
board of 16 stops written to a temporary file (``MINI_BOARD``), so every neighbour list can be
checked by eye::

      stop  taxi             bus  metro  water       stop  taxi     bus  metro
       1    2 3              4    5                   7    6 8      8    8
       2    1 6                                       8    7 9      7    7
       3    1 4                          15           9    8 10     10   10
       4    3 5              1                       10    9 11     9    9
       5    4 6                   1                  11    10 12    12   12
       6    2 5 7 15 16                              12    11 13    11   11
      15    6                            3           13    12 14    14   14
      16    6                                        14    13       13   13

Stop 1 is a hub (taxi, bus, metro), 3 and 15 are piers, 2, 6 and 16 are taxi-only, 16 is a dead
end, and the pairs 7-8, 9-10, 11-12, 13-14 are joined by all three lines, so a piece can shuttle on
one of them for a whole game whatever tickets it has left. Every stop is a start stop, so the deal
(``start N``: Dr. Factor's card first, then detective pieces 1..n) can put any piece anywhere.

The expected values are written from the rulebook (``shared/rulebooks/police-07.txt``) and the
choices stated in the docstring of :mod:`solver.games.police07.rules`; nothing here is read back from
the engine's own constants.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import solver.games
from solver.core import (
    CHANCE,
    TERMINAL,
    BadStateError,
    ConfigError,
    IllegalActionError,
    InvalidActionError,
)

MINI_BOARD: dict[str, Any] = {
    "format": "copsolver-police07-board/1",
    "name": "mini",
    "stops": 16,
    "links": {
        "taxi": [[1, 2], [1, 3], [2, 6], [3, 4], [4, 5], [5, 6], [6, 7], [6, 15], [6, 16], [7, 8],
                 [8, 9], [9, 10], [10, 11], [11, 12], [12, 13], [13, 14]],
        "bus": [[1, 4], [7, 8], [9, 10], [11, 12], [13, 14]],
        "metro": [[1, 5], [7, 8], [9, 10], [11, 12], [13, 14]],
        "water": [[3, 15]],
    },
    "start_stops": list(range(1, 17)),
}

#: Dr. Factor shows his stop after these moves [Rules], and at the end.
REVEALS = frozenset({1, 3, 8, 13, 18})
LAST_MOVE = 24
FACTOR_START = {"taxi": 3, "bus": 3, "metro": 2, "joker": 2, "double": 2}
DETECTIVE_START = {"taxi": 9, "bus": 9, "metro": 6}
#: where the drivers below shuttle each piece: Dr. Factor on 7-8, detective pieces 1 and 2 on the
#: triple links 11-12 and 13-14, piece 3 on the taxi-only 2-6
PAIRS = {0: (7, 8), 1: (11, 12), 2: (13, 14), 3: (2, 6)}


# --- building positions ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("boards") / "mini.json"
    path.write_text(json.dumps(MINI_BOARD))
    return str(path)


def new_game(board: str, **options: Any) -> Any:
    options.setdefault("players", 2)
    if options["players"] == 2:
        options.setdefault("pieces", [1])
    return solver.games.load("police07", board=board, **options)


def play(game: Any, actions: list[str]) -> Any:
    state = game.new_initial_state()
    for text in actions:
        state.apply_str(text)
    return state


def legal(state: Any) -> list[str]:
    return [state.game.action_to_str(a) for a in state.legal_actions()]


def detective_view(state: Any) -> dict[str, Any]:
    view: dict[str, Any] = state.view(1).to_json()
    return view


def stops_now(state: Any) -> tuple[int, dict[int, int]]:
    """Dr. Factor's true stop and every detective piece's stop, read from his (full) view."""
    view = state.view(0).to_json()
    return view["factor"]["stop"], {p["piece"]: p["stop"] for p in view["pieces"]}


def step_to(state: Any, target: int) -> str:
    """Move the acting piece to ``target`` with the first own ticket that rides there (a joker only
    if nothing else does); pass when that is all there is. Returns the notation played."""
    options = legal(state)
    if options == ["pass"]:
        state.apply_str("pass")
        return "pass"
    own = [t for t in options if t.split()[0] in ("taxi", "bus", "metro") and t.endswith(f" {target}")]
    joker = [t for t in options if t.startswith("joker") and t.endswith(f" {target}")]
    text = (own or joker)[0]
    state.apply_str(text)
    return text


def other(pair: tuple[int, int], stop: int) -> int:
    return pair[1] if stop == pair[0] else pair[0]


def factor_step(state: Any, pairs: dict[int, tuple[int, int]] = PAIRS) -> str:
    factor, _ = stops_now(state)
    return step_to(state, other(pairs[0], factor))


def detectives_round(state: Any, pairs: dict[int, tuple[int, int]] = PAIRS) -> None:
    """Detective pieces 1..n, in order, each shuttle on its pair (or pass); call it right after Dr.
    Factor's (whole) move."""
    for piece in range(1, sum(state.game.pieces) + 1):
        if state.is_terminal():
            return
        _, pieces = stops_now(state)
        step_to(state, other(pairs[piece], pieces[piece]))


def shuttle_game(board: str, moves: int, finish_round: bool = True, **options: Any) -> Any:
    """Every piece shuttles on its pair of ``PAIRS`` (it starts on the first stop of it); play until
    Dr. Factor's log holds ``moves`` entries, and the detectives' round after it if asked."""
    game = new_game(board, **options)
    pieces = sum(game.pieces)
    starts = [f"start {PAIRS[p][0]}" for p in range(pieces + 1)]
    if options.get("free_start"):
        starts = [f"place {PAIRS[p][0]}" for p in range(1, pieces + 1)] + [f"place {PAIRS[0][0]}"]
    state = play(game, starts)
    while len(state.view(0).to_json()["log"]) < moves:
        factor_step(state)
        if len(state.view(0).to_json()["log"]) < moves or finish_round:
            detectives_round(state)
    return state


# --- initial tickets and pieces per player count -------------------------------------------------
@pytest.mark.parametrize(
    ("players", "pieces", "piece_seats"),
    [
        (2, None, [1, 1, 1, 1]),  # rulebook silent: the lone detective plays the 3-player force
        (3, None, [1, 1, 2, 2]),  # [Start]: two players against him play two pieces each
        (4, None, [1, 2, 3]),
        (5, None, [1, 2, 3, 4]),
        (6, None, [1, 2, 3, 4, 5]),
        (2, [1], [1]),
        (2, [5], [1, 1, 1, 1, 1]),
        (3, [1, 3], [1, 2, 2, 2]),
        (3, [3, 2], [1, 1, 1, 2, 2]),
        (4, [2, 1, 2], [1, 1, 2, 3, 3]),
        (6, [1, 1, 1, 1, 1], [1, 2, 3, 4, 5]),
    ],
)
def test_pieces_and_initial_tickets(players: int, pieces: list[int] | None, piece_seats: list[int]) -> None:
    options: dict[str, Any] = {"players": players}
    if pieces is not None:
        options["pieces"] = pieces
    game = solver.games.load("police07", **options)
    state = game.new_initial_state()
    for seat in range(players):
        view = state.view(seat).to_json()
        assert [p["seat"] for p in view["pieces"]] == piece_seats
        assert [p["piece"] for p in view["pieces"]] == list(range(1, len(piece_seats) + 1))
        assert all(p["tickets"] == DETECTIVE_START for p in view["pieces"])
        assert view["factor"]["tickets"] == FACTOR_START
    assert game.config()["pieces"] == [piece_seats.count(s) for s in range(1, players)]
    assert state.returns() == [0.0] * players


@pytest.mark.parametrize(
    ("description", "options"),
    [
        ("one player", {"players": 1}),
        ("seven players", {"players": 7}),
        ("players as a bool", {"players": True}),
        ("players as text", {"players": "4"}),
        ("pieces: too few seats listed", {"players": 3, "pieces": [2]}),
        ("pieces: too many seats listed", {"players": 2, "pieces": [1, 1]}),
        ("pieces: a seat with none", {"players": 3, "pieces": [0, 2]}),
        ("pieces: negative", {"players": 3, "pieces": [-1, 2]}),
        ("pieces: six in all", {"players": 3, "pieces": [3, 3]}),
        ("pieces: six for one seat", {"players": 2, "pieces": [6]}),
        ("pieces: a bool", {"players": 3, "pieces": [True, 1]}),
        ("pieces: a float", {"players": 2, "pieces": [2.0]}),
        ("voluntary_show not a bool", {"voluntary_show": 1}),
        ("unlimited_tickets not a bool", {"unlimited_tickets": "yes"}),
        ("free_start not a bool", {"free_start": None}),
        ("board not a string", {"board": 7}),
        ("unknown option", {"players": 4, "colour": "red"}),
    ],
)
def test_bad_config_raises(description: str, options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        solver.games.load("police07", **options)


def test_unknown_game_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="nosuchgame"):
        solver.games.load("nosuchgame")


def test_board_with_too_few_start_stops(tmp_path: Path) -> None:
    small = dict(MINI_BOARD, start_stops=[1, 2, 3])
    path = tmp_path / "three-starts.json"
    path.write_text(json.dumps(small))
    solver.games.load("police07", players=2, pieces=[2], board=str(path))  # 3 pieces, 3 cards: fine
    with pytest.raises(ConfigError, match="start stops"):
        solver.games.load("police07", players=2, pieces=[3], board=str(path))
    # with free placement the start cards are not used
    solver.games.load("police07", players=2, pieces=[3], free_start=True, board=str(path))


def test_missing_board_file_is_a_bad_state(tmp_path: Path) -> None:
    with pytest.raises(BadStateError):
        solver.games.load("police07", board=str(tmp_path / "nope.json"))


# --- the deal ------------------------------------------------------------------------------------
def test_deal_order_factor_first_then_pieces_in_order(mini: str) -> None:
    game = new_game(mini, players=3, pieces=[1, 2])
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    dealt: list[int] = []
    for stop in (5, 9, 14, 2):
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == [a for a, _ in outcomes]
        assert [game.action_to_str(a) for a, _ in outcomes] == [
            f"start {s}" for s in range(1, 17) if s not in dealt
        ]
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert len({p for _, p in outcomes}) == 1
        state.apply_str(f"start {stop}")
        dealt.append(stop)
    assert state.current_player() == 0
    factor, pieces = stops_now(state)
    assert (factor, pieces) == (5, {1: 9, 2: 14, 3: 2})
    with pytest.raises(IllegalActionError):
        state.chance_outcomes()


def test_start_card_cannot_be_dealt_twice(mini: str) -> None:
    state = play(new_game(mini), ["start 5"])
    with pytest.raises(IllegalActionError, match="start 5"):
        state.apply_str("start 5")


# --- legal moves -----------------------------------------------------------------------------------
LEGAL_MOVES = [
    ("Factor at the hub: each line he holds a ticket for, a joker on each, and double",
     {}, ["start 1", "start 14"],
     ["taxi 2", "taxi 3", "bus 4", "metro 5", "joker taxi 2", "joker taxi 3", "joker bus 4",
      "joker metro 5", "double"]),
    ("Factor at a pier rides the water bus by joker only",
     {}, ["start 3", "start 14"],
     ["taxi 1", "taxi 4", "joker taxi 1", "joker taxi 4", "joker water 15", "double"]),
    ("Factor at the far pier",
     {}, ["start 15", "start 14"],
     ["taxi 6", "joker taxi 6", "joker water 3", "double"]),
    ("Factor on a triple link: one move per ticket kind to the same stop",
     {}, ["start 7", "start 14"],
     ["taxi 6", "taxi 8", "bus 8", "metro 8", "joker taxi 6", "joker taxi 8", "joker bus 8",
      "joker metro 8", "double"]),
    ("detective at the hub: taxi, bus and metro, no jokers",
     {}, ["start 14", "start 1", "taxi 13"],
     ["taxi 2", "taxi 3", "bus 4", "metro 5"]),
    ("detective at a pier: no water bus for detectives",
     {}, ["start 14", "start 3", "taxi 13"],
     ["taxi 1", "taxi 4"]),
    ("detective at the far pier: taxi only",
     {}, ["start 14", "start 15", "taxi 13"],
     ["taxi 6"]),
    ("stops held by detectives are closed to Dr. Factor, by ticket and by joker",
     {"pieces": [2]}, ["start 1", "start 2", "start 4"],
     ["taxi 3", "metro 5", "joker taxi 3", "joker metro 5", "double"]),
    ("stops held by other detectives are closed to a detective",
     {"pieces": [2]}, ["start 14", "start 1", "start 3", "taxi 13"],
     ["taxi 2", "bus 4", "metro 5"]),
    ("a detective may move onto Dr. Factor's (shown) stop",
     {}, ["start 9", "start 11", "taxi 10"],
     ["taxi 10", "taxi 12", "bus 12", "metro 12"]),
    ("a detective may move onto Dr. Factor's hidden stop",
     {}, ["start 8", "start 12", "taxi 9", "taxi 11", "taxi 10"],
     ["taxi 10", "taxi 12", "bus 12", "metro 12"]),
    ("second move of a double: moves only, no second double",
     {}, ["start 1", "start 14", "double", "taxi 2"],
     ["taxi 1", "taxi 6", "joker taxi 1", "joker taxi 6"]),
    ("first move after announcing a double: moves only",
     {}, ["start 1", "start 14", "double"],
     ["taxi 2", "taxi 3", "bus 4", "metro 5", "joker taxi 2", "joker taxi 3", "joker bus 4",
      "joker metro 5"]),
    ("Factor out of metro tickets cannot ride metro except by joker",
     {}, ["start 1", "start 13", "metro 5", "taxi 14", "metro 1", "taxi 13"],
     ["taxi 2", "taxi 3", "bus 4", "joker taxi 2", "joker taxi 3", "joker bus 4", "joker metro 5",
      "double"]),
    ("Factor rides a metro ticket handed over by a detective",
     {}, ["start 1", "start 13", "metro 5", "taxi 14", "metro 1", "metro 13"],
     ["taxi 2", "taxi 3", "bus 4", "metro 5", "joker taxi 2", "joker taxi 3", "joker bus 4",
      "joker metro 5", "double"]),
    ("Factor with both jokers spent has no joker moves",
     {}, ["start 1", "start 13", "joker taxi 2", "taxi 14", "joker taxi 1", "taxi 13"],
     ["taxi 2", "taxi 3", "bus 4", "metro 5", "double"]),
    ("Factor with both doubles spent cannot announce another",
     {}, ["start 7", "start 13", "double", "taxi 8", "taxi 7", "taxi 14",
          "double", "taxi 8", "taxi 7", "taxi 13"],
     ["taxi 6", "taxi 8", "bus 8", "metro 8", "joker taxi 6", "joker taxi 8", "joker bus 8",
      "joker metro 8"]),
    ("detective blocked in a dead end: only pass",
     {"pieces": [2]}, ["start 12", "start 16", "start 6", "taxi 11"],
     ["pass"]),
    ("the other piece of the same seat moves after the pass",
     {"pieces": [2]}, ["start 12", "start 16", "start 6", "taxi 11", "pass"],
     ["taxi 2", "taxi 5", "taxi 7", "taxi 15"]),
]


@pytest.mark.parametrize(("description", "options", "actions", "expected"), LEGAL_MOVES,
                         ids=[row[0] for row in LEGAL_MOVES])
def test_legal_moves(mini: str, description: str, options: dict[str, Any], actions: list[str],
                     expected: list[str]) -> None:
    state = play(new_game(mini, **options), actions)
    assert legal(state) == expected
    ids = state.legal_actions()
    assert ids == sorted(set(ids))
    # the seat to act sees the same list in its view; nobody else sees any
    seat = state.current_player()
    for s in range(state.game.num_players):
        assert state.view(s).to_json()["legal_actions"] == (expected if s == seat else [])


def test_pass_with_no_legal_move_keeps_tickets(mini: str) -> None:
    state = play(new_game(mini, pieces=[2]), ["start 12", "start 16", "start 6", "taxi 11", "pass"])
    view = detective_view(state)
    assert view["pieces"][0] == {"piece": 1, "seat": 1, "stop": 16, "tickets": DETECTIVE_START}
    assert view["history"][-1] == [1, "pass"]
    with pytest.raises(IllegalActionError):
        state.apply_str("pass")  # piece 2 can move, so it may not pass


# --- tickets -------------------------------------------------------------------------------------
def tickets_of(state: Any) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    view = detective_view(state)
    return view["factor"]["tickets"], {p["piece"]: p["tickets"] for p in view["pieces"]}


TICKET_ROWS = [
    ("dealt stock", [], {}, {}),
    ("Factor's own taxi leaves the game", ["taxi 10"], {"taxi": 2}, {}),
    ("Factor's joker leaves the game", ["joker bus 10"], {"joker": 1}, {}),
    ("a double spends the double ticket and both moves' tickets",
     ["double", "taxi 10", "bus 9"], {"taxi": 2, "bus": 2, "double": 1}, {}),
    ("a detective's taxi goes to Dr. Factor", ["taxi 10", "taxi 12"], {"taxi": 3}, {"taxi": 8}),
    ("a detective's bus goes to Dr. Factor", ["taxi 10", "bus 12"], {"taxi": 2, "bus": 4}, {"bus": 8}),
    ("a detective's metro goes to Dr. Factor", ["taxi 10", "metro 12"], {"taxi": 2, "metro": 3},
     {"metro": 5}),
    ("Factor rides the metro ticket he was handed after spending his own two",
     ["metro 10", "taxi 12", "metro 9", "metro 11", "metro 10"], {"taxi": 4, "metro": 0},
     {"taxi": 8, "metro": 5}),
]


@pytest.mark.parametrize(("description", "moves", "factor_change", "detective_change"), TICKET_ROWS,
                         ids=[r[0] for r in TICKET_ROWS])
def test_ticket_transfer(mini: str, description: str, moves: list[str], factor_change: dict[str, int],
                         detective_change: dict[str, int]) -> None:
    state = play(new_game(mini), ["start 9", "start 11", *moves])
    factor, detectives = tickets_of(state)
    assert factor == dict(FACTOR_START, **factor_change)
    assert detectives[1] == dict(DETECTIVE_START, **detective_change)


def test_factor_tickets_follow_every_spend_over_a_game(mini: str) -> None:
    """Over a 24-move game every ticket is accounted for: the detectives' spent tickets reach Dr.
    Factor, his own leave the game."""
    state = shuttle_game(mini, 24, pieces=[2])
    view = detective_view(state)
    spent_by_factor = {k: 0 for k in FACTOR_START}
    handed = {k: 0 for k in DETECTIVE_START}
    for piece, text in view["history"]:
        head = text.split()[0]
        if piece == 0 and head in FACTOR_START:
            spent_by_factor[head] += 1
        elif piece != 0 and head in handed:
            handed[head] += 1
    assert spent_by_factor["double"] == 0
    for kind in DETECTIVE_START:
        used = sum(DETECTIVE_START[kind] - p["tickets"][kind] for p in view["pieces"])
        assert used == handed[kind]
        assert view["factor"]["tickets"][kind] == FACTOR_START[kind] + handed[kind] - spent_by_factor[kind]
    assert all(p["tickets"] == {"taxi": 0, "bus": 0, "metro": 0} for p in view["pieces"])


# --- the reveal schedule ---------------------------------------------------------------------------
@pytest.mark.parametrize("move", range(1, LAST_MOVE + 1))
def test_reveal_schedule(mini: str, move: int) -> None:
    state = shuttle_game(mini, move, finish_round=False)
    factor, _ = stops_now(state)
    shown = move in REVEALS
    for seat in (1,):
        view = state.view(seat).to_json()
        assert view["factor"]["stop"] == (factor if shown else None)
        assert view["factor"]["moves"] == move
        assert view["log"][-1] == {"move": move, "ticket": view["log"][-1]["ticket"],
                                   "stop": factor if shown else None}
        assert view["history"][-1][1].endswith(f" {factor}" if shown else " ?")
        shown_moves = [e["move"] for e in view["log"] if e["stop"] is not None]
        assert shown_moves == sorted(REVEALS & set(range(1, move + 1)))
    # Dr. Factor always sees himself, and his log carries the line ridden
    own = state.view(0).to_json()
    assert own["factor"]["stop"] == factor
    assert all(e["stop"] is not None and e["line"] for e in own["log"])
    # he stays shown through the detectives' round, until his next move
    detectives_round(state)
    if move < LAST_MOVE:
        assert detective_view(state)["factor"]["stop"] == (factor if shown else None)
    else:
        assert state.is_terminal()
        assert detective_view(state)["factor"]["stop"] == factor  # and at the end


def test_start_stop_is_seen(mini: str) -> None:
    state = play(new_game(mini), ["start 9", "start 11"])
    assert detective_view(state)["factor"]["stop"] == 9
    assert detective_view(state)["history"][0] == [0, "start 9"]


def test_hidden_events_are_redacted(mini: str) -> None:
    state = shuttle_game(mini, 2, finish_round=False)
    last = [e for e in state.events_for(1) if e.kind == "FactorMoved"][-1]
    assert (last.move, last.stop, last.line, last.shown) == (2, None, None, False)
    own = [e for e in state.events_for(0) if e.kind == "FactorMoved"][-1]
    assert (own.move, own.stop, own.line) == (2, 7, "taxi")


# --- double moves --------------------------------------------------------------------------------
@pytest.mark.parametrize("first", [1, 2, 3, 4, 7, 8, 12, 13, 17, 18, 22, 23])
def test_double_move(mini: str, first: int) -> None:
    state = shuttle_game(mini, first - 1)
    assert "double" in legal(state)
    before = detective_view(state)
    state.apply_str("double")
    assert state.current_player() == 0
    assert detective_view(state)["history"][-1] == [0, "double"]
    ticket1 = factor_step(state).split()[0]
    assert state.current_player() == 0, "the second move follows at once"
    assert "second move" in state.decision().prompt
    stop1, _ = stops_now(state)
    mid = detective_view(state)
    assert mid["factor"]["stop"] == (stop1 if first in REVEALS else None)
    assert "double" not in legal(state)
    ticket2 = factor_step(state).split()[0]
    stop2, _ = stops_now(state)
    after = detective_view(state)
    assert state.current_player() == 1
    assert after["factor"]["moves"] == first + 1
    assert after["log"][-2:] == [
        {"move": first, "ticket": ticket1, "stop": stop1 if first in REVEALS else None},
        {"move": first + 1, "ticket": ticket2, "stop": stop2 if first + 1 in REVEALS else None},
    ]
    assert after["factor"]["stop"] == (stop2 if first + 1 in REVEALS else None)
    assert [h[1] for h in after["history"][-3:]] == [
        "double",
        f"{ticket1} {stop1}" if first in REVEALS else f"{ticket1} ?",
        f"{ticket2} {stop2}" if first + 1 in REVEALS else f"{ticket2} ?",
    ]
    spent = {k: 0 for k in FACTOR_START}
    for t in ("double", ticket1, ticket2):
        spent[t] += 1
    assert after["factor"]["tickets"] == {k: n - spent[k] for k, n in before["factor"]["tickets"].items()}


def test_no_double_after_move_22(mini: str) -> None:
    state = shuttle_game(mini, 23)
    assert "double" not in legal(state)
    with pytest.raises(IllegalActionError, match="double"):
        state.apply_str("double")


def test_double_covering_moves_23_and_24_ends_the_game(mini: str) -> None:
    state = shuttle_game(mini, 22)
    state.apply_str("double")
    factor_step(state)
    factor_step(state)
    assert not state.is_terminal()
    detectives_round(state)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]


# --- end of the game -------------------------------------------------------------------------------
END_ROWS = [
    ("capture at Dr. Factor's shown stop",
     {}, ["start 9", "start 11", "taxi 10", "taxi 10"], "detectives", "caught"),
    ("capture at his hidden stop",
     {}, ["start 9", "start 11", "taxi 8", "taxi 10", "taxi 9", "taxi 9"], "detectives", "caught"),
    ("capture by a seat's second piece",
     {"pieces": [2]}, ["start 9", "start 13", "start 11", "taxi 10", "taxi 14", "taxi 10"],
     "detectives", "detective 2 caught"),
    ("capture by a detective riding metro",
     {"players": 3, "pieces": [1, 1]}, ["start 8", "start 10", "start 14", "taxi 9", "metro 9"],
     "detectives", "caught"),
    ("Dr. Factor cornered at the deal (no legal first move)",
     {}, ["start 16", "start 6"], "detectives", "cornered"),
    ("Dr. Factor cornered after the detectives' round",
     {}, ["start 6", "start 7", "taxi 16", "taxi 6"], "detectives", "cornered"),
    ("Dr. Factor cornered after the first move of a double (last joker spent on the water bus)",
     {}, ["start 3", "start 6", "joker taxi 4", "taxi 7", "taxi 3", "taxi 6", "double", "joker water 15"],
     "detectives", "cornered"),
    ("Dr. Factor cornered for want of tickets (taxi and jokers gone, taxi-only stop)",
     {}, ["start 6", "start 9", "taxi 2", "bus 10", "taxi 1", "bus 9", "taxi 2", "bus 10",
          "joker taxi 6", "bus 9", "joker taxi 2", "bus 10"],
     "detectives", "cornered"),
]


@pytest.mark.parametrize(("description", "options", "actions", "winner", "reason"), END_ROWS,
                         ids=[r[0] for r in END_ROWS])
def test_game_end(mini: str, description: str, options: dict[str, Any], actions: list[str],
                  winner: str, reason: str) -> None:
    state = play(new_game(mini, **options), actions)
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    players = state.game.num_players
    assert state.returns() == ([1.0] + [-1.0] * (players - 1) if winner == "factor"
                               else [-1.0] + [1.0] * (players - 1))
    factor, _ = stops_now(state)
    for seat in range(players):
        view = state.view(seat).to_json()
        assert view["winner"] == winner
        assert reason in view["reason"]
        assert view["factor"]["stop"] == factor  # he shows himself at the end
        assert view["legal_actions"] == []
        assert view["decision"]["kind"] == "none"
    assert state.events[-1].kind == "GameOver"
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_str("pass")


def test_no_detective_can_move_factor_wins(mini: str) -> None:
    """The detective spends his 9 taxi tickets shuttling 2-6 and is left on taxi-only stop 6 holding
    bus and metro tickets he cannot use there; after Dr. Factor's next move the game is over."""
    pairs = {**PAIRS, 0: (9, 10), 1: (2, 6)}
    state = play(new_game(mini), ["start 9", "start 2"])
    for move in range(1, 10):
        factor_step(state, pairs)
        assert state.current_player() == 1, move
        assert step_to(state, other((2, 6), stops_now(state)[1][1])).startswith("taxi")
    assert tickets_of(state)[1][1] == {"taxi": 0, "bus": 9, "metro": 6}
    factor_step(state, pairs)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert "no detective can move" in detective_view(state)["reason"]
    assert detective_view(state)["factor"]["moves"] == 10


def test_factor_wins_after_move_24_and_the_round_after_it(mini: str) -> None:
    state = shuttle_game(mini, 24, finish_round=False, pieces=[2])
    assert not state.is_terminal()
    assert state.current_player() == 1
    step_to(state, other(PAIRS[1], stops_now(state)[1][1]))
    assert not state.is_terminal(), "the last detective piece still moves after move 24"
    step_to(state, other(PAIRS[2], stops_now(state)[1][2]))
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    view = detective_view(state)
    assert view["winner"] == "factor"
    assert view["factor"]["moves"] == LAST_MOVE
    assert len(view["history"]) == 3 + LAST_MOVE * 3


def test_returns_zero_until_the_end(mini: str) -> None:
    state = shuttle_game(mini, 10, players=4, pieces=[1, 1, 1])
    assert state.returns() == [0.0] * 4


# --- variant: voluntary show ------------------------------------------------------------------------
@pytest.mark.parametrize("turn", range(1, LAST_MOVE + 1))
def test_show_is_legal_only_while_hidden(mini: str, turn: int) -> None:
    state = shuttle_game(mini, turn - 1, voluntary_show=True)
    hidden = turn >= 3 and (turn - 1) not in REVEALS
    assert ("show" in legal(state)) == hidden
    assert (detective_view(state)["factor"]["stop"] is None) == hidden


def test_show_can_rescue_a_factor_out_of_tickets(mini: str) -> None:
    """The "cornered for want of tickets" row, with the voluntary show: after move 5 he is hidden on
    taxi-only stop 2 with no taxi ticket and no joker, but the detective still holds 9 taxi tickets."""
    actions = ["start 6", "start 9", "taxi 2", "bus 10", "taxi 1", "bus 9", "taxi 2", "bus 10",
               "joker taxi 6", "bus 9", "joker taxi 2", "bus 10"]
    state = play(new_game(mini, voluntary_show=True), actions)
    assert not state.is_terminal(), detective_view(state)["reason"]
    assert detective_view(state)["factor"]["stop"] is None  # hidden: move 5 is not a reveal
    assert "show" in legal(state)
    state.apply_str("show")
    state.apply_str("take 1 taxi")
    # he then moves as usual: a double too (legal, though he has no ticket for its second move)
    assert legal(state) == ["taxi 1", "taxi 6", "double"]


@pytest.mark.parametrize("voluntary_show", [False, True])
def test_show_cannot_rescue_a_factor_walled_in(mini: str, voluntary_show: bool) -> None:
    """Hidden in dead end 16 with the detective on 6, its only way out: without the variant he is
    cornered at once; with it he may still show (his only legal action) and take a ticket, but no
    ticket opens an occupied stop, so he is cornered after the take."""
    actions = ["start 2", "start 8", "taxi 6", "taxi 7", "taxi 16", "taxi 6"]
    state = play(new_game(mini, voluntary_show=voluntary_show), actions)
    if voluntary_show:
        assert legal(state) == ["show"]
        state.apply_str("show")
        assert legal(state) == ["take 1 taxi", "take 1 bus", "take 1 metro"]
        assert not state.is_terminal()
        state.apply_str("take 1 bus")
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]
    assert "cornered at 16" in detective_view(state)["reason"]


def test_show_without_the_variant_is_illegal(mini: str) -> None:
    state = shuttle_game(mini, 4)
    with pytest.raises(IllegalActionError, match="show"):
        state.apply_str("show")


def test_show_then_take_one_ticket_per_piece(mini: str) -> None:
    state = shuttle_game(mini, 4, voluntary_show=True, players=3, pieces=[1, 1])
    factor, pieces = stops_now(state)
    before_factor, before = tickets_of(state)
    state.apply_str("show")
    view = detective_view(state)
    assert view["factor"]["stop"] == factor
    assert view["history"][-1] == [0, f"show {factor}"]
    assert state.current_player() == 0
    assert "detective 1" in state.decision().prompt
    assert legal(state) == ["take 1 taxi", "take 1 bus", "take 1 metro"]
    with pytest.raises(IllegalActionError):
        state.apply_str("take 2 bus")  # piece 1 first
    state.apply_str("take 1 bus")
    assert legal(state) == ["take 2 taxi", "take 2 bus", "take 2 metro"]
    state.apply_str("take 2 metro")
    after_factor, after = tickets_of(state)
    assert after_factor == dict(before_factor, bus=before_factor["bus"] + 1, metro=before_factor["metro"] + 1)
    assert after[1] == dict(before[1], bus=before[1]["bus"] - 1)
    assert after[2] == dict(before[2], metro=before[2]["metro"] - 1)
    assert state.view(2).to_json()["history"][-2:] == [[0, "take 1 bus"], [0, "take 2 metro"]]
    # once a turn, then he moves as usual (a double is still allowed)
    options = legal(state)
    assert "show" not in options and "double" in options
    assert all(t.split()[0] in ("taxi", "bus", "metro", "joker", "double") for t in options)
    factor_step(state)
    assert detective_view(state)["factor"]["stop"] is None  # move 5 is hidden again
    assert detective_view(state)["factor"]["moves"] == 5


def test_show_before_moving_only(mini: str) -> None:
    state = shuttle_game(mini, 4, voluntary_show=True)
    state.apply_str("double")
    assert "show" not in legal(state)
    factor_step(state)
    assert "show" not in legal(state)


def test_show_then_double(mini: str) -> None:
    state = shuttle_game(mini, 4, voluntary_show=True)
    for text in ("show", "take 1 taxi", "double"):
        state.apply_str(text)
    factor_step(state)
    factor_step(state)
    assert state.current_player() == 1
    assert detective_view(state)["factor"]["moves"] == 6


def test_take_skips_pieces_without_tickets_and_kinds_without_tickets(mini: str) -> None:
    """Piece 2 is stranded on taxi-only stops once its taxi tickets are gone and passes from then on;
    piece 1 shuttles and is bled dry by the takes. Dr. Factor shows at every hidden turn but one,
    taking metro first, so the offered takes shrink kind by kind and piece 1 is finally skipped."""
    pairs = {**PAIRS, 2: (2, 6)}
    game = new_game(mini, players=3, pieces=[1, 1], voluntary_show=True)
    state = play(game, ["start 7", "start 11", "start 2"])
    skipped_a_piece = False
    while not state.is_terminal():
        factor_stop, pieces = stops_now(state)
        _, stock = tickets_of(state)
        moves = detective_view(state)["factor"]["moves"]
        if "show" in legal(state) and moves != 14:  # skip one show: piece 1 then runs out by moving
            state.apply_str("show")
            queue = [p for p in (1, 2) if any(stock[p].values())]
            skipped_a_piece |= len(queue) < 2
            for p in queue:
                offered = legal(state)
                assert offered == [f"take {p} {k}" for k in ("taxi", "bus", "metro") if stock[p][k] > 0]
                choice = f"take {p} metro" if f"take {p} metro" in offered else offered[-1]
                if p == 2 and "take 2 bus" in offered:
                    choice = "take 2 bus"  # leave piece 2 its taxi tickets to strand it by moving
                state.apply_str(choice)
        factor_step(state, pairs)
        while not state.is_terminal() and state.current_player() != 0:
            acting = 1 if state.current_player() == 1 else 2
            step_to(state, other(pairs[acting], stops_now(state)[1][acting]))
    assert skipped_a_piece
    view = detective_view(state)
    assert view["winner"] == "factor"
    assert "no detective can move" in view["reason"]
    assert view["pieces"][0]["tickets"] == {"taxi": 0, "bus": 0, "metro": 0}


# --- variant: unlimited tickets ------------------------------------------------------------------
def test_unlimited_tickets(mini: str) -> None:
    state = shuttle_game(mini, 0, unlimited_tickets=True)
    factor, detectives = tickets_of(state)
    assert factor == {"taxi": None, "bus": None, "metro": None, "joker": 2, "double": 2}
    assert detectives[1] == {"taxi": None, "bus": None, "metro": None}
    state = shuttle_game(mini, 24, finish_round=False, unlimited_tickets=True)
    factor, detectives = tickets_of(state)
    assert factor == {"taxi": None, "bus": None, "metro": None, "joker": 2, "double": 2}
    assert detectives[1] == {"taxi": None, "bus": None, "metro": None}
    detectives_round(state)
    assert state.returns() == [1.0, -1.0]


def test_unlimited_tickets_jokers_and_doubles_stay_limited(mini: str) -> None:
    game = new_game(mini, unlimited_tickets=True)
    state = play(game, ["start 1", "start 13"])
    state.apply_str("joker metro 5")
    state.apply_str("taxi 14")
    state.apply_str("double")
    state.apply_str("joker metro 1")
    state.apply_str("taxi 2")
    factor, _ = tickets_of(state)
    assert factor == {"taxi": None, "bus": None, "metro": None, "joker": 0, "double": 1}
    state.apply_str("taxi 13")
    assert legal(state) == ["taxi 1", "taxi 6", "double"]
    state.apply_str("double")
    state.apply_str("taxi 1")
    state.apply_str("metro 5")
    state.apply_str("taxi 14")
    assert legal(state) == ["taxi 4", "taxi 6", "metro 1"]


def test_unlimited_tickets_show_takes_nothing(mini: str) -> None:
    state = shuttle_game(mini, 4, unlimited_tickets=True, voluntary_show=True)
    factor, _ = stops_now(state)
    state.apply_str("show")
    assert detective_view(state)["factor"]["stop"] == factor
    assert legal(state)[:4] == ["taxi 6", "taxi 8", "bus 8", "metro 8"]  # no takes: he moves


# --- variant: free start ---------------------------------------------------------------------------
def test_free_start_placement_order(mini: str) -> None:
    game = new_game(mini, players=3, pieces=[2, 1], free_start=True)
    state = game.new_initial_state()
    seats, placed = [], []
    for stop in (4, 9, 16):
        assert state.current_player() != CHANCE
        seats.append(state.current_player())
        assert legal(state) == [f"place {s}" for s in range(1, 17) if s not in placed]
        with pytest.raises(IllegalActionError):
            state.apply_str(f"start {stop}")
        state.apply_str(f"place {stop}")
        placed.append(stop)
    assert seats == [1, 1, 2]
    assert state.current_player() == 0
    assert state.decision().prompt == "Dr. Factor chooses a start stop"
    assert legal(state) == [f"place {s}" for s in range(1, 17) if s not in placed]
    with pytest.raises(IllegalActionError):
        state.apply_str("place 9")  # no stop is shared
    with pytest.raises(IllegalActionError):
        state.chance_outcomes()
    state.apply_str("place 1")
    # he moves first; detective piece 1 on 4 blocks the bus
    assert legal(state) == ["taxi 2", "taxi 3", "metro 5", "joker taxi 2", "joker taxi 3", "joker metro 5",
                            "double"]
    assert detective_view(state)["factor"]["stop"] == 1
    assert detective_view(state)["history"] == [[1, "place 4"], [2, "place 9"], [3, "place 16"],
                                                [0, "place 1"]]


def test_free_start_any_stop_not_only_start_cards(tmp_path: Path) -> None:
    board = dict(MINI_BOARD, start_stops=[1, 2])
    path = tmp_path / "two-starts.json"
    path.write_text(json.dumps(board))
    game = solver.games.load("police07", players=2, pieces=[3], free_start=True, board=str(path))
    state = play(game, ["place 16", "place 15", "place 14", "place 7"])
    assert stops_now(state) == (7, {1: 16, 2: 15, 3: 14})
    assert state.current_player() == 0


# --- errors ----------------------------------------------------------------------------------------
ERROR_ROWS = [
    ("unknown word", [1], [], "fly 3", InvalidActionError),
    ("empty text", [1], [], "", InvalidActionError),
    ("stop not a number", [1], ["start 9", "start 11"], "taxi ten", InvalidActionError),
    ("stop out of notation range", [1], ["start 9", "start 11"], "taxi 256", InvalidActionError),
    ("stop zero", [1], ["start 9", "start 11"], "bus 0", InvalidActionError),
    ("joker on an unknown line", [1], ["start 9", "start 11"], "joker boat 10", InvalidActionError),
    ("joker without a line", [1], ["start 9", "start 11"], "joker 10", InvalidActionError),
    ("take from piece 0", [1], [], "take 0 bus", InvalidActionError),
    ("take from piece 6", [1], [], "take 6 bus", InvalidActionError),
    ("take a joker", [1], [], "take 1 joker", InvalidActionError),
    ("double with an argument", [1], [], "double 2", InvalidActionError),
    ("start card already dealt", [1], ["start 9"], "start 9", IllegalActionError),
    ("a stop beyond the board", [1], [], "start 17", IllegalActionError),
    ("a stop not one link away", [1], ["start 9", "start 11"], "taxi 12", IllegalActionError),
    ("a line not at the stop", [1], ["start 9", "start 11"], "bus 8", IllegalActionError),
    ("water without a joker", [1], ["start 3", "start 11"], "taxi 15", IllegalActionError),
    ("a joker on the wrong line", [1], ["start 3", "start 11"], "joker taxi 15", IllegalActionError),
    ("Factor onto a detective", [1], ["start 9", "start 10"], "taxi 10", IllegalActionError),
    ("detective onto a detective", [2], ["start 5", "start 11", "start 12", "taxi 4"], "taxi 12",
     IllegalActionError),
    ("detective holds no joker", [2], ["start 5", "start 2", "start 12", "taxi 4"], "joker taxi 1",
     IllegalActionError),
    ("pass while a move exists", [1], ["start 9", "start 11", "taxi 8"], "pass", IllegalActionError),
    ("placing without free start", [1], [], "place 9", IllegalActionError),
    ("show without the variant", [1], ["start 9", "start 11"], "show", IllegalActionError),
    ("take without a show", [1], ["start 9", "start 11"], "take 1 bus", IllegalActionError),
    ("a move during the deal", [1], ["start 9"], "taxi 10", IllegalActionError),
    ("Factor's move on a detective's turn", [1], ["start 9", "start 11", "taxi 8"], "taxi 9",
     IllegalActionError),
    ("double on the second move", [1], ["start 9", "start 11", "double", "taxi 10"], "double",
     IllegalActionError),
]


@pytest.mark.parametrize(("description", "pieces", "actions", "text", "error"), ERROR_ROWS,
                         ids=[r[0] for r in ERROR_ROWS])
def test_bad_actions_raise(mini: str, description: str, pieces: list[int], actions: list[str], text: str,
                           error: type[Exception]) -> None:
    state = play(new_game(mini, pieces=pieces), actions)
    before = state.to_json()
    with pytest.raises(error) as info:
        state.apply_str(text)
    assert isinstance(info.value, ValueError)
    if text:
        assert repr(text) in str(info.value), "the message quotes the input"
    assert state.to_json() == before, "a rejected action changes nothing"


@pytest.mark.parametrize("bad", ["taxi 10", 10.0, True, None, [10]])
def test_apply_needs_an_int(mini: str, bad: Any) -> None:
    state = play(new_game(mini), ["start 9", "start 11"])
    with pytest.raises(InvalidActionError):
        state.apply(bad)


@pytest.mark.parametrize("action", [-1, 0, 256, 9999, "place 10"])
def test_apply_unknown_or_illegal_id(mini: str, action: int | str) -> None:
    state = play(new_game(mini), ["start 9", "start 11"])
    if isinstance(action, str):
        action = state.game.str_to_action(action)
    with pytest.raises(IllegalActionError):
        state.apply(action)


def test_apply_accepts_numpy_ints(mini: str) -> None:
    import numpy as np

    state = play(new_game(mini), ["start 9", "start 11"])
    state.apply(np.int64(state.game.str_to_action("taxi 10")))
    assert stops_now(state)[0] == 10


# --- codec -------------------------------------------------------------------------------------------
CODEC_ROWS = [
    "taxi 1", "taxi 255", "bus 118", "metro 6", "joker taxi 3", "joker bus 4", "joker metro 5",
    "joker water 74", "start 1", "start 255", "place 42", "double", "show", "pass",
    "take 1 taxi", "take 3 bus", "take 5 metro",
]


@pytest.mark.parametrize("text", CODEC_ROWS)
def test_codec_round_trip(text: str) -> None:
    game = solver.games.load("police07")
    action = game.str_to_action(text)
    assert isinstance(action, int)
    assert game.action_to_str(action) == text
    assert game.str_to_action(f"  {text.upper()}  ") == action


def test_codec_every_id() -> None:
    """Every id either renders and parses back to itself or is rejected as InvalidActionError, and
    the valid ids are exactly the documented kinds: 7 move combos, start, place (x 255 stops), double,
    show, pass, and a taxi/bus/metro take from pieces 1..5."""
    game = solver.games.load("police07")
    texts: dict[str, int] = {}
    for action in range(-10, 5000):
        try:
            text = game.action_to_str(action)
        except InvalidActionError:
            continue
        assert game.str_to_action(text) == action
        texts[text] = action
    kinds = {" ".join(text.split()[:2]) if text.startswith("joker") else text.split()[0] for text in texts}
    assert len(texts) == 7 * 255 + 255 + 255 + 3 + 5 * 3
    assert kinds == {"taxi", "bus", "metro", "joker taxi", "joker bus", "joker metro", "joker water",
                     "start", "place", "double", "show", "pass", "take"}


@pytest.mark.parametrize("bad", [True, "taxi 3", 1.0, None])
def test_codec_rejects_non_ints(bad: Any) -> None:
    with pytest.raises(InvalidActionError):
        solver.games.load("police07").action_to_str(bad)


def test_codec_rejects_non_strings() -> None:
    with pytest.raises(InvalidActionError):
        solver.games.load("police07").str_to_action(5)  # type: ignore[arg-type]


# --- a driver sanity check -------------------------------------------------------------------------
def test_shuttle_driver_plays_a_full_game(mini: str) -> None:
    state = shuttle_game(mini, 24, pieces=[2])
    assert state.is_terminal()
    history = detective_view(state)["history"]
    assert len(history) == 3 + 24 * 3
    assert all(not t.startswith("joker") and t != "pass" for _, t in history)

