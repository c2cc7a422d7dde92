"""``ext/p07moves.pyx`` against its pure-Python twin ``solver.games.police07._moves``.

Random boards (30-255 stops, four lines, sorted unique neighbour lists) drawn from seeded numpy
Generators; on each, random positions, ticket counts (zero, positive, negative = unlimited),
occupied masks and Dr. Factor / detective flags. The pure function is checked against the rules
(sorted, unique, every action a free neighbour on a line the piece may ride, none missing); the
compiled one must return exactly the same list. The compiled module is imported directly, so the
comparison runs even under ``COPSOLVER_PUREPYTHON=1`` whenever it has been built.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np
import numpy.typing as npt
import pytest

from solver.games.police07._moves import NUM_LINES, flatten, legal_moves

Neighbours = list[list[list[int]]]  # neighbours[line][stop] -> sorted stops


def _import_compiled() -> ModuleType | None:
    try:
        return importlib.import_module("solver._ext.p07moves")
    except ImportError:
        return None


compiled = _import_compiled()
needs_compiled = pytest.mark.skipif(
    compiled is None,
    reason="solver._ext.p07moves is not built (pip install -e . needs Cython and a C compiler)",
)

SEEDS = range(8)
BOARDS_PER_SEED = 6
CALLS_PER_BOARD = 100
TICKETS = (-5, -1, 0, 0, 0, 1, 2, 9)  # zero often: it is the branch that skips a whole line
DENSITIES = (0.0, 0.05, 0.3, 0.7, 1.0)
MEAN_DEGREE = (3.5, 1.0, 0.3, 0.05)  # taxi, bus, metro, water


@dataclass(frozen=True)
class Call:
    """One legal_moves call: a board and a piece on it."""

    neighbours: Neighbours
    flat: npt.NDArray[np.int32]
    offsets: npt.NDArray[np.int32]
    num_stops: int
    pos: int
    taxi: int
    bus: int
    metro: int
    joker: int
    occupied: bytes | bytearray
    factor: bool

    def args(self) -> tuple[object, ...]:
        return (
            self.flat,
            self.offsets,
            self.num_stops,
            self.pos,
            self.taxi,
            self.bus,
            self.metro,
            self.joker,
            self.occupied,
            self.factor,
        )


def random_neighbours(rng: np.random.Generator, num_stops: int) -> Neighbours:
    """Two-way random links per line; stop 0 is unused, as on the real board."""
    table: Neighbours = []
    for degree in MEAN_DEGREE:
        adjacent: list[set[int]] = [set() for _ in range(num_stops + 1)]
        n_links = int(rng.poisson(degree * num_stops / 2))
        ends = rng.integers(1, num_stops + 1, size=(n_links, 2))
        for a, b in ends.tolist():
            if a != b:
                adjacent[a].add(b)
                adjacent[b].add(a)
        table.append([sorted(s) for s in adjacent])
    return table


def random_occupied(rng: np.random.Generator, num_stops: int) -> bytes | bytearray:
    """A mask where any non-zero byte blocks the stop; half bytes, half bytearray."""
    blocked = rng.random(num_stops + 1) < rng.choice(DENSITIES)
    values = np.where(blocked, rng.integers(1, 256, size=num_stops + 1), 0).astype(np.uint8)
    return values.tobytes() if rng.random() < 0.5 else bytearray(values.tobytes())


def random_calls(seed: int) -> Iterator[Call]:
    rng = np.random.default_rng(seed)
    for b in range(BOARDS_PER_SEED):
        # The last board of each seed uses every stop number an action can encode.
        num_stops = 255 if b == BOARDS_PER_SEED - 1 else int(rng.integers(30, 201))
        neighbours = random_neighbours(rng, num_stops)
        flat, offsets = flatten(neighbours)
        for _ in range(CALLS_PER_BOARD):
            taxi, bus, metro, joker = (int(t) for t in rng.choice(TICKETS, size=4))
            yield Call(
                neighbours,
                flat,
                offsets,
                num_stops,
                pos=int(rng.integers(1, num_stops + 1)),
                taxi=taxi,
                bus=bus,
                metro=metro,
                joker=joker,
                occupied=random_occupied(rng, num_stops),
                factor=bool(rng.integers(2)),
            )


def check_rules(call: Call, moves: Sequence[int]) -> None:
    """Assert ``moves`` is exactly the rulebook's move list for ``call``."""
    moves = [int(m) for m in moves]
    assert moves == sorted(set(moves)), f"not sorted and unique: {moves}"
    counts = (call.taxi, call.bus, call.metro)
    jokers = call.factor and call.joker != 0
    for action in moves:
        combo, stop = divmod(action, 256)
        assert 0 <= combo < 3 + NUM_LINES, f"action {action}: combo {combo} out of range"
        line = combo if combo < 3 else combo - 3
        assert stop in call.neighbours[line][call.pos], f"action {action}: {stop} not a line-{line} neighbour"
        assert not call.occupied[stop], f"action {action}: stop {stop} is occupied"
        if combo < 3:
            assert counts[line] != 0, f"action {action}: no line-{line} ticket left"
        else:
            assert jokers, f"action {action}: joker move without a joker or by a detective"
    expected = {
        line * 256 + stop
        for line in range(3)
        if counts[line] != 0
        for stop in call.neighbours[line][call.pos]
        if not call.occupied[stop]
    }
    if jokers:
        expected |= {
            (3 + line) * 256 + stop
            for line in range(NUM_LINES)
            for stop in call.neighbours[line][call.pos]
            if not call.occupied[stop]
        }
    assert set(moves) == expected, f"missing moves: {sorted(expected - set(moves))}"


@pytest.mark.parametrize("seed", SEEDS)
def test_pure_follows_the_rules(seed: int) -> None:
    for call in random_calls(seed):
        check_rules(call, legal_moves(*call.args()))  # type: ignore[arg-type]


@needs_compiled
@pytest.mark.parametrize("seed", SEEDS)
def test_compiled_equals_pure(seed: int) -> None:
    assert compiled is not None
    for call in random_calls(seed):
        got = compiled.legal_moves(*call.args())
        assert type(got) is list and all(type(a) is int for a in got)
        assert got == legal_moves(*call.args()), call  # type: ignore[arg-type]


def test_real_board_every_stop() -> None:
    from solver.games.police07.board import load_board

    board = load_board()
    neighbours = [[list(ns) for ns in per_line] for per_line in board.neighbours]
    flat, offsets = flatten(board.neighbours)
    occupied = bytearray(board.num_stops + 1)
    for stop in board.start_stops[:5]:
        occupied[stop] = 1
    hands = [(10, 8, 4, 0, False), (0, 1, 0, 0, False), (-1, -1, -1, 5, True), (4, 3, 3, 0, True)]
    for pos in board.stops:
        for taxi, bus, metro, joker, factor in hands:
            call = Call(
                neighbours, flat, offsets, board.num_stops, pos, taxi, bus, metro, joker, occupied, factor
            )
            pure = legal_moves(*call.args())  # type: ignore[arg-type]
            check_rules(call, pure)
            if compiled is not None:
                assert compiled.legal_moves(*call.args()) == pure


@needs_compiled
def test_compiled_accepts_documented_buffers() -> None:
    assert compiled is not None
    call = next(iter(random_calls(99)))
    expected = legal_moves(*call.args())  # type: ignore[arg-type]
    strided_flat = np.repeat(call.flat, 2)[::2]  # a non-contiguous int32 view
    occupied_u8 = np.frombuffer(bytes(call.occupied), dtype=np.uint8)
    args = list(call.args())
    for flat, occupied in [(call.flat, bytes(call.occupied)), (strided_flat, occupied_u8)]:
        args[0], args[8] = flat, occupied
        assert compiled.legal_moves(*args) == expected


@needs_compiled
def test_compiled_rejects_bad_input_instead_of_reading_past_buffers() -> None:
    assert compiled is not None
    neighbours: Neighbours = [[[], [2], [1]], [[], [], []], [[], [], []], [[], [], []]]
    flat, offsets = flatten(neighbours)
    free = bytes(3)
    assert compiled.legal_moves(flat, offsets, 2, 1, 1, 0, 0, 0, free, False) == [2]
    with pytest.raises(IndexError):
        compiled.legal_moves(flat, offsets, 2, 3, 1, 0, 0, 0, free, False)  # pos past the board
    with pytest.raises(IndexError):
        compiled.legal_moves(flat, offsets, 2, -1, 1, 0, 0, 0, free, False)
    with pytest.raises(IndexError):
        compiled.legal_moves(flat, offsets[:4], 2, 2, -1, -1, 0, 0, free, False)  # offsets too short
    with pytest.raises(IndexError):
        compiled.legal_moves(flat, offsets, 2, 1, 1, 0, 0, 0, bytes(2), False)  # mask too short
    with pytest.raises(ValueError):
        compiled.legal_moves(flat.astype(np.int64), offsets, 2, 1, 1, 0, 0, 0, free, False)
