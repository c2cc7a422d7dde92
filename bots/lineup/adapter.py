"""LineUp in the OpenSpiel and PettingZoo adapters: its view encoder (the bounds are the game's,
``solver/games/lineup/bounds.py``).

Found by :func:`bots.adapters.specs.spec_for` through :func:`adapter_spec`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bots.adapters.specs import AdapterSpec, Encoder, Vector, check_game, one_hot, ratio
from solver.core import Game, View
from solver.games.lineup import codec
from solver.games.lineup.content import LUCKY_NAMES
from solver.games.lineup.turn import HAND_LIMIT, MAX_COUNT, PHASE_NAMES

#: how many turns the turn counter spans in the vector (it reads 1 from there on)
TURN_SCALE = 200.0
_DIE_FACES = 6


class LineUpEncoder:
    """LineUp views as vectors; one layout per configured game, the same for every seat.

    With N seats, S board spaces, K crime scenes, C Suspect cards in all, M cards in the largest
    scene deck, L = 3 Lucky Break kinds and 10 stands (every entry in [0, 1])::

        block            size          content
        observer         N             the observing seat, one-hot
        acting           N             the seat that decides now, one-hot (none at chance or the end)
        turn of          N             whose turn it is, one-hot
        phase            13            the phase of the turn, one-hot
        die              6             the die, one-hot (none before the roll)
        seats            N * (S+K+C+2) per seat: its space (one-hot), Lineup Count / 10, face-down
                                       cards per scene / that deck's size, its face-up cards (one
                                       entry per card), Lucky Break cards held / 3
        hand             L             this seat's Lucky Break cards per kind / 3
        decks            2K + 2        per scene never-drawn and returned cards / its size; the
                                       Lucky Break deck's the same / its size
        studying         1 + C         a card under study (only the studying seat's view has one)
        lineup           2+N+K+10M     a lineup under way, its seat, its scene, its size / 10, and
                                       each stand's card (one-hot in its scene's deck) once it stands
        turn             1             turn number / 200, at most 1
        end              2 + N         game over, nobody won, the winner (one-hot)
    """

    def __init__(self, game: Game) -> None:
        from solver.games.lineup.rules import LineUpGame

        self.game = check_game(game, LineUpGame, "lineup encoder")
        n = self.seats = self.game.num_players
        self.spaces = len(self.game.board.kinds)
        self.scene_names = self.game.board.scene_names
        self.scene_index = {name: k for k, name in enumerate(self.scene_names)}
        self.deck_sizes = tuple(len(cards) for cards in self.game.cards)
        self.card_offset = tuple(int(x) for x in np.cumsum((0, *self.deck_sizes[:-1])))
        self.total_cards = sum(self.deck_sizes)
        self.largest = max(self.deck_sizes)
        self.by_id = self.game.codec.by_id  # card id -> (scene, index in its deck)
        self.lucky_total = max(1, sum(self.game.lucky.counts))
        k, c = len(self.scene_names), self.total_cards
        self._phase = 3 * n
        self._die = self._phase + len(PHASE_NAMES)
        self._seats = self._die + _DIE_FACES
        self._seat_block = self.spaces + 1 + k + c + 1
        self._hand = self._seats + n * self._seat_block
        self._decks = self._hand + len(LUCKY_NAMES)
        self._studying = self._decks + 2 * k + 2
        self._lineup = self._studying + 1 + c
        self._turn = self._lineup + 2 + n + k + codec.MAX_STANDS * self.largest
        self._end = self._turn + 1
        self.size = self._end + 2 + n

    def _card(self, cid: str) -> int:
        scene, index = self.by_id[cid]
        return self.card_offset[scene] + index

    def encode(self, view: View) -> Vector:
        """The view as a float32 vector (see the class docstring for the layout)."""
        data = view.to_json()
        n = self.seats
        out = np.zeros(self.size, dtype=np.float32)
        out[view.seat] = 1.0
        one_hot(out, n, data["decision"]["seat"], n)
        one_hot(out, 2 * n, data["active"], n)
        out[self._phase + PHASE_NAMES.index(data["phase"])] = 1.0
        die = data["die"]
        one_hot(out, self._die, None if die is None else die - 1, _DIE_FACES)
        for s, player in enumerate(data["players"]):
            base = self._seats + s * self._seat_block
            one_hot(out, base, player["space"], self.spaces)
            at = base + self.spaces
            out[at] = ratio(player["count"], MAX_COUNT)
            for name in player["held"]:
                scene = self.scene_index[name]
                out[at + 1 + scene] += 1.0 / self.deck_sizes[scene]
            at += 1 + len(self.scene_names)
            for cid in player["identified"]:
                out[at + self._card(cid)] = 1.0
            out[at + self.total_cards] = ratio(player["lucky"], HAND_LIMIT)
        for kind in data["hand"]:
            out[self._hand + LUCKY_NAMES.index(kind)] += 1.0 / HAND_LIMIT
        for name, deck in data["decks"].items():
            scene = self.scene_index[name]
            out[self._decks + 2 * scene] = ratio(deck["unseen"], self.deck_sizes[scene])
            out[self._decks + 2 * scene + 1] = ratio(deck["returned"], self.deck_sizes[scene])
        lucky = data["lucky_deck"]
        at = self._decks + 2 * len(self.scene_names)
        out[at] = ratio(lucky["unseen"], self.lucky_total)
        out[at + 1] = ratio(lucky["returned"], self.lucky_total)
        studying = data["studying"]
        if studying is not None:
            out[self._studying] = 1.0
            out[self._studying + 1 + self._card(studying["card"])] = 1.0
        self._encode_lineup(out, data["lineup"])
        out[self._turn] = ratio(data["turn"], TURN_SCALE)
        winner = data["winner"]
        if winner is not None:
            out[self._end] = 1.0
            if winner == "nobody":
                out[self._end + 1] = 1.0
            else:
                one_hot(out, self._end + 2, int(winner.split()[1]), n)
        # A seat's face-down cards of one scene are distinct cards of its deck, and a hand holds at
        # most HAND_LIMIT cards, so the sums above stay within 1; the clip keeps the contract regardless.
        np.clip(out, 0.0, 1.0, out=out)
        return out

    def _encode_lineup(self, out: Vector, lineup: Any) -> None:
        if lineup is None:
            return
        n, k = self.seats, len(self.scene_names)
        out[self._lineup] = 1.0
        one_hot(out, self._lineup + 1, lineup["seat"], n)
        one_hot(out, self._lineup + 1 + n, self.scene_index[lineup["scene"]], k)
        out[self._lineup + 1 + n + k] = ratio(lineup["size"], codec.MAX_STANDS)
        stands = self._lineup + 2 + n + k
        for stand, entry in enumerate(lineup["stands"] or ()):
            _, index = self.by_id[entry["card"]]
            out[stands + stand * self.largest + index] = 1.0


def encoder(game: Game) -> Encoder:
    """The view encoder of one configured LineUp game."""
    return LineUpEncoder(game)


def adapter_spec() -> AdapterSpec:
    """LineUp's adapter spec: 2..6 seats, the codec's id space, the move cap, the encoder."""

    return AdapterSpec(
        encoder=encoder,
    )
