"""Paired vs independent standard errors of the ismcts margin rule (bench/results/gcbc.md).

For ten mid-game 6-player positions of seeded heuristic games (the first turn decision at or after
a given decision count), one ``compare=paired`` search of 500 iterations each, for ``tree`` 0 and
1; for every searched root action with at least 20 visits other than the heuristic's choice, the
ratio of the paired standard error of its gain over that choice (:func:`paired_gain`) to the
independent one (:func:`gain_over`) on the same search. Prints the median ratio per ``tree``.
Run: ``PYTHONPATH=. python bench/gcbc_paired_se.py``.
"""

from __future__ import annotations

import statistics

import bots
from bots.gcbc.ismcts import GCBCISMCTSBot, _in_window, gain_over, paired_gain
from tests.gcbc_positions import heuristic_position

POSITIONS = [(6, 45), (3, 20), (5, 60), (7, 30), (8, 80), (9, 10), (10, 50), (11, 70), (12, 40), (13, 25)]


def ratios(tree: int) -> list[float]:
    """The standard-error ratios over the positions for ``tree``."""
    out = []
    for seed, start in POSITIONS:
        for decisions in range(start, start + 40):
            state = heuristic_position(6, seed, decisions)
            if state.is_terminal():
                break
            me = state.current_player()
            bot = bots.make(state.game, "ismcts", seat=me, rng=11, iterations=500, compare="paired",
                            tree=tree)
            view = state.view(me)
            if not (bot._concealment(tuple(view.legal_actions)) or _in_window(view)  # type: ignore[attr-defined]
                    or len(view.legal_actions) < 3):
                break
        else:
            continue
        if not isinstance(bot, GCBCISMCTSBot):
            raise TypeError("gcbc ismcts is not the GCBC bot")
        result = bot.search(view)
        base = bot.base_action(view)
        results = bot.paired_results
        if results is None:
            raise TypeError("compare=paired kept no paired results")
        for s in result.stats:
            if s.action != base and s.visits >= 20:
                paired = paired_gain(results, s.action, base)[1]
                out.append(paired / gain_over(result.stats, s.action, base)[1])
    return out


if __name__ == "__main__":
    for tree in (0, 1):
        r = ratios(tree)
        print(f"tree={tree}: {len(r)} comparisons, median paired/independent standard error "
              f"{statistics.median(r):.2f}")
