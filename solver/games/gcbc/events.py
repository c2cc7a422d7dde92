"""Good Cop Bad Cop events (frozen dataclasses).

A fact some seats may not see is emitted twice, as in Police 07: the full event for the seats that
know it, and a copy with the secret fields set to None for everyone else (see ``GCBCState.split``).
Cards are named ("honest", "taser"); seats and positions count from 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core import Event


@dataclass(frozen=True)
class IntegrityDealt(Event):
    """``seat`` was dealt its Integrity cards (canonical order; None for other seats)."""

    seat: int
    cards: tuple[str, ...] | None


@dataclass(frozen=True)
class Arranged(Event):
    """``seat`` laid its cards face down in a new order (``why``: "setup" or "flashbang")."""

    seat: int
    cards: tuple[str, ...] | None
    why: str


@dataclass(frozen=True)
class EquipmentDrawn(Event):
    """``seat`` took an Equipment card from the deck's top (``source`` "deck": one never seen yet;
    "bottom": a returned card, once no unseen card is left). ``why``: "deal", "equip", "wound"."""

    seat: int
    card: str | None
    source: str
    why: str


@dataclass(frozen=True)
class TurnStarted(Event):
    """Turn ``turn`` of ``seat`` begins (it holds the Lead Investigator marker)."""

    seat: int
    turn: int


@dataclass(frozen=True)
class ActionAnnounced(Event):
    """``seat`` announced ``action`` (``again``: a new announcement after a card resolved)."""

    seat: int
    action: str
    again: bool


@dataclass(frozen=True)
class EquipmentPlayed(Event):
    """``seat`` played ``card`` (it went to the bottom of the deck), at ``target`` if it names one."""

    seat: int
    card: str
    target: int | None


@dataclass(frozen=True)
class Investigated(Event):
    """``by`` looked at ``seat``'s card at ``pos``; ``card`` only for the investigator."""

    by: int
    seat: int
    pos: int
    card: str | None


@dataclass(frozen=True)
class CardFlipped(Event):
    """``seat`` turned its card at ``pos`` face up; everyone sees it."""

    seat: int
    pos: int
    card: str


@dataclass(frozen=True)
class CardsRevealed(Event):
    """Every Integrity card of ``seat`` is face up (shot, eliminated)."""

    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class GunTaken(Event):
    """``seat`` took a Gun from ``source`` ("centre", or a seat's number as text)."""

    seat: int
    source: str


@dataclass(frozen=True)
class Aimed(Event):
    """``seat`` points its Gun at ``target``."""

    seat: int
    target: int


@dataclass(frozen=True)
class GunReturned(Event):
    """``seat``'s Gun went back to the centre of the table."""

    seat: int


@dataclass(frozen=True)
class Shot(Event):
    """``by`` shot ``seat``."""

    by: int
    seat: int


@dataclass(frozen=True)
class Wounded(Event):
    """``seat``, a leader, took a Wounded token."""

    seat: int


@dataclass(frozen=True)
class Eliminated(Event):
    """``seat`` is out (``reason``: "shot" or "lost the leader card")."""

    seat: int
    reason: str


@dataclass(frozen=True)
class EquipmentReturned(Event):
    """``seat`` put ``card`` at the bottom of the deck (``why``: "hand limit", "eliminated")."""

    seat: int
    card: str | None
    why: str


@dataclass(frozen=True)
class EquipmentTaken(Event):
    """``by`` took ``seat``'s Equipment card (known to both)."""

    by: int
    seat: int
    card: str | None


@dataclass(frozen=True)
class EquipmentSeen(Event):
    """``by`` looked at ``seat``'s Equipment card."""

    by: int
    seat: int
    card: str | None


@dataclass(frozen=True)
class PolygraphSeen(Event):
    """``by`` saw all of ``seat``'s Integrity cards, in place (None for the others)."""

    by: int
    seat: int
    cards: tuple[str, ...] | None


@dataclass(frozen=True)
class CardsSwapped(Event):
    """The card at ``seat_a``.``pos_a`` and the one at ``seat_b``.``pos_b`` changed places."""

    seat_a: int
    pos_a: int
    seat_b: int
    pos_b: int


@dataclass(frozen=True)
class CardReceived(Event):
    """``seat`` now holds ``card`` at ``pos`` (after a swap; only ``seat`` sees it)."""

    seat: int
    pos: int
    card: str


@dataclass(frozen=True)
class Revived(Event):
    """``seat`` is back in the game with the card it kept (from ``pos``), face up."""

    seat: int
    pos: int
    card: str


@dataclass(frozen=True)
class TurnOrderReversed(Event):
    """Play now goes the other way (``direction`` +1: seat numbers up, -1: down)."""

    direction: int


@dataclass(frozen=True)
class ExtraTurnGranted(Event):
    """``seat`` will take an extra turn after the current one."""

    seat: int


@dataclass(frozen=True)
class NextTurnGiven(Event):
    """``seat`` takes the next turn; play continues from them."""

    seat: int


@dataclass(frozen=True)
class AllegianceInverted(Event):
    """``seat``'s Honest and Crooked cards now count the other way (``inverted``)."""

    seat: int
    inverted: bool


@dataclass(frozen=True)
class GameOver(Event):
    """The end: ``winner`` "honest", "crooked" or "solo"; ``winners`` the winning seats; every
    Integrity card shown."""

    winner: str
    winners: tuple[int, ...]
    reason: str
    cards: tuple[tuple[str, ...], ...]
