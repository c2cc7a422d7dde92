"""ISMCTS with a heuristic's help: a pool of worlds, a pruned root, a conservative final choice.

The search bots of Good Cop Bad Cop and Police Precinct share this shape (each game's module says
what its worlds, playouts and heuristic are, and why):

1. **A pool of worlds.** Once per search ``worlds`` full states are drawn from the seat's belief by
   the game's resampler (:class:`bots.observer_sim.PoolDeterminizer`); each iteration plays a copy of
   one, chosen uniformly, on a sim with per-observer keys (:class:`bots.observer_sim.ObserverSim`).
2. **Heuristic pruning at the root.** Only the base heuristic's best ``prune`` actions (and those
   the game always searches, :meth:`PrunedISMCTSBot.always_searched`) are searched: a few hundred
   noisy iterations spread over every legal action play almost at random, and pruning by domain
   knowledge is the remedy of progressive strategies (Chaslot et al. 2008).
3. **A conservative final choice.** The bot plays the most visited root action only when its mean
   win chance beats that of the base heuristic's own choice by more than ``margin`` standard errors
   of the difference (:func:`conservative_choice`); otherwise the heuristic's. Rollout improves on
   its base policy by what its estimates resolve (Bertsekas, Tsitsiklis & Wu 1997).
4. **Budgets.** A ``seconds`` budget is the whole decision's (:class:`~bots.base.DecisionClock`):
   the posterior, the base's ranking and the pool come out of it. The pool gets at most
   :data:`POOL_SHARE` of what is left when the search starts (at least one world), and a decision
   whose time left is shorter than the last search's first world took to draw is not searched.
   Window decisions (:meth:`PrunedISMCTSBot.in_window`) get ``window_share`` of the budget.
5. **Advice** answers wherever ``step`` does, at any budget. Where ``step`` leaves the decision to the
   heuristic unsearched (a lone legal action, :meth:`PrunedISMCTSBot.unsearched_decision`, a single
   candidate after pruning, no time to draw a world) the advice is the heuristic's ranking with
   ``decided_by`` and a note giving that reason (never the time under an iteration budget). A searched
   decision ranks every legal action: the tried ones by visits, then the others in the heuristic's
   order with its reasons and why the search did not try them (pruned, or the budget ran out).

References: P. I. Cowling, E. J. Powley and D. Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012, pp. 120-143. G. M. J.-B. Chaslot, M. H. M. Winands, H. J. van den
Herik, J. W. H. M. Uiterwijk and B. Bouzy, "Progressive Strategies for Monte-Carlo Tree Search", New
Mathematics and Natural Computation 4(3), 2008, pp. 343-357. D. P. Bertsekas, J. N. Tsitsiklis and
C. Wu, "Rollout Algorithms for Combinatorial Optimization", Journal of Heuristics 3(3), 1997,
pp. 245-262. A. Agresti and B. A. Coull, "Approximate is Better than 'Exact' for Interval Estimation
of Binomial Proportions", The American Statistician 52(2), 1998, pp. 119-126.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from bots.base import Advice, Bot, DecisionClock, Option, RankedAction, on_the_clock
from bots.ismcts_bot import _BUDGET_OPTIONS, ISMCTSBot, reserve
from bots.observer_sim import NoWorldInTime, ObserverSim, PoolDeterminizer
from solver.core import Action, ConfigError, Game, State, View
from solver.search.ismcts import ActionStats, Budget, SearchParams, SearchResult, choose
from solver.search.sim import Determinizer

#: Largest ``margin`` (standard errors): beyond ~3 the bot would hardly ever leave the heuristic.
MAX_MARGIN = 10.0
#: The most of a timed search's time its pool of worlds may take (module docstring, item 4). At the default
#: 1,000 iterations the pool is ~10% of the search; at a small time budget it gets fewer worlds.
POOL_SHARE = 0.2


def mean_se(visits: int, value: float) -> float:
    """Standard error of a root action's mean win chance ``value`` over ``visits`` visits."""
    # sqrt(p(1-p)/n) with one win and one loss added (p = (n value + 1)/(n + 2) over n + 2 visits):
    # the Agresti-Coull adjustment for z^2 = 2. Without it an unvisited action has no error at all and
    # one that won 3 of 3 has error 0, so any gain over it would count as sure. p(1-p) bounds the
    # variance of any value in [0, 1] with mean p, so draws (1/2) make it conservative, not wrong.
    n = visits + 2
    p = (visits * value + 1.0) / n
    return math.sqrt(p * (1.0 - p) / n)


def mean_and_se(differences: Sequence[float]) -> tuple[float, float]:
    """(mean, standard error) of paired differences (the error is infinite below two of them): how
    much a candidate beats another on the same worlds or dice, for the rollout and rhea choices."""
    n = len(differences)
    mean = sum(differences) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in differences) / (n - 1)
    return mean, math.sqrt(var / n)


def gain_over(stats: Sequence[ActionStats], action: Action, base: Action) -> tuple[float, float]:
    """(gain, standard error) of ``action``'s mean win chance over ``base``'s in ``stats``."""
    by = {s.action: s for s in stats}
    a, b = by[action], by[base]
    # each iteration visits one root action, so the two means come from different iterations: no
    # pairing as in the rollout bot, and their errors add as for independent means (an approximation:
    # the iterations share the pool of worlds and UCB chose which action each one visited)
    return a.value - b.value, math.hypot(mean_se(a.visits, a.value), mean_se(b.visits, b.value))


def check_margin(bot: str, margin: Any) -> float:
    """``margin`` as a float; ConfigError unless it is a number in [0, :data:`MAX_MARGIN`]."""
    ok = isinstance(margin, (int, float)) and not isinstance(margin, bool)
    if not ok or not 0.0 <= margin <= MAX_MARGIN:  # NaN fails the comparison too
        raise ConfigError(f"{bot} bot: option 'margin' must be a number in [0, {MAX_MARGIN:g}], "
                          f"not {margin!r}")
    return float(margin)


def conservative_choice(stats: Sequence[ActionStats], base: Action, margin: float) -> Action:
    """The most visited root action of ``stats`` if its mean beats ``base``'s (the heuristic's choice)
    by more than ``margin`` standard errors of the difference (:func:`gain_over`), else ``base``.

    The ``rollout`` bot's rule (:func:`bots.gcbc.rollout.choose`): keep the base policy's action
    unless the simulation resolves a better one, since rollout improves on its base policy only by
    what its estimates resolve (Bertsekas, Tsitsiklis & Wu 1997). ``margin`` 0 is the plain most
    visited rule; so is a ``base`` the search did not visit (pruned out or never reached). Ties
    between most visited actions are broken as the search breaks them (:func:`solver.search.ismcts.choose`).
    """
    margin = check_margin("ismcts", margin)
    most = choose(tuple(stats))
    if margin == 0.0 or most == base:
        return most
    if not any(s.action == base and s.visits > 0 for s in stats):
        return most
    gain, se = gain_over(stats, most, base)
    return most if gain > margin * se else base


#: The options every pruned search adds to the budget's (a game's bot may add more).
PRUNED_OPTIONS: dict[str, Option] = {
    "worlds": Option(16, int, "determinized worlds drawn per search and copied by its iterations", 1, 4096),
    "prune": Option(4, int, "search only the heuristic's best N root actions (0: all of them)", 0, 64),
    "window_share": Option(0.25, float, "share of the budget for a minor (window) decision", 0.01, 1.0),
    "margin": Option(2.0, float, "play the most visited action only if it beats the heuristic's choice "
                     "by this many standard errors (0: always the most visited)", 0.0, MAX_MARGIN),
}


class PrunedISMCTSBot(ISMCTSBot):
    """ISMCTS over a pool of worlds, its root pruned by a heuristic and its choice kept near the
    heuristic's (module docstring). A game's bot gives :meth:`world` and :meth:`_heuristic`."""

    options: ClassVar[Mapping[str, Option]] = {**_BUDGET_OPTIONS, **PRUNED_OPTIONS}

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        super().__init__(game, seat, rng, **options)
        check_margin(self.name, self.settings["margin"])
        self.params = SearchParams(c=self.settings["c"], keys="actor")
        #: the heuristic's advice on the last view it ranked (kept for that view: module docstring)
        self._ranking: tuple[View, Advice] | None = None
        self._candidates: tuple[View, frozenset[Action] | None] | None = None
        self._det: PoolDeterminizer[Any] | None = None
        #: seconds the last timed search's first world took to draw (0: none drawn yet)
        self.world_seconds = 0.0
        #: why the last search ran no simulation ("" when it searched)
        self.unsearched_why = ""

    # --- what a game's bot gives ------------------------------------------------------------------
    def world(self, state: State) -> ObserverSim:
        """The sim of one drawn world (its playouts, keys and returns)."""
        raise NotImplementedError

    def _heuristic(self) -> Bot:
        """The base policy: it ranks the root, and its choice stands unless the search beats it."""
        raise NotImplementedError

    def posterior(self, view: View) -> Any:
        """The belief the worlds are drawn from (None: the resampler's own)."""
        return None

    def always_searched(self, view: View) -> set[Action]:
        """Root actions searched whatever their rank (none by default)."""
        return set()

    def in_window(self, view: View) -> bool:
        """True for a minor decision that gets ``window_share`` of the budget (none by default)."""
        return False

    def unsearched_decision(self, legal: tuple[Action, ...]) -> bool:
        """True for a decision the heuristic makes unsearched (none by default)."""
        return False

    def unsearched_note(self, view: View) -> str:
        """Which kind of decision an :meth:`unsearched_decision` is and why the bot leaves it to the
        heuristic, in one sentence (for advice)."""
        return f"{self.name} leaves this kind of decision to the {self.policy().name} unsearched"

    def single_candidate_note(self, view: View) -> str:
        """Why a :meth:`single_candidate` decision has one candidate (for advice)."""
        return (f"one candidate move after pruning to the {self.policy().name}'s best "
                f"{self.settings['prune']}: nothing to search")

    def pruned_reason(self, view: View, action: Action) -> str:
        """Why the search did not try ``action``, a legal action outside :meth:`candidates`."""
        return (f"not searched: pruned (the search tries only the {self.policy().name}'s best "
                f"{self.settings['prune']})")

    # --- the search -------------------------------------------------------------------------------
    def candidates(self, view: View) -> frozenset[Action] | None:
        """The root actions searched: the heuristic's best ``prune`` and those always searched."""
        # asked up to three times a decision (the one-candidate check, the search, the pool), and
        # always_searched may read a posterior: kept for the view, as the ranking is
        cached = self._candidates
        if cached is not None and cached[0] is view:
            return cached[1]
        k = self.settings["prune"]
        roots = None
        if k > 0:
            roots = frozenset(set(self._heuristic_ranking(view)[:k]) | self.always_searched(view))
        self._candidates = (view, roots)
        return roots

    def determinizer(self, view: View) -> PoolDeterminizer[Any]:
        """A pool of worlds drawn from the posterior for ``view``, the root pruned by the heuristic."""
        self._det = PoolDeterminizer(self.game, view, self.posterior(view), self.settings["worlds"],
                                     self.candidates(view), self.world)
        return self._det

    def cut_off(self, determinizer: Determinizer, clock: DecisionClock, end: float) -> None:
        """The sims' cut-off at ``end`` (the generic bot's), and the pool's: :data:`POOL_SHARE` of
        the time left now."""
        super().cut_off(determinizer, clock, end)
        if isinstance(determinizer, PoolDeterminizer):
            start = clock.elapsed()
            pool_end = start + POOL_SHARE * (end - start)
            determinizer.pool_full = lambda: clock.elapsed() >= pool_end
            determinizer.clock = clock

    def _heuristic_advice(self, view: View) -> Advice:
        """The heuristic's advice on ``view``: its ranking (best first, equal scores: lower action
        first) with its reasons."""
        # One decision asks for this up to four times (root pruning, the margin rule, advice and
        # its reasons); the view is the same object each time, so the last advice is kept for it.
        cached = self._ranking
        if cached is not None and cached[0] is view:
            return cached[1]
        # advise scores without drawing from the generator, so the search's stream is unchanged
        advice = self._heuristic().advise(view)
        self._ranking = (view, advice)
        return advice

    def _heuristic_ranking(self, view: View) -> list[Action]:
        """The legal actions by the heuristic's score, best first (equal scores: lower action first)."""
        return [r.action for r in self._heuristic_advice(view).ranked]

    def base_action(self, view: View) -> Action:
        """The heuristic's own choice: its top-scored legal action (the lowest among equal scores)."""
        return self._heuristic_ranking(view)[0]

    def search(self, view: View, budget: Budget | None = None) -> SearchResult:
        """The ISMCTS search; its ``action`` is :func:`conservative_choice`'s (module docstring, item 3).

        A decision with a single candidate root action (:meth:`single_candidate`) is not searched:
        the base's choice is the only one the search could return.

        A timed decision whose time left, once the posterior and the base's ranking are known, is
        shorter than the last search's first world took to draw is not searched: with one iteration
        the margin keeps the base's choice anyway (:meth:`unsearched`). Nor is one whose first world
        is still being drawn when its time runs out (:class:`~bots.observer_sim.NoWorldInTime`, when
        the game's resampler can give up).
        """
        with self.deciding() as clock:
            self.unsearched_why = ""
            if self.single_candidate(view):
                return self.unsearched(view, clock.elapsed(), self.single_candidate_note(view))
            budget = budget or self.decision_budget(view)
            if budget.seconds is not None:
                self.base_action(view)  # the ranking (and the posterior it reads), kept for the search
                left = clock.left(budget.seconds) - reserve(budget.seconds)
                if left < self.world_seconds:
                    if left <= 0.0:
                        why = ("the decision's time ran out before the search could start (reading the "
                               "belief and the heuristic's ranking took it all)")
                    else:
                        why = (f"too little of the decision's time was left to draw a world "
                               f"({1000 * left:.0f} ms; the last search's first world took "
                               f"{1000 * self.world_seconds:.0f} ms)")
                    return self.unsearched(view, clock.elapsed(), why)
            try:
                result = super().search(view, budget)
            except NoWorldInTime:  # a slow first draw used up the decision's time
                why = "the decision's time ran out before the first world was drawn"
                return self.unsearched(view, clock.elapsed(), why)
        if self._det is not None and self._det.world_seconds is not None:
            self.world_seconds = self._det.world_seconds
        action = conservative_choice(result.stats, self.base_action(view), self.settings["margin"])
        if action != result.action:
            result = dataclasses.replace(result, action=action)
            self.last = result
        return result

    def unsearched(self, view: View, elapsed: float, why: str = "") -> SearchResult:
        """The result of a decision left unsearched (a lone candidate, or no time for a world): the
        base's choice, every candidate root action unvisited; ``why`` is kept for advice."""
        roots = self.candidates(view) or frozenset(view.legal_actions)
        stats = tuple(ActionStats(a, 0, 0, 0.0) for a in sorted(a for a in roots if a in view.legal_actions))
        result = SearchResult(self.base_action(view), self.seat, stats, 0, 0, elapsed, "none")
        self._det, self.last = None, result
        self.unsearched_why = why
        return result

    # --- advice -----------------------------------------------------------------------------------
    def policy(self) -> Bot:
        """The heuristic: it decides what the bot does not search."""
        return self._heuristic()

    def policy_ranking(self, view: View) -> Advice:
        """The heuristic's advice on ``view`` (kept for the view, as for pruning)."""
        return self._heuristic_advice(view)

    def left_to_policy(self, view: View) -> str | None:
        """Why :meth:`step` leaves ``view``'s decision to the heuristic: an :meth:`unsearched_decision`
        (:meth:`unsearched_note`) or a :meth:`single_candidate` one; None when it searches."""
        if self.unsearched_decision(view.legal_actions):
            return self.unsearched_note(view)
        if self.single_candidate(view):
            return self.single_candidate_note(view)
        return None

    def not_searched(self, result: SearchResult) -> str | None:
        """Why the search ran no simulation (:meth:`unsearched`'s reason: the time), else None."""
        return self.unsearched_why if result.iterations == 0 and self.unsearched_why else None

    def untried(self, view: View, result: SearchResult, actions: list[Action]) -> list[RankedAction]:
        """The legal ``actions`` the search did not try, in the heuristic's order with its reasons,
        each saying why: pruned from the root (:meth:`pruned_reason`) or the budget ran out first."""
        base = {r.action: r for r in self.policy_ranking(view).ranked}
        wanted = set(actions)
        order = [a for a in self._heuristic_ranking(view) if a in wanted]
        order += [a for a in actions if a not in base]
        roots = self.candidates(view)
        name = self.policy().name
        rows = []
        for a in order:
            if roots is not None and a not in roots:
                why = self.pruned_reason(view, a)
            else:
                why = f"not tried by the search: the budget ran out first ({result.iterations} simulations)"
            row = base.get(a)
            reason = why if row is None else f"{why}; {name}: {row.reason}"
            rows.append(RankedAction(a, self.game.action_to_str(a), 0.0, reason, visits=0))
        return rows

    @on_the_clock
    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Root actions ranked by visits (as the generic bot), then the legal actions the search did
        not try (:meth:`untried`); the summary says which the bot plays (module docstring, item 5).

        The bot plays the most visited only when it beats the heuristic's choice by ``margin``
        standard errors, so the first-ranked action need not be the one played: the summary then
        names the played action and the gain that fell short, and that action's reason says so. A
        window decision's summary says what its share of the budget bought. A decision the bot does
        not search is the heuristic's advice, with ``decided_by`` and the reason in ``note``.
        """
        advice = super().advise(view, budget)
        result = self.last
        # the heuristic's advice (decided_by), a lone legal action, or a search cut before its first
        # simulation: nothing for the margin rule to explain
        if advice.decided_by or result is None or not any(r.visits for r in advice.ranked):
            return advice
        if budget is None and self.in_window(view):
            advice = dataclasses.replace(advice, summary=f"{advice.summary}; {self.window_text(result)}")
        most, played, base = choose(result.stats), result.action, self.base_action(view)
        margin = self.settings["margin"]
        text = self.game.action_to_str
        searched = any(s.action == base and s.visits > 0 for s in result.stats)
        if played == most:
            if most == base:
                why = "the heuristic's choice too"
            elif margin == 0.0:
                why = "margin 0: the most visited"
            elif not searched:
                why = f"the heuristic's {text(base)} was not searched"
            else:
                gain, se = gain_over(result.stats, most, base)
                why = (f"it beats the heuristic's {text(base)} by {gain:.1%}, more than {margin:g} "
                       f"{_errors(margin)} ({margin * se:.1%})")
            summary = f"{advice.summary}; the bot plays it ({why})"
            return dataclasses.replace(advice, summary=summary)
        gain, se = gain_over(result.stats, most, played)
        note = (f"the bot plays the heuristic's {text(played)}: the most visited {text(most)} beats it by "
                f"{gain:.1%}, not more than {margin:g} {_errors(margin)} ({margin * se:.1%})")
        ranked = tuple(dataclasses.replace(r, reason=f"{r.reason}; the bot plays this (the heuristic's "
                                           f"choice; the search does not resolve a better one)")
                       if r.action == played else r for r in advice.ranked)
        return dataclasses.replace(advice, ranked=ranked, summary=f"{advice.summary}; {note}")

    @on_the_clock
    def step(self, view: View) -> Action:
        """Search; a window decision gets ``window_share`` of the budget; an :meth:`unsearched_decision`
        or a :meth:`single_candidate` one is the heuristic's."""
        legal = self.check_view(view)
        if len(legal) == 1:
            return legal[0]
        if self.unsearched_decision(legal) or self.single_candidate(view):
            return self._heuristic().step(view)
        return self.search(view).action

    def window_text(self, result: SearchResult) -> str:
        """What a window decision's share of the budget bought, for advice: ``a window decision: 25%
        of the budget, 12 of 50 iterations``."""
        share = self.settings["window_share"]
        full = self.budget()
        if full.seconds is not None:
            return (f"a window decision: {share:.0%} of the budget ({full.seconds * share:g} of "
                    f"{full.seconds:g} s), {result.iterations} iterations")
        return (f"a window decision: {share:.0%} of the budget, {result.iterations} of {full.iterations} "
                "iterations")

    def single_candidate(self, view: View) -> bool:
        """True when one root action alone would be searched (``prune=1`` and nothing always
        searched): no search could return another, so none is run and the heuristic decides."""
        roots = self.candidates(view)
        return roots is not None and len(roots & frozenset(view.legal_actions)) == 1

    def decision_budget(self, view: View, iterations: int | None = None) -> Budget:
        """The bot's budget, cut to ``window_share`` of it for an Equipment-window decision
        (``iterations``, a caller's explicit budget, applies as given)."""
        full = self.budget(iterations)
        if iterations is not None or not self.in_window(view):
            return full
        share = self.settings["window_share"]
        return Budget(
            iterations=None if full.iterations is None else max(1, round(full.iterations * share)),
            seconds=None if full.seconds is None else full.seconds * share,
        )


def _errors(margin: float) -> str:
    """'standard error' or 'standard errors', for ``margin`` of them."""
    return "standard error" if margin == 1.0 else "standard errors"
