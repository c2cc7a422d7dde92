"""How long a LineUp game can last, its chance nodes and returns.

The rules do not bound a game's length: a player may roll and walk the ring road forever without
asking for a lineup, so nobody need ever win. The adapters therefore cap a game at
:data:`MOVE_CAP` actions (chance outcomes included) and end it there as a draw, every return 0
(as the rules' own end when nobody can win any more). The cap is far above what play reaches: 200
uniformly random 6-player games took at most 4,303 actions (median 2,324).
"""

from __future__ import annotations

from solver.core import Game
from solver.core.spec import Bounds, check_game
from solver.games.lineup import codec
from solver.games.lineup.content import LUCKY_NAMES
from solver.games.lineup.rules import LineUpGame

#: actions (chance outcomes included) after which the adapters end a game as a draw
MOVE_CAP = 10_000


def bounds(game: Game) -> Bounds:
    """LineUp's bounds for one configuration: the codec's chance ids, +1/-1 returns, the move cap."""
    lineup = check_game(game, LineUpGame, "lineup bounds")
    return Bounds(
        # Lucky Break draws are the last chance block (and the last block of all)
        max_chance_outcomes=codec.LUCKY_DRAW + len(LUCKY_NAMES),
        max_chance_nodes=MOVE_CAP,
        max_game_length=MOVE_CAP,
        min_utility=-1.0,  # +1 to the winner, -1 to the others; 0 to all when nobody wins or at the cap
        max_utility=1.0,
        zero_sum=lineup.num_players == 2,
        move_cap=MOVE_CAP,
    )
