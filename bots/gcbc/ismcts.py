"""ISMCTS for Good Cop Bad Cop (``ismcts`` for gcbc): posterior determinizations, per-seat keys.

The generic ``ismcts`` bot (:mod:`bots.ismcts_bot`) runs on any game but pays, at every iteration,
a full resample (a replay of the history, ~9 ms at 6 players) and, at every tree node, a full view
(~1 ms). This bot keeps the same kernel and statistics and changes five things:

1. **Determinizations from the posterior.** Once per search it draws a pool of ``worlds`` full
   states with the game's resampler, whose Integrity deal comes from the exact posterior of
   :mod:`solver.belief.gcbc_posterior` (deduction times the behaviour model; ``belief=deduction``
   drops the model, ``belief=uniform`` drops the posterior). Each iteration copies one world of the
   pool, chosen uniformly (a copy costs ~10 µs). The pool is a sample of the posterior, so the
   iterations still weight deals by it (Cowling, Powley & Whitehouse 2012, section 4: one
   determinization per iteration, drawn from the searcher's belief).
2. **Keys per observer.** A seat's key is a running hash of everything it has observed: the text of
   each action as that seat saw it (``draw ?`` where hidden) and the events it was shown. Views are
   functions of these observations (perfect recall), so equal keys are equal information sets, and
   the hash is extended by the new actions only. Each node is keyed by the acting seat's own key
   (``SearchParams.keys="actor"``): an opponent's choices are grouped by what *that* opponent
   knows, not by the true deal, as in multiple-observer ISMCTS (Cowling et al. 2012, section 5).
3. **Playouts on each seat's own view.** After the tree every seat, the searching one too, takes
   the ``heuristic`` bot's best action for *its own view* of the determinized state, ties broken by
   the search's SplitMix64 stream: the policy of the ``rollout`` bot
   (:func:`bots.gcbc.rollout.heuristic_action` on :class:`bots.gcbc.rollout.SeatViews`, the views
   extended action by action rather than rebuilt). A simulated seat thus knows only what it saw, so
   an investigation informs it and a card turned face up tells it something; with the per-observer
   keys of item 2, tree and playouts both treat every seat as an observer with its own information
   (multiple-observer ISMCTS, Cowling et al. 2012, section 5). A policy that reads the
   determinized deal would let every simulated seat play with the teams in view, and the search
   would value no investigation and no concealment (the strategy-fusion and non-locality limits of
   determinization, Long et al. 2010). Chance in playouts (Equipment draws) is drawn by its
   probabilities from the same stream. A playout costs what a rollout of the ``rollout`` bot costs
   (~14 ms from mid-game at 6 players).
4. **Heuristic pruning at the root.** Only the base heuristic's best ``prune`` actions (and
   ``pass`` in a window) are searched, and the search chooses among them. A turn offers ~16
   actions, 13 of them investigations that playouts can hardly tell apart, so an unpruned search
   with a few hundred iterations spreads its visits and plays almost at random; pruning by domain
   knowledge is the remedy of progressive strategies (Chaslot et al. 2008). ``prune=0`` searches
   every legal action. The base heuristic is the ``heuristic`` bot with the team estimate ``base``:
   by default the exact posterior (``estimate=posterior``, :func:`bots.gcbc.heuristic.informed`),
   reading the same posterior the worlds are drawn from (computed once a decision); ``base=rules``
   is the rules' estimate. Playouts keep the rules' heuristic: a posterior at every simulated
   decision would cost ten times the playout.
5. **A conservative final choice.** The bot plays the most visited root action only when its mean
   win chance beats that of the base heuristic's own choice (its top-scored legal action, the lowest
   action among equal scores) by more than ``margin`` (2) standard errors of the difference;
   otherwise it plays the heuristic's choice (:func:`conservative_choice`, the ``rollout`` bot's
   rule). A few hundred noisy iterations spread over four candidates often make another action the
   most visited by chance; the margin keeps the base policy where the search cannot tell them
   apart (rollout improves on its base policy by what its estimates resolve; Bertsekas, Tsitsiklis
   & Wu 1997). ``margin=0`` plays the most visited, as plain ISMCTS. Advice still ranks by visits;
   its summary says which action the bot plays and why.

A ``seconds`` budget is the whole decision's (:class:`~bots.base.DecisionClock`): the posterior,
the base heuristic's ranking and the pool come out of it. The pool gets at most :data:`POOL_SHARE`
of what is left when the search starts (at least one world; a world takes ~10 ms), the search
reads the clock after every iteration, and a playout still running when the time is up ends where
it stands, scored 1/2 (:class:`bots.ismcts_bot.WinLossSim`): a heuristic playout takes ~14 ms, more
than a budget's tolerance.

Decisions in an Equipment window (``pass`` or a play) get ``window_share`` of the budget: they are
many (every seat, three windows a turn) and most are a plain pass. Concealment decisions (which own
card to turn face up, how to lay cards out) are the ``heuristic`` bot's, not searched: what hiding
is worth depends on what the other seats infer, which a determinized search values poorly (Long et
al. 2010).

How each default was chosen, and the alternatives measured and removed, is in
``bench/results/gcbc.md`` and ``bench/results/pruned-options.md``.

References: P. I. Cowling, E. J. Powley and D. Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012, pp. 120-143. J. Long, N. R. Sturtevant, M. Buro and T. Furtak,
"Understanding the Success of Perfect Information Monte Carlo Sampling in Game Tree Search",
AAAI 2010. G. M. J.-B. Chaslot, M. H. M. Winands, H. J. van den Herik, J. W. H. M. Uiterwijk and
B. Bouzy, "Progressive Strategies for Monte-Carlo Tree Search", New Mathematics and Natural
Computation 4(3), 2008, pp. 343-357. D. P. Bertsekas, J. N. Tsitsiklis and C. Wu, "Rollout
Algorithms for Combinatorial Optimization", Journal of Heuristics 3(3), 1997, pp. 245-262.
A. Agresti and B. A. Coull, "Approximate is Better than 'Exact' for Interval Estimation of Binomial
Proportions", The American Statistician 52(2), 1998, pp. 119-126.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import numpy as np

from bots import observer_sim
from bots.base import Advice, Bot, DecisionClock, Option, on_the_clock
from bots.gcbc.belief import BELIEF_OPTION, check_gcbc, posterior_for, warm_up
from bots.gcbc.heuristic import ESTIMATES, HeuristicBot
from bots.gcbc.rollout import SeatViews, heuristic_action
from bots.ismcts_bot import (
    _BUDGET_OPTIONS,
    ISMCTSBot,
    reserve,
)
from bots.observer_sim import ObserverSim
from bots.registry import register
from solver.core import CHANCE, Action, ConfigError, Game, View
from solver.core.rng import SplitMix64
from solver.search.ismcts import ActionStats, Budget, SearchParams, SearchResult, choose
from solver.search.sim import Determinizer

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCState

#: Largest ``margin`` (standard errors): beyond ~3 the bot would hardly ever leave the heuristic.
MAX_MARGIN = 10.0
#: The most of a timed search's time its pool of worlds may take (module docstring). At the default
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


class GCBCSim(ObserverSim):
    """The Python rules as a search sim: win/loss returns, running keys, heuristic playouts on each
    seat's own view (module docstring, items 2 and 3)."""

    salt = "gcbc-seat"

    def __init__(self, state: Any, *, hashes: list[int | None] | None = None,
                 upto: list[int] | None = None, views: SeatViews | None = None) -> None:
        super().__init__(state, hashes=hashes, upto=upto)
        #: every seat's view along this line of play, for the playouts
        self._views: SeatViews = views if views is not None else SeatViews(self.num_players)

    def prepare(self) -> None:
        """Fill every seat's key and view history now, so that copies extend them by the actions
        since rather than rebuild them from the start."""
        super().prepare()
        for seat in range(self.num_players):
            self._views.settle(cast("GCBCState", self.state), seat)

    def default_action(self, rng: SplitMix64) -> Action:
        """The playout policy (module docstring, item 3); chance by its probabilities."""
        st = cast("GCBCState", self.state)
        if st.current_player() == CHANCE:
            return super().default_action(rng)
        return heuristic_action(st, self._views, rng)

    def _copy_with(self, state: Any) -> GCBCSim:
        """A sim of ``state`` with this sim's key caches and views (copied, not shared)."""
        return GCBCSim(state, hashes=list(self._hashes), upto=list(self._upto), views=self._views.copy())


class PoolDeterminizer(observer_sim.PoolDeterminizer[GCBCSim]):
    """The pool of :class:`GCBCSim` worlds (:class:`bots.observer_sim.PoolDeterminizer`)."""

    def __init__(self, game: Game, view: View, belief: Any | None, size: int,
                 allowed: frozenset[Action] | None = None) -> None:
        super().__init__(game, view, belief, size, allowed, GCBCSim)


class GCBCISMCTSBot(ISMCTSBot):
    """ISMCTS over Good Cop Bad Cop with posterior determinizations and per-observer keys."""

    description: ClassVar[str] = (
        "multiple-observer Information Set MCTS (Cowling et al. 2012) with determinizations from the "
        "exact posterior, playouts by the heuristic on each seat's own view; strength by --iterations "
        "or --seconds"
    )
    options: ClassVar[Mapping[str, Option]] = {
        **_BUDGET_OPTIONS,
        "belief": BELIEF_OPTION,
        "worlds": Option(16, int, "determinized worlds drawn per search and copied by its iterations",
                         1, 4096),
        "prune": Option(4, int, "search only the heuristic's best N root actions (0: all of them)", 0, 64),
        "window_share": Option(0.25, float, "share of the budget for an Equipment-window decision",
                               0.01, 1.0),
        "margin": Option(2.0, float, "play the most visited action only if it beats the heuristic's choice "
                         "by this many standard errors (0: always the most visited)", 0.0, MAX_MARGIN),
        "base": Option("posterior", str, "team estimate of the heuristic that prunes the root and makes the "
                       "base choice: posterior (the exact posterior) or rules (the heuristic's own)",
                       choices=ESTIMATES),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        check_gcbc("ismcts", game)
        super().__init__(game, seat, rng, **options)
        check_margin("ismcts", self.settings["margin"])
        self.params = SearchParams(c=self.settings["c"], keys="actor")
        self._ranking: tuple[View, list[Action]] | None = None
        #: the base policy (item 4-5): the heuristic with the ``base`` team estimate, sharing the generator
        self._base = HeuristicBot(self.game, self.seat, self.rng, estimate=self.settings["base"])
        self._det: PoolDeterminizer | None = None
        #: seconds the last timed search's first world took to draw (0: none drawn yet)
        self.world_seconds = 0.0
        warm_up(game, seat, "full" if self.settings["base"] == "posterior" else self.settings["belief"])

    def posterior(self, view: View) -> Any:
        """The exact posterior for ``view`` under the bot's ``belief`` (None for uniform); with the full
        model it is the base heuristic's, computed once for the worlds and the base alike."""
        if self.settings["belief"] == "full":
            return self._base.posterior(view)
        return posterior_for(self.game, view, self.settings["belief"])

    def candidates(self, view: View) -> frozenset[Action] | None:
        """The root actions searched: the heuristic's best ``prune`` (and ``pass`` in a window)."""
        k = self.settings["prune"]
        if k == 0:
            return None
        ranked = self._heuristic_ranking(view)
        from solver.games.gcbc import codec

        keep = set(ranked[:k])
        if codec.PASS in view.legal_actions:
            keep.add(codec.PASS)
        return frozenset(keep)

    def determinizer(self, view: View) -> PoolDeterminizer:
        """A pool of worlds drawn from the posterior for ``view``, the root pruned by the heuristic."""
        self._det = PoolDeterminizer(self.game, view, self.posterior(view), self.settings["worlds"],
                                     self.candidates(view))
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

    def _concealment(self, legal: tuple[Action, ...]) -> bool:
        """Which card to turn face up or how to lay cards out: hiding, left to the heuristic (above)."""
        from solver.games.gcbc import codec

        return all(codec.FLIP <= a < codec.KEEP_CARD or codec.ARRANGE <= a < codec.KEEP_EQUIP for a in legal)

    def _heuristic(self) -> Bot:
        return self._base

    def _heuristic_ranking(self, view: View) -> list[Action]:
        """The legal actions by the heuristic's score, best first (equal scores: lower action first)."""
        # One decision asks for this up to three times (root pruning, the margin rule, advice);
        # the view is the same object each time, so the last ranking is kept for it.
        cached = self._ranking
        if cached is not None and cached[0] is view:
            return cached[1]
        # advise scores without drawing from the generator, so the search's stream is unchanged
        ranking = [r.action for r in self._heuristic().advise(view).ranked]
        self._ranking = (view, ranking)
        return ranking

    def base_action(self, view: View) -> Action:
        """The heuristic's own choice: its top-scored legal action (the lowest among equal scores)."""
        return self._heuristic_ranking(view)[0]

    def search(self, view: View, budget: Budget | None = None) -> SearchResult:
        """The ISMCTS search; its ``action`` is :func:`conservative_choice`'s (module docstring, item 5).

        A timed decision whose time left, once the posterior and the base's ranking are known, is
        shorter than the last search's first world took to draw is not searched: the search could
        not stop before that world is drawn, and with one iteration the margin keeps the base's
        choice anyway (:meth:`unsearched`).
        """
        with self.deciding() as clock:
            budget = budget or self.decision_budget(view)
            if budget.seconds is not None:
                self.base_action(view)  # the ranking (and the posterior it reads), kept for the search
                if clock.left(budget.seconds) - reserve(budget.seconds) < self.world_seconds:
                    return self.unsearched(view, clock.elapsed())
            result = super().search(view, budget)
        if self._det is not None and self._det.world_seconds is not None:
            self.world_seconds = self._det.world_seconds
        action = conservative_choice(result.stats, self.base_action(view), self.settings["margin"])
        if action != result.action:
            result = dataclasses.replace(result, action=action)
            self.last = result
        return result

    def unsearched(self, view: View, elapsed: float) -> SearchResult:
        """The result of a decision left unsearched for want of time: the base's choice, every
        candidate root action unvisited."""
        roots = self.candidates(view) or frozenset(view.legal_actions)
        stats = tuple(ActionStats(a, 0, 0, 0.0) for a in sorted(a for a in roots if a in view.legal_actions))
        result = SearchResult(self.base_action(view), self.seat, stats, 0, 0, elapsed, "none")
        self._det, self.last = None, result
        return result

    @on_the_clock
    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Root actions ranked by visits (as the generic bot); the summary says which the bot plays.

        The bot plays the most visited only when it beats the heuristic's choice by ``margin``
        standard errors, so the first-ranked action need not be the one played: the summary then
        names the played action and the gain that fell short, and that action's reason says so.
        """
        advice = super().advise(view, budget)
        result = self.last
        if result is None or not result.stats:
            return advice
        if result.iterations == 0:
            first = [r for r in advice.ranked if r.action == result.action]
            ranked = tuple(first + [r for r in advice.ranked if r.action != result.action])
            chosen = self.game.action_to_str(result.action)
            summary = f"no time left to search: the bot plays the heuristic's {chosen}"
            return dataclasses.replace(advice, ranked=ranked, summary=summary)
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
        """Search; a window decision gets ``window_share`` of the budget; concealment is the heuristic's."""
        legal = self.check_view(view)
        if len(legal) == 1:
            return legal[0]
        if self._concealment(legal):
            return self._heuristic().step(view)
        return self.search(view).action

    def decision_budget(self, view: View, iterations: int | None = None) -> Budget:
        """The bot's budget, cut to ``window_share`` of it for an Equipment-window decision
        (``iterations``, a caller's explicit budget, applies as given)."""
        full = self.budget(iterations)
        if iterations is not None or not _in_window(view):
            return full
        share = self.settings["window_share"]
        return Budget(
            iterations=None if full.iterations is None else max(1, round(full.iterations * share)),
            seconds=None if full.seconds is None else full.seconds * share,
        )

    def belief(self, view: View) -> dict[str, Any]:
        """The posterior's marginals per seat, for advice."""
        post = self.posterior(view)
        if post is None:
            return {}
        return {"marginals": post.marginals(), "top_leader": post.top_leader()}


def _errors(margin: float) -> str:
    """'standard error' or 'standard errors', for ``margin`` of them."""
    return "standard error" if margin == 1.0 else "standard errors"


def _in_window(view: View) -> bool:
    """True when the decision is a play-or-pass Equipment window."""
    from solver.games.gcbc import codec

    return codec.PASS in view.legal_actions


register("gcbc", GCBCISMCTSBot)
