"""Police Precinct's review hook: how far a good cop's belief about the dirty cop was from the truth.

With the Dirty Cop variant, a seat's belief is the exact posterior over the loyalty deal from its
view (:func:`solver.belief.dirty_cop.dirty_marginals`, the shipped behaviour model: what the hint
prints and the search bots draw from). The gap at one of its decisions is ``1 - P(dirty)`` that
posterior gave the true dirty cop (with several dirty cops, the mean of ``P(dirty)`` over them):
0 when the seat was sure of him, 1 when it had ruled him out.

None without the Dirty Cop, for a dirty cop's own seat (he knows his card, and the search takes the
others' as he sees them), and before the loyalty cards are dealt.
"""

from __future__ import annotations

from typing import Final

from bots.review import Gap
from solver.core import Game, State, View

#: chances this close to the top count as tied for it (the posterior's sums round)
_TIE: Final = 1e-9


def _dirty_seats(truth: State, players: int) -> list[int] | None:
    """The seats holding a dirty card in ``truth`` (each seat's own view shows its card), or None
    before the deal."""
    cards = [truth.view(seat).to_json().get("my_loyalty") for seat in range(players)]
    if any(card not in ("good", "dirty") for card in cards):
        return None
    return [seat for seat, card in enumerate(cards) if card == "dirty"]


def belief_gap(game: Game, view: View, truth: State) -> Gap | None:
    """``1 - P(dirty)`` the seat's posterior gave the true dirty cop(s); None where there is nothing
    to compare (see the module docstring). The belief comes from ``view`` alone."""
    data = view.to_json()
    config = data.get("config")
    if game.name != "precinct" or not isinstance(config, dict) or not config.get("dirty_cop"):
        return None
    dirty = _dirty_seats(truth, game.num_players)
    if not dirty or view.seat in dirty:
        return None
    from solver.belief.dirty_cop import dirty_marginals

    marginals = dirty_marginals(data)
    # the posterior's sums round: keep the gap in 0..1
    gap = min(1.0, max(0.0, 1.0 - sum(marginals[seat] for seat in dirty) / len(dirty)))
    others = [seat for seat in range(len(marginals)) if seat != view.seat]
    top = max(marginals[seat] for seat in others)
    suspects = [seat for seat in others if marginals[seat] >= top - _TIE]
    likeliest = (f"seat {suspects[0]} most ({top:.0%})" if len(suspects) == 1
                 else "seats " + ", ".join(map(str, suspects)) + f" most ({top:.0%} each)")
    named = ", ".join(f"seat {seat} ({marginals[seat]:.0%})" for seat in dirty)
    who = "the dirty cop was" if len(dirty) == 1 else "the dirty cops were"
    text = f"{who} {named}; the seat suspected {likeliest}; gap {gap:.2f}"
    return Gap(gap, text)
