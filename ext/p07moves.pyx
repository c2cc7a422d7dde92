# Compiled twin of solver/games/police07/_moves.py (legal_moves): the same signature and the same
# results. Change both together; tests/test_p07moves_twin.py compares them on thousands of boards.
"""Legal-move generation for Police 07, compiled.

The data layout (``flatten``) and the action encoding ``combo * 256 + stop`` are documented in
``solver/games/police07/_moves.py``; this module reads the same arrays.

setup.py compiles it with ``boundscheck`` and ``wraparound`` off. The loop therefore checks, itself,
each index it takes from the data (one comparison each), so that a malformed board raises
``IndexError`` instead of reading outside a buffer.
"""

cdef enum:
    NUM_COMBOS = 7     # 0..2: own taxi, bus, metro ticket; 3..6: a joker on taxi, bus, metro, water
    JOKER_COMBO = 3
    COMBO_STRIDE = 256  # a stop fits in the low byte of an action


def legal_moves(
    const int[:] flat,
    const int[:] offsets,
    Py_ssize_t num_stops,
    Py_ssize_t pos,
    long taxi,
    long bus,
    long metro,
    long joker,
    const unsigned char[:] occupied,
    bint factor,
):
    """Return the sorted move actions of a piece at ``pos``.

    ``flat`` and ``offsets`` are int32 buffers from ``flatten`` (numpy arrays work); ``occupied`` is
    a byte buffer (``bytes``, ``bytearray``, uint8 array) where non-zero blocks the stop. Ticket
    counts below zero mean unlimited. Detectives (``factor`` false) ride taxi, bus and metro only;
    Dr. Factor may also spend a joker on any line, the water bus included.

    Raises ``IndexError`` when ``pos`` is not in 0..num_stops or the data points outside a buffer.
    """
    cdef list out = []
    cdef long counts[3]
    cdef Py_ssize_t width = num_stops + 1
    cdef Py_ssize_t n_flat = flat.shape[0]
    cdef Py_ssize_t n_offsets = offsets.shape[0]
    cdef Py_ssize_t n_occupied = occupied.shape[0]
    cdef bint jokers = factor and joker != 0
    cdef Py_ssize_t combo, line, base, start, end, i
    cdef long code
    cdef int stop

    if pos < 0 or pos > num_stops:
        raise IndexError(f"pos {pos} is not a stop (0..{num_stops})")
    counts[0] = taxi
    counts[1] = bus
    counts[2] = metro

    # Combos in increasing order and each neighbour slice sorted: the output comes out sorted.
    for combo in range(NUM_COMBOS):
        if combo < JOKER_COMBO:
            if counts[combo] == 0:
                continue
            line = combo
        else:
            if not jokers:
                break
            line = combo - JOKER_COMBO
        base = line * width + pos
        if base + 1 >= n_offsets:
            raise IndexError(f"offsets has {n_offsets} entries; line {line} stop {pos} needs {base + 2}")
        start = offsets[base]
        end = offsets[base + 1]
        if start < end and (start < 0 or end > n_flat):
            raise IndexError(f"offsets slice {start}..{end} is outside flat (length {n_flat})")
        code = combo * COMBO_STRIDE
        for i in range(start, end):
            stop = flat[i]
            # One unsigned comparison rejects negative stops and stops past the occupied mask.
            if <size_t>stop >= <size_t>n_occupied:
                raise IndexError(f"stop {stop} is outside occupied (length {n_occupied})")
            if occupied[stop] == 0:
                out.append(code + stop)
    return out
