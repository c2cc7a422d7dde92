"""Good Cop Bad Cop action ids and their notation.

Seats and card positions count from 0: ``investigate 2.1`` looks at seat 2's card at position 1.
Equipment cards are named by their content id (``taser``, ``truth-serum``); their numbers are their
places in the content file, so the codec takes the game's tuple of card ids.

Action id layout (one flat int space; the legal list says which meaning applies now)::

      0         pass           decline to play Equipment in a window
      1         equip          action: draw an Equipment card, turn one own card face up
      2         arm            action: take a Gun from the centre, aim it, turn one card face up
      3         shoot          action: shoot the player your Gun aims at
      8 ..  31  investigate    8 + 3 * seat + pos   action, or a card's look ("investigate 2.1")
     32 ..  55  pick           32 + 3 * seat + pos  a card's choice of an Integrity card ("pick 2.1")
     56 ..  63  aim            56 + seat            point a Gun at seat ("aim 3")
     64 ..  66  flip           64 + pos             turn one's own card face up ("flip 1")
     68 ..  70  keep card      68 + pos             Defibrillator: the Integrity card kept ("keep 1")
     72 ..  80  arrange        72 + index into deal.ARRANGEMENTS ("arrange 201", "arrange 10")
     96 .. 127  keep equipment 96 + card            hand limit: the card kept ("keep taser")
    128 .. 415  play           128 + 9 * card + (target + 1, or 0 without one)
                               ("play taser 3", "play smoke-grenade")
    512 .. 575  leaders        chance: 512 + 8 * agent seat + kingpin seat ("leaders 2 5")
    576 .. 579  deal           chance: 576 + Honest cards among a seat's dealt cards ("deal 2 honest")
    600 .. 631  draw           chance: 600 + card, an Equipment card dealt or drawn ("draw taser")
"""

from __future__ import annotations

from typing import Final

from solver.core import Action, InvalidActionError
from solver.games.gcbc.deal import ARRANGEMENTS, CARDS_PER_PLAYER, MAX_PLAYERS

PASS: Final = 0
EQUIP: Final = 1
ARM: Final = 2
SHOOT: Final = 3
INVESTIGATE: Final = 8
PICK: Final = 32
AIM: Final = 56
FLIP: Final = 64
KEEP_CARD: Final = 68
ARRANGE: Final = 72
KEEP_EQUIP: Final = 96
PLAY: Final = 128
LEADERS: Final = 512
DEAL: Final = 576
DRAW: Final = 600

MAX_CARDS: Final = 32
NO_TARGET: Final = -1
_WORDS: Final = {PASS: "pass", EQUIP: "equip", ARM: "arm", SHOOT: "shoot"}


def investigate(seat: int, pos: int) -> Action:
    """The id of ``investigate seat.pos``."""
    return INVESTIGATE + CARDS_PER_PLAYER * seat + pos


def pick(seat: int, pos: int) -> Action:
    """The id of ``pick seat.pos``."""
    return PICK + CARDS_PER_PLAYER * seat + pos


def play(card: int, target: int = NO_TARGET) -> Action:
    """The id of playing Equipment ``card`` (with a target seat, or :data:`NO_TARGET`)."""
    return PLAY + 9 * card + target + 1


def decode_play(action: Action) -> tuple[int, int]:
    """``(card, target)`` of a play id; target is :data:`NO_TARGET` when the play names none."""
    card, rest = divmod(action - PLAY, 9)
    return card, rest - 1


def slot(action: Action, base: int) -> tuple[int, int]:
    """``(seat, pos)`` of an investigate or pick id."""
    return divmod(action - base, CARDS_PER_PLAYER)


def is_play(action: Action) -> bool:
    """True for a play id."""
    return PLAY <= action < PLAY + 9 * MAX_CARDS


def action_to_str(action: Action, cards: tuple[str, ...]) -> str:
    """Render ``action`` in notation; :class:`InvalidActionError` for an id that is no action."""
    if isinstance(action, bool) or not isinstance(action, int):
        raise InvalidActionError(f"gcbc: action {action!r} is not an int")
    a = action
    if a in _WORDS:
        return _WORDS[a]
    if INVESTIGATE <= a < INVESTIGATE + CARDS_PER_PLAYER * MAX_PLAYERS:
        return "investigate {}.{}".format(*slot(a, INVESTIGATE))
    if PICK <= a < PICK + CARDS_PER_PLAYER * MAX_PLAYERS:
        return "pick {}.{}".format(*slot(a, PICK))
    if AIM <= a < AIM + MAX_PLAYERS:
        return f"aim {a - AIM}"
    if FLIP <= a < FLIP + CARDS_PER_PLAYER:
        return f"flip {a - FLIP}"
    if KEEP_CARD <= a < KEEP_CARD + CARDS_PER_PLAYER:
        return f"keep {a - KEEP_CARD}"
    if ARRANGE <= a < ARRANGE + len(ARRANGEMENTS):
        return "arrange " + "".join(str(i) for i in ARRANGEMENTS[a - ARRANGE])
    if KEEP_EQUIP <= a < KEEP_EQUIP + len(cards):
        return f"keep {cards[a - KEEP_EQUIP]}"
    if is_play(a):
        card, target = decode_play(a)
        if card < len(cards) and target < MAX_PLAYERS:
            return f"play {cards[card]}" + ("" if target == NO_TARGET else f" {target}")
    if LEADERS <= a < LEADERS + MAX_PLAYERS * MAX_PLAYERS:
        agent, kingpin = divmod(a - LEADERS, MAX_PLAYERS)
        if agent != kingpin:
            return f"leaders {agent} {kingpin}"
    if DEAL <= a <= DEAL + CARDS_PER_PLAYER:
        return f"deal {a - DEAL} honest"
    if DRAW <= a < DRAW + len(cards):
        return f"draw {cards[a - DRAW]}"
    raise InvalidActionError(f"gcbc: {action} is not an action id")


def _number(word: str, text: str, limit: int, what: str) -> int:
    if not (word.isascii() and word.isdigit()) or int(word) >= limit:
        raise InvalidActionError(f"gcbc: {text!r}: {word!r} is not a {what} (0..{limit - 1})")
    return int(word)


def _slot(word: str, text: str) -> tuple[int, int]:
    seat, dot, pos = word.partition(".")
    if not dot:
        raise InvalidActionError(f"gcbc: {text!r}: expected seat.position such as 2.1, not {word!r}")
    return _number(seat, text, MAX_PLAYERS, "seat"), _number(pos, text, CARDS_PER_PLAYER, "card position")


def _card(word: str, text: str, cards: tuple[str, ...]) -> int:
    if word not in cards:
        raise InvalidActionError(f"gcbc: {text!r}: {word!r} is not an Equipment card ({', '.join(cards)})")
    return cards.index(word)


def str_to_action(text: str, cards: tuple[str, ...]) -> Action:
    """Parse notation (``investigate 2.1``, ``play taser 3``, ``aim 3``, ``pass`` ...)."""
    if not isinstance(text, str):
        raise InvalidActionError(f"gcbc: action {text!r} is not a string")
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionError("gcbc: empty action")
    head, args = words[0], words[1:]
    if not args and head in _WORDS.values():
        return next(a for a, w in _WORDS.items() if w == head)
    if head in ("investigate", "pick") and len(args) == 1:
        seat, pos = _slot(args[0], text)
        return investigate(seat, pos) if head == "investigate" else pick(seat, pos)
    if head == "aim" and len(args) == 1:
        return AIM + _number(args[0], text, MAX_PLAYERS, "seat")
    if head == "flip" and len(args) == 1:
        return FLIP + _number(args[0], text, CARDS_PER_PLAYER, "card position")
    if head == "keep" and len(args) == 1:
        if args[0].isascii() and args[0].isdigit():
            return KEEP_CARD + _number(args[0], text, CARDS_PER_PLAYER, "card position")
        return KEEP_EQUIP + _card(args[0], text, cards)
    if head == "arrange" and len(args) == 1:
        order = tuple(int(c) for c in args[0] if c.isascii() and c.isdigit())
        if len(order) == len(args[0]) and order in ARRANGEMENTS:
            return ARRANGE + ARRANGEMENTS.index(order)
        raise InvalidActionError(f"gcbc: {text!r}: {args[0]!r} is not an order of card positions")
    if head == "play" and len(args) in (1, 2):
        card = _card(args[0], text, cards)
        target = _number(args[1], text, MAX_PLAYERS, "seat") if len(args) == 2 else NO_TARGET
        return play(card, target)
    if head == "leaders" and len(args) == 2:
        agent = _number(args[0], text, MAX_PLAYERS, "seat")
        kingpin = _number(args[1], text, MAX_PLAYERS, "seat")
        if agent == kingpin:
            raise InvalidActionError(f"gcbc: {text!r}: the Agent and the Kingpin go to two seats")
        return LEADERS + MAX_PLAYERS * agent + kingpin
    if head == "deal" and len(args) == 2 and args[1] == "honest":
        return DEAL + _number(args[0], text, CARDS_PER_PLAYER + 1, "count")
    if head == "draw" and len(args) == 1:
        return DRAW + _card(args[0], text, cards)
    raise InvalidActionError(
        f"gcbc: cannot read {text!r}: expected e.g. 'investigate 2.1', 'equip', 'arm', 'shoot', "
        "'aim 3', 'flip 1', 'play taser 3', 'pass', 'pick 2.1', 'keep taser', 'arrange 201'"
    )
