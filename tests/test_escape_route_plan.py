"""Escape Plan's route plan in the hint and the drawing (bots/escape/route_plan.py, issue 24).

Positions come from seeded games of heuristic bots. The plan's steps must add up to the plan's value
(prizes less the wounds beyond the free avoids, recomputed here from the steps), end in the escape on
day 3, be drawn stop by stop, and not move when another seat's secrets do.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from bots.cli import main
from bots.escape import draw, route_plan
from bots.escape.heuristic import EscapeHeuristic
from solver.core import CHANCE
from solver.core.referee import draw_chance
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState
from solver.plan.escape_route import SCALE
from tests.test_escape_display import _scrambled, first_advice

SVG = "{http://www.w3.org/2000/svg}"


def at_action(players: int, seed: int, day: int, nth: int) -> EscapeState:
    """The ``nth`` Action decision of ``day`` in a seeded game of heuristic bots."""
    game = EscapeGame(players=players)
    rng = np.random.default_rng(seed)
    bots = [EscapeHeuristic(game, s, np.random.default_rng(seed + 1 + s)) for s in range(players)]
    st = game.new_initial_state()
    seen = 0
    while not st.is_terminal():
        seat = st.current_player()
        if seat == CHANCE:
            st.apply(draw_chance(st, rng))
            continue
        if isinstance(st, EscapeState) and st.todo[0][0] == "action" and st.day == day:
            seen += 1
            if seen == nth:
                return st
        st.apply(bots[seat].step(st.view(seat)))
    raise AssertionError("the game ended before the position")


@pytest.mark.parametrize(("players", "seed", "day", "nth"), [(3, 5, 2, 4), (3, 5, 3, 2), (2, 7, 1, 3),
                                                             (4, 11, 3, 1)])
def test_steps_add_up_to_the_plan_and_day_3_ends_in_the_escape(players: int, seed: int, day: int,
                                                               nth: int) -> None:
    st = at_action(players, seed, day, nth)
    view = st.view(st.current_player())
    got = route_plan.seat_plan(st.game, view)
    assert got is not None
    inst, plan = got
    assert plan.status == "optimal"
    steps = route_plan.steps(inst, plan)
    assert len(steps) == len(plan.stops)
    p = inst.problem
    officers = sum(s.officers for s in steps)
    k, cards = route_plan.cards_worth(inst, plan)
    assert k == sum(s.card for s in steps)
    expected = sum(s.value for s in steps) + cards - p.wound / SCALE * max(0, officers - p.free_avoids)
    assert expected == pytest.approx(plan.value / SCALE)
    assert sum(s.wounds for s in steps) == max(0, officers - p.free_avoids)
    assert all(s.covered + s.wounds == s.officers for s in steps)
    turns = [s.turn for s in steps]
    assert turns == sorted(turns) and len(set(turns)) == len(turns) and (not turns or turns[-1] <= p.horizon)
    names = st.game.location_names
    for s in steps:
        assert s.path  # every stop is reached by at least one Travel
        assert all(0 <= loc < len(names) for loc in s.path)
    if day == 3:
        exits = [e for e in (1, 2, 3) if st.patrol_on[e - 1] < 2]
        assert len(exits) == 1 and steps[-1].name == f"escape via exit {exits[0]}"
        assert names[steps[-1].path[-1]] == f"exit {exits[0]}"
    text = route_plan.lines(st.game, view)
    assert text[0].startswith("Route plan (CP-SAT, optimal")
    assert len(text) == 1 + len(steps) + (1 if k else 0)


def test_the_drawing_numbers_each_planned_stop() -> None:
    st = at_action(3, 5, 3, 2)
    view = st.view(st.current_player())
    got = route_plan.seat_plan(st.game, view)
    assert got is not None
    inst, plan = got
    root = ET.fromstring(draw.render_svg(st.game, view, first_advice(view)))
    group = root.find(f".//{SVG}g[@id='plan-route']")
    assert group is not None and group.get("data-status") == "optimal"
    drawn = group.findall(f"{SVG}g[@class='plan-step']")
    steps = route_plan.steps(inst, plan)
    assert [g.get("data-location") for g in drawn] == [st.game.location_names[s.path[-1]] for s in steps]
    assert [g.get("data-step") for g in drawn] == [str(i) for i in range(1, len(steps) + 1)]
    # one dashed line per Travel of the plan
    assert sum(len(g.findall(f"{SVG}line")) for g in drawn) == sum(len(s.path) for s in steps)


def untimed(lines: list[str]) -> list[str]:
    """The lines without the solve's wall time (it varies from run to run)."""
    return [re.sub(r"\d+\.\d+ s;", "_ s;", line) for line in lines]


@pytest.mark.parametrize(("players", "seed", "day", "nth"), [(3, 5, 2, 4), (4, 11, 3, 1)])
def test_the_plan_does_not_move_with_another_seat_s_secrets(players: int, seed: int, day: int,
                                                            nth: int) -> None:
    st = at_action(players, seed, day, nth)
    seat = st.current_player()
    other = _scrambled(st, seat)
    assert [other.plan[o] for o in range(players) if o != seat] != [st.plan[o] for o in range(players)
                                                                     if o != seat]
    assert untimed(route_plan.lines(st.game, other.view(seat))) == untimed(route_plan.lines(st.game,
                                                                                           st.view(seat)))


def test_no_plan_before_the_day_turns_or_after_the_escape() -> None:
    game = EscapeGame(players=3)
    st = game.new_initial_state()
    assert route_plan.seat_plan(game, st.view(0)) is None
    assert route_plan.lines(game, st.view(0)) == []
    late = at_action(3, 5, 3, 2)
    seat = late.current_player()
    late.escaped[seat] = True
    assert route_plan.seat_plan(late.game, late.view(seat)) is None


def test_copsolver_hint_prints_and_draws_the_plan(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    st = at_action(3, 5, 3, 2)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(st.to_json()))
    out = tmp_path / "plan.svg"
    assert main(["hint", "escape", str(path), "--bot", "planner", "--svg", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Route plan (CP-SAT, optimal" in text and "escape via exit" in text
    assert "\nplan: " not in text  # the planner's belief is shown as the plan's lines, not repeated
    root = ET.fromstring(out.read_bytes())
    assert root.find(f".//{SVG}g[@id='plan-route']/{SVG}g[@class='plan-step']") is not None
