"""Escape Plan's Visit step (solver/games/escape/visit.py) and the resample's hidden draws (rules.py).

Each test names the rulebook section it checks (``shared/rulebooks/escape-plan.txt``). Positions are the
first Action of day 1 reached by seeded random play, then set by hand on the state's fields; a visit is
queued as the turn queues it (``visit``, the end executive window, ``end_turn``) with a sentinel decision
after it. Expected values are worked out from the rules and the shipped content's printed numbers, never
read back from the code under test.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from solver.core import CHANCE, TERMINAL
from solver.games.escape import board as pb
from solver.games.escape import codec, tasks, turn, visit
from solver.games.escape.board import KeyTile, Piece, Slot
from solver.games.escape.content import Asset, Locker
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import AMOUNT_HEX, INCOME_HEX, EscapeState

GAMES = {n: EscapeGame(players=n) for n in (2, 3, 4, 5)}
CITY = GAMES[3].city
BUSINESSES = CITY.of_kind("business")
SAFE_HOUSES = CITY.of_kind("safe_house")
GANGS = CITY.of_kind("gang")
STORES = CITY.of_kind("store")
CLINIC = CITY.of_kind("clinic")[0]
CHURCH = CITY.of_kind("church")[0]
HOSPITAL = CITY.hospital
EXITS = CITY.of_kind("exit")
PLAN_1 = 0  # Plan 1: businesses (income, 100, 50), (income, 60, 90); safe houses (income, 120, 30)


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
    """Play randomly until ``done(st)``; fail when the game ends first."""
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if done(st):
            return st
        if st.is_terminal():
            break
        step(st, rng)
    raise AssertionError("the position was not reached")


@pytest.fixture
def quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    """No executive actions: the windows around a visit are skipped."""
    monkeypatch.setitem(turn.HOOKS, "executive_options", lambda st, seat, window: [])


def position(players: int = 3, seed: int = 0) -> tuple[EscapeState, int]:
    """The first Action of day 1 (every pawn at the Hospital) and the seat to act."""
    st = play_until(GAMES[players].new_initial_state(),
                    lambda s: not s.is_terminal() and s.todo[0][0] == "action", seed)
    return st, int(st.todo[0][1])


def visit_at(st: EscapeState, seat: int, location: int) -> int:
    """Put ``seat`` on ``location`` and queue its Visit as a turn does; returns the sentinel seat whose
    Night decision follows the turn."""
    st.location[seat] = location
    st.ctx = {"seat": seat}
    sentinel = next(p for p in range(st.n) if p != seat)
    st.todo = [("visit", seat, location), ("exec_window", seat, "end"), ("end_turn", seat),
               ("extra_action", sentinel)]
    tasks.run(st)
    return sentinel


def head(st: EscapeState) -> str:
    return str(st.todo[0][0])


def finished(st: EscapeState) -> bool:
    return head(st) == "extra_action"


def take_contact(st: EscapeState, how: int = codec.V_HOW) -> None:
    """Take the leftmost display card the ``how`` way and refill from the deck's first outcome."""
    assert head(st) == "v_pick"
    st.apply(st.legal_actions()[0])
    st.apply(how)
    if head(st) == "v_refill":
        st.apply(st.chance_outcomes()[0][0])


def business_at(st: EscapeState, number: int, index: int = 0) -> int:
    """A business Location carrying Business tile ``number``."""
    loc = BUSINESSES[index]
    st.business_at = {k: v for k, v in st.business_at.items() if v != number}
    st.business_at[loc] = number
    return loc


def safe_house_at(st: EscapeState, number: int) -> int:
    loc = SAFE_HOUSES[0]
    st.safe_house_at = {k: v for k, v in st.safe_house_at.items() if v != number}
    st.safe_house_at[loc] = number
    return loc


# --- Businesses ---------------------------------------------------------------------------------------

def test_business_amount_hex_notoriety_per_other_player_and_a_contact(quiet: None) -> None:
    """"Businesses" 1-3: a notoriety per other player, the cube to the amount hex (no money now), a
    contact."""
    st, seat = position(3)
    loc = business_at(st, 2)
    st.plan[seat] = PLAN_1  # business 2: $100k
    st.location[(seat + 1) % 3] = loc
    board = st.boards[seat]
    visit_at(st, seat, loc)
    assert board.income_cubes == 8 and board.money == 9 and board.cubes_red == 1
    assert st.cubes[1] == [[seat, AMOUNT_HEX]] and board.businesses[1]
    assert st.todo[0] == ("v_pick", seat)
    take_contact(st)
    assert finished(st)


def test_business_income_mark_pays_the_income_at_once(quiet: None) -> None:
    """"Businesses" 2b: the income hex, then income = the lowest visible number (8 after the cube)."""
    st, seat = position(3)
    loc = business_at(st, 1)
    st.plan[seat] = PLAN_1  # business 1: the income mark
    board = st.boards[seat]
    visit_at(st, seat, loc)
    assert st.cubes[0] == [[seat, INCOME_HEX]] and board.money == 9 + 8 and board.cubes_red == 0


def test_sandra_counts_as_another_player_in_two_player_games(quiet: None) -> None:
    """Our reading (visit.py): Sandra is a player at her Location for "each other player"."""
    st, seat = position(2)
    loc = business_at(st, 2)
    st.plan[seat] = PLAN_1
    st.location[2] = loc  # Sandra
    visit_at(st, seat, loc)
    assert st.boards[seat].cubes_red == 1


@pytest.mark.parametrize("players,closing", [(2, 2), (3, 2), (4, 3), (5, 3)])
def test_closing_by_player_count_and_keys(quiet: None, players: int, closing: int) -> None:
    """"Closing a Business": 2 visits with 1-3 players, 3 with 4-5 (Sandra not counted); then only a key
    gets in: any face-up key or the master key, flipped face down."""
    st, seat = position(players)
    loc = business_at(st, 3)
    st.cubes[2] = [[(seat + 1) % players, AMOUNT_HEX]] * (closing - 2)
    st.plan[seat] = PLAN_1
    assert not visit.business_closed(st, 3)
    visit_at(st, seat, loc)
    assert not visit.business_closed(st, 3)
    st.cubes[2].append([(seat + 1) % players, AMOUNT_HEX])
    assert visit.business_closed(st, 3)
    other = (seat + 1) % players
    board = st.boards[other]
    assert not visit.can_end_at(st, other, loc)
    board.keys[1] = KeyTile(Locker.BROWN, False)  # a used key opens nothing
    assert not visit.can_end_at(st, other, loc)
    board.keys[0] = KeyTile(Locker.GREEN)
    assert visit.can_end_at(st, other, loc)
    st.plan[other] = PLAN_1
    visit_at(st, other, loc)
    assert st.todo[0] == ("v_enter", other) + (loc,) and st.legal_actions() == [codec.V_ENTER]
    st.apply(codec.V_ENTER)
    assert board.keys[0] == KeyTile(Locker.GREEN, False) and len(st.cubes[2]) == closing + 1
    assert board.businesses[2]


def test_master_key_opens_a_closed_business_for_its_price(quiet: None) -> None:
    """"Closing a Business": the master key asset opens it; using an asset pays its space's price and flips
    it ("Use an Unlocked Asset tile")."""
    st, seat = position(3)
    loc = business_at(st, 5)  # Plan 1 shows $60k there: no income to count
    st.cubes[4] = [[9, AMOUNT_HEX], [9, AMOUNT_HEX]]
    board = st.boards[seat]
    assert not visit.can_end_at(st, seat, loc)
    space = pb.unlock_asset(board, st.game.content, Asset.MASTER_KEY)
    assert space == 1  # $5k holds the extra action: the next most expensive is $4k
    board.money = 3
    assert not visit.can_end_at(st, seat, loc)
    board.money = 9
    assert visit.can_end_at(st, seat, loc)
    st.plan[seat] = PLAN_1
    visit_at(st, seat, loc)
    assert st.legal_actions() == [codec.V_ENTER + visit.MASTER]
    st.apply(codec.V_ENTER + visit.MASTER)
    assert board.money == 5 and board.unlocked[1] == Slot(Piece.ASSET, Asset.MASTER_KEY, 0, False)


def test_each_business_and_safe_house_once(quiet: None) -> None:
    """"You can only visit each Business once" / each Safe House: not a Travel's end (our reading)."""
    st, seat = position(3)
    b, h = business_at(st, 5), safe_house_at(st, 2)
    assert visit.can_end_at(st, seat, b) and visit.can_end_at(st, seat, h)
    st.boards[seat].businesses[4] = True
    st.boards[seat].safe_houses[1] = True
    assert not visit.can_end_at(st, seat, b) and not visit.can_end_at(st, seat, h)
    assert visit.can_end_at(st, (seat + 1) % 3, b)


def _to_bonus(st: EscapeState) -> None:
    while head(st) not in ("v_bonus", "extra_action"):
        if st.current_player() == CHANCE:
            st.apply(st.chance_outcomes()[0][0])
        else:
            st.apply(st.legal_actions()[0])


def test_group_bonus_at_the_end_of_the_turn_once(quiet: None) -> None:
    """"Visiting all Businesses in a group": at the end of the turn completing it, an Extra Action disc or
    lose 1 notoriety + unlock; once per group."""
    st, seat = position(3)
    loc = business_at(st, 3)
    st.plan[seat] = PLAN_1
    board = st.boards[seat]
    board.businesses[0] = board.businesses[1] = True
    visit_at(st, seat, loc)
    assert [t[0] for t in st.todo[:5]] == ["v_pick", "exec_window", "v_bonus", "end_turn", "extra_action"]
    _to_bonus(st)
    assert st.legal_actions() == [codec.DONE, codec.BONUS_DISC, codec.BONUS_UNLOCK]
    st.apply(codec.BONUS_UNLOCK)
    assert board.cubes_blue == 1 and st.todo[0] == ("unlock", seat, "businesses 1-3 bonus")
    locked = len(pb.locked_assets(board))
    st.apply(codec.UNLOCK + Asset.HEAL)
    assert len(pb.locked_assets(board)) == locked - 1 and board.group_bonus[0]
    # the second group, already rewarded once (a bonus is never offered twice)
    st2, seat2 = position(3)
    loc2 = business_at(st2, 6)
    st2.plan[seat2] = PLAN_1
    b2 = st2.boards[seat2]
    b2.businesses[3] = b2.businesses[4] = True
    b2.group_bonus[1] = True
    visit_at(st2, seat2, loc2)
    assert all(t[0] != "v_bonus" for t in st2.todo)


def test_group_bonus_extra_action_disc(quiet: None) -> None:
    st, seat = position(3)
    loc = business_at(st, 6)
    st.plan[seat] = PLAN_1
    board = st.boards[seat]
    board.businesses[3] = board.businesses[4] = True
    visit_at(st, seat, loc)
    _to_bonus(st)
    st.apply(codec.BONUS_DISC)
    assert board.extra_actions == 1 and finished(st)


# --- Safe Houses and the Fixer ------------------------------------------------------------------------

def test_safe_house_steps_key_and_fixer(quiet: None) -> None:
    """"Safe Houses" 1-5: the cube, lose 1 notoriety, a key into the slot of the house's number, a Fixer
    tile bought (price; replacing a non-asset tile gains 1 notoriety)."""
    st, seat = position(3)
    loc = safe_house_at(st, 2)
    st.plan[seat] = PLAN_1  # safe house 2: $120k
    st.keys[1] = [Locker.GREEN, Locker.BROWN, Locker.BROWN]
    board = st.boards[seat]
    board.items[0] = Slot(Piece.EQUIPMENT, 0)
    visit_at(st, seat, loc)
    assert st.cubes[7] == [[seat, AMOUNT_HEX]] and board.safe_houses[1] and board.cubes_blue == 1
    assert st.legal_actions() == [codec.V_KEY + Locker.GREEN, codec.V_KEY + Locker.BROWN]
    st.apply(codec.V_KEY + Locker.BROWN)
    assert board.keys == [None, KeyTile(Locker.BROWN), None] and sorted(st.keys[1]) == [0, 2]
    assert head(st) == "v_fixer"
    costs = st.game.content.fixer_costs
    id_card = 3
    legal = st.legal_actions()
    expected = {codec.V_FIXER + f * codec.MAX_ITEMS + i for f in range(8) for i in (0, 1)}
    assert set(legal) == expected | {codec.DONE}
    st.apply(codec.V_FIXER + id_card * codec.MAX_ITEMS + 0)
    assert board.money == 9 - costs[id_card] == 5 and board.items[0] == Slot(Piece.FIXER, id_card)
    assert board.cubes_blue == 1 and board.cubes_red == 1  # the safe house's -1, the replacement's +1
    assert id_card not in st.fixers_left and finished(st)


def test_fixer_price_is_checked(quiet: None) -> None:
    st, seat = position(3)
    loc = safe_house_at(st, 3)
    st.plan[seat] = PLAN_1  # safe house 3: $30k
    st.keys[2] = []
    board = st.boards[seat]
    board.money = 1
    visit_at(st, seat, loc)
    legal = st.legal_actions()
    offered = {(a - codec.V_FIXER) // codec.MAX_ITEMS for a in legal if a != codec.DONE}
    assert offered == {0, 4}  # helicopter and first aid kit cost $1k


def test_all_safe_houses_bonus_income_and_unlock(quiet: None) -> None:
    """"Visiting all Safe Houses": a disc, or income + unlock."""
    st, seat = position(3)
    loc = safe_house_at(st, 3)
    st.plan[seat] = PLAN_1
    st.keys[2] = []
    board = st.boards[seat]
    board.safe_houses[0] = board.safe_houses[1] = True
    board.income_cubes = 7
    board.money = 0
    visit_at(st, seat, loc)
    _to_bonus(st)
    assert st.todo[0] == ("v_bonus", seat, 2)
    st.apply(codec.BONUS_UNLOCK)
    assert board.money == 6 and st.todo[0][0] == "unlock"


# --- Gangs --------------------------------------------------------------------------------------------

def test_gang_rules(quiet: None) -> None:
    """"Gangs": only with no other player and no marker there and $5k; pay, take both members, a marker."""
    st, seat = position(3)
    loc = GANGS[1]
    st.gangs[loc] = 2
    other = (seat + 1) % 3
    board = st.boards[seat]
    assert visit.can_end_at(st, seat, loc)
    st.location[other] = loc
    assert not visit.can_end_at(st, seat, loc)
    st.location[other] = HOSPITAL
    board.money = 4
    assert not visit.can_end_at(st, seat, loc)
    board.money = 9
    visit_at(st, seat, loc)
    assert finished(st) and board.money == 4 and board.gang_members == [loc, loc]
    assert board.gang_controlled == [loc] and board.gang_markers == 1 and st.gangs[loc] == 0
    assert not visit.can_end_at(st, other, loc)  # a marker is there
    st.location[seat] = HOSPITAL
    assert not visit.can_end_at(st, seat, loc)


def test_gang_in_two_player_games_not_where_sandra_stands(quiet: None) -> None:
    st, seat = position(2)
    loc = GANGS[2]
    st.location[2] = loc
    assert not visit.can_end_at(st, seat, loc)


# --- Convenience Stores and Lockers -------------------------------------------------------------------

def test_store_gas_can_and_two_different_equipment(quiet: None) -> None:
    """"Convenience Stores" 2-3: a gas can (supply, up to 2 held); up to 2 different pieces of equipment,
    paid, a replaced tile gains 1 notoriety."""
    st, seat = position(3)
    board = st.boards[seat]
    board.items[1] = Slot(Piece.FIXER, 1)
    visit_at(st, seat, STORES[0])
    assert st.legal_actions() == [codec.DONE, codec.TAKE_GAS]
    st.apply(codec.TAKE_GAS)
    assert board.gas_cans == 1 and st.gas_supply == 5
    vest, gas_mask = 0, 3
    assert codec.V_EQUIP + vest * codec.MAX_ITEMS + 0 in st.legal_actions()
    st.apply(codec.V_EQUIP + vest * codec.MAX_ITEMS + 0)
    assert board.money == 7 and board.items[0] == Slot(Piece.EQUIPMENT, vest) and board.cubes_red == 0
    legal = st.legal_actions()
    assert all((a - codec.V_EQUIP) // codec.MAX_ITEMS != vest for a in legal if a != codec.DONE)
    st.apply(codec.V_EQUIP + gas_mask * codec.MAX_ITEMS + 1)
    assert board.money == 4 and board.items[1] == Slot(Piece.EQUIPMENT, gas_mask) and board.cubes_red == 1
    assert st.equipment_left == [3, 4, 4, 3]
    assert finished(st)  # no key: no locker


def test_gas_cans_only_with_room_and_supply(quiet: None) -> None:
    st, seat = position(3)
    st.boards[seat].gas_cans = 2
    visit_at(st, seat, STORES[1])
    assert codec.TAKE_GAS not in st.legal_actions()
    st2, seat2 = position(3)
    st2.gas_supply = 0
    visit_at(st2, seat2, STORES[1])
    assert codec.TAKE_GAS not in st2.legal_actions()


def _contacts(board: pb.PlayerBoard, count: int) -> None:
    for i in range(count):
        board.contacts[i] = Slot(Piece.CONTACT, 0)


def test_locker_requirement_key_and_draw_count(quiet: None) -> None:
    """"Lockers": a key of the colour (or the master key) and notoriety row + contact cards >= the locker's
    number (green 3, black 5, brown 7 in the stand-in content); draws: contacts +1 / +0 / -1."""
    st, seat = position(3)
    board = st.boards[seat]
    board.money = 0  # nothing to buy
    board.keys = [KeyTile(Locker.GREEN), KeyTile(Locker.BLACK), None]
    board.notoriety = 1
    _contacts(board, 1)  # 1 + 1 = 2 < 3
    visit_at(st, seat, STORES[0])
    if head(st) == "v_gas":
        st.apply(codec.DONE)
    assert finished(st)
    st, seat = position(3)
    board = st.boards[seat]
    board.money = 0
    board.keys = [KeyTile(Locker.GREEN), KeyTile(Locker.BLACK), None]
    board.notoriety = 3
    _contacts(board, 2)  # 3 + 2 = 5: green and black
    visit_at(st, seat, STORES[0])
    st.apply(codec.DONE)  # no gas can
    assert st.legal_actions() == [codec.DONE, codec.V_LOCKER + 0 * 4 + 0, codec.V_LOCKER + 1 * 4 + 1]
    st.apply(codec.V_LOCKER + 0 * 4 + 0)
    assert board.keys[0] == KeyTile(Locker.GREEN, False)
    drawn = [e for e in st.events if e.kind == "TilesDrawn"][-1]
    assert drawn.count == 3 and drawn.stack == "green locker"  # type: ignore[attr-defined]
    assert head(st) == "v_draw" and st.current_player() == CHANCE
    outcomes = dict(st.chance_outcomes())
    assert outcomes == {codec.TILE_VALUE + v: 0.2 for v in (0, 10, 20, 30, 40)}


def test_locker_draws_are_hidden_and_the_kept_tile_is_face_down(quiet: None) -> None:
    """"Lockers" 2-4: drawn secretly, one kept face down on an Item space (others see no value), the rest
    back in the stack."""
    st, seat = position(3)
    board = st.boards[seat]
    board.money = 0
    board.keys = [KeyTile(Locker.GREEN), None, None]
    board.notoriety = 3
    st.lockers[0] = [0, 10, 20, 30, 40]
    visit_at(st, seat, STORES[0])
    st.apply(codec.DONE)
    st.apply(codec.V_LOCKER)
    st.apply(codec.TILE_VALUE + 30)
    assert st.lockers[0] == [0, 10, 20, 40] and st.legal_actions() == [codec.keep(30, 0), codec.keep(30, 1)]
    st.apply(codec.keep(30, 1))
    assert board.items[1] == Slot(Piece.LOCKER, Locker.GREEN, 30, False) and st.lockers[0] == [0, 10, 20, 40]
    other = (seat + 1) % 3
    mine, theirs = st.view(seat).to_json(), st.view(other).to_json()
    assert [e[1] for e in mine["history"][-2:]] == ["value 30", "keep 30 on item 2"]
    assert [e[1] for e in theirs["history"][-2:]] == ["value ?", "keep ? on item 2"]
    assert theirs["boards"][seat]["items"][1] == "locker:green:?"
    assert "locker:green:30" not in json.dumps(theirs)
    kept = [e for e in theirs["history"][-1][2] if e["kind"] == "TileKept"]
    assert kept == [{"kind": "TileKept", "seat": seat, "stack": "green locker", "space": 2, "value": None}]


def test_locker_draw_count_capped_by_the_stack(quiet: None) -> None:
    st, seat = position(3)
    board = st.boards[seat]
    board.money = 0
    board.keys = [KeyTile(Locker.GREEN), None, None]
    _contacts(board, 4)  # 5 draws
    st.lockers[0] = [0, 10]
    visit_at(st, seat, STORES[0])
    st.apply(codec.DONE)
    st.apply(codec.V_LOCKER)
    assert [t[0] for t in st.todo[:3]] == ["v_draw", "v_draw", "v_keep"]


# --- Clinic, Church, Hospital -------------------------------------------------------------------------

def test_clinic(quiet: None) -> None:
    """"Clinic": others' notoriety, may unlock, may heal 1, a contact."""
    st, seat = position(3)
    board = st.boards[seat]
    board.green, board.red = 1, 2
    visit_at(st, seat, CLINIC)
    assert codec.DONE in st.legal_actions() and codec.UNLOCK + Asset.HEAL in st.legal_actions()
    st.apply(codec.UNLOCK + Asset.MASTER_KEY)
    assert st.legal_actions() == [codec.DONE, codec.CLINIC_HEAL]
    st.apply(codec.CLINIC_HEAL)
    assert (board.green, board.red) == (2, 1) and head(st) == "v_pick"


def test_church_pays_one_k_to_lose_notoriety(quiet: None) -> None:
    """"Church" 2: "$1" is $1k (prices are in $k)."""
    st, seat = position(3)
    board = st.boards[seat]
    visit_at(st, seat, CHURCH)
    assert st.legal_actions() == [codec.DONE, codec.CHURCH_PAY]
    st.apply(codec.CHURCH_PAY)
    assert board.money == 8 and board.cubes_blue == 1 and head(st) == "v_unlock"
    st.apply(codec.DONE)
    assert head(st) == "v_pick"
    st2, seat2 = position(3)
    st2.boards[seat2].money = 0
    visit_at(st2, seat2, CHURCH)
    assert head(st2) == "v_unlock"


@pytest.mark.parametrize("red,money,heals", [(0, 9, [0]), (1, 9, [0, 1]), (3, 9, [0, 1, 2, 3]),
                                             (3, 5, [0, 1, 2]), (3, 0, [0]), (2, 6, [0, 1, 2])])
def test_hospital_prices(quiet: None, red: int, money: int, heals: list[int]) -> None:
    """"Hospital": $1k/$3k/$6k heal 1/2/3 (no more than the red wounds), then +1 notoriety, not per other
    player."""
    st, seat = position(3)
    board = st.boards[seat]
    board.green, board.red, board.money = 3 - red, red, money
    visit_at(st, seat, HOSPITAL)  # the other players stand at the Hospital too
    assert st.legal_actions() == [codec.V_HOSPITAL + k for k in heals]
    k = heals[-1]
    st.apply(codec.V_HOSPITAL + k)
    assert board.red == red - k and board.money == money - (0, 1, 3, 6)[k]
    assert board.cubes_red == 1 and finished(st)


# --- Exits --------------------------------------------------------------------------------------------

def test_open_exit_may_receive_income_then_a_contact(quiet: None) -> None:
    st, seat = position(3)
    board = st.boards[seat]
    board.income_cubes = 5
    st.patrol_on = [0, 1, 0]
    visit_at(st, seat, EXITS[1])
    assert st.legal_actions() == [codec.DONE, codec.EXIT_INCOME]
    st.apply(codec.EXIT_INCOME)
    assert board.money == 14 and head(st) == "v_pick"


def test_closed_exit_income_or_an_exit_tile(quiet: None) -> None:
    """"Exits" 3: income OR an Exit tile: as many drawn as contact cards, kept on an empty Item space while
    there is one."""
    st, seat = position(3)
    board = st.boards[seat]
    st.patrol_on = [2, 0, 0]
    st.exit_stack_at = {1: 0}
    st.exit_pending = []
    visit_at(st, seat, EXITS[0])
    assert st.legal_actions() == [codec.DONE, codec.EXIT_INCOME]  # no contact card: no tile to draw
    st, seat = position(3)
    board = st.boards[seat]
    st.patrol_on = [2, 0, 0]
    st.exit_stack_at = {1: 0}
    st.exit_pending = []
    _contacts(board, 2)
    board.items[0] = Slot(Piece.EQUIPMENT, 1)
    visit_at(st, seat, EXITS[0])
    assert st.legal_actions() == [codec.DONE, codec.EXIT_INCOME, codec.EXIT_TILE]
    st.apply(codec.EXIT_TILE)
    assert [t[0] for t in st.todo[:3]] == ["v_draw", "v_draw", "v_keep"]
    st.apply(codec.TILE_VALUE + 40)
    st.apply(codec.TILE_VALUE + 0)
    assert st.legal_actions() == [codec.keep(0, 1), codec.keep(40, 1)]  # the empty space only
    st.apply(codec.keep(40, 1))
    assert board.items[1] == Slot(Piece.EXIT, 0, 40, False) and sorted(st.exit_stacks[0]) == [0, 10, 20, 30]
    assert head(st) == "v_pick"


# --- Taking Contact Cards -----------------------------------------------------------------------------

def test_contact_options_a_b_c(quiet: None) -> None:
    """"Taking Contact Cards": A to the box, B the leftmost empty space, C replacing a card (+1 notoriety)."""
    st, seat = position(3)
    board = st.boards[seat]
    board.contacts[0] = Slot(Piece.CONTACT, 0)
    visit.take_contact(st, seat)
    st.ctx = {"seat": seat}
    tasks.run(st)
    card = st.display[3]
    st.apply(codec.V_PICK + 3 * codec.MAX_CARDS + card)
    assert st.legal_actions() == [codec.V_HOW, codec.V_HOW + 2, codec.V_HOW + 1 + codec.CONTACT_SPACES]
    st.apply(codec.V_HOW + 1 + codec.CONTACT_SPACES)
    assert board.contacts[0] == Slot(Piece.CONTACT, card) and board.cubes_red == 1


@pytest.mark.parametrize("players", [2, 3])
def test_display_refill_fills_the_gap_or_slides_in_two_player_games(quiet: None, players: int) -> None:
    """3-5 players: the new card fills the gap; 2 players: the cards slide right, the new card leftmost
    ("Only 2 Player")."""
    st, seat = position(players)
    before = list(st.display)
    visit.take_contact(st, seat)
    tasks.run(st)
    st.apply(codec.V_PICK + 2 * codec.MAX_CARDS + before[2])
    st.apply(codec.V_HOW)
    new = st.chance_outcomes()[-1][0] - codec.CONTACT
    deck = sum(st.contacts_left)
    st.apply(codec.CONTACT + new)
    rest = before[:2] + before[3:]
    assert st.display == ([new] + rest if players == 2 else before[:2] + [new] + before[3:])
    assert sum(st.contacts_left) == deck - 1


def test_empty_deck_draws_nothing(quiet: None) -> None:
    st, seat = position(3)
    st.contacts_left = [0] * len(st.contacts_left)
    visit.take_contact(st, seat)
    tasks.run(st)
    st.apply(st.legal_actions()[0])
    st.apply(codec.V_HOW)
    assert len(st.display) == 6 and head(st) == "action"


# --- Notation -----------------------------------------------------------------------------------------

def test_visit_notation_round_trips() -> None:
    game = GAMES[3]
    names = {codec.keep(30, 1): "keep 30 on item 2", codec.TAKE_GAS: "take gas can",
             codec.V_LOCKER + 4 + 3: "open black locker with master key",
             codec.V_HOSPITAL + 2: "hospital heal 2",
             codec.V_EQUIP + 3 * codec.MAX_ITEMS: "buy gas mask on item 1",
             codec.V_HOW + 1 + codec.CONTACT_SPACES: "contact replaces space 1"}
    for action, text in names.items():
        assert game.action_to_str(action) == text and game.str_to_action(text) == action
    assert codec.keep_masked(1) == "keep ? on item 2"


# --- random games, views, the resample ----------------------------------------------------------------

# 4 and 5 players in the slow run (tests/test_escape_games.py plays random games at every count)
@pytest.mark.parametrize("players", [2, 3, pytest.param(4, marks=pytest.mark.slow),
                                     pytest.param(5, marks=pytest.mark.slow)])
def test_random_games_to_the_end(players: int) -> None:
    """Hundreds of random games with every Visit end after day 3 without an error; every visit rule's
    bookkeeping stays sound (9 cubes at most per seat, keys and gang members conserved)."""
    game = GAMES[players]
    kinds: Counter[str] = Counter()
    for seed in range(100):
        st = play_until(game.new_initial_state(), lambda s: s.is_terminal(), seed)
        assert st.current_player() == TERMINAL and st.over
        for s in range(players):
            board = st.boards[s]
            placed = sum(1 for site in st.cubes for c in site if c[0] == s)
            assert placed == 9 - board.income_cubes == sum(board.businesses) + sum(board.safe_houses)
        keys = sum(len(k) for k in st.keys) + sum(1 for b in st.boards for k in b.keys if k is not None)
        assert keys + sum(1 for e in st.events if e.kind == "KeyDiscarded") == 9  # Sandra's discards
        kinds.update(e.kind for e in st.events)
    assert kinds["CubePlaced"] and kinds["ContactTaken"]


def test_views_hide_plan_cards_and_tiles_until_the_end() -> None:
    """A seat's view shows no other plan card or tile value while playing; all once the game is over
    (Escape Plan Cards: "revealed only at the end of the game")."""
    game = GAMES[3]
    for seed in range(40):
        st = play_until(game.new_initial_state(), lambda s: s.is_terminal(), seed)
        for s in range(3):
            data = st.view(s).to_json()
            assert data["plans"] == [game.content.plans[p].name for p in st.plan]
        hidden_keep = [i for i, r in enumerate(st.records) if r[3].startswith("keep ?")]
        if hidden_keep:
            i = hidden_keep[0]
            owner = st.records[i][2]
            assert owner is not None
            (drawer,) = tuple(owner)
            replay = game.new_initial_state()
            for a in st.history[:i + 1]:
                replay.apply(a)
            other = (drawer + 1) % 3
            data = replay.view(other).to_json()
            assert data["plans"] is None and data["plan"] == game.content.plans[replay.plan[other]].name
            texts = [e[1] for e in data["history"]]
            assert texts.count("plan ?") == 2 and texts[-1].startswith("keep ? on item")
            for slot in data["boards"][drawer]["items"]:
                assert slot.count(":") <= 2 or not slot.startswith(("locker", "exit"))
            return
    raise AssertionError("no seeded game kept a locker or exit tile")


def _consistent_cards(st: EscapeState, seat: int, own: int) -> set[int]:
    """Plan cards (not ``own``) whose marks agree with the cubes ``seat`` placed: worked out from the
    content's cards, not from the resampler."""
    out = set()
    for c, card in enumerate(st.game.content.plans):
        if c == own:
            continue
        entries = [card.business(b) for b in range(1, 7)] + [card.safe_house(h) for h in range(1, 4)]
        if all((entries[site] is None) == (hx == INCOME_HEX)
               for site, cubes in enumerate(st.cubes) for pawn, hx in cubes if pawn == seat):
            out.add(c)
    return out


def test_resample_plans_agree_with_the_income_marks_shown() -> None:
    """The resample's plan cards show the same income marks as the cubes the seats placed; every
    consistent card appears; the joint deal has distinct cards."""
    game = GAMES[4]
    st = play_until(game.new_initial_state(), lambda s: s.day == 3 and s.part == 0, 4)
    assert any(c[0] == 1 for site in st.cubes for c in site)
    view = st.view(0)
    rng = np.random.default_rng(0)
    own = st.plan[0]
    consistent = {s: _consistent_cards(st, s, own) for s in (1, 2, 3)}
    assert st.plan[1] in consistent[1] and len(consistent[1]) < 8  # the marks told seat 0 something
    seen: dict[int, Counter[int]] = {s: Counter() for s in (1, 2, 3)}
    for _ in range(150):
        drawn = game.resample(view, rng)
        assert isinstance(drawn, EscapeState) and drawn.view(0).to_json() == view.to_json()
        assert drawn.plan[0] == own and len(set(drawn.plan)) == 4
        for s in (1, 2, 3):
            assert drawn.plan[s] in consistent[s]
            seen[s][drawn.plan[s]] += 1
    smallest = min((1, 2, 3), key=lambda s: len(consistent[s]))
    assert set(seen[smallest]) == consistent[smallest]


def _small_lockers(tmp_path: Path) -> str:
    """A content file whose green locker has requirement 0 and tiles $0 and $10 only."""
    from solver.core import files

    data = files.read_shipped("solver.games.escape", "data/content.json")
    data["lockers"]["green"] = {"requirement": 0, "draw": 1, "values": [0, 10]}
    path = tmp_path / "content.json"
    path.write_text(json.dumps(data))
    return str(path)


def _eager(st: EscapeState, rng: np.random.Generator) -> None:
    """A policy that unlocks the master key, heads for stores and opens the green locker; never spends
    money on anything else."""
    if st.current_player() == CHANCE:
        step(st, rng)
        return
    legal = st.legal_actions()
    green = [a for a in legal if codec.V_LOCKER <= a < codec.V_LOCKER + 4]
    stores = [a for a in legal if codec.TRAVEL <= a < codec.ESCAPE
              and (a - codec.TRAVEL) // codec.MAX_ROUTES in STORES]
    for wanted in (green, [a for a in legal if a >= codec.V_KEEP],
                   [codec.UNLOCK + Asset.MASTER_KEY] if codec.UNLOCK + Asset.MASTER_KEY in legal else [],
                   stores):
        if wanted:
            st.apply(wanted[int(rng.integers(len(wanted)))])
            return
    cheap = [a for a in legal if not (codec.EXEC <= a < codec.START)
             and not (codec.V_EQUIP <= a < codec.V_PICK)
             and a != codec.CHURCH_PAY and not (codec.V_HOSPITAL < a < codec.V_KEY)]
    options = cheap or legal
    st.apply(options[int(rng.integers(len(options)))])


def test_resample_hidden_locker_draws_are_exact(tmp_path: Path) -> None:
    """Another seat's kept locker tile: uniform over the stack before the seat draws from it (both values
    appear), and exactly the tile the seat's own later draw left out after it."""
    game = EscapeGame(players=3, content=_small_lockers(tmp_path))
    found_before = found_after = False
    for seed in range(60):
        rng = np.random.default_rng(seed)
        st = game.new_initial_state()
        keeps: list[tuple[int, int]] = []  # (history index, seat) of green keeps
        while not st.is_terminal() and not found_after:
            if st.todo[0][0] == "v_keep" and st.todo[0][2] == "locker" and st.todo[0][3] == 0:
                keeps.append((len(st.history), int(st.todo[0][1])))
            _eager(st, rng)
            if len(keeps) == 1 and not found_before and st.todo and st.todo[0][0] == "action":
                found_before = _check_uniform(game, st, keeps[0][1])
            if len(keeps) == 2 and keeps[1][1] != keeps[0][1] and st.todo and st.todo[0][0] == "action":
                found_after = _check_forced(game, st, keeps)
        if found_before and found_after:
            return
    raise AssertionError(f"positions not reached: before {found_before}, after {found_after}")


def _kept_green(st: EscapeState, seat: int) -> list[int]:
    return [s.value for s in st.boards[seat].items if s.piece == Piece.LOCKER and s.ident == Locker.GREEN]


def _check_uniform(game: EscapeGame, st: EscapeState, drawer: int) -> bool:
    viewer = (drawer + 1) % 3
    view = st.view(viewer)
    rng = np.random.default_rng(1)
    values: Counter[int] = Counter()
    for _ in range(60):
        drawn = game.resample(view, rng)
        assert drawn.view(viewer).to_json() == view.to_json()
        values.update(_kept_green(drawn, drawer))
    assert set(values) == {0, 10} and min(values.values()) >= 15
    return True


def _check_forced(game: EscapeGame, st: EscapeState, keeps: list[tuple[int, int]]) -> bool:
    """The second keeper saw the tile the first left in the stack: the first's is the other one."""
    (first_i, first), (_, second) = keeps
    if _kept_green(st, first) == [] or st.lockers[0]:
        return False  # replaced since, or not every tile drawn
    truth = _kept_green(st, first)
    view = st.view(second)
    rng = np.random.default_rng(2)
    for _ in range(20):
        drawn = game.resample(view, rng)
        assert _kept_green(drawn, first) == truth
    return True
