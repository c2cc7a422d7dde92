"""Who could have been dealt which police cards, from one seat's record (for :mod:`.resample`).

The police deck's order is chance, and every card that leaves a hand is seen face up, so a seat
knows, for each deck the game has used (the first, then each discard pile shuffled into a new one),
exactly which cards it held: the box's cards, then the discards at that shuffle. What it does not
know is which of them went to the other players' masked deals. :func:`assign_deals` draws that:

1. every card another player was seen to give up (played, helped with, discarded) is matched to
   one of that player's masked deals made before it (before his turn began, for a card he played
   for its text on his own turn [Police Cards]), from a deck that still had a copy to give: a small
   assignment problem, tried greedily at random and else solved by OR-Tools CP-SAT (any fitting
   assignment, not each with its exact posterior weight);
2. the other masked deals take, deck by deck, a random draw from the cards that deck had left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.games.precinct.common import POLICE_RESHUFFLE

if TYPE_CHECKING:
    from solver.games.precinct.rules import PrecinctGame



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
            elif kind == "Note" and ev["text"] == POLICE_RESHUFFLE:
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
    deals it saw); None when no assignment fits (a record no game could have made)."""
    rec = _read(game, history)
    left = [[d - t for d, t in zip(deck, taken, strict=True)]
            for deck, taken in zip(rec.decks, rec.taken, strict=True)]
    if any(c < 0 for deck in left for c in deck):
        return None
    shows = [(step, cop, kind, since) for step, cop, kind, since in rec.shows if cop not in mine]
    matched = _match(shows, rec.deals, left, rng)
    if matched is None:
        return None
    for (_, _, kind, _), d in zip(shows, matched, strict=True):
        rec.deals[d].kind = kind
        left[rec.deals[d].deck][kind] -= 1
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


def _match(shows: list[tuple[int, int, int, int]], deals: list[_Deal], left: list[list[int]],
           rng: np.random.Generator) -> list[int] | None:
    """For each card shown, the index of the deal it came from; None when none fits.

    Each card shown takes one of its player's masked deals made before it (before his turn, for an
    own-turn text play), no deal is used twice, and no deck gives more copies of a card than it had
    left. A random greedy pass often finds such an assignment; when it paints itself into a corner,
    the assignment problem goes to CP-SAT.
    """
    options: list[list[int]] = [
        [d for d, deal in enumerate(deals)
         if deal.cop == cop and deal.index < step and not (0 <= since <= deal.index)]
        for step, cop, _, since in shows]
    if any(not o for o in options):
        return None
    partial: list[int | None] = []
    for _ in range(3):
        partial = _greedy(shows, options, deals, left, rng)
        if None not in partial:
            return [d for d in partial if d is not None]
    return _solve(shows, options, deals, left, partial, rng)


def _greedy(shows: list[tuple[int, int, int, int]], options: list[list[int]], deals: list[_Deal],
            left: list[list[int]], rng: np.random.Generator) -> list[int | None]:
    """A random fitting deal per card shown, in turn; None where none was left."""
    room = [row.copy() for row in left]
    used: set[int] = set()
    out: list[int | None] = []
    for (_, _, kind, _), opts in zip(shows, options, strict=True):
        fits = [d for d in opts if d not in used and room[deals[d].deck][kind] > 0]
        if not fits:
            out.append(None)
            continue
        d = fits[int(rng.integers(len(fits)))]
        used.add(d)
        room[deals[d].deck][kind] -= 1
        out.append(d)
    return out


def _solve(shows: list[tuple[int, int, int, int]], options: list[list[int]], deals: list[_Deal],
           left: list[list[int]], hint: list[int | None], rng: np.random.Generator) -> list[int] | None:
    """The assignment by CP-SAT, steered towards the greedy pass's random partial one (hints), so
    that different draws of ``rng`` may return different fitting assignments."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    by_deal: dict[int, list[Any]] = {}
    by_copy: dict[tuple[int, int], list[Any]] = {}
    chosen: list[list[tuple[int, Any]]] = []
    for s, ((_, _, kind, _), opts) in enumerate(zip(shows, options, strict=True)):
        row = []
        for d in opts:
            x = model.new_bool_var(f"x{s}_{d}")
            row.append((d, x))
            by_deal.setdefault(d, []).append(x)
            by_copy.setdefault((deals[d].deck, kind), []).append(x)
            model.add_hint(x, hint[s] == d)
        model.add_exactly_one(x for _, x in row)
        chosen.append(row)
    for xs in by_deal.values():
        if len(xs) > 1:
            model.add_at_most_one(xs)
    for (deck, kind), xs in by_copy.items():
        model.add(sum(xs) <= left[deck][kind])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # one core: searches run beside this
    solver.parameters.max_time_in_seconds = 2.0
    solver.parameters.random_seed = int(rng.integers(1 << 30))
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return [next(d for d, x in row if solver.value(x)) for row in chosen]
