"""Hidden Pass's own bots (as ``bots/<name>/``): importing the package registers them.

``holdem`` bets and raises with the top card, checks and calls otherwise: a rule a human would
follow, enough to show a game's own bot beside the generic ``random`` and ``ismcts``.
"""

from __future__ import annotations

from typing import ClassVar

from bots.base import Advice, Bot, RankedAction
from bots.registry import register
from solver.core import Action, View
from tests.toy.game.rules import BET, CALL, CHECK, DECK, RAISE


class HoldemBot(Bot):
    """Bet or raise holding the top card of the deck, else check or call."""

    name: ClassVar[str] = "holdem"
    description: ClassVar[str] = "bets and raises with the top card, checks and calls otherwise"

    def _choice(self, view: View) -> tuple[Action, str]:
        legal = self.check_view(view)
        card = view.to_json()["cards"][view.seat]
        strong = card == max(DECK)
        for action in ((BET, RAISE) if strong else (CHECK, CALL)):
            if action in legal:
                return action, "the top card" if strong else "not the top card"
        return legal[0], "the only way on"

    def step(self, view: View) -> Action:
        """The rule's action for this view."""
        return self._choice(view)[0]

    def advise(self, view: View, budget: float | None = None) -> Advice:
        """The rule's action first, every other legal action after it."""
        best, why = self._choice(view)
        ranked = [RankedAction(best, self.game.action_to_str(best), 1.0, why)]
        ranked += [RankedAction(a, self.game.action_to_str(a), 0.0, "not the rule's")
                   for a in self.check_view(view) if a != best]
        return Advice(view.seat, tuple(ranked), {}, f"holdem: {why}")


register("hidden_pass", HoldemBot)
