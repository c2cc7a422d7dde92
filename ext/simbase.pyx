# Base classes of compiled simulators and determinizers (declarations: solver/_ext/simbase.pxd).
# The Python-visible methods implement the Sim protocol of solver/search/sim.py on top of the
# C-level ones, so a compiled simulator can be driven and tested from Python like its pure twin.

from libc.stdint cimport uint64_t
from solver._ext.rng cimport SplitMix, sm_next, sm_below, sm_uniform


cdef class Sim:
    """Base of compiled simulators; every c_ method must be overridden."""

    cdef int c_current_player(self) noexcept:
        return SIM_TERMINAL

    cdef int c_legal(self, int* out) noexcept:
        return 0

    cdef void c_apply(self, int action) noexcept:
        pass

    cdef bint c_terminal(self) noexcept:
        return True

    cdef double c_return(self, int seat) noexcept:
        return 0.0

    cdef uint64_t c_key(self, int seat) noexcept:
        return 0

    cdef int c_default_action(self, SplitMix* rng) noexcept:
        return -1

    cdef void c_copy_from(self, Sim other) noexcept:
        pass

    cdef Sim c_new(self):
        return Sim()

    # --- the Python-visible Sim protocol ---------------------------------------------------------
    def current_player(self):
        """The seat to act, -1 at chance, -4 at the end."""
        return self.c_current_player()

    def legal_actions(self):
        """Sorted legal actions."""
        cdef int buf[SIM_MAX_ACTIONS]
        cdef int n = self.c_legal(buf)
        return [buf[i] for i in range(n)]

    def chance_outcomes(self):
        """Compiled simulators start after the last chance node: none."""
        return []

    def apply(self, int action):
        """Apply a legal action (unchecked)."""
        self.c_apply(action)

    def is_terminal(self):
        """True once the game is over."""
        return self.c_terminal()

    def returns(self):
        """One payoff per seat."""
        return [self.c_return(s) for s in range(self.num_players)]

    def key(self, int seat):
        """The information-set key of seat now."""
        return self.c_key(seat)

    def default_action(self, rng):
        """The playout policy's move, drawing from a solver.core.rng.SplitMix64 (advanced in step)."""
        cdef SplitMix r
        r.state = rng.state
        cdef int a = self.c_default_action(&r)
        rng.state = r.state
        return a

    def copy(self):
        """An independent copy."""
        cdef Sim other = self.c_new()
        other.c_copy_from(self)
        return other


cdef class CDeterminizer:
    """Base of compiled determinizers."""

    cdef void c_sample_into(self, Sim target, SplitMix* rng) noexcept:
        pass

    cdef Sim c_new_sim(self):
        return Sim()

    def sample(self, rng):
        """A fresh simulator of one consistent state (advances the SplitMix64 rng)."""
        cdef SplitMix r
        r.state = rng.state
        cdef Sim sim = self.c_new_sim()
        self.c_sample_into(sim, &r)
        rng.state = r.state
        return sim


def _splitmix_outputs(unsigned long long seed, int n, unsigned int below_n):
    """Test hook: n raw outputs, then one below(below_n) and one uniform(), from seed."""
    cdef SplitMix r
    r.state = seed
    out = [sm_next(&r) for _ in range(n)]
    return out, sm_below(&r, below_n), sm_uniform(&r)
