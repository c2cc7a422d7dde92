"""The ``nw2012`` bot: documented parameters, legal seeded games, coalition reduction, move filtering."""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bots
from bots import registry
from bots.base import Bot
from bots.police07.nw2012 import (
    PARAMETERS,
    NW2012Bot,
    filtered_actions,
    format_value,
    in_danger,
    location_belief,
    markdown_table,
    nw_category_weights,
)
from solver import games
from solver._accel import load_ext
from solver.belief.categories import categories, detective_stops
from solver.core import ConfigError, State
from solver.core.rng import SplitMix64
from solver.games.police07 import codec
from solver.games.police07.board import Board
from solver.games.police07.locations import possible_locations
from solver.games.police07.rules import Police07Game, Police07State
from solver.games.police07.sim import P07Sim, SimTables, make_sim
from solver.games.police07.view import Police07View
from solver.search.ismcts import kernel_available
from tests.test_bots import play

DOC = Path(__file__).resolve().parent.parent / "docs" / "nw2012.md"


def police(**config: Any) -> Police07Game:
    """A Police 07 game with ``config``, typed as one."""
    game = games.load("police07", **config)
    assert isinstance(game, Police07Game)
    return game


GAME = police(players=3)
PREFIX = ["start 96", "start 192", "start 150", "start 78", "start 40", "taxi 80", "taxi 189", "taxi 146",
          "taxi 79", "taxi 49"]  # players=3; Dr. Factor's hidden 2nd move comes next


def police_state(actions: list[str], game: Police07Game = GAME) -> Police07State:
    state = game.new_initial_state()
    for text in actions:
        state.apply_str(text)
    return state


def nw(game: Police07Game, seat: int, rng: Any = 0, **options: Any) -> NW2012Bot:
    bot = NW2012Bot(game, seat, np.random.default_rng(rng), **options)
    return bot


def factor_positions(game: Police07Game, games_played: int, seed: int) -> list[Police07State]:
    """Dr. Factor's decisions from games of a random Dr. Factor against heuristic detectives."""
    rng = np.random.default_rng(seed)
    found = []
    for g in range(games_played):
        detectives = [bots.make(game, "heuristic", seat=s, rng=seed + g) for s in range(1, game.num_players)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            seat = state.current_player()
            view = state.view(seat)
            if seat == 0:
                found.append(state.clone())
                action = view.legal_actions[int(rng.integers(len(view.legal_actions)))]
            else:
                action = detectives[seat - 1].step(view)
            state.apply(action)
    return found


# --- the documented table ---------------------------------------------------------------------------
def test_doc_table_is_the_code_table() -> None:
    text = DOC.read_text()
    match = re.search(r"<!-- nw2012-parameters:begin -->\n(.*?)\n<!-- nw2012-parameters:end -->", text, re.S)
    assert match is not None, "docs/nw2012.md lost its parameter table markers"
    assert match.group(1) == markdown_table()
    rows = [line.split("|")[1:-1] for line in match.group(1).splitlines()[2:]]
    assert [(r[0].strip(" `"), r[1].strip(" `"), r[2].strip()) for r in rows] == [
        (p.name, format_value(p.value), p.origin) for p in PARAMETERS
    ]


def test_defaults_are_the_documented_parameters() -> None:
    bot = nw(GAME, 1)
    for p in PARAMETERS:
        assert bot.settings[p.name] == p.value, p.name
    by_name = {p.name: p.value for p in PARAMETERS}
    assert bot.params.c == by_name["c_detectives"] and bot.params.final == by_name["final"]
    assert bot.tables.coalition_r == by_name["coalition_r"]
    assert bot.tables.epsilon == by_name["epsilon_detectives"]
    assert bot.tables.epsilon_factor == by_name["epsilon_factor"]
    assert bot.tables.chase == "true" and bot.tables.filter_factor_moves
    assert bot.params.keys == by_name["tree_keys"] == "searcher"
    assert by_name["move_filter"] == "tree" and bot.tables.filter_tree
    assert bot.tables.joker_filter == "same_stop"
    factor = nw(GAME, 0)
    assert factor.params.c == by_name["c_factor"] and factor.tables.chase == by_name["factor_chase"]
    assert factor.tables.factor_keys == by_name["factor_keys"] == "path"  # an ordinary tree, until measured


@pytest.mark.parametrize(
    ("seat", "options", "check"),
    [
        (0, {"c_factor": 1.3}, lambda b: b.params.c == 1.3),
        (1, {"c_detectives": 0.25}, lambda b: b.params.c == 0.25),
        (1, {"epsilon_factor": 0.3, "epsilon_detectives": 0.3}, lambda b: b.tables.epsilon == 0.3),
        (0, {"epsilon_factor": 0.05}, lambda b: (b.tables.epsilon_factor, b.tables.epsilon) == (0.05, 0.1)),
        (1, {"epsilon_detectives": 0.4}, lambda b: (b.tables.epsilon_factor, b.tables.epsilon) == (0.1, 0.4)),
        (1, {"coalition_r": 0.4}, lambda b: b.tables.coalition_r == 0.4),
        (1, {"categorisation": "distance_type"}, lambda b: b.settings["categorisation"] == "distance_type"),
        (1, {"location_weights": "uniform"}, lambda b: b.settings["location_weights"] == "uniform"),
        (1, {"tree_keys": "actor"}, lambda b: b.params.keys == "actor"),
        (0, {"move_filter": "off"}, lambda b: not b.tables.filter_factor_moves and not b.tables.filter_tree),
        (0, {"move_filter": "playout"}, lambda b: b.tables.filter_factor_moves
         and b.tables.joker_filter == "same_stop" and not b.tables.filter_tree),
        (0, {"factor_chase": "belief"}, lambda b: b.tables.chase == "belief" and b.tables.track_possible),
        (0, {"factor_keys": "stop"}, lambda b: b.tables.factor_keys == "stop"),
        (1, {"factor_keys": "stop"}, lambda b: b.tables.factor_keys == "path"),  # his own search only
        (1, {"final": "value"}, lambda b: b.params.final == "value"),
        (1, {"iterations": 7}, lambda b: b.budget().iterations == 7),
        (1, {"seconds": 0.5}, lambda b: b.budget().seconds == 0.5),
    ],
)
def test_every_parameter_is_an_option(seat: int, options: dict[str, Any], check: Any) -> None:
    assert check(nw(GAME, seat, **options))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tree_keys": "separate"}, "'tree_keys' must be one of searcher, actor"),
        ({"move_filter": True}, "'move_filter' must be a str"),
        ({"coalition_r": 1.0}, "'coalition_r' must be in"),
        ({"c_factor": -1.0}, "'c_factor' must be in"),
        ({"c": 0.5}, "unknown option 'c'"),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        nw(GAME, 0, **options)


def test_unequal_epsilons_reach_the_simulator() -> None:
    for seat in (0, 1):
        tables = nw(GAME, seat, epsilon_factor=0.05, epsilon_detectives=0.2).tables
        assert (tables.epsilon_factor, tables.epsilon) == (0.05, 0.2)


def test_refuses_other_games() -> None:
    with pytest.raises(ConfigError, match="plays police07 only"):
        NW2012Bot(games.load("gcbc"), 0, np.random.default_rng(0))


def test_registered_for_police07() -> None:
    assert "nw2012" in bots.available("police07")  # importing bots.police07.nw2012 registered it
    assert isinstance(bots.make("police07", "nw2012", seat=1, rng=0, iterations=5), NW2012Bot)
    # a fresh process lists it: importing the game's bot package (its spec's) registers nw2012
    assert "nw2012" in registry.bots_for("police07")


def test_builds_without_warnings() -> None:
    # Every piece of the documented design is in the shared machinery: no fidelity warning is left.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for seat in range(GAME.num_players):
            nw(GAME, seat)


def test_faithful_build() -> None:
    factor, detective = nw(GAME, 0), nw(GAME, 1)
    assert factor.params.keys == detective.params.keys == "searcher"
    assert factor.tables.filter_tree and detective.tables.filter_tree
    state = police_state(PREFIX)
    view = state.view(0)
    result = factor.search(view)
    # the filter is in the tree: the root holds exactly the filtered actions, none dropped later
    assert [s.action for s in result.stats] == sorted(filtered_actions(GAME, view))
    assert sum(s.visits for s in result.stats) == result.iterations


def test_the_simulator_filters_as_the_bot(positions: list[Police07State]) -> None:
    # one rule in one place: the filter_tree simulators (both twins) list filtered_actions
    compiled = load_ext("p07sim")
    game = positions[0].game
    tables = SimTables.build(game, filter_tree=True, joker_filter="same_stop")
    differ = 0
    for state in positions:
        kept = list(filtered_actions(game, state.view(0)))
        differ += kept != state.legal_actions()
        assert P07Sim.from_state(state, tables).legal_actions() == kept
        if compiled is not None:
            assert compiled.P07Sim.from_state(state, tables).legal_actions() == kept
    assert differ > 0


# --- playing ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("config", "role"),
    [
        ({"players": 3}, "factor"),
        ({"players": 3}, "detectives"),
        ({"players": 5}, "factor"),
        ({"players": 5}, "detectives"),
        ({"players": 2}, "detectives"),
        ({"players": 4, "voluntary_show": True}, "factor"),
        ({"players": 4, "free_start": True}, "detectives"),
        ({"players": 4, "free_start": True}, "factor"),
    ],
)
def test_full_games_are_legal(config: dict[str, Any], role: str) -> None:
    game = police(**config)
    seeds = np.random.default_rng(11)
    lineup: list[Bot] = []
    for seat in range(game.num_players):
        if (seat == 0) == (role == "factor"):
            lineup.append(bots.make(game, "nw2012", seat=seat, rng=seeds, iterations=30))
        else:
            lineup.append(bots.make(game, "heuristic", seat=seat, rng=seeds))
    assert play(game, lineup, seed=2).is_terminal()  # play() checks every move is legal


def test_same_seed_same_game() -> None:
    def one_game() -> list[int]:
        lineup: list[Bot] = [nw(GAME, seat, rng=40 + seat, iterations=40) for seat in range(3)]
        state: State = play(GAME, lineup, seed=3)
        return list(state.history)

    assert one_game() == one_game()


def test_same_seed_same_moves_mid_game() -> None:
    view = police_state(PREFIX + ["taxi 87"]).view(1)
    a, b = nw(GAME, 1, rng=5, iterations=80), nw(GAME, 1, rng=5, iterations=80)
    assert [a.step(view) for _ in range(3)] == [b.step(view) for _ in range(3)]


def test_runs_on_the_compiled_engine_when_built() -> None:
    if not (kernel_available() and load_ext("p07sim") is not None):
        pytest.skip("compiled kernel or Police 07 simulator not built (or COPSOLVER_PUREPYTHON=1)")
    bot = nw(GAME, 1, iterations=20)
    assert bot.search(police_state(PREFIX + ["taxi 87"]).view(1)).engine == "compiled"


# --- coalition reduction ---------------------------------------------------------------------------
@pytest.mark.parametrize("r", [0.0, 0.1, 0.25])
def test_coalition_reduction_rewards(r: float) -> None:
    bot = nw(GAME, 1, coalition_r=r)
    state = police_state(PREFIX)
    captures = 0
    for seed in range(200):
        sim = make_sim(state, bot.tables)
        rewards = sim.playout(SplitMix64(seed))  # type: ignore[attr-defined]
        winner, capturer = sim.winner, sim.capturer  # type: ignore[attr-defined]
        if winner == 0:
            assert rewards == [1.0, 0.0, 0.0]
        elif capturer:
            captures += 1
            own = GAME.piece_seat[capturer]
            assert rewards[0] == 0.0 and rewards[own] == 1.0
            assert rewards[3 - own] == pytest.approx(1.0 - r)
        else:  # cornered: the coalition's win, nobody's capture
            assert rewards == [0.0, 1.0, 1.0]
    assert captures > 0


# --- location categorisation ---------------------------------------------------------------------
def test_nw_weights_are_hits_over_possible_stops() -> None:
    import json
    from importlib import resources

    data = json.loads(resources.files("solver.games.police07").joinpath("data/location_weights.json")
                      .read_text())["schemes"]["distance"]
    expected = [h / n for h, n in zip(data["hits"], data["possible_stops"], strict=True)]
    assert nw_category_weights("distance") == pytest.approx(expected)


def test_detectives_draw_weighted_possible_stops() -> None:
    view = police_state(PREFIX + ["taxi 87"]).view(1)
    data = view.to_json()
    possible = sorted(possible_locations(GAME, data))
    belief = location_belief(GAME, data, "nw")
    assert belief is not None and sorted(belief) == possible
    cats = categories(GAME.board, possible, detective_stops(data), "distance")
    table = nw_category_weights("distance")
    assert all(belief[s] == table[int(c)] for s, c in zip(possible, cats, strict=True))
    assert location_belief(GAME, data, "uniform") is None
    learnt = location_belief(GAME, data, "learnt")
    assert learnt is not None and sum(learnt.values()) == pytest.approx(1.0)
    det = nw(GAME, 1).determinizer(view)
    rng = SplitMix64(1)
    drawn = {det.sample(rng).snapshot()["pos"][0] for _ in range(200)}  # type: ignore[attr-defined]
    assert drawn <= set(possible) and len(drawn) > 1


# --- move filtering ------------------------------------------------------------------------------
def _bfs(board: Board, source: int) -> dict[int, int]:
    # Independent of the networkx tables: plain BFS over taxi, bus and metro links.
    dist = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        for line in range(3):
            for nxt in board.neighbours[line][here]:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
    return dist


@pytest.fixture(scope="module")
def positions() -> list[Police07State]:
    return factor_positions(police(players=4), 12, seed=0)


def test_filter_rules(positions: list[Police07State]) -> None:
    seen = {"joker dropped": 0, "joker kept": 0, "double kept": 0, "double dropped": 0}
    for state in positions:
        game = state.game
        view = state.view(0)
        legal, kept = view.legal_actions, filtered_actions(game, view)
        assert set(kept) <= set(legal) and kept == tuple(a for a in legal if a in kept)
        moves = [a for a in legal if codec.is_move(a)]
        decoded = {a: codec.decode_move(a) for a in moves}
        ordinary = {stop for a, (t, _, stop) in decoded.items() if t != codec.Ticket.JOKER}
        # every stop he can reach keeps a move
        assert {decoded[a][2] for a in moves} == {decoded[a][2] for a in kept if a in decoded}
        for a in moves:
            ticket, _, stop = decoded[a]
            if ticket == codec.Ticket.JOKER:
                assert (a in kept) == (stop not in ordinary)  # no joker where a ticket of his reaches
                seen["joker kept" if a in kept else "joker dropped"] += 1
            else:
                assert a in kept
        for a in legal:
            if not codec.is_move(a) and a != codec.DOUBLE:
                assert a in kept
        if codec.DOUBLE in legal:
            dets = [state.pos[p] for p in range(1, game.num_pieces)]
            tables = [_bfs(game.board, d) for d in dets]
            escape = max(min(t.get(decoded[a][2], 10**6) for t in tables) for a in moves)
            danger = escape <= 1
            assert in_danger(game, view.to_json(), moves) == danger
            assert (codec.DOUBLE in kept) == danger  # double only when every move ends next to one
            seen["double kept" if danger else "double dropped"] += 1
    assert all(seen.values()), seen  # the positions exercised every case


def test_detective_views_are_not_filtered(positions: list[Police07State]) -> None:
    state = police_state(PREFIX + ["taxi 87"])
    view = state.view(1)
    assert filtered_actions(GAME, view) == view.legal_actions


def test_the_bot_plays_only_filtered_moves(positions: list[Police07State]) -> None:
    game = positions[0].game
    bot = nw(game, 0, rng=3, iterations=30)
    for state in positions[::4]:
        view = state.view(0)
        assert bot.step(view) in filtered_actions(game, view)
    off = nw(game, 0, rng=3, iterations=30, move_filter="off")
    assert off.allowed(positions[0].view(0)) == positions[0].view(0).legal_actions


# --- advice -----------------------------------------------------------------------------------------
def test_advice_puts_filtered_moves_last(positions: list[Police07State]) -> None:
    state = next(s for s in positions if len(filtered_actions(s.game, s.view(0))) < len(s.legal_actions()))
    view = state.view(0)
    advice = nw(state.game, 0, rng=1).advise(view, 100)
    kept = set(filtered_actions(state.game, view))
    actions = [r.action for r in advice.ranked]
    assert sorted(actions) == sorted(view.legal_actions)
    flags = [a in kept for a in actions]
    assert flags == sorted(flags, reverse=True)  # every kept action before every filtered one
    assert all(r.reason.startswith("filtered out") for r in advice.ranked if r.action not in kept)
    assert advice.best.action in kept and "NW2012" in advice.summary


def test_detective_advice_shows_the_weighted_belief() -> None:
    view = police_state(PREFIX + ["taxi 87"]).view(1)
    assert isinstance(view, Police07View)
    advice = nw(GAME, 1, rng=0).advise(view, 60)
    probabilities = advice.belief["probabilities"]
    assert sorted(int(s) for s in probabilities) == advice.belief["possible_stops"]
    assert sum(probabilities.values()) == pytest.approx(1.0, abs=1e-3)
