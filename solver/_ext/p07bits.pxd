# Bitsets over Police 07 stops (0..255) as four uint64 words, for possible-location sets.
# Inline functions only (no .pyx). The pure-Python twin uses Python ints as bitsets
# (bit s set <=> stop s in the set); solver/games/police07/bitsets.py documents the layout.
#
#   word w holds stops 64*w .. 64*w+63;  bit (s & 63) of word (s >> 6) is stop s
#
# Neighbour masks: nbr[((line * 256) + s) * 4 + w] is word w of the set of stops one link of
# ``line`` (0 taxi, 1 bus, 2 metro, 3 water) away from stop s.

from libc.stdint cimport uint64_t

cdef enum:
    BITS_WORDS = 4


cdef inline void bits_clear(uint64_t* b) noexcept nogil:
    b[0] = 0; b[1] = 0; b[2] = 0; b[3] = 0


cdef inline void bits_copy(uint64_t* dst, const uint64_t* src) noexcept nogil:
    dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2]; dst[3] = src[3]


cdef inline void bits_set(uint64_t* b, int stop) noexcept nogil:
    b[stop >> 6] |= (<uint64_t>1) << (stop & 63)


cdef inline void bits_unset(uint64_t* b, int stop) noexcept nogil:
    b[stop >> 6] &= ~((<uint64_t>1) << (stop & 63))


cdef inline bint bits_has(const uint64_t* b, int stop) noexcept nogil:
    return (b[stop >> 6] >> (stop & 63)) & 1


cdef inline int bits_count(const uint64_t* b) noexcept nogil:
    return (__builtin_popcountll(b[0]) + __builtin_popcountll(b[1])
            + __builtin_popcountll(b[2]) + __builtin_popcountll(b[3]))


cdef inline bint bits_empty(const uint64_t* b) noexcept nogil:
    return (b[0] | b[1] | b[2] | b[3]) == 0


cdef inline void bits_andnot(uint64_t* b, const uint64_t* mask) noexcept nogil:
    b[0] &= ~mask[0]; b[1] &= ~mask[1]; b[2] &= ~mask[2]; b[3] &= ~mask[3]


cdef inline void bits_and(uint64_t* b, const uint64_t* mask) noexcept nogil:
    b[0] &= mask[0]; b[1] &= mask[1]; b[2] &= mask[2]; b[3] &= mask[3]


cdef inline void bits_expand(uint64_t* out, const uint64_t* src, const uint64_t* nbr,
                             int line_mask) noexcept nogil:
    # out = every stop one link away from a stop of src, on the lines whose bit is in line_mask
    cdef int w, line, s
    cdef uint64_t word
    cdef const uint64_t* m
    bits_clear(out)
    for w in range(BITS_WORDS):
        word = src[w]
        while word:
            s = (w << 6) | __builtin_ctzll(word)
            word &= word - 1
            for line in range(4):
                if line_mask & (1 << line):
                    m = nbr + ((line * 256) + s) * 4
                    out[0] |= m[0]; out[1] |= m[1]; out[2] |= m[2]; out[3] |= m[3]


cdef inline int bits_nth(const uint64_t* b, int n) noexcept nogil:
    # the n-th (0-based) stop of b in increasing order, or -1
    cdef int w, c
    cdef uint64_t word
    for w in range(BITS_WORDS):
        c = __builtin_popcountll(b[w])
        if n < c:
            word = b[w]
            while n > 0:
                word &= word - 1
                n -= 1
            return (w << 6) | __builtin_ctzll(word)
        n -= c
    return -1


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


# --- added for the location tracker (ext/p07belief.pyx) -----------------------------------------
# solver.games.police07.bitsets.neighbour_words builds nbr in the layout above with a fifth block appended
# (line index 4: the union of the four lines, what a joker rides); bits_expand never reads it.

cdef inline void bits_keep(uint64_t* b, int stop) noexcept nogil:
    # b = b & {stop}: a reveal or a capture narrows the set to one stop (or empties it)
    cdef bint has = bits_has(b, stop)
    bits_clear(b)
    if has:
        bits_set(b, stop)


cdef inline void bits_stop_nbrs(uint64_t* out, const uint64_t* nbr, int stop,
                                int line_mask) noexcept nogil:
    # out = the stops one link away from ``stop`` on the lines in line_mask (links are two-way, so
    # these are also the stops from which ``stop`` is one link away)
    cdef int line
    cdef const uint64_t* m
    bits_clear(out)
    for line in range(4):
        if line_mask & (1 << line):
            m = nbr + ((line * 256) + stop) * 4
            out[0] |= m[0]; out[1] |= m[1]; out[2] |= m[2]; out[3] |= m[3]


cdef inline void bits_expand_block(uint64_t* out, const uint64_t* src,
                                   const uint64_t* block) noexcept nogil:
    # out = the union of block[s] over the stops s of src, where block is one line's 256 masks
    # (nbr + line * 1024). One OR per stop: a joker expands through a precomputed union block
    # instead of four line blocks.
    cdef int w, s
    cdef uint64_t word
    cdef const uint64_t* m
    bits_clear(out)
    for w in range(BITS_WORDS):
        word = src[w]
        while word:
            s = (w << 6) | __builtin_ctzll(word)
            word &= word - 1
            m = block + s * 4
            out[0] |= m[0]; out[1] |= m[1]; out[2] |= m[2]; out[3] |= m[3]


cdef inline void bits_drop_cornered(uint64_t* b, const uint64_t* nbr, int line_mask,
                                    const uint64_t* blocked) noexcept nogil:
    # b = the stops of b from which one link of a line in line_mask reaches a stop outside blocked:
    # where Dr. Factor has a legal move (a cornered stop cannot be his once his turn has gone on).
    # Shared by the location tracker (p07belief.pyx) and the simulator's public set (p07sim.pyx).
    cdef int w, s
    cdef uint64_t word
    cdef uint64_t moves[4]
    for w in range(BITS_WORDS):
        word = b[w]
        while word:
            s = (w << 6) | __builtin_ctzll(word)
            word &= word - 1
            bits_stop_nbrs(moves, nbr, s, line_mask)
            bits_andnot(moves, blocked)
            if bits_empty(moves):
                bits_unset(b, s)
