"""Learn the Precinct state value (:mod:`solver.search.precinct_value`) from heuristic self-play.

Two steps, each a subcommand::

    python -m bots.precinct.learn_value generate --games 2000 --seed 1 --workers 2 --out /tmp/pv.npz
    python -m bots.precinct.learn_value fit --data /tmp/pv.npz --seed 1 \
        --out solver/search/data/precinct_value.json
    python -m bots.precinct.learn_value time --games 20

``generate`` plays seeded games with the ``heuristic`` bot in every seat (the arena's derivation: one
Generator per deal seed spawns a child per seat and one for chance) and records the features at the
start of every cop's turn, labelled with the game's result. ``fit`` splits by game (a seeded 80/20
split: positions of one game are never on both sides), fits the L2 logistic regression, prints the
held-out report (log loss, Brier, ECE against the base rate and a turn-track-only model, the
reliability table, accuracy by game stage, the interactions' gain) and writes the model file.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from bots import registry
from bots.arena.tournament import deal_seeds
from solver import games
from solver.core import Action, Seat, State, spawn
from solver.core.referee import play_out
from solver.games.precinct.state import PrecinctState
from solver.search.precinct_value import (
    BASE,
    NAMES,
    SIGNS,
    ValueModel,
    features,
    fit_logistic,
    penalised_gradient,
)

Arr = npt.NDArray[np.float64]


def play_one(deal: int, players: int = 4) -> tuple[list[list[float]], int, float]:
    """Play one heuristic game from ``deal``: (features at each cop's turn start, result, seconds)."""
    start = time.perf_counter()
    game = games.load("precinct", players=players)
    n = game.num_players
    children = spawn(np.random.default_rng(deal), n + 1)
    seats = [registry.make(game, "heuristic", seat=s, rng=children[s]) for s in range(n)]
    rows: list[list[float]] = []
    seen = [0]

    def act(st: State, seat: Seat) -> Action:
        return seats[seat].step(st.view(seat))

    def record(st: State, _: Seat, __: Action) -> None:
        st = cast(PrecinctState, st)  # the loop only ever holds Precinct states
        if st.turns != seen[0] and st.result == 0:  # a cop's turn has just begun
            seen[0] = st.turns
            rows.append(features(st).tolist())

    final = cast(PrecinctState, play_out(game.new_initial_state(), act, children[n], on_step=record))
    return rows, final.result, time.perf_counter() - start


def _job(args: tuple[int, int, int]) -> tuple[int, list[list[float]], int, float]:
    index, deal, players = args
    rows, result, seconds = play_one(deal, players)
    return index, rows, result, seconds


def generate(games_n: int, seed: int, workers: int, players: int, out: Path, first: int = 0) -> None:
    """Play deals ``first`` .. ``first + games_n - 1`` of ``seed`` (``workers`` processes); save to ``out``.

    A long run can be split into pieces (``first``) that :func:`fit_report` reads together.
    """
    deals = deal_seeds(seed, first + games_n)[first:]
    jobs = [(first + i, d, players) for i, d in enumerate(deals)]
    start = time.perf_counter()
    results: list[tuple[int, list[list[float]], int, float]] = []
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for k, res in enumerate(pool.imap_unordered(_job, jobs, chunksize=4)):
                results.append(res)
                if (k + 1) % 100 == 0:
                    print(f"{k + 1} games, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    else:
        results = [_job(j) for j in jobs]
    results.sort()
    x = [row for _, rows, _, _ in results for row in rows]
    game_id = [i for i, rows, _, _ in results for _ in rows]
    label = [1.0 if r > 0 else 0.0 for _, rows, r, _ in results for _ in rows]
    wall = time.perf_counter() - start
    np.savez_compressed(out, x=np.array(x), game=np.array(game_id), y=np.array(label),
                        wins=np.array([r for _, _, r, _ in results]),
                        game_seconds=np.array([s for _, _, _, s in results]),
                        meta=json.dumps({"games": games_n, "first": first, "seed": seed, "players": players,
                                         "names": list(NAMES), "wall_seconds": wall}))
    wins = sum(1 for _, _, r, _ in results if r > 0)
    print(f"{games_n} games, {len(x)} positions, good won {wins} ({wins / games_n:.3f}), "
          f"{wall:.0f} s wall ({games_n / wall:.2f} games/s with {workers} workers)")


# --- evaluation -------------------------------------------------------------------------------------
def log_loss(p: Arr, y: Arr) -> float:
    """Mean negative log-likelihood of labels ``y`` under probabilities ``p``."""
    q = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def brier(p: Arr, y: Arr) -> float:
    """Mean squared error of the probabilities."""
    return float(np.mean((p - y) ** 2))


def reliability(p: Arr, y: Arr, bins: int = 10) -> list[tuple[float, float, int, float, float]]:
    """Per equal-width bin: (low, high, count, mean predicted, observed rate)."""
    edges = np.linspace(0, 1, bins + 1)
    idx = np.minimum((p * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        m = idx == b
        k = int(m.sum())
        out.append((float(edges[b]), float(edges[b + 1]), k, float(p[m].mean()) if k else 0.0,
                    float(y[m].mean()) if k else 0.0))
    return out


def ece(p: Arr, y: Arr, bins: int = 10) -> float:
    """Expected calibration error: the count-weighted |mean predicted - observed| over 10 bins."""
    return sum(k * abs(mp - obs) for _, _, k, mp, obs in reliability(p, y, bins)) / len(p)


def _row(name: str, p: Arr, y: Arr) -> str:
    acc = float(np.mean((p >= 0.5) == (y > 0.5)))
    return f"| {name} | {log_loss(p, y):.4f} | {brier(p, y):.4f} | {ece(p, y):.4f} | {acc:.3f} |"


def load_data(paths: Sequence[Path]) -> tuple[Arr, Arr, npt.NDArray[np.int64], list[dict[str, Any]]]:
    """(features, labels, game ids, each file's meta) of ``generate`` files read together.

    Game ids are made unique across files; two files holding the same deal are refused.
    """
    xs, ys, gids, metas = [], [], [], []
    taken: dict[tuple[int, int], set[int]] = {}
    for k, path in enumerate(paths):
        npz = np.load(path)
        meta = json.loads(str(npz["meta"]))
        if meta["names"] != list(NAMES):
            raise SystemExit(f"{path}: features {meta['names'][:3]}... are not the current NAMES; regenerate")
        gid = npz["game"]
        seen = taken.setdefault((meta["seed"], meta["players"]), set())
        if seen & set(gid.tolist()):
            raise SystemExit(f"{path}: holds deals another file already holds")
        seen.update(gid.tolist())
        xs.append(npz["x"])
        ys.append(npz["y"])
        gids.append(gid + k * 10**7)
        metas.append(meta)
    return np.vstack(xs), np.concatenate(ys), np.concatenate(gids), metas


def fit_report(data: Sequence[Path], seed: int, l2: float, out: Path | None, command: str) -> str:
    """Fit on a seeded 80/20 split by game, and return the held-out report (markdown)."""
    x, y, gid, metas = load_data(data)
    meta = {"files": [str(p) for p in data], "games": sum(m["games"] for m in metas),
            "seed": sorted({m["seed"] for m in metas}), "players": sorted({m["players"] for m in metas})}
    ids = np.unique(gid)
    rng = np.random.default_rng(seed)
    held = set(rng.choice(ids, size=len(ids) // 5, replace=False).tolist())
    test = np.array([g in held for g in gid])
    xtr, ytr, xte, yte = x[~test], y[~test], x[test], y[test]
    lines = [f"data: {', '.join(meta['files'])} ({meta['games']} games, seed {meta['seed']}, "
             f"{meta['players']} players), "
             f"{len(ids) - len(held)} train games / {len(held)} held-out games, "
             f"{len(ytr)} / {len(yte)} positions; train base rate {ytr.mean():.3f}", ""]
    models: dict[str, tuple[ValueModel, int]] = {}
    track = NAMES.index("rounds_left")
    for name, cols in (("turn track only", [track]), ("base features", list(range(len(BASE)))),
                       ("base + interactions", list(range(len(NAMES))))):
        w, b = fit_logistic(xtr[:, cols], ytr, l2=l2, signs=[SIGNS.get(NAMES[c], 0) for c in cols])
        full = np.zeros(len(NAMES) if len(cols) > 1 else track + 1)
        full[cols] = w
        models[name] = (ValueModel(NAMES[: len(full)], full.tolist(), b), len(cols))
    final_w = np.array(models["base + interactions"][0].weights)
    live = final_w != 0  # the gradient is zero in the columns the sign constraints left free
    grad = penalised_gradient(xtr[:, live], ytr, final_w[live], models["base + interactions"][0].bias, l2)
    lines += ["| model (held-out) | log loss | Brier | ECE (10 bins) | accuracy at 0.5 |",
              "|---|---|---|---|---|",
              _row("constant base rate (train)", np.full(len(yte), ytr.mean()), yte)]
    for name, (model, _) in models.items():
        lines.append(_row(name, model.values(xte), yte))
    final = models["base + interactions"][0]
    p = final.values(xte)
    lines += ["", "Reliability of the final model (held-out, 10 equal-width bins):", "",
              "| bin | positions | mean predicted | observed win rate | gap |", "|---|---|---|---|---|"]
    for lo, hi, k, mp, obs in reliability(p, yte):
        if k:
            lines.append(f"| {lo:.1f}-{hi:.1f} | {k} | {mp:.3f} | {obs:.3f} | {mp - obs:+.3f} |")
    rounds = xte[:, track] * 10.0
    lines += ["", "By game stage (rounds left on the turn track; held-out):", "",
              "| stage | positions | base rate | log loss (base rate) | log loss (model) | Brier (model) | "
              "ECE (model) | accuracy |", "|---|---|---|---|---|---|---|---|"]
    base_p = float(ytr.mean())
    for stage, m in (("early (> 6 rounds left)", rounds > 6), ("mid (3-6)", (rounds > 3) & (rounds <= 6)),
                     ("late (<= 3)", rounds <= 3)):
        if m.any():
            ps, ys = p[m], yte[m]
            acc = float(np.mean((ps >= 0.5) == (ys > 0.5)))
            lines.append(f"| {stage} | {int(m.sum())} | {ys.mean():.3f} | "
                         f"{log_loss(np.full(len(ys), base_p), ys):.4f} | {log_loss(ps, ys):.4f} | "
                         f"{brier(ps, ys):.4f} | {ece(ps, ys):.4f} | {acc:.3f} |")
    players = np.rint(xte[:, NAMES.index("players")] * 4 + 4).astype(int)
    if len(set(players.tolist())) > 1:
        lines += ["", "By player count (held-out):", "", "| players | positions | base rate | log loss | "
                  "Brier | ECE |", "|---|---|---|---|---|---|"]
        for n in sorted(set(players.tolist())):
            m = players == n
            ps, ys = p[m], yte[m]
            lines.append(f"| {n} | {int(m.sum())} | {ys.mean():.3f} | {log_loss(ps, ys):.4f} | "
                         f"{brier(ps, ys):.4f} | {ece(ps, ys):.4f} |")
    lines += ["", f"fit check: max |gradient| of the penalised objective at the optimum = "
              f"{float(np.max(np.abs(grad))):.2e} (over the {int(live.sum())} columns the sign constraints "
              "left free)",
              "", "Weights (raw feature units):", "",
              "| feature | weight |", "|---|---|", f"| bias | {final.bias:+.4f} |"]
    lines += [f"| {n} | {w:+.4f} |" for n, w in zip(final.names, final.weights, strict=True)]
    report = "\n".join(lines)
    if out is not None:
        # refit on every game for the shipped weights (the held-out numbers above judge the recipe)
        w, b = fit_logistic(x, y, l2=l2, signs=[SIGNS.get(n, 0) for n in NAMES])
        shipped = ValueModel(NAMES, w.tolist(), b)
        doc = shipped.to_json(fitted_by=command, seed=seed, l2=l2, data=meta,
                              positions=len(y), held_out=report.splitlines()[4:8])
        out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return report


def time_calls(games_n: int, seed: int, players: int) -> str:
    """Microseconds per :func:`features` and per ``value()`` call over the positions of random games."""
    from solver.core import CHANCE
    from solver.core.referee import draw_chance
    from solver.search.precinct_value import load_value

    game = games.load("precinct", players=players)
    rng = np.random.default_rng(seed)
    states: list[PrecinctState] = []
    for _ in range(games_n):
        st = cast(PrecinctState, game.new_initial_state())
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                st.apply(draw_chance(st, rng))
            else:
                legal = st.legal_actions()
                st.apply(legal[int(rng.integers(len(legal)))])
            if st.order and st.result == 0:
                states.append(st.clone())
    model = load_value()
    out = []
    for name, call in (("features", features), ("value", model.value)):
        best = float("inf")
        for _ in range(3):  # the best of three passes: the machine is shared
            t0 = time.perf_counter()
            for st in states:
                call(st)
            best = min(best, time.perf_counter() - t0)
        out.append(f"{name}: {best / len(states) * 1e6:.1f} us per call ({len(states)} positions)")
    return "; ".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (``generate`` / ``fit`` / ``time``)."""
    parser = argparse.ArgumentParser(prog="python -m bots.precinct.learn_value",
                                     description=(__doc__ or "").split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    gen = sub.add_parser("generate", help="play seeded heuristic games and save their positions")
    gen.add_argument("--games", type=int, default=2000)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--workers", type=int, default=2, choices=(1, 2))
    gen.add_argument("--players", type=int, default=4)
    gen.add_argument("--first", type=int, default=0, help="index of the first deal (to split a run)")
    gen.add_argument("--out", type=Path, required=True)
    fit = sub.add_parser("fit", help="fit the value model, print the held-out report, write the model")
    fit.add_argument("--data", type=Path, nargs="+", required=True)
    fit.add_argument("--seed", type=int, default=1, help="seed of the train/held-out split by game")
    fit.add_argument("--l2", type=float, default=1.0)
    fit.add_argument("--out", type=Path, default=None)
    tim = sub.add_parser("time", help="time features() and value() on the positions of random games")
    tim.add_argument("--games", type=int, default=20)
    tim.add_argument("--seed", type=int, default=1)
    tim.add_argument("--players", type=int, default=4)
    args: Any = parser.parse_args(argv)
    if args.cmd == "generate":
        generate(args.games, args.seed, args.workers, args.players, args.out, args.first)
    elif args.cmd == "time":
        print(time_calls(args.games, args.seed, args.players))
    else:
        command = "python -m bots.precinct.learn_value " + " ".join(sys.argv[1:] if argv is None else argv)
        print(fit_report(args.data, args.seed, args.l2, args.out, command))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
