"""The calibration tool of the Good Cop Bad Cop posterior (bots.gcbc.calibrate), end to end
on a few tiny seeded games: it writes a model file the posterior loads and a report with both models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots.gcbc.calibrate import main
from solver.belief.gcbc_behaviour import load_behaviour
from solver.core import ConfigError


@pytest.mark.parametrize("classes", ["team", "hand"])
def test_calibrate_writes_a_loadable_model_and_a_report(tmp_path: Path, classes: str) -> None:
    model, out = tmp_path / "model.json", tmp_path / "report.json"
    assert main(["--players", "4", "--train", "0:5", "--test", "100:102", "--pair-seats", "3",
                 "--classes", classes, "--model", str(model), "--out", str(out)]) == 0
    loaded = load_behaviour(model)
    assert loaded.scheme == classes and loaded.pair_seats == 3 and loaded.weights["announce"]
    assert any(kind.endswith("-seen") for kind in loaded.weights)
    report = json.loads(out.read_text())
    assert report["classes"] == classes and report["test_seeds"] == "100:102"
    for label in ("deduction", "full"):
        rounds = report["players_all"][label]["per_round"]
        assert rounds["1"]["n"] > 0 and 0 < report["players_all"][label]["all"]["team_log_loss"] < 5
    # at the start of round 1 nobody has chosen anything: both models are the same posterior
    first = report["players_all"]
    ded, full = (first[label]["per_round"]["1"]["team_log_loss"] for label in ("deduction", "full"))
    assert ded == pytest.approx(full, abs=1e-9)


def test_bad_seed_range_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        main(["--train", "0-5"])
