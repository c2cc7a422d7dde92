"""Police 07 events (frozen dataclasses). Dr. Factor's hidden moves are emitted twice: the full
event for his seat, and a redacted one (ticket only, stop when shown) for the detectives."""

from __future__ import annotations

from dataclasses import dataclass

from solver.core import Event


@dataclass(frozen=True)
class PiecePlaced(Event):
    """A piece stands on its start stop (a dealt start card, or a free placement)."""

    piece: int
    seat: int
    stop: int


@dataclass(frozen=True)
class FactorMoved(Event):
    """Dr. Factor made move ``move`` with ``ticket``; ``stop``/``line`` are None where hidden."""

    move: int
    ticket: str
    stop: int | None
    line: str | None
    shown: bool


@dataclass(frozen=True)
class DoubleMoveAnnounced(Event):
    """Dr. Factor played a double-move ticket: his next two moves follow at once."""

    move: int


@dataclass(frozen=True)
class FactorShown(Event):
    """Dr. Factor showed himself voluntarily (variant) at ``stop``."""

    stop: int


@dataclass(frozen=True)
class TicketTaken(Event):
    """After a voluntary show, Dr. Factor took a ``ticket`` from detective ``piece``."""

    piece: int
    ticket: str


@dataclass(frozen=True)
class DetectiveMoved(Event):
    """Detective ``piece`` rode ``ticket`` to ``stop``; the ticket went to Dr. Factor."""

    piece: int
    seat: int
    ticket: str
    stop: int


@dataclass(frozen=True)
class DetectivePassed(Event):
    """Detective ``piece`` had no legal move and passed."""

    piece: int
    seat: int


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended: ``winner`` is "factor" or "detectives"; Dr. Factor is shown at ``factor_stop``."""

    winner: str
    reason: str
    factor_stop: int
