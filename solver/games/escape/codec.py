"""Escape Plan action ids and their notation.

One flat id space for every configuration (2-5 players, the shipped or a user's city and content);
the legal list says which meaning applies now. Locations are named by kind and label (``store A``,
``exit 1``, ``hospital``) or, for kinds a city holds several of, by kind and tile
(``business (Riverside)``); tiles by name; seats and counts by numbers. Chance outcomes are named by
what nature chose (``officer county``, ``reveal Riverside``, ``plan Plan 3``).

Layout (block start, size)::

    DONE 0          end an executive window / an optional step
    YES 1, NO 2     spend an Extra Action disc at Night or Dawn (and other yes/no questions)
    REST 3, MOVE 4  the turn's Action ("Actions")
    TAKE_WOUNDS 5   stop avoiding and take one wound per officer left ("Step 2: Avoid")
    PASS 6          no Action is possible (rested already, nowhere to travel)
    GAS 8+k (11)            return k gas cans for +k MP ("Step 1: Travel")
    TRAVEL 20+l*4+r         travel to Location l by its route r (minimal set of tiles left)
    ESCAPE 20+MAX_LOC*4+r   travel to the open exit by route r and escape ("Escaping the City")
    DISPLAY +s (4)          choose the display tile on stack s (A..D) to place ("3. City")
    PLACE +c*6+k            place it on cell c of the region, rotation k
    BUSINESS +b (6)         put Business tile b+1 on the new tile's business space
    SAFE_HOUSE +h (3)       put Safe House tile h+1 on the new tile's safe house space
    UNLOCK +a (7)           unlock asset a
    PICK_OFFICER +t*3+p     move the officer of type p from tile t ("Crossing the Threshold")
    DEST +t (MAX_TILES)     ... to tile t
    SANDRA_AS +p (3)        Sandra counts as an officer of type p for this Avoid step (2 players)
    EXEC +k (512)           executive actions (named by the executive module's hook)
    --- chance ---
    START +i (4)            the starting tiles: i // 2 the tile at (0,0), i % 2 rotation 0 or 3
    REVEAL +t (MAX_TILES)   a stack's new top tile
    OFFICER +p (3)          an officer of type p drawn from the bag
    KEY +k (3)              a key of colour k on a safe house space
    CONTACT +c (MAX_CARDS)  contact card c (its first copy in the content) to the display
    PLAN +c (MAX_CARDS)     an Escape Plan card dealt (seen by its owner only)
    PATROL +e (3)           a patrol card for exit e+1
    INSPECTOR +c (MAX_CARDS) an Inspector card revealed (Sandra's turn, sandra.py)
    TILE_VALUE +v (1001)    a locker or exit tile of value $v k drawn (visit.py; seen by the drawer only)
    --- the Visit's choices ("Step 3: Visit", visit.py) ---
    V_WORD +w (8)           gas can, clinic heal, church, exit income, exit tile, two end-of-turn bonuses
    V_HOSPITAL +k (4)       heal k wounds at the Hospital (k = 0..3)
    V_KEY +c (3)            take the key of colour c at a Safe House
    V_ENTER +k (4)          enter a closed business with the key of safe house k+1 (3: the master key)
    V_LOCKER +c*4+k (12)    open locker c with the key of safe house k+1 (3: the master key)
    V_EQUIP +e*12+i         buy equipment e onto Item space i
    V_FIXER +f*12+i         buy Fixer tile f onto Item space i
    V_PICK +p*MAX_CARDS+c   take contact card c from display position p ("Taking Contact Cards")
    V_HOW +h (11)           ... A: to the box (0); B: onto Contact space h-1 (1..5); C: replacing space h-6
    V_KEEP +v*12+i          keep the drawn locker or exit tile of value $v k on Item space i (hidden)
    --- Sandra's random discards (chance, "Sandra's Cards", sandra.py) ---
    S_KEY +c (3)            Sandra discards the key of colour c from the safe house she visits
    S_FIXER +f (8)          ... Fixer tile f
    S_TILE +v (1001)        ... a locker or exit tile of value $v k, seen by nobody ("discard value ?")

Placement cells are those within hex distance :data:`REGION_RADIUS` of ``(0, 0)``: each new tile must
touch two placed tiles that touch each other, so the city grows outward by one ring at most every
second tile; from the two starting tiles (rings 0 and 1), 12 tiles reach ring 7 at most.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from solver.core import Action, InvalidActionError
from solver.games.escape.city import distance
from solver.games.escape.tasks import HOOKS

if TYPE_CHECKING:
    from solver.games.escape.rules import EscapeGame

#: Locations a city may hold (14 tiles, 6 Locations each).
MAX_LOCATIONS: Final = 84
#: Tiles of a city.
MAX_TILES: Final = 14
#: Routes offered per destination (``reachable``'s order: fewest tiles first).
MAX_ROUTES: Final = 4
#: Most gas cans returned at once (the content's board caps gas cans at 10).
MAX_GAS: Final = 10
#: Distinct cards a pile (contacts, plans, inspector cards) may hold (content.MAX_PILE).
MAX_CARDS: Final = 200
#: Largest tile value ($k, content.MAX_MONEY).
MAX_VALUE: Final = 1000
#: Executive action ids reserved for executive.py.
MAX_EXEC: Final = 512
#: The placement region: every cell within this hex distance of (0, 0) (module docstring).
REGION_RADIUS: Final = 7

REGION: Final[tuple[tuple[int, int], ...]] = tuple(
    (q, r) for q in range(-REGION_RADIUS, REGION_RADIUS + 1) for r in range(-REGION_RADIUS, REGION_RADIUS + 1)
    if distance((0, 0), (q, r)) <= REGION_RADIUS)
CELL_INDEX: Final[dict[tuple[int, int], int]] = {c: i for i, c in enumerate(REGION)}

DONE: Final = 0
YES: Final = 1
NO: Final = 2
REST: Final = 3
MOVE: Final = 4
TAKE_WOUNDS: Final = 5
PASS: Final = 6
GAS: Final = 8
TRAVEL: Final = 20
ESCAPE: Final = TRAVEL + MAX_LOCATIONS * MAX_ROUTES
DISPLAY: Final = ESCAPE + MAX_ROUTES
PLACE: Final = DISPLAY + 4
BUSINESS: Final = PLACE + len(REGION) * 6
SAFE_HOUSE: Final = BUSINESS + 6
UNLOCK: Final = SAFE_HOUSE + 3
PICK_OFFICER: Final = UNLOCK + 7
DEST: Final = PICK_OFFICER + MAX_TILES * 3
SANDRA_AS: Final = DEST + MAX_TILES
EXEC: Final = SANDRA_AS + 3
START: Final = EXEC + MAX_EXEC
REVEAL: Final = START + 4
OFFICER: Final = REVEAL + MAX_TILES
KEY: Final = OFFICER + 3
CONTACT: Final = KEY + 3
PLAN: Final = CONTACT + MAX_CARDS
PATROL: Final = PLAN + MAX_CARDS
INSPECTOR: Final = PATROL + 3
TILE_VALUE: Final = INSPECTOR + MAX_CARDS
#: Item spaces a board may have (content.MAX_ITEM_SPACES) and contact cards a display shows (set-up 15).
MAX_ITEMS: Final = 12
MAX_DISPLAY: Final = 7
CONTACT_SPACES: Final = 5
V_WORD: Final = TILE_VALUE + MAX_VALUE + 1
V_HOSPITAL: Final = V_WORD + 8
V_KEY: Final = V_HOSPITAL + 4
V_ENTER: Final = V_KEY + 3
V_LOCKER: Final = V_ENTER + 4
V_EQUIP: Final = V_LOCKER + 12
V_FIXER: Final = V_EQUIP + 4 * MAX_ITEMS
V_PICK: Final = V_FIXER + 8 * MAX_ITEMS
V_HOW: Final = V_PICK + MAX_DISPLAY * MAX_CARDS
V_KEEP: Final = V_HOW + 1 + 2 * CONTACT_SPACES
S_KEY: Final = V_KEEP + (MAX_VALUE + 1) * MAX_ITEMS
S_FIXER: Final = S_KEY + 3
S_TILE: Final = S_FIXER + 8
NUM_ACTIONS: Final = S_TILE + MAX_VALUE + 1
#: The V_WORD choices, by offset.
TAKE_GAS: Final = V_WORD
CLINIC_HEAL: Final = V_WORD + 1
CHURCH_PAY: Final = V_WORD + 2
EXIT_INCOME: Final = V_WORD + 3
EXIT_TILE: Final = V_WORD + 4
BONUS_DISC: Final = V_WORD + 5
BONUS_UNLOCK: Final = V_WORD + 6  # lose 1 notoriety (businesses) or receive income (safe houses) + unlock
_V_WORDS: Final = ("take gas can", "heal a wound", "pay to lose notoriety", "receive income",
                   "take exit tile", "bonus extra action", "bonus unlock")

_WORDS: Final[dict[int, str]] = {DONE: "done", YES: "yes", NO: "no", REST: "rest", MOVE: "move",
                                 TAKE_WOUNDS: "take wounds", PASS: "pass"}
POLICE_NAMES: Final = ("county", "federal", "swat")
EQUIPMENT_NAMES: Final = ("vest", "hat", "helmet", "gas mask")
FIXER_NAMES: Final = ("helicopter", "safe", "disguise", "id card", "first aid kit", "motorcycle",
                      "energy drink", "telephone")
LOCKER_NAMES: Final = ("green", "black", "brown")
STACK_NAMES: Final = ("A", "B", "C", "D")

#: (start, size) of every block besides the words, in id order.
_BLOCKS: Final[tuple[tuple[int, int], ...]] = (
    (GAS, MAX_GAS + 1), (TRAVEL, MAX_LOCATIONS * MAX_ROUTES), (ESCAPE, MAX_ROUTES), (DISPLAY, 4),
    (PLACE, len(REGION) * 6), (BUSINESS, 6), (SAFE_HOUSE, 3), (UNLOCK, 7), (PICK_OFFICER, MAX_TILES * 3),
    (DEST, MAX_TILES), (SANDRA_AS, 3), (EXEC, MAX_EXEC), (START, 4), (REVEAL, MAX_TILES), (OFFICER, 3),
    (KEY, 3), (CONTACT, MAX_CARDS), (PLAN, MAX_CARDS), (PATROL, 3), (INSPECTOR, MAX_CARDS),
    (TILE_VALUE, MAX_VALUE + 1), (V_WORD, len(_V_WORDS)), (V_HOSPITAL, 4), (V_KEY, 3), (V_ENTER, 4),
    (V_LOCKER, 12), (V_EQUIP, 4 * MAX_ITEMS), (V_FIXER, 8 * MAX_ITEMS), (V_PICK, MAX_DISPLAY * MAX_CARDS),
    (V_HOW, 1 + 2 * CONTACT_SPACES), (V_KEEP, (MAX_VALUE + 1) * MAX_ITEMS), (S_KEY, 3), (S_FIXER, 8),
    (S_TILE, MAX_VALUE + 1),
)


def block_of(action: Action) -> tuple[int, int]:
    """``(block start, index in block)``; a word action is its own block (index 0)."""
    if action in _WORDS:
        return action, 0
    for start, size in _BLOCKS:
        if start <= action < start + size:
            return start, action - start
    raise InvalidActionError(f"escape: no action {action!r}")


def travel(location: int, route: int) -> Action:
    """The id of travelling to ``location`` by route ``route`` (0-based)."""
    return TRAVEL + location * MAX_ROUTES + route


def place(cell: tuple[int, int], rotation: int) -> Action:
    """The id of placing the chosen tile on ``cell`` turned by ``rotation``; InvalidActionError outside
    the region (a city that grew further than the rules allow)."""
    index = CELL_INDEX.get(cell)
    if index is None:
        raise InvalidActionError(f"escape: cell {cell} lies outside the placement region")
    return PLACE + index * 6 + rotation


def to_str(game: EscapeGame, action: Action) -> str:
    """``action`` in notation, with the names of ``game``'s city and content."""
    if not isinstance(action, int) or isinstance(action, bool):
        raise InvalidActionError(f"escape: action {action!r} is not an int")
    start, i = block_of(action)
    if start in _WORDS:
        return _WORDS[start]
    text = _name(game, start, i)
    if text is None:
        raise InvalidActionError(f"escape: no action {action!r} in this game's content")
    return text


def _name(game: EscapeGame, start: int, i: int) -> str | None:
    """The notation of item ``i`` of block ``start``, or None when this game has no such item."""
    city, content = game.city, game.content
    tiles = len(city.tiles)
    if start == GAS:
        return f"gas {i}"
    if start == TRAVEL:
        loc, route = divmod(i, MAX_ROUTES)
        if loc >= len(city.locations):
            return None
        return f"travel {game.location_names[loc]} route {route + 1}"
    if start == ESCAPE:
        return f"escape route {i + 1}"
    if start == DISPLAY:
        return f"tile {STACK_NAMES[i]}"
    if start == PLACE:
        cell, k = divmod(i, 6)
        q, r = REGION[cell]
        return f"place at {q},{r} rot {k}"
    if start == BUSINESS:
        return f"business {i + 1}"
    if start == SAFE_HOUSE:
        return f"safe house {i + 1}"
    if start == UNLOCK:
        return f"unlock {game.asset_names[i]}"
    if start == PICK_OFFICER:
        t, p = divmod(i, 3)
        return f"officer {POLICE_NAMES[p]} on {city.tiles[t].name}" if t < tiles else None
    if start == DEST:
        return f"to {city.tiles[i].name}" if i < tiles else None
    if start == SANDRA_AS:
        return f"sandra as {POLICE_NAMES[i]}"
    if start == EXEC:
        name: str | None = HOOKS["executive_name"](game, i)
        return name
    if start == START:
        first = city.start_tiles[i // 2]
        return f"start {city.tiles[first].name} rot {(0, 3)[i % 2]}"
    if start == REVEAL:
        return f"reveal {city.tiles[i].name}" if i < tiles else None
    if start == OFFICER:
        return f"officer {POLICE_NAMES[i]}"
    if start == KEY:
        return f"key {LOCKER_NAMES[i]}"
    if start == CONTACT:
        return f"contact {content.contacts[i].name}" if i in game.contact_kinds else None
    if start == PLAN:
        return f"plan {content.plans[i].name}" if i < len(content.plans) else None
    if start == PATROL:
        return f"patrol exit {i + 1}"
    if start == INSPECTOR:
        if i >= len(content.inspector):
            return None
        kind, label = content.inspector[i]
        return f"inspector {i + 1} {kind.replace('_', ' ')} {label}"
    if start == TILE_VALUE:
        return f"value {i}"
    return _visit_name(game, start, i)


def _visit_name(game: EscapeGame, start: int, i: int) -> str | None:
    """The notation of the Visit's choices (the V_ blocks)."""
    content = game.content
    items = content.board.item_spaces
    if start == V_WORD:
        return _V_WORDS[i]
    if start == V_HOSPITAL:
        return f"hospital heal {i}"
    if start == V_KEY:
        return f"take {LOCKER_NAMES[i]} key"
    if start == V_ENTER:
        return "enter with master key" if i == 3 else f"enter with key {i + 1}"
    if start == V_LOCKER:
        colour, k = divmod(i, 4)
        key = "master key" if k == 3 else f"key {k + 1}"
        return f"open {LOCKER_NAMES[colour]} locker with {key}"
    if start in (V_EQUIP, V_FIXER):
        kind, space = divmod(i, MAX_ITEMS)
        if space >= items:
            return None
        if start == V_EQUIP:
            return f"buy {EQUIPMENT_NAMES[kind]} on item {space + 1}"
        return f"buy fixer {FIXER_NAMES[kind]} on item {space + 1}"
    if start == V_PICK:
        position, card = divmod(i, MAX_CARDS)
        if card not in game.contact_kinds:
            return None
        return f"take {content.contacts[card].name} from display {position + 1}"
    if start == V_HOW:
        if i == 0:
            return "contact to the box"
        if i <= CONTACT_SPACES:
            return f"contact to space {i}"
        return f"contact replaces space {i - CONTACT_SPACES}"
    if start == V_KEEP:
        value, space = divmod(i, MAX_ITEMS)
        return f"keep {value} on item {space + 1}" if space < items else None
    if start == S_KEY:
        return f"discard {LOCKER_NAMES[i]} key"
    if start == S_FIXER:
        return f"discard fixer {FIXER_NAMES[i]}" if i < len(content.fixer_costs) else None
    if start == S_TILE:
        return f"discard value {i}"
    return None


def keep(value: int, space: int) -> Action:
    """The id of keeping a drawn tile of ``value`` $k on Item space ``space`` (0-based)."""
    return V_KEEP + value * MAX_ITEMS + space


def keep_masked(space: int) -> str:
    """What the other seats see of a keep: the Item space, not the value ("Lockers" 3: face down)."""
    return f"keep ? on item {space + 1}"


#: What every seat sees of Sandra's discard of a locker or exit tile ("return it to the box without anyone
#: seeing it", "Sandra's Cards").
DISCARD_MASKED: Final = "discard value ?"


def parse_table(game: EscapeGame) -> dict[str, Action]:
    """Every action's notation (lower case, single spaces) -> its id."""
    table: dict[str, Action] = {}
    for action in range(NUM_ACTIONS):
        try:
            text = to_str(game, action)
        except InvalidActionError:
            continue
        table[" ".join(text.lower().split())] = action
    return table
