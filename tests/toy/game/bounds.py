"""Hidden Pass's bounds by its rules: chance nodes, decisions, returns (``solver/games/<name>/bounds.py``)."""

from __future__ import annotations

from solver.core import Game
from solver.core.spec import Bounds, check_game
from tests.toy.game.rules import HiddenPass

#: the most a seat can stake in one round: a bet (1) and a raise (2) it answers with
ROUND_STAKE = 3


def bounds(game: Game) -> Bounds:
    """Deals and bonus dice are the chance nodes; each turn is a decision and at most one answer."""
    toy = check_game(game, HiddenPass, "hidden_pass bounds")
    n, rounds = toy.num_players, toy.rounds
    most = ROUND_STAKE * rounds
    return Bounds(
        max_chance_outcomes=7,  # deal 0..3, bonus 4..6
        max_chance_nodes=n + rounds,
        max_game_length=2 * n * rounds,
        min_utility=-float(most),
        max_utility=float((n - 1) * most + 2 * rounds),  # the others' stakes and every bonus
        zero_sum=False,  # the bonus comes from outside
    )
