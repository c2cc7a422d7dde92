# cython: cdivision=True
# The Police Precinct rules: the task machinery, the turn flow, the task kinds of procedures.py and of
# eventcards.py, as nogil C functions over the PState / PContent / CityC structs
# (solver/_ext/precinct_rules.pxd lists what is ported and the statuses). Twins:
# solver/games/precinct/tasks.py, common.py, turn.py, procedures.py and eventcards.py. Each C function
# below names the Python function it follows line by line; change both together.
# tests/test_precinct_kernel_rules.py plays seeded games and compares every step with the Python rules,
# and plays whole games to their end from mid-game states in C and in Python side by side.
"""The Police Precinct task machinery, turn flow, procedures and event cards in C (not used by any bot yet).

Pure twins: :mod:`solver.games.precinct.tasks`, :mod:`~solver.games.precinct.common`,
:mod:`~solver.games.precinct.turn`, :mod:`~solver.games.precinct.procedures` and
:mod:`~solver.games.precinct.eventcards`. Ported: every task kind of play: those of ``common`` and
``turn`` (less the set-up), of ``procedures`` (action, inv_draw, claim, inv_done, deck, look, order,
officers, swat, donuts, help, sabotage, fed, second, arrest_roll, em_roll, unknown, reward, take_reward,
upgrade, donate, accused, loyalty, hood, dispatch, tow, target) and of ``eventcards`` (van, event_phase,
event_draw, resolve, event_look, peek_event, place_roll, punk_roll, special_roll, gang, gas, gas_fixed,
drive, escape), so a game runs to its end in C from any position after the set-up. Set-up kinds are
refused (:class:`PrecinctCRules` raises ``BadStateError("precinct kernel: set-up task X ...")``): searches
start mid-game. The kernel is unused by bots: the Python methods are for the tests; a simulator calls
the nogil ``pr_*`` functions.
"""

from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from libc.math cimport pow
from libc.string cimport memset
from libc.stdlib cimport malloc, free

from solver._ext.precinct_codec cimport *
from solver._ext.rng cimport SplitMix, sm_below, sm_uniform
from solver._ext.precinct_state cimport *
from solver._ext.precinct_content cimport *
from solver._ext.precinct_city cimport (CCity, CityC, CITY_MAX, city_path, city_reach, city_moves,
                                        city_hood_of, mask_pop)

from solver.core.errors import BadStateError
from solver.games.precinct import eventcards as _eventcards
from solver.games.precinct import procedures as _procedures
from solver._ext import precinct_content as _pcontent
from solver._ext import precinct_state as _pstate

# --- constants read once from the Python rules (no second copy to drift) -------------------------

cdef int ESCORT_TURNS = _eventcards.ESCORT_TURNS
cdef int OVERTIME_MOVES = 2         # procedures.play_text: "c.extra_move += 2"
cdef int HAND_LIMIT = 7             # turn._hand_limit
cdef int BIG_HAND_LIMIT = 9
cdef int AT_BUILDING_ = 0           # board.AT_BUILDING
cdef int AT_CROSSING_ = 1           # board.AT_CROSSING
cdef int AT_STREET_ = 2             # board.AT_STREET
cdef int AT_HOOD_ = 3               # board.AT_HOOD

cdef uint64_t _text_mask(object names) except? 0:
    cdef uint64_t m = 0
    for name in names:
        m |= (<uint64_t>1) << _pcontent.TEXT_NAMES.index(name)
    return m

cdef uint64_t IN_ROLL_TEXTS = _text_mask(_procedures.IN_ROLL)
cdef uint64_t START_ONLY_TEXTS = _text_mask(_procedures.START_ONLY)

#: status codes of PrecinctCRules.apply
OK = PR_OK
STOPPED = PR_STOPPED

cdef tuple TASK_NAMES = _pstate.TASK_NAMES

cdef int _check_tables() except -1:
    from solver.games.precinct import board as _board
    if (_board.AT_CROSSING != AT_CROSSING_ or _board.AT_HOOD != AT_HOOD_
            or _board.AT_BUILDING != AT_BUILDING_ or _board.AT_STREET != AT_STREET_):
        raise ImportError("solver._ext.precinct_rules: board.AT_CROSSING moved")
    if len(TASK_NAMES) != T_COUNT:
        raise ImportError("solver._ext.precinct_rules: task kinds disagree with precinct_state")
    return 0

_check_tables()


# --- small helpers --------------------------------------------------------------------------------

cdef inline uint64_t bit(int k) noexcept nogil:
    return (<uint64_t>1) << k


cdef PTask pr_task(int kind, int nargs, int a0, int a1, int a2, int a3) noexcept nogil:
    cdef PTask t
    t.kind = <uint8_t>kind
    t.nargs = <uint8_t>nargs
    t.args[0] = <int16_t>a0
    t.args[1] = <int16_t>a1
    t.args[2] = <int16_t>a2
    t.args[3] = <int16_t>a3
    return t


cdef int pr_push(PRules* r, PTask t) noexcept nogil:
    # tasks.push(st, t): in front of the queue; PR_BOUND past PS_MAX_TODO
    if ps_push_front(r.s, t) < 0:
        r.err_kind = t.kind
        return PR_BOUND
    return PR_OK


cdef bint pr_ported(int kind) noexcept nogil:
    return (kind == T_START or kind == T_MOVE or kind == T_SUPPORT or kind == T_DISCARD
            or kind == T_DEAL_POLICE or kind == T_FIRST_TURN or kind == T_TURN_START
            or kind == T_AFTER_MOVE or kind == T_POLICE_PHASE or kind == T_HAND_LIMIT
            or kind == T_END_TURN
            # procedures.py
            or kind == T_ACTION or kind == T_INV_DRAW or kind == T_CLAIM or kind == T_INV_DONE
            or kind == T_DECK or kind == T_LOOK or kind == T_ORDER or kind == T_OFFICERS
            or kind == T_SWAT or kind == T_DONUTS or kind == T_HELP or kind == T_SABOTAGE
            or kind == T_FED or kind == T_SECOND or kind == T_ARREST_ROLL or kind == T_EM_ROLL
            or kind == T_UNKNOWN or kind == T_REWARD or kind == T_TAKE_REWARD or kind == T_UPGRADE
            or kind == T_DONATE or kind == T_ACCUSED or kind == T_LOYALTY or kind == T_HOOD
            or kind == T_DISPATCH or kind == T_TOW or kind == T_TARGET
            # eventcards.py
            or kind == T_VAN or kind == T_EVENT_PHASE or kind == T_EVENT_DRAW or kind == T_RESOLVE
            or kind == T_EVENT_LOOK or kind == T_PEEK_EVENT or kind == T_PLACE_ROLL
            or kind == T_PUNK_ROLL or kind == T_SPECIAL_ROLL or kind == T_GANG or kind == T_GAS
            or kind == T_GAS_FIXED or kind == T_DRIVE or kind == T_ESCAPE)


cdef bint pr_setup_kind(int kind) noexcept nogil:
    return (kind == T_CAR or kind == T_PICK or kind == T_DEAL_LOYALTY or kind == T_SETUP_DEAL
            or kind == T_SETUP_PUNK or kind == T_STACK_BLOCK or kind == T_SETUP_EMERGENCY)


cdef inline int _unported(PRules* r, int kind) noexcept nogil:
    r.err_kind = kind
    return PR_SETUP if pr_setup_kind(kind) else PR_NOT_PORTED


cdef void pr_end(PRules* r, bint good_win) noexcept nogil:
    # PrecinctState.end: the first result stands; the queue is emptied
    if r.s.result != 0:
        return
    r.s.result = 1 if good_win else -1
    r.s.todo_len = 0


cdef void pr_advance_crime(PRules* r) noexcept nogil:
    # PrecinctState.advance_crime
    r.s.crime += 1
    if r.s.crime >= r.c.crime_fail:
        pr_end(r, False)


cdef uint64_t pr_blocked(const PRules* r) noexcept nogil:
    # PrecinctState.blocked: intersections an emergency lies on
    cdef uint64_t m = 0
    cdef int e
    for e in range(PS_MAX_SLOTS):
        if r.s.slots[e].full and r.s.slots[e].at == AT_CROSSING_:
            m |= bit(r.s.slots[e].where)
    return m


cdef bint pr_covered(const PRules* r, int deck) noexcept nogil:
    # PrecinctState.covered: a card on the board at the stack's building (names compared as in Python,
    # "" matching "": -1 matching -1)
    cdef int b = r.s.stacks[deck].building
    cdef int e
    for e in range(PS_MAX_SLOTS):
        if r.s.slots[e].full and r.s.slots[e].building == b:
            return True
    return False


cdef bint pr_has(const PRules* r, int cop, int power) noexcept nogil:
    return pc_has(r.c, r.s.cops[cop].chr, power)


cdef int pr_murderer_hood(const PRules* r) noexcept nogil:
    # common.murderer_hood
    cdef int d
    if r.s.turn_track < r.c.murderer_turn:
        return 0
    d = 6 - (r.s.turn_track - r.c.murderer_turn)
    return d if d > 0 else 0


cdef bint pr_station_overrun(const PRules* r) noexcept nogil:
    # common.station_overrun
    cdef int e
    for e in range(PS_MAX_SLOTS):
        if r.s.slots[e].full and r.c.events[r.s.slots[e].card].special == SP_DETAINEES_RUN_AMOK:
            return True
    return False


cdef inline int _sum16(const int16_t* a, int n) noexcept nogil:
    cdef int i, t = 0
    for i in range(n):
        t += a[i]
    return t


cdef int pr_police_left(const PRules* r) noexcept nogil:
    # common.police_left
    return _sum16(r.s.police, r.s.n_police_kinds) + _sum16(r.s.police_discard, r.s.n_police_kinds)


cdef uint64_t pr_playable(const PRules* r, int cop, bint own_turn) noexcept nogil:
    # common.playable, as a mask of kinds (bit k: kind k may be played)
    cdef const PCop* c = &r.s.cops[cop]
    cdef uint64_t m = 0
    cdef int i
    for i in range(c.n_hand):
        if not (own_turn and c.fresh[i]):
            m |= bit(c.hand[i])
    return m


# --- hands (common.py) ----------------------------------------------------------------------------

cdef int pr_give_card(PRules* r, int cop, int kind, bint fresh) noexcept nogil:
    # common.give_card
    cdef PCop* c = &r.s.cops[cop]
    if c.n_hand >= PS_MAX_HAND:
        return PR_BOUND
    c.hand[c.n_hand] = <uint8_t>kind
    c.fresh[c.n_hand] = fresh
    c.n_hand += 1
    return PR_OK


cdef int pr_take_card(PRules* r, int cop, int kind) noexcept nogil:
    # common.take_card: the first copy held since before this turn, else the first fresh one
    cdef PCop* c = &r.s.cops[cop]
    cdef int i, at = -1
    for i in range(c.n_hand):
        if c.hand[i] == kind and not c.fresh[i]:
            at = i
            break
    if at < 0:
        for i in range(c.n_hand):
            if c.hand[i] == kind:
                at = i
                break
    if at < 0:
        return PR_BAD
    for i in range(at, c.n_hand - 1):
        c.hand[i] = c.hand[i + 1]
        c.fresh[i] = c.fresh[i + 1]
    c.n_hand -= 1
    c.hand[c.n_hand] = 0
    c.fresh[c.n_hand] = 0
    r.s.police_discard[kind] += 1
    return PR_OK


cdef int pr_draw_police(PRules* r, int cop, bint fresh) noexcept nogil:
    # common.draw_police
    if pr_police_left(r) > 0:
        return pr_push(r, pr_task(T_DEAL_POLICE, 2, cop, 1 if fresh else 0, 0, 0))
    return PR_OK


cdef int _deal_police_outcomes(PRules* r, int* actions, double* probs) noexcept nogil:
    # common._deal_police: the deck, or the discard pile when the deck is empty (a reshuffle)
    cdef const int16_t* counts = r.s.police
    cdef int k, n = 0
    cdef int total = _sum16(r.s.police, r.s.n_police_kinds)
    if total == 0:
        counts = r.s.police_discard
        total = _sum16(counts, r.s.n_police_kinds)
    for k in range(r.s.n_police_kinds):
        if counts[k]:
            actions[n] = POLICE + k
            probs[n] = <double>counts[k] / total
            n += 1
    return n


cdef int _dealt_police(PRules* r, const PTask* t, int action) noexcept nogil:
    # common._dealt_police
    cdef int k = action - POLICE
    cdef int i
    if not 0 <= k < r.s.n_police_kinds:
        return PR_BAD
    if _sum16(r.s.police, r.s.n_police_kinds) == 0:
        for i in range(r.s.n_police_kinds):
            r.s.police[i] = r.s.police_discard[i]
            r.s.police_discard[i] = 0
    if r.s.police[k] <= 0:
        return PR_BAD
    r.s.police[k] -= 1
    return pr_give_card(r, t.args[0], k, t.args[1] != 0)


cdef void pr_gain_donut(PRules* r, int cop, int n) noexcept nogil:
    # common.gain_donut: donuts are limited
    cdef int got = n if n < r.s.donut_supply else r.s.donut_supply
    r.s.donut_supply -= got
    r.s.cops[cop].donuts += got


cdef void pr_spend_donuts(PRules* r, int cop, int n) noexcept nogil:
    # common.spend_donuts
    r.s.cops[cop].donuts -= n
    r.s.donut_supply += n


cdef int pr_hospital(PRules* r, int cop) noexcept nogil:
    # common.hospital
    cdef PCop* c = &r.s.cops[cop]
    cdef int kinds[PS_MAX_HAND]
    cdef int i, j, n, k, rc
    c.street = r.c.hospital_street
    c.hospital = 1
    if pr_has(r, cop, POW_TOUGH):
        return PR_OK
    if c.n_hand <= 2:
        n = c.n_hand
        for i in range(n):            # face up in card order: sorted(c.hand)
            kinds[i] = c.hand[i]
        for i in range(1, n):
            k = kinds[i]
            j = i - 1
            while j >= 0 and kinds[j] > k:
                kinds[j + 1] = kinds[j]
                j -= 1
            kinds[j + 1] = k
        for i in range(n):
            rc = pr_take_card(r, cop, kinds[i])
            if rc < 0:
                return rc
        return PR_OK
    rc = pr_push(r, pr_task(T_DISCARD, 2, cop, DR_HOSPITAL, 0, 0))
    if rc < 0:
        return rc
    return pr_push(r, pr_task(T_DISCARD, 2, cop, DR_HOSPITAL, 0, 0))


# --- the board hooks (eventcards.py) --------------------------------------------------------------

cdef inline int _special(const PRules* r, int e) noexcept nogil:
    # eventcards._special as an SP_* code (SP_NONE for an empty slot or an emergency)
    if not r.s.slots[e].full:
        return SP_NONE
    return r.c.events[r.s.slots[e].card].special


cdef bint _gang_queued(const PRules* r, int hood) noexcept nogil:
    # ("gang", hood) in st.todo
    cdef int i
    for i in range(r.s.todo_len):
        if r.s.todo[i].kind == T_GANG and r.s.todo[i].nargs == 1 and r.s.todo[i].args[0] == hood:
            return True
    return False


cdef int pr_add_punks(PRules* r, const int* hoods, int n) noexcept nogil:
    # eventcards.add_punks: too few punks in the supply places none and advances crime
    cdef int i, hood, rc
    if r.s.punk_supply < n:
        pr_advance_crime(r)
        return 0
    for i in range(n):
        hood = hoods[i]
        r.s.punks[hood - 1] += 1
        r.s.punk_supply -= 1
        if r.s.punks[hood - 1] >= 4 and r.s.gangs[hood - 1] < 0:
            if r.s.n_gang_pool == 0:
                pr_advance_crime(r)
            elif not _gang_queued(r, hood):
                rc = pr_push(r, pr_task(T_GANG, 1, hood, 0, 0, 0))
                if rc < 0:
                    return rc
    return 1


cdef int pr_discard_slot(PRules* r, int e, bint handled) noexcept nogil:
    # eventcards.discard_slot
    cdef PSlot* slot = &r.s.slots[e]
    if not slot.full:
        return PR_BAD
    if slot.unknown >= 0:
        r.s.unknown_discard[slot.unknown] += 1
    elif slot.unknown == -2:
        r.s.unknown_unseen += 1
    r.s.event_discard[slot.card] += 1
    memset(slot, 0, sizeof(PSlot))
    if r.s.urgent == e:
        r.s.urgent = -1
    if not handled:
        pr_advance_crime(r)
    return PR_OK


cdef int pr_pay_rewards(PRules* r, int cop, int kind) noexcept nogil:
    # eventcards.pay_rewards: push(take_reward for each printed reward), the first one at the head
    cdef const PEvent* ev = &r.c.events[kind]
    cdef int i, rc
    i = ev.n_rewards - 1
    while i >= 0:
        rc = pr_push(r, pr_task(T_TAKE_REWARD, 2, cop, ev.rewards[i], 0, 0))
        if rc < 0:
            return rc
        i -= 1
    return PR_OK


cdef int _first_player_turn(PRules* r) noexcept nogil:
    # eventcards.first_player_turn
    cdef int h, e, rc
    cdef int hood[1]
    for h in range(PS_HOODS):
        if r.s.gangs[h] >= 0 and r.c.gangs[r.s.gangs[h]] == GANG_RECRUITERS:
            hood[0] = h + 1
            rc = pr_add_punks(r, hood, 1)
            if rc < 0:
                return rc
    for e in range(PS_MAX_SLOTS):
        if _special(r, e) == SP_STREET_RIOT:
            hood[0] = r.s.slots[e].where
            rc = pr_add_punks(r, hood, 1)
            if rc < 0:
                return rc
    for e in range(PS_MAX_SLOTS):
        if _special(r, e) == SP_ESCORT_VAN:
            r.s.slots[e].data += 1
            if r.s.slots[e].data >= ESCORT_TURNS:
                rc = pr_discard_slot(r, e, False)
                if rc < 0:
                    return rc
    return PR_OK


cdef int _end_of_turn(PRules* r) noexcept nogil:
    # eventcards.end_of_turn
    cdef int e, i, card, n_here, n_cars, rc
    cdef int here[PS_MAX_COPS]
    cdef int turn_cop = r.s.order[r.s.at]
    for e in range(PS_MAX_SLOTS):
        if _special(r, e) == SP_STREET_RIOT and r.s.punks[r.s.slots[e].where - 1] == 0:
            card = r.s.slots[e].card
            rc = pr_discard_slot(r, e, True)
            if rc < 0:
                return rc
            if not r.s.cops[turn_cop].out:
                rc = pr_pay_rewards(r, turn_cop, card)
                if rc < 0:
                    return rc
    for e in range(PS_MAX_SLOTS):
        if _special(r, e) != SP_CAR_THEFT:
            continue
        n_here = 0
        for i in range(r.s.n_cops):
            if not r.s.cops[i].out and r.s.cops[i].street == r.s.slots[e].where:
                here[n_here] = i
                n_here += 1
        n_cars = n_here
        for i in range(r.s.n_support):
            if r.s.support[i] == r.s.slots[e].where:
                n_cars += 1
        if n_cars >= 2:  # the EXACT same street [Car Theft]
            card = r.s.slots[e].card
            rc = pr_discard_slot(r, e, True)
            if rc < 0:
                return rc
            for i in range(n_here):  # both officers earn their donuts
                rc = pr_pay_rewards(r, here[i], card)
                if rc < 0:
                    return rc
    return PR_OK


cdef int _after_car_move(PRules* r, int cop, int start) noexcept nogil:
    # eventcards.after_car_move
    cdef PCop* c = &r.s.cops[cop]
    cdef int e, card, rc
    for e in range(PS_MAX_SLOTS):
        if _special(r, e) == SP_ESCORT_VAN and r.s.slots[e].where == start and c.street != start:
            rc = pr_push(r, pr_task(T_VAN, 3, cop, e, start, 0))
            if rc < 0:
                return rc
    if c.street == r.c.station_street:
        for e in range(PS_MAX_SLOTS):
            if _special(r, e) == SP_OPTIONAL_TRAINING:
                card = r.s.slots[e].card
                rc = pr_discard_slot(r, e, True)
                if rc < 0:
                    return rc
                rc = pr_pay_rewards(r, cop, card)
                if rc < 0:
                    return rc
    return PR_OK


# --- police cards for their text (procedures.py) --------------------------------------------------

cdef inline int _sum8(const int8_t* a, int n) noexcept nogil:
    cdef int i, t = 0
    for i in range(n):
        t += a[i]
    return t


cdef bint _lookable(const PRules* r, int deck) noexcept nogil:
    # procedures._lookable
    cdef const PStack* s = &r.s.stacks[deck]
    return not s.gone and s.evidence + s.useless > 0 and not pr_covered(r, deck)


cdef bint _text_useful(const PRules* r, int street, int text) noexcept nogil:
    # procedures._text_useful
    cdef int d, e
    if text == TX_FRESH_PERSPECTIVE:
        for d in range(PS_DECKS):
            if _lookable(r, d):
                return True
        return False
    if text == TX_DISPATCH_OFFICERS:
        return (street == r.c.station_street
                and r.s.patrol_stock + _sum8(r.s.patrol, PS_HOODS) > 0
                and not pr_station_overrun(r))
    if text == TX_COMMUNITY_OUTREACH:
        return _sum8(r.s.punks, PS_HOODS) > 0
    if text == TX_TOW_TRUCK:
        for e in range(PS_MAX_SLOTS):
            if r.s.slots[e].full and r.s.slots[e].at == AT_CROSSING_:
                return True
        return False
    if text == TX_INFORMANT_TIP:
        return _sum16(r.s.events_left, r.s.n_event_kinds) + r.s.n_event_top + r.s.n_event_bottom > 0
    if text == TX_COFFEE_BREAK:
        return r.s.donut_supply > 0
    if text == TX_PAPERWORK:
        return pr_police_left(r) > 0
    if text == TX_HOT_PURSUIT:
        return pr_murderer_hood(r) > 0
    return text == TX_OVERTIME


cdef int pr_text_plays(const PRules* r, int cop, bint start, int* out) noexcept nogil:
    # procedures.text_plays: kinds in increasing order into ``out``; the count
    cdef uint64_t m = pr_playable(r, cop, True)
    cdef int k, text, n = 0
    while m:
        k = mask_pop(&m)
        text = r.c.police[k].text
        if IN_ROLL_TEXTS & bit(text) or (START_ONLY_TEXTS & bit(text) and not start):
            continue
        if _text_useful(r, r.s.cops[cop].street, text):
            out[n] = k
            n += 1
    return n


cdef int pr_play_text(PRules* r, int cop, int kind) noexcept nogil:
    # procedures.play_text
    cdef int rc = pr_take_card(r, cop, kind)
    cdef int text, h
    if rc < 0:
        return rc
    text = r.c.police[kind].text
    if text == TX_OVERTIME:
        r.s.cops[cop].extra_move += OVERTIME_MOVES
    elif text == TX_FRESH_PERSPECTIVE:
        return pr_push(r, pr_task(T_DECK, 2, cop, LW_FRESH, 0, 0))
    elif text == TX_DISPATCH_OFFICERS:
        for h in range(PS_HOODS):
            r.s.patrol_stock += r.s.patrol[h]
            r.s.patrol[h] = 0
        return pr_push(r, pr_task(T_DISPATCH, 1, cop, 0, 0, 0))
    elif text == TX_COMMUNITY_OUTREACH:
        return pr_push(r, pr_task(T_HOOD, 2, cop, HW_OUTREACH, 0, 0))
    elif text == TX_TOW_TRUCK:
        return pr_push(r, pr_task(T_TOW, 1, cop, 0, 0, 0))
    elif text == TX_INFORMANT_TIP:
        rc = pr_push(r, pr_task(T_EVENT_LOOK, 1, cop, 0, 0, 0))
        if rc < 0:
            return rc
        return pr_push(r, pr_task(T_PEEK_EVENT, 1, cop, 0, 0, 0))
    elif text == TX_COFFEE_BREAK:
        pr_gain_donut(r, cop, 1)
    elif text == TX_PAPERWORK:
        rc = pr_draw_police(r, cop, True)
        if rc < 0:
            return rc
        return pr_draw_police(r, cop, True)
    elif text == TX_HOT_PURSUIT:
        r.s.turn_track -= 1
    return PR_OK


# --- the turn (turn.py) ---------------------------------------------------------------------------

cdef int _first_turn(PRules* r) noexcept nogil:
    # turn._first_turn
    r.s.at = 0
    return pr_push(r, pr_task(T_TURN_START, 2, r.s.order[0], 1, 0, 0))


cdef int _turn_start(PRules* r, const PTask* t) noexcept nogil:
    # turn._turn_start
    cdef int cop_i = t.args[0]
    cdef bint first_ever = t.args[1] != 0
    cdef PCop* cop = &r.s.cops[cop_i]
    cdef int i, rc
    # the tail pushed below, head first: start, move, after_move, action, then the turn's tail
    cdef int kinds[8]
    r.s.turns += 1
    for i in range(r.s.n_cops):
        memset(r.s.cops[i].fresh, 0, PS_MAX_HAND)
    cop.hospital = 0
    cop.switched = 0
    cop.skip_event = 0
    cop.no_draw = 0
    cop.rewarded = 0
    cop.extra_move = 0
    cop.arrests = 0
    if r.s.at == 0 and not first_ever:
        r.s.turn_track += 1
        if r.s.turn_track >= r.c.fail_turn or (
                r.s.turn_track > r.c.murderer_turn and pr_murderer_hood(r) == 0):
            pr_end(r, False)
            return PR_OK
        rc = _first_player_turn(r)
        if rc < 0:
            return rc
        if r.s.result:
            return PR_OK
    if cop.out:  # a revealed dirty cop: one loyalty-card action
        rc = pr_push(r, pr_task(T_END_TURN, 1, cop_i, 0, 0, 0))
        if rc < 0:
            return rc
        return pr_push(r, pr_task(T_LOYALTY, 1, cop.seat, 0, 0, 0))
    kinds[0] = T_START
    kinds[1] = T_MOVE
    kinds[2] = T_AFTER_MOVE
    kinds[3] = T_ACTION
    kinds[4] = T_POLICE_PHASE
    kinds[5] = T_HAND_LIMIT
    kinds[6] = T_EVENT_PHASE
    kinds[7] = T_END_TURN
    i = 7
    while i >= 0:
        rc = pr_push(r, pr_task(kinds[i], 1, cop_i, 0, 0, 0))
        if rc < 0:
            return rc
        i -= 1
    return PR_OK


cdef int _start_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # turn._start_options: the window opens on public facts only
    cdef const PCop* cop = &r.s.cops[t.args[0]]
    cdef bint at_station = (cop.street == r.c.station_street and not cop.switched
                            and not pr_station_overrun(r))
    cdef bint all_fresh = True
    cdef int i, n, kinds_n
    for i in range(cop.n_hand):
        if not cop.fresh[i]:
            all_fresh = False
            break
    if not at_station and all_fresh:
        return 0
    out[0] = PROCEED
    n = 1
    if at_station:
        out[n] = UNMARKED if cop.marked else MARKED
        n += 1
    kinds_n = pr_text_plays(r, t.args[0], True, out + n)
    for i in range(kinds_n):
        out[n + i] += PLAY
    return n + kinds_n


cdef int _started(PRules* r, const PTask* t, int action) noexcept nogil:
    # turn._started: the window stays open (the task is pushed again) after a switch or a card
    cdef PCop* cop = &r.s.cops[t.args[0]]
    cdef int rc
    if action == MARKED or action == UNMARKED:
        cop.marked = action == MARKED
        cop.switched = 1
        return pr_push(r, t[0])
    if action != PROCEED:
        if not PLAY <= action < PLAY + r.s.n_police_kinds:
            return PR_BAD
        rc = pr_push(r, t[0])
        if rc < 0:
            return rc
        return pr_play_text(r, t.args[0], action - PLAY)
    return PR_OK


cdef int _move_allowance(const PRules* r, int cop_i) noexcept nogil:
    # turn.move_allowance
    cdef const PCop* cop = &r.s.cops[cop_i]
    cdef int i, base = 3 if cop.marked else 2
    if pr_has(r, cop_i, POW_FAST):
        base += 1
    for i in range(cop.n_upgrades):
        if cop.upgrades[i] == UP_MOVE:
            base += 1
            break
    return base + cop.extra_move


cdef uint64_t _reachable(const PRules* r, int cop_i, int steps, int* dist) noexcept nogil:
    # turn.reachable: a blocked intersection stops a car (not the motorcycle); the blockers gang's
    # hood may be entered but not driven on through
    cdef uint64_t sticky = 0
    cdef uint64_t blocked
    cdef int h
    for h in range(PS_HOODS):
        if r.s.gangs[h] >= 0 and r.c.gangs[r.s.gangs[h]] == GANG_BLOCKERS:
            sticky |= r.city.hood_mask[h]
    blocked = 0 if pr_has(r, cop_i, POW_MOTORCYCLE) else pr_blocked(r)
    return city_reach(r.city, r.s.cops[cop_i].street, steps, blocked, sticky, dist)


cdef int _move_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # turn._move_options
    cdef int cop_i = t.args[0]
    cdef uint64_t m = _reachable(r, cop_i, _move_allowance(r, cop_i) + r.s.cops[cop_i].donuts, NULL)
    cdef int n = 0
    while m:
        out[n] = MOVE + mask_pop(&m)
        n += 1
    return n


cdef int _moved(PRules* r, const PTask* t, int action) noexcept nogil:
    # turn._moved: the moves past the allowance are paid in donuts
    cdef int cop_i = t.args[0]
    cdef PCop* cop = &r.s.cops[cop_i]
    cdef int dist[CITY_MAX]
    cdef int start = cop.street
    cdef int dest = action - MOVE
    cdef int allowance = _move_allowance(r, cop_i)
    cdef int spent
    if not 0 <= dest < r.city.n_streets:
        return PR_BAD
    _reachable(r, cop_i, allowance + cop.donuts, dist)
    if dist[dest] < 0:
        return PR_BAD
    spent = dist[dest] - allowance
    if spent < 0:
        spent = 0
    cop.donuts -= spent
    r.s.donut_supply += spent
    cop.street = dest
    return _after_car_move(r, cop_i, start)


cdef int _after_move(PRules* r, const PTask* t) noexcept nogil:
    # turn._after_move: each support vehicle moves too, the first at the head
    cdef int k = r.s.n_support - 1
    cdef int rc
    while k >= 0:
        rc = pr_push(r, pr_task(T_SUPPORT, 2, t.args[0], k, 0, 0))
        if rc < 0:
            return rc
        k -= 1
    return PR_OK


cdef int _support_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # turn._support_options
    cdef uint64_t m = city_reach(r.city, r.s.support[t.args[1]], r.c.support_speed, pr_blocked(r), 0,
                                 NULL)
    cdef int n = 0
    while m:
        out[n] = SUPPORT + mask_pop(&m)
        n += 1
    return n


cdef int _supported(PRules* r, const PTask* t, int action) noexcept nogil:
    # turn._supported
    cdef int dest = action - SUPPORT
    if not 0 <= dest < r.city.n_streets:
        return PR_BAD
    r.s.support[t.args[1]] = dest
    return PR_OK


cdef int _police_phase(PRules* r, const PTask* t) noexcept nogil:
    # turn._police_phase: none after a hospital trip or a wrong accusation
    cdef const PCop* cop = &r.s.cops[t.args[0]]
    if cop.out or cop.hospital or cop.no_draw:
        return PR_OK
    return pr_draw_police(r, t.args[0], True)


cdef int _hand_limit(PRules* r, const PTask* t) noexcept nogil:
    # turn._hand_limit: measured at the end of the turn, again after each discard
    cdef int limit = BIG_HAND_LIMIT if pr_has(r, t.args[0], POW_BIG_HAND) else HAND_LIMIT
    cdef int rc
    if r.s.cops[t.args[0]].n_hand > limit:
        rc = pr_push(r, t[0])
        if rc < 0:
            return rc
        return pr_push(r, pr_task(T_DISCARD, 2, t.args[0], DR_LIMIT, 0, 0))
    return PR_OK


cdef int _discard_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # turn._discard_options
    cdef const PCop* cop = &r.s.cops[t.args[0]]
    cdef uint64_t m = 0
    cdef int i, n = 0
    for i in range(cop.n_hand):
        m |= bit(cop.hand[i])
    while m:
        out[n] = DISCARD + mask_pop(&m)
        n += 1
    return n


cdef int _discarded(PRules* r, const PTask* t, int action) noexcept nogil:
    # turn._discarded
    cdef int k = action - DISCARD
    if not 0 <= k < r.s.n_police_kinds:
        return PR_BAD
    return pr_take_card(r, t.args[0], k)


cdef int _end_turn(PRules* r, const PTask* t) noexcept nogil:
    # turn._end_turn: the next turn goes to the END of the queue, after what the turn's end queued
    cdef int rc = _end_of_turn(r)
    if rc < 0:
        return rc
    if r.s.result:
        return PR_OK
    r.s.at = (r.s.at + 1) % r.s.n_order
    if ps_push_back(r.s, pr_task(T_TURN_START, 2, r.s.order[r.s.at], 0, 0, 0)) < 0:
        r.err_kind = T_TURN_START
        return PR_BOUND
    return PR_OK


# --- the action and its procedures (procedures.py) ------------------------------------------------

cdef inline int _popc(uint64_t m) noexcept nogil:
    cdef int n = 0
    while m:
        m &= m - 1
        n += 1
    return n


cdef int _stat(const PRules* r, int cop, int stat) noexcept nogil:
    # PrecinctState.stat: the character's value, +1 with the upgrade of the same name
    cdef const PCop* c = &r.s.cops[cop]
    cdef int i, v = pc_stat(r.c, c.chr, stat)
    for i in range(c.n_upgrades):
        if c.upgrades[i] == stat:     # UPGRADES starts investigate, arrest, emergency (STAT_* order)
            return v + 1
    return v


cdef int _cars_on(const PRules* r, int street, int exclude) noexcept nogil:
    # PrecinctState.cars_on
    cdef int i, n = 0
    for i in range(r.s.n_cops):
        if not r.s.cops[i].out and r.s.cops[i].street == street and i != exclude:
            n += 1
    for i in range(r.s.n_support):
        if r.s.support[i] == street:
            n += 1
    return n


cdef uint64_t _slot_streets(const PRules* r, int e) noexcept nogil:
    # procedures.slot_streets as a mask
    cdef const PSlot* slot = &r.s.slots[e]
    if slot.at == AT_CROSSING_:
        return r.city.at[slot.where]
    if slot.at == AT_HOOD_:
        return r.city.hood_mask[slot.where - 1]
    return bit(slot.where)


cdef bint _handleable(const PRules* r, int cop, int e) noexcept nogil:
    # procedures._handleable
    cdef const PSlot* slot = &r.s.slots[e]
    cdef const PCop* c = &r.s.cops[cop]
    cdef int sp
    if not slot.full or not (_slot_streets(r, e) & bit(c.street)):
        return False
    sp = r.c.events[slot.card].special
    if sp == SP_GAS_LEAK:
        return _cars_on(r, slot.where, -1) >= 2 and c.n_hand >= 2
    return sp == SP_NONE or sp == SP_JAIL_BREAK or sp == SP_DETAINEES_RUN_AMOK or sp == SP_OFFICER_DOWN


cdef bint _board_complete(const PRules* r) noexcept nogil:
    cdef int d
    for d in range(PS_DECKS):
        if r.s.placed[d] < r.c.deck_evidence[d]:
            return False
    return True


cdef inline int _size(const PStack* s) noexcept nogil:
    return s.evidence + s.useless


cdef void _middle(const PStack* s, int* me, int* mu) noexcept nogil:
    # Stack.middle
    cdef int i, ev = 0, n = s.n_top + s.n_bottom
    for i in range(s.n_top):
        ev += s.top_kind[i]
    for i in range(s.n_bottom):
        ev += s.bottom_kind[i]
    me[0] = s.evidence - ev
    mu[0] = s.useless - (n - ev)


cdef int _action_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # procedures._action_options (unsorted)
    cdef int cop_i = t.args[0]
    cdef const PCop* c = &r.s.cops[cop_i]
    cdef int n = 0
    cdef int i, d, e, u, p, hood, total
    cdef bint at_station, has_up, alive
    cdef int kinds[PS_MAX_POLICE_KINDS]
    cdef int nk = pr_text_plays(r, cop_i, False, kinds)
    out[n] = NO_ACTION
    out[n + 1] = DRAW_ACTION
    n += 2
    for i in range(nk):
        out[n] = PLAY + kinds[i]
        n += 1
    for d in range(PS_DECKS):
        if (not r.s.stacks[d].gone and r.s.stacks[d].building >= 0
                and r.city.building_street[r.s.stacks[d].building] == c.street
                and not pr_covered(r, d) and _size(&r.s.stacks[d]) > 0):
            out[n] = INVESTIGATE + d
            n += 1
    hood = city_hood_of(r.city, c.street)
    if hood > 0 and r.s.punks[hood - 1] > 0:
        out[n] = ARREST
        n += 1
    if hood > 0 and pr_murderer_hood(r) == hood and _board_complete(r):
        out[n] = ARREST_MURDERER
        n += 1
    for e in range(MAX_SLOTS):
        if _handleable(r, cop_i, e):
            out[n] = HANDLE + e
            n += 1
    at_station = c.street == r.c.station_street and not pr_station_overrun(r)
    if at_station and c.donuts > 0 and c.n_upgrades < 2:
        for u in range(PS_UPGRADE_KINDS):
            has_up = False
            for i in range(c.n_upgrades):
                if c.upgrades[i] == u:
                    has_up = True
            if r.s.upgrades_left[u] > 0 and not has_up:
                out[n] = UPGRADE + u
                n += 1
    if r.c.dirty_cops:
        if r.s.loyalty & bit(c.seat) and not r.s.revealed & bit(c.seat):
            out[n] = REVEAL
            n += 1
        total = 0
        for i in range(r.s.n_cops):
            if not r.s.cops[i].out:
                total += r.s.cops[i].donuts
        if total >= 3:
            for p in range(r.s.n):
                if p == c.seat or r.s.revealed & bit(p):
                    continue
                alive = False
                for i in range(r.s.n_cops):
                    if r.s.cops[i].seat == p and not r.s.cops[i].out:
                        alive = True
                if alive:
                    out[n] = ACCUSE + p
                    n += 1
    return n


cdef int _push_list(PRules* r, const PTask* ts, int n) noexcept nogil:
    # tasks.push(st, *ts): ts[0] ends at the head
    cdef int i = n - 1
    cdef int rc
    while i >= 0:
        rc = pr_push(r, ts[i])
        if rc < 0:
            return rc
        i -= 1
    return PR_OK


cdef int _order_index(const PRules* r, int cop) noexcept nogil:
    cdef int k
    for k in range(r.s.n_order):
        if r.s.order[k] == cop:
            return k
    return -1


cdef int _add_help_sabotage(const PRules* r, int cop_i, PTask* ts, int n) noexcept nogil:
    # _help_tasks then _sabotage_tasks appended to ts[:n]; the new count (-1: cop not in the order)
    cdef int k = _order_index(r, cop_i)
    cdef int j, o, s
    if k < 0:
        return -1
    for j in range(1, r.s.n_order):
        o = r.s.order[(k + j) % r.s.n_order]
        if not r.s.cops[o].out:
            ts[n] = pr_task(T_HELP, 1, o, 0, 0, 0)
            n += 1
    ts[n] = pr_task(T_HELP, 1, cop_i, 0, 0, 0)
    n += 1
    for s in range(r.s.n):
        if r.s.underground & bit(s):
            ts[n] = pr_task(T_SABOTAGE, 1, s, 0, 0, 0)
            n += 1
    return n


cdef void _ctx_start(PRules* r, int kind, int cop) noexcept nogil:
    memset(&r.s.ctx, 0, sizeof(PCtx))
    r.s.ctx.kind = <uint8_t>kind
    r.s.ctx.cop = <int8_t>cop


cdef int _investigate(PRules* r, int cop_i, int deck) noexcept nogil:
    # procedures._investigate
    cdef const PCop* c = &r.s.cops[cop_i]
    cdef PTask ts[2 * PS_MAX_COPS + 4]
    cdef int n = _stat(r, cop_i, STAT_INVESTIGATE) + (0 if c.marked else 1) + _cars_on(r, c.street, cop_i)
    cdef int m
    if pr_has(r, cop_i, POW_FORENSICS) and (deck == DECK_EXAMINE_BODY or deck == DECK_CRIME_SCENE):
        n += 1
    if pr_has(r, cop_i, POW_CANVASSER) and (deck == DECK_INTERVIEW or deck == DECK_WEAPON):
        n += 1
    _ctx_start(r, CTX_INVESTIGATE, cop_i)
    r.s.ctx.deck = <int8_t>deck
    r.s.ctx.n = <int16_t>n
    ts[0] = pr_task(T_DONUTS, 1, cop_i, 0, 0, 0)
    m = _add_help_sabotage(r, cop_i, ts, 1)
    if m < 0:
        return PR_BAD
    ts[m] = pr_task(T_INV_DRAW, 1, cop_i, 0, 0, 0)
    return _push_list(r, ts, m + 1)


cdef int _arrest(PRules* r, int cop_i, bint murderer) noexcept nogil:
    # procedures._arrest
    cdef const PCop* c = &r.s.cops[cop_i]
    cdef PTask ts[2 * PS_MAX_COPS + 6]
    cdef int hood = city_hood_of(r.city, c.street)
    cdef int dice, m, gang = -1
    if hood == 0:
        return PR_OK
    if r.s.gangs[hood - 1] >= 0:
        gang = r.c.gangs[r.s.gangs[hood - 1]]
    dice = _stat(r, cop_i, STAT_ARREST) + _cars_on(r, c.street, cop_i)
    if pr_has(r, cop_i, POW_STREET_SMART) and not murderer:
        dice += 1
    _ctx_start(r, CTX_ARREST, cop_i)
    r.s.ctx.hood = <int8_t>hood
    r.s.ctx.murderer = murderer
    r.s.ctx.n = <int16_t>dice
    r.s.ctx.lookouts = gang == GANG_LOOKOUTS
    ts[0] = pr_task(T_OFFICERS, 1, cop_i, 0, 0, 0)
    ts[1] = pr_task(T_DONUTS, 1, cop_i, 0, 0, 0)
    ts[2] = pr_task(T_SWAT, 1, cop_i, 0, 0, 0)
    m = _add_help_sabotage(r, cop_i, ts, 3)
    if m < 0:
        return PR_BAD
    ts[m] = pr_task(T_ARREST_ROLL, 1, cop_i, 0, 0, 0)
    return _push_list(r, ts, m + 1)


cdef int _handle(PRules* r, int cop_i, int e) noexcept nogil:
    # procedures._handle
    cdef const PCop* c = &r.s.cops[cop_i]
    cdef const PSlot* slot = &r.s.slots[e]
    cdef PTask ts[2 * PS_MAX_COPS + 6]
    cdef uint64_t streets
    cdef int sp, adjacent = 0, dice, m, k
    if not 0 <= e < PS_MAX_SLOTS or not slot.full:
        return PR_BAD
    streets = _slot_streets(r, e)
    while streets:
        adjacent += _cars_on(r, mask_pop(&streets), cop_i)
    sp = r.c.events[slot.card].special
    if sp == SP_GAS_LEAK:
        ts[0] = pr_task(T_DISCARD, 2, cop_i, DR_GAS, 0, 0)
        ts[1] = pr_task(T_DISCARD, 2, cop_i, DR_GAS, 0, 0)
        ts[2] = pr_task(T_GAS_FIXED, 2, cop_i, e, 0, 0)
        return _push_list(r, ts, 3)
    if sp == SP_JAIL_BREAK or sp == SP_DETAINEES_RUN_AMOK:
        _ctx_start(r, CTX_ESCAPEES, cop_i)
        r.s.ctx.slot = <int8_t>e
        r.s.ctx.n = <int16_t>(_stat(r, cop_i, STAT_ARREST) + adjacent)
        ts[0] = pr_task(T_DONUTS, 1, cop_i, 0, 0, 0)
        m = _add_help_sabotage(r, cop_i, ts, 1)
        if m < 0:
            return PR_BAD
        ts[m] = pr_task(T_ARREST_ROLL, 1, cop_i, 0, 0, 0)
        return _push_list(r, ts, m + 1)
    dice = _stat(r, cop_i, STAT_EMERGENCY) + adjacent + (1 if pr_has(r, cop_i, POW_NEGOTIATOR) else 0)
    _ctx_start(r, CTX_OFFICER_DOWN if sp == SP_OFFICER_DOWN else CTX_EMERGENCY, cop_i)
    r.s.ctx.slot = <int8_t>e
    r.s.ctx.n = <int16_t>dice
    # donuts, the help windows, the marker's reveal, then the sabotage windows
    ts[0] = pr_task(T_DONUTS, 1, cop_i, 0, 0, 0)
    m = _add_help_sabotage(r, cop_i, ts, 1)
    if m < 0:
        return PR_BAD
    if slot.unknown == -2:
        k = m
        while k > 0 and ts[k - 1].kind == T_SABOTAGE:
            ts[k] = ts[k - 1]
            k -= 1
        ts[k] = pr_task(T_UNKNOWN, 1, e, 0, 0, 0)
        m += 1
    ts[m] = pr_task(T_EM_ROLL, 1, cop_i, 0, 0, 0)
    return _push_list(r, ts, m + 1)


cdef int _upgrade(PRules* r, int cop_i, int u) noexcept nogil:
    # procedures._upgrade
    cdef PCop* c = &r.s.cops[cop_i]
    if c.n_upgrades >= PS_MAX_UPGRADES:
        return PR_BOUND
    pr_spend_donuts(r, cop_i, 1)
    r.s.upgrades_left[u] -= 1
    c.upgrades[c.n_upgrades] = <uint8_t>u
    c.n_upgrades += 1
    if c.donuts and c.n_upgrades < 2:
        return pr_push(r, pr_task(T_UPGRADE, 1, cop_i, 0, 0, 0))
    return PR_OK


cdef int _discard_hand_sorted(PRules* r, int cop_i) noexcept nogil:
    # for kind in sorted(c.hand): take_card(kind)
    cdef PCop* c = &r.s.cops[cop_i]
    cdef int kinds[PS_MAX_HAND]
    cdef int i, j, k, n = c.n_hand, rc
    for i in range(n):
        kinds[i] = c.hand[i]
    for i in range(1, n):
        k = kinds[i]
        j = i - 1
        while j >= 0 and kinds[j] > k:
            kinds[j + 1] = kinds[j]
            j -= 1
        kinds[j + 1] = k
    for i in range(n):
        rc = pr_take_card(r, cop_i, kinds[i])
        if rc < 0:
            return rc
    return PR_OK


cdef int _leave_board(PRules* r, int cop_i, bint keep_donuts) noexcept nogil:
    # procedures._leave_board
    cdef PCop* c = &r.s.cops[cop_i]
    cdef int i
    cdef int rc = _discard_hand_sorted(r, cop_i)
    if rc < 0:
        return rc
    for i in range(c.n_upgrades):
        r.s.upgrades_left[c.upgrades[i]] += 1
        c.upgrades[i] = 0
    c.n_upgrades = 0
    if not keep_donuts:
        r.s.donut_supply += c.donuts
        c.donuts = 0
    c.out = 1
    return PR_OK


cdef int _reveal(PRules* r, int cop_i) noexcept nogil:
    # procedures.reveal
    cdef PCop* c = &r.s.cops[cop_i]
    cdef int rc
    r.s.revealed |= <uint8_t>bit(c.seat)
    r.s.underground |= <uint8_t>bit(c.seat)
    rc = _leave_board(r, cop_i, True)
    if rc < 0:
        return rc
    c.no_draw = 1
    c.skip_event = 1
    pr_gain_donut(r, cop_i, r.c.reveal_donuts)
    return PR_OK


cdef int _accuse(PRules* r, int cop_i, int target) noexcept nogil:
    # procedures._accuse
    cdef PTask ts[PS_MAX_COPS + 1]
    cdef int k = _order_index(r, cop_i)
    cdef int j, d, n = 0
    if k < 0:
        return PR_BAD
    _ctx_start(r, CTX_ACCUSE, cop_i)
    r.s.ctx.target = <int8_t>target
    for j in range(r.s.n_order):
        d = r.s.order[(k + j) % r.s.n_order]
        if not r.s.cops[d].out:
            ts[n] = pr_task(T_DONATE, 1, d, 0, 0, 0)
            n += 1
    ts[n] = pr_task(T_ACCUSED, 1, cop_i, 0, 0, 0)
    return _push_list(r, ts, n + 1)


cdef bint _in(const int* a, int n, int x) noexcept nogil:
    cdef int i
    for i in range(n):
        if a[i] == x:
            return True
    return False


cdef int _acted(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._acted (the action checked against the options first)
    cdef int opts[PR_MAX_ACTIONS]
    cdef int cop_i = t.args[0]
    cdef int rc
    if not _in(opts, _action_legal(r, t, opts), action):
        return PR_BAD
    if PLAY <= action < PLAY + PLAY_SIZE:
        rc = pr_push(r, t[0])
        if rc < 0:
            return rc
        return pr_play_text(r, cop_i, action - PLAY)
    if action == NO_ACTION:
        return PR_OK
    if action == DRAW_ACTION:
        rc = pr_draw_police(r, cop_i, True)
        if rc < 0:
            return rc
        if pr_has(r, cop_i, POW_DESK_SERGEANT):
            return pr_draw_police(r, cop_i, True)
        return PR_OK
    if INVESTIGATE <= action < INVESTIGATE + INVESTIGATE_SIZE:
        return _investigate(r, cop_i, action - INVESTIGATE)
    if action == ARREST or action == ARREST_MURDERER:
        return _arrest(r, cop_i, action == ARREST_MURDERER)
    if HANDLE <= action < HANDLE + HANDLE_SIZE:
        return _handle(r, cop_i, action - HANDLE)
    if UPGRADE <= action < UPGRADE + UPGRADE_SIZE:
        return _upgrade(r, cop_i, action - UPGRADE)
    if action == REVEAL:
        return _reveal(r, cop_i)
    if ACCUSE <= action < ACCUSE + ACCUSE_SIZE:
        return _accuse(r, cop_i, action - ACCUSE)
    return PR_BAD


# investigate: the draw, the claim, the end

cdef double _comb(int n, int k) noexcept nogil:
    cdef double v = 1.0
    cdef int i
    if k < 0 or k > n:
        return 0.0
    if k > n - k:
        k = n - k
    for i in range(k):
        v = v * (n - i) / (i + 1)
    return v


cdef void _draw_split(const PRules* r, int* t, int* m, int* b) noexcept nogil:
    # procedures._draw_split
    cdef const PStack* s = &r.s.stacks[r.s.ctx.deck]
    cdef int me, mu
    cdef int n = r.s.ctx.n - (r.s.ctx.sabotage if r.s.ctx.has_sabotage else 0)
    if n < 0:
        n = 0
    if n > _size(s):
        n = _size(s)
    t[0] = n if n < s.n_top else s.n_top
    _middle(s, &me, &mu)
    m[0] = n - t[0] if n - t[0] < me + mu else me + mu
    b[0] = n - t[0] - m[0]


cdef int _inv_outcomes(const PRules* r, int* actions, double* probs) noexcept nogil:
    # procedures._inv_outcomes: common.hypergeometric(me, mu, m)
    cdef int t, m, b, me, mu, k, low, high, n = 0
    _draw_split(r, &t, &m, &b)
    _middle(&r.s.stacks[r.s.ctx.deck], &me, &mu)
    low = m - mu if m - mu > 0 else 0
    high = me if me < m else m
    if high - low + 1 > FOUND_SIZE:
        return PR_BOUND
    for k in range(low, high + 1):
        actions[n] = FOUND + k
        if k > me or m - k > mu or m > me + mu:
            probs[n] = 0.0
        else:
            probs[n] = _comb(me, k) * _comb(mu, m - k) / _comb(me + mu, m)
        n += 1
    return n


cdef void _shift_top(PStack* s, int k) noexcept nogil:
    # del s.top[:k]
    cdef int i
    for i in range(s.n_top - k):
        s.top_kind[i] = s.top_kind[i + k]
        s.top_know[i] = s.top_know[i + k]
    s.n_top -= k


cdef void _shift_bottom(PStack* s, int k) noexcept nogil:
    # del s.bottom[:k]
    cdef int i
    for i in range(s.n_bottom - k):
        s.bottom_kind[i] = s.bottom_kind[i + k]
        s.bottom_know[i] = s.bottom_know[i + k]
    s.n_bottom -= k


cdef int _inv_drawn(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._inv_drawn
    cdef PStack* s = &r.s.stacks[r.s.ctx.deck]
    cdef int tt, m, b, i, rc, found = action - FOUND
    cdef int n = 0, ev = 0
    cdef uint64_t cards = 0
    cdef int acts[PR_MAX_OUTCOMES]
    cdef double probs[PR_MAX_OUTCOMES]
    cdef PTask ts[2]
    if r.s.ctx.kind != CTX_INVESTIGATE:
        return PR_BAD
    rc = _inv_outcomes(r, acts, probs)
    if rc < 0:
        return rc
    if not _in(acts, rc, action):
        return PR_BAD
    _draw_split(r, &tt, &m, &b)
    if tt + m + b > PS_MAX_CARDS:
        return PR_BOUND
    for i in range(tt):
        if s.top_kind[i]:
            cards |= bit(n)
        n += 1
    for i in range(m):
        if i < found:
            cards |= bit(n)
        n += 1
    for i in range(b):
        if s.bottom_kind[i]:
            cards |= bit(n)
        n += 1
    ev = _popc(cards)
    r.s.ctx.has_draw = 1
    r.s.ctx.size = <int16_t>_size(s)
    r.s.ctx.evidence_before = s.evidence
    r.s.ctx.n_cards = <uint8_t>n
    r.s.ctx.cards = cards
    _shift_top(s, tt)
    _shift_bottom(s, b)
    s.evidence -= ev
    s.useless -= n - ev
    ts[0] = pr_task(T_CLAIM, 1, t.args[0], 0, 0, 0)
    ts[1] = pr_task(T_INV_DONE, 1, t.args[0], 0, 0, 0)
    return _push_list(r, ts, 2)


cdef int _claim_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # procedures._claim_options
    cdef int seat = r.s.cops[t.args[0]].seat
    cdef int n = r.s.ctx.n_cards
    cdef uint64_t cards = r.s.ctx.cards
    cdef int ev
    if n == 0:
        return 0
    ev = _popc(cards)
    out[0] = PLACE
    if r.s.loyalty & bit(seat) and not r.s.revealed & bit(seat) and ev > 0 and ev < n:
        out[1] = HIDE
        return 2
    return 1


cdef int _claimed(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._claimed
    cdef int opts[2]
    if not _in(opts, _claim_legal(r, t, opts), action):
        return PR_BAD
    r.s.ctx.has_hide = 1
    r.s.ctx.hide = action == HIDE
    return PR_OK


cdef int _inv_done(PRules* r, const PTask* t) noexcept nogil:
    # procedures._inv_done
    cdef int cop_i = t.args[0]
    cdef int deck = r.s.ctx.deck
    cdef PCop* c = &r.s.cops[cop_i]
    cdef PStack* s = &r.s.stacks[deck]
    cdef int n = r.s.ctx.n_cards
    cdef bint hide = r.s.ctx.has_hide and r.s.ctx.hide
    cdef int found = _popc(r.s.ctx.cards)
    cdef int placed = 0 if hide else found
    cdef int discarded = 1 if n > found else 0
    cdef int back_ev = found if hide else 0
    cdef int back_useless = n - found - discarded
    cdef int i
    if r.s.ctx.kind != CTX_INVESTIGATE:
        return PR_BAD
    s.evidence += back_ev
    s.useless += back_useless
    r.s.placed[deck] += placed
    if pr_has(r, cop_i, POW_THOROUGH):
        if s.n_bottom + back_ev + back_useless > PS_MAX_KNOWN:
            return PR_BOUND
        for i in range(back_ev + back_useless):
            s.bottom_kind[s.n_bottom] = 1 if i < back_ev else 0
            s.bottom_know[s.n_bottom] = <uint8_t>bit(c.seat)
            s.n_bottom += 1
    else:
        s.n_top = 0
        s.n_bottom = 0
    if not placed:
        c.empty += 1
    if placed and r.s.placed[deck] >= r.c.deck_evidence[deck]:
        s.gone = 1
        pr_gain_donut(r, cop_i, 1)
    memset(&r.s.ctx, 0, sizeof(PCtx))
    return PR_OK


# looks at investigation stacks

cdef int _deck_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # procedures._deck_options
    cdef int d, n = 0
    for d in range(PS_DECKS):
        if _lookable(r, d):
            out[n] = DECK + d
            n += 1
    return n


cdef int _decked(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._decked
    cdef int deck = action - DECK
    cdef int k
    if not 0 <= deck < PS_DECKS or not _lookable(r, deck):
        return PR_BAD
    k = 3 if t.args[1] == LW_FRESH else 2
    if _size(&r.s.stacks[deck]) < k:
        k = _size(&r.s.stacks[deck])
    return pr_push(r, pr_task(T_LOOK, 4, t.args[0], deck, k, t.args[1]))


cdef void _look_split(const PRules* r, const PTask* t, int* tt, int* m) noexcept nogil:
    # procedures._look_split
    cdef const PStack* s = &r.s.stacks[t.args[1]]
    cdef int k = t.args[2]
    cdef int me, mu
    tt[0] = k if k < s.n_top else s.n_top
    _middle(s, &me, &mu)
    m[0] = k - tt[0] if k - tt[0] < me + mu else me + mu


cdef int _look_outcomes(const PRules* r, const PTask* t, int* actions, double* probs) noexcept nogil:
    # procedures._look_outcomes
    cdef const PStack* s = &r.s.stacks[t.args[1]]
    cdef int tt, m, me, mu, i, mask, e, u, n = 0
    cdef int known = 0
    cdef double p
    _look_split(r, t, &tt, &m)
    _middle(s, &me, &mu)
    if tt + m > 3:              # LOOKED_SIZE 8: three cards at most
        return PR_BOUND
    for i in range(tt):
        known |= s.top_kind[i] << i
    for mask in range(1 << m):
        p = 1.0
        e = me
        u = mu
        for i in range(m):
            if mask >> i & 1:
                p *= <double>e / (e + u)
                e -= 1
            else:
                p *= <double>u / (e + u)
                u -= 1
        if p > 0:
            actions[n] = LOOKED + (known | mask << tt)
            probs[n] = p
            n += 1
    return n


cdef int _looked(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._looked
    cdef int cop_i = t.args[0]
    cdef int why = t.args[3]
    cdef PStack* s = &r.s.stacks[t.args[1]]
    cdef int tt, m, i, mask = action - LOOKED
    cdef uint8_t seat = <uint8_t>bit(r.s.cops[cop_i].seat)
    cdef int acts[PR_MAX_OUTCOMES]
    cdef double probs[PR_MAX_OUTCOMES]
    cdef int rc = _look_outcomes(r, t, acts, probs)
    if rc < 0:
        return rc
    if not _in(acts, rc, action):
        return PR_BAD
    _look_split(r, t, &tt, &m)
    if s.n_top + m > PS_MAX_KNOWN:
        return PR_BOUND
    for i in range(tt):
        s.top_know[i] |= seat
    i = s.n_top - 1
    while i >= tt:               # make room for the m new cards at position tt
        s.top_kind[i + m] = s.top_kind[i]
        s.top_know[i + m] = s.top_know[i]
        i -= 1
    for i in range(tt, tt + m):
        s.top_kind[i] = mask >> i & 1
        s.top_know[i] = seat
    s.n_top += m
    if (why == LW_LOOK2 or why == LW_FRESH) and tt + m >= 2:
        return pr_push(r, pr_task(T_ORDER, 4, cop_i, t.args[1], tt + m, why))
    return PR_OK


cdef int _order_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # procedures._order_options
    out[0] = EV_FIRST
    out[1] = EV_LAST
    if t.args[3] == LW_FRESH:
        out[2] = SHUFFLE
        return 3
    return 2


cdef int _ordered(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._ordered: the cards alike the chosen kind first, in their order
    cdef PStack* s = &r.s.stacks[t.args[1]]
    cdef int k = t.args[2]
    cdef uint8_t seat = <uint8_t>bit(r.s.cops[t.args[0]].seat)
    cdef int opts[3]
    cdef int i, first, ones = 0
    cdef uint8_t ordered[PS_MAX_KNOWN]
    if not _in(opts, _order_legal(r, t, opts), action):
        return PR_BAD
    if action == SHUFFLE:
        s.n_top = 0
        s.n_bottom = 0
        return PR_OK
    if k > s.n_top:
        return PR_BAD
    first = 1 if action == EV_FIRST else 0
    for i in range(k):
        if s.top_kind[i] == first:
            ones += 1
    for i in range(k):
        ordered[i] = first if i < ones else 1 - first
    if t.args[3] == LW_LOOK2:
        if k != 2 or s.n_bottom >= PS_MAX_KNOWN:
            return PR_BAD
        _shift_top(s, k)
        i = s.n_top
        while i > 0:
            s.top_kind[i] = s.top_kind[i - 1]
            s.top_know[i] = s.top_know[i - 1]
            i -= 1
        s.top_kind[0] = ordered[0]
        s.top_know[0] = seat
        s.n_top += 1
        s.bottom_kind[s.n_bottom] = ordered[1]
        s.bottom_know[s.n_bottom] = seat
        s.n_bottom += 1
    else:
        for i in range(k):
            s.top_kind[i] = ordered[i]
            s.top_know[i] = seat
    return PR_OK


# the roll's steps: officers, swat, donuts, help, sabotage

cdef int _range_legal(int start, int have, int* out) noexcept nogil:
    cdef int k
    if have <= 0:
        return 0
    for k in range(have + 1):
        out[k] = start + k
    return have + 1


cdef int _officers_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    if r.s.ctx.kind != CTX_ARREST:
        return PR_BAD
    return _range_legal(OFFICERS, r.s.patrol[r.s.ctx.hood - 1], out)


cdef int _officered(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int k = action - OFFICERS
    if r.s.ctx.kind != CTX_ARREST or not 0 <= k <= r.s.patrol[r.s.ctx.hood - 1]:
        return PR_BAD
    r.s.patrol[r.s.ctx.hood - 1] -= k
    r.s.patrol_stock += k
    r.s.ctx.n += k
    return PR_OK


cdef int _swat_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    return _range_legal(SWAT, r.s.cops[t.args[0]].swat, out)


cdef int _swatted(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int k = action - SWAT
    if not 0 <= k <= r.s.cops[t.args[0]].swat:
        return PR_BAD
    r.s.cops[t.args[0]].swat -= k
    r.s.ctx.n += 2 * k
    return PR_OK


cdef int _donuts_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    cdef int have = r.s.cops[t.args[0]].donuts
    return _range_legal(DONUTS, have if have < MAX_DONUTS else MAX_DONUTS, out)


cdef int _donuted(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int k = action - DONUTS
    if not 0 <= k <= r.s.cops[t.args[0]].donuts or k > MAX_DONUTS:
        return PR_BAD
    pr_spend_donuts(r, t.args[0], k)
    r.s.ctx.n += k
    return PR_OK


cdef int _ctx_symbol(int kind) noexcept nogil:
    # procedures._SYMBOL
    if kind == CTX_INVESTIGATE:
        return SYM_INVESTIGATE
    if kind == CTX_ARREST or kind == CTX_ESCAPEES:
        return SYM_ARREST
    if kind == CTX_EMERGENCY or kind == CTX_OFFICER_DOWN:
        return SYM_EMERGENCY
    return -1


cdef int _help_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # procedures._help_options
    cdef int helper = t.args[0]
    cdef int kind = r.s.ctx.kind
    cdef const PCop* c = &r.s.cops[helper]
    cdef bint own, all_fresh
    cdef uint64_t m
    cdef int i, k, text, n = 0
    if kind == CTX_NONE:
        return 0
    own = helper == r.s.ctx.cop
    all_fresh = True
    for i in range(c.n_hand):
        if not c.fresh[i]:
            all_fresh = False
    if c.n_hand == 0 or (own and all_fresh):
        return 0
    if _ctx_symbol(kind) < 0:
        return PR_BAD
    out[n] = PROCEED
    n += 1
    m = pr_playable(r, helper, own)
    while m:
        k = mask_pop(&m)
        text = r.c.police[k].text
        if own:
            if ((text == TX_CRIME_LAB and kind == CTX_INVESTIGATE)
                    or (text == TX_BACKUP and (kind == CTX_ARREST or kind == CTX_ESCAPEES))
                    or (text == TX_AIR_SUPPORT and kind != CTX_INVESTIGATE)):
                out[n] = PLAY + k
                n += 1
        else:
            if r.c.police[k].symbol == _ctx_symbol(kind):
                out[n] = HELP + k
                n += 1
            if text == TX_AIR_SUPPORT and kind != CTX_INVESTIGATE:
                out[n] = PLAY + k
                n += 1
    return n


cdef int _helped(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._helped
    cdef int opts[PR_MAX_ACTIONS]
    cdef int kind, bonus, rc
    if not _in(opts, _help_legal(r, t, opts), action):
        return PR_BAD
    if action == PROCEED:
        return PR_OK
    if HELP <= action < HELP + HELP_SIZE:
        kind = action - HELP
        rc = pr_take_card(r, t.args[0], kind)
        if rc < 0:
            return rc
        bonus = 2 if r.c.police[kind].dbl else 1
        if r.c.police[kind].symbol == SYM_EMERGENCY:
            r.s.ctx.sym += bonus
        r.s.ctx.n += bonus
    else:
        rc = pr_take_card(r, t.args[0], action - PLAY)
        if rc < 0:
            return rc
        r.s.ctx.n += 2
    return pr_push(r, t[0])


cdef int _seat_donuts(const PRules* r, int seat) noexcept nogil:
    cdef int i, have = 0
    for i in range(r.s.n_cops):
        if r.s.cops[i].seat == seat:
            have += r.s.cops[i].donuts
    return have


cdef int _sabotage_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # procedures._sabotage_options
    cdef int have
    if r.s.ctx.kind == CTX_NONE:
        return 0
    have = _seat_donuts(r, t.args[0])
    return _range_legal(SABOTAGE, have if have < 3 else 3, out)


cdef int _sabotaged(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._sabotaged
    cdef int opts[8]
    cdef int i, k = action - SABOTAGE
    if not _in(opts, _sabotage_legal(r, t, opts), action):
        return PR_BAD
    if k == 0:
        return PR_OK
    for i in range(r.s.n_cops):
        if r.s.cops[i].seat == t.args[0] and r.s.cops[i].donuts >= k:
            pr_spend_donuts(r, i, k)
            r.s.ctx.sabotage = (r.s.ctx.sabotage if r.s.ctx.has_sabotage else 0) + k
            r.s.ctx.has_sabotage = 1
            return PR_OK
    return PR_BAD


# the rolls

cdef int _arrest_need(const PRules* r) noexcept nogil:
    # procedures.arrest_need
    cdef int hood, need, e
    if r.s.ctx.kind == CTX_ESCAPEES:
        e = r.s.ctx.slot
        return r.s.slots[e].data if r.s.slots[e].full else 0
    hood = r.s.ctx.hood
    need = r.s.punks[hood - 1] + (2 if pr_murderer_hood(r) == hood else 0)
    if r.s.gangs[hood - 1] >= 0 and r.c.gangs[r.s.gangs[hood - 1]] == GANG_ENFORCERS:
        need += 1
    return need


cdef int _dice(const PRules* r) noexcept nogil:
    # procedures._dice
    cdef int n = r.s.ctx.n
    if r.s.ctx.kind == CTX_ARREST and r.s.ctx.lookouts:
        n = n - 1 if n - 1 > 1 else 1
    n -= r.s.ctx.sabotage if r.s.ctx.has_sabotage else 0
    if n > MAX_SUCCESS:
        n = MAX_SUCCESS
    return n if n > 0 else 0


cdef int _arrest_outcomes(const PRules* r, int* actions, double* probs) noexcept nogil:
    # procedures._arrest_outcomes: common.binomial(dice, arrest_chance(need))
    cdef int need, n, k
    cdef double p
    if r.s.ctx.kind != CTX_ARREST and r.s.ctx.kind != CTX_ESCAPEES:
        return PR_BAD
    need = _arrest_need(r)
    p = (7 - need) / 6.0
    if p < 1 / 6.0:
        p = 1 / 6.0
    if p > 5 / 6.0:
        p = 5 / 6.0
    n = _dice(r)
    for k in range(n + 1):
        actions[k] = SUCCESS + k
        probs[k] = _comb(n, k) * pow(p, k) * pow(1 - p, n - k)
    return n + 1


cdef int _arrest_rolled(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._arrest_rolled
    cdef int cop_i = t.args[0]
    cdef PCop* c = &r.s.cops[cop_i]
    cdef int k = action - SUCCESS
    cdef int e, card, removed, hood, before, rc
    if not 0 <= k <= _dice(r):
        return PR_BAD
    if r.s.ctx.kind == CTX_ESCAPEES:
        e = r.s.ctx.slot
        if not r.s.slots[e].full:
            return PR_BAD
        removed = k if k < r.s.slots[e].data else r.s.slots[e].data
        r.s.slots[e].data -= removed
        if r.s.slots[e].data == 0:
            card = r.s.slots[e].card
            rc = pr_discard_slot(r, e, True)
            if rc < 0:
                return rc
            rc = pr_pay_rewards(r, cop_i, card)
            if rc < 0:
                return rc
    elif r.s.ctx.kind == CTX_ARREST:
        hood = r.s.ctx.hood
        before = r.s.punks[hood - 1]
        removed = k if k < before else before
        r.s.punks[hood - 1] -= removed
        r.s.punk_supply += removed
        c.arrests += removed
        if before and not r.s.punks[hood - 1] and r.s.gangs[hood - 1] >= 0:
            if r.s.n_gang_pool >= PS_MAX_GANGS:
                return PR_BOUND
            r.s.gang_pool[r.s.n_gang_pool] = r.s.gangs[hood - 1]
            r.s.n_gang_pool += 1
            r.s.gangs[hood - 1] = -1
        if c.arrests >= 3 and not c.rewarded:
            c.rewarded = 1
            pr_gain_donut(r, cop_i, 1)
        if r.s.ctx.murderer and k > before:
            memset(&r.s.ctx, 0, sizeof(PCtx))
            pr_end(r, True)
            return PR_OK
    else:
        return PR_BAD
    memset(&r.s.ctx, 0, sizeof(PCtx))
    if removed == 0:
        return pr_hospital(r, cop_i)
    return PR_OK


cdef void _emergency_dice(const PRules* r, int* n_out, int* need_out) noexcept nogil:
    # procedures.emergency_dice
    cdef const PSlot* slot = &r.s.slots[r.s.ctx.slot]
    cdef const PCop* c = &r.s.cops[r.s.ctx.cop]
    cdef int n = r.s.ctx.n
    cdef int need = r.c.events[slot.card].number
    cdef int u = slot.unknown
    if u == UK_PUNKS or u == UK_ANGRY_DOG or u == UK_SHOTGUN or (u == UK_DISRESPECT and c.marked):
        n -= 1
    if u == UK_RESPECT and c.marked:
        n += 1
    if u == UK_BIG_KNIFE:
        need += 1
    if u == UK_HOSTAGE or u == UK_BOMB:
        n -= r.s.ctx.sym
    n -= r.s.ctx.sabotage if r.s.ctx.has_sabotage else 0
    n_out[0] = n if n > 0 else 0
    need_out[0] = need


cdef int _em_outcomes(const PRules* r, int* actions, double* probs) noexcept nogil:
    # procedures._em_outcomes: the highest die counts
    cdef int n, need
    cdef double miss, p
    if ((r.s.ctx.kind != CTX_EMERGENCY and r.s.ctx.kind != CTX_OFFICER_DOWN)
            or not r.s.slots[r.s.ctx.slot].full):
        return PR_BAD
    _emergency_dice(r, &n, &need)
    miss = (need - 1) / 6.0
    if miss < 0.0:
        miss = 0.0
    if miss > 1.0:
        miss = 1.0
    p = 1 - pow(miss, n)
    actions[0] = HANDLED
    probs[0] = p
    actions[1] = FAILED
    probs[1] = 1 - p
    return 2


cdef int _em_rolled(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._em_rolled
    cdef int cop_i = t.args[0]
    cdef int e = r.s.ctx.slot
    cdef int kind, u, rc, i, n = 0, packed
    cdef const PEvent* card
    cdef PTask ts[6]
    if action != HANDLED and action != FAILED:
        return PR_BAD
    if ((r.s.ctx.kind != CTX_EMERGENCY and r.s.ctx.kind != CTX_OFFICER_DOWN)
            or not r.s.slots[e].full):
        return PR_BAD
    kind = r.s.slots[e].card
    card = &r.c.events[kind]
    u = r.s.slots[e].unknown
    memset(&r.s.ctx, 0, sizeof(PCtx))
    if action == FAILED:
        if card.hospital:
            return pr_hospital(r, cop_i)
        return PR_OK
    if card.special == SP_OFFICER_DOWN:
        r.s.patrol_stock += 1
        rc = pr_discard_slot(r, e, True)
        if rc < 0:
            return rc
        return pr_pay_rewards(r, cop_i, kind)
    if u == UK_INSIDER_KNOWLEDGE:
        ts[n] = pr_task(T_DECK, 2, cop_i, LW_INSIDER, 0, 0)
        n += 1
    elif u == UK_STOLEN_GOODS:
        ts[n] = pr_task(T_DEAL_POLICE, 2, cop_i, 1, 0, 0)
        n += 1
    rc = pr_discard_slot(r, e, True)
    if rc < 0:
        return rc
    if pr_has(r, cop_i, POW_DONUT_LOVER):
        pr_gain_donut(r, cop_i, 1)
    if card.both or card.n_rewards == 1:
        for i in range(card.n_rewards):
            ts[n] = pr_task(T_TAKE_REWARD, 2, cop_i, card.rewards[i], 0, 0)
            n += 1
    else:
        packed = card.n_rewards
        for i in range(card.n_rewards):
            packed |= card.rewards[i] << (3 + 3 * i)
        ts[n] = pr_task(T_FED, 2, cop_i, packed, 0, 0)
        n += 1
    return _push_list(r, ts, n)


cdef int _unknown_outcomes(const PRules* r, int* actions, double* probs) noexcept nogil:
    # procedures._unknown_outcomes
    cdef int k, n = 0
    cdef int total = _sum16(r.s.unknown, PS_UNKNOWN_KINDS)
    for k in range(PS_UNKNOWN_KINDS):
        if r.s.unknown[k]:
            actions[n] = UNKNOWN + k
            probs[n] = <double>r.s.unknown[k] / total
            n += 1
    return n


cdef int _unknown_drawn(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._unknown
    cdef int kind = action - UNKNOWN
    cdef int e = t.args[0]
    if not 0 <= kind < PS_UNKNOWN_KINDS or r.s.unknown[kind] <= 0 or not r.s.slots[e].full:
        return PR_BAD
    r.s.slots[e].unknown = <int8_t>kind
    r.s.unknown[kind] -= 1
    return PR_OK


# rewards, upgrades, accusations, the loyalty card, the text cards' choices

cdef int _unpack_rewards(int packed, int* out) noexcept nogil:
    # the packed rewards tuple of fed / reward: len | r0 << 3 | r1 << 6 ...
    cdef int i, n = packed & 7
    for i in range(n):
        out[i] = (packed >> (3 + 3 * i)) & 7
    return n


cdef int _fed_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    out[0] = PROCEED
    if r.s.cops[t.args[0]].fed:
        out[1] = YES
        return 2
    return 1


cdef int _fed_used(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._fed
    cdef int cop_i = t.args[0]
    cdef int rewards[8]
    cdef PTask ts[9]
    cdef int i, n
    if action == YES and r.s.cops[cop_i].fed:
        r.s.cops[cop_i].fed -= 1
        n = _unpack_rewards(t.args[1], rewards)
        for i in range(n):
            ts[i] = pr_task(T_TAKE_REWARD, 2, cop_i, rewards[i], 0, 0)
        ts[n] = pr_task(T_SECOND, 1, cop_i, 0, 0, 0)
        return _push_list(r, ts, n + 1)
    if action != PROCEED:
        return PR_BAD
    return pr_push(r, pr_task(T_REWARD, 2, cop_i, t.args[1], 0, 0))


cdef int _second_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # procedures._second_options
    cdef int e, n = 1
    out[0] = PROCEED
    for e in range(MAX_SLOTS):
        if _handleable(r, t.args[0], e) and r.c.events[r.s.slots[e].card].special == SP_NONE:
            out[n] = HANDLE + e
            n += 1
    return n if n > 1 else 0


cdef int _seconded(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int opts[MAX_SLOTS + 1]
    if not _in(opts, _second_legal(r, t, opts), action):
        return PR_BAD
    if action != PROCEED:
        return _handle(r, t.args[0], action - HANDLE)
    return PR_OK


cdef int _reward_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    cdef int i, n = _unpack_rewards(t.args[1], out)
    for i in range(n):
        out[i] += REWARD
    return n


cdef int _rewarded(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int opts[8]
    if not _in(opts, _reward_legal(r, t, opts), action):
        return PR_BAD
    return pr_push(r, pr_task(T_TAKE_REWARD, 2, t.args[0], action - REWARD, 0, 0))


cdef int _take_reward(PRules* r, const PTask* t) noexcept nogil:
    # procedures._take_reward
    cdef int cop_i = t.args[0]
    cdef int rw = t.args[1]
    cdef int rc
    if rw == RW_DONUT:
        pr_gain_donut(r, cop_i, 1)
    elif rw == RW_POLICE_CARD:
        return pr_draw_police(r, cop_i, True)
    elif rw == RW_LOOK_INVESTIGATION:
        return pr_push(r, pr_task(T_DECK, 2, cop_i, LW_LOOK2, 0, 0))
    elif rw == RW_LOOK_EVENT:
        r.s.cops[cop_i].skip_event = 1
        if _sum16(r.s.events_left, r.s.n_event_kinds) + r.s.n_event_top + r.s.n_event_bottom:
            rc = pr_push(r, pr_task(T_EVENT_LOOK, 1, cop_i, 0, 0, 0))
            if rc < 0:
                return rc
            return pr_push(r, pr_task(T_PEEK_EVENT, 1, cop_i, 0, 0, 0))
    elif rw == RW_SKIP_EVENT:
        r.s.cops[cop_i].skip_event = 1
    else:
        return PR_BAD
    return PR_OK


cdef int _upgrade_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # procedures._upgrade_options
    cdef const PCop* c = &r.s.cops[t.args[0]]
    cdef int u, i, n = 1
    cdef bint has_up
    out[0] = PROCEED
    for u in range(PS_UPGRADE_KINDS):
        has_up = False
        for i in range(c.n_upgrades):
            if c.upgrades[i] == u:
                has_up = True
        if r.s.upgrades_left[u] and not has_up:
            out[n] = UPGRADE + u
            n += 1
    return n if n > 1 and c.donuts else 0


cdef int _upgraded(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int opts[PS_UPGRADE_KINDS + 1]
    if not _in(opts, _upgrade_legal(r, t, opts), action):
        return PR_BAD
    if action != PROCEED:
        return _upgrade(r, t.args[0], action - UPGRADE)
    return PR_OK


cdef int _donate_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # procedures._donate_options
    cdef int i, given = 0, top
    if r.s.ctx.kind != CTX_ACCUSE:
        return PR_BAD
    for i in range(r.s.ctx.n_donors):
        given += r.s.ctx.donor_k[i]
    top = r.s.cops[t.args[0]].donuts
    if 3 - given < top:
        top = 3 - given
    return _range_legal(DONATE, top, out)


cdef int _donated(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int opts[8]
    cdef int k = action - DONATE
    if not _in(opts, _donate_legal(r, t, opts), action):
        return PR_BAD
    if k:
        if r.s.ctx.n_donors >= PS_MAX_DONORS:
            return PR_BOUND
        r.s.cops[t.args[0]].donuts -= k
        r.s.ctx.donor_cop[r.s.ctx.n_donors] = <int8_t>t.args[0]
        r.s.ctx.donor_k[r.s.ctx.n_donors] = <int16_t>k
        r.s.ctx.n_donors += 1
    return PR_OK


cdef int _accused(PRules* r, const PTask* t) noexcept nogil:
    # procedures._accused
    cdef int cop_i = t.args[0]
    cdef PCtx ctx = r.s.ctx
    cdef int i, given = 0, target, rc
    if ctx.kind != CTX_ACCUSE:
        return PR_BAD
    target = ctx.target
    memset(&r.s.ctx, 0, sizeof(PCtx))
    for i in range(ctx.n_donors):
        given += ctx.donor_k[i]
    if given < 3:
        for i in range(ctx.n_donors):
            r.s.cops[ctx.donor_cop[i]].donuts += ctx.donor_k[i]
        return PR_OK
    r.s.donut_supply += 3
    r.s.revealed |= <uint8_t>bit(target)
    if r.s.loyalty & bit(target):
        for i in range(r.s.n_cops):
            if r.s.cops[i].seat == target:
                rc = _leave_board(r, i, False)
                if rc < 0:
                    return rc
        r.s.underground |= <uint8_t>bit(target)
        pr_gain_donut(r, cop_i, 1)
        return PR_OK
    rc = _discard_hand_sorted(r, cop_i)
    if rc < 0:
        return rc
    r.s.cops[cop_i].no_draw = 1
    return PR_OK


cdef int _loyalty_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    cdef int i
    for i in range(r.c.n_loyalty):
        out[i] = LOYALTY + r.c.loyalty_actions[i]
    return r.c.n_loyalty


cdef int _loyal(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._loyal: the cop whose turn it is acts
    cdef int opts[PC_LOYALTY_KINDS]
    cdef int a = action - LOYALTY
    cdef int cop_i = r.s.order[r.s.at]
    if not _in(opts, _loyalty_legal(r, t, opts), action):
        return PR_BAD
    if a == LA_INCITE:
        return pr_push(r, pr_task(T_HOOD, 2, cop_i, HW_INCITE, 0, 0))
    if a == LA_STEAL_DONUT:
        pr_gain_donut(r, cop_i, 1)
        return PR_OK
    return pr_push(r, pr_task(T_EVENT_DRAW, 1, cop_i, 0, 0, 0))


cdef int _hood_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    cdef int h, n = 0
    for h in range(PS_HOODS):
        if t.args[1] != HW_OUTREACH or r.s.punks[h]:
            out[n] = HOOD + h
            n += 1
    return n


cdef int _hooded(PRules* r, const PTask* t, int action) noexcept nogil:
    # procedures._hooded
    cdef int opts[PS_HOODS]
    cdef int hood = action - HOOD + 1
    cdef int why = t.args[1]
    cdef int hoods[1]
    cdef int rc
    if not _in(opts, _hood_legal(r, t, opts), action):
        return PR_BAD
    if why == HW_OUTREACH:
        r.s.punks[hood - 1] -= 1
        r.s.punk_supply += 1
        if not r.s.punks[hood - 1] and r.s.gangs[hood - 1] >= 0:
            if r.s.n_gang_pool >= PS_MAX_GANGS:
                return PR_BOUND
            r.s.gang_pool[r.s.n_gang_pool] = r.s.gangs[hood - 1]
            r.s.n_gang_pool += 1
            r.s.gangs[hood - 1] = -1
    elif why == HW_INCITE:
        hoods[0] = hood
        rc = pr_add_punks(r, hoods, 1)
        if rc < 0:
            return rc
    elif why == HW_OFFICER:
        r.s.patrol_stock -= 1
        r.s.patrol[hood - 1] += 1
    return PR_OK


cdef int _dispatch_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    cdef int h
    if not r.s.patrol_stock:
        return 0
    out[0] = PROCEED
    for h in range(PS_HOODS):
        out[1 + h] = HOOD + h
    return 1 + PS_HOODS


cdef int _dispatched(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int h = action - HOOD
    if not r.s.patrol_stock:
        return PR_BAD
    if action == PROCEED:
        return PR_OK
    if not 0 <= h < PS_HOODS:
        return PR_BAD
    r.s.patrol_stock -= 1
    r.s.patrol[h] += 1
    return pr_push(r, t[0])


cdef int _tow_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    cdef int e, n = 0
    for e in range(PS_MAX_SLOTS):
        if r.s.slots[e].full and r.s.slots[e].at == AT_CROSSING_:
            out[n] = HANDLE + e
            n += 1
    return n


cdef int _towed(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int opts[PS_MAX_SLOTS]
    if not _in(opts, _tow_legal(r, t, opts), action):
        return PR_BAD
    return pr_discard_slot(r, action - HANDLE, True)


cdef int _target_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    cdef int me = r.s.cops[t.args[0]].seat
    cdef int p, n = 0
    for p in range(r.s.n):
        if p != me and not r.s.revealed & bit(p) and not r.s.peeks[me] & bit(p):
            out[n] = TARGET + p
            n += 1
    return n


cdef int _targeted(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int opts[PS_MAX_SEATS]
    if not _in(opts, _target_legal(r, t, opts), action):
        return PR_BAD
    r.s.peeks[r.s.cops[t.args[0]].seat] |= <uint8_t>bit(action - TARGET)
    return PR_OK

# eventcards.py's escort van (a decision the turn's move pushes)

cdef int _van_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # eventcards._van_options
    if not r.s.slots[t.args[1]].full:
        return 0
    out[0] = PROCEED
    out[1] = YES
    return 2


cdef int _van_moved(PRules* r, const PTask* t, int action) noexcept nogil:
    # eventcards._van: the van follows the car's shortest path a space or two
    cdef int cop_i = t.args[0]
    cdef int e = t.args[1]
    cdef int start = t.args[2]
    cdef PSlot* slot = &r.s.slots[e]
    cdef int path[CITY_MAX]
    cdef int n, card, rc
    if action != PROCEED and action != YES or not slot.full:
        return PR_BAD
    if action != YES:
        return PR_OK
    n = city_path(r.city, start, r.s.cops[cop_i].street, pr_blocked(r), path)
    slot.where = <int8_t>(path[2 if n - 1 > 2 else n - 1] if n else start)
    if slot.where == r.c.city_hall_street:
        card = slot.card
        rc = pr_discard_slot(r, e, True)
        if rc < 0:
            return rc
        return pr_pay_rewards(r, cop_i, card)
    return PR_OK


# --- eventcards.py: the event phase, placements, punks and gangs, specials -------------------------

cdef int _free_slot(const PRules* r) noexcept nogil:
    # eventcards._free_slot
    cdef int e
    for e in range(PS_MAX_SLOTS):
        if not r.s.slots[e].full:
            return e
    return -1


cdef int _unknown_stack(const PRules* r) noexcept nogil:
    # eventcards.unknown_stack: markers still in the face-down stack
    cdef int e, down = 0
    for e in range(PS_MAX_SLOTS):
        if r.s.slots[e].full and r.s.slots[e].unknown == -2:
            down += 1
    return _sum16(r.s.unknown, PS_UNKNOWN_KINDS) - down - r.s.unknown_unseen


cdef inline int _colour(const PRules* r, int e) noexcept nogil:
    return r.c.events[r.s.slots[e].card].colour


cdef int _urgent(PRules* r, int e) noexcept nogil:
    # eventcards._urgent: the Urgent! token's three moves after the emergency in slot e arrived
    cdef int colour = _colour(r, e)
    cdef int same[PS_MAX_SLOTS]
    cdef int i, j, k, n = 0, u, other, rc
    for i in range(PS_MAX_SLOTS):
        if (r.s.slots[i].full and i != e and _special(r, i) == SP_NONE and _colour(r, i) == colour):
            # sorted by serial (insertion keeps equal serials in slot order, as Python's stable sort)
            j = n
            while j > 0 and r.s.slots[same[j - 1]].serial > r.s.slots[i].serial:
                same[j] = same[j - 1]
                j -= 1
            same[j] = i
            n += 1
    if n == 0:
        return PR_OK
    u = r.s.urgent
    if u < 0:
        r.s.urgent = <int8_t>same[0]
        return PR_OK
    if not r.s.slots[u].full:
        return PR_BAD
    if _colour(r, u) == colour:
        if n == 1 and same[0] == u:
            return PR_OK  # the token stays when its card is the only one of that colour
        other = -1
        for k in range(n):
            if same[k] != u:
                other = same[k]
                break
        if other < 0:
            return PR_BAD
        rc = pr_discard_slot(r, u, False)  # rule 1: a third of one colour fails the urgent one
        if rc < 0:
            return rc
        r.s.urgent = <int8_t>other
    else:
        rc = pr_discard_slot(r, u, False)  # rule 2: a second of another colour fails it too
        if rc < 0:
            return rc
        r.s.urgent = <int8_t>same[0]
    return PR_OK


cdef int _place(PRules* r, int kind, int at, int where, int building, int data) noexcept nogil:
    # eventcards._place (building: an index, -1 for ""); no free slot: the card fails at once
    cdef int e = _free_slot(r)
    cdef int k, unknown = -1
    cdef PSlot* slot
    if e < 0:
        r.s.event_discard[kind] += 1
        pr_advance_crime(r)
        return PR_OK
    if r.c.events[kind].unknown:
        if (_unknown_stack(r) == 0
                and _sum16(r.s.unknown_discard, PS_UNKNOWN_KINDS) + r.s.unknown_unseen):
            for k in range(PS_UNKNOWN_KINDS):  # out of markers: shuffle the discards back
                r.s.unknown[k] += r.s.unknown_discard[k]
                r.s.unknown_discard[k] = 0
            r.s.unknown_unseen = 0
        if _unknown_stack(r) > 0:
            unknown = -2
    r.s.serial += 1
    slot = &r.s.slots[e]
    slot.full = 1
    slot.card = <int8_t>kind
    slot.at = <int8_t>at
    slot.where = <int8_t>where
    slot.building = <int8_t>building
    slot.unknown = <int8_t>unknown
    slot.serial = r.s.serial
    slot.data = <int16_t>data
    if r.c.events[kind].special == SP_NONE:
        return _urgent(r, e)
    return PR_OK


cdef int _orange(PRules* r, int kind, int setup) noexcept nogil:
    # eventcards._orange: 1 or 2 punks at rolled Bad Hoods
    cdef int i, rc
    if r.c.events[kind].punks and r.s.result == 0:
        for i in range(r.c.events[kind].punks):
            rc = pr_push(r, pr_task(T_PUNK_ROLL, 1, setup, 0, 0, 0))
            if rc < 0:
                return rc
    return PR_OK


cdef int _place_building(PRules* r, int kind, int building, int setup, int data) noexcept nogil:
    # eventcards._place_fixed at a named building
    cdef int rc = _place(r, kind, AT_BUILDING_, r.city.building_street[building], building, data)
    if rc < 0:
        return rc
    return _orange(r, kind, setup)


cdef int _arrive_and_go(PRules* r, int kind) noexcept nogil:
    # eventcards._arrive_and_go: a card discarded for want of punks still moves the Urgent! token
    cdef int e = _free_slot(r)
    cdef int rc
    cdef PSlot* slot
    if e >= 0:
        r.s.serial += 1
        slot = &r.s.slots[e]
        slot.full = 1
        slot.card = <int8_t>kind
        slot.at = <int8_t>AT_STREET_
        slot.where = <int8_t>r.c.station_street
        slot.building = -1
        slot.unknown = -1
        slot.serial = r.s.serial
        slot.data = 0
        rc = _urgent(r, e)
        if rc < 0:
            return rc
        memset(slot, 0, sizeof(PSlot))
        if r.s.urgent == e:
            r.s.urgent = -1
    r.s.event_discard[kind] += 1
    return PR_OK


# the event phase

cdef int _event_phase(PRules* r, const PTask* t) noexcept nogil:
    # eventcards._event_phase with _before_draw: gas leaks, stolen cars, jail breaks, then the draw
    cdef PTask ts[3 * PS_MAX_SLOTS + 1]
    cdef int sp, e, n = 0
    cdef int acts[3]
    cdef int tasks_[3]
    cdef int a
    if r.s.cops[t.args[0]].skip_event:
        return PR_OK
    acts[0] = SP_GAS_LEAK
    acts[1] = SP_CAR_THEFT
    acts[2] = SP_JAIL_BREAK
    tasks_[0] = T_GAS
    tasks_[1] = T_DRIVE
    tasks_[2] = T_ESCAPE
    for a in range(3):
        for e in range(PS_MAX_SLOTS):
            if _special(r, e) == acts[a]:
                ts[n] = pr_task(tasks_[a], 1, e, 0, 0, 0)
                n += 1
    ts[n] = pr_task(T_EVENT_DRAW, 1, t.args[0], 0, 0, 0)
    return _push_list(r, ts, n + 1)


cdef int _count_outcomes(const PRules* r, const int16_t* counts, int* actions,
                         double* probs) noexcept nogil:
    # [(EVENT + k, c / total) for k, c in enumerate(counts) if c]; total > 0
    cdef int k, n = 0
    cdef int total = _sum16(counts, r.s.n_event_kinds)
    for k in range(r.s.n_event_kinds):
        if counts[k]:
            actions[n] = EVENT + k
            probs[n] = <double>counts[k] / total
            n += 1
    return n


cdef int _event_outcomes(const PRules* r, int* actions, double* probs) noexcept nogil:
    # eventcards._event_outcomes
    cdef const int16_t* counts = r.s.events_left
    if r.s.n_event_top:
        actions[0] = EVENT + r.s.event_top[0].kind
        probs[0] = 1.0
        return 1
    if not _sum16(counts, r.s.n_event_kinds):
        if r.s.n_event_bottom:
            actions[0] = EVENT + r.s.event_bottom[0].kind
            probs[0] = 1.0
            return 1
        counts = r.s.event_discard  # the deck is empty: the discards are shuffled
    if not _sum16(counts, r.s.n_event_kinds):
        actions[0] = EVENT
        probs[0] = 0.0
        return 1
    return _count_outcomes(r, counts, actions, probs)


cdef void _pop_event_top(PState* s) noexcept nogil:
    cdef int i
    for i in range(s.n_event_top - 1):
        s.event_top[i] = s.event_top[i + 1]
    s.n_event_top -= 1


cdef void _pop_event_bottom(PState* s) noexcept nogil:
    cdef int i
    for i in range(s.n_event_bottom - 1):
        s.event_bottom[i] = s.event_bottom[i + 1]
    s.n_event_bottom -= 1


cdef int _event_drawn(PRules* r, const PTask* t, int action) noexcept nogil:
    # eventcards._event_drawn with take_event
    cdef int kind = action - EVENT
    cdef int k
    if not 0 <= kind < r.s.n_event_kinds:
        return PR_BAD
    if r.s.n_event_top:
        _pop_event_top(r.s)
    else:
        if not _sum16(r.s.events_left, r.s.n_event_kinds) and not r.s.n_event_bottom:
            for k in range(r.s.n_event_kinds):
                r.s.events_left[k] = r.s.event_discard[k]
                r.s.event_discard[k] = 0
            pr_advance_crime(r)
        if _sum16(r.s.events_left, r.s.n_event_kinds):
            if r.s.events_left[kind] <= 0:
                return PR_BAD
            r.s.events_left[kind] -= 1
        elif r.s.n_event_bottom:
            _pop_event_bottom(r.s)
        else:
            return PR_BAD
    if r.s.result == 0:
        return pr_push(r, pr_task(T_RESOLVE, 3, t.args[0], kind, 0, 0))
    return PR_OK


cdef int _peek_outcomes(const PRules* r, int* actions, double* probs) noexcept nogil:
    # eventcards._peek_outcomes
    if r.s.n_event_top:
        actions[0] = EVENT + r.s.event_top[0].kind
        probs[0] = 1.0
        return 1
    if not _sum16(r.s.events_left, r.s.n_event_kinds):
        if r.s.n_event_bottom:
            actions[0] = EVENT + r.s.event_bottom[0].kind
            probs[0] = 1.0
            return 1
        return 0
    return _count_outcomes(r, r.s.events_left, actions, probs)


cdef int _peeked(PRules* r, const PTask* t, int action) noexcept nogil:
    # eventcards._peeked: the top card becomes known to the cop's seat
    cdef int kind = action - EVENT
    cdef uint8_t seat = <uint8_t>bit(r.s.cops[t.args[0]].seat)
    cdef uint8_t know
    cdef int i
    if not 0 <= kind < r.s.n_event_kinds:
        return PR_BAD
    if r.s.n_event_top:
        r.s.event_top[0].know |= seat
        return PR_OK
    if r.s.n_event_top >= PS_MAX_EVENT_TOP:
        return PR_BOUND
    if _sum16(r.s.events_left, r.s.n_event_kinds):
        if r.s.events_left[kind] <= 0:
            return PR_BAD
        r.s.events_left[kind] -= 1
        know = seat
    elif r.s.n_event_bottom:
        know = r.s.event_bottom[0].know | seat
        _pop_event_bottom(r.s)
    else:
        return PR_BAD
    i = r.s.n_event_top
    while i > 0:
        r.s.event_top[i] = r.s.event_top[i - 1]
        i -= 1
    r.s.event_top[0].kind = <uint8_t>kind
    r.s.event_top[0].know = know
    r.s.n_event_top += 1
    return PR_OK


cdef int _look_event_legal(const PRules* r, const PTask* t, int* out) noexcept nogil:
    # eventcards._look_options
    if not r.s.n_event_top:
        return 0
    out[0] = KEEP
    out[1] = BOTTOM
    return 2


cdef int _event_looked(PRules* r, const PTask* t, int action) noexcept nogil:
    # eventcards._event_looked
    if not r.s.n_event_top or action != KEEP and action != BOTTOM:
        return PR_BAD
    if action == BOTTOM:
        if r.s.n_event_bottom >= PS_MAX_EVENT_BOTTOM:
            return PR_BOUND
        r.s.event_bottom[r.s.n_event_bottom] = r.s.event_top[0]
        r.s.n_event_bottom += 1
        _pop_event_top(r.s)
    return PR_OK


cdef int _resolve(PRules* r, const PTask* t) noexcept nogil:
    # eventcards._resolve: follow the card's instructions
    cdef int cop_i = t.args[0]
    cdef int kind = t.args[1]
    cdef int setup = t.args[2]
    cdef const PEvent* card = &r.c.events[kind]
    cdef int rc
    if card.special != SP_NONE:
        return _special_event(r, cop_i, kind, card.special)
    if card.punks and r.s.punk_supply < card.punks:  # the whole card is discarded
        rc = _arrive_and_go(r, kind)
        if rc < 0:
            return rc
        pr_advance_crime(r)
        return PR_OK
    if card.loc == EL_APARTMENT or card.loc == EL_WAREHOUSE or card.loc == EL_HOOD:
        return pr_push(r, pr_task(T_PLACE_ROLL, 3, kind, card.loc - EL_APARTMENT, setup, 0))
    if card.loc_at < 0:
        return PR_BAD
    rc = _place(r, kind, card.loc_at, card.loc_where, card.loc_building, 0)
    if rc < 0:
        return rc
    return _orange(r, kind, setup)


cdef int _special_event(PRules* r, int cop_i, int kind, int special) noexcept nogil:
    # eventcards._SPECIALS[special](st, cop_i, kind)
    cdef int h, n, rc
    cdef int hoods[PS_HOODS]
    cdef PTask ts[3]
    if special == SP_PROBLEMS_IN_THE_HOOD:
        r.s.event_discard[kind] += 1
        n = 0
        for h in range(PS_HOODS):
            if r.s.punks[h] >= 2:
                hoods[n] = h + 1
                n += 1
        if n:
            rc = pr_add_punks(r, hoods, n)
            if rc < 0:
                return rc
        return PR_OK
    if special == SP_STREET_RIOT:
        return pr_push(r, pr_task(T_SPECIAL_ROLL, 2, kind, SR_RIOT, 0, 0))
    if special == SP_GAS_LEAK:
        rc = _place(r, kind, AT_STREET_, r.c.west_calhoun, -1, 0)
        return rc if rc < 0 else _orange(r, kind, 0)
    if special == SP_JAIL_BREAK or special == SP_DETAINEES_RUN_AMOK:
        return _place_building(r, kind, r.c.station_building, 0, 2)
    if special == SP_DEDICATED_OFFICER:
        r.s.event_discard[kind] += 1
        if r.s.patrol_stock and cop_i >= 0:
            return pr_push(r, pr_task(T_HOOD, 2, cop_i, HW_OFFICER, 0, 0))
        return PR_OK
    if special == SP_OFFICER_DOWN:
        if r.s.patrol_stock:
            r.s.patrol_stock -= 1
        elif _sum8(r.s.patrol, PS_HOODS):
            for h in range(PS_HOODS):
                if r.s.patrol[h]:
                    r.s.patrol[h] -= 1
                    break
        else:  # every officer is gone: the event fails
            r.s.event_discard[kind] += 1
            pr_advance_crime(r)
            return PR_OK
        return pr_push(r, pr_task(T_SPECIAL_ROLL, 2, kind, SR_DOWN, 0, 0))
    if special == SP_OVERBURDENED:
        r.s.event_discard[kind] += 1
        r.s.patrol_stock += _sum8(r.s.patrol, PS_HOODS)
        for h in range(PS_HOODS):
            r.s.patrol[h] = 0
        return PR_OK
    if special == SP_CRIME_WAVE:
        r.s.event_discard[kind] += 1
        if r.s.punk_supply < 3:
            pr_advance_crime(r)
            return PR_OK
        for h in range(3):
            ts[h] = pr_task(T_PUNK_ROLL, 1, 0, 0, 0, 0)
        return _push_list(r, ts, 3)
    if special == SP_ESCORT_VAN:
        return _place(r, kind, AT_STREET_, r.c.station_street, -1, 0)
    if special == SP_OPTIONAL_TRAINING:
        return _place_building(r, kind, r.c.station_building, 0, 0)
    if special == SP_CAR_THEFT:
        return pr_push(r, pr_task(T_SPECIAL_ROLL, 2, kind, SR_THEFT, 0, 0))
    if special == SP_INTERNAL_AFFAIRS:
        r.s.event_discard[kind] += 1
        if not r.c.dirty_cops:
            return pr_push(r, pr_task(T_EVENT_DRAW, 1, cop_i, 0, 0, 0))
        if cop_i >= 0 and not r.s.cops[cop_i].out:
            return pr_push(r, pr_task(T_TARGET, 1, cop_i, 0, 0, 0))
        return PR_OK
    return PR_BAD


# placements with their rolls

cdef int _block_building(const PRules* r, int what, int b) noexcept nogil:
    return r.c.apartments[b] if what == RL_APARTMENT else r.c.warehouses[b]


cdef int _dice_outcomes(int* actions, double* probs) noexcept nogil:
    cdef int v
    for v in range(6):
        actions[v] = DIE + v
        probs[v] = 1.0 / 6
    return 6


cdef int _place_roll_outcomes(const PRules* r, const PTask* t, int* actions, double* probs) noexcept nogil:
    # eventcards._place_roll: a die; a block whose building holds a card is re-rolled
    cdef int what = t.args[1]
    cdef int b, e, n = 0
    cdef bint taken
    if what == RL_HOOD:
        return _dice_outcomes(actions, probs)
    for b in range(PC_BLOCKS):
        taken = False
        for e in range(PS_MAX_SLOTS):
            if r.s.slots[e].full and r.s.slots[e].building == _block_building(r, what, b):
                taken = True
                break
        if not taken:
            actions[n] = DIE + b
            n += 1
    if n == 0:
        return _dice_outcomes(actions, probs)
    for b in range(n):
        probs[b] = 1.0 / n
    return n


cdef int _place_rolled(PRules* r, const PTask* t, int action) noexcept nogil:
    # eventcards._place_rolled
    cdef int kind = t.args[0]
    cdef int what = t.args[1]
    cdef int setup = t.args[2]
    cdef int b = action - DIE
    cdef int rc
    if not 0 <= b < PC_BLOCKS:
        return PR_BAD
    if what == RL_HOOD:
        rc = _place(r, kind, AT_HOOD_, b + 1, -1, 0)
        return rc if rc < 0 else _orange(r, kind, setup)
    return _place_building(r, kind, _block_building(r, what, b), setup, 0)


cdef int _punk_roll_outcomes(const PRules* r, const PTask* t, int* actions, double* probs) noexcept nogil:
    # eventcards._punk_roll: at set-up only hoods with fewer than 3 punks
    cdef int h, n = 0
    for h in range(PS_HOODS):
        if not t.args[0] or r.s.punks[h] < 3:
            actions[n] = DIE + h
            n += 1
    for h in range(n):
        probs[h] = 1.0 / n
    return n


cdef int _punk_rolled(PRules* r, const PTask* t, int action) noexcept nogil:
    cdef int hood[1]
    cdef int rc
    hood[0] = action - DIE + 1
    if not 1 <= hood[0] <= PS_HOODS:
        return PR_BAD
    rc = pr_add_punks(r, hood, 1)
    return rc if rc < 0 else PR_OK


cdef int _special_rolled(PRules* r, const PTask* t, int action) noexcept nogil:
    # eventcards._special_rolled
    cdef int kind = t.args[0]
    cdef int what = t.args[1]
    cdef int b = action - DIE
    cdef int hoods[2]
    cdef int rc, street
    if not 0 <= b < 6:
        return PR_BAD
    if what == SR_RIOT:
        hoods[0] = b + 1
        hoods[1] = b + 1
        rc = pr_add_punks(r, hoods, 2)
        if rc < 0:
            return rc
        if rc:
            return _place(r, kind, AT_HOOD_, b + 1, -1, 0)
        r.s.event_discard[kind] += 1
        return PR_OK
    if what == SR_DOWN:
        return _place(r, kind, AT_HOOD_, b + 1, -1, 0)
    street = r.city.building_street[r.c.warehouses[b]]
    return _place(r, kind, AT_STREET_, street, -1, street)


cdef int _gang_outcomes(const PRules* r, int* actions, double* probs) noexcept nogil:
    # eventcards._gang_outcomes, in the pool's order
    cdef int i
    for i in range(r.s.n_gang_pool):
        actions[i] = GANG + r.s.gang_pool[i]
        probs[i] = 1.0 / r.s.n_gang_pool
    return r.s.n_gang_pool


cdef int _gang_drawn(PRules* r, const PTask* t, int action) noexcept nogil:
    # eventcards._gang: the marker leaves the pool (its first copy) for the hood
    cdef int g = action - GANG
    cdef int i, at = -1
    for i in range(r.s.n_gang_pool):
        if r.s.gang_pool[i] == g:
            at = i
            break
    if at < 0:
        return PR_BAD
    for i in range(at, r.s.n_gang_pool - 1):
        r.s.gang_pool[i] = r.s.gang_pool[i + 1]
    r.s.n_gang_pool -= 1
    r.s.gang_pool[r.s.n_gang_pool] = 0
    r.s.gangs[t.args[0] - 1] = <int8_t>g
    return PR_OK


# the specials that wait on the board

cdef int _gas_outcomes(const PRules* r, const PTask* t, int* actions, double* probs) noexcept nogil:
    # eventcards._gas_roll: a die, or a sure hold when the card's number cannot fail
    cdef const PSlot* slot = &r.s.slots[t.args[0]]
    cdef int need = 2, bad
    if slot.full:
        need = r.c.events[slot.card].number
        if need < 1:
            need = 1
    bad = need - 1 if need - 1 < 6 else 6
    if 0 < bad < 6:
        return _dice_outcomes(actions, probs)
    actions[0] = DIE + 5
    probs[0] = 1.0
    return 1


cdef int _gas_rolled(PRules* r, const PTask* t, int action) noexcept nogil:
    # eventcards._gas_rolled: below the card's number the leak explodes
    cdef int e = t.args[0]
    cdef PSlot* slot = &r.s.slots[e]
    cdef int need, i, rc
    if not slot.full:
        return PR_OK
    need = r.c.events[slot.card].number
    if need < 1:
        need = 1
    if action - DIE + 1 >= need:
        return PR_OK
    for i in range(r.s.n_cops):
        if not r.s.cops[i].out and r.s.cops[i].street == slot.where:
            rc = pr_hospital(r, i)
            if rc < 0:
                return rc
    return pr_discard_slot(r, e, False)


cdef int _gas_fixed(PRules* r, const PTask* t) noexcept nogil:
    # eventcards._gas_fixed
    cdef int e = t.args[1]
    cdef int card, rc
    if not r.s.slots[e].full:
        return PR_BAD
    card = r.s.slots[e].card
    rc = pr_discard_slot(r, e, True)
    if rc < 0:
        return rc
    return pr_pay_rewards(r, t.args[0], card)


cdef int _drive_options(const PRules* r, int e, int* out) noexcept nogil:
    # eventcards._drive_options: at most four streets; -1 (off the board) at a dead end
    cdef int buf[CITY_MAX]
    cdef int where, m, i, n = 0
    if not r.s.slots[e].full:
        return PR_BAD
    where = r.s.slots[e].where
    m = city_moves(r.city, where, 1, 0, buf)
    for i in range(m):
        if buf[i] != where and n < 4:
            out[n] = buf[i]
            n += 1
    if r.city.n_ends[where] < 2:
        if n > 3:
            n = 3
        out[n] = -1
        n += 1
    return n


cdef int _drive_outcomes(const PRules* r, const PTask* t, int* actions, double* probs) noexcept nogil:
    cdef int opts[5]
    cdef int d, n = _drive_options(r, t.args[0], opts)
    if n < 0:
        return n
    for d in range(n):
        actions[d] = COMPASS + d
        probs[d] = 1.0 / n
    return n


cdef int _driven(PRules* r, const PTask* t, int action) noexcept nogil:
    # eventcards._driven
    cdef int e = t.args[0]
    cdef int opts[5]
    cdef int n, d = action - COMPASS
    if not r.s.slots[e].full:
        return PR_OK
    n = _drive_options(r, e, opts)
    if not 0 <= d < n:
        return PR_BAD
    if opts[d] < 0:
        return pr_discard_slot(r, e, False)  # the stolen car leaves the city
    r.s.slots[e].where = <int8_t>opts[d]
    r.s.slots[e].data = <int16_t>opts[d]
    return PR_OK


cdef int _escape(PRules* r, const PTask* t) noexcept nogil:
    # eventcards._escape: Hospital, then Knights Apartments, then off the board
    cdef int e = t.args[0]
    cdef PSlot* slot = &r.s.slots[e]
    cdef int i, k = -1
    if not slot.full:
        return PR_OK
    for i in range(PC_ESCAPE):
        if r.c.escape_building[i] == slot.building:
            k = i
            break
    if k < 0:
        return PR_BAD
    if k + 1 == PC_ESCAPE:
        return pr_discard_slot(r, e, False)
    slot.building = r.c.escape_building[k + 1]
    slot.where = r.c.escape_street[k + 1]
    return PR_OK


# --- the dispatch (tasks.py) ----------------------------------------------------------------------

cdef inline void _sort_unique(int* a, int* n) noexcept nogil:
    # sorted(set(a[:n])) in place (insertion sort: the lists are short and mostly sorted already)
    cdef int i, j, k, m
    for i in range(1, n[0]):
        k = a[i]
        j = i - 1
        while j >= 0 and a[j] > k:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = k
    m = 0
    for i in range(n[0]):
        if m == 0 or a[i] != a[m - 1]:
            a[m] = a[i]
            m += 1
    n[0] = m


cdef int _decision_legal(PRules* r, const PTask* t, int* out) noexcept nogil:
    # DECISIONS[name][1], unsorted; a count or a status
    cdef int n
    if t.kind == T_START:
        n = _start_legal(r, t, out)
    elif t.kind == T_MOVE:
        n = _move_legal(r, t, out)
    elif t.kind == T_SUPPORT:
        n = _support_legal(r, t, out)
    elif t.kind == T_DISCARD:
        n = _discard_legal(r, t, out)
    elif t.kind == T_ACTION:
        n = _action_legal(r, t, out)
    elif t.kind == T_CLAIM:
        n = _claim_legal(r, t, out)
    elif t.kind == T_DECK:
        n = _deck_legal(r, t, out)
    elif t.kind == T_ORDER:
        n = _order_legal(r, t, out)
    elif t.kind == T_OFFICERS:
        n = _officers_legal(r, t, out)
    elif t.kind == T_SWAT:
        n = _swat_legal(r, t, out)
    elif t.kind == T_DONUTS:
        n = _donuts_legal(r, t, out)
    elif t.kind == T_HELP:
        n = _help_legal(r, t, out)
    elif t.kind == T_SABOTAGE:
        n = _sabotage_legal(r, t, out)
    elif t.kind == T_FED:
        n = _fed_legal(r, t, out)
    elif t.kind == T_SECOND:
        n = _second_legal(r, t, out)
    elif t.kind == T_REWARD:
        n = _reward_legal(r, t, out)
    elif t.kind == T_UPGRADE:
        n = _upgrade_legal(r, t, out)
    elif t.kind == T_DONATE:
        n = _donate_legal(r, t, out)
    elif t.kind == T_LOYALTY:
        n = _loyalty_legal(r, t, out)
    elif t.kind == T_HOOD:
        n = _hood_legal(r, t, out)
    elif t.kind == T_DISPATCH:
        n = _dispatch_legal(r, t, out)
    elif t.kind == T_TOW:
        n = _tow_legal(r, t, out)
    elif t.kind == T_TARGET:
        n = _target_legal(r, t, out)
    elif t.kind == T_VAN:
        n = _van_legal(r, t, out)
    elif t.kind == T_EVENT_LOOK:
        n = _look_event_legal(r, t, out)
    else:
        return _unported(r, t.kind)
    if n < 0:
        return n
    _sort_unique(out, &n)
    return n


cdef int _chance_outcomes(PRules* r, const PTask* t, int* actions, double* probs) noexcept nogil:
    # CHANCES[name][0] with the p > 0 filter of tasks.outcomes; a count or a status
    cdef int i, m, n
    if t.kind == T_DEAL_POLICE:
        n = _deal_police_outcomes(r, actions, probs)
    elif t.kind == T_INV_DRAW:
        n = _inv_outcomes(r, actions, probs)
    elif t.kind == T_LOOK:
        n = _look_outcomes(r, t, actions, probs)
    elif t.kind == T_ARREST_ROLL:
        n = _arrest_outcomes(r, actions, probs)
    elif t.kind == T_EM_ROLL:
        n = _em_outcomes(r, actions, probs)
    elif t.kind == T_UNKNOWN:
        n = _unknown_outcomes(r, actions, probs)
    elif t.kind == T_EVENT_DRAW:
        n = _event_outcomes(r, actions, probs)
    elif t.kind == T_PEEK_EVENT:
        n = _peek_outcomes(r, actions, probs)
    elif t.kind == T_PLACE_ROLL:
        n = _place_roll_outcomes(r, t, actions, probs)
    elif t.kind == T_PUNK_ROLL:
        n = _punk_roll_outcomes(r, t, actions, probs)
    elif t.kind == T_SPECIAL_ROLL:
        n = _dice_outcomes(actions, probs)
    elif t.kind == T_GANG:
        n = _gang_outcomes(r, actions, probs)
    elif t.kind == T_GAS:
        n = _gas_outcomes(r, t, actions, probs)
    elif t.kind == T_DRIVE:
        n = _drive_outcomes(r, t, actions, probs)
    else:
        return _unported(r, t.kind)
    if n < 0:
        return n
    m = 0
    for i in range(n):
        if probs[i] > 0:
            actions[m] = actions[i]
            probs[m] = probs[i]
            m += 1
    return m


cdef inline bint _is_chance(int kind) noexcept nogil:
    return T_FIRST_CHANCE <= kind < T_FIRST_AUTO


cdef inline bint _is_auto(int kind) noexcept nogil:
    return T_FIRST_AUTO <= kind < T_COUNT


cdef int pr_actor(PRules* r) noexcept nogil:
    # PrecinctState.current_player / tasks.actor
    cdef const PTask* t
    if r.s.result != 0 or r.s.todo_len == 0:
        return PR_TERMINAL_SEAT
    t = ps_head(r.s)
    if _is_chance(t.kind):
        return PR_CHANCE
    if t.kind < T_FIRST_SEAT_DECISION:
        return r.s.cops[t.args[0]].seat
    return t.args[0]


cdef int pr_legal(PRules* r, int* out) noexcept nogil:
    # tasks.legal: a chance node's actions sorted, a decision's sorted and distinct
    cdef const PTask* t
    cdef double probs[PR_MAX_OUTCOMES]
    cdef int n
    if r.s.result != 0 or r.s.todo_len == 0:
        return PR_TERMINAL
    t = ps_head(r.s)
    if _is_chance(t.kind):
        n = _chance_outcomes(r, t, out, probs)
        if n > 0:
            _sort_unique(out, &n)
        return n
    return _decision_legal(r, t, out)


cdef int pr_outcomes(PRules* r, int* actions, double* probs) noexcept nogil:
    # tasks.outcomes
    cdef const PTask* t
    if r.s.result != 0 or r.s.todo_len == 0:
        return PR_TERMINAL
    t = ps_head(r.s)
    if not _is_chance(t.kind):
        r.err_kind = t.kind
        return PR_BAD
    return _chance_outcomes(r, t, actions, probs)


cdef int _apply_task(PRules* r, const PTask* t, int action) noexcept nogil:
    # CHANCES[name][1] / DECISIONS[name][2]
    if t.kind == T_START:
        return _started(r, t, action)
    if t.kind == T_MOVE:
        return _moved(r, t, action)
    if t.kind == T_SUPPORT:
        return _supported(r, t, action)
    if t.kind == T_DISCARD:
        return _discarded(r, t, action)
    if t.kind == T_DEAL_POLICE:
        return _dealt_police(r, t, action)
    if t.kind == T_ACTION:
        return _acted(r, t, action)
    if t.kind == T_INV_DRAW:
        return _inv_drawn(r, t, action)
    if t.kind == T_CLAIM:
        return _claimed(r, t, action)
    if t.kind == T_DECK:
        return _decked(r, t, action)
    if t.kind == T_LOOK:
        return _looked(r, t, action)
    if t.kind == T_ORDER:
        return _ordered(r, t, action)
    if t.kind == T_OFFICERS:
        return _officered(r, t, action)
    if t.kind == T_SWAT:
        return _swatted(r, t, action)
    if t.kind == T_DONUTS:
        return _donuted(r, t, action)
    if t.kind == T_HELP:
        return _helped(r, t, action)
    if t.kind == T_SABOTAGE:
        return _sabotaged(r, t, action)
    if t.kind == T_FED:
        return _fed_used(r, t, action)
    if t.kind == T_SECOND:
        return _seconded(r, t, action)
    if t.kind == T_ARREST_ROLL:
        return _arrest_rolled(r, t, action)
    if t.kind == T_EM_ROLL:
        return _em_rolled(r, t, action)
    if t.kind == T_UNKNOWN:
        return _unknown_drawn(r, t, action)
    if t.kind == T_REWARD:
        return _rewarded(r, t, action)
    if t.kind == T_UPGRADE:
        return _upgraded(r, t, action)
    if t.kind == T_DONATE:
        return _donated(r, t, action)
    if t.kind == T_LOYALTY:
        return _loyal(r, t, action)
    if t.kind == T_HOOD:
        return _hooded(r, t, action)
    if t.kind == T_DISPATCH:
        return _dispatched(r, t, action)
    if t.kind == T_TOW:
        return _towed(r, t, action)
    if t.kind == T_TARGET:
        return _targeted(r, t, action)
    if t.kind == T_VAN:
        return _van_moved(r, t, action)
    if t.kind == T_EVENT_LOOK:
        return _event_looked(r, t, action)
    if t.kind == T_EVENT_DRAW:
        return _event_drawn(r, t, action)
    if t.kind == T_PEEK_EVENT:
        return _peeked(r, t, action)
    if t.kind == T_PLACE_ROLL:
        return _place_rolled(r, t, action)
    if t.kind == T_PUNK_ROLL:
        return _punk_rolled(r, t, action)
    if t.kind == T_SPECIAL_ROLL:
        return _special_rolled(r, t, action)
    if t.kind == T_GANG:
        return _gang_drawn(r, t, action)
    if t.kind == T_GAS:
        return _gas_rolled(r, t, action)
    if t.kind == T_DRIVE:
        return _driven(r, t, action)
    return _unported(r, t.kind)


cdef int _run_auto(PRules* r, const PTask* t) noexcept nogil:
    # AUTOS[name]
    if t.kind == T_TURN_START:
        return _turn_start(r, t)
    if t.kind == T_AFTER_MOVE:
        return _after_move(r, t)
    if t.kind == T_POLICE_PHASE:
        return _police_phase(r, t)
    if t.kind == T_HAND_LIMIT:
        return _hand_limit(r, t)
    if t.kind == T_END_TURN:
        return _end_turn(r, t)
    if t.kind == T_FIRST_TURN:
        return _first_turn(r)
    if t.kind == T_INV_DONE:
        return _inv_done(r, t)
    if t.kind == T_TAKE_REWARD:
        return _take_reward(r, t)
    if t.kind == T_ACCUSED:
        return _accused(r, t)
    if t.kind == T_EVENT_PHASE:
        return _event_phase(r, t)
    if t.kind == T_RESOLVE:
        return _resolve(r, t)
    if t.kind == T_GAS_FIXED:
        return _gas_fixed(r, t)
    if t.kind == T_ESCAPE:
        return _escape(r, t)
    return _unported(r, t.kind)


cdef int pr_apply(PRules* r, int action) noexcept nogil:
    # tasks.apply: pop the head, apply, run
    cdef PTask t
    cdef int rc
    if r.s.todo_len == 0:
        return PR_TERMINAL
    t = ps_head(r.s)[0]
    if not pr_ported(t.kind):
        return _unported(r, t.kind)
    ps_pop(r.s)
    rc = _apply_task(r, &t, action)
    if rc < 0:
        if r.err_kind == 0:
            r.err_kind = t.kind
        return rc
    return pr_run(r)


cdef int pr_run(PRules* r) noexcept nogil:
    # tasks.run; stops (PR_STOPPED) in front of a kind not ported, leaving it at the head
    cdef PTask t
    cdef int rc
    cdef int buf[PR_MAX_ACTIONS]
    cdef double probs[PR_MAX_OUTCOMES]
    while r.s.result == 0 and r.s.todo_len > 0:
        t = ps_head(r.s)[0]
        if not pr_ported(t.kind):
            r.err_kind = t.kind
            return PR_STOPPED
        if _is_auto(t.kind):
            ps_pop(r.s)
            rc = _run_auto(r, &t)
            if rc < 0:
                if r.err_kind == 0:
                    r.err_kind = t.kind
                return rc
            continue
        if _is_chance(t.kind):
            rc = _chance_outcomes(r, &t, buf, probs)
        else:
            rc = _decision_legal(r, &t, buf)
        if rc < 0:
            return rc
        if rc == 0:
            ps_pop(r.s)  # nothing to decide, or nothing left to draw
            continue
        return PR_OK
    return PR_OK


cdef int pr_random_playout(PRules* r, SplitMix* rng, int max_steps, int* actions,
                           int* n_out) noexcept nogil:
    # A whole game from the head to its end: a decision takes legal[below(n)], chance the first outcome
    # whose running sum of probabilities passes uniform() (the last one when rounding leaves none).
    # The actions go to ``actions`` (max_steps entries); PR_OK, PR_BOUND past max_steps, or a status.
    cdef int buf[PR_MAX_ACTIONS]
    cdef double probs[PR_MAX_OUTCOMES]
    cdef int n, i, action, who, rc
    cdef double u, acc
    n_out[0] = 0
    while r.s.result == 0 and r.s.todo_len > 0:
        who = pr_actor(r)
        if who == PR_CHANCE:
            n = pr_outcomes(r, buf, probs)
            if n <= 0:
                return n if n < 0 else PR_BAD
            u = sm_uniform(rng)
            acc = 0.0
            action = buf[n - 1]
            for i in range(n):
                acc += probs[i]
                if u < acc:
                    action = buf[i]
                    break
        else:
            n = pr_legal(r, buf)
            if n <= 0:
                return n if n < 0 else PR_BAD
            action = buf[sm_below(rng, n)]
        if n_out[0] >= max_steps:
            return PR_BOUND
        actions[n_out[0]] = action
        n_out[0] += 1
        rc = pr_apply(r, action)
        if rc != PR_OK:
            return rc if rc < 0 else PR_BAD
    return PR_OK


# --- the Python face (tests) ----------------------------------------------------------------------

cdef class PrecinctCRules:
    """The compiled rules of one game, applied to :class:`PrecinctCState` objects (tests only: a
    simulator calls the nogil functions). Raises BadStateError for a set-up task kind."""

    cdef readonly PrecinctCContent content
    cdef readonly CCity city
    cdef readonly object game

    def __init__(self, game):
        """The rules of PrecinctGame ``game`` (its content and city converted once)."""
        self.game = game
        self.content = PrecinctCContent(game)
        self.city = CCity(game.city)

    cdef void _bind(self, PRules* r, PrecinctCState cs):
        r.s = &cs.s
        r.c = &self.content.c
        r.city = &self.city.c
        r.err_kind = 0

    cdef _raise(self, int rc, int kind, action=None):
        name = TASK_NAMES[kind] if 0 <= kind < len(TASK_NAMES) else str(kind)
        if rc == PR_NOT_PORTED:
            raise BadStateError(f"precinct kernel: task {name} not ported yet")
        if rc == PR_SETUP:
            raise BadStateError(f"precinct kernel: set-up task {name} is not ported (searches start "
                                "after the set-up)")
        if rc == PR_BOUND:
            raise BadStateError(f"precinct kernel: a bound of the state was exceeded in task {name}")
        if rc == PR_TERMINAL:
            raise BadStateError("precinct kernel: the game is over (no task)")
        raise BadStateError(f"precinct kernel: task {name} cannot take action {action!r} (or the "
                            "state is one the rules never make)")

    def actor(self, PrecinctCState cs):
        """Who acts at the head: a seat, CHANCE (-1), or TERMINAL (-4)."""
        cdef PRules r
        self._bind(&r, cs)
        return pr_actor(&r)

    def legal(self, PrecinctCState cs):
        """tasks.legal: the head's actions, sorted."""
        cdef PRules r
        cdef int out[PR_MAX_ACTIONS]
        cdef int n
        self._bind(&r, cs)
        if r.s.result != 0 or r.s.todo_len == 0:
            return []
        n = pr_legal(&r, out)
        if n < 0:
            self._raise(n, r.err_kind)
        return [out[i] for i in range(n)]

    def outcomes(self, PrecinctCState cs):
        """tasks.outcomes: the head's chance outcomes as (action, probability)."""
        cdef PRules r
        cdef int acts[PR_MAX_OUTCOMES]
        cdef double probs[PR_MAX_OUTCOMES]
        cdef int n
        self._bind(&r, cs)
        n = pr_outcomes(&r, acts, probs)
        if n < 0:
            self._raise(n, r.err_kind)
        return [(acts[i], probs[i]) for i in range(n)]

    def apply(self, PrecinctCState cs, int action):
        """tasks.apply: OK, or STOPPED when the run after it reached a task kind not ported (left at the
        head, untouched). BadStateError when the head itself is not ported (nothing changed) or the
        action is not legal / a bound is exceeded (the state is then to be dropped)."""
        cdef PRules r
        cdef int rc
        self._bind(&r, cs)
        with nogil:
            rc = pr_apply(&r, action)
        if rc < 0:
            self._raise(rc, r.err_kind, action)
        return rc

    def run(self, PrecinctCState cs):
        """tasks.run: OK or STOPPED (see apply)."""
        cdef PRules r
        cdef int rc
        self._bind(&r, cs)
        rc = pr_run(&r)
        if rc < 0:
            self._raise(rc, r.err_kind)
        return rc

    def hospital(self, PrecinctCState cs, int cop):
        """common.hospital(st, cop) (the tests reach it here directly too)."""
        cdef PRules r
        cdef int rc
        self._bind(&r, cs)
        if not 0 <= cop < cs.s.n_cops:
            raise BadStateError(f"precinct kernel: no cop {cop}")
        rc = pr_hospital(&r, cop)
        if rc < 0:
            self._raise(rc, T_DISCARD)

    def random_playout(self, PrecinctCState cs, seed, int max_steps=100000):
        """Play ``cs`` to the end of the game in nogil C with a SplitMix64 seeded ``seed`` (a decision:
        legal[below(n)]; chance: the first outcome whose running sum of probabilities passes uniform());
        the actions taken, as a list (tests and benches: the whole game with no Python in the loop)."""
        cdef PRules r
        cdef SplitMix rng
        cdef int rc, n = 0
        cdef int* acts = <int*>malloc(max(1, max_steps) * sizeof(int))
        if acts == NULL:
            raise MemoryError()
        self._bind(&r, cs)
        rng.state = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        try:
            with nogil:
                rc = pr_random_playout(&r, &rng, max_steps, acts, &n)
            if rc < 0:
                self._raise(rc, r.err_kind)
            return [acts[i] for i in range(n)]
        finally:
            free(acts)

    def stopped_at(self, PrecinctCState cs):
        """The head task's name ("" when the queue is empty)."""
        if cs.s.todo_len == 0:
            return ""
        return TASK_NAMES[ps_head(&cs.s).kind]


#: the task kinds ported, by name
PORTED = frozenset(TASK_NAMES[k] for k in range(1, T_COUNT) if pr_ported(k))
#: the set-up kinds, refused on purpose
SETUP = frozenset(TASK_NAMES[k] for k in range(1, T_COUNT) if pr_setup_kind(k))
