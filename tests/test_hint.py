"""The hint advisor: reading positions, advice, and text that shows only the seat's own view."""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bots import hint
from bots.cli import main
from bots.police07 import hint as p07_hint
from solver import games
from solver.belief.location_filter import filtered_belief
from solver.core import BadStateError, ConfigError
from solver.games.police07 import codec
from solver.games.police07.locations import possible_locations
from solver.games.police07.rules import Police07Game, Police07State
from solver.games.police07.view import Police07View
from solver.search.ismcts import Budget

#: Dr. Factor starts at 1, detectives at 24, 40, 59; move 1 (shown) to 2; move 2 a hidden bus ride,
#: so he is at 13, 19, 22 or 24 and detective 1 (now at 21) is to move.
HIDDEN = ("start 1", "start 24", "start 40", "start 59", "taxi 2", "taxi 21", "taxi 33", "taxi 53", "bus 13")
#: A small search budget: reproducible, and quick in pure Python too.
QUICK = Budget(iterations=200)


def game4() -> Police07Game:
    game = games.load("police07", players=4)
    assert isinstance(game, Police07Game)
    return game


def position(*actions: str) -> Police07State:
    state = game4().new_initial_state()
    for text in actions:
        state.apply_str(text)
    return state


def test_load_position_from_a_state_advises_the_seat_to_act() -> None:
    state = position(*HIDDEN)
    game, view = hint.load_position("police07", state.to_json())
    assert game == state.game
    assert view.seat == 1 and view == state.view(1)
    game, view = hint.load_position("police07", position(*HIDDEN[:-1]).to_json())
    assert view.seat == 0 and view.legal_actions


def test_load_position_from_a_view() -> None:
    state = position(*HIDDEN)
    data = json.loads(json.dumps(state.view(1).to_json()))  # as a front end would send it
    game, view = hint.load_position("police07", data)
    assert view == state.view(1)


def test_load_position_from_a_state_without_config_uses_defaults() -> None:
    data = {"game": "police07", "actions": list(HIDDEN)}
    game, view = hint.load_position("police07", data)
    assert game == games.load("police07") and view.seat == 1


def _state_json() -> dict[str, Any]:
    return position(*HIDDEN).to_json()


def _view_json() -> dict[str, Any]:
    return position(*HIDDEN).view(1).to_json()


BAD: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "must be a JSON object"),
    ("neither", {"game": "police07"}, "expected a state"),
    ("other game", {**_state_json(), "game": "gcbc"}, "for game 'gcbc'"),
    ("bad config", {**_state_json(), "config": {"players": 9}}, "players must be 2..6"),
    ("config not an object", {**_state_json(), "config": [4]}, "'config' must be an object"),
    ("unknown option", {**_state_json(), "config": {"colour": "red"}}, "colour"),
    ("actions not a list", {**_state_json(), "actions": "taxi 2"}, "'actions' list"),
    ("unreadable action", {**_state_json(), "actions": [*HIDDEN, "fly 3"]}, "'fly 3'"),
    ("illegal action", {**_state_json(), "actions": [*HIDDEN, "taxi 150"]}, "not legal now"),
    ("chance next", {**_state_json(), "actions": list(HIDDEN[:2])}, "chance acts next"),
    ("game over", {**_state_json(), "actions": [*HIDDEN[:5], "bus 2"]}, "the game is over"),
    ("view of a waiting seat", position(*HIDDEN).view(2).to_json(), "seat 2 has no decision now"),
    ("view with a planted stop", {**_view_json(), "factor": {**_view_json()["factor"], "stop": 13}},
     "does not follow"),
    ("view history junk", {**_view_json(), "history": [*_view_json()["history"][:-1], [0, "bus 999"]]},
     "history"),
    ("view history item", {**_view_json(), "history": [*_view_json()["history"][:-1], "x"]}, "history"),
    ("view move without stop", {**_view_json(), "history": [*_view_json()["history"], [1, "taxi"]]},
     "'taxi': not a detective move"),
    ("view seat", {**_view_json(), "seat": "one"}, "seat 'one'"),
]


@pytest.mark.parametrize(("data", "message"), [(d, m) for _, d, m in BAD], ids=[n for n, _, _ in BAD])
def test_bad_positions_are_bad_state_errors(data: Any, message: str) -> None:
    with pytest.raises(BadStateError, match=message):
        hint.load_position("police07", data)


def test_unknown_bot_is_a_config_error() -> None:
    game, view = hint.load_position("police07", _state_json())
    with pytest.raises(ConfigError, match="unknown bot 'oracle'"):
        hint.advise(game, view, bot="oracle", budget=QUICK)


def test_detective_hint_shows_the_possible_stops_and_nothing_hidden() -> None:
    state = position(*HIDDEN)
    game, view = hint.load_position("police07", state.to_json())
    advice = hint.advise(game, view, bot="heuristic")
    text = hint.format_advice(game, view, advice)
    assert "police07, seat 1 (detective) to act: detective 1 moves (seat 1)" in text
    assert "Dr. Factor may be at 4 stops: 13, 19, 22, 24" in text
    assert re.search(r"^ +1\. +taxi 2", text, re.MULTILINE) and "(1 in 4 to catch him)" in text
    assert json.loads(json.dumps(advice.to_json())) == advice.to_json()
    # the true stop (13) is one of four the view allows; whatever the truth, the text is the same
    assert isinstance(game, Police07Game)
    seen = set()
    for seed in range(12):
        twin = game.resample(view, np.random.default_rng(seed))
        seen.add(twin.pos[0])
        twin_game, twin_view = hint.load_position("police07", twin.to_json())
        twin_advice = hint.advise(twin_game, twin_view, bot="heuristic")
        assert hint.format_advice(twin_game, twin_view, twin_advice) == text
    assert len(seen) > 1


def test_hint_lists_every_possible_stop_up_to_a_limit() -> None:
    game = game4()
    for seed in range(30):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
                continue
            seat = state.current_player()
            view = state.view(seat)
            if seat != 0:
                possible = sorted(possible_locations(game, view.to_json()))
                if len(possible) > 3:
                    text = hint.format_advice(game, view, hint.advise(game, view, bot="heuristic"))
                    line = next(t for t in text.splitlines() if t.startswith("Dr. Factor may be at"))
                    listed = [int(s) for s in line.split(": ")[1].split(" ...")[0].split(", ")]
                    assert line.startswith(f"Dr. Factor may be at {len(possible)} stops")
                    assert listed == possible[: len(listed)] and len(listed) == min(len(possible), 40)
                    return
            state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
    raise AssertionError("no detective position with more than 3 possible stops")


def test_factor_hint_names_his_stop() -> None:
    game, view = hint.load_position("police07", position(*HIDDEN[:-1]).to_json())
    text = hint.format_advice(game, view, hint.advise(game, view, budget=QUICK))
    assert "seat 0 (Dr. Factor) to act" in text and "Dr. Factor is at 2." in text
    assert "may be at" not in text


def test_random_bot_advice_formats() -> None:
    game, view = hint.load_position("police07", _state_json())
    text = hint.format_advice(game, view, hint.advise(game, view, bot="random", seed=3))
    assert sum(line.endswith("  random") for line in text.splitlines()) == len(view.legal_actions)
    assert "Advisor" not in text  # only when the caller names the advisor
    # the random bot keeps no belief; the possible stops are still printed, from the view
    assert "Dr. Factor may be at 4 stops: 13, 19, 22, 24" in text


def test_free_start_hints_before_dr_factor_places() -> None:
    game = games.load("police07", players=3, free_start=True)
    state = game.new_initial_state()
    game, view = hint.load_position("police07", state.to_json())
    assert view.seat == 1
    # the search bot's simulator starts after set-up: it hands placements to the heuristic, and says so
    advice = hint.advise(game, view, budget=QUICK)
    heuristic = hint.advise(game, view, bot="heuristic")
    assert advice.decided_by == "heuristic" and "free-start placement" in advice.note
    assert [r.action for r in advice.ranked] == [r.action for r in heuristic.ranked]
    assert {r.action for r in advice.ranked} == set(view.legal_actions)
    advisor = hint.describe_advisor(game, view, "ismcts", QUICK, 0)
    text = hint.format_advice(game, view, advice, advisor)
    assert f"Decided by the heuristic policy: {advice.note}" in text
    assert "Dr. Factor has not placed his piece yet." in text and re.search(r" 1\. +place ", text)
    assert "catch" not in text and "hidden among" not in text


# --- budgets and reproducibility ----------------------------------------------------------------


def test_an_iterations_budget_bounds_the_search_and_reproduces_the_hint() -> None:
    game, view = hint.load_position("police07", _state_json())
    advice = hint.advise(game, view, budget=Budget(iterations=200), seed=3)
    assert sum(r.visits or 0 for r in advice.ranked) == 200
    assert advice.summary.startswith("200 simulations") and not advice.decided_by
    again = hint.advise(game, view, budget=Budget(iterations=200), seed=3)
    assert again == advice
    advisor = hint.describe_advisor(game, view, "ismcts", Budget(iterations=50), 3)
    assert advisor == (
        "Advisor: ismcts bot, 50 iterations, seed 3 (reproducible: the same position, bot, budget and "
        "seed give this hint again)"
    )
    nw = hint.advise(game, view, bot="nw2012", budget=Budget(iterations=160))
    assert sum(r.visits or 0 for r in nw.ranked) == 160
    # too few simulations to rank by: the policy ranks, and says why
    few = hint.advise(game, view, bot="nw2012", budget=Budget(iterations=12))
    assert few.decided_by == "heuristic" and "too few to tell the moves apart" in few.note
    assert all(r.visits is None for r in few.ranked)
    assert {r.action for r in few.ranked} == set(view.legal_actions)


def test_a_seconds_budget_searches_by_the_clock_and_says_the_hint_varies() -> None:
    game, view = hint.load_position("police07", _state_json())
    advice = hint.advise(game, view, budget=Budget(seconds=0.05))
    assert sum(r.visits or 0 for r in advice.ranked) >= 1
    advisor = hint.describe_advisor(game, view, "ismcts", Budget(seconds=0.05), 0)
    assert "0.05 s of search" in advisor and "varies with the machine's speed" in advisor
    assert "its default" not in hint.describe_advisor(game, view, "ismcts", None, 0)
    assert "1000 iterations" in hint.describe_advisor(game, view, "ismcts", None, 0)


def test_bots_that_do_not_search_ignore_the_budget() -> None:
    game, view = hint.load_position("police07", _state_json())
    assert hint.searches(game, "ismcts") and hint.searches(game, "nw2012")
    assert not hint.searches(game, "heuristic") and not hint.searches(game, "random")
    assert hint.advise(game, view, bot="heuristic", budget=Budget(seconds=0.001)) == hint.advise(
        game, view, bot="heuristic", budget=QUICK
    )
    assert "no search, so no budget" in hint.describe_advisor(game, view, "heuristic", QUICK, 0)


def test_bad_budgets_are_config_errors() -> None:
    game, view = hint.load_position("police07", _state_json())
    with pytest.raises(ConfigError, match="iterations or seconds, not both"):
        hint.advise(game, view, budget=Budget(iterations=10, seconds=1.0))
    with pytest.raises(ConfigError, match="seconds"):
        hint.advise(game, view, budget=Budget(seconds=5000.0))
    with pytest.raises(ConfigError, match="iterations"):
        Budget(iterations=0)


# --- what a hint shows ------------------------------------------------------------------------------


def _rows(text: str) -> dict[str, list[str]]:
    """The ranked-move table: move text -> its cells, split on runs of two or more spaces."""
    lines = text.splitlines()
    start = lines.index("Ranked moves:") + 2  # the header row follows
    rows = {}
    for line in lines[start:]:
        if not re.match(r"^ +\d+\. ", line):
            break
        first, *cells = re.split(r" {2,}", line.strip())
        rank, move = first.split(" ", 1)
        rows[move] = [rank, move, *cells]
    return rows


def test_detective_hint_fields() -> None:
    game, view = hint.load_position("police07", _state_json())
    advice = hint.advise(game, view, budget=QUICK)
    advisor = hint.describe_advisor(game, view, "ismcts", QUICK, 0)
    text = hint.format_advice(game, view, advice, advisor)
    lines = text.splitlines()
    assert lines[0] == "police07, seat 1 (detective) to act: detective 1 moves (seat 1)"
    assert lines[1] == advisor
    assert lines[2] == "Dr. Factor may be at 4 stops: 13, 19, 22, 24"
    weights = filtered_belief(game4(), view.to_json())
    likely = sorted(weights, key=lambda s: (-weights[s], s))
    named = ", ".join(f"{s} ({100 * weights[s]:.0f}%)" for s in likely)
    assert lines[3] == f"Most likely (his moves followed with a learnt model of how he moves): {named}"
    header = lines[lines.index("Ranked moves:") + 1].split()
    assert header == ["#", "move", "visits", "win", "catch", "covers", "reason"]
    rows = _rows(text)
    assert [r.text for r in advice.ranked] == list(rows)
    for rank, r in enumerate(advice.ranked, start=1):
        cells = rows[r.text]
        assert cells[0] == f"{rank}."
        assert r.visits is not None and r.value is not None
        assert cells[2] == f"{100 * r.visits / 200:.1f}%"
        assert cells[3] == f"{100 * r.value:.1f}%"
    covers = p07_hint.detective_covers(game, view)
    for action, cover in covers.items():
        cells = rows[codec.action_to_str(action)]
        assert cells[4] == (f"{100 * cover.catch:.0f}%" if cover.lands else "-")
        assert cells[5] == f"{len(cover.stops)} of 4 ({100 * cover.share:.0f}%)"
    assert "Key:" in lines and any("covers: the possible stops D1 could ride to" in t for t in lines)


def test_factor_hint_fields() -> None:
    game, view = hint.load_position("police07", position(*HIDDEN[:-1]).to_json())
    advice = hint.advise(game, view, budget=QUICK)
    text = hint.format_advice(game, view, advice, hint.describe_advisor(game, view, "ismcts", QUICK, 0))
    assert "Dr. Factor is at 2.\nThe detectives consider 1 stop for him now." in text  # move 1 was shown
    header = text.splitlines()[text.splitlines().index("Ranked moves:") + 1]
    assert header.split()[:4] == ["#", "move", "visits", "win"] and "hidden among" in header
    assert "catch" not in header and "covers" not in header
    rows = _rows(text)
    assert set(rows) == {game.action_to_str(a) for a in view.legal_actions}
    # from 2: taxi to 1, 9, 10; bus to 13, 19, 22, 24; a joker rides either; no detective there
    for move, cells in rows.items():
        expected = {"taxi": "3 stops", "bus": "4 stops", "joker": "7 stops", "double": "-"}
        assert cells[4] == expected[move.split()[0]], move
    assert "hidden among: how many stops the detectives would consider" in text


def test_factor_ambiguity_is_the_detectives_set_after_the_move() -> None:
    game, view = hint.load_position("police07", position(*HIDDEN[:-1]).to_json())
    sizes = p07_hint.factor_ambiguity(game, view)
    assert {game.action_to_str(a): n for a, n in sizes.items() if a < 256 * 2} == {
        "taxi 1": 3, "taxi 9": 3, "taxi 10": 3, "bus 13": 4, "bus 19": 4, "bus 22": 4, "bus 24": 4,
    }
    # whichever bus stop he takes, the detectives then consider what their tracker says
    state = position(*HIDDEN)
    assert sizes[codec.str_to_action("bus 13")] == len(possible_locations(game4(), state.view(1).to_json()))
    # a shown move hides nothing; a detective's view gets no ambiguity
    first = position(*HIDDEN[:4])
    shown_view = first.view(0)
    assert set(p07_hint.factor_ambiguity(first.game, shown_view).values()) == {1}
    assert p07_hint.factor_ambiguity(game, position(*HIDDEN).view(1)) == {}
    assert p07_hint.public_count(game, position(*HIDDEN).view(1)) is None


def test_detective_covers_on_a_hand_checked_position() -> None:
    # Detective 1 stands on 21 (taxi to 14, 22, 24, 28); Dr. Factor may be at 13, 19, 22 or 24.
    # From the board: 14 -> taxi 7 8 13 15 21, bus 24;  22 -> taxi 16 21 24 25 26, bus 2 17 19 24 33
    # 46, metro 19 42;  24 -> taxi 21 22 29, bus 2 13 14 22 38;  28 -> taxi 13 21 29 34.
    game, view = hint.load_position("police07", _state_json())
    weights = {13: 0.4, 19: 0.3, 22: 0.2, 24: 0.1}
    covers = {game.action_to_str(a): c for a, c in p07_hint.detective_covers(game, view, weights).items()}
    summary = {
        m: (c.lands, round(c.catch, 6), c.stops, round(c.share, 6), c.possible) for m, c in covers.items()
    }
    assert summary == {
        "taxi 14": (False, 0.0, (13, 24), 0.5, 4),
        "taxi 22": (True, 0.2, (19, 24), 0.4, 4),
        "taxi 24": (True, 0.1, (13, 22), 0.6, 4),
        "taxi 28": (False, 0.0, (13,), 0.4, 4),
    }
    # spending his last taxi ticket leaves bus and metro: from 28 (taxi only) he covers nothing
    data = copy.deepcopy(view.to_json())
    data["pieces"][0]["tickets"]["taxi"] = 1
    assert isinstance(game, Police07Game) and isinstance(view, Police07View)
    poor = Police07View(game, 1, data, view.legal_actions, view.decision)
    covers = p07_hint.detective_covers(game, poor, weights)
    stops = {game.action_to_str(a): c.stops for a, c in covers.items()}
    assert stops == {"taxi 14": (24,), "taxi 22": (19, 24), "taxi 24": (13, 22), "taxi 28": ()}
    # the default weights are the learnt probabilities
    learnt = p07_hint.detective_covers(game, view)
    probabilities = p07_hint.location_probabilities(game, view)
    assert all(c.share == pytest.approx(sum(probabilities[s] for s in c.stops)) for c in learnt.values())
    assert p07_hint.detective_covers(game, position(*HIDDEN[:-1]).view(0)) == {}


def test_location_probabilities_come_from_the_view() -> None:
    game, view = hint.load_position("police07", _state_json())
    probabilities = p07_hint.location_probabilities(game, view)
    assert set(probabilities) == {13, 19, 22, 24} and sum(probabilities.values()) == pytest.approx(1.0)
    assert p07_hint.location_probabilities(game, position(*HIDDEN).view(0)) == {13: 1.0}


def test_a_detective_hint_is_the_same_wherever_dr_factor_really_is() -> None:
    """No leak: states that differ only in Dr. Factor's hidden stop give the detective one text."""
    texts = set()
    for hidden in (13, 19, 22, 24):  # every stop the bus ride from 2 can reach
        state = position(*HIDDEN[:-1], f"bus {hidden}")
        game, view = hint.load_position("police07", state.to_json())
        advisor = hint.describe_advisor(game, view, "ismcts", QUICK, 7)
        texts.add(hint.format_advice(game, view, hint.advise(game, view, budget=QUICK, seed=7), advisor))
    assert len(texts) == 1
    (text,) = texts
    assert "visits" in text and "covers" in text


# --- the command line -----------------------------------------------------------------------------


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    return path


def test_cli_hint_with_iterations(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(tmp_path, _state_json())
    assert main(["hint", "police07", str(path), "--iterations", "200"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith(
        "Advisor: ismcts bot (the default for police07), 200 iterations, seed 0 (reproducible")
    assert "Most likely (his moves followed with a learnt model of how he moves): " in out and "covers" in out
    assert main(["hint", "police07", str(path), "--iterations", "200"]) == 0
    assert capsys.readouterr().out == out
    game, view = hint.load_position("police07", _state_json())
    advisor = hint.describe_advisor(game, view, None, QUICK, 0)
    assert out == hint.format_advice(game, view, hint.advise(game, view, budget=QUICK), advisor) + "\n"


def test_cli_hint_defaults_to_a_timed_search(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(tmp_path, position(*HIDDEN[:-1]).to_json())
    assert main(["hint", "police07", str(path), "--seconds", "0.05", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Advisor: ismcts bot (the default for police07), 0.05 s of search, seed 4 (a time budget" in out
    assert "hidden among" in out
    assert main(["hint", "police07", str(path), "--bot", "heuristic"]) == 0
    assert "Advisor: heuristic bot (no search" in capsys.readouterr().out


def test_cli_hint_svg_shades_by_the_learnt_probabilities(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _write(tmp_path, _state_json())
    svg = tmp_path / "hint.svg"
    assert main(["hint", "police07", str(path), "--iterations", "50", "--svg", str(svg)]) == 0
    capsys.readouterr()
    root = ET.parse(svg).getroot()
    heat = {
        int(e.attrib["data-stop"]): float(e.attrib["data-weight"])
        for e in root.iter("{http://www.w3.org/2000/svg}circle")
        if e.attrib.get("class") == "possible"
    }
    game, view = hint.load_position("police07", _state_json())
    probabilities = p07_hint.location_probabilities(game, view)
    top = max(probabilities.values())
    assert heat == {s: pytest.approx(p / top, abs=1e-3) for s, p in probabilities.items()}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--seconds", "0"], "must be more than 0"),
        (["--seconds", "-1"], "must be more than 0"),
        (["--seconds", "nan"], "must be more than 0"),
        (["--seconds", "inf"], "finite number"),
        (["--seconds", "soon"], "'soon' is not a number"),
        (["--iterations", "0"], "must be 1 or more"),
        (["--iterations", "2.5"], "not a whole number"),
        (["--iterations", "10", "--seconds", "1"], "not allowed with"),
        (["--bot", "oracle"], "no such bot"),
        (["--seed", "-1"], "is negative"),
        (["--seconds", "5000"], "option 'seconds' must be in"),
        (["--iterations", str(2**31)], "iterations must be an int"),
    ],
)
def test_cli_hint_bad_options_exit_2(
    options: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _write(tmp_path, _state_json())
    assert main(["hint", "police07", str(path), *options]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


# --- one generic advisor, a hint module per game ----------------------------------------------------


def test_the_generic_hint_does_not_branch_on_game_names() -> None:
    """bots/hint.py names no game: no ``game.name == ...`` test and no import of one game's code."""
    import ast

    tree = ast.parse(Path(hint.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            named = any(isinstance(s, ast.Attribute) and s.attr == "name" for s in sides)
            assert not (named and any(isinstance(s, ast.Constant) for s in sides)), ast.unparse(node)
        if isinstance(node, ast.ImportFrom) and node.module:
            assert not node.module.startswith(("solver.games.", "bots.police07", "bots.gcbc", "bots.lineup"))
            assert node.module != "solver.games" or all(a.name == "games" for a in node.names), node.module


@pytest.mark.parametrize("name", ["police07", "gcbc", "lineup"])
def test_each_game_has_a_hint_module_with_the_interface(name: str) -> None:
    game = games.load(name)
    module = hint.game_hint(game)
    assert module is not None and module.__name__ == f"bots.{name}.hint"
    assert callable(module.extras)


def test_a_game_without_a_hint_module_gets_the_generic_hint() -> None:
    from bots.base import Advice, RankedAction
    from tests.toygame import HiddenPass

    game = HiddenPass()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply(state.legal_actions()[0])  # deal the cards
    seat = state.current_player()
    view = state.view(seat)
    assert hint.game_hint(game) is None
    assert hint.heat_weights(game, view) == {}
    ranked = tuple(RankedAction(a, game.action_to_str(a), 1.0, "why not") for a in view.legal_actions)
    text = hint.format_advice(game, view, Advice(seat, ranked, {"note": 1}, "fine"), "Advisor: test")
    lines = text.splitlines()
    assert lines[0] == f"hidden_pass, seat {seat} (player) to act: {view.decision.prompt}"
    assert lines[1:4] == ["Advisor: test", "note: 1", "Ranked moves:"]
    assert lines[-1] == "Summary: fine"


def test_hint_text_is_the_advisor_line_and_the_advice() -> None:
    game, view = hint.load_position("police07", position(*HIDDEN).to_json())
    advice = hint.advise(game, view, budget=QUICK, seed=4)
    text = hint.hint_text(game, view, advice, "ismcts", QUICK, 4)
    advisor = hint.describe_advisor(game, view, "ismcts", QUICK, 4)
    assert text == hint.format_advice(game, view, advice, advisor) + "\n"
    assert text.splitlines()[1] == advisor


def test_heat_weights_are_the_location_probabilities() -> None:
    game, view = hint.load_position("police07", position(*HIDDEN).to_json())
    weights = hint.heat_weights(game, view)
    assert set(weights) == {13, 19, 22, 24}
    assert weights == filtered_belief(game, view.to_json())
