"""Police 07 in the terminal: the round-by-round record and a seat's view (board, tickets, log)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from bots.display import PRINTERS, GamePrinter, numbered
from solver.core import Event, Game, Seat, View
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

#: Possible-location sets up to this size are listed stop by stop; larger ones only counted.
_LIST_LOCATIONS = 20


class Police07Printer(GamePrinter):
    """Police 07: one block per round, headed by Dr. Factor's move number(s).

    Dr. Factor (seat 0) sees everything, so an audience that includes him, or the spectator, reads
    his true moves, tagged ``(hidden)`` where the detectives saw only the ticket and ``(shown)``
    where they saw the stop. The rules emit each of his moves twice (the full event for him and a
    redacted copy for the detectives); such an audience skips the copy. An audience of detectives
    reads the copy: ``Dr. Factor: bus ?``.
    """


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
        from solver.games.police07.locations import possible_locations

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


PRINTERS["police07"] = Police07Printer
