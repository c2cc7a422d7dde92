"""Plain-English game records for the terminal: round-by-round event printing and seat views.

A :class:`GamePrinter` turns a game's events into lines for one audience. The audience is either
the omniscient spectator (``seats=None``: every event, hidden facts marked as hidden) or a set of
seats (only the events those seats may see, which is what a human at the table is allowed to
read). The printer filters the events itself, so callers hand it ``state.events`` (or any slice of
it, in order) and never decide visibility on their own::

    printer = make_printer(game, seats={1})   # what detective seat 1 may see
    for line in printer.feed(state.events[done:]):
        print(line)

Printing is incremental: feeding the events in several batches gives the same lines as feeding
them all at once, which is what lets ``copsolver replay`` reprint a game exactly as ``play`` did.

Each game plugs in its own subclass through :data:`PRINTERS`; a game without one falls back to
:class:`GamePrinter`, which prints every event's fields, so a new game is watchable from day one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bots import registry
from solver import games
from solver.core import ConfigError, Event, Game, Seat, View

#: Width of a column in a numbered list of moves.
_COLUMN = 22


def numbered(items: Sequence[str], indent: str = "    ", width: int = 88) -> list[str]:
    """Lay ``items`` out as ``1 taxi 14  2 bus 20 ...`` in columns that fit ``width``."""
    if not items:
        return []
    digits = len(str(len(items)))
    cells = [f"{i:>{digits}}) {text}" for i, text in enumerate(items, start=1)]
    column = max(_COLUMN, max(len(c) for c in cells) + 2)
    per_line = max(1, (width - len(indent)) // column)
    return [
        indent + "".join(c.ljust(column) for c in cells[i : i + per_line]).rstrip()
        for i in range(0, len(cells), per_line)
    ]


class GamePrinter:
    """Renders events for one audience; the fallback for games without their own printer."""

    #: The game's display name (``copsolver bots`` and headers use it).

    def __init__(self, game: Game, seats: Iterable[Seat] | None = None) -> None:
        self.game = game
        self.seats: frozenset[Seat] | None = None if seats is None else frozenset(seats)
        #: The line naming the winner, once the end of the game has been printed.
        self.winner_line: str | None = None

    @property
    def spectator(self) -> bool:
        """True for the omniscient audience (every event, hidden ones marked)."""
        return self.seats is None

    def sees(self, event: Event) -> bool:
        """True when this audience may read ``event``."""
        return self.seats is None or any(event.visible(s) for s in self.seats)

    def feed(self, events: Iterable[Event]) -> list[str]:
        """The lines for the next ``events`` of the game (in order; unseen ones are skipped)."""
        lines: list[str] = []
        for event in events:
            if self.sees(event):
                lines.extend(self.render(event))
        return lines

    def render(self, event: Event) -> list[str]:
        """Lines for one event this audience sees. The fallback prints its fields."""
        fields = ", ".join(f"{k}={v}" for k, v in event.to_json().items() if k != "kind")
        return [f"  {event.kind}: {fields}"]

    def seat_name(self, seat: Seat) -> str:
        """What the table calls ``seat`` ("seat 2" unless the game says better)."""
        return f"seat {seat}"

    def after_prompt(self) -> list[str]:
        """Lines that close the human prompt just answered (none by default).

        A game whose prompt shows something for a limited time (LineUp's studied suspect) waits
        here and returns the lines that hide it. They belong to the prompt, not to the record of
        events, so ``copsolver play --quiet`` prints them too.
        """
        return []

    def describe_view(self, view: View) -> list[str]:
        """What a human at ``view.seat`` needs to choose a move, ending with the numbered moves."""
        lines = [f"{self.seat_name(view.seat).capitalize()}: {view.decision.prompt}"]
        for key, value in view.to_json().items():
            if key not in ("game", "config", "history", "legal_actions", "decision"):
                lines.append(f"  {key}: {value}")
        lines.append("  Legal moves:")
        lines.extend(numbered([self.game.action_to_str(a) for a in view.legal_actions]))
        return lines


#: Game name -> its printer class. A game missing here is printed by :class:`GamePrinter`.
#: Each game's bot package adds its printer here when imported (``bots/<game>/display.py``).
PRINTERS: dict[str, type[GamePrinter]] = {}


def _printer(name: str) -> type[GamePrinter] | None:
    try:
        registry.bots_for(name)  # imports the game's bot package, which registers its printer
    except ConfigError:
        return None  # an unknown game: the generic printer
    return PRINTERS.get(name)


def make_printer(game: Game, seats: Iterable[Seat] | None = None) -> GamePrinter:
    """The printer for ``game`` and an audience: ``None`` is the spectator, else the seats' union."""
    return (_printer(game.name) or GamePrinter)(game, seats)


def game_title(name: str) -> str:
    """The display name of game ``name``: its spec's title (the name itself for an unknown game)."""
    return games.spec(name).title if name in games.GAMES else name


def format_events(game: Game, events: Iterable[Event], seats: Iterable[Seat] | None = None) -> list[str]:
    """The whole record of ``events`` as lines, for the spectator (``None``) or the given seats."""
    return make_printer(game, seats).feed(events)
