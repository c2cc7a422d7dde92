"""PHASE 2, one action, and the police cards played with their text [PHASE 2: Perform an Action].

Each action is a short procedure of queued steps, in the rulebook's order: investigating [Investigate
the Murder] counts cards, takes donuts, asks every other player for magnifier cards, then draws
(a chance node over how many evidence cards the unknown part of the draw holds); arrests [Arrest
Street Punks] add patrol officers, donuts, SWAT tokens and handcuff cards, then roll (a chance node
over how many dice succeed); emergencies [Handle an Emergency] add donuts and flashing-light cards,
reveal the Unknown Circumstances marker, then roll (succeed or fail). A revealed dirty cop may spend
donuts against the roll first [Revealed Dirty Cop Turn].
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.precinct import codec, common, eventcards
from solver.games.precinct.board import AT_CROSSING, AT_HOOD, Slot
from solver.games.precinct.common import gain_donut, hospital, spend_donuts
from solver.games.precinct.content import DECKS, REWARDS, UNKNOWN, UPGRADES, Symbol
from solver.games.precinct.events import Investigated, InvestigationSeen, LoyaltyShown, Rolled
from solver.games.precinct.tasks import applies, auto, chance, cop_name, decision, push

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState, Task

#: texts playable at the start of the turn only (before moving) and in the action phase only
START_ONLY = ("overtime",)
IN_ROLL = ("crime_lab", "backup", "air_support")  # played inside a roll's help window


def text_plays(st: PrecinctState, cop_i: int, start: bool) -> list[int]:
    """Card kinds ``cop_i`` may play for their text now, at the start or in the action phase."""
    c = st.cops[cop_i]
    out = []
    for kind in common.playable(st, cop_i, own_turn=True):
        text = st.game.content.police[kind].text
        if text in IN_ROLL or (text in START_ONLY and not start):
            continue
        if _text_useful(st, c.street, text):
            out.append(kind)
    return out


def _text_useful(st: PrecinctState, street: int, text: str) -> bool:
    """Whether a text card would do anything now (a card that cannot act is not offered)."""
    if text == "fresh_perspective":
        return any(_lookable(st, d) for d in range(len(DECKS)))
    if text == "dispatch_officers":
        return street == st.game.station and st.patrol_stock + sum(st.patrol) > 0 \
            and not common.station_overrun(st)
    if text == "community_outreach":
        return sum(st.punks) > 0
    if text == "tow_truck":
        return any(s is not None and s.at == AT_CROSSING for s in st.slots)
    if text == "informant_tip":
        return _events_drawable(st) > 0
    if text == "coffee_break":
        return st.donut_supply > 0
    if text == "paperwork":
        return common.police_left(st) > 0
    if text == "hot_pursuit":
        return common.murderer_hood(st) > 0
    return text == "overtime"


def _lookable(st: PrecinctState, deck: int) -> bool:
    s = st.stacks[deck]
    return not s.gone and s.size > 0 and not st.covered(deck)


def _events_drawable(st: PrecinctState) -> int:
    return sum(st.events_left) + len(st.event_top) + len(st.event_bottom)


def play_text(st: PrecinctState, cop_i: int, kind: int) -> None:
    """Play card ``kind`` from ``cop_i``'s hand for its text [Police Cards: On your own turn]."""
    common.take_card(st, cop_i, kind)
    text = st.game.content.police[kind].text
    c = st.cops[cop_i]
    st.note("play", f"{cop_name(st, cop_i)} plays {st.game.police_names[kind]}")
    if text == "overtime":
        c.extra_move += 2
    elif text == "fresh_perspective":
        push(st, ("deck", cop_i, "fresh"))
    elif text == "dispatch_officers":  # every officer, from the stock or the board [The Patrol Officers]
        st.patrol_stock += sum(st.patrol)
        st.patrol = [0] * 6
        push(st, ("dispatch", cop_i))
    elif text == "community_outreach":
        push(st, ("hood", cop_i, "outreach"))
    elif text == "tow_truck":
        push(st, ("tow", cop_i))
    elif text == "informant_tip":
        push(st, ("peek_event", cop_i), ("event_look", cop_i))
    elif text == "coffee_break":
        gain_donut(st, cop_i)
    elif text == "paperwork":
        common.draw_police(st, cop_i)
        common.draw_police(st, cop_i)
    elif text == "hot_pursuit":
        st.turn_track -= 1  # the clock runs back a turn: the murderer steps back up a Bad Hood
        st.note("turn", f"hot pursuit: the Turn Track goes back to {st.turn_track}")


# --- the action window --------------------------------------------------------------------------
def slot_streets(st: PrecinctState, slot: Slot) -> tuple[int, ...]:
    """Streets from which a card on the board is handled (and whose cars are adjacent to it)."""
    city = st.game.city
    if slot.at == AT_CROSSING:
        return city.streets_at(slot.where)
    if slot.at == AT_HOOD:
        return city.hood_streets[slot.where - 1]
    return (slot.where,)


def _handleable(st: PrecinctState, cop_i: int, e: int) -> bool:
    slot = st.slots[e]
    c = st.cops[cop_i]
    if slot is None or c.street not in slot_streets(st, slot):
        return False
    special = st.game.content.events[slot.card].special
    if special == "gas_leak":  # two cars on West Calhoun and two cards to discard [Gas Leak]
        return st.cars_on(slot.where) >= 2 and len(c.hand) >= 2
    return special in ("", "jail_break", "detainees_run_amok", "officer_down")


@decision("action", "cop", "{who}: one action")
def _action_options(st: PrecinctState, task: Task) -> list[Action]:
    cop_i = task[1]
    c = st.cops[cop_i]
    city = st.game.city
    options = [codec.NO_ACTION, codec.DRAW_ACTION]
    options += [codec.PLAY + k for k in text_plays(st, cop_i, start=False)]
    options += [codec.INVESTIGATE + d for d in st.stack_at(c.street)
                if not st.covered(d) and st.stacks[d].size > 0]
    hood = city.hood_of(c.street)
    if hood is not None and st.punks[hood - 1] > 0:
        options.append(codec.ARREST)
    if hood is not None and common.murderer_hood(st) == hood and st.board_complete():
        options.append(codec.ARREST_MURDERER)
    options += [codec.HANDLE + e for e in range(codec.MAX_SLOTS) if _handleable(st, cop_i, e)]
    at_station = c.street == st.game.station and not common.station_overrun(st)
    if at_station and c.donuts > 0 and len(c.upgrades) < 2:
        options += [codec.UPGRADE + u for u in range(len(UPGRADES))
                    if st.upgrades_left[u] > 0 and u not in c.upgrades]
    if st.game.dirty_cops:
        if st.loyalty[c.seat] and not st.revealed[c.seat]:
            options.append(codec.REVEAL)
        if sum(x.donuts for x in st.cops if not x.out) >= 3:
            options += [codec.ACCUSE + p for p in range(st.n) if p != c.seat and not st.revealed[p]
                        and any(not x.out for x in st.cops if x.seat == p)]
    return options


@applies("action")
def _acted(st: PrecinctState, task: Task, action: Action) -> None:
    cop_i = task[1]
    c = st.cops[cop_i]
    name = cop_name(st, cop_i)
    start, _ = codec.block_of(action)
    if start == codec.PLAY:
        push(st, task)  # playing a card is not the action; the card acts first
        play_text(st, cop_i, action - codec.PLAY)
    elif action == codec.NO_ACTION:
        st.note("action", f"{name} takes no action")
    elif action == codec.DRAW_ACTION:
        st.note("action", f"{name} draws a police card")
        common.draw_police(st, cop_i)
        if st.has(c, "desk_sergeant"):
            common.draw_police(st, cop_i)
    elif start == codec.INVESTIGATE:
        _investigate(st, cop_i, action - codec.INVESTIGATE)
    elif action in (codec.ARREST, codec.ARREST_MURDERER):
        _arrest(st, cop_i, action == codec.ARREST_MURDERER)
    elif start == codec.HANDLE:
        _handle(st, cop_i, action - codec.HANDLE)
    elif start == codec.UPGRADE:
        _upgrade(st, cop_i, action - codec.UPGRADE)
    elif action == codec.REVEAL:
        reveal(st, cop_i)
    elif start == codec.ACCUSE:
        _accuse(st, cop_i, action - codec.ACCUSE)


def _help_tasks(st: PrecinctState, cop_i: int) -> list[Task]:
    """Every other player may help, in turn order, then the player himself plays his roll cards."""
    k = st.order.index(cop_i)
    others = [st.order[(k + j) % len(st.order)] for j in range(1, len(st.order))]
    tasks: list[Task] = [("help", o) for o in others if not st.cops[o].out]
    tasks.append(("help", cop_i))
    return tasks


def _sabotage_tasks(st: PrecinctState) -> list[Task]:
    """Each revealed dirty cop may spend donuts against the roll [Revealed Dirty Cop Turn]."""
    return [("sabotage", s) for s in range(st.n) if st.underground[s]]


# --- investigate --------------------------------------------------------------------------------
def _investigate(st: PrecinctState, cop_i: int, deck: int) -> None:
    """[Investigate the Murder] steps 1-4: cards from the character, the unmarked car, other cars."""
    c = st.cops[cop_i]
    n = st.stat(c, "investigate") + (0 if c.marked else 1) + st.cars_on(c.street, exclude=cop_i)
    name = DECKS[deck]
    if st.has(c, "forensics") and name in ("examine_body", "crime_scene"):
        n += 1
    if st.has(c, "canvasser") and name in ("interview", "weapon"):
        n += 1
    st.ctx = {"kind": "investigate", "cop": cop_i, "deck": deck, "n": n, "sym": 0}
    st.note("action", f"{cop_name(st, cop_i)} investigates the {name.replace('_', ' ')} stack")
    push(st, ("donuts", cop_i), *_help_tasks(st, cop_i), *_sabotage_tasks(st), ("inv_draw", cop_i))


def _draw_split(st: PrecinctState) -> tuple[int, int, int]:
    """How many of the cards to draw come from the known top, the unknown middle, the known bottom."""
    s = st.stacks[st.ctx["deck"]]
    n = min(max(0, st.ctx["n"] - st.ctx.get("sabotage", 0)), s.size)  # dirty donuts take cards away
    t = min(n, len(s.top))
    me, mu = s.middle()
    m = min(n - t, me + mu)
    return t, m, n - t - m


@chance("inv_draw", "{turn} draws investigation cards")
def _inv_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    _, m, _ = _draw_split(st)
    me, mu = st.stacks[st.ctx["deck"]].middle()
    return [(codec.FOUND + k, p) for k, p in common.hypergeometric(me, mu, m)]


@applies("inv_draw")
def _inv_drawn(st: PrecinctState, task: Task, action: Action) -> None:
    cop_i, deck = task[1], st.ctx["deck"]
    s = st.stacks[deck]
    t, m, b = _draw_split(st)
    found = action - codec.FOUND
    cards = [k for k, _ in s.top[:t]] + [True] * found + [False] * (m - found) + [k for k, _ in s.bottom[:b]]
    st.ctx.update(size=s.size, evidence_before=s.evidence, cards=cards)
    del s.top[:t]
    del s.bottom[:b]
    s.evidence -= sum(cards)
    s.useless -= len(cards) - sum(cards)
    seat = st.cops[cop_i].seat
    st.events.append(InvestigationSeen(cop_i, DECKS[deck], tuple(cards), visible_to=frozenset({seat})))
    push(st, ("claim", cop_i), ("inv_done", cop_i))


@decision("claim", "cop", "{who} places the evidence found, or claims the cards useless")
def _claim_options(st: PrecinctState, task: Task) -> list[Action]:
    c = st.cops[task[1]]
    cards = st.ctx["cards"]
    if not cards:
        return []
    # asked after every draw, and seen by the table only through what is placed, so an honest
    # player with nothing to place looks exactly like a dirty one hiding evidence
    if st.loyalty[c.seat] and not st.revealed[c.seat] and any(cards) and not all(cards):
        return [codec.PLACE, codec.HIDE]  # he must still discard a truly useless card
    return [codec.PLACE]


@applies("claim")
def _claimed(st: PrecinctState, task: Task, action: Action) -> None:
    st.ctx["hide"] = action == codec.HIDE


@auto("inv_done")
def _inv_done(st: PrecinctState, task: Task) -> None:
    """Step 5: evidence to the board, one useless card out of the game, the rest back and shuffled."""
    cop_i, deck = task[1], st.ctx["deck"]
    c = st.cops[cop_i]
    s = st.stacks[deck]
    cards: list[bool] = st.ctx["cards"]
    hide = bool(st.ctx.get("hide"))
    found = sum(cards)
    placed = 0 if hide else found
    discarded = 1 if len(cards) > found else 0
    back = [k for k in cards if k and hide] + [False] * (len(cards) - found - discarded)
    s.evidence += sum(back)
    s.useless += len(back) - sum(back)
    st.placed[deck] += placed
    if st.has(c, "thorough"):  # the rest go under the stack, not shuffled [step 5]
        s.bottom = s.bottom + [(k, frozenset({c.seat})) for k in back]  # under the cards already there
    else:
        s.shuffle()
    st.events.append(Investigated(cop_i, DECKS[deck], st.ctx["size"], st.ctx["evidence_before"],
                                  len(cards), placed, discarded))
    if not placed:
        c.empty += 1
    if placed and st.placed[deck] >= st.game.content.decks[deck][0]:
        s.gone = True  # the category is complete: its stack leaves the board [Murder Investigation Board]
        st.note("evidence", f"the {DECKS[deck].replace('_', ' ')} evidence is complete")
        gain_donut(st, cop_i)
    st.ctx = {}


# --- arrests ------------------------------------------------------------------------------------
def _arrest(st: PrecinctState, cop_i: int, murderer: bool) -> None:
    """[Arrest Street Punks] and [Arrest the Murderer]: he counts as two punks and is arrested last."""
    c = st.cops[cop_i]
    hood = st.game.city.hood_of(c.street)
    if hood is None:
        return
    gang = _gang(st, hood)
    dice = st.stat(c, "arrest") + st.cars_on(c.street, exclude=cop_i)
    dice += 1 if st.has(c, "street_smart") and not murderer else 0
    st.ctx = {"kind": "arrest", "cop": cop_i, "hood": hood, "murderer": murderer, "n": dice, "sym": 0,
              "lookouts": gang == "lookouts"}
    what = "the murderer" if murderer else "street punks"
    st.note("action", f"{cop_name(st, cop_i)} tries to arrest {what} in Bad Hood {hood}")
    push(st, ("officers", cop_i), ("donuts", cop_i), ("swat", cop_i), *_help_tasks(st, cop_i),
         *_sabotage_tasks(st), ("arrest_roll", cop_i))


def _gang(st: PrecinctState, hood: int) -> str:
    g = st.gangs[hood - 1]
    return st.game.content.gangs[g] if g >= 0 else ""


def arrest_need(st: PrecinctState) -> int:
    """The die result each arrest die needs: the punks there (+2 for the murderer, +1 enforcers)."""
    ctx = st.ctx
    if ctx["kind"] == "escapees":
        slot = st.slots[ctx["slot"]]
        return 0 if slot is None else slot.data
    hood = int(ctx["hood"])
    need = st.punks[hood - 1] + (2 if common.murderer_hood(st) == hood else 0)
    return need + (1 if _gang(st, hood) == "enforcers" else 0)


def _dice(st: PrecinctState) -> int:
    n = int(st.ctx["n"])
    if st.ctx.get("lookouts"):
        n = max(1, n - 1)
    return max(0, min(n - int(st.ctx.get("sabotage", 0)), codec.MAX_SUCCESS))


def arrest_chance(need: int) -> float:
    """A die's chance to reach ``need``: a 6 always arrests, a 1 never [Arrest Street Punks]."""
    return min(5 / 6, max(1 / 6, (7 - need) / 6))


@chance("arrest_roll", "{turn} rolls to arrest")
def _arrest_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    p = arrest_chance(arrest_need(st))
    return [(codec.SUCCESS + k, q) for k, q in common.binomial(_dice(st), p)]


@applies("arrest_roll")
def _arrest_rolled(st: PrecinctState, task: Task, action: Action) -> None:
    ctx = st.ctx
    cop_i = task[1]
    c = st.cops[cop_i]
    k = action - codec.SUCCESS
    need = arrest_need(st)
    st.events.append(Rolled(cop_i, "arrest", _dice(st), need, k))
    if ctx["kind"] == "escapees":
        slot = st.slot(ctx["slot"])
        removed = min(k, slot.data)
        slot.data -= removed
        st.note("arrest", f"{removed} escapee{'s' * (removed != 1)} arrested")
        if slot.data == 0:
            eventcards.discard_slot(st, ctx["slot"], handled=True)
            eventcards.pay_rewards(st, cop_i, slot.card)
    else:
        hood = ctx["hood"]
        before = st.punks[hood - 1]
        removed = min(k, before)
        st.punks[hood - 1] -= removed
        st.punk_supply += removed
        c.arrests += removed
        st.note("arrest", f"{removed} street punk{'s' * (removed != 1)} arrested in Bad Hood {hood}")
        if before and not st.punks[hood - 1] and st.gangs[hood - 1] >= 0:
            st.gang_pool.append(st.gangs[hood - 1])  # the last punk removes the street gang
            st.gangs[hood - 1] = -1
            st.note("gang", f"the street gang of Bad Hood {hood} is gone")
        if c.arrests >= 3 and not c.rewarded:  # three or more arrests in a turn pay a donut
            c.rewarded = True
            gain_donut(st, cop_i)
        if ctx["murderer"] and k > before:
            st.ctx = {}
            st.end(True, "the murderer is arrested")
            return
    st.ctx = {}
    if removed == 0:
        hospital(st, cop_i)


@decision("officers", "cop", "{who} calls patrol officers to the arrest")
def _officer_options(st: PrecinctState, task: Task) -> list[Action]:
    here = st.patrol[st.ctx["hood"] - 1]
    return [codec.OFFICERS + k for k in range(here + 1)] if here else []


@applies("officers")
def _officers(st: PrecinctState, task: Task, action: Action) -> None:
    k = action - codec.OFFICERS
    st.patrol[st.ctx["hood"] - 1] -= k
    st.patrol_stock += k  # back to the stockpile [The Patrol Officers]
    st.ctx["n"] += k


@decision("swat", "cop", "{who} sends in SWAT tokens")
def _swat_options(st: PrecinctState, task: Task) -> list[Action]:
    have = st.cops[task[1]].swat
    return [codec.SWAT + k for k in range(have + 1)] if have else []


@applies("swat")
def _swatted(st: PrecinctState, task: Task, action: Action) -> None:
    k = action - codec.SWAT
    st.cops[task[1]].swat -= k
    st.ctx["n"] += 2 * k


@decision("donuts", "cop", "{who} spends donuts on the roll")
def _donut_options(st: PrecinctState, task: Task) -> list[Action]:
    have = min(st.cops[task[1]].donuts, codec.MAX_DONUTS)
    return [codec.DONUTS + k for k in range(have + 1)] if have else []


@applies("donuts")
def _donuts(st: PrecinctState, task: Task, action: Action) -> None:
    k = action - codec.DONUTS
    spend_donuts(st, task[1], k)
    st.ctx["n"] += k


_SYMBOL = {"investigate": Symbol.INVESTIGATE, "arrest": Symbol.ARREST, "escapees": Symbol.ARREST,
           "murderer": Symbol.ARREST, "emergency": Symbol.EMERGENCY, "officer_down": Symbol.EMERGENCY}


@decision("help", "cop", "{who} may help {turn} with police cards")
def _help_options(st: PrecinctState, task: Task) -> list[Action]:
    helper = task[1]
    ctx = st.ctx
    if not ctx:
        return []
    own = helper == ctx["cop"]
    c = st.cops[helper]
    # asked of everyone holding a card (of the player himself: a card held since before this turn),
    # so being asked shows nothing of the hand
    if not c.hand or (own and all(c.fresh)):
        return []
    police = st.game.content.police
    options = [codec.PROCEED]
    for kind in common.playable(st, helper, own_turn=own):
        text = police[kind].text
        if own:  # the player's own cards work by their text [Police Cards]
            if (text == "crime_lab" and ctx["kind"] == "investigate") or (
                    text == "backup" and ctx["kind"] in ("arrest", "escapees")) or (
                    text == "air_support" and ctx["kind"] != "investigate"):
                options.append(codec.PLAY + kind)
        else:
            if police[kind].symbol == _SYMBOL[ctx["kind"]]:
                options.append(codec.HELP + kind)
            if text == "air_support" and ctx["kind"] != "investigate":
                options.append(codec.PLAY + kind)  # Air Support works by its text in any turn
    return options


@applies("help")
def _helped(st: PrecinctState, task: Task, action: Action) -> None:
    if action == codec.PROCEED:
        return
    helper = task[1]
    start, _ = codec.block_of(action)
    kind = action - start
    card = st.game.content.police[kind]
    common.take_card(st, helper, kind)
    if start == codec.HELP:
        bonus = 2 if card.double else 1
        if card.symbol == Symbol.EMERGENCY:
            st.ctx["sym"] += bonus  # the hostage and the bomb cancel these [Unknown Circumstances]
        st.ctx["n"] += bonus
        st.note("help", f"{cop_name(st, helper)} helps with {st.game.police_names[kind]} (+{bonus})")
    else:
        st.ctx["n"] += 2
        st.note("help", f"{cop_name(st, helper)} plays {st.game.police_names[kind]} (+2)")
    push(st, task)


@decision("sabotage", "seat", "dirty cop {who} may spend donuts against the roll")
def _sabotage_options(st: PrecinctState, task: Task) -> list[Action]:
    if not st.ctx:
        return []
    have = sum(c.donuts for c in st.cops if c.seat == task[1])
    return [codec.SABOTAGE + k for k in range(min(have, 3) + 1)] if have else []


@applies("sabotage")
def _sabotaged(st: PrecinctState, task: Task, action: Action) -> None:
    k = action - codec.SABOTAGE
    if not k:
        return
    cop_i = next(i for i, c in enumerate(st.cops) if c.seat == task[1] and c.donuts >= k)
    spend_donuts(st, cop_i, k)
    st.ctx["sabotage"] = st.ctx.get("sabotage", 0) + k
    st.note("sabotage", f"the dirty cop spends {k} donut{'s' * (k != 1)} against the roll")


# --- emergencies --------------------------------------------------------------------------------
def _handle(st: PrecinctState, cop_i: int, e: int) -> None:
    """[Handle an Emergency]: dice, donuts, cards, the Unknown Circumstances, then the roll."""
    slot = st.slot(e)
    c = st.cops[cop_i]
    card = st.game.content.events[slot.card]
    st.note("action", f"{cop_name(st, cop_i)} handles {card.name}")
    adjacent = sum(st.cars_on(s, exclude=cop_i) for s in slot_streets(st, slot))
    if card.special == "gas_leak":
        push(st, ("discard", cop_i, "gas"), ("discard", cop_i, "gas"), ("gas_fixed", cop_i, e))
        return
    if card.special in ("jail_break", "detainees_run_amok"):
        st.ctx = {"kind": "escapees", "cop": cop_i, "slot": e, "sym": 0,
                  "n": st.stat(c, "arrest") + adjacent}
        push(st, ("donuts", cop_i), *_help_tasks(st, cop_i), *_sabotage_tasks(st), ("arrest_roll", cop_i))
        return
    dice = st.stat(c, "emergency") + adjacent + (1 if st.has(c, "negotiator") else 0)
    kind = "officer_down" if card.special == "officer_down" else "emergency"
    st.ctx = {"kind": kind, "cop": cop_i, "slot": e, "n": dice, "sym": 0}
    reveal_marker: list[Task] = [("unknown", e)] if slot.unknown == -2 else []
    push(st, ("donuts", cop_i), *_help_tasks(st, cop_i), *reveal_marker, *_sabotage_tasks(st),
         ("em_roll", cop_i))


@chance("unknown", "the Unknown Circumstances marker is revealed")
def _unknown_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    # the markers face down are a random draw of those not yet seen (deck order is chance)
    total = sum(st.unknown)
    return [(codec.UNKNOWN + k, c / total) for k, c in enumerate(st.unknown) if c]


@applies("unknown")
def _unknown(st: PrecinctState, task: Task, action: Action) -> None:
    kind = action - codec.UNKNOWN
    slot = st.slot(task[1])
    slot.unknown = kind
    st.unknown[kind] -= 1
    st.note("unknown", f"Unknown Circumstances: {UNKNOWN[kind].replace('_', ' ')}")


def emergency_dice(st: PrecinctState) -> tuple[int, int]:
    """(dice, number needed) of the emergency roll under way, after the Unknown Circumstances."""
    ctx = st.ctx
    slot = st.slot(ctx["slot"])
    card = st.game.content.events[slot.card]
    c = st.cops[ctx["cop"]]
    n, need = int(ctx["n"]), card.number
    u = UNKNOWN[slot.unknown] if slot.unknown >= 0 else ""
    if u in ("punks", "angry_dog", "shotgun") or (u == "disrespect" and c.marked):
        n -= 1
    if u == "respect" and c.marked:
        n += 1
    if u == "big_knife":
        need += 1
    if u in ("hostage", "bomb"):
        n -= int(ctx["sym"])
    n -= int(ctx.get("sabotage", 0))
    return max(0, n), need


@chance("em_roll", "{turn} rolls for the emergency")
def _em_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    n, need = emergency_dice(st)
    miss = min(1.0, max(0.0, (need - 1) / 6))
    p = 1 - miss**n  # the highest die counts [Handle an Emergency, step 5]
    return [(codec.HANDLED, p), (codec.FAILED, 1 - p)]


@applies("em_roll")
def _em_rolled(st: PrecinctState, task: Task, action: Action) -> None:
    cop_i = task[1]
    e = st.ctx["slot"]
    slot = st.slot(e)
    card = st.game.content.events[slot.card]
    n, need = emergency_dice(st)
    ok = action == codec.HANDLED
    st.events.append(Rolled(cop_i, "emergency", n, need, int(ok)))
    st.ctx = {}
    if not ok:
        st.note("emergency", f"{card.name} is not handled")
        if card.hospital:
            hospital(st, cop_i)
        return
    st.note("emergency", f"{card.name} is handled")
    if card.special == "officer_down":
        st.patrol_stock += 1
        eventcards.discard_slot(st, e, handled=True)
        eventcards.pay_rewards(st, cop_i, slot.card)
        return
    tasks: list[Task] = []
    u = UNKNOWN[slot.unknown] if slot.unknown >= 0 else ""
    if u == "insider_knowledge":  # the marker's bonus first
        tasks.append(("deck", cop_i, "insider"))
    elif u == "stolen_goods":
        tasks.append(("deal_police", cop_i, 1))
    rewards = [REWARDS.index(r) for r in card.rewards]
    eventcards.discard_slot(st, e, handled=True)
    if st.has(st.cops[cop_i], "donut_lover"):
        gain_donut(st, cop_i)
    if card.both or len(rewards) == 1:
        tasks += [("take_reward", cop_i, r) for r in rewards]
    else:
        tasks.append(("fed", cop_i, tuple(rewards)))
    push(st, *tasks)


@decision("fed", "cop", "{who} may use the Federal Agent token")
def _fed_options(st: PrecinctState, task: Task) -> list[Action]:
    return [codec.PROCEED, codec.YES] if st.cops[task[1]].fed else [codec.PROCEED]


@applies("fed")
def _fed(st: PrecinctState, task: Task, action: Action) -> None:
    cop_i, rewards = task[1], task[2]
    if action == codec.YES:  # every reward, and a second emergency this turn [Handle an Emergency, NOTE]
        st.cops[cop_i].fed -= 1
        st.note("federal", f"{cop_name(st, cop_i)} uses the Federal Agent token")
        push(st, *[("take_reward", cop_i, r) for r in rewards], ("second", cop_i))
    else:
        push(st, ("reward", cop_i, rewards))


@decision("second", "cop", "{who} may handle a second emergency")
def _second_options(st: PrecinctState, task: Task) -> list[Action]:
    handles = [codec.HANDLE + e for e in range(codec.MAX_SLOTS) if _handleable(st, task[1], e)
               and st.game.content.events[st.slots[e].card].special == ""]  # type: ignore[union-attr]
    return [codec.PROCEED, *handles] if handles else []


@applies("second")
def _second(st: PrecinctState, task: Task, action: Action) -> None:
    if action != codec.PROCEED:
        _handle(st, task[1], action - codec.HANDLE)


@decision("reward", "cop", "{who} picks a reward")
def _reward_options(st: PrecinctState, task: Task) -> list[Action]:
    return [codec.REWARD + r for r in task[2]]


@applies("reward")
def _rewarded(st: PrecinctState, task: Task, action: Action) -> None:
    push(st, ("take_reward", task[1], action - codec.REWARD))


@auto("take_reward")
def _take_reward(st: PrecinctState, task: Task) -> None:
    """An emergency's reward [Police Card Symbols and Emergency Rewards]."""
    cop_i, r = task[1], REWARDS[task[2]]
    if r == "donut":
        gain_donut(st, cop_i)
    elif r == "police_card":
        common.draw_police(st, cop_i)
    elif r == "look_investigation":
        push(st, ("deck", cop_i, "look2"))
    elif r == "look_event":
        st.cops[cop_i].skip_event = True  # "You do not draw an event this turn"
        if _events_drawable(st):
            push(st, ("peek_event", cop_i), ("event_look", cop_i))
    elif r == "skip_event":
        st.cops[cop_i].skip_event = True


# --- looks at investigation stacks --------------------------------------------------------------
_LOOK_SIZE = {"look2": 2, "insider": 2, "fresh": 3}


@decision("deck", "cop", "{who} chooses an investigation stack to look at")
def _deck_options(st: PrecinctState, task: Task) -> list[Action]:
    return [codec.DECK + d for d in range(len(DECKS)) if _lookable(st, d)]


@applies("deck")
def _decked(st: PrecinctState, task: Task, action: Action) -> None:
    deck = action - codec.DECK
    s = st.stacks[deck]
    k = min(_LOOK_SIZE[task[2]], s.size)
    st.note("look", f"{cop_name(st, task[1])} looks at {k} {DECKS[deck].replace('_', ' ')} cards")
    push(st, ("look", task[1], deck, k, task[2]))


def _look_split(st: PrecinctState, task: Task) -> tuple[int, int]:
    """(known top cards, cards from the unknown middle) among the ``k`` looked at."""
    s = st.stacks[task[2]]
    k = task[3]
    t = min(k, len(s.top))
    me, mu = s.middle()
    return t, min(k - t, me + mu)


@chance("look", "investigation cards are looked at")
def _look_outcomes(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    s = st.stacks[task[2]]
    t, m = _look_split(st, task)
    me, mu = s.middle()
    known = 0
    for i, (kind, _) in enumerate(s.top[:t]):
        known |= int(kind) << i
    out: list[tuple[Action, float]] = []
    for mask in range(1 << m):  # the unknown cards in order: a sequence of draws without replacement
        p, e, u = 1.0, me, mu
        for i in range(m):
            if mask >> i & 1:
                p *= e / (e + u)
                e -= 1
            else:
                p *= u / (e + u)
                u -= 1
        if p > 0:
            out.append((codec.LOOKED + (known | mask << t), p))
    return out


@applies("look")
def _looked(st: PrecinctState, task: Task, action: Action) -> None:
    from solver.games.precinct.events import Looked

    cop_i, deck, why = task[1], task[2], task[4]
    s = st.stacks[deck]
    t, m = _look_split(st, task)
    mask = action - codec.LOOKED
    cards = [bool(mask >> i & 1) for i in range(t + m)]
    seat = st.cops[cop_i].seat
    st.events.append(Looked(cop_i, DECKS[deck], tuple(cards), visible_to=frozenset({seat})))
    # the looked-at cards now lie on top, known to the looker (and to those who knew them already)
    old = s.top[:t]
    s.top[:t] = [(kind, knowers | {seat}) for kind, knowers in old]
    s.top[t:t] = [(kind, frozenset({seat})) for kind in cards[t:]]
    if why in ("look2", "fresh") and len(cards) >= 2:  # asked even of cards alike: the table cannot tell
        push(st, ("order", cop_i, deck, len(cards), why))


@decision("order", "cop", "{who} puts the cards back")
def _order_options(st: PrecinctState, task: Task) -> list[Action]:
    if task[4] == "fresh":
        return [codec.EV_FIRST, codec.EV_LAST, codec.SHUFFLE]
    return [codec.EV_FIRST, codec.EV_LAST]


@applies("order")
def _ordered(st: PrecinctState, task: Task, action: Action) -> None:
    cop_i, deck, k, why = task[1], task[2], task[3], task[4]
    s = st.stacks[deck]
    seat = frozenset({st.cops[cop_i].seat})
    kinds = [kind for kind, _ in s.top[:k]]
    if action == codec.SHUFFLE:
        s.shuffle()
        return
    first = action == codec.EV_FIRST
    ordered = sorted(kinds, key=lambda kind: kind != first)
    if why == "look2":  # one on top, one on the bottom [Emergency reward]
        del s.top[:k]
        s.top.insert(0, (ordered[0], seat))
        s.bottom.append((ordered[1], seat))
    else:
        s.top[:k] = [(kind, seat) for kind in ordered]


# --- upgrades, accusations, revealing -----------------------------------------------------------
def _upgrade(st: PrecinctState, cop_i: int, u: int) -> None:
    """[Upgrade Your Character]: one donut each, at most two, no duplicates; both at once allowed."""
    c = st.cops[cop_i]
    spend_donuts(st, cop_i, 1)
    st.upgrades_left[u] -= 1
    c.upgrades.append(u)
    st.note("upgrade", f"{cop_name(st, cop_i)} upgrades {UPGRADES[u]}")
    if c.donuts and len(c.upgrades) < 2:
        push(st, ("upgrade", cop_i))


@decision("upgrade", "cop", "{who} may buy a second upgrade")
def _upgrade_options(st: PrecinctState, task: Task) -> list[Action]:
    c = st.cops[task[1]]
    ups = [codec.UPGRADE + u for u in range(len(UPGRADES)) if st.upgrades_left[u] and u not in c.upgrades]
    return [codec.PROCEED, *ups] if ups and c.donuts else []


@applies("upgrade")
def _upgraded(st: PrecinctState, task: Task, action: Action) -> None:
    if action != codec.PROCEED:
        _upgrade(st, task[1], action - codec.UPGRADE)


def _accuse(st: PrecinctState, cop_i: int, target: int) -> None:
    """[Accusing another player of being Dirty]: three donuts from any players, then the card shows."""
    st.ctx = {"kind": "accuse", "cop": cop_i, "target": target, "donors": []}
    st.note("accuse", f"{cop_name(st, cop_i)} accuses seat {target} of being dirty")
    k = st.order.index(cop_i)
    donors = [st.order[(k + j) % len(st.order)] for j in range(len(st.order))]
    push(st, *[("donate", d) for d in donors if not st.cops[d].out], ("accused", cop_i))


@decision("donate", "cop", "{who} may give donuts to the accusation")
def _donate_options(st: PrecinctState, task: Task) -> list[Action]:
    have = st.cops[task[1]].donuts
    need = 3 - sum(k for _, k in st.ctx["donors"])
    top = min(have, need)
    return [codec.DONATE + k for k in range(top + 1)] if top > 0 else []


@applies("donate")
def _donated(st: PrecinctState, task: Task, action: Action) -> None:
    k = action - codec.DONATE
    if k:
        st.cops[task[1]].donuts -= k
        st.ctx["donors"].append((task[1], k))
        st.note("donate", f"{cop_name(st, task[1])} gives {k} donut{'s' * (k != 1)}")


@auto("accused")
def _accused(st: PrecinctState, task: Task) -> None:
    cop_i, target = task[1], st.ctx["target"]
    donors = st.ctx["donors"]
    st.ctx = {}
    if sum(k for _, k in donors) < 3:  # too few donuts: nothing happens, the donuts go back
        for d, k in donors:
            st.cops[d].donuts += k
        st.note("accuse", "too few donuts: the accusation is dropped")
        return
    st.donut_supply += 3
    st.revealed[target] = True
    dirty = st.loyalty[target]
    st.events.append(LoyaltyShown(target, dirty))
    if dirty:  # removed, underground without the loyalty skill; the accuser takes a donut
        for i, c in enumerate(st.cops):
            if c.seat == target:
                _leave_board(st, i, keep_donuts=False)
        st.underground[target] = True
        gain_donut(st, cop_i)
        st.note("accuse", f"seat {target} is the dirty cop and goes underground")
        return
    c = st.cops[cop_i]  # wrong: the accuser loses his whole hand and his turn
    for kind in sorted(c.hand):  # in card order, not the order received
        common.take_card(st, cop_i, kind)
    c.no_draw = True
    st.note("accuse", f"seat {target} is loyal: the accuser discards his hand and ends his turn")


def _leave_board(st: PrecinctState, cop_i: int, keep_donuts: bool) -> None:
    c = st.cops[cop_i]
    for kind in sorted(c.hand):  # in card order, not the order received
        common.take_card(st, cop_i, kind)
    for u in c.upgrades:
        st.upgrades_left[u] += 1
    c.upgrades.clear()
    if not keep_donuts:
        st.donut_supply += c.donuts
        c.donuts = 0
    c.out = True


def reveal(st: PrecinctState, cop_i: int) -> None:
    """[Reveal your (lack of) loyalty]: keep the donuts, discard the rest, play the loyalty card."""
    c = st.cops[cop_i]
    st.revealed[c.seat] = True
    st.underground[c.seat] = True
    st.events.append(LoyaltyShown(c.seat, True))
    _leave_board(st, cop_i, keep_donuts=True)
    c.no_draw = True
    c.skip_event = True
    st.note("reveal", f"seat {c.seat} reveals: the dirty cop")
    gain_donut(st, cop_i, st.game.content.reveal_donuts)  # the loyalty card's skill (stand-in)


@decision("loyalty", "seat", "dirty cop {who} takes a loyalty-card action")
def _loyalty_options(st: PrecinctState, task: Task) -> list[Action]:
    from solver.games.precinct.content import LOYALTY_ACTIONS

    return [codec.LOYALTY + LOYALTY_ACTIONS.index(a) for a in st.game.content.loyalty_actions]


@applies("loyalty")
def _loyal(st: PrecinctState, task: Task, action: Action) -> None:
    from solver.games.precinct.content import LOYALTY_ACTIONS

    a = LOYALTY_ACTIONS[action - codec.LOYALTY]
    cop_i = st.cop_index
    st.note("loyalty", f"the dirty cop: {a.replace('_', ' ')}")
    if a == "incite":
        push(st, ("hood", cop_i, "incite"))
    elif a == "steal_donut":
        gain_donut(st, cop_i)
    else:
        push(st, ("event_draw", cop_i))


@decision("hood", "cop", "{who} chooses a Bad Hood")
def _hood_options(st: PrecinctState, task: Task) -> list[Action]:
    if task[2] == "outreach":
        return [codec.HOOD + h for h in range(6) if st.punks[h]]
    return [codec.HOOD + h for h in range(6)]


@applies("hood")
def _hooded(st: PrecinctState, task: Task, action: Action) -> None:
    hood = action - codec.HOOD + 1
    why = task[2]
    if why == "outreach":
        st.punks[hood - 1] -= 1
        st.punk_supply += 1
        st.note("punk", f"a street punk leaves Bad Hood {hood}")
        if not st.punks[hood - 1] and st.gangs[hood - 1] >= 0:
            st.gang_pool.append(st.gangs[hood - 1])
            st.gangs[hood - 1] = -1
    elif why == "incite":
        eventcards.add_punks(st, [hood])
    elif why == "officer":
        st.patrol_stock -= 1
        st.patrol[hood - 1] += 1
        st.note("officer", f"a patrol officer takes post in Bad Hood {hood}")


@decision("dispatch", "cop", "{who} dispatches patrol officers")
def _dispatch_options(st: PrecinctState, task: Task) -> list[Action]:
    if not st.patrol_stock:
        return []
    return [codec.PROCEED, *[codec.HOOD + h for h in range(6)]]


@applies("dispatch")
def _dispatched(st: PrecinctState, task: Task, action: Action) -> None:
    if action == codec.PROCEED:
        return
    hood = action - codec.HOOD
    st.patrol_stock -= 1
    st.patrol[hood] += 1
    st.note("officer", f"a patrol officer is dispatched to Bad Hood {hood + 1}")
    push(st, task)


@decision("tow", "cop", "{who} tows a Traffic Accident away")
def _tow_options(st: PrecinctState, task: Task) -> list[Action]:
    return [codec.HANDLE + e for e, s in enumerate(st.slots) if s is not None and s.at == AT_CROSSING]


@applies("tow")
def _towed(st: PrecinctState, task: Task, action: Action) -> None:
    eventcards.discard_slot(st, action - codec.HANDLE, handled=True)


@decision("target", "cop", "{who} chooses whom Internal Affairs questions")
def _target_options(st: PrecinctState, task: Task) -> list[Action]:
    me = st.cops[task[1]].seat
    return [codec.TARGET + p for p in range(st.n) if p != me and not st.revealed[p]
            and p not in st.peeks[me]]


@applies("target")
def _targeted(st: PrecinctState, task: Task, action: Action) -> None:
    me = st.cops[task[1]].seat
    p = action - codec.TARGET
    st.peeks[me].add(p)
    st.note("internal affairs", f"Internal Affairs shows seat {me} the loyalty card of seat {p}")
    st.events.append(LoyaltyShown(p, st.loyalty[p], visible_to=frozenset({me})))

