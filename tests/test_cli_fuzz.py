"""Fuzzing every file the CLI reads: boards, positions, views, replays and content files.

Each case starts from a good file (a replay recorded here, a position from it, a shipped board or
content file), breaks it with one seeded mutation (a cut, flipped or inserted bytes, a JSON value
swapped for an odd one, a key dropped, deep nesting, binary junk, a file over the size limit) and
runs ``copsolver`` in-process on it. The command may still work (exit 0: a mutation can leave a
file valid) or must fail as a user error: exit 2 and one line on stderr, ``copsolver: error:
...``. Anything else, a traceback above all, fails the test with the seed that made it.

The default run tries a few dozen mutations in a few seconds; ``-m slow`` runs thousands.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bots.cli import main, replay_header
from solver.core.files import MAX_BYTES, MAX_DEPTH
from solver.core.referee import outcome
from solver.games import load

#: Odd values a structural mutation puts in place of one JSON value.
ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 255, 256, 2**63, -(2**70), 1.5, 1e308, "", "x" * 500, "taxi 999",
    "start 42", "../../../etc/passwd", "/dev/zero", "\u00b2", "\x00", [], {}, [[[]]], {"type": "header"},
    [1, 2, 3], ["a"], {"": None},
]


@dataclass(frozen=True)
class Target:
    """A good file and the command that reads it (``{}`` stands for the file's path)."""

    name: str
    data: bytes
    argv: tuple[str, ...]
    lines: bool = False  # a JSON-lines file: structural mutations go to one line


def _record(name: str, seed: int, **config: Any) -> list[dict[str, Any]]:
    """A whole game of ``name`` with uniform random moves and chance, as ``copsolver play`` records it."""
    game = load(name, **config)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    records = [replay_header(game, seed, {s: "random" for s in range(game.num_players)})]
    while not state.is_terminal():
        seat = state.current_player()
        options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        action = options[int(rng.integers(len(options)))]
        records.append({"type": "action", "ply": len(state.history), "seat": seat,
                        "action": game.action_to_str(action)})
        state.apply(action)
    winner, reason = outcome(state)
    records.append({"type": "result", "winner": winner, "reason": reason, "returns": state.returns()})
    return records


def _lines(records: list[dict[str, Any]], **names: str) -> bytes:
    """Records as JSON lines; ``names`` set header config options (files the command line gives)."""
    header = dict(records[0], config=dict(records[0]["config"], **names))
    return "".join(json.dumps(r) + "\n" for r in [header, *records[1:]]).encode()


def _position(records: list[dict[str, Any]], plies: int) -> dict[str, Any]:
    """The state JSON after the first ``plies`` actions of a recorded game."""
    header = records[0]
    game = load(header["game"], **header["config"])
    state = game.new_initial_state()
    for record in records[1 : plies + 1]:
        state.apply(game.str_to_action(record["action"]))
    data: dict[str, Any] = state.to_json()
    return data


def _shipped(package: str, name: str) -> bytes:
    return resources.files(package).joinpath(f"data/{name}").read_bytes()


def _targets() -> list[Target]:
    police, gcbc, lineup = _record("police07", 1, players=2), _record("gcbc", 2, players=4), \
        _record("lineup", 3, players=2)
    p07 = _position(police, 9)
    p07_view = load("police07", players=2).state_from_json(p07).view(1).to_json()
    return [
        Target("board", _shipped("solver.games.police07", "budapest.json"),
               ("play", "--board", "{}", "--players", "2", "--bot", "random", "--seed", "1", "--quiet")),
        Target("board via replay", _shipped("solver.games.police07", "budapest.json"),
               ("replay", "REPLAY", "--file", "board={}")),
        Target("police07 position", json.dumps(p07).encode(), ("hint", "police07", "{}", "--bot", "random")),
        Target("police07 view", json.dumps(p07_view).encode(), ("hint", "police07", "{}", "--bot", "random")),
        Target("gcbc position", json.dumps(_position(gcbc, 30)).encode(),
               ("hint", "gcbc", "{}", "--bot", "random")),
        Target("police07 replay", _lines(police), ("replay", "{}"), lines=True),
        Target("police07 replay at a ply", _lines(police), ("hint", "police07", "{}", "--ply", "9", "--bot",
                                                            "random"), lines=True),
        Target("gcbc replay", _lines(gcbc), ("replay", "{}", "--as-seat", "1"), lines=True),
        Target("lineup replay", _lines(lineup), ("replay", "{}"), lines=True),
        Target("gcbc content", _shipped("solver.games.gcbc", "equipment.json"),
               ("replay", "GCBC", "--file", "content={}")),
        Target("lineup board", _shipped("solver.games.lineup", "board.json"),
               ("replay", "LINEUP", "--file", "board={}")),
        Target("lineup suspects", _shipped("solver.games.lineup", "suspects.json"),
               ("replay", "LINEUP", "--file", "suspects={}")),
        Target("lineup lucky", _shipped("solver.games.lineup", "lucky.json"),
               ("replay", "LINEUP", "--file", "lucky={}")),
    ]


# --- mutations ----------------------------------------------------------------------------------


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys and indices) to a value inside ``doc``, the root included."""
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += _paths(value, (*prefix, index))
    return found


def _change(doc: Any, rng: np.random.Generator) -> Any:
    """``doc`` with one value swapped for an odd one, one key dropped, or one value nested deep."""
    paths = _paths(doc)
    path = paths[int(rng.integers(len(paths)))]
    how = int(rng.integers(3))
    if not path:
        return ODD_VALUES[int(rng.integers(len(ODD_VALUES)))]
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    if how == 0 and isinstance(parent, dict):
        del parent[path[-1]]
    elif how == 1:
        deep: Any = parent[path[-1]]
        for _ in range(int(rng.integers(MAX_DEPTH - 5, MAX_DEPTH + 5))):
            deep = [deep]
        parent[path[-1]] = deep
    else:
        parent[path[-1]] = ODD_VALUES[int(rng.integers(len(ODD_VALUES)))]
    return doc


def _structural(data: bytes, lines: bool, rng: np.random.Generator) -> bytes:
    if not lines:
        return json.dumps(_change(json.loads(data), rng)).encode()
    rows = data.decode().splitlines()
    index = int(rng.integers(len(rows)))
    rows[index] = json.dumps(_change(json.loads(rows[index]), rng))
    return ("\n".join(rows) + "\n").encode()


def _bytes(data: bytes, rng: np.random.Generator) -> bytes:
    """``data`` cut short, with some bytes changed, or with random bytes or deep nesting inserted."""
    how = int(rng.integers(4))
    if how == 0:
        return data[: int(rng.integers(len(data)))]
    if how == 1:
        buffer = bytearray(data)
        for _ in range(int(rng.integers(1, 8))):
            buffer[int(rng.integers(len(buffer)))] = int(rng.integers(128, 256))
        return bytes(buffer)
    at = int(rng.integers(len(data)))
    inserted = b"[" * 50_000 if how == 2 else rng.bytes(int(rng.integers(1, 16)))
    return data[:at] + inserted + data[at:]


WHOLE: list[Callable[[bytes], bytes]] = [
    lambda data: b"",
    lambda data: b"\xef\xbb\xbf" + data,  # a byte-order mark
    lambda data: b"[" * 100_000,
    lambda data: b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
    lambda data: bytes(range(256)) * 4,
    lambda data: data + b" " * MAX_BYTES,
    lambda data: b"null",
    lambda data: b'{"game": "police07", "config": {"board": "/dev/zero"}, "actions": []}',
    lambda data: b'{"type": "header", "game": "police07", "config": {"board": "/etc/passwd"}}\n',
]


def mutate(target: Target, seed: int) -> bytes:
    """One seeded mutation of ``target``'s file (each target draws its own for the same seed)."""
    rng = np.random.default_rng([seed, zlib.crc32(target.name.encode())])
    kind = int(rng.integers(10))
    if kind < len(WHOLE) and rng.random() < 0.3:
        return WHOLE[kind](target.data)
    if kind < 6:
        return _structural(target.data, target.lines, rng)
    return _bytes(target.data, rng)


# --- the check ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def targets() -> list[Target]:
    return _targets()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Replays whose header names a content file, for the ``--file`` targets to stand in for."""
    folder = tmp_path_factory.mktemp("records")
    files = {
        "REPLAY": _lines(_record("police07", 4, players=2), board="board.json"),
        "GCBC": _lines(_record("gcbc", 5, players=4), content="equipment.json"),
        "LINEUP": _lines(_record("lineup", 6, players=2), board="board.json", suspects="suspects.json",
                         lucky="lucky.json"),
    }
    paths = {}
    for name, data in files.items():
        paths[name] = folder / f"{name.lower()}.jsonl"
        paths[name].write_bytes(data)
    return paths


def _argv(target: Target, data: bytes, folder: Path, records: dict[str, Path]) -> list[str]:
    """``target``'s command line, with ``data`` written to the file it reads."""
    path = folder / "input"
    path.write_bytes(data)
    argv = [str(records.get(w, w)).replace("{}", str(path)) for w in target.argv]
    if "LINEUP" in target.argv:  # the record names three files: the other two in their shipped form
        shipped = resources.files("solver.games.lineup") / "data"
        for option in ("board", "suspects", "lucky"):
            if f"{option}={{}}" not in target.argv:
                argv += ["--file", f"{option}={shipped / (option + '.json')}"]
    return argv


def check(target: Target, data: bytes, folder: Path, records: dict[str, Path],
          capsys: pytest.CaptureFixture[str], label: str) -> None:
    """Run ``target``'s command on ``data``: it works, or it is one line of error and exit 2."""
    code = main(_argv(target, data, folder, records))
    captured = capsys.readouterr()
    assert code in (0, 2), f"{label}: exit {code}\n{captured.err}"
    if code == 2:
        lines = captured.err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("copsolver: error: "), f"{label}:\n{captured.err}"


def _run(targets: list[Target], seeds: range, tmp_path: Path, records: dict[str, Path],
         capsys: pytest.CaptureFixture[str]) -> None:
    for seed in seeds:
        for target in targets:
            check(target, mutate(target, seed), tmp_path, records, capsys, f"{target.name}, seed {seed}")


def test_the_unbroken_files_work(targets: list[Target], tmp_path: Path, records: dict[str, Path],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    for target in targets:
        code = main(_argv(target, target.data, tmp_path, records))
        assert code == 0, f"{target.name}: {capsys.readouterr().err}"
        capsys.readouterr()


def test_every_whole_file_fault_is_one_line(targets: list[Target], tmp_path: Path, records: dict[str, Path],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    for make in WHOLE:
        for target in targets:
            check(target, make(target.data), tmp_path, records, capsys, target.name)


def test_mutated_files_are_read_or_refused_in_one_line(
    targets: list[Target], tmp_path: Path, records: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _run(targets, range(4), tmp_path, records, capsys)


@pytest.mark.slow
def test_many_mutated_files(targets: list[Target], tmp_path: Path, records: dict[str, Path],
                            capsys: pytest.CaptureFixture[str]) -> None:
    _run(targets, range(4, 400), tmp_path, records, capsys)
