"""LineUp bots (bots/lineup/players.py): legal, seeded, view-only play; memory; hints; the terminal;
the protocol."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

import bots
from bots.arena.tournament import BotSpec
from bots.hint import advise, format_advice
from bots.protocol import SeatServer, encode_reply
from solver.core import Action, Seat, State, make_rng, spawn
from solver.core.referee import play_out
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
        level = (levels or ["adult"])[s % len(levels or ["adult"])]
        seats.append(bots.make(game, name, seat=s, rng=rngs[s], memory=level))
    for s, bot in enumerate(seats):
        bot.restart(state.view(s))
    informed = 0

    def act(st: State, seat: Seat) -> Action:
        view = st.view(seat)
        if through_json:
            view = game.view_from_json(json.loads(json.dumps(view.to_json())))
        action = seats[seat].step(view)
        assert action in st.legal_actions()
        return action

    def inform(st: State, _: Seat, __: Action) -> None:
        nonlocal informed
        for event in st.events[informed:]:
            for s, bot in enumerate(seats):
                if event.visible(s):
                    bot.inform(event)
        informed = len(st.events)

    return play_out(state, act, rngs[-1], on_step=inform, max_steps=limit)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_legal_play_to_the_end_for_every_table_size(players: int) -> None:
    state = play(players, ["planner", "greedy", "random"], seed=players, levels=list(LEVELS))
    assert state.is_terminal() and state.winner >= 0


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", ["random", "greedy", "planner"])
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


def test_random_moves_at_random_but_picks_by_its_memory() -> None:
    game = load("lineup", players=2)
    assert bots.available("lineup")["random"].endswith("memory=child|adult|sharp|perfect")
    state = play(2, ["random"], seed=9, levels=["perfect"])
    results = [e for e in state.events if type(e).__name__ == "LineupResult"]
    assert results and all(e.correct for e in results)
    moves = {a for a in state.history if game.action_to_str(a).startswith("move")}
    assert len(moves) > 5  # it wanders


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


def test_planner_hint_ranks_every_move_by_expected_turns() -> None:
    game, state = position(["roll", "die 3"])
    view = state.view(0)
    advice = advise(game, view, bot="planner")
    moves = [r for r in advice.ranked if r.text.startswith("move ")]
    assert len(moves) == len(view.legal_actions) > 2
    # every move gets the plan's expected turns; the bot's choice is the best of them
    assert all(-30 < r.score < 0 for r in moves)
    assert moves[0].score == max(r.score for r in moves)
    assert all("turns to win expected" in r.reason for r in moves[1:])
    assert [r.score for r in moves[1:]] == sorted((r.score for r in moves[1:]), reverse=True)


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
    names = load("lineup").board.scene_names
    assert any(f"moves to {name}\n" in spectator for name in names)  # spaces as a player types them


def test_the_printer_module_imports_first() -> None:
    """bots.lineup.display and bots.display import each other: either may come first."""
    code = "import bots.lineup.display, bots.display as d; print(d.PRINTERS['lineup'].__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout.strip() == "LineUpPrinter", out.stderr[-500:]


def test_the_terminal_shows_a_lineup_as_numbered_portraits() -> None:
    from bots.display import make_printer
    from bots.lineup.display import LineUpPrinter, portrait

    game, state = position(["roll", "die 5", "move bakery", "draw bakery-03", "study", "roll", "die 1",
                            "move 19", "roll", "die 5", "move station", "lineup 1", "innocent bakery-01",
                            "innocent bakery-02", "innocent bakery-04", "guilty 3"])
    printer = make_printer(game, {0})
    assert isinstance(printer, LineUpPrinter)
    lines = printer.describe_view(state.view(0))
    text = "\n".join(lines)
    assert "The lineup (bakery): which one did you see?" in text
    assert all(f"[{j}]" in text for j in range(1, 5)) and "pick 4" in text
    stands = state.view(0).to_json()["lineup"]["stands"]
    assert [c["card"] for c in stands] == ["bakery-01", "bakery-02", "bakery-03", "bakery-04"]
    face = portrait(stands[2]["features"])
    assert any(face[1] in line for line in lines)  # the portraits stand side by side under the numbers
    shown = printer.feed(state.events)
    assert any("the lineup for seat 0 (bakery)" in line for line in shown) and printer.after_prompt() == []


def test_features_the_drawing_does_not_know_are_written_out_whole() -> None:
    from bots.lineup.display import portrait, side_by_side

    cards = [{"hair": "long", "shoes": "sandals-with-socks"}, {"hair": "long", "shoes": "sandals"}]
    assert "shoes: sandals-with-socks" in portrait(cards[0])
    rows = side_by_side(cards)
    assert any("shoes: sandals-with-socks" in line and line.rstrip().endswith("shoes: sandals")
               for line in rows)
    assert rows[0].index("[2]") > rows[-1].index("shoes: sandals-with-socks") + len("shoes: sandals-with")


def test_cli_quiet_still_shows_a_human_the_study_for_its_time_then_hides_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from bots.cli import main

    slept: list[float] = []
    monkeypatch.setenv("COPSOLVER_STUDY_SECONDS", "0.25")
    monkeypatch.setattr("bots.lineup.display.time.sleep", slept.append)
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


class Stateless:
    """A table that asks the seat protocol's stateless ``decide`` for one seat's moves, through JSON
    lines, handing each reply's ``memory`` back with the next request (or not)."""

    def __init__(self, bot: str, options: dict[str, Any], seed: int, carry: bool = True) -> None:
        self.server = SeatServer()
        self.bot, self.options, self.seed, self.carry = bot, options, seed, carry
        self.memory: Any = None
        self.sent: list[Any] = []  # the memory sent with each request

    def send(self, msg: dict[str, Any]) -> dict[str, Any]:
        [reply] = [json.loads(encode_reply(r)) for r in self.server.handle_line(json.dumps(msg))]
        return reply

    def decide(self, view: Any) -> str:
        msg = {"type": "decide", "game": "lineup", "view": view.to_json(), "bot": self.bot,
               "options": self.options, "seed": self.seed, "memory": self.memory}
        self.sent.append(self.memory)
        reply = self.send(msg)
        assert reply["type"] == "decision", reply
        if self.carry:
            self.memory = reply["memory"]
        return str(reply["action"])


def stateless_game(level: str, seed: int, carry: bool = True) -> tuple[Any, Stateless, int]:
    """Seat 0 by stateless decides (planner), checked at every decision against a planner kept alive
    with the same generator; seat 1 a stateful greedy. Returns the end state, the table and the
    number of decisions where the two planners differed."""
    game = load("lineup", players=2)
    state = game.new_initial_state()
    rngs = spawn(make_rng(seed), 3)
    alive = bots.make(game, "planner", seat=0, rng=make_rng(seed), memory=level)
    other = bots.make(game, "greedy", seat=1, rng=rngs[1], memory=level)
    table = Stateless("planner", {"memory": level}, seed, carry)
    alive.restart(state.view(0))
    other.restart(state.view(1))
    differ = 0

    def act(st: State, seat: Seat) -> Action:
        nonlocal differ
        if seat != 0:
            return other.step(st.view(1))
        view = st.view(0)
        text = table.decide(view)
        differ += text != game.action_to_str(alive.step(view))
        return game.str_to_action(text)

    state = play_out(state, act, rngs[2], max_steps=3000)
    return state, table, differ


@pytest.mark.parametrize("level", ["child", "adult"])
def test_stateless_decide_with_memory_carried_plays_as_a_stateful_seat(level: str) -> None:
    state, table, differ = stateless_game(level, seed=21)
    assert state.is_terminal() and differ == 0
    picks = [e for e in state.events if type(e).__name__ == "LineupResult" and e.seat == 0]
    assert len(picks) >= 2
    # at every pick the memory handed over held the card's trace (features noted while studying)
    at_pick = [m for m in table.sent if m is not None and m["state"]["pending"] is not None]
    assert len(at_pick) == len(picks) and all(m["state"]["pending"]["trace"] for m in at_pick)
    text = json.dumps(table.sent)
    assert all(f"{scene}-" not in text for scene in state.game.board.scene_names)  # never a card id


def test_stateless_decide_without_memory_guesses_at_picks() -> None:
    state, _, differ = stateless_game("perfect", seed=21, carry=False)
    picks = [e for e in state.events if type(e).__name__ == "LineupResult" and e.seat == 0]
    assert differ > 0 and picks and not all(e.correct for e in picks)
    state, _, differ = stateless_game("perfect", seed=21)
    picks = [e for e in state.events if type(e).__name__ == "LineupResult" and e.seat == 0]
    assert differ == 0 and picks and all(e.correct for e in picks)


def test_stateless_decide_rejects_bad_memory_with_a_typed_error() -> None:
    game, state = position(["roll", "die 5", "move bakery", "draw bakery-03"])  # seat 0 studies
    table = Stateless("greedy", {}, seed=3)
    table.decide(state.view(0))
    memory = table.memory
    state.apply_str("study")
    for text in ("roll", "die 5", "move bank", "draw bank-01"):  # seat 1
        state.apply_str(text)
    state.apply_str("study")
    view = state.view(0)
    assert view.legal_actions
    good = {"type": "decide", "game": "lineup", "view": view.to_json(), "bot": "greedy", "memory": memory}
    assert table.send(good)["type"] == "decision"
    trace = memory["state"]["traces"][0]

    def with_state(**changes: Any) -> dict[str, Any]:
        return dict(memory, state=dict(memory["state"], **changes))

    bad: list[tuple[Any, str]] = [
        (dict(memory, format="other/1"), "memory.format"),
        (dict(memory, bot="planner"), "memory.bot"),
        (dict(memory, seat=1), "memory.seat"),
        (dict(memory, game="gcbc"), "memory.game"),
        ({k: v for k, v in memory.items() if k != "rng"}, "rng"),
        (dict(memory, rng=dict(memory["rng"], state="x1")), "memory.rng"),
        (dict(memory, rng=dict(memory["rng"], inc="2")), "memory.rng"),
        (dict(memory, rng=dict(memory["rng"], state=str(1 << 130))), "memory.rng"),
        (dict(memory, state=[]), "memory.state"),
        (with_state(traces=[trace, trace]), "memory.state.traces"),
        (with_state(traces=[dict(trace, scene="bank")]), "memory.state.traces[0]"),
        (with_state(traces=[dict(trace, study_turn=99)]), "study_turn"),
        (with_state(traces=[dict(trace, features=dict(trace["features"], hair="purple"))]), "hair"),
        (with_state(traces=[dict(trace, u=dict(trace["u"], hair=1.5))]), "u.hair"),
        (with_state(traces=[dict(trace, guess={})]), "guess"),
        (with_state(traces=["bakery-03"]), "traces[0]"),
        (with_state(pending={"trace": trace, "age": 1, "load": 1}), "pending"),
        (with_state(target=99), "target"),
        (with_state(target=True), "target"),
    ]
    for value, fault in bad:
        reply = table.send(dict(good, memory=value))
        assert reply["type"] == "error" and reply["error"] == "bad_state", (fault, reply)
        assert fault in reply["message"], (fault, reply["message"])
    reply = table.send(dict(good, memory=["not", "an", "object"]))
    assert reply["error"] == "bad_message" and "memory" in reply["message"]
    reply = table.send(dict(good, bot="ismcts", memory=dict(memory, bot="ismcts")))
    assert reply["error"] == "bad_state" and "keeps no memory" in reply["message"]
    # hint_view reads the memory too: with it the held card's chance is the memory's, not a guess
    hint = {"type": "hint_view", "game": "lineup", "view": view.to_json(), "bot": "greedy"}
    assert table.send(dict(hint, memory=dict(memory, bot="greedy")))["type"] == "hint"
    assert table.send(dict(hint, memory=dict(memory, seat=1)))["error"] == "bad_state"


def test_arena_plays_lineup_seat_balanced_with_intervals() -> None:
    from bots.arena import tournament as arena

    game = load("lineup", players=2)
    sharp, forgetful = BotSpec("random", {"memory": "perfect"}), BotSpec("random", {"memory": "child"})
    report = arena.run(game, sharp, forgetful, games=3, seed=4)
    assert list(report.roles) == ["seat0", "seat1"] and len(report.played) == 6
    for side in arena.SIDES:
        overall = report.find(side)
        assert overall is not None and overall.games == 6
        low, high = overall.interval
        assert 0 <= low <= (overall.win_rate or 0) <= high <= 1
    a, b = report.find("A"), report.find("B")
    assert a is not None and b is not None and a.wins + b.wins + a.draws == 6


def test_front_ends_play_the_heuristic_which_is_greedy_and_hint_with_the_planner(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bots.cli import main
    from bots.lineup.players import GreedyBot

    game, state = position(["roll", "die 5", "move bakery", "draw bakery-03", "study",
                            "roll", "die 1", "move 19", "roll", "die 5", "move station"])
    view = state.view(0)
    heuristic = bots.make(game, "heuristic", seat=0, rng=1)
    assert isinstance(heuristic, GreedyBot)
    greedy = bots.make(game, "greedy", seat=0, rng=1)
    assert heuristic.step(view) == greedy.step(view)
    server = SeatServer()
    [decided] = server.handle({"type": "decide", "game": "lineup", "view": view.to_json()})
    assert decided["type"] == "decision" and decided["bot"] == "heuristic"
    [started] = server.handle({"type": "new_game", "game": "lineup", "config": {"players": 2}, "seed": 1})
    [hint] = server.handle({"type": "hint", "game_id": started["game_id"], "seat": 0})
    assert hint["type"] == "hint" and hint["bot"] == "planner"  # LineUp's advisor
    assert main(["play", "lineup", "--players", "2", "--seed", "3"]) == 0
    assert "seat 1: seat 1 (heuristic bot)" in capsys.readouterr().out
