"""Police 07's review hook: how far a detective's belief about Dr. Factor was from where he stood.

A detective's belief is the location filter of the hint and the ``ismcts`` detectives
(:func:`bots.police07.hint.location_probabilities`: the exact possible set weighed by the learnt
model of how he moves). At one of the detective's decisions the gap is the number of moves (the
shortest path over every line, water bus included, ticket counts ignored: ``factor_distances``)
from Dr. Factor's true stop to the nearest of the belief's likeliest stops (those tied for the top
probability); the text adds the probability the belief put on the true stop. 0 moves: he was at a
stop the detectives thought likeliest.

None (nothing hidden to compare) for Dr. Factor's own seat, for another game, and for a detective
while Dr. Factor's stop is public: before he has placed his piece (free start), and whenever the
possible set is one stop (at the start, right after he shows himself).
"""

from __future__ import annotations

from typing import Final

from bots.police07.hint import location_probabilities
from bots.review import Gap
from solver.core import Game, State, View

#: probabilities this close to the top count as tied for it (the filter's sums round)
_TIE: Final = 1e-9
#: Dr. Factor's seat
_FACTOR: Final = 0


def _pct(p: float) -> str:
    """A probability as a percentage, with a decimal below 1% (a stop the belief all but ruled out
    should not read as 0%)."""
    if p >= 0.01 or p == 0.0:
        return f"{p:.0%}"
    return f"{p:.1%}" if p >= 0.001 else "<0.1%"


def _true_stop(truth: State) -> int | None:
    """Dr. Factor's stop in ``truth`` (from his own view), or None before he has one."""
    factor = truth.view(_FACTOR).to_json().get("factor") or {}
    stop = factor.get("stop")
    return stop if isinstance(stop, int) and not isinstance(stop, bool) and stop > 0 else None


def belief_gap(game: Game, view: View, truth: State) -> Gap | None:
    """Moves from Dr. Factor's true stop to the detective's likeliest stop(s); None where nothing
    is hidden (see the module docstring). The belief comes from ``view`` alone."""
    from solver.games.police07.rules import Police07Game

    if not isinstance(game, Police07Game) or view.to_json().get("role") != "detective":
        return None
    belief = location_probabilities(game, view)
    if len(belief) <= 1:
        return None  # not placed yet, or his stop is public: there was nothing to believe
    true = _true_stop(truth)
    if true is None:
        return None
    from solver.games.police07.distances import UNREACHABLE, factor_distances

    top = max(belief.values())
    likeliest = sorted(stop for stop, p in belief.items() if p >= top - _TIE)
    table = factor_distances(game.board)
    moves, nearest = min((int(table[true, stop]), stop) for stop in likeliest)
    p_true = float(belief.get(true, 0.0))
    each = f"({_pct(top)})" if len(likeliest) == 1 else f"({_pct(top)} each)"
    if moves == 0:
        where = ("the likeliest stop" if len(likeliest) == 1
                 else f"one of the {len(likeliest)} likeliest stops")
        place = f"{where} {each}"
    else:
        where = (f"the likeliest stop {nearest}" if len(likeliest) == 1
                 else f"{nearest}, the nearest of the {len(likeliest)} likeliest stops")
        # UNREACHABLE: a board whose lines do not join every stop
        how = "no route" if moves >= UNREACHABLE else f"{moves} move{'s' * (moves != 1)}"
        place = f"{how} from {where} {each}"
    text = (f"Dr. Factor was at {true}, {place}; the belief gave {true} {_pct(p_true)} "
            f"among {len(belief)} possible stops")
    return Gap(float(moves), text)
