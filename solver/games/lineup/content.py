"""LineUp card content: the Suspect decks and the Lucky Break deck, loaded from documented JSON files.

Both shipped files are stand-ins, marked ``"stand_in": true`` with a note (the published cards are
not known, ``shared/research/components.md``); user files of the same formats replace them.

Suspects (``copsolver-lineup-suspects/1``, ``data/suspects.json``): a card is a vector of visible
features, so lineups are genuinely confusable [Lineups]: "innocent bystanders who resemble the
suspect"; components.md: "the 16 cards of a scene show one character with small variations"::

    {"format": "copsolver-lineup-suspects/1", "stand_in": true, "note": "...",
     "features": {"hair": ["short", "long", ...], "hat": [...], ...},
     "scenes": {"bakery": {"character": "...", "cards": [{"id": "bakery-01",
                                                          "features": {"hair": "curly", ...}}, ...]},
                ...}}

Every card names a value for every feature; two cards of one scene never look exactly alike.

Lucky Break (``copsolver-lineup-lucky/1``, ``data/lucky.json``): counts of the three kinds the
engine knows [On a Lucky Break Space]; components.md: "another look at a suspect, send a pawn
straight back to the police station, or hinder an opponent"::

    {"format": "copsolver-lineup-lucky/1", "stand_in": true, "note": "...",
     "cards": [{"kind": "another-look", "count": 10, "text": "..."}, ...]}
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final

from solver.games.lineup.files import checked, read_json

SUSPECTS_FORMAT: Final = "copsolver-lineup-suspects/1"
LUCKY_FORMAT: Final = "copsolver-lineup-lucky/1"
MAX_SCENES: Final = 8
MAX_CARDS: Final = 32  # per scene (the codec's blocks)
MAX_LUCKY: Final = 200
_ID = re.compile(r"^[a-z][a-z0-9-]*$")


class Lucky(IntEnum):
    """A Lucky Break card kind."""

    ANOTHER_LOOK = 0  # look at one of your face-down Suspect cards again
    TO_STATION = 1  # move your pawn straight to the police station
    HINDER = 2  # an opponent's Lineup Count goes up by one


LUCKY_NAMES: Final[tuple[str, ...]] = ("another-look", "to-station", "hinder")


@dataclass(frozen=True)
class SuspectCard:
    """One Suspect card: its id and the value of every feature (in :attr:`Suspects.features` order)."""

    id: str
    values: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class Suspects:
    """The Suspect decks: per scene name, its cards in file order (card number i is cards[i])."""

    name: str
    features: tuple[str, ...]
    scenes: dict[str, tuple[SuspectCard, ...]]
    stand_in: bool

    def features_of(self, card: SuspectCard) -> dict[str, str]:
        """The card's features as a JSON object."""
        return dict(zip(self.features, card.values, strict=True))


@dataclass(frozen=True, eq=False)
class LuckyDeck:
    """The Lucky Break deck: how many cards of each kind (by :class:`Lucky`)."""

    name: str
    counts: tuple[int, ...]
    texts: tuple[str, ...]
    stand_in: bool


def load_suspects(path: str | None = None) -> Suspects:
    """Load the shipped stand-in Suspect decks or a user file; :class:`BadStateError` names the fault."""
    data, where = read_json(path, "suspects.json", "suspects")
    return parse_suspects(data, where)


def parse_suspects(data: Any, where: str = "suspects") -> Suspects:
    """Check a suspects document and build :class:`Suspects`."""
    fail = checked(data, SUSPECTS_FORMAT, "suspects", where)
    feats = data.get("features")
    if not isinstance(feats, dict) or not feats or not all(
        isinstance(k, str) and isinstance(v, list) and len(v) >= 2 and all(isinstance(x, str) for x in v)
        for k, v in feats.items()
    ):
        raise fail("'features' must map each feature name to a list of at least two values")
    names = tuple(feats)
    scenes = data.get("scenes")
    if not isinstance(scenes, dict) or not 4 <= len(scenes) <= MAX_SCENES:
        raise fail(f"'scenes' must map 4..{MAX_SCENES} scene names to their decks")
    decks: dict[str, tuple[SuspectCard, ...]] = {}
    ids: set[str] = set()
    for scene, deck in scenes.items():
        cards = deck.get("cards") if isinstance(deck, dict) else None
        if not isinstance(cards, list) or not 2 <= len(cards) <= MAX_CARDS:
            raise fail(f"scene {scene!r}: 'cards' must list 2..{MAX_CARDS} cards")
        out: list[SuspectCard] = []
        looks: set[tuple[str, ...]] = set()
        for i, entry in enumerate(cards):
            cid = entry.get("id") if isinstance(entry, dict) else None
            if not isinstance(cid, str) or not _ID.match(cid) or cid in ids:
                raise fail(f"scene {scene!r} card {i}: id {cid!r} must be unused, of a-z, 0-9, '-'")
            ids.add(cid)
            values = entry.get("features")
            if not isinstance(values, dict) or set(values) != set(names):
                raise fail(f"card {cid!r}: 'features' must give exactly {', '.join(names)}")
            for f in names:
                if values[f] not in feats[f]:
                    raise fail(f"card {cid!r}: {f} {values[f]!r} is not one of {feats[f]}")
            look = tuple(str(values[f]) for f in names)
            if look in looks:
                raise fail(f"card {cid!r} looks exactly like another card of {scene!r}")
            looks.add(look)
            out.append(SuspectCard(cid, look))
        decks[str(scene)] = tuple(out)
    return Suspects(str(data.get("name", "")), names, decks, bool(data.get("stand_in", False)))


def load_lucky(path: str | None = None) -> LuckyDeck:
    """Load the shipped stand-in Lucky Break deck or a user file; :class:`BadStateError` names the fault."""
    data, where = read_json(path, "lucky.json", "lucky")
    return parse_lucky(data, where)


def parse_lucky(data: Any, where: str = "lucky") -> LuckyDeck:
    """Check a Lucky Break document and build the :class:`LuckyDeck`."""
    fail = checked(data, LUCKY_FORMAT, "lucky", where)
    raw = data.get("cards")
    if not isinstance(raw, list):
        raise fail("'cards' must list {kind, count, text} entries")
    counts = [0] * len(Lucky)
    texts = [""] * len(Lucky)
    for entry in raw:
        kind = entry.get("kind") if isinstance(entry, dict) else None
        if kind not in LUCKY_NAMES:
            raise fail(f"kind {kind!r} is not one the engine knows ({', '.join(LUCKY_NAMES)})")
        k = LUCKY_NAMES.index(kind)
        count, text = entry.get("count"), entry.get("text", "")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0 or texts[k]:
            raise fail(f"kind {kind!r}: listed twice, or count {count!r} is not an int >= 0")
        counts[k] = count
        texts[k] = str(text) or kind
    if sum(counts) > MAX_LUCKY:
        raise fail(f"{sum(counts)} cards; at most {MAX_LUCKY}")
    stand_in = bool(data.get("stand_in", False))
    return LuckyDeck(str(data.get("name", "")), tuple(counts), tuple(texts), stand_in)
