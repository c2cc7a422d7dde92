"""Escape Plan content (solver/games/escape/content.py, data/content.json).

The shipped file must carry the rulebook's known facts and the published component counts; a user's
file may change pile sizes, and every fault in it must be a one-line BadStateError naming the file and
the key, never another exception. Expected values are the rulebook's, written out here by hand.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from solver.core.errors import BadStateError
from solver.games.escape import content as ec
from solver.games.escape.content import Asset, ContactKind, Equipment, Fixer, Locker, Police, load_content

SHIPPED = Path(ec.__file__).parent / "data" / "content.json"


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
        load_content(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"escape content {path}: ")
    return message


# --- the shipped file -------------------------------------------------------------------------------

def test_shipped_is_a_labelled_stand_in() -> None:
    doc = shipped_doc()
    assert doc["format"] == "copsolver-escape-content/1"
    assert doc["stand_in"] is True
    assert "NOT FOUND" in doc["note"] and "components.md" in doc["note"]
    assert load_content().stand_in is True


def test_shipped_component_counts() -> None:
    c = load_content()
    assert len(c.contacts) == 32  # Game Components: 32 Contact cards
    assert len(c.plans) == 9  # 9 Escape Plan cards
    assert sum(len(s.values) for s in c.lockers) == 15  # 15 Locker tiles in 3 types
    assert [len(s.values) for s in c.lockers] == [5, 5, 5]
    assert sum(len(s) for s in c.exit_tiles) == 10  # 10 Exit tiles in 2 types
    assert [len(s) for s in c.exit_tiles] == [5, 5]
    assert len(c.patrol) == 6  # 6 Patrol cards
    assert len(c.inspector) == 15  # 15 Inspector cards
    assert c.keys_per_colour * 3 == 9  # 9 keys in 3 colours
    assert sum(c.equipment_counts) == 16 and c.equipment_counts == (4, 4, 4, 4)  # 16 in 4 types
    assert len(c.fixer_costs) == 8  # 8 Fixer tiles


def test_shipped_known_facts() -> None:
    c = load_content()
    # Fixer Tiles: Helicopter 1, Safe 3, Disguise 2, ID Card 4, First Aid Kit 1, Motorcycle 2, Energy drink 2,
    # Telephone 2
    assert c.fixer_costs[Fixer.HELICOPTER] == 1 and c.fixer_costs[Fixer.SAFE] == 3
    assert c.fixer_costs[Fixer.DISGUISE] == 2 and c.fixer_costs[Fixer.ID_CARD] == 4
    assert c.fixer_costs[Fixer.FIRST_AID_KIT] == 1 and c.fixer_costs[Fixer.MOTORCYCLE] == 2
    assert c.fixer_costs[Fixer.ENERGY_DRINK] == 2 and c.fixer_costs[Fixer.TELEPHONE] == 2
    # Equipment Tiles: Vest, Hat, Helmet $2k, Gas Mask $3k
    assert c.equipment_costs[Equipment.VEST] == 2 and c.equipment_costs[Equipment.GAS_MASK] == 3
    assert c.equipment_costs[Equipment.HAT] == 2 and c.equipment_costs[Equipment.HELMET] == 2
    assert c.escape_costs == {2: (0, 10), 3: (0, 5, 10), 4: (0, 5, 10, 10), 5: (0, 5, 5, 10, 10)}
    assert c.escape_cost(5, 3) == 10 and c.escape_cost(3, 1) == 5
    assert c.closing_visits == {1: 2, 2: 2, 3: 2, 4: 3, 5: 3}
    assert c.prices.hospital == (1, 3, 6) and c.prices.church == 1 and c.prices.gang == 5
    assert c.prices.income_unlock == 3 and c.prices.after_escape == 1
    assert c.scoring.contacts == (0, 0, 10, 30, 60, 100)
    assert c.scoring.used_asset == 10 and c.scoring.red_wound == -20
    b = c.board
    assert b.start_money == 9 and b.income_cubes == 9 and b.green_wounds == 3 and b.notoriety_cubes == 4
    assert b.contact_spaces == 5 and len(b.asset_costs) == 6 and b.asset_costs[0] == 5
    assert max(b.asset_costs) == 5  # the extra-action asset starts on the $5k space, the most expensive
    assert b.max_gas_cans == 2 and b.gang_markers == 2
    assert b.item_spaces >= 3 and len(b.item_asset_spaces) == 3
    # Player Setup C-E: 3 shields on Item spaces, Extra Action unlocked, 3 others on Contact spaces: all 7
    starts = {*ec.ITEM_START_ASSETS, ec.UNLOCKED_START_ASSET, *ec.CONTACT_START_ASSETS}
    assert starts == set(Asset) and len(Asset) == 7
    assert set(ec.ITEM_START_ASSETS) == {Asset.MOVE_FEDERAL, Asset.MOVE_COUNTY, Asset.MOVE_SWAT}
    t = c.notoriety
    assert t.penalty[0] == 0 and t.penalty[-1] == -100 and len(t.lines) == 3


def test_shipped_plan_cards() -> None:
    c = load_content()
    seen = set()
    income_marks: Counter[tuple[int, int]] = Counter()
    for plan in c.plans:
        total = 0
        for g, group in enumerate(plan.groups):
            amounts = [a for a in group if a is not None]
            assert len(amounts) == 2 and sum(amounts) == 150
            income_marks[g, group.index(None)] += 1
            total += sum(amounts)
        assert total == 450  # "the total amount is always $450k"
        seen.add(plan.groups)
    assert len(seen) == 9  # each card unique
    assert len(income_marks) == 9  # every business and safe house carries the mark on some card
    assert c.plans[0].business(1) is None and c.plans[0].business(2) == 100 and c.plans[0].safe_house(3) == 30


def test_shipped_lockers_exits_patrol_inspector() -> None:
    c = load_content()
    for stack in c.lockers:
        assert stack.values.count(0) == 1  # "all stacks also have 1 tile in them with a value of $0"
    assert [s.draw for s in c.lockers] == [1, 0, -1]  # green +1, black, brown -1
    assert Counter(c.patrol) == {1: 2, 2: 2, 3: 2}
    kinds = Counter(kind for kind, _ in c.inspector)
    assert kinds == {"business": 6, "safe_house": 3, "store": 4, "exit": 2}


def test_shipped_contacts() -> None:
    c = load_content()
    kinds = {card.kind for card in c.contacts}
    assert kinds == set(ContactKind)  # every kind the rulebook lists appears
    for card in c.contacts:
        if card.kind in (ContactKind.SNITCH, ContactKind.BRIBE, ContactKind.RALLY):
            assert len(card.police) == 1
        elif card.kind in (ContactKind.FIGHTER, ContactKind.BOXER, ContactKind.NINJA):
            assert card.police
        else:
            assert card.police == ()
        assert card.extra_action == (card.kind == ContactKind.FIXER)
    assert sum(card.extra_action for card in c.contacts) == 2
    ninja = next(card for card in c.contacts if card.kind == ContactKind.NINJA)
    assert set(ninja.police) == {Police.COUNTY, Police.FEDERAL, Police.SWAT}


# --- a user's file ----------------------------------------------------------------------------------

def test_user_file_round_trip(tmp_path: Path) -> None:
    doc = shipped_doc()
    doc["stand_in"] = False
    del doc["note"]
    doc["contacts"] = doc["contacts"][:6]  # a smaller deck: 3 snitches + 2 fixers + 2 fighters = 7
    doc["lockers"]["green"]["values"] = [0, 99]
    doc["plans"][0]["groups"][0] = [75, "income", 75]
    c = load_content(write(tmp_path, doc))
    assert c.stand_in is False
    assert len(c.contacts) == 7
    assert c.lockers[Locker.GREEN].values == (0, 99)
    assert c.plans[0].groups[0] == (75, None, 75)
    assert c.plans[1] == load_content().plans[1]


@pytest.mark.parametrize(("mutate", "words"), [
    (lambda d: d.pop("plans"), "missing 'plans'"),
    (lambda d: d.__setitem__("extra", 1), "unknown key 'extra'"),
    (lambda d: d.__setitem__("format", "x"), '"format"'),
    (lambda d: d.__setitem__("stand_in", 1), "'stand_in'"),
    (lambda d: d["contacts"][0].__setitem__("cost", -1), "contact 'Snitch (County)' 'cost'"),
    (lambda d: d["contacts"][0].__setitem__("cost", True), "'cost'"),
    (lambda d: d["contacts"][0].__setitem__("kind", "wizard"), "'kind'"),
    (lambda d: d["contacts"][0].__setitem__("police", []), "exactly one police colour"),
    (lambda d: d["contacts"][3].__setitem__("police", ["swat"]), "names no police colour"),
    (lambda d: d["contacts"][9].__setitem__("police", ["swat", "swat"]), "twice"),
    (lambda d: d["contacts"][1].__setitem__("name", "Snitch (County)"), "used twice"),
    (lambda d: d["contacts"][0].__setitem__("count", 10 ** 9), "'count'"),
    (lambda d: d.__setitem__("contacts", d["contacts"][:1]), "deck must hold 7"),
    (lambda d: d["plans"][0]["groups"][0].__setitem__(1, 90), "add up to 140"),
    (lambda d: d["plans"][0]["groups"][0].__setitem__(1, "income"), "exactly one 'income'"),
    (lambda d: d["plans"][1].__setitem__("groups", d["plans"][0]["groups"]), "unique"),
    (lambda d: d["plans"][0]["groups"].pop(), "3 groups"),
    (lambda d: d.__setitem__("plans", d["plans"][:4]), "'plans' must list 5"),
    (lambda d: d["lockers"]["brown"].__setitem__("values", [10, 20]), "locker 'brown' 'values'"),
    (lambda d: d["lockers"]["black"].pop("draw"), "locker 'black' is missing 'draw'"),
    (lambda d: d["lockers"].pop("green"), "'lockers' is missing 'green'"),
    (lambda d: d.__setitem__("exit_tiles", [[1]]), "'exit_tiles'"),
    (lambda d: d["exit_tiles"].__setitem__(0, list(range(500))), "exit stack 0"),
    (lambda d: d["fixers"].__setitem__("safe", "3"), "'fixers' 'safe'"),
    (lambda d: d["equipment"]["vest"].__setitem__("count", 0), "equipment 'vest' 'count'"),
    (lambda d: d["notoriety"].__setitem__("lines", [3, 3, 9]), "rise strictly"),
    (lambda d: d["notoriety"].__setitem__("lines", [3, 6]), "3 threshold lines"),
    (lambda d: d["notoriety"]["penalty"].__setitem__(3, 0), "must not rise"),
    (lambda d: d["notoriety"]["penalty"].pop(), "one value per row"),
    (lambda d: d["board"].__setitem__("contact_spaces", 6), "'board' 'contact_spaces'"),
    (lambda d: d["board"].__setitem__("item_asset_spaces", [2, 2, 3]), "twice"),
    (lambda d: d["board"].__setitem__("item_asset_spaces", [2, 3, 9]), "item asset space"),
    (lambda d: d["board"]["asset_costs"].pop(), "'asset_costs'"),
    (lambda d: d["patrol"].__setitem__(0, 4), "'patrol' card"),
    (lambda d: d["patrol"].pop(), "6 cards"),
    (lambda d: d["inspector"][0].__setitem__("label", "7"), "inspector card 0 'label'"),
    (lambda d: d["inspector"][0].__setitem__("kind", "church"), "inspector card 0 'kind'"),
    (lambda d: d["escape_costs"].__setitem__("3", [0, 5]), "'escape_costs' '3'"),
    (lambda d: d["closing_visits"].pop("4"), "'closing_visits' is missing '4'"),
    (lambda d: d["prices"].__setitem__("hospital", [1, 3]), "'hospital'"),
    (lambda d: d["scoring"].__setitem__("red_wound", 20), "'red_wound'"),
    (lambda d: d["scoring"]["contacts"].append(150), "'scoring' 'contacts'"),
    (lambda d: d.__setitem__("note", "x" * 5000), "'note'"),
])
def test_bad_files(tmp_path: Path, mutate: Any, words: str) -> None:
    doc = copy.deepcopy(shipped_doc())
    mutate(doc)
    assert words in fault(tmp_path, doc)


@pytest.mark.parametrize("text", ["", "[]", "{", '"x"', "NaN", "[" * 100 + "]" * 100])
def test_not_a_content_file(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadStateError) as err:
        load_content(str(path))
    assert "\n" not in str(err.value) and str(path) in str(err.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BadStateError, match="cannot read it"):
        load_content(str(tmp_path / "nope.json"))
