"""Our games as OpenSpiel (``pyspiel``) Python games, and our bots as ``pyspiel.Bot`` players.

:func:`register` makes game ``<name>`` loadable as ``copsolver_<name>``, so OpenSpiel's algorithms
and tests run on it::

    from bots.adapters import openspiel
    game = openspiel.register("police07", players=6)     # or pyspiel.load_game("copsolver_police07")
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)

The mapping is direct, since our protocol is modelled on OpenSpiel's (DESIGN.md section 2):

- Action ids are ours unchanged, chance outcomes included; ``num_distinct_actions`` and the other
  ``GameInfo`` bounds come from the game's entry in :mod:`bots.adapters.specs`.
- ``information_state_string(p)`` is seat ``p``'s view as canonical JSON (sorted keys, no spaces):
  two states give a seat the same string exactly when they give it the same view, so the string
  holds nothing the view hides. ``observation_string(p)`` is that JSON without the view's history;
  ``observation_tensor(p)`` is the game's encoder vector (the PettingZoo observation).
- ``resample_from_infostate(p, sampler)`` is ``game.resample(view, rng)`` with the generator seeded
  from the sampler: this is what OpenSpiel's Python ISMCTS calls once per iteration.
- Applying an action checks it against the legal actions (pyspiel's ``apply_action`` does not) and
  raises our :class:`~solver.core.IllegalActionError`.
- Options become OpenSpiel game parameters: scalars as themselves, ``None`` as ``""`` (the game's
  default), lists as ``"[1 1 1]"`` (no commas: OpenSpiel's game strings split on them). One more
  parameter is the adapter's: ``max_moves``, the move cap (0, the default: the game's own cap, none
  for a game its rules end, see :mod:`bots.adapters.specs`). At the cap the state is terminal and
  every return is 0, and ``max_game_length`` is the cap.
- Games pickle by name and parameters, and unpickle in any process (registering the game first);
  states pickle as their game and action list, replayed with checks.

Do not hand these games to OpenSpiel's C++ ``pyspiel.ISMCTSBot``: it calls ``ResampleFromInfostate``
in C++, which a Python game cannot override, and (OpenSpiel 2.0.2) the process dies with a
segmentation fault. OpenSpiel's Python ISMCTS works, see :func:`openspiel_ismcts_bot`.
:class:`CopsolverBot` seats any of our bots in OpenSpiel's game loops.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

import bots
from bots.adapters import require
from bots.adapters.specs import AdapterSpec, Bounds, Encoder, spec_for
from solver import games
from solver.core import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    BadStateError,
    ConfigError,
    Game,
    IllegalActionError,
    Seat,
    State,
)

pyspiel = require("pyspiel", "openspiel")
# pyspiel ships no type information: its base classes are Any here (mypy: subclassing Any).
_SpielGame: Any = pyspiel.Game
_SpielState: Any = pyspiel.State
_SpielBot: Any = pyspiel.Bot

#: Prefix of every game we register with OpenSpiel.
PREFIX = "copsolver_"
#: The adapter's own game parameter: the move cap (0: the game's default, see bots.adapters.specs).
MAX_MOVES = "max_moves"

_PARAM_SCALARS = (bool, int, float, str)


def short_name(game_name: str) -> str:
    """The OpenSpiel name of our game ``game_name`` (``copsolver_police07``)."""
    return PREFIX + game_name


# --- parameters --------------------------------------------------------------------------------


def _encode_param(name: str, value: Any) -> bool | int | float | str:
    """An option value as an OpenSpiel game parameter (scalar, "" for None, "[a b]" for a list)."""
    if isinstance(value, _PARAM_SCALARS):
        return value
    if value is None:
        return ""
    if isinstance(value, (list, tuple)) and all(isinstance(v, _PARAM_SCALARS) for v in value):
        words = [json.dumps(v) for v in value]
        if any(c in w for w in words for c in " ,()=[]"):
            raise ConfigError(f"option {name}={value!r}: list items cannot hold spaces, commas, ( ) = [ ]")
        return "[" + " ".join(words) + "]"
    raise ConfigError(f"option {name}={value!r} cannot be an OpenSpiel parameter (scalars and flat lists)")


def _decode_param(name: str, value: Any, listy: bool) -> Any:
    """The option value from an OpenSpiel parameter; ``listy`` for options that are not scalars."""
    if not listy or not isinstance(value, str):
        return value
    if value == "":
        return None
    if not (value.startswith("[") and value.endswith("]")):
        raise ConfigError(f"parameter {name}={value!r}: expected a list like '[1 1 1]' or '' for the default")
    try:
        return [json.loads(word) for word in value[1:-1].split()]
    except json.JSONDecodeError as err:
        raise ConfigError(f"parameter {name}={value!r}: {err}") from None


def _option_defaults(game_name: str) -> dict[str, Any]:
    """The game's options and their defaults, as its spec declares them (``players`` first)."""
    declared = games.spec(game_name)
    defaults: dict[str, Any] = {"players": declared.default_players}
    defaults.update({name: option.default for name, option in declared.options.items()})
    if MAX_MOVES in defaults:
        raise ConfigError(f"{game_name}: its option {MAX_MOVES!r} clashes with the adapter's move cap")
    return defaults


# --- the game ------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _cached_game(game_name: str, config_json: str) -> Game:
    # Unpickling a state rebuilds its game from the config; equal configs share one Game.
    return games.load(game_name, **json.loads(config_json))


class _Held:
    """Our State inside a pyspiel state's ``__dict__``.

    pyspiel's ``clone`` deep-copies the Python state's ``__dict__`` and its ``serialize`` pickles
    it: here a deep copy is our ``clone()``, and a pickle is the game and its action list, replayed
    with checks on load.
    """

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())

    def __reduce__(self) -> tuple[Any, tuple[str, str, list[int]]]:
        game = self.state.game
        return (_replay, (game.name, json.dumps(game.config(), sort_keys=True), list(self.state.history)))


def _replay(game_name: str, config_json: str, actions: list[int]) -> _Held:
    state = _cached_game(game_name, config_json).new_initial_state()
    for action in actions:
        state.apply(action)
    return _Held(state)


class CopsolverGame(_SpielGame):  # type: ignore[misc]
    """One of our configured games as a ``pyspiel.Game``.

    :func:`register` makes one subclass per game, naming it in :attr:`game_name`, and registers the
    class itself as OpenSpiel's factory (as OpenSpiel's own Python games do). A class, not a
    closure: OpenSpiel keeps the factory in a C++ static that is destroyed after the interpreter
    has finalized, and a closure freed there aborts the process; a class lives in reference
    cycles that are never freed at that point.
    """

    #: our game's name (set on the per-game subclass)
    game_name: ClassVar[str] = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_name = self.game_name
        if game_name not in _REGISTERED:
            raise ConfigError(f"{type(self).__name__}: not a registered copsolver game ({game_name!r})")
        registered = _REGISTERED[game_name]
        options = {
            key: _decode_param(key, value, key in registered.listy)
            for key, value in (params or {}).items()
            if key != MAX_MOVES
        }
        options = {key: value for key, value in options.items() if value is not None}
        self.copsolver: Game = games.load(game_name, **options)
        self.spec: AdapterSpec = registered.spec
        self.bounds: Bounds = registered.spec.bounds_for(self.copsolver, (params or {}).get(MAX_MOVES))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_distinct_actions,
            max_chance_outcomes=self.bounds.max_chance_outcomes,
            num_players=self.copsolver.num_players,
            min_utility=self.bounds.min_utility,
            max_utility=self.bounds.max_utility,
            utility_sum=0.0 if self.bounds.zero_sum else None,
            max_game_length=self.bounds.max_game_length,
        )
        super().__init__(_game_type(registered, self.bounds), info, params or {})
        self._encoder: Encoder | None = None

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        # The per-game class exists only once register() has run, so a pickle names the game and
        # its parameters instead, and loading it registers the game first (in any process).
        return (_load_registered, (self.game_name, dict(self.get_parameters())))

    @property
    def encoder(self) -> Encoder:
        """The game's observation encoder (built on first use)."""
        if self._encoder is None:
            self._encoder = self.spec.encoder(self.copsolver)
        return self._encoder

    def new_initial_state(self, data: JSON | None = None) -> CopsolverState:
        """A pyspiel state around our initial state, or around the position of our state JSON ``data``.

        ``data`` is :meth:`State.to_json` output; its actions are replayed with checks through
        ``apply_action``, so pyspiel's history matches (BadStateError names a bad action).
        """
        state = CopsolverState(self, self.copsolver.new_initial_state())
        if data is not None:
            for action in self.copsolver.state_from_json(data).history:
                state.apply_action(action)
        return state

    def max_chance_nodes_in_history(self) -> int:
        """The most chance nodes in one game (OpenSpiel asks Python games for it)."""
        return self.bounds.max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        """The observer behind information-state and observation strings and tensors."""
        if isinstance(iig_obs_type, dict):  # pyspiel passes params alone when no type was asked for
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ConfigError(f"{self.copsolver.name}: observer parameters are not supported, got {params!r}")
        return ViewObserver(self, iig_obs_type)


class CopsolverState(_SpielState):  # type: ignore[misc]
    """A pyspiel state around one of our states (``held``); every rule is ours."""

    def __init__(self, game: CopsolverGame, state: State) -> None:
        super().__init__(game)
        self._held = _Held(state)
        #: the game ends as a draw once the history holds this many actions (None: only the rules end it)
        self._cap: int | None = game.bounds.move_cap

    @property
    def capped(self) -> bool:
        """True when the move cap, not the rules, ended the game (every return is then 0)."""
        state = self._held.state
        cap = self._cap
        return cap is not None and len(state.history) >= cap and state.current_player() != TERMINAL

    @property
    def held(self) -> State:
        """Our state inside (the same object: applying to it moves this state's rules too)."""
        return self._held.state

    def current_player(self) -> int:
        """The seat to act, or pyspiel's CHANCE / TERMINAL ids (TERMINAL at the move cap too)."""
        seat = self._held.state.current_player()
        if self._cap is not None and seat != TERMINAL and len(self._held.state.history) >= self._cap:
            return int(pyspiel.PlayerId.TERMINAL)
        if seat == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if seat == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return seat

    def _legal_actions(self, player: int) -> list[Action]:
        # pyspiel calls this for the player to act only (chance and the end are handled in C++)
        return self._held.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Outcomes and probabilities at a chance node."""
        return self._held.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._held.state.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._held.state.game.action_to_str(action)

    def is_terminal(self) -> bool:
        """True once the game is over, by the rules or at the move cap."""
        return self._held.state.is_terminal() or self.capped

    def returns(self) -> list[float]:
        """One payoff per seat (zeros until the end, and at the move cap: a draw)."""
        return self._held.state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CopsolverState:
        """A state the seat cannot tell from this one, drawn by ``game.resample``.

        ``probability_sampler()`` returns floats in [0, 1) (pyspiel's UniformProbabilitySampler);
        four of them seed the generator, so the sampler alone decides the draw.
        """
        state = self._held.state
        if isinstance(player_id, bool) or not isinstance(player_id, int) or not (
            0 <= player_id < state.game.num_players
        ):
            raise BadStateError(f"resample_from_infostate: player {player_id!r} is not a seat")
        seed = [int(float(probability_sampler()) * 2**32) for _ in range(4)]
        sampled = state.game.resample(state.view(player_id), np.random.default_rng(seed))
        out = self.get_game().new_initial_state()
        # Replayed through apply_action so that pyspiel's own history matches the sampled state.
        for action in sampled.history:
            out.apply_action(action)
        result: CopsolverState = out
        return result

    def __deepcopy__(self, memo: dict[int, Any]) -> CopsolverState:
        clone: CopsolverState = self.clone()
        return clone

    def __str__(self) -> str:
        """The true state as canonical JSON (the game, its options and every action)."""
        return json.dumps(self._held.state.to_json(), sort_keys=True, separators=(",", ":"))


class ViewObserver:
    """OpenSpiel's Python observer protocol over our views.

    Perfect recall (information state): the whole view as canonical JSON. Otherwise (observation):
    the view without its history keys, and the game's encoder vector as the tensor.
    """

    def __init__(self, game: CopsolverGame, iig_obs_type: Any) -> None:
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ConfigError(
                f"{game.copsolver.name}: only observations of public information plus the observer's "
                "own private information are supported (what a seat's view holds)"
            )
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if not self.perfect_recall:
            self.tensor = np.zeros(game.encoder.size, dtype=np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CopsolverState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor`."""
        if self.tensor is not None:
            self.tensor[:] = self.game.encoder.encode(state.held.view(player))

    def string_from(self, state: CopsolverState, player: int) -> str:
        """``player``'s view of ``state`` as canonical JSON (without history unless perfect recall)."""
        data = state.held.view(player).to_json()
        if not self.perfect_recall:
            data = {k: v for k, v in data.items() if k not in self.game.spec.recall_keys}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


# --- registration --------------------------------------------------------------------------------


class _Registered:
    """A game type we registered: its spec, parameter defaults and which parameters are lists."""

    def __init__(self, game_name: str, spec: AdapterSpec, defaults: dict[str, Any]) -> None:
        self.game_name = game_name
        self.spec = spec
        self.listy = frozenset(k for k, v in defaults.items() if not isinstance(v, _PARAM_SCALARS))
        self.parameters = {k: _encode_param(k, v) for k, v in defaults.items()}
        self.parameters[MAX_MOVES] = 0  # the adapter's move cap; 0 keeps the game's default
        #: the per-game subclass OpenSpiel calls with the parameters to build a game
        self.factory: type[CopsolverGame] = type(
            f"CopsolverGame_{game_name}", (CopsolverGame,), {"game_name": game_name, "__module__": __name__}
        )


_REGISTERED: dict[str, _Registered] = {}


def _game_type(registered: _Registered, bounds: Bounds | None) -> Any:
    """The GameType: general-sum and stochastic as registered, narrowed per game by its bounds."""
    kind = pyspiel.GameType
    zero_sum = bounds is not None and bounds.zero_sum
    chance = bounds is None or bounds.max_chance_nodes > 0
    return kind(
        short_name=short_name(registered.game_name),
        long_name=f"copsolver {registered.game_name}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC if chance else kind.ChanceMode.DETERMINISTIC,
        information=kind.Information.IMPERFECT_INFORMATION,
        utility=kind.Utility.ZERO_SUM if zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=registered.spec.max_players,
        min_num_players=registered.spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=registered.parameters,
    )


def register(game_name: str, **options: Any) -> Any:
    """Register our game ``game_name`` with OpenSpiel (once) and return it loaded with ``options``.

    After the first call ``pyspiel.load_game("copsolver_<game_name>", {...})`` works as well, with
    the game constructor's defaults for options left out. Raises ConfigError for an unknown game,
    a game without an adapter spec, or bad options.
    """
    if game_name not in games.GAMES:
        raise ConfigError(f"unknown game {game_name!r}; known: {', '.join(games.names())}")
    if game_name not in _REGISTERED:
        registered = _Registered(game_name, spec_for(game_name), _option_defaults(game_name))
        _REGISTERED[game_name] = registered
        pyspiel.register_game(_game_type(registered, None), registered.factory)
    params = {key: _encode_param(key, value) for key, value in options.items()}
    known = _REGISTERED[game_name].parameters
    for key, value in params.items():
        if key not in known:
            raise ConfigError(f"{game_name}: unknown option {key!r} (options: {', '.join(known)})")
        if type(value) is not type(known[key]):
            raise ConfigError(
                f"{game_name}: option {key}={options[key]!r} must be of type {type(known[key]).__name__} "
                f"(like the default {known[key]!r})"
            )
    return pyspiel.load_game(short_name(game_name), params)


def _load_registered(game_name: str, params: dict[str, Any]) -> Any:
    """Unpickle a game: register ``game_name`` if this process has not, then load it with ``params``."""
    if game_name not in _REGISTERED:
        register(game_name)
    return pyspiel.load_game(short_name(game_name), params)


def copsolver_state(state: Any) -> State:
    """Our state inside a pyspiel state of a registered game (BadStateError for any other state)."""
    if not isinstance(state, CopsolverState):
        raise BadStateError(f"not a copsolver pyspiel state: {type(state).__name__}")
    return state.held


# --- bots ----------------------------------------------------------------------------------------


class CopsolverBot(_SpielBot):  # type: ignore[misc]
    """One of our bots (``bots.make``) seated in OpenSpiel: ``step``, ``inform_action``, ``restart``.

    The bot sees only its seat's views and the events its seat may see, as in our own front ends.
    Events reach it when it is next handed a state (``step`` or ``inform_action``), in order.
    """

    def __init__(self, game: CopsolverGame, player: Seat, name: str, *, seed: int | None = None,
                 **options: Any) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, CopsolverGame):
            raise ConfigError(f"CopsolverBot: expected a registered copsolver game, not {game!r}")
        self.player = player
        self.bot = bots.make(game.copsolver, name, seat=player, rng=seed, **options)
        self._started = False
        self._seen = 0

    def restart(self) -> None:
        """Forget the game; the next state handed over starts a new one."""
        self._started = False
        self._seen = 0

    def restart_at(self, state: Any) -> None:
        """Start a new game at ``state`` (our bot restarts from its seat's view there)."""
        self.restart()
        self._sync(copsolver_state(state))

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Another seat (or chance) is about to play ``action`` at ``state``: catch up on events."""
        self._sync(copsolver_state(state))

    def step(self, state: Any) -> int:
        """Our bot's action for its seat at ``state``."""
        inner = copsolver_state(state)
        if inner.current_player() != self.player:
            raise IllegalActionError(
                f"CopsolverBot({self.bot.name}) plays seat {self.player}; {inner.decision().prompt}"
            )
        self._sync(inner)
        return int(self.bot.step(inner.view(self.player)))

    def provides_policy(self) -> bool:
        """False: our bots choose actions; ask ``bot.advise`` for rankings."""
        return False

    def _sync(self, state: State) -> None:
        if not self._started:
            self.bot.restart(state.view(self.player))
            self._started = True
            self._seen = len(state.events)  # the view holds everything before the restart
            return
        for event in state.events_for(self.player, since=self._seen):
            self.bot.inform(event)
        self._seen = len(state.events)


def openspiel_ismcts_bot(game: CopsolverGame, iterations: int, seed: int, *, uct_c: float = 2.0,
                         rollouts: int = 1) -> Any:
    """OpenSpiel's own Python ISMCTS bot on one of our games, for comparisons with ours.

    Random-rollout evaluation, unlimited world samples (one ``resample_from_infostate`` per
    iteration), UCT with ``uct_c``, final move by visit count, all randomness from ``seed`` (the
    same seed plays the same moves). The bot
    plays whichever seat is to act; OpenSpiel's ISMCTS keys its nodes by (seat, information-state
    string), so every node costs one view rendered to JSON.
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ConfigError(f"openspiel_ismcts_bot: iterations must be a positive int, not {iterations!r}")
    ismcts = require("open_spiel.python.algorithms.ismcts", "openspiel")
    mcts = require("open_spiel.python.algorithms.mcts", "openspiel")
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=random_state)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=uct_c,
        max_simulations=iterations,
        max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        random_state=random_state,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    # By default the bot builds a UniformProbabilitySampler(0, 1) per resample, and pyspiel seeds
    # an unseeded sampler from the clock: the determinizations would change from run to run. Its
    # resampler hook gets one sampler seeded from ``seed`` instead; the search is unchanged.
    sampler = pyspiel.UniformProbabilitySampler(seed % 2**31, 0.0, 1.0)

    def resample(state: CopsolverState, player: int) -> CopsolverState:
        return state.resample_from_infostate(player, sampler)

    bot.set_resampler(resample)
    return bot


__all__ = [
    "PREFIX",
    "CopsolverBot",
    "CopsolverGame",
    "CopsolverState",
    "ViewObserver",
    "copsolver_state",
    "openspiel_ismcts_bot",
    "register",
    "short_name",
]
