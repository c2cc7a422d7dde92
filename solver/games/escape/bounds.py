"""How long an Escape Plan game can last, its chance nodes and returns.

Three days of five parts bound the game, but a turn's executive actions and Visit choices vary, so the
adapters get a generous cap instead of an exact count: :data:`MOVE_CAP` actions, chance included.
Uniformly random games take a few hundred actions (60 seeded games at each of 2, 3, 4 and 5 players:
the longest 317, 362, 431 and 501; ``tests/test_escape_games.py`` plays 10,000 to the end).
"""

from __future__ import annotations

from solver.core import Game
from solver.core.spec import Bounds, check_game
from solver.games.escape import codec
from solver.games.escape.rules import EscapeGame

#: actions (chance outcomes included) after which the adapters end a game as a draw
MOVE_CAP = 20_000


def bounds(game: Game) -> Bounds:
    """Escape Plan's bounds for one configuration: every action id, +1/-1 returns, the cap."""
    check_game(game, EscapeGame, "escape bounds")
    return Bounds(
        max_chance_outcomes=codec.NUM_ACTIONS,
        max_chance_nodes=MOVE_CAP,
        max_game_length=MOVE_CAP,
        min_utility=-1.0,  # -1 to every seat that does not win
        max_utility=1.0,  # +1 to each winner
        zero_sum=False,
        move_cap=MOVE_CAP,
    )
