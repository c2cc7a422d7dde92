"""Legal-move generation for Police 07: the pure-Python twin of ``ext/p07moves.pyx``.

The board's neighbour lists are flattened into two int32 arrays (see :func:`flatten`)::

    offsets[line * (S + 1) + stop] .. offsets[line * (S + 1) + stop + 1]   -> a slice of ``flat``
    flat[i]                                                                -> a neighbouring stop

so the compiled kernel and this twin read the same data. A move action is
``combo * 256 + stop`` with combo 0 taxi, 1 bus, 2 metro (own ticket on own line) and 3..6 a joker
ridden on taxi, bus, metro or water; the output is therefore sorted when combos are generated in
order and each neighbour slice is sorted.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

NUM_LINES = 4  # taxi, bus, metro, water
JOKER_COMBO = 3  # combos 3..6 are a joker on line combo - 3


def flatten(
    neighbours: Sequence[Sequence[Sequence[int]]],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Flatten ``neighbours[line][stop]`` into ``(flat, offsets)`` int32 arrays."""
    flat: list[int] = []
    offsets: list[int] = [0]
    for per_line in neighbours:
        for ns in per_line:
            flat.extend(ns)
            offsets.append(len(flat))
    return np.asarray(flat, dtype=np.int32), np.asarray(offsets, dtype=np.int32)


def legal_moves(
    flat: Sequence[int],
    offsets: Sequence[int],
    num_stops: int,
    pos: int,
    taxi: int,
    bus: int,
    metro: int,
    joker: int,
    occupied: bytes | bytearray,
    factor: bool,
) -> list[int]:
    """Return the sorted move actions of a piece at ``pos``.

    Ticket counts below zero mean unlimited; ``occupied[stop]`` non-zero blocks the stop. Detectives
    (``factor`` False) ride taxi, bus and metro only; Dr. Factor may also spend a joker on any line,
    the water bus included (rulebook, "Rules of the Game", last paragraph).
    """
    out: list[int] = []
    width = num_stops + 1
    counts = (taxi, bus, metro)
    for line in range(3):
        if counts[line] == 0:
            continue
        base = line * width + pos
        for i in range(offsets[base], offsets[base + 1]):
            stop = flat[i]
            if not occupied[stop]:
                out.append(line * 256 + stop)
    if factor and joker != 0:
        for line in range(NUM_LINES):
            base = line * width + pos
            combo = (JOKER_COMBO + line) * 256
            for i in range(offsets[base], offsets[base + 1]):
                stop = flat[i]
                if not occupied[stop]:
                    out.append(combo + stop)
    return out
