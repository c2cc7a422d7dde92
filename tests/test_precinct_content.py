"""Police Precinct stand-in content (solver/games/precinct/content.py, data/content.json).

The shipped file must carry the published component counts; a user's file may change them but every
fault in it must be a one-line BadStateError naming the file and the fault, never another exception.
"""

from __future__ import annotations

import copy
import json
import types
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from solver.core.errors import BadStateError
from solver.games.precinct import content as pc
from solver.games.precinct.content import Content, load_content

# The place names precinct-api.md fixes (the city must define them; the content may refer to them).
BUILDINGS = (
    "Police Station", "Hospital", "Morgue", "Duffy's Bar", "Knights Apartments", "Tolloty Apartments",
    "Crime Scene Lot", "City Hall", "Bank", "Gas Station",
    *(f"Apartments {b}" for b in range(1, 7)), *(f"Warehouse {b}" for b in range(1, 7)),
)
STREETS = ("West Calhoun", "East Calhoun", "3rd Avenue North", "Colfax 1", "Colfax 2", "Colfax 3", "Colfax 4")
INTERSECTIONS = ("Vasel & 1st", "Vasel & 2nd", "Stickel & 1st", "Stickel & 2nd", "Calhoun & 2nd",
                 "Calhoun & 3rd", "Colfax & 2nd", "Colfax & 3rd")

SHIPPED = Path(pc.__file__).parent / "data" / "content.json"


def stand_in_city() -> Any:
    """A tiny object with the three name mappings load_content reads, holding only the fixed names."""
    return types.SimpleNamespace(
        buildings={name: 0 for name in BUILDINGS},
        street_ids={name: i for i, name in enumerate(STREETS)},
        intersection_ids={name: i for i, name in enumerate(INTERSECTIONS)},
    )


def shipped_doc() -> Any:
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def write(tmp_path: Path, doc: Any, name: str = "c.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def fault(tmp_path: Path, doc: Any) -> str:
    """The message of the BadStateError loading ``doc`` from a user file; checks it is one line."""
    path = write(tmp_path, doc)
    with pytest.raises(BadStateError) as err:
        load_content(path, stand_in_city())
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"precinct content {path}: ")
    return message


def test_shipped_published_totals() -> None:
    c = load_content(None, stand_in_city())
    assert c.stand_in is True
    doc = shipped_doc()
    assert doc["stand_in"] is True and "NOT FOUND" in doc["note"]
    assert sum(c.police_counts) == 44
    assert sum(c.event_counts) == 39
    assert sum(c.unknown_counts) == 20
    assert sum(c.upgrade_counts) == 12
    assert sum(ev for ev, _ in c.decks) == 13
    assert tuple(ev + useless for ev, useless in c.decks) == (14, 10, 10, 8)
    assert len(c.characters) == 8
    powers = [p for ch in c.characters for p in ch.powers]
    assert len(powers) == 13 and set(powers) == set(pc.POWERS)
    assert sorted(len(ch.powers) for ch in c.characters) == [1, 1, 1, 2, 2, 2, 2, 2]
    assert len(c.gangs) == 4 and set(c.gangs) == set(pc.GANGS)
    assert c.loyalty_actions == pc.LOYALTY_ACTIONS
    assert (c.murderer_turn, c.fail_turn, c.donuts) == (16, 22, 18)


def test_shipped_characters_match_the_rulebook() -> None:
    c = load_content(None, stand_in_city())
    by_name = {ch.name: ch for ch in c.characters}
    assert {"Costello", "Kirkland", "Pearce", "Hartley"} <= by_name.keys()
    assert "swat" in by_name["Kirkland"].powers and "federal_agent" in by_name["Pearce"].powers
    # rulebook arrest example: Costello rolls two dice for her skill, Kirkland one for his
    assert by_name["Costello"].arrest == 2 and by_name["Kirkland"].arrest == 1
    for ch in c.characters:
        values = (ch.investigate, ch.arrest, ch.emergency)
        assert all(1 <= v <= 3 for v in values) and sum(values) in (5, 6), ch


def test_shipped_cards_cover_every_kind() -> None:
    c = load_content(None, stand_in_city())
    specials = [e.special for e in c.events if e.special]
    assert sorted(specials) == sorted(pc.SPECIALS)
    assert all(n == 1 for e, n in zip(c.events, c.event_counts, strict=True) if e.special)
    assert all(n > 0 for n in c.unknown_counts) and len(c.unknown_counts) == len(pc.UNKNOWN)
    assert {card.text for card in c.police} == set(pc.TEXTS)
    assert all(n > 0 for n in c.police_counts)
    symbols: Counter[pc.Symbol] = Counter()
    for card, n in zip(c.police, c.police_counts, strict=True):
        symbols[card.symbol] += n
    assert all(14 <= symbols[s] <= 15 for s in pc.Symbol)
    emergencies = [(e, n) for e, n in zip(c.events, c.event_counts, strict=True) if not e.special]
    assert sum(n for _, n in emergencies) == 26
    assert {e.color for e, _ in emergencies} == set(pc.COLORS)
    orange: Counter[int] = Counter()
    for e, n in emergencies:
        orange[e.punks] += n
    assert (orange[1], orange[2]) == (5, 2)
    burglars = [e for e, _ in emergencies if e.name == "Burglars"]
    assert len(burglars) == 1 and burglars[0].rewards == ("skip_event",)
    by_special = {e.special: e for e in c.events if e.special}
    assert by_special["gas_leak"].location == "West Calhoun"
    assert by_special["jail_break"].location == "Police Station"
    assert by_special["street_riot"].location == "hood"
    assert by_special["officer_down"].number == 4
    names = {card.name for card in c.police}
    assert {"Fresh Perspective", "Dispatch Officers", "Air Support"} <= names


def test_shipped_loads_on_the_real_city() -> None:
    city_module = pytest.importorskip("solver.games.precinct.city")
    c = load_content(None, city_module.load_city(None))
    assert sum(c.event_counts) == 39


def test_user_file_round_trip(tmp_path: Path) -> None:
    doc = shipped_doc()
    doc["stand_in"] = False
    doc["events"][0]["count"] = 3  # "Adjusting Difficulty": a user may grow or shrink a deck
    doc["decks"]["weapon"] = {"size": 6, "evidence": 3}
    c = load_content(write(tmp_path, doc), stand_in_city())
    shipped = load_content(None, stand_in_city())
    assert isinstance(c, Content) and c.stand_in is False
    assert sum(c.event_counts) == 41 and c.decks[3] == (3, 3)
    assert c.characters == shipped.characters and c.police == shipped.police
    # the same document written back loads to the same content
    again = load_content(write(tmp_path, json.loads(json.dumps(doc)), "again.json"), stand_in_city())
    assert again == c


@pytest.mark.parametrize(("mutate", "expected"), [
    (lambda d: d["characters"][0]["powers"].append("telepathy"), "'telepathy' is not one of"),
    (lambda d: d["events"][0].__setitem__("location", "Moon Base"), "location 'Moon Base'"),
    (lambda d: d["decks"].__setitem__("weapon", {"size": 2, "evidence": 3}),
     "'evidence' 3 is more than its 'size' 2"),
    (lambda d: d["police"][0].__setitem__("count", True), "'count' must be an integer"),
    (lambda d: d["unknown_counts"].__setitem__("bomb", False), "'bomb' must be an integer"),
    (lambda d: d["characters"][1].__setitem__("name", "Costello"), "'Costello' is used twice"),
    (lambda d: d.__setitem__("colour", "red"), "unknown key 'colour'"),
    (lambda d: d["events"][3].pop("hospital"), "missing 'hospital'"),
    (lambda d: d.__setitem__("characters", d["characters"][:1]), "'characters' must list 2.."),
    (lambda d: d["police"][0].__setitem__("count", 10 ** 6), "'count' must be an integer in 0..200"),
    (lambda d: d["events"][0].__setitem__("count", -1), "'count' must be an integer in 0..200"),
    (lambda d: d.__setitem__("fail_turn", 21), "'fail_turn' 21 must be"),
    (lambda d: d["events"][0].__setitem__("double", False), "unknown key 'double'"),
    (lambda d: d.__setitem__("format", "copsolver-precinct-city/1"), '"format"'),
])
def test_specific_faults(tmp_path: Path, mutate: Any, expected: str) -> None:
    doc = shipped_doc()
    mutate(doc)
    assert expected in fault(tmp_path, doc)


def test_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    for path in (str(bad), str(tmp_path / "missing.json"), str(tmp_path)):
        with pytest.raises(BadStateError, match="^precinct content "):
            load_content(path, stand_in_city())


def test_special_events_and_emergencies_differ(tmp_path: Path) -> None:
    doc = shipped_doc()
    special = next(i for i, e in enumerate(doc["events"]) if e["special"] == "jail_break")
    doc["events"][special]["color"] = "red"
    assert "a special event has color ''" in fault(tmp_path, doc)
    doc = shipped_doc()
    doc["events"][0]["location"] = ""  # an emergency must be placed somewhere
    assert "location ''" in fault(tmp_path, doc)
    doc = shipped_doc()
    doc["events"][special]["count"] = 2
    assert "may have one card only" in fault(tmp_path, doc)
    doc = shipped_doc()
    for e in doc["events"]:
        if not e["special"]:
            e["count"] = 0
    assert "at least 2 emergency cards" in fault(tmp_path, doc)


JUNK: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 7, 10 ** 12, 2.5, "", "zzz", "Bank", [], [1], {}, {"a": 1},
)


def _mutate(doc: Any, rng: np.random.Generator) -> None:
    """One random change somewhere in ``doc``: a value replaced, a key removed or added, an item dropped
    or duplicated."""
    node = doc
    while True:  # walk down a random path, stopping at random or at a leaf's parent
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        if not children:
            break
        key, child = children[int(rng.integers(len(children)))]
        if isinstance(child, (dict, list)) and child and rng.random() < 0.7:
            node = child
            continue
        choice = int(rng.integers(4))
        if choice == 0 or isinstance(node, dict) and choice == 3:
            node[key] = copy.deepcopy(JUNK[int(rng.integers(len(JUNK)))])
        elif choice == 1:
            del node[key]
        elif choice == 2 and isinstance(node, dict):
            node["extra"] = 1
        else:
            node.append(copy.deepcopy(child))
        return


def test_fuzz_mutations_load_or_fail_cleanly(tmp_path: Path) -> None:
    rng = np.random.default_rng(21)
    base = shipped_doc()
    outcomes: Counter[str] = Counter()
    for i in range(200):
        doc = copy.deepcopy(base)
        for _ in range(int(rng.integers(1, 4))):
            _mutate(doc, rng)
        path = write(tmp_path, doc, f"m{i}.json")
        try:
            load_content(path, stand_in_city())
            outcomes["loaded"] += 1
        except BadStateError as err:
            assert "\n" not in str(err) and str(err).startswith(f"precinct content {path}: "), err
            outcomes["refused"] += 1
    # the mutations must exercise both paths, or the test checks nothing
    assert outcomes["refused"] > 50 and outcomes["loaded"] > 3, outcomes
