"""Escape Plan's drawing as the web page's picture (issue 25): the position alone without advice, every
legal action that has a place on the city carried by the element at that place, nothing hidden drawn.

The places are read here from the action texts and the true state (which Location a Business choice
fills is found by applying it), not from the drawing's own decoding of the action ids.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from bots.base import Advice, RankedAction
from bots.escape import draw
from bots.escape.display import open_exits
from solver import games
from solver.core import ConfigError
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState

SVG = "{http://www.w3.org/2000/svg}"
Place = tuple[str, ...]

_LOCATION = re.compile(r"^(?:travel (.+) route \d+|use gang member of (.+))$")
_OFFICER = re.compile(
    r"^(?:officer|avoid|snitch) (county|federal|swat) on (.+)$|^move (county|federal|swat) from (.+)$"
)
_TILE = re.compile(r"^(?:to|move officer to|avoid officers on) (.+)$|^jet ski on (.+) water(?: \d+)?$")
_VISIT = re.compile(
    r"^(take gas can|heal a wound|pay to lose notoriety|receive income|take exit tile|hospital heal \d"
    r"|take (green|black|brown) key|enter with .+|open .+ locker with .+|buy .+ on item \d+)$"
)
_NO_PLACE = re.compile(
    r"^(done|yes|no|rest|move|pass|take wounds|gas \d+|tile [A-D]|unlock .+"
    r"|use (contact|item|asset) space \d+|first aid|bonus extra action|bonus unlock"
    r"|take .+ from display \d+|contact .+|keep \d+ on item \d+)$"
)


def game_of(n: int) -> EscapeGame:
    game = games.load("escape", players=n)
    assert isinstance(game, EscapeGame)
    return game


def decisions(game: EscapeGame, seed: int) -> list[EscapeState]:
    """A copy of the state at every seat decision of a random game from ``seed``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    out: list[EscapeState] = []
    while not state.is_terminal():
        if state.current_player() >= 0:
            out.append(state.clone())
        legal = state.chance_outcomes() if state.current_player() < 0 else None
        if legal is not None:
            state.apply(legal[int(rng.integers(len(legal)))][0])
        else:
            actions = state.legal_actions()
            state.apply(actions[int(rng.integers(len(actions)))])
    return out


def carried(root: ET.Element) -> dict[Place, list[str]]:
    """``data-actions`` of every clickable element, by the place it stands for."""
    parent = {child: node for node in root.iter() for child in node}
    out: dict[Place, list[str]] = {}
    for e in root.iter():
        classes = e.attrib.get("class", "").split()
        if "act" not in classes:
            continue
        if classes[0] == "location":
            place: Place = ("location", e.attrib["data-location"])
        elif classes[0] == "officer":
            place = ("officer", classes[1], e.attrib["data-tile"])
        elif classes[0] == "cell":
            place = ("cell", e.attrib["data-cell"])
        elif parent[e].attrib.get("class") == "tile":
            place = ("tile", parent[e].attrib["data-tile"])
        elif parent[e].attrib.get("class") == "pawn":
            place = ("pawn", parent[e].attrib["data-pawn"])
        else:
            raise AssertionError(f"a clickable element of no known place: {e.tag} {e.attrib}")
        assert place not in out, f"{place} is clickable twice"
        out[place] = json.loads(e.attrib["data-actions"])
    return out


def filled_space(state: EscapeState, action: int) -> str:
    """The Location whose Business or Safe House space ``action`` fills, found by applying it."""
    after = state.clone()
    after.apply(action)
    changed = [loc for loc, tile in {**after.business_at, **after.safe_house_at}.items()
               if state.business_at.get(loc, state.safe_house_at.get(loc)) != tile]
    assert len(changed) == 1
    return str(state.game.location_names[changed[0]])


def expected(state: EscapeState, seat: int) -> tuple[dict[Place, list[str]], dict[str, Place]]:
    """The places the view's legal actions must be drawn at, and the tile choices' places (which the
    drawing may leave out when several spaces lack a tile)."""
    game = state.game
    view = state.view(seat)
    data = view.to_json()
    here = game.location_names[state.location[seat]]
    places: dict[Place, list[str]] = {}
    tile_choices: dict[str, Place] = {}
    for action, text in zip(view.legal_actions, data["legal_actions"], strict=True):
        place: Place | None = None
        if m := _LOCATION.match(text):
            place = ("location", m.group(1) or m.group(2))
        elif text.startswith("escape route "):
            exits = open_exits(data)
            place = ("location", f"exit {exits[0]}") if len(exits) == 1 else None
        elif m := re.match(r"^place at (-?\d+,-?\d+) rot [0-5]$", text):
            place = ("cell", m.group(1))
        elif m := _OFFICER.match(text):
            place = ("officer", m.group(1) or m.group(3), m.group(2) or m.group(4))
        elif m := _TILE.match(text):
            place = ("tile", m.group(1) or m.group(2))
        elif text.startswith("sandra as "):
            place = ("pawn", str(game.num_players))
        elif _VISIT.match(text):
            place = ("location", here)
        elif re.match(r"^(business [1-6]|safe house [1-3])$", text):
            tile_choices[text] = ("location", filled_space(state, action))
            continue
        else:
            assert _NO_PLACE.match(text), f"an action the test does not know: {text!r}"
        if place is not None:
            places.setdefault(place, []).append(text)
    return places, tile_choices


@pytest.mark.parametrize(("n", "seeds"), [(2, (0, 1)), (3, (0, 1))])
def test_every_view_of_random_games_makes_its_placed_moves_clickable(n: int, seeds: tuple[int, ...]) -> None:
    game = game_of(n)
    kinds: set[str] = set()
    tile_choices = 0
    for seed in seeds:
        for state in decisions(game, seed):
            for seat in range(n):
                view = state.view(seat)
                svg = draw.render_svg(game, view)
                assert draw.render_svg(game, view) == svg  # deterministic
                assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
                root = ET.fromstring(svg.encode("utf-8"))
                assert all(root.attrib.get(k) for k in ("width", "height", "viewBox"))
                assert root.find(f".//{SVG}g[@id='best-move']") is None
                assert root.find(f".//{SVG}g[@id='plan-route']") is None
                got = carried(root)
                legal = set(view.to_json()["legal_actions"])
                for texts in got.values():
                    assert texts and set(texts) <= legal
                want, choices = expected(state, seat)
                for text, place in choices.items():
                    if text in got.get(place, []):
                        got[place].remove(text)
                        tile_choices += 1
                    else:  # only left out, never put elsewhere
                        assert all(text not in texts for texts in got.values())
                assert {p: t for p, t in got.items() if t} == want
                kinds |= {p[0] for p in want}
    assert kinds >= {"location", "cell", "officer", "tile"} | ({"pawn"} if n == 2 else set())
    assert tile_choices > 0


def secrets(state: EscapeState, seat: int) -> Any:
    """What ``seat``'s view hides: the others' plan cards and Item values, the tile stacks, the patrol
    (police) deck, the lockers and exit stacks."""
    return (
        [p for s, p in enumerate(state.plan) if s != seat],
        [[(slot.piece, slot.value) for slot in b.items] for s, b in enumerate(state.boards) if s != seat],
        repr(state.stacks), repr(state.patrol_left), repr(state.lockers), repr(state.exit_stacks),
    )


@pytest.mark.parametrize("n", [2, 3])
def test_hidden_facts_do_not_change_the_picture(n: int) -> None:
    """States resampled from a seat's view (drawn through the engine's replay) differ in what the view
    hides; the seat's picture stays byte for byte the same."""
    game = game_of(n)
    rng = np.random.default_rng(11)
    differed = 0
    for state in decisions(game, 4)[::6]:
        for seat in range(n):
            view = state.view(seat)
            svg = draw.render_svg(game, view)
            other = game.resample(view, rng)
            assert isinstance(other, EscapeState) and other.view(seat).to_json() == view.to_json()
            differed += secrets(other, seat) != secrets(state, seat)
            assert draw.render_svg(game, other.view(seat)) == svg
            for plan in (p for s, p in enumerate(state.plan) if s != seat):
                name = game.content.plans[plan].name
                assert plan == state.plan[seat] or f">{name}<" not in svg
    assert differed > 10


def advice_for(state: EscapeState, text_start: str) -> tuple[Advice, str]:
    seat = state.current_player()
    view = state.view(seat)
    action = next(a for a in view.legal_actions if state.game.action_to_str(a).startswith(text_start))
    text = state.game.action_to_str(action)
    return Advice(seat, (RankedAction(action, text, 1.0, "chosen"),)), text


def offers(state: EscapeState, start: str) -> bool:
    """Whether the seat to act has a legal action whose text starts with ``start``."""
    return any(t.startswith(start) for t in state.view(state.current_player()).to_json()["legal_actions"])


def test_the_hint_picture_keeps_the_clickable_places() -> None:
    game = game_of(3)
    state = next(s for s in decisions(game, 0) if s.day >= 2 and offers(s, "travel "))
    seat = state.current_player()
    advice, text = advice_for(state, "travel ")
    hinted = ET.fromstring(draw.render_svg(game, state.view(seat), advice).encode("utf-8"))
    plain = ET.fromstring(draw.render_svg(game, state.view(seat)).encode("utf-8"))
    assert carried(hinted) == carried(plain) != {}
    best = hinted.find(f".//{SVG}g[@id='best-move']")
    assert best is not None and best.attrib["data-action"] == text
    assert hinted.find(f".//{SVG}g[@id='plan-route']") is not None
    other = (seat + 1) % 3
    with pytest.raises(ConfigError, match="seat"):
        draw.render_svg(game, state.view(other), advice)


def test_a_placement_offers_every_rotation_on_its_cell() -> None:
    game = game_of(3)
    state = next(s for s in decisions(game, 2) if offers(s, "place at "))
    view = state.view(state.current_player())
    got = carried(ET.fromstring(draw.render_svg(game, view).encode("utf-8")))
    cells = {p[1]: texts for p, texts in got.items() if p[0] == "cell"}
    legal = [t for t in view.to_json()["legal_actions"] if t.startswith("place at ")]
    assert sorted(t for texts in cells.values() for t in texts) == sorted(legal)
    for cell, texts in cells.items():
        assert {t.split()[2] for t in texts} == {cell}
    placed = {f"{q},{r}" for q, r, _, _ in view.to_json()["placed"]}
    assert not placed & set(cells)  # never on a placed tile
