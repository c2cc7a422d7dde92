"""Hidden Pass: a tiny complete game on the solver.core protocol (the example of docs/adding-a-game.md).

The toy exercises every part of the protocol a real game uses, in a few hundred lines, so that
:func:`solver.testing.check_game` and the seat protocol server can be tested without a real game:

* chance nodes: the deal (uniform over the cards left) and a weighted bonus die after each round;
* hidden per-seat information: each seat sees its own card, and cards it has peeked at;
* a response window: after a ``bet`` the next seat answers (``call`` or ``raise``) inside the
  bettor's turn (:attr:`DecisionKind.RESPONSE`, ``turn_of`` = the bettor);
* events with restricted visibility (the deal, the peek) next to public ones;
* a codec, ``resample``, ``view_from_json`` and JSON round trips.

Rules. ``players`` seats (2 to 4) are each dealt one card from the deck 0..3, face down. Then
``rounds`` rounds are played; in a round every seat has one turn, in seat order. On its turn a seat
plays ``check``, or ``bet`` (stake 1). After a bet the next seat must ``call`` (stake 1) or ``raise``
(stake 2); a raise lets the bettor peek at the raiser's card. After each round a bonus die adds 0, 1
or 2 to the pot (probabilities 0.5, 0.3, 0.2). At the end all cards are shown; the highest card
takes the stakes and the bonus, every other seat loses its stake.

Action layout (one flat int space)::

    0..3   deal <card>     chance: the next seat's card
    4..6   bonus <n>       chance: n = action - 4
    7      check
    8      bet
    9      call            response to a bet
    10     raise           response to a bet
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Self

import numpy as np

from solver.core import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    BadStateError,
    ConfigError,
    Decision,
    DecisionKind,
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    Seat,
    State,
    View,
)

Card = int

DECK: Final[tuple[Card, ...]] = (0, 1, 2, 3)
BONUS_PROBS: Final[tuple[float, ...]] = (0.5, 0.3, 0.2)

DEAL_0: Final[Action] = 0
BONUS_0: Final[Action] = 4
CHECK: Final[Action] = 7
BET: Final[Action] = 8
CALL: Final[Action] = 9
RAISE: Final[Action] = 10
NUM_ACTIONS: Final[int] = 11

_WORDS: Final[dict[Action, str]] = {CHECK: "check", BET: "bet", CALL: "call", RAISE: "raise"}
_HIDDEN_DEAL: Final[str] = "deal ?"


# --- events -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Dealt(Event):
    """A card was dealt to ``seat``; only that seat sees it (the public learns of :class:`DealtFaceDown`)."""

    seat: Seat
    card: Card


@dataclass(frozen=True)
class DealtFaceDown(Event):
    """Public: ``seat`` received a card."""

    seat: Seat


@dataclass(frozen=True)
class Acted(Event):
    """Public: ``seat`` played ``action`` (check, bet, call, raise)."""

    seat: Seat
    action: str


@dataclass(frozen=True)
class Peeked(Event):
    """Only ``seat`` sees it: the card of ``target``, after ``target`` raised."""

    seat: Seat
    target: Seat
    card: Card


@dataclass(frozen=True)
class Bonus(Event):
    """Public: the bonus die added ``amount`` to the pot."""

    amount: int


@dataclass(frozen=True)
class Showdown(Event):
    """Public: every card, at the end."""

    cards: tuple[Card, ...]


# --- game ---------------------------------------------------------------------------------------
class HiddenPass(Game):
    """The toy game: ``players`` seats, ``rounds`` rounds."""

    name = "hidden_pass"

    def __init__(self, players: int = 3, rounds: int = 2) -> None:
        if not 2 <= players <= len(DECK):
            raise ConfigError(f"hidden_pass: players={players}, expected 2 to {len(DECK)}")
        if rounds < 1:
            raise ConfigError(f"hidden_pass: rounds={rounds}, expected at least 1")
        self.num_players = players
        self.rounds = rounds

    def config(self) -> JSON:
        return {"players": self.num_players, "rounds": self.rounds}

    def new_initial_state(self) -> HiddenPassState:
        return HiddenPassState(self)

    def action_to_str(self, action: Action) -> str:
        if DEAL_0 <= action < BONUS_0:
            return f"deal {action - DEAL_0}"
        if BONUS_0 <= action < CHECK:
            return f"bonus {action - BONUS_0}"
        if action in _WORDS:
            return _WORDS[action]
        raise InvalidActionError(f"hidden_pass: no action {action!r}")

    def str_to_action(self, text: str) -> Action:
        words = text.strip().lower().split()
        for action in range(NUM_ACTIONS):
            if words == self.action_to_str(action).split():
                return action
        raise InvalidActionError(f"hidden_pass: cannot read action {text!r}")

    def resample(self, view: View, rng: np.random.Generator, belief: Any | None = None) -> State:
        """Deal the cards ``view`` does not show at random, then replay the public log.

        ``belief``, when given, is a sequence of per-seat weights over the deck (index = card);
        unknown cards are drawn seat by seat in proportion to it, among the cards left.
        """
        data = self._checked_view_json(view)
        known: list[Card | None] = list(data["cards"])
        log: list[str] = list(data["log"])
        dealt = sum(1 for entry in log if entry.startswith("deal"))
        left = [c for c in DECK if c not in known]
        hands: list[Card] = []
        for seat in range(dealt):
            card = known[seat]
            if card is None:
                card = self._draw(left, rng, None if belief is None else belief[seat])
                left.remove(card)
            hands.append(card)
        state = self.new_initial_state()
        for entry in log:
            if entry.startswith("deal"):
                state.apply(DEAL_0 + hands[state.dealt])
            else:
                state.apply(self.str_to_action(entry))
        return state

    @staticmethod
    def _draw(left: list[Card], rng: np.random.Generator, weights: Sequence[float] | None) -> Card:
        if weights is None:
            return left[int(rng.integers(len(left)))]
        w = np.array([float(weights[c]) for c in left])
        if not w.sum() > 0:
            raise BadStateError("hidden_pass: the belief gives the remaining cards no weight")
        return left[int(rng.choice(len(left), p=w / w.sum()))]

    def view_from_json(self, data: JSON) -> View:
        if not isinstance(data, dict):
            raise BadStateError(f"hidden_pass: a view is a JSON object, not {type(data).__name__}")
        if data.get("game") != self.name or data.get("config") != self.config():
            raise BadStateError(
                f"hidden_pass: view is for {data.get('game')!r} {data.get('config')!r}, "
                f"not {self.name!r} {self.config()!r}"
            )
        missing = {"seat", "cards", "stakes", "bonus", "log", "decision", "legal"} - data.keys()
        if missing:
            raise BadStateError(f"hidden_pass: view lacks {sorted(missing)}")
        seat = data["seat"]
        if not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise BadStateError(f"hidden_pass: view seat {seat!r} is not a seat")
        cards = data["cards"]
        if not isinstance(cards, list) or len(cards) != self.num_players:
            raise BadStateError(f"hidden_pass: view cards {cards!r} should list {self.num_players} seats")
        d = data["decision"]
        try:
            decision = Decision(int(d["seat"]), DecisionKind(d["kind"]), int(d["turn_of"]), str(d["prompt"]))
        except (KeyError, TypeError, ValueError) as err:
            raise BadStateError(f"hidden_pass: view decision {d!r} is malformed") from err
        return HiddenPassView(self, seat, copy.deepcopy(data), decision)

    def _checked_view_json(self, view: View) -> JSON:
        if view.game != self:
            raise BadStateError(f"hidden_pass: cannot resample a view of {view.game!r} in {self!r}")
        return view.to_json()


class HiddenPassView(View):
    """One seat's information state; its JSON is the whole of it."""

    def __init__(self, game: HiddenPass, seat: Seat, data: JSON, decision: Decision) -> None:
        self.game = game
        self.seat = seat
        self._data = data
        self._decision = decision

    def to_json(self) -> JSON:
        return copy.deepcopy(self._data)

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        return tuple(self._data["legal"])

    @property
    def decision(self) -> Decision:
        return self._decision


class HiddenPassState(State):
    """The true position: every card, stakes, bonus, whose turn, any open response window."""

    game: HiddenPass

    def __init__(self, game: HiddenPass) -> None:
        super().__init__(game)
        n = game.num_players
        self.hands: list[Card | None] = [None] * n
        self.dealt = 0
        self.stakes: list[int] = [0] * n
        self.bonus = 0
        self.turn = 0  # turns completed
        self.responder: Seat | None = None  # the seat answering a bet, while the window is open
        self.bonus_due = False  # a round just ended; the bonus die is next
        self.known: list[list[bool]] = [[i == j for j in range(n)] for i in range(n)]  # known[i][j]

    # --- protocol -------------------------------------------------------------------------------
    def current_player(self) -> Seat:
        if self.dealt < self.game.num_players or self.bonus_due:
            return CHANCE
        if self.responder is not None:
            return self.responder
        if self.turn >= self._last_turn():
            return TERMINAL
        return self.turn % self.game.num_players

    def decision(self) -> Decision:
        if self.responder is not None:
            bettor = self.turn % self.game.num_players
            return Decision(
                self.responder,
                DecisionKind.RESPONSE,
                bettor,
                f"seat {self.responder}: call or raise seat {bettor}'s bet",
            )
        return super().decision()

    def legal_actions(self) -> list[Action]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.responder is not None:
            return [CALL, RAISE]
        return [CHECK, BET]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.dealt < self.game.num_players:
            left = [c for c in DECK if c not in self.hands]
            return [(DEAL_0 + c, 1.0 / len(left)) for c in left]
        if self.bonus_due:
            return [(BONUS_0 + i, p) for i, p in enumerate(BONUS_PROBS)]
        return super().chance_outcomes()

    def apply_unchecked(self, action: Action) -> None:
        n = self.game.num_players
        self.history.append(action)
        if DEAL_0 <= action < BONUS_0:
            seat, card = self.dealt, action - DEAL_0
            self.hands[seat] = card
            self.dealt += 1
            self.events.append(self._deal_event(seat, card))
            self.events.append(DealtFaceDown(seat))
        elif BONUS_0 <= action < CHECK:
            self.bonus += action - BONUS_0
            self.bonus_due = False
            self.events.append(Bonus(action - BONUS_0))
            if self.turn >= self._last_turn():
                self.events.append(Showdown(tuple(c for c in self.hands if c is not None)))
        elif action == CHECK:
            self.events.append(Acted(self.turn % n, "check"))
            self._end_turn()
        elif action == BET:
            bettor = self.turn % n
            self.stakes[bettor] += 1
            self.events.append(Acted(bettor, "bet"))
            self.responder = (bettor + 1) % n
        else:
            bettor, responder = self.turn % n, self.responder
            if responder is None:  # unchecked path: the caller promised legality
                raise IllegalActionError(
                    f"hidden_pass: {self.game.action_to_str(action)} with no bet to answer"
                )
            self.stakes[responder] += 1 if action == CALL else 2
            self.events.append(Acted(responder, self.game.action_to_str(action)))
            if action == RAISE:
                self.known[bettor][responder] = True
                peeked = self.hands[responder]
                if peeked is None:
                    raise BadStateError("hidden_pass: a seat without a card raised")
                self.events.append(Peeked(bettor, responder, peeked, visible_to=frozenset({bettor})))
            self.responder = None
            self._end_turn()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        winner = max(range(self.game.num_players), key=lambda s: self.hands[s] or 0)
        pot = float(sum(self.stakes) + self.bonus)
        return [
            pot - self.stakes[s] if s == winner else -float(self.stakes[s])
            for s in range(self.game.num_players)
        ]

    def clone(self) -> Self:
        other = copy.copy(self)
        other.history = list(self.history)
        other.events = list(self.events)
        other.hands = list(self.hands)
        other.stakes = list(self.stakes)
        other.known = [list(row) for row in self.known]
        return other

    def view(self, seat: Seat) -> View:
        if not 0 <= seat < self.game.num_players:
            raise BadStateError(f"hidden_pass: no seat {seat}")
        decision = self.decision()
        data: JSON = {
            "game": self.game.name,
            "config": self.game.config(),
            "seat": seat,
            "cards": self._visible_cards(seat),
            "stakes": list(self.stakes),
            "bonus": self.bonus,
            "log": self._visible_log(seat),
            "decision": decision.to_json(),
            "legal": self.legal_actions() if decision.seat == seat else [],
        }
        return HiddenPassView(self.game, seat, data, decision)

    # --- helpers --------------------------------------------------------------------------------
    def _visible_cards(self, seat: Seat) -> list[Card | None]:
        shown = self.is_terminal()
        return [c if shown or self.known[seat][j] else None for j, c in enumerate(self.hands)]

    def _visible_log(self, seat: Seat) -> list[str]:
        """The action log in notation, with other seats' deals hidden."""
        log = []
        for i, action in enumerate(self.history):
            hidden = DEAL_0 <= action < BONUS_0 and i != seat  # the i-th action deals seat i's card
            log.append(_HIDDEN_DEAL if hidden else self.game.action_to_str(action))
        return log

    def _deal_event(self, seat: Seat, card: Card) -> Event:
        return Dealt(seat, card, visible_to=frozenset({seat}))

    def _last_turn(self) -> int:
        return self.game.rounds * self.game.num_players

    def _end_turn(self) -> None:
        self.turn += 1
        if self.turn % self.game.num_players == 0:
            self.bonus_due = True
