"""Draw a Police 07 position as SVG (and PNG): the board, the pieces, the possible stops, the seat's
legal moves as clickable stops, and with a hint the best move.

Everything on the picture comes from one seat's view (and, for a hint, the advice a bot gave on that
view): the detectives' pieces, Dr. Factor's piece only when that view knows his stop (his own view, or
a detective's right after a shown move), the possible-location set (computed here from the view, so a
weight a caller passes for any other stop is ignored) as a heat map, the stops the seat's legal moves
end on, and the best-ranked move as an arrow. The board is public. A detective's picture therefore
does not change with where Dr. Factor really is, which ``tests/test_draw.py`` checks byte for byte.
Without advice (the web page's main picture, ``docs/web`` contract section 1) the picture is the
position alone: no arrow, no suggested move in the title.

**Clickable moves.** Every stop that one of the view's legal actions ends on (a move with any ticket,
a joker, a double move's legs, a start or free placement) is a ``<g class="stop act">`` whose
``data-actions`` lists those actions' texts (``["taxi 69","joker taxi 69"]``), ringed in the mover's
colour; after a voluntary show, a detective's piece carries the ``take`` actions of its tickets.
``double``, ``show`` and ``pass`` have no place on the board: the panel carries them as chips.

**The panel** (:func:`panel`, under the colour keys) is what a human plays from besides the board: every
piece's tickets left (a detective's ticket cell carries the legal ``take`` of it), Dr. Factor's travel
log as the view has it (the ticket of each move; the stop only where the view holds it, so a
detective's panel never names a hidden stop), the moves left and the next shown move.

Layout: the board file's ``coordinates`` when it gives them for every stop (taken as drawing
positions, x to the right and y down, as on a scan of the board), otherwise :func:`bots.svg.stress_layout` of
the taxi distances: deterministic linear algebra, no random start, so a board is drawn the same way
on every run and machine. Taxi links are the streets; bus and metro links mostly bridge several of
them, so leaving them out of the layout keeps each neighbourhood together. (networkx's
``kamada_kawai_layout`` minimises the same stress but needs scipy, which copsolver does not depend
on; its ``spring_layout`` bunches this board's stops together.)

SVG structure, drawn in this order (what tests and other tools may rely on)::

    <svg>                                     one document, no external resources
      <g id="links">     <line class="link taxi|bus|metro|water" data-a= data-b=/> ...
      <g id="heat">      <circle class="possible" data-stop= data-weight=/> ...   (weight over the largest)
      <g id="best-move" data-action= [data-from= data-to=]>  arrow (a move), dashed target ring
      <g id="stops">     <g class="stop [act]" data-stop=N [data-actions=JSON]><circle/><text>N</text>
                         [<circle class="target"/>]</g> ...
      <g id="pieces">    <g class="piece detective|factor [act]" data-piece= data-stop= [data-actions=]>
                         ring, name tag
      <g id="legend">    title, who is to move, possible count, suggested move, colour keys
      <g id="panel">     <g class="tickets" data-piece=P> <g class="ticket [act]" data-ticket=T> ...
                         <g class="log-move" data-move=K [data-ticket=T]> ...
                         <g class="chip act" data-action=TEXT data-actions=> (double, show, pass)

(``[act]`` and ``data-actions`` only where a legal action lands; ``best-move`` only with advice.)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, Final
from xml.sax.saxutils import quoteattr

import numpy as np

from bots.base import Advice
from bots.svg import (
    FloatArray,
    Point,
    act_group,
    actions_attr,
    document,
    drawable,
    num,
    rect,
    stress_layout,
    text,
)
from solver.core import ConfigError, Game, View
from solver.games.police07 import codec
from solver.games.police07.board import Board, Line, Stop
from solver.games.police07.distances import UNREACHABLE, line_distances
from solver.games.police07.rules import Police07Game

#: The board is drawn BOX wide and at most BOX tall (as tall as its layout needs); stop centres keep
#: PAD from its edges.
BOX: Final = 1000.0
PAD: Final = 40.0
_MARGIN: Final = 20.0  # around the board square
_HEADER: Final = 92.0  # title lines above the board
_FOOTER: Final = 48.0  # colour keys below it
_STOP_R: Final = 12.0
_PIECE_R: Final = 16.5
_TAG_H: Final = 18.0  # height of a piece's name tag

#: Per line: colour, stroke width, dash pattern. Wider lines are drawn first, so a pair of stops
#: joined by several lines shows them as nested stripes (metro under bus under taxi).
_LINE_STYLE: Final[dict[Line, tuple[str, float, str]]] = {
    Line.METRO: ("#d62728", 7.0, ""),
    Line.BUS: ("#1f66d1", 4.0, ""),
    Line.TAXI: ("#e8b400", 1.8, ""),
    Line.WATER: ("#00a8c6", 2.6, "7 5"),
}
_LINE_ORDER: Final = (Line.METRO, Line.BUS, Line.TAXI, Line.WATER)
#: Detective pieces D1..D5 (colour-blind-safe qualitative colours, none of them a line colour).
_DETECTIVE_COLOURS: Final = ("#009e73", "#7b3fa0", "#e6007e", "#8c6d1f", "#0072b2")
_FACTOR_COLOUR: Final = "#111111"
#: Heat ramp for the possible stops, weight 0 -> 1 (light amber to deep orange-red).
_HEAT_LOW: Final = (255, 226, 170)
_HEAT_HIGH: Final = (217, 72, 1)
#: The shade of every possible stop when no weights are given (all equally likely).
_UNIFORM_SHADE: Final = 0.7
_LIKELY_SHOWN: Final = 5  # most likely stops named in the title when weights are given


# --- layout -----------------------------------------------------------------------------------


def board_layout(board: Board) -> dict[Stop, Point]:
    """Every stop's drawing position inside the ``BOX`` x ``BOX`` square (cached per board).

    The board's own coordinates when it has them for every stop, otherwise a computed layout that
    is the same on every run.

    >>> from solver.games.police07.board import load_board
    >>> layout = board_layout(load_board())
    >>> len(layout), all(PAD <= x <= BOX - PAD and PAD <= y <= BOX - PAD for x, y in layout.values())
    (196, True)
    """
    return dict(zip(board.stops, _layout(board), strict=True))


@lru_cache(maxsize=8)
def _layout(board: Board) -> tuple[Point, ...]:
    # A Board hashes by identity, so each board object is laid out once.
    coords = board.coordinates
    if coords is not None and all(s in coords for s in board.stops):
        raw = np.array([coords[s] for s in board.stops], dtype=float)
    else:
        taxi = line_distances(board, (Line.TAXI,))[1:, 1:].astype(float)
        raw = stress_layout(taxi, unreachable=UNREACHABLE)
    return _fit(raw)


def _fit(raw: FloatArray) -> tuple[Point, ...]:
    """Scale points (keeping the aspect ratio) into the padded square, centred across, from the top."""
    low, high = raw.min(axis=0), raw.max(axis=0)
    span = float(max(high[0] - low[0], high[1] - low[1])) or 1.0
    scale = (BOX - 2 * PAD) / span
    offset = np.array([(BOX - (high[0] - low[0]) * scale) / 2, PAD])
    fitted = (raw - low) * scale + offset
    return tuple((round(float(x), 2), round(float(y), 2)) for x, y in fitted)


# --- svg --------------------------------------------------------------------------------------


def _num(value: float) -> str:
    """A coordinate as short, stable text (the board's positions have two decimals)."""
    return num(value, 2)


#: A ``<text>`` of this board: two decimals, anchored by its group unless ``text_anchor`` is given.
_text = partial(text, anchor=None, digits=2)


def _heat(weight: float) -> str:
    """The heat-map fill for a weight in [0, 1]."""
    t = min(1.0, max(0.0, weight))
    r, g, b = (round(lo + (hi - lo) * t) for lo, hi in zip(_HEAT_LOW, _HEAT_HIGH, strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def _shorten(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point]:
    """The segment a-b with ``start`` cut from its a end and ``end`` from its b end."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def _police_view(game: Police07Game, view: View) -> dict[str, Any]:
    data = view.to_json()
    if not isinstance(data, dict) or data.get("game") != game.name or "pieces" not in data:
        raise ConfigError(f"draw: expected a police07 view, not {type(view).__name__}")
    return data


def _possible(game: Police07Game, data: dict[str, Any]) -> list[Stop]:
    # Imported here: the belief module is only needed when a picture is drawn.
    from solver.games.police07.locations import possible_locations

    return sorted(possible_locations(game, data))


def _intensities(possible: list[Stop], weights: Mapping[Stop, float] | None) -> dict[Stop, float] | None:
    """Per possible stop, its weight over the largest one; None without usable weights (uniform)."""
    if weights is None:
        return None
    clean = {s: float(weights.get(s, 0.0)) for s in possible}
    if any(not math.isfinite(w) or w < 0 for w in clean.values()):
        raise ConfigError("draw: weights must be finite and non-negative")
    top = max(clean.values(), default=0.0)
    if top <= 0:
        return None
    return {s: w / top for s, w in clean.items()}


def _describe_move(advice: Advice) -> str:
    best = advice.best
    details = best.reason
    if best.value is not None and best.visits is not None:
        total = sum(r.visits or 0 for r in advice.ranked) or 1
        details = (
            f"estimated win chance {best.value:.0%}, {best.visits / total:.0%} of the search's "
            f"{total} simulations"
        )
    text = f"Suggested: {best.text}"
    return f"{text} ({details})" if details else text


def _who(data: dict[str, Any]) -> str:
    """Who is to move, and whose view this is when it is another seat's (the web page draws every
    seat's view, not only the mover's)."""
    piece = data.get("piece")
    decision = data.get("decision", {})
    if piece == 0:
        who = "Dr. Factor to move"
    elif isinstance(piece, int):
        who = f"detective D{piece} to move (seat {decision.get('seat')})"
    else:
        return str(decision.get("prompt", ""))
    if decision.get("seat") != data.get("seat"):
        who += f"; seat {data.get('seat')}'s view"
    return who


def clickable(game: Game, view: View) -> tuple[dict[Stop, list[str]], dict[int, list[str]]]:
    """The view's legal actions that have a place on the board, as their texts: by the stop they end
    on (moves, starts, placements) and by the detective piece they take a ticket from (``take``).

    Texts are the game's notation, in the view's legal order, so they are the ``legal_actions`` of
    ``view.to_json()``.
    """
    stops: dict[Stop, list[str]] = {}
    pieces: dict[int, list[str]] = {}
    for action in view.legal_actions:
        text = game.action_to_str(action)
        if codec.is_move(action) or codec.START_BASE < action < codec.PLACE_BASE + 256:
            # a move, start or placement id holds its stop in the low byte (codec's layout)
            stops.setdefault(action % 256, []).append(text)
        elif codec.TAKE_BASE + 4 <= action < codec.TAKE_BASE + (codec.MAX_PIECE + 1) * 4:
            pieces.setdefault((action - codec.TAKE_BASE) // 4, []).append(text)
    return stops, pieces


def render_svg(
    game: Game,
    view: View,
    advice: Advice | None = None,
    weights: Mapping[Stop, float] | None = None,
) -> str:
    """Draw ``view``'s board, and ``advice`` when given, as a standalone SVG document (see the module
    docstring); the legal moves' stops are clickable either way.

    ``weights`` shade the possible stops (each over the largest; uniform when None or all zero);
    weights of stops outside the possible set are ignored, as they cannot be right. Raises
    :class:`ConfigError` for a view that is not a Police 07 view, advice for another seat or
    ranking no move, or negative or non-finite weights.
    """
    game = drawable(game, Police07Game, view, "Police 07", advice)
    data = _police_view(game, view)
    if advice is not None and not advice.ranked:
        raise ConfigError("draw: the advice ranks no move")
    board = game.board
    pos = board_layout(board)
    ox, oy = _MARGIN, _MARGIN + _HEADER
    box_height = max(y for _, y in pos.values()) + PAD
    width = BOX + 2 * _MARGIN
    height = _HEADER + box_height + _FOOTER + 2 * _MARGIN  # down to the colour keys

    def at(stop: Stop) -> Point:
        x, y = pos[stop]
        return x + ox, y + oy

    possible = _possible(game, data)
    weighted = _intensities(possible, weights)
    heat = weighted if weighted is not None else dict.fromkeys(possible, 1.0)
    shade = heat if weighted is not None else dict.fromkeys(possible, _UNIFORM_SHADE)
    out: list[str] = [
        *document(width, height + _PANEL_H, digits=2),
        rect(ox, oy, BOX, box_height, 'fill="#fafaf7" stroke="#d0d0c8"', digits=2),
    ]

    out.append('<g id="links" stroke-linecap="round">')
    for line in _LINE_ORDER:
        colour, stroke, dash = _LINE_STYLE[line]
        name = Line(line).name.lower()
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        opacity = ' stroke-opacity="0.75"' if line in (Line.METRO, Line.BUS) else ""
        for a, b in board.links[line]:
            (x1, y1), (x2, y2) = at(a), at(b)
            out.append(
                f'<line class="link {name}" data-a="{a}" data-b="{b}" x1="{_num(x1)}" y1="{_num(y1)}" '
                f'x2="{_num(x2)}" y2="{_num(y2)}" stroke="{colour}" stroke-width="{_num(stroke)}"'
                f"{opacity}{dashed}/>"
            )
    out.append("</g>")

    out.append('<g id="heat">')
    for stop in possible:
        x, y = at(stop)
        w = shade[stop]
        out.append(
            f'<circle class="possible" data-stop="{stop}" data-weight="{heat[stop]:.3f}" cx="{_num(x)}" '
            f'cy="{_num(y)}" r="{_num(_STOP_R + 9)}" fill="{_heat(w)}" fill-opacity="{0.35 + 0.4 * w:.2f}"/>'
        )
    out.append("</g>")

    # the arrow runs under the stops, so every stop number on its way stays readable
    pieces = _pieces(data)
    move = _best_move(data, advice, pieces, at) if advice is not None else _Move("", None)
    if move.svg:
        out.append(move.svg)

    targets, takes = clickable(game, view)
    raw_piece = data.get("piece")
    mover = _colour(raw_piece if isinstance(raw_piece, int) else None)
    out.append('<g id="stops" text-anchor="middle">')
    for stop in board.stops:
        x, y = at(stop)
        if stop in shade:
            w = shade[stop]
            fill, ink, edge = _heat(w), ("#ffffff" if w > 0.6 else "#000000"), "#7a2a00"
        else:
            fill, ink, edge = "#ffffff", "#333333", "#8a8a8a"
        act = "" if stop not in targets else f" {actions_attr(targets[stop])}"
        # a clickable stop's ring lies over it with a transparent fill, so the whole disc takes the click
        ring = (
            ""
            if stop not in targets
            else f'<circle class="target" cx="{_num(x)}" cy="{_num(y)}" r="{_num(_STOP_R + 3)}" '
            f'fill="#ffffff" fill-opacity="0" stroke="{mover}" stroke-width="3"/>'
        )
        out.append(
            f'<g class="stop{" act" if act else ""}" data-stop="{stop}"{act}>'
            f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(_STOP_R)}" '
            f'fill="{fill}" stroke="{edge}" stroke-width="1.2"/>'
            + _text(x, y + 4.0, str(stop), 11.5 if stop < 100 else 10.0, fill=ink, font_weight="bold")
            + ring
            + "</g>"
        )
    out.append("</g>")

    out.append('<g id="pieces" text-anchor="middle">')
    centres = [at(s) for s in board.stops]
    tags = _place_tags(
        {p: at(s) for p, s in pieces.items()}, centres, move.segment, (ox, oy, ox + BOX, oy + box_height)
    )
    for piece, stop in pieces.items():
        kind = "factor" if piece == 0 else "detective"
        cls, act = (f"{kind} act", f" {actions_attr(takes[piece])}") if piece in takes else (kind, "")
        out.append(
            f'<g class="piece {cls}" data-piece="{piece}" data-stop="{stop}"{act}>'
            + _piece(at(stop), tags[piece], _label(piece), _colour(piece))
            + "</g>"
        )
    out.append("</g>")
    out.append(_legend(game, data, advice, possible, weighted, width, height, bool(targets)))
    out.append(panel(game, view, height))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _pieces(data: dict[str, Any]) -> dict[int, Stop]:
    """The pieces the view places on the board: piece -> stop (0, Dr. Factor, only when known)."""
    placed = {
        entry["piece"]: entry["stop"]
        for entry in data["pieces"]
        if isinstance(entry.get("piece"), int) and isinstance(entry.get("stop"), int)
    }
    factor_stop = (data.get("factor") or {}).get("stop")
    if isinstance(factor_stop, int):
        placed[0] = factor_stop
    return dict(sorted(placed.items()))


def _label(piece: int) -> str:
    return "Dr. F" if piece == 0 else f"D{piece}"


def _colour(piece: int | None) -> str:
    if piece is None:
        return "#444444"
    return _FACTOR_COLOUR if piece == 0 else _DETECTIVE_COLOURS[(piece - 1) % len(_DETECTIVE_COLOURS)]


def _tag_width(label: str) -> float:
    return 11.0 + 7.5 * len(label)


def _place_tags(
    pieces: dict[int, Point],
    stops: list[Point],
    arrow: tuple[Point, Point] | None,
    box: tuple[float, float, float, float],
) -> dict[int, Point]:
    """Put each piece's name tag above, below, right or left of it, whichever hides the fewest
    stops, crosses no arrow, overlaps no other tag and stays on the board (the first such side in
    that order, so the choice is deterministic)."""
    placed: dict[int, Point] = {}
    boxes: list[tuple[float, float, float, float]] = []
    path = (
        []
        if arrow is None
        else [
            (
                arrow[0][0] + (arrow[1][0] - arrow[0][0]) * i / 24,
                arrow[0][1] + (arrow[1][1] - arrow[0][1]) * i / 24,
            )
            for i in range(25)
        ]
    )
    for piece, (x, y) in pieces.items():
        half_w, half_h = _tag_width(_label(piece)) / 2, _TAG_H / 2
        sides = (
            (0.0, -(_PIECE_R + 12)),
            (0.0, _PIECE_R + 12),
            (_PIECE_R + half_w + 5, 0.0),
            (-(_PIECE_R + half_w + 5), 0.0),
        )
        best: tuple[float, Point] | None = None
        for dx, dy in sides:
            cx, cy = x + dx, y + dy
            rect = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)

            def inside(p: Point, margin: float, r: tuple[float, float, float, float] = rect) -> bool:
                return r[0] - margin <= p[0] <= r[2] + margin and r[1] - margin <= p[1] <= r[3] + margin

            cost = float(sum(inside(c, _STOP_R * 0.7) for c in stops if c != (x, y)))
            cost += 6.0 * any(inside(p, 3.0) for p in path)
            cost += 6.0 * sum(
                not (b[2] < rect[0] or rect[2] < b[0] or b[3] < rect[1] or rect[3] < b[1]) for b in boxes
            )
            cost += 3.0 * sum(inside(c, _PIECE_R) for q, c in pieces.items() if q != piece)
            cost += 10.0 * (rect[0] < box[0] or rect[1] < box[1] or rect[2] > box[2] or rect[3] > box[3])
            if best is None or cost < best[0]:
                best = (cost, (cx, cy))
        if best is not None:
            placed[piece] = best[1]
            half = _tag_width(_label(piece)) / 2
            boxes.append(
                (best[1][0] - half, best[1][1] - _TAG_H / 2, best[1][0] + half, best[1][1] + _TAG_H / 2)
            )
    return placed


def _piece(centre: Point, tag: Point, label: str, colour: str) -> str:
    """A piece: a thick ring around its stop (the number stays readable) and a name tag at ``tag``."""
    x, y = centre
    tag_w = _tag_width(label)
    tx, ty = tag
    return (
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(_PIECE_R)}" fill="none" stroke="#ffffff" '
        'stroke-width="7.5"/>'
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(_PIECE_R)}" fill="none" stroke="{colour}" '
        'stroke-width="5"/>'
        + rect(tx - tag_w / 2, ty - _TAG_H / 2, tag_w, _TAG_H, f'rx="4" fill="{colour}" stroke="#ffffff" '
               'stroke-width="1.5"', digits=2)
        + _text(tx, ty + 4.5, label, 12.5, fill="#ffffff", font_weight="bold")
    )


@dataclass(frozen=True)
class _Move:
    """The best move as drawn: its SVG and its arrow's ends (None when it draws no arrow)."""

    svg: str
    segment: tuple[Point, Point] | None


def _best_move(
    data: dict[str, Any], advice: Advice, pieces: dict[int, Stop], at: Callable[[Stop], Point]
) -> _Move:
    """The best move as an arrow from the moving piece (a dashed ring alone for a placement;
    nothing for ``double``, ``show``, ``take`` or ``pass``, which the title names)."""
    action = advice.best.action
    raw_piece = data.get("piece")
    piece = raw_piece if isinstance(raw_piece, int) else None
    label = quoteattr(advice.best.text)
    if not codec.is_move(action) and not codec.PLACE_BASE < action < codec.PLACE_BASE + 256:
        return _Move(f'<g id="best-move" data-action={label}/>', None)
    target = action % 256
    source = pieces.get(piece) if piece is not None and codec.is_move(action) else None
    colour = _colour(piece)
    tx, ty = at(target)
    parts = [
        f'<g id="best-move" data-action={label} data-from="{"" if source is None else source}" '
        f'data-to="{target}">'
    ]
    segment: tuple[Point, Point] | None = None
    if source is not None:
        gap = math.dist(at(source), (tx, ty))
        cut = min(_PIECE_R + 3, gap * 0.3)  # neighbouring stops can be closer than two rings
        a, b = _shorten(at(source), (tx, ty), cut, cut)
        parts.append(_arrow(a, b, colour, 6.0, casing=True))
        segment = (a, b)
    parts.append(
        f'<circle cx="{_num(tx)}" cy="{_num(ty)}" r="{_num(_PIECE_R)}" fill="none" stroke="{colour}" '
        'stroke-width="3.5" stroke-dasharray="6 3"/></g>'
    )
    return _Move("".join(parts), segment)


def _arrow(a: Point, b: Point, colour: str, stroke: float, casing: bool = False) -> str:
    """A shaft from ``a`` and a filled head ending at ``b`` (a polygon, not an SVG marker: markers
    that take the line's colour are SVG 2, which not every converter draws)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    head_len = min(stroke * 3.2, length * 0.7)  # a short move keeps a bit of shaft
    head_half = head_len * 0.6
    ux, uy = dx / length, dy / length
    base = (b[0] - ux * head_len, b[1] - uy * head_len)
    tip = " ".join(
        f"{_num(x)},{_num(y)}"
        for x, y in (
            b,
            (base[0] - uy * head_half, base[1] + ux * head_half),
            (base[0] + uy * head_half, base[1] - ux * head_half),
        )
    )
    shaft = f'x1="{_num(a[0])}" y1="{_num(a[1])}" x2="{_num(base[0])}" y2="{_num(base[1])}"'
    parts = []
    if casing:
        parts.append(
            f'<line {shaft} stroke="#ffffff" stroke-width="{_num(stroke + 4)}" stroke-linecap="round"/>'
        )
        parts.append(
            f'<polygon points="{tip}" fill="#ffffff" stroke="#ffffff" stroke-width="4" '
            'stroke-linejoin="round"/>'
        )
    parts.append(
        f'<line class="arrow" {shaft} stroke="{colour}" stroke-width="{_num(stroke)}" '
        'stroke-linecap="round"/>'
    )
    parts.append(f'<polygon class="arrowhead" points="{tip}" fill="{colour}"/>')
    return "".join(parts)


def _legend(
    game: Police07Game,
    data: dict[str, Any],
    advice: Advice | None,
    possible: list[Stop],
    weighted: dict[Stop, float] | None,
    width: float,
    height: float,
    clickable_stops: bool,
) -> str:
    moves = (data.get("factor") or {}).get("moves", 0)
    if not possible:
        where = "Dr. Factor has not placed his piece yet"
    elif data.get("seat") == 0:
        where = f"Dr. Factor is at {possible[0]}"
    else:
        where = f"Dr. Factor may be at {len(possible)} stop{'s' if len(possible) != 1 else ''} (shaded)"
        if weighted is not None and len(possible) > 1:
            likely = sorted((s for s in possible if weighted[s] > 0), key=lambda s: (-weighted[s], s))
            likely = likely[:_LIKELY_SHOWN]
            where += "; most likely " + ", ".join(str(s) for s in likely)
    title = f"Police 07 — {_who(data)} · Dr. Factor has made {moves} of {codec.LAST_MOVE} moves"
    if advice is not None:
        move = _describe_move(advice)
    elif clickable_stops:
        move = "Click a ringed stop to move there"
    else:
        move = ""
    if len(move) > 130:
        move = move[:127] + "..."
    parts = [
        '<g id="legend">',
        _text(_MARGIN, _MARGIN + 22, title, 22, font_weight="bold", fill="#111111"),
        _text(_MARGIN, _MARGIN + 50, where, 17, fill="#7a2a00", font_weight="bold"),
        _text(
            width - _MARGIN, _MARGIN + 50, f"board: {game.board.name}", 13, fill="#777777", text_anchor="end"
        ),
        _text(_MARGIN, _MARGIN + 76, move, 16, fill="#111111"),
    ]
    y = height - _MARGIN - _FOOTER / 2 + 4
    x = _MARGIN
    for line in (Line.TAXI, Line.BUS, Line.METRO, Line.WATER):
        colour, stroke, dash = _LINE_STYLE[line]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<line x1="{_num(x)}" y1="{_num(y)}" x2="{_num(x + 34)}" y2="{_num(y)}" stroke="{colour}" '
            f'stroke-width="{_num(max(stroke, 3.0))}"{dashed}/>'
        )
        parts.append(_text(x + 40, y + 5, Line(line).name.lower(), 15, fill="#222222"))
        x += 110
    for i, t in enumerate((0.0, 0.5, 1.0)):
        parts.append(
            f'<circle cx="{_num(x + 10 + 24 * i)}" cy="{_num(y)}" r="10" fill="{_heat(t)}" stroke="#7a2a00"/>'
        )
    parts.append(_text(x + 70, y + 5, "possible stop (darker: likelier)", 15, fill="#222222"))
    x += 330
    if advice is not None:
        parts.append(_arrow((x, y), (x + 40, y), "#444444", 4.0))
        parts.append(_text(x + 52, y + 5, "suggested move", 15, fill="#222222"))
    else:
        parts.append(
            f'<circle cx="{_num(x + 12)}" cy="{_num(y)}" r="{_num(_STOP_R + 3)}" fill="none" '
            'stroke="#444444" stroke-width="3"/>'
        )
        parts.append(_text(x + 34, y + 5, "a legal move (click)", 15, fill="#222222"))
    parts.append("</g>")
    return "".join(parts)


# --- the panel: tickets, travel log, moves left -------------------------------------------------

#: Height of the panel under the colour keys (tickets table beside the travel log).
_PANEL_H: Final = 262.0
#: The ticket columns of the panel's table (Dr. Factor's last two only for him).
_TICKET_COLUMNS: Final = codec.TICKET_NAMES
#: A light tint per ticket (the line colours lightened; joker and double in neutral tints).
_TICKET_TINT: Final = {"taxi": "#fff1bf", "bus": "#d9e5fa", "metro": "#f8d4d4", "joker": "#e9e0f3",
                       "double": "#e4e4e4"}
_LOG_COLUMNS: Final = 6
_LOG_W: Final = 91.0
_LOG_H: Final = 46.0
_CELL_W: Final = 60.0
_ROW_H: Final = 26.0


def panel(game: Game, view: View, top: float) -> str:
    """The ``panel`` group drawn under the board from ``top``: every piece's tickets left (the stocks
    lie on the table: rulebook "Rules of the Game"), Dr. Factor's travel log as the view has it (the
    ticket of each move; the stop only where the view holds it: the shown moves 1, 3, 8, 13, 18 and a
    voluntary show for a detective, every move for Dr. Factor), the moves left, and chips for the legal
    ``double``, ``show`` and ``pass``; a detective's ticket cell carries the legal ``take`` of it."""
    data = view.to_json()
    _, takes = clickable(game, view)
    out = ['<g id="panel">']
    out.extend(_ticket_table(data, takes, _MARGIN, top + 8))
    out.extend(_travel_log(data, _MARGIN + 440, top + 8))
    out.append("</g>")
    return "".join(out)


def _stock_text(count: Any) -> str:
    """A ticket count as drawn: the number, ``∞`` for an unlimited stock (None in the view)."""
    return "∞" if count is None else str(count)


def _ticket_table(data: dict[str, Any], takes: dict[int, list[str]], x0: float, y0: float) -> list[str]:
    """The tickets table (a row per piece) and the chips of ``double``/``show``/``pass`` under it."""
    out = [_text(x0, y0 + 16, "Tickets left", 16, font_weight="bold", fill="#111111", text_anchor="start")]
    label_w = 120.0
    y = y0 + 26
    for i, name in enumerate(_TICKET_COLUMNS):
        cx = x0 + label_w + (i + 0.5) * _CELL_W
        out.append(_text(cx, y + 17, name, 13, fill="#333333", text_anchor="middle"))
    factor = data.get("factor") or {}
    rows: list[tuple[int, str, dict[str, Any]]] = [(0, "Dr. Factor", factor.get("tickets") or {})]
    for entry in data["pieces"]:
        piece = entry["piece"]
        rows.append((piece, f"D{piece} (seat {entry['seat']})", entry.get("tickets") or {}))
    for piece, label, tickets in rows:
        y += _ROW_H
        mine = piece == data.get("piece")
        out.append(
            f'<g class="tickets" data-piece="{piece}">'
            + rect(x0, y + 2, 10, _ROW_H - 4, f'fill="{_colour(piece)}"', digits=2)
            + _text(x0 + 16, y + 18, label, 14, fill="#111111", text_anchor="start",
                    font_weight="bold" if mine else "normal")
        )
        for i, name in enumerate(_TICKET_COLUMNS):
            if name not in tickets:
                continue
            take = [t for t in takes.get(piece, []) if t.split()[-1] == name]
            cx = x0 + label_w + i * _CELL_W
            edge = f'stroke="{_colour(data.get("piece"))}" stroke-width="3"' if take else 'stroke="#ffffff"'
            out.append(
                (act_group("ticket", take, None, f' data-ticket="{name}"') if take
                 else f'<g class="ticket" data-ticket="{name}">')
                + rect(cx + 2, y + 1, _CELL_W - 4, _ROW_H - 2, f'rx="4" fill="{_TICKET_TINT[name]}" {edge}',
                       digits=2)
                + _text(cx + _CELL_W / 2, y + 18, _stock_text(tickets[name]), 14, fill="#111111",
                        text_anchor="middle", font_weight="bold")
                + "</g>"
            )
        out.append("</g>")
    chips = [t for t in data["legal_actions"] if t in ("double", "show", "pass")]
    if chips:
        y += _ROW_H + 10
        out.append(_text(x0, y + 17, "Or play:", 14, fill="#333333", text_anchor="start"))
        x = x0 + 72
        for chip in chips:
            w = 16.0 + 9.0 * len(chip)
            out.append(
                act_group("chip", [chip], None, f" data-action={quoteattr(chip)}")
                + rect(x, y, w, 24, f'rx="12" fill="#ffffff" stroke="{_colour(data.get("piece"))}" '
                       'stroke-width="2.5"', digits=2)
                + _text(x + w / 2, y + 17, chip, 14, fill="#111111", text_anchor="middle", font_weight="bold")
                + "</g>"
            )
            x += w + 10
    return out


def _log_marks(data: dict[str, Any]) -> tuple[set[int], dict[int, int]]:
    """From the seat's history (Dr. Factor's entries are public as texts): the moves made with a double
    ticket, and the stops he showed voluntarily, by the number of moves made before the show."""
    doubled: set[int] = set()
    shown: dict[int, int] = {}
    moves = 0
    pending = 0
    for piece, entry in data.get("history", []):
        if piece != 0:
            continue
        words = str(entry).split()
        if words[0] == "double":
            pending = 2
        elif words[0] == "show" and len(words) == 2 and words[1].isdigit():
            shown[moves] = int(words[1])
        elif words[0] in _TICKET_COLUMNS:
            moves += 1
            if pending:
                doubled.add(moves)
                pending -= 1
    return doubled, shown


def _travel_log(data: dict[str, Any], x0: float, y0: float) -> list[str]:
    """Dr. Factor's travel log: a cell per move 1..24, the shown ones framed (rulebook "Rules of the
    Game": the appearance stops are "highlighted in the travel log with a marked window")."""
    factor = data.get("factor") or {}
    made = int(factor.get("moves", 0))
    left = codec.LAST_MOVE - made
    later = [m for m in sorted(codec.REVEALED_MOVES) if m > made]
    next_shown = f"; next shown at move {later[0]}" if later else ""
    out = [
        _text(x0, y0 + 16, "Dr. Factor's travel log", 16, font_weight="bold", fill="#111111",
              text_anchor="start"),
        _text(x0 + _LOG_COLUMNS * _LOG_W, y0 + 16, f"{made} moves made, {left} left{next_shown}", 13,
              fill="#333333", text_anchor="end"),
    ]
    entries = {int(e["move"]): e for e in data.get("log", [])}
    doubled, voluntary = _log_marks(data)
    for move in range(1, codec.LAST_MOVE + 1):
        row, col = divmod(move - 1, _LOG_COLUMNS)
        x, y = x0 + col * _LOG_W, y0 + 28 + row * _LOG_H
        entry = entries.get(move)
        ticket = str(entry["ticket"]) if entry else ""
        marked = move in codec.REVEALED_MOVES
        edge = 'stroke="#7a2a00" stroke-width="2.5"' if marked else 'stroke="#c8c8c0" stroke-width="1"'
        fill = _TICKET_TINT.get(ticket, "#fafaf7")
        kind = f' data-ticket="{ticket}"' if ticket else ""
        out.append(f'<g class="log-move" data-move="{move}"{kind}>'
                   + rect(x + 2, y + 2, _LOG_W - 4, _LOG_H - 4, f'rx="4" fill="{fill}" {edge}', digits=2))
        out.append(_text(x + 8, y + 16, str(move), 11, fill="#555555", text_anchor="start"))
        if entry:
            line = entry.get("line")
            name = f"{ticket} ({line})" if ticket == "joker" and line else ticket
            out.append(_text(x + 26, y + 16, name, 11 if len(name) > 8 else 12, fill="#111111",
                             text_anchor="start"))
            stop = entry.get("stop")
            if stop is None and move in voluntary:
                stop = voluntary[move]
            out.append(_text(x + _LOG_W / 2, y + 36, "?" if stop is None else str(stop), 15,
                             fill="#7a2a00" if stop is not None else "#999999", text_anchor="middle",
                             font_weight="bold"))
            if move in doubled:
                out.append(_text(x + _LOG_W - 8, y + 36, "×2", 11, fill="#555555", text_anchor="end"))
        elif marked:
            out.append(_text(x + _LOG_W / 2, y + 36, "shown", 11, fill="#7a2a00", text_anchor="middle"))
        out.append("</g>")
    return out
