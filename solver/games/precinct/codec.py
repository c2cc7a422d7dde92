"""Police Precinct action ids and their notation.

One flat id space for every configuration; the legal list says which meaning applies now. Names
come from the game's content and city (``move Stickel Avenue``, ``play Fresh Perspective``,
``pick Costello``); seats and counts are numbers. Chance outcomes are named by what nature chose
(``die 4``, ``police Air Support``, ``event Traffic Accident (Vasel & 1st)``).

Layout (block start, size)::

    PROCEED 0           pass / done / no (ends a window, skips an optional step)
    YES 1               yes (take the van along, use the Federal Agent token, ...)
    MARKED 2 UNMARKED 3 car side (set-up; at the station at the start of a turn)
    DRAW_ACTION 4       the "Draw a Police Card" action
    ARREST 5            arrest street punks      ARREST_MURDERER 6
    REVEAL 7            reveal yourself as the dirty cop
    PLACE 8 HIDE 9      what an investigator does with evidence drawn
    KEEP 10 BOTTOM 11   the top event card after a look
    EV_FIRST 12 EV_LAST 13 SHUFFLE 14   order of investigation cards after a look
    NO_ACTION 15        end the action phase without an action
    PICK 16+c (16)      choose character c at set-up
    MOVE 32+s (64)      move your car to street s
    SUPPORT 96+s (64)   move the support vehicle to street s
    PLAY 160+k (32)     play police card kind k with its text, on your own turn
    HELP 192+k (32)     play police card kind k for its symbol, in another player's window
    DISCARD 224+k (32)  discard police card kind k
    INVESTIGATE 256+d (4)   investigate deck d
    HANDLE 260+e (16)   handle the emergency in board slot e
    UPGRADE 276+u (4)   buy upgrade u
    ACCUSE 280+p (8)    accuse seat p
    DONUTS 288+k (20)   spend k donuts
    OFFICERS 308+k (8)  use k patrol officers
    SWAT 316+k (3)      spend k SWAT tokens
    DONATE 319+k (4)    give k donuts to an accusation
    SABOTAGE 323+k (4)  a revealed dirty cop spends k donuts against the roll
    REWARD 327+r (8)    take reward r
    DECK 335+d (4)      choose investigation deck d (for a look)
    HOOD 339+h (6)      choose Bad Hood h+1
    LOYALTY 345+a (4)   a revealed dirty cop's loyalty action a
    TARGET 349+p (8)    choose seat p (Internal Affairs)
    --- chance ---
    DIE 400+v (6)       a die shows v+1
    POLICE 406+k (32)   a police card of kind k is drawn
    EVENT 438+k (64)    an event card of kind k is drawn
    UNKNOWN 502+k (10)  an Unknown Circumstances marker of kind k is revealed
    LOYAL 512, DIRTY 513    a loyalty card is dealt
    FOUND 514+e (32)    an investigation draw holds e evidence cards (among the cards not known)
    LOOKED 546+m (8)    looked-at cards: bit i set = card i is evidence
    SUCCESS 554+k (40)  k dice of an arrest succeed
    HANDLED 594 FAILED 595  an emergency roll succeeds or fails
    COMPASS 596+d (4)   the stolen car drives north, east, south or west
    GANG 600+g (8)      the street gang marker g is drawn
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from solver.core import Action, InvalidActionError

if TYPE_CHECKING:
    from solver.games.precinct.rules import PrecinctGame

PROCEED: Final = 0
YES: Final = 1
MARKED: Final = 2
UNMARKED: Final = 3
DRAW_ACTION: Final = 4
ARREST: Final = 5
ARREST_MURDERER: Final = 6
REVEAL: Final = 7
PLACE: Final = 8
HIDE: Final = 9
KEEP: Final = 10
BOTTOM: Final = 11
EV_FIRST: Final = 12
EV_LAST: Final = 13
SHUFFLE: Final = 14
NO_ACTION: Final = 15
PICK: Final = 16
MOVE: Final = 32
SUPPORT: Final = 96
PLAY: Final = 160
HELP: Final = 192
DISCARD: Final = 224
INVESTIGATE: Final = 256
HANDLE: Final = 260
UPGRADE: Final = 276
ACCUSE: Final = 280
DONUTS: Final = 288
OFFICERS: Final = 308
SWAT: Final = 316
DONATE: Final = 319
SABOTAGE: Final = 323
REWARD: Final = 327
DECK: Final = 335
HOOD: Final = 339
LOYALTY: Final = 345
TARGET: Final = 349
DIE: Final = 400
POLICE: Final = 406
EVENT: Final = 438
UNKNOWN: Final = 502
LOYAL: Final = 512
DIRTY: Final = 513
FOUND: Final = 514
LOOKED: Final = 546
SUCCESS: Final = 554
HANDLED: Final = 594
FAILED: Final = 595
COMPASS: Final = 596
GANG: Final = 600
NUM_ACTIONS: Final = 608

#: the largest content the layout holds
MAX_CHARACTERS: Final = 16
MAX_STREETS: Final = 64
MAX_POLICE_KINDS: Final = 32
MAX_EVENT_KINDS: Final = 64
MAX_SLOTS: Final = 16
MAX_SEATS: Final = 8
MAX_DONUTS: Final = 19
MAX_SUCCESS: Final = 39
MAX_FOUND: Final = 31

_WORDS: Final[dict[int, str]] = {
    PROCEED: "proceed", YES: "yes", MARKED: "car marked", UNMARKED: "car unmarked",
    DRAW_ACTION: "draw card", ARREST: "arrest punks", ARREST_MURDERER: "arrest murderer",
    REVEAL: "reveal", PLACE: "place evidence", HIDE: "claim useless", KEEP: "keep on top",
    BOTTOM: "put on bottom", EV_FIRST: "evidence first", EV_LAST: "evidence last",
    SHUFFLE: "shuffle", NO_ACTION: "no action", LOYAL: "loyalty good", DIRTY: "loyalty dirty",
    HANDLED: "roll handled", FAILED: "roll failed",
}
_COMPASS: Final = ("north", "east", "south", "west")
_BLOCKS: Final[tuple[tuple[int, int, str], ...]] = (
    (PICK, MAX_CHARACTERS, "pick"), (MOVE, MAX_STREETS, "move"), (SUPPORT, MAX_STREETS, "support"),
    (PLAY, MAX_POLICE_KINDS, "play"), (HELP, MAX_POLICE_KINDS, "help"),
    (DISCARD, MAX_POLICE_KINDS, "discard"), (INVESTIGATE, 4, "investigate"), (HANDLE, MAX_SLOTS, "handle"),
    (UPGRADE, 4, "upgrade"), (ACCUSE, MAX_SEATS, "accuse"), (DONUTS, MAX_DONUTS + 1, "donuts"),
    (OFFICERS, 8, "officers"), (SWAT, 3, "swat"), (DONATE, 4, "donate"), (SABOTAGE, 4, "sabotage"),
    (REWARD, 8, "reward"), (DECK, 4, "deck"), (HOOD, 6, "hood"), (LOYALTY, 4, "loyalty"),
    (TARGET, MAX_SEATS, "target"), (DIE, 6, "die"), (POLICE, MAX_POLICE_KINDS, "police"),
    (EVENT, MAX_EVENT_KINDS, "event"), (UNKNOWN, 10, "unknown"), (FOUND, MAX_FOUND + 1, "found"),
    (LOOKED, 8, "looked"), (SUCCESS, MAX_SUCCESS + 1, "success"), (COMPASS, 4, "compass"),
    (GANG, 8, "gang"),
)


def block_of(action: Action) -> tuple[int, int]:
    """``(block start, index in block)`` of ``action``; a word action is its own block (index 0)."""
    if action in _WORDS:
        return action, 0
    for start, size, _ in _BLOCKS:
        if start <= action < start + size:
            return start, action - start
    raise InvalidActionError(f"precinct: no action {action!r}")


def to_str(game: PrecinctGame, action: Action) -> str:
    """``action`` in notation, with the names of ``game``'s content and city."""
    if not isinstance(action, int) or isinstance(action, bool):
        raise InvalidActionError(f"precinct: action {action!r} is not an int")
    start, i = block_of(action)
    if start in _WORDS:
        return _WORDS[start]
    word = next(name for s, _, name in _BLOCKS if s == start)
    name = _name(game, start, i)
    if name is None:
        raise InvalidActionError(f"precinct: no action {action!r} in this game's content")
    return f"{word} {name}"


def _name(game: PrecinctGame, start: int, i: int) -> str | None:
    """The name of item ``i`` of block ``start``, or None when the content has no such item."""
    c = game.content
    tables: dict[int, tuple[str, ...]] = {
        PICK: tuple(ch.name for ch in c.characters),
        MOVE: game.city.streets, SUPPORT: game.city.streets,
        PLAY: game.police_names, HELP: game.police_names, DISCARD: game.police_names,
        POLICE: game.police_names, EVENT: game.event_names,
        INVESTIGATE: game.deck_names, DECK: game.deck_names, UPGRADE: game.upgrade_names,
        REWARD: game.reward_names, UNKNOWN: game.unknown_names, LOYALTY: game.loyalty_names,
        GANG: game.gang_names, COMPASS: _COMPASS,
    }
    if start in tables:
        names = tables[start]
        return names[i] if i < len(names) else None
    if start in (ACCUSE, TARGET):
        return str(i) if i < game.num_players else None
    if start in (HANDLE, HOOD, DIE):  # board slots, Bad Hoods and die faces count from 1
        return str(i + 1)
    return str(i)


def parse_table(game: PrecinctGame) -> dict[str, Action]:
    """Every action's notation (lower case) -> its id, for :func:`from_str`."""
    table: dict[str, Action] = {}
    for action in range(NUM_ACTIONS):
        try:
            table[to_str(game, action).lower()] = action
        except InvalidActionError:
            continue
    return table
