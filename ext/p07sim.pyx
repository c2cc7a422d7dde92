# cython: cdivision=True
# Compiled twin of solver/games/police07/sim.py. That module's docstring defines the transitions,
# rewards, information-set keys, possible-location tracking and playout policy, every random draw
# included; this file follows it step by step (change both together). tests/test_p07sim.py runs the
# rules and both twins in lockstep over thousands of games and compares everything.
#
# No Python objects in the hot paths: the game is a P07Core struct (a copy is one assignment), the
# tables a P07Consts struct reached by pointer, and every step below is a nogil C function.
"""Police 07 simulator for search, compiled (see solver.games.police07.sim for the pure twin)."""

from libc.stdint cimport uint64_t, int32_t
from solver._ext.rng cimport SplitMix, sm_next, sm_below, sm_uniform
from solver._ext.simbase cimport Sim, CDeterminizer, SIM_MAX_ACTIONS, SIM_TERMINAL
from solver._ext.p07bits cimport (
    bits_clear, bits_set, bits_unset, bits_has, bits_count, bits_andnot, bits_expand, bits_nth, bits_copy,
    bits_drop_cornered,
)

from solver.games.police07 import codec as _codec
from solver.games.police07 import sim as _py
from solver.games.police07.bitsets import TICKET_LINES as _TICKET_LINES
from solver.core import ConfigError

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

# Action ids and key codes, read once from their Python definitions (no second copy to drift).
cdef int DOUBLE = _codec.DOUBLE
cdef int SHOW = _codec.SHOW
cdef int PASS = _codec.PASS
cdef int TAKE_BASE = _codec.TAKE_BASE
cdef int JOKER_COMBO = _codec.JOKER_COMBO
cdef int JOKER_MOVE = _codec.JOKER_COMBO << 8
cdef int MOVE_END = _codec.MOVE_COMBOS << 8
cdef uint64_t PUBLIC_MOVE = _py.PUBLIC_MOVE
cdef uint64_t PUBLIC_SHOW = _py.PUBLIC_SHOW
cdef uint64_t END = _py.END
cdef uint64_t ROOT_STOP = _py.ROOT_STOP
cdef int FACTOR_PHASE = _py.FACTOR_PHASE
cdef int DETECTIVE_PHASE = _py.DETECTIVE_PHASE
cdef int OVER = _py.OVER
cdef double UNDECIDED = _py.UNDECIDED
cdef int TICKET_LINES[4]
for _i in range(4):
    TICKET_LINES[_i] = _TICKET_LINES[_i]

if SIM_MAX_ACTIONS != _py.MAX_ACTIONS or P07_MAX_PIECES != _py.MAX_PIECES or P07_KINDS != _py.KINDS:
    raise ImportError("solver._ext.p07sim: buffer sizes disagree with solver.games.police07.sim")


cdef inline uint64_t mix_key(uint64_t key, uint64_t code) noexcept nogil:
    # sim.mix_key: the SplitMix64 output of key ^ code
    cdef SplitMix r
    r.state = key ^ code
    return sm_next(&r)


# --- rules ------------------------------------------------------------------------------------

cdef inline int add_bits(int* out, int n, int base, const uint64_t* m, const uint64_t* occ) noexcept nogil:
    # Append base | stop for every stop of m not in occ, ascending.
    cdef int w
    cdef uint64_t word
    for w in range(4):
        word = m[w] & ~occ[w]
        while word:
            out[n] = base | (w << 6) | __builtin_ctzll(word)
            n += 1
            word &= word - 1
    return n


cdef int gen_moves(const P07Consts* C, const P07Core* s, int piece, int* out) noexcept nogil:
    cdef int n = 0
    cdef int line
    cdef int pos = s.pos[piece]
    cdef const int* tk = s.tk + piece * P07_KINDS
    for line in range(3):
        if tk[line] != 0:
            n = add_bits(out, n, line << 8, C.nbr + ((line << 8) + pos) * 4, s.occ)
    if piece == 0 and tk[3] != 0:
        for line in range(4):
            n = add_bits(out, n, (JOKER_COMBO + line) << 8, C.nbr + ((line << 8) + pos) * 4, s.occ)
    return n


cdef inline bint free_link(const P07Consts* C, const P07Core* s, int line, int pos) noexcept nogil:
    cdef const uint64_t* m = C.nbr + ((line << 8) + pos) * 4
    return ((m[0] & ~s.occ[0]) | (m[1] & ~s.occ[1]) | (m[2] & ~s.occ[2]) | (m[3] & ~s.occ[3])) != 0


cdef bint has_move(const P07Consts* C, const P07Core* s, int piece) noexcept nogil:
    cdef int line
    cdef int pos = s.pos[piece]
    cdef const int* tk = s.tk + piece * P07_KINDS
    for line in range(3):
        if tk[line] != 0 and free_link(C, s, line, pos):
            return True
    if piece == 0 and tk[3] != 0:
        for line in range(4):
            if free_link(C, s, line, pos):
                return True
    return False


cdef inline bint can_show(const P07Consts* C, const P07Core* s) noexcept nogil:
    return (C.voluntary_show and not s.shown_this_turn and s.visible_at == 0
            and s.turn_moves == 0 and s.double_steps == 0)


cdef inline int nearest(const P07Consts* C, const P07Core* s, int stop) noexcept nogil:
    cdef int p, d
    cdef int best = C.dist[s.pos[1] * C.width + stop]
    for p in range(2, C.num_pieces):
        d = C.dist[s.pos[p] * C.width + stop]
        if d < best:
            best = d
    return best


cdef int drop_covered_jokers(int* acts, int n) noexcept nogil:
    # sim.drop_covered_jokers, compacting acts[:n] in place; returns the new count. The ids are
    # sorted, so every taxi/bus/metro move comes before the first joker move.
    cdef uint64_t ordinary[4]
    cdef int i, a, k = 0
    bits_clear(ordinary)
    for i in range(n):
        a = acts[i]
        if a < JOKER_MOVE:
            bits_set(ordinary, a & 255)
        elif a < MOVE_END and bits_has(ordinary, a & 255):
            continue
        acts[k] = a
        k += 1
    return k


cdef bint factor_in_danger(const P07Consts* C, const P07Core* s, const int* moves, int n) noexcept nogil:
    # sim.factor_in_danger: every move ends within one detective move of a detective piece
    cdef int i, d, best = -1
    for i in range(n):
        d = nearest(C, s, moves[i] & 255)
        if d > best:
            best = d
    return 0 <= best <= 1


cdef int legal(const P07Consts* C, const P07Core* s, int* out) noexcept nogil:
    # With filter_tree, sim.nw_move_filter on Dr. Factor's actions: the joker rule on his moves,
    # then double only in danger (his moves are out[:n], the stops they reach unchanged).
    cdef int n, p, k
    if s.phase == FACTOR_PHASE:
        if s.take_mask:
            p = __builtin_ctzll(<unsigned long long>s.take_mask)
            n = 0
            for k in range(3):
                if s.tk[p * P07_KINDS + k] > 0:
                    out[n] = TAKE_BASE + p * 4 + k
                    n += 1
            return n
        n = gen_moves(C, s, 0, out)
        if C.filter_tree:
            n = drop_covered_jokers(out, n)
        if s.double_steps == 0 and s.turn_moves == 0:
            if (s.tk[4] > 0 and s.moves + 2 <= C.last_move and n > 0
                    and (not C.filter_tree or factor_in_danger(C, s, out, n))):
                out[n] = DOUBLE
                n += 1
            if can_show(C, s):
                out[n] = SHOW
                n += 1
        return n
    if s.phase == DETECTIVE_PHASE:
        n = gen_moves(C, s, s.piece, out)
        if n == 0:
            out[0] = PASS
            n = 1
        return n
    return 0


cdef void end_game(const P07Consts* C, P07Core* s, int winner) noexcept nogil:
    cdef int stop = s.pos[0]
    s.phase = OVER
    s.winner = winner
    s.visible_at = stop
    if C.track_possible:
        bits_clear(s.poss)
        bits_set(s.poss, stop)
    s.key_public = mix_key(s.key_public, END | (<uint64_t>winner << 8) | <uint64_t>stop)


cdef inline void check_cornered(const P07Consts* C, P07Core* s) noexcept nogil:
    if s.take_mask == 0 and not has_move(C, s, 0):
        end_game(C, s, 1)


cdef void drop_cornered(const P07Consts* C, P07Core* s) noexcept nogil:
    # sim._drop_cornered: past a cornered check, or at a double, the public set loses every stop where he would
    # have had no legal move (the lines his stock rides: bitsets.factor_lines)
    cdef int* tk = s.tk
    cdef int lines
    if not C.track_possible:
        return
    if tk[3] != 0:
        lines = 15
    else:
        lines = (1 if tk[0] != 0 else 0) | (2 if tk[1] != 0 else 0) | (4 if tk[2] != 0 else 0)
    bits_drop_cornered(s.poss, C.nbr, lines, s.occ)


cdef void start_factor_turn(const P07Consts* C, P07Core* s) noexcept nogil:
    s.phase = FACTOR_PHASE
    s.piece = 0
    s.turn_moves = 0
    s.double_steps = 0
    s.shown_this_turn = False
    if not can_show(C, s):
        check_cornered(C, s)
        if s.phase != OVER:
            drop_cornered(C, s)


cdef void start_detectives(const P07Consts* C, P07Core* s) noexcept nogil:
    cdef int p
    s.phase = DETECTIVE_PHASE
    s.piece = 1
    for p in range(1, C.num_pieces):
        if has_move(C, s, p):
            return
    end_game(C, s, 0)


cdef void factor_action(const P07Consts* C, P07Core* s, int action) noexcept nogil:
    cdef int* tk = s.tk
    cdef int piece, kind, combo, stop, ticket, p, k
    cdef bint shown
    cdef uint64_t image[4]
    s.key_factor = mix_key(s.key_factor, <uint64_t>action)
    if action >= TAKE_BASE:
        s.key_public = mix_key(s.key_public, <uint64_t>action)
        piece = (action - TAKE_BASE) >> 2
        kind = (action - TAKE_BASE) & 3
        tk[piece * P07_KINDS + kind] -= 1
        tk[kind] += 1
        s.take_mask &= s.take_mask - 1
        check_cornered(C, s)
        return
    if action == SHOW:
        stop = s.pos[0]
        s.key_public = mix_key(s.key_public, PUBLIC_SHOW | <uint64_t>stop)
        s.shown_this_turn = True
        s.visible_at = stop
        if C.track_possible:
            bits_clear(s.poss)
            bits_set(s.poss, stop)
        s.take_mask = 0
        for p in range(1, C.num_pieces):
            for k in range(3):
                if tk[p * P07_KINDS + k] > 0:
                    s.take_mask |= 1 << p
                    break
        check_cornered(C, s)
        return
    if action == DOUBLE:
        s.key_public = mix_key(s.key_public, <uint64_t>action)
        tk[4] -= 1
        s.double_steps = 2
        drop_cornered(C, s)  # double is legal only with a first move
        return
    combo = action >> 8
    stop = action & 255
    ticket = combo if combo < JOKER_COMBO else JOKER_COMBO
    if tk[ticket] > 0:
        tk[ticket] -= 1
    s.moves += 1
    shown = s.moves < 64 and (C.revealed >> s.moves) & 1
    s.key_public = mix_key(s.key_public,
                           PUBLIC_MOVE | (<uint64_t>ticket << 8) | <uint64_t>(stop if shown else 0))
    if not C.track_possible:
        pass
    elif shown:
        bits_clear(s.poss)
        bits_set(s.poss, stop)
    else:
        bits_expand(image, s.poss, C.nbr, TICKET_LINES[ticket])
        bits_andnot(image, s.occ)
        bits_copy(s.poss, image)
    s.pos[0] = stop
    s.visible_at = stop if shown else 0
    s.turn_moves += 1
    if s.double_steps == 2:
        s.double_steps = 1
        if not has_move(C, s, 0):
            end_game(C, s, 1)  # cornered: no second move for his double
        else:
            drop_cornered(C, s)
        return
    s.double_steps = 0
    start_detectives(C, s)


cdef void detective_action(const P07Consts* C, P07Core* s, int action) noexcept nogil:
    cdef int p = s.piece
    cdef uint64_t code = (<uint64_t>p << 12) | <uint64_t>action
    cdef int ticket, stop, own
    s.key_factor = mix_key(s.key_factor, code)
    s.key_public = mix_key(s.key_public, code)
    if action != PASS:
        ticket = action >> 8
        stop = action & 255
        own = p * P07_KINDS + ticket
        if s.tk[own] > 0:
            s.tk[own] -= 1
            if s.tk[ticket] >= 0:
                s.tk[ticket] += 1  # the spent ticket goes to Dr. Factor [Rules]
        bits_unset(s.occ, s.pos[p])
        bits_set(s.occ, stop)
        s.pos[p] = stop
        if stop == s.pos[0]:
            s.capturer = p
            end_game(C, s, 1)
            return
        bits_unset(s.poss, stop)  # stays empty when not tracked
    if p + 1 < C.num_pieces:
        s.piece = p + 1
    elif s.moves >= C.last_move:
        end_game(C, s, 0)
    else:
        start_factor_turn(C, s)


cdef inline void apply_action(const P07Consts* C, P07Core* s, int action) noexcept nogil:
    if s.phase == FACTOR_PHASE:
        factor_action(C, s, action)
    elif s.phase == DETECTIVE_PHASE:
        detective_action(C, s, action)
    else:
        return
    if C.factor_keys_stop:
        s.key_factor = mix_key(s.key_public, ROOT_STOP | <uint64_t>s.pos[0])


cdef double seat_return(const P07Consts* C, const P07Core* s, int seat) noexcept nogil:
    if s.winner < 0:
        return UNDECIDED
    if s.winner == 0:
        return 1.0 if seat == 0 else 0.0
    if seat == 0:
        return 0.0
    if s.capturer == 0 or C.piece_seat[s.capturer] == seat:
        return 1.0
    return 1.0 - C.coalition_r


# --- playout policy ------------------------------------------------------------------------------

cdef inline bint explore(double epsilon, SplitMix* r) noexcept nogil:
    # sim._explore: no draw when the answer is certain
    if epsilon >= 1.0:
        return True
    return epsilon > 0.0 and sm_uniform(r) < epsilon


cdef int pick(const int* acts, const int* scores, int n, int best, SplitMix* r) noexcept nogil:
    # sim._pick: the actions scoring best, in order; one drawn by below() when there are several
    cdef int i, k = 0, j
    for i in range(n):
        if scores[i] == best:
            k += 1
    j = <int>sm_below(r, k) if k > 1 else 0
    for i in range(n):
        if scores[i] == best:
            if j == 0:
                return acts[i]
            j -= 1
    return acts[0]


cdef int take_choice(const P07Core* s) noexcept nogil:
    cdef int p = __builtin_ctzll(<unsigned long long>s.take_mask)
    cdef int kind, n, best = -1, best_n = 0
    for kind in range(3):
        n = s.tk[p * P07_KINDS + kind]
        if n > 0 and (best < 0 or n <= best_n):
            best = kind
            best_n = n
    return TAKE_BASE + p * 4 + best


cdef int factor_choice(const P07Consts* C, const P07Core* s, int* legal_acts, int n,
                       SplitMix* r) noexcept nogil:
    # legal_acts is the caller's scratch copy: the joker filter compacts its move prefix in place
    cdef int scores[SIM_MAX_ACTIONS]
    cdef int nm = 0, i, best = 0, nc
    cdef bint has_double = False, scored = False
    for i in range(n):
        if legal_acts[i] < DOUBLE:
            nm += 1
        elif legal_acts[i] == DOUBLE:
            has_double = True
    # moves are the prefix legal_acts[:nm] (double and show come after them)
    if C.filter_moves:
        if C.joker_same_stop:
            nm = drop_covered_jokers(legal_acts, nm)
        elif legal_acts[0] < JOKER_MOVE:
            while legal_acts[nm - 1] >= JOKER_MOVE:
                nm -= 1
    if has_double and C.filter_moves:
        best = score_moves(C, s, legal_acts, nm, scores)
        scored = True
        has_double = best <= 1
    nc = nm + (1 if has_double else 0)
    if nc == 1:
        return legal_acts[0]
    if explore(C.epsilon_factor, r):
        i = <int>sm_below(r, nc)
        return legal_acts[i] if i < nm else DOUBLE
    if not scored:
        best = score_moves(C, s, legal_acts, nm, scores)
    if has_double and best <= 1:
        return DOUBLE
    return pick(legal_acts, scores, nm, best, r)


cdef int score_moves(const P07Consts* C, const P07Core* s, const int* acts, int nm,
                     int* scores) noexcept nogil:
    # scores[i] = distance from move i's stop to the nearest detective piece; returns the largest
    cdef int i, best = -1
    for i in range(nm):
        scores[i] = nearest(C, s, acts[i] & 255)
        if scores[i] > best:
            best = scores[i]
    return best


cdef int detective_choice(const P07Consts* C, const P07Core* s, const int* legal_acts, int n,
                          SplitMix* r) noexcept nogil:
    cdef int scores[SIM_MAX_ACTIONS]
    cdef int i, target, count, best
    cdef const int32_t* row
    if explore(C.epsilon, r):
        return legal_acts[<int>sm_below(r, n)]
    if C.chase_belief:
        count = bits_count(s.poss)
        target = bits_nth(s.poss, <int>sm_below(r, count) if count > 1 else 0)
    else:
        target = s.pos[0]
    row = C.dist + target * C.width
    best = row[legal_acts[0] & 255]
    for i in range(n):
        scores[i] = row[legal_acts[i] & 255]
        if scores[i] < best:
            best = scores[i]
    return pick(legal_acts, scores, n, best, r)


cdef int default_action(const P07Consts* C, const P07Core* s, SplitMix* r) noexcept nogil:
    cdef int buf[SIM_MAX_ACTIONS]
    cdef int n = legal(C, s, buf)
    if n == 0:
        return -1
    if n == 1:
        return buf[0]
    if s.phase == FACTOR_PHASE:
        if s.take_mask:
            return take_choice(s)
        return factor_choice(C, s, buf, n, r)
    return detective_choice(C, s, buf, n, r)


cdef void run_playout(const P07Consts* C, P07Core* s, SplitMix* r, int max_depth) noexcept nogil:
    cdef int depth = 0
    while s.phase != OVER and (max_depth == 0 or depth < max_depth):
        apply_action(C, s, default_action(C, s, r))
        depth += 1


# --- Python-facing classes -----------------------------------------------------------------------

cdef class P07Tables:
    """The C view of one SimTables (built once per SimTables, kept in its ext_cache)."""

    def __init__(self, tables):
        cdef int p
        self.source = tables
        self.nbr_view = tables.nbr_words
        self.dist_view = tables.dist_flat
        if self.nbr_view.shape[0] < 4 * 256 * 4:  # lines 0..3 (blocks after them are not read)
            raise ValueError("p07sim: nbr_words must hold at least 4 * 256 * 4 words")
        if self.dist_view.shape[0] != (tables.num_stops + 1) ** 2:
            raise ValueError("p07sim: dist_flat must hold (num_stops + 1) ** 2 distances")
        self.c.nbr = &self.nbr_view[0]
        self.c.dist = &self.dist_view[0]
        self.c.width = tables.num_stops + 1
        self.c.num_pieces = tables.num_pieces
        self.c.num_players = tables.num_players
        for p in range(P07_MAX_PIECES):
            self.c.piece_seat[p] = tables.piece_seat[p] if p < tables.num_pieces else -1
        self.c.voluntary_show = tables.voluntary_show
        self.c.revealed = 0
        for m in _codec.REVEALED_MOVES:
            self.c.revealed |= (<uint64_t>1) << <int>m
        self.c.last_move = _codec.LAST_MOVE
        self.c.epsilon = tables.epsilon
        self.c.epsilon_factor = tables.epsilon_factor
        self.c.coalition_r = tables.coalition_r
        self.c.chase_belief = tables.chase == "belief"
        self.c.filter_moves = tables.filter_factor_moves
        self.c.joker_same_stop = tables.joker_filter == "same_stop"
        self.c.filter_tree = tables.filter_tree
        self.c.factor_keys_stop = tables.factor_keys == "stop"
        self.c.max_depth = tables.max_depth
        self.c.track_possible = tables.track_possible


cdef P07Tables _c_tables(tables):
    cached = tables.ext_cache.get("p07sim")
    if cached is None:
        cached = tables.ext_cache["p07sim"] = P07Tables(tables)
    return <P07Tables>cached


cdef void _words_from_int(uint64_t* out, mask):
    cdef int w
    for w in range(4):
        out[w] = (mask >> (64 * w)) & 0xFFFFFFFFFFFFFFFF


cdef object _int_from_words(const uint64_t* words):
    # Python ints, so the shifts widen past 64 bits
    cdef object out = 0
    cdef int w
    for w in range(4):
        out |= (<object>words[w]) << (64 * w)
    return out


cdef class P07Sim(Sim):
    """One Police 07 game in flight for search (compiled; the same API as the pure twin)."""

    def __init__(self, *args, **kwargs):
        # A sim without tables would read through a NULL pointer; c_new and the constructors
        # below build through __new__ and fill every field.
        raise TypeError("build a P07Sim with P07Sim.from_state(state, tables) or a P07Determinizer")

    @staticmethod
    def from_state(state, tables):
        """A simulator of ``state`` (after set-up; BadStateError otherwise) with ``tables``."""
        return P07Sim.from_fields(_py.root_fields(state, tables), tables)

    @staticmethod
    def from_fields(f, tables):
        """A simulator of flattened fields (see solver.games.police07.sim.root_fields)."""
        cdef P07Sim sim = P07Sim.__new__(P07Sim)
        cdef int i
        cdef P07Core* s = &sim.s
        sim.T = _c_tables(tables)
        sim.C = &sim.T.c
        sim.num_players = tables.num_players
        for i in range(P07_MAX_PIECES):
            s.pos[i] = f.pos[i] if i < len(f.pos) else 0
        for i in range(P07_MAX_PIECES * P07_KINDS):
            s.tk[i] = f.tickets[i] if i < len(f.tickets) else 0
        _words_from_int(s.occ, f.occupied)
        _words_from_int(s.poss, f.possible)
        s.key_factor = f.key_factor
        s.key_public = f.key_public
        s.phase = f.phase
        s.piece = f.piece
        s.double_steps = f.double_steps
        s.turn_moves = f.turn_moves
        s.moves = f.moves
        s.take_mask = 0
        for i in f.take_queue:
            s.take_mask |= 1 << i
        s.visible_at = f.visible_at
        s.winner = f.winner
        s.capturer = f.capturer
        s.shown_this_turn = f.shown_this_turn
        return sim

    # --- the C-level Sim contract ----------------------------------------------------------------
    cdef int c_current_player(self) noexcept:
        if self.s.phase == OVER:
            return SIM_TERMINAL
        return 0 if self.s.phase == FACTOR_PHASE else self.C.piece_seat[self.s.piece]

    cdef int c_legal(self, int* out) noexcept:
        return legal(self.C, &self.s, out)

    cdef void c_apply(self, int action) noexcept:
        apply_action(self.C, &self.s, action)

    cdef bint c_terminal(self) noexcept:
        return self.s.phase == OVER

    cdef double c_return(self, int seat) noexcept:
        return seat_return(self.C, &self.s, seat)

    cdef uint64_t c_key(self, int seat) noexcept:
        return self.s.key_factor if seat == 0 else self.s.key_public

    cdef int c_default_action(self, SplitMix* rng) noexcept:
        return default_action(self.C, &self.s, rng)

    cdef void c_copy_from(self, Sim other) noexcept:
        cdef P07Sim o = <P07Sim>other
        if self.T is not o.T:
            self.T = o.T
            self.C = o.C
            self.num_players = o.num_players
        self.s = o.s

    cdef Sim c_new(self):
        return P07Sim.__new__(P07Sim)

    # --- extras both twins share -----------------------------------------------------------------
    @property
    def max_depth(self):
        """The playout depth limit of the tables (0: none)."""
        return self.C.max_depth

    @property
    def winner(self):
        """0 Dr. Factor, 1 the detectives, -1 while the game goes on."""
        return self.s.winner

    @property
    def capturer(self):
        """The detective piece that caught him, 0 if none."""
        return self.s.capturer

    @property
    def possible(self):
        """The public possible-location set as a stop bitset."""
        return _int_from_words(self.s.poss)

    def possible_locations(self):
        """The stops Dr. Factor may be at, as the detectives know it now (ConfigError when the
        tables do not track them)."""
        cdef int i
        if not self.C.track_possible:
            raise ConfigError("p07 sim: built with track_possible=False; no possible set is kept")
        return {bits_nth(self.s.poss, i) for i in range(bits_count(self.s.poss))}

    def playout(self, rng, int max_depth=-1):
        """Play default_action to the end (or max_depth actions; -1: the tables'; 0: none) in
        place, drawing from the SplitMix64 ``rng``; return the returns."""
        cdef SplitMix r
        cdef int depth = self.C.max_depth if max_depth < 0 else max_depth
        r.state = rng.state
        with nogil:
            run_playout(self.C, &self.s, &r, depth)
        rng.state = r.state
        return self.returns()

    def snapshot(self):
        """Every field as plain data (the same dict as the pure twin's)."""
        cdef int n = self.C.num_pieces
        cdef int i
        return {
            "pos": [self.s.pos[i] for i in range(n)],
            "tickets": [self.s.tk[i] for i in range(n * P07_KINDS)],
            "occupied": _int_from_words(self.s.occ),
            "possible": _int_from_words(self.s.poss),
            "phase": self.s.phase, "piece": self.s.piece,
            "double_steps": self.s.double_steps, "turn_moves": self.s.turn_moves,
            "moves": self.s.moves, "shown_this_turn": bool(self.s.shown_this_turn),
            "take_queue": [i for i in range(P07_MAX_PIECES) if (self.s.take_mask >> i) & 1],
            "visible_at": self.s.visible_at, "winner": self.s.winner, "capturer": self.s.capturer,
            "key_factor": self.s.key_factor, "key_public": self.s.key_public,
        }


cdef class P07Determinizer(CDeterminizer):
    """Draws compiled simulators consistent with one seat's view (see the pure P07Determinizer)."""

    def __init__(self, game, view, tables, belief=None):
        cdef int i
        base = _py.determinizer_base(game, view, tables, belief)
        self.base = P07Sim.from_fields(base.root, tables)
        self.n_stops = len(base.stops)
        for i in range(self.n_stops):
            self.stops[i] = base.stops[i]
        self.weighted = base.weights is not None
        if self.weighted:
            for i in range(self.n_stops):
                self.weights[i] = base.weights[i]

    cdef void c_sample_into(self, Sim target, SplitMix* rng) noexcept:
        cdef P07Sim sim = <P07Sim>target
        cdef int stop
        sim.c_copy_from(self.base)
        stop = self.draw(rng)
        sim.s.pos[0] = stop
        sim.s.key_factor = mix_key(sim.s.key_public, ROOT_STOP | <uint64_t>stop)

    cdef int draw(self, SplitMix* rng) noexcept:
        # sim.draw_stop
        cdef int i, last = 0
        cdef double total = 0.0, u, acc = 0.0
        if self.n_stops == 1:
            return self.stops[0]
        if self.weighted:
            for i in range(self.n_stops):
                total += self.weights[i]
            if total > 0.0:
                u = sm_uniform(rng) * total
                for i in range(self.n_stops):
                    if self.weights[i] > 0.0:
                        acc += self.weights[i]
                        last = i
                        if u < acc:
                            return self.stops[i]
                return self.stops[last]
        return self.stops[<int>sm_below(rng, self.n_stops)]

    cdef Sim c_new_sim(self):
        return P07Sim.__new__(P07Sim)
