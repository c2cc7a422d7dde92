"""`copsolver hint gcbc`: the posterior table, reasons that cite it, nothing the seat cannot know."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from bots import hint
from bots.cli import main
from bots.gcbc import hint as gcbc_hint
from solver.belief.gcbc_behaviour import load_behaviour
from solver.belief.gcbc_posterior import posterior
from solver.games.gcbc import codec
from solver.games.gcbc.rules import GCBCState
from solver.search.ismcts import Budget
from tests.gcbc_positions import heuristic_position


def _position(players: int, seed: int, after: int) -> GCBCState:
    state = heuristic_position(players, seed, after, announce=True)
    assert not state.is_terminal()
    return state


def _hint_text(state: GCBCState, bot: str = "ismcts") -> str:
    seat = state.current_player()
    game, view = hint.load_position("gcbc", state.view(seat).to_json())
    advice = hint.advise(game, view, bot=bot, budget=Budget(iterations=40), seed=2)
    return hint.format_advice(game, view, advice)


def test_table_has_every_seat_and_the_exact_marginals() -> None:
    state = _position(6, 3, 60)
    seat = state.current_player()
    text = _hint_text(state)
    marg = posterior(state.game, state.view(seat).to_json(), load_behaviour()).marginals()
    assert "Who is who" in text
    for m in marg:
        pattern = rf"\s+{m['seat']}\s+(you|alive|wounded|out)\b"
        row = next(line for line in text.splitlines() if re.match(pattern, line))
        assert f"{100 * m['p_honest']:.1f}%" in row
        assert f"{100 * m['p_kingpin']:.1f}%" in row
    assert re.search(rf"^\s+{seat}\s+you\b", text, re.M)


def test_reasons_name_the_posterior_fact() -> None:
    state = _position(6, 3, 60)
    game, view = hint.load_position("gcbc", state.view(state.current_player()).to_json())
    advice = hint.advise(game, view, budget=Budget(iterations=30), seed=1)
    marg = gcbc_hint.marginals_for(game, view)
    annotated = gcbc_hint.annotate(game, view, advice, marg)
    assert "marginals" not in annotated.belief
    for r in annotated.ranked:
        if codec.INVESTIGATE <= r.action < codec.PICK:
            target, pos = codec.slot(r.action, codec.INVESTIGATE)
            assert r.reason.startswith(f"seat {target}'s card {pos} is ")
            assert f"seat {target} is " in r.reason


@pytest.mark.parametrize("kingpin", [0.62, 0.05])
def test_role_fact_wording(kingpin: float) -> None:
    m = {"seat": 3, "p_honest": 0.1, "p_agent": 0.0, "p_kingpin": kingpin, "cards": []}
    fact = gcbc_hint._role_fact(m, "honest")
    if kingpin >= 0.2:
        assert fact == "seat 3 is Kingpin with 0.62"
    else:
        assert fact == "seat 3 is on the other team with 0.90"


def test_hint_is_the_same_wherever_the_hidden_cards_are() -> None:
    """Two true states with one view for the seat give one hint, word for word."""
    state = _position(5, 4, 40)
    seat = state.current_player()
    other = state.game.resample(state.view(seat), np.random.default_rng(9))
    assert other.view(seat).to_json() == state.view(seat).to_json()
    assert _hint_text(state) == _hint_text(other)
    assert _hint_text(state, "heuristic") == _hint_text(other, "heuristic")


def test_cli_hint_gcbc(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = _position(4, 5, 20)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(state.view(state.current_player()).to_json()))
    assert main(["hint", "gcbc", str(path), "--iterations", "30"]) == 0
    text = capsys.readouterr().out
    assert "Who is who" in text and "Ranked moves:" in text
