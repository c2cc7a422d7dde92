"""Explicit randomness: one seed at the top, ``numpy.random.Generator`` passed everywhere below."""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.core.errors import BadStateError


def make_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """Return a Generator: ``seed`` itself if it already is one, else a fresh PCG64 seeded from it."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def spawn(rng: np.random.Generator, n: int) -> list[np.random.Generator]:
    """Return ``n`` independent child generators of ``rng`` (one per seat, per game, ...)."""
    return list(rng.spawn(n))


#: The bit generator whose state :func:`rng_to_json` writes (``make_rng``'s, numpy's default).
_BIT_GENERATOR = "PCG64"


def rng_to_json(rng: np.random.Generator) -> dict[str, Any]:
    """The exact state of a PCG64 ``rng`` as JSON, so a bot can stop and later go on drawing.

    The two 128-bit numbers are decimal strings: JSON readers in other languages keep only 53 bits
    of a number. What the generator would *spawn* is not part of it (``spawn`` uses the seed
    sequence it was built from). :func:`restore_rng` reads it back.
    """
    state = rng.bit_generator.state
    kind = state.get("bit_generator")
    if kind != _BIT_GENERATOR:
        raise BadStateError(f"generator state: only {_BIT_GENERATOR} is written, not {kind!r}")
    return {
        "bit_generator": _BIT_GENERATOR,
        "state": str(state["state"]["state"]),
        "inc": str(state["state"]["inc"]),
        "has_uint32": int(state["has_uint32"]),
        "uinteger": int(state["uinteger"]),
    }


def restore_rng(rng: np.random.Generator, data: Any) -> None:
    """Set PCG64 ``rng`` (in place: objects sharing it follow) to the state :func:`rng_to_json` wrote.

    Everything is checked before ``rng`` changes; a fault raises :class:`BadStateError` naming it.
    """
    if not isinstance(data, dict):
        raise BadStateError(f"generator state must be an object, not {type(data).__name__}")
    if data.get("bit_generator") != _BIT_GENERATOR:
        raise BadStateError(f"generator state: bit_generator must be {_BIT_GENERATOR!r}")
    if rng.bit_generator.state.get("bit_generator") != _BIT_GENERATOR:
        raise BadStateError(f"generator state: this generator is not a {_BIT_GENERATOR}")
    state = _uint_text(data, "state", 128)
    inc = _uint_text(data, "inc", 128)
    if inc % 2 == 0:
        raise BadStateError("generator state: inc must be odd (a PCG64 stream increment)")
    has_uint32, uinteger = data.get("has_uint32"), data.get("uinteger")
    if has_uint32 not in (0, 1) or isinstance(has_uint32, bool):
        raise BadStateError("generator state: has_uint32 must be 0 or 1")
    if isinstance(uinteger, bool) or not isinstance(uinteger, int) or not 0 <= uinteger < 1 << 32:
        raise BadStateError("generator state: uinteger must be an int in [0, 2**32)")
    rng.bit_generator.state = {
        "bit_generator": _BIT_GENERATOR,
        "state": {"state": state, "inc": inc},
        "has_uint32": has_uint32,
        "uinteger": uinteger,
    }


def _uint_text(data: dict[str, Any], name: str, bits: int) -> int:
    text = data.get(name)
    if not isinstance(text, str) or not text.isascii() or not text.isdigit() or len(text) > 40:
        raise BadStateError(f"generator state: {name} must be a decimal string")
    value = int(text)
    if value >= 1 << bits:
        raise BadStateError(f"generator state: {name} must be below 2**{bits}")
    return value
