"""The game protocol every game implements (DESIGN.md section 2, modelled on OpenSpiel).

A :class:`Game` is immutable configuration that builds states. A :class:`State` is the true,
complete position: ``current_player`` is a seat, :data:`CHANCE` or :data:`TERMINAL`; actions are
ints inside and strings at the edges (the game's codec). What a seat may know is computed by one
function, :meth:`State.view`; bots and front ends only ever see views.

Decision windows: most decisions are the active seat's turn, but some games ask a seat that is not
on turn to answer (an interrupt, a request for help). :meth:`State.decision` says which seat must
act now, of what kind the decision is, and whose turn the window belongs to, so a front end can
route the request without knowing the game.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Self

import numpy as np

from solver.core.errors import BadStateError, IllegalActionError, InvalidActionError
from solver.core.events import Event, visible_events
from solver.core.types import CHANCE, TERMINAL, Action, Seat

JSON = dict[str, Any]


class DecisionKind(StrEnum):
    """What sort of decision is pending."""

    TURN = "turn"  # the active seat acts on its own turn
    RESPONSE = "response"  # a seat answers inside another seat's turn (interrupt, help request)
    CHANCE = "chance"  # nature acts: a die, a deal, a draw
    NONE = "none"  # the game is over


@dataclass(frozen=True)
class Decision:
    """Who must act now, and why."""

    seat: Seat  # who acts: a seat, CHANCE or TERMINAL
    kind: DecisionKind
    turn_of: Seat  # whose turn the window belongs to (== seat for an ordinary turn)
    prompt: str  # a short plain-language description ("Dr. Factor moves (move 4)")

    def to_json(self) -> JSON:
        """The decision as a JSON object."""
        return {"seat": self.seat, "kind": str(self.kind), "turn_of": self.turn_of, "prompt": self.prompt}


def stable_hash(data: Any) -> int:
    """A 63-bit hash of JSON-able ``data`` that is the same on every run and machine."""
    blob = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.blake2b(blob, digest_size=8).digest(), "big") >> 1


class Game(ABC):
    """Static, immutable configuration of one game; builds initial states."""

    name: str = ""
    num_players: int = 0

    @abstractmethod
    def new_initial_state(self) -> State:
        """Return the state before the first action (often a chance node: the deal)."""

    @abstractmethod
    def config(self) -> JSON:
        """The options this game was built with, as JSON that :func:`solver.games.load` accepts."""

    @abstractmethod
    def action_to_str(self, action: Action) -> str:
        """Render ``action`` in the game's human notation."""

    @abstractmethod
    def str_to_action(self, text: str) -> Action:
        """Parse human notation; raise :class:`InvalidActionError` naming the text on failure."""

    @abstractmethod
    def resample(
        self, view: View, rng: np.random.Generator, belief: Any | None = None
    ) -> State:
        """Return a full state whose ``view(view.seat)`` equals ``view``, drawn from ``belief`` if given."""

    @abstractmethod
    def view_from_json(self, data: JSON) -> View:
        """Rebuild a view from :meth:`View.to_json`; raise :class:`BadStateError` naming the fault."""

    def state_from_json(self, data: JSON) -> State:
        """Rebuild a state from :meth:`State.to_json` by replaying its actions with checks."""
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise BadStateError("state JSON needs an 'actions' list")
        state = self.new_initial_state()
        for i, text in enumerate(actions):
            if not isinstance(text, str):
                raise BadStateError(f"action {i} is {text!r}, not a string")
            try:
                state.apply(self.str_to_action(text))
            except (InvalidActionError, IllegalActionError) as err:
                raise BadStateError(f"action {i} ({text!r}) cannot be replayed: {err}") from err
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) and other.config() == self.config()

    def __hash__(self) -> int:
        return stable_hash([self.name, self.config()])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config()!r})"


class View(ABC):
    """What one seat may know: public facts, its private facts, its observation history.

    Two views are equal when their JSON is equal; ``key()`` is a stable hash of that JSON, and since
    the JSON carries the seat's whole observation history, equal keys mean equal information sets.
    """

    game: Game
    seat: Seat

    @abstractmethod
    def to_json(self) -> JSON:
        """The view as JSON (includes ``game``, ``config``, ``seat``)."""

    @property
    @abstractmethod
    def legal_actions(self) -> tuple[Action, ...]:
        """The seat's legal actions now (empty when it is not this seat's decision)."""

    @property
    @abstractmethod
    def decision(self) -> Decision:
        """The pending decision, as far as this seat can tell."""

    def key(self) -> int:
        """A stable hash of this information state (the ISMCTS node key)."""
        return stable_hash(self.to_json())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and other.to_json() == self.to_json()

    def __hash__(self) -> int:
        return self.key()


class JSONView(View):
    """A view held as its JSON, with the seat's legal actions and the pending decision alongside.

    Games compute the JSON with one function from (state, seat) and wrap it here; subclasses add
    game-specific accessors.
    """

    def __init__(self, game: Game, seat: Seat, data: JSON, legal: tuple[Action, ...],
                 decision: Decision) -> None:
        self.game = game
        self.seat = seat
        self._data = data
        self._legal = legal
        self._decision = decision

    def to_json(self) -> JSON:
        """The view as JSON."""
        return self._data

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """This seat's legal actions now; empty when another seat or chance acts."""
        return self._legal

    @property
    def decision(self) -> Decision:
        """The pending decision, as far as this seat can tell."""
        return self._decision


class State(ABC):
    """The true position of one game in progress."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[Action] = []
        self.events: list[Event] = []

    # --- the protocol -------------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> Seat:
        """The seat that acts now, :data:`CHANCE`, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Sorted, unique legal actions (chance outcomes at a chance node, [] when terminal)."""

    @abstractmethod
    def apply_unchecked(self, action: Action) -> None:
        """Apply ``action`` without checking legality. For search only: an illegal action corrupts."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One payoff per seat (zeros until the game is over)."""

    @abstractmethod
    def view(self, seat: Seat) -> View:
        """The information state of ``seat``."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy: applying actions to it never changes this state."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Pairs of outcome and probability at a chance node, summing to 1."""
        raise IllegalActionError(f"{self.game.name}: not a chance node ({self.decision().prompt})")

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """True when nature acts next."""
        return self.current_player() == CHANCE

    def decision(self) -> Decision:
        """The pending decision; games with response windows override this."""
        seat = self.current_player()
        if seat == TERMINAL:
            return Decision(seat, DecisionKind.NONE, seat, "game over")
        if seat == CHANCE:
            return Decision(seat, DecisionKind.CHANCE, seat, "chance")
        return Decision(seat, DecisionKind.TURN, seat, f"seat {seat} to act")

    def apply(self, action: Action) -> None:
        """Apply ``action`` after checking it is legal; raise :class:`IllegalActionError` if not."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise InvalidActionError(f"action {action!r} is not an int")
        legal = self.legal_actions()
        if int(action) not in legal:
            if self.is_terminal():
                raise IllegalActionError(f"{self._action_text(action)}: the game is over")
            raise IllegalActionError(
                f"{self._action_text(action)} is not legal now ({self.decision().prompt}); "
                f"legal: {', '.join(self.game.action_to_str(a) for a in legal[:12])}"
                + (" ..." if len(legal) > 12 else "")
            )
        self.apply_unchecked(int(action))

    def apply_str(self, text: str) -> Action:
        """Parse ``text`` with the game's codec, apply it with checks, and return the action."""
        action = self.game.str_to_action(text)
        self.apply(action)
        return action

    def public_action_text(self, index: int) -> str | None:
        """``history[index]`` as every seat saw it, or None when the game does not say.

        A front end may show this to the whole table. The default is None because an action's
        own text can be secret (a face-down choice); games with public renderings override it.
        """
        return None

    def team(self, seat: Seat) -> str | None:
        """The team ``seat`` plays for now (``"crooked"``, ``"factor"`` ...), or None when the game has none.

        A team can change during a game (a swapped card), so it is read from the state at the time
        asked; a referee reads it at the end to say which team a seat won or lost with.
        """
        return None

    def events_for(self, seat: Seat, since: int = 0) -> list[Event]:
        """The events from index ``since`` on that ``seat`` may see."""
        return list(visible_events(self.events[since:], seat))

    def to_json(self) -> JSON:
        """The state as JSON: the game, its options and every action so far, in notation."""
        return {
            "game": self.game.name,
            "config": self.game.config(),
            "actions": [self.game.action_to_str(a) for a in self.history],
        }

    def _action_text(self, action: Action) -> str:
        try:
            return repr(self.game.action_to_str(int(action)))
        except InvalidActionError:
            return f"action {int(action)}"
