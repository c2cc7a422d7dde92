"""A game-agnostic exact posterior over hidden role cards dealt to seats.

**The hidden variable** is the deal: each of ``seats`` seats holds ``k`` cards, in positions, drawn
without replacement from a shuffled deck of card *kinds* with counts (:class:`Deck`); cards left
over are unseen. Good Cop Bad Cop's Integrity cards and Police Precinct's loyalty cards are such
deals.

**The prior** is the chance of drawing the deal's cards in that order from the shuffled deck,
``prod_k c_k! / (c_k - u_k)!`` over ``N! / (N - m)!`` (``u_k`` cards of kind ``k`` dealt out of
``c_k``, ``m`` dealt out of ``N``), conditioned on every card of the ``must_deal`` kinds being dealt
(a game that always deals some kinds, such as GCBC's leader cards). It depends on the deal only
through the counts ``u`` (the card *supply* used), which is what makes the pass below exact.

**The likelihood** is a product of non-negative factors, each a function of the cards of one seat
(deduction: known cards and excluded kinds as 0/1 factors; behaviour: ``P(public choice | hand)``,
supplied by the game as a table or a callable) or of a few seats (a joint factor). Seats that a
joint factor ties together form a *cluster* (union-find); the clusters are independent given the
supply they use.

**Exact computation** (variable elimination over the supply; the forward/backward recursions of a
chain whose state is the count of each kind used so far). Each cluster ``c`` is enumerated: every
configuration ``x`` (its seats' cards) with its weight ``w_x`` (the product of its factors) and its
use ``u_x``; its supply table is ``T_c[u] = sum of w_x over u_x = u``. With ``*`` the convolution
over use (counts add)::

    F_0 = B_C = delta_0,  F_c = F_{c-1} * T_c,  B_c = T_c * B_{c+1}
    Z = sum_u F_C[u] g(u),   P(x in c) = w_x * sum_r (F_{c-1} * B_{c+1})[r] g(u_x + r) / Z

where ``g`` is the prior above over the whole deal's use. One kind (the one with most cards) is not
tracked: every configuration fills a fixed number of positions, so its count is implied.
:meth:`RolePosterior.sample` is forward filtering, backward sampling over the same tables.
Nothing is sampled or approximated in the marginals: they are sums over every consistent deal.
``tests/test_roles.py`` checks them against explicit enumeration of every deal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import perm, prod
from typing import Final

import numpy as np
import numpy.typing as npt

from solver.core import BadStateError, ConfigError

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
#: A factor on one seat's hands: a table indexed by ``sum(card[p] * K ** p)`` (``K`` kinds), or a
#: callable taking hand rows (one per configuration, ``k`` cards each) and giving a weight per row.
Factor = FloatArray | Callable[[IntArray], FloatArray]
_PAD: Final = np.zeros(1)  # the zero past the end of a flat supply table


@dataclass(frozen=True)
class Deck:
    """The cards dealt from: a name and a count per kind (kind ``i`` is card ``i`` in every array)."""

    names: tuple[str, ...]
    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.names) != len(self.counts) or not self.names:
            raise ConfigError(f"roles: a deck names each kind once with its count, not {self!r}")
        if any(c < 0 for c in self.counts) or len(set(self.names)) != len(self.names):
            raise ConfigError(f"roles: counts must be >= 0 and names distinct in {self!r}")

    @property
    def kinds(self) -> int:
        """The number of kinds."""
        return len(self.counts)

    def index(self, name: str) -> int:
        """The kind called ``name``."""
        if name not in self.names:
            raise BadStateError(f"roles: no card kind {name!r} in {self.names}")
        return self.names.index(name)


@dataclass(frozen=True)
class Cluster:
    """The configurations of a set of seats: per configuration its cards (``k`` columns per seat,
    seats in ``seats`` order), its weight (the product of its factors) and its supply use (made by
    :meth:`Supply.cluster`, which the forward/backward pass reads)."""

    seats: tuple[int, ...]
    cards: IntArray
    weight: FloatArray
    use: IntArray  # per configuration, the count of each tracked kind (Supply.tracked)
    state: IntArray  # the flat supply state of ``use`` (0 where infeasible)
    feasible: BoolArray  # whether the configuration fits in the deck at all


class Supply:
    """The state space of the pass: how many cards of each tracked kind a set of seats uses.

    ``slots`` is every dealt position (seats × k). The kind with the most cards (the last among
    equals) is implied by the others and not tracked; each tracked kind ``k`` counts
    ``0..min(c_k, slots)``. :attr:`prior` is ``g(u)`` per flat state, scaled to a maximum of 1 (the
    scale cancels; this keeps large decks from overflowing).
    """

    def __init__(self, deck: Deck, slots: int, must_deal: Iterable[int] = ()) -> None:
        self.deck, self.slots = deck, slots
        self.must_deal = frozenset(must_deal)
        counts = deck.counts
        self.implied = max(range(deck.kinds), key=lambda k: (counts[k], k))
        self.tracked = tuple(k for k in range(deck.kinds) if k != self.implied)
        self.dims = tuple(min(counts[k], slots) + 1 for k in self.tracked)
        self.size = prod(self.dims)
        self.strides = np.array([prod(self.dims[i + 1:]) for i in range(len(self.dims))], dtype=np.int64)
        self.caps = np.array([counts[k] for k in self.tracked], dtype=np.int64)
        g = np.zeros(self.size)
        for flat, use in enumerate(itertools.product(*(range(d) for d in self.dims))):
            used = dict(zip(self.tracked, use, strict=True))
            used[self.implied] = slots - sum(use)
            if 0 <= used[self.implied] <= counts[self.implied] \
                    and all(used[k] == counts[k] for k in self.must_deal):
                g[flat] = float(prod(perm(counts[k], used[k]) for k in range(deck.kinds)))
        if not g.max() > 0.0:
            raise ConfigError(
                f"roles: {deck!r} cannot fill {slots} positions (must deal {sorted(self.must_deal)})")
        self.prior: FloatArray = g / g.max()
        self.support: IntArray = np.flatnonzero(self.prior)
        self.delta: FloatArray = np.zeros(self.size)
        self.delta[0] = 1.0

    def usage(self, cards: IntArray) -> tuple[IntArray, IntArray, BoolArray]:
        """Per row of ``cards``: the count of each tracked kind, the flat state, and whether the
        row fits in the deck (no kind used more often than it has cards)."""
        n = len(cards)
        use = np.empty((n, len(self.tracked)), dtype=np.int64)
        state = np.zeros(n, dtype=np.int64)
        dealt = np.zeros(n, dtype=np.int64)
        feasible = np.ones(n, dtype=bool)
        for i, kind in enumerate(self.tracked):  # column by column: clusters may have 10^5 rows
            col = np.count_nonzero(cards == kind, axis=1)
            use[:, i] = col
            feasible &= col <= self.caps[i]
            state += col * int(self.strides[i])
            dealt += col
        feasible &= cards.shape[1] - dealt <= self.deck.counts[self.implied]
        state[~feasible] = 0
        return use, state, feasible

    def cluster(self, seats: Sequence[int], cards: IntArray, weight: FloatArray) -> Cluster:
        """A :class:`Cluster` of ``seats`` with these configurations and weights."""
        if len(cards) != len(weight):
            raise ConfigError(f"roles: {len(cards)} configurations but {len(weight)} weights")
        return Cluster(tuple(seats), cards, weight, *self.usage(cards))

    def table(self, cluster: Cluster) -> FloatArray:
        """``T_c``: the cluster's total weight per supply state."""
        t = np.zeros(self.size)
        ok = cluster.feasible
        np.add.at(t, cluster.state[ok], cluster.weight[ok])
        return t

    def convolve(self, a: FloatArray, b: FloatArray) -> FloatArray:
        """The supply table of two independent parts: ``out[u] = sum_{v <= u} a[v] b[u - v]``.

        As one matrix product, ``out = a @ M(b)`` with ``M(b)[i, j] = b[j - i]`` when ``j - i`` is
        a state (no count negative), else 0."""
        shifted = np.concatenate((b, _PAD))[_shift_index(self.dims)]
        return np.asarray(a @ shifted, dtype=np.float64)

    def context(self, rest: FloatArray) -> FloatArray:
        """Per state ``u`` a part may use, ``sum_r rest[r] g(u + r)``: the prior-weighted mass of
        the other parts (``rest``, their supply table) completing it to a whole deal."""
        idx = _shift_index(self.dims)[:, self.support]  # [u, t] -> t - u
        return np.asarray(np.concatenate((rest, _PAD))[idx] @ self.prior[self.support], dtype=np.float64)

    def unravel(self, state: int) -> IntArray:
        """The tracked counts of a flat state."""
        return np.array(np.unravel_index(state, self.dims), dtype=np.int64)


@lru_cache(maxsize=32)
def _shift_index(dims: tuple[int, ...]) -> IntArray:
    """For :meth:`Supply.convolve`: ``[i, j]`` is the flat index of state ``j - i``, or the
    padding zero past the end where some count would be negative."""
    size = prod(dims)
    if not dims:  # a deck of one kind: one state, nothing to track
        return np.zeros((1, 1), dtype=np.int64)
    grid = np.indices(dims).reshape(len(dims), -1).T
    diff = grid[None, :, :] - grid[:, None, :]
    strides = np.array([prod(dims[i + 1:]) for i in range(len(dims))], dtype=np.int64)
    ok = (diff >= 0).all(axis=2)
    return np.where(ok, diff @ strides, size).astype(np.int64)


class RolePosterior:
    """The exact posterior over deals given enumerated clusters (see the module docstring).

    ``clusters`` must cover seats ``0..seats-1`` once each, ``k`` cards per seat. Raises
    BadStateError when no deal has positive weight (the evidence contradicts itself).
    """

    def __init__(self, supply: Supply, clusters: Sequence[Cluster], k: int) -> None:
        self.supply, self.clusters, self.k = supply, list(clusters), k
        covered = sorted(s for cl in self.clusters for s in cl.seats)
        if covered != list(range(len(covered))) or supply.slots != k * len(covered):
            raise ConfigError(f"roles: clusters cover seats {covered}, not each of {supply.slots // k} once")
        self.seats = len(covered)
        tables = [supply.table(cl) for cl in self.clusters]
        self.forward = [supply.delta]
        for t in tables:
            self.forward.append(supply.convolve(self.forward[-1], t))
        backward = [supply.delta]
        for t in reversed(tables):
            backward.append(supply.convolve(t, backward[-1]))
        backward.reverse()
        self.evidence = float(self.forward[-1] @ supply.prior)
        if not self.evidence > 0.0:
            raise BadStateError("roles: no deal is consistent with the evidence")
        #: Per cluster, the posterior probability of each configuration.
        self.probs: list[FloatArray] = []
        for c, cl in enumerate(self.clusters):
            ctx = supply.context(supply.convolve(self.forward[c], backward[c + 1]))
            self.probs.append(np.where(cl.feasible, cl.weight * ctx[cl.state] / self.evidence, 0.0))

    def sample(self, rng: np.random.Generator) -> list[int]:
        """One configuration index per cluster, a deal drawn from the posterior (forward
        filtering, backward sampling: the whole deal's use first, then each cluster's
        configuration given what the clusters before it must leave). Deterministic given ``rng``."""
        supply = self.supply
        target = self.forward[-1] * supply.prior
        left = supply.unravel(int(rng.choice(supply.size, p=target / target.sum())))
        picks = [0] * len(self.clusters)
        for c in reversed(range(len(self.clusters))):
            cl = self.clusters[c]
            rem = left - cl.use
            ok = (rem >= 0).all(axis=1) & cl.feasible
            prev = self.forward[c][np.maximum(rem, 0) @ supply.strides]
            w = np.where(ok, cl.weight * prev, 0.0)
            x = int(rng.choice(len(w), p=w / w.sum()))
            picks[c], left = x, rem[x]
        return picks

    def sample_deal(self, rng: np.random.Generator) -> list[list[int]]:
        """A deal drawn from the posterior: per seat, its ``k`` cards in position order."""
        deal: list[list[int]] = [[] for _ in range(self.seats)]
        for cl, x in zip(self.clusters, self.sample(rng), strict=True):
            for i, s in enumerate(cl.seats):
                deal[s] = cl.cards[x, self.k * i:self.k * (i + 1)].tolist()
        return deal

    def deal_probability(self, deal: Sequence[Sequence[int]]) -> float:
        """The posterior probability of one deal (per seat, its cards in position order)."""
        if len(deal) != self.seats or any(len(hand) != self.k for hand in deal):
            raise BadStateError(f"roles: a deal lists {self.k} cards for each of {self.seats} seats")
        flat = np.array([[c for hand in deal for c in hand]], dtype=np.int64)
        _, state, feasible = self.supply.usage(flat)
        if not feasible[0]:
            return 0.0
        total = float(self.supply.prior[state[0]]) / self.evidence
        for cl in self.clusters:
            mine = [c for s in cl.seats for c in deal[s]]
            total *= float(cl.weight[(cl.cards == mine).all(axis=1)].sum())
        return total

    def marginals(self) -> list[SeatMarginal]:
        """Per seat, the distribution of each position's card and the chance of holding each kind."""
        out: list[SeatMarginal] = []
        for cl, prob in zip(self.clusters, self.probs, strict=True):
            for i, s in enumerate(cl.seats):
                out.append(hand_marginal(s, cl.cards[:, self.k * i:self.k * (i + 1)], prob,
                                         self.supply.deck.kinds))
        return sorted(out, key=lambda m: m.seat)


@dataclass(frozen=True)
class SeatMarginal:
    """One seat's marginals: ``cards[p, kind]`` the chance position ``p`` holds ``kind``;
    ``holds[kind]`` the chance the seat holds at least one card of ``kind``."""

    seat: int
    cards: FloatArray
    holds: FloatArray


def hand_marginal(seat: int, hands: IntArray, prob: FloatArray, kinds: int) -> SeatMarginal:
    """The marginals of a seat whose hand is row ``x`` of ``hands`` with probability ``prob[x]``
    (the hand may be the seat's set-up cards or, in a game where cards move, its cards now)."""
    cards = np.array([np.bincount(hands[:, p], weights=prob, minlength=kinds) for p in range(hands.shape[1])])
    holds = np.array([prob[(hands == kind).any(axis=1)].sum() for kind in range(kinds)])
    return SeatMarginal(seat, cards.reshape(hands.shape[1], kinds), holds)


class SeatUnion:
    """Union-find over seats, with the size of each group (each seat counting ``sizes[s]``)."""

    def __init__(self, sizes: Sequence[int]) -> None:
        self.parent = list(range(len(sizes)))
        self.size = list(sizes)

    def find(self, s: int) -> int:
        """The root of ``s``'s group."""
        while self.parent[s] != s:
            self.parent[s] = self.parent[self.parent[s]]
            s = self.parent[s]
        return s

    def join(self, seats: Iterable[int]) -> None:
        """Merge the groups of ``seats``."""
        roots = sorted({self.find(s) for s in seats})
        for r in roots[1:]:
            self.parent[r] = roots[0]
            self.size[roots[0]] += self.size[r]

    def groups(self) -> list[tuple[int, ...]]:
        """Every group's seats, groups ordered by root."""
        members: dict[int, list[int]] = {}
        for s in range(len(self.parent)):
            members.setdefault(self.find(s), []).append(s)
        return [tuple(seats) for _, seats in sorted(members.items())]


def hand_rows(kinds: int, k: int, caps: Sequence[int] | None = None) -> IntArray:
    """Every hand of ``k`` cards in position order (row ``i`` is hand index ``sum(card[p] * kinds ** p)``
    when ``caps`` is None), keeping those with at most ``caps[kind]`` cards of a kind."""
    rows = np.array(list(itertools.product(range(kinds), repeat=k)), dtype=np.int64)[:, ::-1]
    if caps is not None:
        rows = rows[np.all([(rows == x).sum(axis=1) <= caps[x] for x in range(kinds)], axis=0)]
    return np.ascontiguousarray(rows)


def hand_index(rows: IntArray, kinds: int) -> IntArray:
    """The table index of each hand row: ``sum(card[p] * kinds ** p)``."""
    return np.asarray(rows @ (kinds ** np.arange(rows.shape[1])), dtype=np.int64)


def joint_rows(per_seat: Sequence[IntArray], caps: Mapping[int, int]) -> IntArray:
    """Every combination of one row per seat (the first seat's row varying slowest), keeping
    those with at most ``caps[kind]`` cards of each capped kind."""
    if len(per_seat) == 1:
        rows = per_seat[0]
    else:
        grid = np.meshgrid(*(np.arange(len(r)) for r in per_seat), indexing="ij")
        rows = np.concatenate([r[g.ravel()] for r, g in zip(per_seat, grid, strict=True)], axis=1)
    if not caps:
        return rows
    ok = np.ones(len(rows), dtype=bool)
    for kind, cap in caps.items():
        ok &= (rows == kind).sum(axis=1) <= cap
    return np.asarray(rows[ok], dtype=np.int64)


@dataclass(frozen=True)
class SeatEvidence:
    """What deduction says of one seat: ``known`` cards by position, ``excluded`` kinds it holds
    none of (a revealed honest player, say, excludes the dirty kind)."""

    known: Mapping[int, int] = field(default_factory=dict)
    excluded: frozenset[int] = frozenset()

    def allows(self, rows: IntArray) -> BoolArray:
        """Which hand rows agree with it."""
        ok = np.ones(len(rows), dtype=bool)
        for p, kind in self.known.items():
            ok &= rows[:, p] == kind
        for kind in self.excluded:
            ok &= ~(rows == kind).any(axis=1)
        return ok


@dataclass(frozen=True)
class JointFactor:
    """A factor on several seats' cards: ``fn`` takes rows of their cards (``k`` columns per seat,
    in ``seats`` order) and gives a weight per row."""

    seats: tuple[int, ...]
    fn: Callable[[IntArray], FloatArray]


def apply_factor(factor: Factor, rows: IntArray, kinds: int) -> FloatArray:
    """A seat factor's weight for each hand row."""
    if callable(factor):
        w = np.asarray(factor(rows), dtype=np.float64)
    else:
        table = np.asarray(factor, dtype=np.float64)
        if table.shape != (kinds ** rows.shape[1],):
            raise ConfigError(f"roles: a factor table has one entry per hand ({kinds ** rows.shape[1]}), "
                              f"not shape {table.shape}")
        w = table[hand_index(rows, kinds)]
    if w.shape != (len(rows),) or (w < 0).any():
        raise ConfigError(f"roles: a factor gives one weight >= 0 per hand, got shape {w.shape}")
    return w


def posterior(deck: Deck, seats: int, k: int, *, evidence: Mapping[int, SeatEvidence] | None = None,
              seat_factors: Mapping[int, Sequence[Factor]] | None = None,
              joint_factors: Sequence[JointFactor] = (), must_deal: Iterable[int] = ()) -> RolePosterior:
    """The exact posterior over the deal of ``k`` cards to each of ``seats`` seats from ``deck``.

    ``evidence``: per seat, deduction's constraints; ``seat_factors``: per seat, factors on its
    hand (behaviour); ``joint_factors``: factors on several seats, which merge them into one
    cluster; ``must_deal``: kinds every card of which is dealt. Raises BadStateError when no deal
    is consistent, ConfigError for a deck that cannot fill the seats or a malformed factor.
    """
    supply = Supply(deck, seats * k, must_deal)
    caps = list(deck.counts)
    rows = hand_rows(deck.kinds, k, caps)
    per_seat, per_weight = [], []
    for s in range(seats):
        ok = (evidence or {}).get(s, SeatEvidence()).allows(rows)
        w = np.ones(int(ok.sum()))
        for factor in (seat_factors or {}).get(s, ()):
            w = w * apply_factor(factor, rows[ok], deck.kinds)
        per_seat.append(rows[ok])
        per_weight.append(w)
    union = SeatUnion([1] * seats)
    for jf in joint_factors:
        if not jf.seats or any(not 0 <= s < seats for s in jf.seats):
            raise ConfigError(f"roles: a joint factor on seats {jf.seats} outside 0..{seats - 1}")
        union.join(jf.seats)
    clusters = []
    for group in union.groups():
        # Index the seats' own rows jointly, so each seat's weight is looked up, not recomputed.
        index = joint_rows([np.arange(len(per_seat[s]))[:, None] for s in group], {})
        cards = np.concatenate([per_seat[s][index[:, i]] for i, s in enumerate(group)], axis=1)
        weight = np.prod([per_weight[s][index[:, i]] for i, s in enumerate(group)], axis=0)
        fits = np.all([(cards == x).sum(axis=1) <= caps[x] for x in range(deck.kinds)], axis=0)
        cards, weight = cards[fits], weight[fits]  # no kind dealt twice more than the deck holds
        for jf in joint_factors:
            if set(jf.seats) <= set(group):
                cols = [k * group.index(s) + p for s in jf.seats for p in range(k)]
                w = np.asarray(jf.fn(cards[:, cols]), dtype=np.float64)
                if w.shape != (len(cards),) or (w < 0).any():
                    raise ConfigError(
                        f"roles: joint factor on {jf.seats} gives {w.shape}, not one weight >= 0 per row")
                weight = weight * w
        clusters.append(supply.cluster(group, cards, np.asarray(weight, dtype=np.float64)))
    return RolePosterior(supply, clusters, k)
