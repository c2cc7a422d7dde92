"""Police 07 ("Where is Dr. Factor?", Novoplast 1986): the rules as a state machine.

Rulebook sections cited as [Start] "How Do We Start the Game?", [Rules] "Rules of the Game",
[End] "End of the Game", [Var] "Tactical Instructions, Variations".

Seats and pieces. Seat 0 is Dr. Factor (piece 0); seats 1.. are detectives, each owning one or more
detective pieces numbered 1..5 in seat order. [Start]: with two players against Dr. Factor each
plays two pieces with double the tickets; we give every piece its own 9 taxi, 9 bus and 6 metro
tickets, which is that double stock kept per piece, as Scotland Yard players expect. Default pieces:
6 players 1 each (5 pieces), 5 players 1 each, 4 players 1 each, 3 players 2 each; the rulebook is
silent on 2 players, where the lone detective seat plays 4 pieces (the 3-player force, so the game
stays contestable). Any split of 1..5 pieces can be chosen with ``pieces=``.

Turn order. The start cards are dealt by chance, Dr. Factor's first [Start]. Dr. Factor moves first,
then every detective piece in seat order [Rules]. His start stop and his first move are seen (he
"takes off his piece at the second move"); moves 3, 8, 13 and 18 are shown, and his stop at the end.
Every move rides one link of the ticket's line to a stop no other piece occupies; a detective that
reaches his stop catches him [End]. A detective's spent ticket goes to Dr. Factor, who may ride it
later; his own spent tickets leave the game. A joker rides any line, the water bus included, and
only Dr. Factor holds jokers. A double-move ticket gives two moves in a row, each logged and each
subject to the reveal schedule (either may be a reveal). Detectives cannot ride the water bus.

Where the rulebook is silent we choose, as players of the genre expect:
- A detective piece with no legal move passes. If at the start of the detectives' round no piece can
  move, Dr. Factor wins [End: "cannot move any more"].
- Dr. Factor wins once his 24th move and the detectives' round after it are over [End: "at the
  latest in the 24th move"]; a move is one log entry, so a double counts twice and cannot be started
  after move 22.
- Dr. Factor with no legal move when he must move (all neighbours blocked or no usable ticket) is
  cornered and loses, as in Scotland Yard. This includes the second move of a double, so the engine
  offers ``double`` only when a first move exists and leaves it to him to look ahead. Under the
  voluntary-show variant, while he may still show, he is not cornered yet; once he has shown and
  taken his tickets (his choice of kinds), no legal move corners him.

Variants [Var], as options:
- ``voluntary_show``: at the start of any turn in which he is hidden, before moving, Dr. Factor may
  ``show`` his stop; he then takes one taxi/bus/metro ticket of his choice from every detective piece
  that has one (``take 2 bus``), and moves as usual. At most once a turn.
- ``unlimited_tickets``: detectives ride without tickets; Dr. Factor still logs a ticket kind for
  every move (taxi/bus/metro count as unlimited for him too, since no tickets reach him), while his
  two jokers and two doubles stay limited. The game then ends by capture or after move 24.
- ``free_start``: no start cards; detective pieces choose any free stop in seat order, then Dr.
  Factor chooses last (``place 42``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, Self

import numpy as np

from solver._accel import load_ext
from solver.core import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    BadStateError,
    ConfigError,
    Decision,
    DecisionKind,
    Game,
    Seat,
    State,
)
from solver.games.police07 import codec
from solver.games.police07._moves import flatten
from solver.games.police07._moves import legal_moves as _py_legal_moves
from solver.games.police07.board import Board, load_board
from solver.games.police07.codec import (
    FACTOR_TICKETS,
    LAST_MOVE,
    PASS,
    REVEALED_MOVES,
    SHOW,
    UNLIMITED,
    Ticket,
)
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
from solver.games.police07.view import Police07View, build_view, public_text

_ext = load_ext("p07moves")
_legal_moves: Callable[..., list[int]] = _ext.legal_moves if _ext is not None else _py_legal_moves

FACTOR: Final[Seat] = 0
DETECTIVE_TICKETS: Final = (9, 9, 6)
DEFAULT_PIECES: Final = {2: (4,), 3: (2, 2), 4: (1, 1, 1), 5: (1, 1, 1, 1), 6: (1, 1, 1, 1, 1)}


class Phase:
    """Where the game is; plain ints so a state copies cheaply."""

    SETUP = 0
    FACTOR = 1
    DETECTIVES = 2
    OVER = 3


WINNER_NAMES: Final = ("factor", "detectives")


@lru_cache(maxsize=8)
def _cached_board(source: str) -> Board:
    return load_board(source)


class Police07Game(Game):
    """Police 07 on a board, with a player count, a split of detective pieces and variants."""

    name = "police07"

    def __init__(
        self,
        players: int = 4,
        pieces: list[int] | tuple[int, ...] | None = None,
        voluntary_show: bool = False,
        unlimited_tickets: bool = False,
        free_start: bool = False,
        board: str = "budapest",
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
            raise ConfigError(f"police07: players must be 2..6, not {players!r}")
        split = tuple(DEFAULT_PIECES[players] if pieces is None else pieces)
        if len(split) != players - 1 or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in split
        ):
            raise ConfigError(
                f"police07: pieces must list one count >= 1 per detective seat ({players - 1}), "
                f"not {pieces!r}"
            )
        if not 1 <= sum(split) <= 5:
            raise ConfigError(f"police07: 1..5 detective pieces in all, not {sum(split)} ({list(split)})")
        for flag, value in (("voluntary_show", voluntary_show), ("unlimited_tickets", unlimited_tickets),
                            ("free_start", free_start)):
            if not isinstance(value, bool):
                raise ConfigError(f"police07: {flag} must be true or false, not {value!r}")
        if not isinstance(board, str):
            raise ConfigError(f"police07: board must be 'budapest' or a file path, not {board!r}")
        self.num_players = players
        self.pieces = split
        self.voluntary_show = voluntary_show
        self.unlimited_tickets = unlimited_tickets
        self.free_start = free_start
        self.board_source = board
        self.board = _cached_board(board)
        if not free_start and len(self.board.start_stops) < 1 + sum(split):
            raise ConfigError(
                f"police07: board {self.board.name} has {len(self.board.start_stops)} start stops, "
                f"fewer than the {1 + sum(split)} pieces"
            )
        #: piece index -> owning seat (piece 0 is Dr. Factor)
        self.piece_seat: tuple[Seat, ...] = (FACTOR,) + tuple(
            seat for seat, n in enumerate(split, start=1) for _ in range(n)
        )
        self.num_pieces = len(self.piece_seat)
        self.flat, self.offsets = flatten(self.board.neighbours)
        # The kernel reads int32 buffers; its pure twin is faster on plain lists.
        self.move_tables: tuple[Any, Any] = (
            (self.flat, self.offsets) if _ext is not None else (self.flat.tolist(), self.offsets.tolist())
        )

    def config(self) -> JSON:
        """The options as JSON (what ``solver.games.load('police07', **config)`` takes)."""
        return {
            "players": self.num_players,
            "pieces": list(self.pieces),
            "voluntary_show": self.voluntary_show,
            "unlimited_tickets": self.unlimited_tickets,
            "free_start": self.free_start,
            "board": self.board_source,
        }

    def new_initial_state(self) -> Police07State:
        """The state before the start cards are dealt (or the first free placement)."""
        return Police07State(self)

    def action_to_str(self, action: Action) -> str:
        """Notation of ``action`` (see :mod:`solver.games.police07.codec`)."""
        return codec.action_to_str(action)

    def str_to_action(self, text: str) -> Action:
        """Parse notation (``taxi 118``, ``joker water 74``, ``double``, ``show``, ``pass`` ...)."""
        return codec.str_to_action(text, self.board.num_stops)

    def resample(self, view: Any, rng: np.random.Generator, belief: Any | None = None) -> Police07State:
        """A full state consistent with ``view``: Dr. Factor's hidden path drawn from the view.

        ``belief``, when given, maps stops to weights for his current stop (see
        :func:`solver.games.police07.locations.sample_path`); otherwise every consistent stop is
        equally likely.
        """
        from solver.games.police07.locations import resample_actions

        actions = resample_actions(self, view.to_json(), rng, belief)
        state = self.new_initial_state()
        for a in actions:
            state.apply(a)
        return state

    def view_from_json(self, data: JSON) -> Police07View:
        """Rebuild and check a view: it must be one a real game could show that seat."""
        if not isinstance(data, dict):
            raise BadStateError("police07 view: expected a JSON object")
        if data.get("game") != self.name:
            raise BadStateError(f"police07 view: 'game' is {data.get('game')!r}, not 'police07'")
        if data.get("config") != self.config():
            raise BadStateError(
                f"police07 view: config {data.get('config')!r} is not this game's {self.config()!r}"
            )
        seat = data.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise BadStateError(f"police07 view: seat {seat!r} is not 0..{self.num_players - 1}")
        state = self.resample(_RawView(data), np.random.default_rng(0))
        view = state.view(seat)
        rebuilt = view.to_json()
        for key in sorted(set(rebuilt) | set(data)):
            if rebuilt.get(key) != data.get(key):
                raise BadStateError(
                    f"police07 view: field {key!r} does not follow from the history "
                    f"(given {data.get(key)!r}, expected {rebuilt.get(key)!r})"
                )
        return view


class _RawView:
    """Wraps unchecked view JSON so ``resample`` can read it during ``view_from_json``."""

    def __init__(self, data: JSON) -> None:
        self._data = data

    def to_json(self) -> JSON:
        return self._data


class Police07State(State):
    """The true position. Dr. Factor's path is in ``log``; views hide what a seat may not see."""

    game: Police07Game

    def __init__(self, game: Police07Game) -> None:
        super().__init__(game)
        n = game.num_pieces
        self.pos: list[int] = [0] * n
        unlimited = game.unlimited_tickets
        self.tickets: list[list[int]] = [
            [UNLIMITED] * 3 + list(FACTOR_TICKETS[3:]) if unlimited else list(FACTOR_TICKETS)
        ] + [[UNLIMITED] * 3 if unlimited else list(DETECTIVE_TICKETS) for _ in range(n - 1)]
        self.occupied = bytearray(game.board.num_stops + 1)  # detective pieces only
        #: Dr. Factor's moves: (ticket, line, stop)
        self.log: list[tuple[int, int, int]] = []
        #: per applied action: (piece, stop shown to detectives or 0)
        self.records: list[tuple[int, int]] = []
        self.phase = Phase.SETUP
        self.piece = 1 if game.free_start else 0
        self.double_steps = 0  # moves left in a double (2, then 1)
        self.turn_moves = 0
        self.shown_this_turn = False
        self.take_queue: list[int] = []
        self.visible_at = 0  # Dr. Factor's stop as the detectives know it now, 0 if hidden
        self.winner = -1  # 0 Dr. Factor, 1 detectives
        self.reason = ""

    # --- protocol -----------------------------------------------------------------------------
    def current_player(self) -> Seat:
        """Dr. Factor (0), a detective seat, CHANCE while start cards are dealt, or TERMINAL."""
        if self.phase == Phase.OVER:
            return TERMINAL
        if self.phase == Phase.SETUP and not self.game.free_start:
            return CHANCE
        return self.game.piece_seat[self.piece] if self.phase != Phase.FACTOR else FACTOR

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions of the piece to act (start cards at chance nodes)."""
        phase = self.phase
        if phase == Phase.FACTOR:
            if self.take_queue:
                p = self.take_queue[0]
                return [codec.take_action(p, Ticket(t)) for t in range(3) if self.tickets[p][t] > 0]
            acts = self._moves(0)
            if self.double_steps == 0 and self.turn_moves == 0:
                if self.tickets[0][Ticket.DOUBLE] > 0 and len(self.log) + 2 <= LAST_MOVE and acts:
                    acts.append(codec.DOUBLE)
                if self._can_show():
                    acts.append(SHOW)
            return acts
        if phase == Phase.DETECTIVES:
            return self._moves(self.piece) or [PASS]
        if phase == Phase.SETUP:
            if self.game.free_start:
                occ = set(self.pos)
                return [codec.PLACE_BASE + s for s in self.game.board.stops if s not in occ]
            dealt = set(self.pos)
            return [codec.START_BASE + s for s in self.game.board.start_stops if s not in dealt]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The undealt start cards, each equally likely [Start]."""
        if self.current_player() != CHANCE:
            return super().chance_outcomes()
        outcomes = self.legal_actions()
        p = 1.0 / len(outcomes)
        return [(a, p) for a in outcomes]

    def apply_unchecked(self, action: Action) -> None:
        """Apply ``action`` with no legality check (search only; an illegal action corrupts)."""
        self.history.append(action)
        if self.phase == Phase.SETUP:
            self._place(action)
        elif self.phase == Phase.FACTOR:
            self._factor_action(action)
        else:
            self._detective_action(action)

    def returns(self) -> list[float]:
        """+1 to the winning side's seats, -1 to the others; zeros before the end."""
        if self.winner < 0:
            return [0.0] * self.game.num_players
        factor = 1.0 if self.winner == 0 else -1.0
        return [factor] + [-factor] * (self.game.num_players - 1)

    def decision(self) -> Decision:
        """Who acts now and why, in words (Dr. Factor's move number, the detective piece ...)."""
        seat = self.current_player()
        if self.phase == Phase.OVER:
            return Decision(TERMINAL, DecisionKind.NONE, TERMINAL, f"game over: {self.reason}")
        if self.phase == Phase.SETUP:
            who = "Dr. Factor" if self.piece == 0 else f"detective {self.piece}"
            if seat == CHANCE:
                return Decision(CHANCE, DecisionKind.CHANCE, CHANCE, f"start card for {who}")
            return Decision(seat, DecisionKind.TURN, seat, f"{who} chooses a start stop")
        if self.phase == Phase.FACTOR:
            move = len(self.log) + 1
            if self.take_queue:
                text = f"Dr. Factor takes a ticket from detective {self.take_queue[0]}"
            elif self.double_steps == 1:
                text = f"Dr. Factor makes the second move of his double (move {move})"
            else:
                text = f"Dr. Factor moves (move {move})"
            return Decision(FACTOR, DecisionKind.TURN, FACTOR, text)
        return Decision(seat, DecisionKind.TURN, seat, f"detective {self.piece} moves (seat {seat})")

    def acting_piece(self) -> int | None:
        """The piece that acts now (0 is Dr. Factor), or None at a start-card deal or the end."""
        if self.phase == Phase.OVER or self.current_player() == CHANCE:
            return None
        return 0 if self.phase == Phase.FACTOR else self.piece

    def public_action_text(self, index: int) -> str | None:
        """``history[index]`` as the detectives read it (``"bus ?"``); Dr. Factor knows it too."""
        piece, shown = self.records[index]
        return public_text(self.history[index], piece, shown)

    def team(self, seat: Seat) -> str | None:
        """``"factor"`` for seat 0 (Dr. Factor), ``"detectives"`` for every other seat."""
        return "factor" if seat == FACTOR else "detectives"

    def view(self, seat: Seat) -> Police07View:
        """What ``seat`` knows: Dr. Factor sees everything, detectives his stop only when shown."""
        return build_view(self, seat)

    def clone(self) -> Self:
        """An independent copy."""
        other = object.__new__(type(self))
        other.game = self.game
        other.history = self.history.copy()
        other.events = self.events.copy()
        other.pos = self.pos.copy()
        other.tickets = [t.copy() for t in self.tickets]
        other.occupied = self.occupied[:]
        other.log = self.log.copy()
        other.records = self.records.copy()
        other.phase = self.phase
        other.piece = self.piece
        other.double_steps = self.double_steps
        other.turn_moves = self.turn_moves
        other.shown_this_turn = self.shown_this_turn
        other.take_queue = self.take_queue.copy()
        other.visible_at = self.visible_at
        other.winner = self.winner
        other.reason = self.reason
        return other

    # --- rules ----------------------------------------------------------------------------------
    def _moves(self, piece: int) -> list[Action]:
        t = self.tickets[piece]
        factor = piece == 0
        flat, offsets = self.game.move_tables
        return _legal_moves(
            flat,
            offsets,
            self.game.board.num_stops,
            self.pos[piece],
            t[0],
            t[1],
            t[2],
            t[3] if factor else 0,
            self.occupied,
            factor,
        )

    def _place(self, action: Action) -> None:
        stop = action % 256
        p = self.piece
        self.pos[p] = stop
        if p:
            self.occupied[stop] = 1
        self.records.append((p, stop))
        self.events.append(PiecePlaced(p, self.game.piece_seat[p], stop))
        last = self.game.num_pieces - 1
        if self.game.free_start:  # detectives 1..n in order, Dr. Factor last [Var]
            self.piece = 0 if p == last else p + 1
            done = p == 0
        else:
            self.piece = p + 1
            done = p == last
        if done:
            self.visible_at = self.pos[0]
            self._start_factor_turn()

    def _factor_action(self, action: Action) -> None:
        tickets = self.tickets[0]
        if action >= codec.TAKE_BASE:
            piece, t = divmod(action - codec.TAKE_BASE, 4)
            self.tickets[piece][t] -= 1
            tickets[t] += 1
            self.take_queue.pop(0)
            self.records.append((0, 0))
            self.events.append(TicketTaken(piece, codec.TICKET_NAMES[t]))
            self._check_cornered()
            return
        if action == SHOW:
            self.shown_this_turn = True
            self.visible_at = self.pos[0]
            self.take_queue = [
                p for p in range(1, self.game.num_pieces) if any(n > 0 for n in self.tickets[p])
            ]
            self.records.append((0, self.pos[0]))
            self.events.append(FactorShown(self.pos[0]))
            self._check_cornered()
            return
        if action == codec.DOUBLE:
            tickets[Ticket.DOUBLE] -= 1
            self.double_steps = 2
            self.records.append((0, 0))
            self.events.append(DoubleMoveAnnounced(len(self.log) + 1))
            return
        ticket, line, stop = codec.decode_move(action)
        if tickets[ticket] > 0:
            tickets[ticket] -= 1
        self.pos[0] = stop
        self.log.append((ticket, line, stop))
        move = len(self.log)
        shown = move in REVEALED_MOVES
        self.visible_at = stop if shown else 0
        self.turn_moves += 1
        self.records.append((0, stop if shown else 0))
        name = codec.TICKET_NAMES[ticket]
        line_name = codec.LINE_NAMES[line]
        self.events.append(FactorMoved(move, name, stop, line_name, shown, visible_to=frozenset({FACTOR})))
        self.events.append(
            FactorMoved(
                move, name, stop if shown else None, None, shown,
                visible_to=frozenset(range(1, self.game.num_players)),
            )
        )
        if self.double_steps == 2:
            self.double_steps = 1
            if not self._moves(0):
                self._end(1, f"Dr. Factor is cornered at {stop}: no second move for his double")
            return
        self.double_steps = 0
        self._start_detectives()

    def _detective_action(self, action: Action) -> None:
        p = self.piece
        seat = self.game.piece_seat[p]
        if action == PASS:
            self.records.append((p, 0))
            self.events.append(DetectivePassed(p, seat))
        else:
            ticket, _, stop = codec.decode_move(action)
            own = self.tickets[p]
            if own[ticket] > 0:
                own[ticket] -= 1
                if self.tickets[0][ticket] >= 0:
                    self.tickets[0][ticket] += 1  # the spent ticket goes to Dr. Factor [Rules]
            self.occupied[self.pos[p]] = 0
            self.occupied[stop] = 1
            self.pos[p] = stop
            self.records.append((p, stop))
            self.events.append(DetectiveMoved(p, seat, codec.TICKET_NAMES[ticket], stop))
            if stop == self.pos[0]:
                self._end(1, f"detective {p} caught Dr. Factor at {stop}")
                return
        if p + 1 < self.game.num_pieces:
            self.piece = p + 1
        elif len(self.log) >= LAST_MOVE:
            self._end(0, f"Dr. Factor was not caught by the end of move {LAST_MOVE}")
        else:
            self._start_factor_turn()

    def _start_factor_turn(self) -> None:
        self.phase = Phase.FACTOR
        self.piece = 0
        self.turn_moves = 0
        self.double_steps = 0
        self.shown_this_turn = False
        if not self._can_show():
            self._check_cornered()

    def _can_show(self) -> bool:
        # [Var] voluntary show: once a turn, before moving, only while he is hidden
        return (self.game.voluntary_show and not self.shown_this_turn and self.visible_at == 0
                and self.turn_moves == 0 and self.double_steps == 0)

    def _check_cornered(self) -> None:
        # Called once no show (or no more taking) can change his options: no move now is a loss.
        if not self.take_queue and not self._moves(0):
            self._end(1, f"Dr. Factor is cornered at {self.pos[0]}: no legal move")

    def _start_detectives(self) -> None:
        self.phase = Phase.DETECTIVES
        self.piece = 1
        if not any(self._moves(p) for p in range(1, self.game.num_pieces)):
            self._end(0, "no detective can move any more")

    def _end(self, winner: int, reason: str) -> None:
        self.phase = Phase.OVER
        self.winner = winner
        self.reason = reason
        self.visible_at = self.pos[0]  # he shows himself at the end [Rules]
        self.events.append(GameOver(WINNER_NAMES[winner], reason, self.pos[0]))
