"""The Police Precinct city: street spaces, intersections, Bad Hoods and buildings, as a graph.

Rulebook, "PHASE 1: Move Your Car": cars stand on streets, never on a corner or an intersection; "you
have moved one street each time you pass through an intersection and on to the next street"; the board
does not wrap; a building is used from "the street with the white arrow pointing into" it. "Set-Up":
six city blocks, each with a Bad Hood sidewalk numbered like its block, an apartment building and a
warehouse (rolled locations). So a street space is a node, and two street spaces are one move apart
when they meet at an intersection; an emergency on an intersection blocks passing through it.

The published board's street layout is not publicly known (``shared/research/components.md``: NOT
FOUND), so the shipped ``data/city.json`` is a **stand-in** of our design fitted to the rulebook (its
movement example holds on it); a user's file of the same format (game option ``city=PATH``) replaces it.
Format ``copsolver-precinct-city/1``::

    {"format": "copsolver-precinct-city/1", "stand_in": true, "note": "...", "name": "...",
     "intersections": ["Vasel & 1st", ...],                       # 1..64 names
     "streets": [{"name": "Stickel Avenue", "ends": ["Stickel & 1st", "Stickel & 2nd"]},
                 {"name": "Colfax 1", "ends": ["Colfax & 2nd"]}, ...],   # 1..64; 1 end = a dead end
     "hoods": [{"hood": 1, "streets": ["1st Street North", ...]}, ...],   # Bad Hoods 1..6
     "buildings": [{"name": "Police Station", "street": "3rd Avenue North"}, ...],
     "apartments": ["Apartments 1", ...],                          # 6: the rolled building of block b
     "warehouses": ["Warehouse 1", ...]}                           # 6

Every key is required except ``note`` and ``name``; no other key is allowed. A name is used once
across streets, intersections and buildings (event cards name any of them as a location), and never
as one of the rolled locations ``apartment``, ``warehouse``, ``hood``. The names of
``shared/precinct-api.md`` (:data:`REQUIRED_BUILDINGS`, :data:`REQUIRED_STREETS`,
:data:`REQUIRED_INTERSECTIONS`) must all exist, the Police Station is entered from ``3rd Avenue North``
and the Morgue from a Colfax space, ``Colfax 1`` .. ``Colfax 4`` lie in a row, every intersection ends
some street, and every street can be reached from every other.
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

import networkx as nx

from solver.core import files
from solver.core.errors import BadStateError

StreetId: TypeAlias = int
IntersectionId: TypeAlias = int

FORMAT: Final = "copsolver-precinct-city/1"
#: Most street spaces and intersections a map may have; the shipped one has about half. A street or an
#: intersection fits in a small action field and the all-pairs distance table stays tiny.
MAX_STREETS: Final = 64
MAX_INTERSECTIONS: Final = 64
#: Most buildings a map may list (22 are named by the rules).
MAX_BUILDINGS: Final = 64
#: Longest place name; names are printed on one line of a board printout.
MAX_NAME: Final = 60
HOODS: Final = 6
BLOCKS: Final = 6

REQUIRED_BUILDINGS: Final[tuple[str, ...]] = (
    "Police Station", "Hospital", "Morgue", "Duffy's Bar", "Knights Apartments", "Tolloty Apartments",
    "Crime Scene Lot", "City Hall", "Bank", "Gas Station",
    *(f"Apartments {b}" for b in range(1, BLOCKS + 1)), *(f"Warehouse {b}" for b in range(1, BLOCKS + 1)),
)
COLFAX: Final[tuple[str, ...]] = ("Colfax 1", "Colfax 2", "Colfax 3", "Colfax 4")
REQUIRED_STREETS: Final[tuple[str, ...]] = ("West Calhoun", "East Calhoun", "3rd Avenue North", *COLFAX)
REQUIRED_INTERSECTIONS: Final[tuple[str, ...]] = (
    "Vasel & 1st", "Vasel & 2nd", "Stickel & 1st", "Stickel & 2nd", "Calhoun & 2nd", "Calhoun & 3rd",
    "Colfax & 2nd", "Colfax & 3rd",
)
#: Where the cars start and where the station's actions are taken (rulebook, "Set-Up": "on the street
#: by the Police Station (3rd Av. North)").
STATION: Final = "Police Station"
STATION_STREET: Final = "3rd Avenue North"
#: Location words an event card uses for a rolled place; no place may be called so.
RESERVED: Final = frozenset({"apartment", "warehouse", "hood"})

_TOP_KEYS: Final = frozenset({"format", "stand_in", "note", "name", "intersections", "streets", "hoods",
                              "buildings", "apartments", "warehouses"})
_OPTIONAL_KEYS: Final = frozenset({"note", "name"})
_STREET_KEYS: Final = frozenset({"name", "ends"})
_HOOD_KEYS: Final = frozenset({"hood", "streets"})
_BUILDING_KEYS: Final = frozenset({"name", "street"})

Fail = Callable[[str], BadStateError]


@dataclass(frozen=True)
class City:
    """An immutable street map; ids index :attr:`streets` and :attr:`intersections`.

    Built once per map (:func:`load_city` caches the shipped one): the networkx graph (street spaces as
    nodes, an edge where two meet, labelled ``via`` with the intersections they share), an adjacency
    table for the searches the rules run every turn, and the all-pairs move distances.
    """

    streets: tuple[str, ...]
    intersections: tuple[str, ...]
    ends: tuple[tuple[IntersectionId, ...], ...]
    hood_streets: tuple[tuple[StreetId, ...], ...]
    buildings: Mapping[str, StreetId]
    apartments: tuple[str, ...]
    warehouses: tuple[str, ...]
    stand_in: bool

    street_ids: Mapping[str, StreetId] = field(init=False, repr=False, compare=False)
    intersection_ids: Mapping[str, IntersectionId] = field(init=False, repr=False, compare=False)
    #: street spaces as nodes; an edge ``via`` the sorted tuple of intersections the two streets share
    graph: Any = field(init=False, repr=False, compare=False)
    _at: tuple[tuple[StreetId, ...], ...] = field(init=False, repr=False, compare=False)
    _hood: tuple[int | None, ...] = field(init=False, repr=False, compare=False)
    # per street, its neighbours in id order with the intersections a move to each may pass through
    _adj: tuple[tuple[tuple[StreetId, tuple[IntersectionId, ...]], ...], ...] = field(
        init=False, repr=False, compare=False)
    _dist: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    # searches already made: bots score every street a car may reach, each from the same few starts
    # and blocked sets, so the same searches recur thousands of times a game
    _memo: dict[tuple[StreetId, int, frozenset[IntersectionId]], dict[StreetId, int]] = field(
        init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        at: list[list[StreetId]] = [[] for _ in self.intersections]
        for s, ends in enumerate(self.ends):
            for i in ends:
                at[i].append(s)
        graph = nx.Graph()
        graph.add_nodes_from(range(len(self.streets)))
        for i, here in enumerate(at):
            for k, a in enumerate(here):
                for b in here[k + 1:]:
                    via = graph.edges[a, b]["via"] if graph.has_edge(a, b) else ()
                    graph.add_edge(a, b, via=tuple(sorted((*via, i))))
        hood: list[int | None] = [None] * len(self.streets)
        for h, members in enumerate(self.hood_streets, start=1):
            for s in members:
                hood[s] = h
        adj = tuple(tuple((t, graph.edges[s, t]["via"]) for t in sorted(graph.adj[s]))
                    for s in range(len(self.streets)))
        unreachable = len(self.streets) + 1  # only a hand-built City may be disconnected
        dist = tuple(tuple(row.get(t, unreachable) for t in range(len(self.streets)))
                     for row in (dict(nx.single_source_shortest_path_length(graph, s))
                                 for s in range(len(self.streets))))
        derived = {
            "street_ids": {name: s for s, name in enumerate(self.streets)},
            "intersection_ids": {name: i for i, name in enumerate(self.intersections)},
            "graph": graph, "_at": tuple(tuple(sorted(h)) for h in at), "_hood": tuple(hood),
            "_adj": adj, "_dist": dist, "_memo": {},
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def __hash__(self) -> int:
        # buildings is a dict, so the generated field hash would fail; the tuples identify the map
        return hash((self.streets, self.intersections, self.ends, self.hood_streets))

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle the map, not the graph and tables: they are rebuilt from it
        return (City, (self.streets, self.intersections, self.ends, self.hood_streets, dict(self.buildings),
                       self.apartments, self.warehouses, self.stand_in))

    def __copy__(self) -> City:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> City:
        return self  # immutable: states that copy themselves share their city

    def moves(self, start: StreetId, steps: int, blocked: frozenset[IntersectionId] = frozenset(),
              through_blocked: bool = False) -> dict[StreetId, int]:
        """Every street reachable from ``start`` in at most ``steps`` moves -> the fewest moves (start: 0).

        One move passes through one intersection at an end of the current street onto another street
        that meets it ("PHASE 1: Move Your Car"). An intersection in ``blocked`` (an emergency lies on
        it) cannot be passed unless ``through_blocked``. ``steps`` below 0 counts as 0.
        """
        return dict(self.reach(start, steps, frozenset() if through_blocked else blocked))

    def reach(self, start: StreetId, steps: int,
              blocked: frozenset[IntersectionId] = frozenset()) -> Mapping[StreetId, int]:
        """:meth:`moves` without ``through_blocked``, as the shared memo: read it, never change it (a
        bot asks this for every street it scores, and the copy :meth:`moves` makes is most of that)."""
        key = (start, steps, blocked)
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            if blocked:
                found = self._search(start, steps, blocked)[0]
            else:
                limit = max(0, min(steps, len(self.streets)))  # the table marks unreachable as len + 1
                found = {t: d for t, d in enumerate(self._dist[start]) if d <= limit}
            self._memo[key] = found
        return found

    def streets_at(self, intersection: IntersectionId) -> tuple[StreetId, ...]:
        """The streets that end at ``intersection``, in id order (the cars adjacent to an emergency there)."""
        return self._at[intersection]

    def hood_of(self, street: StreetId) -> int | None:
        """The Bad Hood (1..6) whose sidewalk ``street`` is, or None."""
        return self._hood[street]

    def distance(self, a: StreetId, b: StreetId) -> int:
        """The fewest moves from ``a`` to ``b`` with nothing blocked (0 for ``a == b``)."""
        return self._dist[a][b]

    def path(self, a: StreetId, b: StreetId,
             blocked: frozenset[IntersectionId] = frozenset()) -> list[StreetId]:
        """A shortest path of streets from ``a`` to ``b`` avoiding ``blocked`` (``a`` first, ``b`` last).

        ``[]`` when ``b`` cannot be reached. Ties go to the lower street id at each step, so the path
        is the same on every run (a bot driving towards a target moves the same way).
        """
        dist, parent = self._search(a, len(self.streets), blocked)
        if b not in dist:
            return []
        out = [b]
        while out[-1] != a:
            out.append(parent[out[-1]])
        out.reverse()
        return out

    def street(self, name: str) -> StreetId:
        """The id of the street called ``name``; :class:`BadStateError` for an unknown name."""
        s = self.street_ids.get(name)
        if s is None:
            raise BadStateError(f"precinct city: no street is called {_show(name)}")
        return s

    def intersection(self, name: str) -> IntersectionId:
        """The id of the intersection called ``name``; :class:`BadStateError` for an unknown name."""
        i = self.intersection_ids.get(name)
        if i is None:
            raise BadStateError(f"precinct city: no intersection is called {_show(name)}")
        return i

    def _search(self, start: StreetId, steps: int, blocked: frozenset[IntersectionId]
                ) -> tuple[dict[StreetId, int], dict[StreetId, StreetId]]:
        """Breadth-first search from ``start`` up to ``steps`` moves: (fewest moves, parent) per street."""
        dist = {start: 0}
        parent: dict[StreetId, StreetId] = {}
        queue = deque([start])
        while queue:
            s = queue.popleft()
            d = dist[s]
            if d >= steps:
                continue
            for t, via in self._adj[s]:
                # two streets may share two intersections (parallel blocks): one open one is enough
                if t not in dist and any(i not in blocked for i in via):
                    dist[t] = d + 1
                    parent[t] = s
                    queue.append(t)
        return dist, parent


#: searches :meth:`City.moves` keeps before it forgets them all
MEMO_SIZE = 100_000


def load_city(path: str | None) -> City:
    """The shipped stand-in city (``path`` None, built once) or a user's city file.

    Every fault is a one-line :class:`BadStateError` ``precinct city <path>: <fault>``.
    """
    if path is None:
        return _shipped()
    return city_from_json(files.read_json(path, "precinct city"), str(path))


@functools.lru_cache(maxsize=1)
def _shipped() -> City:
    data = files.read_shipped("solver.games.precinct", "data/city.json")
    return city_from_json(data, "(shipped data/city.json)")


def city_from_json(data: Any, where: str) -> City:
    """Check a parsed city document (``where`` names it in errors) and build the :class:`City`."""
    def fail(message: str) -> BadStateError:
        return BadStateError(f"precinct city {where}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f'expected a JSON object with "format": "{FORMAT}"')
    _keys(data, _TOP_KEYS - _OPTIONAL_KEYS, _TOP_KEYS, "the document", fail)
    if not isinstance(data["stand_in"], bool):
        raise fail(f"'stand_in' must be true or false, not {_show(data['stand_in'])}")
    for key in sorted(_OPTIONAL_KEYS):
        if key in data and not isinstance(data[key], str):
            raise fail(f"{key!r} must be a string, not {_show(data[key])}")
    taken: dict[str, str] = {}  # every place name -> what it names, so no name means two places
    intersections = _names(data["intersections"], MAX_INTERSECTIONS, "intersection", taken, fail)
    inter_ids = {name: i for i, name in enumerate(intersections)}
    streets, ends = _streets(data["streets"], inter_ids, taken, fail)
    street_ids = {name: s for s, name in enumerate(streets)}
    hoods = _hoods(data["hoods"], street_ids, fail)
    buildings = _buildings(data["buildings"], street_ids, taken, fail)
    apartments = _block_buildings(data["apartments"], "apartments", buildings, fail)
    warehouses = _block_buildings(data["warehouses"], "warehouses", buildings, fail)
    both = sorted(set(apartments) & set(warehouses))
    if both:
        raise fail(f"{_show(both[0])} is both an apartment and a warehouse")
    _required(streets, intersections, ends, buildings, fail)
    city = City(streets, intersections, ends, hoods, buildings, apartments, warehouses, data["stand_in"])
    unused = [intersections[i] for i in range(len(intersections)) if not city.streets_at(i)]
    if unused:
        raise fail(f"intersection {_show(unused[0])} is at the end of no street")
    lost = [streets[s] for s in range(len(streets)) if city.distance(0, s) > len(streets)]
    if lost:
        raise fail(f"the map is not connected: {_show(lost[0])} cannot be reached from {_show(streets[0])}")
    return city


def _show(value: Any) -> str:
    """``value`` as one short line for an error message (repr escapes newlines)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _keys(entry: dict[Any, Any], required: frozenset[str], allowed: frozenset[str], what: str,
          fail: Fail) -> None:
    """Refuse a missing required key or an unknown key in ``entry``."""
    missing = sorted(required - set(entry))
    if missing:
        raise fail(f"{what} lacks the key {missing[0]!r}")
    extra = sorted((k for k in entry if k not in allowed), key=str)
    if extra:
        raise fail(f"{what} has the unknown key {_show(extra[0])} (allowed: {', '.join(sorted(allowed))})")


def _list(raw: Any, low: int, high: int, what: str, fail: Fail) -> list[Any]:
    """``raw`` as a list of ``low..high`` items; checked before anything walks it (a hostile file)."""
    if not isinstance(raw, list) or not low <= len(raw) <= high:
        got = f"{len(raw)} items" if isinstance(raw, list) else type(raw).__name__
        raise fail(f"{what} must be a list of {low}..{high} items, not {got}")
    return raw


def _name(raw: Any, what: str, fail: Fail) -> str:
    """A place name: a one-line, non-blank string without outer spaces, not a reserved location word."""
    if (not isinstance(raw, str) or not 0 < len(raw) <= MAX_NAME or not raw.isprintable()
            or raw != raw.strip() or raw in RESERVED):
        raise fail(f"{what} name {_show(raw)} must be 1..{MAX_NAME} printable characters without outer "
                   f"spaces, and not {', '.join(sorted(RESERVED))}")
    return raw


def _claim(name: str, kind: str, taken: dict[str, str], fail: Fail) -> None:
    """Refuse ``name`` when a place already has it: event cards find places by name."""
    if name in taken:
        raise fail(f"{kind} {_show(name)}: the name is used twice (already a {taken[name]})")
    taken[name] = kind


def _names(raw: Any, limit: int, kind: str, taken: dict[str, str], fail: Fail) -> tuple[str, ...]:
    """A list of distinct place names."""
    out: list[str] = []
    for i, item in enumerate(_list(raw, 1, limit, f"'{kind}s'", fail)):
        name = _name(item, f"{kind} {i}", fail)
        _claim(name, kind, taken, fail)
        out.append(name)
    return tuple(out)


def _streets(raw: Any, inter_ids: dict[str, IntersectionId], taken: dict[str, str], fail: Fail
             ) -> tuple[tuple[str, ...], tuple[tuple[IntersectionId, ...], ...]]:
    """The street spaces and their ends: one intersection (a dead end at the edge) or two."""
    names: list[str] = []
    ends: list[tuple[IntersectionId, ...]] = []
    for k, entry in enumerate(_list(raw, 1, MAX_STREETS, "'streets'", fail)):
        if not isinstance(entry, dict):
            raise fail(f"street {k} must be a JSON object {{name, ends}}, not {_show(entry)}")
        _keys(entry, _STREET_KEYS, _STREET_KEYS, f"street {k}", fail)
        name = _name(entry["name"], f"street {k}", fail)
        _claim(name, "street", taken, fail)
        raw_ends = entry["ends"]
        if not isinstance(raw_ends, list) or not 1 <= len(raw_ends) <= 2:
            raise fail(f"street {_show(name)}: 'ends' must list 1 or 2 intersections, not {_show(raw_ends)}")
        these: list[IntersectionId] = []
        for end in raw_ends:
            if not isinstance(end, str) or end not in inter_ids:
                raise fail(f"street {_show(name)}: end {_show(end)} is not an intersection of the map")
            if inter_ids[end] in these:
                raise fail(f"street {_show(name)}: both ends are {_show(end)}")
            these.append(inter_ids[end])
        names.append(name)
        ends.append(tuple(these))
    return tuple(names), tuple(ends)


def _street_ref(raw: Any, street_ids: dict[str, StreetId], what: str, fail: Fail) -> StreetId:
    """The id of the street ``raw`` names."""
    if not isinstance(raw, str) or raw not in street_ids:
        raise fail(f"{what}: {_show(raw)} is not a street of the map")
    return street_ids[raw]


def _hoods(raw: Any, street_ids: dict[str, StreetId], fail: Fail) -> tuple[tuple[StreetId, ...], ...]:
    """The Bad Hood sidewalks, hood 1..6 each once with at least one street, no street in two hoods."""
    per_hood: dict[int, tuple[StreetId, ...]] = {}
    owner: dict[StreetId, int] = {}
    for k, entry in enumerate(_list(raw, HOODS, HOODS, "'hoods'", fail)):
        if not isinstance(entry, dict):
            raise fail(f"hood entry {k} must be a JSON object {{hood, streets}}, not {_show(entry)}")
        _keys(entry, _HOOD_KEYS, _HOOD_KEYS, f"hood entry {k}", fail)
        h = entry["hood"]
        if isinstance(h, bool) or not isinstance(h, int) or not 1 <= h <= HOODS or h in per_hood:
            raise fail(f"hood entry {k}: 'hood' {_show(h)} must be a whole number 1..{HOODS}, each once")
        members: list[StreetId] = []
        for item in _list(entry["streets"], 1, MAX_STREETS, f"Bad Hood {h} 'streets'", fail):
            s = _street_ref(item, street_ids, f"Bad Hood {h}", fail)
            if s in owner:
                raise fail(f"Bad Hood {h}: street {_show(item)} is already a sidewalk of Bad Hood {owner[s]}")
            owner[s] = h
            members.append(s)
        per_hood[h] = tuple(members)
    return tuple(per_hood[h] for h in range(1, HOODS + 1))


def _buildings(raw: Any, street_ids: dict[str, StreetId], taken: dict[str, str], fail: Fail
               ) -> dict[str, StreetId]:
    """Building name -> the street it is entered from."""
    out: dict[str, StreetId] = {}
    for k, entry in enumerate(_list(raw, 1, MAX_BUILDINGS, "'buildings'", fail)):
        if not isinstance(entry, dict):
            raise fail(f"building {k} must be a JSON object {{name, street}}, not {_show(entry)}")
        _keys(entry, _BUILDING_KEYS, _BUILDING_KEYS, f"building {k}", fail)
        name = _name(entry["name"], f"building {k}", fail)
        _claim(name, "building", taken, fail)
        out[name] = _street_ref(entry["street"], street_ids, f"building {_show(name)}", fail)
    return out


def _block_buildings(raw: Any, key: str, buildings: dict[str, StreetId], fail: Fail) -> tuple[str, ...]:
    """The six distinct buildings of ``key`` (apartments or warehouses), index b-1 for block b."""
    out: list[str] = []
    for item in _list(raw, BLOCKS, BLOCKS, f"{key!r}", fail):
        if not isinstance(item, str) or item not in buildings or item in out:
            raise fail(f"{key!r}: {_show(item)} is not a building of the map, or is listed twice")
        out.append(item)
    return tuple(out)


def _required(streets: tuple[str, ...], intersections: tuple[str, ...],
              ends: tuple[tuple[IntersectionId, ...], ...], buildings: dict[str, StreetId],
              fail: Fail) -> None:
    """The names the rules and the content refer to exist, and sit where the rulebook puts them."""
    for names, kind, have in ((REQUIRED_BUILDINGS, "building", buildings),
                              (REQUIRED_STREETS, "street", streets),
                              (REQUIRED_INTERSECTIONS, "intersection", intersections)):
        missing = [n for n in names if n not in have]
        if missing:
            raise fail(f"the map has no {kind} {missing[0]!r} (the rules and the content name it)")
    if streets[buildings[STATION]] != STATION_STREET:
        raise fail(f"the {STATION} must be entered from {STATION_STREET!r}, "
                   f"not {streets[buildings[STATION]]!r}")
    if streets[buildings["Morgue"]] not in COLFAX:
        raise fail(f"the Morgue must be entered from a Colfax space, not {streets[buildings['Morgue']]!r}")
    ids = [streets.index(n) for n in COLFAX]
    for a, b in itertools.pairwise(ids):
        if not set(ends[a]) & set(ends[b]):
            raise fail(f"{streets[a]!r} and {streets[b]!r} must meet at an intersection "
                       "(Colfax runs in a row)")
