"""Learn the Precinct state value (:mod:`solver.search.precinct_value`) from heuristic self-play.

Two steps, each a subcommand::

    python -m bots.precinct.learn_value generate --games 2000 --seed 1 --workers 2 --out /tmp/pv.npz
    python -m bots.precinct.learn_value generate --games 500 --seed 3 --dirty --accuse-at 0.7 \
        --out /tmp/pv_dirty.npz
    python -m bots.precinct.learn_value fit --data /tmp/pv.npz /tmp/pv_dirty.npz --seed 1 \
        --compare old_model.json --out solver/search/data/precinct_value.json
    python -m bots.precinct.learn_value time --games 20 [--dirty]

``generate`` plays seeded games with the ``heuristic`` bot in every seat (the arena's derivation: one
Generator per deal seed spawns a child per seat and one for chance), optionally with the Dirty Cop and
with the good seats accusing, and records the features at the start of every cop's turn, labelled with
the game's result; each file is one table (player count, Dirty Cop, accusation threshold). ``fit``
holds out a seeded fifth of each file's games (positions of one game are never on both sides), fits
the L2 logistic regression on all tables together, prints the held-out report per table (log loss,
Brier, ECE against the table's base rate, an older model, a turn-track-only model and the model
without the Dirty Cop features; reliability, game stage, the dirty cop's state) and writes the model.
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
    INTERACTIONS,
    NAMES,
    SIGNS,
    ValueModel,
    features,
    fit_logistic,
    load_value,
    penalised_gradient,
)

Arr = npt.NDArray[np.float64]


def play_one(deal: int, players: int = 4, dirty: bool = False, accuse_at: float | None = None
             ) -> tuple[list[list[float]], int, float]:
    """Play one heuristic game from ``deal``: (features at each cop's turn start, result, seconds).

    ``dirty``: with the Dirty Cop; ``accuse_at``: the good seats' accusation threshold (the heuristic
    ignores it in the dirty seat), so that exposed dirty cops appear in the data.
    """
    start = time.perf_counter()
    game = games.load("precinct", players=players, dirty_cop=dirty)
    n = game.num_players
    children = spawn(np.random.default_rng(deal), n + 1)
    opts: dict[str, Any] = {} if accuse_at is None else {"accuse_at": accuse_at}
    seats = [registry.make(game, "heuristic", seat=s, rng=children[s], **opts) for s in range(n)]
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


def _job(args: tuple[int, int, int, bool, float | None]) -> tuple[int, list[list[float]], int, float]:
    index, deal, players, dirty, accuse_at = args
    rows, result, seconds = play_one(deal, players, dirty, accuse_at)
    return index, rows, result, seconds


def generate(games_n: int, seed: int, workers: int, players: int, out: Path, first: int = 0,
             dirty: bool = False, accuse_at: float | None = None) -> None:
    """Play deals ``first`` .. ``first + games_n - 1`` of ``seed`` (``workers`` processes); save to ``out``.

    A long run can be split into pieces (``first``) that :func:`fit_report` reads together.
    """
    deals = deal_seeds(seed, first + games_n)[first:]
    jobs = [(first + i, d, players, dirty, accuse_at) for i, d in enumerate(deals)]
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
                                         "dirty": dirty, "accuse_at": accuse_at,
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


def table_name(meta: dict[str, Any]) -> str:
    """A data file's table: player count, with or without the Dirty Cop, and the accusation threshold."""
    name = f"{meta['players']}p"
    if meta.get("dirty"):
        name += " dirty"
        if meta.get("accuse_at") is not None:
            name += f" accuse {meta['accuse_at']:g}"
    return name


def load_data(paths: Sequence[Path]) -> tuple[Arr, Arr, npt.NDArray[np.int64], list[dict[str, Any]],
                                               npt.NDArray[np.int64]]:
    """(features, labels, game ids, each file's meta, each row's file index) of ``generate`` files.

    Game ids are made unique across files; two files holding the same deal of one table are refused.
    A file without the Dirty Cop written before :data:`DIRTY` existed (its names a prefix of NAMES) is
    padded with zeros: those features are 0 in such a game, and the others are unchanged there.
    """
    xs, ys, gids, metas, files = [], [], [], [], []
    taken: dict[tuple[Any, ...], set[int]] = {}
    for k, path in enumerate(paths):
        npz = np.load(path)
        meta = json.loads(str(npz["meta"]))
        x = npz["x"]
        names = meta["names"]
        if names != list(NAMES):
            if meta.get("dirty") or names != list(NAMES[: len(names)]) or len(names) < len(BASE):
                raise SystemExit(f"{path}: features {names[:3]}... are not the current NAMES; regenerate")
            x = np.hstack([x, np.zeros((len(x), len(NAMES) - len(names)))])
        gid = npz["game"]
        key = (meta["seed"], meta["players"], bool(meta.get("dirty")), meta.get("accuse_at"))
        seen = taken.setdefault(key, set())
        if seen & set(gid.tolist()):
            raise SystemExit(f"{path}: holds deals another file already holds")
        seen.update(gid.tolist())
        xs.append(x)
        ys.append(npz["y"])
        gids.append(gid + k * 10**7)
        metas.append(meta)
        files.append(np.full(len(gid), k))
    return np.vstack(xs), np.concatenate(ys), np.concatenate(gids), metas, np.concatenate(files)


def _held_out(gid: npt.NDArray[np.int64], files: npt.NDArray[np.int64], seed: int) -> npt.NDArray[np.bool_]:
    """The held-out rows: a fifth of each file's games, drawn by a fresh Generator(``seed``) per file, so
    a file's split does not depend on the other files read with it (the 4-player no-dirty file keeps the
    held-out games it had when it was fitted alone)."""
    held: set[int] = set()
    for k in np.unique(files):
        ids = np.unique(gid[files == k])
        rng = np.random.default_rng(seed)
        held |= set(rng.choice(ids, size=len(ids) // 5, replace=False).tolist())
    return np.array([g in held for g in gid.tolist()])


def fit_report(data: Sequence[Path], seed: int, l2: float, out: Path | None, command: str,
               compare: Path | None = None) -> str:
    """Fit on a seeded 80/20 split by game, and return the held-out report (markdown).

    ``compare``: an older model file, reported alongside per table (it reads a prefix of the features).
    """
    x, y, gid, metas, files = load_data(data)
    tables = [table_name(m) for m in metas]
    meta = {"files": [str(p) for p in data], "games": sum(m["games"] for m in metas),
            "seed": sorted({m["seed"] for m in metas}), "players": sorted({m["players"] for m in metas}),
            "tables": {t: sum(m["games"] for m, u in zip(metas, tables, strict=True) if u == t)
                       for t in dict.fromkeys(tables)}}
    test = _held_out(gid, files, seed)
    xtr, ytr, xte, yte = x[~test], y[~test], x[test], y[test]
    fte = files[test]
    lines = [f"data: {len(data)} files ({meta['games']} games: "
             + ", ".join(f"{t} {g}" for t, g in meta["tables"].items()) + f"), "
             f"{len(np.unique(gid[~test]))} train games / {len(np.unique(gid[test]))} held-out games, "
             f"{len(ytr)} / {len(yte)} positions; train base rate {ytr.mean():.3f}", ""]
    models: dict[str, ValueModel] = {}
    if compare is not None:
        models["previous model"] = load_value(compare)
    track = NAMES.index("rounds_left")
    for name, cols in (("turn track only", [track]),
                       ("base + interactions", list(range(len(BASE) + len(INTERACTIONS)))),
                       ("with the Dirty Cop features", list(range(len(NAMES))))):
        w, b = fit_logistic(xtr[:, cols], ytr, l2=l2, signs=[SIGNS.get(NAMES[c], 0) for c in cols])
        full = np.zeros(max(cols) + 1)
        full[cols] = w
        models[name] = ValueModel(NAMES[: len(full)], full.tolist(), b)
    final = models["with the Dirty Cop features"]
    final_w = np.array(final.weights)
    live = final_w != 0  # the gradient is zero in the columns the sign constraints left free
    grad = penalised_gradient(xtr[:, live], ytr, final_w[live], final.bias, l2)
    # the base rate of a table is its own train rate: the constant a table-aware guess would use
    lines += ["| table | held-out games / positions | model | log loss | Brier | ECE (10 bins) | accuracy |",
              "|---|---|---|---|---|---|---|"]
    groups: dict[str, list[int]] = {}
    for k, t in enumerate(tables):
        groups.setdefault(t, []).append(k)
    groups["all"] = list(range(len(tables)))
    for t, ks in groups.items():
        m_te = np.isin(fte, ks)
        m_tr = np.isin(files[~test], ks)
        if not m_te.any():
            continue
        xs, ys = xte[m_te], yte[m_te]
        size = f"{len(np.unique(gid[test][m_te]))} / {int(m_te.sum())}"
        lines.append(_trow(t, size, "base rate of the table (train)", np.full(len(ys), ytr[m_tr].mean()), ys))
        for name, model in models.items():
            lines.append(_trow(t, size, name, model.values(xs), ys))
    p = final.values(xte)
    lines += ["", "Reliability of the final model (held-out, all tables, 10 equal-width bins):", "",
              "| bin | positions | mean predicted | observed win rate | gap |", "|---|---|---|---|---|"]
    for lo, hi, k, mp, obs in reliability(p, yte):
        if k:
            lines.append(f"| {lo:.1f}-{hi:.1f} | {k} | {mp:.3f} | {obs:.3f} | {mp - obs:+.3f} |")
    rounds = xte[:, track] * 10.0
    lines += ["", "By game stage (rounds left on the turn track; held-out, all tables):", "",
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
    dirty_rows = xte[:, NAMES.index("dirty_hidden")] + xte[:, NAMES.index("dirty_underground")] > 0
    if dirty_rows.any():
        lines += ["", "Dirty-cop games by the dirty cop's state (held-out):", "",
                  "| state | positions | observed win rate | mean predicted | log loss | ECE |",
                  "|---|---|---|---|---|---|"]
        hid = xte[:, NAMES.index("dirty_hidden")] > 0
        exp = xte[:, NAMES.index("dirty_exposed")] > 0
        und = (xte[:, NAMES.index("dirty_underground")] > 0) & ~exp
        for name, m in (("hidden", hid), ("revealed himself (underground)", und),
                        ("exposed by an accusation", exp)):
            if m.any():
                lines.append(f"| {name} | {int(m.sum())} | {yte[m].mean():.3f} | {p[m].mean():.3f} | "
                             f"{log_loss(p[m], yte[m]):.4f} | {ece(p[m], yte[m]):.4f} |")
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
        table = [s for s in lines if s.startswith("| ") and "with the Dirty Cop features" in s
                 or "base rate of the table" in s]
        doc = shipped.to_json(fitted_by=command, seed=seed, l2=l2, data=meta, positions=len(y),
                              held_out=table)
        out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return report


def _trow(table: str, size: str, name: str, p: Arr, y: Arr) -> str:
    acc = float(np.mean((p >= 0.5) == (y > 0.5)))
    return (f"| {table} | {size} | {name} | {log_loss(p, y):.4f} | {brier(p, y):.4f} | {ece(p, y):.4f} | "
            f"{acc:.3f} |")


def time_calls(games_n: int, seed: int, players: int, dirty: bool = False) -> str:
    """Microseconds per :func:`features` and per ``value()`` call over the positions of random games.

    Each position is a fresh clone (no cached scan of the action records carried over from an earlier
    call), as a search's playout ends on a state no one scored before.
    """
    from solver.core import CHANCE
    from solver.core.referee import draw_chance

    game = games.load("precinct", players=players, dirty_cop=dirty)
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
    under = [st for st in states if any(st.underground)]
    for name, call, group in (("features", features, states), ("value", model.value, states),
                              ("value, someone underground", model.value, under)):
        if not group:
            continue
        best = float("inf")
        for _ in range(3):  # the best of three passes: the machine is shared
            batch = [st.clone() for st in group]  # clones of unscored states: nothing cached
            t0 = time.perf_counter()
            for st in batch:
                call(st)
            best = min(best, time.perf_counter() - t0)
        out.append(f"{name}: {best / len(group) * 1e6:.1f} us per call ({len(group)} positions)")
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
    gen.add_argument("--dirty", action="store_true", help="with the Dirty Cop")
    gen.add_argument("--accuse-at", type=float, default=None,
                     help="the good seats accuse from this posterior (default: never)")
    gen.add_argument("--out", type=Path, required=True)
    fit = sub.add_parser("fit", help="fit the value model, print the held-out report, write the model")
    fit.add_argument("--data", type=Path, nargs="+", required=True)
    fit.add_argument("--seed", type=int, default=1, help="seed of the train/held-out split by game")
    fit.add_argument("--l2", type=float, default=1.0)
    fit.add_argument("--out", type=Path, default=None)
    fit.add_argument("--compare", type=Path, default=None, help="an older model file to report alongside")
    tim = sub.add_parser("time", help="time features() and value() on the positions of random games")
    tim.add_argument("--games", type=int, default=20)
    tim.add_argument("--seed", type=int, default=1)
    tim.add_argument("--players", type=int, default=4)
    tim.add_argument("--dirty", action="store_true", help="with the Dirty Cop")
    args: Any = parser.parse_args(argv)
    if args.cmd == "generate":
        generate(args.games, args.seed, args.workers, args.players, args.out, args.first, args.dirty,
                 args.accuse_at)
    elif args.cmd == "time":
        print(time_calls(args.games, args.seed, args.players, args.dirty))
    else:
        command = "python -m bots.precinct.learn_value " + " ".join(sys.argv[1:] if argv is None else argv)
        print(fit_report(args.data, args.seed, args.l2, args.out, command, args.compare))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
