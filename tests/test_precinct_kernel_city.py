"""``ext/precinct_city.pyx`` (CCity) against its pure twin ``solver.games.precinct.city`` (City).

On the shipped map, on maps edited from it (a dead end, a parallel street sharing both intersections
of another, a street cut back to one end) and on a hand-built disconnected map: every street, every
step count the rules can ask for (negative, 0 up to past the map's diameter) and a few hundred blocked
intersection sets from seeded Generators give the same ``reach`` / ``moves`` / ``path`` as City; and
``distance``, ``hood_of``, ``streets_at``, ends, hoods and buildings agree. The sticky-street search is
held to ``turn.reachable`` (the blockers gang). The action ids of ``solver/_ext/precinct_codec.pxd``
are compared name by name with ``codec.py``.

The compiled module is imported directly, so the comparison also runs under
``COPSOLVER_PUREPYTHON=1`` whenever it is built; it skips when it is not built, except under
``COPSOLVER_REQUIRE_COMPILED=1``, where a missing module fails.
"""

from __future__ import annotations

import copy
import importlib
import os
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np
import pytest

from solver.core import files
from solver.core.errors import BadStateError
from solver.games.precinct import codec, turn
from solver.games.precinct.city import City, city_from_json, load_city

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")


def _import_compiled() -> ModuleType | None:
    try:
        return importlib.import_module("solver._ext.precinct_city")
    except ImportError:
        return None


compiled = _import_compiled()


def _kernel() -> ModuleType:
    """The compiled module; skip without it, unless the build was required to make it."""
    if compiled is None:
        if REQUIRE_COMPILED:
            pytest.fail("COPSOLVER_REQUIRE_COMPILED=1 but solver._ext.precinct_city does not import")
        pytest.skip("solver._ext.precinct_city is not built (pip install -e . needs Cython and a C compiler)")
    return compiled


def _shipped_json() -> dict[str, Any]:
    data = files.read_shipped("solver.games.precinct", "data/city.json")
    assert isinstance(data, dict)
    return data


def _edited_city() -> City:
    """The shipped map with a dead end added, a street doubling another (both ends shared) and one
    two-ended street cut back to a dead end: the loader's checks pass, the tables all change."""
    data = copy.deepcopy(_shipped_json())
    streets = data["streets"]
    two = [s for s in streets if len(s["ends"]) == 2]
    streets.append({"name": "Parallel Lane", "ends": list(reversed(two[0]["ends"]))})
    streets.append({"name": "Stub Alley", "ends": [two[1]["ends"][0]]})
    shipped = load_city(None)
    for entry in two[2:]:  # cut the first street whose loss keeps the map connected
        ends = entry["ends"]
        entry["ends"] = ends[:1]
        try:
            edited = city_from_json(data, "(edited in the test)")
        except BadStateError:
            entry["ends"] = ends
            continue
        assert edited.ends != shipped.ends and len(edited.streets) == len(shipped.streets) + 2
        return edited
    raise AssertionError("no street of the shipped map could be cut back")


def _hand_city(ends: list[tuple[int, ...]], intersections: int) -> City:
    """A City built without the loader (it may be disconnected or too large); one building per
    block's apartment and warehouse, all on street 0."""
    names = [f"A{b}" for b in range(1, 7)] + [f"W{b}" for b in range(1, 7)]
    hoods = tuple((h % len(ends),) for h in range(6))
    return City(tuple(f"s{k}" for k in range(len(ends))), tuple(f"i{k}" for k in range(intersections)),
                tuple(ends), hoods, {n: 0 for n in names}, tuple(names[:6]), tuple(names[6:]), True)


def _blocked_sets(city: City, rng: np.random.Generator, count: int) -> list[frozenset[int]]:
    """Nothing, everything, each intersection alone, and ``count`` random sets of varied density."""
    n = len(city.intersections)
    sets = [frozenset(), frozenset(range(n)), *(frozenset({i}) for i in range(n))]
    for _ in range(count):
        p = rng.choice((0.05, 0.15, 0.3, 0.6))
        sets.append(frozenset(int(i) for i in np.flatnonzero(rng.random(n) < p)))
    return sets


def _check_tables(city: City, kc: Any) -> None:
    n, ni = len(city.streets), len(city.intersections)
    assert (kc.n_streets, kc.n_intersections) == (n, ni)
    for i in range(ni):
        assert kc.streets_at(i) == city.streets_at(i)
    for s in range(n):
        assert kc.ends(s) == city.ends[s]
        assert kc.hood_of(s) == city.hood_of(s)
        for t in range(n):
            assert kc.distance(s, t) == city.distance(s, t)
    for h in range(1, 7):
        members, mask = kc.hood_streets(h)
        assert members == city.hood_streets[h - 1]
        assert mask == sum(1 << s for s in members)
    assert kc.building_streets() == tuple(city.buildings.values())
    names = list(city.buildings)
    apartments, warehouses = kc.block_buildings()
    assert tuple(names[b] for b in apartments) == city.apartments
    assert tuple(names[b] for b in warehouses) == city.warehouses
    where = city.buildings
    assert kc.station_hospital() == (where.get("Police Station", -1), where.get("Hospital", -1))


def _check_searches(city: City, kc: Any, rng: np.random.Generator, random_sets: int) -> None:
    n = len(city.streets)
    steps_range = [*range(-1, 10), n - 1, n, n + 3]  # a car spends up to 19 donuts on top of its moves
    for blocked in _blocked_sets(city, rng, random_sets):
        for s in range(n):
            for steps in steps_range:
                want = city.reach(s, steps, blocked)
                assert kc.reach(s, steps, blocked) == dict(want), (s, steps, sorted(blocked))
                assert kc.moves(s, steps, blocked) == sorted(city.moves(s, steps, blocked))
                assert kc.moves(s, steps, blocked, through_blocked=True) == sorted(
                    city.moves(s, steps, blocked, through_blocked=True))
        pairs = [(a, b) for a in range(n) for b in range(n)] if len(blocked) <= 1 else [
            (int(a), int(b)) for a, b in rng.integers(0, n, size=(25, 2))]
        for a, b in pairs:
            assert kc.path(a, b, blocked) == city.path(a, b, blocked), (a, b, sorted(blocked))


@pytest.mark.parametrize("which", ["shipped", "edited"])
def test_compiled_equals_pure(which: str) -> None:
    """The compiled city answers every query as City does, on the shipped map and an edited one."""
    kernel = _kernel()
    city = load_city(None) if which == "shipped" else _edited_city()
    kc = kernel.CCity(city)
    assert kc.city is city
    _check_tables(city, kc)
    seed, sets = (22, 200) if which == "shipped" else (23, 120)
    _check_searches(city, kc, np.random.default_rng(seed), sets)


def test_edited_map_differs_from_shipped() -> None:
    """The edited map is a real test of independence: its answers differ from the shipped map's."""
    kernel = _kernel()
    shipped, edited = kernel.CCity(load_city(None)), kernel.CCity(_edited_city())
    parallel = len(edited.city.streets) - 2  # the street doubling another: blocking one end leaves it open
    twin = edited.city.street_ids[next(s["name"] for s in _shipped_json()["streets"] if len(s["ends"]) == 2)]
    assert edited.city.ends[parallel] == tuple(reversed(edited.city.ends[twin]))
    assert edited.distance(parallel, twin) == 1
    for i in edited.city.ends[twin]:
        assert twin in edited.reach(parallel, 1, {i})
    assert twin not in edited.reach(parallel, 1, set(edited.ends(twin)))
    assert any(shipped.distance(s, t) != edited.distance(s, t)
               for s in range(shipped.n_streets) for t in range(shipped.n_streets))


def test_disconnected_hand_built_city() -> None:
    """A City built by hand may be disconnected: distance n + 1, no path, reach stays in its part."""
    kernel = _kernel()
    # streets 0-1-2 along intersections 0, 1; street 3 alone on 2; street 4 a dead end on 1
    city = _hand_city([(0,), (0, 1), (1,), (2,), (1,)], 3)
    kc = kernel.CCity(city)
    _check_tables(city, kc)
    _check_searches(city, kc, np.random.default_rng(5), 30)
    assert kc.distance(0, 3) == 6 and kc.path(0, 3) == [] and kc.reach(3, 9) == {3: 0}


def test_sticky_streets_match_turn_reachable() -> None:
    """city_reach's sticky streets are turn.reachable's blockers gang: entered, never driven through."""
    kernel = _kernel()
    city = load_city(None)
    kc = kernel.CCity(city)
    rng = np.random.default_rng(7)
    content = SimpleNamespace(gangs=("blockers",), characters=[SimpleNamespace(powers=())] * 2)
    for blocked in _blocked_sets(city, rng, 40):
        for _ in range(6):
            gangs = [0 if rng.random() < 0.4 else -1 for _ in range(6)]
            motorcycle = bool(rng.random() < 0.3)
            st = SimpleNamespace(game=SimpleNamespace(city=city, content=content), gangs=gangs,
                                 blocked=lambda b=blocked: b, has=lambda cop, power, m=motorcycle: m)
            sticky = {s for h in range(6) if gangs[h] == 0 for s in city.hood_streets[h]}
            for s in range(len(city.streets)):
                for steps in (0, 1, 2, 3, 5, 8):
                    want = turn.reachable(st, SimpleNamespace(street=s), steps)  # type: ignore[arg-type]
                    got = kc.reach(s, steps, frozenset() if motorcycle else blocked, sticky)
                    assert got == want, (s, steps, sorted(blocked), sorted(sticky), motorcycle)


def test_limits_raise_bad_state() -> None:
    """More than 64 streets, or a street without ends, does not fit the C tables: BadStateError."""
    kernel = _kernel()
    chain = [(0,), *((k - 1, k) for k in range(1, 64)), (63,)]  # 65 streets on 64 intersections
    with pytest.raises(BadStateError, match="64"):
        kernel.CCity(_hand_city(chain, 64))
    kernel.CCity(_hand_city(chain[:64], 64))  # 64 fit
    with pytest.raises(BadStateError, match="ends"):
        kernel.CCity(_hand_city([(0,), ()], 1))
    kc = kernel.CCity(load_city(None))
    with pytest.raises(IndexError):
        kc.distance(0, kc.n_streets)
    with pytest.raises(IndexError):
        kc.streets_at(-1)


def test_codec_constants_equal_python() -> None:
    """Every public constant of codec.py is in precinct_codec.pxd with its value, and every block's size."""
    kernel = _kernel()
    got = kernel.codec_constants()
    want = {name: value for name, value in vars(codec).items()
            if name.isupper() and not name.startswith("_") and type(value) is int}
    assert got["names"] == want
    assert got["sizes"] == {start: size for start, size, _ in codec._BLOCKS}
