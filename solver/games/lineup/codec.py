"""LineUp action ids and their notation.

Seats count from 0 (``play hinder 2``); a seat's face-down Suspect cards count from 1 in the order it
drew them (``lineup 1``); lineup stands count from 1, left to right (``pick 3``). Spaces are board
numbers, the station and the scenes also by name (``move 12``, ``move bakery``, ``move station``);
Suspect cards are named by their content id (``bakery-07``).

Action id layout (one flat int space; the legal list says which meaning applies now)::

       0         roll          start of turn: roll the die
       1         end           end the turn (no lineup, no Lucky Break draw, keep the card drawn)
       2         study         the study moment is over: the Suspect card goes face down
       3         lucky         on a Lucky Break space: draw a Lucky Break card
      16 ..  265 move          16 + space
     300 ..  555 lineup        300 + face-down card (0-based; "lineup 1" is 300)
     600 ..  855 another-look  600 + face-down card ("play another-look 1")
     900         to-station    "play to-station"
     910 ..  915 hinder        910 + seat ("play hinder 2")
     920 ..  929 pick          920 + stand (0-based; "pick 1" is 920)
    1001 .. 1006 die           chance: the die shows 1..6 ("die 4")
    1100 .. 1355 draw          chance: 1100 + 32 * scene + card, a Suspect card to study ("draw bakery-07")
    1400 .. 1655 innocent      chance: 1400 + 32 * scene + card, an innocent for a lineup
    1700 .. 1709 guilty        chance: 1700 + stand, where the guilty card stands ("guilty 3")
    1720 .. 1722 lucky draw    chance: 1720 + kind ("lucky hinder")
"""

from __future__ import annotations

from typing import Final

from solver.core import Action, InvalidActionError
from solver.games.lineup.board import Board
from solver.games.lineup.content import LUCKY_NAMES, MAX_CARDS, MAX_SCENES

ROLL: Final = 0
END: Final = 1
STUDY: Final = 2
LUCKY: Final = 3
MOVE: Final = 16
LINEUP: Final = 300
LOOK: Final = 600
TO_STATION: Final = 900
HINDER: Final = 910
PICK: Final = 920
DIE: Final = 1000
DRAW: Final = 1100
INNOCENT: Final = 1400
GUILTY: Final = 1700
LUCKY_DRAW: Final = 1720

MAX_SEATS: Final = 6
MAX_HELD: Final = 256
MAX_STANDS: Final = 10
_WORDS: Final = {ROLL: "roll", END: "end", STUDY: "study", LUCKY: "lucky"}


def card_action(base: int, scene: int, card: int) -> Action:
    """The id of a Suspect card outcome (``base`` DRAW or INNOCENT)."""
    return base + MAX_CARDS * scene + card


def decode_card(action: Action, base: int) -> tuple[int, int]:
    """``(scene, card)`` of a draw or innocent id."""
    return divmod(action - base, MAX_CARDS)


class Codec:
    """Notation for one board and one set of Suspect card ids (``cards[scene][card]``)."""

    def __init__(self, board: Board, cards: tuple[tuple[str, ...], ...]) -> None:
        self.board = board
        self.cards = cards
        self.by_id = {cid: (s, c) for s, ids in enumerate(cards) for c, cid in enumerate(ids)}
        self.by_label = {board.label(s): s for s in range(len(board.kinds))}

    def action_to_str(self, action: Action) -> str:
        """Render ``action``; :class:`InvalidActionError` for an id that is no action."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise InvalidActionError(f"lineup: action {action!r} is not an int")
        a = action
        if a in _WORDS:
            return _WORDS[a]
        if MOVE <= a < MOVE + len(self.board.kinds):
            return f"move {self.board.label(a - MOVE)}"
        if LINEUP <= a < LINEUP + MAX_HELD:
            return f"lineup {a - LINEUP + 1}"
        if LOOK <= a < LOOK + MAX_HELD:
            return f"play another-look {a - LOOK + 1}"
        if a == TO_STATION:
            return "play to-station"
        if HINDER <= a < HINDER + MAX_SEATS:
            return f"play hinder {a - HINDER}"
        if PICK <= a < PICK + MAX_STANDS:
            return f"pick {a - PICK + 1}"
        if DIE + 1 <= a <= DIE + 6:
            return f"die {a - DIE}"
        for base, word in ((DRAW, "draw"), (INNOCENT, "innocent")):
            if base <= a < base + MAX_CARDS * MAX_SCENES:
                scene, card = decode_card(a, base)
                if scene < len(self.cards) and card < len(self.cards[scene]):
                    return f"{word} {self.cards[scene][card]}"
        if GUILTY <= a < GUILTY + MAX_STANDS:
            return f"guilty {a - GUILTY + 1}"
        if LUCKY_DRAW <= a < LUCKY_DRAW + len(LUCKY_NAMES):
            return f"lucky {LUCKY_NAMES[a - LUCKY_DRAW]}"
        raise InvalidActionError(f"lineup: {action} is not an action id")

    def str_to_action(self, text: str) -> Action:
        """Parse notation (``move 12``, ``lineup 1``, ``pick 3``, ``play hinder 2``, ``die 4`` ...)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"lineup: action {text!r} is not a string")
        words = text.strip().lower().split()
        if not words:
            raise InvalidActionError("lineup: empty action")
        head, args = words[0], words[1:]
        if not args and head in _WORDS.values():
            return next(a for a, w in _WORDS.items() if w == head)
        if len(args) == 1:
            arg = args[0]
            if head == "move":
                if arg in self.by_label:
                    return MOVE + self.by_label[arg]
                if arg.isascii() and arg.isdigit() and int(arg) < len(self.board.kinds):
                    return MOVE + int(arg)  # the station and scenes by number too
                raise InvalidActionError(f"lineup: {text!r}: {arg!r} is not a space of this board")
            if head == "lineup":
                return LINEUP + _number(arg, text, 1, MAX_HELD, "face-down card") - 1
            if head == "pick":
                return PICK + _number(arg, text, 1, MAX_STANDS, "stand") - 1
            if head == "die":
                return DIE + _number(arg, text, 1, 6, "die face")
            if head == "guilty":
                return GUILTY + _number(arg, text, 1, MAX_STANDS, "stand") - 1
            if head in ("draw", "innocent"):
                if arg not in self.by_id:
                    raise InvalidActionError(f"lineup: {text!r}: {arg!r} is not a Suspect card")
                return card_action(DRAW if head == "draw" else INNOCENT, *self.by_id[arg])
            if head == "lucky" and arg in LUCKY_NAMES:
                return LUCKY_DRAW + LUCKY_NAMES.index(arg)
            if head == "play" and arg == "to-station":
                return TO_STATION
        if head == "play" and len(args) == 2:
            if args[0] == "another-look":
                return LOOK + _number(args[1], text, 1, MAX_HELD, "face-down card") - 1
            if args[0] == "hinder":
                return HINDER + _number(args[1], text, 0, MAX_SEATS - 1, "seat")
        raise InvalidActionError(
            f"lineup: cannot read {text!r}: expected e.g. 'roll', 'move 12', 'move bakery', 'study', "
            "'lineup 1', 'pick 3', 'end', 'lucky', 'play another-look 1', 'play to-station', 'play hinder 2'"
        )


def _number(word: str, text: str, low: int, high: int, what: str) -> int:
    if not (word.isascii() and word.isdigit()) or not low <= int(word) <= high:
        raise InvalidActionError(f"lineup: {text!r}: {word!r} is not a {what} ({low}..{high})")
    return int(word)

