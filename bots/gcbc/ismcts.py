"""ISMCTS for Good Cop Bad Cop (``ismcts`` for gcbc): posterior determinizations, per-seat keys.

The pool, keys, pruning and conservative choice are the shared ones of :mod:`bots.pruned_ismcts` and
:mod:`bots.observer_sim`; this module gives Good Cop Bad Cop's worlds, playouts and heuristic.

The generic ``ismcts`` bot (:mod:`bots.ismcts_bot`) runs on any game but pays, at every iteration,
a full resample and, at every tree node, a full view. This bot keeps the same kernel and statistics
and changes six things:

1. **Determinizations from the posterior.** Once per search it draws a pool of ``worlds`` full
   states with the game's resampler, whose Integrity deal comes from the exact posterior of
   :mod:`solver.belief.gcbc_posterior` (deduction times the behaviour model; ``belief=deduction``
   drops the model, ``belief=uniform`` drops the posterior). Each iteration copies one world of the
   pool, chosen uniformly. The pool is a sample of the posterior, so the iterations still weight
   deals by it (Cowling, Powley & Whitehouse 2012, section 4: one determinization per iteration,
   drawn from the searcher's belief).
2. **Keys per observer.** A seat's key is a running hash of everything it has observed: each action
   as that seat saw it (hidden draws, deals and layouts as a token) and every card it was shown.
   Views are functions of these observations (perfect recall), so equal keys are equal information
   sets, and the hash is extended by the new actions only. Each node is keyed by the acting seat's
   own key (``SearchParams.keys="actor"``): an opponent's choices are grouped by what *that*
   opponent knows, not by the true deal, as in multiple-observer ISMCTS (Cowling et al. 2012,
   section 5).
3. **Playouts on each seat's own view.** After the tree every seat, the searching one too, takes
   the ``heuristic`` bot's best action for *its own knowledge* of the determinized state (rules 1-15
   of :mod:`bots.gcbc.heuristic` with its rules estimate), ties broken by the search's SplitMix64
   stream. A simulated seat thus knows only what it saw, so an investigation informs it and a card
   turned face up tells it something. A policy that read the determinized deal would let every
   simulated seat play with the teams in view, and the search would value no investigation and no
   concealment (the strategy-fusion and non-locality limits of determinization, Long et al. 2010).
   Chance in playouts (Equipment draws) is drawn by its probabilities from the same stream.
4. **Heuristic pruning at the root.** Only the base heuristic's best ``prune`` actions (and
   ``pass`` in a window) are searched, and the search chooses among them. A turn offers ~16
   actions, 13 of them investigations that playouts can hardly tell apart; pruning by domain
   knowledge is the remedy of progressive strategies (Chaslot et al. 2008). ``prune=0`` searches
   every legal action. The base heuristic is the ``heuristic`` bot with the team estimate ``base``:
   by default the exact posterior (``estimate=posterior``, :func:`bots.gcbc.heuristic.informed`),
   reading the same posterior the worlds are drawn from (computed once a decision); ``base=rules``
   is the rules' estimate. Playouts keep the rules' estimate: a posterior at every simulated
   decision would cost far more than the playout.
5. **A conservative final choice.** The bot plays the most visited root action only when its mean
   win chance beats that of the base heuristic's own choice (its top-scored legal action, the lowest
   action among equal scores) by more than ``margin`` standard errors of the difference; otherwise
   it plays the heuristic's choice (:func:`conservative_choice`, the ``rollout`` bot's rule): an
   argmax over noisy means leans to lucky candidates (rollout improves on its base policy by what
   its estimates resolve; Bertsekas, Tsitsiklis & Wu 1997). ``margin=0`` plays the most visited, as
   plain ISMCTS. Advice still ranks by visits; its summary says which action the bot plays and why.
6. **Compiled.** With the compiled kernels built, the pool's worlds are replayed in the compiled
   rules (``ext/gcbc_sim.pyx``, held equal to :mod:`solver.games.gcbc`), which keep every seat's key
   and knowledge, and the whole search (tree walk, playouts by a C port of the heuristic's rules,
   ``ext/gcbc_search.pyx``) runs in the compiled ISMCTS kernel. Without them (or with
   ``COPSOLVER_PUREPYTHON=1``) the same search walks the Python rules (:class:`GCBCSim`): the
   playouts are the ``rollout`` bot's, the ``heuristic`` bot on views extended action by action
   (:class:`bots.gcbc.rollout.SeatViews`), and the keys hash the records' text and events.

A ``seconds`` budget is the whole decision's (:class:`~bots.base.DecisionClock`): the posterior,
the base heuristic's ranking and the pool come out of it. The pool gets at most
:data:`~bots.pruned_ismcts.POOL_SHARE` of what is left when the search starts (at least one
world), and the search reads the clock as it goes (every iteration on the Python rules, whose
playout still running when the time is up ends where it stands, scored 1/2:
:class:`bots.ismcts_bot.WinLossSim`).

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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, cast

import numpy as np

from bots import observer_sim
from bots.base import Bot, Option
from bots.gcbc.belief import BELIEF_OPTION, check_gcbc, posterior_for, warm_up
from bots.gcbc.heuristic import ESTIMATES, HeuristicBot
from bots.gcbc.rollout import SeatViews, heuristic_action
from bots.ismcts_bot import _BUDGET_OPTIONS
from bots.observer_sim import ObserverSim
from bots.pruned_ismcts import PRUNED_OPTIONS, PrunedISMCTSBot
from bots.registry import register
from solver._accel import load_ext
from solver.core import CHANCE, Action, Game, State, View
from solver.core.rng import SplitMix64
from solver.search.sim import Determinizer

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCState


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


#: the compiled rules and search pieces (``ext/gcbc_sim.pyx``, ``ext/gcbc_search.pyx``), or None
#: when they are not built (or COPSOLVER_PUREPYTHON=1): the search then walks :class:`GCBCSim`
_SIM, _SEARCH = load_ext("gcbc_sim"), load_ext("gcbc_search")


def compiled() -> bool:
    """True when the search runs compiled (read at each search, so a test can switch it off)."""
    return _SIM is not None and _SEARCH is not None


class DrawnWorld(ObserverSim):
    """A world drawn for the compiled search, kept as its Python state until :meth:`GCBCISMCTSBot.ready`
    compiles it (no keys or views are built here: the compiled replay of its history keeps both)."""

    def prepare(self) -> None:
        """Nothing to fill: the compiled replay computes every seat's key."""


class PoolDeterminizer(observer_sim.PoolDeterminizer[GCBCSim]):
    """The pool of :class:`GCBCSim` worlds (:class:`bots.observer_sim.PoolDeterminizer`)."""

    def __init__(self, game: Game, view: View, belief: Any | None, size: int,
                 allowed: frozenset[Action] | None = None) -> None:
        super().__init__(game, view, belief, size, allowed, GCBCSim)


class GCBCISMCTSBot(PrunedISMCTSBot):
    """ISMCTS over Good Cop Bad Cop with posterior determinizations and per-observer keys."""

    description: ClassVar[str] = (
        "multiple-observer Information Set MCTS (Cowling et al. 2012) with determinizations from the "
        "exact posterior, playouts by the heuristic on each seat's own view; strength by --iterations "
        "or --seconds"
    )
    options: ClassVar[Mapping[str, Option]] = {
        **_BUDGET_OPTIONS,
        "belief": BELIEF_OPTION,
        **PRUNED_OPTIONS,
        "base": Option("posterior", str, "team estimate of the heuristic that prunes the root and makes the "
                       "base choice: posterior (the exact posterior) or rules (the heuristic's own)",
                       choices=ESTIMATES),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        check_gcbc("ismcts", game)
        super().__init__(game, seat, rng, **options)
        #: the base policy (item 4-5): the heuristic with the ``base`` team estimate, sharing the generator
        self._base = HeuristicBot(self.game, self.seat, self.rng, estimate=self.settings["base"])
        warm_up(game, seat, "full" if self.settings["base"] == "posterior" else self.settings["belief"])

    def world(self, state: State) -> ObserverSim:
        """A drawn world's sim: per-observer keys, heuristic playouts on each seat's own view (a
        :class:`DrawnWorld` for the compiled search)."""
        return DrawnWorld(state) if compiled() else GCBCSim(state)

    def ready(self, determinizer: Determinizer, rng: SplitMix64) -> Determinizer:
        """With the compiled kernels: draw the pool now (its time share as the Python pool has it),
        replay each world in the compiled rules, and search them there (module docstring, item 6)."""
        if _SIM is None or _SEARCH is None or not isinstance(determinizer, observer_sim.PoolDeterminizer):
            return determinizer
        determinizer.fill(rng)
        pool = _SEARCH.GCBCPool(determinizer.allowed)
        for world in determinizer.pool:
            pool.add(_SIM.GCBCRulesSim.from_actions(self.game, world.state.history))
        return cast(Determinizer, pool)

    def posterior(self, view: View) -> Any:
        """The exact posterior for ``view`` under the bot's ``belief`` (None for uniform); with the full
        model it is the base heuristic's, computed once for the worlds and the base alike."""
        if self.settings["belief"] == "full":
            return self._base.posterior(view)
        return posterior_for(self.game, view, self.settings["belief"])

    def always_searched(self, view: View) -> set[Action]:
        """``pass`` in an Equipment window."""
        from solver.games.gcbc import codec

        return {codec.PASS} if codec.PASS in view.legal_actions else set()

    def in_window(self, view: View) -> bool:
        """True when the decision is a play-or-pass Equipment window."""
        from solver.games.gcbc import codec

        return codec.PASS in view.legal_actions

    def unsearched_decision(self, legal: tuple[Action, ...]) -> bool:
        """Which card to turn face up or how to lay cards out: hiding, left to the heuristic (above)."""
        from solver.games.gcbc import codec

        return all(codec.FLIP <= a < codec.KEEP_CARD or codec.ARRANGE <= a < codec.KEEP_EQUIP for a in legal)

    def unsearched_note(self, view: View) -> str:
        """Concealment, left to the heuristic (module docstring)."""
        return ("a concealment decision (which card to turn face up, how to lay cards out): ismcts "
                "leaves these to the heuristic unsearched (what hiding is worth depends on what the "
                "other seats infer, which a determinized search values poorly)")

    def _heuristic(self) -> Bot:
        return self._base

    def belief(self, view: View) -> dict[str, Any]:
        """The posterior's marginals per seat, for advice."""
        post = self.posterior(view)
        if post is None:
            return {}
        return {"marginals": post.marginals(), "top_leader": post.top_leader()}


register("gcbc", GCBCISMCTSBot)
