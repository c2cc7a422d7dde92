# The compiled side of the Sim contract (solver/search/sim.py): the search kernel walks these
# C-level methods; a game's compiled simulator subclasses Sim and overrides every one of them.
# The Python-visible methods of the contract (current_player(), legal_actions(), apply(), ...)
# are defined once in ext/simbase.pyx on top of the C-level ones.

from libc.stdint cimport uint64_t
from solver._ext.rng cimport SplitMix

cdef enum:
    SIM_MAX_ACTIONS = 512   # room every legal-action buffer must have
    SIM_CHANCE = -1
    SIM_TERMINAL = -4


cdef class Sim:
    cdef public int num_players
    cdef int c_current_player(self) noexcept
    # writes the sorted legal actions into out (room for SIM_MAX_ACTIONS), returns their count
    cdef int c_legal(self, int* out) noexcept
    cdef void c_apply(self, int action) noexcept
    cdef bint c_terminal(self) noexcept
    cdef double c_return(self, int seat) noexcept
    cdef uint64_t c_key(self, int seat) noexcept
    cdef int c_default_action(self, SplitMix* rng) noexcept
    # make self an exact copy of other (same concrete type), without allocating
    cdef void c_copy_from(self, Sim other) noexcept
    cdef Sim c_new(self)


cdef class CDeterminizer:
    # fill target (a Sim of the right type) with one state consistent with the searcher's view
    cdef void c_sample_into(self, Sim target, SplitMix* rng) noexcept
    cdef Sim c_new_sim(self)
