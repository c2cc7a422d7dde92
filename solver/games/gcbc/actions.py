"""The deal, the four actions, aiming, being shot, elimination and the end of the game.

Rulebook: [Preparar] (deal), [Como se Juega] (Act, Aim, End), [Recibir un disparo], [Armas],
[Fin]. The Equipment deck [Equipo: a used card goes to the bottom] is modelled as the set of cards
never drawn (``unseen``: the shuffled top of the deck, a multiset drawn from at a chance node) above
the queue of returned cards (``bottom``) in the order they went under. Returned cards are drawn only
once every unseen card is gone, first-returned first, with no chance node: who knows which card that
is follows from who saw it go under (everyone for a played card, the owner for a card put back at
the hand limit or on elimination).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.gcbc import codec, ops
from solver.games.gcbc.deal import (
    ARRANGEMENTS,
    INTEGRITY_NAMES,
    MAX_PLAYERS,
    Integrity,
    arrangement_options,
    deal_outcomes,
    team_of,
)
from solver.games.gcbc.events import (
    Aimed,
    Arranged,
    CardFlipped,
    CardsRevealed,
    Eliminated,
    EquipmentDrawn,
    EquipmentReturned,
    GameOver,
    GunReturned,
    GunTaken,
    IntegrityDealt,
    Investigated,
    Shot,
    Wounded,
)
from solver.games.gcbc.plays import can_shoot, play_options

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCState


def names(cards: list[int]) -> tuple[str, ...]:
    """Integrity card names."""
    return tuple(INTEGRITY_NAMES[c] for c in cards)


# --- chance: the deal and draws ---------------------------------------------------------------------
def chance_outcomes(st: GCBCState, top: ops.Task) -> list[tuple[Action, float]]:
    """Outcomes of the chance entry ``top`` [Preparar] (see :mod:`.deal`)."""
    if top[0] == ops.LEADERS:
        pairs = [(a, k) for a in range(st.n) for k in range(st.n) if a != k]
        return [(codec.LEADERS + MAX_PLAYERS * a + k, 1.0 / len(pairs)) for a, k in pairs]
    if top[0] == ops.DEAL:
        slots = 3 - len(st.cards[top[1]])
        return [(codec.DEAL + h, p) for h, p in deal_outcomes(st.honest_left, st.crooked_left, slots)]
    p = 1.0 / len(st.unseen)
    return [(codec.DRAW + c, p) for c in st.unseen]


def apply_leaders(st: GCBCState, top: ops.Task, action: Action) -> None:
    """The Agent and the Kingpin go to two seats (no event: nobody sees the pair)."""
    agent, kingpin = divmod(action - codec.LEADERS, MAX_PLAYERS)
    st.cards[agent].append(Integrity.AGENT)
    st.cards[kingpin].append(Integrity.KINGPIN)


def apply_deal(st: GCBCState, top: ops.Task, action: Action) -> None:
    """A seat's Honest/Crooked cards; the hand is kept in canonical order until it is laid out."""
    seat, honest = top[1], action - codec.DEAL
    crooked = 3 - len(st.cards[seat]) - honest
    st.honest_left -= honest
    st.crooked_left -= crooked
    st.cards[seat] += [Integrity.HONEST] * honest + [Integrity.CROOKED] * crooked
    st.face_up[seat] = [False] * 3
    st.split(IntegrityDealt(seat, names(st.cards[seat])), IntegrityDealt(seat, None), frozenset({seat}))


def apply_draw(st: GCBCState, top: ops.Task, action: Action) -> None:
    """An unseen Equipment card reaches ``seat`` (only it sees which)."""
    seat, card = top[1], action - codec.DRAW
    st.unseen.remove(card)
    st.hands[seat].append(card)
    cid = st.game.card_ids[card]
    why = ops.DRAW_NAMES[top[2]]
    full, hidden = EquipmentDrawn(seat, cid, "deck", why), EquipmentDrawn(seat, None, "deck", why)
    st.split(full, hidden, frozenset({seat}))
    hand_limit(st, seat)


def draw_from_bottom(st: GCBCState, seat: int, why: int) -> None:
    """No unseen card is left: the first returned card is drawn; who saw it go under knows it."""
    if not st.bottom:
        return  # cannot happen: hands hold at most players + 1 of at least players + 2 cards
    card = st.bottom.pop(0)
    known = st.bottom_known.pop(0)
    st.hands[seat].append(card)
    cid, name = st.game.card_ids[card], ops.DRAW_NAMES[why]
    knowers = None if known is None else known | {seat}
    st.split(EquipmentDrawn(seat, cid, "bottom", name), EquipmentDrawn(seat, None, "bottom", name), knowers)
    hand_limit(st, seat)


def to_bottom(st: GCBCState, card: int, knowers: frozenset[int] | None) -> None:
    """Put ``card`` at the bottom of the Equipment deck [Equipo]."""
    st.bottom.append(card)
    st.bottom_known.append(knowers)


def hand_limit(st: GCBCState, seat: int) -> None:
    """[Equipo] hand limit 1: a seat holding more chooses at once which card to keep."""
    if len(st.hands[seat]) > 1:
        st.stack.append((ops.KEEP_EQUIP, seat))


def keep_equip_options(st: GCBCState, top: ops.Task) -> list[Action]:
    """``keep <card>`` for each card in the hand."""
    return sorted({codec.KEEP_EQUIP + c for c in st.hands[top[1]]})


def apply_keep_equip(st: GCBCState, top: ops.Task, action: Action) -> None:
    """The other cards go to the bottom, face down: only the seat knows which."""
    seat, keep = top[1], action - codec.KEEP_EQUIP
    for card in [c for c in st.hands[seat] if c != keep]:
        st.hands[seat].remove(card)
        to_bottom(st, card, frozenset({seat}))
        st.split(EquipmentReturned(seat, st.game.card_ids[card], "hand limit"),
                 EquipmentReturned(seat, None, "hand limit"), frozenset({seat}))


# --- laying out Integrity cards ---------------------------------------------------------------------
def arrange_options(st: GCBCState, top: ops.Task) -> list[Action]:
    """The distinct orders of the seat's cards [Integridad: any order, fixed once laid]."""
    return [codec.ARRANGE + i for i in arrangement_options(st.cards[top[1]])]


def apply_arrange(st: GCBCState, top: ops.Task, action: Action) -> None:
    """Lay the cards face down in the chosen order; the others see only that it happened."""
    seat, why = top[1], ops.ARRANGE_NAMES[top[2]]
    order = ARRANGEMENTS[action - codec.ARRANGE]
    st.cards[seat] = [st.cards[seat][j] for j in order]
    st.face_up[seat] = [False] * len(order)
    st.split(Arranged(seat, names(st.cards[seat]), why), Arranged(seat, None, why), frozenset({seat}))


# --- the Act phase ------------------------------------------------------------------------------------
def announce_options(st: GCBCState, top: ops.Task) -> list[Action]:
    """Investigate, Equip, Arm, Shoot, or an own-action card [Como se Juega: Actúa].

    Investigate looks at a face-down card of another living player (one's own cards are known).
    After a Restraining Order the shot stands while it can be fired.
    """
    a = st.active
    if st.forced_shoot and can_shoot(st, a):
        return [codec.SHOOT]
    legal: list[Action] = []
    if st.unseen or st.bottom:
        legal.append(codec.EQUIP)
    if not st.gun[a] and st.guns_centre > 0:
        legal.append(codec.ARM)
    if can_shoot(st, a):
        legal.append(codec.SHOOT)
    for t in range(st.n):
        if t != a and st.alive[t]:
            legal += [codec.investigate(t, p) for p, up in enumerate(st.face_up[t]) if not up]
    legal += play_options(st, a, ops.ACT)
    return sorted(legal)


def investigate(st: GCBCState, by: int, seat: int, pos: int) -> None:
    """``by`` looks at a card and puts it back; only ``by`` sees it [Actúa: Investigar]."""
    card = INTEGRITY_NAMES[st.cards[seat][pos]]
    st.split(Investigated(by, seat, pos, card), Investigated(by, seat, pos, None), frozenset({by}))
    st.camera.append((seat, pos))


def resolve(st: GCBCState) -> None:
    """Carry out the announced action."""
    a, action = st.active, st.announced
    st.announced = -1
    if codec.INVESTIGATE <= action < codec.PICK:
        investigate(st, a, *codec.slot(action, codec.INVESTIGATE))
    elif action == codec.EQUIP:  # draw, then turn a face-down card face up
        st.stack.append((ops.FLIP, a, ops.FLIP_EQUIP))
        st.stack.append((ops.DRAW, a, ops.FROM_EQUIP))
    elif action == codec.ARM:  # take a Gun, aim it at once [Armas], turn a card face up
        st.guns_centre -= 1
        st.gun[a] = True
        st.aim[a] = -1
        st.emit(GunTaken(a, "centre"))
        st.stack.append((ops.FLIP, a, ops.FLIP_ARM))
        st.stack.append((ops.AIM, a, ops.AIM_ARM, -1))
    elif action == codec.SHOOT:
        shoot(st, a)


def shoot(st: GCBCState, shooter: int) -> None:
    """[Recibir un disparo]: the target shows every card; a leader is wounded once, others are out."""
    target = st.aim[shooter]
    st.emit(Shot(shooter, target))
    reveal(st, target)
    if has_leader(st, target) and not st.wounded[target]:
        st.wounded[target] = True
        st.emit(Wounded(target))
        st.stack.append((ops.DRAW, target, ops.FROM_WOUND))
    else:
        eliminate(st, target, "shot")
    if not st.winner:
        return_gun(st, shooter)  # the shooter drops the Gun in the centre [Actúa: Disparar]


def return_gun(st: GCBCState, seat: int) -> None:
    """``seat``'s Gun goes back to the centre."""
    st.gun[seat] = False
    st.aim[seat] = -1
    st.guns_centre += 1
    st.emit(GunReturned(seat))


def has_leader(st: GCBCState, seat: int) -> bool:
    """``seat`` holds the Agent or the Kingpin."""
    return Integrity.AGENT in st.cards[seat] or Integrity.KINGPIN in st.cards[seat]


def reveal(st: GCBCState, seat: int) -> None:
    """Turn all of ``seat``'s cards face up."""
    if not all(st.face_up[seat]):
        st.face_up[seat] = [True] * len(st.cards[seat])
        st.emit(CardsRevealed(seat, names(st.cards[seat])))


def eliminate(st: GCBCState, seat: int, reason: str) -> None:
    """[Recibir un disparo]: cards face up and sideways, Equipment to the bottom, Gun to the centre.

    The Wounded token goes back; a 4th-edition Planted Evidence marker stays (it still decides the
    player's team at the end). If the player holds a leader card, that team has lost [Fin]; if it was
    the active player, its turn ends now.
    """
    st.alive[seat] = False
    reveal(st, seat)
    for card in st.hands[seat]:
        to_bottom(st, card, frozenset({seat}))
        st.split(EquipmentReturned(seat, st.game.card_ids[card], "eliminated"),
                 EquipmentReturned(seat, None, "eliminated"), frozenset({seat}))
    st.hands[seat] = []
    if st.gun[seat]:
        return_gun(st, seat)
    st.wounded[seat] = False
    st.emit(Eliminated(seat, reason))
    if Integrity.KINGPIN in st.cards[seat]:
        game_over(st, "honest", "the Kingpin was eliminated")
    elif Integrity.AGENT in st.cards[seat]:
        game_over(st, "crooked", "the Agent was eliminated")
    elif seat == st.active and st.turn:
        st.stack = [t for t in st.stack if t[0] not in ops.TURN_PROGRAM]


def check_cards(st: GCBCState) -> None:
    """After Integrity cards change hands: both leader cards in one hand win alone [Fin]; then a
    wounded player with no leader card left is eliminated [Recibir un disparo]."""
    for seat in range(st.n):
        if st.alive[seat] and Integrity.AGENT in st.cards[seat] and Integrity.KINGPIN in st.cards[seat]:
            game_over(st, "solo", f"seat {seat} holds both the Agent and the Kingpin", solo=seat)
            return
    for seat in range(st.n):
        if st.alive[seat] and st.wounded[seat] and not has_leader(st, seat):
            eliminate(st, seat, "lost the leader card")
            if st.winner:
                return


def game_over(st: GCBCState, winner: str, reason: str, solo: int = -1) -> None:
    """End the game; every Integrity card is shown."""
    st.winner, st.reason = winner, reason
    if solo >= 0:
        st.winners = (solo,)
    else:
        st.winners = tuple(s for s in range(st.n) if team_of(st.cards[s], st.inverted[s]) == winner)
    for seat in range(st.n):
        st.face_up[seat] = [True] * len(st.cards[seat])
    st.stack = []
    st.emit(GameOver(winner, st.winners, reason, tuple(names(c) for c in st.cards)))


# --- Aim and flips ------------------------------------------------------------------------------------
def aim_phase(st: GCBCState) -> None:
    """[Como se Juega: Apunta]: holding a Gun after the action, aim it (the only time aim changes)."""
    if st.alive[st.active] and st.gun[st.active]:
        st.stack.append((ops.AIM, st.active, ops.AIM_PHASE_WHY, -1))


def aim_options(st: GCBCState, top: ops.Task) -> list[Action]:
    """Any living player but oneself [Armas] (and not ``exclude``: a Restraining Order's target)."""
    _, seat, _, exclude = top
    if not (st.alive[seat] and st.gun[seat]):
        return []
    return [codec.AIM + t for t in range(st.n) if st.alive[t] and t not in (seat, exclude)]


def apply_aim(st: GCBCState, top: ops.Task, action: Action) -> None:
    """Point the Gun (announced to all); after a Restraining Order the shot must follow."""
    st.aim[top[1]] = action - codec.AIM
    st.emit(Aimed(top[1], action - codec.AIM))
    if top[2] == ops.AIM_RESTRAIN:
        st.forced_shoot = True


def flip_options(st: GCBCState, top: ops.Task) -> list[Action]:
    """The seat's face-down cards (none: nothing to turn, the step is skipped)."""
    seat = top[1]
    if not st.alive[seat]:
        return []
    return [codec.FLIP + p for p, up in enumerate(st.face_up[seat]) if not up]


def apply_flip(st: GCBCState, top: ops.Task, action: Action) -> None:
    """Turn one card face up."""
    flip(st, top[1], action - codec.FLIP)


def flip(st: GCBCState, seat: int, pos: int) -> None:
    """``seat``'s card at ``pos`` goes face up."""
    st.face_up[seat][pos] = True
    st.emit(CardFlipped(seat, pos, INTEGRITY_NAMES[st.cards[seat][pos]]))


def prompt(st: GCBCState, top: ops.Task) -> str:
    """Prompts of the decisions this module owns ("" for others)."""
    op = top[0]
    if op == ops.AIM:
        if top[2] == ops.AIM_RESTRAIN:
            return f"seat {top[1]} must aim at someone else and shoot (Restraining Order)"
        return f"seat {top[1]} aims its Gun"
    if op == ops.FLIP:
        return f"seat {top[1]} turns one of its face-down cards face up ({ops.FLIP_NAMES[top[2]]})"
    if op == ops.KEEP_EQUIP:
        return f"seat {top[1]} keeps one Equipment card and puts the other at the bottom (hand limit)"
    return ""
