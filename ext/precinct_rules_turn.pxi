# Included by ext/precinct_rules.pyx (not built on its own; it shares that module's cimports and
# helpers). Ports solver/games/precinct/turn.py: the turn's task kinds (turn_start, start, move,
# support, police_phase, hand_limit, discard, end_turn) less the set-up.
# Each C function names the Python function it follows line by line; change both together.

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
