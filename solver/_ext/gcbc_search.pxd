# The Good Cop Bad Cop search pieces on the compiled rules (ext/gcbc_search.pyx): the playout policy
# (a C port of the rule-based heuristic, bots/gcbc/heuristic.py, estimate="rules", reading only what
# the acting seat knows), the search simulator the compiled ISMCTS kernel walks, and a pool of
# determinized worlds.

from libc.stdint cimport uint64_t
from solver._ext.rng cimport SplitMix
from solver._ext.simbase cimport Sim, CDeterminizer
from solver._ext.gcbc_sim cimport GState, GCBCRulesSim, GCBCTables

cdef enum:
    GS_STEP_LIMIT = 20000   # applied actions after which a search sim counts as terminal (unfinished: 1/2)
    GS_ROOT_ACTIONS = 640   # root restrictions cover action ids 0..639 (every decision; chance ids are above)
    GS_ROOT_WORDS = 10      # GS_ROOT_ACTIONS / 64


# the acting seat's action by the heuristic's rules (ties: sm_below on rng); -1 at chance or the end
cdef int policy_action(GState* st, SplitMix* rng) noexcept nogil


cdef class GCBCSearchSim(GCBCRulesSim):
    cdef public int steps                   # actions applied since the sim was sampled (or made)
    cdef bint restricted                    # a root restriction is in force
    cdef uint64_t allowed[GS_ROOT_WORDS]    # bit a: action a is allowed at the root


cdef class GCBCPool(CDeterminizer):
    cdef GState* worlds
    cdef int size
    cdef int cap
    cdef GCBCTables tables
    cdef int players
    cdef bint restricted
    cdef uint64_t allowed[GS_ROOT_WORDS]
