"""Exact Bayesian role inference for Good Cop Bad Cop: the posterior over the deal given a view.

**The hidden variable** is the deal: per seat, the three Integrity cards in the positions it laid
them out at set-up (the *tokens* ``3 * seat + position`` of :mod:`solver.games.gcbc.resample`).

**The prior** is the game's chance model [Preparar] times a stated arrangement model. The Agent and
the Kingpin go to an ordered pair of distinct seats, uniformly; every Honest/Crooked card a player
gets is a draw without replacement from one shuffled deck (``deal.SIDE_CARDS`` of each; at 5 and 7
players one card is left over, unseen); each seat lays its cards out uniformly over their distinct
orders [Integridad] (a behaviour assumption). Multiplied out, every ordered deal with one Agent and
one Kingpin in different hands has probability proportional to
``f(h) = k!/(k-h)! * k!/(k-(m-h))!`` with ``h`` Honest among the ``m = 3n - 2`` other cards: a
leader's seat has 3 layouts per 3 hands' worth of sequences (1/3 each), a plain seat's layouts
match its sequences one for one. Another seat's Flashbang is a uniform hidden permutation.

**The likelihood** is deduction times behaviour. Deduction: every observation the walk
(:mod:`solver.belief.gcbc_walk`) finds is a 0/1 factor on the cells it names. Behaviour: each scored
public choice is a factor ``P(choice | actor's hand) ** temper`` (:mod:`solver.belief.gcbc_behaviour`).
Deduction-only is the same computation with no behaviour factors.

**Exact computation.** Every factor is a table over the hands its cells can hold. Factors on the
same cells are multiplied into one. Seats whose tokens share a factor, a hidden permutation or a
current hand form a *cluster* (almost always one seat). Each cluster's configurations (its tokens'
cards, its permutations) are enumerated with their weight and their use of the card supply
(Agent used, Kingpin used, Honest count); a forward/backward pass over clusters with that state
sums over every consistent deal::

    F_c = F_{c-1} * T_c,  B_c = T_c * B_{c+1}    (* : convolution over (agent, kingpin, honest))
    P(config x of c) ∝ w_x * sum_h f(h) (F_{c-1} * B_{c+1})[1 - a_x, 1 - k_x, h - h_x]

:func:`brute_force_posterior` enumerates every deal and permutation instead (tests only).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import perm
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from solver.belief.gcbc_behaviour import BehaviourModel, Table, hand_classes, hand_ids
from solver.belief.gcbc_walk import HAS_LEADER, NOT_BOTH, Recorder, Walk
from solver.core import JSON, BadStateError, ConfigError
from solver.games.gcbc.deal import INTEGRITY_NAMES, Integrity
from solver.games.gcbc.resample import Cell, Contradiction

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCGame

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: The cards one seat may hold at set-up: every triple with at most one leader card.
SEAT_TRIPLES: Final[tuple[tuple[int, ...], ...]] = tuple(
    t for t in itertools.product(range(4), repeat=3)
    if sum(1 for c in t if c in (Integrity.AGENT, Integrity.KINGPIN)) <= 1
)


# --- factors ---------------------------------------------------------------------------------------
def _factors(walk: Walk, model: BehaviourModel | None) -> dict[tuple[Cell, ...], Table]:
    """Every factor of the view, multiplied together per tuple of cells (tables scaled to max 1)."""
    tables: dict[tuple[Cell, ...], Table] = {}

    def add(cells: tuple[Cell, ...], table: Table) -> None:
        if cells in tables:
            table = tables[cells] * table
        top = float(table.max())
        if top <= 0.0:
            raise BadStateError(f"gcbc posterior: seat {walk.seat}'s view contradicts itself")
        tables[cells] = table / top

    own = Recorder()
    walk.tokens.finish(own)  # dealt, not laid out yet: the hand is in canonical order
    for cell, x in [*walk.rec.binds, *own.binds]:
        add((cell,), np.eye(4)[x])
    for kind, cells in walk.rules:
        ids = hand_ids(len(cells))
        agent = (ids == Integrity.AGENT).any(axis=1)
        kingpin = (ids == Integrity.KINGPIN).any(axis=1)
        add(cells, (~(agent & kingpin) if kind == NOT_BOTH else (agent | kingpin)).astype(np.float64))
        if kind not in (NOT_BOTH, HAS_LEADER):
            raise BadStateError(f"gcbc posterior: unknown rule {kind!r}")
    if model is not None:
        for choice in walk.choices:
            if choice.actor != walk.seat:  # one's own choices are explained by one's known cards
                add(choice.cells, model.table(choice))
    return tables


def _seats_of(cell: Cell, perms: Sequence[Sequence[Cell]]) -> set[int]:
    """The set-up seats whose tokens ``cell`` may be."""
    if isinstance(cell, int):
        return {cell // 3}
    return set().union(*(_seats_of(item, perms) for item in perms[cell[0]]))


def _resolve(cell: Cell, perms: Sequence[Sequence[Cell]], orders: Mapping[int, Sequence[int]]) -> int:
    """The token behind ``cell`` when each hidden permutation ``k`` put item ``orders[k][j]`` in
    slot ``j``."""
    while isinstance(cell, tuple):
        k, j = cell
        cell = perms[k][orders[k][j]]
    return cell


def _honest_prior(n: int, side: int) -> FloatArray:
    """``f(h)`` for every Honest count ``h`` (0 where the supply rules it out); see the docstring."""
    m = 3 * n - 2
    f = np.zeros(3 * n + 1)
    for h in range(3 * n + 1):
        if h <= side and 0 <= m - h <= side:
            f[h] = perm(side, h) * perm(side, m - h)
    return np.asarray(f / f.max(), dtype=np.float64)


# --- clusters --------------------------------------------------------------------------------------
@dataclass
class _Cluster:
    """The configurations of a set of seats: weights, supply use, cards per token, hands now."""

    seats: list[int]
    weight: FloatArray
    agent: IntArray
    kingpin: IntArray
    honest: IntArray
    tokens: IntArray  # rows: configurations; columns: the cluster's tokens, 3 per seat in order
    hands: dict[int, IntArray]  # seat -> cards it holds now, per configuration
    prob: FloatArray | None = None

    def table(self, size: int) -> FloatArray:
        """Total weight per (agent used, kingpin used, Honest count)."""
        t = np.zeros((2, 2, size))
        np.add.at(t, (self.agent, self.kingpin, self.honest), self.weight)
        return t


def _enumerate(seats: list[int], perm_ids: list[int], perms: Sequence[Sequence[Cell]],
               tables: Mapping[tuple[Cell, ...], Table], hands: Mapping[int, Sequence[Cell]],
               rows: IntArray | None = None) -> _Cluster:
    """Enumerate a cluster (``rows``: its token configurations, when the caller lists them)."""
    local = {3 * s + p: 3 * i + p for i, s in enumerate(seats) for p in range(3)}
    if rows is None:
        rows = _token_rows(seats, tables)
    results = []
    for orders_list in itertools.product(*(itertools.permutations(range(len(perms[k]))) for k in perm_ids)):
        orders = dict(zip(perm_ids, orders_list, strict=True))
        w = np.ones(len(rows))
        for cells, table in tables.items():
            idx = np.zeros(len(rows), dtype=np.int64)
            for p, cell in enumerate(cells):
                idx += rows[:, local[_resolve(cell, perms, orders)]] * 4 ** p
            w = w * table[idx]
        now = {s: rows[:, [local[_resolve(c, perms, orders)] for c in cells]] for s, cells in hands.items()}
        results.append((w, now))
    weight = np.concatenate([w for w, _ in results])
    tokens = np.concatenate([rows] * len(results))
    return _Cluster(
        seats, weight,
        (tokens == Integrity.AGENT).any(axis=1).astype(np.int64),
        (tokens == Integrity.KINGPIN).any(axis=1).astype(np.int64),
        (tokens == Integrity.HONEST).sum(axis=1).astype(np.int64),
        tokens, {s: np.concatenate([now[s] for _, now in results]) for s in hands},
    )


def _token_rows(seats: list[int], tables: Mapping[tuple[Cell, ...], Table]) -> IntArray:
    """The cluster's token configurations that no single-token observation rules out."""
    allowed: dict[int, Table] = {}
    for cells, table in tables.items():
        if len(cells) == 1 and isinstance(cells[0], int):
            allowed[cells[0]] = table
    per_seat = []
    for s in seats:
        per_seat.append([t for t in SEAT_TRIPLES
                         if all(allowed.get(3 * s + p, np.ones(4))[c] > 0 for p, c in enumerate(t))])
    rows = [sum(combo, ()) for combo in itertools.product(*per_seat)]
    rows = [r for r in rows if r.count(Integrity.AGENT) <= 1 and r.count(Integrity.KINGPIN) <= 1]
    return np.array(rows, dtype=np.int64).reshape(len(rows), 3 * len(seats))


def _conv(a: FloatArray, b: FloatArray) -> FloatArray:
    """Combine two (agent, kingpin, Honest) tables: leaders at most once each, Honest counts add."""
    size = a.shape[2]
    out = np.zeros_like(a)
    for a1, a2, k1, k2 in itertools.product(range(2), repeat=4):
        if a1 + a2 <= 1 and k1 + k2 <= 1:
            out[a1 + a2, k1 + k2] += np.convolve(a[a1, k1], b[a2, k2])[:size]
    return out


# --- the posterior ---------------------------------------------------------------------------------
class GCBCPosterior:
    """The posterior over deals given one seat's view (see the module docstring)."""

    def __init__(self, game: GCBCGame, walk: Walk, clusters: list[_Cluster],
                 model: BehaviourModel | None) -> None:
        self.game, self.walk, self.clusters, self.model = game, walk, clusters, model
        n = game.num_players
        self.size = 3 * n + 1
        self.prior_h = _honest_prior(n, game.side_cards)
        delta = np.zeros((2, 2, self.size))
        delta[0, 0, 0] = 1.0
        tables = [c.table(self.size) for c in clusters]
        self.forward = [delta]
        for t in tables:
            self.forward.append(_conv(self.forward[-1], t))
        backward = [delta]
        for t in reversed(tables):
            backward.append(_conv(t, backward[-1]))
        backward.reverse()
        self.evidence = float(self.forward[-1][1, 1] @ self.prior_h)
        if not self.evidence > 0.0:
            raise BadStateError(f"gcbc posterior: no deal is consistent with seat {walk.seat}'s view")
        for c, cluster in enumerate(clusters):
            rest = _conv(self.forward[c], backward[c + 1])
            ctx = np.zeros((2, 2, self.size))
            for a, k in itertools.product(range(2), repeat=2):
                for h in range(self.size):
                    ctx[a, k, h] = rest[1 - a, 1 - k, :self.size - h] @ self.prior_h[h:]
            context = ctx[cluster.agent, cluster.kingpin, cluster.honest]
            cluster.prob = cluster.weight * context / self.evidence

    @property
    def seat(self) -> int:
        """The seat whose view this is."""
        return self.walk.seat

    def marginals(self) -> list[dict[str, Any]]:
        """Per seat now: ``p_honest`` (its team), ``p_agent``, ``p_kingpin``, and ``cards``: per
        position a distribution over card names (one name at 1.0 when known)."""
        return _marginals(self.clusters, self.walk)

    def top_leader(self) -> dict[str, int]:
        """The likeliest holder of each leader card now: ``{"agent": seat, "kingpin": seat}``."""
        m = self.marginals()
        return {"agent": int(np.argmax([x["p_agent"] for x in m])),
                "kingpin": int(np.argmax([x["p_kingpin"] for x in m]))}

    def sample_deal(self, view_json: JSON, rng: np.random.Generator) -> list[list[str]]:
        """A deal drawn from the posterior (per seat, its set-up cards in set-up positions).

        ``view_json`` must be the view this posterior was computed from, or a later view of the
        same seat (the posterior is then brought up to date first); this is the belief hook of
        :func:`solver.games.gcbc.resample.resample`.
        """
        post = self if self.matches(view_json) else posterior(self.game, view_json, self.model)
        target = post.forward[-1][1, 1] * post.prior_h
        h = int(rng.choice(post.size, p=target / target.sum()))
        a = k = 1
        cards = [-1] * (3 * self.game.num_players)
        for c in reversed(range(len(post.clusters))):
            cl = post.clusters[c]
            ha, hk, hh = a - cl.agent, k - cl.kingpin, h - cl.honest
            ok = (ha >= 0) & (hk >= 0) & (hh >= 0)
            prev = post.forward[c][np.clip(ha, 0, 1), np.clip(hk, 0, 1), np.clip(hh, 0, None)]
            w = np.where(ok, cl.weight * prev, 0.0)
            x = int(rng.choice(len(w), p=w / w.sum()))
            a, k, h = int(ha[x]), int(hk[x]), int(hh[x])
            for i, s in enumerate(cl.seats):
                cards[3 * s:3 * s + 3] = cl.tokens[x, 3 * i:3 * i + 3].tolist()
        return [[INTEGRITY_NAMES[c] for c in cards[3 * s:3 * s + 3]] for s in range(self.game.num_players)]

    def deal_probability(self, deal: Sequence[Sequence[str]]) -> float:
        """The posterior probability of one deal (per seat, set-up cards in set-up positions)."""
        flat = [INTEGRITY_NAMES.index(name) for hand in deal for name in hand]
        if len(flat) != 3 * self.game.num_players:
            raise BadStateError(f"gcbc posterior: a deal lists 3 cards per seat, not {deal!r:.100}")
        total = 1.0
        for cl in self.clusters:
            mine = [flat[3 * s + p] for s in cl.seats for p in range(3)]
            total *= float(cl.weight[(cl.tokens == mine).all(axis=1)].sum())
        return total * float(self.prior_h[flat.count(Integrity.HONEST)]) / self.evidence \
            if flat.count(Integrity.AGENT) == flat.count(Integrity.KINGPIN) == 1 else 0.0

    def matches(self, view_json: JSON) -> bool:
        """Whether ``view_json`` is the view this posterior was computed from."""
        history = view_json.get("history") if isinstance(view_json, dict) else None
        return (isinstance(history, list) and view_json.get("seat") == self.walk.seat
                and len(history) == self.walk.done
                and (not history or history[-1] == self.walk.last_entry))


def _marginals(clusters: Iterable[_Cluster], walk: Walk) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{} for _ in walk.tokens.pos]
    for cl in clusters:
        if cl.prob is None:
            raise BadStateError("gcbc posterior: a cluster has no probabilities yet")
        for s, hand in cl.hands.items():
            length = hand.shape[1]
            idx = (hand * 4 ** np.arange(length)).sum(axis=1)
            honest = hand_classes(length, walk.inverted[s])[idx]
            cards = []
            for p in range(length):
                dist = np.bincount(hand[:, p], weights=cl.prob, minlength=4)
                cards.append({INTEGRITY_NAMES[c]: float(dist[c]) for c in range(4) if dist[c] > 0})
            out[s] = {
                "seat": s,
                "p_honest": float(cl.prob[(honest == 0) | (honest == 2)].sum()),
                "p_agent": float(cl.prob[(hand == Integrity.AGENT).any(axis=1)].sum()),
                "p_kingpin": float(cl.prob[(hand == Integrity.KINGPIN).any(axis=1)].sum()),
                "cards": cards,
            }
    return out


def _walk(game: GCBCGame, view_json: JSON) -> Walk:
    if not isinstance(view_json, dict) or view_json.get("game") != game.name \
            or view_json.get("config") != game.config():
        raise ConfigError(f"gcbc posterior: the view is not one of {game.name!r} {game.config()!r}")
    seat, history = view_json.get("seat"), view_json.get("history")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise BadStateError(f"gcbc posterior: seat {seat!r} is not 0..{game.num_players - 1}")
    if not isinstance(history, list):
        raise BadStateError("gcbc posterior: the view has no history list")
    walk = Walk(game, seat)
    try:
        walk.extend(history)
    except Contradiction as err:
        raise BadStateError(f"gcbc posterior: seat {seat}'s history contradicts itself") from err
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
        raise BadStateError(f"gcbc posterior: malformed history entry ({err!r})") from err
    return walk


def _clusters(walk: Walk, tables: Mapping[tuple[Cell, ...], Table]) -> list[_Cluster]:
    """Group the seats that factors, permutations or current hands tie together; enumerate each."""
    n = len(walk.tokens.pos)
    perms = walk.rec.perms
    parent = list(range(n))

    def find(s: int) -> int:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    def join(seats: set[int]) -> None:
        first, *rest = sorted(seats)
        for s in rest:
            parent[find(s)] = find(first)

    groups: list[Iterable[Cell]] = [*tables, *walk.tokens.pos, *([(k, 0)] for k in range(len(perms)))]
    for cells in groups:
        tied = set().union(*(_seats_of(c, perms) for c in cells))
        if tied:
            join(tied)
    members: dict[int, list[int]] = {}
    for s in range(n):
        members.setdefault(find(s), []).append(s)
    clusters = []
    for root, seats in sorted(members.items()):
        mine = set(seats)
        sub = {cells: t for cells, t in tables.items() if _seats_of(cells[0], perms) <= mine}
        perm_ids = [k for k in range(len(perms)) if _seats_of((k, 0), perms) <= mine]
        hands = {s: walk.tokens.pos[s] for s in range(n)
                 if find(_any_seat(walk.tokens.pos[s], perms, s)) == root}
        clusters.append(_enumerate(seats, perm_ids, perms, sub, hands))
    return clusters


def _any_seat(cells: Sequence[Cell], perms: Sequence[Sequence[Cell]], default: int) -> int:
    return min(_seats_of(cells[0], perms)) if cells else default


def posterior(game: GCBCGame, view_json: JSON, model: BehaviourModel | None = None) -> GCBCPosterior:
    """The exact posterior over deals given ``view_json`` (a seat's view as JSON).

    ``model`` None is deduction only; pass :func:`solver.belief.gcbc_behaviour.load_behaviour()`
    for the full model. Raises ConfigError for a view of another game, BadStateError for a view no
    game produces.
    """
    walk = _walk(game, view_json)
    tables = _factors(walk, model)
    return GCBCPosterior(game, walk, _clusters(walk, tables), model)


def brute_force_posterior(game: GCBCGame, view_json: JSON,
                          model: BehaviourModel | None = None) -> list[dict[str, Any]]:
    """The marginals by enumerating every deal and every hidden permutation (tests only: slow).

    No clusters, no pruning by seat, no forward/backward pass: one weight per complete deal.
    """
    walk = _walk(game, view_json)
    tables = _factors(walk, model)
    n = game.num_players
    rows = _all_deals(n, game.side_cards)
    prior = _honest_prior(n, game.side_cards)[(rows == Integrity.HONEST).sum(axis=1)]
    keep = prior > 0
    for cells, table in tables.items():
        if len(cells) == 1 and isinstance(cells[0], int):
            keep &= table[rows[:, cells[0]]] > 0
    rows, prior = rows[keep].astype(np.int64), prior[keep]
    everything = _enumerate(list(range(n)), list(range(len(walk.rec.perms))), walk.rec.perms, tables,
                            {s: walk.tokens.pos[s] for s in range(n)}, rows)
    weight = everything.weight * np.concatenate([prior] * (len(everything.weight) // max(len(prior), 1)))
    if not weight.sum() > 0:
        raise BadStateError(f"gcbc posterior: no deal is consistent with seat {walk.seat}'s view")
    everything.prob = weight / weight.sum()
    return _marginals([everything], walk)


def _all_deals(n: int, side: int) -> IntArray:
    """Every deal: Agent and Kingpin in two different seats, Honest/Crooked on the other tokens."""
    m = 3 * n - 2
    honest_sets = [c for h in range(m + 1) if h <= side and m - h <= side
                   for c in itertools.combinations(range(m), h)]
    side_rows = np.full((len(honest_sets), m), Integrity.CROOKED, dtype=np.int8)
    for i, c in enumerate(honest_sets):
        side_rows[i, list(c)] = Integrity.HONEST
    out = []
    for a, k in itertools.permutations(range(3 * n), 2):
        if a // 3 == k // 3:
            continue
        rest = [t for t in range(3 * n) if t not in (a, k)]
        block = np.empty((len(side_rows), 3 * n), dtype=np.int8)
        block[:, rest] = side_rows
        block[:, a], block[:, k] = Integrity.AGENT, Integrity.KINGPIN
        out.append(block)
    return np.concatenate(out)
