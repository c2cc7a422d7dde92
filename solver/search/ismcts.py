"""Information Set Monte Carlo Tree Search: the pure-Python reference, and the engine selector.

Single-observer-style ISMCTS after Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo
Tree Search" (IEEE Transactions on Computational Intelligence and AI in Games 4(2), 120-143): one
determinization per iteration, drawn from the searching seat's belief; UCB1 whose exploration term
counts how often an action was *available* rather than how often its parent was visited. As in
OpenSpiel's IS-MCTS, a node is the information set of the seat to act, keyed by ``(seat,
sim.key(seat))``, so all determinizations that the acting seat cannot tell apart share a node
(``SearchParams.keys="actor"``, the default).

With ``keys="searcher"`` a node is keyed by ``(seat, sim.key(root_seat))`` instead: every decision,
whoever makes it, is a node of what the *searching* seat knows. That is the single tree shared by
all determinizations of Nijssen & Winands 2012 ("Monte Carlo Tree Search for the Hide-and-Seek Game
Scotland Yard", IEEE TCIAIG 4(4)): in the seekers' tree the hider's decisions are keyed by the
seekers' public information, so his node pools every determinization of where he is, and its
edges are the legal moves of the determinization at hand.

The algorithm, exactly. The compiled kernel (``ext/ismcts.pyx``) follows the same steps and makes the
same random draws in the same order, so for the same determinizer and SplitMix64 state both return
the same :class:`SearchResult` (choice, visits, availability, values):

1. ``sim = determinizer.sample(rng)`` (the determinizer's own draws). ``sim.current_player()`` must be
   the root seat, else :class:`BadStateError`.
2. Tree walk, while ``not sim.is_terminal()``:

   a. if a node was created earlier in this iteration, leave the walk (go to 3);
   b. at a chance node (``current_player() == CHANCE``) apply ``sim.default_action(rng)``;
   c. at a decision of seat ``s``: look up node ``(s, k)``, where ``k = sim.key(s)`` with
      ``keys="actor"`` and ``k = sim.key(root_seat)`` with ``keys="searcher"`` (one key call
      either way); create it when absent (the expansion: at most one new node per iteration). The
      first decision of an iteration is the root (``s`` is the root seat, so both rules read the
      same key); its key must be the first iteration's root key, else :class:`BadStateError`.
      ``L = sim.legal_actions()`` (ascending; empty is a :class:`BadStateError`). Every action of
      ``L`` gets an edge if the node lacks one, and its availability goes up by one (before the
      choice, so a tried edge always has ``availability > visits`` when scored). The untried
      actions are those of ``L`` whose edge has no visit, in ascending order; when there are
      ``u > 0`` of them the choice is ``untried[rng.below(u)]`` (one draw, even when ``u == 1``;
      drawn rather than the lowest, so a small budget does not favour low action ids). Otherwise
      it is the action of ``L`` with the highest ``total/visits + c * sqrt(log(availability) /
      visits)``, the lowest action among equal scores (no draw). Record (edge, ``s``) and apply
      the action. A node just created thus gets its first action from the tree policy, and the
      walk stops at the next step: one new node per iteration, then the playout.
3. Playout: while the sim is not terminal and fewer than ``max_playout_depth`` playout actions were
   applied, apply ``sim.default_action(rng)`` (chance nodes included). A sim with a
   ``rollout(rng, max_steps)`` method plays this loop itself (in this reference search only; the
   kernel runs the loop): a compiled twin of it, with the same draws and the same returns.
4. ``r = sim.returns()``; for every recorded (edge, ``s``), in walk order: ``visits += 1``,
   ``total += r[s]``.

Budgets stop after the iteration on which the iteration count is reached, or (for ``seconds``)
after an iteration whose number is a multiple of ``check_every`` once the wall time is used up; at
least one iteration always runs. An iterations-only budget is deterministic. The final choice is the
root action with most visits (ties: higher mean, then lower action), or with ``final="value"`` the
highest mean among visited actions (ties: more visits, then lower action).

Limits (:mod:`solver.search.limits`). Inside a :class:`~solver.search.limits.SearchScope` the budget
is cut to the scope's caps (iterations and seconds, both then set), and after each iteration, in
this order: the iteration and seconds budgets as above; the search stops when the tree holds
``max_nodes`` nodes; when at least :data:`~solver.search.limits.POLL_SECONDS` passed since the
last poll, the scope is polled (the kernel first lets other threads run: it releases the GIL for a
moment and runs pending signal handlers) and the search stops once it is cancelled
(``SearchResult.stopped``). None of this draws from the generator or changes a statistic, so an
uncancelled search in a scope whose caps it stays under returns what it returns outside one, in
both engines.

Floating point is the same on both sides: the same IEEE double operations in the same order (C
``log``/``sqrt`` are what Python's ``math`` calls; the kernel keeps the compiler from fusing the UCB
multiply-add), totals summed in the same order. Keys are compared as unsigned 64-bit ints.

Edges are per information set, not per path: a node's statistics pool every path and every
determinization that reaches it (the information-set graph of Cowling et al.). Values are the mean
of the sim's returns for the node's seat, so with rewards in [0, 1] (win = 1) a root value is the
searching seat's estimated chance to win after that action.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Final, Literal

from solver._accel import load_ext
from solver.core import CHANCE, Action, BadStateError, ConfigError, Seat
from solver.core.rng import SplitMix64
from solver.search.limits import POLL_SECONDS, SearchScope, current_scope
from solver.search.sim import Determinizer

FinalRule = Literal["visits", "value"]
Engine = Literal["auto", "pure", "compiled"]
#: whose information keys a node: the seat to act (ISMCTS) or the searching seat (NW single tree)
NodeKeys = Literal["actor", "searcher"]

#: Visit and availability counters are C ints in the kernel; budgets stay below this.
MAX_ITERATIONS: Final[int] = 2**31 - 1


@dataclass(frozen=True)
class SearchParams:
    """Tuning of one search; the defaults suit rewards in [0, 1] (win chances)."""

    #: UCB1 exploration constant (sqrt(2)/2 is the textbook value for rewards in [0, 1])
    c: float = 0.7
    #: playout actions after the tree walk before the sim's returns are read as they stand
    max_playout_depth: int = 10_000
    #: how the root action is chosen from the statistics: "visits" (robust child) or "value"
    final: FinalRule = "visits"
    #: a seconds budget reads the clock after every check_every-th iteration
    check_every: int = 16
    #: node key: (seat, sim.key(seat)) with "actor", (seat, sim.key(root_seat)) with "searcher"
    keys: NodeKeys = "actor"

    def __post_init__(self) -> None:
        if not (isinstance(self.c, (int, float)) and math.isfinite(self.c) and self.c >= 0):
            raise ConfigError(f"ismcts: c must be a finite number >= 0, not {self.c!r}")
        for name in ("max_playout_depth", "check_every"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ITERATIONS:
                raise ConfigError(f"ismcts: {name} must be an int in 1..{MAX_ITERATIONS}, not {value!r}")
        if self.final not in ("visits", "value"):
            raise ConfigError(f"ismcts: final must be 'visits' or 'value', not {self.final!r}")
        if self.keys not in ("actor", "searcher"):
            raise ConfigError(f"ismcts: keys must be 'actor' or 'searcher', not {self.keys!r}")


@dataclass(frozen=True)
class Budget:
    """When a search stops: after ``iterations``, after ``seconds`` of wall time, or the first of both."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ConfigError("ismcts: a budget needs iterations or seconds")
        it = self.iterations
        if it is not None and (
            isinstance(it, bool) or not isinstance(it, int) or not 1 <= it <= MAX_ITERATIONS
        ):
            raise ConfigError(f"ismcts: iterations must be an int in 1..{MAX_ITERATIONS}, not {it!r}")
        s = self.seconds
        if s is not None and (
            isinstance(s, bool) or not isinstance(s, (int, float)) or not (math.isfinite(s) and s > 0)
        ):
            raise ConfigError(f"ismcts: seconds must be a finite number > 0, not {s!r}")

    @property
    def deterministic(self) -> bool:
        """True when the budget does not read the clock (same seed, same result)."""
        return self.seconds is None


@dataclass(frozen=True)
class ActionStats:
    """What search learnt about one root action."""

    action: Action
    visits: int
    #: iterations in which the action was legal at the root
    availability: int
    #: mean reward of the root seat after this action (0.0 when never visited)
    value: float


@dataclass(frozen=True)
class SearchResult:
    """The chosen root action and the statistics behind it."""

    action: Action
    root_seat: Seat
    #: one entry per root action, ascending by action
    stats: tuple[ActionStats, ...]
    iterations: int
    nodes: int
    elapsed: float
    engine: str
    #: True when the search ended early because its scope was cancelled (solver.search.limits)
    stopped: bool = False

    def ranked(self) -> list[ActionStats]:
        """Root actions best first: most visits, then higher value, then lower action."""
        return sorted(self.stats, key=lambda s: (-s.visits, -s.value, s.action))

    def same_search(self, other: SearchResult, tol: float = 1e-12) -> bool:
        """True when ``other`` made the same choice with the same statistics (values within ``tol``)."""
        if (self.action, self.root_seat, self.iterations, self.nodes) != (
            other.action, other.root_seat, other.iterations, other.nodes
        ) or len(self.stats) != len(other.stats):
            return False
        return all(
            (a.action, a.visits, a.availability) == (b.action, b.visits, b.availability)
            and abs(a.value - b.value) <= tol
            for a, b in zip(self.stats, other.stats, strict=True)
        )


class _Edge:
    """One action's counters at one node."""

    __slots__ = ("avail", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def search(
    determinizer: Determinizer,
    root_seat: Seat,
    budget: Budget,
    rng: SplitMix64,
    params: SearchParams | None = None,
) -> SearchResult:
    """Run ISMCTS for ``root_seat`` (the pure-Python reference; the module docstring has the steps).

    ``rng`` is advanced by every draw, exactly as the compiled kernel advances it.
    """
    p = params or SearchParams()
    c, max_depth, check_every = float(p.c), p.max_playout_depth, p.check_every
    searcher_keys = p.keys == "searcher"
    scope = current_scope()
    budget = scoped_budget(budget, scope)
    node_cap = 0 if scope is None else scope.caps.max_nodes
    limit = budget.iterations
    seconds = budget.seconds
    tree: dict[tuple[Seat, int], dict[Action, _Edge]] = {}
    root: dict[Action, _Edge] | None = None
    root_key = 0
    log, sqrt = math.log, math.sqrt
    start = time.perf_counter()
    polled = start
    done = 0
    stopped = False
    while True:
        sim = determinizer.sample(rng)
        if sim.current_player() != root_seat:
            raise BadStateError(
                f"ismcts: the determinizer's state has seat {sim.current_player()} to act, "
                f"not the searching seat {root_seat}"
            )
        path: list[tuple[_Edge, Seat]] = []
        expanded = False
        while not sim.is_terminal():
            if expanded:
                break
            seat = sim.current_player()
            if seat == CHANCE:
                sim.apply(sim.default_action(rng))
                continue
            key = sim.key(root_seat if searcher_keys else seat)
            if not path:
                if root is None:
                    root_key = key
                elif key != root_key:
                    raise BadStateError(
                        f"ismcts: a determinization left the root information set (key {key} != {root_key})"
                    )
            node = tree.get((seat, key))
            if node is None:
                node = tree[(seat, key)] = {}
                expanded = True
                if root is None:
                    root = node
            legal = sim.legal_actions()
            if not legal:
                raise BadStateError(f"ismcts: seat {seat} must act but has no legal action")
            untried: list[Action] = []
            for a in legal:
                edge = node.get(a)
                if edge is None:
                    edge = node[a] = _Edge()
                edge.avail += 1
                if edge.visits == 0:
                    untried.append(a)
            if untried:
                action = untried[rng.below(len(untried))]
            else:
                best = -math.inf
                action = legal[0]
                for a in legal:
                    edge = node[a]
                    score = edge.total / edge.visits + c * sqrt(log(edge.avail) / edge.visits)
                    if score > best:
                        best, action = score, a
            path.append((node[action], seat))
            sim.apply(action)
        rollout = getattr(sim, "rollout", None)
        if rollout is not None:  # the sim's own playout (Sim's docstring: the loop's exact twin)
            rollout(rng, max_depth)
        else:
            steps = 0
            while steps < max_depth and not sim.is_terminal():
                sim.apply(sim.default_action(rng))
                steps += 1
        rewards = sim.returns()
        for edge, seat in path:
            edge.visits += 1
            edge.total += rewards[seat]
        done += 1
        if limit is not None and done >= limit:
            break
        if seconds is not None and (
            done >= MAX_ITERATIONS or (done % check_every == 0 and time.perf_counter() - start >= seconds)
        ):
            break
        if node_cap and len(tree) >= node_cap:
            break
        if scope is not None:
            now = time.perf_counter()
            if now - polled >= POLL_SECONDS:
                polled = now
                if scope.cancelled():
                    stopped = True
                    scope.note_stopped()
                    break
    elapsed = time.perf_counter() - start
    if root is None:  # unreachable: every iteration starts at the root decision
        raise BadStateError("ismcts: no root node was created")
    stats = tuple(
        ActionStats(a, e.visits, e.avail, e.total / e.visits if e.visits else 0.0)
        for a, e in sorted(root.items())
    )
    return SearchResult(choose(stats, p.final), root_seat, stats, done, len(tree), elapsed, "pure", stopped)


def scoped_budget(budget: Budget, scope: SearchScope | None) -> Budget:
    """``budget`` cut to ``scope``'s caps on iterations and seconds (unchanged without a scope)."""
    if scope is None:
        return budget
    iterations, seconds = scope.caps.cut(budget.iterations, budget.seconds)
    if (iterations, seconds) == (budget.iterations, budget.seconds):
        return budget
    return Budget(iterations, seconds)


def choose(stats: tuple[ActionStats, ...], final: FinalRule = "visits") -> Action:
    """The root action the final rule picks from ``stats`` (shared by both engines)."""
    if not stats:
        raise BadStateError("ismcts: no root statistics to choose from")
    if final == "value":
        visited = [s for s in stats if s.visits > 0] or list(stats)
        return min(visited, key=lambda s: (-s.value, -s.visits, s.action)).action
    return min(stats, key=lambda s: (-s.visits, -s.value, s.action)).action


def kernel_available() -> bool:
    """True when the compiled ISMCTS kernel is built and in use."""
    return load_ext("ismcts") is not None


def is_compiled_determinizer(determinizer: object) -> bool:
    """True when ``determinizer`` is a compiled ``CDeterminizer`` (its sims are compiled too)."""
    simbase = load_ext("simbase")
    return simbase is not None and isinstance(determinizer, simbase.CDeterminizer)


def run_search(
    determinizer: Determinizer,
    root_seat: Seat,
    budget: Budget,
    rng: SplitMix64,
    params: SearchParams | None = None,
    engine: Engine = "auto",
) -> SearchResult:
    """Search with the compiled kernel when it is built and the determinizer is compiled, else in Python.

    ``engine="pure"`` forces the reference; ``engine="compiled"`` forces the kernel (a Python
    determinizer is then wrapped, so its sims run through Python calls: for equality tests, not speed).
    """
    if engine not in ("auto", "pure", "compiled"):
        raise ConfigError(f"ismcts: engine must be 'auto', 'pure' or 'compiled', not {engine!r}")
    kernel = load_ext("ismcts")
    compiled_sims = kernel is not None and is_compiled_determinizer(determinizer)
    if engine == "pure" or (engine == "auto" and not compiled_sims):
        return search(determinizer, root_seat, budget, rng, params)
    if kernel is None:
        raise ConfigError("ismcts: the compiled kernel is not built (or COPSOLVER_PUREPYTHON=1 is set)")
    return _kernel_search(kernel, determinizer, root_seat, budget, rng, params or SearchParams())


def _kernel_search(
    kernel: Any,
    determinizer: Determinizer,
    root_seat: Seat,
    budget: Budget,
    rng: SplitMix64,
    params: SearchParams,
) -> SearchResult:
    det = determinizer if is_compiled_determinizer(determinizer) else kernel.PyDeterminizer(determinizer)
    scope = current_scope()
    budget = scoped_budget(budget, scope)
    raw = kernel.search(
        det,
        root_seat,
        budget.iterations or 0,
        float(budget.seconds or 0.0),
        rng,
        float(params.c),
        params.max_playout_depth,
        params.check_every,
        params.keys == "searcher",
        scope,
        0 if scope is None else scope.caps.max_nodes,
        POLL_SECONDS,
    )
    error = raw["error"]
    if error:
        raise BadStateError(f"ismcts: {error}")
    stats = tuple(
        ActionStats(a, n, m, total / n if n else 0.0)
        for a, n, m, total in zip(raw["actions"], raw["visits"], raw["avail"], raw["totals"], strict=True)
    )
    action = choose(stats, params.final)
    return SearchResult(action, root_seat, stats, raw["iterations"], raw["nodes"], raw["elapsed"], "compiled",
                        raw["stopped"])
