"""Stop sets as bitsets, and the possible-location tracker built on them (pure-Python reference).

A set of Police 07 stops is an int: bit ``s`` is set when stop ``s`` is in the set (stops are
1..255, bit 0 is never used). The compiled twin (``ext/p07belief.pyx``) keeps the same set in four
uint64 words, in the layout of ``solver/_ext/p07bits.pxd``::

    bit:    255 ........ 192 | 191 ........ 128 | 127 ......... 64 | 63 ........... 0
    word:          w = 3     |        w = 2     |        w = 1     |        w = 0
    stop s lives in word s >> 6, bit s & 63

Neighbour masks. ``neighbour_masks(board)[line][s]`` is the set of stops one link of ``line`` away
from ``s`` (0 taxi, 1 bus, 2 metro, 3 water). :func:`neighbour_words` holds the same masks for the
kernels as one flat read-only uint64 array, one block of 256 stops per line and a fifth block
(:data:`ANY_LINE_BLOCK`) with their union, so a joker spreads with one OR per stop, not four::

    nbr[((line * 256) + s) * 4 + w]      line 0..4, s 0..255, w 0..3
    line 0: [s=0: w0 w1 w2 w3][s=1: w0 .. w3] ... [s=255: ...]   then line 1, 2, 3, 4 (= any line)

A ticket rides a *line mask*: bit ``line`` set for every line it may ride (:data:`TICKET_LINES`;
a joker rides all four, the water bus included, which only Dr. Factor can ride).

The tracker (:class:`LocationTracker`) is the detectives' knowledge of where Dr. Factor is: the set
starts at his start stop; each move he makes spreads it one link along the ticket's lines, minus
the stops detectives stand on when he moves; a shown move or a voluntary show narrows it to one
stop; a detective who lands on a stop without catching him strikes it out; and once his turn has
gone on past a point where the rules would have ended it had he no legal move, every stop from which
he has none is struck out (:meth:`LocationTracker.drop_cornered`). It keeps the set from before
every move, so a whole path consistent with what the detectives saw can be drawn backwards
from any stop of the current set (Nijssen & Winands 2012, "Monte-Carlo Tree Search for the
Hide-and-Seek Game Scotland Yard", IEEE TCIAIG 4(4): determinization over the possible locations).

:func:`make_tracker` returns the compiled tracker when it is built and the pure-Python one
otherwise (or under ``COPSOLVER_PUREPYTHON=1``); both have the same methods and the same results,
which ``tests/test_bitsets.py`` checks on thousands of games.
"""

from __future__ import annotations

from functools import lru_cache, reduce
from operator import index, or_
from typing import TYPE_CHECKING, Any, Final, Protocol, Self, TypeAlias

import numpy as np
import numpy.typing as npt

from solver._accel import load_ext
from solver.core.rng import SplitMix64
from solver.games.police07.board import Board, Line

if TYPE_CHECKING:
    from collections.abc import Iterable

Stop: TypeAlias = int
#: A set of stops: bit ``s`` set <=> stop ``s`` in the set.
StopMask: TypeAlias = int
#: Lines a ticket rides: bit ``line`` set for each :class:`~solver.games.police07.board.Line`.
LineMask: TypeAlias = int

NUM_LINES: Final = 4
#: Block of :func:`neighbour_words` holding the union of the four lines (what a joker rides).
ANY_LINE_BLOCK: Final = 4
MAX_STOP: Final = 255
WORDS: Final = 4  # uint64 words per set in the compiled layout (256 bits)
#: Dr. Factor makes at most 24 moves (the rules' LAST_MOVE); room is left for boards and tests that
#: push further. Fixed so the compiled tracker can keep its history inline and copy it with memcpy.
MAX_MOVES: Final = 32

TAXI: Final[LineMask] = 1 << Line.TAXI
BUS: Final[LineMask] = 1 << Line.BUS
METRO: Final[LineMask] = 1 << Line.METRO
WATER: Final[LineMask] = 1 << Line.WATER
ALL_LINES: Final[LineMask] = TAXI | BUS | METRO | WATER
#: Line mask per ticket kind: taxi, bus, metro, joker (codec.Ticket order; a double rides nothing).
TICKET_LINES: Final[tuple[LineMask, ...]] = (TAXI, BUS, METRO, ALL_LINES)

_FULL: Final = (1 << (MAX_STOP + 1)) - 1  # every representable stop, bit 0 included


def stop_mask(stops: Iterable[Stop]) -> StopMask:
    """The bitset of ``stops``."""
    mask = 0
    for s in stops:
        mask |= 1 << s
    return mask


@lru_cache(maxsize=1)
def _byte_stops() -> tuple[tuple[tuple[Stop, ...], ...], ...]:
    # [byte index b][byte value v] -> the stops whose bits v sets in byte b of a set. Reading a set
    # byte by byte through this table is about twice as fast in Python as peeling off its lowest
    # bit one at a time; built on first use (8,192 small tuples).
    return tuple(
        tuple(tuple(8 * b + i for i in range(8) if v >> i & 1) for v in range(256)) for b in range(WORDS * 8)
    )


def mask_stops(mask: StopMask) -> list[Stop]:
    """The stops of ``mask`` in increasing order."""
    return [s for per_value, byte in zip(_byte_stops(), mask.to_bytes(WORDS * 8, "little"), strict=True)
            for s in per_value[byte]]


@lru_cache(maxsize=16)
def neighbour_masks(board: Board) -> tuple[tuple[StopMask, ...], ...]:
    """``[line][stop]`` -> the set of stops one link of ``line`` away (index 0 is the empty set).

    Cached per board (a :class:`Board` hashes by identity), so every tracker on a board shares one.
    """
    return tuple(
        tuple(stop_mask(board.neighbours[line][s]) for s in range(board.num_stops + 1)) for line in Line
    )


@lru_cache(maxsize=128)
def union_masks(board: Board, line_mask: LineMask) -> tuple[StopMask, ...]:
    """``[stop]`` -> the stops one link of any line in ``line_mask`` away (cached per board and mask).

    The pure twins expand through one precomputed union per line mask, one OR per stop in the set
    instead of one per stop and line; the result is the same union either way.
    """
    per_line = neighbour_masks(board)
    lines = [line for line in range(NUM_LINES) if line_mask >> line & 1]
    return tuple(reduce(or_, (per_line[line][s] for line in lines), 0) for s in range(board.num_stops + 1))


@lru_cache(maxsize=16)
def neighbour_words(board: Board) -> npt.NDArray[np.uint64]:
    """The neighbour masks as a flat read-only uint64 array in the p07bits.pxd layout, with the
    any-line block appended (see the module docstring; cached per board)."""
    table = np.zeros((NUM_LINES + 1) * 256 * WORDS, dtype=np.uint64)
    blocks = (*neighbour_masks(board), union_masks(board, ALL_LINES))
    for line, per_stop in enumerate(blocks):
        for s, mask in enumerate(per_stop):
            for w in range(WORDS):
                table[((line * 256) + s) * WORDS + w] = (mask >> (64 * w)) & 0xFFFF_FFFF_FFFF_FFFF
    table.setflags(write=False)  # shared by every tracker on the board through the cache
    return table


def factor_lines(taxi: int, bus: int, metro: int, joker: int) -> LineMask:
    """The lines Dr. Factor can ride with this ticket stock, as the rules' legal moves read it
    (``solver/games/police07/_moves.py``): a count of 0 bars a kind and one below 0 is unlimited; a
    joker rides all four lines, the water bus included; 0 when he holds no usable ticket."""
    if joker != 0:
        return ALL_LINES
    return (TAXI if taxi else 0) | (BUS if bus else 0) | (METRO if metro else 0)


def movable(mask: StopMask, moves: tuple[StopMask, ...], blocked_mask: StopMask) -> StopMask:
    """The stops ``s`` of ``mask`` with a stop of ``moves[s]`` outside ``blocked_mask``: where he has
    a legal move (``moves``: :func:`union_masks` of the lines he can ride)."""
    keep = 0
    for per_value, byte in zip(_byte_stops(), mask.to_bytes(WORDS * 8, "little"), strict=True):
        for s in per_value[byte]:
            if moves[s] & ~blocked_mask:
                keep |= 1 << s
    return keep


class Tracker(Protocol):
    """What both twins offer (the pure :class:`LocationTracker` and ``solver._ext.p07belief``'s)."""

    @property
    def num_stops(self) -> int: ...
    @property
    def start(self) -> Stop: ...
    @property
    def mask(self) -> StopMask: ...
    @property
    def num_moves(self) -> int: ...
    def reset(self, start_stop: Stop) -> None: ...
    def factor_move(self, line_mask: LineMask, blocked_mask: StopMask, shown_stop: Stop = 0) -> int: ...
    def show(self, stop: Stop) -> int: ...
    def strike(self, stop: Stop) -> int: ...
    def capture(self, stop: Stop) -> int: ...
    def drop_cornered(self, line_mask: LineMask, blocked_mask: StopMask) -> int: ...
    def undo(self) -> None: ...
    def count(self) -> int: ...
    def stops(self) -> list[Stop]: ...
    def contains(self, stop: Stop) -> bool: ...
    def nth(self, i: int) -> Stop: ...
    def move_lines(self, k: int) -> LineMask: ...
    def before(self, k: int) -> StopMask: ...
    def predecessors(self, k: int, stop: Stop) -> StopMask: ...
    def history(self) -> list[tuple[LineMask, StopMask]]: ...
    def sample_path(self, rng: SplitMix64, last: Stop) -> list[Stop]: ...
    def copy(self) -> Self: ...


class LocationTracker:
    """Dr. Factor's possible stops as the detectives know them, with the set before each of his moves.

    Updates return the size of the set after them; an empty set means the moves fed in are not
    consistent (the caller decides what that means: a bad view, a dead search branch). Every
    argument is checked: a stop outside ``1..num_stops``, a line mask outside ``1..15``, a blocked
    mask outside ``0 <= m < 2**256`` or a move beyond :data:`MAX_MOVES` raises ``ValueError``
    (the compiled twin raises ``OverflowError`` instead for a stop or line mask that does not even
    fit a C int). A refused update changes nothing.

    >>> from solver.games.police07.board import load_board
    >>> t = LocationTracker(load_board())
    >>> t.reset(1)
    >>> t.factor_move(TAXI, blocked_mask=0)      # a hidden taxi move from stop 1
    3
    >>> t.stops()
    [2, 7, 8]
    >>> t.strike(7)                              # a detective reached 7 and found nobody
    2
    """

    __slots__ = ("_befores", "_board", "_lines", "_mask", "_num_stops", "_start")

    def __init__(self, board: Board) -> None:
        self._num_stops = board.num_stops
        self._board = board
        self._start: Stop = 0
        self._mask: StopMask = 0
        self._lines: list[LineMask] = []
        self._befores: list[StopMask] = []

    # --- reading --------------------------------------------------------------------------------
    @property
    def num_stops(self) -> int:
        """Stops on the board (stops are 1..num_stops)."""
        return self._num_stops

    @property
    def start(self) -> Stop:
        """The stop given to :meth:`reset` (0 before the first reset)."""
        return self._start

    @property
    def mask(self) -> StopMask:
        """The possible stops now, as a bitset."""
        return self._mask

    @property
    def num_moves(self) -> int:
        """Dr. Factor's moves fed in since the last reset."""
        return len(self._lines)

    def count(self) -> int:
        """How many stops he may be at."""
        return self._mask.bit_count()

    def stops(self) -> list[Stop]:
        """The possible stops in increasing order."""
        return mask_stops(self._mask)

    def contains(self, stop: Stop) -> bool:
        """True when he may be at ``stop`` (False for any number that is not a stop)."""
        stop = index(stop)
        return 0 < stop <= self._num_stops and bool(self._mask >> stop & 1)

    def nth(self, i: int) -> Stop:
        """The ``i``-th possible stop (0-based, increasing); IndexError outside ``0..count()-1``."""
        i = index(i)
        if not 0 <= i < self.count():
            raise IndexError(f"location set has {self.count()} stops, no index {i}")
        return _nth(self._mask, i)

    def move_lines(self, k: int) -> LineMask:
        """The line mask of move ``k`` (0-based since the reset)."""
        return self._lines[self._move_index(k)]

    def before(self, k: int) -> StopMask:
        """The set just before move ``k`` (after every strike and show that came before it)."""
        return self._befores[self._move_index(k)]

    def predecessors(self, k: int, stop: Stop) -> StopMask:
        """The stops of :meth:`before` ``(k)`` from which move ``k`` could have reached ``stop``."""
        k = self._move_index(k)
        stop = self._check_stop(stop)
        # Links are two-way, so "u reaches stop" is "u is a neighbour of stop".
        return self._befores[k] & self._union(self._lines[k])[stop]

    def history(self) -> list[tuple[LineMask, StopMask]]:
        """``(line mask, set before)`` per move, oldest first."""
        return list(zip(self._lines, self._befores, strict=True))

    # --- updating -------------------------------------------------------------------------------
    def reset(self, start_stop: Stop) -> None:
        """Start over: he stands on ``start_stop`` and has made no move."""
        start_stop = self._check_stop(start_stop)
        self._start = start_stop
        self._mask = 1 << start_stop
        self._lines.clear()
        self._befores.clear()

    def factor_move(self, line_mask: LineMask, blocked_mask: StopMask, shown_stop: Stop = 0) -> int:
        """Feed one Dr. Factor move: ``line_mask`` the ticket's lines (:data:`TICKET_LINES`),
        ``blocked_mask`` the stops detectives stand on as he moves, ``shown_stop`` the stop shown
        (0 when hidden). Returns how many stops he may be at now."""
        line_mask = index(line_mask)
        if not 1 <= line_mask <= ALL_LINES:
            raise ValueError(f"line mask {line_mask} is not 1..{ALL_LINES}")
        blocked_mask = _check_blocked(blocked_mask)
        if shown_stop:
            shown_stop = self._check_stop(shown_stop)
        if len(self._lines) >= MAX_MOVES:
            raise ValueError(f"more than {MAX_MOVES} Dr. Factor moves since the reset")
        before = self._mask
        self._lines.append(line_mask)
        self._befores.append(before)
        table = self._union(line_mask)
        image = 0
        for per_value, byte in zip(_byte_stops(), before.to_bytes(WORDS * 8, "little"), strict=True):
            for s in per_value[byte]:
                image |= table[s]
        image &= ~blocked_mask
        if shown_stop:
            image &= 1 << shown_stop
        self._mask = image
        return image.bit_count()

    def show(self, stop: Stop) -> int:
        """He shows himself at ``stop`` (a voluntary show): the set becomes ``{stop}`` or empty."""
        stop = self._check_stop(stop)
        self._mask &= 1 << stop
        return self._mask.bit_count()

    def strike(self, stop: Stop) -> int:
        """A detective landed on ``stop`` and did not catch him: he is not there."""
        stop = self._check_stop(stop)
        self._mask &= ~(1 << stop)
        return self._mask.bit_count()

    def capture(self, stop: Stop) -> int:
        """A detective caught him at ``stop``: the set becomes ``{stop}`` (or empty if impossible)."""
        return self.show(stop)

    def drop_cornered(self, line_mask: LineMask, blocked_mask: StopMask) -> int:
        """His turn went on: strike out every stop from which he had no legal move, that is no link
        of a line in ``line_mask`` (:func:`factor_lines` of his stock; 0: no usable ticket) to a stop
        outside ``blocked_mask`` (the detectives' stops). Returns how many stops he may be at now.

        The rule: the rulebook is silent on a Dr. Factor who cannot move; the rules engine
        (``solver/games/police07/rules.py``, its docstring's list of choices where the rulebook is
        silent) has him cornered, and the game over, when he must move and has no legal move. It
        checks at his turn start (unless he may still make a voluntary show), after the tickets he
        takes for a show, and between the two moves of a double; the caller feeds this update where
        such a check passed and the game went on.
        """
        line_mask = index(line_mask)
        if not 0 <= line_mask <= ALL_LINES:
            raise ValueError(f"line mask {line_mask} is not 0..{ALL_LINES}")
        blocked_mask = _check_blocked(blocked_mask)
        self._mask = movable(self._mask, self._union(line_mask), blocked_mask)
        return self._mask.bit_count()

    def undo(self) -> None:
        """Take back the last move and every update after it (the set is as it was before it)."""
        if not self._lines:
            raise ValueError("no Dr. Factor move to undo")
        self._lines.pop()
        self._mask = self._befores.pop()

    def sample_path(self, rng: SplitMix64, last: Stop) -> list[Stop]:
        """A path consistent with every update, drawn backwards from ``last`` (a stop of the set):
        ``path[k]`` is his stop before move ``k`` and ``path[-1] == last``; each earlier stop is
        uniform among the predecessors of the later one (``rng.below`` once per move)."""
        last = index(last)
        if not self.contains(last):
            raise ValueError(f"stop {last} is not a possible location ({self.count()} stops)")
        path = [last]
        stop = last
        for k in range(len(self._lines) - 1, -1, -1):
            preds = self._befores[k] & self._union(self._lines[k])[stop]
            # Never empty: every stop of a set after move k was reached from the set before it.
            stop = _nth(preds, rng.below(preds.bit_count()))
            path.append(stop)
        path.reverse()
        return path

    def copy(self) -> Self:
        """An independent copy (sharing the board's read-only masks)."""
        other = object.__new__(type(self))
        other._num_stops = self._num_stops
        other._board = self._board
        other._start = self._start
        other._mask = self._mask
        other._lines = self._lines.copy()
        other._befores = self._befores.copy()
        return other

    # --- internals ------------------------------------------------------------------------------
    def _union(self, line_mask: LineMask) -> tuple[StopMask, ...]:
        return union_masks(self._board, line_mask)

    def _check_stop(self, stop: Stop) -> Stop:
        stop = index(stop)  # a plain int from here on, as the compiled twin's C int
        if not 1 <= stop <= self._num_stops:
            raise ValueError(f"{stop} is not a stop (1..{self._num_stops})")
        return stop

    def _move_index(self, k: int) -> int:
        k = index(k)
        if not 0 <= k < len(self._lines):
            raise IndexError(f"{len(self._lines)} moves tracked, no move {k}")
        return k


def _check_blocked(blocked_mask: StopMask) -> StopMask:
    blocked_mask = index(blocked_mask)  # numpy ints would overflow in the shifts that use it
    if not 0 <= blocked_mask <= _FULL:
        raise ValueError(f"blocked mask {blocked_mask:#x} is not a set of stops 0..{MAX_STOP}")
    return blocked_mask


def _nth(mask: StopMask, i: int) -> Stop:
    # Drop the i lowest set bits, then the lowest remaining one is the answer.
    for _ in range(i):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


@lru_cache(maxsize=1)
def _tracker_class() -> Any:
    # Looked up on first use, not at import: the compiled module imports this one for its tables.
    ext = load_ext("p07belief")
    return LocationTracker if ext is None else ext.LocationTracker


def make_tracker(board: Board) -> Tracker:
    """A tracker for ``board``: the compiled one when built (and not switched off), else the pure one."""
    tracker: Tracker = _tracker_class()(board)
    return tracker
