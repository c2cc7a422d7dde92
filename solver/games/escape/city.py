"""The Escape Plan city: City tiles, the hex grid, placement legality and the Travel step's movement.

Contract: ``docs/escape-rules.md``, section "The city"; the stand-in tiles: ``docs/escape-city.md``.
Rulebook sections: "City Setup" (two starting tiles with the same orientation; the Gang HQ and the
Hospital), "3. City" (placement), "Land Types", "Step 1: Travel", "Transportation" (Subway,
Heliport), "Step 2: Avoid" (tiles left), "Helipads", "Moving Police Officers" (never on the Hospital
tile), the Sewer, Jet Ski and Chopper contact cards and the Helicopter fixer.

What each published City tile holds is NOT FOUND publicly (``shared/research/components.md``), so the
shipped ``data/city.json`` is a **stand-in** of our design (``"stand_in": true``); a user's file of the
same format replaces it (:func:`load_city`). Format ``copsolver-escape-city/1``::

    {"format": "copsolver-escape-city/1", "stand_in": true, "note": "...",
     "tiles": [                                                     # exactly 14
       {"name": "Hospital Quarter", "stack": "start",               # "start" (2 tiles) or "A".."D" (3 each)
        "helipad": false,
        "edges": [0, 1, 1, 0, 2, 2],                                # zone of edge d: E NE NW W SW SE
        "zones": [{"type": "commercial", "ferry": false}, ...],     # 1..6; every zone owns an edge
        "locations": [{"kind": "hospital", "label": "", "zones": [0, 1], "touches": []}, ...]}, ...]}

Every key is required and no other key is allowed. A location's ``zones`` are the zones of its tile it
is adjacent to (at least one), its ``touches`` the other Locations of its tile it touches (listed on
both). Locations get global ids in file order across tiles. The counts the rules depend on are
checked for every file, the shipped one and a user's alike: 2 starting tiles (one with the Hospital,
the other with a Gang HQ, "City Setup" 7 and 16) and 3 tiles in each lettered stack; 6 business and
3 safe house spaces (the 6 Business and 3 Safe House tiles fill them); 4 gangs (8 gang members, 2 a
gang); the stores labelled A..D and the exits 1..3 (on three different lettered tiles: patrol cards
and Sandra's cards name them) once each; one clinic, one church, one hospital; at most one heliport,
on a helipad tile. Subways, helipads and water are free.

Decisions where the rulebook is silent (docs/escape-city.md lists them too):

* A ferry-less body of water is no node at all: it cannot be walked, flown to or left by the sewer
  (a flight or a sewer landing there would strand the traveller, who may never end on Land).
* Locations of different tiles never touch; only a tile's own ``touches`` join Locations.
* The Subway's +1 MP counts for the whole turn: a route that jumps at least once may spend
  ``mp + 1`` in all, before or after the jump. Starting on a subway and jumping (0 MP) is a legal
  Travel of its own ("If you begin your turn on a Subway ... you may use its ability").
* The Sewer's diagram is not public. Stand-in: from a zone, to any walkable zone of a placed tile at
  hex distance exactly 2, skipping the tiles between; it costs 1 MP when the two zones' Land types
  differ, else 0 (the card: "If you leave the sewer in a different land type ... one MP is used").
* The Heliport (and its tile) counts as a Helipad; helipad flights (Helicopter fixer, Chopper, a
  gang member) start from any zone or Location of a helipad tile, cost 1 MP each and reach any node
  of a placed tile 1 or 2 away; the Heliport's own flight needs no resource but starts only on the
  Heliport Location.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Final, TypeAlias

from solver.core import files
from solver.core.errors import BadStateError

Cell: TypeAlias = tuple[int, int]
#: A placed tile: its tile id and its rotation 0..5.
Placement: TypeAlias = tuple[int, int]
Placed: TypeAlias = Mapping[Cell, Placement]

FORMAT: Final = "copsolver-escape-city/1"
TILES: Final = 14
START: Final = "start"
STACKS: Final[tuple[str, ...]] = ("A", "B", "C", "D")
PER_STACK: Final = 3
#: Bounds a file may not pass, checked before anything walks it (a hostile file).
MAX_ZONES: Final = 6
MAX_LOCATIONS_PER_TILE: Final = 6
MAX_NAME: Final = 60
MAX_NOTE: Final = 2000
#: Most movement points :func:`reachable` is asked for (3 + 6 gas cans, with room to spare).
MAX_MP: Final = 12
#: Most helipad flights or sewer rides one Travel may be given.
MAX_EXTRA: Final = 4
#: Reachable sets a :class:`Layout` remembers before it forgets them all.
MEMO_SIZE: Final = 4096

#: The six directions d = 0..5: E, NE, NW, W, SW, SE (axial ``(q, r)``).
DIRECTIONS: Final[tuple[Cell, ...]] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
#: Where the two starting tiles go, and their shared rotation (City Setup 2: arrows up or down).
START_CELLS: Final[tuple[Cell, Cell]] = ((0, 0), (1, 0))
START_ROTATIONS: Final[tuple[int, int]] = (0, 3)


class LandType(IntEnum):
    """The four Land types ("Land Types")."""

    INDUSTRIAL = 0
    COMMERCIAL = 1
    RESIDENTIAL = 2
    WATER = 3


BUSINESS: Final = "business"
SAFE_HOUSE: Final = "safe_house"
GANG: Final = "gang"
STORE: Final = "store"
CLINIC: Final = "clinic"
CHURCH: Final = "church"
HOSPITAL: Final = "hospital"
EXIT: Final = "exit"
SUBWAY: Final = "subway"
HELIPORT: Final = "heliport"
KINDS: Final[tuple[str, ...]] = (BUSINESS, SAFE_HOUSE, GANG, STORE, CLINIC, CHURCH, HOSPITAL, EXIT,
                                 SUBWAY, HELIPORT)
#: The labels a kind's spaces carry, each once (kinds not listed carry "").
LABELS: Final[Mapping[str, tuple[str, ...]]] = {STORE: ("A", "B", "C", "D"), EXIT: ("1", "2", "3")}
#: Exactly how many spaces of each kind a city has (kinds not listed: any number, heliport 0..1).
COUNTS: Final[Mapping[str, int]] = {BUSINESS: 6, SAFE_HOUSE: 3, GANG: 4, STORE: 4, CLINIC: 1, CHURCH: 1,
                                    HOSPITAL: 1, EXIT: 3}

_TOP_KEYS: Final = frozenset({"format", "stand_in", "note", "tiles"})
_TILE_KEYS: Final = frozenset({"name", "stack", "edges", "zones", "locations", "helipad"})
_ZONE_KEYS: Final = frozenset({"type", "ferry"})
_LOCATION_KEYS: Final = frozenset({"kind", "label", "zones", "touches"})
_TYPE_NAMES: Final[Mapping[str, LandType]] = {t.name.lower(): t for t in LandType}

Fail = Callable[[str], BadStateError]


# ---------------------------------------------------------------------------------------------- grid

def neighbors(cell: Cell) -> tuple[Cell, ...]:
    """The six cells around ``cell``, in direction order 0..5."""
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: Cell, b: Cell) -> int:
    """Hex distance between two axial cells: the tile distance of "Heliport" and the Sewer."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate_edges(edges: tuple[int, ...], rotation: int) -> tuple[int, ...]:
    """``edges`` (one entry per direction) of a tile turned by ``rotation``: edge d holds the unrotated
    edge ``(d - rotation) % 6``."""
    return tuple(edges[(d - rotation) % 6] for d in range(6))


# ---------------------------------------------------------------------------------------------- tiles

@dataclass(frozen=True)
class Zone:
    """A Land zone of a tile: its type, whether it shows a Ferry, and the (unrotated) edges it owns."""

    type: LandType
    ferry: bool
    edges: tuple[int, ...]


@dataclass(frozen=True)
class Location:
    """A Location space: global ``id`` (file order), its ``tile``, kind and label, the zones of its tile
    it is adjacent to, and the global ids of the Locations it touches (same tile only)."""

    id: int
    tile: int
    kind: str
    label: str
    zones: tuple[int, ...]
    touches: tuple[int, ...]


@dataclass(frozen=True)
class Tile:
    """A City tile: ``edges[d]`` is the zone of unrotated edge d; ``locations`` are global ids."""

    id: int
    name: str
    stack: str
    edges: tuple[int, ...]
    zones: tuple[Zone, ...]
    locations: tuple[int, ...]
    helipad: bool

    def edge_type(self, direction: int, rotation: int) -> LandType:
        """The Land type this tile shows in grid direction ``direction`` when turned by ``rotation``."""
        return self.zones[self.edges[(direction - rotation) % 6]].type

    def zone_pairs(self) -> tuple[tuple[int, int], ...]:
        """The adjacent zone pairs ``(a, b)``, a < b: zones holding cyclically consecutive edges."""
        pairs = {tuple(sorted((self.edges[d], self.edges[(d + 1) % 6]))) for d in range(6)}
        return tuple(sorted((a, b) for a, b in pairs if a != b))


@dataclass(frozen=True)
class City:
    """The 14 City tiles and their Locations (ids index :attr:`tiles` and :attr:`locations`)."""

    tiles: tuple[Tile, ...]
    locations: tuple[Location, ...]
    stand_in: bool
    note: str

    start_tiles: tuple[int, ...] = field(init=False, repr=False, compare=False)
    stacks: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "start_tiles", tuple(t.id for t in self.tiles if t.stack == START))
        object.__setattr__(self, "stacks",
                           {s: tuple(t.id for t in self.tiles if t.stack == s) for s in STACKS})

    def __hash__(self) -> int:
        return hash((self.tiles, self.locations))

    def of_kind(self, kind: str) -> tuple[int, ...]:
        """The ids of the Locations of ``kind``, in id order."""
        return tuple(loc.id for loc in self.locations if loc.kind == kind)

    def labelled(self, kind: str, label: str) -> int:
        """The id of the Location of ``kind`` labelled ``label`` (store "A".."D", exit "1".."3")."""
        for loc in self.locations:
            if loc.kind == kind and loc.label == label:
                return loc.id
        raise BadStateError(f"escape city: no {kind} labelled {label!r}")

    @property
    def hospital(self) -> int:
        """The Hospital Location: every pawn starts there (Player Setup A)."""
        return self.of_kind(HOSPITAL)[0]

    @property
    def hospital_tile(self) -> int:
        """The tile with the Hospital: no Police Officer may ever stand on it ("Moving Police Officers")."""
        return self.locations[self.hospital].tile

    @property
    def gang_start_tile(self) -> int:
        """The starting tile without the Hospital: 2 officers (City Setup 7) and the Gang HQ (16)."""
        return next(t for t in self.start_tiles if t != self.hospital_tile)


# -------------------------------------------------------------------------------------------- loading

def load_city(path: str | None = None) -> City:
    """The shipped stand-in city (``path`` None, built once) or a user's city file.

    Every fault is a one-line :class:`BadStateError` ``escape city <path>: <fault>``.
    """
    if path is None:
        return _shipped()
    return city_from_json(files.read_json(path, "escape city"), str(path))


@functools.lru_cache(maxsize=1)
def _shipped() -> City:
    return city_from_json(files.read_shipped("solver.games.escape", "data/city.json"),
                          "(shipped data/city.json)")


def city_from_json(data: Any, where: str) -> City:
    """Check a parsed city document (``where`` names it in errors) and build the :class:`City`."""
    def fail(message: str) -> BadStateError:
        return BadStateError(f"escape city {where}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f'expected a JSON object with "format": "{FORMAT}"')
    _keys(data, _TOP_KEYS, "the document", fail)
    if not isinstance(data["stand_in"], bool):
        raise fail(f"'stand_in' must be true or false, not {_show(data['stand_in'])}")
    note = data["note"]
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise fail(f"'note' must be a string of at most {MAX_NOTE} characters")
    raw_tiles = data["tiles"]
    if not isinstance(raw_tiles, list) or len(raw_tiles) != TILES:
        got = f"{len(raw_tiles)} items" if isinstance(raw_tiles, list) else type(raw_tiles).__name__
        raise fail(f"'tiles' must be a list of {TILES} tiles, not {got}")
    tiles: list[Tile] = []
    locations: list[Location] = []
    names: set[str] = set()
    for t, entry in enumerate(raw_tiles):
        tile = _tile(entry, t, len(locations), locations, fail)
        if tile.name in names:
            raise fail(f"tile {t}: the name {_show(tile.name)} is used twice")
        names.add(tile.name)
        tiles.append(tile)
    city = City(tuple(tiles), tuple(locations), data["stand_in"], note)
    _check_counts(city, fail)
    return city


def _tile(entry: Any, t: int, first: int, locations: list[Location], fail: Fail) -> Tile:
    """Tile ``t`` of the file, its Locations appended to ``locations`` with ids from ``first``."""
    if not isinstance(entry, dict):
        raise fail(f"tile {t} must be a JSON object, not {_show(entry)}")
    _keys(entry, _TILE_KEYS, f"tile {t}", fail)
    name = entry["name"]
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable() \
            or name != name.strip():
        raise fail(f"tile {t}: 'name' {_show(name)} must be 1..{MAX_NAME} printable characters "
                   "without outer spaces")
    what = f"tile {t} ({name})"
    stack = entry["stack"]
    if stack not in (START, *STACKS):
        raise fail(f"{what}: 'stack' {_show(stack)} must be one of {', '.join((START, *STACKS))}")
    if not isinstance(entry["helipad"], bool):
        raise fail(f"{what}: 'helipad' must be true or false, not {_show(entry['helipad'])}")
    raw_zones = _list(entry["zones"], 1, MAX_ZONES, f"{what}: 'zones'", fail)
    raw_edges = _list(entry["edges"], 6, 6, f"{what}: 'edges'", fail)
    edges: list[int] = []
    for d, z in enumerate(raw_edges):
        if not _index(z, len(raw_zones)):
            raise fail(f"{what}: edge {d} names zone {_show(z)}, "
                       f"but the tile has zones 0..{len(raw_zones) - 1}")
        edges.append(z)
    zones: list[Zone] = []
    for z, raw in enumerate(raw_zones):
        if not isinstance(raw, dict):
            raise fail(f"{what}: zone {z} must be a JSON object {{type, ferry}}, not {_show(raw)}")
        _keys(raw, _ZONE_KEYS, f"{what}: zone {z}", fail)
        if raw["type"] not in _TYPE_NAMES:
            raise fail(f"{what}: zone {z} 'type' {_show(raw['type'])} "
                       f"must be one of {', '.join(_TYPE_NAMES)}")
        kind = _TYPE_NAMES[raw["type"]]
        if not isinstance(raw["ferry"], bool) or (raw["ferry"] and kind != LandType.WATER):
            raise fail(f"{what}: zone {z} 'ferry' must be true or false, and true only on water")
        owned = tuple(d for d in range(6) if edges[d] == z)
        if not owned:
            raise fail(f"{what}: zone {z} owns no edge (every zone holds at least one)")
        zones.append(Zone(kind, raw["ferry"], owned))
    raw_locs = _list(entry["locations"], 0, MAX_LOCATIONS_PER_TILE, f"{what}: 'locations'", fail)
    parsed: list[tuple[str, str, tuple[int, ...], tuple[int, ...]]] = []
    for k, raw in enumerate(raw_locs):
        lwhat = f"{what}: location {k}"
        if not isinstance(raw, dict):
            raise fail(f"{lwhat} must be a JSON object, not {_show(raw)}")
        _keys(raw, _LOCATION_KEYS, lwhat, fail)
        kind_name = raw["kind"]
        if kind_name not in KINDS:
            raise fail(f"{lwhat}: 'kind' {_show(kind_name)} must be one of {', '.join(KINDS)}")
        label = raw["label"]
        allowed = LABELS.get(kind_name, ("",))
        if label not in allowed:
            raise fail(f"{lwhat}: 'label' {_show(label)} of a {kind_name} must be one of {allowed!r}")
        adj = _indices(raw["zones"], len(zones), 1, f"{lwhat}: 'zones'", fail)
        touch = _indices(raw["touches"], len(raw_locs), 0, f"{lwhat}: 'touches'", fail)
        if k in touch:
            raise fail(f"{lwhat} touches itself")
        parsed.append((kind_name, label, adj, touch))
    for k, (_, _, _, touch) in enumerate(parsed):
        for j in touch:
            if k not in parsed[j][3]:
                raise fail(f"{what}: location {k} touches location {j}, but {j} does not list {k}")
    ids = tuple(range(first, first + len(parsed)))
    for k, (kind_name, label, adj, touch) in enumerate(parsed):
        locations.append(Location(ids[k], t, kind_name, label, adj, tuple(first + j for j in touch)))
    return Tile(t, name, stack, tuple(edges), tuple(zones), ids, entry["helipad"])


def _check_counts(city: City, fail: Fail) -> None:
    """The counts the rules rely on (see the module docstring)."""
    start = city.start_tiles
    if len(start) != 2:
        raise fail(f"the city needs 2 starting tiles (stack 'start'), not {len(start)}")
    for s in STACKS:
        if len(city.stacks[s]) != PER_STACK:
            raise fail(f"stack {s!r} needs {PER_STACK} tiles, not {len(city.stacks[s])}")
    for kind, count in COUNTS.items():
        have = city.of_kind(kind)
        if len(have) != count:
            raise fail(f"the city needs {count} {kind} space(s), not {len(have)}")
        labels = LABELS.get(kind)
        if labels is not None and sorted(city.locations[i].label for i in have) != sorted(labels):
            raise fail(f"the {kind} spaces must be labelled {', '.join(labels)}, each once")
    heliports = city.of_kind(HELIPORT)
    if len(heliports) > 1:
        raise fail(f"the city may have one heliport, not {len(heliports)}")
    for h in heliports:
        if not city.tiles[city.locations[h].tile].helipad:
            name = city.tiles[city.locations[h].tile].name
            raise fail(f"the heliport's tile {name!r} must be a helipad tile")
    exit_tiles = [city.locations[i].tile for i in city.of_kind(EXIT)]
    if len(set(exit_tiles)) != len(exit_tiles) or any(city.tiles[t].stack == START for t in exit_tiles):
        raise fail("the exits must lie on three different tiles of the lettered stacks")
    hospital_tile = city.hospital_tile
    if hospital_tile not in start:
        raise fail("the hospital must lie on a starting tile (players start there; City Setup 7)")
    other = city.gang_start_tile
    if not any(city.locations[i].kind == GANG for i in city.tiles[other].locations):
        raise fail("the starting tile without the hospital must hold a gang (its Gang HQ, City Setup 16)")


def _show(value: Any) -> str:
    """``value`` as one short line for an error message."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _keys(entry: dict[Any, Any], keys: frozenset[str], what: str, fail: Fail) -> None:
    """Refuse a missing or an unknown key in ``entry``: every key is required, no other allowed."""
    missing = sorted(keys - set(entry))
    if missing:
        raise fail(f"{what} lacks the key {missing[0]!r}")
    extra = sorted((k for k in entry if k not in keys), key=str)
    if extra:
        raise fail(f"{what} has the unknown key {_show(extra[0])} (allowed: {', '.join(sorted(keys))})")


def _list(raw: Any, low: int, high: int, what: str, fail: Fail) -> list[Any]:
    """``raw`` as a list of ``low..high`` items, checked before anything walks it."""
    if not isinstance(raw, list) or not low <= len(raw) <= high:
        got = f"{len(raw)} items" if isinstance(raw, list) else type(raw).__name__
        raise fail(f"{what} must be a list of {low}..{high} items, not {got}")
    return raw


def _index(raw: Any, size: int) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < size


def _indices(raw: Any, size: int, low: int, what: str, fail: Fail) -> tuple[int, ...]:
    """Distinct indices into a list of ``size``, at least ``low`` of them, sorted."""
    items = _list(raw, low, max(low, size), what, fail)
    if not all(_index(i, size) for i in items) or len(set(items)) != len(items):
        raise fail(f"{what} must list distinct indices 0..{size - 1}, not {_show(items)}")
    return tuple(sorted(items))


# ------------------------------------------------------------------------------------------ placement

def start_layout(city: City, first: int, rotation: int) -> dict[Cell, Placement]:
    """The two starting tiles, ``first`` at (0,0) and the other at (1,0), both turned by ``rotation``
    (0 or 3: City Setup 2 puts them at random with their arrows the same way, four chance outcomes)."""
    if first not in city.start_tiles or rotation not in START_ROTATIONS:
        raise BadStateError(f"escape city: start tile {first} rotation {rotation}: the first must be a "
                            f"starting tile {city.start_tiles} and the rotation one of {START_ROTATIONS}")
    second = next(t for t in city.start_tiles if t != first)
    return {START_CELLS[0]: (first, rotation), START_CELLS[1]: (second, rotation)}


def is_legal_placement(city: City, placed: Placed, tile: int, cell: Cell, rotation: int) -> bool:
    """Whether ``tile`` may go on ``cell`` turned by ``rotation`` ("3. City"): the cell is empty and
    next to at least two placed tiles, and at least one shared edge shows one Land type on both sides."""
    if cell in placed or not 0 <= rotation < 6:
        return False
    new = city.tiles[tile]
    shared = 0
    match = False
    for d, nb in enumerate(neighbors(cell)):
        there = placed.get(nb)
        if there is None:
            continue
        shared += 1
        if not match and new.edge_type(d, rotation) == city.tiles[there[0]].edge_type((d + 3) % 6, there[1]):
            match = True
    return shared >= 2 and match


def legal_placements(city: City, placed: Placed, tile: int) -> list[tuple[Cell, int]]:
    """Every ``(cell, rotation)`` where ``tile`` may be placed, sorted. All six rotations are listed
    even when a tile looks the same turned (a symmetric tile would repeat options)."""
    if not 0 <= tile < len(city.tiles) or any(t == tile for t, _ in placed.values()):
        raise BadStateError(f"escape city: tile {tile} is not a tile of the city or is already placed")
    cells = {nb for c in placed for nb in neighbors(c) if nb not in placed}
    return [(cell, k) for cell in sorted(cells) for k in range(6)
            if is_legal_placement(city, placed, tile, cell, k)]


# ------------------------------------------------------------------------------------------- movement

@dataclass(frozen=True)
class Layout:
    """The movement graph ("Step 1: Travel") of one placed city, built once and searched many times.

    Nodes are the zones of placed tiles (ids ``0 ..``, placed tiles in tile-id order, zones in order)
    followed by the Locations of placed tiles (in id order). ``bodies`` are the bodies of water, each the
    sorted ``(tile, zone)`` pairs joined by water-to-water edges, in order of their first pair;
    ``jet_ski`` in :func:`reachable` is an index into them.
    """

    city: City
    placed: tuple[tuple[Cell, Placement], ...]

    cell_of: Mapping[int, Cell] = field(init=False, repr=False, compare=False)
    node_tile: tuple[int, ...] = field(init=False, repr=False, compare=False)
    node_zone: tuple[int, ...] = field(init=False, repr=False, compare=False)  # -1 for a Location
    node_location: tuple[int, ...] = field(init=False, repr=False, compare=False)  # -1 for a zone
    location_node: Mapping[int, int] = field(init=False, repr=False, compare=False)
    zone_node: Mapping[tuple[int, int], int] = field(init=False, repr=False, compare=False)
    node_body: tuple[int, ...] = field(init=False, repr=False, compare=False)  # -1 for no water
    bodies: tuple[tuple[tuple[int, int], ...], ...] = field(init=False, repr=False, compare=False)
    body_ferry: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    # per node: (neighbour, MP) pairs of the walking moves
    adj: tuple[tuple[tuple[int, int], ...], ...] = field(init=False, repr=False, compare=False)
    subway_nodes: tuple[int, ...] = field(init=False, repr=False, compare=False)
    heliport_nodes: frozenset[int] = field(init=False, repr=False, compare=False)
    helipad_tiles: frozenset[int] = field(init=False, repr=False, compare=False)
    # per tile id: the nodes of placed tiles 1 or 2 away (a flight's landings)
    flight_targets: Mapping[int, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    # per zone node: (zone node, MP) of the zones of placed tiles exactly 2 away (a sewer ride)
    sewer_targets: tuple[tuple[tuple[int, int], ...], ...] = field(init=False, repr=False, compare=False)
    _memo: dict[tuple[int, int, int | None, int, int], dict[int, tuple[frozenset[int], ...]]] = field(
        init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        city = self.city
        cell_of = {t: c for c, (t, _) in self.placed}
        tiles = sorted(cell_of)
        node_tile: list[int] = []
        node_zone: list[int] = []
        node_location: list[int] = []
        zone_node: dict[tuple[int, int], int] = {}
        for t in tiles:
            for z in range(len(city.tiles[t].zones)):
                zone_node[t, z] = len(node_tile)
                node_tile.append(t)
                node_zone.append(z)
                node_location.append(-1)
        location_node: dict[int, int] = {}
        for t in tiles:
            for loc_id in city.tiles[t].locations:
                location_node[loc_id] = len(node_tile)
                node_tile.append(t)
                node_zone.append(-1)
                node_location.append(loc_id)
        edges: dict[tuple[int, int], int] = {}

        def link(a: int, b: int, cost: int) -> None:
            edges[a, b] = cost
            edges[b, a] = cost

        def ztype(n: int) -> LandType:
            return city.tiles[node_tile[n]].zones[node_zone[n]].type

        for t in tiles:
            tile = city.tiles[t]
            for a, b in tile.zone_pairs():
                na, nb = zone_node[t, a], zone_node[t, b]
                link(na, nb, 0 if ztype(na) == ztype(nb) else 1)
            for loc_id in tile.locations:
                loc = city.locations[loc_id]
                for z in loc.zones:
                    link(location_node[loc_id], zone_node[t, z], 1)
                for other in loc.touches:
                    link(location_node[loc_id], location_node[other], 1)
        placed = dict(self.placed)
        for cell, (t, k) in self.placed:
            for d, around in enumerate(neighbors(cell)):
                there = placed.get(around)
                if there is None:
                    continue
                u, k2 = there
                na = zone_node[t, city.tiles[t].edges[(d - k) % 6]]
                nb_node = zone_node[u, city.tiles[u].edges[((d + 3) % 6 - k2) % 6]]
                link(na, nb_node, 0 if ztype(na) == ztype(nb_node) else 1)
        n = len(node_tile)
        adj_lists: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for (a, b), cost in sorted(edges.items()):
            adj_lists[a].append((b, cost))
        # bodies of water: union of water zones over water-to-water edges
        water = [z for z in range(n) if node_zone[z] >= 0 and ztype(z) == LandType.WATER]
        node_body = [-1] * n
        bodies: list[tuple[tuple[int, int], ...]] = []
        ferry: list[bool] = []
        for w in water:
            if node_body[w] >= 0:
                continue
            members = [w]
            node_body[w] = len(bodies)
            i = 0
            while i < len(members):
                for nb_node, _ in adj_lists[members[i]]:
                    if (node_zone[nb_node] >= 0 and ztype(nb_node) == LandType.WATER
                            and node_body[nb_node] < 0):
                        node_body[nb_node] = len(bodies)
                        members.append(nb_node)
                i += 1
            pairs = tuple(sorted((node_tile[m], node_zone[m]) for m in members))
            bodies.append(pairs)
            ferry.append(any(city.tiles[t].zones[z].ferry for t, z in pairs))
        by_tile: dict[int, list[int]] = {t: [] for t in tiles}
        for node in range(n):
            by_tile[node_tile[node]].append(node)
        flights = {t: tuple(node for u in tiles if 1 <= distance(cell_of[t], cell_of[u]) <= 2
                            for node in by_tile[u]) for t in tiles}
        sewer: list[tuple[tuple[int, int], ...]] = []
        for node in range(n):
            if node_zone[node] < 0:
                sewer.append(())
                continue
            here = cell_of[node_tile[node]]
            sewer.append(tuple((m, 0 if ztype(m) == ztype(node) else 1)
                               for u in tiles if distance(here, cell_of[u]) == 2
                               for m in by_tile[u] if node_zone[m] >= 0))
        derived: dict[str, Any] = {
            "cell_of": cell_of, "node_tile": tuple(node_tile), "node_zone": tuple(node_zone),
            "node_location": tuple(node_location), "location_node": location_node, "zone_node": zone_node,
            "node_body": tuple(node_body), "bodies": tuple(bodies), "body_ferry": tuple(ferry),
            "adj": tuple(tuple(a) for a in adj_lists),
            "subway_nodes": tuple(location_node[i] for i in city.of_kind(SUBWAY) if i in location_node),
            "heliport_nodes": frozenset(location_node[i] for i in city.of_kind(HELIPORT)
                                        if i in location_node),
            "helipad_tiles": frozenset(t for t in tiles if city.tiles[t].helipad),
            "flight_targets": flights, "sewer_targets": tuple(sewer), "_memo": {},
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, city: City, placed: Placed) -> Layout:
        """The layout of ``placed`` (cell -> (tile, rotation)); refuses a tile placed twice or unknown."""
        seen: set[int] = set()
        for cell, (t, k) in placed.items():
            if not 0 <= t < len(city.tiles) or t in seen or not 0 <= k < 6:
                raise BadStateError(f"escape city: cell {cell}: tile {t} rotation {k} "
                                    "is unknown or placed twice")
            seen.add(t)
        return cls(city, tuple(sorted(placed.items())))

    def __hash__(self) -> int:
        return hash(self.placed)

    @property
    def locations(self) -> tuple[int, ...]:
        """The Locations on placed tiles, in id order."""
        return tuple(sorted(self.location_node))

    def ferryless_bodies(self) -> tuple[int, ...]:
        """The bodies of water without a Ferry: the ones a Jet Ski can open."""
        return tuple(b for b, f in enumerate(self.body_ferry) if not f)


def reachable(layout: Layout, start_location: int, mp: int, *, jet_ski: int | None = None,
              flights: int = 0, sewers: int = 0) -> dict[int, list[frozenset[int]]]:
    """Every Location a Travel from ``start_location`` can end on -> its minimal sets of tiles left.

    ``mp`` is the turn's movement points (3, +1 per gas can returned); a Subway jump adds 1 for the
    turn. ``jet_ski`` is the index of a body of water in ``layout.bodies`` walkable this turn (the Jet
    Ski contact); ``flights`` the helipad flights and ``sewers`` the sewer rides the traveller may use.
    The sets of tiles left ("Step 2: Avoid") are the start tile and every tile a node of the route
    lies on, minus the destination's tile; a route leaving a superset of another's is dropped. Each
    list is sorted: fewest tiles first, then by the sorted tile ids. Results are remembered per layout.
    """
    if start_location not in layout.location_node:
        raise BadStateError(f"escape city: location {start_location} is not on a placed tile")
    if not 0 <= mp <= MAX_MP or not 0 <= flights <= MAX_EXTRA or not 0 <= sewers <= MAX_EXTRA:
        raise BadStateError(f"escape city: mp {mp}, flights {flights}, sewers {sewers} out of range "
                            f"(0..{MAX_MP}, 0..{MAX_EXTRA}, 0..{MAX_EXTRA})")
    if jet_ski is not None and not 0 <= jet_ski < len(layout.bodies):
        raise BadStateError(f"escape city: jet ski body {jet_ski} is not one of 0..{len(layout.bodies) - 1}")
    key = (start_location, mp, jet_ski, flights, sewers)
    found = layout._memo.get(key)
    if found is None:
        if len(layout._memo) >= MEMO_SIZE:
            layout._memo.clear()
        found = search_reachable(layout, start_location, mp, jet_ski, flights, sewers)
        layout._memo[key] = found
    return {loc: list(sets) for loc, sets in found.items()}


def search_reachable(layout: Layout, start_location: int, mp: int, jet_ski: int | None, flights: int,
                     sewers: int) -> dict[int, tuple[frozenset[int], ...]]:
    """:func:`reachable` without the memo or the argument checks (the bench times this).

    A label-setting search: a label is (MP spent, subway used, flights left, sewers left, mask of tiles
    visited) at a node, and each node keeps only the labels no other label there beats. Label A beats
    B when A's mask is a subset of B's, A has at least B's flights and sewers, and A spent no more MP;
    if B has used the subway and A has not, A must have spent at least 1 MP less (B may still spend
    its extra MP, A only after a jump). A can then follow every continuation of B and leave a subset
    of its tiles, so no minimal set is lost: the search stays exact (the test checks it against an
    exhaustive walk).
    """
    adj = layout.adj
    node_tile = layout.node_tile
    node_body = layout.node_body
    node_location = layout.node_location
    walkable = [f or b == jet_ski for b, f in enumerate(layout.body_ferry)]
    blocked = [b >= 0 and not walkable[b] for b in node_body]
    subways = layout.subway_nodes if len(layout.subway_nodes) >= 2 else ()
    is_subway = frozenset(subways)
    heliports = layout.heliport_nodes
    helipads = layout.helipad_tiles
    flight_targets = layout.flight_targets
    sewer_targets = layout.sewer_targets
    limit = mp + 1 if subways else mp  # the subway's extra MP may be spent before the jump
    start = layout.location_node[start_location]
    labels: list[list[tuple[int, int, int, int, int]]] = [[] for _ in node_tile]
    found: dict[int, list[int]] = {}
    buckets: list[list[tuple[int, tuple[int, int, int, int, int]]]] = [[] for _ in range(limit + 1)]

    def offer(node: int, spent: int, used: int, fl: int, sw: int, mask: int) -> None:
        kept = labels[node]
        for s2, u2, f2, w2, m2 in kept:
            if (m2 & mask == m2 and f2 >= fl and w2 >= sw
                    and s2 <= (spent - 1 if used > u2 else spent)):
                return
        if kept:
            kept[:] = [lab for lab in kept
                       if not (mask & lab[4] == mask and fl >= lab[2] and sw >= lab[3]
                               and spent <= (lab[0] - 1 if lab[1] > used else lab[0]))]
        label = (spent, used, fl, sw, mask)
        kept.append(label)
        loc = node_location[node]
        if loc >= 0 and node != start and spent <= mp + used:
            found.setdefault(loc, []).append(mask & ~(1 << node_tile[node]))
        buckets[spent].append((node, label))

    offer(start, 0, 0, flights, sewers, 1 << node_tile[start])
    for b in range(limit + 1):
        bucket = buckets[b]
        while bucket:
            node, label = bucket.pop()
            if label not in labels[node]:
                continue  # beaten by a label found after this one was queued
            spent, used, fl, sw, mask = label
            for nb, cost in adj[node]:
                if spent + cost <= limit and not blocked[nb]:
                    offer(nb, spent + cost, used, fl, sw, mask | 1 << node_tile[nb])
            if node in is_subway:
                for nb in subways:
                    if nb != node:
                        offer(nb, spent, 1, fl, sw, mask | 1 << node_tile[nb])
            tile = node_tile[node]
            if spent + 1 <= limit:
                if node in heliports:
                    for nb in flight_targets[tile]:
                        if not blocked[nb]:
                            offer(nb, spent + 1, used, fl, sw, mask | 1 << node_tile[nb])
                elif fl and tile in helipads:
                    for nb in flight_targets[tile]:
                        if not blocked[nb]:
                            offer(nb, spent + 1, used, fl - 1, sw, mask | 1 << node_tile[nb])
            if sw:
                for nb, cost in sewer_targets[node]:
                    if spent + cost <= limit and not blocked[nb]:
                        offer(nb, spent + cost, used, fl, sw - 1, mask | 1 << node_tile[nb])
    return {loc: _minimal_sets(masks) for loc, masks in sorted(found.items())}


def _minimal_sets(masks: Iterable[int]) -> tuple[frozenset[int], ...]:
    """The masks no other mask is a proper subset of, as sorted frozensets of tile ids."""
    unique = sorted(set(masks), key=lambda m: (m.bit_count(), m))
    kept: list[int] = []
    for m in unique:
        if not any(k & m == k for k in kept):
            kept.append(m)
    sets = [frozenset(t for t in range(m.bit_length()) if m >> t & 1) for m in kept]
    return tuple(sorted(sets, key=lambda s: (len(s), sorted(s))))
