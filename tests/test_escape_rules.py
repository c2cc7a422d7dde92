"""Escape Plan's state machine core (solver/games/escape/{state,setup,phases,turn,codec}.py).

Each test names the rulebook section it checks (``shared/rulebooks/escape-plan.txt``). Positions are
reached by seeded random play and then, where a test needs a particular situation, set by hand on the
state's fields; expectations are worked out from the rules (or from the city module's own functions,
tested in ``tests/test_escape_city.py``), never read back from the code under test.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from solver.core import CHANCE, TERMINAL, IllegalActionError
from solver.games.escape import board as pb
from solver.games.escape import codec, tasks
from solver.games.escape.city import EXIT, legal_placements, reachable
from solver.games.escape.content import Asset
from solver.games.escape.phases import escape_exit, new_order
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState

GAMES = {n: EscapeGame(players=n) for n in (2, 3, 4, 5)}


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


def at(name: str) -> Callable[[EscapeState], bool]:
    """The head task is ``name``."""
    return lambda st: not st.is_terminal() and st.todo[0][0] == name


def setup_done(st: EscapeState) -> bool:
    """Every set-up chance node is resolved: the first decision of the game is pending."""
    return st.current_player() >= 0


def first_turn(players: int = 3, seed: int = 0) -> EscapeState:
    """A state at the first Action of day 1 (Morning)."""
    return play_until(GAMES[players].new_initial_state(), at("action"), seed)


# --- set-up ---------------------------------------------------------------------------------------------

def test_start_tiles_are_four_equally_likely_outcomes() -> None:
    """City Setup 2: which starting tile lies at (0,0), both turned 0 or both 3."""
    st = GAMES[3].new_initial_state()
    outcomes = st.chance_outcomes()
    assert len(outcomes) == 4 and all(p == pytest.approx(0.25) for _, p in outcomes)
    st.apply(outcomes[3][0])
    city = st.game.city
    assert st.placed[(0, 0)] == (city.start_tiles[1], 3)
    assert st.placed[(1, 0)] == (city.start_tiles[0], 3)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_counts(players: int) -> None:
    """Board Setup 4-16, Player Setup L: tops, officers, keys, display, plans, gangs."""
    for seed in range(5):
        st = play_until(GAMES[players].new_initial_state(), setup_done, seed)
        city, content = st.game.city, st.game.content
        assert all(t >= 0 for t in st.tops) and [len(s) for s in st.stacks] == [2, 2, 2, 2]
        on_tiles = sum(sum(o) for o in st.officers)
        assert on_tiles + sum(st.bag) == 30 and st.returning == [0, 0, 0]
        for t in st.tops:  # two drawn per top; a same-type pair keeps one (Police Setup 8)
            assert 1 <= sum(st.officers[t]) <= 2
        assert 1 <= sum(st.officers[city.gang_start_tile]) <= 2
        assert not any(st.officers[city.hospital_tile])
        assert on_tiles == sum(sum(st.officers[t]) for t in [*st.tops, city.gang_start_tile])
        assert [len(k) for k in st.keys] == [3, 3, 3]
        assert Counter(c for k in st.keys for c in k) == Counter({0: 3, 1: 3, 2: 3})
        assert len(st.display) == 7 and sum(st.contacts_left) == len(content.contacts) - 7
        assert len(set(st.plan)) == players and -1 not in st.plan
        assert len(st.plans_left) == len(content.plans) - players
        gang = next(loc for loc in city.tiles[city.gang_start_tile].locations
                    if city.locations[loc].kind == "gang")
        assert st.gangs == {gang: 2} and st.gang_supply == 6
        assert sum(st.patrol_left) == 6  # no patrol card is removed at set-up


def test_officer_draw_follows_the_bag_and_same_type_returns_after_the_step() -> None:
    """Police Setup 7-8: each draw by the bag's counts; a duplicate waits, then goes back to the bag."""
    st = play_until(GAMES[3].new_initial_state(), at("officer"), 0)
    outcomes = dict(st.chance_outcomes())
    assert outcomes == {codec.OFFICER + p: pytest.approx(1 / 3) for p in range(3)}
    tile = st.todo[0][1]
    st.apply(codec.OFFICER + 0)
    assert st.todo[0] == ("officer", tile)
    st.apply(codec.OFFICER + 0)  # a second county officer on the same tile
    assert st.officers[tile] == [True, False, False]
    assert st.bag[0] == 8 and st.returning[0] == 1
    assert dict(st.chance_outcomes())[codec.OFFICER] == pytest.approx(8 / 28)
    play_until(st, setup_done, 1)
    assert sum(st.bag) + sum(sum(o) for o in st.officers) == 30


def test_plan_deal_is_seen_by_its_owner_only() -> None:
    """Player Setup L: the plan card is secret: ``plan ?`` in the other seats' histories."""
    st = play_until(GAMES[3].new_initial_state(), setup_done, 3)
    mine = st.game.content.plans[st.plan[1]].name
    texts1 = [e[1] for e in st.view(1).to_json()["history"]]
    texts0 = [e[1] for e in st.view(0).to_json()["history"]]
    assert f"plan {mine}" in texts1 and f"plan {mine}" not in texts0
    assert texts0.count("plan ?") == 2 and st.view(0).to_json()["plan"] != mine
    assert st.view(1).to_json()["plan"] == mine


# --- 3. City ----------------------------------------------------------------------------------------------

def test_placement_decisions_are_the_legal_placements() -> None:
    """"3. City": choose a display tile, then one of its legal (cell, rotation) placements."""
    st = play_until(GAMES[3].new_initial_state(), at("choose_tile"), 2)
    assert st.todo[0][1] == st.order[0]  # the first player in turn order places first
    assert st.legal_actions() == sorted(codec.DISPLAY + s for s in range(4))
    s = 1
    tile = st.tops[s]
    st.apply(codec.DISPLAY + s)
    assert st.tops[s] == -1
    expected = {codec.place(c, k) for c, k in legal_placements(st.game.city, st.placed, tile)}
    assert set(st.legal_actions()) == expected and expected
    cell, k = legal_placements(st.game.city, st.placed, tile)[0]
    st.apply(codec.place(cell, k))
    assert st.placed[cell] == (tile, k)


def test_business_choice_on_placement() -> None:
    """"3. City": a Business space makes the placer choose an available Business tile."""
    st = play_until(GAMES[3].new_initial_state(), lambda s: s.phase == "city" and at("choose_business")(s), 0)
    seat, loc = st.todo[0][1], st.todo[0][2]
    used = set(st.business_at.values())
    assert st.legal_actions() == [codec.BUSINESS + b - 1 for b in range(1, 7) if b not in used]
    assert st.decision().seat == seat
    free = min(set(range(1, 7)) - used)
    st.apply(codec.BUSINESS + free - 1)
    assert st.business_at[loc] == free


@pytest.mark.parametrize(("players", "expected"), [(2, [0, 1, 0, 1]), (3, [0, 1, 2, 0]), (4, [0, 1, 2, 3]),
                                                   (5, [0, 1, 2, 3])])
def test_who_places_the_four_tiles(players: int, expected: list[int]) -> None:
    """"3. City": fewer than 4 players repeat the sequence; 5 players: the last places none; Sandra none."""
    st = play_until(GAMES[players].new_initial_state(), at("choose_tile"), 0)
    order = [st.order[i] for i in expected]
    assert [t[1] for t in st.todo if t[0] == "choose_tile"] == order


def test_city_phase_draws_new_tops_with_officers() -> None:
    """"3. City": after the 4 placements every stack shows a new top with officers."""
    st = play_until(GAMES[4].new_initial_state(), at("action"), 0)
    assert len(st.placed) == 6 and all(t >= 0 for t in st.tops)
    assert all(1 <= sum(st.officers[t]) <= 2 for t in st.tops)
    assert sum(st.bag) + sum(sum(o) for o in st.officers) == 30


# --- 4. Turn order ----------------------------------------------------------------------------------------

def test_turn_order_rulebook_example() -> None:
    """"4. Turn Order": Claws, Vinnie, Scar, Ruby; Scar highest, the rest tied: Scar, Ruby, Vinnie, Claws."""
    claws, vinnie, scar, ruby = 0, 1, 2, 3
    notoriety = [1, 1, 4, 1]
    assert new_order([claws, vinnie, scar, ruby], notoriety) == [scar, ruby, vinnie, claws]
    assert new_order([3, 1, 0, 2], [2, 2, 2, 2]) == [2, 0, 1, 3]  # all tied: reversed


def test_day_one_order_is_reversed() -> None:
    """"4. Turn Order": on day 1 everyone is tied, so the last player becomes the first."""
    st = first_turn(4)
    assert st.order == [3, 2, 1, 0] and st.todo[0] == ("action", 3)
    st2 = first_turn(2)
    assert st2.order == [2, 1, 0]  # Sandra (pawn 2) starts 3rd and is reversed to first
    assert st2.todo[0] == ("action", 1)  # her turn is a no-op for now


# --- 1. Income --------------------------------------------------------------------------------------------

def _run(st: EscapeState, *queue: tuple[object, ...]) -> None:
    """Put ``queue`` at the head of the work queue and run its bookkeeping."""
    tasks.push(st, *queue)
    tasks.run(st)


def test_income_and_the_unlock_offer() -> None:
    """"1. Income": the lowest visible income; then, in turn order, players at notoriety 1-2 may pay $3k."""
    st = first_turn(3)
    st.todo = [("patrol",)]
    st.order = [1, 2, 0]
    b0, b1, b2 = st.boards[:3]
    b0.income_cubes, b0.money = 6, 4
    b1.notoriety = 4  # above the first line: no offer
    b2.money = 0  # receives 9: can pay
    _run(st, ("income",))
    assert (b0.money, b1.money, b2.money) == (10, 18, 9)
    assert [t for t in st.todo if t[0] == "income_unlock"] == [("income_unlock", 2), ("income_unlock", 0)]
    assert st.todo[0] == ("income_unlock", 2)
    legal = st.legal_actions()
    assert codec.DONE in legal and codec.UNLOCK + Asset.HEAL in legal
    st.apply(codec.UNLOCK + Asset.HEAL)
    assert b2.money == 6 and Asset.HEAL not in pb.locked_assets(b2)
    st.apply(codec.DONE)
    assert b0.money == 10 and st.todo[0] == ("patrol",)


def test_no_income_on_day_one() -> None:
    """"1. Income": skip this phase on day 1."""
    st = first_turn(3)
    assert all(b.money == 9 for b in st.boards)
    assert not any(e.kind == "Note" and e.what == "income" for e in st.events)  # type: ignore[attr-defined]


# --- 2. Patrol --------------------------------------------------------------------------------------------

def test_patrol_closes_an_exit_with_its_tiles_placed_or_pending() -> None:
    """"2. Patrol": a second card closes the exit; a visible exit tile gets an exit stack at once, else the
    stack waits until the tile shows."""
    st = first_turn(3)
    city = st.game.city
    exit_tile = {e: city.locations[city.labelled(EXIT, str(e))].tile for e in (1, 2, 3)}
    visible = {t for t, _ in st.placed.values()} | set(st.tops)
    hidden = [e for e in (1, 2, 3) if exit_tile[e] not in visible]
    shown = [e for e in (1, 2, 3) if exit_tile[e] in visible]
    assert hidden, "the seed should leave an exit tile unseen"
    e = hidden[0]
    st.patrol_on = [0, 0, 0]
    st.patrol_on[e - 1] = 1
    st.todo = [("patrol",), ("day_start",)]
    outcomes = dict(st.chance_outcomes())
    assert outcomes[codec.PATROL + e - 1] == pytest.approx(st.patrol_left[e - 1] / sum(st.patrol_left))
    st.apply(codec.PATROL + e - 1)
    assert st.exit_stack_at == {e: 0} and st.exit_pending == [e]
    # the tile shows on its stack: the pending exit gets its stack
    stack = next(s for s in range(4) if exit_tile[e] in st.stacks[s])
    st.tops[stack] = -1
    _run(st, ("draw_top", stack))
    st.apply(codec.REVEAL + exit_tile[e])
    assert st.exit_pending == []
    if shown:
        f = shown[0]
        st.patrol_on[f - 1] = 1
        st.todo = [("patrol",), ("day_start",)]
        st.apply(codec.PATROL + f - 1)
        assert st.exit_stack_at == {e: 0, f: 1} and st.exit_pending == []


def test_five_patrol_cards_leave_exactly_one_open_exit() -> None:
    """"2. Patrol" / "Escaping the City": 2 + 2 + 1 of 6 cards leave one exit with one card on day 3."""
    for seed in range(10):
        st = play_until(GAMES[3].new_initial_state(), lambda s: s.day == 3 and s.part == 0, seed)
        assert sum(st.patrol_on) == 5 and sorted(st.patrol_on) == [1, 2, 2]
        assert len(st.exit_stack_at) == 2
        exit_loc = escape_exit(st)
        assert st.game.city.locations[exit_loc].label == str(st.patrol_on.index(1) + 1)


# --- notoriety and thresholds -----------------------------------------------------------------------------

def test_settle_crossing_a_threshold_moves_officers_and_unlocks() -> None:
    """"Adjusting Notoriety" / "Crossing the Threshold": lower players in turn order move an officer toward
    the mover (one tile closer at least, no two of a type, never the hospital tile), then 1 unlock."""
    st = first_turn(3, 4)
    city = st.game.city
    st.todo = [("part_end", 4)]
    mover = st.order[1]
    board = st.boards[mover]
    board.cubes_bottom, board.cubes_red = 2, 2  # 1 -> 3 crosses the first line (under row 3)
    st.boards[st.order[2]].notoriety = 3  # not lower than the mover after it settles: no move
    far = max(st.placed, key=lambda c: abs(c[0]) + abs(c[1]))
    st.location[mover] = next(iter(city.tiles[st.placed[far][0]].locations), city.hospital)
    _run(st, ("settle", mover))
    assert board.notoriety == 3
    lower = [p for p in st.order if p != mover and st.boards[p].notoriety < 3]
    picks = [t for t in st.todo if t[0] == "police_pick"]
    assert [t[1] for t in picks] == lower and all(t[2] == mover for t in picks)
    assert ("unlock", mover, "threshold 1") in st.todo
    if st.todo[0][0] == "police_pick":
        target = st.tile_cell(city.locations[st.location[mover]].tile)
        assert target is not None
        action = st.legal_actions()[0]
        tile, police = divmod(action - codec.PICK_OFFICER, 3)
        st.apply(action)
        from solver.games.escape.city import distance

        src = st.tile_cell(tile)
        assert src is not None
        for dest_action in st.legal_actions():
            dest = dest_action - codec.DEST
            cell = st.tile_cell(dest)
            assert cell is not None and distance(cell, target) < distance(src, target)
            assert dest != city.hospital_tile and not st.officers[dest][police]
        st.apply(st.legal_actions()[0])
        assert not st.officers[tile][police]
    while st.todo[0][0] in ("police_pick", "police_dest"):
        st.apply(st.legal_actions()[0])
    assert st.todo[0] == ("unlock", mover, "threshold 1")
    before = len(pb.locked_assets(board))
    st.apply(st.legal_actions()[0])
    assert len(pb.locked_assets(board)) == before - 1


def test_settle_third_line_gives_a_disc_and_overflow_wounds() -> None:
    """"Crossing the Threshold" 3rd line: 1 unlock + an Extra Action disc; above the top: a wound each."""
    st = first_turn(3)
    st.todo = [("part_end", 4)]
    seat = st.order[0]
    board = st.boards[seat]
    track = st.game.content.notoriety
    board.notoriety = track.lines[2] - 1
    board.cubes_bottom, board.cubes_red = 3, 1
    for p in st.order:
        if p != seat:
            st.boards[p].notoriety = track.top
    _run(st, ("settle", seat))
    assert board.notoriety == track.lines[2]
    assert st.todo[:2] == [("unlock", seat, "threshold 3"), ("extra_disc", seat, 1)]
    st.apply(st.legal_actions()[0])
    assert board.extra_actions == 1
    board.notoriety = track.top
    board.cubes_bottom, board.cubes_red = 2, 2
    green = board.green
    st.todo = [("part_end", 4)]
    _run(st, ("settle", seat))
    assert board.notoriety == track.top and board.green == green - 2


# --- Actions: Rest, Travel, Avoid -------------------------------------------------------------------------

def test_rest_once_a_day_then_unlock() -> None:
    """"Rest": flip the token (not twice a day), then unlock one asset."""
    st = first_turn(3)
    seat = st.todo[0][1]
    assert codec.REST in st.legal_actions()
    st.apply(codec.REST)
    assert st.boards[seat].rested and st.todo[0] == ("rest_unlock", seat)
    assert st.legal_actions() == sorted(codec.UNLOCK + a for a in pb.locked_assets(st.boards[seat]))
    st.apply(codec.UNLOCK + Asset.MASTER_KEY)
    assert Asset.MASTER_KEY not in pb.locked_assets(st.boards[seat])
    st.boards[seat].rested = True
    st.ctx = {"seat": seat, "mp": 3, "gas": 0, "jet_ski": None, "flights": 0, "sewers": 0}
    st.todo = [("action", seat)]
    assert codec.REST not in st.legal_actions()


def test_travel_options_are_reachables() -> None:
    """"Step 1: Travel": one option per destination and minimal set of tiles left (at most 4)."""
    for seed in range(6):
        st = play_until(GAMES[3].new_initial_state(), at("travel"), seed)
        seat = st.todo[0][1]
        found = reachable(st.layout(), st.location[seat], st.ctx["mp"], jet_ski=st.ctx.get("jet_ski"),
                          flights=st.ctx.get("flights", 0), sewers=st.ctx.get("sewers", 0))
        can_end = tasks.HOOKS["can_end_at"]
        expected = {codec.travel(loc, r) for loc, sets in found.items() if can_end(st, seat, loc)
                    for r in range(min(4, len(sets)))}
        escapes = {a for a in st.legal_actions() if codec.ESCAPE <= a < codec.ESCAPE + codec.MAX_ROUTES}
        assert set(st.legal_actions()) - escapes == expected


def test_gas_cans_add_movement_points() -> None:
    """"Step 1: Travel": each gas can returned gives +1 MP for the turn."""
    st = first_turn(3)
    seat = st.todo[0][1]
    st.boards[seat].gas_cans = 2
    st.apply(codec.MOVE)
    assert st.todo[0] == ("gas", seat)
    assert st.legal_actions() == [codec.GAS, codec.GAS + 1, codec.GAS + 2]
    st.apply(codec.GAS + 2)
    assert st.ctx["mp"] == 5 and st.boards[seat].gas_cans == 0 and st.gas_supply == 8
    found = reachable(st.layout(), st.location[seat], 5)
    assert set(st.legal_actions()) == {codec.travel(loc, r) for loc, sets in found.items()
                                       for r in range(min(4, len(sets)))}


def test_avoid_takes_one_wound_per_officer_and_handcuffs() -> None:
    """"Step 2: Avoid": one wound per officer on the tiles left; with the green box empty a Handcuff card
    (from the supply of 10); with none left in the supply the wound does nothing (our reading)."""
    st = first_turn(3)
    seat = st.todo[0][1]
    city = st.game.city
    gang_tile = city.gang_start_tile
    st.location[seat] = next(loc for loc in city.tiles[gang_tile].locations)
    st.officers[gang_tile] = [True, True, True]
    st.apply(codec.MOVE)
    found = reachable(st.layout(), st.location[seat], st.ctx["mp"])
    target = next(loc for loc, sets in found.items() if gang_tile in sets[0])
    board = st.boards[seat]
    board.green, board.red = 1, 2
    cuffs = st.handcuffs
    left = sorted(found[target][0])
    officers = sum(sum(st.officers[t]) for t in left)
    assert officers >= 3
    # by hand: green 1 -> red; then green empty: cuff (a red back); then green -> red again ...
    expected_cuffs = officers // 2
    while st.todo[0][0] != "travel":
        st.apply(st.legal_actions()[0])
    st.apply(codec.travel(target, 0))
    assert st.location[seat] == target
    assert board.green + board.red == 3
    assert st.handcuffs == cuffs - expected_cuffs and board.handcuffs == expected_cuffs
    wounded = [e for e in st.events if e.kind == "Wounded"]
    assert wounded[-1].wounds == officers  # type: ignore[attr-defined]
    st.handcuffs = 0
    before = (board.green, board.red, board.handcuffs)
    from solver.games.escape.phases import wound

    board.green, board.red = 0, 3
    wound(st, seat, 2, "test")
    assert (board.green, board.red, board.handcuffs) == (0, 3, before[2])


# --- escaping ---------------------------------------------------------------------------------------------

def escape_position(players: int) -> EscapeState:
    """A day-3 position where the player to move may escape."""
    for seed in range(200):
        st = GAMES[players].new_initial_state()
        try:
            play_until(st, lambda s: s.day == 3 and s.part >= 0 and at("travel")(s)
                       and any(codec.ESCAPE <= a < codec.ESCAPE + 4 for a in s.legal_actions()), seed)
        except AssertionError:
            continue
        return st
    raise AssertionError("no escape position found")


def test_escape_costs_and_the_fee_after_the_first_escape() -> None:
    """"Escaping the City": the first leaves free (avoiding the exit tile's officers too), the next pay by
    order; after the first escape every other player pays $1k before each action or is arrested."""
    st = escape_position(3)
    seat = st.todo[0][1]
    exit_loc = escape_exit(st)
    exit_tile = st.game.city.locations[exit_loc].tile
    st.officers[exit_tile] = [True, False, False]
    money = st.boards[seat].money
    red = st.boards[seat].red + st.boards[seat].handcuffs
    others = [p for p in st.order if p != seat]
    money_now = {p: st.boards[p].money for p in others}
    action = next(a for a in st.legal_actions() if codec.ESCAPE <= a < codec.ESCAPE + 4)
    st.apply(action)
    assert exit_tile in st.ctx.get("left", []) or st.escaped[seat]
    while st.ctx.get("seat") == seat and not st.escaped[seat] and not st.arrested[seat]:
        st.apply(st.legal_actions()[0])
    assert st.escaped[seat] and st.boards[seat].money == money  # the first escape costs 0
    assert st.boards[seat].red + st.boards[seat].handcuffs > red or st.boards[seat].green == 0
    # the next other player to act has paid $1k first (day 3: nothing else changes money here)
    def turn_begun(s: EscapeState) -> bool:  # the first decision of another player's turn
        head = s.todo[0] if s.todo else ()
        return (not s.is_terminal() and head[1:2] in ((others[0],), (others[1],))
                and (head[0] == "action" or head[0] == "exec_window" and head[2:] == ("start",)))

    nxt = play_until(st.clone(), turn_begun, 0)
    payer = nxt.todo[0][1]
    assert nxt.boards[payer].money == money_now[payer] - 1
    # a broke player is arrested at his turn, before any action
    victim = others[0]
    st.boards[victim].money = 0
    st.ctx = {}
    st.todo = []
    _run(st, ("turn", victim))
    assert st.arrested[victim] and not st.escaped[victim] and not st.todo
    assert any(e.kind == "Arrested" for e in st.events)


def test_second_escape_pays_by_order_or_is_arrested() -> None:
    """"Escaping the City": the second player to leave a 3-player game pays $5k; without it, arrest."""
    st = escape_position(3)
    seat = st.todo[0][1]
    st.escapes = 1  # somebody left before
    st.escaped[(seat + 1) % 3] = True
    st.boards[seat].money = 5
    action = next(a for a in st.legal_actions() if codec.ESCAPE <= a < codec.ESCAPE + 4)
    twin = st.clone()
    st.apply(action)
    while not st.escaped[seat]:
        st.apply(st.legal_actions()[0])
    assert st.boards[seat].money == 0 and st.escapes == 2
    twin.boards[seat].money = 4
    twin.apply(action)
    while not twin.arrested[seat]:
        twin.apply(twin.legal_actions()[0])
    assert not twin.escaped[seat]


# --- the end ----------------------------------------------------------------------------------------------

def test_returns_of_a_finished_game() -> None:
    """"Final Scoring": only escaped players may win; ties on every key share the win (+1 each)."""
    st = play_until(GAMES[4].new_initial_state(), lambda s: s.is_terminal(), 0)
    st2 = st.clone()
    for s in range(4):  # fresh boards: no visit, no wound; the score is the money (row 1 costs 0)
        st2.boards[s] = pb.PlayerBoard(st2.game.content)
        st2.escaped[s] = s in (1, 2, 3)
        st2.boards[s].money = 20
    st2.boards[0].money = 99  # not escaped: cannot win
    st2.boards[3].money = 10
    assert st2.returns() == [-1.0, 1.0, 1.0, -1.0]
    st2.boards[2].notoriety = 2  # same total, more notoriety: seat 1 wins the tie-break
    assert st2.returns() == [-1.0, 1.0, -1.0, -1.0]
    for s in range(4):
        st2.escaped[s] = False
    assert st2.returns() == [-1.0] * 4


def test_returns_are_zero_while_playing() -> None:
    st = first_turn(3)
    assert st.returns() == [0.0, 0.0, 0.0]


# --- protocol ---------------------------------------------------------------------------------------------

def test_json_round_trip_and_clone_independence() -> None:
    st = play_until(GAMES[3].new_initial_state(), lambda s: s.day == 2 and at("action")(s), 5)
    back = st.game.state_from_json(json.loads(json.dumps(st.to_json())))
    assert back.to_json() == st.to_json()
    assert all(back.view(s).to_json() == st.view(s).to_json() for s in range(3))
    twin = st.clone()
    before = st.view(0).to_json()
    play_until(twin, lambda s: s.day == 3, 6)
    assert st.view(0).to_json() == before
    assert st.boards[0] is not twin.boards[0] and st.officers is not twin.officers


def test_seeded_determinism() -> None:
    a = play_until(GAMES[4].new_initial_state(), lambda s: s.is_terminal(), 11)
    b = play_until(GAMES[4].new_initial_state(), lambda s: s.is_terminal(), 11)
    assert a.history == b.history and a.returns() == b.returns()


def test_codec_round_trip_and_notation() -> None:
    game = GAMES[3]
    names = {codec.REST: "rest", codec.travel(6, 1): "travel store A route 2",
             codec.place((1, -1), 3): "place at 1,-1 rot 3", codec.UNLOCK + Asset.HEAL: "unlock heal",
             codec.ESCAPE: "escape route 1"}
    for action, text in names.items():
        assert game.action_to_str(action) == text and game.str_to_action(text) == action
    count = 0
    for action in range(codec.NUM_ACTIONS):
        try:
            text = game.action_to_str(action)
        except Exception:
            continue
        count += 1
        assert game.str_to_action(text) == action
    assert count > 1000


def test_illegal_action_rejected() -> None:
    st = first_turn(3)
    with pytest.raises(IllegalActionError):
        st.apply(codec.PASS)


# 4 and 5 players in the slow run (tests/test_escape_games.py plays random games at every count)
@pytest.mark.parametrize("players", [2, 3, pytest.param(4, marks=pytest.mark.slow),
                                     pytest.param(5, marks=pytest.mark.slow)])
def test_random_games_to_the_end(players: int) -> None:
    """Hundreds of seeded random games end after day 3 without an error, within the cap."""
    game = GAMES[players]
    for seed in range(150):
        st = play_until(game.new_initial_state(), lambda s: s.is_terminal(), seed)
        assert st.current_player() == TERMINAL and st.day == 3 and len(st.history) < 1000
        assert len(st.placed) == 14 and sum(st.patrol_on) == 5
        r = st.returns()
        assert all(x in (-1.0, 1.0) for x in r)
        assert sum(1 for x in r if x > 0) == len(st.winners())
        assert all(st.escaped[s] for s in st.winners())


# --- hooks, Sandra, Night and Dawn, the early end ------------------------------------------------------

def test_executive_hooks_drive_the_windows_and_the_avoid_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hooks executive.py will fill: an avoid resource removes an officer from ``ctx["avoid"]``; a
    window with options ends with ``done`` (``take wounds`` in the Avoid step)."""
    from solver.games.escape import turn

    def options(st: EscapeState, seat: int, window: str) -> list[int]:
        return [codec.EXEC] if window == "avoid" and st.ctx["avoid"] else []

    def apply(st: EscapeState, seat: int, window: str, action: int) -> None:
        st.ctx["avoid"].pop(0)

    monkeypatch.setitem(turn.HOOKS, "executive_options", options)
    monkeypatch.setitem(turn.HOOKS, "apply_executive", apply)
    monkeypatch.setitem(turn.HOOKS, "executive_name", lambda game, k: "dodge" if k == 0 else None)
    st = first_turn(3)
    seat = st.todo[0][1]
    city = st.game.city
    gang_tile = city.gang_start_tile
    st.location[seat] = next(iter(city.tiles[gang_tile].locations))
    st.officers[gang_tile] = [True, True, False]
    st.apply(codec.MOVE)
    found = reachable(st.layout(), st.location[seat], st.ctx["mp"])
    target = next(loc for loc, sets in found.items() if sets[0] == frozenset({gang_tile}))
    st.apply(codec.travel(target, 0))
    assert st.todo[0] == ("avoid", seat) and st.legal_actions() == [codec.TAKE_WOUNDS, codec.EXEC]
    assert st.game.action_to_str(codec.EXEC) == "dodge"
    green = st.boards[seat].green
    st.apply(codec.EXEC)
    assert st.todo[0] == ("avoid", seat)
    st.apply(codec.TAKE_WOUNDS)
    assert st.boards[seat].green == green - 1


def test_visit_hook_is_called_except_on_subway_and_heliport(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Step 3: Visit": every destination is visited but a Subway or the Heliport."""
    from solver.games.escape import turn

    calls: list[tuple[int, int]] = []
    monkeypatch.setitem(turn.HOOKS, "visit", lambda st, seat, loc: calls.append((seat, loc)))
    st = play_until(GAMES[3].new_initial_state(), lambda s: s.day == 2, 3)
    city = st.game.city
    moves = [e for e in st.events if e.kind == "Travelled"]
    names = st.game.location_names
    kinds = {names[i]: city.locations[i].kind for i in range(len(names))}
    expected = [e.dest for e in moves if kinds[e.dest] not in ("subway", "heliport")]  # type: ignore[attr-defined]
    assert [names[loc] for _, loc in calls] == expected and expected


def test_sandra_on_a_tile_left_counts_as_an_officer() -> None:
    """"Only 2 Player": Sandra counts as an officer of the type the avoiding player chooses."""
    st = first_turn(2)
    seat = st.todo[0][1]
    city = st.game.city
    st.location[2] = city.hospital  # set by hand: her first turn (sandra.py) has moved her already
    st.apply(codec.MOVE)
    while st.todo[0][0] != "travel":  # gas cans and the travel window, if any: none used
        st.apply(st.legal_actions()[0])
    found = reachable(st.layout(), st.location[seat], st.ctx["mp"])
    legal = set(st.legal_actions())
    target = next(loc for loc, sets in found.items()
                  if city.hospital_tile in sets[0] and codec.travel(loc, 0) in legal)
    st.apply(codec.travel(target, 0))
    assert st.todo[0] == ("sandra_as", seat)
    assert st.legal_actions() == [codec.SANDRA_AS + p for p in range(3)]
    officers = sum(sum(st.officers[t]) for t in found[target][0])
    st.apply(codec.SANDRA_AS + 1)
    wounded = [e for e in st.events if e.kind == "Wounded"][-1]
    assert wounded.wounds == officers + 1  # type: ignore[attr-defined]


def test_night_turn_needs_an_extra_action_disc() -> None:
    """"5. Day Turns": at Night a player with a disc decides whether to spend it for a turn."""
    st = first_turn(3)
    seat = st.order[1]
    st.boards[seat].extra_actions = 1
    st = play_until(st, lambda s: s.part == 3 and s.todo[0] == ("extra_action", seat), 2)
    assert st.legal_actions() == [codec.YES, codec.NO]
    discs = st.boards[seat].extra_actions  # thresholds and assets may have given more since
    st.apply(codec.YES)
    # the Night turn begins: its Action, or first the start window when an executive action is on offer
    assert st.boards[seat].extra_actions == discs - 1
    assert st.todo[0] in (("action", seat), ("exec_window", seat, "start")), st.todo[0]
    assert not any(t == ("extra_action", seat) for t in st.todo)


def test_game_ends_once_nobody_is_left_in_the_city() -> None:
    """"Escaping the City": escaped and arrested players take no more turns; with nobody left the game
    ends after the part's notoriety update."""
    st = first_turn(3)
    st.escaped = [True, True, False]
    st.arrested = [False, False, True]
    st.todo = []
    _run(st, ("part_end", 0))
    assert st.is_terminal() and "escaped or been arrested" in st.reason
    assert st.returns() == [1.0 if s in st.winners() else -1.0 for s in range(3)]
    assert st.returns()[2] == -1.0
