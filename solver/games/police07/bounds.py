"""How long a Police 07 game can last, its chance nodes and returns, by the rules (every game ends
within 24 Dr. Factor moves, so no move cap is needed)."""

from __future__ import annotations

from solver.core import Game
from solver.core.spec import Bounds, check_game
from solver.games.police07 import codec
from solver.games.police07.codec import FACTOR_TICKETS
from solver.games.police07.rules import Police07Game


def bounds(game: Game) -> Bounds:
    """Police 07's bounds for one configuration, derived from the rules (see the comments)."""
    p07 = check_game(game, Police07Game, "police07 bounds")
    detectives = p07.num_pieces - 1
    rounds = codec.LAST_MOVE  # at most one detectives' round per Dr. Factor move
    factor = codec.LAST_MOVE + FACTOR_TICKETS[codec.Ticket.DOUBLE]  # moves + double announcements
    if p07.voluntary_show:
        factor += rounds * (1 + detectives)  # a show, then one take per detective piece, once a turn
    placements = 1 + detectives if p07.free_start else 0
    return Bounds(
        # Start cards are ids START_BASE + stop, the only chance outcomes; OpenSpiel needs every
        # chance id below max_chance_outcomes, so the bound is the end of the start-card block.
        max_chance_outcomes=0 if p07.free_start else codec.PLACE_BASE,
        max_chance_nodes=0 if p07.free_start else 1 + detectives,
        max_game_length=factor + rounds * detectives + placements,
        min_utility=-1.0,
        max_utility=1.0,
        zero_sum=p07.num_players == 2,  # +1/-1 per seat: zero-sum only with one detective seat
    )
