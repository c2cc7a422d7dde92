"""Shortest-path distance tables for a Police 07 board, from networkx (one table per set of lines).

A table ``d`` is a read-only ``(S + 1, S + 1)`` int32 array: ``d[a, b]`` is the fewest moves from
stop ``a`` to stop ``b`` riding only the given lines, ignoring ticket counts and other pieces.
Row and column 0 are unused (stops are numbered from 1); a pair with no path holds
:data:`UNREACHABLE`, which is larger than any real distance, so ``min``/comparisons need no special
case. Tables are cached per board object (a :class:`Board` hashes by identity) and line set.

>>> from solver.games.police07.board import load_board
>>> board = load_board()
>>> d = detective_distances(board)
>>> int(d[1, 1]), d.shape == (board.num_stops + 1, board.num_stops + 1)
(0, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

import networkx as nx
import numpy as np
import numpy.typing as npt

from solver.games.police07.board import Board, Line

#: Distance stored for a pair of stops that the lines do not connect.
UNREACHABLE: Final = 1000

#: What detectives ride (rulebook: the water bus needs a joker, which only Dr. Factor holds).
DETECTIVE_LINES: Final = (Line.TAXI, Line.BUS, Line.METRO)
#: Everything Dr. Factor can ride with a joker.
ALL_LINES: Final = (Line.TAXI, Line.BUS, Line.METRO, Line.WATER)

DistanceTable = npt.NDArray[np.int32]


def line_distances(board: Board, lines: Iterable[Line | int]) -> DistanceTable:
    """The distance table of ``board`` riding only ``lines`` (any order; cached)."""
    key = tuple(sorted({Line(int(line)) for line in lines}))
    return _table(board, key)


@lru_cache(maxsize=64)
def _table(board: Board, lines: tuple[Line, ...]) -> DistanceTable:
    size = board.num_stops + 1
    table = np.full((size, size), UNREACHABLE, dtype=np.int32)
    if lines:
        # Board.graph adds every stop as a node, so stops no line touches still get distance 0 to
        # themselves below.
        for source, lengths in nx.all_pairs_shortest_path_length(board.graph(lines)):
            for target, length in lengths.items():
                table[source, target] = length
    else:
        for stop in board.stops:
            table[stop, stop] = 0
    table.setflags(write=False)  # shared by every caller through the cache
    return table


def detective_distances(board: Board) -> DistanceTable:
    """Distances over taxi, bus and metro: what a detective with every kind of ticket rides."""
    return line_distances(board, DETECTIVE_LINES)


def factor_distances(board: Board) -> DistanceTable:
    """Distances over every line, the water bus included: Dr. Factor holding jokers."""
    return line_distances(board, ALL_LINES)
