"""Equipment cards as content: the effects the engine knows, and the loader of the card file.

The shipped file is ``data/equipment.json`` (format ``copsolver-gcbc-equipment/1``)::

    {
      "format": "copsolver-gcbc-equipment/1",
      "name": "...",
      "decks": {"rulebook": "what this deck is", "4th": "..."},
      "notes": ["..."],
      "cards": [
        {"id": "taser", "name": "Taser", "players": null,
         "rulebook": {"effect": "take-gun", "timing": "own-action", "text": "...", "source": "..."},
         "4th": {...}},                     # optional: a deck without its own variant uses "rulebook"
        ...
      ]
    }

Each card names one engine :class:`Effect` and a :class:`Timing` (rulebook, "Reglas de equipo": a card
is usable at any time unless it says otherwise). ``source`` says where the text comes from; a stand-in
says so. ``players`` is the player-count number, null where none is printed (components.md: Equipment
cards carry none, so every card is used at every player count). A user file of the same format
replaces the shipped one (``content=path``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from solver.core import BadStateError
from solver.core.files import read_json, read_shipped
from solver.games.gcbc.codec import MAX_CARDS

FORMAT: Final = "copsolver-gcbc-equipment/1"
SHIPPED: Final = "shipped"


class Effect(StrEnum):
    """What a card does; each is implemented in :mod:`solver.games.gcbc.effects`."""

    SWAP_OWN = "swap-own"  # swap one of your Integrity cards with one of another player's
    SWAP_OTHERS = "swap-others"  # swap two Integrity cards held by two other players
    NEXT_TURN = "next-turn"  # another player takes the next turn; play goes on from them
    EXTRA_TURN = "extra-turn"  # you take an extra turn right after the current one
    REVIVE = "revive"  # an eliminated player returns, keeping one Integrity card
    TAKE_EQUIPMENT = "take-equipment"  # take another player's Equipment card
    REARRANGE = "rearrange"  # lay your Integrity cards face down again in a new order
    SEE_EQUIPMENT = "see-equipment"  # look at another player's Equipment card
    DISARM = "disarm"  # a player's Gun goes back to the centre
    INVESTIGATE_ARMED = "investigate-armed"  # investigate every other player holding a Gun
    RE_AIM = "re-aim"  # point another player's Gun at a player of your choice
    INVERT = "invert"  # a player's Honest cards count as Crooked and the other way round
    POLYGRAPH = "polygraph"  # you see all of a player's Integrity cards, they see all of yours
    AUDIT = "audit"  # every player with no face-up Integrity card turns one face up
    REDIRECT_SHOT = "redirect-shot"  # the announced shot must go to someone else
    REVERSE = "reverse"  # reverse the turn order
    EXPOSE_INVESTIGATED = "expose-investigated"  # the card just investigated is turned face up
    TAKE_GUN = "take-gun"  # take another player's Gun
    REVEAL_ONE = "reveal-one"  # a player turns one of their face-down cards face up
    INVESTIGATE_TWO_CARDS = "investigate-two-cards"  # look at two face-down cards of one player
    INVESTIGATE_TWO_PLAYERS = "investigate-two-players"  # look at one card of each of two players


class Timing(StrEnum):
    """When a card may be played."""

    ANY = "any"  # in any window (the rulebook's default)
    OWN_TURN = "own-turn"  # in a window of your own turn, without spending your action
    OWN_ACTION = "own-action"  # as your action, when you announce it
    SHOT_ANNOUNCED = "shot-announced"  # after another player announced a shot, before it resolves
    AFTER_INVESTIGATION = "after-investigation"  # right after an investigation


#: Effects whose trigger fixes their timing; every other effect takes any/own-turn/own-action.
FIXED_TIMING: Final[dict[Effect, Timing]] = {
    Effect.REDIRECT_SHOT: Timing.SHOT_ANNOUNCED,
    Effect.EXPOSE_INVESTIGATED: Timing.AFTER_INVESTIGATION,
}
_FREE_TIMINGS: Final = (Timing.ANY, Timing.OWN_TURN, Timing.OWN_ACTION)
_ID = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass(frozen=True)
class EquipmentCard:
    """One Equipment card as this game plays it (one deck's variant of the card)."""

    id: str
    name: str
    effect: Effect
    timing: Timing
    text: str
    source: str


@dataclass(frozen=True)
class EquipmentSet:
    """The cards of one deck of one content file."""

    name: str
    deck: str
    cards: tuple[EquipmentCard, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        """The card ids, in file order (their numbers in action ids)."""
        return tuple(c.id for c in self.cards)


def load_equipment(content: str | None = None, deck: str = "rulebook") -> EquipmentSet:
    """Load the shipped cards (``content`` None) or a user file; pick ``deck``'s variants.

    Raise :class:`BadStateError` naming the file and the fault.
    """
    if content is None:
        return parse_equipment(read_shipped("solver.games.gcbc", "data/equipment.json"), deck,
                               "the shipped equipment.json")
    return parse_equipment(read_json(content, "gcbc content"), deck, repr(content))


def parse_equipment(data: Any, deck: str, where: str = "content") -> EquipmentSet:
    """Check an equipment document and return ``deck``'s cards."""
    def fail(message: str) -> BadStateError:
        return BadStateError(f"gcbc content {where}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f"expected a JSON object with \"format\": \"{FORMAT}\"")
    decks = data.get("decks")
    if not isinstance(decks, dict) or "rulebook" not in decks:
        raise fail("'decks' must be an object naming at least the 'rulebook' deck")
    if deck not in decks:
        raise fail(f"no deck {deck!r}; decks: {', '.join(sorted(decks))}")
    raw = data.get("cards")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_CARDS:
        raise fail(f"'cards' must list 1..{MAX_CARDS} cards")
    cards: list[EquipmentCard] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise fail(f"card {i} is not an object")
        cid, name = entry.get("id"), entry.get("name")
        if not isinstance(cid, str) or not _ID.match(cid):
            raise fail(f"card {i}: id {cid!r} must be lowercase letters, digits and '-', from a letter")
        if any(c.id == cid for c in cards):
            raise fail(f"card id {cid!r} appears twice")
        if not isinstance(name, str) or not name:
            raise fail(f"card {cid!r}: 'name' must be a non-empty string")
        players = entry.get("players")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise fail(f"card {cid!r}: 'players' must be null or an int")
        variant = entry.get(deck, entry.get("rulebook"))
        if not isinstance(variant, dict):
            raise fail(f"card {cid!r}: no {deck!r} or 'rulebook' variant")
        cards.append(_variant(cid, name, variant, fail))
    return EquipmentSet(str(data.get("name", "")), deck, tuple(cards))


def _variant(cid: str, name: str, variant: dict[str, Any], fail: Any) -> EquipmentCard:
    try:
        effect = Effect(str(variant.get("effect")))
        timing = Timing(str(variant.get("timing")))
    except ValueError as err:
        raise fail(f"card {cid!r}: {err} (effects: {', '.join(Effect)})") from err
    allowed = (FIXED_TIMING[effect],) if effect in FIXED_TIMING else _FREE_TIMINGS
    if timing not in allowed:
        raise fail(f"card {cid!r}: effect {effect} takes timing {' or '.join(allowed)}, not {timing}")
    text, source = variant.get("text"), variant.get("source")
    if not isinstance(text, str) or not text or not isinstance(source, str) or not source:
        raise fail(f"card {cid!r}: 'text' and 'source' must be non-empty strings")
    return EquipmentCard(cid, name, effect, timing, text, source)
