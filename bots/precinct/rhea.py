"""Rolling horizon evolution for Police Precinct (``rhea`` for precinct): the team's next turns, evolved.

Where ``ismcts`` grows a tree over one seat's next action, this planner evolves a whole *plan* for
the team's next decisions and judges it by playing it out (Perez, Samothrakis, Lucas & Rohlfshagen
2013; Sfikas & Liapis applied it to the co-operative Pandemic, where it beat a rule-based policy):

1. **Genome.** ``length`` genes; gene ``g`` is a *rank* into the heuristic's ranking of the legal
   actions at the ``g``-th major decision with a choice (the car's move or the turn's action:
   :func:`bots.precinct.ismcts.is_major`) taken by a seat of the bot's own side after the root, in
   order of occurrence, whichever seat takes it: good cops share one objective, so the team plans
   together. Gene 0 is the root decision. Rank 0 is the heuristic's own choice, the others follow in
   its order; a rank past the legal count wraps. Minor decisions, the other side's decisions and
   decisions past the genome are the heuristic's (:func:`bots.precinct.search.heuristic_action`). The
   all-zeros genome is the heuristic team itself; it seeds the population.
2. **Worlds.** ``worlds`` full states are drawn once per decision from the seat's view by the game's
   resampler (other hands, investigation draws and, with the Dirty Cop, the loyalty deal). Each world
   has its own seeds, one stream for chance and one per seat for the heuristic's ties, so every
   genome meets the same dice and the same tie breaks where its play agrees with another's: common
   random numbers, and a difference between two genomes comes from their plans (Law & Kelton 2000).
3. **Fitness.** In each world the genome is played for ``horizon`` cop turns after the root (or to the
   game's end), and the position is scored by the learnt value (:mod:`solver.search.precinct_value`:
   P(the good team wins); its complement for a dirty seat; 1 or 0 at the game's end). The fitness is
   the mean over the worlds. Evaluation is deterministic given the worlds, so a genome met again is
   not played again.
4. **Evolution.** A population of ``population`` genomes: the all-zeros genome and mutants of it.
   Each generation keeps the best (elitism 1) and breeds the rest by tournaments of two, uniform
   crossover and mutation (each gene with chance 1/``length`` redrawn, rank ``k`` with weight
   ``2^-k``); a child already evaluated is mutated again (a few tries) so that the budget buys new
   plans. No shift buffer: genes index the whole team's decisions, and which of them happened since
   this seat's last decision differs by world, so the population is seeded afresh at each decision.
5. **Choice.** The root gene of the fittest genome, but only when its fitness beats the all-zeros
   genome's by more than ``margin`` standard errors of the paired per-world difference; otherwise the
   heuristic's action (the rollout rule of Bertsekas, Tsitsiklis & Wu 1997: improve on the base
   policy only by what the estimates resolve). Minor decisions are the heuristic's, unsearched.

Budget: ``iterations`` genome evaluations per decision (each over every world), or ``seconds`` of
wall time for the whole decision (:class:`~bots.base.DecisionClock`). A decision is not searched
with less time left than the last decision's first world took; a world's draw gives up when its time
is up: the first at the decision's end (the decision is then the heuristic's, unsearched), the
others after :data:`WORLD_SHARE` of the time (:meth:`PrecinctRHEABot.draw_worlds`). A genome
evaluation still running when the time is up is stopped and dropped. An iterations budget with a
seed replays the same choice: every draw comes from a SplitMix64 seeded from the bot's generator.

References: D. Perez, S. Samothrakis, S. Lucas and P. Rohlfshagen, "Rolling Horizon Evolution versus
Tree Search for Navigation in Single-Player Real-Time Games", GECCO 2013, pp. 351-358. K. Sfikas and
A. Liapis, "Collaborative Agent Gameplay in the Pandemic Board Game", FDG 2020; and "Playing Against
the Board: Rolling Horizon Evolutionary Algorithms Against Pandemic", IEEE Transactions on Games,
2021. D. P. Bertsekas, J. N. Tsitsiklis and C. Wu, "Rollout Algorithms for Combinatorial
Optimization", Journal of Heuristics 3(3), 1997, pp. 245-262. A. M. Law and W. D. Kelton, Simulation
Modeling and Analysis, 3rd ed., McGraw-Hill 2000.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

import numpy as np

from bots.base import Advice, Bot, DecisionClock, Option, RankedAction, on_the_clock
from bots.ismcts_bot import Expired, reserve
from bots.precinct.heuristic import HIDE_THRESHOLD, PrecinctHeuristic, score
from bots.precinct.ismcts import check_precinct, is_major
from bots.precinct.search import Evaluate, PrecinctSim, heuristic_action, turns_begun
from bots.pruned_ismcts import mean_and_se
from bots.registry import register
from solver.core import CHANCE, Action, ConfigError, Game, View
from solver.core.rng import SplitMix64
from solver.games.precinct.view import policy_data
from solver.search.limits import checkpoint, granted

if TYPE_CHECKING:
    from solver.games.precinct.rules import PrecinctGame
    from solver.games.precinct.state import PrecinctState

#: scores closer than this are ties (the heuristic bot's tolerance, as in :func:`heuristic_action`)
_TIE: Final = 1e-9
#: Most genome evaluations one decision may ask for.
MAX_EVALUATIONS: Final = 1_000_000
#: A mutated gene's rank is drawn from 0..MAX_RANK-1 (weight 2^-k): past the heuristic's best few,
#: the ranking is mostly actions no plan wants (the root's draw uses its own legal count).
MAX_RANK: Final = 8
#: The most of a timed decision's time (from when the worlds start) that drawing worlds past the first
#: may take: the rest is for evaluating plans.
WORLD_SHARE: Final = 0.5
#: Tries at mutating a child that was already evaluated before giving up on it.
NOVELTY_TRIES: Final = 8

Genome = tuple[int, ...]


# --- playing a genome ------------------------------------------------------------------------------
def team_ranking(st: PrecinctState, rng: SplitMix64) -> list[Action]:
    """The legal actions of the seat to act, the heuristic's choice first, then the rest by score.

    The choice is :func:`heuristic_action`'s (ties broken by one draw of ``rng``, only on a tie), so
    rank 0 is exactly the heuristic and ``rng`` moves the same way whatever rank is then taken.
    """
    legal = st.legal_actions()
    scored = score(st.game, policy_data(st, st.current_player()), legal, HIDE_THRESHOLD)
    top = max(s for _, s, _ in scored)
    best = [a for a, s, _ in scored if s >= top - _TIE]
    first = best[rng.below(len(best))] if len(best) > 1 else best[0]
    return [first, *(a for a, _, _ in sorted(scored, key=lambda x: (-x[1], x[0])) if a != first)]


@dataclass(frozen=True)
class World:
    """One drawn full state and its seeds: ``seeds[0]`` for chance, ``seeds[1 + s]`` for seat ``s``'s ties."""

    state: PrecinctState
    seeds: tuple[int, ...]


def play_genome(world: World, genome: Genome, root: Sequence[Action], seat: int, horizon: int,
                evaluate: Evaluate | None, expired: Expired | None = None) -> float | None:
    """``seat``'s score after playing ``genome`` in ``world`` (module docstring, items 1 and 3).

    ``root`` is the heuristic's ranking at the root (the seat's own view). None when ``expired()``
    turned true first (the decision's time is up).
    """
    sim = playout(world, genome, root, seat, horizon, evaluate, expired)
    return None if sim is None else sim.returns()[seat]


def playout(world: World, genome: Genome, root: Sequence[Action], seat: int, horizon: int,
            evaluate: Evaluate | None, expired: Expired | None = None) -> PrecinctSim | None:
    """The sim where :func:`play_genome`'s line of play ends (None: cut by ``expired``)."""
    start = world.state
    st = start.clone()
    st.apply_unchecked(root[genome[0] % len(root)])
    stop = turns_begun(start) + horizon if horizon > 0 else None
    sim = PrecinctSim(st, horizon=horizon, evaluate=evaluate, stop_at=stop)
    chance = SplitMix64(world.seeds[0])
    ties = [SplitMix64(x) for x in world.seeds[1:]]
    side = start.loyalty[seat]
    g = 1
    while not sim.is_terminal():
        if expired is not None and expired():
            return None
        p = st.current_player()
        if p == CHANCE:
            action = sim.default_action(chance)
        elif g < len(genome) and st.loyalty[p] == side and is_major(legal := st.legal_actions()) \
                and len(legal) > 1:
            # a gene of 0 is the heuristic itself (the same one draw on a tie)
            action = heuristic_action(st, ties[p]) if genome[g] == 0 else \
                (ranked := team_ranking(st, ties[p]))[genome[g] % len(ranked)]
            g += 1
        else:
            action = heuristic_action(st, ties[p])
        sim.apply(action)
    return sim


# --- the statistics of the choice ------------------------------------------------------------------
def _past(clock: DecisionClock, t: float) -> Expired:
    """True once ``clock`` reads ``t``."""
    return lambda: clock.elapsed() >= t


def paired_gain(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """(mean, standard error) of ``a - b`` over the worlds (the error is infinite below two worlds)."""
    return mean_and_se([x - y for x, y in zip(a, b, strict=True)])


@dataclass(frozen=True)
class RHEAResult:
    """One decision's evolution: the root ranking, every genome evaluated, and the choice."""

    #: the heuristic's ranking of the root's legal actions (rank 0 first)
    root: tuple[Action, ...]
    #: the genomes evaluated, in order, and each one's per-world scores
    genomes: tuple[Genome, ...]
    scores: tuple[tuple[float, ...], ...]
    #: the heuristic's choice and the bot's
    base: Action
    action: Action
    worlds: int
    generations: int
    elapsed: float

    def fitness(self, i: int) -> float:
        """Genome ``i``'s mean score over the worlds."""
        return sum(self.scores[i]) / len(self.scores[i])

    def best(self) -> int | None:
        """The fittest genome's index (the earliest among equals); None when none was evaluated."""
        if not self.genomes:
            return None
        return max(range(len(self.genomes)), key=lambda i: (self.fitness(i), -i))

    def root_action(self, genome: Genome) -> Action:
        """The root action ``genome`` plays."""
        return self.root[genome[0] % len(self.root)]

    def gain(self) -> tuple[float, float] | None:
        """(gain, standard error) of the fittest genome over the all-zeros one; None without both."""
        best = self.best()
        if best is None or self.genomes[0] != (0,) * len(self.genomes[0]):
            return None
        return paired_gain(self.scores[best], self.scores[0])


def choose(result_root: Sequence[Action], genomes: Sequence[Genome], scores: Sequence[Sequence[float]],
           margin: float) -> Action:
    """The fittest genome's root action if it beats the all-zeros genome (``genomes[0]``) by more
    than ``margin`` standard errors of the paired difference (and by more than nothing), else the
    heuristic's (rank 0)."""
    base = result_root[0]
    if not genomes:
        return base
    fit = [sum(s) / len(s) for s in scores]
    best = max(range(len(genomes)), key=lambda i: (fit[i], -i))
    action = result_root[genomes[best][0] % len(result_root)]
    if action == base:
        return base
    gain, se = paired_gain(scores[best], scores[0])
    # margin 0 is the plain argmax (0 * an infinite error would be NaN)
    return action if gain > 0 and (margin == 0.0 or gain > margin * se) else base


# --- the bot ---------------------------------------------------------------------------------------
class PrecinctRHEABot(Bot):
    """Evolves the team's next major decisions in drawn worlds; the heuristic unless a plan beats it."""

    name: ClassVar[str] = "rhea"
    description: ClassVar[str] = (
        "rolling horizon evolution (Perez et al. 2013) of the team's next decisions as ranks into the "
        "heuristic's choices, scored in drawn worlds by the learnt value; strength by --iterations or "
        "--seconds"
    )
    options: ClassVar[Mapping[str, Option]] = {
        "iterations": Option(64, int, "genome evaluations per decision, each over every world (unless "
                             "seconds)", 1, MAX_EVALUATIONS),
        "seconds": Option(None, float, "time per decision in seconds, the whole decision's; overrides "
                          "iterations", 0.001, 3600.0),
        "worlds": Option(4, int, "worlds drawn from the seat's view per decision", 1, 256),
        "population": Option(8, int, "genomes per generation", 2, 256),
        "length": Option(8, int, "genes: the team's major decisions planned, the root's first", 1, 64),
        "horizon": Option(4, int, "cop turns a plan is played before the value scores it (0: to the end)",
                          0, 400),
        "margin": Option(1.0, float, "play the plan's root action only if it beats the heuristic team by "
                         "this many standard errors of the paired difference", 0.0, 10.0),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        check_precinct("rhea", game)
        super().__init__(game, seat, rng, **options)
        from solver.search.precinct_value import load_value

        self._evaluate: Evaluate = load_value().value
        #: the last decision's evolution, for callers that want its statistics
        self.last: RHEAResult | None = None
        #: seconds the last timed decision's first world took to draw (0: none drawn yet)
        self.world_seconds = 0.0
        #: why the last search evaluated no plan ("" when it did, or had a lone action)
        self.unsearched_why = ""

    # --- pieces ------------------------------------------------------------------------------------
    def root_ranking(self, view: View) -> tuple[Action, ...]:
        """The heuristic's ranking of the view's legal actions: by score, the lower action on a tie
        (its own choice first, as :meth:`PrecinctHeuristic.advise` ranks; no draw from the generator)."""
        scored = score(self.game, view.to_json(), view.legal_actions, HIDE_THRESHOLD)
        return tuple(a for a, _, _ in sorted(scored, key=lambda x: (-x[1], x[0])))

    @staticmethod
    def draw_rank(rng: SplitMix64, count: int) -> int:
        """A rank in 0..count-1 with weight 2^-k: small ranks (the heuristic's near choices) first."""
        u = rng.uniform() * (1.0 - 0.5 ** count)
        k, p = 0, 0.5
        while k < count - 1 and u >= p:
            u -= p
            k += 1
            p *= 0.5
        return k

    def mutate(self, genome: Genome, rng: SplitMix64, roots: int) -> Genome:
        """``genome`` with each gene redrawn with chance 1/length (the root's over its legal count)."""
        n = len(genome)
        return tuple(self.draw_rank(rng, roots if g == 0 else MAX_RANK) if rng.uniform() < 1.0 / n else x
                     for g, x in enumerate(genome))

    def draw_worlds(self, view: View, rng: SplitMix64, end: float) -> list[World]:
        """Up to ``worlds`` worlds. With a deadline ``end`` (a timed decision) each draw gives up when
        its time is up (the resampler's time is heavy-tailed: a draw that backtracks can take a
        second, :meth:`PrecinctGame.resample_within`): the first at ``end`` (none drawn: an empty
        list), the others once :data:`WORLD_SHARE` of the time to ``end`` is spent."""
        clock = self._decision
        timed = clock is not None and math.isfinite(end)
        start = 0.0 if clock is None else clock.elapsed()
        share_end = start + WORLD_SHARE * (end - start)
        out: list[World] = []
        n = self.game.num_players
        game = cast("PrecinctGame", self.game)
        for i in range(self.settings["worlds"]):
            if i and checkpoint():
                break
            np_rng = np.random.default_rng(rng.next())
            if timed and clock is not None:
                limit = end if i == 0 else share_end
                before = clock.elapsed()
                drawn = game.resample_within(view, np_rng, None, _past(clock, limit))
                if drawn is None:  # out of time: keep the worlds drawn (none: the caller plays unsearched)
                    break
                if i == 0:
                    self.world_seconds = clock.elapsed() - before
                state = drawn
            else:
                state = game.resample(view, np_rng)
            out.append(World(cast("PrecinctState", state), tuple(rng.next() for _ in range(n + 1))))
        return out

    # --- the search --------------------------------------------------------------------------------
    def search(self, view: View, iterations: int | None = None) -> RHEAResult:
        """Evolve plans from ``view`` (module docstring); ``iterations`` overrides the budget."""
        with self.deciding() as clock:
            self.check_view(view)
            root = self.root_ranking(view)
            rng = SplitMix64.from_generator(self.rng)
            length, size = self.settings["length"], self.settings["population"]
            seconds = self.settings["seconds"] if iterations is None else None
            count = None if seconds is not None else (iterations or self.settings["iterations"])
            # a caller's search scope (the seat server's) caps the budget and may cancel it
            count, seconds = granted(count, seconds)
            end = math.inf if seconds is None else seconds - reserve(seconds)
            limit = MAX_EVALUATIONS if count is None else count
            zeros: Genome = (0,) * length
            self.unsearched_why = ""
            # a lone action, or too little time left to draw even one world (it cannot be stopped)
            if len(root) == 1 or end - clock.elapsed() <= self.world_seconds:
                if len(root) > 1:
                    self.unsearched_why = ("too little of the decision's time was left to draw a world "
                                           f"(the last first world took {1000 * self.world_seconds:.0f} ms)")
                return self._done(RHEAResult(root, (), (), root[0], root[0], 0, 0, clock.elapsed()))
            worlds = self.draw_worlds(view, rng, end)
            if not worlds:  # the first world was not drawn in the decision's time
                self.unsearched_why = "the decision's time ran out before the first world was drawn"
                return self._done(RHEAResult(root, (), (), root[0], root[0], 0, 0, clock.elapsed()))
            expired = None if seconds is None else self._deadline(clock, end)  # its steps start now
            horizon = self.settings["horizon"]
            seen: dict[Genome, tuple[float, ...]] = {}
            order: list[Genome] = []

            def fitness(genome: Genome) -> float | None:
                """The genome's mean score, evaluated once (None: the time ran out)."""
                got = seen.get(genome)
                if got is None:
                    if len(order) >= limit or (expired is not None and expired()):
                        return None
                    row = []
                    for w in worlds:
                        x = play_genome(w, genome, root, self.seat, horizon, self._evaluate, expired)
                        if x is None:
                            return None
                        row.append(x)
                    got = seen[genome] = tuple(row)
                    order.append(genome)
                return sum(got) / len(got)

            def novel(genome: Genome) -> Genome:
                """``genome``, or a mutant of it not yet evaluated (a few tries)."""
                for _ in range(NOVELTY_TRIES):
                    if genome not in seen:
                        return genome
                    genome = self.mutate(genome, rng, len(root))
                return genome

            population: list[Genome] = [zeros]
            while len(population) < size:
                population.append(novel(self.mutate(zeros, rng, len(root))))
            scored: list[tuple[Genome, float]] = []
            generations = 0
            stopped = False
            while not stopped:
                scored = []
                for genome in population:
                    f = fitness(genome)
                    if f is None:
                        stopped = True
                        break
                    scored.append((genome, f))
                generations += 1
                if stopped or len(order) >= limit or len(scored) < 2:
                    break
                elite = max(scored, key=lambda x: x[1])[0]
                children: list[Genome] = [elite]
                while len(children) < size:
                    a, b = (self._tournament(scored, rng) for _ in range(2))
                    child = tuple(x if rng.uniform() < 0.5 else y for x, y in zip(a, b, strict=True))
                    children.append(novel(self.mutate(child, rng, len(root))))
                if all(c in seen for c in children):
                    break  # converged: nothing new to learn from this budget
                population = children
            genomes = tuple(order)
            if not genomes:
                self.unsearched_why = "the decision's time ran out before the first plan was evaluated"
            rows = tuple(seen[g] for g in genomes)
            action = choose(root, genomes, rows, self.settings["margin"])
            return self._done(RHEAResult(root, genomes, rows, root[0], action, len(worlds), generations,
                                         clock.elapsed()))

    @staticmethod
    def _deadline(clock: DecisionClock, end: float) -> Expired:
        """True once ``clock`` reads ``end``, or would before the next step if it took as long as
        the slowest between two calls so far (a heuristic step over many car moves takes ~10 ms,
        beyond the 2 ms a small budget tolerates), or when a caller cancels the search."""
        last, slowest = clock.elapsed(), 0.0

        def expired() -> bool:
            nonlocal last, slowest
            now = clock.elapsed()
            slowest, last = max(slowest, now - last), now
            return now + slowest >= end or checkpoint()

        return expired

    @staticmethod
    def _tournament(scored: Sequence[tuple[Genome, float]], rng: SplitMix64) -> Genome:
        """The fitter of two genomes drawn uniformly (the first drawn on a tie)."""
        a, b = scored[rng.below(len(scored))], scored[rng.below(len(scored))]
        return a[0] if a[1] >= b[1] else b[0]

    def _done(self, result: RHEAResult) -> RHEAResult:
        self.last = result
        return result

    # --- the bot API -------------------------------------------------------------------------------
    @on_the_clock
    def step(self, view: View) -> Action:
        """The planner's choice at a major decision; the heuristic's elsewhere (a lone action as is)."""
        legal = self.check_view(view)
        if len(legal) == 1:
            return legal[0]
        if not is_major(legal):
            return PrecinctHeuristic(self.game, self.seat, self.rng).step(view)
        return self.search(view).action

    @on_the_clock
    def advise(self, view: View, budget: float | None = None) -> Advice:
        """The evaluated root actions ranked by their best plan's fitness (the played action first),
        then the other legal actions in the heuristic's order.

        ``budget`` is a number of genome evaluations; without it the bot's own budget applies. A
        minor decision is the heuristic's advice.
        """
        if budget is not None and (isinstance(budget, bool) or not 1 <= budget < math.inf):
            raise ConfigError(f"rhea bot: budget must be at least 1 evaluation, not {budget!r}")
        legal = self.check_view(view)
        base_advice = PrecinctHeuristic(self.game, self.seat, self.rng).advise(view)
        if len(legal) == 1:
            named = self.game.action_to_str(legal[0])
            only = RankedAction(legal[0], named, 1.0, "the only legal move: nothing to plan")
            return Advice(view.seat, (only,), base_advice.belief, f"the only legal move: {named}")
        if not is_major(legal):
            note = ("a minor decision (anything but the car's move and the turn's action: help windows, "
                    "card plays, discards and the like): rhea plans only those two and leaves the others "
                    "to the heuristic")
            return Advice(view.seat, base_advice.ranked, base_advice.belief,
                          f"a minor decision: the heuristic's ({base_advice.summary})",
                          decided_by="heuristic", note=note)
        result = self.search(view, None if budget is None else min(int(budget), MAX_EVALUATIONS))
        text = self.game.action_to_str
        reasons = {r.action: r.reason for r in base_advice.ranked}
        best_of: dict[Action, float] = {}
        plans: dict[Action, int] = {}
        for i, genome in enumerate(result.genomes):
            a = result.root_action(genome)
            best_of[a] = max(best_of.get(a, -math.inf), result.fitness(i))
            plans[a] = plans.get(a, 0) + 1
        evaluated = sorted(best_of, key=lambda a: (a != result.action, -best_of[a], result.root.index(a)))
        ranked = [RankedAction(a, text(a), round(best_of[a], 4),
                               f"estimated team win chance {best_of[a]:.2f} over {plans[a]} plan "
                               f"evaluation(s) in {result.worlds} world(s); heuristic: {reasons[a]}",
                               visits=plans[a], value=round(best_of[a], 4)) for a in evaluated]
        ranked += [RankedAction(a, text(a), 0.0, f"not evaluated; heuristic: {reasons[a]}")
                   for a in result.root if a not in best_of]
        if result.action != ranked[0].action:  # nothing evaluated: the played action first
            ranked.sort(key=lambda r: r.action != result.action)
        summary = f"{len(result.genomes)} plans over {result.generations} generation(s) in {result.worlds} " \
                  f"world(s); the bot plays {text(result.action)}: {self._why(result)}"
        if not result.genomes:  # nothing evaluated: the heuristic's choice and order stand
            return Advice(view.seat, base_advice.ranked, base_advice.belief, summary, decided_by="heuristic",
                          note=f"{self.unsearched_why or 'no plan was evaluated'}: the bot plays the "
                               "heuristic's choice")
        return Advice(view.seat, tuple(ranked), base_advice.belief, summary)

    def _why(self, result: RHEAResult) -> str:
        """Why the played action is the planner's or the heuristic's."""
        text = self.game.action_to_str
        best = result.best()
        if best is None:
            return "the heuristic's choice (nothing evaluated in the time)" if len(result.root) > 1 else \
                "the only legal action"
        planned = result.root_action(result.genomes[best])
        if planned == result.base:
            return "the best plan starts with the heuristic's choice too"
        gain = result.gain()
        g, se = gain if gain is not None else (math.nan, math.inf)
        margin = self.settings["margin"]
        if result.action == planned:
            return (f"the planner's: its best plan beats the heuristic team by {g:.3f}, more than "
                    f"{margin:g} standard error(s) ({margin * se:.3f})")
        return (f"the heuristic's: the best plan (starting {text(planned)}) gains {g:.3f}, not more than "
                f"{margin:g} standard error(s) ({margin * se:.3f})")


register("precinct", PrecinctRHEABot)
