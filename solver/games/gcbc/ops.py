"""The engine's to-do stack: what each entry means and how it is laid out.

A state holds a stack of small int tuples (the top is the end of the list). Automatic entries run as
soon as they reach the top; chance entries and decision entries wait for an action. A turn is pushed
as a short program (``TURN_START`` pushes ``TURN_END`` and the start window; each step pushes the
next), and a card or an action pushes its own sub-decisions on top, so a card always resolves fully
before the window under it goes on. Tuples are immutable, so a clone copies the list and nothing
else::

    (LEADERS,)                          chance: seats of the Agent and the Kingpin
    (DEAL, seat)                        chance: how many Honest cards ``seat`` gets
    (DRAW, seat, why)                   chance (or automatic once no unseen card is left)
    (ARRANGE, seat, why)                ``seat`` lays its cards face down in an order
    (WINDOW, kind, cursor, mask, after) the seat at ``cursor`` may play Equipment or pass;
                                        ``mask``: seats that passed since the last card;
                                        ``after``: 1 = start looking at the seat after ``cursor``
    (ANNOUNCE, again)                   the active seat announces (again: after a card resolved)
    (AIM, seat, why, exclude)           ``seat`` points its Gun (not at ``exclude``)
    (REAIM, player, holder)             ``player`` points ``holder``'s Gun (stand-in Planted Evidence)
    (FLIP, seat, why)                   ``seat`` turns one of its face-down cards face up
    (KEEP_EQUIP, seat)                  hand limit: ``seat`` keeps one Equipment card
    (KEEP_CARD, seat)                   Defibrillator: ``seat`` keeps one Integrity card
    (PICK, player, purpose, a, b)       ``player`` chooses an Integrity card for a card's effect
    (SETUP_DONE,) (TURN_START,) (RESOLVE,) (AIM_PHASE,) (TURN_END,)   automatic
"""

from __future__ import annotations

from typing import Final, TypeAlias

Task: TypeAlias = tuple[int, ...]

# chance
LEADERS: Final = 0
DEAL: Final = 1
DRAW: Final = 2
# decisions
ARRANGE: Final = 10
WINDOW: Final = 11
ANNOUNCE: Final = 12
AIM: Final = 13
REAIM: Final = 14
FLIP: Final = 15
KEEP_EQUIP: Final = 16
KEEP_CARD: Final = 17
PICK: Final = 18
# automatic
SETUP_DONE: Final = 30
TURN_START: Final = 31
RESOLVE: Final = 32
AIM_PHASE: Final = 33
TURN_END: Final = 34

CHANCE_OPS: Final = frozenset({LEADERS, DEAL, DRAW})
AUTOMATIC_OPS: Final = frozenset({SETUP_DONE, TURN_START, RESOLVE, AIM_PHASE, TURN_END})
#: Steps of the active seat's turn program, dropped when that seat is eliminated mid-turn.
TURN_PROGRAM: Final = frozenset({WINDOW, ANNOUNCE, RESOLVE, AIM_PHASE})

# window kinds
START: Final = 0  # start of the turn, before the action is announced
ANNOUNCED: Final = 1  # after an announcement, before the action resolves
RESOLVED: Final = 2  # after the action resolved, before the Aim phase
WINDOW_NAMES: Final = ("start of turn", "action announced", "action resolved")
#: play_options context for the announcement itself (own-action cards such as the Taser)
ACT: Final = 9

# why a card is drawn
FROM_DEAL: Final = 0
FROM_EQUIP: Final = 1
FROM_WOUND: Final = 2
DRAW_NAMES: Final = ("deal", "equip", "wound")

# why cards are arranged
SETUP: Final = 0
FLASHBANG: Final = 1
ARRANGE_NAMES: Final = ("setup", "flashbang")

# why a Gun is aimed
AIM_ARM: Final = 0
AIM_TASER: Final = 1
AIM_PHASE_WHY: Final = 2
AIM_RESTRAIN: Final = 3

# why a card is flipped
FLIP_EQUIP: Final = 0
FLIP_ARM: Final = 1
FLIP_SERUM: Final = 2
FLIP_AUDIT: Final = 3
FLIP_NAMES: Final = ("Equip", "Arm", "Truth Serum", "Report Audit")

# what a PICK is for
PICK_METAL: Final = 0  # a = the Gun holder investigated
PICK_WIRE_CARDS: Final = 1  # a = target, b = position already seen or -1
PICK_WIRE_FIRST: Final = 2
PICK_WIRE_SECOND: Final = 3  # a = the first seat
PICK_SWAP_MINE: Final = 4  # a = the other player
PICK_SWAP_THEIRS: Final = 5  # a = the other player, b = the player's own position
PICK_SWAP_FIRST: Final = 6
PICK_SWAP_SECOND: Final = 7  # a, b = the first card
PICK_CAMERA: Final = 8  # a = the investigated seat, b = bitmask of investigated positions
PICK_NAMES: Final = (
    "Metal Detector: which card of seat {a} to look at",
    "Wiretap: which card of seat {a} to look at",
    "Wiretap: the first card to look at",
    "Wiretap: a card of a second player to look at",
    "Blackmail: which of your cards to give seat {a}",
    "Blackmail: which card of seat {a} to take",
    "Blackmail: the first card to swap",
    "Blackmail: the card to swap with seat {a}'s",
    "Surveillance Camera: which investigated card of seat {a} turns face up",
)
