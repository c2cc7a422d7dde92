"""Police Precinct card content: characters, police cards, event cards, markers and tracks.

The shipped ``data/content.json`` is a **stand-in** (``"stand_in": true`` and a note): the published
cards were not found in public sources (``shared/research/components.md``), so every value is our own,
fitted to the rulebook; ``docs/precinct-content.md`` lists and explains each one. A user's file of the
same format (game option ``content=PATH``) replaces it; the rulebook's "Adjusting Difficulty" invites
smaller or larger decks, so a user's totals are free within :data:`MAX_TOTAL`, while the shipped file
has the published component counts (44 police cards, 39 events, 20 Unknown Circumstances, 12 upgrades,
13 evidence). Format ``copsolver-precinct-content/1``::

    {"format": "copsolver-precinct-content/1", "stand_in": true, "note": "...",
     "characters": [{"name": "Costello", "investigate": 2, "arrest": 2, "emergency": 2,
                     "powers": ["canvasser"]}, ...],
     "police": [{"name": "Backup", "symbol": "arrest", "double": false, "text": "backup", "count": 4}, ...],
     "events": [{"name": "Mugging", "special": "", "color": "red", "number": 3, "location": "apartment",
                 "unknown": true, "punks": 1, "rewards": ["donut", "police_card"], "both": false,
                 "hospital": false, "count": 2}, ...],
     "unknown_counts": {"insider_knowledge": 2, ...},          # every UNKNOWN kind
     "gangs": ["enforcers", "recruiters", "lookouts", "blockers"],
     "upgrade_counts": {"investigate": 3, ...},                 # every UPGRADES kind
     "decks": {"crime_scene": {"size": 14, "evidence": 4}, ...},  # every DECKS stack
     "loyalty_actions": ["incite", "steal_donut", "stir_trouble"], "reveal_donuts": 2,
     "murderer_turn": 16, "fail_turn": 22, "crime_fail": 10, "donuts": 18}

Every key is required (``note`` may be left out) and no other key is allowed, so a misspelt key is
an error instead of a silently ignored value. :func:`load_content` checks every event location
against the city the game is played on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final

from solver.core import files
from solver.core.errors import BadStateError

if TYPE_CHECKING:
    from solver.games.precinct.city import City

FORMAT: Final = "copsolver-precinct-content/1"
#: Largest total of any one pile (police cards, event cards, markers, upgrades, one investigation deck)
#: and largest count of anything: far above the published piles, small enough that a hostile file
#: cannot make the engine build huge decks.
MAX_TOTAL: Final = 200
#: Most characters a file may list; the table allows eight players, a variant may want more to choose from.
MAX_CHARACTERS: Final = 64
#: Longest name (character, card) a file may give; names are printed on one line of a board printout.
MAX_NAME: Final = 80
#: Highest character value and highest special-event number: values are dice, and a die has six faces.
MAX_VALUE: Final = 6
#: Longest turn or crime track a file may give.
MAX_TRACK: Final = 100
#: The murderer enters Bad Hood 6 on ``murderer_turn``, moves one hood lower each turn to Bad Hood 1
#: and leaves the board on the next: the FAIL space is always this many turns after he appears.
ESCAPE_TURNS: Final = 6


class Symbol(IntEnum):
    """A police card's top-right symbol: what it adds when played to assist another player."""

    INVESTIGATE = 0  # the investigator draws one more investigation card
    ARREST = 1  # one more die on an arrest
    EMERGENCY = 2  # one more die on an emergency


#: The symbols' names in the file, in :class:`Symbol` order.
SYMBOLS: Final[tuple[str, ...]] = ("investigate", "arrest", "emergency")

POWERS: Final[tuple[str, ...]] = (
    "thorough", "swat", "federal_agent", "fast", "tough", "negotiator", "forensics",
    "street_smart", "motorcycle", "canvasser", "donut_lover", "big_hand", "desk_sergeant",
)
TEXTS: Final[tuple[str, ...]] = (
    "fresh_perspective", "dispatch_officers", "air_support", "overtime", "backup", "crime_lab",
    "community_outreach", "tow_truck", "informant_tip", "coffee_break", "paperwork", "hot_pursuit",
)
REWARDS: Final[tuple[str, ...]] = ("donut", "police_card", "look_investigation", "look_event", "skip_event")
SPECIALS: Final[tuple[str, ...]] = (
    "problems_in_the_hood", "street_riot", "gas_leak", "jail_break", "detainees_run_amok",
    "dedicated_officer", "officer_down", "overburdened", "crime_wave", "escort_van",
    "optional_training", "car_theft", "internal_affairs",
)
#: The rulebook's ten kinds of Unknown Circumstances, in its order ("Unknown Circumstances Explained").
UNKNOWN: Final[tuple[str, ...]] = (
    "insider_knowledge", "punks", "stolen_goods", "disrespect", "respect", "angry_dog",
    "big_knife", "shotgun", "hostage", "bomb",
)
GANGS: Final[tuple[str, ...]] = ("enforcers", "recruiters", "lookouts", "blockers")
UPGRADES: Final[tuple[str, ...]] = ("investigate", "arrest", "emergency", "move")
#: The investigation decks, in this order.
DECKS: Final[tuple[str, ...]] = ("crime_scene", "interview", "examine_body", "weapon")
COLORS: Final[tuple[str, ...]] = ("red", "blue", "green", "yellow")
#: What a revealed dirty cop may do as his turn's action.
LOYALTY_ACTIONS: Final[tuple[str, ...]] = ("incite", "steal_donut", "stir_trouble")
#: Event locations that are not a place in the city: rolled at placement ("apartment", "warehouse",
#: "hood") or none ("", specials that are not placed on the board).
ROLLED_LOCATIONS: Final[tuple[str, ...]] = ("apartment", "warehouse", "hood")

_TOP_KEYS: Final = frozenset({
    "format", "stand_in", "note", "characters", "police", "events", "unknown_counts", "gangs",
    "upgrade_counts", "decks", "loyalty_actions", "reveal_donuts", "murderer_turn", "fail_turn",
    "crime_fail", "donuts",
})
_CHARACTER_KEYS: Final = frozenset({"name", "investigate", "arrest", "emergency", "powers"})
_POLICE_KEYS: Final = frozenset({"name", "symbol", "double", "text", "count"})
_EVENT_KEYS: Final = frozenset({
    "name", "special", "color", "number", "location", "unknown", "punks", "rewards", "both",
    "hospital", "count",
})
_DECK_KEYS: Final = frozenset({"size", "evidence"})


@dataclass(frozen=True)
class Character:
    """A character card: its three values (dice or cards per action) and its special powers."""

    name: str
    investigate: int
    arrest: int
    emergency: int
    powers: tuple[str, ...]


@dataclass(frozen=True)
class PoliceCard:
    """A police card kind: the symbol used to assist (counted twice when ``double``) and its text."""

    name: str
    symbol: Symbol
    double: bool
    text: str


@dataclass(frozen=True)
class EventCard:
    """An event card kind: an emergency (``special == ""``) or one of the purple special events."""

    name: str
    special: str
    color: str
    number: int
    location: str
    unknown: bool
    punks: int
    rewards: tuple[str, ...]
    both: bool
    hospital: bool


@dataclass(frozen=True)
class Content:
    """Everything on the cards and markers, as one game uses it (see the module docstring)."""

    characters: tuple[Character, ...]
    police: tuple[PoliceCard, ...]
    police_counts: tuple[int, ...]
    events: tuple[EventCard, ...]
    event_counts: tuple[int, ...]
    unknown_counts: tuple[int, ...]
    gangs: tuple[str, ...]
    upgrade_counts: tuple[int, ...]
    decks: tuple[tuple[int, int], ...]
    loyalty_actions: tuple[str, ...]
    reveal_donuts: int
    murderer_turn: int
    fail_turn: int
    crime_fail: int
    donuts: int
    stand_in: bool


Fail = Callable[[str], BadStateError]


def load_content(path: str | None, city: City) -> Content:
    """The shipped stand-in content (``path`` None) or a user's file, checked against ``city``.

    Every fault is a one-line :class:`BadStateError` ``precinct content <path>: <fault>``.
    """
    if path is None:
        data = files.read_shipped("solver.games.precinct", "data/content.json")
        where = "(shipped data/content.json)"
    else:
        data = files.read_json(path, "precinct content")
        where = str(path)
    return parse_content(data, city, where)


def parse_content(data: Any, city: City, where: str = "(document)") -> Content:
    """Check a parsed content document (``where`` names it in errors) and build the :class:`Content`."""
    def fail(message: str) -> BadStateError:
        return BadStateError(f"precinct content {where}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f'expected a JSON object with "format": "{FORMAT}"')
    _keys(data, _TOP_KEYS - {"note"}, _TOP_KEYS, "the document", fail)
    if not isinstance(data["stand_in"], bool):
        raise fail(f"'stand_in' must be true or false, not {_show(data['stand_in'])}")
    if "note" in data and not isinstance(data["note"], str):
        raise fail(f"'note' must be a string, not {_show(data['note'])}")
    places = _places(city)
    police, police_counts = _police(data["police"], fail)
    events, event_counts = _events(data["events"], places, fail)
    donuts = _int(data["donuts"], 1, MAX_TOTAL, "'donuts'", fail)
    murderer_turn = _int(data["murderer_turn"], 1, MAX_TRACK - ESCAPE_TURNS, "'murderer_turn'", fail)
    fail_turn = _int(data["fail_turn"], 1, MAX_TRACK, "'fail_turn'", fail)
    if fail_turn != murderer_turn + ESCAPE_TURNS:
        # the murderer walks Bad Hood 6 .. 1 and escapes on the next turn (rulebook, "Turn Track")
        raise fail(f"'fail_turn' {fail_turn} must be 'murderer_turn' + {ESCAPE_TURNS} = "
                   f"{murderer_turn + ESCAPE_TURNS}")
    return Content(
        characters=_characters(data["characters"], fail),
        police=police,
        police_counts=police_counts,
        events=events,
        event_counts=event_counts,
        unknown_counts=_counts(data["unknown_counts"], UNKNOWN, "'unknown_counts'", fail),
        gangs=_gangs(data["gangs"], fail),
        upgrade_counts=_counts(data["upgrade_counts"], UPGRADES, "'upgrade_counts'", fail),
        decks=_decks(data["decks"], fail),
        loyalty_actions=_ids(data["loyalty_actions"], LOYALTY_ACTIONS, 1, "'loyalty_actions'", fail),
        reveal_donuts=_int(data["reveal_donuts"], 0, donuts, "'reveal_donuts' (at most 'donuts')", fail),
        murderer_turn=murderer_turn,
        fail_turn=fail_turn,
        crime_fail=_int(data["crime_fail"], 1, MAX_TRACK, "'crime_fail'", fail),
        donuts=donuts,
        stand_in=data["stand_in"],
    )


def symbol_name(symbol: Symbol) -> str:
    """The file's name of ``symbol`` ("investigate", "arrest", "emergency")."""
    return SYMBOLS[symbol]


def _places(city: City) -> frozenset[str]:
    """Every location name an event may give on ``city``: its places and the rolled ones."""
    named: set[str] = set(ROLLED_LOCATIONS)
    for names in (city.buildings, city.street_ids, city.intersection_ids):
        named.update(names)
    return frozenset(named)


def _characters(raw: Any, fail: Fail) -> tuple[Character, ...]:
    """The character cards; at least two, since a solo game plays two (rulebook, "Special Rules")."""
    out: list[Character] = []
    listed = _named(raw, "characters", "characters", "character", 2, MAX_CHARACTERS, _CHARACTER_KEYS, fail)
    for name, what, entry in listed:
        values = [_int(entry[v], 1, MAX_VALUE, f"{what} {v!r}", fail) for v in SYMBOLS]
        powers = _ids(entry["powers"], POWERS, 0, f"{what} 'powers'", fail)
        out.append(Character(name, values[0], values[1], values[2], powers))
    return tuple(out)


def _police(raw: Any, fail: Fail) -> tuple[tuple[PoliceCard, ...], tuple[int, ...]]:
    """The police card kinds and their copies."""
    cards: list[PoliceCard] = []
    counts: list[int] = []
    listed = _named(raw, "police", "card kinds", "police card", 1, MAX_TOTAL, _POLICE_KEYS, fail)
    for name, what, entry in listed:
        symbol = Symbol(_choice(entry["symbol"], SYMBOLS, f"{what} 'symbol'", fail))
        double = _bool(entry["double"], f"{what} 'double'", fail)
        text = TEXTS[_choice(entry["text"], TEXTS, f"{what} 'text'", fail)]
        cards.append(PoliceCard(name, symbol, double, text))
        counts.append(_int(entry["count"], 0, MAX_TOTAL, f"{what} 'count'", fail))
    _total(counts, "'police' cards", fail)
    return tuple(cards), tuple(counts)


def _events(raw: Any, places: frozenset[str], fail: Fail) -> tuple[tuple[EventCard, ...], tuple[int, ...]]:
    """The event card kinds and their copies, each location checked against ``places``."""
    cards: list[EventCard] = []
    counts: list[int] = []
    specials: set[str] = set()
    listed = _named(raw, "events", "card kinds", "event card", 1, MAX_TOTAL, _EVENT_KEYS, fail)
    for name, what, entry in listed:
        count = _int(entry["count"], 0, MAX_TOTAL, f"{what} 'count'", fail)
        card = _event(entry, name, places, what, fail)
        if card.special:
            # one card of each: the engine keeps one active copy of a special's state (a van, a leak)
            if card.special in specials or count > 1:
                raise fail(f"{what}: special {card.special!r} may have one card only")
            specials.add(card.special)
        cards.append(card)
        counts.append(count)
    _total(counts, "'events' cards", fail)
    emergencies = sum(n for card, n in zip(cards, counts, strict=True) if not card.special)
    if emergencies < 2:
        # set-up draws until two emergencies are placed (rulebook, set-up "39 EVENT CARDS")
        raise fail(f"'events' must hold at least 2 emergency cards, not {emergencies}")
    return tuple(cards), tuple(counts)


def _event(entry: dict[str, Any], name: str, places: frozenset[str], what: str, fail: Fail) -> EventCard:
    """One event card kind; emergencies and specials differ in which values they may take."""
    special = entry["special"]
    if special != "":
        special = SPECIALS[_choice(special, SPECIALS, f"{what} 'special'", fail)]
    location = entry["location"]
    if not isinstance(location, str) or location not in places and not (special and location == ""):
        raise fail(f"{what}: location {_show(location)} is not a building, street or intersection of "
                   f"the city, nor one of {', '.join(ROLLED_LOCATIONS)}" + (" or ''" if special else ""))
    unknown = _bool(entry["unknown"], f"{what} 'unknown'", fail)
    punks = _int(entry["punks"], 0, 2, f"{what} 'punks'", fail)
    rewards = _ids(entry["rewards"], REWARDS, 0 if special else 1, f"{what} 'rewards'", fail)
    if len(rewards) > 2:
        raise fail(f"{what} 'rewards' lists {len(rewards)} rewards; a card shows one or two")
    both = _bool(entry["both"], f"{what} 'both'", fail)
    if both and len(rewards) < 2:
        raise fail(f"{what} 'both' is true but the card has fewer than two rewards")
    hospital = _bool(entry["hospital"], f"{what} 'hospital'", fail)
    if special:
        if entry["color"] != "":
            raise fail(f"{what}: a special event has color '', not {_show(entry['color'])}")
        number = _int(entry["number"], 0, MAX_VALUE, f"{what} 'number'", fail)
        if unknown:
            raise fail(f"{what}: a special event has no Unknown Circumstances slot")
        return EventCard(name, special, "", number, location, False, punks, rewards, both, hospital)
    color = COLORS[_choice(entry["color"], COLORS, f"{what} 'color'", fail)]
    number = _int(entry["number"], 2, MAX_VALUE, f"{what} 'number'", fail)
    return EventCard(name, "", color, number, location, unknown, punks, rewards, both, hospital)


def _gangs(raw: Any, fail: Fail) -> tuple[str, ...]:
    """The street gang markers' effects, one entry per marker (repeats allowed: two markers alike)."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= len(GANGS) * 4:
        raise fail(f"'gangs' must list 1..{len(GANGS) * 4} gang markers")
    return tuple(GANGS[_choice(g, GANGS, f"'gangs' entry {i}", fail)] for i, g in enumerate(raw))


def _decks(raw: Any, fail: Fail) -> tuple[tuple[int, int], ...]:
    """Per investigation deck in :data:`DECKS` order: (evidence cards, useless cards)."""
    if not isinstance(raw, dict):
        raise fail("'decks' must be a JSON object")
    _keys(raw, frozenset(DECKS), frozenset(DECKS), "'decks'", fail)
    out: list[tuple[int, int]] = []
    for deck in DECKS:
        entry = raw[deck]
        what = f"deck {deck!r}"
        if not isinstance(entry, dict):
            raise fail(f"{what} must be a JSON object")
        _keys(entry, _DECK_KEYS, _DECK_KEYS, what, fail)
        size = _int(entry["size"], 1, MAX_TOTAL, f"{what} 'size'", fail)
        # every category has at least one evidence slot on the Murder Investigation Board
        evidence = _int(entry["evidence"], 1, MAX_TOTAL, f"{what} 'evidence'", fail)
        if evidence > size:
            raise fail(f"{what}: 'evidence' {evidence} is more than its 'size' {size}")
        out.append((evidence, size - evidence))
    return tuple(out)


def _counts(raw: Any, kinds: tuple[str, ...], what: str, fail: Fail) -> tuple[int, ...]:
    """A JSON object giving a count for every one of ``kinds``, in ``kinds`` order."""
    if not isinstance(raw, dict):
        raise fail(f"{what} must be a JSON object")
    _keys(raw, frozenset(kinds), frozenset(kinds), what, fail)
    counts = [_int(raw[k], 0, MAX_TOTAL, f"{what} {k!r}", fail) for k in kinds]
    _total(counts, what, fail)
    return tuple(counts)


def _keys(entry: dict[Any, Any], required: frozenset[str], allowed: frozenset[str], what: str,
          fail: Fail) -> None:
    """Refuse a missing required key or a key not in ``allowed``."""
    missing = sorted(required - entry.keys())
    if missing:
        raise fail(f"{what} is missing {', '.join(map(repr, missing))}")
    unknown = sorted(str(k) for k in entry.keys() - allowed)
    if unknown:
        raise fail(f"{what} has unknown key {_show(unknown[0])} (allowed: {', '.join(sorted(allowed))})")


def _named(raw: Any, key: str, items: str, label: str, low: int, high: int, keys: frozenset[str],
           fail: Fail) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``(name, how errors name it, the object)`` for each entry of the list under ``key``: a list of
    ``low..high`` JSON objects with exactly ``keys`` and names used once."""
    if not isinstance(raw, list) or not low <= len(raw) <= high:
        raise fail(f"{key!r} must list {low}..{high} {items}")
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        what = f"{label} {i}"
        if not isinstance(entry, dict):
            raise fail(f"{what} must be a JSON object")
        _keys(entry, keys, keys, what, fail)
        name = _name(entry["name"], seen, what, fail)
        yield name, f"{label} {name!r}", entry


def _name(raw: Any, seen: set[str], what: str, fail: Fail) -> str:
    """A card or character name: printable, one line, at most :data:`MAX_NAME` long, not used before."""
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


def _ids(raw: Any, names: tuple[str, ...], least: int, what: str, fail: Fail) -> tuple[str, ...]:
    """A list of at least ``least`` distinct ids from ``names``, in the file's order."""
    if not isinstance(raw, list) or not least <= len(raw) <= len(names):
        raise fail(f"{what} must list {least}..{len(names)} ids")
    out = tuple(names[_choice(r, names, what, fail)] for r in raw)
    if len(set(out)) != len(out):
        raise fail(f"{what} lists an id twice")
    return out


def _total(counts: list[int], what: str, fail: Fail) -> None:
    """Refuse an empty pile or one over :data:`MAX_TOTAL`."""
    total = sum(counts)
    if not 1 <= total <= MAX_TOTAL:
        raise fail(f"{what} total {total}; it must be 1..{MAX_TOTAL}")


def _show(value: Any) -> str:
    """``repr(value)`` cut short, so an error about a huge value stays one readable line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."

