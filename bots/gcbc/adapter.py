"""Good Cop Bad Cop in the OpenSpiel and PettingZoo adapters: its view encoder (the bounds are the
game's, ``solver/games/gcbc/bounds.py``).

Found by :func:`bots.adapters.specs.spec_for` through :func:`adapter_spec`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bots.adapters.specs import AdapterSpec, Encoder, Vector, check_game, one_hot, ratio
from solver.core import DecisionKind, Game, InvalidActionError, View
from solver.games.gcbc import codec
from solver.games.gcbc.deal import CARDS_PER_PLAYER, GUNS, INTEGRITY_NAMES

#: how many turns the turn counter spans in the vector (it reads 1 from there on)
TURN_SCALE = 100.0
#: a hand above the limit of 1 holds 2 cards until its owner keeps one
HAND_SCALE = 2.0
_KINDS = tuple(DecisionKind)
_ANNOUNCED = ("investigate", "equip", "arm", "shoot", "play")
_TEAMS = ("honest", "crooked", "solo")


class GCBCEncoder:
    """GCBC views as vectors; one layout per configured game, the same for every seat.

    With N seats, E Equipment cards in the content and P = 3 card positions (every entry in [0, 1])::

        block                 size        content
        observer              N           the observing seat, one-hot
        acting                N           the seat that decides now, one-hot (none at chance or the end)
        turn of               N           whose turn it is, one-hot (none during the set-up)
        kind                  4           the decision's kind: turn, response, chance, none
        direction             1           1 once play runs backwards (Smoke Grenade)
        seats                 N * B       per seat: alive, wounded, inverted, gun, aim (N, one-hot),
                                          Equipment held / 2, then per position: face up, the card
                                          as the view shows it (4, one-hot), the card this seat last
                                          saw when it investigated there (4, one-hot)
        hand                  E           this seat's Equipment cards, one entry per card of the content
        guns in the centre    1           / the table's Guns
        deck                  2 + E       never-drawn cards / E, returned cards / E, returned cards this
                                          seat knows (one entry per card)
        announced             5 + E       the announced action's kind (investigate, equip, arm, shoot,
                                          play) and the card of an announced play
        forced shoot          1
        extra turns           1 + N       pending extra turns / N, the next turn's seat (one-hot)
        camera                N * P       cards a Surveillance Camera could expose now
        turn                  1           turn number / 100, at most 1
        end                   1 + N + 3   game over, the winners, the winner: honest, crooked, solo

    where B = 5 + N + P * 9. Only the view is read: cards the seat never saw stay zero.
    """

    def __init__(self, game: Game) -> None:
        from solver.games.gcbc.rules import GCBCGame

        self.game = check_game(game, GCBCGame, "gcbc encoder")
        n = self.seats = self.game.num_players
        self.card_ids = self.game.card_ids
        self.cards = e = len(self.card_ids)
        self.card_index = {cid: i for i, cid in enumerate(self.card_ids)}
        self.guns = float(GUNS[n])
        self._seat_block = 5 + n + CARDS_PER_PLAYER * 9
        self._seats = 3 * n + len(_KINDS) + 1
        self._hand = self._seats + n * self._seat_block
        self._guns = self._hand + e
        self._deck = self._guns + 1
        self._announced = self._deck + 2 + e
        self._forced = self._announced + len(_ANNOUNCED) + e
        self._extra = self._forced + 1
        self._camera = self._extra + 1 + n
        self._turn = self._camera + n * CARDS_PER_PLAYER
        self._end = self._turn + 1
        self.size = self._end + 1 + n + len(_TEAMS)

    def encode(self, view: View) -> Vector:
        """The view as a float32 vector (see the class docstring for the layout)."""
        data = view.to_json()
        n, e = self.seats, self.cards
        out = np.zeros(self.size, dtype=np.float32)
        out[view.seat] = 1.0
        decision = data["decision"]
        one_hot(out, n, decision["seat"], n)
        one_hot(out, 2 * n, data["active"], n)
        out[3 * n + _KINDS.index(DecisionKind(decision["kind"]))] = 1.0
        out[3 * n + len(_KINDS)] = 1.0 if data["direction"] < 0 else 0.0
        looked = {(seat, pos): card for _, seat, pos, card in sorted(data["investigated"])}
        for s, player in enumerate(data["players"]):
            base = self._seats + s * self._seat_block
            for i, key in enumerate(("alive", "wounded", "inverted", "gun")):
                out[base + i] = 1.0 if player[key] else 0.0
            one_hot(out, base + 4, player["aim"], n)
            out[base + 4 + n] = ratio(player["equipment"], HAND_SCALE)
            for pos, card in enumerate(player["cards"]):
                at = base + 5 + n + 9 * pos
                out[at] = 1.0 if card["face_up"] else 0.0
                if card["card"] is not None:
                    out[at + 1 + INTEGRITY_NAMES.index(card["card"])] = 1.0
                seen = looked.get((s, pos))
                if seen is not None:
                    out[at + 5 + INTEGRITY_NAMES.index(seen)] = 1.0
        for cid in data["hand"]:
            out[self._hand + self.card_index[cid]] = 1.0
        out[self._guns] = ratio(data["guns_centre"], self.guns)
        deck = data["deck"]
        out[self._deck] = ratio(deck["unseen"], e)
        out[self._deck + 1] = ratio(len(deck["bottom"]), e)
        for cid in deck["bottom"]:
            if cid is not None:
                out[self._deck + 2 + self.card_index[cid]] = 1.0
        self._encode_announced(out, data["announced"])
        out[self._forced] = 1.0 if data["forced_shoot"] else 0.0
        out[self._extra] = ratio(len(data["extra_turns"]), n)
        one_hot(out, self._extra + 1, data["next_turn"], n)
        for seat, pos in data["camera"]:
            out[self._camera + CARDS_PER_PLAYER * seat + pos] = 1.0
        out[self._turn] = ratio(data["turn"], TURN_SCALE)
        if data["winner"] is not None:
            out[self._end] = 1.0
            for seat in data["winners"]:
                out[self._end + 1 + seat] = 1.0
            one_hot(out, self._end + 1 + n, _TEAMS.index(data["winner"]) if data["winner"] in _TEAMS
                    else None, len(_TEAMS))
        return out

    def _encode_announced(self, out: Vector, announced: Any) -> None:
        if announced is None:
            return
        try:
            action = self.game.str_to_action(announced)
        except InvalidActionError:
            return  # not an action of this content: nothing to encode
        if codec.INVESTIGATE <= action < codec.PICK:
            out[self._announced] = 1.0
        elif action in (codec.EQUIP, codec.ARM, codec.SHOOT):
            out[self._announced + action] = 1.0  # EQUIP, ARM, SHOOT are 1, 2, 3
        elif codec.is_play(action):
            card, _ = codec.decode_play(action)
            out[self._announced + 4] = 1.0
            out[self._announced + len(_ANNOUNCED) + card] = 1.0


def encoder(game: Game) -> Encoder:
    """The view encoder of one configured GCBC game."""
    return GCBCEncoder(game)


def adapter_spec() -> AdapterSpec:
    """GCBC's adapter spec: 4..8 seats, the codec's id space, the move cap, the encoder."""
    return AdapterSpec(
        encoder=encoder,
        # "investigated" is indexed by history entry: memory, like the history itself
        recall_keys=("history", "investigated"),
    )
