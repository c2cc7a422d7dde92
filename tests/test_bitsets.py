"""The location tracker (solver/games/police07/bitsets.py and its compiled twin ext/p07belief.pyx).

Random games (random legal moves, every variant, the Budapest board, the 16-stop mini board and a
random 255-stop board that fills all four words) are fed move by move into a pure and a compiled
tracker straight from the engine's actions, never through view text. After every update the two
must agree on everything they expose; at every detective decision the set must contain Dr. Factor's
true stop, equal ``possible_locations`` of the detective's view, and (on a share of the games)
equal the brute force of ``tests/test_police07_locations.py``, which enumerates every Dr. Factor path
the engine accepts. Backward path sampling must give both twins the same path from the same seed,
and every sampled path must be one the detectives could not rule out.
"""

from __future__ import annotations

import doctest
import importlib
import json
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import solver.games
from solver import _accel
from solver.core.rng import SplitMix64
from solver.games.police07 import bitsets, codec
from solver.games.police07.bitsets import (
    ALL_LINES,
    ANY_LINE_BLOCK,
    MAX_MOVES,
    TICKET_LINES,
    LocationTracker,
    factor_lines,
    make_tracker,
    mask_stops,
    neighbour_masks,
    neighbour_words,
    stop_mask,
)
from solver.games.police07.locations import possible_locations
from tests.test_police07_locations import Branches
from tests.test_police07_rules import MINI_BOARD


def _import_compiled() -> ModuleType | None:
    try:
        return importlib.import_module("solver._ext.p07belief")
    except ImportError:
        return None


compiled = _import_compiled()
needs_compiled = pytest.mark.skipif(
    compiled is None,
    reason="solver._ext.p07belief is not built (pip install -e . needs Cython and a C compiler)",
)


def random_board(seed: int, stops: int = 255) -> dict[str, Any]:
    """A connected random board of ``stops`` stops with every line (JSON, the board file format)."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(np.arange(1, stops + 1))
    taxi = {tuple(sorted((int(a), int(b)))) for a, b in zip(order[:-1], order[1:], strict=True)}
    links: dict[str, set[tuple[int, ...]]] = {"taxi": taxi, "bus": set(), "metro": set(), "water": set()}
    for line, n in (("taxi", stops), ("bus", stops // 3), ("metro", stops // 10), ("water", 4)):
        while len(links[line]) < (n + (stops - 1 if line == "taxi" else 0)):
            a, b = (int(x) for x in rng.integers(1, stops + 1, size=2))
            if a != b:
                links[line].add((min(a, b), max(a, b)))
    starts = sorted(int(s) for s in rng.choice(np.arange(1, stops + 1), size=20, replace=False))
    return {"stops": stops, "links": {k: sorted(map(list, v)) for k, v in links.items()},
            "start_stops": starts, "name": f"random-{seed}"}


@pytest.fixture(scope="module")
def board_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("boards")
    files = {}
    for name, data in (("mini", MINI_BOARD), ("random255", random_board(7))):
        path = folder / f"{name}.json"
        path.write_text(json.dumps(data))
        files[name] = str(path)
    return files


# --- layout ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("which", ["budapest", "mini", "random255"])
def test_neighbour_masks_and_words_layout(board_files: dict[str, str], which: str) -> None:
    game = solver.games.load("police07", board=board_files.get(which, which))
    board = game.board
    masks = neighbour_masks(board)
    words = neighbour_words(board)
    assert words.dtype == np.uint64 and words.shape == ((4 + 1) * 256 * 4,)
    assert not words.flags.writeable
    assert neighbour_masks(board) is masks and neighbour_words(board) is words  # cached per board
    for line in range(4):
        assert masks[line][0] == 0
        for s in board.stops:
            assert mask_stops(masks[line][s]) == list(board.neighbours[line][s])
    for block in range(5):
        for s in range(256):
            expected = 0
            if s <= board.num_stops:
                expected = (masks[block][s] if block < 4 else
                            masks[0][s] | masks[1][s] | masks[2][s] | masks[3][s])
            got = sum(int(words[((block * 256) + s) * 4 + w]) << (64 * w) for w in range(4))
            assert got == expected, (block, s)
    assert ANY_LINE_BLOCK == 4


def test_masks_round_trip() -> None:
    stops = [1, 63, 64, 127, 128, 191, 192, 255]
    assert mask_stops(stop_mask(stops)) == stops
    assert stop_mask([]) == 0 and mask_stops(0) == []
    assert TICKET_LINES == (1, 2, 4, 15) and ALL_LINES == 15


def test_docstring_example() -> None:
    result = doctest.testmod(bitsets, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_make_tracker_follows_the_switch() -> None:
    tracker = make_tracker(solver.games.load("police07").board)
    if _accel.PURE_REQUESTED or compiled is None:
        assert type(tracker) is LocationTracker
    else:
        assert type(tracker).__module__ == "solver._ext.p07belief"


# --- the twins on random games --------------------------------------------------------------------
def twins(board: Any) -> list[Any]:
    """The pure tracker, and the compiled one when built."""
    out: list[Any] = [LocationTracker(board)]
    if compiled is not None:
        out.append(compiled.LocationTracker(board))
    return out


def assert_same(trackers: list[Any], where: str) -> None:
    ref = trackers[0]
    for other in trackers[1:]:
        assert other.start == ref.start, where
        assert other.mask == ref.mask, where
        assert other.count() == ref.count() == len(ref.stops()), where
        assert other.stops() == ref.stops() == mask_stops(ref.mask), where
        assert other.num_moves == ref.num_moves, where
        assert other.history() == ref.history(), where


def update(trackers: list[Any], method: str, *args: int) -> None:
    results = {getattr(t, method)(*args) for t in trackers}
    assert len(results) == 1, (method, args, results)
    assert results == {trackers[0].count()}


def feed(state: Any, action: int, trackers: list[Any]) -> None:
    """Apply ``action`` to ``state`` and the matching update to every tracker."""
    placing = state.phase == 0  # Phase.SETUP: state.piece is the piece being placed
    factor_turn = state.phase == 1  # Phase.FACTOR
    piece = state.piece if placing else state.acting_piece()
    blocked = blocked_now(state)
    state.apply(action)
    # Where the rules check for a cornered Dr. Factor and the game goes on, he was not cornered
    # (rules.py: his turn start unless he may show first, between the moves of a double; a double
    # is offered only with a first move).
    live = state.phase == 1
    turn_start = live and not factor_turn and not (state.game.voluntary_show and state.visible_at == 0)
    between = live and codec.is_move(action) and piece == 0 and state.double_steps == 1
    cornered_check = turn_start or between or action == codec.DOUBLE
    if placing:
        if piece == 0:
            for t in trackers:
                t.reset(action % 256)
        if cornered_check and trackers[0].start:
            update(trackers, "drop_cornered", factor_lines(*state.tickets[0][:4]), blocked_now(state))
        return
    if action == codec.SHOW:
        update(trackers, "show", state.pos[0])
    elif codec.is_move(action) and piece == 0:
        ticket, _, _ = codec.decode_move(action)
        shown = state.records[-1][1]
        update(trackers, "factor_move", TICKET_LINES[ticket], blocked, shown)
    elif codec.is_move(action):
        stop = action % 256
        caught = state.is_terminal() and state.winner == 1 and stop == state.pos[0]
        update(trackers, "capture" if caught else "strike", stop)
    if cornered_check:
        update(trackers, "drop_cornered", factor_lines(*state.tickets[0][:4]), blocked_now(state))
    if state.is_terminal() and trackers[0].start:
        update(trackers, "show", state.pos[0])  # he shows himself at the end, however it ends


def blocked_now(state: Any) -> int:
    """The stops the detective pieces stand on."""
    return stop_mask([s for s in state.pos[1:] if s])


def check_paths(trackers: list[Any], seed: int) -> None:
    """Both twins draw the same path from the same SplitMix64 seed; the path is consistent."""
    ref = trackers[0]
    for last in {ref.nth(0), ref.nth(ref.count() - 1)}:
        paths = []
        for t in trackers:
            rng = SplitMix64(seed)
            paths.append((t.sample_path(rng, last), rng.state))
        assert all(p == paths[0] for p in paths), paths
        path = paths[0][0]
        assert len(path) == ref.num_moves + 1 and path[0] == ref.start and path[-1] == last
        for k in range(ref.num_moves):
            assert ref.before(k) >> path[k] & 1
            assert ref.predecessors(k, path[k + 1]) >> path[k] & 1
            lines = ref.move_lines(k)
            assert any(path[k + 1] in neighbours_of(ref, line, path[k]) for line in range(4)
                       if lines >> line & 1)


_BOARDS: dict[int, Any] = {}


def neighbours_of(tracker: Any, line: int, stop: int) -> set[int]:
    board = _BOARDS[tracker.num_stops]
    return set(board.neighbours[line][stop])


CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "pieces": [1]},
    {"players": 2, "pieces": [1], "unlimited_tickets": True},
    {"players": 3},
    {"players": 4, "voluntary_show": True},
    {"players": 6},
    {"players": 4, "free_start": True},
    {"players": 5, "voluntary_show": True, "unlimited_tickets": True, "free_start": True},
]


def play(game: Any, seed: int, brute: bool, counts: Counter[str]) -> None:
    """One random game fed into both twins, checked after every update and at every decision."""
    _BOARDS[game.board.num_stops] = game.board
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    trackers = twins(game.board)
    branches = Branches(game) if brute else None
    fed = 0
    while True:
        where = f"seed {seed}: {json.dumps(state.to_json()['actions'])}"
        assert_same(trackers, where)
        seat = state.current_player()
        if state.pos[0] and not state.is_chance_node() and trackers[0].start:
            truth = state.pos[0]
            assert all(t.contains(truth) for t in trackers), where
            look = seat if seat > 0 else 1
            data = state.view(look).to_json()
            stops = set(trackers[0].stops())
            assert possible_locations(game, data) == stops, where
            if branches is not None:
                for piece, text in data["history"][fed:]:
                    branches.feed(piece, text)
                fed = len(data["history"])
                assert branches.consistent(look, data, full=state.is_terminal()) == stops, where
                counts["brute force"] += 1
            if counts["decisions"] % 7 == 0:
                check_paths(trackers, seed * 1000 + counts["decisions"])
                copies = [t.copy() for t in trackers]
                assert_same(copies, where)
                if copies[0].num_moves:
                    for c in copies:
                        c.undo()
                    assert_same(copies, where)
                    assert copies[0].mask == trackers[0].before(trackers[0].num_moves - 1)
                assert_same(trackers, where)  # copies are independent
            counts["decisions"] += 1
            counts["largest"] = max(counts["largest"], len(stops))
        if state.is_terminal():
            if trackers[0].start:
                assert trackers[0].stops() == [state.pos[0]]
            counts["games"] += 1
            return
        legal = state.legal_actions()
        feed(state, legal[int(rng.integers(len(legal)))], trackers)
        if not brute:
            fed = 0


def run_games(board_files: dict[str, str], n: int, brute_every: int, first_seed: int = 0) -> Counter[str]:
    counts: Counter[str] = Counter()
    boards = ["budapest", "budapest", "mini", "random255"]
    for g in range(first_seed, first_seed + n):
        which = boards[g % len(boards)]
        options = CONFIGS[(g // len(boards)) % len(CONFIGS)]
        if which == "mini" and sum(options.get("pieces", [1] * (options["players"] - 1))) > 2:
            options = {**options, "players": 2, "pieces": [2]}
        game = solver.games.load("police07", board=board_files.get(which, which), **options)
        play(game, seed=g, brute=g % brute_every == 0, counts=counts)
    return counts


def test_twins_agree_on_random_games(board_files: dict[str, str]) -> None:
    """1,200 games, 200 of them against the brute force too."""
    counts = run_games(board_files, n=1200, brute_every=6)
    assert counts["games"] == 1200 and counts["brute force"] > 1000
    assert counts["largest"] >= 60  # random Dr. Factors with jokers spread the sets wide


@pytest.mark.slow
def test_twins_agree_on_thousands_of_games(board_files: dict[str, str]) -> None:
    """6,000 more games, every one against the brute force."""
    counts = run_games(board_files, n=6000, brute_every=1, first_seed=10_000)
    assert counts["games"] == 6000


# --- single updates and errors --------------------------------------------------------------------
@pytest.fixture
def budapest_trackers() -> list[Any]:
    board = solver.games.load("police07").board
    _BOARDS[board.num_stops] = board
    return twins(board)


def test_updates_by_hand(budapest_trackers: list[Any]) -> None:
    board = solver.games.load("police07").board
    for t in budapest_trackers:
        t.reset(1)
        assert t.factor_move(TICKET_LINES[0], 0) == len(board.neighbours[0][1])
        assert t.stops() == sorted(board.neighbours[0][1])
        first = t.nth(0)
        assert t.strike(first) == len(board.neighbours[0][1]) - 1 and not t.contains(first)
        joker = t.factor_move(ALL_LINES, stop_mask([1]))
        assert not t.contains(1) and joker == t.count()
        keep = t.nth(t.count() // 2)
        assert t.capture(keep) == 1 and t.stops() == [keep]
        assert t.show(keep) == 1 and t.show(first if first != keep else 2) == 0
        t.undo()
        assert t.num_moves == 1 and t.mask == t.history()[1][1] if t.num_moves > 1 else True
    assert_same(budapest_trackers, "by hand")


def test_shown_stop_pins_the_set(budapest_trackers: list[Any]) -> None:
    for t in budapest_trackers:
        t.reset(1)
        assert t.factor_move(TICKET_LINES[0], 0, shown_stop=8) == 1 and t.stops() == [8]
        assert t.factor_move(TICKET_LINES[2], 0, shown_stop=100) == 0  # not one metro link from 8
    assert_same(budapest_trackers, "shown")


def test_drop_cornered_by_hand(budapest_trackers: list[Any]) -> None:
    """Issue 19's position: 133's only links are taxi links to 130 and 138. With detectives on both
    it goes, whatever his tickets; a free 130 or a taxi-less stock decides for each stop alike."""
    board = solver.games.load("police07").board
    assert set(board.neighbours[0][133]) == {130, 138} and not any(
        board.neighbours[line][133] for line in (1, 2, 3))
    around = stop_mask([130, 138])
    for t in budapest_trackers:
        t.reset(133)
        assert t.drop_cornered(ALL_LINES, 0) == 1                # nobody near: he can move
        assert t.drop_cornered(TICKET_LINES[1], 0) == 0          # bus only: no bus line at 133
    for t in budapest_trackers:
        t.reset(130)
        t.factor_move(TICKET_LINES[0], 0)                        # a hidden taxi move from 130
        before = t.stops()
        assert 133 in before
        assert t.drop_cornered(TICKET_LINES[0], stop_mask([130])) == len(before)  # 138 is free
        assert t.drop_cornered(TICKET_LINES[0], around) == t.count()
        # Read off the neighbour lists: a stop stays when a taxi link leads off it to a free stop.
        assert t.stops() == [s for s in before if set(board.neighbours[0][s]) - {130, 138}]
        assert 133 not in t.stops() and t.history()[0][1] == stop_mask([130])  # history untouched
        assert t.drop_cornered(0, 0) == 0                        # no usable ticket: cornered anywhere
    assert_same(budapest_trackers, "drop_cornered")


def test_factor_lines_read_the_stock_as_the_rules() -> None:
    assert factor_lines(3, 3, 2, 2) == ALL_LINES                 # a joker rides every line
    assert factor_lines(0, 4, 0, 0) == TICKET_LINES[1]
    assert factor_lines(-1, -1, -1, 0) == TICKET_LINES[0] | TICKET_LINES[1] | TICKET_LINES[2]
    assert factor_lines(0, 0, 0, 0) == 0


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda t: t.reset(0), ValueError),
        (lambda t: t.reset(197), ValueError),
        (lambda t: t.strike(-1), ValueError),
        (lambda t: t.show(500), ValueError),
        (lambda t: t.capture(0), ValueError),
        (lambda t: t.factor_move(0, 0), ValueError),
        (lambda t: t.factor_move(16, 0), ValueError),
        (lambda t: t.factor_move(1, -1), ValueError),
        (lambda t: t.factor_move(1, 1 << 256), ValueError),
        (lambda t: t.factor_move(1, 0, 197), ValueError),
        (lambda t: t.drop_cornered(-1, 0), ValueError),
        (lambda t: t.drop_cornered(16, 0), ValueError),
        (lambda t: t.drop_cornered(1, -1), ValueError),
        (lambda t: t.drop_cornered(1, 1 << 256), ValueError),
        (lambda t: t.nth(5), IndexError),
        (lambda t: t.nth(-1), IndexError),
        (lambda t: t.before(3), IndexError),
        (lambda t: t.move_lines(-1), IndexError),
        (lambda t: t.predecessors(0, 0), ValueError),
        (lambda t: t.sample_path(SplitMix64(1), 150), ValueError),
    ],
)
def test_bad_arguments_raise_the_same_error(budapest_trackers: list[Any], call: Any, error: type) -> None:
    messages = set()
    for t in budapest_trackers:
        t.reset(1)
        t.factor_move(TICKET_LINES[0], 0)
        with pytest.raises(error) as info:
            call(t)
        messages.add(str(info.value))
    assert len(messages) == 1, messages
    assert_same(budapest_trackers, "after a refused update")  # a refused update changes nothing


def test_history_is_bounded(budapest_trackers: list[Any]) -> None:
    for t in budapest_trackers:
        t.reset(1)
        for _ in range(MAX_MOVES):
            t.factor_move(TICKET_LINES[0], 0)
        with pytest.raises(ValueError, match=f"more than {MAX_MOVES}"):
            t.factor_move(TICKET_LINES[0], 0)
        assert t.num_moves == MAX_MOVES
        t.undo()
        assert t.num_moves == MAX_MOVES - 1
    assert_same(budapest_trackers, "full history")
    for t in budapest_trackers:
        t.reset(1)
        with pytest.raises(ValueError, match="no Dr. Factor move"):
            t.undo()


def test_contains_is_false_for_non_stops(budapest_trackers: list[Any]) -> None:
    for t in budapest_trackers:
        t.reset(5)
        assert t.contains(5) and not t.contains(0) and not t.contains(-3) and not t.contains(300)


def test_numpy_ints_are_accepted(budapest_trackers: list[Any]) -> None:
    for t in budapest_trackers:
        t.reset(1)
        t.factor_move(TICKET_LINES[0], np.int64(1 << 7))
    assert_same(budapest_trackers, "numpy blocked mask")


@needs_compiled
def test_compiled_tracker_is_cimportable() -> None:
    """Other kernels cimport the cdef class: its declaration ships next to the module."""
    assert compiled is not None
    pxd = Path(compiled.__file__).resolve().parent / "p07belief.pxd"
    assert pxd.is_file() and "cdef class LocationTracker" in pxd.read_text()
