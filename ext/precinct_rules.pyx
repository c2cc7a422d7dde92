# cython: cdivision=True
# The Police Precinct rules, part one: the task machinery and the turn flow, as nogil C functions over
# the PState / PContent / CityC structs (solver/_ext/precinct_rules.pxd lists what is ported and the
# statuses). Twins: solver/games/precinct/tasks.py, common.py, turn.py, and the hooks turn.py calls in
# procedures.py (text_plays, play_text) and eventcards.py (first_player_turn, after_car_move,
# end_of_turn, add_punks, discard_slot, pay_rewards). Each C function below names the Python function
# it follows line by line; change both together. tests/test_precinct_kernel_rules.py plays seeded
# games and compares every ported step with the Python rules.
"""The Police Precinct task machinery and turn flow in C (INCOMPLETE: not used by any bot).

Pure twins: :mod:`solver.games.precinct.tasks`, :mod:`~solver.games.precinct.common` and
:mod:`~solver.games.precinct.turn` (with the hooks they call in ``procedures`` and ``eventcards``). The
task kinds of ``procedures.py`` and ``eventcards.py`` are NOT ported yet: :class:`PrecinctCRules` raises
``BadStateError("precinct kernel: task X not ported yet")`` when one is at the head, and its ``apply``
answers :data:`STOPPED` when the run after an action reaches one (the state is then exactly the Python
state at the moment its run would handle that task). Set-up kinds are refused: searches start mid-game.
The Python methods are for the tests; a simulator calls the nogil ``pr_*`` functions.
"""

from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from libc.string cimport memset

from solver._ext.precinct_codec cimport *
from solver._ext.precinct_state cimport *
from solver._ext.precinct_content cimport *
from solver._ext.precinct_city cimport CCity, CityC, CITY_MAX, city_reach, mask_pop

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
cdef int AT_CROSSING_ = 1           # board.AT_CROSSING

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
    if _board.AT_CROSSING != AT_CROSSING_:
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
            or kind == T_END_TURN)


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
    else:
        return _unported(r, t.kind)
    _sort_unique(out, &n)
    return n


cdef int _chance_outcomes(PRules* r, const PTask* t, int* actions, double* probs) noexcept nogil:
    # CHANCES[name][0] with the p > 0 filter of tasks.outcomes; a count or a status
    cdef int i, m, n
    if t.kind == T_DEAL_POLICE:
        n = _deal_police_outcomes(r, actions, probs)
    else:
        return _unported(r, t.kind)
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


# --- the Python face (tests) ----------------------------------------------------------------------

cdef class PrecinctCRules:
    """The compiled rules of one game, applied to :class:`PrecinctCState` objects (tests only: a
    simulator calls the nogil functions). Raises BadStateError for a task kind not ported yet."""

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
        """common.hospital(st, cop) (no task of part one calls it; the tests reach it here)."""
        cdef PRules r
        cdef int rc
        self._bind(&r, cs)
        if not 0 <= cop < cs.s.n_cops:
            raise BadStateError(f"precinct kernel: no cop {cop}")
        rc = pr_hospital(&r, cop)
        if rc < 0:
            self._raise(rc, T_DISCARD)

    def stopped_at(self, PrecinctCState cs):
        """The head task's name ("" when the queue is empty)."""
        if cs.s.todo_len == 0:
            return ""
        return TASK_NAMES[ps_head(&cs.s).kind]


#: the task kinds ported, by name
PORTED = frozenset(TASK_NAMES[k] for k in range(1, T_COUNT) if pr_ported(k))
#: the set-up kinds, refused on purpose
SETUP = frozenset(TASK_NAMES[k] for k in range(1, T_COUNT) if pr_setup_kind(k))
