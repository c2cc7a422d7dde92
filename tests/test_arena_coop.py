"""The arena's co-operative mode: each entrant fields the whole team, and the paired team difference."""

from __future__ import annotations

import math

from bots.arena import tournament as arena
from bots.arena.tournament import BotSpec, format_report
from solver import games


def test_each_entrant_fields_the_team_and_the_difference_is_paired_by_deal() -> None:
    game = games.load("precinct", players=2)
    report = arena.run(game, BotSpec("heuristic"), BotSpec("random"), games=6, seed=5)
    by_deal: dict[int, dict[str, bool]] = {}
    for g in report.played:
        side = g.lineup["team"]
        assert set(g.record.bots) == {report.entrants[side].label}  # every seat is the entrant's
        good_won = any(r > 0 for r in g.record.returns)
        assert (g.winner_side == side) == good_won
        by_deal.setdefault(g.deal, {})[side] = good_won
    diffs = [int(d["A"]) - int(d["B"]) for d in by_deal.values()]
    paired = report.paired()
    assert paired is not None and paired.pairs == 6
    mean = sum(diffs) / 6
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 5)
    assert paired.mean is not None and math.isclose(paired.mean, mean)
    if sd > 0:
        low, high = paired.interval
        assert math.isclose(high - low, 2 * 1.959963984540054 * sd / math.sqrt(6))
    assert report.to_json()["paired"]["pairs"] == 6
    assert "paired team difference A - B over 6 deals" in format_report(report)


def test_a_game_of_sides_has_no_team_difference() -> None:
    report = arena.run(games.load("lineup", players=2), BotSpec("random"), BotSpec("random"), games=1, seed=1)
    assert report.paired() is None and "paired" not in report.to_json()
