"""Who could have been dealt which police cards, from one seat's record (for :mod:`.resample`).

The police deck's order is chance, and every card that leaves a hand is seen face up, so a seat
knows, for each deck the game has used (the first, then each discard pile shuffled into a new one),
exactly which cards it held: the box's cards, then the discards at that shuffle. What it does not
know is which of them went to the other players' masked deals. :func:`assign_deals` draws that:

1. every card another player was seen to give up (played, helped with, discarded) is matched to
   one of that player's masked deals made before it (before his turn began, for a card he played
   for its text on his own turn [Police Cards]), from a deck that still had a copy to give;
2. the other masked deals take, deck by deck, a random draw from the cards that deck had left.

The matching picks among the possible deals at random and can paint itself into a corner; the
caller then draws again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from solver.games.precinct.rules import PrecinctGame

RESHUFFLE = "the police card discard pile is shuffled into a new deck"


@dataclass
class _Deal:
    index: int  # history step
    cop: int
    deck: int  # which deck (0: the first; k: after the k-th shuffle)
    turn: int  # the step at which the turn it was dealt in began
    kind: int = -1


@dataclass
class _Record:
    decks: list[list[int]] = field(default_factory=list)  # each deck's cards, per kind
    taken: list[list[int]] = field(default_factory=list)  # per deck: cards the seat saw dealt
    deals: list[_Deal] = field(default_factory=list)  # the masked deals, in order
    #: cards seen leaving a hand: (step, cop, kind, the step its turn began if played for its text on
    #: the player's own turn (a card received since then cannot be), else -1)
    shows: list[tuple[int, int, int, int]] = field(default_factory=list)


def _read(game: PrecinctGame, history: list[list[Any]]) -> _Record:
    names = {name: k for k, name in enumerate(game.police_names)}
    kinds = len(game.police_names)
    rec = _Record(decks=[list(game.content.police_counts)], taken=[[0] * kinds])
    pile = [0] * kinds
    turn_start, turn_cop = 0, -1
    for i, (_, text, events) in enumerate(history):
        for ev in events:
            kind = ev["kind"]
            if kind == "TurnBegins":
                turn_start, turn_cop = i, int(ev["cop"])
            elif kind == "Note" and ev["text"] == RESHUFFLE:
                rec.decks.append(pile)
                rec.taken.append([0] * kinds)
                pile = [0] * kinds
            elif kind == "Discarded":
                k = names[ev["card"]]
                pile[k] += 1
                own_text = text.startswith("play ") and int(ev["cop"]) == turn_cop
                rec.shows.append((i, int(ev["cop"]), k, turn_start if own_text else -1))
            elif kind == "CardDrawn":
                deck = len(rec.decks) - 1
                if ev["card"] == "?":
                    rec.deals.append(_Deal(i, int(ev["cop"]), deck, turn_start))
                else:
                    rec.taken[deck][names[ev["card"]]] += 1
    return rec


def assign_deals(game: PrecinctGame, history: list[list[Any]], mine: set[int],
                 rng: np.random.Generator) -> dict[int, int] | None:
    """History step -> police card kind for every masked deal (``mine``: the seat's own cops, whose
    deals it saw); None when the draw painted itself into a corner."""
    rec = _read(game, history)
    left = [[d - t for d, t in zip(deck, taken, strict=True)]
            for deck, taken in zip(rec.decks, rec.taken, strict=True)]
    if any(c < 0 for deck in left for c in deck):
        return None
    held: dict[int, list[_Deal]] = {}  # per cop: masked deals not yet matched to a card shown
    deals = iter(rec.deals)
    pending = next(deals, None)
    for step, cop, kind, since in rec.shows:
        while pending is not None and pending.index < step:
            held.setdefault(pending.cop, []).append(pending)
            pending = next(deals, None)
        if cop in mine:
            continue  # the seat saw this card dealt
        options = [d for d in held.get(cop, []) if left[d.deck][kind] > 0 and not (0 <= since <= d.index)]
        if not options:
            return None
        deal = options[int(rng.integers(len(options)))]
        deal.kind = kind
        left[deal.deck][kind] -= 1
        held[cop].remove(deal)
    for deal in rec.deals:
        if deal.kind >= 0:
            continue
        pool = left[deal.deck]
        total = sum(pool)
        if total <= 0:
            return None
        k = int(rng.choice(len(pool), p=np.array(pool, dtype=float) / total))
        deal.kind = k
        pool[k] -= 1
    return {d.index: d.kind for d in rec.deals}
