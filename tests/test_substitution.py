"""Seat-substitution tournaments: the team hook, tallies, the paired interval, backends, JSON and the CLI.

Real runs are a few deals of Good Cop Bad Cop (4 players) and Police 07 between the random and
heuristic bots, which take milliseconds a game; the statistics are checked on hand-built records.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bots.arena import substitution
from bots.arena import tournament as arena
from bots.arena.substitution import SubstitutionGame
from bots.arena.tournament import BotSpec, GameRecord, Side, paired_difference
from bots.cli import main
from solver import games
from solver.core import ConfigError
from solver.games.gcbc.deal import team_of

Z = 1.959963984540054
HEURISTIC, RANDOM = BotSpec("heuristic"), BotSpec("random")


@pytest.fixture(scope="module")
def gcbc() -> Any:
    return games.load("gcbc", players=4)


@pytest.fixture(scope="module")
def police07() -> Any:
    return games.load("police07", players=4)


@pytest.fixture(scope="module")
def random_gcbc(gcbc: Any) -> substitution.SubstitutionReport:
    """random vs random in a random field, 2 deals, every seat: 16 games."""
    return substitution.run(gcbc, RANDOM, RANDOM, games=2, seed=7)


@pytest.fixture(scope="module")
def heuristic_p07(police07: Any) -> substitution.SubstitutionReport:
    """heuristic vs random in a random field, 3 deals, seats 0 and 2: 12 games."""
    return substitution.run(police07, HEURISTIC, RANDOM, games=3, seed=1, seats=[0, 2])


# --- the team hook -----------------------------------------------------------------------------


def test_gcbc_team_follows_the_integrity_cards(gcbc: Any) -> None:
    state = gcbc.new_initial_state()
    assert [state.team(s) for s in range(4)] == [None] * 4  # before the deal
    rng = np.random.default_rng(3)
    while state.is_chance_node() or state.turn == 0:
        state.apply(int(rng.choice(state.legal_actions())))
    for seat in range(4):
        assert state.team(seat) == team_of(state.cards[seat]) in ("honest", "crooked")
    state.inverted[0] = True  # Planted Evidence counts Honest as Crooked (leaders still decide)
    assert state.team(0) == team_of(state.cards[0], inverted=True)


def test_police07_and_default_teams(police07: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    state = police07.new_initial_state()
    assert [state.team(s) for s in range(4)] == ["factor", "detectives", "detectives", "detectives"]
    monkeypatch.setitem(games.GAMES, "hidden_pass", "tests.toygame")
    toy = games.load("hidden_pass", players=3, rounds=1)
    assert toy.new_initial_state().team(0) is None  # State's default
    record = arena.play_game(toy, {s: RANDOM for s in range(3)}, seed=1)
    assert record.teams == (None, None, None) and record.to_json()["teams"] == [None, None, None]


# --- statistics on hand-built records -----------------------------------------------------------


def _record(
    returns: list[float], teams: list[str | None], seconds: float = 0.5, moves: int = 5
) -> GameRecord:
    n = len(returns)
    return GameRecord(
        seed=1, bots=("x",) * n, returns=tuple(returns), winner=None, reason="", moves=moves * n,
        seconds=(seconds,) * n, decisions=(moves,) * n, actions=(), teams=tuple(teams),
    )


def test_tally_counts_wins_draws_and_teams_of_the_substituted_seat() -> None:
    entrants: dict[Side, BotSpec] = {"A": BotSpec("a"), "B": BotSpec("b")}
    played = [
        # deal 0, seat 1: A wins as crooked, B loses as honest (the seat's team changed)
        SubstitutionGame(0, 1, "A", _record([-1, 1, 1], ["honest", "crooked", "crooked"], 1.0, 4)),
        SubstitutionGame(0, 1, "B", _record([1, -1, 1], ["honest", "honest", "crooked"])),
        # deal 0, seat 2: a draw for A, a win for B, both crooked
        SubstitutionGame(0, 2, "A", _record([0, 0, 0], ["honest", "crooked", "crooked"], 1.0, 4)),
        SubstitutionGame(0, 2, "B", _record([-1, -1, 1], ["honest", "honest", "crooked"])),
    ]
    rows = {(t.side, t.role): t for t in substitution.tally(played, entrants)}
    assert list(rows) == [("A", "crooked"), ("B", "crooked"), ("B", "honest"), ("A", "overall"),
                          ("B", "overall")]
    a, b = rows["A", "overall"], rows["B", "overall"]
    assert (a.games, a.wins, a.draws, a.losses) == (2, 1, 1, 0)
    assert (b.games, b.wins, b.draws, b.losses) == (2, 1, 0, 1)
    assert (rows["B", "honest"].wins, rows["B", "crooked"].wins) == (0, 1)
    assert a.seconds_per_move == pytest.approx(2.0 / 8)  # the seat's own time and decisions only
    assert a.interval == arena.wilson_interval(1, 2)
    diff = substitution.compare(played)
    assert (diff.pairs, diff.a_wins, diff.b_wins, diff.mean) == (2, 1, 1, 0.0)  # d = [+1, -1]
    with pytest.raises(ConfigError, match="lacks its A or its B"):
        substitution.compare(played[:3])


def test_games_without_teams_count_overall_only() -> None:
    entrants: dict[Side, BotSpec] = {"A": BotSpec("a"), "B": BotSpec("b")}
    played = [SubstitutionGame(0, 0, side, _record([1.5, -1.5], [])) for side in arena.SIDES]
    assert [(t.side, t.role, t.wins) for t in substitution.tally(played, entrants)] == [
        ("A", "overall", 1), ("B", "overall", 1)
    ]


@pytest.mark.parametrize("diffs", [[1, 0, 0, 1, -1, 0, 1, 0], [1] * 7 + [0] * 3 + [-1] * 2, [0, 1]])
def test_paired_interval_is_mean_plus_minus_z_sd_over_root_n(diffs: list[int]) -> None:
    got = paired_difference(diffs)
    n, mean, sd = len(diffs), statistics.fmean(diffs), statistics.stdev(diffs)
    assert got.mean == pytest.approx(mean) and got.sd == pytest.approx(sd)
    half = Z * sd / math.sqrt(n)
    assert got.interval == pytest.approx((max(-1.0, mean - half), min(1.0, mean + half)))
    # n - 1 -> n gives the Wald interval for dependent proportions: p12 - p21 +- z sqrt(...) / sqrt(n)
    p12, p21 = diffs.count(1) / n, diffs.count(-1) / n
    wald = Z * math.sqrt(p12 + p21 - (p12 - p21) ** 2) / math.sqrt(n)
    assert half * math.sqrt((n - 1) / n) == pytest.approx(wald)


def test_paired_interval_edge_cases() -> None:
    assert paired_difference([]).interval == (-1.0, 1.0) and paired_difference([]).mean is None
    one = paired_difference([1])
    assert one.mean == 1.0 and one.sd is None and one.interval == (-1.0, 1.0)
    assert paired_difference([1, 1, 1]).interval == (1.0, 1.0)  # every pair agrees: a point
    with pytest.raises(ConfigError, match="-1, 0 or 1"):
        paired_difference([2])


# --- real runs ---------------------------------------------------------------------------------


def test_identical_bots_play_identical_games_per_pair(random_gcbc: substitution.SubstitutionReport) -> None:
    report = random_gcbc
    assert report.seats == (0, 1, 2, 3) and report.field == RANDOM and len(report.played) == 16
    assert [(g.deal, g.seat, g.side) for g in report.played[:4]] == [(0, 0, "A"), (0, 0, "B"), (0, 1, "A"),
                                                                      (0, 1, "B")]
    for a, b in substitution.pair_up(report.played):
        # same bot, same generator for every seat, same chance generator: the same game
        assert a.record.actions == b.record.actions and a.record.returns == b.record.returns
        assert a.team == b.team == a.record.teams[a.seat] in ("honest", "crooked")
    diff = report.difference
    assert diff.pairs == 8 and diff.mean == 0.0 and diff.interval == (0.0, 0.0)
    a_all, b_all = report.find("A"), report.find("B")
    assert a_all is not None and b_all is not None and a_all.wins == b_all.wins and a_all.games == 8
    teams = {t.role for t in report.tallies} - {arena.OVERALL}
    assert sum(t.games for t in report.tallies if t.side == "A" and t.role in teams) == 8


def test_a_substituted_bot_keeps_the_deal(heuristic_p07: substitution.SubstitutionReport) -> None:
    report = heuristic_p07
    assert report.seats == (0, 2) and len(report.played) == 12
    for a, b in substitution.pair_up(report.played):
        assert a.record.bots[a.seat] == "heuristic" and b.record.bots[b.seat] == "random"
        assert set(a.record.bots) - {"heuristic"} == {"random"} and set(b.record.bots) == {"random"}
        assert a.record.actions[:4] == b.record.actions[:4]  # the four start cards: chance only
        assert a.record.seed == b.record.seed == report.deal_seeds[a.deal]
    assert {t.role for t in report.tallies} == {"factor", "detectives", arena.OVERALL}
    assert report.difference.pairs == 6
    assert re.match(r"heuristic in a random field: [+-]\d+\.\d points over random \(95% CI [+-]",
                    substitution.headline(report))


def test_process_backend_gives_the_serial_games(gcbc: Any) -> None:
    serial = substitution.run(gcbc, RANDOM, RANDOM, field=RANDOM, games=1, seed=11, seats=[1, 3])
    pooled = substitution.run(gcbc, RANDOM, RANDOM, games=1, seed=11, seats=[1, 3], backend="process",
                              workers=2)
    assert pooled.backend == "process" and pooled.workers == 2
    assert [g.record.actions for g in pooled.played] == [g.record.actions for g in serial.played]
    assert [t.to_json()["wins"] for t in pooled.tallies] == [t.to_json()["wins"] for t in serial.tallies]


def test_bad_settings_are_config_errors(gcbc: Any) -> None:
    for seats, message in (([], "at least one seat"), ([4], r"not 0\.\.3"), ([1, 1], "twice"),
                           ([True], "not 0")):
        with pytest.raises(ConfigError, match=message):
            substitution.run(gcbc, RANDOM, RANDOM, games=1, seed=1, seats=seats)
    with pytest.raises(ConfigError, match="games must be"):
        substitution.run(gcbc, RANDOM, RANDOM, games=0, seed=1)
    with pytest.raises(ConfigError, match="the field"):
        substitution.run(gcbc, RANDOM, RANDOM, field=BotSpec("random", {"depth": 2}), games=1, seed=1)


# --- the report --------------------------------------------------------------------------------


def test_json_round_trip(heuristic_p07: substitution.SubstitutionReport) -> None:
    report = heuristic_p07
    data = json.loads(report.dumps())
    assert data == json.loads(json.dumps(report.to_json()))
    assert data["schema"] == substitution.SCHEMA and data["mode"] == "substitution"
    assert data["seats"] == [0, 2] and data["field"]["name"] == "random" and data["seed"] == 1
    assert data["deal_seeds"] == arena.deal_seeds(1, 3) and data["total_games"] == 12
    assert set(data["run"]) == {"backend", "workers", "started", "seconds"}
    assert "compiled" in data["environment"]
    assert data["headline"] == substitution.headline(report)
    assert data["difference"]["pairs"] == 6
    # the results recount from the per-game records
    for row in data["results"]:
        side, team = row["side"], row["team"]
        chosen = [g for g in data["games"] if g["side"] == side and team in (g["team"], "overall")]
        assert row["games"] == len(chosen)
        assert row["wins"] == sum(g["returns"][g["seat"]] > 0 for g in chosen)
    pairs: dict[tuple[int, int], dict[str, int]] = {}
    for g in data["games"]:
        pairs.setdefault((g["deal"], g["seat"]), {})[g["side"]] = int(g["returns"][g["seat"]] > 0)
    d = [p["A"] - p["B"] for p in pairs.values()]
    assert data["difference"]["difference"] == pytest.approx(sum(d) / len(d), abs=1e-6)
    assert "games" not in report.to_json(records=False)


def test_format_report(heuristic_p07: substitution.SubstitutionReport) -> None:
    text = substitution.format_report(heuristic_p07)
    assert text.startswith("police07 (4 players): substitution, A = heuristic vs B = random in seat(s) 0, 2")
    assert "| team at end |" in text and "95% CI (Wilson)" in text
    assert substitution.headline(heuristic_p07) in text and "serial backend" in text
    assert len([line for line in text.splitlines() if re.match(r"\| [AB] ", line)]) == 6


# --- the command line --------------------------------------------------------------------------


def test_cli_substitute_writes_the_table_and_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sub.json"
    argv = ["arena", "gcbc", "--players", "4", "--a", "random", "--b", "random", "--substitute",
            "--field", "random", "--seats", "0,2", "--games", "2", "--seed", "3", "--iterations", "5",
            "--backend", "serial", "--json", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr()
    assert "substitution, A = random vs B = random in seat(s) 0, 2" in printed.out
    assert "random in a random field: +0.0 points over random" in printed.out
    assert "note: --iterations does not apply to random" in printed.err
    data = json.loads(out.read_text())
    assert data["total_games"] == 8 and data["seats"] == [0, 2] and data["config"]["players"] == 4
    assert data["command"] == [
        "copsolver", "arena", "gcbc", "--a", "random", "--b", "random", "--games", "2", "--seed", "3",
        "--iterations", "5", "--substitute", "--field", "random", "--seats", "0,2", "--players", "4",
        "--backend", "serial",
    ]
    direct = substitution.run(games.load("gcbc", players=4), RANDOM, RANDOM, games=2, seed=3, seats=[0, 2])
    assert [g["actions"] for g in data["games"]] == [list(g.record.actions) for g in direct.played]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--a", "random", "--b", "random", "--field", "random"], "--field needs --substitute"),
        (["--a", "random", "--b", "random", "--seats", "0"], "--seats needs --substitute"),
        (["--a", "random", "--b", "random", "--substitute", "--seats", "0,x"], "comma-separated list"),
        (["--a", "random", "--b", "random", "--substitute", "--seats", "9"], "seat 9 is not 0..3"),
        (["--a", "random", "--b", "random", "--substitute", "--seats", "1,1"], "name a seat twice"),
        (["--a", "random", "--b", "random", "--substitute", "--no-swap"], "do not go together"),
        (["--detectives", "random", "--factor", "random", "--substitute"], "with --a and --b"),
        (["--a", "random", "--b", "random", "--substitute", "--field-opt", "x=1"], "name the field's bot"),
        (["--a", "random", "--b", "random", "--substitute", "--field", "nobody"], "'nobody': police07"),
        (["--a", "heuristic", "--b", "random", "--substitute", "--field", "heuristic", "--field-opt",
          "depth=2"], "--field-opt 'depth=2': the heuristic bot has no option"),
    ],
)
def test_cli_bad_flags_exit_2_with_a_message(argv: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "police07", "--games", "1", "--backend", "serial", *argv]) == 2
    printed = capsys.readouterr()
    assert message in printed.err and "Traceback" not in printed.err


# --- the team filter and one baseline table per deal ---------------------------------------------

Key = tuple[int, int, str]


def _counted(report_run: Any) -> tuple[Any, list[tuple[int, int, SubstitutionGame]]]:
    """Run ``report_run(progress)`` and return its report and every progress call."""
    calls: list[tuple[int, int, SubstitutionGame]] = []
    report = report_run(lambda done, total, game: calls.append((done, total, game)))
    return report, calls


def _expected(game: Any, a: BotSpec, b: BotSpec, field: BotSpec, seed: int, deals: int,
              seats: list[int]) -> dict[Key, GameRecord]:
    """Every (deal, seat, side) game played on its own with play_game: the computation without sharing."""
    seeds = arena.deal_seeds(seed, deals)
    out = {}
    for deal in range(deals):
        for seat in seats:
            for side, spec in (("A", a), ("B", b)):
                table = {s: spec if s == seat else field for s in range(game.num_players)}
                out[deal, seat, side] = arena.play_game(game, table, seeds[deal])
    return out


def _same_game(got: GameRecord, want: GameRecord) -> bool:
    return (got.actions, got.returns, got.teams, got.decisions, got.bots) == (
        want.actions, want.returns, want.teams, want.decisions, want.bots)


def _counts(tallies: Any) -> list[tuple[Any, ...]]:
    return [(t.side, t.bot, t.role, t.games, t.wins, t.draws, t.moves) for t in tallies]


@pytest.fixture(scope="module")
def dirty_precinct() -> tuple[substitution.SubstitutionReport, list[tuple[int, int, SubstitutionGame]]]:
    """heuristic vs heuristic in the Dirty Cop's seat of 4-player Police Precinct, 2 deals."""
    game = games.load("precinct", players=4, dirty_cop=True)
    return _counted(lambda progress: substitution.run(game, HEURISTIC, HEURISTIC, games=2, seed=1,
                                                      team="dirty", progress=progress))


def test_team_dirty_substitutes_the_dirty_seat_only(
    dirty_precinct: tuple[substitution.SubstitutionReport, list[tuple[int, int, SubstitutionGame]]]
) -> None:
    report, calls = dirty_precinct
    assert report.team == "dirty" and report.seats == (0, 1, 2, 3)
    pairs = substitution.pair_up(report.played)
    assert [(a.deal, b.deal) for a, b in pairs] == [(0, 0), (1, 1)]  # one Dirty Cop a deal
    for a, b in pairs:
        assert b.record.teams.count("dirty") == 1 and b.record.teams.index("dirty") == a.seat == b.seat
        assert set(b.record.bots) == {"heuristic"} and b.record.seed == report.deal_seeds[b.deal]
        assert a.record.teams == b.record.teams  # the loyalty deal is chance: the same seat in both
        assert a.record.actions == b.record.actions  # A = B: the same game
    assert sum(g.side == "A" for g in report.played) == len(pairs) == report.difference.pairs
    assert report.difference.mean == 0.0 and {t.role for t in report.tallies} == {"dirty", arena.OVERALL}
    # one baseline game a deal, then the A games of the dirty seats; the total grows between phases
    assert report.played_games == 2 + 2 == len(calls)
    assert [(done, total) for done, total, _ in calls] == [(1, 2), (2, 2), (3, 4), (4, 4)]
    assert [g.side for _, _, g in calls] == ["B", "B", "A", "A"]
    data = json.loads(report.dumps())
    assert data["team"] == "dirty" and data["played_games"] == 4 and data["total_games"] == 4
    assert [(g["deal"], g["seat"], g["side"]) for g in data["games"]] == [
        (a.deal, a.seat, side) for a, _ in pairs for side in ("A", "B")]
    text = substitution.format_report(report)
    assert "only the seats on team dirty in the baseline game: 2 pair(s)" in text


def test_one_baseline_table_a_deal_gives_the_unshared_games(gcbc: Any) -> None:
    seats = [0, 2, 3]
    report, calls = _counted(lambda progress: substitution.run(
        gcbc, HEURISTIC, RANDOM, games=2, seed=5, seats=seats, progress=progress))
    assert report.played_games == len(calls) == 2 + 2 * 3  # a B table a deal, an A game a pair
    assert [done for done, _, _ in calls] == list(range(1, 9)) and {t for _, t, _ in calls} == {8}
    want = _expected(gcbc, HEURISTIC, RANDOM, RANDOM, 5, 2, seats)
    assert [(g.deal, g.seat, g.side) for g in report.played] == list(want)  # deal, seat, A before B
    assert all(_same_game(g.record, want[g.deal, g.seat, g.side]) for g in report.played)
    direct = [SubstitutionGame(*key, record) for key, record in want.items()]  # type: ignore[arg-type]
    assert _counts(report.tallies) == _counts(substitution.tally(direct, report.entrants))
    assert report.difference == substitution.compare(direct)
    assert len(report.records()) == 12 and "(8 played: one all-B" in substitution.format_report(report)
    # with a team: only the pairs whose seat is crooked in the unshared B game, A game for A game
    crooked, calls = _counted(lambda progress: substitution.run(
        gcbc, HEURISTIC, RANDOM, games=2, seed=5, seats=seats, team="crooked", progress=progress))
    kept = [(deal, seat) for deal in range(2) for seat in seats
            if want[deal, seat, "B"].teams[seat] == "crooked"]
    assert 0 < len(kept) < 6
    assert [(g.deal, g.seat) for g in crooked.played] == [k for k in kept for _ in "AB"]
    assert all(_same_game(g.record, want[g.deal, g.seat, g.side]) for g in crooked.played)
    chosen = [g for g in direct if (g.deal, g.seat) in kept]
    assert _counts(crooked.tallies) == _counts(substitution.tally(chosen, crooked.entrants))
    assert crooked.difference == substitution.compare(chosen)
    assert crooked.played_games == len(calls) == 2 + len(kept)


def test_a_field_other_than_b_plays_a_baseline_game_per_seat(gcbc: Any) -> None:
    report, calls = _counted(lambda progress: substitution.run(
        gcbc, RANDOM, HEURISTIC, field=RANDOM, games=2, seed=5, seats=[1, 2], progress=progress))
    assert report.played_games == len(calls) == 2 * 2 * 2 == len(report.played)
    want = _expected(gcbc, RANDOM, HEURISTIC, RANDOM, 5, 2, [1, 2])
    assert all(_same_game(g.record, want[g.deal, g.seat, g.side]) for g in report.played)
    equal = substitution.run(gcbc, RANDOM, HEURISTIC, field=BotSpec("heuristic", {}), games=1, seed=5,
                             seats=[1, 2])
    assert equal.played_games == 1 + 2  # a field equal to B is B: one shared table


def test_a_team_no_seat_is_on_gives_an_empty_report(gcbc: Any) -> None:
    report = substitution.run(gcbc, RANDOM, RANDOM, games=2, seed=5, team="nobody")
    assert report.played == () and report.tallies == () and report.played_games == 2
    assert report.difference.pairs == 0 and report.difference.mean is None
    assert "no games (no seat was on team nobody in a baseline game)" in substitution.headline(report)
    assert "0 pair(s) = 0 games" in substitution.format_report(report)
    data = json.loads(report.dumps())
    assert data["team"] == "nobody" and data["games"] == [] and data["difference"]["difference"] is None
    for bad in ("", "  "):
        with pytest.raises(ConfigError, match="team must be a non-empty name"):
            substitution.run(gcbc, RANDOM, RANDOM, games=1, seed=5, team=bad)


def test_cli_team_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "gcbc", "--players", "4", "--a", "heuristic", "--b", "random", "--substitute",
            "--games", "2", "--seed", "5", "--backend", "serial", "--quiet"]
    out = tmp_path / "team.json"
    assert main([*argv, "--team", "crooked", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    command = data["command"]
    assert data["team"] == "crooked" and command[command.index("--team"):][:2] == ["--team", "crooked"]
    assert {g["teams"][g["seat"]] for g in data["games"] if g["side"] == "B"} == {"crooked"}
    assert main([*argv, "--json", str(out)]) == 0
    assert json.loads(out.read_text())["team"] is None
    capsys.readouterr()
    assert main([*argv, "--team", ""]) == 2
    assert "--team: substitution: team must be a non-empty name" in capsys.readouterr().err
    plain = ["arena", "police07", "--a", "random", "--b", "random", "--games", "1", "--team", "x"]
    assert main(plain) == 2
    err = capsys.readouterr().err
    assert "error: --team needs --substitute\n" in err and "Traceback" not in err
