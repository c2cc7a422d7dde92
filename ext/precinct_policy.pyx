# The ``heuristic`` bot's scores for the compiled Precinct simulator (solver/_ext/precinct_policy.pxd
# says what is ported). Each function names the Python it copies (bots/precinct/heuristic.py, read on
# view.policy_data); the formulas keep Python's order of operations so the scores are equal bit for bit.
"""The Police Precinct playout heuristic's scores in C (the scores of bots/precinct/heuristic.py)."""

from libc.math cimport pow
from libc.stdint cimport uint64_t

from solver._ext.precinct_codec cimport *
from solver._ext.precinct_state cimport *
from solver._ext.precinct_content cimport *
from solver._ext.precinct_city cimport (CCity, CityC, CITY_MAX, city_reach, city_distance, mask_pop,
                                        mask_count, __builtin_ctzll)
from solver._ext.rng cimport SplitMix, sm_below

from solver.core.errors import BadStateError

cdef enum:
    # board.py's Slot.at
    AT_BUILDING = 0
    AT_CROSSING = 1
    AT_STREET = 2
    AT_HOOD = 3
    MAX_LEGAL = 128

cdef double TIE = 1e-9              # heuristic._TIE
cdef double DONUT = 2.0             # heuristic.DONUT
cdef double HIDE_THRESHOLD = 0.3    # heuristic.HIDE_THRESHOLD (search.heuristic_action's)
cdef int KEEP_CARDS = 2             # heuristic.KEEP_CARDS


# --- the odds (heuristic.p_highest, die_chance, p_more_than) ---------------------------------------
cdef inline double p_highest(double dice, int need) noexcept nogil:
    cdef double miss
    if need <= 1:
        return 1.0 if dice > 0 else 0.0
    miss = (need - 1) / 6.0
    if miss > 1.0:
        miss = 1.0
    return 1.0 - pow(miss, dice if dice > 0.0 else 0.0)


cdef inline double die_chance(int need) noexcept nogil:
    cdef double x = (7 - need) / 6.0
    cdef double lo = 1.0 / 6.0
    cdef double hi = 5.0 / 6.0
    if not (x > lo):
        x = lo
    return hi if x > hi else x


cdef double comb(int n, int k) noexcept nogil:
    # math.comb for the small counts of an arrest (exact in an unsigned 64-bit int up to n = 60)
    cdef unsigned long long r = 1
    cdef int j
    if k < 0 or k > n:
        return 0.0
    if k > n - k:
        k = n - k
    for j in range(1, k + 1):
        r = r * <unsigned long long>(n - k + j) // <unsigned long long>j
    return <double>r


cdef double p_more_than(int dice, double p, int k) noexcept nogil:
    cdef double total = 0.0
    cdef int j
    for j in range(k + 1, dice + 1):
        total += comb(dice, j) * pow(p, <double>j) * pow(1.0 - p, <double>(dice - j))
    return total


cdef inline double reward_value(int r) noexcept nogil:
    # heuristic._REWARD_VALUE by REWARDS index
    if r == RW_DONUT:
        return 5.0
    if r == RW_POLICE_CARD:
        return 4.0
    if r == RW_SKIP_EVENT:
        return 3.5
    if r == RW_LOOK_INVESTIGATION:
        return 3.0
    if r == RW_LOOK_EVENT:
        return 2.5
    return 2.0


# --- Reader: the per-decision tables ----------------------------------------------------------------
cdef int pp_init(PPolicy* p, const PState* s, const PContent* c, const CityC* city) noexcept nogil:
    cdef int i, d, e, total
    cdef const PTask* head
    cdef const PSlot* slot
    p.s = s
    p.c = c
    p.city = city
    if s.todo_len <= 0:
        return PP_BAD
    head = &s.todo[s.todo_len - 1]
    p.kind = head.kind
    if head.kind < T_CAR or head.kind > T_LOYALTY or head.nargs < 1:
        return PP_BAD           # not a decision
    if head.kind <= T_VAN:
        # a cop's decision (Reader.acting_cop: the prompt names the task's cop)
        p.cop = head.args[0]
        if p.cop < 0 or p.cop >= s.n_cops:
            return PP_BAD
        p.seat = s.cops[p.cop].seat
    else:
        # a seat's decision: the prompt names no cop; the turn's cop when it is the seat's, else the
        # seat's first cop, else 0 (Reader.acting_cop; no rule of these decisions reads it)
        p.seat = head.args[0]
        if p.seat < 0 or p.seat >= s.n:
            return PP_BAD
        p.cop = -1
        if s.n_order > 0 and 0 <= s.at < s.n_order and s.cops[s.order[s.at]].seat == p.seat:
            p.cop = s.order[s.at]
        for i in range(s.n_cops):
            if p.cop < 0 and s.cops[i].seat == p.seat:
                p.cop = i
        if p.cop < 0:
            p.cop = 0
    # my_loyalty (dealt loyalty cards only) and the public loyalty list
    p.dirty = s.dealt > p.seat and (s.loyalty >> p.seat) & 1
    p.revealed = p.dirty and (s.revealed >> p.seat) & 1
    p.complete = True
    total = 0
    for d in range(PC_DECKS):
        if s.placed[d] < c.deck_evidence[d]:
            p.complete = False
        total += c.deck_evidence[d] - s.placed[d]
    p.evidence_left = total
    # common.murderer_hood
    if s.turn_track < c.murderer_turn:
        p.murderer = 0
    else:
        p.murderer = 6 - (s.turn_track - c.murderer_turn)
        if p.murderer < 0:
            p.murderer = 0
    # Reader.blocked: the cards whose place is an intersection; the streets each card is handled from
    p.blocked = 0
    for e in range(PS_MAX_SLOTS):
        slot = &s.slots[e]
        p.card_streets[e] = 0
        if not slot.full:
            continue
        if slot.building >= 0:
            p.card_streets[e] = (<uint64_t>1) << city.building_street[slot.building]
        elif slot.at == AT_CROSSING:
            p.blocked |= (<uint64_t>1) << slot.where
            p.card_streets[e] = city.at[slot.where]
        elif slot.at == AT_HOOD:
            p.card_streets[e] = city.hood_mask[slot.where - 1]
        else:
            p.card_streets[e] = (<uint64_t>1) << slot.where
    # Reader._car_tables
    for i in range(CITY_MAX):
        p.cars[i] = 0
    for i in range(s.n_cops):
        if s.cops[i].out:
            p.on[i] = -1
        else:
            p.on[i] = s.cops[i].street
            p.cars[s.cops[i].street] += 1
    for i in range(s.n_support):
        p.cars[s.support[i]] += 1
    # Reader._stack_tables: a stack whose building no board card lies at, by its street
    for d in range(PC_DECKS):
        p.stack_street[d] = -1
        if s.stacks[d].building < 0:
            continue
        p.stack_street[d] = city.building_street[s.stacks[d].building]
        for e in range(PS_MAX_SLOTS):
            if s.slots[e].full and s.slots[e].building == s.stacks[d].building:
                p.stack_street[d] = -1
                break
    p.best_done = 0
    p.roll_done = False
    return PP_OK


cdef double pp_cars_on(const PPolicy* p, int street, int exclude) noexcept nogil:
    # Reader.cars_on (an int; a double so callers add it as Python does)
    cdef int n = p.cars[street]
    if 0 <= exclude < p.s.n_cops and p.on[exclude] == street:
        n -= 1
    return n


cdef inline int stat(const PPolicy* p, int cop, int what) noexcept nogil:
    # Reader.stat: the character's value plus its upgrade
    cdef const PCop* c = &p.s.cops[cop]
    cdef int v = p.c.characters[c.chr].stat[what]
    cdef int u
    for u in range(c.n_upgrades):
        if c.upgrades[u] == what:
            return v + 1
    return v


cdef inline bint has_upgrade(const PCop* c, int what) noexcept nogil:
    cdef int u
    for u in range(c.n_upgrades):
        if c.upgrades[u] == what:
            return True
    return False


cdef inline bint has(const PPolicy* p, int cop, int power) noexcept nogil:
    return pc_has(p.c, p.s.cops[cop].chr, power)


cdef inline int hood_need(const PPolicy* p, int hood) noexcept nogil:
    # Reader.hood_need
    cdef int need = p.s.punks[hood - 1] + (2 if p.murderer == hood else 0)
    cdef int g = p.s.gangs[hood - 1]
    return need + (1 if g >= 0 and p.c.gangs[g] == GANG_ENFORCERS else 0)


cdef inline bint lookouts(const PPolicy* p, int hood) noexcept nogil:
    cdef int g = p.s.gangs[hood - 1]
    return g >= 0 and p.c.gangs[g] == GANG_LOOKOUTS


cdef inline int unknown_of(const PPolicy* p, int e) noexcept nogil:
    # Reader.unknown_of: the revealed marker (UK_*), -2 face down, -1 none (or no marker slot)
    cdef const PSlot* slot = &p.s.slots[e]
    cdef const PEvent* ev = &p.c.events[slot.card]
    if not ev.unknown or ev.special != SP_NONE:
        return -1
    return slot.unknown


cdef void emergency_mods(const PPolicy* p, int e, int cop, double* plus, int* need_plus) noexcept nogil:
    # Reader.emergency_mods with Reader.unknown_of, for ``cop``'s car
    cdef const PSlot* slot = &p.s.slots[e]
    cdef const PEvent* ev = &p.c.events[slot.card]
    cdef int u = slot.unknown
    cdef bint marked = p.s.cops[cop].marked
    plus[0] = 0.0
    need_plus[0] = 0
    if not ev.unknown or ev.special != SP_NONE or u == -1:
        return
    if u == -2:
        plus[0] = -0.4
    elif u == UK_PUNKS or u == UK_ANGRY_DOG or u == UK_SHOTGUN or (u == UK_DISRESPECT and marked):
        plus[0] = -1.0
    elif u == UK_RESPECT and marked:
        plus[0] = 1.0
    elif u == UK_BIG_KNIFE:
        need_plus[0] = 1


# --- what an action is worth (Reader's methods) -----------------------------------------------------
cdef double pp_handle_value(PPolicy* p, int e) noexcept nogil:
    cdef const PSlot* slot = &p.s.slots[e]
    cdef const PEvent* ev = &p.c.events[slot.card]
    cdef int cop = p.cop
    cdef uint64_t streets = p.card_streets[e]
    cdef int adjacent = 0
    cdef int left, need, need_plus, r, dice
    cdef double pr, expect, plus, worth, best, total, loss
    while streets:
        adjacent += <int>pp_cars_on(p, mask_pop(&streets), cop)
    if ev.special == SP_JAIL_BREAK or ev.special == SP_DETAINEES_RUN_AMOK:
        left = slot.data
        dice = stat(p, cop, STAT_ARREST) + adjacent
        pr = die_chance(left)
        expect = <double>dice * pr
        if not (expect < left):
            expect = left
        return 4.0 + 2.5 * expect
    if ev.special == SP_GAS_LEAK:
        return 9.0
    dice = stat(p, cop, STAT_EMERGENCY) + adjacent + (1 if has(p, cop, POW_NEGOTIATOR) else 0)
    emergency_mods(p, e, cop, &plus, &need_plus)
    need = ev.number + need_plus
    pr = p_highest(dice + plus, need)
    best = 0.0
    for r in range(ev.n_rewards):
        if r == 0 or reward_value(ev.rewards[r]) > best:
            best = reward_value(ev.rewards[r])
    worth = 6.0 + best
    if ev.both:
        total = 0.0
        for r in range(ev.n_rewards):
            total += reward_value(ev.rewards[r])
        worth += 0.6 * total
    if p.s.urgent == e:
        worth += 9.0
    if slot.building < 0 and slot.at == AT_CROSSING:
        worth += 2.0        # it blocks an intersection
    if ev.special == SP_OFFICER_DOWN:
        worth += 3.0
    loss = (1 - pr) * (5.0 if ev.hospital else 0.5)
    return pr * worth - loss


cdef double arrest_dice(PPolicy* p, int street, int hood, bint murderer) noexcept nogil:
    # Reader.arrest_dice
    cdef const PCop* c = &p.s.cops[p.cop]
    cdef int dice = stat(p, p.cop, STAT_ARREST) + <int>pp_cars_on(p, street, p.cop)
    dice += p.s.patrol[hood - 1]
    if murderer:
        dice += 2 * c.swat
    else:
        dice += 2 if 2 * c.swat > 2 else 2 * c.swat
    if has(p, p.cop, POW_STREET_SMART) and not murderer:
        dice += 1
    if lookouts(p, hood):
        dice = dice - 1 if dice - 1 > 1 else 1
    return dice


cdef double pp_arrest_value(PPolicy* p, int street) noexcept nogil:
    cdef int hood = p.city.hood[street]
    cdef int punks, weight_big
    cdef double dice, pr, expect, weight, p_none
    if hood == 0:
        return -1.0
    punks = p.s.punks[hood - 1]
    if punks == 0:
        return -1.0
    dice = arrest_dice(p, street, hood, False)
    pr = die_chance(hood_need(p, hood))
    expect = dice * pr
    if not (expect < punks):
        expect = punks
    if punks >= 4 or p.s.gangs[hood - 1] >= 0:
        weight = 5.0
    elif punks == 3:
        weight = 3.0
    else:
        weight = 1.0
    p_none = pow(1 - pr, dice if dice > 0.0 else 0.0)
    return expect * weight - 4.0 * p_none


cdef double pp_murderer_value(PPolicy* p, int street) noexcept nogil:
    cdef int hood = p.city.hood[street]
    cdef int dice
    cdef double pr
    if not p.complete or hood == 0 or p.murderer != hood:
        return -1.0
    dice = <int>(arrest_dice(p, street, hood, True) + p.s.cops[p.cop].donuts)
    pr = p_more_than(dice, die_chance(hood_need(p, hood)), p.s.punks[hood - 1])
    return 60.0 + 200.0 * pr


cdef double pp_investigate_value(PPolicy* p, int street, int deck) noexcept nogil:
    cdef const PStack* st = &p.s.stacks[deck]
    cdef const PCop* c = &p.s.cops[p.cop]
    cdef int size = st.evidence + st.useless
    cdef int evidence = st.evidence
    cdef int n, drawn, ahead
    cdef double expect, urgency
    if st.gone or size == 0 or evidence == 0:
        return -0.5
    n = stat(p, p.cop, STAT_INVESTIGATE) + (0 if c.marked else 1)
    n += <int>pp_cars_on(p, street, p.cop)
    if has(p, p.cop, POW_FORENSICS) and (deck == DECK_EXAMINE_BODY or deck == DECK_CRIME_SCENE):
        n += 1
    if has(p, p.cop, POW_CANVASSER) and (deck == DECK_INTERVIEW or deck == DECK_WEAPON):
        n += 1
    drawn = size if size <= n else n
    # drawn * evidence is an exact int in both languages, then one true division
    expect = <double>(drawn * evidence) / <double>size
    ahead = p.s.turn_track - p.c.murderer_turn + 6
    urgency = 1.0 + (ahead if ahead > 0 else 0) / 5.0
    return 6.0 * urgency * expect


cdef double best_at_now(PPolicy* p, int street) noexcept nogil:
    # Reader._best_at (its early return gives the same maximum: 1.0)
    cdef double best = 1.0          # _DRAW, the police-card fallback
    cdef double v
    cdef int e, d, sp
    cdef const PCop* c = &p.s.cops[p.cop]
    cdef uint64_t bit = (<uint64_t>1) << street
    for e in range(PS_MAX_SLOTS):
        if not p.s.slots[e].full or not (p.card_streets[e] & bit):
            continue
        sp = p.c.events[p.s.slots[e].card].special
        if sp == SP_NONE or sp == SP_JAIL_BREAK or sp == SP_DETAINEES_RUN_AMOK or sp == SP_OFFICER_DOWN or (
                sp == SP_GAS_LEAK and pp_cars_on(p, street, p.cop) >= 1 and c.n_hand >= 2):
            v = pp_handle_value(p, e)
            if v > best:
                best = v
    v = pp_arrest_value(p, street)
    if v > best:
        best = v
    v = pp_murderer_value(p, street)
    if v > best:
        best = v
    for d in range(PC_DECKS):
        if p.stack_street[d] == street:
            v = pp_investigate_value(p, street, d)
            if v > best:
                best = v
    if street == p.c.station_street and c.donuts > 0 and c.n_upgrades < 2:
        if 4.5 > best:
            best = 4.5
    return best


cdef double pp_best_at(PPolicy* p, int street) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << street
    if not (p.best_done & bit):
        p.best[street] = best_at_now(p, street)
        p.best_done |= bit
    return p.best[street]


cdef double pp_best_near(PPolicy* p, int street, int steps) noexcept nogil:
    # Reader.best_near: the first street of the ranking in reach is the maximum over the reach
    cdef uint64_t reach = city_reach(p.city, street, steps, p.blocked, 0, NULL)
    cdef double best = 0.0
    cdef double v
    cdef bint any_ = False
    reach &= ~((<uint64_t>1) << street)
    while reach:
        v = pp_best_at(p, mask_pop(&reach))
        if not any_ or v > best:
            best = v
            any_ = True
    return best


# --- the decisions ------------------------------------------------------------------------------------
cdef int allowance_of(const PPolicy* p) noexcept nogil:
    # Reader.reach's allowance
    cdef const PCop* c = &p.s.cops[p.cop]
    cdef int a = (3 if c.marked else 2) + (1 if has(p, p.cop, POW_FAST) else 0)
    return a + (1 if has_upgrade(c, UP_MOVE) else 0)


cdef int move_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._move for every legal action
    cdef const PCop* c = &p.s.cops[p.cop]
    cdef int allowance = allowance_of(p)
    cdef uint64_t through = 0 if has(p, p.cop, POW_MOTORCYCLE) else p.blocked
    cdef uint64_t free = city_reach(p.city, c.street, allowance, through, 0, NULL)
    cdef int dist[CITY_MAX]
    cdef uint64_t full = city_reach(p.city, c.street, allowance + c.donuts, through, 0, dist)
    cdef int i, e, dest, spent
    cdef double value, near
    for i in range(n):
        dest = legal[i] - MOVE
        if dest < 0 or dest >= p.city.n_streets:
            return PP_BAD
        spent = 0
        if not (free >> dest) & 1 and (full >> dest) & 1 and dist[dest] > allowance:
            spent = dist[dest] - allowance
        value = pp_best_at(p, dest)
        for e in range(PS_MAX_SLOTS):   # a second car on the stolen car's street catches it
            if p.s.slots[e].full and p.c.events[p.s.slots[e].card].special == SP_CAR_THEFT \
                    and (p.card_streets[e] >> dest) & 1 and pp_cars_on(p, dest, p.cop) >= 1:
                value += 6.0
        near = pp_best_near(p, dest, allowance)
        out[i] = value + 0.15 * near - DONUT * spent
    return PP_OK


cdef double play_text(PPolicy* p, int kind, bint action_phase) noexcept nogil:
    # heuristic._play_text
    cdef const PCop* c = &p.s.cops[p.cop]
    cdef int text = p.c.police[kind].text
    cdef int h, d, punks_max = 0, patrol = 0
    cdef bint gang = False
    for h in range(PS_HOODS):
        if p.s.punks[h] > punks_max:
            punks_max = p.s.punks[h]
        if p.s.gangs[h] >= 0:
            gang = True
        patrol += p.s.patrol[h]
    if text == TX_COFFEE_BREAK:
        return 6.0
    if text == TX_PAPERWORK and c.n_hand < 6:
        return 5.5
    if text == TX_HOT_PURSUIT and p.murderer and not p.complete:
        return 6.0
    if text == TX_COMMUNITY_OUTREACH and (punks_max >= 3 or gang):
        return 5.0
    if text == TX_DISPATCH_OFFICERS and p.s.patrol_stock + patrol > 0:
        return 5.0
    if text == TX_TOW_TRUCK and p.blocked:
        return 4.0
    if text == TX_FRESH_PERSPECTIVE and action_phase:
        for d in range(PC_DECKS):
            if not p.s.stacks[d].gone and p.s.stacks[d].evidence and p.s.stacks[d].building >= 0 \
                    and p.city.building_street[p.s.stacks[d].building] == c.street:
                return 7.0
    return -1.0


cdef double reveal(const PPolicy* p) noexcept nogil:
    # heuristic._reveal with _suspicion
    cdef int i, suspicion = 0, donuts = 0
    if p.revealed or not p.dirty:
        return -10.0
    if p.evidence_left <= 2 or p.complete:
        return 50.0
    for i in range(p.s.n_cops):
        if p.s.cops[i].seat == p.seat:
            suspicion += p.s.cops[i].empty
        if not p.s.cops[i].out:
            donuts += p.s.cops[i].donuts
    if suspicion >= 3 and donuts >= 3:
        return 40.0
    return -10.0


cdef inline double upgrade(const PPolicy* p, int u) noexcept nogil:
    # heuristic._upgrade
    if u == UP_MOVE:
        return 4.2
    return 4.0 + 0.3 * p.c.characters[p.s.cops[p.cop].chr].stat[u]


cdef int action_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._action for every legal action
    cdef const PCop* c = &p.s.cops[p.cop]
    cdef int street = c.street
    cdef int i, a
    for i in range(n):
        a = legal[i]
        if a == NO_ACTION:
            out[i] = 0.0
        elif a == DRAW_ACTION:
            out[i] = 1.0 + (0.5 if c.n_hand < 3 else 0.0)
        elif INVESTIGATE <= a < INVESTIGATE + INVESTIGATE_SIZE:
            out[i] = pp_investigate_value(p, street, a - INVESTIGATE)
        elif a == ARREST:
            out[i] = pp_arrest_value(p, street)
        elif a == ARREST_MURDERER:
            out[i] = pp_murderer_value(p, street)
        elif HANDLE <= a < HANDLE + HANDLE_SIZE:
            out[i] = pp_handle_value(p, a - HANDLE) if p.s.slots[a - HANDLE].full else 0.5
        elif UPGRADE <= a < UPGRADE + UPGRADE_SIZE:
            out[i] = upgrade(p, a - UPGRADE)
        elif PLAY <= a < PLAY + PLAY_SIZE:
            out[i] = play_text(p, a - PLAY, True)
        elif a == REVEAL:
            out[i] = reveal(p)
        elif ACCUSE <= a < ACCUSE + ACCUSE_SIZE:
            out[i] = -5.0       # board data without a history never accuses
        else:
            out[i] = 0.0
    return PP_OK


# --- the smaller decisions (heuristic._pick, _claim, _help, _donuts, _sabotage, _loyalty, _other) ------------
cdef double p_no_evidence(int size, int evidence, int drawn) noexcept nogil:
    # heuristic.p_no_evidence: two exact counts and one correctly rounded division, as Python's int / int
    if drawn <= 0:
        return 1.0
    if drawn > size - evidence:
        return 0.0
    return comb(size - evidence, drawn) / comb(size, drawn)


cdef int pick_scores(const PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._pick: the character strongest where the team picked so far is weakest
    cdef int team[PC_STATS]
    cdef int i, w, ch, top
    cdef double total
    cdef const PCharacter* pc
    for w in range(PC_STATS):
        team[w] = 0
    for i in range(p.s.n_cops):
        for w in range(PC_STATS):
            team[w] += p.c.characters[p.s.cops[i].chr].stat[w]
    for i in range(n):
        ch = legal[i] - PICK
        if ch < 0 or ch >= p.c.n_characters:
            return PP_BAD
        pc = &p.c.characters[ch]
        total = 0.0
        top = pc.stat[0]
        for w in range(PC_STATS):       # investigate, arrest, emergency, summed in that order
            total += pc.stat[w] / (1.0 + team[w])
            if pc.stat[w] > top:
                top = pc.stat[w]
        total += 0.3 * top
        total += 0.2 * mask_count(pc.powers)
        out[i] = total
    return PP_OK


cdef int support_scores(const PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # score()'s support rule: the street next to my car
    cdef int target = p.s.cops[p.cop].street
    cdef int i, dest
    for i in range(n):
        dest = legal[i] - SUPPORT
        if dest < 0 or dest >= p.city.n_streets:
            return PP_BAD
        out[i] = -<double>city_distance(p.city, dest, target)
    return PP_OK


cdef int claim_scores(const PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._claim: a good cop places; a dirty cop hides only when an honest draw of that many cards
    # shows no evidence with a chance of at least HIDE_THRESHOLD (the stack as it was before the draw)
    cdef const PCtx* x = &p.s.ctx
    cdef bint plain = not p.dirty or p.revealed
    cdef bint hide = False
    cdef int i, size, evidence
    if not plain:
        # the view's roll shows the cards only to the investigator's seat, and only once drawn
        if x.kind == CTX_NONE or not x.has_draw or x.n_cards == 0 or x.cop < 0 or x.cop >= p.s.n_cops \
                or p.s.cops[x.cop].seat != p.seat:
            plain = True
        else:
            size = p.s.stacks[x.deck].evidence + p.s.stacks[x.deck].useless + x.n_cards
            evidence = p.s.stacks[x.deck].evidence + mask_count(x.cards)
            hide = p_no_evidence(size, evidence, x.n_cards) >= HIDE_THRESHOLD
    for i in range(n):
        if plain:
            out[i] = 1.0 if legal[i] == PLACE else 0.0
        else:
            out[i] = 1.0 if (legal[i] == HIDE) == hide else 0.0
    return PP_OK


cdef inline int slot_card(const PPolicy* p, int e) noexcept nogil:
    # Reader.card_by_slot: e when slot e holds a card, else -1
    if 0 <= e < PS_MAX_SLOTS and p.s.slots[e].full:
        return e
    return -1


cdef void roll_context_of(PPolicy* p, bint with_dice, double dice, int* what, double* pr, double* p1,
                          double* worth) noexcept nogil:
    # heuristic._roll_context_of: (kind, the chance of success now, with one more die, the roll's worth)
    # of the roll under way (ctx), or as if its dice so far were ``dice``
    cdef const PCtx* x = &p.s.ctx
    cdef double sab = <double>x.sabotage if x.has_sabotage else 0.0
    cdef double n = (dice if with_dice else <double>x.n) - sab
    cdef double q, plus
    cdef int hood, punks, e, need_plus, need, size, ev
    what[0] = PR_NONE
    pr[0] = 1.0
    p1[0] = 1.0
    worth[0] = 0.0
    if x.kind == CTX_ARREST:
        hood = x.hood
        punks = p.s.punks[hood - 1]
        q = die_chance(hood_need(p, hood))
        if lookouts(p, hood):
            n = n - 1 if n - 1 > 1.0 else 1.0
        if p.complete and p.murderer == hood:   # the murderer counts as two punks, arrested last
            what[0] = PR_MURDERER
            pr[0] = p_more_than(<int>n, q, punks)
            p1[0] = p_more_than(<int>n + 1, q, punks)
            worth[0] = 200.0
            return
        what[0] = PR_ARREST
        worth[0] = 5.0 if punks >= 3 or p.s.gangs[hood - 1] >= 0 else 2.0
        pr[0] = 1 - pow(1 - q, n)
        p1[0] = 1 - pow(1 - q, n + 1)
    elif x.kind == CTX_ESCAPEES:
        e = slot_card(p, x.slot)
        need = p.s.slots[e].data if e >= 0 else 3
        q = die_chance(need)
        what[0] = PR_ESCAPEES
        pr[0] = 1 - pow(1 - q, n)
        p1[0] = 1 - pow(1 - q, n + 1)
        worth[0] = 5.0
    elif x.kind == CTX_EMERGENCY or x.kind == CTX_OFFICER_DOWN:
        what[0] = PR_EMERGENCY if x.kind == CTX_EMERGENCY else PR_OFFICER_DOWN
        e = slot_card(p, x.slot)
        if e < 0:
            pr[0] = 0.5
            p1[0] = 0.6
            worth[0] = 5.0
            return
        emergency_mods(p, e, x.cop, &plus, &need_plus)
        need = p.c.events[p.s.slots[e].card].number + need_plus
        worth[0] = 14.0 if p.s.urgent == e else 8.0
        pr[0] = p_highest(n + plus, need)
        p1[0] = p_highest(n + plus + 1, need)
    elif x.kind == CTX_INVESTIGATE:
        what[0] = PR_INVESTIGATE
        ev = p.s.stacks[x.deck].evidence
        size = ev + p.s.stacks[x.deck].useless
        if not size or not ev or n >= size:
            return
        pr[0] = 1 - p_no_evidence(size, ev, <int>n)
        p1[0] = 1 - p_no_evidence(size, ev, <int>n + 1)
        worth[0] = 8.0


cdef inline void roll_context(PPolicy* p) noexcept nogil:
    # heuristic._roll_context with no dice given: computed once per decision
    if not p.roll_done:
        roll_context_of(p, False, 0.0, &p.roll_what, &p.roll_p, &p.roll_p1, &p.roll_worth)
        p.roll_done = True


cdef inline double odds_with(PPolicy* p, double dice) noexcept nogil:
    # heuristic._odds_with
    cdef int what
    cdef double pr, p1, worth
    roll_context_of(p, True, dice, &what, &pr, &p1, &worth)
    return pr


cdef int help_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._help: assist a roll with a card when it matters; keep two cards; the dirty cop never
    # helps others
    cdef const PCtx* x = &p.s.ctx
    cdef bint own = x.cop == p.cop
    cdef int hand = p.s.cops[p.cop].n_hand
    cdef int i, a, start, kind, bonus, e, u
    cdef double gain
    roll_context(p)
    for i in range(n):
        a = legal[i]
        if a == PROCEED:
            out[i] = 0.0
            continue
        if PLAY <= a < PLAY + PLAY_SIZE:
            start = PLAY
            kind = a - PLAY
        elif HELP <= a < HELP + HELP_SIZE:
            start = HELP
            kind = a - HELP
        else:
            return PP_BAD
        if kind >= p.c.n_police:
            return PP_BAD
        bonus = 2 if (start == PLAY or p.c.police[kind].dbl) else 1
        gain = (p.roll_p1 - p.roll_p) * bonus
        if not (gain < 1.0):
            gain = 1.0
        if (p.roll_what == PR_EMERGENCY or p.roll_what == PR_OFFICER_DOWN) and start == HELP:
            e = slot_card(p, x.slot)
            if e >= 0:
                u = unknown_of(p, e)
                if u == UK_HOSTAGE or u == UK_BOMB:
                    out[i] = -1.0       # the marker cancels emergency symbols
                    continue
        if p.dirty and not own and not p.revealed:
            out[i] = -1.0
        elif p.dirty and p.revealed:
            out[i] = -5.0
        elif p.roll_what == PR_MURDERER:
            out[i] = 100.0 * gain + 1.0
        elif hand <= KEEP_CARDS and not own:
            out[i] = -0.5
        elif p.roll_what == PR_INVESTIGATE:
            out[i] = (gain * p.roll_worth - 0.3) if (p.roll_worth > 0 and p.roll_p < 0.9) else -0.5
        elif not (p.roll_p < 0.7 or p.roll_what == PR_ARREST and p.roll_p < 0.85):
            out[i] = -0.5               # the roll is likely already
        else:
            out[i] = gain * p.roll_worth - (0.3 if own else 0.6) + (0.05 * (hand - KEEP_CARDS))
    return PP_OK


cdef int donuts_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._donuts: donuts on an own roll while each raises the chance by 12 points or more
    cdef int i, k
    cdef double base = <double>p.s.ctx.n
    cdef double gains
    for i in range(n):
        k = legal[i] - DONUTS
        if k < 0 or k >= DONUTS_SIZE:
            return PP_BAD
        if k == 0:
            out[i] = 0.0
            continue
        if p.dirty and not p.revealed:
            out[i] = -1.0
            continue
        roll_context(p)
        if p.roll_what == PR_MURDERER:
            out[i] = <double>k
            continue
        gains = odds_with(p, base + k) - p.roll_p
        out[i] = gains - 0.12 * k - (0.05 if p.roll_worth < 3 else 0.0)
    return PP_OK


cdef int sabotage_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._sabotage: a revealed dirty cop spends donuts against a roll when it cuts the odds a lot
    cdef int i, k
    cdef double sab = <double>p.s.ctx.sabotage if p.s.ctx.has_sabotage else 0.0
    cdef double dice = <double>p.s.ctx.n - sab
    cdef double after, drop, bonus
    for i in range(n):
        k = legal[i] - SABOTAGE
        if k < 0 or k >= SABOTAGE_SIZE:
            return PP_BAD
        if k == 0:
            out[i] = 0.0
            continue
        roll_context(p)
        after = odds_with(p, dice - k + sab) if dice - k >= 0 else 0.0
        drop = p.roll_p - after
        bonus = 1.0 if p.roll_what == PR_MURDERER else 0.0
        out[i] = drop * (1.0 + bonus) - 0.1 * k
    return PP_OK


cdef int loyalty_scores(const PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._loyalty: incite in a crowded hood, steal a donut when he has none
    cdef int i, h, what, donuts = 0, punks = 0
    for i in range(p.s.n_cops):
        if p.s.cops[i].seat == p.seat:
            donuts += p.s.cops[i].donuts
    for h in range(PS_HOODS):
        if h == 0 or p.s.punks[h] > punks:
            punks = p.s.punks[h]
    for i in range(n):
        what = legal[i] - LOYALTY
        if what < 0 or what >= PC_LOYALTY_KINDS:
            return PP_BAD
        if what == LA_INCITE:
            out[i] = 3.0 + punks
        elif what == LA_STEAL_DONUT:
            out[i] = 7.0 if donuts == 0 else 1.0
        else:
            out[i] = 2.5
    return PP_OK


cdef inline double text_value(int text) noexcept nogil:
    # heuristic._TEXT_VALUE by TX_* (every text the content knows is in the table)
    if text == TX_AIR_SUPPORT:
        return 5.0
    if text == TX_BACKUP or text == TX_CRIME_LAB:
        return 4.0
    if text == TX_HOT_PURSUIT:
        return 3.5
    if text == TX_PAPERWORK or text == TX_COFFEE_BREAK:
        return 3.0
    if text == TX_DISPATCH_OFFICERS or text == TX_COMMUNITY_OUTREACH:
        return 2.5
    if text == TX_FRESH_PERSPECTIVE:
        return 2.0
    if text == TX_OVERTIME or text == TX_TOW_TRUCK:
        return 1.5
    return 1.0


cdef inline double card_keep(const PPolicy* p, int kind) noexcept nogil:
    # heuristic._card_keep
    return text_value(p.c.police[kind].text) + (2.0 if p.c.police[kind].dbl else 0.0)


cdef inline double hood_pick(const PPolicy* p, int h, bint incite) noexcept nogil:
    # heuristic._hood_pick
    cdef int punks = p.s.punks[h]
    cdef double gang = 2.0 if p.s.gangs[h] >= 0 else 0.0
    if incite:
        return punks + gang + (5.0 if punks == 3 else 0.0)
    return punks + gang - 0.5 * p.s.patrol[h]


cdef double swat(PPolicy* p, int k) noexcept nogil:
    # heuristic._swat
    cdef int hood = p.s.ctx.hood if p.s.ctx.kind == CTX_ARREST else 1
    cdef bint big
    roll_context(p)
    if p.roll_what == PR_MURDERER:
        return <double>k
    big = p.s.punks[hood - 1] >= 3 or p.s.gangs[hood - 1] >= 0
    if big and p.roll_p < 0.95:
        return 1.0 if k == 1 else 0.0
    return -<double>k


cdef double van(const PPolicy* p) noexcept nogil:
    # heuristic._van: escort the van when my car is nearer City Hall than the van's first street
    cdef int hall = p.c.city_hall_street if p.c.city_hall_building >= 0 else -1
    cdef int e, first = -1
    cdef const PSlot* slot
    if hall < 0:
        return -1.0
    for e in range(PS_MAX_SLOTS):
        if p.s.slots[e].full and p.c.events[p.s.slots[e].card].special == SP_ESCORT_VAN:
            break
    else:
        return -1.0
    # Reader.card_streets(where)[0]: the building's street, an intersection's lowest street id, a hood's
    # first street in the file's order, the street itself
    slot = &p.s.slots[e]
    if slot.building >= 0:
        first = p.city.building_street[slot.building]
    elif slot.at == AT_CROSSING:
        if p.city.at[slot.where]:
            first = __builtin_ctzll(p.city.at[slot.where])
    elif slot.at == AT_HOOD:
        if p.city.hood_count[slot.where - 1] > 0:
            first = p.city.hood_streets[slot.where - 1][0]
    else:
        first = slot.where
    if first < 0:
        return -1.0
    if city_distance(p.city, p.s.cops[p.cop].street, hall) < city_distance(p.city, first, hall):
        return 1.0
    return -1.0


cdef inline bint harmless_top(const PPolicy* p) noexcept nogil:
    # heuristic._other's keep/bottom: the top event card, when this seat looked at it, hurts nobody
    cdef int sp
    if p.s.n_event_top <= 0 or not (p.s.event_top[0].know >> p.seat) & 1:
        return False
    sp = p.c.events[p.s.event_top[0].kind].special
    return sp == SP_DEDICATED_OFFICER or sp == SP_OPTIONAL_TRAINING or sp == SP_INTERNAL_AFFAIRS \
        or sp == SP_OVERBURDENED


cdef int other_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._other: car side, start-of-turn cards, rewards, discards, looks, hoods, specials; where
    # Python reads the prompt ("tows", "van") the task kind is read
    cdef const PCop* c = &p.s.cops[p.cop]
    cdef const PCharacter* ch = &p.c.characters[c.chr]
    cdef int i, a, k, size
    cdef bint want
    for i in range(n):
        a = legal[i]
        if a == MARKED or a == UNMARKED:
            # _preferred_marked: marked unless an investigator (the character's own values)
            want = not (ch.stat[STAT_INVESTIGATE] > (ch.stat[STAT_ARREST] if ch.stat[STAT_ARREST]
                                                     > ch.stat[STAT_EMERGENCY] else ch.stat[STAT_EMERGENCY]))
            out[i] = 1.0 if (a == MARKED) == want else -0.5
        elif PLAY <= a < PLAY + PLAY_SIZE:
            if a - PLAY >= p.c.n_police:
                return PP_BAD
            out[i] = play_text(p, a - PLAY, False)
        elif REWARD <= a < REWARD + REWARD_SIZE:
            if a - REWARD >= RW_COUNT:
                return PP_BAD
            out[i] = reward_value(a - REWARD)
        elif DISCARD <= a < DISCARD + DISCARD_SIZE:
            if a - DISCARD >= p.c.n_police:
                return PP_BAD
            out[i] = -card_keep(p, a - DISCARD)
        elif DECK <= a < DECK + DECK_SIZE:
            k = a - DECK
            size = p.s.stacks[k].evidence + p.s.stacks[k].useless
            out[i] = <double>p.s.stacks[k].evidence / <double>(size if size > 1 else 1)
        elif a == EV_FIRST:
            out[i] = 1.0
        elif a == SHUFFLE:
            out[i] = 0.0
        elif a == EV_LAST:
            out[i] = -1.0
        elif HOOD <= a < HOOD + HOOD_SIZE:
            out[i] = 0.5 + hood_pick(p, a - HOOD, p.dirty and p.revealed)
        elif UPGRADE <= a < UPGRADE + UPGRADE_SIZE:
            out[i] = upgrade(p, a - UPGRADE)
        elif HANDLE <= a < HANDLE + HANDLE_SIZE:     # the second emergency (Federal Agent) or the tow
            if p.kind == T_TOW or not p.s.slots[a - HANDLE].full:
                out[i] = 1.0
            else:
                out[i] = pp_handle_value(p, a - HANDLE)
        elif a == KEEP or a == BOTTOM:
            out[i] = 1.0 if (a == KEEP) == harmless_top(p) else 0.0
        elif DONATE <= a < DONATE + DONATE_SIZE:
            out[i] = -<double>(a - DONATE)          # accuse_at is None in a playout: give none
        elif OFFICERS <= a < OFFICERS + OFFICERS_SIZE:
            out[i] = <double>(a - OFFICERS)
        elif SWAT <= a < SWAT + SWAT_SIZE:
            out[i] = swat(p, a - SWAT)
        elif TARGET <= a < TARGET + TARGET_SIZE:
            out[i] = -<double>(a - TARGET)
        elif a == YES:
            out[i] = van(p) if p.kind == T_VAN else 1.0
        else:
            out[i] = 0.0
    return PP_OK


cdef int pp_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic.score: the decision read off the legal actions' blocks, in Python's order
    cdef int i, a
    cdef bint f_pick = False, f_move = False, f_support = False, f_none = False, f_place = False
    cdef bint f_help = False, f_donuts = False, f_sabotage = False, f_loyalty = False
    for i in range(n):
        a = legal[i]
        if PICK <= a < PICK + PICK_SIZE:
            f_pick = True
        elif MOVE <= a < MOVE + MOVE_SIZE:
            f_move = True
        elif SUPPORT <= a < SUPPORT + SUPPORT_SIZE:
            f_support = True
        elif a == NO_ACTION:
            f_none = True
        elif a == PLACE:
            f_place = True
        elif HELP <= a < HELP + HELP_SIZE or PLAY <= a < PLAY + PLAY_SIZE:
            f_help = True
        elif DONUTS <= a < DONUTS + DONUTS_SIZE:
            f_donuts = True
        elif SABOTAGE <= a < SABOTAGE + SABOTAGE_SIZE:
            f_sabotage = True
        elif LOYALTY <= a < LOYALTY + LOYALTY_SIZE:
            f_loyalty = True
        elif a < 0 or a >= DIE:
            return PP_BAD
    if f_pick:
        return pick_scores(p, legal, n, out)
    if p.kind == T_PICK or p.s.n_cops <= 0:
        return PP_BAD               # every other rule reads the acting cop
    if f_move:
        for i in range(n):
            if not (MOVE <= legal[i] < MOVE + MOVE_SIZE):
                return PP_BAD
        return move_scores(p, legal, n, out)
    if f_support:
        return support_scores(p, legal, n, out)
    if f_none:
        return action_scores(p, legal, n, out)
    if f_place:
        return claim_scores(p, legal, n, out)
    if p.s.ctx.kind != CTX_NONE and f_help:     # a roll's help window
        return help_scores(p, legal, n, out)
    if f_donuts:
        return donuts_scores(p, legal, n, out)
    if f_sabotage:
        return sabotage_scores(p, legal, n, out)
    if f_loyalty:
        return loyalty_scores(p, legal, n, out)
    return other_scores(p, legal, n, out)


cdef int pp_choose(PPolicy* p, const int* legal, int n, SplitMix* rng) noexcept nogil:
    cdef double scores[MAX_LEGAL]
    cdef int status, i, count, k
    cdef double top
    if n == 1:
        return legal[0]
    if n < 1 or n > MAX_LEGAL:
        return PP_BAD
    status = pp_scores(p, legal, n, scores)
    if status != PP_OK:
        return status
    top = scores[0]
    for i in range(1, n):
        if scores[i] > top:
            top = scores[i]
    count = 0
    for i in range(n):
        if scores[i] >= top - TIE:
            count += 1
    k = <int>sm_below(rng, count) if count > 1 else 0
    for i in range(n):
        if scores[i] >= top - TIE:
            if k == 0:
                return legal[i]
            k -= 1
    return PP_BAD


# --- Python access (tests and benches) ------------------------------------------------------------------
cdef class PrecinctCPolicy:
    """The heuristic's scores for one PrecinctGame, over PrecinctCState values (tests and benches:
    kernels call pp_init / pp_scores / pp_choose on the structs)."""

    cdef PrecinctCContent content
    cdef CCity city
    cdef readonly object game

    def __init__(self, game):
        """Build the game's tables (its content and city as C structs)."""
        self.game = game
        self.content = PrecinctCContent(game)
        self.city = CCity(game.city)

    cdef _init(self, PrecinctCState cs, PPolicy* p):
        if pp_init(p, &cs.s, &self.content.c, &self.city.c) != PP_OK:
            raise BadStateError("precinct policy: the head task is not a decision by a cop")

    def scores(self, PrecinctCState cs, legal):
        """The score of every action of ``legal`` at the decision at the head of ``cs`` (as
        heuristic.score on the seat's policy_data), or None when that decision is not ported."""
        cdef PPolicy p
        cdef int buf[MAX_LEGAL]
        cdef double out[MAX_LEGAL]
        cdef int n = len(legal), i, status
        if n > MAX_LEGAL:
            raise BadStateError(f"precinct policy: {n} legal actions exceed {MAX_LEGAL}")
        self._init(cs, &p)
        for i in range(n):
            buf[i] = legal[i]
        with nogil:
            status = pp_scores(&p, buf, n, out)
        if status == PP_NOT_PORTED:
            return None
        if status != PP_OK:
            raise BadStateError(f"precinct policy: status {status} for legal actions {list(legal)}")
        return [out[i] for i in range(n)]

    def choose(self, PrecinctCState cs, legal, rng_state):
        """(heuristic_action's choice among ``legal``, the SplitMix64 state after it) from the
        SplitMix64 state ``rng_state``; None for the choice when the decision is not ported."""
        cdef PPolicy p
        cdef int buf[MAX_LEGAL]
        cdef int n = len(legal), i, got
        cdef SplitMix rng
        if n > MAX_LEGAL:
            raise BadStateError(f"precinct policy: {n} legal actions exceed {MAX_LEGAL}")
        rng.state = rng_state
        self._init(cs, &p)
        for i in range(n):
            buf[i] = legal[i]
        with nogil:
            got = pp_choose(&p, buf, n, &rng)
        if got == PP_NOT_PORTED:
            return None, rng_state
        if got < 0:
            raise BadStateError(f"precinct policy: status {got} for legal actions {list(legal)}")
        return got, rng.state

    def best_at(self, PrecinctCState cs, int street):
        """Reader.best_at(cop, street)'s value for the cop of the decision at the head of ``cs``."""
        cdef PPolicy p
        self._init(cs, &p)
        if not 0 <= street < self.city.c.n_streets:
            raise IndexError(street)
        return pp_best_at(&p, street)

    def time_scores(self, PrecinctCState cs, legal, int repeat):
        """Seconds for ``repeat`` rounds of pp_init + pp_scores (a bench without Python in the loop)."""
        import time
        cdef PPolicy p
        cdef int buf[MAX_LEGAL]
        cdef double out[MAX_LEGAL]
        cdef int n = len(legal), i, k
        for i in range(n):
            buf[i] = legal[i]
        t0 = time.perf_counter()
        with nogil:
            for k in range(repeat):
                pp_init(&p, &cs.s, &self.content.c, &self.city.c)
                pp_scores(&p, buf, n, out)
        return time.perf_counter() - t0
