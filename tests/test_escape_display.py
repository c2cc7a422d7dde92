"""Escape Plan's front end: the printer, the SVG drawing, the hint extras and the adapter encoder.

Seeded random positions at 2..5 players. Nothing of another seat's secrets (its plan card, the values of
its Locker and Exit tiles) may reach a seat's printout, drawing or encoding: the tests compare against
the true state's secrets and check that changing them changes nothing a seat is shown.
"""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from bots import hint
from bots.base import Advice, RankedAction
from bots.cli import main
from bots.escape import adapter, display, draw
from bots.escape import hint as escape_hint
from solver.core import CHANCE, View
from solver.games.escape import codec
from solver.games.escape.board import Piece
from solver.games.escape.events import Travelled
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState
from tests.test_escape_rules import step

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = (2, 3, 4, 5)
GAMES = {n: EscapeGame(players=n) for n in PLAYERS}


def play(n: int, seed: int, until: Callable[[EscapeState], bool], limit: int = 5000) -> EscapeState | None:
    """A random game of ``n`` players from ``seed`` played until ``until`` holds (None: it never did)."""
    st = GAMES[n].new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if until(st):
            return st
        if st.is_terminal():
            return None
        step(st, rng)
    return None


def travelling(st: EscapeState) -> bool:
    """A seat chooses a Travel (legal travel ids), past the first day's first turns."""
    return (st.current_player() >= 0 and st.day >= 2
            and any(codec.TRAVEL <= a < codec.ESCAPE for a in st.legal_actions()))


def hidden_tiles(st: EscapeState) -> bool:
    """Some seat holds a Locker or Exit tile and the game is not over (its value is a secret)."""
    return not st.over and st.current_player() >= 0 and any(
        s.piece in (Piece.LOCKER, Piece.EXIT) for b in st.boards[: st.n] for s in b.items)


def position(n: int, until: Callable[[EscapeState], bool], seeds: range = range(40)) -> EscapeState:
    """The first seeded random position where ``until`` holds."""
    for seed in seeds:
        st = play(n, seed, until)
        if st is not None:
            return st
    raise AssertionError(f"no {n}-player position found")


def first_advice(view: View) -> Advice:
    """Advice ranking the view's legal moves in order (the drawing reads only the ranking)."""
    game = view.game
    ranked = tuple(RankedAction(a, game.action_to_str(a), 0.0, "in legal order") for a in view.legal_actions)
    return Advice(view.seat, ranked)


def chosen(view: View, action: int) -> Advice:
    """Advice with ``action`` alone, ranked first."""
    return Advice(view.seat, (RankedAction(action, view.game.action_to_str(action), 1.0, "chosen"),))


def svg_of(st: EscapeState, seat: int) -> tuple[str, ET.Element]:
    view = st.view(seat)
    text = draw.render_svg(st.game, view, first_advice(view))
    return text, ET.fromstring(text.encode("utf-8"))


def printout(st: EscapeState, seat: int) -> str:
    printer = display.EscapePrinter(st.game, seats={seat})
    return "\n".join(printer.feed(st.events) + display.view_lines(st.game, st.view(seat).to_json()))


# --- the printout -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", PLAYERS)
def test_printout_shows_the_city_pawns_and_the_seat_s_own_card(n: int) -> None:
    st = position(n, travelling)
    game = st.game
    seat = st.current_player()
    lines = display.EscapePrinter(game, seats={seat}).describe_view(st.view(seat))
    text = "\n".join(lines)
    for cell, (tile, rot) in st.placed.items():
        assert f"({cell[0]},{cell[1]}) {game.city.tiles[tile].name}, rot {rot}" in text
    for pawn in range(st.pawns):
        if pawn < n and not st.active(pawn):
            continue
        name = game.location_names[st.location[pawn]]
        row = next(line for line in lines if line.strip().startswith(name))
        assert display.pawn_name(game, pawn) in row
    assert f"Your Escape Plan card: {game.content.plans[st.plan[seat]].name}" in text
    assert ("Sandra" in text) == (n == 2)
    assert lines[-1].strip() and "Legal moves:" in text
    for a in st.legal_actions():
        assert game.action_to_str(a) in text
    # the officers by type: each placed tile's letters as the state holds them
    for t, cops in enumerate(st.officers):
        cell = st.tile_cell(t)
        if cell is None:
            continue
        kinds = ("county", "federal", "swat")
        letters = " ".join(display.OFFICER_LETTERS[p] for p, on in zip(kinds, cops, strict=True) if on)
        head = f"({cell[0]},{cell[1]}) {game.city.tiles[t].name}"
        row = next(line for line in lines if head in line)
        assert row.endswith(f"officers {letters or 'none'}")


def test_spectator_reads_each_plan_once_and_a_seat_reads_only_its_own() -> None:
    st = position(3, travelling)
    events = st.events
    spectator = display.EscapePrinter(st.game).feed(events)
    dealt = [line for line in spectator if " is dealt " in line]
    assert len(dealt) == 3 and all("an Escape Plan card" not in line for line in dealt)
    for seat in range(3):
        lines = display.EscapePrinter(st.game, seats={seat}).feed(events)
        mine = [line for line in lines if " is dealt " in line]
        assert len(mine) == 3
        named = [line for line in mine if "an Escape Plan card" not in line]
        assert named == [f"  seat {seat} is dealt {st.game.content.plans[st.plan[seat]].name}"]


# --- the drawing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", PLAYERS)
def test_svg_is_well_formed_with_every_tile_location_and_pawn(n: int) -> None:
    st = position(n, travelling)
    game = st.game
    seat = st.current_player()
    _, root = svg_of(st, seat)
    tiles = root.findall(f".//{SVG}g[@class='tile']")
    names = sorted(game.city.tiles[t].name for t, _ in st.placed.values())
    assert sorted(str(t.get("data-tile")) for t in tiles) == names
    drawn = {g.get("data-location") for g in root.iter(f"{SVG}g")
             if (g.get("class") or "").startswith("location")}
    placed = {t for t, _ in st.placed.values()}
    assert drawn == {game.location_names[loc.id] for loc in game.city.locations if loc.tile in placed}
    pawns = {int(g.get("data-pawn", -1)): g.get("data-location")
             for g in root.findall(f".//{SVG}g[@class='pawn']")}
    expected = {p: game.location_names[st.location[p]] for p in range(st.pawns) if p >= n or st.active(p)}
    assert pawns == expected
    officers = len(root.findall(f".//{SVG}g[@data-tile]")) - len(tiles)
    assert officers == sum(sum(o) for t, o in enumerate(st.officers) if t in placed)


def pinned_travel(st: EscapeState) -> bool:
    """A Travel decision whose routes the view pins down (the seat holds nothing that widens a Travel)."""
    return travelling(st) and any(
        left is not None for _, left in draw.travel_routes(st.game, st.view(st.current_player())).values())


def test_svg_marks_the_advised_travel_with_the_route_the_state_takes() -> None:
    st = position(3, pinned_travel)
    seat = st.current_player()
    view = st.view(seat)
    routes = draw.travel_routes(st.game, view)
    pinned = [a for a, (_, left) in routes.items() if left is not None]
    assert pinned
    action = pinned[-1]
    text = draw.render_svg(st.game, view, chosen(view, action))
    best = ET.fromstring(text).find(f".//{SVG}g[@id='best-move']")
    assert best is not None
    after = st.clone()
    after.apply(action)
    moved = next(e for e in after.events[len(st.events):] if isinstance(e, Travelled))
    assert best.get("data-dest") == moved.dest
    assert set((best.get("data-route") or "").split(",")) - {""} == set(moved.tiles)


@pytest.mark.parametrize("n", PLAYERS)
def test_travel_routes_read_from_the_view_match_the_rules(n: int) -> None:
    # every route the view pins down is the one the rules walk (checked by applying it to the true state)
    game = GAMES[n]
    checked = 0
    for seed in range(2):
        st = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not st.is_terminal():
            seat = st.current_player()
            if seat >= 0:
                for action, (dest, left) in draw.travel_routes(game, st.view(seat)).items():
                    if left is None:
                        continue
                    after = st.clone()
                    after.apply(action)
                    moved = next(e for e in after.events[len(st.events):] if isinstance(e, Travelled))
                    assert moved.dest == game.location_names[dest]
                    assert set(moved.tiles) == {game.city.tiles[t].name for t in left}
                    checked += 1
            step(st, rng)
    assert checked > 50


def test_a_placement_outlines_its_cell() -> None:
    st = position(3, lambda s: s.current_player() >= 0 and any(
        codec.block_of(a)[0] == codec.PLACE for a in s.legal_actions()))
    seat = st.current_player()
    view = st.view(seat)
    action = next(a for a in view.legal_actions if codec.block_of(a)[0] == codec.PLACE)
    q, r = codec.REGION[codec.block_of(action)[1] // 6]
    text = draw.render_svg(st.game, view, chosen(view, action))
    best = ET.fromstring(text).find(f".//{SVG}g[@id='best-move']")
    assert best is not None and best.get("data-cell") == f"{q},{r}"


# --- nothing of the others' secrets -----------------------------------------------------------------


def _secrets(st: EscapeState, seat: int) -> list[str]:
    """The other seats' plan card names (never the seat's own, which may coincide with nothing else)."""
    return [st.game.content.plans[st.plan[o]].name for o in range(st.n) if o != seat and st.plan[o] >= 0]


def _scrambled(st: EscapeState, seat: int) -> EscapeState:
    """``st`` with every other seat's secrets changed: plan cards swapped among the others and the ones not
    dealt, each hidden tile's value replaced."""
    other = st.clone()
    others = [o for o in range(st.n) if o != seat]
    pool = [other.plan[o] for o in others] + list(other.plans_left)
    shifted = pool[1:] + pool[:1]
    for o, plan in zip(others, shifted, strict=False):
        other.plan[o] = plan
    for o in others:
        board = other.boards[o]
        board.items = [dataclasses.replace(s, value=s.value + 7)
                       if s.piece in (Piece.LOCKER, Piece.EXIT) else s for s in board.items]
    return other


@pytest.mark.parametrize("n", PLAYERS)
def test_no_seat_sees_another_seat_s_secrets(n: int) -> None:
    st = position(n, hidden_tiles, range(120))
    game = st.game
    enc = adapter.EscapeEncoder(game)
    holders = [o for o in range(n) if any(s.piece in (Piece.LOCKER, Piece.EXIT)
                                          for s in st.boards[o].items)]
    assert holders
    for seat in range(n):
        text = printout(st, seat)
        svg, _ = svg_of(st, seat)
        for secret in _secrets(st, seat):
            assert secret not in text and secret not in svg
        for o in holders:
            if o == seat:
                continue
            for s in st.boards[o].items:
                if s.piece in (Piece.LOCKER, Piece.EXIT):
                    assert f":{s.value}:" not in json.dumps(st.view(seat).to_json()["boards"][o])
        # what the seat is shown does not move when the others' secrets do
        other = _scrambled(st, seat)
        assert _secrets(other, seat) != _secrets(st, seat) or n == 2 and not st.plans_left
        shown = display.view_lines(game, st.view(seat).to_json())
        assert display.view_lines(game, other.view(seat).to_json()) == shown
        assert svg_of(other, seat)[0] == svg
        assert np.array_equal(enc.encode(other.view(seat)), enc.encode(st.view(seat)))
    # the holder sees its own tile's value
    o = holders[0]
    mine = display.view_lines(game, st.view(o).to_json())
    value = next(s.value for s in st.boards[o].items if s.piece in (Piece.LOCKER, Piece.EXIT))
    assert any(f"${value}k (yours)" in line for line in mine)


# --- the encoder ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", PLAYERS)
def test_encoder_has_a_fixed_length_values_in_unit_range_and_ignores_the_unseen(n: int) -> None:
    game = GAMES[n]
    enc = adapter.adapter_spec().encoder(game)
    st = game.new_initial_state()
    rng = np.random.default_rng(n)
    seen = 0
    ply = 0
    while not st.is_terminal():
        if ply % 29 == 0:
            for seat in range(n):
                view = st.view(seat)
                x = enc.encode(view)
                assert x.dtype == np.float32 and x.shape == (enc.size,)
                assert float(x.min()) >= 0.0 and float(x.max()) <= 1.0
                if ply % 87 == 0 and st.current_player() != CHANCE:
                    again = game.resample(view, np.random.default_rng(ply + seat))
                    assert np.array_equal(enc.encode(again.view(seat)), x)
                    seen += 1
        step(st, rng)
        ply += 1
    assert seen >= 3
    # two seats of one position differ (the observer block at least), two positions too
    assert not np.array_equal(enc.encode(st.view(0)), enc.encode(st.view(1)))
    assert adapter.adapter_spec().recall_keys == ("history",)


# --- the hint ---------------------------------------------------------------------------------------


def leaving_sandra(st: EscapeState) -> bool:
    """A 2-player Travel decision where some route the view pins down leaves Sandra's tile."""
    if st.n != 2 or not travelling(st):
        return False
    sandra = st.game.city.locations[st.location[2]].tile
    routes = draw.travel_routes(st.game, st.view(st.current_player()))
    return any(left is not None and sandra in left for _, left in routes.values())


@pytest.mark.parametrize("n", (2, 3))
def test_hint_names_the_plan_money_exits_and_route_columns(n: int) -> None:
    st = position(n, leaving_sandra if n == 2 else travelling)
    seat = st.current_player()
    view = st.view(seat)
    advice = first_advice(view)
    assert escape_hint.role(st.game, view) == f"player with {st.game.content.plans[st.plan[seat]].name}"
    extras = escape_hint.extras(st.game, view, advice, None)
    assert f"you hold ${st.boards[seat].money}k" in extras.lines[0]
    exits = [e for e in (1, 2, 3) if st.patrol_on[e - 1] < 2]
    assert extras.lines[1].startswith("Open exits: " + ", ".join(f"exit {e}" for e in exits))
    officers = {c.header: c for c in extras.columns}["officers"]
    for action, (_, left) in draw.travel_routes(st.game, view).items():
        # at 2 players Sandra counts as one more officer on her tile ("Only 2 Player")
        sandra = st.game.city.locations[st.location[2]].tile if n == 2 else -1
        expected = "?" if left is None else str(sum(sum(st.officers[t]) for t in left) + (sandra in left))
        assert officers.cells[action] == expected
    text = hint.format_advice(st.game, view, advice)
    assert "tiles left" in text and "officers" in text


def test_copsolver_hint_draws_an_escape_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    st = position(3, travelling)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(st.to_json()))
    out = tmp_path / "out.svg"
    assert main(["hint", "escape", str(path), "--iterations", "8", "--svg", str(out)]) == 0
    assert "Ranked moves:" in capsys.readouterr().out
    root = ET.fromstring(out.read_bytes())
    best = root.find(f".//{SVG}g[@id='best-move']")
    assert best is not None and (best.get("data-action") or "").startswith(("travel", "escape"))
    assert len(root.findall(f".//{SVG}g[@class='tile']")) == len(st.placed)


def test_copsolver_hint_names_the_games_that_draw(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # every registered game draws now; a game without a drawing module is one whose lookup finds none
    import bots.draw

    real = bots.draw.drawing_module
    monkeypatch.setattr(bots.draw, "drawing_module", lambda name: None if name == "gcbc" else real(name))
    path = tmp_path / "position.json"
    path.write_text("{}")
    assert main(["hint", "gcbc", str(path), "--svg", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert "escape" in err and "police07" in err and "precinct" in err and "not gcbc" in err
