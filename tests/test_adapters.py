"""The OpenSpiel and PettingZoo adapters, and the per-game adapter specs behind both.

The spec tests need only numpy and always run. The OpenSpiel tests need the ``openspiel`` extra and
the PettingZoo tests the ``pettingzoo`` extra; without them each test is skipped and says what to
install. With them, the ecosystems' own conformance tests run on our games: OpenSpiel's
``random_sim_test`` (clone, serialize, legal-action masks, chance outcomes, returns, bounds) and
PettingZoo's ``api_test`` and ``seed_test``. This file holds Police 07's cases in depth;
``test_adapters_games.py`` runs the suites on every registered game.
"""

from __future__ import annotations

import copy
import importlib
import json
import os
import pickle
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import solver.games
from bots.adapters.specs import spec_for
from solver.core import BadStateError, ConfigError, Game, IllegalActionError, State
from solver.games.police07.codec import REVEALED_MOVES
from tests.test_police07_rules import MINI_BOARD

OPENSPIEL_MISSING = "OpenSpiel is not installed (pip install 'copsolver[openspiel]')"
PETTINGZOO_MISSING = "PettingZoo/Gymnasium are not installed (pip install 'copsolver[pettingzoo]')"

CONFIGS: dict[str, dict[str, Any]] = {
    "6 players": {"players": 6},
    "2 players, free start": {"players": 2, "free_start": True},
    "3 players, pieces 1+3, voluntary show": {"players": 3, "pieces": [1, 3], "voluntary_show": True},
    "4 players, unlimited tickets, voluntary show": {"players": 4, "unlimited_tickets": True,
                                                     "voluntary_show": True},
}


@pytest.fixture(scope="module")
def mini_board(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The 16-stop rules-table board, where captures, passes and cornering are common."""
    path = tmp_path_factory.mktemp("boards") / "mini.json"
    path.write_text(json.dumps(MINI_BOARD))
    return str(path)


def random_states(game: Game, seed: int) -> Iterator[State]:
    """Every state of one seeded random game, the terminal one included (each a fresh clone)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while True:
        yield state.clone()
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])


# --- the specs (no extras needed) ------------------------------------------------------------------
@pytest.mark.parametrize("config", list(CONFIGS))
def test_spec_bounds_hold_in_random_games(config: str) -> None:
    game = solver.games.load("police07", **CONFIGS[config])
    spec = spec_for("police07")
    bounds = spec.bounds(game)
    for seed in range(4):
        decisions = chances = 0
        for state in random_states(game, seed):
            if state.is_terminal():
                continue
            legal = state.legal_actions()
            assert all(0 <= a < spec.num_distinct_actions for a in legal)
            if state.is_chance_node():
                chances += 1
                assert all(0 <= a < bounds.max_chance_outcomes for a, _ in state.chance_outcomes())
            else:
                decisions += 1
        assert decisions <= bounds.max_game_length
        assert chances <= bounds.max_chance_nodes
        returns = state.returns()
        assert all(bounds.min_utility <= r <= bounds.max_utility for r in returns)
        assert (sum(returns) == 0) == bounds.zero_sum


@pytest.mark.parametrize("config", list(CONFIGS))
def test_encoder_reads_only_the_view(config: str) -> None:
    game = solver.games.load("police07", **CONFIGS[config])
    encoder = spec_for("police07").encoder(game)
    rng = np.random.default_rng(1)
    for i, state in enumerate(random_states(game, seed=3)):
        for seat in range(game.num_players):
            view = state.view(seat)
            vector = encoder.encode(view)
            assert vector.shape == (encoder.size,) and vector.dtype == np.float32
            assert vector.min() >= 0.0 and vector.max() <= 1.0
            if i % 9 == 0 and not state.is_chance_node() and seat > 0:
                # a state the seat cannot tell apart encodes the same: nothing hidden gets in
                other = game.resample(view, rng)
                assert np.array_equal(encoder.encode(other.view(seat)), vector)


#: Set by .ci/run, which installs both extras: a missing adapter library then fails the run instead
#: of skipping its tests.
REQUIRE = os.environ.get("COPSOLVER_REQUIRE_ADAPTERS") == "1"


def need(module: str, reason: str) -> Any:
    """``module``, imported; without it the test is skipped (fails under COPSOLVER_REQUIRE_ADAPTERS=1)."""
    if REQUIRE:
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=reason)


def test_spec_for_unknown_game() -> None:
    with pytest.raises(ConfigError, match="no adapter spec for game 'nope'"):
        spec_for("nope")


# --- OpenSpiel ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pyspiel() -> Any:
    return need("pyspiel", reason=OPENSPIEL_MISSING)


@pytest.fixture(scope="module")
def osp(pyspiel: Any) -> Any:
    from bots.adapters import openspiel

    return openspiel


def spiel_random_states(game: Any, seed: int) -> Iterator[Any]:
    """Every state of one seeded random game through the pyspiel API (each a fresh clone)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while True:
        yield state.clone()
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("config", list(CONFIGS))
def test_openspiel_random_sim_test(pyspiel: Any, osp: Any, config: str) -> None:
    game = osp.register("police07", **CONFIGS[config])
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_random_sim_test_mini_board(pyspiel: Any, osp: Any, mini_board: str) -> None:
    game = osp.register("police07", players=3, board=mini_board, voluntary_show=True)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_openspiel_game_info_and_type(pyspiel: Any, osp: Any) -> None:
    game = osp.register("police07", players=6)
    kind = game.get_type()
    assert kind.short_name == "copsolver_police07"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_string and kind.provides_observation_string
    assert game.num_players() == 6
    assert game.num_distinct_actions() == spec_for("police07").num_distinct_actions
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    two = osp.register("police07", players=2, free_start=True)
    assert two.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert two.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert two.utility_sum() == 0.0


def test_openspiel_parameters(pyspiel: Any, osp: Any) -> None:
    game = osp.register("police07", players=3, pieces=[1, 3])
    assert game.copsolver.pieces == (1, 3)
    again = pyspiel.load_game(str(game))  # the game string round-trips, list option included
    assert again.copsolver.config() == game.copsolver.config()
    default = pyspiel.load_game("copsolver_police07")
    assert default.copsolver.config() == solver.games.load("police07").config()
    with pytest.raises(ConfigError, match="unknown option 'colour'"):
        osp.register("police07", colour="red")
    with pytest.raises(ConfigError, match="must be of type int"):
        osp.register("police07", players="six")
    with pytest.raises(ConfigError, match="players must be 2..6"):
        osp.register("police07", players=9)
    with pytest.raises(ConfigError, match="unknown game"):
        osp.register("monopoly")


def test_openspiel_strings_are_the_view(osp: Any) -> None:
    game = osp.register("police07", players=4, voluntary_show=True)
    hidden_seen = 0
    for state in spiel_random_states(game, seed=5):
        inner = state.held
        for seat in range(game.num_players()):
            view = inner.view(seat).to_json()
            info = state.information_state_string(seat)
            assert json.loads(info) == view
            assert info == json.dumps(view, sort_keys=True, separators=(",", ":"))
            observation = json.loads(state.observation_string(seat))
            assert "history" not in observation
            assert observation == {k: v for k, v in view.items() if k != "history"}
            if seat > 0 and inner.visible_at == 0 and inner.pos[0]:
                # Dr. Factor is hidden: the detectives' strings hold neither his stop nor his lines
                # (that nothing else gives him away is the resample test's job)
                hidden_seen += 1
                parsed = json.loads(info)
                assert parsed["factor"]["stop"] is None
                assert all("line" not in entry for entry in parsed["log"])
                hidden_moves = [e for e in parsed["log"] if e["move"] not in REVEALED_MOVES]
                assert all(entry["stop"] is None for entry in hidden_moves)
    assert hidden_seen > 0


def test_openspiel_observation_tensor_is_the_encoder(osp: Any) -> None:
    game = osp.register("police07", players=4)
    encoder = spec_for("police07").encoder(game.copsolver)
    assert game.observation_tensor_shape() == [encoder.size]
    for i, state in enumerate(spiel_random_states(game, seed=2)):
        if i % 7 == 0:
            for seat in range(4):
                tensor = np.array(state.observation_tensor(seat), dtype=np.float32)
                assert np.array_equal(tensor, encoder.encode(state.held.view(seat)))


def test_openspiel_resample_from_infostate(pyspiel: Any, osp: Any) -> None:
    """OpenSpiel's ResampleInfostateTest, in Python: same string, same player, and seeded."""
    game = osp.register("police07", players=4)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    varied = 0
    for i, state in enumerate(spiel_random_states(game, seed=11)):
        if state.is_chance_node() or state.is_terminal() or i % 3:
            continue
        for seat in range(4):
            other = state.resample_from_infostate(seat, sampler)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.current_player() == state.current_player()
            assert other.history() == other.held.history  # pyspiel's history is the sampled one
            varied += other.held.pos[0] != state.held.pos[0]
        same = [state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
                for _ in range(2)]
        assert same[0].history() == same[1].history()
    assert varied > 0, "resampling must draw other hidden paths for the detectives"
    with pytest.raises(BadStateError, match="not a seat"):
        state.resample_from_infostate(9, sampler)


def test_openspiel_clone_deepcopy_pickle(osp: Any) -> None:
    game = osp.register("police07", players=4)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 12:
        state.apply_action(state.legal_actions()[0])
    for copied in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert str(copied) == str(state) and copied.history() == state.history()
        copied.apply_action(copied.legal_actions()[-1])
        assert len(copied.history()) == len(state.history()) + 1
        assert len(state.held.history) == len(state.history())  # the original did not move
    from_json = game.new_initial_state(state.held.to_json())
    assert str(from_json) == str(state) and from_json.history() == state.history()


def test_openspiel_illegal_action_raises_our_error(osp: Any) -> None:
    game = osp.register("police07", players=4)
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError, match="not legal now"):
        state.apply_action(118)  # "taxi 118" while the start cards are dealt


def test_openspiel_ismcts_plays_legal_moves(osp: Any) -> None:
    game = osp.register("police07", players=6)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node() or len(state.held.log) < 2:  # Dr. Factor hidden after move 2
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert state.current_player() == 1 and state.held.visible_at == 0
    first: list[int] = []
    for run in range(2):  # the same seed plays the same moves, determinizations included
        bot = osp.openspiel_ismcts_bot(game, iterations=25, seed=4)
        playing = state.clone()
        moves = []
        for _ in range(7):  # every detective, then Dr. Factor, then detectives again
            if playing.is_terminal():
                break
            action = bot.step(playing)
            assert action in playing.legal_actions()
            moves.append(int(action))
            playing.apply_action(action)
        if run == 0:
            first = moves
        else:
            assert moves == first
    with pytest.raises(ConfigError, match="iterations"):
        osp.openspiel_ismcts_bot(game, iterations=0, seed=1)


def test_openspiel_seats_our_bots(pyspiel: Any, osp: Any) -> None:
    evaluate_bots = need(
        "open_spiel.python.algorithms.evaluate_bots", reason=OPENSPIEL_MISSING
    )
    game = osp.register("police07", players=4)
    seated = [osp.CopsolverBot(game, 0, "heuristic", seed=1)] + [
        osp.CopsolverBot(game, seat, "heuristic", seed=seat) for seat in (1, 2)
    ]
    line_up = [*seated, pyspiel.make_uniform_random_bot(3, 9)]  # one of OpenSpiel's own bots
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, line_up, np.random.RandomState(0))
    assert sorted(returns) in ([-1.0, -1.0, -1.0, 1.0], [-1.0, 1.0, 1.0, 1.0])
    assert returns[0] == -returns[1] == -returns[2] == -returns[3]
    playing = game.new_initial_state()
    while playing.is_chance_node():
        playing.apply_action(playing.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="plays seat 1"):
        seated[1].step(playing)  # Dr. Factor is to move
    with pytest.raises(ConfigError, match="unknown bot"):
        osp.CopsolverBot(game, 1, "grandmaster")


def test_openspiel_bot_receives_its_events(osp: Any) -> None:
    from bots.random_bot import RandomBot

    class Recorder(RandomBot):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.seen: list[Any] = []

        def inform(self, event: Any) -> None:
            self.seen.append(event)

    game = osp.register("police07", players=4)
    seat_bot = osp.CopsolverBot(game, 2, "random", seed=0)
    seat_bot.bot = Recorder(game.copsolver, 2, np.random.default_rng(0))
    state = game.new_initial_state()
    seat_bot.restart_at(state)
    rng = np.random.default_rng(1)
    while not state.is_terminal() and len(state.history()) < 40:
        action = state.legal_actions()[int(rng.integers(len(state.legal_actions())))]
        if state.current_player() == 2:
            action = seat_bot.step(state)
        else:
            seat_bot.inform_action(state, state.current_player(), action)
        state.apply_action(action)
    seat_bot.inform_action(state, state.current_player(), -1)
    assert seat_bot.bot.seen == state.held.events_for(2)


# --- PettingZoo -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pz() -> Any:
    need("pettingzoo", reason=PETTINGZOO_MISSING)
    need("gymnasium", reason=PETTINGZOO_MISSING)
    from bots.adapters import pettingzoo

    return pettingzoo


@pytest.mark.parametrize("config", list(CONFIGS))
def test_pettingzoo_api_test(pz: Any, config: str) -> None:
    from pettingzoo.test import api_test

    env = pz.env("police07", render_mode="ansi", **CONFIGS[config])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=300)
    assert [str(w.message) for w in caught] == []


def test_pettingzoo_mini_board(pz: Any, mini_board: str) -> None:
    """Short games full of captures and cornering: api_test, then final rewards equal returns."""
    from pettingzoo.test import api_test

    env = pz.env("police07", players=3, board=mini_board, voluntary_show=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=300)
    for seed in range(20):
        _, totals = play_env(env, seed=seed, action_seed=seed)
        assert list(totals.values()) == env.state_now.returns()


@pytest.mark.parametrize("config", list(CONFIGS))
def test_pettingzoo_seed_test(pz: Any, config: str) -> None:
    from pettingzoo.test import seed_test

    seed_test(lambda: pz.env("police07", **CONFIGS[config]), num_cycles=100)


def play_env(env: Any, seed: int, action_seed: int) -> tuple[list[int], dict[str, float]]:
    """One whole game with uniformly drawn legal actions; the action list and the final rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(info["action_mask"])
        env.step(int(legal[int(rng.integers(len(legal)))]))
    return list(env.state_now.history), totals


def test_pettingzoo_seeds_replay_and_rewards(pz: Any) -> None:
    env = pz.env("police07", players=4)
    history, totals = play_env(env, seed=7, action_seed=1)
    again, totals_again = play_env(pz.env("police07", players=4), seed=7, action_seed=1)
    assert history == again and totals == totals_again
    assert env.state_now.is_terminal()
    assert list(totals.values()) == env.state_now.returns()  # rewards arrive at the end, summed
    deals = {tuple(play_env(env, seed=s, action_seed=1)[0][:4]) for s in range(6)}
    assert len(deals) > 1, "the seed decides the start cards"


def test_pettingzoo_observations_are_the_view(pz: Any) -> None:
    env = pz.env("police07", players=4)
    env.reset(seed=5)
    encoder = env.encoder
    for step in range(30):
        for agent in env.possible_agents:
            seat = int(agent.split("_")[1])
            view = env.state_now.view(seat)
            observation = env.observe(agent)
            assert isinstance(observation, np.ndarray) and observation.dtype == np.float32
            assert env.observation_space(agent).contains(observation)
            assert np.array_equal(observation, encoder.encode(view))
            mask = env.infos[agent]["action_mask"]
            assert mask.dtype == np.int8
            assert sorted(np.flatnonzero(mask).tolist()) == list(view.legal_actions)
            assert (mask.sum() > 0) == (agent == env.agent_selection)
        *_, info = env.last()
        legal = np.flatnonzero(info["action_mask"])
        env.step(int(legal[step % len(legal)]))


def test_pettingzoo_errors_and_render(pz: Any) -> None:
    env = pz.env("police07", players=4, render_mode="ansi")
    with pytest.raises(BadStateError, match="reset"):
        env.step(0)
    env.reset(seed=1)
    text = env.render()
    assert "Dr. Factor" in text and "Legal moves" in text
    with pytest.raises(IllegalActionError, match="not legal now"):
        env.step(2562)  # "pass" is not Dr. Factor's to play
    with pytest.raises(IllegalActionError, match="must act"):
        env.step(None)
    assert pz.env("police07").render() is None
    with pytest.raises(ConfigError, match="render_mode"):
        pz.env("police07", render_mode="rgb_array")
    with pytest.raises(ConfigError, match="options go with a game name"):
        pz.env(solver.games.load("police07"), players=3)
