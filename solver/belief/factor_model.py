"""A behaviour model of Dr. Factor's moves, for a Bayesian filter over where he is.

Location categorisation (:mod:`solver.belief.categories`, Nijssen & Winands 2012) weighs each
possible stop by how far it is from the detectives *now*. It forgets how he got there: a stop that
only a walk towards the detectives reaches is as likely as one a run away from them reaches. A
filter that follows him move by move keeps that: with a model ``pi(move | his stop, detectives)``
of how he picks a move, the detectives' belief after each announced ticket is (Bayes, as in a
hidden Markov model's forward pass; Russell & Norvig, *AIMA*, 4th ed., section 14.2)::

    b'(s') = sum_s b(s) * pi(ticket, s' | s, detectives)    then zero where he cannot be

This module is the model ``pi``: a conditional logit (McFadden 1974, "Conditional logit analysis
of qualitative choice behavior") over his legal moves. A move ``m`` from his stop to ``s'`` by
combo ``c`` (taxi, bus, metro, or a joker on one of the four lines: the rules' move actions) has
features

    kind    the ticket spent: taxi, bus, metro, joker                      (4, one-hot)
    bucket  the distance from the nearest detective to s' over taxi/bus/metro,
            1, 2, 3, 4, 5+ (as the location categories)                    (5, one-hot)
    type    s' is a metro stop, else a bus stop, else taxi only            (3, one-hot)
    second  the same distance from the second-nearest detective
            (5+ with one detective)                                        (5, one-hot)
    close   how many detectives are within 2 moves of s': 0, 1, 2+         (3, one-hot)
    exits   how many stops one taxi/bus/metro link from s' reaches:
            up to 3, 4-6, 7+ (room to run next time)                       (3, one-hot)

and ``pi(m) = exp(theta . f(m)) / sum over his legal moves of exp(theta . f)``. ``theta`` is fitted
by maximum likelihood (Newton's method on the concave log-likelihood, with a small ridge so a
feature never seen stays finite) on the moves Dr. Factor made in recorded games
(:mod:`solver.belief.location_filter` has the command). The shipped file
``solver/games/police07/data/factor_model.json`` says which games, and how well the filter built on
it predicts his stop on held-out games compared with location categorisation.

Only his choice among moves is modelled: when to play ``double`` or (variant) ``show`` is observed
by the detectives, and the filter conditions on it without weighing it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from solver.belief.categories import BUCKETS, STOP_TYPES, stop_types
from solver.core import BadStateError
from solver.core.files import read_json, read_shipped
from solver.games.police07 import codec
from solver.games.police07.board import Board
from solver.games.police07.distances import detective_distances

MODEL_FORMAT: Final = "copsolver-police07-factor-model/1"
KINDS: Final = ("taxi", "bus", "metro", "joker")
FEATURES: Final = (
    tuple(f"kind={k}" for k in KINDS) + tuple(f"bucket={b}" for b in BUCKETS)
    + tuple(f"type={t}" for t in STOP_TYPES)
    + tuple(f"second={b}" for b in BUCKETS) + ("close=0", "close=1", "close=2+")
    + ("exits<=3", "exits=4-6", "exits=7+")
)
#: Offsets of the first feature groups in ``FEATURES`` (destination features start at ``_BUCKET``).
_KIND, _BUCKET, _TYPE = 0, len(KINDS), len(KINDS) + len(BUCKETS)
#: The ridge (L2 penalty) of the fit, per decision-weighted unit: keeps unseen features finite.
RIDGE: Final = 1.0

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class FactorModel:
    """The fitted weights ``theta`` (one per :data:`FEATURES` entry) and where they came from."""

    theta: tuple[float, ...]
    source: str = "shipped"
    provenance: dict[str, Any] = field(default_factory=dict, compare=False)

    def array(self) -> FloatArray:
        """``theta`` as a float array in :data:`FEATURES` order."""
        return np.asarray(self.theta, dtype=np.float64)

    def to_json(self, provenance: dict[str, Any]) -> dict[str, Any]:
        """The model file's content, with ``provenance`` (command, games, evaluation)."""
        return {"format": MODEL_FORMAT, "features": list(FEATURES),
                "theta": [round(t, 6) for t in self.theta], "provenance": provenance}


UNIFORM: Final = FactorModel(tuple(0.0 for _ in FEATURES), source="uniform")


def model_from_json(data: Any, source: str) -> FactorModel:
    """Check a parsed model file and return its model (BadStateError naming the fault)."""
    if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
        raise BadStateError(f"factor model {source}: not a {MODEL_FORMAT!r} file")
    if data.get("features") != list(FEATURES):
        raise BadStateError(f"factor model {source}: 'features' must be {list(FEATURES)}")
    theta = data.get("theta")
    if (not isinstance(theta, list) or len(theta) != len(FEATURES) or not all(
            isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t) for t in theta)):
        raise BadStateError(f"factor model {source}: 'theta' must be {len(FEATURES)} finite numbers")
    provenance = data.get("provenance")
    return FactorModel(tuple(float(t) for t in theta), source,
                       provenance if isinstance(provenance, dict) else {})


@lru_cache(maxsize=2)
def _shipped() -> FactorModel:
    return model_from_json(read_shipped("solver.games.police07", "data/factor_model.json"), "shipped")


def load_model(path: str | Path | None = None) -> FactorModel:
    """The model in ``path`` (a file :mod:`solver.belief.location_filter` wrote), or the shipped one."""
    if path is None:
        return _shipped()
    return model_from_json(read_json(path, "factor model"), str(path))


# --- features -------------------------------------------------------------------------------------


def buckets(board: Board, detectives: Sequence[int]) -> npt.NDArray[np.intp]:
    """Per stop (index 0 unused): the distance bucket index 0..4 from the nearest of ``detectives``."""
    if not detectives:
        return np.full(board.num_stops + 1, len(BUCKETS) - 1, dtype=np.intp)
    nearest = detective_distances(board)[np.asarray(detectives, dtype=np.intp)].min(axis=0)
    out: npt.NDArray[np.intp] = (np.clip(nearest, 1, len(BUCKETS)) - 1).astype(np.intp)
    return out


def stop_features(board: Board, detectives: Sequence[int]) -> FloatArray:
    """Per stop (row; row 0 unused): the destination features (every group but ``kind``)."""
    rows = np.zeros((board.num_stops + 1, len(FEATURES) - _BUCKET))
    index = np.arange(board.num_stops + 1)
    rows[index, buckets(board, detectives)] = 1.0
    rows[index, _TYPE - _BUCKET + stop_types(board)] = 1.0
    off = _TYPE - _BUCKET + len(STOP_TYPES)
    if len(detectives) >= 2:
        d = np.sort(detective_distances(board)[np.asarray(detectives, dtype=np.intp)], axis=0)
        rows[index, off + np.clip(d[1], 1, len(BUCKETS)) - 1] = 1.0
        close = np.minimum((d <= 2).sum(axis=0), 2)
    else:
        rows[index, off + len(BUCKETS) - 1] = 1.0
        close = np.zeros(len(index), dtype=np.intp)
        if detectives:
            close = np.minimum((detective_distances(board)[detectives[0]] <= 2).astype(np.intp), 2)
    off += len(BUCKETS)
    rows[index, off + close] = 1.0
    off += 3
    rows[index, off + _exit_class(board)] = 1.0
    return rows


@lru_cache(maxsize=8)
def _exit_class(board: Board) -> npt.NDArray[np.intp]:
    exits = np.zeros(board.num_stops + 1, dtype=np.intp)
    for s in board.stops:
        exits[s] = len({n for line in range(3) for n in board.neighbours[line][s]})
    out: npt.NDArray[np.intp] = np.where(exits <= 3, 0, np.where(exits <= 6, 1, 2)).astype(np.intp)
    return out


def stop_score(board: Board, theta: FloatArray, detectives: Sequence[int]) -> FloatArray:
    """Per stop: the destination part of ``theta . f`` for a move ending there."""
    out: FloatArray = stop_features(board, detectives) @ theta[_BUCKET:]
    return out


def move_features(board: Board, moves: Sequence[int], detectives: Sequence[int]) -> FloatArray:
    """The feature rows (one per move action of ``moves``) of a decision."""
    per_stop = stop_features(board, detectives)
    rows = np.zeros((len(moves), len(FEATURES)))
    for i, action in enumerate(moves):
        ticket, _line, stop = codec.decode_move(action)
        rows[i, _KIND + min(int(ticket), 3)] = 1.0
        rows[i, _BUCKET:] = per_stop[stop]
    return rows


@dataclass(frozen=True)
class Decision:
    """One move Dr. Factor made: the feature rows of his legal moves and the index he chose."""

    rows: FloatArray
    chosen: int


def log_likelihood(theta: FloatArray, decisions: Sequence[Decision]) -> float:
    """The total log-probability ``theta`` gives the chosen moves."""
    total = 0.0
    for d in decisions:
        z = d.rows @ theta
        top = z.max()
        total += float(z[d.chosen] - top - math.log(np.exp(z - top).sum()))
    return total


def fit(decisions: Sequence[Decision], ridge: float = RIDGE, steps: int = 50) -> FloatArray:
    """Maximum-likelihood ``theta`` (ridge-penalised) by Newton's method."""
    theta = np.zeros(len(FEATURES))
    eye = np.eye(len(FEATURES))
    for _ in range(steps):
        grad = -ridge * theta
        hess = -ridge * eye
        for d in decisions:
            z = d.rows @ theta
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ d.rows
            grad += d.rows[d.chosen] - mean
            centred = d.rows - mean
            hess -= (centred * p[:, None]).T @ centred
        step = np.linalg.solve(hess, grad)
        theta = theta - step
        if float(np.abs(step).max()) < 1e-9:
            break
    return theta
