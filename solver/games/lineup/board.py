"""The LineUp board: the police station, crime scenes, Lucky Break and street spaces, as a graph.

The published track is not known (``shared/research/components.md``: NOT FOUND), so the shipped
``data/board.json`` is a stand-in, marked ``"stand_in": true`` with a note; a user file of the same
format replaces it (``LineUpGame(board=path)``). File format (``copsolver-lineup-board/1``)::

    {
      "format": "copsolver-lineup-board/1",
      "name": "stand-in town", "stand_in": true, "note": "...",
      "spaces": [{"id": 0, "kind": "station", "name": "station"},
                 {"id": 1, "kind": "street"}, {"id": 5, "kind": "lucky"},
                 {"id": 42, "kind": "scene", "name": "wharf"}, ...],     # ids 0..n-1, n <= 250
      "edges": [[0, 25], [25, 26], ...]                                   # two-way links
    }

[Setup], [Game Play]: exactly one police station; crime scenes named (each name once); the graph is
connected. Movement [Game Play]: "move your pawn up to that number of spaces on the board in any
direction"; "you do not need to land by exact count to enter a crime scene or the police station";
they are single spaces. Entering a scene or the station ends the move (docs/lineup-rules.md).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Final, TypeAlias

from solver.games.lineup.files import Fail, checked, read_json

Space: TypeAlias = int

BOARD_FORMAT: Final = "copsolver-lineup-board/1"
MAX_SPACES: Final = 250  # a space fits in the move block of the action ids (see codec.py)


class Kind(IntEnum):
    """What a board space is."""

    STREET = 0
    LUCKY = 1
    SCENE = 2
    STATION = 3


KIND_NAMES: Final[tuple[str, ...]] = ("street", "lucky", "scene", "station")


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable board; ``neighbours[space]`` is the sorted tuple of spaces one step away."""

    name: str
    kinds: tuple[Kind, ...]
    names: tuple[str, ...]  # "station", the scene's name, or "" for streets and Lucky Break spaces
    neighbours: tuple[tuple[Space, ...], ...]
    station: Space
    scenes: tuple[Space, ...]  # scene spaces in file order; scene number i is scenes[i]
    stand_in: bool
    #: ``reach[space][steps - 1]``: :meth:`reachable` for rolls 1..6, computed once
    reach: tuple[tuple[tuple[Space, ...], ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        table = tuple(tuple(tuple(self._walk(s, d)) for d in range(1, 7)) for s in range(len(self.kinds)))
        object.__setattr__(self, "reach", table)

    @property
    def scene_names(self) -> tuple[str, ...]:
        """The scene names, by scene number."""
        return tuple(self.names[s] for s in self.scenes)

    def label(self, space: Space) -> str:
        """The space's notation: its name for the station and scenes, else its number."""
        return self.names[space] or str(space)

    def stops_move(self, space: Space) -> bool:
        """True for the station and the scenes: entering them ends a move."""
        return self.kinds[space] in (Kind.SCENE, Kind.STATION)

    def reachable(self, start: Space, steps: int) -> tuple[Space, ...]:
        """Sorted spaces a pawn on ``start`` may end on with a roll of ``steps`` (1..6) [Game Play].

        Any space at most ``steps`` away, in any direction, but never through the station or a scene
        (entering one ends the move); the start itself is not a move.
        """
        return self.reach[start][steps - 1]

    def _walk(self, start: Space, steps: int) -> list[Space]:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if dist[here] == steps or (here != start and self.stops_move(here)):
                continue
            for nxt in self.neighbours[here]:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return sorted(s for s in dist if s != start)


def load_board(path: str | None = None) -> Board:
    """Load the shipped stand-in board (``path`` None) or a user file; :class:`BadStateError` on a fault."""
    data, where = read_json(path, "board.json", "board")
    return parse_board(data, where)


def parse_board(data: Any, where: str = "board") -> Board:
    """Check a board document and build the :class:`Board`."""
    fail = checked(data, BOARD_FORMAT, "board", where)
    raw = data.get("spaces")
    if not isinstance(raw, list) or not 2 <= len(raw) <= MAX_SPACES:
        raise fail(f"'spaces' must list 2..{MAX_SPACES} spaces")
    n = len(raw)
    kinds: list[Kind | None] = [None] * n
    names = [""] * n
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise fail(f"space entry {i} is not an object")
        sid, kind = entry.get("id"), entry.get("kind")
        if isinstance(sid, bool) or not isinstance(sid, int) or not 0 <= sid < n:
            raise fail(f"space entry {i}: id {sid!r} must be an int 0..{n - 1} (ids number the spaces)")
        if kinds[sid] is not None:
            raise fail(f"space {sid} is listed twice")
        if kind not in KIND_NAMES:
            raise fail(f"space {sid}: kind {kind!r} is not one of {', '.join(KIND_NAMES)}")
        kinds[sid] = Kind(KIND_NAMES.index(kind))
        if kind in ("scene", "station"):
            name = entry.get("name", "station" if kind == "station" else None)
            if not isinstance(name, str) or not name.replace("-", "").isalpha() or name != name.lower():
                raise fail(f"space {sid}: a {kind} needs a lowercase 'name' of letters and '-', not {name!r}")
            names[sid] = name
    stations = [s for s in range(n) if kinds[s] == Kind.STATION]
    if len(stations) != 1:
        raise fail(f"there must be exactly one police station, not {len(stations)}")
    if names[stations[0]] != "station":
        raise fail(f"the police station must be named 'station', not {names[stations[0]]!r}")
    scenes = [s for s in range(n) if kinds[s] == Kind.SCENE]
    seen: set[str] = set()
    for s in scenes:
        if names[s] in seen or names[s] == "station":
            raise fail(f"scene name {names[s]!r} is used twice")
        seen.add(names[s])
    neighbours = _edges(data.get("edges"), n, fail)
    reach = {stations[0]}
    queue = deque(reach)
    while queue:
        for nxt in neighbours[queue.popleft()]:
            if nxt not in reach:
                reach.add(nxt)
                queue.append(nxt)
    if len(reach) != n:
        raise fail(f"spaces {sorted(set(range(n)) - reach)[:10]} cannot be reached from the station")
    return Board(
        name=str(data.get("name", "")),
        kinds=tuple(k for k in kinds if k is not None),
        names=tuple(names),
        neighbours=tuple(tuple(sorted(ns)) for ns in neighbours),
        station=stations[0],
        scenes=tuple(scenes),
        stand_in=bool(data.get("stand_in", False)),
    )


def _edges(raw: Any, n: int, fail: Fail) -> list[set[Space]]:
    if not isinstance(raw, list) or not raw:
        raise fail("'edges' must list [a, b] pairs of space ids")
    neighbours: list[set[Space]] = [set() for _ in range(n)]
    for edge in raw:
        if (not isinstance(edge, list) or len(edge) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < n for x in edge)):
            raise fail(f"edge {edge!r} must be a pair of space ids 0..{n - 1}")
        a, b = edge
        if a == b:
            raise fail(f"edge {edge!r} joins a space to itself")
        if b in neighbours[a]:
            raise fail(f"edge {edge!r} is listed twice")
        neighbours[a].add(b)
        neighbours[b].add(a)
    return neighbours
