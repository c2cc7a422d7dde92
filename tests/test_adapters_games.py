"""Every registered game in both adapters, checked by the libraries' own suites.

Each game's adapter spec lives in ``bots/<name>/adapter.py``. The spec tests need only numpy and
always run: the action-id and length bounds hold in random games played through the rules, the
encoders give vectors in [0, 1] from the view alone, and states that differ only in what a seat
cannot see encode the same for it. With the extras installed (required under
``COPSOLVER_REQUIRE_ADAPTERS=1``) every game registers with OpenSpiel and passes its
``random_sim_test`` and the steps of its game simulation test (pickling the game, its type and
states, serializing, cloning), and every game is a PettingZoo AEC env that passes ``api_test``,
``seed_test`` and ``render_test`` without a warning.

GCBC and LineUp games have no length bound in their rules, and OpenSpiel's checks rebuild every
seat's view at every step, so the fast OpenSpiel sims cap those games at :data:`SIM_CAP` actions;
the slow suite plays them uncapped (LineUp at a high cap).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pickle
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import solver.games
from bots.adapters import specs
from bots.adapters.specs import AdapterSpec, spec_for
from solver.core import ConfigError, Game, State
from tests.test_adapters import OPENSPIEL_MISSING, PETTINGZOO_MISSING, need

ROOT = Path(__file__).resolve().parent.parent

#: one or two configurations of every game, the player-count extremes among them
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "police07 4p": ("police07", {"players": 4}),
    "police07 2p free start": ("police07", {"players": 2, "free_start": True}),
    "gcbc 4p": ("gcbc", {"players": 4}),
    "gcbc 8p 4th deck": ("gcbc", {"players": 8, "deck": "4th"}),
    "lineup 2p": ("lineup", {"players": 2}),
    "lineup 6p": ("lineup", {"players": 6}),
    "precinct 4p dirty cop": ("precinct", {"players": 4, "dirty_cop": True}),
    "precinct 2p": ("precinct", {"players": 2}),
    "escape 2p": ("escape", {"players": 2}),
    "escape 5p": ("escape", {"players": 5}),
}
#: the move cap of the fast OpenSpiel sims (0: the game's own bounds)
SIM_CAP = {"police07": 0, "gcbc": 150, "lineup": 150, "precinct": 150, "escape": 150}


def load(config: str) -> Game:
    name, options = CONFIGS[config]
    return solver.games.load(name, **options)


def chance_draw(state: State, rng: np.random.Generator) -> int:
    """A chance outcome drawn with its probability."""
    outcomes = state.chance_outcomes()
    probs = np.array([p for _, p in outcomes])
    return outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0]


def played_states(game: Game, seed: int) -> list[State]:
    """Every state of one random game, chance drawn by its probabilities (each a clone)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(chance_draw(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        states.append(state.clone())
    return states


# --- the specs (no extras needed) ------------------------------------------------------------------
def test_every_registered_game_has_a_spec_in_its_bot_package() -> None:
    assert solver.games.names(), "no games registered"
    for name in solver.games.names():
        module = importlib.import_module(f"bots.{name}.adapter")
        spec = spec_for(name)
        assert isinstance(spec, AdapterSpec) and isinstance(module.adapter_spec(), AdapterSpec)
        assert 1 <= spec.min_players <= spec.max_players
        for players in (spec.min_players, spec.max_players):
            game = solver.games.load(name, players=players)
            bounds = spec.bounds(game)
            assert 0 <= bounds.max_chance_outcomes <= spec.num_distinct_actions
            assert bounds.min_utility < bounds.max_utility
            assert spec.encoder(game).size > 0
        for players in (spec.min_players - 1, spec.max_players + 1):
            with pytest.raises(ConfigError):
                solver.games.load(name, players=players)


def test_spec_for_names_the_module_to_write(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="no adapter spec for game 'nope': not a registered game"):
        spec_for("nope")
    import dataclasses

    from tests import toygame

    monkeypatch.setitem(specs.games.GAMES, "hidden_pass", "tests.toygame")
    monkeypatch.setattr(toygame, "SPEC", dataclasses.replace(toygame.SPEC, bots=None))
    with pytest.raises(ConfigError, match="its spec names no bot package"):
        spec_for("hidden_pass")
    monkeypatch.setattr(toygame, "SPEC", dataclasses.replace(toygame.SPEC, bots="tests.toy_nope"))
    with pytest.raises(ConfigError, match="write tests/toy_nope/adapter.py"):
        spec_for("hidden_pass")


@pytest.mark.parametrize("config", list(CONFIGS))
def test_bounds_hold_in_random_games(config: str) -> None:
    """Every action id and chance outcome below the bounds; lengths and returns within them."""
    game = load(config)
    spec = spec_for(game.name)
    bounds = spec.bounds(game)
    for seed in range(3):
        decisions = chances = 0
        states = played_states(game, seed)
        for state in states[:-1]:
            legal = state.legal_actions()
            assert legal and all(0 <= a < spec.num_distinct_actions for a in legal)
            if state.is_chance_node():
                chances += 1
                assert all(0 <= a < bounds.max_chance_outcomes for a, _ in state.chance_outcomes())
            else:
                decisions += 1
        assert decisions <= bounds.max_game_length
        assert chances <= bounds.max_chance_nodes
        if bounds.move_cap is not None:
            # the cap is a backstop far above real games: random play ends by the rules before it
            assert len(states[-1].history) < bounds.move_cap
        returns = states[-1].returns()
        assert all(bounds.min_utility <= r <= bounds.max_utility for r in returns)
        if bounds.zero_sum:
            assert sum(returns) == 0


def test_capped_bounds() -> None:
    gcbc = solver.games.load("gcbc", players=5)
    spec = spec_for("gcbc")
    assert spec.bounds(gcbc).move_cap is not None  # no rules bound: capped by default
    capped = spec.bounds_for(gcbc, 40)
    assert (capped.max_game_length, capped.max_chance_nodes, capped.move_cap) == (40, 40, 40)
    assert spec.bounds_for(gcbc, 10**6).max_game_length == 10**6  # a larger cap replaces the default
    assert spec.bounds_for(gcbc, 0) == spec.bounds_for(gcbc, None) == spec.bounds(gcbc)
    police = solver.games.load("police07", players=3)
    rules = spec_for("police07").bounds(police)
    assert rules.move_cap is None  # the rules end every game
    assert spec_for("police07").bounds_for(police, 10**6).max_game_length == rules.max_game_length
    assert spec_for("police07").bounds_for(police, 10).max_game_length == 10
    for bad in (-1, True, "many", 2.5):
        with pytest.raises(ConfigError, match="max_moves"):
            spec.bounds_for(gcbc, bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("config", list(CONFIGS))
def test_encoder_gives_unit_vectors_from_the_view(config: str) -> None:
    game = load(config)
    encoder = spec_for(game.name).encoder(game)
    states = played_states(game, seed=4)
    seen = set()
    # views cost time in proportion to the history: a dozen states spread over the game suffice
    for state in states[:: max(1, len(states) // 12)] + states[-1:]:
        for seat in range(game.num_players):
            vector = encoder.encode(state.view(seat))
            assert vector.shape == (encoder.size,) and vector.dtype == np.float32
            assert vector.min() >= 0.0 and vector.max() <= 1.0
            assert vector.any(), "PettingZoo warns about all-zero observations"
            seen.add(vector.tobytes())
    assert len(seen) > game.num_players, "the vector must change as the game goes on"


def seat_sees_hidden_facts(game: Game, state: State, seat: int,
                           rng: np.random.Generator) -> tuple[State, State]:
    """Two states drawn from ``seat``'s view of ``state``: all three look the same to ``seat``."""
    view = state.view(seat)
    first, second = game.resample(view, rng), game.resample(view, rng)
    assert first.view(seat).to_json() == second.view(seat).to_json() == view.to_json()
    return first, second


@pytest.mark.parametrize("config", list(CONFIGS))
def test_hidden_information_does_not_leak(config: str) -> None:
    """States that differ only in what a seat cannot see encode the same for that seat."""
    game = load(config)
    encoder = spec_for(game.name).encoder(game)
    rng = np.random.default_rng(9)
    states = [s for s in played_states(game, seed=2) if not s.is_terminal()]
    differ = 0
    for state in states[1 :: max(1, len(states) // 4)][:4]:
        for seat in range(game.num_players):
            first, second = seat_sees_hidden_facts(game, state, seat, rng)
            expected = encoder.encode(state.view(seat))
            assert np.array_equal(encoder.encode(first.view(seat)), expected)
            assert np.array_equal(encoder.encode(second.view(seat)), expected)
            differ += first.history != second.history or first.history != state.history
    assert differ > 0, "the sampled states never differed: the check would prove nothing"


# --- OpenSpiel ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pyspiel() -> Any:
    return need("pyspiel", reason=OPENSPIEL_MISSING)


@pytest.fixture(scope="module")
def osp(pyspiel: Any) -> Any:
    from bots.adapters import openspiel

    return openspiel


def spiel_game(osp: Any, config: str, cap: int | None = None) -> Any:
    name, options = CONFIGS[config]
    return osp.register(name, max_moves=SIM_CAP[name] if cap is None else cap, **options)


def test_openspiel_registers_every_game(pyspiel: Any, osp: Any) -> None:
    for name in solver.games.names():
        spec = spec_for(name)
        game = osp.register(name)
        kind = game.get_type()
        assert kind.short_name == f"copsolver_{name}"
        assert (kind.min_num_players, kind.max_num_players) == (spec.min_players, spec.max_players)
        assert game.num_distinct_actions() == spec.num_distinct_actions
        bounds = spec.bounds(game.copsolver)
        assert game.max_game_length() == bounds.max_game_length
        assert game.max_chance_outcomes() == bounds.max_chance_outcomes
        assert pyspiel.load_game(f"copsolver_{name}").copsolver.config() == game.copsolver.config()
    registered = {g.short_name for g in pyspiel.registered_games()}
    assert {f"copsolver_{name}" for name in solver.games.names()} <= registered


@pytest.mark.parametrize("config", list(CONFIGS))
def test_openspiel_random_sim_test(pyspiel: Any, osp: Any, config: str) -> None:
    pyspiel.random_sim_test(spiel_game(osp, config), num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("config, cap", [("gcbc 4p", 0), ("lineup 2p", 1500)])
def test_openspiel_random_sim_test_long_games(pyspiel: Any, osp: Any, config: str, cap: int) -> None:
    """Whole games (GCBC to its end by the rules; LineUp mostly): slow, every view is rebuilt per step."""
    pyspiel.random_sim_test(spiel_game(osp, config, cap), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("config", list(CONFIGS))
def test_openspiel_game_simulation_steps(pyspiel: Any, osp: Any, config: str) -> None:
    """The steps of OpenSpiel's own game simulation test (games_sim_test.sim_game) that apply."""
    game = spiel_game(osp, config)
    assert game.min_utility() < game.max_utility()
    unpickled = pickle.loads(pickle.dumps(game))
    assert str(unpickled) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    rng = np.random.default_rng(3)
    for _ in range(2):
        state = game.new_initial_state()
        actions, next_check = 0, 1
        while not state.is_terminal():
            actions += 1
            if actions >= next_check:  # as OpenSpiel does: at every power of two
                text = pyspiel.serialize_game_and_state(game, state)
                new_game, new_state = pyspiel.deserialize_game_and_state(text)
                assert str(new_game) == str(game) and str(new_state) == str(state)
                assert str(pickle.loads(pickle.dumps(state))) == str(state)
                for seat in range(game.num_players()):
                    assert len(state.observation_tensor(seat)) == game.observation_tensor_size()
                    state.information_state_string(seat)
                    state.observation_string(seat)
                next_check *= 2
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert outcomes
                ids, probs = zip(*outcomes, strict=True)
                state.apply_action(int(rng.choice(ids, p=np.array(probs) / sum(probs))))
                continue
            action = int(rng.choice(state.legal_actions(state.current_player())))
            clone = state.clone()
            assert str(clone) == str(state) and clone.history() == state.history()
            state.apply_action(action)
            clone.apply_action(action)
            assert str(clone) == str(state) and clone.history() == state.history()
        assert state.legal_actions() == []
        assert all(state.legal_actions(seat) == [] for seat in range(game.num_players()))
        returns = state.returns()
        for seat in range(game.num_players()):
            assert state.player_return(seat) == returns[seat]
            assert game.min_utility() <= returns[seat] <= game.max_utility()


def test_openspiel_move_cap_ends_a_game_as_a_draw(pyspiel: Any, osp: Any) -> None:
    game = osp.register("gcbc", players=4, max_moves=30)
    assert game.max_game_length() == 30 and "max_moves=30" in str(game)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert len(state.history()) == 30 and not state.held.is_terminal()  # the cap, not the rules
    assert state.returns() == [0.0] * 4
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
    again = pickle.loads(pickle.dumps(state))
    assert again.is_terminal() and str(again) == str(state)
    with pytest.raises(ConfigError, match="max_moves"):
        osp.register("gcbc", max_moves=-5)


def test_openspiel_games_unpickle_in_a_new_process(osp: Any) -> None:
    """A pickled game names its game and parameters, so a process that registered nothing loads it."""
    game = osp.register("lineup", players=3, max_moves=77)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    script = (
        "import pickle, sys; game, state = pickle.loads(sys.stdin.buffer.read()); "
        "print(game); print(state.history()); print(game.max_game_length())"
    )
    done = subprocess.run([sys.executable, "-c", script], input=pickle.dumps((game, state)), cwd=ROOT,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split("\n")[:3] == [str(game), str(state.history()), "77"]


@pytest.mark.parametrize("name", ["police07", "gcbc", "lineup"])
def test_openspiel_hidden_information_does_not_leak(pyspiel: Any, osp: Any, name: str) -> None:
    """Resampled states (differing only in what the seat cannot see) give it the same strings and tensor."""
    config = next(c for c, (n, _) in CONFIGS.items() if n == name)
    game = spiel_game(osp, config)
    state = game.new_initial_state()
    rng = np.random.default_rng(6)
    differ = checked = 0
    while not state.is_terminal() and checked < 6:
        if not state.is_chance_node() and len(state.history()) % 7 == 3:
            checked += 1
            for seat in range(game.num_players()):
                a = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(1 + seat, 0.0, 1.0))
                b = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(99, 0.0, 1.0))
                for other in (a, b):
                    assert other.information_state_string(seat) == state.information_state_string(seat)
                    assert other.observation_string(seat) == state.observation_string(seat)
                    assert other.observation_tensor(seat) == state.observation_tensor(seat)
                differ += a.history() != b.history()
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked and differ > 0, "the sampled states never differed: the check would prove nothing"


# --- PettingZoo -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pz() -> Any:
    need("pettingzoo", reason=PETTINGZOO_MISSING)
    need("gymnasium", reason=PETTINGZOO_MISSING)
    from bots.adapters import pettingzoo

    return pettingzoo


@pytest.mark.parametrize("config", list(CONFIGS))
def test_pettingzoo_suites_pass_without_warnings(pz: Any, config: str) -> None:
    from pettingzoo.test import api_test, render_test, seed_test

    name, options = CONFIGS[config]

    def make(render_mode: str | None = None) -> Any:
        return pz.env(name, render_mode=render_mode, **options)

    printed = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(printed):
        warnings.simplefilter("always")
        api_test(make("ansi"), num_cycles=100)
        seed_test(make, num_cycles=50)
        render_test(make)  # every mode: ansi returns text, human prints it and returns None
    assert [str(w.message) for w in caught] == []
    assert "Passed API test" in printed.getvalue()
    rendered = printed.getvalue().replace("Starting API test", "").replace("Passed API test", "").strip()
    assert rendered, "render_mode='human' must print the view"


@pytest.mark.parametrize("config", list(CONFIGS))
def test_pettingzoo_observations_are_the_seats_views(pz: Any, config: str) -> None:
    env = pz.env(CONFIGS[config][0], **CONFIGS[config][1])
    env.reset(seed=3)
    encoder = env.encoder
    rng = np.random.default_rng(1)
    for _ in range(25):
        agent = env.agent_selection
        _, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            break
        for other in env.agents:
            seat = int(other.split("_")[1])
            observation = env.observe(other)
            assert env.observation_space(other).contains(observation)
            assert np.array_equal(observation, encoder.encode(env.state_now.view(seat)))
            mask = env.infos[other]["action_mask"]
            assert sorted(np.flatnonzero(mask).tolist()) == list(env.state_now.view(seat).legal_actions)
        sampled = env.action_space(agent).sample()  # no mask: still a legal action of the agent to act
        assert info["action_mask"][sampled] == 1
        legal = np.flatnonzero(info["action_mask"])
        env.step(int(legal[int(rng.integers(len(legal)))]))


def test_pettingzoo_move_cap_truncates(pz: Any) -> None:
    env = pz.env("lineup", players=3, max_moves=40)
    env.reset(seed=0)
    finished: dict[str, tuple[float, bool, bool]] = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            finished[agent] = (reward, terminated, truncated)
            assert not info["action_mask"].any()
            env.step(None)
            continue
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert len(env.state_now.history) == 40 and not env.state_now.is_terminal()
    assert finished == dict.fromkeys(env.possible_agents, (0.0, False, True))
    with pytest.raises(ConfigError, match="max_moves"):
        pz.env("lineup", max_moves=0.5)
