"""Learn the Police Precinct behaviour model from self-play and measure the Dirty Cop posterior's calibration.

::

    python -m bots.precinct.calibrate --tables 4:1,5:1,6:1,6:2 --train 0:480 --test 10000:10160 \\
        --jobs 2 --model solver/belief/data/precinct_behaviour.json \\
        --out bench/results/precinct-calibration.json

1. **Train.** Seed ``i`` plays table ``tables[i % len(tables)]`` (players:dirty cops) with ``--bot``
   in every seat. Each game gives every public signal (:func:`precinct_behaviour.read_history`) with
   its seat's true loyalty, and each dirty cop's mixed draws (hidden or not). The first 80% of the
   training seeds fit the model for each smoothing ``alpha`` in :data:`ALPHAS`; the other 20% pick
   ``alpha`` and the tempering exponent (:data:`TEMPERS`) together by the lowest mean log loss of
   the learnt posterior; the model is then refitted on every training game.
2. **Test** on disjoint seeds. Whenever the turn track advances (a *round*), each good seat's
   history then (its entries up to that action) gives three posteriors: the prior (the uniform deal
   with deduction: the seat's own card and the cards shown), hypergeometric-only
   (:func:`dirty_cop.dirty_posterior` with ``model=None``, ``hide`` 0.5) and the learnt model. Each
   other seat whose card the viewer does not know is a row: log loss and Brier score of P(dirty);
   per view, top-1 accuracy (the seat with the highest P(dirty) holds a dirty card); the learnt
   model's expected calibration error over 10 equal-width bins. Views where deduction already
   settles every seat (the dirty cops have been shown) are left out. ``--evaluate MODEL`` skips
   step 1 and tests a model file an earlier run wrote. ``--dirty-bot NAME`` (with ``--dirty-opt
   NAME=VALUE``) has the test games' dirty seats played by another bot, e.g. the ``ismcts`` dirty
   cop, to measure how the model learnt on the heuristic's dirty cop reads a searching one::

       python -m bots.precinct.calibrate --evaluate solver/belief/data/precinct_behaviour.json \
           --tables 4:1 --test 10000:10060 --dirty-bot ismcts --dirty-opt iterations=50 --dirty-opt worlds=4
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from solver.belief.dirty_cop import DIRTY, dirty_posterior
from solver.belief.precinct_behaviour import (
    HistoryReader,
    PrecinctBehaviour,
    Signal,
    fit,
    hidden_draws,
    load_behaviour,
    read_history,
)
from solver.core import JSON, Action, ConfigError, Seat, State, make_rng, spawn
from solver.core.referee import play_out

TEMPERS: Final = (0.3, 0.5, 0.7, 0.85, 1.0)
#: Pseudo-counts per outcome (add-alpha smoothing). The heuristic's dirty cop never helps, so a small
#: alpha makes one help nearly clear a seat; the held-out games say how small is safe.
ALPHAS: Final = (0.03, 0.1, 0.3, 1.0)
MODELS: Final = ("prior", "hypergeometric", "learnt")
EPS: Final = 1e-12


@dataclass
class Played:
    """One self-play game: signals with their seat's truth, the dirty cops' mixed draws, each good
    seat's final view (without its history's tail: points cut it), and the evaluation points
    (round, seat, history length)."""

    players: int
    dirty: list[bool]
    signals: list[tuple[Signal, bool]]
    hides: list[tuple[int, bool]]
    views: dict[int, JSON]
    points: list[tuple[int, int, int]]


def play(players: int, dirty_cops: int, bot: str, seed: int, crook: DirtyBot | None = None) -> Played:
    """Play one seeded game with ``bot`` in every seat, or ``crook`` (name, options) in the seats dealt
    a dirty card; record what training and testing need."""
    import bots  # the bots depend on the engine, not the other way round
    from solver.games import load

    game = load("precinct", players=players, dirty_cop=True, dirty_cops=dirty_cops)
    rngs = spawn(make_rng(seed), players + 2)  # the last for the dirty bots: the others' streams stay
    seats = {s: bots.make(game, bot, seat=s, rng=rngs[s]) for s in range(players)}
    crooks: dict[int, Any] = {}
    if crook is not None:
        crook_rngs = spawn(rngs[-1], players)
        crooks = {s: bots.make(game, crook[0], seat=s, rng=crook_rngs[s], **dict(crook[1]))
                  for s in range(players)}
    st: Any = game.new_initial_state()
    points: list[tuple[int, int, int]] = []
    last = st.turn_track
    rnd = 0

    def record(_: State, __: Seat, ___: Action) -> None:
        nonlocal last, rnd
        if st.turn_track != last and not st.is_terminal():
            last, rnd = st.turn_track, rnd + 1
            n = len(st.history)
            points.extend((rnd, s, n) for s in range(players) if not st.loyalty[s])

    def act(state: Any, seat: Seat) -> Action:
        # the referee knows the deal: a seat dealt a dirty card plays the dirty bot on its own view
        chosen = crooks if crooks and state.loyalty[seat] else seats
        return chosen[seat].step(state.view(seat))

    play_out(st, act, rngs[players], on_step=record)
    dirty = [bool(x) for x in st.loyalty]
    final = {s: st.view(s).to_json() for s in range(players)}
    reading = read_history(final[0])
    signals = [(sig, dirty[sig.seat]) for sig in reading.signals]
    hides = [h for s in range(players) if dirty[s] for h in hidden_draws(final[s])]
    views = {s: {k: final[s][k] for k in ("config", "seat", "my_loyalty", "cops", "history")}
             for s in range(players) if not dirty[s]}
    return Played(players, dirty, signals, hides, views, points)


#: the bot of the seats dealt a dirty card, and its options (``--dirty-bot``, ``--dirty-opt``)
DirtyBot = tuple[str, tuple[tuple[str, Any], ...]]


def _play(args: tuple[int, int, str, int, DirtyBot | None]) -> Played:
    return play(*args)


def score(games: Sequence[Played], models: Mapping[str, PrecinctBehaviour | None]) -> dict[str, list[JSON]]:
    """Per model name: one row per (point, other seat the viewer does not know) and per view the
    top-1 hit. ``models`` maps names to a behaviour model (None: hypergeometric-only); ``prior``
    is always added."""
    rows: dict[str, list[JSON]] = {m: [] for m in ("prior", *models)}
    for g in games:
        readers: dict[int, HistoryReader] = {}
        for rnd, seat, n in sorted(g.points, key=lambda pt: (pt[1], pt[2])):
            view = dict(g.views[seat])
            reader = readers.setdefault(seat, HistoryReader(view["cops"]))
            reader.feed(view["history"][reader.read:n])  # points of a seat in order: each entry read once
            view["history"] = view["history"][:n]
            reading = reader.reading()
            known = dict(reading.shown) | {seat: False}
            unknown = [p for p in range(g.players) if p not in known]
            left = sum(g.dirty) - sum(known.values())
            if not left:  # deduction settles every seat (the dirty cops are shown): nothing to predict
                continue
            preds: dict[str, list[float]] = {"prior": [left / len(unknown)] * g.players}
            for name, model in models.items():
                post = dirty_posterior(view, 0.5 if model is None else None, model=model, reading=reading)
                preds[name] = [float(m.holds[DIRTY]) for m in post.marginals()]
            for name, p in preds.items():
                best = max(unknown, key=lambda q: p[q])
                rows[name].extend({"round": rnd, "p": p[q], "dirty": g.dirty[q], "top": g.dirty[best],
                                   "first": q == unknown[0]} for q in unknown)
    return rows


def metrics(rows: Sequence[JSON]) -> JSON:
    """Log loss, Brier score and ECE over rows; top-1 accuracy over views (their first row)."""
    if not rows:
        return {"n": 0}
    p = np.array([r["p"] for r in rows])
    y = np.array([1.0 if r["dirty"] else 0.0 for r in rows])
    ll = -np.log(np.clip(np.where(y == 1, p, 1 - p), EPS, 1))
    bins = np.minimum((p * 10).astype(int), 9)
    ece = sum(abs(p[bins == b].mean() - y[bins == b].mean()) * (bins == b).sum()
              for b in range(10) if (bins == b).any()) / len(p)
    top = [r["top"] for r in rows if r["first"]]
    return {"n": len(rows), "views": len(top), "log_loss": round(float(ll.mean()), 4),
            "brier": round(float(((p - y) ** 2).mean()), 4), "ece": round(float(ece), 4),
            "top1": round(float(np.mean(top)), 4)}


def report(rows: Sequence[JSON]) -> JSON:
    """Overall metrics and per round."""
    rounds = sorted({r["round"] for r in rows})
    return {"all": metrics(rows), "per_round": {str(k): metrics([r for r in rows if r["round"] == k])
                                                for k in rounds}}


def _seeds(text: str) -> range:
    lo, _, hi = text.partition(":")
    if not (lo.isdigit() and hi.isdigit()):
        raise ConfigError(f"precinct calibrate: seeds are 'lo:hi', not {text!r}")
    return range(int(lo), int(hi))


def _tables(text: str) -> list[tuple[int, int]]:
    try:
        return [(int(a), int(b)) for a, b in (t.split(":") for t in text.split(","))]
    except ValueError as err:
        raise ConfigError(f"precinct calibrate: tables are 'players:dirty,...', not {text!r}") from err


def _games(tables: Sequence[tuple[int, int]], bot: str, seeds: range, jobs: int,
           dirty: DirtyBot | None = None) -> list[Played]:
    work = [(*tables[i % len(tables)], bot, i, dirty) for i in seeds]
    if jobs <= 1:
        return [_play(w) for w in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_play, work, chunksize=4))


def _fit(games: Sequence[Played], alpha: float, temper: float, meta: JSON | None = None) -> PrecinctBehaviour:
    return fit([s for g in games for s in g.signals], [h for g in games for h in g.hides], alpha, temper,
               meta)


def _train(tables: Sequence[tuple[int, int]], args: argparse.Namespace,
           command: str) -> tuple[PrecinctBehaviour, float, int]:
    """Play the training games, pick alpha and temper on the last 20%, refit on all (the docstring's
    step 1); the model, the seconds spent playing, the games played."""
    started = time.perf_counter()
    train = _games(tables, args.bot, _seeds(args.train), args.jobs)
    played = time.perf_counter() - started
    cut = int(len(train) * 0.8)
    grid = {f"{alpha} {temper}": _fit(train[:cut], alpha, temper) for alpha in ALPHAS for temper in TEMPERS}
    scored = score(train[cut:], grid)  # every candidate on the same held-out views, each read once
    losses: dict[tuple[float, float], float] = {}
    for name in grid:
        alpha_text, temper_text = name.split()
        losses[float(alpha_text), float(temper_text)] = metrics(scored[name])["log_loss"]
        print(f"alpha {alpha_text} temper {temper_text}: log loss {metrics(scored[name])['log_loss']:.4f}",
              file=sys.stderr)
    alpha, temper = min(losses, key=lambda k: losses[k])
    meta = {"command": command, "bot": args.bot, "tables": args.tables, "train_seeds": args.train,
            "alpha": alpha, "signals": sum(len(g.signals) for g in train),
            "mixed_draws": sum(len(g.hides) for g in train),
            "selection": {f"alpha {a} temper {t}": v for (a, t), v in losses.items()}}
    return _fit(train, alpha, temper, meta), played, len(train)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m bots.precinct.calibrate",
                                 description="Learn the precinct behaviour model; measure calibration.")
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--dirty-bot", default=None,
                    help="test games only: this bot plays the seats dealt a dirty card (default: --bot)")
    ap.add_argument("--dirty-opt", action="append", default=[], metavar="NAME=VALUE",
                    help="an option of --dirty-bot (repeatable)")
    ap.add_argument("--tables", default="4:1,5:1,6:1,6:2", help="players:dirty cops, comma-separated")
    ap.add_argument("--train", default="0:480")
    ap.add_argument("--test", default="10000:10160")
    ap.add_argument("--jobs", type=int, default=2, help="processes playing the games (at most 2 here)")
    ap.add_argument("--model", default=None, help="write the learnt model here")
    ap.add_argument("--evaluate", default=None,
                    help="skip training: test this model file (one an earlier run wrote)")
    ap.add_argument("--out", default=None, help="write the calibration report here")
    args = ap.parse_args(argv)
    given = argv if argv is not None else sys.argv[1:]
    command = "python -m bots.precinct.calibrate " + " ".join(shlex.quote(a) for a in given)
    tables = _tables(args.tables)
    dirty: DirtyBot | None = None
    if args.dirty_bot is not None:
        from bots.cli_args import bot_options

        options = bot_options("precinct", [args.dirty_bot], args.dirty_opt)[args.dirty_bot]
        dirty = (args.dirty_bot, tuple(sorted(options.items())))
    elif args.dirty_opt:
        raise ConfigError("precinct calibrate: --dirty-opt needs --dirty-bot")
    started = time.perf_counter()
    if args.evaluate:
        model = load_behaviour(args.evaluate)
        alpha, temper, played = model.meta.get("alpha"), model.temper, 0.0
        trained = len(_seeds(str(model.meta.get("train_seeds", "0:0"))))
    else:
        model, played, trained = _train(tables, args, command)
        alpha, temper = model.meta["alpha"], model.temper
    if args.model and not args.evaluate:
        Path(args.model).write_text(json.dumps(model.to_json(), indent=1) + "\n")
    test_started = time.perf_counter()
    test = _games(tables, args.bot, _seeds(args.test), args.jobs, dirty)
    result: JSON = {"command": command, "model_command": model.meta.get("command", command), "bot": args.bot,
                    "dirty_bot": args.dirty_bot or args.bot, "dirty_options": dict(dirty[1]) if dirty else {},
                    "tables": args.tables, "train_seeds": model.meta.get("train_seeds", args.train),
                    "test_seeds": args.test, "alpha": alpha, "temper": temper, "train_games": trained,
                    "test_games": len(test), "train_play_seconds": round(played, 1)}
    per_table = {f"{p}:{d}": score([g for g in test if (g.players, sum(g.dirty)) == (p, d)],
                                   {"hypergeometric": None, "learnt": model}) for p, d in tables}
    merged = {name: [r for rows in per_table.values() for r in rows[name]] for name in MODELS}
    for label, scored in [("all", merged), *per_table.items()]:
        result[f"tables_{label}"] = {name: report(scored[name]) for name in MODELS}
        line = ", ".join(f"{name} {result[f'tables_{label}'][name]['all'].get('log_loss', 0):.4f}"
                         for name in MODELS)
        print(f"tables {label}: log loss {line}; learnt ECE "
              f"{result[f'tables_{label}']['learnt']['all'].get('ece', 0):.3f}", file=sys.stderr)
    result["test_seconds"] = round(time.perf_counter() - test_started, 1)
    result["seconds"] = round(time.perf_counter() - started, 1)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
