"""Good Cop Bad Cop's review hook: how far a seat's belief about who is on which team was from the truth.

A seat's belief is the exact posterior over the deal from its view with the shipped behaviour model
(:func:`bots.gcbc.hint.marginals_for`: the table the hint prints, the deals the ``ismcts`` bot draws
with its default ``belief=full``). Its marginal ``p_honest`` per seat is the chance that seat is on
the honest team now (its cards now: cards move between seats). The gap at one of the seat's
decisions is ``1 - the mean, over the other players still in the game, of the probability the
belief gave to their true team``: 0 when the seat knew every team, 1 when it had every one wrong
for sure. The text adds the chance it gave the true Agent's and Kingpin's holders (when they are
other players) and the player it misread most.

None before the deal (no seat holds its cards yet), for another game, and when no other player is
in the game any more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bots.review import Gap
from solver.core import Game, State, View


def _true_hands(truth: State, players: int) -> list[tuple[str, list[str]]] | None:
    """Per seat in ``truth``: its team and its cards now (each seat's own view shows its cards), or
    None before the deal."""
    from solver.games.gcbc.deal import INTEGRITY_NAMES, team_of

    out = []
    for seat in range(players):
        own = truth.view(seat).to_json()["players"][seat]
        names = [card.get("card") for card in own["cards"]]
        if not names or any(name not in INTEGRITY_NAMES for name in names):
            return None
        cards = [INTEGRITY_NAMES.index(name) for name in names]
        out.append((team_of(cards, bool(own.get("inverted"))), names))
    return out


def _leader_text(role: str, hands: list[tuple[str, list[str]]], marginals: Sequence[Mapping[str, Any]],
                 me: int) -> str | None:
    """``the true Kingpin (seat 3) 35%``: the chance the belief gave the leader card's holder."""
    holder = next((seat for seat, (_, names) in enumerate(hands) if role in names), None)
    if holder is None or holder == me:
        return None
    chance = float(marginals[holder][f"p_{role}"])
    return f"the true {role.capitalize()} (seat {holder}) {chance:.0%}"


def belief_gap(game: Game, view: View, truth: State) -> Gap | None:
    """``1 -`` the mean chance the seat's posterior gave the other living players' true teams; None
    where there is nothing to compare (see the module docstring). The belief comes from ``view``
    alone."""
    from bots.gcbc.hint import marginals_for

    if game.name != "gcbc":
        return None
    hands = _true_hands(truth, game.num_players)
    if hands is None:
        return None
    players = view.to_json()["players"]
    others = [seat for seat in range(game.num_players) if seat != view.seat and players[seat]["alive"]]
    if not others:
        return None
    marginals = marginals_for(game, view)
    if not marginals:
        return None
    chances = {}
    for seat in others:
        honest = float(marginals[seat]["p_honest"])
        chances[seat] = honest if hands[seat][0] == "honest" else 1.0 - honest
    mean = sum(chances.values()) / len(chances)
    worst = min(chances, key=lambda seat: (chances[seat], seat))
    parts = [f"the belief gave the other players' true teams {mean:.0%} on average "
             f"(least: seat {worst}, {hands[worst][0]}, {chances[worst]:.0%})"]
    parts += [text for role in ("kingpin", "agent")
              if (text := _leader_text(role, hands, marginals, view.seat)) is not None]
    # the posterior's sums round: keep the gap in 0..1
    gap = min(1.0, max(0.0, 1.0 - mean))
    return Gap(gap, "; ".join(parts))
