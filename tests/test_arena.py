"""The arena: Wilson intervals, seat-balanced line-ups, seeded deals, backends, the report and the CLI.

Tournaments here are a handful of Police 07 games between the heuristic and random bots (a game
takes milliseconds), plus a generic three-seat run on the toy game of ``tests/toygame.py``. The
process backend is run once against the serial one; Ray is exercised through a stand-in module that
runs tasks at once, since the real one is an optional, heavy install.
"""

from __future__ import annotations

import functools
import json
import math
import sys
import types
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bots import Advice, Bot, registry
from bots.arena import tournament as arena
from bots.arena.tournament import BotSpec, play_game, wilson_interval
from bots.base import Option
from bots.cli import main
from solver import games
from solver.core import Action, ConfigError, IllegalActionError, View
from tests.test_ismcts_bot import FakeClock

Z = 1.959963984540054
HEURISTIC, RANDOM = BotSpec("heuristic"), BotSpec("random")


def wilson_by_roots(k: int, n: int) -> tuple[float, float]:
    """Wilson's bounds as the roots of (k/n - p)^2 = z^2 p (1 - p) / n, a quadratic in p.

    Written from the defining inequality rather than the centre/half-width form the arena uses,
    so the two computations check each other.
    """
    a = n + Z * Z
    b = -(2 * k + Z * Z)
    c = k * k / n
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@pytest.fixture(scope="module")
def police07() -> Any:
    return games.load("police07", players=4)


@pytest.fixture(scope="module")
def small(police07: Any) -> arena.ArenaReport:
    """Heuristic (A) vs random (B), 4 deals, seed 3, serial."""
    return arena.run(police07, HEURISTIC, RANDOM, games=4, seed=3)


# --- Wilson ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "games_", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),  # the classic bounds of the score interval at 0, n/2 and n of 10
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_known_values(wins: int, games_: int, low: float, high: float) -> None:
    got = wilson_interval(wins, games_)
    assert got == pytest.approx((low, high), abs=5e-5)
    assert got == pytest.approx(wilson_by_roots(wins, games_), abs=1e-12)


@pytest.mark.parametrize(("wins", "games_"), [(1, 1), (3, 7), (40, 41), (500, 1000), (2, 200)])
def test_wilson_interval_matches_the_quadratic_and_is_symmetric(wins: int, games_: int) -> None:
    low, high = wilson_interval(wins, games_)
    assert (low, high) == pytest.approx(wilson_by_roots(wins, games_), abs=1e-12)
    assert low <= wins / games_ <= high
    mirror_low, mirror_high = wilson_interval(games_ - wins, games_)
    assert (low, high) == pytest.approx((1 - mirror_high, 1 - mirror_low), abs=1e-12)


def test_wilson_interval_edge_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 5)[0] == 0.0 and wilson_interval(5, 5)[1] == 1.0
    for wins, total in [(-1, 5), (6, 5), (True, 5)]:
        with pytest.raises(ConfigError, match="wins"):
            wilson_interval(wins, total)


# --- line-ups and seeds -----------------------------------------------------------------------


def test_police07_roles_and_line_ups(police07: Any) -> None:
    assert arena.roles(police07) == {"detectives": (1, 2, 3), "factor": (0,)}
    assert arena.lineups(["detectives", "factor"]) == [
        {"detectives": "A", "factor": "B"},
        {"detectives": "B", "factor": "A"},
    ]
    assert arena.lineups(["detectives", "factor"], swap=False) == [{"detectives": "A", "factor": "B"}]
    entrants = {"A": HEURISTIC, "B": RANDOM}
    seats = arena.assignment(arena.roles(police07), {"detectives": "B", "factor": "A"}, entrants)
    assert seats == {0: HEURISTIC, 1: RANDOM, 2: RANDOM, 3: RANDOM}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_generic_line_ups_give_each_entrant_each_seat_equally_often(players: int) -> None:
    names = [f"seat{s}" for s in range(players)]
    plan = arena.lineups(names)
    assert len(plan) == (2 if players == 2 else 2 * players)
    assert len({tuple(sorted(lineup.items())) for lineup in plan}) == len(plan)
    for name in names:
        held = Counter(lineup[name] for lineup in plan)
        assert held["A"] == held["B"]
    # closed under swapping the entrants
    swapped = [{r: "B" if s == "A" else "A" for r, s in lineup.items()} for lineup in plan]
    assert sorted(map(sorted, (x.items() for x in swapped))) == sorted(map(sorted, (x.items() for x in plan)))


def test_an_arena_needs_two_roles() -> None:
    with pytest.raises(ConfigError, match="two roles"):
        arena.lineups(["only"])


def test_deal_seeds_are_a_prefix_and_differ_between_tournament_seeds() -> None:
    assert arena.deal_seeds(1, 5) == arena.deal_seeds(1, 20)[:5]
    assert not set(arena.deal_seeds(1, 50)) & set(arena.deal_seeds(2, 50))
    assert all(0 <= s < 2**32 for s in arena.deal_seeds(9, 30))
    for bad in (-1, True, 1.5):
        with pytest.raises(ConfigError, match="seed"):
            arena.deal_seeds(bad, 3)  # type: ignore[arg-type]


def test_winning_side() -> None:
    assert arena.winning_side([1.0, -1.0, -1.0], ["B", "A", "A"]) == "B"
    assert arena.winning_side([-1.0, 1.0, 1.0], ["B", "A", "A"]) == "A"
    assert arena.winning_side([0.0, 0.0], ["A", "B"]) is None  # nobody did better: a draw
    assert arena.winning_side([2.0, 2.0, -4.0], ["A", "B", "B"]) is None  # best return shared


# --- one game ---------------------------------------------------------------------------------


def test_play_game_records_the_game(police07: Any) -> None:
    seats = {0: RANDOM, 1: HEURISTIC, 2: HEURISTIC, 3: HEURISTIC}
    record = play_game(police07, seats, 12345)
    assert record.seed == 12345
    assert record.bots == ("random", "heuristic", "heuristic", "heuristic")
    assert record.winner in ("factor", "detectives")
    assert sorted(set(record.returns)) == [-1.0, 1.0]
    assert record.moves == sum(record.decisions) > 0
    assert len(record.seconds) == 4 and all(s >= 0.0 for s in record.seconds)
    assert record.actions[0].startswith("start")  # the deal is in the record too
    replayed = games.load("police07", players=4).new_initial_state()
    for text in record.actions:
        replayed.apply_str(text)
    assert replayed.is_terminal() and tuple(replayed.returns()) == record.returns
    assert play_game(police07, seats, 12345).actions == record.actions


def test_an_arena_game_is_the_game_copsolver_play_plays(
    police07: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = play_game(police07, {0: RANDOM, 1: HEURISTIC, 2: HEURISTIC, 3: HEURISTIC}, 777)
    path = tmp_path / "game.jsonl"
    argv = ["play", "police07", "--quiet", "--seed", "777", "--seat", "0=random", "--replay", str(path)]
    assert main(argv) == 0
    capsys.readouterr()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert tuple(r["action"] for r in lines if r["type"] == "action") == record.actions


def test_play_game_needs_every_seat(police07: Any) -> None:
    with pytest.raises(ConfigError, match="seat"):
        play_game(police07, {0: RANDOM, 1: RANDOM}, 1)


class _Cheat(Bot):
    """Plays an action that is never legal."""

    name: ClassVar[str] = "cheat"
    description: ClassVar[str] = "plays an illegal move (tests only)"

    def step(self, view: View) -> Action:
        return 10**9

    def advise(self, view: View, budget: float | None = None) -> Advice:
        raise NotImplementedError


@pytest.fixture
def cheat(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    registry.bots_for("police07")  # load the table before adding to it
    monkeypatch.setitem(registry._registry.setdefault("police07", {}), "cheat", _Cheat)
    yield


@pytest.mark.usefixtures("cheat")
def test_an_illegal_move_names_the_bot_seat_and_seed(police07: Any) -> None:
    with pytest.raises(IllegalActionError, match=r"cheat bot at seat 0 .*deal seed 5"):
        play_game(police07, {0: BotSpec("cheat"), 1: RANDOM, 2: RANDOM, 3: RANDOM}, 5)


# --- time budgets ------------------------------------------------------------------------------


class _Slow(Bot):
    """Takes ``seconds`` x ``factor`` of the fake clock on every decision, then plays the first legal
    action (``factor`` 1: on budget)."""

    name: ClassVar[str] = "slow"
    description: ClassVar[str] = "spends a multiple of its budget on the test's fake clock (tests only)"
    options: ClassVar[dict[str, Option]] = {
        "seconds": Option(None, float, "the budget", 0.001, 10.0),
        "factor": Option(1.0, float, "how many budgets a decision takes", 0.0, 10.0),
    }
    fake_clock: FakeClock | None = None  # the test's, shared by every bot

    def step(self, view: View) -> Action:
        legal = self.check_view(view)
        if _Slow.fake_clock is not None:
            _Slow.fake_clock.now += self.settings["seconds"] * self.settings["factor"]
        return legal[0]

    def advise(self, view: View, budget: float | None = None) -> Advice:
        raise NotImplementedError


@pytest.fixture
def slow(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    """The ``slow`` bot registered for police07 and the fake clock it advances, which the arena's
    serial games read instead of the wall clock."""
    registry.bots_for("police07")
    monkeypatch.setitem(registry._registry.setdefault("police07", {}), "slow", _Slow)
    clock = FakeClock(100.0)
    monkeypatch.setattr(_Slow, "fake_clock", clock)
    monkeypatch.setattr(arena, "play_game", functools.partial(play_game, clock=clock))
    yield clock


def test_overrun_tolerance_is_five_percent_or_two_ms() -> None:
    assert arena.overrun_tolerance(0.2) == pytest.approx(0.01)
    assert arena.overrun_tolerance(0.05) == pytest.approx(0.0025)
    assert arena.overrun_tolerance(0.02) == pytest.approx(0.002)
    assert arena.time_budget(BotSpec("ismcts", {"seconds": 0.05})) == 0.05
    assert arena.time_budget(BotSpec("ismcts", {"iterations": 500})) is None


def test_play_game_records_every_decision_time_on_its_clock(police07: Any, slow: FakeClock) -> None:
    spec = BotSpec("slow", {"seconds": 0.01, "factor": 1.5})
    record = play_game(police07, {0: spec, 1: RANDOM, 2: RANDOM, 3: RANDOM}, 4, clock=slow)
    assert [len(times) for times in record.step_seconds] == list(record.decisions)
    assert record.step_seconds[0] == pytest.approx([0.015] * record.decisions[0])
    assert record.step_seconds[1] == pytest.approx([0.0] * record.decisions[1])  # the clock stood still
    assert record.seconds[0] == pytest.approx(sum(record.step_seconds[0]))


def test_the_arena_flags_the_side_that_overran_its_budget(police07: Any, slow: FakeClock) -> None:
    """A takes 1.1 budgets a decision (past the 5% tolerance), B exactly its budget: only A is flagged,
    on every decision, by a tenth of its budget; the table and the JSON say so."""
    a = BotSpec("slow", {"seconds": 0.1, "factor": 1.1})
    b = BotSpec("slow", {"seconds": 0.1, "factor": 1.0})
    report = arena.run(police07, a, b, games=2, seed=7)
    checks = {o.side: o for o in report.overruns()}
    decisions = {side: sum(len(g.record.step_seconds[s]) for g in report.played
                           for s in arena._seats_held(g, side, arena.OVERALL, report.roles))
                 for side in arena.SIDES}
    assert checks["A"].flagged and checks["A"].overruns == checks["A"].decisions == decisions["A"] > 0
    assert checks["A"].excess == pytest.approx(0.01) and checks["A"].longest == pytest.approx(0.11)
    assert not checks["B"].flagged and checks["B"].decisions == decisions["B"]
    text = arena.format_report(report)
    assert f"A slow(factor=1.1, seconds=0.1) OVERRAN its 0.1 s budget on {decisions['A']} of" in text
    assert "by 10.0 ms on average" in text
    assert "B slow(factor=1.0, seconds=0.1): kept its 0.1 s budget" in text
    data = json.loads(report.dumps())
    by_side = {o["side"]: o for o in data["overruns"]}
    assert by_side["A"]["flagged"] and by_side["A"]["overruns"] == decisions["A"]
    assert by_side["A"]["mean_excess"] == pytest.approx(0.01) and by_side["A"]["tolerance"] == 0.005
    assert not by_side["B"]["flagged"] and by_side["B"]["overruns"] == 0


def test_an_overrun_within_the_tolerance_is_not_flagged(police07: Any, slow: FakeClock) -> None:
    report = arena.run(police07, BotSpec("slow", {"seconds": 0.1, "factor": 1.04}), RANDOM, games=1, seed=2)
    (check,) = report.overruns()  # random has no budget: only A is checked
    assert check.side == "A" and not check.flagged and check.decisions > 0


def test_a_substitution_report_checks_the_substituted_seat(police07: Any, slow: FakeClock) -> None:
    from bots.arena import substitution

    report = substitution.run(police07, BotSpec("slow", {"seconds": 0.05, "factor": 2.0}), RANDOM,
                              games=1, seed=3, seats=[1])
    (check,) = report.overruns()
    seat_decisions = sum(g.record.decisions[1] for g in report.played if g.side == "A")
    assert check.side == "A" and check.overruns == check.decisions == seat_decisions
    assert "OVERRAN its 0.05 s budget" in substitution.format_report(report)
    assert json.loads(report.dumps())["overruns"][0]["flagged"]


# --- tournaments ------------------------------------------------------------------------------


def test_each_deal_is_played_once_per_line_up_on_the_same_deal(small: arena.ArenaReport) -> None:
    assert small.games == 4 and len(small.played) == 8
    assert list(small.deal_seeds) == arena.deal_seeds(3, 4)
    for deal, seed in enumerate(small.deal_seeds):
        pair = [g for g in small.played if g.deal == deal]
        assert [dict(g.lineup) for g in pair] == [
            {"detectives": "A", "factor": "B"},
            {"detectives": "B", "factor": "A"},
        ]
        assert {g.record.seed for g in pair} == {seed}
        # chance draws from its own generator: the start cards are the same whoever sits
        deals = [[a for a in g.record.actions if a.startswith("start")] for g in pair]
        assert deals[0] == deals[1] and len(deals[0]) == 4
    first, second = small.played[0].record, small.played[1].record
    assert first.bots == ("random", "heuristic", "heuristic", "heuristic")
    assert second.bots == ("heuristic", "random", "random", "random")


def test_heuristic_beats_random_and_the_tallies_add_up(small: arena.ArenaReport) -> None:
    a, b = small.find("A"), small.find("B")
    assert a is not None and b is not None
    draws = sum(g.winner_side is None for g in small.played)
    assert a.games == b.games == 8 and a.wins + b.wins + draws == 8
    assert a.wins > b.wins and a.win_rate is not None and a.win_rate > 0.5
    for side in arena.SIDES:
        roles = [small.find(side, role) for role in ("detectives", "factor")]
        assert all(t is not None and t.games == 4 for t in roles)
        overall = small.find(side)
        assert overall is not None
        assert sum(t.wins for t in roles if t is not None) == overall.wins
        assert sum(t.moves for t in roles if t is not None) == overall.moves
        low, high = overall.interval
        assert low <= overall.wins / overall.games <= high
        assert overall.seconds_per_move is not None and overall.seconds_per_move >= 0.0
    # the winner's words agree with the side that held the winning role
    for g in small.played:
        assert g.winner_side == g.lineup[g.record.winner or ""]


def test_the_same_seed_gives_the_same_report(police07: Any, small: arena.ArenaReport) -> None:
    again = arena.run(police07, HEURISTIC, RANDOM, games=4, seed=3)
    assert _counts(again) == _counts(small)
    assert [g.record.actions for g in again.played] == [g.record.actions for g in small.played]
    other = arena.run(police07, HEURISTIC, RANDOM, games=4, seed=4)
    assert [g.record.actions for g in other.played] != [g.record.actions for g in small.played]


def test_process_backend_gives_the_serial_games_in_order(police07: Any, small: arena.ArenaReport) -> None:
    parallel = arena.run(police07, HEURISTIC, RANDOM, games=4, seed=3, backend="process", workers=2)
    assert parallel.backend == "process" and parallel.workers == 2
    assert _counts(parallel) == _counts(small)
    assert [(g.deal, dict(g.lineup), g.record.actions, g.record.returns) for g in parallel.played] == [
        (g.deal, dict(g.lineup), g.record.actions, g.record.returns) for g in small.played
    ]


def _counts(report: arena.ArenaReport) -> list[tuple[str, str, int, int, int, int]]:
    return [(t.side, t.role, t.games, t.wins, t.draws, t.moves) for t in report.tallies]


def test_progress_is_reported_after_every_game(police07: Any) -> None:
    seen: list[tuple[int, int]] = []
    arena.run(police07, RANDOM, HEURISTIC, games=2, seed=1, progress=lambda d, t, g: seen.append((d, t)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_no_swap_plays_only_the_named_line_up(police07: Any) -> None:
    report = arena.run(police07, HEURISTIC, RANDOM, games=3, seed=1, swap=False)
    assert [dict(g.lineup) for g in report.played] == [{"detectives": "A", "factor": "B"}] * 3
    assert {(t.side, t.role) for t in report.tallies} == {
        ("A", "detectives"), ("A", "overall"), ("B", "factor"), ("B", "overall")
    }


def test_bad_entrants_fail_before_any_game(police07: Any) -> None:
    calls: list[int] = []
    with pytest.raises(ConfigError, match="unknown bot 'nobody'"):
        arena.run(police07, BotSpec("nobody"), RANDOM, games=2, seed=1, progress=lambda *a: calls.append(1))
    with pytest.raises(ConfigError, match="option 'epsilon'"):
        arena.run(police07, BotSpec("heuristic", {"epsilon": 2.0}), RANDOM, games=2, seed=1)
    with pytest.raises(ConfigError, match="games"):
        arena.run(police07, HEURISTIC, RANDOM, games=0, seed=1)
    with pytest.raises(ConfigError, match="backend"):
        arena.run(police07, HEURISTIC, RANDOM, games=1, seed=1, backend="cloud")
    assert calls == []


def test_a_generic_game_rotates_the_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(games.GAMES, "hidden_pass", "tests.toygame")
    toy = games.load("hidden_pass", players=3, rounds=1)
    report = arena.run(toy, RANDOM, BotSpec("random"), games=3, seed=5)
    assert list(report.roles) == ["seat0", "seat1", "seat2"]
    assert len(report.lineups) == 6 and len(report.played) == 18
    for side in arena.SIDES:
        for role in report.roles:
            tally = report.find(side, role)
            assert tally is not None and tally.games == 9
        overall = report.find(side)
        assert overall is not None and overall.games == 18
    a, b = report.find("A"), report.find("B")
    assert a is not None and b is not None
    assert a.wins + b.wins + a.draws == 18 and a.draws == b.draws


# --- Ray ---------------------------------------------------------------------------------------


def test_ray_backend_without_ray_is_a_clear_config_error(
    police07: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes ``import ray`` fail, installed or not
    with pytest.raises(ConfigError, match=r"ray package.*pip install"):
        arena.run(police07, HEURISTIC, RANDOM, games=1, seed=1, backend="ray")


class _Ref:
    """A stand-in object reference holding its task's result."""

    def __init__(self, result: Any) -> None:
        self.result = result


class _FakeRay(types.ModuleType):
    """Enough of Ray's API for the backend: a task runs when submitted; ``wait`` returns the oldest."""

    def __init__(self) -> None:
        super().__init__("ray")
        self.started = False
        self.in_flight = 0
        self.most_in_flight = 0

    def is_initialized(self) -> bool:
        return self.started

    def init(self) -> None:
        self.started = True

    def remote(self, function: Any) -> Any:
        fake = self

        class Task:
            @staticmethod
            def remote(*args: Any) -> _Ref:
                fake.in_flight += 1
                fake.most_in_flight = max(fake.most_in_flight, fake.in_flight)
                return _Ref(function(*args))

        return Task

    def wait(self, refs: list[_Ref], num_returns: int) -> tuple[list[_Ref], list[_Ref]]:
        self.in_flight -= num_returns
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref: _Ref) -> Any:
        return ref.result


def test_ray_backend_plays_the_serial_games(
    police07: Any, small: arena.ArenaReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = _FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    report = arena.run(police07, HEURISTIC, RANDOM, games=4, seed=3, backend="ray", workers=3)
    assert fake.started and fake.most_in_flight == 3
    assert report.backend == "ray" and _counts(report) == _counts(small)
    assert [g.record.actions for g in report.played] == [g.record.actions for g in small.played]


# --- the report --------------------------------------------------------------------------------


def test_json_report_schema(small: arena.ArenaReport) -> None:
    data = json.loads(json.dumps(small.to_json()))
    assert data["schema"] == arena.SCHEMA
    assert data["game"] == "police07" and data["config"]["players"] == 4
    assert data["seed"] == 3 and data["games_per_lineup"] == 4 and data["total_games"] == 8
    assert data["deal_seeds"] == arena.deal_seeds(3, 4)
    assert data["entrants"] == {
        "A": {"name": "heuristic", "options": {}, "label": "heuristic"},
        "B": {"name": "random", "options": {}, "label": "random"},
    }
    assert data["roles"] == {"detectives": [1, 2, 3], "factor": [0]}
    assert data["lineups"] == [{"detectives": "A", "factor": "B"}, {"detectives": "B", "factor": "A"}]
    assert data["command"] is None
    assert set(data["run"]) == {"backend", "workers", "started", "seconds"}
    assert data["run"]["started"].endswith("+00:00")
    env = data["environment"]
    assert {"copsolver", "python", "numpy", "platform", "compiled", "kernels"} <= set(env)
    assert "pure_python_requested" in env
    assert isinstance(env["compiled"], bool)
    assert len(data["results"]) == 6
    for row in data["results"]:
        assert set(row) == {
            "side", "bot", "role", "games", "wins", "draws", "losses", "win_rate", "ci95", "moves",
            "seconds_per_move",
        }
        assert row["wins"] + row["draws"] + row["losses"] == row["games"]
        assert row["ci95"] == pytest.approx(list(wilson_interval(row["wins"], row["games"])), abs=1e-6)
    assert len(data["games"]) == 8
    game = data["games"][0]
    assert set(game) == {
        "deal", "lineup", "winner_side", "seed", "bots", "returns", "winner", "reason", "moves",
        "seconds", "decisions", "actions", "teams", "step_seconds",
    }
    assert game["teams"] == ["factor", "detectives", "detectives", "detectives"]
    assert [len(times) for times in game["step_seconds"]] == game["decisions"]
    assert data["overruns"] == []  # neither entrant has a time budget
    assert "games" not in small.to_json(records=False)
    text = small.dumps()
    assert json.loads(text) == json.loads(json.dumps(small.to_json()))
    head = json.dumps({k: v for k, v in small.to_json().items() if k != "games"}, indent=1)
    # one line per game, not per action: the header (whose size follows the kernels listed) plus the games
    assert len(text.splitlines()) <= len(head.splitlines()) + len(data["games"]) + 2


def test_format_report_is_a_table(small: arena.ArenaReport) -> None:
    text = arena.format_report(small)
    assert text.startswith("police07 (4 players): A = heuristic vs B = random; 4 deals x 2 line-up(s)")
    rows = [line for line in text.splitlines() if line.startswith("| A") or line.startswith("| B")]
    assert len(rows) == 6
    assert "95% CI (Wilson)" in text and "serial backend" in text
    a = small.find("A")
    assert a is not None
    low, high = a.interval
    assert f"{100 * low:.1f}-{100 * high:.1f}%" in text


# --- the command line --------------------------------------------------------------------------


def test_cli_arena_writes_the_table_and_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command of the issue, on the default (process) backend."""
    out = tmp_path / "out.json"
    argv = ["arena", "police07", "--detectives", "heuristic", "--factor", "random",
            "--games", "4", "--seed", "1", "--json", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr()
    assert "| A    | heuristic | detectives |" in printed.out
    assert str(out) in printed.out
    data = json.loads(out.read_text())
    assert data["total_games"] == 8 and data["seed"] == 1
    assert data["command"] == [
        "copsolver", "arena", "police07", "--detectives", "heuristic", "--factor", "random",
        "--games", "4", "--seed", "1", "--backend", "process",
    ]
    assert data["run"]["backend"] == "process"
    serial = arena.run(games.load("police07"), HEURISTIC, RANDOM, games=4, seed=1)
    assert [r["wins"] for r in data["results"]] == [t.wins for t in serial.tallies]


def test_cli_generic_form_options_and_budgets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.json"
    argv = ["arena", "--a", "random", "--b", "heuristic", "--b-opt", "epsilon=0.25", "--seconds", "0.5",
            "--games", "2", "--seed", "4", "--backend", "serial", "--players", "3", "--quiet",
            "--json", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr()
    assert "note: --seconds does not apply to heuristic, random" in printed.err
    assert not printed.out.startswith("Arena:")  # --quiet: only the table
    data = json.loads(out.read_text())
    assert data["entrants"]["B"]["options"] == {"epsilon": 0.25}
    assert data["entrants"]["A"]["options"] == {}  # random has no 'seconds' to receive
    assert data["config"]["players"] == 3
    assert "--b-opt" in data["command"] and "--players" in data["command"]


def test_cli_drawn_seed_is_printed_and_recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.json"
    assert main(["arena", "--a", "random", "--b", "random", "--games", "1", "--backend", "serial",
                 "--json", str(out)]) == 0
    seed = json.loads(out.read_text())["seed"]
    assert f"rerun with --seed {seed}" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--detectives", "nobody", "--factor", "random"], "'nobody': police07 has no such bot"),
        (["--a", "heuristic"], "name two entrants"),
        (["--a", "heuristic", "--b", "random", "--factor", "random"], "either by role"),
        (["--detectives", "heuristic"], "give both --detectives and --factor"),
        (["--a", "heuristic", "--b", "random", "--a-opt", "depth=3"], "no option 'depth'"),
        (["--a", "heuristic", "--b", "random", "--a-opt", "epsilon=lots"], "expected a float"),
        (["--a", "heuristic", "--b", "random", "--a-opt", "epsilon=3"], "option 'epsilon' must be in"),
        (["--a", "heuristic", "--b", "random", "--players", "9"], "players must be 2..6"),
        (["--a", "heuristic", "--b", "random", "--json", "/nonexistent/dir/out.json"], "existing folder"),
        (["--detectives", "heuristic", "--factor", "random", "--a-opt", "epsilon=0.1"], "no --a entrant"),
    ],
)
def test_cli_user_errors_exit_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "police07", "--games", "1", "--backend", "serial", *argv]) == 2
    assert message in capsys.readouterr().err


def test_cli_ray_backend_without_ray_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    argv = ["arena", "police07", "--a", "heuristic", "--b", "random", "--games", "1", "--backend", "ray"]
    assert main(argv) == 2
    printed = capsys.readouterr()
    assert "backend 'ray' needs the ray package" in printed.err
    assert "Traceback" not in printed.err and "Arena:" not in printed.out  # failed before starting
