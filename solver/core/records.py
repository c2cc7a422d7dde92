"""What each seat saw of each action: the record games with hidden actions keep.

A state that mixes in :class:`ActionRecords` logs, for every action it applies, a :data:`Record`
(who acted, the action's text, which seats saw that text, the text every other seat saw) and where
the action's events start. :meth:`ActionRecords.seat_entries` turns both into a seat's perfect-recall
history, one ``[actor, text, events]`` entry per action: the one place a view's history filters
hidden texts and events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeAlias

from solver.core.events import Event
from solver.core.types import Seat

#: (actor, text, the seats that saw ``text`` (None: every seat), the text every other seat saw)
Record: TypeAlias = tuple[int, str, frozenset[int] | None, str]
#: Converts one event to its JSON object (``Event.to_json`` or a memo of it).
EventJSON: TypeAlias = Callable[[Event], dict[str, Any]]


def _event_json(event: Event) -> dict[str, Any]:
    return event.to_json()


class ActionRecords:
    """Per-action records and the events they own (mix into a :class:`~solver.core.game.State`
    with ``n`` seats and an ``events`` list; call :meth:`init_records` in ``__init__`` and copy
    ``records`` and ``marks`` in ``clone``)."""

    n: int
    events: list[Event]
    records: list[Record]
    marks: list[int]  # len(events) before each action

    def init_records(self) -> None:
        """Start with no action recorded."""
        self.records = []
        self.marks = []

    def log_action(self, record: Record) -> None:
        """Record the action about to be applied (its events are those emitted from now on)."""
        self.marks.append(len(self.events))
        self.records.append(record)

    def public_action_text(self, index: int) -> str | None:
        """``history[index]`` as every seat saw it (``"draw ?"`` for a hidden card)."""
        _, text, seen, hidden = self.records[index]
        return text if seen is None else hidden

    def emit(self, event: Event) -> None:
        """Append a public event."""
        self.events.append(event)

    def split(self, full: Event, redacted: Event, knowers: frozenset[int] | None) -> None:
        """Emit ``full`` to ``knowers`` (None: everyone) and ``redacted`` to every other seat."""
        if knowers is None or len(knowers) == self.n:
            self.events.append(full)
            return
        if knowers:
            self.events.append(dataclasses.replace(full, visible_to=knowers))
        self.events.append(dataclasses.replace(redacted, visible_to=frozenset(range(self.n)) - knowers))

    def seat_entries(self, seat: Seat, start: int = 0, stop: int | None = None,
                     event_json: EventJSON | None = None) -> list[list[Any]]:
        """``seat``'s history entries ``start..stop-1`` (default: to the last action).

        An entry's events are those between its action and the next one, so the last action's entry
        is final only once another action follows it. ``event_json`` converts an event (default
        ``Event.to_json``; a search may pass a memo shared by the seats).
        """
        convert = event_json or _event_json
        marks, events, n = self.marks, self.events, len(self.records)
        out: list[list[Any]] = []
        for i in range(start, n if stop is None else stop):
            actor, text, seen, hidden = self.records[i]
            end = marks[i + 1] if i + 1 < n else len(events)
            shown = [convert(e) for e in events[marks[i]:end] if e.visible(seat)]
            out.append([actor, text if seen is None or seat in seen else hidden, shown])
        return out
