"""Drawing hints: a stable layout, well-formed SVG with the seat's view and nothing more, PNG output."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bots import hint, svg
from bots.base import Advice, RankedAction
from bots.cli import main
from bots.police07 import draw
from solver import games
from solver.core import ConfigError
from solver.games.police07 import codec
from solver.games.police07.board import board_from_json, load_board
from solver.games.police07.locations import possible_locations
from solver.games.police07.rules import Police07Game, Police07State

#: Dr. Factor starts at 1, detectives at 24, 40, 59; move 1 (shown) to 2; then detective moves; move 2
#: is a hidden bus ride from 2, so he is at 13, 19, 22 or 24 (tests/test_hint.py uses it too).
BEFORE_BUS = ("start 1", "start 24", "start 40", "start 59", "taxi 2", "taxi 21", "taxi 33", "taxi 53")
SVG = "{http://www.w3.org/2000/svg}"


def game4() -> Police07Game:
    game = games.load("police07", players=4)
    assert isinstance(game, Police07Game)
    return game


def position(*actions: str) -> Police07State:
    state = game4().new_initial_state()
    for text in actions:
        state.apply_str(text)
    return state


def drawn(state: Police07State, seat: int | None = None, **kwargs: Any) -> tuple[str, ET.Element]:
    """The SVG of the heuristic's advice to ``seat`` (default: the seat to act), and its parse."""
    view = state.view(state.current_player() if seat is None else seat)
    advice = hint.advise(state.game, view, seed=0)
    svg = draw.render_svg(state.game, view, advice, **kwargs)
    return svg, ET.fromstring(svg.encode("utf-8"))


def group(root: ET.Element, name: str) -> ET.Element:
    found = root.find(f".//{SVG}g[@id='{name}']")
    assert found is not None, f"no <g id={name!r}>"
    return found


def stops_with(root: ET.Element, cls: str) -> dict[int, ET.Element]:
    """Elements whose class list holds ``cls``, by their ``data-stop``."""
    return {
        int(e.attrib["data-stop"]): e
        for e in root.iter()
        if cls in e.attrib.get("class", "").split() and "data-stop" in e.attrib
    }


# --- layout -----------------------------------------------------------------------------------


def test_layout_covers_every_stop_inside_the_box_and_apart() -> None:
    board = load_board()
    layout = draw.board_layout(board)
    assert sorted(layout) == list(board.stops)
    xy = np.array(list(layout.values()))
    assert (xy >= draw.PAD - 1e-9).all() and (xy <= draw.BOX - draw.PAD + 1e-9).all()
    gaps = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(-1)) + np.eye(len(xy)) * 1e9
    assert gaps.min() > 20.0  # stop circles (radius 12) barely touch at worst: every number readable


def test_layout_is_the_same_for_a_fresh_board_and_in_a_fresh_process() -> None:
    first = draw.board_layout(load_board())
    assert draw.board_layout(load_board()) == first  # a new Board object: computed again, not cached
    code = (
        "import json; from bots.police07.draw import board_layout; "
        "from solver.games.police07.board import load_board;"
        "print(json.dumps(sorted(board_layout(load_board()).items())))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert [(s, tuple(xy)) for s, xy in json.loads(out)] == sorted(first.items())


def test_layout_uses_the_board_coordinates_when_it_has_them() -> None:
    small = {
        "name": "triangle",
        "stops": 3,
        "links": {"taxi": [[1, 2], [2, 3]]},
        "start_stops": [1, 3],
        "coordinates": {"1": [0, 0], "2": [100, 0], "3": [0, 50]},
    }
    layout = draw.board_layout(board_from_json(small))
    (x1, y1), (x2, y2), (x3, y3) = layout[1], layout[2], layout[3]
    assert x1 == pytest.approx(draw.PAD) and x2 == pytest.approx(draw.BOX - draw.PAD)
    assert y1 == y2 < y3 and x3 == x1  # y down, as given
    assert (y3 - y1) / (x2 - x1) == pytest.approx(0.5, abs=1e-3)  # aspect ratio kept


def test_stress_layout_keeps_graph_distances_and_rejects_bad_tables() -> None:
    path = np.abs(np.subtract.outer(np.arange(5.0), np.arange(5.0)))  # a path 0-1-2-3-4
    xy = svg.stress_layout(path)
    drawn_gaps = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(-1))
    assert np.allclose(drawn_gaps, path, atol=1e-3)
    with pytest.raises(ConfigError, match="square"):
        svg.stress_layout(np.ones((2, 3)))
    with pytest.raises(ConfigError, match="positive distance"):
        svg.stress_layout(np.zeros((3, 3)))


# --- svg --------------------------------------------------------------------------------------


def test_svg_is_well_formed_and_shows_every_stop_and_link() -> None:
    state = position(*BEFORE_BUS, "bus 13")
    svg, root = drawn(state)
    board = state.game.board
    assert root.tag == f"{SVG}svg"
    stops = stops_with(root, "stop")
    assert sorted(stops) == list(board.stops)
    for stop, element in stops.items():
        assert [t.text for t in element.iter(f"{SVG}text")] == [str(stop)]
    links = [e for e in group(root, "links") if "link" in e.attrib.get("class", "")]
    assert len(links) == sum(len(per_line) for per_line in board.links)
    assert {e.attrib["class"] for e in links} == {"link taxi", "link bus", "link metro", "link water"}


def test_svg_highlights_the_possible_stops_and_says_how_many() -> None:
    state = position(*BEFORE_BUS, "bus 13")
    view = state.view(1)
    possible = possible_locations(state.game, view.to_json())
    assert possible == {13, 19, 22, 24}
    _, root = drawn(state)
    heat = stops_with(root, "possible")
    assert set(heat) == possible
    for stop, element in stops_with(root, "stop").items():
        fill = element.find(f"{SVG}circle")
        assert fill is not None
        assert (fill.attrib["fill"] != "#ffffff") == (stop in possible)
    title = "".join(group(root, "legend").itertext())
    assert f"may be at {len(possible)} stops" in title and "detective D1 to move" in title


def test_svg_draws_the_best_move_as_an_arrow_from_the_moving_piece() -> None:
    state = position(*BEFORE_BUS, "bus 13")
    view = state.view(1)
    advice = hint.advise(state.game, view, seed=0)
    root = ET.fromstring(draw.render_svg(state.game, view, advice))
    move = group(root, "best-move")
    assert move.attrib["data-action"] == advice.best.text
    assert move.attrib["data-from"] == str(state.pos[1])
    assert move.attrib["data-to"] == str(advice.best.action % 256)
    assert move.find(f"{SVG}line[@class='arrow']") is not None
    assert move.find(f"{SVG}polygon[@class='arrowhead']") is not None
    assert advice.best.text in "".join(group(root, "legend").itertext())


def test_a_move_without_a_stop_draws_no_arrow() -> None:
    state = position(*BEFORE_BUS)  # Dr. Factor to move
    view = state.view(0)
    advice = Advice(0, (RankedAction(codec.DOUBLE, "double", 1.0, "two moves at once"),))
    root = ET.fromstring(draw.render_svg(state.game, view, advice))
    move = group(root, "best-move")
    assert move.attrib["data-action"] == "double" and len(move) == 0
    assert "Suggested: double" in "".join(group(root, "legend").itertext())


def test_detective_picture_is_the_same_wherever_dr_factor_really_is() -> None:
    pictures = set()
    for hidden in (13, 19, 22):  # all consistent with what detective 1 has seen
        state = position(*BEFORE_BUS, f"bus {hidden}")
        svg, root = drawn(state)
        assert not stops_with(root, "factor")  # his piece is not drawn for a detective now
        pictures.add(svg)
    assert len(pictures) == 1


def test_dr_factor_piece_is_drawn_when_the_view_knows_his_stop() -> None:
    shown = position(*BEFORE_BUS[:5])  # move 1 is shown: detectives see him at 2
    _, root = drawn(shown)
    assert shown.current_player() == 1
    assert [e.attrib["data-stop"] for e in stops_with(root, "factor").values()] == ["2"]
    own = position(*BEFORE_BUS, "bus 19", "taxi 14", "taxi 20", "taxi 45")  # his own view, hidden move
    assert own.current_player() == 0
    _, root = drawn(own)
    assert list(stops_with(root, "factor")) == [19]
    assert set(stops_with(root, "possible")) == {19}
    assert sorted(stops_with(root, "detective")) == [14, 20, 45]


def test_weights_shade_the_possible_stops_and_stray_weights_are_ignored() -> None:
    state = position(*BEFORE_BUS, "bus 13")
    weights = {13: 1.0, 19: 3.0, 22: 0.0, 150: 99.0}  # 150 is not possible: ignored
    _, root = drawn(state, weights=weights)
    heat = {s: float(e.attrib["data-weight"]) for s, e in stops_with(root, "possible").items()}
    assert heat == {13: pytest.approx(1 / 3, abs=1e-3), 19: 1.0, 22: 0.0, 24: 0.0}
    legend = "".join(group(root, "legend").itertext())
    assert "; most likely 19, 13" in legend and "most likely 19, 13," not in legend  # weight 0: not named
    for bad in ({13: -1.0}, {13: math.nan}):
        with pytest.raises(ConfigError, match="weights"):
            drawn(state, weights=bad)


def test_without_advice_the_position_alone_is_drawn() -> None:
    state = position(*BEFORE_BUS, "bus 13")
    view = state.view(1)
    svg = draw.render_svg(state.game, view)
    root = ET.fromstring(svg.encode("utf-8"))
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
    assert all(root.attrib.get(k) for k in ("width", "height", "viewBox"))
    assert root.find(f".//{SVG}g[@id='best-move']") is None
    assert root.find(f".//{SVG}polygon[@class='arrowhead']") is None
    legend = "".join(group(root, "legend").itertext())
    assert "Suggested" not in legend and "suggested move" not in legend
    assert "Click a ringed stop" in legend
    # the possible stops stay shaded (what the seat knows), uniformly without weights
    heat = stops_with(root, "possible")
    assert set(heat) == {13, 19, 22, 24}
    assert {e.attrib["fill"] for e in heat.values()} == {draw._heat(draw._UNIFORM_SHADE)}
    weighted = ET.fromstring(draw.render_svg(state.game, view, weights={13: 1.0, 19: 2.0}))
    assert float(stops_with(weighted, "possible")[19].attrib["data-weight"]) == 1.0
    assert float(stops_with(weighted, "possible")[24].attrib["data-weight"]) == 0.0


def test_hint_picture_is_clickable_too() -> None:
    state = position(*BEFORE_BUS, "bus 13")
    _, with_advice = drawn(state)
    plain = ET.fromstring(draw.render_svg(state.game, state.view(1)))
    assert clickable_stops(with_advice) == clickable_stops(plain) != {}
    assert group(with_advice, "best-move").attrib["data-to"] in {str(s) for s in clickable_stops(plain)}


def test_render_rejects_advice_for_another_seat() -> None:
    state = position(*BEFORE_BUS, "bus 13")
    advice = hint.advise(state.game, state.view(1), seed=0)
    with pytest.raises(ConfigError, match="seat"):
        draw.render_svg(state.game, state.view(2), advice)


# --- png --------------------------------------------------------------------------------------


def test_png_is_written_with_cairosvg(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    picture, _ = drawn(position(*BEFORE_BUS, "bus 13"))
    target = tmp_path / "hint.png"
    svg.svg_to_png(picture, target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_without_a_converter_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(svg, "_cairosvg", lambda: None)  # the converter lives in bots/svg.py
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(ConfigError, match="pip install cairosvg"):
        svg.svg_to_png("<svg xmlns='http://www.w3.org/2000/svg'/>", tmp_path / "x.png")


def test_a_convert_that_is_not_imagemagick_is_not_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    impostor = tmp_path / "convert"
    impostor.write_text("#!/bin/sh\necho 'convert: not the image tool' >&2\nexit 1\n")
    impostor.chmod(0o755)
    monkeypatch.setattr(svg, "_cairosvg", lambda: None)  # the converter lives in bots/svg.py
    monkeypatch.setattr("shutil.which", lambda name: str(impostor) if name == "convert" else None)
    with pytest.raises(ConfigError, match="no SVG-to-PNG converter"):
        svg.svg_to_png("<svg xmlns='http://www.w3.org/2000/svg'/>", tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


# --- command line -----------------------------------------------------------------------------


def test_hint_command_writes_svg_and_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position(*BEFORE_BUS, "bus 13").view(1).to_json()))
    svg = tmp_path / "hint.svg"
    assert main(["hint", "police07", str(path), "--svg", str(svg)]) == 0
    assert "Ranked moves:" in capsys.readouterr().out
    assert ET.parse(svg).getroot().tag == f"{SVG}svg"
    pytest.importorskip("cairosvg")
    png = tmp_path / "hint.png"
    assert main(["hint", "police07", str(path), "--png", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_rsvg_convert_gets_the_svg_on_stdin_and_its_errors_are_reported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = tmp_path / "rsvg-convert"
    # writes what it read to the file after --output; fails when the input holds "broken"
    fake.write_text(
        "#!/bin/sh\nbody=$(cat)\ncase \"$body\" in *broken*) echo 'rsvg: bad svg' >&2; exit 1;; esac\n"
        'while [ $# -gt 0 ]; do if [ "$1" = --output ]; then printf %s "$body" > "$2"; fi; shift; done\n'
    )
    fake.chmod(0o755)
    monkeypatch.setattr(svg, "_cairosvg", lambda: None)  # the converter lives in bots/svg.py
    monkeypatch.setattr("shutil.which", lambda name: str(fake) if name == "rsvg-convert" else None)
    svg.svg_to_png("<svg/>", tmp_path / "ok.png")
    assert (tmp_path / "ok.png").read_text() == "<svg/>"
    with pytest.raises(ConfigError, match="rsvg-convert could not write .*bad svg"):
        svg.svg_to_png("<svg>broken</svg>", tmp_path / "bad.png")


# --- clickable legal moves (issue 25) -----------------------------------------------------------


def clickable_stops(root: ET.Element) -> dict[int, list[str]]:
    """``data-actions`` of every clickable stop, by its stop (a stop carries them at most once)."""
    out: dict[int, list[str]] = {}
    for e in root.iter():
        if "act" in e.attrib.get("class", "").split() and "stop" in e.attrib["class"].split():
            stop = int(e.attrib["data-stop"])
            assert stop not in out, f"stop {stop} is clickable twice"
            out[stop] = json.loads(e.attrib["data-actions"])
    return out


def expected_places(legal: list[str]) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """What the picture must make clickable, read from the action texts alone: every move, start or
    placement by the stop it names last; every ``take P TICKET`` on detective P's piece."""
    stops: dict[int, list[str]] = {}
    pieces: dict[int, list[str]] = {}
    for text in legal:
        words = text.split()
        if words[0] in ("taxi", "bus", "metro", "joker", "start", "place"):
            stops.setdefault(int(words[-1]), []).append(text)
        elif words[0] == "take":
            pieces.setdefault(int(words[1]), []).append(text)
        else:
            assert text in ("double", "show", "pass"), f"an action the test does not know: {text!r}"
    return stops, pieces


def check_panel(root: ET.Element, data: dict[str, Any]) -> None:
    """The panel shows every piece's tickets as the view counts them, Dr. Factor's log as the view has it
    (a stop only where the view holds one, or where the history shows it), and carries ``double``,
    ``show``, ``pass`` on chips and each ``take P TICKET`` on detective P's ticket cell."""
    panel = group(root, "panel")
    stocks = {0: data["factor"]["tickets"], **{e["piece"]: e["tickets"] for e in data["pieces"]}}
    drawn_stocks = {
        int(row.attrib["data-piece"]): {
            cell.attrib["data-ticket"]: "".join(cell.itertext()) for cell in row if cell.tag == f"{SVG}g"
        }
        for row in panel.iter(f"{SVG}g")
        if row.attrib.get("class") == "tickets"
    }
    assert drawn_stocks == {
        p: {t: "∞" if n is None else str(n) for t, n in tickets.items()} for p, tickets in stocks.items()
    }
    shown: dict[int, str] = {}  # voluntary shows, by the number of moves made before them
    made = 0
    for piece, text in data["history"]:
        words = text.split()
        if piece == 0 and words[0] in ("taxi", "bus", "metro", "joker"):
            made += 1
        elif piece == 0 and words[0] == "show" and len(words) == 2:  # Dr. Factor's own reads "show"
            shown[made] = words[1]
    cells = {
        int(e.attrib["data-move"]): e for e in panel.iter(f"{SVG}g") if e.attrib.get("class") == "log-move"
    }
    assert sorted(cells) == list(range(1, codec.LAST_MOVE + 1))
    for entry in data["log"]:
        cell = cells[entry["move"]]
        assert cell.attrib["data-ticket"] == entry["ticket"]
        texts = [t.text for t in cell.iter(f"{SVG}text")]
        stop = entry["stop"] if entry["stop"] is not None else shown.get(entry["move"])
        assert texts[2] == ("?" if stop is None else str(stop))
    for move in range(len(data["log"]) + 1, codec.LAST_MOVE + 1):
        assert "data-ticket" not in cells[move].attrib
    acts = [
        (e, json.loads(e.attrib["data-actions"])) for e in panel.iter() if "act" in e.attrib.get("class", "")
    ]
    chips = sorted(t for e, texts in acts if e.attrib["class"] == "chip act" for t in texts)
    assert chips == sorted(t for t in data["legal_actions"] if t in ("double", "show", "pass"))
    rows = {
        e: int(row.attrib["data-piece"])
        for row in panel.iter(f"{SVG}g")
        if row.attrib.get("class") == "tickets"
        for e in row
    }
    takes = sorted(
        (rows[e], e.attrib["data-ticket"], texts) for e, texts in acts if e.attrib["class"] == "ticket act"
    )
    assert takes == sorted(
        (int(t.split()[1]), t.split()[2], [t]) for t in data["legal_actions"] if t.startswith("take ")
    )


def random_game_views(game: Police07Game, seed: int) -> list[tuple[Police07State, int]]:
    """(state, seat) for every seat at every decision of a random game from ``seed``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    out: list[tuple[Police07State, int]] = []
    while not state.is_terminal():
        if state.current_player() < 0:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        out.extend((state.clone(), seat) for seat in range(game.num_players))
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return out


GAMES = [
    ("4 players", {"players": 4}, (0, 1)),
    ("2 players", {"players": 2}, (2,)),
    ("free start, voluntary show", {"players": 4, "free_start": True, "voluntary_show": True}, (3, 4)),
]


@pytest.mark.parametrize(("label", "config", "seeds"), GAMES, ids=[g[0] for g in GAMES])
def test_every_view_of_random_games_makes_its_legal_moves_clickable(
    label: str, config: dict[str, Any], seeds: tuple[int, ...]
) -> None:
    game = games.load("police07", **config)
    assert isinstance(game, Police07Game)
    kinds: set[str] = set()
    acting_roles: set[int] = set()
    for seed in seeds:
        for state, seat in random_game_views(game, seed):
            view = state.view(seat)
            legal = view.to_json()["legal_actions"]
            svg = draw.render_svg(game, view)
            assert draw.render_svg(game, view) == svg  # deterministic
            root = ET.fromstring(svg.encode("utf-8"))
            assert root.tag == f"{SVG}svg" and root.find(f".//{SVG}g[@id='best-move']") is None
            carried = [
                json.loads(e.attrib["data-actions"])
                for e in root.iter()
                if "act" in e.attrib.get("class", "").split()
            ]
            for texts in carried:
                assert texts and set(texts) <= set(legal), (texts, legal)
            stops, pieces = expected_places(legal)
            assert clickable_stops(root) == stops
            assert {
                int(e.attrib["data-piece"]): json.loads(e.attrib["data-actions"])
                for e in root.iter()
                if e.attrib.get("class", "").split()[:2] == ["piece", "detective"]
                and "act" in e.attrib["class"].split()
            } == pieces
            check_panel(root, view.to_json())
            if not legal:
                assert not carried  # a seat that does not act has nothing to click
            else:
                acting_roles.add(0 if seat == 0 else 1)
            kinds |= {t.split()[0] for t in legal}
    assert acting_roles == {0, 1}  # Dr. Factor's and a detective's decisions were both drawn
    assert {"taxi", "bus"} <= kinds
    if config.get("free_start"):
        assert {"place", "take", "joker"} <= kinds  # the seeds reach placements, takes and jokers


def test_a_detective_picture_does_not_depend_on_dr_factor_s_true_stop() -> None:
    """Resampled states (Dr. Factor's hidden path drawn anew through the engine) share the detective's
    view; the pictures must be byte for byte the same, and his true stop is drawn as every other
    possible stop is."""
    game = game4()
    rng = np.random.default_rng(7)
    moved = 0
    for state, seat in random_game_views(game, 5):
        if seat == 0:
            continue
        view = state.view(seat)
        svg = draw.render_svg(game, view)
        root = ET.fromstring(svg.encode("utf-8"))
        possible = possible_locations(game, view.to_json())
        assert state.pos[0] in possible
        if len(possible) > 1:
            # his stop's shade and ring are those of any other possible stop
            heat = stops_with(root, "possible")
            assert len({heat[s].attrib["fill"] for s in possible}) == 1
            assert not stops_with(root, "factor") or len(possible) == 1
        for _ in range(3):
            other = game.resample(view, rng)
            assert other.view(seat).to_json() == view.to_json()
            moved += other.pos[0] != state.pos[0]
            assert draw.render_svg(game, other.view(seat)) == svg
    assert moved > 20  # the resampled stops did differ from the truth


def test_take_actions_ride_on_the_detective_pieces() -> None:
    game = games.load("police07", players=4, free_start=True, voluntary_show=True)
    assert isinstance(game, Police07Game)
    for state, seat in random_game_views(game, 3):
        legal = state.view(seat).to_json()["legal_actions"]
        if any(t.startswith("take ") for t in legal):
            root = ET.fromstring(draw.render_svg(game, state.view(seat)))
            pieces = {
                int(e.attrib["data-piece"]): json.loads(e.attrib["data-actions"])
                for e in root.iter(f"{SVG}g")
                if "act" in e.attrib.get("class", "").split() and "piece" in e.attrib["class"].split()
            }
            assert sorted(t for texts in pieces.values() for t in texts) == sorted(
                t for t in legal if t.startswith("take ")
            )
            assert all(t.split()[1] == str(p) for p, texts in pieces.items() for t in texts)
            return
    pytest.fail("seed 3 reached no voluntary show")


def test_title_names_the_movers_seat_and_whose_view_it_is() -> None:
    """The web page draws every seat's view: the title names the seat to move, and the viewer when
    that is another seat."""
    state = position(*BEFORE_BUS[:5])  # Dr. Factor (seat 0) has moved: detective D1 (seat 1) to move
    mover = state.decision().seat
    assert mover == 1
    for seat in range(4):
        root = ET.fromstring(draw.render_svg(state.game, state.view(seat)).encode("utf-8"))
        title = next(t for t in ("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
                     if t.startswith("Police 07"))
        assert "detective D1 to move (seat 1)" in title
        assert (f"seat {seat}'s view" in title) == (seat != mover), title
