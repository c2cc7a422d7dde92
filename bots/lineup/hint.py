"""What a LineUp hint adds: P(correct) per held card now, and the plan's next move with its turns to win.

Printed for the advised seat from its view alone, under the memory level of the advising bot
(``planner`` or ``greedy``: its ``memory`` option; any other bot: adult)::

    Memory (adult): P(correct) in a lineup of 5 now
      card 1  bakery  age 2 (2 held)   0.74
      card 2  wharf   age 0 (2 held)   0.86
    Plan: line up card 2 (bakery); expected own turns to win: 9.31

P(correct) is :func:`solver.belief.lineup_memory.p_correct` (exact over recall outcomes); the age is
the seat's own turns since it studied the card (read off the view's history); the plan is
:class:`solver.plan.lineup_plan.Plan` for that level.
"""

from __future__ import annotations

from typing import Any

from bots.base import Advice
from bots.hint import Asked, Extras
from solver.belief.lineup_memory import DEFAULT_LEVEL, LEVELS, p_correct
from solver.core import BadStateError, Game, View


def lines(game: Game, view: View, advice: Advice) -> list[str]:
    """The memory table and the plan's move for ``view`` (empty for another game)."""
    from bots.lineup.players import PlannerBot, replay_hand
    from solver.games.lineup.rules import LineUpGame
    from solver.plan.lineup_plan import cached_plan

    if not isinstance(game, LineUpGame):
        return []
    name = str(advice.belief.get("memory", DEFAULT_LEVEL))
    name = name if name in LEVELS else DEFAULT_LEVEL
    level = LEVELS[name]
    data: dict[str, Any] = view.to_json()
    me = data["players"][view.seat]
    count = int(me["count"])
    own, slots = replay_hand(data, view.seat)
    out = [f"Memory ({name}): P(correct) in a lineup of {count} now"]
    if not slots:
        out.append("  no face-down card")
    for i, (scene, studied) in enumerate(slots, start=1):
        if studied is None:
            out.append(f"  card {i}  {scene:<10} never studied        {1 / count:.2f}")
            continue
        age = own - studied
        p = p_correct(game.suspects, scene, level.retention(age, len(slots)), count)
        out.append(f"  card {i}  {scene:<10} age {age} ({len(slots)} held)  {p:.2f}")
    planner = PlannerBot(game, view.seat, _rng(), memory=name)
    plan = cached_plan(game, name)
    try:
        choice = planner.best(data, plan)
    except BadStateError as err:
        return [*out, f"Plan: not available here ({err})"]
    if choice.kind in ("stay", "lineup"):
        move = f"line up your {game.board.scene_names[choice.card[0]]} card"
        if choice.kind == "stay":
            move = "stay at the station and " + move
    elif choice.kind == "go":
        move = f"head for {game.board.label(plan.locs[choice.target])}"
    else:
        move = "end the turn (no more lineups)"
    out.append(f"Plan: {move}; expected own turns to win: {choice.value:.2f}")
    return out


def extras(game: Game, view: View, advice: Advice, asked: Asked | None = None) -> Extras:
    """The memory table and the plan's move, before the ranked moves."""
    return Extras(advice, lines=tuple(lines(game, view, advice)))


def _rng() -> Any:
    import numpy as np

    return np.random.default_rng(0)
