"""Police 07 bots: the documented heuristic (both roles).

The scores and their reasons are in :mod:`solver.games.police07.heuristics`; this module turns them
into a choice (best score, ties broken by the bot's generator, an optional exploration rate) and
into advice for the hint advisor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import numpy as np

from bots.base import Advice, Bot, Option, RankedAction
from bots.registry import register
from solver.core import Action, ConfigError, Game, View
from solver.games.police07.heuristics import Scored, detective_move_scores, factor_move_scores
from solver.games.police07.locations import possible_locations
from solver.games.police07.rules import Police07Game
from solver.games.police07.view import Police07View

_TIE = 1e-9  # scores this close are a tie, broken by the generator


class HeuristicBot(Bot):
    """Dr. Factor keeps away from the detectives; detectives close in on his possible stops."""

    name: ClassVar[str] = "heuristic"
    description: ClassVar[str] = "hand-written Police 07 scores for both roles (distances, possible stops)"
    options: ClassVar[Mapping[str, Option]] = {
        "epsilon": Option(0.0, float, "probability of a uniformly random move instead", 0.0, 1.0),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: object) -> None:
        if not isinstance(game, Police07Game):
            raise ConfigError(f"heuristic bot: plays police07 only, not {game.name!r}")
        super().__init__(game, seat, rng, **options)
        self.police_game: Police07Game = game
        self.epsilon: float = self.settings["epsilon"]

    def _view(self, view: View) -> Police07View:
        self.check_view(view)
        if not isinstance(view, Police07View):
            raise ConfigError(f"heuristic bot: expected a police07 view, not {type(view).__name__}")
        return view

    def scores(self, view: View) -> list[Scored]:
        """(action, score, reason) for every legal action of ``view``."""
        pview = self._view(view)
        if pview.seat == 0:
            return factor_move_scores(self.police_game, pview)
        return detective_move_scores(self.police_game, pview)

    def step(self, view: View) -> Action:
        """The best-scoring legal action (ties and the epsilon exploration use the bot's generator)."""
        legal = self.check_view(view)
        if self.epsilon > 0.0 and self.rng.random() < self.epsilon:
            return legal[int(self.rng.integers(len(legal)))]
        scored = self.scores(view)
        top = max(score for _, score, _ in scored)
        best = [action for action, score, _ in scored if score >= top - _TIE]
        return best[int(self.rng.integers(len(best)))] if len(best) > 1 else best[0]

    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Every legal action ranked by score (ties in action order), with reasons and the belief.

        ``budget`` is ignored: the heuristic needs no search time.
        """
        scored = self.scores(view)
        ranked = tuple(
            RankedAction(action, self.game.action_to_str(action), round(score, 3), reason)
            for action, score, reason in sorted(scored, key=lambda s: (-s[1], s[0]))
        )
        possible = sorted(possible_locations(self.police_game, view.to_json()))
        best = ranked[0]
        if not possible:  # free start: Dr. Factor places his piece after the detectives
            where = "Dr. Factor has not placed his piece yet"
        elif view.seat == 0:
            where = f"Dr. Factor is at {possible[0]}"
        else:
            where = f"Dr. Factor may be at {len(possible)} stop{'s' if len(possible) != 1 else ''}"
        summary = f"{where}; best: {best.text} ({best.reason})"
        return Advice(view.seat, ranked, {"possible_stops": possible, "count": len(possible)}, summary)


register("police07", HeuristicBot)
