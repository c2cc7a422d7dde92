"""Draw an Escape Plan position as SVG (and PNG): the placed city, the pieces, the seat's legal moves
as clickable places, and with a hint the advised move and the seat's route plan.

Everything on the picture comes from one seat's view (and, for a hint, the advice a bot gave on that
view): the placed City tiles (public), their Land zones, Locations, officers and the pawns, the exits
open or closed, the legal moves that have a place, and the best-ranked move. Nothing of another seat's
plan card or face-down tiles is in a view, so nothing of them can be drawn
(``tests/test_escape_display.py`` and ``tests/test_draw_escape.py`` check it against the true state's
secrets). Without advice (the web page's main picture) there is no best move and no route plan.

**Clickable moves** (:func:`clickable`): an element with ``act`` in its class and ``data-actions``, a
JSON list of action texts, carries every legal action that has a place on the city or on the panel:

- a Location (its ``<g class="location KIND act">``): the Travels to it (``travel store A route 2``),
  the escape routes when one exit is open, the Business or Safe House tile choices when exactly one
  placed business (safe house) space lacks its tile, ``use gang member of`` that gang, and the Visit's
  choices at the seat's own Location (gas can, heal, church, exit income or tile, Hospital heal, key,
  enter, locker, equipment and Fixer purchases);
- a City tile (a transparent ``<polygon class="act">`` over it, the last child of its group): ``to
  TILE`` (an officer's destination), ``move officer to``, ``avoid officers on``, ``jet ski on``;
- an officer (its ``<g class="officer TYPE act">``): ``officer TYPE on``, ``avoid TYPE on``, ``move
  TYPE from``, ``snitch TYPE on``;
- an empty cell a tile may be placed on (``<g class="cell act" data-cell="q,r">`` in ``cells``): its
  ``place at q,r rot k`` for every legal rotation;
- Sandra's pawn (a ``<circle class="act">`` in it): ``sandra as TYPE``;
- on the panel (below the city): the seat's board spaces, the Item, Contact and unlocked Asset space
  an action names (``use item space 2``, ``keep 30 on item 4``, ``buy vest on item 1`` (also on the
  Location), ``contact to space 3``, ``contact replaces space 1``, ``use asset space 3``, ``unlock ASSET``
  on the space of the locked tile), a tile display stack (``tile A``), a contact display card (``take
  Medic from display 2``), the Rest token (``rest``), the First Aid tile (``first aid``), the gas cans
  (``gas K``).

Without a place (the page lists them as buttons): ``done``, ``yes``/``no``, ``move``, ``pass``, ``take
wounds``, the end-of-turn bonuses, ``contact to the box``, and a Business or Safe House choice while
several spaces lack their tile.

**The panel** (:func:`_panel`) shows what the seat's view holds beyond the city: the day, part and turn
order, the exits and the escape costs, the tile and contact displays, the seat's own board (money behind
its screen, income, notoriety and its lines, wounds, Item, Contact and unlocked Asset spaces, keys, gang
markers, Rest token, First Aid, gas cans, Extra Action discs, its Escape Plan card with the places
visited), and for every other pawn its public facts only: the view tracks every board's money, but
another player's stays behind its screen (Player Setup K), and its face-down tiles stay face down.

Geometry: the city's axial grid (``docs/escape-rules.md``, "The city") drawn with pointy-top hexagons,
so direction ``d`` (E, NE, NW, W, SW, SE) points at ``60 * d`` degrees and edge ``d`` of a placed tile is
the side facing it. Each tile is six wedges, wedge ``d`` in the colour of the Land zone owning edge ``d``
(a zone owns whole edges, so a zone reads as the wedges of its edges); ferries are marked on their
water wedges. Locations sit on a ring inside their tile, labelled by kind (``B3`` is Business 3).

The seat's route plan for the rest of the game (:mod:`bots.escape.route_plan`, CP-SAT on the view) is a
dashed line from its Location through each Travel's end, every stop numbered in order; stopovers on the
way are passed through unnumbered.

The advised move: a Travel or an escape rings the destination, draws an arrow from the traveller's
Location and outlines the route's tiles left when the view pins them down (below); a tile placement
outlines the target cell; any other move is named in the legend only.

The route's tiles left are not in the notation (``travel store A route 2`` is the second minimal set of
``reachable``, whose movement points and travel resources live in the state's turn context). They are
recomputed from the view: every movement-point budget without extra resources whose offer matches the
legal travel ids destination by destination is tried (gas cans only add movement points), and the route
is drawn only when all of them agree on its tiles. A seat holding something that may have declared a
flight, a sewer ride or a jet ski (those contact cards, the Helicopter or Motorcycle Fixer, gang members)
gets the arrow alone, as does a view no budget matches.

SVG structure (what tests and other tools may rely on)::

    <svg>
      <g id="tiles">     <g class="tile" data-tile=NAME data-cell="q,r"> wedges, outline, name
                         [<polygon class="act" data-actions=/>] </g> ...
      <g id="cells">     <g class="cell act" data-cell="q,r" data-actions=> dashed hexagon </g> ...
      <g id="locations"> <g class="location KIND [act]" data-location=NAME [data-actions=]> circle,
                         label </g> ...
      <g id="officers">  <g class="officer TYPE [act]" data-tile=NAME [data-actions=]> square, letter </g>
      <g id="best-move" data-action=TEXT [data-dest=NAME data-route="tile,tile"|data-cell="q,r"]>
      <g id="plan-route" data-status=STATUS data-value=K>  the seat's route plan:
                         <g class="plan-step" data-step=N data-location=NAME> dashes, number </g> ...
      <g id="pawns">     <g class="pawn" data-pawn=N data-location=NAME> circle, number
                         [<circle class="act" data-actions=/>] </g> ...
      <g id="panel">     <g class="stack [act]" data-stack=A>, <g class="card [act]" data-position=N>,
                         <g class="own" data-seat=S>: <g class="money">, <g class="wounds">,
                         <g class="token rest|first-aid|gas [act]">,
                         <g class="space item|contact|asset [act]" data-space=N>, <g class="plan">;
                         <g class="other" data-pawn=P> ...
      <g id="legend">    title, who is to act, day and part, the advised move, colour keys

(``best-move`` and ``plan-route`` only with advice.)
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final
from xml.sax.saxutils import escape, quoteattr

from bots import svg
from bots.base import Advice
from bots.escape import route_plan
from bots.escape.display import (
    OFFICER_LETTERS,
    city_of,
    content_of,
    escape_cost,
    exit_open,
    open_exits,
    part_text,
    pawn_name,
    slot_text,
    tiles_by_name,
)
from bots.svg import BEST, actions_attr, num
from solver.core import Game, View
from solver.games.escape import codec, executive
from solver.games.escape.city import BUSINESS, GANG, MAX_MP, SAFE_HOUSE, LandType, Layout, reachable
from solver.games.escape.rules import EscapeGame
from solver.plan.escape_route import SCALE

#: Centre-to-corner size of a drawn tile, and the margins around the city.
R: Final = 70.0
_PAD: Final = 30.0
_HEADER: Final = 70.0
_FOOTER: Final = 40.0
_LAND: Final = {LandType.INDUSTRIAL: "#b9ab95", LandType.COMMERCIAL: "#f3cf7a",
                LandType.RESIDENTIAL: "#a6d68f", LandType.WATER: "#86bde8"}
_OFFICER: Final = {"county": "#2a5caa", "federal": "#3a3a3a", "swat": "#c0392b"}
#: Pawn colours (colour-blind-safe, none of them a Land colour); Sandra is black.
_PAWNS: Final = ("#009e73", "#7b3fa0", "#e6007e", "#8c6d1f", "#0072b2")
_SANDRA: Final = "#111111"
_ADVICE: Final = BEST
#: the outline of what a click plays
_ACT: Final = "#d95f02"
#: the route plan's line and stop numbers
_PLAN: Final = "#0072b2"
_SHORT: Final = {"business": "B", "safe_house": "SH", "gang": "G", "store": "St", "clinic": "Cl",
                 "church": "Ch", "hospital": "H", "exit": "X", "subway": "Sub", "heliport": "Hel"}


#: A ``<text>`` centred on (x, y), as every label on the city is.
_text = partial(svg.text, anchor="middle")


def _centre(q: int, r: int) -> tuple[float, float]:
    """The centre of axial cell ``(q, r)`` (pointy-top: E is +x, NE up and right)."""
    return R * math.sqrt(3.0) * (q + r / 2.0), R * 1.5 * r


def _corner(cx: float, cy: float, degrees: float, size: float = R) -> tuple[float, float]:
    a = math.radians(degrees)
    return cx + size * math.cos(a), cy - size * math.sin(a)  # y grows downward in SVG


def _hexagon(cx: float, cy: float, size: float = R) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in (_corner(cx, cy, 60 * i - 30, size) for i in range(6)))


def location_spots(game: Game, data: dict[str, Any]) -> dict[int, tuple[float, float]]:
    """Where each Location of a placed tile is drawn: on a ring inside its tile, in file order."""
    tiles = tiles_by_name(game)
    spots: dict[int, tuple[float, float]] = {}
    for q, r, name, _ in data["placed"]:
        cx, cy = _centre(q, r)
        locs = tiles[name].locations
        for i, loc in enumerate(locs):
            if len(locs) == 1:
                spots[loc] = (cx, cy - 6.0)
            else:
                spots[loc] = _corner(cx, cy - 6.0, 90.0 + 360.0 * i / len(locs), 0.42 * R)
    return spots


def _label(game: Game, data: dict[str, Any], loc: int) -> str:
    name = game.location_names[loc]  # type: ignore[attr-defined]
    kind = city_of(game).locations[loc].kind
    short = _SHORT.get(kind, kind[:3])
    if name in data["business_at"]:
        return f"B{data['business_at'][name]}"
    if name in data["safe_house_at"]:
        return f"SH{data['safe_house_at'][name]}"
    if name in data["gangs"]:
        return f"G{data['gangs'][name]}"
    return short + city_of(game).locations[loc].label


def travel_routes(game: Game, view: View) -> dict[int, tuple[int, frozenset[int] | None]]:
    """Each legal Travel or escape id of ``view`` -> its destination Location and its tiles left, or None
    for the tiles when the view does not pin them down (see the module docstring)."""
    data = view.to_json()
    city = city_of(game)
    moves: dict[int, tuple[int, int, bool]] = {}  # action -> destination, route, escape
    exits = open_exits(data)
    for a in view.legal_actions:
        if codec.TRAVEL <= a < codec.ESCAPE:
            dest, route = divmod(a - codec.TRAVEL, codec.MAX_ROUTES)
            moves[a] = (dest, route, False)
        elif codec.ESCAPE <= a < codec.ESCAPE + codec.MAX_ROUTES and len(exits) == 1:
            moves[a] = (city.labelled("exit", str(exits[0])), a - codec.ESCAPE, True)
    if not moves:
        return {}
    offered: dict[tuple[int, bool], int] = {}
    for dest, _, esc in moves.values():
        offered[(dest, esc)] = offered.get((dest, esc), 0) + 1
    tiles = tiles_by_name(game)
    placed = {(q, r): (tiles[name].id, rot) for q, r, name, rot in data["placed"]}
    start = game.location_names.index(data["location"][view.seat])  # type: ignore[attr-defined]
    layout = Layout.of(city, placed)
    budgets = []  # the reachable sets of every budget whose offer matches the legal ids
    for mp in range(1, MAX_MP + 1) if not _may_widen(game, data["boards"][view.seat]) else ():
        found = reachable(layout, start, mp)
        if all(min(len(found.get(dest, [])), codec.MAX_ROUTES) == count
               for (dest, _), count in offered.items()):
            budgets.append(found)
    out: dict[int, tuple[int, frozenset[int] | None]] = {}
    for a, (dest, route, esc) in moves.items():
        sets = {found[dest][route] for found in budgets}
        left = next(iter(sets)) if len(sets) == 1 else None  # none matches, or they disagree
        if left is not None and esc:  # the exit's own tile is left too ("Escaping the City")
            left = left | {city.locations[dest].tile}
        out[a] = (dest, left)
    return out


#: What may widen a Travel beyond its movement points (a flight, a sewer ride, a jet ski): contact kinds,
#: Fixer tiles, and gang members (a gang's ability), per ``solver/games/escape/executive.py``'s effects.
_WIDENING_CONTACTS: Final = frozenset({"chopper", "jet_ski", "sewer", "gang"})
_WIDENING_FIXERS: Final = frozenset({"helicopter", "motorcycle"})


def _may_widen(game: Game, board: dict[str, Any]) -> bool:
    """Whether the seat holds something that may have declared a travel resource this turn; the route
    is then not pinned down by movement points alone and is not drawn."""
    if board["gang_members"]:
        return True
    cards = content_of(game).contacts
    for text in [*board["items"], *board["contacts"]]:
        parts = str(text).split(":")
        if parts[0] == "fixer" and parts[1] in _WIDENING_FIXERS:
            return True
        if parts[0] == "contact" and cards[int(parts[1])].kind.name.lower() in _WIDENING_CONTACTS:
            return True
    return False


#: The Visit's choices that act on the Location visited ("Step 3: Visit"): the seat's own Location
#: carries them. The end-of-turn bonuses, a contact card's pick and how it is taken (also offered by
#: executive actions away from any Location) and a kept tile's Item space have no place on the city.
_VISIT_HERE: Final = (
    (codec.TAKE_GAS, codec.BONUS_DISC), (codec.V_HOSPITAL, codec.V_PICK),
)


@dataclass
class Places:
    """The view's legal actions that have a place on the city, as their texts, by place."""

    locations: dict[int, list[str]] = field(default_factory=dict)
    tiles: dict[int, list[str]] = field(default_factory=dict)
    officers: dict[tuple[int, int], list[str]] = field(default_factory=dict)  # (tile, officer type)
    cells: dict[tuple[int, int], list[str]] = field(default_factory=dict)
    pawns: dict[int, list[str]] = field(default_factory=dict)
    # the panel: the seat's Item, Contact and unlocked Asset spaces, the tile display's stacks, the contact
    # display's positions (0-based), and the board's tokens ("rest", "first aid", "gas")
    items: dict[int, list[str]] = field(default_factory=dict)
    contacts: dict[int, list[str]] = field(default_factory=dict)
    assets: dict[int, list[str]] = field(default_factory=dict)
    stacks: dict[int, list[str]] = field(default_factory=dict)
    display: dict[int, list[str]] = field(default_factory=dict)
    tokens: dict[str, list[str]] = field(default_factory=dict)

    def count(self) -> int:
        """How many (place, action) pairs there are; an action on two places counts twice."""
        return sum(len(texts) for group in (self.locations, self.tiles, self.officers, self.cells, self.pawns,
                                            self.items, self.contacts, self.assets, self.stacks, self.display,
                                            self.tokens) for texts in group.values())


def clickable(game: Game, view: View) -> Places:
    """Where each legal action of ``view`` with a place on the city goes (the module docstring's list);
    texts are the game's notation in the view's legal order (``view.to_json()["legal_actions"]``)."""
    data = view.to_json()
    city = city_of(game)
    names = game.location_names  # type: ignore[attr-defined]
    out = Places()
    exits = open_exits(data)
    placed_tiles = {tiles_by_name(game)[name].id for _, _, name, _ in data["placed"]}
    here = names.index(data["location"][view.seat]) if view.seat < len(data["location"]) else None

    def lacking(kind: str, taken: dict[str, int]) -> int | None:
        # the one placed space of ``kind`` without its tile; None when there are several (which one the
        # choice is for is the rules' queue, not the view)
        spaces = [loc.id for loc in city.locations
                  if loc.kind == kind and loc.tile in placed_tiles and names[loc.id] not in taken]
        return spaces[0] if len(spaces) == 1 else None

    for action in view.legal_actions:
        text = game.action_to_str(action)
        start, i = codec.block_of(action)
        loc: int | None = None
        if start == codec.TRAVEL:
            loc = i // codec.MAX_ROUTES
        elif start == codec.ESCAPE and len(exits) == 1:  # "Escaping the City": through the only open exit
            loc = city.labelled("exit", str(exits[0]))
        elif start == codec.BUSINESS:
            loc = lacking(BUSINESS, data["business_at"])
        elif start == codec.SAFE_HOUSE:
            loc = lacking(SAFE_HOUSE, data["safe_house_at"])
        elif any(lo <= action < hi for lo, hi in _VISIT_HERE):
            loc = here
        elif start == codec.PLACE:
            out.cells.setdefault(codec.REGION[i // 6], []).append(text)
        elif start == codec.PICK_OFFICER:
            out.officers.setdefault(divmod(i, 3), []).append(text)
        elif start == codec.DEST:
            out.tiles.setdefault(i, []).append(text)
        elif start == codec.SANDRA_AS:
            out.pawns.setdefault(game.num_players, []).append(text)  # Sandra's pawn follows the seats'
        elif start == codec.EXEC:
            _place_executive(city, i, text, out)
        if loc is not None:
            out.locations.setdefault(loc, []).append(text)
        _place_on_panel(game, data["boards"][view.seat], action, text, out)
    return out


def _place_on_panel(game: Game, board: dict[str, Any], action: int, text: str, out: Places) -> None:
    """Put ``action`` on the panel's element it names, when it names one: a board space of the seat (its
    use, a kept tile, a purchase, a contact placed, a locked asset to unlock), a display stack, a contact
    display position, the Rest token, the First Aid tile or the gas cans (the layouts of
    ``solver/games/escape/codec.py`` and ``executive.py``)."""
    start, i = codec.block_of(action)
    if start == codec.REST:
        out.tokens.setdefault("rest", []).append(text)
    elif start == codec.GAS:
        out.tokens.setdefault("gas", []).append(text)
    elif start == codec.DISPLAY:
        out.stacks.setdefault(i, []).append(text)
    elif start == codec.V_PICK:
        out.display.setdefault(i // codec.MAX_CARDS, []).append(text)
    elif start in (codec.V_EQUIP, codec.V_FIXER, codec.V_KEEP):
        out.items.setdefault(i % codec.MAX_ITEMS, []).append(text)
    elif start == codec.V_HOW and i > 0:  # "contact to the box" has no space
        out.contacts.setdefault((i - 1) % codec.CONTACT_SPACES, []).append(text)
    elif start == codec.UNLOCK:
        # a locked asset lies on an Item or a Contact space ("Asset Tiles"): the click is on that tile
        held = f"asset:{game.asset_names[i]}"  # type: ignore[attr-defined]
        for spaces, group in ((board["items"], out.items), (board["contacts"], out.contacts)):
            if held in spaces:
                group.setdefault(spaces.index(held), []).append(text)
                break
    elif start == codec.EXEC and i < executive.USE_GANG:
        if i < executive.USE_ITEM:
            out.contacts.setdefault(i - executive.USE_CONTACT, []).append(text)
        elif i < executive.USE_ASSET:
            out.items.setdefault(i - executive.USE_ITEM, []).append(text)
        elif i < executive.FIRST_AID:
            out.assets.setdefault(i - executive.USE_ASSET, []).append(text)
        else:
            out.tokens.setdefault("first aid", []).append(text)


def _place_executive(city: Any, k: int, text: str, out: Places) -> None:
    """Put executive action ``codec.EXEC + k`` on its gang Location, tile or officer, when it has one
    (the layout of ``solver/games/escape/executive.py``)."""
    if executive.USE_GANG <= k < executive.AVOID_TILE:
        out.locations.setdefault(city.of_kind(GANG)[k - executive.USE_GANG], []).append(text)
    elif executive.AVOID_TILE <= k < executive.AVOID_ONE:
        out.tiles.setdefault(k - executive.AVOID_TILE, []).append(text)
    elif executive.AVOID_ONE <= k < executive.JET_SKI:
        out.officers.setdefault(divmod(k - executive.AVOID_ONE, 3), []).append(text)
    elif executive.JET_SKI <= k < executive.POLICE_FROM:
        out.tiles.setdefault((k - executive.JET_SKI) // executive.ZONES, []).append(text)
    elif executive.POLICE_FROM <= k < executive.POLICE_TO:
        out.officers.setdefault(divmod(k - executive.POLICE_FROM, 3), []).append(text)
    elif executive.POLICE_TO <= k < executive.SNITCH:
        out.tiles.setdefault(k - executive.POLICE_TO, []).append(text)
    elif executive.SNITCH <= k < executive.SIZE:
        out.officers.setdefault(divmod(k - executive.SNITCH, 3), []).append(text)


def render_svg(game: Game, view: View, advice: Advice | None = None,
               weights: Mapping[int, float] | None = None) -> str:
    """The city as ``view.seat`` sees it as one SVG document, its legal moves clickable where they have a
    place; with ``advice``, also its best move and the seat's route plan.

    ``weights`` is accepted for the ``copsolver hint`` interface and ignored (Escape Plan has no
    hidden position to shade). ConfigError for a view of another game or advice for another seat.
    """
    svg.drawable(game, EscapeGame, view, "Escape Plan", advice)
    data = view.to_json()
    city = city_of(game)
    tiles = tiles_by_name(game)
    names = game.location_names  # type: ignore[attr-defined]
    cells = [(_centre(q, r), (q, r, name, rot)) for q, r, name, rot in data["placed"]]
    best = advice.ranked[0] if advice is not None and advice.ranked else None
    places = clickable(game, view)
    target_cell: tuple[int, int] | None = None
    if best is not None and codec.block_of(best.action)[0] == codec.PLACE:
        target_cell = codec.REGION[codec.block_of(best.action)[1] // 6]
    free = sorted(set(places.cells) | ({target_cell} if target_cell else set()))
    xs = [c[0][0] for c in cells] + [_centre(*cell)[0] for cell in free]
    ys = [c[0][1] for c in cells] + [_centre(*cell)[1] for cell in free]
    if not xs:
        xs, ys = [0.0], [0.0]
    left, top = min(xs) - R - _PAD, min(ys) - R - _PAD - _HEADER
    width = max(xs) - min(xs) + 2 * (R + _PAD)
    height = max(ys) - min(ys) + 2 * (R + _PAD) + _HEADER + _FOOTER
    width = max(width, _PANEL_W)  # room for the legend lines and the panel's rows
    panel, panel_h = _panel(game, view, places, left + 12.0, top + height - _FOOTER, width - 24.0)
    height += panel_h
    out = svg.document(width, height, left, top)
    # tiles: six wedges in their zones' Land colours
    out.append('<g id="tiles">')
    for (cx, cy), (q, r, name, rot) in cells:
        tile = tiles[name]
        out.append(f'<g class="tile" data-tile={quoteattr(name)} data-cell="{q},{r}">')
        for d in range(6):
            zone = tile.zones[tile.edges[(d - rot) % 6]]
            a, b = _corner(cx, cy, 60 * d - 30), _corner(cx, cy, 60 * d + 30)
            land = LandType(zone.type)
            out.append(f'<polygon class="land {land.name.lower()}" points="{num(cx)},{num(cy)} '
                       f'{num(a[0])},{num(a[1])} {num(b[0])},{num(b[1])}" fill="{_LAND[land]}"/>')
            if zone.ferry:
                fx, fy = _corner(cx, cy, 60 * d, 0.72 * R)
                out.append(_text(fx, fy + 3, "ferry", 8, fill="#123a5c"))
        out.append(f'<polygon class="outline" points="{_hexagon(cx, cy)}" fill="none" stroke="#555" '
                   f'stroke-width="1.5"/>')
        helipad = " (helipad)" if tile.helipad else ""
        out.append(_text(cx, cy + 0.74 * R, name + helipad, 9, fill="#222"))
        if tile.id in places.tiles:
            # over the whole tile, transparent: a click anywhere on it that no Location takes plays it
            out.append(f'<polygon class="act" {actions_attr(places.tiles[tile.id])} '
                       f'points="{_hexagon(cx, cy, R - 3)}" fill="#ffffff" fill-opacity="0" stroke="{_ACT}" '
                       'stroke-width="4" stroke-dasharray="10 5"/>')
        out.append("</g>")
    out.append("</g>")
    # the empty cells a tile may be placed on
    out.append('<g id="cells">')
    for q, r in sorted(places.cells):
        cx, cy = _centre(q, r)
        out.append(f'<g class="cell act" data-cell="{q},{r}" {actions_attr(places.cells[(q, r)])}>'
                   f'<polygon points="{_hexagon(cx, cy, R - 3)}" fill="{_ACT}" fill-opacity="0.08" '
                   f'stroke="{_ACT}" stroke-width="2.5" stroke-dasharray="8 5"/>'
                   + _text(cx, cy + 4, f"place {q},{r}", 11, fill=_ACT) + "</g>")
    out.append("</g>")
    # locations
    spots = location_spots(game, data)
    exits = set(open_exits(data))
    out.append('<g id="locations">')
    for loc, (x, y) in sorted(spots.items()):
        kind = city.locations[loc].kind
        stroke = "#444"
        if kind == "exit":
            stroke = "#1a9850" if int(city.locations[loc].label) in exits else "#d73027"
        cls, act, ring = kind, "", ""
        if loc in places.locations:
            cls, act = f"{kind} act", f" {actions_attr(places.locations[loc])}"
            ring = (f'<circle class="target" cx="{num(x)}" cy="{num(y)}" r="17" fill="none" '
                    f'stroke="{_ACT}" stroke-width="3"/>')
        out.append(f'<g class="location {cls}" data-location={quoteattr(names[loc])}{act}>'
                   f"<title>{escape(names[loc])}</title>" + ring
                   + f'<circle cx="{num(x)}" cy="{num(y)}" r="13" fill="#ffffff" stroke="{stroke}" '
                   f'stroke-width="{3 if kind == "exit" else 1.2}"/>'
                   + _text(x, y + 3.5, _label(game, data, loc), 9) + "</g>")
    out.append("</g>")
    # officers: a row of lettered squares at the top of each tile
    out.append('<g id="officers">')
    for (cx, cy), (_, _, name, _) in cells:
        cops = data["officers"].get(name, [])
        for i, cop in enumerate(cops):
            x = cx + (i - (len(cops) - 1) / 2.0) * 16.0
            y = cy - 0.72 * R
            texts = places.officers.get((tiles[name].id, codec.POLICE_NAMES.index(cop)))
            cls, act, edge = cop, "", ""
            if texts:
                cls, act = f"{cop} act", f" {actions_attr(texts)}"
                edge = f' stroke="{_ACT}" stroke-width="3"'
            out.append(f'<g class="officer {cls}" data-tile={quoteattr(name)}{act}>'
                       + svg.rect(x - 7, y - 7, 14, 14, f'fill="{_OFFICER[cop]}"{edge}')
                       + _text(x, y + 3.5, OFFICER_LETTERS[cop], 9, fill="#ffffff") + "</g>")
    out.append("</g>")
    if advice is not None:  # the plan is the hint's belief; the position alone has none
        out.extend(_plan_route(game, view, spots))
        out.extend(_best_move(game, view, best, spots, target_cell))
    # pawns: around their Location
    out.append('<g id="pawns">')
    crowd: dict[str, int] = {}
    for pawn, where in enumerate(data["location"]):
        if pawn < len(data["escaped"]) and (data["escaped"][pawn] or data["arrested"][pawn]):
            continue
        loc = names.index(where)
        if loc not in spots:
            continue
        k = crowd.get(where, 0)
        crowd[where] = k + 1
        x, y = _corner(spots[loc][0], spots[loc][1], -45.0 + 50.0 * k, 20.0)
        sandra = pawn == game.num_players
        colour = _SANDRA if sandra else _PAWNS[pawn % len(_PAWNS)]
        hit = "" if pawn not in places.pawns else (
            f'<circle class="act" {actions_attr(places.pawns[pawn])} cx="{num(x)}" cy="{num(y)}" r="11" '
            f'fill="#ffffff" fill-opacity="0" stroke="{_ACT}" stroke-width="3"/>')
        out.append(f'<g class="pawn" data-pawn="{pawn}" data-location={quoteattr(where)}>'
                   f'<circle cx="{num(x)}" cy="{num(y)}" r="7.5" fill="{colour}" stroke="#ffffff"/>'
                   + _text(x, y + 3, "S" if sandra else str(pawn), 8, fill="#ffffff", font_weight="bold")
                   + hit + "</g>")
    out.append("</g>")
    out.extend(panel)
    out.extend(_legend(game, view, advice, best, places, left, top, width, height))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _plan_route(game: Game, view: View, spots: dict[int, tuple[float, float]]) -> list[str]:
    """The ``plan-route`` group: the seat's planned stops joined in order (empty without a plan)."""
    got = route_plan.seat_plan(game, view)
    if got is None:
        return ['<g id="plan-route"/>']
    inst, plan = got
    names = game.location_names  # type: ignore[attr-defined]
    out = [f'<g id="plan-route" data-status="{plan.status}" data-value="{plan.value / SCALE:g}">']
    here = inst.locations[0]
    for i, step in enumerate(route_plan.steps(inst, plan), 1):
        dest = step.path[-1] if step.path else here
        out.append(f'<g class="plan-step" data-step="{i}" data-location={quoteattr(names[dest])}>')
        for loc in step.path:
            if here in spots and loc in spots:
                (x1, y1), (x2, y2) = spots[here], spots[loc]
                out.append(f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
                           f'stroke="{_PLAN}" stroke-width="3" stroke-dasharray="6 4" opacity="0.85"/>')
            here = loc
        if dest in spots:
            x, y = spots[dest]
            out.append(f'<circle cx="{num(x + 14)}" cy="{num(y - 14)}" r="8" fill="{_PLAN}"/>'
                       + _text(x + 14, y - 11, str(i), 9, fill="#ffffff", font_weight="bold"))
        out.append("</g>")
    out.append("</g>")
    return out


def _best_move(game: Game, view: View, best: Any, spots: dict[int, tuple[float, float]],
               target_cell: tuple[int, int] | None) -> list[str]:
    """The ``best-move`` group: destination ring, arrow and route outline, or the target cell."""
    if best is None:
        return ['<g id="best-move"/>']
    attrs = f"data-action={quoteattr(best.text)}"
    body: list[str] = []
    travel = travel_routes(game, view).get(best.action)
    names = game.location_names  # type: ignore[attr-defined]
    data = view.to_json()
    if travel is not None and travel[0] in spots:
        dest, left = travel
        attrs += f" data-dest={quoteattr(names[dest])}"
        if left is not None:
            placed = {name: (q, r) for q, r, name, _ in data["placed"]}
            tile_names = [city_of(game).tiles[t].name for t in sorted(left)]
            attrs += f" data-route={quoteattr(','.join(tile_names))}"
            for name in tile_names:
                if name in placed:
                    cx, cy = _centre(*placed[name])
                    body.append(f'<polygon class="route" points="{_hexagon(cx, cy, R - 4)}" fill="none" '
                                f'stroke="{_ADVICE}" stroke-width="3" stroke-dasharray="8 5"/>')
        start = names.index(data["location"][view.seat])
        x1, y1 = spots.get(start, spots[dest])
        x2, y2 = spots[dest]
        body.append(f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
                    f'stroke="{_ADVICE}" stroke-width="4" stroke-linecap="round" marker-end="url(#arrow)"/>')
        body.append(f'<circle class="destination" cx="{num(x2)}" cy="{num(y2)}" r="19" fill="none" '
                    f'stroke="{_ADVICE}" stroke-width="3"/>')
    elif target_cell is not None:
        attrs += f' data-cell="{target_cell[0]},{target_cell[1]}"'
        cx, cy = _centre(*target_cell)
        body.append(f'<polygon class="target" points="{_hexagon(cx, cy)}" fill="{_ADVICE}" '
                    f'fill-opacity="0.12" stroke="{_ADVICE}" stroke-width="3" stroke-dasharray="8 5"/>')
    marker = ('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
              f'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{_ADVICE}"/>'
              "</marker></defs>")
    return [marker, f'<g id="best-move" {attrs}>', *body, "</g>"]


def _legend(game: Game, view: View, advice: Advice | None, best: Any, places: Places, left: float,
            top: float, width: float, height: float) -> list[str]:
    data = view.to_json()
    x = left + 12.0
    if advice is not None:
        first = "Advised: " + (best.text if best is not None else "no move")
    else:
        first = (f"{len(view.legal_actions)} legal moves, {places.count()} on the picture (click the orange "
                 "marks)"
                 if view.legal_actions else "No move to make")
    lines = [f"Escape Plan: seat {view.seat} to act ({part_text(data)})",
             f"{view.decision.prompt}",
             first + f"; next escape costs ${escape_cost(game, data)}k; open exits "
             + (", ".join(map(str, open_exits(data))) or "none")]
    out = ['<g id="legend">']
    for i, line in enumerate(lines):
        out.append(svg.text(x, top + 20 + 18 * i, line, 14 if i == 0 else 12, None))
    y = top + height - 16.0
    keys = [(_LAND[t], t.name.lower()) for t in LandType] + [(c, k) for k, c in _OFFICER.items()]
    for i, (colour, label) in enumerate(keys):
        kx = x + 88.0 * i
        out.append(svg.rect(kx, y - 10, 12, 12, f'fill="{colour}"'))
        out.append(svg.text(kx + 16, y, label, 10, None))
    sandra = "; S: Sandra" if game.num_players == 2 else ""
    plan = "; blue dashes: your route plan, its stops numbered" if advice is not None else ""
    out.append(svg.text(x, y + 14, f"pawns show their seat numbers{sandra}; exits ringed green open, red "
                        f"closed; B3 = Business 3, SH1 = Safe House 1, G2 = gang of 2{plan}", 10, None))
    out.append("</g>")
    return out


# --- the panel: the table's displays, the seat's own board, the others' public facts ---------------------

#: The panel's width at least (its rows of spaces), its margin, and the height of a board space's box.
_PANEL_W: Final = 800.0
_BOX_H: Final = 34.0
_LINE: Final = 15.0
_INK: Final = "#222222"
_DIM: Final = "#666666"


@dataclass
class _Panel:
    """The panel as it is drawn: its SVG lines and the next free row (``y``), left edge ``x``, width ``w``."""

    x: float
    y: float
    w: float
    out: list[str] = field(default_factory=list)

    def line(self, body: str, size: float = 11.0, fill: str = _INK, weight: str = "normal") -> None:
        """A line of text at the left edge, then down one line."""
        self.out.append(svg.text(self.x, self.y + size, body, size, None, fill=fill, font_weight=weight))
        self.y += size + 5.0

    def heading(self, body: str) -> None:
        """A section's title."""
        self.y += 6.0
        self.line(body, 13.0, weight="bold")


def _box(kind: str, attrs: str, actions: list[str], x: float, y: float, w: float, lines: list[str],
         fill: str = "#ffffff", tip: str = "") -> str:
    """A labelled box of the panel (a board space, a display stack, a card), clickable when it carries
    ``actions`` (its frame then in the click colour); ``lines`` are its text, the first in bold."""
    edge = f'stroke="{_ACT}" stroke-width="3"' if actions else 'stroke="#999999" stroke-width="1"'
    body = [svg.act_group(kind, actions, None, attrs),
            f"<title>{escape(tip)}</title>" if tip else "",
            svg.rect(x, y, w, _BOX_H, f'rx="4" fill="{fill}" {edge}')]
    for i, text in enumerate(lines[:2]):
        size = 10.0 if i == 0 else 9.0
        ink, weight = (_INK, "bold") if i == 0 else (_DIM, "normal")
        body.append(svg.text(x + 5, y + 14 + 13 * i, text, size, None, fill=ink, font_weight=weight))
    body.append("</g>")
    return "".join(body)


def _fit_text(text: str, width: float, size: float) -> list[str]:
    """``text`` wrapped into at most two lines of a box ``width`` wide at font ``size`` (a bold average
    character is about 0.62 of the size; the second line is cut with an ellipsis). A word is not broken: a
    name like ``(County+Federal)`` a little wider than the box stays whole."""
    chars = max(4, int((width - 8) / (0.62 * size)))
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 2:
        rest = " ".join(lines[1:])
        lines = [lines[0], rest[: chars - 1] + "…"]
    return lines or ["-"]


def _space_row(p: _Panel, label: str, kind: str, slots: list[str], places: dict[int, list[str]],
               words: Callable[[int, str, float], list[str]], fills: Callable[[int, str], str]) -> None:
    """A row of board spaces: ``label`` then one box per slot, space ``i`` (0-based) numbered ``i + 1``;
    ``words(i, slot, width)`` gives a box's lines, ``fills(i, slot)`` its colour."""
    p.out.append(svg.text(p.x, p.y + 21, label, 11, None, fill=_INK, font_weight="bold"))
    left = p.x + 78.0
    w = (p.w - 78.0) / max(len(slots), 1)
    for i, slot in enumerate(slots):
        p.out.append(_box(f"space {kind}", f' data-space="{i + 1}"', places.get(i, []), left + i * w + 2, p.y,
                          w - 4, words(i, slot, w - 4), fills(i, slot)))
    p.y += _BOX_H + 6.0


def _panel(
    game: Game, view: View, places: Places, x: float, y: float, width: float
) -> tuple[list[str], float]:
    """The ``panel`` group drawn from (x, y), ``width`` wide, and its height: the day and the turn order, the
    exits and their costs, the tile display and the contact display (the table's public components), the
    seat's own board (Player Setup A-K: money behind the screen, income track, notoriety, wounds, Item,
    Contact and unlocked Asset spaces, keys, gang markers, Rest token, First Aid tile, gas cans, Extra Action
    discs) with its Escape Plan card, and a compact account of each other pawn's board without its money
    (behind its screen, Player Setup K) and with face-down tiles face down (the view hides their values)."""
    data = view.to_json()
    content = content_of(game)
    p = _Panel(x, y, width, ['<g id="panel">'])
    order = ", ".join(pawn_name(game, s) + (" (you)" if s == view.seat else "") for s in data["order"])
    p.heading(f"{part_text(data)} — turn order {order}")
    costs = "/".join(f"${c}k" for c in content.escape_costs[game.num_players])
    exits = []
    for e in (1, 2, 3):
        stack = data["exit_stack_at"].get(str(e))
        patrol = int(data["patrol_on"][e - 1])
        exits.append(f"exit {e} {'open' if exit_open(data, e) else 'closed'} ({patrol} patrol"
                     + (f", exit tiles {stack + 1}" if stack is not None else "") + ")")
    p.line("; ".join(exits) + f"; patrol deck {data['patrol_deck']}")
    p.line(f"Escaping costs {costs} by leaving order; the next pays ${escape_cost(game, data)}k")
    _displays(game, data, places, p)
    _own_board(game, view, data, places, p)
    _others(game, view, data, p)
    p.out.append("</g>")
    return p.out, p.y - y + 8.0


def _displays(game: Game, data: dict[str, Any], places: Places, p: _Panel) -> None:
    """The City tile display (a tile on each stack A-D, "3. City") and the contact display (set-up 15)."""
    p.heading("City tiles on display")
    w = p.w / 4
    for s, name in enumerate(data["display"]):
        size = data["stack_sizes"][s]
        lines = [f"{codec.STACK_NAMES[s]}: {name or 'none'}", f"{size} more in the stack"]
        p.out.append(_box("stack", f' data-stack="{codec.STACK_NAMES[s]}"', places.stacks.get(s, []),
                          p.x + s * w + 2, p.y, w - 4, lines))
    p.y += _BOX_H + 4.0
    p.heading(f"Contact display ({data['contact_deck']} in the deck)")
    cards = {c.name: c for c in content_of(game).contacts}
    shown = data["contact_display"]
    w = p.w / max(len(shown), codec.MAX_DISPLAY)
    for i, name in enumerate(shown):
        card = cards.get(name)
        tip = name if card is None else (f"{name}: use for ${card.cost}k"
                                         + (", gaining 1 notoriety" if card.notoriety else ""))
        p.out.append(_box("card", f' data-position="{i + 1}"', places.display.get(i, []), p.x + i * w + 2,
                          p.y, w - 4, _fit_text(name, w - 4, 10.0), tip=tip))
    p.y += _BOX_H + 4.0


def _own_board(game: Game, view: View, data: dict[str, Any], places: Places, p: _Panel) -> None:
    """The seat's own board, its spaces clickable where an action names them, and its plan card."""
    me = view.seat
    board = data["boards"][me]
    content = content_of(game)
    track = content.notoriety
    status = " — ESCAPED" if data["escaped"][me] else " — ARRESTED" if data["arrested"][me] else ""
    p.heading(f"Your board (seat {me}, at {data['location'][me]}){status}")
    p.out.append('<g class="own" data-seat="' + str(me) + '">')
    lines = [f"money ${board['money']}k behind your screen", f"income ${board['income_cubes']}k",
             f"notoriety {board['notoriety']} (lines at {', '.join(map(str, track.lines))})"]
    if board["cubes_red"] or board["cubes_blue"]:
        lines.append(f"this turn +{board['cubes_red']} -{board['cubes_blue']}")
    lines.append(f"Extra Action discs {board['extra_actions']}")
    p.out.append('<g class="money">')
    p.line("; ".join(lines), 12.0)
    p.out.append("</g>")
    # the tokens row: wounds, handcuffs, rest token, first aid tile, gas cans
    row = p.y
    x = p.x
    p.out.append(svg.text(x, row + 21, "wounds", 11, None, fill=_INK, font_weight="bold"))
    x += 50
    wounds = [("#2e9e44", "green")] * int(board["green"]) + [("#c0392b", "red")] * int(board["red"])
    p.out.append(f'<g class="wounds" data-green="{board["green"]}" data-red="{board["red"]}">')
    for colour, _ in wounds:
        p.out.append(svg.rect(x, row + 10, 12, 12, f'fill="{colour}" stroke="#ffffff"'))
        x += 14
    p.out.append(svg.text(x + 4, row + 21, f"{board['green']} green, {board['red']} red; handcuffs "
                          f"{board['handcuffs']}", 11, None, fill=_INK) + "</g>")
    x = p.x + 300
    tokens = (("rest", "Rest token", "moon: rested" if board["rested"] else "sun: may rest"),
              ("first aid", "First Aid", "face up" if board["first_aid_up"] else "used"),
              ("gas", "gas cans", f"{board['gas_cans']} of {content.board.max_gas_cans}"))
    tw = (p.w - 300) / 3
    for i, (key, title, state) in enumerate(tokens):
        p.out.append(_box(f"token {key.replace(' ', '-')}", "", places.tokens.get(key, []), x + i * tw + 2,
                          row, tw - 4, [title, state]))
    p.y = row + _BOX_H + 6.0

    def words(i: int, slot: str, width: float) -> list[str]:
        return _fit_text(_space_text(game, board, "items", i, True), width, 10.0)

    def plain(i: int, slot: str) -> str:
        return "#ffffff" if slot != "empty" else "#f4f4f4"

    def cuffed(i: int, slot: str) -> str:
        return "#d8d8d8" if i >= len(board["contacts"]) - int(board["handcuffs"]) else plain(i, slot)

    def contact_words(i: int, slot: str, width: float) -> list[str]:
        text = _space_text(game, board, "contacts", i, True)
        if text.startswith("handcuffed"):
            return ["handcuffed", text.removeprefix("handcuffed").removeprefix(" over ")]
        return _fit_text(text, width, 10.0)

    def asset_words(i: int, slot: str, width: float) -> list[str]:
        return [f"${content.board.asset_costs[i]}k", slot_text(game, slot, True)]

    _space_row(p, "Items", "item", board["items"], places.items, words, plain)
    _space_row(p, "Contacts", "contact", board["contacts"], places.contacts, contact_words, cuffed)
    _space_row(p, "Unlocked", "asset", board["unlocked"], places.assets, asset_words, plain)
    keys = ", ".join(f"{i + 1}: {str(k).split(':')[0]}" + (" (used)" if str(k).endswith(":down") else "")
                     for i, k in enumerate(board["keys"]) if k) or "none"
    gangs = ", ".join(str(g) for g in board["gang_controlled"]) or "no gang"
    p.line(f"Keys {keys}; Gang Control markers {board['gang_markers']} left, controlling {gangs}; "
           f"gang members {len(board['gang_members'])}", 11.0)
    _plan_card(game, data, board, p)
    p.out.append("</g>")


def _plan_card(game: Game, data: dict[str, Any], board: dict[str, Any], p: _Panel) -> None:
    """The seat's Escape Plan card: Businesses 1-3, 4-6, Safe Houses 1-3, each value and whether visited
    ("Escape Plan Cards"), the group bonuses taken."""
    plan = data.get("plan")
    card = next((c for c in content_of(game).plans if c.name == plan), None)
    if card is None:
        return
    p.out.append(svg.text(p.x, p.y + 21, f"{plan}", 11, None, fill=_INK, font_weight="bold"))
    names = (("Business", board["businesses"][:3], 1), ("Business", board["businesses"][3:], 4),
             ("Safe House", board["safe_houses"], 1))
    left = p.x + 78.0
    w = (p.w - 78.0) / 9
    p.out.append(f'<g class="plan" data-plan={quoteattr(str(plan))}>')
    for g, (group, (kind, visited, first)) in enumerate(zip(card.groups, names, strict=True)):
        for j, value in enumerate(group):
            bx = left + (3 * g + j) * w + (4 if g else 0)
            done = bool(visited[j])
            amount = "income" if value is None else f"${value}k"
            short = "B" if kind == "Business" else "SH"
            fill = "#cfe8cf" if done else "#ffffff"
            p.out.append(_box("plan-entry", f' data-visited="{str(done).lower()}"', [], bx + 2, p.y, w - 4,
                              [f"{short}{first + j} {amount}", "visited" if done else ""], fill))
        if board["group_bonus"][g]:
            p.out.append(svg.text(left + 3 * g * w + 4, p.y + _BOX_H + 10, "bonus taken", 9, None, fill=_DIM))
    p.out.append("</g>")
    p.y += _BOX_H + (16.0 if any(board["group_bonus"]) else 6.0)


def _space_text(game: Game, board: dict[str, Any], group: str, i: int, own: bool) -> str:
    """Space ``i`` of a board's ``group`` (items, contacts, unlocked) in words: an asset tile on an Item or
    Contact space is a locked one ("Asset Tiles"), a Contact space under a Handcuff card says so ("Step 2:
    Avoid": the cards fill them from the right)."""
    slot = board[group][i]
    text = slot_text(game, slot, own)
    if group != "unlocked" and slot.startswith("asset:"):
        text = f"locked {text}"
    if group == "contacts" and i >= len(board["contacts"]) - int(board["handcuffs"]):
        text = "handcuffed" + ("" if slot == "empty" else f" over {text}")
    return text


def _pack(parts: list[str], chars: int) -> list[str]:
    """``parts`` joined by ``; `` into lines of at most ``chars`` characters, a part broken (at its commas
    or spaces) only when it is longer than a line by itself."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + 2 + len(part) <= chars:
            lines[-1] += "; " + part
        else:
            lines.extend(textwrap.wrap(part, chars) or [""])
    return lines


def _others(game: Game, view: View, data: dict[str, Any], p: _Panel) -> None:
    """A compact account of every other pawn: its public facts, never its money or a face-down value."""
    others = [s for s in range(len(data["boards"])) if s != view.seat]
    if not others:
        return
    p.heading("The other players (money behind their screens)")
    for pawn in others:
        b = data["boards"][pawn]
        who = pawn_name(game, pawn)
        p.out.append(f'<g class="other" data-pawn="{pawn}">')
        if who == "Sandra":
            p.line(f"Sandra at {data['location'][pawn]}: notoriety {b['notoriety']}, Extra Action discs "
                   f"{b['extra_actions']}", 11.0, weight="bold")
            p.out.append("</g>")
            continue
        status = " ESCAPED" if data["escaped"][pawn] else " ARRESTED" if data["arrested"][pawn] else ""
        visited = [f"B{i + 1}" for i, v in enumerate(b["businesses"]) if v]
        visited += [f"SH{i + 1}" for i, v in enumerate(b["safe_houses"]) if v]
        keys = [str(k).split(":")[0] for k in b["keys"] if k]
        facts = [f"{who}{status} at {data['location'][pawn]}: notoriety {b['notoriety']}",
                 f"wounds {b['green']} green, {b['red']} red", f"handcuffs {b['handcuffs']}",
                 "rested" if b["rested"] else "not rested",
                 f"first aid {'up' if b['first_aid_up'] else 'used'}",
                 f"income ${b['income_cubes']}k", f"Extra Action discs {b['extra_actions']}",
                 f"gas cans {b['gas_cans']}", f"keys {', '.join(keys) or 'none'}",
                 f"visited {', '.join(visited) or 'none'}"]
        for group, label in (("items", "items"), ("contacts", "contacts"), ("unlocked", "unlocked")):
            facts.append(f"{label}: " + ", ".join(_space_text(game, b, group, i, False)
                                                 for i in range(len(b[group]))))
        chars = int(p.w / (0.56 * 11.0))
        for k, text in enumerate(_pack(facts, chars)):
            p.line(text, 11.0, _INK if k == 0 else "#444444", "bold" if k == 0 else "normal")
        p.out.append("</g>")
