"""Hidden Pass for the tests: the toy game (``tests/toy/game``) and deliberately broken variants.

:class:`BrokenHiddenPass` takes a ``bug`` name from :data:`BUGS`; each bug breaks one rule of the
protocol, and the tests show that ``check_game`` names the check that catches it. The game itself,
its spec and its bots are the example of docs/adding-a-game.md: ``tests/toy/game/`` and
``tests/toy/bots/``.
"""

from __future__ import annotations

import itertools
from typing import Any, Final, Self

import numpy as np

from solver.core import JSON, TERMINAL, Action, ConfigError, Decision, DecisionKind, Event, Seat, State, View
from tests.toy.game.rules import (
    BET,
    BONUS_0,
    CALL,
    CHECK,
    DECK,
    NUM_ACTIONS,
    RAISE,
    Card,
    Dealt,
    HiddenPass,
    HiddenPassState,
    HiddenPassView,
    Peeked,
)
from tests.toy.game.spec import SPEC

__all__ = ["BET", "BUGS", "CALL", "CHECK", "DECK", "RAISE", "SPEC", "BrokenHiddenPass", "HiddenPass",
           "Peeked"]


# --- broken variants ----------------------------------------------------------------------------
#: Each bug, and the check of :func:`solver.testing.check_game` that must catch it.
BUGS: Final[dict[str, str]] = {
    "unsorted-legal": "legal-actions",  # legal actions listed in reverse
    "numpy-legal": "legal-actions",  # legal actions as numpy ints (not JSON-able)
    "chance-sum": "chance",  # bonus probabilities sum to 1.1
    "chance-mismatch": "chance",  # legal actions at the deal list an outcome chance_outcomes lacks
    "shared-clone": "clone-independence",  # clone shares the stakes list
    "leaky-view": "no-leak",  # every card shown in every view (in a field resample does not read)
    "leaky-event": "no-leak",  # the deal event visible to all seats
    "codec-roundtrip": "codec",  # 'raise' rendered as 'Raise!', which does not parse
    "codec-garbage": "codec",  # unreadable text raises KeyError, not InvalidActionError
    "lax-apply": "illegal-action",  # apply accepts anything
    "mutating-reject": "illegal-action",  # apply changes the stakes before it rejects
    "returns-length": "returns",  # one payoff short
    "decision-kind": "decision",  # a response window said to belong to the responder's own turn
    "view-legal-all": "views",  # every seat's view lists the legal actions
    "view-tuple": "views",  # view JSON holds a tuple (not JSON-native)
    "view-json": "view-json",  # view_from_json forgets the log
    "state-json": "state-json",  # to_json drops the last action
    "global-state": "determinism",  # the bonus depends on a process-wide counter
    "resample-global": "resample",  # resample ignores its rng and uses a process-wide counter
    "endless": "playout",  # the game never ends
}

_COUNTER = itertools.count()


class BrokenHiddenPass(HiddenPass):
    """Hidden Pass with one deliberate protocol bug (a key of :data:`BUGS`)."""

    def __init__(self, bug: str, players: int = 3, rounds: int = 2) -> None:
        if bug not in BUGS:
            raise ConfigError(f"hidden_pass: no bug {bug!r}; known: {', '.join(BUGS)}")
        super().__init__(players, rounds)
        self.bug = bug

    def config(self) -> JSON:
        return {**super().config(), "bug": self.bug}

    def new_initial_state(self) -> BrokenHiddenPassState:
        return BrokenHiddenPassState(self)

    def action_to_str(self, action: Action) -> str:
        if self.bug == "codec-roundtrip" and action == RAISE:
            return "Raise!"
        return super().action_to_str(action)

    def str_to_action(self, text: str) -> Action:
        if self.bug == "codec-garbage":
            table = {super(BrokenHiddenPass, self).action_to_str(a): a for a in range(NUM_ACTIONS)}
            return table[text]
        return super().str_to_action(text)

    def resample(self, view: View, rng: np.random.Generator, belief: Any | None = None) -> State:
        if self.bug == "resample-global":
            return super().resample(view, np.random.default_rng(next(_COUNTER)), belief)
        return super().resample(view, rng, belief)

    def view_from_json(self, data: JSON) -> View:
        view = super().view_from_json(data)
        if self.bug == "view-json" and isinstance(view, HiddenPassView):
            view._data["log"] = []
        return view


class BrokenHiddenPassState(HiddenPassState):
    """The state side of :class:`BrokenHiddenPass`."""

    game: BrokenHiddenPass

    @property
    def bug(self) -> str:
        return self.game.bug

    def current_player(self) -> Seat:
        player = super().current_player()
        if self.bug == "endless" and player == TERMINAL:
            return self.turn % self.game.num_players
        return player

    def decision(self) -> Decision:
        d = super().decision()
        if self.bug == "decision-kind" and d.kind == DecisionKind.RESPONSE:
            return Decision(d.seat, DecisionKind.RESPONSE, d.seat, d.prompt)
        return d

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        if self.bug == "endless" and not legal:
            return [CHECK, BET]
        if self.bug == "chance-mismatch" and self.dealt < self.game.num_players and legal[-1] < BONUS_0:
            return [*legal, BONUS_0]  # an outcome chance_outcomes does not list
        if self.bug == "unsorted-legal":
            return legal[::-1]
        if self.bug == "numpy-legal":
            return list(np.array(legal, dtype=np.int64))
        return legal

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        outcomes = super().chance_outcomes()
        if self.bug == "chance-sum" and self.bonus_due:
            return [(a, p + 0.1 if a == BONUS_0 else p) for a, p in outcomes]
        return outcomes

    def apply(self, action: Action) -> None:
        if self.bug == "lax-apply":
            self.apply_unchecked(int(action))
            return
        if self.bug == "mutating-reject":
            self.stakes[0] += 1  # taken back only when the action is legal
            super().apply(action)
            self.stakes[0] -= 1
            return
        super().apply(action)

    def apply_unchecked(self, action: Action) -> None:
        super().apply_unchecked(action)
        if self.bug == "global-state" and BONUS_0 <= action < CHECK:
            self.bonus += next(_COUNTER)

    def returns(self) -> list[float]:
        r = super().returns()
        return r[:-1] if self.bug == "returns-length" else r

    def clone(self) -> Self:
        other = super().clone()
        if self.bug == "shared-clone":
            other.stakes = self.stakes
        return other

    def view(self, seat: Seat) -> View:
        view = super().view(seat)
        if not isinstance(view, HiddenPassView):
            raise TypeError("hidden_pass: views are HiddenPassView")
        data = view._data
        if self.bug == "leaky-view":
            data["hands"] = list(self.hands)
        elif self.bug == "view-legal-all":
            data["legal"] = self.legal_actions()
        elif self.bug == "view-tuple":
            data["stakes"] = tuple(self.stakes)
        return view

    def _deal_event(self, seat: Seat, card: Card) -> Event:
        visible = None if self.bug == "leaky-event" else frozenset({seat})
        return Dealt(seat, card, visible_to=visible)

    def to_json(self) -> JSON:
        data = super().to_json()
        if self.bug == "state-json" and data["actions"]:
            data["actions"] = data["actions"][:-1]
        return data
