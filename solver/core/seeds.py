"""Explicit randomness: one seed at the top, ``numpy.random.Generator`` passed everywhere below."""

from __future__ import annotations

import numpy as np


def make_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """Return a Generator: ``seed`` itself if it already is one, else a fresh PCG64 seeded from it."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def spawn(rng: np.random.Generator, n: int) -> list[np.random.Generator]:
    """Return ``n`` independent child generators of ``rng`` (one per seat, per game, ...)."""
    return list(rng.spawn(n))
