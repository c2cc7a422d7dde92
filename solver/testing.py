"""The conformance suite every game must pass: :func:`check_game`.

Every game's tests call ``check_game(game)``; it plays seeded random games to the end and, along the
way, checks that the game keeps the protocol of :mod:`solver.core` (DESIGN.md section 2). A failure
raises :class:`ConformanceError`, whose message names the check, the game's options, and the action
history in notation, so ``game.state_from_json({"actions": [...]})`` rebuilds the failing position.

The checks, by the name :attr:`ConformanceError.check` gives them:

``game``
    ``name`` is a non-empty string, ``num_players`` a positive int; ``config()`` is JSON-native and
    stable; the game equals itself and hashes the same twice.
``playout``
    Random playouts reach a terminal state within ``max_steps`` actions (chance outcomes drawn by
    their probabilities, decisions uniformly); a legal action never raises when applied.
``determinism``
    Two playouts from the same seed give the same history, events, views and returns;
    ``new_initial_state()`` is the same every time (no shuffle or RNG in set-up); running the other
    checks does not change the course of a seeded playout (``view``, ``clone``, ``legal_actions``,
    ``resample`` have no side effects on the state).
``legal-actions``
    ``legal_actions()`` is a list of built-in ``int`` (numpy ints are not JSON-able), strictly
    increasing (sorted and unique), empty exactly when the state is terminal.
``codec``
    Every legal action's ``action_to_str`` (at every state, the action the playout takes) is a
    non-empty string that ``str_to_action`` reads back to the same int; garbage strings raise
    :class:`InvalidActionError`; ``action_to_str`` of an int that is no action returns a string or
    raises :class:`InvalidActionError`, nothing else.
``apply``
    Applying a legal action (a sample of at most ``max_branch`` per state, each on a clone) appends
    exactly that action to ``history``, keeps the earlier events as they were, and gives the same
    state as ``apply_unchecked``.
``illegal-action``
    Ints that are not legal (negative ones, ones just past the largest legal action, random ones)
    are rejected by ``apply`` with :class:`IllegalActionError` and leave the state unchanged
    (``to_json``, history, events, views); a non-int is rejected with :class:`InvalidActionError`;
    at a terminal state every action is rejected.
``clone-independence``
    A clone equals its original (``to_json``, history, events, legal actions, returns, every view)
    and shares no mutable part with it: applying an action to the clone leaves the original as it
    was, and applying one to the original leaves an earlier clone as it was.
``chance``
    At a chance node ``chance_outcomes()`` lists (int, float) pairs with probabilities > 0 summing to
    1 (within 1e-9), and its actions are exactly the legal actions; elsewhere it raises
    :class:`IllegalActionError` or returns nothing.
``decision``
    ``current_player()`` is a seat, :data:`CHANCE` or :data:`TERMINAL`, agreeing with
    ``is_terminal()``/``is_chance_node()``; ``decision().seat`` is the current player; its kind is
    CHANCE at chance nodes, NONE at the end, TURN (``turn_of`` = the seat) or RESPONSE (``turn_of`` =
    another seat) otherwise; it has a prompt and JSON-native ``to_json()``.
``returns``
    ``returns()`` holds one finite float per seat, in every state.
``events``
    Each new event is an :class:`~solver.core.Event` whose ``visible_to`` is None or a frozenset of
    seats and whose ``to_json()`` is JSON-native with a ``kind``; ``events_for(seat)`` is exactly the
    events ``visible(seat)``.
``views``
    For every seat, ``view(seat)`` is a :class:`~solver.core.View` of that seat and game; its JSON is
    JSON-native (lists, not tuples; string keys) with ``game``, ``config`` and ``seat``; its legal
    actions are the state's for the seat that must act and empty for the others; the acting seat's
    view has the state's decision; ``key()`` is an int, and the view and its key are the same when
    asked twice and when asked of a clone; a view taken earlier does not change when the state moves
    on (views are snapshots).
``view-json``
    ``game.view_from_json`` of the view's JSON (after ``json.dumps``/``json.loads``) equals the view,
    with the same key, seat, legal actions and decision.
``state-json``
    ``state.to_json()`` is JSON-native, names the game and its config, and
    ``game.state_from_json`` of it gives a state with the same JSON, history, events, legal
    actions, returns and views.
``no-leak``
    For every seat, states drawn by ``game.resample(view, rng)`` (``resamples`` per seat) have the
    same view for that seat and show it the same events as the true state. The resampler varies what
    the seat cannot see, so a view or event that shows a hidden fact differs between the true state
    and its resamples: this is how a leak shows. (It also fails when ``resample`` breaks its
    invariant; the message says which seat and view.) A resampler that copies every fact it finds
    in the view would carry a leaked fact over and hide the leak, so write ``resample`` from the
    rules of what the seat knows, reading only the view fields that should hold it.
``resample``
    ``resample`` returns a :class:`~solver.core.State` of the same game, terminal when the true state
    is, with the same legal actions when the seat is the one to act; it passes the per-state checks
    and can be played on. For one seat per deep state, in rotation: it is deterministic given its
    rng, and the state it draws is reachable (its ``to_json`` replays, through ``state_from_json``,
    to the same view).

The cheap per-state checks (legal-actions, decision, returns, chance, events) run on every state;
the rest run on every ``check_every``-th state of a playout and on every terminal state.
:class:`CheckReport` counts what was checked; ``resamples_varied`` counts resamples whose state
differs from the true one, which shows the no-leak check had hidden facts to vary.

>>> from solver.testing import check_game
>>> report = check_game(game, games=5)  # doctest: +SKIP
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from solver.core.errors import IllegalActionError, InvalidActionError
from solver.core.events import Event
from solver.core.game import JSON, Decision, DecisionKind, Game, State, View
from solver.core.referee import draw_outcome, play_out
from solver.core.types import CHANCE, TERMINAL, Action, Seat

__all__ = ["CHECKS", "CheckReport", "ConformanceError", "check_game", "random_game"]

#: Every check's name, as :attr:`ConformanceError.check` gives it.
CHECKS: Final[tuple[str, ...]] = (
    "game",
    "playout",
    "determinism",
    "legal-actions",
    "codec",
    "apply",
    "illegal-action",
    "clone-independence",
    "chance",
    "decision",
    "returns",
    "events",
    "views",
    "view-json",
    "state-json",
    "no-leak",
    "resample",
)

#: Strings no game's notation may read.
GARBAGE: Final[tuple[str, ...]] = (
    "",
    "   ",
    "\x00\x01",
    "@@ not an action @@",
    "xyzzy plugh 42 !!",
    "\u2603\u2603",
    "((",
    "z" * 300,
)

_CHANCE_TOLERANCE: Final[float] = 1e-9


class ConformanceError(Exception):
    """A game broke the protocol; the message names the check, the game and the actions that got there."""

    def __init__(self, check: str, detail: str, *, game: str, config: Any, actions: Sequence[str]) -> None:
        self.check = check
        self.detail = detail
        self.game = game
        self.config = config
        self.actions = list(actions)
        super().__init__(
            f"[{check}] {detail}\n"
            f"  game: {game} {_dumps(config)}\n"
            f"  actions ({len(self.actions)}): {json.dumps(self.actions)}"
        )

    def __reduce__(self) -> tuple[Any, ...]:  # keep the fields across pickling (multiprocessing)
        kwargs = {"game": self.game, "config": self.config, "actions": self.actions}
        return (_rebuild_error, (self.check, self.detail, kwargs))


def _rebuild_error(check: str, detail: str, kwargs: dict[str, Any]) -> ConformanceError:
    return ConformanceError(check, detail, **kwargs)


@dataclass
class CheckReport:
    """What :func:`check_game` checked."""

    game: str
    config: JSON
    games: int = 0  # playouts played to a terminal state
    states: int = 0  # states visited on those playouts (terminal ones included)
    chance_nodes: int = 0
    turn_nodes: int = 0
    response_nodes: int = 0
    deep_checks: int = 0  # states that ran the expensive checks
    views_checked: int = 0
    actions_applied_on_clones: int = 0
    illegal_probes: int = 0
    json_round_trips: int = 0  # state_from_json(to_json) round trips
    resamples: int = 0
    resamples_varied: int = 0  # resamples whose state differs from the true one
    longest_game: int = 0  # actions in the longest playout
    most_legal: int = 0  # largest number of legal actions seen
    distinct_games: int = 0  # distinct histories among the playouts
    histories: list[list[Action]] = field(default_factory=list, repr=False)

    def __str__(self) -> str:
        return (
            f"{self.game}: {self.games} games, {self.states} states ({self.chance_nodes} chance, "
            f"{self.turn_nodes} turn, {self.response_nodes} response), {self.deep_checks} deep checks, "
            f"{self.resamples} resamples ({self.resamples_varied} varied), longest game {self.longest_game}"
        )


def check_game(
    game: Game,
    *,
    seed: int = 0,
    games: int = 10,
    max_steps: int = 10_000,
    check_every: int = 2,
    resamples: int = 2,
    max_branch: int = 8,
    illegal_probes: int = 6,
    deep_states: int | None = None,
) -> CheckReport:
    """Run the conformance suite on ``game``; raise :class:`ConformanceError` at the first failure.

    ``games`` seeded random playouts are played to the end (at most ``max_steps`` actions each). The
    cheap checks run on every state, the expensive ones (codec, clones, illegal actions, views, JSON
    round trips, resampling) on every ``check_every``-th state and every terminal state, with
    ``resamples`` resamples per seat, at most ``max_branch`` legal actions tried on clones and
    ``illegal_probes`` random illegal ints (besides a few fixed ones). The same ``seed`` runs the same
    checks on the same states. ``deep_states`` limits the expensive checks to the first that many
    states of each game (and its terminal state) at the same density, for a short run that keeps
    the density: the games are still played to the end with the cheap checks.
    """
    counts = (games, max_steps, check_every, max_branch, 1 if deep_states is None else deep_states)
    if min(counts) < 1 or resamples < 0 or illegal_probes < 0:
        raise ValueError(
            f"check_game: games={games}, max_steps={max_steps}, check_every={check_every}, "
            f"resamples={resamples}, max_branch={max_branch}, illegal_probes={illegal_probes}, "
            f"deep_states={deep_states}: counts must be positive (resamples and illegal_probes may be 0)"
        )
    checker = _Checker(
        game,
        max_steps=max_steps,
        check_every=check_every,
        resamples=resamples,
        max_branch=max_branch,
        illegal_probes=illegal_probes,
        deep_states=deep_states,
    )
    return checker.run(seed, games)


def random_game(
    game: Game,
    rng: np.random.Generator,
    check: Callable[[State], None] | None = None,
    every: int = 1,
    max_steps: int = 50_000,
) -> State:
    """Play ``game`` to the end: chance outcomes drawn by their probabilities, decisions uniformly.

    ``check(state)`` runs before every ``every``-th action and on the final state (a game's own
    invariants); actions go through ``apply_unchecked``, so a check is what catches a bad state. A
    game still running after ``max_steps`` actions raises ``AssertionError`` with its last actions.
    """
    state = game.new_initial_state()
    steps = 0

    def uniform(st: State, _: Seat) -> Action:
        legal = st.legal_actions()
        return legal[int(rng.integers(len(legal)))]

    def unchecked(st: State, action: Action) -> State:
        st.apply_unchecked(action)
        return st

    def checked(st: State, _: Seat, __: Action) -> None:  # before the next action, or the final check below
        nonlocal steps
        steps += 1
        if check is not None and steps % every == 0 and not st.is_terminal():
            check(st)

    if check is not None and not state.is_terminal():
        check(state)
    state = play_out(state, uniform, rng, on_step=checked, max_steps=max_steps, apply=unchecked)
    if not state.is_terminal():
        actions = state.to_json()["actions"][-40:]
        raise AssertionError(f"no end after {max_steps:,} actions: {actions}")
    if check is not None:
        check(state)
    return state


# --- the checker --------------------------------------------------------------------------------
class _Checker:
    def __init__(
        self,
        game: Game,
        *,
        max_steps: int,
        check_every: int,
        resamples: int,
        max_branch: int,
        illegal_probes: int,
        deep_states: int | None = None,
    ) -> None:
        self.game = game
        self.deep_states = deep_states
        self.max_steps = max_steps
        self.check_every = check_every
        self.resamples = resamples
        self.max_branch = max_branch
        self.illegal_probes = illegal_probes
        self.name = str(getattr(game, "name", type(game).__name__))
        try:
            self.config: Any = game.config()
        except Exception as err:
            raise ConformanceError(
                "game",
                f"config() raised {type(err).__name__}: {err}",
                game=self.name,
                config=None,
                actions=[],
            ) from err
        self.n = getattr(game, "num_players", 0)
        self.where = ""  # set while checking a state that resample drew rather than the playout's
        self.report = CheckReport(game=self.name, config=self.config)

    # --- failures ---------------------------------------------------------------------------------
    def fail(self, check: str, detail: str, state: State | None = None) -> ConformanceError:
        actions = _notation(self.game, state.history) if state is not None else []
        if self.where:
            detail = f"{detail} (in {self.where})"
        return ConformanceError(check, detail, game=self.name, config=self.config, actions=actions)

    @contextmanager
    def guard(self, check: str, state: State | None, doing: str) -> Iterator[None]:
        """Turn an unexpected exception into a ConformanceError of ``check``."""
        try:
            yield
        except ConformanceError:
            raise
        except Exception as err:
            raise self.fail(check, f"{doing} raised {type(err).__name__}: {err}", state) from err

    # --- the run ----------------------------------------------------------------------------------
    def run(self, seed: int, games: int) -> CheckReport:
        self.check_game_object()
        seqs = [s.spawn(2) for s in np.random.SeedSequence(seed).spawn(games)]
        baseline: dict[int, list[Action]] = {}
        for i in range(min(2, games)):
            first = self.bare_playout(seqs[i][0])
            second = self.bare_playout(seqs[i][0])
            with self.guard("determinism", second, "observing the end of a playout"):
                a, b = _outcome(first), _outcome(second)
            if a != b:
                raise self.fail(
                    "determinism",
                    f"two playouts from the same seed differ in {_diff(a, b)}; does the state hold an RNG "
                    "or read global state?",
                    second,
                )
            baseline[i] = list(first.history)
        self.check_setup()
        distinct: set[tuple[Action, ...]] = set()
        for i in range(games):
            walk = np.random.default_rng(seqs[i][0])
            probe = np.random.default_rng(seqs[i][1])
            state = self.checked_playout(walk, probe)
            if i in baseline and state.history != baseline[i]:
                raise self.fail(
                    "determinism",
                    "the checked playout took another course than the same seed's bare playout: a check "
                    "changed the state (view, clone, legal_actions, resample or a rejected action has a "
                    f"side effect); bare playout: {json.dumps(_notation(self.game, baseline[i]))}",
                    state,
                )
            distinct.add(tuple(state.history))
            self.report.histories.append(list(state.history))
        self.report.distinct_games = len(distinct)
        return self.report

    def check_game_object(self) -> None:
        game = self.game
        with self.guard("game", None, "checking the game object"):
            if not isinstance(game, Game):
                raise self.fail("game", f"{game!r} is not a solver.core.Game")
            if not isinstance(game.name, str) or not game.name:
                raise self.fail("game", f"name {game.name!r} should be a non-empty string")
            if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 1:
                raise self.fail("game", f"num_players {self.n!r} should be a positive int")
            problem = _json_problem(self.config, "config()")
            if problem or not isinstance(self.config, dict):
                raise self.fail(
                    "game", f"config() is not a JSON object: {problem or type(self.config).__name__}"
                )
            if game.config() != self.config:
                raise self.fail("game", "config() differs between two calls")
            if game != game or hash(game) != hash(game):
                raise self.fail("game", "the game does not equal itself or hashes differently twice")

    def check_setup(self) -> None:
        with self.guard("determinism", None, "new_initial_state()"):
            a, b = self.game.new_initial_state(), self.game.new_initial_state()
            if not isinstance(a, State):
                raise self.fail("game", f"new_initial_state() returned {type(a).__name__}, not a State")
            fa, fb = self.fingerprint(a, "determinism"), self.fingerprint(b, "determinism")
        if fa != fb:
            raise self.fail(
                "determinism",
                f"two calls of new_initial_state() differ in {_diff(fa, fb)}: set-up must not shuffle or "
                "draw; make it a chance node",
                a,
            )

    def bare_playout(self, seq: np.random.SeedSequence) -> State:
        """A seeded random playout with no checks but termination, legal actions and chance."""
        rng = np.random.default_rng(seq)
        with self.guard("playout", None, "new_initial_state()"):
            state = self.game.new_initial_state()
        for step in range(self.max_steps + 1):
            with self.guard("playout", state, "asking whose turn it is"):
                over = state.is_terminal()
            legal = self.check_legal(state, over)
            if over:
                return state
            if step == self.max_steps:
                break
            action = self.choose(state, legal, rng)
            with self.guard("playout", state, f"applying legal action {self.text(action)}"):
                state.apply(action)
        raise self.fail("playout", f"no terminal state after max_steps={self.max_steps} actions", state)

    def checked_playout(self, walk: np.random.Generator, probe: np.random.Generator) -> State:
        with self.guard("playout", None, "new_initial_state()"):
            state = self.game.new_initial_state()
        self.check_events(state.events, state)
        kept: tuple[State, dict[str, Any], list[tuple[View, JSON]]] | None = None
        step = 0
        while True:
            self.report.states += 1
            legal = self.check_cheap(state)
            deep = (step % self.check_every == 0 and (self.deep_states is None or step < self.deep_states)
                    ) or state.is_terminal()
            if deep:
                self.check_deep(state, legal, probe)
            if state.is_terminal():
                self.report.games += 1
                self.report.longest_game = max(self.report.longest_game, len(state.history))
                return state
            if step >= self.max_steps:
                raise self.fail(
                    "playout", f"no terminal state after max_steps={self.max_steps} actions", state
                )
            action = self.choose(state, legal, walk)
            self.check_codec(state, [action], garbage=False)
            if deep:
                with self.guard("clone-independence", state, "clone()"):
                    clone = state.clone()
                    kept = (
                        clone,
                        self.fingerprint(clone),
                        [(v, copy.deepcopy(v.to_json())) for v in self.views(state)],
                    )
            before_history, before_events = list(state.history), list(state.events)
            with self.guard("playout", state, f"applying legal action {self.text(action)}"):
                state.apply(action)
            self.check_applied(state, action, before_history, before_events)
            if kept is not None:
                clone, snapshot, views = kept
                after = self.fingerprint(clone)
                if after != snapshot:
                    raise self.fail(
                        "clone-independence",
                        f"applying {self.text(action)} to the original changed a clone taken before it, in "
                        f"{_diff(snapshot, after)}: the clone shares a mutable part",
                        state,
                    )
                for view, data in views:
                    with self.guard("views", state, f"seat {view.seat}'s earlier view"):
                        now = view.to_json()
                    if now != data:
                        raise self.fail(
                            "views",
                            f"seat {view.seat}'s view changed after {self.text(action)} was applied to the "
                            "state: a view must be a snapshot, not a window onto the state",
                            state,
                        )
                kept = None
            step += 1

    def choose(self, state: State, legal: list[Action], rng: np.random.Generator) -> Action:
        with self.guard("playout", state, "asking whose turn it is"):
            chance = state.is_chance_node()
        if chance:
            return draw_outcome(self.check_chance(state, legal), rng)
        if not legal:
            raise self.fail("legal-actions", "no legal actions in a state that is not terminal", state)
        return int(legal[int(rng.integers(len(legal)))])

    # --- cheap checks, every state ----------------------------------------------------------------
    def check_cheap(self, state: State) -> list[Action]:
        """legal-actions, decision, returns and chance checks; return the legal actions."""
        with self.guard("decision", state, "current_player()/is_terminal()/is_chance_node()"):
            player = state.current_player()
            terminal, chance = state.is_terminal(), state.is_chance_node()
        if isinstance(player, bool) or not isinstance(player, int):
            raise self.fail("decision", f"current_player() is {player!r}, not an int", state)
        if not (0 <= player < self.n or player in (CHANCE, TERMINAL)):
            raise self.fail(
                "decision", f"current_player() is {player}, not a seat, CHANCE or TERMINAL", state
            )
        if terminal != (player == TERMINAL) or chance != (player == CHANCE):
            raise self.fail(
                "decision",
                f"current_player() is {player} but is_terminal() is {terminal} "
                f"and is_chance_node() is {chance}",
                state,
            )
        legal = self.check_legal(state, terminal)
        self.check_decision(state, player)
        self.check_returns(state)
        if chance:
            self.report.chance_nodes += 1
            self.check_chance(state, legal)
        return legal

    def check_legal(self, state: State, terminal: bool) -> list[Action]:
        with self.guard("legal-actions", state, "legal_actions()"):
            raw = state.legal_actions()
        if not isinstance(raw, list):
            raise self.fail(
                "legal-actions", f"legal_actions() returned {type(raw).__name__}, not a list", state
            )
        for a in raw:
            if isinstance(a, bool) or not isinstance(a, int):
                raise self.fail(
                    "legal-actions", f"legal action {a!r} is a {type(a).__name__}, not a built-in int", state
                )
        if any(x >= y for x, y in zip(raw, raw[1:], strict=False)):
            raise self.fail("legal-actions", f"legal actions {raw[:20]} are not sorted and unique", state)
        if terminal and raw:
            raise self.fail("legal-actions", f"a terminal state lists legal actions {raw[:20]}", state)
        if not terminal and not raw:
            raise self.fail("legal-actions", "no legal actions in a state that is not terminal", state)
        self.report.most_legal = max(self.report.most_legal, len(raw))
        return list(raw)

    def check_decision(self, state: State, player: Seat) -> None:
        with self.guard("decision", state, "decision()"):
            d = state.decision()
            if not isinstance(d, Decision):
                raise self.fail("decision", f"decision() returned {type(d).__name__}, not a Decision", state)
            problem = _json_problem(d.to_json(), "decision().to_json()")
        if problem:
            raise self.fail("decision", problem, state)
        if d.seat != player:
            raise self.fail(
                "decision", f"decision().seat is {d.seat} but current_player() is {player}", state
            )
        expected = {CHANCE: DecisionKind.CHANCE, TERMINAL: DecisionKind.NONE}.get(player)
        if expected is not None and d.kind != expected:
            raise self.fail("decision", f"decision().kind is {d.kind} at current_player() {player}", state)
        if expected is None and d.kind not in (DecisionKind.TURN, DecisionKind.RESPONSE):
            raise self.fail("decision", f"decision().kind is {d.kind} at seat {player}'s decision", state)
        if d.kind == DecisionKind.TURN and d.turn_of != d.seat:
            raise self.fail(
                "decision", f"a TURN decision of seat {d.seat} says it is seat {d.turn_of}'s turn", state
            )
        if d.kind == DecisionKind.RESPONSE and (d.turn_of == d.seat or not 0 <= d.turn_of < self.n):
            raise self.fail(
                "decision",
                f"a RESPONSE of seat {d.seat} must answer inside another seat's turn, not seat {d.turn_of}'s",
                state,
            )
        if d.kind in (DecisionKind.CHANCE, DecisionKind.NONE) and not (
            d.turn_of == d.seat or 0 <= d.turn_of < self.n
        ):
            raise self.fail("decision", f"decision().turn_of is {d.turn_of}, not a seat", state)
        if not isinstance(d.prompt, str) or not d.prompt:
            raise self.fail("decision", f"decision().prompt is {d.prompt!r}, not a non-empty string", state)
        if d.kind == DecisionKind.TURN:
            self.report.turn_nodes += 1
        elif d.kind == DecisionKind.RESPONSE:
            self.report.response_nodes += 1

    def check_returns(self, state: State) -> None:
        with self.guard("returns", state, "returns()"):
            r = state.returns()
        if not isinstance(r, (list, tuple)) or len(r) != self.n:
            raise self.fail("returns", f"returns() is {r!r}: expected {self.n} floats, one per seat", state)
        for x in r:
            if not isinstance(x, float) or not math.isfinite(x):
                raise self.fail("returns", f"returns() is {r!r}: {x!r} is not a finite float", state)

    def check_chance(self, state: State, legal: list[Action]) -> list[tuple[Action, float]]:
        with self.guard("chance", state, "chance_outcomes()"):
            outcomes = state.chance_outcomes()
        if not isinstance(outcomes, (list, tuple)) or not outcomes:
            raise self.fail(
                "chance", f"chance_outcomes() is {outcomes!r}: expected (action, probability) pairs", state
            )
        pairs: list[tuple[Action, float]] = []
        for pair in outcomes:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise self.fail(
                    "chance", f"chance outcome {pair!r} is not an (action, probability) pair", state
                )
            a, p = pair
            if isinstance(a, bool) or not isinstance(a, int):
                raise self.fail("chance", f"chance outcome {a!r} is not a built-in int", state)
            if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p) or p <= 0:
                raise self.fail(
                    "chance", f"outcome {self.text(a)} has probability {p!r}; expected > 0", state
                )
            pairs.append((a, float(p)))
        total = math.fsum(p for _, p in pairs)
        if abs(total - 1.0) > _CHANCE_TOLERANCE:
            raise self.fail("chance", f"chance probabilities sum to {total!r}, not 1", state)
        actions = [a for a, _ in pairs]
        if len(set(actions)) != len(actions) or sorted(actions) != legal:
            raise self.fail(
                "chance",
                f"chance outcomes {sorted(actions)[:20]} are not the legal actions {legal[:20]} (each once)",
                state,
            )
        return pairs

    def check_applied(self, state: State, action: Action, history: list[Action], events: list[Event]) -> None:
        """After ``apply(action)``: history grew by the action, old events stayed, new events are sound."""
        if state.history != [*history, action]:
            raise self.fail(
                "apply",
                f"after applying {self.text(action)} the history ends {state.history[-3:]}; "
                f"expected {[*history[-2:], action]}",
                state,
            )
        if state.events[: len(events)] != events:
            raise self.fail("apply", f"applying {self.text(action)} changed earlier events", state)
        self.check_events(state.events[len(events) :], state)

    def check_events(self, new: Sequence[Event], where: State) -> None:
        for e in new:
            if not isinstance(e, Event):
                raise self.fail("events", f"event {e!r} is not a solver.core.Event", where)
            vis = e.visible_to
            if vis is not None and (not isinstance(vis, frozenset) or not all(0 <= s < self.n for s in vis)):
                raise self.fail(
                    "events", f"event {e!r} has visible_to {vis!r}: None or a frozenset of seats", where
                )
            with self.guard("events", where, f"{type(e).__name__}.to_json()"):
                data = e.to_json()
            problem = _json_problem(data, f"{type(e).__name__}.to_json()")
            if problem or not isinstance(data, dict) or "kind" not in data:
                raise self.fail("events", problem or f"{type(e).__name__}.to_json() lacks 'kind'", where)

    # --- expensive checks, every check_every-th state ---------------------------------------------
    def check_deep(self, state: State, legal: list[Action], rng: np.random.Generator) -> None:
        self.report.deep_checks += 1
        self.check_codec(state, legal)
        self.check_events_for(state)
        self.check_views(state, legal)
        self.check_clones(state, legal, rng)
        self.check_illegal(state, legal, rng)
        self.check_not_chance(state)
        self.check_state_json(state)
        self.check_resample(state, legal, rng)

    def check_codec(self, state: State, legal: list[Action], *, garbage: bool = True) -> None:
        game = self.game
        for a in legal:
            with self.guard("codec", state, f"action_to_str({a})"):
                text = game.action_to_str(a)
            if not isinstance(text, str) or not text.strip():
                raise self.fail("codec", f"action_to_str({a}) is {text!r}, not a non-empty string", state)
            with self.guard("codec", state, f"str_to_action({text!r}) of legal action {a}"):
                back = game.str_to_action(text)
            if back != a or isinstance(back, bool) or not isinstance(back, int):
                raise self.fail(
                    "codec", f"action {a} renders as {text!r}, which reads back as {back!r}", state
                )
        for junk in GARBAGE if garbage else ():
            try:
                got = game.str_to_action(junk)
            except InvalidActionError:
                continue
            except Exception as err:
                raise self.fail(
                    "codec",
                    f"str_to_action({junk[:40]!r}) raised {type(err).__name__}, not InvalidActionError",
                    state,
                ) from err
            raise self.fail("codec", f"str_to_action({junk[:40]!r}) read garbage as action {got!r}", state)

    def check_clones(self, state: State, legal: list[Action], rng: np.random.Generator) -> None:
        with self.guard("clone-independence", state, "clone()"):
            snapshot = self.fingerprint(state)
            clone = state.clone()
            if type(clone) is not type(state):
                raise self.fail("clone-independence", f"clone() returned a {type(clone).__name__}", state)
            copied = self.fingerprint(clone)
        if copied != snapshot:
            raise self.fail(
                "clone-independence",
                f"a fresh clone differs from its original in {_diff(snapshot, copied)}",
                state,
            )
        if clone.history is state.history or clone.events is state.events:
            raise self.fail(
                "clone-independence", "the clone shares its history or events list with the original", state
            )
        for i, a in enumerate(_sample(legal, self.max_branch, rng)):
            with self.guard("apply", state, f"applying legal action {self.text(a)} to a clone"):
                clone = state.clone()
                before_events = list(clone.events)
                clone.apply(a)
            self.report.actions_applied_on_clones += 1
            self.check_applied(clone, a, state.history, before_events)
            after = self.fingerprint(state)
            if after != snapshot:
                raise self.fail(
                    "clone-independence",
                    f"applying {self.text(a)} to a clone changed the original in {_diff(snapshot, after)}",
                    state,
                )
            if i == 0:
                with self.guard("apply", state, f"apply_unchecked({self.text(a)}) on a clone"):
                    fast = state.clone()
                    fast.apply_unchecked(a)
                checked, unchecked = self.fingerprint(clone, "apply"), self.fingerprint(fast, "apply")
                if checked != unchecked:
                    raise self.fail(
                        "apply",
                        f"apply and apply_unchecked of legal action {self.text(a)} differ in "
                        f"{_diff(checked, unchecked)}",
                        state,
                    )

    def check_illegal(self, state: State, legal: list[Action], rng: np.random.Generator) -> None:
        top = max(legal) if legal else 0
        candidates = [-1, -(top + 2), top + 1, 2**31 - 1]
        candidates += [int(x) for x in rng.integers(0, top + 50, size=self.illegal_probes)]
        probes = [p for p in dict.fromkeys(candidates) if p not in legal]
        snapshot = self.fingerprint(state, "illegal-action")
        with self.guard("illegal-action", state, "taking a snapshot"):
            light = _light(state)
        for p in probes:
            self.report.illegal_probes += 1
            try:
                text = self.game.action_to_str(p)
            except InvalidActionError:
                pass
            except Exception as err:
                raise self.fail(
                    "codec",
                    f"action_to_str({p}) of a non-action raised {type(err).__name__}, not InvalidActionError",
                    state,
                ) from err
            else:
                if not isinstance(text, str):
                    raise self.fail("codec", f"action_to_str({p}) is {text!r}, not a string", state)
            self.expect_rejected(state, p, IllegalActionError, f"illegal action {p}")
            with self.guard("illegal-action", state, f"observing the state after rejecting {p}"):
                changed = _light(state) != light
            if changed:
                raise self.fail("illegal-action", f"rejecting illegal action {p} changed the state", state)
        bad: Any = "1"
        self.expect_rejected(state, bad, InvalidActionError, "the string '1' (not an int)")
        after = self.fingerprint(state, "illegal-action")
        if after != snapshot:
            raise self.fail(
                "illegal-action",
                f"rejecting illegal actions changed the state in {_diff(snapshot, after)}",
                state,
            )

    def expect_rejected(self, state: State, action: Any, error: type[Exception], what: str) -> None:
        with self.guard("illegal-action", state, "observing the state"):
            before = _light(state)
        try:
            state.apply(action)
        except error:
            return
        except Exception as err:
            raise self.fail(
                "illegal-action",
                f"apply of {what} raised {type(err).__name__} ({err}), not {error.__name__}",
                state,
            ) from err
        with self.guard("illegal-action", state, f"observing the state after applying {what}"):
            hint = "" if _light(state) == before else "; it changed the state"
        raise self.fail("illegal-action", f"apply accepted {what}{hint}", state)

    def check_not_chance(self, state: State) -> None:
        if state.is_chance_node():
            return
        try:
            outcomes = state.chance_outcomes()
        except IllegalActionError:
            return
        except Exception as err:
            raise self.fail(
                "chance",
                f"chance_outcomes() off a chance node raised {type(err).__name__}, not IllegalActionError",
                state,
            ) from err
        if outcomes:
            raise self.fail(
                "chance", f"chance_outcomes() off a chance node lists {list(outcomes)[:5]}", state
            )

    def check_events_for(self, state: State) -> None:
        for seat in range(self.n):
            with self.guard("events", state, f"events_for({seat})"):
                got = state.events_for(seat)
                want = [e for e in state.events if e.visible(seat)]
            if got != want:
                raise self.fail(
                    "events", f"events_for({seat}) is not the events visible to seat {seat}", state
                )

    def check_views(self, state: State, legal: list[Action]) -> None:
        with self.guard("views", state, "decision()/clone()"):
            decision = state.decision()
            clone = state.clone()
        for seat in range(self.n):
            self.report.views_checked += 1
            with self.guard("views", state, f"view({seat})"):
                view = state.view(seat)
                if not isinstance(view, View):
                    raise self.fail(
                        "views", f"view({seat}) returned {type(view).__name__}, not a View", state
                    )
                data = view.to_json()
                problem = _json_problem(data, f"view({seat}).to_json()")
                if problem or not isinstance(data, dict):
                    raise self.fail("views", problem or f"view({seat}).to_json() is not a JSON object", state)
                if view.seat != seat or data.get("seat") != seat:
                    raise self.fail(
                        "views", f"view({seat}) says it is seat {view.seat}'s ({data.get('seat')!r})", state
                    )
                if (
                    view.game != self.game
                    or data.get("game") != self.name
                    or data.get("config") != self.config
                ):
                    raise self.fail("views", f"view({seat}) does not name this game and config", state)
                shown = tuple(view.legal_actions)
                expected = tuple(legal) if seat == decision.seat else ()
                if shown != expected:
                    raise self.fail(
                        "views",
                        f"view({seat}).legal_actions is {list(shown)[:12]}, expected {list(expected)[:12]} "
                        f"({_who(decision.seat)} acts)",
                        state,
                    )
                if seat == decision.seat and view.decision != decision:
                    raise self.fail(
                        "views", f"the acting seat's view has decision {view.decision}, not {decision}", state
                    )
                key = view.key()
                if isinstance(key, bool) or not isinstance(key, int):
                    raise self.fail("views", f"view({seat}).key() is {key!r}, not an int", state)
                again = state.view(seat)
                if again.to_json() != data or again.key() != key:
                    raise self.fail("views", f"view({seat}) differs between two calls", state)
                twin = clone.view(seat)
                if twin.to_json() != data or twin.key() != key:
                    raise self.fail("views", f"view({seat}) of a clone differs from the original's", state)
            with self.guard("view-json", state, f"view_from_json of view({seat})"):
                back = self.game.view_from_json(json.loads(json.dumps(data)))
                if not isinstance(back, View):
                    raise self.fail(
                        "view-json", f"view_from_json returned {type(back).__name__}, not a View", state
                    )
                rebuilt = back.to_json()
                if back != view or rebuilt != data:
                    raise self.fail(
                        "view-json",
                        f"view_from_json of seat {seat}'s view JSON gives another view: "
                        f"{_diff_json(data, rebuilt)}",
                        state,
                    )
                if back.key() != key or back.seat != seat:
                    raise self.fail(
                        "view-json", f"seat {seat}'s view rebuilt from JSON has another key or seat", state
                    )
                if tuple(back.legal_actions) != shown or back.decision != view.decision:
                    raise self.fail(
                        "view-json",
                        f"seat {seat}'s view rebuilt from JSON has other legal actions or decision",
                        state,
                    )

    def check_state_json(self, state: State) -> None:
        self.report.json_round_trips += 1
        with self.guard("state-json", state, "to_json()/state_from_json()"):
            data = state.to_json()
            problem = _json_problem(data, "to_json()")
            if problem or not isinstance(data, dict):
                raise self.fail("state-json", problem or "to_json() is not a JSON object", state)
            if data.get("game") != self.name or data.get("config") != self.config:
                raise self.fail("state-json", "to_json() does not name this game and config", state)
            back = self.game.state_from_json(json.loads(json.dumps(data)))
            rebuilt = back.to_json()
            if rebuilt != data:
                raise self.fail(
                    "state-json",
                    f"state_from_json(to_json()) has other JSON: {_diff_json(data, rebuilt)}",
                    state,
                )
            a, b = self.fingerprint(state, "state-json"), self.fingerprint(back, "state-json")
            if a != b:
                raise self.fail("state-json", f"state_from_json(to_json()) differs in {_diff(a, b)}", state)
            if _events_json(back.events) != _events_json(state.events):
                raise self.fail("state-json", "state_from_json(to_json()) has other events", state)

    def check_resample(self, state: State, legal: list[Action], rng: np.random.Generator) -> None:
        if self.resamples == 0:
            return
        with self.guard("resample", state, "observing the state"):
            acting = state.decision().seat
            truth = state.to_json()
        thorough = self.report.deep_checks % self.n  # the seat whose first resample is replayed and redrawn
        for seat in range(self.n):
            with self.guard("resample", state, f"view({seat})/events_for({seat})"):
                view = state.view(seat)
                data = view.to_json()
                seen = _events_json(state.events_for(seat))
            for r in range(self.resamples):
                self.report.resamples += 1
                sub = int(rng.integers(2**63))
                with self.guard("resample", state, f"resample(view of seat {seat})"):
                    drawn = self.game.resample(view, np.random.default_rng(sub))
                    if not isinstance(drawn, State) or drawn.game != self.game:
                        raise self.fail(
                            "resample", f"resample(view of seat {seat}) returned {drawn!r}", state
                        )
                with self.guard("no-leak", state, f"view({seat}) of a resampled state"):
                    other = drawn.view(seat).to_json()
                    events = _events_json(drawn.events_for(seat))
                if other != data:
                    raise self.fail(
                        "no-leak",
                        f"seat {seat}'s view of a state drawn by resample(its view) differs in "
                        f"{_diff_json(data, other)}: the view shows a fact the seat cannot know (a leak), or "
                        f"resample does not keep what the view shows; resampled actions: "
                        f"{json.dumps(_notation(self.game, drawn.history))}",
                        state,
                    )
                if events != seen:
                    raise self.fail(
                        "no-leak",
                        f"seat {seat} is shown other events in a state drawn by resample(its view) "
                        f"({_first_difference(seen, events)}): an event visible to seat {seat} carries "
                        "a fact its view hides (a leak), or resample does not rebuild the events it saw",
                        state,
                    )
                self.where = f"a state resample() drew from seat {seat}'s view"
                try:
                    self.check_drawn(
                        state,
                        drawn,
                        seat,
                        sub,
                        legal if seat == acting else None,
                        r == 0 and seat == thorough,
                        view,
                        rng,
                    )
                finally:
                    self.where = ""
                if drawn.to_json() != truth:
                    self.report.resamples_varied += 1

    def check_drawn(
        self,
        state: State,
        drawn: State,
        seat: Seat,
        sub: int,
        legal: list[Action] | None,
        thorough: bool,
        view: View,
        rng: np.random.Generator,
    ) -> None:
        """The per-state checks on a resampled state, and that it can be played on.

        When ``thorough`` (one seat per deep state, in rotation): also that resample is deterministic
        given its rng and that the drawn state's actions replay to the view it was drawn from.
        """
        drawn_legal = self.check_cheap_quiet(drawn)
        if drawn.is_terminal() != state.is_terminal():
            raise self.fail(
                "resample", "the drawn state and the true state disagree on whether the game is over", drawn
            )
        if legal is not None and drawn_legal != legal:
            raise self.fail(
                "resample",
                f"the acting seat's legal actions are {drawn_legal[:12]} here, {legal[:12]} truly",
                drawn,
            )
        if thorough:
            with self.guard("resample", drawn, f"resample(view of seat {seat}) a second time"):
                again = self.game.resample(view, np.random.default_rng(sub))
                if again.to_json() != drawn.to_json():
                    raise self.fail(
                        "resample",
                        "two resamples of one view with equally seeded rngs differ: resample must draw "
                        "only from its rng",
                        drawn,
                    )
            with self.guard("resample", drawn, "state_from_json(to_json()) of the drawn state"):
                replayed = self.game.state_from_json(json.loads(json.dumps(drawn.to_json())))
                if replayed.view(seat) != view:
                    raise self.fail(
                        "resample",
                        "the drawn state's actions do not replay to the view it was drawn from",
                        drawn,
                    )
        if drawn_legal:
            a = drawn_legal[int(rng.integers(len(drawn_legal)))]
            with self.guard(
                "resample", drawn, f"applying legal action {self.text(a)} to a clone of the drawn state"
            ):
                drawn.clone().apply(a)

    def check_cheap_quiet(self, state: State) -> list[Action]:
        """check_cheap without counting the state in the report."""
        r = self.report
        counts = (r.chance_nodes, r.turn_nodes, r.response_nodes, r.most_legal)
        legal = self.check_cheap(state)
        r.chance_nodes, r.turn_nodes, r.response_nodes, r.most_legal = counts
        return legal

    # --- helpers ----------------------------------------------------------------------------------
    def views(self, state: State) -> list[View]:
        return [state.view(s) for s in range(self.n)]

    def fingerprint(self, state: State, check: str = "clone-independence") -> dict[str, str]:
        """Everything observable of ``state``, frozen as JSON text so later mutation cannot alias it."""
        with self.guard(check, state, "observing the state (to_json, legal_actions, returns, views)"):
            return {
                "to_json": _freeze(state.to_json()),
                "history": _freeze(list(state.history)),
                "events": _freeze(len(state.events)),
                "current_player": _freeze(state.current_player()),
                "legal_actions": _freeze(list(state.legal_actions())),
                "returns": _freeze(list(state.returns())),
                **{f"view({s})": _freeze(state.view(s).to_json()) for s in range(self.n)},
            }

    def text(self, action: Action) -> str:
        return _notation(self.game, [action])[0]


# --- module helpers -----------------------------------------------------------------------------
def _notation(game: Game, actions: Sequence[Action]) -> list[str]:
    """The actions in the game's notation; ``#<int>`` where the codec cannot render one."""
    out = []
    for a in actions:
        try:
            text = game.action_to_str(a)
            out.append(text if isinstance(text, str) else f"#{a}")
        except Exception:
            out.append(f"#{a}")
    return out


def _who(player: Seat) -> str:
    return {CHANCE: "CHANCE", TERMINAL: "TERMINAL"}.get(player, f"seat {player}")


def _light(state: State) -> tuple[Any, ...]:
    """A cheap snapshot for the illegal-action probes."""
    return (
        json.dumps(state.to_json(), sort_keys=True, default=repr),
        len(state.history),
        len(state.events),
        state.current_player(),
        tuple(state.legal_actions()),
    )


def _sample(legal: list[Action], k: int, rng: np.random.Generator) -> list[Action]:
    if len(legal) <= k:
        return list(legal)
    picks = rng.choice(len(legal), size=k, replace=False)
    return [legal[int(i)] for i in sorted(picks)]


def _events_json(events: Sequence[Event]) -> list[Any]:
    return [[e.to_json(), None if e.visible_to is None else sorted(e.visible_to)] for e in events]


def _json_problem(value: Any, path: str) -> str | None:
    """Why ``value`` is not JSON-native (equal to itself after json.dumps/json.loads), or None."""
    if value is None or isinstance(value, (bool, str)):
        return None
    if isinstance(value, int) and type(value) is int:
        return None
    if type(value) is float:
        return None if math.isfinite(value) else f"{path} is {value!r}, not a finite number"
    if type(value) is list:
        for i, v in enumerate(value):
            problem = _json_problem(v, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if type(value) is dict:
        for k, v in value.items():
            if not isinstance(k, str):
                return f"{path} has key {k!r}, not a string (JSON would turn it into one)"
            problem = _json_problem(v, f"{path}[{k!r}]")
            if problem:
                return problem
        return None
    kind = type(value).__name__
    return f"{path} is a {kind} ({_short(value)}), not JSON-native (use lists, dicts, str, int, float)"


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def _short(value: Any, limit: int = 200) -> str:
    text = _dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _freeze(value: Any) -> str:
    """``value`` as canonical JSON text (repr for what JSON cannot hold), for cheap snapshots."""
    try:
        return json.dumps(value, sort_keys=True, default=repr)
    except (TypeError, ValueError):  # keys of mixed types cannot be sorted
        return repr(value)


def _thaw(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _diff(a: dict[str, str], b: dict[str, str]) -> str:
    """Name the keys of two snapshots whose values differ, with the first difference."""
    keys = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    if not keys:
        return "nothing"
    first = keys[0]
    x, y = _thaw(a.get(first, "null")), _thaw(b.get(first, "null"))
    return f"{', '.join(keys)} (first, {first}: {_diff_json(x, y)})"


def _diff_json(a: Any, b: Any, path: str = "") -> str:
    """The path to the first difference between two JSON values, and the two values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(a.keys() | b.keys(), key=str):
            if a.get(k) != b.get(k):
                return _diff_json(a.get(k), b.get(k), f"{path}[{k!r}]")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _diff_json(x, y, f"{path}[{i}]")
    return f"{path or 'value'}: {_short(a, 120)} vs {_short(b, 120)}"


def _first_difference(a: list[Any], b: list[Any]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"event {i}: {_short(x, 120)} vs {_short(y, 120)}"
    return f"{len(a)} events vs {len(b)}"


def _outcome(state: State) -> dict[str, str]:
    """What two playouts from one seed must agree on, frozen as JSON text."""
    n = state.game.num_players
    return {
        "history": _freeze(list(state.history)),
        "events": _freeze(_events_json(state.events)),
        "returns": _freeze(list(state.returns())),
        **{f"view({s})": _freeze(state.view(s).to_json()) for s in range(n)},
    }
