"""The drawings' shared SVG primitives (bots/svg.py): escaping of hostile text, number formatting, the
``data-actions`` attribute read back through an XML parser and JSON, and one home for them all (no game's
drawing imports another game's module)."""

from __future__ import annotations

import ast
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from bots import svg
from bots.base import Advice, RankedAction
from solver.core import ConfigError
from solver.games import load
from solver.games.gcbc.rules import GCBCGame
from solver.games.police07.rules import Police07Game

NS = "{http://www.w3.org/2000/svg}"
#: texts that break a document written without escaping: markup, both quotes, ampersands, entities
HOSTILE = [
    "<script>alert('x')</script>",
    'say "hi" & leave',
    "it's <b>bold</b>",
    "&amp; &lt; ]]> <!-- -->",
    "ünïcode — 東京",
    "",
]
BOTS = Path(svg.__file__).parent
GAMES = ("police07", "escape", "gcbc", "lineup", "precinct")


def parse(fragment: str) -> ET.Element:
    """One element written by the primitives, parsed (namespace-free)."""
    return ET.fromstring(fragment)


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (12.0, 1, "12"),
        (100.0, 1, "100"),  # trailing zeros of the decimals only
        (0.0, 1, "0"),
        (-0.04, 1, "0"),  # no "-0"
        (-0.004, 2, "0"),
        (-2.5, 1, "-2.5"),
        (3.14159, 2, "3.14"),
        (3.14159, 1, "3.1"),
        (2.0999, 2, "2.1"),
        (1e6, 1, "1000000"),
        (7.6, 0, "8"),
        (10.0, 0, "10"),
    ],
)
def test_numbers_are_short_and_stable(value: float, digits: int, expected: str) -> None:
    assert svg.num(value, digits) == expected


@pytest.mark.parametrize("body", HOSTILE)
def test_text_escapes_its_body_and_attributes(body: str) -> None:
    written = svg.text(10, 20.25, body, 12, "middle", fill=body, font_weight="bold")
    el = parse(written)
    assert el.tag == "text" and list(el) == []  # no element smuggled in
    assert (el.text or "") == body
    assert el.attrib == {
        "x": "10",
        "y": "20.2",
        "font-size": "12",
        "text-anchor": "middle",
        "fill": body,
        "font-weight": "bold",
    }


def test_text_without_anchor_leaves_it_to_the_group() -> None:
    el = parse(svg.text(1.234, 5, "a", 9.5, None, digits=2))
    assert el.attrib == {"x": "1.23", "y": "5", "font-size": "9.5"}


def test_rect_and_document() -> None:
    el = parse(svg.rect(1.25, -0.01, 30, 4.5, 'fill="#fff"'))
    assert el.tag == "rect"
    assert el.attrib == {"x": "1.2", "y": "0", "width": "30", "height": "4.5", "fill": "#fff"}
    assert parse(svg.rect(0, 0, 1, 1)).attrib == {"x": "0", "y": "0", "width": "1", "height": "1"}
    lines = svg.document(720.5, 310, -100, -170)
    assert lines[0] == '<?xml version="1.0" encoding="UTF-8"?>'
    root = ET.fromstring("\n".join(lines[1:]) + "</svg>")
    assert root.tag == f"{NS}svg"
    assert root.attrib["viewBox"] == "-100 -170 720.5 310"
    assert (root.attrib["width"], root.attrib["height"]) == ("720.5", "310")
    assert root.attrib["font-family"] == svg.FONT
    (background,) = list(root)
    expected = {"x": "-100", "y": "-170", "width": "720.5", "height": "310", "fill": "#ffffff"}
    assert background.attrib == expected


def test_data_actions_round_trip_through_xml_and_json() -> None:
    actions = [*HOSTILE, "taxi 69", "joker taxi 69", "play hinder 2"]
    attr = svg.actions_attr(actions)
    el = parse(f'<g class="act" {attr}/>')
    assert json.loads(el.attrib["data-actions"]) == actions
    # one JSON style for every drawing: compact separators
    assert svg.actions_attr(["a b", "c"]) == "data-actions='[\"a b\",\"c\"]'"
    assert json.loads(parse(f"<g {svg.actions_attr([])}/>").attrib["data-actions"]) == []


@pytest.mark.parametrize("best", [None, "pick 1", "<script>"])
def test_act_group_carries_its_actions_and_marks_the_advised_one(best: str | None) -> None:
    actions = ["pick 1", "pick 2", "<script>", 'x "y"']
    el = parse(svg.act_group("stand", actions, best, ' data-stand="1"') + "</g>")
    assert json.loads(el.attrib["data-actions"]) == actions
    assert el.attrib["data-stand"] == "1"
    assert el.attrib["class"].split() == ["stand", "act"] + (["best"] if best is not None else [])
    plain = parse(svg.act_group("deck", [], "pick 1") + "</g>")
    assert plain.attrib == {"class": "deck"}  # nothing to click: no act, no data-actions, no best


def test_advised_ring_only_around_the_advised_move() -> None:
    assert svg.advised_ring(0, 0, 10, 10, ["a"], None) == ""
    assert svg.advised_ring(0, 0, 10, 10, ["a"], "b") == ""
    ring = parse(svg.advised_ring(10, 20, 30, 40, ["a", "b"], "b"))
    assert ring.attrib["stroke"] == svg.BEST and ring.attrib["fill"] == "none"
    x, y, w, h = (float(ring.attrib[k]) for k in ("x", "y", "width", "height"))
    assert x < 10 and y < 20 and x + w > 40 and y + h > 60  # it encloses the box
    framed = parse(svg.outline(0, 0, 5, 5, pad=3.0, rx=5.0, width=3.0, extra=' class="best"'))
    assert framed.attrib["class"] == "best" and framed.attrib["stroke-width"] == "3"
    assert (framed.attrib["x"], framed.attrib["width"]) == ("-3", "11")


def test_header_lines_escape_the_advice_and_the_prompt() -> None:
    hostile = "<script>&'\""
    advice = Advice(0, (RankedAction(1, hostile, 1.0, hostile),))
    lines = [parse(line) for line in svg.header_lines(hostile, hostile * 50, advice)]
    assert [el.text for el in lines[:1]] == [hostile]
    assert lines[1].text == (hostile * 50)[:130]  # the prompt is cut, still well-formed
    assert lines[2].text is not None and lines[2].text.startswith(f"Advised: {hostile}")
    assert lines[2].attrib["fill"] == svg.BEST
    assert len(svg.header_lines("t", "p", None)) == 2


def test_drawable_checks_the_game_and_the_advice_seat() -> None:
    police = load("police07")
    view = police.new_initial_state().view(0)
    assert svg.drawable(police, Police07Game, view, "Police 07", None) is police
    with pytest.raises(ConfigError, match="Good Cop Bad Cop drawing cannot draw a police07 view"):
        svg.drawable(police, GCBCGame, view, "Good Cop Bad Cop", None)
    with pytest.raises(ConfigError, match="advice is for seat 1"):
        svg.drawable(police, Police07Game, view, "Police 07", Advice(1, ()))


def test_stress_layout_rejects_bad_tables_and_spaces_unreachable_pairs() -> None:
    with pytest.raises(ConfigError, match="square"):
        svg.stress_layout(np.ones((2, 3)))
    far = np.array([[0, 1, 9], [1, 0, 9], [9, 9, 0]], dtype=float)
    near = svg.stress_layout(far)  # 9 is a distance: the third point lies 9 away
    capped = svg.stress_layout(far, unreachable=9)  # 9 means "no path": one step past the farthest pair
    assert abs(float(np.hypot(*(near[2] - near[0]))) - 9) < 0.5
    assert float(np.hypot(*(capped[2] - capped[0]))) < 3


@pytest.mark.parametrize("game", GAMES)
def test_no_drawing_imports_another_games_module(game: str) -> None:
    tree = ast.parse((BOTS / game / "draw.py").read_text(encoding="utf-8"))
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    others = [m for m in imported for g in GAMES if g != game and (f"bots.{g}" in m or f"games.{g}" in m)]
    assert others == []
    shared = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
              and (n.module == "bots.svg" or (n.module == "bots" and any(a.name == "svg" for a in n.names)))]
    assert shared  # built from the shared primitives
