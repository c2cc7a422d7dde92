"""The Police 07 simulators (``solver.games.police07.sim`` and its compiled twin ``ext/p07sim.pyx``)
against the rules, and against each other.

Differential runs: seeded games over every player count 2-6, every variant combination, uneven
piece splits and the 16-stop mini board of ``tests/test_police07_rules.py`` (dense, so captures,
cornering and passes are frequent). From the first state after set-up the rules, the pure sim and
the compiled sim are stepped in lockstep; at every step they must agree on the player to act, the
legal-action list (order included), the end, and the returns (the rules' winner mapped to search
rewards with coalition reduction); the two sims must agree on every field, both keys and every
SplitMix64 draw. Half the games are driven by uniformly random legal actions, half by the sims' own
playout policy (whose choices are checked against an independent reading of the policy when ε is
0). On a subset the tracked possible-location set is compared with
:func:`solver.games.police07.locations.possible_locations` of a detective's view at every step.

The compiled module is imported directly, so the comparison runs even under
``COPSOLVER_PUREPYTHON=1`` whenever it has been built; its tests skip, saying why, when it is not.
"""

from __future__ import annotations

import importlib
import json
import re
from collections import Counter
from dataclasses import replace
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import solver.games
from solver.core import TERMINAL, BadStateError, ConfigError
from solver.core.rng import SplitMix64
from solver.games.police07 import codec
from solver.games.police07.distances import detective_distances
from solver.games.police07.locations import possible_locations
from solver.games.police07.sim import (
    OVER,
    FactorKeys,
    P07Determinizer,
    P07Sim,
    SimTables,
    make_determinizer,
    make_sim,
    mix_key,
    playout,
    root_fields,
)
from tests.p07_bruteforce import REPRODUCER, FactorPaths
from tests.test_police07_rules import MINI_BOARD


def _import_compiled() -> ModuleType | None:
    try:
        return importlib.import_module("solver._ext.p07sim")
    except ImportError:
        return None


compiled = _import_compiled()
needs_compiled = pytest.mark.skipif(
    compiled is None,
    reason="solver._ext.p07sim is not built (pip install -e . needs Cython and a C compiler)",
)

VARIANTS = [
    {"voluntary_show": vs, "unlimited_tickets": ut, "free_start": fs}
    for vs in (False, True) for ut in (False, True) for fs in (False, True)
]
CONFIGS: list[dict[str, Any]] = [{"players": p, **v} for p in range(2, 7) for v in VARIANTS] + [
    {"players": 2, "pieces": [1]},
    {"players": 2, "pieces": [5], "voluntary_show": True},
    {"players": 3, "pieces": [1, 4]},
    {"players": 4, "pieces": [2, 1, 2], "voluntary_show": True, "unlimited_tickets": True},
]
MINI_CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "pieces": [1]},
    {"players": 3, **VARIANTS[3]},
    {"players": 4, "voluntary_show": True},
    {"players": 6, **VARIANTS[7]},
    {"players": 3, "pieces": [1, 2], "voluntary_show": True, "unlimited_tickets": True},
]
#: playout policies: (epsilon, chase, filter_factor_moves, coalition_r)
POLICIES = [(0.0, "true", True, 0.25), (0.0, "belief", False, 0.0), (0.3, "belief", True, 0.5),
            (1.0, "true", False, 0.1), (0.6, "true", True, 0.9)]
#: SimTables options with Nijssen & Winands' pieces: the filtered tree, the per-stop joker rule in
#: playouts, and Dr. Factor's own ε (greedy on one side while the other explores, and both mixed);
#: the last two also key Dr. Factor per stop (``factor_keys="stop"``).
NW_POLICIES: list[dict[str, Any]] = [
    {"epsilon": 0.0, "filter_tree": True, "joker_filter": "same_stop", "coalition_r": 0.1},
    {"epsilon": 0.0, "filter_tree": True, "chase": "belief"},
    {"epsilon": 1.0, "epsilon_factor": 0.0, "joker_filter": "same_stop", "coalition_r": 0.3},
    {"epsilon": 0.0, "epsilon_factor": 1.0, "filter_tree": True, "filter_factor_moves": False},
    {"epsilon": 0.3, "epsilon_factor": 0.6, "filter_tree": True, "joker_filter": "same_stop",
     "chase": "belief", "coalition_r": 0.5, "factor_keys": "stop"},
    {"epsilon": 0.2, "factor_keys": "stop"},
]


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("boards") / "mini.json"
    path.write_text(json.dumps(MINI_BOARD))
    return str(path)


def after_setup(game: Any, rng: np.random.Generator) -> Any:
    """A state just after set-up, the deal (or the free placements) drawn by ``rng``."""
    state = game.new_initial_state()
    while state.phase == 0:
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


def expected_returns(state: Any, r: float) -> list[float]:
    """The search rewards for the rules' ``state``, read from its winner and reason text."""
    n = state.game.num_players
    if not state.is_terminal():
        return [0.5] * n
    if state.winner == 0:
        return [1.0] + [0.0] * (n - 1)
    caught = re.match(r"detective (\d) caught", state.reason)
    if caught is None:  # cornered: the coalition's win, nobody's capture
        return [0.0] + [1.0] * (n - 1)
    own = state.game.piece_seat[int(caught.group(1))]
    return [0.0] + [1.0 if seat == own else 1.0 - r for seat in range(1, n)]


def nearest_detective(state: Any) -> Any:
    """The detective distance from a stop to the nearest detective piece of the rules' ``state``."""
    dist = detective_distances(state.game.board)
    return lambda stop: min(int(dist[state.pos[p], stop]) for p in range(1, state.game.num_pieces))


def expected_legal(state: Any, tables: SimTables) -> list[int]:
    """The legal actions a simulator with ``tables`` lists: the rules', and with ``filter_tree`` Dr.
    Factor's filtered by NW's rule, read here independently of the simulator's code."""
    legal = state.legal_actions()
    if not tables.filter_tree or state.current_player() != 0:
        return legal
    moves = {a: codec.decode_move(a) for a in legal if codec.is_move(a)}
    ordinary = {stop for ticket, _, stop in moves.values() if ticket != codec.Ticket.JOKER}
    nearest = nearest_detective(state)
    danger = bool(moves) and max(nearest(stop) for _, _, stop in moves.values()) <= 1
    return [a for a in legal
            if not (a in moves and moves[a][0] == codec.Ticket.JOKER and moves[a][2] in ordinary)
            and (a != codec.DOUBLE or danger)]


def check_policy(state: Any, tables: SimTables, action: int, legal: list[int]) -> None:
    """``action`` is a choice the greedy policy (ε = 0) may make in the rules' ``state`` among the
    simulator's ``legal`` actions."""
    assert action in legal
    if len(legal) == 1:
        return
    dist = detective_distances(state.game.board)
    pieces = range(1, state.game.num_pieces)
    if state.current_player() != 0:
        if tables.chase == "true":
            targets = [state.pos[0]]
        else:
            targets = sorted(possible_locations(state.game, state.view(1).to_json()))
        assert any(dist[t, action % 256] == min(dist[t, a % 256] for a in legal) for t in targets)
        return
    if state.take_queue:
        held = state.tickets[state.take_queue[0]][:3]
        best = min(n for n in held if n > 0)
        assert action == codec.TAKE_BASE + state.take_queue[0] * 4 + max(
            k for k in range(3) if held[k] == best)
        return
    assert action != codec.SHOW
    moves = [a for a in legal if codec.is_move(a)]
    if tables.filter_factor_moves and tables.joker_filter == "same_stop":
        ordinary = {a % 256 for a in moves if a < 3 * 256}
        moves = [a for a in moves if a < 3 * 256 or a % 256 not in ordinary]
    elif tables.filter_factor_moves and any(a < 3 * 256 for a in moves):
        moves = [a for a in moves if a < 3 * 256]

    def nearest(stop: int) -> int:
        return min(int(dist[state.pos[p], stop]) for p in pieces)

    best = max(nearest(a % 256) for a in moves)
    if codec.DOUBLE in legal and best <= 1:
        assert action == codec.DOUBLE
    else:
        assert action in moves and nearest(action % 256) == best


def lockstep(game: Any, tables: SimTables, seed: int, by_policy: bool, check_sets: bool) -> Counter[str]:
    """Run one game through the rules and both sims; return how it ended (and, with
    ``filter_tree``, how often the filter dropped a joker move or double, or kept double)."""
    rng = np.random.default_rng(seed)
    state = after_setup(game, rng)
    pure = P07Sim.from_state(state, tables)
    comp = compiled.P07Sim.from_state(state, tables) if compiled is not None else None
    r_pure, r_comp = SplitMix64(seed), SplitMix64(seed)
    n = game.num_players
    steps = 0
    filtered: Counter[str] = Counter()
    while True:
        player = state.current_player()
        legal = expected_legal(state, tables)
        if tables.filter_tree and player == 0:
            dropped = set(state.legal_actions()) - set(legal)
            filtered["joker dropped"] += any(codec.is_move(a) for a in dropped)
            filtered["double dropped"] += codec.DOUBLE in dropped
            filtered["double kept"] += codec.DOUBLE in legal
        where = f"{game.config()} seed {seed} step {steps}"
        assert pure.current_player() == player, where
        assert pure.legal_actions() == legal, where
        assert pure.is_terminal() == state.is_terminal(), where
        assert pure.returns() == expected_returns(state, tables.coalition_r), where
        if comp is not None:
            assert comp.snapshot() == pure.snapshot(), where
            assert comp.current_player() == player and comp.legal_actions() == legal, where
            assert comp.is_terminal() == state.is_terminal(), where
            assert comp.returns() == pure.returns(), where
            assert [comp.key(s) for s in range(n)] == [pure.key(s) for s in range(n)], where
        if check_sets:
            assert pure.possible_locations() == possible_locations(game, state.view(1).to_json()), where
        if player == TERMINAL:
            return Counter([state.reason.split(":")[0].split(" at ")[0]]) + filtered
        if by_policy:
            action = pure.default_action(r_pure)
            if comp is not None:
                assert comp.default_action(r_comp) == action, where
                assert r_comp.state == r_pure.state, where
            if (tables.epsilon_factor if player == 0 else tables.epsilon) == 0.0:
                check_policy(state, tables, action, legal)
        else:
            action = legal[int(rng.integers(len(legal)))]
        state.apply(action)  # checked: the policy's choice must be legal
        pure.apply(action)
        if comp is not None:
            comp.apply(action)
        steps += 1


def run_games(configs: list[dict[str, Any]], games_per_config: int, board: str | None = None,
              set_every: int = 10, policies: list[dict[str, Any]] | None = None) -> Counter[str]:
    ends: Counter[str] = Counter()
    if policies is None:
        policies = [{"epsilon": eps, "chase": chase, "filter_factor_moves": filt, "coalition_r": r}
                    for eps, chase, filt, r in POLICIES]
    for c, options in enumerate(configs):
        game = solver.games.load("police07", **options, **({"board": board} if board else {}))
        for g in range(games_per_config):
            tables = SimTables.build(game, **policies[(c + g) % len(policies)])
            seed = 1000 * c + g
            ends += lockstep(game, tables, seed, by_policy=g % 2 == 1, check_sets=g % set_every == 0)
    return ends


def test_lockstep_with_the_rules_budapest() -> None:
    ends = run_games(CONFIGS, 40)
    # every way a game can end occurs
    assert ends["Dr. Factor was not caught by the end of move 24"] > 0, ends
    assert any(k.startswith("detective") for k in ends), ends
    assert ends["Dr. Factor is cornered"] > 0, ends


def test_lockstep_with_the_rules_mini_board(mini: str) -> None:
    ends = run_games(MINI_CONFIGS, 200, board=mini, set_every=5)
    assert ends["no detective can move any more"] > 0, ends
    assert ends["Dr. Factor is cornered"] > 0, ends


@pytest.mark.slow
def test_lockstep_with_the_rules_many_games(mini: str) -> None:
    run_games(CONFIGS, 400, set_every=50)
    run_games(MINI_CONFIGS, 2000, board=mini, set_every=50)
    run_games(CONFIGS, 100, set_every=50, policies=NW_POLICIES)
    run_games(MINI_CONFIGS, 500, board=mini, set_every=50, policies=NW_POLICIES)


def test_lockstep_nw_options_budapest() -> None:
    # filter_tree: both twins list exactly the NW-filtered rules' actions; the playouts follow the
    # per-stop joker rule and each side's own ε (check_policy wherever that side's ε is 0).
    ends = run_games(CONFIGS[::2], 12, policies=NW_POLICIES)
    assert ends["joker dropped"] and ends["double dropped"] and ends["double kept"], ends
    assert any(k.startswith("detective") for k in ends), ends


def test_lockstep_nw_options_mini_board(mini: str) -> None:
    ends = run_games(MINI_CONFIGS, 60, board=mini, set_every=5, policies=NW_POLICIES)
    assert ends["Dr. Factor is cornered"] > 0, ends


# --- loading -------------------------------------------------------------------------------------


#: Games where the public set must lose stops Dr. Factor would be cornered at (issue 19): Budapest's
#: reproducer (133 at his turn start, both its neighbours held) and a mini-board double under the
#: voluntary show (hidden, his turn start is not checked, but a double needs a first move).
CORNERED_GAMES = [
    ("budapest", {"players": 4}, list(REPRODUCER)),
    ("mini", {"players": 3, "pieces": [1, 2], "voluntary_show": True},
     ["start 16", "start 15", "start 13", "start 12", "double", "taxi 6", "taxi 5", "taxi 6", "taxi 14",
      "bus 11", "double"]),
]


@pytest.mark.parametrize(("board", "options", "actions"), CORNERED_GAMES, ids=["budapest", "mini-double"])
def test_public_set_drops_cornered_stops(mini: str, board: str, options: dict[str, Any],
                                         actions: list[Any]) -> None:
    """Both twins' public set equals the rules-engine brute force at every step of these games."""
    game = solver.games.load("police07", board=mini if board == "mini" else board, **options)
    state = game.new_initial_state()
    moves = [a if isinstance(a, int) else game.str_to_action(a) for a in actions]
    while state.phase == 0:
        state.apply(moves.pop(0))
    tables = SimTables.build(game)
    sims = [P07Sim.from_state(state, tables)]
    if compiled is not None:
        sims.append(compiled.P07Sim.from_state(state, tables))
    paths = FactorPaths(game)
    dropped = False
    for action in moves:
        before = set(sims[0].possible_locations())
        state.apply(action)
        for sim in sims:
            sim.apply(action)
        data = state.view(1).to_json()
        paths.feed(data["history"])
        expected = paths.stops(1, data)
        assert [sim.possible_locations() for sim in sims] == [expected] * len(sims), state.to_json()
        dropped |= action == codec.DOUBLE and expected < before
    assert state.current_player() == 0 and not state.is_terminal()
    assert dropped or board == "budapest"


def test_setup_states_are_rejected() -> None:
    game = solver.games.load("police07", players=3)
    tables = SimTables.build(game)
    state = game.new_initial_state()
    with pytest.raises(BadStateError, match="set-up is not over"):
        P07Sim.from_state(state, tables)
    if compiled is not None:
        with pytest.raises(BadStateError, match="set-up is not over"):
            compiled.P07Sim.from_state(state, tables)


def test_a_state_of_another_game_is_rejected() -> None:
    state = after_setup(solver.games.load("police07", players=3), np.random.default_rng(0))
    tables = SimTables.build(solver.games.load("police07", players=4))
    with pytest.raises(BadStateError, match="is not the tables'"):
        P07Sim.from_state(state, tables)


def test_a_finished_game_loads_as_terminal() -> None:
    game = solver.games.load("police07", players=6)
    tables = SimTables.build(game, coalition_r=0.5)
    for seed in range(200):
        rng = np.random.default_rng(seed)
        state = after_setup(game, rng)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        sim = P07Sim.from_state(state, tables)
        assert sim.is_terminal() and sim.legal_actions() == []
        assert sim.returns() == expected_returns(state, 0.5)
        assert sim.possible_locations() == {state.pos[0]}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"epsilon": 1.5}, "epsilon must be in"),
        ({"epsilon": float("nan")}, "epsilon must be in"),
        ({"coalition_r": 1.0}, "coalition_r must be in"),
        ({"coalition_r": -0.1}, "coalition_r must be in"),
        ({"chase": "psychic"}, "chase must be"),
        ({"filter_factor_moves": 1}, "filter_factor_moves must be"),
        ({"max_depth": -1}, "max_depth must be"),
        ({"max_depth": True}, "max_depth must be"),
        ({"chase": "belief", "track_possible": False}, "track_possible must be on"),
        ({"epsilon_factor": 1.5}, "epsilon_factor must be None or in"),
        ({"epsilon_factor": True}, "epsilon_factor must be None or in"),
        ({"epsilon_factor": "low"}, "epsilon_factor must be None or in"),
        ({"joker_filter": "none"}, "joker_filter must be 'all' or 'same_stop'"),
        ({"filter_tree": 1}, "filter_tree must be true or false"),
        ({"factor_keys": "actor"}, "factor_keys must be 'path' or 'stop'"),
    ],
)
def test_bad_tables_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SimTables.build(solver.games.load("police07"), **options)


def test_tables_are_cached_and_per_searcher() -> None:
    game = solver.games.load("police07", players=4)
    assert SimTables.build(game, epsilon=0.2) is SimTables.build(solver.games.load("police07", players=4),
                                                                 epsilon=0.2)
    # epsilon_factor defaults to epsilon: the same tables as when it is spelt out
    assert SimTables.build(game, epsilon=0.2) is SimTables.build(game, epsilon=0.2, epsilon_factor=0.2)
    assert SimTables.build(game, epsilon=0.2).epsilon_factor == 0.2
    split = SimTables.build(game, epsilon=0.2, epsilon_factor=0.7)
    assert (split.epsilon, split.epsilon_factor) == (0.2, 0.7)
    default = SimTables.build(game)
    assert (default.joker_filter, default.filter_tree) == ("all", False)
    assert SimTables.for_searcher(game, 0).chase == "belief"
    assert SimTables.for_searcher(game, 2).chase == "true"


def test_a_board_too_dense_for_the_action_buffers(tmp_path: Any) -> None:
    hub = [[1, s] for s in range(2, 256)]
    board = {"format": "copsolver-police07-board/1", "name": "star", "stops": 255,
             "links": {"taxi": hub, "bus": hub}, "start_stops": list(range(2, 12))}
    path = tmp_path / "star.json"
    path.write_text(json.dumps(board))
    with pytest.raises(ConfigError, match="more than 512"):
        SimTables.build(solver.games.load("police07", board=str(path)))


# --- rewards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pieces", "winner", "capturer", "r", "expected"),
    [
        # Dr. Factor wins: 1 for him, 0 for every detective seat, whatever r
        ((1, 1, 1), 0, 0, 0.25, [1.0, 0.0, 0.0, 0.0]),
        # piece 2 (seat 2) catches him: 1 for seat 2, 1 - r for the other detective seats
        ((1, 1, 1), 1, 2, 0.25, [0.0, 0.75, 1.0, 0.75]),
        ((1, 1, 1), 1, 2, 0.0, [0.0, 1.0, 1.0, 1.0]),
        # two pieces per seat: piece 3 belongs to seat 2
        ((2, 2), 1, 3, 0.5, [0.0, 0.5, 1.0]),
        ((2, 2), 1, 2, 0.5, [0.0, 1.0, 0.5]),
        # cornered: nobody's capture, the whole coalition's win
        ((1, 1, 1, 1, 1), 1, 0, 0.9, [0.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
        # lone detective seat: coalition reduction never applies
        ((4,), 1, 3, 0.5, [0.0, 1.0]),
        # undecided (a playout cut short)
        ((1, 1), -1, 0, 0.5, [0.5, 0.5, 0.5]),
    ],
)
def test_coalition_reduction(pieces: tuple[int, ...], winner: int, capturer: int, r: float,
                             expected: list[float]) -> None:
    game = solver.games.load("police07", players=len(pieces) + 1, pieces=list(pieces))
    tables = SimTables.build(game, coalition_r=r)
    state = after_setup(game, np.random.default_rng(0))
    fields = replace(root_fields(state, tables), winner=winner, capturer=capturer,
                     phase=OVER if winner >= 0 else state.phase)
    assert P07Sim.from_fields(fields, tables).returns() == expected
    if compiled is not None:
        assert compiled.P07Sim.from_fields(fields, tables).returns() == expected


# --- keys -------------------------------------------------------------------------------------------


def test_mix_key_is_the_splitmix_output() -> None:
    for key, code in [(0, 0), (1, 2), (2**64 - 1, 12345), (0xDEADBEEF, 4 << 16)]:
        assert mix_key(key, code) == SplitMix64(key ^ code).next()
        assert 0 <= mix_key(key, code) < 2**64


def rooted_pairs(game: Any, seed: int) -> tuple[Any, Any, list[int], list[int], int]:
    """Two histories whose detective views agree at every step from a common root on: a random
    game A and a resample B of a detective's view of A's end. Returns the two root states, the
    actions after the root of each, and the root index."""
    rng = np.random.default_rng(seed)
    a = after_setup(game, rng)
    start = len(a.history)
    target = start + int(rng.integers(5, 80))
    while not a.is_terminal() and len(a.history) < target:
        legal = a.legal_actions()
        a.apply(legal[int(rng.integers(len(legal)))])
    if a.is_terminal():  # the end shows Dr. Factor: step back one action to keep him hidden
        a = game.state_from_json({"actions": [game.action_to_str(x) for x in a.history[:-1]]})
    b = game.resample(a.view(1), rng)
    root = start + int(rng.integers(0, len(a.history) - start + 1))
    replay = [a.history[:root], b.history[:root]]
    roots = []
    for actions in replay:
        state = game.new_initial_state()
        for x in actions:
            state.apply(x)
        roots.append(state)
    return roots[0], roots[1], a.history[root:], b.history[root:], root


def twin_sims(state: Any, tables: SimTables) -> list[Any]:
    """Simulators of ``state``: the pure one, and the compiled one when built."""
    sims: list[Any] = [P07Sim.from_state(state, tables)]
    if compiled is not None:
        sims.append(compiled.P07Sim.from_state(state, tables))
    return sims


@pytest.mark.parametrize("players", [2, 3, 6])
def test_equal_detective_views_give_equal_keys(players: int) -> None:
    game = solver.games.load("police07", players=players, voluntary_show=True)
    tables = SimTables.build(game)
    differ = 0
    for seed in range(60):
        root_a, root_b, rest_a, rest_b, _ = rooted_pairs(game, seed)
        # pure A, pure B, then compiled A, compiled B: sim k follows history k % 2
        twins = zip(twin_sims(root_a, tables), twin_sims(root_b, tables), strict=True)
        sims = [sim for pair in twins for sim in pair]
        states = [root_a.clone(), root_b.clone()]
        for i in range(len(rest_a) + 1):
            assert states[0].view(1) == states[1].view(1)
            for seat in range(1, players):
                assert len({sim.key(seat) for sim in sims}) == 1
            if states[0].pos[0] != states[1].pos[0]:
                differ += 1
                assert sims[0].key(0) != sims[1].key(0)
            if i < len(rest_a):
                for k, sim in enumerate(sims):
                    sim.apply((rest_a, rest_b)[k % 2][i])
                states[0].apply(rest_a[i])
                states[1].apply(rest_b[i])
    assert differ > 0  # the test saw Dr. Factor at different stops behind equal views


def test_equal_factor_views_give_equal_keys() -> None:
    game = solver.games.load("police07", players=4)
    tables = SimTables.build(game)
    for seed in range(30):
        root_a, _, rest_a, _, _ = rooted_pairs(game, seed)
        again = game.resample(root_a.view(0), np.random.default_rng(seed))
        sims = [P07Sim.from_state(root_a, tables), P07Sim.from_state(again, tables)]
        for action in rest_a:
            for sim in sims:
                sim.apply(action)
            assert sims[0].key(0) == sims[1].key(0)
            assert sims[0].key(1) == sims[1].key(1)


@pytest.mark.parametrize(("players", "factor_keys"), [(2, "path"), (4, "path"), (6, "path"), (4, "stop")])
def test_root_keys_agree_across_twins(players: int, factor_keys: FactorKeys) -> None:
    # Sims rooted at the same position have one key per seat on both twins, the detectives one
    # between them, at positions all through random games (voluntary shows included).
    game = solver.games.load("police07", players=players, voluntary_show=True)
    tables = SimTables.build(game, factor_keys=factor_keys)
    checked = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        state = after_setup(game, rng)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
            if state.is_terminal() or rng.random() > 0.3:
                continue
            fresh = twin_sims(state, tables)
            assert len({sim.key(seat) for sim in fresh for seat in range(1, players)}) == 1, seed
            assert len({sim.key(0) for sim in fresh}) == 1
            checked += 1
    assert checked > 100


def test_keys_track_whose_information_set() -> None:
    game = solver.games.load("police07", players=3)
    tables = SimTables.build(game)
    sim = P07Sim.from_state(after_setup(game, np.random.default_rng(3)), tables)
    seen_public, seen_factor = {sim.key(1)}, {sim.key(0)}
    rng = SplitMix64(3)
    while not sim.is_terminal():
        sim.apply(sim.default_action(rng))
        seen_public.add(sim.key(1))
        seen_factor.add(sim.key(0))
        assert sim.key(1) == sim.key(2)  # detectives share the public key
    # every action changes both keys (no collisions along one game)
    assert len(seen_factor) == len(seen_public) > 20


# --- determinizers ------------------------------------------------------------------------------------


def mid_game(game: Any, seed: int, factor_moves: int) -> Any:
    """A detective's decision after Dr. Factor's ``factor_moves``-th move."""
    rng = np.random.default_rng(seed)
    while True:
        state = after_setup(game, rng)
        while not state.is_terminal():
            if state.current_player() > 0 and len(state.log) >= factor_moves:
                return state
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("weighted", [False, True])
def test_determinizer_samples_match_resampled_states(weighted: bool) -> None:
    game = solver.games.load("police07", players=4, voluntary_show=True)
    tables = SimTables.build(game, chase="belief")
    for seed in range(6):
        state = mid_game(game, seed, factor_moves=6 + seed)
        seat = state.current_player()
        view = state.view(seat)
        stops = sorted(possible_locations(game, view.to_json()))
        belief = {s: float(i % 3) for i, s in enumerate(stops)} if weighted else None
        det = P07Determinizer(game, view, tables, belief)
        rng = SplitMix64(seed)
        drawn: Counter[int] = Counter()
        for _ in range(300 if len(stops) > 1 else 5):
            sim = det.sample(rng)
            stop = sim.pos[0]
            drawn[stop] += 1
            # the same state the rules' resampler builds with all belief on that stop
            exact = P07Sim.from_state(game.resample(view, np.random.default_rng(0), {stop: 1.0}), tables)
            assert sim.snapshot() == exact.snapshot()
            assert tuple(sim.legal_actions()) == view.legal_actions
        allowed = {s for s in stops if belief is None or belief[s] > 0} or set(stops)
        assert set(drawn) <= allowed
        if len(allowed) <= 10:
            assert set(drawn) == allowed


def test_factor_determinizer_is_the_real_state_and_draws_nothing() -> None:
    game = solver.games.load("police07", players=3)
    tables = SimTables.build(game)
    state = mid_game(game, 1, factor_moves=5)
    while state.current_player() != 0:
        state.apply(state.legal_actions()[0])
    det = P07Determinizer(game, state.view(0), tables)
    rng = SplitMix64(9)
    assert det.sample(rng).snapshot() == P07Sim.from_state(state, tables).snapshot()
    assert rng.state == SplitMix64(9).state


def test_detective_key_does_not_depend_on_where_factor_is() -> None:
    game = solver.games.load("police07", players=5)
    tables = SimTables.build(game)
    state = mid_game(game, 4, factor_moves=6)
    det = P07Determinizer(game, state.view(state.current_player()), tables)
    rng = SplitMix64(1)
    sims = [det.sample(rng) for _ in range(50)]
    assert len({s.pos[0] for s in sims}) > 1
    assert len({s.key(1) for s in sims}) == 1
    by_stop = {s.pos[0]: s.key(0) for s in sims}
    assert len(set(by_stop.values())) == len(by_stop)


# --- playout policy -------------------------------------------------------------------------------------


def test_playout_respects_max_depth() -> None:
    game = solver.games.load("police07", players=4)
    tables = SimTables.build(game, max_depth=5)
    sim = P07Sim.from_state(after_setup(game, np.random.default_rng(0)), tables)
    assert sim.copy().playout(SplitMix64(0)) == [0.5] * 4
    assert playout(sim.copy(), SplitMix64(0), max_depth=5) == [0.5] * 4
    done = sim.copy()
    result = done.playout(SplitMix64(0), max_depth=0)  # 0: no limit
    assert done.is_terminal() and result[0] in (0.0, 1.0)


def test_random_policy_covers_every_candidate() -> None:
    game = solver.games.load("police07", players=3, voluntary_show=True)
    tables = SimTables.build(game, epsilon=1.0, filter_factor_moves=False)
    for seed in range(10):
        sim = P07Sim.from_state(mid_game(game, seed, 4), tables)
        rng = SplitMix64(seed)
        while not sim.is_terminal():
            legal = sim.legal_actions()
            if len(legal) <= 12 and not (sim.current_player() == 0 and sim.take_queue):
                drawn = {sim.default_action(rng) for _ in range(300)}
                assert drawn == set(legal) - ({codec.SHOW} if len(legal) > 1 else set())
            sim.apply(sim.default_action(rng))


def factor_candidates(sim: P07Sim, joker_filter: str) -> set[int]:
    """Dr. Factor's playout candidates with filter_factor_moves, read from the policy's text."""
    legal = sim.legal_actions()
    moves = [a for a in legal if codec.is_move(a)]
    ordinary = {a % 256 for a in moves if a < 3 * 256}
    if joker_filter == "same_stop":
        moves = [a for a in moves if a < 3 * 256 or a % 256 not in ordinary]
    elif ordinary:
        moves = [a for a in moves if a < 3 * 256]
    dist = detective_distances(sim.t.game.board)
    nearest = [min(int(dist[sim.pos[p], a % 256]) for p in range(1, sim.t.num_pieces)) for a in moves]
    danger = codec.DOUBLE in legal and max(nearest) <= 1
    return set(moves) | ({codec.DOUBLE} if danger else set())


@pytest.mark.parametrize("joker_filter", ["all", "same_stop"])
def test_factor_epsilon_is_his_own(joker_filter: str) -> None:
    # epsilon_factor 1, epsilon 0: Dr. Factor draws uniformly among his filtered candidates while
    # the detectives stay greedy, stepping to a stop nearest his.
    game = solver.games.load("police07", players=3)
    tables = SimTables.build(game, epsilon=0.0, epsilon_factor=1.0, joker_filter=joker_filter)
    dist = detective_distances(game.board)
    covered = 0
    for seed in range(4):
        sim = P07Sim.from_state(mid_game(game, seed, 3), tables)
        rng = SplitMix64(seed)
        while not sim.is_terminal():
            legal = sim.legal_actions()
            if sim.current_player() == 0 and not sim.take_queue and len(legal) > 1:
                expected = factor_candidates(sim, joker_filter)
                if len(expected) <= 20:
                    assert {sim.default_action(rng) for _ in range(500)} == expected
                    covered += 1
            elif sim.current_player() > 0:
                best = min(int(dist[sim.pos[0], a % 256]) for a in legal)
                for _ in range(5):
                    assert int(dist[sim.pos[0], sim.default_action(rng) % 256]) == best
            sim.apply(sim.default_action(rng))
    assert covered > 10


def test_track_possible_off_changes_nothing_else() -> None:
    game = solver.games.load("police07", players=4, voluntary_show=True)
    on = SimTables.build(game, epsilon=0.5)
    off = SimTables.build(game, epsilon=0.5, track_possible=False)
    for seed in range(20):
        state = after_setup(game, np.random.default_rng(seed))
        a, b = P07Sim.from_state(state, on), P07Sim.from_state(state, off)
        ra, rb = SplitMix64(seed), SplitMix64(seed)
        assert a.playout(ra) == b.playout(rb) and ra.state == rb.state
        snap_a, snap_b = a.snapshot(), b.snapshot()
        assert snap_b.pop("possible") == 0
        snap_a.pop("possible")
        assert snap_a == snap_b
        with pytest.raises(ConfigError, match="track_possible=False"):
            b.possible_locations()


# --- the compiled twin --------------------------------------------------------------------------------


@needs_compiled
@pytest.mark.parametrize(
    "policy",
    [{"epsilon": eps, "chase": chase, "filter_factor_moves": filt, "coalition_r": r}
     for eps, chase, filt, r in POLICIES] + NW_POLICIES,
)
def test_compiled_playouts_equal_pure(policy: dict[str, Any]) -> None:
    for options in CONFIGS[::3]:
        game = solver.games.load("police07", **options)
        tables = SimTables.build(game, **policy)
        for seed in range(4):
            state = after_setup(game, np.random.default_rng(seed))
            pure, comp = P07Sim.from_state(state, tables), compiled.P07Sim.from_state(state, tables)
            rp, rc = SplitMix64(seed), SplitMix64(seed)
            assert comp.playout(rc) == pure.playout(rp)
            assert rc.state == rp.state
            assert comp.snapshot() == pure.snapshot()
            # a copy is independent of its source
            twin = comp.copy()
            assert twin.snapshot() == comp.snapshot()


@needs_compiled
def test_compiled_sim_cannot_be_built_without_tables() -> None:
    with pytest.raises(TypeError, match="from_state"):
        compiled.P07Sim()


@needs_compiled
@pytest.mark.parametrize("weighted", [False, True])
def test_compiled_determinizer_equals_pure(weighted: bool) -> None:
    for players in (2, 4, 6):
        game = solver.games.load("police07", players=players, voluntary_show=True)
        tables = SimTables.build(game, chase="belief")
        for seed in range(4):
            state = mid_game(game, seed, 3 + 3 * seed)
            for seat in (0, state.current_player()):
                view = state.view(seat)
                stops = sorted(possible_locations(game, view.to_json()))
                belief = {s: 1.0 + (s % 4) for s in stops[::2]} if weighted else None
                pure = P07Determinizer(game, view, tables, belief)
                comp = compiled.P07Determinizer(game, view, tables, belief)
                rp, rc = SplitMix64(seed), SplitMix64(seed)
                for _ in range(40):
                    a, b = pure.sample(rp), comp.sample(rc)
                    assert a.snapshot() == b.snapshot()
                    assert rp.state == rc.state
                    assert a.playout(rp) == b.playout(rc)


@needs_compiled
def test_selectors_pick_the_compiled_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    from solver import _accel

    game = solver.games.load("police07", players=3)
    tables = SimTables.build(game)
    state = mid_game(game, 0, 3)
    if _accel.PURE_REQUESTED:
        assert isinstance(make_sim(state, tables), P07Sim)
        assert isinstance(make_determinizer(game, state.view(1), tables), P07Determinizer)
    else:
        assert isinstance(make_sim(state, tables), compiled.P07Sim)
        assert isinstance(make_determinizer(game, state.view(1), tables), compiled.P07Determinizer)
    monkeypatch.setattr("solver.games.police07.sim.load_ext", lambda name: None)
    assert isinstance(make_sim(state, tables), P07Sim)
    assert isinstance(make_determinizer(game, state.view(1), tables), P07Determinizer)
