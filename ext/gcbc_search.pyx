# cython: cdivision=True
# Good Cop Bad Cop search pieces on the compiled rules of ext/gcbc_sim.pyx (declarations:
# solver/_ext/gcbc_search.pxd).
#
# 1. policy_action: the playout policy. A C port of the documented rule-based heuristic
#    (bots/gcbc/heuristic.py, estimate="rules": rules 1-15 of its module docstring), with the same
#    tiers, thresholds and values. The acting seat reads ONLY what it knows: its row of st.know (its
#    own cards, face-up cards, its investigations, Polygraph looks, swaps), the public fields (alive,
#    wounded, inverted, guns and aims, face-up flags, card counts, the turn, the window, the camera)
#    and the public aims and shots (st.aimed, st.shot) of rule 3. Every other seat's st.cards is read
#    only where the seat may see it (its own cards, face-up cards). Ties are broken uniformly by the
#    SplitMix64 stream, in the order of the legal actions, as bots.gcbc.rollout.heuristic_action does.
#    On the same knowledge its scores are the Python's to the last bit (the sums run in Python's
#    order: rule 3 compares them with thresholds they can sit on). It is still a measured
#    approximation of the Python heuristic, not an exact twin, because the knowledge differs in two
#    ways (bench/results/gcbc-policy.md has the agreement rates): the Python reader keeps the cards a
#    seat saw before a Flashbang hid their positions ("floating") in its estimate, where st.know
#    forgets them; and st.know follows a seat's own card when a swap gives it away, which the Python
#    reader (which learns its own cards from the view, not the history) does not.
# 2. GCBCSearchSim: the simulator the compiled ISMCTS kernel (ext/ismcts.pyx) walks: win 1 / loss 0 /
#    1/2 unfinished returns (bots.ismcts_bot.WinLossSim), per-seat keys (st.key), the policy above
#    for playouts, chance drawn by its probabilities, a root restriction (bots.observer_sim
#    .ObserverSim.legal_actions) and a step limit.
# 3. GCBCPool: a pool of determinized worlds, one copied per iteration (bots.observer_sim
#    .PoolDeterminizer; Cowling, Powley & Whitehouse 2012, section 4: one determinization per
#    iteration, drawn from the searcher's belief).
#
# Reference: P. I. Cowling, E. J. Powley and D. Whitehouse, "Information Set Monte Carlo Tree Search",
# IEEE TCIAIG 4(2), 2012, pp. 120-143.
"""Good Cop Bad Cop playout policy, search simulator and world pool on the compiled rules."""

from libc.math cimport exp, log
from libc.stdint cimport uint64_t, uint32_t, int8_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset

from solver._ext.rng cimport SplitMix, sm_below
from solver._ext.simbase cimport Sim, CDeterminizer, SIM_CHANCE, SIM_TERMINAL, SIM_MAX_ACTIONS
from solver._ext.gcbc_sim cimport (
    GState, GConsts, GCBCRulesSim, GCBCTables,
    gs_current_player, gs_legal, gs_apply, gs_sample_chance, gs_return,
    G_MAX_PLAYERS, G_CARDS, G_MAX_LEGAL, GW_NONE,
    EF_SWAP_OWN, EF_SWAP_OTHERS, EF_NEXT_TURN, EF_EXTRA_TURN, EF_REVIVE, EF_TAKE_EQUIPMENT,
    EF_REARRANGE, EF_SEE_EQUIPMENT, EF_DISARM, EF_INVESTIGATE_ARMED, EF_RE_AIM, EF_INVERT,
    EF_POLYGRAPH, EF_AUDIT, EF_REDIRECT_SHOT, EF_REVERSE, EF_EXPOSE_INVESTIGATED, EF_TAKE_GUN,
    EF_REVEAL_ONE, EF_INVESTIGATE_TWO_CARDS, EF_INVESTIGATE_TWO_PLAYERS,
)

from solver.games.gcbc import codec as _codec
from solver.games.gcbc import ops as _ops

# Action ids, to-do ops, window kinds and pick purposes, read once from their Python definitions
# (solver/games/gcbc/codec.py and ops.py), so there is no second copy to drift.
cdef int A_PASS = _codec.PASS
cdef int A_EQUIP = _codec.EQUIP
cdef int A_ARM = _codec.ARM
cdef int A_SHOOT = _codec.SHOOT
cdef int A_INVESTIGATE = _codec.INVESTIGATE
cdef int A_PICK = _codec.PICK
cdef int A_AIM = _codec.AIM
cdef int A_FLIP = _codec.FLIP
cdef int A_KEEP_CARD = _codec.KEEP_CARD
cdef int A_KEEP_EQUIP = _codec.KEEP_EQUIP
cdef int A_PLAY = _codec.PLAY
cdef int OP_ARRANGE = _ops.ARRANGE
cdef int OP_WINDOW = _ops.WINDOW
cdef int OP_ANNOUNCE = _ops.ANNOUNCE
cdef int OP_AIM = _ops.AIM
cdef int OP_REAIM = _ops.REAIM
cdef int OP_FLIP = _ops.FLIP
cdef int OP_KEEP_EQUIP = _ops.KEEP_EQUIP
cdef int OP_KEEP_CARD = _ops.KEEP_CARD
cdef int OP_PICK = _ops.PICK
cdef int W_START = _ops.START
cdef int W_ANNOUNCED = _ops.ANNOUNCED
cdef int W_RESOLVED = _ops.RESOLVED
cdef int PK_SWAP_MINE = _ops.PICK_SWAP_MINE
cdef int PK_SWAP_THEIRS = _ops.PICK_SWAP_THEIRS
cdef int PK_SWAP_FIRST = _ops.PICK_SWAP_FIRST
cdef int PK_SWAP_SECOND = _ops.PICK_SWAP_SECOND
cdef int PK_CAMERA = _ops.PICK_CAMERA

# Integrity cards (deal.Integrity)
cdef enum:
    C_AGENT = 0
    C_KINGPIN = 1
    C_HONEST = 2
    C_CROOKED = 3
    N_EFFECTS = 21

# The heuristic's constants (bots/gcbc/heuristic.py; the engine does not import bots/, so they are
# copied here and tests/test_gcbc_kernel_policy.py compares them with the bot's).
cdef double TIE = 1e-9            # _TIE
cdef double AIM_WEIGHT = 0.6      # rule 3, per distinct aim
cdef double SHOT_WEIGHT = 1.2     # rule 3, per shot
cdef double FLIP_VALUE[4]         # Honest first, then Crooked, a leader card last
FLIP_VALUE[:] = [0.0, 0.0, 3.0, 2.0]
cdef double KEEP_VALUE[N_EFFECTS]  # rule 15, by EF_* index
KEEP_VALUE[EF_TAKE_GUN] = 10
KEEP_VALUE[EF_REDIRECT_SHOT] = 9
KEEP_VALUE[EF_REVIVE] = 8
KEEP_VALUE[EF_RE_AIM] = 8
KEEP_VALUE[EF_DISARM] = 8
KEEP_VALUE[EF_SWAP_OWN] = 7
KEEP_VALUE[EF_POLYGRAPH] = 6
KEEP_VALUE[EF_INVESTIGATE_TWO_CARDS] = 6
KEEP_VALUE[EF_INVESTIGATE_TWO_PLAYERS] = 6
KEEP_VALUE[EF_EXTRA_TURN] = 6
KEEP_VALUE[EF_INVESTIGATE_ARMED] = 5
KEEP_VALUE[EF_TAKE_EQUIPMENT] = 5
KEEP_VALUE[EF_REVEAL_ONE] = 5
KEEP_VALUE[EF_EXPOSE_INVESTIGATED] = 4
KEEP_VALUE[EF_AUDIT] = 4
KEEP_VALUE[EF_NEXT_TURN] = 3
KEEP_VALUE[EF_REARRANGE] = 3
KEEP_VALUE[EF_SEE_EQUIPMENT] = 2
KEEP_VALUE[EF_REVERSE] = 2
KEEP_VALUE[EF_INVERT] = 2
KEEP_VALUE[EF_SWAP_OTHERS] = 2


# --- what the acting seat knows (heuristic.read_view, rules 1-3) --------------------------------------
cdef struct Know:
    int me
    int n
    bint crooked                            # the seat's own team (deal.team_of of its cards)
    int active                              # whose turn it is, -1 before the first turn (view "active")
    int ncards[G_MAX_PLAYERS]
    int card[G_MAX_PLAYERS][G_CARDS]        # known card per position, -1 unknown
    int nunknown[G_MAX_PLAYERS]             # face-down positions whose card the seat does not know
    double pc[G_MAX_PLAYERS]                # P(crooked)
    double pa[G_MAX_PLAYERS]                # P(holds the Agent)
    double pk[G_MAX_PLAYERS]                # P(holds the Kingpin)
    bint settled[G_MAX_PLAYERS]             # the cards alone decide the team
    # the estimate (pc, pa, pk, settled) is computed on first use (estimate): many decisions, most
    # windows off one's turn among them, are settled by public facts before any odds are read
    bint ready
    const GState* st
    double slot[4]                          # the uninformed prior of an unknown card (rule 2)


cdef inline bint team_crooked(const int* count, bint inverted) noexcept nogil:
    # deal.team_of on card counts: a leader card decides, otherwise the majority (inverted: swapped)
    cdef int honest, crooked
    if count[C_KINGPIN] > 0 and count[C_AGENT] == 0:
        return True
    if count[C_AGENT] > 0:
        return False
    honest = count[C_HONEST]
    crooked = count[C_CROOKED]
    if inverted:
        honest, crooked = crooked, honest
    return crooked > honest


cdef inline void add_hand(const int* hand, bint inverted, double w, double* acc) noexcept nogil:
    # one hand of heuristic._team_odds: acc = (mass, P(crooked), P(Agent), P(Kingpin)) unnormalised
    acc[0] += w
    if team_crooked(hand, inverted):
        acc[1] += w
    if hand[C_AGENT] > 0:
        acc[2] += w
    if hand[C_KINGPIN] > 0:
        acc[3] += w


cdef void team_odds(const int* known, int missing, bint inverted, const double* slot,
                    double* out) noexcept nogil:
    # heuristic._team_odds: each of the missing cards (0..3) drawn independently with the probabilities
    # slot (rule 2); out = (P(crooked), P(Agent), P(Kingpin)). The draws are visited in
    # itertools.product's order and each weight is multiplied left to right as math.prod does, so the
    # sums are Python's to the last bit (rule 3 compares them with thresholds they can sit on).
    # A zero factor skips every draw below it: their weights are 0.0, which the Python skips too.
    cdef double acc[4]
    cdef double w0, w1, w2
    cdef int hand[4]
    cdef int d0, d1, d2
    acc[0] = acc[1] = acc[2] = acc[3] = 0.0
    hand[0] = known[0]
    hand[1] = known[1]
    hand[2] = known[2]
    hand[3] = known[3]
    if missing == 0:
        add_hand(hand, inverted, 1.0, acc)
    else:
        for d0 in range(4):
            w0 = slot[d0]
            if w0 == 0.0:
                continue
            hand[d0] += 1
            if missing == 1:
                add_hand(hand, inverted, w0, acc)
            else:
                for d1 in range(4):
                    w1 = w0 * slot[d1]
                    if w1 == 0.0:
                        continue
                    hand[d1] += 1
                    if missing == 2:
                        add_hand(hand, inverted, w1, acc)
                    else:
                        for d2 in range(4):
                            w2 = w1 * slot[d2]
                            if w2 == 0.0:
                                continue
                            hand[d2] += 1
                            add_hand(hand, inverted, w2, acc)
                            hand[d2] -= 1
                    hand[d1] -= 1
            hand[d0] -= 1
    if acc[0] == 0.0:
        acc[0] = 1.0
    out[0] = acc[1] / acc[0]
    out[1] = acc[2] / acc[0]
    out[2] = acc[3] / acc[0]


cdef void read_know(const GState* st, int me, Know* k) noexcept nogil:
    # heuristic.read_view with estimate="rules", its first part: the known cards (rule 1), the seat's
    # team, and the uninformed prior over the cards not located yet (rule 2); estimate() does the rest
    cdef int n = st.n
    cdef int s, p, c, nc
    cdef double pool[4]
    cdef double total
    cdef int count[4]
    k.st = st
    k.ready = False
    k.me = me
    k.n = n
    k.active = st.active if st.turn > 0 else -1
    pool[C_AGENT] = 1.0
    pool[C_KINGPIN] = 1.0
    pool[C_HONEST] = st.c.side_cards
    pool[C_CROOKED] = st.c.side_cards
    for s in range(n):
        nc = st.ncards[s]
        k.ncards[s] = nc
        k.nunknown[s] = 0
        for p in range(nc):
            c = st.know[me][s][p]
            if c < 0 and (s == me or st.face_up[s][p]):
                c = st.cards[s][p]  # its own card, or a face-up card: everyone sees it
            k.card[s][p] = c
            if c >= 0:
                pool[c] = pool[c] - 1.0 if pool[c] > 1.0 else 0.0
            elif not st.face_up[s][p]:
                k.nunknown[s] += 1
    count[0] = count[1] = count[2] = count[3] = 0
    for p in range(k.ncards[me]):
        if k.card[me][p] >= 0:
            count[k.card[me][p]] += 1
    k.crooked = team_crooked(count, st.inverted[me])
    total = pool[0] + pool[1] + pool[2] + pool[3]
    if total == 0.0:
        total = 1.0
    for c in range(4):
        k.slot[c] = pool[c] / total


cdef void estimate(Know* k) noexcept nogil:
    # heuristic.read_view, its second part: the team odds per seat (rule 2), then the behaviour
    # evidence (rule 3, heuristic._behaviour)
    cdef const GState* st = k.st
    cdef int n = k.n, me = k.me
    cdef int s, t, p, nknown, missing, key, i, nmemo = 0
    cdef double shift, lean, w, q
    cdef double base[G_MAX_PLAYERS]
    cdef int count[4]
    cdef int memo_key[G_MAX_PLAYERS]
    cdef double memo_val[G_MAX_PLAYERS][3]
    cdef double odds[3]
    k.ready = True
    for s in range(n):
        count[0] = count[1] = count[2] = count[3] = 0
        nknown = 0
        for p in range(k.ncards[s]):
            if k.card[s][p] >= 0:
                count[k.card[s][p]] += 1
                nknown += 1
        missing = k.ncards[s] - nknown
        # seats with the same known cards share the sum (the Python caches it too)
        key = count[0] | count[1] << 2 | count[2] << 4 | count[3] << 6 | missing << 8 | \
            (1 if st.inverted[s] else 0) << 10
        i = 0
        while i < nmemo and memo_key[i] != key:
            i += 1
        if i == nmemo:
            team_odds(count, missing, st.inverted[s], k.slot, odds)
            memo_key[i] = key
            memo_val[i][0] = odds[0]
            memo_val[i][1] = odds[1]
            memo_val[i][2] = odds[2]
            nmemo += 1
        k.pc[s] = memo_val[i][0]
        k.pa[s] = memo_val[i][1]
        k.pk[s] = memo_val[i][2]
        k.settled[s] = missing == 0 or count[C_AGENT] > 0 or count[C_KINGPIN] > 0
    # rule 3: a seat that chose to aim at, or shot, a seat whose team the cards settle for this seat
    # probably is on the other team
    for s in range(n):
        base[s] = k.pc[s]
    base[me] = 1.0 if k.crooked else 0.0
    for s in range(n):
        if s == me or k.settled[s]:
            continue
        shift = 0.0
        for t in range(n):
            if t == s:
                continue
            if st.shot[s] >> t & 1:
                w = SHOT_WEIGHT
            elif st.aimed[s] >> t & 1:
                w = AIM_WEIGHT
            else:
                continue
            lean = 1.0 - 2.0 * base[t]  # +1: t is surely honest, so s is likely crooked
            if lean < 0.5 and lean > -0.5:
                continue
            shift += w * lean
        if shift != 0.0:
            q = k.pc[s]
            if q < 1e-6:
                q = 1e-6
            if q > 1.0 - 1e-6:
                q = 1.0 - 1e-6
            k.pc[s] = 1.0 / (1.0 + exp(-(log(q / (1.0 - q)) + shift)))


cdef inline void need(Know* k) noexcept nogil:
    if not k.ready:
        estimate(k)


# --- Knowledge's questions --------------------------------------------------------------------------
cdef inline double p_enemy(Know* k, int s) noexcept nogil:
    if s == k.me:
        return 0.0
    need(k)
    return 1.0 - k.pc[s] if k.crooked else k.pc[s]


cdef inline double p_enemy_leader(Know* k, int s) noexcept nogil:
    need(k)
    return k.pa[s] if k.crooked else k.pk[s]


cdef inline double p_ally_leader(Know* k, int s) noexcept nogil:
    need(k)
    return k.pk[s] if k.crooked else k.pa[s]


cdef inline double uncertainty(Know* k, int s) noexcept nogil:
    cdef double p
    need(k)
    p = k.pc[s]
    return 4.0 * p * (1.0 - p)


cdef inline int own_leader(Know* k) noexcept nogil:
    return C_KINGPIN if k.crooked else C_AGENT


cdef inline int enemy_leader(Know* k) noexcept nogil:
    return C_AGENT if k.crooked else C_KINGPIN


cdef inline bint holds_leader(Know* k, int s) noexcept nogil:
    # a leader card among the cards this seat knows at s (its own: all of them)
    cdef int p
    for p in range(k.ncards[s]):
        if k.card[s][p] == C_AGENT or k.card[s][p] == C_KINGPIN:
            return True
    return False


cdef inline bint holds(Know* k, int s, int card) noexcept nogil:
    cdef int p
    for p in range(k.ncards[s]):
        if k.card[s][p] == card:
            return True
    return False


cdef inline bint is_other(const GState* st, Know* k, int s) noexcept nogil:
    # Knowledge.others: a living seat other than this one
    return s != k.me and st.alive[s]


cdef int where(const GState* st, Know* k, int card) noexcept nogil:
    # Knowledge.where: 3 * seat + pos of a living other seat's known card, -1 when none
    cdef int s, p
    for s in range(k.n):
        if not is_other(st, k, s):
            continue
        for p in range(k.ncards[s]):
            if k.card[s][p] == card:
                return 3 * s + p
    return -1


cdef inline int next_seat(const GState* st, int after, int direction) noexcept nogil:
    # _Decider.next_seat (Python's % is never negative; C's is, so it is shifted)
    cdef int i, s, n = st.n
    for i in range(1, n + 1):
        s = ((after + i * direction) % n + n) % n
        if st.alive[s]:
            return s
    return after


cdef bint threatens(const GState* st, Know* k, int g) noexcept nogil:
    # _Decider.threatens: g is a likely enemy whose Gun aims at this seat or a likely ally
    cdef int t = st.aim[g]
    if not st.gun[g] or t < 0 or g == k.me:
        return False
    return p_enemy(k, g) >= 0.5 and (t == k.me or p_enemy(k, t) <= 0.4)


cdef double target_value(const GState* st, Know* k, int t) noexcept nogil:
    # _Decider.target_value: how much this seat wants t shot (rule 4 and Aiming)
    cdef double value
    if t == k.me:
        return -9.0
    if p_ally_leader(k, t) > 0.999:
        return -5.0
    value = p_enemy(k, t) + 0.75 * p_enemy_leader(k, t)
    if p_enemy_leader(k, t) > 0.999:
        value += 1.0 + (1.0 if st.wounded[t] else 0.0)
    return value


cdef double info_value(const GState* st, Know* k, int seat, int pos) noexcept nogil:
    # _Decider.info_value (rule 7): 4p(1-p) of the seat, plus the chance this card is the enemy leader
    cdef double leader
    cdef int unknown
    if seat == k.me or k.card[seat][pos] >= 0 or st.face_up[seat][pos]:
        return 0.0
    unknown = k.nunknown[seat] if k.nunknown[seat] > 1 else 1
    leader = p_enemy_leader(k, seat) / unknown
    return uncertainty(k, seat) + 1.5 * leader


cdef int swap_plan(const GState* st, Know* k, bint* solo) noexcept nogil:
    # _Decider.swap_plan (rule 9): the leader card to take (3 * seat + pos), -1 for none; solo: both
    # leader cards in one hand ("solo"), else our wounded leader's card ("heal")
    cdef int spot
    solo[0] = False
    if holds(k, k.me, C_AGENT) or holds(k, k.me, C_KINGPIN):
        spot = where(st, k, C_KINGPIN if holds(k, k.me, C_AGENT) else C_AGENT)
        solo[0] = spot >= 0
        return spot
    spot = where(st, k, own_leader(k))
    if spot >= 0 and st.wounded[spot // 3]:
        return spot
    return -1


cdef int heal_others_spot(const GState* st, Know* k) noexcept nogil:
    # _Decider.heal_others_plan (rule 9, 4th Blackmail): the wounded team leader's card (3 * seat + pos)
    # when some healthy seat, unlikely to hold the other leader card, can receive it; else -1
    cdef int spot = where(st, k, own_leader(k))
    cdef int s
    cdef double other
    if spot < 0 or not st.wounded[spot // 3]:
        return -1
    for s in range(k.n):
        if not is_other(st, k, s) or s == spot // 3 or st.wounded[s]:
            continue
        need(k)
        other = k.pa[s] if k.crooked else k.pk[s]  # the enemy leader: the Agent for a crooked seat
        if other < 0.2:
            return spot
    return -1


# --- the announcement (rules 4-8) -------------------------------------------------------------------
cdef void score_announce(const GState* st, Know* k, const int* legal, int nl,
                         double* out) noexcept nogil:
    # _Decider.announce and own_action
    cdef int me = k.me
    cdef int i, a, t, seat, pos, card, target, aimed
    cdef double best_target = -9.0, best_enemy = 0.0, v, value, pe
    cdef bint threat
    for t in range(k.n):
        if is_other(st, k, t):
            v = target_value(st, k, t)
            if v > best_target:
                best_target = v
            v = p_enemy(k, t)
            if v > best_enemy:
                best_enemy = v
    for i in range(nl):
        a = legal[i]
        if a == A_SHOOT:
            t = st.aim[me] if st.aim[me] >= 0 else me
            value = target_value(st, k, t)
            if value < -1:
                out[i] = -5.0
            elif p_enemy_leader(k, t) > 0.999:
                out[i] = 10.0 + value
            elif p_enemy(k, t) >= 0.75:
                out[i] = 8.0 + value
            else:
                out[i] = 0.5 + p_enemy(k, t)
        elif a == A_ARM:
            if best_enemy >= 0.6 or best_target > 1.5:
                out[i] = 6.0 + best_enemy
            else:
                out[i] = 1.2
        elif a == A_EQUIP:
            out[i] = 1.5
        elif A_INVESTIGATE <= a < A_INVESTIGATE + 24:
            seat = (a - A_INVESTIGATE) // 3
            pos = (a - A_INVESTIGATE) % 3
            out[i] = 1.0 + 3.0 * info_value(st, k, seat, pos)
        else:  # an own-action card (the Taser, rule 5)
            card = (a - A_PLAY) // 9
            target = (a - A_PLAY) % 9 - 1
            out[i] = 0.3
            if st.c.effect[card] == EF_TAKE_GUN and target >= 0:
                aimed = st.aim[target]
                threat = aimed >= 0 and (aimed == me or p_ally_leader(k, aimed) > 0.5)
                pe = p_enemy(k, target)
                if pe >= 0.5 and (best_target >= 0.6 or threat):
                    out[i] = 6.5 + pe + (1.0 if threat else 0.0)


# --- windows (rules 9-14): heuristic._WINDOW_RULES; 0.0 where the card does not help now ----------
cdef double window_rule(const GState* st, Know* k, int effect, int target, int kind) noexcept nogil:
    cdef int me = k.me
    cdef int active = k.active
    cdef bint my_turn = active == me
    cdef bint shot_at_target, solo, any_enemy, hidden_ok
    cdef int t, u, s, p, spot, ours, theirs, ahead, behind, hidden, card, i
    cdef double best, second, un
    if effect == EF_SWAP_OWN:
        spot = swap_plan(st, k, &solo)
        if spot < 0 or spot // 3 != target:
            return 0.0
        return 9.0 if solo else 6.0
    if effect == EF_SWAP_OTHERS:
        return 5.0 if heal_others_spot(st, k) >= 0 else 0.0
    if effect == EF_NEXT_TURN:
        t = st.aim[target]
        if not st.gun[target] or t < 0 or p_enemy(k, target) > 0.3 or p_enemy(k, t) < 0.75:
            return 0.0
        if active >= 0 and next_seat(st, active, st.direction) == target:
            return 0.0
        return 3.0
    if effect == EF_EXTRA_TURN:
        return 3.0 if my_turn and kind == W_RESOLVED else 0.0
    if effect == EF_REVIVE:
        return 5.0 if p_enemy(k, target) < 0.5 else 0.0
    if effect == EF_TAKE_EQUIPMENT:
        return 2.0 + p_enemy(k, target) if p_enemy(k, target) >= 0.65 else 0.0
    if effect == EF_REARRANGE:
        # a face-up card of mine that betrays me: a leader card, or a Crooked card of a crooked seat
        if kind != W_START:
            return 0.0
        for p in range(k.ncards[me]):
            if st.face_up[me][p]:
                card = k.card[me][p]
                if card == C_AGENT or card == C_KINGPIN or (k.crooked and card == C_CROOKED):
                    return 2.5
        return 0.0
    if effect == EF_SEE_EQUIPMENT:
        return 1.5 if my_turn and kind == W_START and p_enemy(k, target) >= 0.6 else 0.0
    if effect == EF_DISARM:
        if not threatens(st, k, target):
            return 0.0
        shot_at_target = kind == W_ANNOUNCED and st.announced == A_SHOOT and active == target
        return 7.0 if shot_at_target else 4.0
    if effect == EF_INVESTIGATE_ARMED:
        best = -1.0
        for s in range(k.n):
            if is_other(st, k, s) and k.nunknown[s] > 0 and st.gun[s]:
                un = uncertainty(k, s)
                if un > best:
                    best = un
        return 2.0 + best if best >= 0.5 else 0.0
    if effect == EF_RE_AIM:
        t = st.aim[target]
        if t < 0:
            return 0.0
        any_enemy = False
        for u in range(k.n):
            if is_other(st, k, u) and u != target and u != t and p_enemy(k, u) >= 0.75:
                any_enemy = True
                break
        shot_at_target = kind == W_ANNOUNCED and st.announced == A_SHOOT and active == target
        if shot_at_target and (t == me or p_enemy(k, t) <= 0.4):
            return 6.0
        if target != me and threatens(st, k, target):
            return 3.5
        if any_enemy and p_enemy(k, target) <= 0.3 and p_enemy(k, t) < 0.5:
            return 3.0
        return 0.0
    if effect == EF_INVERT:
        if target != me or holds_leader(k, me):
            return 0.0
        ours = where(st, k, own_leader(k))
        theirs = where(st, k, enemy_leader(k))
        if ours >= 0 and st.wounded[ours // 3] and not (theirs >= 0 and st.wounded[theirs // 3]):
            return 2.0
        return 0.0
    if effect == EF_POLYGRAPH:
        if holds_leader(k, me) or not my_turn:
            return 0.0
        if k.nunknown[target] > 0 and uncertainty(k, target) >= 0.75:
            return 2.0 + uncertainty(k, target)
        return 0.0
    if effect == EF_AUDIT:
        hidden = 0
        for s in range(k.n):
            if not is_other(st, k, s):
                continue
            hidden_ok = True
            for p in range(k.ncards[s]):
                if st.face_up[s][p]:
                    hidden_ok = False
                    break
            if hidden_ok:
                hidden += 1
        return 2.5 if hidden >= 2 else 0.0
    if effect == EF_REDIRECT_SHOT:
        if active < 0 or st.aim[active] < 0:
            return 0.0
        t = st.aim[active]
        if t == me:
            return 8.0
        if p_ally_leader(k, t) > 0.999:
            return 9.0
        if p_enemy(k, t) <= 0.4:
            return 6.0
        return 0.0
    if effect == EF_REVERSE:
        if active < 0:
            return 0.0
        ahead = next_seat(st, active, st.direction)
        behind = next_seat(st, active, -st.direction)
        return 3.0 if threatens(st, k, ahead) and not threatens(st, k, behind) else 0.0
    if effect == EF_EXPOSE_INVESTIGATED:
        if target == me:
            return 0.0
        for i in range(st.ncamera):
            s = st.camera[i][0]
            p = st.camera[i][1]
            card = k.card[s][p] if s == target and p < k.ncards[s] else -1
            if card == enemy_leader(k):
                return 6.0
            if card == C_CROOKED and not k.crooked:
                return 3.0
        return 0.0
    if effect == EF_REVEAL_ONE or effect == EF_INVESTIGATE_TWO_CARDS:
        if not my_turn or target == me or k.nunknown[target] == 0:
            return 0.0
        un = uncertainty(k, target)
        return 2.0 + un if un >= 0.75 else 0.0
    if effect == EF_INVESTIGATE_TWO_PLAYERS:
        if not my_turn:
            return 0.0
        best = -1.0
        second = -1.0
        for s in range(k.n):
            if is_other(st, k, s) and k.nunknown[s] > 0:
                un = uncertainty(k, s)
                if un > best:
                    second = best
                    best = un
                elif un > second:
                    second = un
        return 2.5 if second >= 0.0 and best + second >= 1.0 else 0.0
    return 0.0  # no rule for this card in a window (the Taser)


cdef void score_window(const GState* st, Know* k, int kind, const int* legal, int nl,
                       double* out) noexcept nogil:
    # _Decider.window: pass 1.0, a play by its effect's rule
    cdef int i, a, card, target
    for i in range(nl):
        a = legal[i]
        if a == A_PASS:
            out[i] = 1.0
            continue
        card = (a - A_PLAY) // 9
        target = (a - A_PLAY) % 9 - 1
        out[i] = window_rule(st, k, st.c.effect[card], target, kind)


# --- picks, aims, flips, keeps ------------------------------------------------------------------------
cdef void score_pick(const GState* st, Know* k, int purpose, const int* legal, int nl,
                     double* out) noexcept nogil:
    # _Decider.pick and pick_card
    cdef int i, a, seat, pos, card, spot
    cdef bint leader, solo
    cdef double leaders
    for i in range(nl):
        a = legal[i]
        if A_INVESTIGATE <= a < A_INVESTIGATE + 24:
            seat = (a - A_INVESTIGATE) // 3
            pos = (a - A_INVESTIGATE) % 3
            out[i] = 1.0 + info_value(st, k, seat, pos)
            continue
        seat = (a - A_PICK) // 3
        pos = (a - A_PICK) % 3
        card = k.card[seat][pos] if pos < k.ncards[seat] else -1
        leader = card == C_AGENT or card == C_KINGPIN
        if purpose == PK_SWAP_MINE:
            out[i] = 0.5 if leader else 2.0
        elif purpose == PK_SWAP_THEIRS:
            spot = swap_plan(st, k, &solo)
            out[i] = 3.0 if spot >= 0 and spot == 3 * seat + pos else 1.0
        elif purpose == PK_SWAP_FIRST:
            spot = heal_others_spot(st, k)
            out[i] = 3.0 if spot >= 0 and spot == 3 * seat + pos else 1.0
        elif purpose == PK_SWAP_SECOND:
            need(k)
            leaders = k.pa[seat] + k.pk[seat]
            out[i] = 2.0 - p_enemy(k, seat) - 2.0 * leaders - (2.0 if leader else 0.0)
        else:  # the camera: expose the card this seat knows hurts the enemy
            out[i] = 2.0 if card == enemy_leader(k) or (not k.crooked and card == C_CROOKED) else 1.0


cdef void score_aim(const GState* st, Know* k, int holder, const int* legal, int nl,
                    double* out) noexcept nogil:
    # _Decider.aim: its own Gun by target_value (keeping the aim among equals); another's Gun
    # (Planted Evidence) at the likeliest enemy
    cdef int i, t, me = k.me
    for i in range(nl):
        t = legal[i] - A_AIM
        if holder == me:
            out[i] = target_value(st, k, t) + (0.01 if t == st.aim[me] else 0.0)
        else:
            out[i] = p_enemy(k, t) + 0.75 * p_enemy_leader(k, t) - (3.0 if t == me else 0.0)


cdef void score_decision(const GState* st, int me, const int* legal, int nl, double* out,
                         Know* k) noexcept nogil:
    # _Decider.score: every legal action of the pending decision of seat me
    cdef const int* top = st.stack[st.nstack - 1]
    cdef int op = top[0]
    cdef int i, card, side
    if op == OP_ARRANGE:  # the layout is hidden: any order is as good
        for i in range(nl):
            out[i] = 1.0
        return
    read_know(st, me, k)
    if op == OP_ANNOUNCE:
        score_announce(st, k, legal, nl, out)
    elif op == OP_WINDOW:
        score_window(st, k, top[1], legal, nl, out)
    elif op == OP_AIM:
        score_aim(st, k, me, legal, nl, out)
    elif op == OP_REAIM:
        score_aim(st, k, top[2], legal, nl, out)
    elif op == OP_FLIP:
        for i in range(nl):
            card = k.card[me][legal[i] - A_FLIP]
            out[i] = FLIP_VALUE[card if card >= 0 else C_HONEST]
    elif op == OP_KEEP_CARD:  # Defibrillator: a card of its own team
        side = C_CROOKED if k.crooked else C_HONEST
        for i in range(nl):
            out[i] = 2.0 if k.card[me][legal[i] - A_KEEP_CARD] == side else 1.0
    elif op == OP_KEEP_EQUIP:
        for i in range(nl):
            out[i] = KEEP_VALUE[st.c.effect[legal[i] - A_KEEP_EQUIP]]
    elif op == OP_PICK:
        score_pick(st, k, top[2], legal, nl, out)
    else:
        for i in range(nl):
            out[i] = 1.0


cdef inline int choose_best(const int* legal, const double* score, int nl, SplitMix* rng) noexcept nogil:
    # heuristic.best_actions, then a uniform draw among the ties (none for a single best)
    cdef double top = score[0]
    cdef int i, nb = 0, pick
    for i in range(1, nl):
        if score[i] > top:
            top = score[i]
    for i in range(nl):
        if score[i] >= top - TIE:
            nb += 1
    pick = 0 if nb == 1 else <int>sm_below(rng, <unsigned int>nb)
    for i in range(nl):
        if score[i] >= top - TIE:
            if pick == 0:
                return legal[i]
            pick -= 1
    return legal[0]


cdef int policy_action(GState* st, SplitMix* rng) noexcept nogil:
    cdef int legal[G_MAX_LEGAL]
    cdef double score[G_MAX_LEGAL]
    cdef Know k
    cdef int seat = gs_current_player(st)
    cdef int nl
    if seat < 0:
        return -1
    nl = gs_legal(st, legal)
    if nl <= 0:
        return -1
    if nl == 1:  # as heuristic_action: no scoring and no draw for a forced move
        return legal[0]
    score_decision(st, seat, legal, nl, score, &k)
    return choose_best(legal, score, nl, rng)


cdef int play_to_end(GState* st, SplitMix* rng, int max_steps) noexcept nogil:
    # every seat by the policy, chance by its probabilities; the actions applied
    cdef int steps = 0, seat, a
    while st.winner == GW_NONE and steps < max_steps:
        seat = gs_current_player(st)
        if seat == SIM_CHANCE:
            a = gs_sample_chance(st, rng)
        elif seat >= 0:
            a = policy_action(st, rng)
        else:
            break
        if a < 0:
            break
        gs_apply(st, a)
        steps += 1
    return steps


# --- Python access (tests and benchmarks) ------------------------------------------------------------
def policy_choice(GCBCRulesSim sim, unsigned long long seed):
    """The policy's action for the seat to act in ``sim`` (ties drawn from SplitMix64(seed)); -1 at
    chance or the end."""
    cdef SplitMix r
    r.state = seed
    return policy_action(&sim.st, &r)


def policy_scored(GCBCRulesSim sim):
    """``[(action, score), ...]`` for every legal action of the seat to act (empty at chance or the
    end): the scores the policy ranks (the heuristic's, rules 4-15)."""
    cdef int legal[G_MAX_LEGAL]
    cdef double score[G_MAX_LEGAL]
    cdef Know k
    cdef int seat = gs_current_player(&sim.st)
    cdef int nl
    if seat < 0:
        return []
    nl = gs_legal(&sim.st, legal)
    if nl <= 0:
        return []
    score_decision(&sim.st, seat, legal, nl, score, &k)
    return [(legal[i], score[i]) for i in range(nl)]


def knowledge(GCBCRulesSim sim, int seat):
    """What ``seat`` knows and estimates in ``sim`` (rules 1-3), as a dict: its team, the known card
    per position (-1 unknown) and P(crooked), P(Agent), P(Kingpin) per seat."""
    cdef Know k
    if not 0 <= seat < sim.st.n:
        raise ValueError(f"gcbc_search: seat {seat} is not 0..{sim.st.n - 1}")
    read_know(&sim.st, seat, &k)
    estimate(&k)
    return {
        "team": "crooked" if k.crooked else "honest",
        "cards": [[k.card[s][p] for p in range(k.ncards[s])] for s in range(k.n)],
        "p_crooked": [k.pc[s] for s in range(k.n)],
        "p_agent": [k.pa[s] for s in range(k.n)],
        "p_kingpin": [k.pk[s] for s in range(k.n)],
        "settled": [bool(k.settled[s]) for s in range(k.n)],
    }


def play_out(GCBCRulesSim sim, unsigned long long seed, int max_steps=GS_STEP_LIMIT):
    """Play ``sim`` on to its end (or ``max_steps`` actions): every seat by the policy, chance by its
    probabilities, all from SplitMix64(seed). Returns the actions applied."""
    cdef SplitMix r
    cdef int steps
    cdef GState* st = &sim.st
    r.state = seed
    with nogil:
        steps = play_to_end(st, &r, max_steps)
    return steps


def _load_position(GCBCRulesSim sim, dict d):
    """Test hook: write the fields the policy reads into ``sim`` from ``d`` (of the sim's game), with one
    seat's knowledge (``d["me"]``, ``d["know"]``: a card or -1 per seat and position). Lets a test
    score a position whose knowledge comes from the Python reader, apart from the compiled rules."""
    cdef GState* st = &sim.st
    cdef const GConsts* c = &sim.tables.consts
    cdef int s, p, i, me = d["me"]
    # the tables are the game's (shared by its sims), so they are checked, never written
    if c.n != d["n"] or c.side_cards != d["side_cards"] or \
            [c.effect[i] for i in range(c.ncards)] != list(d["effects"]):
        raise ValueError("gcbc_search: the position is not of this sim's game")
    st.c = c
    st.n = c.n
    for s in range(c.n):
        st.ncards[s] = len(d["cards"][s])
        for p in range(st.ncards[s]):
            st.cards[s][p] = d["cards"][s][p]
            st.face_up[s][p] = d["face_up"][s][p]
            st.know[me][s][p] = d["know"][s][p]
        st.alive[s] = d["alive"][s]
        st.wounded[s] = d["wounded"][s]
        st.inverted[s] = d["inverted"][s]
        st.gun[s] = d["gun"][s]
        st.aim[s] = d["aim"][s]
        st.aimed[s] = d["aimed"][s]
        st.shot[s] = d["shot"][s]
    st.turn = d["turn"]
    st.active = d["active"]
    st.direction = d["direction"]
    st.announced = d["announced"]
    st.ncamera = len(d["camera"])
    for i, (s, p) in enumerate(d["camera"]):
        st.camera[i][0] = s
        st.camera[i][1] = p
    top = list(d["top"]) + [0] * 5
    st.nstack = 1
    for i in range(5):
        st.stack[0][i] = top[i]
    st.winner = GW_NONE


def _scores_for(GCBCRulesSim sim, int seat, legal):
    """Test hook: the policy's scores of ``legal`` (a list) for ``seat`` at ``sim``'s pending decision."""
    cdef int buf[G_MAX_LEGAL]
    cdef double score[G_MAX_LEGAL]
    cdef Know k
    cdef int i, nl = len(legal)
    if not 0 < nl <= G_MAX_LEGAL:
        raise ValueError(f"gcbc_search: {nl} legal actions (1..{G_MAX_LEGAL})")
    for i in range(nl):
        buf[i] = legal[i]
    score_decision(&sim.st, seat, buf, nl, score, &k)
    return [score[i] for i in range(nl)]


def constants():
    """The heuristic's constants as this module holds them (tests compare them with the bot's)."""
    return {
        "tie": TIE, "aim_weight": AIM_WEIGHT, "shot_weight": SHOT_WEIGHT,
        "flip_value": [FLIP_VALUE[c] for c in range(4)],
        "keep_value": [KEEP_VALUE[e] for e in range(N_EFFECTS)],
        "step_limit": GS_STEP_LIMIT,
    }


# --- the search simulator -----------------------------------------------------------------------------
cdef void set_bits(uint64_t* words, object allowed) except *:
    cdef int a
    memset(words, 0, GS_ROOT_WORDS * sizeof(uint64_t))
    for a in allowed:
        if not 0 <= a < GS_ROOT_ACTIONS:
            raise ValueError(f"gcbc_search: root actions are 0..{GS_ROOT_ACTIONS - 1}, not {a}")
        words[a >> 6] |= (<uint64_t>1) << (a & 63)


cdef class GCBCSearchSim(GCBCRulesSim):
    """The compiled rules as an ISMCTS simulator: win 1 / loss 0 / unfinished 1/2, per-seat keys,
    playouts by the heuristic policy on each seat's own knowledge, an optional root restriction,
    and a step limit (:data:`GS_STEP_LIMIT` actions, then terminal)."""

    @staticmethod
    def from_sim(GCBCRulesSim sim):
        """A search sim of ``sim``'s position (copied), with no root restriction."""
        cdef GCBCSearchSim out = GCBCSearchSim.__new__(GCBCSearchSim)
        out.tables = sim.tables
        out.num_players = sim.num_players
        out.st = sim.st
        out.steps = 0
        out.restricted = False
        return out

    @staticmethod
    def from_actions(game, actions):
        """A search sim of the position ``actions`` lead to (``GCBCRulesSim.from_actions``)."""
        return GCBCSearchSim.from_sim(GCBCRulesSim.from_actions(game, actions))

    def set_root(self, allowed=None):
        """Offer only ``allowed`` (those legal; action ids below 640) until an action is applied;
        None: every legal action. The step count restarts."""
        self.steps = 0
        self.restricted = allowed is not None
        if allowed is not None:
            set_bits(self.allowed, allowed)

    cdef int c_current_player(self) noexcept:
        if self.st.c == NULL:  # an empty pool's sample: nothing to play
            return SIM_TERMINAL
        return gs_current_player(&self.st)

    cdef int c_legal(self, int* out) noexcept:
        cdef int n, m, i, a
        if self.st.c == NULL:
            return 0
        n = gs_legal(&self.st, out)
        if not (self.restricted and self.steps == 0):
            return n
        # in place: kept actions only move down, and none is overwritten when none is kept
        m = 0
        for i in range(n):
            a = out[i]
            if 0 <= a < GS_ROOT_ACTIONS and (self.allowed[a >> 6] >> (a & 63)) & 1:
                out[m] = a
                m += 1
        return m if m > 0 else n

    cdef void c_apply(self, int action) noexcept:
        gs_apply(&self.st, action)
        self.steps += 1

    cdef bint c_terminal(self) noexcept:
        return self.st.c == NULL or self.st.winner != GW_NONE or self.steps >= GS_STEP_LIMIT

    cdef double c_return(self, int seat) noexcept:
        cdef double r
        if self.st.c == NULL or self.st.winner == GW_NONE:
            return 0.5
        r = gs_return(&self.st, seat)
        return 1.0 if r > 0 else (0.0 if r < 0 else 0.5)

    cdef uint64_t c_key(self, int seat) noexcept:
        return self.st.key[seat]

    cdef int c_default_action(self, SplitMix* rng) noexcept:
        cdef int seat
        if self.st.c == NULL:
            return -1
        seat = gs_current_player(&self.st)
        if seat == SIM_CHANCE:
            return gs_sample_chance(&self.st, rng)
        return policy_action(&self.st, rng)

    cdef void c_copy_from(self, Sim other) noexcept:
        cdef GCBCSearchSim o = <GCBCSearchSim>other
        self.tables = o.tables
        self.num_players = o.num_players
        self.st = o.st
        self.steps = o.steps
        self.restricted = o.restricted
        self.allowed = o.allowed

    cdef Sim c_new(self):
        return GCBCSearchSim.__new__(GCBCSearchSim)


# --- the pool of worlds -------------------------------------------------------------------------------
cdef bint same_game(const GConsts* a, const GConsts* b) noexcept:
    # the constants the rules and the policy read: equal tables, the same game
    cdef int i
    if a.n != b.n or a.side_cards != b.side_cards or a.guns != b.guns or a.ncards != b.ncards:
        return False
    for i in range(a.ncards):
        if a.effect[i] != b.effect[i] or a.timing[i] != b.timing[i]:
            return False
    return True


cdef class GCBCPool(CDeterminizer):
    """Determinized worlds for one search: each sample copies one, chosen uniformly, into the sim
    (``bots.observer_sim.PoolDeterminizer``). ``add`` a world per draw of the game's resampler
    (``GCBCRulesSim.from_actions(game, world.history)``); ``set_root`` restricts the root actions."""

    def __cinit__(self):
        self.worlds = NULL
        self.size = 0
        self.cap = 0
        self.players = 0
        self.restricted = False

    def __dealloc__(self):
        free(self.worlds)

    def __init__(self, allowed=None):
        self.set_root(allowed)

    def add(self, GCBCRulesSim sim):
        """Copy ``sim``'s position into the pool (every world must be of the same game)."""
        cdef GState* grown
        cdef int cap
        if self.tables is None:
            self.tables = sim.tables
            self.players = sim.num_players
        elif sim.tables is not self.tables:
            if not same_game(sim.st.c, &self.tables.consts):
                raise ValueError("gcbc_search: every world of a pool must be of the same game")
        if self.size == self.cap:
            cap = 16 if self.cap == 0 else 2 * self.cap
            grown = <GState*>realloc(self.worlds, cap * sizeof(GState))
            if grown == NULL:
                raise MemoryError("gcbc_search: cannot grow the pool")
            self.worlds = grown
            self.cap = cap
        self.worlds[self.size] = sim.st
        self.worlds[self.size].c = &self.tables.consts  # every world shares the pool's tables
        self.size += 1

    def set_root(self, allowed=None):
        """Offer only ``allowed`` (action ids below 640, those legal) at the root of every sample;
        None: every legal action."""
        self.restricted = allowed is not None
        if allowed is not None:
            set_bits(self.allowed, allowed)
        else:
            memset(self.allowed, 0, GS_ROOT_WORDS * sizeof(uint64_t))

    def __len__(self):
        return self.size

    def sample(self, rng):
        """A fresh search sim of one world (advances the SplitMix64 rng); ValueError when empty."""
        if self.size == 0:
            raise ValueError("gcbc_search: the pool holds no world")
        return CDeterminizer.sample(self, rng)

    cdef void c_sample_into(self, Sim target, SplitMix* rng) noexcept:
        cdef GCBCSearchSim t = <GCBCSearchSim>target
        cdef unsigned int i
        t.steps = 0
        t.restricted = self.restricted
        t.allowed = self.allowed
        if self.size == 0:
            t.st.c = NULL  # terminal and seatless: the search reports the wrong seat
            return
        i = sm_below(rng, <unsigned int>self.size)
        t.st = self.worlds[i]
        t.tables = self.tables
        t.num_players = self.players

    cdef Sim c_new_sim(self):
        cdef GCBCSearchSim sim = GCBCSearchSim.__new__(GCBCSearchSim)
        sim.tables = self.tables
        sim.num_players = self.players
        sim.st.c = NULL
        return sim
