"""How long a Good Cop Bad Cop game can last, its chance nodes and returns.

The rules do not bound a game's length: nothing forces a table to stop investigating (a look turns
no card face up), so a game of investigations never ends. A game is therefore capped at
:data:`MOVE_CAP` actions (chance outcomes included), where the adapters end it as a draw, every
return 0. The cap is far above what play reaches: 300 uniformly random 8-player games took at most
2,297 actions (median 827), and random play is the slow extreme, since deliberate play shoots sooner.
"""

from __future__ import annotations

from solver.core import Game
from solver.core.spec import Bounds, check_game
from solver.games.gcbc import codec
from solver.games.gcbc.rules import GCBCGame

#: actions (chance outcomes included) after which the adapters end a game as a draw
MOVE_CAP = 5000


def bounds(game: Game) -> Bounds:
    """GCBC's bounds for one configuration: the codec's chance ids, +1/-1 returns, the move cap."""
    gcbc = check_game(game, GCBCGame, "gcbc bounds")
    return Bounds(
        # draws are the last chance block: DRAW + card, one id per Equipment card of the content
        max_chance_outcomes=codec.DRAW + len(gcbc.card_ids),
        max_chance_nodes=MOVE_CAP,
        max_game_length=MOVE_CAP,
        min_utility=-1.0,  # +1 to each winner, -1 to each loser; 0 to all at the cap
        max_utility=1.0,
        zero_sum=False,  # one team wins whatever the team sizes, or one player alone
        move_cap=MOVE_CAP,
    )
