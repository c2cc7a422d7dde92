"""The seat protocol's limits (issue 19): a search cannot starve the server, caps on budgets, stop
and disconnect cancel a search, signals end the server mid-search, no client-chosen file paths,
idle and slow clients are dropped, and operator-registered content."""

from __future__ import annotations

import json
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bots.protocol as protocol
from bots.protocol import SeatServer, encode_reply
from solver.core import BadStateError
from tests.protocol_client import ENV, ROOT, Conn, start_longest_search, start_server
from tests.protocol_client import line as _line

#: a generous bound for "at once": the target is 100 ms, this cannot flake on a loaded machine
PROMPT = 2.0
#: a search this long (the default cap on seconds) would outlast every bound below if not stopped
LONG_SEARCH = 30.0
TINY_BOARD: dict[str, Any] = {
    "format": "copsolver-police07-board/1",
    "name": "tiny",
    "stops": 5,
    "links": {"taxi": [[1, 2], [2, 3], [3, 4], [4, 5]], "bus": [[1, 3]], "metro": [[1, 5]],
              "water": [[2, 4]]},
    "start_stops": [1, 3, 5],
}


@pytest.fixture
def serve() -> Iterator[Any]:
    """Start in-process TCP servers (``serve(**options)``); each is shut down at the end."""
    started: list[tuple[protocol.SeatTCPServer, threading.Thread]] = []

    def start(**options: Any) -> protocol.SeatTCPServer:
        server = protocol.tcp_server(0, **options)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        started.append((server, thread))
        return server

    yield start
    for server, thread in started:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _start_search(conn: Conn) -> None:
    start_longest_search(conn, LONG_SEARCH)


@pytest.fixture
def server_process(request: pytest.FixtureRequest) -> Iterator[int]:
    """A ``copsolver serve --tcp 0`` process of its own (extra flags: an indirect parameter), so
    that a client timing it is not held up by the server's threads (in one process, a search
    holding the GIL would stop the timing client too)."""
    flags: list[str] = getattr(request, "param", [])
    proc, port = start_server(*flags)
    try:
        yield port
    finally:
        proc.kill()
        proc.wait(timeout=30)


# --- 1. a search cannot starve the server ----------------------------------------------------------
# On a quiet machine the default iteration and node caps end this search in about 1.5 s, before the
# stop is sent; caps this high leave the search to its 30 s, so the stop finds it running.
@pytest.mark.parametrize("server_process", [["--max-iterations", "2000000000", "--max-nodes", "20000000"]],
                         indirect=True)
def test_hello_is_answered_at_once_while_another_client_searches(server_process: int) -> None:
    searcher = Conn(server_process)
    other = Conn(server_process, timeout=PROMPT + 5)
    try:
        other.send({"type": "hello", "id": "warm"})  # the first builds every game's defaults: slower
        assert other.recv()["type"] == "welcome"
        _start_search(searcher)
        time.sleep(0.5)  # the search is under way
        latencies = []
        for i in range(5):
            began = time.perf_counter()
            other.send({"type": "hello", "id": i})
            reply = other.recv()
            latencies.append(time.perf_counter() - began)
            assert reply["type"] == "welcome" and reply["id"] == i
        print(f"hello during a {LONG_SEARCH:g} s search: worst {max(latencies) * 1000:.1f} ms, "
              f"median {sorted(latencies)[2] * 1000:.1f} ms")
        assert max(latencies) < PROMPT
        searcher.send({"type": "stop", "id": "s"})
        assert searcher.until("stopping")["type"] == "stopping"
        hint = searcher.until("hint")
        assert hint["type"] == "hint" and hint["stopped"] is True
    finally:
        searcher.close()
        other.close()


def test_stop_ends_the_running_search_and_is_answered(serve: Any) -> None:
    server = serve()
    conn = Conn(server.port, timeout=PROMPT + 5)
    try:
        _start_search(conn)
        time.sleep(0.3)
        began = time.perf_counter()
        conn.send({"type": "stop", "id": "halt"})
        stopping = conn.recv()
        assert stopping == {"type": "stopping", "id": "halt", "busy": True}
        hint = conn.recv()
        assert time.perf_counter() - began < PROMPT
        assert hint["type"] == "hint" and hint["id"] == "long" and hint["stopped"] is True
        assert hint["advice"]["ranked"]  # it answers with what the search has
        # Nothing runs now: stop is still answered, and the session goes on.
        conn.send({"type": "stop", "id": "idle"})
        assert conn.recv() == {"type": "stopping", "id": "idle", "busy": False}
        conn.send({"type": "hello", "id": "after"})
        assert conn.recv()["type"] == "welcome"
    finally:
        conn.close()


def _welcomed_within(port: int, seconds: float) -> None:
    """A new client is served within ``seconds`` (a slot is free, or frees by then)."""
    deadline = time.monotonic() + seconds
    while True:
        late = Conn(port)
        try:
            late.send({"type": "hello", "id": "late"})
            reply = late.recv()
        except (EOFError, OSError):
            reply = {"type": "error", "error": "closed"}
        finally:
            late.close()
        if reply["type"] == "welcome":
            return
        assert time.monotonic() < deadline, f"the slot is still held: {reply}"
        time.sleep(0.1)


@pytest.mark.parametrize("server_process", [["--max-clients", "1"]], indirect=True, ids=["one slot"])
def test_a_disconnect_cancels_the_search(server_process: int) -> None:
    # One slot: it frees only when the gone client's session has ended, i.e. its search stopped.
    first = Conn(server_process)
    _start_search(first)
    time.sleep(0.5)
    first.close()
    _welcomed_within(server_process, PROMPT + 3)


def test_stop_ends_an_advance_after_the_step_in_progress(serve: Any) -> None:
    server = serve()
    conn = Conn(server.port, timeout=PROMPT + 5)
    try:
        searcher = {"name": "ismcts", "options": {"seconds": LONG_SEARCH}}
        conn.send({"type": "new_game", "id": "g", "game": "police07", "seed": 5,
                   "bots": {str(seat): searcher for seat in range(4)}})
        assert conn.recv()["type"] == "game_started"
        conn.send({"type": "advance", "id": "a", "game_id": "g1"})
        time.sleep(0.5)  # the start cards are dealt, Dr. Factor's search runs
        conn.send({"type": "stop", "id": "s"})
        replies = []
        while not replies or replies[-1]["type"] != "advanced":
            replies.append(conn.recv())
        assert {"type": "stopping", "id": "s", "busy": True} in replies
        applied = [r for r in replies if r["type"] == "applied"]
        assert len(applied) == 5  # four start cards, then the move of the stopped search
        assert replies[-1]["stopped"] is True and replies[-1]["steps"] == 5
        assert not replies[-1]["over"]  # the game goes on from there (a bot's seat to move)
    finally:
        conn.close()


def _sigterm_mid_search(tcp: bool) -> tuple[int, float]:
    import signal

    args = [sys.executable, "-m", "bots.protocol"] + (["--tcp", "0"] if tcp else [])
    proc = subprocess.Popen(args, cwd=ROOT, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    conn: Conn | None = None
    try:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        if tcp:
            banner = proc.stderr.readline().decode()
            conn = Conn(int(banner.rsplit(":", 1)[1]))
            _start_search(conn)
        else:
            for msg in ({"type": "new_game", "id": "g", "game": "police07", "seed": 5},
                        {"type": "advance", "id": "a", "game_id": "g1"},
                        {"type": "hint", "id": "long", "game_id": "g1", "seat": 0, "bot": "ismcts",
                         "options": {"seconds": LONG_SEARCH}}):
                proc.stdin.write(_line(msg))
            proc.stdin.flush()
            while b'"advanced"' not in proc.stdout.readline():
                pass
        time.sleep(1.0)  # the search is under way
        began = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=LONG_SEARCH + 30)
        return code, time.perf_counter() - began
    finally:
        if conn is not None:
            conn.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX")
@pytest.mark.parametrize("tcp", [True, False], ids=["tcp", "stdio"])
def test_sigterm_ends_the_server_mid_search(tcp: bool) -> None:
    code, waited = _sigterm_mid_search(tcp)
    print(f"{'tcp' if tcp else 'stdio'}: exited {code} {waited:.2f} s after SIGTERM")
    assert code == 0
    assert waited < 5.0


# --- caps on budgets ---------------------------------------------------------------------------------
def _hint_msg(**fields: Any) -> dict[str, Any]:
    return {"type": "hint", "id": "h", "game_id": "g1", "seat": 0, "bot": "ismcts", **fields}


def _ready_server(**options: Any) -> SeatServer:
    server = SeatServer(**options)
    server.handle({"type": "new_game", "game": "police07", "seed": 5})
    server.handle({"type": "advance", "game_id": "g1"})
    return server


@pytest.mark.parametrize("request_fields, cap", [
    ({"budget": 10**6}, "200000 iterations"),
    ({"options": {"iterations": 10**6}}, "200000 iterations"),
    ({"options": {"seconds": 3600}}, "30 seconds"),
], ids=["budget", "iterations option", "seconds option"])
def test_a_budget_over_the_cap_is_a_limit_error(request_fields: dict[str, Any], cap: str) -> None:
    server = _ready_server()
    [reply] = server.handle(_hint_msg(**request_fields))
    assert reply["type"] == "error" and reply["error"] == "limit", reply
    assert cap in reply["message"] and "--max-" in reply["message"], reply


def test_bot_options_over_the_cap_are_refused_everywhere() -> None:
    server = SeatServer()
    [reply] = server.handle({"type": "new_game", "game": "police07",
                             "bots": {"1": {"name": "ismcts", "options": {"iterations": 10**7}}}})
    assert reply["error"] == "limit" and "--max-iterations" in reply["message"], reply
    [reply] = server.handle({"type": "new_game", "game": "gcbc",
                             "bots": {"1": {"name": "rollout", "options": {"seconds": 100.0}}}})
    assert reply["error"] == "limit" and "--max-seconds" in reply["message"], reply
    assert server.tables == {}


def test_a_search_inside_the_server_is_capped_even_past_the_request_check() -> None:
    # A bot that asks for more than its options said (here: a budget under the request check, but
    # a server whose cap is lower) is still cut to the cap by the search scope.
    server = _ready_server(limits=protocol.Limits(max_iterations=40))
    [reply] = server.handle(_hint_msg(budget=40))
    assert reply["type"] == "hint", reply
    # 40 simulations over several moves are too few to rank by: the policy ranks, naming the count
    advice = reply["advice"]
    assert advice["decided_by"] == "heuristic" and "ran 40 simulations" in advice["note"], advice
    [reply] = server.handle(_hint_msg(budget=41))
    assert reply["error"] == "limit" and "40 iterations" in reply["message"], reply


# --- 2. no client-chosen files -----------------------------------------------------------------------
FILE_OPTIONS = [("police07", "board"), ("gcbc", "content"), ("lineup", "board"), ("lineup", "suspects"),
                ("lineup", "lucky")]


def _bad_paths(tmp_path: Path) -> list[str]:
    (tmp_path / "not.json").write_text("not json at all")
    (tmp_path / "wrong.json").write_text(json.dumps({"format": "something-else/1"}))
    (tmp_path / "board.json").write_text(json.dumps(TINY_BOARD))
    return [str(tmp_path / "missing.json"), str(tmp_path), str(tmp_path / "not.json"),
            str(tmp_path / "wrong.json"), str(tmp_path / "board.json"), "/dev/zero", "budapest.json",
            "../../etc/passwd"]


@pytest.mark.parametrize("game, option", FILE_OPTIONS)
def test_file_options_are_refused_with_one_text_before_any_file_is_touched(
        game: str, option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _bad_paths(tmp_path)
    touched: list[str] = []
    import builtins
    import io
    import pathlib

    real_open = builtins.open

    def spy_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(tmp_path) in str(file) or str(file) == "/dev/zero":
            touched.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(io, "open", spy_open)
    for name in ("read_text", "read_bytes", "stat", "exists", "is_file", "is_dir"):
        real = getattr(pathlib.Path, name)

        def spy(self: pathlib.Path, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            if str(tmp_path) in str(self) or str(self) == "/dev/zero":
                touched.append(str(self))
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(pathlib.Path, name, spy)
    server = SeatServer()
    replies = []
    for path in paths:
        for msg in ({"type": "new_game", "id": 1, "game": game, "config": {option: path}},
                    {"type": "hint_view", "id": 1, "game": game, "config": {option: path}, "view": {}},
                    {"type": "decide", "id": 1, "game": game, "view": {"config": {option: path}}}):
            replies.append(server.handle(msg))
    assert touched == []
    first = replies[0]
    assert first[0]["error"] == "bad_config", first
    assert all(r == first for r in replies), {json.dumps(r) for r in map(str, replies)}
    assert server.tables == {}


def test_welcome_lists_the_content_names_a_client_may_choose() -> None:
    [welcome] = SeatServer().handle({"type": "hello"})
    assert welcome["content"]["police07"] == {"board": ["budapest"]}
    assert welcome["content"]["lineup"] == {"board": [], "lucky": [], "suspects": []}
    [started] = SeatServer().handle({"type": "new_game", "game": "police07", "config": {"board": "budapest"}})
    assert started["type"] == "game_started"


# --- 3. idle and slow clients ------------------------------------------------------------------------
def test_a_server_has_default_idle_timeout_and_line_deadline(serve: Any) -> None:
    server = serve()
    assert server.limits.idle_timeout is not None and server.limits.idle_timeout > 0
    assert server.limits.line_deadline is not None and server.limits.line_deadline > 0
    conn = Conn(server.port)
    conn.send({"type": "hello"})
    limits = conn.recv()["limits"]
    conn.close()
    assert limits["idle_timeout"] == server.limits.idle_timeout
    assert limits["line_deadline"] == server.limits.line_deadline


def test_a_trickling_client_is_dropped_at_the_line_deadline(serve: Any) -> None:
    server = serve(limits=protocol.Limits(max_clients=1, idle_timeout=30.0, line_deadline=0.6))
    slow = Conn(server.port)
    began = time.monotonic()
    try:
        for byte in b'{"type": "hello", "id": "never finished", "padding": "' + b"x" * 100:
            slow.sock.sendall(bytes([byte]))  # a byte every 0.1 s: never idle, never a whole line
            if select.select([slow.sock], [], [], 0.1)[0]:
                break
        reply = slow.recv()
        assert reply["error"] == "limit" and "0.6" in reply["message"], reply
        with pytest.raises((EOFError, ConnectionError)):
            slow.recv()
    finally:
        slow.close()
    assert time.monotonic() - began < 5
    _welcomed_within(server.port, PROMPT)


def test_an_idle_client_is_dropped_and_a_full_server_says_when_to_retry(serve: Any) -> None:
    server = serve(limits=protocol.Limits(max_clients=1, idle_timeout=1.0, line_deadline=5.0))
    idle = Conn(server.port)
    idle.send({"type": "hello"})
    assert idle.recv()["type"] == "welcome"
    busy = Conn(server.port)
    refused = busy.recv()
    busy.close()
    assert refused["error"] == "limit", refused
    assert isinstance(refused["retry_after"], int) and 1 <= refused["retry_after"] <= 2, refused
    assert "retry" in refused["message"]
    began = time.monotonic()
    dropped = idle.recv()
    assert dropped["error"] == "limit" and "idle" in dropped["message"], dropped
    assert time.monotonic() - began < 5
    idle.close()
    _welcomed_within(server.port, PROMPT)


def test_a_client_that_stays_busy_is_not_idle(serve: Any) -> None:
    # The idle clock does not run while the client's own request runs.
    server = serve(limits=protocol.Limits(idle_timeout=0.5, max_seconds=1.5))
    conn = Conn(server.port)
    try:
        conn.send({"type": "new_game", "id": "g", "game": "police07", "seed": 5})
        conn.recv()
        conn.send({"type": "advance", "id": "a", "game_id": "g1"})
        conn.until("advanced")
        conn.send({"type": "hint", "id": "h", "game_id": "g1", "seat": 0, "bot": "ismcts",
                   "options": {"seconds": 1.5}})
        hint = conn.recv()
        assert hint["type"] == "hint" and "stopped" not in hint, hint
    finally:
        conn.close()


# --- 4. operator-registered content ------------------------------------------------------------------
def test_a_registered_board_is_chosen_by_name(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY_BOARD))
    content = protocol.Content.register(["police07.board:tiny=" + str(path)])
    try:
        path.write_text("changed after start-up: never read again")
        server = SeatServer(content=content)
        [welcome] = server.handle({"type": "hello"})
        assert welcome["content"]["police07"]["board"] == ["budapest", "tiny"]
        [started] = server.handle({"type": "new_game", "game": "police07",
                                   "config": {"players": 2, "pieces": [1], "board": "tiny"}, "seed": 1,
                                   "bots": {"1": "heuristic"}})
        assert started["type"] == "game_started", started
        assert started["config"]["board"] == "tiny"
        text = json.dumps(server.handle({"type": "advance", "game_id": "g1"}))
        [view] = server.handle({"type": "view", "game_id": "g1", "seat": 0})
        assert view["view"]["config"]["board"] == "tiny"
        assert str(tmp_path) not in text + json.dumps(view) + json.dumps(started)
        # The stateless round trip: the view names the board by name, and that is enough.
        [decision] = server.handle({"type": "decide", "game": "police07", "view": view["view"], "seed": 2})
        assert decision["type"] == "decision", decision
        # Its path is still not a name.
        [refused] = server.handle({"type": "new_game", "game": "police07", "config": {"board": str(path)}})
        assert refused["error"] == "bad_config"
    finally:
        content.close()


def test_board_flag_and_a_bad_file_is_a_one_line_error(tmp_path: Path) -> None:
    good = tmp_path / "tiny.json"
    good.write_text(json.dumps(TINY_BOARD))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(TINY_BOARD, stops=1)))
    proc = subprocess.run([sys.executable, "-m", "bots.protocol", "--board", f"tiny={bad}"],
                          input=b"", capture_output=True, timeout=60, cwd=ROOT, env=ENV, check=False)
    assert proc.returncode == 2
    lines = proc.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "tiny" in lines[0] and "stops" in lines[0], lines
    script = _line({"type": "new_game", "id": 1, "game": "police07",
                    "config": {"players": 2, "pieces": [1], "board": "tiny"}})
    proc = subprocess.run([sys.executable, "-m", "bots.protocol", "--board", f"tiny={good}"],
                          input=script, capture_output=True, timeout=60, cwd=ROOT, env=ENV, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    [started] = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert started["type"] == "game_started" and started["config"]["board"] == "tiny", started


@pytest.mark.parametrize("spec, fault", [
    ("tiny", "NAME=PATH"),
    ("police07.board:=x.json", "name"),
    ("police07.board:budapest=x.json", "shipped"),
    ("chess.board:x=y.json", "chess"),
    ("police07.pieces:x=y.json", "pieces"),
])
def test_content_registration_faults(spec: str, fault: str) -> None:
    with pytest.raises(BadStateError, match=fault):
        protocol.Content.register([spec])


def test_content_of_one_game_and_name_is_checked_together(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    with pytest.raises(BadStateError, match="lineup.suspects:mine"):
        protocol.Content.register([f"lineup.suspects:mine={missing}"])


def test_stop_is_answered_in_a_plain_session() -> None:
    [reply] = SeatServer().handle({"type": "stop", "id": 3})
    assert reply == {"type": "stopping", "id": 3, "busy": False}
    assert encode_reply(reply)


def test_every_registered_game_declares_its_content_options() -> None:
    # A new game must say which of its options name files, or clients could name any path there.
    from bots.cli_args import file_options
    from solver.games import names

    table = protocol.content_options()
    assert set(table) == set(names())
    for game, options in table.items():
        defaults = SeatServer().games[game]().config()
        assert set(options) <= set(defaults), game
        assert tuple(options) == file_options(game)  # the CLI and the server refuse the same options


def test_generic_content_registration_for_lineup(tmp_path: Path) -> None:
    shipped = ROOT / "solver" / "games" / "lineup" / "data" / "suspects.json"
    mine = tmp_path / "suspects.json"
    mine.write_bytes(shipped.read_bytes())
    content = protocol.Content.register([f"lineup.suspects:mine={mine}"])
    try:
        server = SeatServer(content=content)
        [started] = server.handle({"type": "new_game", "game": "lineup", "config": {"suspects": "mine"}})
        assert started["type"] == "game_started", started
        assert started["config"]["suspects"] == "mine"
        [refused] = server.handle({"type": "new_game", "game": "lineup", "config": {"lucky": "mine"}})
        assert refused["error"] == "bad_config"
    finally:
        content.close()


def test_serve_opt_sets_a_default_for_every_bot_that_takes_it() -> None:
    content = protocol.Content()
    content.set_bot_defaults(["iterations=7", "estimate=posterior"])
    server = SeatServer(content=content)
    seats = {"1": "ismcts", "2": {"name": "ismcts", "options": {"iterations": 9}}}
    [started] = server.handle({"type": "new_game", "game": "police07", "seed": 1, "bots": seats})
    assert started["type"] == "game_started", started
    table = server.tables[started["game_id"]]
    assert table.bots[1].settings["iterations"] == 7  # the operator's default
    assert table.bots[2].settings["iterations"] == 9  # the request's own option wins
    [started] = server.handle({"type": "new_game", "game": "gcbc", "seed": 1, "bots": {"0": "heuristic"}})
    assert server.tables[started["game_id"]].bots[0].settings["estimate"] == "posterior"
    plain = SeatServer()  # no operator defaults: the bot's own
    [started] = plain.handle({"type": "new_game", "game": "gcbc", "seed": 1, "bots": {"0": "heuristic"}})
    assert plain.tables[started["game_id"]].bots[0].settings["estimate"] != "posterior"


@pytest.mark.parametrize(("spec", "fault"), [
    ("iterations", "expected NAME=VALUE"),
    ("colour=red", "no bot of any game takes option 'colour'"),
    ("iterations=lots", "expected a int"),
    ("iterations=0", "must be in"),
])
def test_serve_opt_refuses_what_no_bot_takes(spec: str, fault: str) -> None:
    with pytest.raises(BadStateError, match=fault):
        protocol.Content().set_bot_defaults([spec])
    proc = subprocess.run([sys.executable, "-m", "bots.protocol", "--opt", spec], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and fault in proc.stderr and "Traceback" not in proc.stderr
