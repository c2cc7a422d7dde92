"""Factors and clusters of the Good Cop Bad Cop posterior (see :mod:`solver.belief.gcbc_posterior`).

A *factor* is a table over the cards a tuple of cells can hold (index ``sum(card[p] * 4 ** p)``, see
:func:`solver.belief.gcbc_behaviour.hand_ids`); factors on the same cells are kept multiplied
together, scaled to a maximum of 1 (the scale cancels in the posterior and keeps long games from
underflowing). A *cluster* is a set of set-up seats that factors, hidden permutations or current
hands tie together, enumerated with its configurations' weights and card-supply use: a generic
:class:`solver.belief.roles.Cluster`, which the game-agnostic forward/backward pass of
:mod:`solver.belief.roles` sums over, plus each seat's hand now. Pair factors
(a decision on the actor's cells and cells of other seats it had seen) join clusters too, but only
those :func:`admitted` lets in: a public rule on cluster size keeps the enumeration small. A pair
factor whose seen cells may name one card in some order of a hidden Flashbang (:class:`ByOrder`)
keeps one table per way its cells coincide, and the enumeration picks the table per order.

:class:`Factors` is incremental: it takes the walk's new observations and choices only, and keeps a
version per cell tuple so that a cluster none of whose factors changed is not enumerated again.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from math import perm
from typing import Final

import numpy as np
import numpy.typing as npt

from solver.belief.gcbc_behaviour import BehaviourModel, Table, hand_ids
from solver.belief.gcbc_walk import HAS_LEADER, NOT_BOTH, Known, Recorder, Walk, may_coincide
from solver.belief.roles import Cluster as Part
from solver.belief.roles import Deck, SeatUnion, Supply, joint_rows
from solver.core import BadStateError
from solver.games.gcbc.deal import INTEGRITY_NAMES, Integrity
from solver.games.gcbc.resample import Cell

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
Cells = tuple[Cell, ...]
#: Which cells of a factor name the same card in one order of the hidden permutations: per cell,
#: the index of the first cell holding the same token (``(0, 1, 2, 3)``: all distinct).
Pattern = tuple[int, ...]

#: The leader cards: one of each, never both in one hand at set-up ([Preparar]).
LEADER_CAPS: Final[dict[int, int]] = {Integrity.AGENT: 1, Integrity.KINGPIN: 1}
#: The cards one seat may hold at set-up, one row each: every triple with at most one leader card.
SEAT_ROWS: Final[IntArray] = np.array(
    [t for t in itertools.product(range(4), repeat=3)
     if sum(1 for c in t if c in (Integrity.AGENT, Integrity.KINGPIN)) <= 1], dtype=np.int64)
_EYE: Final = np.eye(4)
_ANY: Final = np.ones(4)
_FACTORIAL: Final = np.array([1.0, 1.0, 2.0, 6.0])  # of 0..3 equal cards in one hand
#: Version stamps of factor tables, unique across every Factors object (a cluster cache key must
#: never match a table it was not built from).
_STAMPS: Final = itertools.count()


@dataclass(frozen=True)
class ByOrder:
    """A factor that depends on the hidden order as well as on the cards: one table (over the cards
    of all its cells, as any factor) per :data:`Pattern` its cells can take.

    A card an actor looked at before a hidden Flashbang and a slot it looked at after may be one
    card; so may a seen card and a card now face up. The pair factor's feature counts the distinct
    face-down cards seen, so it is a different function of the cards in each pattern. The patterns
    are functions of the order only, so :func:`enumerate_cluster`, which enumerates every order,
    keeps the computation exact by taking each order's table."""

    tables: dict[Pattern, Table]

    def scaled(self, by: float) -> ByOrder:
        """Every table divided by ``by`` (one scale for all: it must cancel across orders)."""
        return self._map(lambda t, _: t / by)

    def times(self, other: Table | ByOrder) -> ByOrder:
        """The product with another factor on the same cells (the same patterns)."""
        if isinstance(other, ByOrder):
            return self._map(lambda t, p: t * other.tables[p], other)
        return self._map(lambda t, _: t * other)

    def _map(self, f: Callable[[Table, Pattern], Table], other: ByOrder | None = None) -> ByOrder:
        """``f`` per pattern, once per distinct table (or pair of tables): patterns that leave the
        same cards seen share one table, and the tables can be large."""
        done: dict[tuple[int, int], Table] = {}
        out = {}
        for p, t in self.tables.items():
            key = (id(t), id(other.tables[p]) if other is not None else 0)
            if key not in done:
                done[key] = f(t, p)
            out[p] = done[key]
        return ByOrder(out)

    def top(self) -> float:
        """The largest entry over every pattern."""
        return max(float(t.max()) for t in self.tables.values())


Factor = Table | ByOrder


def pattern_of(tokens: Sequence[int]) -> Pattern:
    """The :data:`Pattern` of cells that resolve to ``tokens``."""
    first: dict[int, int] = {}
    return tuple(first.setdefault(x, i) for i, x in enumerate(tokens))


@dataclass
class Factors:
    """Every factor of one walk so far, multiplied per cell tuple (see the module docstring)."""

    walk: Walk
    model: BehaviourModel | None
    tables: dict[Cells, Table] = field(default_factory=dict)
    version: dict[Cells, int] = field(default_factory=dict)
    used: tuple[int, int, int, int] = (0, 0, 0, 0)  # binds, rules, choices, known multiplied in
    #: Pair factors (the actor's cells + the cells it had seen: :class:`gcbc_walk.Known`), in the
    #: order of their first decision; :func:`admitted` says which the posterior multiplies in. (Their
    #: cells span two seats or more, so no key here is a key of ``tables``.)
    pairs: dict[Cells, Factor] = field(default_factory=dict)

    def add(self, cells: Cells, table: Table) -> None:
        """Multiply ``table`` into the single-seat factor on ``cells``."""
        if cells in self.tables:
            table = self.tables[cells] * table
        self.tables[cells] = table / self._top(float(table.max()))
        self.version[cells] = next(_STAMPS)

    def add_pair(self, cells: Cells, factor: Factor) -> None:
        """Multiply ``factor`` into the pair factor on ``cells``."""
        old = self.pairs.get(cells)
        if isinstance(old, ByOrder):
            factor = old.times(factor)
        elif isinstance(factor, ByOrder):
            factor = factor if old is None else factor.times(old)
        elif old is not None:
            factor = old * factor
        if isinstance(factor, ByOrder):
            self.pairs[cells] = factor.scaled(self._top(factor.top()))
        else:
            self.pairs[cells] = factor / self._top(float(factor.max()))
        self.version[cells] = next(_STAMPS)

    def _top(self, top: float) -> float:
        """``top``, the scale of a factor (max 1 after it); no deal survives a zero factor."""
        if top <= 0.0:
            raise BadStateError(f"gcbc posterior: seat {self.walk.seat}'s view contradicts itself")
        return top

    def catch_up(self) -> None:
        """Multiply in what the walk found since the last call."""
        walk = self.walk
        binds, rules, choices, known = self.used
        for cell, x in walk.rec.binds[binds:]:
            self.add((cell,), _EYE[x])
        for kind, cells in walk.rules[rules:]:
            ids = hand_ids(len(cells))
            agent = (ids == Integrity.AGENT).any(axis=1)
            kingpin = (ids == Integrity.KINGPIN).any(axis=1)
            if kind == NOT_BOTH:
                self.add(cells, (~(agent & kingpin)).astype(np.float64))
            elif kind == HAS_LEADER:
                self.add(cells, (agent | kingpin).astype(np.float64))
            else:
                raise BadStateError(f"gcbc posterior: unknown rule {kind!r}")
        if self.model is not None:
            for choice in walk.choices[choices:]:
                if choice.actor != walk.seat:  # one's own choices are explained by one's known cards
                    self.add(choice.cells, self.model.table(choice))
            for kn in walk.known[known:]:
                table = self.model.known_table(kn)
                if table is not None and kn.actor != walk.seat:
                    cells = kn.cells + kn.seen() + kn.up
                    patterns = _patterns(cells, walk.rec.perms)
                    if not kn.up and patterns == [tuple(range(len(cells)))]:
                        self.add_pair(cells, table)
                    else:
                        self.add_pair(cells, _by_order(self.model, kn, cells, patterns, table))
        self.used = (len(walk.rec.binds), len(walk.rules), len(walk.choices), len(walk.known))

    def current(self) -> Factors:
        """These factors plus, during set-up, the seat's own dealt cards in canonical order."""
        own = Recorder()
        self.walk.tokens.finish(own)
        if not own.binds:
            return self
        out = Factors(self.walk, self.model, dict(self.tables), dict(self.version), self.used,
                      dict(self.pairs))
        for cell, x in own.binds:
            out.add((cell,), _EYE[x])
        return out


def _patterns(cells: Cells, perms: Sequence[Sequence[Cell]]) -> list[Pattern]:
    """Every :data:`Pattern` ``cells`` take over the orders of the hidden permutations.

    Only the cells that may coincide with another (:func:`gcbc_walk.may_coincide`) and the
    permutations on their way are enumerated; the others are distinct in every order."""
    if not any(isinstance(c, tuple) for c in cells):  # tokens only: distinct, the common case
        return [tuple(range(len(cells)))]
    loose = [i for i, a in enumerate(cells)
             if any(j != i and may_coincide(a, b, perms) for j, b in enumerate(cells))]
    ids = sorted(set().union(*(_perms_under(cells[i], perms) for i in loose)))
    out: dict[Pattern, None] = {}
    for orders_list in itertools.product(*(itertools.permutations(range(len(perms[k]))) for k in ids)):
        orders = dict(zip(ids, orders_list, strict=True))
        tokens = list(range(-len(cells), 0))  # stand-ins, distinct from every token
        for i in loose:
            tokens[i] = resolve(cells[i], perms, orders)
        out[pattern_of(tokens)] = None
    return list(out)


def _perms_under(cell: Cell, perms: Sequence[Sequence[Cell]]) -> set[int]:
    """The hidden permutations ``cell`` resolves through."""
    if not isinstance(cell, tuple):
        return set()
    return {cell[0]}.union(*(_perms_under(item, perms) for item in perms[cell[0]]))


def _by_order(model: BehaviourModel, kn: Known, cells: Cells, patterns: Sequence[Pattern],
              table: Table) -> ByOrder:
    """The pair factor of ``kn`` on ``cells`` (its actor's, its seen and its ``up`` cells) per
    pattern: in each, every option's seen cards counted once, and none that is face up now.
    ``table``: ``model.known_table(kn)``, the factor in the orders where no seen cells coincide."""
    # Patterns that leave the same cells seen share one table.
    made: dict[object, Table] = {kn.options: _spread(table, kn.cells + kn.seen(), cells)}
    out = {}
    for pattern in patterns:
        once = _once(kn, cells, pattern)
        if once.options not in made:
            got = model.known_table(once)
            made[once.options] = np.ones(4 ** len(cells)) if got is None \
                else _spread(got, kn.cells + once.seen(), cells)  # None: nothing seen face down
        out[pattern] = made[once.options]
    return ByOrder(out)


def _once(kn: Known, cells: Cells, pattern: Pattern) -> Known:
    """``kn`` with, per option, one seen cell per card of ``pattern`` and none that is face up."""
    at = {c: i for i, c in enumerate(cells)}
    up = {pattern[at[u]] for u in kn.up}
    options, looked = [], []
    for (feature, seen), looks in zip(kn.options, kn.looked, strict=True):
        cards = set(up)  # a seen card face up now is public: not counted
        keep = []
        for i, c in enumerate(seen):
            if pattern[at[c]] not in cards:
                cards.add(pattern[at[c]])
                keep.append(i)
        options.append((feature, tuple(seen[i] for i in keep)))
        looked.append(tuple(looks[i] for i in keep))
    return replace(kn, options=tuple(options), looked=tuple(looked), up=())


def _spread(table: Table, sub: Cells, cells: Cells) -> Table:
    """A table over the cards of ``sub`` (cells of ``cells``) as a table over ``cells``.

    Index ``sum(card[p] * 4 ** p)`` is a C-order array whose first axis is the last cell, so each
    table is reshaped to one axis per cell, its axes put in the order of ``cells``, and broadcast
    along the cells it does not read."""
    at = [cells.index(c) for c in reversed(sub)]  # the cell of each axis of the reshaped table
    grid = table.reshape((4,) * len(sub)).transpose(np.argsort([-i for i in at]))
    shape = [4 if i in at else 1 for i in reversed(range(len(cells)))]
    return np.asarray(np.broadcast_to(grid.reshape(shape), (4,) * len(cells)).reshape(-1), dtype=np.float64)


def seats_of(cell: Cell, perms: Sequence[Sequence[Cell]]) -> set[int]:
    """The set-up seats whose tokens ``cell`` may be."""
    if isinstance(cell, int):
        return {cell // 3}
    return set().union(*(seats_of(item, perms) for item in perms[cell[0]]))


def resolve(cell: Cell, perms: Sequence[Sequence[Cell]], orders: Mapping[int, Sequence[int]]) -> int:
    """The token behind ``cell`` when hidden permutation ``k`` put item ``orders[k][j]`` in slot j."""
    while isinstance(cell, tuple):
        k, j = cell
        cell = perms[k][orders[k][j]]
    return cell


def honest_prior(n: int, side: int) -> FloatArray:
    """``f(h)`` per Honest count ``h`` (0 where the supply rules it out), scaled to max 1."""
    m = 3 * n - 2
    f = np.zeros(3 * n + 1)
    for h in range(3 * n + 1):
        if h <= side and 0 <= m - h <= side:
            f[h] = perm(side, h) * perm(side, m - h)
    return np.asarray(f / f.max(), dtype=np.float64)


@lru_cache(maxsize=8)
def supply(n: int, side: int) -> Supply:
    """The card supply of an ``n``-player deal for the generic pass: one Agent, one Kingpin and
    ``side`` Honest and Crooked cards each, ``3n`` dealt, both leader cards always dealt. Its prior
    ``g`` is :func:`honest_prior`'s ``f(h)`` with each leader used once (see
    :mod:`solver.belief.gcbc_posterior`)."""
    deck = Deck(INTEGRITY_NAMES, tuple(1 if c in LEADER_CAPS else side for c in Integrity))
    return Supply(deck, 3 * n, must_deal=tuple(LEADER_CAPS))


@dataclass(frozen=True)
class Cluster:
    """A cluster of set-up seats: its configurations (:class:`solver.belief.roles.Cluster`: the
    cards of its tokens, 3 per seat in order, with weights and supply use; one row per token
    assignment and order of its hidden permutations) and the cards each seat holds now, per
    configuration."""

    part: Part
    hands: dict[int, IntArray]  # seat -> cards it holds now, per configuration

    @property
    def seats(self) -> tuple[int, ...]:
        """The set-up seats."""
        return self.part.seats


def enumerate_cluster(cards: Supply, seats: Sequence[int], perm_ids: Sequence[int],
                      perms: Sequence[Sequence[Cell]], tables: Mapping[Cells, Factor],
                      hands: Mapping[int, Sequence[Cell]], rows: IntArray | None = None) -> Cluster:
    """Every configuration of a cluster (``rows``: its token configurations, if the caller lists
    them) with the product of its factors; ``cards``: the game's :func:`supply`."""
    local = {3 * s + p: 3 * i + p for i, s in enumerate(seats) for p in range(3)}
    if rows is None:
        rows = token_rows(seats, tables)
    # Only a ByOrder factor tells apart the orders that give one layout; elsewhere every order
    # may keep weight 1, which sums to the same mass per layout.
    first_only = any(isinstance(t, ByOrder) for t in tables.values())
    weights, nows = [], []
    for orders_list in itertools.product(*(itertools.permutations(range(len(perms[k]))) for k in perm_ids)):
        orders = dict(zip(perm_ids, orders_list, strict=True))
        w = np.ones(len(rows))
        for k in perm_ids if first_only else ():
            w *= _first_order(rows[:, [local[resolve(c, perms, orders)] for c in perms[k]]], orders[k])
        for cells, table in tables.items():
            held = [resolve(c, perms, orders) for c in cells]  # the token at each cell
            idx = rows[:, local[held[0]]].copy()
            for p in range(1, len(cells)):
                idx += rows[:, local[held[p]]] * 4 ** p
            w *= (table.tables[pattern_of(held)] if isinstance(table, ByOrder) else table)[idx]
        weights.append(w)
        nows.append({s: rows[:, [local[resolve(c, perms, orders)] for c in cells]]
                     for s, cells in hands.items()})
    tokens = np.concatenate([rows] * len(weights))
    return Cluster(cards.cluster(seats, tokens, np.concatenate(weights)),
                   {s: np.concatenate([now[s] for now in nows]) for s in hands})


def _first_order(cards: IntArray, order: Sequence[int]) -> FloatArray:
    """The weight of hidden order ``order`` (slot ``i`` holds item ``order[i]``) when the items
    hold ``cards`` (a row per configuration).

    The engine lays out each distinct layout by its first permutation (``deal.arrangement_options``:
    equal cards keep their relative order), and what an actor saw follows the cards that way. So
    only that permutation is possible, with the weight of every permutation giving the layout (the
    product of the factorials of the equal cards' counts): each layout keeps its mass, 1 over the
    number of distinct layouts, as under uniform orders, and deduction is unchanged."""
    ok = np.ones(len(cards), dtype=bool)
    for i, j in itertools.combinations(range(len(order)), 2):
        if order[i] > order[j]:
            ok &= cards[:, order[i]] != cards[:, order[j]]
    ways = np.ones(len(cards))
    for x in range(4):
        ways *= _FACTORIAL[(cards == x).sum(axis=1)]
    return np.where(ok, ways, 0.0)


def token_rows(seats: Sequence[int], tables: Mapping[Cells, Factor]) -> IntArray:
    """The cluster's token configurations that no single-token observation rules out."""
    per_seat = []
    for s in seats:
        keep = np.ones(len(SEAT_ROWS), dtype=bool)
        for p in range(3):
            table = tables.get((3 * s + p,))
            if isinstance(table, np.ndarray):  # one cell: never a ByOrder
                keep &= table[SEAT_ROWS[:, p]] > 0
        per_seat.append(SEAT_ROWS[keep])
    # Only the leader cards are capped: a row with more side cards than the deck holds stays, and
    # the supply pass gives it probability 0.
    return joint_rows(per_seat, LEADER_CAPS)


def _tie(factors: Factors, tables: Mapping[Cells, Factor],
         sizes: Sequence[int] | None = None) -> tuple[SeatUnion, dict[Cells, set[int]]]:
    """Seats tied by ``tables``, the hidden permutations and the current hands; and the seats of
    each of those cell tuples."""
    walk = factors.walk
    pos, perms = walk.tokens.pos, walk.rec.perms
    union = SeatUnion([1] * len(pos) if sizes is None else sizes)
    seat_sets: dict[Cells, set[int]] = {}
    for cells in [*tables, *(tuple(p) for p in pos), *(((k, 0),) for k in range(len(perms)))]:
        tied = set().union(*(seats_of(c, perms) for c in cells)) if cells else set()
        seat_sets[cells] = tied
        union.join(tied)
    return union, seat_sets


def admitted(factors: Factors) -> Mapping[Cells, Factor]:
    """The factors the posterior multiplies: every single-seat factor, and each pair factor, in the
    order of their first decisions, that lies within one cluster or would leave its merged cluster
    with at most ``model.pair_seats`` seats whose set-up cards are not all known (the clusters that
    the single-seat factors, permutations, hands and the pair factors admitted before it make).

    The rule reads only which cells each factor is on, the hidden permutations, the hands and which
    cells are observed, all functions of the view, so the factor set is too (the brute force takes
    the same set). A later swap can merge clusters and so drop a pair factor admitted before it.
    """
    if not factors.pairs or factors.model is None:
        return factors.tables
    limit = factors.model.pair_seats
    # A seat whose three set-up cards are observed adds one configuration to a cluster, not 32.
    unknown = [0 if all(np.count_nonzero(factors.tables.get((3 * s + p,), _ANY)) == 1 for p in range(3))
               else 1 for s in range(len(factors.walk.tokens.pos))]
    union, _ = _tie(factors, factors.tables, unknown)
    out: dict[Cells, Factor] = dict(factors.tables)
    perms = factors.walk.rec.perms
    for cells, table in factors.pairs.items():
        roots = {union.find(s) for c in cells for s in seats_of(c, perms)}
        if len(roots) == 1 or sum(union.size[r] for r in roots) <= limit:
            union.join(roots)
            out[cells] = table
    return out


def clusters(factors: Factors, cache: dict[object, Cluster]) -> list[Cluster]:
    """Group the seats that factors, permutations or current hands tie together; enumerate each
    (or take it from ``cache`` when none of its factors changed; ``cache`` is updated)."""
    walk, tables = factors.walk, admitted(factors)
    pos, perms = walk.tokens.pos, walk.rec.perms
    n = len(pos)
    union, seat_sets = _tie(factors, tables)
    find = union.find
    members: dict[int, list[int]] = {}
    for s in range(n):
        members.setdefault(find(s), []).append(s)
    out = []
    for root, seats in sorted(members.items()):
        sub = {cells: t for cells, t in tables.items() if find(min(seat_sets[cells])) == root}
        perm_ids = [k for k in range(len(perms)) if find(min(seat_sets[((k, 0),)])) == root]
        hands = {s: pos[s] for s in range(n) if pos[s] and find(min(seat_sets[tuple(pos[s])])) == root}
        key = (tuple(seats), tuple(perm_ids), tuple(sorted((str(c), factors.version[c]) for c in sub)),
               tuple((s, tuple(h)) for s, h in hands.items()))
        if key not in cache:
            cache[key] = enumerate_cluster(supply(n, walk.game.side_cards), seats, perm_ids, perms,
                                           sub, hands)
        out.append(cache[key])
    return out
