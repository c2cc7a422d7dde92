"""Typed events with visibility.

``State.apply`` appends events; each one says which seats may see it (``None``: every seat). Front
ends and belief trackers consume them; a seat is only ever handed :func:`visible_events` for itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from solver.core.types import Seat


@dataclass(frozen=True)
class Event:
    """Base of every game event; subclasses are frozen dataclasses with the event's facts."""

    visible_to: frozenset[Seat] | None = field(default=None, kw_only=True)

    @property
    def kind(self) -> str:
        """The event's type name, as sent to front ends."""
        return type(self).__name__

    def visible(self, seat: Seat) -> bool:
        """True when ``seat`` may see this event."""
        return self.visible_to is None or seat in self.visible_to

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object, without its visibility (the receiver may see it).

        Frozen events hold tuples and frozensets; they become lists (frozensets sorted), so the
        object equals itself after a trip through ``json.dumps``/``json.loads``.
        """
        data: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            if f.name != "visible_to":
                data[f.name] = _jsonable(getattr(self, f.name))
        return data


def _jsonable(value: Any) -> Any:
    """``value`` with tuples and (frozen)sets turned into lists, recursively."""
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_jsonable(v) for v in value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def visible_events(events: Iterable[Event], seat: Seat) -> Iterator[Event]:
    """Yield the events ``seat`` may see, in order."""
    return (e for e in events if e.visible(seat))
