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
from solver.games.escape.board import Piece
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
    r"^(done|yes|no|move|pass|take wounds|bonus extra action|bonus unlock|contact to the box)$"
)
#: The panel's places, read from the action texts: (pattern, place from the match).
_PANEL: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(r"^use (contact|item|asset) space (\d+)$"), lambda m: ("space", m.group(1), m.group(2))),
    (re.compile(r"^(?:keep \d+|buy .+) on item (\d+)$"), lambda m: ("space", "item", m.group(1))),
    (re.compile(r"^contact (?:to|replaces) space (\d+)$"), lambda m: ("space", "contact", m.group(1))),
    (re.compile(r"^take .+ from display (\d+)$"), lambda m: ("card", m.group(1))),
    (re.compile(r"^tile ([A-D])$"), lambda m: ("stack", m.group(1))),
    (re.compile(r"^(rest|first aid|gas) ?\d*$"), lambda m: ("token", m.group(1).replace(" ", "-"))),
]


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
        if classes[0] == "space":
            place: Place = ("space", classes[1], e.attrib["data-space"])
        elif classes[0] == "stack":
            place = ("stack", e.attrib["data-stack"])
        elif classes[0] == "card":
            place = ("card", e.attrib["data-position"])
        elif classes[0] == "token":
            place = ("token", classes[1])
        elif classes[0] == "location":
            place = ("location", e.attrib["data-location"])
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


def locked_space(state: EscapeState, seat: int, asset: str) -> Place:
    """The board space of ``seat`` holding the locked asset tile ``asset``, read from the true state."""
    board = state.boards[seat]
    for kind, spaces in (("item", board.items), ("contact", board.contacts)):
        for i, slot in enumerate(spaces):
            if slot.piece == Piece.ASSET and state.game.asset_names[slot.ident] == asset:
                return ("space", kind, str(i + 1))
    raise AssertionError(f"unlock {asset}: no such locked tile on seat {seat}'s board")


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
        for pattern, where in _PANEL:
            if m := pattern.match(text):
                places.setdefault(where(m), []).append(text)
        if m := re.match(r"^unlock (.+)$", text):  # on the Item or Contact space of the locked tile
            places.setdefault(locked_space(state, seat, m.group(1)), []).append(text)
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
            known = any(p.match(text) for p, _ in _PANEL) or text.startswith("unlock ")
            assert known or _NO_PLACE.match(text), f"an action the test does not know: {text!r}"
        if place is not None:
            places.setdefault(place, []).append(text)
    return places, tile_choices


@pytest.mark.parametrize(("n", "seeds"), [(2, (0, 1)), (3, (0, 1))])
def test_every_view_of_random_games_makes_its_placed_moves_clickable(n: int, seeds: tuple[int, ...]) -> None:
    game = game_of(n)
    kinds: set[str] = set()
    words: set[str] = set()
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
                words |= {t.split()[0] for t in legal}
    assert kinds >= {"location", "cell", "officer", "tile", "space", "card", "stack", "token"} | (
        {"pawn"} if n == 2 else set())
    assert words >= {"unlock", "use", "tile", "rest", "keep", "contact"}  # the panel's actions were drawn
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


def group_text(el: ET.Element) -> str:
    """The text drawn inside ``el``, one space between its pieces."""
    return " ".join(" ".join(t.itertext()) for t in el.iter(f"{SVG}text"))


@pytest.mark.parametrize("n", [2, 4])
def test_the_panel_shows_the_seat_s_own_board_and_the_table(n: int) -> None:
    """The numbers of the seat's board, its plan card, the contact and tile displays, and every other
    board's public facts, read from the view's JSON, are in the panel's groups."""
    game = game_of(n)
    checked = 0
    for state in decisions(game, 3)[::7]:
        for seat in range(n):
            view = state.view(seat)
            data = view.to_json()
            board = data["boards"][seat]
            root = ET.fromstring(draw.render_svg(game, view).encode("utf-8"))
            own = root.find(f".//{SVG}g[@class='own']")
            assert own is not None and own.attrib["data-seat"] == str(seat)
            money = own.find(f".//{SVG}g[@class='money']")
            assert money is not None
            assert f"money ${board['money']}k behind your screen" in group_text(money)
            assert f"income ${board['income_cubes']}k" in group_text(money)
            assert f"notoriety {board['notoriety']} " in group_text(money)
            wounds = own.find(f".//{SVG}g[@class='wounds']")
            assert wounds is not None
            assert wounds.attrib["data-green"] == str(board["green"])
            assert wounds.attrib["data-red"] == str(board["red"])
            plan = own.find(f".//{SVG}g[@class='plan']")
            assert plan is not None and plan.attrib["data-plan"] == data["plan"]
            visited = [e.attrib["data-visited"] == "true" for e in plan
                       if e.attrib.get("class") == "plan-entry"]
            assert visited == board["businesses"] + board["safe_houses"]
            spaces = {(e.attrib["class"].split()[1], int(e.attrib["data-space"])): e
                      for e in own.iter(f"{SVG}g") if e.attrib.get("class", "").startswith("space ")}
            for kind, group in (("item", "items"), ("contact", "contacts"), ("asset", "unlocked")):
                assert sorted(i for k, i in spaces if k == kind) == list(range(1, len(board[group]) + 1))
            cards = [group_text(e) for e in root.iter(f"{SVG}g")
                     if e.attrib.get("class", "").startswith("card")]
            assert cards == data["contact_display"]
            stacks = [next(e.iter(f"{SVG}text")).text or "" for e in root.iter(f"{SVG}g")
                      if e.attrib.get("class", "").startswith("stack")]
            assert stacks == [f"{'ABCD'[i]}: {t or 'none'}" for i, t in enumerate(data["display"])]
            others = {int(e.attrib["data-pawn"]): group_text(e)
                      for e in root.iter(f"{SVG}g") if e.attrib.get("class") == "other"}
            assert sorted(others) == [p for p in range(len(data["boards"])) if p != seat]
            for pawn, text in others.items():
                assert f"notoriety {data['boards'][pawn]['notoriety']}" in text
                assert data["location"][pawn] in text
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("n", [3])
def test_the_other_players_money_is_never_drawn(n: int) -> None:
    """The view tracks every board's money; the picture shows the seat's own only: another seat's money
    changed in the view leaves the picture as it was, the seat's own changes it."""
    game = game_of(n)
    for state in decisions(game, 5)[::25]:
        for seat in range(n):
            data = state.view(seat).to_json()
            svg = draw.render_svg(game, game.view_from_json(data))
            for pawn in range(len(data["boards"])):
                changed = json.loads(json.dumps(data))
                changed["boards"][pawn]["money"] = 987
                other = draw.render_svg(game, game.view_from_json(changed))
                assert (other == svg) == (pawn != seat)
                assert ("$987k" in other) == (pawn == seat)
