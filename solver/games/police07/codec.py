"""Police 07 action ids and their notation.

Action id layout (every id < 4096; a stop fits in the low byte)::

      0 .. 1791   move      combo * 256 + stop
                            combo 0 taxi, 1 bus, 2 metro       ("taxi 118")
                            combo 3..6 joker on taxi/bus/metro/water ("joker water 74")
   2048 .. 2303   start     2048 + stop   a start card dealt by chance   ("start 42")
   2304 .. 2559   place     2304 + stop   free start placement variant   ("place 42")
   2560           double    play the double-move ticket                  ("double")
   2561           show      voluntary appearance variant                 ("show")
   2562           pass      a detective with no legal move               ("pass")
   2576 .. 2599   take      2576 + piece * 4 + ticket: take a taxi/bus/metro ticket from detective
                            piece 1..5 after a voluntary show            ("take 2 bus")
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from solver.core import Action, InvalidActionError

MOVE_COMBOS: Final = 7
JOKER_COMBO: Final = 3
START_BASE: Final = 2048
PLACE_BASE: Final = 2304
DOUBLE: Final = 2560
SHOW: Final = 2561
PASS: Final = 2562
TAKE_BASE: Final = 2576
MAX_PIECE: Final = 5
#: The highest stop number an action id holds (its low byte); a board has at most this many.
MAX_STOP: Final = 255

#: Dr. Factor's moves that are shown (rulebook: the 1st, as he lifts his piece only at the 2nd; 3, 8,
#: 13 and 18), and the last move [End].
REVEALED_MOVES: Final = frozenset({1, 3, 8, 13, 18})
#: Dr. Factor's starting tickets: taxi, bus, metro, joker, double [Start]. Kept here, beside the
#: notation, so that the location tracker reads them without importing the rules (no import cycle).
FACTOR_TICKETS: Final = (3, 3, 2, 2, 2)
#: A ticket count that never runs out (the unlimited-tickets variant).
UNLIMITED: Final = -1
LAST_MOVE: Final = 24


class Ticket(IntEnum):
    """A ticket kind. Detectives hold taxi, bus and metro; Dr. Factor holds all five."""

    TAXI = 0
    BUS = 1
    METRO = 2
    JOKER = 3
    DOUBLE = 4


TICKET_NAMES: Final = ("taxi", "bus", "metro", "joker", "double")
LINE_NAMES: Final = ("taxi", "bus", "metro", "water")


def move_action(combo: int, stop: int) -> Action:
    """The move id for ``combo`` (0..6, see the layout) to ``stop``."""
    return combo * 256 + stop


def decode_move(action: Action) -> tuple[Ticket, int, int]:
    """Return ``(ticket, line, stop)`` of a move id: the ticket spent and the line ridden."""
    combo, stop = divmod(action, 256)
    if combo >= JOKER_COMBO:
        return Ticket.JOKER, combo - JOKER_COMBO, stop
    return Ticket(combo), combo, stop


def is_move(action: Action) -> bool:
    """True for a move id (any ticket, any line)."""
    return 0 <= action < MOVE_COMBOS * 256 and action % 256 != 0


def take_action(piece: int, ticket: Ticket) -> Action:
    """The id of taking ``ticket`` (taxi/bus/metro) from detective ``piece``."""
    return TAKE_BASE + piece * 4 + int(ticket)


def action_to_str(action: Action) -> str:
    """Render an action id in notation; raise :class:`InvalidActionError` for an unknown id."""
    if isinstance(action, bool) or not isinstance(action, int):
        raise InvalidActionError(f"action {action!r} is not an int")
    if is_move(action):
        ticket, line, stop = decode_move(action)
        if ticket == Ticket.JOKER:
            return f"joker {LINE_NAMES[line]} {stop}"
        return f"{TICKET_NAMES[ticket]} {stop}"
    if START_BASE < action < START_BASE + 256:
        return f"start {action - START_BASE}"
    if PLACE_BASE < action < PLACE_BASE + 256:
        return f"place {action - PLACE_BASE}"
    if action == DOUBLE:
        return "double"
    if action == SHOW:
        return "show"
    if action == PASS:
        return "pass"
    if TAKE_BASE + 4 <= action < TAKE_BASE + (MAX_PIECE + 1) * 4:
        piece, kind = divmod(action - TAKE_BASE, 4)
        if kind <= Ticket.METRO:
            return f"take {piece} {TICKET_NAMES[kind]}"
    raise InvalidActionError(f"{action} is not a Police 07 action id")


#: How each notation is written, by its first word: a wrong shape is told the right one.
FORMS: Final = {
    "taxi": "taxi STOP", "bus": "bus STOP", "metro": "metro STOP", "joker": "joker LINE STOP",
    "double": "double", "show": "show", "pass": "pass", "take": "take PIECE TICKET",
    "start": "start STOP", "place": "place STOP",
}


def _stop(word: str, text: str, stops: int) -> int:
    if not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= MAX_STOP:
        raise InvalidActionError(f"{text!r}: {word!r} is not a stop number (1..{stops})")
    return int(word)


def str_to_action(text: str, stops: int = MAX_STOP) -> Action:
    """Parse notation (``taxi 118``, ``joker water 74``, ``double``, ``take 2 bus`` ...).

    Every stop an action id can hold (1..255) is read, so each id's notation parses back to it on
    any board; ``stops`` is the board's last stop (a game passes its board's), and only the message
    for a number no id holds uses it: a player is told the stops of his board, not of the encoding.
    A stop in between (200 on a 196-stop board) parses, and the rules refuse it as not legal.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"action {text!r} is not a string")
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionError("empty action")
    head = words[0]
    if len(words) == 1 and head in ("double", "show", "pass"):
        return {"double": DOUBLE, "show": SHOW, "pass": PASS}[head]
    if head in ("taxi", "bus", "metro") and len(words) == 2:
        return move_action(TICKET_NAMES.index(head), _stop(words[1], text, stops))
    if head == "joker" and len(words) == 3:
        if words[1] not in LINE_NAMES:
            raise InvalidActionError(f"{text!r}: {words[1]!r} is not a line ({', '.join(LINE_NAMES)})")
        return move_action(JOKER_COMBO + LINE_NAMES.index(words[1]), _stop(words[2], text, stops))
    if head in ("start", "place") and len(words) == 2:
        return (START_BASE if head == "start" else PLACE_BASE) + _stop(words[1], text, stops)
    if head == "take" and len(words) == 3:
        if not (words[1].isascii() and words[1].isdigit()) or not 1 <= int(words[1]) <= MAX_PIECE:
            raise InvalidActionError(f"{text!r}: {words[1]!r} is not a detective piece (1..{MAX_PIECE})")
        if words[2] not in TICKET_NAMES[:3]:
            raise InvalidActionError(f"{text!r}: only a taxi, bus or metro ticket can be taken")
        return take_action(int(words[1]), Ticket(TICKET_NAMES.index(words[2])))
    if head in FORMS:
        raise InvalidActionError(f"cannot read {text!r}: write it as '{FORMS[head]}'")
    raise InvalidActionError(
        f"cannot read {text!r}: expected e.g. 'taxi 118', 'joker water 74', 'double', 'show', "
        "'pass', 'take 2 bus', 'start 42' or 'place 42'"
    )
