"""Our games as PettingZoo AEC environments (agent-environment cycle: one agent acts at a time).

::

    from bots.adapters.pettingzoo import env
    e = env("police07", players=4)
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(info["action_mask"])
        e.step(action)

- Agents are ``player_0`` .. ``player_<n-1>``, seat order (in Police 07 ``player_0`` is Dr. Factor).
- Every agent's action space is ``Discrete(num_distinct_actions)`` over our action ids. Its
  observation is a float32 numpy vector in [0, 1] (``Box(0, 1, (n,), float32)``): the game's
  encoder (``bots/<game>/adapter.py``) applied to the agent's view, so it holds nothing the view
  hides. The legal actions are ``info["action_mask"]`` (int8, all zero when another agent acts), as
  PettingZoo's tests read them; ``action_space(agent).sample()`` with no mask also draws a legal
  action for the agent to act (and ``sample(mask)`` is gymnasium's own).
- Chance nodes (deals, draws, dice) are resolved inside the environment with its own generator,
  seeded by ``reset(seed=...)``; the same seed and the same actions replay the same game.
- Rewards are zero until the end, then each agent gets its return and every agent terminates. A
  game the rules do not bound (GCBC, LineUp) is cut at its move cap (``max_moves``; see
  :mod:`bots.adapters.specs`): every agent is then *truncated*, with reward 0. A game the deal
  already ends (only on tiny boards) terminates at ``reset``, with the returns already in ``last()``.
- An illegal action raises :class:`~solver.core.IllegalActionError` rather than being punished
  silently (our rule for every boundary).
- ``render_mode="ansi"``: :meth:`render` returns the text a human in the acting agent's seat would
  be shown (that seat's view only); ``render_mode="human"`` prints that text to stdout.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from bots.adapters import require
from bots.adapters.specs import Bounds, spec_for
from solver import games
from solver.core import BadStateError, ConfigError, Game, IllegalActionError, Seat, State, make_rng
from solver.core.referee import draw_chance

_pettingzoo = require("pettingzoo", "pettingzoo")
_spaces = require("gymnasium.spaces", "pettingzoo")
# PettingZoo ships no type information: its base class is Any here (mypy: subclassing Any).
_AECEnv: Any = _pettingzoo.AECEnv
_Discrete: Any = _spaces.Discrete

RENDER_MODES = ("ansi", "human")


def agent_name(seat: Seat) -> str:
    """The PettingZoo agent of ``seat`` (``player_0`` ...)."""
    return f"player_{seat}"


class LegalDiscrete(_Discrete):  # type: ignore[misc]
    """``Discrete`` over our action ids whose ``sample()`` without a mask draws a legal action.

    With a mask (or probabilities) it is gymnasium's own. Without, it draws among its agent's legal
    actions when that agent is to act, so loops that sample blindly (PettingZoo's render test) play
    legal games; otherwise it draws as gymnasium does.
    """

    def __init__(self, n: int, env: CopsolverAECEnv, agent: str) -> None:
        super().__init__(n)
        self._env = env
        self._agent = agent

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        """A random action id: among ``mask``'s, or the agent's legal actions when no mask is given."""
        if mask is None and probability is None:
            legal = self._env.legal_mask(self._agent)
            if legal.any():
                mask = legal
        return super().sample(mask=mask, probability=probability)


class CopsolverAECEnv(_AECEnv):  # type: ignore[misc]
    """One configured game of ours as a PettingZoo ``AECEnv`` (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "copsolver_v0",
                                "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None, max_moves: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
        spec = spec_for(game.name)
        self.game = game
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"copsolver_{game.name}_v0"}
        self.encoder = spec.encoder(game)
        self.bounds: Bounds = spec.bounds_for(game, max_moves)
        self.num_actions = spec.num_distinct_actions
        self.possible_agents: list[str] = [agent_name(s) for s in range(game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: _spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32) for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: LegalDiscrete(self.num_actions, self, agent) for agent in self.possible_agents
        }
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self._rng: np.random.Generator | None = None
        self._state: State | None = None

    # --- spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        """The agent's observation space (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The agent's action space (the same object on every call)."""
        return self.action_spaces[agent]

    # --- the cycle ------------------------------------------------------------------------------
    @property
    def state_now(self) -> State:
        """Our true state of the game in progress (BadStateError before :meth:`reset`)."""
        if self._state is None:
            raise BadStateError(f"{self.metadata['name']}: call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` reseeds the chance generator (None keeps its stream going).

        ``options`` is accepted for the PettingZoo API and unused: the game's options are fixed
        when the environment is built.
        """
        if seed is not None or self._rng is None:
            self._rng = make_rng(seed)
        self._state = self.game.new_initial_state()
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"action_mask": self.legal_mask(agent)} for agent in self.agents}
        self.agent_selection = self.possible_agents[0]
        self._skip_agent_selection = None  # AECEnv's bookkeeping of finished agents' turns
        self._advance()
        # Rewards are zero here unless the deal already ended the game (possible on tiny boards):
        # then every agent's last() must still carry its return.
        self._accumulate_rewards()

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (None for an agent that has terminated)."""
        state = self.state_now
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(
                f"{agent} must act ({state.decision().prompt}); None is only for a finished agent"
            )
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.apply(action)
        self._advance()
        self._accumulate_rewards()

    def _advance(self) -> None:
        """Resolve chance nodes with the generator, then select the agent to act or end the game."""
        state = self.state_now
        rng = self._rng
        if rng is None:
            raise BadStateError(f"{self.metadata['name']}: call reset() first")
        cap = self.bounds.move_cap
        while state.is_chance_node() and not (cap is not None and len(state.history) >= cap):
            state.apply(draw_chance(state, rng))  # the referee's draw: the same deal as everywhere
        if state.is_terminal():
            for seat, value in enumerate(state.returns()):
                agent = self.possible_agents[seat]
                self.rewards[agent] = float(value)
                self.terminations[agent] = True
        elif cap is not None and len(state.history) >= cap:
            # the move cap ends a game the rules do not bound: a draw, every agent truncated
            for agent in self.agents:
                self.truncations[agent] = True
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        for agent in self.agents:
            self.infos[agent]["action_mask"] = self.legal_mask(agent)

    def observe(self, agent: str) -> npt.NDArray[np.float32]:
        """The agent's encoded view (its legal actions are ``infos[agent]["action_mask"]``)."""
        return self.encoder.encode(self.state_now.view(self._seat[agent]))

    def legal_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The agent's legal actions as an int8 mask (all zero when it is not the agent's decision)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        state = self._state
        # Only the deciding seat has legal actions (a view's legal actions are the state's for that
        # seat): reading them off the state spares building every seat's view at every step.
        if state is not None and not self.truncations.get(agent, False) and (
            state.current_player() == self._seat[agent]
        ):
            mask[state.legal_actions()] = 1
        return mask

    def render(self) -> str | None:
        """The text the acting agent's seat is shown: returned (``ansi``) or printed (``human``).

        None without a render mode, and in ``human`` mode (as PettingZoo's render test expects).
        """
        if self.render_mode is None:
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _render_text(self) -> str:
        from bots.display import make_printer

        state = self.state_now
        seat = self._seat[self.agent_selection]
        lines = make_printer(self.game, seats={seat}).describe_view(state.view(seat))
        if state.is_terminal():
            lines.append(f"Game over: {state.decision().prompt}; returns {state.returns()}")
        elif any(self.truncations.values()):
            lines.append(f"Game cut at the move cap ({self.bounds.move_cap} actions): a draw")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def env(game_name: str | Game, render_mode: str | None = None, max_moves: int | None = None,
        **options: Any) -> CopsolverAECEnv:
    """A PettingZoo AEC environment of our game (a name with ``options``, or a built Game).

    ``max_moves`` sets the move cap (None: the game's own, see :mod:`bots.adapters.specs`).
    """
    if isinstance(game_name, Game):
        if options:
            raise ConfigError("env: options go with a game name, not with a built Game")
        return CopsolverAECEnv(game_name, render_mode, max_moves)
    return CopsolverAECEnv(games.load(game_name, **options), render_mode, max_moves)


__all__ = ["RENDER_MODES", "CopsolverAECEnv", "LegalDiscrete", "agent_name", "env"]
