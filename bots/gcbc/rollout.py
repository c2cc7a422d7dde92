"""Rollout policy improvement for Good Cop Bad Cop (``rollout`` for gcbc): the heuristic, played out.

Playouts that read the determinized deal let every simulated seat play with the teams in view:
investigating is worthless and hiding a card changes nothing, which is most of this game (the
strategy-fusion and non-locality limits of determinization, Long et al. 2010). This bot keeps the
determinizations but plays them out the way the table really plays: **every seat acts by the**
``heuristic`` **policy on its own view** of the determinized state, so a seat knows only what it
saw, investigations inform it, and a card turned face up tells it something (the ``ismcts`` bot's
playouts do the same under a tree).

The algorithm is the rollout algorithm of Bertsekas, Tsitsiklis & Wu (1997), used on line by
Tesauro & Galperin (1996) to improve a backgammon player: one step of policy iteration on the base
policy, estimated by simulation.

1. **Candidates.** The ``heuristic`` bot scores the legal actions (``bots.gcbc.heuristic``); its best ``top``
   (5) are the candidates, and ``pass`` too in an Equipment window. One candidate: play it.
2. **Worlds.** Each round draws one full state from the seat's view with the game's resampler, its
   Integrity deal from the exact posterior (:mod:`solver.belief.gcbc_posterior`: deduction times the
   behaviour model learnt from heuristic play; ``belief=deduction`` or ``uniform`` as for ``ismcts``).
   Other seats' Equipment and hidden choices are drawn uniformly by the resampler.
3. **Rollouts.** In that world each candidate is applied and the game is played to its end: at every
   decision the seat to act (the searching seat too, after its first action) takes the heuristic's
   best action for *its own view* of the world, ties broken by its own SplitMix64 stream; chance
   (Equipment draws) uses another stream. Views are built incrementally
   (:class:`SeatViews`), equal to ``state.view(seat)`` but without rebuilding the history.
4. **Common random numbers.** Within a round every candidate gets the same world and the same seeds
   (per seat and for chance), so a difference between two candidates' results comes from the
   action and what follows from it, not from the deal (a paired comparison; Law & Kelton 2000,
   section 11.2 "common random numbers").
5. **Choice.** Each candidate's value is its mean win (1 win, 0 loss, 1/2 neither) over the rounds.
   The best candidate replaces the heuristic's own choice (the highest-scored action, the lowest
   action among equal scores) only when the paired mean difference exceeds ``margin`` (1) standard
   errors of the per-round differences; otherwise the heuristic's choice stands. Rollouts are
   noisy, and an argmax over noisy means leans to lucky candidates; the margin keeps the base
   policy where the simulation cannot tell (Bertsekas' rollout improves on the base policy when the
   values are exact; with estimates, only by what the estimates can resolve).

**Compiled.** With the compiled kernels built (``ext/gcbc_sim.pyx``, ``ext/gcbc_search.pyx``), each
round's world (drawn as in item 2) is replayed once in the compiled rules
(``GCBCRulesSim.from_actions(game, world.history)``, which keep what every seat knows of every card),
and each candidate's rollout copies it, applies the candidate and plays to the end by the compiled
policy: every seat by a C port of the heuristic's rules on its own knowledge, chance by its
probabilities, ties and chance from one SplitMix64 stream whose seed every candidate of the round
shares (common random numbers). The candidates, rounds, budgets and choice are the pure path's, and
so are the worlds for a seed; the compiled policy is a measured approximation of the Python heuristic
(``bench/results/gcbc-policy.md``), so a decision may differ. A compiled rollout is one call that
cannot be stopped (well under a millisecond): the clock is read after each, and a round with one
ending past the time is dropped. The rollouts run about 400 times as fast as the pure ones
(``bench/bench_gcbc_rollout.py``); a decision's world draws, in Python, then take most of its time.
Without the kernels (or with ``COPSOLVER_PUREPYTHON=1``) the rollouts are item 3's on the Python
rules, the compiled path's pure twin.

Budget: ``iterations`` (500) rollouts a decision (split evenly over the candidates, at least one
round), or ``seconds`` of wall time for the whole decision, from the moment the bot is asked
(:class:`~bots.base.DecisionClock`: the posterior and the candidates' scores count too). Only whole
rounds count: a round still running when the time is up (less :func:`bots.ismcts_bot.reserve`) is
dropped, its rollouts stopped where they stand, and no round starts with less time left than the
last world took to draw (a draw cannot be stopped). With no whole round the heuristic's choice
stands, as it does after one (the margin needs two). An Equipment-window decision gets
``window_share`` (a half) of it: windows are most decisions, and the heuristic's pass is usually
right, but a card played at the right moment (Coffee, Evidence Bag) is where rollouts most often
find a better action than the heuristic's. Not searched: a single legal action, and the layout of
one's cards (hidden from everyone; the heuristic draws it uniformly). An iteration budget is
deterministic for a seed.

References: G. Tesauro and G. R. Galperin, "On-line Policy Improvement using Monte-Carlo Search",
Advances in Neural Information Processing Systems 9 (NIPS 1996), MIT Press 1997, pp. 1068-1074.
D. P. Bertsekas, J. N. Tsitsiklis and C. Wu, "Rollout Algorithms for Combinatorial Optimization",
Journal of Heuristics 3(3), 1997, pp. 245-262. J. Long, N. R. Sturtevant, M. Buro and T. Furtak,
"Understanding the Success of Perfect Information Monte Carlo Sampling in Game Tree Search", AAAI
2010. A. M. Law and W. D. Kelton, Simulation Modeling and Analysis, 3rd ed., McGraw-Hill 2000.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

import numpy as np

from bots.base import Advice, Bot, Option, RankedAction, on_the_clock
from bots.gcbc.belief import BELIEF_OPTION, check_gcbc, posterior_for, warm_up
from bots.gcbc.heuristic import HeuristicBot, HistoryReader, best_actions, score_view
from bots.ismcts_bot import Expired, reserve
from bots.pruned_ismcts import mean_and_se
from bots.registry import register
from solver._accel import load_ext
from solver.core import CHANCE, JSON, Action, ConfigError, Event, Game, View
from solver.core.rng import SplitMix64
from solver.games.gcbc import codec
from solver.games.gcbc.view import history_entries, view_from_history
from solver.search.limits import checkpoint, granted
from solver.search.sim import StateSim

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCGame, GCBCState

#: A rollout longer than this many steps stops and scores 1/2 for everyone (games take ~100-450).
MAX_STEPS = 20_000
#: Most rollouts one decision may ask for.
MAX_ROLLOUTS = 1_000_000

#: the compiled rules and playout policy (``ext/gcbc_sim.pyx``, ``ext/gcbc_search.pyx``), or None when
#: they are not built (or COPSOLVER_PUREPYTHON=1): the rollouts then play the Python rules
_SIM, _SEARCH = load_ext("gcbc_sim"), load_ext("gcbc_search")


def compiled() -> bool:
    """True when the rollouts run compiled (read at each search, so a test can switch it off)."""
    return _SIM is not None and _SEARCH is not None


class SeatViews:
    """Every seat's view JSON along one line of play, each history extended rather than rebuilt.

    Valid for the state it was first used on and for that state's descendants (clones, then more
    actions): the history entries it keeps are final, the last action's entry (whose events may
    still grow) is rebuilt at every call. Alongside each seat's entries it keeps the heuristic's
    :class:`~bots.gcbc.heuristic.HistoryReader` fed with them. Event JSON is memoized by identity across the
    seats and the copies (events are immutable and clones share them). The JSON it returns is
    read-only.
    """

    __slots__ = ("final", "history", "investigated", "memo", "readers")

    def __init__(self, seats: int, memo: dict[int, tuple[Event, dict[str, Any]]] | None = None) -> None:
        self.history: list[list[list[Any]]] = [[] for _ in range(seats)]
        self.investigated: list[list[list[Any]]] = [[] for _ in range(seats)]
        self.readers = [HistoryReader(s, seats) for s in range(seats)]
        self.final = [0] * seats
        self.memo: dict[int, tuple[Event, dict[str, Any]]] = {} if memo is None else memo

    def event_json(self, event: Event) -> dict[str, Any]:
        """``event.to_json()``, computed once per event."""
        hit = self.memo.get(id(event))
        if hit is None or hit[0] is not event:
            hit = self.memo[id(event)] = (event, event.to_json())
        return hit[1]

    def copy(self) -> SeatViews:
        """A copy whose histories grow apart from this one's (the event memo is shared)."""
        other = SeatViews(0, self.memo)
        other.history = [list(h) for h in self.history]
        other.investigated = [list(i) for i in self.investigated]
        other.readers = [r.copy() for r in self.readers]
        other.final = list(self.final)
        return other

    def settle(self, st: GCBCState, seat: int) -> None:
        """Extend ``seat``'s kept history (and its reader) by every entry of ``st`` that is final."""
        done, last = self.final[seat], len(st.records) - 1
        if done < last:
            history = self.history[seat]
            history_entries(st, seat, done, last, history, self.investigated[seat], self.event_json)
            self.readers[seat].feed(history[done:])
            self.final[seat] = last

    def view_json(self, st: GCBCState, seat: int) -> JSON:
        """``st.view(seat).to_json()``, from the kept history plus the last entry."""
        return self.read(st, seat)[0]

    def read(self, st: GCBCState, seat: int) -> tuple[JSON, HistoryReader]:
        """``seat``'s view JSON and a :class:`~bots.gcbc.heuristic.HistoryReader` fed its whole history."""
        self.settle(st, seat)
        history, investigated = list(self.history[seat]), list(self.investigated[seat])
        reader = self.readers[seat].copy()
        n = len(st.records)
        if n:
            history_entries(st, seat, n - 1, n, history, investigated, self.event_json)
            reader.feed(history[n - 1:])
        return view_from_history(st, seat, history, investigated).to_json(), reader


def heuristic_action(st: GCBCState, views: SeatViews, rng: SplitMix64) -> Action:
    """The ``heuristic`` bot's choice for the seat to act in ``st``, ties broken by ``rng``."""
    legal = st.legal_actions()
    if len(legal) == 1:
        return legal[0]
    data, reader = views.read(st, st.current_player())
    scored, _ = score_view(st.game, data, tuple(legal), reader)
    best = best_actions(scored)
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


def rollout(st: GCBCState, views: SeatViews, seats: list[SplitMix64], chance: SplitMix64,
            expired: Expired | None = None) -> list[float] | None:
    """Play ``st`` to its end, every seat by the heuristic on its own view; win 1, loss 0, else 1/2.

    ``seats[s]`` breaks seat ``s``'s ties, ``chance`` draws chance outcomes; ``st`` is played on.
    None when ``expired()`` turned true before the end (the decision's time is up).
    """
    sim = StateSim(st)
    steps = 0
    while not st.is_terminal() and steps < MAX_STEPS:
        if expired is not None and expired():
            return None
        if st.current_player() == CHANCE:
            st.apply_unchecked(sim.default_action(chance))
        else:
            st.apply_unchecked(heuristic_action(st, views, seats[st.current_player()]))
        steps += 1
    return [1.0 if r > 0 else 0.0 if r < 0 else 0.5 for r in st.returns()]


def python_round(world: GCBCState, cands: tuple[Action, ...], seat: int, seeds: list[int],
                 expired: Expired | None) -> list[float] | None:
    """``seat``'s result after each candidate in ``world``, by :func:`rollout` on the Python rules, every
    candidate with the same seeds (per seat, then chance); None when the time ran out in the round."""
    n = world.game.num_players
    views = SeatViews(n)
    for s in range(n):
        views.settle(world, s)
    row = []
    for a in cands:
        st = world.clone()
        st.apply_unchecked(a)
        wins = rollout(st, views.copy(), [SplitMix64(x) for x in seeds[:n]], SplitMix64(seeds[n]), expired)
        if wins is None:
            return None
        row.append(wins[seat])
    return row


def compiled_round(world: GCBCState, cands: tuple[Action, ...], seat: int, seed: int,
                   expired: Expired | None) -> list[float] | None:
    """As :func:`python_round` on the compiled rules and policy (module docstring, *Compiled*): the
    world replayed once, each candidate's rollout from a copy, all from SplitMix64(``seed``); None
    when the time is up after a rollout (the round is dropped)."""
    if _SIM is None or _SEARCH is None:
        raise RuntimeError("rollout bot: the compiled kernels are not loaded")
    sim = _SIM.GCBCRulesSim.from_actions(world.game, world.history)
    row = []
    for a in cands:
        st = sim.copy()
        st.apply(a)
        _SEARCH.play_out(st, seed, MAX_STEPS)
        if expired is not None and expired():
            return None
        row.append(float(st.returns()[seat]))  # win 1, loss 0, unfinished 1/2
    return row


@dataclass(frozen=True)
class RolloutResult:
    """One decision's search: the candidates (heuristic order), each round's wins, the choice."""

    candidates: tuple[Action, ...]
    #: per round, the searching seat's result (1, 0 or 1/2) after each candidate, in candidate order
    rounds: tuple[tuple[float, ...], ...]
    base: Action
    action: Action
    elapsed: float

    def means(self) -> list[float]:
        """Each candidate's mean result over the rounds."""
        n = len(self.rounds)
        return [sum(r[i] for r in self.rounds) / n if n else math.nan for i in range(len(self.candidates))]

    @property
    def rollouts(self) -> int:
        """Rollouts played."""
        return len(self.rounds) * len(self.candidates)


def paired_gain(rounds: tuple[tuple[float, ...], ...], i: int, j: int) -> tuple[float, float]:
    """(mean, standard error) of candidate ``i``'s result minus candidate ``j``'s over the rounds
    (the standard error is infinite below two rounds)."""
    return mean_and_se([r[i] - r[j] for r in rounds])


def choose(rounds: tuple[tuple[float, ...], ...], candidates: tuple[Action, ...], margin: float) -> Action:
    """The best mean candidate if it beats the first (the heuristic's choice) by ``margin`` standard
    errors of the paired difference, else the first. Equal means: the earlier candidate."""
    n = len(rounds)
    means = [sum(r[i] for r in rounds) / n for i in range(len(candidates))]
    best = max(range(len(candidates)), key=lambda i: (means[i], -i))
    if best == 0:
        return candidates[0]
    gain, se = paired_gain(rounds, best, 0)
    return candidates[best] if gain > 0 and (margin == 0.0 or gain > margin * se) else candidates[0]


class RolloutBot(Bot):
    """Improves the heuristic by rollouts on posterior worlds in which every seat plays on its own view."""

    name: ClassVar[str] = "rollout"
    description: ClassVar[str] = (
        "rollout policy improvement of the heuristic (Tesauro & Galperin 1996) on posterior worlds, "
        "every seat playing on its own view; strength by --iterations (rollouts) or --seconds"
    )
    options: ClassVar[Mapping[str, Option]] = {
        "iterations": Option(500, int, "rollouts per decision, split over the candidates (unless seconds)",
                             1, MAX_ROLLOUTS),
        "seconds": Option(None, float, "time per decision in seconds, the whole decision's (whole rounds "
                          "only); overrides iterations", 0.001, 3600.0),
        "top": Option(5, int, "candidates: the heuristic's best N actions (0: every legal action)", 0, 64),
        "margin": Option(1.0, float, "leave the heuristic's choice only for a candidate better by this "
                         "many standard errors of the paired difference", 0.0, 10.0),
        "belief": BELIEF_OPTION,
        "window_share": Option(0.5, float, "share of the budget for an Equipment-window decision", 0.01, 1.0),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        check_gcbc("rollout", game)
        super().__init__(game, seat, rng, **options)
        warm_up(game, seat, self.settings["belief"])
        #: the last search, for callers that want its statistics
        self.last: RolloutResult | None = None

    # --- what the search compares ------------------------------------------------------------------
    def candidates(self, view: View) -> tuple[Action, ...]:
        """The heuristic's best ``top`` actions, best first (``pass`` added in a window)."""
        scored, _ = score_view(self._gcbc(), view.to_json(), view.legal_actions)
        ranked = [a for a, _, _ in sorted(scored, key=lambda x: (-x[1], x[0]))]
        top = self.settings["top"]
        keep = ranked if top == 0 else ranked[:top]
        if codec.PASS in view.legal_actions and codec.PASS not in keep:
            keep.append(codec.PASS)
        return tuple(keep)

    def rollouts(self, view: View, iterations: int | None = None) -> tuple[int | None, float | None]:
        """(rollouts, seconds) for a decision of ``view``: the bot's budget, a window's share of it."""
        seconds = self.settings["seconds"] if iterations is None else None
        count = None if seconds is not None else (iterations or self.settings["iterations"])
        if iterations is None and codec.PASS in view.legal_actions:
            share = self.settings["window_share"]
            count = None if count is None else max(1, round(count * share))
            seconds = None if seconds is None else seconds * share
        return count, seconds

    def search(self, view: View, iterations: int | None = None) -> RolloutResult:
        """Compare the candidates by rollouts (module docstring); ``iterations`` overrides the budget."""
        with self.deciding() as clock:
            self.check_view(view)
            cands = self.candidates(view)
            rng = SplitMix64.from_generator(self.rng)
            if len(cands) == 1:
                result = RolloutResult(cands, (), cands[0], cands[0], clock.elapsed())
                self.last = result
                return result
            # A caller's search scope (the seat server's) caps the budget and may cancel it.
            count, seconds = granted(*self.rollouts(view, iterations))
            max_rounds = max(1, (count or 0) // len(cands)) if count is not None else MAX_ROLLOUTS
            end = math.inf if seconds is None else seconds - reserve(seconds)
            expired: Expired | None = (
                None if seconds is None else (lambda: clock.elapsed() >= end or checkpoint()))
            belief = posterior_for(self.game, view, self.settings["belief"])
            n = self.game.num_players
            fast = compiled()
            rounds: list[tuple[float, ...]] = []
            draw = 0.0  # seconds the last world took to draw
            while end - clock.elapsed() > draw and not checkpoint():
                before = clock.elapsed()
                world: GCBCState = self.game.resample(view, np.random.default_rng(rng.next()), belief)  # type: ignore[assignment]
                draw = clock.elapsed() - before
                seeds = [rng.next() for _ in range(n + 1)]  # both paths: the same worlds for a seed
                row = (compiled_round(world, cands, self.seat, seeds[n], expired) if fast else
                       python_round(world, cands, self.seat, seeds, expired))
                if row is None:  # the time ran out in this round: it is dropped
                    break
                rounds.append(tuple(row))
                if len(rounds) >= max_rounds:
                    break
            done = tuple(rounds)
            action = choose(done, cands, self.settings["margin"]) if done else cands[0]
            result = RolloutResult(cands, done, cands[0], action, clock.elapsed())
        self.last = result
        return result

    def _gcbc(self) -> GCBCGame:
        return cast("GCBCGame", self.game)

    @staticmethod
    def _layout(legal: tuple[Action, ...]) -> bool:
        """How to lay one's cards out: hidden from every other seat, nothing to compare."""
        return all(codec.ARRANGE <= a < codec.KEEP_EQUIP for a in legal)

    # --- the bot API -------------------------------------------------------------------------------
    @on_the_clock
    def step(self, view: View) -> Action:
        """The rollouts' choice; a lone legal action and a layout are played as the heuristic would."""
        legal = self.check_view(view)
        if len(legal) == 1:
            return legal[0]
        if self._layout(legal):
            return HeuristicBot(self.game, self.seat, self.rng).step(view)
        return self.search(view).action

    @on_the_clock
    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Candidates ranked by their rollouts' mean win (the choice first), then the other actions.

        ``budget`` is a number of rollouts; without it the bot's own budget applies. Where the bot
        plays the heuristic's choice without comparing rollouts (a layout, a lone candidate, no
        round finished in the time), the ranking is the heuristic's order and the advice says so
        (``decided_by``, ``note``).
        """
        if budget is not None and (isinstance(budget, bool) or not 1 <= budget < math.inf):
            raise ConfigError(f"rollout bot: budget must be at least 1 rollout, not {budget!r}")
        legal = self.check_view(view)
        if len(legal) == 1:
            text = self.game.action_to_str(legal[0])
            only = RankedAction(legal[0], text, 1.0, "the only legal move: nothing to roll out")
            return Advice(view.seat, (only,), {}, f"the only legal move: {text}")
        if self._layout(legal):
            base = HeuristicBot(self.game, self.seat, self.rng).advise(view)
            note = ("how to lay one's cards out: hidden from every other seat, so rollouts have nothing "
                    "to compare; the bot leaves it to the heuristic")
            return dataclasses.replace(base, decided_by="heuristic", note=note)
        result = self.search(view, None if budget is None else min(int(budget), MAX_ROLLOUTS))
        scored, _ = score_view(self._gcbc(), view.to_json(), view.legal_actions)
        reasons = {a: why for a, _, why in scored}
        n = len(result.rounds)
        # no round: a lone candidate scores 1 (it is the choice), several keep the heuristic's order
        alone = 1.0 if len(result.candidates) == 1 else 0.0
        means = result.means() if n else [alone] * len(result.candidates)
        order = sorted(range(len(result.candidates)),
                       key=lambda i: (result.candidates[i] != result.action, -means[i], i))
        ranked = []
        for i in order:
            a = result.candidates[i]
            if n:
                why = f"won {means[i]:.0%} of {n} rollouts"
            elif len(result.candidates) == 1:
                why = "the heuristic's only candidate"
            else:
                why = "no round of rollouts finished within the time budget; the heuristic's order"
            ranked.append(RankedAction(a, self.game.action_to_str(a), round(means[i], 4),
                                       f"{why}; heuristic: {reasons[a]}", visits=n if n else None,
                                       value=round(means[i], 4) if n else None))
        rest = sorted((x for x in scored if x[0] not in result.candidates), key=lambda x: (-x[1], x[0]))
        ranked += [RankedAction(a, self.game.action_to_str(a), 0.0,
                                f"not among the heuristic's best {len(result.candidates)}: {why}")
                   for a, _, why in rest]
        best = ranked[0]
        summary = (f"{result.rollouts} rollouts over {len(result.candidates)} candidates; best: {best.text}"
                   + ("" if result.action == result.base else
                      f" (the heuristic's {self.game.action_to_str(result.base)} rolled out worse)"))
        if n and budget is None and codec.PASS in legal:
            share = self.settings["window_share"]
            count, seconds = self.rollouts(view)
            asked = (f"{count} of {self.settings['iterations']} rollouts" if count is not None else
                     f"{seconds:g} of {self.settings['seconds']:g} s")
            summary += f"; a window decision: {share:.0%} of the budget, {asked}"
        if n:
            return Advice(view.seat, tuple(ranked), {}, summary)
        # no rollouts compared: the ranking is the heuristic's, by its score (the lower action on a tie)
        score_of = {a: x for a, x, _ in scored}
        ranked.sort(key=lambda r: (-score_of[r.action], r.action))
        if len(result.candidates) == 1:
            note = (f"one candidate move (the heuristic's best {self.settings['top']}): nothing to roll "
                    "out, the bot plays the heuristic's choice")
        else:
            note = ("no round of rollouts finished within the decision's time: the bot plays the "
                    "heuristic's choice")
        return Advice(view.seat, tuple(ranked), {}, summary, decided_by="heuristic", note=note)


register("gcbc", RolloutBot)
