"""``copsolver hint GAME REPLAY --ply N`` at every kind of ply: a seat decision, a chance node (advised
at the next seat decision, with what that seat saw in between), after the end (the result)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots.cli import main
from bots.replays import parse_replay
from solver.core import CHANCE


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ply") / "game.jsonl"
    assert main(["play", "police07", "--seed", "3", "--quiet", "--replay", str(path)]) == 0
    return path


def _chance_plies(path: Path) -> list[int]:
    record = parse_replay(path.read_text(), str(path), None, {})
    state, plies = record.game.new_initial_state(), []
    for ply, action in enumerate(record.state.history):
        if state.current_player() == CHANCE:
            plies.append(ply)
        state.apply(action)
    return plies


def test_a_chance_ply_is_advised_at_the_next_seat_decision(replay: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    plies = _chance_plies(replay)
    assert plies and plies[0] == 0  # the start cards are dealt by chance
    assert main(["hint", "police07", str(replay), "--ply", "0", "--iterations", "50"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    decision = max(p for p in range(plies[-1] + 2) if p not in plies)  # the first seat decision's ply
    assert first.startswith(f"Chance acts at ply 0: the replay's next {decision} actions lead to seat 0's "
                            f"decision at ply {decision}")
    assert "Dr. Factor starts at" in out and "Ranked moves:" in out
    # the same hint as asking at the decision itself, after the chance lines
    assert main(["hint", "police07", str(replay), "--ply", str(decision), "--iterations", "50"]) == 0
    direct = capsys.readouterr().out
    assert out.endswith(direct)


def test_a_chance_ply_shows_only_what_the_deciding_seat_saw(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    # Good Cop Bad Cop's deal is chance: seat 0, deciding next, sees its own cards and no one else's
    path = tmp_path / "gcbc.jsonl"
    assert main(["play", "gcbc", "--players", "4", "--seed", "5", "--quiet", "--replay", str(path)]) == 0
    capsys.readouterr()
    record = parse_replay(path.read_text(), str(path), None, {})
    state = record.game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply(record.state.history[len(state.history)])
    assert state.current_player() == 0
    assert main(["hint", "gcbc", str(path), "--ply", "0", "--bot", "heuristic"]) == 0
    between = capsys.readouterr().out.split("gcbc, seat 0", 1)[0]
    assert "seat 0 is dealt" in between
    for seat in (1, 2, 3):
        assert f"seat {seat} is dealt" not in between  # the other seats' deals stay hidden


def test_after_the_end_the_result_is_given(replay: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for ply in ("80", "500"):
        assert main(["hint", "police07", str(replay), "--ply", ply]) == 0
        out = capsys.readouterr().out
        assert out == (f"The game is over at ply {ply}: nothing to advise.\n"
                       "Winner: the detectives — detective 3 caught Dr. Factor at 134\n")


def test_a_replay_cut_at_chance_is_a_one_line_error(replay: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    lines = replay.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    # the header, two of the four start-card draws, and an unfinished result
    unfinished = '{"type": "result", "winner": null, "reason": "abandoned", "returns": null}'
    cut.write_text("\n".join([lines[0], *lines[1:3], unfinished]) + "\n")
    assert main(["hint", "police07", str(cut), "--ply", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "chance acts at ply 1 and the replay records no seat decision after it" in err


def test_save_view_writes_a_position_that_gives_the_same_hint(replay: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    view_path = tmp_path / "view.json"
    args = ["--iterations", "60", "--seed", "2"]
    assert main(["hint", "police07", str(replay), "--ply", "25", "--save-view", str(view_path), *args]) == 0
    from_replay = capsys.readouterr().out
    saved = json.loads(view_path.read_text())
    assert saved["seat"] == 1 and "history" in saved
    # a detective's view: Dr. Factor's hidden stops are not in the file
    record = parse_replay(replay.read_text(), str(replay), 25, {})
    assert saved == record.state.view(1).to_json()
    assert main(["hint", "police07", str(view_path), *args]) == 0
    assert capsys.readouterr().out == from_replay
