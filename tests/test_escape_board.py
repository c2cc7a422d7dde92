"""One player's board in Escape Plan (solver/games/escape/board.py).

Every expectation is worked out by hand from the rulebook sections named in each test, on boards set
up here; the track and asset costs the tests depend on are written out in the test, not read from the
stand-in file, so a change of stand-in values does not hide a rule bug.
"""

from __future__ import annotations

import dataclasses

import pytest

from solver.core.errors import BadStateError, IllegalActionError
from solver.games.escape import board as eb
from solver.games.escape.board import (
    EMPTY,
    ContactOption,
    KeyTile,
    Piece,
    PlayerBoard,
    Slot,
    TakeChoice,
    WoundEffect,
)
from solver.games.escape.content import (
    Asset,
    Content,
    Equipment,
    Fixer,
    Locker,
    NotorietyTrack,
    PlanCard,
    load_content,
)

TRACK = NotorietyTrack(bottom=1, top=12, lines=(3, 6, 9),
                       penalty=(0, 0, -5, -10, -15, -20, -30, -40, -50, -60, -80, -100))
COSTS = (5, 4, 3, 2, 1, 0)


def content() -> Content:
    """The shipped content with this test's track and asset costs."""
    c = load_content()
    return dataclasses.replace(c, notoriety=TRACK, board=dataclasses.replace(c.board, asset_costs=COSTS))


def contact(card: int, up: bool = True) -> Slot:
    return Slot(Piece.CONTACT, card, 0, up)


def asset(kind: Asset) -> Slot:
    return Slot(Piece.ASSET, kind)


# --- set-up ------------------------------------------------------------------------------------------

def test_setup() -> None:
    c = content()
    b = PlayerBoard(c)
    assert b.money == 9 and b.income_cubes == 9 and eb.income(b) == 9
    assert (b.green, b.red, b.handcuffs) == (3, 0, 0)
    assert (b.cubes_bottom, b.cubes_red, b.cubes_blue) == (4, 0, 0)
    assert b.notoriety == 1 and not b.rested and b.first_aid_up
    assert b.unlocked[0] == asset(Asset.EXTRA_ACTION)  # Player Setup D: the $5k space
    assert b.contacts[2:] == [asset(Asset.AVOID_TILE), asset(Asset.MASTER_KEY), asset(Asset.HEAL)]
    assert b.contacts[:2] == [EMPTY, EMPTY]
    assert sorted(eb.locked_assets(b)) == sorted(set(Asset) - {Asset.EXTRA_ACTION})


# --- notoriety ("Notoriety", "Notoriety Special Cases") ----------------------------------------------

def test_gain_and_lose_move_cubes() -> None:
    b = PlayerBoard(content())
    assert eb.gain_notoriety(b) and (b.cubes_bottom, b.cubes_red, b.cubes_blue) == (3, 1, 0)
    assert eb.lose_notoriety(b) and (b.cubes_bottom, b.cubes_red, b.cubes_blue) == (2, 1, 1)


def test_gain_with_empty_bottom_takes_back_a_blue_cube() -> None:
    b = PlayerBoard(content())
    for _ in range(4):
        eb.lose_notoriety(b)
    assert (b.cubes_bottom, b.cubes_red, b.cubes_blue) == (0, 0, 4)
    assert eb.gain_notoriety(b)
    assert (b.cubes_bottom, b.cubes_red, b.cubes_blue) == (1, 0, 3)


def test_gain_with_no_bottom_and_no_blue_does_nothing() -> None:
    b = PlayerBoard(content())
    for _ in range(4):
        eb.gain_notoriety(b)
    assert not eb.gain_notoriety(b)
    assert (b.cubes_bottom, b.cubes_red, b.cubes_blue) == (0, 4, 0)


def test_lose_with_empty_bottom_takes_back_a_red_cube() -> None:
    b = PlayerBoard(content())
    for _ in range(4):
        eb.gain_notoriety(b)
    assert eb.lose_notoriety(b)
    assert (b.cubes_bottom, b.cubes_red, b.cubes_blue) == (1, 3, 0)


def test_lose_with_no_bottom_and_no_red_does_nothing() -> None:
    b = PlayerBoard(content())
    for _ in range(4):
        eb.lose_notoriety(b)
    assert not eb.lose_notoriety(b)
    assert (b.cubes_bottom, b.cubes_red, b.cubes_blue) == (0, 0, 4)


def settle_with(b: PlayerBoard, red: int, blue: int) -> eb.Settle:
    b.cubes_red, b.cubes_blue, b.cubes_bottom = red, blue, 4 - red - blue
    return eb.settle_notoriety(b, TRACK)


def test_settle_thresholds_up_and_down() -> None:
    b = PlayerBoard(content())
    # row 1 + 3 red = row 4: line 3 (index 0) crossed
    assert settle_with(b, 3, 0) == (1, 4, 0, (0,))
    assert (b.cubes_bottom, b.cubes_red, b.cubes_blue) == (4, 0, 0)
    # 4 -> 8 crosses line 6 only
    assert settle_with(b, 4, 0) == (4, 8, 0, (1,))
    # down to 4: no bonus on the way down
    assert settle_with(b, 0, 4) == (8, 4, 0, ())
    # up again over line 6: the bonus again
    assert settle_with(b, 3, 1) == (4, 6, 0, (1,))
    # 6 -> 6 with one red and one blue: nothing
    assert settle_with(b, 1, 1) == (6, 6, 0, ())


def test_settle_two_lines_at_once_and_the_bottom() -> None:
    b = PlayerBoard(content())
    b.notoriety = 2
    assert settle_with(b, 4, 0) == (2, 6, 0, (0, 1))
    b.notoriety = 2
    assert settle_with(b, 0, 3) == (2, 1, 0, ())  # never below the bottom row


def test_settle_over_the_top_gives_wounds() -> None:
    b = PlayerBoard(content())
    b.notoriety = 10
    # 10 + 4 = 14: two rows over the top (12), line 9 was already passed
    assert settle_with(b, 4, 0) == (10, 12, 2, ())
    assert b.notoriety == 12
    b.notoriety = 8
    assert settle_with(b, 4, 0) == (8, 12, 0, (2,))


def test_income_unlock_below_first_line() -> None:
    b = PlayerBoard(content())
    b.notoriety = 2
    assert eb.can_unlock_at_income(b, TRACK)
    b.notoriety = 3
    assert not eb.can_unlock_at_income(b, TRACK)


# --- wounds and handcuffs ("Step 2: Avoid") ----------------------------------------------------------

def test_wounds_then_handcuff_on_an_asset() -> None:
    b = PlayerBoard(content())
    for _ in range(3):
        assert eb.take_wound(b).effect == WoundEffect.GREEN_TO_RED
    assert (b.green, b.red) == (0, 3)
    w = eb.take_wound(b)
    assert w == (WoundEffect.HANDCUFF_ASSET, 4, asset(Asset.HEAL))
    assert (b.green, b.red, b.handcuffs) == (1, 2, 1)
    assert b.contacts[4] == EMPTY and Asset.HEAL not in eb.locked_assets(b)
    assert eb.take_wound(b).effect == WoundEffect.GREEN_TO_RED
    w = eb.take_wound(b)
    assert w == (WoundEffect.HANDCUFF_ASSET, 3, asset(Asset.MASTER_KEY))
    assert (b.green, b.red, b.handcuffs) == (1, 2, 2)


def test_handcuff_covers_a_contact_then_all_five_used() -> None:
    b = PlayerBoard(content())
    b.contacts = [contact(i) for i in range(5)]
    b.green, b.red = 0, 3
    w = eb.take_wound(b)
    assert w == (WoundEffect.HANDCUFF_CONTACT, 4, contact(4))
    assert b.contacts[4] == contact(4)  # covered, still there
    assert eb.contact_count(b) == 4
    b.handcuffs = 5
    b.green, b.red = 0, 3
    assert eb.take_wound(b).effect == WoundEffect.NO_SPACE
    assert (b.green, b.red, b.handcuffs) == (0, 3, 5)


def test_handcuff_on_an_empty_space() -> None:
    b = PlayerBoard(content())
    b.contacts = [contact(0), EMPTY, EMPTY, EMPTY, EMPTY]
    b.green, b.red = 0, 3
    assert eb.take_wound(b) == (WoundEffect.HANDCUFF_EMPTY, 4, EMPTY)


def test_heal_and_first_aid() -> None:
    b = PlayerBoard(content())
    b.green, b.red = 1, 2
    assert eb.heal(b, 3) == 2 and (b.green, b.red) == (3, 0)
    b.green, b.red = 2, 1
    assert eb.first_aid(b) == 1 and not b.first_aid_up and b.red == 0
    with pytest.raises(IllegalActionError):
        eb.first_aid(b)


# --- assets ("Asset Tiles") --------------------------------------------------------------------------

def test_unlock_order_and_the_seventh() -> None:
    c = content()
    b = PlayerBoard(c)
    assert eb.unlock_asset(b, c, Asset.MOVE_SWAT) == 1  # $4k, the dearest empty
    assert b.items[4] == EMPTY
    assert eb.unlock_asset(b, c, Asset.AVOID_TILE) == 2
    assert b.contacts[2:] == [EMPTY, asset(Asset.MASTER_KEY), asset(Asset.HEAL)]
    assert eb.unlock_asset(b, c, Asset.HEAL) == 3
    # the master key shifts right into the gap
    assert b.contacts == [EMPTY, EMPTY, EMPTY, EMPTY, asset(Asset.MASTER_KEY)]
    assert eb.unlock_asset(b, c, Asset.MOVE_FEDERAL) == 4
    assert eb.unlock_asset(b, c, Asset.MOVE_COUNTY) == 5
    assert eb.unlock_asset(b, c, Asset.MASTER_KEY) is None  # the 7th leaves the game
    assert eb.locked_assets(b) == [] and b.contacts == [EMPTY] * 5
    assert all(s.piece == Piece.ASSET for s in b.unlocked)
    assert Asset.MASTER_KEY not in {s.ident for s in b.unlocked}
    with pytest.raises(IllegalActionError):
        eb.unlock_asset(b, c, Asset.HEAL)


def test_unlock_goes_to_the_most_expensive_space_not_the_leftmost() -> None:
    c = load_content()
    c = dataclasses.replace(c, board=dataclasses.replace(c.board, asset_costs=(0, 5, 3, 5, 1, 2)))
    b = PlayerBoard(c)
    assert b.unlocked[1] == asset(Asset.EXTRA_ACTION)
    assert eb.unlock_asset(b, c, Asset.HEAL) == 3
    assert eb.unlock_asset(b, c, Asset.MOVE_SWAT) == 2
    assert eb.unlock_asset(b, c, Asset.MOVE_FEDERAL) == 5


def test_assets_do_not_shift_onto_a_handcuff() -> None:
    c = content()
    b = PlayerBoard(c)
    b.contacts[0] = contact(7)
    b.green, b.red = 0, 3
    eb.take_wound(b)  # handcuff on space 4, the heal asset discarded
    eb.unlock_asset(b, c, Asset.AVOID_TILE)
    assert b.contacts == [contact(7), EMPTY, EMPTY, asset(Asset.MASTER_KEY), EMPTY]


def test_use_asset_pays_and_flips() -> None:
    c = content()
    b = PlayerBoard(c)
    assert eb.use_asset(b, c, 0) == Asset.EXTRA_ACTION
    assert b.money == 9 - 5 and b.unlocked[0] == Slot(Piece.ASSET, Asset.EXTRA_ACTION, 0, False)
    with pytest.raises(IllegalActionError):
        eb.use_asset(b, c, 0)


# --- contacts ("Taking Contact Cards") ---------------------------------------------------------------

def test_contact_options() -> None:
    b = PlayerBoard(content())
    A = ContactOption(TakeChoice.DISCARD, -1)
    assert eb.contact_options(b) == [A, ContactOption(TakeChoice.PLACE, 0)]
    assert eb.place_contact(b, 11, ContactOption(TakeChoice.PLACE, 0)) is None
    assert b.cubes_red == 0
    B, C = TakeChoice.PLACE, TakeChoice.REPLACE
    assert eb.contact_options(b) == [A, ContactOption(B, 1), ContactOption(C, 0)]
    eb.place_contact(b, 12, ContactOption(TakeChoice.PLACE, 1))
    # the three assets fill spaces 2-4: no B, C on either card
    assert eb.contact_options(b) == [A, ContactOption(C, 0), ContactOption(C, 1)]
    with pytest.raises(IllegalActionError):
        eb.place_contact(b, 13, ContactOption(TakeChoice.PLACE, 2))
    replaced = eb.place_contact(b, 13, ContactOption(TakeChoice.REPLACE, 1))
    assert replaced == contact(12) and b.contacts[1] == contact(13)
    assert (b.cubes_bottom, b.cubes_red) == (3, 1)  # C gains 1 notoriety
    assert eb.place_contact(b, 14, A) is None and b.contacts[:2] == [contact(11), contact(13)]


def test_leftmost_empty_after_a_gap() -> None:
    b = PlayerBoard(content())
    b.contacts[1] = contact(3)  # space 0 empty, space 1 held
    assert ContactOption(TakeChoice.PLACE, 0) in eb.contact_options(b)
    b.contacts[0] = contact(4)
    b.contacts[1] = EMPTY
    assert ContactOption(TakeChoice.PLACE, 1) in eb.contact_options(b)


def test_covered_contact_cannot_be_replaced() -> None:
    b = PlayerBoard(content())
    b.contacts = [contact(i) for i in range(5)]
    b.handcuffs = 1
    assert ContactOption(TakeChoice.REPLACE, 4) not in eb.contact_options(b)
    assert ContactOption(TakeChoice.REPLACE, 3) in eb.contact_options(b)


def test_use_contact_pays_stars_and_flips() -> None:
    c = content()
    b = PlayerBoard(c)
    star = next(i for i, card in enumerate(c.contacts) if card.notoriety)
    b.contacts[0] = contact(star)
    eb.use_contact(b, c, 0)
    assert b.money == 9 - c.contacts[star].cost and b.cubes_red == 1 and not b.contacts[0].face_up
    with pytest.raises(IllegalActionError):
        eb.use_contact(b, c, 0)


# --- items ("The Fixer", "Convenience Stores", "Exits") ----------------------------------------------

def test_item_replacement_gains_notoriety() -> None:
    b = PlayerBoard(content())
    vest = Slot(Piece.EQUIPMENT, Equipment.VEST)
    safe = Slot(Piece.FIXER, Fixer.SAFE)
    assert eb.place_item(b, vest, 0) is None and b.cubes_red == 0
    assert eb.place_item(b, safe, 0) == vest and b.cubes_red == 1
    with pytest.raises(IllegalActionError):
        eb.place_item(b, vest, 2)  # a shield asset lies there
    assert eb.item_targets(b) == [0, 1]
    assert eb.item_targets(b, exit_tile=True) == [1]  # an empty space must be used first
    b.items[1] = vest
    assert eb.item_targets(b, exit_tile=True) == [0, 1]
    tile = Slot(Piece.EXIT, 0, 20, False)
    assert eb.place_item(b, tile, 1, exit_tile=True) == vest and b.cubes_red == 2


def test_rest() -> None:
    b = PlayerBoard(content())
    b.contacts[0] = contact(1, up=False)
    b.items[0] = Slot(Piece.EQUIPMENT, Equipment.HAT, 0, False)
    b.items[1] = Slot(Piece.FIXER, Fixer.SAFE, 0, False)
    b.first_aid_up = False
    eb.rest(b)
    assert b.rested and b.first_aid_up and b.contacts[0].face_up and b.items[0].face_up
    assert not b.items[1].face_up  # fixer tiles stay used
    with pytest.raises(IllegalActionError):
        eb.rest(b)


def test_income_cubes() -> None:
    b = PlayerBoard(content())
    for _ in range(3):
        eb.take_income_cube(b)
    assert eb.income(b) == 6  # "Vinnie has 6 cubes on the income spaces, so he receives $6k"
    assert eb.receive_income(b) == 6 and b.money == 15


def test_lockers_and_exits() -> None:
    c = content()
    b = PlayerBoard(c)
    need = c.lockers[Locker.GREEN].requirement
    b.contacts[0], b.contacts[1] = contact(0), contact(1, up=False)
    b.notoriety = need - 2
    assert not eb.can_open_locker(b, c, Locker.GREEN)  # no key
    b.keys[1] = KeyTile(Locker.GREEN)
    assert eb.locker_keys(b, Locker.GREEN) == [1] and eb.locker_keys(b, Locker.BLACK) == []
    assert eb.can_open_locker(b, c, Locker.GREEN)
    b.notoriety = need - 3
    assert not eb.can_open_locker(b, c, Locker.GREEN)
    b.unlocked[1] = asset(Asset.MASTER_KEY)
    assert eb.locker_keys(b, Locker.BROWN) == [-1]
    # two contacts: green 3, black 2, brown 1; exits 2
    assert [eb.locker_draws(b, c, colour) for colour in Locker] == [3, 2, 1]
    assert eb.exit_draws(b) == 2


# --- scoring ("Final Scoring") -----------------------------------------------------------------------

PLAN = PlanCard("T", ((None, 100, 50), (60, None, 90), (70, 80, None)))


def test_score_worked_example() -> None:
    c = content()
    b = PlayerBoard(c)
    b.money = 23
    b.businesses = [True, True, False, True, False, False]  # B1 income, B2 100, B4 60
    b.safe_houses = [False, True, False]  # SH2 80
    b.unlocked[0] = Slot(Piece.ASSET, Asset.EXTRA_ACTION, 0, False)  # used: +10
    b.unlocked[1] = asset(Asset.HEAL)  # unused: 0
    b.contacts = [contact(0), contact(1, up=False), contact(2), asset(Asset.MASTER_KEY), EMPTY]
    b.green, b.red = 2, 1  # -20
    b.items[0] = Slot(Piece.LOCKER, Locker.BROWN, 60, False)
    b.items[1] = Slot(Piece.EXIT, 1, 20, False)
    b.notoriety = 5  # row 5: -15
    s = eb.score(b, PLAN, c)
    assert (s.group1, s.group2, s.safe_houses) == (100, 60, 80)
    assert s.used_assets == 10 and s.contacts_kept == 3 and s.contacts == 30 and s.contacts_discarded == 0
    assert s.tiles == 80 and s.notoriety == -15 and s.wounds == -20 and s.money == 23
    assert s.total == 100 + 60 + 80 + 23 + 10 + 30 + 80 - 15 - 20 == 348


def test_score_handcuff_discards() -> None:
    c = content()
    b = PlayerBoard(c)
    b.money = 0
    # space 4 handcuffed empty (its asset was discarded), space 3 handcuff covers a card
    b.contacts = [contact(0), contact(1), contact(2), contact(3), EMPTY]
    b.handcuffs = 2
    s = eb.score(b, PLAN, c)
    # 3 uncovered cards; 2 handcuffs: the covered card is one discard, one uncovered card the other
    assert (s.contacts_kept, s.contacts_discarded, s.contacts) == (2, 1, 10)
    b.contacts = [contact(0), EMPTY, EMPTY, EMPTY, EMPTY]
    b.handcuffs = 3
    s = eb.score(b, PLAN, c)
    assert (s.contacts_kept, s.contacts_discarded, s.contacts) == (0, 1, 0)


def test_tie_break_order() -> None:
    c = content()
    a, b = PlayerBoard(c), PlayerBoard(c)
    base = eb.score(a, PLAN, c)._replace(total=200)
    a.money, b.money = 30, 20
    assert eb.tie_break_key(a, base) > eb.tie_break_key(b, base)  # more money behind the screen
    b.money = 30
    a.notoriety, b.notoriety = 4, 3
    assert eb.tie_break_key(b, base) > eb.tie_break_key(a, base)  # less notoriety
    a.notoriety = 3
    a.green, a.red, b.green, b.red = 1, 2, 2, 1
    assert eb.tie_break_key(b, base) > eb.tie_break_key(a, base)  # fewer wounds
    b.green, b.red = 1, 2
    assert eb.tie_break_key(a, base) == eb.tie_break_key(b, base)  # shared victory
    assert eb.tie_break_key(a, base._replace(total=201)) > eb.tie_break_key(b, base)


# --- JSON and copy -----------------------------------------------------------------------------------

def busy_board(c: Content) -> PlayerBoard:
    b = PlayerBoard(c)
    b.money, b.income_cubes, b.rested, b.first_aid_up = 31, 5, True, False
    b.green, b.red, b.handcuffs = 1, 2, 1
    b.cubes_bottom, b.cubes_red, b.cubes_blue = 1, 2, 1
    b.notoriety = 7
    b.items = [Slot(Piece.LOCKER, Locker.BLACK, c.lockers[Locker.BLACK].values[2], False),
               Slot(Piece.FIXER, Fixer.TELEPHONE), asset(Asset.MOVE_FEDERAL),
               Slot(Piece.EQUIPMENT, Equipment.GAS_MASK, 0, False),
               Slot(Piece.EXIT, 1, c.exit_tiles[1][0], False)]
    b.contacts = [contact(5), contact(31, up=False), asset(Asset.AVOID_TILE), EMPTY, contact(8)]
    b.unlocked = [Slot(Piece.ASSET, Asset.EXTRA_ACTION, 0, False), asset(Asset.HEAL), *[EMPTY] * 4]
    b.gas_cans = 2
    b.keys = [KeyTile(Locker.BROWN, False), None, KeyTile(Locker.GREEN)]
    b.extra_actions = 2
    b.gang_controlled, b.gang_members, b.gang_markers = [17], [17, 17], 1
    b.businesses = [True, False, True, False, False, True]
    b.safe_houses = [False, True, True]
    b.group_bonus = [False, False, True]
    return b


def test_json_round_trip() -> None:
    c = content()
    b = busy_board(c)
    data = b.to_json()
    assert data["contacts"][1] == "contact:31:down" and data["unlocked"][0] == "asset:extra_action:used"
    again = PlayerBoard.from_json(data, c)
    assert again == b and again.to_json() == data
    fresh = PlayerBoard(c)
    assert PlayerBoard.from_json(fresh.to_json(), c) == fresh


@pytest.mark.parametrize(("key", "value", "words"), [
    ("money", -1, "'money'"),
    ("green", 3, "'green' + 'red'"),
    ("cubes_red", 3, "add up to 4"),
    ("notoriety", 0, "'notoriety'"),
    ("items", ["wizard"] * 5, "items 0"),
    ("items", ["empty"] * 4, "'items' must list 5"),
    ("contacts", ["contact:999:up", "empty", "empty", "empty", "empty"], "contacts 0"),
    ("contacts", ["empty", "empty", "empty", "empty", "asset:heal"], "under a Handcuff"),
    ("unlocked", ["asset:move_federal", "empty", "empty", "empty", "empty", "empty"], "twice"),
    ("keys", ["pink:up", None, None], "key 0"),
    ("gang_members", [18], "gang member"),
    ("businesses", [True] * 5, "'businesses'"),
])
def test_bad_board_json(key: str, value: object, words: str) -> None:
    c = content()
    data = busy_board(c).to_json()
    data[key] = value
    with pytest.raises(BadStateError) as err:
        PlayerBoard.from_json(data, c)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_bad_board_json_keys() -> None:
    c = content()
    data = busy_board(c).to_json()
    del data["money"]
    with pytest.raises(BadStateError, match="missing 'money'"):
        PlayerBoard.from_json(data, c)
    data = busy_board(c).to_json()
    data["x"] = 1
    with pytest.raises(BadStateError, match="unknown key"):
        PlayerBoard.from_json(data, c)
    with pytest.raises(BadStateError):
        PlayerBoard.from_json([], c)


def test_copy_is_independent() -> None:
    c = content()
    b = busy_board(c)
    before = b.to_json()
    d = b.copy()
    assert d == b and d is not b
    eb.place_contact(d, 3, ContactOption(TakeChoice.PLACE, 3))
    eb.take_wound(d)
    d.keys[1] = KeyTile(Locker.BLACK)
    d.gang_members.pop()
    d.businesses[1] = True
    eb.unlock_asset(d, c, Asset.MOVE_FEDERAL)
    eb.gain_notoriety(d)
    assert b.to_json() == before and d != b
