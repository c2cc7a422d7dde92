"""Turns and Equipment windows: when cards may be played [Como se Juega], [Equipo].

The rulebook lets Equipment be used "at any time unless the card says otherwise", one card resolving
at a time, and in particular after an action is announced and before it resolves, after which the
active player may (or must) change the action. A turn-based engine needs points in time; these are
the **windows**, each opened at a phase boundary of the active seat A's turn:

* ``start of turn``: before A announces an action (it is also the end of the previous turn: nothing
  happens between the two, so a card played there is played "between turns");
* ``action announced``: after every announcement, before the action resolves. When a card resolves
  in it, A announces again (the same action or another; another when the old one became illegal)
  and a fresh window opens;
* ``action resolved``: after the action, before the Aim phase ("right after" an investigation).

A window asks every living seat that holds an Equipment card, in turn order from A: play a card
whose timing allows it, or ``pass``. A played card resolves fully (its own decisions come first),
then the window goes on from the seat after the player; it closes when every seat holding a card
has passed since the last card was played. Seats with a card are asked even when none of their
cards could be played, so the sequence of decisions never tells what a hand holds.

Why this captures "any time": between two windows only one of A's own steps happens (an
announcement, the resolution of an action, an aim, the end of the turn), and a card played there
could have been played at the window just before or just after with the same effect on everything
already decided; the one step that can be interrupted, an announced action, has its own window.
Card resolutions cannot be interrupted ("no other card until yours resolves"), and the hand limit
is settled at once, so neither needs a window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.gcbc import actions, codec, effects, ops, plays
from solver.games.gcbc.events import ActionAnnounced, TurnStarted

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCState


def setup_done(st: GCBCState) -> None:
    """Seat 0 plays first (the rulebook picks the player shot most recently, in life or a game;
    a front end seats that player at 0)."""
    st.active = st.base = 0
    st.stack.append((ops.TURN_START,))


def turn_start(st: GCBCState) -> None:
    """Act, Aim, End [Como se Juega], behind a start-of-turn window."""
    st.turn += 1
    st.announced = -1
    st.forced_shoot = False
    st.emit(TurnStarted(st.active, st.turn))
    st.stack.append((ops.TURN_END,))
    st.stack.append((ops.WINDOW, ops.START, st.active, 0, 0))


def turn_end(st: GCBCState) -> None:
    """Pass the Lead Investigator marker [Como se Juega: Fin de turno].

    A queued extra turn (4th-edition Coffee) comes first and play then resumes where it left off; a
    next turn given to a player (stand-in Coffee) comes next and play continues from them; otherwise
    the next living seat in the turn order after ``base`` plays.
    """
    st.camera = []
    st.announced = -1
    st.forced_shoot = False
    while st.extra_turns:
        seat = st.extra_turns.pop(0)
        if st.alive[seat]:
            st.active = seat
            st.stack.append((ops.TURN_START,))
            return
    if st.next_turn >= 0 and st.alive[st.next_turn]:
        st.active = st.base = st.next_turn
    else:
        st.active = st.base = next_living(st, st.base)
    st.next_turn = -1
    st.stack.append((ops.TURN_START,))


def next_living(st: GCBCState, seat: int) -> int:
    """The next living seat after ``seat`` in the turn order."""
    for i in range(1, st.n + 1):
        s = (seat + i * st.direction) % st.n
        if st.alive[s]:
            return s
    return seat


def in_window(st: GCBCState, seat: int) -> bool:
    """True when ``seat`` is asked in windows: alive and holding an Equipment card."""
    return st.alive[seat] and bool(st.hands[seat])


def next_in_window(st: GCBCState, top: ops.Task) -> ops.Task | None:
    """The window entry with its cursor on the seat to ask, or None when the window closes."""
    _, kind, cursor, mask, after = top
    d = st.direction
    for i in range(after, st.n + after):
        s = (cursor + i * d) % st.n
        if not mask >> s & 1 and in_window(st, s):
            return (ops.WINDOW, kind, s, mask, 0)
    return None


def close_window(st: GCBCState, top: ops.Task) -> None:
    """Go on with the turn: announce, resolve, or aim."""
    st.camera = []  # "right after an investigation" ends with the window that followed it
    kind = top[1]
    if kind == ops.START:
        st.stack.append((ops.ANNOUNCE, 0))
    elif kind == ops.ANNOUNCED:
        st.stack.append((ops.WINDOW, ops.RESOLVED, st.active, 0, 0))
        st.stack.append((ops.RESOLVE,))
    else:
        st.stack.append((ops.AIM_PHASE,))


def window_options(st: GCBCState, top: ops.Task) -> list[Action]:
    """``pass`` and every play the seat's card allows now."""
    return [codec.PASS, *plays.play_options(st, top[2], top[1])]


def apply_window(st: GCBCState, top: ops.Task, action: Action) -> None:
    """Pass (the window moves on) or play a card (it resolves, then the window goes on)."""
    _, kind, seat, mask, _ = top
    if action == codec.PASS:
        st.stack.append((ops.WINDOW, kind, seat, mask | 1 << seat, 1))
        return
    if kind == ops.ANNOUNCED:
        st.stack.append((ops.ANNOUNCE, 1))  # [Equipo]: the action may, or must, change
    else:
        st.stack.append((ops.WINDOW, kind, seat, 0, 1))
    card, target = codec.decode_play(action)
    effects.play(st, seat, card, target)


def apply_announce(st: GCBCState, top: ops.Task, action: Action) -> None:
    """An announcement opens a window; an own-action card (Taser) resolves at once instead."""
    if codec.is_play(action):
        st.announced = -1
        st.stack.append((ops.WINDOW, ops.RESOLVED, st.active, 0, 0))
        card, target = codec.decode_play(action)
        effects.play(st, st.active, card, target)
        return
    st.announced = action
    if action != codec.SHOOT:
        st.forced_shoot = False
    st.emit(ActionAnnounced(st.active, st.game.action_to_str(action), bool(top[1])))
    st.stack.append((ops.WINDOW, ops.ANNOUNCED, st.active, 0, 0))


def prompt(st: GCBCState, top: ops.Task) -> str:
    """The public description of the pending decision."""
    op = top[0]
    if op == ops.LEADERS:
        return "the Agent and the Kingpin are dealt"
    if op == ops.DEAL:
        return f"Integrity cards are dealt to seat {top[1]}"
    if op == ops.DRAW:
        return f"seat {top[1]} draws an Equipment card ({ops.DRAW_NAMES[top[2]]})"
    if op == ops.ARRANGE:
        if top[2] == ops.SETUP:
            return f"seat {top[1]} lays out its Integrity cards face down"
        return f"seat {top[1]} lays its Integrity cards face down again (Flashbang)"
    if op == ops.WINDOW:
        when = ops.WINDOW_NAMES[top[1]]
        if top[1] == ops.ANNOUNCED and st.announced >= 0:
            when = f"seat {st.active} announced {st.game.action_to_str(st.announced)}"
        return f"seat {top[2]}: play Equipment or pass ({when}; seat {st.active}'s turn {st.turn})"
    if op == ops.ANNOUNCE:
        if top[1]:
            return f"seat {st.active} announces its action again (it may change it)"
        return f"seat {st.active} announces an action (turn {st.turn})"
    return actions.prompt(st, top) or effects.prompt(st, top)
