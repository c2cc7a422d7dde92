"""The behaviour model: how likely each public choice is for a player of each kind.

A player's *class* at a decision comes from the cards it holds then [Integridad]: ``agent`` (holds
the Agent), ``kingpin`` (holds the Kingpin), else ``honest`` or ``crooked`` by majority (counted the
other way under a 4th-edition Planted Evidence marker); or, under the ``hand`` scheme
(:data:`SCHEMES`), the multiset of cards it holds. The model scores the public decisions that
:mod:`solver.belief.gcbc_walk` lists, each a choice among options with features:

* ``announce``: the action [Como se Juega: Actúa]: ``equip``, ``arm``, ``shoot:<cat>`` (what the
  aimed-at seat shows), one ``inv:<cat>`` option per face-down card of another living seat;
* ``aim``: ``<cat>`` of each living seat it could aim at [Apunta, Armas];
* ``play``: a targeted Equipment card, ``<card>:<cat>`` (or ``<card>:self``) per possible target;
* ``flip``: which own face-down card it turned face up (Equip, Arm, Truth Serum, Report Audit);
  the feature is that card (``honest``, ``crooked``, ``agent``, ``kingpin``);
* ``give``: which own card it gave away with a Blackmail (stand-in); the feature is that card;
* ``aimed``: what a seat it aimed at turned out to be once that seat's whole hand came face up
  (``A``, ``K``, ``h``, ``c``, ``m``: :data:`gcbc_walk.OUTCOMES`), on the aimer's class when it aimed.

``<cat>`` is what a seat's face-up cards show to everyone (:meth:`gcbc_walk.Walk.shows`: ``A``/``K``,
the face-up Honest and Crooked cards such as ``h``, ``hh``, ``hc``, or ``u``). The probability of
a choice is a conditional logit with one weight per (kind, class, feature)::

    P(chosen | class) = w[kind][class][f(chosen)] / sum over options o of w[kind][class][f(o)]

and the posterior multiplies ``P ** temper`` over decisions: the decisions of one player are not
independent (they share what it saw), and the tempering exponent, fitted on held-out games, is the
stated correction. Window passes, untargeted plays and hidden choices are not scored (likelihood 1):
whether a seat plays depends on an Equipment card the others cannot see.

**Pair factors.** The heuristic also acts on the cards it investigated. Which cell an actor saw is
public and its card is part of the deal, so an ``aim`` or an announcement of an actor that had seen
face-down cards of the seats its options are about (:class:`gcbc_walk.Known`) gets a second model,
``P(chosen | class, seen cards)``: a conditional logit with features ``<public feature>|<seen cards>``
(``w["aim-seen"]``, ``w["announce-seen"]``), a table over the actor's hand and the seen cells
(:meth:`BehaviourModel.known_table`). Its normaliser depends on hidden cards only through what the
actor saw, so it is exact on those cells. It merges the actor's cluster with the seen seats', so
:func:`solver.belief.gcbc_clusters.admitted` multiplies it in only while the merged cluster stays
small (:attr:`BehaviourModel.pair_seats`); otherwise the single-seat choice stands alone.

The weights are maximum a posteriori estimates from self-play (the MM algorithm for the
conditional logit, Hunter 2004, "MM algorithms for generalized Bradley-Terry models", with a
Gamma prior of ``alpha`` pseudo-choices at weight 1), made by :mod:`bots.gcbc.calibrate`;
the shipped file names the command that produced it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from solver.belief.gcbc_walk import Choice, Known
from solver.core import BadStateError, ConfigError
from solver.core.files import read_json, read_shipped
from solver.games.gcbc.deal import INTEGRITY_NAMES, Integrity

FORMAT: Final = "copsolver-gcbc-behaviour/1"
CLASSES: Final = ("honest", "crooked", "agent", "kingpin")
KINDS: Final = ("announce", "aim", "play", "flip", "give", "aimed")
HIDDEN_KINDS: Final = frozenset({"flip", "give"})  # features are the actor's own cards
#: The pair factors' weights: ``w["<kind>-seen"][class]["<public feature>|<seen cards>"]``.
KNOWN_SUFFIX: Final = "-seen"
SHIPPED: Final = "shipped"

Table = npt.NDArray[np.float64]


@lru_cache(maxsize=4)
def hand_ids(length: int) -> npt.NDArray[np.int64]:
    """Every hand of ``length`` cards: row ``i`` holds the cards of hand index
    ``i = sum(card[p] * 4 ** p)`` (the index layout every table uses)."""
    idx = np.arange(4 ** length)
    return np.stack([(idx // 4 ** p) % 4 for p in range(length)], axis=1)


@lru_cache(maxsize=8)
def hand_classes(length: int, inverted: bool) -> npt.NDArray[np.int64]:
    """The class index (into :data:`CLASSES`) of every hand of ``length`` cards."""
    ids = hand_ids(length)
    agent = (ids == Integrity.AGENT).any(axis=1)
    kingpin = (ids == Integrity.KINGPIN).any(axis=1)
    honest = (ids == Integrity.HONEST).sum(axis=1)
    crooked = (ids == Integrity.CROOKED).sum(axis=1)
    if inverted:
        honest, crooked = crooked, honest
    team = np.where(crooked > honest, 1, 0)
    return np.where(agent, 2, np.where(kingpin, 3, team)).astype(np.int64)


#: The finer classes of ``scheme: "hand"``: the cards a hand holds, as a multiset (letters of
#: :data:`LETTERS` sorted, e.g. ``AHH``, ``CCH``; ``~`` under a Planted Evidence marker). The
#: heuristic judges everyone else from the cards it does not hold itself, so its choices depend on its
#: whole hand, not only on its class: in the training games an Agent holding two Honest cards chose
#: to arm 43% of the time, one holding two Crooked cards 26%.
LETTERS: Final = "AKHC"
HANDS: Final = tuple(
    "".join(LETTERS[x] for x in combo) + mark
    for length in (1, 2, 3) for combo in combinations_with_replacement(range(4), length)
    for mark in ("", "~"))
#: Class schemes: the class names a model's weights are listed by.
SCHEMES: Final[dict[str, tuple[str, ...]]] = {"team": CLASSES, "hand": HANDS}


def hand_name(cards: Sequence[int], inverted: bool) -> str:
    """The ``hand`` class of one hand, e.g. ``CCH``."""
    return "".join(LETTERS[x] for x in sorted(cards)) + ("~" if inverted else "")


@lru_cache(maxsize=16)
def hand_groups(scheme: str, length: int, inverted: bool) -> npt.NDArray[np.int64]:
    """The class index (into ``SCHEMES[scheme]``) of every hand of ``length`` cards."""
    if scheme == "team":
        return hand_classes(length, inverted)
    index = {name: i for i, name in enumerate(HANDS)}
    return np.array([index[hand_name(row, inverted)] for row in hand_ids(length).tolist()], dtype=np.int64)


def class_of(cards: Sequence[int], inverted: bool, scheme: str = "team") -> int:
    """The class index of one hand."""
    return int(hand_groups(scheme, len(cards), inverted)[sum(c * 4 ** p for p, c in enumerate(cards))])


@dataclass
class BehaviourModel:
    """Choice weights per kind, class and feature, and the tempering exponent."""

    weights: dict[str, list[dict[str, float]]]
    temper: float = 1.0
    meta: dict[str, Any] = field(default_factory=dict)
    #: The cluster-size rule of the pair factors (at most this many seats per merged cluster; below
    #: 2, no pair factors): see :func:`solver.belief.gcbc_clusters.admitted`.
    pair_seats: int = 0
    #: The class scheme (a key of :data:`SCHEMES`): ``weights[kind]`` lists one dict per class.
    scheme: str = "team"

    def __post_init__(self) -> None:
        if self.scheme not in SCHEMES:
            raise ConfigError(f"gcbc behaviour model: class scheme {self.scheme!r} is not one of "
                              f"{sorted(SCHEMES)}")

    @property
    def classes(self) -> tuple[str, ...]:
        """The class names of :attr:`scheme`."""
        return SCHEMES[self.scheme]

    def weight(self, kind: str, cls: int, feature: str) -> float:
        """``w[kind][class][feature]``; 1 for a feature the training games never offered."""
        per_class = self.weights.get(kind)
        return per_class[cls].get(feature, 1.0) if per_class else 1.0

    def table(self, choice: Choice) -> Table:
        """``P(choice | hand) ** temper`` for every hand the actor could hold (see :func:`hand_ids`)."""
        length = len(choice.cells)
        classes = hand_groups(self.scheme, length, choice.inverted)
        if choice.kind in HIDDEN_KINDS:
            ids = hand_ids(length)
            w = np.array([[self.weight(choice.kind, c, name) for name in INTEGRITY_NAMES]
                          for c in range(len(self.classes))])
            per_pos = w[classes[:, None], ids]  # weight of the card at each position, per hand
            options = [int(p) for p in choice.options]
            probs = per_pos[:, int(choice.chosen)] / per_pos[:, options].sum(axis=1)
        else:
            by_class = np.empty(len(self.classes))
            for c in range(len(self.classes)):
                total = sum(self.weight(choice.kind, c, str(o)) for o in choice.options)
                by_class[c] = self.weight(choice.kind, c, str(choice.chosen)) / total
            probs = by_class[classes]
        return np.asarray(probs ** self.temper, dtype=np.float64)

    def known_table(self, known: Known) -> Table | None:
        """The pair factor of a :class:`Known` decision, over the actor's hand and the seen cells
        (index ``hand + 4 ** len(actor's cells) * seen``), or None (no such weights, nothing seen,
        or more seats than :attr:`pair_seats` allows, which :func:`gcbc_clusters.admitted` would
        refuse anyway).

        ``P(chosen | class, seen cards)`` is the conditional logit over the options with features
        ``<public feature>|<seen cards>`` (:func:`fit_known`). Its normaliser runs over the options
        only through what the actor saw, so it is exact on these cells. When the walk scores the
        decision as a single-seat choice as well, the factor is divided by that choice's
        probability: with both, the product is the full model; without this factor (not admitted),
        the single-seat model stands. ``** temper`` as every factor."""
        per_class = self.weights.get(known.kind + KNOWN_SUFFIX)
        cells = known.seen()
        if not per_class or not cells or known.seats() >= self.pair_seats:
            return None
        ids = hand_ids(len(cells))
        column = {c: i for i, c in enumerate(cells)}
        weights = np.empty((len(self.classes), len(known.options), len(ids)))
        for o, (feature, seen) in enumerate(known.options):
            names = [seen_name(feature, row) for row in ids[:, [column[c] for c in seen]].tolist()]
            for c in range(len(self.classes)):
                plain = per_class[c].get(f"{feature}|", 1.0)  # a combination training never offered
                lookup = {n: per_class[c].get(f"{feature}|{n}", plain) for n in set(names)}
                weights[c, o] = [lookup[n] for n in names]
        prob = weights[:, known.chosen] / weights.sum(axis=1)  # [class, seen cards]
        if known.scored:
            public = [f for f, _ in known.options]
            single = [self.weight(known.kind, c, public[known.chosen])
                      / sum(self.weight(known.kind, c, f) for f in public) for c in range(len(self.classes))]
            prob = prob / np.array(single)[:, None]
        left = hand_groups(self.scheme, len(known.cells), known.inverted)
        return np.asarray(prob[left[None, :], np.arange(len(ids))[:, None]].ravel() ** self.temper,
                          dtype=np.float64)

    def to_json(self) -> dict[str, Any]:
        """The file format (see :func:`load_behaviour`)."""
        extra: dict[str, Any] = {"pair_seats": self.pair_seats} if self.pair_seats else {}
        if self.scheme != "team":
            extra["scheme"] = self.scheme
        names = self.classes
        return {"format": FORMAT, **self.meta, **extra, "temper": self.temper, "classes": list(names),
                "weights": {k: {names[c]: dict(sorted(w.items())) for c, w in enumerate(per) if w}
                            for k, per in self.weights.items()}}


def load_behaviour(path: str | Path | None = None) -> BehaviourModel:
    """The shipped model (``solver/belief/data/gcbc_behaviour.json``) or a file of the same format."""
    if path is None or path == SHIPPED:
        data = read_shipped("solver.belief", "data/gcbc_behaviour.json")
    else:
        data = read_json(path, "gcbc behaviour model")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadStateError(f"gcbc behaviour model {path or SHIPPED!r}: format is not {FORMAT!r}")
    scheme = data.get("scheme", "team")
    if not isinstance(scheme, str) or scheme not in SCHEMES:
        raise BadStateError(f"gcbc behaviour model {path or SHIPPED!r}: class scheme {scheme!r} is not "
                            f"one of {sorted(SCHEMES)}")
    names = SCHEMES[scheme]
    try:
        weights = {kind: [{str(f): float(v) for f, v in per.get(name, {}).items()} for name in names]
                   for kind, per in data["weights"].items()}
        strays = {str(c) for per in data["weights"].values() for c in per} - set(names)
        temper = float(data["temper"])
        pair_seats = int(data.get("pair_seats", 0))
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise BadStateError(f"gcbc behaviour model {path or SHIPPED!r}: bad weights ({err!r})") from err
    if strays:
        raise BadStateError(f"gcbc behaviour model {path or SHIPPED!r}: classes {sorted(strays)} are not "
                            f"classes of scheme {scheme!r}")
    if temper <= 0 or any(v <= 0 for per in weights.values() for w in per for v in w.values()):
        raise BadStateError(f"gcbc behaviour model {path or SHIPPED!r}: weights and temper must be > 0")
    meta = {k: v for k, v in data.items()
            if k not in ("format", "temper", "classes", "weights", "pair_seats", "scheme")}
    return BehaviourModel(weights, temper, meta, pair_seats, scheme)


def features(choice: Choice, cards: Sequence[int]) -> tuple[str, list[str]]:
    """The chosen feature and the options' features, given the actor's true ``cards`` (training)."""
    if choice.kind in HIDDEN_KINDS:
        return INTEGRITY_NAMES[cards[int(choice.chosen)]], [INTEGRITY_NAMES[cards[int(p)]]
                                                          for p in choice.options]
    return str(choice.chosen), [str(o) for o in choice.options]


def fit(samples: Sequence[tuple[Choice, Sequence[int]]], alpha: float = 1.0,
        iterations: int = 200, scheme: str = "team") -> dict[str, list[dict[str, float]]]:
    """MAP weights from decisions with the actor's true cards (see the module docstring).

    For one (kind, class): with ``C_f`` the times feature ``f`` was chosen and ``n_f(d)`` how many
    options of decision ``d`` have it, iterate ``w_f = (C_f + alpha) / (sum_d n_f(d) / Z_d + alpha)``,
    ``Z_d = sum_f n_f(d) w_f``: each step raises the penalised likelihood (Hunter 2004). Classes
    are those of ``scheme`` (a key of :data:`SCHEMES`).
    """
    groups: dict[tuple[str, int], list[tuple[str, list[str]]]] = {}
    for choice, cards in samples:
        cls = class_of(cards, choice.inverted, scheme)
        groups.setdefault((choice.kind, cls), []).append(features(choice, cards))
    out: dict[str, list[dict[str, float]]] = {}
    for (kind, cls), rows in sorted(groups.items()):
        per = out.setdefault(kind, [{} for _ in SCHEMES[scheme]])
        per[cls] = _mm(rows, alpha, iterations)
    return out


def _mm(rows: Sequence[tuple[str, Sequence[str]]], alpha: float, iterations: int) -> dict[str, float]:
    """The MM iteration of :func:`fit` for one group of (chosen feature, options' features)."""
    names = sorted({f for chosen, opts in rows for f in [chosen, *opts]})
    index = {f: i for i, f in enumerate(names)}
    counts = np.zeros((len(rows), len(names)))
    chosen = np.zeros(len(names))
    for d, (pick, opts) in enumerate(rows):
        for o in opts:
            counts[d, index[o]] += 1
        chosen[index[pick]] += 1
    w = np.ones(len(names))
    for _ in range(iterations):
        z = counts @ w
        w = (chosen + alpha) / (counts.T @ (1.0 / z) + alpha)
    return {f: float(v) for f, v in zip(names, w, strict=True)}


def fit_known(samples: Sequence[tuple[Known, Sequence[int], Sequence[Sequence[int]]]],
              alpha: float = 1.0, iterations: int = 200, scheme: str = "team"
              ) -> dict[str, list[dict[str, float]]]:
    """The pair factors' weights from (decision, the actor's true cards, per option the true cards
    it had seen): per kind and class a conditional logit with features ``<public feature>|<seen
    cards>`` (``w["aim-seen"]``, ``w["announce-seen"]``), fitted like :func:`fit`."""
    groups: dict[tuple[str, int], list[tuple[str, list[str]]]] = {}
    for known, cards, seen in samples:
        cls = class_of(cards, known.inverted, scheme)
        opts = [f"{feature}|{seen_name(feature, got)}"
                for (feature, _), got in zip(known.options, seen, strict=True)]
        groups.setdefault((known.kind, cls), []).append((opts[known.chosen], opts))
    out: dict[str, list[dict[str, float]]] = {}
    for (kind, cls), rows in sorted(groups.items()):
        out.setdefault(kind + KNOWN_SUFFIX, [{} for _ in SCHEMES[scheme]])[cls] = _mm(rows, alpha, iterations)
    return out


def seen_name(feature: str, cards: Sequence[int]) -> str:
    """The seen cards of a :class:`Known` option as a feature: the sorted card names (for ``arm``,
    whose cards span every seat seen, the distinct names only)."""
    names = sorted(INTEGRITY_NAMES[x] for x in cards)
    return "+".join(sorted(set(names)) if feature == "arm" else names)
