"""Police Precinct rule tables: each rule of the rulebook (shared/rulebooks/police-precinct.txt) against
a position built for it (tests/precinct_positions.py), with expected values computed here by hand.

Stand-in values (the characters' numbers and powers, the cards' texts) come from
docs/precinct-content.md; probabilities are written out with math.comb, never read from the engine.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from math import comb, isclose

import pytest

from solver.core import CHANCE, TERMINAL, DecisionKind
from solver.games.precinct import tasks
from solver.games.precinct.bounds import MOVE_CAP
from solver.games.precinct.content import UPGRADES
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState
from tests.precinct_positions import (
    act,
    after_setup,
    clear_board,
    event_kind,
    give,
    head,
    legal_text,
    load,
    outcomes,
    place,
    play_random,
    put,
    street,
    to_action,
    to_task,
)

DECK_EVIDENCE = {"crime_scene": (4, 10), "interview": (3, 7), "examine_body": (3, 7), "weapon": (3, 5)}


# --- helpers ------------------------------------------------------------------------------------
def cop_of(st: PrecinctState, name: str) -> int:
    """The index of the cop playing character ``name``."""
    names = [c.name for c in st.game.content.characters]
    return next(i for i, c in enumerate(st.cops) if names[c.char] == name)


def fresh(players: int = 4, chars: tuple[str, ...] = ("Costello", "Kirkland", "Pearce", "Hartley"),
          marked: bool = True, **options: object) -> PrecinctState:
    """A cleared board after the set-up with ``chars``, nothing queued."""
    game = load(players, **options)
    st = after_setup(game, chars=list(chars) + [c for c in ("Nakamura", "Alvarez", "Brody", "Okafor")
                                                if c not in chars], marked=marked)
    clear_board(st)
    return st


def run(st: PrecinctState) -> None:
    """Run the queue's bookkeeping up to the next decision (after setting ``todo`` by hand)."""
    tasks.run(st)


def proceed_until(st: PrecinctState, name: str, limit: int = 50) -> None:
    """Answer "proceed" at every decision until the task ``name`` heads the queue."""
    for _ in range(limit):
        if head(st) == name:
            return
        if st.current_player() == CHANCE:
            raise AssertionError(f"a chance node {head(st)} before {name}")
        act(st, "proceed")
    raise AssertionError(f"{name} never came; queue {st.todo[:4]}")


def binom(n: int, p: float) -> dict[str, float]:
    """The success outcomes of ``n`` dice of chance ``p`` each, by notation."""
    return {f"success {k}": comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def hyper(good: int, bad: int, drawn: int) -> dict[str, float]:
    """FOUND outcomes of drawing ``drawn`` from ``good`` evidence and ``bad`` useless cards."""
    total = comb(good + bad, drawn)
    out = {}
    for k in range(drawn + 1):
        p = comb(good, k) * comb(bad, drawn - k) / total
        if p > 0:
            out[f"found {k}"] = p
    return out


def same(a: dict[str, float], b: dict[str, float]) -> bool:
    """Two outcome tables agree (names and probabilities)."""
    return a.keys() == b.keys() and all(isclose(a[k], b[k], abs_tol=1e-12) for k in a)


def bfs(st: PrecinctState, start: int, steps: int, blocked: frozenset[int] = frozenset()) -> dict[int, int]:
    """Streets within ``steps`` moves of ``start`` (one move = through one open intersection), by hand."""
    city = st.game.city
    meets: dict[int, list[int]] = {}
    for s, ends in enumerate(city.ends):
        for i in ends:
            meets.setdefault(i, []).append(s)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if dist[s] == steps:
            continue
        for i in city.ends[s]:
            if i in blocked:
                continue
            for t in meets[i]:
                if t not in dist:
                    dist[t] = dist[s] + 1
                    queue.append(t)
    return dist


def chooser(script: dict[str, list[str]]) -> Callable[[PrecinctState], int]:
    """A set-up chance chooser: per task name, the outcomes (notation) to take in turn, else the first."""
    left = {k: list(v) for k, v in script.items()}

    def choose(st: PrecinctState) -> int:
        name = head(st)
        if left.get(name):
            return st.game.str_to_action(left[name].pop(0))
        return st.chance_outcomes()[0][0]
    return choose


# --- set-up ---------------------------------------------------------------------------------------
# [Set-Up Chart]: players, dirty cop, police cards dealt, street punks used, start turn
CHART_ROWS = [(1, False, 2, 14, 1), (2, False, 2, 14, 1), (3, False, 3, 16, 8), (4, False, 2, 15, 12),
              (4, True, 6, 16, 12), (5, False, 2, 14, 14), (5, True, 5, 16, 14), (6, False, 2, 13, 15),
              (6, True, 4, 15, 15)]


@pytest.mark.parametrize("players,dirty,dealt,punks,start", CHART_ROWS)
def test_setup_chart_rows(players: int, dirty: bool, dealt: int, punks: int, start: int) -> None:
    game = load(players, dirty_cop=dirty)
    st = after_setup(game)
    assert head(st) in ("start", "move")
    cops = 2 if players == 1 else players
    assert len(st.cops) == cops
    if players == 1:  # [Solo Game]: two characters, played separately, both the one seat's
        assert [c.seat for c in st.cops] == [0, 0] and st.cops[0].char != st.cops[1].char
    assert all(len(c.hand) == dealt for c in st.cops)
    assert sum(st.punks) + st.punk_supply == punks  # the punks used: board + supply
    assert sum(st.punks) >= 6
    assert st.turn_track == start
    assert st.patrol_stock == 4 and sum(st.patrol) == 0
    # [Support Vehicle]: 1 or 2 player games, at the police station
    assert st.support == ([street(st, "3rd Avenue North")] if players <= 2 else [])
    assert sum(st.loyalty) == (1 if dirty else 0)
    assert all(c.street == street(st, "3rd Avenue North") for c in st.cops)  # the station's street


def test_setup_first_player_is_the_last_to_pick() -> None:
    st = after_setup(load(4))
    assert st.order == [3, 0, 1, 2]  # [First Player]: the last to choose, then clockwise
    assert st.cop_index == 3


def test_setup_punks_never_a_fourth_in_a_hood() -> None:
    game = load(4)
    st = game.new_initial_state()
    while head(st) != "setup_punk":
        if st.current_player() == CHANCE:
            st.apply(st.chance_outcomes()[0][0])
        elif head(st) == "pick":
            st.apply(st.legal_actions()[0])
        else:
            act(st, "car marked")
    for _ in range(3):
        assert same(outcomes(st), {f"die {v}": 1 / 6 for v in range(1, 7)})
        act(st, "die 2")
    # a 4th punk in Bad Hood 2 is re-rolled: the die is uniform over the other five hoods
    assert same(outcomes(st), {f"die {v}": 1 / 5 for v in (1, 3, 4, 5, 6)})
    for v in (1, 1):
        act(st, f"die {v}")
    assert same(outcomes(st), {f"die {v}": 1 / 5 for v in (1, 3, 4, 5, 6)})
    act(st, "die 1")
    assert st.punks == [3, 3, 0, 0, 0, 0] and head(st) == "stack_block"  # the six set-up punks


def test_setup_emergencies_never_specials_and_the_urgent_token() -> None:
    game = load(4)
    events = game.content.events
    counts = game.content.event_counts
    emergencies = {events[k].name: c for k, c in enumerate(counts) if not events[k].special}
    total = sum(emergencies.values())
    st = game.new_initial_state()
    while head(st) != "setup_emergency":
        if st.current_player() == CHANCE:
            st.apply(st.chance_outcomes()[0][0])
        elif head(st) == "pick":
            st.apply(st.legal_actions()[0])
        else:
            act(st, "car marked")
    assert same(outcomes(st), {f"event {n}": c / total for n, c in emergencies.items()})
    act(st, "event Bank Robbery")
    assert st.urgent == -1
    act(st, "event Assault at City Hall")  # the second red: the token goes on the first placed
    bank = next(e for e, s in enumerate(st.slots) if s is not None and s.building == "Bank")
    assert st.urgent == bank
    assert sum(1 for s in st.slots if s is not None) == 2
    assert st.slots[bank].unknown == -2  # type: ignore[union-attr]  # a face-down marker
    assert st.crime == 0


def test_setup_emergencies_of_two_colours_leave_the_token_aside() -> None:
    choose = chooser({"setup_emergency": ["event Bank Robbery", "event Traffic Accident (Vasel & 2nd)"]})
    st = after_setup(load(4), choose=choose)
    assert st.urgent == -1
    assert {s.card for s in st.slots if s is not None} == {event_kind(st, "Bank Robbery"),
                                                           event_kind(st, "Traffic Accident (Vasel & 2nd)")}


@pytest.mark.parametrize("interview,weapon", [(1, 6), (3, 5), (6, 2)])
def test_setup_investigation_stacks(interview: int, weapon: int) -> None:
    game = load(4)
    st = game.new_initial_state()
    while head(st) != "stack_block":
        if st.current_player() == CHANCE:
            st.apply(st.chance_outcomes()[0][0])
        elif head(st) == "pick":
            st.apply(st.legal_actions()[0])
        else:
            act(st, "car marked")
    assert same(outcomes(st), {f"die {v}": 1 / 6 for v in range(1, 7)})
    act(st, f"die {interview}")
    act(st, f"die {weapon}")
    names = [s.building for s in st.stacks]
    assert names == ["Crime Scene Lot", f"Apartments {interview}", "Morgue", f"Warehouse {weapon}"]
    assert [(s.evidence, s.useless) for s in st.stacks] == list(DECK_EVIDENCE.values())


# --- movement -------------------------------------------------------------------------------------
def _reach(st: PrecinctState) -> set[int]:
    return {a - 32 for a in st.legal_actions()}  # MOVE block


@pytest.mark.parametrize("char,marked,donuts,upgrade,steps", [
    ("Costello", False, 0, False, 2), ("Costello", True, 0, False, 3), ("Costello", True, 2, False, 5),
    ("Brody", False, 0, False, 3), ("Brody", True, 0, False, 4), ("Costello", False, 0, True, 3),
    ("Costello", True, 1, True, 5)])
def test_move_allowance(char: str, marked: bool, donuts: int, upgrade: bool, steps: int) -> None:
    st = fresh(chars=("Costello", "Kirkland", "Pearce", "Brody"))
    i = cop_of(st, char)
    c = st.cops[i]
    c.marked, c.donuts = marked, donuts
    if upgrade:
        c.upgrades = [3]  # "move"
    start = street(st, "Stickel Avenue")
    c.street = start
    to_task(st, i, ("move", i))
    expect = bfs(st, start, steps)
    assert _reach(st) == set(expect)
    # moving as far as the donuts allow pays them; a move within the car's streets pays nothing
    far = max(expect, key=lambda s: expect[s])
    supply = st.donut_supply
    act(st, f"move {st.game.city.streets[far]}")
    paid = max(0, expect[far] - (steps - donuts))
    assert c.street == far and c.donuts == donuts - paid and st.donut_supply == supply + paid


def test_move_overtime_adds_two_streets() -> None:
    st = fresh()
    i = cop_of(st, "Costello")
    give(st, i, "Overtime")
    put(st, i, "Stickel Avenue")
    st.todo = [("start", i), ("move", i)]
    st.at = st.order.index(i)
    run(st)
    assert "play Overtime" in legal_text(st)
    act(st, "play Overtime")
    assert head(st) == "move"  # nothing else to play: the start window closes
    assert _reach(st) == set(bfs(st, street(st, "Stickel Avenue"), 3 + 2))


def test_move_blocked_intersection_rulebook_example() -> None:
    # [PHASE 1] example: from Stickel Avenue with two streets, the accident at Vasel & 1st blocks 1st Av. N.
    st = fresh(marked=False)
    i = cop_of(st, "Costello")
    put(st, i, "Stickel Avenue")
    place(st, 0, "Traffic Accident (Vasel & 1st)", "Vasel & 1st")
    to_task(st, i, ("move", i))
    names = {st.game.city.streets[s] for s in _reach(st)}
    assert names == {"Stickel Avenue", "1st Street South", "2nd Street South", "Vasel Avenue East",
                     "Vasel Avenue West", "2nd Street North"}
    assert "1st Avenue North" in {st.game.city.streets[s] for s in bfs(st, street(st, "Stickel Avenue"), 2)}


def test_move_motorcycle_passes_a_blocked_intersection() -> None:
    st = fresh(chars=("Costello", "Kirkland", "Pearce", "Brody"), marked=False)
    b, c = cop_of(st, "Brody"), cop_of(st, "Costello")
    put(st, b, "Stickel Avenue")
    put(st, c, "Stickel Avenue")
    st.cops[c].marked = True  # three streets each: Brody is unmarked (2) and fast (+1)
    place(st, 0, "Traffic Accident (Vasel & 1st)", "Vasel & 1st")
    blocked = frozenset({st.game.city.intersection_ids["Vasel & 1st"]})
    start = street(st, "Stickel Avenue")
    to_task(st, b, ("move", b))
    assert _reach(st) == set(bfs(st, start, 3))
    to_task(st, c, ("move", c))
    assert _reach(st) == set(bfs(st, start, 3, blocked)) != set(bfs(st, start, 3))


def test_car_side_switch_only_at_the_station_at_the_start() -> None:
    st = fresh()
    i = cop_of(st, "Costello")
    give(st, i, "Coffee Break")  # an old card: the start window opens everywhere
    st.at = st.order.index(i)
    st.todo = [("start", i), ("move", i), ("after_move", i), ("action", i)]
    run(st)
    assert "car unmarked" in legal_text(st)
    act(st, "car unmarked")
    assert not st.cops[i].marked
    assert "car marked" not in legal_text(st) and "car unmarked" not in legal_text(st)
    # away from the station: no switch at the start, and never after moving
    put(st, i, "Stickel Avenue")
    st.cops[i].switched = False
    st.todo = [("start", i), ("move", i), ("after_move", i), ("action", i)]
    run(st)
    assert head(st) == "start"
    assert not {"car marked", "car unmarked"} & set(legal_text(st))
    act(st, "proceed")
    act(st, "move Stickel Avenue")
    assert head(st) == "action"
    assert not {"car marked", "car unmarked"} & set(legal_text(st))


# --- investigation --------------------------------------------------------------------------------
def _investigation(st: PrecinctState, i: int, deck: str) -> None:
    to_action(st, i)
    run(st)
    act(st, f"investigate {deck}")


def test_investigation_card_count_and_found_odds() -> None:
    st = fresh(chars=("Nakamura", "Costello", "Kirkland", "Pearce"), marked=True)
    n, c, k, p = (cop_of(st, x) for x in ("Nakamura", "Costello", "Kirkland", "Pearce"))
    lot = "East Calhoun"  # the Crime Scene Lot's street
    assert st.game.city.buildings["Crime Scene Lot"] == street(st, lot)
    for x in (n, c, k):
        put(st, x, lot)
    st.cops[n].marked = False
    st.cops[n].donuts = 1
    give(st, c, "Crime Lab", "Forensic Breakthrough")
    give(st, p, "Backup")
    _investigation(st, n, "crime_scene")
    act(st, "donuts 1")
    seen: list[str] = []
    while head(st) != "inv_draw":
        opts = legal_text(st)
        seen.append(f"{head(st)}:{st.current_player()}:{sorted(opts)}")
        helps = [o for o in opts if o.startswith("help ")]
        act(st, helps[0] if helps else "proceed")
    # Pearce holds only an arrest card: asked, but nothing to play
    assert any(s.startswith(f"help:{st.cops[p].seat}:['proceed']") for s in seen)
    # 2 (Nakamura) + 1 forensics + 1 unmarked + 2 cars + 1 donut + 1 Crime Lab + 2 (a double symbol)
    drawn = 2 + 1 + 1 + 2 + 1 + 1 + 2
    assert st.ctx["n"] == drawn
    assert same(outcomes(st), hyper(4, 10, drawn))
    assert st.cops[n].donuts == 0


@pytest.mark.parametrize("deck,char,marked,cars,expect", [
    ("interview", "Costello", True, 0, 3), ("interview", "Costello", False, 1, 5),
    ("weapon", "Kirkland", True, 2, 4), ("examine_body", "Pearce", False, 0, 3)])
def test_investigation_card_count_table(deck: str, char: str, marked: bool, cars: int, expect: int) -> None:
    st = fresh(chars=("Costello", "Kirkland", "Pearce", "Hartley"))
    st.stacks[1].building, st.stacks[3].building = "Apartments 2", "Warehouse 5"
    i = cop_of(st, char)
    where = st.game.city.buildings[st.stacks[list(DECK_EVIDENCE).index(deck)].building]
    st.cops[i].street = where
    st.cops[i].marked = marked
    others = [x for x in range(4) if x != i]
    for x in others[:cars]:
        st.cops[x].street = where
    _investigation(st, i, deck)
    assert head(st) == "inv_draw"
    e, u = DECK_EVIDENCE[deck]
    assert st.ctx["n"] == expect
    assert same(outcomes(st), hyper(e, u, expect))


def test_investigation_evidence_to_board_one_useless_out() -> None:
    st = fresh()
    i = cop_of(st, "Pearce")  # investigate 2, upgraded to 3, marked: three cards
    sharpen(st, i)
    put(st, i, "Colfax 2")  # the Morgue
    _investigation(st, i, "examine_body")
    act(st, "found 2")
    assert legal_text(st) == ["place evidence"]  # an honest cop: never "claim useless"
    act(st, "place evidence")
    s = st.stacks[2]
    assert st.placed[2] == 2 and (s.evidence, s.useless) == (1, 7 - 1) and not s.gone
    assert (s.top, s.bottom) == ([], [])  # shuffled
    assert head(st) != "claim"


def test_investigation_completing_a_category_pays_a_donut() -> None:
    st = fresh(chars=("Costello", "Kirkland", "Pearce", "Hartley"))
    st.stacks[3].building = "Warehouse 5"
    i = cop_of(st, "Costello")
    st.cops[i].street = st.game.city.buildings["Warehouse 5"]
    st.placed[3] = 2
    st.stacks[3].evidence = 1
    supply = st.donut_supply
    _investigation(st, i, "weapon")
    assert st.ctx["n"] == 2 + 1  # canvasser
    act(st, "found 1")
    act(st, "place evidence")
    assert st.placed[3] == 3 and st.stacks[3].gone
    assert st.cops[i].donuts == 1 and st.donut_supply == supply - 1
    to_action(st, i)
    run(st)
    assert "investigate weapon" not in legal_text(st)


def test_thorough_cards_go_under_the_stack_unshuffled() -> None:
    st = fresh(chars=("Nakamura", "Costello", "Kirkland", "Pearce"))
    i = cop_of(st, "Nakamura")
    sharpen(st, i)
    seat = st.cops[i].seat
    put(st, i, "Colfax 2")
    s = st.stacks[2]
    s.top = [(True, frozenset({1}))]  # a card someone knows on top stays known where it is
    _investigation(st, i, "examine_body")
    assert st.ctx["n"] == 3 + 1  # forensics
    act(st, "found 0")  # the known top card (evidence) and three unknown useless ones
    act(st, "place evidence")
    assert st.placed[2] == 1
    # three useless cards: one out of the game, two under the stack, known to Nakamura
    assert s.useless == 7 - 1 and s.evidence == 2
    assert s.bottom == [(False, frozenset({seat})), (False, frozenset({seat}))]


def test_thorough_cards_go_below_cards_already_at_the_bottom() -> None:
    st = fresh(chars=("Nakamura", "Costello", "Kirkland", "Pearce"))
    i = cop_of(st, "Nakamura")
    seat = st.cops[i].seat
    put(st, i, "Colfax 2")
    s = st.stacks[2]
    s.bottom = [(True, frozenset({1}))]  # an evidence card put at the very bottom (an emergency's look)
    _investigation(st, i, "examine_body")
    act(st, "found 0")
    act(st, "place evidence")
    drawn = [e for e in st.events if type(e).__name__ == "Investigated"][-1].drawn
    # [Investigate, step 5]: "placed at the bottom of the stack": under the known card (bottom-most
    # last), all the useless cards drawn but the one discarded for good
    assert s.bottom == [(True, frozenset({1}))] + [(False, frozenset({seat}))] * (drawn - 1)


def sharpen(st: PrecinctState, cop: int) -> None:
    """Give ``cop`` the investigation upgrade (+1 card), so a 2-card investigator draws three."""
    st.cops[cop].upgrades.append(UPGRADES.index("investigate"))


def _dirty_game() -> PrecinctState:
    return fresh(dirty_cop=True)


def test_dirty_cop_may_claim_useless() -> None:
    st = _dirty_game()
    i = cop_of(st, "Pearce")
    sharpen(st, i)
    seat = st.cops[i].seat
    st.loyalty = [s == seat for s in range(4)]
    put(st, i, "Colfax 2")
    _investigation(st, i, "examine_body")
    act(st, "found 1")
    assert sorted(legal_text(st)) == ["claim useless", "place evidence"]
    act(st, "claim useless")
    s = st.stacks[2]
    assert st.placed[2] == 0
    assert (s.evidence, s.useless) == (3, 7 - 1)  # the evidence is back; a truly useless card is out
    ev = [e for e in st.events if type(e).__name__ == "Investigated"][-1]
    assert (ev.placed, ev.discarded, ev.drawn) == (0, 1, 3)  # type: ignore[attr-defined]


def test_dirty_cop_cannot_claim_when_all_drawn_are_evidence() -> None:
    st = _dirty_game()
    i = cop_of(st, "Pearce")
    sharpen(st, i)
    st.loyalty = [s == st.cops[i].seat for s in range(4)]
    put(st, i, "Colfax 2")
    _investigation(st, i, "examine_body")
    act(st, "found 3")
    assert legal_text(st) == ["place evidence"]
    act(st, "place evidence")
    assert st.placed[2] == 3 and st.stacks[2].gone and st.stacks[2].useless == 7


def test_honest_cop_never_hides_in_a_dirty_game() -> None:
    st = _dirty_game()
    i = cop_of(st, "Pearce")
    st.loyalty = [s != st.cops[i].seat and s == (st.cops[i].seat + 1) % 4 for s in range(4)]
    put(st, i, "Colfax 2")
    _investigation(st, i, "examine_body")
    act(st, "found 1")
    assert legal_text(st) == ["place evidence"]


# --- arrests --------------------------------------------------------------------------------------
def _arrest_position(char: str = "Kirkland") -> tuple[PrecinctState, int]:
    st = fresh(chars=("Costello", "Kirkland", "Pearce", "Hartley"))
    i = cop_of(st, char)
    put(st, i, "1st Street North")  # Bad Hood 1
    return st, i


def test_arrest_dice_count_and_odds() -> None:
    st, k = _arrest_position("Kirkland")
    c, p = cop_of(st, "Costello"), cop_of(st, "Pearce")
    st.punks[0], st.punk_supply = 3, st.punk_supply - 3
    st.patrol[0], st.patrol_stock = 2, 2
    put(st, p, "1st Street North")
    st.cops[k].donuts = 1
    give(st, c, "Backup", "Riot Squad", "Crime Lab")
    to_action(st, k)
    run(st)
    act(st, "arrest punks")
    assert sorted(legal_text(st)) == ["officers 0", "officers 1", "officers 2"]
    act(st, "officers 2")
    act(st, "donuts 1")
    act(st, "swat 1")
    while head(st) != "arrest_roll":
        helps = [o for o in legal_text(st) if o.startswith("help ")]
        assert "help Crime Lab" not in helps  # an investigation symbol does not help an arrest
        act(st, helps[0] if helps else "proceed")
    # 1 (Kirkland) + 1 car + 2 officers + 1 donut + 2 (one SWAT token) + 1 Backup + 2 Riot Squad (double)
    assert same(outcomes(st), binom(10, 4 / 6))
    assert st.patrol[0] == 0 and st.patrol_stock == 4 and st.cops[k].swat == 1


@pytest.mark.parametrize("punks,p", [(1, 5 / 6), (2, 5 / 6), (3, 4 / 6), (4, 3 / 6), (5, 2 / 6),
                                     (6, 1 / 6), (7, 1 / 6), (9, 1 / 6)])
def test_arrest_each_die_needs_the_punks(punks: int, p: float) -> None:
    st, i = _arrest_position("Costello")  # two dice
    st.punks[0] = punks
    st.punk_supply = 18 - punks
    st.gangs[0] = -1
    to_action(st, i)
    run(st)
    act(st, "arrest punks")
    assert head(st) == "arrest_roll"
    assert same(outcomes(st), binom(2, p))


def test_arrest_removes_punks_and_three_pay_a_donut_and_the_gang_goes() -> None:
    st, i = _arrest_position("Hartley")  # 3 + 1 street smart
    st.punks[0], st.punk_supply = 4, st.punk_supply - 4
    g = st.gang_pool.pop(st.gang_pool.index(3))  # "blockers": no effect on the roll
    st.gangs[0] = g
    to_action(st, i)
    run(st)
    act(st, "arrest punks")
    assert same(outcomes(st), binom(4, 3 / 6))
    act(st, "success 3")
    assert st.punks[0] == 1 and st.cops[i].donuts == 1 and st.gangs[0] == g
    # a second arrest the same turn: the donut is paid once; the last punk takes the gang with him
    to_action(st, i)
    st.cops[i].arrests = 3
    st.cops[i].rewarded = True
    run(st)
    act(st, "arrest punks")
    act(st, "donuts 0")
    act(st, "success 1")
    assert st.punks[0] == 0 and st.gangs[0] == -1 and g in st.gang_pool and st.cops[i].donuts == 1


def test_failed_arrest_goes_to_hospital_draws_no_card_but_the_event() -> None:
    st, i = _arrest_position("Costello")
    st.punks[0], st.punk_supply = 2, st.punk_supply - 2
    give(st, i, "Backup", "Coffee Break", "Tow Truck", "Paperwork")
    deck = sum(st.police)
    to_action(st, i)
    run(st)
    act(st, "arrest punks")
    while head(st) != "arrest_roll":
        act(st, "proceed")
    act(st, "success 0")
    assert st.cops[i].street == street(st, "Colfax 4")  # the Hospital's street
    assert st.game.city.buildings["Hospital"] == street(st, "Colfax 4")
    act(st, "discard Backup")
    act(st, "discard Tow Truck")
    assert sorted(st.game.police_names[k] for k in st.cops[i].hand) == ["Coffee Break", "Paperwork"]
    assert head(st) == "event_draw" and sum(st.police) == deck  # no police card, the event still comes


def test_arrest_the_murderer() -> None:
    st = fresh(chars=("Costello", "Kirkland", "Pearce", "Hartley"))
    i = cop_of(st, "Costello")
    put(st, i, "4th Avenue South")  # Bad Hood 6
    st.turn_track = st.game.content.murderer_turn  # he is in Bad Hood 6
    st.punks[5], st.punk_supply = 2, st.punk_supply - 2
    to_action(st, i)
    run(st)
    assert "arrest murderer" not in legal_text(st)  # the board is not complete
    st.placed = [e for e, _ in DECK_EVIDENCE.values()]
    to_action(st, i)
    run(st)
    assert "arrest murderer" in legal_text(st)
    act(st, "arrest murderer")
    # two punks + the murderer counting as two: each die needs a 4
    assert same(outcomes(st), binom(2, 3 / 6))
    clone = st.clone()
    act(clone, "success 2")  # both punks, not him: he is arrested last
    assert clone.result == 0 and clone.punks[5] == 0
    st2 = fresh(chars=("Costello", "Kirkland", "Pearce", "Hartley"))
    st2.turn_track = st2.game.content.murderer_turn
    st2.placed = [e for e, _ in DECK_EVIDENCE.values()]
    st2.punks[5] = 1
    put(st2, cop_of(st2, "Hartley"), "5th Avenue South")
    h = cop_of(st2, "Hartley")
    to_action(st2, h)
    run(st2)
    act(st2, "arrest murderer")
    assert same(outcomes(st2), binom(3, 4 / 6))  # no street-smart die for the murderer; needs 1 + 2
    act(st2, "success 2")
    assert st2.result == 1 and st2.returns() == [1.0] * 4


# --- emergencies ----------------------------------------------------------------------------------
def test_emergency_dice_and_odds() -> None:
    st = fresh()
    k, c, p = cop_of(st, "Kirkland"), cop_of(st, "Costello"), cop_of(st, "Pearce")
    place(st, 0, "Traffic Accident (Vasel & 1st)", "Vasel & 1st")  # number 3
    adjacent = st.game.city.streets_at(st.game.city.intersection_ids["Vasel & 1st"])
    st.cops[k].street, st.cops[p].street = adjacent[0], adjacent[1]
    st.cops[k].donuts = 1
    give(st, c, "Air Support", "Tow Truck", "Backup")
    to_action(st, k)
    run(st)
    act(st, "handle 1")
    act(st, "donuts 1")
    while head(st) != "em_roll":
        opts = legal_text(st)
        assert "help Backup" not in opts
        pick = [o for o in opts if o in ("help Air Support", "help Tow Truck")]
        act(st, pick[0] if pick else "proceed")
    # 3 (Kirkland) + 1 car adjacent + 1 donut + 1 Air Support (symbol) + 1 Tow Truck (symbol)
    n = 7
    assert isclose(outcomes(st)["roll handled"], 1 - (2 / 6) ** n)


def test_air_support_text_in_another_players_emergency() -> None:
    # [Police Cards]: Air Support "can also be played in other player's turns while following the text"
    st = fresh()
    k, c = cop_of(st, "Kirkland"), cop_of(st, "Costello")
    place(st, 0, "Traffic Accident (Vasel & 1st)", "Vasel & 1st")
    st.cops[k].street = street(st, "1st Avenue North")
    give(st, c, "Air Support")
    to_action(st, k)
    run(st)
    act(st, "handle 1")
    assert head(st) == "help" and st.todo[0][1] == c
    assert "play Air Support" in legal_text(st)


def _unknown_position(kind: str, marked: bool) -> tuple[PrecinctState, int]:
    st = fresh(marked=marked)
    k, c = cop_of(st, "Kirkland"), cop_of(st, "Costello")
    place(st, 0, "Traffic Accident (Stickel & 1st)", "Stickel & 1st", unknown=-2)  # number 4
    st.cops[k].street = st.game.city.streets_at(st.game.city.intersection_ids["Stickel & 1st"])[0]
    give(st, c, "Tow Truck")
    to_action(st, k)
    run(st)
    act(st, "handle 1")
    while head(st) != "unknown":
        opts = legal_text(st)
        act(st, "help Tow Truck" if "help Tow Truck" in opts else "proceed")
    counts = st.game.content.unknown_counts
    names = st.game.unknown_names
    assert same(outcomes(st), {f"unknown {names[u]}": n / sum(counts) for u, n in enumerate(counts) if n})
    act(st, f"unknown {kind}")
    return st, k


# kind, marked, dice (Kirkland 3 + Tow Truck 1), number needed (4)
UNKNOWN_TABLE = [
    ("insider_knowledge", True, 4, 4), ("punks", True, 3, 4), ("stolen_goods", True, 4, 4),
    ("disrespect", True, 3, 4), ("disrespect", False, 4, 4), ("respect", True, 5, 4),
    ("respect", False, 4, 4), ("angry_dog", False, 3, 4), ("big_knife", True, 4, 5),
    ("shotgun", True, 3, 4), ("hostage", True, 3, 4), ("bomb", False, 3, 4)]


@pytest.mark.parametrize("kind,marked,dice,need", UNKNOWN_TABLE)
def test_unknown_circumstances_change_the_roll(kind: str, marked: bool, dice: int, need: int) -> None:
    st, _ = _unknown_position(kind, marked)
    while head(st) != "em_roll":
        act(st, "proceed")
    assert isclose(outcomes(st)["roll handled"], 1 - ((need - 1) / 6) ** dice)


def test_unknown_insider_knowledge_and_stolen_goods_bonuses() -> None:
    st, k = _unknown_position("insider_knowledge", True)
    while head(st) != "em_roll":
        act(st, "proceed")
    act(st, "roll handled")
    assert head(st) == "deck"  # the marker's bonus first: look at two cards of a stack
    act(st, "deck crime_scene")
    assert head(st) == "look"
    st2, k2 = _unknown_position("stolen_goods", True)
    while head(st2) != "em_roll":
        act(st2, "proceed")
    act(st2, "roll handled")
    assert head(st2) == "deal_police" and st2.todo[0][1] == k2


def _handle(st: PrecinctState, i: int, card: str, where: str, result: str, unknown: int = -1) -> None:
    slot = place(st, 0, card, where, unknown=unknown)
    st.cops[i].street = slot.where if slot.at != 1 else st.game.city.streets_at(slot.where)[0]
    to_action(st, i)
    run(st)
    act(st, "handle 1")
    while head(st) != "em_roll":
        if st.current_player() == CHANCE:
            st.apply(st.chance_outcomes()[0][0])
        else:
            act(st, "proceed")
    act(st, result)


def test_emergency_both_rewards() -> None:
    st = fresh()
    i = cop_of(st, "Kirkland")
    supply = st.donut_supply
    _handle(st, i, "Bank Robbery", "Bank", "roll handled")  # police card and donut, both
    assert st.slots[0] is None and st.event_discard[event_kind(st, "Bank Robbery")] == 1
    assert head(st) == "deal_police"
    hand = len(st.cops[i].hand)
    act(st, "police Backup")
    assert len(st.cops[i].hand) == hand + 1
    assert st.cops[i].donuts == 1 and st.donut_supply == supply - 1


def test_emergency_reward_choice_and_federal_agent() -> None:
    st = fresh()
    i = cop_of(st, "Kirkland")
    _handle(st, i, "Gang Fight", "Knights Apartments", "roll handled")
    assert legal_text(st) == ["proceed"]  # no Federal Agent token
    act(st, "proceed")
    assert sorted(legal_text(st)) == ["reward donut", "reward police_card"]
    act(st, "reward donut")
    assert st.cops[i].donuts == 1
    st = fresh()
    p = cop_of(st, "Pearce")
    assert st.cops[p].fed == 1
    place(st, 1, "Assault at City Hall", "City Hall")
    _handle(st, p, "Gang Fight", "Knights Apartments", "roll handled")
    assert sorted(legal_text(st)) == ["proceed", "yes"]
    act(st, "yes")
    assert st.cops[p].fed == 0 and head(st) == "deal_police"
    act(st, "police Backup")
    assert st.cops[p].donuts == 1 and len(st.cops[p].hand) == 1


def test_emergency_failure_stays_and_hospital_cards_injure() -> None:
    st = fresh()
    i = cop_of(st, "Kirkland")
    _handle(st, i, "Gang Fight", "Knights Apartments", "roll failed")
    assert st.slots[0] is not None and st.crime == 0 and st.cops[i].street == street(st, "Riverside Avenue")
    st = fresh()
    i = cop_of(st, "Kirkland")
    _handle(st, i, "Bank Robbery", "Bank", "roll failed", unknown=-2)
    slot = st.slots[0]
    assert slot is not None and slot.unknown >= 0  # the revealed marker stays face up
    assert st.cops[i].street == street(st, "Colfax 4") and st.cops[i].hospital


def test_burglars_reward_skips_the_event() -> None:
    st = fresh()
    i = cop_of(st, "Kirkland")
    _handle(st, i, "Burglars", "Apartments 3", "roll handled")
    assert not any(t[0] == "event_draw" for t in st.todo)
    while st.todo and head(st) != "turn_start" and st.current_player() != CHANCE:
        act(st, legal_text(st)[0])
    assert not any(t[0] == "event_draw" for t in st.todo)
    assert head(st) in ("start", "move", "deal_police")


# --- the Urgent! token and the City Crime Track ---------------------------------------------------
def _draw_event(st: PrecinctState, i: int, name: str) -> None:
    to_task(st, i, ("event_draw", i), rest=False)
    act(st, f"event {name}")


def _slot_of(st: PrecinctState, name: str) -> int:
    k = event_kind(st, name)
    return next(e for e, s in enumerate(st.slots) if s is not None and s.card == k)


def test_urgent_second_of_a_colour() -> None:
    st = fresh()
    place(st, 0, "Bank Robbery", "Bank")
    _draw_event(st, 0, "Assault at City Hall")
    assert st.urgent == 0 and st.crime == 0  # from beside the board: nothing else happens


def test_urgent_rule1_third_of_a_colour() -> None:
    st = fresh()
    place(st, 0, "Bank Robbery", "Bank")
    place(st, 1, "Assault at City Hall", "City Hall")
    st.urgent = 0
    _draw_event(st, 0, "Gang Fight")
    assert st.slots[0] is None and st.crime == 1
    assert st.urgent == _slot_of(st, "Assault at City Hall")  # the other card, not the new one


def test_urgent_rule2_second_of_another_colour() -> None:
    # the rulebook's example: blue (urgent) and blue, red on the board; a second red fails the blue
    st = fresh()
    place(st, 0, "Traffic Accident (Vasel & 2nd)", "Vasel & 2nd")
    place(st, 1, "Bank Robbery", "Bank")
    place(st, 2, "Traffic Accident (Stickel & 2nd)", "Stickel & 2nd")
    st.urgent = 0
    _draw_event(st, 0, "Assault at City Hall")
    assert st.slots[0] is None and st.crime == 1
    assert st.urgent == 1  # the first placed red card


def test_urgent_example_sequence() -> None:
    st = fresh()
    place(st, 0, "Bank Robbery", "Bank")
    place(st, 1, "Traffic Accident (Vasel & 2nd)", "Vasel & 2nd")
    _draw_event(st, 0, "Traffic Accident (Stickel & 2nd)")
    assert st.urgent == 1 and st.crime == 0
    _draw_event(st, 0, "Assault at City Hall")
    assert st.slots[1] is None and st.crime == 1 and st.urgent == 0


def test_urgent_stays_when_its_card_is_the_only_one_of_the_colour() -> None:
    st = fresh()
    place(st, 0, "Bank Robbery", "Bank")
    st.urgent = 0  # its partner was handled
    _draw_event(st, 0, "Assault at City Hall")
    assert st.urgent == 0 and st.slots[0] is not None and st.crime == 0


def test_urgent_returns_when_its_card_is_handled() -> None:
    st = fresh()
    place(st, 0, "Assault at City Hall", "City Hall")
    place(st, 1, "Bank Robbery", "Bank")
    st.urgent = 0
    i = cop_of(st, "Kirkland")
    put(st, i, "Vasel Avenue East")  # City Hall's street
    assert st.game.city.buildings["City Hall"] == street(st, "Vasel Avenue East")
    to_action(st, i)
    run(st)
    act(st, "handle 1")
    while head(st) != "em_roll":
        act(st, "proceed")
    act(st, "roll handled")
    assert st.urgent == -1 and st.slots[0] is None and st.slots[1] is not None


def test_crime_no_punks_in_supply_discards_the_card() -> None:
    st = fresh()
    st.punks = [3, 3, 3, 3, 3, 3]
    st.punk_supply = st.game.punks - 18
    assert st.punk_supply < 2
    _draw_event(st, 0, "Gang Fight")
    assert st.crime == 1 and all(s is None for s in st.slots)
    assert st.event_discard[event_kind(st, "Gang Fight")] == 1 and st.punks == [3] * 6


def test_crime_no_gang_marker_left() -> None:
    st = fresh()
    st.punks[0] = 3
    st.punk_supply -= 3
    st.gang_pool = []
    _draw_event(st, 0, "Vandalism on East Calhoun")
    assert same(outcomes(st), {f"die {v}": 1 / 6 for v in range(1, 7)})
    act(st, "die 1")
    assert st.punks[0] == 4 and st.crime == 1 and st.gangs[0] == -1


def test_gang_marker_drawn_at_four_punks() -> None:
    st = fresh()
    st.punks[2] = 3
    st.punk_supply -= 3
    _draw_event(st, 0, "Vandalism on East Calhoun")
    act(st, "die 3")
    assert head(st) == "gang"
    assert same(outcomes(st), {f"gang {g}": 1 / 4 for g in st.game.gang_names})
    act(st, "gang lookouts")
    assert st.gangs[2] == 2 and st.crime == 0 and 2 not in st.gang_pool


def test_crime_event_deck_reshuffle() -> None:
    st = fresh()
    k = event_kind(st, "Vandalism on East Calhoun")
    st.event_discard = list(st.events_left)
    st.events_left = [0] * len(st.events_left)
    total = sum(st.event_discard)
    to_task(st, 0, ("event_draw", 0), rest=False)
    assert isclose(outcomes(st)["event Vandalism on East Calhoun"], st.event_discard[k] / total)
    act(st, "event Vandalism on East Calhoun")
    assert st.crime == 1 and sum(st.events_left) == total - 1


def test_crime_double_trigger_from_one_card() -> None:
    # [The City Crime Track] NOTE: the Urgent! removal AND punks that cannot be placed: two steps
    st = fresh()
    place(st, 0, "Bank Robbery", "Bank")
    place(st, 1, "Assault at City Hall", "City Hall")
    st.urgent = 0
    st.punks = [3] * 6
    st.punk_supply = st.game.punks - 18
    _draw_event(st, 0, "Shots Fired at Duffy's Bar")  # red, one punk
    assert st.crime == 2


def test_crime_fail_ends_the_game_lost() -> None:
    st = fresh(dirty_cop=True)
    st.loyalty = [False, False, True, False]
    st.crime = st.game.content.crime_fail - 1
    st.punk_supply = 0
    _draw_event(st, 0, "Gang Fight")
    assert st.result == -1 and st.is_terminal() and st.current_player() == TERMINAL
    assert st.returns() == [-1.0, -1.0, 1.0, -1.0]


# --- police cards ---------------------------------------------------------------------------------
def test_own_turn_text_never_a_card_received_this_turn() -> None:
    st = fresh()
    i = cop_of(st, "Costello")
    put(st, i, "Stickel Avenue")
    give(st, i, "Coffee Break", fresh=True)
    st.at = st.order.index(i)
    st.todo = [("start", i), ("move", i)]
    run(st)
    assert head(st) == "move"  # the only card is new: no start window
    give(st, i, "Informant Tip")
    st.todo = [("start", i), ("move", i)]
    run(st)
    assert sorted(legal_text(st)) == ["play Informant Tip", "proceed"]
    to_action(st, i)
    run(st)
    assert "play Coffee Break" not in legal_text(st) and "play Informant Tip" in legal_text(st)
    assert not any(o.startswith("help ") for o in legal_text(st))


def test_symbols_only_on_others_turns_and_air_support_text() -> None:
    st = fresh()
    k, c = cop_of(st, "Kirkland"), cop_of(st, "Costello")
    st.punks[0] = 1
    put(st, k, "1st Street North")
    give(st, c, "Backup", "Air Support", "Overtime", "Coffee Break")
    give(st, k, "Backup", "Air Support", "Riot Squad", "Tow Truck")
    to_action(st, k)
    run(st)
    act(st, "arrest punks")
    act(st, "swat 0")
    seen = {}
    while head(st) != "arrest_roll":
        who = st.todo[0][1]
        seen[who] = sorted(legal_text(st))
        act(st, "proceed")
    # another's turn: symbols (Backup, Overtime: handcuffs) and Air Support's text
    assert seen[c] == ["help Backup", "help Overtime", "play Air Support", "proceed"]
    # his own turn: texts only (Backup, Riot Squad: +2; Air Support), never a symbol
    assert seen[k] == ["play Air Support", "play Backup", "play Riot Squad", "proceed"]


def test_own_roll_cards_received_this_turn_are_not_offered() -> None:
    st = fresh()
    k = cop_of(st, "Kirkland")
    st.punks[0] = 1
    put(st, k, "1st Street North")
    give(st, k, "Backup", fresh=True)
    to_action(st, k)
    run(st)
    act(st, "arrest punks")
    act(st, "swat 0")
    while head(st) != "arrest_roll":
        assert st.todo[0][1] != k, "asked to play a card received this turn"
        act(st, "proceed")


@pytest.mark.parametrize("char,cards,discards", [("Costello", 6, 0), ("Costello", 7, 1), ("Okafor", 8, 0),
                                                 ("Okafor", 9, 1)])
def test_hand_limit_at_the_end_of_the_turn(char: str, cards: int, discards: int) -> None:
    st = fresh(chars=("Costello", "Kirkland", "Pearce", "Okafor"))
    i = cop_of(st, char)
    names = ["Backup"] * 4 + ["Crime Lab"] * 3 + ["Paperwork"] * 3
    give(st, i, *names[:cards])
    to_task(st, i, ("police_phase", i), rest=False)
    st.todo += [("hand_limit", i), ("event_phase", i)]
    run(st)
    act(st, "police Tow Truck")
    for _ in range(discards):
        assert head(st) == "discard"
        act(st, "discard Backup")
    assert head(st) == "event_draw"
    assert len(st.cops[i].hand) == min(cards + 1, 9 if char == "Okafor" else 7)


def test_dispatch_officers_only_at_the_station() -> None:
    st = fresh()
    i = cop_of(st, "Costello")
    give(st, i, "Dispatch Officers")
    to_action(st, i)
    run(st)
    assert "play Dispatch Officers" in legal_text(st)
    put(st, i, "Stickel Avenue")
    to_action(st, i)
    run(st)
    assert "play Dispatch Officers" not in legal_text(st)
    st.at = st.order.index(i)
    st.todo = [("start", i), ("move", i)]
    run(st)
    assert "play Dispatch Officers" not in legal_text(st)


def test_dispatch_officers_takes_every_officer_at_the_start() -> None:
    st = fresh()
    i = cop_of(st, "Costello")
    give(st, i, "Dispatch Officers")
    st.patrol[2], st.patrol_stock = 1, 3
    st.at = st.order.index(i)
    st.todo = [("start", i), ("move", i)]
    run(st)
    act(st, "play Dispatch Officers")
    assert st.patrol_stock == 4 and st.patrol == [0] * 6  # every officer, from the board too
    for h in (1, 1, 4):  # the card acts at once, before the start window closes
        act(st, f"hood {h}")
    act(st, "proceed")
    assert st.patrol == [2, 0, 0, 1, 0, 0] and st.patrol_stock == 1
    while head(st) == "start":
        act(st, "proceed")
    assert head(st) == "move"


@pytest.mark.parametrize("card,task", [("Fresh Perspective", "deck"), ("Dispatch Officers", "dispatch")])
def test_text_card_in_the_action_phase_resolves_before_the_action(card: str, task: str) -> None:
    # [Police Cards]: playing a card is not an action; Fresh Perspective's look is meant to inform it
    st = fresh()
    i = cop_of(st, "Costello")
    give(st, i, card)
    to_action(st, i)
    run(st)
    act(st, f"play {card}")
    assert head(st) == task


def test_two_draws_with_one_police_card_left() -> None:
    # Okafor's "Draw a Police Card" draws two; the deck and discard pile hold one card between them
    st = fresh(chars=("Okafor", "Costello", "Kirkland", "Pearce"))
    i = cop_of(st, "Okafor")
    st.police = [0] * len(st.police)
    st.police_discard = [0] * len(st.police)
    st.police[st.game.police_names.index("Backup")] = 1
    to_action(st, i, rest=False)
    run(st)
    act(st, "draw card")
    assert outcomes(st) == {"police Backup": 1.0}
    act(st, "police Backup")
    assert st.is_terminal() or st.legal_actions(), f"stuck at {st.todo[:2]}"


# --- the turn track and the murderer --------------------------------------------------------------
def _first_player_turn(st: PrecinctState) -> None:
    last = st.order[-1]
    to_task(st, last, ("end_turn", last), rest=False)
    run(st)


def test_turn_track_advances_at_each_first_player_turn_only() -> None:
    st = after_setup(load(4))
    assert st.turn_track == 12  # the very first turn does not advance it
    clear_board(st)
    mid = st.order[1]
    to_task(st, mid, ("end_turn", mid), rest=False)
    run(st)
    assert st.turn_track == 12
    _first_player_turn(st)
    assert st.turn_track == 13 and st.at == 0


def test_murderer_appears_and_escapes() -> None:
    st = fresh()
    st.turn_track = st.game.content.murderer_turn - 1
    seen = []
    for _ in range(6):
        _first_player_turn(st)
        seen.append(st.view(0).to_json()["murderer"])
    assert seen == [6, 5, 4, 3, 2, 1]  # Bad Hood 6 on the 16th, one lower each first player's turn
    assert st.result == 0
    _first_player_turn(st)
    assert st.result == -1 and "escaped" in st.reason


# --- special events -------------------------------------------------------------------------------
def _paid(st: PrecinctState, i: int, card: str, donuts_before: int = 0) -> None:
    """Cop ``i`` was paid every reward printed on special ``card`` ("take any applicable rewards")."""
    rewards = st.game.content.events[event_kind(st, card)].rewards
    assert st.cops[i].donuts == donuts_before + rewards.count("donut")
    queued = [t for t in st.todo if t[0] == "deal_police" and t[1] == i]
    assert len(queued) == rewards.count("police_card")


def _away(st: PrecinctState, *keep: int) -> None:
    """Park every other cop far from the station (no cars adjacent to what is tested)."""
    for x in range(len(st.cops)):
        if x not in keep:
            put(st, x, "5th Street South")


def test_special_problems_in_the_hood() -> None:
    st = fresh()
    st.punks = [2, 1, 0, 3, 0, 2]
    st.punk_supply = st.game.punks - 8
    _draw_event(st, 0, "Problems in the Hood")
    assert st.punks == [3, 1, 0, 4, 0, 3] and head(st) == "gang"
    assert st.event_discard[event_kind(st, "Problems in the Hood")] == 1


def test_special_street_riot() -> None:
    st = fresh()
    _draw_event(st, 0, "Street Riot")
    act(st, "die 3")
    e = _slot_of(st, "Street Riot")
    assert st.punks[2] == 2 and st.slots[e].where == 3  # type: ignore[union-attr]
    _first_player_turn(st)
    assert st.punks[2] == 3  # the riot adds a punk at each first player's turn
    st.punks[2] = 0
    to_task(st, 0, ("end_turn", 0), rest=False)
    run(st)
    assert st.slots[e] is None and st.crime == 0  # gone with its punks


def test_special_gas_leak() -> None:
    st = fresh()
    _draw_event(st, 0, "Gas Leak")
    e = _slot_of(st, "Gas Leak")
    i, j = cop_of(st, "Costello"), cop_of(st, "Kirkland")
    put(st, i, "West Calhoun")
    give(st, i, "Backup", "Tow Truck")
    to_action(st, i)
    run(st)
    assert f"handle {e + 1}" not in legal_text(st)  # one car is not enough
    put(st, j, "West Calhoun")
    to_action(st, i)
    run(st)
    clone = st.clone()
    act(st, f"handle {e + 1}")
    act(st, "discard Backup")
    act(st, "discard Tow Truck")
    assert st.slots[e] is None and st.crime == 0 and st.cops[i].hand == []
    _paid(st, i, "Gas Leak")
    # left alone, each event phase rolls a die against the card's number (2): below it, it explodes
    # and the cars on West Calhoun go to the hospital
    clone.todo = [("event_phase", i)]
    run(clone)
    outs = outcomes(clone)
    assert head(clone) == "gas" and isclose(sum(outs.values()), 1)
    assert isclose(outs.get("die 1", 0), 1 / 6) and "die 1" in outs
    calm = clone.clone()
    act(calm, next(o for o in outs if o != "die 1"))
    assert calm.slots[e] is not None and calm.crime == 0
    act(clone, "die 1")
    assert clone.slots[e] is None and clone.crime == 1
    assert clone.cops[j].street == street(clone, "Colfax 4")


def test_special_jail_break() -> None:
    st = fresh()
    _draw_event(st, 0, "Jail Break")
    e = _slot_of(st, "Jail Break")
    assert st.slots[e].building == "Police Station" and st.slots[e].data == 2  # type: ignore[union-attr]
    route = []
    for _ in range(3):
        st.todo = [("event_phase", 0)]
        st.cops[0].skip_event = False
        run(st)
        slot = st.slots[e]
        route.append(slot.building if slot else None)
    assert route == ["Hospital", "Knights Apartments", None] and st.crime == 1


def test_special_jail_break_arrest() -> None:
    st = fresh()
    _draw_event(st, 0, "Jail Break")
    e = _slot_of(st, "Jail Break")
    i = cop_of(st, "Costello")
    _away(st, i)
    to_action(st, i, rest=False)
    run(st)
    act(st, f"handle {e + 1}")
    while head(st) != "arrest_roll":
        act(st, "proceed")
    assert same(outcomes(st), binom(2, 5 / 6))  # two escapees: each die needs a 2
    act(st, "success 2")
    assert st.slots[e] is None and st.crime == 0
    _paid(st, i, "Jail Break")


def test_special_detainees_run_amok_hold_the_station() -> None:
    st = fresh()
    i = cop_of(st, "Costello")
    give(st, i, "Dispatch Officers")
    st.cops[i].donuts = 1
    _draw_event(st, 0, "Detainees Run Amok")
    to_action(st, i)
    run(st)
    opts = legal_text(st)
    assert not any(o.startswith("upgrade") for o in opts) and "play Dispatch Officers" not in opts
    e = _slot_of(st, "Detainees Run Amok")
    assert f"handle {e + 1}" in opts
    st.todo = [("start", i), ("move", i)]
    run(st)
    assert not {"car marked", "car unmarked"} & set(legal_text(st))


def test_special_dedicated_officer() -> None:
    st = fresh()
    _draw_event(st, 1, "Dedicated Officer")
    assert head(st) == "hood" and st.todo[0][1] == 1
    act(st, "hood 5")
    assert st.patrol[4] == 1 and st.patrol_stock == 3


def test_special_officer_down() -> None:
    st = fresh()
    _draw_event(st, 0, "Officer Down")
    assert st.patrol_stock == 3
    act(st, "die 2")
    e = _slot_of(st, "Officer Down")
    i = cop_of(st, "Kirkland")
    _away(st)
    put(st, i, "2nd Street North")  # Bad Hood 2's sidewalk
    assert st.game.city.hood_of(street(st, "2nd Street North")) == 2
    to_action(st, i, rest=False)
    run(st)
    act(st, f"handle {e + 1}")
    while head(st) != "em_roll":
        act(st, "proceed")
    assert isclose(outcomes(st)["roll handled"], 1 - (3 / 6) ** 3)
    act(st, "roll handled")
    assert st.patrol_stock == 4 and st.slots[e] is None
    _paid(st, i, "Officer Down")


def test_special_officer_down_without_officers_fails() -> None:
    st = fresh()
    st.patrol_stock = 0
    _draw_event(st, 0, "Officer Down")
    assert st.crime == 1 and all(s is None for s in st.slots)


def test_special_overburdened() -> None:
    st = fresh()
    st.patrol, st.patrol_stock = [1, 0, 2, 0, 0, 0], 1
    _draw_event(st, 0, "Overburdened")
    assert st.patrol == [0] * 6 and st.patrol_stock == 4


def test_special_crime_wave() -> None:
    st = fresh()
    st.punks[0], st.punk_supply = 3, st.punk_supply - 3
    _draw_event(st, 0, "Crime Wave")
    for v in (1, 2, 2):
        if head(st) == "gang":
            act(st, "gang blockers")
        assert same(outcomes(st), {f"die {d}": 1 / 6 for d in range(1, 7)})  # no re-roll after set-up
        act(st, f"die {v}")
    assert st.punks[:2] == [4, 2] and st.gangs[0] == 3
    st = fresh()
    st.punks, st.punk_supply = [3, 3, 3, 3, 3, 0], 2
    _draw_event(st, 0, "Crime Wave")
    assert st.crime == 1 and st.punks == [3, 3, 3, 3, 3, 0]


def test_special_escort_van() -> None:
    st = fresh()
    _draw_event(st, 0, "Escort Van")
    e = _slot_of(st, "Escort Van")
    assert st.slots[e].where == st.game.station  # type: ignore[union-attr]
    i = cop_of(st, "Costello")
    to_task(st, i, ("move", i), rest=False)
    act(st, "move City Hall".replace("City Hall", st.game.city.streets[st.game.city.buildings["City Hall"]]))
    assert head(st) == "van"
    act(st, "yes")
    path = st.game.city.path(st.game.station, st.game.city.buildings["City Hall"])
    if len(path) <= 3:
        assert st.slots[e] is None
        _paid(st, i, "Escort Van")
    else:
        assert st.slots[e].where == path[2]  # type: ignore[union-attr]
    st = fresh()
    _draw_event(st, 0, "Escort Van")
    e = _slot_of(st, "Escort Van")
    for _ in range(3):
        _first_player_turn(st)
    assert st.slots[e] is None and st.crime == 1


def test_special_optional_training() -> None:
    st = fresh()
    i = cop_of(st, "Costello")
    put(st, i, "Stickel Avenue")
    _draw_event(st, 0, "Optional Training")
    e = _slot_of(st, "Optional Training")
    to_task(st, i, ("move", i), rest=False)
    act(st, "move 3rd Avenue North")
    assert st.slots[e] is None and head(st) == "deal_police" and st.todo[0][1] == i
    _paid(st, i, "Optional Training")


def test_special_car_theft() -> None:
    st = fresh()
    _draw_event(st, 0, "Car Theft")
    assert same(outcomes(st), {f"die {v}": 1 / 6 for v in range(1, 7)})
    act(st, "die 4")
    e = _slot_of(st, "Car Theft")
    where = st.game.city.buildings["Warehouse 4"]
    assert st.slots[e].where == where  # type: ignore[union-attr]
    st.todo = [("event_phase", 0)]
    run(st)
    assert head(st) == "drive"
    outs = outcomes(st)
    assert isclose(sum(outs.values()), 1) and len(set(outs.values())) == 1
    st.todo = []
    i, j = cop_of(st, "Costello"), cop_of(st, "Kirkland")
    st.cops[i].street = st.cops[j].street = where
    to_task(st, i, ("end_turn", i), rest=False)
    run(st)
    assert st.slots[e] is None and st.crime == 0


@pytest.mark.parametrize("card", ["Car Theft", "Street Riot"])
def test_special_rewards_at_the_end_of_a_turn_are_paid(card: str) -> None:
    st = fresh()
    _draw_event(st, 0, card)
    act(st, "die 4")
    e = _slot_of(st, card)
    i, j = cop_of(st, "Costello"), cop_of(st, "Kirkland")
    if card == "Car Theft":
        st.cops[i].street = st.cops[j].street = st.game.city.buildings["Warehouse 4"]
    else:
        st.punks[3] = 0
    to_task(st, i, ("end_turn", i), rest=False)
    run(st)
    assert st.slots[e] is None
    stuck = [t for t in st.todo if t[0] == "take_reward"]
    assert not stuck, f"rewards still queued behind the next turn: {stuck}"
    rewards = st.game.content.events[event_kind(st, card)].rewards
    assert st.cops[i].donuts == rewards.count("donut")


def test_special_internal_affairs() -> None:
    st = fresh()
    _draw_event(st, 0, "Internal Affairs")
    assert head(st) == "event_draw"  # without a traitor: another event
    st = fresh(dirty_cop=True)
    st.loyalty = [False, False, True, False]
    st.dealt = 4
    i = cop_of(st, "Costello")
    _draw_event(st, i, "Internal Affairs")
    me = st.cops[i].seat
    assert sorted(legal_text(st)) == sorted(f"target {p}" for p in range(4) if p != me)
    act(st, "target 2")
    assert st.view(me).to_json()["known"]["loyalty"] == {"2": "dirty"}
    assert all(st.view(s).to_json()["known"]["loyalty"] == {} for s in range(4) if s != me)


def test_every_special_has_a_test() -> None:
    from solver.games.precinct.eventcards import _SPECIALS

    tests = {n for n in globals() if n.startswith("test_special_")}
    assert len(_SPECIALS) == 13
    missing = [k for k in _SPECIALS if not any(t.startswith(f"test_special_{k}") for t in tests)]
    assert not missing


# --- the Dirty Cop --------------------------------------------------------------------------------
def _enumerate_loyalty(players: int, dirty: int) -> dict[tuple[bool, ...], float]:
    game = load(players, dirty_cop=True, dirty_cops=dirty)
    st = game.new_initial_state()
    while head(st) != "deal_loyalty":
        if head(st) == "pick":
            st.apply(st.legal_actions()[0])
        else:
            act(st, "car marked")
    leaves: dict[tuple[bool, ...], float] = {}

    def walk(s: PrecinctState, p: float) -> None:
        if head(s) != "deal_loyalty":
            leaves[tuple(s.loyalty)] = leaves.get(tuple(s.loyalty), 0) + p
            return
        for a, q in s.chance_outcomes():
            t = s.clone()
            t.apply(a)
            walk(t, p * q)
    walk(st, 1.0)
    return leaves


@pytest.mark.parametrize("players,dirty", [(4, 1), (6, 2), (5, 3)])
def test_loyalty_deal_exactly_the_dirty_cops(players: int, dirty: int) -> None:
    leaves = _enumerate_loyalty(players, dirty)
    assert len(leaves) == comb(players, dirty)
    assert all(sum(k) == dirty for k in leaves)
    assert all(isclose(p, 1 / comb(players, dirty)) for p in leaves.values())


def _accusation(dirty_target: bool) -> tuple[PrecinctState, int]:
    st = fresh(dirty_cop=True)
    st.dealt = 4
    st.loyalty = [False, False, dirty_target, False]
    i = next(x for x, c in enumerate(st.cops) if c.seat == 0)
    j = next(x for x, c in enumerate(st.cops) if c.seat == 1)
    t = next(x for x, c in enumerate(st.cops) if c.seat == 2)
    st.cops[i].donuts, st.cops[j].donuts, st.cops[t].donuts = 1, 2, 1
    give(st, i, "Backup", "Tow Truck")
    give(st, t, "Crime Lab")
    to_action(st, i)
    run(st)
    assert "accuse 2" in legal_text(st) and "accuse 0" not in legal_text(st)
    act(st, "accuse 2")
    while head(st) == "donate":
        who = st.cops[st.todo[0][1]].seat
        # each donor decides in a response window of the accuser's turn
        assert st.decision().kind == (DecisionKind.TURN if who == 0 else DecisionKind.RESPONSE)
        act(st, {0: "donate 1", 1: "donate 2"}.get(who, "donate 0"))
    return st, i


def test_accusing_the_dirty_cop() -> None:
    st, i = _accusation(True)
    t = next(x for x, c in enumerate(st.cops) if c.seat == 2)
    assert st.cops[t].out and st.underground[2] and st.revealed[2]
    assert st.cops[t].hand == [] and st.cops[t].donuts == 0
    assert st.cops[i].donuts == 1  # his own donut spent, one for exposing the dirty cop
    assert st.view(3).to_json()["loyalty"][2] == "dirty"
    assert sorted(st.game.police_names[k] for k in st.cops[i].hand) == ["Backup", "Tow Truck"]


def test_accusing_a_loyal_cop() -> None:
    st, i = _accusation(False)
    t = next(x for x, c in enumerate(st.cops) if c.seat == 2)
    assert not st.cops[t].out and st.revealed[2] and not st.underground[2]
    assert st.cops[i].hand == [] and st.cops[i].donuts == 0
    deck = sum(st.police)
    assert head(st) != "deal_police"
    assert not any(x[0] == "deal_police" for x in st.todo) and sum(st.police) == deck


def test_accusation_with_too_few_donuts_is_dropped() -> None:
    st = fresh(dirty_cop=True)
    st.dealt = 4
    st.loyalty = [False, False, True, False]
    i = next(x for x, c in enumerate(st.cops) if c.seat == 0)
    j = next(x for x, c in enumerate(st.cops) if c.seat == 1)
    st.cops[i].donuts, st.cops[j].donuts = 1, 2
    to_action(st, i)
    run(st)
    act(st, "accuse 2")
    while head(st) == "donate":
        act(st, "donate 0" if st.cops[st.todo[0][1]].seat == 1 else legal_text(st)[-1])
    assert not st.revealed[2] and st.cops[i].donuts == 1 and st.cops[j].donuts == 2


def test_reveal_as_an_action_and_the_loyalty_turn() -> None:
    st = fresh(dirty_cop=True)
    st.dealt = 4
    st.loyalty = [False, True, False, False]
    d = next(x for x, c in enumerate(st.cops) if c.seat == 1)
    st.cops[d].donuts = 2
    st.cops[d].upgrades = [0]
    st.upgrades_left[0] -= 1
    give(st, d, "Backup", "Crime Lab")
    to_action(st, d)
    run(st)
    assert "reveal" in legal_text(st)
    supply = st.donut_supply
    act(st, "reveal")
    c = st.cops[d]
    assert c.out and c.hand == [] and c.upgrades == [] and st.upgrades_left[0] == 3
    assert c.donuts == 2 + st.game.content.reveal_donuts and st.donut_supply == supply - 2
    assert head(st) == "end_turn" or not any(x[0] in ("deal_police", "event_draw") for x in st.todo)
    # his next turn: one loyalty-card action
    to_task(st, st.order[st.order.index(d) - 1], ("end_turn", st.order[st.order.index(d) - 1]), rest=False)
    run(st)
    assert st.cop_index == d and head(st) == "loyalty"
    assert sorted(legal_text(st)) == ["loyalty incite", "loyalty steal_donut", "loyalty stir_trouble"]
    act(st, "loyalty steal_donut")
    assert c.donuts == 5


def test_honest_cop_cannot_reveal() -> None:
    st = fresh(dirty_cop=True)
    st.dealt = 4
    st.loyalty = [False, True, False, False]
    i = next(x for x, c in enumerate(st.cops) if c.seat == 0)
    to_action(st, i)
    run(st)
    assert "reveal" not in legal_text(st)


def _sabotage_game() -> tuple[PrecinctState, int]:
    st = fresh(dirty_cop=True)
    st.dealt = 4
    st.loyalty = [False, False, False, True]
    d = next(x for x, c in enumerate(st.cops) if c.seat == 3)
    st.cops[d].out = True
    st.revealed[3] = st.underground[3] = True
    st.cops[d].donuts = 3
    return st, d


def test_sabotage_removes_arrest_and_emergency_dice() -> None:
    st, d = _sabotage_game()
    i = cop_of(st, "Costello") if st.cops[d].char != 0 else cop_of(st, "Kirkland")
    st.punks[0] = 2
    put(st, i, "1st Street North")
    st.cops[i].donuts = 2
    to_action(st, i)
    run(st)
    act(st, "arrest punks")
    while head(st) != "sabotage":
        step = {"donuts": "donuts 2", "swat": "swat 0"}.get(head(st), "proceed")
        act(st, step)
    assert sorted(legal_text(st)) == ["sabotage 0", "sabotage 1", "sabotage 2", "sabotage 3"]
    act(st, "sabotage 2")
    dice = st.stat(st.cops[i], "arrest") + 2 - 2
    assert same(outcomes(st), binom(dice, 5 / 6)) and st.cops[d].donuts == 1


def test_sabotage_removes_investigation_cards() -> None:
    st, d = _sabotage_game()
    i = next(x for x, c in enumerate(st.cops) if not c.out and st.game.content.characters[c.char].name
             in ("Pearce", "Costello", "Kirkland"))
    st.cops[i].street = st.game.city.buildings["Morgue"]
    st.cops[i].marked = False
    to_action(st, i)
    run(st)
    act(st, "investigate examine_body")
    before = st.ctx["n"]
    while head(st) != "sabotage":
        act(st, "proceed")
    act(st, "sabotage 2")
    assert st.cops[d].donuts == 1
    assert same(outcomes(st), hyper(3, 7, before - 2))


@pytest.mark.parametrize("good_win", [True, False])
def test_returns_by_side(good_win: bool) -> None:
    st = fresh(dirty_cop=True)
    st.loyalty = [False, True, False, False]
    st.end(good_win, "test")
    win = 1.0 if good_win else -1.0
    assert st.returns() == [win, -win, win, win]


# --- random games ---------------------------------------------------------------------------------
def test_random_games_smoke() -> None:
    for seed in range(6):
        game = load(1 + seed % 6, dirty_cop=seed % 6 >= 3)
        st, steps = play_random(game, seed)
        assert st.is_terminal() and steps < MOVE_CAP and st.result in (1, -1)


@pytest.mark.slow
def test_ten_thousand_random_games() -> None:
    # every game is played (a failing one does not stop the sweep): the message lists each kind of fault
    started = time.perf_counter()
    per_500 = 0.0
    configs: list[tuple[int, bool]] = [(n, d) for n in range(1, 9) for d in (False, True) if not d or n >= 3]
    games: dict[tuple[int, bool], PrecinctGame] = {cfg: load(cfg[0], dirty_cop=cfg[1]) for cfg in configs}
    faults: dict[str, list[tuple[int, tuple[int, bool]]]] = {}
    for seed in range(10_000):
        cfg = configs[seed % len(configs)]
        try:
            st, steps = play_random(games[cfg], 1_000_000 + seed, max_steps=MOVE_CAP + 1)
            if not st.is_terminal() or steps > MOVE_CAP:
                faults.setdefault("past the move cap", []).append((seed, cfg))
        except Exception as exc:  # noqa: BLE001 - any error is a fault to report
            faults.setdefault(f"{type(exc).__name__}: {str(exc)[:100]}", []).append((seed, cfg))
        if seed == 499:
            per_500 = time.perf_counter() - started
    print(f"500 random games: {per_500:.1f}s; 10,000: {time.perf_counter() - started:.1f}s")
    assert not faults, {k: (len(v), v[:3]) for k, v in faults.items()}
