# Included by ext/precinct_rules.pyx (not built on its own; it shares that module's cimports and
# helpers). Ports solver/games/precinct/eventcards.py: the board hooks (punks, discards, rewards,
# first_player_turn, end_of_turn, after_car_move) and the event phase, placements, punks and gangs,
# specials, gas, drive and escape.
# Each C function names the Python function it follows line by line; change both together.

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
