"""A Bayesian filter over Dr. Factor's stop: the possible set, weighted by how he moves.

The exact possible set (:mod:`solver.games.police07.locations`) says where he *can* be; this filter says
how likely each of those stops is, by following his moves from the start (or the last reveal) with
the behaviour model of :mod:`solver.belief.factor_model` (the forward pass of a hidden Markov model;
Russell & Norvig, *AIMA*, 4th ed., section 14.2)::

    b_0 = his start stop
    b_k(s') ∝ sum_s b_{k-1}(s) * sum over combos c of the announced ticket of
              A_c[s, s'] * exp(theta . f(c, s')) / Z(s)       (detectives where they stood)
    b_k    *= the possible set before his next move (reveals and struck stops)

``A_c`` is the board's adjacency for combo ``c`` (taxi, bus, metro, a joker on each of the four
lines), ``Z(s)`` the model's normaliser over every move he could make from ``s`` (a detective's stop
is never a destination). The announced ticket enters twice, as it should: it limits where he went,
and a ticket he has many uses for from ``s`` makes ``s`` likelier. Where the model gives every
possible stop zero weight (it cannot, but floating point might), the filter falls back to the
possible set, uniformly, so it never rules out a stop the rules allow.

Which tickets he held at an earlier move is public: the view shows his stock now, and walking the
history back undoes his spends and the tickets he received (each ticket a detective spends goes to
him; the variant's take gives him one), so the normaliser uses the kinds he really held.

Evaluate and fit (the shipped model comes from this command, its provenance inside the file)::

    python -m solver.belief.location_filter bench/results/arena-*.json \\
        --out solver/games/police07/data/factor_model.json

replays the recorded games (``copsolver arena police07 ... --json``), fits the model on four games
in five, and scores the held-out fifth at every detective decision (log-probability of his true
stop: uniform over the possible set, location categories, this filter with a uniform model, and
with the fitted one); then fits on all games and writes the file.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from solver.belief.factor_model import (
    FEATURES,
    KINDS,
    UNIFORM,
    Decision,
    FactorModel,
    fit,
    load_model,
    log_likelihood,
    move_features,
    stop_score,
)
from solver.core import JSON, BadStateError
from solver.core.files import read_json
from solver.games.police07 import codec
from solver.games.police07.bitsets import mask_stops
from solver.games.police07.board import Board, Line
from solver.games.police07.locations import track_factor
from solver.games.police07.rules import Police07Game

FloatArray = npt.NDArray[np.float64]
#: Combos (the move action's high part): taxi, bus, metro, joker on taxi/bus/metro/water.
#: Bytes an arena report may hold: reports list every game's actions, and our own run to 13 MB.
REPORT_BYTES: Final = 256 << 20
COMBO_KIND: Final = (0, 1, 2, 3, 3, 3, 3)
COMBO_LINE: Final = (Line.TAXI, Line.BUS, Line.METRO, Line.TAXI, Line.BUS, Line.METRO, Line.WATER)


@lru_cache(maxsize=8)
def adjacency(board: Board) -> npt.NDArray[np.float64]:
    """``A[c, s, s']``: 1 where combo ``c`` takes him from ``s`` to ``s'`` (read-only, cached)."""
    size = board.num_stops + 1
    table = np.zeros((len(COMBO_LINE), size, size))
    for c, line in enumerate(COMBO_LINE):
        for a, b in board.links[line]:
            table[c, a, b] = table[c, b, a] = 1.0
    table.setflags(write=False)
    return table


@dataclass(frozen=True)
class _Move:
    kind: int  # index into KINDS
    detectives: tuple[int, ...]


def _moves(view: JSON, indices: Sequence[int]) -> list[_Move]:
    # The announced kind and the detectives' stops at each of his moves (history replayed).
    history = view["history"]
    wanted = set(indices)
    det: dict[int, int] = {}
    out = []
    for i, (piece, text) in enumerate(history):
        words = text.split()
        if piece != 0:
            if words and words[0] in ("start", "place", *codec.TICKET_NAMES[:3]):
                det[piece] = int(words[-1])
        elif i in wanted:
            out.append(_Move(KINDS.index(words[0]), tuple(s for s in det.values() if s)))
    return out


def _available(view: JSON, indices: Sequence[int]) -> list[npt.NDArray[np.bool_]]:
    # Per move of his (history indices ``indices``): which kinds he held just before it. His stock
    # is public; walk the history back from today's: undo each of his spends and each ticket he
    # received (a detective's spent ticket goes to him, as does a variant "take").
    stock = (view.get("factor") or {}).get("tickets") or {}
    count: list[int | None] = [None if stock.get(k) is None else int(stock[k]) for k in KINDS]
    wanted = set(indices)
    out: list[npt.NDArray[np.bool_]] = []
    for i in range(len(view["history"]) - 1, -1, -1):
        piece, text = view["history"][i]
        words = text.split()
        kind = next((KINDS.index(w) for w in words if w in KINDS), None)
        if kind is None or count[kind] is None:
            pass
        elif piece != 0 and words[0] != "start" and words[0] != "place":
            count[kind] -= 1  # type: ignore[operator]  # a detective's ticket he received
        elif piece == 0 and words[0] == "take":
            count[kind] -= 1  # type: ignore[operator]
        elif piece == 0 and i in wanted:
            count[kind] += 1  # type: ignore[operator]  # before his move he still held it
        if i in wanted:
            out.append(np.array([c is None or c > 0 for c in count]))
    return out[::-1]


def _vector(board: Board, mask: int) -> FloatArray:
    v = np.zeros(board.num_stops + 1)
    v[mask_stops(mask)] = 1.0
    return v


def filtered_belief(game: Police07Game, view: Any, model: FactorModel | None = None) -> dict[int, float]:
    """Probability per possible stop of Dr. Factor (summing to 1), by the filter above.

    ``view`` is a Police 07 detective view or its JSON; ``model`` the behaviour model (None: the
    shipped one). Dr. Factor's own view gives his stop probability 1; a free start before he has
    placed his piece gives an empty dict.
    """
    data: JSON = view.to_json() if hasattr(view, "to_json") else view
    if data.get("role") == "factor":
        stop = (data.get("factor") or {}).get("stop")
        return {stop: 1.0} if isinstance(stop, int) else {}
    track = track_factor(game, data)
    if track.start == 0:
        return {}
    now = sorted(track.now)
    if len(now) <= 1:
        return dict.fromkeys(now, 1.0)
    board = game.board
    theta = (model or load_model()).array()
    table = adjacency(board)
    moves = _moves(data, track.move_indices)
    available = _available(data, track.move_indices)
    belief = np.zeros(board.num_stops + 1)
    belief[track.start] = 1.0
    for k, move in enumerate(moves):
        score = stop_score(board, theta, move.detectives)
        open_ = np.ones(board.num_stops + 1)
        open_[list(move.detectives)] = 0.0
        open_[0] = 0.0
        weights = [np.exp(theta[COMBO_KIND[c]] + score) * open_ for c in range(len(COMBO_LINE))]
        z = sum((table[c] @ weights[c] for c in range(len(COMBO_LINE)) if available[k][COMBO_KIND[c]]),
                np.zeros(board.num_stops + 1))
        scaled = np.divide(belief, z, out=np.zeros_like(belief), where=z > 0)
        belief = sum((scaled @ table[c] * weights[c] for c in range(len(COMBO_LINE))
                      if COMBO_KIND[c] == move.kind), np.zeros(board.num_stops + 1))
        nxt = track.tracker.before(k + 1) if k + 1 < len(moves) else None
        mask = _vector(board, nxt) if nxt is not None else _vector(board, sum(1 << s for s in now))
        belief *= mask
        total = belief.sum()
        belief = belief / total if total > 0 and math.isfinite(total) else mask / mask.sum()
    probs = belief[now]
    total = float(probs.sum())
    if not total > 0:
        return dict.fromkeys(now, 1.0 / len(now))
    return {s: float(p) / total for s, p in zip(now, probs, strict=True)}


# --- fitting and evaluation on recorded games -------------------------------------------------------


@dataclass
class Replayed:
    """One recorded game: Dr. Factor's move decisions, and the detectives' decision points."""

    decisions: list[Decision]
    #: (detective view JSON, his true stop) where he had two or more possible stops
    points: list[tuple[JSON, int]]


def replay(game: Police07Game, actions: Sequence[str]) -> Replayed:
    """Replay a recorded game's actions; collect his move decisions and the detectives' views."""
    state = game.new_initial_state()
    decisions: list[Decision] = []
    points: list[tuple[JSON, int]] = []
    for text in actions:
        action = game.str_to_action(text)
        seat = state.current_player()
        if seat == 0 and codec.is_move(action):
            legal = [a for a in state.legal_actions() if codec.is_move(a)]
            detectives = [s for s in state.pos[1:] if s]
            decisions.append(Decision(move_features(game.board, legal, detectives), legal.index(action)))
        elif seat > 0:
            view = state.view(seat).to_json()
            if len(track_factor(game, view).now) >= 2:
                points.append((view, state.pos[0]))
        state.apply(action)
    return Replayed(decisions, points)


def load_records(paths: Sequence[str]) -> list[tuple[Police07Game, list[str], str]]:
    """Every game of the Police 07 arena reports in ``paths``: its game (built from the report's
    config), its actions, and the name of the bot that played Dr. Factor."""
    import solver.games

    out: list[tuple[Police07Game, list[str], str]] = []
    for path in paths:
        report = read_json(path, "location filter: arena report", limit=REPORT_BYTES)
        if not isinstance(report, dict):
            raise BadStateError(f"location filter: {path} is not an arena report (not a JSON object)")
        if report.get("game") != "police07":
            continue
        game = solver.games.load("police07", **report["config"])
        if not isinstance(game, Police07Game):
            raise BadStateError(f"location filter: {path} is not a Police 07 report")
        out.extend((game, g["actions"], g["bots"][0].split("(")[0]) for g in report["games"])
    return out


def score(points: Sequence[tuple[Police07Game, JSON, int]], models: dict[str, Any]) -> dict[str, float]:
    """Mean log-probability of his true stop under each belief (name -> function of game, view)."""
    totals = dict.fromkeys(models, 0.0)
    for game, view, truth in points:
        for name, belief in models.items():
            p = belief(game, view).get(truth, 0.0)
            totals[name] += math.log(max(p, 1e-300))
    return {name: round(t / max(len(points), 1), 4) for name, t in totals.items()}


def _uniform(game: Police07Game, view: JSON) -> dict[int, float]:
    now = track_factor(game, view).now
    return dict.fromkeys(now, 1.0 / len(now))


def main(argv: Sequence[str] | None = None) -> int:
    """Fit the behaviour model on recorded games, report the held-out evaluation, write the file."""
    from solver.belief.categories import category_weights

    parser = argparse.ArgumentParser(prog="python -m solver.belief.location_filter", description=__doc__)
    parser.add_argument("reports", nargs="+", help="copsolver arena police07 --json reports")
    parser.add_argument("--holdout-every", type=int, default=5, help="hold out every Nth game")
    parser.add_argument("--factor", help="fit on the games of this Dr. Factor bot only (e.g. ismcts)")
    parser.add_argument("--test-factor", help="score the held-out games of this Dr. Factor bot only")
    parser.add_argument("--out", help="write the model fitted on all games here")
    args = parser.parse_args(argv)
    games = load_records(args.reports)
    train: list[Decision] = []
    every: list[Decision] = []
    test_points: list[tuple[Police07Game, JSON, int]] = []
    for i, (game, actions, factor) in enumerate(games):
        fitted = args.factor is None or factor == args.factor
        tested = args.test_factor is None or factor == args.test_factor
        if not (fitted or tested):
            continue
        played = replay(game, actions)
        if fitted:
            every += played.decisions
        if i % args.holdout_every == args.holdout_every - 1:
            if tested:
                test_points += [(game, v, t) for v, t in played.points]
        elif fitted:
            train += played.decisions
    held = FactorModel(tuple(float(t) for t in fit(train)), source="train")
    beliefs = {
        "uniform": _uniform,
        "categories": category_weights,
        "filter_uniform_model": lambda g, v: filtered_belief(g, v, UNIFORM),
        "filter": lambda g, v: filtered_belief(g, v, held),
    }
    evaluation = score(test_points, beliefs)
    full = fit(every)
    result = {
        "command": "python -m solver.belief.location_filter " + " ".join(argv or sys.argv[1:]),
        "reports": list(args.reports), "games": len(games), "decisions": len(every),
        "heldout_points": len(test_points),
        "heldout_mean_log_prob": evaluation,
        "train_log_likelihood_per_move": round(log_likelihood(full, every) / max(len(every), 1), 4),
    }
    print(json.dumps(result, indent=1))
    print("theta:", dict(zip(FEATURES, np.round(full, 3).tolist(), strict=True)))
    if args.out:
        model = FactorModel(tuple(float(t) for t in full))
        Path(args.out).write_text(json.dumps(model.to_json(result), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
