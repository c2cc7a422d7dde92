"""Draw a Good Cop Bad Cop table as SVG, from one seat's view (and a hint's advice and belief).

The picture is the table as ``view.seat`` may know it [Como se Juega]: every player round an ellipse,
the drawn seat at the bottom and play going clockwise (seat + 1 to its left, docs/gcbc-rules.md,
"First player"). A player's panel shows its three Integrity cards [Integridad] (face up with their
name; face down as a back, or, when the drawn seat knows the card, the card in a pale colour with a
dashed edge: its own cards, and cards it investigated or was shown, followed through swaps by the
heuristic bot's reading of the view, :func:`bots.gcbc.heuristic.read_view`), its Gun and the seat it
aims at [Armas] (an arrow between panels), its wound or elimination [Recibir un disparo], and how many
Equipment cards it holds [Equipo]. The drawn seat's own Equipment cards lie face up below the table.
The centre holds the Guns left there and the Equipment deck.

Nothing here reads a state: other seats' face-down cards and Equipment are absent from the view, so
they cannot be drawn (``tests/test_draw_gcbc.py`` checks it against the true state).

**Clickable moves** (docs/protocol.md, issue 25 contract): an element whose ``class`` holds ``act``
carries ``data-actions``, a JSON list of legal action texts of the view:

| action | element |
|---|---|
| ``investigate S.P``, ``pick S.P`` | that Integrity card |
| ``flip P``, ``keep P`` (Defibrillator) | the drawn seat's own card P |
| ``aim S``, ``play CARD S`` | seat S's panel |
| ``shoot`` | the panel of the seat the drawn seat's Gun aims at, and its own Gun |
| ``play CARD``, ``play CARD S``, ``keep CARD`` | the Equipment card in the drawn seat's hand |
| ``arm`` | the Guns in the centre |
| ``equip`` | the Equipment deck |
| ``arrange ...`` | the drawn seat's own panel (the page asks which order) |

``pass`` has no place (the page lists every legal action as a button).

**With advice**: the elements carrying the advised action are outlined (class ``best``), the legend
names it, and every player gets a belief bar: P(honest team) split blue/red with P(Agent) and
P(Kingpin), from ``advice.belief``: the search bot's ``marginals`` (with per-card chances written on
the unknown cards), else the heuristic's ``seats`` estimate, else the exact posterior of the view
(:func:`bots.gcbc.hint.marginals_for`, what the hint text prints).

The SVG primitives (numbers, text, rectangles, the clickable groups and the advised outline) are
:mod:`bots.svg`'s, shared by every game's drawing.

SVG structure (what tests and the web page may rely on)::

    <svg>
      <g id="centre">   <g class="guns[ act]">, <g class="deck[ act]">, announced action
      <g id="players">  <g class="player" data-seat=S data-alive= data-wounded= data-gun= data-aim=>
                          <g class="seat-panel[ act]"> ... </g>
                          <g class="icard[ act]" data-seat= data-pos= data-state="up|known|down"
                             [data-card=NAME]> ... </g> ...
                          <g class="belief" data-seat= data-p-honest= data-p-agent= data-p-kingpin=>
      <g id="arrows">   <g class="aim" data-from=S data-to=T> line, head </g> ...
      <g id="hand">     <g class="equipment[ act]" data-card=ID> ... </g> ...
      <g id="best-move" data-action=TEXT/>     (with advice only)
      <g id="legend">   title, prompt, advised move, colour keys
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from xml.sax.saxutils import escape, quoteattr

from bots import svg
from bots.base import Advice
from bots.svg import BEST, act_group, advised_ring
from solver.core import Game, View

WIDTH: Final = 960.0
HEIGHT: Final = 920.0
_CX: Final = 480.0
_CY: Final = 400.0
_RX: Final = 330.0
_RY: Final = 255.0
_PANEL_W: Final = 216.0
_PANEL_H: Final = 118.0
_CARD_W: Final = 44.0
_CARD_H: Final = 62.0
_BELIEF_H: Final = 38.0
_HAND_Y: Final = 792.0
_HONEST: Final = "#2f6fc4"
_CROOKED: Final = "#c0392b"
#: per Integrity card: fill face up, pale fill when known face down, letter
_CARD_STYLE: Final = {
    "honest": ("#2f6fc4", "#cfe0f5", "H"),
    "crooked": ("#c0392b", "#f4d0cb", "C"),
    "agent": ("#173a73", "#b9c6de", "A"),
    "kingpin": ("#6e1410", "#dcb6b3", "K"),
}
_LETTER: Final = {name: style[2] for name, style in _CARD_STYLE.items()}


@dataclass(frozen=True)
class _Belief:
    """One seat's team and leader chances, and per card position a distribution over card names."""

    p_honest: float
    p_agent: float
    p_kingpin: float
    cards: tuple[Mapping[str, float], ...] = ()


def _beliefs(game: Game, view: View, advice: Advice) -> tuple[dict[int, _Belief], str]:
    """Per seat, the belief the advice rests on, and where it comes from (see the module docstring)."""
    raw = advice.belief
    marginals = raw.get("marginals")
    source = "the bot's posterior"
    if not isinstance(marginals, list) or not marginals:
        seats = raw.get("seats")
        if isinstance(seats, list) and seats and all(isinstance(e, Mapping) for e in seats):
            team = raw.get("team")
            label = (
                f"the heuristic's estimate (its team: {team})"
                if isinstance(team, str)
                else "the bot's estimate"
            )
            return {
                int(e["seat"]): _Belief(
                    1.0 - float(e["p_crooked"]), float(e["p_agent"]), float(e["p_kingpin"])
                )
                for e in seats
            }, label
        from bots.gcbc.hint import marginals_for

        marginals = marginals_for(game, view)
        source = "the exact posterior of this view"
    out = {}
    for m in marginals:
        cards = tuple(dict(c) for c in m.get("cards", ()))
        out[int(m["seat"])] = _Belief(float(m["p_honest"]), float(m["p_agent"]), float(m["p_kingpin"]), cards)
    return out, source


def _panel_centre(k: int, n: int) -> tuple[float, float]:
    """Where the k-th seat after the drawn one sits: the drawn seat at the bottom, then clockwise."""
    angle = 2.0 * math.pi * k / n
    return _CX - _RX * math.sin(angle), _CY + _RY * math.cos(angle)


def _exit(box: tuple[float, float, float, float], x: float, y: float, dx: float, dy: float) -> float:
    """How far along (dx, dy) from (x, y), inside ``box`` (left, top, right, bottom), its edge is, as a
    fraction of (dx, dy)."""
    tx = ((box[2] if dx > 0 else box[0]) - x) / dx if dx else math.inf
    ty = ((box[3] if dy > 0 else box[1]) - y) / dy if dy else math.inf
    return min(tx, ty)


def _arrow(a: tuple[float, float], b: tuple[float, float], colour: str, width: float) -> str:
    """A shaft from ``a`` and a filled head ending at ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head = min(14.0, length * 0.5)
    bx, by = b[0] - ux * head, b[1] - uy * head
    tip = (
        f"{svg.num(b[0])},{svg.num(b[1])} {svg.num(bx - uy * head * 0.5)},{svg.num(by + ux * head * 0.5)} "
        f"{svg.num(bx + uy * head * 0.5)},{svg.num(by - ux * head * 0.5)}"
    )
    return (
        f'<line x1="{svg.num(a[0])}" y1="{svg.num(a[1])}" x2="{svg.num(bx)}" y2="{svg.num(by)}" '
        f'stroke="{colour}" stroke-width="{svg.num(width)}" stroke-linecap="round"/>'
        f'<polygon points="{tip}" fill="{colour}"/>'
    )


def _gun(x: float, y: float, colour: str = "#333333") -> str:
    """A small pistol glyph with its top-left corner at (x, y), pointing right."""
    pts = [(0, 0), (26, 0), (26, 6), (11, 6), (9, 15), (3, 15), (4, 6), (0, 6)]
    points = " ".join(f"{svg.num(x + a)},{svg.num(y + b)}" for a, b in pts)
    return f'<polygon points="{points}" fill="{colour}"/>'


def _by_target(legal: Iterable[str]) -> dict[str, list[str]]:
    """Group action texts by where they are drawn: ``seat:S``, ``card:S.P``, ``own:P``, ``hand:ID``,
    ``guns``, ``deck``, ``arrange``, ``shoot``; an action may go to two places."""
    places: defaultdict[str, list[str]] = defaultdict(list)

    for text in legal:
        words = text.split()
        head = words[0]
        if head in ("investigate", "pick") and len(words) == 2:
            places[f"card:{words[1]}"].append(text)
        elif head == "aim" and len(words) == 2:
            places[f"seat:{words[1]}"].append(text)
        elif head == "flip" and len(words) == 2:
            places[f"own:{words[1]}"].append(text)
        elif head == "keep" and len(words) == 2:
            places[f"own:{words[1]}" if words[1].isdigit() else f"hand:{words[1]}"].append(text)
        elif head == "play" and len(words) >= 2:
            places[f"hand:{words[1]}"].append(text)
            if len(words) == 3:
                places[f"seat:{words[2]}"].append(text)
        elif head == "arm":
            places["guns"].append(text)
        elif head == "equip":
            places["deck"].append(text)
        elif head == "arrange":
            places["arrange"].append(text)
        elif head == "shoot":
            places["shoot"].append(text)
    return dict(places)


def render_svg(
    game: Game, view: View, advice: Advice | None = None, weights: Mapping[int, float] | None = None
) -> str:
    """The table as ``view.seat`` knows it, as one SVG document (see the module docstring).

    With ``advice`` (for the same seat) the advised move is outlined and each player's belief drawn.
    ``weights`` is accepted for the common drawing interface and ignored. Raises :class:`ConfigError`
    for a view of another game or advice for another seat.
    """
    from bots.gcbc.heuristic import read_view
    from solver.games.gcbc.rules import GCBCGame

    game = svg.drawable(game, GCBCGame, view, "Good Cop Bad Cop", advice)
    data: dict[str, Any] = view.to_json()
    me = view.seat
    players = data["players"]
    n = len(players)
    known = read_view(game, data)
    places = _by_target(data["legal_actions"])
    my_aim = players[me]["aim"]
    if "shoot" in places and my_aim is not None:
        places.setdefault(f"seat:{my_aim}", []).extend(places["shoot"])
    best = advice.best.text if advice is not None and advice.ranked else None
    beliefs, source = _beliefs(game, view, advice) if advice is not None else ({}, "")
    centres = {s: _panel_centre((s - me) % n, n) for s in range(n)}

    out = [
        *svg.document(WIDTH, HEIGHT),
        f'<ellipse cx="{svg.num(_CX)}" cy="{svg.num(_CY)}" rx="{svg.num(_RX - 40)}" ry="{svg.num(_RY - 40)}" '
        'fill="#eef3ea" stroke="#c8d3c0"/>',
    ]
    out += _centre(data, places, best)
    out.append('<g id="players">')
    for s in range(n):
        out += _player(data, s, centres[s], known.cards[s], places, best, beliefs.get(s))
    out.append("</g>")
    out += _arrows(players, centres, _BELIEF_H if beliefs else 0.0)
    out += _hand(game, data, places, best)
    if best is not None:
        out.append(f'<g id="best-move" data-action={quoteattr(best)}/>')
    out += _legend(data, advice, source)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _centre(data: dict[str, Any], places: dict[str, list[str]], best: str | None) -> list[str]:
    out = ['<g id="centre">']
    guns = int(data["guns_centre"])
    acts = places.get("guns", [])
    x, y = _CX - 120.0, _CY - 58.0
    out.append(act_group("guns", acts, best, f' data-count="{guns}"'))
    out.append(svg.rect(x, y, 110, 70, 'rx="8" fill="#ffffff" stroke="#888888"'))
    for i in range(guns):
        out.append(_gun(x + 14 + 46 * (i % 2), y + 6 + 20 * (i // 2)))
    out.append(svg.text(x + 55, y + 58, f"Guns in the centre: {guns}", 10, "middle"))
    out.append(advised_ring(x, y, 110, 70, acts, best) + "</g>")
    unseen = int(data["deck"]["unseen"])
    acts = places.get("deck", [])
    x = _CX + 10.0
    out.append(act_group("deck", acts, best, f' data-unseen="{unseen}"'))
    for i in range(3):
        out.append(
            f'<rect x="{svg.num(x + 36 + 3 * i)}" y="{svg.num(y + 4 - 3 * i)}" width="36" height="48" rx="4" '
            'fill="#7d5a3c" stroke="#ffffff"/>'
        )
    out.append(svg.rect(x, y, 110, 70, 'rx="8" fill="none" stroke="#888888"'))
    out.append(svg.text(x + 55, y + 66, f"Equipment deck: {unseen}", 10, "middle"))
    out.append(advised_ring(x, y, 110, 70, acts, best) + "</g>")
    announced = data.get("announced")
    line = f"Announced: {announced}" if announced else f"Turn {data['turn']}"
    if data.get("active") is not None:
        line += f" (seat {data['active']}'s turn)"
    out.append(svg.text(_CX, _CY + 40, line, 12, "middle", fill="#333333"))
    if data.get("winner"):
        out.append(
            svg.text(
                _CX,
                _CY + 60,
                f"Winner: {data['winner']} ({data.get('reason', '')})"[:60],
                12,
                "middle",
                font_weight="bold",
                fill=BEST,
            )
        )
    out.append("</g>")
    return out


def _arrows(
    players: list[dict[str, Any]], centres: dict[int, tuple[float, float]], below: float
) -> list[str]:
    """Each Gun's aim as an arrow from its holder's panel to the target's (``below``: the height of the
    belief under a panel), set off to its right so two seats aiming at each other show two arrows."""
    out = ['<g id="arrows">']
    for p in players:
        target = p["aim"]
        if not p["gun"] or target is None or target == p["seat"]:
            continue
        (ax, ay), (bx, by) = centres[p["seat"]], centres[target]
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy) or 1.0
        ox, oy = -dy / length * 7.0, dx / length * 7.0

        def box(x: float, y: float) -> tuple[float, float, float, float]:
            return x - _PANEL_W / 2, y - _PANEL_H / 2, x + _PANEL_W / 2, y + _PANEL_H / 2 + below

        start = _exit(box(ax, ay), ax, ay, dx, dy)
        end = _exit(box(bx, by), bx, by, -dx, -dy)
        a = (ax + dx * start + ox, ay + dy * start + oy)
        b = (bx - dx * end + ox, by - dy * end + oy)
        out.append(
            f'<g class="aim" data-from="{p["seat"]}" data-to="{target}">'
            + _arrow(a, b, "#8b1a1a", 3.5)
            + "</g>"
        )
    out.append("</g>")
    return out


def _player(
    data: dict[str, Any],
    s: int,
    centre: tuple[float, float],
    known: list[str | None],
    places: dict[str, list[str]],
    best: str | None,
    belief: _Belief | None,
) -> list[str]:
    me = data["seat"]
    p = data["players"][s]
    px, py = centre[0] - _PANEL_W / 2, centre[1] - _PANEL_H / 2
    aim = "" if p["aim"] is None else str(p["aim"])
    out = [
        f'<g class="player" data-seat="{s}" data-alive="{str(p["alive"]).lower()}" '
        f'data-wounded="{str(p["wounded"]).lower()}" data-gun="{str(p["gun"]).lower()}" data-aim="{aim}">'
    ]
    acts = places.get(f"seat:{s}", []) + (places.get("arrange", []) if s == me else [])
    active = data.get("active") == s
    fill = "#ffffff" if p["alive"] else "#dddddd"
    stroke, width = ("#d4a017", 4.0) if active else ("#555555", 1.5)
    out.append(act_group("seat-panel", acts, best))
    out.append(
        svg.rect(
            px, py, _PANEL_W, _PANEL_H, f'rx="9" fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"'
        )
    )
    name = f"seat {s}" + (" (you)" if s == me else "")
    out.append(svg.text(px + 8, py + 17, name, 13, font_weight="bold"))
    status = "out" if not p["alive"] else "wounded" if p["wounded"] else ""
    if data["decision"].get("seat") == s and not data.get("winner"):
        status = (status + " · to act").strip(" ·")
    if status:
        out.append(
            svg.text(px + _PANEL_W - 8, py + 17, status, 11, "end", fill="#b03000", font_weight="bold")
        )
    if p["inverted"]:
        out.append(svg.text(px + 8, py + _PANEL_H - 5, "inverted (Planted Evidence)", 9, fill="#7b3fa0"))
    # right column: Gun and aim, Equipment count
    gx = px + _PANEL_W - 50
    if p["gun"]:
        out.append(_gun(gx + 4, py + 30))
        out.append(svg.text(gx + 22, py + 60, f"aims at {aim}", 9, "middle"))
    out.append(
        f'<rect x="{svg.num(gx + 4)}" y="{svg.num(py + 68)}" width="16" height="22" rx="2" fill="#7d5a3c"/>'
    )
    out.append(svg.text(gx + 24, py + 84, f"×{p['equipment']}", 11))
    out.append(f"<title>{escape(name)}: {p['equipment']} Equipment card(s)</title>")
    out.append(advised_ring(px, py, _PANEL_W, _PANEL_H, acts, best) + "</g>")
    if s == me and "shoot" in places and p["gun"]:
        shoot = places["shoot"]
        out.append(
            act_group("own-gun", shoot, best) + f'<rect x="{svg.num(gx)}" y="{svg.num(py + 26)}" width="36" '
            'height="24" fill="#ffffff" fill-opacity="0"/>'
            + _gun(gx + 4, py + 30, "#8b1a1a")
            + advised_ring(gx, py + 26, 36, 24, shoot, best)
            + "</g>"
        )
    for pos, card in enumerate(p["cards"]):
        x = px + 8 + pos * (_CARD_W + 6)
        name_known = card["card"] if card["card"] is not None else (known[pos] if pos < len(known) else None)
        acts = places.get(f"card:{s}.{pos}", []) + (places.get(f"own:{pos}", []) if s == me else [])
        dist = belief.cards[pos] if belief is not None and pos < len(belief.cards) else None
        out += _card(x, py + 26, s, pos, bool(card["face_up"]), name_known, s == me, acts, best, dist)
    if belief is not None:
        out += _belief(px, py + _PANEL_H + 4, s, belief, s == me)
    out.append("</g>")
    return out


def _card(
    x: float,
    y: float,
    seat: int,
    pos: int,
    face_up: bool,
    name: str | None,
    own: bool,
    acts: list[str],
    best: str | None,
    dist: Mapping[str, float] | None,
) -> list[str]:
    """One Integrity card: face up, known face down (pale, dashed) or a back."""
    state = "up" if face_up else "known" if name is not None else "down"
    extra = f' data-seat="{seat}" data-pos="{pos}" data-state="{state}"'
    if name is not None:
        extra += f" data-card={quoteattr(name)}"
    out = [act_group("icard", acts, best, extra)]
    box = f'x="{svg.num(x)}" y="{svg.num(y)}" width="{svg.num(_CARD_W)}" height="{svg.num(_CARD_H)}" rx="4"'
    if name is not None:
        full, pale, letter = _CARD_STYLE[name]
        if face_up:
            out.append(f'<rect {box} fill="{full}" stroke="#222222"/>')
            ink = "#ffffff"
        else:
            out.append(f'<rect {box} fill="{pale}" stroke="{full}" stroke-width="2" stroke-dasharray="4 3"/>')
            ink = full
        out.append(svg.text(x + _CARD_W / 2, y + 30, letter, 22, "middle", fill=ink, font_weight="bold"))
        out.append(svg.text(x + _CARD_W / 2, y + 44, name, 8, "middle", fill=ink))
        note = "face up" if face_up else "yours, down" if own else "seen by you"
        out.append(
            svg.text(
                x + _CARD_W / 2,
                y + 56,
                "" if face_up else ("yours" if own else "seen"),
                8,
                "middle",
                fill=ink,
            )
        )
        out.append(f"<title>seat {seat} card {pos}: {escape(name)} ({note})</title>")
    else:
        out.append(f'<rect {box} fill="#5d6d7e" stroke="#222222"/>')
        out.append(
            f'<rect x="{svg.num(x + 5)}" y="{svg.num(y + 5)}" width="{svg.num(_CARD_W - 10)}" '
            f'height="{svg.num(_CARD_H - 10)}" rx="3" fill="none" stroke="#aeb6bf"/>'
        )
        out.append(svg.text(x + _CARD_W / 2, y + 30, "?", 18, "middle", fill="#ffffff"))
        if dist:
            top = sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))[0]
            out.append(
                svg.text(
                    x + _CARD_W / 2,
                    y + 52,
                    f"{_LETTER.get(top[0], '?')} {100 * top[1]:.0f}%",
                    9,
                    "middle",
                    fill="#ffe08a",
                    font_weight="bold",
                )
            )
        out.append(f"<title>seat {seat} card {pos}: face down, unknown to you</title>")
    out.append(advised_ring(x, y, _CARD_W, _CARD_H, acts, best) + "</g>")
    return out


def _belief(x: float, y: float, seat: int, b: _Belief, own: bool) -> list[str]:
    """A bar split honest (blue) / crooked (red) with the leader chances written under it."""
    w = _PANEL_W
    honest = min(1.0, max(0.0, b.p_honest))
    out = [
        f'<g class="belief" data-seat="{seat}" data-p-honest="{b.p_honest:.3f}" '
        f'data-p-agent="{b.p_agent:.3f}" data-p-kingpin="{b.p_kingpin:.3f}">',
        svg.rect(x, y, w * honest, 10, f'fill="{_HONEST}"'),
        svg.rect(x + w * honest, y, w * (1 - honest), 10, f'fill="{_CROOKED}"'),
        svg.rect(x, y, w, 10, 'fill="none" stroke="#333333" stroke-width="0.6"'),
    ]
    who = "you: " if own else ""
    line = (
        f"{who}honest {100 * b.p_honest:.0f}% · Agent {100 * b.p_agent:.0f}% · "
        f"Kingpin {100 * b.p_kingpin:.0f}%"
    )
    out.append(svg.text(x + w / 2, y + 23, line, 10, "middle", fill="#222222"))
    out.append("</g>")
    return out


def _hand(game: Game, data: dict[str, Any], places: dict[str, list[str]], best: str | None) -> list[str]:
    """The drawn seat's Equipment cards, face up, in a row below the table."""
    cards = {c.id: c for c in game.equipment.cards}  # type: ignore[attr-defined]
    hand = data["hand"]
    out = [
        '<g id="hand">',
        svg.text(
            24, _HAND_Y - 8, "Your Equipment:" if hand else "Your Equipment: none", 12, font_weight="bold"
        ),
    ]
    for i, cid in enumerate(hand):
        x, y = 24 + i * 150.0, _HAND_Y
        acts = places.get(f"hand:{cid}", [])
        out.append(act_group("equipment", acts, best, f" data-card={quoteattr(cid)}"))
        out.append(
            f'<rect x="{svg.num(x)}" y="{svg.num(y)}" width="140" height="52" rx="6" fill="#f6ecd9" '
            'stroke="#7d5a3c" stroke-width="1.5"/>'
        )
        card = cards.get(cid)
        out.append(
            svg.text(x + 70, y + 22, card.name if card is not None else cid, 12, "middle", font_weight="bold")
        )
        out.append(svg.text(x + 70, y + 40, cid, 9, "middle", fill="#555555"))
        if card is not None:
            out.append(f"<title>{escape(card.name)}: {escape(card.text)}</title>")
        out.append(advised_ring(x, y, 140, 52, acts, best) + "</g>")
    out.append("</g>")
    return out


def _legend(data: dict[str, Any], advice: Advice | None, source: str) -> list[str]:
    prompt = str(data["decision"].get("prompt", ""))
    title = f"Good Cop Bad Cop — seat {data['seat']}'s view, turn {data['turn']}"
    out = ['<g id="legend">', *svg.header_lines(title, prompt, advice)]
    if advice is not None and advice.ranked:
        out.append(svg.text(WIDTH - 16, 62, f"bars: {source}", 10, "end", fill="#555555"))
    y = HEIGHT - 22.0
    x = 16.0
    for name, (full, _, letter) in _CARD_STYLE.items():
        out.append(
            f'<rect x="{svg.num(x)}" y="{svg.num(y - 11)}" width="14" height="16" rx="2" fill="{full}"/>'
        )
        out.append(svg.text(x + 18, y + 2, f"{letter} {name}", 10))
        x += 78
    out.append(
        f'<rect x="{svg.num(x)}" y="{svg.num(y - 11)}" width="14" height="16" rx="2" fill="#cfe0f5" '
        f'stroke="{_HONEST}" stroke-dasharray="3 2"/>'
    )
    out.append(svg.text(x + 18, y + 2, "face down, known to you", 10))
    x += 150
    out.append(f'<rect x="{svg.num(x)}" y="{svg.num(y - 11)}" width="14" height="16" rx="2" fill="#5d6d7e"/>')
    out.append(svg.text(x + 18, y + 2, "face down, unknown", 10))
    x += 125
    out.append(_arrow((x, y - 3), (x + 30, y - 3), "#8b1a1a", 3.0))
    out.append(svg.text(x + 36, y + 2, "Gun aimed at", 10))
    x += 115
    out.append(
        f'<rect x="{svg.num(x)}" y="{svg.num(y - 11)}" width="20" height="16" rx="3" fill="none" '
        'stroke="#d4a017" stroke-width="3"/>'
    )
    out.append(svg.text(x + 26, y + 2, "whose turn", 10))
    if advice is not None:
        x += 90
        out.append(
            f'<rect x="{svg.num(x)}" y="{svg.num(y - 11)}" width="20" height="16" rx="3" fill="none" '
            f'stroke="{BEST}" stroke-width="3"/>'
        )
        out.append(svg.text(x + 26, y + 2, "advised", 10))
    out.append("</g>")
    return out
