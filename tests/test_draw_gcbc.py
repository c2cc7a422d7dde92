"""The Good Cop Bad Cop drawing (bots/gcbc/draw.py): well-formed, clickable legal moves, no leak, beliefs.

Positions come from seeded games played through the rules engine with random legal moves at 4 to 8
players. Hidden facts are varied through the engine: the game's resampler draws worlds that share one
seat's view but differ in other seats' face-down cards and Equipment.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bots import hint
from bots.base import Advice
from bots.gcbc.draw import render_svg
from solver.core import Game, State, View
from solver.games.gcbc.deal import INTEGRITY_NAMES
from solver.search.ismcts import Budget
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

#: (players, seed, most decisions) of the random games (seeds whose games are not the longest, to keep
#: the file under ~20 s: a view's history grows with the game, and so does its cost)
GAMES = [(4, 1, None), (5, 2, None), (6, 5, None), (7, 8, None), (8, 11, 300)]
#: every legal action but these has a place on the picture (docs: bots/gcbc/draw.py)
UNPLACED = {"pass"}


@cache
def _games() -> tuple[tuple[Game, tuple[tuple[State, View], ...]], ...]:
    return seeded_games("gcbc", GAMES)


def test_every_view_parses_and_marks_only_legal_actions() -> None:
    total = placed = 0
    for game, positions in _games():
        for _, view in positions:
            svg = render_svg(game, view)
            root = parse_svg(svg)
            assert root.attrib["viewBox"] == "0 0 960 920"
            legal = view.to_json()["legal_actions"]
            marked: set[str] = set()
            for el, acts in clickable(root):
                assert acts and len(acts) == len(set(acts)), acts
                marked.update(acts)
                assert "data-actions" in el.attrib
            assert marked <= set(legal), marked - set(legal)
            for text in legal:
                total += 1
                if text in marked:
                    placed += 1
                else:
                    assert text in UNPLACED, f"{text!r} has no place ({game.num_players} players)"
            for el in root.iter():
                if "act" not in classes(el):
                    assert "data-actions" not in el.attrib
    # every action but pass is placed: 4,118 of the 4,950 legal actions of these games (83%)
    assert total > 4000 and placed / total > 0.75, (placed, total)


def test_actions_go_to_their_natural_element() -> None:
    game, positions = _games()[2]
    seen: set[str] = set()
    for _, view in positions:
        root = parse_svg(render_svg(game, view))
        data = view.to_json()
        for el, acts in clickable(root):
            kind = classes(el)[0]
            for text in acts:
                words = text.split()
                if words[0] in ("investigate", "pick"):
                    if kind == "icard":
                        assert f"{el.attrib['data-seat']}.{el.attrib['data-pos']}" == words[1]
                        seen.add("card")
                elif words[0] == "aim":
                    assert kind == "seat-panel"
                    seen.add("aim")
                elif words[0] == "shoot":
                    assert kind in ("seat-panel", "own-gun")
                    if kind == "seat-panel":
                        seen.add("shoot")
                elif words[0] in ("arm", "equip"):
                    assert kind == ("guns" if words[0] == "arm" else "deck")
                    seen.add(words[0])
                elif words[0] == "play":
                    assert kind in ("equipment", "seat-panel")
                    if kind == "equipment":
                        assert el.attrib["data-card"] == words[1] and words[1] in data["hand"]
                        seen.add("play")
        # the seat shot at is the one the drawn seat's Gun aims at
        for group in root.iter(f"{NS}g"):
            if classes(group)[:1] == ["seat-panel"] and "shoot" in json.loads(
                group.attrib.get("data-actions", "[]")
            ):
                holder = data["players"][view.seat]
                assert holder["gun"] and holder["aim"] is not None
    assert {"card", "aim", "arm", "equip", "play"} <= seen, seen


def _hidden_cards(state: Any, view: View) -> dict[tuple[int, int], str]:
    """Other seats' face-down cards the view does not name, with their true identity."""
    players = view.to_json()["players"]
    out = {}
    for s, p in enumerate(players):
        for pos, card in enumerate(p["cards"]):
            if s != view.seat and card["card"] is None:
                out[(s, pos)] = INTEGRITY_NAMES[state.cards[s][pos]]
    return out


def _investigated(view: View) -> set[tuple[int, int]]:
    return {(s, pos) for _, s, pos, _ in view.to_json()["investigated"]}


def _moved(view: View) -> bool:
    """Whether cards changed places or were laid out again after set-up (a look may be out of date)."""
    return any(
        e["kind"] == "CardsSwapped"
        or (e["kind"] == "Arranged" and e["why"] != "setup")
        or e["kind"] == "Revived"
        for _, _, events in view.to_json()["history"]
        for e in events
    )


def test_hidden_cards_and_hands_do_not_leak() -> None:
    checked = differ = known = 0
    for game, positions in _games()[:3]:
        rng = np.random.default_rng(7)
        for state, view in positions[::9]:
            if state.is_terminal():
                continue
            svg = render_svg(game, view)
            root = parse_svg(svg)
            ids: tuple[str, ...] = game.card_ids  # type: ignore[attr-defined]
            mine = set(view.to_json()["hand"])
            # no other seat's Equipment is named: it is not in the view
            hands: list[list[int]] = state.hands  # type: ignore[attr-defined]
            hidden_equipment = {ids[c] for s, hand in enumerate(hands) if s != view.seat for c in hand} - mine
            for cid in hidden_equipment:
                assert not re.search(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", svg), cid
            # another seat's face-down card is a back naming nothing, or, when the seat's history
            # showed it the card (an investigation, a Polygraph, a swap), that card and no other
            cards = {
                (int(el.attrib["data-seat"]), int(el.attrib["data-pos"])): el
                for el in root.iter(f"{NS}g")
                if classes(el)[:1] == ["icard"]
            }
            looked = _investigated(view)
            for slot, truth in _hidden_cards(state, view).items():
                el = cards[slot]
                if el.attrib["data-state"] == "known":
                    assert el.attrib["data-card"] == truth
                    known += 1
                else:
                    assert el.attrib["data-state"] == "down" and "data-card" not in el.attrib
                    assert not set(re.findall(r"[a-z]+", text_of(el))) & set(INTEGRITY_NAMES)
                    assert slot not in looked or _moved(view)
                checked += 1
            # worlds with this view: the same picture, though their hidden cards differ
            for _ in range(2):
                world = game.resample(view, rng)
                other = world.view(view.seat)
                assert other.to_json() == view.to_json()
                assert render_svg(game, other) == svg
                differ += _hidden_cards(world, view) != _hidden_cards(state, view)
    assert checked > 100 and known > 5 and differ > 5, (checked, known, differ)


def test_known_face_down_cards_are_drawn_as_known() -> None:
    game, positions = _games()[1]
    shown = 0
    for _, view in positions:
        data = view.to_json()
        root = parse_svg(render_svg(game, view))
        for el in root.iter(f"{NS}g"):
            if classes(el)[:1] != ["icard"]:
                continue
            s, pos = int(el.attrib["data-seat"]), int(el.attrib["data-pos"])
            card = data["players"][s]["cards"][pos]
            if card["face_up"]:
                assert el.attrib["data-state"] == "up" and el.attrib["data-card"] == card["card"]
            elif s == view.seat:  # one's own cards are known, face down
                assert el.attrib["data-state"] == "known" and el.attrib["data-card"] == card["card"]
            elif el.attrib["data-state"] == "known":
                shown += 1
    assert shown > 10  # investigated cards are marked as known to the seat


def test_heuristic_advice_draws_its_estimate_and_the_best_move() -> None:
    game, positions = _games()[2]
    drawn = 0
    for _, view in positions[10::5]:
        if len(view.legal_actions) < 2 or drawn == 8:
            continue
        advice = hint.advise(game, view, bot="heuristic")
        root = parse_svg(render_svg(game, view, advice))
        beliefs = {
            int(el.attrib["data-seat"]): el for el in root.iter(f"{NS}g") if classes(el)[:1] == ["belief"]
        }
        for entry in advice.belief["seats"]:
            el = beliefs[entry["seat"]]
            assert float(el.attrib["data-p-honest"]) == pytest.approx(1 - entry["p_crooked"], abs=5e-4)
            assert float(el.attrib["data-p-kingpin"]) == pytest.approx(entry["p_kingpin"], abs=5e-4)
            assert f"Kingpin {100 * entry['p_kingpin']:.0f}%" in text_of(el)
        best = root.find(f".//{NS}g[@id='best-move']")
        assert best is not None and best.attrib["data-action"] == advice.best.text
        ringed = [acts for el, acts in clickable(root) if "best" in classes(el)]
        assert all(advice.best.text in acts for acts in ringed)
        assert bool(ringed) == (advice.best.text != "pass")
        drawn += 1
    assert drawn >= 5


def test_search_advice_draws_the_posterior_marginals() -> None:
    game, positions = _games()[0]
    view = next(v for _, v in positions[30:] if len(v.legal_actions) > 3)
    advice = hint.advise(game, view, bot="ismcts", budget=Budget(iterations=20))
    marginals = advice.belief["marginals"]
    root = parse_svg(render_svg(game, view, advice))
    beliefs = {int(el.attrib["data-seat"]): el for el in root.iter(f"{NS}g") if classes(el)[:1] == ["belief"]}
    assert set(beliefs) == {int(m["seat"]) for m in marginals}
    for m in marginals:
        el = beliefs[int(m["seat"])]
        assert float(el.attrib["data-p-honest"]) == pytest.approx(m["p_honest"], abs=5e-4)
        assert float(el.attrib["data-p-agent"]) == pytest.approx(m["p_agent"], abs=5e-4)
        assert f"honest {100 * m['p_honest']:.0f}%" in text_of(el)
    # a bot that states no belief gets the exact posterior the hint text prints
    bare = Advice(view.seat, advice.ranked, {}, "")
    root = parse_svg(render_svg(game, view, bare))
    for m in hint_marginals(game, view):
        el = next(
            el
            for el in root.iter(f"{NS}g")
            if classes(el)[:1] == ["belief"] and el.attrib["data-seat"] == str(m["seat"])
        )
        assert float(el.attrib["data-p-kingpin"]) == pytest.approx(m["p_kingpin"], abs=5e-4)


def hint_marginals(game: Game, view: View) -> list[dict[str, Any]]:
    from bots.gcbc.hint import marginals_for

    return marginals_for(game, view)


def test_deterministic_and_checked() -> None:
    game, positions = _games()[3]
    check_deterministic_and_checked(render_svg, game, positions[40][1], "pass")


def test_copsolver_hint_draws_a_position(tmp_path: Path) -> None:
    game, positions = _games()[1]
    state = next(s for s, v in positions[40:] if len(v.legal_actions) > 3)
    root = hint_picture(state, "heuristic", tmp_path)
    assert len([el for el in root.iter(f"{NS}g") if classes(el)[:1] == ["belief"]]) == game.num_players
