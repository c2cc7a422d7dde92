"""Hidden Pass declares itself: the one file the registry line names."""

from __future__ import annotations

from solver.core.options import Option
from solver.core.spec import GameSpec

SPEC = GameSpec(
    name="hidden_pass",
    title="Hidden Pass (a toy game)",
    game="tests.toy.game.rules:HiddenPass",
    min_players=2,
    max_players=4,
    default_players=3,
    options={"rounds": Option(2, int, "rounds to play", minimum=1)},
    # deal 0..3, bonus 4..6, check, bet, call, raise (tests/toy/game/rules.py)
    num_distinct_actions=11,
    bounds="tests.toy.game.bounds:bounds",
    summary="a toy: one hidden card each, bets and raises",
    bots="tests.toy.bots",
)
