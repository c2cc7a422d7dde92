"""The bot API every front end talks to (OpenSpiel's: ``restart``, ``inform``, ``step``), plus advice.

A bot sits in one seat of one game. It only ever receives that seat's views and the events that
seat may see, never a full state. ``step`` picks an action; ``advise`` ranks the legal actions with
scores and plain-language reasons, and says what belief backs them (the hint advisor prints it).

Options are declared per bot class in :attr:`Bot.options` (name -> :class:`Option`), so the
registry, the CLI and the seat protocol can list and check them the same way; the base constructor
rejects unknown names and bad values with a :class:`ConfigError` that names the option.
"""

from __future__ import annotations

import functools
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Concatenate, Final, ParamSpec, TypeAlias, TypeVar

import numpy as np

from solver.core import (
    Action,
    BadStateError,
    ConfigError,
    Event,
    Game,
    IllegalActionError,
    View,
    restore_rng,
    rng_to_json,
)
from solver.core.options import Option as Option  # re-exported: bots declare options with it

#: The label of :meth:`Bot.export_memory`'s JSON.
MEMORY_FORMAT: Final = "copsolver-bot-memory/1"

#: A wall clock in seconds (``time.perf_counter``, or a test's fake one).
Clock: TypeAlias = Callable[[], float]


class DecisionClock:
    """The clock of one decision, started when the bot was asked (at ``step`` or ``advise`` entry).

    A time budget (``seconds``) is for the whole decision, as a front end or the arena measures it:
    reading the view, building the belief and the determinizer, preparing the root, the search
    and reading its result. A bot therefore reads how much is left from this clock, and hands only
    that to its search (:meth:`left`).
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.start = clock()

    def elapsed(self) -> float:
        """Seconds since the decision began."""
        return self.clock() - self.start

    def left(self, seconds: float) -> float:
        """What is left of a ``seconds`` budget for this decision (negative once it is overspent)."""
        return seconds - self.elapsed()

    def expired(self, seconds: float) -> bool:
        """True once a ``seconds`` budget for this decision is spent."""
        return self.elapsed() >= seconds


@dataclass(frozen=True)
class RankedAction:
    """One legal action with its score and the reason for it (search bots add visits and value)."""

    action: Action
    text: str
    score: float
    reason: str
    visits: int | None = None
    value: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The ranked action as a JSON object."""
        return {
            "action": self.action,
            "text": self.text,
            "score": self.score,
            "reason": self.reason,
            "visits": self.visits,
            "value": self.value,
        }


@dataclass(frozen=True)
class Advice:
    """A bot's ranking of one seat's legal actions, best first, and the belief behind it.

    ``decided_by`` names the policy whose ranking this is when it is not the asked bot's own work
    (a search bot that leaves a decision to its heuristic, or whose search could not tell the moves
    apart); ``note`` then says why in one sentence. Both are empty when the bot itself decided.
    """

    seat: int
    ranked: tuple[RankedAction, ...]
    belief: dict[str, Any] = field(default_factory=dict)
    summary: str = ""
    decided_by: str = ""
    note: str = ""

    @property
    def best(self) -> RankedAction:
        """The top-ranked action."""
        return self.ranked[0]

    def to_json(self) -> dict[str, Any]:
        """The advice as a JSON object."""
        return {
            "seat": self.seat,
            "ranked": [r.to_json() for r in self.ranked],
            "belief": self.belief,
            "summary": self.summary,
            "decided_by": self.decided_by,
            "note": self.note,
        }


class Bot(ABC):
    """A player for one seat. Subclasses set ``name``, ``description`` and ``options``."""

    name: ClassVar[str]
    description: ClassVar[str]
    #: option name -> spec; the constructor fills :attr:`settings` from these
    options: ClassVar[Mapping[str, Option]] = {}

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
            raise ConfigError(f"{self.name} bot: seat {seat!r} is not 0..{game.num_players - 1}")
        if not isinstance(rng, np.random.Generator):
            raise ConfigError(f"{self.name} bot: rng must be a numpy Generator, not {type(rng).__name__}")
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise ConfigError(f"{self.name} bot: unknown option {unknown[0]!r} (options: {known})")
        self.game = game
        self.seat = seat
        self.rng = rng
        #: the wall clock the bot's time budget is read from (tests put a fake one here)
        self.clock: Clock = time.perf_counter
        self._decision: DecisionClock | None = None
        #: the validated options, defaults filled in
        self.settings: dict[str, Any] = {
            key: spec.check(f"{self.name} bot", key, options[key]) if key in options else spec.default
            for key, spec in self.options.items()
        }

    @contextmanager
    def deciding(self) -> Iterator[DecisionClock]:
        """The clock of the decision being made: started here, or the one an outer call started.

        ``step`` calls ``search`` which a subclass wraps, and so on: only the outermost call starts
        the clock, so the budget counts everything from the moment the bot was asked.
        """
        if self._decision is not None:
            yield self._decision
            return
        self._decision = DecisionClock(self.clock)
        try:
            yield self._decision
        finally:
            self._decision = None

    def check_view(self, view: View) -> tuple[Action, ...]:
        """Return the view's legal actions; raise IllegalActionError if this bot cannot act on it."""
        if view.game != self.game:
            raise BadStateError(f"{self.name} bot: the view is of {view.game!r}, not {self.game!r}")
        if view.seat != self.seat:
            raise IllegalActionError(
                f"{self.name} bot: the view is seat {view.seat}'s, this bot plays {self.seat}"
            )
        legal = view.legal_actions
        if not legal:
            raise IllegalActionError(
                f"{self.name} bot: seat {self.seat} has no decision now ({view.decision.prompt})"
            )
        return legal

    def restart(self, view: View) -> None:
        """Start a new game from ``view`` (this seat's view of the initial position)."""
        if view.seat != self.seat:
            raise BadStateError(
                f"{self.name} bot: restart with seat {view.seat}'s view, this bot plays {self.seat}"
            )

    def inform(self, event: Event) -> None:  # noqa: B027 - a deliberate no-op hook
        """Observe an event this seat may see (stateless bots ignore it)."""

    # --- memory between decisions (stateless front ends carry it) -----------------------------
    def memory_to_json(self) -> Any:
        """What this bot keeps from one decision to the next besides its generator, as JSON.

        None for a bot that keeps nothing (the default). A bot that remembers (a LineUp bot's notes
        of the cards it studied) returns it here and reads it back in :meth:`memory_from_json`. It
        may hold only what this seat's views showed and the bot's own draws and plans: it goes to
        whoever holds this seat.
        """
        return None

    def memory_from_json(self, data: Any, view: View) -> None:
        """Take back what :meth:`memory_to_json` wrote, checked against ``view`` (this seat, now).

        Called after :meth:`restart`. A fault raises :class:`BadStateError` naming it, and nothing
        changes. The default accepts only None: this bot keeps nothing.
        """
        if data is not None:
            raise BadStateError(f"memory.state must be null: the {self.name} bot keeps no memory "
                                "between decisions")

    def export_memory(self) -> dict[str, Any]:
        """The bot's whole carry-over as JSON: its generator and :meth:`memory_to_json`, labelled.

        A bot rebuilt for every decision (the seat protocol's stateless ``decide``) and handed this
        back through :meth:`import_memory` each time plays exactly as one bot kept alive; see
        docs/protocol.md. ``{"format", "game", "bot", "seat", "rng", "state"}``.
        """
        return {
            "format": MEMORY_FORMAT,
            "game": self.game.name,
            "bot": self.name,
            "seat": self.seat,
            "rng": rng_to_json(self.rng),
            "state": self.memory_to_json(),
        }

    def import_memory(self, memory: Any, view: View) -> None:
        """Restore what :meth:`export_memory` wrote (after :meth:`restart` with ``view``).

        Checks the label (format, game, bot, seat) and the generator state, then hands ``state`` to
        :meth:`memory_from_json`; a fault raises :class:`BadStateError` naming it.
        """
        if not isinstance(memory, dict):
            raise BadStateError(f"memory must be an object, not {type(memory).__name__}")
        expected = {"format": MEMORY_FORMAT, "game": self.game.name, "bot": self.name, "seat": self.seat}
        for key, want in expected.items():
            got = memory.get(key)
            if got != want or isinstance(got, bool):
                raise BadStateError(f"memory.{key} is {str(got)[:60]!r}, this bot needs {want!r}")
        if "rng" not in memory or "state" not in memory:
            raise BadStateError("memory needs both 'rng' and 'state' (state may be null)")
        saved = rng_to_json(self.rng)
        try:
            restore_rng(self.rng, memory["rng"])
        except BadStateError as err:
            raise BadStateError(f"memory.rng: {err}") from None
        try:
            self.memory_from_json(memory["state"], view)
        except Exception:
            restore_rng(self.rng, saved)  # nothing changes on a fault
            raise

    @abstractmethod
    def step(self, view: View) -> Action:
        """Return one of ``view.legal_actions`` (IllegalActionError when there is none for this seat)."""

    @abstractmethod
    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Rank the legal actions of ``view``, best first, with reasons and the belief behind them."""

    def __repr__(self) -> str:
        # getattr: repr must work on a bot whose constructor raised (tracebacks show it)
        return f"{type(self).__name__}(seat={getattr(self, 'seat', '?')}, {getattr(self, 'settings', {})!r})"


_B = TypeVar("_B", bound=Bot)
_P = ParamSpec("_P")
_R = TypeVar("_R")


def on_the_clock(method: Callable[Concatenate[_B, _P], _R]) -> Callable[Concatenate[_B, _P], _R]:
    """Run a bot method inside :meth:`Bot.deciding`: a decision's clock starts at its entry (unless a
    caller's did), so a time-budgeted bot counts all of the decision's work in its budget."""

    @functools.wraps(method)
    def timed(self: _B, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self.deciding():
            return method(self, *args, **kwargs)

    return timed
