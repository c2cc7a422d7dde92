"""Set-up and the turn: who picks, what is dealt and rolled, and the four phases [A Player Turn].

Rulebook sections are cited in brackets. :func:`setup` queues the set-up [Set-Up Chart; Game
Components and Detailed Set Up; Special Rules]; each turn queues its start (switch the car at the
station [Choosing Your Car], play police cards), PHASE 1 move (and the support vehicles), PHASE 2
one action (:mod:`.procedures`), PHASE 3 a police card and the hand limit, PHASE 4 an event
(:mod:`.eventcards`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.precinct import codec, eventcards, procedures
from solver.games.precinct.board import Cop
from solver.games.precinct.common import draw_police, murderer_hood, station_overrun, take_card
from solver.games.precinct.events import LoyaltyShown, TurnBegins
from solver.games.precinct.tasks import applies, auto, chance, cop_name, decision, push, run

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState, Task


# --- set-up -------------------------------------------------------------------------------------
def setup(st: PrecinctState) -> None:
    """Queue the set-up [Set-Up Chart; Game Components and Detailed Set Up; Special Rules]."""
    game = st.game
    picks = 2 if game.num_players == 1 else game.num_players  # solo: two characters [Solo Game]
    for i in range(picks):
        st.todo.append(("pick", i % game.num_players))
    if game.dirty_cops:
        st.todo.extend(("deal_loyalty", s) for s in range(game.num_players))
    st.todo.append(("setup_deal",))
    st.todo.extend(("setup_punk",) for _ in range(6))
    st.todo.append(("stack_block", "interview"))
    st.todo.append(("stack_block", "weapon"))
    st.todo.extend(("setup_emergency",) for _ in range(game.events_at_start))
    st.todo.append(("first_turn",))
    run(st)


@decision("pick", "seat", "{who} picks a character")
def _pick_options(st: PrecinctState, task: Task) -> list[Action]:
    taken = {c.char for c in st.cops}
    return [codec.PICK + i for i in range(len(st.game.content.characters)) if i not in taken]


@applies("pick")
def _picked(st: PrecinctState, task: Task, action: Action) -> None:
    char = action - codec.PICK
    cop = Cop(seat=int(task[1]), char=char, street=st.game.station)
    ch = st.game.content.characters[char]
    cop.swat = 2 if "swat" in ch.powers else 0  # Kirkland's two SWAT tokens
    cop.fed = 1 if "federal_agent" in ch.powers else 0  # Pearce's Federal Agent token
    cop.donuts = st.game.start_donuts
    st.donut_supply -= min(st.donut_supply, st.game.start_donuts)
    st.cops.append(cop)
    st.note("pick", f"seat {task[1]} plays {ch.name}")
    push(st, ("car", len(st.cops) - 1))


@decision("car", "cop", "{who} chooses the car's side")
def _car_options(st: PrecinctState, task: Task) -> list[Action]:
    return [codec.MARKED, codec.UNMARKED]


@applies("car")
def _car(st: PrecinctState, task: Task, action: Action) -> None:
    c = st.cops[task[1]]
    c.marked = action == codec.MARKED
    st.note("car", f"{cop_name(st, task[1])} drives a {'marked' if c.marked else 'unmarked'} car")


@chance("deal_loyalty", "a loyalty card is dealt")
def _loyalty_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    left = st.n - st.dealt
    dirty_left = st.game.dirty_cops - sum(st.loyalty[: st.dealt])
    return [(codec.DIRTY, dirty_left / left), (codec.LOYAL, 1 - dirty_left / left)]


@applies("deal_loyalty")
def _dealt_loyalty(st: PrecinctState, task: Task, action: Action) -> None:
    seat = int(task[1])
    st.loyalty[seat] = action == codec.DIRTY
    st.dealt += 1
    st.events.append(LoyaltyShown(seat, st.loyalty[seat], visible_to=frozenset({seat})))


@auto("setup_deal")
def _setup_deal(st: PrecinctState, task: Task) -> None:
    # the turn order: the last to pick holds the First Player Shield, then clockwise [First Player]
    last = len(st.cops) - 1
    st.order = [(last + i) % len(st.cops) for i in range(len(st.cops))]
    deals = [("deal_police", cop, 0) for cop in range(len(st.cops)) for _ in range(st.game.cards_dealt)]
    push(st, *deals)


@chance("setup_punk", "a die places a street punk")
def _setup_punk(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    # a 4th punk in a hood is re-rolled: uniform over the hoods with 3 or fewer [18 STREET PUNKS]
    free = [h for h in range(6) if st.punks[h] < 3]
    return [(codec.DIE + h, 1 / len(free)) for h in free]


@applies("setup_punk")
def _setup_punked(st: PrecinctState, task: Task, action: Action) -> None:
    hood = action - codec.DIE
    st.punks[hood] += 1
    st.punk_supply -= 1
    st.note("punk", f"a street punk in Bad Hood {hood + 1}")


@chance("stack_block", "a die picks the block of an investigation stack")
def _stack_block(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    return [(codec.DIE + b, 1 / 6) for b in range(6)]


@applies("stack_block")
def _stack_blocked(st: PrecinctState, task: Task, action: Action) -> None:
    from solver.games.precinct.content import DECKS

    block = action - codec.DIE
    city = st.game.city
    building = city.apartments[block] if task[1] == "interview" else city.warehouses[block]
    st.stacks[DECKS.index(task[1])].building = building
    st.note("stack", f"the {task[1]} cards are at {building}")


@auto("first_turn")
def _first_turn(st: PrecinctState, task: Task) -> None:
    st.at = 0
    push(st, ("turn_start", st.order[0], 1))


# --- a turn -------------------------------------------------------------------------------------
@auto("turn_start")
def _turn_start(st: PrecinctState, task: Task) -> None:
    cop_i, first_ever = int(task[1]), bool(task[2])
    st.turns += 1
    for c in st.cops:
        c.fresh = [False] * len(c.hand)  # "acquired in the current player's turn" starts afresh
    cop = st.cops[cop_i]
    st.events.append(TurnBegins(cop_i, cop_name(st, cop_i)))
    cop.hospital = cop.switched = cop.skip_event = cop.no_draw = cop.rewarded = False
    cop.extra_move = cop.arrests = 0
    if st.at == 0 and not first_ever:
        # the first player's turn: advance the Turn Track, then move the murderer [First Player]
        st.turn_track += 1
        content = st.game.content
        st.note("turn", f"the Turn Track advances to {st.turn_track}")
        if st.turn_track >= content.fail_turn or (
            st.turn_track > content.murderer_turn and murderer_hood(st) == 0
        ):
            st.end(False, "the murderer escaped the city")
            return
        if st.turn_track >= content.murderer_turn:
            st.note("murderer", f"the murderer is in Bad Hood {murderer_hood(st)}")
        eventcards.first_player_turn(st)
        if st.result:
            return
    tail: list[Task] = [("police_phase", cop_i), ("hand_limit", cop_i), ("event_phase", cop_i),
                        ("end_turn", cop_i)]
    if cop.out:  # a revealed dirty cop: one loyalty-card action [Revealed Dirty Cop Turn]
        push(st, ("loyalty", cop.seat), ("end_turn", cop_i))
        return
    push(st, ("start", cop_i), ("move", cop_i), ("after_move", cop_i), ("action", cop_i), *tail)


@decision("start", "cop", "{who} starts the turn: switch the car at the station or play police cards")
def _start_options(st: PrecinctState, task: Task) -> list[Action]:
    # the window opens on public facts only (a card held since before this turn, the station), so
    # whether it opens tells the table nothing about which cards the player holds
    cop = st.cops[task[1]]
    at_station = cop.street == st.game.station and not cop.switched and not station_overrun(st)
    if not at_station and all(cop.fresh):
        return []
    options = [codec.PROCEED, *[codec.PLAY + k for k in procedures.text_plays(st, task[1], start=True)]]
    if at_station:
        options.append(codec.UNMARKED if cop.marked else codec.MARKED)
    return options


@applies("start")
def _started(st: PrecinctState, task: Task, action: Action) -> None:
    cop = st.cops[task[1]]
    if action in (codec.MARKED, codec.UNMARKED):
        cop.marked = action == codec.MARKED
        cop.switched = True
        st.note("car", f"{cop_name(st, task[1])} switches to a {'marked' if cop.marked else 'unmarked'} car")
        push(st, task)
    elif action != codec.PROCEED:
        push(st, task)  # the window stays open; the card acts first
        procedures.play_text(st, task[1], action - codec.PLAY)


def move_allowance(st: PrecinctState, cop: Cop) -> int:
    """Streets a car may move before donuts: 2, 3 marked, +1 fast, +1 move upgrade, + Overtime [PHASE 1]."""
    from solver.games.precinct.content import UPGRADES

    base = 3 if cop.marked else 2
    base += 1 if "fast" in st.game.content.characters[cop.char].powers else 0
    base += 1 if UPGRADES.index("move") in cop.upgrades else 0
    return base + cop.extra_move


def reachable(st: PrecinctState, cop: Cop, steps: int) -> dict[int, int]:
    """Streets ``cop`` can reach in ``steps`` moves -> the fewest moves [PHASE 1].

    An emergency on an intersection blocks it (the motorcycle passes); a car may enter the streets of
    a Bad Hood held by the ``blockers`` gang but not drive on through them (our stand-in gang).
    """
    city = st.game.city
    through = st.has(cop, "motorcycle")
    sticky = {s for h in range(6) if st.gangs[h] >= 0 and st.game.content.gangs[st.gangs[h]] == "blockers"
              for s in city.hood_streets[h]}
    if not sticky:
        return city.moves(cop.street, steps, st.blocked(), through_blocked=through)
    blocked = frozenset() if through else st.blocked()
    dist = {cop.street: 0}
    frontier = [cop.street]
    for d in range(1, steps + 1):
        nxt = []
        for s in frontier:
            if s in sticky and s != cop.street:
                continue
            for i in city.ends[s]:
                if i in blocked:
                    continue
                for t in city.streets_at(i):
                    if t not in dist:
                        dist[t] = d
                        nxt.append(t)
        frontier = nxt
    return dist


@decision("move", "cop", "{who} moves the car")
def _move_options(st: PrecinctState, task: Task) -> list[Action]:
    cop = st.cops[task[1]]
    return [codec.MOVE + s for s in reachable(st, cop, move_allowance(st, cop) + cop.donuts)]


@applies("move")
def _moved(st: PrecinctState, task: Task, action: Action) -> None:
    cop = st.cops[task[1]]
    start, dest = cop.street, action - codec.MOVE
    reach = reachable(st, cop, move_allowance(st, cop) + cop.donuts)
    spent = max(0, reach[dest] - move_allowance(st, cop))
    cop.donuts -= spent
    st.donut_supply += spent
    cop.street = dest
    extra = f", spending {spent} donut{'s' * (spent != 1)}" if spent else ""
    st.note("move", f"{cop_name(st, task[1])} moves to {st.game.city.streets[dest]}{extra}")
    eventcards.after_car_move(st, task[1], start)


@auto("after_move")
def _after_move(st: PrecinctState, task: Task) -> None:
    # the support vehicles: each player moves them too, after his own car [Support Vehicle]
    push(st, *[("support", task[1], k) for k in range(len(st.support))])


@decision("support", "cop", "{who} moves the support vehicle")
def _support_options(st: PrecinctState, task: Task) -> list[Action]:
    start = st.support[task[2]]
    reach = st.game.city.moves(start, st.game.support_speed, st.blocked())
    return [codec.SUPPORT + s for s in reach]


@applies("support")
def _supported(st: PrecinctState, task: Task, action: Action) -> None:
    dest = action - codec.SUPPORT
    if dest != st.support[task[2]]:
        st.support[task[2]] = dest
        st.note("support", f"support vehicle {task[2] + 1} moves to {st.game.city.streets[dest]}")


@auto("police_phase")
def _police_phase(st: PrecinctState, task: Task) -> None:
    cop = st.cops[task[1]]
    if cop.out or cop.hospital or cop.no_draw:  # none after a hospital trip [PHASE 3; At the Hospital]
        return
    draw_police(st, task[1])


@auto("hand_limit")
def _hand_limit(st: PrecinctState, task: Task) -> None:
    cop = st.cops[task[1]]
    limit = 9 if st.has(cop, "big_hand") else 7  # measured at the end of the turn [PHASE 3]
    if len(cop.hand) > limit:
        push(st, ("discard", task[1], "limit"), task)


@decision("discard", "cop", "{who} discards a police card")
def _discard_options(st: PrecinctState, task: Task) -> list[Action]:
    return [codec.DISCARD + k for k in set(st.cops[task[1]].hand)]


@applies("discard")
def _discarded(st: PrecinctState, task: Task, action: Action) -> None:
    kind = action - codec.DISCARD
    take_card(st, task[1], kind)
    st.note("discard", f"{cop_name(st, task[1])} discards {st.game.police_names[kind]}")


@auto("end_turn")
def _end_turn(st: PrecinctState, task: Task) -> None:
    eventcards.end_of_turn(st)
    if st.result:
        return
    st.at = (st.at + 1) % len(st.order)
    st.todo.append(("turn_start", st.order[st.at], 0))  # after what the turn's end queued


