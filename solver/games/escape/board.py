"""One player's board in Escape Plan: pieces, notoriety cubes, wounds and handcuffs, final scoring.

:class:`PlayerBoard` is mutable and cheap to :meth:`~PlayerBoard.copy` (lists of immutable
:class:`Slot` values). The rule functions below change a board in place and return what the caller
(the state machine) must know; each cites its rulebook section (``shared/rulebooks/escape-plan.txt``).
Money is in $k. Where the rulebook is silent the choice is said in the docstring and in
``docs/escape-content.md``.

Space layout: ``items`` are the Item spaces, ``contacts`` the 5 Contact spaces (left to right; handcuffs
fill them from the right, so the last ``handcuffs`` spaces are blocked), ``unlocked`` the 6 unlocked
Asset spaces in ``content.board.asset_costs`` order.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

from solver.core.errors import BadStateError, IllegalActionError
from solver.games.escape.content import (
    ASSETS,
    CONTACT_START_ASSETS,
    EQUIPMENT,
    FIXERS,
    ITEM_START_ASSETS,
    LOCKERS,
    UNLOCKED_START_ASSET,
    Asset,
    Content,
    Locker,
    NotorietyTrack,
    PlanCard,
)


class Piece(IntEnum):
    """What a board space holds."""

    EMPTY = 0
    ASSET = 1  # ident: Asset
    EQUIPMENT = 2  # ident: Equipment
    FIXER = 3  # ident: Fixer
    LOCKER = 4  # ident: Locker colour, value: $k
    EXIT = 5  # ident: exit stack 0/1, value: $k
    CONTACT = 6  # ident: index in Content.contacts


_PIECE_NAMES = ("empty", "asset", "equipment", "fixer", "locker", "exit", "contact")


@dataclass(frozen=True, slots=True)
class Slot:
    """The content of one space: a piece, which one, its value ($k, tiles only), face up or down.

    On an unlocked Asset space, face down means used ("Use an Unlocked Asset tile": flip the tile)."""

    piece: Piece
    ident: int = 0
    value: int = 0
    face_up: bool = True


EMPTY = Slot(Piece.EMPTY)


@dataclass(frozen=True, slots=True)
class KeyTile:
    """A key taken at a Safe House: its colour and whether it is still unused (face up)."""

    colour: Locker
    face_up: bool = True


class TakeChoice(IntEnum):
    """The three ways to take a Contact card ("Taking Contact Cards" A, B, C)."""

    DISCARD = 0  # A: return the card to the box
    PLACE = 1  # B: on the leftmost empty Contact space
    REPLACE = 2  # C: replace a contact card already held; gain 1 notoriety


class ContactOption(NamedTuple):
    """One legal way to take a contact: the choice and the Contact space (-1 for A)."""

    choice: TakeChoice
    space: int


class WoundEffect(IntEnum):
    """What one wound did ("Step 2: Avoid")."""

    GREEN_TO_RED = 0  # a green cube moved to the red box
    HANDCUFF_EMPTY = 1  # green box empty: a handcuff on an empty Contact space
    HANDCUFF_ASSET = 2  # ... on a locked asset tile, which is discarded
    HANDCUFF_CONTACT = 3  # ... covering a contact card
    NO_SPACE = 4  # every Contact space already handcuffed: nothing happens (our reading)


class Wound(NamedTuple):
    """A wound's effect, the Contact space handcuffed (-1 when none) and what lay there."""

    effect: WoundEffect
    space: int
    slot: Slot


class Settle(NamedTuple):
    """The result of updating the Notoriety track ("Adjusting Notoriety")."""

    old: int
    new: int
    wounds: int  # one per step above the top row, for the caller to take with take_wound
    crossed: tuple[int, ...]  # indices (0, 1, 2) of threshold lines crossed upward, lowest first


class ScoreBreakdown(NamedTuple):
    """Every line of the scoring pad ("Final Scoring"), in $k."""

    group1: int
    group2: int
    safe_houses: int
    money: int
    used_assets: int  # $10k per used unlocked asset tile
    contacts: int  # the table value for the contacts kept
    contacts_kept: int
    contacts_discarded: int  # uncovered cards discarded for handcuffs
    tiles: int  # locker and exit tiles
    notoriety: int  # the row's penalty (0 or negative)
    wounds: int  # red wounds' penalty (0 or negative)
    total: int


class PlayerBoard:
    """One player's board, screen money included (Player Setup A-K). Mutable; see :meth:`copy`."""

    __slots__ = (
        "money", "income_cubes", "rested", "first_aid_up", "green", "red", "handcuffs", "cubes_bottom",
        "cubes_red", "cubes_blue", "notoriety", "items", "contacts", "unlocked", "gas_cans", "keys",
        "extra_actions", "gang_members", "gang_controlled", "gang_markers", "businesses", "safe_houses",
        "group_bonus",
    )

    def __init__(self, content: Content) -> None:
        """A board as set up (Player Setup B-K; the notoriety marker on the bottom row, N)."""
        layout = content.board
        self.money = layout.start_money
        self.income_cubes = layout.income_cubes
        self.rested = False  # the Rest token shows the sun
        self.first_aid_up = True
        self.green = layout.green_wounds
        self.red = 0
        self.handcuffs = 0
        self.cubes_bottom = layout.notoriety_cubes
        self.cubes_red = 0
        self.cubes_blue = 0
        self.notoriety = content.notoriety.bottom
        self.items = [EMPTY] * layout.item_spaces
        for space, asset in zip(layout.item_asset_spaces, ITEM_START_ASSETS, strict=True):
            self.items[space] = Slot(Piece.ASSET, asset)
        n = layout.contact_spaces
        self.contacts = [EMPTY] * (n - len(CONTACT_START_ASSETS)) + [
            Slot(Piece.ASSET, a) for a in CONTACT_START_ASSETS]
        self.unlocked = [EMPTY] * len(layout.asset_costs)
        self.unlocked[_most_expensive_empty(self.unlocked, layout.asset_costs)] = Slot(
            Piece.ASSET, UNLOCKED_START_ASSET)
        self.gas_cans = 0
        self.keys: list[KeyTile | None] = [None, None, None]
        self.extra_actions = 0
        self.gang_members: list[int] = []  # per member held, the gang Location (engine's id) it returns to
        self.gang_controlled: list[int] = []  # gang Locations holding one of our markers
        self.gang_markers = layout.gang_markers  # markers still in the Gang area
        self.businesses = [False] * 6
        self.safe_houses = [False] * 3
        self.group_bonus = [False] * 3  # businesses 1-3, businesses 4-6, all safe houses

    def copy(self) -> PlayerBoard:
        """An independent copy (slots are immutable, so copying the lists is enough)."""
        other = PlayerBoard.__new__(PlayerBoard)
        for name in PlayerBoard.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerBoard) and all(
            getattr(self, n) == getattr(other, n) for n in PlayerBoard.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"PlayerBoard({self.to_json()!r})"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; slots as strings (``"asset:heal"``, ``"contact:12:down"``,
        ``"locker:green:30:down"``)."""
        data: dict[str, Any] = {}
        for name in PlayerBoard.__slots__:
            value = getattr(self, name)
            if name in ("items", "contacts", "unlocked"):
                value = [_slot_text(s) for s in value]
            elif name == "keys":
                value = [None if k is None else f"{LOCKERS[k.colour]}:{'up' if k.face_up else 'down'}"
                         for k in value]
            elif isinstance(value, list):
                value = list(value)
            data[name] = value
        return data

    @classmethod
    def from_json(cls, data: Any, content: Content) -> PlayerBoard:
        """The board :meth:`to_json` wrote, checked against ``content``; :class:`BadStateError` if not."""
        return _board_from_json(data, content)


# --- notoriety ("Notoriety", "Notoriety Special Cases", "Adjusting Notoriety") ---------------------------

def gain_notoriety(board: PlayerBoard) -> bool:
    """Gain 1 notoriety: a cube from the bottom to the red box; with the bottom empty, a blue cube back to
    the bottom instead; with no blue cube either, nothing (Notoriety Special Cases). True if a cube moved.

    "You cannot gain any more Notoriety this turn" is read as the cubes' state saying so: should a later
    loss free a cube, a later gain moves it again (no separate flag is kept)."""
    if board.cubes_bottom:
        board.cubes_bottom -= 1
        board.cubes_red += 1
        return True
    if board.cubes_blue:
        board.cubes_blue -= 1
        board.cubes_bottom += 1
        return True
    return False


def lose_notoriety(board: PlayerBoard) -> bool:
    """Lose 1 notoriety: a cube from the bottom to the blue box; with the bottom empty, a red cube back to
    the bottom instead; with no red cube either, nothing (Notoriety Special Cases). True if a cube moved."""
    if board.cubes_bottom:
        board.cubes_bottom -= 1
        board.cubes_blue += 1
        return True
    if board.cubes_red:
        board.cubes_red -= 1
        board.cubes_bottom += 1
        return True
    return False


def settle_notoriety(board: PlayerBoard, track: NotorietyTrack) -> Settle:
    """Move the marker by red minus blue cubes, no lower than the bottom row; each step above the top row
    is a wound (returned, not taken: the caller takes them with :func:`take_wound`); the cubes go back to
    the bottom ("Adjusting Notoriety"). ``crossed`` lists the threshold lines crossed upward ("Crossing the
    Threshold"): a line ``L`` is crossed when the marker goes from below ``L`` to ``L`` or above, so a line
    dropped below earlier pays again."""
    old = board.notoriety
    target = old + board.cubes_red - board.cubes_blue
    wounds = max(0, target - track.top)
    new = min(max(target, track.bottom), track.top)
    board.notoriety = new
    board.cubes_bottom += board.cubes_red + board.cubes_blue
    board.cubes_red = board.cubes_blue = 0
    crossed = tuple(i for i, line in enumerate(track.lines) if old < line <= new)
    return Settle(old, new, wounds, crossed)


def can_unlock_at_income(board: PlayerBoard, track: NotorietyTrack) -> bool:
    """Whether the $3k unlock of the Income phase is open: notoriety below the first threshold line
    ("1. Income": "a Notoriety of 1 or 2"; Tips: "below the first threshold line"; our track's bottom row
    is 1 and its first line lies under row 3, so the two readings agree)."""
    return board.notoriety < track.lines[0]


# --- wounds ("Step 2: Avoid", "Hospital", "Perform First Aid") -------------------------------------------

def take_wound(board: PlayerBoard) -> Wound:
    """One wound: a green cube to the red box; with the green box empty, a Handcuff card on the rightmost
    Contact space without one (an asset tile there is discarded, a contact card covered) and a red cube
    back to green ("Step 2: Avoid"). With every Contact space handcuffed the rulebook is silent: the wound
    does nothing (moving the red cube back would reward the wound)."""
    if board.green:
        board.green -= 1
        board.red += 1
        return Wound(WoundEffect.GREEN_TO_RED, -1, EMPTY)
    space = len(board.contacts) - board.handcuffs - 1
    if space < 0:
        return Wound(WoundEffect.NO_SPACE, -1, EMPTY)
    board.handcuffs += 1
    slot = board.contacts[space]
    if slot.piece == Piece.ASSET:
        board.contacts[space] = EMPTY  # the asset goes to the box
        effect = WoundEffect.HANDCUFF_ASSET
    elif slot.piece == Piece.CONTACT:
        effect = WoundEffect.HANDCUFF_CONTACT
    else:
        effect = WoundEffect.HANDCUFF_EMPTY
    board.red -= 1
    board.green += 1
    return Wound(effect, space, slot)


def heal(board: PlayerBoard, wounds: int = 1) -> int:
    """Heal up to ``wounds``: red cubes back to green (Clinic, Hospital, First Aid, Medic...). Returns how
    many were healed (fewer when fewer are red)."""
    healed = min(wounds, board.red)
    board.red -= healed
    board.green += healed
    return healed


def first_aid(board: PlayerBoard) -> int:
    """Perform First Aid: flip the face-up First Aid tile and heal 1 wound ("Perform First Aid")."""
    if not board.first_aid_up:
        raise IllegalActionError("first aid: the First Aid tile is face down")
    board.first_aid_up = False
    return heal(board, 1)


# --- assets ("Asset Tiles", "Use an Unlocked Asset tile") -------------------------------------------------

def locked_assets(board: PlayerBoard) -> list[Asset]:
    """The locked asset tiles still on Item and Contact spaces (handcuffed ones were discarded)."""
    return [Asset(s.ident) for s in (*board.items, *board.contacts) if s.piece == Piece.ASSET]


def unlock_asset(board: PlayerBoard, content: Content, kind: Asset) -> int | None:
    """Unlock the locked asset ``kind``: it goes to the most expensive empty unlocked Asset space (the
    leftmost of equal costs) and the space index is returned; with no empty space it is removed from the
    game and None is returned (the 7th: "Asset Tiles"; Rest 3). One taken from a Contact space lets the
    assets left there shift right over empty spaces, never onto a handcuffed one."""
    for spaces in (board.items, board.contacts):
        for i, slot in enumerate(spaces):
            if slot.piece == Piece.ASSET and slot.ident == kind:
                spaces[i] = EMPTY
                if spaces is board.contacts:
                    _shift_assets_right(board)
                target = _most_expensive_empty(board.unlocked, content.board.asset_costs)
                if target < 0:
                    return None
                board.unlocked[target] = Slot(Piece.ASSET, kind)
                return target
    raise IllegalActionError(f"unlock: asset {ASSETS[kind]} is not locked on this board")


def usable_assets(board: PlayerBoard) -> list[int]:
    """The unlocked Asset spaces holding an unused tile."""
    return [i for i, s in enumerate(board.unlocked) if s.piece == Piece.ASSET and s.face_up]


def use_asset(board: PlayerBoard, content: Content, space: int) -> Asset:
    """Pay the space's cost and flip the unlocked asset there ("Use an Unlocked Asset tile" 1 and 3); the
    caller applies its benefit (step 2). Returns the asset."""
    slot = board.unlocked[space]
    if slot.piece != Piece.ASSET or not slot.face_up:
        raise IllegalActionError(f"use asset: unlocked space {space} holds no unused asset")
    cost = content.board.asset_costs[space]
    if board.money < cost:
        raise IllegalActionError(f"use asset: costs ${cost}k, only ${board.money}k held")
    board.money -= cost
    board.unlocked[space] = Slot(Piece.ASSET, slot.ident, 0, False)
    return Asset(slot.ident)


def _most_expensive_empty(spaces: list[Slot], costs: tuple[int, ...]) -> int:
    best = -1
    for i, slot in enumerate(spaces):
        if slot.piece == Piece.EMPTY and (best < 0 or costs[i] > costs[best]):
            best = i
    return best


def _shift_assets_right(board: PlayerBoard) -> None:
    """Asset tiles on Contact spaces fall right over empty spaces within the unblocked ones ("Asset
    Tiles": "move all remaining Asset tiles on your Contact spaces to the right to fill any gaps")."""
    spaces = board.contacts
    open_spaces = len(spaces) - board.handcuffs
    moved = True
    while moved:
        moved = False
        for i in range(open_spaces - 1):
            if spaces[i].piece == Piece.ASSET and spaces[i + 1].piece == Piece.EMPTY:
                spaces[i], spaces[i + 1] = spaces[i + 1], spaces[i]
                moved = True


# --- contact cards ("Taking Contact Cards", "Use a Contact card") -----------------------------------------

def contact_count(board: PlayerBoard) -> int:
    """Contact cards on the board, face up and down, not those covered by a Handcuff card ("Lockers" 2)."""
    open_spaces = len(board.contacts) - board.handcuffs
    return sum(1 for s in board.contacts[:open_spaces] if s.piece == Piece.CONTACT)


def contact_options(board: PlayerBoard) -> list[ContactOption]:
    """The legal ways to take a chosen card ("Taking Contact Cards"): A always; B onto the leftmost empty
    Contact space (no card, no asset, no handcuff), offered whenever there is one; C replacing each
    uncovered contact card held.

    B's text also says "If the leftmost space is not empty, you cannot choose this option"; read
    literally, B would be possible only while the first space is free, a single time in a game. We read
    it as "if there is no leftmost empty space": B places on the leftmost empty one."""
    options = [ContactOption(TakeChoice.DISCARD, -1)]
    open_spaces = len(board.contacts) - board.handcuffs
    for i in range(open_spaces):
        if board.contacts[i].piece == Piece.EMPTY:
            options.append(ContactOption(TakeChoice.PLACE, i))
            break
    options.extend(ContactOption(TakeChoice.REPLACE, i) for i in range(open_spaces)
                   if board.contacts[i].piece == Piece.CONTACT)
    return options


def place_contact(board: PlayerBoard, card: int, option: ContactOption) -> Slot | None:
    """Take contact card ``card`` (its index in ``Content.contacts``) the ``option`` way, face up. C gains 1
    notoriety and returns the replaced slot (the card goes to the box); A and B return None."""
    if option not in contact_options(board):
        raise IllegalActionError(f"take contact: {option.choice.name.lower()} on space {option.space} "
                                 "is not open")
    if option.choice == TakeChoice.DISCARD:
        return None
    replaced = board.contacts[option.space]
    board.contacts[option.space] = Slot(Piece.CONTACT, card)
    if option.choice == TakeChoice.REPLACE:
        gain_notoriety(board)
        return replaced
    return None


def use_contact(board: PlayerBoard, content: Content, space: int) -> int:
    """Pay a face-up, uncovered contact card's price, gain 1 notoriety for a red star and flip it face down
    ("Use a Contact card" 2, 3, 5); the caller applies its benefit (4). Returns the card's index."""
    slot = board.contacts[space] if 0 <= space < len(board.contacts) else EMPTY
    if slot.piece != Piece.CONTACT or not slot.face_up or space >= len(board.contacts) - board.handcuffs:
        raise IllegalActionError(f"use contact: space {space} holds no usable contact card")
    card = content.contacts[slot.ident]
    if board.money < card.cost:
        raise IllegalActionError(f"use contact: {card.name} costs ${card.cost}k, only ${board.money}k held")
    board.money -= card.cost
    if card.notoriety:
        gain_notoriety(board)
    board.contacts[space] = Slot(Piece.CONTACT, slot.ident, 0, False)
    return slot.ident


# --- item spaces ("The Fixer", "Convenience Stores", "Lockers", "Exits") ----------------------------------

def item_targets(board: PlayerBoard, exit_tile: bool = False) -> list[int]:
    """Item spaces a new tile may go on: any space not holding an asset (The Fixer, Convenience Stores,
    Lockers: a tile there is replaced); for an Exit tile only empty spaces while there is one ("If you do
    not have an empty Item space, you must replace")."""
    free = [i for i, s in enumerate(board.items) if s.piece == Piece.EMPTY]
    if exit_tile and free:
        return free
    return [i for i, s in enumerate(board.items) if s.piece != Piece.ASSET]


def place_item(board: PlayerBoard, slot: Slot, space: int, exit_tile: bool = False) -> Slot | None:
    """Put tile ``slot`` on Item space ``space``; replacing a non-asset tile gains 1 notoriety and returns
    the replaced tile (it goes to the box)."""
    if slot.piece not in (Piece.EQUIPMENT, Piece.FIXER, Piece.LOCKER, Piece.EXIT):
        raise IllegalActionError(f"place item: a {_PIECE_NAMES[slot.piece]} is not an item tile")
    if space not in item_targets(board, exit_tile):
        raise IllegalActionError(f"place item: Item space {space} is not open")
    replaced = board.items[space]
    board.items[space] = slot
    if replaced.piece != Piece.EMPTY:
        gain_notoriety(board)
        return replaced
    return None


def flip_item(board: PlayerBoard, space: int) -> Slot:
    """Flip a face-up Equipment or Fixer tile face down to use it ("Use an Equipment tile", "Use a Fixer
    tile"); the caller applies the benefit. Returns the tile."""
    slot = board.items[space]
    if slot.piece not in (Piece.EQUIPMENT, Piece.FIXER) or not slot.face_up:
        raise IllegalActionError(f"use item: Item space {space} holds no usable equipment or fixer tile")
    board.items[space] = Slot(slot.piece, slot.ident, slot.value, False)
    return slot


# --- rest and income ("Rest", "1. Income", "Businesses") -------------------------------------------------

def rest(board: PlayerBoard) -> None:
    """Rest steps 1-2: flip the Rest token to the moon (illegal if it already shows it), flip back used
    contact cards, equipment tiles and the First Aid tile. Fixer tiles stay used ("Use a Fixer tile");
    locker and exit tiles stay face down (hidden, not used). Step 3's unlock is the caller's choice of
    :func:`unlock_asset`."""
    if board.rested:
        raise IllegalActionError("rest: the Rest token already shows the moon")
    board.rested = True
    board.contacts = [Slot(s.piece, s.ident, s.value, True) if s.piece == Piece.CONTACT else s
                      for s in board.contacts]
    board.items = [Slot(s.piece, s.ident, s.value, True) if s.piece == Piece.EQUIPMENT else s
                   for s in board.items]
    board.first_aid_up = True


def income(board: PlayerBoard) -> int:
    """The income: the lowest visible number of the Income track, which is the number of cubes left on it
    (cubes on spaces 0..8; the $9k shows when all nine are there: "1. Income")."""
    return board.income_cubes


def receive_income(board: PlayerBoard) -> int:
    """Receive income into the money behind the screen; returns the amount."""
    board.money += board.income_cubes
    return board.income_cubes


def take_income_cube(board: PlayerBoard) -> None:
    """Take the uppermost cube from the Income track (a Business or Safe House visit, step 2)."""
    if board.income_cubes <= 0:
        raise IllegalActionError("visit: no Income cube left to take")
    board.income_cubes -= 1


# --- lockers and exits ------------------------------------------------------------------------------------

def locker_keys(board: PlayerBoard, colour: Locker) -> list[int]:
    """What may open a ``colour`` locker: each face-up key of that colour (its safe house index 0..2) and
    -1 for an unlocked, unused master key asset ("Lockers" criterion 1)."""
    out = [i for i, k in enumerate(board.keys) if k is not None and k.face_up and k.colour == colour]
    if any(s.piece == Piece.ASSET and s.ident == Asset.MASTER_KEY and s.face_up for s in board.unlocked):
        out.append(-1)
    return out


def can_open_locker(board: PlayerBoard, content: Content, colour: Locker) -> bool:
    """Both criteria of "Lockers": a key (or the master key) and notoriety row + contact cards at least the
    locker's big number."""
    need = content.lockers[colour].requirement
    return bool(locker_keys(board, colour)) and board.notoriety + contact_count(board) >= need


def locker_draws(board: PlayerBoard, content: Content, colour: Locker) -> int:
    """Tiles drawn from a ``colour`` locker: contact cards plus the colour's offset (green +1, black 0,
    brown -1), never below 0; the caller caps it at the stack's size."""
    return max(0, contact_count(board) + content.lockers[colour].draw)


def exit_draws(board: PlayerBoard) -> int:
    """Exit tiles drawn at a closed exit: the contact cards held ("Exits", Exit tile 1)."""
    return contact_count(board)


# --- final scoring ("Final Scoring") ----------------------------------------------------------------------

def score(board: PlayerBoard, plan: PlanCard, content: Content) -> ScoreBreakdown:
    """The scoring pad of an escaped player, every line.

    "Discard 1 Contact card for each Handcuff card" first: the player discards the cards that lose the
    least, which are the covered ones (they count for nothing already), then uncovered ones; which
    uncovered card goes does not change the score (the table counts cards), so only the number is kept."""
    sums = [0, 0, 0]
    visited = [*board.businesses, *board.safe_houses]
    for g in range(3):
        for i in range(3):
            amount = plan.groups[g][i]
            if visited[3 * g + i] and amount is not None:
                sums[g] += amount
    used = sum(1 for s in board.unlocked if s.piece == Piece.ASSET and not s.face_up)
    open_spaces = len(board.contacts) - board.handcuffs
    covered = sum(1 for s in board.contacts[open_spaces:] if s.piece == Piece.CONTACT)
    held = contact_count(board)
    discarded = min(held, max(0, board.handcuffs - covered))
    kept = held - discarded
    table = content.scoring
    contacts = table.contacts[kept]
    tiles = sum(s.value for s in board.items if s.piece in (Piece.LOCKER, Piece.EXIT))
    notoriety = content.notoriety.row_penalty(board.notoriety)
    wounds = board.red * table.red_wound
    used_value = used * table.used_asset
    total = sum(sums) + board.money + used_value + contacts + tiles + notoriety + wounds
    return ScoreBreakdown(sums[0], sums[1], sums[2], board.money, used_value, contacts, kept, discarded,
                          tiles, notoriety, wounds, total)


def tie_break_key(board: PlayerBoard, breakdown: ScoreBreakdown) -> tuple[int, int, int, int]:
    """Sort key, larger wins: total, then money behind the screen, then less notoriety (row), then fewer
    red wounds ("Final Scoring": "In the case of a tie"). Equal keys share the victory."""
    return (breakdown.total, board.money, -board.notoriety, -board.red)


# --- JSON -------------------------------------------------------------------------------------------------

def _slot_text(slot: Slot) -> str:
    face = "up" if slot.face_up else "down"
    if slot.piece == Piece.EMPTY:
        return "empty"
    if slot.piece == Piece.ASSET:
        return f"asset:{ASSETS[slot.ident]}" + ("" if slot.face_up else ":used")
    if slot.piece == Piece.EQUIPMENT:
        return f"equipment:{EQUIPMENT[slot.ident]}:{face}"
    if slot.piece == Piece.FIXER:
        return f"fixer:{FIXERS[slot.ident]}:{face}"
    if slot.piece == Piece.LOCKER:
        return f"locker:{LOCKERS[slot.ident]}:{slot.value}:{face}"
    if slot.piece == Piece.EXIT:
        return f"exit:{slot.ident}:{slot.value}:{face}"
    return f"contact:{slot.ident}:{face}"


def _parse_slot(text: Any, content: Content, what: str) -> Slot:
    """The slot :func:`_slot_text` wrote; :class:`BadStateError` naming ``what`` otherwise."""
    def bad() -> BadStateError:
        shown = repr(text) if len(repr(text)) <= 60 else repr(text)[:57] + "..."
        return BadStateError(f"escape board: {what}: {shown} is not a space's content")

    if not isinstance(text, str) or len(text) > 60:
        raise bad()
    parts = text.split(":")
    head, rest_parts = parts[0], parts[1:]
    try:
        if head == "empty" and not rest_parts:
            return EMPTY
        if head == "asset" and len(rest_parts) in (1, 2):
            used = rest_parts[1:] == ["used"]
            if len(rest_parts) == 2 and not used:
                raise bad()
            return Slot(Piece.ASSET, ASSETS.index(rest_parts[0]), 0, not used)
        face = {"up": True, "down": False}[rest_parts[-1]]
        if head == "equipment" and len(rest_parts) == 2:
            return Slot(Piece.EQUIPMENT, EQUIPMENT.index(rest_parts[0]), 0, face)
        if head == "fixer" and len(rest_parts) == 2:
            return Slot(Piece.FIXER, FIXERS.index(rest_parts[0]), 0, face)
        if head == "locker" and len(rest_parts) == 3:
            colour = LOCKERS.index(rest_parts[0])
            value = _small_int(rest_parts[1])
            if value not in content.lockers[colour].values:
                raise bad()
            return Slot(Piece.LOCKER, colour, value, face)
        if head == "exit" and len(rest_parts) == 3:
            stack = _small_int(rest_parts[0])
            value = _small_int(rest_parts[1])
            if stack >= len(content.exit_tiles) or value not in content.exit_tiles[stack]:
                raise bad()
            return Slot(Piece.EXIT, stack, value, face)
        if head == "contact" and len(rest_parts) == 2:
            card = _small_int(rest_parts[0])
            if card >= len(content.contacts):
                raise bad()
            return Slot(Piece.CONTACT, card, 0, face)
    except (ValueError, KeyError, IndexError):
        raise bad() from None
    raise bad()


def _small_int(text: str) -> int:
    if not text.isdigit() or len(text) > 6:
        raise ValueError(text)
    return int(text)


def _board_from_json(data: Any, content: Content) -> PlayerBoard:
    """Check every field of a board document against ``content`` and build the board."""
    def fail(message: str) -> BadStateError:
        return BadStateError(f"escape board: {message}")

    names = set(PlayerBoard.__slots__)
    if not isinstance(data, dict):
        raise fail("expected a JSON object")
    missing = sorted(names - data.keys())
    if missing:
        raise fail(f"missing {', '.join(map(repr, missing))}")
    unknown = sorted(str(k) for k in data.keys() - names)
    if unknown:
        raise fail(f"unknown key {unknown[0][:40]!r}")
    layout = content.board
    track = content.notoriety
    board = PlayerBoard(content)

    def integer(key: str, low: int, high: int) -> int:
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise fail(f"{key!r} must be an integer in {low}..{high}")
        return value

    def flag(key: str) -> bool:
        if not isinstance(data[key], bool):
            raise fail(f"{key!r} must be true or false")
        return bool(data[key])

    def flags(key: str, n: int) -> list[bool]:
        value = data[key]
        if not isinstance(value, list) or len(value) != n or not all(isinstance(v, bool) for v in value):
            raise fail(f"{key!r} must list {n} true/false values")
        return list(value)

    def ids(key: str, most: int) -> list[int]:
        value = data[key]
        if not isinstance(value, list) or len(value) > most or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10_000 for v in value):
            raise fail(f"{key!r} must list at most {most} location ids 0..9999")
        return list(value)

    def slots(key: str, n: int) -> list[Slot]:
        value = data[key]
        if not isinstance(value, list) or len(value) != n:
            raise fail(f"{key!r} must list {n} spaces")
        return [_parse_slot(v, content, f"{key} {i}") for i, v in enumerate(value)]

    board.money = integer("money", 0, 100_000)
    board.income_cubes = integer("income_cubes", 0, layout.income_cubes)
    board.rested = flag("rested")
    board.first_aid_up = flag("first_aid_up")
    wounds = layout.green_wounds
    board.green = integer("green", 0, wounds)
    board.red = integer("red", 0, wounds)
    if board.green + board.red != wounds:
        raise fail(f"'green' + 'red' must be {wounds}")
    board.handcuffs = integer("handcuffs", 0, layout.contact_spaces)
    cubes = layout.notoriety_cubes
    board.cubes_bottom = integer("cubes_bottom", 0, cubes)
    board.cubes_red = integer("cubes_red", 0, cubes)
    board.cubes_blue = integer("cubes_blue", 0, cubes)
    if board.cubes_bottom + board.cubes_red + board.cubes_blue != cubes:
        raise fail(f"the notoriety cubes must add up to {cubes}")
    board.notoriety = integer("notoriety", track.bottom, track.top)
    board.items = slots("items", layout.item_spaces)
    if any(s.piece == Piece.CONTACT for s in board.items):
        raise fail("a contact card is on an Item space")
    board.contacts = slots("contacts", layout.contact_spaces)
    if any(s.piece not in (Piece.EMPTY, Piece.ASSET, Piece.CONTACT) for s in board.contacts):
        raise fail("a tile is on a Contact space")
    if any(s.piece == Piece.ASSET for s in board.contacts[len(board.contacts) - board.handcuffs:]):
        raise fail("an asset tile is under a Handcuff card")
    board.unlocked = slots("unlocked", len(layout.asset_costs))
    if any(s.piece not in (Piece.EMPTY, Piece.ASSET) for s in board.unlocked):
        raise fail("a non-asset piece is on an unlocked Asset space")
    assets = [s.ident for s in (*board.items, *board.contacts, *board.unlocked) if s.piece == Piece.ASSET]
    if len(set(assets)) != len(assets):
        raise fail("an asset tile is on the board twice")
    board.gas_cans = integer("gas_cans", 0, layout.max_gas_cans)
    keys = data["keys"]
    if not isinstance(keys, list) or len(keys) != 3:
        raise fail("'keys' must list 3 key slots")
    board.keys = []
    for i, key in enumerate(keys):
        if key is None:
            board.keys.append(None)
            continue
        parts = key.split(":") if isinstance(key, str) and len(key) < 20 else []
        if len(parts) != 2 or parts[0] not in LOCKERS or parts[1] not in ("up", "down"):
            raise fail(f"key {i} must be null or 'colour:up|down'")
        board.keys.append(KeyTile(Locker(LOCKERS.index(parts[0])), parts[1] == "up"))
    board.extra_actions = integer("extra_actions", 0, 100)
    board.gang_markers = integer("gang_markers", 0, layout.gang_markers)
    board.gang_controlled = ids("gang_controlled", layout.gang_markers)
    if board.gang_markers + len(board.gang_controlled) != layout.gang_markers:
        raise fail(f"'gang_markers' + placed markers must be {layout.gang_markers}")
    board.gang_members = ids("gang_members", 2 * layout.gang_markers)
    if any(g not in board.gang_controlled for g in board.gang_members):
        raise fail("a gang member belongs to a gang without our marker")
    board.businesses = flags("businesses", 6)
    board.safe_houses = flags("safe_houses", 3)
    board.group_bonus = flags("group_bonus", 3)
    return board
