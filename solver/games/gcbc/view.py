"""What one Good Cop Bad Cop seat may know, computed from the true state by one function.

A seat knows its own Integrity cards (identity and face state), every face-up card, its own
Equipment, what it investigated or was shown (Polygraph, a card it received, an Equipment card it
took or looked at), which returned Equipment cards it saw go under, and everything public: who is
alive or wounded, Guns and aims, hand sizes, the turn order, announcements and plays. Nothing else.
At the end every Integrity card is shown.

``history`` is the seat's perfect-recall record: one entry per action, ``[actor, text, events]``,
where ``text`` is the action as this seat saw it (``"draw ?"``, ``"arrange ?"``, ``"keep ?"``,
``"deal ?"``, ``"leaders ?"`` where hidden) and ``events`` the events of that action it may see.

View JSON::

    {"game": "gcbc", "config": {...}, "seat": 2, "turn": 7, "active": 4, "direction": 1,
     "players": [{"seat": 0, "alive": true, "wounded": false, "inverted": false, "gun": true,
                  "aim": 3, "equipment": 1,
                  "cards": [{"card": "honest", "face_up": true}, {"card": null, "face_up": false}, ...]},
                 ...],
     "hand": ["taser"], "guns_centre": 1,
     "deck": {"unseen": 7, "bottom": ["smoke-grenade", null]},   # returned cards, next drawn first
     "announced": "shoot", "forced_shoot": false, "extra_turns": [], "next_turn": null,
     "camera": [[3, 1]],                # cards a Surveillance Camera could expose now
     "investigated": [[5, 3, 0, "crooked"], ...],   # [history index, seat, pos, card] seen by this seat
     "history": [[-1, "leaders ?", []], ...],
     "decision": {...}, "legal_actions": ["pass", "play taser 3"],
     "winner": null, "winners": [], "reason": ""}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.core import JSON, JSONView, Seat
from solver.core.records import EventJSON
from solver.games.gcbc import ops
from solver.games.gcbc.deal import INTEGRITY_NAMES

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCState


class GCBCView(JSONView):
    """One seat's information state; equal views have equal JSON and equal ``key()``."""


def build_view(st: GCBCState, seat: Seat) -> GCBCView:
    """Compute ``seat``'s view of ``st`` (the only place hidden facts are filtered)."""
    history: list[list[Any]] = []
    investigated: list[list[Any]] = []
    history_entries(st, seat, 0, len(st.records), history, investigated)
    return view_from_history(st, seat, history, investigated)


def history_entries(st: GCBCState, seat: Seat, start: int, stop: int, history: list[list[Any]],
                    investigated: list[list[Any]], event_json: EventJSON | None = None) -> None:
    """Append ``seat``'s history entries ``start..stop-1`` to ``history`` (and its looks to
    ``investigated``); see :meth:`solver.core.records.ActionRecords.seat_entries`."""
    for i, entry in enumerate(st.seat_entries(seat, start, stop, event_json), start=start):
        investigated += [[i, e["seat"], e["pos"], e["card"]] for e in entry[2]
                         if e["kind"] == "Investigated" and e["by"] == seat]
        history.append(entry)


def view_from_history(st: GCBCState, seat: Seat, history: list[list[Any]],
                      investigated: list[list[Any]]) -> GCBCView:
    """``seat``'s view of ``st`` around its complete ``history`` and ``investigated`` lists."""
    game = st.game
    ids = game.card_ids
    # The deal is modelled as the leaders' seats first, then each seat's other cards, but at the
    # table every player receives cards at once [Preparar]: while it lasts, another seat's card count
    # would tell who holds a leader card, so only the viewer's own cards are shown.
    dealing = any(task[0] == ops.DEAL for task in st.stack)
    players = []
    for s in range(st.n):
        cards = [] if dealing and s != seat else [
            {"card": INTEGRITY_NAMES[c] if (s == seat or up) else None, "face_up": up}
            for c, up in zip(st.cards[s], st.face_up[s], strict=True)
        ] if st.face_up[s] else [
            {"card": INTEGRITY_NAMES[c] if s == seat else None, "face_up": False} for c in st.cards[s]
        ]
        players.append({
            "seat": s, "alive": st.alive[s], "wounded": st.wounded[s], "inverted": st.inverted[s],
            "gun": st.gun[s], "aim": st.aim[s] if st.aim[s] >= 0 else None,
            "equipment": len(st.hands[s]), "cards": cards,
        })
    decision = st.decision()
    legal = tuple(st.legal_actions()) if decision.seat == seat else ()
    data: JSON = {
        "game": game.name,
        "config": game.config(),
        "seat": seat,
        "turn": st.turn,
        "active": st.active if st.turn else None,
        "direction": st.direction,
        "players": players,
        "hand": [ids[c] for c in st.hands[seat]],
        "guns_centre": st.guns_centre,
        "deck": {
            "unseen": len(st.unseen),
            "bottom": [ids[c] if k is None or seat in k else None for c, k in zip(st.bottom, st.bottom_known,
                                                                                strict=True)],
        },
        "announced": game.action_to_str(st.announced) if st.announced >= 0 else None,
        "forced_shoot": st.forced_shoot,
        "extra_turns": list(st.extra_turns),
        "next_turn": st.next_turn if st.next_turn >= 0 else None,
        "camera": [[t, p] for t, p in st.camera],
        "investigated": investigated,
        "history": history,
        "decision": decision.to_json(),
        "legal_actions": [game.action_to_str(a) for a in legal],
        "winner": st.winner or None,
        "winners": list(st.winners),
        "reason": st.reason,
    }
    return GCBCView(game, seat, data, legal, decision)
