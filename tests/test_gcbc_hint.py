"""`copsolver hint gcbc`: the posterior table, reasons that cite it, nothing the seat cannot know."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import bots
from bots import hint
from bots.cli import main
from bots.gcbc import hint as gcbc_hint
from bots.registry import bots_for
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


# --- the bots' beliefs as tables, and the window's budget said under the advisor -------------------


def _window(players: int, seed: int, after: int) -> GCBCState:
    """Heuristic play stopped at the first Equipment window (pass or a play) after ``after`` decisions."""
    for decisions in range(after, after + 200):
        state = heuristic_position(players, seed, decisions)
        legal = state.legal_actions()
        if codec.PASS in legal and len(legal) > 1:
            return state
    raise AssertionError("no Equipment window in 200 decisions")


def _summary_count(text: str) -> int:
    match = re.search(r"^Summary: (\d+) (simulations|rollouts)", text, re.M)
    assert match, text
    return int(match.group(1))


def test_leader_lines_are_a_table_with_the_seats_as_likely() -> None:
    marginals = [
        {"seat": 0, "p_agent": 0.1, "p_kingpin": 0.5},
        {"seat": 1, "p_agent": 0.3, "p_kingpin": 0.2},
        {"seat": 2, "p_agent": 0.3, "p_kingpin": 0.2},
        {"seat": 3, "p_agent": 0.3, "p_kingpin": 0.1},
    ]
    assert gcbc_hint.leader_lines({"agent": 1, "kingpin": 0}, marginals) == [
        "Likeliest leaders (the bot's posterior):",
        "  leader   seat  chance  as likely",
        "  Agent       1   30.0%  seats 2, 3",
        "  Kingpin     0   50.0%  -",
    ]
    assert gcbc_hint.leader_lines({"agent": 7}, marginals) == []  # a seat the posterior lacks


def test_the_search_bots_leaders_are_printed_as_a_table() -> None:
    state = _position(6, 3, 60)
    game, view = hint.load_position("gcbc", state.view(state.current_player()).to_json())
    advice = hint.advise(game, view, budget=Budget(iterations=30), seed=1)
    assert "top_leader" in advice.belief  # the bot still reports it; the hint renders it
    text = hint.format_advice(game, view, advice)
    assert "top_leader" not in text and "{'" not in text
    lines = text.splitlines()
    at = lines.index("Likeliest leaders (the bot's posterior):")
    marginals = advice.belief["marginals"]
    for row, leader in zip(lines[at + 2 : at + 4], ("agent", "kingpin"), strict=True):
        name, seat, chance = row.split()[:3]
        best = max(float(m[f"p_{leader}"]) for m in marginals)
        assert name == leader.capitalize()
        assert int(seat) == advice.belief["top_leader"][leader]
        assert chance == f"{100 * best:.1f}%"


def test_the_heuristics_estimate_is_a_table() -> None:
    state = _position(5, 4, 40)
    seat = state.current_player()
    text = _hint_text(state, "heuristic")
    assert "seats: [" not in text and "{'" not in text and "\nteam: " not in text
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("The heuristic's estimate per seat"))
    assert re.fullmatch(r"The heuristic's estimate per seat \(its own team: (honest|crooked)\):", lines[at])
    assert lines[at + 1].split() == ["seat", "crooked", "Agent", "Kingpin", "why"]
    assert [int(line.split()[0]) for line in lines[at + 2 : at + 7]] == list(range(5))
    assert re.match(rf"\s+{seat}\s+", lines[at + 2 + seat])


#: iterations asked of each bot at a window: enough that its share gives the most visited move the
#: simulations a ranking needs (ismcts: 25% of 240 = 60 over five moves; rollout: 50% of 200 = 100
#: rollouts, 20 rounds over five candidates)
ENOUGH = {"ismcts": 240, "rollout": 200}


@pytest.mark.parametrize("bot", ["ismcts", "rollout"])
def test_a_window_hint_says_what_the_budget_bought(bot: str) -> None:
    """At an Equipment window the bots search their window_share of the budget: the advisor line
    gives the iterations asked, the next line the share and the simulations the summary counts."""
    state = _window(5, 2, 12)
    game, view = hint.load_position("gcbc", state.view(state.current_player()).to_json())
    asked = ENOUGH[bot]
    budget = Budget(iterations=asked)
    advice = hint.advise(game, view, bot=bot, budget=budget, seed=2)
    assert not advice.decided_by  # enough simulations: the search's own ranking stands
    lines = hint.hint_text(game, view, advice, bot, budget, 2).splitlines()
    assert lines[1].startswith(f"Advisor: {bot} bot, {asked} iterations, seed 2")
    share = bots_for("gcbc")[bot].options["window_share"].default
    match = re.fullmatch(
        rf"Budget here: an Equipment window gets the bot's window_share \({share:.0%}\) of the {asked} "
        r"iterations asked: (\d+); simulations run: (\d+)",
        lines[2],
    )
    assert match, lines[2]
    granted, run = int(match.group(1)), int(match.group(2))
    assert granted == round(asked * share) < asked
    assert run == _summary_count("\n".join(lines))
    unit = "iterations" if bot == "ismcts" else "rollouts"
    # the bot's summary says it too
    assert f"a window decision: {share:.0%} of the budget, {granted} of {asked} {unit}" in advice.summary
    if bot == "ismcts":
        assert run == granted  # every granted iteration is one simulation
    else:
        assert 0 < run <= granted  # rollouts go in whole rounds over the candidates


@pytest.mark.parametrize("bot", ["ismcts", "rollout"])
def test_a_window_share_too_small_to_rank_gives_way_to_the_policy(bot: str) -> None:
    """30 iterations asked: the window's share (8 simulations, or a round of rollouts or two) cannot
    tell the moves apart, so the heuristic ranks them and the hint says why, with the search's
    numbers in the reasons; the bot's own advice still says what the share bought."""
    state = _window(5, 2, 12)
    game, view = hint.load_position("gcbc", state.view(state.current_player()).to_json())
    budget = Budget(iterations=30)
    own = bots.make(game, bot, seat=view.seat, rng=2, iterations=30).advise(view)
    share = bots_for("gcbc")[bot].options["window_share"].default
    assert f"a window decision: {share:.0%} of the budget, {round(30 * share)} of 30" in own.summary
    advice = hint.advise(game, view, bot=bot, budget=budget, seed=2)
    assert advice.decided_by == "heuristic" and "too few to tell the moves apart" in advice.note
    heuristic = hint.advise(game, view, bot="heuristic", seed=2)
    assert [r.action for r in advice.ranked] == [r.action for r in heuristic.ranked]
    assert any("; the search: " in r.reason for r in advice.ranked)
    text = hint.hint_text(game, view, advice, bot, budget, 2)
    assert f"Decided by the heuristic policy: {advice.note}" in text
    assert "Budget here" not in text  # no search ranking to account for


def test_no_budget_line_outside_a_window_or_without_a_search() -> None:
    state = _position(6, 3, 60)
    game, view = hint.load_position("gcbc", state.view(state.current_player()).to_json())
    assert codec.PASS not in view.legal_actions
    budget = Budget(iterations=30)
    advice = hint.advise(game, view, budget=budget, seed=1)
    assert "Budget here" not in hint.hint_text(game, view, advice, "ismcts", budget, 1)
    window = _window(5, 2, 12)
    game, view = hint.load_position("gcbc", window.view(window.current_player()).to_json())
    advice = hint.advise(game, view, bot="heuristic", seed=1)
    assert "Budget here" not in hint.hint_text(game, view, advice, "heuristic", None, 1)
