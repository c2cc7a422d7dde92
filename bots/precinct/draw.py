"""Draw a Police Precinct position as SVG: the city, the cars, the tracks, the hands, the clickable moves.

Everything on the picture is read from one seat's view (``view.to_json()``) and the game's static
tables (the city map, the content's cards and characters); the state is never seen, so nothing a seat
may not know can be drawn (``tests/test_draw_precinct.py`` compares the drawings of resampled states
with the same view). Other seats' hands are counts; loyalty cards appear only as the seat knows them:
its own card, cards shown to the table, cards Internal Affairs showed it ([Dirty Cop]).

The city: the map file has no coordinates (``solver/games/precinct/city.py``), so intersections are
placed by a stress layout of the street graph computed here (a dead-end street gets a free end of its
own); it is deterministic linear algebra, turned so that Bad Hood 1 lies left and the Police Station
up (on the shipped stand-in map, north up as its note describes). A street is the segment between its
two intersections; cars stand on streets ([PHASE 1: Move Your Car]), drawn at the street's middle.

With advice the best move's elements are ringed and, in a game with the Dirty Cop, each seat's chance
of being the dirty cop is drawn as a bar in its row: ``advice.belief["dirty"]`` when the bot gives it
(a list per seat, or a mapping seat -> chance), else the hint's exact posterior from the same view
(:func:`bots.precinct.hint.marginals_for`). ``weights`` is accepted for the shared interface and unused.

Clickable moves (``class="act"``, ``data-actions`` a JSON list of legal action texts): ``move``/``support``
on the street, ``handle`` on the board card, ``hood``/``arrest punks``/``arrest murderer`` on the Bad
Hood, ``investigate``/``deck``/``evidence first|last``/``shuffle`` on the stack, ``draw card`` on the
police deck, ``keep on top``/``put on bottom`` on the event deck, ``play``/``help``/``discard`` on the
card in the hand row, ``car marked|unmarked`` and ``reveal`` in the seat's own row, ``accuse``/``target``
in the accused seat's row, ``place evidence``/``claim useless`` on the drawn cards, ``upgrade`` on the
upgrade supply, ``pick`` on the character cards. The rest (proceed, yes, no action, counts of donuts,
officers, SWAT tokens, rewards, loyalty actions) is only in the page's list of moves.

SVG structure::

    <svg>
      <g id="header">   title, the prompt, the advised move
      <g id="city">     <g class="street" data-street=NAME> ... <circle class="intersection"> ...
      <g id="buildings"> <g class="building" data-building=NAME> ...
      <g id="hoods">    <g class="hood" data-hood=H data-punks= data-patrol= [data-gang=] [data-murderer="1"]>
      <g id="cards">    <g class="event" data-slot=N data-card=NAME> ...  (emergencies on the map)
      <g id="cars">     <g class="car" data-seat= data-cop= data-street=> ... <g class="support">
      <g id="tracks">   <g class="track" data-track=turn|crime|evidence:DECK data-value= data-limit=>
      <g id="stacks">   <g class="stack" data-deck= data-size= data-evidence=>, the piles
      <g id="roll">     the roll under way (the own draw's cards)
      <g id="players">  <g class="player" data-seat= data-cop= data-cards= [data-loyalty=]>
                        [<g class="posterior" data-seat= data-p=>]
      <g id="hand">     <g class="card" data-card=NAME> ...
      <g id="choices">  character cards while picking
      <g id="legend">
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final, TypeAlias
from xml.sax.saxutils import escape, quoteattr

import networkx as nx
import numpy as np
import numpy.typing as npt

from bots import svg
from bots.base import Advice
from bots.svg import BEST, actions_attr, num
from solver.core import Game, View
from solver.games.precinct.city import STATION, City
from solver.games.precinct.content import DECKS, SYMBOLS
from solver.games.precinct.rules import PrecinctGame

Point: TypeAlias = tuple[float, float]

#: The canvas: the map on the left, the tracks and stacks on the right, rows of players below.
WIDTH: Final = 1000.0
_MAP_X, _MAP_Y, _MAP_W, _MAP_H = 20.0, 78.0, 610.0, 500.0
_PANEL_X: Final = 650.0
_ROW_H: Final = 30.0
#: seat colours (colour-blind-safe qualitative set), one per seat up to eight
_SEATS: Final = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#7b3fa0", "#8c6d1f")
_HOOD: Final = "#c0392b"
_EVENT_FILL: Final = {"red": "#f4b6b0", "blue": "#b7d3f2", "green": "#bfe3b4", "yellow": "#f6e39a",
                      "": "#d9c2ec"}
_SYMBOL_FILL: Final = {"investigate": "#dfe9f7", "arrest": "#f7e0dc", "emergency": "#fbf0cf"}
#: steps of the layout's majorization at most (it stops once the stress settles)
_STEPS: Final = 300
#: the words of the actions with no place on the picture, for the legend's count
_NO_PLACE: Final = ("proceed", "yes", "no action")


_text = svg.text


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "#555", rx: float = 3.0,
          extra: str = "") -> str:
    """A rounded ``<rect>`` filled ``fill`` and edged ``stroke`` (``extra``: further attribute text)."""
    return svg.rect(x, y, w, h, f'rx="{num(rx)}" fill="{fill}" stroke="{stroke}"{extra}')


# --- the city's layout -------------------------------------------------------------------------


def _majorize(dist: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Plane points whose gaps follow the graph distances ``dist`` (stress majorization, weights d^-2).

    Starts from classical scaling (the two leading eigenvectors of the centred squared distances), so
    no random start is drawn; each step solves the quadratic bound of the stress (Gansner, Koren and
    North, "Graph Drawing by Stress Majorization", 2004).
    """
    n = len(dist)
    if n < 3:
        return np.array([[float(i), 0.0] for i in range(n)])
    sq = dist ** 2
    centred = sq - sq.mean(axis=0) - sq.mean(axis=1)[:, None] + sq.mean()
    vals, vecs = np.linalg.eigh(-0.5 * centred)
    pos = vecs[:, [-1, -2]] * np.sqrt(np.clip(vals[[-1, -2]], 1e-9, None))
    inv = np.where(dist > 0, 1.0 / np.where(dist > 0, dist, 1.0), 0.0)
    w = inv ** 2
    lap = np.diag(w.sum(axis=1)) - w
    lap_pinv = np.linalg.pinv(lap)
    last = math.inf
    for _ in range(_STEPS):
        gaps = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=2)
        ratio = np.where(gaps > 1e-9, w * dist / np.where(gaps > 1e-9, gaps, 1.0), 0.0)
        b = np.diag(ratio.sum(axis=1)) - ratio
        pos = lap_pinv @ b @ pos
        stress = float((w * (gaps - dist) ** 2).sum())
        if last - stress <= 1e-7 * last:
            break
        last = stress
    return np.asarray(pos, dtype=np.float64)


@lru_cache(maxsize=4)
def city_layout(city: City) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
    """(intersection points, street middles) in the map box; dead ends reach out to a free end."""
    n = len(city.intersections)
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    loose: dict[int, int] = {}  # dead-end street -> its free end's node
    for s, ends in enumerate(city.ends):
        if len(ends) == 2:
            graph.add_edge(ends[0], ends[1])
        else:
            loose[s] = n + len(loose)
            graph.add_edge(ends[0], loose[s])
    size = graph.number_of_nodes()
    dist = np.full((size, size), float(size))  # a disconnected pair: farther than any path
    for a, row in nx.all_pairs_shortest_path_length(graph):
        for b, d in row.items():
            dist[a, b] = float(d)
    pos = _majorize(dist)
    pos = pos - pos.mean(axis=0)
    # turn the drawing so the streets run as close to level or upright as they can (the mean of their
    # directions taken modulo 90 degrees, by the angle four times over), so a grid city reads as a grid
    segments = [(e[0], e[1] if len(e) == 2 else loose[s]) for s, e in enumerate(city.ends)]
    vectors = np.array([pos[b] - pos[a] for a, b in segments])
    angles = np.arctan2(vectors[:, 1], vectors[:, 0])
    mean = complex(np.exp(4j * angles).sum())
    turn = -math.atan2(mean.imag, mean.real) / 4.0 if abs(mean) > 1e-9 else 0.0
    rotation = np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]])
    pos = pos @ rotation
    # then the quarter turn and mirror that put the Bad Hoods in reading order (1 top left, the last
    # bottom right; y grows downward): on the shipped map the blocks run so, north up, as its note says
    hoods = [(h, np.mean([(pos[a] + pos[b]) / 2.0 for a, b in (segments[s] for s in members)], axis=0))
             for h, members in enumerate(city.hood_streets, start=1) if members]
    best_score, best_turn = -math.inf, np.eye(2)
    for quarter in range(4):
        c, q = (1, 0, -1, 0)[quarter], (0, 1, 0, -1)[quarter]
        for mirror in (1, -1):
            candidate = np.array([[c * mirror, q], [-q * mirror, c]], dtype=float)
            score = sum(h * (float((p @ candidate)[1]) + 0.5 * float((p @ candidate)[0])) for h, p in hoods)
            if score > best_score + 1e-9:
                best_score, best_turn = score, candidate
    pos = pos @ best_turn
    low, high = pos.min(axis=0), pos.max(axis=0)
    span = np.maximum(high - low, 1e-9)
    margin = 36.0
    # each axis stretched to the box: the map is a schematic, and room between streets matters more
    scale = np.array([(_MAP_W - 2 * margin) / span[0], (_MAP_H - 2 * margin) / span[1]])
    fitted = (pos - low) * scale + np.array([_MAP_X + margin, _MAP_Y + margin])
    points = tuple((round(float(x), 1), round(float(y), 1)) for x, y in fitted)
    middles = []
    for s, ends in enumerate(city.ends):
        a = points[ends[0]]
        b = points[ends[1]] if len(ends) == 2 else points[loose[s]]
        middles.append((round((a[0] + b[0]) / 2.0, 1), round((a[1] + b[1]) / 2.0, 1)))
    return points[:n], tuple(middles)


def _free_end(city: City, s: int, points: Sequence[Point], middles: Sequence[Point]) -> Point:
    """The far end of street ``s``'s segment (the second intersection, or a dead end's free end)."""
    ends = city.ends[s]
    if len(ends) == 2:
        return points[ends[1]]
    a, m = points[ends[0]], middles[s]
    return 2 * m[0] - a[0], 2 * m[1] - a[1]


# --- clickable elements ------------------------------------------------------------------------


class _Acts:
    """The view's legal action texts, which of them got a place, and the advised move."""

    def __init__(self, legal: Sequence[str], best: str | None) -> None:
        self.legal = list(legal)
        self.legal_set = frozenset(legal)
        self.placed: set[str] = set()
        self.best = best

    def wrap(self, wanted: Iterable[str], body: str, box: tuple[float, float, float, float] | None = None,
             **data: str) -> str:
        """``body`` in a ``<g>``: ``class="act"`` with the legal ones of ``wanted``, ringed when the advised
        move is among them (``box`` x, y, w, h), else a plain group; ``data`` becomes ``data-*``."""
        attrs = "".join(f" data-{k.replace('_', '-')}={quoteattr(v)}" for k, v in data.items())
        acts = [a for a in dict.fromkeys(wanted) if a in self.legal_set]
        if not acts:
            return f"<g{attrs}>{body}</g>"
        self.placed.update(acts)
        ring = ""
        if self.best is not None and self.best in acts and box is not None:
            ring = svg.outline(*box, pad=3.0, rx=5.0, width=3.0, extra=' class="best"')
        return (f'<g class="act" {actions_attr(acts)}{attrs} cursor="pointer">'
                f"<title>{escape(' / '.join(acts))}</title>{body}{ring}</g>")


# --- the picture -------------------------------------------------------------------------------


def render_svg(game: Game, view: View, advice: Advice | None = None,
               weights: Mapping[int, float] | None = None) -> str:
    """The position as ``view.seat`` sees it (with ``advice``: its best move and the dirty-cop posterior).

    ConfigError for a view of another game or advice for another seat. ``weights`` is unused.
    """
    game = svg.drawable(game, PrecinctGame, view, "Police Precinct", advice)
    data = view.to_json()
    best = advice.ranked[0].text if advice is not None and advice.ranked else None
    acts = _Acts(data["legal_actions"], best)
    city = game.city
    points, middles = city_layout(city)
    out: list[str] = []
    out += _city(game, data, acts, points, middles)
    out += _hoods(game, data, acts, middles)
    out += _board_cards(game, data, acts, points, middles)
    out += _cars(game, data, middles)
    y = _MAP_Y
    panel, y = _tracks(game, data, y)
    out += panel
    panel, y = _stacks(game, data, acts, y + 8)
    out += panel
    panel, y = _piles(game, data, acts, y + 8)
    out += panel
    panel, y = _roll(game, data, acts, y + 8)
    out += panel
    y = max(y, _MAP_Y + _MAP_H) + 12
    posterior = _posterior(data, advice) if advice is not None else None
    panel, y = _players(game, data, acts, posterior, y)
    out += panel
    panel, y = _hand(game, data, acts, y + 8)
    out += panel
    panel, y = _choices(game, data, acts, y + 8)
    out += panel
    head = _header(game, data, advice)
    legend, y = _legend(data, acts, y + 10, posterior is not None)
    height = y + 12
    doc = [*svg.document(WIDTH, height), *head, *out, *legend, "</svg>"]
    return "\n".join(doc) + "\n"


def _header(game: PrecinctGame, data: Mapping[str, Any], advice: Advice | None) -> list[str]:
    me = int(data["seat"])
    loyalty = data.get("my_loyalty")
    role = f" ({loyalty} cop)" if loyalty else ""
    lines = [f"Police Precinct: seat {me}{role}", str(data["decision"].get("prompt", ""))]
    if data.get("reason"):
        verdict = "the good cops win" if int(data.get("result") or 0) > 0 else "the good cops lose"
        lines[1] = f"Game over: {verdict} ({data['reason']})"
    if advice is not None and advice.ranked:
        top = advice.ranked[0]
        lines.append(f"Advised: {top.text}" + (f" ({top.reason})" if top.reason else ""))
    out = ['<g id="header">']
    for i, line in enumerate(lines):
        size = 16.0 if i == 0 else 12.0
        colour = BEST if line.startswith("Advised:") else "#111"
        out.append(_text(20, 24 + 18 * i, line[:150], size, fill=colour,
                         font_weight="bold" if i == 0 else "normal"))
    out.append("</g>")
    return out


def _city(game: PrecinctGame, data: Mapping[str, Any], acts: _Acts, points: Sequence[Point],
          middles: Sequence[Point]) -> list[str]:
    """The streets (a segment each, clickable for a move there) and the intersections."""
    city = game.city
    out = ['<g id="city">', _rect(_MAP_X, _MAP_Y, _MAP_W, _MAP_H, "#f4f1ea", "#cfc8b8", 6.0)]
    for s, name in enumerate(city.streets):
        a = points[city.ends[s][0]]
        b = _free_end(city, s, points, middles)
        hood = city.hood_of(s)
        line = (f'<line x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}" y2="{num(b[1])}" '
                f'stroke="{{}}" stroke-width="{{}}" stroke-linecap="round"{{}}/>')
        body = line.format("#ffffff", 16, ' opacity="0"')  # a wider hit area
        if hood is not None:
            body += line.format(_HOOD, 11, ' opacity="0.35"')
        body += line.format("#8a8a8a", 6, "")
        mx, my = middles[s]
        angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
        if angle > 90:
            angle -= 180
        elif angle < -90:
            angle += 180
        body += (f'<text x="{num(mx)}" y="{num(my - 6)}" font-size="7.5" text-anchor="middle" fill="#555" '
                 f'transform="rotate({num(angle)} {num(mx)} {num(my)})">{escape(name)}</text>')
        box = (min(a[0], b[0]) - 4, min(a[1], b[1]) - 4, abs(a[0] - b[0]) + 8, abs(a[1] - b[1]) + 8)
        out.append(_street_group(acts, name, body, box))
    for i, name in enumerate(city.intersections):
        x, y = points[i]
        out.append(f'<circle class="intersection" data-intersection={quoteattr(name)} cx="{num(x)}" '
                   f'cy="{num(y)}" r="4.5" fill="#555"><title>{escape(name)}</title></circle>')
    out.append("</g>")
    return out


def _street_group(acts: _Acts, name: str, body: str, box: tuple[float, float, float, float]) -> str:
    inner = acts.wrap((f"move {name}", f"support {name}"), body, box)
    return f'<g class="street" data-street={quoteattr(name)}><title>{escape(name)}</title>{inner}</g>'


def _hood_spot(city: City, h: int, middles: Sequence[Point]) -> Point:
    """Where Bad Hood ``h``'s badge goes: beside its streets, pushed away from the map's centre."""
    members = city.hood_streets[h - 1]
    mx = sum(middles[s][0] for s in members) / len(members)
    my = sum(middles[s][1] for s in members) / len(members)
    cx, cy = _MAP_X + _MAP_W / 2, _MAP_Y + _MAP_H / 2
    dx, dy = mx - cx, my - cy
    norm = math.hypot(dx, dy) or 1.0
    x = min(max(mx + 34 * dx / norm, _MAP_X + 40), _MAP_X + _MAP_W - 40)
    y = min(max(my + 34 * dy / norm, _MAP_Y + 20), _MAP_Y + _MAP_H - 20)
    return x, y


def _acting_cop(data: Mapping[str, Any]) -> int | None:
    turn = data.get("turn")
    return int(turn["cop"]) if turn else None


def _hoods(game: PrecinctGame, data: Mapping[str, Any], acts: _Acts, middles: Sequence[Point]) -> list[str]:
    """Each Bad Hood's badge: punks, gang, patrol officers, the murderer; the hood's actions on it."""
    city = game.city
    cop = _acting_cop(data)
    arrest_hood = None
    if cop is not None and cop < len(data["cops"]):
        arrest_hood = city.hood_of(city.street(data["cops"][cop]["street"]))
    out = ['<g id="hoods">']
    for h in range(1, len(city.hood_streets) + 1):
        x, y = _hood_spot(city, h, middles)
        punks, patrol, gang = int(data["punks"][h - 1]), int(data["patrol"][h - 1]), data["gangs"][h - 1]
        murderer = data["murderer"] == h
        w, hh = 78.0, 34.0 + (12.0 if gang else 0.0)
        body = _rect(x - w / 2, y - hh / 2, w, hh, "#fff4f2", _HOOD, 5.0, ' stroke-width="1.5"')
        body += _text(x, y - hh / 2 + 11, f"Bad Hood {h}", 9.5, "middle", fill=_HOOD, font_weight="bold")
        body += _text(x, y - hh / 2 + 23, f"punks {punks}  officers {patrol}", 9, "middle")
        if gang:
            body += _text(x, y - hh / 2 + 35, f"gang: {gang}", 9, "middle", fill="#7a1d12")
        wanted = [f"hood {h}"]
        if arrest_hood == h:
            wanted.append("arrest punks")
        if murderer:
            wanted.append("arrest murderer")
            body += (f'<circle cx="{num(x + w / 2)}" cy="{num(y - hh / 2)}" r="10" fill="#111"/>'
                     + _text(x + w / 2, y - hh / 2 + 3.5, "M", 10, "middle", fill="#fff", font_weight="bold"))
        extra = {"gang": str(gang)} if gang else {}
        if murderer:
            extra["murderer"] = "1"
        inner = acts.wrap(wanted, body, (x - w / 2, y - hh / 2, w, hh))
        attrs = "".join(f" data-{k}={quoteattr(v)}" for k, v in extra.items())
        out.append(f'<g class="hood" data-hood="{h}" data-punks="{punks}" data-patrol="{patrol}"{attrs}>'
                   f"{inner}</g>")
    out.append("</g>")
    return out


def _place_point(game: PrecinctGame, where: str, points: Sequence[Point],
                 middles: Sequence[Point]) -> Point | None:
    """The map point of a card's location: a building's street, an intersection, a street, a Bad Hood."""
    city = game.city
    if where in city.buildings:
        return middles[city.buildings[where]]
    if where in city.intersection_ids:
        return points[city.intersection_ids[where]]
    if where in city.street_ids:
        return middles[city.street_ids[where]]
    if where.startswith("Bad Hood "):
        tail = where.removeprefix("Bad Hood ")
        if tail.isdigit() and 1 <= int(tail) <= len(city.hood_streets):
            return _hood_spot(city, int(tail), middles)
    return None


def _board_cards(game: PrecinctGame, data: Mapping[str, Any], acts: _Acts, points: Sequence[Point],
                 middles: Sequence[Point]) -> list[str]:
    """The buildings (with their stacks) and every event card on the board, at its place."""
    city = game.city
    out = ['<g id="buildings">']
    per_street: dict[int, int] = {}
    stacks = {s["building"]: s for s in data["stacks"] if s["building"] and not s["gone"]}
    for name, s in sorted(city.buildings.items(), key=lambda kv: (kv[1], kv[0])):
        k = per_street.get(s, 0)
        per_street[s] = k + 1
        mx, my = middles[s]
        x, y = mx - 16 + 34 * k, my + 9
        short = _short_building(name)
        fill = "#dde7f3" if name == STATION else "#ffffff"
        body = _rect(x - 15, y - 1, 30, 13, fill, "#666", 2.0) + _text(x, y + 9, short, 8, "middle")
        wanted: list[str] = []
        if name in stacks:
            deck = str(stacks[name]["deck"])
            body += _rect(x + 11, y - 5, 8, 8, "#4a6fa5", "#fff", 1.0)
            wanted += [f"investigate {deck}", f"deck {deck}"]
        inner = acts.wrap(wanted, body, (x - 15, y - 1, 30, 13))
        out.append(f'<g class="building" data-building={quoteattr(name)}><title>{escape(name)}</title>'
                   f"{inner}</g>")
    out.append("</g>")
    out.append('<g id="cards">')
    crowd: dict[Point, int] = {}
    events = {e.name: e for e in game.content.events}
    for b in data["board"]:
        spot = _place_point(game, str(b["where"]), points, middles)
        if spot is None:  # a special with no place: drawn in the map's corner row
            spot = (_MAP_X + 30, _MAP_Y + _MAP_H - 14)
        k = crowd.get(spot, 0)
        crowd[spot] = k + 1
        x, y = spot[0] - 12 + 26 * k, spot[1] - 26
        card = events.get(str(b["card"]))
        colour = _EVENT_FILL.get(card.color if card is not None and not card.special else "", "#d9c2ec")
        need = f"{card.number}+" if card is not None and card.number else ""
        body = _rect(x - 11, y - 9, 24, 18, colour, "#222", 3.0,
                     ' stroke-width="2"' if b["urgent"] else "")
        body += _text(x + 1, y + 4, f"{b['slot']}", 9.5, "middle", font_weight="bold")
        if need:
            body += _text(x + 1, y + 17, need, 8, "middle", fill="#222")
        if b["urgent"]:
            body += _text(x + 14, y - 5, "!", 12, "middle", fill="#c00", font_weight="bold")
        unknown = b["unknown"]
        if unknown:
            body += f'<circle cx="{num(x - 11)}" cy="{num(y - 9)}" r="4" fill="#333"/>'
        tip = f"[{b['slot']}] {b['card']} at {b['where']}" + (f", {unknown}" if unknown else "") + \
            (" (URGENT)" if b["urgent"] else "")
        inner = acts.wrap([f"handle {b['slot']}"], f"<title>{escape(tip)}</title>{body}",
                          (x - 11, y - 9, 24, 18))
        out.append(f'<g class="event" data-slot="{b["slot"]}" data-card={quoteattr(str(b["card"]))}>'
                   f"{inner}</g>")
    out.append("</g>")
    return out


def _short_building(name: str) -> str:
    words = {"Police Station": "PD", "Hospital": "Hosp", "Morgue": "Morg", "Duffy's Bar": "Bar",
             "Knights Apartments": "Knig", "Tolloty Apartments": "Toll", "Crime Scene Lot": "CSL",
             "City Hall": "Hall", "Bank": "Bank", "Gas Station": "Gas"}
    if name in words:
        return words[name]
    head, _, tail = name.rpartition(" ")
    if tail.isdigit() and head:
        return f"{head[0]}{tail}"
    return name[:4]


def _cars(game: PrecinctGame, data: Mapping[str, Any], middles: Sequence[Point]) -> list[str]:
    city = game.city
    out = ['<g id="cars">']
    crowd: dict[str, int] = {}
    for i, c in enumerate(data["cops"]):
        if c["out"]:
            continue
        street = str(c["street"])
        k = crowd.get(street, 0)
        crowd[street] = k + 1
        mx, my = middles[city.street(street)]
        x, y = mx - 10 + 12 * k, my - 9 - 4 * (k % 2)
        colour = _SEATS[int(c["seat"]) % len(_SEATS)]
        dash = "" if c["marked"] else ' stroke-dasharray="2 1.5"'
        out.append(f'<g class="car" data-seat="{c["seat"]}" data-cop="{i}" data-street={quoteattr(street)}>'
                   f"<title>{escape(str(c['character']))} (seat {c['seat']}), "
                   f"{'marked' if c['marked'] else 'unmarked'} car</title>"
                   f'<circle cx="{num(x)}" cy="{num(y)}" r="7" fill="{colour}" stroke="#111" '
                   f'stroke-width="1.5"{dash}/>'
                   + _text(x, y + 3.2, str(c["seat"]), 8.5, "middle", fill="#fff", font_weight="bold")
                   + "</g>")
    for street in data.get("support") or []:
        mx, my = middles[city.street(str(street))]
        out.append(f'<g class="support" data-street={quoteattr(str(street))}><title>support vehicle</title>'
                   + _rect(mx + 6, my - 16, 11, 9, "#ffffff", "#111", 1.0) + "</g>")
    out.append("</g>")
    return out


def _bar(x: float, y: float, label: str, value: int, limit: int, colour: str, track: str,
         marks: Sequence[int] = ()) -> str:
    """One track as a labelled bar: ``value`` of ``limit`` filled, ``marks`` as ticks."""
    w = 160.0
    filled = w * min(max(value, 0), limit) / max(limit, 1)
    ticks = "".join(f'<line x1="{num(x + 135 + w * m / max(limit, 1))}" y1="{num(y - 2)}" '
                    f'x2="{num(x + 135 + w * m / max(limit, 1))}" y2="{num(y + 12)}" stroke="#111"/>'
                    for m in marks)
    return (f'<g class="track" data-track={quoteattr(track)} data-value="{value}" data-limit="{limit}">'
            + _text(x, y + 9, label, 10)
            + _rect(x + 135, y, w, 10, "#eeeeee", "#888", 2.0)
            + _rect(x + 135, y, filled, 10, colour, "none", 2.0) + ticks
            + _text(x + 135 + w + 4, y + 9, f"{value}/{limit}", 9) + "</g>")


def _tracks(game: PrecinctGame, data: Mapping[str, Any], y: float) -> tuple[list[str], float]:
    """The Turn Track (the murderer's turn marked), City Crime and the Murder Investigation Board."""
    content = game.content
    x = _PANEL_X
    murderer = f"murderer in Bad Hood {data['murderer']}" if data["murderer"] else \
        f"murderer appears on turn {content.murderer_turn}"
    out = ['<g id="tracks">', _text(x, y + 10, "Tracks", 12, font_weight="bold"),
           _bar(x, y + 18, "Turn (FAIL at end)", int(data["turn_track"]), content.fail_turn, "#7f8c8d",
                "turn", (content.murderer_turn,)),
           _text(x, y + 44, murderer, 9, fill="#444"),
           _bar(x, y + 50, "City Crime", int(data["crime"]), content.crime_fail, "#c0392b", "crime")]
    y += 70
    out.append(_text(x, y + 10, "Murder Investigation Board", 10, font_weight="bold"))
    for d, deck in enumerate(DECKS):
        need = content.decks[d][0]
        out.append(_bar(x, y + 16 + 16 * d, deck.replace("_", " "), int(data["placed"][d]), need, "#2e86c1",
                        f"evidence:{deck}"))
    out.append("</g>")
    return out, y + 16 + 16 * len(DECKS)


def _last_look(data: Mapping[str, Any]) -> str | None:
    """The deck of the seat's last look at a stack (where ``evidence first``... put the cards back)."""
    for entry in reversed(data.get("history") or []):
        for ev in reversed(entry[2]):
            if ev.get("kind") == "Looked" and "deck" in ev:
                return str(ev["deck"])
    return None


def _stacks(game: PrecinctGame, data: Mapping[str, Any], acts: _Acts, y: float) -> tuple[list[str], float]:
    """The investigation stacks (cards and evidence left, where they lie), with their actions."""
    x = _PANEL_X
    looked = _last_look(data)
    out = ['<g id="stacks">', _text(x, y + 10, "Investigation stacks", 12, font_weight="bold")]
    y += 16
    for s in data["stacks"]:
        deck = str(s["deck"])
        where = "complete" if s["gone"] else \
            f"{s['size']} cards, {s['evidence']} evidence, at {s['building']}"
        body = _rect(x, y, 330, 18, "#eef3fa", "#4a6fa5", 3.0) + \
            _text(x + 6, y + 13, f"{deck.replace('_', ' ')}: {where}", 10)
        wanted = [f"investigate {deck}", f"deck {deck}"]
        if looked == deck:
            wanted += ["evidence first", "evidence last", "shuffle"]
        inner = acts.wrap(wanted, body, (x, y, 330, 18))
        out.append(f'<g class="stack" data-deck={quoteattr(deck)} data-size="{s["size"]}" '
                   f'data-evidence="{s["evidence"]}">{inner}</g>')
        y += 22
    out.append("</g>")
    return out, y


def _piles(game: PrecinctGame, data: Mapping[str, Any], acts: _Acts, y: float) -> tuple[list[str], float]:
    """The police and event decks (draw card; keep on top / put on bottom) and the supplies."""
    x = _PANEL_X
    out = ['<g id="piles">']
    police = (_rect(x, y, 104, 30, "#f7f0e1", "#8a6d3b", 4.0)
              + _text(x + 52, y + 13, "Police deck", 10, "middle")
              + _text(x + 52, y + 25, f"{data['police_deck']} cards", 9, "middle"))
    out.append(acts.wrap(["draw card"], police, (x, y, 104, 30), pile="police"))
    top = [t for t in data["known"]["events"]["top"] if t]
    event = (_rect(x + 112, y, 104, 30, "#efe6f7", "#6c3483", 4.0)
             + _text(x + 164, y + 13, "Event deck", 10, "middle")
             + _text(x + 164, y + 25, f"{data['event_deck']} cards", 9, "middle"))
    if top:
        event += f"<title>top card (you looked): {escape(str(top[0]))}</title>"
    out.append(acts.wrap(["keep on top", "put on bottom"], event, (x + 112, y, 104, 30), pile="event"))
    left = data.get("upgrades_left") or {}
    out.append(_text(x + 226, y + 10, "Upgrades", 9.5, font_weight="bold"))
    for i, name in enumerate(game.upgrade_names):
        ux, uy = x + 226 + 54 * (i % 2), y + 14 + 16 * (i // 2)
        body = (_rect(ux, uy, 50, 14, "#f2f2f2", "#777", 2.0)
                + _text(ux + 25, uy + 10.5, f"{name[:6]} {left.get(name, 0)}", 8.5, "middle"))
        out.append(acts.wrap([f"upgrade {name}"], body, (ux, uy, 50, 14), upgrade=name))
    y += 50
    if top:
        out.append(_text(x, y + 4, f"You know the top event card: {top[0]}", 9, fill="#6c3483"))
        y += 12
    out.append(_text(x, y + 8, f"supply: punks {data['punk_supply']}, officers {data['patrol_stock']}, "
                     f"donuts {data['donut_supply']}", 9, fill="#444"))
    out.append("</g>")
    return out, y + 12


def _roll(game: PrecinctGame, data: Mapping[str, Any], acts: _Acts, y: float) -> tuple[list[str], float]:
    """The roll under way: its kind, the cop, the dice so far, and the seat's own draw's cards."""
    roll = data.get("roll")
    if not roll:
        return ['<g id="roll"/>'], y
    x = _PANEL_X
    cop = int(roll["cop"])
    who = data["cops"][cop] if cop < len(data["cops"]) else None
    name = f"{who['character']} (seat {who['seat']})" if who else f"cop {cop}"
    parts = [f"{k} {v}" for k, v in roll.items() if k not in ("kind", "cop", "cards", "donors", "deck")]
    if "deck" in roll:
        parts.append(DECKS[int(roll["deck"])].replace("_", " "))
    out = [f'<g id="roll" data-kind={quoteattr(str(roll["kind"]))} data-cop="{cop}">',
           _text(x, y + 10, f"Under way: {roll['kind']} by {name}", 11, font_weight="bold"),
           _text(x, y + 24, ", ".join(parts)[:70], 9.5, fill="#333")]
    y += 30
    cards = roll.get("cards")
    if cards is not None:
        body = ""
        for i, ev in enumerate(cards):
            cx = x + 4 + 40 * i
            body += _rect(cx, y, 36, 24, "#ffffff" if not ev else "#d6eaf8", "#333", 3.0) + \
                _text(cx + 18, y + 15, "evid." if ev else "useless", 8.5, "middle")
        w = 40.0 * max(len(cards), 1)
        out.append(acts.wrap(["place evidence", "claim useless"], body, (x + 4, y, w - 4, 24), draw="own"))
        y += 28
    out.append("</g>")
    return out, y


def _posterior(data: Mapping[str, Any], advice: Advice) -> list[float] | None:
    """P(dirty) per seat: the advice's belief when it holds one, else the hint's posterior of the view."""
    if not data["config"].get("dirty_cop"):
        return None
    n = len(data.get("loyalty") or [])
    raw = advice.belief.get("dirty")
    if isinstance(raw, Sequence) and not isinstance(raw, str) and len(raw) == n:
        return [float(p) for p in raw]
    if isinstance(raw, Mapping):
        return [float(raw.get(p, raw.get(str(p), 0.0))) for p in range(n)]
    # the hint's table (bots.precinct.hint.marginals_for reads the same function of the same view)
    from solver.belief.dirty_cop import dirty_marginals

    return [float(p) for p in dirty_marginals(dict(data))]


def _loyalty_known(data: Mapping[str, Any], seat: int) -> tuple[str, str] | None:
    """(card, how known) of ``seat``'s loyalty card as the view's seat knows it, else None."""
    me = int(data["seat"])
    public = data.get("loyalty") or []
    if seat < len(public) and public[seat]:
        return str(public[seat]), "shown"
    if seat == me and data.get("my_loyalty"):
        return str(data["my_loyalty"]), "yours"
    peeks = (data.get("known") or {}).get("loyalty") or {}
    if str(seat) in peeks:
        return str(peeks[str(seat)]), "Internal Affairs"
    return None


def _players(game: PrecinctGame, data: Mapping[str, Any], acts: _Acts, posterior: Sequence[float] | None,
             y: float) -> tuple[list[str], float]:
    """One row per cop: character, street, car side, donuts, cards, upgrades, tokens, loyalty as known,
    with advice the dirty-cop posterior; accusations and Internal Affairs targets on the row."""
    me = int(data["seat"])
    turn = _acting_cop(data)
    out = ['<g id="players">', _text(20, y + 10, "Cops", 12, font_weight="bold")]
    y += 16
    for i, c in enumerate(data["cops"]):
        seat = int(c["seat"])
        colour = _SEATS[seat % len(_SEATS)]
        you = " (you)" if seat == me else ""
        bits = [f"{c['street']}", "marked" if c["marked"] else "unmarked", f"donuts {c['donuts']}",
                f"cards {c['cards']}"]
        # the tokens and states a cop may carry, each shown only when present
        marks = (("upgrades " + ", ".join(c["upgrades"]), c["upgrades"]), (f"SWAT {c['swat']}", c["swat"]),
                 ("Federal Agent", c["fed"]), ("hospital", c.get("hospital")), ("OUT", c["out"]))
        bits += [word for word, present in marks if present]
        known = _loyalty_known(data, seat)
        fill = "#fff8e1" if turn == i else "#fafafa"
        row = _rect(20, y, 610, _ROW_H - 4, fill, colour, 4.0, ' stroke-width="2"')
        row += f'<circle cx="34" cy="{num(y + 13)}" r="8" fill="{colour}"/>' + \
            _text(34, y + 16.5, str(seat), 9, "middle", fill="#fff", font_weight="bold")
        row += _text(48, y + 11, f"{c['character']} (seat {seat}){you}", 10.5, font_weight="bold")
        row += _text(48, y + 23, ", ".join(bits)[:95], 9, fill="#333")
        out.append(f'<g class="player" data-seat="{seat}" data-cop="{i}" data-cards="{c["cards"]}"'
                   + (f' data-loyalty={quoteattr(known[0])}' if known else "") + ">")
        out.append(acts.wrap([f"accuse {seat}", f"target {seat}"], row, (20, y, 610, _ROW_H - 4)))
        chips_x = 470.0
        if seat == me:
            for side in ("marked", "unmarked"):
                chip = _rect(chips_x, y + 3, 52, 14, "#eef", "#557", 2.0) + \
                    _text(chips_x + 26, y + 13.5, side, 8.5, "middle")
                out.append(acts.wrap([f"car {side}"], chip, (chips_x, y + 3, 52, 14), side=side))
                chips_x += 56
        if known:
            card, how = known
            shade = "#f5b7b1" if card == "dirty" else "#d5f5e3"
            tag = _rect(chips_x + 2, y + 3, 50, 20, shade, "#333", 3.0) + \
                _text(chips_x + 27, y + 13, card, 8.5, "middle", font_weight="bold") + \
                _text(chips_x + 27, y + 21, how[:10], 6.5, "middle")
            out.append(acts.wrap(["reveal"] if seat == me else [], tag, (chips_x + 2, y + 3, 50, 20)))
        if posterior is not None and seat < len(posterior):  # the Dirty Cop needs 3+ seats: one cop each
            p = posterior[seat]
            out.append(f'<g class="posterior" data-seat="{seat}" data-p="{p:.3f}">'
                       + _rect(640, y + 6, 200, 12, "#eeeeee", "#888", 2.0)
                       + _rect(640, y + 6, 200 * min(max(p, 0.0), 1.0), 12, "#c0392b", "none", 2.0)
                       + _text(846, y + 16, f"P(dirty) {p:.2f}", 10) + "</g>")
        out.append("</g>")
        y += _ROW_H
    out.append("</g>")
    return out, y


def _hand(game: PrecinctGame, data: Mapping[str, Any], acts: _Acts, y: float) -> tuple[list[str], float]:
    """The seat's own police cards face up, each carrying its play / help / discard."""
    cards = {p.name: p for p in game.content.police}
    hand = data["hand"]
    title = "Your hand" + ("" if hand else ": empty")
    out = ['<g id="hand">', _text(20, y + 10, title, 12, font_weight="bold")]
    y += 16
    w, h, gap = 92.0, 40.0, 6.0
    per_row = int((WIDTH - 40) // (w + gap))
    for i, entry in enumerate(hand):
        name = str(entry["card"])
        x, cy = 20 + (w + gap) * (i % per_row), y + (h + gap) * (i // per_row)
        card = cards.get(name)
        symbol = SYMBOLS[int(card.symbol)] if card is not None else ""
        double = " x2" if card is not None and card.double else ""
        body = _rect(x, cy, w, h, _SYMBOL_FILL.get(symbol, "#fff"), "#555", 4.0)
        body += _text(x + w / 2, cy + 14, name[:18], 9, "middle", font_weight="bold")
        body += _text(x + w / 2, cy + 26, f"{symbol}{double}", 8.5, "middle", fill="#444")
        if entry.get("new"):
            body += _text(x + w / 2, cy + 36, "new this turn", 7.5, "middle", fill="#a04000")
        attrs = {"card": name}
        if "cop" in entry:
            attrs["cop"] = str(entry["cop"])
        out.append(acts.wrap([f"play {name}", f"help {name}", f"discard {name}"], body, (x, cy, w, h),
                             **attrs))
    rows = (len(hand) + per_row - 1) // per_row
    out.append("</g>")
    return out, y + rows * (h + gap)


def _choices(game: PrecinctGame, data: Mapping[str, Any], acts: _Acts, y: float) -> tuple[list[str], float]:
    """While picking characters: each character card with its values and powers."""
    picks = [c for c in game.content.characters if f"pick {c.name}" in acts.legal_set]
    if not picks:
        return ['<g id="choices"/>'], y
    out = ['<g id="choices">', _text(20, y + 10, "Characters", 12, font_weight="bold")]
    y += 16
    w, h, gap = 118.0, 46.0, 6.0
    per_row = int((WIDTH - 40) // (w + gap))
    for i, c in enumerate(picks):
        x, cy = 20 + (w + gap) * (i % per_row), y + (h + gap) * (i // per_row)
        body = _rect(x, cy, w, h, "#f9f6ee", "#555", 4.0)
        body += _text(x + w / 2, cy + 14, c.name, 10, "middle", font_weight="bold")
        values = f"inv {c.investigate} arr {c.arrest} em {c.emergency}"
        body += _text(x + w / 2, cy + 27, values, 8.5, "middle")
        body += _text(x + w / 2, cy + 39, ", ".join(c.powers)[:24], 7.5, "middle", fill="#555")
        out.append(acts.wrap([f"pick {c.name}"], body, (x, cy, w, h), character=c.name))
    out.append("</g>")
    rows = (len(picks) + per_row - 1) // per_row
    return out, y + rows * (h + gap)


def _legend(data: Mapping[str, Any], acts: _Acts, y: float, posterior: bool) -> tuple[list[str], float]:
    elsewhere = [a for a in acts.legal if a not in acts.placed]
    lines = ["Cars are numbered by seat (dashed ring: unmarked car); red-cased streets belong to a Bad Hood; "
             "numbered cards are events (needed roll below, ! Urgent, dot: Unknown Circumstances face down).",
             "Blue squares mark the investigation stacks' buildings. Click a street, card, hood, stack, pile "
             "or hand card to play it."]
    if posterior:
        lines.append("P(dirty): each seat's chance of holding the dirty loyalty card, from your view only.")
    if elsewhere:
        lines.append("Other moves: " + ", ".join(elsewhere)[:140])
    out = ['<g id="legend">']
    for i, line in enumerate(lines):
        out.append(_text(20, y + 10 + 14 * i, line, 9.5, fill="#333"))
    out.append("</g>")
    return out, y + 14 * len(lines)
