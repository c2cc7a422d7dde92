"""Good Cop Bad Cop set-up facts: integrity cards, counts per player count, the deal, arrangements.

Rulebook section cited as [Preparar] (set-up) and [Integridad] ("Integridad y equipos"). Counts
come from ``shared/research/components.md`` (the designer's own online implementation; a fan
implementation agrees), because the rulebook only says that cards carry a player-count number.

The deal as chance nodes. [Preparar]: the Agent and the Kingpin go into a pile with (players - 2)
cards from the shuffled Honest/Crooked deck; the pile is shuffled and dealt one card each; then two
more each from the deck; a card left over is removed unseen. Every Honest/Crooked card that reaches
a player is a draw without replacement from the same shuffled deck, so the sequence of those cards is
exchangeable and the deal factorises into:

1. ``leaders A K``: the seats of the Agent and the Kingpin, an ordered pair of distinct seats,
   uniform (the pile guarantees both are in play and never in one hand);
2. ``deal H`` for each seat in turn: how many of its Honest/Crooked slots (3, or 2 for a leader's
   seat) are Honest, hypergeometric over what the deck still holds.

The leftover card (5 and 7 players) is whatever the deck still holds: it is never drawn or shown.
"""

from __future__ import annotations

from enum import IntEnum
from itertools import permutations
from math import comb
from typing import Final


class Integrity(IntEnum):
    """An Integrity card. The order is the canonical order of a dealt hand."""

    AGENT = 0
    KINGPIN = 1
    HONEST = 2
    CROOKED = 3


INTEGRITY_NAMES: Final[tuple[str, ...]] = ("agent", "kingpin", "honest", "crooked")
LEADERS: Final = (Integrity.AGENT, Integrity.KINGPIN)

MIN_PLAYERS: Final = 4
MAX_PLAYERS: Final = 8
CARDS_PER_PLAYER: Final = 3

#: Honest cards in play (and as many Crooked) per player count (components.md).
SIDE_CARDS: Final[dict[int, int]] = {4: 5, 5: 7, 6: 8, 7: 10, 8: 11}
#: Guns per player count, editions 1-3, the 4-gun box our rulebook lists (components.md).
GUNS: Final[dict[int, int]] = {4: 2, 5: 3, 6: 3, 7: 4, 8: 4}

#: Every order of 1, 2 or 3 cards. ``arrange XYZ`` lays the cards so that new position i holds the
#: card that was at position ``order[i]``; its action id is ARRANGE + the index here.
ARRANGEMENTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    p for size in (1, 2, 3) for p in permutations(range(size))
)


def arrangement_options(cards: list[int]) -> list[int]:
    """Indices of :data:`ARRANGEMENTS` giving the distinct layouts of ``cards`` (the first of each).

    Two Honest cards are interchangeable, so orders that only swap equal cards are one choice.
    """
    seen: set[tuple[int, ...]] = set()
    out = []
    for i, order in enumerate(ARRANGEMENTS):
        if len(order) != len(cards):
            continue
        layout = tuple(cards[j] for j in order)
        if layout not in seen:
            seen.add(layout)
            out.append(i)
    return out


def arrangement_for(cards: list[int], target: list[int]) -> int:
    """The canonical index that lays ``cards`` out as ``target``; ValueError if it cannot."""
    for i in arrangement_options(cards):
        if [cards[j] for j in ARRANGEMENTS[i]] == list(target):
            return i
    raise ValueError(f"cards {cards} cannot be laid out as {target}")


def deal_outcomes(honest_left: int, crooked_left: int, slots: int) -> list[tuple[int, float]]:
    """``(honest, probability)`` for ``slots`` cards drawn from the deck, hypergeometric."""
    total = comb(honest_left + crooked_left, slots)
    out = []
    for h in range(slots + 1):
        ways = comb(honest_left, h) * comb(crooked_left, slots - h)
        if ways:
            out.append((h, ways / total))
    return out


def team_of(cards: list[int], inverted: bool = False) -> str:
    """"honest" or "crooked" [Integridad]: a leader card decides, otherwise the majority.

    ``inverted`` is the 4th-edition Planted Evidence marker: Honest cards count as Crooked and the
    other way round (leader cards are not Honest or Crooked, so they still decide). A hand of three
    or of one has no tie; a tie (which no hand reaches) counts as honest.
    """
    if Integrity.KINGPIN in cards and Integrity.AGENT not in cards:
        return "crooked"
    if Integrity.AGENT in cards:
        return "honest"
    honest = sum(1 for c in cards if c == Integrity.HONEST)
    crooked = sum(1 for c in cards if c == Integrity.CROOKED)
    if inverted:
        honest, crooked = crooked, honest
    return "crooked" if crooked > honest else "honest"
