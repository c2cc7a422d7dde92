# cython: cdivision=True
# Compiled twin of the Good Cop Bad Cop rules (solver/games/gcbc: rules.py, flow.py, actions.py,
# effects.py, plays.py, deal.py). Every function below follows the Python function of the same name
# step by step (change both together); tests/test_gcbc_kernel_rules.py runs the two in lockstep and
# compares the current player, the legal actions, the chance outcomes, every state field and the
# returns at every step. Rulebook sections are cited as the Python rules cite them ([Preparar],
# [Integridad], [Como se Juega], [Recibir un disparo], [Armas], [Equipo], [Fin]).
#
# The state is one flat struct (GState, declared in solver/_ext/gcbc_sim.pxd): a copy is one
# assignment, and the game's constants (GConsts) are shared by pointer. Python's to-do stack of int
# tuples is a fixed array of 5-int entries padded with 0. Events are not emitted; what a search needs
# of them is kept in four fields the Python state does not have:
#
# * know[v][s][p]: the Integrity card at seat s position p as seat v knows it (-1 unknown). It is -1
#   or the true card at every step. It is written only by learn_card (and cleared by an arrangement, a
#   revival or moved by a swap), so every card a seat learns also enters its key.
# * aimed[s], shot[s]: bit t once s pointed its own Gun at t by its own choice (an AIM decision, or a
#   Planted Evidence it played on its own Gun) / once s shot t.
# * key[s]: a running hash of what seat s observed: every applied action as s saw it (its id, or a
#   hidden token where GCBCState._record hides it), then every fact s learnt in that step (a card
#   value written into know[s], an Equipment card an event shows it), in the order it learnt them.
#   Equal views of seat s give equal keys; different views, different keys (up to hash collisions).
"""Good Cop Bad Cop rules, compiled (the pure twin is solver.games.gcbc.rules.GCBCState)."""

from libc.stdint cimport uint64_t, uint32_t, int8_t
from libc.string cimport memset
from solver._ext.rng cimport SplitMix, sm_next, sm_below, sm_uniform
from solver._ext.simbase cimport Sim, SIM_MAX_ACTIONS, SIM_TERMINAL, SIM_CHANCE

from solver.core import ConfigError, InvalidActionError
from solver.games.gcbc import codec as _codec
from solver.games.gcbc import deal as _deal
from solver.games.gcbc import ops as _ops
from solver.games.gcbc.equipment import Effect as _Effect
from solver.games.gcbc.equipment import Timing as _Timing

# Action ids (solver/games/gcbc/codec.py), to-do entries and their arguments (ops.py), Integrity cards
# (deal.py). Checked against the Python modules at import (_check_constants), so the two cannot drift.
cdef enum:
    A_PASS = 0
    A_EQUIP = 1
    A_ARM = 2
    A_SHOOT = 3
    A_INVESTIGATE = 8
    A_PICK = 32
    A_AIM = 56
    A_FLIP = 64
    A_KEEP_CARD = 68
    A_ARRANGE = 72
    A_KEEP_EQUIP = 96
    A_PLAY = 128
    A_LEADERS = 512
    A_DEAL = 576
    A_DRAW = 600
    NO_TARGET = -1

    OP_LEADERS = 0
    OP_DEAL = 1
    OP_DRAW = 2
    OP_ARRANGE = 10
    OP_WINDOW = 11
    OP_ANNOUNCE = 12
    OP_AIM = 13
    OP_REAIM = 14
    OP_FLIP = 15
    OP_KEEP_EQUIP = 16
    OP_KEEP_CARD = 17
    OP_PICK = 18
    OP_SETUP_DONE = 30
    OP_TURN_START = 31
    OP_RESOLVE = 32
    OP_AIM_PHASE = 33
    OP_TURN_END = 34

    W_START = 0
    W_ANNOUNCED = 1
    W_RESOLVED = 2
    CTX_ACT = 9

    FROM_DEAL = 0
    FROM_EQUIP = 1
    FROM_WOUND = 2
    AR_SETUP = 0
    AR_FLASHBANG = 1
    AIM_ARM = 0
    AIM_TASER = 1
    AIM_PHASE_WHY = 2
    AIM_RESTRAIN = 3
    FLIP_EQUIP = 0
    FLIP_ARM = 1
    FLIP_SERUM = 2
    FLIP_AUDIT = 3
    PICK_METAL = 0
    PICK_WIRE_CARDS = 1
    PICK_WIRE_FIRST = 2
    PICK_WIRE_SECOND = 3
    PICK_SWAP_MINE = 4
    PICK_SWAP_THEIRS = 5
    PICK_SWAP_FIRST = 6
    PICK_SWAP_SECOND = 7
    PICK_CAMERA = 8

    I_AGENT = 0
    I_KINGPIN = 1
    I_HONEST = 2
    I_CROOKED = 3

    # key codes: the domain of each mixed value sits above bit 32, so an action id, a hidden action,
    # a card fact and an Equipment fact never mix in the same value
    K_ACTION = 1
    K_CARD = 2
    K_EQUIP = 3
    K_START = 4
    HIDDEN_BASE = 1024

# deal.ARRANGEMENTS: every order of 1, 2 or 3 cards; entry i lays new position j from old ARR[i][j]
cdef int ARR_LEN[9]
cdef int ARR[9][3]
ARR_LEN[:] = [1, 2, 2, 3, 3, 3, 3, 3, 3]
ARR[0][:] = [0, 0, 0]
ARR[1][:] = [0, 1, 0]
ARR[2][:] = [1, 0, 0]
ARR[3][:] = [0, 1, 2]
ARR[4][:] = [0, 2, 1]
ARR[5][:] = [1, 0, 2]
ARR[6][:] = [1, 2, 0]
ARR[7][:] = [2, 0, 1]
ARR[8][:] = [2, 1, 0]


def _check_constants():
    """Raise ImportError when a constant here disagrees with the Python rules."""
    pairs = [
        (A_PASS, _codec.PASS), (A_EQUIP, _codec.EQUIP), (A_ARM, _codec.ARM), (A_SHOOT, _codec.SHOOT),
        (A_INVESTIGATE, _codec.INVESTIGATE), (A_PICK, _codec.PICK), (A_AIM, _codec.AIM),
        (A_FLIP, _codec.FLIP), (A_KEEP_CARD, _codec.KEEP_CARD), (A_ARRANGE, _codec.ARRANGE),
        (A_KEEP_EQUIP, _codec.KEEP_EQUIP), (A_PLAY, _codec.PLAY), (A_LEADERS, _codec.LEADERS),
        (A_DEAL, _codec.DEAL), (A_DRAW, _codec.DRAW), (NO_TARGET, _codec.NO_TARGET),
        (G_MAX_EQUIP, _codec.MAX_CARDS), (G_MAX_PLAYERS, _deal.MAX_PLAYERS),
        (G_CARDS, _deal.CARDS_PER_PLAYER),
        (OP_LEADERS, _ops.LEADERS), (OP_DEAL, _ops.DEAL), (OP_DRAW, _ops.DRAW),
        (OP_ARRANGE, _ops.ARRANGE), (OP_WINDOW, _ops.WINDOW), (OP_ANNOUNCE, _ops.ANNOUNCE),
        (OP_AIM, _ops.AIM), (OP_REAIM, _ops.REAIM), (OP_FLIP, _ops.FLIP),
        (OP_KEEP_EQUIP, _ops.KEEP_EQUIP), (OP_KEEP_CARD, _ops.KEEP_CARD), (OP_PICK, _ops.PICK),
        (OP_SETUP_DONE, _ops.SETUP_DONE), (OP_TURN_START, _ops.TURN_START),
        (OP_RESOLVE, _ops.RESOLVE), (OP_AIM_PHASE, _ops.AIM_PHASE), (OP_TURN_END, _ops.TURN_END),
        (W_START, _ops.START), (W_ANNOUNCED, _ops.ANNOUNCED), (W_RESOLVED, _ops.RESOLVED),
        (CTX_ACT, _ops.ACT), (FROM_DEAL, _ops.FROM_DEAL), (FROM_EQUIP, _ops.FROM_EQUIP),
        (FROM_WOUND, _ops.FROM_WOUND), (AR_SETUP, _ops.SETUP), (AR_FLASHBANG, _ops.FLASHBANG),
        (AIM_ARM, _ops.AIM_ARM), (AIM_TASER, _ops.AIM_TASER), (AIM_PHASE_WHY, _ops.AIM_PHASE_WHY),
        (AIM_RESTRAIN, _ops.AIM_RESTRAIN), (FLIP_EQUIP, _ops.FLIP_EQUIP), (FLIP_ARM, _ops.FLIP_ARM),
        (FLIP_SERUM, _ops.FLIP_SERUM), (FLIP_AUDIT, _ops.FLIP_AUDIT),
        (PICK_METAL, _ops.PICK_METAL), (PICK_WIRE_CARDS, _ops.PICK_WIRE_CARDS),
        (PICK_WIRE_FIRST, _ops.PICK_WIRE_FIRST), (PICK_WIRE_SECOND, _ops.PICK_WIRE_SECOND),
        (PICK_SWAP_MINE, _ops.PICK_SWAP_MINE), (PICK_SWAP_THEIRS, _ops.PICK_SWAP_THEIRS),
        (PICK_SWAP_FIRST, _ops.PICK_SWAP_FIRST), (PICK_SWAP_SECOND, _ops.PICK_SWAP_SECOND),
        (PICK_CAMERA, _ops.PICK_CAMERA),
        (I_AGENT, _deal.Integrity.AGENT), (I_KINGPIN, _deal.Integrity.KINGPIN),
        (I_HONEST, _deal.Integrity.HONEST), (I_CROOKED, _deal.Integrity.CROOKED),
    ]
    for mine, theirs in pairs:
        if mine != theirs:
            raise ImportError(f"solver._ext.gcbc_sim: constant {mine} disagrees with the Python rules ({theirs})")
    arrangements = tuple(tuple(ARR[i][j] for j in range(ARR_LEN[i])) for i in range(9))
    if arrangements != _deal.ARRANGEMENTS:
        raise ImportError("solver._ext.gcbc_sim: ARRANGEMENTS disagree with solver.games.gcbc.deal")


_check_constants()

#: the pxd's EF_ and TM_ constants by name (the test checks them against the enums)
EFFECT_INDEX = {
    "SWAP_OWN": EF_SWAP_OWN, "SWAP_OTHERS": EF_SWAP_OTHERS, "NEXT_TURN": EF_NEXT_TURN,
    "EXTRA_TURN": EF_EXTRA_TURN, "REVIVE": EF_REVIVE, "TAKE_EQUIPMENT": EF_TAKE_EQUIPMENT,
    "REARRANGE": EF_REARRANGE, "SEE_EQUIPMENT": EF_SEE_EQUIPMENT, "DISARM": EF_DISARM,
    "INVESTIGATE_ARMED": EF_INVESTIGATE_ARMED, "RE_AIM": EF_RE_AIM, "INVERT": EF_INVERT,
    "POLYGRAPH": EF_POLYGRAPH, "AUDIT": EF_AUDIT, "REDIRECT_SHOT": EF_REDIRECT_SHOT,
    "REVERSE": EF_REVERSE, "EXPOSE_INVESTIGATED": EF_EXPOSE_INVESTIGATED, "TAKE_GUN": EF_TAKE_GUN,
    "REVEAL_ONE": EF_REVEAL_ONE, "INVESTIGATE_TWO_CARDS": EF_INVESTIGATE_TWO_CARDS,
    "INVESTIGATE_TWO_PLAYERS": EF_INVESTIGATE_TWO_PLAYERS,
}
TIMING_INDEX = {
    "ANY": TM_ANY, "OWN_TURN": TM_OWN_TURN, "OWN_ACTION": TM_OWN_ACTION,
    "SHOT_ANNOUNCED": TM_SHOT_ANNOUNCED, "AFTER_INVESTIGATION": TM_AFTER_INVESTIGATION,
}
#: the hidden-action token base, for tests
HIDDEN_TOKEN_BASE = HIDDEN_BASE
if ([e.name for e in _Effect] != list(EFFECT_INDEX) or list(EFFECT_INDEX.values()) != list(range(len(_Effect)))
        or [t.name for t in _Timing] != list(TIMING_INDEX)
        or list(TIMING_INDEX.values()) != list(range(len(_Timing)))):
    raise ImportError("solver._ext.gcbc_sim: the Effect/Timing enums changed; update gcbc_sim.pxd")


# --- small helpers ------------------------------------------------------------------------------------
cdef inline int pmod(int x, int n) noexcept nogil:
    # Python's %: never negative
    cdef int r = x % n
    return r + n if r < 0 else r


cdef inline uint64_t mix(uint64_t key, uint64_t value) noexcept nogil:
    # SplitMix64's finaliser on key ^ (value spread by an odd constant)
    cdef uint64_t z = key ^ (value * <uint64_t>0xD6E8FEB86659FD93ULL)
    z += <uint64_t>0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void learn_card(GState* st, int v, int s, int p) noexcept nogil:
    """Seat v sees the Integrity card at s.p: know and key together."""
    cdef int card = st.cards[s][p]
    st.know[v][s][p] = <int8_t>card
    st.key[v] = mix(st.key[v], (<uint64_t>K_CARD << 32) | <uint64_t>((s * G_CARDS + p) * 4 + card))


cdef inline void learn_equip(GState* st, int v, int card) noexcept nogil:
    """Seat v is shown Equipment card ``card`` (beyond its own action ids)."""
    st.key[v] = mix(st.key[v], (<uint64_t>K_EQUIP << 32) | <uint64_t>card)


cdef inline void learn_own(GState* st, int s) noexcept nogil:
    # a seat always knows its own cards
    cdef int p
    for p in range(st.ncards[s]):
        learn_card(st, s, s, p)
    for p in range(st.ncards[s], G_CARDS):
        st.know[s][s][p] = -1


cdef inline void learn_public(GState* st, int s, int p) noexcept nogil:
    # a card turned face up: every seat sees it
    cdef int v
    for v in range(st.n):
        learn_card(st, v, s, p)


cdef inline void push(GState* st, int op, int a, int b, int c, int d) noexcept nogil:
    cdef int* t
    if st.nstack >= G_MAX_STACK:
        return  # cannot happen: the deepest stack is the set-up's 3n + 2 entries
    t = st.stack[st.nstack]
    t[0] = op
    t[1] = a
    t[2] = b
    t[3] = c
    t[4] = d
    st.nstack += 1


cdef inline void hand_append(GState* st, int s, int card) noexcept nogil:
    if st.nhand[s] < G_MAX_HAND:
        st.hands[s][st.nhand[s]] = card
        st.nhand[s] += 1


cdef inline void hand_remove(GState* st, int s, int card) noexcept nogil:
    # list.remove: the first occurrence, the rest shift down
    cdef int i, j
    for i in range(st.nhand[s]):
        if st.hands[s][i] == card:
            for j in range(i, st.nhand[s] - 1):
                st.hands[s][j] = st.hands[s][j + 1]
            st.nhand[s] -= 1
            return


cdef inline bint has_card(const GState* st, int s, int card) noexcept nogil:
    cdef int p
    for p in range(st.ncards[s]):
        if st.cards[s][p] == card:
            return True
    return False


cdef inline bint has_leader(const GState* st, int s) noexcept nogil:
    return has_card(st, s, I_AGENT) or has_card(st, s, I_KINGPIN)


cdef inline int count_down(const GState* st, int s) noexcept nogil:
    cdef int p, k = 0
    for p in range(st.ncards[s]):
        if not st.face_up[s][p]:
            k += 1
    return k


cdef inline bint any_up(const GState* st, int s) noexcept nogil:
    cdef int p
    for p in range(st.ncards[s]):
        if st.face_up[s][p]:
            return True
    return False


cdef inline bint can_shoot(const GState* st, int s) noexcept nogil:
    # plays.can_shoot: a Gun aimed at a living player
    return st.gun[s] and st.aim[s] >= 0 and st.alive[st.aim[s]]


cdef int team_crooked(const GState* st, int s) noexcept nogil:
    # deal.team_of [Integridad]: a leader decides, otherwise the majority (inverted by Planted Evidence)
    cdef int p, honest = 0, crooked = 0, t
    cdef bint agent = has_card(st, s, I_AGENT)
    if has_card(st, s, I_KINGPIN) and not agent:
        return 1
    if agent:
        return 0
    for p in range(st.ncards[s]):
        if st.cards[s][p] == I_HONEST:
            honest += 1
        elif st.cards[s][p] == I_CROOKED:
            crooked += 1
    if st.inverted[s]:
        t = honest
        honest = crooked
        crooked = t
    return 1 if crooked > honest else 0


# --- deal.py: chance ----------------------------------------------------------------------------------
cdef inline long long comb(int n, int k) noexcept nogil:
    cdef long long r = 1
    cdef int i
    if k < 0 or k > n:
        return 0
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


cdef int chance_outcomes(const GState* st, const int* top, int* out, double* prob) noexcept nogil:
    # actions.chance_outcomes and deal.deal_outcomes: the same ids, the same doubles
    cdef int n = 0, a, k, h, slots, c
    cdef long long total, ways
    cdef double p
    if top[0] == OP_LEADERS:
        p = 1.0 / <double>(st.n * (st.n - 1))
        for a in range(st.n):
            for k in range(st.n):
                if a != k:
                    out[n] = A_LEADERS + G_MAX_PLAYERS * a + k
                    prob[n] = p
                    n += 1
        return n
    if top[0] == OP_DEAL:
        slots = 3 - st.ncards[top[1]]
        # exact ints below 2**53: one correctly rounded division, as Python's ways / total
        total = comb(st.honest_left + st.crooked_left, slots)
        for h in range(slots + 1):
            ways = comb(st.honest_left, h) * comb(st.crooked_left, slots - h)
            if ways:
                out[n] = A_DEAL + h
                prob[n] = <double>ways / <double>total
                n += 1
        return n
    for c in range(st.c.ncards):
        if st.unseen >> c & 1:
            out[n] = A_DRAW + c
            n += 1
    p = 1.0 / <double>n if n else 0.0
    for k in range(n):
        prob[k] = p
    return n


cdef void apply_leaders(GState* st, int action) noexcept nogil:
    # the Agent and the Kingpin go to two seats (nobody sees the pair; each holder sees its own)
    cdef int agent = (action - A_LEADERS) // G_MAX_PLAYERS
    cdef int kingpin = (action - A_LEADERS) % G_MAX_PLAYERS
    st.cards[agent][st.ncards[agent]] = I_AGENT
    st.ncards[agent] += 1
    st.cards[kingpin][st.ncards[kingpin]] = I_KINGPIN
    st.ncards[kingpin] += 1
    learn_own(st, agent)
    learn_own(st, kingpin)


cdef void apply_deal(GState* st, const int* top, int action) noexcept nogil:
    # [Preparar] a seat's Honest/Crooked cards, in canonical order until it is laid out
    cdef int seat = top[1]
    cdef int honest = action - A_DEAL
    cdef int crooked = 3 - st.ncards[seat] - honest
    cdef int i
    st.honest_left -= honest
    st.crooked_left -= crooked
    for i in range(honest):
        st.cards[seat][st.ncards[seat]] = I_HONEST
        st.ncards[seat] += 1
    for i in range(crooked):
        st.cards[seat][st.ncards[seat]] = I_CROOKED
        st.ncards[seat] += 1
    for i in range(G_CARDS):
        st.face_up[seat][i] = False
    learn_own(st, seat)


cdef inline void hand_limit(GState* st, int seat) noexcept nogil:
    # [Equipo] hand limit 1: a seat holding more chooses at once which card to keep
    if st.nhand[seat] > 1:
        push(st, OP_KEEP_EQUIP, seat, 0, 0, 0)


cdef void apply_draw(GState* st, const int* top, int action) noexcept nogil:
    cdef int seat = top[1]
    cdef int card = action - A_DRAW
    st.unseen &= ~((<uint32_t>1) << card)
    hand_append(st, seat, card)
    hand_limit(st, seat)


cdef void draw_from_bottom(GState* st, int seat) noexcept nogil:
    # no unseen card is left: the first returned card is drawn; who saw it go under knows it
    cdef int card, i, v
    cdef uint32_t known
    if st.nbottom == 0:
        return  # cannot happen: hands hold at most players + 1 of at least players + 2 cards
    card = st.bottom[0]
    known = st.bottom_known[0]
    for i in range(st.nbottom - 1):
        st.bottom[i] = st.bottom[i + 1]
        st.bottom_known[i] = st.bottom_known[i + 1]
    st.nbottom -= 1
    hand_append(st, seat, card)
    for v in range(st.n):
        if known == G_ALL_SEATS or v == seat or known >> v & 1:
            learn_equip(st, v, card)
    hand_limit(st, seat)


cdef inline void to_bottom(GState* st, int card, uint32_t knowers) noexcept nogil:
    # [Equipo] a used card goes to the bottom of the deck
    if st.nbottom < G_MAX_EQUIP:
        st.bottom[st.nbottom] = card
        st.bottom_known[st.nbottom] = knowers
        st.nbottom += 1


cdef int keep_equip_options(const GState* st, int seat, int* out) noexcept nogil:
    # sorted({KEEP_EQUIP + c for c in hand})
    cdef int c, i, n = 0
    for c in range(st.c.ncards):
        for i in range(st.nhand[seat]):
            if st.hands[seat][i] == c:
                out[n] = A_KEEP_EQUIP + c
                n += 1
                break
    return n


cdef void apply_keep_equip(GState* st, int seat, int action) noexcept nogil:
    # the other cards go to the bottom, face down: only the seat knows which
    cdef int keep = action - A_KEEP_EQUIP
    cdef int others[G_MAX_HAND]
    cdef int k = 0, i
    for i in range(st.nhand[seat]):
        if st.hands[seat][i] != keep:
            others[k] = st.hands[seat][i]
            k += 1
    for i in range(k):
        hand_remove(st, seat, others[i])
        to_bottom(st, others[i], (<uint32_t>1) << seat)
        learn_equip(st, seat, others[i])


# --- laying out Integrity cards -----------------------------------------------------------------------
cdef int arrange_options(const GState* st, int seat, int* out) noexcept nogil:
    # deal.arrangement_options: the first order of each distinct layout
    cdef int seen[9]
    cdef int nseen = 0, n = 0, i, j, code, m = st.ncards[seat]
    cdef bint dup
    for i in range(9):
        if ARR_LEN[i] != m:
            continue
        code = 0
        for j in range(m):
            code = code * 4 + st.cards[seat][ARR[i][j]]
        dup = False
        for j in range(nseen):
            if seen[j] == code:
                dup = True
                break
        if not dup:
            seen[nseen] = code
            nseen += 1
            out[n] = A_ARRANGE + i
            n += 1
    return n


cdef void apply_arrange(GState* st, int seat, int action) noexcept nogil:
    # [Integridad] the cards lie face down in the chosen order; the others forget their places
    cdef int i = action - A_ARRANGE
    cdef int old[G_CARDS]
    cdef int j, v
    for j in range(st.ncards[seat]):
        old[j] = st.cards[seat][j]
    for j in range(ARR_LEN[i]):
        st.cards[seat][j] = <int8_t>old[ARR[i][j]]
        st.face_up[seat][j] = False
    for v in range(st.n):
        if v != seat:
            for j in range(G_CARDS):
                st.know[v][seat][j] = -1
    learn_own(st, seat)


# --- plays.py: when a card may be played, and at whom -------------------------------------------------
cdef bint timing_allows(const GState* st, int seat, int timing, int context) noexcept nogil:
    # [Equipo] any time unless the card says otherwise
    if timing == TM_OWN_ACTION:
        return context == CTX_ACT
    if context == CTX_ACT:
        return False
    if timing == TM_OWN_TURN:
        return seat == st.active
    if timing == TM_SHOT_ANNOUNCED:
        return context == W_ANNOUNCED and st.announced == A_SHOOT and seat != st.active
    if timing == TM_AFTER_INVESTIGATION:
        return st.ncamera > 0
    return True


cdef int targets(const GState* st, int seat, int effect, int* out) noexcept nogil:
    # plays.targets: the target seats of a play ([NO_TARGET] for a card naming none; none: unplayable)
    cdef int n = st.n, k = 0, t, u, i, p, living = 0, others = 0, count
    cdef bint ok
    for t in range(n):
        if st.alive[t]:
            living += 1
            if t != seat:
                others += 1
    if effect == EF_SWAP_OWN or effect == EF_NEXT_TURN or effect == EF_POLYGRAPH:
        for t in range(n):
            if st.alive[t] and t != seat:
                out[k] = t
                k += 1
        return k
    if effect == EF_SWAP_OTHERS:
        if others >= 2:
            out[0] = NO_TARGET
            return 1
        return 0
    if effect == EF_EXTRA_TURN or effect == EF_REVERSE:
        out[0] = NO_TARGET
        return 1
    if effect == EF_REVIVE:
        for t in range(n):
            if not st.alive[t] and t != seat:
                out[k] = t
                k += 1
        return k
    if effect == EF_TAKE_EQUIPMENT or effect == EF_SEE_EQUIPMENT:
        for t in range(n):
            if st.alive[t] and t != seat and st.nhand[t] > 0:
                out[k] = t
                k += 1
        return k
    if effect == EF_REARRANGE:
        if st.ncards[seat] > 0:
            out[0] = NO_TARGET
            return 1
        return 0
    if effect == EF_DISARM:
        for t in range(n):
            if st.alive[t] and st.gun[t]:
                out[k] = t
                k += 1
        return k
    if effect == EF_INVESTIGATE_ARMED:
        for t in range(n):
            if st.alive[t] and t != seat and st.gun[t] and count_down(st, t) > 0:
                out[0] = NO_TARGET
                return 1
        return 0
    if effect == EF_RE_AIM:
        for t in range(n):
            if st.alive[t] and st.gun[t]:
                ok = False
                for u in range(n):
                    if st.alive[u] and u != t and u != st.aim[t]:
                        ok = True
                        break
                if ok:
                    out[k] = t
                    k += 1
        return k
    if effect == EF_INVERT:
        for t in range(n):
            if st.alive[t]:
                out[k] = t
                k += 1
        return k
    if effect == EF_AUDIT:
        for t in range(n):
            if st.alive[t] and st.ncards[t] > 0 and not any_up(st, t):
                out[0] = NO_TARGET
                return 1
        return 0
    if effect == EF_REDIRECT_SHOT:  # not with only two players left
        if living >= 3 and can_shoot(st, st.active):
            out[0] = NO_TARGET
            return 1
        return 0
    if effect == EF_EXPOSE_INVESTIGATED:
        for t in range(n):
            for i in range(st.ncamera):
                p = st.camera[i][1]
                if st.camera[i][0] == t and st.alive[t] and not st.face_up[t][p]:
                    out[k] = t
                    k += 1
                    break
        return k
    if effect == EF_TAKE_GUN:  # one Gun at a time [Armas]
        if st.gun[seat]:
            return 0
        for t in range(n):
            if st.alive[t] and t != seat and st.gun[t]:
                out[k] = t
                k += 1
        return k
    if effect == EF_REVEAL_ONE:
        for t in range(n):
            if st.alive[t] and count_down(st, t) > 0:
                out[k] = t
                k += 1
        return k
    if effect == EF_INVESTIGATE_TWO_CARDS:
        for t in range(n):
            if st.alive[t] and t != seat and count_down(st, t) >= 2:
                out[k] = t
                k += 1
        return k
    if effect == EF_INVESTIGATE_TWO_PLAYERS:
        count = 0
        for t in range(n):
            if st.alive[t] and t != seat and count_down(st, t) > 0:
                count += 1
        if count >= 2:
            out[0] = NO_TARGET
            return 1
        return 0
    return 0


cdef int play_options(const GState* st, int seat, int context, int* out) noexcept nogil:
    # plays.play_options: over the hand limit no card can be used [Equipo]
    cdef int card, k, i
    cdef int tg[G_MAX_PLAYERS + 1]
    if st.nhand[seat] != 1 or not st.alive[seat]:
        return 0
    card = st.hands[seat][0]
    if not timing_allows(st, seat, st.c.timing[card], context):
        return 0
    k = targets(st, seat, st.c.effect[card], tg)
    for i in range(k):
        out[i] = A_PLAY + 9 * card + tg[i] + 1
    return k


# --- actions.py: announce, resolve, shoot, eliminate, the end -----------------------------------------
cdef int announce_options(const GState* st, int* out) noexcept nogil:
    # [Como se Juega: Actúa] Investigate, Equip, Arm, Shoot, or an own-action card (ids ascending)
    cdef int a = st.active
    cdef int n = 0, t, p
    if st.forced_shoot and can_shoot(st, a):
        out[0] = A_SHOOT
        return 1
    if st.unseen or st.nbottom:
        out[n] = A_EQUIP
        n += 1
    if not st.gun[a] and st.guns_centre > 0:
        out[n] = A_ARM
        n += 1
    if can_shoot(st, a):
        out[n] = A_SHOOT
        n += 1
    for t in range(st.n):
        if t != a and st.alive[t]:
            for p in range(st.ncards[t]):
                if not st.face_up[t][p]:
                    out[n] = A_INVESTIGATE + G_CARDS * t + p
                    n += 1
    n += play_options(st, a, CTX_ACT, out + n)
    return n


cdef void investigate(GState* st, int by, int seat, int pos) noexcept nogil:
    # [Actúa: Investigar] only ``by`` sees the card; it can be exposed right after (camera)
    learn_card(st, by, seat, pos)
    if st.ncamera < G_MAX_CAMERA:
        st.camera[st.ncamera][0] = seat
        st.camera[st.ncamera][1] = pos
        st.ncamera += 1


cdef void reveal(GState* st, int seat) noexcept nogil:
    # every card of ``seat`` face up (shot, eliminated)
    cdef int p
    cdef bint all_up = True
    for p in range(st.ncards[seat]):
        if not st.face_up[seat][p]:
            all_up = False
    if all_up:
        return
    for p in range(st.ncards[seat]):
        st.face_up[seat][p] = True
    for p in range(st.ncards[seat]):
        learn_public(st, seat, p)


cdef void return_gun(GState* st, int seat) noexcept nogil:
    st.gun[seat] = False
    st.aim[seat] = -1
    st.guns_centre += 1


cdef void game_over(GState* st, int winner, int solo) noexcept nogil:
    # [Fin] the game ends; every Integrity card is shown
    cdef int s, p, v
    st.winner = winner
    st.winners = 0
    if solo >= 0:
        st.winners = (<uint32_t>1) << solo
    else:
        for s in range(st.n):
            if team_crooked(st, s) == (1 if winner == GW_CROOKED else 0):
                st.winners |= (<uint32_t>1) << s
    for s in range(st.n):
        for p in range(st.ncards[s]):
            st.face_up[s][p] = True
    st.nstack = 0
    for v in range(st.n):
        for s in range(st.n):
            for p in range(st.ncards[s]):
                learn_card(st, v, s, p)


cdef void eliminate(GState* st, int seat) noexcept nogil:
    # [Recibir un disparo] cards face up, Equipment to the bottom, Gun to the centre; [Fin] a leader
    # card ends the game; the active player's turn ends at once
    cdef int i, j, k
    st.alive[seat] = False
    reveal(st, seat)
    for i in range(st.nhand[seat]):
        to_bottom(st, st.hands[seat][i], (<uint32_t>1) << seat)
        learn_equip(st, seat, st.hands[seat][i])
    st.nhand[seat] = 0
    if st.gun[seat]:
        return_gun(st, seat)
    st.wounded[seat] = False
    if has_card(st, seat, I_KINGPIN):
        game_over(st, GW_HONEST, -1)
    elif has_card(st, seat, I_AGENT):
        game_over(st, GW_CROOKED, -1)
    elif seat == st.active and st.turn:
        # drop ops.TURN_PROGRAM: the active seat's windows, announcement, resolution and aim
        k = 0
        for i in range(st.nstack):
            if (st.stack[i][0] == OP_WINDOW or st.stack[i][0] == OP_ANNOUNCE
                    or st.stack[i][0] == OP_RESOLVE or st.stack[i][0] == OP_AIM_PHASE):
                continue
            if k != i:
                for j in range(G_TASK):
                    st.stack[k][j] = st.stack[i][j]
            k += 1
        st.nstack = k


cdef void check_cards(GState* st) noexcept nogil:
    # after Integrity cards change hands: both leaders in one hand win alone [Fin]; then a wounded
    # player with no leader card left is eliminated [Recibir un disparo]
    cdef int s
    for s in range(st.n):
        if st.alive[s] and has_card(st, s, I_AGENT) and has_card(st, s, I_KINGPIN):
            game_over(st, GW_SOLO, s)
            return
    for s in range(st.n):
        if st.alive[s] and st.wounded[s] and not has_leader(st, s):
            eliminate(st, s)
            if st.winner != GW_NONE:
                return


cdef void shoot(GState* st, int shooter) noexcept nogil:
    # [Recibir un disparo] the target shows every card; a leader is wounded once, others are out
    cdef int target = st.aim[shooter]
    st.shot[shooter] |= (<uint32_t>1) << target
    reveal(st, target)
    if has_leader(st, target) and not st.wounded[target]:
        st.wounded[target] = True
        push(st, OP_DRAW, target, FROM_WOUND, 0, 0)
    else:
        eliminate(st, target)
    if st.winner == GW_NONE:
        return_gun(st, shooter)  # the shooter drops the Gun in the centre [Actúa: Disparar]


cdef void resolve(GState* st) noexcept nogil:
    # carry out the announced action
    cdef int a = st.active
    cdef int action = st.announced
    st.announced = -1
    if A_INVESTIGATE <= action < A_PICK:
        investigate(st, a, (action - A_INVESTIGATE) // G_CARDS, (action - A_INVESTIGATE) % G_CARDS)
    elif action == A_EQUIP:  # draw, then turn a face-down card face up
        push(st, OP_FLIP, a, FLIP_EQUIP, 0, 0)
        push(st, OP_DRAW, a, FROM_EQUIP, 0, 0)
    elif action == A_ARM:  # take a Gun, aim it at once [Armas], turn a card face up
        st.guns_centre -= 1
        st.gun[a] = True
        st.aim[a] = -1
        push(st, OP_FLIP, a, FLIP_ARM, 0, 0)
        push(st, OP_AIM, a, AIM_ARM, -1, 0)
    elif action == A_SHOOT:
        shoot(st, a)


cdef int aim_options(const GState* st, const int* top, int* out) noexcept nogil:
    # [Armas] any living player but oneself (and not a Restraining Order's target)
    cdef int seat = top[1]
    cdef int exclude = top[3]
    cdef int t, n = 0
    if not (st.alive[seat] and st.gun[seat]):
        return 0
    for t in range(st.n):
        if st.alive[t] and t != seat and t != exclude:
            out[n] = A_AIM + t
            n += 1
    return n


cdef int flip_options(const GState* st, int seat, int* out) noexcept nogil:
    cdef int p, n = 0
    if not st.alive[seat]:
        return 0
    for p in range(st.ncards[seat]):
        if not st.face_up[seat][p]:
            out[n] = A_FLIP + p
            n += 1
    return n


cdef void flip(GState* st, int seat, int pos) noexcept nogil:
    st.face_up[seat][pos] = True
    learn_public(st, seat, pos)


# --- effects.py: the Equipment cards ------------------------------------------------------------------
cdef void revive(GState* st, int seat, int keep) noexcept nogil:
    # Defibrillator: back with one face-up card, which alone sets the team (the marker goes)
    cdef int card = st.cards[seat][keep]
    cdef int v, p
    st.cards[seat][0] = <int8_t>card
    for p in range(1, G_CARDS):
        st.cards[seat][p] = 0
        st.face_up[seat][p] = False
    st.ncards[seat] = 1
    st.face_up[seat][0] = True
    st.alive[seat] = True
    st.inverted[seat] = False
    for v in range(st.n):
        for p in range(1, G_CARDS):
            st.know[v][seat][p] = -1
        learn_card(st, v, seat, 0)


cdef void swap(GState* st, int a, int pa, int b, int pb) noexcept nogil:
    # two Integrity cards change places with their face states; the knowledge moves with the card
    cdef int8_t c
    cdef bint f
    cdef int v
    c = st.cards[a][pa]
    st.cards[a][pa] = st.cards[b][pb]
    st.cards[b][pb] = c
    f = st.face_up[a][pa]
    st.face_up[a][pa] = st.face_up[b][pb]
    st.face_up[b][pb] = f
    for v in range(st.n):
        c = st.know[v][a][pa]
        st.know[v][a][pa] = st.know[v][b][pb]
        st.know[v][b][pb] = c
    learn_card(st, a, a, pa)
    learn_card(st, b, b, pb)
    check_cards(st)


cdef void play(GState* st, int seat, int card, int target) noexcept nogil:
    # [Equipo] the card goes to the bottom face up, then its effect resolves
    cdef int effect = st.c.effect[card]
    cdef int investigated[G_MAX_CAMERA][2]
    cdef int ninv = st.ncamera
    cdef int holders[G_MAX_PLAYERS]
    cdef int i, t, k, p, taken, mask, spot, nspots
    hand_remove(st, seat, card)
    to_bottom(st, card, G_ALL_SEATS)
    for i in range(ninv):
        investigated[i][0] = st.camera[i][0]
        investigated[i][1] = st.camera[i][1]
    st.ncamera = 0  # "right after an investigation" ends with any card
    if effect == EF_SWAP_OWN:
        push(st, OP_PICK, seat, PICK_SWAP_MINE, target, -1)
    elif effect == EF_SWAP_OTHERS:
        push(st, OP_PICK, seat, PICK_SWAP_FIRST, -1, -1)
    elif effect == EF_NEXT_TURN:
        st.next_turn = target
    elif effect == EF_EXTRA_TURN:
        if st.nextra < G_MAX_EXTRA:
            st.extra_turns[st.nextra] = seat
            st.nextra += 1
    elif effect == EF_REVIVE:
        if st.ncards[target] > 1:
            push(st, OP_KEEP_CARD, target, 0, 0, 0)
        else:
            revive(st, target, 0)
    elif effect == EF_TAKE_EQUIPMENT:
        st.nhand[target] -= 1
        taken = st.hands[target][st.nhand[target]]
        hand_append(st, seat, taken)
        learn_equip(st, seat, taken)
        learn_equip(st, target, taken)
        hand_limit(st, seat)
    elif effect == EF_REARRANGE:
        push(st, OP_ARRANGE, seat, AR_FLASHBANG, 0, 0)
    elif effect == EF_SEE_EQUIPMENT:
        learn_equip(st, seat, st.hands[target][0])
        learn_equip(st, target, st.hands[target][0])
    elif effect == EF_DISARM:
        return_gun(st, target)
    elif effect == EF_INVESTIGATE_ARMED:
        k = 0
        for i in range(st.n):
            t = pmod(seat + i * st.direction, st.n)
            if t != seat and st.alive[t] and st.gun[t]:
                holders[k] = t
                k += 1
        for i in range(k - 1, -1, -1):
            push(st, OP_PICK, seat, PICK_METAL, holders[i], -1)
    elif effect == EF_RE_AIM:
        push(st, OP_REAIM, seat, target, 0, 0)
    elif effect == EF_INVERT:
        st.inverted[target] = not st.inverted[target]
    elif effect == EF_POLYGRAPH:
        for p in range(st.ncards[target]):
            learn_card(st, seat, target, p)
        for p in range(st.ncards[seat]):
            learn_card(st, target, seat, p)
    elif effect == EF_AUDIT:
        k = 0
        for i in range(st.n):
            t = pmod(seat + i * st.direction, st.n)
            if st.alive[t] and not any_up(st, t) and st.ncards[t] > 0:
                holders[k] = t
                k += 1
        for i in range(k - 1, -1, -1):
            push(st, OP_FLIP, holders[i], FLIP_AUDIT, 0, 0)
    elif effect == EF_REDIRECT_SHOT:
        push(st, OP_AIM, st.active, AIM_RESTRAIN, st.aim[st.active], 0)
    elif effect == EF_REVERSE:
        st.direction = -st.direction
    elif effect == EF_EXPOSE_INVESTIGATED:
        mask = 0
        nspots = 0
        spot = -1
        for i in range(ninv):
            p = investigated[i][1]
            if investigated[i][0] == target and not st.face_up[target][p]:
                if not (mask >> p & 1):
                    nspots += 1
                    spot = p
                mask |= 1 << p
        if nspots == 1:
            flip(st, target, spot)
        else:
            push(st, OP_PICK, seat, PICK_CAMERA, target, mask)
    elif effect == EF_TAKE_GUN:
        st.gun[target] = False
        st.aim[target] = -1
        st.gun[seat] = True
        push(st, OP_AIM, seat, AIM_TASER, -1, 0)  # aim at once [Armas]
    elif effect == EF_REVEAL_ONE:
        push(st, OP_FLIP, target, FLIP_SERUM, 0, 0)
    elif effect == EF_INVESTIGATE_TWO_CARDS:
        push(st, OP_PICK, seat, PICK_WIRE_CARDS, target, -1)
    elif effect == EF_INVESTIGATE_TWO_PLAYERS:
        push(st, OP_PICK, seat, PICK_WIRE_FIRST, -1, -1)


cdef int reaim_options(const GState* st, const int* top, int* out) noexcept nogil:
    # stand-in Planted Evidence: any living player but the holder and its current target
    cdef int holder = top[2]
    cdef int u, n = 0
    if not (st.alive[holder] and st.gun[holder]):
        return 0
    for u in range(st.n):
        if st.alive[u] and u != holder and u != st.aim[holder]:
            out[n] = A_AIM + u
            n += 1
    return n


cdef int pick_options(const GState* st, const int* top, int* out) noexcept nogil:
    # effects.pick_options (ops.PICK_NAMES); every list comes out ascending as Python sorts it
    cdef int player = top[1], purpose = top[2], a = top[3], b = top[4]
    cdef int n = 0, t, p
    if purpose == PICK_METAL or purpose == PICK_WIRE_CARDS:
        if not st.alive[a]:
            return 0
        for p in range(st.ncards[a]):
            if not st.face_up[a][p] and (purpose == PICK_METAL or p != b):
                out[n] = A_INVESTIGATE + G_CARDS * a + p
                n += 1
        return n
    if purpose == PICK_WIRE_FIRST or purpose == PICK_WIRE_SECOND:
        for t in range(st.n):
            if st.alive[t] and t != player and t != a:
                for p in range(st.ncards[t]):
                    if not st.face_up[t][p]:
                        out[n] = A_INVESTIGATE + G_CARDS * t + p
                        n += 1
        return n
    if purpose == PICK_SWAP_MINE:
        if not st.alive[a]:
            return 0
        for p in range(st.ncards[player]):
            out[n] = A_PICK + G_CARDS * player + p
            n += 1
        return n
    if purpose == PICK_SWAP_THEIRS:
        if not st.alive[a]:
            return 0
        for p in range(st.ncards[a]):
            out[n] = A_PICK + G_CARDS * a + p
            n += 1
        return n
    if purpose == PICK_SWAP_FIRST or purpose == PICK_SWAP_SECOND:
        for t in range(st.n):
            if st.alive[t] and t != player and t != a:
                for p in range(st.ncards[t]):
                    out[n] = A_PICK + G_CARDS * t + p
                    n += 1
        return n
    # PICK_CAMERA
    for p in range(3):
        if b >> p & 1 and not st.face_up[a][p]:
            out[n] = A_PICK + G_CARDS * a + p
            n += 1
    return n


cdef void apply_pick(GState* st, const int* top, int action) noexcept nogil:
    # carry out one choice; push the next one where the card needs two
    cdef int player = top[1], purpose = top[2], a = top[3], b = top[4]
    cdef int seat, pos
    if (purpose == PICK_METAL or purpose == PICK_WIRE_CARDS or purpose == PICK_WIRE_FIRST
            or purpose == PICK_WIRE_SECOND):
        seat = (action - A_INVESTIGATE) // G_CARDS
        pos = (action - A_INVESTIGATE) % G_CARDS
        investigate(st, player, seat, pos)
        if purpose == PICK_WIRE_CARDS and b < 0:
            push(st, OP_PICK, player, PICK_WIRE_CARDS, a, pos)
        elif purpose == PICK_WIRE_FIRST:
            push(st, OP_PICK, player, PICK_WIRE_SECOND, seat, -1)
        return
    seat = (action - A_PICK) // G_CARDS
    pos = (action - A_PICK) % G_CARDS
    if purpose == PICK_SWAP_MINE:
        push(st, OP_PICK, player, PICK_SWAP_THEIRS, a, pos)
    elif purpose == PICK_SWAP_THEIRS:
        swap(st, player, b, seat, pos)
    elif purpose == PICK_SWAP_FIRST:
        push(st, OP_PICK, player, PICK_SWAP_SECOND, seat, pos)
    elif purpose == PICK_SWAP_SECOND:
        swap(st, a, b, seat, pos)
    else:
        flip(st, seat, pos)


# --- flow.py: turns and windows -----------------------------------------------------------------------
cdef void setup_done(GState* st) noexcept nogil:
    # seat 0 plays first
    st.active = 0
    st.base = 0
    push(st, OP_TURN_START, 0, 0, 0, 0)


cdef void turn_start(GState* st) noexcept nogil:
    # Act, Aim, End [Como se Juega], behind a start-of-turn window
    st.turn += 1
    st.announced = -1
    st.forced_shoot = False
    push(st, OP_TURN_END, 0, 0, 0, 0)
    push(st, OP_WINDOW, W_START, st.active, 0, 0)


cdef int next_living(const GState* st, int seat) noexcept nogil:
    cdef int i, s
    for i in range(1, st.n + 1):
        s = pmod(seat + i * st.direction, st.n)
        if st.alive[s]:
            return s
    return seat


cdef void turn_end(GState* st) noexcept nogil:
    # [Como se Juega: Fin de turno] an extra turn first, then a given next turn, then the next seat
    cdef int seat, i
    st.ncamera = 0
    st.announced = -1
    st.forced_shoot = False
    while st.nextra > 0:
        seat = st.extra_turns[0]
        for i in range(st.nextra - 1):
            st.extra_turns[i] = st.extra_turns[i + 1]
        st.nextra -= 1
        if st.alive[seat]:
            st.active = seat
            push(st, OP_TURN_START, 0, 0, 0, 0)
            return
    if st.next_turn >= 0 and st.alive[st.next_turn]:
        st.active = st.next_turn
    else:
        st.active = next_living(st, st.base)
    st.base = st.active
    st.next_turn = -1
    push(st, OP_TURN_START, 0, 0, 0, 0)


cdef inline bint in_window(const GState* st, int seat) noexcept nogil:
    return st.alive[seat] and st.nhand[seat] > 0


cdef int next_in_window(const GState* st, const int* top) noexcept nogil:
    # the seat to ask, or -1 when the window closes
    cdef int cursor = top[2], mask = top[3], after = top[4]
    cdef int i, s
    for i in range(after, st.n + after):
        s = pmod(cursor + i * st.direction, st.n)
        if not (mask >> s & 1) and in_window(st, s):
            return s
    return -1


cdef void close_window(GState* st, int kind) noexcept nogil:
    # go on with the turn: announce, resolve, or aim
    st.ncamera = 0  # "right after an investigation" ends with the window that followed it
    if kind == W_START:
        push(st, OP_ANNOUNCE, 0, 0, 0, 0)
    elif kind == W_ANNOUNCED:
        push(st, OP_WINDOW, W_RESOLVED, st.active, 0, 0)
        push(st, OP_RESOLVE, 0, 0, 0, 0)
    else:
        push(st, OP_AIM_PHASE, 0, 0, 0, 0)


cdef void apply_window(GState* st, const int* top, int action) noexcept nogil:
    # pass (the window moves on) or play a card (it resolves, then the window goes on)
    cdef int kind = top[1], seat = top[2], mask = top[3]
    if action == A_PASS:
        push(st, OP_WINDOW, kind, seat, mask | (1 << seat), 1)
        return
    if kind == W_ANNOUNCED:
        push(st, OP_ANNOUNCE, 1, 0, 0, 0)  # [Equipo]: the action may, or must, change
    else:
        push(st, OP_WINDOW, kind, seat, 0, 1)
    play(st, seat, (action - A_PLAY) // 9, (action - A_PLAY) % 9 - 1)


cdef void apply_announce(GState* st, int action) noexcept nogil:
    # an announcement opens a window; an own-action card (Taser) resolves at once instead
    if A_PLAY <= action < A_PLAY + 9 * G_MAX_EQUIP:
        st.announced = -1
        push(st, OP_WINDOW, W_RESOLVED, st.active, 0, 0)
        play(st, st.active, (action - A_PLAY) // 9, (action - A_PLAY) % 9 - 1)
        return
    st.announced = action
    if action != A_SHOOT:
        st.forced_shoot = False
    push(st, OP_WINDOW, W_ANNOUNCED, st.active, 0, 0)


# --- rules.py: the run loop -----------------------------------------------------------------------------
cdef inline bint is_chance_op(int op) noexcept nogil:
    return op == OP_LEADERS or op == OP_DEAL or op == OP_DRAW


cdef int options(const GState* st, const int* top, int* out) noexcept nogil:
    # rules._OPTIONS: the decision's legal actions, ascending
    cdef int op = top[0]
    cdef int n
    if op == OP_ARRANGE:
        return arrange_options(st, top[1], out)
    if op == OP_WINDOW:
        out[0] = A_PASS
        return 1 + play_options(st, top[2], top[1], out + 1)
    if op == OP_ANNOUNCE:
        return announce_options(st, out)
    if op == OP_AIM:
        return aim_options(st, top, out)
    if op == OP_REAIM:
        return reaim_options(st, top, out)
    if op == OP_FLIP:
        return flip_options(st, top[1], out)
    if op == OP_KEEP_EQUIP:
        return keep_equip_options(st, top[1], out)
    if op == OP_KEEP_CARD:
        for n in range(st.ncards[top[1]]):
            out[n] = A_KEEP_CARD + n
        return st.ncards[top[1]]
    if op == OP_PICK:
        return pick_options(st, top, out)
    return 0


cdef void run(GState* st) noexcept nogil:
    # GCBCState._run: automatic steps run until a decision or a chance node is on top
    cdef int top[G_TASK]
    cdef int buf[SIM_MAX_ACTIONS]
    cdef int op, j, s
    while st.winner == GW_NONE:
        if st.nstack == 0:
            return  # cannot happen (Python raises BadStateError): the game ends first
        for j in range(G_TASK):
            top[j] = st.stack[st.nstack - 1][j]
        op = top[0]
        if op == OP_SETUP_DONE or op == OP_TURN_START or op == OP_RESOLVE or op == OP_AIM_PHASE \
                or op == OP_TURN_END:
            st.nstack -= 1
            if op == OP_SETUP_DONE:
                setup_done(st)
            elif op == OP_TURN_START:
                turn_start(st)
            elif op == OP_RESOLVE:
                resolve(st)
            elif op == OP_AIM_PHASE:
                # [Como se Juega: Apunta] holding a Gun after the action, aim it
                if st.alive[st.active] and st.gun[st.active]:
                    push(st, OP_AIM, st.active, AIM_PHASE_WHY, -1, 0)
            else:
                turn_end(st)
            continue
        if is_chance_op(op):
            if op == OP_DRAW and st.unseen == 0:
                st.nstack -= 1
                draw_from_bottom(st, top[1])
                continue
            return
        if op == OP_WINDOW:
            s = next_in_window(st, top)
            if s < 0:
                st.nstack -= 1
                close_window(st, top[1])
                continue
            top[2] = s
            top[4] = 0
            st.stack[st.nstack - 1][2] = s
            st.stack[st.nstack - 1][4] = 0
        if options(st, top, buf) > 0:
            return
        st.nstack -= 1  # a choice nobody can make (no target left) is skipped


# --- the pxd's functions ----------------------------------------------------------------------------------
cdef void gs_init(GState* st, const GConsts* c) noexcept nogil:
    """The state before the deal (GCBCState.__init__), then run to the first chance node."""
    cdef int s, v, p
    memset(st, 0, sizeof(GState))
    st.c = c
    st.n = c.n
    for s in range(c.n):
        st.alive[s] = True
        st.aim[s] = -1
        st.key[s] = mix(<uint64_t>0x6763626353494D31ULL, (<uint64_t>K_START << 32) | <uint64_t>s)
    for v in range(G_MAX_PLAYERS):
        for s in range(G_MAX_PLAYERS):
            for p in range(G_CARDS):
                st.know[v][s][p] = -1
    st.guns_centre = c.guns
    st.honest_left = c.side_cards
    st.crooked_left = c.side_cards
    st.unseen = <uint32_t>(((<uint64_t>1) << c.ncards) - 1)
    st.direction = 1
    st.next_turn = -1
    st.announced = -1
    st.winner = GW_NONE
    push(st, OP_SETUP_DONE, 0, 0, 0, 0)
    for s in range(c.n - 1, -1, -1):
        push(st, OP_ARRANGE, s, AR_SETUP, 0, 0)
    for s in range(c.n - 1, -1, -1):
        push(st, OP_DRAW, s, FROM_DEAL, 0, 0)
    for s in range(c.n - 1, -1, -1):
        push(st, OP_DEAL, s, 0, 0, 0)
    push(st, OP_LEADERS, 0, 0, 0, 0)
    run(st)


cdef int gs_current_player(const GState* st) noexcept nogil:
    """The seat to act, SIM_CHANCE or SIM_TERMINAL (GCBCState.current_player)."""
    cdef const int* top
    if st.winner != GW_NONE or st.nstack == 0:
        return SIM_TERMINAL
    top = st.stack[st.nstack - 1]
    if is_chance_op(top[0]):
        return SIM_CHANCE
    if top[0] == OP_ANNOUNCE:
        return st.active
    return top[2] if top[0] == OP_WINDOW else top[1]


cdef int gs_legal(const GState* st, int* out) noexcept nogil:
    """The legal actions in Python's order (ascending; at a chance node its outcomes)."""
    cdef double prob[SIM_MAX_ACTIONS]
    cdef const int* top
    if st.winner != GW_NONE or st.nstack == 0:
        return 0
    top = st.stack[st.nstack - 1]
    if is_chance_op(top[0]):
        return chance_outcomes(st, top, out, prob)
    return options(st, top, out)


cdef int gs_chance(const GState* st, int* out, double* prob) noexcept nogil:
    """The chance outcomes and their probabilities (0 when no chance node is on top)."""
    cdef const int* top
    if st.winner != GW_NONE or st.nstack == 0:
        return 0
    top = st.stack[st.nstack - 1]
    if not is_chance_op(top[0]):
        return 0
    return chance_outcomes(st, top, out, prob)


cdef int gs_sample_chance(const GState* st, SplitMix* rng) noexcept nogil:
    """A chance outcome drawn by its probability (-1 when no chance node is on top)."""
    cdef int out[SIM_MAX_ACTIONS]
    cdef double prob[SIM_MAX_ACTIONS]
    cdef int n = gs_chance(st, out, prob)
    cdef int i
    cdef double u, acc = 0.0
    if n == 0:
        return -1
    if st.stack[st.nstack - 1][0] != OP_DEAL:
        return out[sm_below(rng, <unsigned int>n)]  # uniform outcomes
    u = sm_uniform(rng)
    for i in range(n):
        acc += prob[i]
        if u < acc:
            return out[i]
    return out[n - 1]


cdef void gs_apply(GState* st, int action) noexcept nogil:
    """GCBCState.apply_unchecked: pop the top, record what each seat saw, apply, run."""
    cdef int top[G_TASK]
    cdef int j, s, op
    cdef uint64_t seen, hidden
    if st.winner != GW_NONE or st.nstack == 0:
        return
    for j in range(G_TASK):
        top[j] = st.stack[st.nstack - 1][j]
    st.nstack -= 1
    op = top[0]
    # the action as each seat saw it: hidden exactly where GCBCState._record hides it
    seen = (<uint64_t>K_ACTION << 32) | <uint64_t>action
    hidden = (<uint64_t>K_ACTION << 32) | <uint64_t>(HIDDEN_BASE + 16 * op + top[1])
    for s in range(st.n):
        if op == OP_LEADERS or ((op == OP_DEAL or op == OP_DRAW or op == OP_ARRANGE
                                  or op == OP_KEEP_EQUIP) and s != top[1]):
            st.key[s] = mix(st.key[s], hidden)
        else:
            st.key[s] = mix(st.key[s], seen)
    if op == OP_LEADERS:
        apply_leaders(st, action)
    elif op == OP_DEAL:
        apply_deal(st, top, action)
    elif op == OP_DRAW:
        apply_draw(st, top, action)
    elif op == OP_ARRANGE:
        apply_arrange(st, top[1], action)
    elif op == OP_WINDOW:
        apply_window(st, top, action)
    elif op == OP_ANNOUNCE:
        apply_announce(st, action)
    elif op == OP_AIM:
        # point the Gun (announced to all); after a Restraining Order the shot must follow
        st.aim[top[1]] = action - A_AIM
        st.aimed[top[1]] |= (<uint32_t>1) << (action - A_AIM)
        if top[2] == AIM_RESTRAIN:
            st.forced_shoot = True
    elif op == OP_REAIM:
        st.aim[top[2]] = action - A_AIM
        if top[1] == top[2]:  # a player pointing its own Gun chose that aim, as an AIM decision does
            st.aimed[top[1]] |= (<uint32_t>1) << (action - A_AIM)
    elif op == OP_FLIP:
        flip(st, top[1], action - A_FLIP)
    elif op == OP_KEEP_EQUIP:
        apply_keep_equip(st, top[1], action)
    elif op == OP_KEEP_CARD:
        revive(st, top[1], action - A_KEEP_CARD)
    elif op == OP_PICK:
        apply_pick(st, top, action)
    run(st)


cdef double gs_return(const GState* st, int seat) noexcept nogil:
    """+1 to each winner, -1 to everyone else once the game is over, 0 before."""
    if st.winner == GW_NONE:
        return 0.0
    return 1.0 if st.winners >> seat & 1 else -1.0


cdef bint gs_team_crooked(const GState* st, int seat) noexcept nogil:
    """deal.team_of(cards, inverted) == "crooked" (False before the deal)."""
    return team_crooked(st, seat) == 1


cdef int default_move(const GState* st, SplitMix* rng) noexcept nogil:
    # the default playout move: chance by its probabilities, a decision uniformly at random
    cdef int buf[SIM_MAX_ACTIONS]
    cdef int n
    if st.winner != GW_NONE or st.nstack == 0:
        return -1
    if is_chance_op(st.stack[st.nstack - 1][0]):
        return gs_sample_chance(st, rng)
    n = gs_legal(st, buf)
    if n == 0:
        return -1
    return buf[sm_below(rng, <unsigned int>n)]


# --- Python-facing classes -----------------------------------------------------------------------------
_TABLES = {}
_EFFECTS = list(_Effect)
_TIMINGS = list(_Timing)
_WINNER_NAMES = ("", "honest", "crooked", "solo")


cdef class GCBCTables:
    """The game's constants as one C struct (players, counts, each Equipment card's effect/timing)."""

    def __init__(self, game):
        cdef int i
        n = game.num_players
        cards = game.equipment.cards
        if not 4 <= n <= G_MAX_PLAYERS:
            raise ConfigError(f"gcbc_sim: players must be 4..{G_MAX_PLAYERS}, not {n}")
        if not 1 <= len(cards) <= G_MAX_EQUIP:
            raise ConfigError(f"gcbc_sim: the content must have 1..{G_MAX_EQUIP} cards, not {len(cards)}")
        self.consts.n = n
        self.consts.side_cards = game.side_cards
        self.consts.guns = game.guns
        self.consts.ncards = len(cards)
        for i in range(G_MAX_EQUIP):
            self.consts.effect[i] = _EFFECTS.index(cards[i].effect) if i < len(cards) else 0
            self.consts.timing[i] = _TIMINGS.index(cards[i].timing) if i < len(cards) else 0

    @staticmethod
    def of(game):
        """The tables of ``game``, built once per player count and Equipment set."""
        key = (game.num_players, id(game.equipment))
        entry = _TABLES.get(key)
        if entry is None or entry[0] is not game.equipment:
            entry = _TABLES[key] = (game.equipment, GCBCTables(game))
        return entry[1]

    def effects(self):
        """The EF_ index of each card."""
        return [self.consts.effect[i] for i in range(self.consts.ncards)]

    def timings(self):
        """The TM_ index of each card."""
        return [self.consts.timing[i] for i in range(self.consts.ncards)]


cdef class GCBCRulesSim(Sim):
    """One Good Cop Bad Cop game in flight, compiled; the same game as GCBCState step by step."""

    def __init__(self, game):
        self.tables = GCBCTables.of(game)
        self.num_players = game.num_players
        gs_init(&self.st, &self.tables.consts)

    @staticmethod
    def from_actions(game, actions):
        """The state after replaying ``actions`` (a GCBCState's ``history``, chance included) from
        the start; InvalidActionError names the first action that is not legal where it is played."""
        cdef GCBCRulesSim sim = GCBCRulesSim(game)
        cdef int buf[SIM_MAX_ACTIONS]
        cdef int a, i, k, n
        cdef bint ok
        for i, obj in enumerate(actions):
            a = obj
            n = gs_legal(&sim.st, buf)
            ok = False
            for k in range(n):
                if buf[k] == a:
                    ok = True
                    break
            if not ok:
                raise InvalidActionError(f"gcbc_sim: action {a} (index {i}) is not legal there")
            gs_apply(&sim.st, a)
        return sim

    # --- the C-level Sim contract -----------------------------------------------------------------
    cdef int c_current_player(self) noexcept:
        return gs_current_player(&self.st)

    cdef int c_legal(self, int* out) noexcept:
        return gs_legal(&self.st, out)

    cdef void c_apply(self, int action) noexcept:
        gs_apply(&self.st, action)

    cdef bint c_terminal(self) noexcept:
        return self.st.winner != GW_NONE

    cdef double c_return(self, int seat) noexcept:
        # bots.ismcts_bot.WinLossSim.returns: a win 1, a loss 0, neither 1/2
        cdef double r = gs_return(&self.st, seat)
        return 1.0 if r > 0 else (0.0 if r < 0 else 0.5)

    cdef uint64_t c_key(self, int seat) noexcept:
        return self.st.key[seat]

    cdef int c_default_action(self, SplitMix* rng) noexcept:
        return default_move(&self.st, rng)

    cdef void c_copy_from(self, Sim other) noexcept:
        cdef GCBCRulesSim o = <GCBCRulesSim>other
        if self.tables is not o.tables:
            self.tables = o.tables
            self.num_players = o.num_players
        self.st = o.st

    cdef Sim c_new(self):
        return GCBCRulesSim.__new__(GCBCRulesSim)

    # --- the Python-visible extras --------------------------------------------------------------------
    def chance_outcomes(self):
        """``[(action, probability)]`` at a chance node (Python's order), [] otherwise."""
        cdef int out[SIM_MAX_ACTIONS]
        cdef double prob[SIM_MAX_ACTIONS]
        cdef int n = gs_chance(&self.st, out, prob)
        return [(out[i], prob[i]) for i in range(n)]

    def payoffs(self):
        """The rules' payoffs: +1 each winner, -1 the others, 0 while the game goes on."""
        return [gs_return(&self.st, s) for s in range(self.st.n)]

    def know(self, int viewer):
        """``[seat][pos]``: the Integrity card as ``viewer`` knows it (-1 unknown)."""
        return [[self.st.know[viewer][s][p] for p in range(G_CARDS)] for s in range(self.st.n)]

    def aimed(self):
        """Per seat, the bitmask of seats it chose to aim at."""
        return [self.st.aimed[s] for s in range(self.st.n)]

    def shot(self):
        """Per seat, the bitmask of seats it shot."""
        return [self.st.shot[s] for s in range(self.st.n)]

    def team_crooked(self, int seat):
        """True when the seat's cards read Crooked now (deal.team_of)."""
        return gs_team_crooked(&self.st, seat)

    def playout(self, rng):
        """Play default_action to the end in place, drawing from the SplitMix64 ``rng``; return
        the payoffs."""
        cdef SplitMix r
        r.state = rng.state
        with nogil:
            while self.st.winner == GW_NONE and self.st.nstack > 0:
                gs_apply(&self.st, default_move(&self.st, &r))
        rng.state = r.state
        return self.payoffs()

    def state_dict(self):
        """Every rules field as plain data, in the layout of the test's dict of a GCBCState."""
        cdef const GState* st = &self.st
        cdef int n = st.n, s, p, i
        dealing = {st.stack[i][1] for i in range(st.nstack) if st.stack[i][0] == OP_DEAL}
        winners = [s for s in range(n) if st.winners >> s & 1]
        if st.winner == GW_SOLO:
            reason = f"seat {winners[0]} holds both the Agent and the Kingpin"
        elif st.winner == GW_HONEST:
            reason = "the Kingpin was eliminated"
        elif st.winner == GW_CROOKED:
            reason = "the Agent was eliminated"
        else:
            reason = ""
        return {
            "cards": [[st.cards[s][p] for p in range(st.ncards[s])] for s in range(n)],
            "face_up": [[] if s in dealing else [bool(st.face_up[s][p]) for p in range(st.ncards[s])]
                        for s in range(n)],
            "alive": [bool(st.alive[s]) for s in range(n)],
            "wounded": [bool(st.wounded[s]) for s in range(n)],
            "inverted": [bool(st.inverted[s]) for s in range(n)],
            "gun": [bool(st.gun[s]) for s in range(n)],
            "aim": [st.aim[s] for s in range(n)],
            "guns_centre": st.guns_centre,
            "honest_left": st.honest_left,
            "crooked_left": st.crooked_left,
            "hands": [[st.hands[s][i] for i in range(st.nhand[s])] for s in range(n)],
            "unseen": [i for i in range(st.c.ncards) if st.unseen >> i & 1],
            "bottom": [st.bottom[i] for i in range(st.nbottom)],
            "bottom_known": [None if st.bottom_known[i] == G_ALL_SEATS
                             else [s for s in range(n) if st.bottom_known[i] >> s & 1]
                             for i in range(st.nbottom)],
            "turn": st.turn,
            "active": st.active,
            "base": st.base,
            "direction": st.direction,
            "extra_turns": [st.extra_turns[i] for i in range(st.nextra)],
            "next_turn": st.next_turn,
            "announced": st.announced,
            "forced_shoot": bool(st.forced_shoot),
            "camera": [[st.camera[i][0], st.camera[i][1]] for i in range(st.ncamera)],
            "winner": _WINNER_NAMES[st.winner],
            "winners": winners,
            "reason": reason,
            "stack": [[st.stack[i][p] for p in range(G_TASK)] for i in range(st.nstack)],
        }
