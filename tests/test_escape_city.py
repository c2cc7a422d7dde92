"""The Escape Plan city (solver/games/escape/city.py, data/city.json).

Movement is checked on hand-built tiny layouts, one case per row of the contract's table
(docs/escape-rules.md, "The city"), and against a brute-force reference written here: an exhaustive
walk over every (node, MP, subway, flights, sewers, tiles visited) state built straight from the tiles'
edges and the grid, sharing no code with ``Layout`` or ``reachable``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from solver.core.errors import BadStateError
from solver.games.escape import city as ecity
from solver.games.escape.city import (
    City,
    LandType,
    Layout,
    Location,
    Tile,
    Zone,
    distance,
    is_legal_placement,
    legal_placements,
    load_city,
    neighbors,
    reachable,
    rotate_edges,
    start_layout,
)

SHIPPED = Path(ecity.__file__).parent / "data" / "city.json"
I, C, R, W = LandType.INDUSTRIAL, LandType.COMMERCIAL, LandType.RESIDENTIAL, LandType.WATER  # noqa: E741
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # E NE NW W SW SE, as the contract says


def shipped_doc() -> Any:
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------ hand-built cities

def mk_city(specs: list[dict[str, Any]]) -> City:
    """A City straight from the dataclasses (no loader: hand cities break the set's counts on purpose).

    spec: ``edges`` (6 zone indices), ``zones`` [(LandType, ferry)], ``locs`` [(kind, zones, touches)]
    with touches as indices on the same tile, ``helipad``.
    """
    tiles: list[Tile] = []
    locs: list[Location] = []
    for t, s in enumerate(specs):
        first = len(locs)
        for k, (kind, zs, touch) in enumerate(s.get("locs", [])):
            locs.append(Location(first + k, t, kind, "", tuple(zs), tuple(first + j for j in touch)))
        zones = tuple(Zone(ty, f, tuple(d for d in range(6) if s["edges"][d] == z))
                      for z, (ty, f) in enumerate(s["zones"]))
        tiles.append(Tile(t, f"T{t}", "A", tuple(s["edges"]), zones, tuple(range(first, len(locs))),
                          s.get("helipad", False)))
    return City(tuple(tiles), tuple(locs), True, "")


def plain(ty: LandType, *locs: tuple[str, list[int], list[int]], ferry: bool = False,
          helipad: bool = False) -> dict[str, Any]:
    """A tile of one zone of type ``ty`` on all six edges."""
    return {"edges": [0] * 6, "zones": [(ty, ferry)], "locs": list(locs), "helipad": helipad}


BIZ: tuple[str, list[int], list[int]] = ("business", [0], [])


def sets(*groups: tuple[int, ...]) -> list[frozenset[int]]:
    return [frozenset(g) for g in groups]


# ------------------------------------------------------------------------------------------ the loader

def test_shipped_counts_match_the_brief() -> None:
    doc = shipped_doc()
    assert doc["format"] == "copsolver-escape-city/1" and doc["stand_in"] is True
    assert "NOT FOUND" in doc["note"]
    tiles = doc["tiles"]
    assert len(tiles) == 14
    assert sorted(t["stack"] for t in tiles) == ["A"] * 3 + ["B"] * 3 + ["C"] * 3 + ["D"] * 3 + ["start"] * 2
    kinds: dict[str, list[tuple[str, str]]] = {}
    for t in tiles:
        assert 1 <= len(t["locations"]) <= 3
        for loc in t["locations"]:
            kinds.setdefault(loc["kind"], []).append((loc["label"], t["stack"]))
    counts = {k: len(v) for k, v in kinds.items()}
    assert counts["business"] == 6 and counts["safe_house"] == 3 and counts["gang"] == 4
    assert counts["clinic"] == counts["church"] == counts["hospital"] == counts["heliport"] == 1
    assert 3 <= counts["subway"] <= 4
    assert sorted(lab for lab, _ in kinds["store"]) == ["A", "B", "C", "D"]
    assert sorted(lab for lab, _ in kinds["exit"]) == ["1", "2", "3"]
    exit_tiles = [t["name"] for t in tiles for loc in t["locations"] if loc["kind"] == "exit"]
    assert len(set(exit_tiles)) == 3
    assert all(t["stack"] != "start" for t in tiles for loc in t["locations"] if loc["kind"] == "exit")
    start = [t for t in tiles if t["stack"] == "start"]
    with_hospital = [t for t in start if any(loc["kind"] == "hospital" for loc in t["locations"])]
    assert len(with_hospital) == 1
    other = next(t for t in start if t is not with_hospital[0])
    assert any(loc["kind"] == "gang" for loc in other["locations"])
    helipads = [t for t in tiles if t["helipad"]]
    heliport_tile = next(t for t in tiles for loc in t["locations"] if loc["kind"] == "heliport")
    assert heliport_tile["helipad"] and 2 <= len(helipads) <= 3
    water = [z for t in tiles for z in t["zones"] if z["type"] == "water"]
    assert any(z["ferry"] for z in water) and any(not z["ferry"] for z in water)
    for t in tiles:
        assert all(any(e == z for e in t["edges"]) for z in range(len(t["zones"])))


def test_loaded_city_matches_the_file() -> None:
    city = load_city()
    doc = shipped_doc()
    assert city is load_city()  # built once
    assert city.stand_in and len(city.tiles) == 14
    flat = [(t, loc) for t, tile in enumerate(doc["tiles"]) for loc in tile["locations"]]
    assert len(city.locations) == len(flat)
    for i, (t, loc) in enumerate(flat):
        got = city.locations[i]
        assert (got.id, got.tile, got.kind, got.label) == (i, t, loc["kind"], loc["label"])
        assert city.tiles[t].locations.count(i) == 1
    assert city.tiles[city.hospital_tile].stack == "start"
    assert city.locations[city.hospital].kind == "hospital"
    assert city.gang_start_tile != city.hospital_tile
    assert city.labelled("store", "C") in city.of_kind("store")
    with pytest.raises(BadStateError):
        city.labelled("store", "E")


def test_user_file_round_trip(tmp_path: Path) -> None:
    doc = shipped_doc()
    doc["stand_in"] = False
    doc["tiles"][5]["name"] = "My Airfield"
    path = tmp_path / "city.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    city = load_city(str(path))
    assert not city.stand_in and city.tiles[5].name == "My Airfield"
    assert city.tiles[:5] == load_city().tiles[:5] and city.locations == load_city().locations


def _mutations() -> list[tuple[str, Any, str]]:
    def edit(fn: Any) -> Any:
        doc = shipped_doc()
        fn(doc)
        return doc

    def pop(d: dict[str, Any], k: str) -> None:
        d.pop(k)

    def put(d: dict[str, Any], k: str, v: Any) -> None:
        d[k] = v

    def retype(d: dict[str, Any], kind: str) -> None:
        d["kind"] = kind

    return [
        ("missing top key", edit(lambda d: pop(d, "note")), "lacks the key 'note'"),
        ("unknown top key", edit(lambda d: put(d, "extra", 1)), "unknown key 'extra'"),
        ("missing tile key", edit(lambda d: pop(d["tiles"][3], "helipad")), "lacks the key 'helipad'"),
        ("unknown zone key", edit(lambda d: put(d["tiles"][2]["zones"][0], "depth", 3)),
         "unknown key 'depth'"),
        ("edge to a missing zone", edit(lambda d: put(d["tiles"][4], "edges", [0, 0, 1, 1, 2, 7])),
         "edge 5 names zone 7"),
        ("zone without an edge", edit(lambda d: put(d["tiles"][4], "edges", [0, 0, 0, 1, 1, 1])),
         "zone 2 owns no edge"),
        ("five edges", edit(lambda d: put(d["tiles"][4], "edges", [0, 0, 1, 1, 2])),
         "'edges' must be a list"),
        ("ferry on land", edit(lambda d: put(d["tiles"][0]["zones"][0], "ferry", True)),
         "true only on water"),
        ("bad land type", edit(lambda d: put(d["tiles"][0]["zones"][0], "type", "lava")), "'type' 'lava'"),
        ("bad kind", edit(lambda d: retype(d["tiles"][0]["locations"][1], "casino")), "'kind' 'casino'"),
        ("one-way touch", edit(lambda d: put(d["tiles"][1]["locations"][1], "touches", [])),
         "does not list"),
        ("location without a zone", edit(lambda d: put(d["tiles"][1]["locations"][1], "zones", [])),
         "'zones' must be a list"),
        ("13 tiles", edit(lambda d: d["tiles"].pop()), "list of 14 tiles"),
        ("wrong business count", edit(lambda d: retype(d["tiles"][13]["locations"][0], "subway")),
         "6 business space(s), not 5"),
        ("store label twice", edit(lambda d: put(d["tiles"][5]["locations"][1], "label", "A")),
         "labelled A, B, C, D"),
        ("bad label", edit(lambda d: put(d["tiles"][1]["locations"][0], "label", "X")), "'label' 'X'"),
        ("heliport off a helipad", edit(lambda d: put(d["tiles"][5], "helipad", False)), "helipad tile"),
        ("stack letter", edit(lambda d: put(d["tiles"][5], "stack", "E")), "'stack' 'E'"),
        ("tiles not a list", edit(lambda d: put(d, "tiles", {"a": 1})), "list of 14 tiles, not dict"),
        ("wrong format", edit(lambda d: put(d, "format", "copsolver-escape-city/2")),
         "expected a JSON object"),
        ("huge zone list",
         edit(lambda d: put(d["tiles"][0], "zones", [{"type": "water", "ferry": False}] * 10**5)),
         "'zones' must be a list of 1..6"),
    ]


@pytest.mark.parametrize(("name", "doc", "fault"), _mutations(), ids=[m[0] for m in _mutations()])
def test_bad_files_fail_with_one_line(tmp_path: Path, name: str, doc: Any, fault: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(BadStateError) as err:
        load_city(str(path))
    message = str(err.value)
    assert fault in message and "\n" not in message and message.startswith(f"escape city {path}:")


def test_unreadable_files(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(BadStateError, match="not valid JSON"):
        load_city(str(path))
    with pytest.raises(BadStateError, match="cannot read it"):
        load_city(str(tmp_path / "missing.json"))


# --------------------------------------------------------------------------------------------- the grid

def test_neighbors_and_distance() -> None:
    assert neighbors((0, 0)) == DIRS
    assert neighbors((2, -1))[3] == (1, -1)
    # hex distance against a breadth-first search over neighbours
    seen = {(0, 0): 0}
    queue = deque([(0, 0)])
    while queue:
        c = queue.popleft()
        if seen[c] == 4:
            continue
        for d in DIRS:
            nb = (c[0] + d[0], c[1] + d[1])
            if nb not in seen:
                seen[nb] = seen[c] + 1
                queue.append(nb)
    assert len(seen) == 1 + 6 * (1 + 2 + 3 + 4)
    for cell, steps in seen.items():
        assert distance((0, 0), cell) == steps
        assert distance((3, -2), (3 + cell[0], -2 + cell[1])) == steps


def test_rotation() -> None:
    edges = (0, 1, 2, 3, 4, 5)
    assert rotate_edges(edges, 1) == (5, 0, 1, 2, 3, 4)  # edge d holds the unrotated edge d - 1
    assert rotate_edges(edges, 3) == (3, 4, 5, 0, 1, 2)
    assert rotate_edges(rotate_edges(edges, 2), 4) == edges
    city = load_city()
    tile = city.tiles[4]
    for k in range(6):
        turned = rotate_edges(tile.edges, k)
        assert [tile.edge_type(d, k) for d in range(6)] == [tile.zones[turned[d]].type for d in range(6)]


# ---------------------------------------------------------------------------------------- placement

def test_start_layouts_connect() -> None:
    city = load_city()
    for first in city.start_tiles:
        for k in (0, 3):
            placed = start_layout(city, first, k)
            assert set(placed) == {(0, 0), (1, 0)} and placed[(0, 0)] == (first, k)
            (a, ka), (b, kb) = placed[(0, 0)], placed[(1, 0)]
            assert ka == kb == k and {a, b} == set(city.start_tiles)
            # the stand-in start tiles share a Land type across their common edge in all 4 outcomes
            ea = city.tiles[a].zones[city.tiles[a].edges[(0 - k) % 6]].type
            eb = city.tiles[b].zones[city.tiles[b].edges[(3 - k) % 6]].type
            assert ea == eb
    with pytest.raises(BadStateError):
        start_layout(city, city.start_tiles[0], 1)
    with pytest.raises(BadStateError):
        start_layout(city, 5, 0)


def test_placement_hand_cases() -> None:
    # tiles 0, 1 commercial; 2 residential; 3 half commercial (edges 0..2), half industrial (3..5)
    city = mk_city([plain(C), plain(C), plain(R),
                    {"edges": [0, 0, 0, 1, 1, 1], "zones": [(C, False), (I, False)], "locs": []}])
    placed = {(0, 0): (0, 0), (1, 0): (1, 0)}
    # (0,1) is SE of (0,0) and SW of (1,0): two neighbours; (2,0) touches only (1,0)
    assert is_legal_placement(city, placed, 3, (0, 1), 0)
    assert not is_legal_placement(city, {(0, 0): (0, 0)}, 3, (1, 0), 0)  # one neighbour only
    assert not is_legal_placement(city, placed, 3, (2, 0), 0)
    assert not is_legal_placement(city, placed, 2, (0, 1), 0)  # no Land type matches
    assert legal_placements(city, placed, 2) == []
    assert not is_legal_placement(city, placed, 3, (0, 0), 0)  # occupied
    # tile 3 at (0,1): its NW edge (d=2) faces (0,0), its NE edge (d=1) faces (1,0). Unrotated both are
    # commercial; turned by 3 the industrial half faces them (edges d=1,2 hold unrotated 4,5).
    assert not is_legal_placement(city, placed, 3, (0, 1), 3)
    got = legal_placements(city, placed, 3)
    assert got == sorted(got)
    cells = {c for c, _ in got}
    assert cells == {(0, 1), (1, -1)}
    for cell, k in got:
        faces = [(d, placed[nb]) for d, nb in enumerate(neighbors(cell)) if nb in placed]
        assert len(faces) >= 2
        assert any(city.tiles[3].zones[city.tiles[3].edges[(d - k) % 6]].type == C for d, _ in faces)
    with pytest.raises(BadStateError):
        legal_placements(city, placed, 1)  # already placed


def random_layout(city: City, rng: np.random.Generator, size: int) -> dict[tuple[int, int], tuple[int, int]]:
    """A random legal city of ``size`` tiles: the start, then tiles in random order where they fit."""
    placed = start_layout(city, city.start_tiles[int(rng.integers(2))], int(rng.choice([0, 3])))
    rest = [t for t in range(len(city.tiles)) if t not in city.start_tiles]
    rng.shuffle(rest)
    for t in rest:
        if len(placed) >= size:
            break
        options = legal_placements(city, placed, t)
        if options:
            cell, k = options[int(rng.integers(len(options)))]
            placed[cell] = (t, k)
    return placed


def test_legal_placements_against_the_rule() -> None:
    city = load_city()
    rng = np.random.default_rng(23)
    for _ in range(20):
        placed = random_layout(city, rng, int(rng.integers(2, 13)))
        left = [t for t in range(14) if t not in {t for t, _ in placed.values()}]
        tile = left[int(rng.integers(len(left)))]
        expect = []
        qs = [c[0] for c in placed]
        rs = [c[1] for c in placed]
        for q in range(min(qs) - 1, max(qs) + 2):
            for r in range(min(rs) - 1, max(rs) + 2):
                if (q, r) in placed:
                    continue
                for k in range(6):
                    touching = 0
                    match = False
                    for d, (dq, dr) in enumerate(DIRS):
                        there = placed.get((q + dq, r + dr))
                        if there is None:
                            continue
                        touching += 1
                        mine = city.tiles[tile].zones[city.tiles[tile].edges[(d - k) % 6]].type
                        u, ku = there
                        theirs = city.tiles[u].zones[city.tiles[u].edges[((d + 3) % 6 - ku) % 6]].type
                        match = match or mine == theirs
                    if touching >= 2 and match:
                        expect.append(((q, r), k))
        assert legal_placements(city, placed, tile) == sorted(expect)


def test_full_cities_place_every_tile() -> None:
    city = load_city()
    rng = np.random.default_rng(5)
    for _ in range(30):
        assert len(random_layout(city, rng, 14)) == 14


# ----------------------------------------------------------------------------------- movement by hand

def test_same_tile_moves_leave_nothing() -> None:
    city = mk_city([plain(C, BIZ, ("store", [0], []), ("church", [0], [0]))])
    lay = Layout.of(city, {(0, 0): (0, 0)})
    assert reachable(lay, 0, 3) == {1: sets(()), 2: sets(())}
    assert reachable(lay, 0, 1) == {2: sets(())}  # Location to a touching Location: 1 MP
    assert reachable(lay, 0, 0) == {}


def test_leave_cross_enter_on_one_tile() -> None:
    city = mk_city([{"edges": [0, 0, 0, 1, 1, 1], "zones": [(C, False), (R, False)],
                     "locs": [BIZ, ("store", [1], [])]}])
    lay = Layout.of(city, {(0, 0): (0, 0)})
    assert reachable(lay, 0, 2) == {}  # leave 1 + cross 1 + enter 1 = 3
    assert reachable(lay, 0, 3) == {1: sets(())}


def test_same_type_is_free_across_tiles_and_passing_adds_tiles() -> None:
    city = mk_city([plain(C, BIZ), plain(C), plain(C, BIZ)])
    lay = Layout.of(city, {(0, 0): (0, 0), (1, 0): (1, 0), (2, 0): (2, 0)})
    assert reachable(lay, 0, 2) == {1: sets((0, 1))}  # leave, 0 MP over two tiles, enter
    assert reachable(lay, 1, 2) == {0: sets((1, 2))}
    assert reachable(lay, 0, 1) == {}


def test_crossing_types_across_tiles_costs() -> None:
    city = mk_city([plain(C, BIZ), plain(R, BIZ)])
    lay = Layout.of(city, {(0, 0): (0, 0), (1, 0): (1, 0)})
    assert reachable(lay, 0, 2) == {}
    assert reachable(lay, 0, 3) == {1: sets((0,))}


def test_water_ferry_no_ferry_and_jet_ski() -> None:
    for ferry in (True, False):
        city = mk_city([plain(C, BIZ), plain(W, ferry=ferry), plain(C, BIZ)])
        lay = Layout.of(city, {(0, 0): (0, 0), (1, 0): (1, 0), (2, 0): (2, 0)})
        assert lay.bodies == (((1, 0),),) and lay.body_ferry == (ferry,)
        expect = {1: sets((0, 1))}  # leave 1, onto water 1, off water 1, enter 1
        assert reachable(lay, 0, 4) == (expect if ferry else {})
        assert reachable(lay, 0, 3) == {}
        assert reachable(lay, 0, 4, jet_ski=0) == expect
        assert lay.ferryless_bodies() == (() if ferry else (0,))
    with pytest.raises(BadStateError):
        reachable(lay, 0, 4, jet_ski=1)


def test_ferry_anywhere_on_the_body_opens_it() -> None:
    # the body spans tiles 1 and 3; only tile 3's water shows the ferry ("Water")
    city = mk_city([plain(C, BIZ), plain(W), plain(C, BIZ), plain(W, ferry=True)])
    # the water tiles at (1,0) and (0,1) touch each other and both touch (0,0) and (1,1)
    lay = Layout.of(city, {(0, 0): (0, 0), (1, 0): (1, 0), (1, 1): (2, 0), (0, 1): (3, 0)})
    assert lay.bodies == (((1, 0), (3, 0)),) and lay.body_ferry == (True,)
    assert reachable(lay, 0, 4) == {1: sets((0, 1), (0, 3))}


def test_detour_over_other_tiles_and_its_subset() -> None:
    # tile 0: commercial halves 0 (edges 0, 5) and 2 (edges 2, 3) split by a water zone 1 (edges 1, 4);
    # tiles E, NE, NW of it are commercial and join the halves around the water for 0 MP
    split = {"edges": [0, 1, 2, 2, 1, 0], "zones": [(C, False), (W, False), (C, False)],
             "locs": [("business", [0], []), ("store", [2], [])]}
    city = mk_city([split, plain(C), plain(C), plain(C)])
    lay = Layout.of(city, {(0, 0): (0, 0), (1, 0): (1, 0), (1, -1): (2, 0), (0, -1): (3, 0)})
    assert reachable(lay, 0, 2) == {1: sets((1, 2, 3))}  # back on the start tile: the others were left
    water = lay.bodies.index(((0, 1),))
    assert reachable(lay, 0, 4, jet_ski=water) == {1: sets(())}  # the superset route is dropped
    # without the detour tiles, the jet ski route alone
    alone = Layout.of(city, {(0, 0): (0, 0)})
    assert reachable(alone, 0, 4) == {}
    assert reachable(alone, 0, 4, jet_ski=0) == {1: sets(())}


def test_two_minimal_routes_are_both_listed_in_order() -> None:
    city = mk_city([plain(C, BIZ), plain(C), plain(C), plain(C, BIZ)])
    lay = Layout.of(city, {(0, 0): (0, 0), (1, 0): (1, 0), (1, -1): (2, 0), (2, -1): (3, 0)})
    assert reachable(lay, 0, 2) == {1: sets((0, 1), (0, 2))}  # via both 1 and 2 is a superset


def subway_city() -> tuple[City, Layout]:
    city = mk_city([plain(C, BIZ, ("subway", [0], [])), plain(I), plain(R, ("subway", [0], []), BIZ)])
    return city, Layout.of(city, {(0, 0): (0, 0), (1, 0): (1, 0), (2, 0): (2, 0)})


def test_subway_jump_is_free_adds_one_mp_and_skips_tiles() -> None:
    _, lay = subway_city()
    # business 0 on tile 0, subways 1 (tile 0) and 2 (tile 2), business 3 on tile 2
    got = reachable(lay, 0, 3)
    assert got[1] == sets(())  # 2 MP on the tile
    assert got[2] == sets((0,))  # 2 MP, then the jump; tile 1 is skipped
    # to 3: 2 MP + jump + 2 MP = 4 = 3 + the subway's extra MP; walking costs 4 too, leaving 0 and 1
    assert got[3] == sets((0,))
    assert reachable(lay, 0, 2) == {1: sets(()), 2: sets((0,))}  # 4 MP is 2 + 1 short
    # starting on the subway: the jump alone is a Travel (0 MP)
    assert reachable(lay, 1, 0) == {2: sets((0,))}
    # with 1 MP + the extra: on to business 3, or jump there and back and walk to business 0 (2 MP),
    # which leaves tile 2 (its officers) for the extra MP
    assert reachable(lay, 1, 1) == {0: sets((2,)), 2: sets((0,)), 3: sets((0,))}


def test_subway_needs_two_stations() -> None:
    city = mk_city([plain(C, BIZ, ("subway", [0], [])), plain(C, BIZ)])
    lay = Layout.of(city, {(0, 0): (0, 0), (1, 0): (1, 0)})
    assert reachable(lay, 0, 1) == {}  # no second station: no jump and no extra MP


def heli_city(kind: str, helipad: bool) -> Layout:
    city = mk_city([plain(C, (kind, [0], []), helipad=helipad), plain(I), plain(R, BIZ), plain(I, BIZ)])
    # tile 2 is 2 away, tile 3 is 3 away
    return Layout.of(city, {(0, 0): (0, 0), (1, 0): (1, 0), (2, 0): (2, 0), (3, 0): (3, 0)})


def test_heliport_flies_one_or_two_tiles() -> None:
    lay = heli_city("heliport", True)
    got = reachable(lay, 0, 1)
    assert got == {1: sets((0,))}  # 1 MP straight onto the Location two tiles away, tile 1 skipped
    got = reachable(lay, 0, 2)
    # 2 MP: fly to tile 2's zone and enter (1 + 1), or fly to tile 1's zone and cross to tile 2 ... (3)
    assert got[1] == sets((0,))
    # tile 3's business: fly to tile 2's zone (1), cross R -> I (1), enter (1) = 3 > 2
    assert 2 not in got
    assert reachable(lay, 0, 3)[2] == sets((0, 2))
    plain_lay = heli_city("business", True)
    assert reachable(plain_lay, 0, 2) == {}  # no heliport and no flights: 1 + 1 + 1 + 1 to tile 2


def test_helipad_flights_spend_a_resource() -> None:
    lay = heli_city("business", True)
    assert reachable(lay, 0, 1, flights=1) == {1: sets((0,))}  # from the Location itself, 1 MP
    assert reachable(lay, 0, 1, flights=0) == {}
    ground = heli_city("business", False)
    assert reachable(ground, 0, 1, flights=1) == {}  # not a helipad tile


def test_sewer_skips_tiles_and_costs_by_land_type() -> None:
    same = mk_city([plain(C, BIZ), plain(I), plain(C, BIZ)])
    lay = Layout.of(same, {(0, 0): (0, 0), (1, 0): (1, 0), (2, 0): (2, 0)})
    assert reachable(lay, 0, 2) == {}
    assert reachable(lay, 0, 2, sewers=1) == {1: sets((0,))}  # leave 1, sewer C -> C 0, enter 1
    other = mk_city([plain(C, BIZ), plain(I), plain(R, BIZ)])
    lay = Layout.of(other, {(0, 0): (0, 0), (1, 0): (1, 0), (2, 0): (2, 0)})
    assert reachable(lay, 0, 2, sewers=1) == {}
    assert reachable(lay, 0, 3, sewers=1) == {1: sets((0,))}  # C -> R costs 1; walking gives {0, 1}
    assert reachable(lay, 0, 4) == {1: sets((0, 1))}


def test_argument_checks() -> None:
    _, lay = subway_city()
    with pytest.raises(BadStateError):
        reachable(lay, 99, 3)
    with pytest.raises(BadStateError):
        reachable(lay, 0, -1)
    with pytest.raises(BadStateError):
        reachable(lay, 0, 3, flights=99)
    city = load_city()
    with pytest.raises(BadStateError):
        Layout.of(city, {(0, 0): (0, 0), (1, 0): (0, 0)})
    # results are copies: changing one does not change the memo
    got = reachable(lay, 0, 3)
    got[1].append(frozenset({7}))
    assert reachable(lay, 0, 3)[1] == sets(())


# ------------------------------------------------------------------------------------- brute force

def brute(city: City, placed: Mapping[tuple[int, int], tuple[int, int]], start: int, mp: int,
          jet: frozenset[tuple[int, int]] | None, flights: int,
          sewers: int) -> dict[int, list[frozenset[int]]]:
    """Every walk of the Travel rules, state by state with its full set of visited tiles, no pruning."""
    cell = {t: c for c, (t, _) in placed.items()}
    onboard = sorted(cell)

    def ztype(t: int, z: int) -> LandType:
        return city.tiles[t].zones[z].type

    # zone moves: same tile (consecutive edges) and across a shared edge
    zmoves: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for t in onboard:
        tile = city.tiles[t]
        for z in range(len(tile.zones)):
            zmoves.setdefault((t, z), set())
        for d in range(6):
            a, b = tile.edges[d], tile.edges[(d + 1) % 6]
            if a != b:
                zmoves[t, a].add((t, b))
                zmoves[t, b].add((t, a))
    for c, (t, k) in placed.items():
        for d, (dq, dr) in enumerate(DIRS):
            there = placed.get((c[0] + dq, c[1] + dr))
            if there is not None:
                u, ku = there
                zmoves[t, city.tiles[t].edges[(d - k) % 6]].add((u, city.tiles[u].edges[((d + 3 - ku) % 6)]))
    # bodies of water by flood fill over water-to-water moves
    body: dict[tuple[int, int], frozenset[tuple[int, int]]] = {}
    for z in zmoves:
        if ztype(*z) == W and z not in body:
            comp = {z}
            todo = [z]
            while todo:
                x = todo.pop()
                for y in zmoves[x]:
                    if ztype(*y) == W and y not in comp:
                        comp.add(y)
                        todo.append(y)
            for x in comp:
                body[x] = frozenset(comp)

    def ok(node: tuple[Any, ...]) -> bool:
        if node[0] == "l":
            return True
        z = (node[1], node[2])
        if z not in body:
            return True
        return body[z] == jet or any(city.tiles[t].zones[zz].ferry for t, zz in body[z])

    def tile_of(node: tuple[Any, ...]) -> int:
        return int(node[1]) if node[0] == "z" else city.locations[node[1]].tile

    locs = [loc for t in onboard for loc in city.tiles[t].locations]
    subways = [i for i in locs if city.locations[i].kind == "subway"]
    if len(subways) < 2:
        subways = []
    everything = [("z", t, z) for (t, z) in zmoves] + [("l", i) for i in locs]

    def moves(node: tuple[Any, ...], fl: int, sw: int) -> list[tuple[tuple[Any, ...], int, int, int, int]]:
        """(next, MP, subway used, flights used, sewers used)"""
        out: list[tuple[tuple[Any, ...], int, int, int, int]] = []
        t = tile_of(node)
        if node[0] == "l":
            loc = city.locations[node[1]]
            out += [(("z", t, z), 1, 0, 0, 0) for z in loc.zones]
            out += [(("l", j), 1, 0, 0, 0) for j in loc.touches]
            if node[1] in subways:
                out += [(("l", j), 0, 1, 0, 0) for j in subways if j != node[1]]
        else:
            z = node[2]
            out += [(("z", u, y), 0 if ztype(u, y) == ztype(t, z) else 1, 0, 0, 0) for u, y in zmoves[t, z]]
            out += [(("l", i), 1, 0, 0, 0) for i in city.tiles[t].locations if z in city.locations[i].zones]
            if sw:
                out += [(n, 0 if ztype(n[1], n[2]) == ztype(t, z) else 1, 0, 0, 1) for n in everything
                        if n[0] == "z" and distance(cell[n[1]], cell[t]) == 2]
        landings = [n for n in everything if 1 <= distance(cell[tile_of(n)], cell[t]) <= 2]
        if node[0] == "l" and city.locations[node[1]].kind == "heliport":
            out += [(n, 1, 0, 0, 0) for n in landings]
        if fl and city.tiles[t].helipad:
            out += [(n, 1, 0, 1, 0) for n in landings]
        return [m for m in out if ok(m[0])]

    limit = mp + 1 if subways else mp
    first = ("l", start, 0, 0, flights, sewers, frozenset({tile_of(("l", start))}))
    seen = {first}
    todo = [first]
    found: dict[int, set[frozenset[int]]] = {}
    while todo:
        *node_l, spent, used, fl, sw, visited = todo.pop()
        node = tuple(node_l)
        if node[0] == "l" and node[1] != start and spent <= mp + used:
            found.setdefault(node[1], set()).add(visited - {tile_of(node)})
        for nxt, cost, u, f, s in moves(node, fl, sw):
            if spent + cost > limit:
                continue
            st = (*nxt, spent + cost, used | u, fl - f, sw - s, visited | {tile_of(nxt)})
            if st not in seen:
                seen.add(st)
                todo.append(st)
    out: dict[int, list[frozenset[int]]] = {}
    for loc, got in found.items():
        minimal = [s for s in got if not any(o < s for o in got)]
        out[loc] = sorted(minimal, key=lambda s: (len(s), sorted(s)))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_reachable_equals_brute_force(seed: int) -> None:
    city = load_city()
    rng = np.random.default_rng(1000 + seed)
    checked = 0
    for _ in range(6):
        placed = random_layout(city, rng, int(rng.integers(2, 8)))
        lay = Layout.of(city, placed)
        for _ in range(4):
            start = lay.locations[int(rng.integers(len(lay.locations)))]
            mp = int(rng.integers(1, 5))
            jet = None
            if lay.bodies and rng.random() < 0.5:
                jet = int(rng.integers(len(lay.bodies)))
            flights = int(rng.integers(0, 2))
            sewers = int(rng.integers(0, 2))
            want = brute(city, placed, start, mp, None if jet is None else frozenset(lay.bodies[jet]),
                         flights, sewers)
            assert reachable(lay, start, mp, jet_ski=jet, flights=flights, sewers=sewers) == want, (
                placed, start, mp, jet, flights, sewers)
            checked += len(want)
    assert checked > 0


def test_brute_force_on_hand_subway_case() -> None:
    """The reference agrees with the hand-worked subway case, so it is no copy of a wrong search."""
    city, lay = subway_city()
    placed = dict(lay.placed)
    assert brute(city, placed, 0, 3, None, 0, 0) == {1: sets(()), 2: sets((0,)), 3: sets((0,))}


def test_shipped_city_is_playable() -> None:
    """Most Location pairs are reachable in 3 MP on full random cities (the stand-in's design aim)."""
    city = load_city()
    rng = np.random.default_rng(77)
    pairs = hits = 0
    for _ in range(10):
        lay = Layout.of(city, random_layout(city, rng, 14))
        for a in lay.locations:
            pairs += len(lay.locations) - 1
            hits += len(reachable(lay, a, 3))
    assert hits / pairs > 0.6


@pytest.mark.slow
def test_reachable_equals_brute_force_on_full_cities() -> None:
    city = load_city()
    rng = np.random.default_rng(9)
    for _ in range(8):
        placed = random_layout(city, rng, 14)
        lay = Layout.of(city, placed)
        for _ in range(3):
            start = lay.locations[int(rng.integers(len(lay.locations)))]
            mp = int(rng.integers(2, 5))
            flights = int(rng.integers(0, 2))
            sewers = int(rng.integers(0, 2))
            jet = int(rng.integers(len(lay.bodies))) if lay.bodies else None
            want = brute(city, placed, start, mp, None if jet is None else frozenset(lay.bodies[jet]),
                         flights, sewers)
            assert reachable(lay, start, mp, jet_ski=jet, flights=flights, sewers=sewers) == want
