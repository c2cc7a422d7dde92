"""Location categorisation: how likely each of Dr. Factor's possible stops is, learnt from games.

Nijssen & Winands 2012 ("Monte-Carlo Tree Search for the Hide-and-Seek Game Scotland Yard", IEEE
TCIAIG 4(4)) observe that the hider is not equally likely to be at every possible location: a
hider keeps away from the seekers. They sort the possible locations into categories and give each
category a weight learnt from played games; a determinization then draws the hider's location with
probability proportional to its category's weight instead of uniformly. We do the same for Police
07; the categories and the weight formula below are ours, stated exactly.

Categories. For a possible stop ``s`` and the detective pieces on the board, ``d(s)`` is the
fewest moves from the nearest detective piece to ``s`` riding taxi, bus and metro (what detectives
ride; :func:`solver.games.police07.distances.detective_distances`, networkx shortest paths). The
*distance* scheme buckets it into five categories::

    "1"  d <= 1     a detective can step onto s next move (0 cannot occur: a detective's stop is
                    never possible, so it is folded in here)
    "2"  d == 2
    "3"  d == 3
    "4"  d == 4
    "5+" d >= 5     far away, or unreachable, or no detective placed yet

The *distance_type* scheme crosses each bucket with the stop's transport type: ``metro`` (a metro
link leaves s), else ``bus`` (a bus link leaves s), else ``taxi`` (taxi only); 15 categories named
``"<bucket>/<type>"``, e.g. ``"2/metro"``. Water piers count by their other links: the water bus
needs a joker and is rare.

Weights. Over the training decisions ``t`` (every detective decision of the self-play games where
Dr. Factor had at least two possible stops ``P_t``; with one the answer is known), with ``c(s)`` the
category of ``s`` at that decision and ``n_t(c)`` the number of stops of ``P_t`` in category ``c``::

    H_c = #{t : c(true stop at t) = c}            how often he really was in c
    E_c = sum_t n_t(c) / |P_t|                    how often a uniform draw from P_t lands in c
    w_c = (H_c + a) / (E_c + a),  a = PRIOR = 1

``sum_c H_c = sum_c E_c = T`` (the number of decisions), so without the prior ``w_c`` is
``P(true stop in c) / (average share of c among the possible stops)``: 1 when uniform sampling is
right for c, above 1 when he is there more often than uniform sampling would say. The prior is one
pseudo-decision at weight 1, so a category seen a handful of times stays near 1. A possible stop
``s`` is then drawn with probability ``w_c(s) / sum over P of w_c``.

The shipped weights (``solver/games/police07/data/location_weights.json``) come from
:mod:`bots.police07.learn_categories`; the file names the command, seeds, bots and counts that made
it. They describe how the *heuristic* Dr. Factor hides; relearn them for another Dr. Factor and
pass the file (``category_weights(game, view, weights="my_weights.json")``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import numpy as np
import numpy.typing as npt

from solver.core import JSON, BadStateError
from solver.core.files import read_json, read_shipped
from solver.games.police07.board import Board, Line
from solver.games.police07.distances import detective_distances
from solver.games.police07.locations import possible_locations

if TYPE_CHECKING:
    from solver.games.police07.rules import Police07Game

Stop: TypeAlias = int

WEIGHTS_FORMAT: Final = "copsolver-police07-location-weights/1"
BUCKETS: Final = ("1", "2", "3", "4", "5+")
STOP_TYPES: Final = ("taxi", "bus", "metro")
SCHEMES: Final = ("distance", "distance_type")
#: Pseudo-decisions at weight 1 added to every category (see the module docstring).
PRIOR: Final = 1.0
SHIPPED: Final = "shipped"


def category_names(scheme: str) -> tuple[str, ...]:
    """The category names of ``scheme``, in category-index order."""
    if scheme == "distance":
        return BUCKETS
    if scheme == "distance_type":
        return tuple(f"{b}/{t}" for b in BUCKETS for t in STOP_TYPES)
    raise BadStateError(f"location weights: unknown scheme {scheme!r} (known: {', '.join(SCHEMES)})")


@lru_cache(maxsize=16)
def stop_types(board: Board) -> npt.NDArray[np.intp]:
    """Per stop (index 0 unused): 0 taxi only, 1 bus (no metro), 2 metro (read-only, cached)."""
    types = np.zeros(board.num_stops + 1, dtype=np.intp)
    for s in board.stops:
        if board.neighbours[Line.METRO][s]:
            types[s] = 2
        elif board.neighbours[Line.BUS][s]:
            types[s] = 1
    types.setflags(write=False)
    return types


def categories(
    board: Board, stops: Sequence[Stop], detective_stops: Sequence[Stop], scheme: str = "distance_type"
) -> npt.NDArray[np.intp]:
    """The category index of each of ``stops`` (see the module docstring) given the detectives'
    stops (unplaced pieces left out)."""
    category_names(scheme)  # rejects an unknown scheme
    where = np.asarray(stops, dtype=np.intp)
    if len(detective_stops):
        table = detective_distances(board)
        nearest = table[np.asarray(detective_stops, dtype=np.intp)][:, where].min(axis=0)
        bucket = np.clip(nearest, 1, len(BUCKETS)) - 1
    else:
        bucket = np.full(len(where), len(BUCKETS) - 1, dtype=np.intp)
    if scheme == "distance":
        result: npt.NDArray[np.intp] = bucket.astype(np.intp)
    else:
        result = (bucket * len(STOP_TYPES) + stop_types(board)[where]).astype(np.intp)
    return result


@dataclass(frozen=True)
class LocationWeights:
    """One scheme's weight per category, and where the numbers came from."""

    scheme: str
    names: tuple[str, ...]
    weights: tuple[float, ...]
    #: the file read, or "shipped"
    source: str
    #: the file's provenance object (command, seeds, bots, counts)
    provenance: Mapping[str, Any]

    def array(self) -> npt.NDArray[np.float64]:
        """The weights as a float array indexed by category."""
        return np.asarray(self.weights, dtype=np.float64)


def weights_from_json(data: Any, source: str, scheme: str | None = None) -> LocationWeights:
    """Check a parsed weights file and take ``scheme`` from it (its ``default_scheme`` when None)."""
    def fail(message: str) -> BadStateError:
        return BadStateError(f"location weights {source}: {message}")

    if not isinstance(data, dict) or data.get("format") != WEIGHTS_FORMAT:
        raise fail(f"not a {WEIGHTS_FORMAT!r} file")
    schemes = data.get("schemes")
    if not isinstance(schemes, dict) or not schemes:
        raise fail("'schemes' must be an object of scheme name -> weights")
    name = scheme if scheme is not None else data.get("default_scheme")
    if not isinstance(name, str) or name not in schemes:
        raise fail(f"no scheme {name!r} (the file has {', '.join(sorted(schemes))})")
    entry = schemes[name]
    expected = category_names(name)
    if not isinstance(entry, dict) or tuple(entry.get("categories", ())) != expected:
        raise fail(f"scheme {name!r} must list the categories {list(expected)}")
    raw = entry.get("weights")
    if (not isinstance(raw, list) or len(raw) != len(expected) or not all(
            isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) and w > 0
            for w in raw)):
        raise fail(f"scheme {name!r} must give {len(expected)} finite positive weights")
    provenance = data.get("provenance")
    if not isinstance(provenance, dict):
        raise fail("'provenance' must say how the weights were made")
    return LocationWeights(name, expected, tuple(float(w) for w in raw), source, provenance)


@lru_cache(maxsize=4)
def _shipped(scheme: str | None) -> LocationWeights:
    data = read_shipped("solver.games.police07", "data/location_weights.json")
    return weights_from_json(data, SHIPPED, scheme)


def load_weights(path: str | Path | None = None, scheme: str | None = None) -> LocationWeights:
    """Weights from ``path`` (a file :mod:`bots.police07.learn_categories` wrote), or the shipped
    ones when None; ``scheme`` picks one of the file's schemes (default: the file's choice)."""
    if path is None:
        return _shipped(scheme)
    return weights_from_json(read_json(path, "location weights"), str(path), scheme)


def detective_stops(view: JSON) -> list[Stop]:
    """The stops of the detective pieces placed so far, from a view's ``pieces``."""
    return [int(p["stop"]) for p in view.get("pieces", ()) if p.get("stop")]


def category_weights(
    game: Police07Game, view: Any, weights: LocationWeights | str | Path | None = None
) -> dict[Stop, float]:
    """Probability per possible stop of Dr. Factor (summing to 1) from the category weights.

    ``view`` is a Police 07 view or its JSON; ``weights`` a :class:`LocationWeights`, a weights
    file, or None for the shipped ones. Dr. Factor's own view gives his stop probability 1; before
    he has placed his piece (free start) the result is empty. Pass the result as ``belief`` to
    ``game.resample``.
    """
    data: JSON = view.to_json() if hasattr(view, "to_json") else view
    table = weights if isinstance(weights, LocationWeights) else load_weights(weights)
    possible = sorted(possible_locations(game, data))
    if len(possible) <= 1:
        return dict.fromkeys(possible, 1.0)
    cats = categories(game.board, possible, detective_stops(data), table.scheme)
    raw = table.array()[cats]
    probs = raw / raw.sum()
    return {s: float(p) for s, p in zip(possible, probs, strict=True)}
