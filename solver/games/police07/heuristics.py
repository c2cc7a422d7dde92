"""Hand-written move scores for Police 07, used by the heuristic bot and to explain hints.

Both functions read only a seat's view, are deterministic, and score every legal action with a
short plain-language reason; higher is better. Distances come from
:mod:`solver.games.police07.distances`, each detective piece measured over the lines it still holds
tickets for (a piece out of metro tickets cannot close in by metro).

Dr. Factor (:func:`factor_move_scores`), for a move to stop ``d``:

* ``care * (10 * min(nearest, 5) - 40 if nearest <= 1)``: distance to the nearest detective piece
  that can still ride towards ``d``, worth nothing past 5 stops, and a heavy penalty for standing
  where a detective can step next. ``care`` is 2 when the move is shown (moves 1, 3, 8, 13, 18), 1.5
  just before one, else 1: a shown stop is where the hunt converges.
* ``+ mean over detectives of min(distance, 8)``: being far from all of them, not just one.
* ``+ 2 * min(safe exits, 6)``, ``- 30`` with none: exits are neighbours of ``d`` he can still ride
  to that no detective piece can reach in one move, so he is not cornered next turn.
* ``+ 3 * log2(stops the detectives must then consider)`` on hidden moves: the possible-location set
  the move's ticket leaves them (a joker tells them least; a shown move tells them everything).
* ``- ticket cost``: taxi and bus 0, metro 3, joker 10, +3 for spending the last of a kind. A joker
  (or the water bus) thus wins only when it buys real distance or ambiguity.
* ``double`` scores the best two-move escape (its final stop judged like a single move, less both
  tickets' cost) minus 12 when he is in danger: his best single move leaves a detective adjacent,
  or no safe exit, or a detective within 2 stops around a shown move. Otherwise it scores 30 below
  the best single move: the two doubles are his emergency exits.
* ``show`` (voluntary-show variant) scores 6 above his best move when every detective is at least
  4 stops away, 40 below otherwise. ``take N kind`` prefers the ticket whose loss pushes that piece
  furthest from him, then the scarcest (a last ticket cuts a line off), then metro.
* ``place N`` (free-start variant): the stop score above.

Detectives (:func:`detective_move_scores`), with ``P`` the exact set of stops Dr. Factor may be at
(:func:`solver.games.police07.locations.possible_locations`) and ``F`` the stops he can reach from ``P`` on
his next move, for a move to stop ``d``:

* ``+ 1000 / |P|`` when ``d`` is in ``P``: the chance of a capture (certain when ``|P| = 1``).
* ``- 4 * min distance - 2 * mean distance`` from ``d`` to ``P`` (each capped at 8).
* ``+ 20 * share of F`` within one move of ``d``: where he may run, this piece can strike next.
* ``+ 6 * share of P`` that this piece is closer to than any other piece (ties count half), and
  ``- 3`` per other detective piece within one stop of ``d``: split up and encircle (rulebook,
  tactical instructions).
* ``- ticket cost``: ``6 / tickets left`` of the kind spent (a piece out of taxi tickets may be
  stuck), plus metro 3 before move 13 and 1 after (kept for quick relocation); ``+ 3`` for a metro
  station just before a shown move (tactical instructions: metro stations allow quick relocation).
* ``place N`` (free start): central stops (low mean distance to every stop), apart from the pieces
  already placed, metro stations preferred. ``pass`` (no legal move) scores 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import numpy as np
import numpy.typing as npt

from solver.core import JSON, Action, BadStateError
from solver.games.police07 import codec
from solver.games.police07.board import Board, Line
from solver.games.police07.codec import REVEALED_MOVES, Ticket
from solver.games.police07.distances import (
    UNREACHABLE,
    DistanceTable,
    detective_distances,
    line_distances,
)
from solver.games.police07.locations import possible_locations, track_factor

if TYPE_CHECKING:
    from solver.games.police07.rules import Police07Game
    from solver.games.police07.view import Police07View

#: (action, score, reason): one scored legal action.
Scored: TypeAlias = tuple[Action, float, str]
Stop: TypeAlias = int
Counts: TypeAlias = Mapping[str, "int | None"]  # ticket name -> count, None for unlimited

_FAR: Final = 8  # distances are capped here: beyond it, further is no better
_SAFE_DISTANCE: Final = 5  # Dr. Factor gains nothing from a nearest detective further than this
_MOVE_NAMES: Final = ("taxi", "bus", "metro", "joker")  # the tickets a move can spend
_DETECTIVE_LINES: Final = (Line.TAXI, Line.BUS, Line.METRO)  # ridden with taxi, bus, metro tickets
_JOKER_LINES: Final = (Line.TAXI, Line.BUS, Line.METRO, Line.WATER)
_METRO_KEPT_UNTIL: Final = 13  # detectives hold metro tickets back until this Factor move


# --- reading a view ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    """One detective piece as a view shows it."""

    piece: int
    seat: int
    stop: Stop
    tickets: Counts


def detective_pieces(view: JSON) -> list[Piece]:
    """The detective pieces of a view that stand on the board."""
    return [
        Piece(int(p["piece"]), int(p["seat"]), int(p["stop"]), dict(p["tickets"]))
        for p in view["pieces"]
        if p.get("stop")
    ]


def _has(counts: Counts, name: str) -> bool:
    n = counts.get(name)
    return n is None or n > 0


def _spend(counts: Counts, name: str) -> dict[str, int | None]:
    after = dict(counts)
    n = after.get(name)
    if n is not None and n > 0:
        after[name] = n - 1
    return after


def detective_lines(counts: Counts) -> tuple[Line, ...]:
    """The lines a detective piece holding ``counts`` can still ride."""
    # strict=False: _MOVE_NAMES also names the joker, which detectives never hold
    pairs = zip(_DETECTIVE_LINES, _MOVE_NAMES, strict=False)
    return tuple(line for line, name in pairs if _has(counts, name))


def factor_lines(counts: Counts) -> tuple[Line, ...]:
    """The lines Dr. Factor holding ``counts`` can still ride (every line with a joker)."""
    if _has(counts, "joker"):
        return _JOKER_LINES
    return detective_lines(counts)


def acting_piece(game: Police07Game, view: JSON) -> int:
    """The detective piece that acts now in a detective's view."""
    piece = view.get("piece")
    if not isinstance(piece, int) or not 1 <= piece < game.num_pieces:
        raise BadStateError(f"police07 view: no detective piece of seat {view['seat']} acts now")
    if game.piece_seat[piece] != view["seat"]:
        raise BadStateError(f"police07 view: no detective piece of seat {view['seat']} acts now")
    return piece


def public_history(view: JSON) -> list[list[Any]]:
    """Dr. Factor's own history as the detectives read it: hidden stops become ``?``."""
    out: list[list[Any]] = []
    moves = 0
    here = 0
    for piece, text in view["history"]:
        words = text.split()
        head = words[0]
        if piece != 0 or head in ("double", "take"):
            out.append([piece, text])
        elif head in ("start", "place"):
            here = int(words[-1])
            out.append([piece, text])
        elif head == "show":
            out.append([0, f"show {here}"])
        else:
            moves += 1
            here = int(words[-1])
            out.append([0, f"{head} {here if moves in REVEALED_MOVES else '?'}"])
    return out


def _near_vectors(
    board: Board, pieces: Sequence[Piece]
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """Per stop: the nearest detective piece's distance, and the mean capped distance over pieces."""
    size = board.num_stops + 1
    if not pieces:
        return np.full(size, UNREACHABLE, dtype=np.int32), np.full(size, float(_FAR))
    rows = np.stack([line_distances(board, detective_lines(p.tickets))[p.stop] for p in pieces])
    return rows.min(axis=0), np.minimum(rows, _FAR).mean(axis=0)


def _stops_word(n: int) -> str:
    return "1 stop" if n == 1 else f"{n} stops"


# --- Dr. Factor ---------------------------------------------------------------------------------
@dataclass
class _FactorContext:
    game: Police07Game
    board: Board
    here: Stop
    tickets: Counts
    move: int  # the number of the move he is about to make
    blocked: frozenset[Stop]  # detective stops
    near: npt.NDArray[np.int32]
    mean: npt.NDArray[np.float64]
    pieces: list[Piece]
    view: JSON

    def care(self, move: int) -> float:
        """How much distance matters at ``move``: most when it is shown, more just before."""
        if move in REVEALED_MOVES:
            return 2.0
        return 1.5 if move + 1 in REVEALED_MOVES else 1.0

    def exits(self, stop: Stop, tickets: Counts) -> list[Stop]:
        """Stops one move from ``stop`` with ``tickets`` that no detective stands on."""
        nbrs = self.board.neighbours
        return sorted({n for line in factor_lines(tickets) for n in nbrs[line][stop]} - self.blocked)

    def stop_score(self, stop: Stop, move: int, tickets: Counts) -> tuple[float, int, int]:
        """Score of standing on ``stop`` after ``move`` holding ``tickets``: (score, nearest, exits)."""
        nearest = int(self.near[stop])
        safe = sum(1 for n in self.exits(stop, tickets) if self.near[n] >= 2)
        score = self.care(move) * (10.0 * min(nearest, _SAFE_DISTANCE) - (40.0 if nearest <= 1 else 0.0))
        score += float(self.mean[stop]) + 2.0 * min(safe, 6) - (30.0 if safe == 0 else 0.0)
        return score, nearest, safe


def _ticket_cost(ticket: Ticket, tickets: Counts) -> float:
    name = codec.TICKET_NAMES[ticket]
    cost = {Ticket.METRO: 3.0, Ticket.JOKER: 10.0}.get(ticket, 0.0)
    if ticket != Ticket.JOKER and tickets.get(name) == 1:
        cost += 3.0  # his last ticket of a kind narrows his future options
    return cost


def _distance_text(nearest: int) -> str:
    if nearest >= UNREACHABLE:
        return "out of every detective's reach"
    if nearest <= 1:
        return "next to a detective"
    return f"keeps {_stops_word(nearest)} away from the nearest detective"


def _factor_context(game: Police07Game, view: JSON) -> _FactorContext:
    if view.get("role") != "factor":
        raise BadStateError("police07: Dr. Factor's scores need Dr. Factor's view (seat 0)")
    pieces = detective_pieces(view)
    near, mean = _near_vectors(game.board, pieces)
    factor = view["factor"]
    return _FactorContext(
        game=game, board=game.board, here=int(factor["stop"] or 0), tickets=dict(factor["tickets"]),
        move=int(factor["moves"]) + 1, blocked=frozenset(p.stop for p in pieces), near=near,
        mean=mean, pieces=pieces, view=view,
    )


def _ambiguity(ctx: _FactorContext) -> dict[Ticket, int]:
    """Per ticket: how many stops the detectives must consider after he rides it now (hidden move)."""
    if ctx.move in REVEALED_MOVES:
        return dict.fromkeys(Ticket, 1)
    public = {"history": public_history(ctx.view), "winner": None, "factor": {"stop": None}}
    current = track_factor(ctx.game, public).now
    nbrs = ctx.board.neighbours
    sizes: dict[Ticket, int] = {}
    for ticket in (Ticket.TAXI, Ticket.BUS, Ticket.METRO, Ticket.JOKER):
        lines = _JOKER_LINES if ticket == Ticket.JOKER else (Line(int(ticket)),)
        image = {n for s in current for line in lines for n in nbrs[line][s]} - ctx.blocked
        sizes[ticket] = max(1, len(image))
    return sizes


def _factor_move(
    ctx: _FactorContext, action: Action, sizes: Mapping[Ticket, int]
) -> tuple[float, str, int, int]:
    """(score, reason, nearest detective, safe exits) of one move."""
    ticket, _, stop = codec.decode_move(action)
    after = _spend(ctx.tickets, codec.TICKET_NAMES[ticket])
    score, nearest, safe = ctx.stop_score(stop, ctx.move, after)
    score -= _ticket_cost(ticket, ctx.tickets)
    parts = [_distance_text(nearest), f"{safe} safe exit{'s' if safe != 1 else ''}"]
    if ctx.move in REVEALED_MOVES:
        parts.append("shown at this move")
    else:
        hidden_among = sizes[ticket]
        score += 3.0 * math.log2(hidden_among)
        parts.append(f"hidden among {hidden_among} stops")
    return score, ", ".join(parts), nearest, safe


def _double_escape(ctx: _FactorContext, moves: Sequence[Action]) -> tuple[float, int] | None:
    """The best (score, nearest) two-move escape of a double, or None when no second move exists."""
    best: tuple[float, int] | None = None
    for first in moves:
        ticket1, _, stop1 = codec.decode_move(first)
        after1 = _spend(ctx.tickets, codec.TICKET_NAMES[ticket1])
        cost1 = _ticket_cost(ticket1, ctx.tickets)
        nbrs = ctx.board.neighbours
        for ticket2 in (Ticket.TAXI, Ticket.BUS, Ticket.METRO, Ticket.JOKER):
            name2 = codec.TICKET_NAMES[ticket2]
            if not _has(after1, name2):
                continue
            lines = _JOKER_LINES if ticket2 == Ticket.JOKER else (Line(int(ticket2)),)
            after2 = _spend(after1, name2)
            cost2 = _ticket_cost(ticket2, after1)
            for stop2 in {n for line in lines for n in nbrs[line][stop1]} - ctx.blocked:
                # judged with this move's care, so it compares fairly with the single moves
                score, nearest, _ = ctx.stop_score(stop2, ctx.move, after2)
                total = score - cost1 - cost2
                if best is None or total > best[0]:
                    best = (total, nearest)
    return best


def _take_score(ctx: _FactorContext, action: Action) -> tuple[float, str]:
    piece, t = divmod(action - codec.TAKE_BASE, 4)
    ticket = Ticket(t)
    name = codec.TICKET_NAMES[ticket]
    owner = next((p for p in ctx.pieces if p.piece == piece), None)
    if owner is None:
        return 0.0, f"takes a {name} ticket"
    count = owner.tickets.get(name)
    before = int(line_distances(ctx.board, detective_lines(owner.tickets))[owner.stop, ctx.here])
    after_lines = detective_lines(_spend(owner.tickets, name))
    after = int(line_distances(ctx.board, after_lines)[owner.stop, ctx.here])
    gain = min(after, _FAR + 1) - min(before, _FAR + 1)
    score = 10.0 * gain + (6.0 / count if count else 0.0) + (2.0 if ticket == Ticket.METRO else 0.0)
    if count == 1:
        score += 3.0
        reason = f"cuts detective {piece} off the {name}"
    else:
        reason = f"leaves detective {piece} {count - 1 if count else 0} {name} tickets"
    if gain > 0:
        reason += f", {_stops_word(gain)} further from him"
    return score, reason


def factor_move_scores(game: Police07Game, view: Police07View) -> list[Scored]:
    """Score every legal action of Dr. Factor's ``view``: (action, score, reason), in action order."""
    legal = view.legal_actions
    if not legal:
        return []
    data = view.to_json()
    ctx = _factor_context(game, data)
    out: list[Scored] = []
    if all(codec.PLACE_BASE < a < codec.PLACE_BASE + 256 for a in legal):
        for action in legal:
            stop = action - codec.PLACE_BASE
            score, nearest, safe = ctx.stop_score(stop, 0, ctx.tickets)
            out.append((action, score, f"{_distance_text(nearest)}, {safe} safe exits"))
        return out
    moves = [a for a in legal if codec.is_move(a)]
    sizes = _ambiguity(ctx) if moves else {}
    scored_moves = {a: _factor_move(ctx, a, sizes) for a in moves}
    best_single, _, best_nearest, best_safe = max(scored_moves.values(), default=(0.0, "", 0, 0))
    for action in legal:
        if action in scored_moves:
            score, reason, _, _ = scored_moves[action]
            out.append((action, score, reason))
        elif action == codec.DOUBLE:
            danger = (best_nearest <= 1 or best_safe == 0
                      or (best_nearest <= 2 and ctx.care(ctx.move) > 1.0))
            escape = _double_escape(ctx, moves) if danger else None
            if escape is None:
                out.append((action, best_single - 30.0, "not needed: a single move keeps him clear"))
            else:
                out.append((action, escape[0] - 12.0,
                            f"escapes over two moves: {_distance_text(escape[1])}"))
        elif action == codec.SHOW:
            nearest = int(ctx.near[ctx.here])
            if nearest >= 4:
                out.append((action, best_single + 6.0,
                            f"every detective is {_stops_word(min(nearest, _FAR))} or more away: "
                            "show and take a ticket from each"))
            else:
                out.append((action, best_single - 40.0,
                            f"too risky: a detective is {_stops_word(nearest)} away"))
        elif codec.TAKE_BASE <= action < codec.TAKE_BASE + 4 * (codec.MAX_PIECE + 1):
            score, reason = _take_score(ctx, action)
            out.append((action, score, reason))
        else:
            out.append((action, -1000.0, "not Dr. Factor's action"))
    return out


# --- detectives ---------------------------------------------------------------------------------
def _frontier(board: Board, possible: set[Stop], tickets: Counts, blocked: frozenset[Stop]) -> set[Stop]:
    """Stops Dr. Factor can reach from ``possible`` on his next move (``possible`` if none)."""
    nbrs = board.neighbours
    reach = {n for s in possible for line in factor_lines(tickets) for n in nbrs[line][s]} - blocked
    return reach or set(possible)


def _place_detective(board: Board, action: Action, placed: Sequence[Piece]) -> Scored:
    stop = action - codec.PLACE_BASE
    table = detective_distances(board)
    centrality = float(np.minimum(table[stop, 1:], _FAR).mean())
    apart = min((int(table[stop, p.stop]) for p in placed), default=4)
    metro = bool(board.neighbours[Line.METRO][stop])
    score = -3.0 * centrality + 2.0 * min(apart, 4) + (2.0 if metro else 0.0)
    reason = f"{centrality:.1f} stops from the average stop"
    if placed:
        reason += f", {_stops_word(apart)} from the nearest detective"
    if metro:
        reason += ", a metro station"
    return action, score, reason


def detective_move_scores(game: Police07Game, view: Police07View) -> list[Scored]:
    """Score every legal action of a detective's ``view``: (action, score, reason), in action order."""
    legal = view.legal_actions
    if not legal:
        return []
    data = view.to_json()
    if data.get("role") != "detective":
        raise BadStateError("police07: detective scores need a detective's view (seat 1 or more)")
    board = game.board
    pieces = detective_pieces(data)
    if all(codec.PLACE_BASE < a < codec.PLACE_BASE + 256 for a in legal):
        return [_place_detective(board, a, pieces) for a in legal]
    piece_no = acting_piece(game, data)
    me = next(p for p in pieces if p.piece == piece_no)
    others = [p for p in pieces if p.piece != piece_no]
    possible = possible_locations(game, data)
    p_arr = np.array(sorted(possible), dtype=np.intp)
    factor = data["factor"]
    blocked = frozenset(p.stop for p in pieces)
    frontier = _frontier(board, possible, factor["tickets"], blocked)
    f_arr = np.array(sorted(frontier), dtype=np.intp)
    if others:
        other_rows = np.stack([line_distances(board, detective_lines(p.tickets))[p.stop] for p in others])
        other_near = np.minimum(other_rows.min(axis=0), _FAR)[p_arr]
    else:
        other_near = np.full(len(p_arr), _FAR + 1)
    near_det = detective_distances(board)
    early = int(factor["moves"]) < _METRO_KEPT_UNTIL
    reveal_next = int(factor["moves"]) + 1 in REVEALED_MOVES
    out: list[Scored] = []
    for action in legal:
        if not codec.is_move(action):
            out.append((action, 0.0, "no legal move: pass"))
            continue
        ticket, _, stop = codec.decode_move(action)
        name = codec.TICKET_NAMES[ticket]
        after = _spend(me.tickets, name)
        table: DistanceTable = line_distances(board, detective_lines(after))
        to_p = np.minimum(table[stop, p_arr], _FAR)
        min_d = int(to_p.min())
        mean_d = float(to_p.mean())
        cover = int((table[stop, f_arr] <= 1).sum())
        owned = float(((to_p < other_near) + 0.5 * (to_p == other_near)).mean())
        crowd = sum(1 for p in others if near_det[stop, p.stop] <= 1)
        cost = (3.0 if early else 1.0) if ticket == Ticket.METRO else 0.0
        count = me.tickets.get(name)
        if count is not None and count > 0:
            cost += 6.0 / count  # the scarcer a kind, the dearer: a piece out of taxis may be stuck
        score = -4.0 * min_d - 2.0 * mean_d + 20.0 * cover / len(f_arr) + 6.0 * owned - cost - 3.0 * crowd
        if reveal_next and board.neighbours[Line.METRO][stop] and _has(after, "metro"):
            score += 3.0
        if stop in possible:
            score += 1000.0 / len(possible)
            if len(possible) == 1:
                reason = "catches Dr. Factor: it is the only stop he can be at"
            else:
                reason = f"lands on a possible stop (1 in {len(possible)} to catch him)"
        else:
            reason = f"closes to {_stops_word(min_d)} of the possible set"
        reason += f", covers {cover} of {len(f_arr)} stops he can reach next"
        if crowd:
            reason += f", crowds {crowd} other detective{'s' if crowd > 1 else ''}"
        out.append((action, score, reason))
    return out
