"""Fuzzing the seat protocol's requests, the web page's own (draw, load_replay, goto, save, tables)
and reviews among them.

Each case takes a session with two running games (a human seat in one, a finished bot game in the
other) and a corpus of good requests, breaks one request with a seeded mutation (a field dropped,
a value swapped for an odd one, a key added, the line cut or flipped), and sends it. Whatever
comes back must be a list of replies that encode as JSON; an error must name a kind of
:class:`~bots.protocol.ErrorKind` other than ``internal`` (the server's own fault) in one line
without a traceback; and an error must leave every
table as it was (its history), since "no failure changes anything". A request that still reads as
a good one may change the games; the next case starts from a fresh session. The session's server
allows 200 iterations of work, so that a mutated review that would run long (every seat, the default
budget) is refused as over the limit rather than run.

The default run tries 80 mutations in some 15 seconds; ``-m slow`` runs 1,500 more (some 90 seconds).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np
import pytest

from bots.protocol import ErrorKind, Limits, SeatServer, encode_reply

#: Odd values a mutation puts in place of one JSON value.
ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 10**6, 2**63, -(2**70), 1.5, float("nan"), 1e308, "", "x" * 300,
    "g1", "g2", "g99", "taxi 999", "../../../etc/passwd", "/dev/zero", "\u00b2", "\x00", [], {}, [[[]]],
    {"type": "header"}, [1, 2, 3], ["a"], {"": None}, {"0": "heuristic"}, {"1": {"name": "random"}},
]
KINDS = {kind.value for kind in ErrorKind}
#: The fuzzed server's limits: a review of one seat with a tiny budget fits, a long one does not.
LIMITS = Limits(max_iterations=200)


def session() -> tuple[SeatServer, str]:
    """A session with g1 (Police 07, Dr. Factor's seat played by the table, bots elsewhere, waiting
    on the table) and g2 (a finished bot game), and the text of g2's replay."""
    server = SeatServer(limits=LIMITS)
    bots = {"1": "random", "2": "random", "3": "random"}
    replies = server.handle_line(json.dumps({"type": "new_game", "game": "police07", "seed": 3,
                                             "bots": bots}))
    if replies[0]["type"] != "game_started":
        raise RuntimeError(replies)
    everyone = {str(seat): "random" for seat in range(4)}
    started = server.handle_line(json.dumps({"type": "new_game", "game": "gcbc", "seed": 5, "bots": everyone,
                                             "config": {"players": 4}}))
    if started[0]["type"] != "game_started":
        raise RuntimeError(started)
    server.handle_line(json.dumps({"type": "advance", "game_id": "g1"}))
    server.handle_line(json.dumps({"type": "advance", "game_id": "g2"}))
    saved = server.handle_line(json.dumps({"type": "save", "game_id": "g2"}))[0]
    if saved["type"] != "replay":
        raise RuntimeError(saved)
    return server, str(saved["text"])


@cache
def police_replay() -> str:
    """The replay text of a finished Police 07 game of random bots (reviews of it are quick)."""
    server = SeatServer()
    everyone = {str(seat): "random" for seat in range(4)}
    server.handle_line(json.dumps({"type": "new_game", "game": "police07", "seed": 4, "bots": everyone}))
    server.handle_line(json.dumps({"type": "advance", "game_id": "g1"}))
    saved = server.handle_line(json.dumps({"type": "save", "game_id": "g1"}))[0]
    if saved["type"] != "replay":
        raise RuntimeError(saved)
    return str(saved["text"])


def corpus(replay: str) -> list[dict[str, Any]]:
    """Good requests of every kind the page sends."""
    return [
        {"type": "hello", "id": 1},
        {"type": "view", "game_id": "g1", "seat": 0, "draw": True},
        {"type": "view", "game_id": "g2", "seat": 1, "draw": True},
        {"type": "events", "game_id": "g1", "seat": 2, "since": 1},
        {"type": "apply", "game_id": "g1", "action": "taxi 1"},
        {"type": "hint", "game_id": "g1", "seat": 0, "bot": "heuristic", "draw": True},
        {"type": "act", "game_id": "g1", "seat": 1},
        {"type": "chance", "game_id": "g1"},
        {"type": "advance", "game_id": "g1"},
        {"type": "tables"},
        {"type": "save", "game_id": "g2"},
        {"type": "save", "game_id": "g1"},
        {"type": "load_replay", "replay": replay},
        {"type": "load_replay", "replay": replay, "bots": {}},
        {"type": "goto", "game_id": "g3", "step": 4},
        {"type": "new_game", "game": "lineup", "config": {"players": 3}, "seed": 2, "bots": {"1": "random"}},
        {"type": "end_game", "game_id": "g2"},
        {"type": "stop"},
        {"type": "review", "replay": police_replay(), "seats": [0], "iterations": 2, "worlds": 2, "seed": 1},
        {"type": "review", "game_id": "g1", "seats": [1], "iterations": 2, "worlds": 2},
        {"type": "review", "replay": police_replay(), "seats": [2], "bot": "random", "worlds": 2},
    ]


def histories(server: SeatServer) -> dict[str, Any]:
    """What must not move when a request fails: each table's state."""
    return {gid: json.dumps(t.state.to_json(), sort_keys=True, default=str)
            for gid, t in server.tables.items()}


def mutate(msg: dict[str, Any], rng: np.random.Generator) -> str:
    """One seeded mutation of ``msg``, as the line sent."""
    out = json.loads(json.dumps(msg))
    way = int(rng.integers(7))
    keys = list(out)
    if way == 0 and keys:
        del out[keys[int(rng.integers(len(keys)))]]
    elif way in (1, 2) and keys:
        out[keys[int(rng.integers(len(keys)))]] = ODD_VALUES[int(rng.integers(len(ODD_VALUES)))]
    elif way == 3:
        out[str(rng.choice(["seat", "step", "draw", "replay", "bots", "budget", "game_id", "seats",
                            "iterations", "seconds", "worlds", "zz"]))] = \
            ODD_VALUES[int(rng.integers(len(ODD_VALUES)))]
    elif way == 4 and isinstance(out.get("replay"), str):
        lines = out["replay"].split("\n")
        i = int(rng.integers(len(lines)))
        cut = lines[i][: int(rng.integers(len(lines[i]) + 1))]
        lines[i] = cut + str(rng.choice(["", "x", "}", "\"", "0"]))
        out["replay"] = "\n".join(lines)
    text = json.dumps(out, allow_nan=True)
    if way == 5:
        text = text[: int(rng.integers(len(text) + 1))]
    elif way == 6:
        raw = bytearray(text.encode())
        raw[int(rng.integers(len(raw)))] ^= 1 << int(rng.integers(8))
        return raw.decode("utf-8", errors="replace")
    return text


def check_case(seed: int, base: tuple[SeatServer, str] | None = None) -> None:
    """One mutated request against a fresh session: typed replies, and nothing changed by an error."""
    server, replay = base if base is not None else session()
    rng = np.random.default_rng(seed)
    good = corpus(replay)
    line = mutate(good[int(rng.integers(len(good)))], rng)
    before = histories(server)
    replies = server.handle_line(line)
    assert isinstance(replies, list), (seed, line)
    if not line.strip():  # a blank line is no request (docs/protocol.md) and gets no reply
        assert replies == [], (seed, replies)
        return
    assert replies, (seed, line)
    for reply in replies:
        json.loads(encode_reply(reply))  # every reply goes out as JSON
        if reply.get("type") == "error":
            assert reply["error"] in KINDS, (seed, line, reply)
            # an internal error is the server's own fault, never the input's
            assert reply["error"] != ErrorKind.INTERNAL, (seed, line, reply)
            message = str(reply["message"])
            assert "\n" not in message and "Traceback" not in message, (seed, line, reply)
    if any(r.get("type") == "error" for r in replies) and not any(r.get("type") != "error" for r in replies):
        assert histories(server) == before, (seed, line, replies)


@pytest.mark.parametrize("chunk", range(2))
def test_mutated_requests_are_answered_typed_and_change_nothing(chunk: int) -> None:
    for seed in range(chunk * 40, chunk * 40 + 40):
        check_case(seed)


@pytest.mark.slow
def test_many_mutated_requests() -> None:
    for seed in range(1000, 2500):
        check_case(seed)
