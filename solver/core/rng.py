"""SplitMix64: the small generator search and playouts draw from, with a Cython twin (solver/_ext/rng.pxd).

Search must give the same choices and statistics in pure Python and in the compiled kernel for the
same seed, so both draw from this one generator with the same integer arithmetic. It is seeded from
the caller's ``numpy.random.Generator`` (DESIGN.md: randomness is passed in), never from a global.
Reference: Steele, Lea & Flood 2014, "Fast splittable pseudorandom number generators" (SplitMix).
"""

from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """A 64-bit SplitMix generator; ``below(n)`` and ``uniform()`` match the C twin exactly."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    @classmethod
    def from_generator(cls, rng: np.random.Generator) -> SplitMix64:
        """Seed from one draw of ``rng``."""
        return cls(int(rng.integers(0, 1 << 63)))

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GOLDEN) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An int in ``[0, n)`` for ``0 < n < 2**32`` (Lemire's multiply-shift on the top 32 bits)."""
        return ((self.next() >> 32) * n) >> 32

    def uniform(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)
