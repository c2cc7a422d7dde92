"""Escape Plan content: cards, tiles and tracks other than the city.

The rulebook (``shared/rulebooks/escape-plan.txt``) prints the component counts, the Fixer, Equipment and
Asset tiles, the escape costs, the prices and the scoring table; those are kept as printed. The split of
the 32 Contact cards, the 9 Escape Plan cards, the Locker and Exit tile values, the Notoriety track, the
player board's space counts and asset-space costs, the Patrol and Inspector cards were NOT FOUND
(``shared/research/components.md``): the shipped ``data/content.json`` holds **stand-ins** of our own
(``"stand_in": true`` and a note), each explained in ``docs/escape-content.md``. A user's file of the same
format (game option ``content=PATH``) replaces it. Format ``copsolver-escape-content/1``::

    {"format": "copsolver-escape-content/1", "stand_in": true, "note": "...",
     "contacts": [{"name": "Snitch (County)", "kind": "snitch", "cost": 2, "notoriety": true,
                   "police": ["county"], "count": 1}, ...],
     "plans": [{"name": "Plan 1", "groups": [["income", 100, 50], [...], [...]]}, ...],
     "lockers": {"green": {"requirement": 3, "draw": 1, "values": [0, 10, ...]}, "black": ..., "brown": ...},
     "keys_per_colour": 3, "exit_tiles": [[0, 10, ...], [...]],
     "fixers": {"helicopter": 1, ...}, "equipment": {"vest": {"cost": 2, "count": 4}, ...},
     "notoriety": {"bottom": 1, "top": 12, "lines": [3, 6, 9], "penalty": [0, ..., -100]},
     "board": {"item_spaces": 5, "item_asset_spaces": [2, 3, 4], "contact_spaces": 5,
               "asset_costs": [5, 4, 3, 2, 1, 0], "max_gas_cans": 2, "start_money": 9, "income_cubes": 9,
               "green_wounds": 3, "notoriety_cubes": 4, "gang_markers": 2},
     "patrol": [1, 1, 2, 2, 3, 3], "inspector": [{"kind": "business", "label": "1"}, ...],
     "escape_costs": {"2": [0, 10], ...}, "closing_visits": {"1": 2, ...},
     "prices": {"hospital": [1, 3, 6], "church": 1, "gang": 5, "income_unlock": 3, "after_escape": 1},
     "scoring": {"contacts": [0, 0, 10, 30, 60, 100], "used_asset": 10, "red_wound": -20}}

Money is in $k throughout. Every key is required (``note`` may be left out) and no other key is allowed.
A user's file may change pile sizes (contacts, plan cards, lockers, exit tiles, inspector cards) within
the bounds below, but not the structure the rules are written for: 3 plan groups of 3 each summing to
$150k, 3 locker colours each with a $0 tile, 2 exit stacks, 6 patrol cards naming exits 1..3, 3
threshold lines, 6 unlocked-asset spaces, 5 contact spaces (the scoring table has 6 entries).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final

from solver.core import files
from solver.core.errors import BadStateError

FORMAT: Final = "copsolver-escape-content/1"
#: Largest pile (contact cards, one locker stack, one exit stack, inspector cards, plan cards) a file
#: may give: far above the published piles, small enough that a hostile file cannot build huge decks.
MAX_PILE: Final = 200
#: Largest price or tile value ($k) a file may give.
MAX_MONEY: Final = 1000
#: Longest name a file may give; names are printed on one line.
MAX_NAME: Final = 80
#: Most rows the Notoriety track may have.
MAX_ROWS: Final = 100
#: Most Item spaces a board may have.
MAX_ITEM_SPACES: Final = 12
#: Per group on a plan card, the two amounts add up to this ("Escape Plan Cards").
GROUP_TOTAL: Final = 150
#: Players a game may have ("2-player games" .. "5-player games" in the escape cost table).
PLAYER_COUNTS: Final = (2, 3, 4, 5)
#: Plan cards a file must hold at least: one dealt to each of up to five players (Player Setup L).
MIN_PLANS: Final = 5
#: The display shows 7 contact cards (Board Setup 15), so the deck holds at least that many.
MIN_CONTACTS: Final = 7
#: Contact spaces on a board: the scoring table counts 0..5 contact cards ("Final Scoring").
CONTACT_SPACES: Final = 5
#: Unlocked asset spaces: "only space for 6 unlocked Asset tiles" ("Asset Tiles").
ASSET_SPACES: Final = 6
#: Patrol cards: one removed unseen, then 2 + 2 + 1 drawn over the three days ("2. Patrol").
PATROL_CARDS: Final = 6
#: Exits in the city; a patrol card names one of them.
EXITS: Final = 3


class Police(IntEnum):
    """An officer type (Police Setup; "Asset Tiles": Federal red, County blue, SWAT black)."""

    COUNTY = 0
    FEDERAL = 1
    SWAT = 2


class ContactKind(IntEnum):
    """A contact card's kind ("Cards and Tiles Description", Contact Cards)."""

    SNITCH = 0
    FIXER = 1
    FIGHTER = 2
    BOXER = 3
    NINJA = 4
    BRIBE = 5
    RALLY = 6
    INFORMER = 7
    SPY1 = 8
    SPY2 = 9
    SPY3 = 10
    MEDIC = 11
    MEDEVAC = 12
    GANG = 13
    CHOPPER = 14
    GENERAL_STORE = 15
    STUNT = 16
    FAST_CAR = 17
    JET_SKI = 18
    SEWER = 19


class Equipment(IntEnum):
    """An equipment tile ("Equipment Tiles")."""

    VEST = 0
    HAT = 1
    HELMET = 2
    GAS_MASK = 3


class Fixer(IntEnum):
    """A Fixer tile ("Fixer Tiles (1x use)")."""

    HELICOPTER = 0
    SAFE = 1
    DISGUISE = 2
    ID_CARD = 3
    FIRST_AID_KIT = 4
    MOTORCYCLE = 5
    ENERGY_DRINK = 6
    TELEPHONE = 7


class Asset(IntEnum):
    """A player's Asset tile ("Asset Tiles (1x use)"); each player has one of each."""

    AVOID_TILE = 0  # avoid all officers on one tile
    MOVE_FEDERAL = 1  # the three Police Officer shields
    MOVE_COUNTY = 2
    MOVE_SWAT = 3
    MASTER_KEY = 4
    HEAL = 5
    EXTRA_ACTION = 6


class Locker(IntEnum):
    """A locker colour; keys come in the same three colours ("Lockers")."""

    GREEN = 0
    BLACK = 1
    BROWN = 2


POLICE: Final[tuple[str, ...]] = ("county", "federal", "swat")
CONTACT_KINDS: Final[tuple[str, ...]] = (
    "snitch", "fixer", "fighter", "boxer", "ninja", "bribe", "rally", "informer", "spy1", "spy2", "spy3",
    "medic", "medevac", "gang", "chopper", "general_store", "stunt", "fast_car", "jet_ski", "sewer",
)
EQUIPMENT: Final[tuple[str, ...]] = ("vest", "hat", "helmet", "gas_mask")
FIXERS: Final[tuple[str, ...]] = (
    "helicopter", "safe", "disguise", "id_card", "first_aid_kit", "motorcycle", "energy_drink", "telephone",
)
ASSETS: Final[tuple[str, ...]] = (
    "avoid_tile", "move_federal", "move_county", "move_swat", "master_key", "heal", "extra_action",
)
LOCKERS: Final[tuple[str, ...]] = ("green", "black", "brown")
#: The asset tiles that start on Item spaces: the three Police Officer shields (Player Setup C).
ITEM_START_ASSETS: Final = (Asset.MOVE_FEDERAL, Asset.MOVE_COUNTY, Asset.MOVE_SWAT)
#: The asset tile that starts unlocked on the $5k space (Player Setup D).
UNLOCKED_START_ASSET: Final = Asset.EXTRA_ACTION
#: The asset tiles that start on Contact spaces (Player Setup E: "the 3 remaining").
CONTACT_START_ASSETS: Final = (Asset.AVOID_TILE, Asset.MASTER_KEY, Asset.HEAL)
#: Contact kinds whose card names officer colours: Snitch, Bribe and Rally one colour ("of the indicated
#: color"), Fighter, Boxer and Ninja one or more ("of the colors indicated").
ONE_COLOUR_KINDS: Final = frozenset({ContactKind.SNITCH, ContactKind.BRIBE, ContactKind.RALLY})
COLOUR_KINDS: Final = ONE_COLOUR_KINDS | {ContactKind.FIGHTER, ContactKind.BOXER, ContactKind.NINJA}
#: Location kinds an Inspector card may name (Sandra's Cards) and the labels each allows.
INSPECTOR_LABELS: Final[dict[str, tuple[str, ...]]] = {
    "business": ("1", "2", "3", "4", "5", "6"),
    "safe_house": ("1", "2", "3"),
    "store": ("A", "B", "C", "D"),
    "exit": ("1", "2", "3"),
}

_TOP_KEYS: Final = frozenset({
    "format", "stand_in", "note", "contacts", "plans", "lockers", "keys_per_colour", "exit_tiles", "fixers",
    "equipment", "notoriety", "board", "patrol", "inspector", "escape_costs", "closing_visits", "prices",
    "scoring",
})
_CONTACT_KEYS: Final = frozenset({"name", "kind", "cost", "notoriety", "police", "count"})
_PLAN_KEYS: Final = frozenset({"name", "groups"})
_LOCKER_KEYS: Final = frozenset({"requirement", "draw", "values"})
_EQUIPMENT_KEYS: Final = frozenset({"cost", "count"})
_NOTORIETY_KEYS: Final = frozenset({"bottom", "top", "lines", "penalty"})
_BOARD_KEYS: Final = frozenset({
    "item_spaces", "item_asset_spaces", "contact_spaces", "asset_costs", "max_gas_cans", "start_money",
    "income_cubes", "green_wounds", "notoriety_cubes", "gang_markers",
})
_INSPECTOR_KEYS: Final = frozenset({"kind", "label"})
_PRICE_KEYS: Final = frozenset({"hospital", "church", "gang", "income_unlock", "after_escape"})
_SCORING_KEYS: Final = frozenset({"contacts", "used_asset", "red_wound"})
#: The income mark on a plan card, as the file writes it.
INCOME: Final = "income"


@dataclass(frozen=True)
class ContactCard:
    """One physical contact card: kind, price ($k), red star (gain 1 notoriety on use), officer colours."""

    name: str
    kind: ContactKind
    cost: int
    notoriety: bool
    police: tuple[Police, ...]

    @property
    def extra_action(self) -> bool:
        """Whether using the card gives an Extra Action disc: only the Fixer contact does (Contact Cards);
        Sandra takes the disc when she discards such a card (Sandra's Cards)."""
        return self.kind == ContactKind.FIXER


@dataclass(frozen=True)
class PlanCard:
    """An Escape Plan card: per group (businesses 1-3, businesses 4-6, safe houses 1-3) three entries,
    each an amount ($k) or ``None`` for the income mark."""

    name: str
    groups: tuple[tuple[int | None, ...], ...]

    def business(self, number: int) -> int | None:
        """The entry of Business ``number`` (1..6)."""
        return self.groups[(number - 1) // 3][(number - 1) % 3]

    def safe_house(self, number: int) -> int | None:
        """The entry of Safe House ``number`` (1..3)."""
        return self.groups[2][number - 1]


@dataclass(frozen=True)
class LockerStack:
    """A locker colour's stack: the "big number" to open it, the draw offset on the contact count, the
    tile values ($k)."""

    requirement: int
    draw: int
    values: tuple[int, ...]


@dataclass(frozen=True)
class NotorietyTrack:
    """The Notoriety track: rows ``bottom..top``, the threshold lines (line ``L`` lies between rows
    ``L - 1`` and ``L``), the score per row ($k, ``penalty[row - bottom]``)."""

    bottom: int
    top: int
    lines: tuple[int, ...]
    penalty: tuple[int, ...]

    def row_penalty(self, row: int) -> int:
        """The score of ending on ``row`` (0 or negative)."""
        return self.penalty[row - self.bottom]


@dataclass(frozen=True)
class BoardLayout:
    """A player board's spaces and starting pieces (Player Setup)."""

    item_spaces: int
    item_asset_spaces: tuple[int, ...]
    contact_spaces: int
    asset_costs: tuple[int, ...]
    max_gas_cans: int
    start_money: int
    income_cubes: int
    green_wounds: int
    notoriety_cubes: int
    gang_markers: int


@dataclass(frozen=True)
class Prices:
    """Location prices ($k): hospital heals 1/2/3, church, gang, income-phase unlock, turn after escape."""

    hospital: tuple[int, ...]
    church: int
    gang: int
    income_unlock: int
    after_escape: int


@dataclass(frozen=True)
class Scoring:
    """Final Scoring's values ($k): contact table by count 0..5, per used asset, per red wound."""

    contacts: tuple[int, ...]
    used_asset: int
    red_wound: int


@dataclass(frozen=True)
class Content:
    """Everything on the cards, tiles and tracks other than the city (see the module docstring)."""

    contacts: tuple[ContactCard, ...]
    plans: tuple[PlanCard, ...]
    lockers: tuple[LockerStack, ...]
    keys_per_colour: int
    exit_tiles: tuple[tuple[int, ...], ...]
    fixer_costs: tuple[int, ...]
    equipment_costs: tuple[int, ...]
    equipment_counts: tuple[int, ...]
    notoriety: NotorietyTrack
    board: BoardLayout
    patrol: tuple[int, ...]
    inspector: tuple[tuple[str, str], ...]
    escape_costs: dict[int, tuple[int, ...]]
    closing_visits: dict[int, int]
    prices: Prices
    scoring: Scoring
    stand_in: bool

    def escape_cost(self, players: int, order: int) -> int:
        """What the ``order``-th player to leave (0 = first) pays in a ``players``-player game."""
        return self.escape_costs[players][order]


Fail = Callable[[str], BadStateError]


def load_content(path: str | None = None) -> Content:
    """The shipped stand-in content (``path`` None) or a user's file.

    Every fault is a one-line :class:`BadStateError` ``escape content <path>: <fault>``.
    """
    if path is None:
        data = files.read_shipped("solver.games.escape", "data/content.json")
        where = "(shipped data/content.json)"
    else:
        data = files.read_json(path, "escape content")
        where = str(path)
    return parse_content(data, where)


def parse_content(data: Any, where: str = "(document)") -> Content:
    """Check a parsed content document (``where`` names it in errors) and build the :class:`Content`."""
    def fail(message: str) -> BadStateError:
        return BadStateError(f"escape content {where}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f'expected a JSON object with "format": "{FORMAT}"')
    _keys(data, _TOP_KEYS - {"note"}, _TOP_KEYS, "the document", fail)
    stand_in = _bool(data["stand_in"], "'stand_in'", fail)
    if "note" in data and (not isinstance(data["note"], str) or len(data["note"]) > 4000):
        raise fail(f"'note' must be a string of at most 4000 characters, not {_show(data['note'])}")
    fixers = _table(data["fixers"], FIXERS, "'fixers'", fail)
    equipment = _obj(data["equipment"], frozenset(EQUIPMENT), "'equipment'", fail)
    costs: list[int] = []
    counts: list[int] = []
    for name in EQUIPMENT:
        entry = _obj(equipment[name], _EQUIPMENT_KEYS, f"equipment {name!r}", fail)
        costs.append(_int(entry["cost"], 0, MAX_MONEY, f"equipment {name!r} 'cost'", fail))
        counts.append(_int(entry["count"], 1, MAX_PILE, f"equipment {name!r} 'count'", fail))
    return Content(
        contacts=_contacts(data["contacts"], fail),
        plans=_plans(data["plans"], fail),
        lockers=_lockers(data["lockers"], fail),
        keys_per_colour=_int(data["keys_per_colour"], 1, MAX_PILE, "'keys_per_colour'", fail),
        exit_tiles=_exit_tiles(data["exit_tiles"], fail),
        fixer_costs=fixers,
        equipment_costs=tuple(costs),
        equipment_counts=tuple(counts),
        notoriety=_notoriety(data["notoriety"], fail),
        board=_board(data["board"], fail),
        patrol=_patrol(data["patrol"], fail),
        inspector=_inspector(data["inspector"], fail),
        escape_costs=_escape_costs(data["escape_costs"], fail),
        closing_visits=_closing(data["closing_visits"], fail),
        prices=_prices(data["prices"], fail),
        scoring=_scoring(data["scoring"], fail),
        stand_in=stand_in,
    )


def _contacts(raw: Any, fail: Fail) -> tuple[ContactCard, ...]:
    """The contact deck, one entry per physical card (an entry's ``count`` copies are repeated)."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PILE:
        raise fail(f"'contacts' must list 1..{MAX_PILE} card kinds")
    out: list[ContactCard] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        what = f"contact {i}"
        entry = _obj(entry, _CONTACT_KEYS, what, fail)
        name = _name(entry["name"], seen, what, fail)
        what = f"contact {name!r}"
        kind = ContactKind(_choice(entry["kind"], CONTACT_KINDS, f"{what} 'kind'", fail))
        cost = _int(entry["cost"], 0, MAX_MONEY, f"{what} 'cost'", fail)
        star = _bool(entry["notoriety"], f"{what} 'notoriety'", fail)
        police = tuple(Police(p) for p in _ids(entry["police"], POLICE, 0, f"{what} 'police'", fail))
        if kind in ONE_COLOUR_KINDS and len(police) != 1:
            raise fail(f"{what}: a {CONTACT_KINDS[kind]} card names exactly one police colour")
        if kind in COLOUR_KINDS and not police:
            raise fail(f"{what}: a {CONTACT_KINDS[kind]} card names at least one police colour")
        if kind not in COLOUR_KINDS and police:
            raise fail(f"{what}: a {CONTACT_KINDS[kind]} card names no police colour")
        count = _int(entry["count"], 1, MAX_PILE, f"{what} 'count'", fail)
        out.extend([ContactCard(name, kind, cost, star, police)] * count)
    if not MIN_CONTACTS <= len(out) <= MAX_PILE:
        raise fail(f"'contacts' hold {len(out)} cards; the deck must hold {MIN_CONTACTS}..{MAX_PILE}")
    return tuple(out)


def _plans(raw: Any, fail: Fail) -> tuple[PlanCard, ...]:
    """The Escape Plan cards: each group two amounts adding to $150k and one income mark; all different."""
    if not isinstance(raw, list) or not MIN_PLANS <= len(raw) <= MAX_PILE:
        raise fail(f"'plans' must list {MIN_PLANS}..{MAX_PILE} plan cards")
    out: list[PlanCard] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        what = f"plan {i}"
        entry = _obj(entry, _PLAN_KEYS, what, fail)
        name = _name(entry["name"], seen, what, fail)
        what = f"plan {name!r}"
        groups = entry["groups"]
        if not isinstance(groups, list) or len(groups) != 3:
            raise fail(f"{what} 'groups' must list 3 groups (businesses 1-3, businesses 4-6, safe houses)")
        parsed: list[tuple[int | None, ...]] = []
        for g, group in enumerate(groups):
            gwhat = f"{what} group {g + 1}"
            if not isinstance(group, list) or len(group) != 3:
                raise fail(f"{gwhat} must list 3 entries")
            cells: list[int | None] = []
            for cell in group:
                if cell == INCOME:
                    cells.append(None)
                else:
                    cells.append(_int(cell, 0, GROUP_TOTAL, f"{gwhat} entry", fail))
            if cells.count(None) != 1:
                raise fail(f"{gwhat} must hold exactly one {INCOME!r} mark")
            total = sum(c for c in cells if c is not None)
            if total != GROUP_TOTAL:
                raise fail(f"{gwhat}: the two amounts add up to {total}, not {GROUP_TOTAL}")
            parsed.append(tuple(cells))
        card = PlanCard(name, tuple(parsed))
        if any(card.groups == other.groups for other in out):
            raise fail(f"{what} repeats another plan card's values; each card is unique")
        out.append(card)
    return tuple(out)


def _lockers(raw: Any, fail: Fail) -> tuple[LockerStack, ...]:
    """The three locker stacks; each holds one $0 tile ("Lockers")."""
    table = _obj(raw, frozenset(LOCKERS), "'lockers'", fail)
    out: list[LockerStack] = []
    for colour in LOCKERS:
        what = f"locker {colour!r}"
        entry = _obj(table[colour], _LOCKER_KEYS, what, fail)
        requirement = _int(entry["requirement"], 0, MAX_ROWS + CONTACT_SPACES, f"{what} 'requirement'", fail)
        draw = _int(entry["draw"], -CONTACT_SPACES, CONTACT_SPACES, f"{what} 'draw'", fail)
        values = _values(entry["values"], f"{what} 'values'", fail)
        if values.count(0) != 1:
            raise fail(f"{what} 'values' must hold exactly one $0 tile, not {values.count(0)}")
        out.append(LockerStack(requirement, draw, values))
    return tuple(out)


def _exit_tiles(raw: Any, fail: Fail) -> tuple[tuple[int, ...], ...]:
    """The two exit tile stacks ("10 Exit tiles in 2 types"; one goes on each closed exit)."""
    if not isinstance(raw, list) or len(raw) != 2:
        raise fail("'exit_tiles' must list 2 stacks")
    return tuple(_values(stack, f"exit stack {i}", fail) for i, stack in enumerate(raw))


def _notoriety(raw: Any, fail: Fail) -> NotorietyTrack:
    """The track: rows, three threshold lines strictly inside it, one non-increasing penalty per row."""
    entry = _obj(raw, _NOTORIETY_KEYS, "'notoriety'", fail)
    bottom = _int(entry["bottom"], 0, MAX_ROWS, "'notoriety' 'bottom'", fail)
    top = _int(entry["top"], bottom + 3, bottom + MAX_ROWS, "'notoriety' 'top' (bottom + 3 or more)", fail)
    lines = entry["lines"]
    if not isinstance(lines, list) or len(lines) != 3:
        raise fail("'notoriety' 'lines' must list the 3 threshold lines")
    parsed = tuple(_int(x, bottom + 1, top, "'notoriety' line", fail) for x in lines)
    if not parsed[0] < parsed[1] < parsed[2]:
        raise fail(f"'notoriety' 'lines' must rise strictly, not {list(parsed)}")
    penalty = entry["penalty"]
    rows = top - bottom + 1
    if not isinstance(penalty, list) or len(penalty) != rows:
        raise fail(f"'notoriety' 'penalty' must list one value per row ({rows})")
    values = tuple(_int(x, -MAX_MONEY, 0, "'notoriety' penalty", fail) for x in penalty)
    if any(b > a for a, b in zip(values, values[1:], strict=False)):
        raise fail("'notoriety' 'penalty' must not rise with the row")
    return NotorietyTrack(bottom, top, parsed, values)


def _board(raw: Any, fail: Fail) -> BoardLayout:
    """The player board: space counts, where the three shields start, the asset-space costs, the supply."""
    entry = _obj(raw, _BOARD_KEYS, "'board'", fail)
    items = _int(entry["item_spaces"], len(ITEM_START_ASSETS), MAX_ITEM_SPACES, "'board' 'item_spaces'", fail)
    starts = entry["item_asset_spaces"]
    if not isinstance(starts, list) or len(starts) != len(ITEM_START_ASSETS):
        raise fail(f"'board' 'item_asset_spaces' must list {len(ITEM_START_ASSETS)} spaces")
    spaces = tuple(_int(s, 0, items - 1, "'board' item asset space", fail) for s in starts)
    if len(set(spaces)) != len(spaces):
        raise fail("'board' 'item_asset_spaces' lists a space twice")
    contact_spaces = _int(entry["contact_spaces"], CONTACT_SPACES, CONTACT_SPACES, "'board' 'contact_spaces'",
                          fail)
    costs = entry["asset_costs"]
    if not isinstance(costs, list) or len(costs) != ASSET_SPACES:
        raise fail(f"'board' 'asset_costs' must list {ASSET_SPACES} spaces")
    asset_costs = tuple(_int(c, 0, MAX_MONEY, "'board' asset cost", fail) for c in costs)

    def count(key: str, low: int, high: int) -> int:
        return _int(entry[key], low, high, f"'board' {key!r}", fail)

    return BoardLayout(
        item_spaces=items, item_asset_spaces=spaces, contact_spaces=contact_spaces, asset_costs=asset_costs,
        max_gas_cans=count("max_gas_cans", 0, 10), start_money=count("start_money", 0, MAX_MONEY),
        income_cubes=count("income_cubes", 1, 20), green_wounds=count("green_wounds", 1, 10),
        notoriety_cubes=count("notoriety_cubes", 1, 10), gang_markers=count("gang_markers", 0, 10),
    )


def _patrol(raw: Any, fail: Fail) -> tuple[int, ...]:
    """The 6 patrol cards, each naming exit 1..3."""
    if not isinstance(raw, list) or len(raw) != PATROL_CARDS:
        raise fail(f"'patrol' must list {PATROL_CARDS} cards")
    return tuple(_int(x, 1, EXITS, "'patrol' card", fail) for x in raw)


def _inspector(raw: Any, fail: Fail) -> tuple[tuple[str, str], ...]:
    """Sandra's Inspector deck: each card a (kind, label) Location (Sandra's Cards)."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PILE:
        raise fail(f"'inspector' must list 1..{MAX_PILE} cards")
    out: list[tuple[str, str]] = []
    for i, entry in enumerate(raw):
        what = f"inspector card {i}"
        entry = _obj(entry, _INSPECTOR_KEYS, what, fail)
        kinds = tuple(INSPECTOR_LABELS)
        kind = kinds[_choice(entry["kind"], kinds, f"{what} 'kind'", fail)]
        labels = INSPECTOR_LABELS[kind]
        out.append((kind, labels[_choice(entry["label"], labels, f"{what} 'label'", fail)]))
    return tuple(out)


def _escape_costs(raw: Any, fail: Fail) -> dict[int, tuple[int, ...]]:
    """Escape cost per player count, one price per order of leaving ("Escaping the City")."""
    table = _obj(raw, frozenset(str(n) for n in PLAYER_COUNTS), "'escape_costs'", fail)
    out: dict[int, tuple[int, ...]] = {}
    for n in PLAYER_COUNTS:
        row = table[str(n)]
        if not isinstance(row, list) or len(row) != n:
            raise fail(f"'escape_costs' {str(n)!r} must list {n} costs")
        out[n] = tuple(_int(x, 0, MAX_MONEY, f"'escape_costs' {str(n)!r} cost", fail) for x in row)
    return out


def _closing(raw: Any, fail: Fail) -> dict[int, int]:
    """Visits that close a business, per player count 1..5 ("Closing a Business")."""
    keys = frozenset(str(n) for n in range(1, 6))
    table = _obj(raw, keys, "'closing_visits'", fail)
    return {n: _int(table[str(n)], 1, 10, f"'closing_visits' {str(n)!r}", fail) for n in range(1, 6)}


def _prices(raw: Any, fail: Fail) -> Prices:
    """The Location prices."""
    entry = _obj(raw, _PRICE_KEYS, "'prices'", fail)
    hospital = entry["hospital"]
    if not isinstance(hospital, list) or len(hospital) != 3:
        raise fail("'prices' 'hospital' must list the prices of healing 1, 2, 3 wounds")
    heal = tuple(_int(x, 0, MAX_MONEY, "'prices' hospital price", fail) for x in hospital)

    def price(key: str) -> int:
        return _int(entry[key], 0, MAX_MONEY, f"'prices' {key!r}", fail)

    return Prices(heal, price("church"), price("gang"), price("income_unlock"), price("after_escape"))


def _scoring(raw: Any, fail: Fail) -> Scoring:
    """Final Scoring's table."""
    entry = _obj(raw, _SCORING_KEYS, "'scoring'", fail)
    table = entry["contacts"]
    if not isinstance(table, list) or len(table) != CONTACT_SPACES + 1:
        raise fail(f"'scoring' 'contacts' must list {CONTACT_SPACES + 1} values (0..{CONTACT_SPACES} cards)")
    return Scoring(
        contacts=tuple(_int(x, 0, MAX_MONEY, "'scoring' contacts value", fail) for x in table),
        used_asset=_int(entry["used_asset"], 0, MAX_MONEY, "'scoring' 'used_asset'", fail),
        red_wound=_int(entry["red_wound"], -MAX_MONEY, 0, "'scoring' 'red_wound'", fail),
    )


def _table(raw: Any, names: tuple[str, ...], what: str, fail: Fail) -> tuple[int, ...]:
    """A JSON object giving a price for every one of ``names``, in ``names`` order."""
    table = _obj(raw, frozenset(names), what, fail)
    return tuple(_int(table[n], 0, MAX_MONEY, f"{what} {n!r}", fail) for n in names)


def _values(raw: Any, what: str, fail: Fail) -> tuple[int, ...]:
    """A stack of 1..:data:`MAX_PILE` tile values ($k)."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PILE:
        raise fail(f"{what} must list 1..{MAX_PILE} tile values")
    return tuple(_int(x, 0, MAX_MONEY, f"{what} value", fail) for x in raw)


def _obj(raw: Any, keys: frozenset[str], what: str, fail: Fail) -> dict[str, Any]:
    """A JSON object with exactly ``keys``."""
    if not isinstance(raw, dict):
        raise fail(f"{what} must be a JSON object")
    _keys(raw, keys, keys, what, fail)
    return raw


def _keys(entry: dict[Any, Any], required: frozenset[str], allowed: frozenset[str], what: str,
          fail: Fail) -> None:
    """Refuse a missing required key or a key not in ``allowed``."""
    missing = sorted(required - entry.keys())
    if missing:
        raise fail(f"{what} is missing {', '.join(map(repr, missing))}")
    unknown = sorted(str(k) for k in entry.keys() - allowed)
    if unknown:
        raise fail(f"{what} has unknown key {_show(unknown[0])} (allowed: {', '.join(sorted(allowed))})")


def _name(raw: Any, seen: set[str], what: str, fail: Fail) -> str:
    """A card name: printable, one line, at most :data:`MAX_NAME` long, not used before."""
    if not isinstance(raw, str) or not 1 <= len(raw) <= MAX_NAME or not raw.isprintable() \
            or raw != raw.strip():
        raise fail(f"{what}: 'name' must be 1..{MAX_NAME} printable characters, not {_show(raw)}")
    if raw in seen:
        raise fail(f"{what}: name {raw!r} is used twice")
    seen.add(raw)
    return raw


def _int(raw: Any, low: int, high: int, what: str, fail: Fail) -> int:
    """An int in ``low..high``; a bool is refused although Python counts it as an int."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise fail(f"{what} must be an integer in {low}..{high}, not {_show(raw)}")
    return raw


def _bool(raw: Any, what: str, fail: Fail) -> bool:
    """A JSON true or false (not 0 or 1)."""
    if not isinstance(raw, bool):
        raise fail(f"{what} must be true or false, not {_show(raw)}")
    return raw


def _choice(raw: Any, names: tuple[str, ...], what: str, fail: Fail) -> int:
    """The index of ``raw`` in ``names``."""
    if not isinstance(raw, str) or raw not in names:
        raise fail(f"{what}: {_show(raw)} is not one of {', '.join(names)}")
    return names.index(raw)


def _ids(raw: Any, names: tuple[str, ...], least: int, what: str, fail: Fail) -> tuple[int, ...]:
    """A list of at least ``least`` distinct ids from ``names``, as indices in the file's order."""
    if not isinstance(raw, list) or not least <= len(raw) <= len(names):
        raise fail(f"{what} must list {least}..{len(names)} ids")
    out = tuple(_choice(r, names, what, fail) for r in raw)
    if len(set(out)) != len(out):
        raise fail(f"{what} lists an id twice")
    return out


def _show(value: Any) -> str:
    """``repr(value)`` cut short, so an error about a huge value stays one readable line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
