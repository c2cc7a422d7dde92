"""Escape Plan events: what the table (or one seat) sees happen.

Every event is public except the Escape Plan card dealt to a seat (:class:`PlanDealt`), which its owner
sees named and every other seat sees as ``"?"`` (Player Setup L: "Players should look at their own card,
but keep it secret").
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core import Event


@dataclass(frozen=True)
class Note(Event):
    """A public happening in words: ``what`` a short tag (``"phase"``, ``"income"``), ``text`` a sentence."""

    what: str
    text: str


@dataclass(frozen=True)
class PlanDealt(Event):
    """``seat`` was dealt Escape Plan card ``plan`` (its owner sees the name, the others ``"?"``)."""

    seat: int
    plan: str


@dataclass(frozen=True)
class TilePlaced(Event):
    """Public: ``seat`` placed City tile ``tile`` on ``cell`` turned by ``rotation`` ("3. City")."""

    seat: int
    tile: str
    cell: tuple[int, int]
    rotation: int


@dataclass(frozen=True)
class OfficerDrawn(Event):
    """Public: an officer of ``police`` type drawn for ``tile``; ``kept`` False when the same-type rule
    returned it to the bag (Police Setup 8, "3. City")."""

    tile: str
    police: str
    kept: bool


@dataclass(frozen=True)
class PatrolDrawn(Event):
    """Public: a patrol card for ``exit``; ``closed`` when it is the exit's second ("2. Patrol")."""

    exit: str
    closed: bool


@dataclass(frozen=True)
class Travelled(Event):
    """Public: ``pawn`` travelled from ``start`` to ``dest``, leaving ``tiles`` ("Step 1: Travel")."""

    pawn: int
    start: str
    dest: str
    tiles: tuple[str, ...]
    gas: int


@dataclass(frozen=True)
class Wounded(Event):
    """Public: ``seat`` took ``wounds`` wounds, ``handcuffs`` of them as Handcuff cards ("Step 2: Avoid")."""

    seat: int
    wounds: int
    handcuffs: int
    why: str


@dataclass(frozen=True)
class NotorietySettled(Event):
    """Public: ``pawn``'s marker moved ``old`` -> ``new`` crossing threshold lines ``crossed`` (1-3)."""

    pawn: int
    old: int
    new: int
    crossed: tuple[int, ...]


@dataclass(frozen=True)
class OfficerMoved(Event):
    """Public: ``seat`` moved a ``police`` officer from ``source`` to ``dest`` toward ``toward``."""

    seat: int
    police: str
    source: str
    dest: str
    toward: int


@dataclass(frozen=True)
class Unlocked(Event):
    """Public: ``seat`` unlocked asset ``asset`` (``kept`` False: no space left, the tile is removed)."""

    seat: int
    asset: str
    kept: bool
    why: str


@dataclass(frozen=True)
class Escaped(Event):
    """Public: ``seat`` escaped the city, the ``order``-th to leave (0 = first), paying ``cost`` $k."""

    seat: int
    order: int
    cost: int


@dataclass(frozen=True)
class Arrested(Event):
    """Public: ``seat`` was arrested (could not pay ``cost`` $k) and is out of the game."""

    seat: int
    cost: int
    why: str


@dataclass(frozen=True)
class GameOver(Event):
    """Public: the game ended; ``scores`` per seat (None: not escaped), ``winners`` the seats that won."""

    scores: tuple[int | None, ...]
    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class CubePlaced(Event):
    """Public: ``pawn`` put an income cube on ``site``'s display (``business 3``, ``safe house 1``) in the
    ``hex`` (``amount``, ``income``, ``red``): an income hex shows the plan card's income mark there
    ("Businesses" 2, "Safe Houses" 2)."""

    pawn: int
    site: str
    hex: str


@dataclass(frozen=True)
class BusinessClosed(Event):
    """Public: Business ``business`` (1..6) closed after ``visits`` visits ("Closing a Business")."""

    business: int
    visits: int


@dataclass(frozen=True)
class ContactTaken(Event):
    """Public: ``seat`` took contact card ``card`` from the display and ``how``: ``box`` (A), ``space N``
    (B) or ``replaces space N`` (C) ("Taking Contact Cards")."""

    seat: int
    card: str
    how: str


@dataclass(frozen=True)
class TilesDrawn(Event):
    """Public: ``seat`` secretly draws ``count`` tiles from ``stack`` (``green locker``, ``exit stack 1``)
    ("Lockers" 2, "Exits")."""

    seat: int
    stack: str
    count: int


@dataclass(frozen=True)
class TileKept(Event):
    """``seat`` kept a tile from ``stack`` face down on Item space ``space`` (1-based); ``value`` ($k) is
    seen by the seat only (None for the others)."""

    seat: int
    stack: str
    space: int
    value: int | None


@dataclass(frozen=True)
class Bonus(Event):
    """Public: ``seat`` took the end-of-turn bonus of ``group`` (``businesses 1-3``, ``businesses 4-6``,
    ``safe houses``): ``choice`` ``extra action`` or ``unlock`` ("Visiting all Businesses in a group",
    "Visiting all Safe Houses")."""

    seat: int
    group: str
    choice: str


@dataclass(frozen=True)
class InspectorCard(Event):
    """Public: Sandra revealed Inspector card ``card`` (``business 3``, ``store A``) and goes to
    ``location``; the card is removed from the game ("Sandra's Turn")."""

    card: str
    location: str


@dataclass(frozen=True)
class ContactsDiscarded(Event):
    """Public: Sandra discarded the display's rightmost contact cards ``cards`` to the box; ``discs`` Extra
    Action discs she took for them ("Sandra's Cards")."""

    cards: tuple[str, ...]
    discs: int


@dataclass(frozen=True)
class KeyDiscarded(Event):
    """Public: Sandra discarded a ``colour`` key from Safe House ``house`` (1..3) ("Sandra's Cards")."""

    house: int
    colour: str


@dataclass(frozen=True)
class FixerDiscarded(Event):
    """Public: Sandra discarded Fixer tile ``fixer`` ("Sandra's Cards")."""

    fixer: str


@dataclass(frozen=True)
class TileDiscarded(Event):
    """Public: Sandra discarded a tile of ``stack`` (``green locker``, ``exit stack 1``) to the box. It has
    no value field: nobody sees the tile ("return it to the box without anyone seeing it")."""

    stack: str


@dataclass(frozen=True)
class SandraDisc(Event):
    """Public: Sandra took an Extra Action disc for a completed group, ``why`` (``businesses 1-3``,
    ``businesses 4-6``, ``safe houses``) ("Sandra's Cards"; the discs of discarded contact cards are in
    :class:`ContactsDiscarded`)."""

    why: str
