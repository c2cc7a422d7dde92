"""Good Cop Bad Cop declares itself (:class:`~solver.core.spec.GameSpec`): seats, options, flags."""

from __future__ import annotations

from solver.core.options import Option
from solver.core.spec import GameSpec
from solver.games.gcbc import codec
from solver.games.gcbc.deal import MAX_PLAYERS, MIN_PLAYERS

#: The Equipment decks (solver/games/gcbc/equipment.py): the rulebook's and the 4th printing's.
DECKS = ("rulebook", "4th")

SPEC = GameSpec(
    name="gcbc",
    title="Good Cop Bad Cop",
    game="solver.games.gcbc.rules:GCBCGame",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=6,
    # draw ids are the codec's last block: DRAW + card, at most MAX_CARDS cards in any content
    num_distinct_actions=codec.DRAW + codec.MAX_CARDS,
    bounds="solver.games.gcbc.bounds:bounds",
    summary="hidden teams and leaders: find and shoot the other team's leader",
    options={
        "deck": Option("rulebook", str, "the Equipment deck", choices=DECKS),
        "content": Option(None, str, "an Equipment content file instead of the named deck", file=True),
    },
    flags={"--deck": "deck", "--content": "content"},
)
