"""Police Precinct playouts made faster must play the same moves: seeded heuristic games against
recorded hashes.

The search's simulator (:func:`bots.precinct.search.heuristic_action`, on
:func:`solver.games.precinct.view.board_data` when recorded, on its lighter
:func:`~solver.games.precinct.view.policy_data` since) and the heuristic bot on full views
(:class:`bots.precinct.heuristic.PrecinctHeuristic`, with and without accusations) were sped up with
caches and precomputed tables; a speed-up must not change one move. ``tests/data/
precinct_heuristic_sequences.json`` holds the SHA-256 of each game's whole action sequence (chance
outcomes included) as the code played them *before* the speed-up (commit d9ce221), recorded by::

    PYTHONPATH=. python tests/test_precinct_playout_speed.py --record \
        > tests/data/precinct_heuristic_sequences.json

Re-record only for a deliberate change of the heuristic or of the rules, never to make this test pass.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.precinct.heuristic import PrecinctHeuristic, score
from bots.precinct.search import heuristic_action
from solver.core import CHANCE, Action
from solver.core.rng import SplitMix64
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.view import POLICY_OMITS, board_data, build_view, policy_data

FIXTURE = Path(__file__).resolve().parent / "data" / "precinct_heuristic_sequences.json"

#: (policy, players, dirty_cop, seed, accuse_at): "sim" is the search's playout policy (policy data),
#: "bot" the heuristic bot on each seat's full view (it reads the history when it may accuse)
CASES: list[tuple[str, int, bool, int, float | None]] = [
    ("sim", 4, False, 1, None), ("sim", 4, False, 2, None), ("sim", 4, False, 3, None),
    ("sim", 4, True, 1, None), ("sim", 4, True, 2, None), ("sim", 4, True, 3, None),
    ("sim", 5, False, 1, None), ("sim", 5, True, 4, None), ("sim", 2, False, 5, None),
    ("bot", 4, False, 7, None), ("bot", 4, True, 8, None), ("bot", 4, True, 9, 0.7),
]


def play(policy: str, players: int, dirty: bool, seed: int, accuse_at: float | None) -> list[Action]:
    """A whole seeded game of the heuristic in every seat; every action applied, chance's included."""
    game = PrecinctGame(players=players, dirty_cop=dirty)
    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    ties = SplitMix64(seed)
    bots = [PrecinctHeuristic(game, s, np.random.default_rng([seed, s]), accuse_at=accuse_at)
            for s in range(players)]
    seq: list[Action] = []
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            a = out[int(rng.choice(len(out), p=[p for _, p in out]))][0]
        elif policy == "sim":
            a = heuristic_action(st, ties)
        else:
            seat = st.current_player()
            a = bots[seat].step(st.view(seat))
        seq.append(int(a))
        st.apply_unchecked(a)
    return seq


def digest(seq: list[Action]) -> str:
    """SHA-256 of the comma-joined action ids."""
    return hashlib.sha256(",".join(map(str, seq)).encode()).hexdigest()


def record() -> list[dict[str, Any]]:
    """Every case's hash and length, as the fixture stores them."""
    return [{"policy": p, "players": n, "dirty_cop": d, "seed": s, "accuse_at": acc,
             "actions": len(seq), "sha256": digest(seq)}
            for p, n, d, s, acc in CASES for seq in [play(p, n, d, s, acc)]]


def _recorded() -> list[dict[str, Any]]:
    return list(json.loads(FIXTURE.read_text()))


@pytest.mark.parametrize("case", CASES,
                         ids=lambda c: f"{c[0]}-{c[1]}p-{'dirty' if c[2] else 'clean'}-seed{c[3]}")
def test_same_moves_as_recorded(case: tuple[str, int, bool, int, float | None]) -> None:
    want = next(c for c in _recorded()
                if (c["policy"], c["players"], c["dirty_cop"], c["seed"], c["accuse_at"]) == case)
    seq = play(*case)
    assert len(seq) == want["actions"]
    assert digest(seq) == want["sha256"]


def test_fixture_covers_the_cases() -> None:
    got = {(c["policy"], c["players"], c["dirty_cop"], c["seed"], c["accuse_at"]) for c in _recorded()}
    assert got == set(CASES)
    assert any(c["dirty_cop"] for c in _recorded()) and any(c["players"] == 5 for c in _recorded())


@pytest.mark.parametrize("players,dirty,seed", [(4, False, 21), (4, True, 22), (5, True, 23)])
def test_policy_data_is_board_data_less_what_the_heuristic_never_reads(players: int, dirty: bool,
                                                                       seed: int) -> None:
    """The playouts' policy data holds board data's values, and the heuristic scores it alike (the same
    scores and reasons: a key it reads but the policy data lacked would differ or raise)."""
    game = PrecinctGame(players=players, dirty_cop=dirty)
    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    ties = SplitMix64(seed)
    checked = 0
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            st.apply_unchecked(out[int(rng.choice(len(out), p=[p for _, p in out]))][0])
            continue
        seat, legal = st.current_player(), st.legal_actions()
        full, light = board_data(st, seat), policy_data(st, seat)
        assert set(full) - set(light) == POLICY_OMITS
        for key, value in light.items():
            if key != "known":
                assert value == full[key], key
        assert light["known"]["events"]["top"] == full["known"]["events"]["top"]
        view = build_view(st, seat).to_json()
        assert {k: v for k, v in view.items() if k not in ("history", "legal_actions")} == full
        if len(legal) > 1:
            assert score(game, light, legal) == score(game, full, legal)
            checked += 1
        st.apply_unchecked(heuristic_action(st, ties))
    assert checked > 100


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: PYTHONPATH=. python tests/test_precinct_playout_speed.py --record > FIXTURE")
    json.dump(record(), sys.stdout, indent=1)
    sys.stdout.write("\n")
