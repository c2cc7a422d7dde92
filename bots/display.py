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

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from solver.core import Event, Game, Seat, View
from solver.games.gcbc.deal import INTEGRITY_NAMES, team_of
from solver.games.police07.codec import REVEALED_MOVES
from solver.games.police07.events import (
    DetectiveMoved,
    DetectivePassed,
    DoubleMoveAnnounced,
    FactorMoved,
    FactorShown,
    GameOver,
    PiecePlaced,
    TicketTaken,
)

if TYPE_CHECKING:
    from solver.games.police07.rules import Police07Game

#: Width of a column in a numbered list of moves.
_COLUMN = 22
#: Possible-location sets up to this size are listed stop by stop; larger ones only counted.
_LIST_LOCATIONS = 20


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
    title: ClassVar[str] = ""

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


class Police07Printer(GamePrinter):
    """Police 07: one block per round, headed by Dr. Factor's move number(s).

    Dr. Factor (seat 0) sees everything, so an audience that includes him, or the spectator, reads
    his true moves, tagged ``(hidden)`` where the detectives saw only the ticket and ``(shown)``
    where they saw the stop. The rules emit each of his moves twice (the full event for him and a
    redacted copy for the detectives); such an audience skips the copy. An audience of detectives
    reads the copy: ``Dr. Factor: bus ?``.
    """

    title = 'Police 07 ("Where is Dr. Factor?")'

    def __init__(self, game: Game, seats: Iterable[Seat] | None = None) -> None:
        super().__init__(game, seats)
        self.full = self.seats is None or 0 in self.seats
        piece_seat: tuple[Seat, ...] = getattr(game, "piece_seat", ())
        self.piece_seat = piece_seat
        # With one piece per seat "detective 2" says it all; otherwise name the seat too.
        self.shared_seats = len(set(piece_seat[1:])) < len(piece_seat[1:])
        self.free_start = bool(getattr(game, "free_start", False))
        self._setup_started = False
        self._moves_seen = 0
        self._double_left = 0  # Factor moves still to come in the current double
        # Show, takes and the double announcement come before the move that heads the round; they
        # wait here until that move (or the end) tells which move numbers the round covers.
        self._preamble: list[str] = []
        self._double_announced = False

    # --- names ------------------------------------------------------------------------------
    def piece_name(self, piece: int) -> str:
        """"Dr. Factor" or "Detective 3" (with its seat when seats play several pieces)."""
        if piece == 0:
            return "Dr. Factor"
        if self.shared_seats and piece < len(self.piece_seat):
            return f"Detective {piece} (seat {self.piece_seat[piece]})"
        return f"Detective {piece}"

    def seat_name(self, seat: Seat) -> str:
        """"Dr. Factor", "detective 2" or "detectives 1 and 2" (the pieces that seat plays)."""
        if seat == 0:
            return "Dr. Factor"
        pieces = [str(p) for p, s in enumerate(self.piece_seat) if s == seat and p > 0]
        if len(pieces) == 1:
            return f"detective {pieces[0]}"
        return "detectives " + ", ".join(pieces[:-1]) + " and " + pieces[-1]

    # --- events -----------------------------------------------------------------------------
    def sees(self, event: Event) -> bool:
        """Visibility, minus the detectives' redacted copies of moves this audience sees in full."""
        if not super().sees(event):
            return False
        return not (
            self.full and event.visible_to is not None and 0 not in event.visible_to
        )

    def render(self, event: Event) -> list[str]:
        """Lines for one Police 07 event."""
        if isinstance(event, PiecePlaced):
            return self._placed(event)
        if isinstance(event, FactorShown):
            self._preamble.append(f"  Dr. Factor shows himself at {event.stop} (voluntarily)")
            return []
        if isinstance(event, TicketTaken):
            self._preamble.append(f"  Dr. Factor takes a {event.ticket} ticket from detective {event.piece}")
            return []
        if isinstance(event, DoubleMoveAnnounced):
            self._double_announced = True
            self._preamble.append("  Dr. Factor plays a double-move ticket")
            return []
        if isinstance(event, FactorMoved):
            return self._factor_moved(event)
        if isinstance(event, DetectiveMoved):
            return [f"  {self.piece_name(event.piece)}: {event.ticket} {event.stop}"]
        if isinstance(event, DetectivePassed):
            return [f"  {self.piece_name(event.piece)}: passes (no legal move)"]
        if isinstance(event, GameOver):
            return self._game_over(event)
        return super().render(event)

    def _placed(self, event: PiecePlaced) -> list[str]:
        lines = []
        if not self._setup_started:
            self._setup_started = True
            lines = ["", "Start"]
        verb = "chooses" if self.free_start else "starts at"
        lines.append(f"  {self.piece_name(event.piece)} {verb} {event.stop}")
        return lines

    def _round_header(self, first_move: int) -> list[str]:
        if self._double_announced:
            header = f"Moves {first_move}-{first_move + 1}"
            self._double_left = 2
        else:
            header = f"Move {first_move}"
        self._double_announced = False
        lines = ["", header, *self._preamble]
        self._preamble = []
        return lines

    def _factor_moved(self, event: FactorMoved) -> list[str]:
        self._moves_seen += 1
        lines = [] if self._double_left == 1 else self._round_header(event.move)
        in_double = self._double_left > 0
        self._double_left = max(0, self._double_left - 1)
        if event.stop is None:
            text = f"{event.ticket} ?"
        elif event.line is None:  # the detectives' copy of a shown move: no line for a joker
            text = f"{event.ticket} {event.stop}"
        elif event.ticket == "joker":
            text = f"joker {event.line} {event.stop}"
        else:
            text = f"{event.ticket} {event.stop}"
        tags = [f"move {event.move}"] if in_double else []
        if event.shown:
            tags.append("shown")
        elif event.stop is not None:
            tags.append("hidden")
        suffix = f" ({', '.join(tags)})" if tags else ""
        lines.append(f"  Dr. Factor: {text}{suffix}")
        return lines

    def _game_over(self, event: GameOver) -> list[str]:
        lines = []
        if self._preamble:
            lines.extend(self._round_header(self._moves_seen + 1))
        lines.append("")
        if event.winner == "detectives":
            winner = "the detectives"
        else:
            winner = "Dr. Factor"
            lines.append(f"Dr. Factor shows himself: he is at {event.factor_stop}.")
        self.winner_line = f"Winner: {winner} — {event.reason}"
        lines.append(self.winner_line)
        return lines

    # --- a seat's view ----------------------------------------------------------------------
    def describe_view(self, view: View) -> list[str]:
        """The board as ``view.seat`` knows it, and the numbered legal moves."""
        data = view.to_json()
        seat = view.seat
        lines = [f"Your turn: {view.decision.prompt}"]
        pieces: list[dict[str, Any]] = data["pieces"]
        factor: dict[str, Any] = data["factor"]
        mine = [p for p in pieces if p["seat"] == seat]
        others = [p for p in pieces if p["seat"] != seat]
        if seat == 0:
            lines.append(f"  You are at {factor['stop']}; your tickets: {_tickets(factor['tickets'])}")
        for p in mine:
            lines.append(
                f"  Your detective {p['piece']} is at {p['stop']}; tickets: {_tickets(p['tickets'])}"
            )
        if others:
            lines.append("  " + ("Detectives" if seat == 0 else "Other detectives") + ":")
            for p in others:
                lines.append(f"    detective {p['piece']} at {p['stop']} ({_tickets(p['tickets'])})")
        log: list[dict[str, Any]] = data["log"]
        if seat != 0:
            lines.append(f"  Dr. Factor's tickets: {_tickets(factor['tickets'])}")
            shown = [e for e in log if e["stop"] is not None]
            if factor["stop"] is not None:
                lines.append(f"  Dr. Factor is showing himself at {factor['stop']}")
            elif shown:
                lines.append(f"  Dr. Factor was last seen at {shown[-1]['stop']} (move {shown[-1]['move']})")
        if log:
            lines.append("  Dr. Factor's log:" if seat != 0 else "  Your log:")
            lines.extend(_log_lines(log, own=seat == 0))
        if data.get("winner") is None:
            upcoming = [m for m in sorted(REVEALED_MOVES) if m > factor["moves"]]
            if upcoming:
                whose = "Your" if seat == 0 else "Dr. Factor's"
                lines.append(f"  {whose} next compulsory appearance: move {upcoming[0]}")
            if seat != 0:
                lines.extend(self._possible(view, data))
        lines.append("  Legal moves:")
        lines.extend(numbered([self.game.action_to_str(a) for a in view.legal_actions]))
        return lines

    def _possible(self, view: View, data: dict[str, Any]) -> list[str]:
        # Imported here: the belief module pulls in the rules, which a printer of events never needs.
        from solver.belief.locations import possible_locations

        game: Police07Game = view.game  # type: ignore[assignment]  # a Police07View's game
        stops = sorted(possible_locations(game, data))
        if not stops:
            return []
        listed = ": " + " ".join(str(s) for s in stops) if len(stops) <= _LIST_LOCATIONS else ""
        noun = "stop" if len(stops) == 1 else "stops"
        return [f"  Dr. Factor can be at {len(stops)} {noun}{listed}"]


def _tickets(stock: dict[str, int | None]) -> str:
    # None marks an unlimited stock (the unlimited-tickets variant).
    return ", ".join(f"{name} {'unlimited' if n is None else n}" for name, n in stock.items())


def _log_lines(log: list[dict[str, Any]], own: bool) -> list[str]:
    cells = []
    for entry in log:
        if entry["stop"] is None:
            where = "?"
        elif own and entry["ticket"] == "joker":
            where = f"{entry.get('line', '?')} {entry['stop']}"
        else:
            where = str(entry["stop"])
        # His own log holds every stop; mark the ones the detectives were shown.
        shown = " (shown)" if own and entry["move"] in REVEALED_MOVES else ""
        cells.append(f"{entry['move']}: {entry['ticket']} {where}{shown}")
    per_line = 4 if own else 6
    return ["    " + " | ".join(cells[i : i + per_line]) for i in range(0, len(cells), per_line)]


class GCBCPrinter(GamePrinter):
    """Good Cop Bad Cop: one block per turn, each event once, secrets only for those who know them.

    The rules emit a private fact twice (see ``GCBCState.split``): the full event for the seats that
    know it and a copy with the secret set to None for the others. An audience of seats reads the
    full event when one of its seats knows it, else the copy; the spectator is nobody at the table,
    so it reads the copies only ("seat 0 looks at seat 3's card 2") and the public events, until the
    end shows every card. A :class:`~solver.games.gcbc.events.CardReceived` has no copy: only its
    receiver reads it.
    """

    title = "Good Cop Bad Cop"

    def __init__(self, game: Game, seats: Iterable[Seat] | None = None) -> None:
        super().__init__(game, seats)
        self.audience: frozenset[Seat] = self.seats or frozenset()
        self._setup_said = False

    def sees(self, event: Event) -> bool:
        """Public events; a secret's full event when the audience knows it, else its copy."""
        known = event.visible_to
        if known is None:
            return True
        if _secret_hidden(event):  # the copy: shown unless an audience seat reads the full event
            return self.audience <= known
        return bool(self.audience & known)

    def render(self, event: Event) -> list[str]:
        """Lines for one Good Cop Bad Cop event."""
        e = event.to_json()
        kind = e["kind"]
        if kind in ("IntegrityDealt", "Arranged", "EquipmentDrawn") and self._is_setup(e):
            return self._setup(e)
        if kind == "TurnStarted":
            return ["", f"Turn {e['turn']}: seat {e['seat']}"]
        if kind == "GameOver":
            return self._game_over(e)
        text = _LINES.get(kind)
        if text is None:
            return super().render(event)
        return ["  " + text(e)]

    @staticmethod
    def _is_setup(e: dict[str, Any]) -> bool:
        return e["kind"] == "IntegrityDealt" or e.get("why") in ("setup", "deal")

    def _setup(self, e: dict[str, Any]) -> list[str]:
        lines = []
        if not self._setup_said:
            self._setup_said = True
            lines = ["", "Set-up", "  Integrity cards and one Equipment card each are dealt face down"]
        seat = e["seat"]
        if e["kind"] == "IntegrityDealt" and e["cards"] is not None:
            lines.append(f"  seat {seat} is dealt {', '.join(e['cards'])}")
        elif e["kind"] == "EquipmentDrawn" and e["card"] is not None:
            lines.append(f"  seat {seat} is dealt Equipment: {e['card']}")
        elif e["kind"] == "Arranged" and e["cards"] is not None:
            lines.append(f"  seat {seat} lays its cards out as {_layout(e['cards'])}")
        return lines

    def _game_over(self, e: dict[str, Any]) -> list[str]:
        lines = ["", "The cards:"]
        lines += [f"  seat {s}: {', '.join(cards)}" for s, cards in enumerate(e["cards"])]
        seats = ", ".join(str(s) for s in e["winners"])
        if e["winner"] == "solo":
            who = f"seat {seats} alone"
        else:
            who = f"the {e['winner']} team (seat{'s' if len(e['winners']) != 1 else ''} {seats})"
        self.winner_line = f"Winner: {who} — {e['reason']}"
        return [*lines, "", self.winner_line]

    def describe_view(self, view: View) -> list[str]:
        """The table as ``view.seat`` knows it: its cards and Equipment, every seat, its looks."""
        data = view.to_json()
        me = view.seat
        lines = [f"Seat {me}: {view.decision.prompt.removeprefix(f'seat {me}: ')}"]
        if len(view.legal_actions) == 1:  # a window with nothing to play: no need for the table
            return lines
        mine = data["players"][me]
        cards = [f"{p} {c['card']} ({'up' if c['face_up'] else 'down'})" for p, c in enumerate(mine["cards"])]
        team = team_of([INTEGRITY_NAMES.index(c["card"]) for c in mine["cards"]], mine["inverted"])
        lines.append(f"  Your Integrity cards: {', '.join(cards)} (you are on the {team} team)")
        equipment = getattr(self.game, "equipment", None)  # a GCBCGame's cards (any content file)
        texts = {c.id: c.text for c in equipment.cards} if equipment is not None else {}
        for card in data["hand"]:
            lines.append(f"  Your Equipment: {card} — {texts.get(card, '')}")
        lines.append("  The table:")
        for p in data["players"]:
            lines.append("    " + _seat_line(p, me))
        looks = [f"seat {s} card {pos}: {card}" for _, s, pos, card in data["investigated"]]
        if looks:
            lines.append(f"  You looked at: {'; '.join(looks)}")
        deck = data["deck"]
        order = "seat numbers up" if data["direction"] == 1 else "seat numbers down"
        lines.append(
            f"  Guns in the centre: {data['guns_centre']}; Equipment deck: {deck['unseen']} unseen, "
            f"{len(deck['bottom'])} returned; turn order: {order}"
        )
        lines.append("  Legal moves:")
        lines.extend(numbered([self.game.action_to_str(a) for a in view.legal_actions]))
        return lines


def _secret_hidden(e: Event) -> bool:
    """True for the redacted copy of a private event (its secret field is None)."""
    data = e.to_json()
    return any(data.get(name, "") is None for name in ("card", "cards"))


def _layout(cards: Sequence[str]) -> str:
    return ", ".join(f"{p} {c}" for p, c in enumerate(cards))


def _seat_line(p: dict[str, Any], me: Seat) -> str:
    cards = " ".join(
        (c["card"] if c["face_up"] or p["seat"] == me else "?") + ("" if c["face_up"] else "(down)")
        for c in p["cards"]
    )
    facts = [] if p["alive"] else ["eliminated"]
    facts += ["wounded"] * p["wounded"] + ["counts inverted"] * p["inverted"]
    if p["gun"]:
        facts.append("Gun" + (f" aimed at seat {p['aim']}" if p["aim"] is not None else ""))
    if p["equipment"]:
        facts.append(f"{p['equipment']} Equipment")
    you = " (you)" if p["seat"] == me else ""
    return f"seat {p['seat']}{you}: {cards}" + (f"; {', '.join(facts)}" if facts else "")


def _target(e: dict[str, Any]) -> str:
    return "" if e.get("target") is None else f" at seat {e['target']}"


def _secret(value: str | None, known: str, unknown: str = "") -> str:
    return known.format(value) if value is not None else unknown


#: Event kind -> its line (the set-up, turns and the end have their own methods).
_LINES: dict[str, Callable[[dict[str, Any]], str]] = {
    "ActionAnnounced": lambda e: f"seat {e['seat']} announces{' again' if e['again'] else ''}: {e['action']}",
    "Investigated": lambda e: f"seat {e['by']} looks at seat {e['seat']}'s card {e['pos']}"
    + _secret(e["card"], ": {}"),
    "CardFlipped": lambda e: f"seat {e['seat']} turns card {e['pos']} face up: {e['card']}",
    "CardsRevealed": lambda e: f"seat {e['seat']} shows every card: {', '.join(e['cards'])}",
    "GunTaken": lambda e: f"seat {e['seat']} takes a Gun "
    + ("from the centre" if e["source"] == "centre" else f"from seat {e['source']}"),
    "Aimed": lambda e: f"seat {e['seat']} aims at seat {e['target']}",
    "GunReturned": lambda e: f"seat {e['seat']}'s Gun goes back to the centre",
    "Shot": lambda e: f"seat {e['by']} SHOOTS seat {e['seat']}",
    "Wounded": lambda e: f"seat {e['seat']} is a leader: wounded, not out",
    "Eliminated": lambda e: f"seat {e['seat']} is eliminated ({e['reason']})",
    "EquipmentPlayed": lambda e: f"seat {e['seat']} plays {e['card']}{_target(e)}",
    "EquipmentDrawn": lambda e: f"seat {e['seat']} draws "
    + _secret(e["card"], "{}", "an Equipment card") + f" ({e['why']})",
    "Arranged": lambda e: f"seat {e['seat']} lays its cards face down again"
    + _secret(e["cards"] and _layout(e["cards"]), " as {}"),
    "EquipmentReturned": lambda e: f"seat {e['seat']} puts "
    + _secret(e["card"], "{}", "an Equipment card") + f" at the bottom of the deck ({e['why']})",
    "EquipmentTaken": lambda e: f"seat {e['by']} takes seat {e['seat']}'s Equipment card"
    + _secret(e["card"], ": {}"),
    "EquipmentSeen": lambda e: f"seat {e['by']} looks at seat {e['seat']}'s Equipment card"
    + _secret(e["card"], ": {}"),
    "PolygraphSeen": lambda e: f"seat {e['by']} sees seat {e['seat']}'s cards"
    + _secret(e["cards"] and _layout(e["cards"]), ": {}"),
    "CardsSwapped": lambda e: f"seat {e['seat_a']}'s card {e['pos_a']} and seat {e['seat_b']}'s card "
    f"{e['pos_b']} change places",
    "CardReceived": lambda e: f"seat {e['seat']} now holds {e['card']} at position {e['pos']}",
    "Revived": lambda e: f"seat {e['seat']} is revived and keeps {e['card']}",
    "TurnOrderReversed": lambda e: "play now goes the other way",
    "ExtraTurnGranted": lambda e: f"seat {e['seat']} will take an extra turn",
    "NextTurnGiven": lambda e: f"seat {e['seat']} takes the next turn",
    "AllegianceInverted": lambda e: f"seat {e['seat']}'s Honest and Crooked cards now count "
    + ("the other way" if e["inverted"] else "as printed again"),
}


#: Game name -> its printer class. A game missing here is printed by :class:`GamePrinter`.
PRINTERS: dict[str, type[GamePrinter]] = {
    "police07": Police07Printer,
    "gcbc": GCBCPrinter,
}

# LineUp's printer lives in its own module, which subclasses GamePrinter and adds itself to
# PRINTERS. A plain module import: it works whichever of the two modules is imported first.
import bots.lineup_display  # noqa: E402, F401


def make_printer(game: Game, seats: Iterable[Seat] | None = None) -> GamePrinter:
    """The printer for ``game`` and an audience: ``None`` is the spectator, else the seats' union."""
    return PRINTERS.get(game.name, GamePrinter)(game, seats)


def game_title(name: str) -> str:
    """The display name of game ``name`` (the name itself when the game has no printer)."""
    printer = PRINTERS.get(name)
    return printer.title if printer is not None and printer.title else name


def format_events(game: Game, events: Iterable[Event], seats: Iterable[Seat] | None = None) -> list[str]:
    """The whole record of ``events`` as lines, for the spectator (``None``) or the given seats."""
    return make_printer(game, seats).feed(events)
