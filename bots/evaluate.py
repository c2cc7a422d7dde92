"""A rollout evaluator: how much a seat expects to win after a move, from that seat's view alone.

A game's review (:mod:`bots.review`) asks it for two moves at one decision, the move played and the
advisor's best. It draws ``worlds`` full states consistent with the seat's view with the determinizer
of the game's search bot (``ismcts``: every game has one, and its worlds are what that search would
search), and on each world applies each move and plays the game out with the world's own playout
policy (``sim.default_action``) to the end, or to the sim's own horizon where it has one (Police
Precinct's sims stop a few turns on and score the position with a learnt value). A move's value is
the mean over the worlds of what the game's reading makes of the sim's end (by default the seat's
return, a win chance in [0, 1]; Escape Plan: the seat's score).

The two moves are compared on the same worlds with common random numbers: on each world both
playouts draw from copies of one SplitMix64 stream, so luck that does not depend on the move (a
die, a deal, an opponent's slip) falls alike on both and cancels in the difference. The loss is the
mean of the paired differences, its standard error their sample standard deviation over the root of
the number of worlds.

This is Monte Carlo rollout evaluation: Tesauro & Galperin (1996) rated a backgammon move by the
mean outcome of many playouts of a base policy after it, and Bertsekas, Tsitsiklis & Wu (1997)
showed that the move with the best rollout value of a base policy is never worse than the base
policy's own. Nothing here reads a hidden fact: the worlds come from the view (and the seat's own
belief where its view does not hold all it saw, as a LineUp seat's memory of a studied card), the
seeds from the caller.

References: G. Tesauro and G. R. Galperin, "On-line Policy Improvement using Monte-Carlo Search",
NIPS 9, 1996, pp. 1068-1074. D. P. Bertsekas, J. N. Tsitsiklis and C. Wu, "Rollout Algorithms for
Combinatorial Optimization", Journal of Heuristics 3(3), 1997, pp. 245-262.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final, cast

from bots.ismcts_bot import WinLossDeterminizer
from bots.observer_sim import PoolDeterminizer
from bots.registry import bots_for, make
from solver import games
from solver.core import Action, BadStateError, ConfigError, Game, Seat, View, stable_hash
from solver.core.rng import SplitMix64
from solver.search.sim import Determinizer, ResampleDeterminizer, Sim

#: The search bot whose determinizer and playouts the evaluator uses (every game has one).
EVALUATOR_BOT: Final = "ismcts"
#: A playout that has not ended after this many actions is read as it stands (no game here comes
#: near it; it only bounds a faulty sim).
MAX_STEPS: Final = 10_000
#: The fewest worlds: a standard error needs two differences.
MIN_WORLDS: Final = 2
#: The most worlds (each costs two playouts).
MAX_WORLDS: Final = 4096

#: What a playout's end is worth to a seat: ``outcome(sim, seat)``.
Outcome = Callable[[Sim, Seat], float]


def win_chance(sim: Sim, seat: Seat) -> float:
    """The seat's return at the end of a playout: a search sim's win chance in [0, 1]."""
    return float(sim.returns()[seat])


def escape_score(sim: Sim, seat: Seat) -> float:
    """Escape Plan: the seat's final score in thousands of dollars ("Final Scoring"), 0 when it was
    arrested or did not escape (only escaped players score)."""
    from solver.games.escape import board as pb

    st = cast(Any, sim).state  # an Escape Plan sim wraps its rules' state
    if not st.escaped[seat]:
        return 0.0
    content = st.game.content
    return float(pb.score(st.boards[seat], content.plans[st.plan[seat]], content).total)


@dataclass(frozen=True)
class Reading:
    """What a game's review measures and how: its unit, what a playout's end is worth, the evaluator
    bot's options and the review's defaults (evaluator worlds; advisor iterations, None for the
    advising bot's own default; ``advisor``: options of the advising bot where it takes them, under
    the review's own ``options``)."""

    unit: str  # "win chance" or "score"
    #: read at a playout's end; only ``returns()`` is safe after a sim's compiled ``rollout``
    outcome: Outcome = win_chance
    options: Mapping[str, Any] = field(default_factory=dict)
    worlds: int = 32
    iterations: int | None = None
    advisor: Mapping[str, Any] = field(default_factory=dict)


#: The games' readings (a game's review module may give its own as ``READING``). The worlds and
#: iterations keep a decision's review to a second or a few on a laptop core (docs/review.md).
READINGS: Final[Mapping[str, Reading]] = {
    # coalition_r 0: a detective's value is the team's win, whoever catches Dr. Factor
    "police07": Reading("win chance", options={"coalition_r": 0.0}, worlds=256),
    # a heuristic playout costs ~25-45 ms; 1,000 iterations of the advisor ~10-30 s a decision
    "gcbc": Reading("win chance", worlds=16, iterations=200),
    # uniform playouts over the Python rules, ~30 ms each; the advisor remembers the cards the seat
    # studied perfectly: a review reads what the seat saw (bots/lineup/review.py)
    "lineup": Reading("win chance", worlds=64, advisor={"memory": "perfect"}),
    # suspicion 0: a dirty cop's value is his win chance, not what his search trades it against; the
    # learnt value at the horizon varies little between worlds, and a world can take seconds to
    # draw late in a game (the resampler's stack looks)
    "precinct": Reading("win chance", options={"suspicion": 0.0}, worlds=16, iterations=200),
    # the seat's score at the playout's end (not the sim's returns, a logistic of the score's margin);
    # a playout from day 1 costs a few tenths of a second
    "escape": Reading("score", outcome=escape_score, worlds=8),
}


def game_review(game: Game | str) -> ModuleType | None:
    """The game's review module (``review`` in its bot package, e.g. ``bots.police07.review``), or
    None when it has none."""
    package = games.spec(game if isinstance(game, str) else game.name).bots
    if not package:
        return None
    name = f"{package}.review"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name is not None and (name == err.name or name.startswith(err.name + ".")):
            return None
        raise  # the module exists but something it imports does not: a real fault


def reading(game: Game | str) -> Reading:
    """The game's :class:`Reading`: its review module's ``READING``, else :data:`READINGS`'s, else a
    win chance with the defaults."""
    name = game if isinstance(game, str) else game.name
    own = getattr(game_review(name), "READING", None)
    if isinstance(own, Reading):
        return own
    return READINGS.get(name, Reading("win chance"))


@dataclass(frozen=True)
class Comparison:
    """Two moves on the same worlds: each one's mean value, and the loss of the played one.

    ``loss`` is ``value_best - value_played`` (signed: negative when the played move did better on
    these worlds), ``se`` its paired standard error; both 0 when the moves are the same.
    """

    value_played: float
    value_best: float
    loss: float
    se: float
    worlds: int


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from JSON-able ``parts`` (a review's seed, a seat, a decision's index, a purpose):
    the same on every run and machine, and independent streams for different parts."""
    return stable_hash(["copsolver-review", *parts])


def check_worlds(worlds: Any) -> int:
    """``worlds`` as an int, or ConfigError unless it is a whole number in MIN_WORLDS..MAX_WORLDS."""
    ok = isinstance(worlds, int) and not isinstance(worlds, bool)
    if not ok or not MIN_WORLDS <= worlds <= MAX_WORLDS:
        raise ConfigError(f"review: worlds must be a whole number in {MIN_WORLDS}..{MAX_WORLDS}, "
                          f"not {worlds!r}")
    return int(worlds)


def determinizer(game: Game, view: View, worlds: int, options: Mapping[str, Any], seed: int,
                 belief: Any | None = None) -> Determinizer:
    """The determinizer of the game's search bot for ``view`` (seeded with ``seed``).

    ``belief`` (None: none) is the seat's belief about what its view does not hold, in the form of
    the game's resampler (LineUp: the cards the seat studied, docs/lineup-rules.md); it goes to a
    determinizer that draws from the resampler (:class:`~solver.search.sim.ResampleDeterminizer`).

    ``options`` go to that bot where it takes them (a game's review reading names them: Police 07's
    ``coalition_r=0``, so that a detective's value is the team's win). A pool of worlds is sized to
    ``worlds`` and left unpruned, so that every world is drawn once and every move can be applied.
    """
    table = bots_for(game.name)[EVALUATOR_BOT].options
    chosen = {k: v for k, v in options.items() if k in table}
    if "worlds" in table:
        chosen["worlds"] = worlds
    if "prune" in table:
        chosen["prune"] = 0
    bot: Any = make(game, EVALUATOR_BOT, seat=view.seat, rng=seed, **chosen)
    det: Determinizer = bot.determinizer(view)
    if belief is not None and isinstance(det, ResampleDeterminizer):
        det.belief = belief
    return det


def draw_worlds(det: Determinizer, n: int, rng: SplitMix64) -> list[Sim]:
    """``n`` sims of states consistent with the view: a pool's worlds each once, else ``n`` samples."""
    if isinstance(det, PoolDeterminizer):
        det.size = n
        det.sample(rng)  # draws the whole pool
        return [world.copy() for world in det.pool]
    return [det.sample(rng) for _ in range(n)]


def playout(sim: Sim, rng: SplitMix64) -> None:
    """Play ``sim`` on with its playout policy until it ends (or its horizon, or :data:`MAX_STEPS`)."""
    rollout = getattr(sim, "rollout", None)
    if rollout is not None:  # the sim's own playout: the loop below's exact twin (Sim's contract)
        rollout(rng, MAX_STEPS)
        return
    steps = 0
    while steps < MAX_STEPS and not sim.is_terminal():
        sim.apply(sim.default_action(rng))
        steps += 1


def _starts_here(sims: list[Sim], view: View, moves: tuple[Action, ...]) -> bool:
    """True when every world's sim stands at this seat's decision with ``moves`` legal (a game's sim
    may not model every decision: Police 07's starts after the set-up)."""
    for sim in sims:
        if sim.current_player() != view.seat:
            return False
        legal = set(sim.legal_actions())
        if any(m not in legal for m in moves):
            return False
    return True


def values(
    game: Game, view: View, moves: tuple[Action, ...], *, worlds: int, seed: int,
    options: Mapping[str, Any] | None = None, outcome: Outcome = win_chance, belief: Any | None = None,
) -> list[list[float]]:
    """Per move, per world: the value of the playout after the move (common random numbers).

    The worlds come from the game's search bot (:func:`determinizer`), or, at a decision its sim does
    not model, from the game's own resampler over its rules with uniform playouts; ``belief`` (the
    seat's, from its own views) goes to the resampler in both cases.
    """
    check_worlds(worlds)
    draw = SplitMix64(derive_seed(seed, "worlds"))
    try:
        sims = draw_worlds(determinizer(game, view, worlds, options or {}, seed, belief), worlds, draw)
    except BadStateError:  # the game's sim refuses this position (Police 07's: during the set-up)
        sims = []
    if not sims or not _starts_here(sims, view, moves):
        sims = draw_worlds(WinLossDeterminizer(game, view, belief), worlds, draw)
    streams = [derive_seed(seed, "playout", w) for w in range(len(sims))]
    out: list[list[float]] = []
    for move in moves:
        row = []
        for sim, stream in zip(sims, streams, strict=True):
            line = sim.copy()
            line.apply(move)
            playout(line, SplitMix64(stream))
            row.append(outcome(line, view.seat))
        out.append(row)
    return out


def compare(
    game: Game, view: View, played: Action, best: Action, *, worlds: int, seed: int,
    options: Mapping[str, Any] | None = None, outcome: Outcome = win_chance, belief: Any | None = None,
) -> Comparison:
    """The played and the best move of ``view`` on the same ``worlds`` worlds (module docstring).

    ``seed`` seeds the worlds and the playouts (a review derives it from its own seed and the
    decision's index); the same arguments give the same comparison. ``belief``: the seat's belief
    for the resampler (:func:`values`).
    """
    if played == best:
        (row,) = values(game, view, (best,), worlds=worlds, seed=seed, options=options, outcome=outcome,
                        belief=belief)
        mean = sum(row) / len(row)
        return Comparison(mean, mean, 0.0, 0.0, len(row))
    rows = values(game, view, (played, best), worlds=worlds, seed=seed, options=options, outcome=outcome,
                  belief=belief)
    diffs = [b - p for p, b in zip(rows[0], rows[1], strict=True)]
    n = len(diffs)
    loss = sum(diffs) / n
    var = sum((d - loss) ** 2 for d in diffs) / (n - 1) if n > 1 else math.inf
    return Comparison(sum(rows[0]) / n, sum(rows[1]) / n, loss, math.sqrt(var / n), n)
