"""Police 07 in the OpenSpiel and PettingZoo adapters: its view encoder (the bounds are the game's,
``solver/games/police07/bounds.py``).

Found by :func:`bots.adapters.specs.spec_for` through :func:`adapter_spec`.
"""

from __future__ import annotations

import numpy as np

from bots.adapters.specs import AdapterSpec, Encoder, Vector, check_game, ratio
from solver.core import Game, View
from solver.games.police07 import codec
from solver.games.police07.codec import FACTOR_TICKETS, TICKET_NAMES


class Police07Encoder:
    """Police 07 views as vectors; one layout per configured game, the same for every seat.

    With S stops, D detective pieces and N seats (every entry in [0, 1])::

        offset              size   content
        0                   N      the observing seat, one-hot
        N                   N      the seat to act, one-hot (all zero at a deal or the end)
        2N                  1      1 when the observer is Dr. Factor
        2N+1                D*S    detective piece d's stop: row d-1, column stop-1, one-hot
        2N+1+D*S            S      Dr. Factor's stop as the observer knows it (zero when hidden)
        2N+1+(D+1)*S        S      the stops he may be at (his possible-location set)
        2N+1+(D+2)*S        3*D    each detective piece's taxi, bus, metro tickets / its start stock
        2N+1+(D+2)*S+3D     5      Dr. Factor's taxi, bus, metro, joker, double tickets / their cap
        ... + 5             1      Dr. Factor's moves so far / 24
        ... + 6             1      1 once the game is over
        ... + 7             1      1 when the detectives won

    Ticket caps: a detective never gains tickets; Dr. Factor gains every ticket the detectives
    spend (and those he takes after a show), so his taxi cap is his 3 plus every detective's 9, and
    so on. An unlimited stock (the unlimited-tickets variant) reads 1.
    """

    def __init__(self, game: Game) -> None:
        from solver.games.police07.rules import DETECTIVE_TICKETS, Police07Game

        self.game = check_game(game, Police07Game, "police07 encoder")
        self.stops = self.game.board.num_stops
        self.detectives = self.game.num_pieces - 1
        self.seats = self.game.num_players
        self.last_move = codec.LAST_MOVE
        self.detective_caps = tuple(float(n) for n in DETECTIVE_TICKETS)
        self.factor_caps = tuple(
            float(n + (DETECTIVE_TICKETS[t] * self.detectives if t < 3 else 0))
            for t, n in enumerate(FACTOR_TICKETS)
        )
        n, s, d = self.seats, self.stops, self.detectives
        self._pieces = 2 * n + 1
        self._factor_stop = self._pieces + d * s
        self._possible = self._factor_stop + s
        self._det_tickets = self._possible + s
        self._factor_tickets = self._det_tickets + 3 * d
        self._tail = self._factor_tickets + 5
        self.size = self._tail + 3

    def encode(self, view: View) -> Vector:
        """The view as a float32 vector (see the class docstring for the layout)."""
        from solver.games.police07.locations import possible_locations

        data = view.to_json()
        out = np.zeros(self.size, dtype=np.float32)
        out[view.seat] = 1.0
        acting = data["decision"]["seat"]
        if 0 <= acting < self.seats:
            out[self.seats + acting] = 1.0
        out[2 * self.seats] = 1.0 if view.seat == 0 else 0.0
        for row, piece in enumerate(data["pieces"]):
            if piece["stop"] is not None:
                out[self._pieces + row * self.stops + piece["stop"] - 1] = 1.0
            for t, name in enumerate(TICKET_NAMES[:3]):
                out[self._det_tickets + 3 * row + t] = ratio(piece["tickets"][name], self.detective_caps[t])
        factor = data["factor"]
        if factor["stop"] is not None:
            out[self._factor_stop + factor["stop"] - 1] = 1.0
        for stop in possible_locations(self.game, data):
            out[self._possible + stop - 1] = 1.0
        for t, name in enumerate(TICKET_NAMES):
            out[self._factor_tickets + t] = ratio(factor["tickets"][name], self.factor_caps[t])
        out[self._tail] = factor["moves"] / self.last_move
        winner = data["winner"]
        out[self._tail + 1] = 1.0 if winner is not None else 0.0
        out[self._tail + 2] = 1.0 if winner == "detectives" else 0.0
        return out


def encoder(game: Game) -> Encoder:
    """The view encoder of one configured Police 07 game."""
    return Police07Encoder(game)


def adapter_spec() -> AdapterSpec:
    """Police 07's adapter spec: 2..6 seats, the codec's id space, the rules' bounds, the encoder."""
    return AdapterSpec(
        encoder=encoder,
    )
