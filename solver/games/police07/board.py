"""The Police 07 board: stops, typed links, start stops; loaded from a documented JSON file.

File format (``format: "copsolver-police07-board/1"``)::

    {
      "format": "copsolver-police07-board/1",
      "name": "budapest",
      "stops": 196,                       # stops are numbered 1..stops (at most 255)
      "links": {                          # two-way links, one list per line
        "taxi":  [[1, 2], [1, 7], ...],
        "bus":   [...], "metro": [...], "water": [...]
      },
      "start_stops": [13, 26, ...],       # the stops printed on start cards (2..255 of them)
      "coordinates": {"1": [x, y], ...},  # optional drawing positions
      "source": "...", "licence": "...", "notes": ["..."]
    }

Rulebook, "Rules of the Game": every stop is a taxi stop; bus stops are also taxi stops; metro
stations carry taxi and bus too. The loader enforces only what the rules need to be playable: known
stops and lines, no self-links or duplicates, and a connected taxi graph (a taxi ticket can reach
every stop); bus and metro stops that are not also taxi/bus stops are reported by the checks in
``tests/`` as facts about the data, not rejected, because the transcription we ship is unverified.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any, TypeAlias

import networkx as nx

from solver.core import BadStateError
from solver.core.files import read_json, read_shipped
from solver.games.police07.codec import MAX_STOP

Stop: TypeAlias = int

BOARD_FORMAT = "copsolver-police07-board/1"
MAX_STOPS = MAX_STOP  # a stop fits in the low byte of an action (see codec.py)


class Line(IntEnum):
    """A transport line on the board."""

    TAXI = 0
    BUS = 1
    METRO = 2
    WATER = 3


LINE_NAMES: tuple[str, ...] = ("taxi", "bus", "metro", "water")


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable board. ``neighbours[line][stop]`` is the sorted tuple of stops one link away."""

    name: str
    num_stops: int
    links: tuple[tuple[tuple[Stop, Stop], ...], ...]  # per line, sorted (a, b) with a < b
    start_stops: tuple[Stop, ...]
    coordinates: dict[Stop, tuple[float, float]] | None = None
    source: str = ""
    neighbours: tuple[tuple[tuple[Stop, ...], ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        table: list[list[list[Stop]]] = [[[] for _ in range(self.num_stops + 1)] for _ in Line]
        for line in Line:
            for a, b in self.links[line]:
                table[line][a].append(b)
                table[line][b].append(a)
        frozen = tuple(tuple(tuple(sorted(ns)) for ns in per_line) for per_line in table)
        object.__setattr__(self, "neighbours", frozen)

    @property
    def stops(self) -> range:
        """Every stop number, 1..num_stops."""
        return range(1, self.num_stops + 1)

    def graph(self, lines: tuple[Line, ...] = (Line.TAXI, Line.BUS, Line.METRO)) -> nx.Graph:
        """The undirected graph of ``lines`` (default: what detectives can ride) over every stop."""
        g = nx.Graph()
        g.add_nodes_from(self.stops)
        for line in lines:
            g.add_edges_from(self.links[line])
        return g

    def lines_at(self, stop: Stop) -> tuple[Line, ...]:
        """The lines that have a link at ``stop``."""
        return tuple(line for line in Line if self.neighbours[line][stop])

    def to_json(self) -> dict[str, Any]:
        """The board in the documented file format."""
        data: dict[str, Any] = {
            "format": BOARD_FORMAT,
            "name": self.name,
            "stops": self.num_stops,
            "links": {LINE_NAMES[line]: [list(p) for p in self.links[line]] for line in Line},
            "start_stops": list(self.start_stops),
            "source": self.source,
        }
        if self.coordinates is not None:
            data["coordinates"] = {str(s): list(xy) for s, xy in sorted(self.coordinates.items())}
        return data


def _fail(where: str, message: str) -> BadStateError:
    return BadStateError(f"board {where}: {message}")


def _stop(value: Any, num_stops: int, where: str, what: str) -> Stop:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"{what} {value!r} is not a stop number")
    if not 1 <= value <= num_stops:
        raise _fail(where, f"{what} {value} is an unknown stop (stops are 1..{num_stops})")
    return value


def board_from_json(data: Any, where: str = "<data>") -> Board:
    """Validate ``data`` (a parsed board file) and build a :class:`Board`; faults name the item."""
    if not isinstance(data, dict):
        raise _fail(where, "the file must hold a JSON object")
    if data.get("format", BOARD_FORMAT) != BOARD_FORMAT:
        raise _fail(where, f"format {data.get('format')!r} is not {BOARD_FORMAT!r}")
    num = data.get("stops")
    if isinstance(num, bool) or not isinstance(num, int) or not 2 <= num <= MAX_STOPS:
        raise _fail(where, f"'stops' must be a whole number from 2 to {MAX_STOPS}, not {num!r}")
    raw_links = data.get("links")
    if not isinstance(raw_links, dict):
        raise _fail(where, "'links' must be an object of line name -> list of [a, b] pairs")
    for name in raw_links:
        if name not in LINE_NAMES:
            raise _fail(where, f"unknown transport {name!r} (known: {', '.join(LINE_NAMES)})")
    links: list[tuple[tuple[Stop, Stop], ...]] = []
    for line in Line:
        seen: set[tuple[Stop, Stop]] = set()
        pairs = raw_links.get(LINE_NAMES[line], [])
        if not isinstance(pairs, list):
            raise _fail(where, f"links.{LINE_NAMES[line]} must be a list")
        for i, pair in enumerate(pairs):
            label = f"links.{LINE_NAMES[line]}[{i}]"
            if not isinstance(pair, list) or len(pair) != 2:
                raise _fail(where, f"{label} must be a pair [a, b], not {pair!r}")
            a = _stop(pair[0], num, where, label)
            b = _stop(pair[1], num, where, label)
            if a == b:
                raise _fail(where, f"{label} links stop {a} to itself")
            key = (min(a, b), max(a, b))
            if key in seen:
                raise _fail(where, f"{label} duplicates the {LINE_NAMES[line]} link {key[0]}-{key[1]}")
            seen.add(key)
        links.append(tuple(sorted(seen)))
    starts_raw = data.get("start_stops")
    if not isinstance(starts_raw, list) or not 2 <= len(starts_raw) <= MAX_STOPS:
        raise _fail(where, "'start_stops' must be a list of at least 2 stops")
    starts = tuple(_stop(s, num, where, f"start_stops[{i}]") for i, s in enumerate(starts_raw))
    if len(set(starts)) != len(starts):
        raise _fail(where, "'start_stops' lists a stop twice")
    coords: dict[Stop, tuple[float, float]] | None = None
    if "coordinates" in data:
        raw = data["coordinates"]
        if not isinstance(raw, dict):
            raise _fail(where, "'coordinates' must be an object of stop -> [x, y]")
        coords = {}
        for key, xy in raw.items():
            # isascii: str.isdigit() also holds for digits such as '²' that int() cannot read
            stop = _stop(int(key) if key.isascii() and key.isdigit() else key, num, where, "coordinates key")
            if (
                not isinstance(xy, list)
                or len(xy) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xy)
            ):
                raise _fail(where, f"coordinates of stop {stop} must be [x, y] numbers")
            coords[stop] = (float(xy[0]), float(xy[1]))
    board = Board(
        name=str(data.get("name", "custom")),
        num_stops=num,
        links=tuple(links),
        start_stops=starts,
        coordinates=coords,
        source=str(data.get("source", "")),
    )
    taxi = board.graph((Line.TAXI,))
    if not nx.is_connected(taxi):
        parts = sorted(nx.connected_components(taxi), key=len)
        raise _fail(
            where,
            f"the taxi graph is disconnected ({len(parts)} parts; stops {sorted(parts[0])[:10]} "
            "cannot be reached by taxi from the rest)",
        )
    return board


def load_board(source: str | Path = "budapest") -> Board:
    """Load the shipped board by name (``"budapest"``) or a board file by path."""
    if isinstance(source, str) and source == "budapest":
        data = read_shipped("solver.games.police07", "data/budapest.json")
        return board_from_json(data, "budapest (shipped)")
    return board_from_json(read_json(source, "board"), os.fspath(source))
