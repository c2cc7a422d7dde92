# Included by ext/precinct_rules.pyx (not built on its own; it shares that module's cimports and
# helpers). Ports solver/games/precinct/procedures.py: police cards played for their text, then the
# action and its procedures (investigate, arrest, handle, help, sabotage, rolls, rewards, upgrades,
# donations, accusations, dispatch, tow, target, ...).
# Each C function names the Python function it follows line by line; change both together.

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
