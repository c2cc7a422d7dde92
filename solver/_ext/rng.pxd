# SplitMix64, the C twin of solver/core/rng.py (same arithmetic, same outputs for the same seed).
# Inline functions only (no .pyx): kernels use them with
#   from solver._ext.rng cimport SplitMix, sm_next, sm_below, sm_uniform

from libc.stdint cimport uint64_t


cdef struct SplitMix:
    uint64_t state


cdef inline uint64_t sm_next(SplitMix* r) noexcept nogil:
    cdef uint64_t z
    r.state += <uint64_t>0x9E3779B97F4A7C15ULL
    z = r.state
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline unsigned int sm_below(SplitMix* r, unsigned int n) noexcept nogil:
    # n < 2**32: top 32 bits times n, shifted: Lemire's multiply-shift without rejection
    return <unsigned int>(((sm_next(r) >> 32) * <uint64_t>n) >> 32)


cdef inline double sm_uniform(SplitMix* r) noexcept nogil:
    return <double>(sm_next(r) >> 11) * (1.0 / 9007199254740992.0)
