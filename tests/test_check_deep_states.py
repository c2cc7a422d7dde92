"""``check_game(deep_states=N)``: the expensive checks at full density on the first N states only."""

from __future__ import annotations

import pytest

from solver.testing import check_game
from tests.toygame import HiddenPass


def test_deep_states_limits_the_expensive_checks_to_the_start() -> None:
    full = check_game(HiddenPass(3, 3), seed=4, games=3, check_every=1)
    short = check_game(HiddenPass(3, 3), seed=4, games=3, check_every=1, deep_states=3)
    assert short.histories == full.histories and short.states == full.states  # played to the end
    assert short.deep_checks == 3 * 3 + 3  # three states of each game, and each terminal state
    assert full.deep_checks == full.states


def test_deep_states_must_be_positive() -> None:
    with pytest.raises(ValueError, match="deep_states=0"):
        check_game(HiddenPass(), deep_states=0)
