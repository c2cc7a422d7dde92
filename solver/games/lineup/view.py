"""What one LineUp seat may know, computed from the true state by one function.

Public: every pawn, Lineup Count, how many face-down Suspect cards each seat holds and from which
scene (everyone saw where they were drawn), every face-up card, deck sizes, Lucky Break hand sizes,
the die, every lineup once it stands (the suspects face the table) and its result. Private: the
seat's own Lucky Break cards. Momentary: while the seat's own ``study`` decision is pending (after a
scene draw or an Another Look card), ``studying`` shows that card's features; at no other time does
any view hold the identity of a face-down card, the seat's own included [At a Crime Scene]: "You
have five seconds to study the suspect's face ... Place the Suspect card face down". Remembering it
is the player's (the bot's) business.

``history`` is the seat's record: one entry per action, ``[actor, text, events]``, where ``text`` is
the action as this seat saw it (``"draw bakery ?"``, ``"innocent ?"``, ``"guilty ?"`` for everyone;
``"lucky ?"`` for the other seats) and ``events`` the events of that action it may see.

View JSON::

    {"game": "lineup", "config": {...}, "seat": 1, "turn": 9, "active": 0, "phase": "move", "die": 4,
     "players": [{"seat": 0, "space": 12, "count": 5, "held": ["bakery"], "identified": ["bank-03"],
                  "lucky": 1}, ...],
     "hand": ["hinder"],
     "decks": {"bakery": {"unseen": 11, "returned": 3}, ...}, "lucky_deck": {"unseen": 20, "returned": 2},
     "studying": {"held": 2, "scene": "wharf", "card": "wharf-07", "features": {"hair": "curly", ...}},
     "lineup": {"seat": 0, "scene": "bank", "size": 5, "stands": [{"card": "bank-01", "features": {...}},
                                                                   ...]},   # stands null until set up
     "history": [[0, "roll", [...]], [-1, "die 4", [...]], ...],
     "decision": {...}, "legal_actions": ["move 12", ...],
     "winner": null, "reason": ""}                  # "seat 2", or "nobody", at the end
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import JSON, JSONView, Seat
from solver.games.lineup.content import LUCKY_NAMES
from solver.games.lineup.turn import PHASE_NAMES, Phase

if TYPE_CHECKING:
    from solver.games.lineup.rules import LineUpState


class LineUpView(JSONView):
    """One seat's information state; equal views have equal JSON and equal ``key()``."""


def card_json(st: LineUpState, scene: int, card: int) -> JSON:
    """A Suspect card as shown face up: its id and features."""
    game = st.game
    entry = game.suspects.scenes[st.scene_name(scene)][card]
    return {"card": entry.id, "features": game.suspects.features_of(entry)}


def build_view(st: LineUpState, seat: Seat) -> LineUpView:
    """Compute ``seat``'s view of ``st`` (the only place hidden facts are filtered)."""
    game = st.game
    players = [
        {
            "seat": s,
            "space": st.pos[s],
            "count": st.count[s],
            "held": [st.scene_name(scene) for scene, _ in st.held[s]],
            "identified": [st.card_name(scene, card) for scene, card in st.identified[s]],
            "lucky": sum(st.hand[s]),
        }
        for s in range(st.n)
    ]
    studying = None
    if st.phase == Phase.STUDY and st.active == seat:
        scene, card = st.held[seat][st.studying]
        studying = {"held": st.studying + 1, "scene": st.scene_name(scene), **card_json(st, scene, card)}
    lineup = None
    if st.phase in (Phase.INNOCENT, Phase.GUILTY, Phase.PICK):
        stands = [card_json(st, st.scene, c) for c in st.stands] if st.phase == Phase.PICK else None
        lineup = {"seat": st.active, "scene": st.scene_name(st.scene), "size": st.size, "stands": stands}
    history = st.seat_entries(seat)
    decision = st.decision()
    legal = tuple(st.legal_actions()) if decision.seat == seat else ()
    data: JSON = {
        "game": game.name,
        "config": game.config(),
        "seat": seat,
        "turn": st.turn,
        "active": st.active,
        "phase": PHASE_NAMES[st.phase],
        "die": st.die or None,
        "players": players,
        "hand": [LUCKY_NAMES[k] for k, c in enumerate(st.hand[seat]) for _ in range(c)],
        "decks": {
            st.scene_name(s): {"unseen": len(st.unseen[s]), "returned": len(st.returned[s])}
            for s in range(len(st.unseen))
        },
        "lucky_deck": {"unseen": sum(st.lucky_unseen), "returned": sum(st.lucky_returned)},
        "studying": studying,
        "lineup": lineup,
        "history": history,
        "decision": decision.to_json(),
        "legal_actions": [game.action_to_str(a) for a in legal],
        "winner": _winner(st),
        "reason": st.reason,
    }
    return LineUpView(game, seat, data, legal, decision)


def _winner(st: LineUpState) -> str | None:
    """``"seat 2"``, ``"nobody"`` for a game nobody could win any more, None while playing."""
    if st.phase != Phase.OVER:
        return None
    return f"seat {st.winner}" if st.winner >= 0 else "nobody"
