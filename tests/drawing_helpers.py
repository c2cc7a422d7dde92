"""Helpers shared by the drawings' tests (tests/test_draw_gcbc.py, tests/test_draw_lineup.py): seeded random
positions through the rules engine, parsing a drawing, its clickable elements and its text, and the checks
every drawing must pass (deterministic, advice for another seat and another game's view refused, the
``copsolver hint --svg`` picture marking only legal actions)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from bots.base import Advice, RankedAction
from bots.cli import main
from solver.core import ConfigError, Game, State, View
from solver.games import load

NS = "{http://www.w3.org/2000/svg}"


def random_positions(game: Game, seed: int, stop: int | None = None) -> list[tuple[State, View]]:
    """Every decision of one game of random legal moves (chance by its probabilities) as (state, view of
    the seat to act), its first ``stop`` decisions at most, and the end as every seat sees it."""
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    out: list[tuple[State, View]] = []
    while not state.is_terminal() and (stop is None or len(out) < stop):
        seat = state.current_player()
        if seat < 0:
            outcomes = state.chance_outcomes()
            p = np.array([w for _, w in outcomes], dtype=float)
            state.apply(outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0])
            continue
        view = state.view(seat)
        out.append((state.clone(), view))
        state.apply(view.legal_actions[int(rng.integers(len(view.legal_actions)))])
    if state.is_terminal():
        out.extend((state.clone(), state.view(s)) for s in range(game.num_players))
    return out


def seeded_games(
    name: str, games: list[tuple[int, int, int | None]]
) -> tuple[tuple[Game, tuple[tuple[State, View], ...]], ...]:
    """Per (players, seed, most decisions) of ``games``: game ``name`` at that many players and the
    positions of :func:`random_positions`."""
    out = []
    for players, seed, stop in games:
        game = load(name, players=players)
        out.append((game, tuple(random_positions(game, seed, stop))))
    return tuple(out)


def parse_svg(svg: str) -> ET.Element:
    """The document's root, after checking the XML declaration and the SVG namespace."""
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')
    return ET.fromstring(svg.split("?>", 1)[1])


def classes(el: ET.Element) -> list[str]:
    """The element's classes."""
    return el.attrib.get("class", "").split()


def clickable(root: ET.Element) -> list[tuple[ET.Element, list[str]]]:
    """Every ``act`` element with the action texts it carries."""
    return [(el, json.loads(el.attrib["data-actions"])) for el in root.iter() if "act" in classes(el)]


def text_of(el: ET.Element) -> str:
    """All text drawn inside ``el``."""
    return " ".join("".join(t.itertext()) for t in el.iter(f"{NS}text"))


def check_deterministic_and_checked(render: Callable[..., str], game: Game, view: View, action: str) -> None:
    """The same view draws the same text; advice for another seat and another game's view are refused."""
    assert render(game, view) == render(game, view)
    other = (view.seat + 1) % game.num_players
    with pytest.raises(ConfigError, match="advice is for seat"):
        render(game, view, Advice(other, (RankedAction(game.str_to_action(action), action, 0.0, ""),)))
    police = load("police07", players=4)
    with pytest.raises(ConfigError):
        render(police, police.new_initial_state().view(0))


def hint_picture(state: State, bot: str, folder: Path) -> ET.Element:
    """``copsolver hint GAME position.json --bot BOT --svg`` on ``state``: the picture, checked to mark
    only legal actions and to name a legal best move."""
    path, out = folder / "position.json", folder / "hint.svg"
    path.write_text(json.dumps(state.to_json()), encoding="utf-8")
    assert main(["hint", state.game.name, str(path), "--bot", bot, "--svg", str(out)]) == 0
    root = parse_svg(out.read_text(encoding="utf-8"))
    legal = set(state.view(state.current_player()).to_json()["legal_actions"])
    assert {a for _, acts in clickable(root) for a in acts} <= legal
    best = root.find(f".//{NS}g[@id='best-move']")
    assert best is not None and best.attrib["data-action"] in legal
    return root
