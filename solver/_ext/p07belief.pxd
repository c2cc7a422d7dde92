# The compiled possible-location tracker (ext/p07belief.pyx), declared so other kernels (a compiled
# Police 07 simulator or determinizer) can cimport it and call the C-level methods without Python:
#   from solver._ext.p07belief cimport LocationTracker
# The pure-Python twin and the bitset layout are documented in solver/games/police07/bitsets.py.
#
# Layout of the inline history (k = move since the reset, oldest first):
#   befores[k * 4 + w]   word w of the set just before move k
#   lines[k]             the line mask move k rode (bit 0 taxi, 1 bus, 2 metro, 3 water)

from libc.stdint cimport uint64_t
from solver._ext.rng cimport SplitMix

cdef enum:
    TRACK_MAX_MOVES = 32    # bitsets.MAX_MOVES


cdef class LocationTracker:
    cdef object _table              # the board's neighbour_words array; keeps nbr alive
    cdef const uint64_t* nbr        # nbr[((line * 256) + s) * 4 + w], see p07bits.pxd
    cdef readonly int num_stops
    cdef readonly int start
    cdef int n_moves
    cdef uint64_t now[4]
    cdef uint64_t befores[128]      # TRACK_MAX_MOVES * 4
    cdef int lines[32]              # TRACK_MAX_MOVES

    # C-level updates do no argument checks (stops must be 1..num_stops, line masks 1..15); they
    # return the size of the set after the update, c_factor_move -1 when the history is full.
    cdef void c_reset(self, int stop) noexcept nogil
    cdef int c_factor_move(self, int line_mask, const uint64_t* blocked, int shown) noexcept nogil
    cdef int c_keep(self, int stop) noexcept nogil
    cdef int c_strike(self, int stop) noexcept nogil
    # strikes out the stops from which no line of line_mask (0..15) leads to a stop outside blocked
    cdef int c_drop_cornered(self, int line_mask, const uint64_t* blocked) noexcept nogil
    cdef int c_count(self) noexcept nogil
    # writes n_moves + 1 stops into out (the stop before each move, then last); -1 if last is not
    # in the set
    cdef int c_sample_path(self, SplitMix* rng, int last, int* out) noexcept nogil
    cdef void c_copy_from(self, LocationTracker other) noexcept
    # argument checks of the Python-level methods (raise as the pure twin does)
    cdef int _check_stop(self, int stop) except -1
    cdef int _move_index(self, int k) except -1
