"""Learn the location-category weights of :mod:`solver.belief.categories` from self-play games.

    python -m bots.police07.learn_categories --games 4000 --seed 2012

plays ``--games`` Police 07 games with the ``heuristic`` bot in every seat (players cycling through
``--players``, default 2..6, each with its default pieces and no variants, on the Budapest board).
Game ``g`` draws its start cards and its bots' tie-breaks from child ``g`` of
``numpy.random.default_rng(seed).spawn(games)``, so any game can be replayed alone. At every
detective decision where Dr. Factor may be at two or more stops, it counts the category of his true
stop and the share of each category among his possible stops (both schemes at once), and writes the
weights ``w_c = (H_c + 1) / (E_c + 1)`` defined in :mod:`solver.belief.categories`, with the counts
and the command, to ``--out`` (default: the shipped ``solver/games/police07/data/location_weights.json``).

Every fifth game (``g % 5 == 4``) is also held out once: weights learnt from the other games are
scored on it by the mean log-probability they give the true stop, against uniform sampling. The
file records that evaluation, and the scheme that scores best on it is the file's default scheme.
The weights themselves are learnt from all games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

import solver
import solver.games
import solver.games.police07
from solver.belief.categories import (
    BUCKETS,
    PRIOR,
    SCHEMES,
    STOP_TYPES,
    WEIGHTS_FORMAT,
    categories,
    category_names,
    detective_stops,
)
from solver.core import JSON, Action, Seat, State, spawn
from solver.core.referee import play_out
from solver.games.police07.locations import possible_locations
from solver.games.police07.rules import Police07Game

DEFAULT_OUT: Final = Path(solver.games.police07.__file__).resolve().parent / "data" / "location_weights.json"
HOLDOUT_EVERY: Final = 5
BOT: Final = "heuristic"


@dataclass
class Tally:
    """Counts of one scheme: hits ``H``, expected hits ``E`` (shares) and possible stops seen."""

    scheme: str
    hits: npt.NDArray[np.float64] = field(init=False)
    share: npt.NDArray[np.float64] = field(init=False)
    stops: npt.NDArray[np.float64] = field(init=False)
    decisions: int = 0

    def __post_init__(self) -> None:
        k = len(category_names(self.scheme))
        self.hits = np.zeros(k)
        self.share = np.zeros(k)
        self.stops = np.zeros(k)

    def add(self, counts: npt.NDArray[np.intp], true_cat: int) -> None:
        """One decision: ``counts[c]`` possible stops in category c, the true stop in ``true_cat``."""
        self.hits[true_cat] += 1
        self.share += counts / counts.sum()
        self.stops += counts
        self.decisions += 1

    def weights(self) -> npt.NDArray[np.float64]:
        """``(H_c + PRIOR) / (E_c + PRIOR)`` per category."""
        result: npt.NDArray[np.float64] = (self.hits + PRIOR) / (self.share + PRIOR)
        return result


@dataclass
class Decision:
    """A held-out decision: per scheme, the category counts of the possible set and the true one."""

    counts: dict[str, npt.NDArray[np.intp]]
    truth: dict[str, int]


def _count(game: Police07Game, view: JSON, true_stop: int) -> Decision | None:
    possible = sorted(possible_locations(game, view))
    if len(possible) < 2:
        return None  # the answer is known: nothing to learn
    dets = detective_stops(view)
    index = possible.index(true_stop)
    counts: dict[str, npt.NDArray[np.intp]] = {}
    truth: dict[str, int] = {}
    for scheme in SCHEMES:
        cats = categories(game.board, possible, dets, scheme)
        counts[scheme] = np.bincount(cats, minlength=len(category_names(scheme)))
        truth[scheme] = int(cats[index])
    return Decision(counts, truth)


def play_game(game: Police07Game, rng: np.random.Generator) -> tuple[list[Decision], int]:
    """Self-play one game with the heuristic bots; the counted decisions and the winner (0/1)."""
    from bots.registry import make  # bots build on solver; imported here so solver never needs bots

    bots = [make(game, BOT, seat=seat, rng=child) for seat, child in enumerate(spawn(rng, game.num_players))]
    state = game.new_initial_state()
    decisions = []

    def act(_: State, seat: Seat) -> Action:  # ``state`` is the one played on, typed as Police 07's
        view = state.view(seat)
        if seat > 0:
            found = _count(game, view.to_json(), state.pos[0])
            if found is not None:
                decisions.append(found)
        return bots[seat].step(view)

    play_out(state, act, rng)  # chance draws from ``rng`` itself, after the bots' generators were spawned
    return decisions, state.winner


def _log_prob(weights: npt.NDArray[np.float64], decision: Decision, scheme: str) -> float:
    counts = decision.counts[scheme]
    return float(np.log(weights[decision.truth[scheme]] / (counts @ weights)))


def learn(
    games: int, seed: int, players: Sequence[int] = (2, 3, 4, 5, 6), progress: bool = False
) -> JSON:
    """Play ``games`` self-play games and return the weights file's content (see the module doc)."""
    started = time.process_time()
    children = spawn(np.random.default_rng(seed), games)
    tables = {p: solver.games.load("police07", players=p) for p in players}
    total = {s: Tally(s) for s in SCHEMES}
    train = {s: Tally(s) for s in SCHEMES}
    held_out: list[Decision] = []
    wins = [0, 0]
    for g in range(games):
        game = tables[players[g % len(players)]]
        if not isinstance(game, Police07Game):
            raise TypeError("police07 did not load a Police07Game")
        decisions, winner = play_game(game, children[g])
        wins[winner] += 1
        for decision in decisions:
            for scheme in SCHEMES:
                total[scheme].add(decision.counts[scheme], decision.truth[scheme])
                if g % HOLDOUT_EVERY != HOLDOUT_EVERY - 1:
                    train[scheme].add(decision.counts[scheme], decision.truth[scheme])
        if g % HOLDOUT_EVERY == HOLDOUT_EVERY - 1:
            held_out.extend(decisions)
        if progress and (g + 1) % 250 == 0:
            print(f"{g + 1}/{games} games, {total[SCHEMES[0]].decisions} decisions", file=sys.stderr)
    uniform = float(np.mean([-np.log(d.counts[SCHEMES[0]].sum()) for d in held_out])) if held_out else 0.0
    scores = {
        s: float(np.mean([_log_prob(train[s].weights(), d, s) for d in held_out])) if held_out else 0.0
        for s in SCHEMES
    }
    best = max(SCHEMES, key=lambda s: scores[s])
    command = f"python -m bots.police07.learn_categories --games {games} --seed {seed}"
    if tuple(players) != (2, 3, 4, 5, 6):
        command += " --players " + ",".join(str(p) for p in players)
    return {
        "format": WEIGHTS_FORMAT,
        "board": "budapest",
        "description": (
            "Location-category weights for Dr. Factor's possible stops (Nijssen & Winands 2012 "
            "location categorisation); definitions in solver/belief/categories.py: category = "
            "distance from the nearest detective piece over taxi/bus/metro, bucketed "
            f"{'/'.join(BUCKETS)}, optionally crossed with the stop type {'/'.join(STOP_TYPES)}; "
            "weight = (H + 1) / (E + 1) with H the decisions where his true stop was in the "
            "category and E the sum over decisions of the category's share of the possible stops."
        ),
        "default_scheme": best,
        "prior": PRIOR,
        "schemes": {
            s: {
                "categories": list(category_names(s)),
                "weights": [round(float(w), 4) for w in total[s].weights()],
                "hits": [int(h) for h in total[s].hits],
                "share": [round(float(e), 3) for e in total[s].share],
                "possible_stops": [int(n) for n in total[s].stops],
            }
            for s in SCHEMES
        },
        "evaluation": {
            "what": (
                f"mean log-probability (nats) of Dr. Factor's true stop over the decisions of the "
                f"held-out games (g % {HOLDOUT_EVERY} == {HOLDOUT_EVERY - 1}), weights learnt from "
                "the other games; higher is better"
            ),
            "decisions": len(held_out),
            "uniform": round(uniform, 4),
            **{s: round(scores[s], 4) for s in SCHEMES},
        },
        "provenance": {
            "command": command,
            "games": games,
            "seed": seed,
            "game_seeds": "game g uses child g of numpy.random.default_rng(seed).spawn(games)",
            "players": list(players),
            "configs": "players cycle through the list in game order; default pieces, no variants",
            "bots": {"factor": BOT, "detectives": BOT, "options": {}},
            "decisions": total[SCHEMES[0]].decisions,
            "wins": {"factor": wins[0], "detectives": wins[1]},
            "copsolver_version": solver.__version__,
            "compiled": solver.is_compiled(),
            "cpu_seconds": round(time.process_time() - started, 1),
        },
    }


def _players(text: str) -> list[int]:
    try:
        values = [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--players wants numbers like 2,3,4, not {text!r}") from None
    if not values or not all(2 <= p <= 6 for p in values):
        raise argparse.ArgumentTypeError(f"--players: each player count must be 2..6, not {text!r}")
    return values


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: learn, write the file, print a one-screen summary."""
    parser = argparse.ArgumentParser(
        prog="python -m bots.police07.learn_categories",
        description="Learn Police 07 location-category weights from heuristic self-play.",
    )
    parser.add_argument("--games", type=int, default=4000, help="self-play games (default 4000)")
    parser.add_argument("--seed", type=int, default=2012, help="master seed (default 2012)")
    parser.add_argument("--players", type=_players, default=[2, 3, 4, 5, 6],
                        help="player counts to cycle through, e.g. 4 or 2,3,4,5,6 (the default)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON file")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    data = learn(args.games, args.seed, args.players, progress=not args.quiet)
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    summary: dict[str, Any] = data["evaluation"]
    print(f"wrote {args.out}: {data['provenance']['decisions']} decisions from {args.games} games")
    for scheme in SCHEMES:
        entry = data["schemes"][scheme]
        pairs = ", ".join(f"{c} {w:g}" for c, w in zip(entry["categories"], entry["weights"], strict=True))
        print(f"  {scheme}: {pairs}")
    print(f"  held-out log-prob: uniform {summary['uniform']}, "
          + ", ".join(f"{s} {summary[s]}" for s in SCHEMES) + f"; default {data['default_scheme']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
