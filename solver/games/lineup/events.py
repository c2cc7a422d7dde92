"""LineUp events (frozen dataclasses).

Every event is public except two. A Lucky Break draw is emitted twice, as in the other games: the kind
for the drawer and a copy with ``card`` None for everyone else. ``SuspectStudied`` marks the study
moment and is seen by the studying seat only; it carries no features: a seat sees the card's
features in its view while its ``study`` decision is pending and nowhere else (docs/lineup-rules.md,
"The study moment"). Suspect cards are named by content id; stands count from 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core import Event


@dataclass(frozen=True)
class TurnStarted(Event):
    """Turn ``turn`` of ``seat`` begins."""

    seat: int
    turn: int


@dataclass(frozen=True)
class DieRolled(Event):
    """``seat`` rolled ``value``."""

    seat: int
    value: int


@dataclass(frozen=True)
class Moved(Event):
    """``seat``'s pawn went from ``frm`` to ``to`` (``why``: "roll" or "to-station")."""

    seat: int
    frm: int
    to: int
    why: str


@dataclass(frozen=True)
class SuspectDrawn(Event):
    """``seat`` drew the top Suspect card of ``scene`` (``source``: "unseen" or "returned")."""

    seat: int
    scene: str
    source: str


@dataclass(frozen=True)
class SuspectStudied(Event):
    """``seat`` studied its face-down card ``held`` (from 1; ``why``: "scene" or "another-look")."""

    seat: int
    scene: str
    held: int
    why: str


@dataclass(frozen=True)
class LuckyDrawn(Event):
    """``seat`` drew a Lucky Break card; its kind, ``card``, only for the drawer."""

    seat: int
    card: str | None


@dataclass(frozen=True)
class LuckyPlayed(Event):
    """``seat`` played a ``card`` (a Lucky Break kind) on its face-down card ``held``, or at
    ``target``; the card went under the Lucky Break deck."""

    seat: int
    card: str
    held: int | None
    target: int | None


@dataclass(frozen=True)
class LineupRequested(Event):
    """``seat`` asked for a lineup of its face-down card ``held`` from ``scene``, ``size`` suspects."""

    seat: int
    held: int
    scene: str
    size: int


@dataclass(frozen=True)
class LineupShown(Event):
    """The lineup stands, left to right, facing ``seat`` (everyone sees the suspects)."""

    seat: int
    scene: str
    stands: tuple[str, ...]


@dataclass(frozen=True)
class LineupResult(Event):
    """``seat`` picked stand ``picked``; the Guilty sticker was under stand ``guilty``."""

    seat: int
    scene: str
    picked: int
    guilty: int
    correct: bool
    card: str


@dataclass(frozen=True)
class CountChanged(Event):
    """``seat``'s Lineup Count is now ``count`` (``why``: "correct", "wrong" or "hinder")."""

    seat: int
    count: int
    why: str


@dataclass(frozen=True)
class CardsReturned(Event):
    """``cards`` went to the bottom of ``deck`` (a scene, or "lucky")."""

    deck: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended: ``winner`` (None for a game nobody can win any more) and why."""

    winner: int | None
    reason: str
