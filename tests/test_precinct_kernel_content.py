"""The Police Precinct content in C (``ext/precinct_content.pyx``) holds exactly the game's content.

For the shipped content at 1, 2, 4 and 6 players, with and without dirty cops and with every option
moved off its default, and for a user's content and city files (cards reordered and changed, a special
left out, a gang repeated, the city's lists reversed so every id moves), ``to_core()`` is compared with a
dict built here from ``game.content``, ``game.city`` and the game's options. Event locations are
resolved by the rules themselves (``eventcards._place_fixed`` on a fresh state), the places by the
names the rules use (``eventcards.ESCORT_TO``, ``_ESCAPE_ROUTE``, ``game.station``, the initial
stacks). The .pxd constants are held to content.py's tuples, and doctored content past each bound
raises :class:`BadStateError`.

The compiled module is imported directly, so these tests run even under ``COPSOLVER_PUREPYTHON=1``
when it is built; they skip when it is not, except under ``COPSOLVER_REQUIRE_COMPILED=1``.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import os
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from solver.core import BadStateError
from solver.games.precinct import codec, eventcards
from solver.games.precinct import content as pc
from solver.games.precinct.board import AT_BUILDING, AT_CROSSING, AT_STREET
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState
from solver.search.precinct_value import _of as value_consts

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")


def _import_compiled() -> ModuleType | None:
    try:
        return importlib.import_module("solver._ext.precinct_content")
    except ImportError:
        if REQUIRE_COMPILED:
            raise
        return None


compiled = _import_compiled()
pytestmark = pytest.mark.skipif(
    compiled is None,
    reason="solver._ext.precinct_content is not built (pip install -e . needs Cython and a C compiler)",
)

DATA = Path(pc.__file__).parent / "data"

CONFIGS: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 2},
    {"players": 4},
    {"players": 4, "dirty_cop": True},
    {"players": 6},
    {"players": 6, "dirty_cop": True, "dirty_cops": 2},
    {"players": 3, "start_turn": 5, "punks": 18, "support_vehicles": 2, "support_speed": 2,
     "patrol_officers": 5, "cards_dealt": 7, "start_donuts": 3, "events_at_start": 0},
    {"players": 8, "dirty_cop": True, "dirty_cops": 6, "start_turn": 21, "punks": 6,
     "patrol_officers": 0, "cards_dealt": 0, "support_vehicles": 1, "support_speed": 1,
     "events_at_start": 6},
]

# where an event card lies once placed, in the .pxd's EL_* codes (board AT_* -> EL_*)
_EL_OF_AT = {AT_BUILDING: 1, AT_CROSSING: 2, AT_STREET: 3}


def _placed(game: PrecinctGame, kind: int, location: str) -> tuple[int, int, int, int]:
    """(EL code, AT code, where, building index) of event ``kind`` placed at ``location`` by the
    rules' own placement on a fresh state (no hand-written name lookup to agree with by accident)."""
    st = PrecinctState(game)
    st.slots = [None] * codec.MAX_SLOTS
    st.urgent = -1
    e = eventcards._place_fixed(st, kind, location, 0)
    slot = st.slots[e]
    assert slot is not None
    buildings = tuple(game.city.buildings)
    building = buildings.index(slot.building) if slot.building else -1
    return _EL_OF_AT[slot.at], slot.at, slot.where, building


def _event(game: PrecinctGame, kind: int) -> dict[str, Any]:
    card = game.content.events[kind]
    rolled = {"apartment": 4, "warehouse": 5, "hood": 6}
    if card.location in rolled:
        loc, at, where, building = rolled[card.location], -1, -1, -1
    elif card.location == "":
        loc, at, where, building = 0, -1, -1, -1
    else:
        loc, at, where, building = _placed(game, kind, card.location)
    return {
        "special": pc.SPECIALS.index(card.special) + 1 if card.special else 0,
        "colour": pc.COLORS.index(card.color) if not card.special else -1,
        "number": card.number, "loc": loc, "loc_at": at, "loc_where": where, "loc_building": building,
        "unknown": card.unknown, "punks": card.punks, "both": card.both, "hospital": card.hospital,
        "rewards": tuple(pc.REWARDS.index(r) for r in card.rewards),
        "count": game.content.event_counts[kind],
    }


def expected(game: PrecinctGame) -> dict[str, Any]:
    """The content, options and places of ``game`` in to_core()'s shape, from the Python objects."""
    c = game.content
    city = game.city
    buildings = tuple(city.buildings)
    specials = [-1] * (len(pc.SPECIALS) + 1)
    for k, e in enumerate(c.events):
        if e.special:
            specials[pc.SPECIALS.index(e.special) + 1] = k
    # the stacks' buildings before set-up's rolls (the first pick comes before them)
    start_buildings = tuple(buildings.index(s.building) if s.building else -1
                            for s in PrecinctState(game).stacks)
    route = eventcards._ESCAPE_ROUTE
    return {
        "characters": [{"stat": (ch.investigate, ch.arrest, ch.emergency),
                        "powers": sum(1 << pc.POWERS.index(p) for p in ch.powers)} for ch in c.characters],
        "police": [{"symbol": int(p.symbol), "text": pc.TEXTS.index(p.text), "double": p.double,
                    "count": n} for p, n in zip(c.police, c.police_counts, strict=True)],
        "events": [_event(game, k) for k in range(len(c.events))],
        "emergency_kinds": sum(1 << k for k, e in enumerate(c.events) if not e.special),
        "special_kind": tuple(specials),
        "unknown_counts": tuple(c.unknown_counts),
        "gangs": tuple(pc.GANGS.index(g) for g in c.gangs),
        "upgrade_counts": tuple(c.upgrade_counts),
        "deck_evidence": tuple(e for e, _ in c.decks),
        "deck_useless": tuple(u for _, u in c.decks),
        "loyalty_actions": tuple(pc.LOYALTY_ACTIONS.index(a) for a in c.loyalty_actions),
        "loyalty_mask": sum(1 << pc.LOYALTY_ACTIONS.index(a) for a in c.loyalty_actions),
        "reveal_donuts": c.reveal_donuts, "murderer_turn": c.murderer_turn, "fail_turn": c.fail_turn,
        "crime_fail": c.crime_fail, "donuts": c.donuts, "stand_in": c.stand_in,
        "players": game.num_players, "dirty_cops": game.dirty_cops,
        "picks": 2 if game.num_players == 1 else game.num_players,
        "cards_dealt": game.cards_dealt, "punks": game.punks, "start_turn": game.start_turn,
        "patrol_officers": game.patrol_officers, "start_donuts": game.start_donuts,
        "support_vehicles": game.support_vehicles, "support_speed": game.support_speed,
        "events_at_start": game.events_at_start,
        "n_streets": len(city.streets), "n_intersections": len(city.intersections),
        "n_buildings": len(buildings),
        "station_building": buildings.index("Police Station"), "station_street": game.station,
        "hospital_building": buildings.index("Hospital"), "hospital_street": game.hospital,
        "city_hall_building": buildings.index(eventcards.ESCORT_TO),
        "city_hall_street": city.buildings[eventcards.ESCORT_TO],
        "west_calhoun": city.street("West Calhoun"),
        "escape_building": tuple(buildings.index(b) for b in route),
        "escape_street": tuple(city.buildings[b] for b in route),
        "apartments": tuple(buildings.index(b) for b in city.apartments),
        "warehouses": tuple(buildings.index(b) for b in city.warehouses),
        "deck_building": start_buildings,
        # set-up's stack_block rolls interview at an apartment, weapon at a warehouse
        "deck_roll": tuple(4 if d == "interview" else 5 if d == "weapon" else 0 for d in pc.DECKS),
    }


def _check(game: PrecinctGame) -> dict[str, Any]:
    assert compiled is not None
    got: dict[str, Any] = compiled.PrecinctCContent(game).to_core()
    want = expected(game)
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == want[key], key
    # the learnt value's own tables agree (colours, specials, the station)
    consts = value_consts(game)
    assert tuple(e["colour"] for e in got["events"]) == consts.colour
    assert tuple(e["special"] != 0 for e in got["events"]) == consts.special
    assert got["station_street"] == consts.station
    return got


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_shipped_content_equals_python(options: dict[str, Any]) -> None:
    got = _check(PrecinctGame(**options))
    # spot checks by name, so a wrong table in both builders would still show
    assert got["events"][0]["loc"] == 1 and got["events"][0]["count"] == 1  # Bank Robbery at the Bank
    assert got["special_kind"][0] == -1 and min(got["special_kind"][1:]) >= 0


def test_user_content_and_city_files(tmp_path: Path) -> None:
    doc = json.loads((DATA / "content.json").read_text(encoding="utf-8"))
    doc["characters"] = list(reversed(doc["characters"]))[:6]
    doc["characters"][0]["arrest"] = 6
    doc["characters"][0]["powers"] = ["motorcycle", "big_hand", "thorough"]
    doc["police"] = doc["police"][3:17]
    doc["police"][0]["double"] = True
    doc["police"][0]["symbol"] = "emergency"
    doc["police"][1]["count"] = 9
    events = [e for e in doc["events"] if e["special"] != "gas_leak"]
    events[0]["location"] = "Colfax & 3rd"
    events[1]["location"] = "Lake Street"
    events[2]["location"] = "hood"
    events[3]["rewards"] = ["skip_event", "look_event"]
    events[3]["both"] = True
    events[4]["punks"] = 2
    doc["events"] = list(reversed(events))
    doc["gangs"] = ["blockers", "blockers", "lookouts", "enforcers", "recruiters", "lookouts"]
    doc["loyalty_actions"] = ["stir_trouble", "incite"]
    doc["decks"]["weapon"] = {"size": 12, "evidence": 5}
    doc["unknown_counts"]["bomb"] = 4
    doc["upgrade_counts"]["move"] = 0
    doc.update(murderer_turn=30, fail_turn=36, crime_fail=7, donuts=25, reveal_donuts=5, stand_in=False)
    content = tmp_path / "content.json"
    content.write_text(json.dumps(doc), encoding="utf-8")
    city_doc = json.loads((DATA / "city.json").read_text(encoding="utf-8"))
    for key in ("intersections", "streets", "buildings"):
        city_doc[key] = list(reversed(city_doc[key]))  # every id moves
    city = tmp_path / "city.json"
    city.write_text(json.dumps(city_doc), encoding="utf-8")
    runs: list[dict[str, Any]] = [{"players": 5}, {"players": 6, "dirty_cop": True, "start_turn": 3}]
    for options in runs:
        game = PrecinctGame(**options, content=str(content), city=str(city))
        got = _check(game)
        gas = pc.SPECIALS.index("gas_leak") + 1
        assert got["special_kind"][gas] == -1
        assert got["gangs"] == (3, 3, 2, 0, 1, 2)
        assert got["events"][-1]["loc"] == 2 and got["events"][-2]["loc"] == 3
        assert got["west_calhoun"] == game.city.street("West Calhoun")


def test_constants_match_content_tables() -> None:
    assert compiled is not None
    k = compiled.CONSTANTS
    for i, name in enumerate(pc.POWERS):
        assert k[f"POW_{name.upper()}"] == 1 << i
    for tables, prefix, offset in ((pc.TEXTS, "TX", 0), (pc.REWARDS, "RW", 0), (pc.SPECIALS, "SP", 1),
                                   (pc.COLORS, "COL", 0), (pc.UNKNOWN, "UK", 0), (pc.GANGS, "GANG", 0),
                                   (pc.UPGRADES, "UP", 0), (pc.DECKS, "DECK", 0),
                                   (pc.LOYALTY_ACTIONS, "LA", 0), (pc.SYMBOLS, "SYM", 0),
                                   (pc.SYMBOLS, "STAT", 0)):
        for i, name in enumerate(tables):
            assert k[f"{prefix}_{name.upper()}"] == i + offset, name
    assert k["SP_NONE"] == 0 and k["SP_COUNT"] == len(pc.SPECIALS) + 1
    assert k["TX_COUNT"] == len(pc.TEXTS) and k["RW_COUNT"] == len(pc.REWARDS)
    for s in pc.Symbol:  # a symbol's code is the Symbol value the rules compare
        assert k[f"SYM_{s.name}"] == int(s)
    # a rolled location's EL code minus EL_APARTMENT is the place_roll task's RL code
    for i, name in enumerate(pc.ROLLED_LOCATIONS):
        assert k[f"EL_{name.upper()}"] - k["EL_APARTMENT"] == i
    b = compiled.BOUNDS
    assert b["PC_MAX_CHARACTERS"] == codec.MAX_CHARACTERS
    assert b["PC_MAX_POLICE_KINDS"] == codec.MAX_POLICE_KINDS
    assert b["PC_MAX_EVENT_KINDS"] == codec.MAX_EVENT_KINDS
    assert b["PC_MAX_GANGS"] == len(pc.GANGS) * 4
    assert b["PC_MAX_COUNT"] == pc.MAX_TOTAL and b["PC_MAX_TRACK"] == pc.MAX_TRACK
    assert 0 < compiled.CONTENT_BYTES < 4096


def test_has_equals_the_rules_has() -> None:
    assert compiled is not None
    game = PrecinctGame(players=4)
    cc = compiled.PrecinctCContent(game)
    st = PrecinctState(game)
    for ch in range(len(game.content.characters)):
        cop = SimpleNamespace(char=ch)
        for i, power in enumerate(pc.POWERS):
            assert cc.has(ch, 1 << i) == st.has(cop, power), (ch, power)  # type: ignore[arg-type]
    names = cc.names()
    assert names["characters"] == tuple(c.name for c in game.content.characters)
    assert names["buildings"] == tuple(game.city.buildings)


def _doctored(game: PrecinctGame, **changes: Any) -> PrecinctGame:
    other = copy.copy(game)
    other.content = dataclasses.replace(game.content, **changes)
    return other


def test_bounds_raise_bad_state() -> None:
    assert compiled is not None
    game = PrecinctGame(players=4)
    c = game.content
    ch, police, ev = c.characters[0], c.police[0], c.events[0]
    emergency = c.events[1]
    cases: list[dict[str, Any]] = [
        {"characters": (ch,) * 17},
        {"characters": (dataclasses.replace(ch, arrest=7),) + c.characters[1:]},
        {"characters": (dataclasses.replace(ch, powers=("x-ray",)),) + c.characters[1:]},
        {"police": (police,) * 33, "police_counts": (1,) * 33},
        {"police_counts": (201,) + c.police_counts[1:]},
        {"events": (emergency,) * 65, "event_counts": (1,) * 65},
        {"events": (dataclasses.replace(ev, rewards=("donut", "police_card", "look_event")),) + c.events[1:]},
        {"events": (dataclasses.replace(ev, location="Nowhere Street"),) + c.events[1:]},
        {"events": (dataclasses.replace(ev, color="purple"),) + c.events[1:]},
        {"events": c.events + (c.events[-1],), "event_counts": c.event_counts + (1,)},  # a special twice
        {"gangs": ("enforcers",) * 17},
        {"murderer_turn": 101},
        {"loyalty_actions": ("incite", "incite")},
    ]
    compiled.PrecinctCContent(_doctored(game))  # unchanged: fine
    for changes in cases:
        with pytest.raises(BadStateError):
            compiled.PrecinctCContent(_doctored(game, **changes))
