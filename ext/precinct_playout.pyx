# The Police Precinct search's playout below the tree in nogil C (declarations and the contract in
# solver/_ext/precinct_playout.pxd): PrecinctSim's ``while not is_terminal(): apply(default_action(rng))``
# with the compiled rules and heuristic; PrecinctSim.rollout (bots/precinct/search.py) plays its lines
# with it. tests/test_precinct_kernel_playout.py holds it equal to PrecinctSim.

from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free

from solver._ext.precinct_state cimport PState, PrecinctCState
from solver._ext.precinct_content cimport PContent, PrecinctCContent
from solver._ext.precinct_city cimport CityC, CCity
from solver._ext.rng cimport SplitMix, sm_uniform
from solver._ext.precinct_rules cimport (PRules, PR_OK, PR_CHANCE, PR_TERMINAL_SEAT, PR_MAX_ACTIONS,
                                         PR_MAX_OUTCOMES, pr_actor, pr_legal, pr_outcomes, pr_apply)
from solver._ext.precinct_policy cimport PPolicy, PP_OK, pp_init, pp_choose

from solver.core.errors import BadStateError


cdef int pl_turns_begun(const PState* s) noexcept nogil:
    if s.n_order <= 0:
        return 0
    return s.turn_track * s.n_order + s.at


cdef int pl_playout(PState* s, const PContent* c, const CityC* city, SplitMix* rng, int stop_at,
                    int max_steps, int* actions, PLResult* out) noexcept nogil:
    cdef PRules r
    cdef PPolicy p
    cdef int buf[PR_MAX_ACTIONS]
    cdef double probs[PR_MAX_OUTCOMES]
    cdef int n, i, who, action, rc
    cdef double u
    r.s = s
    r.c = c
    r.city = city
    r.err_kind = 0
    out.n = 0
    out.detail = 0
    out.err_kind = 0
    while True:
        # PrecinctSim.is_terminal: the horizon first, then the game's end
        if stop_at >= 0 and pl_turns_begun(s) >= stop_at:
            return PL_CUT
        who = pr_actor(&r)
        if who == PR_TERMINAL_SEAT:
            return PL_END
        if max_steps > 0 and out.n >= max_steps:
            return PL_STEPS
        if who == PR_CHANCE:
            n = pr_outcomes(&r, buf, probs)
            if n < 0:
                out.detail, out.err_kind = n, r.err_kind
                return PL_RULES
            if n == 0:
                return PL_EMPTY
            # StateSim.default_action's walk, subtraction for subtraction (not a running sum, whose
            # rounding may differ)
            u = sm_uniform(rng)
            action = buf[n - 1]
            for i in range(n):
                u -= probs[i]
                if u < 0:
                    action = buf[i]
                    break
        else:
            n = pr_legal(&r, buf)
            if n < 0:
                out.detail, out.err_kind = n, r.err_kind
                return PL_RULES
            if n == 0:
                return PL_EMPTY
            if n == 1:
                action = buf[0]         # heuristic_action: no scores, no draw
            else:
                rc = pp_init(&p, s, c, city)
                if rc != PP_OK:
                    out.detail = rc
                    return PL_POLICY
                action = pp_choose(&p, buf, n, rng)
                if action < 0:
                    out.detail = action
                    return PL_POLICY
        if actions != NULL:
            actions[out.n] = action
        out.n += 1
        rc = pr_apply(&r, action)
        if rc != PR_OK:
            out.detail, out.err_kind = rc, r.err_kind
            return PL_RULES


# --- the Python face (tests and benches) -------------------------------------------------------------

#: statuses, for tests
END = PL_END
CUT = PL_CUT


cdef class PrecinctCPlayout:
    """The compiled playout of one PrecinctGame over PrecinctCState values (tests and benches: the
    compiled simulator calls pl_playout on the structs)."""

    cdef PrecinctCContent content
    cdef CCity city
    cdef readonly object game

    def __init__(self, game):
        """Convert the game's content and city to their C structs once."""
        self.game = game
        self.content = PrecinctCContent(game)
        self.city = CCity(game.city)

    cdef _raise(self, int status, PLResult* res):
        raise BadStateError(f"precinct playout: status {status} (detail {res.detail}, task kind "
                            f"{res.err_kind}) after {res.n} actions")

    def turns_begun(self, PrecinctCState cs):
        """search.turns_begun of ``cs``."""
        return pl_turns_begun(&cs.s)

    def play(self, PrecinctCState cs, seed_state, stop_at=None, int max_steps=100000):
        """Play ``cs`` (changed in place) as PrecinctSim's playout does, from the SplitMix64 state
        ``seed_state``, until the game's end or turns_begun >= ``stop_at`` (None: to the end).
        Returns (the actions played, the SplitMix64 state after them, END or CUT)."""
        cdef SplitMix rng
        cdef PLResult res
        cdef int status
        cdef int stop = -1 if stop_at is None else int(stop_at)
        cdef int* acts
        if max_steps < 1:
            raise ValueError("max_steps must be positive")
        acts = <int*>malloc(max_steps * sizeof(int))
        if acts == NULL:
            raise MemoryError()
        rng.state = <uint64_t>(int(seed_state) & 0xFFFFFFFFFFFFFFFF)
        try:
            with nogil:
                status = pl_playout(&cs.s, &self.content.c, &self.city.c, &rng, stop, max_steps, acts,
                                    &res)
            if status < 0:
                self._raise(status, &res)
            return [acts[i] for i in range(res.n)], rng.state, status
        finally:
            free(acts)

    def time(self, PrecinctCState cs, seed_state, int horizon, int repeat):
        """(seconds, actions played) for ``repeat`` playouts of ``horizon`` turns (0: to the end), each
        from a copy of ``cs`` (left unchanged) and the SplitMix64 state ``seed_state``, so each plays
        the line ``play`` plays: the loop is nogil with no Python between playouts (a bench)."""
        import time
        cdef SplitMix rng
        cdef PLResult res
        cdef int status = 0, k, stop
        cdef long total = 0
        cdef uint64_t seed = <uint64_t>(int(seed_state) & 0xFFFFFFFFFFFFFFFF)
        cdef PState* work = <PState*>malloc(sizeof(PState))
        if work == NULL:
            raise MemoryError()
        stop = pl_turns_begun(&cs.s) + horizon if horizon > 0 else -1
        try:
            t0 = time.perf_counter()
            with nogil:
                for k in range(repeat):
                    work[0] = cs.s
                    rng.state = seed
                    status = pl_playout(work, &self.content.c, &self.city.c, &rng, stop, 0, NULL, &res)
                    if status < 0:
                        break
                    total += res.n
            elapsed = time.perf_counter() - t0
            if status < 0:
                self._raise(status, &res)
            return elapsed, total
        finally:
            free(work)
