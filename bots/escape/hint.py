"""What an Escape Plan hint adds: the seat's plan card, its money against the escape cost, the exits, its
route plan for the rest of the game (:mod:`bots.escape.route_plan`), and per Travel the tiles it leaves and
the officers on them.

Everything comes from the advised seat's view: its own plan card and money, the public tracks, and the
route's tiles left as :func:`bots.escape.draw.travel_routes` reads them from the view (``?`` when the view
does not pin the route down).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bots.base import Advice
from bots.escape.display import escape_cost, open_exits, part_text
from bots.escape.draw import travel_routes
from bots.escape.route_plan import lines as plan_lines
from bots.hint import Asked, Column, Extras
from solver.core import Game, View

#: the ``planner`` bot's belief entries (its plan), shown by the route plan's lines instead
_PLAN_KEYS: Final = frozenset({"plan", "status", "value", "bound", "solver", "turns_today", "turns_left"})


def role(game: Game, view: View) -> str:
    """``player with Plan 3`` (the seat's own Escape Plan card, once dealt)."""
    plan = view.to_json().get("plan")
    return f"player with {plan}" if plan else "player"


def extras(game: Game, view: View, advice: Advice, asked: Asked | None) -> Extras:
    """Lines on money, notoriety, wounds and the exits; an officers column for Travel moves."""
    data = view.to_json()
    me = view.seat
    board = data["boards"][me]
    cost = escape_cost(game, data)
    exits = open_exits(data)
    pay = "enough" if board["money"] >= cost else f"${cost - board['money']}k short"
    lines = [
        f"{part_text(data)}: you hold ${board['money']}k ({pay} for the next escape, ${cost}k); "
        f"notoriety row {board['notoriety']}; wounds green {board['green']}, red {board['red']}",
        "Open exits: " + (", ".join(f"exit {e}" for e in exits) or "none")
        + (f" (day 3 escapes through exit {exits[0]})" if len(exits) == 1 and data["day"] == 3 else ""),
    ]
    lines += plan_lines(game, view)
    # the planner's belief is its plan, which the lines above show in full
    advice = replace(advice, belief={k: v for k, v in advice.belief.items() if k not in _PLAN_KEYS})
    routes = travel_routes(game, view)
    if not routes:
        return Extras(advice, lines=tuple(lines))
    tiles = game.city.tiles  # type: ignore[attr-defined]
    # at 2 players Sandra counts as one more officer where she stands ("Only 2 Player")
    sandra = -1
    if game.num_players == 2:
        where = game.location_names.index(data["location"][2])  # type: ignore[attr-defined]
        sandra = game.city.locations[where].tile  # type: ignore[attr-defined]
    left_cells: dict[int, str] = {}
    cops_cells: dict[int, str] = {}
    for r in advice.ranked:
        route = routes.get(r.action)
        if route is None:
            continue
        left = route[1]
        if left is None:
            left_cells[r.action] = cops_cells[r.action] = "?"
            continue
        names = [tiles[t].name for t in sorted(left)]
        left_cells[r.action] = ", ".join(names) if names else "none"
        cops = sum(len(data["officers"].get(name, [])) for name in names) + (sandra in left)
        cops_cells[r.action] = str(cops)
    columns = (Column("officers", cops_cells), Column("tiles left", left_cells))
    key = ("  officers: the officers on the tiles the Travel leaves (each a wound unless avoided; "
           "Sandra counts as one at 2 players); tiles left: those tiles (?: the view does not pin the "
           "route down)",)
    return Extras(advice, lines=tuple(lines), columns=columns, key=key)
