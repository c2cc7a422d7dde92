"""The LineUp drawing (bots/lineup/draw.py): well-formed, clickable legal moves, no leak, the hint's belief.

Positions come from seeded games played through the rules engine with random legal moves at 2 to 6
players. Hidden facts are varied through the engine: the game's resampler draws worlds that share one
seat's view but differ in which Suspect cards lie face down.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from bots import hint
from bots.lineup.draw import render_svg
from bots.lineup.hint import lines
from solver.core import Game, State, View
from tests.drawing_helpers import (
    NS,
    check_deterministic_and_checked,
    classes,
    clickable,
    hint_picture,
    parse_svg,
    seeded_games,
    text_of,
)

#: (players, seed, most decisions) of the random games
GAMES = [(2, 1, 300), (3, 2, 300), (4, 3, 250), (5, 4, 250), (6, 5, 250)]
#: every legal action but these has a place on the picture (docs: bots/lineup/draw.py)
UNPLACED = {"end"}


@cache
def _games() -> tuple[tuple[Game, tuple[tuple[State, View], ...]], ...]:
    return seeded_games("lineup", GAMES)


def test_every_view_parses_and_marks_only_legal_actions() -> None:
    total = placed = 0
    phases: set[str] = set()
    for game, positions in _games():
        for _, view in positions:
            root = parse_svg(render_svg(game, view))
            data = view.to_json()
            phases.add(data["phase"])
            legal = data["legal_actions"]
            marked = {a for _, acts in clickable(root) for a in acts}
            assert marked <= set(legal), marked - set(legal)
            for text in legal:
                total += 1
                placed += text in marked
                assert text in marked or text in UNPLACED, f"{text!r} has no place"
    assert {"start", "move", "study", "station", "pick", "offer", "use"} <= phases, phases
    # every action but end is placed: 6,915 of the 7,033 legal actions of these games (98%)
    assert total > 5000 and placed / total > 0.95, (placed, total)


def test_actions_go_to_their_natural_element() -> None:
    seen: set[str] = set()
    for game, positions in _games()[:3]:
        board = game.board  # type: ignore[attr-defined]
        for _, view in positions:
            data = view.to_json()
            root = parse_svg(render_svg(game, view))
            for el, acts in clickable(root):
                kind = classes(el)[0]
                for text in acts:
                    words = text.split()
                    if words[0] == "move":
                        assert kind == "space" and el.attrib["data-label"] == words[1]
                        seen.add("move")
                    elif words[0] == "pick":
                        assert kind == "portrait" and el.attrib["data-stand"] == words[1]
                        stand = data["lineup"]["stands"][int(words[1]) - 1]
                        assert el.attrib["data-card"] == stand["card"]
                        assert all(str(v) in text_of(el) for v in stand["features"].values())
                        seen.add("pick")
                    elif words[0] == "lineup":
                        assert kind == "held" and el.attrib["data-seat"] == str(view.seat)
                        assert el.attrib["data-card"] == words[1]
                        seen.add("lineup")
                    elif words[0] == "study":
                        assert kind == "portrait" and el.attrib["data-card"] == data["studying"]["card"]
                        seen.add("study")
                    elif text == "play to-station":
                        assert kind == "lucky-card" or el.attrib.get("data-space") == str(board.station)
                    elif words[:2] == ["play", "hinder"]:
                        assert kind == "lucky-card" or (
                            kind == "player" and el.attrib["data-seat"] == words[2]
                        )
                        seen.add("hinder")
                    elif words[0] in ("roll", "lucky"):
                        assert kind == ("die" if words[0] == "roll" else "lucky-deck")
                        seen.add(words[0])
    assert {"move", "pick", "lineup", "study", "roll", "lucky"} <= seen, seen


def _face_down_ids(state: Any) -> set[str]:
    """The ids of every face-down Suspect card in the state (every seat's)."""
    return {state.card_name(scene, card) for held in state.held for scene, card in held}


def test_face_down_cards_do_not_leak() -> None:
    checked = differ = 0
    rng = np.random.default_rng(3)
    for game, positions in _games()[1:4]:
        for state, view in positions[::6]:
            svg = render_svg(game, view)
            shown = json.dumps(view.to_json())
            hidden = {cid for cid in _face_down_ids(state) if f'"{cid}"' not in shown}
            for cid in hidden:
                assert cid not in svg, cid
                checked += 1
            world = game.resample(view, rng)
            other = world.view(view.seat)
            assert other.to_json() == view.to_json()
            assert render_svg(game, other) == svg
            differ += _face_down_ids(world) != _face_down_ids(state)
    assert checked > 30 and differ > 10, (checked, differ)


def test_studied_card_is_drawn_only_in_its_study_moment() -> None:
    drawn = 0
    for game, positions in _games()[:2]:
        for _, view in positions:
            data = view.to_json()
            root = parse_svg(render_svg(game, view))
            studying = [el for el in root.iter(f"{NS}g") if classes(el)[:2] == ["portrait", "studying"]]
            if data["studying"] is None:
                assert not studying
                continue
            (el,) = studying
            assert el.attrib["data-card"] == data["studying"]["card"]
            text = text_of(el)
            assert all(f"{k.replace('_', ' ')}: {v}" in text for k, v in data["studying"]["features"].items())
            drawn += 1
    assert drawn >= 3


def test_advice_draws_the_hint_belief_and_the_best_move() -> None:
    game, positions = _games()[2]
    done = 0
    for _, view in positions[5::23]:
        if len(view.legal_actions) < 2 or done == 4:
            continue
        advice = hint.advise(game, view, bot="planner")
        root = parse_svg(render_svg(game, view, advice))
        belief = root.find(f".//{NS}g[@id='belief']")
        assert belief is not None and belief.attrib["data-memory"] == advice.belief["memory"] == "adult"
        drawn = ["".join(t.itertext()) for t in belief.iter(f"{NS}text")]
        assert drawn == lines(game, view, advice) and drawn[0].startswith("Memory (adult)")
        best = root.find(f".//{NS}g[@id='best-move']")
        assert best is not None and best.attrib["data-action"] == advice.best.text
        ringed = [acts for el, acts in clickable(root) if "best" in classes(el)]
        assert all(advice.best.text in acts for acts in ringed)
        assert bool(ringed) == (advice.best.text not in UNPLACED)
        done += 1
    assert done == 4


def test_deterministic_and_checked() -> None:
    game, positions = _games()[4]
    check_deterministic_and_checked(render_svg, game, positions[60][1], "end")


def test_copsolver_hint_draws_a_position(tmp_path: Path) -> None:
    game, positions = _games()[1]
    state = next(s for s, v in positions[30:] if len(v.legal_actions) > 3)
    root = hint_picture(state, "greedy", tmp_path)
    belief = root.find(f".//{NS}g[@id='belief']")
    assert belief is not None and belief.attrib["data-memory"] == "adult"
