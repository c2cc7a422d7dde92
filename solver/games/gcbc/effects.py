"""The Equipment cards: when each may be played, its targets, and how it resolves [Equipo].

A card is played in a window (see :mod:`.flow`) or, for an own-action card, as the announced action.
It goes to the bottom of the deck as it is played, face up (everyone sees it), and resolves fully
before anything else happens: its choices are pushed on the to-do stack above the window. A seat over
the hand limit plays nothing, and a card with nothing to act on cannot be played.

Choices that belong to a card's player ("which card to swap") use ``pick seat.pos``; looks at
Integrity cards use ``investigate seat.pos``; choices that belong to the target (which card a Truth
Serum turns, which card a revived player keeps) are that seat's decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.gcbc import actions, codec, ops
from solver.games.gcbc.deal import INTEGRITY_NAMES
from solver.games.gcbc.equipment import Effect
from solver.games.gcbc.events import (
    Aimed,
    AllegianceInverted,
    CardReceived,
    CardsSwapped,
    EquipmentPlayed,
    EquipmentSeen,
    EquipmentTaken,
    ExtraTurnGranted,
    GunTaken,
    NextTurnGiven,
    PolygraphSeen,
    Revived,
    TurnOrderReversed,
)
from solver.games.gcbc.plays import NONE

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCState



# --- playing and resolving ------------------------------------------------------------------------------
def play(st: GCBCState, seat: int, card: int, target: int) -> None:
    """Play ``card``: it goes to the bottom face up [Equipo], then its effect resolves."""
    st.hands[seat].remove(card)
    actions.to_bottom(st, card, None)
    spec = st.game.equipment.cards[card]
    st.emit(EquipmentPlayed(seat, spec.id, None if target == NONE else target))
    investigated, st.camera = st.camera, []  # "right after an investigation" ends with any card
    effect = spec.effect
    if effect == Effect.SWAP_OWN:
        st.stack.append((ops.PICK, seat, ops.PICK_SWAP_MINE, target, -1))
    elif effect == Effect.SWAP_OTHERS:
        st.stack.append((ops.PICK, seat, ops.PICK_SWAP_FIRST, -1, -1))
    elif effect == Effect.NEXT_TURN:
        st.next_turn = target
        st.emit(NextTurnGiven(target))
    elif effect == Effect.EXTRA_TURN:
        st.extra_turns.append(seat)
        st.emit(ExtraTurnGranted(seat))
    elif effect == Effect.REVIVE:
        if len(st.cards[target]) > 1:
            st.stack.append((ops.KEEP_CARD, target))
        else:
            revive(st, target, 0)
    elif effect == Effect.TAKE_EQUIPMENT:
        taken = st.hands[target].pop()
        st.hands[seat].append(taken)
        cid = st.game.card_ids[taken]
        both = frozenset({seat, target})
        st.split(EquipmentTaken(seat, target, cid), EquipmentTaken(seat, target, None), both)
        actions.hand_limit(st, seat)
    elif effect == Effect.REARRANGE:
        st.stack.append((ops.ARRANGE, seat, ops.FLASHBANG))
    elif effect == Effect.SEE_EQUIPMENT:
        cid = st.game.card_ids[st.hands[target][0]]
        both = frozenset({seat, target})
        st.split(EquipmentSeen(seat, target, cid), EquipmentSeen(seat, target, None), both)
    elif effect == Effect.DISARM:
        actions.return_gun(st, target)
    elif effect == Effect.INVESTIGATE_ARMED:
        holders = [t for t in _turn_order(st, seat) if t != seat and st.alive[t] and st.gun[t]]
        st.stack += [(ops.PICK, seat, ops.PICK_METAL, t, -1) for t in reversed(holders)]
    elif effect == Effect.RE_AIM:
        st.stack.append((ops.REAIM, seat, target))
    elif effect == Effect.INVERT:
        st.inverted[target] = not st.inverted[target]
        st.emit(AllegianceInverted(target, st.inverted[target]))
    elif effect == Effect.POLYGRAPH:
        _polygraph(st, seat, target)
        _polygraph(st, target, seat)
    elif effect == Effect.AUDIT:
        audited = [t for t in _turn_order(st, seat)
                   if st.alive[t] and not any(st.face_up[t]) and st.cards[t]]
        st.stack += [(ops.FLIP, t, ops.FLIP_AUDIT) for t in reversed(audited)]
    elif effect == Effect.REDIRECT_SHOT:
        st.stack.append((ops.AIM, st.active, ops.AIM_RESTRAIN, st.aim[st.active]))
    elif effect == Effect.REVERSE:
        st.direction = -st.direction
        st.emit(TurnOrderReversed(st.direction))
    elif effect == Effect.EXPOSE_INVESTIGATED:
        spots = [p for t, p in investigated if t == target and not st.face_up[t][p]]
        if len(set(spots)) == 1:
            actions.flip(st, target, spots[0])
        else:
            mask = sum(1 << p for p in set(spots))
            st.stack.append((ops.PICK, seat, ops.PICK_CAMERA, target, mask))
    elif effect == Effect.TAKE_GUN:
        st.gun[target], st.aim[target] = False, -1
        st.gun[seat] = True
        st.emit(GunTaken(seat, str(target)))
        st.stack.append((ops.AIM, seat, ops.AIM_TASER, -1))  # aim at once [Armas]
    elif effect == Effect.REVEAL_ONE:
        st.stack.append((ops.FLIP, target, ops.FLIP_SERUM))
    elif effect == Effect.INVESTIGATE_TWO_CARDS:
        st.stack.append((ops.PICK, seat, ops.PICK_WIRE_CARDS, target, -1))
    elif effect == Effect.INVESTIGATE_TWO_PLAYERS:
        st.stack.append((ops.PICK, seat, ops.PICK_WIRE_FIRST, -1, -1))


def _turn_order(st: GCBCState, start: int) -> list[int]:
    return [(start + i * st.direction) % st.n for i in range(st.n)]


def _polygraph(st: GCBCState, viewer: int, seat: int) -> None:
    seen = actions.names(st.cards[seat])
    st.split(PolygraphSeen(viewer, seat, seen), PolygraphSeen(viewer, seat, None), frozenset({viewer}))


def revive(st: GCBCState, seat: int, keep: int) -> None:
    """Defibrillator: back in the game with one face-up card, which alone sets the team (a Planted
    Evidence marker is removed); the other cards leave the game."""
    card = st.cards[seat][keep]
    st.cards[seat] = [card]
    st.face_up[seat] = [True]
    st.alive[seat] = True
    st.emit(Revived(seat, keep, INTEGRITY_NAMES[card]))
    if st.inverted[seat]:
        st.inverted[seat] = False
        st.emit(AllegianceInverted(seat, False))


def swap(st: GCBCState, a: int, pa: int, b: int, pb: int) -> None:
    """Two Integrity cards change places, each keeping its face state; each new holder sees its card."""
    st.cards[a][pa], st.cards[b][pb] = st.cards[b][pb], st.cards[a][pa]
    st.face_up[a][pa], st.face_up[b][pb] = st.face_up[b][pb], st.face_up[a][pa]
    st.emit(CardsSwapped(a, pa, b, pb))
    for seat, pos in ((a, pa), (b, pb)):
        st.emit(CardReceived(seat, pos, INTEGRITY_NAMES[st.cards[seat][pos]], visible_to=frozenset({seat})))
    actions.check_cards(st)


# --- the cards' own decisions ---------------------------------------------------------------------------
def keep_card_options(st: GCBCState, top: ops.Task) -> list[Action]:
    """Defibrillator: which Integrity card the revived seat keeps (its choice)."""
    return [codec.KEEP_CARD + p for p in range(len(st.cards[top[1]]))]


def apply_keep_card(st: GCBCState, top: ops.Task, action: Action) -> None:
    """Keep one card, discard the others (already face up: everyone knows them)."""
    revive(st, top[1], action - codec.KEEP_CARD)


def reaim_options(st: GCBCState, top: ops.Task) -> list[Action]:
    """Stand-in Planted Evidence: any living player but the holder and its current target."""
    _, _, holder = top
    if not (st.alive[holder] and st.gun[holder]):
        return []
    return [codec.AIM + u for u in range(st.n) if st.alive[u] and u not in (holder, st.aim[holder])]


def apply_reaim(st: GCBCState, top: ops.Task, action: Action) -> None:
    """The holder's Gun now points at the chosen player."""
    holder = top[2]
    st.aim[holder] = action - codec.AIM
    st.emit(Aimed(holder, action - codec.AIM))


def pick_options(st: GCBCState, top: ops.Task) -> list[Action]:
    """The Integrity cards a card's player may choose (see :data:`ops.PICK_NAMES`)."""
    _, player, purpose, a, b = top
    living = [t for t in range(st.n) if st.alive[t]]

    def down(t: int) -> list[int]:
        return [p for p, up in enumerate(st.face_up[t]) if not up]

    if purpose == ops.PICK_METAL:
        return [codec.investigate(a, p) for p in down(a)] if st.alive[a] else []
    if purpose == ops.PICK_WIRE_CARDS:
        return [codec.investigate(a, p) for p in down(a) if p != b] if st.alive[a] else []
    if purpose in (ops.PICK_WIRE_FIRST, ops.PICK_WIRE_SECOND):
        return sorted(codec.investigate(t, p) for t in living if t not in (player, a) for p in down(t))
    if purpose == ops.PICK_SWAP_MINE:
        return [codec.pick(player, p) for p in range(len(st.cards[player]))] if st.alive[a] else []
    if purpose == ops.PICK_SWAP_THEIRS:
        return [codec.pick(a, p) for p in range(len(st.cards[a]))] if st.alive[a] else []
    if purpose in (ops.PICK_SWAP_FIRST, ops.PICK_SWAP_SECOND):
        return sorted(codec.pick(t, p) for t in living if t not in (player, a)
                      for p in range(len(st.cards[t])))
    # PICK_CAMERA
    return [codec.pick(a, p) for p in range(3) if b >> p & 1 and not st.face_up[a][p]]


def apply_pick(st: GCBCState, top: ops.Task, action: Action) -> None:
    """Carry out one choice; push the next one where the card needs two."""
    _, player, purpose, a, b = top
    if purpose in (ops.PICK_METAL, ops.PICK_WIRE_CARDS, ops.PICK_WIRE_FIRST, ops.PICK_WIRE_SECOND):
        seat, pos = codec.slot(action, codec.INVESTIGATE)
        actions.investigate(st, player, seat, pos)
        if purpose == ops.PICK_WIRE_CARDS and b < 0:
            st.stack.append((ops.PICK, player, ops.PICK_WIRE_CARDS, a, pos))
        elif purpose == ops.PICK_WIRE_FIRST:
            st.stack.append((ops.PICK, player, ops.PICK_WIRE_SECOND, seat, -1))
        return
    seat, pos = codec.slot(action, codec.PICK)
    if purpose == ops.PICK_SWAP_MINE:
        st.stack.append((ops.PICK, player, ops.PICK_SWAP_THEIRS, a, pos))
    elif purpose == ops.PICK_SWAP_THEIRS:
        swap(st, player, b, seat, pos)
    elif purpose == ops.PICK_SWAP_FIRST:
        st.stack.append((ops.PICK, player, ops.PICK_SWAP_SECOND, seat, pos))
    elif purpose == ops.PICK_SWAP_SECOND:
        swap(st, a, b, seat, pos)
    else:
        actions.flip(st, seat, pos)


def prompt(st: GCBCState, top: ops.Task) -> str:
    """Prompts of the decisions this module owns."""
    op = top[0]
    if op == ops.KEEP_CARD:
        return f"seat {top[1]} is revived and keeps one Integrity card (Defibrillator)"
    if op == ops.REAIM:
        return f"seat {top[1]} points seat {top[2]}'s Gun at another player (Planted Evidence)"
    if op == ops.PICK:
        return f"seat {top[1]}: " + ops.PICK_NAMES[top[2]].format(a=top[3])
    return f"pending step {top}"
