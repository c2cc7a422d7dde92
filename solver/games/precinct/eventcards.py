"""PHASE 4, the event cards: emergencies, the Urgent! token, street punks and gangs, special events.

[PHASE 4: Draw an Event Card], [Emergency Cards], [URGENT Token], [Street Gangs], [The City Crime
Track] and [Special Cards Explained]. The special events' texts are our stand-ins (the published
cards are not known); each is written to the rulebook's note on it and documented in
``docs/precinct-content.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.precinct import codec
from solver.games.precinct.board import AT_BUILDING, AT_CROSSING, AT_HOOD, AT_STREET, Slot
from solver.games.precinct.common import hospital
from solver.games.precinct.events import EventSeen
from solver.games.precinct.tasks import applies, auto, chance, cop_name, decision, push

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState, Task

#: how often a special that waits on the board strikes (stand-ins, see docs/precinct-content.md)
ESCORT_TURNS = 3  # turn-track advances before an undelivered van costs a crime step
ESCORT_TO = "City Hall"


def _special(st: PrecinctState, slot: Slot | None) -> str:
    return "" if slot is None else st.game.content.events[slot.card].special


def _slots_of(st: PrecinctState, special: str) -> list[tuple[int, Slot]]:
    """(board slot, card) of every ``special`` event on the board."""
    return [(e, s) for e, s in enumerate(st.slots) if s is not None and _special(st, s) == special]


# --- punks and gangs ----------------------------------------------------------------------------
def add_punks(st: PrecinctState, hoods: list[int]) -> bool:
    """Place a punk in each of ``hoods`` (1..6); too few in the supply: none, and crime +1 [trigger 2]."""
    if st.punk_supply < len(hoods):
        st.advance_crime("not enough street punks")
        return False
    for hood in hoods:
        st.punks[hood - 1] += 1
        st.punk_supply -= 1
        st.note("punk", f"a street punk in Bad Hood {hood}")
        if st.punks[hood - 1] >= 4 and st.gangs[hood - 1] < 0:
            if not st.gang_pool:  # all four gangs are out [The City Crime Track, trigger 3]
                st.advance_crime("no street gang marker left")
            elif ("gang", hood) not in st.todo:
                push(st, ("gang", hood))
    return True


@chance("gang", "a street gang marker is drawn")
def _gang_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    return [(codec.GANG + g, 1 / len(st.gang_pool)) for g in st.gang_pool]


@applies("gang")
def _gang(st: PrecinctState, task: Task, action: Action) -> None:
    g = action - codec.GANG
    hood = task[1]
    st.gang_pool.remove(g)
    st.gangs[hood - 1] = g
    st.note("gang", f"the {st.game.content.gangs[g]} gang takes Bad Hood {hood}")


def pay_rewards(st: PrecinctState, cop_i: int, kind: int) -> None:
    """A handled special event pays every reward printed on it ("take any applicable rewards")."""
    from solver.games.precinct.content import REWARDS

    push(st, *[("take_reward", cop_i, REWARDS.index(r)) for r in st.game.content.events[kind].rewards])


# --- board slots --------------------------------------------------------------------------------
def discard_slot(st: PrecinctState, e: int, handled: bool) -> None:
    """Take the card in slot ``e`` off the board with its marker; a failed one advances crime."""
    slot = st.slot(e)
    if slot.unknown >= 0:
        st.unknown_discard[slot.unknown] += 1
    elif slot.unknown == -2:
        st.unknown_unseen += 1  # discarded face down: it stays among the markers nobody has seen
    st.event_discard[slot.card] += 1
    st.slots[e] = None
    if st.urgent == e:
        st.urgent = -1
    if not handled:
        st.note("failed", f"{st.game.content.events[slot.card].name} fails")
        st.advance_crime("an emergency failed")


def _free_slot(st: PrecinctState) -> int:
    return next((e for e, s in enumerate(st.slots) if s is None), -1)


def _color(st: PrecinctState, e: int) -> str:
    slot = st.slot(e)
    return st.game.content.events[slot.card].color


def _urgent(st: PrecinctState, e: int) -> None:
    """The Urgent! token's three moves [URGENT Token] after the emergency in slot ``e`` arrived."""
    color = _color(st, e)
    same = sorted((i for i, s in enumerate(st.slots) if s is not None and i != e
                   and _special(st, s) == "" and _color(st, i) == color),
                  key=lambda i: st.slots[i].serial)  # type: ignore[union-attr]
    if not same:
        return
    u = st.urgent
    if u < 0:
        st.urgent = same[0]
        st.note("urgent", f"Urgent! on {st.game.content.events[st.slots[same[0]].card].name}")  # type: ignore[union-attr]
        return
    if _color(st, u) == color:
        if same == [u]:
            return  # the token stays when its card is the only one of that colour
        others = [i for i in same if i != u]
        discard_slot(st, u, handled=False)  # rule 1: a third of one colour fails the urgent one
        st.urgent = others[0]
    else:
        discard_slot(st, u, handled=False)  # rule 2: a second of another colour fails it too
        st.urgent = same[0]
    if st.result == 0:
        st.note("urgent", f"Urgent! moves to {st.game.content.events[st.slots[st.urgent].card].name}")  # type: ignore[union-attr]


def _place(st: PrecinctState, kind: int, at: int, where: int, building: str = "", data: int = 0) -> int:
    """Put event card ``kind`` on the board; -1 when no slot is free (it fails at once)."""
    e = _free_slot(st)
    if e < 0:
        st.event_discard[kind] += 1
        st.advance_crime("no room for another emergency")
        return -1
    card = st.game.content.events[kind]
    unknown = -1
    if card.unknown:
        discarded: int = sum(st.unknown_discard) + st.unknown_unseen
        if unknown_stack(st) == 0 and discarded:
            for k, count in enumerate(st.unknown_discard):  # out of markers: shuffle the discards back
                st.unknown[k] += count
            st.unknown_discard = [0] * len(st.unknown_discard)
            st.unknown_unseen = 0
        if unknown_stack(st) > 0:
            unknown = -2
    st.serial += 1
    st.slots[e] = Slot(kind, at, where, building, unknown, st.serial, data)
    place = building or where_name(st, at, where)
    st.note("event", f"{card.name} at {place}")
    if card.special == "":
        _urgent(st, e)
    return e


def unknown_stack(st: PrecinctState) -> int:
    """Markers still in the face-down stack (not on the board, not discarded)."""
    down = sum(1 for s in st.slots if s is not None and s.unknown == -2)
    left: int = sum(st.unknown)
    return left - down - st.unknown_unseen


def where_name(st: PrecinctState, at: int, where: int) -> str:
    city = st.game.city
    if at == AT_CROSSING:
        return city.intersections[where]
    if at == AT_HOOD:
        return f"Bad Hood {where}"
    return city.streets[where]


# --- the event phase ----------------------------------------------------------------------------
def _drawable(st: PrecinctState) -> int:
    return sum(st.events_left) + len(st.event_top) + len(st.event_bottom)


@auto("event_phase")
def _event_phase(st: PrecinctState, task: Task) -> None:
    cop = st.cops[task[1]]
    if cop.skip_event:
        st.note("event", "no event card this turn")
        return
    push(st, *_before_draw(st), ("event_draw", task[1]))


def _before_draw(st: PrecinctState) -> list[Task]:
    """Specials that act on every event draw: the gas leak, the stolen car, the jail break."""
    acts = (("gas_leak", "gas"), ("car_theft", "drive"), ("jail_break", "escape"))
    return [(task, e) for special, task in acts for e, _ in _slots_of(st, special)]


@chance("event_draw", "an event card is drawn")
def _event_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    if st.event_top:
        return [(codec.EVENT + st.event_top[0][0], 1.0)]
    counts = st.events_left
    if not sum(counts):
        if st.event_bottom:
            return [(codec.EVENT + st.event_bottom[0][0], 1.0)]
        counts = st.event_discard  # the deck is empty: the discards are shuffled [PHASE 4]
    total = sum(counts)
    if not total:
        return [(codec.EVENT, 0.0)]
    return [(codec.EVENT + k, c / total) for k, c in enumerate(counts) if c]


@applies("event_draw")
def _event_drawn(st: PrecinctState, task: Task, action: Action) -> None:
    kind = action - codec.EVENT
    take_event(st, kind)
    if st.result == 0:
        push(st, ("resolve", task[1], kind, 0))


def take_event(st: PrecinctState, kind: int) -> None:
    """Take event card ``kind`` off the deck (top, middle, bottom; reshuffling an empty deck)."""
    if st.event_top:
        st.event_top.pop(0)
        return
    if not sum(st.events_left) and not st.event_bottom:
        st.events_left, st.event_discard = st.event_discard, [0] * len(st.event_discard)
        st.note("reshuffle", "the event deck is empty: the discards are shuffled into a new deck")
        st.advance_crime("the event deck ran out")
    if sum(st.events_left):
        st.events_left[kind] -= 1
    else:
        st.event_bottom.pop(0)


@chance("setup_emergency", "an emergency is drawn for the start")
def _setup_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    # specials drawn now are shuffled back: the draw is among the emergencies [39 EVENT CARDS]
    events = st.game.content.events
    counts = [c if events[k].special == "" else 0 for k, c in enumerate(st.events_left)]
    total = sum(counts)
    return [(codec.EVENT + k, c / total) for k, c in enumerate(counts) if c]


@applies("setup_emergency")
def _setup_drawn(st: PrecinctState, task: Task, action: Action) -> None:
    kind = action - codec.EVENT
    st.events_left[kind] -= 1
    push(st, ("resolve", -1, kind, 1))


@auto("resolve")
def _resolve(st: PrecinctState, task: Task) -> None:
    """Follow the card's instructions [PHASE 4; Emergency Cards; Special Event Cards]."""
    cop_i, kind, setup = task[1], task[2], task[3]
    card = st.game.content.events[kind]
    if card.special:
        st.note("event", f"special event: {card.name}")
        _SPECIALS[card.special](st, cop_i, kind)
        return
    if card.punks and st.punk_supply < card.punks:  # the whole card is discarded [trigger 2]
        _arrive_and_go(st, kind)
        st.note("event", f"{card.name} is discarded: not enough street punks")
        st.advance_crime("not enough street punks")
        return
    if card.location in ("apartment", "warehouse", "hood"):
        push(st, ("place_roll", kind, card.location, setup))
        return
    _place_fixed(st, kind, card.location, setup)


def _arrive_and_go(st: PrecinctState, kind: int) -> None:
    """A card discarded for want of punks still counts for the Urgent! token before it goes: one card
    can move the crime marker twice [The City Crime Track, NOTE]."""
    e = _free_slot(st)
    if e >= 0:
        st.serial += 1
        st.slots[e] = Slot(kind, AT_STREET, st.game.station, serial=st.serial)
        _urgent(st, e)
        st.slots[e] = None
        if st.urgent == e:
            st.urgent = -1
    st.event_discard[kind] += 1


def _place_fixed(st: PrecinctState, kind: int, location: str, setup: int, data: int = 0) -> int:
    city = st.game.city
    if location in city.buildings:
        e = _place(st, kind, AT_BUILDING, city.buildings[location], location, data)
    elif location in city.intersection_ids:
        e = _place(st, kind, AT_CROSSING, city.intersection_ids[location], data=data)
    else:
        e = _place(st, kind, AT_STREET, city.street_ids[location], data=data)
    _orange(st, kind, setup)
    return e


def _orange(st: PrecinctState, kind: int, setup: int) -> None:
    """Orange text: 1 or 2 punks at rolled Bad Hoods [Emergency Cards with Orange Text]."""
    punks = st.game.content.events[kind].punks
    if punks and st.result == 0:
        push(st, *[("punk_roll", setup) for _ in range(punks)])


def _free_blocks(st: PrecinctState, what: str) -> list[int]:
    """Blocks whose apartment/warehouse holds no emergency (a taken one is re-rolled)."""
    names = st.game.city.apartments if what == "apartment" else st.game.city.warehouses
    taken = {s.building for s in st.slots if s is not None}
    return [b for b in range(6) if names[b] not in taken]


@chance("place_roll", "a die places the emergency")
def _place_roll(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    if task[2] == "hood":
        return [(codec.DIE + h, 1 / 6) for h in range(6)]
    free = _free_blocks(st, task[2]) or list(range(6))
    return [(codec.DIE + b, 1 / len(free)) for b in free]


@applies("place_roll")
def _place_rolled(st: PrecinctState, task: Task, action: Action) -> None:
    kind, what, setup = task[1], task[2], task[3]
    b = action - codec.DIE
    if what == "hood":
        _place(st, kind, AT_HOOD, b + 1)
        _orange(st, kind, setup)
        return
    names = st.game.city.apartments if what == "apartment" else st.game.city.warehouses
    _place_fixed(st, kind, names[b], setup)


@chance("punk_roll", "a die places a street punk")
def _punk_roll(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    hoods = [h for h in range(6) if st.punks[h] < 3] if task[1] else list(range(6))
    return [(codec.DIE + h, 1 / len(hoods)) for h in hoods]


@applies("punk_roll")
def _punk_rolled(st: PrecinctState, task: Task, action: Action) -> None:
    add_punks(st, [action - codec.DIE + 1])


# --- looking at the event deck ------------------------------------------------------------------
@chance("peek_event", "the top event card is looked at")
def _peek_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    if st.event_top:
        return [(codec.EVENT + st.event_top[0][0], 1.0)]
    counts = st.events_left if sum(st.events_left) else [0] * len(st.events_left)
    total = sum(counts)
    if not total and st.event_bottom:
        return [(codec.EVENT + st.event_bottom[0][0], 1.0)]
    return [(codec.EVENT + k, c / total) for k, c in enumerate(counts) if c]


@applies("peek_event")
def _peeked(st: PrecinctState, task: Task, action: Action) -> None:
    kind = action - codec.EVENT
    seat = st.cops[task[1]].seat
    if st.event_top:
        old, knowers = st.event_top[0]
        st.event_top[0] = (old, knowers | {seat})
    elif sum(st.events_left):
        st.events_left[kind] -= 1
        st.event_top.insert(0, (kind, frozenset({seat})))
    else:
        _, knowers = st.event_bottom.pop(0)
        st.event_top.insert(0, (kind, knowers | {seat}))
    st.events.append(EventSeen(task[1], st.game.event_names[kind], visible_to=frozenset({seat})))


@decision("event_look", "cop", "{who} keeps the top event card on top or puts it on the bottom")
def _look_options(st: PrecinctState, task: Task) -> list[Action]:
    return [codec.KEEP, codec.BOTTOM] if st.event_top else []


@applies("event_look")
def _event_looked(st: PrecinctState, task: Task, action: Action) -> None:
    if action == codec.BOTTOM:
        st.event_bottom.append(st.event_top.pop(0))
        st.note("event", "the top event card goes to the bottom of the deck")
    else:
        st.note("event", "the top event card stays on top")


# --- specials -----------------------------------------------------------------------------------
def _problems(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Problems in the Hood (stand-in): a punk joins every Bad Hood with two or more."""
    st.event_discard[kind] += 1
    hoods = [h + 1 for h in range(6) if st.punks[h] >= 2]
    if hoods:
        add_punks(st, hoods)


def _riot(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Street Riot (stand-in): two punks at a rolled hood; stays until its punks are gone."""
    push(st, ("special_roll", kind, "riot"))


def _gas(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Gas Leak: on West Calhoun until two cars are there and the player discards two cards."""
    _place_fixed(st, kind, "West Calhoun", 0)


def _jail(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Jail Break (stand-in): two escapees leave the station, one stop per event draw, then the city."""
    _place_fixed(st, kind, "Police Station", 0, data=2)


def _amok(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Detainees Run Amok (stand-in): two detainees hold the station until arrested."""
    _place_fixed(st, kind, "Police Station", 0, data=2)


def _dedicated(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Dedicated Officer (stand-in): a patrol officer from the stock to a Bad Hood of the player's choice."""
    st.event_discard[kind] += 1
    if st.patrol_stock and cop_i >= 0:
        push(st, ("hood", cop_i, "officer"))


def _officer_down(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Officer Down (stand-in): an officer lies at a rolled hood until an emergency roll saves him."""
    if st.patrol_stock:
        st.patrol_stock -= 1
    elif sum(st.patrol):
        h = next(h for h in range(6) if st.patrol[h])
        st.patrol[h] -= 1
    else:  # every officer is gone: the event fails [Officer Down]
        st.event_discard[kind] += 1
        st.advance_crime("no patrol officer left for Officer Down")
        return
    push(st, ("special_roll", kind, "down"))


def _overburdened(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Overburdened (stand-in): every patrol officer on the board returns to the station."""
    st.event_discard[kind] += 1
    st.patrol_stock += sum(st.patrol)
    st.patrol = [0] * 6


def _crime_wave(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Crime Wave (stand-in): a punk at each of three rolled hoods (often a new gang)."""
    st.event_discard[kind] += 1
    if st.punk_supply < 3:
        st.advance_crime("not enough street punks")
        return
    push(st, *[("punk_roll", 0) for _ in range(3)])


def _escort(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Escort Van (stand-in): a van at the station to be escorted to City Hall within three turns."""
    _place(st, kind, AT_STREET, st.game.station)


def _training(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Optional Training: the first player to end a move at the station takes a free police card."""
    _place_fixed(st, kind, "Police Station", 0)


def _theft(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Car Theft: a stolen car appears by a rolled warehouse and drives on each event draw."""
    push(st, ("special_roll", kind, "theft"))


def _internal(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Internal Affairs: without a traitor, draw another event; with one, a loyalty card is shown."""
    st.event_discard[kind] += 1
    if not st.game.dirty_cops:
        push(st, ("event_draw", cop_i))
    elif cop_i >= 0 and not st.cops[cop_i].out:
        push(st, ("target", cop_i))


_SPECIALS = {
    "problems_in_the_hood": _problems, "street_riot": _riot, "gas_leak": _gas, "jail_break": _jail,
    "detainees_run_amok": _amok, "dedicated_officer": _dedicated, "officer_down": _officer_down,
    "overburdened": _overburdened, "crime_wave": _crime_wave, "escort_van": _escort,
    "optional_training": _training, "car_theft": _theft, "internal_affairs": _internal,
}


@chance("special_roll", "a die places the special event")
def _special_roll(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    return [(codec.DIE + b, 1 / 6) for b in range(6)]


@applies("special_roll")
def _special_rolled(st: PrecinctState, task: Task, action: Action) -> None:
    kind, what = task[1], task[2]
    b = action - codec.DIE
    if what == "riot":
        if add_punks(st, [b + 1, b + 1]):
            _place(st, kind, AT_HOOD, b + 1)
        else:
            st.event_discard[kind] += 1
    elif what == "down":
        _place(st, kind, AT_HOOD, b + 1)
    else:
        street = st.game.city.buildings[st.game.city.warehouses[b]]
        _place(st, kind, AT_STREET, street, data=street)


@chance("gas", "the gas leak: a die for an explosion")
def _gas_roll(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    slot = st.slots[task[1]]
    need = 2 if slot is None else max(1, st.game.content.events[slot.card].number)
    bad = min(6, need - 1)  # it holds on the card's number or more; below it ignites
    return [(codec.DIE + v, 1 / 6) for v in range(6)] if 0 < bad < 6 else [(codec.DIE + 5, 1.0)]


@applies("gas")
def _gas_rolled(st: PrecinctState, task: Task, action: Action) -> None:
    e = task[1]
    slot = st.slots[e]
    if slot is None:
        return
    need = max(1, st.game.content.events[slot.card].number)
    if action - codec.DIE + 1 >= need:
        return
    st.note("gas", "the gas leak explodes")
    for i, c in enumerate(st.cops):
        if not c.out and c.street == slot.where:
            hospital(st, i)
    discard_slot(st, e, handled=False)


@auto("gas_fixed")
def _gas_fixed(st: PrecinctState, task: Task) -> None:
    slot = st.slot(task[2])
    discard_slot(st, task[2], handled=True)
    st.note("gas", "the gas leak is fixed")
    pay_rewards(st, task[1], slot.card)


@chance("drive", "the stolen car drives on")
def _drive_roll(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    options = _drive_options(st, task[1])
    return [(codec.COMPASS + d, 1 / len(options)) for d in range(len(options))]


def _drive_options(st: PrecinctState, e: int) -> list[int]:
    """Streets the stolen car may drive to (-1: off the board at a dead end), at most four."""
    slot = st.slot(e)
    city = st.game.city
    nxt = sorted(city.moves(slot.where, 1).keys() - {slot.where})[:4]
    if len(city.ends[slot.where]) < 2:
        nxt = [*nxt[:3], -1]
    return nxt


@applies("drive")
def _driven(st: PrecinctState, task: Task, action: Action) -> None:
    e = task[1]
    slot = st.slots[e]
    if slot is None:
        return
    street = _drive_options(st, e)[action - codec.COMPASS]
    if street < 0:
        st.note("theft", "the stolen car leaves the city")
        discard_slot(st, e, handled=False)
        return
    slot.where = slot.data = street
    st.note("theft", f"the stolen car drives to {st.game.city.streets[street]}")


_ESCAPE_ROUTE = ("Police Station", "Hospital", "Knights Apartments")


@auto("escape")
def _escape(st: PrecinctState, task: Task) -> None:
    """The jail breakers move on: Hospital, then Knights Apartments, then off the board [Jail Break]."""
    e = task[1]
    slot = st.slots[e]
    if slot is None:
        return
    k = _ESCAPE_ROUTE.index(slot.building)
    if k + 1 == len(_ESCAPE_ROUTE):
        st.note("jail", "the escapees leave the city")
        discard_slot(st, e, handled=False)
        return
    slot.building = _ESCAPE_ROUTE[k + 1]
    slot.where = st.game.city.buildings[slot.building]
    st.note("jail", f"the escapees run to {slot.building}")


# --- hooks from the turn ------------------------------------------------------------------------
def first_player_turn(st: PrecinctState) -> None:
    """What happens at each first player's turn: recruiting gangs, riots, the escort's clock."""
    for h in range(6):
        if st.gangs[h] >= 0 and st.game.content.gangs[st.gangs[h]] == "recruiters":
            add_punks(st, [h + 1])
    for _, slot in _slots_of(st, "street_riot"):
        add_punks(st, [slot.where])
    for e, slot in _slots_of(st, "escort_van"):
        slot.data += 1
        if slot.data >= ESCORT_TURNS:
            discard_slot(st, e, handled=False)


def end_of_turn(st: PrecinctState) -> None:
    """At a turn's end: a riot whose punks are gone ends; two cars with the stolen car catch it."""
    for e, slot in _slots_of(st, "street_riot"):
        if st.punks[slot.where - 1] == 0:
            discard_slot(st, e, handled=True)
            if not st.cop.out:
                pay_rewards(st, st.cop_index, slot.card)
    for e, slot in _slots_of(st, "car_theft"):
        here = [i for i, c in enumerate(st.cops) if not c.out and c.street == slot.where]
        if len(here) + st.support.count(slot.where) >= 2:  # the EXACT same street [Car Theft]
            st.note("theft", "the stolen car is caught")
            discard_slot(st, e, handled=True)
            for i in here:  # both officers earn their donuts [Car Theft]
                pay_rewards(st, i, slot.card)


def after_car_move(st: PrecinctState, cop_i: int, start: int) -> None:
    """After a car moves: the escort van may come along; the station's training waits there."""
    c = st.cops[cop_i]
    for e, slot in _slots_of(st, "escort_van"):
        if slot.where == start and c.street != start:
            push(st, ("van", cop_i, e, start))
    if c.street == st.game.station:
        for e, slot in _slots_of(st, "optional_training"):
            st.note("training", f"{cop_name(st, cop_i)} takes the free training")
            discard_slot(st, e, handled=True)
            pay_rewards(st, cop_i, slot.card)


@decision("van", "cop", "{who} may take the escort van along")
def _van_options(st: PrecinctState, task: Task) -> list[Action]:
    return [codec.PROCEED, codec.YES] if st.slots[task[2]] is not None else []


@applies("van")
def _van(st: PrecinctState, task: Task, action: Action) -> None:
    if action != codec.YES:
        return
    cop_i, e, start = task[1], task[2], task[3]
    slot = st.slot(e)
    city = st.game.city
    path = city.path(start, st.cops[cop_i].street, st.blocked())
    slot.where = path[min(2, len(path) - 1)] if path else start  # a space or two with the car
    st.note("van", f"the escort van moves to {city.streets[slot.where]}")
    if slot.where == city.buildings[ESCORT_TO]:
        st.note("van", f"the escort van reaches {ESCORT_TO}")
        discard_slot(st, e, handled=True)
        pay_rewards(st, cop_i, slot.card)
