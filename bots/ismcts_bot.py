"""The ISMCTS bot (``ismcts``): Information Set Monte Carlo Tree Search for every game.

Every game gets the generic bot: determinizations from the game's own ``resample`` over the Python
rules (:class:`~solver.search.sim.StateSim`), with each seat's payoff read as a win (1), a loss (0)
or neither (1/2), so values are win chances and one exploration constant suits every game. A game's
own package may register a subclass under the same name that searches differently (a compiled
simulator, its own rewards, playouts or determinizations, as ``bots/<game>/ismcts.py``); this module
knows no game.

Strength is the budget: ``iterations`` per move, or ``seconds`` per move when given (wall time, so
not reproducible from a seed alone). The search draws from a SplitMix64 seeded from the bot's numpy
generator at every decision, so a seeded bot replays the same game.

A ``seconds`` budget is the whole decision's, from the moment the bot is asked
(:class:`~bots.base.DecisionClock`): building the belief and the determinizer and preparing the
root come out of it, and the search gets what is left less :func:`reserve` (the reading of its
result and the search's own last clock check). Two things keep a decision within its tolerance
(5% of the budget or 2 ms, whichever is more; :func:`bots.arena.tournament.overrun_tolerance`):
searches on the Python rules read the clock after every iteration (``check_every=1``; the compiled
kernel's 16 iterations take about 0.1 ms), and their sims end a line of play where it stands once
the time is up (:class:`WinLossSim`), since one iteration through the Python rules can take longer
than the tolerance.

Advice (:meth:`ISMCTSBot.advise`) answers wherever ``step`` does: a lone legal action is ranked alone,
unsearched; a decision a game's bot leaves to its policy (:meth:`ISMCTSBot.left_to_policy`) is the
policy's ranking, with ``decided_by`` and a note saying why; a searched one ranks every legal action,
the tried ones by visits and then the others with why the search did not try them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

import numpy as np

from bots.base import Advice, Bot, DecisionClock, Option, RankedAction, on_the_clock
from bots.registry import ANY_GAME, register
from solver.core import Action, ConfigError, Game, State, View
from solver.core.rng import SplitMix64
from solver.search.ismcts import (
    MAX_ITERATIONS,
    Budget,
    SearchParams,
    SearchResult,
    is_compiled_determinizer,
    run_search,
)
from solver.search.sim import Determinizer, ResampleDeterminizer, StateSim

#: A search's time is up (the sims' cut-off; see :meth:`WinLossSim.is_terminal`).
Expired = Callable[[], bool]

#: Seconds below which a search's budget is not cut: it then runs its least (one iteration, or
#: the kernel's first ``check_every``) and the decision overruns by that much.
MIN_SEARCH_SECONDS: Final = 1e-6
#: How long after the search's own deadline its sims cut their lines of play: the search, whose
#: deadline has then passed, stops at the clock check right after the cut iteration instead of
#: starting another one that would be cut at once.
CUTOFF_GRACE: Final = 1e-4


def reserve(seconds: float) -> float:
    """The part of a ``seconds`` budget kept back from the search: 1% of it, at least 0.3 ms and at
    most 2 ms, for reading the result and for the search's last iterations after its deadline."""
    return min(max(0.01 * seconds, 0.0003), 0.002)


class WinLossSim(StateSim):
    """:class:`StateSim` whose returns are 1 for a positive payoff, 0 for a negative one, else 1/2.

    With ``expired`` (the decision's time is up), a line of play that has left the root ends where
    it stands once ``expired()`` is true (:meth:`is_terminal`).
    """

    def __init__(self, state: State, expired: Expired | None = None) -> None:
        super().__init__(state)
        self.expired = expired
        #: an action was applied since this sim was drawn (it has left the root)
        self.moved = False

    def apply(self, action: Action) -> None:
        """Apply without the legality check."""
        self.moved = True
        self.state.apply_unchecked(action)

    def is_terminal(self) -> bool:
        """True once the game is over; and below the root once the decision's time is up.

        The iteration then ends as a depth-limited playout does, its returns read as the state
        stands (1/2 for a game nobody has won yet), and the search stops at its next clock check.
        At the root the game's own answer stands, so every search visits the root at least once.
        """
        if self.state.is_terminal():
            return True
        return self.moved and self.expired is not None and self.expired()

    def returns(self) -> list[float]:
        """Each seat's payoff mapped to a win (1.0), loss (0.0) or neither (0.5)."""
        return [1.0 if r > 0 else 0.0 if r < 0 else 0.5 for r in self.state.returns()]

    def copy(self) -> WinLossSim:
        """An independent copy (with the same cut-off)."""
        return WinLossSim(self.state.clone(), self.expired)


class CutOff:
    """A determinizer whose sims a timed search cuts off (:meth:`ISMCTSBot.cut_off`): it hands
    :attr:`expired` to every :class:`WinLossSim` it draws."""

    #: the decision's time is up (None: an untimed search, never cut)
    expired: Expired | None = None


class WinLossDeterminizer(ResampleDeterminizer, CutOff):
    """:class:`ResampleDeterminizer` whose sims are :class:`WinLossSim` (cut off by ``expired``)."""

    def sample(self, rng: SplitMix64) -> WinLossSim:
        """One consistent state, drawn by the game's own resampler."""
        state: State = super().sample(rng).state
        return WinLossSim(state, self.expired)


_BUDGET_OPTIONS: dict[str, Option] = {
    "iterations": Option(1000, int, "search iterations per move (unless seconds is given)", 1,
                         MAX_ITERATIONS),
    "seconds": Option(None, float, "time per move in seconds, the whole decision's; overrides iterations",
                      0.001, 3600.0),
    "c": Option(0.7, float, "UCB1 exploration constant (values are win chances in [0, 1])", 0.0, 10.0),
}


def advice_iterations(bot: str, budget: float | None) -> int | None:
    """An advice ``budget`` as iterations (None: the bot's own), or ConfigError naming ``bot``."""
    if budget is not None and (isinstance(budget, bool) or not 1 <= budget < math.inf):
        raise ConfigError(f"{bot} bot: budget must be at least 1 iteration, not {budget!r}")
    return None if budget is None else min(int(budget), MAX_ITERATIONS)


class ISMCTSBot(Bot):
    """Searches the seat's information sets with ISMCTS and plays the most visited action."""

    name: ClassVar[str] = "ismcts"
    description: ClassVar[str] = (
        "Information Set MCTS (Cowling et al. 2012); strength by --iterations or --seconds"
    )
    options: ClassVar[Mapping[str, Option]] = _BUDGET_OPTIONS

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        super().__init__(game, seat, rng, **options)
        self.params = SearchParams(c=self.settings["c"])
        #: the last search, for callers that want its statistics
        self.last: SearchResult | None = None

    # --- what subclasses change -------------------------------------------------------------------
    def determinizer(self, view: View) -> Determinizer:
        """The determinizer of one search from ``view`` (the game's resampler over its Python rules)."""
        return WinLossDeterminizer(self.game, view)

    def ready(self, determinizer: Determinizer, rng: SplitMix64) -> Determinizer:
        """The determinizer the search runs, once its cut-off is set (``determinizer`` itself; a game's
        bot may hand over a compiled one built from it, drawing from ``rng``)."""
        return determinizer

    def belief(self, view: View) -> dict[str, Any]:
        """What the seat believes about hidden facts, for advice (nothing, for a generic game)."""
        return {}

    # --- the bot API -------------------------------------------------------------------------------
    def budget(self, iterations: int | None = None) -> Budget:
        """``iterations`` when given, else the bot's seconds if set, else its iterations."""
        if iterations is not None:
            return Budget(iterations=iterations)
        seconds = self.settings["seconds"]
        if seconds is not None:
            return Budget(seconds=seconds)
        return Budget(iterations=self.settings["iterations"])

    def decision_budget(self, view: View, iterations: int | None = None) -> Budget:
        """The budget of a search from ``view``: :meth:`budget` (a game's bot may spend less on
        some kinds of decision); ``step`` and ``advise`` both search with it."""
        return self.budget(iterations)

    def cut_off(self, determinizer: Determinizer, clock: DecisionClock, end: float) -> None:
        """Let ``determinizer``'s sims end their lines of play once ``clock`` reads ``end`` (plus
        :data:`CUTOFF_GRACE`): those whose iterations run the Python rules. Compiled sims need none."""
        if isinstance(determinizer, CutOff):
            determinizer.expired = lambda: clock.elapsed() >= end + CUTOFF_GRACE

    def search(self, view: View, budget: Budget | None = None) -> SearchResult:
        """Run one search from ``view`` (this bot's seat must be to act).

        A ``seconds`` budget counts from the decision's start (:meth:`~bots.base.Bot.deciding`),
        so the search gets what the belief and the determinizer left of it (module docstring).
        """
        with self.deciding() as clock:
            self.check_view(view)
            budget = budget or self.decision_budget(view)
            rng = SplitMix64.from_generator(self.rng)
            determinizer = self.determinizer(view)
            params = self.params
            if not is_compiled_determinizer(determinizer):
                # an iteration through the Python rules takes milliseconds: read the clock after each
                params = dataclasses.replace(params, check_every=1)
            if budget.seconds is not None:
                self.cut_off(determinizer, clock, budget.seconds - reserve(budget.seconds))
            determinizer = self.ready(determinizer, rng)
            if budget.seconds is not None:
                budget = self.remaining(budget, clock)
            result = run_search(determinizer, self.seat, budget, rng, params)
        self.last = result
        return result

    @staticmethod
    def remaining(budget: Budget, clock: DecisionClock) -> Budget:
        """``budget`` with its seconds cut to what ``clock``'s decision has left of them, less the
        :func:`reserve` (at least :data:`MIN_SEARCH_SECONDS`)."""
        if budget.seconds is None:
            return budget
        left = clock.left(budget.seconds) - reserve(budget.seconds)
        return Budget(iterations=budget.iterations, seconds=max(left, MIN_SEARCH_SECONDS))

    @on_the_clock
    def step(self, view: View) -> Action:
        """The most visited root action (a lone legal action is played without searching)."""
        legal = self.check_view(view)
        if len(legal) == 1:
            return legal[0]
        return self.search(view).action

    @on_the_clock
    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Every legal action ranked: the search's tried root actions by visits (visit shares, win
        chances), then the others with why the search did not try them; and the belief.

        ``budget`` is a number of iterations (the seat protocol's unit for search bots); without it
        the bot's own budget applies. Where :meth:`step` plays without searching, the advice says so:
        a lone legal action is ranked alone, and a decision the bot leaves to its policy
        (:meth:`left_to_policy`, :meth:`not_searched`) is the policy's ranking, with
        :attr:`~bots.base.Advice.decided_by` and a note that gives the reason.
        """
        legal = self.check_view(view)
        iterations = advice_iterations(self.name, budget)
        if len(legal) == 1:
            return self.only_move(view)
        why = self.left_to_policy(view)
        if why is not None:
            return self.policy_advice(view, why)
        result = self.search(view, self.decision_budget(view, iterations))
        why = self.not_searched(result)
        if why is not None:
            return self.policy_advice(view, why)
        return self.search_advice(view, result)

    # --- advice: what subclasses change ---------------------------------------------------------------
    def left_to_policy(self, view: View) -> str | None:
        """Why :meth:`step` leaves the decision of ``view`` to the bot's policy unsearched, in one
        sentence (None: the bot searches it). The generic bot searches every decision."""
        return None

    def not_searched(self, result: SearchResult) -> str | None:
        """Why the search that gave ``result`` ran no simulation and left the decision to the policy
        (None: it searched). The generic search always runs at least one."""
        return None

    def policy(self) -> Bot:
        """The bot whose ranking stands where this bot does not search (a game's bot gives it)."""
        raise NotImplementedError(f"{type(self).__name__} leaves no decision to a policy")

    def policy_ranking(self, view: View) -> Advice:
        """The policy's advice on ``view``."""
        return self.policy().advise(view)

    def policy_advice(self, view: View, why: str) -> Advice:
        """The policy's advice on ``view`` as this bot's: its ranking and reasons, ``decided_by`` its
        name (or the one the policy's own advice names), ``why`` as the note, the bot's belief added."""
        base = self.policy_ranking(view)
        note = f"{why}; {base.note}" if base.note else why
        return Advice(view.seat, base.ranked, {**base.belief, **self.belief(view)}, base.summary,
                      decided_by=base.decided_by or self.policy().name, note=note)

    def only_move(self, view: View) -> Advice:
        """The advice on a lone legal action, which :meth:`step` plays without searching."""
        action = view.legal_actions[0]
        text = self.game.action_to_str(action)
        ranked = (RankedAction(action, text, 1.0, "the only legal move: nothing to search"),)
        return Advice(view.seat, ranked, self.belief(view), f"the only legal move: {text}")

    def search_advice(self, view: View, result: SearchResult) -> Advice:
        """``result`` as advice: the tried root actions by visits, then every other legal action
        (:meth:`untried`)."""
        total = sum(s.visits for s in result.stats) or 1
        ranked = []
        for s in result.ranked():
            if not s.visits:
                continue
            share = s.visits / total
            reason = (f"estimated win chance {s.value:.0%} over {s.visits} simulations "
                      f"({share:.0%} of the search)")
            ranked.append(
                RankedAction(s.action, self.game.action_to_str(s.action), round(share, 4), reason,
                             visits=s.visits, value=round(s.value, 4))
            )
        tried = {r.action for r in ranked}
        ranked += self.untried(view, result, [a for a in view.legal_actions if a not in tried])
        best = ranked[0]
        win = f"estimated win chance {best.value:.0%}" if best.value is not None else "not tried"
        summary = (f"{result.iterations} simulations, {result.nodes} information sets; best: {best.text} "
                   f"({win})")
        return Advice(view.seat, tuple(ranked), self.belief(view), summary)

    def untried(self, view: View, result: SearchResult, actions: list[Action]) -> list[RankedAction]:
        """The legal ``actions`` the search did not try, after the tried ones, each with why: the
        budget ran out before UCB reached them, or they were not at the search's root."""
        at_root = {s.action for s in result.stats}
        rows = []
        for a in actions:
            if a in at_root:
                why = (f"not tried by the search: the budget ran out first ({result.iterations} "
                       f"simulations for {len(at_root)} moves)")
            else:
                why = "not tried by the search: not among the moves its root searched"
            rows.append(RankedAction(a, self.game.action_to_str(a), 0.0, why, visits=0))
        return rows


register(ANY_GAME, ISMCTSBot)
