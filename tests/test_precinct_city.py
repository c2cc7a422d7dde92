"""The Police Precinct city (solver/games/precinct/city.py, data/city.json).

The searches are checked against a plain breadth-first search written here over the streets' ``ends``
(not the City's graph); the parser must turn every fault of a hostile file into a one-line
BadStateError naming the file, never another exception.
"""

from __future__ import annotations

import copy
import itertools
import json
import pickle
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from solver.core.errors import BadStateError
from solver.games.precinct import city as pcity
from solver.games.precinct.city import City, city_from_json, load_city

SHIPPED = Path(pcity.__file__).parent / "data" / "city.json"

# The names precinct-api.md fixes, written out here rather than read from the module under test.
BUILDINGS = (
    "Police Station", "Hospital", "Morgue", "Duffy's Bar", "Knights Apartments", "Tolloty Apartments",
    "Crime Scene Lot", "City Hall", "Bank", "Gas Station",
    *(f"Apartments {b}" for b in range(1, 7)), *(f"Warehouse {b}" for b in range(1, 7)),
)
STREETS = ("West Calhoun", "East Calhoun", "3rd Avenue North", "Colfax 1", "Colfax 2", "Colfax 3", "Colfax 4")
INTERSECTIONS = ("Vasel & 1st", "Vasel & 2nd", "Stickel & 1st", "Stickel & 2nd", "Calhoun & 2nd",
                 "Calhoun & 3rd", "Colfax & 2nd", "Colfax & 3rd")


def shipped_doc() -> Any:
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def bfs(city: City, start: int, steps: int, blocked: frozenset[int] = frozenset()) -> dict[int, int]:
    """Fewest moves from ``start`` to every street within ``steps``, straight from ``city.ends``."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if dist[s] == steps:
            continue
        for i in city.ends[s]:
            if i in blocked:
                continue
            for t in range(len(city.streets)):
                if t not in dist and i in city.ends[t]:
                    dist[t] = dist[s] + 1
                    queue.append(t)
    return dist


def named(city: City, reach: dict[int, int]) -> dict[str, int]:
    return {city.streets[s]: d for s, d in reach.items()}


def random_blocked(city: City, rng: np.random.Generator) -> frozenset[int]:
    count = int(rng.integers(0, 6))
    return frozenset(int(i) for i in rng.choice(len(city.intersections), size=count, replace=False))


# --- the shipped map ---------------------------------------------------------------------------------

def test_shipped_map_loads_once_and_is_a_stand_in() -> None:
    city = load_city(None)
    assert load_city(None) is city
    assert city.stand_in is True
    doc = shipped_doc()
    assert doc["format"] == "copsolver-precinct-city/1" and doc["stand_in"] is True
    assert "NOT FOUND" in doc["note"] and "stand-in" in doc["note"].lower()


def test_shipped_map_has_every_required_name_where_the_rules_put_it() -> None:
    city = load_city(None)
    for name in BUILDINGS:
        assert name in city.buildings, name
    for name in STREETS:
        assert name in city.street_ids, name
    for name in INTERSECTIONS:
        assert name in city.intersection_ids, name
    on = {b: city.streets[s] for b, s in city.buildings.items()}
    assert on["Police Station"] == "3rd Avenue North"
    assert on["Morgue"].startswith("Colfax ")
    assert city.street_ids["West Calhoun"] != city.street_ids["East Calhoun"]
    # Colfax runs in a row, and no other street has as many spaces
    colfax = [city.street_ids[f"Colfax {k}"] for k in range(1, 5)]
    for a, b in itertools.pairwise(colfax):
        assert set(city.ends[a]) & set(city.ends[b])
    assert not [n for n in city.streets if n.startswith("Colfax") and n not in STREETS]
    # the buildings that matter most are spread over several streets
    assert len({on[b] for b in ("Police Station", "Hospital", "Morgue", "Crime Scene Lot")}) >= 3
    assert city.apartments == tuple(f"Apartments {b}" for b in range(1, 7))
    assert city.warehouses == tuple(f"Warehouse {b}" for b in range(1, 7))


def test_shipped_map_size_hoods_and_connectivity() -> None:
    city = load_city(None)
    assert 30 <= len(city.streets) <= 40
    assert 15 <= len(city.intersections) <= 25
    assert all(len(e) in (1, 2) for e in city.ends)
    assert len(city.hood_streets) == 6
    members = [s for hood in city.hood_streets for s in hood]
    assert all(1 <= len(hood) <= 2 for hood in city.hood_streets)
    assert len(members) == len(set(members))
    for h, hood in enumerate(city.hood_streets, start=1):
        for s in hood:
            assert city.hood_of(s) == h
    assert sum(city.hood_of(s) is not None for s in range(len(city.streets))) == len(members)
    eccentricity = []
    for s in range(len(city.streets)):
        reach = bfs(city, s, 99)
        assert len(reach) == len(city.streets)  # connected
        eccentricity.append(max(reach.values()))
    assert 6 <= max(eccentricity) <= 8  # two or three turns of a marked car across the city
    for i in range(len(city.intersections)):
        assert city.streets_at(i) == tuple(s for s in range(len(city.streets)) if i in city.ends[s])


def test_rulebook_movement_example() -> None:
    """[PHASE 1: Move Your Car]: the options of a car on Stickel Avenue, with and without the accident."""
    city = load_city(None)
    start = city.street_ids["Stickel Avenue"]
    free = named(city, city.moves(start, 2))
    assert free == {"Stickel Avenue": 0, "1st Street South": 1, "2nd Street South": 1,
                    "Vasel Avenue East": 2, "Vasel Avenue West": 2, "2nd Street North": 2,
                    "1st Avenue North": 2}
    accident = frozenset({city.intersection_ids["Vasel & 1st"]})
    blocked = named(city, city.moves(start, 2, accident))
    assert blocked == {k: v for k, v in free.items() if k != "1st Avenue North"}
    assert named(city, city.moves(start, 2, accident, through_blocked=True)) == free
    assert city.moves(start, 0) == {start: 0}


# --- the searches against a plain BFS -------------------------------------------------------------------

def test_moves_agree_with_a_plain_bfs_over_ends() -> None:
    city = load_city(None)
    rng = np.random.default_rng(20260321)
    for start in range(len(city.streets)):
        blocked = random_blocked(city, rng)
        for steps in range(5):
            assert city.moves(start, steps) == bfs(city, start, steps)
            assert city.moves(start, steps, blocked) == bfs(city, start, steps, blocked), (start, steps)


def test_through_blocked_ignores_every_block() -> None:
    city = load_city(None)
    everything = frozenset(range(len(city.intersections)))
    for start in range(len(city.streets)):
        assert city.moves(start, 3, everything) == {start: 0}
        assert city.moves(start, 3, everything, through_blocked=True) == bfs(city, start, 3)


def test_path_is_a_valid_shortest_path() -> None:
    city = load_city(None)
    rng = np.random.default_rng(7)
    n = len(city.streets)
    for a in range(n):
        blocked = random_blocked(city, rng)
        reach = bfs(city, a, n, blocked)
        for b in range(n):
            path = city.path(a, b, blocked)
            if b not in reach:
                assert path == []
                continue
            assert path[0] == a and path[-1] == b and len(path) == reach[b] + 1
            for s, t in itertools.pairwise(path):
                assert set(city.ends[s]) & set(city.ends[t]) - blocked, (s, t)
            assert city.path(a, b, blocked) == path  # the same path every time
        assert city.path(a, a) == [a]


def test_distance_is_symmetric_and_the_bfs_distance() -> None:
    city = load_city(None)
    n = len(city.streets)
    for a in range(n):
        reach = bfs(city, a, n)
        for b in range(n):
            assert city.distance(a, b) == city.distance(b, a) == reach[b]


def test_city_survives_copy_pickle_and_hashing() -> None:
    city = load_city(None)
    assert copy.deepcopy(city) is city
    again = pickle.loads(pickle.dumps(city))
    assert again == city and hash(again) == hash(city) and again is not city
    assert again.moves(0, 3) == city.moves(0, 3)
    fresh = city_from_json(shipped_doc(), "again")
    assert fresh == city and {fresh: 1}[city] == 1
    assert city.street("Colfax 2") == city.street_ids["Colfax 2"]
    with pytest.raises(BadStateError):
        city.street("Colfax 5")
    with pytest.raises(BadStateError):
        city.intersection("Nowhere & 9th")


# --- the parser ---------------------------------------------------------------------------------------

def fault(doc: Any) -> str:
    """The message of the BadStateError building ``doc``; checks it is one line naming the document."""
    with pytest.raises(BadStateError) as err:
        city_from_json(doc, "test-doc")
    message = str(err.value)
    assert "\n" not in message and message.startswith("precinct city test-doc: "), message
    return message


def street_entry(doc: Any, name: str) -> Any:
    return next(e for e in doc["streets"] if e["name"] == name)


def _disconnect(doc: Any) -> None:
    doc["intersections"].append("Island & 9th")
    doc["streets"].append({"name": "Island Road", "ends": ["Island & 9th"]})


FAULTS = [
    (lambda d: d.__setitem__("format", "copsolver-precinct-city/2"), "format"),
    (lambda d: d.pop("hoods"), "lacks the key 'hoods'"),
    (lambda d: d.__setitem__("colour", "blue"), "unknown key 'colour'"),
    (lambda d: d.__setitem__("stand_in", 1), "'stand_in'"),
    (lambda d: d.__setitem__("note", 3), "'note'"),
    (lambda d: d.__setitem__("streets", {"a": 1}), "'streets' must be a list"),
    (lambda d: d["hoods"][0].__setitem__("hood", True), "'hood' True"),
    (lambda d: d["hoods"][1].__setitem__("hood", 1), "each once"),
    (lambda d: d["hoods"][0].__setitem__("hood", 7), "'hood' 7"),
    (lambda d: street_entry(d, "Stickel Avenue").__setitem__("ends", ["Stickel & 1st", "Nowhere & 9th"]),
     "'Nowhere & 9th' is not an intersection"),
    (lambda d: street_entry(d, "Stickel Avenue").__setitem__("ends", []), "1 or 2 intersections"),
    (lambda d: street_entry(d, "Stickel Avenue").__setitem__(
        "ends", ["Stickel & 1st", "Stickel & 2nd", "Vasel & 1st"]), "1 or 2 intersections"),
    (lambda d: street_entry(d, "Stickel Avenue").__setitem__("ends", ["Stickel & 1st", "Stickel & 1st"]),
     "both ends"),
    (lambda d: street_entry(d, "Stickel Avenue").__setitem__("name", "Colfax 1"), "used twice"),
    (lambda d: d["intersections"].append("Vasel & 1st"), "used twice"),
    (lambda d: d["buildings"].append({"name": "Stickel Avenue", "street": "Colfax 1"}), "used twice"),
    (lambda d: d["hoods"][2].__setitem__("streets", []), "Bad Hood 3 'streets'"),
    (lambda d: d["hoods"][2]["streets"].append(d["hoods"][0]["streets"][0]), "already a sidewalk"),
    (lambda d: d["hoods"].pop(), "'hoods' must be a list of 6..6"),
    (lambda d: d["buildings"][0].__setitem__("street", "Nowhere Road"), "'Nowhere Road' is not a street"),
    (lambda d: d["buildings"].pop(next(k for k, b in enumerate(d["buildings"]) if b["name"] == "Morgue")),
     "no building 'Morgue'"),
    (lambda d: street_entry(d, "Colfax 1").__setitem__("name", "Colfax One"), "no street 'Colfax 1'"),
    (lambda d: d["intersections"].__setitem__(d["intersections"].index("Colfax & 3rd"), "Colfax & Third"),
     "not an intersection"),
    (lambda d: d["apartments"].pop(), "'apartments' must be a list of 6..6"),
    (lambda d: d["warehouses"].__setitem__(0, "Warehouse 2"), "listed twice"),
    (lambda d: d["warehouses"].__setitem__(0, "Apartments 1"), "both an apartment and a warehouse"),
    (lambda d: d["apartments"].__setitem__(0, "Nowhere Tower"), "not a building"),
    (lambda d: next(b for b in d["buildings"] if b["name"] == "Police Station").__setitem__(
        "street", "Colfax 1"), "3rd Avenue North"),
    (lambda d: next(b for b in d["buildings"] if b["name"] == "Morgue").__setitem__(
        "street", "Lake Street"), "Colfax space"),
    (lambda d: street_entry(d, "Colfax 4").__setitem__("ends", ["Calhoun & 5th"]), "Colfax runs in a row"),
    (lambda d: d["intersections"].append("Lonely & 9th"), "end of no street"),
    (_disconnect, "not connected"),
    (lambda d: d["streets"].extend({"name": f"Road {k}", "ends": ["Vasel & 1st"]} for k in range(40)),
     "1..64 items"),
    (lambda d: d["intersections"].extend(f"Corner {k}" for k in range(60)), "1..64 items"),
    (lambda d: street_entry(d, "Lake Street").__setitem__("name", "Lake\nStreet"), "printable"),
    (lambda d: street_entry(d, "Lake Street").__setitem__("name", "hood"), "printable"),
    (lambda d: d["buildings"].__setitem__(0, ["Police Station", "3rd Avenue North"]), "JSON object"),
]


@pytest.mark.parametrize(("mutate", "expected"), FAULTS)
def test_each_fault_is_a_one_line_bad_state_error(mutate: Any, expected: str) -> None:
    doc = shipped_doc()
    city_from_json(copy.deepcopy(doc), "test-doc")  # the unmutated document is fine
    mutate(doc)
    assert expected in fault(doc)


def test_not_an_object() -> None:
    for doc in (None, [], "city", 3, True):
        assert "format" in fault(doc)


def _paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value in ``node`` (dict keys and list indexes)."""
    out = [here]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*here, k))
    elif isinstance(node, list):
        for k, v in enumerate(node):
            out += _paths(v, (*here, k))
    return out


def _mutate(doc: Any, rng: np.random.Generator) -> None:
    """One random hostile change at a random place of ``doc``."""
    paths = [p for p in _paths(doc) if p]
    path = paths[int(rng.integers(len(paths)))]
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    replacements: list[Any] = [True, False, 0, -1, 2**70, 1.5, None, "", "Vasel & 1st", "Colfax 2",
                               "Nowhere", [], {}, ["x"] * 100_000, {"name": "x"}, "a\nb", "x" * 1000]
    kind = int(rng.integers(4))
    if kind == 0 and isinstance(parent, dict):
        del parent[key]
    elif kind == 0 and isinstance(parent, list):
        parent.pop(key)
    elif kind == 1 and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[key]))  # a duplicate entry
    else:
        parent[key] = replacements[int(rng.integers(len(replacements)))]


def test_fuzzed_documents_load_or_fail_cleanly() -> None:
    rng = np.random.default_rng(2103)
    outcomes = {"loaded": 0, "refused": 0}
    for _ in range(200):
        doc = shipped_doc()
        for _ in range(int(rng.integers(1, 4))):
            _mutate(doc, rng)
        try:
            city = city_from_json(doc, "fuzz")
        except BadStateError as err:
            message = str(err)
            assert "\n" not in message and message.startswith("precinct city fuzz: ")
            assert len(message) < 400, message
            outcomes["refused"] += 1
        else:
            assert len(city.streets) == len(city.ends)
            outcomes["loaded"] += 1
    assert outcomes["refused"] > 100  # the mutations do reach the checks


# --- files --------------------------------------------------------------------------------------------

def test_a_user_file_loads_and_a_missing_one_is_named(tmp_path: Path) -> None:
    doc = shipped_doc()
    doc["stand_in"] = False
    doc["buildings"] = [b if b["name"] != "Hospital" else {"name": "Hospital", "street": "Colfax 1"}
                        for b in doc["buildings"]]
    path = tmp_path / "my-city.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    city = load_city(str(path))
    assert city.stand_in is False and city.streets[city.buildings["Hospital"]] == "Colfax 1"
    assert city is not load_city(None)
    missing = tmp_path / "no-such-city.json"
    with pytest.raises(BadStateError, match="no-such-city.json") as err:
        load_city(str(missing))
    assert "\n" not in str(err.value)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(BadStateError, match="broken.json"):
        load_city(str(broken))
    doc["stand_in"] = "yes"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(BadStateError, match=f"precinct city {path}: 'stand_in'"):
        load_city(str(path))
