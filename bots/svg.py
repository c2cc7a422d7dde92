"""The SVG primitives every game's drawing (``bots/<game>/draw.py``, issue 25) is built from.

One home for what the five drawings share, so no game's drawing imports another game's: number
formatting, a ``<text>``, a ``<rect>``, the document's opening (XML declaration, ``<svg>`` and its white
background), the clickable-move attribute ``data-actions`` (one JSON style for every game: compact
separators, so the page reads the same text everywhere), the group that carries it, the advised move's
outline and the title lines; besides them the deterministic stress layout of a graph (Police 07's
board without coordinates, LineUp's board) and the SVG-to-PNG converter of ``copsolver hint --png``.

Every function here escapes what it writes: element text with ``xml.sax.saxutils.escape``, attribute
values with ``quoteattr``, so a label or an action text holding ``<``, ``&`` or quotes cannot break the
document. Strings passed as ready-made attribute text (``attrs``/``extra``) are written as they are:
callers build them from numbers and fixed words, or quote them themselves.
"""

from __future__ import annotations

import importlib
import json
import math
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, TypeAlias, TypeVar
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import numpy.typing as npt

from bots.base import Advice
from solver.core import ConfigError, Game, View

Point: TypeAlias = tuple[float, float]
FloatArray: TypeAlias = npt.NDArray[np.float64]
G = TypeVar("G", bound=Game)

#: The font stack of every drawing (DejaVu Sans ships with the converters' usual systems).
FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"
#: The advised move's colour in every drawing.
BEST: Final = "#e6007e"
#: Most majorization steps of :func:`stress_layout` (it stops earlier once the stress settles).
LAYOUT_ITERATIONS: Final = 400


def drawable(game: Game, kind: type[G], view: View, title: str, advice: Advice | None) -> G:
    """``game`` as its class ``kind`` after checking what a drawing is asked to draw: a view of that game
    and advice, if any, for the view's seat (raises :class:`ConfigError` otherwise; ``title`` names the
    drawing in the message)."""
    if not isinstance(game, kind) or view.game.name != game.name:
        raise ConfigError(f"draw: the {title} drawing cannot draw a {view.game.name} view")
    if advice is not None and advice.seat != view.seat:
        raise ConfigError(f"draw: the advice is for seat {advice.seat}, the view is seat {view.seat}'s")
    return game


# --- text and shapes ----------------------------------------------------------------------------


def num(value: float, digits: int = 1) -> str:
    """A coordinate as short, stable text: at most ``digits`` decimals, no trailing zeros, no ``-0``.

    >>> num(12.0), num(-0.04), num(3.14159, 2), num(2.5)
    ('12', '0', '3.14', '2.5')
    """
    text = f"{value:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def attributes(attrs: dict[str, str]) -> str:
    """Keyword attributes as text, each name's ``_`` written ``-`` (``font_weight``), values quoted."""
    return "".join(f" {k.replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())


def text(
    x: float, y: float, body: str, size: float, anchor: str | None = "start", *, digits: int = 1, **attrs: str
) -> str:
    """A ``<text>`` element holding ``body`` (escaped); ``anchor`` None writes no ``text-anchor`` (the
    enclosing group's then holds), ``attrs`` are further attributes (see :func:`attributes`).

    >>> text(1, 2, "a<b", 10, "middle", fill="#000")
    '<text x="1" y="2" font-size="10" text-anchor="middle" fill="#000">a&lt;b</text>'
    """
    anchored = "" if anchor is None else f' text-anchor="{anchor}"'
    return (
        f'<text x="{num(x, digits)}" y="{num(y, digits)}" font-size="{num(size, digits)}"{anchored}'
        f"{attributes(attrs)}>{escape(body)}</text>"
    )


def rect(x: float, y: float, w: float, h: float, attrs: str = "", *, digits: int = 1) -> str:
    """A ``<rect>`` at (x, y) of size w x h, with further ``attrs`` written as they are.

    >>> rect(0, 1.25, 10, 5, 'fill="red"')
    '<rect x="0" y="1.2" width="10" height="5" fill="red"/>'
    """
    extra = f" {attrs}" if attrs else ""
    return (
        f'<rect x="{num(x, digits)}" y="{num(y, digits)}" width="{num(w, digits)}" '
        f'height="{num(h, digits)}"{extra}/>'
    )


def document(
    width: float, height: float, left: float = 0.0, top: float = 0.0, *, digits: int = 1
) -> list[str]:
    """A drawing's first lines: the XML declaration, the ``<svg>`` element (``width`` x ``height``, its
    viewBox starting at (left, top)) and the white background it lies on."""
    w, h = num(width, digits), num(height, digits)
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="{num(left, digits)} {num(top, digits)} {w} {h}" font-family={quoteattr(FONT)}>',
        rect(left, top, width, height, 'fill="#ffffff"', digits=digits),
    ]


# --- clickable moves and the advised one --------------------------------------------------------


def actions_attr(texts: Sequence[str]) -> str:
    """``data-actions``: a JSON list of action texts, quoted for an attribute (every drawing's clickable
    elements, issue 25's contract section 1).

    >>> print(actions_attr(["taxi 69", "joker taxi 69"]))
    data-actions='["taxi 69","joker taxi 69"]'
    """
    return f"data-actions={quoteattr(json.dumps(list(texts), separators=(',', ':')))}"


def act_group(kind: str, actions: Sequence[str], best: str | None, extra: str = "") -> str:
    """The opening tag of a group of class ``kind``: clickable (``act``, with ``data-actions``) when it
    carries actions, ``best`` when the advised action is among them; ``extra`` further attribute text."""
    classes = kind + (" act" if actions else "") + (" best" if best is not None and best in actions else "")
    data = f" {actions_attr(actions)}" if actions else ""
    return f"<g class={quoteattr(classes)}{extra}{data}>"


def outline(
    x: float, y: float, w: float, h: float, pad: float = 4.0, rx: float = 7.0, width: float = 4.0,
    extra: str = "",
) -> str:
    """The advised move's outline: a rounded ``BEST``-coloured frame ``pad`` outside the box (x, y, w, h)."""
    return rect(
        x - pad, y - pad, w + 2 * pad, h + 2 * pad,
        f'rx="{num(rx)}" fill="none" stroke="{BEST}" stroke-width="{num(width)}"{extra}',
    )


def advised_ring(x: float, y: float, w: float, h: float, actions: Sequence[str], best: str | None) -> str:
    """:func:`outline` around an element whose ``actions`` hold the advised move ``best`` (else nothing)."""
    if best is None or best not in actions:
        return ""
    return outline(x, y, w, h)


def header_lines(title: str, prompt: str, advice: Advice | None) -> list[str]:
    """A picture's top lines: the title, the decision's prompt and, with advice, the advised move."""
    out = [
        text(16, 24, title, 17, font_weight="bold"),
        text(16, 44, prompt[:130], 12, fill="#333333"),
    ]
    if advice is not None and advice.ranked:
        line = f"Advised: {advice.best.text}" + (f" ({advice.best.reason})" if advice.best.reason else "")
        line = line if len(line) <= 130 else line[:127] + "..."
        out.append(text(16, 62, line, 12, fill=BEST, font_weight="bold"))
    return out


# --- layout -------------------------------------------------------------------------------------


def stress_layout(
    distances: npt.NDArray[np.float64], iterations: int = LAYOUT_ITERATIONS, unreachable: float = math.inf
) -> FloatArray:
    """2-D positions whose straight-line distances match ``distances`` (graph distances) best.

    Stress majorization (Gansner, Koren & North 2004, "Graph Drawing by Stress Majorization"):
    minimise the sum over pairs of (|x_i - x_j| - d_ij)^2 / d_ij^2 by repeatedly solving the
    quadratic that bounds it from above, starting from classical multidimensional scaling. Every
    step is deterministic linear algebra (no random start), so a graph is laid out the same way on
    every run; the signs of the two axes are fixed so an eigensolver's choice cannot mirror it.
    Pairs that no path joins (an entry of ``unreachable`` or more) are kept one step further
    apart than the farthest joined pair. Raises :class:`ConfigError` for a table that is not square
    and finite, or two different points at distance 0 or less.
    """
    d = np.array(distances, dtype=float)
    n = d.shape[0]
    if d.ndim != 2 or d.shape != (n, n) or not np.isfinite(d).all():
        raise ConfigError(f"stress layout: distances must be a finite square table, not shape {d.shape}")
    if (d[~np.eye(n, dtype=bool)] <= 0).any():
        raise ConfigError("stress layout: two different stops must be a positive distance apart")
    if n < 3:
        return np.array([[float(i), 0.0] for i in range(n)])
    joined = d < unreachable
    d[~joined] = d[joined].max() + 1.0
    # classical scaling: the top two eigenvectors of the double-centred squared distances
    centre = np.eye(n) - 1.0 / n
    gram = -0.5 * centre @ (d**2) @ centre
    values, vectors = np.linalg.eigh(gram)
    top = np.argsort(values)[::-1][:2]
    x = vectors[:, top] * np.sqrt(np.maximum(values[top], 1e-12))
    for axis in range(2):
        if x[np.argmax(np.abs(x[:, axis])), axis] < 0:
            x[:, axis] = -x[:, axis]
    off = ~np.eye(n, dtype=bool)
    weight = np.zeros_like(d)
    weight[off] = d[off] ** -2.0
    laplacian = -weight
    np.fill_diagonal(laplacian, weight.sum(axis=1))
    solve = np.linalg.pinv(laplacian)
    previous = math.inf
    for _ in range(iterations):
        gap = np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=-1))
        pull = np.zeros_like(d)
        moved = off & (gap > 1e-12)
        pull[moved] = -weight[moved] * d[moved] / gap[moved]
        np.fill_diagonal(pull, -pull.sum(axis=1))
        x = solve @ (pull @ x)
        stress = float((weight[off] * (gap[off] - d[off]) ** 2).sum())
        if previous - stress < 1e-7 * previous:
            break
        previous = stress
    return np.asarray(x, dtype=np.float64)


# --- png ----------------------------------------------------------------------------------------


def _is_imagemagick(program: str) -> bool:
    """True when ``program -version`` says it is ImageMagick (other tools are also called convert)."""
    try:
        done = subprocess.run([program, "-version"], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and "ImageMagick" in done.stdout


def _cairosvg() -> Any:
    """The cairosvg module, or None when it is not installed (an optional extra; it has no stubs)."""
    try:
        return importlib.import_module("cairosvg")
    except ImportError:
        return None


def svg_to_png(svg: str, path: str | Path) -> None:
    """Write ``svg`` as a PNG at ``path`` with cairosvg, else rsvg-convert, else ImageMagick.

    Raises :class:`ConfigError` when none of them is available, or when the converter fails.
    """
    target = Path(path)
    data = svg.encode("utf-8")
    cairosvg = _cairosvg()
    if cairosvg is not None:
        cairosvg.svg2png(bytestring=data, write_to=str(target))
        return
    command: list[str] | None = None
    rsvg = shutil.which("rsvg-convert")
    if rsvg is not None:
        command = [rsvg, "--format", "png", "--output", str(target)]
    else:
        for name in ("magick", "convert"):
            program = shutil.which(name)
            if program is not None and _is_imagemagick(program):
                command = [program, "svg:-", f"png:{target}"]
                break
    if command is None:
        raise ConfigError("no SVG-to-PNG converter: pip install cairosvg")
    done = subprocess.run(command, input=data, capture_output=True, timeout=120, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ConfigError(
            f"{Path(command[0]).name} could not write {target}: {message[-1] if message else ''}"
        )
