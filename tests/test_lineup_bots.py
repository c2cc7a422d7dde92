"""LineUp bots (bots/lineup.py): legal, seeded, view-only play; memory; hints; the terminal; the protocol."""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
import pytest

import bots
from bots.hint import advise, format_advice
from bots.protocol import SeatServer
from solver.core import CHANCE, make_rng, spawn
from solver.games import load

LEVELS = ("child", "adult", "sharp", "perfect")


def play(players: int, names: list[str], seed: int, levels: list[str] | None = None,
         through_json: bool = False, limit: int = 4000) -> Any:
    """A seeded game of bots; ``through_json``: each view is rebuilt from its JSON before the bot sees it."""
    game = load("lineup", players=players)
    state = game.new_initial_state()
    rngs = spawn(make_rng(seed), players + 1)
    seats = []
    for s in range(players):
        name = names[s % len(names)]
        opts = {} if name == "random" else {"memory": (levels or ["adult"])[s % len(levels or ["adult"])]}
        seats.append(bots.make(game, name, seat=s, rng=rngs[s], **opts))
    for s, bot in enumerate(seats):
        bot.restart(state.view(s))
    informed = 0
    while not state.is_terminal() and len(state.history) < limit:
        seat = state.current_player()
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            p = np.array([q for _, q in outcomes])
            state.apply(outcomes[int(rngs[-1].choice(len(outcomes), p=p / p.sum()))][0])
        else:
            view = state.view(seat)
            if through_json:
                view = game.view_from_json(json.loads(json.dumps(view.to_json())))
            action = seats[seat].step(view)
            assert action in state.legal_actions()
            state.apply(action)
        for event in state.events[informed:]:
            for s, bot in enumerate(seats):
                if event.visible(s):
                    bot.inform(event)
        informed = len(state.events)
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_legal_play_to_the_end_for_every_table_size(players: int) -> None:
    state = play(players, ["planner", "greedy", "random"], seed=players, levels=list(LEVELS))
    assert state.is_terminal() and state.winner >= 0


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", ["greedy", "planner"])
def test_each_bot_and_memory_level_plays_legally(name: str, level: str) -> None:
    state = play(2, [name], seed=11, levels=[level])
    assert state.is_terminal() and state.winner in (0, 1)


def test_same_seed_same_game_and_decisions_use_the_view_only() -> None:
    a = play(3, ["planner", "greedy"], seed=5)
    b = play(3, ["planner", "greedy"], seed=5)
    c = play(3, ["planner", "greedy"], seed=5, through_json=True)
    assert a.history == b.history == c.history


def test_perfect_memory_always_picks_right() -> None:
    state = play(2, ["planner", "greedy"], seed=3, levels=["perfect"])
    results = [e for e in state.events if type(e).__name__ == "LineupResult"]
    assert results and all(e.correct for e in results)


def test_poor_memory_sometimes_picks_wrong() -> None:
    wrong = 0
    for seed in range(4):
        state = play(2, ["greedy"], seed=seed, levels=["child"])
        wrong += sum(1 for e in state.events if type(e).__name__ == "LineupResult" and not e.correct)
    assert wrong > 0


def position(texts: list[str]) -> Any:
    game = load("lineup", players=2)
    state = game.new_initial_state()
    for text in texts:
        state.apply_str(text)
    return game, state


def test_hint_shows_p_correct_per_card_and_the_plan() -> None:
    game, state = position(["roll", "die 5", "move bakery", "draw bakery-03", "study",
                            "roll", "die 1", "move 19"])
    view = state.view(0)
    advice = advise(game, view, bot="planner")
    text = format_advice(game, view, advice)
    assert "Memory (adult): P(correct) in a lineup of 4 now" in text
    assert "card 1  bakery" in text and "age 1 (1 held)" in text
    assert "Plan: " in text and "expected own turns to win" in text
    assert "bakery-03" not in text  # a face-down card is never named


def test_cli_human_study_is_shown_then_hidden_and_bots_never_show_faces(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from bots.cli import main

    monkeypatch.setenv("COPSOLVER_STUDY_SECONDS", "0")
    # each prompt takes the first of these lines that is legal: a scene when one is in reach, else move 1
    scenes = "".join(f"move {name}\n" for name in load("lineup").board.scene_names)
    monkeypatch.setattr("sys.stdin", io.StringIO((scenes + "1\n") * 300))
    main(["play", "lineup", "--players", "2", "--seat", "0=human", "--seat", "1=planner", "--seed", "4"])
    out = capsys.readouterr().out
    assert "Study this" in out
    shown, after = out.split("Study this", 1)
    portrait = after.split("Only one move: study", 1)[0]
    assert "|" in portrait  # the face
    assert after.split("Only one move: study", 1)[1].lstrip("\n").startswith("\x1b[")
    assert "face down now" in after
    assert main(["play", "lineup", "--players", "3", "--seat", "0=planner", "--seat", "1=greedy",
                 "--seat", "2=random", "--seed", "2"]) == 0
    spectator = capsys.readouterr().out
    assert "studies a suspect" in spectator and "Study this" not in spectator and "\x1b[" not in spectator


def test_cli_quiet_still_shows_a_human_the_study_for_its_time_then_hides_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from bots.cli import main

    slept: list[float] = []
    monkeypatch.setenv("COPSOLVER_STUDY_SECONDS", "0.25")
    monkeypatch.setattr("bots.lineup_display.time.sleep", slept.append)
    scenes = "".join(f"move {name}\n" for name in load("lineup").board.scene_names)
    monkeypatch.setattr("sys.stdin", io.StringIO((scenes + "1\n") * 300))
    main(["play", "lineup", "--players", "2", "--seat", "0=human", "--seat", "1=planner", "--seed", "4",
          "--quiet"])
    out = capsys.readouterr().out
    studies = out.count("Study this")
    assert studies >= 1 and "studies a suspect" not in out  # quiet: no record of events
    # every portrait is followed by its erase, after the study time
    assert out.count("\x1b[J") == out.count("face down now") == studies
    assert slept == [0.25] * studies
    for block in out.split("Study this")[1:]:
        assert block.split("Only one move: study", 1)[1].lstrip("\n").startswith("\x1b[")


def test_protocol_serves_lineup_and_the_study_reaches_only_its_seat() -> None:
    server = SeatServer()

    def send(msg: dict[str, Any]) -> list[dict[str, Any]]:
        return server.handle(msg)

    [started] = send({"type": "new_game", "game": "lineup", "config": {"players": 2}, "seed": 1})
    gid = started["game_id"]
    replies = []
    for text in ("roll", "die 5", "move bakery", "draw bakery-03"):
        replies += send({"type": "apply", "game_id": gid, "action": text})
    assert all(r["type"] == "applied" for r in replies)
    assert "features" not in json.dumps(replies) and "bakery-03" not in json.dumps(replies)
    [mine] = send({"type": "view", "game_id": gid, "seat": 0})
    [other] = send({"type": "view", "game_id": gid, "seat": 1})
    assert mine["view"]["studying"]["features"] and other["view"]["studying"] is None
    [events] = send({"type": "events", "game_id": gid, "seat": 1})
    assert not any(e["kind"] == "SuspectStudied" for e in events["events"])
    [events] = send({"type": "events", "game_id": gid, "seat": 0})
    assert any(e["kind"] == "SuspectStudied" for e in events["events"])
    # a whole game of seated bots; the perfect-memory planner recalls every card it studied
    [started] = send({"type": "new_game", "game": "lineup", "config": {"players": 2}, "seed": 2,
                      "bots": {"0": {"name": "planner", "options": {"memory": "perfect"}}, "1": "greedy"}})
    gid = started["game_id"]
    over = False
    for _ in range(50):
        out = send({"type": "advance", "game_id": gid})
        if out[-1].get("over"):
            over = True
            break
    assert over
    [events] = send({"type": "events", "game_id": gid, "seat": 0})
    results = [e for e in events["events"] if e["kind"] == "LineupResult" and e["seat"] == 0]
    assert results and all(e["correct"] for e in results)
