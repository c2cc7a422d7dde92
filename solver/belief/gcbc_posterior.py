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
match its sequences one for one. Another seat's Flashbang is a uniform choice among the distinct
layouts of its cards, laid out by the first permutation giving each, as the engine does: which of
two equal cards went where matters only to a pair factor whose seen cards may be one card
(:class:`gcbc_clusters.ByOrder`); the other factors see a uniform hidden permutation.

**The likelihood** is deduction times behaviour. Deduction: every observation the walk
(:mod:`solver.belief.gcbc_walk`) finds is a 0/1 factor on the cells it names. Behaviour: each scored
public choice is a factor ``P(choice | actor's hand) ** temper`` (:mod:`solver.belief.gcbc_behaviour`),
and the pair factors (a choice given the actor's hand and the cards it had seen) that the
cluster-size rule admits (:func:`solver.belief.gcbc_clusters.admitted`; the brute force takes the
same set). Deduction-only is the same computation with no behaviour factors.

**Exact computation.** Every factor is a table over the hands its cells can hold. Factors on the
same cells are multiplied into one. Seats whose tokens share a factor, a hidden permutation or a
current hand form a *cluster* (one seat, or the few a swap or a pair factor ties). Each
cluster's configurations (its tokens' cards, its permutations) are enumerated with their weight
(:mod:`solver.belief.gcbc_clusters`); the game-agnostic pass of :mod:`solver.belief.roles` sums
over every consistent deal by their use of the card supply (Agent used, Kingpin used, Honest
count; Crooked implied), with the deck of :func:`gcbc_clusters.supply` (both leader cards always
dealt, so its prior is ``f(h)`` above)::

    F_c = F_{c-1} * T_c,  B_c = T_c * B_{c+1}    (* : convolution over (agent, kingpin, honest))
    P(config x of c) ∝ w_x * sum_h f(h) (F_{c-1} * B_{c+1})[1 - a_x, 1 - k_x, h - h_x]

What stays here is GCBC's own: reading the view (the walk), the factors, and the marginals over
the hands seats hold *now* (cards move between seats). :func:`brute_force_posterior` enumerates
every deal and permutation instead (tests only).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.belief.gcbc_behaviour import BehaviourModel, hand_classes
from solver.belief.gcbc_clusters import (
    Cluster,
    Factors,
    FloatArray,
    IntArray,
    admitted,
    clusters,
    enumerate_cluster,
    honest_prior,
    supply,
)
from solver.belief.gcbc_walk import Walk
from solver.belief.roles import RolePosterior, hand_marginal
from solver.core import JSON, BadStateError, ConfigError
from solver.games.gcbc.deal import INTEGRITY_NAMES, Integrity
from solver.games.gcbc.resample import Contradiction

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCGame


class GCBCPosterior:
    """The posterior over deals given one seat's view (see the module docstring).

    Build it with :func:`posterior`; :meth:`update` brings it up to date with a later view of the
    same seat, walking only the new history entries and enumerating only the clusters whose
    factors changed.
    """

    def __init__(self, game: GCBCGame, factors: Factors, cache: dict[object, Cluster]) -> None:
        self.game, self.factors, self.cache = game, factors, cache
        walk = factors.walk
        self.model = factors.model
        self.seat = walk.seat
        self.done, self.last_entry = walk.done, walk.last_entry
        self.inverted = list(walk.inverted)
        self.clusters = clusters(factors.current(), cache)
        try:
            self.roles = RolePosterior(supply(game.num_players, game.side_cards),
                                       [c.part for c in self.clusters], 3)
        except BadStateError as err:
            raise BadStateError(
                f"gcbc posterior: no deal is consistent with seat {self.seat}'s view") from err
        self.evidence = self.roles.evidence
        #: Per cluster, the posterior probability of each configuration.
        self.probs: list[FloatArray] = self.roles.probs
        self._latest: GCBCPosterior | None = None

    def update(self, view_json: JSON) -> GCBCPosterior:
        """The posterior for a later view of the same seat (this object keeps its own results, but
        further updates must start from the returned one). A view that does not extend this one
        is computed afresh. After a BadStateError the walk is spent: start again with
        :func:`posterior`."""
        walk = self.factors.walk
        history = view_json.get("history") if isinstance(view_json, dict) else None
        if not (isinstance(history, list) and view_json.get("seat") == self.seat
                and walk.done == self.done and len(history) >= self.done
                and (self.done == 0 or history[self.done - 1] == self.last_entry)):
            return posterior(self.game, view_json, self.model)
        _check(self.game, view_json)
        _extend(walk, history)
        self.factors.catch_up()
        return GCBCPosterior(self.game, self.factors, self.cache)

    def marginals(self) -> list[dict[str, Any]]:
        """Per seat now: ``p_honest`` (its team), ``p_agent``, ``p_kingpin``, and ``cards``: per
        position a distribution over card names (one name at 1.0 when known)."""
        return _marginals(zip(self.clusters, self.probs, strict=True), self.inverted)

    def top_leader(self) -> dict[str, int]:
        """The likeliest holder of each leader card now: ``{"agent": seat, "kingpin": seat}``.

        Seats tied within :data:`TIE` (equal in exact arithmetic, apart in the last bits after
        rounding) go to the lowest seat, so the answer does not hang on the order of a sum.
        """
        m = self.marginals()
        return {"agent": _first_top([x["p_agent"] for x in m]),
                "kingpin": _first_top([x["p_kingpin"] for x in m])}

    def sample_deal(self, view_json: JSON, rng: np.random.Generator) -> list[list[str]]:
        """A deal drawn from the posterior (per seat, its set-up cards in set-up positions).

        The belief hook of :func:`solver.games.gcbc.resample.resample`. ``view_json`` is normally
        the view this posterior was computed from; for a later view of the same seat the posterior
        is updated first (and kept for the next call). Deterministic given ``rng``.
        """
        post = self
        if not self.matches(view_json):
            if self._latest is None or not self._latest.matches(view_json):
                self._latest = self.update(view_json)
            post = self._latest
        return post._sample(rng)

    def _sample(self, rng: np.random.Generator) -> list[list[str]]:
        return [[INTEGRITY_NAMES[c] for c in hand] for hand in self.roles.sample_deal(rng)]

    def deal_probability(self, deal: Sequence[Sequence[str]]) -> float:
        """The posterior probability of one deal (per seat, set-up cards in set-up positions)."""
        try:
            flat = [INTEGRITY_NAMES.index(name) for hand in deal for name in hand]
        except (TypeError, ValueError) as err:
            raise BadStateError(f"gcbc posterior: not a deal: {deal!r:.100}") from err
        if len(flat) != 3 * self.game.num_players:
            raise BadStateError(f"gcbc posterior: a deal lists 3 cards per seat, not {deal!r:.100}")
        return self.roles.deal_probability([flat[3 * s:3 * s + 3] for s in range(self.game.num_players)])

    def matches(self, view_json: JSON) -> bool:
        """Whether ``view_json`` is the view this posterior was computed from."""
        history = view_json.get("history") if isinstance(view_json, dict) else None
        return (isinstance(history, list) and view_json.get("seat") == self.seat
                and len(history) == self.done
                and (not history or history[-1] == self.last_entry))


def _marginals(parts: Iterable[tuple[Cluster, FloatArray]], inverted: Sequence[bool]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{} for _ in inverted]
    for cl, prob in parts:
        for s, hand in cl.hands.items():  # the cards each seat holds now, not its set-up cards
            length = hand.shape[1]
            cls = hand_classes(length, inverted[s])[(hand * 4 ** np.arange(length)).sum(axis=1)]
            m = hand_marginal(s, hand, prob, len(INTEGRITY_NAMES))
            out[s] = {
                "seat": s,
                "p_honest": float(prob[(cls == 0) | (cls == 2)].sum()),  # honest, or the Agent
                "p_agent": float(m.holds[Integrity.AGENT]),
                "p_kingpin": float(m.holds[Integrity.KINGPIN]),
                "cards": [{INTEGRITY_NAMES[c]: float(dist[c]) for c in range(4) if dist[c] > 0}
                          for dist in m.cards],
            }
    return out


def _check(game: GCBCGame, view_json: JSON) -> list[Any]:
    if not isinstance(view_json, dict) or view_json.get("game") != game.name \
            or view_json.get("config") != game.config():
        raise ConfigError(f"gcbc posterior: the view is not one of {game.name!r} {game.config()!r}")
    seat, history = view_json.get("seat"), view_json.get("history")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise BadStateError(f"gcbc posterior: seat {seat!r} is not 0..{game.num_players - 1}")
    if not isinstance(history, list):
        raise BadStateError("gcbc posterior: the view has no history list")
    return history


def _extend(walk: Walk, history: list[Any]) -> None:
    try:
        walk.extend(history)
    except Contradiction as err:
        raise BadStateError(f"gcbc posterior: seat {walk.seat}'s history contradicts itself") from err
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
        raise BadStateError(f"gcbc posterior: malformed history entry ({err!r})") from err


def _factors(game: GCBCGame, view_json: JSON, model: BehaviourModel | None) -> Factors:
    history = _check(game, view_json)
    walk = Walk(game, view_json["seat"])
    _extend(walk, history)
    factors = Factors(walk, model)
    factors.catch_up()
    return factors


def posterior(game: GCBCGame, view_json: JSON, model: BehaviourModel | None = None) -> GCBCPosterior:
    """The exact posterior over deals given ``view_json`` (a seat's view as JSON).

    ``model`` None is deduction only; pass :func:`solver.belief.gcbc_behaviour.load_behaviour()`
    for the full model. Raises ConfigError for a view of another game, BadStateError for a view no
    game produces.
    """
    return GCBCPosterior(game, _factors(game, view_json, model), {})


def brute_force_posterior(game: GCBCGame, view_json: JSON,
                          model: BehaviourModel | None = None) -> list[dict[str, Any]]:
    """The marginals by enumerating every deal and every hidden permutation (tests only: slow).

    No clusters, no pruning by seat, no forward/backward pass: one weight per complete deal.
    """
    factors = _factors(game, view_json, model).current()
    walk, tables = factors.walk, admitted(factors)  # the same factor set as the clusters
    n = game.num_players
    rows = _all_deals(n, game.side_cards)
    prior = honest_prior(n, game.side_cards)[(rows == Integrity.HONEST).sum(axis=1)]
    keep = prior > 0
    for cells, table in tables.items():
        if len(cells) == 1 and isinstance(cells[0], int) and isinstance(table, np.ndarray):
            keep &= table[rows[:, cells[0]]] > 0
    rows, prior = rows[keep].astype(np.int64), prior[keep]
    pos = walk.tokens.pos
    everything = enumerate_cluster(supply(n, game.side_cards), range(n), range(len(walk.rec.perms)),
                                   walk.rec.perms, tables, {s: pos[s] for s in range(n)}, rows)
    raw = everything.part.weight
    weight = raw * np.tile(prior, len(raw) // max(len(prior), 1))
    if not weight.sum() > 0:
        raise BadStateError(f"gcbc posterior: no deal is consistent with seat {walk.seat}'s view")
    return _marginals([(everything, weight / weight.sum())], walk.inverted)


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


#: Probabilities closer than this are a tie (far below any real difference, far above rounding).
TIE = 1e-12


def _first_top(values: list[float]) -> int:
    """The lowest index whose value is within :data:`TIE` of the largest."""
    best = max(values)
    return next(i for i, v in enumerate(values) if v >= best - TIE)
