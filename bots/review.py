"""A review of a whole game: every decision of the chosen seats against the advisor's best move.

SKELETON (the contract; being filled in). The public names and signatures below are fixed: the seat
protocol's ``review`` request, ``copsolver review`` and the games' hooks are written against them.

For every decision of a reviewed seat, from that seat's view alone (a review of seat N is the same
whatever seat N could not see), the advisor (:func:`bots.hint.advise`) names its best move, and an
evaluator estimates the seat's win chance (Escape Plan: its expected score) after the played move
and after the best one on the same drawn worlds; their difference is the loss, and a loss over the
thresholds of :class:`Thresholds` is marked. Per seat a summary: moves that matched the advisor, the
biggest losses, and where the seat's belief was furthest from the truth (a game's
``bots/<game>/review.py`` hook ``belief_gap``; this part alone reads the replay's hidden facts, since
it compares the belief with them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.core import Action, Game
from solver.search.ismcts import Budget


@dataclass(frozen=True)
class Gap:
    """How far a seat's belief at one decision was from the truth: ``distance`` (larger: further;
    its unit is the game's, named in ``text``) and one line saying it in words."""

    distance: float
    text: str


@dataclass(frozen=True)
class Thresholds:
    """Losses from which a move is marked: inaccuracy, mistake, blunder (in the game's unit)."""

    inaccuracy: float
    mistake: float
    blunder: float


@dataclass(frozen=True)
class DecisionReview:
    """One reviewed decision."""

    ply: int
    seat: int
    prompt: str
    played: str
    best: str
    value_played: float
    value_best: float
    loss: float
    se: float
    mark: str  # "", "inaccuracy", "mistake" or "blunder"
    gap: Gap | None = None

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON."""
        raise NotImplementedError


@dataclass(frozen=True)
class SeatSummary:
    """One seat's summary."""

    seat: int
    decisions: int
    matched: int
    biggest: tuple[DecisionReview, ...]
    furthest: DecisionReview | None = None


@dataclass(frozen=True)
class Review:
    """A whole review: its settings, the decisions in order, a summary per seat."""

    game: str
    unit: str  # "win chance" or "score"
    decisions: tuple[DecisionReview, ...]
    summaries: tuple[SeatSummary, ...]
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The review as JSON (``copsolver review --json``, the protocol's ``review`` reply)."""
        raise NotImplementedError


#: progress(done, total): called after each reviewed decision
Progress = Callable[[int, int], None]


def review_game(
    game: Game,
    actions: Sequence[Action],
    *,
    seats: Sequence[int] | None = None,
    bot: str | None = None,
    budget: Budget | None = None,
    seed: int = 0,
    worlds: int | None = None,
    options: dict[str, Any] | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Review:
    """Review the game played by ``actions`` (a replay's whole action list) for ``seats`` (None:
    all). ``cancelled()`` true ends the review early: the decisions reviewed so far are returned."""
    raise NotImplementedError
