# The ``heuristic`` bot's scores for the compiled Precinct simulator (solver/_ext/precinct_policy.pxd
# says what is ported). Each function names the Python it copies (bots/precinct/heuristic.py, read on
# view.policy_data); the formulas keep Python's order of operations so the scores are equal bit for bit.
"""The Police Precinct playout heuristic's scores in C (the scores of bots/precinct/heuristic.py)."""

from libc.math cimport pow
from libc.stdint cimport uint64_t

from solver._ext.precinct_codec cimport *
from solver._ext.precinct_state cimport *
from solver._ext.precinct_content cimport *
from solver._ext.precinct_city cimport CCity, CityC, CITY_MAX, city_reach, mask_pop
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
    if head.kind < T_CAR or head.kind > T_VAN or head.nargs < 1:
        return PP_BAD           # not a cop's decision (Reader.acting_cop: the prompt names the task's cop)
    p.cop = head.args[0]
    if p.cop < 0 or p.cop >= s.n_cops:
        return PP_BAD
    p.seat = s.cops[p.cop].seat
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


cdef void emergency_mods(const PPolicy* p, int e, double* plus, int* need_plus) noexcept nogil:
    # Reader.emergency_mods with Reader.unknown_of
    cdef const PSlot* slot = &p.s.slots[e]
    cdef const PEvent* ev = &p.c.events[slot.card]
    cdef int u = slot.unknown
    cdef bint marked = p.s.cops[p.cop].marked
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
    emergency_mods(p, e, &plus, &need_plus)
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


cdef double play_text(PPolicy* p, int kind) noexcept nogil:
    # heuristic._play_text with action_phase=True
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
    if text == TX_FRESH_PERSPECTIVE:
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


cdef int action_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    # heuristic._action for every legal action
    cdef const PCop* c = &p.s.cops[p.cop]
    cdef int street = c.street
    cdef int i, a, u
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
            u = a - UPGRADE
            if u == UP_MOVE:
                out[i] = 4.2
            else:
                out[i] = 4.0 + 0.3 * p.c.characters[c.chr].stat[u]
        elif PLAY <= a < PLAY + PLAY_SIZE:
            out[i] = play_text(p, a - PLAY)
        elif a == REVEAL:
            out[i] = reveal(p)
        elif ACCUSE <= a < ACCUSE + ACCUSE_SIZE:
            out[i] = -5.0       # board data without a history never accuses
        else:
            out[i] = 0.0
    return PP_OK


cdef int pp_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil:
    cdef int i
    cdef bint none_ = False
    if p.kind == T_MOVE:
        for i in range(n):
            if not (MOVE <= legal[i] < MOVE + MOVE_SIZE):
                return PP_BAD
        return move_scores(p, legal, n, out)
    if p.kind == T_ACTION:
        # score() reads the decision off the blocks: PHASE 2 offers "no action" (else it is not _action)
        for i in range(n):
            if legal[i] == NO_ACTION:
                none_ = True
            if PICK <= legal[i] < SUPPORT + SUPPORT_SIZE:
                return PP_NOT_PORTED
        if not none_:
            return PP_NOT_PORTED
        return action_scores(p, legal, n, out)
    return PP_NOT_PORTED


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
