"""Draw a LineUp position as SVG, from one seat's view (and a hint's advice and belief).

The picture holds what ``view.seat`` may see [Game Play]: the board (the station, the crime scenes with
their decks' counts, Lucky Break and street spaces, laid out from the board's graph because a board
file has no coordinates: :func:`bots.svg.stress_layout` of the step distances, the same on
every run), every pawn, each player's Lineup Count, face-down Suspect cards (as backs labelled with
their scene, which everyone saw them drawn from), face-up identified cards, Lucky Break hand sizes,
the die, and the drawn seat's own Lucky Break cards. Suspect cards appear as portraits only where the
view holds their features: the card the seat is studying (its ``study`` decision, [At a Crime Scene]),
the stands of a lineup [Lineups], and identified cards.

**The portraits are stand-ins** built from the card's feature values (shapes and colours for the
stand-in deck's features, docs/lineup-rules.md; every feature is also written out, so a user deck
with other features still draws): they are not the published art, and the legend says so.

**Clickable moves** (docs/protocol.md, issue 25 contract): an element whose ``class`` holds ``act``
carries ``data-actions``, a JSON list of legal action texts of the view:

| action | element |
|---|---|
| ``move X`` | board space X (the station and scenes by name) |
| ``play to-station`` | the station, and the card in the hand |
| ``lineup i``, ``play another-look i`` | the drawn seat's face-down card i |
| ``pick j`` | lineup stand j |
| ``study`` | the studied portrait |
| ``play hinder s`` | seat s's row, and the card in the hand |
| ``lucky`` | the Lucky Break deck |
| ``roll`` | the die |

``end`` has no place (the page lists every legal action as a button).

**With advice**: the elements carrying the advised action are outlined (class ``best``), the legend
names it, and a panel shows what the LineUp hint prints for the seat (:func:`bots.lineup.hint.lines`:
the advising bot's memory level from ``advice.belief["memory"]``, P(correct) per face-down card now,
the plan's next move).

SVG structure (what tests and the web page may rely on)::

    <svg>
      <g id="board">    <line class="edge"/> ...
                        <g class="space KIND[ act]" data-space=N data-label=LABEL> ... </g> ...
      <g id="pawns">    <g class="pawn" data-seat=S data-space=N> ... </g> ...
      <g id="players">  <g class="player[ act]" data-seat=S data-count= data-space=> ... </g>
                        <g class="held[ act]" data-seat=S data-card=I data-scene=NAME> ... </g> ...
                        <g class="portrait identified" data-seat=S data-card=ID> ... </g> ...
      <g id="table">    <g class="die[ act]" data-die=V>, <g class="lucky-deck[ act]">,
                        <g class="lucky-card[ act]" data-card=KIND> ... </g> ...
      <g id="suspects"> <g class="portrait studying[ act]" data-card=ID> or
                        <g class="portrait stand[ act]" data-stand=J data-card=ID> ... </g> ...
      <g id="belief" data-memory=LEVEL>   (with advice only: the hint's lines)
      <g id="best-move" data-action=TEXT/>     (with advice only)
      <g id="legend">   title, prompt, advised move, keys
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from bots import svg
from bots.base import Advice
from bots.svg import act_group, advised_ring, stress_layout
from solver.core import Game, View

WIDTH: Final = 960.0
_BOARD: Final = (16.0, 84.0, 560.0, 430.0)  # left, top, width, height
_PANEL_X: Final = 592.0
_ROW_H: Final = 68.0
_SUSPECTS_Y: Final = 536.0
#: pawn colours by seat (colour-blind-safe, none of them a space colour)
_PAWNS: Final = ("#009e73", "#7b3fa0", "#e6007e", "#8c6d1f", "#0072b2", "#d55e00")
_SPACE_FILL: Final = {"street": "#ffffff", "lucky": "#ffd54f", "scene": "#f3e0c0", "station": "#b9cde5"}
_SKIN: Final = "#f1c9a0"
_GREY: Final = "#555555"
#: stand-in clothing values drawn in their colour (other values: grey, with the value written out)
_CLOTH: Final = {
    "red": "#c0392b",
    "blue": "#2f6fc4",
    "green": "#2e8b57",
    "grey": "#8e8e8e",
    "black": "#222222",
}
#: the portrait's size at scale 1
_PW: Final = 80.0
_PH: Final = 92.0


# --- board layout ---------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _layout(board: Any) -> tuple[tuple[float, float], ...]:
    """Every space's drawing position inside the board box (a Board hashes by identity)."""
    n = len(board.kinds)
    dist = np.zeros((n, n))
    for start in range(n):
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in board.neighbours[here]:
                if nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        for other, d in seen.items():
            dist[start, other] = d
    raw = stress_layout(dist)
    left, top, width, height = _BOARD
    pad = 40.0
    low, high = raw.min(axis=0), raw.max(axis=0)
    span = np.maximum(high - low, 1e-9)
    scale = min((width - 2 * pad) / span[0], (height - 2 * pad) / span[1])
    off_x = left + (width - span[0] * scale) / 2
    off_y = top + (height - span[1] * scale) / 2
    return tuple(
        (round(float(off_x + (x - low[0]) * scale), 1), round(float(off_y + (y - low[1]) * scale), 1))
        for x, y in raw
    )


# --- where actions go -----------------------------------------------------------------------------


def _places(board: Any, legal: Sequence[str]) -> dict[str, list[str]]:
    """Group action texts by where they are drawn: ``space:N``, ``held:I``, ``stand:J``, ``seat:S``,
    ``hand:KIND``, ``study``, ``lucky``, ``roll``; an action may go to two places."""
    by_label = {board.label(s): s for s in range(len(board.kinds))}
    places: defaultdict[str, list[str]] = defaultdict(list)

    for text in legal:
        words = text.split()
        head = words[0]
        if head == "move" and len(words) == 2 and words[1] in by_label:
            places[f"space:{by_label[words[1]]}"].append(text)
        elif head == "lineup" and len(words) == 2:
            places[f"held:{words[1]}"].append(text)
        elif head == "pick" and len(words) == 2:
            places[f"stand:{words[1]}"].append(text)
        elif head == "play" and len(words) >= 2:
            places[f"hand:{words[1]}"].append(text)
            if words[1] == "to-station":
                places[f"space:{board.station}"].append(text)
            elif words[1] == "another-look" and len(words) == 3:
                places[f"held:{words[2]}"].append(text)
            elif words[1] == "hinder" and len(words) == 3:
                places[f"seat:{words[2]}"].append(text)
        elif head in ("study", "lucky", "roll"):
            places[head].append(text)
    return dict(places)


# --- drawing --------------------------------------------------------------------------------------


def render_svg(
    game: Game, view: View, advice: Advice | None = None, weights: Mapping[int, float] | None = None
) -> str:
    """The position as ``view.seat`` sees it, as one SVG document (see the module docstring).

    With ``advice`` (for the same seat) the advised move is outlined and the hint's memory and plan
    drawn. ``weights`` is accepted for the common drawing interface and ignored. Raises
    :class:`ConfigError` for a view of another game or advice for another seat.
    """
    from solver.games.lineup.rules import LineUpGame

    game = svg.drawable(game, LineUpGame, view, "LineUp", advice)
    data: dict[str, Any] = view.to_json()
    board = game.board
    places = _places(board, data["legal_actions"])
    best = advice.best.text if advice is not None and advice.ranked else None
    belief = _belief_lines(game, view, advice) if advice is not None else []
    shown = 200.0 if data.get("studying") or data.get("lineup") else 20.0  # room for the portraits
    height = _SUSPECTS_Y + shown + 18.0 * len(belief) + 60.0
    out = svg.document(WIDTH, height)
    out += _board(board, data, places, best)
    out += _players(game, data, places, best)
    out += _table(data, places, best)
    out += _suspects(data, places, best)
    y = _SUSPECTS_Y + shown
    if advice is not None:
        level = str(advice.belief.get("memory", ""))
        out.append(f'<g id="belief" data-memory={quoteattr(level)}>')
        out += [
            f'<text x="16" y="{svg.num(y + 14 + 18 * i)}" font-size="12" fill="#0b3d6b" '
            f'font-family="DejaVu Sans Mono, monospace" xml:space="preserve">{escape(line)}</text>'
            for i, line in enumerate(belief)
        ]
        out.append("</g>")
        if best is not None:
            out.append(f'<g id="best-move" data-action={quoteattr(best)}/>')
    out += _legend(data, advice, height)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _belief_lines(game: Game, view: View, advice: Advice) -> list[str]:
    """What the LineUp hint prints for this seat (memory and plan), as lines of text."""
    from bots.lineup.hint import lines

    return lines(game, view, advice)


@lru_cache(maxsize=8)
def _edges(board: Any) -> str:
    """The board's links as lines (the same for every view of a board)."""
    pos = _layout(board)
    out = []
    for a, ns in enumerate(board.neighbours):
        for b in ns:
            if a < b:
                (x1, y1), (x2, y2) = pos[a], pos[b]
                out.append(
                    f'<line class="edge" x1="{svg.num(x1)}" y1="{svg.num(y1)}" x2="{svg.num(x2)}" '
                    f'y2="{svg.num(y2)}" stroke="#9aa39a" stroke-width="4" stroke-linecap="round"/>'
                )
    return "\n".join(out)


def _board(board: Any, data: dict[str, Any], places: dict[str, list[str]], best: str | None) -> list[str]:
    pos = _layout(board)
    left, top, width, height = _BOARD
    out = [
        '<g id="board">',
        svg.rect(left, top, width, height, 'rx="10" fill="#f4f6ef" stroke="#c8d3c0"'),
    ]
    out.append(_edges(board))
    decks = data["decks"]
    for s, (x, y) in enumerate(pos):
        kind = ("street", "lucky", "scene", "station")[int(board.kinds[s])]
        label = board.label(s)
        acts = places.get(f"space:{s}", [])
        out.append(act_group(f"space {kind}", acts, best, f' data-space="{s}" data-label={quoteattr(label)}'))
        halo = "#7bd389" if acts else None
        if kind in ("scene", "station"):
            w, h = (74.0, 30.0) if kind == "scene" else (64.0, 30.0)
            if halo:
                out.append(svg.rect(x - w / 2 - 4, y - h / 2 - 4, w + 8, h + 8, f'rx="8" fill="{halo}"'))
            out.append(
                svg.rect(x - w / 2, y - h / 2, w, h, f'rx="6" fill="{_SPACE_FILL[kind]}" stroke="#555555"')
            )
            out.append(
                svg.text(x, y + (0 if kind == "scene" else 4), label, 10, "middle", font_weight="bold")
            )
            if kind == "scene" and label in decks:
                deck = decks[label]
                out.append(
                    svg.text(
                        x, y + 11, f"deck {deck['unseen']}+{deck['returned']}", 8, "middle", fill="#555555"
                    )
                )
            out.append(advised_ring(x - w / 2, y - h / 2, w, h, acts, best))
        else:
            r = 11.0 if kind == "lucky" else 9.0
            if halo:
                out.append(
                    f'<circle cx="{svg.num(x)}" cy="{svg.num(y)}" r="{svg.num(r + 4)}" fill="{halo}"/>'
                )
            if kind == "lucky":
                out.append(
                    f'<polygon points="{svg.num(x)},{svg.num(y - r)} {svg.num(x + r)},{svg.num(y)} '
                    f'{svg.num(x)},{svg.num(y + r)} {svg.num(x - r)},{svg.num(y)}" '
                    f'fill="{_SPACE_FILL[kind]}" stroke="#8a6d00"/>'
                )
            else:
                out.append(
                    f'<circle cx="{svg.num(x)}" cy="{svg.num(y)}" r="{r:g}" fill="#ffffff" stroke="#777777"/>'
                )
            out.append(svg.text(x, y + 3, label, 8, "middle", fill="#444444"))
            out.append(advised_ring(x - r, y - r, 2 * r, 2 * r, acts, best))
        out.append("</g>")
    out.append("</g>")
    # pawns round their space, in seat order
    out.append('<g id="pawns">')
    crowd: dict[int, int] = {}
    for p in data["players"]:
        s = int(p["space"])
        k = crowd.get(s, 0)
        crowd[s] = k + 1
        x, y = pos[s]
        dx, dy = ((-14, -20), (14, -20), (-14, 20), (14, 20), (-30, 0), (30, 0))[k % 6]
        colour = _PAWNS[p["seat"] % len(_PAWNS)]
        out.append(
            f'<g class="pawn" data-seat="{p["seat"]}" data-space="{s}">'
            f'<circle cx="{svg.num(x + dx)}" cy="{svg.num(y + dy)}" r="8.5" fill="{colour}" stroke="#ffffff" '
            'stroke-width="1.5"/>'
            + svg.text(x + dx, y + dy + 3.5, str(p["seat"]), 9, "middle", fill="#ffffff", font_weight="bold")
            + "</g>"
        )
    out.append("</g>")
    return out


def _players(game: Game, data: dict[str, Any], places: dict[str, list[str]], best: str | None) -> list[str]:
    """One row per player: pawn colour, count, Lucky Break cards, face-down cards, identified cards."""
    me = data["seat"]
    out = ['<g id="players">']
    for i, p in enumerate(data["players"]):
        s = int(p["seat"])
        x, y = _PANEL_X, _BOARD[1] + i * _ROW_H
        acts = places.get(f"seat:{s}", [])
        active = data.get("active") == s
        out.append(
            act_group(
                "player", acts, best, f' data-seat="{s}" data-count="{p["count"]}" data-space="{p["space"]}"'
            )
        )
        out.append(
            f'<rect x="{svg.num(x)}" y="{svg.num(y)}" width="352" height="{svg.num(_ROW_H - 6)}" rx="7" '
            f'fill="#ffffff" stroke="{"#d4a017" if active else "#999999"}" '
            f'stroke-width="{3 if active else 1}"/>'
        )
        out.append(
            f'<circle cx="{svg.num(x + 14)}" cy="{svg.num(y + 14)}" r="8" fill="{_PAWNS[s % len(_PAWNS)]}"/>'
        )
        name = f"seat {s}" + (" (you)" if s == me else "")
        out.append(svg.text(x + 28, y + 18, name, 12, font_weight="bold"))
        out.append(
            svg.text(
                x + 344,
                y + 18,
                f"Lineup Count {p['count']} · Lucky {p['lucky']} · solved {len(p['identified'])}",
                10,
                "end",
            )
        )
        out.append(advised_ring(x, y, 352, _ROW_H - 6, acts, best) + "</g>")
        cx = x + 8
        for k, scene in enumerate(p["held"], start=1):
            held_acts = places.get(f"held:{k}", []) if s == me else []
            out.append(
                act_group(
                    "held", held_acts, best, f' data-seat="{s}" data-card="{k}" data-scene={quoteattr(scene)}'
                )
            )
            out.append(
                f'<rect x="{svg.num(cx)}" y="{svg.num(y + 24)}" width="40" height="34" rx="3" fill="#5d6d7e" '
                'stroke="#222222"/>'
            )
            out.append(svg.text(cx + 20, y + 38, str(k), 11, "middle", fill="#ffffff", font_weight="bold"))
            out.append(svg.text(cx + 20, y + 52, scene[:9], 7.5, "middle", fill="#ffffff"))
            out.append(f"<title>seat {s}'s face-down card {k} (from the {escape(scene)})</title>")
            out.append(advised_ring(cx, y + 24, 40, 34, held_acts, best) + "</g>")
            cx += 44
        for cid in p["identified"]:
            cx += 2
            out += _portrait(
                cx,
                y + 22,
                0.4,
                _features(game, cid),
                f' data-seat="{s}" data-card={quoteattr(cid)}',
                "identified",
                [],
                best,
                caption=None,
            )
            cx += _PW * 0.4 + 2
    out.append("</g>")
    return out


def _features(game: Any, card: str) -> dict[str, str] | None:
    """The features of the face-up card ``card`` (public: the view names it, the deck file describes it)."""
    for cards in game.suspects.scenes.values():
        for entry in cards:
            if entry.id == card:
                return dict(game.suspects.features_of(entry))
    return None


def _table(data: dict[str, Any], places: dict[str, list[str]], best: str | None) -> list[str]:
    """The die, the Lucky Break deck and the drawn seat's Lucky Break cards, under the players."""
    y = _BOARD[1] + 6 * _ROW_H + 6
    x = _PANEL_X
    out = ['<g id="table">']
    die = data.get("die")
    acts = places.get("roll", [])
    out.append(act_group("die", acts, best, f' data-die="{"" if die is None else die}"'))
    out.append(svg.rect(x, y, 40, 40, 'rx="7" fill="#ffffff" stroke="#333333" stroke-width="2"'))
    out.append(svg.text(x + 20, y + 28, "?" if die is None else str(die), 22, "middle", font_weight="bold"))
    out.append(advised_ring(x, y, 40, 40, acts, best) + "</g>")
    deck = data["lucky_deck"]
    acts = places.get("lucky", [])
    out.append(act_group("lucky-deck", acts, best))
    out.append(
        f'<rect x="{svg.num(x + 52)}" y="{svg.num(y)}" width="30" height="40" rx="4" fill="#ffd54f" '
        'stroke="#8a6d00"/>'
    )
    out.append(svg.text(x + 88, y + 16, "Lucky Break deck", 10))
    out.append(svg.text(x + 88, y + 30, f"{deck['unseen']} + {deck['returned']} under", 9, fill=_GREY))
    out.append(advised_ring(x + 52, y, 30, 40, acts, best) + "</g>")
    for i, kind in enumerate(data["hand"]):
        cx = x + 190 + i * 54
        acts = places.get(f"hand:{kind}", [])
        out.append(act_group("lucky-card", acts, best, f" data-card={quoteattr(kind)}"))
        out.append(
            f'<rect x="{svg.num(cx)}" y="{svg.num(y)}" width="50" height="40" rx="4" fill="#fff3c4" '
            'stroke="#8a6d00"/>'
        )
        for k, word in enumerate(kind.split("-")):
            out.append(svg.text(cx + 25, y + 17 + 11 * k, word, 9, "middle"))
        out.append(advised_ring(cx, y, 50, 40, acts, best) + "</g>")
    if not data["hand"]:
        out.append(svg.text(x + 190, y + 24, "your Lucky Break cards: none", 10, fill=_GREY))
    out.append("</g>")
    return out


def _suspects(data: dict[str, Any], places: dict[str, list[str]], best: str | None) -> list[str]:
    """The portraits the view holds now: the card being studied, or a lineup's stands."""
    out = ['<g id="suspects">']
    y = _SUSPECTS_Y
    studying = data.get("studying")
    lineup = data.get("lineup")
    if studying:
        acts = places.get("study", [])
        out.append(
            svg.text(
                16,
                y + 12,
                f"Study this suspect (your card {studying['held']}, from the "
                f"{studying['scene']}): it goes face down after 'study'",
                12,
                font_weight="bold",
            )
        )
        out += _portrait(
            16,
            y + 24,
            1.5,
            studying["features"],
            f" data-card={quoteattr(studying['card'])}",
            "studying",
            acts,
            best,
            caption="right",
        )
    elif lineup:
        stands = lineup.get("stands")
        who = "your" if lineup["seat"] == data["seat"] else f"seat {lineup['seat']}'s"
        if stands is None:
            out.append(
                svg.text(
                    16,
                    y + 12,
                    f"{who} lineup from the {lineup['scene']}: {lineup['size']} stands being set up",
                    12,
                    font_weight="bold",
                )
            )
        else:
            out.append(
                svg.text(
                    16,
                    y + 12,
                    f"{who} lineup from the {lineup['scene']}: which stand is guilty?",
                    12,
                    font_weight="bold",
                )
            )
            for j, stand in enumerate(stands, start=1):
                acts = places.get(f"stand:{j}", [])
                out += _portrait(
                    16 + (j - 1) * 92.0,
                    y + 22,
                    1.0,
                    stand["features"],
                    f' data-stand="{j}" data-card={quoteattr(stand["card"])}',
                    "stand",
                    acts,
                    best,
                    number=j,
                )
    out.append("</g>")
    return out


def _portrait(
    x: float,
    y: float,
    scale: float,
    features: Mapping[str, Any] | None,
    extra: str,
    kind: str,
    acts: Sequence[str],
    best: str | None,
    number: int | None = None,
    caption: str | None = "below",
) -> list[str]:
    """A stand-in portrait drawn from feature values, its values written ``caption`` ("below" or "right").

    Without ``features`` (a card the deck file does not describe), a blank face.
    """
    w, h = _PW * scale, _PH * scale
    out = [act_group(f"portrait {kind}", acts, best, extra)]
    out.append(svg.rect(x, y, w, h, f'rx="{svg.num(5 * scale)}" fill="#fbf8f1" stroke="#555555"'))
    f = {str(k): str(v) for k, v in (features or {}).items()}
    out.append(f'<g transform="translate({svg.num(x)},{svg.num(y)}) scale({svg.num(scale)})">')
    out += _face(f)
    out.append("</g>")
    if number is not None:
        out.append(
            f'<circle cx="{svg.num(x + 12)}" cy="{svg.num(y + 12)}" r="10" fill="#333333"/>'
            + svg.text(x + 12, y + 16, str(number), 11, "middle", fill="#ffffff", font_weight="bold")
        )
    for k, (name, value) in enumerate(f.items() if caption else ()):
        line = f"{name.replace('_', ' ')}: {value}"
        if caption == "right":
            out.append(svg.text(x + w + 12, y + 16 + 16 * k, line, 13, fill="#222222"))
        else:
            out.append(svg.text(x + w / 2, y + h + 11 + 10 * k, line, 8, "middle", fill="#333333"))
    out.append("<title>" + escape(", ".join(f"{k}: {v}" for k, v in f.items())) + "</title>")
    out.append(advised_ring(x, y, w, h, acts, best) + "</g>")
    return out


def _path(d: str, fill: str, extra: str = "") -> str:
    return f'<path d="{d}" fill="{fill}"{extra}/>'


def _dots(fill: str, r: float, points: Sequence[tuple[int, int]]) -> str:
    return "".join(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}"/>' for x, y in points)


_HAIR_INK: Final = "#5a3b1e"
_BEARD_INK: Final = "#4a2f17"
#: per stand-in feature and value, the shapes drawn over the face (in an 80 x 92 box; layer order:
#: hair, hat, glasses, facial hair, accessory). Values not listed draw nothing (their text still shows).
_SHAPES: Final[dict[str, dict[str, str]]] = {
    "hair": {
        "short": _path("M21,34 Q22,16 40,16 Q58,16 59,34 Q50,24 40,24 Q30,24 21,34 Z", _HAIR_INK),
        "long": _path("M21,36 Q22,15 40,15 Q58,15 59,36 Q50,22 40,22 Q30,22 21,36 Z", _HAIR_INK),
        "curly": _dots(_HAIR_INK, 6, ((26, 24), (34, 18), (42, 16), (50, 19), (56, 26))),
    },
    "hat": {
        "cap": '<path d="M21,26 Q22,10 40,10 Q58,10 59,26 Z" fill="#2f6fc4"/>'
        '<rect x="40" y="23" width="26" height="4" rx="2" fill="#1f4f94"/>',
        "fedora": '<rect x="12" y="22" width="56" height="5" rx="2" fill="#3b2f2f"/>'
        '<path d="M24,23 L26,6 Q40,2 54,6 L56,23 Z" fill="#3b2f2f"/>',
        "beanie": '<path d="M20,28 Q20,6 40,6 Q60,6 60,28 Z" fill="#c0392b"/>'
        '<rect x="19" y="24" width="42" height="6" rx="2" fill="#962d22"/>',
    },
    "glasses": {
        "none": _dots("#222", 2, ((32, 38), (48, 38))),
        "round": '<g fill="none" stroke="#222" stroke-width="1.6"><circle cx="32" cy="38" r="6"/>'
        '<circle cx="48" cy="38" r="6"/><line x1="38" y1="38" x2="42" y2="38"/></g>',
        "square": '<g fill="none" stroke="#222" stroke-width="1.6">'
        '<rect x="25" y="33" width="12" height="10"/><rect x="43" y="33" width="12" height="10"/>'
        '<line x1="37" y1="38" x2="43" y2="38"/></g>',
        "sunglasses": '<g fill="#111"><rect x="24" y="33" width="14" height="9" rx="3"/>'
        '<rect x="42" y="33" width="14" height="9" rx="3"/><rect x="38" y="35" width="4" height="2"/></g>',
    },
    "facial_hair": {
        "moustache": _path(
            "M31,51 Q40,46 49,51 Q40,49 31,51 Z", _BEARD_INK, f' stroke="{_BEARD_INK}" stroke-width="2"'
        ),
        "beard": _path("M22,44 Q24,66 40,66 Q56,66 58,44 Q52,58 40,58 Q28,58 22,44 Z", _BEARD_INK),
        "stubble": _dots(_BEARD_INK, 0.9, [(x, y) for x in (30, 34, 38, 42, 46, 50) for y in (54, 58)]),
    },
    "accessory": {
        "earring": '<circle cx="20" cy="46" r="2.6" fill="#f1c40f" stroke="#8a6d00"/>',
        "scar": '<path d="M49,42 L55,50 M50,47 L53,45 M52,49 L55,47" stroke="#a0302a" stroke-width="1.4"/>',
        "tattoo": '<path d="M56,74 l4,-4 l4,4 l-4,4 Z" fill="#1f4f94"/>',
        "necklace": _dots("#f1c40f", 1.8, ((30, 68), (34, 71), (40, 72), (46, 71), (50, 68))),
    },
}


def _face(f: Mapping[str, str]) -> list[str]:
    """Shapes for the stand-in features, in an 80 x 92 box (see :data:`_SHAPES`)."""
    cloth = _CLOTH.get(f.get("clothing", ""), "#b0b0b0")
    out = [f'<path d="M8,92 Q10,66 40,64 Q70,66 72,92 Z" fill="{cloth}"/>']
    if f.get("hair") == "long":  # the hair falling behind the face
        out.append(f'<path d="M18,40 Q16,14 40,12 Q64,14 62,40 L64,66 L16,66 Z" fill="{_HAIR_INK}"/>')
    out.append(
        f'<ellipse cx="40" cy="40" rx="19" ry="23" fill="{_SKIN}" stroke="#8a6a4a" stroke-width="0.8"/>'
    )
    out.append('<path d="M34,54 Q40,57 46,54" fill="none" stroke="#8a3a2a" stroke-width="1.4"/>')
    for feature, shapes in _SHAPES.items():
        value = f.get(feature)
        if value is not None and value in shapes:
            out.append(shapes[value])
    return out


def _legend(data: dict[str, Any], advice: Advice | None, height: float) -> list[str]:
    prompt = str(data["decision"].get("prompt", ""))
    title = f"LineUp — seat {data['seat']}'s view, turn {data['turn']}"
    if data.get("winner") or data.get("reason"):
        title += f" · over: {data.get('reason') or data.get('winner')}"
    out = ['<g id="legend">', *svg.header_lines(title, prompt, advice)]
    y = height - 18.0
    x = 16.0
    for kind in ("station", "scene", "lucky", "street"):
        out.append(
            f'<rect x="{svg.num(x)}" y="{svg.num(y - 11)}" width="16" height="14" rx="3" '
            f'fill="{_SPACE_FILL[kind]}" stroke="#555555"/>'
        )
        out.append(svg.text(x + 20, y, "Lucky Break" if kind == "lucky" else kind, 10))
        x += 90
    out.append(f'<circle cx="{svg.num(x + 7)}" cy="{svg.num(y - 4)}" r="8" fill="#7bd389"/>')
    out.append(svg.text(x + 20, y, "you may move there", 10))
    x += 130
    out.append(svg.text(x, y, "scene deck N+M: N never drawn, M returned under it", 9, fill=_GREY))
    out.append(
        svg.text(
            16,
            y - 20,
            "Portraits are stand-ins drawn from each card's features (written out with them), "
            "not the published art.",
            9,
            fill="#555555",
        )
    )
    out.append("</g>")
    return out
