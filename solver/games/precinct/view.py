"""What one Police Precinct seat may know, computed from the true state by one function.

Public: the board (cars, support vehicles, punks, gangs, patrol officers, the murderer, every card on
the board with its Unknown Circumstances marker once revealed, the Urgent! token), the tracks, each
player's donuts, upgrades, tokens, how many police cards he holds and how many of his investigations
placed no evidence (the table counts them), the investigation stacks' sizes
and how many evidence cards each still holds (13 minus those placed: the table can count them), the
cards discarded face up, loyalty cards once shown to all, and the roll under way (dice so far).
Private: the seat's own hand (and which cards it received this turn), its own loyalty card, loyalty
cards Internal Affairs showed it, the investigation and event cards it has looked at while they stay
where it saw them, and the cards of its own investigation draw. ``history`` is the seat's record
(:meth:`ActionRecords.seat_entries`): other seats' hidden draws read ``police ?``, ``found ?``...

View JSON::

    {"game": "precinct", "config": {...}, "seat": 1, "turn_track": 12, "crime": 0, "murderer": 0,
     "turn": {"cop": 2, "seat": 2}, "cops": [{"seat": 0, "character": "Costello", "street": "...",
     "marked": true, "donuts": 0, "cards": 2, "upgrades": [], "swat": 0, "fed": 0, "out": false,
     "hospital": false, "empty": 0}, ...],
     "support": [...], "punks": [..6], "gangs": [..6], "patrol": [..6], "patrol_stock": 4,
     "punk_supply": 9, "donut_supply": 18, "board": [{"slot": 1, "card": "...", "where": "...",
     "unknown": "face down", "urgent": false, "data": 0}], "stacks": [{"deck": "crime_scene",
     "building": "Crime Scene Lot", "size": 14, "evidence": 4, "gone": false}], "placed": [..4],
     "police_deck": 30, "police_discard": {...}, "event_deck": 33, "event_discard": {...},
     "unknown_stack": 18, "unknown_discard": {...}, "upgrades_left": {...}, "loyalty": [null, "good", ...],
     "roll": {"kind": "arrest", "cop": 2, "dice": 3} | null,
     "hand": [{"card": "Air Support", "new": false}], "my_loyalty": "good", "known": {...},
     "history": [...], "decision": {...}, "legal_actions": [...], "result": 0, "reason": ""}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.core import JSON, JSONView, Seat
from solver.games.precinct.board import AT_HOOD, Slot
from solver.games.precinct.common import murderer_hood
from solver.games.precinct.content import DECKS, UNKNOWN, UPGRADES
from solver.games.precinct.eventcards import unknown_stack, where_name

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState


class PrecinctView(JSONView):
    """One seat's information state; equal views have equal JSON and equal ``key()``."""


def _counts(names: tuple[str, ...], counts: list[int]) -> dict[str, int]:
    return {names[k]: c for k, c in enumerate(counts) if c}


def _slot_json(st: PrecinctState, e: int, slot: Slot) -> JSON:
    card = st.game.content.events[slot.card]
    if slot.building:
        where = slot.building
    elif slot.at == AT_HOOD:
        where = f"Bad Hood {slot.where}"
    else:
        where = where_name(st, slot.at, slot.where)
    unknown = {-1: None, -2: "face down"}[slot.unknown] if slot.unknown < 0 else UNKNOWN[slot.unknown]
    return {"slot": e + 1, "card": card.name, "where": where, "unknown": unknown,
            "urgent": st.urgent == e, "data": slot.data}


def _roll_json(st: PrecinctState, seat: Seat) -> JSON | None:
    ctx = st.ctx
    if not ctx:
        return None
    out: dict[str, Any] = {"kind": ctx["kind"], "cop": ctx["cop"]}
    for key in ("n", "deck", "hood", "slot", "target", "sabotage"):
        if key in ctx:
            out[key] = ctx[key]
    if "donors" in ctx:
        out["donors"] = [list(d) for d in ctx["donors"]]
    if "cards" in ctx and st.cops[ctx["cop"]].seat == seat:  # the investigator's own draw
        out["cards"] = list(ctx["cards"])
    return out


def _known(st: PrecinctState, seat: Seat) -> JSON:
    """The looked-at cards this seat knows, where they still lie."""
    stacks = {}
    for d, s in enumerate(st.stacks):
        top = [kind if seat in who else None for kind, who in s.top]
        bottom = [kind if seat in who else None for kind, who in s.bottom]
        if any(k is not None for k in top + bottom):
            stacks[DECKS[d]] = {"top": top, "bottom": bottom}
    names = st.game.event_names
    events = {
        "top": [names[k] if seat in who else None for k, who in st.event_top],
        "bottom": [names[k] if seat in who else None for k, who in st.event_bottom],
    }
    return {"stacks": stacks, "events": events,
            "loyalty": {str(p): ("dirty" if st.loyalty[p] else "good") for p in sorted(st.peeks[seat])}}


def _cops_json(st: PrecinctState) -> list[JSON]:
    game = st.game
    streets = game.city.streets
    chars = game.content.characters
    return [{"seat": c.seat, "character": chars[c.char].name, "street": streets[c.street],
             "marked": c.marked, "donuts": c.donuts, "cards": len(c.hand),
             "upgrades": [UPGRADES[u] for u in c.upgrades], "swat": c.swat, "fed": c.fed, "out": c.out,
             "hospital": c.hospital, "empty": c.empty} for c in st.cops]


def _hand_json(st: PrecinctState, seat: Seat) -> list[JSON]:
    names = st.game.police_names
    return [{"cop": i, "card": names[k], "new": f}
            for i, c in enumerate(st.cops) if c.seat == seat for k, f in zip(c.hand, c.fresh, strict=True)]


def _stacks_json(st: PrecinctState) -> list[JSON]:
    return [{"deck": DECKS[d], "building": s.building, "size": s.size, "evidence": s.evidence,
             "gone": s.gone} for d, s in enumerate(st.stacks)]


def _loyalty_json(st: PrecinctState) -> list[str | None]:
    return [("dirty" if st.loyalty[p] else "good") if st.revealed[p] else None for p in range(st.n)]


def _my_loyalty(st: PrecinctState, seat: Seat) -> str | None:
    return ("dirty" if st.loyalty[seat] else "good") if st.dealt > seat else None


def board_data(st: PrecinctState, seat: Seat) -> dict[str, Any]:
    """``seat``'s view JSON less ``history`` and ``legal_actions``: what a policy reads to decide.

    The view's history is the seat's whole record, rebuilt at every call; a search's playouts read
    this part only (the public tallies they need, such as each cop's empty investigations, are
    fields of the board), which is most of the cost of a heuristic decision saved.
    """
    game = st.game
    city = game.city
    return {
        "game": game.name,
        "config": game.config(),
        "seat": seat,
        "turn_track": st.turn_track,
        "crime": st.crime,
        "murderer": murderer_hood(st),
        "turn": {"cop": st.cop_index, "seat": st.cop.seat} if st.order else None,
        "cops": _cops_json(st),
        "support": [city.streets[s] for s in st.support],
        "punks": list(st.punks),
        "gangs": [game.gang_names[g] if g >= 0 else None for g in st.gangs],
        "patrol": list(st.patrol),
        "patrol_stock": st.patrol_stock,
        "punk_supply": st.punk_supply,
        "donut_supply": st.donut_supply,
        "board": [_slot_json(st, e, s) for e, s in enumerate(st.slots) if s is not None],
        "stacks": _stacks_json(st),
        "placed": list(st.placed),
        "police_deck": sum(st.police),
        "police_discard": _counts(game.police_names, st.police_discard),
        "event_deck": sum(st.events_left) + len(st.event_top) + len(st.event_bottom),
        "event_discard": _counts(game.event_names, st.event_discard),
        "unknown_stack": unknown_stack(st),
        "unknown_discard": _counts(UNKNOWN, st.unknown_discard),
        "upgrades_left": _counts(UPGRADES, st.upgrades_left),
        "loyalty": _loyalty_json(st),
        "underground": list(st.underground),
        "roll": _roll_json(st, seat),
        "hand": _hand_json(st, seat),
        "my_loyalty": _my_loyalty(st, seat),
        "known": _known(st, seat),
        "decision": st.decision().to_json(),
        "result": st.result,
        "reason": st.reason,
    }


#: the keys of :func:`board_data` that :func:`policy_data` leaves out (no playout policy reads them)
POLICY_OMITS = frozenset({"game", "config", "crime", "punk_supply", "donut_supply", "police_deck",
                          "police_discard", "event_deck", "event_discard", "unknown_stack",
                          "unknown_discard", "upgrades_left", "underground", "result", "reason"})


def policy_data(st: PrecinctState, seat: Seat) -> dict[str, Any]:
    """:func:`board_data` less :data:`POLICY_OMITS` and with ``known`` reduced to the events the seat
    has looked at: the part the ``heuristic`` bot reads, for a search's playouts.

    Each of a search's playout decisions builds one of these (~30 per iteration); the card tallies,
    the supplies and the looked-at investigation cards and loyalty cards are a third of the board
    data's cost and the heuristic reads none of them. Every value here equals board data's.
    """
    game = st.game
    city = game.city
    names = game.event_names
    return {
        "seat": seat,
        "turn_track": st.turn_track,
        "murderer": murderer_hood(st),
        "turn": {"cop": st.cop_index, "seat": st.cop.seat} if st.order else None,
        "cops": _cops_json(st),
        "support": [city.streets[s] for s in st.support],
        "punks": list(st.punks),
        "gangs": [game.gang_names[g] if g >= 0 else None for g in st.gangs],
        "patrol": list(st.patrol),
        "patrol_stock": st.patrol_stock,
        "board": [_slot_json(st, e, s) for e, s in enumerate(st.slots) if s is not None],
        "stacks": _stacks_json(st),
        "placed": list(st.placed),
        "loyalty": _loyalty_json(st),
        "roll": _roll_json(st, seat),
        "hand": _hand_json(st, seat),
        "my_loyalty": _my_loyalty(st, seat),
        "known": {"events": {"top": [names[k] if seat in who else None for k, who in st.event_top]}},
        "decision": st.decision().to_json(),
    }


def build_view(st: PrecinctState, seat: Seat) -> PrecinctView:
    """Compute ``seat``'s view of ``st`` (the only place hidden facts are filtered)."""
    decision = st.decision()
    legal = tuple(st.legal_actions()) if decision.seat == seat else ()
    data = board_data(st, seat)
    data["history"] = st.seat_entries(seat)
    data["legal_actions"] = [st.game.action_to_str(a) for a in legal]
    return PrecinctView(st.game, seat, data, legal, decision)
