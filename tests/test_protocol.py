"""The seat protocol (bots/protocol.py): transcripts, stateless requests, typed errors, no leaks,
and the stdio and TCP transports."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bots
import bots.protocol as protocol
from bots.protocol import MAX_LINE, ErrorKind, SeatServer, encode_reply, serve_lines, tcp_server
from solver.core import TERMINAL, State, referee
from solver.games import load
from solver.games.police07.codec import REVEALED_MOVES
from solver.games.police07.rules import Police07State
from tests.toygame import HiddenPass

ROOT = Path(__file__).resolve().parents[1]
DETECTIVE_BOTS = {"1": "heuristic", "2": "heuristic", "3": "random"}
ALL_BOTS = {"0": "heuristic", "1": "heuristic", "2": "heuristic", "3": "random"}


class Client:
    """Talks to a SeatServer through lines, as a front end would; every reply must be JSON."""

    def __init__(self, server: SeatServer | None = None) -> None:
        self.server = server if server is not None else SeatServer()
        self.transcript: list[tuple[str, list[str]]] = []

    def send(self, msg: dict[str, Any] | str) -> list[dict[str, Any]]:
        line = msg if isinstance(msg, str) else json.dumps(msg)
        out = [encode_reply(r) for r in self.server.handle_line(line)]
        self.transcript.append((line, out))
        return [json.loads(text) for text in out]

    def one(self, msg: dict[str, Any] | str) -> dict[str, Any]:
        replies = self.send(msg)
        assert len(replies) == 1, replies
        return replies[0]

    def error(self, msg: dict[str, Any] | str, kind: ErrorKind) -> dict[str, Any]:
        reply = self.one(msg)
        assert reply["type"] == "error", reply
        assert reply["error"] == kind.value, reply
        assert isinstance(reply["message"], str) and reply["message"], reply
        return reply

    def state(self, game_id: str) -> State:
        return self.server.tables[game_id].state


#: Makes a protocol client: in-process (:class:`Client`) or over the web transport (a WebSocket).
ClientFactory = Callable[[], Any]


@pytest.fixture(params=["in_process", "websocket"])
def make_client(request: pytest.FixtureRequest) -> Iterator[ClientFactory]:
    """The same tests over both transports: the web one must behave as the server does in-process."""
    if request.param == "in_process":
        yield Client
        return
    from starlette.testclient import TestClient

    from bots.web.server import WebApp
    from tests.test_web_server import PORT, ws_factory

    app = WebApp(port=PORT)
    with TestClient(app.app, base_url=f"http://127.0.0.1:{PORT}") as http:
        make, close = ws_factory(app, http)
        try:
            yield make
        finally:
            close()
    app.close()


def start(client: Any, bots: dict[str, Any] | None = None, seed: int = 7, **config: Any) -> str:
    msg: dict[str, Any] = {"type": "new_game", "id": "new", "game": "police07", "seed": seed}
    if bots is not None:
        msg["bots"] = bots
    if config:
        msg["config"] = config
    reply = client.one(msg)
    assert reply["type"] == "game_started", reply
    return str(reply["game_id"])


# --- the scripted transcript ----------------------------------------------------------------------
def test_transcript_human_factor_against_detective_bots(make_client: ClientFactory) -> None:
    client = make_client()
    welcome = client.one({"type": "hello", "id": 1})
    assert welcome["type"] == "welcome" and welcome["id"] == 1
    assert welcome["protocol"] == 1
    assert isinstance(welcome["engine"], str) and isinstance(welcome["compiled"], bool)
    assert {"random", "heuristic"} <= set(welcome["games"]["police07"]["bots"])

    started = client.one({"type": "new_game", "id": 2, "game": "police07", "seed": 11,
                          "bots": DETECTIVE_BOTS})
    assert started["type"] == "game_started" and started["id"] == 2
    game_id = started["game_id"]
    assert started["players"] == 4
    assert started["seats"] == {"0": None, "1": "heuristic", "2": "heuristic", "3": "random"}
    assert started["decision"]["kind"] == "chance"

    # The start cards are dealt by chance; then Dr. Factor, who has no bot, must move.
    replies = client.send({"type": "advance", "id": 3, "game_id": game_id})
    assert [r["type"] for r in replies] == ["applied"] * 4 + ["advanced"]
    assert all(r["id"] == 3 for r in replies)
    assert [r["public"]["action"].split()[0] for r in replies[:4]] == ["start"] * 4
    assert replies[-1]["steps"] == 4
    assert replies[-1]["decision"]["seat"] == 0 and not replies[-1]["over"]

    moves = 0
    while True:
        view = client.one({"type": "view", "id": "v", "game_id": game_id, "seat": 0})
        assert view["type"] == "view" and view["seat"] == 0
        assert view["view"]["role"] == "factor" and view["view"]["decision"]["seat"] == 0
        legal = view["view"]["legal_actions"]
        assert legal
        # A Dr. Factor move: the last listed (often a joker or double, so those paths run too).
        applied = client.one({"type": "apply", "id": "a", "game_id": game_id, "action": legal[-1]})
        assert applied["type"] == "applied" and applied["game_id"] == game_id
        assert "action" not in applied and "seat" not in applied  # unaddressed: public only
        moves += 1
        if applied["over"]:
            break
        if applied["decision"]["seat"] == 0:  # the second half of a double, or a ticket to take
            continue
        replies = client.send({"type": "advance", "id": "adv", "game_id": game_id})
        assert replies[-1]["type"] == "advanced"
        assert all(r["type"] == "applied" for r in replies[:-1])
        if replies[-1]["over"]:
            break
        assert replies[-1]["decision"]["seat"] == 0
    final = client.state(game_id)
    assert final.is_terminal()
    last = replies[-1] if not applied["over"] else applied
    assert last["returns"] == final.returns()
    assert last["decision"]["seat"] == TERMINAL
    assert moves >= 1

    client.error({"type": "apply", "id": "late", "game_id": game_id, "action": legal[0]}, ErrorKind.GAME_OVER)
    ended = client.one({"type": "end_game", "id": 9, "game_id": game_id})
    assert ended == {"type": "ended", "id": 9, "game_id": game_id, "over": True}
    client.error({"type": "view", "game_id": game_id, "seat": 0}, ErrorKind.UNKNOWN_GAME_ID)
    assert client.one({"type": "bye", "id": 10}) == {"type": "bye", "id": 10}
    assert client.server.closed


def test_welcome_offers_each_games_and_bots_options_as_specs() -> None:
    """A form built from welcome offers what the server accepts: every game and bot option with its
    range or choices, and a new_game with each choice or bound is accepted."""
    from solver import games

    welcome = SeatServer().handle_line(json.dumps({"type": "hello"}))[0]
    for name in games.names():
        entry = welcome["games"][name]
        spec = games.spec(name)
        assert list(entry["options"]) == ["players", *spec.options]
        players = entry["options"]["players"]
        assert (players["minimum"], players["maximum"]) == (spec.min_players, spec.max_players)
        for option, opt in spec.options.items():
            shown = entry["options"][option]
            assert shown["default"] == opt.default and shown["help"] == opt.help
            assert shown.get("content", False) == opt.file
            assert shown.get("choices") == (list(opt.choices) if opt.choices is not None else None)
        registered = bots.registry.bots_for(name)
        assert set(entry["bot_options"]) == set(registered) == set(entry["bots"])
        for bot, cls in registered.items():
            assert set(entry["bot_options"][bot]) == set(cls.options)
    lineup = welcome["games"]["lineup"]["bot_options"]
    assert lineup["planner"]["memory"]["choices"] == ["child", "adult", "sharp", "perfect"]
    assert {"iterations", "seconds"} <= set(lineup["ismcts"])
    # the bounds offered are accepted: a game at the most players, a bot at each offered choice
    server = SeatServer()
    most = welcome["games"]["lineup"]["options"]["players"]["maximum"]
    for memory in lineup["planner"]["memory"]["choices"]:
        reply = server.handle_line(json.dumps({"type": "new_game", "game": "lineup", "seed": 1,
                                               "config": {"players": most},
                                               "bots": {"1": {"name": "planner",
                                                              "options": {"memory": memory}}}}))[0]
        assert reply["type"] == "game_started" and reply["players"] == most, reply


def test_bots_only_game_is_seed_deterministic() -> None:
    def play(seed: int) -> list[dict[str, Any]]:
        client = Client()
        game_id = start(client, ALL_BOTS, seed=seed)
        replies = client.send({"type": "advance", "game_id": game_id})
        assert replies[-1]["type"] == "advanced" and replies[-1]["over"]
        return replies

    assert play(5) == play(5)
    # Different seeds deal different start cards (with overwhelming probability).
    assert [r["public"] for r in play(5)[:4]] != [r["public"] for r in play(6)[:4]]


def test_act_and_chance_steps(make_client: ClientFactory) -> None:
    client = make_client()
    game_id = start(client, {"0": "heuristic", "2": "random"})
    client.error({"type": "act", "game_id": game_id, "seat": 0}, ErrorKind.NOT_YOUR_TURN)  # chance first
    for _ in range(4):
        assert client.one({"type": "chance", "game_id": game_id})["type"] == "applied"
    client.error({"type": "chance", "game_id": game_id}, ErrorKind.NOT_YOUR_TURN)  # Dr. Factor's turn
    client.error({"type": "act", "game_id": game_id, "seat": 1}, ErrorKind.NOT_YOUR_TURN)
    before = client.state(game_id).to_json()
    client.error({"type": "hint", "game_id": game_id, "seat": 1}, ErrorKind.NOT_YOUR_TURN)
    acted = client.one({"type": "act", "id": "x", "game_id": game_id, "seat": 0})
    # Addressed to seat 0: his own move in full; the public part says only what detectives see.
    assert acted["seat"] == 0
    state = client.state(game_id)
    assert acted["action"] == state.game.action_to_str(state.history[-1])
    assert len(state.history) == len(before["actions"]) + 1
    assert acted["public"]["action"] == state.view(1).to_json()["history"][-1][1]
    # Seat 1 has no bot: act is refused, the table must send the move with apply.
    assert acted["decision"]["seat"] == 1
    client.error({"type": "act", "game_id": game_id, "seat": 1}, ErrorKind.NOT_YOUR_TURN)


def test_view_events_and_hint_for_one_seat(make_client: ClientFactory) -> None:
    client = make_client()
    game_id = start(client, ALL_BOTS | {"0": "random"})
    client.send({"type": "advance", "game_id": game_id})
    state = client.state(game_id)
    for seat in range(4):
        reply = client.one({"type": "events", "game_id": game_id, "seat": seat})
        visible = [e.to_json() for e in state.events_for(seat)]
        assert reply["events"] == visible and reply["next"] == len(visible)
        tail = client.one({"type": "events", "game_id": game_id, "seat": seat, "since": 5})
        assert tail["events"] == visible[5:]
        view = client.one({"type": "view", "game_id": game_id, "seat": seat})["view"]
        assert view == state.view(seat).to_json()

    client2 = make_client()
    game_id = start(client2, DETECTIVE_BOTS)
    client2.send({"type": "advance", "game_id": game_id})
    hint = client2.one({"type": "hint", "id": "h", "game_id": game_id, "seat": 0})
    # no bot named: the game's advisor, its advice resolved (decided_by and note say by whom)
    assert hint["type"] == "hint" and hint["seat"] == 0 and hint["bot"] == "ismcts"
    assert {"decided_by", "note"} <= set(hint["advice"])
    legal = client2.state(game_id).view(0).to_json()["legal_actions"]
    assert sorted(r["text"] for r in hint["advice"]["ranked"]) == sorted(legal)
    random_hint = client2.one({"type": "hint", "game_id": game_id, "seat": 0, "bot": "random"})
    assert random_hint["bot"] == "random"
    client2.error({"type": "hint", "game_id": game_id, "seat": 0, "bot": "nobody"}, ErrorKind.BAD_CONFIG)
    client2.error({"type": "hint", "game_id": game_id, "seat": 0, "options": {"epsilon": 7}},
                  ErrorKind.BAD_CONFIG)


# --- stateless requests ---------------------------------------------------------------------------
def _detective_view() -> dict[str, Any]:
    """A detective's view JSON from a real game at that detective's turn."""
    client = Client()
    game_id = start(client, {"0": "heuristic", "2": "heuristic", "3": "heuristic"}, seed=3)
    for _ in range(3):
        client.send({"type": "advance", "game_id": game_id})
        state = client.state(game_id)
        legal = state.view(1).legal_actions
        client.one({"type": "apply", "game_id": game_id, "action": state.game.action_to_str(legal[0])})
    client.send({"type": "advance", "game_id": game_id})
    view = client.state(game_id).view(1).to_json()
    assert view["legal_actions"], "seat 1 should be to act"
    return view


def test_decide_is_stateless_and_reads_only_the_view() -> None:
    view = _detective_view()
    client = Client()
    decided = client.one({"type": "decide", "id": 1, "game": "police07", "view": view, "seed": 4})
    assert decided["type"] == "decision" and decided["seat"] == 1
    assert decided["action"] in view["legal_actions"]
    # Same seed, same answer; config given explicitly or taken from the view.
    again = client.one({"type": "decide", "id": 2, "game": "police07", "config": view["config"],
                        "view": view, "seed": 4})
    assert again["action"] == decided["action"]
    assert client.server.tables == {}  # nothing was kept
    rnd = client.one({"type": "decide", "game": "police07", "view": view, "bot": "random", "seed": 1})
    assert rnd["bot"] == "random" and rnd["action"] in view["legal_actions"]

    hint = client.one({"type": "hint_view", "game": "police07", "view": view})
    assert hint["type"] == "hint" and hint["seat"] == 1 and "game_id" not in hint
    assert sorted(r["text"] for r in hint["advice"]["ranked"]) == sorted(view["legal_actions"])

    tampered = dict(view, factor=dict(view["factor"], stop=view["pieces"][0]["stop"]))
    client.error({"type": "decide", "game": "police07", "view": tampered}, ErrorKind.BAD_STATE)
    client.error({"type": "decide", "game": "police07", "view": {"game": "police07"}}, ErrorKind.BAD_STATE)
    client.error({"type": "hint_view", "game": "police07", "view": dict(view, seat=9)}, ErrorKind.BAD_STATE)
    client.error({"type": "decide", "game": "police07", "config": {"players": 5}, "view": view},
                 ErrorKind.BAD_STATE)  # the view is not of a 5-player game
    waiting = load("police07").new_initial_state().view(2).to_json()
    client.error({"type": "decide", "game": "police07", "view": waiting}, ErrorKind.NOT_YOUR_TURN)
    client.error({"type": "decide", "game": "police07", "view": view, "bot": "nobody"}, ErrorKind.BAD_CONFIG)
    client.error({"type": "decide", "game": "police07", "view": []}, ErrorKind.BAD_MESSAGE)
    client.error({"type": "decide", "game": "police07"}, ErrorKind.BAD_MESSAGE)


def test_decide_memory_carries_a_bot_from_one_request_to_the_next() -> None:
    """Any game, any bot: a reply's memory handed back makes the fresh bot go on as one kept alive
    (its generator included); a bot that keeps nothing accepts only its own label and null state."""
    view = _detective_view()
    game = load("police07")
    client = Client()
    live = bots.make(game, "random", seat=1, rng=np.random.default_rng(8))
    memory = None
    for _ in range(6):
        reply = client.one({"type": "decide", "game": "police07", "view": view, "bot": "random", "seed": 8,
                            "memory": memory})
        assert reply["action"] == game.action_to_str(live.step(game.view_from_json(view)))
        memory = reply["memory"]
        assert memory["format"] == "copsolver-bot-memory/1" and memory["state"] is None
        assert (memory["game"], memory["bot"], memory["seat"]) == ("police07", "random", 1)
    heuristic = client.one({"type": "decide", "game": "police07", "view": view})["memory"]
    again = {"game": "police07", "view": view, "memory": heuristic}
    assert client.one({"type": "decide", **again})["type"] == "decision"
    assert client.one({"type": "hint_view", **again, "bot": "heuristic"})["type"] == "hint"
    # hint_view's default bot is the game's advisor, whose memory this is not
    refused = client.error({"type": "hint_view", **again}, ErrorKind.BAD_STATE)
    assert "memory.bot" in refused["message"]
    for bad in (dict(memory, state={"notes": 1}), dict(memory, bot="heuristic"), {}, dict(memory, rng=None)):
        client.error({"type": "decide", "game": "police07", "view": view, "bot": "random", "memory": bad},
                     ErrorKind.BAD_STATE)
    client.error({"type": "decide", "game": "police07", "view": view, "memory": "x"}, ErrorKind.BAD_MESSAGE)


# --- malformed input ------------------------------------------------------------------------------
def test_every_malformed_input_gets_a_typed_error_and_changes_nothing(make_client: ClientFactory) -> None:
    client = make_client()
    game_id = start(client, DETECTIVE_BOTS)
    client.send({"type": "advance", "game_id": game_id})
    legal_text = client.state(game_id).view(0).to_json()["legal_actions"]
    over_client = make_client()
    over_id = start(over_client, ALL_BOTS)
    over_client.send({"type": "advance", "game_id": over_id})

    g = game_id
    cases: list[tuple[str | dict[str, Any], ErrorKind]] = [
        ("this is not json", ErrorKind.BAD_JSON),
        ("{\"type\": \"hello\"", ErrorKind.BAD_JSON),
        ("[1, 2, 3]", ErrorKind.BAD_JSON),
        ("\"hello\"", ErrorKind.BAD_JSON),
        ("null", ErrorKind.BAD_JSON),
        ("{\"type\": NaN}", ErrorKind.BAD_JSON),
        ("{\"type\": \"hello\", \"id\": 1e999}", ErrorKind.BAD_JSON),
        ("[" * 100_000 + "]" * 100_000, ErrorKind.BAD_JSON),
        ("\u0000\ud800\uffff\u202e{{", ErrorKind.BAD_JSON),
        ("\ufeff{\"type\": \"hello\"}", ErrorKind.BAD_JSON),
        ({}, ErrorKind.BAD_MESSAGE),
        ({"id": 4}, ErrorKind.BAD_MESSAGE),
        ({"type": 7}, ErrorKind.BAD_MESSAGE),
        ({"type": "shuffle"}, ErrorKind.BAD_MESSAGE),
        ({"type": "\ud83d\ude00\u0000"}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game"}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": 4}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": "police07", "config": [1]}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": "police07", "seed": "x"}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": "police07", "seed": -1}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": "police07", "seed": True}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": "police07", "bots": {"one": "random"}}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": "police07", "bots": {"1": 5}}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": "police07", "bots": {"1": {"options": {}}}}, ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": "police07", "bots": {"1": {"name": "random", "options": 3}}},
         ErrorKind.BAD_MESSAGE),
        ({"type": "new_game", "game": "chess"}, ErrorKind.UNKNOWN_GAME),
        ({"type": "decide", "game": "chess", "view": {}}, ErrorKind.UNKNOWN_GAME),
        ({"type": "new_game", "game": "police07", "config": {"players": 9}}, ErrorKind.BAD_CONFIG),
        ({"type": "new_game", "game": "police07", "config": {"colour": "red"}}, ErrorKind.BAD_CONFIG),
        ({"type": "new_game", "game": "police07", "config": {"board": "/nonexistent/board.json"}},
         ErrorKind.BAD_CONFIG),
        ({"type": "new_game", "game": "police07", "bots": {"9": "random"}}, ErrorKind.BAD_CONFIG),
        ({"type": "new_game", "game": "police07", "bots": {"1": "grandmaster"}}, ErrorKind.BAD_CONFIG),
        ({"type": "new_game", "game": "police07", "bots": {"1": {"name": "random", "options": {"x": 1}}}},
         ErrorKind.BAD_CONFIG),
        ({"type": "apply", "action": "taxi 1"}, ErrorKind.BAD_MESSAGE),
        ({"type": "apply", "game_id": 1, "action": "taxi 1"}, ErrorKind.BAD_MESSAGE),
        ({"type": "apply", "game_id": g}, ErrorKind.BAD_MESSAGE),
        ({"type": "apply", "game_id": g, "action": 118}, ErrorKind.BAD_MESSAGE),
        ({"type": "apply", "game_id": "g999", "action": "taxi 1"}, ErrorKind.UNKNOWN_GAME_ID),
        ({"type": "apply", "game_id": g, "action": "fly 12"}, ErrorKind.INVALID_ACTION),
        ({"type": "apply", "game_id": g, "action": "taxi 999"}, ErrorKind.INVALID_ACTION),
        ({"type": "apply", "game_id": g, "action": ""}, ErrorKind.INVALID_ACTION),
        ({"type": "apply", "game_id": g, "action": "taxi \u00b2"}, ErrorKind.INVALID_ACTION),
        ({"type": "apply", "game_id": g, "action": "\udcff\u202e\u0000"}, ErrorKind.INVALID_ACTION),
        ({"type": "apply", "game_id": g, "action": "pass"}, ErrorKind.ILLEGAL_ACTION),
        ({"type": "apply", "game_id": g, "action": "start 13"}, ErrorKind.ILLEGAL_ACTION),
        ({"type": "act", "game_id": g, "seat": 2}, ErrorKind.NOT_YOUR_TURN),
        ({"type": "act", "game_id": g, "seat": 0}, ErrorKind.NOT_YOUR_TURN),  # no bot there
        ({"type": "act", "game_id": g, "seat": "0"}, ErrorKind.BAD_MESSAGE),
        ({"type": "act", "game_id": g, "seat": 4}, ErrorKind.BAD_MESSAGE),
        ({"type": "act", "game_id": g, "seat": -1}, ErrorKind.BAD_MESSAGE),
        ({"type": "act", "game_id": g}, ErrorKind.BAD_MESSAGE),
        ({"type": "hint", "game_id": g, "seat": 3}, ErrorKind.NOT_YOUR_TURN),
        ({"type": "hint", "game_id": g, "seat": 0, "budget": -1}, ErrorKind.BAD_MESSAGE),
        ({"type": "hint", "game_id": g, "seat": 0, "bot": 3}, ErrorKind.BAD_MESSAGE),
        ({"type": "events", "game_id": g, "seat": 1, "since": -2}, ErrorKind.BAD_MESSAGE),
        ({"type": "events", "game_id": g, "seat": 1, "since": 1.5}, ErrorKind.BAD_MESSAGE),
        ({"type": "view", "game_id": None, "seat": 1}, ErrorKind.BAD_MESSAGE),
        ({"type": "chance", "game_id": g}, ErrorKind.NOT_YOUR_TURN),
        ({"type": "end_game", "game_id": "nope"}, ErrorKind.UNKNOWN_GAME_ID),
        ({"type": "decide", "game": "police07", "view": {"game": "police07", "seat": 1}},
         ErrorKind.BAD_STATE),
        ({"type": "decide", "game": "police07", "view": {"history": "\udcff"}}, ErrorKind.BAD_STATE),
    ]
    for msg, kind in cases:
        before = client.state(g).to_json()
        if isinstance(msg, dict):
            msg = dict(msg, id=["case", len(client.transcript)])
        reply = client.error(msg, kind)
        if isinstance(msg, dict):
            assert reply["id"] == msg["id"]  # errors echo the id too
        assert client.state(g).to_json() == before, f"{msg!r} changed the game"
        # The server keeps working after every fault.
        assert client.one({"type": "hello"})["type"] == "welcome"
    assert set(client.server.tables) == {g}

    # After the end: moves, chance, acts and hints are refused as game_over.
    for msg in ({"type": "apply", "game_id": over_id, "action": "taxi 1"},
                {"type": "chance", "game_id": over_id},
                {"type": "act", "game_id": over_id, "seat": 0},
                {"type": "hint", "game_id": over_id, "seat": 0}):
        over_client.error(msg, ErrorKind.GAME_OVER)
    assert over_client.send({"type": "advance", "game_id": over_id})[-1]["steps"] == 0

    # The legal move still works after all that.
    assert client.one({"type": "apply", "game_id": g, "action": legal_text[0]})["type"] == "applied"


def test_illegal_action_error_does_not_list_hidden_moves() -> None:
    client = Client()
    game_id = start(client, DETECTIVE_BOTS)
    client.send({"type": "advance", "game_id": game_id})
    state = client.state(game_id)
    legal = state.view(0).to_json()["legal_actions"]
    reply = client.error({"type": "apply", "game_id": game_id, "action": "pass"}, ErrorKind.ILLEGAL_ACTION)
    assert not any(text in reply["message"] for text in legal)


def test_lines_blank_huge_and_not_utf8() -> None:
    server = SeatServer()
    assert server.handle_line("") == [] and server.handle_line("   \n") == []
    huge = json.dumps({"type": "hello", "pad": "x" * (MAX_LINE + 10)})
    [reply] = server.handle_line(huge)
    assert reply["error"] == "bad_message" and str(MAX_LINE) in reply["message"]
    [reply] = server.handle_line(b"\xff\xfe{\"type\": \"hello\"}")
    assert reply["error"] == "bad_json"
    assert server.handle_line(b"{\"type\": \"hello\"}")[0]["type"] == "welcome"


def test_limits_and_id_echo() -> None:
    client = Client(SeatServer(max_games=2))
    start(client)
    start(client)
    client.error({"type": "new_game", "game": "police07"}, ErrorKind.LIMIT)
    for msg_id in (0, "abc", None, [1, {"x": 2}], {"nested": True}, 2.5):
        assert client.one({"type": "hello", "id": msg_id})["id"] == msg_id
    assert "id" not in client.one({"type": "hello"})


def test_failing_bot_is_an_internal_error_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    game_id = start(client, DETECTIVE_BOTS)
    client.send({"type": "advance", "game_id": game_id})
    state = client.state(game_id)
    client.one({"type": "apply", "game_id": game_id, "action": state.view(0).to_json()["legal_actions"][0]})
    bot = client.server.tables[game_id].bots[1]

    def broken(view: Any) -> int:
        raise RuntimeError("Dr. Factor is at 42")  # the text must not reach the table

    monkeypatch.setattr(bot, "step", broken)
    before = client.state(game_id).to_json()
    reply = client.error({"type": "act", "game_id": game_id, "seat": 1}, ErrorKind.INTERNAL)
    assert "42" not in reply["message"]
    replies = client.send({"type": "advance", "game_id": game_id})
    assert replies[-1]["error"] == "internal"
    assert client.state(game_id).to_json() == before

    monkeypatch.setattr(bot, "step", lambda view: 9999)  # an action that is not legal
    client.error({"type": "act", "game_id": game_id, "seat": 1}, ErrorKind.INTERNAL)
    assert client.state(game_id).to_json() == before


def test_advance_reports_the_steps_made_before_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    game_id = start(client, ALL_BOTS)
    real_draw = referee.draw_chance  # the server's advance draws chance through the referee
    calls = []

    def flaky(state: State, rng: np.random.Generator) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("broken dealer")
        return real_draw(state, rng)

    monkeypatch.setattr(referee, "draw_chance", flaky)
    replies = client.send({"type": "advance", "game_id": game_id})
    assert [r["type"] for r in replies] == ["applied", "applied", "error"]
    assert replies[-1]["error"] == "internal" and replies[-1]["message"].startswith("after 2 steps")
    assert len(client.state(game_id).history) == 2


def test_handle_never_raises_even_when_the_server_breaks(monkeypatch: pytest.MonkeyPatch) -> None:
    server = SeatServer()

    def boom(msg: Any) -> Any:
        raise ZeroDivisionError

    monkeypatch.setitem(server._handlers, "hello", boom)
    [reply] = server.handle_line('{"type": "hello", "id": 5}')
    assert reply == {"type": "error", "id": 5, "error": "internal",
                     "message": "unexpected ZeroDivisionError; see the server log"}
    # A reply that cannot be encoded becomes an internal error line, still with the id.
    line = encode_reply({"type": "welcome", "id": 5, "bad": object()})
    assert json.loads(line) == {"type": "error", "id": 5, "error": "internal",
                                "message": "the 'welcome' reply could not be encoded as JSON"}


# --- no leaks -------------------------------------------------------------------------------------
def test_nothing_hidden_reaches_detectives_or_the_table() -> None:
    """Over whole bots-only games, every unaddressed reply, and every reply addressed to a detective,
    holds only what that detective's own view holds."""
    for seed in range(6):
        client = Client()
        game_id = start(client, ALL_BOTS, seed=seed)
        replies = client.send({"type": "advance", "game_id": game_id})
        final = client.state(game_id)
        assert isinstance(final, Police07State) and replies[-1]["over"]
        applied = replies[:-1]
        assert len(applied) == len(final.history)
        replay = final.game.new_initial_state()
        for i, reply in enumerate(applied):
            replay.apply(final.history[i])
            for seat in (1, 2, 3):
                view = replay.view(seat).to_json()
                # The public action is exactly the detective's own record of it.
                assert reply["public"]["action"] == view["history"][-1][1]
                assert reply["decision"] == view["decision"]
                seen = [e.to_json() for e in replay.events_for(seat)]
                assert all(e in seen for e in reply["public"]["events"])
            factor_seen = [e.to_json() for e in replay.events_for(0)]
            assert all(e in factor_seen for e in reply["public"]["events"])
            # The concrete check: a hidden stop of Dr. Factor never appears in the public part.
            move = len(replay.log)
            if reply["public"]["action"].endswith("?") and not replay.is_terminal():  # the end shows him
                assert move not in REVEALED_MOVES
                hidden_stop = replay.log[-1][2]
                assert str(hidden_stop) not in json.dumps(reply["public"])
                assert not any(e["kind"] == "FactorMoved" for e in reply["public"]["events"])

        # Addressed replies for detectives: events and views hold no hidden stop.
        for seat in (1, 2, 3):
            events = client.one({"type": "events", "game_id": game_id, "seat": seat})["events"]
            for event in events:
                if event["kind"] == "FactorMoved" and not event["shown"]:
                    assert event["stop"] is None and event["line"] is None
            view = client.one({"type": "view", "game_id": game_id, "seat": seat})["view"]
            assert view == final.view(seat).to_json()
            for entry in view["log"]:
                assert entry["stop"] is None or entry["move"] in REVEALED_MOVES
                assert "line" not in entry
            factor_moves = [text for piece, text in view["history"]
                            if piece == 0 and text.split()[0] in ("taxi", "bus", "metro", "joker")]
            for move, text in enumerate(factor_moves, start=1):
                assert text.endswith("?") == (move not in REVEALED_MOVES), (move, text)


def test_hint_for_a_detective_uses_only_his_view() -> None:
    """The hint for a detective is the same whatever Dr. Factor's true hidden path: it is computed
    from the detective's view alone (two states with equal detective views give equal advice)."""
    client = Client()
    game_id = start(client, {"0": "heuristic", "2": "heuristic", "3": "heuristic"}, seed=2)
    for _ in range(3):
        client.send({"type": "advance", "game_id": game_id})
        state = client.state(game_id)
        legal = state.view(1).legal_actions
        client.one({"type": "apply", "game_id": game_id, "action": state.game.action_to_str(legal[0])})
    client.send({"type": "advance", "game_id": game_id})
    table = client.server.tables[game_id]
    view = table.state.view(1)
    # the advisor searches with a generator from the table's: the same one for both hints
    table.rng = np.random.default_rng(5)
    hint_live = client.one({"type": "hint", "game_id": game_id, "seat": 1})
    # Swap in another state with the same detective view: a different hidden path.
    table.state = table.game.resample(view, np.random.default_rng(99))
    assert table.state.view(1) == view
    table.rng = np.random.default_rng(5)
    hint_other = client.one({"type": "hint", "game_id": game_id, "seat": 1})
    assert hint_live["advice"]["ranked"] == hint_other["advice"]["ranked"]
    assert hint_live["advice"]["belief"] == hint_other["advice"]["belief"]


# --- a game with hidden chance: the generic rules ----------------------------------------------
def test_generic_game_hides_private_chance_and_routes_responses() -> None:
    client = Client(SeatServer(games={"hidden_pass": HiddenPass}))
    welcome = client.one({"type": "hello"})
    assert welcome["games"]["hidden_pass"]["default_config"] == {"players": 3, "rounds": 2}
    started = client.one({"type": "new_game", "game": "hidden_pass", "config": {"players": 2, "rounds": 1},
                          "seed": 1})
    game_id = started["game_id"]
    deal = client.one({"type": "chance", "game_id": game_id})
    # No public renderer for this game: the text of a face-down deal is never guessed.
    assert deal["public"]["action"] is None
    assert [e["kind"] for e in deal["public"]["events"]] == ["DealtFaceDown"]
    client.one({"type": "chance", "game_id": game_id})
    mine = client.one({"type": "events", "game_id": game_id, "seat": 0})["events"]
    assert [e["kind"] for e in mine] == ["Dealt", "DealtFaceDown", "DealtFaceDown"]
    assert mine[0]["seat"] == 0
    bet = client.one({"type": "apply", "game_id": game_id, "action": "bet"})
    assert bet["decision"] == {"seat": 1, "kind": "response", "turn_of": 0,
                               "prompt": "seat 1: call or raise seat 0's bet"}
    client.error({"type": "apply", "game_id": game_id, "action": "check"}, ErrorKind.ILLEGAL_ACTION)
    client.error({"type": "apply", "game_id": game_id, "action": "fold"}, ErrorKind.INVALID_ACTION)
    client.error({"type": "new_game", "game": "hidden_pass", "config": {"players": 9}}, ErrorKind.BAD_CONFIG)
    client.error({"type": "new_game", "game": "hidden_pass", "bots": {"0": "random"}}, ErrorKind.BAD_CONFIG)


# --- transports -----------------------------------------------------------------------------------
def _lines(*msgs: dict[str, Any] | str | bytes) -> bytes:
    out = b""
    for msg in msgs:
        if isinstance(msg, dict):
            msg = json.dumps(msg)
        out += (msg if isinstance(msg, bytes) else msg.encode()) + b"\n"
    return out


def test_serve_lines_on_text_and_binary_streams() -> None:
    import io

    script = _lines({"type": "hello", "id": 1}, b"\xc3\x28 not utf-8", b"x" * (MAX_LINE + 5),
                    {"type": "bye", "id": 2}, {"type": "hello", "id": "unread"})
    out = io.BytesIO()
    serve_lines(SeatServer(), io.BytesIO(script), out)
    replies = [json.loads(line) for line in out.getvalue().decode().splitlines()]
    assert [r["type"] for r in replies] == ["welcome", "error", "error", "bye"]
    assert [r.get("error") for r in replies[1:3]] == ["bad_json", "bad_message"]

    text_out = io.StringIO()
    protocol.serve_stdio(io.StringIO('{"type": "hello"}\n\n{"type": "oops"}\n'), text_out)
    assert [json.loads(line)["type"] for line in text_out.getvalue().splitlines()] == ["welcome", "error"]


def test_stdio_subprocess() -> None:
    script = _lines(
        {"type": "hello", "id": 1},
        {"type": "new_game", "id": 2, "game": "police07", "seed": 3, "bots": ALL_BOTS},
        {"type": "advance", "id": 3, "game_id": "g1"},
        b"\xff\xfe garbage",
        "[]",
        {"type": "bye", "id": 4},
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "bots.protocol"], input=script, capture_output=True,
                          timeout=120, cwd=ROOT, env=env, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    replies = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert replies[0]["type"] == "welcome" and replies[1]["type"] == "game_started"
    advanced = [r for r in replies if r.get("id") == 3]
    assert advanced[-1]["type"] == "advanced" and advanced[-1]["over"]
    assert [r["type"] for r in replies[-3:]] == ["error", "error", "bye"]
    assert [r["error"] for r in replies[-3:-1]] == ["bad_json", "bad_json"]


def _recv_lines(sock: socket.socket, count: int) -> list[dict[str, Any]]:
    data = b""
    while data.count(b"\n") < count:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return [json.loads(line) for line in data.decode().splitlines()]


@pytest.fixture
def tcp() -> Iterator[protocol.SeatTCPServer]:
    server = tcp_server(0, max_clients=2)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
        assert not thread.is_alive()


def test_tcp_loopback(tcp: protocol.SeatTCPServer) -> None:
    assert tcp.server_address[0] == "127.0.0.1"
    with socket.create_connection(("127.0.0.1", tcp.port), timeout=30) as a, \
            socket.create_connection(("127.0.0.1", tcp.port), timeout=30) as b:
        a.sendall(_lines({"type": "hello", "id": "a"}, {"type": "new_game", "id": "a2", "game": "police07",
                                                        "seed": 1, "bots": ALL_BOTS}))
        b.sendall(_lines("not json", {"type": "view", "game_id": "g1", "seat": 0}))
        ra = _recv_lines(a, 2)
        rb = _recv_lines(b, 2)
        assert [r["type"] for r in ra] == ["welcome", "game_started"]
        # Sessions are separate: b knows no game g1.
        assert [r["error"] for r in rb] == ["bad_json", "unknown_game_id"]
        # A third client is over the limit and is told so.
        with socket.create_connection(("127.0.0.1", tcp.port), timeout=30) as c:
            [busy] = _recv_lines(c, 1)
            assert busy["error"] == "limit"
        a.sendall(_lines({"type": "advance", "id": "go", "game_id": "g1"}, {"type": "bye"}))
        data = b""
        while True:
            chunk = a.recv(65536)
            if not chunk:
                break  # the server closes the connection after bye
            data += chunk
        replies = [json.loads(line) for line in data.decode().splitlines()]
        assert replies[-2]["type"] == "advanced" and replies[-2]["over"]
        assert replies[-1] == {"type": "bye"}


def test_tcp_shutdown_closes_live_connections() -> None:
    server = tcp_server(0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as conn:
        conn.sendall(_lines({"type": "hello"}))
        assert _recv_lines(conn, 1)[0]["type"] == "welcome"
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
        assert not thread.is_alive()
        assert conn.recv(1024) == b""  # the idle connection was closed, not left hanging


def test_serve_tcp_stops_on_event() -> None:
    stop = threading.Event()
    bound: list[int] = []
    ready = threading.Event()

    def on_ready(server: protocol.SeatTCPServer) -> None:
        bound.append(server.port)
        ready.set()

    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(protocol.serve_tcp(0, stop=stop, ready=on_ready)),
                              daemon=True)
    thread.start()
    assert ready.wait(10)
    with socket.create_connection(("127.0.0.1", bound[0]), timeout=30) as conn:
        conn.sendall(_lines({"type": "hello", "id": 1}))
        assert _recv_lines(conn, 1)[0]["id"] == 1
    stop.set()
    thread.join(timeout=10)
    assert result == [0]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX")
def test_main_tcp_subprocess_stops_cleanly_on_sigterm() -> None:
    import signal

    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "bots.protocol", "--tcp", "0"], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stderr is not None
        banner = proc.stderr.readline().decode()
        assert banner.startswith("copsolver: seat protocol on 127.0.0.1:"), banner
        port = int(banner.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
            conn.sendall(_lines({"type": "hello", "id": "tcp"}))
            assert _recv_lines(conn, 1)[0]["id"] == "tcp"
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def test_main_rejects_a_bad_port() -> None:
    with pytest.raises(SystemExit):
        protocol.main(["--tcp", "70000"])


def _doc_session() -> list[str]:
    """The scripted session shown in docs/protocol.md, as transcript lines (``>`` in, ``<`` out)."""
    client = Client()

    def send(msg: dict[str, Any] | str) -> list[dict[str, Any]]:
        return client.send(msg if isinstance(msg, str) else json.dumps(msg, separators=(",", ":")))

    send({"type": "hello", "id": 1})
    send({"type": "new_game", "id": 2, "game": "police07", "seed": 2026,
          "bots": {"1": "heuristic", "2": "heuristic",
                   "3": {"name": "heuristic", "options": {"epsilon": 0.1}}}})
    send({"type": "advance", "id": 3, "game_id": "g1"})
    send({"type": "view", "id": 4, "game_id": "g1", "seat": 0})
    best = send({"type": "hint", "id": 5, "game_id": "g1", "seat": 0})[0]["advice"]["ranked"][0]["text"]
    send({"type": "apply", "id": 6, "game_id": "g1", "action": "fly 12"})
    send({"type": "apply", "id": 7, "game_id": "g1", "action": best})
    send({"type": "advance", "id": 8, "game_id": "g1"})
    view = send({"type": "view", "id": 9, "game_id": "g1", "seat": 0})[0]["view"]
    send({"type": "apply", "id": 10, "game_id": "g1", "action": view["legal_actions"][0]})
    send({"type": "events", "id": 11, "game_id": "g1", "seat": 1, "since": 8})
    send({"type": "act", "id": 12, "game_id": "g1", "seat": 2})
    send({"type": "act", "id": 13, "game_id": "g1", "seat": 1})
    send({"type": "advance", "id": 14, "game_id": "g1"})
    view = send({"type": "view", "id": 15, "game_id": "g1", "seat": 0})[0]["view"]
    send({"type": "decide", "id": 16, "game": "police07", "view": view, "seed": 1})
    send("this is not JSON")
    send({"type": "review", "id": 17, "game_id": "g1"})
    send({"type": "end_game", "id": 18, "game_id": "g1"})
    send({"type": "bye", "id": 19})
    lines: list[str] = []
    for request, replies in client.transcript:
        lines.append("> " + request)
        lines.extend("< " + reply for reply in replies)
    return lines


def _shape(lines: list[str]) -> list[tuple[Any, ...]]:
    """Per request: its type and id, and the type, id, error kind and field names of its first and
    last replies (bot moves, scores and step counts may change as the bots improve)."""
    groups: list[tuple[Any, ...]] = []
    replies: list[dict[str, Any]] = []
    request: Any = None

    def close() -> None:
        if request is not None:
            ends = replies[:1] + replies[-1:]
            groups.append((request, [(r["type"], r.get("id"), r.get("error"), sorted(r)) for r in ends]))

    for line in lines:
        if line.startswith("> "):
            close()
            try:
                msg = json.loads(line[2:])
                request = (msg.get("type"), msg.get("id"))
            except ValueError:
                request = line[2:]
            replies = []
        elif line.startswith("< "):
            replies.append(json.loads(line[2:]))
    close()
    return groups


def test_docs_transcript_is_real() -> None:
    """docs/protocol.md shows a real session: the same script gives replies of the same types, ids,
    error kinds and fields. Regenerate it with ``COPSOLVER_REGEN_DOCS=1 pytest -k docs_transcript``."""
    path = ROOT / "docs" / "protocol.md"
    text = path.read_text()
    head, rest = text.split("## Transcript", 1)
    intro, block_and_tail = rest.split("```text\n", 1)
    block, tail = block_and_tail.split("```", 1)
    lines = _doc_session()
    if os.environ.get("COPSOLVER_REGEN_DOCS"):
        path.write_text(head + "## Transcript" + intro + "```text\n" + "\n".join(lines) + "\n```" + tail)
    assert _shape(block.splitlines()) == _shape(lines)


# --- drawings, replays and the session's tables (issue 25) -------------------------------------
def _bots_only_game(client: Any, seed: int = 5) -> tuple[str, list[dict[str, Any]]]:
    game_id = start(client, ALL_BOTS, seed=seed)
    replies = client.send({"type": "advance", "game_id": game_id})
    assert replies[-1]["type"] == "advanced" and replies[-1]["over"]
    return game_id, replies


def test_view_and_hint_carry_the_drawing_on_request(make_client: ClientFactory) -> None:
    from bots.base import Advice, RankedAction
    from bots.draw import hint_svg, view_svg

    client = make_client()
    game_id = start(client, DETECTIVE_BOTS)
    client.send({"type": "advance", "game_id": game_id})
    plain = client.one({"type": "view", "game_id": game_id, "seat": 0})
    assert "svg" not in plain
    drawn = client.one({"type": "view", "game_id": game_id, "seat": 0, "draw": True})
    state = client.state(game_id)
    assert drawn["view"] == plain["view"]
    assert drawn["svg"] == view_svg(state.game, state.view(0))  # the same picture, drawn from the view
    assert drawn["svg"].startswith("<?xml") and "<svg" in drawn["svg"]
    hint = client.one({"type": "hint", "game_id": game_id, "seat": 0, "draw": True})
    view = state.view(0)
    advice = Advice(0, tuple(RankedAction(**{k: r[k] for k in ("action", "text", "score", "reason", "visits",
                                                                 "value")})
                             for r in hint["advice"]["ranked"]),
                    hint["advice"]["belief"], hint["advice"]["summary"])
    assert hint["svg"] == hint_svg(state.game, view, advice)
    assert "svg" not in client.one({"type": "hint", "game_id": game_id, "seat": 0})
    for value in ("yes", 1, [True]):
        client.error({"type": "view", "game_id": game_id, "seat": 0, "draw": value}, ErrorKind.BAD_MESSAGE)


def test_a_game_without_a_drawing_answers_svg_null(monkeypatch: pytest.MonkeyPatch) -> None:
    import bots.draw

    monkeypatch.setattr(bots.draw, "drawing_module", lambda name: None)
    client = Client()
    game_id = start(client, DETECTIVE_BOTS)
    client.send({"type": "advance", "game_id": game_id})
    assert client.one({"type": "view", "game_id": game_id, "seat": 0, "draw": True})["svg"] is None
    assert client.one({"type": "hint", "game_id": game_id, "seat": 0, "draw": True})["svg"] is None
    view = client.state(game_id).view(0).to_json()
    hint = client.one({"type": "hint_view", "game": "police07", "view": view, "draw": True})
    assert hint["type"] == "hint" and hint["svg"] is None
    assert client.one({"type": "hello"})["games"]["police07"]["draw"] is False


def test_save_load_goto_and_play_on(make_client: ClientFactory) -> None:
    from bots import replays

    client = make_client()
    game_id, _ = _bots_only_game(client)
    final = client.state(game_id)
    saved = client.one({"type": "save", "id": "s", "game_id": game_id})
    assert saved["type"] == "replay" and saved["game_id"] == game_id and saved["id"] == "s"
    # the CLI's reader takes it: every action re-applied, the same game to the end
    replay = replays.parse_replay(saved["text"], "saved", None, {})
    assert replay.finished and replay.state.to_json() == final.to_json()
    assert replay.seed == 5 and replay.seats == {0: "heuristic", 1: "heuristic", 2: "heuristic", 3: "random"}

    loaded = client.one({"type": "load_replay", "replay": saved["text"]})
    steps = len(final.history)
    assert loaded["type"] == "game_started" and loaded["replay"] == {"steps": steps} and loaded["over"]
    assert loaded["seats"] == {"0": "heuristic", "1": "heuristic", "2": "heuristic", "3": "random"}
    copy = loaded["game_id"]
    assert client.state(copy).to_json() == final.to_json()
    at = client.one({"type": "goto", "game_id": copy, "step": 6})
    assert at == {"type": "at", "game_id": copy, "step": 6, "steps": steps,
                  "decision": client.state(copy).decision().to_json(), "over": False}
    assert client.state(copy).history == final.history[:6]
    client.one({"type": "goto", "game_id": copy, "step": 0})
    assert client.state(copy).history == []
    end = client.one({"type": "goto", "game_id": copy, "step": steps})
    assert end["over"] and end["returns"] == final.returns()
    for bad in (steps + 1, -1, "3", None):
        client.error({"type": "goto", "game_id": copy, "step": bad}, ErrorKind.BAD_MESSAGE)
    client.error({"type": "goto", "game_id": game_id, "step": 0}, ErrorKind.BAD_MESSAGE)  # not a replay
    client.error({"type": "goto", "game_id": "g99", "step": 0}, ErrorKind.UNKNOWN_GAME_ID)

    # back to step 10, the bots play on: the replay's later actions are dropped
    client.one({"type": "goto", "game_id": copy, "step": 10})
    tables = {row["game_id"]: row for row in client.one({"type": "tables"})["tables"]}
    assert tables[copy]["replay"] == {"step": 10, "steps": steps} and tables[game_id]["replay"] is None
    played = client.send({"type": "advance", "game_id": copy})
    assert played[-1]["over"]
    again = replays.parse_replay(client.one({"type": "save", "game_id": copy})["text"], "again", None, {})
    assert again.state.history[:10] == final.history[:10]
    assert again.state.history == client.state(copy).history
    row = next(r for r in client.one({"type": "tables"})["tables"] if r["game_id"] == copy)
    assert row["replay"] == {"step": len(again.state.history), "steps": len(again.state.history)}


def test_save_refuses_a_running_game_with_a_human_seat(make_client: ClientFactory) -> None:
    client = make_client()
    game_id = start(client, DETECTIVE_BOTS)  # seat 0, Dr. Factor, is the table's
    client.send({"type": "advance", "game_id": game_id})
    before = client.state(game_id).to_json()
    reply = client.error({"type": "save", "game_id": game_id}, ErrorKind.NOT_OVER)
    stop = client.state(game_id).view(0).to_json()["factor"]["stop"]
    assert str(stop) not in reply["message"]
    assert client.state(game_id).to_json() == before
    # a bots-only game may be saved before its end: nobody at the table has secrets to lose
    bots_only = start(client, ALL_BOTS, seed=2)
    client.send({"type": "chance", "game_id": bots_only})
    text = client.one({"type": "save", "game_id": bots_only})["text"]
    assert text.rstrip().splitlines()[-1] == json.dumps(
        {"type": "result", "winner": None, "reason": "unfinished: saved before the end", "returns": None},
        separators=(", ", ": "))
    # and the human's game once it is over
    while not client.state(game_id).is_terminal():
        legal = client.one({"type": "view", "game_id": game_id, "seat": 0})["view"]["legal_actions"]
        client.one({"type": "apply", "game_id": game_id, "action": legal[0]})
        client.send({"type": "advance", "game_id": game_id})
    assert client.one({"type": "save", "game_id": game_id})["type"] == "replay"


def test_load_replay_checks_every_record_and_opens_no_file(make_client: ClientFactory) -> None:
    client = make_client()
    game_id, _ = _bots_only_game(client)
    text = client.one({"type": "save", "game_id": game_id})["text"]
    lines = text.splitlines()
    tampered = lines[:5] + [lines[5].replace('"ply": 4', '"ply": 7')] + lines[6:]
    reply = client.error({"type": "load_replay", "replay": "\n".join(tampered)}, ErrorKind.BAD_STATE)
    assert "line 6" in reply["message"]
    client.error({"type": "load_replay", "replay": "not a replay"}, ErrorKind.BAD_STATE)
    client.error({"type": "load_replay", "replay": ""}, ErrorKind.BAD_STATE)
    client.error({"type": "load_replay", "replay": "\n".join(lines[:-1])}, ErrorKind.BAD_STATE)  # truncated
    client.error({"type": "load_replay"}, ErrorKind.BAD_MESSAGE)
    client.error({"type": "load_replay", "replay": 5}, ErrorKind.BAD_MESSAGE)
    client.error({"type": "load_replay", "replay": text, "bots": "heuristic"}, ErrorKind.BAD_MESSAGE)
    client.error({"type": "load_replay", "replay": text, "bots": {"1": "grandmaster"}}, ErrorKind.BAD_CONFIG)
    header = json.loads(lines[0])
    messages = set()
    for board in ("/etc/passwd", str(ROOT / "pyproject.toml"), "../board.json", "nosuchname"):
        forged = json.dumps({**header, "config": {**header["config"], "board": board}})
        refused = client.error({"type": "load_replay", "replay": "\n".join([forged, *lines[1:]])},
                               ErrorKind.BAD_CONFIG)
        messages.add(refused["message"])
        assert board not in refused["message"]
    assert len(messages) == 1  # the same answer whatever the path: no oracle on the server's files
    unknown = json.dumps({**header, "game": "chess"})
    client.error({"type": "load_replay", "replay": "\n".join([unknown, *lines[1:]])}, ErrorKind.UNKNOWN_GAME)
    # seats given by the request replace the header's: here every seat is the table's
    loaded = client.one({"type": "load_replay", "replay": text, "bots": {}, "id": 1})
    assert loaded["seats"] == {str(s): None for s in range(4)}
    client.error({"type": "act", "game_id": loaded["game_id"], "seat": 1}, ErrorKind.GAME_OVER)


def test_load_replay_counts_against_the_games_limit() -> None:
    client = Client(SeatServer(max_games=1))
    game_id, _ = _bots_only_game(client)
    text = client.one({"type": "save", "game_id": game_id})["text"]
    client.error({"type": "load_replay", "replay": text}, ErrorKind.LIMIT)
    client.one({"type": "end_game", "game_id": game_id})
    assert client.one({"type": "load_replay", "replay": text})["type"] == "game_started"


def test_tables_lists_public_facts_only(make_client: ClientFactory) -> None:
    client = make_client()
    assert client.one({"type": "tables", "id": 7}) == {"type": "tables", "id": 7, "tables": []}
    started = client.one({"type": "new_game", "game": "police07", "seed": 3, "bots": DETECTIVE_BOTS})
    client.send({"type": "advance", "game_id": started["game_id"]})
    [row] = client.one({"type": "tables"})["tables"]
    assert set(row) == {"game_id", "game", "config", "players", "seats", "decision", "over", "replay"}
    assert row["seats"] == started["seats"] and row["config"] == started["config"]
    assert row["decision"] == client.state(started["game_id"]).decision().to_json()
    stop = client.state(started["game_id"]).view(0).to_json()["factor"]["stop"]
    assert f'"stop": {stop}' not in json.dumps(row) and f"{stop}" not in json.dumps(row["decision"])


def test_a_replay_on_registered_content_names_it_and_loads_back() -> None:
    board = ROOT / "solver" / "games" / "police07" / "data" / "budapest.json"
    content = protocol.Content.register([f"police07.board:mine={board}"])
    try:
        client = Client(SeatServer(content=content))
        game_id = start(client, ALL_BOTS, board="mine")
        client.send({"type": "advance", "game_id": game_id})
        text = client.one({"type": "save", "game_id": game_id})["text"]
        header = json.loads(text.splitlines()[0])
        assert header["config"]["board"] == "mine"  # the name, never the operator's private copy
        assert str(board) not in text and "copsolver-content-" not in text
        loaded = client.one({"type": "load_replay", "replay": text})
        assert loaded["type"] == "game_started" and loaded["config"]["board"] == "mine"
        assert client.state(loaded["game_id"]).history == client.state(game_id).history
        row = client.one({"type": "tables"})["tables"][1]
        assert row["config"]["board"] == "mine"
    finally:
        content.close()


# --- hints: the game's advisor, resolved as copsolver hint resolves it ----------------------------
def test_hint_defaults_to_the_advisor_and_resolves_like_copsolver_hint() -> None:
    from bots.hint import advise
    from solver.search.ismcts import Budget

    client = Client()
    welcome = client.one({"type": "hello"})
    for name in welcome["games"]:
        entry = welcome["games"][name]
        assert entry["advisor"] == bots.registry.advisor(name)
        assert entry["policy"] == bots.registry.policy(name)
    assert "review" in welcome["messages"]
    assert welcome["limits"]["max_review_seconds"] == protocol.MAX_REVIEW_SECONDS

    game_id = start(client, DETECTIVE_BOTS)
    client.send({"type": "advance", "game_id": game_id})
    state = client.state(game_id)
    view = state.view(0)
    # a search of 5 simulations cannot tell the moves apart: the policy ranks them, and says so
    few = client.one({"type": "hint", "game_id": game_id, "seat": 0, "budget": 5})
    assert few["bot"] == "ismcts" and few["advice"]["decided_by"] == "heuristic"
    assert "too few to tell the moves apart" in few["advice"]["note"]
    policy = bots.make(state.game, "heuristic", seat=0, rng=0).advise(view)
    assert [r["text"] for r in few["advice"]["ranked"]] == [r.text for r in policy.ranked]
    # hint_view gives what copsolver hint gives for the same view, bot, budget and seed
    for seed in (0, 3):
        stateless = client.one({"type": "hint_view", "game": "police07", "view": view.to_json(), "seed": seed,
                                "options": {"iterations": 5}})
        assert stateless["bot"] == "ismcts"
        cli = advise(state.game, view, None, Budget(iterations=5), seed=seed)
        assert stateless["advice"] == json.loads(json.dumps(cli.to_json()))
    # a search that backs its ranking keeps it
    backed = client.one({"type": "hint_view", "game": "police07", "view": view.to_json(),
                         "options": {"iterations": 400}})
    assert backed["advice"]["decided_by"] == "" and backed["advice"]["note"] == ""
    # decide keeps its own default
    assert client.one({"type": "decide", "game": "police07", "view": view.to_json()})["bot"] == "heuristic"


# --- reviews --------------------------------------------------------------------------------------
class FakeReview:
    """What the fake review returns: its decisions (plies) as JSON."""

    def __init__(self, game: str, plies: list[int], stopped: bool) -> None:
        self.game, self.plies, self.stopped = game, plies, stopped

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "decisions": [{"ply": ply} for ply in self.plies], "stopped": self.stopped}


class FakeReviewer:
    """Stands for ``bots.review.review_game``: one "decision" per ply of a chosen seat with a
    choice, ``progress`` after each, ``cancelled`` read before each; ``after(k)`` runs after the
    k-th; ``fault``, when set, is raised at the start."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.after: Callable[[int], None] | None = None
        self.fault: Exception | None = None

    def __call__(self, game: Any, actions: Any, **kw: Any) -> FakeReview:
        self.calls.append({"game": game, "actions": list(actions), **kw})
        if self.fault is not None:
            raise self.fault
        seats = kw["seats"] if kw["seats"] is not None else range(game.num_players)
        plies = _choice_plies(game, actions, seats)
        done: list[int] = []
        for ply in plies:
            if kw["cancelled"]():
                return FakeReview(game.name, done, True)
            done.append(ply)
            kw["progress"](len(done), len(plies))
            if self.after is not None:
                self.after(len(done))
        return FakeReview(game.name, done, False)


def _choice_plies(game: Any, actions: Any, seats: Any) -> list[int]:
    """The plies where one of ``seats`` chose among two or more moves."""
    state = game.new_initial_state()
    plies = []
    for ply, action in enumerate(actions):
        if state.current_player() in seats and len(state.legal_actions()) > 1:
            plies.append(ply)
        state.apply(action)
    return plies


def _wait_for_cancel(seconds: float = 20.0) -> None:
    """Block until the running request is cancelled (the fake's stand-in for a long review)."""
    from solver.search.limits import current_scope

    scope = current_scope()
    assert scope is not None
    scope.event.wait(seconds)
    assert scope.cancelled(), "the review was never cancelled"


@pytest.fixture
def reviewer(monkeypatch: pytest.MonkeyPatch) -> FakeReviewer:
    import bots.review

    fake = FakeReviewer()
    monkeypatch.setattr(bots.review, "review_game", fake)
    return fake


def test_review_streams_progress_then_the_review(make_client: ClientFactory, reviewer: FakeReviewer) -> None:
    from solver.search.ismcts import Budget

    client = make_client()
    game_id, _ = _bots_only_game(client)
    state = client.state(game_id)
    plies = _choice_plies(state.game, state.history, [0])
    replies = client.send({"type": "review", "id": "r", "game_id": game_id, "seats": [0], "iterations": 10,
                           "worlds": 4, "seed": 7})
    assert [r["type"] for r in replies] == ["review_progress"] * len(plies) + ["review"]
    assert all(r["id"] == "r" for r in replies)
    counts = [(k, len(plies)) for k in range(1, len(plies) + 1)]
    assert [(r["done"], r["total"]) for r in replies[:-1]] == counts
    assert all(set(r) == {"type", "id", "done", "total"} for r in replies[:-1])
    final = replies[-1]
    assert final["game_id"] == game_id and "stopped" not in final
    assert final["review"] == {"game": "police07", "decisions": [{"ply": p} for p in plies], "stopped": False}
    call = reviewer.calls[-1]
    assert call["actions"] == state.history and call["seats"] == [0] and call["seed"] == 7
    assert call["budget"] == Budget(iterations=10) and call["worlds"] == 4 and call["bot"] is None
    # the same game from its replay's text: the same review, and no table is opened
    text = client.one({"type": "save", "game_id": game_id})["text"]
    again = client.send({"type": "review", "id": 2, "replay": text, "seats": [0], "iterations": 10,
                         "worlds": 4, "seed": 7})
    assert [r["type"] for r in again] == [r["type"] for r in replies]
    assert "game_id" not in again[-1] and again[-1]["review"] == final["review"]
    assert list(client.server.tables) == [game_id]
    # every seat by default, a time budget, another bot and its options
    client.send({"type": "review", "replay": text, "seconds": 0.01, "bot": "heuristic",
                 "options": {"epsilon": 0.5}})
    call = reviewer.calls[-1]
    assert call["seats"] == [0, 1, 2, 3] and call["budget"] == Budget(seconds=0.01)
    assert call["bot"] == "heuristic" and call["options"] == {"epsilon": 0.5}


def test_a_stop_ends_a_review_with_the_decisions_reviewed(reviewer: FakeReviewer) -> None:
    client = Client()
    game_id, _ = _bots_only_game(client)
    stopping: list[dict[str, Any]] = []

    def stop_after_two(done: int) -> None:
        if done == 2:  # what the session's reader thread does when a stop line arrives
            stopping.extend(client.server.interrupt({"type": "stop", "id": "s"}))

    reviewer.after = stop_after_two
    replies = client.send({"type": "review", "id": "r", "game_id": game_id, "seats": [0], "iterations": 5,
                           "worlds": 2})
    assert stopping == [{"type": "stopping", "id": "s", "busy": True}]
    assert [r["type"] for r in replies] == ["review_progress", "review_progress", "review"]
    final = replies[-1]
    assert final["stopped"] is True and final["id"] == "r" and len(final["review"]["decisions"]) == 2
    assert final["review"]["stopped"] is True
    # the session goes on, and the next review runs to its end
    reviewer.after = None
    assert "stopped" not in client.send({"type": "review", "game_id": game_id, "seats": [0],
                                         "iterations": 5, "worlds": 2})[-1]


def test_a_stop_ends_a_review_over_tcp(tcp: protocol.SeatTCPServer, reviewer: FakeReviewer) -> None:
    from tests.protocol_client import Conn

    reviewer.after = lambda done: _wait_for_cancel()
    conn = Conn(tcp.port, timeout=30)
    try:
        conn.send({"type": "new_game", "game": "police07", "seed": 5, "bots": ALL_BOTS})
        game_id = conn.until("game_started")["game_id"]
        conn.send({"type": "advance", "game_id": game_id})
        assert conn.until("advanced")["over"]
        conn.send({"type": "review", "id": "r", "game_id": game_id, "seats": [1], "iterations": 5,
                   "worlds": 2})
        first = conn.recv()
        assert first["type"] == "review_progress" and first["id"] == "r" and first["done"] == 1
        conn.send({"type": "stop", "id": "s"})
        assert conn.recv() == {"type": "stopping", "id": "s", "busy": True}
        final = conn.recv()
        assert final["type"] == "review" and final["id"] == "r" and final["stopped"] is True
        assert len(final["review"]["decisions"]) == 1
        conn.send({"type": "hello", "id": "after"})
        assert conn.recv()["type"] == "welcome"
    finally:
        conn.close()


def test_review_streams_through_serve_lines(reviewer: FakeReviewer) -> None:
    import io

    client = Client()
    game_id, _ = _bots_only_game(client)
    text = client.one({"type": "save", "game_id": game_id})["text"]
    written: list[str] = []

    class Recorder(io.StringIO):
        def flush(self) -> None:  # each flush: what the client has by then
            written.append(self.getvalue())

    out = Recorder()
    request = {"type": "review", "id": 1, "replay": text, "seats": [0], "iterations": 5, "worlds": 2}
    serve_lines(SeatServer(), io.StringIO(json.dumps(request) + "\n"), out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["type"] for r in lines[:-1]] == ["review_progress"] * (len(lines) - 1)
    assert lines[-1]["type"] == "review"
    # the first progress line was out before the review ended
    assert json.loads(written[0].splitlines()[0])["type"] == "review_progress"
    assert "\"review\"" not in written[0]


def test_review_fields_are_checked_before_any_work(make_client: ClientFactory,
                                                   reviewer: FakeReviewer) -> None:
    client = make_client()
    game_id, _ = _bots_only_game(client)
    text = client.one({"type": "save", "game_id": game_id})["text"]
    g = game_id
    cases: list[tuple[dict[str, Any], ErrorKind]] = [
        ({"type": "review"}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "replay": text}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": 3}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "replay": ["x"]}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": "g99"}, ErrorKind.UNKNOWN_GAME_ID),
        ({"type": "review", "game_id": g, "seats": 0}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seats": []}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seats": [0, 0]}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seats": [4]}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seats": [-1]}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seats": [True]}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seats": ["1"]}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "iterations": 0}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "iterations": 2.5}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seconds": 0}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seconds": "1"}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seconds": True}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "iterations": 5, "seconds": 1}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "worlds": 1}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "worlds": "8"}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "seed": -1}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "bot": 3}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "bot": "grandmaster"}, ErrorKind.BAD_CONFIG),
        ({"type": "review", "game_id": g, "options": [1]}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "options": {"iterations": 5}}, ErrorKind.BAD_MESSAGE),
        ({"type": "review", "game_id": g, "options": {"depth": 5}}, ErrorKind.BAD_CONFIG),
        ({"type": "review", "game_id": g, "bot": "heuristic", "options": {"epsilon": 7}},
         ErrorKind.BAD_CONFIG),
    ]
    before = client.state(g).to_json()
    for msg, kind in cases:
        client.error(dict(msg, id="case"), kind)
    assert reviewer.calls == []
    assert client.state(g).to_json() == before and list(client.server.tables) == [g]


def test_review_of_a_broken_replay_text_is_bad_state_and_opens_no_file(make_client: ClientFactory,
                                                                         reviewer: FakeReviewer) -> None:
    client = make_client()
    game_id, _ = _bots_only_game(client)
    text = client.one({"type": "save", "game_id": game_id})["text"]
    lines = text.splitlines()
    tampered = lines[:5] + [lines[5].replace('"ply": 4', '"ply": 7')] + lines[6:]
    illegal = lines[:6] + [lines[6].replace('"action": "', '"action": "pass').replace("passtaxi", "pass")]
    misnamed = text.replace('"type": "action"', '"type": "acton"', 1)
    for broken in ("\n".join(tampered), "not a replay", "", "\n".join(lines[:-1]), "\n".join(illegal),
                   lines[0] + "\n{\"type\": \"action\"", misnamed):
        client.error({"type": "review", "replay": broken}, ErrorKind.BAD_STATE)
    header = json.loads(lines[0])
    chess = json.dumps({**header, "game": "chess"})
    client.error({"type": "review", "replay": "\n".join([chess, *lines[1:]])}, ErrorKind.UNKNOWN_GAME)
    messages = set()
    for board in ("/etc/passwd", "../board.json", "nosuchname"):
        forged = json.dumps({**header, "config": {**header["config"], "board": board}})
        refused = client.error({"type": "review", "replay": "\n".join([forged, *lines[1:]])},
                               ErrorKind.BAD_CONFIG)
        messages.add(refused["message"])
    assert len(messages) == 1
    assert reviewer.calls == []


def test_review_of_a_live_table_with_a_human_is_refused(make_client: ClientFactory,
                                                        reviewer: FakeReviewer) -> None:
    client = make_client()
    game_id = start(client, DETECTIVE_BOTS)  # seat 0, Dr. Factor, is the table's
    client.send({"type": "advance", "game_id": game_id})
    legal = client.state(game_id).view(0).to_json()["legal_actions"]
    client.one({"type": "apply", "game_id": game_id, "action": legal[0]})
    client.send({"type": "advance", "game_id": game_id})
    stop = client.state(game_id).view(0).to_json()["factor"]["stop"]
    for seats in (None, [0], [1, 2]):
        msg: dict[str, Any] = {"type": "review", "game_id": game_id}
        if seats is not None:
            msg["seats"] = seats
        reply = client.error(msg, ErrorKind.NOT_OVER)
        assert str(stop) not in reply["message"]
    assert reviewer.calls == []
    # a table of bots only may be reviewed before its end: nobody at it has secrets to lose
    bots_only = start(client, ALL_BOTS, seed=2)
    for _ in range(10):
        client.one({"type": "act" if not client.state(bots_only).is_chance_node() else "chance",
                    "game_id": bots_only, "seat": client.state(bots_only).current_player()})
    early = client.send({"type": "review", "game_id": bots_only, "iterations": 5, "worlds": 2})
    assert early[-1]["type"] == "review"
    # and the human's game once it is over
    while not client.state(game_id).is_terminal():
        legal = client.one({"type": "view", "game_id": game_id, "seat": 0})["view"]["legal_actions"]
        client.one({"type": "apply", "game_id": game_id, "action": legal[0]})
        client.send({"type": "advance", "game_id": game_id})
    assert client.send({"type": "review", "game_id": game_id, "seats": [0], "iterations": 5,
                        "worlds": 2})[-1]["type"] == "review"


def test_review_work_is_held_to_the_servers_limits(reviewer: FakeReviewer) -> None:
    limits = protocol.Limits(max_iterations=1000, max_review_seconds=5.0)
    client = Client(SeatServer(limits=limits))
    game_id, _ = _bots_only_game(client)
    state = client.state(game_id)
    n = len(_choice_plies(state.game, state.history, [0]))
    assert n * (50 + 2 * 4) > 1000 and n * 1.0 > 5.0  # the cases below are over the limits
    g = {"type": "review", "game_id": game_id, "seats": [0]}
    client.error({**g, "iterations": 1001}, ErrorKind.LIMIT)  # one search over --max-iterations
    client.error({**g, "seconds": 31}, ErrorKind.LIMIT)  # one search over --max-seconds
    client.error({**g, "worlds": 5000}, ErrorKind.LIMIT)
    over = client.error({**g, "iterations": 50, "worlds": 4}, ErrorKind.LIMIT)
    assert f"{n} decisions" in over["message"] and str(n * 58) in over["message"]
    assert "--max-iterations" in over["message"]
    timed = client.error({**g, "seconds": 1, "worlds": 2}, ErrorKind.LIMIT)
    assert "--max-review-seconds" in timed["message"]
    defaults = client.error(g, ErrorKind.LIMIT)  # police07: 1,000 iterations and 256 worlds a decision
    assert "(the defaults)" in defaults["message"]
    assert reviewer.calls == []
    fits = client.send({**g, "iterations": 10, "worlds": 2})
    assert fits[-1]["type"] == "review" and len(fits[-1]["review"]["decisions"]) == n


def test_review_is_cut_at_max_review_seconds(reviewer: FakeReviewer) -> None:
    client = Client(SeatServer(limits=protocol.Limits(max_review_seconds=0.2)))
    game_id, _ = _bots_only_game(client)
    reviewer.after = lambda done: _wait_for_cancel()
    replies = client.send({"type": "review", "game_id": game_id, "seats": [0], "iterations": 5, "worlds": 2})
    final = replies[-1]
    assert [r["type"] for r in replies] == ["review_progress", "review"]
    assert final["stopped"] is True and final["timed_out"] is True
    assert len(final["review"]["decisions"]) == 1


def test_review_faults_are_typed_and_change_nothing(reviewer: FakeReviewer) -> None:
    from solver.core import BadStateError, ConfigError

    client = Client()
    game_id, _ = _bots_only_game(client)
    before = client.state(game_id).to_json()
    msg = {"type": "review", "game_id": game_id, "seats": [0], "iterations": 5, "worlds": 2}
    for fault, kind in ((ConfigError("review: no"), ErrorKind.BAD_CONFIG),
                        (BadStateError("review: bad"), ErrorKind.BAD_STATE),
                        (RuntimeError("secret 42"), ErrorKind.INTERNAL)):
        reviewer.fault = fault
        reply = client.error(msg, kind)
        assert "secret" not in reply["message"]
    assert client.state(game_id).to_json() == before


def test_review_end_to_end_on_a_short_police07_game() -> None:
    """The real review (bots/review.py) over the protocol, with a tiny budget."""
    client = Client()
    game_id, _ = _bots_only_game(client)
    text = client.one({"type": "save", "game_id": game_id})["text"]
    state = client.state(game_id)
    msg = {"type": "review", "id": "e2e", "replay": text, "seats": [0, 1], "iterations": 20, "worlds": 4,
           "seed": 3}
    replies = client.send(msg)
    final = replies[-1]
    assert final["type"] == "review" and final["id"] == "e2e" and "stopped" not in final, final
    review = final["review"]
    plies = _choice_plies(state.game, state.history, [0, 1])
    assert [r["done"] for r in replies[:-1]] == list(range(1, len(plies) + 1))
    assert {r["total"] for r in replies[:-1]} == {len(plies)}
    assert [d["ply"] for d in review["decisions"]] == plies
    assert review["game"] == "police07" and review["stopped"] is False
    assert review["settings"]["budget"] == {"iterations": 20} and review["settings"]["worlds"] == 4
    assert [s["seat"] for s in review["summaries"]] == [0, 1]
    # a detective's decisions carry the belief gap once Dr. Factor is out of sight
    assert any(d["gap"] is not None for d in review["decisions"] if d["seat"] == 1)
    assert all(d["gap"] is None for d in review["decisions"] if d["seat"] == 0)
    # reproducible: the same request gives the same review, from the table too
    assert client.send(msg)[-1]["review"] == review
    table = client.send({**msg, "replay": None, "game_id": game_id})[-1]
    assert table["review"] == review
