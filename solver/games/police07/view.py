"""What one Police 07 seat may know, computed from the true state by one function.

Dr. Factor (seat 0) sees everything. A detective sees every piece but his, every ticket stock (the
rulebook keeps stocks on the table), his log of ticket kinds, and his stop only when shown: at
moves 1, 3, 8, 13, 18, a voluntary show, and the end. The ``history`` list is the seat's
perfect-recall record of every action as that seat saw it, ``[piece, text]``; for detectives a
hidden move reads ``"bus ?"`` and a shown one ``"bus 118"`` (a joker never tells its line).

View JSON::

    {"game": "police07", "config": {...}, "seat": 1, "role": "detective",
     "pieces": [{"piece": 1, "seat": 1, "stop": 13, "tickets": {"taxi": 9, "bus": 9, "metro": 6}}, ...],
     "factor": {"stop": null, "tickets": {"taxi": 4, ...}, "moves": 5},
     "log": [{"move": 1, "ticket": "taxi", "stop": 7}, {"move": 2, "ticket": "bus", "stop": null}, ...],
     "history": [[0, "start 99"], [1, "start 13"], ..., [0, "bus ?"], [1, "taxi 14"], ...],
     "decision": {"seat": 1, "kind": "turn", "turn_of": 1, "prompt": "..."},
     "piece": 1,                       # the piece that acts now (null at a deal or the end)
     "legal_actions": ["taxi 14", ...],
     "winner": null, "reason": ""}

Dr. Factor's own log entries also carry ``"line"`` (which line a joker rode).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.core import JSON, Action, JSONView, Seat
from solver.games.police07 import codec

if TYPE_CHECKING:
    from solver.games.police07.rules import Police07State

_TICKETS3 = ("taxi", "bus", "metro")


def _stock(counts: list[int], names: tuple[str, ...]) -> dict[str, int | None]:
    # None marks an unlimited stock (the unlimited-tickets variant)
    return {name: (n if n >= 0 else None) for name, n in zip(names, counts, strict=False)}


def public_text(action: Action, piece: int, shown: int) -> str:
    """How the detectives read one action of ``piece`` (``shown``: the stop shown, or 0)."""
    if piece != 0:
        return codec.action_to_str(action)
    if action == codec.SHOW:
        return f"show {shown}"
    if codec.is_move(action):
        ticket, _, _ = codec.decode_move(action)
        return f"{codec.TICKET_NAMES[ticket]} {shown if shown else '?'}"
    return codec.action_to_str(action)


class Police07View(JSONView):
    """One seat's information state; equal views have equal JSON and equal ``key()``."""

    @property
    def role(self) -> str:
        """"factor" or "detective"."""
        return "factor" if self.seat == 0 else "detective"

    @property
    def history(self) -> list[list[Any]]:
        """``[piece, text]`` per action as this seat saw it."""
        history: list[list[Any]] = self._data["history"]
        return history


def build_view(state: Police07State, seat: Seat) -> Police07View:
    """Compute ``seat``'s view of ``state`` (the only place hidden facts are filtered)."""
    game = state.game
    factor = seat == 0
    over = state.winner >= 0
    pieces = [
        {"piece": p, "seat": game.piece_seat[p], "stop": state.pos[p] or None,
         "tickets": _stock(state.tickets[p], _TICKETS3)}
        for p in range(1, game.num_pieces)
    ]
    log = []
    for i, (ticket, line, stop) in enumerate(state.log):
        shown = (i + 1) in codec.REVEALED_MOVES
        entry: dict[str, Any] = {"move": i + 1, "ticket": codec.TICKET_NAMES[ticket],
                                 "stop": stop if (factor or shown) else None}
        if factor:
            entry["line"] = codec.LINE_NAMES[line]
        log.append(entry)
    if factor:
        pairs = zip(state.records, state.history, strict=True)
        history = [[p, codec.action_to_str(a)] for (p, _), a in pairs]
        factor_stop = state.pos[0] or None
    else:
        history = [[p, public_text(a, p, s)] for (p, s), a in zip(state.records, state.history, strict=True)]
        factor_stop = state.visible_at or None
    decision = state.decision()
    legal = tuple(state.legal_actions()) if decision.seat == seat else ()
    data: JSON = {
        "game": game.name,
        "config": game.config(),
        "seat": seat,
        "role": "factor" if factor else "detective",
        "pieces": pieces,
        "factor": {"stop": factor_stop, "tickets": _stock(state.tickets[0], codec.TICKET_NAMES),
                   "moves": len(state.log)},
        "log": log,
        "history": history,
        "decision": decision.to_json(),
        "piece": state.acting_piece(),
        "legal_actions": [codec.action_to_str(a) for a in legal],
        "winner": ("factor", "detectives")[state.winner] if over else None,
        "reason": state.reason,
    }
    return Police07View(game, seat, data, legal, decision)

