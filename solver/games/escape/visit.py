"""The Visit step: every Location's steps ("Step 3: Visit") and taking Contact cards.

Registers :mod:`.turn`'s hooks ``visit`` and ``can_end_at`` and the tasks below. Each Location's steps run
in the rulebook's order; a step with "may" or a choice is a decision (``done`` declines it), every
other step is automatic. Rulebook sections: "Step 3: Visit", "Taking Contact Cards", "Businesses",
"Escape Plan Cards", "Closing a Business", "Visiting all Businesses in a group", "Safe Houses", "The
Fixer", "Visiting all Safe Houses", "Gangs", "Convenience Stores", "Lockers", "Clinic", "Church",
"Hospital", "Exits", "Only 2 Player" (the display slides). Prices are in $k ("$1" at the Church and
Hospital is $1k).

Where the rulebook is silent or unclear (``docs/escape-rules.md``, "Visits", lists them too):

* Sandra counts as a player at her Location in a 2-player game: a visitor gains 1 notoriety for her, and
  no one may visit a gang where she stands. She is "a game-controlled 3rd player" with a pawn, and her
  own Visit gains notoriety for the players at her Location, so the rule works both ways. Escaped and
  arrested players are off the board and count for nothing.
* "You can only visit each Business once" (and each Safe House): a Location that cannot be visited
  cannot end a Travel ("Step 3: Visit"), so a business or safe house the player already visited is not a
  destination, like a closed business without a key, a gang with a marker or another player, or a gang
  the player cannot pay for (or has no Gang Control marker left for).
* Closing counts the cubes on a Business display, whoever put them there (Sandra's cube "closes as
  usual"), against ``content.closing_visits`` for the number of players (Sandra not counted).
* A key for a closed business or a locker: a face-up key of any colour (lockers: of the locker's
  colour) flipped face down, or the unlocked master key asset, which is *used* ("Use an Unlocked Asset
  tile": its space's price is paid and it is flipped; it then scores as a used asset). A player who can
  no longer get in when the Visit starts (the master key's price was spent on the way) visits nothing.
* A player who lacks the $5k at the Gang when the Visit starts (spent on the way) visits nothing.
* Any Convenience Store opens any of the three lockers (one locker per visit). A locker is offered only
  when at least one tile would be drawn and an Item space can take it; likewise the Exit tile.
* The drawer keeps a tile of a value (tiles of one value are alike); which is secret: the others see the
  Item space ("keep ? on item 3"). The rest go back to their stack (a multiset: "shuffle").
* The Hospital's healing: 0 to 3 wounds, no more than the red wounds held, within the money.
* The end-of-turn bonuses ("you may immediately choose") may be declined; each group's is offered once,
  at the end of the turn that completes it (after the last executive window).
* Taking a Contact card: the display card is chosen by position; in games of 3-5 players the new card
  fills the gap; in 2-player games the cards slide right and the new card goes leftmost ("Only 2
  Player"). An empty display or deck gives nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action, IllegalActionError
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape.board import KeyTile, Piece, Slot
from solver.games.escape.city import BUSINESS, CHURCH, CLINIC, EXIT, GANG, HOSPITAL, SAFE_HOUSE, STORE
from solver.games.escape.content import Asset, Locker
from solver.games.escape.events import (
    Bonus,
    BusinessClosed,
    ContactTaken,
    CubePlaced,
    TileKept,
    TilesDrawn,
)
from solver.games.escape.phases import exit_open, unlock
from solver.games.escape.setup import contact_outcomes
from solver.games.escape.state import AMOUNT_HEX, HEX_NAMES, HIDDEN_DECISIONS, INCOME_HEX
from solver.games.escape.tasks import HOOKS, applies, auto, chance, decision, push

if TYPE_CHECKING:
    from solver.games.escape.state import EscapeState, Task

#: The three bonus groups: Businesses 1-3, Businesses 4-6, the Safe Houses.
GROUP_NAMES = ("businesses 1-3", "businesses 4-6", "safe houses")
#: The key index of the master key asset in the entry and locker choices (0..2: a safe house's key).
MASTER = 3
#: Stacks of hidden tiles: lockers by colour, exit tile stacks by index.
LOCKER, EXIT_STACK = "locker", "exit"


# --- shared helpers ---------------------------------------------------------------------------------

def site_of_business(number: int) -> int:
    """The cube-display index of Business ``number`` (1..6)."""
    return number - 1


def site_of_safe_house(number: int) -> int:
    """The cube-display index of Safe House ``number`` (1..3)."""
    return 5 + number


def business_closed(st: EscapeState, number: int) -> bool:
    """"Closing a Business": closed once its display holds the player count's number of cubes."""
    return len(st.cubes[site_of_business(number)]) >= st.game.content.closing_visits[st.n]


def others_at(st: EscapeState, seat: int, location: int) -> int:
    """Other pawns at ``location``: players still in the city and, in 2-player games, Sandra (module
    docstring)."""
    return sum(1 for p in range(st.pawns)
               if p != seat and st.location[p] == location and (st.is_sandra(p) or st.active(p)))


def _master_space(st: EscapeState, seat: int) -> int:
    """The unlocked Asset space of ``seat``'s unused master key it can pay for, or -1."""
    board = st.boards[seat]
    costs = st.game.content.board.asset_costs
    for i, slot in enumerate(board.unlocked):
        if slot.piece == Piece.ASSET and slot.ident == Asset.MASTER_KEY and slot.face_up:
            return i if board.money >= costs[i] else -1
    return -1


def entry_keys(st: EscapeState, seat: int, colour: int | None = None) -> list[int]:
    """The keys ``seat`` may use: face-up keys (their safe house index 0..2), of ``colour`` when given,
    and :data:`MASTER` for an unused master key it can pay for ("Closing a Business": "Any key can open
    any closed Business"; "Lockers" criterion 1)."""
    board = st.boards[seat]
    out = [k for k, key in enumerate(board.keys)
           if key is not None and key.face_up and (colour is None or key.colour == colour)]
    if _master_space(st, seat) >= 0:
        out.append(MASTER)
    return out


def use_key(st: EscapeState, seat: int, key: int) -> None:
    """Flip the key used face down; the master key is used as an asset: its price paid, flipped."""
    board = st.boards[seat]
    if key == MASTER:
        pb.use_asset(board, st.game.content, _master_space(st, seat))
        st.note("key", f"seat {seat} uses the master key")
        return
    held = board.keys[key]
    if held is None:
        raise IllegalActionError(f"escape: seat {seat} holds no key {key + 1}")
    board.keys[key] = KeyTile(held.colour, False)
    st.note("key", f"seat {seat} uses key {key + 1}")


def gang_open(st: EscapeState, seat: int, location: int) -> bool:
    """"Gangs": no other player present, no Gang Control marker there, $5k to pay and a marker to place."""
    board = st.boards[seat]
    if board.money < st.game.content.prices.gang or board.gang_markers <= 0:
        return False
    if any(location in b.gang_controlled for b in st.boards):
        return False
    return others_at(st, seat, location) == 0


def can_end_at(st: EscapeState, seat: int, location: int) -> bool:
    """The ``can_end_at`` hook: whether ``seat`` may end a Travel on ``location`` ("Step 3: Visit": "Some
    Locations list possible situations where you cannot visit that Location"): not a business or safe
    house it visited, not a closed business without a key, not a gang it cannot visit."""
    kind = st.game.city.locations[location].kind
    if kind == BUSINESS:
        number = st.business_at.get(location)
        if number is None or st.boards[seat].businesses[number - 1]:
            return False
        return not business_closed(st, number) or bool(entry_keys(st, seat))
    if kind == SAFE_HOUSE:
        house = st.safe_house_at.get(location)
        return house is not None and not st.boards[seat].safe_houses[house - 1]
    if kind == GANG:
        return gang_open(st, seat, location)
    return True


def at_end_of_turn(st: EscapeState, seat: int, task: Task) -> None:
    """Queue ``task`` at the end of ``seat``'s turn (before its ``end_turn``, after the last executive
    window); at the front when no turn of the seat is queued."""
    for i, t in enumerate(st.todo):
        if t[0] == "end_turn" and t[1] == seat:
            st.todo.insert(i, task)
            return
    push(st, task)


# --- the hook ---------------------------------------------------------------------------------------

def visit(st: EscapeState, seat: int, location: int) -> None:
    """The ``visit`` hook: queue the steps of ``location``'s kind ("Step 3: Visit")."""
    city = st.game.city
    loc = city.locations[location]
    kind = loc.kind
    crowd: Task = ("v_crowd", seat, location)
    contact: Task = ("v_pick", seat)
    if kind == BUSINESS:
        push(st, ("v_business", seat, location))
    elif kind == SAFE_HOUSE:
        house = st.safe_house_at[location]
        push(st, crowd, ("v_cube", seat, location), ("v_lose", seat), ("v_key", seat, house),
             ("v_fixer", seat))
    elif kind == GANG:
        push(st, ("v_gang", seat, location))
    elif kind == STORE:
        push(st, crowd, ("v_gas", seat), ("v_equip", seat, -1), ("v_locker", seat))
    elif kind == CLINIC:
        push(st, crowd, ("v_unlock", seat, "clinic"), ("v_heal", seat), contact)
    elif kind == CHURCH:
        push(st, crowd, ("v_church", seat), ("v_unlock", seat, "church"), contact)
    elif kind == HOSPITAL:
        push(st, ("v_hospital", seat), ("v_gain", seat))
    elif kind == EXIT:
        number = int(loc.label)
        if exit_open(st, number):
            push(st, crowd, ("v_exit_income", seat), contact)
        else:
            push(st, crowd, ("v_exit", seat, number), contact)


def take_contact(st: EscapeState, seat: int) -> None:
    """"Taking Contact Cards": queue ``seat``'s choice of a display card, then how it is taken (A: to the
    box, B: the leftmost empty Contact space, C: replacing a contact card for 1 notoriety), then the
    display's refill from the deck (a public draw). Used by the Visit and by the Spy 1 contact and the
    Telephone fixer (executive.py); the tasks run before whatever is queued now."""
    push(st, ("v_pick", seat))


HOOKS["visit"] = visit
HOOKS["can_end_at"] = can_end_at


# --- common steps -----------------------------------------------------------------------------------

@auto("v_crowd")
def _crowd(st: EscapeState, task: Task) -> None:
    """Step 1 of most Locations: "Gain 1 Notoriety for each other player" at the Location; Sandra's Visit
    too ("Sandra's Turn", Step 3: "according to the normal rules", sandra.py)."""
    seat, location = task[1], task[2]
    count = others_at(st, seat, location)
    for _ in range(count):
        pb.gain_notoriety(st.boards[seat])
    if count:
        st.note("notoriety", f"{st.pawn_name(seat)} gains {count} notoriety for the others at "
                             f"{st.game.location_names[location]}")


@auto("v_lose")
def _lose(st: EscapeState, task: Task) -> None:
    """Safe House step 3: lose 1 notoriety."""
    pb.lose_notoriety(st.boards[task[1]])


@auto("v_gain")
def _gain(st: EscapeState, task: Task) -> None:
    """Hospital step 2: gain 1 notoriety (not per other player)."""
    pb.gain_notoriety(st.boards[task[1]])


@decision("v_unlock", "{who} may unlock an asset")
def _unlock_legal(st: EscapeState, task: Task) -> list[Action]:
    """Clinic 2, Church 3: "You may unlock an Asset tile"."""
    locked = pb.locked_assets(st.boards[task[1]])
    return [codec.UNLOCK + a for a in locked] + [codec.DONE] if locked else []


@applies("v_unlock")
def _unlock_apply(st: EscapeState, task: Task, action: Action) -> None:
    if action != codec.DONE:
        unlock(st, task[1], Asset(action - codec.UNLOCK), str(task[2]))


# --- taking contact cards ---------------------------------------------------------------------------

@decision("v_pick", "{who} chooses a contact card from the display")
def _pick_legal(st: EscapeState, task: Task) -> list[Action]:
    """"Taking Contact Cards": any card of the display (by position)."""
    return [codec.V_PICK + p * codec.MAX_CARDS + c for p, c in enumerate(st.display[:codec.MAX_DISPLAY])]


@applies("v_pick")
def _pick_apply(st: EscapeState, task: Task, action: Action) -> None:
    position, card = divmod(action - codec.V_PICK, codec.MAX_CARDS)
    st.display.pop(position)
    push(st, ("v_how", task[1], card, position), ("v_refill", 0 if st.sandra else position))


def _how_action(option: pb.ContactOption) -> Action:
    if option.choice == pb.TakeChoice.DISCARD:
        return codec.V_HOW
    if option.choice == pb.TakeChoice.PLACE:
        return codec.V_HOW + 1 + option.space
    return codec.V_HOW + 1 + codec.CONTACT_SPACES + option.space


@decision("v_how", "{who} chooses how to take the contact card")
def _how_legal(st: EscapeState, task: Task) -> list[Action]:
    """A (to the box), B (the leftmost empty Contact space) or C (replace a contact card held)."""
    return [_how_action(o) for o in pb.contact_options(st.boards[task[1]])]


@applies("v_how")
def _how_apply(st: EscapeState, task: Task, action: Action) -> None:
    seat, card = task[1], task[2]
    k = action - codec.V_HOW
    if k == 0:
        option = pb.ContactOption(pb.TakeChoice.DISCARD, -1)
        how = "box"
    elif k <= codec.CONTACT_SPACES:
        option = pb.ContactOption(pb.TakeChoice.PLACE, k - 1)
        how = f"space {k}"
    else:
        option = pb.ContactOption(pb.TakeChoice.REPLACE, k - 1 - codec.CONTACT_SPACES)
        how = f"replaces space {option.space + 1}"
    pb.place_contact(st.boards[seat], card, option)
    st.events.append(ContactTaken(seat, st.game.content.contacts[card].name, how))


@chance("v_refill", "a contact card is drawn to the display")
def _refill_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    """"After taking the card, draw a new card ... If the Contact deck is empty, do not draw"."""
    return contact_outcomes(st)


@applies("v_refill")
def _refill_apply(st: EscapeState, task: Task, action: Action) -> None:
    """The new card fills the gap (3-5 players) or, the cards slid right, goes leftmost (2 players)."""
    card = action - codec.CONTACT
    st.contacts_left[card] -= 1
    st.display.insert(min(task[1], len(st.display)), card)


# --- businesses and safe houses ---------------------------------------------------------------------

@auto("v_business")
def _business(st: EscapeState, task: Task) -> None:
    """"Businesses": a closed one is entered with a key first ("Closing a Business"); then step 1 (the
    others present), 2 (the income cube), 3 (a contact card)."""
    seat, location = task[1], task[2]
    number = st.business_at[location]
    if business_closed(st, number):
        if not entry_keys(st, seat):
            st.note("visit", f"seat {seat} cannot get into the closed business {number}")
            return
        push(st, ("v_enter", seat, location))
        return
    push(st, ("v_crowd", seat, location), ("v_cube", seat, location), ("v_pick", seat))


@decision("v_enter", "{who} chooses the key that opens the closed business")
def _enter_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.V_ENTER + k for k in entry_keys(st, task[1])]


@applies("v_enter")
def _enter_apply(st: EscapeState, task: Task, action: Action) -> None:
    """"Once a key is used, flip the key tile face down"; then the business's steps."""
    seat, location = task[1], task[2]
    use_key(st, seat, action - codec.V_ENTER)
    push(st, ("v_crowd", seat, location), ("v_cube", seat, location), ("v_pick", seat))


@auto("v_cube")
def _cube(st: EscapeState, task: Task) -> None:
    """Businesses / Safe Houses step 2: the uppermost income cube goes to the display's amount hex, or to
    its income hex when the plan card shows the income mark, and then income is received at once. A
    Business closes with the player count's cubes; a completed group queues its bonus for the end of the
    turn (once per group)."""
    seat, location = task[1], task[2]
    board = st.boards[seat]
    plan = st.game.content.plans[st.plan[seat]]
    if location in st.business_at:
        number = st.business_at[location]
        site, entry, name = site_of_business(number), plan.business(number), f"business {number}"
        board.businesses[number - 1] = True
        group = 0 if number <= 3 else 1
        flags = board.businesses[3 * group:3 * group + 3]
    else:
        number = st.safe_house_at[location]
        site, entry, name = site_of_safe_house(number), plan.safe_house(number), f"safe house {number}"
        board.safe_houses[number - 1] = True
        group = 2
        flags = board.safe_houses
    if board.income_cubes > 0:  # 9 cubes for 9 sites each visited once: never short
        pb.take_income_cube(board)
        hex_ = INCOME_HEX if entry is None else AMOUNT_HEX
        st.cubes[site].append([seat, hex_])
        st.events.append(CubePlaced(seat, name, HEX_NAMES[hex_]))
        if entry is None:
            got = pb.receive_income(board)
            st.note("income", f"seat {seat} receives ${got}k")
        if group < 2 and len(st.cubes[site]) == st.game.content.closing_visits[st.n]:
            st.events.append(BusinessClosed(number, len(st.cubes[site])))
    if all(flags) and not board.group_bonus[group]:
        board.group_bonus[group] = True
        at_end_of_turn(st, seat, ("v_bonus", seat, group))


@decision("v_bonus", "{who} may choose the bonus for a completed group")
def _bonus_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.BONUS_DISC, codec.BONUS_UNLOCK, codec.DONE]


@applies("v_bonus")
def _bonus_apply(st: EscapeState, task: Task, action: Action) -> None:
    """"Visiting all Businesses in a group": an Extra Action disc, or lose 1 notoriety and unlock an asset;
    "Visiting all Safe Houses": a disc, or receive income and unlock an asset."""
    seat, group = task[1], task[2]
    board = st.boards[seat]
    if action == codec.DONE:
        return
    if action == codec.BONUS_DISC:
        board.extra_actions += 1
        st.events.append(Bonus(seat, GROUP_NAMES[group], "extra action"))
        return
    if group < 2:
        pb.lose_notoriety(board)
    else:
        pb.receive_income(board)
    st.events.append(Bonus(seat, GROUP_NAMES[group], "unlock"))
    push(st, ("unlock", seat, f"{GROUP_NAMES[group]} bonus"))


@decision("v_key", "{who} takes a key from the safe house")
def _key_legal(st: EscapeState, task: Task) -> list[Action]:
    """Safe House step 4: "Take one of the available keys ... (if any)"."""
    return [codec.V_KEY + c for c in sorted(set(st.keys[task[2] - 1]))]


@applies("v_key")
def _key_apply(st: EscapeState, task: Task, action: Action) -> None:
    """The key goes face up into the board's key slot of the Safe House's number."""
    seat, house = task[1], task[2]
    colour = action - codec.V_KEY
    st.keys[house - 1].remove(colour)
    st.boards[seat].keys[house - 1] = KeyTile(Locker(colour))
    st.note("key", f"seat {seat} takes a {codec.LOCKER_NAMES[colour]} key at safe house {house}")


@decision("v_fixer", "{who} may buy a Fixer tile")
def _fixer_legal(st: EscapeState, task: Task) -> list[Action]:
    """Safe House step 5, "The Fixer": any tile of the stack, its price paid, onto an Item space without an
    asset (replacing a tile there gains 1 notoriety)."""
    board = st.boards[task[1]]
    costs = st.game.content.fixer_costs
    spaces = pb.item_targets(board)
    out = [codec.V_FIXER + f * codec.MAX_ITEMS + i for f in st.fixers_left if board.money >= costs[f]
           for i in spaces]
    return out + [codec.DONE] if out else []


@applies("v_fixer")
def _fixer_apply(st: EscapeState, task: Task, action: Action) -> None:
    if action == codec.DONE:
        return
    seat = task[1]
    fixer, space = divmod(action - codec.V_FIXER, codec.MAX_ITEMS)
    board = st.boards[seat]
    board.money -= st.game.content.fixer_costs[fixer]
    st.fixers_left.remove(fixer)
    pb.place_item(board, Slot(Piece.FIXER, fixer), space)
    st.note("fixer", f"seat {seat} buys the {codec.FIXER_NAMES[fixer]} fixer onto item {space + 1}")


# --- gangs ------------------------------------------------------------------------------------------

@auto("v_gang")
def _gang(st: EscapeState, task: Task) -> None:
    """"Gangs": pay $5k, take both gang members, place a Gang Control marker."""
    seat, location = task[1], task[2]
    if not gang_open(st, seat, location):
        st.note("visit", f"seat {seat} cannot visit the gang")
        return
    board = st.boards[seat]
    board.money -= st.game.content.prices.gang
    members = st.gangs.get(location, 0)
    board.gang_members.extend([location] * members)
    st.gangs[location] = 0
    board.gang_markers -= 1
    board.gang_controlled.append(location)
    st.note("gang", f"seat {seat} controls the gang at {st.game.location_names[location]} "
                    f"({members} members)")


# --- convenience stores and lockers -----------------------------------------------------------------

@decision("v_gas", "{who} may take a gas can")
def _gas_legal(st: EscapeState, task: Task) -> list[Action]:
    """Convenience Stores 2: a gas can from the supply, up to the board's gas icons."""
    board = st.boards[task[1]]
    if st.gas_supply > 0 and board.gas_cans < st.game.content.board.max_gas_cans:
        return [codec.TAKE_GAS, codec.DONE]
    return []


@applies("v_gas")
def _gas_apply(st: EscapeState, task: Task, action: Action) -> None:
    if action == codec.TAKE_GAS:
        st.gas_supply -= 1
        st.boards[task[1]].gas_cans += 1


@decision("v_equip", "{who} may buy equipment")
def _equip_legal(st: EscapeState, task: Task) -> list[Action]:
    """Convenience Stores 3: up to 2 different pieces, each paid and put on an Item space without an
    asset (replacing a tile there gains 1 notoriety). ``task[2]`` is the type already bought (-1)."""
    board = st.boards[task[1]]
    content = st.game.content
    spaces = pb.item_targets(board)
    out = [codec.V_EQUIP + e * codec.MAX_ITEMS + i for e in range(len(content.equipment_costs))
           if e != task[2] and st.equipment_left[e] > 0 and board.money >= content.equipment_costs[e]
           for i in spaces]
    return out + [codec.DONE] if out else []


@applies("v_equip")
def _equip_apply(st: EscapeState, task: Task, action: Action) -> None:
    if action == codec.DONE:
        return
    seat = task[1]
    kind, space = divmod(action - codec.V_EQUIP, codec.MAX_ITEMS)
    board = st.boards[seat]
    board.money -= st.game.content.equipment_costs[kind]
    st.equipment_left[kind] -= 1
    pb.place_item(board, Slot(Piece.EQUIPMENT, kind), space)
    st.note("equipment", f"seat {seat} buys a {codec.EQUIPMENT_NAMES[kind]} onto item {space + 1}")
    if task[2] < 0:
        push(st, ("v_equip", seat, kind))


def locker_count(st: EscapeState, seat: int, colour: int) -> int:
    """Tiles ``seat`` would draw from the ``colour`` locker: ``board.locker_draws``, capped by the stack."""
    return min(pb.locker_draws(st.boards[seat], st.game.content, Locker(colour)), len(st.lockers[colour]))


@decision("v_locker", "{who} may open a locker")
def _locker_legal(st: EscapeState, task: Task) -> list[Action]:
    """Convenience Stores 4, "Lockers": a key of the locker's colour (or the master key), notoriety row +
    contact cards at least the locker's number, a tile to draw and an Item space to put it on."""
    seat = task[1]
    board = st.boards[seat]
    content = st.game.content
    if not pb.item_targets(board):
        return []
    contacts = pb.contact_count(board)
    out = []
    for colour in range(len(content.lockers)):
        if board.notoriety + contacts < content.lockers[colour].requirement:
            continue
        if locker_count(st, seat, colour) < 1:
            continue
        out += [codec.V_LOCKER + colour * 4 + k for k in entry_keys(st, seat, colour)]
    return out + [codec.DONE] if out else []


@applies("v_locker")
def _locker_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Lockers 1-2: flip the key (or use the master key), then draw secretly."""
    if action == codec.DONE:
        return
    seat = task[1]
    colour, key = divmod(action - codec.V_LOCKER, 4)
    count = locker_count(st, seat, colour)
    use_key(st, seat, key)
    _draw(st, seat, LOCKER, colour, count)


def stack_of(st: EscapeState, kind: str, index: int) -> list[int]:
    """The multiset of a locker colour's or an exit tile stack's values."""
    return st.lockers[index] if kind == LOCKER else st.exit_stacks[index]


def stack_name(kind: str, index: int) -> str:
    """``green locker`` or ``exit stack 1``."""
    return f"{codec.LOCKER_NAMES[index]} locker" if kind == LOCKER else f"exit stack {index + 1}"


def _draw(st: EscapeState, seat: int, kind: str, index: int, count: int) -> None:
    """Queue ``count`` secret draws from a stack and the choice of the tile kept."""
    st.ctx["drawn"] = []
    st.events.append(TilesDrawn(seat, stack_name(kind, index), count))
    push(st, *[("v_draw", seat, kind, index, j, count) for j in range(count)], ("v_keep", seat, kind, index))


@chance("v_draw", "a tile is drawn secretly", hidden=(1, "value ?"))
def _draw_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    """One tile from the stack's multiset, seen by the drawer only."""
    stack = stack_of(st, task[2], task[3])
    if not stack:
        return []
    return [(codec.TILE_VALUE + v, stack.count(v) / len(stack)) for v in sorted(set(stack))]


@applies("v_draw")
def _draw_apply(st: EscapeState, task: Task, action: Action) -> None:
    value = action - codec.TILE_VALUE
    stack_of(st, task[2], task[3]).remove(value)
    st.ctx.setdefault("drawn", []).append(value)


@decision("v_keep", "{who} keeps one of the tiles drawn")
def _keep_legal(st: EscapeState, task: Task) -> list[Action]:
    """Lockers 3 / Exits 2: one tile (by value) onto an Item space without an asset; an Exit tile onto an
    empty one while there is one."""
    drawn = st.ctx.get("drawn", [])
    spaces = pb.item_targets(st.boards[task[1]], exit_tile=task[2] == EXIT_STACK)
    return [codec.keep(v, i) for v in sorted(set(drawn)) for i in spaces]


@applies("v_keep")
def _keep_apply(st: EscapeState, task: Task, action: Action) -> None:
    """The kept tile lies face down (replacing a tile gains 1 notoriety); the others go back to the stack
    (Lockers 3-4; Exits 2-4)."""
    seat, kind, index = task[1], task[2], task[3]
    value, space = divmod(action - codec.V_KEEP, codec.MAX_ITEMS)
    drawn = st.ctx.get("drawn", [])
    drawn.remove(value)
    stack_of(st, kind, index).extend(drawn)
    st.ctx["drawn"] = []
    piece = Piece.LOCKER if kind == LOCKER else Piece.EXIT
    pb.place_item(st.boards[seat], Slot(piece, index, value, False), space, exit_tile=kind == EXIT_STACK)
    name = stack_name(kind, index)
    st.split(TileKept(seat, name, space + 1, value), TileKept(seat, name, space + 1, None), frozenset({seat}))


HIDDEN_DECISIONS["v_keep"] = lambda action: codec.keep_masked((action - codec.V_KEEP) % codec.MAX_ITEMS)


# --- clinic, church, hospital -----------------------------------------------------------------------

@decision("v_heal", "{who} may heal a wound")
def _heal_legal(st: EscapeState, task: Task) -> list[Action]:
    """Clinic 3: "You may heal 1 Wound"."""
    return [codec.CLINIC_HEAL, codec.DONE] if st.boards[task[1]].red > 0 else []


@applies("v_heal")
def _heal_apply(st: EscapeState, task: Task, action: Action) -> None:
    if action == codec.CLINIC_HEAL:
        pb.heal(st.boards[task[1]], 1)


@decision("v_church", "{who} may pay to lose notoriety")
def _church_legal(st: EscapeState, task: Task) -> list[Action]:
    """Church 2: "You may pay $1 to lose 1 Notoriety" ($1k)."""
    return [codec.CHURCH_PAY, codec.DONE] if st.boards[task[1]].money >= st.game.content.prices.church else []


@applies("v_church")
def _church_apply(st: EscapeState, task: Task, action: Action) -> None:
    if action == codec.CHURCH_PAY:
        board = st.boards[task[1]]
        board.money -= st.game.content.prices.church
        pb.lose_notoriety(board)


@decision("v_hospital", "{who} chooses how many wounds to heal at the Hospital")
def _hospital_legal(st: EscapeState, task: Task) -> list[Action]:
    """Hospital 1: $1k/$3k/$6k heal 1/2/3 wounds; 0 to the red wounds held, within the money."""
    board = st.boards[task[1]]
    prices = st.game.content.prices.hospital
    return [codec.V_HOSPITAL] + [codec.V_HOSPITAL + k for k in range(1, min(3, board.red) + 1)
                                 if board.money >= prices[k - 1]]


@applies("v_hospital")
def _hospital_apply(st: EscapeState, task: Task, action: Action) -> None:
    k = action - codec.V_HOSPITAL
    if k:
        board = st.boards[task[1]]
        board.money -= st.game.content.prices.hospital[k - 1]
        pb.heal(board, k)


# --- exits ------------------------------------------------------------------------------------------

@decision("v_exit_income", "{who} may receive income at the open exit")
def _exit_income_legal(st: EscapeState, task: Task) -> list[Action]:
    """Exits 2a: "You may receive income"."""
    return [codec.EXIT_INCOME, codec.DONE]


@applies("v_exit_income")
def _exit_income_apply(st: EscapeState, task: Task, action: Action) -> None:
    if action == codec.EXIT_INCOME:
        got = pb.receive_income(st.boards[task[1]])
        st.note("income", f"seat {task[1]} receives ${got}k")


def exit_count(st: EscapeState, seat: int, number: int) -> int:
    """Exit tiles ``seat`` would draw at closed exit ``number``: its contact cards, capped by the stack
    on it (0 when no stack covers it)."""
    stack = st.exit_stack_at.get(number)
    if stack is None or number in st.exit_pending:
        return 0
    return min(pb.exit_draws(st.boards[seat]), len(st.exit_stacks[stack]))


@decision("v_exit", "{who} may receive income or take an Exit tile")
def _exit_legal(st: EscapeState, task: Task) -> list[Action]:
    """Exits 3a: "You may either receive income OR take an Exit tile"."""
    out = [codec.EXIT_INCOME, codec.DONE]
    if exit_count(st, task[1], task[2]) >= 1 and pb.item_targets(st.boards[task[1]], exit_tile=True):
        out.append(codec.EXIT_TILE)
    return out


@applies("v_exit")
def _exit_apply(st: EscapeState, task: Task, action: Action) -> None:
    seat, number = task[1], task[2]
    if action == codec.EXIT_INCOME:
        got = pb.receive_income(st.boards[seat])
        st.note("income", f"seat {seat} receives ${got}k")
    elif action == codec.EXIT_TILE:
        _draw(st, seat, EXIT_STACK, st.exit_stack_at[number], exit_count(st, seat, number))
