"""The arena: seeded, seat-balanced tournaments between two bots (DESIGN.md sections 3 and 8).

Two entrants, ``A`` and ``B`` (each a :class:`BotSpec`: a registered bot name and its options), meet
on ``games`` *deals*. A deal is one seed: it fixes every chance draw of the game (the deal of start
cards, dice, shuffles), because chance draws from its own child generator, never from the bots'.
Each deal is played once per *line-up*, and the line-ups are closed under swapping A and B, so both
entrants meet the same deals from the same seats, and the luck of the deal falls on both alike:

* a game with named roles plays one line-up per way of giving a role to one entrant and the rest
  to the other. Police 07 has two roles, ``detectives`` (every seat but 0) and ``factor`` (seat 0),
  so each deal is played twice: A as the detectives against B as Dr. Factor, then B as the
  detectives against A as Dr. Factor;
* any other game treats each seat as a role (``seat0``, ``seat1``, ...): a two-seat game swaps the
  seats; with n > 2 seats, each entrant sits alone at each seat in turn against the other filling
  the rest (2n line-ups), so each entrant takes each seat equally often;
* a co-operative game (its spec names the team that plays against the game: Police Precinct's
  ``good``) has one role, ``team``: each deal is played once with A at every seat and once with B,
  and a side wins a game when the team does. "Draws" are then the games the team lost; with a
  traitor dealt among the seats (the Dirty Cop), those are the traitor's wins.

Every game of a deal builds its bots and chance from the same derivation as ``copsolver play``
(one ``numpy.random.Generator`` seeded with the deal's seed, spawning one child per seat and one
for chance), so any game of a report replays with ``copsolver play GAME --seed SEED --seat ...``
when its bots take no options.

The report counts, per entrant and per role, the wins, draws and games, the win rate with a Wilson
95% score interval (Wilson 1927), and the mean seconds per decision. Every decision's time is
recorded (``step_seconds``), and an entrant with a time budget (a ``seconds`` option) is checked
against it: the report says on how many decisions it ran past its budget by more than
:func:`overrun_tolerance` (5% of it, or 2 ms if that is more) and by how much
(:class:`Overrun`), since an entrant that overruns had more time than the other; plus everything needed to
reproduce it (command, seeds, versions, compiled or pure kernels, timestamp) in
:meth:`ArenaReport.to_json`. A game's winner is the side whose seats got the best return; a game
where both sides share the best return (or every seat has the same return) is a draw. Draws count
as games that were not won: the win rate is wins / games, and draws are reported next to it.

Backends: ``serial`` (in this process), ``process`` (a local ``ProcessPoolExecutor``) and ``ray``
(a Ray cluster, when ``ray`` is installed; every node needs copsolver installed too). The parallel
backends rebuild the game in each worker from its registered name and ``config()``. Each game
depends only on its deal's seed and line-up, so every backend gives the same games in the same
order for the same seed; only the measured times differ. Bots with a wall-clock budget
(``seconds``) are the exception by nature: how far they search depends on the machine and its
load (and on how many workers share its cores); an iteration budget reproduces exactly.

The library does no I/O: progress is reported through a callback, and :func:`format_report`
returns the table as text for the caller to print.

Reference: E. B. Wilson (1927), "Probable inference, the law of succession, and statistical
inference", Journal of the American Statistical Association 22(158), 209-212.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import importlib
import io
import json
import math
import multiprocessing
import os
import platform
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, TypeAlias, TypeVar

import numpy as np

import bots
import solver
from solver import _accel
from solver import games as game_registry
from solver.core import (
    CHANCE,
    JSON,
    Action,
    ConfigError,
    CopsolverError,
    Game,
    IllegalActionError,
    Seat,
    State,
    make_rng,
    spawn,
    stable_hash,
)
from solver.core.referee import outcome, play_out

if TYPE_CHECKING:
    from rich.console import JustifyMethod

Side: TypeAlias = Literal["A", "B"]
SIDES: Final[tuple[Side, Side]] = ("A", "B")
BACKENDS: Final[tuple[str, ...]] = ("serial", "process", "ray")

#: Version of the JSON report's layout; bumped when a key changes meaning or goes away (a new key,
#: such as the games' ``teams``, keeps it: readers of version 1 ignore keys they do not know).
SCHEMA: Final = "copsolver.arena/1"

#: z for a two-sided 95% interval: the 0.975 quantile of the standard normal distribution.
Z95: Final = 1.959963984540054

#: How far past its ``seconds`` budget a decision may run before it counts as an overrun: this
#: share of the budget, or :data:`OVERRUN_FLOOR` seconds if that is more (the tolerance the bots are
#: built to keep; below 40 ms a 5% share is shorter than the clock checks and the scheduler's noise).
OVERRUN_SHARE: Final = 0.05
OVERRUN_FLOOR: Final = 0.002

#: A wall clock in seconds (``time.perf_counter``; tests pass a fake one).
Clock: TypeAlias = Callable[[], float]


#: The role name under which a report's per-entrant totals are listed.
OVERALL: Final = "overall"


# --- statistics -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairedDifference:
    """A - B in win rate over paired games (the same deal, seat or team), with a 95% normal interval."""

    pairs: int
    a_wins: int
    b_wins: int
    mean: float | None  # None before any pair
    sd: float | None  # sample standard deviation of the per-pair differences (None below 2 pairs)
    interval: tuple[float, float]  # clamped to [-1, 1]; (-1, 1) below 2 pairs

    def to_json(self) -> JSON:
        """The difference as a JSON object."""
        return {
            "pairs": self.pairs,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "difference": None if self.mean is None else round(self.mean, 6),
            "sd": None if self.sd is None else round(self.sd, 6),
            "ci95": [round(self.interval[0], 6), round(self.interval[1], 6)],
            "method": "paired normal interval: mean(d) +- z sd(d) / sqrt(n), d = win_A - win_B",
        }


def paired_difference(differences: Sequence[int], z: float = Z95) -> PairedDifference:
    """The mean of per-pair differences ``d`` (each -1, 0 or 1) and its normal interval.

    ``mean +- z * sd / sqrt(n)`` with ``sd`` the sample standard deviation (n - 1); with fewer than
    two pairs nothing is known and the interval is (-1, 1).

    >>> p = paired_difference([1, 0, 0, 1, -1, 0, 1, 0])
    >>> p.mean, [round(x, 4) for x in p.interval]
    (0.25, [-0.24, 0.74])
    """
    values = list(differences)
    if any(isinstance(d, bool) or d not in (-1, 0, 1) for d in values):
        raise ConfigError(f"paired_difference: each difference must be -1, 0 or 1, not {values!r}")
    n = len(values)
    a_wins, b_wins = sum(d == 1 for d in values), sum(d == -1 for d in values)
    if n == 0:
        return PairedDifference(0, 0, 0, None, None, (-1.0, 1.0))
    mean = sum(values) / n
    if n < 2:
        return PairedDifference(n, a_wins, b_wins, mean, None, (-1.0, 1.0))
    sd = math.sqrt(sum((d - mean) ** 2 for d in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return PairedDifference(n, a_wins, b_wins, mean, sd, (max(-1.0, mean - half), min(1.0, mean + half)))


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win probability after ``wins`` out of ``games`` (Wilson 1927).

    It is the set of probabilities p whose normal test does not reject the observed rate:
    ``(p_hat - p)**2 <= z**2 p (1 - p) / n``. Unlike the textbook ``p_hat +- z sqrt(p_hat(1-p_hat)/n)``
    it stays inside [0, 1] and does not collapse to a point at 0 or n wins, which matters for the
    lopsided match-ups an arena produces. With no games every probability is possible: (0, 1).

    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    """
    if isinstance(wins, bool) or isinstance(games, bool) or not 0 <= wins <= games:
        raise ConfigError(f"wilson_interval: need 0 <= wins <= games, got {wins!r} of {games!r}")
    if games == 0:
        return 0.0, 1.0
    n = float(games)
    p = wins / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    # Clamp rounding only: the exact bounds are 0 at wins == 0 and 1 at wins == games.
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


# --- entrants, roles and line-ups ---------------------------------------------------------------


@dataclass(frozen=True)
class BotSpec:
    """A bot as the registry builds it: its registered name and its options."""

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``name`` with its options, e.g. ``ismcts(iterations=500)``."""
        if not self.options:
            return self.name
        return f"{self.name}({', '.join(f'{k}={v!r}' for k, v in sorted(self.options.items()))})"

    def to_json(self) -> JSON:
        """The spec as a JSON object."""
        return {"name": self.name, "options": dict(sorted(self.options.items())), "label": self.label}

    def __hash__(self) -> int:
        # the options mapping is not hashable; its JSON is
        return stable_hash([self.name, dict(self.options)])


def roles(game: Game) -> dict[str, tuple[Seat, ...]]:
    """Role name -> seats, in line-up order: the rulebook's roles, or one role per seat (``seat0``...)."""
    if game.name in game_registry.GAMES:
        return game_registry.spec(game.name).role_seats(game.num_players)
    return {f"seat{seat}": (seat,) for seat in range(game.num_players)}


def cooperative_team(game: Game) -> str:
    """The team a co-operative game's seats play for (``"good"``), or "" for a competitive game."""
    if game.name in game_registry.GAMES:
        return game_registry.spec(game.name).cooperative
    return ""


def game_lineups(game: Game, swap: bool = True) -> list[dict[str, Side]]:
    """The line-ups of ``game``: one per entrant at every seat for a co-operative game, else
    :func:`lineups` of its roles."""
    if cooperative_team(game):
        both: list[dict[str, Side]] = [{"team": "A"}, {"team": "B"}]
        return both if swap else both[:1]
    return lineups(list(roles(game)), swap)


def lineups(role_names: Sequence[str], swap: bool = True) -> list[dict[str, Side]]:
    """The seat-balanced line-ups (role -> side) for these roles, A's first.

    Each line-up gives one role to one entrant and every other role to the other; all such line-ups
    are listed once, for A alone in each role and then B alone in each role. The set is closed under
    swapping A and B, so each entrant plays each role equally often. ``swap=False`` keeps only the
    first (A in the first role, B in the rest), for bots that play one role only; that report is
    not seat-balanced.
    """
    if len(role_names) < 2:
        raise ConfigError(f"an arena needs a game with two roles or more, not {list(role_names)!r}")
    found: list[dict[str, Side]] = []
    pairs: tuple[tuple[Side, Side], ...] = (("A", "B"), ("B", "A"))
    for alone, rest in pairs:
        for role in role_names:
            lineup: dict[str, Side] = {r: alone if r == role else rest for r in role_names}
            if lineup not in found:
                found.append(lineup)
    return found if swap else found[:1]


def assignment(
    role_seats: Mapping[str, Sequence[Seat]], lineup: Mapping[str, Side], entrants: Mapping[Side, BotSpec]
) -> dict[Seat, BotSpec]:
    """Seat -> bot for one line-up."""
    return {seat: entrants[lineup[role]] for role, seats in role_seats.items() for seat in seats}


def deal_seeds(seed: int, games: int) -> list[int]:
    """The seed of each deal, derived from the tournament's ``seed``.

    Hashed through a ``numpy.random.SeedSequence`` rather than ``seed + i``, so tournaments with
    nearby seeds share no deals; the list for ``games`` is a prefix of the list for more games, so a
    longer run extends a shorter one. 32-bit values stay exact in every JSON reader.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"arena seed must be a whole number >= 0, not {seed!r}")
    if games == 0:
        return []
    return [int(x) for x in np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)]


# --- one game ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """What happened in one game: who sat where, the result, the time each seat took, every action."""

    seed: int
    bots: tuple[str, ...]  # per seat: the bot's label
    returns: tuple[float, ...]
    winner: str | None  # in the game's own words ("detectives"), None if unfinished
    reason: str
    moves: int  # decisions taken by seats (chance draws not counted)
    seconds: tuple[float, ...]  # per seat: time inside the bot (restart, step and inform)
    decisions: tuple[int, ...]  # per seat: how many times it was asked to act
    actions: tuple[str, ...]  # the whole game in notation, chance draws included
    teams: tuple[str | None, ...] = ()  # per seat: its team at the end (State.team), None if none
    step_seconds: tuple[tuple[float, ...], ...] = ()  # per seat: the time of each decision, in order

    def to_json(self) -> JSON:
        """The record as a JSON object."""
        return {
            "seed": self.seed,
            "bots": list(self.bots),
            "returns": list(self.returns),
            "winner": self.winner,
            "reason": self.reason,
            "moves": self.moves,
            "seconds": [round(s, 6) for s in self.seconds],
            "decisions": list(self.decisions),
            "actions": list(self.actions),
            "teams": list(self.teams),
            "step_seconds": [[round(t, 6) for t in times] for times in self.step_seconds],
        }


def play_game(
    game: Game, seats: Mapping[Seat, BotSpec], seed: int, clock: Clock = time.perf_counter
) -> GameRecord:
    """Play one game with ``seats`` (seat -> bot) from deal ``seed``, and record it.

    The generators are derived as ``copsolver play`` derives them: one Generator seeded with
    ``seed`` spawns a child per seat (seat order) and one for chance, so the chance draws depend on
    the seed alone and the same seed deals the same cards whoever sits. Bots see only their own
    views and the events they may see. A bot's illegal move raises :class:`IllegalActionError`
    naming the bot, the seat and the seed. ``clock`` times the bots (a test's fake clock).
    """
    missing = sorted(set(range(game.num_players)) - set(seats))
    if missing:
        raise ConfigError(f"arena: no bot for seat(s) {missing} of {game.name}")
    n = game.num_players
    children = spawn(make_rng(seed), n + 1)
    chance_rng = children[n]
    players = {
        seat: bots.make(game, seats[seat].name, seat=seat, rng=children[seat], **seats[seat].options)
        for seat in range(n)
    }
    state = game.new_initial_state()
    # A bot's clock runs inside every call it gets (restart, step, inform): a bot may do its
    # thinking, e.g. a belief update, when it is informed rather than when asked to move. Building
    # views is the referee's work and stays off the clock.
    seconds = [0.0] * n
    decisions = [0] * n
    steps: list[list[float]] = [[] for _ in range(n)]
    for seat, bot in players.items():
        view = state.view(seat)
        start = clock()
        bot.restart(view)
        seconds[seat] += clock() - start
    informed = 0

    def act(st: State, seat: Seat) -> Action:
        view = st.view(seat)
        start = clock()
        action = players[seat].step(view)
        spent = clock() - start
        seconds[seat] += spent
        steps[seat].append(spent)
        decisions[seat] += 1
        return action

    def apply(st: State, action: Action) -> State:
        seat = st.current_player()
        try:
            st.apply(action)
        except CopsolverError as err:
            if seat == CHANCE:
                raise
            raise IllegalActionError(
                f"{seats[seat].label} bot at seat {seat} of {game.name} (deal seed {seed}): {err}"
            ) from err
        return st

    def inform(st: State, _: Seat, __: Action) -> None:
        nonlocal informed
        for event in st.events[informed:]:
            for bot_seat, bot in players.items():
                if event.visible(bot_seat):
                    start = clock()
                    bot.inform(event)
                    seconds[bot_seat] += clock() - start
        informed = len(st.events)

    play_out(state, act, chance_rng, on_step=inform, apply=apply)
    winner, reason = outcome(state)
    return GameRecord(
        seed=seed,
        bots=tuple(seats[s].label for s in range(n)),
        returns=tuple(state.returns()),
        winner=winner,
        reason=reason,
        moves=sum(decisions),
        seconds=tuple(seconds),
        decisions=tuple(decisions),
        actions=tuple(game.action_to_str(a) for a in state.history),
        teams=tuple(state.team(s) for s in range(n)),
        step_seconds=tuple(tuple(times) for times in steps),
    )


def winning_side(returns: Sequence[float], seat_sides: Sequence[Side]) -> Side | None:
    """The side whose seats alone got the best return, or None for a draw."""
    best = max(returns)
    if min(returns) == best:
        return None
    sides = {seat_sides[s] for s, r in enumerate(returns) if r == best}
    return next(iter(sides)) if len(sides) == 1 else None


# --- a tournament -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ArenaGame:
    """One game of a tournament: its deal, its line-up, the record and which side won."""

    deal: int  # index of the deal, 0..games-1
    lineup: Mapping[str, Side]  # role -> side
    record: GameRecord
    winner_side: Side | None  # None: a draw

    def to_json(self) -> JSON:
        """The game as a JSON object (the record's keys, plus deal, line-up and winning side)."""
        return {"deal": self.deal, "lineup": dict(self.lineup), "winner_side": self.winner_side} | (
            self.record.to_json()
        )


@dataclass(frozen=True)
class Tally:
    """One entrant's results in one role (or :data:`OVERALL`)."""

    side: Side
    bot: str  # the entrant's label
    role: str
    games: int
    wins: int
    draws: int
    moves: int  # decisions the entrant took in these games
    seconds: float  # time its bots spent in those games (restart, step, inform)

    @property
    def losses(self) -> int:
        """Games neither won nor drawn."""
        return self.games - self.wins - self.draws

    @property
    def win_rate(self) -> float | None:
        """wins / games (None before any game)."""
        return self.wins / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win probability."""
        return wilson_interval(self.wins, self.games)

    @property
    def seconds_per_move(self) -> float | None:
        """Mean seconds per decision (None when it took none)."""
        return self.seconds / self.moves if self.moves else None

    def to_json(self) -> JSON:
        """The tally as a JSON object."""
        low, high = self.interval
        rate, per_move = self.win_rate, self.seconds_per_move
        return {
            "side": self.side,
            "bot": self.bot,
            "role": self.role,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": None if rate is None else round(rate, 6),
            "ci95": [round(low, 6), round(high, 6)],
            "moves": self.moves,
            "seconds_per_move": None if per_move is None else round(per_move, 6),
        }


def tally(
    played: Sequence[ArenaGame], role_seats: Mapping[str, Sequence[Seat]], entrants: Mapping[Side, BotSpec]
) -> list[Tally]:
    """Per entrant: one tally per role it played, then its overall tally (every game, once).

    A co-operative game has one role, ``team``, and no other side at the table: its team row is the
    whole tally, so there is no overall row."""
    rows = []
    alone = list(role_seats) == ["team"]
    for side in SIDES:
        for role in [*role_seats] if alone else [*role_seats, OVERALL]:
            chosen = played if role == OVERALL else [g for g in played if g.lineup[role] == side]
            if not chosen:  # swap=False leaves an entrant out of some roles
                continue
            held = [(g.record, _seats_held(g, side, role, role_seats)) for g in chosen]
            rows.append(
                Tally(
                    side=side,
                    bot=entrants[side].label,
                    role=role,
                    games=len(chosen),
                    wins=sum(g.winner_side == side for g in chosen),
                    draws=sum(g.winner_side is None for g in chosen),
                    moves=sum(record.decisions[s] for record, own in held for s in own),
                    seconds=sum(record.seconds[s] for record, own in held for s in own),
                )
            )
    return rows


def _seats_held(
    played: ArenaGame, side: Side, role: str, role_seats: Mapping[str, Sequence[Seat]]
) -> list[Seat]:
    """The seats ``side`` held in a game: those of ``role``, or all of them for :data:`OVERALL`."""
    return [
        seat
        for r, seats in role_seats.items()
        if played.lineup[r] == side and role in (r, OVERALL)
        for seat in seats
    ]


# --- time budgets -------------------------------------------------------------------------------


def overrun_tolerance(seconds: float) -> float:
    """How far past a ``seconds`` budget a decision may run: :data:`OVERRUN_SHARE` of it, or
    :data:`OVERRUN_FLOOR` if that is more.

    >>> overrun_tolerance(0.2), overrun_tolerance(0.01)
    (0.01, 0.002)
    """
    return max(OVERRUN_SHARE * seconds, OVERRUN_FLOOR)


def time_budget(spec: BotSpec) -> float | None:
    """The entrant's ``seconds`` budget per decision, or None (it has none, or plays by iterations)."""
    value = spec.options.get("seconds")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


@dataclass(frozen=True)
class Overrun:
    """How an entrant with a time budget kept it: its decisions, and those past budget + tolerance."""

    side: Side
    bot: str  # the entrant's label
    budget: float  # its seconds per decision
    decisions: int  # decisions timed
    overruns: int  # decisions longer than budget + overrun_tolerance(budget)
    longest: float  # the longest decision's seconds (0 without decisions)
    excess: float  # mean seconds past the budget over the overruns (0 without one)

    @property
    def flagged(self) -> bool:
        """True when some decision ran past the budget by more than the tolerance."""
        return self.overruns > 0

    def to_json(self) -> JSON:
        """The check as a JSON object."""
        return {
            "side": self.side,
            "bot": self.bot,
            "budget": self.budget,
            "tolerance": round(overrun_tolerance(self.budget), 6),
            "decisions": self.decisions,
            "overruns": self.overruns,
            "overrun_fraction": round(self.overruns / self.decisions, 6) if self.decisions else 0.0,
            "longest": round(self.longest, 6),
            "mean_excess": round(self.excess, 6),
            "flagged": self.flagged,
        }

    def text(self) -> str:
        """One line for the report, e.g. ``B nw2012(seconds=0.05) OVERRAN ...``."""
        limit = self.budget + overrun_tolerance(self.budget)
        longest = f"longest {1000.0 * self.longest:.1f} ms"
        if not self.flagged:
            return (f"{self.side} {self.bot}: kept its {self.budget:g} s budget on all {self.decisions} "
                    f"decisions (each within {1000.0 * limit:.1f} ms; {longest})")
        return (f"{self.side} {self.bot} OVERRAN its {self.budget:g} s budget on {self.overruns} of "
                f"{self.decisions} decisions ({percent(self.overruns / self.decisions)}) by more than "
                f"{1000.0 * overrun_tolerance(self.budget):.1f} ms: by {1000.0 * self.excess:.1f} ms on "
                f"average, {longest}")


def overrun(side: Side, spec: BotSpec, times: Sequence[float]) -> Overrun | None:
    """The time-budget check of entrant ``spec`` over its decisions' ``times`` (None: no budget)."""
    budget = time_budget(spec)
    if budget is None:
        return None
    limit = budget + overrun_tolerance(budget)
    over = [t - budget for t in times if t > limit]
    return Overrun(side, spec.label, budget, len(times), len(over), max(times, default=0.0),
                   sum(over) / len(over) if over else 0.0)


def environment() -> JSON:
    """Versions and kernel mode, for the record of a result."""
    status = _accel.compiled_status()
    return {
        "copsolver": solver.__version__,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "compiled": all(status.values()),
        "kernels": status,
        "pure_python_requested": _accel.PURE_REQUESTED,
    }


@dataclass(frozen=True)
class TournamentReport:
    """What every tournament report holds: the game, entrants, deals, tallies, and how it was run.

    Subclasses add their own games and settings, and say how they read in JSON (:meth:`body`).
    """

    game: str
    config: JSON
    entrants: Mapping[Side, BotSpec]
    seed: int
    deal_seeds: tuple[int, ...]
    tallies: tuple[Tally, ...]
    backend: str
    workers: int
    started: str  # UTC, ISO 8601
    elapsed: float  # wall-clock seconds
    command: tuple[str, ...] | None  # the command line that reproduces this run, when one did
    environment: JSON

    #: The ``schema`` key of the JSON report.
    schema: ClassVar[str] = SCHEMA

    @property
    def games(self) -> int:
        """Deals played."""
        return len(self.deal_seeds)

    def find(self, side: Side, role: str = OVERALL) -> Tally | None:
        """The tally of ``side`` in ``role`` (None if it has none there)."""
        return next((t for t in self.tallies if t.side == side and t.role == role), None)

    def body(self) -> JSON:
        """The report's own keys (results and settings), between the seed and the run."""
        raise NotImplementedError

    def records(self) -> list[JSON]:
        """Every game as JSON, in report order."""
        raise NotImplementedError

    def overruns(self) -> list[Overrun]:
        """Per entrant with a time budget, how its decisions kept it (:class:`Overrun`)."""
        raise NotImplementedError

    def to_json(self, records: bool = True) -> JSON:
        """The report as JSON; ``records=False`` leaves out the per-game records (and their actions)."""
        return (
            {
                "schema": self.schema,
                "game": self.game,
                "config": self.config,
                "command": None if self.command is None else list(self.command),
                "seed": self.seed,
            }
            | self.body()
            | {
                "run": {
                    "backend": self.backend,
                    "workers": self.workers,
                    "started": self.started,
                    "seconds": round(self.elapsed, 3),
                },
                "environment": self.environment,
                "deal_seeds": list(self.deal_seeds),
            }
            | {"overruns": [o.to_json() for o in self.overruns()]}
            | ({"games": self.records()} if records else {})
        )

    def dumps(self) -> str:
        """:meth:`to_json` as text (see :func:`dumps_report`)."""
        return dumps_report(self.to_json())


@dataclass(frozen=True)
class ArenaReport(TournamentReport):
    """A finished tournament: its settings, every game, the tallies, and how it was run."""

    roles: Mapping[str, tuple[Seat, ...]]
    lineups: tuple[Mapping[str, Side], ...]
    played: tuple[ArenaGame, ...]

    def body(self) -> JSON:
        """Deals, entrants, roles, line-ups and the per-entrant per-role results."""
        return {
            "games_per_lineup": self.games,
            "total_games": len(self.played),
            "entrants": {side: spec.to_json() for side, spec in self.entrants.items()},
            "roles": {role: list(seats) for role, seats in self.roles.items()},
            "lineups": [dict(lineup) for lineup in self.lineups],
            "results": [t.to_json() for t in self.tallies],
        } | ({"paired": paired.to_json()} if (paired := self.paired()) is not None else {})

    def paired(self) -> PairedDifference | None:
        """In a co-operative game, A's team win rate less B's over the same deals (None otherwise)."""
        if list(self.roles) != ["team"]:
            return None
        won: dict[tuple[int, Side], bool] = {(g.deal, g.lineup["team"]): g.winner_side == g.lineup["team"]
                                              for g in self.played}
        deals = sorted({deal for deal, _ in won})
        return paired_difference([int(won[(d, "A")]) - int(won[(d, "B")]) for d in deals
                                  if (d, "A") in won and (d, "B") in won])

    def records(self) -> list[JSON]:
        """Every game as JSON, deal-major."""
        return [g.to_json() for g in self.played]

    def overruns(self) -> list[Overrun]:
        """Per entrant with a time budget: every decision of every seat it held, against the budget."""
        out = []
        for side in SIDES:
            times = [t for g in self.played for seat in _seats_held(g, side, OVERALL, self.roles)
                     if seat < len(g.record.step_seconds) for t in g.record.step_seconds[seat]]
            check = overrun(side, self.entrants[side], times)
            if check is not None:
                out.append(check)
        return out


def dumps_report(data: JSON) -> str:
    """A report's JSON as text, indented, with one line per entry of its ``games`` list.

    One line per game (not per action) keeps a results file short and a rerun's diff readable.
    """
    data = dict(data)
    played = data.pop("games", [])
    head = json.dumps(data, indent=1)
    rows = ",\n".join("  " + json.dumps(g, separators=(", ", ": ")) for g in played)
    # head ends with "\n}": reopen the object to append the games array
    return f'{head[:-2]},\n "games": [\n{rows}\n ]\n}}\n'


#: ``progress(done, total, game)`` after each finished game (in completion order, which with
#: parallel backends is not the report's order).
Progress: TypeAlias = Callable[[int, int, ArenaGame], None]

#: What a tournament keeps of each game (an :class:`ArenaGame`, or another mode's own record).
Played = TypeVar("Played")


@dataclass(frozen=True)
class Job:
    """One game to play: its place in the tournament's order, who sits where, and the deal's seed."""

    index: int
    seats: Mapping[Seat, BotSpec]
    seed: int


def check_run(games: int, workers: int | None, backend: str) -> Any:
    """Raise ConfigError for a bad ``games``, ``workers`` or ``backend``; return :func:`check_backend`'s."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(f"arena: games must be a whole number >= 1, not {games!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ConfigError(f"arena: workers must be a whole number >= 1, not {workers!r}")
    return check_backend(backend)


@dataclass(frozen=True)
class RunStats:
    """How a batch of games ran: the workers used, the start (UTC, ISO 8601) and wall-clock seconds."""

    workers: int
    started: str
    elapsed: float


def play_jobs(
    game: Game,
    jobs: Sequence[Job],
    finish: Callable[[Job, GameRecord], Played],
    *,
    backend: str,
    workers: int | None,
    progress: Callable[[int, int, Played], None] | None = None,
) -> tuple[list[Played], RunStats]:
    """Play ``jobs`` on ``backend``; return each ``finish(job, record)`` in job order, and how it ran.

    ``workers`` (process and ray backends) defaults to ``os.cpu_count()`` for processes; on Ray it
    caps the games in flight (default: all, and Ray schedules them over the cluster).
    ``progress(done, total, finished)`` is called as games finish, in completion order.
    """
    ray = check_backend(backend)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    clock = time.perf_counter()
    if backend == "process":
        used = min(workers or os.cpu_count() or 1, len(jobs))
        records = run_processes(game, jobs, used)
    elif backend == "ray":
        used = min(workers, len(jobs)) if workers is not None else len(jobs)
        records = run_ray(ray, game, jobs, used)
    else:
        used = 1
        records = run_serial(game, jobs)
    played: list[Played | None] = [None] * len(jobs)
    with contextlib.closing(records):  # stops a pool at once if a callback raises
        for done, (index, record) in enumerate(records, start=1):
            finished = finish(jobs[index], record)
            played[index] = finished
            if progress is not None:
                progress(done, len(jobs), finished)
    complete = [g for g in played if g is not None]
    if len(complete) != len(jobs):  # a backend that lost a game must not pass for a full report
        raise CopsolverError(f"arena: {len(jobs) - len(complete)} of {len(jobs)} games returned no result")
    return complete, RunStats(used, started, time.perf_counter() - clock)


def run(
    game: Game,
    a: BotSpec,
    b: BotSpec,
    *,
    games: int,
    seed: int,
    swap: bool = True,
    backend: str = "serial",
    workers: int | None = None,
    progress: Progress | None = None,
    command: Sequence[str] | None = None,
) -> ArenaReport:
    """Play ``games`` deals between ``a`` and ``b``, each deal once per line-up, and report.

    ``workers``: see :func:`play_jobs`. Every bot is built once for each seat it will take before
    any game starts, so an unknown bot, a bad option or a bot that cannot play a role fails at once
    with a :class:`ConfigError`. ``command`` is recorded in the report as given.
    """
    check_run(games, workers, backend)
    seeds = deal_seeds(seed, games)
    entrants: dict[Side, BotSpec] = {"A": a, "B": b}
    role_seats = roles(game)
    team = cooperative_team(game)
    plan = game_lineups(game, swap)
    check_entrants(game, role_seats, plan, entrants)
    # deal-major order: a deal's line-ups sit side by side in the report
    pairs = [(deal, lineup) for deal in range(games) for lineup in plan]
    jobs = [
        Job(index, assignment(role_seats, lineup, entrants), seeds[deal])
        for index, (deal, lineup) in enumerate(pairs)
    ]
    seat_roles = _seat_roles(role_seats, game.num_players)

    def finish(job: Job, record: GameRecord) -> ArenaGame:
        deal, lineup = pairs[job.index]
        seat_sides = [lineup[role] for role in seat_roles]
        if team:  # the entrant at every seat wins when the team does
            won = any(r > 0 for r, t in zip(record.returns, record.teams, strict=True) if t == team)
            return ArenaGame(deal, lineup, record, lineup["team"] if won else None)
        return ArenaGame(deal, lineup, record, winning_side(record.returns, seat_sides))

    complete, stats = play_jobs(game, jobs, finish, backend=backend, workers=workers, progress=progress)
    return ArenaReport(
        game=game.name,
        config=game.config(),
        entrants=entrants,
        roles=role_seats,
        lineups=tuple(plan),
        seed=seed,
        deal_seeds=tuple(seeds),
        played=tuple(complete),
        tallies=tuple(tally(complete, role_seats, entrants)),
        backend=backend,
        workers=stats.workers,
        started=stats.started,
        elapsed=stats.elapsed,
        command=None if command is None else tuple(command),
        environment=environment(),
    )


def check_bot(game: Game, spec: BotSpec, seat: Seat, who: str) -> None:
    """Build ``spec`` for ``seat`` once; its ConfigError gains ``who`` (e.g. ``entrant A (x) as factor``)."""
    try:
        bots.make(game, spec.name, seat=seat, rng=np.random.default_rng(0), **spec.options)
    except ConfigError as err:
        raise ConfigError(f"{who}: {err}") from None


def check_entrants(
    game: Game,
    role_seats: Mapping[str, Sequence[Seat]],
    plan: Sequence[Mapping[str, Side]],
    entrants: Mapping[Side, BotSpec],
) -> None:
    """Build each entrant once for every seat it will take; a bot's ConfigError gains the role."""
    for lineup in plan:
        for role, seats in role_seats.items():
            spec = entrants[lineup[role]]
            for seat in seats:
                check_bot(game, spec, seat, f"entrant {lineup[role]} ({spec.label}) as {role}")


def _seat_roles(role_seats: Mapping[str, Sequence[Seat]], n: int) -> list[str]:
    """Seat -> role name, as a list."""
    by_seat = {seat: role for role, seats in role_seats.items() for seat in seats}
    return [by_seat[s] for s in range(n)]


# --- backends ---------------------------------------------------------------------------------

#: ``(index of the job, its record)`` in the order games finish.
Results: TypeAlias = Generator[tuple[int, GameRecord], None, None]

#: The game of this worker process, built once by :func:`_init_worker` rather than pickled per job.
_worker_game: Game | None = None


def _init_worker(name: str, config: JSON) -> None:
    global _worker_game
    _worker_game = game_registry.load(name, **config)


def _play_job(job: Job) -> tuple[int, GameRecord]:
    if _worker_game is None:  # only reachable if the pool skipped its initializer
        raise CopsolverError("arena worker started without its game")
    return job.index, play_game(_worker_game, job.seats, job.seed)


def run_serial(game: Game, jobs: Sequence[Job]) -> Results:
    """Play ``jobs`` here, in order."""
    for job in jobs:
        yield job.index, play_game(game, job.seats, job.seed)


def run_processes(game: Game, jobs: Sequence[Job], workers: int) -> Results:
    """Play ``jobs`` on a local process pool; yield ``(index, record)`` as games finish."""
    # spawn, not fork: the caller may run threads (a progress bar's refresher), and forking a
    # threaded process can deadlock the child on a lock some thread held; spawn is also what macOS
    # and Windows use, so results do not depend on the platform's default.
    context = multiprocessing.get_context("spawn")
    pool = cf.ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(game.name, game.config())
    )
    try:
        futures = [pool.submit(_play_job, job) for job in jobs]
        for future in cf.as_completed(futures):
            yield future.result()
    except BaseException:
        # an error, an interrupt or a consumer that stopped: drop the games not started, and do
        # not wait for the running ones
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def check_backend(backend: str) -> Any:
    """Raise ConfigError for a backend that cannot run here; return the ``ray`` module for ray.

    Ray is optional (a user with a cluster installs it); without it the error says how to get it.
    """
    if backend not in BACKENDS:
        raise ConfigError(f"arena: unknown backend {backend!r}; choose {', '.join(BACKENDS)}")
    if backend != "ray":
        return None
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ConfigError(
            "backend 'ray' needs the ray package, which is not installed: pip install 'ray[default]' "
            "(or use the process backend on this machine)"
        ) from None


def _ray_play(name: str, config: JSON, seats: Mapping[Seat, BotSpec], seed: int) -> GameRecord:
    """A Ray task: build (or reuse) the game in this worker and play one game."""
    global _worker_game
    if _worker_game is None or _worker_game.name != name or _worker_game.config() != config:
        _worker_game = game_registry.load(name, **config)
    return play_game(_worker_game, seats, seed)


def run_ray(ray: Any, game: Game, jobs: Sequence[Job], in_flight: int) -> Results:
    """Play ``jobs`` as Ray tasks, at most ``in_flight`` at a time; yield results as they finish.

    ``ray.init()`` connects to the cluster named by ``RAY_ADDRESS`` (or ``ray start``'s local one)
    and otherwise starts a local Ray; a caller that initialised Ray itself keeps its own session.
    """
    if not ray.is_initialized():
        ray.init()
    task = ray.remote(_ray_play)
    name, config = game.name, game.config()
    waiting = list(jobs)[::-1]  # a stack, popped from the end: submitted in report order
    pending: dict[Any, int] = {}
    while waiting or pending:
        while waiting and len(pending) < in_flight:
            job = waiting.pop()
            pending[task.remote(name, config, dict(job.seats), job.seed)] = job.index
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            index = pending.pop(ref)
            yield index, ray.get(ref)


# --- the table --------------------------------------------------------------------------------


def percent(x: float | None) -> str:
    """A rate as ``"42.5%"``; ``"-"`` for None."""
    return "-" if x is None else f"{100.0 * x:.1f}%"


def kernel_mode(env: JSON) -> str:
    """``compiled``, ``pure Python``, or which kernels ran as their pure-Python twins."""
    status = env.get("kernels", {})
    pure = sorted(name for name, compiled in status.items() if not compiled)
    if not pure:
        return "compiled"
    if len(pure) == len(status):
        return "pure Python"
    return f"compiled, but pure Python for {', '.join(pure)}"


def headline(report: ArenaReport) -> str:
    """One line: the game, the entrants, the games and the seed."""
    a, b = report.entrants["A"].label, report.entrants["B"].label
    players = report.config.get("players", "")
    size = f" ({players} players)" if players else ""
    return (
        f"{report.game}{size}: A = {a} vs B = {b}; {report.games} deals x {len(report.lineups)} "
        f"line-up(s) = {len(report.played)} games, seed {report.seed}"
    )


def text_table(columns: Sequence[tuple[str, JustifyMethod]], rows: Sequence[Sequence[str]],
               width: int = 240) -> str:
    """Rows as a text table (Markdown-compatible, so it pastes into a results README); no edge blanks."""
    # rich is imported here, not at the top: every ``copsolver`` command imports this module's
    # names, and only the ones that draw a table should pay for loading rich.
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(box=box.MARKDOWN, show_edge=True, pad_edge=True)
    for heading, justify in columns:
        table.add_column(heading, justify=justify)
    for row in rows:
        table.add_row(*row)
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, force_terminal=False, soft_wrap=False).print(table)
    # rich pads the Markdown box's empty top edge with spaces; drop it and trailing blanks
    lines = [line.rstrip() for line in buffer.getvalue().splitlines()]
    return "\n".join(line for line in lines if line)


def report_text(report: TournamentReport, head: str, group: str, notes: str = "", width: int = 240) -> str:
    """``head``, the tallies as a table (``group``: the heading of their role column), ``notes``, the run."""
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("side", "left"),
        ("bot", "left"),
        (group, "left"),
        ("games", "right"),
        ("wins", "right"),
        ("draws", "right"),
        ("win rate", "right"),
        ("95% CI (Wilson)", "right"),
        ("ms/move", "right"),
    )
    rows = []
    for t in report.tallies:
        low, high = t.interval
        per_move = t.seconds_per_move
        rows.append(
            [
                t.side,
                t.bot,
                t.role,
                str(t.games),
                str(t.wins),
                str(t.draws),
                percent(t.win_rate),
                f"{100.0 * low:.1f}-{100.0 * high:.1f}%",
                "-" if per_move is None else f"{1000.0 * per_move:.2f}",
            ]
        )
    body = text_table(columns, rows, width)
    env = report.environment
    footer = (
        f"{report.backend} backend, {report.workers} worker(s), {report.elapsed:.1f} s, "
        f"copsolver {env.get('copsolver')} ({kernel_mode(env)})"
    )
    budgets = "\n".join(f"Time budget: {o.text()}" for o in report.overruns())
    parts = [head, body, notes.rstrip("\n"), budgets, footer]
    return "\n\n".join(part for part in parts if part) + "\n"


def format_report(report: ArenaReport, width: int = 240) -> str:
    """The tallies as a text table (Markdown-compatible, so it pastes into a results README)."""
    text = report_text(report, headline(report), "role", width=width)
    paired = report.paired()
    if paired is not None:
        text += ("\nco-operative: each entrant plays every seat; a win is the team's, the draws column"
                 " holds the team's losses (with a traitor at the table, his wins)\n")
        if paired.mean is not None:
            low, high = paired.interval
            text += (f"paired team difference A - B over {paired.pairs} deals: {paired.mean:+.1%} "
                     f"(95% CI {low:+.1%} to {high:+.1%}; A alone won {paired.a_wins}, B alone "
                     f"{paired.b_wins})\n")
    return text
