"""LineUp's review hook: there is no belief gap to measure, so :func:`belief_gap` is always None.

What a LineUp seat does not see is the deck, the other seats' face-down cards and its own face-down
cards' features once it has stopped studying them. Only the last is anything a seat *believes*, and
that belief is not in the view: it is the memory of :mod:`solver.belief.lineup_memory`, which a bot
keeps itself (the features it noted while studying and the recall draws of its own generator;
:meth:`bots.lineup.players._LineUpBot.memory_to_json`). A view shows nothing of it, a human's
memory is not recorded anywhere, and a bot rebuilt from a view (as a review builds its advisor) has
none. Counting the features a seat misremembers would thus measure the draws of one bot's generator,
not the seat's play; the hook, which sees only the view, has nothing to compare with the truth.
"""

from __future__ import annotations

from bots.review import Gap
from solver.core import Game, State, View


def belief_gap(game: Game, view: View, truth: State) -> Gap | None:
    """Always None: a LineUp view holds no belief about hidden facts (see the module docstring)."""
    return None
