"""Police Precinct events: what the table (or one seat) sees happen.

Most events are public. Hidden ones carry ``visible_to``: a police card drawn (its owner), an
investigation draw's contents (the investigator), cards looked at (the looker), a loyalty card dealt
or shown (its owner, or the Internal Affairs investigator).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core import Event


@dataclass(frozen=True)
class Note(Event):
    """A public happening in words: ``what`` a short tag (``"punk"``, ``"crime"``), ``text`` a sentence."""

    what: str
    text: str


@dataclass(frozen=True)
class TurnBegins(Event):
    """Public: ``cop``'s turn begins (cards received from now on are new this turn)."""

    cop: int
    name: str


@dataclass(frozen=True)
class CardDrawn(Event):
    """Police card ``card`` went to ``cop``'s hand (its owner sees the name; the others see "?")."""

    cop: int
    card: str


@dataclass(frozen=True)
class Discarded(Event):
    """Public: police card ``card`` left ``cop``'s hand face up (played, helped with or discarded)."""

    cop: int
    card: str


@dataclass(frozen=True)
class Investigated(Event):
    """Public: an investigation's facts the table can verify.

    ``drawn`` cards came off stack ``deck`` (which held ``evidence`` evidence among ``size`` cards
    before); ``placed`` evidence went to the board; ``discarded`` is 1 when a useless card left the game.
    """

    cop: int
    deck: str
    size: int
    evidence: int
    drawn: int
    placed: int
    discarded: int


@dataclass(frozen=True)
class InvestigationSeen(Event):
    """Private to the investigator: the kinds of the cards he drew, in order (``True`` = evidence)."""

    cop: int
    deck: str
    cards: tuple[bool, ...]


@dataclass(frozen=True)
class Looked(Event):
    """Private to the looker: investigation cards looked at (``True`` = evidence), top first."""

    cop: int
    deck: str
    cards: tuple[bool, ...]


@dataclass(frozen=True)
class EventSeen(Event):
    """Private to the looker: the top event card."""

    cop: int
    card: str


@dataclass(frozen=True)
class LoyaltyShown(Event):
    """``seat``'s loyalty card is ``dirty`` or not, shown to the seats in ``visible_to`` (or all)."""

    seat: int
    dirty: bool


@dataclass(frozen=True)
class Rolled(Event):
    """Public: a roll of ``dice`` dice needing ``need`` (arrests: each die; emergencies: the highest)."""

    cop: int
    what: str
    dice: int
    need: int
    result: int


@dataclass(frozen=True)
class GameOver(Event):
    """Public: the game ended; ``good_win`` is True when the good cops won."""

    good_win: bool
    reason: str
