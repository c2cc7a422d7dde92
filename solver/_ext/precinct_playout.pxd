# The Police Precinct search's playout below the tree as one nogil C loop, for the compiled simulator
# of issue 22: what bots/precinct/search.py's PrecinctSim does from a leaf (``while not
# sim.is_terminal(): sim.apply(sim.default_action(rng))``) over PState / PContent / CityC, with no
# Python between steps. A chance node draws its outcome as solver/search/sim.py's
# StateSim.default_action does (u = uniform(); u -= p for each outcome in order until u < 0; else the
# last); a decision takes the heuristic's choice (precinct_policy.pxd's pp_choose: search.py's
# heuristic_action, one below(n) draw only on a tie); the rules (precinct_rules.pxd) apply it. The line
# ends at the game's end or once turns_begun (search.turns_begun) reaches ``stop_at`` (PrecinctSim's
# horizon cut; stop_at < 0: no cut). tests/test_precinct_kernel_playout.py holds it equal to
# PrecinctSim's playout: the same actions, final state and SplitMix64 state.
#
# Kernels use it as
#   from solver._ext.precinct_playout cimport pl_playout, PLResult, PL_END, PL_CUT
# the caller keeps the owners of the state, content and city alive and passes a PState it may
# change (a copy of the leaf's).

from solver._ext.precinct_state cimport PState
from solver._ext.precinct_content cimport PContent
from solver._ext.precinct_city cimport CityC
from solver._ext.rng cimport SplitMix

cdef enum:
    PL_END = 0          # the game is over (st.result != 0 or no task left)
    PL_CUT = 1          # turns_begun reached stop_at (the horizon), the game not over
    PL_RULES = -1       # the rules answered an error (PLResult.detail: the PR_* status; err_kind)
    PL_POLICY = -2      # the policy answered an error (PLResult.detail: the PP_* status)
    PL_STEPS = -3       # max_steps actions played with neither end nor cut
    PL_EMPTY = -4       # a decision without legal actions or a chance node without outcomes


cdef struct PLResult:
    int n               # actions played
    int detail          # the PR_* / PP_* status behind PL_RULES / PL_POLICY, else 0
    int err_kind        # the rules' err_kind (the task kind concerned) behind PL_RULES


# search.turns_begun: turn_track * len(order) + at once the order is set, else 0
cdef int pl_turns_begun(const PState* s) noexcept nogil

# The playout from ``s`` (changed in place): until the game ends or pl_turns_begun(s) >= stop_at
# (stop_at < 0: to the end); at most max_steps actions (max_steps <= 0: no bound). The actions go to
# ``actions`` when it is not NULL (it must then hold max_steps entries). Returns PL_END, PL_CUT or an
# error below 0 (the state is then to be dropped); out.n is the number of actions played.
cdef int pl_playout(PState* s, const PContent* c, const CityC* city, SplitMix* rng, int stop_at,
                    int max_steps, int* actions, PLResult* out) noexcept nogil
