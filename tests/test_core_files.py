"""The shared reader for user files (solver.core.files): every fault is one typed line."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from solver.core import BadStateError
from solver.core.files import MAX_BYTES, MAX_DEPTH, json_depth, parse_json, read_json, read_shipped, read_text


def test_reads_a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    path.write_text('{"a": [1, 2.5, "é"]}', encoding="utf-8")
    assert read_json(path, "board") == {"a": [1, 2.5, "é"]}
    assert read_text(str(path), "board") == '{"a": [1, 2.5, "é"]}'


@pytest.mark.parametrize(
    ("content", "fault"),
    [
        (b"\xff\xfe{}", "not a UTF-8 text file (byte 0)"),
        (b'{"a": 1,', "not valid JSON: Expecting property name enclosed in double quotes (line 1, column 9)"),
        (b"[" * 100_000, "not valid JSON: nested too deeply"),
        (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), f"JSON nested more than {MAX_DEPTH} deep"),
        (b'{"a": NaN}', "NaN is not a JSON number"),
        (b"[1e999]", "overflows a float"),
        (b"1" * 5000, "not valid JSON: Exceeds the limit"),
        (b"", "not valid JSON: Expecting value (line 1, column 1)"),
    ],
)
def test_faults_in_the_content_are_one_typed_line(tmp_path: Path, content: bytes, fault: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(BadStateError) as info:
        read_json(path, "board")
    message = str(info.value)
    assert message.startswith(f"board {path}: cannot read it: ") and fault in message
    assert "\n" not in message


def test_missing_files_directories_and_non_paths(tmp_path: Path) -> None:
    with pytest.raises(BadStateError, match=r"missing\.json: cannot read it: No such file or directory$"):
        read_json(tmp_path / "missing.json", "replay")
    with pytest.raises(BadStateError, match="cannot read it: Is a directory$"):
        read_json(tmp_path, "replay")
    with pytest.raises(BadStateError, match="embedded null byte"):
        read_json("a\0b", "replay")
    with pytest.raises(BadStateError, match=r"^board 3: not a file path$"):
        read_json(3, "board")  # type: ignore[arg-type]  # a number from a JSON config


def test_at_most_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * MAX_BYTES + b"1")
    with pytest.raises(BadStateError, match=f"file is over {MAX_BYTES} bytes$"):
        read_json(path, "position")
    path.write_bytes(b" " * (MAX_BYTES - 1) + b"1")
    assert read_json(path, "position") == 1
    assert read_json(path, "report", limit=MAX_BYTES * 2) == 1
    with pytest.raises(BadStateError, match="file is over 10 bytes"):
        read_text(path, "position", limit=10)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_file_fails_at_once() -> None:
    started = time.monotonic()
    fault = f"^board /dev/zero: cannot read it: file is over {MAX_BYTES} bytes$"
    with pytest.raises(BadStateError, match=fault):
        read_json("/dev/zero", "board")
    assert time.monotonic() - started < 30  # reads limit + 1 bytes, not forever


def test_parse_json_names_where() -> None:
    assert parse_json('{"x": [1]}', "replay g.jsonl, line 3") == {"x": [1]}
    with pytest.raises(BadStateError, match=r"^replay g\.jsonl, line 3: not valid JSON: Expecting value"):
        parse_json("[x", "replay g.jsonl, line 3")


def test_json_depth() -> None:
    assert [json_depth(x) for x in (1, "s", [], {}, [[1]], {"a": [{"b": 1}]})] == [0, 0, 1, 1, 2, 3]
    deep: list[object] = []
    for _ in range(5000):  # deeper than the recursion limit: counted without recursing
        deep = [deep]
    assert json_depth(deep) == 5001


def test_shipped_files_pass_the_same_checks() -> None:
    board = read_shipped("solver.games.police07", "data/budapest.json")
    assert board["stops"] == 196
    assert json_depth(board) <= MAX_DEPTH
    json.dumps(board)
