"""The Police Precinct calibration tool (bots.precinct.calibrate): the dirty seats' own bot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import bots
from bots.precinct import calibrate
from solver.core import ConfigError


def test_the_seats_dealt_a_dirty_card_play_the_dirty_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    made = bots.make
    steps: list[tuple[str, int, bool]] = []  # (bot, seat, that seat's view says it is dirty)

    def spy(game: Any, name: str, *, seat: int, rng: Any = None, **options: Any) -> Any:
        bot = made(game, name, seat=seat, rng=rng, **options)
        inner = bot.step

        def step(view: Any) -> Any:
            steps.append((name, seat, view.to_json().get("my_loyalty") == "dirty"))
            return inner(view)

        bot.step = step  # type: ignore[method-assign]
        return bot

    monkeypatch.setattr(bots, "make", spy)
    played = calibrate.play(4, 1, "heuristic", 3, ("random", ()))
    crook = played.dirty.index(True)
    assert sum(played.dirty) == 1
    dirty_steps = [(name, seat) for name, seat, dirty in steps if dirty]
    assert dirty_steps and all(name == "random" and seat == crook for name, seat in dirty_steps)
    assert all(name == "heuristic" for name, _, dirty in steps if not dirty)


def test_the_report_names_the_dirty_bot_and_bad_flags_fail(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    model = Path(__file__).resolve().parent.parent / "solver/belief/data/precinct_behaviour.json"
    assert calibrate.main(["--evaluate", str(model), "--tables", "4:1", "--test", "0:2", "--jobs", "1",
                           "--dirty-bot", "random", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["dirty_bot"] == "random" and report["test_games"] == 2
    with pytest.raises(ConfigError, match="--dirty-opt needs --dirty-bot"):
        calibrate.main(["--evaluate", str(model), "--test", "0:1", "--dirty-opt", "iterations=5"])
