"""Reading LineUp content files: the shipped ones from ``data/``, or a user's, with typed errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.core import BadStateError, files

Fail = Callable[[str], BadStateError]


def read_json(path: str | None, shipped: str, what: str) -> tuple[Any, str]:
    """``(document, where)``: ``data/<shipped>`` when ``path`` is None, else the user's file."""
    if path is None:
        return files.read_shipped("solver.games.lineup", f"data/{shipped}"), f"the shipped {shipped}"
    return files.read_json(path, f"lineup {what}"), repr(path)


def checked(data: Any, fmt: str, what: str, where: str) -> Fail:
    """Check that ``data`` is a document of format ``fmt``; return the error maker for its faults."""
    def fail(message: str) -> BadStateError:
        return BadStateError(f"lineup {what} {where}: {message}")

    if not isinstance(data, dict) or data.get("format") != fmt:
        raise fail(f'expected a JSON object with "format": "{fmt}"')
    return fail
