"""LineUp declares itself (:class:`~solver.core.spec.GameSpec`): seats, content options, flags."""

from __future__ import annotations

from solver.core.options import Option
from solver.core.spec import GameSpec
from solver.games.lineup import codec
from solver.games.lineup.content import LUCKY_NAMES

SPEC = GameSpec(
    name="lineup",
    title="LineUp",
    game="solver.games.lineup.rules:LineUpGame",
    min_players=2,
    max_players=6,
    default_players=4,
    # Lucky Break draws are the codec's last block
    num_distinct_actions=codec.LUCKY_DRAW + len(LUCKY_NAMES),
    bounds="solver.games.lineup.bounds:bounds",
    summary="a memory race: identify suspects from crime scenes",
    options={
        "board": Option(None, str, "a board file instead of the shipped (stand-in) board", file=True),
        "suspects": Option(None, str, "a suspect-deck file instead of the shipped decks", file=True),
        "lucky": Option(None, str, "a Lucky Break deck file instead of the shipped deck", file=True),
    },
    flags={"--board": "board", "--suspects": "suspects", "--lucky": "lucky"},
    # the bots' memory level (bots/lineup/players.py), set on every bot that takes it
    bot_flags={"--memory": "memory"},
)
