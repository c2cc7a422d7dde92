"""Learn the Good Cop Bad Cop behaviour model from self-play and measure the posterior's calibration.

::

    python -m bots.gcbc.calibrate --bot heuristic --players 4,5,6,7,8 \\
        --train 0:300 --test 10000:10150 --pair-seats 3 \\
        --model solver/belief/data/gcbc_behaviour.json --out bench/results/gcbc-calibration.json

1. **Train.** Seeded games (seed ``i`` plays ``players[i % len(players)]`` seats, every seat the
   same bot) give every scored public choice (:mod:`solver.belief.gcbc_walk`) with the actor's true
   cards then, and (``--pair-seats`` K >= 2: the pair factors, admitted while a merged cluster has at
   most K seats of unknown cards) every decision with the cards the actor had seen, with their true
   identities. The first 80% of the training seeds fit the weights (:func:`gcbc_behaviour.fit`,
   :func:`gcbc_behaviour.fit_known`) for each prior strength in :data:`ALPHAS`; the other 20% pick
   the prior strength and the tempering exponent from :data:`TEMPERS` together (lowest mean team +
   leader log loss); the weights are then refitted with that prior strength on all training games.
2. **Test** on a disjoint seed set. At the start of each round (turns 1, n+1, 2n+1, ...) every
   living seat's view gives a posterior, deduction-only and full; each other living seat is scored:
   team (binary: P(honest)) and leader status (agent / kingpin / neither) by log loss and Brier score,
   team calibration by the expected calibration error over 10 equal-width bins; top-1 leader accuracy
   is whether the seat with the highest P(Agent) (and P(Kingpin)) holds it. ``from_round_2`` leaves
   out the start of round 1, where no public choice has been made yet and both models coincide.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from solver.belief.gcbc_behaviour import SCHEMES, BehaviourModel, fit, fit_known
from solver.belief.gcbc_posterior import posterior
from solver.belief.gcbc_walk import Choice, Known, Walk
from solver.core import JSON, Action, ConfigError, Seat, State
from solver.core.referee import play_out
from solver.games.gcbc.deal import Integrity, team_of
from solver.games.gcbc.rules import GCBCGame

TEMPERS: Final = (0.3, 0.5, 0.7, 0.85, 1.0, 1.2, 1.5)
#: Pseudo-choices at weight 1 per feature (the prior of :func:`gcbc_behaviour.fit`). The heuristic
#: is nearly deterministic, so a weak prior (sharp weights) predicts it best; the held-out games say
#: how weak.
ALPHAS: Final = (0.03, 0.1, 0.3, 1.0)
EPS: Final = 1e-12


@dataclass
class Point:
    """One evaluation: a view at the start of a round and the truth about every seat then."""

    players: int
    round: int
    view: JSON
    honest: list[bool]
    leader: list[int]  # 0 agent, 1 kingpin, 2 neither
    alive: list[bool]


@dataclass
class Played:
    """One self-play game: the scored choices with the actor's true cards, the decisions with
    what the actor had seen (the pair factors) with its true cards and the seen cards' true
    identities, and evaluation points."""

    samples: list[tuple[Choice, tuple[int, ...]]]
    points: list[Point]
    known: list[tuple[Known, tuple[int, ...], list[list[int]]]]


def play(players: int, bot: str, seed: int) -> Played:
    """Play one seeded game with ``bot`` in every seat; record what training and testing need."""
    import bots  # the bots depend on the engine, not the other way round

    game = GCBCGame(players=players)
    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    seats = {s: bots.make(game, bot, seat=s, rng=rng) for s in range(players)}
    # every seat's cards before each action (and, last, at the end)
    cards_before: list[tuple[tuple[int, ...], ...]] = [tuple(tuple(c) for c in st.cards)]
    points: list[Point] = []
    last_round = 0

    def record(_: State, __: Seat, ___: Action) -> None:  # ``st`` is the state played on, typed as GCBC's
        nonlocal last_round
        cards_before.append(tuple(tuple(c) for c in st.cards))
        rnd = (st.turn - 1) // players + 1 if st.turn else 0
        if rnd > last_round and not st.is_terminal():
            last_round = rnd
            honest = [team_of(st.cards[s], st.inverted[s]) == "honest" for s in range(players)]
            leader = [0 if Integrity.AGENT in c else 1 if Integrity.KINGPIN in c else 2 for c in st.cards]
            points.extend(Point(players, rnd, st.view(s).to_json(), honest, leader, list(st.alive))
                          for s in range(players) if st.alive[s])

    # The bots and chance share ``rng``, in play order, as they always have: seeded runs stay the same.
    play_out(st, lambda state, seat: seats[seat].step(state.view(seat)), rng, on_step=record)
    walk = Walk(game, 0)
    walk.extend(st.view(0).to_json()["history"])
    samples = [(c, cards_before[c.index][c.actor]) for c in walk.choices]
    known = [(k, cards_before[k.index][k.actor], [[cards_before[i][s][p] for i, s, p in looks]
                                                  for looks in k.looked]) for k in walk.known]
    return Played(samples, points, known)


def score(points: Sequence[Point], model: BehaviourModel | None) -> list[dict[str, Any]]:
    """Per (point, other living seat): the predictions and the truth."""
    rows = []
    for pt in points:
        game = GCBCGame(players=pt.players)
        post = posterior(game, pt.view, model)
        marg = post.marginals()
        top = post.top_leader()
        truth = {"agent": pt.leader.index(0) if 0 in pt.leader else -1,
                 "kingpin": pt.leader.index(1) if 1 in pt.leader else -1}
        for s, m in enumerate(marg):
            if s == post.seat or not pt.alive[s]:
                continue
            neither = max(0.0, 1 - m["p_agent"] - m["p_kingpin"])
            rows.append({"round": pt.round, "p_honest": m["p_honest"], "honest": pt.honest[s],
                         "leader_p": [m["p_agent"], m["p_kingpin"], neither],
                         "leader": pt.leader[s],
                         "top": [top["agent"] == truth["agent"], top["kingpin"] == truth["kingpin"]]})
    return rows


def metrics(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Log loss, Brier score, ECE and top-1 leader accuracy over scored rows."""
    if not rows:
        return {"n": 0}
    p = np.array([r["p_honest"] for r in rows])
    y = np.array([1.0 if r["honest"] else 0.0 for r in rows])
    q = np.array([r["leader_p"] for r in rows])
    truth = np.array([r["leader"] for r in rows])
    onehot = np.eye(3)[truth]
    team_ll = -np.log(np.clip(np.where(y == 1, p, 1 - p), EPS, 1))
    leader_ll = -np.log(np.clip(q[np.arange(len(q)), truth], EPS, 1))
    bins = np.minimum((p * 10).astype(int), 9)
    ece = sum(abs(p[bins == b].mean() - y[bins == b].mean()) * (bins == b).sum()
              for b in range(10) if (bins == b).any()) / len(p)
    top = np.array([r["top"] for r in rows], dtype=float)
    return {"n": len(rows), "team_log_loss": float(team_ll.mean()),
            "team_brier": float(((p - y) ** 2).mean()),
            "leader_log_loss": float(leader_ll.mean()),
            "leader_brier": float(((q - onehot) ** 2).sum(axis=1).mean()),
            "team_ece": float(ece), "top1_leader_accuracy": float(top.mean())}


def report(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Overall metrics and per round."""
    rounds = sorted({r["round"] for r in rows})
    return {"all": metrics(rows), "from_round_2": metrics([r for r in rows if r["round"] >= 2]),
            "per_round": {str(k): metrics([r for r in rows if r["round"] == k]) for k in rounds}}


def _fit(games: Sequence[Played], alpha: float, pair_seats: int,
         scheme: str) -> dict[str, list[dict[str, float]]]:
    """The weights from ``games``; with the pair factors' when ``pair_seats`` >= 2."""
    weights = fit([s for g in games for s in g.samples], alpha, scheme=scheme)
    if pair_seats >= 2:
        weights.update(fit_known([k for g in games for k in g.known], alpha, scheme=scheme))
    return weights


def _seeds(text: str) -> range:
    try:
        lo, hi = (int(x) for x in text.split(":"))
    except ValueError as err:
        raise ConfigError(f"gcbc calibrate: seeds are 'lo:hi', not {text!r}") from err
    return range(lo, hi)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m bots.gcbc.calibrate",
                                 description="Learn the gcbc behaviour model; measure calibration.")
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--players", default="4,5,6,7,8")
    ap.add_argument("--train", default="0:300")
    ap.add_argument("--test", default="10000:10150")
    ap.add_argument("--pair-seats", type=int, default=0,
                    help="pair factors (aims and announcements with the cards the actor saw), at most "
                         "this many seats of unknown cards per merged cluster (0: none)")
    ap.add_argument("--classes", choices=sorted(SCHEMES), default="team",
                    help="the actor's class a choice is conditioned on: its team and leader card "
                         "(team), or the cards it holds (hand)")
    ap.add_argument("--model", default=None, help="write the learnt model here")
    ap.add_argument("--out", default=None, help="write the calibration report here")
    args = ap.parse_args(argv)
    given = argv if argv is not None else sys.argv[1:]
    command = "python -m bots.gcbc.calibrate " + " ".join(shlex.quote(a) for a in given)
    counts = [int(x) for x in args.players.split(",")]
    started = time.perf_counter()
    train = [play(counts[i % len(counts)], args.bot, i) for i in _seeds(args.train)]
    cut = int(len(train) * 0.8)
    held = [pt for g in train[cut:] for pt in g.points]
    losses: dict[tuple[float, float], float] = {}
    for alpha in ALPHAS:
        weights = _fit(train[:cut], alpha, args.pair_seats, args.classes)
        for temper in TEMPERS:
            m = metrics(score(held, BehaviourModel(weights, temper, pair_seats=args.pair_seats,
                                                   scheme=args.classes)))
            losses[alpha, temper] = m["team_log_loss"] + m["leader_log_loss"]
            print(f"alpha {alpha} temper {temper}: team+leader log loss {losses[alpha, temper]:.4f}",
                  file=sys.stderr)
    alpha, temper = min(losses, key=lambda k: losses[k])
    samples = [s for g in train for s in g.samples]
    meta = {"command": command, "bot": args.bot, "players": counts, "train_seeds": args.train,
            "alpha": alpha, "decisions": len(samples),
            **({"pair_decisions": sum(len(g.known) for g in train)} if args.pair_seats >= 2 else {}),
            "selection": {f"alpha {a} temper {t}": round(v, 5) for (a, t), v in losses.items()}}
    model = BehaviourModel(_fit(train, alpha, args.pair_seats, args.classes), temper, meta,
                           args.pair_seats, args.classes)
    if args.model:
        Path(args.model).write_text(json.dumps(model.to_json(), indent=1) + "\n")
    test = [play(counts[i % len(counts)], args.bot, i) for i in _seeds(args.test)]
    result: dict[str, Any] = {"command": command, "bot": args.bot, "players": counts,
                              "train_seeds": args.train, "test_seeds": args.test, "alpha": alpha,
                              "temper": temper, "pair_seats": args.pair_seats, "classes": args.classes}
    for label, group in [("all", counts), *[(str(c), [c]) for c in counts]]:
        pts = [pt for g in test for pt in g.points if pt.players in group]
        ded, full = report(score(pts, None)), report(score(pts, model))
        a, b = ded["all"], full["all"]
        gain = 1 - b["team_log_loss"] / a["team_log_loss"] if a.get("team_log_loss") else math.nan
        result[f"players_{label}"] = {"deduction": ded, "full": full, "team_log_loss_reduction": gain}
        print(f"players {label}: team log loss {a.get('team_log_loss', 0):.4f} -> "
              f"{b.get('team_log_loss', 0):.4f} ({gain:.1%}), ECE {b.get('team_ece', 0):.3f}",
              file=sys.stderr)
    result["seconds"] = round(time.perf_counter() - started, 1)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
