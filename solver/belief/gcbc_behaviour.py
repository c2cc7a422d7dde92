"""The behaviour model: how likely each public choice is for a player of each kind.

A player's *class* at a decision comes from the cards it holds then [Integridad]: ``agent`` (holds
the Agent), ``kingpin`` (holds the Kingpin), else ``honest`` or ``crooked`` by majority (counted the
other way under a 4th-edition Planted Evidence marker). The model scores the public decisions that
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

The weights are maximum a posteriori estimates from self-play (the MM algorithm for the
conditional logit, Hunter 2004, "MM algorithms for generalized Bradley-Terry models", with a
Gamma prior of ``alpha`` pseudo-choices at weight 1), made by :mod:`solver.belief.gcbc_calibrate`;
the shipped file names the command that produced it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from solver.belief.gcbc_walk import Choice
from solver.core import BadStateError
from solver.games.gcbc.deal import INTEGRITY_NAMES, Integrity

FORMAT: Final = "copsolver-gcbc-behaviour/1"
CLASSES: Final = ("honest", "crooked", "agent", "kingpin")
KINDS: Final = ("announce", "aim", "play", "flip", "give", "aimed")
HIDDEN_KINDS: Final = frozenset({"flip", "give"})  # features are the actor's own cards
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


def class_of(cards: Sequence[int], inverted: bool) -> int:
    """The class index of one hand."""
    return int(hand_classes(len(cards), inverted)[sum(c * 4 ** p for p, c in enumerate(cards))])


@dataclass
class BehaviourModel:
    """Choice weights per kind, class and feature, and the tempering exponent."""

    weights: dict[str, list[dict[str, float]]]
    temper: float = 1.0
    meta: dict[str, Any] = field(default_factory=dict)

    def weight(self, kind: str, cls: int, feature: str) -> float:
        """``w[kind][class][feature]``; 1 for a feature the training games never offered."""
        per_class = self.weights.get(kind)
        return per_class[cls].get(feature, 1.0) if per_class else 1.0

    def table(self, choice: Choice) -> Table:
        """``P(choice | hand) ** temper`` for every hand the actor could hold (see :func:`hand_ids`)."""
        length = len(choice.cells)
        classes = hand_classes(length, choice.inverted)
        if choice.kind in HIDDEN_KINDS:
            ids = hand_ids(length)
            w = np.array([[self.weight(choice.kind, c, name) for name in INTEGRITY_NAMES]
                          for c in range(len(CLASSES))])
            per_pos = w[classes[:, None], ids]  # weight of the card at each position, per hand
            options = [int(p) for p in choice.options]
            probs = per_pos[:, int(choice.chosen)] / per_pos[:, options].sum(axis=1)
        else:
            by_class = np.empty(len(CLASSES))
            for c in range(len(CLASSES)):
                total = sum(self.weight(choice.kind, c, str(o)) for o in choice.options)
                by_class[c] = self.weight(choice.kind, c, str(choice.chosen)) / total
            probs = by_class[classes]
        return np.asarray(probs ** self.temper, dtype=np.float64)

    def to_json(self) -> dict[str, Any]:
        """The file format (see :func:`load_behaviour`)."""
        return {"format": FORMAT, **self.meta, "temper": self.temper, "classes": list(CLASSES),
                "weights": {k: {CLASSES[c]: dict(sorted(w.items())) for c, w in enumerate(per)}
                            for k, per in self.weights.items()}}


def load_behaviour(path: str | Path | None = None) -> BehaviourModel:
    """The shipped model (``solver/belief/data/gcbc_behaviour.json``) or a file of the same format."""
    try:
        if path is None or path == SHIPPED:
            text = resources.files("solver.belief").joinpath("data/gcbc_behaviour.json").read_text()
        else:
            text = Path(path).read_text()
        data = json.loads(text)
    except (OSError, ValueError) as err:
        raise BadStateError(f"gcbc behaviour model {path or SHIPPED!r}: cannot read it ({err})") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadStateError(f"gcbc behaviour model {path or SHIPPED!r}: format is not {FORMAT!r}")
    try:
        weights = {kind: [{str(f): float(v) for f, v in per[name].items()} for name in CLASSES]
                   for kind, per in data["weights"].items()}
        temper = float(data["temper"])
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise BadStateError(f"gcbc behaviour model {path or SHIPPED!r}: bad weights ({err!r})") from err
    if temper <= 0 or any(v <= 0 for per in weights.values() for w in per for v in w.values()):
        raise BadStateError(f"gcbc behaviour model {path or SHIPPED!r}: weights and temper must be > 0")
    meta = {k: v for k, v in data.items() if k not in ("format", "temper", "classes", "weights")}
    return BehaviourModel(weights, temper, meta)


def features(choice: Choice, cards: Sequence[int]) -> tuple[str, list[str]]:
    """The chosen feature and the options' features, given the actor's true ``cards`` (training)."""
    if choice.kind in HIDDEN_KINDS:
        return INTEGRITY_NAMES[cards[int(choice.chosen)]], [INTEGRITY_NAMES[cards[int(p)]]
                                                          for p in choice.options]
    return str(choice.chosen), [str(o) for o in choice.options]


def fit(samples: Sequence[tuple[Choice, Sequence[int]]], alpha: float = 1.0,
        iterations: int = 200) -> dict[str, list[dict[str, float]]]:
    """MAP weights from decisions with the actor's true cards (see the module docstring).

    For one (kind, class): with ``C_f`` the times feature ``f`` was chosen and ``n_f(d)`` how many
    options of decision ``d`` have it, iterate ``w_f = (C_f + alpha) / (sum_d n_f(d) / Z_d + alpha)``,
    ``Z_d = sum_f n_f(d) w_f``: each step raises the penalised likelihood (Hunter 2004).
    """
    groups: dict[tuple[str, int], list[tuple[str, list[str]]]] = {}
    for choice, cards in samples:
        cls = class_of(cards, choice.inverted)
        groups.setdefault((choice.kind, cls), []).append(features(choice, cards))
    out: dict[str, list[dict[str, float]]] = {}
    for (kind, cls), rows in sorted(groups.items()):
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
        per = out.setdefault(kind, [{} for _ in CLASSES])
        per[cls] = {f: float(v) for f, v in zip(names, w, strict=True)}
    return out
