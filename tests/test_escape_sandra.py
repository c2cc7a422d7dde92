"""Sandra the Police Inspector (solver/games/escape/sandra.py): 2-player games' game-controlled third pawn.

Each test names the rulebook section it checks (``shared/rulebooks/escape-plan.txt``: "Only 2 Player",
"Sandra's Turn", "Sandra's Cards", "Adjusting Sandra's Notoriety"). Positions are the first Action of day
1 of a 2-player game reached by seeded random play, then set by hand; Sandra's turn is queued as the
turn queues it with a sentinel decision after it. Expected values are worked out from the rules and the
shipped content's printed numbers, never read back from the code under test.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest

from solver.core import CHANCE, TERMINAL
from solver.games.escape import codec, sandra, tasks
from solver.games.escape.board import Piece
from solver.games.escape.content import ContactKind
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import AMOUNT_HEX, RED_HEX, EscapeState
from tests.test_escape_visit import play_until, step

GAME = EscapeGame(players=2)
CITY = GAME.city
CONTENT = GAME.content
SANDRA = 2  # her pawn: seats 0 and 1, then Sandra ("2-Player Setup")
CARDS = {f"{kind} {label}": i for i, (kind, label) in enumerate(CONTENT.inspector)}
BUSINESSES = CITY.of_kind("business")
SAFE_HOUSES = CITY.of_kind("safe_house")
FIXER_CONTACT = next(i for i, c in enumerate(CONTENT.contacts) if c.kind == ContactKind.FIXER)
PLAIN_CONTACT = next(i for i, c in enumerate(CONTENT.contacts) if not c.extra_action)
LOCKER_SIZES = [len(s.values) for s in CONTENT.lockers]


def position(seed: int = 0) -> EscapeState:
    """The first Action of day 1 of a 2-player game (Sandra took her first turn already: day 1's order
    is reversed, so she goes first)."""
    st = play_until(GAME.new_initial_state(), lambda s: not s.is_terminal() and s.todo[0][0] == "action",
                    seed)
    board = st.boards[SANDRA]  # her first turn's cubes wait for the Morning's update: clear them
    board.cubes_red = board.cubes_blue = board.extra_actions = 0
    board.cubes_bottom = CONTENT.board.notoriety_cubes
    return st


def queue(st: EscapeState, *queued: tuple[object, ...]) -> None:
    """Queue ``queued`` then a sentinel decision (seat 0's Night question) and run to the first stop."""
    st.ctx = {}
    st.todo = [*queued, ("extra_action", 0)]
    tasks.run(st)


def head(st: EscapeState) -> str:
    return str(st.todo[0][0])


def finish(st: EscapeState) -> None:
    """Resolve the chance nodes of her turn by their first outcome, up to the sentinel."""
    while head(st) != "extra_action":
        assert st.current_player() == CHANCE, st.todo[0]
        st.apply(st.chance_outcomes()[0][0])


def put_tile(st: EscapeState, tile: int) -> None:
    """Place ``tile`` in the city on a free cell far from the others (only its presence matters here)."""
    if st.tile_cell(tile) is None:
        st.placed[(40 + tile, -40 - tile)] = (tile, 0)


def business(st: EscapeState, number: int) -> int:
    """Business tile ``number`` on the first business Location; no other Business tile in the city."""
    st.business_at = {BUSINESSES[0]: number}
    return BUSINESSES[0]


def safe_house(st: EscapeState, number: int) -> int:
    st.safe_house_at = {SAFE_HOUSES[0]: number}
    return SAFE_HOUSES[0]


def reveal(st: EscapeState, card: str) -> None:
    """Queue Sandra's turn and reveal ``card`` (put back in her deck if her first turn took it)."""
    if CARDS[card] not in st.inspector_left:
        st.inspector_left.append(CARDS[card])
    queue(st, ("sandra_turn", SANDRA))
    assert head(st) == "s_reveal"
    action = codec.INSPECTOR + CARDS[card]
    assert action in st.legal_actions()
    st.apply(action)


def cubes(st: EscapeState, pawn: int = SANDRA) -> tuple[int, int]:
    """(cubes above the marker, cubes below) ("Adjusting Sandra's Notoriety")."""
    board = st.boards[pawn]
    return board.cubes_red, board.cubes_blue


def display(st: EscapeState, cards: list[int]) -> None:
    """Set the contact display (leftmost first), the cards taken out of the deck."""
    for c in st.display:
        st.contacts_left[c] += 1
    for c in cards:
        st.contacts_left[c] -= 1
    st.display = list(cards)


# --- Step 1: Travel -------------------------------------------------------------------------------------

def test_reveal_offers_each_card_in_the_city_equally() -> None:
    """"Reveal cards one by one ... until you reveal a card depicting a Location which is currently in the
    city"; "Ignore Exit cards for open exits": every such card equally likely, the others never."""
    st = position()
    st.inspector_left = list(range(len(CONTENT.inspector)))
    st.business_at = {BUSINESSES[0]: 2, BUSINESSES[1]: 5}
    st.safe_house_at = {SAFE_HOUSES[0]: 3}
    placed = {t for t, _ in st.placed.values()}
    stores = {loc.label for loc in CITY.locations if loc.kind == "store" and loc.tile in placed}
    exit_1, exit_2 = CITY.labelled("exit", "1"), CITY.labelled("exit", "2")
    put_tile(st, CITY.locations[exit_1].tile)
    put_tile(st, CITY.locations[exit_2].tile)
    st.patrol_on = [2, 1, 0]  # exit 1 closed, exit 2 open
    expected = {"business 2", "business 5", "safe_house 3", "exit 1"} | {f"store {s}" for s in stores}
    queue(st, ("sandra_turn", SANDRA))
    outcomes = st.chance_outcomes()
    assert {a - codec.INSPECTOR for a, _ in outcomes} == {CARDS[e] for e in expected}
    assert all(p == pytest.approx(1 / len(expected)) for _, p in outcomes)


def test_one_node_matches_revealing_one_by_one() -> None:
    """Revealing one by one from a shuffled deck and skipping cards not in the city stops on each card in
    the city with probability 1/k (worked out exactly over every deck order of a small deck)."""
    deck, fits = "abcde", set("bd")
    stops: Counter[str] = Counter()
    for order in permutations(deck):
        stops[next(c for c in order if c in fits)] += 1
    total = sum(stops.values())
    assert {c: Fraction(n, total) for c, n in stops.items()} == {"b": Fraction(1, 2), "d": Fraction(1, 2)}


def test_skipped_cards_stay_in_the_deck_and_the_card_leaves_the_game() -> None:
    """"Cards that were skipped ... are returned to the deck"; the revealed card is removed from the
    game ("Sandra never visits the same location twice"); she moves with unlimited MP, no Avoid."""
    st = position()
    st.inspector_left = list(range(len(CONTENT.inspector)))
    loc = business(st, 4)
    st.business_at[BUSINESSES[1]] = 1
    st.safe_house_at = {}
    wounds = [b.green for b in st.boards]
    reveal(st, "business 4")
    assert st.location[SANDRA] == loc
    assert sorted(st.inspector_left) == sorted(set(range(len(CONTENT.inspector))) - {CARDS["business 4"]})
    finish(st)
    assert [b.green for b in st.boards] == wounds
    kinds = [e.kind for e in st.events]
    assert "InspectorCard" in kinds and "Travelled" in kinds
    queue(st, ("sandra_turn", SANDRA))  # the same card is never offered again; business 1 still is
    offered = [a for a, _ in st.chance_outcomes()]
    assert codec.INSPECTOR + CARDS["business 1"] in offered
    assert codec.INSPECTOR + CARDS["business 4"] not in offered


def test_no_card_in_the_city_she_stays() -> None:
    """Every card left depicts a Location outside the city: they all go back and she stays (our reading,
    sandra.py)."""
    st = position()
    st.business_at, st.safe_house_at = {}, {}
    st.patrol_on = [0, 0, 0]
    placed = {t for t, _ in st.placed.values()}
    outside = [c for c, (kind, label) in enumerate(CONTENT.inspector) if kind == "store" and all(
        loc.tile not in placed for loc in CITY.locations if loc.kind == "store" and loc.label == label)]
    outside += [c for c, (kind, _) in enumerate(CONTENT.inspector)
                if kind in ("business", "safe_house", "exit")]
    st.inspector_left = sorted(outside)
    where = st.location[SANDRA]
    queue(st, ("sandra_turn", SANDRA))
    assert head(st) == "extra_action" and st.location[SANDRA] == where
    assert st.inspector_left == sorted(outside)


def test_open_exit_cards_are_ignored_and_closed_exits_visited() -> None:
    """"Ignore Exit cards for open exits, Sandra will only move to a closed exit"."""
    st = position()
    st.business_at, st.safe_house_at = {}, {}
    st.inspector_left = [CARDS["exit 1"]]
    put_tile(st, CITY.locations[CITY.labelled("exit", "1")].tile)
    st.patrol_on = [1, 0, 0]
    queue(st, ("sandra_turn", SANDRA))
    assert head(st) == "extra_action"
    st.patrol_on = [2, 0, 0]
    queue(st, ("sandra_turn", SANDRA))
    assert st.chance_outcomes() == [(codec.INSPECTOR + CARDS["exit 1"], 1.0)]


# --- Step 3: Visit, the cards --------------------------------------------------------------------------

@pytest.mark.parametrize("others, cubes_before, closes", [(0, 0, False), (1, 1, True), (2, 2, False)])
def test_business_card(others: int, cubes_before: int, closes: bool) -> None:
    """Business: +1 per other player there (Step 3), "Sandra gains 1 Notoriety", her cube in the white hex
    (the 2nd cube closes it), the 2 rightmost contact cards discarded; the display slides right and two
    new cards come in on the left (the 2-player note)."""
    st = position()
    loc = business(st, 2)
    st.cubes[1] = [[0, AMOUNT_HEX]] * cubes_before
    for seat in range(2):
        st.location[seat] = loc if seat < others else CITY.hospital
    shown = [PLAIN_CONTACT] * 7
    display(st, shown)
    supply = st.boards[SANDRA].income_cubes
    reveal(st, "business 2")
    finish(st)
    assert cubes(st) == (1 + others, 0)
    assert st.cubes[1][-1] == [SANDRA, AMOUNT_HEX] and len(st.cubes[1]) == cubes_before + 1
    assert st.boards[SANDRA].income_cubes == supply - 1
    closed = [e for e in st.events if e.kind == "BusinessClosed"]
    assert bool(closed) == closes
    assert len(st.display) == 7 and st.display[2:] == shown[:5]
    gone = [e for e in st.events if e.kind == "ContactsDiscarded"][-1]
    assert gone.discs == 0 and st.boards[SANDRA].extra_actions == 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("rightmost, discs", [([PLAIN_CONTACT, PLAIN_CONTACT], 0),
                                              ([FIXER_CONTACT, PLAIN_CONTACT], 1),
                                              ([PLAIN_CONTACT, FIXER_CONTACT], 1),
                                              ([FIXER_CONTACT, FIXER_CONTACT], 2)])
def test_discarded_contacts_give_their_extra_action_discs(rightmost: list[int], discs: int) -> None:
    """"If any or both of the discarded cards have the ability of giving an Extra Action disc, she gets
    that disc": one per such card (our reading); only the two rightmost cards go."""
    st = position()
    business(st, 1)
    display(st, [FIXER_CONTACT] + [PLAIN_CONTACT] * 4 + rightmost)
    reveal(st, "business 1")
    finish(st)
    assert st.boards[SANDRA].extra_actions == discs
    assert st.display[2] == FIXER_CONTACT  # the leftmost card slid two places right


def test_short_display_and_empty_deck() -> None:
    """Fewer than 2 cards on the display: she discards what is there; an empty deck refills nothing."""
    st = position()
    business(st, 1)
    display(st, [PLAIN_CONTACT])
    st.contacts_left = [0] * len(st.contacts_left)
    reveal(st, "business 1")
    assert head(st) == "extra_action"
    assert st.display == []


def test_business_group_gives_a_disc_once() -> None:
    """"If, this turn, Sandra has now visited a group of businesses, she receives an Extra Action disc"."""
    st = position()
    display(st, [PLAIN_CONTACT] * 7)
    st.boards[SANDRA].businesses = [False, False, False, True, True, False]
    business(st, 6)
    reveal(st, "business 6")
    finish(st)
    assert st.boards[SANDRA].extra_actions == 1 and st.boards[SANDRA].group_bonus[1]
    assert [e.why for e in st.events if e.kind == "SandraDisc"] == ["businesses 4-6"]  # type: ignore[attr-defined]
    st.inspector_left.append(CARDS["business 6"])  # a user's deck with the card twice: no second disc
    display(st, [PLAIN_CONTACT] * 7)
    reveal(st, "business 6")
    finish(st)
    assert st.boards[SANDRA].extra_actions == 1


def test_sandra_visits_a_closed_business() -> None:
    """"Sandra visits closed businesses if the card comes out": her cube goes on, it stays closed."""
    st = position()
    business(st, 3)
    st.cubes[2] = [[0, AMOUNT_HEX], [1, AMOUNT_HEX]]
    display(st, [PLAIN_CONTACT] * 7)
    reveal(st, "business 3")
    finish(st)
    assert st.cubes[2] == [[0, AMOUNT_HEX], [1, AMOUNT_HEX], [SANDRA, AMOUNT_HEX]]
    assert not [e for e in st.events if e.kind == "BusinessClosed"]


def test_safe_house_card() -> None:
    """Safe House: lose 1; her cube in the red hex; a key at random from it; a Fixer tile at random (both
    public, back to the box)."""
    st = position()
    loc = safe_house(st, 2)
    st.location[0] = loc
    st.keys[1] = [0, 0, 2]
    st.fixers_left = [1, 4, 6]
    reveal(st, "safe_house 2")
    assert head(st) == "s_key"
    assert st.chance_outcomes() == [(codec.S_KEY + 0, pytest.approx(2 / 3)),
                                    (codec.S_KEY + 2, pytest.approx(1 / 3))]
    st.apply(codec.S_KEY + 2)
    assert st.keys[1] == [0, 0]
    assert head(st) == "s_fixer"
    assert st.chance_outcomes() == [(codec.S_FIXER + f, pytest.approx(1 / 3)) for f in (1, 4, 6)]
    st.apply(codec.S_FIXER + 4)
    assert st.fixers_left == [1, 6]
    assert head(st) == "extra_action"
    assert cubes(st) == (1, 1)  # +1 for seat 0 there, -1 for the card: settles to no move
    assert st.cubes[7][-1] == [SANDRA, RED_HEX]
    assert st.records[-1][2] is None  # public
    assert st.game.action_to_str(codec.S_KEY + 2) == "discard brown key"


def test_all_safe_houses_disc_and_empty_piles() -> None:
    """"If, this turn, Sandra has now visited all 3 Safe Houses, she gets an Extra Action disc"; no key
    and no Fixer tile left: nothing is discarded."""
    st = position()
    safe_house(st, 1)
    st.keys[0] = []
    st.fixers_left = []
    st.boards[SANDRA].safe_houses = [False, True, True]
    reveal(st, "safe_house 1")
    assert head(st) == "extra_action"
    assert st.boards[SANDRA].extra_actions == 1 and cubes(st) == (0, 1)


@pytest.mark.parametrize("label, notoriety, stacks", [("A", (1, 0), [0]), ("B", (0, 1), [1]),
                                                      ("C", (1, 0), [2]), ("D", (0, 1), [0, 1, 2])])
def test_store_cards(label: str, notoriety: tuple[int, int], stacks: list[int]) -> None:
    """Stores: A and C gain 1, B and D lose 1; one Locker tile at random from the depicted stack (D: every
    stack), unseen; the 2 rightmost contact cards discarded."""
    st = position()
    put_tile(st, CITY.locations[CITY.labelled("store", label)].tile)
    display(st, [PLAIN_CONTACT] * 7)
    reveal(st, f"store {label}")
    for colour in stacks:
        assert st.todo[0] == ("s_discard", SANDRA, "locker", colour)
        values = list(CONTENT.lockers[colour].values)
        assert st.chance_outcomes() == [(codec.S_TILE + v, pytest.approx(values.count(v) / len(values)))
                                        for v in sorted(set(values))]
        st.apply(codec.S_TILE + values[-1])
        assert st.records[-1][2] == frozenset() and st.records[-1][3] == "discard value ?"
    finish(st)
    assert cubes(st) == notoriety
    assert [len(s) for s in st.lockers] == [n - (c in stacks) for c, n in enumerate(LOCKER_SIZES)]
    assert len([e for e in st.events if e.kind == "TileDiscarded"]) == len(stacks)
    assert [e for e in st.events if e.kind == "ContactsDiscarded"]


def test_closed_exit_card() -> None:
    """Closed Exits: lose 1, one Exit tile on it at random (unseen), the 2 rightmost contacts discarded."""
    st = position()
    put_tile(st, CITY.locations[CITY.labelled("exit", "2")].tile)
    st.patrol_on = [0, 2, 0]
    st.exit_stack_at = {2: 1}
    st.exit_pending = []
    display(st, [PLAIN_CONTACT] * 7)
    reveal(st, "exit 2")
    assert st.todo[0] == ("s_discard", SANDRA, "exit", 1)
    assert st.chance_outcomes() == [(codec.S_TILE + 10, pytest.approx(0.4)),
                                    (codec.S_TILE + 20, pytest.approx(0.4)),
                                    (codec.S_TILE + 30, pytest.approx(0.2))]
    st.apply(codec.S_TILE + 20)
    assert sorted(st.exit_stacks[1]) == [10, 10, 20, 30]
    finish(st)
    assert cubes(st) == (0, 1) and st.location[SANDRA] == CITY.labelled("exit", "2")


# --- notoriety, thresholds, turn order, discs ------------------------------------------------------------

def settle(st: EscapeState, pawn: int) -> list[tuple[object, ...]]:
    """Run ``pawn``'s notoriety update and return the tasks it queued (before anything runs them)."""
    st.todo = []
    tasks.AUTOS["settle"](st, ("settle", pawn))
    return list(st.todo)


@pytest.mark.parametrize("above, below, moved", [(1, 0, 1), (0, 1, -1), (1, 1, 0), (2, 0, 2), (0, 0, 0)])
def test_her_marker_moves_by_cubes_above_minus_below(above: int, below: int, moved: int) -> None:
    """"If there is a cube above, her token moves up, and vice versa. If there is one cube above and one
    below, her token does not move"; then the cubes go back beside the board."""
    st = position()
    board = st.boards[SANDRA]
    board.notoriety = 5
    board.cubes_red, board.cubes_blue, board.cubes_bottom = above, below, 4 - above - below
    settle(st, SANDRA)
    assert board.notoriety == 5 + moved
    assert (board.cubes_red, board.cubes_blue, board.cubes_bottom) == (0, 0, 4)


def test_her_threshold_moves_officers_of_the_players_below() -> None:
    """"If she passes a threshold, each player with less Notoriety than her moves one Police Officer in
    her direction"; she unlocks nothing and takes no disc."""
    st = position()
    lines = CONTENT.notoriety.lines
    board = st.boards[SANDRA]
    board.notoriety, board.cubes_red, board.cubes_bottom = lines[0] - 1, 1, 3
    st.boards[0].notoriety = lines[0] - 1
    st.boards[1].notoriety = lines[0] + 1
    queued = settle(st, SANDRA)
    assert queued == [("police_pick", 0, SANDRA)]
    assert board.extra_actions == 0


def test_player_threshold_other_player_moves_for_sandra() -> None:
    """"If any player passes a threshold and Sandra has less Notoriety, the non-active player moves one
    Police Officer on Sandra's behalf" (and for himself when he is lower too)."""
    st = position()
    lines = CONTENT.notoriety.lines
    mover = st.boards[1]
    mover.notoriety, mover.cubes_red, mover.cubes_bottom = lines[0] - 1, 1, 3
    st.boards[0].notoriety = lines[0] - 2
    st.boards[SANDRA].notoriety = lines[0] - 2
    queued = [t for t in settle(st, 1) if t[0] == "police_pick"]
    assert sorted(queued) == [("police_pick", 0, 1), ("police_pick", 0, 1)]
    st.boards[SANDRA].notoriety = lines[0] + 2  # Sandra above: nobody moves on her behalf
    mover.notoriety, mover.cubes_red, mover.cubes_bottom = lines[0] - 1, 1, 3
    queued = [t for t in settle(st, 1) if t[0] == "police_pick"]
    assert queued == [("police_pick", 0, 1)]


def test_turn_order_places_her_by_notoriety() -> None:
    """"During Phase 4, adjust Sandra's turn order according to her Notoriety as normal"."""
    st = position()
    st.order = [0, 1, SANDRA]
    st.boards[0].notoriety, st.boards[1].notoriety, st.boards[SANDRA].notoriety = 2, 3, 7
    tasks.AUTOS["turn_order"](st, ("turn_order",))
    assert st.order == [SANDRA, 1, 0]


def test_she_spends_her_discs_at_night_and_dawn() -> None:
    """"At night and dawn, Sandra uses her Extra Tokens if she has any": no question, a turn."""
    st = position()
    st.boards[SANDRA].extra_actions = 2
    st.todo = []
    tasks.AUTOS["extra"](st, ("extra", SANDRA))
    assert st.todo == [("turn", SANDRA)] and st.boards[SANDRA].extra_actions == 1
    st.boards[SANDRA].extra_actions = 0
    st.todo = []
    tasks.AUTOS["extra"](st, ("extra", SANDRA))
    assert st.todo == []


# --- hidden information and the resample -----------------------------------------------------------------

def _discard_nodes(seed: int) -> tuple[EscapeState, EscapeState] | None:
    """The first unseen discard of a random game with two distinct values to draw: the state there, and
    its twin that drew another value."""
    st = GAME.new_initial_state()
    rng = np.random.default_rng(seed)
    while not st.is_terminal():
        if st.todo[0][0] == "s_discard":
            values = [a for a, _ in st.chance_outcomes()]
            if len(values) >= 2:
                twin = st.clone()
                st.apply(values[0])
                twin.apply(values[1])
                return st, twin
        step(st, rng)
    return None


def test_no_seat_sees_her_unseen_discards() -> None:
    """"Return it to the box without anyone seeing it": two games that differ only in the tile discarded
    give every seat the same view (JSON and key), and no view names the value."""
    found = 0
    for seed in range(40):
        pair = _discard_nodes(seed)
        if pair is None:
            continue
        st, twin = pair
        for seat in range(2):
            a, b = st.view(seat), twin.view(seat)
            assert a.to_json() == b.to_json() and a.key() == b.key()
            text = json.dumps(a.to_json())
            assert "discard value ?" in text
            assert codec.to_str(GAME, st.history[-1]) not in text
        found += 1
        if found == 5:
            return
    raise AssertionError("no seeded game reached an unseen discard")


def test_view_lists_the_inspector_cards_left() -> None:
    """The deck's set is public (each revealed card is removed face up); its order is chance."""
    st = play_until(GAME.new_initial_state(), lambda s: s.day == 2, 1)
    gone = {e.card for e in st.events if e.kind == "InspectorCard"}  # type: ignore[attr-defined]
    assert gone
    for seat in range(2):
        data = st.view(seat).to_json()
        names = [f"{k.replace('_', ' ')} {lab}" for k, lab in CONTENT.inspector]
        assert sorted(data["inspector_left"]) == sorted(n for n in names if n not in gone)
        assert data["inspector_deck"] == len(CONTENT.inspector) - len(gone)


def test_resampled_states_give_the_same_view() -> None:
    """States resampled from a 2-player view replay it exactly: Inspector cards and public discards as
    shown, her unseen discards drawn."""
    rng = np.random.default_rng(7)
    checked = 0
    for seed in range(4):
        st = GAME.new_initial_state()
        play_rng = np.random.default_rng(100 + seed)
        count = 0
        while not st.is_terminal():
            step(st, play_rng)
            count += 1
            if count % 90 == 0 or st.is_terminal():
                for seat in range(2):
                    view = st.view(seat)
                    drawn = GAME.resample(view, rng)
                    assert drawn.view(seat).to_json() == view.to_json()
                    assert drawn.inspector_left == st.inspector_left
                    checked += 1
    assert checked >= 16


def test_resample_draws_an_unseen_discard_from_the_stack() -> None:
    """With nothing else known, the discarded tile is any tile of the stack as it was, equally likely."""
    for seed in range(40):
        pair = _discard_nodes(seed)
        if pair is None:
            continue
        st = pair[0]
        kind, index = _last_discard_stack(st)
        before = Counter(_stack(st, kind, index)) + Counter([st.history[-1] - codec.S_TILE])
        size = sum(before.values())
        seen: Counter[int] = Counter()
        rng = np.random.default_rng(3)
        for _ in range(300):
            drawn = GAME.resample(st.view(0), rng)
            seen.update((before - Counter(_stack(drawn, kind, index))).elements())
        assert sum(seen.values()) == 300
        for value, copies in before.items():
            assert abs(seen[value] / 300 - copies / size) < 0.1, (value, seen)
        return
    raise AssertionError("no seeded game reached an unseen discard")


def _last_discard_stack(st: EscapeState) -> tuple[str, int]:
    event = [e for e in st.events if e.kind == "TileDiscarded"][-1]
    name = event.stack  # type: ignore[attr-defined]
    if name.endswith("locker"):
        return "locker", codec.LOCKER_NAMES.index(name.split()[0])
    return "exit", int(name.split()[-1]) - 1


def _stack(st: EscapeState, kind: str, index: int) -> list[int]:
    return st.lockers[index] if kind == "locker" else st.exit_stacks[index]


def _tiny_green(tmp_path: Path) -> str:
    """A content file whose green locker opens for anyone (requirement 0) and holds $0, $10, $10."""
    from solver.core import files

    data = files.read_shipped("solver.games.escape", "data/content.json")
    data["lockers"]["green"] = {"requirement": 0, "draw": 1, "values": [0, 10, 10]}
    path = tmp_path / "content.json"
    path.write_text(json.dumps(data))
    return str(path)


def _green_seeker(st: EscapeState, rng: np.random.Generator) -> None:
    """Sandra reveals store A when she can; the seats unlock the master key, head for stores, open the
    green locker and keep a tile; otherwise random (spending on nothing else)."""
    if st.current_player() == CHANCE:
        outcomes = [a for a, _ in st.chance_outcomes()]
        if st.todo[0][0] == "s_reveal" and codec.INSPECTOR + CARDS["store A"] in outcomes:
            st.apply(codec.INSPECTOR + CARDS["store A"])
            return
        step(st, rng)
        return
    legal = st.legal_actions()
    stores = set(CITY.of_kind("store"))
    for wanted in ([a for a in legal if codec.V_LOCKER <= a < codec.V_LOCKER + 4],
                   [a for a in legal if codec.V_KEEP <= a < codec.S_KEY],
                   [a for a in legal if a == codec.UNLOCK + 3],  # the master key
                   [a for a in legal if codec.TRAVEL <= a < codec.ESCAPE
                    and (a - codec.TRAVEL) // codec.MAX_ROUTES in stores]):
        if wanted:
            st.apply(wanted[int(rng.integers(len(wanted)))])
            return
    cheap = [a for a in legal
             if not (codec.EXEC <= a < codec.START) and not (codec.V_EQUIP <= a < codec.V_PICK)]
    options = cheap or legal
    st.apply(options[int(rng.integers(len(options)))])


def _posterior(stack: list[int], seen: list[int]) -> dict[int, Fraction]:
    """The exact posterior of one tile discarded uniformly from ``stack``, given the values ``seen`` drawn
    in order without replacement from the rest (enumerated tile by tile)."""
    weights: Counter[int] = Counter()
    for i, gone in enumerate(stack):
        rest = stack[:i] + stack[i + 1:]
        chance = Fraction(1)
        for value in seen:
            if value not in rest:
                chance = Fraction(0)
                break
            chance *= Fraction(rest.count(value), len(rest))
            rest.remove(value)
        weights[gone] += chance  # type: ignore[assignment]
    total = sum(weights.values())
    return {v: Fraction(w, 1) / total for v, w in weights.items() if w}


def test_posterior_helper() -> None:
    assert _posterior([0, 10, 10], [10]) == {0: Fraction(1, 2), 10: Fraction(1, 2)}
    assert _posterior([0, 10, 10], [10, 0]) == {10: Fraction(1)}


def test_resample_weighs_her_discard_by_the_seats_own_draw(tmp_path: Path) -> None:
    """Green stack {0, 10, 10}; Sandra discards one unseen, then a seat draws green and sees $10 first
    (nobody drew green before). Prior of the discard: $0 1/3, $10 2/3; seeing one $10 has chance 1 and
    1/2, so the posterior is 1/2 each (a resample that ignored the draw would say 1/3); seeing two tiles
    tells the discard outright. The resample must match the enumerated posterior."""
    game = EscapeGame(players=2, content=_tiny_green(tmp_path))
    for seed in range(300):
        st = game.new_initial_state()
        rng = np.random.default_rng(seed)
        discarded = False
        while not st.is_terminal():
            task = st.todo[0]
            green = task[0] in ("v_draw", "s_discard") and task[2] == "locker" and task[3] == 0
            if green and task[0] == "s_discard" and len(st.lockers[0]) == 3:
                discarded = True
            elif green and task[0] == "v_draw" and discarded:
                seat, count = int(task[1]), int(task[5])
                seen = []
                for _ in range(count):  # the seat draws; $10 first when it can
                    values = [a - codec.TILE_VALUE for a, _ in st.chance_outcomes()]
                    value = 10 if 10 in values else values[0]
                    st.apply(codec.TILE_VALUE + value)
                    seen.append(value)
                exact = _posterior([0, 10, 10], seen)
                view = st.view(seat)
                found: Counter[int] = Counter()
                draw_rng = np.random.default_rng(5)
                for _ in range(400):
                    drawn = game.resample(view, draw_rng)
                    assert drawn.view(seat).to_json() == view.to_json()
                    left = Counter(drawn.lockers[0]) + Counter(drawn.ctx.get("drawn", []))
                    (gone,) = tuple((Counter([0, 10, 10]) - left).elements())
                    found[gone] += 1
                for value in (0, 10):
                    assert abs(found[value] / 400 - float(exact.get(value, 0))) < 0.09, (seen, found, exact)
                return
            elif green:
                break  # someone else drew green first
            _green_seeker(st, rng)
    raise AssertionError("no seeded game reached a green draw after Sandra's green discard")


# --- whole games ----------------------------------------------------------------------------------------

def test_random_two_player_games_to_the_end() -> None:
    """30 seeded random 2-player games end after day 3 without an error; her bookkeeping stays sound: one
    card per turn leaves the game, one cube per business or safe house card, tiles and keys conserved."""
    kinds: Counter[str] = Counter()
    for seed in range(30):
        st = play_until(GAME.new_initial_state(), lambda s: s.is_terminal(), seed)
        assert st.current_player() == TERMINAL and st.over
        revealed = [e for e in st.events if e.kind == "InspectorCard"]
        assert len(st.inspector_left) + len(revealed) == len(CONTENT.inspector)
        sites = sum(1 for e in revealed if e.card.startswith(("business", "safe house")))  # type: ignore[attr-defined]
        placed = sum(1 for site in st.cubes for c in site if c[0] == SANDRA)
        assert placed == sites == 9 - st.boards[SANDRA].income_cubes
        kept = Counter(s.ident for b in st.boards for s in b.items if s.piece == Piece.LOCKER)
        gone = Counter(e.stack for e in st.events if e.kind == "TileDiscarded")  # type: ignore[attr-defined]
        for colour, name in enumerate(codec.LOCKER_NAMES):
            assert len(st.lockers[colour]) + kept[colour] + gone[f"{name} locker"] == LOCKER_SIZES[colour]
        keys = sum(len(k) for k in st.keys) + sum(1 for b in st.boards for k in b.keys if k is not None)
        assert keys + sum(1 for e in st.events if e.kind == "KeyDiscarded") == 9
        kinds.update(e.kind for e in st.events)
    for kind in ("InspectorCard", "ContactsDiscarded", "KeyDiscarded", "FixerDiscarded", "TileDiscarded"):
        assert kinds[kind], kind


# --- notation -------------------------------------------------------------------------------------------

def test_sandra_notation_round_trips_and_fits_the_layout() -> None:
    """The discard blocks follow V_KEEP; every id is below NUM_ACTIONS; names parse back."""
    names = {codec.S_KEY: "discard green key", codec.S_FIXER + 7: "discard fixer telephone",
             codec.S_TILE + 30: "discard value 30",
             codec.INSPECTOR + CARDS["store D"]: "inspector 13 store D"}
    for action, text in names.items():
        assert GAME.action_to_str(action) == text and GAME.str_to_action(text) == action
    assert codec.S_KEY == codec.V_KEEP + (codec.MAX_VALUE + 1) * codec.MAX_ITEMS
    assert codec.NUM_ACTIONS == codec.S_TILE + codec.MAX_VALUE + 1
    assert codec.block_of(codec.NUM_ACTIONS - 1) == (codec.S_TILE, codec.MAX_VALUE)
    assert sandra.STORE_LOCKERS["D"] == (0, 1, 2)
