"""Hidden Pass in OpenSpiel and PettingZoo: its view encoder (as ``bots/<name>/adapter.py``)."""

from __future__ import annotations

import numpy as np

from bots.adapters.specs import AdapterSpec, Encoder, Vector, check_game
from solver.core import Game, View
from tests.toy.game.bounds import ROUND_STAKE
from tests.toy.game.rules import DECK, HiddenPass


class HiddenPassEncoder:
    """Per seat: its card one-hot (unknown: all zero), its stake; then the bonus."""

    def __init__(self, game: HiddenPass) -> None:
        self.players = game.num_players
        self.most = float(ROUND_STAKE * game.rounds)
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
    return AdapterSpec(encoder=encoder)
