"""Reading LineUp content files: the shipped ones from ``data/``, or a user's, with typed errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from solver.core import BadStateError

Fail = Callable[[str], BadStateError]


def read_json(path: str | None, shipped: str, what: str) -> tuple[Any, str]:
    """``(document, where)``: ``data/<shipped>`` when ``path`` is None, else the user's file."""
    where = f"the shipped {shipped}" if path is None else repr(path)
    try:
        if path is None:
            text = resources.files("solver.games.lineup").joinpath(f"data/{shipped}").read_text("utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
        return json.loads(text), where
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise BadStateError(f"lineup {what} {where}: cannot read it: {err}") from err


def checked(data: Any, fmt: str, what: str, where: str) -> Fail:
    """Check that ``data`` is a document of format ``fmt``; return the error maker for its faults."""
    def fail(message: str) -> BadStateError:
        return BadStateError(f"lineup {what} {where}: {message}")

    if not isinstance(data, dict) or data.get("format") != fmt:
        raise fail(f'expected a JSON object with "format": "{fmt}"')
    return fail
