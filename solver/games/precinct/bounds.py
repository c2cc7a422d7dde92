"""How long a Police Precinct game can last, its chance nodes and returns.

The Turn Track bounds the game: every first player's turn advances it, and the game is lost once it
reaches FAIL, so at most ``fail_turn - start_turn + 1`` rounds are played. The number of decisions
inside one turn is bounded too, but loosely (police cards played one by one, donuts, help windows),
so the adapters get a generous cap instead of an exact count: :data:`MOVE_CAP` actions, chance
included, after which a game is ended as a draw. 2,000 uniformly random 4-player games are far
inside it (``bench/results/precinct.md``).
"""

from __future__ import annotations

from solver.core import Game
from solver.core.spec import Bounds, check_game
from solver.games.precinct import codec
from solver.games.precinct.rules import PrecinctGame

#: actions (chance outcomes included) after which the adapters end a game as a draw
MOVE_CAP = 20_000


def bounds(game: Game) -> Bounds:
    """Police Precinct's bounds for one configuration: every action id, +1/-1 returns, the cap."""
    check_game(game, PrecinctGame, "precinct bounds")
    return Bounds(
        max_chance_outcomes=codec.NUM_ACTIONS,
        max_chance_nodes=MOVE_CAP,
        max_game_length=MOVE_CAP,
        min_utility=-1.0,  # +1 to the winning side, -1 to the losing side
        max_utility=1.0,
        zero_sum=False,
        move_cap=MOVE_CAP,
    )
