"""Hidden Pass in OpenSpiel and PettingZoo: its bounds and a view encoder (as ``bots/<name>/adapter.py``)."""

from __future__ import annotations

import numpy as np

from bots.adapters.specs import AdapterSpec, Bounds, Encoder, Vector, check_game
from solver.core import Game, View
from tests.toy.game.rules import DECK, HiddenPass

#: the most a seat can stake in one round: a bet (1) and a raise (2) it answers with
_ROUND_STAKE = 3


def bounds(game: Game) -> Bounds:
    """Deals and bonus dice are the chance nodes; each turn is a decision and at most one answer."""
    toy = check_game(game, HiddenPass, "hidden_pass adapter bounds")
    n, rounds = toy.num_players, toy.rounds
    most = _ROUND_STAKE * rounds
    return Bounds(
        max_chance_outcomes=7,  # deal 0..3, bonus 4..6
        max_chance_nodes=n + rounds,
        max_game_length=2 * n * rounds,
        min_utility=-float(most),
        max_utility=float((n - 1) * most + 2 * rounds),  # the others' stakes and every bonus
        zero_sum=False,  # the bonus comes from outside
    )


class HiddenPassEncoder:
    """Per seat: its card one-hot (unknown: all zero), its stake; then the bonus."""

    def __init__(self, game: HiddenPass) -> None:
        self.players = game.num_players
        self.most = float(_ROUND_STAKE * game.rounds)
        self.size = self.players * (len(DECK) + 1) + 1

    def encode(self, view: View) -> Vector:
        """The view's cards, stakes and bonus as numbers in [0, 1]."""
        data = view.to_json()
        out = np.zeros(self.size, dtype=np.float32)
        width = len(DECK) + 1
        for seat in range(self.players):
            card = data["cards"][seat]
            if card is not None:
                out[seat * width + card] = 1.0
            out[seat * width + len(DECK)] = min(1.0, data["stakes"][seat] / self.most)
        out[-1] = min(1.0, data["bonus"] / (2.0 * self.most))
        return out


def encoder(game: Game) -> Encoder:
    """The encoder of one configured Hidden Pass."""
    return HiddenPassEncoder(check_game(game, HiddenPass, "hidden_pass encoder"))


def adapter_spec() -> AdapterSpec:
    """Hidden Pass's adapter spec."""
    return AdapterSpec(bounds=bounds, encoder=encoder)
