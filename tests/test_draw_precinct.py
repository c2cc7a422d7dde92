"""The Police Precinct drawing (bots/precinct/draw.py): well-formed, clickable legal moves, no leak.

Positions come from seeded games played through the rules engine with random legal moves (with and
without the Dirty Cop, solo to six players). Hidden facts are varied through the engine too: worlds
drawn by the game's resampler share one seat's view but differ in who is dirty or in other hands.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bots
from bots.base import Advice, RankedAction
from bots.precinct.draw import render_svg
from solver.belief.dirty_cop import dirty_marginals
from solver.core import ConfigError, View
from solver.games import load

NS = "{http://www.w3.org/2000/svg}"
#: (players, dirty cop, seed) of the random games
GAMES = [(4, False, 1), (4, True, 2), (3, True, 3), (1, False, 4), (6, True, 5)]
#: action words that always have a place on the picture (the first word, or the whole text)
PLACED = ("move", "support", "handle", "hood", "play", "help", "discard", "investigate", "deck", "pick",
          "accuse", "target", "upgrade", "draw card", "keep on top", "put on bottom", "arrest punks",
          "arrest murderer", "place evidence", "claim useless", "car marked", "car unmarked", "reveal",
          "evidence first", "evidence last", "shuffle")


def _placed_kind(text: str) -> bool:
    return any(text == w or text.startswith(w + " ") for w in PLACED)


@cache
def _game_views(players: int, dirty: bool, seed: int) -> tuple[Any, tuple[View, ...]]:
    """Every decision's view (the seat to act) of one random game, and the game."""
    game = load("precinct", players=players, dirty_cop=dirty)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    views: list[View] = []
    while not state.is_terminal():
        d = state.decision()
        if d.seat < 0:
            outcomes = state.chance_outcomes()
            p = np.array([w for _, w in outcomes], dtype=float)
            state.apply(outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0])
            continue
        view = state.view(d.seat)
        views.append(view)
        state.apply(view.legal_actions[int(rng.integers(len(view.legal_actions)))])
    views.extend(state.view(s) for s in range(players))  # the end, as every seat sees it
    return game, tuple(views)


def _acts(svg: str) -> list[list[str]]:
    root = ET.fromstring(svg.split("?>", 1)[1])
    return [json.loads(el.attrib["data-actions"]) for el in root.iter() if el.attrib.get("class") == "act"]


def test_every_view_parses_and_marks_only_legal_actions() -> None:
    total = placed = 0
    for players, dirty, seed in GAMES:
        game, views = _game_views(players, dirty, seed)
        for view in views:
            svg = render_svg(game, view)
            assert svg.startswith('<?xml version="1.0"')
            root = ET.fromstring(svg.split("?>", 1)[1])
            assert root.tag == f"{NS}svg" and root.attrib["viewBox"].startswith("0 0 1000 ")
            legal = view.to_json()["legal_actions"]
            marked = {a for acts in _acts(svg) for a in acts}
            assert marked <= set(legal), (players, dirty, marked - set(legal))
            for text in legal:
                if _placed_kind(text):
                    assert text in marked, (players, dirty, text, view.decision.prompt)
            total += len(legal)
            placed += len(marked)
    # the moves with no place (proceed, no action, counts of donuts/officers/SWAT, rewards) are a minority
    assert total > 1000
    assert placed / total >= 0.85, placed / total


def test_deterministic_and_from_the_view_alone() -> None:
    game, views = _game_views(4, True, 2)
    for view in views[::9]:
        again = game.view_from_json(json.loads(json.dumps(view.to_json())))
        assert render_svg(game, view) == render_svg(game, view) == render_svg(game, again)


def _loyalty_rows(svg: str) -> dict[int, str]:
    root = ET.fromstring(svg.split("?>", 1)[1])
    return {int(el.attrib["data-seat"]): el.attrib["data-loyalty"] for el in root.iter()
            if el.attrib.get("class") == "player" and "data-loyalty" in el.attrib}


def test_hidden_facts_do_not_change_an_honest_seats_drawing() -> None:
    game, views = _game_views(4, True, 2)
    rng = np.random.default_rng(11)
    checked_dirty = checked_hand = 0
    for view in views[20::15]:
        data = view.to_json()
        if data["my_loyalty"] != "good":
            continue
        seat = view.seat
        worlds = [game.resample(view, rng) for _ in range(6)]
        dirty_sets = {tuple(bool(x) for x in w.loyalty) for w in worlds}
        hands = {tuple(tuple(c.hand) for c in w.cops if c.seat != seat) for w in worlds}
        svgs = {render_svg(game, w.view(seat)) for w in worlds}
        assert all(w.view(seat).to_json() == data for w in worlds)
        assert svgs == {render_svg(game, view)}  # one drawing for every world
        checked_dirty += len(dirty_sets) > 1
        checked_hand += len(hands) > 1
        # only the seat's own card (and cards shown to all) are drawn; the others are unknown to it
        shown = {p for p, card in enumerate(data["loyalty"]) if card}
        assert set(_loyalty_rows(next(iter(svgs)))) == shown | {seat}
        # the worlds' dirty seats see their own card drawn as dirty
        for w in worlds:
            for p, is_dirty in enumerate(w.loyalty):
                if is_dirty and p not in shown:
                    assert _loyalty_rows(render_svg(game, w.view(p)))[p] == "dirty"
    assert checked_dirty >= 1 and checked_hand >= 1


def _posterior(svg: str) -> dict[int, float]:
    root = ET.fromstring(svg.split("?>", 1)[1])
    return {int(el.attrib["data-seat"]): float(el.attrib["data-p"]) for el in root.iter()
            if el.attrib.get("class") == "posterior"}


def test_advice_draws_the_posterior_and_rings_the_best_move() -> None:
    game, views = _game_views(4, True, 2)
    ringed = 0
    for view in views[10::12]:
        bot = bots.make(game, "heuristic", seat=view.seat, rng=np.random.default_rng(0))
        advice = bot.advise(view)
        svg = render_svg(game, view, advice)
        ET.fromstring(svg.split("?>", 1)[1])
        # the heuristic gives no posterior of its own: the drawing shows the hint's exact one
        expected = dirty_marginals(view.to_json())
        drawn = _posterior(svg)
        assert sorted(drawn) == list(range(4))
        assert all(abs(drawn[p] - expected[p]) < 6e-4 for p in drawn)
        # a belief the advice carries is what is drawn
        made_up = [0.1, 0.2, 0.3, 0.4]
        own = replace(advice, belief={**advice.belief, "dirty": made_up})
        assert _posterior(render_svg(game, view, own)) == dict(enumerate(made_up))
        root = ET.fromstring(svg.split("?>", 1)[1])
        for el in root.iter():
            if el.attrib.get("class") == "act" and any(c.attrib.get("class") == "best" for c in el):
                assert advice.best.text in json.loads(el.attrib["data-actions"])
                ringed += 1
        assert "Advised: " + advice.best.text in svg
    assert ringed >= 3
    # no posterior without the Dirty Cop, nor without advice
    game4, plain = _game_views(4, False, 1)
    view = plain[30]
    advice = bots.make(game4, "heuristic", seat=view.seat, rng=np.random.default_rng(0)).advise(view)
    assert _posterior(render_svg(game4, view, advice)) == {}
    assert _posterior(render_svg(game, views[40])) == {}


def test_advice_of_another_seat_is_refused() -> None:
    game, views = _game_views(4, True, 2)
    view = views[30]
    other = Advice((view.seat + 1) % 4, (RankedAction(view.legal_actions[0], "x", 1.0, ""),))
    with pytest.raises(ConfigError):
        render_svg(game, view, other)
    police = load("police07")
    with pytest.raises(ConfigError):
        render_svg(police, view)


def test_hint_svg_on_the_command_line(tmp_path: Path) -> None:
    from bots.cli import main

    game, views = _game_views(4, True, 2)
    view = views[25]
    position = tmp_path / "view.json"
    position.write_text(json.dumps(view.to_json()))
    out = tmp_path / "hint.svg"
    assert main(["hint", "precinct", str(position), "--bot", "heuristic", "--svg", str(out)]) == 0
    svg = out.read_text()
    ET.fromstring(svg.split("?>", 1)[1])
    assert _posterior(svg) and "Advised: " in svg
