# Included by ext/precinct_rules.pyx (not built on its own; it shares that module's cimports and
# helpers). Ports solver/games/precinct/common.py: the game's queries (murderer_hood, station_overrun,
# police_left, playable) and the hands (give/take/draw police cards, donuts, hospital).
# Each C function names the Python function it follows line by line; change both together.

# --- common.py: the game's queries ----------------------------------------------------------------

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
