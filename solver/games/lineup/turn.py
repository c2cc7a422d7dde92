"""The LineUp turn as phases: what may be done in each, and what each action does.

Rulebook sections are cited as [Setup], [Game Play], [On a Lucky Break Space], [At a Crime Scene],
[At the Police Station], [Lineups]; the end of the game is in components.md ([End], cut off in the
rulebook). Choices where the rulebook is silent are listed in docs/lineup-rules.md.

A turn, for the active seat A::

    START      roll | lineup i (stay at the station) | play a saved Lucky Break card
    DIE        chance: the die                          -> MOVE
    MOVE       move X (any space within the roll)      -> land on X
    land       scene: DRAW (chance) -> STUDY -> end   station: STATION   Lucky Break: OFFER   street: end
    STATION    lineup i | end                           -> INNOCENT* -> GUILTY -> PICK
    PICK       pick j   correct: count +1, card face up, STATION again if A holds another card
                        wrong: count -1, cards back under the deck, end of turn
    OFFER      lucky | end                              -> LUCKY (chance) -> USE
    USE        play the card just drawn | end (keep it)
    STUDY      study (the moment: A's view shows the card)  -> back to START, or end of turn
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import TYPE_CHECKING, Final

from solver.core import Action
from solver.games.lineup import codec
from solver.games.lineup.board import Kind
from solver.games.lineup.content import LUCKY_NAMES, Lucky
from solver.games.lineup.events import (
    CardsReturned,
    CountChanged,
    DieRolled,
    GameOver,
    LineupRequested,
    LineupResult,
    LineupShown,
    LuckyDrawn,
    LuckyPlayed,
    Moved,
    SuspectDrawn,
    SuspectStudied,
    TurnStarted,
)

if TYPE_CHECKING:
    from solver.games.lineup.rules import LineUpState

MIN_COUNT: Final = 3  # [Setup]: "your lineup count can never go below three or above 10"
MAX_COUNT: Final = 10
START_COUNT: Final = 4  # [Setup]: all chips start on 4
HAND_LIMIT: Final = 3  # [On a Lucky Break Space]: draw only with fewer than three cards
TO_WIN: Final = 4  # components.md: four suspects, each from a different crime scene


class Phase(IntEnum):
    """Where in a turn the game is."""

    START = 0
    DIE = 1
    MOVE = 2
    DRAW = 3
    STUDY = 4
    STATION = 5
    INNOCENT = 6
    GUILTY = 7
    PICK = 8
    OFFER = 9
    LUCKY = 10
    USE = 11
    OVER = 12


PHASE_NAMES: Final = tuple(p.name.lower() for p in Phase)
CHANCE_PHASES: Final = frozenset({Phase.DIE, Phase.DRAW, Phase.INNOCENT, Phase.GUILTY, Phase.LUCKY})


# --- options ------------------------------------------------------------------------------------
def options(st: LineUpState) -> list[Action]:
    """Sorted legal actions of the seat to act (never called at a chance phase)."""
    a = st.active
    if st.phase == Phase.START:
        out = [codec.ROLL] + _plays(st, [Lucky(k) for k in range(len(Lucky)) if st.hand[a][k]])
        if st.pos[a] == st.board.station:  # [At the Police Station]: stay and request a lineup
            out += [codec.LINEUP + i for i in range(len(st.held[a]))]
        return sorted(out)
    if st.phase == Phase.MOVE:
        return [codec.MOVE + s for s in st.board.reachable(st.pos[a], st.die)]
    if st.phase == Phase.STUDY:
        return [codec.STUDY]
    if st.phase == Phase.STATION:
        return [codec.END] + [codec.LINEUP + i for i in range(len(st.held[a]))]
    if st.phase == Phase.PICK:
        return [codec.PICK + j for j in range(len(st.stands))]
    if st.phase == Phase.OFFER:
        return [codec.END, codec.LUCKY]
    if st.phase == Phase.USE:
        return sorted([codec.END] + _plays(st, [Lucky(st.drawn)]))
    return []


def _plays(st: LineUpState, kinds: Iterable[Lucky]) -> list[Action]:
    a = st.active
    out: list[Action] = []
    for kind in kinds:
        if kind == Lucky.ANOTHER_LOOK:
            out += [codec.LOOK + i for i in range(len(st.held[a]))]
        elif kind == Lucky.TO_STATION and st.pos[a] != st.board.station:
            out.append(codec.TO_STATION)
        elif kind == Lucky.HINDER:
            out += [codec.HINDER + s for s in range(st.n) if s != a and st.count[s] < MAX_COUNT]
    return out


def chance_outcomes(st: LineUpState) -> list[tuple[Action, float]]:
    """Outcomes and probabilities at a chance phase; decks are drawn from as multisets."""
    if st.phase == Phase.DIE:
        return [(codec.DIE + v, 1 / 6) for v in range(1, 7)]
    if st.phase in (Phase.DRAW, Phase.INNOCENT):
        scene = st.scene
        pile = st.unseen[scene] or st.returned[scene]  # returned cards only once the unseen run out
        base = codec.DRAW if st.phase == Phase.DRAW else codec.INNOCENT
        return [(codec.card_action(base, scene, c), 1 / len(pile)) for c in sorted(pile)]
    if st.phase == Phase.GUILTY:
        return [(codec.GUILTY + k, 1 / st.size) for k in range(st.size)]
    counts = st.lucky_unseen if sum(st.lucky_unseen) else st.lucky_returned
    total = sum(counts)
    return [(codec.LUCKY_DRAW + k, c / total) for k, c in enumerate(counts) if c]


# --- applying -------------------------------------------------------------------------------------
def apply(st: LineUpState, action: Action) -> None:
    """Apply ``action`` in the current phase (legality is the caller's business)."""
    a, phase = st.active, st.phase
    if phase == Phase.DIE:
        st.die = action - codec.DIE
        st.emit(DieRolled(a, st.die))
        st.phase = Phase.MOVE
    elif phase == Phase.MOVE:
        frm, st.pos[a] = st.pos[a], action - codec.MOVE
        st.emit(Moved(a, frm, st.pos[a], "roll"))
        land(st)
    elif phase == Phase.DRAW:
        scene, card = codec.decode_card(action, codec.DRAW)
        source = _take(st, scene, card)
        st.held[a].append((scene, card))
        st.emit(SuspectDrawn(a, st.scene_name(scene), source))
        study(st, len(st.held[a]) - 1, "scene", Phase.OVER)
    elif phase == Phase.STUDY:
        st.studying = -1
        if st.after_study == Phase.START:
            st.phase = Phase.START
        else:
            end_turn(st)
    elif phase == Phase.INNOCENT:
        scene, card = codec.decode_card(action, codec.INNOCENT)
        _take(st, scene, card)
        st.stands.append(card)
        if len(st.stands) == st.size - 1:
            st.phase = Phase.GUILTY
    elif phase == Phase.GUILTY:
        st.guilty = action - codec.GUILTY
        st.stands.insert(st.guilty, st.suspect[1])
        st.emit(LineupShown(a, st.scene_name(st.scene), tuple(st.card_name(st.scene, c) for c in st.stands)))
        st.phase = Phase.PICK
    elif phase == Phase.PICK:
        resolve_pick(st, action - codec.PICK)
    elif phase == Phase.LUCKY:
        kind = action - codec.LUCKY_DRAW
        pile = st.lucky_unseen if sum(st.lucky_unseen) else st.lucky_returned
        pile[kind] -= 1
        st.hand[a][kind] += 1
        st.drawn = kind
        st.split(LuckyDrawn(a, LUCKY_NAMES[kind]), LuckyDrawn(a, None), frozenset({a}))
        st.phase = Phase.USE
    elif action == codec.ROLL:
        st.phase = Phase.DIE
    elif action == codec.END:
        end_turn(st)
    elif action == codec.LUCKY:
        st.phase = Phase.LUCKY
    elif codec.LINEUP <= action < codec.LINEUP + codec.MAX_HELD:
        request_lineup(st, action - codec.LINEUP)
    else:
        play_lucky(st, action)


def land(st: LineUpState) -> None:
    """What the space the pawn stopped on does [At a Crime Scene], [At the Police Station], [Lucky]."""
    a, here = st.active, st.pos[st.active]
    kind = st.board.kinds[here]
    if kind == Kind.SCENE:
        st.scene = st.board.scenes.index(here)
        if st.unseen[st.scene] or st.returned[st.scene]:
            st.phase = Phase.DRAW
            return
    elif kind == Kind.STATION:
        if st.held[a]:
            st.phase = Phase.STATION
            return
    elif kind == Kind.LUCKY and sum(st.hand[a]) < HAND_LIMIT and st.lucky_left() > 0:
        st.phase = Phase.OFFER
        return
    end_turn(st)


def study(st: LineUpState, held: int, why: str, after: Phase) -> None:
    """The study moment of the active seat's face-down card ``held`` [At a Crime Scene]."""
    st.studying = held
    st.after_study = after
    scene = st.held[st.active][held][0]
    st.events.append(SuspectStudied(st.active, st.scene_name(scene), held + 1, why,
                                    visible_to=frozenset({st.active})))
    st.phase = Phase.STUDY


def _take(st: LineUpState, scene: int, card: int) -> str:
    """Remove ``card`` from the scene's deck; say which part it came from."""
    if st.unseen[scene]:
        st.unseen[scene].remove(card)
        return "unseen"
    st.returned[scene].remove(card)
    return "returned"


def request_lineup(st: LineUpState, held: int) -> None:
    """[Lineups]: the chosen card goes in the Guilty stand, innocents come from the same deck."""
    a = st.active
    st.suspect = st.held[a].pop(held)
    st.scene = st.suspect[0]
    available = len(st.unseen[st.scene]) + len(st.returned[st.scene])
    st.size = min(st.count[a], 1 + available)
    st.stands = []
    st.emit(LineupRequested(a, held + 1, st.scene_name(st.scene), st.size))
    st.phase = Phase.INNOCENT if st.size > 1 else Phase.GUILTY


def resolve_pick(st: LineUpState, picked: int) -> None:
    """[Lineups]: right, the card is face up and the count +1; wrong, count -1; cards to the bottom."""
    a, scene = st.active, st.scene
    correct = picked == st.guilty
    st.emit(LineupResult(a, st.scene_name(scene), picked + 1, st.guilty + 1, correct,
                         st.card_name(*st.suspect)))
    back = [c for k, c in enumerate(st.stands) if not (correct and k == st.guilty)]
    st.returned[scene].extend(back)
    st.returned[scene].sort()
    st.emit(CardsReturned(st.scene_name(scene), tuple(st.card_name(scene, c) for c in back)))
    st.stands = []
    st.guilty = -1
    if correct:
        st.identified[a].append(st.suspect)
        st.count[a] = min(MAX_COUNT, st.count[a] + 1)
        st.emit(CountChanged(a, st.count[a], "correct"))
        if len({s for s, _ in st.identified[a]}) >= TO_WIN:
            finish(st, a, f"seat {a} identified four suspects from four crime scenes")
            return
        if not anyone_can_win(st):
            finish(st, None, "no player can identify four suspects from different crime scenes any more")
            return
        if st.held[a]:
            st.phase = Phase.STATION  # "you may immediately request another lineup"
            return
    else:
        st.count[a] = max(MIN_COUNT, st.count[a] - 1)
        st.emit(CountChanged(a, st.count[a], "wrong"))
    end_turn(st)


def play_lucky(st: LineUpState, action: Action) -> None:
    """Play a Lucky Break card, then put it under the Lucky Break deck [On a Lucky Break Space]."""
    a = st.active
    from_use = st.phase == Phase.USE
    if codec.LOOK <= action < codec.LOOK + codec.MAX_HELD:
        kind, held, target = Lucky.ANOTHER_LOOK, action - codec.LOOK, None
    elif action == codec.TO_STATION:
        kind, held, target = Lucky.TO_STATION, None, None
    else:
        kind, held, target = Lucky.HINDER, None, action - codec.HINDER
    st.hand[a][kind] -= 1
    st.lucky_returned[kind] += 1
    st.emit(LuckyPlayed(a, LUCKY_NAMES[kind], None if held is None else held + 1, target))
    if kind == Lucky.ANOTHER_LOOK and held is not None:
        study(st, held, "another-look", Phase.OVER if from_use else Phase.START)
    elif kind == Lucky.TO_STATION:
        frm, st.pos[a] = st.pos[a], st.board.station
        st.emit(Moved(a, frm, st.pos[a], "to-station"))
        land(st)
    elif target is not None:
        st.count[target] = min(MAX_COUNT, st.count[target] + 1)
        st.emit(CountChanged(target, st.count[target], "hinder"))
        if from_use:
            end_turn(st)


def anyone_can_win(st: LineUpState) -> bool:
    """Whether some seat can still reach four scenes: a scene counts while one of its cards is not face up."""
    up = [0] * len(st.board.scenes)
    for cards in st.identified:
        for scene, _ in cards:
            up[scene] += 1
    alive = {s for s in range(len(up)) if up[s] < len(st.game.cards[s])}
    return any(len({s for s, _ in cards} | alive) >= TO_WIN for cards in st.identified)


def finish(st: LineUpState, winner: int | None, reason: str) -> None:
    """End the game."""
    st.winner = -1 if winner is None else winner
    st.reason = reason
    st.phase = Phase.OVER
    st.emit(GameOver(winner, reason))


def end_turn(st: LineUpState) -> None:
    """Play passes clockwise [Setup]: to the next seat."""
    st.active = (st.active + 1) % st.n
    start_turn(st)


def start_turn(st: LineUpState) -> None:
    """Begin the active seat's turn."""
    st.turn += 1
    st.die = 0
    st.drawn = -1
    st.emit(TurnStarted(st.active, st.turn))
    st.phase = Phase.START
