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
