"""Escape Plan declares itself (:class:`~solver.core.spec.GameSpec`): seats, content files."""

from __future__ import annotations

from solver.core.options import Option
from solver.core.spec import GameSpec
from solver.games.escape import codec

SPEC = GameSpec(
    name="escape",
    title="Escape Plan",
    game="solver.games.escape.rules:EscapeGame",
    min_players=2,
    max_players=5,
    default_players=3,
    num_distinct_actions=codec.NUM_ACTIONS,
    bounds="solver.games.escape.bounds:bounds",
    summary="free-for-all: recover your money across a growing city and escape on day 3",
    options={
        "city": Option(None, str, "a City tile file instead of the shipped (stand-in) city", file=True),
        "content": Option(None, str, "a cards-and-tracks file instead of the shipped (stand-in) content",
                          file=True),
    },
    flags={"--city": "city", "--content": "content"},
)
