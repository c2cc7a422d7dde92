"""The ``copsolver`` command line and the round-by-round printer.

End-to-end behaviour (a whole game with no arguments, piped human input, clean failures with no
traceback) runs ``python -m bots`` in a subprocess; the rest calls ``bots.cli.main`` in-process,
which is much faster. The hidden-information tests check the printed record against the referee's
replay file: a line a detective reads never holds a stop Dr. Factor did not show.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bots import display
from bots.cli import main
from solver.games import load
from solver.games.police07.codec import REVEALED_MOVES
from solver.games.police07.events import FactorMoved, PiecePlaced

REPO = Path(__file__).resolve().parent.parent
TIMEOUT = 300  # seconds for one whole subprocess game; generous for slow CI machines

#: A printed move of Dr. Factor: ``  Dr. Factor: taxi 118 (hidden)``, ``  Dr. Factor: bus ?``,
#: ``  Dr. Factor: joker water 74 (move 5, shown)``.
FACTOR_LINE = re.compile(
    r"^  Dr\. Factor: (taxi|bus|metro|joker)(?: (taxi|bus|metro|water))? (\d+|\?)(?: \((.*)\))?$"
)
#: A cell of a printed log (``    1: taxi 7 | 2: bus ? | 3: metro 118``).
LOG_CELL = re.compile(
    r"(?:^    | \| )(\d+): (taxi|bus|metro|joker) (?:(?:taxi|bus|metro|water) )?(\d+|\?)", re.MULTILINE
)


def run_cli(
    *args: str, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bots ARGS`` from the repository with ``stdin`` piped in."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = str(REPO) + os.pathsep + environment.get("PYTHONPATH", "")
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "bots", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environment,
        timeout=TIMEOUT,
        check=False,
    )


def assert_clean(result: subprocess.CompletedProcess[str]) -> None:
    """No Python traceback anywhere in the output."""
    assert "Traceback" not in result.stdout + result.stderr, result.stderr


def last_line(text: str) -> str:
    return [line for line in text.splitlines() if line.strip()][-1]


def record_part(text: str) -> list[str]:
    """The round-by-round record: everything from the ``Start`` block on (headers differ)."""
    lines = text.splitlines()
    return lines[lines.index("Start") :]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def factor_moves(records: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """Dr. Factor's moves in a replay, in order: (ticket, true stop)."""
    moves = []
    for record in records:
        if record["type"] == "action" and record["seat"] == 0:
            words = record["action"].split()
            if words[0] in ("taxi", "bus", "metro", "joker"):
                moves.append((words[0], int(words[-1])))
    return moves


def assert_detective_record(text: str, moves: list[tuple[str, int]]) -> None:
    """Every Dr. Factor line and log cell a detective read shows a stop only where it was shown."""
    seen = [FACTOR_LINE.match(line) for line in text.splitlines()]
    printed = [m for m in seen if m is not None]
    assert len(printed) == len(moves)
    for number, (match, (ticket, stop)) in enumerate(zip(printed, moves, strict=True), start=1):
        assert match.group(1) == ticket
        assert match.group(2) is None, f"move {number}: a detective was told the joker's line"
        expected = str(stop) if number in REVEALED_MOVES else "?"
        assert match.group(3) == expected, f"move {number}: printed {match.group(0)!r}, true stop {stop}"
    cells = LOG_CELL.findall(text)
    if "Dr. Factor's log:" in text:
        assert cells, "the printed logs were not recognised"
    for number, ticket, where in cells:
        true_ticket, stop = moves[int(number) - 1]
        assert ticket == true_ticket
        assert where == (str(stop) if int(number) in REVEALED_MOVES else "?"), f"log cell {number}"


# --- whole games ------------------------------------------------------------------------------


def test_play_with_no_arguments_plays_a_whole_game_and_names_the_winner() -> None:
    result = run_cli("play")
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert re.search(r"seed (\d+) \(drawn at random\): replay it with --seed \1", first), first
    winner = last_line(result.stdout)
    assert re.fullmatch(r"Winner: (the detectives|Dr\. Factor) — .+", winner), winner
    assert "\nMove 1\n" in result.stdout


def test_the_same_seed_prints_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for _ in range(2):
        assert main(["play", "--seed", "7"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert "seed 7:" in outputs[0].splitlines()[0]
    others = set()
    for seed in range(1, 5):
        assert main(["play", "--seed", str(seed)]) == 0
        others.add("\n".join(record_part(capsys.readouterr().out)))
    assert len(others) > 1, "different seeds should not all give the same game"


def test_the_same_seed_gives_the_same_output_across_processes() -> None:
    first, second = run_cli("play", "--seed", "7"), run_cli("play", "--seed", "7")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout


def test_spectator_sees_every_move_and_each_is_marked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "21", "--bot", "random", "--replay", str(path)]) == 0
    out = capsys.readouterr().out
    moves = factor_moves(read_jsonl(path))
    printed = [m for m in map(FACTOR_LINE.match, out.splitlines()) if m is not None]
    assert len(printed) == len(moves) > 0
    for number, (match, (_, stop)) in enumerate(zip(printed, moves, strict=True), start=1):
        assert match.group(3) == str(stop)
        tags = (match.group(4) or "").split(", ")
        assert ("shown" if number in REVEALED_MOVES else "hidden") in tags


def test_quiet_prints_only_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "7", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Winner: ")
    assert out.count("\n") == 1
    assert main(["play", "--seed", "7"]) == 0
    assert last_line(capsys.readouterr().out) == out.strip()


@pytest.mark.parametrize(
    "flags",
    [
        ["--players", "2"],
        ["--players", "3", "--free-start"],
        ["--players", "6", "--unlimited-tickets"],
        ["--voluntary-show", "--bot", "random"],
        ["--players", "5", "--voluntary-show", "--free-start", "--unlimited-tickets", "--bot", "random"],
    ],
)
def test_variants_and_player_counts_play_to_the_end(
    flags: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "3", "--replay", str(path), *flags]) == 0
    out = capsys.readouterr().out
    assert last_line(out).startswith("Winner: ")
    assert main(["replay", str(path)]) == 0
    assert record_part(capsys.readouterr().out) == record_part(out)


# --- replays ----------------------------------------------------------------------------------


def test_replay_file_reproduces_the_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "11", "--replay", str(path)]) == 0
    played = capsys.readouterr().out
    records = read_jsonl(path)
    header, actions, result = records[0], records[1:-1], records[-1]
    assert header["type"] == "header" and header["game"] == "police07" and header["seed"] == 11
    assert header["config"] == load("police07").config()
    assert header["seats"] == {str(s): "heuristic" for s in range(4)}
    assert [a["type"] for a in actions] == ["action"] * len(actions)
    assert [a["ply"] for a in actions] == list(range(len(actions)))
    assert actions[0]["seat"] == -1  # the start cards are chance's
    assert result["type"] == "result" and result["winner"] in ("factor", "detectives")
    assert len(result["returns"]) == 4
    assert main(["replay", str(path)]) == 0
    replayed = capsys.readouterr().out
    assert replayed.startswith(f"Replay of {path}")
    assert record_part(replayed) == record_part(played)


def test_replay_as_a_detective_hides_what_he_did_not_see(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "21", "--bot", "random", "--replay", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path), "--as-seat", "2"]) == 0
    assert_detective_record(capsys.readouterr().out, factor_moves(read_jsonl(path)))


def _tamper(lines: list[str], how: str) -> list[str]:
    lines = list(lines)
    if how == "illegal move":
        index = next(i for i, line in enumerate(lines) if '"seat": 1' in line)
        lines[index] = re.sub(r'"action": "[^"]*"', '"action": "taxi 1"', lines[index])
    elif how == "bad notation":
        lines[5] = re.sub(r'"action": "[^"]*"', '"action": "teleport 5"', lines[5])
    elif how == "wrong seat":
        index = next(i for i, line in enumerate(lines) if '"seat": 2' in line)
        lines[index] = lines[index].replace('"seat": 2', '"seat": 3')
    elif how == "not json":
        lines[3] = "{not json"
    elif how == "truncated":
        lines = lines[:-3]
    elif how == "wrong result":
        result = json.loads(lines[-1])
        result["winner"] = "factor" if result["winner"] == "detectives" else "detectives"
        lines[-1] = json.dumps(result)
    elif how == "bad config":
        header = json.loads(lines[0])
        header["config"]["players"] = 9
        lines[0] = json.dumps(header)
    return lines


@pytest.mark.parametrize(
    ("how", "where"),
    [
        ("illegal move", "line"),
        ("bad notation", "line 6"),
        ("wrong seat", "line"),
        ("not json", "line 4"),
        ("truncated", "without a result"),
        ("wrong result", "line"),
        ("bad config", "line 1"),
    ],
)
def test_a_tampered_replay_fails_with_the_line(
    how: str, where: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "11", "--quiet", "--replay", str(path)]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(_tamper(path.read_text().splitlines(), how)) + "\n")
    assert main(["replay", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("copsolver: error: ") and str(bad) in captured.err
    assert where in captured.err


def test_a_tampered_replay_fails_cleanly_end_to_end(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    assert run_cli("play", "--seed", "11", "--quiet", "--replay", str(path)).returncode == 0
    lines = path.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(_tamper(lines, "illegal move")) + "\n")
    result = run_cli("replay", str(bad))
    assert_clean(result)
    assert result.returncode == 2
    assert re.search(r"line \d+: 'taxi 1' cannot be played", result.stderr)


# --- humans -----------------------------------------------------------------------------------


def test_a_human_seat_is_reasked_after_bad_input_and_eof_ends_cleanly() -> None:
    result = run_cli("play", "--seed", "3", "--seat", "2=human", stdin="garbage\n99\ntaxi 1\n1\n")
    assert_clean(result)
    assert result.returncode == 1
    out = result.stdout
    prompt = "Seat 2, your move"
    assert "cannot read 'garbage'" in out
    assert "There is no move 99" in out
    assert "'taxi 1' is not legal now" in out
    # four answers to the first position, then the second position is asked once and input ends
    assert out.count(prompt) == 5
    first_view = out.index("Your turn: detective 2 moves")
    chosen = re.search(r"^     ?1\) (\S+ \d+)", out[first_view:], re.MULTILINE)
    assert chosen is not None
    assert f"  Detective 2: {chosen.group(1)}\n" in out
    assert "Input ended before the game did; game abandoned." in out


def test_quit_ends_the_game_and_the_record_says_so(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    result = run_cli("play", "--seed", "3", "--seat", "0=human", "--replay", str(path), stdin="help\nquit\n")
    assert_clean(result)
    assert result.returncode == 0
    assert "Other commands:" in result.stdout
    assert "Seat 0 quit; game abandoned." in result.stdout
    records = read_jsonl(path)
    assert records[-1]["type"] == "result" and records[-1]["winner"] is None
    replayed = run_cli("replay", str(path))
    assert replayed.returncode == 0
    assert "The game was not finished" in replayed.stdout


def test_a_human_detective_never_reads_hidden_stops(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    # Always the first listed move: enough answers for a whole game; the rest of the input is unread.
    result = run_cli("play", "--seed", "5", "--seat", "1=human", "--replay", str(path), stdin="1\n" * 400)
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert last_line(result.stdout).startswith("Winner: ")
    assert "Your turn: detective 1 moves" in result.stdout
    assert "(hidden)" not in result.stdout
    assert_detective_record(result.stdout, factor_moves(read_jsonl(path)))


def test_a_human_dr_factor_sees_his_own_moves(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    path = tmp_path / "game.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--seed", "5", "--seat", "0=human", "--replay", str(path)]) == 0
    out = capsys.readouterr().out
    moves = factor_moves(read_jsonl(path))
    printed = [m for m in map(FACTOR_LINE.match, out.splitlines()) if m is not None]
    assert [m.group(3) for m in printed] == [str(stop) for _, stop in moves]
    assert "You are at" in out


# --- the printer on its own -------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_printer_gives_detectives_no_hidden_stop(seed: int) -> None:
    """Random games with voluntary shows: a detective seat's record leaks no hidden stop."""
    game = load("police07", players=4, voluntary_show=True)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    text = "\n".join(display.format_events(game, state.events, seats={2}))
    moves = [
        (e.ticket, e.stop)
        for e in state.events
        if isinstance(e, FactorMoved) and e.visible(0) and e.stop is not None
    ]
    assert_detective_record(text, moves)
    assert text.splitlines()[-1].startswith("Winner: ")


def test_printing_in_batches_equals_printing_at_once() -> None:
    game = load("police07", voluntary_show=True)
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    streamed = display.make_printer(game)
    lines: list[str] = []
    done = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
        lines += streamed.feed(state.events[done:])
        done = len(state.events)
    assert lines == display.format_events(game, state.events)
    assert streamed.winner_line is not None and lines[-1] == streamed.winner_line


def test_a_game_without_its_own_printer_still_prints() -> None:
    printer = display.GamePrinter(load("police07"))
    state = load("police07").new_initial_state()
    state.apply(state.legal_actions()[0])
    placed = state.events[0]
    assert isinstance(placed, PiecePlaced)
    assert printer.feed(state.events) == [f"  PiecePlaced: piece=0, seat=0, stop={placed.stop}"]


# --- hint, version, bots, serve, usage --------------------------------------------------------


def _position(tmp_path: Path, plies: int) -> Path:
    game = load("police07")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(plies):
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    path = tmp_path / "position.json"
    path.write_text(json.dumps(state.to_json()))
    return path


def test_hint_on_a_saved_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _position(tmp_path, 9)  # 4 start cards, Dr. Factor's move, 3 detectives, Dr. Factor again
    assert main(["hint", "police07", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ranked moves:" in out
    assert re.search(r"^\s+1\. \S+", out, re.MULTILINE)
    assert main(["hint", "police07", str(path), "--bot", "random"]) == 0
    assert "Ranked moves:" in capsys.readouterr().out


def test_hint_on_a_replay_at_a_ply(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "11", "--quiet", "--replay", str(path)]) == 0
    capsys.readouterr()
    assert main(["hint", "police07", str(path), "--ply", "6"]) == 0
    out = capsys.readouterr().out
    assert "detective" in out.splitlines()[0] and "Ranked moves:" in out


@pytest.mark.parametrize(
    ("content", "fault"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"game": "police07", "config": {}, "actions": ["start 1000"]}', "start 1000"),
        ('{"game": "police07", "config": {}, "actions": []}', "chance"),
        ('{"game": "police07", "config": {"players": 99}, "actions": []}', "players"),
    ],
)
def test_hint_on_a_bad_file_names_the_fault(
    content: str, fault: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "position.json"
    path.write_text(content)
    assert main(["hint", "police07", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("copsolver: error: ") and fault in err


def test_hint_on_a_missing_file_and_an_unknown_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["hint", "police07", str(tmp_path / "missing.json")]) == 2
    assert "No such file" in capsys.readouterr().err
    assert main(["hint", "chess", str(tmp_path / "missing.json")]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_hint_and_replay_reject_a_binary_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "noise.json"
    path.write_bytes(bytes(range(128, 256)))
    for argv in (["hint", "police07", str(path)], ["replay", str(path)]):
        assert main(argv) == 2
        assert "not a UTF-8 text file" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import solver

    assert main(["--version"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"copsolver {solver.__version__}"
    assert re.fullmatch(r"compiled kernels: (yes|pure Python \(.+\)|partly: .+)", out[1])


def test_version_reports_the_pure_python_switch() -> None:
    result = run_cli("--version", env={"COPSOLVER_PUREPYTHON": "1"})
    assert result.returncode == 0
    assert "compiled kernels: pure Python (COPSOLVER_PUREPYTHON=1)" in result.stdout


def test_bots_lists_games_and_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    everything = capsys.readouterr().out
    assert re.search(r"^police07: ", everything, re.MULTILINE)
    assert main(["bots", "police07"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("police07: ")
    assert re.search(r"^  heuristic +\S", out, re.MULTILINE)
    assert re.search(r"^  random +\S", out, re.MULTILINE)
    assert out in everything
    assert main(["bots", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_serve_answers_hello_on_stdio() -> None:
    result = run_cli("serve", stdin=json.dumps({"type": "hello", "id": 1}) + "\n")
    assert_clean(result)
    assert result.returncode == 0
    reply = json.loads(result.stdout.splitlines()[0])
    assert reply["type"] == "welcome" and reply.get("id") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["frobnicate"], "invalid choice"),
        (["play", "--players", "many"], "invalid int value"),
        (["play", "--seat", "9=human"], "seats are 0..3"),
        (["play", "--seat", "1"], "expected N=WHO"),
        (["play", "--seat", "1=human", "--seat", "1=random"], "given twice"),
        (["play", "--seat", "1=nobody"], "'nobody' is not"),
        (["play", "--bot", "nobody"], "no such bot"),
        (["play", "--bogus"], "unrecognized arguments"),
        (["play", "--seed", "-3"], "is negative"),
        (["hint", "police07"], "the following arguments are required"),
        (["replay"], "the following arguments are required"),
        (["replay", "x.jsonl", "--as-seat", "x"], "invalid int value"),
    ],
)
def test_bad_arguments_print_usage_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "usage: copsolver" in err and message in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--players", "9"], "players must be 2..6"),
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "--board", "/no/such/board.json"], "cannot read"),
        (["play", "--replay", "/no/such/dir/game.jsonl"], "No such file or directory"),
    ],
)
def test_impossible_requests_fail_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("copsolver: error: ") and message in captured.err
    assert captured.out == ""


def test_bad_arguments_end_to_end_have_no_traceback() -> None:
    for args in (["play", "--players", "9"], ["play", "--seat", "7=human"], ["nosuch"]):
        result = run_cli(*args)
        assert_clean(result)
        assert result.returncode == 2
        assert result.stderr


# --- bad input (issue 19) ---------------------------------------------------------------------


def _one_line_error(captured: pytest.CaptureResult[str]) -> str:
    """The error a user error printed: exactly one line on stderr, nothing on stdout."""
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("copsolver: error: "), captured.err
    return lines[0]


def _replay_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> Path:
    path = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "11", "--quiet", "--replay", str(path), *options]) == 0
    capsys.readouterr()
    return path


NESTED = "[" * 100_000
MAX_BYTES = 4 << 20  # the reader's limit (solver.core.files.MAX_BYTES)


def test_deeply_nested_json_is_one_line_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    nested = tmp_path / "nested.json"
    nested.write_text(NESTED)
    for argv in (["play", "--board", str(nested)], ["hint", "police07", str(nested)],
                 ["replay", str(nested)]):
        assert main(argv) == 2
        assert "not valid JSON: nested too deeply" in _one_line_error(capsys.readouterr())
    lines = _replay_file(tmp_path, capsys).read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    for index in (0, 3):
        bad.write_text("\n".join([*lines[:index], NESTED, *lines[index + 1 :]]) + "\n")
        for argv in (["replay", str(bad)], ["hint", "police07", str(bad), "--ply", "6"]):
            assert main(argv) == 2
            error = _one_line_error(capsys.readouterr())
            assert f"line {index + 1}: not valid JSON: nested too deeply" in error


def test_a_binary_board_is_one_line_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "board.json"
    board.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    assert main(["play", "--board", str(board)]) == 2
    assert _one_line_error(capsys.readouterr()) == (
        f"copsolver: error: board {board}: cannot read it: not a UTF-8 text file (byte 0)"
    )


def test_files_over_the_limit_fail_at_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * MAX_BYTES + b"{}")
    for argv in (["play", "--board", str(big)], ["hint", "police07", str(big)], ["replay", str(big)]):
        assert main(argv) == 2
        error = _one_line_error(capsys.readouterr())
        assert error.endswith(f"{big}: cannot read it: file is over {MAX_BYTES} bytes")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_dev_zero_is_refused_quickly(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["hint", "police07", "/dev/zero"], ["replay", "/dev/zero"],
                 ["play", "--board", "/dev/zero"]):
        assert main(argv) == 2
        error = _one_line_error(capsys.readouterr())
        assert error.endswith("/dev/zero: cannot read it: file is over 4194304 bytes")


def test_directories_and_missing_files_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for path, fault in ((tmp_path, "Is a directory"), (tmp_path / "none.json", "No such file or directory")):
        for argv in (["play", "--board", str(path)], ["hint", "police07", str(path)], ["replay", str(path)]):
            assert main(argv) == 2
            assert _one_line_error(capsys.readouterr()).endswith(f"{path}: cannot read it: {fault}")


@pytest.mark.parametrize("command", ["play", "arena"])
@pytest.mark.parametrize(
    ("game", "flag", "applies"),
    [
        ("gcbc", "--voluntary-show", "--players, --deck, --content"),
        ("gcbc", "--unlimited-tickets", "--players, --deck, --content"),
        ("gcbc", "--free-start", "--players, --deck, --content"),
        ("gcbc", "--board", "--players, --deck, --content"),
        ("lineup", "--voluntary-show", "--players, --board, --suspects, --lucky, --memory"),
        ("lineup", "--deck", "--players, --board, --suspects, --lucky, --memory"),
        ("police07", "--memory", "--players, --voluntary-show, --unlimited-tickets, --free-start, --board"),
    ],
)
def test_a_variant_flag_that_does_not_apply_is_a_usage_error(
    command: str, game: str, flag: str, applies: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    value = {"--board": [str(tmp_path / "b.json")], "--deck": ["4th"], "--memory": ["child"]}.get(flag, [])
    argv = [command, game, flag, *value] + (["--a", "random", "--b", "random"] if command == "arena" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "usage: copsolver" in err
    assert f"error: {flag} does not apply to {game} (its variant flags: {applies})" in err
    assert "__init__" not in err and "unexpected keyword" not in err


#: Every whole-number option of every command: (the words before it, the option).
COUNT_OPTIONS = [
    (["play"], "--seed"),
    (["hint", "police07", "x.json"], "--seed"),
    (["hint", "police07", "x.json"], "--ply"),
    (["hint", "police07", "x.json"], "--iterations"),
    (["review", "x.jsonl"], "--seed"),
    (["review", "x.jsonl"], "--iterations"),
    (["arena"], "--games"),
    (["arena"], "--seed"),
    (["arena"], "--iterations"),
    (["arena"], "--workers"),
    (["web"], "--max-sessions"),
    (["web"], "--max-iterations"),
    (["web"], "--max-nodes"),
]


@pytest.mark.parametrize(("words", "option"), COUNT_OPTIONS, ids=[f"{w[0]} {o}" for w, o in COUNT_OPTIONS])
def test_a_count_option_accepts_the_least_value_its_error_names(
    words: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bots.cli import build_parser

    parser, _ = build_parser()
    refused = 0
    for value in ("-1", "0", "x"):
        try:
            parser.parse_args([*words, option, value])
        except SystemExit:
            refused += 1
            err = capsys.readouterr().err
            least = re.search(r"must be (\d+) or more", err)
            assert least is not None, err
            parsed = parser.parse_args([*words, option, least.group(1)])  # no SystemExit
            assert getattr(parsed, option[2:].replace("-", "_")) == int(least.group(1))
    assert refused >= 2


def test_every_count_option_is_in_the_table() -> None:
    from bots import cli, cli_args

    _, commands = cli.build_parser()
    found = {
        (name, action.option_strings[-1])
        for name, parser in commands.items()
        for action in parser._actions
        if action.type in (cli_args.count_arg, cli_args.positive_int)
    }
    assert found == {(words[0], option) for words, option in COUNT_OPTIONS}


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1"])
def test_seconds_must_be_finite_and_positive(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["hint", "police07", "x.json"], ["arena"]):
        assert main([*argv, "--seconds", value]) == 2
        err = capsys.readouterr().err
        assert f"argument --seconds: {value} must be more than 0 (a finite number of seconds)" in err


def _detective_to_move() -> tuple[Any, Any]:
    game = load("police07", players=4)
    state = game.new_initial_state()
    while state.current_player() != 1:
        if state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply(state.legal_actions()[0])
    return game, state


class _BarePrinter:
    """A printer that prints no position, so the test reads only the prompts' own lines."""

    def describe_view(self, view: Any) -> list[str]:
        return []


def _answers(game: Any, state: Any, seat: int, *lines: str) -> str:
    import io

    from bots.cli import GameAbandoned, Terminal, ask_human

    out = io.StringIO()
    term = Terminal(io.StringIO("".join(f"{x}\n" for x in lines)), out)
    with pytest.raises(GameAbandoned):
        ask_human(game, state, seat, _BarePrinter(), term)  # type: ignore[arg-type]
    return out.getvalue()


def test_a_detective_is_told_the_boards_stop_range() -> None:
    game, state = _detective_to_move()
    out = _answers(game, state, 1, "taxi 999", "taxi 0", "taxi 200")
    assert out.count("is not a stop number (1..196)") == 2
    assert "'taxi 200' is not legal now" in out
    assert "255" not in out


def test_help_and_errors_offer_only_the_notation_of_this_decision() -> None:
    game, state = _detective_to_move()
    texts = [game.action_to_str(a) for a in state.legal_actions()]
    heads = {t.split()[0] for t in texts}
    assert heads <= {"taxi", "bus", "metro", "pass"}
    out = _answers(game, state, 1, "help", "teleport 5", "taxi", "joker water 5")
    for word in ("'start", "'place", "'show'", "'double'", "'joker", "'take"):
        assert word not in out.replace("'joker water 5'", ""), word
    for head in heads:
        assert re.search(rf"'{head} \d+'|'{head}'", out), head
    assert "Other commands:" in out
    # Dr. Factor's first move offers his own notation, doubles and jokers included
    factor = game.new_initial_state()
    while factor.current_player() != 0:
        factor.apply(factor.chance_outcomes()[0][0] if factor.is_chance_node() else factor.legal_actions()[0])
    out = _answers(game, factor, 0, "help")
    assert "'double'" in out and "'joker " in out and "start" not in out


def _board_copy(tmp_path: Path) -> Path:
    from importlib import resources

    board = tmp_path / "my-board.json"
    board.write_text(resources.files("solver.games.police07").joinpath("data/budapest.json").read_text())
    return board


def test_a_replay_does_not_open_the_file_its_header_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = _board_copy(tmp_path)
    path = _replay_file(tmp_path, capsys, "--board", str(board))
    assert json.loads(path.read_text().splitlines()[0])["config"]["board"] == str(board)
    for argv in (["replay", str(path)], ["hint", "police07", str(path), "--ply", "6"]):
        assert main(argv) == 2
        error = _one_line_error(capsys.readouterr())
        # the file's name is shortened when long (a test worker's temporary folder can make it so)
        assert error.startswith(f"copsolver: error: {path}, line 1: the header names the file '/")
        assert error.endswith(
            " as its board; a replay opens no file by itself: give it with --file board=PATH"
        )
    moved = tmp_path / "moved.json"
    board.rename(moved)
    assert main(["replay", str(path), "--file", f"board={moved}"]) == 0
    assert "Winner" in capsys.readouterr().out
    assert main(["hint", "police07", str(path), "--ply", "6", "--file", f"board={moved}"]) == 0
    assert "Ranked moves:" in capsys.readouterr().out


def test_a_position_does_not_open_the_file_its_config_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = _board_copy(tmp_path)
    position = _position(tmp_path, 9)
    data = json.loads(position.read_text())
    data["config"]["board"] = str(board)
    position.write_text(json.dumps(data))
    assert main(["hint", "police07", str(position)]) == 2
    assert "a position opens no file by itself: give it with --file board=PATH" in _one_line_error(
        capsys.readouterr()
    )
    assert main(["hint", "police07", str(position), "--file", f"board={board}"]) == 0
    assert "Ranked moves:" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--file", "board"], "--file 'board': expected OPTION=PATH"),
        (["--file", "deck=x.json"],
         "--file deck=x.json: police07 has no file option 'deck' (its file options: board)"),
        (["--file", "board=a.json", "--file", "board=b.json"], "--file board=b.json: board is given twice"),
    ],
)
def test_bad_file_options_are_usage_errors(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    position = _position(tmp_path, 9)
    assert main(["hint", "police07", str(position), *extra]) == 2
    err = capsys.readouterr().err
    assert "usage: copsolver" in err and message in err


def test_a_shipped_board_needs_no_file_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _replay_file(tmp_path, capsys)
    assert main(["replay", str(path), "--file", f"board={_board_copy(tmp_path)}"]) == 2
    assert "the replay uses the shipped board, not a file" in capsys.readouterr().err


def test_play_and_hint_take_bot_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # --opt reaches the bot: a heuristic GCBC seat reading the exact posterior plays another game
    # than the default estimate on some seed; a hint names the options it was given.
    record = tmp_path / "g.jsonl"
    assert main(["play", "gcbc", "--players", "5", "--seed", "2", "--quiet", "--replay", str(record)]) == 0
    capsys.readouterr()
    assert main(["hint", "gcbc", str(record), "--ply", "30", "--bot", "heuristic",
                 "--opt", "estimate=posterior"]) == 0
    assert "Bot options: estimate=posterior" in capsys.readouterr().out
    games = set()
    for estimate in ("rules", "posterior"):
        assert main(["play", "gcbc", "--players", "5", "--seed", "2", "--quiet",
                     "--opt", f"estimate={estimate}", "--replay", str(tmp_path / f"{estimate}.jsonl")]) == 0
        games.add((tmp_path / f"{estimate}.jsonl").read_text().split("\n", 1)[1])
    capsys.readouterr()
    assert len(games) == 2
    assert main(["play", "gcbc", "--opt", "estimate=psychic"]) == 2
    assert "estimate" in capsys.readouterr().err
