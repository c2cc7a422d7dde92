"""Police Precinct front end (bots/precinct): the heuristic plays whole legal, seeded games; its rules
on constructed positions; the printer hides other hands; the encoder's vector is fixed, in [0, 1] and
a function of the view."""

from __future__ import annotations

import copy
from math import comb
from typing import Any

import numpy as np
import pytest

from bots.precinct.adapter import encoder
from bots.precinct.display import PrecinctPrinter
from bots.precinct.heuristic import PrecinctHeuristic
from solver.core import CHANCE, Action, Seat, State
from solver.core.referee import play_out
from solver.games.precinct import codec
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.view import PrecinctView

MAX_STEPS = 20_000


def team(game: PrecinctGame, seed: int) -> list[PrecinctHeuristic]:
    """A heuristic bot in every seat, each with its own seeded generator."""
    return [PrecinctHeuristic(game, s, np.random.default_rng([seed, s])) for s in range(game.num_players)]


def play(game: PrecinctGame, seed: int) -> tuple[State, list[float]]:
    """A whole seeded game of heuristic bots (each sees only its view); the state and step times."""
    bots = team(game, seed)
    times: list[float] = []

    def act(st: State, seat: Seat) -> Action:
        import time

        view = st.view(seat)
        start = time.perf_counter()
        action = bots[seat].step(view)
        times.append(time.perf_counter() - start)
        return action

    state = play_out(game.new_initial_state(), act, np.random.default_rng(seed), max_steps=MAX_STEPS)
    return state, times


@pytest.mark.parametrize("players,dirty", [(1, False), (2, False), (4, False), (4, True), (6, False),
                                           (6, True)])
def test_whole_games_are_legal_and_end(players: int, dirty: bool) -> None:
    for seed in range(2):
        game = PrecinctGame(players=players, dirty_cop=dirty)
        state, times = play(game, seed)  # play_out applies checked: an illegal move raises
        assert state.is_terminal(), f"{players} players, seed {seed}: not over after {MAX_STEPS} steps"
        assert state.returns() != [0.0] * players
        assert float(np.median(times)) < 0.005


def test_same_seed_same_game() -> None:
    game = PrecinctGame(players=4, dirty_cop=True)
    a, _ = play(game, 7)
    b, _ = play(game, 7)
    c, _ = play(game, 8)
    assert a.history == b.history
    assert a.history != c.history


# --- constructed positions ----------------------------------------------------------------------
def position(game: PrecinctGame, seed: int, want: str) -> PrecinctView:
    """The first view of a seeded heuristic game whose decision prompt contains ``want``."""
    bots = team(game, seed)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(MAX_STEPS):
        seat = state.current_player()
        if state.is_terminal():
            break
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            k = rng.choice(len(outcomes), p=[p for _, p in outcomes])
            state.apply(outcomes[k][0])
            continue
        view = state.view(seat)
        if want in view.decision.prompt:
            return view  # type: ignore[return-value]
        state.apply(bots[seat].step(view))
    raise AssertionError(f"no {want!r} decision in seed {seed}")


def edited(view: PrecinctView, data: dict[str, Any], legal: list[Action]) -> PrecinctView:
    """``view`` with its JSON replaced by ``data`` and its legal actions by ``legal``."""
    data = dict(data, legal_actions=[view.game.action_to_str(a) for a in legal])
    return PrecinctView(view.game, view.seat, data, tuple(legal), view.decision)


def best(game: PrecinctGame, view: PrecinctView) -> Action:
    return PrecinctHeuristic(game, view.seat, np.random.default_rng(0)).step(view)


def test_handles_the_urgent_emergency_it_stands_by() -> None:
    game = PrecinctGame(players=4)
    view = position(game, 1, ": one action")
    data = copy.deepcopy(view.to_json())
    me = next(i for i, c in enumerate(data["cops"]) if c["seat"] == view.seat)
    hall = game.city.buildings["City Hall"]
    data["cops"][me]["street"] = game.city.streets[hall]
    data["board"] = [{"slot": 3, "card": "Assault at City Hall", "where": "City Hall", "unknown": None,
                      "urgent": True, "data": 0}]
    legal = [codec.PROCEED + codec.NO_ACTION, codec.DRAW_ACTION, codec.HANDLE + 2]
    assert best(game, edited(view, data, legal)) == codec.HANDLE + 2
    # with nothing to handle the same position draws a card
    data["board"] = []
    assert best(game, edited(view, data, legal[:2])) == codec.DRAW_ACTION


def test_moves_to_the_urgent_emergency() -> None:
    game = PrecinctGame(players=4)
    view = position(game, 2, "moves the car")
    data = copy.deepcopy(view.to_json())
    hall = game.city.buildings["City Hall"]
    data["board"] = [{"slot": 1, "card": "Assault at City Hall", "where": "City Hall", "unknown": None,
                      "urgent": True, "data": 0}]
    data["punks"] = [0] * 6
    legal = list(view.legal_actions)
    if codec.MOVE + hall not in legal:
        pytest.skip("City Hall is out of reach in this position")
    assert best(game, edited(view, data, legal)) == codec.MOVE + hall


def investigation_claim(dirty: bool, drawn: int, found: int) -> tuple[PrecinctGame, PrecinctView]:
    """A claim decision after drawing ``drawn`` crime-scene cards holding ``found`` evidence."""
    game = PrecinctGame(players=4, dirty_cop=True)
    view = position(game, 3, ": one action")
    data = copy.deepcopy(view.to_json())
    me = next(i for i, c in enumerate(data["cops"]) if c["seat"] == view.seat)
    data["my_loyalty"] = "dirty" if dirty else "good"
    data["loyalty"] = [None] * game.num_players
    cards = [True] * found + [False] * (drawn - found)
    data["roll"] = {"kind": "investigate", "cop": me, "n": drawn, "deck": 0, "cards": cards}
    evidence, useless = game.content.decks[0]
    data["stacks"][0].update(size=evidence + useless - drawn, evidence=evidence - found, gone=False)
    data["placed"][0] = 0
    return game, edited(view, data, [codec.PLACE, codec.HIDE])


def test_a_good_cop_places_evidence() -> None:
    game, view = investigation_claim(dirty=False, drawn=2, found=1)
    assert best(game, view) == codec.PLACE


def test_a_dirty_cop_hides_only_a_plausible_empty_draw() -> None:
    evidence, useless = PrecinctGame(players=4).content.decks[0]
    size = evidence + useless
    for drawn in (2, 6):
        p_empty = comb(size - evidence, drawn) / comb(size, drawn)
        game, view = investigation_claim(dirty=True, drawn=drawn, found=1)
        want = codec.HIDE if p_empty >= 0.3 else codec.PLACE
        assert best(game, view) == want, (drawn, p_empty)
    # the threshold at work: two cards of 14 with 4 evidence are empty with chance 45/91
    game, view = investigation_claim(dirty=True, drawn=2, found=1)
    assert best(game, view) == codec.HIDE


def help_window(dirty: bool) -> tuple[PrecinctGame, PrecinctView]:
    """Another cop's emergency roll at poor odds; this seat holds three emergency-symbol cards."""
    game = PrecinctGame(players=4, dirty_cop=True)
    view = position(game, 4, ": one action")
    data = copy.deepcopy(view.to_json())
    me = next(i for i, c in enumerate(data["cops"]) if c["seat"] == view.seat)
    other = (me + 1) % game.num_players
    data["my_loyalty"] = "dirty" if dirty else "good"
    data["loyalty"] = [None] * game.num_players
    data["board"] = [{"slot": 1, "card": "Bank Robbery", "where": "Bank", "unknown": None, "urgent": True,
                      "data": 0}]
    data["roll"] = {"kind": "emergency", "cop": other, "n": 1, "slot": 0}
    data["cops"][me]["cards"] = 3
    data["hand"] = [{"cop": me, "card": "Tow Truck", "new": False}] * 3
    tow = game.police_names.index("Tow Truck")
    return game, edited(view, data, [codec.PROCEED, codec.HELP + tow])


def test_a_good_cop_helps_a_poor_roll_and_a_dirty_cop_does_not() -> None:
    game, view = help_window(dirty=False)
    assert best(game, view) != codec.PROCEED
    game, view = help_window(dirty=True)
    assert best(game, view) == codec.PROCEED


# --- the printer --------------------------------------------------------------------------------
def test_the_printer_shows_the_board_and_only_the_seats_own_hand() -> None:
    game = PrecinctGame(players=4)
    state = game.new_initial_state()
    bots = team(game, 5)
    state = play_out(state, lambda st, seat: bots[seat].step(st.view(seat)), np.random.default_rng(5),
                     max_steps=300)
    assert not state.is_terminal()
    seat = 0
    view = state.view(seat)
    printer = PrecinctPrinter(game, seats={seat})
    lines = printer.feed(state.events) + printer.describe_view(view)
    text = "\n".join(lines)
    mine = {game.police_names[k] for c in state.cops if c.seat == seat for k in c.hand}  # type: ignore[attr-defined]
    theirs = {game.police_names[k] for c in state.cops if c.seat != seat for k in c.hand} - mine  # type: ignore[attr-defined]
    assert theirs, "the other seats should hold some card this seat does not"
    hand_line = next(line for line in lines if line.startswith("  Your hand:"))
    for name in mine:
        assert name in hand_line
    for name in theirs:
        assert name not in hand_line
    drawn = [line for line in lines if "draws a police card" in line]
    assert any(f"(seat {seat})" in line and ":" in line.split("card")[-1] for line in drawn)
    for line in drawn:  # another seat's draw is seen only as a draw
        assert f"(seat {seat})" in line or line.rstrip().endswith("draws a police card"), line
    assert "Turn Track" in text and "Bad Hoods" in text and "Investigation stacks" in text
    spectator = PrecinctPrinter(game)
    assert any("draws a police card:" in line for line in spectator.feed(state.events))


# --- the encoder --------------------------------------------------------------------------------
def test_the_encoder_is_fixed_length_in_range_and_reads_only_the_view() -> None:
    game = PrecinctGame(players=4, dirty_cop=True)
    enc = encoder(game)
    bots = team(game, 6)
    seen = 0
    equal_pairs = 0
    rng = np.random.default_rng(6)

    def check(st: State, seat: Seat, action: Action) -> None:
        nonlocal seen, equal_pairs
        seen += 1
        for s in range(game.num_players):
            view = st.view(s)
            v = enc.encode(view)
            assert v.shape == (enc.size,) and v.dtype == np.float32
            assert float(v.min()) >= 0.0 and float(v.max()) <= 1.0
        if seen % 40 == 0 and not st.is_terminal():
            view = st.view(1)
            other = game.resample(view, rng)
            if other.view(1).to_json() == view.to_json():
                equal_pairs += 1
                assert np.array_equal(enc.encode(other.view(1)), enc.encode(view))

    play_out(game.new_initial_state(), lambda st, seat: bots[seat].step(st.view(seat)),
             np.random.default_rng(6), on_step=check, max_steps=3000)
    assert seen > 100
    assert equal_pairs > 0, "no resampled state had an equal view (an engine resample fault?)"


def test_the_encoder_sees_the_own_hand() -> None:
    game = PrecinctGame(players=4)
    view = position(game, 3, ": one action")
    data = copy.deepcopy(view.to_json())
    data["hand"] = [{"cop": 0, "card": "Air Support", "new": False}]
    a = encoder(game).encode(edited(view, data, list(view.legal_actions)))
    data["hand"] = [{"cop": 0, "card": "Backup", "new": False}]
    b = encoder(game).encode(edited(view, data, list(view.legal_actions)))
    assert not np.array_equal(a, b)
