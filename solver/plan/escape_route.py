"""Escape Plan's route problem: a prize-collecting route under turns, money and police (issue 24).

One seat's plan for the rest of the game, stripped of the game: nodes are Locations (node 0 is where
the seat stands), each worth a prize the first time the route stops there; moving from one node to
another takes whole turns (one Travel a turn, "Step 1: Travel") and leaves tiles with officers on them
("Step 2: Avoid"): the first ``free_avoids`` officers of the whole route cost nothing (the seat's
equipment, contacts, gang members and asset tiles), every further one is a wound at ``wound`` each
("Final Scoring": -$20k per red wound). Each stop changes the seat's money (income taken, prices
paid); money may never go below zero along the route and must reach ``need`` at its end (the escape's
price on day 3). On day 3 the route must end at the open exit (``end``). A prize may decay: it loses
``decay`` for every turn the route takes to reach it. Contact cards gained along the route are worth
``card_values`` of their number (the contacts table is convex: the fifth card is worth far more than
the first, which no fixed prize per stop can say).

The police are known for the rest of today and only estimated for later days, so an arc's officers
depend on when it starts: ``officers`` when fewer than ``today`` turns have been spent before the arc,
``later_officers`` otherwise. :func:`value_of` is the objective every solver optimises and every test
checks against; the solvers are :mod:`solver.plan.escape_cpsat` (CP-SAT, proven optimal) and
:mod:`solver.plan.escape_routing` (the OR-Tools routing solver, a second formulation). The builder of
the problem from a seat's view is :mod:`solver.plan.escape_problem`.

Values are integers (tenths of $1k: ``SCALE``) since both solvers work in integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from solver.core import ConfigError

#: value units per $1k: prizes, wound costs and money deltas are tenths of $1k
SCALE: Final = 10
#: ``turns[u][v]`` of an arc that does not exist (``v`` cannot be reached from ``u``)
NO_ARC: Final = -1

Status = Literal["optimal", "feasible", "infeasible", "unknown"]


@dataclass(frozen=True)
class RouteProblem:
    """A prize-collecting route problem (see the module docstring); node 0 is the start."""

    #: a label per node, for plans and hints (``"Business 3"``)
    names: tuple[str, ...]
    #: value of the first stop at each node (may be negative: a stop the route would rather avoid)
    prize: tuple[int, ...]
    #: ``turns[u][v]``: turns from u to v (>= 1), or ``NO_ARC``; ``turns[u][u]`` is ignored
    turns: tuple[tuple[int, ...], ...]
    #: officers the arc's tiles left hold, for arcs starting before ``today`` turns are spent
    officers: tuple[tuple[int, ...], ...]
    #: officers estimated for arcs starting once ``today`` turns are spent
    later_officers: tuple[tuple[int, ...], ...]
    #: turns left today (arcs starting at an elapsed time below it use ``officers``)
    today: int
    #: turns left in the whole plan (the route's turns may not exceed it)
    horizon: int
    #: officers the route may leave without a wound
    free_avoids: int
    #: value lost per officer beyond ``free_avoids``
    wound: int
    #: money in hand at the start
    money: int
    #: money change at the first stop at each node (negative: a price paid there)
    gain: tuple[int, ...]
    #: money needed at the end of the route
    need: int = 0
    #: the node the route must end at (None: anywhere, including the start without moving)
    end: int | None = None
    #: value a stop at each node loses per turn of the route before it (None: none): a prize later
    #: is less sure than one now (others' moves, closing businesses, plans that change)
    decay: tuple[int, ...] | None = None
    #: contact cards the first stop at each node gives (None: no node gives one)
    cards: tuple[int, ...] | None = None
    #: ``card_values[k]``: what gaining k cards along the route is worth (k past the end: the last
    #: entry; a convex table, "Final Scoring": the contacts table, is why cards are not prizes)
    card_values: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        n = len(self.names)
        if n == 0:
            raise ConfigError("a route problem needs at least its start node")
        for field in ("prize", "gain"):
            if len(getattr(self, field)) != n:
                raise ConfigError(f"route problem: {field} has {len(getattr(self, field))} entries, "
                                  f"not {n}")
        for field in ("turns", "officers", "later_officers"):
            rows = getattr(self, field)
            if len(rows) != n or any(len(row) != n for row in rows):
                raise ConfigError(f"route problem: {field} is not {n}x{n}")
        for u in range(n):
            for v in range(n):
                if u == v:
                    continue
                t = self.turns[u][v]
                if t != NO_ARC and t < 1:
                    raise ConfigError(f"route problem: turns[{u}][{v}] = {t} (an arc takes a turn)")
                if min(self.officers[u][v], self.later_officers[u][v]) < 0:
                    raise ConfigError(f"route problem: negative officers on arc {u}->{v}")
        if min(self.today, self.horizon, self.free_avoids, self.wound, self.money, self.need) < 0:
            raise ConfigError("route problem: today, horizon, free_avoids, wound, money and need "
                              "are not negative")
        if self.decay is not None and (len(self.decay) != n or min(self.decay) < 0):
            raise ConfigError(f"route problem: decay needs {n} entries, none negative")
        if self.cards is not None and (len(self.cards) != n or min(self.cards) < 0):
            raise ConfigError(f"route problem: cards needs {n} entries, none negative")
        if not self.card_values or self.card_values[0] != 0:
            raise ConfigError("route problem: card_values starts at 0 (no card gained, nothing gained)")
        if self.end is not None and not 0 <= self.end < n:
            raise ConfigError(f"route problem: end node {self.end} out of range")

    @property
    def size(self) -> int:
        """The number of nodes."""
        return len(self.names)

    def arc_officers(self, u: int, v: int, elapsed: int) -> int:
        """Officers on arc u->v when it starts after ``elapsed`` turns of the route."""
        return self.officers[u][v] if elapsed < self.today else self.later_officers[u][v]


@dataclass(frozen=True)
class Plan:
    """A solver's answer: the stops in order (the start not included), their value, and its proof."""

    #: nodes in the order the route stops at them (no node twice, never node 0)
    stops: tuple[int, ...]
    #: the objective of ``stops`` (:func:`value_of`); 0 for an infeasible problem
    value: int
    #: ``optimal``: proven best for the model; ``feasible``: the best found; ``infeasible``: no route
    status: Status
    #: the solver's best bound on the objective (equal to ``value`` when optimal)
    bound: int
    #: wall seconds the solve took
    seconds: float
    #: which solver answered (``cp-sat``, ``routing``)
    solver: str


def value_of(p: RouteProblem, stops: Sequence[int]) -> int | None:
    """The objective of visiting ``stops`` in order from node 0, or None when that route breaks a rule.

    A route breaks a rule when a stop repeats or is node 0, an arc is missing, its turns exceed the
    horizon, the money goes below zero after a stop or ends below ``need``, or it does not end at
    ``end``. The value is the prizes collected, each less its ``decay`` times the turns elapsed when the
    route reaches it, plus ``card_values`` of the cards gained, less ``wound`` per officer beyond
    ``free_avoids``.
    """
    if len(set(stops)) != len(stops) or any(not 0 < s < p.size for s in stops):
        return None
    if p.end is not None and (stops[-1] if stops else 0) != p.end:
        return None
    elapsed = officers = 0
    money = p.money
    value = 0
    here = 0
    for s in stops:
        t = p.turns[here][s]
        if t == NO_ARC:
            return None
        officers += p.arc_officers(here, s, elapsed)
        elapsed += t
        money += p.gain[s]
        if elapsed > p.horizon or money < 0:
            return None
        value += p.prize[s] - (p.decay[s] * elapsed if p.decay is not None else 0)
        here = s
    if money < p.need:
        return None
    if p.cards is not None:
        value += p.card_values[min(sum(p.cards[s] for s in stops), len(p.card_values) - 1)]
    return value - p.wound * max(0, officers - p.free_avoids)
