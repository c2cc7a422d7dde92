"""Every registered bot of every registered game keeps the bot contract (issue 20 item 8).

The cases come from the registries (:func:`bot_cases`): each game of ``solver.games.names()`` and each
bot ``bots.registry.bots_for(game)`` lists, at the game's default player count. A bot sits in every
seat it accepts (a ConfigError from its constructor means "not this seat"; it must accept one);
the other seats play uniformly random legal moves from their views. Chance is drawn with its own
generator, so a seed gives one deal whoever sits.

* **legal moves only**: every ``step`` returns one of ``view.legal_actions``;
* **deterministic under a seed**: the same seeds give the same game twice (a bot with only a time
  budget would be skipped here, since its search depth follows the clock; every bot with a budget
  has ``iterations`` today);
* **honours its budget**: with ``seconds=S`` each ``step`` returns within ``5 S + 0.5`` seconds, a
  loose bound for a loaded test machine (the measurement is ``bench/bench_budget.py``);
* **never reads beyond its view**: at some decisions of a random game, ``game.resample`` draws another
  world the seat cannot tell from the true one; two bots with the same seed, fed the seat's views and
  events of each world from the start (``restart``, ``inform``, and ``step`` at each earlier
  decision), choose the same action and give the same advice. A bot that peeked at hidden facts
  (through a view's internals, or anything but what it was given) would tell the worlds apart.

Bots with a budget get a small one (``iterations=`` :data:`ITERATIONS`). The fast runs cap a game at
:data:`FAST_DECISIONS` decisions of the bot under test; the slow runs play longer games, more seeds
and more player counts.
"""

from __future__ import annotations

import random
import sys
import time
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pytest

import solver.games
from bots.base import Advice, Bot, Option, RankedAction
from bots.registry import bots_for
from solver.core import Action, ConfigError, Game, Seat, State, View
from solver.core.referee import play_out
from tests.markers import NOTHING_HIDDEN

#: The search budget of bots that take ``iterations``: enough to search, small enough to be quick.
ITERATIONS = 8
#: The time budget of the budget check, and how far over it a step may run on a loaded machine.
SECONDS = 0.05
TOLERANCE = 5 * SECONDS + 0.5
#: Decisions of the bot under test in one fast game (the slow games are longer).
FAST_DECISIONS = 12
SLOW_DECISIONS = 60

#: Known breaches of the contract: (check, game, bot) -> reason. Each is an xfail(strict=True) case.
KNOWN_FAULTS: dict[tuple[str, str, str], str] = {}


def bot_cases() -> list[tuple[str, str]]:
    """(game, bot) for every bot of every registered game."""
    return [(game, bot) for game in solver.games.names() for bot in bots_for(game)]


def budget_options(cls: type[Bot], seconds: float | None = None) -> dict[str, Any]:
    """A small budget for a bot that takes one: ``seconds`` if given, else ``iterations``."""
    if seconds is not None:
        return {"seconds": seconds}
    return {"iterations": ITERATIONS} if "iterations" in cls.options else {}


def _params(check: str, cases: list[tuple[str, str]]) -> Iterator[Any]:
    for game, bot in cases:
        reason = KNOWN_FAULTS.get((check, game, bot))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        yield pytest.param(game, bot, id=f"{game}-{bot}", marks=marks)


# --- playing a game -----------------------------------------------------------------------------------
@dataclass
class Played:
    """What one game showed: its actions, the bot's seats and how long each of its steps took."""

    seats: tuple[Seat, ...]
    actions: list[Action] = field(default_factory=list)
    step_seconds: list[float] = field(default_factory=list)
    choices: int = 0  # the bot's steps with more than one legal action
    illegal: list[str] = field(default_factory=list)


def seat_bots(
    game: Game, name: str, options: dict[str, Any], rngs: list[np.random.Generator]
) -> dict[Seat, Bot]:
    """Bot ``name`` in every seat it accepts (seat -> bot); a ConfigError means it does not play there."""
    cls = bots_for(game.name)[name]
    table: dict[Seat, Bot] = {}
    for seat in range(game.num_players):
        try:
            table[seat] = cls(game, seat, rngs[seat], **options)
        except ConfigError:
            continue
    assert table, f"{name} bot of {game.name} accepts no seat of {game.num_players}"
    return table


def play(game: Game, name: str, options: dict[str, Any], seed: int, max_decisions: int) -> Played:
    """One seeded game with bot ``name`` in every seat it accepts, uniform random moves elsewhere.

    Stops at the end or after ``max_decisions`` of the bot's steps that had a choice (more than one
    legal action). An illegal step is recorded (and the game stops there), not applied.
    """
    n = game.num_players
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(n + 1)]
    table = seat_bots(game, name, options, rngs)
    played = Played(seats=tuple(table))
    state = game.new_initial_state()
    for seat, bot in table.items():
        bot.restart(state.view(seat))
    informed = 0

    def act(st: State, seat: Seat) -> Action:
        view = st.view(seat)
        if seat not in table:
            return view.legal_actions[int(rngs[seat].integers(len(view.legal_actions)))]
        start = time.perf_counter()
        action = table[seat].step(view)
        played.step_seconds.append(time.perf_counter() - start)
        played.choices += len(view.legal_actions) > 1
        if isinstance(action, bool) or not isinstance(action, int) or action not in view.legal_actions:
            played.illegal.append(f"seat {seat} stepped {action!r}, legal {list(view.legal_actions)[:12]} "
                                  f"after {[game.action_to_str(a) for a in st.history]}")
        return action

    def inform(st: State, _: Seat, action: Action) -> None:
        nonlocal informed
        played.actions.append(action)
        for event in st.events[informed:]:
            for seat, bot in table.items():
                if event.visible(seat):
                    bot.inform(event)
        informed = len(st.events)

    def stop(_: State) -> bool:
        return bool(played.illegal) or played.choices >= max_decisions

    def apply(st: State, action: Action) -> State:
        if not played.illegal:
            st.apply(action)
        return st

    play_out(state, act, rngs[n], on_step=inform, stop=stop, apply=apply)
    return played


def check_legal_and_deterministic(
    game_name: str, bot: str, players: int, seeds: range, decisions: int
) -> int:
    """Play each seed twice; every step legal, the same game both times. Returns the steps taken."""
    game = solver.games.load(game_name, players=players)
    cls = bots_for(game_name)[bot]
    options = budget_options(cls)
    steps = 0
    for seed in seeds:
        first = play(game, bot, options, seed, decisions)
        assert not first.illegal, f"{bot} bot of {game_name}, seed {seed}: {first.illegal[0]}"
        assert first.step_seconds, f"{bot} bot of {game_name} never got a decision (seed {seed})"
        if "seconds" in cls.options and "iterations" not in cls.options:
            pytest.skip(f"{bot} bot has only a time budget: its search depth follows the clock")
        again = play(game, bot, options, seed, decisions)
        differ = [i for i, (a, b) in enumerate(zip(first.actions, again.actions, strict=False)) if a != b]
        assert again.actions == first.actions, (
            f"{bot} bot of {game_name}: seed {seed} gave another game the second time, from action "
            f"{differ[0] if differ else min(len(first.actions), len(again.actions))}"
        )
        steps += len(first.step_seconds)
    return steps


# --- (a) legal moves, (b) determinism ----------------------------------------------------------------
@pytest.mark.parametrize(("game_name", "bot"), list(_params("legal", bot_cases())))
def test_legal_moves_and_determinism(game_name: str, bot: str) -> None:
    players = solver.games.spec(game_name).default_players
    check_legal_and_deterministic(game_name, bot, players, range(1), FAST_DECISIONS)


@pytest.mark.slow
@pytest.mark.parametrize(("game_name", "bot"), list(_params("legal", bot_cases())))
def test_legal_moves_and_determinism_thorough(game_name: str, bot: str) -> None:
    spec = solver.games.spec(game_name)
    for players in sorted({spec.min_players, spec.max_players}):
        check_legal_and_deterministic(game_name, bot, players, range(10, 11), SLOW_DECISIONS)


def test_every_bot_is_covered() -> None:
    """The cases follow the registries: every bot of every game, and bots that refuse seats still play."""
    cases = bot_cases()
    for game_name in solver.games.names():
        assert {b for g, b in cases if g == game_name} == set(bots_for(game_name))
        assert "random" in bots_for(game_name)


# --- (c) the time budget -----------------------------------------------------------------------------
def timed_cases() -> list[tuple[str, str]]:
    """The bots that take a time budget (``seconds``)."""
    return [(g, b) for g, b in bot_cases() if "seconds" in bots_for(g)[b].options]


def check_budget(game_name: str, bot: str, players: int, seed: int, decisions: int) -> None:
    """Each step with ``seconds=SECONDS`` returns within :data:`TOLERANCE`."""
    game = solver.games.load(game_name, players=players)
    played = play(game, bot, budget_options(bots_for(game_name)[bot], SECONDS), seed, decisions)
    assert not played.illegal, played.illegal[0]
    slow = [round(s, 3) for s in played.step_seconds if s > TOLERANCE]
    assert not slow, f"{bot} bot of {game_name} with seconds={SECONDS}: steps took {slow} s"


@pytest.mark.parametrize(("game_name", "bot"), list(_params("budget", timed_cases())))
def test_time_budget(game_name: str, bot: str) -> None:
    check_budget(game_name, bot, solver.games.spec(game_name).default_players, seed=3, decisions=12)


@pytest.mark.slow
@pytest.mark.parametrize(("game_name", "bot"), list(_params("budget", timed_cases())))
def test_time_budget_thorough(game_name: str, bot: str) -> None:
    spec = solver.games.spec(game_name)
    for players in sorted({spec.min_players, spec.max_players}):
        check_budget(game_name, bot, players, seed=4, decisions=40)


# --- (d) nothing beyond the view ------------------------------------------------------------------------
def decision_points(game: Game, seat: Seat, seed: int, picks: tuple[int, ...]) -> list[State]:
    """Clones of a uniformly random game at ``seat``'s choices (decisions with more than one legal
    action) number ``picks`` (0-based)."""
    rng = np.random.default_rng(seed)
    found: list[State] = []
    mine = 0

    def act(st: State, who: Seat) -> Action:
        nonlocal mine
        legal = st.legal_actions()
        if who == seat and len(legal) > 1:
            if mine in picks:
                found.append(st.clone())
            mine += 1
        return legal[int(rng.integers(len(legal)))]

    play_out(game.new_initial_state(), act, rng, stop=lambda _: len(found) == len(picks))
    return found


def seat_side(game: Game, seat: Seat, world: State) -> list[Any]:
    """What ``seat`` was shown on the way to ``world``: its views at its decisions and its events."""
    state = game.new_initial_state()
    shown: list[Any] = []
    for text in world.to_json()["actions"]:
        if state.current_player() == seat:
            shown.append(state.view(seat).to_json())
        informed = len(state.events)
        state.apply(game.str_to_action(text))
        shown += [event.to_json() for event in state.events[informed:] if event.visible(seat)]
    return shown


def feed(
    game: Game, bot: str, options: dict[str, Any], seat: Seat, seed: int, history: State, world: State
) -> tuple[list[Action], Any]:
    """A fresh bot (seeded with ``seed``) fed ``seat``'s side of ``history`` from the start (``restart``,
    ``step`` at the seat's decisions, whose answers are not played: the history's own actions are,
    and ``inform`` of the events the seat may see), then asked to step and advise at ``world``'s view
    of the same moment. Returns its steps' answers and its advice."""
    player = bots_for(game.name)[bot](game, seat, np.random.default_rng(seed), **options)
    state = game.new_initial_state()
    player.restart(state.view(seat))
    answers: list[Action] = []
    for text in history.to_json()["actions"]:
        if state.current_player() == seat:
            answers.append(player.step(state.view(seat)))
        informed = len(state.events)
        state.apply(game.str_to_action(text))
        for event in state.events[informed:]:
            if event.visible(seat):
                player.inform(event)
    return answer(player, world, seat, answers)


def answer(player: Bot, world: State, seat: Seat, answers: list[Action]) -> tuple[list[Action], Any]:
    """The bot's step and advice at ``world``'s view (the only state on this frame is ``world``)."""
    view = world.view(seat)
    answers = [*answers, player.step(view)]
    return answers, player.advise(view).to_json()


def check_view_only(game_name: str, bot: str, players: int, seed: int, picks: tuple[int, ...]) -> None:
    """At ``picks`` choices of each role's first seat the bot takes, another world the seat cannot tell
    from the true one gives the same answers; at least one decision must have such a world.

    When the seat was shown the same things on the way to the other world, the bot is fed that
    world's whole history; when not (the seat saw something it no longer sees: a LineUp card studied
    and put face down, which the resampler redraws), it is fed the true history and only the
    decision's view comes from the other world.
    """
    spec = solver.games.spec(game_name)
    game = solver.games.load(game_name, players=players)
    cls = bots_for(game_name)[bot]
    options = budget_options(cls)
    accepted = seat_bots(game, bot, options, [np.random.default_rng(0)] * players)
    roles = spec.role_seats(players) if spec.roles else {"any": tuple(range(players))}
    seats = [next(s for s in role if s in accepted) for role in roles.values() if set(role) & set(accepted)]
    varied = 0
    for seat in seats:
        for truth in decision_points(game, seat, seed + seat, picks):
            view = truth.view(seat)
            drawn = (game.resample(view, np.random.default_rng(i)) for i in range(6))
            other = next((world for world in drawn if world.to_json() != truth.to_json()), None)
            if other is None:
                continue  # the seat sees everything here: nothing to vary
            assert other.view(seat) == view, "resample broke its invariant (check_game says more)"
            varied += 1
            same_past = seat_side(game, seat, other) == seat_side(game, seat, truth)
            true_answers, true_advice = feed(game, bot, options, seat, seed, truth, truth)
            answers, advice = feed(game, bot, options, seat, seed, other if same_past else truth, other)
            where = f"{bot} bot of {game_name}, seat {seat}, after {truth.to_json()['actions']}"
            assert answers == true_answers, (
                f"{where}: stepped {answers} in another world, {true_answers} in the true one")
            assert advice == true_advice, f"{where}: advised differently in another world"
    if (game_name, players) not in NOTHING_HIDDEN:
        assert varied, f"{bot} bot of {game_name}: no decision had hidden facts to vary"


@pytest.mark.parametrize(("game_name", "bot"), list(_params("view", bot_cases())))
def test_reads_nothing_beyond_its_view(game_name: str, bot: str) -> None:
    check_view_only(game_name, bot, solver.games.spec(game_name).default_players, seed=5, picks=(1, 4))


@pytest.mark.slow
@pytest.mark.parametrize(("game_name", "bot"), list(_params("view", bot_cases())))
def test_reads_nothing_beyond_its_view_thorough(game_name: str, bot: str) -> None:
    spec = solver.games.spec(game_name)
    for players in sorted({spec.min_players, spec.max_players}):
        check_view_only(game_name, bot, players, seed=6, picks=(0, 3, 9, 20))


# --- a new game gets these by registering; the checks can fail --------------------------------------------
def test_a_registered_toy_game_gets_the_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game, registered with no bots of its own, is played by the generic bots under every check."""
    monkeypatch.setitem(solver.games.GAMES, "hidden_pass", "tests.toygame")
    toy = [bot for game, bot in bot_cases() if game == "hidden_pass"]
    assert {"random", "ismcts"} <= set(toy)
    assert ("hidden_pass", "ismcts") in timed_cases()
    for bot in toy:
        assert check_legal_and_deterministic("hidden_pass", bot, 3, range(2), FAST_DECISIONS) > 0
        check_view_only("hidden_pass", bot, 3, seed=5, picks=(0, 1))
    check_budget("hidden_pass", "ismcts", 3, seed=3, decisions=4)


class BrokenBot(Bot):
    """A bot that breaks the contract the way :attr:`fault` says (to show each check catches it)."""

    name: ClassVar[str] = "broken"
    description: ClassVar[str] = "breaks the bot contract on purpose"
    options: ClassVar[Mapping[str, Option]] = {
        "seconds": Option(None, float, "ignored", minimum=0.001),
        "iterations": Option(1, int, "ignored", minimum=1),
    }
    fault: ClassVar[str] = ""

    def step(self, view: View) -> Action:
        legal = self.check_view(view)
        if self.fault == "illegal":
            return max(legal) + 1
        if self.fault == "unseeded":  # Python's global generator, not the bot's own
            return legal[random.randrange(len(legal))]
        if self.fault == "slow":
            time.sleep(TOLERANCE + 0.05)
        if self.fault == "peek":  # finds the caller's full state on the stack and reads it
            frame = sys._getframe(1)
            while frame is not None:
                for value in frame.f_locals.values():
                    if isinstance(value, State):
                        return legal[zlib.crc32(repr(value.to_json()).encode()) % len(legal)]
                frame = frame.f_back  # type: ignore[assignment]
        return legal[int(self.rng.integers(len(legal)))]

    def advise(self, view: View, budget: float | None = None) -> Advice:
        ranked = tuple(RankedAction(a, self.game.action_to_str(a), 0.0, "") for a in view.legal_actions)
        return Advice(self.seat, ranked)


#: What each check says when it catches a fault.
CAUGHT = {"illegal": "stepped 9, legal", "unseeded": "another game the second time", "slow": "steps took",
          "peek": "in another world"}


@pytest.mark.parametrize("fault", list(CAUGHT))
def test_the_checks_catch_a_broken_bot(monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    monkeypatch.setitem(solver.games.GAMES, "hidden_pass", "tests.toygame")
    monkeypatch.setattr(BrokenBot, "fault", fault)
    monkeypatch.setattr(sys.modules[__name__], "bots_for", lambda game: {"broken": BrokenBot})
    with pytest.raises(AssertionError, match=CAUGHT[fault]):
        if fault == "slow":
            check_budget("hidden_pass", "broken", 3, seed=3, decisions=2)
        elif fault == "peek":
            check_view_only("hidden_pass", "broken", 3, seed=5, picks=(0, 1, 2))
        else:
            check_legal_and_deterministic("hidden_pass", "broken", 3, range(3), FAST_DECISIONS)
    BrokenBot.fault = ""  # the same checks pass the bot that plays fair
    check_legal_and_deterministic("hidden_pass", "broken", 3, range(2), FAST_DECISIONS)
    check_view_only("hidden_pass", "broken", 3, seed=5, picks=(0, 1, 2))
