# cython: cdivision=True
# The Police Precinct rules: the task machinery, the turn flow, the task kinds of procedures.py and of
# eventcards.py, as nogil C functions over the PState / PContent / CityC structs
# (solver/_ext/precinct_rules.pxd lists what is ported and the statuses). Twins:
# solver/games/precinct/tasks.py, common.py, turn.py, procedures.py and eventcards.py. Each C function
# below names the Python function it follows line by line; change both together. This file holds the
# task machinery, the small state helpers, the dispatch and the Python face; the handlers of each Python
# module are in ext/precinct_rules_{common,turn,procedures,eventcards}.pxi, included below (one module).
# tests/test_precinct_kernel_rules.py plays seeded games and compares every step with the Python rules,
# and plays whole games to their end from mid-game states in C and in Python side by side.
"""The Police Precinct task machinery, turn flow, procedures and event cards in C (the compiled playout's).

Pure twins: :mod:`solver.games.precinct.tasks`, :mod:`~solver.games.precinct.common`,
:mod:`~solver.games.precinct.turn`, :mod:`~solver.games.precinct.procedures` and
:mod:`~solver.games.precinct.eventcards`. Ported: every task kind of play: those of ``common`` and
``turn`` (less the set-up), of ``procedures`` (action, inv_draw, claim, inv_done, deck, look, order,
officers, swat, donuts, help, sabotage, fed, second, arrest_roll, em_roll, unknown, reward, take_reward,
upgrade, donate, accused, loyalty, hood, dispatch, tow, target) and of ``eventcards`` (van, event_phase,
event_draw, resolve, event_look, peek_event, place_roll, punk_roll, special_roll, gang, gas, gas_fixed,
drive, escape), so a game runs to its end in C from any position after the set-up. Set-up kinds are
refused (:class:`PrecinctCRules` raises ``BadStateError("precinct kernel: set-up task X ...")``): searches
start mid-game. The Python methods are for the tests; the compiled playout (``precinct_playout``, which
the ``ismcts`` bot's sim uses) calls the nogil ``pr_*`` functions.
"""

from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from libc.math cimport pow
from libc.string cimport memset
from libc.stdlib cimport malloc, free

from solver._ext.precinct_codec cimport *
from solver._ext.rng cimport SplitMix, sm_below, sm_uniform
from solver._ext.precinct_state cimport *
from solver._ext.precinct_content cimport *
from solver._ext.precinct_city cimport (CCity, CityC, CITY_MAX, city_path, city_reach, city_moves,
                                        city_hood_of, mask_pop)

from solver.core.errors import BadStateError
from solver.games.precinct import eventcards as _eventcards
from solver.games.precinct import procedures as _procedures
from solver._ext import precinct_content as _pcontent
from solver._ext import precinct_state as _pstate

# --- constants read once from the Python rules (no second copy to drift) -------------------------

cdef int ESCORT_TURNS = _eventcards.ESCORT_TURNS
cdef int OVERTIME_MOVES = 2         # procedures.play_text: "c.extra_move += 2"
cdef int HAND_LIMIT = 7             # turn._hand_limit
cdef int BIG_HAND_LIMIT = 9
cdef int AT_BUILDING_ = 0           # board.AT_BUILDING
cdef int AT_CROSSING_ = 1           # board.AT_CROSSING
cdef int AT_STREET_ = 2             # board.AT_STREET
cdef int AT_HOOD_ = 3               # board.AT_HOOD

cdef uint64_t _text_mask(object names) except? 0:
    cdef uint64_t m = 0
    for name in names:
        m |= (<uint64_t>1) << _pcontent.TEXT_NAMES.index(name)
    return m

cdef uint64_t IN_ROLL_TEXTS = _text_mask(_procedures.IN_ROLL)
cdef uint64_t START_ONLY_TEXTS = _text_mask(_procedures.START_ONLY)

#: status codes of PrecinctCRules.apply
OK = PR_OK
STOPPED = PR_STOPPED

cdef tuple TASK_NAMES = _pstate.TASK_NAMES

cdef int _check_tables() except -1:
    from solver.games.precinct import board as _board
    if (_board.AT_CROSSING != AT_CROSSING_ or _board.AT_HOOD != AT_HOOD_
            or _board.AT_BUILDING != AT_BUILDING_ or _board.AT_STREET != AT_STREET_):
        raise ImportError("solver._ext.precinct_rules: board.AT_CROSSING moved")
    if len(TASK_NAMES) != T_COUNT:
        raise ImportError("solver._ext.precinct_rules: task kinds disagree with precinct_state")
    return 0

_check_tables()


# --- small helpers --------------------------------------------------------------------------------

cdef inline uint64_t bit(int k) noexcept nogil:
    return (<uint64_t>1) << k


cdef PTask pr_task(int kind, int nargs, int a0, int a1, int a2, int a3) noexcept nogil:
    cdef PTask t
    t.kind = <uint8_t>kind
    t.nargs = <uint8_t>nargs
    t.args[0] = <int16_t>a0
    t.args[1] = <int16_t>a1
    t.args[2] = <int16_t>a2
    t.args[3] = <int16_t>a3
    return t


cdef int pr_push(PRules* r, PTask t) noexcept nogil:
    # tasks.push(st, t): in front of the queue; PR_BOUND past PS_MAX_TODO
    if ps_push_front(r.s, t) < 0:
        r.err_kind = t.kind
        return PR_BOUND
    return PR_OK


cdef bint pr_ported(int kind) noexcept nogil:
    return (kind == T_START or kind == T_MOVE or kind == T_SUPPORT or kind == T_DISCARD
            or kind == T_DEAL_POLICE or kind == T_FIRST_TURN or kind == T_TURN_START
            or kind == T_AFTER_MOVE or kind == T_POLICE_PHASE or kind == T_HAND_LIMIT
            or kind == T_END_TURN
            # procedures.py
            or kind == T_ACTION or kind == T_INV_DRAW or kind == T_CLAIM or kind == T_INV_DONE
            or kind == T_DECK or kind == T_LOOK or kind == T_ORDER or kind == T_OFFICERS
            or kind == T_SWAT or kind == T_DONUTS or kind == T_HELP or kind == T_SABOTAGE
            or kind == T_FED or kind == T_SECOND or kind == T_ARREST_ROLL or kind == T_EM_ROLL
            or kind == T_UNKNOWN or kind == T_REWARD or kind == T_TAKE_REWARD or kind == T_UPGRADE
            or kind == T_DONATE or kind == T_ACCUSED or kind == T_LOYALTY or kind == T_HOOD
            or kind == T_DISPATCH or kind == T_TOW or kind == T_TARGET
            # eventcards.py
            or kind == T_VAN or kind == T_EVENT_PHASE or kind == T_EVENT_DRAW or kind == T_RESOLVE
            or kind == T_EVENT_LOOK or kind == T_PEEK_EVENT or kind == T_PLACE_ROLL
            or kind == T_PUNK_ROLL or kind == T_SPECIAL_ROLL or kind == T_GANG or kind == T_GAS
            or kind == T_GAS_FIXED or kind == T_DRIVE or kind == T_ESCAPE)


cdef bint pr_setup_kind(int kind) noexcept nogil:
    return (kind == T_CAR or kind == T_PICK or kind == T_DEAL_LOYALTY or kind == T_SETUP_DEAL
            or kind == T_SETUP_PUNK or kind == T_STACK_BLOCK or kind == T_SETUP_EMERGENCY)


cdef inline int _unported(PRules* r, int kind) noexcept nogil:
    r.err_kind = kind
    return PR_SETUP if pr_setup_kind(kind) else PR_NOT_PORTED


cdef void pr_end(PRules* r, bint good_win) noexcept nogil:
    # PrecinctState.end: the first result stands; the queue is emptied
    if r.s.result != 0:
        return
    r.s.result = 1 if good_win else -1
    r.s.todo_len = 0


cdef void pr_advance_crime(PRules* r) noexcept nogil:
    # PrecinctState.advance_crime
    r.s.crime += 1
    if r.s.crime >= r.c.crime_fail:
        pr_end(r, False)


cdef uint64_t pr_blocked(const PRules* r) noexcept nogil:
    # PrecinctState.blocked: intersections an emergency lies on
    cdef uint64_t m = 0
    cdef int e
    for e in range(PS_MAX_SLOTS):
        if r.s.slots[e].full and r.s.slots[e].at == AT_CROSSING_:
            m |= bit(r.s.slots[e].where)
    return m


cdef bint pr_covered(const PRules* r, int deck) noexcept nogil:
    # PrecinctState.covered: a card on the board at the stack's building (names compared as in Python,
    # "" matching "": -1 matching -1)
    cdef int b = r.s.stacks[deck].building
    cdef int e
    for e in range(PS_MAX_SLOTS):
        if r.s.slots[e].full and r.s.slots[e].building == b:
            return True
    return False


cdef bint pr_has(const PRules* r, int cop, int power) noexcept nogil:
    return pc_has(r.c, r.s.cops[cop].chr, power)


# --- the handlers of each Python module (one include file each) -----------------------------------

include "precinct_rules_common.pxi"
include "precinct_rules_turn.pxi"
include "precinct_rules_procedures.pxi"
include "precinct_rules_eventcards.pxi"


# --- the dispatch (tasks.py) ----------------------------------------------------------------------

cdef inline void _sort_unique(int* a, int* n) noexcept nogil:
    # sorted(set(a[:n])) in place (insertion sort: the lists are short and mostly sorted already)
    cdef int i, j, k, m
    for i in range(1, n[0]):
        k = a[i]
        j = i - 1
        while j >= 0 and a[j] > k:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = k
    m = 0
    for i in range(n[0]):
        if m == 0 or a[i] != a[m - 1]:
            a[m] = a[i]
            m += 1
    n[0] = m


cdef int _decision_legal(PRules* r, const PTask* t, int* out) noexcept nogil:
    # DECISIONS[name][1], unsorted; a count or a status
    cdef int n
    if t.kind == T_START:
        n = _start_legal(r, t, out)
    elif t.kind == T_MOVE:
        n = _move_legal(r, t, out)
    elif t.kind == T_SUPPORT:
        n = _support_legal(r, t, out)
    elif t.kind == T_DISCARD:
        n = _discard_legal(r, t, out)
    elif t.kind == T_ACTION:
        n = _action_legal(r, t, out)
    elif t.kind == T_CLAIM:
        n = _claim_legal(r, t, out)
    elif t.kind == T_DECK:
        n = _deck_legal(r, t, out)
    elif t.kind == T_ORDER:
        n = _order_legal(r, t, out)
    elif t.kind == T_OFFICERS:
        n = _officers_legal(r, t, out)
    elif t.kind == T_SWAT:
        n = _swat_legal(r, t, out)
    elif t.kind == T_DONUTS:
        n = _donuts_legal(r, t, out)
    elif t.kind == T_HELP:
        n = _help_legal(r, t, out)
    elif t.kind == T_SABOTAGE:
        n = _sabotage_legal(r, t, out)
    elif t.kind == T_FED:
        n = _fed_legal(r, t, out)
    elif t.kind == T_SECOND:
        n = _second_legal(r, t, out)
    elif t.kind == T_REWARD:
        n = _reward_legal(r, t, out)
    elif t.kind == T_UPGRADE:
        n = _upgrade_legal(r, t, out)
    elif t.kind == T_DONATE:
        n = _donate_legal(r, t, out)
    elif t.kind == T_LOYALTY:
        n = _loyalty_legal(r, t, out)
    elif t.kind == T_HOOD:
        n = _hood_legal(r, t, out)
    elif t.kind == T_DISPATCH:
        n = _dispatch_legal(r, t, out)
    elif t.kind == T_TOW:
        n = _tow_legal(r, t, out)
    elif t.kind == T_TARGET:
        n = _target_legal(r, t, out)
    elif t.kind == T_VAN:
        n = _van_legal(r, t, out)
    elif t.kind == T_EVENT_LOOK:
        n = _look_event_legal(r, t, out)
    else:
        return _unported(r, t.kind)
    if n < 0:
        return n
    _sort_unique(out, &n)
    return n


cdef int _chance_outcomes(PRules* r, const PTask* t, int* actions, double* probs) noexcept nogil:
    # CHANCES[name][0] with the p > 0 filter of tasks.outcomes; a count or a status
    cdef int i, m, n
    if t.kind == T_DEAL_POLICE:
        n = _deal_police_outcomes(r, actions, probs)
    elif t.kind == T_INV_DRAW:
        n = _inv_outcomes(r, actions, probs)
    elif t.kind == T_LOOK:
        n = _look_outcomes(r, t, actions, probs)
    elif t.kind == T_ARREST_ROLL:
        n = _arrest_outcomes(r, actions, probs)
    elif t.kind == T_EM_ROLL:
        n = _em_outcomes(r, actions, probs)
    elif t.kind == T_UNKNOWN:
        n = _unknown_outcomes(r, actions, probs)
    elif t.kind == T_EVENT_DRAW:
        n = _event_outcomes(r, actions, probs)
    elif t.kind == T_PEEK_EVENT:
        n = _peek_outcomes(r, actions, probs)
    elif t.kind == T_PLACE_ROLL:
        n = _place_roll_outcomes(r, t, actions, probs)
    elif t.kind == T_PUNK_ROLL:
        n = _punk_roll_outcomes(r, t, actions, probs)
    elif t.kind == T_SPECIAL_ROLL:
        n = _dice_outcomes(actions, probs)
    elif t.kind == T_GANG:
        n = _gang_outcomes(r, actions, probs)
    elif t.kind == T_GAS:
        n = _gas_outcomes(r, t, actions, probs)
    elif t.kind == T_DRIVE:
        n = _drive_outcomes(r, t, actions, probs)
    else:
        return _unported(r, t.kind)
    if n < 0:
        return n
    m = 0
    for i in range(n):
        if probs[i] > 0:
            actions[m] = actions[i]
            probs[m] = probs[i]
            m += 1
    return m


cdef inline bint _is_chance(int kind) noexcept nogil:
    return T_FIRST_CHANCE <= kind < T_FIRST_AUTO


cdef inline bint _is_auto(int kind) noexcept nogil:
    return T_FIRST_AUTO <= kind < T_COUNT


cdef int pr_actor(PRules* r) noexcept nogil:
    # PrecinctState.current_player / tasks.actor
    cdef const PTask* t
    if r.s.result != 0 or r.s.todo_len == 0:
        return PR_TERMINAL_SEAT
    t = ps_head(r.s)
    if _is_chance(t.kind):
        return PR_CHANCE
    if t.kind < T_FIRST_SEAT_DECISION:
        return r.s.cops[t.args[0]].seat
    return t.args[0]


cdef int pr_legal(PRules* r, int* out) noexcept nogil:
    # tasks.legal: a chance node's actions sorted, a decision's sorted and distinct
    cdef const PTask* t
    cdef double probs[PR_MAX_OUTCOMES]
    cdef int n
    if r.s.result != 0 or r.s.todo_len == 0:
        return PR_TERMINAL
    t = ps_head(r.s)
    if _is_chance(t.kind):
        n = _chance_outcomes(r, t, out, probs)
        if n > 0:
            _sort_unique(out, &n)
        return n
    return _decision_legal(r, t, out)


cdef int pr_outcomes(PRules* r, int* actions, double* probs) noexcept nogil:
    # tasks.outcomes
    cdef const PTask* t
    if r.s.result != 0 or r.s.todo_len == 0:
        return PR_TERMINAL
    t = ps_head(r.s)
    if not _is_chance(t.kind):
        r.err_kind = t.kind
        return PR_BAD
    return _chance_outcomes(r, t, actions, probs)


cdef int _apply_task(PRules* r, const PTask* t, int action) noexcept nogil:
    # CHANCES[name][1] / DECISIONS[name][2]
    if t.kind == T_START:
        return _started(r, t, action)
    if t.kind == T_MOVE:
        return _moved(r, t, action)
    if t.kind == T_SUPPORT:
        return _supported(r, t, action)
    if t.kind == T_DISCARD:
        return _discarded(r, t, action)
    if t.kind == T_DEAL_POLICE:
        return _dealt_police(r, t, action)
    if t.kind == T_ACTION:
        return _acted(r, t, action)
    if t.kind == T_INV_DRAW:
        return _inv_drawn(r, t, action)
    if t.kind == T_CLAIM:
        return _claimed(r, t, action)
    if t.kind == T_DECK:
        return _decked(r, t, action)
    if t.kind == T_LOOK:
        return _looked(r, t, action)
    if t.kind == T_ORDER:
        return _ordered(r, t, action)
    if t.kind == T_OFFICERS:
        return _officered(r, t, action)
    if t.kind == T_SWAT:
        return _swatted(r, t, action)
    if t.kind == T_DONUTS:
        return _donuted(r, t, action)
    if t.kind == T_HELP:
        return _helped(r, t, action)
    if t.kind == T_SABOTAGE:
        return _sabotaged(r, t, action)
    if t.kind == T_FED:
        return _fed_used(r, t, action)
    if t.kind == T_SECOND:
        return _seconded(r, t, action)
    if t.kind == T_ARREST_ROLL:
        return _arrest_rolled(r, t, action)
    if t.kind == T_EM_ROLL:
        return _em_rolled(r, t, action)
    if t.kind == T_UNKNOWN:
        return _unknown_drawn(r, t, action)
    if t.kind == T_REWARD:
        return _rewarded(r, t, action)
    if t.kind == T_UPGRADE:
        return _upgraded(r, t, action)
    if t.kind == T_DONATE:
        return _donated(r, t, action)
    if t.kind == T_LOYALTY:
        return _loyal(r, t, action)
    if t.kind == T_HOOD:
        return _hooded(r, t, action)
    if t.kind == T_DISPATCH:
        return _dispatched(r, t, action)
    if t.kind == T_TOW:
        return _towed(r, t, action)
    if t.kind == T_TARGET:
        return _targeted(r, t, action)
    if t.kind == T_VAN:
        return _van_moved(r, t, action)
    if t.kind == T_EVENT_LOOK:
        return _event_looked(r, t, action)
    if t.kind == T_EVENT_DRAW:
        return _event_drawn(r, t, action)
    if t.kind == T_PEEK_EVENT:
        return _peeked(r, t, action)
    if t.kind == T_PLACE_ROLL:
        return _place_rolled(r, t, action)
    if t.kind == T_PUNK_ROLL:
        return _punk_rolled(r, t, action)
    if t.kind == T_SPECIAL_ROLL:
        return _special_rolled(r, t, action)
    if t.kind == T_GANG:
        return _gang_drawn(r, t, action)
    if t.kind == T_GAS:
        return _gas_rolled(r, t, action)
    if t.kind == T_DRIVE:
        return _driven(r, t, action)
    return _unported(r, t.kind)


cdef int _run_auto(PRules* r, const PTask* t) noexcept nogil:
    # AUTOS[name]
    if t.kind == T_TURN_START:
        return _turn_start(r, t)
    if t.kind == T_AFTER_MOVE:
        return _after_move(r, t)
    if t.kind == T_POLICE_PHASE:
        return _police_phase(r, t)
    if t.kind == T_HAND_LIMIT:
        return _hand_limit(r, t)
    if t.kind == T_END_TURN:
        return _end_turn(r, t)
    if t.kind == T_FIRST_TURN:
        return _first_turn(r)
    if t.kind == T_INV_DONE:
        return _inv_done(r, t)
    if t.kind == T_TAKE_REWARD:
        return _take_reward(r, t)
    if t.kind == T_ACCUSED:
        return _accused(r, t)
    if t.kind == T_EVENT_PHASE:
        return _event_phase(r, t)
    if t.kind == T_RESOLVE:
        return _resolve(r, t)
    if t.kind == T_GAS_FIXED:
        return _gas_fixed(r, t)
    if t.kind == T_ESCAPE:
        return _escape(r, t)
    return _unported(r, t.kind)


cdef int pr_apply(PRules* r, int action) noexcept nogil:
    # tasks.apply: pop the head, apply, run
    cdef PTask t
    cdef int rc
    if r.s.todo_len == 0:
        return PR_TERMINAL
    t = ps_head(r.s)[0]
    if not pr_ported(t.kind):
        return _unported(r, t.kind)
    ps_pop(r.s)
    rc = _apply_task(r, &t, action)
    if rc < 0:
        if r.err_kind == 0:
            r.err_kind = t.kind
        return rc
    return pr_run(r)


cdef int pr_run(PRules* r) noexcept nogil:
    # tasks.run; stops (PR_STOPPED) in front of a kind not ported, leaving it at the head
    cdef PTask t
    cdef int rc
    cdef int buf[PR_MAX_ACTIONS]
    cdef double probs[PR_MAX_OUTCOMES]
    while r.s.result == 0 and r.s.todo_len > 0:
        t = ps_head(r.s)[0]
        if not pr_ported(t.kind):
            r.err_kind = t.kind
            return PR_STOPPED
        if _is_auto(t.kind):
            ps_pop(r.s)
            rc = _run_auto(r, &t)
            if rc < 0:
                if r.err_kind == 0:
                    r.err_kind = t.kind
                return rc
            continue
        if _is_chance(t.kind):
            rc = _chance_outcomes(r, &t, buf, probs)
        else:
            rc = _decision_legal(r, &t, buf)
        if rc < 0:
            return rc
        if rc == 0:
            ps_pop(r.s)  # nothing to decide, or nothing left to draw
            continue
        return PR_OK
    return PR_OK


cdef int pr_random_playout(PRules* r, SplitMix* rng, int max_steps, int* actions,
                           int* n_out) noexcept nogil:
    # A whole game from the head to its end: a decision takes legal[below(n)], chance the first outcome
    # whose running sum of probabilities passes uniform() (the last one when rounding leaves none).
    # The actions go to ``actions`` (max_steps entries); PR_OK, PR_BOUND past max_steps, or a status.
    cdef int buf[PR_MAX_ACTIONS]
    cdef double probs[PR_MAX_OUTCOMES]
    cdef int n, i, action, who, rc
    cdef double u, acc
    n_out[0] = 0
    while r.s.result == 0 and r.s.todo_len > 0:
        who = pr_actor(r)
        if who == PR_CHANCE:
            n = pr_outcomes(r, buf, probs)
            if n <= 0:
                return n if n < 0 else PR_BAD
            u = sm_uniform(rng)
            acc = 0.0
            action = buf[n - 1]
            for i in range(n):
                acc += probs[i]
                if u < acc:
                    action = buf[i]
                    break
        else:
            n = pr_legal(r, buf)
            if n <= 0:
                return n if n < 0 else PR_BAD
            action = buf[sm_below(rng, n)]
        if n_out[0] >= max_steps:
            return PR_BOUND
        actions[n_out[0]] = action
        n_out[0] += 1
        rc = pr_apply(r, action)
        if rc != PR_OK:
            return rc if rc < 0 else PR_BAD
    return PR_OK


# --- the Python face (tests) ----------------------------------------------------------------------

cdef class PrecinctCRules:
    """The compiled rules of one game, applied to :class:`PrecinctCState` objects (tests only: a
    simulator calls the nogil functions). Raises BadStateError for a set-up task kind."""

    cdef readonly PrecinctCContent content
    cdef readonly CCity city
    cdef readonly object game

    def __init__(self, game):
        """The rules of PrecinctGame ``game`` (its content and city converted once)."""
        self.game = game
        self.content = PrecinctCContent(game)
        self.city = CCity(game.city)

    cdef void _bind(self, PRules* r, PrecinctCState cs):
        r.s = &cs.s
        r.c = &self.content.c
        r.city = &self.city.c
        r.err_kind = 0

    cdef _raise(self, int rc, int kind, action=None):
        name = TASK_NAMES[kind] if 0 <= kind < len(TASK_NAMES) else str(kind)
        if rc == PR_NOT_PORTED:
            raise BadStateError(f"precinct kernel: task {name} not ported yet")
        if rc == PR_SETUP:
            raise BadStateError(f"precinct kernel: set-up task {name} is not ported (searches start "
                                "after the set-up)")
        if rc == PR_BOUND:
            raise BadStateError(f"precinct kernel: a bound of the state was exceeded in task {name}")
        if rc == PR_TERMINAL:
            raise BadStateError("precinct kernel: the game is over (no task)")
        raise BadStateError(f"precinct kernel: task {name} cannot take action {action!r} (or the "
                            "state is one the rules never make)")

    def actor(self, PrecinctCState cs):
        """Who acts at the head: a seat, CHANCE (-1), or TERMINAL (-4)."""
        cdef PRules r
        self._bind(&r, cs)
        return pr_actor(&r)

    def legal(self, PrecinctCState cs):
        """tasks.legal: the head's actions, sorted."""
        cdef PRules r
        cdef int out[PR_MAX_ACTIONS]
        cdef int n
        self._bind(&r, cs)
        if r.s.result != 0 or r.s.todo_len == 0:
            return []
        n = pr_legal(&r, out)
        if n < 0:
            self._raise(n, r.err_kind)
        return [out[i] for i in range(n)]

    def outcomes(self, PrecinctCState cs):
        """tasks.outcomes: the head's chance outcomes as (action, probability)."""
        cdef PRules r
        cdef int acts[PR_MAX_OUTCOMES]
        cdef double probs[PR_MAX_OUTCOMES]
        cdef int n
        self._bind(&r, cs)
        n = pr_outcomes(&r, acts, probs)
        if n < 0:
            self._raise(n, r.err_kind)
        return [(acts[i], probs[i]) for i in range(n)]

    def apply(self, PrecinctCState cs, int action):
        """tasks.apply: OK, or STOPPED when the run after it reached a task kind not ported (left at the
        head, untouched). BadStateError when the head itself is not ported (nothing changed) or the
        action is not legal / a bound is exceeded (the state is then to be dropped)."""
        cdef PRules r
        cdef int rc
        self._bind(&r, cs)
        with nogil:
            rc = pr_apply(&r, action)
        if rc < 0:
            self._raise(rc, r.err_kind, action)
        return rc

    def run(self, PrecinctCState cs):
        """tasks.run: OK or STOPPED (see apply)."""
        cdef PRules r
        cdef int rc
        self._bind(&r, cs)
        rc = pr_run(&r)
        if rc < 0:
            self._raise(rc, r.err_kind)
        return rc

    def hospital(self, PrecinctCState cs, int cop):
        """common.hospital(st, cop) (the tests reach it here directly too)."""
        cdef PRules r
        cdef int rc
        self._bind(&r, cs)
        if not 0 <= cop < cs.s.n_cops:
            raise BadStateError(f"precinct kernel: no cop {cop}")
        rc = pr_hospital(&r, cop)
        if rc < 0:
            self._raise(rc, T_DISCARD)

    def random_playout(self, PrecinctCState cs, seed, int max_steps=100000):
        """Play ``cs`` to the end of the game in nogil C with a SplitMix64 seeded ``seed`` (a decision:
        legal[below(n)]; chance: the first outcome whose running sum of probabilities passes uniform());
        the actions taken, as a list (tests and benches: the whole game with no Python in the loop)."""
        cdef PRules r
        cdef SplitMix rng
        cdef int rc, n = 0
        cdef int* acts = <int*>malloc(max(1, max_steps) * sizeof(int))
        if acts == NULL:
            raise MemoryError()
        self._bind(&r, cs)
        rng.state = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        try:
            with nogil:
                rc = pr_random_playout(&r, &rng, max_steps, acts, &n)
            if rc < 0:
                self._raise(rc, r.err_kind)
            return [acts[i] for i in range(n)]
        finally:
            free(acts)

    def stopped_at(self, PrecinctCState cs):
        """The head task's name ("" when the queue is empty)."""
        if cs.s.todo_len == 0:
            return ""
        return TASK_NAMES[ps_head(&cs.s).kind]


#: the task kinds ported, by name
PORTED = frozenset(TASK_NAMES[k] for k in range(1, T_COUNT) if pr_ported(k))
#: the set-up kinds, refused on purpose
SETUP = frozenset(TASK_NAMES[k] for k in range(1, T_COUNT) if pr_setup_kind(k))
