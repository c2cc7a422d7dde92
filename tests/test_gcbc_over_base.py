"""bench/gcbc_over_base.py: the three paired differences of a run and the replay's checks."""

from __future__ import annotations

from typing import Any

import pytest

from bench.gcbc_over_base import differences, replay_base
from solver.core import ConfigError

SEED = 7


def _game(deal: int, seat: int, side: str, won: bool) -> dict[str, Any]:
    returns = [-1.0] * 4
    returns[seat] = 1.0 if won else -1.0
    return {"deal": deal, "seat": seat, "side": side, "returns": returns}


# (deal, seat): did the search's seat win, did the heuristic's seat win (as recorded)
RECORDED = {(0, 0): (True, False), (0, 1): (False, False), (1, 0): (True, True), (1, 1): (False, True)}
RUN = {"seed": SEED, "games": [g for (d, s), (a, b) in RECORDED.items()
                               for g in (_game(d, s, "A", a), _game(d, s, "B", b))]}


@pytest.mark.parametrize(
    ("base", "again", "want"),
    [
        # the base won where the search did: the search adds nothing, the base all of it
        ({(0, 0): 1, (0, 1): 0, (1, 0): 1, (1, 1): 0}, {(0, 0): 0, (0, 1): 0, (1, 0): 1, (1, 1): 1},
         ([0, 0, 0, 0], [1, 0, 0, -1], [1, 0, 0, -1], 0)),
        # the base lost everywhere; one replayed heuristic game came out otherwise
        ({(0, 0): 0, (0, 1): 0, (1, 0): 0, (1, 1): 0}, {(0, 0): 1, (0, 1): 0, (1, 0): 1, (1, 1): 1},
         ([1, 0, 1, 0], [0, 0, -1, -1], [1, 0, 0, -1], 1)),
    ],
)
def test_differences_pair_each_deal_and_seat(base: dict[tuple[int, int], int],
                                             again: dict[tuple[int, int], int],
                                             want: tuple[list[int], list[int], list[int], int]) -> None:
    keyed = [{(SEED, d, s): w for (d, s), w in part.items()} for part in (base, again)]
    assert differences(RUN, keyed[0], keyed[1]) == want


def test_a_missing_replay_is_named() -> None:
    base = {(SEED, 0, 0): 1}
    with pytest.raises(ConfigError, match=r"\(7, 0, 1\) was not replayed"):
        differences(RUN, base, base)


HEURISTIC = {"name": "heuristic", "options": {}, "label": "heuristic"}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"name": "random"}, HEURISTIC),  # not a search bot
        ({"name": "ismcts"}, {"name": "heuristic", "options": {"estimate": "posterior"},
                              "label": "heuristic(estimate=posterior)"}),  # B is not the plain heuristic
        ({"name": "rollout"}, {"name": "random", "options": {}, "label": "random"}),
    ],
)
def test_only_a_search_against_the_heuristic_is_replayed(a: dict[str, Any], b: dict[str, Any]) -> None:
    run = {"entrants": {"A": a, "B": b}, "headline": "a run in a heuristic field"}
    with pytest.raises(ConfigError, match="a run in a heuristic field"):
        replay_base(run, 1)


def test_a_rollout_run_is_replayed_on_its_deals() -> None:
    # one deal, two seats of a 4-player table: the replay plays both sides in each seat
    run = {"entrants": {"A": {"name": "rollout"}, "B": HEURISTIC}, "headline": "rollout",
           "config": {"players": 4, "deck": "rulebook"}, "field": HEURISTIC, "seats": [0, 2],
           "games_per_seat": 1, "seed": SEED}
    base, again = replay_base(run, 1)
    assert sorted(base) == sorted(again) == [(SEED, 0, 0), (SEED, 0, 2)]
    assert all(w in (0, 1) for w in [*base.values(), *again.values()])
