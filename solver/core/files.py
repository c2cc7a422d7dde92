"""The one reader for files a user names: boards, positions, replays, content and model files.

Every file read from a user's path goes through :func:`read_text` or :func:`read_json`, so each
refuses the same faults the same way, with a one-line :class:`BadStateError` that names the file
and the fault (``board /tmp/b.json: cannot read it: not valid JSON: ...``):

* a missing file, a directory, or any other ``OSError`` (the system's own words), and a path that
  is not one (a number, a string with a NUL byte);
* more than ``limit`` bytes (default :data:`MAX_BYTES`): at most ``limit + 1`` bytes are ever
  read, so ``/dev/zero`` or a huge file fails at once instead of filling memory;
* bytes that are not UTF-8;
* text that is not strict JSON (``NaN``/``Infinity`` and numbers that overflow a float are not
  JSON; neither are integers past Python's digit limit);
* JSON nested deeper than :data:`MAX_DEPTH`. The parser's own ``RecursionError`` is caught, and
  a depth that parses but is still deep is refused too, because every checker and every ``repr``
  in an error message below would recurse over it again.

Shipped data files go through :func:`read_shipped`, the same parser with the same checks.
"""

from __future__ import annotations

import json
import math
import os
from importlib import resources
from typing import Any, Final

from solver.core.errors import BadStateError

#: Bytes a user's file may hold. The largest shipped content is tens of KiB and a long replay a few
#: hundred; a file beyond this is not ours, and reading it whole would only fill memory.
MAX_BYTES: Final = 4 << 20
#: Nesting a JSON document may have. Shipped files and every game's state and view nest at most
#: 6 deep; this leaves room for other front ends' files and stays far below the recursion limit.
MAX_DEPTH: Final = 32

PathLike = str | os.PathLike[str]


def read_text(path: PathLike, what: str, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of the file at ``path`` (``what`` names it in errors: "board", "replay").

    Raise :class:`BadStateError` for an unreadable file, one over ``limit`` bytes, or non-UTF-8.
    """
    if not isinstance(path, (str, os.PathLike)):
        # open() takes an int as a file descriptor: a number from a JSON config must not reach it
        raise BadStateError(f"{what} {path!r}: not a file path")
    try:
        with open(path, "rb") as stream:
            data = stream.read(limit + 1)
    except OSError as err:
        raise _fault(path, what, err.strerror or str(err)) from None
    except ValueError as err:  # a path with a NUL byte
        raise _fault(path, what, str(err)) from None
    if len(data) > limit:
        raise _fault(path, what, f"file is over {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _fault(path, what, f"not a UTF-8 text file (byte {err.start})") from None


def read_json(path: PathLike, what: str, limit: int = MAX_BYTES) -> Any:
    """The JSON document in the file at ``path``; :class:`BadStateError` as for :func:`read_text`,
    and for text that is not JSON or nests deeper than :data:`MAX_DEPTH`."""
    return parse_json(read_text(path, what, limit), f"{what} {path}: cannot read it")


def read_shipped(package: str, name: str) -> Any:
    """The JSON document ``name`` (e.g. ``"data/budapest.json"``) shipped inside ``package``."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return parse_json(text, f"shipped {package}/{name}")


def parse_json(text: str, where: str) -> Any:
    """``text`` parsed as strict JSON; :class:`BadStateError` ``"{where}: {fault}"`` otherwise."""
    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as err:
        raise BadStateError(
            f"{where}: not valid JSON: {err.msg} (line {err.lineno}, column {err.colno})"
        ) from None
    except RecursionError:
        raise BadStateError(f"{where}: not valid JSON: nested too deeply") from None
    except ValueError as err:  # non-finite numbers, integers past the digit limit
        raise BadStateError(f"{where}: not valid JSON: {err}") from None
    if json_depth(data) > MAX_DEPTH:
        raise BadStateError(f"{where}: JSON nested more than {MAX_DEPTH} deep")
    return data


def json_depth(data: Any) -> int:
    """How deep ``data`` nests (a scalar 0, ``[]`` 1, ``[[1]]`` 2); iterative, so never recursing."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _fault(path: PathLike, what: str, fault: str) -> BadStateError:
    return BadStateError(f"{what} {os.fspath(path)}: cannot read it: {fault}")


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} overflows a float")
    return value
