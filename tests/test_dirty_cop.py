"""The Dirty Cop posterior (solver/belief/dirty_cop.py) against an enumeration of every loyalty deal.

The reference shares no code with the module: it lists every set of dirty seats, keeps those that
agree with the loyalty cards the seat saw, and weighs each by its own product of the investigation
records' chances, written out here from the rulebook and the stated behaviour model.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import Any

import numpy as np
import pytest

import bots
from solver.belief.dirty_cop import dirty_marginals
from solver.core import BadStateError, make_rng, spawn
from solver.core.referee import play_out
from solver.games import load


def _chance(e: int, size: int, drawn: int, k: int) -> float:
    if k < 0 or k > e or drawn - k < 0 or drawn - k > size - e:
        return 0.0
    return comb(e, k) * comb(size - e, drawn - k) / comb(size, drawn)


def reference(view: dict[str, Any], hide: float) -> list[float]:
    """P(dirty) per seat by enumerating every deal of the dirty cards."""
    n, d, me = view["config"]["players"], view["config"]["dirty_cops"], view["seat"]
    shown = {me: view["my_loyalty"] == "dirty"}
    records = []
    for _, _, events in view["history"]:
        for ev in events:
            if ev["kind"] == "LoyaltyShown":
                shown[ev["seat"]] = ev["dirty"]
            if ev["kind"] == "Investigated":
                records.append((view["cops"][ev["cop"]]["seat"], ev))
    total = [0.0] * n
    z = 0.0
    for dirty in itertools.combinations(range(n), d):
        if any((p in dirty) != is_dirty for p, is_dirty in shown.items()):
            continue
        w = 1.0
        for p, ev in records:
            e, size, drawn, placed = ev["evidence"], ev["size"], ev["drawn"], ev["placed"]
            if p not in dirty:
                w *= _chance(e, size, drawn, placed)
            elif placed:
                w *= _chance(e, size, drawn, placed) * (1 - hide if 0 < placed < drawn else 1)
            else:  # an empty draw, or a mixed one he chose to hide
                mixed = sum(_chance(e, size, drawn, k) for k in range(1, drawn))
                w *= _chance(e, size, drawn, 0) + hide * mixed
        z += w
        for p in dirty:
            total[p] += w
    return [t / z for t in total]


def _views(players: int, dirty: int, seed: int, every: int = 25) -> list[dict[str, Any]]:
    game = load("precinct", players=players, dirty_cop=True, dirty_cops=dirty)
    rngs = spawn(make_rng(seed), players + 1)
    team = {s: bots.make(game, "heuristic", seat=s, rng=rngs[s]) for s in range(players)}
    out: list[dict[str, Any]] = []

    def keep(state: Any, seat: int, action: int) -> None:
        if len(state.history) % every == 0:
            out.extend(state.view(s).to_json() for s in range(players))

    play_out(game.new_initial_state(), lambda st, s: team[s].step(st.view(s)), rngs[-1], on_step=keep)
    return out


@pytest.mark.parametrize(("players", "dirty", "seed"), [(4, 1, 3), (5, 1, 8), (6, 2, 4)])
@pytest.mark.parametrize("hide", [0.0, 0.5, 1.0])
def test_marginals_equal_the_enumeration(players: int, dirty: int, seed: int, hide: float) -> None:
    views = _views(players, dirty, seed)
    informative = 0
    for view in views:
        try:
            got = dirty_marginals(view, hide)
        except BadStateError:  # no deal explains the record under this model (hide = 0 or 1)
            with pytest.raises(ZeroDivisionError):
                reference(view, hide)
            continue
        want = reference(view, hide)
        assert np.allclose(got, want, atol=1e-9, rtol=0), (got, want)
        assert abs(sum(got) - dirty) < 1e-9
        unsure = [p for p in got if 1e-9 < p < 1 - 1e-9]
        informative += len(unsure) > 1 and max(unsure) - min(unsure) > 1e-3  # evidence told seats apart
    if 0 < hide < 1:  # at 0 placing tells nothing; at 1 a placing investigator is surely honest
        assert informative, "no view where the investigations moved the posterior"


def test_a_game_without_the_dirty_cop_is_refused() -> None:
    game = load("precinct", players=4)
    with pytest.raises(BadStateError, match="no Dirty Cop"):
        dirty_marginals(game.new_initial_state().view(0).to_json())
