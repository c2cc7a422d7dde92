"""Escape Plan's executive actions (solver/games/escape/executive.py).

Each test names the rulebook section or card it checks (``shared/rulebooks/escape-plan.txt``, "Executive
Actions" and "Cards and Tiles Description"). Positions are reached by seeded random play, then the boards,
officers and turn context are set by hand; what a Travel can reach is worked out with the city module's
own ``reachable`` (tested in ``tests/test_escape_city.py``), never read back from the code under test.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from solver.core import CHANCE, IllegalActionError
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape import executive as ex
from solver.games.escape.board import Piece, Slot
from solver.games.escape.city import GANG, reachable
from solver.games.escape.content import Asset, ContactKind, Equipment, Fixer
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState

GAMES = {n: EscapeGame(players=n) for n in (2, 3, 4, 5)}
E = codec.EXEC


def step(st: EscapeState, rng: np.random.Generator) -> None:
    """One random action: a chance outcome by its probability, a decision uniformly."""
    if st.current_player() == CHANCE:
        outcomes = st.chance_outcomes()
        p = np.array([q for _, q in outcomes])
        st.apply(outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0])
    else:
        legal = st.legal_actions()
        st.apply(legal[int(rng.integers(len(legal)))])


def play_until(st: EscapeState, done: Callable[[EscapeState], bool], seed: int = 0,
               limit: int = 5000) -> EscapeState:
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if done(st):
            return st
        if st.is_terminal():
            break
        step(st, rng)
    raise AssertionError("the position was not reached")


def at_action(st: EscapeState) -> bool:
    return not st.is_terminal() and st.todo[0][0] == "action"


def position(players: int = 3, seed: int = 0, day: int = 1) -> tuple[EscapeState, int]:
    """A state at a seat's Action (day ``day``), that seat's board cleared of money worries."""
    st = play_until(GAMES[players].new_initial_state(), lambda s: s.day >= day and at_action(s), seed)
    seat = st.todo[0][1]
    st.boards[seat].money = 30
    return st, seat


def card(st: EscapeState, kind: ContactKind, colours: tuple[int, ...] | None = None) -> int:
    """The index of the first contact card of ``kind`` (naming ``colours`` when given)."""
    return next(i for i, c in enumerate(st.game.content.contacts)
                if c.kind == kind and (colours is None or tuple(c.police) == colours))


def give_contact(st: EscapeState, seat: int, kind: ContactKind, space: int = 0,
                 colours: tuple[int, ...] | None = None) -> int:
    """Put a face-up contact card of ``kind`` on Contact space ``space``; returns its card index."""
    index = card(st, kind, colours)
    st.boards[seat].contacts[space] = Slot(Piece.CONTACT, index)
    return index


def give_item(st: EscapeState, seat: int, piece: Piece, ident: int, space: int = 0) -> None:
    st.boards[seat].items[space] = Slot(piece, ident)


def unlock(st: EscapeState, seat: int, asset: Asset) -> int:
    """Unlock ``asset`` on ``seat``'s board; returns its unlocked space."""
    space = pb.unlock_asset(st.boards[seat], st.game.content, asset)
    if space is None:
        raise AssertionError("no unlocked space left")
    return space


def start_window(st: EscapeState, seat: int) -> None:
    """Open the ``start`` window in front of the pending Action."""
    st.todo.insert(0, ("exec_window", seat, "start"))


def avoid_step(st: EscapeState, seat: int, entries: list[list[object]]) -> None:
    """Put the Avoid step at the head with ``entries`` still to avoid (then the wounds)."""
    st.ctx["avoid"] = [list(e) for e in entries]
    st.todo[0:0] = [("avoid", seat), ("wounds", seat)]


def names(st: EscapeState) -> list[str]:
    return [st.game.action_to_str(a) for a in st.legal_actions()]


def placed_tiles(st: EscapeState) -> list[int]:
    return sorted(t for t, _ in st.placed.values())


def clear_asset_spaces(st: EscapeState, seat: int) -> None:
    """No unlocked asset is usable (the Extra Action asset starts usable for $5k)."""
    board = st.boards[seat]
    board.unlocked = [Slot(s.piece, s.ident, 0, False) if s.piece == Piece.ASSET else s
                      for s in board.unlocked]


# --- the window table -------------------------------------------------------------------------------

#: "Executive Actions": the step symbol of each component, read from its text (the symbols are not in
#: the rulebook's text): movement is Travel, avoiding officers is Avoid, the rest has none ("any").
CONTACT_WINDOWS = {
    ContactKind.SNITCH: "any", ContactKind.FIXER: "any", ContactKind.FIGHTER: "avoid",
    ContactKind.BOXER: "avoid", ContactKind.NINJA: "avoid", ContactKind.BRIBE: "any",
    ContactKind.RALLY: "any",
    ContactKind.INFORMER: "any", ContactKind.SPY1: "any", ContactKind.SPY2: "any", ContactKind.SPY3: "any",
    ContactKind.MEDIC: "any", ContactKind.MEDEVAC: "travel", ContactKind.GANG: "gang",
    ContactKind.CHOPPER: "travel", ContactKind.GENERAL_STORE: "any", ContactKind.STUNT: "avoid",
    ContactKind.FAST_CAR: "avoid", ContactKind.JET_SKI: "travel", ContactKind.SEWER: "travel",
}
FIXER_WINDOWS = {
    Fixer.HELICOPTER: "travel", Fixer.SAFE: "any", Fixer.DISGUISE: "any", Fixer.ID_CARD: "any",
    Fixer.FIRST_AID_KIT: "any", Fixer.MOTORCYCLE: "gang", Fixer.ENERGY_DRINK: "any", Fixer.TELEPHONE: "any",
}
ASSET_WINDOWS = {
    Asset.AVOID_TILE: "avoid", Asset.MOVE_FEDERAL: "any", Asset.MOVE_COUNTY: "any", Asset.MOVE_SWAT: "any",
    Asset.HEAL: "any", Asset.EXTRA_ACTION: "any",
}


def test_window_table() -> None:
    """Every component's step, equipment being Avoid; the master key is no executive action (it opens a
    building or a locker during a Visit)."""
    for kind, window in CONTACT_WINDOWS.items():
        colours = (0,) if kind in (ContactKind.SNITCH, ContactKind.BRIBE, ContactKind.RALLY,
                                   ContactKind.FIGHTER) else (0, 1) if kind == ContactKind.BOXER else ()
        assert ex.window_of(ex.contact_effect(kind, colours)) == window, kind
    assert {ex.window_of(e) for e in ex.EQUIPMENT_EFFECTS.values()} == {"avoid"}
    assert {f: ex.window_of(e) for f, e in ex.FIXER_EFFECTS.items()} == FIXER_WINDOWS
    assert {a: ex.window_of(e) for a, e in ex.ASSET_EFFECTS.items()} == ASSET_WINDOWS
    assert Asset.MASTER_KEY not in ex.ASSET_EFFECTS


def test_components_are_offered_only_in_their_window() -> None:
    """A Jet Ski is never offered at the start, an Informer never in the Avoid step, a Vest only there."""
    st, seat = position()
    clear_asset_spaces(st, seat)
    give_contact(st, seat, ContactKind.INFORMER, 0)
    give_contact(st, seat, ContactKind.STUNT, 1)
    give_item(st, seat, Piece.EQUIPMENT, Equipment.VEST, 0)
    st.boards[seat].notoriety = st.game.content.notoriety.bottom + 1  # losing notoriety counts at the end
    st.ctx["avoid"] = [[placed_tiles(st)[0], 1, False]]
    assert ex.executive_options(st, seat, "start") == [E + ex.USE_CONTACT + 0]
    assert ex.executive_options(st, seat, "end") == [E + ex.USE_CONTACT + 0]
    assert ex.executive_options(st, seat, "travel") == []
    assert ex.executive_options(st, seat, "avoid") == [E + ex.USE_CONTACT + 1, E + ex.USE_ITEM + 0]


# --- contact cards: price, star, flip, rest --------------------------------------------------------------

def test_contact_price_star_and_flip() -> None:
    """"Use a Contact card": pay its price, gain 1 notoriety for a red star, benefit, flip face down."""
    st, seat = position()
    board = st.boards[seat]
    clear_asset_spaces(st, seat)
    informer = give_contact(st, seat, ContactKind.INFORMER, 0)
    fixer = give_contact(st, seat, ContactKind.FIXER, 1)
    cards = st.game.content.contacts
    assert not cards[informer].notoriety and cards[fixer].notoriety
    start_window(st, seat)
    assert st.legal_actions() == [codec.DONE, E + 0, E + 1]
    st.apply(E + 0)  # Informer: lose 1 notoriety
    assert board.money == 30 - cards[informer].cost and (board.cubes_blue, board.cubes_red) == (1, 0)
    assert board.contacts[0] == Slot(Piece.CONTACT, informer, 0, False)
    st.apply(E + 1)  # Fixer: an Extra Action disc, and the star's notoriety
    assert board.extra_actions == 1 and board.cubes_red == 1
    assert board.money == 30 - cards[informer].cost - cards[fixer].cost
    assert st.todo[0] == ("action", seat)  # both face down: the window closed by itself
    st.apply(codec.REST)  # Rest 2 flips the cards back
    assert board.contacts[0].face_up and board.contacts[1].face_up


def test_contact_not_offered_when_unaffordable() -> None:
    st, seat = position()
    clear_asset_spaces(st, seat)
    index = give_contact(st, seat, ContactKind.FIXER, 0)
    st.boards[seat].money = st.game.content.contacts[index].cost - 1
    assert ex.executive_options(st, seat, "start") == []
    st.boards[seat].money += 1
    assert ex.executive_options(st, seat, "start") == [E]


def test_an_illegal_use_is_refused() -> None:
    st, seat = position()
    with pytest.raises(IllegalActionError):
        ex.apply_executive(st, seat, "start", E + ex.USE_CONTACT + 3)  # an empty Contact space
    give_contact(st, seat, ContactKind.JET_SKI, 3)
    with pytest.raises(IllegalActionError):
        ex.apply_executive(st, seat, "start", E + ex.USE_CONTACT + 3)  # a Travel card at the start


# --- equipment, fixers, first aid -----------------------------------------------------------------------

def test_equipment_and_fixers_flip_and_only_equipment_comes_back() -> None:
    """"Use an Equipment tile" / "Use a Fixer tile": flipped on use (their price was paid when bought);
    Rest flips equipment back, fixers are one use ("Fixer Tiles (1x use)")."""
    st, seat = position()
    board = st.boards[seat]
    clear_asset_spaces(st, seat)
    give_item(st, seat, Piece.FIXER, Fixer.ID_CARD, 0)
    give_item(st, seat, Piece.FIXER, Fixer.SAFE, 1)
    start_window(st, seat)
    money = board.money
    st.apply(E + ex.USE_ITEM + 0)
    assert board.extra_actions == 1 and not board.items[0].face_up and board.money == money
    st.apply(E + ex.USE_ITEM + 1)  # Safe: receive income
    assert board.money == money + board.income_cubes and not board.items[1].face_up
    st.apply(codec.REST)
    assert not board.items[0].face_up and not board.items[1].face_up
    assert ex.executive_options(st, seat, "end") == []


def test_first_aid_heals_flips_and_rest_restores() -> None:
    """"Perform First Aid": flip the tile, heal 1 wound; offered only when wounded; Rest flips it up."""
    st, seat = position()
    board = st.boards[seat]
    clear_asset_spaces(st, seat)
    assert ex.executive_options(st, seat, "start") == []
    pb.take_wound(board)
    assert ex.executive_options(st, seat, "start") == [E + ex.FIRST_AID]
    start_window(st, seat)
    st.apply(E + ex.FIRST_AID)
    assert (board.green, board.red, board.first_aid_up) == (3, 0, False)
    st.apply(codec.REST)
    assert board.first_aid_up


def test_heals_need_a_wound_and_income_needs_cubes() -> None:
    """Medic, First Aid Kit and the heal asset heal 1; General Store and Safe receive income; each is
    offered only when it does something."""
    st, seat = position()
    board = st.boards[seat]
    clear_asset_spaces(st, seat)
    board.first_aid_up = False
    give_contact(st, seat, ContactKind.MEDIC, 0)
    give_item(st, seat, Piece.FIXER, Fixer.FIRST_AID_KIT, 0)
    heal_space = unlock(st, seat, Asset.HEAL)
    give_contact(st, seat, ContactKind.GENERAL_STORE, 1)
    assert ex.executive_options(st, seat, "start") == [E + 1]
    board.income_cubes = 0
    assert ex.executive_options(st, seat, "start") == []
    pb.take_wound(board)
    pb.take_wound(board)
    assert ex.executive_options(st, seat, "start") == [E + 0, E + ex.USE_ITEM, E + ex.USE_ASSET + heal_space]
    start_window(st, seat)
    st.apply(E + ex.USE_ASSET + heal_space)
    assert board.red == 1 and board.money == 30 - st.game.content.board.asset_costs[heal_space]
    st.apply(E + 0)
    assert board.red == 0 and ex.executive_options(st, seat, "start") == []


def test_spy3_and_energy_drink_flip_back_contacts_and_equipment() -> None:
    """Spy 3 / Energy Drink: flip back face-down contacts and equipment; Spy 3 itself ends face down (step
    5 comes after the benefit); fixers stay used."""
    st, seat = position()
    board = st.boards[seat]
    clear_asset_spaces(st, seat)
    spy = give_contact(st, seat, ContactKind.SPY3, 0)
    medic = give_contact(st, seat, ContactKind.MEDIC, 1)
    give_item(st, seat, Piece.EQUIPMENT, Equipment.HAT, 0)
    give_item(st, seat, Piece.FIXER, Fixer.ENERGY_DRINK, 1)
    assert ex.executive_options(st, seat, "start") == []  # nothing face down yet
    board.contacts[1] = Slot(Piece.CONTACT, medic, 0, False)
    board.items[0] = Slot(Piece.EQUIPMENT, Equipment.HAT, 0, False)
    assert ex.executive_options(st, seat, "start") == [E + 0, E + ex.USE_ITEM + 1]
    start_window(st, seat)
    st.apply(E + 0)
    assert board.contacts[0] == Slot(Piece.CONTACT, spy, 0, False)
    assert board.contacts[1].face_up and board.items[0].face_up
    # the Energy Drink would flip the Spy 3 back: still offered; with Spy 3 up, nothing to flip
    assert ex.executive_options(st, seat, "start") == [E + ex.USE_ITEM + 1]
    board.contacts[0] = Slot(Piece.CONTACT, spy)
    assert ex.executive_options(st, seat, "start") == []  # the Medic has no wound to heal


def test_informer_disguise_and_gang_lose_notoriety_only_when_it_counts() -> None:
    """Lose 1 notoriety ("Notoriety Special Cases": a cube must move); in the end window only when the
    marker would end lower, since no gain can follow."""
    st, seat = position()
    board = st.boards[seat]
    clear_asset_spaces(st, seat)
    give_item(st, seat, Piece.FIXER, Fixer.DISGUISE, 0)
    bottom = st.game.content.notoriety.bottom
    board.notoriety = bottom
    assert ex.executive_options(st, seat, "start") == [E + ex.USE_ITEM]
    assert ex.executive_options(st, seat, "end") == []
    board.notoriety = bottom + 1
    assert ex.executive_options(st, seat, "end") == [E + ex.USE_ITEM]
    board.cubes_bottom, board.cubes_blue = 0, board.cubes_bottom  # no cube can move
    assert ex.executive_options(st, seat, "start") == []


def test_spy2_unlocks_an_asset() -> None:
    """Spy 2: unlock 1 asset, chosen next; then the window comes back."""
    st, seat = position()
    board = st.boards[seat]
    clear_asset_spaces(st, seat)
    give_contact(st, seat, ContactKind.SPY2, 0)
    start_window(st, seat)
    st.apply(E)
    assert st.todo[0][0] == "unlock"
    st.apply(codec.UNLOCK + Asset.HEAL)
    assert Asset.HEAL not in pb.locked_assets(board)
    assert any(s.piece == Piece.ASSET and s.ident == Asset.HEAL and s.face_up for s in board.unlocked)
    assert st.todo[0][0] == "action"  # the window had nothing more to offer


def test_spy1_and_telephone_take_a_contact() -> None:
    """Spy 1 / Telephone: take a contact card ("Taking Contact Cards", visit.py's take_contact)."""
    if ex._take_contact() is None:
        pytest.skip("visit.py (take_contact) is not there yet")
    st, seat = position()
    clear_asset_spaces(st, seat)
    give_item(st, seat, Piece.FIXER, Fixer.TELEPHONE, 0)
    assert st.display and ex.executive_options(st, seat, "start") == [E + ex.USE_ITEM]
    start_window(st, seat)
    st.apply(E + ex.USE_ITEM)
    assert st.todo[0][0] not in ("exec_window", "action")  # taking the card comes first
    assert ("exec_window", seat, "start") in st.todo


# --- assets ---------------------------------------------------------------------------------------------

def test_assets_are_paid_flipped_and_scored_as_used() -> None:
    """"Use an Unlocked Asset tile": pay the space's cost, benefit, flip; $10k each used at the end."""
    st, seat = position()
    board = st.boards[seat]
    content = st.game.content
    plan = content.plans[st.plan[seat]]
    before = pb.score(board, plan, content)
    space = next(a for a in pb.usable_assets(board) if board.unlocked[a].ident == Asset.EXTRA_ACTION)
    cost = content.board.asset_costs[space]
    board.money = cost - 1
    assert ex.executive_options(st, seat, "start") == []
    board.money = cost
    start_window(st, seat)
    st.apply(E + ex.USE_ASSET + space)
    after = pb.score(board, plan, content)
    assert board.money == 0 and board.extra_actions == 1 and not board.unlocked[space].face_up
    assert after.used_assets - before.used_assets == content.scoring.used_asset == 10
    assert pb.usable_assets(board) == []


# --- avoid resources ------------------------------------------------------------------------------------

def avoid_position() -> tuple[EscapeState, int, int, int]:
    st, seat = position()
    clear_asset_spaces(st, seat)
    t1, t2 = [t for t in placed_tiles(st) if t != st.game.city.hospital_tile][:2]
    # county and federal on t1; federal on t2 and Sandra-style entry counted as SWAT on t2
    avoid_step(st, seat, [[t1, 0, False], [t1, 1, False], [t2, 1, False], [t2, 2, True]])
    return st, seat, t1, t2


def test_equipment_avoids_one_officer_of_its_colour() -> None:
    """Vest: one Federal officer; Gas Mask: one County or SWAT (Sandra's entry counts by its type)."""
    st, seat, t1, t2 = avoid_position()
    give_item(st, seat, Piece.EQUIPMENT, Equipment.VEST, 0)
    give_item(st, seat, Piece.EQUIPMENT, Equipment.GAS_MASK, 1)
    assert set(st.legal_actions()) >= {codec.TAKE_WOUNDS, E + ex.USE_ITEM, E + ex.USE_ITEM + 1}
    st.apply(E + ex.USE_ITEM)
    assert st.legal_actions() == [E + ex.AVOID_ONE + 3 * t1 + 1, E + ex.AVOID_ONE + 3 * t2 + 1]
    assert st.game.action_to_str(E + ex.AVOID_ONE + 3 * t2 + 1) == \
        f"avoid federal on {st.game.city.tiles[t2].name}"
    st.apply(E + ex.AVOID_ONE + 3 * t2 + 1)
    assert st.ctx["avoid"] == [[t1, 0, False], [t1, 1, False], [t2, 2, True]]
    assert st.todo[0] == ("avoid", seat)
    give_item(st, seat, Piece.EQUIPMENT, Equipment.HELMET, 0)
    st.apply(E + ex.USE_ITEM + 1)
    assert st.legal_actions() == [E + ex.AVOID_ONE + 3 * t1, E + ex.AVOID_ONE + 3 * t2 + 2]
    board = st.boards[seat]
    green = board.green
    st.apply(E + ex.AVOID_ONE + 3 * t2 + 2)
    # no SWAT left for the Helmet: the step has no option and the two officers left wound
    assert st.todo[0] == ("action", seat) and board.green == green - 2


def test_fighter_boxer_ninja_avoid_their_colours_on_one_tile() -> None:
    """Fighter / Boxer / Ninja: every officer of the card's colours on one tile."""
    st, seat, t1, t2 = avoid_position()
    give_contact(st, seat, ContactKind.FIGHTER, 0, (0,))  # county
    give_contact(st, seat, ContactKind.BOXER, 1, (1, 2))  # federal + swat
    st.apply(E + 0)
    assert st.legal_actions() == [E + ex.AVOID_TILE + t1]
    st.apply(E + ex.AVOID_TILE + t1)
    assert st.ctx["avoid"] == [[t1, 1, False], [t2, 1, False], [t2, 2, True]]
    st.apply(E + 1)
    assert st.legal_actions() == [E + ex.AVOID_TILE + t1, E + ex.AVOID_TILE + t2]
    board = st.boards[seat]
    green = board.green
    st.apply(E + ex.AVOID_TILE + t2)  # nothing left to use: the federal officer on t1 wounds
    assert st.todo[0] == ("action", seat) and board.green == green - 1


def test_fast_car_stunt_and_the_avoid_asset() -> None:
    """Fast Car and the Avoid asset: all officers on one tile; Stunt: one officer of any type."""
    st, seat, t1, t2 = avoid_position()
    give_contact(st, seat, ContactKind.FAST_CAR, 0)
    give_contact(st, seat, ContactKind.STUNT, 1)
    space = unlock(st, seat, Asset.AVOID_TILE)
    st.apply(E + ex.USE_ASSET + space)
    st.apply(E + ex.AVOID_TILE + t1)
    assert st.ctx["avoid"] == [[t2, 1, False], [t2, 2, True]]
    st.apply(E + 1)
    assert st.legal_actions() == [E + ex.AVOID_ONE + 3 * t2 + 1, E + ex.AVOID_ONE + 3 * t2 + 2]
    st.apply(E + ex.AVOID_ONE + 3 * t2 + 2)
    assert st.ctx["avoid"] == [[t2, 1, False]]
    green = st.boards[seat].green
    st.apply(E + 0)
    st.apply(E + ex.AVOID_TILE + t2)
    assert st.todo[0] == ("action", seat) and st.boards[seat].green == green


def test_no_avoid_option_without_a_matching_officer() -> None:
    """A Vest is not offered when no Federal officer is left to avoid."""
    st, seat = position()
    clear_asset_spaces(st, seat)
    give_item(st, seat, Piece.EQUIPMENT, Equipment.VEST, 0)
    st.ctx["avoid"] = [[placed_tiles(st)[0], 0, False]]
    assert ex.executive_options(st, seat, "avoid") == []
    st.ctx["avoid"].append([placed_tiles(st)[1], 1, False])
    assert ex.executive_options(st, seat, "avoid") == [E + ex.USE_ITEM]


# --- gang members ---------------------------------------------------------------------------------------

def give_gang(st: EscapeState, seat: int) -> tuple[int, int]:
    """``seat`` controls a gang of a placed tile and holds both its members; returns (gang, Location)."""
    city = st.game.city
    gangs = city.of_kind(GANG)
    g, loc = next((g, loc) for g, loc in enumerate(gangs) if city.locations[loc].tile in placed_tiles(st))
    board = st.boards[seat]
    st.gangs[loc] = 0
    board.gang_members = [loc, loc]
    board.gang_controlled = [loc]
    board.gang_markers -= 1
    return g, loc


def test_gang_members_return_and_the_marker_comes_back() -> None:
    """"Use a Gang member": the member returns to its gang; once both are back, so is the marker."""
    st, seat = position()
    board = st.boards[seat]
    clear_asset_spaces(st, seat)
    g, loc = give_gang(st, seat)
    markers = board.gang_markers
    start_window(st, seat)
    assert st.legal_actions() == [codec.DONE, E + ex.USE_GANG + g]
    st.apply(E + ex.USE_GANG + g)  # at the start: lose 1 notoriety
    assert board.cubes_blue == 1 and st.gangs[loc] == 1 and board.gang_members == [loc]
    assert board.gang_controlled == [loc] and board.gang_markers == markers
    st.apply(E + ex.USE_GANG + g)
    assert board.cubes_blue == 2 and st.gangs[loc] == 2 and board.gang_members == []
    assert board.gang_controlled == [] and board.gang_markers == markers + 1


def test_gang_member_ignores_a_tile_in_the_avoid_step() -> None:
    st, seat, t1, t2 = avoid_position()
    g, _ = give_gang(st, seat)
    st.apply(E + ex.USE_GANG + g)
    assert st.legal_actions() == [E + ex.AVOID_TILE + t1, E + ex.AVOID_TILE + t2]
    st.apply(E + ex.AVOID_TILE + t2)
    assert st.ctx["avoid"] == [[t1, 0, False], [t1, 1, False]]


def test_motorcycle_and_gang_contact_need_no_member() -> None:
    """Motorcycle / the Gang contact: one gang ability without a member (here: lose 1 notoriety)."""
    st, seat = position()
    board = st.boards[seat]
    clear_asset_spaces(st, seat)
    give_item(st, seat, Piece.FIXER, Fixer.MOTORCYCLE, 0)
    give_contact(st, seat, ContactKind.GANG, 0)
    assert ex.executive_options(st, seat, "start") == [E + 0, E + ex.USE_ITEM]
    start_window(st, seat)
    st.apply(E + ex.USE_ITEM)
    st.apply(E + 0)
    assert board.cubes_blue == 2 and board.gang_members == []


# --- travel resources -----------------------------------------------------------------------------------

def full_city(players: int = 3, seed: int = 1) -> tuple[EscapeState, int]:
    """A day-3 position: every tile is placed."""
    st, seat = position(players, seed, day=3)
    clear_asset_spaces(st, seat)
    return st, seat


def widening(st: EscapeState, **resource: int) -> int | None:
    """A placed Location from which ``resource`` makes a new Location reachable with 3 MP (by the city
    module), or None."""
    layout = st.layout()
    for loc in layout.locations:
        if st.game.city.locations[loc].tile == st.game.city.hospital_tile:
            continue
        base = reachable(layout, loc, 3)
        more = reachable(layout, loc, 3, **resource)  # type: ignore[arg-type]
        if set(more) - set(base):
            return loc
    return None


def move_turn(st: EscapeState, seat: int, loc: int) -> None:
    st.location[seat] = loc
    st.boards[seat].gas_cans = 0
    st.apply(codec.MOVE)


def test_jet_ski_opens_a_body_of_water() -> None:
    """Jet Ski: "move through Water spaces on one body of water this turn": a Location beyond it becomes
    a Travel destination."""
    for seed in range(1, 12):
        st, seat = full_city(seed=seed)
        layout = st.layout()
        found = [(b, loc) for b in layout.ferryless_bodies() if (loc := widening(st, jet_ski=b)) is not None]
        if found:
            break
    else:
        raise AssertionError("no position where a Jet Ski widens the Travel")
    body, loc = found[0]
    give_contact(st, seat, ContactKind.JET_SKI, 0)
    move_turn(st, seat, loc)
    assert st.todo[0] == ("exec_window", seat, "travel") and E + 0 in st.legal_actions()
    new = set(reachable(layout, loc, 3, jet_ski=body)) - set(reachable(layout, loc, 3))
    st.apply(E + 0)
    tile, zone = layout.bodies[body][0]
    assert E + ex.JET_SKI + 6 * tile + zone in st.legal_actions()
    assert st.game.action_to_str(E + ex.JET_SKI + 6 * tile + zone).startswith("jet ski on ")
    st.apply(E + ex.JET_SKI + 6 * tile + zone)
    assert st.ctx["jet_ski"] == body
    if st.todo[0][0] == "exec_window":
        st.apply(codec.DONE)
    dest = min(new)
    assert codec.travel(dest, 0) in st.legal_actions()


@pytest.mark.parametrize("kind", [ContactKind.CHOPPER, ContactKind.SEWER])
def test_chopper_and_sewer_widen_the_travel(kind: ContactKind) -> None:
    """Chopper (a helipad flight) and Sewer (a ride 2 tiles away) add to the turn's resources."""
    key = "flights" if kind == ContactKind.CHOPPER else "sewers"
    for seed in range(1, 6):
        st, seat = full_city(seed=seed)
        loc = widening(st, **{key: 1})
        if loc is not None:
            break
    else:
        pytest.skip(f"no position where a {key} resource widens the Travel")
    give_contact(st, seat, kind, 0)
    move_turn(st, seat, loc)
    st.apply(E + 0)
    assert st.ctx[key] == 1
    if st.todo[0][0] == "exec_window":
        st.apply(codec.DONE)
    layout = st.layout()
    new = set(reachable(layout, loc, 3, **{key: 1})) - set(reachable(layout, loc, 3))  # type: ignore[arg-type]
    assert codec.travel(min(new), 0) in st.legal_actions()


def test_gang_member_flies_in_the_travel_step() -> None:
    """"Use a Gang member": in the Travel step, a helipad flight; the member goes back to its gang."""
    for seed in range(1, 6):
        st, seat = full_city(seed=seed)
        loc = widening(st, flights=1)
        if loc is not None:
            break
    else:
        pytest.skip("no position where a flight widens the Travel")
    g, gang = give_gang(st, seat)
    move_turn(st, seat, loc)
    assert st.legal_actions() == [codec.DONE, E + ex.USE_GANG + g]
    st.apply(E + ex.USE_GANG + g)
    assert st.ctx["flights"] == 1 and st.gangs[gang] == 1 and st.boards[seat].gang_members == [gang]
    assert st.boards[seat].cubes_blue == 0  # the flight, not the notoriety ability


def test_travel_resource_not_offered_when_useless() -> None:
    """A Helicopter far from any helipad changes nothing: not offered."""
    st, seat = full_city()
    layout = st.layout()
    give_item(st, seat, Piece.FIXER, Fixer.HELICOPTER, 0)
    st.boards[seat].gas_cans = 0
    for loc in layout.locations:
        st.location[seat] = loc
        useful = reachable(layout, loc, 3, flights=1) != reachable(layout, loc, 3)
        assert (E + ex.USE_ITEM in ex.executive_options(st, seat, "travel")) == useful


def test_medevac_goes_straight_to_the_hospital() -> None:
    """Medevac: "Move directly to the Hospital. You may not move again this turn": no gas, no Travel
    decision; the officers of the start tile are avoided as after a flight; the Hospital is visited."""
    st, seat = position()
    clear_asset_spaces(st, seat)
    city = st.game.city
    loc = next(loc for loc in st.layout().locations if city.locations[loc].tile != city.hospital_tile)
    tile = city.locations[loc].tile
    st.officers[tile] = [True, False, True]
    give_contact(st, seat, ContactKind.MEDEVAC, 0)
    st.boards[seat].gas_cans = 1
    move_turn(st, seat, loc)
    st.boards[seat].gas_cans = 1
    board = st.boards[seat]
    green = board.green
    st.apply(E + 0)
    assert st.location[seat] == city.hospital
    assert ("travel", seat) not in st.todo and ("gas", seat) not in st.todo
    assert board.gas_cans == 1 and st.ctx["left"] == [tile] and st.ctx["dest"] == city.hospital
    # no avoid resource: the two officers of the start tile wound at once, then the Hospital's Visit
    assert board.green == green - 2
    travelled = [e for e in st.events if e.kind == "Travelled"][-1]
    assert travelled.dest == "hospital"  # type: ignore[attr-defined]


def test_medevac_not_offered_at_the_hospital() -> None:
    st, seat = position()
    give_contact(st, seat, ContactKind.MEDEVAC, 0)
    st.location[seat] = st.game.city.hospital
    st.ctx["mp"] = 3
    assert ex.executive_options(st, seat, "travel") == []


# --- police moves ---------------------------------------------------------------------------------------

def test_bribe_moves_an_officer_by_the_rules() -> None:
    """Bribe: any officer of its colour to any tile without that type, never the Hospital tile ("Moving
    Police Officers")."""
    st, seat = position()
    clear_asset_spaces(st, seat)
    city = st.game.city
    tiles = placed_tiles(st)
    others = [t for t in tiles if t != city.hospital_tile]
    for t in tiles:
        st.officers[t][0] = False
    source, taken = others[0], others[1]
    st.officers[source][0] = True
    st.officers[taken][0] = True
    give_contact(st, seat, ContactKind.BRIBE, 0, (0,))
    start_window(st, seat)
    st.apply(E + 0)
    assert st.legal_actions() == sorted([E + ex.POLICE_FROM + 3 * source, E + ex.POLICE_FROM + 3 * taken])
    st.apply(E + ex.POLICE_FROM + 3 * source)
    expected = [E + ex.POLICE_TO + t for t in tiles if t not in (source, taken, city.hospital_tile)]
    assert st.legal_actions() == expected
    dest = expected[0] - E - ex.POLICE_TO
    st.apply(expected[0])
    assert not st.officers[source][0] and st.officers[dest][0] and st.officers[taken][0]
    assert st.todo[0] == ("exec_window", seat, "start") or st.todo[0] == ("action", seat)


def test_police_shield_assets_move_their_colour() -> None:
    st, seat = position()
    clear_asset_spaces(st, seat)
    space = unlock(st, seat, Asset.MOVE_SWAT)
    tiles = [t for t in placed_tiles(st) if t != st.game.city.hospital_tile]
    for t in tiles:
        st.officers[t][2] = False
    assert ex.executive_options(st, seat, "start") == []  # no SWAT on the board
    st.officers[tiles[0]][2] = True
    start_window(st, seat)
    st.apply(E + ex.USE_ASSET + space)
    assert st.legal_actions() == [E + ex.POLICE_FROM + 3 * tiles[0] + 2]


def test_snitch_removes_an_officer_to_the_box() -> None:
    """Snitch: an officer of its colour leaves the board for the box (not the bag)."""
    st, seat = position()
    clear_asset_spaces(st, seat)
    give_contact(st, seat, ContactKind.SNITCH, 0, (1,))
    with_federal = [t for t in placed_tiles(st) if st.officers[t][1]]
    if not with_federal:
        st.officers[placed_tiles(st)[1]][1] = True
        with_federal = [placed_tiles(st)[1]]
    bag = list(st.bag)
    start_window(st, seat)
    st.apply(E + 0)
    assert st.legal_actions() == [E + ex.SNITCH + 3 * t + 1 for t in with_federal]
    st.apply(E + ex.SNITCH + 3 * with_federal[0] + 1)
    assert not st.officers[with_federal[0]][1] and st.bag == bag


# --- notation and random games --------------------------------------------------------------------------

def test_names_are_unique_and_parse_back() -> None:
    game = GAMES[3]
    seen = {}
    for k in range(codec.MAX_EXEC):
        name = game.action_to_str(E + k) if ex.executive_name(game, k) else None
        if name is not None:
            assert name not in seen
            seen[name] = k
            assert game.str_to_action(name) == E + k
    assert "first aid" in seen and "use contact space 1" in seen


def stock(st: EscapeState, rng: np.random.Generator) -> None:
    """Give every seat random contacts, equipment or fixers, unlocked assets, money and, where a placed
    gang is free, its two members: so random games use every kind of executive action."""
    content = st.game.content
    city = st.game.city
    free_gangs = [loc for loc in city.of_kind(GANG) if st.gangs.get(loc, 0) == 2
                  and city.locations[loc].tile in placed_tiles(st)]
    for seat in range(st.n):
        board = st.boards[seat]
        board.money = 25
        for s in (0, 1):
            board.contacts[s] = Slot(Piece.CONTACT, int(rng.integers(len(content.contacts))))
        for i in (0, 1):
            if rng.random() < 0.5:
                board.items[i] = Slot(Piece.EQUIPMENT, int(rng.integers(4)))
            else:
                board.items[i] = Slot(Piece.FIXER, int(rng.integers(8)))
        for asset in rng.permutation(pb.locked_assets(board))[:3]:
            pb.unlock_asset(board, content, Asset(int(asset)))
        if free_gangs:
            loc = free_gangs.pop()
            st.gangs[loc] = 0
            board.gang_members = [loc, loc]
            board.gang_controlled = [loc]
            board.gang_markers -= 1


# 4 and 5 players in the slow run (tests/test_escape_games.py plays random games at every count)
@pytest.mark.parametrize("players", [2, 3, pytest.param(4, marks=pytest.mark.slow),
                                     pytest.param(5, marks=pytest.mark.slow)])
def test_random_games_with_stocked_boards(players: int) -> None:
    """Seeded random games with every kind of component end without an error; officers never stand on
    the Hospital tile, gang members are all accounted for, money never goes negative."""
    game = GAMES[players]
    used = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        st = play_until(game.new_initial_state(), at_action, seed)
        stock(st, rng)
        hospital = game.city.hospital_tile
        for _ in range(3000):
            if st.is_terminal():
                break
            if st.current_player() != CHANCE and any(E <= a < E + codec.MAX_EXEC for a in st.legal_actions()):
                used += 1
            step(st, rng)
            assert not any(st.officers[hospital])
            held = sum(len(b.gang_members) for b in st.boards)
            assert st.gang_supply + sum(st.gangs.values()) + held == 8
            assert all(b.money >= 0 for b in st.boards)
        assert st.is_terminal()
    assert used > 100


# 4 and 5 players in the slow run (tests/test_escape_games.py plays random games at every count)
@pytest.mark.parametrize("players", [2, 3, pytest.param(4, marks=pytest.mark.slow),
                                     pytest.param(5, marks=pytest.mark.slow)])
def test_random_games_to_the_end(players: int) -> None:
    """Hundreds of plain seeded random games end without an error."""
    game = GAMES[players]
    for seed in range(100):
        st = play_until(game.new_initial_state(), lambda s: s.is_terminal(), seed)
        assert st.is_terminal() and st.day == 3
