"""Escape Plan's executive actions: contact cards, equipment, fixers, first aid, gang members, assets.

Rulebook sections (``shared/rulebooks/escape-plan.txt``): "Executive Actions", "Helipads", "Moving Police
Officers", "Use a Contact card", "Use an Equipment tile", "Use a Fixer tile", "Perform First Aid", "Use a
Gang member", "Use an Unlocked Asset tile", "Asset Tiles" and every effect of "Cards and Tiles
Description". The decisions where the rulebook is silent are listed in ``docs/escape-executive.md``.

The module fills :mod:`.turn`'s hooks (``executive_options``, ``apply_executive``, ``executive_name``)
when imported. **Windows** ("Executive Actions": a Travel or Avoid symbol limits a component to that
step; no symbol, "at any point during your turn"): Travel components are offered in the ``"travel"``
window, Avoid components in the ``"avoid"`` loop, the others in ``"start"`` and ``"end"``. A component
without a symbol is not offered again in ``"travel"`` and ``"avoid"``: nothing happens between the
``"start"`` window and the Avoid step that the traveller does not choose himself (no chance node, no
other player), so any such action taken there has the effect it has in ``"start"``; offering it
three times would only multiply equal lines (``docs/escape-executive.md``).

**Action ids** (``codec.EXEC + k``)::

    k = 0 + s        (5)   use the contact card on Contact space s
        5 + i        (12)  use the Equipment or Fixer tile on Item space i
        17 + a       (6)   use the unlocked asset on unlocked Asset space a (paying its cost)
        23           (1)   perform First Aid
        24 + g       (4)   use a gang member of gang g (the g-th gang Location of the city)
        --- targets (follow-up decisions) ---
        28 + t       (14)  avoid the officers (of the component's colours) on tile t
        42 + 3t + p  (42)  avoid one officer of type p on tile t
        84 + 6t + z  (84)  the Jet Ski's body of water: the one holding zone z of tile t
        168 + 3t + p (42)  move the officer of type p from tile t ...
        210 + t      (14)  ... to tile t
        224 + 3t + p (42)  Snitch: the officer of type p on tile t goes to the box

A component's use pays and flips it at once; a benefit with a target is a follow-up decision queued
before the window comes back (the player picks the target before anything else).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from solver.core import Action
from solver.core.errors import IllegalActionError
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape.board import Piece, Slot
from solver.games.escape.city import GANG, MAX_EXTRA, MAX_MP, reachable
from solver.games.escape.content import (
    EQUIPMENT,
    FIXERS,
    MAX_ITEM_SPACES,
    Asset,
    ContactKind,
    Equipment,
    Fixer,
)
from solver.games.escape.events import Travelled
from solver.games.escape.tasks import HOOKS, applies, auto, decision, push

if TYPE_CHECKING:
    from solver.games.escape.rules import EscapeGame
    from solver.games.escape.state import EscapeState, Task

# --- the EXEC block (module docstring) ---------------------------------------------------------------
CONTACT_SPACES: Final = 5
TILES: Final = codec.MAX_TILES
ZONES: Final = 6
GANGS: Final = 4
USE_CONTACT: Final = 0
USE_ITEM: Final = USE_CONTACT + CONTACT_SPACES
USE_ASSET: Final = USE_ITEM + MAX_ITEM_SPACES
FIRST_AID: Final = USE_ASSET + 6
USE_GANG: Final = FIRST_AID + 1
AVOID_TILE: Final = USE_GANG + GANGS
AVOID_ONE: Final = AVOID_TILE + TILES
JET_SKI: Final = AVOID_ONE + TILES * 3
POLICE_FROM: Final = JET_SKI + TILES * ZONES
POLICE_TO: Final = POLICE_FROM + TILES * 3
SNITCH: Final = POLICE_TO + TILES
SIZE: Final = SNITCH + TILES * 3

ANY: Final = ("start", "end")
ALL_TYPES: Final = 0b111
#: Officer type -> its bit in a colour mask (content.Police order: county, federal, swat).
COUNTY, FEDERAL, SWAT = 1, 2, 4


class Effect(NamedTuple):
    """A benefit ("Cards and Tiles Description"): its kind and, for officers, a colour mask or a type."""

    kind: str
    arg: int = 0


DISC = Effect("disc")  # take an Extra Action disc
LOSE = Effect("lose")  # lose 1 notoriety
HEAL = Effect("heal")  # heal 1 wound
INCOME = Effect("income")  # receive income
UNLOCK = Effect("unlock")  # unlock an asset
REFRESH = Effect("refresh")  # flip back face-down contact cards and equipment
CONTACT = Effect("contact")  # take a contact card
GANG_ABILITY = Effect("gang")  # one of a gang's three abilities (the window says which)
FLIGHT = Effect("flight")  # a helipad flight (Travel)
SEWER = Effect("sewer")  # a sewer ride (Travel)
JET = Effect("jet_ski")  # one ferry-less body of water walkable (Travel)
MEDEVAC = Effect("medevac")  # straight to the Hospital (Travel)

#: Effects with the Travel / Avoid symbol; the rest have none.
TRAVEL_KINDS: Final = frozenset({"flight", "sewer", "jet_ski", "medevac"})
AVOID_KINDS: Final = frozenset({"avoid_tile", "avoid_one"})


def _mask(police: tuple[int, ...]) -> int:
    """The colour mask of officer types ``police`` (bit ``1 << type``)."""
    return sum(1 << int(p) for p in set(police))


def contact_effect(kind: ContactKind, police: tuple[int, ...]) -> Effect:
    """The benefit of a contact card ("Contact Cards"); ``police`` the colours the card names."""
    colour = int(police[0]) if police else 0
    table: dict[ContactKind, Effect] = {
        ContactKind.SNITCH: Effect("snitch", colour),
        ContactKind.FIXER: DISC,
        ContactKind.FIGHTER: Effect("avoid_tile", _mask(police)),
        ContactKind.BOXER: Effect("avoid_tile", _mask(police)),
        ContactKind.NINJA: Effect("avoid_tile", _mask(police)),
        ContactKind.BRIBE: Effect("police", colour),
        ContactKind.RALLY: Effect("police", colour),
        ContactKind.INFORMER: LOSE,
        ContactKind.SPY1: CONTACT,
        ContactKind.SPY2: UNLOCK,
        ContactKind.SPY3: REFRESH,
        ContactKind.MEDIC: HEAL,
        ContactKind.MEDEVAC: MEDEVAC,
        ContactKind.GANG: GANG_ABILITY,
        ContactKind.CHOPPER: FLIGHT,
        ContactKind.GENERAL_STORE: INCOME,
        ContactKind.STUNT: Effect("avoid_one", ALL_TYPES),
        ContactKind.FAST_CAR: Effect("avoid_tile", ALL_TYPES),
        ContactKind.JET_SKI: JET,
        ContactKind.SEWER: SEWER,
    }
    return table[kind]


#: "Equipment Tiles": Vest Federal (red), Hat County (blue), Helmet SWAT (black), Gas Mask County or SWAT.
EQUIPMENT_EFFECTS: Final[dict[Equipment, Effect]] = {
    Equipment.VEST: Effect("avoid_one", FEDERAL),
    Equipment.HAT: Effect("avoid_one", COUNTY),
    Equipment.HELMET: Effect("avoid_one", SWAT),
    Equipment.GAS_MASK: Effect("avoid_one", COUNTY | SWAT),
}
#: "Fixer Tiles (1x use)".
FIXER_EFFECTS: Final[dict[Fixer, Effect]] = {
    Fixer.HELICOPTER: FLIGHT,
    Fixer.SAFE: INCOME,
    Fixer.DISGUISE: LOSE,
    Fixer.ID_CARD: DISC,
    Fixer.FIRST_AID_KIT: HEAL,
    Fixer.MOTORCYCLE: GANG_ABILITY,
    Fixer.ENERGY_DRINK: REFRESH,
    Fixer.TELEPHONE: CONTACT,
}
#: "Asset Tiles (1x use)"; the master key opens a closed building or a locker during a Visit (visit.py),
#: so it is no executive action here.
ASSET_EFFECTS: Final[dict[Asset, Effect]] = {
    Asset.AVOID_TILE: Effect("avoid_tile", ALL_TYPES),
    Asset.MOVE_FEDERAL: Effect("police", 1),
    Asset.MOVE_COUNTY: Effect("police", 0),
    Asset.MOVE_SWAT: Effect("police", 2),
    Asset.HEAL: HEAL,
    Asset.EXTRA_ACTION: DISC,
}


def in_window(effect: Effect, window: str) -> Effect | None:
    """The effect as taken in ``window``, or None when it belongs to another step ("Executive Actions").
    A gang ability is whichever of the three the window allows ("Use a Gang member")."""
    if effect.kind == "gang":
        if window == "travel":
            return FLIGHT
        if window == "avoid":
            return Effect("avoid_tile", ALL_TYPES)
        return LOSE
    if effect.kind in TRAVEL_KINDS:
        return effect if window == "travel" else None
    if effect.kind in AVOID_KINDS:
        return effect if window == "avoid" else None
    return effect if window in ANY else None


class Component(NamedTuple):
    """A usable component: its action id (``k`` in the EXEC block), its benefit, its price ($k)."""

    k: int
    effect: Effect
    cost: int


def components(st: EscapeState, seat: int) -> list[Component]:
    """Every face-up component ``seat`` could use now, ignoring window, price and usefulness."""
    board = st.boards[seat]
    content = st.game.content
    out: list[Component] = []
    open_spaces = len(board.contacts) - board.handcuffs
    for s, slot in enumerate(board.contacts[:open_spaces]):
        if slot.piece == Piece.CONTACT and slot.face_up:
            card = content.contacts[slot.ident]
            out.append(Component(USE_CONTACT + s, contact_effect(card.kind, tuple(card.police)), card.cost))
    for i, slot in enumerate(board.items):
        if slot.face_up and slot.piece == Piece.EQUIPMENT:
            out.append(Component(USE_ITEM + i, EQUIPMENT_EFFECTS[Equipment(slot.ident)], 0))
        elif slot.face_up and slot.piece == Piece.FIXER:
            out.append(Component(USE_ITEM + i, FIXER_EFFECTS[Fixer(slot.ident)], 0))
    for a in pb.usable_assets(board):
        effect = ASSET_EFFECTS.get(Asset(board.unlocked[a].ident))
        if effect is not None:
            out.append(Component(USE_ASSET + a, effect, content.board.asset_costs[a]))
    if board.first_aid_up:
        out.append(Component(FIRST_AID, HEAL, 0))
    gangs = st.game.city.of_kind(GANG)
    for g, loc in enumerate(gangs):
        if loc in board.gang_members:
            out.append(Component(USE_GANG + g, GANG_ABILITY, 0))
    return out


def executive_options(st: EscapeState, seat: int, window: str) -> list[Action]:
    """The executive actions ``seat`` may take in ``window``: the components of that step ("Executive
    Actions") the player can pay for and whose benefit changes something now."""
    ctx = st.ctx
    if ctx.get("hold") or ctx.get("medevac") and window == "travel":
        return []
    money = st.boards[seat].money
    out = []
    for comp in components(st, seat):
        effect = in_window(comp.effect, window)
        if effect is not None and comp.cost <= money and useful(st, seat, effect, window, comp.k):
            out.append(codec.EXEC + comp.k)
    return out


def useful(st: EscapeState, seat: int, effect: Effect, window: str, k: int = -1) -> bool:
    """Whether ``effect`` changes anything for ``seat`` now (component ``k`` being the one used)."""
    board = st.boards[seat]
    kind = effect.kind
    if kind in AVOID_KINDS:
        return any(1 << p & effect.arg for _, p, _ in st.ctx.get("avoid", ()))
    if kind == "flight":
        return st.ctx.get("flights", 0) < MAX_EXTRA and _widens(st, seat, flights=1)
    if kind == "sewer":
        return st.ctx.get("sewers", 0) < MAX_EXTRA and _widens(st, seat, sewers=1)
    if kind == "jet_ski":
        return st.ctx.get("jet_ski") is None and bool(_jet_bodies(st, seat))
    if kind == "medevac":
        return st.location[seat] != st.game.city.hospital
    if kind == "police":
        return any(_police_dests(st, t, effect.arg) for t in _officer_tiles(st, effect.arg))
    if kind == "snitch":
        return bool(_officer_tiles(st, effect.arg))
    if kind == "lose":
        return _lose_helps(st, seat, window)
    if kind == "heal":
        return board.red > 0
    if kind == "income":
        return pb.income(board) > 0
    if kind == "unlock":
        return bool(pb.locked_assets(board))
    if kind == "refresh":
        return _face_down(board, k)
    if kind == "contact":
        return bool(st.display) and _take_contact() is not None
    return kind == "disc"


def _lose_helps(st: EscapeState, seat: int, window: str) -> bool:
    """Losing 1 notoriety moves a cube (Notoriety Special Cases); in the ``end`` window, when no gain can
    follow this turn, only if the marker would end lower than without it."""
    board = st.boards[seat]
    if not (board.cubes_bottom or board.cubes_red):
        return False
    if window == "end":
        return board.notoriety + board.cubes_red - board.cubes_blue > st.game.content.notoriety.bottom
    return True


def _face_down(board: pb.PlayerBoard, k: int) -> bool:
    """A face-down uncovered contact card (other than the one being used) or Equipment tile."""
    open_spaces = len(board.contacts) - board.handcuffs
    own = k - USE_CONTACT
    if any(s.piece == Piece.CONTACT and not s.face_up and i != own
           for i, s in enumerate(board.contacts[:open_spaces])):
        return True
    return any(s.piece == Piece.EQUIPMENT and not s.face_up for s in board.items)


def _reach(st: EscapeState, seat: int, extra_mp: int, jet_ski: int | None, flights: int,
           sewers: int) -> dict[int, list[frozenset[int]]]:
    return reachable(st.layout(), st.location[seat], min(st.ctx["mp"] + extra_mp, MAX_MP), jet_ski=jet_ski,
                     flights=flights, sewers=sewers)


def _widens(st: EscapeState, seat: int, *, jet_ski: int | None = None, flights: int = 0,
            sewers: int = 0) -> bool:
    """Whether a travel resource changes the Travel's reachable set ("Step 1: Travel") for some number
    of the gas cans the traveller may still return (resources are declared before the gas cans)."""
    ctx = st.ctx
    now = (ctx.get("jet_ski"), ctx.get("flights", 0), ctx.get("sewers", 0))
    then = (now[0] if jet_ski is None else jet_ski, now[1] + flights, now[2] + sewers)
    for gas in range(st.boards[seat].gas_cans + 1):
        if _reach(st, seat, gas, *now) != _reach(st, seat, gas, *then):
            return True
    return False


def _jet_bodies(st: EscapeState, seat: int) -> list[int]:
    """The ferry-less bodies of water whose Jet Ski ride changes the reachable set ("Jet Ski")."""
    layout = st.layout()
    return [b for b in layout.ferryless_bodies() if _widens(st, seat, jet_ski=b)]


def _officer_tiles(st: EscapeState, police: int) -> list[int]:
    """Placed tiles holding an officer of type ``police`` (the city: display tiles are not on the board)."""
    return sorted(t for t, _ in st.placed.values() if st.officers[t][police])


def _police_dests(st: EscapeState, tile: int, police: int) -> list[int]:
    """Where an officer of type ``police`` on ``tile`` may be moved by an executive action ("Moving Police
    Officers"): any other placed tile without that type, never the Hospital tile."""
    hospital = st.game.city.hospital_tile
    return sorted(t for t, _ in st.placed.values()
                  if t != tile and t != hospital and not st.officers[t][police])


@functools.cache
def _take_contact() -> Callable[[Any, int], None] | None:
    """visit.py's ``take_contact(st, seat)`` ("Taking Contact Cards"), None while it does not exist."""
    if importlib.util.find_spec("solver.games.escape.visit") is None:
        return None
    fn = getattr(importlib.import_module("solver.games.escape.visit"), "take_contact", None)
    return fn if callable(fn) else None


# --- applying -----------------------------------------------------------------------------------------

def apply_executive(st: EscapeState, seat: int, window: str, action: Action) -> None:
    """Use one component: pay and flip it ("Use a Contact card" 2, 3, 5; "Use an Equipment tile"; "Use a
    Fixer tile"; "Perform First Aid"; "Use an Unlocked Asset tile" 1, 3; "Use a Gang member"), then
    its benefit, at once or through a follow-up decision for its target."""
    k = action - codec.EXEC
    comp = next((c for c in components(st, seat) if c.k == k), None)
    effect = None if comp is None else in_window(comp.effect, window)
    if comp is None or effect is None:
        raise IllegalActionError(f"escape: {st.game.action_to_str(action)!r} is not usable in the {window} "
                                 "window")
    board = st.boards[seat]
    content = st.game.content
    if k < USE_ITEM:
        card = content.contacts[pb.use_contact(board, content, k - USE_CONTACT)]
        what = f"{card.name} (contact space {k - USE_CONTACT + 1}) for ${card.cost}k"
    elif k < USE_ASSET:
        slot = pb.flip_item(board, k - USE_ITEM)
        name = EQUIPMENT[slot.ident] if slot.piece == Piece.EQUIPMENT else FIXERS[slot.ident]
        what = f"{name.replace('_', ' ')} (item space {k - USE_ITEM + 1})"
    elif k < FIRST_AID:
        asset = pb.use_asset(board, content, k - USE_ASSET)
        what = f"asset {asset.name.lower()} for ${content.board.asset_costs[k - USE_ASSET]}k"
    elif k == FIRST_AID:
        board.first_aid_up = False
        what = "the First Aid tile"
    else:
        loc = st.game.city.of_kind(GANG)[k - USE_GANG]
        return_member(st, seat, loc)
        what = f"a gang member of {st.game.location_names[loc]}"
    st.note("executive", f"seat {seat} uses {what}: {effect.kind.replace('_', ' ')}")
    _benefit(st, seat, window, effect, k)


def return_member(st: EscapeState, seat: int, loc: int) -> None:
    """"Use a Gang member": the member goes back to its gang Location; once both are back, the Gang
    Control marker returns to the player's Gang area and the gang may be visited again."""
    board = st.boards[seat]
    board.gang_members.remove(loc)
    st.gangs[loc] = st.gangs.get(loc, 0) + 1
    if loc not in board.gang_members and loc in board.gang_controlled:
        board.gang_controlled.remove(loc)
        board.gang_markers += 1


def _benefit(st: EscapeState, seat: int, window: str, effect: Effect, k: int) -> None:
    board = st.boards[seat]
    ctx = st.ctx
    kind = effect.kind
    if kind == "disc":
        board.extra_actions += 1
    elif kind == "lose":
        pb.lose_notoriety(board)
    elif kind == "heal":
        pb.heal(board, 1)
    elif kind == "income":
        pb.receive_income(board)
    elif kind == "refresh":
        refresh(board, k - USE_CONTACT if k < USE_ITEM else -1)
    elif kind == "flight":
        ctx["flights"] = ctx.get("flights", 0) + 1
    elif kind == "sewer":
        ctx["sewers"] = ctx.get("sewers", 0) + 1
    elif kind == "medevac":
        _medevac(st, seat)
    elif kind in AVOID_KINDS:
        _follow(st, seat, window, lambda: push(st, ("exec_" + kind, seat, effect.arg)))
    elif kind == "jet_ski":
        _follow(st, seat, window, lambda: push(st, ("exec_jet_ski", seat)))
    elif kind == "police":
        _follow(st, seat, window, lambda: push(st, ("exec_police_from", seat, effect.arg)))
    elif kind == "snitch":
        _follow(st, seat, window, lambda: push(st, ("exec_snitch", seat, effect.arg)))
    elif kind == "unlock":
        _follow(st, seat, window, lambda: push(st, ("unlock", seat, "spy 2")))
    elif kind == "contact":
        take = _take_contact()
        if take is None:
            raise IllegalActionError("escape: taking a contact card needs visit.py")
        _follow(st, seat, window, lambda: take(st, seat))
    else:
        raise IllegalActionError(f"escape: no benefit {kind!r}")


def refresh(board: pb.PlayerBoard, keep_down: int = -1) -> None:
    """Spy 3 / Energy Drink: flip back every face-down contact card and Equipment tile; the Spy 3 card
    itself (Contact space ``keep_down``) stays down, as its step 5 flips it after the benefit."""
    board.contacts = [Slot(s.piece, s.ident, s.value, True) if s.piece == Piece.CONTACT and i != keep_down
                      else s for i, s in enumerate(board.contacts)]
    board.items = [Slot(s.piece, s.ident, s.value, True) if s.piece == Piece.EQUIPMENT else s
                   for s in board.items]


def _window_task(seat: int, window: str) -> Task:
    return ("avoid", seat) if window == "avoid" else ("exec_window", seat, window)


def _follow(st: EscapeState, seat: int, window: str, queue: Callable[[], None]) -> None:
    """Queue a follow-up decision before the window comes back. :mod:`.turn` pushes the window again
    after this hook returns, in front of anything queued here, so the window is held (no option, hence
    skipped) while a copy of it waits behind the follow-up; ``exec_release`` lifts the hold at once."""
    st.ctx["hold"] = True
    push(st, _window_task(seat, window))
    queue()
    push(st, ("exec_release", seat))


@auto("exec_release")
def _release(st: EscapeState, task: Task) -> None:
    st.ctx.pop("hold", None)


def _medevac(st: EscapeState, seat: int) -> None:
    """Medevac ("Move directly to the Hospital. You may not move again this turn"): the card is the
    turn's Travel; gas cans and the Travel decision are dropped (``exec_medevac`` replaces them)."""
    travel = ("travel", seat)
    if travel not in st.todo:
        raise IllegalActionError("escape: Medevac is used in the Travel step, before the destination")
    st.ctx["medevac"] = True
    st.todo = [("exec_medevac", seat) if t == travel else t for t in st.todo if t != ("gas", seat)]


@auto("exec_medevac")
def _medevac_travel(st: EscapeState, task: Task) -> None:
    """The Medevac ride: the pawn moves to the Hospital. Like a heliport flight it leaves only the tile it
    started on ("Step 2: Avoid": no tiles in between; none when it starts on the Hospital tile), then
    the Avoid step and the Hospital's Visit follow as after any Travel."""
    seat = task[1]
    ctx = st.ctx
    city = st.game.city
    start, dest = st.location[seat], city.hospital
    start_tile = city.locations[start].tile
    left = [] if start_tile == city.hospital_tile else [start_tile]
    st.location[seat] = dest
    names = st.game.location_names
    st.events.append(Travelled(seat, names[start], names[dest], tuple(city.tiles[t].name for t in left), 0))
    ctx.update(start=start, dest=dest, left=left, escape=False)
    ctx["avoid"] = [[t, p, False] for t in left for p in range(3) if st.officers[t][p]]
    queue: list[Task] = []
    if st.sandra and city.locations[st.location[st.n]].tile in left:
        queue.append(("sandra_as", seat))
    queue += [("avoid", seat), ("wounds", seat), ("visit_step", seat, dest)]
    push(st, *queue)


# --- follow-up decisions --------------------------------------------------------------------------------

def _entries(st: EscapeState, mask: int) -> list[list[Any]]:
    return [e for e in st.ctx.get("avoid", ()) if 1 << e[1] & mask]


@decision("exec_avoid_tile", "{who} chooses the tile whose officers are avoided")
def _avoid_tile_legal(st: EscapeState, task: Task) -> list[Action]:
    return sorted({codec.EXEC + AVOID_TILE + e[0] for e in _entries(st, task[2])})


@applies("exec_avoid_tile")
def _avoid_tile_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Fighter / Boxer / Ninja (their colours), Fast Car, the Avoid asset, a gang's ability (all): every
    officer of those colours on the tile is avoided, Sandra too when the type chosen for her matches."""
    tile = action - codec.EXEC - AVOID_TILE
    mask = task[2]
    st.ctx["avoid"] = [e for e in st.ctx["avoid"] if not (e[0] == tile and 1 << e[1] & mask)]


@decision("exec_avoid_one", "{who} chooses the officer avoided")
def _avoid_one_legal(st: EscapeState, task: Task) -> list[Action]:
    return sorted({codec.EXEC + AVOID_ONE + 3 * e[0] + e[1] for e in _entries(st, task[2])})


@applies("exec_avoid_one")
def _avoid_one_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Vest, Hat, Helmet, Gas Mask, Stunt: one officer of the tile and type (an officer and Sandra of the
    same type on one tile are alike: either one is avoided)."""
    tile, police = divmod(action - codec.EXEC - AVOID_ONE, 3)
    avoid = st.ctx["avoid"]
    avoid.remove(next(e for e in avoid if e[0] == tile and e[1] == police))


@decision("exec_jet_ski", "{who} chooses the body of water for the Jet Ski")
def _jet_legal(st: EscapeState, task: Task) -> list[Action]:
    layout = st.layout()
    out = []
    for b in _jet_bodies(st, task[1]):
        tile, zone = layout.bodies[b][0]
        out.append(codec.EXEC + JET_SKI + ZONES * tile + zone)
    return out


@applies("exec_jet_ski")
def _jet_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Jet Ski: "move through Water spaces on one body of water this turn"; the body is named by its
    first water zone."""
    pair = divmod(action - codec.EXEC - JET_SKI, ZONES)
    st.ctx["jet_ski"] = next(b for b, pairs in enumerate(st.layout().bodies) if pairs[0] == pair)


@decision("exec_police_from", "{who} chooses the police officer to move")
def _from_legal(st: EscapeState, task: Task) -> list[Action]:
    police = task[2]
    return [codec.EXEC + POLICE_FROM + 3 * t + police for t in _officer_tiles(st, police)
            if _police_dests(st, t, police)]


@applies("exec_police_from")
def _from_apply(st: EscapeState, task: Task, action: Action) -> None:
    tile, police = divmod(action - codec.EXEC - POLICE_FROM, 3)
    push(st, ("exec_police_to", task[1], tile, police))


@decision("exec_police_to", "{who} chooses where the officer goes")
def _to_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.EXEC + POLICE_TO + t for t in _police_dests(st, task[2], task[3])]


@applies("exec_police_to")
def _to_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Bribe / Rally and the three Police Officer shields ("Moving Police Officers")."""
    tile, police = task[2], task[3]
    dest = action - codec.EXEC - POLICE_TO
    st.officers[tile][police] = False
    st.officers[dest][police] = True
    tiles = st.game.city.tiles
    st.note("executive", f"seat {task[1]} moves the {codec.POLICE_NAMES[police]} officer from "
                         f"{tiles[tile].name} to {tiles[dest].name}")


@decision("exec_snitch", "{who} chooses the officer the Snitch removes")
def _snitch_legal(st: EscapeState, task: Task) -> list[Action]:
    police = task[2]
    return [codec.EXEC + SNITCH + 3 * t + police for t in _officer_tiles(st, police)]


@applies("exec_snitch")
def _snitch_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Snitch: the officer goes back to the box (out of the game, not to the bag)."""
    tile, police = divmod(action - codec.EXEC - SNITCH, 3)
    st.officers[tile][police] = False
    st.note("executive", f"seat {task[1]} has the {codec.POLICE_NAMES[police]} officer on "
                         f"{st.game.city.tiles[tile].name} removed")


# --- notation -------------------------------------------------------------------------------------------

def executive_name(game: EscapeGame, k: int) -> str | None:
    """The notation of ``codec.EXEC + k`` (None when ``game`` has no such action): components by their
    board space (``use contact space 2``), targets by tile and officer type (``avoid federal on
    Riverside``)."""
    city, content = game.city, game.content
    tiles = city.tiles
    if k < 0 or k >= SIZE:
        return None
    if k < USE_ITEM:
        return f"use contact space {k + 1}" if k < content.board.contact_spaces else None
    if k < USE_ASSET:
        i = k - USE_ITEM
        return f"use item space {i + 1}" if i < content.board.item_spaces else None
    if k < FIRST_AID:
        return f"use asset space {k - USE_ASSET + 1}"
    if k == FIRST_AID:
        return "first aid"
    if k < AVOID_TILE:
        gangs = city.of_kind(GANG)
        g = k - USE_GANG
        return f"use gang member of {game.location_names[gangs[g]]}" if g < len(gangs) else None
    if k < AVOID_ONE:
        t = k - AVOID_TILE
        return f"avoid officers on {tiles[t].name}" if t < len(tiles) else None
    if k < JET_SKI:
        t, p = divmod(k - AVOID_ONE, 3)
        return f"avoid {codec.POLICE_NAMES[p]} on {tiles[t].name}" if t < len(tiles) else None
    if k < POLICE_FROM:
        t, z = divmod(k - JET_SKI, ZONES)
        if t >= len(tiles) or z >= len(tiles[t].zones) or tiles[t].zones[z].type.name != "WATER":
            return None
        waters = [i for i, zone in enumerate(tiles[t].zones) if zone.type.name == "WATER"]
        suffix = "" if len(waters) == 1 else f" {waters.index(z) + 1}"
        return f"jet ski on {tiles[t].name} water{suffix}"
    if k < POLICE_TO:
        t, p = divmod(k - POLICE_FROM, 3)
        return f"move {codec.POLICE_NAMES[p]} from {tiles[t].name}" if t < len(tiles) else None
    if k < SNITCH:
        t = k - POLICE_TO
        return f"move officer to {tiles[t].name}" if t < len(tiles) else None
    t, p = divmod(k - SNITCH, 3)
    return f"snitch {codec.POLICE_NAMES[p]} on {tiles[t].name}" if t < len(tiles) else None


def window_of(effect: Effect) -> str:
    """The step of a benefit's symbol ("Executive Actions"): ``"travel"``, ``"avoid"``, ``"any"`` (no
    symbol: the ``start`` and ``end`` windows) or ``"gang"`` (each ability its own window)."""
    if effect.kind == "gang":
        return "gang"
    if effect.kind in TRAVEL_KINDS:
        return "travel"
    return "avoid" if effect.kind in AVOID_KINDS else "any"


HOOKS["executive_options"] = executive_options
HOOKS["apply_executive"] = apply_executive
HOOKS["executive_name"] = executive_name
