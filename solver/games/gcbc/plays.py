"""Which Equipment plays a seat has now: when a card may be played and at whom [Equipo].

Apart from the effects (:mod:`solver.games.gcbc.effects`, which resolve a play) so that announcing
an action (:mod:`solver.games.gcbc.actions`) can list the own-action plays without importing the
effects, which build on the actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.gcbc import codec, ops
from solver.games.gcbc.equipment import Effect, Timing

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCState

#: the target of a card that names none
NONE = codec.NO_TARGET


def can_shoot(st: GCBCState, seat: int) -> bool:
    """``seat`` holds a Gun aimed at a living player."""
    return st.gun[seat] and st.aim[seat] >= 0 and st.alive[st.aim[seat]]


def play_options(st: GCBCState, seat: int, context: int) -> list[Action]:
    """The plays ``seat`` has now; ``context`` is a window kind or :data:`ops.ACT` (announcing)."""
    hand = st.hands[seat]
    if len(hand) != 1 or not st.alive[seat]:
        return []  # [Equipo] over the hand limit no card can be used
    card = st.game.equipment.cards[hand[0]]
    if not timing_allows(st, seat, card.timing, context):
        return []
    return [codec.play(hand[0], t) for t in targets(st, seat, card.effect)]


def timing_allows(st: GCBCState, seat: int, timing: Timing, context: int) -> bool:
    """[Equipo] any time unless the card says otherwise."""
    if timing == Timing.OWN_ACTION:
        return context == ops.ACT
    if context == ops.ACT:
        return False
    if timing == Timing.OWN_TURN:
        return seat == st.active
    if timing == Timing.SHOT_ANNOUNCED:
        return context == ops.ANNOUNCED and st.announced == codec.SHOOT and seat != st.active
    if timing == Timing.AFTER_INVESTIGATION:
        return bool(st.camera)
    return True


def targets(st: GCBCState, seat: int, effect: Effect) -> list[int]:
    """Target seats of a play (``[NONE]`` for a card that names none); ``[]``: not playable."""
    n = st.n
    living = [t for t in range(n) if st.alive[t]]
    others = [t for t in living if t != seat]
    face_down = {t: [p for p, up in enumerate(st.face_up[t]) if not up] for t in living}
    untargeted = [NONE]
    if effect in (Effect.SWAP_OWN, Effect.NEXT_TURN, Effect.POLYGRAPH):
        return others
    if effect in (Effect.SWAP_OTHERS,):
        return untargeted if len(others) >= 2 else []
    if effect in (Effect.EXTRA_TURN, Effect.REVERSE):
        return untargeted
    if effect == Effect.REVIVE:
        return [t for t in range(n) if not st.alive[t] and t != seat]
    if effect in (Effect.TAKE_EQUIPMENT, Effect.SEE_EQUIPMENT):
        return [t for t in others if st.hands[t]]
    if effect == Effect.REARRANGE:
        return untargeted if st.cards[seat] else []
    if effect == Effect.DISARM:
        return [t for t in living if st.gun[t]]
    if effect == Effect.INVESTIGATE_ARMED:
        return untargeted if any(st.gun[t] and face_down[t] for t in others) else []
    if effect == Effect.RE_AIM:
        return [t for t in living if st.gun[t] and any(u not in (t, st.aim[t]) for u in living)]
    if effect == Effect.INVERT:
        return living
    if effect == Effect.AUDIT:
        return untargeted if any(face_down[t] and all(not up for up in st.face_up[t]) for t in living) else []
    if effect == Effect.REDIRECT_SHOT:  # not with only two players left
        return untargeted if len(living) >= 3 and can_shoot(st, st.active) else []
    if effect == Effect.EXPOSE_INVESTIGATED:
        return sorted({t for t, p in st.camera if st.alive[t] and not st.face_up[t][p]})
    if effect == Effect.TAKE_GUN:
        return [] if st.gun[seat] else [t for t in others if st.gun[t]]  # one Gun at a time [Armas]
    if effect == Effect.REVEAL_ONE:
        return [t for t in living if face_down[t]]
    if effect == Effect.INVESTIGATE_TWO_CARDS:
        return [t for t in others if len(face_down[t]) >= 2]
    if effect == Effect.INVESTIGATE_TWO_PLAYERS:
        return untargeted if sum(1 for t in others if face_down[t]) >= 2 else []
    raise ValueError(f"gcbc: no rule for effect {effect}")
