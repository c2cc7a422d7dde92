# cython: cdivision=True
# The learnt Police Precinct value in C (solver/_ext/precinct_value.pxd says what and how exactly).
# pv_features copies solver/search/precinct_value.py's _raw line for line; the comments name Python's
# variables so the two can be read side by side.
"""The Police Precinct learnt value (precinct_value.features / ValueModel.value) in nogil C."""

from libc.math cimport exp

from solver._ext.precinct_state cimport (PState, PCop, PStack, PSlot, PrecinctCState, PS_MAX_COPS, PS_MAX_SLOTS,
                                         PS_HOODS, PS_DECKS, PS_MAX_EVENT_KINDS)
from solver._ext.precinct_content cimport PContent, PrecinctCContent
from solver._ext.precinct_city cimport CityC, CCity, CITY_MAX

from solver.core.errors import BadStateError

cdef double ROUNDS = 10.0       # precinct_value._ROUNDS
cdef double DRAWS = 20.0        # _DRAWS
cdef double EMERGENCIES = 8.0   # _EMERGENCIES
cdef double SPECIALS = 4.0      # _SPECIALS
cdef double HAND = 7.0          # _HAND
cdef double DONUTS = 4.0        # _DONUTS
cdef double UPGRADES = 3.0      # _UPGRADES
cdef double DIST = 6.0          # _DIST


cdef inline double div(long a, long b) noexcept nogil:
    # Python's int / int (both exact in a double here, so one correctly rounded division)
    return <double>a / <double>b


cdef void pv_features(const PState* s, const PContent* c, const CityC* city, const PValueConsts* k,
                      unsigned int self_revealed, double* out) noexcept nogil:
    cdef int ncops = s.n_cops if s.n_cops > 1 else 1
    cdef bint dirty = k.dirty
    cdef bint good[PS_MAX_COPS]
    cdef int i, d, p, m, ngood = 0, hood, missing = 0, opened = 0, covered = 0, n_targets = 0
    cdef int targets[PS_DECKS]
    cdef double at, rounds_left, draws = 0.0, complete, m_dist, inv_dist, best, crime_near, miss
    cdef double per_round, draws_n, m_in, soon = 0.0, v
    cdef const PCop* cop
    cdef const PStack* stack
    cdef const PSlot* slot
    cdef bint found, any_active
    cdef int on_board = 0, crowded = 0, gangs = 0, m_punks, top_punks, emergencies = 0, specials = 0
    cdef int down = 0, event_deck, cards = 0, donuts = 0, upgrades = 0, hospital = 0, tokens = 0
    cdef int n_out = 0, crime_left, patrol = 0, top_colour, hidden = 0, under = 0, exposed = 0
    cdef int cleared = 0, h_donuts = 0, u_donuts = 0, h_cards = 0, shown, idx, L
    cdef int colours[4]
    # good = [c for c in cops if not c.out and not loyalty[c.seat]] if dirty else cops
    for i in range(s.n_cops):
        cop = &s.cops[i]
        good[i] = (not cop.out and not (s.loyalty >> cop.seat & 1)) if dirty else True
        ngood += good[i]
    if ngood < 1:
        ngood = 1
    at = div(s.at, ncops) if s.n_order else 0.0
    rounds_left = <double>(k.fail_turn - s.turn_track) - at
    if not (rounds_left > 0.0):
        rounds_left = 0.0
    if s.turn_track < c.murderer_turn:
        hood = 0
    else:
        hood = 6 - (s.turn_track - c.murderer_turn)
        if hood < 0:
            hood = 0
    # evidence
    for d in range(k.n_decks):
        m = k.need[d] - s.placed[d]
        if m <= 0:
            continue
        missing += m
        opened += 1
        stack = &s.stacks[d]
        draws += div(m * (stack.evidence + stack.useless + 1), stack.evidence + 1)
        found = False
        if stack.building >= 0:  # stack.building in buildings (the slots' non-empty buildings)
            for i in range(PS_MAX_SLOTS):
                if s.slots[i].full and s.slots[i].building == stack.building:
                    found = True
                    break
        if found:
            covered += 1
        elif stack.building >= 0 and not stack.gone and stack.evidence:
            targets[n_targets] = k.building_street[stack.building]
            n_targets += 1
    complete = 1.0 if missing == 0 else 0.0
    # the city
    top_punks = s.punks[0]
    for i in range(PS_HOODS):
        on_board += s.punks[i]
        crowded += s.punks[i] >= 3
        if s.punks[i] > top_punks:
            top_punks = s.punks[i]
        gangs += s.gangs[i] >= 0
        patrol += s.patrol[i]
    m_punks = s.punks[hood - 1] if hood else 0
    if hood:
        any_active = False
        best = 0.0
        for i in range(s.n_cops):
            cop = &s.cops[i]
            if good[i] and not cop.out:
                v = k.hood_dist[hood - 1][cop.street]
                if not any_active or v < best:
                    best = v
                any_active = True
        m_dist = best if any_active else DIST
    else:
        m_dist = 0.0
    if n_targets:
        any_active = False
        best = 0.0
        for i in range(s.n_cops):
            cop = &s.cops[i]
            if good[i] and not cop.out:
                for d in range(n_targets):
                    v = city.dist[cop.street][targets[d]]
                    if not any_active or v < best:
                        best = v
                    any_active = True
        inv_dist = best if any_active else DIST
    else:
        inv_dist = 0.0
    colours[0] = colours[1] = colours[2] = colours[3] = 0
    for i in range(PS_MAX_SLOTS):
        slot = &s.slots[i]
        if not slot.full:
            continue
        if k.special[slot.card]:
            specials += 1
        else:
            emergencies += 1
            colours[k.colour[slot.card]] += 1
        if slot.unknown == -2:
            down += 1
    top_colour = colours[0]
    for i in range(1, 4):
        if colours[i] > top_colour:
            top_colour = colours[i]
    event_deck = 0
    for i in range(s.n_event_kinds):
        event_deck += s.events_left[i]
    event_deck += s.n_event_top + s.n_event_bottom
    # the good team's totals
    for i in range(s.n_cops):
        cop = &s.cops[i]
        if cop.out:
            n_out += 1
        if not good[i]:
            continue
        cards += cop.n_hand
        donuts += cop.donuts
        upgrades += cop.n_upgrades
        hospital += cop.hospital
        tokens += cop.swat + cop.fed
    crime_left = k.crime_fail - s.crime
    crime_near = 1.0 if crime_left <= 2 else 0.0
    miss = div(missing, k.total_need)
    per_round = 1.0 / (0.5 if 0.5 > rounds_left else rounds_left)
    draws_n = draws / DRAWS
    m_in = 1.0 if hood else 0.0
    if dirty:
        shown = self_revealed if s.underground else 0
        for p in range(s.n):
            if s.underground >> p & 1:
                under += 1
                exposed += not (shown >> p & 1)
            elif (s.loyalty >> p & 1) and not (s.revealed >> p & 1):
                hidden += 1
            elif (s.revealed >> p & 1) and not (s.loyalty >> p & 1):
                cleared += 1
        L = s.n_order
        for i in range(s.n_cops):
            cop = &s.cops[i]
            if not (s.loyalty >> cop.seat & 1):
                continue
            if cop.out:
                u_donuts += cop.donuts
            elif not (s.revealed >> cop.seat & 1):
                h_donuts += cop.donuts
                h_cards += cop.n_hand
                idx = -1
                for d in range(L):  # order.index(i)
                    if s.order[d] == i:
                        idx = d
                        break
                if idx >= 0:
                    idx = ((idx - s.at) % L + L) % L  # Python's % (never negative)
                    v = 1.0 - div(idx, L)
                    if v > soon:
                        soon = v
    out[0] = rounds_left / ROUNDS
    out[1] = m_in
    out[2] = miss
    out[3] = div(opened, k.n_decks)
    out[4] = complete
    out[5] = draws_n
    out[6] = div(covered, k.n_decks)
    out[7] = div(s.crime, k.crime_fail)
    out[8] = crime_near
    out[9] = div(on_board, k.punks)
    out[10] = div(3 - s.punk_supply if 3 - s.punk_supply > 0 else 0, 3)
    out[11] = div(top_punks, 6)
    out[12] = div(crowded, 6)
    out[13] = div(gangs, 4)
    out[14] = div(m_punks, 6)
    out[15] = m_dist / DIST
    out[16] = emergencies / EMERGENCIES
    out[17] = specials / SPECIALS
    out[18] = 1.0 if s.urgent >= 0 else 0.0
    out[19] = down / EMERGENCIES
    out[20] = div(event_deck, k.events)
    out[21] = div(patrol, k.officers)
    out[22] = div(s.patrol_stock, k.officers)
    out[23] = div(cards, ngood) / HAND
    out[24] = div(donuts, ngood) / DONUTS
    out[25] = div(upgrades, ngood) / UPGRADES
    out[26] = div(hospital, ngood)
    out[27] = div(tokens, ngood)
    out[28] = div(s.n - 4, 4)
    out[29] = div(n_out, ncops)
    out[30] = (DIST if DIST < inv_dist else inv_dist) / DIST
    out[31] = div(top_colour, 3)
    # interactions
    out[32] = miss * per_round
    out[33] = draws_n * per_round
    out[34] = complete * m_in
    out[35] = complete * m_dist / DIST
    out[36] = complete * m_punks / 6
    out[37] = complete * rounds_left / ROUNDS
    out[38] = crime_near * emergencies / EMERGENCIES
    # the Dirty Cop
    out[39] = <double>hidden
    out[40] = <double>under
    out[41] = <double>exposed
    out[42] = h_donuts / DONUTS
    out[43] = u_donuts / DONUTS
    out[44] = h_cards / HAND
    out[45] = soon
    out[46] = <double>cleared
    out[47] = hidden * rounds_left / ROUNDS
    out[48] = hidden * miss


cdef double pv_logit(const PState* s, const PContent* c, const CityC* city, const PValueConsts* k,
                     unsigned int self_revealed) noexcept nogil:
    cdef double x[PV_FEATURES]
    cdef double z = k.bias
    cdef int i
    pv_features(s, c, city, k, self_revealed, x)
    for i in range(k.n_weights):
        z += k.weights[i] * x[i]
    return z


cdef double pv_value(const PState* s, const PContent* c, const CityC* city, const PValueConsts* k,
                     unsigned int self_revealed) noexcept nogil:
    cdef double z, e
    if s.result:
        return 1.0 if s.result > 0 else 0.0
    z = pv_logit(s, c, city, k, self_revealed)
    if z >= 0:  # precinct_value._sigmoid
        return 1.0 / (1.0 + exp(-z))
    e = exp(z)
    return e / (1.0 + e)


cdef class PrecinctCValue:
    """The learnt value of one PrecinctGame and one ValueModel over PrecinctCState values (tests and
    benches; kernels call pv_features / pv_value on the structs with ``&self.k``)."""

    def __init__(self, game, model=None):
        """Read the game's constants (precinct_value._of) and the model's weights (default: the
        shipped model, load_value())."""
        from solver.search import precinct_value as pv

        cdef int i, h
        if model is None:
            model = pv.load_value()
        if len(pv.NAMES) != PV_FEATURES:
            raise BadStateError(f"precinct value kernel: {len(pv.NAMES)} features, the kernel has {PV_FEATURES}")
        if len(model.weights) > PV_FEATURES:
            raise BadStateError(f"precinct value kernel: the model has {len(model.weights)} weights")
        self.game = game
        self.model = model
        self.content = PrecinctCContent(game)
        self.city = CCity(game.city)
        k = pv._of(game)
        names = tuple(game.city.buildings)
        if (len(k.need) > PS_DECKS or len(k.special) > PS_MAX_EVENT_KINDS or len(names) > CITY_MAX
                or len(game.city.streets) > CITY_MAX or len(k.hood_dist) > PS_HOODS):
            raise BadStateError("precinct value kernel: the game exceeds the kernel's tables")
        self.k.n_decks = len(k.need)
        for i in range(len(k.need)):
            self.k.need[i] = k.need[i]
        self.k.total_need = k.total_need
        self.k.fail_turn = k.fail_turn
        self.k.crime_fail = k.crime_fail
        self.k.punks = k.punks
        self.k.officers = k.officers
        self.k.events = k.events
        self.k.dirty = game.dirty_cops > 0
        self.k.n_event_kinds = len(k.special)
        for i in range(len(k.special)):
            self.k.special[i] = k.special[i]
            self.k.colour[i] = k.colour[i]
        self.k.n_buildings = len(names)
        for i in range(len(names)):
            self.k.building_street[i] = k.building[names[i]]
        for h in range(len(k.hood_dist)):
            for i in range(len(k.hood_dist[h])):
                self.k.hood_dist[h][i] = k.hood_dist[h][i]
        self.k.n_weights = len(model.weights)
        for i in range(len(model.weights)):
            self.k.weights[i] = model.weights[i]
        self.k.bias = model.bias

    def features(self, PrecinctCState cs, unsigned int self_revealed=0):
        """precinct_value.features of the state ``cs`` (as a list); ``self_revealed``: the seats that
        revealed themselves as a bitmask (precinct_value._self_revealed of the Python state)."""
        cdef double out[PV_FEATURES]
        with nogil:
            pv_features(&cs.s, &self.content.c, &self.city.c, &self.k, self_revealed, out)
        return [out[i] for i in range(PV_FEATURES)]

    def value(self, PrecinctCState cs, unsigned int self_revealed=0):
        """ValueModel.value (the shipped model or the one given) of the state ``cs`` (``self_revealed``
        as in :meth:`features`)."""
        cdef double v
        with nogil:
            v = pv_value(&cs.s, &self.content.c, &self.city.c, &self.k, self_revealed)
        return v

    def value_repeat(self, PrecinctCState cs, unsigned int self_revealed, int times):
        """pv_value called ``times`` times in one nogil loop (benches: the C cost per value without
        Python's call overhead); returns the last value."""
        cdef double v = 0.0
        cdef int i
        with nogil:
            for i in range(times):
                v = pv_value(&cs.s, &self.content.c, &self.city.c, &self.k, self_revealed)
        return v
