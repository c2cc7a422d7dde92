"""The uniform random bot: a baseline for every game."""

from __future__ import annotations

from typing import ClassVar

from bots.base import Advice, Bot, RankedAction
from bots.registry import ANY_GAME, register
from solver.core import Action, View


class RandomBot(Bot):
    """Plays uniformly at random among the legal actions, with its own generator."""

    name: ClassVar[str] = "random"
    description: ClassVar[str] = "uniform random legal moves (baseline)"

    def step(self, view: View) -> Action:
        """A uniformly drawn legal action."""
        legal = self.check_view(view)
        return legal[int(self.rng.integers(len(legal)))]

    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Every legal action, equally ranked (in action order)."""
        legal = self.check_view(view)
        ranked = tuple(
            RankedAction(a, self.game.action_to_str(a), 0.0, "random") for a in legal
        )
        return Advice(view.seat, ranked, {}, f"{len(legal)} legal actions, all equally good to a random bot")


register(ANY_GAME, RandomBot)
