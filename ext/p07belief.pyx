# Compiled twin of solver/games/police07/bitsets.py (LocationTracker): the same methods, the same results,
# the same errors. Change both together; tests/test_bitsets.py compares them on thousands of games.
"""Possible-location tracker for Police 07 on four-word bitsets (compiled).

The layout, the meaning of every method and the checks on arguments are documented in
``solver/games/police07/bitsets.py``; the C-level methods declared in ``solver/_ext/p07belief.pxd`` skip the
checks so kernels can call them without Python.
"""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from solver._ext.p07bits cimport (
    bits_and, bits_andnot, bits_clear, bits_copy, bits_count, bits_drop_cornered, bits_expand,
    bits_expand_block, bits_has, bits_keep, bits_nth, bits_set, bits_stop_nbrs, bits_unset,
)
from solver._ext.rng cimport SplitMix, sm_below

from solver.games.police07.bitsets import neighbour_words

cdef enum:
    ANY_LINE_BLOCK = 4      # bitsets.ANY_LINE_BLOCK: the union of the four line blocks

# line index of a one-bit line mask (1 taxi, 2 bus, 4 metro, 8 water); other entries unused
cdef int _LINE_OF_BIT[9]
_LINE_OF_BIT[:] = [0, 0, 1, 0, 2, 0, 0, 0, 3]


cdef object _to_int(const uint64_t* b):
    return (<object>b[3] << 192) | (<object>b[2] << 128) | (<object>b[1] << 64) | <object>b[0]


cdef int _from_int(object mask, uint64_t* out) except -1:
    # A Python int of up to 256 bits into four words. to_bytes does the range check (negative or
    # wider than 256 bits raise OverflowError) and the byte loop keeps the result independent of
    # the host's endianness.
    cdef bytes raw
    cdef const unsigned char* p
    cdef uint64_t word
    cdef int w, i
    if type(mask) is not int:
        mask = mask.__index__()
    if not mask:
        bits_clear(out)
        return 0
    try:
        raw = mask.to_bytes(32, "little")
    except OverflowError:
        raise ValueError(f"blocked mask {mask:#x} is not a set of stops 0..255") from None
    p = raw
    for w in range(4):
        word = 0
        for i in range(8):
            word |= (<uint64_t>p[w * 8 + i]) << (8 * i)
        out[w] = word
    return 0


cdef class LocationTracker:
    """Dr. Factor's possible stops as the detectives know them (see solver.games.police07.bitsets)."""

    def __init__(self, board):
        table = neighbour_words(board)
        cdef const uint64_t[::1] view = table
        self._table = table
        self.nbr = &view[0]
        self.num_stops = board.num_stops
        self.start = 0
        self.n_moves = 0
        bits_clear(self.now)

    # --- C level (no checks) ---------------------------------------------------------------------
    cdef void c_reset(self, int stop) noexcept nogil:
        self.start = stop
        self.n_moves = 0
        bits_clear(self.now)
        bits_set(self.now, stop)

    cdef int c_factor_move(self, int line_mask, const uint64_t* blocked, int shown) noexcept nogil:
        cdef uint64_t image[4]
        if self.n_moves >= TRACK_MAX_MOVES:
            return -1
        bits_copy(&self.befores[self.n_moves * 4], self.now)
        self.lines[self.n_moves] = line_mask
        self.n_moves += 1
        # One line or a joker: one precomputed block, one OR per stop; any other mix: line by line.
        if line_mask == 15:
            bits_expand_block(image, self.now, self.nbr + ANY_LINE_BLOCK * 1024)
        elif line_mask & (line_mask - 1) == 0:
            bits_expand_block(image, self.now, self.nbr + _LINE_OF_BIT[line_mask] * 1024)
        else:
            bits_expand(image, self.now, self.nbr, line_mask)
        bits_andnot(image, blocked)
        if shown:
            bits_keep(image, shown)
        bits_copy(self.now, image)
        return bits_count(self.now)

    cdef int c_keep(self, int stop) noexcept nogil:
        bits_keep(self.now, stop)
        return bits_count(self.now)

    cdef int c_strike(self, int stop) noexcept nogil:
        bits_unset(self.now, stop)
        return bits_count(self.now)

    cdef int c_drop_cornered(self, int line_mask, const uint64_t* blocked) noexcept nogil:
        bits_drop_cornered(self.now, self.nbr, line_mask, blocked)
        return bits_count(self.now)

    cdef int c_count(self) noexcept nogil:
        return bits_count(self.now)

    cdef int c_sample_path(self, SplitMix* rng, int last, int* out) noexcept nogil:
        cdef uint64_t preds[4]
        cdef int k, stop = last
        if last < 1 or last > 255 or not bits_has(self.now, last):
            return -1
        out[self.n_moves] = last
        for k in range(self.n_moves - 1, -1, -1):
            bits_stop_nbrs(preds, self.nbr, stop, self.lines[k])
            bits_and(preds, &self.befores[k * 4])
            # Never empty: every stop of a set after move k was reached from the set before it.
            stop = bits_nth(preds, <int>sm_below(rng, <unsigned int>bits_count(preds)))
            out[k] = stop
        return self.n_moves + 1

    cdef void c_copy_from(self, LocationTracker other) noexcept:
        self._table = other._table
        self.nbr = other.nbr
        self.num_stops = other.num_stops
        self.start = other.start
        self.n_moves = other.n_moves
        bits_copy(self.now, other.now)
        memcpy(self.befores, other.befores, other.n_moves * 4 * sizeof(uint64_t))
        memcpy(self.lines, other.lines, other.n_moves * sizeof(int))

    # --- Python level (checked, as the pure twin) ---------------------------------------------------
    cdef int _check_stop(self, int stop) except -1:
        if stop < 1 or stop > self.num_stops:
            raise ValueError(f"{stop} is not a stop (1..{self.num_stops})")
        return 0

    cdef int _move_index(self, int k) except -1:
        if k < 0 or k >= self.n_moves:
            raise IndexError(f"{self.n_moves} moves tracked, no move {k}")
        return k

    @property
    def mask(self):
        """The possible stops now, as a bitset (bit s set <=> stop s)."""
        return _to_int(self.now)

    @property
    def num_moves(self):
        """Dr. Factor's moves fed in since the last reset."""
        return self.n_moves

    def count(self):
        """How many stops he may be at."""
        return bits_count(self.now)

    def stops(self):
        """The possible stops in increasing order."""
        cdef int n = bits_count(self.now)
        return [bits_nth(self.now, i) for i in range(n)]

    def contains(self, int stop):
        """True when he may be at ``stop`` (False for any number that is not a stop)."""
        return 0 < stop <= self.num_stops and bits_has(self.now, stop)

    def nth(self, int i):
        """The ``i``-th possible stop (0-based, increasing); IndexError outside 0..count()-1."""
        cdef int n = bits_count(self.now)
        if i < 0 or i >= n:
            raise IndexError(f"location set has {n} stops, no index {i}")
        return bits_nth(self.now, i)

    def move_lines(self, int k):
        """The line mask of move ``k`` (0-based since the reset)."""
        return self.lines[self._move_index(k)]

    def before(self, int k):
        """The set just before move ``k`` (after every strike and show that came before it)."""
        return _to_int(&self.befores[self._move_index(k) * 4])

    def predecessors(self, int k, int stop):
        """The stops of ``before(k)`` from which move ``k`` could have reached ``stop``."""
        cdef uint64_t preds[4]
        self._move_index(k)
        self._check_stop(stop)
        bits_stop_nbrs(preds, self.nbr, stop, self.lines[k])
        bits_and(preds, &self.befores[k * 4])
        return _to_int(preds)

    def history(self):
        """``(line mask, set before)`` per move, oldest first."""
        return [(self.lines[k], _to_int(&self.befores[k * 4])) for k in range(self.n_moves)]

    def reset(self, int start_stop):
        """Start over: he stands on ``start_stop`` and has made no move."""
        self._check_stop(start_stop)
        self.c_reset(start_stop)

    def factor_move(self, int line_mask, blocked_mask, int shown_stop=0):
        """Feed one Dr. Factor move (see the pure twin); returns how many stops he may be at now."""
        cdef uint64_t blocked[4]
        if line_mask < 1 or line_mask > 15:
            raise ValueError(f"line mask {line_mask} is not 1..15")
        _from_int(blocked_mask, blocked)
        if shown_stop:
            self._check_stop(shown_stop)
        if self.n_moves >= TRACK_MAX_MOVES:
            raise ValueError(f"more than {TRACK_MAX_MOVES} Dr. Factor moves since the reset")
        return self.c_factor_move(line_mask, blocked, shown_stop)

    def show(self, int stop):
        """He shows himself at ``stop``: the set becomes ``{stop}`` or empty."""
        self._check_stop(stop)
        return self.c_keep(stop)

    def strike(self, int stop):
        """A detective landed on ``stop`` and did not catch him: he is not there."""
        self._check_stop(stop)
        return self.c_strike(stop)

    def capture(self, int stop):
        """A detective caught him at ``stop``: the set becomes ``{stop}`` (or empty if impossible)."""
        self._check_stop(stop)
        return self.c_keep(stop)

    def drop_cornered(self, int line_mask, blocked_mask):
        """His turn went on: strike out every stop from which he had no legal move (see the pure
        twin for the rule); returns how many stops he may be at now."""
        cdef uint64_t blocked[4]
        if line_mask < 0 or line_mask > 15:
            raise ValueError(f"line mask {line_mask} is not 0..15")
        _from_int(blocked_mask, blocked)
        return self.c_drop_cornered(line_mask, blocked)

    def undo(self):
        """Take back the last move and every update after it."""
        if self.n_moves == 0:
            raise ValueError("no Dr. Factor move to undo")
        self.n_moves -= 1
        bits_copy(self.now, &self.befores[self.n_moves * 4])

    def sample_path(self, rng, int last):
        """A path consistent with every update, drawn backwards from ``last`` with a SplitMix64."""
        cdef SplitMix r
        cdef int out[33]    # TRACK_MAX_MOVES + 1
        cdef int n
        if not (0 < last <= self.num_stops and bits_has(self.now, last)):
            raise ValueError(f"stop {last} is not a possible location ({bits_count(self.now)} stops)")
        r.state = rng.state
        n = self.c_sample_path(&r, last, out)
        rng.state = r.state
        return [out[i] for i in range(n)]

    def copy(self):
        """An independent copy (sharing the board's read-only masks)."""
        cdef LocationTracker other = LocationTracker.__new__(LocationTracker)
        other.c_copy_from(self)
        return other
