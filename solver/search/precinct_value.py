"""A learnt state value for Police Precinct: the chance that the good cops win from a position.

The Precinct search bots play the heuristic for a short horizon and then score the position here
instead of playing on to the end (a heuristic game is hundreds of decisions). The score is a
logistic regression over :data:`NAMES`: the tracks, the evidence placed per deck and what its stack
still holds, the murderer, punks, gangs, emergencies, patrol officers, the good team's totals (cards
held, donuts, upgrades) and, with the Dirty Cop, the loyalty deal (:data:`DIRTY`). The search scores
determinized worlds, where the deal is drawn, so the value may read it; never a hand's contents or a
deck's order (a state holds no deck order anyway).

The weights live in ``data/precinct_value.json`` (format :data:`FORMAT`), fitted by
``python -m bots.precinct.learn_value`` from heuristic self-play; the file records the command
and seed that made it (``fitted_by``). :func:`fit_logistic` is the fit (L2-regularised Newton /
IRLS in numpy), here so the engine can test and refit it without the bots package.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from solver.core import BadStateError
from solver.core.files import read_json, read_shipped
from solver.games.precinct.content import COLORS

if TYPE_CHECKING:
    from solver.games.precinct.city import City
    from solver.games.precinct.rules import PrecinctGame
    from solver.games.precinct.state import PrecinctState

FORMAT: Final = "copsolver-precinct-value/1"
SHIPPED: Final = "solver.search/data/precinct_value.json"

#: The base features (what each measures is said where :func:`_raw` computes it).
BASE: Final[tuple[str, ...]] = (
    "rounds_left", "murderer_in", "evidence_missing", "decks_open", "board_complete", "draws_needed",
    "decks_covered", "crime", "crime_near", "punks_board", "punk_supply_low", "punks_max",
    "hoods_crowded", "gangs", "murderer_punks", "murderer_dist", "emergencies", "specials", "urgent",
    "face_down", "event_deck", "patrol_board", "patrol_stock", "cards_per_cop", "donuts_per_cop",
    "upgrades_per_cop", "hospital", "tokens_per_cop", "players", "cops_out", "investigate_dist",
    "colour_max",
)
#: Hand-made interactions: what the evidence still missing means depends on the time left, and
#: once the board is complete only the race to the murderer's hood counts.
INTERACTIONS: Final[tuple[str, ...]] = (
    "missing_per_round", "draws_per_round", "complete_x_murderer_in", "complete_x_murderer_dist",
    "complete_x_murderer_punks", "complete_x_rounds_left", "crime_near_x_emergencies",
)
#: The Dirty Cop, each 0 in a game without him (so a no-dirty position reads as before). They read
#: the loyalty deal: the search scores *determinized worlds*, where the deal is drawn, and a hidden
#: dirty cop's harm is the biggest fact of such a world. Counts of seats, donuts /4, cards /7.
DIRTY: Final[tuple[str, ...]] = (
    "dirty_hidden", "dirty_underground", "dirty_exposed", "dirty_hidden_donuts", "dirty_under_donuts",
    "dirty_hidden_cards", "dirty_soon", "good_cleared", "hidden_x_rounds_left", "hidden_x_missing",
)
NAMES: Final[tuple[str, ...]] = BASE + INTERACTIONS + DIRTY
#: The direction each of these features must push the value (+1 up, -1 down), imposed by the fit:
#: the evidence measures are nearly collinear, and an unconstrained fit gives some of them the
#: wrong sign (more missing evidence "helps" at a fixed number of draws), which would make a search
#: prefer positions with less evidence placed. With these signs, placing evidence or a quieter
#: crime track never lowers the value (tests/test_precinct_value.py checks it on edited states).
SIGNS: Final[dict[str, int]] = {
    "evidence_missing": -1, "decks_open": -1, "draws_needed": -1, "missing_per_round": -1,
    "draws_per_round": -1, "board_complete": +1, "crime": -1, "crime_near": -1,
    "crime_near_x_emergencies": -1,
    # the Dirty Cop: a dirty seat can always play as a good one, so one hidden at the table cannot
    # help; donuts in dirty hands are sabotage (spent against rolls, kept through a reveal); an
    # exposed dirty cop is a self-revealed one without his loyalty skill (the rules' penalty).
    "dirty_hidden": -1, "dirty_hidden_donuts": -1, "dirty_under_donuts": -1, "dirty_exposed": +1,
}

#: Scales that bring each raw count near [0, 1] (so one L2 penalty suits every feature).
_ROUNDS: Final = 10.0  # the turn track's length from the 4-player start (12) to FAIL (22)
_DRAWS: Final = 20.0  # expected investigation cards to draw for the whole board at the start
_EMERGENCIES: Final = 8.0
_SPECIALS: Final = 4.0
_HAND: Final = 7.0  # the hand limit
_DONUTS: Final = 4.0
_UPGRADES: Final = 3.0
_DIST: Final = 6.0


@dataclass(frozen=True)
class _Consts:
    """Per-game constants the features read on every call (computed once per game object)."""

    need: tuple[int, ...]  # evidence each deck needs
    total_need: int
    fail_turn: int
    crime_fail: int
    punks: int  # street punks in play (the set-up chart's row)
    officers: int
    events: int  # event cards in the deck
    special: tuple[bool, ...]  # per event kind
    station: int
    hood_dist: tuple[tuple[int, ...], ...]  # [hood 1..6 - 1][street] fewest moves to that hood
    dist: tuple[tuple[int, ...], ...]  # [street][street] fewest moves, nothing blocked
    building: dict[str, int]  # building name -> the street it is entered from
    colour: tuple[int, ...]  # per event kind: its colour's index (-1 for a special)


_consts: dict[int, tuple[Any, _Consts]] = {}


@lru_cache(maxsize=8)
def _hood_dist(city: City) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(min(city.distance(s, t) for t in members) for s in range(len(city.streets)))
                 for members in city.hood_streets)


@lru_cache(maxsize=8)
def _dist(city: City) -> tuple[tuple[int, ...], ...]:
    n = len(city.streets)
    return tuple(tuple(city.distance(s, t) for t in range(n)) for s in range(n))


def _of(game: PrecinctGame) -> _Consts:
    hit = _consts.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    c = game.content
    need = tuple(e for e, _ in c.decks)
    made = _Consts(need=need, total_need=max(1, sum(need)), fail_turn=c.fail_turn, crime_fail=c.crime_fail,
                   punks=max(1, game.punks), officers=max(1, game.patrol_officers),
                   events=max(1, sum(c.event_counts)), special=tuple(bool(e.special) for e in c.events),
                   station=game.station, hood_dist=_hood_dist(game.city), dist=_dist(game.city),
                   building=dict(game.city.buildings),
                   colour=tuple(-1 if e.special else COLORS.index(e.color) if e.color in COLORS else 0
                                for e in c.events))
    if len(_consts) > 64:  # games made and dropped by tests: keep the table small
        _consts.clear()
    _consts[id(game)] = (game, made)
    return made


def _self_revealed(st: PrecinctState) -> int:
    """Bitmask of the seats that revealed themselves (a ``reveal`` action of their own).

    An underground seat either revealed or was exposed by an accusation, and the state keeps no flag
    for which: the action records tell. Records only grow and a clone shares their prefix and copies
    the attribute, so the scan is cached on the state and resumed where it stopped, if the record
    it stopped at is still there (called only once someone is underground).
    """
    records = st.records
    done, last, mask = getattr(st, "_pv_revealed", (0, None, 0))
    if done > len(records) or (done and records[done - 1] is not last):
        done, mask = 0, 0  # records rewritten (a test's edit): scan afresh
    if done < len(records):
        for seat in [r[0] for r in records[done:] if r[1] == "reveal"]:
            mask |= 1 << seat
        st._pv_revealed = (len(records), records[-1], mask)  # type: ignore[attr-defined]
    return int(mask)


def _raw(st: PrecinctState) -> list[float]:
    """The features of ``st`` in :data:`NAMES` order, as plain floats (the hot path)."""
    k = _of(st.game)
    cops = st.cops
    ncops = max(1, len(cops))
    loyalty = st.loyalty
    dirty = st.game.dirty_cops > 0
    # the good cops in play: the team whose totals and distances count (all cops without a Dirty Cop)
    good = [c for c in cops if not c.out and not loyalty[c.seat]] if dirty else cops
    ngood = max(1, len(good))
    # time: whole rounds left on the turn track, less the turns already taken in this round
    at = st.at / ncops if st.order else 0.0
    rounds_left = max(0.0, k.fail_turn - st.turn_track - at)
    murderer_turn = st.game.content.murderer_turn
    hood = 0 if st.turn_track < murderer_turn else max(0, 6 - (st.turn_track - murderer_turn))
    # evidence: what is missing, and how many cards a search of the stacks would draw to find it
    missing = opened = covered = 0
    draws = 0.0
    targets: list[int] = []  # streets of the open stacks a cop may investigate now
    slots = st.slots
    buildings = {s.building for s in slots if s is not None and s.building}
    for d, need in enumerate(k.need):
        m = need - st.placed[d]
        if m <= 0:
            continue
        missing += m
        opened += 1
        stack = st.stacks[d]
        draws += m * (stack.evidence + stack.useless + 1) / (stack.evidence + 1)  # order statistics
        if stack.building in buildings:
            covered += 1
        elif stack.building and not stack.gone and stack.evidence:
            targets.append(k.building[stack.building])
    complete = 1.0 if missing == 0 else 0.0
    # the city
    punks = st.punks
    on_board = sum(punks)
    crowded = sum(1 for p in punks if p >= 3)
    gangs = sum(1 for g in st.gangs if g >= 0)
    m_punks = punks[hood - 1] if hood else 0
    if hood:
        row = k.hood_dist[hood - 1]
        active = [row[c.street] for c in good if not c.out]
        m_dist = min(active) if active else _DIST
    else:
        m_dist = 0
    if targets:
        rows = [k.dist[c.street] for c in good if not c.out]
        inv_dist = min(min(row[t] for t in targets) for row in rows) if rows else _DIST
    else:
        inv_dist = 0
    emergencies = specials = down = 0
    colours = [0, 0, 0, 0]
    for s in slots:
        if s is None:
            continue
        if k.special[s.card]:
            specials += 1
        else:
            emergencies += 1
            colours[k.colour[s.card]] += 1
        if s.unknown == -2:
            down += 1
    event_deck = sum(st.events_left) + len(st.event_top) + len(st.event_bottom)
    # the good team's totals (hand sizes, never hand contents); a dirty cop's are his own, below
    cards = donuts = upgrades = hospital = tokens = 0
    for c in good:
        cards += len(c.hand)
        donuts += c.donuts
        upgrades += len(c.upgrades)
        hospital += c.hospital
        tokens += c.swat + c.fed
    out = sum(1 for c in cops if c.out)
    crime_left = k.crime_fail - st.crime
    crime_near = 1.0 if crime_left <= 2 else 0.0
    miss = missing / k.total_need
    per_round = 1.0 / max(rounds_left, 0.5)
    draws_n = draws / _DRAWS
    m_in = 1.0 if hood else 0.0
    hidden = under = exposed = cleared = 0
    h_donuts = u_donuts = h_cards = 0
    soon = 0.0
    if dirty:
        revealed, underground = st.revealed, st.underground
        shown = _self_revealed(st) if any(underground) else 0
        for p in range(st.n):
            if underground[p]:
                under += 1
                exposed += not shown >> p & 1
            elif loyalty[p] and not revealed[p]:
                hidden += 1
            elif revealed[p] and not loyalty[p]:
                cleared += 1  # shown good by a wrong accusation
        order = st.order
        for i, c in enumerate(cops):
            if not loyalty[c.seat]:
                continue
            if c.out:
                u_donuts += c.donuts
            elif not revealed[c.seat]:
                h_donuts += c.donuts
                h_cards += len(c.hand)
                if order and i in order:  # how soon his next turn comes (1: his turn now)
                    soon = max(soon, 1.0 - ((order.index(i) - st.at) % len(order)) / len(order))
    return [
        rounds_left / _ROUNDS, m_in, miss, opened / len(k.need), complete, draws_n,
        covered / len(k.need), st.crime / k.crime_fail, crime_near, on_board / k.punks,
        max(0, 3 - st.punk_supply) / 3, max(punks) / 6, crowded / 6, gangs / 4, m_punks / 6,
        m_dist / _DIST, emergencies / _EMERGENCIES, specials / _SPECIALS, 1.0 if st.urgent >= 0 else 0.0,
        down / _EMERGENCIES, event_deck / k.events, sum(st.patrol) / k.officers,
        st.patrol_stock / k.officers, cards / ngood / _HAND, donuts / ngood / _DONUTS,
        upgrades / ngood / _UPGRADES, hospital / ngood, tokens / ngood, (st.n - 4) / 4, out / ncops,
        min(inv_dist, _DIST) / _DIST, max(colours) / 3,
        # interactions
        miss * per_round, draws_n * per_round, complete * m_in, complete * m_dist / _DIST,
        complete * m_punks / 6, complete * rounds_left / _ROUNDS, crime_near * emergencies / _EMERGENCIES,
        # the Dirty Cop
        float(hidden), float(under), float(exposed), h_donuts / _DONUTS, u_donuts / _DONUTS,
        h_cards / _HAND, soon, float(cleared), hidden * rounds_left / _ROUNDS, hidden * miss,
    ]


def features(st: PrecinctState) -> npt.NDArray[np.float64]:
    """The features of ``st`` (:data:`NAMES` order), finite floats near [0, 1] (seat counts for DIRTY)."""
    return np.array(_raw(st), dtype=np.float64)


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class ValueModel:
    """P(the good cops win) as a logistic regression over :func:`features`."""

    def __init__(self, names: Sequence[str], weights: Sequence[float], bias: float,
                 meta: dict[str, Any] | None = None) -> None:
        if tuple(names) != NAMES[: len(names)] or len(names) != len(weights):
            raise BadStateError(f"precinct value model: features {list(names)[:3]}... do not match NAMES")
        self.names = tuple(names)
        self.weights = [float(w) for w in weights]
        self.bias = float(bias)
        self.meta = dict(meta or {})

    def logit(self, st: PrecinctState) -> float:
        """The model's log-odds for ``st`` (no terminal shortcut)."""
        z = self.bias
        for w, x in zip(self.weights, _raw(st), strict=False):  # a base-only model reads a prefix
            z += w * x
        return z

    def value(self, st: PrecinctState) -> float:
        """P(the good team wins) from ``st``: exactly 1.0 or 0.0 once the game is over."""
        if st.result:
            return 1.0 if st.result > 0 else 0.0
        return _sigmoid(self.logit(st))

    def values(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Probabilities for a matrix of feature rows (evaluation and tests)."""
        w = np.asarray(self.weights)
        z = x[:, : len(w)] @ w + self.bias
        out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-z))
        return out

    def to_json(self, **extra: Any) -> dict[str, Any]:
        """The model file's JSON (``extra``: provenance such as ``fitted_by``)."""
        return {"format": FORMAT, **self.meta, **extra, "bias": self.bias,
                "weights": dict(zip(self.names, self.weights, strict=True))}


def model_from_json(data: Any, where: str) -> ValueModel:
    """Check and build a model from its JSON; a one-line BadStateError naming ``where`` and the fault."""
    if not isinstance(data, dict):
        raise BadStateError(f"precinct value model {where}: not a JSON object")
    if data.get("format") != FORMAT:
        raise BadStateError(f"precinct value model {where}: format is not {FORMAT!r}")
    weights, bias = data.get("weights"), data.get("bias")
    if not isinstance(weights, dict) or not weights:
        raise BadStateError(f"precinct value model {where}: 'weights' must be an object of feature -> weight")
    unknown = sorted(set(weights) - set(NAMES))
    if unknown:
        raise BadStateError(f"precinct value model {where}: unknown features {unknown[:3]}")
    names = NAMES[: len(weights)]
    if set(names) != set(weights):
        raise BadStateError(f"precinct value model {where}: features must be a prefix of NAMES "
                            f"(missing {sorted(set(names) - set(weights))[:3]})")
    values = [weights[n] for n in names]
    for v in (*values, bias):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise BadStateError(f"precinct value model {where}: weight {v!r} is not a finite number")
    meta = {key: val for key, val in data.items() if key not in ("format", "weights", "bias")}
    return ValueModel(names, values, float(bias), meta)  # type: ignore[arg-type]


@lru_cache(maxsize=4)
def _load(path: str | None) -> ValueModel:
    if path is None:
        package, name = SHIPPED.split("/", 1)
        return model_from_json(read_shipped(package, name), SHIPPED)
    return model_from_json(read_json(path, "precinct value model"), path)


def load_value(path: str | Path | None = None) -> ValueModel:
    """The shipped model (``path`` None) or a user's file, cached; BadStateError for a bad file."""
    return _load(None if path is None else str(path))


def value(st: PrecinctState) -> float:
    """P(the good team wins) from ``st`` by the shipped model."""
    return load_value().value(st)


# --- the fit --------------------------------------------------------------------------------------
def fit_logistic(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], l2: float = 1.0,
                 iterations: int = 50, tol: float = 1e-10, signs: Sequence[int] | None = None
                 ) -> tuple[npt.NDArray[np.float64], float]:
    """(weights, bias) minimising log loss + ``l2``/2 |w|^2 (bias unpenalised), by Newton / IRLS.

    Deterministic (no randomness, fixed iteration order). Columns are standardised for the solve and
    the weights mapped back to raw feature units, so the penalty treats every feature alike; a
    constant column gets weight 0. ``signs`` (per column +1, -1 or 0 for free): a column whose
    weight comes out with the wrong sign is dropped (weight 0) and the rest refitted, until none is.
    """
    free = np.ones(x.shape[1], dtype=bool)
    while True:
        w, bias = _fit(x[:, free], y, l2, iterations, tol)
        full = np.zeros(x.shape[1])
        full[free] = w
        if signs is None:
            return full, bias
        wrong = np.array([s != 0 and s * v < 0 for s, v in zip(signs, full, strict=True)])
        if not wrong.any():
            return full, bias
        free &= ~wrong


def _fit(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], l2: float, iterations: int, tol: float
         ) -> tuple[npt.NDArray[np.float64], float]:
    n, p = x.shape
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    live = scale > 1e-12
    scale = np.where(live, scale, 1.0)
    z = np.where(live, (x - mean) / scale, 0.0)
    a = np.hstack([z, np.ones((n, 1))])
    beta = np.zeros(p + 1)
    penalty = np.full(p + 1, l2)
    penalty[-1] = 0.0
    for _ in range(iterations):
        eta = a @ beta
        prob = 1.0 / (1.0 + np.exp(-eta))
        grad = a.T @ (prob - y) + penalty * beta
        wdiag = prob * (1.0 - prob)
        hess = (a * wdiag[:, None]).T @ a + np.diag(penalty + 1e-12)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.max(np.abs(step))) < tol:
            break
    w = np.where(live, beta[:p] / scale, 0.0)
    bias = float(beta[p] - np.sum(w * mean))
    return w, bias


def penalised_gradient(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], w: npt.NDArray[np.float64],
                       bias: float, l2: float) -> npt.NDArray[np.float64]:
    """The gradient of :func:`fit_logistic`'s objective at raw (``w``, ``bias``), in its standardised units.

    Zero at the optimum: a check of the fit that does not trust the solver.
    """
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    live = scale > 1e-12
    scale = np.where(live, scale, 1.0)
    z = np.where(live, (x - mean) / scale, 0.0)
    ws = np.where(live, w * scale, 0.0)
    b = bias + float(np.sum(w * mean))
    prob = 1.0 / (1.0 + np.exp(-(z @ ws + b)))
    out: npt.NDArray[np.float64] = np.append(z.T @ (prob - y) + l2 * ws, np.sum(prob - y))
    return out
