"""LineUp memory: what a seat recalls of a studied Suspect card, and how well it identifies it.

**The model.** A studied card is a vector of features (``hair``, ``hat`` ...; feature ``f`` has
``k_f`` values). At identification time each feature is, independently, either *remembered* (the
true value is recalled) with probability ``s``, or lost, and then *guessed* uniformly among its
``k_f`` values. This is the discrete-slot + guessing mixture model of visual working memory (Zhang &
Luck 2008, "Discrete fixed-resolution representations in visual working memory", Nature 453), with
Ebbinghaus-style exponential forgetting (Ebbinghaus 1885; Murre & Dros 2015, PLoS ONE 10) and a
penalty per extra card held (interference)::

    s(level, age, load) = s0 * exp(-age / tau) * beta ** (load - 1)          (perfect: s = 1)
    P(feature recalled right) = s + (1 - s) / k_f

``age`` is the number of the seat's own turns begun since the study moment (a card studied at a
scene and lined up on arrival at the station next turn has age 1); ``load`` is the number of
face-down cards the seat holds when it asks for the lineup, this one included. Parameters per level
are :data:`LEVELS` (the table with the probabilities they give is in docs/lineup-bots.md).

**Identification.** Given the recalled vector ``r`` and the lineup's cards (uniform prior over the
stands), the posterior of stand ``j`` is proportional to ``prod_f P(r_f | c_jf)`` with
``P(r_f | c_f) = s + (1 - s)/k_f`` when they agree and ``(1 - s)/k_f`` otherwise; the seat picks the
argmax, ties broken uniformly by its generator.

**Randomness.** A bot draws, at the study moment, one uniform ``u_f`` and one guess ``g_f`` per
feature (:meth:`Memory.study`), from its own ``numpy`` Generator; at identification feature ``f`` is
remembered iff ``u_f < s(level, age, load)``. So a feature once forgotten stays forgotten as ``s``
falls, and at every age the recall has exactly the model's distribution. Only the tie-break is
drawn at pick time. The bot keeps only the features the view showed while ``studying`` (never the
card id), so its memory is its own state and works the same in-process and over the seat protocol.

**Exact P(correct)** (:func:`p_correct`): the innocents are a uniform random subset of the scene's
other cards (cards held face down elsewhere are treated as still in the deck). For each possible
guilty card ``g`` and each recall vector ``r`` (all ``prod k_f`` of them, 6400 for the stand-in),
with ``a`` other cards scoring higher than ``g`` and ``t`` tying, the chance of a right pick is
``sum_j C(t,j) C(N-a-t, m-j) / C(N,m) / (1+j)`` (no better card drawn, ``j`` tying cards drawn,
uniform tie-break) for ``m`` innocents out of ``N``; it is weighted by ``P(r | g)`` and averaged
over ``g``. This is exact enumeration, vectorised with numpy, cached per (scene shape, s).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Any, Final

import numpy as np

from solver.core import ConfigError
from solver.games.lineup.content import Suspects


@dataclass(frozen=True)
class Level:
    """A memory level: retention at study ``s0``, time constant ``tau`` (turns), per-extra-card ``beta``."""

    name: str
    s0: float
    tau: float
    beta: float

    def retention(self, age: int, load: int) -> float:
        """``s``: the chance a feature is truly remembered at ``age`` turns with ``load`` cards held."""
        if self.tau == math.inf:
            return self.s0
        return self.s0 * math.exp(-max(0, age) / self.tau) * self.beta ** max(0, load - 1)


#: The memory levels (perfect: every feature always remembered).
LEVELS: Final[dict[str, Level]] = {
    "child": Level("child", 0.80, 5.0, 0.75),
    "adult": Level("adult", 0.92, 10.0, 0.85),
    "sharp": Level("sharp", 0.98, 25.0, 0.95),
    "perfect": Level("perfect", 1.0, math.inf, 1.0),
}
DEFAULT_LEVEL: Final = "adult"


def level(name: str) -> Level:
    """The :class:`Level` called ``name``; ConfigError naming the choices otherwise."""
    if name not in LEVELS:
        raise ConfigError(f"lineup memory: unknown level {name!r}; levels: {', '.join(LEVELS)}")
    return LEVELS[name]


@dataclass
class Trace:
    """The memory of one studied card: its features as seen, and the draws fixed at study time."""

    scene: str
    features: tuple[str, ...]
    study_turn: int  # the seat's own-turn number at the study moment
    u: tuple[float, ...]
    guess: tuple[str, ...]

    def recall(self, s: float) -> tuple[str, ...]:
        """The recalled vector at retention ``s`` (feature kept iff its ``u`` < ``s``)."""
        return tuple(f if u < s else g for f, u, g in zip(self.features, self.u, self.guess, strict=True))


@dataclass
class Memory:
    """A seat's notes: one :class:`Trace` per face-down card, in the order held (index = held - 1)."""

    values: dict[str, tuple[str, ...]]  # feature name -> its values (the deck's table)
    traces: list[Trace | None] = field(default_factory=list)

    def study(self, held: int, scene: str, features: dict[str, Any], own_turn: int,
              rng: np.random.Generator) -> None:
        """Note the study moment of face-down card ``held`` (from 1): draw its recall once."""
        names = tuple(self.values)
        seen = tuple(str(features[n]) for n in names)
        u = tuple(float(x) for x in rng.random(len(names)))
        guess = tuple(self.values[n][int(rng.integers(len(self.values[n])))] for n in names)
        while len(self.traces) < held:
            self.traces.append(None)
        self.traces[held - 1] = Trace(scene, seen, own_turn, u, guess)

    def drawn(self) -> None:
        """A card was drawn: a slot for it (filled by its study moment)."""
        self.traces.append(None)

    def lined_up(self, held: int) -> Trace | None:
        """Face-down card ``held`` (from 1) leaves the hand for a lineup; its trace is returned."""
        if 1 <= held <= len(self.traces):
            return self.traces.pop(held - 1)
        return None


def likelihoods(level_s: float, recalled: tuple[str, ...], cards: list[tuple[str, ...]],
                values: dict[str, tuple[str, ...]]) -> np.ndarray:
    """Posterior over ``cards`` (uniform prior) of being the card recalled as ``recalled``."""
    ks = [len(v) for v in values.values()]
    weights = np.ones(len(cards))
    for j, card in enumerate(cards):
        for f, k in enumerate(ks):
            weights[j] *= level_s + (1 - level_s) / k if card[f] == recalled[f] else (1 - level_s) / k
    total = weights.sum()
    return weights / total if total > 0 else np.full(len(cards), 1 / len(cards))


def pick(level_s: float, recalled: tuple[str, ...], cards: list[tuple[str, ...]],
         values: dict[str, tuple[str, ...]], rng: np.random.Generator) -> tuple[int, np.ndarray]:
    """The stand (0-based) with the largest posterior, ties broken by ``rng``; and the posterior."""
    post = likelihoods(level_s, recalled, cards, values)
    best = np.flatnonzero(post >= post.max() * (1 - 1e-12))
    return int(best[int(rng.integers(len(best)))]) if len(best) > 1 else int(best[0]), post


# --- exact P(correct) -------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _recall_table(deck: tuple[tuple[str, ...], ...], ks: tuple[int, ...],
                  values: tuple[tuple[str, ...], ...]) -> np.ndarray:
    """``match[r, c, f]``: recall vector r agrees with card c on feature f (every r enumerated)."""
    vectors = np.array(list(product(*[range(k) for k in ks])), dtype=np.int8)  # (R, F)
    cards = np.array([[values[f].index(v) for f, v in enumerate(card)] for card in deck], dtype=np.int8)
    return np.asarray(vectors[:, None, :] == cards[None, :, :])


@lru_cache(maxsize=64)
def _tie_table(n: int) -> np.ndarray:
    """``T[m, a, t]``: chance of a right pick with ``m`` innocents of ``n``, a better and t tying."""
    table = np.zeros((n + 1, n + 1, n + 1))
    for m in range(n + 1):
        total = math.comb(n, m)
        for a in range(n + 1):
            for t in range(n + 1 - a):
                b = n - a - t
                table[m, a, t] = sum(
                    math.comb(t, j) * math.comb(b, m - j) / (1 + j) for j in range(min(t, m) + 1)
                ) / total
    return table


@lru_cache(maxsize=4096)
def _p_by_size(deck: tuple[tuple[str, ...], ...], ks: tuple[int, ...], values: tuple[tuple[str, ...], ...],
               s: float) -> tuple[float, ...]:
    """P(correct) for lineup sizes 1..len(deck), retention ``s``, the guilty card uniform in ``deck``."""
    match = _recall_table(deck, ks, values)
    k = np.array(ks, dtype=float)
    with np.errstate(divide="ignore"):
        log_hit = np.log(s + (1 - s) / k)
        log_miss = np.log((1 - s) / k)
    # score[r, c] = log P(r | c); the mask keeps -inf (s = 1) out of the arithmetic
    score = np.where(match, log_hit, log_miss).sum(axis=2)
    n_cards = len(deck)
    table = _tie_table(n_cards - 1)
    out = np.zeros(n_cards)
    for g in range(n_cards):
        mine = score[:, g]
        weight = np.exp(mine)
        live = weight > 0
        others = np.delete(score[live], g, axis=1)
        ref = mine[live][:, None]
        tol = 1e-9 * np.maximum(1.0, np.abs(ref))
        better = (others > ref + tol).sum(axis=1)
        tie = (np.abs(others - ref) <= tol).sum(axis=1)
        w = weight[live]
        for m in range(n_cards):
            out[m] += float(w @ table[m, better, tie])
    return tuple(float(x) for x in out / n_cards)


def p_correct(suspects: Suspects, scene: str, s: float, size: int) -> float:
    """Exact P(right pick) for a card of ``scene`` recalled at retention ``s`` in a lineup of ``size``."""
    if scene not in suspects.scenes:
        raise ConfigError(f"lineup memory: unknown scene {scene!r}")
    table = _values(suspects)
    ks = tuple(len(table[f]) for f in suspects.features)
    # relabel each feature's values by first use in the deck: P(correct) is invariant under it, and
    # scenes built alike (the stand-in's six) then share one cache entry
    order: list[dict[str, str]] = [{} for _ in ks]
    for card in suspects.scenes[scene]:
        for f, v in enumerate(card.values):
            order[f].setdefault(v, str(len(order[f])))
    deck = tuple(tuple(order[f][v] for f, v in enumerate(card.values)) for card in suspects.scenes[scene])
    values = tuple(tuple(str(i) for i in range(k)) for k in ks)
    size = max(1, min(size, len(deck)))
    return _p_by_size(deck, ks, values, round(min(1.0, max(0.0, s)), 12))[size - 1]


def _values(suspects: Suspects) -> dict[str, tuple[str, ...]]:
    """Feature name -> the values the cards use, sorted (``Suspects`` keeps no other table; for the
    stand-in deck they are exactly the file's values)."""
    out: dict[str, list[str]] = {f: [] for f in suspects.features}
    for cards in suspects.scenes.values():
        for card in cards:
            for f, v in zip(suspects.features, card.values, strict=True):
                if v not in out[f]:
                    out[f].append(v)
    return {f: tuple(sorted(v)) for f, v in out.items()}


def feature_values(suspects: Suspects) -> dict[str, tuple[str, ...]]:
    """The value table memory uses (feature name -> values)."""
    return _values(suspects)
