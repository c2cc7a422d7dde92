"""The shipped Budapest board and the board-file loader.

Counts are computed here from the shipped data file itself (read through the installed package, so
the test runs the same on a user install as in a checkout); the structural facts are the ones the
rulebook and the file's notes state. Loader rejections are a table of broken files, each raising
``BadStateError`` with a message that names the file and the fault.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import solver.games
from solver.core import BadStateError
from solver.games.police07.board import BOARD_FORMAT, Board, Line, board_from_json, load_board

LINES = ("taxi", "bus", "metro", "water")


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    text = resources.files("solver.games.police07").joinpath("data/budapest.json").read_text()
    raw: dict[str, Any] = json.loads(text)
    return raw


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("budapest")


def stops_on(board: Board, line: Line) -> set[int]:
    return {s for s in board.stops if board.neighbours[line][s]}


# --- the shipped board -----------------------------------------------------------------------------
def test_stop_count(board: Board, data: dict[str, Any]) -> None:
    assert board.num_stops == data["stops"] == 196  # [Rules]: "there are 196 stops"
    assert list(board.stops) == list(range(1, 197))
    assert board.name == data["name"]
    assert data["format"] == BOARD_FORMAT


@pytest.mark.parametrize("line", list(Line), ids=LINES)
def test_link_counts_match_the_data_file(board: Board, data: dict[str, Any], line: Line) -> None:
    listed = data["links"][LINES[line]]
    pairs = {tuple(sorted(p)) for p in listed}
    assert len(pairs) == len(listed), "the shipped file lists no link twice"
    assert len(board.links[line]) == len(listed)
    assert set(board.links[line]) == pairs
    # links are two-way: each shows up in both stops' neighbour lists
    degree = sum(len(board.neighbours[line][s]) for s in board.stops)
    assert degree == 2 * len(listed)
    for a, b in pairs:
        assert b in board.neighbours[line][a] and a in board.neighbours[line][b]


def test_neighbour_lists_sorted(board: Board) -> None:
    for line in Line:
        for s in board.stops:
            ns = board.neighbours[line][s]
            assert list(ns) == sorted(set(ns))
            assert s not in ns


def test_water_piers(board: Board) -> None:
    """Four water-bus piers, as the file's notes and the shared map state: 49, 74, 100, 193."""
    assert stops_on(board, Line.WATER) == {49, 74, 100, 193}
    assert nx.is_connected(board.graph((Line.WATER,)).subgraph(stops_on(board, Line.WATER)))


def test_start_stops(board: Board, data: dict[str, Any]) -> None:
    starts = board.start_stops
    assert list(starts) == data["start_stops"]
    assert len(starts) == 18  # [Components]: 18 start cards
    assert len(set(starts)) == 18
    assert all(s in board.stops for s in starts)
    # the stand-in rule of the notes: no metro station and no pier is a start stop
    assert not set(starts) & stops_on(board, Line.METRO)
    assert not set(starts) & stops_on(board, Line.WATER)


def test_taxi_graph_connected(board: Board) -> None:
    taxi = board.graph((Line.TAXI,))
    assert taxi.number_of_nodes() == 196
    assert nx.is_connected(taxi)
    assert stops_on(board, Line.TAXI) == set(board.stops)  # every stop is a taxi stop [Rules]


def test_station_kinds_nest(board: Board) -> None:
    """[Rules]: a bus stop is also a taxi stop; a metro station also serves bus and taxi. The loader
    does not enforce this (the transcription is unverified); these are facts about the shipped data."""
    taxi, bus, metro = (stops_on(board, line) for line in (Line.TAXI, Line.BUS, Line.METRO))
    assert metro <= bus <= taxi
    assert len(metro) >= 2 and len(bus) > len(metro)


def test_board_json_round_trip(board: Board) -> None:
    again = board_from_json(json.loads(json.dumps(board.to_json())))
    assert again.to_json() == board.to_json()
    assert again.neighbours == board.neighbours


def test_detective_graph_has_no_water(board: Board) -> None:
    graph = board.graph()
    for a, b in board.links[Line.WATER]:
        linked_otherwise = any((a, b) in board.links[line] for line in (Line.TAXI, Line.BUS, Line.METRO))
        assert graph.has_edge(a, b) == linked_otherwise


# --- the rules see the board as the file says --------------------------------------------------------
def _expected_factor_moves(board: Board, stop: int, blocked: set[int]) -> list[str]:
    moves = [f"{LINES[line]} {n}" for line in (Line.TAXI, Line.BUS, Line.METRO)
             for n in board.neighbours[line][stop] if n not in blocked]
    moves += [f"joker {LINES[line]} {n}" for line in Line
              for n in board.neighbours[line][stop] if n not in blocked]
    return moves + ["double"]


def test_moves_at_every_stop(board: Board) -> None:
    """Place a detective next to Dr. Factor's stop (free start) and read both pieces' legal moves at
    every stop of the board: they are exactly the stop's links, water by joker for him only."""
    game = solver.games.load("police07", players=2, pieces=[1], free_start=True)
    for stop in board.stops:
        near = min((n for line in Line for n in board.neighbours[line][stop]), default=None)
        assert near is not None, f"stop {stop} has no link"
        state = game.new_initial_state()
        state.apply_str(f"place {near}")
        state.apply_str(f"place {stop}")
        got = [game.action_to_str(a) for a in state.legal_actions()]
        assert got == _expected_factor_moves(board, stop, {near}), stop
        state.apply(state.legal_actions()[0])
        detective = [game.action_to_str(a) for a in state.legal_actions()]
        expected = [f"{LINES[line]} {n}" for line in (Line.TAXI, Line.BUS, Line.METRO)
                    for n in board.neighbours[line][near]]
        assert detective == expected, near


# --- loader rejections -------------------------------------------------------------------------------
GOOD: dict[str, Any] = {
    "format": BOARD_FORMAT,
    "name": "tiny",
    "stops": 5,
    "links": {"taxi": [[1, 2], [2, 3], [3, 4], [4, 5]], "bus": [[1, 3]], "metro": [[1, 5]],
              "water": [[2, 4]]},
    "start_stops": [1, 3, 5],
}


def _with(path: str, value: Any) -> dict[str, Any]:
    """GOOD with the item at dotted ``path`` replaced (``...`` deletes it)."""
    out = copy.deepcopy(GOOD)
    keys = path.split(".")
    target = out
    for key in keys[:-1]:
        target = target[key]
    if value is ...:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return out


REJECTIONS: list[tuple[str, Any, str]] = [
    ("unknown stop", _with("links.taxi", [[1, 2], [2, 3], [3, 4], [4, 5], [5, 6]]),
     r"links\.taxi\[4\] 6 is an unknown stop"),
    ("stop 0", _with("links.bus", [[0, 3]]), r"links\.bus\[0\] 0 is an unknown stop"),
    ("negative stop", _with("links.metro", [[1, -5]]), r"links\.metro\[0\] -5 is an unknown stop"),
    ("stop not a number", _with("links.taxi", [[1, 2], [2, 3], [3, 4], [4, "5"]]),
     r"links\.taxi\[3\] '5' is not a stop number"),
    ("link to itself", _with("links.metro", [[1, 5], [3, 3]]), r"links\.metro\[1\] links stop 3 to itself"),
    ("duplicate link", _with("links.bus", [[1, 3], [3, 1]]), r"links\.bus\[1\] duplicates the bus link 1-3"),
    ("link not a pair", _with("links.water", [[2, 4, 5]]), r"links\.water\[0\] must be a pair"),
    ("line not a list", _with("links.bus", {"1": 3}), r"links\.bus must be a list"),
    ("unknown transport", _with("links.ferry", [[1, 2]]), r"unknown transport 'ferry'"),
    ("links missing", _with("links", ...), r"'links' must be an object"),
    ("disconnected taxi graph", _with("links.taxi", [[1, 2], [2, 3], [3, 4]]),
     r"taxi graph is disconnected \(2 parts; stops \[5\]"),
    ("bad format string", _with("format", "copsolver-police07-board/2"),
     r"format 'copsolver-police07-board/2' is not"),
    ("stops not a number", _with("stops", "5"), r"'stops' must be a whole number"),
    ("too many stops", _with("stops", 256), r"'stops' must be a whole number from 2 to 255, not 256"),
    ("one stop", _with("stops", 1), r"'stops' must be a whole number"),
    ("start stops duplicate", _with("start_stops", [1, 3, 1]), r"'start_stops' lists a stop twice"),
    ("start stop unknown", _with("start_stops", [1, 3, 9]), r"start_stops\[2\] 9 is an unknown stop"),
    ("one start stop", _with("start_stops", [1]), r"'start_stops' must be a list of at least 2"),
    ("start stops missing", _with("start_stops", ...), r"'start_stops' must be a list"),
    ("coordinates not pairs", _with("coordinates", {"1": [0.0]}), r"coordinates of stop 1 must be \[x, y\]"),
    ("coordinates of an unknown stop", _with("coordinates", {"7": [0.0, 1.0]}),
     r"coordinates key 7 is an unknown stop"),
    ("not an object", [GOOD], r"must hold a JSON object"),
    ("a coordinates key int() cannot read", _with("coordinates", {"\u00b2": [0.0, 1.0]}),
     r"coordinates key '\u00b2' is not a stop number"),
]


@pytest.mark.parametrize(("description", "content", "message"), REJECTIONS, ids=[r[0] for r in REJECTIONS])
def test_loader_rejects(tmp_path: Path, description: str, content: Any, message: str) -> None:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(content))
    with pytest.raises(BadStateError, match=message) as info:
        load_board(path)
    assert str(path) in str(info.value), "the message names the file"
    assert isinstance(info.value, ValueError)
    with pytest.raises(BadStateError, match=message):
        solver.games.load("police07", players=2, pieces=[1], board=str(path))


def test_loader_rejects_non_json(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_text('{"format": "copsolver-police07-board/1", "stops": 5,')
    with pytest.raises(BadStateError, match=r"not valid JSON") as info:
        load_board(str(path))
    assert str(path) in str(info.value)


def test_loader_rejects_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "no-such-board.json"
    with pytest.raises(BadStateError, match=r"no-such-board\.json: cannot read"):
        load_board(str(path))
    with pytest.raises(BadStateError, match="cannot read"):
        solver.games.load("police07", board=str(path))


def test_loader_rejects_a_directory(tmp_path: Path) -> None:
    with pytest.raises(BadStateError, match="cannot read"):
        load_board(str(tmp_path))


@pytest.mark.parametrize(
    ("content", "fault"),
    [
        (b"[" * 100_000, "not valid JSON: nested too deeply"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a UTF-8 text file (byte 0)"),
        (b" " * (8 << 20), "file is over 4194304 bytes"),
    ],
    ids=["nested", "binary", "huge"],
)
def test_loader_rejects_files_that_are_not_json_text(tmp_path: Path, content: bytes, fault: str) -> None:
    path = tmp_path / "board.json"
    path.write_bytes(content)
    for load in (load_board, lambda p: solver.games.load("police07", board=str(p))):
        with pytest.raises(BadStateError) as info:
            load(path)
        assert str(info.value) == f"board {path}: cannot read it: {fault}"


def test_good_tiny_board_loads(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(dict(GOOD, coordinates={"1": [0, 0], "5": [1.5, 2]})))
    board = load_board(path)
    assert board.num_stops == 5
    assert board.neighbours[Line.WATER][2] == (4,)
    assert board.lines_at(1) == (Line.TAXI, Line.BUS, Line.METRO)
    assert board.coordinates == {1: (0.0, 0.0), 5: (1.5, 2.0)}
    # "format" may be left out; it defaults to the current one
    path.write_text(json.dumps(_with("format", ...)))
    assert load_board(path).num_stops == 5
