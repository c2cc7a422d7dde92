"""Escape Plan's state machine under the conformance suite (``solver.testing.check_game``) at its default
density, for every player count. The game is not in the registry yet (it joins once the Visit and the
executive actions exist), so ``tests/test_conformance.py`` does not run it; this file does."""

from __future__ import annotations

import pytest

from solver.games.escape.rules import EscapeGame
from solver.testing import check_game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_game(players: int) -> None:
    report = check_game(EscapeGame(players=players))
    assert report.games == 10 and report.resamples_varied > 0
