"""``copsolver review``: the evaluator, the marks, the summaries, the command line, and a review of a
seat that depends on nothing that seat could not see.

Every replay here is played in the test from a seed (heuristic bots), so nothing depends on files
outside it; a planted blunder is one move of such a game swapped for a clearly losing one, the rest
of the game played on by the same seeded bots so that the replay stays legal.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bots
from bots import evaluate, review
from bots.cli import main
from bots.replays import replay_header
from bots.review import DecisionReview, Gap, Thresholds, review_game, summarise
from solver import games
from solver.core import Action, ConfigError, Game, IllegalActionError, make_rng, spawn
from solver.core.referee import outcome, play_out
from solver.search.ismcts import Budget

# --- replays made in the test ---------------------------------------------------------------------


def play(game: Game, seed: int, start: Sequence[Action] = (), bot: str = "heuristic") -> list[Action]:
    """The actions of a game that begins with ``start`` and is played on by seeded ``bot`` bots."""
    state = game.new_initial_state()
    for action in start:
        state.apply(action)
    children = spawn(make_rng(seed), game.num_players + 1)
    players = {s: bots.make(game, bot, seat=s, rng=children[s]) for s in range(game.num_players)}
    play_out(state, lambda st, seat: players[seat].step(st.view(seat)), children[-1])
    return list(state.history)


def write_replay(path: Path, game: Game, actions: Sequence[Action], seed: int) -> Path:
    """``actions`` as a replay file (``copsolver play --replay``'s format)."""
    state = game.new_initial_state()
    lines = [replay_header(game, seed, dict.fromkeys(range(game.num_players), "heuristic"))]
    for ply, action in enumerate(actions):
        lines.append({"type": "action", "ply": ply, "seat": state.current_player(),
                      "action": game.action_to_str(action)})
        state.apply(action)
    winner, reason = outcome(state)
    lines.append({"type": "result", "winner": winner, "reason": reason, "returns": state.returns()})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def state_at(game: Game, actions: Sequence[Action], ply: int) -> Any:
    """The state after the first ``ply`` actions."""
    state = game.new_initial_state()
    for action in actions[:ply]:
        state.apply(action)
    return state


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``copsolver ARGS``: exit code, stdout, stderr."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def review_json(capsys: pytest.CaptureFixture[str], tmp: Path, replay: Path, *args: str) -> dict[str, Any]:
    """``copsolver review REPLAY ARGS --json``'s JSON (the command must succeed)."""
    out = tmp / f"review-{len(list(tmp.iterdir()))}.json"
    code, _, err = run(capsys, "review", str(replay), *args, "--json", str(out))
    assert code == 0, err
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def at(data: dict[str, Any], ply: int) -> dict[str, Any]:
    """The reviewed decision at ``ply``."""
    found: list[dict[str, Any]] = [d for d in data["decisions"] if d["ply"] == ply]
    assert len(found) == 1, found
    return found[0]


@pytest.fixture(scope="module")
def police07() -> tuple[Game, list[Action]]:
    game = games.load("police07", players=4)
    return game, play(game, 2)


# --- marks and summaries --------------------------------------------------------------------------


def test_a_loss_is_marked_by_the_thresholds_only_beyond_two_standard_errors() -> None:
    t = Thresholds(0.05, 0.10, 0.20)
    assert t.mark(0.30, 0.01) == "blunder"
    assert t.mark(0.12, 0.01) == "mistake"
    assert t.mark(0.06, 0.01) == "inaccuracy"
    assert t.mark(0.04, 0.0) == ""
    assert t.mark(0.30, 0.15) == ""  # 2 standard errors is 0.30: noise, not a blunder
    assert t.mark(0.30, 0.149) == "blunder"
    assert t.mark(-0.5, 0.0) == ""  # the played move did better: never marked


def decision(ply: int, seat: int, loss: float, played: str = "a", best: str = "b",
             gap: float | None = None) -> DecisionReview:
    return DecisionReview(ply, seat, "", played, best, 0.5, 0.5 + loss, loss, 0.0, "",
                          None if gap is None else Gap(gap, f"gap {gap}"))


def test_a_summary_counts_matches_and_keeps_the_three_biggest_losses_and_the_furthest_belief() -> None:
    ds = [decision(1, 0, 0.0, "x", "x", gap=1.0), decision(2, 0, 0.3, gap=4.0), decision(3, 0, 0.1),
          decision(4, 0, 0.2, gap=2.0), decision(5, 0, 0.05), decision(6, 1, 0.9), decision(7, 0, -0.2)]
    s = summarise(0, ds, skipped=3)
    assert (s.seat, s.decisions, s.matched, s.skipped) == (0, 6, 1, 3)
    assert [d.ply for d in s.biggest] == [2, 4, 3]
    assert s.furthest is not None and s.furthest.ply == 2


# --- the evaluator --------------------------------------------------------------------------------


def test_the_same_move_twice_loses_nothing_and_still_has_a_value(police07: tuple[Game, list[Action]]) -> None:
    game, actions = police07
    state = state_at(game, actions, 10)
    view = state.view(state.current_player())
    move = view.legal_actions[0]
    c = evaluate.compare(game, view, move, move, worlds=16, seed=3)
    assert (c.loss, c.se, c.worlds) == (0.0, 0.0, 16)
    assert 0.0 <= c.value_played == c.value_best <= 1.0


def test_the_evaluator_is_seeded_and_pairs_the_moves(police07: tuple[Game, list[Action]]) -> None:
    game, actions = police07
    state = state_at(game, actions, 10)
    view = state.view(state.current_player())
    a, b = view.legal_actions[:2]
    first = evaluate.compare(game, view, a, b, worlds=32, seed=5)
    assert evaluate.compare(game, view, a, b, worlds=32, seed=5) == first
    assert math.isclose(first.loss, first.value_best - first.value_played, abs_tol=1e-12)
    assert first.se > 0.0
    with pytest.raises(ConfigError, match="worlds"):
        evaluate.compare(game, view, a, b, worlds=1, seed=5)


# --- review_game ----------------------------------------------------------------------------------


def test_a_decision_the_search_sim_does_not_model_is_evaluated_on_the_rules() -> None:
    # Police 07's simulator starts after the set-up: a free-start placement falls back to worlds
    # from the game's resampler and uniform playouts over its rules
    game = games.load("police07", players=4, free_start=True)
    actions = play(game, 1)
    assert game.action_to_str(actions[0]).startswith("place ")
    r = review_game(game, actions, seats=[1], budget=Budget(iterations=20), worlds=4, plies=(0, 1))
    (d,) = r.decisions
    assert d.ply == 0 and d.played.startswith("place ") and 0.0 <= d.value_played <= 1.0



def test_review_game_reviews_the_chosen_seat_and_skips_lone_moves(
    police07: tuple[Game, list[Action]],
) -> None:
    game, actions = police07
    seen: list[tuple[int, int]] = []
    r = review_game(game, actions, seats=[1], budget=Budget(iterations=100), worlds=16, seed=1,
                    progress=lambda done, total: seen.append((done, total)))
    assert r.decisions and {d.seat for d in r.decisions} == {1}
    assert [d.index for d in r.decisions] == sorted(d.index for d in r.decisions)
    assert seen == [(i + 1, len(r.decisions)) for i in range(len(r.decisions))]
    (summary,) = r.summaries
    assert summary.decisions == len(r.decisions) and summary.matched == sum(d.matched for d in r.decisions)
    for d in r.decisions:
        assert d.mark in ("", "inaccuracy", "mistake", "blunder")
        assert 0.0 <= d.value_played <= 1.0 and 0.0 <= d.value_best <= 1.0
        assert d.loss == 0.0 if d.matched else d.se > 0.0 or d.loss == 0.0
    assert r.to_json()["settings"]["budget"] == {"iterations": 100}
    first = review_game(game, actions, seats=[1], worlds=2, plies=(0, 6))
    assert first.settings["budget"] == {"iterations": 1000}  # police07's bot's own default
    assert [d.ply for d in first.decisions] == [r.decisions[0].ply]


def test_a_cancelled_review_returns_what_it_reviewed(police07: tuple[Game, list[Action]]) -> None:
    game, actions = police07
    calls = iter(range(100))
    r = review_game(game, actions, seats=[0], budget=Budget(iterations=50), worlds=4,
                    cancelled=lambda: next(calls) >= 2)
    assert r.stopped and len(r.decisions) == 2


def test_review_game_refuses_what_does_not_fit(police07: tuple[Game, list[Action]]) -> None:
    game, actions = police07
    with pytest.raises(ConfigError, match="seat 4"):
        review_game(game, actions, seats=[4])
    with pytest.raises(ConfigError, match="unknown bot"):
        review_game(game, actions, bot="nobody")
    with pytest.raises(ConfigError, match="budget"):
        review_game(game, actions, options={"iterations": 5})
    with pytest.raises(ConfigError, match="plies"):
        review_game(game, actions, plies=(5, 5))
    with pytest.raises(IllegalActionError):
        review_game(game, [actions[0], actions[0]])


def test_a_game_without_a_review_hook_has_no_belief_gap(
    police07: tuple[Game, list[Action]], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, actions = police07
    quick = Budget(iterations=50)
    with_hook = review_game(game, actions, seats=[1], budget=quick, worlds=4, plies=(0, 40))
    assert any(d.gap is not None for d in with_hook.decisions)  # police07's hook is there
    monkeypatch.setattr(evaluate, "game_review", lambda game: None)
    without = review_game(game, actions, seats=[1], budget=quick, worlds=4, plies=(0, 40))
    assert all(d.gap is None for d in without.decisions) and without.summaries[0].furthest is None
    assert without.to_json(truth=False) == with_hook.to_json(truth=False)


# --- a review of seat N reads nothing seat N did not see ------------------------------------------


def variant_hidden_from(game: Game, actions: list[Action], seat: int, seed: int,
                        upto: int | None = None) -> list[Action]:
    """Another game in which ``seat`` sees exactly what it saw in ``actions`` up to its last decision
    (before ply ``upto``): the hidden facts redrawn by the game's resampler from that seat's view
    there, then played on."""
    end = len(actions) if upto is None else upto
    last = max(p for p in range(end) if state_at(game, actions, p).current_player() == seat)
    view = state_at(game, actions, last).view(seat)
    other = game.resample(view, np.random.default_rng(seed))
    return play(game, seed, other.history)


def test_a_review_of_a_detective_is_the_same_whatever_dr_factor_did_unseen(
    police07: tuple[Game, list[Action]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, actions = police07
    other = variant_hidden_from(game, actions, 1, seed=7)
    # not vacuous: Dr. Factor's hidden moves differ, yet detective 1 saw the same at every decision
    assert other != actions
    decisions = 0
    for ply in range(len(actions)):
        a, b = state_at(game, actions, ply), state_at(game, other, ply)
        if a.current_player() == 1:
            decisions += len(a.legal_actions()) > 1
            assert b.current_player() == 1 and a.view(1) == b.view(1) and actions[ply] == other[ply]
    assert decisions > 10
    reviews = [review_json(capsys, tmp_path, write_replay(tmp_path / f"{i}.jsonl", game, acts, 2),
                           "--seat", "1", "--iterations", "100", "--worlds", "32")
               for i, acts in enumerate((actions, other))]
    for data in reviews:  # the belief gap alone reads the truth: leave it out
        for d in data["decisions"]:
            d.pop("gap")
        for s in data["summaries"]:
            s.pop("furthest")
    assert reviews[0] == reviews[1]
    assert len(reviews[0]["decisions"]) == decisions


# --- the command line -----------------------------------------------------------------------------


def test_review_prints_a_table_per_seat_and_writes_json_and_pictures(
    police07: tuple[Game, list[Action]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, actions = police07
    replay = write_replay(tmp_path / "game.jsonl", game, actions, 2)
    pictures = tmp_path / "svg"
    code, out, err = run(capsys, "review", str(replay), "--seat", "0", "--seat", "2", "--iterations", "50",
                         "--worlds", "8", "--plies", "0:20", "--svg-dir", str(pictures))
    assert code == 0 and err == ""
    assert "Seat 0 (Dr. Factor):" in out and "Seat 2 (detective 2):" in out and "Seat 1" not in out
    assert "Matched the advisor:" in out and "win after played" in out
    plies = [line.split()[0] for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert sorted(p.name for p in pictures.iterdir()) == sorted(
        f"ply-{p}-seat-{s}.svg" for p, s in ((int(p), s) for p, s in _ply_seats(out)))
    assert plies and all(int(p) < 20 for p in plies)
    code, out, err = run(capsys, "review", str(replay), "--seat", "1", "--seconds", "0.01", "--plies", "0:12")
    assert code == 0 and err == "" and "a time budget: not reproducible" in out


def _ply_seats(text: str) -> list[tuple[str, int]]:
    """(ply, seat) of every row of the printed tables."""
    rows, seat = [], -1
    for line in text.splitlines():
        if line.startswith("Seat "):
            seat = int(line.split()[1])
        elif line.strip()[:1].isdigit():
            rows.append((line.split()[0], seat))
    return rows


def test_review_is_reproducible_with_iterations_and_a_window_keeps_the_whole_reviews_numbers(
    police07: tuple[Game, list[Action]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, actions = police07
    replay = write_replay(tmp_path / "game.jsonl", game, actions, 2)
    args = ("--seat", "3", "--iterations", "100", "--worlds", "16", "--seed", "4")
    first = review_json(capsys, tmp_path, replay, *args)
    assert review_json(capsys, tmp_path, replay, *args) == first
    window = review_json(capsys, tmp_path, replay, *args, "--plies", "30:60")
    assert window["decisions"] == [d for d in first["decisions"] if 30 <= d["ply"] < 60]
    assert window["decisions"]
    other_seed = review_json(capsys, tmp_path, replay, *args[:-1], "5")
    assert other_seed["decisions"] != first["decisions"]


BAD = [
    (["review", "{tmp}"], "replay"),
    (["review", "{tmp}/missing.jsonl"], "missing.jsonl"),
    (["review", "{replay}", "--seat", "4"], "--seat 4"),
    (["review", "{replay}", "--seat", "-1"], "--seat -1"),
    (["review", "{replay}", "--iterations", "0"], "--iterations"),
    (["review", "{replay}", "--seconds", "-1"], "--seconds"),
    (["review", "{replay}", "--seconds", "nan"], "--seconds"),
    (["review", "{replay}", "--seconds", "1", "--iterations", "5"], "not allowed"),
    (["review", "{replay}", "--worlds", "1"], "--worlds"),
    (["review", "{replay}", "--worlds", "5000"], "worlds"),
    (["review", "{replay}", "--plies", "9:3"], "--plies"),
    (["review", "{replay}", "--plies", "x"], "--plies"),
    (["review", "{replay}", "--bot", "nobody"], "--bot"),
    (["review", "{replay}", "--opt", "nothing=1"], "--opt"),
    (["review", "{replay}", "--opt", "iterations=5"], "budget"),
    (["review", "{replay}", "--file", "board"], "--file"),
    (["review", "{tmp}/broken.jsonl"], "broken.jsonl, line 1"),
    (["review", "{replay}", "--json", "{tmp}/no/such/dir/review.json"], "review.json"),
]


@pytest.mark.parametrize(("args", "says"), BAD)
def test_bad_input_is_one_line_and_exit_code_2(
    args: list[str], says: str, police07: tuple[Game, list[Action]], capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    game, actions = police07
    replay = write_replay(tmp_path / "game.jsonl", game, actions, 2)
    (tmp_path / "broken.jsonl").write_text("not json\n", encoding="utf-8")
    words = [a.format(tmp=tmp_path, replay=replay) for a in args]
    code, out, err = run(capsys, *words)
    assert code == 2 and out == ""
    message = [line for line in err.splitlines() if "error" in line]
    assert len(message) == 1 and says in message[0], err


def test_svg_dir_is_a_usage_error_for_a_game_without_a_drawing(
    police07: tuple[Game, list[Action]], capsys: pytest.CaptureFixture[str], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bots.draw

    game, actions = police07
    replay = write_replay(tmp_path / "game.jsonl", game, actions, 2)
    monkeypatch.setattr(bots.draw, "drawing_module", lambda name: None)
    code, _, err = run(capsys, "review", str(replay), "--svg-dir", str(tmp_path / "svg"))
    assert code == 2 and "has no drawing" in err and not (tmp_path / "svg").exists()


# --- every title, end to end ----------------------------------------------------------------------

#: (game, its options, seed, seat reviewed, plies A:B, advisor iterations, evaluator worlds, more
#: arguments): small budgets and a window of the game, so that each review takes a second or two.
#: LineUp's planner (its advisor and heuristic) solves its plan once a process, ~15 s: here a random
#: game, and the random bot advises (the planner advises in the slow test below).
TITLES = [
    ("police07", {"players": 4}, 2, 1, "0:40", 50, 16, ()),
    ("gcbc", {"players": 4}, 1, 2, "0:30", 20, 4, ()),
    ("lineup", {"players": 2}, 1, 0, "0:60", 20, 8, ("--bot", "random")),
    ("precinct", {"players": 4, "dirty_cop": True}, 1, 1, "0:60", 20, 4, ()),
    ("escape", {"players": 2}, 1, 0, "150:160", 4, 2, ()),
    pytest.param("lineup", {"players": 2}, 1, 1, "0:60", 20, 8, (), marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("name", "config", "seed", "seat", "plies", "iterations", "worlds", "more"), TITLES,
                         ids=["police07", "gcbc", "lineup", "precinct", "escape", "lineup-planner"])
def test_a_seeded_game_of_every_title_is_reviewed_end_to_end(
    name: str, config: dict[str, Any], seed: int, seat: int, plies: str, iterations: int, worlds: int,
    more: tuple[str, ...], capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    game = games.load(name, **config)
    actions = play(game, seed, bot="random" if name == "lineup" else "heuristic")
    replay = write_replay(tmp_path / "game.jsonl", game, actions, seed)
    out = tmp_path / "review.json"
    code, text, err = run(capsys, "review", str(replay), "--seat", str(seat), "--plies", plies,
                          "--iterations", str(iterations), "--worlds", str(worlds), *more, "--json", str(out))
    assert code == 0 and err == ""
    assert f"Seat {seat} (" in text and "Matched the advisor:" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["game"] == name and data["settings"]["seats"] == [seat]
    assert data["decisions"], "the window holds no decision of the seat"
    start, stop = (int(x) for x in plies.split(":"))
    for d in data["decisions"]:
        assert d["seat"] == seat and start <= d["ply"] < stop
        assert d["mark"] in ("", "inaccuracy", "mistake", "blunder")
        assert d["loss"] == 0.0 if d["matched"] else d["se"] is not None
        if data["unit"] == "win chance":
            assert 0.0 <= d["value_played"] <= 1.0 and 0.0 <= d["value_best"] <= 1.0
    assert data["unit"] == ("score" if name == "escape" else "win chance")
    (summary,) = data["summaries"]
    assert summary["decisions"] == len(data["decisions"])


# --- a planted blunder is marked ------------------------------------------------------------------

#: (game, its options, seed, ply, the clearly losing move planted there, review arguments). Each is
#: one move of the seeded game (heuristic bots) swapped for a move that throws the game away:
#: * police07: Dr. Factor takes a taxi to 27, next to two detectives (they catch him three plies on),
#:   where he played taxi 25, two moves from the nearest;
#: * gcbc: seat 5 investigates instead of shooting the wounded Kingpin, whom its Gun is aimed at: the
#:   shot wins at once, and the Kingpin's team wins the game planted;
#: * precinct: a cop takes no action instead of handling the emergency that otherwise pushes the
#:   crime track to FAIL (the planted game is lost);
#: * escape: on day 3 seat 0 travels into the Gang Quarter instead of escaping: the officers on the way
#:   wound and cuff it, and it is arrested (it won the game as played, scoring $383k).
BLUNDERS = [
    pytest.param("police07", {"players": 4}, 2, 38, "taxi 27", ("--iterations", "200", "--worlds", "64"),
                 id="police07"),
    pytest.param("gcbc", {"players": 6}, 3, 243, "investigate 0.0", ("--iterations", "50", "--worlds", "16"),
                 id="gcbc"),
    pytest.param("precinct", {"players": 4}, 4, 552, "no action", ("--iterations", "30", "--worlds", "16"),
                 id="precinct"),
    pytest.param("escape", {"players": 3}, 3, 283, "travel gang (Gang Quarter) route 1", ("--worlds", "8"),
                 marks=pytest.mark.slow, id="escape"),
]


@pytest.mark.parametrize(("name", "config", "seed", "ply", "bad", "args"), BLUNDERS)
def test_a_planted_blunder_is_marked_and_the_move_played_there_is_not(
    name: str, config: dict[str, Any], seed: int, ply: int, bad: str, args: tuple[str, ...],
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    game = games.load(name, **config)
    actions = play(game, seed)
    state = state_at(game, actions, ply)
    seat, blunder = state.current_player(), game.str_to_action(bad)
    assert blunder in state.legal_actions() and blunder != actions[ply]
    planted = play(game, seed, [*actions[:ply], blunder])
    after = state_at(game, planted, len(planted))
    assert after.is_terminal() and after.returns()[seat] < 0  # the planted game is lost for that seat
    window = ("--seat", str(seat), "--plies", f"{ply}:{ply + 1}", *args)
    marks = {}
    for label, acts in (("planted", planted), ("played", actions)):
        replay = write_replay(tmp_path / f"{label}.jsonl", game, acts, seed)
        marks[label] = at(review_json(capsys, tmp_path, replay, *window), ply)
    assert marks["planted"]["played"] == bad and marks["planted"]["mark"] == "blunder", marks["planted"]
    assert marks["played"]["mark"] != "blunder", marks["played"]


def test_lineup_a_wrong_final_pick_is_marked_since_the_advisor_remembers_what_the_seat_studied(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """LineUp's clearly losing move, a wrong pick where the right one wins the game, lies in the seat's
    memory of the card it studied: no later view holds it (docs/lineup-rules.md, "The study moment").
    The review's advisor is kept through the replay with a perfect memory: it saw the card at the
    seat's study decision, names the right stand, and the evaluator's worlds put the card there."""
    game = games.load("lineup", players=2)
    actions = play(game, 1, bot="random")
    ply = len(actions) - 1
    last = state_at(game, actions, ply)
    seat = last.current_player()
    assert game.action_to_str(actions[ply]).startswith("pick ")  # the winning identification
    assert state_at(game, actions, len(actions)).returns()[seat] > 0
    view = last.view(seat)
    assert view.to_json().get("studying") is None  # the view does not say which stand is right
    wrong = next(a for a in last.legal_actions() if a != actions[ply])
    planted = play(game, 1, [*actions[:ply], wrong], bot="random")
    assert not state_at(game, planted, ply + 1).is_terminal()  # the win is thrown away
    args = ("--seat", str(seat), "--plies", f"{ply}:{ply + 1}", "--bot", "random", "--worlds", "32")
    marks = {}
    for label, acts in (("planted", planted), ("played", actions)):
        replay = write_replay(tmp_path / f"{label}.jsonl", game, acts, 1)
        data = review_json(capsys, tmp_path, replay, *args)
        assert data["settings"]["options"] == {"memory": "perfect"}  # the review's default for lineup
        marks[label] = at(data, ply)
    right = game.action_to_str(actions[ply])
    assert marks["planted"]["played"] == game.action_to_str(wrong) and marks["planted"]["best"] == right
    assert marks["planted"]["mark"] == "blunder", marks["planted"]
    assert marks["played"]["played"] == marks["played"]["best"] == right
    assert marks["played"]["mark"] != "blunder" and marks["played"]["value_played"] == 1.0
    # a fresh advisor from the view alone, without the memory, could not tell the stands apart
    c = evaluate.compare(game, view, wrong, actions[ply], worlds=32, seed=0)
    assert review.thresholds_for(game).mark(c.loss, c.se) == ""


@pytest.mark.slow
def test_a_review_of_a_gcbc_seat_is_the_same_whatever_deal_it_did_not_see(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = games.load("gcbc", players=4)
    actions = play(game, 1)
    seat = 2
    other = variant_hidden_from(game, actions, seat, seed=3, upto=40)
    decisions, last = 0, 0
    for ply in range(40):
        a, b = state_at(game, actions, ply), state_at(game, other, ply)
        if a.current_player() == seat:
            decisions, last = decisions + 1, ply
            assert b.current_player() == seat and a.view(seat) == b.view(seat) and actions[ply] == other[ply]
    # not vacuous: what the other seats saw at the seat's last decision differs (their cards)
    others = [[state_at(game, acts, last).view(s) for s in range(4) if s != seat]
              for acts in (actions, other)]
    assert decisions > 5 and others[0] != others[1]
    args = ("--seat", str(seat), "--plies", f"0:{last}", "--iterations", "20", "--worlds", "4")
    reviews = [review_json(capsys, tmp_path, write_replay(tmp_path / f"{i}.jsonl", game, acts, 1), *args)
               for i, acts in enumerate((actions, other))]
    for data in reviews:
        for d in data["decisions"]:
            d.pop("gap")
        for s in data["summaries"]:
            s.pop("furthest")
    assert reviews[0] == reviews[1] and reviews[0]["decisions"]


def test_a_review_of_a_lineup_seat_is_the_same_whatever_it_did_not_see(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The remembering advisor reads the seat's views and events only: another game in which the seat
    studied the same cards and saw the same things (the other seat's cards and the decks redrawn)
    gives the same review."""
    game = games.load("lineup", players=2)
    actions = play(game, 1, bot="random")
    seat, start, upto = 0, 200, 260  # the advisor follows the seat from ply 0; it reviews 200..259
    last = max(p for p in range(upto) if state_at(game, actions, p).current_player() == seat)
    truth = state_at(game, actions, last)
    assert truth.view(seat).to_json()["phase"] != "pick"
    cards = truth.game.codec.cards
    held = {i + 1: {cards[s][c]: 1.0} for i, (s, c) in enumerate(truth.held[seat])}
    assert held  # not vacuous: the seat holds studied cards that its view no longer shows
    hidden = game.resample(truth.view(seat), np.random.default_rng(3), {"held": held})
    other = play(game, 3, [*hidden.history, actions[last]], bot="random")
    decisions = 0
    for ply in range(last + 1):
        a, b = state_at(game, actions, ply), state_at(game, other, ply)
        if a.current_player() == seat:
            decisions += len(a.legal_actions()) > 1
            assert b.current_player() == seat and a.view(seat) == b.view(seat) and actions[ply] == other[ply]
    # not vacuous: hidden draws (the other seat's cards, the decks) differ before the seat's last decision
    assert decisions > 5 and other[:last] != actions[:last]
    args = ("--seat", str(seat), "--plies", f"{start}:{last + 1}", "--bot", "random", "--worlds", "4")
    reviews = [review_json(capsys, tmp_path, write_replay(tmp_path / f"{i}.jsonl", game, acts, 1), *args)
               for i, acts in enumerate((actions, other))]
    assert reviews[0] == reviews[1] and reviews[0]["decisions"]
