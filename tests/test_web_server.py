"""The web transport (bots/web/server.py): the page's files, the WebSocket carrying the seat protocol,
sessions across reloads, the Origin check, limits, stop and disconnect, and ``copsolver web``.

:class:`WSClient` talks to the server the way the page does; tests/test_protocol.py runs part of its
protocol tests through it as well as in-process.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

import bots
import bots.draw
from bots.protocol import MAX_LINE, SeatServer
from bots.web import server as web_server
from bots.web.server import CLOSE_BUSY, CLOSE_POLICY, CLOSE_TAKEN_OVER, WebApp
from solver import games
from tests.test_protocol import Client

ROOT = Path(__file__).resolve().parents[1]
PORT = 8765
ORIGIN = f"http://127.0.0.1:{PORT}"
WS_URL = f"ws://127.0.0.1:{PORT}/ws"
#: The marker request sent after each request: every reply before its answer belongs to the request.
SYNC = "__sync__"


class WSClient(Client):
    """A protocol client over the web transport: the in-process ``Client`` (``one``, ``error``,
    ``state`` come from it) whose ``send`` goes through a WebSocket."""

    def __init__(self, web: WebApp, http: TestClient, token: str | None = None,
                 origin: str = ORIGIN) -> None:
        query = "" if token is None else f"?session={token}"
        self._cm = http.websocket_connect(WS_URL + query, headers={"origin": origin})
        self.ws = self._cm.__enter__()
        hello = self.ws.receive_json()
        assert hello["type"] == "session" and set(hello) == {"type", "session", "resumed"}, hello
        self.token: str = hello["session"]
        self.resumed: bool = hello["resumed"]
        self.web = web
        self.transcript: list[tuple[str, list[str]]] = []
        self.closed = False

    @property  # type: ignore[override]
    def server(self) -> SeatServer:
        """The session's SeatServer (white-box checks, as the in-process client offers)."""
        return self.web.sessions.live[self.token].server if not self.closed else self._last

    def send(self, msg: dict[str, Any] | str) -> list[dict[str, Any]]:
        text = msg if isinstance(msg, str) else json.dumps(msg)
        self._last = self.web.sessions.live[self.token].server
        try:
            self.ws.send_text(text)
        except UnicodeEncodeError:  # lone surrogates: no text frame carries them; bytes do
            self.ws.send_bytes(text.encode("utf-8", "surrogatepass"))
        bye = isinstance(msg, dict) and msg.get("type") == "bye"
        if not bye:
            self.ws.send_text(json.dumps({"type": "hello", "id": SYNC}))
        replies: list[dict[str, Any]] = []
        while True:
            reply = self.ws.receive_json()
            if bye:
                replies.append(reply)
                self.closed = True
                break
            if reply.get("id") == SYNC and reply["type"] == "welcome":
                break
            replies.append(reply)
        self.transcript.append((text, [json.dumps(r) for r in replies]))
        return replies

    def close(self) -> None:
        if not getattr(self, "_exited", False):
            self._exited = True
            self._cm.__exit__(None, None, None)


@pytest.fixture
def web() -> Iterator[tuple[WebApp, TestClient]]:
    app = WebApp(port=PORT)
    with TestClient(app.app, base_url=f"http://127.0.0.1:{PORT}") as http:
        yield app, http
    app.close()


def ws_factory(web: WebApp, http: TestClient) -> tuple[Callable[[], WSClient], Callable[[], None]]:
    """A maker of WebSocket clients (one session each) and a function closing them all."""
    made: list[WSClient] = []

    def make() -> WSClient:
        made.append(WSClient(web, http))
        return made[-1]

    def close() -> None:
        for client in made:
            client.close()

    return make, close


# --- the page's files -----------------------------------------------------------------------------
@pytest.fixture
def site(tmp_path: Path) -> Iterator[TestClient]:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>copsolver</title>", encoding="utf-8")
    (static / "app.js").write_text("export const x = 1;\n", encoding="utf-8")
    (static / "style.css").write_text("body { margin: 0 }\n", encoding="utf-8")
    (static / "pic.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("not for the page", encoding="utf-8")
    app = WebApp(port=PORT, static=static)
    with TestClient(app.app, base_url=f"http://127.0.0.1:{PORT}") as http:
        yield http


def test_page_and_static_files_with_their_content_types(site: TestClient) -> None:
    page = site.get("/")
    assert page.status_code == 200 and "copsolver" in page.text
    assert page.headers["content-type"].startswith("text/html")
    expected = {"/static/app.js": "text/javascript", "/static/style.css": "text/css",
                "/static/pic.svg": "image/svg+xml", "/static/index.html": "text/html"}
    for path, kind in expected.items():
        reply = site.get(path)
        assert reply.status_code == 200, path
        assert reply.headers["content-type"].split(";")[0] == kind, (path, reply.headers["content-type"])
        assert reply.headers["x-content-type-options"] == "nosniff"
        assert "script-src" not in reply.headers["content-security-policy"]  # default-src 'self' rules
        assert "default-src 'self'" in reply.headers["content-security-policy"]
    assert site.get("/static/missing.js").status_code == 404


@pytest.mark.parametrize("path", [
    "/static/%2e%2e/secret.txt", "/static/..%2fsecret.txt", "/static/%2e%2e%2fsecret.txt",
    "/static/%2E%2E/%2E%2E/bots/web/server.py", "/static/..%5csecret.txt", "/static/%252e%252e/secret.txt",
    "/static/../secret.txt", "/static/../server.py", "/static//etc/passwd", "/static/%2fetc%2fpasswd",
])
def test_a_path_out_of_the_static_folder_is_not_found(site: TestClient, path: str) -> None:
    reply = site.get(path)
    assert reply.status_code == 404, (path, reply.status_code)
    assert "not for the page" not in reply.text and "import" not in reply.text


def test_a_foreign_host_header_is_refused(site: TestClient) -> None:
    # DNS rebinding: a page of another name resolved to 127.0.0.1 must not read ours
    assert site.get("/", headers={"host": "evil.example:8765"}).status_code == 400
    assert site.get("/", headers={"host": f"localhost:{PORT}"}).status_code == 200


def test_the_package_serves_its_own_page_folder() -> None:
    assert WebApp().static == Path(web_server.__file__).resolve().parent / "static"


# --- the WebSocket ------------------------------------------------------------------------------
@pytest.mark.parametrize("origin", ["http://evil.example", f"http://127.0.0.1:{PORT + 1}",
                                    f"https://127.0.0.1:{PORT}", "null", ""])
def test_a_foreign_origin_is_refused_with_1008(web: tuple[WebApp, TestClient], origin: str) -> None:
    app, http = web
    with pytest.raises(WebSocketDisconnect) as refused, \
            http.websocket_connect(WS_URL, headers={"origin": origin}) as ws:
        ws.receive_json()
    assert refused.value.code == CLOSE_POLICY
    assert not app.sessions.live  # no session was made for it


def test_no_origin_is_refused_and_both_loopback_names_are_accepted(web: tuple[WebApp, TestClient]) -> None:
    app, http = web
    with pytest.raises(WebSocketDisconnect) as refused, http.websocket_connect(WS_URL) as ws:
        ws.receive_json()
    assert refused.value.code == CLOSE_POLICY
    for origin in (ORIGIN, f"http://localhost:{PORT}"):
        client = WSClient(app, http, origin=origin)
        assert client.one({"type": "hello"})["type"] == "welcome"
        client.close()


def test_a_foreign_host_cannot_open_the_websocket(web: tuple[WebApp, TestClient]) -> None:
    _, http = web
    with pytest.raises(WebSocketDenialResponse), \
            http.websocket_connect("ws://evil.example:8765/ws", headers={"origin": ORIGIN}):
        pass


def test_malformed_and_oversized_messages_get_typed_errors_and_the_session_goes_on(
        web: tuple[WebApp, TestClient]) -> None:
    app, http = web
    client = WSClient(app, http)
    assert client.one("this is not json")["error"] == "bad_json"
    assert client.one({"type": "shuffle", "id": 3}) == {
        "type": "error", "id": 3, "error": "bad_message",
        "message": client.server.handle({"type": "shuffle"})[0]["message"]}
    huge = json.dumps({"type": "hello", "id": 9, "pad": "x" * MAX_LINE})
    reply = client.one(huge)
    assert reply["error"] == "bad_message" and str(MAX_LINE) in reply["message"]
    assert "id" not in reply  # an overlong message is never parsed
    # multi-byte characters count in bytes, as a line does on TCP
    wide = json.dumps({"type": "hello", "pad": "é" * (MAX_LINE // 2 + 1)}, ensure_ascii=False)
    assert client.one(wide)["error"] == "bad_message"
    client.ws.send_bytes(b'{"type": "hello", "id": "b"}')  # a binary frame is read as a line
    assert client.ws.receive_json()["type"] == "welcome"
    assert client.one({"type": "hello", "id": 4})["type"] == "welcome"
    client.close()


def test_reconnecting_with_the_token_finds_the_tables(web: tuple[WebApp, TestClient]) -> None:
    app, http = web
    first = WSClient(app, http)
    assert not first.resumed
    started = first.one({"type": "new_game", "game": "police07", "seed": 3, "bots": {"1": "random"}})
    first.close()
    again = WSClient(app, http, token=first.token)
    assert again.resumed and again.token == first.token
    tables = again.one({"type": "tables"})
    assert [row["game_id"] for row in tables["tables"]] == [started["game_id"]]
    assert tables["tables"][0]["seats"] == started["seats"]
    again.close()
    stranger = WSClient(app, http, token="no-such-token")
    assert not stranger.resumed and stranger.token != first.token
    assert stranger.one({"type": "tables"})["tables"] == []
    stranger.close()
    assert len(first.token) >= 20 and re.fullmatch(r"[A-Za-z0-9_-]+", first.token)


def test_a_second_connection_with_the_token_takes_the_session_over(web: tuple[WebApp, TestClient]) -> None:
    app, http = web
    old = WSClient(app, http)
    old.one({"type": "new_game", "game": "police07", "seed": 1})
    new = WSClient(app, http, token=old.token)
    assert new.resumed
    with pytest.raises(WebSocketDisconnect) as closed:
        old.ws.receive_json()
    assert closed.value.code == CLOSE_TAKEN_OVER
    old.close()
    assert len(new.one({"type": "tables"})["tables"]) == 1
    assert app.sessions.live[new.token].connection is not None  # the old socket's end detached nothing
    new.close()


def test_a_detached_session_expires_after_idle() -> None:
    now = [1000.0]
    app = WebApp(port=PORT, idle=30, clock=lambda: now[0])
    with TestClient(app.app, base_url=f"http://127.0.0.1:{PORT}") as http:
        client = WSClient(app, http)
        client.one({"type": "new_game", "game": "police07", "seed": 1})
        client.close()
        now[0] += 29
        kept = WSClient(app, http, token=client.token)
        assert kept.resumed
        kept.close()
        now[0] += 31
        late = WSClient(app, http, token=client.token)
        assert not late.resumed and late.token != client.token
        assert client.token not in app.sessions.live
        late.close()


def test_max_sessions() -> None:
    app = WebApp(port=PORT, max_sessions=1)
    with TestClient(app.app, base_url=f"http://127.0.0.1:{PORT}") as http:
        first = WSClient(app, http)
        with http.websocket_connect(WS_URL, headers={"origin": ORIGIN}) as ws:
            refused = ws.receive_json()
            assert refused["type"] == "error" and refused["error"] == "limit"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == CLOSE_BUSY
        first.close()
        # the detached session gives way to a new page; its token no longer resumes
        second = WSClient(app, http)
        assert not second.resumed and list(app.sessions.live) == [second.token]
        second.close()


def _long_hint(client: WSClient) -> None:
    client.one({"type": "new_game", "game": "police07", "seed": 5})
    client.send({"type": "advance", "game_id": "g1"})
    client.ws.send_text(json.dumps({"type": "hint", "id": "long", "game_id": "g1", "seat": 0,
                                    "bot": "ismcts", "options": {"seconds": 20}}))


def test_stop_interrupts_a_long_hint(web: tuple[WebApp, TestClient]) -> None:
    app, http = web
    client = WSClient(app, http)
    _long_hint(client)
    deadline = time.monotonic() + 10
    while not client.server.busy and time.monotonic() < deadline:
        time.sleep(0.01)
    client.ws.send_text(json.dumps({"type": "stop", "id": "s"}))
    stopping = client.ws.receive_json()
    assert stopping == {"type": "stopping", "id": "s", "busy": True}
    hint = client.ws.receive_json()
    assert hint["type"] == "hint" and hint["id"] == "long" and hint["stopped"] is True
    assert hint["advice"]["ranked"]
    assert client.one({"type": "hello"})["type"] == "welcome"
    client.close()


def test_a_disconnect_cancels_the_running_request(web: tuple[WebApp, TestClient]) -> None:
    app, http = web
    client = WSClient(app, http)
    _long_hint(client)
    session = app.sessions.live[client.token]
    deadline = time.monotonic() + 10
    while not session.server.busy and time.monotonic() < deadline:
        time.sleep(0.01)
    assert session.server.busy
    client.close()
    deadline = time.monotonic() + 15  # far below the 20 s the hint asked for
    while session.server.busy and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not session.server.busy
    assert session.connection is None  # detached, waiting for a reload


def test_a_review_streams_its_progress_and_stops_over_the_websocket(web: tuple[WebApp, TestClient],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Interim replies go out while the request runs (the worker thread sends them through the event
    loop), before its final reply, and a stop ends the review with what it has."""
    import bots.review
    from tests.test_protocol import ALL_BOTS, FakeReviewer, _wait_for_cancel

    reviewer = FakeReviewer()
    reviewer.after = lambda done: _wait_for_cancel() if done == 2 else None
    monkeypatch.setattr(bots.review, "review_game", reviewer)
    app, http = web
    client = WSClient(app, http)
    game_id = client.one({"type": "new_game", "game": "police07", "seed": 5, "bots": ALL_BOTS})["game_id"]
    assert client.send({"type": "advance", "game_id": game_id})[-1]["over"]
    client.ws.send_text(json.dumps({"type": "review", "id": "r", "game_id": game_id, "seats": [0],
                                    "iterations": 5, "worlds": 2}))
    first, second = client.ws.receive_json(), client.ws.receive_json()
    assert [(r["type"], r["id"], r["done"]) for r in (first, second)] == [("review_progress", "r", 1),
                                                                          ("review_progress", "r", 2)]
    assert client.server.busy  # the review still runs: the lines came while it did
    client.ws.send_text(json.dumps({"type": "stop", "id": "s"}))
    assert client.ws.receive_json() == {"type": "stopping", "id": "s", "busy": True}
    final = client.ws.receive_json()
    assert final["type"] == "review" and final["id"] == "r" and final["stopped"] is True
    assert len(final["review"]["decisions"]) == 2
    assert client.one({"type": "hello"})["type"] == "welcome"
    client.close()


def _takes_no_advice(name: str) -> bool:
    module = bots.draw.drawing_module(name)
    if module is None:
        return False
    advice = inspect.signature(module.render_svg).parameters.get("advice")
    return advice is not None and advice.default is None


@pytest.mark.parametrize("name", games.names())
def test_every_game_over_the_websocket(web: tuple[WebApp, TestClient], name: str) -> None:
    app, http = web
    client = WSClient(app, http)
    welcome = client.one({"type": "hello", "id": 1})
    entry = welcome["games"][name]
    assert entry["draw"] == (bots.draw.drawing_module(name) is not None)
    quick = "heuristic" if "heuristic" in entry["bots"] else "random"
    players = entry["default_config"]["players"]
    started = client.one({"type": "new_game", "game": name, "seed": 4,
                          "bots": {str(seat): "random" for seat in range(1, players)}})
    assert started["type"] == "game_started", started
    game_id = started["game_id"]
    for _ in range(3):  # seat 0's first moves: view, hint, apply
        replies = client.send({"type": "advance", "game_id": game_id})
        assert replies[-1]["type"] == "advanced", replies[-1]
        if replies[-1]["over"]:
            break
        assert replies[-1]["decision"]["seat"] == 0
        view = client.one({"type": "view", "game_id": game_id, "seat": 0, "draw": True})
        assert view["type"] == "view" and view["view"] == client.state(game_id).view(0).to_json()
        if entry["draw"]:
            if _takes_no_advice(name):
                assert view["svg"].lstrip().startswith(("<?xml", "<svg")) and "</svg>" in view["svg"]
        else:
            assert view["svg"] is None
        hint = client.one({"type": "hint", "game_id": game_id, "seat": 0, "bot": quick, "draw": True,
                           "budget": 10})
        assert hint["type"] == "hint", hint
        legal = view["view"]["legal_actions"]
        assert {r["text"] for r in hint["advice"]["ranked"]} <= set(legal)
        assert (hint["svg"] is None) == (not entry["draw"])
        best = hint["advice"]["ranked"][0]["text"]
        applied = client.one({"type": "apply", "game_id": game_id, "action": best})
        assert applied["type"] == "applied", applied
    client.close()


# --- running it -----------------------------------------------------------------------------------
def test_serve_in_thread_speaks_to_a_real_websocket_client() -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    url, stop = web_server.serve_in_thread(port=0, idle=5, max_sessions=2)
    try:
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/", url)
        assert match is not None, url
        ws_url = f"ws://127.0.0.1:{match.group(1)}/ws"
        with connect(ws_url, origin=url.rstrip("/")) as ws:  # type: ignore[arg-type]
            session = json.loads(ws.recv(timeout=5))
            assert session["type"] == "session" and session["resumed"] is False
            ws.send(json.dumps({"type": "hello", "id": 1}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        with pytest.raises(InvalidStatus), connect(ws_url, origin="http://evil.example"):  # type: ignore[arg-type]
            pass
    finally:
        stop()


def test_copsolver_web_prints_its_url_and_stops_on_ctrl_c() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "bots", "web", "--port", "0"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match is not None, (line, proc.stderr.read() if proc.poll() is not None else "")
        import urllib.request

        with urllib.request.urlopen(match.group(0), timeout=10) as page:
            assert page.status == 200 and b"<" in page.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_web_help_and_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    from bots.cli import main

    assert main(["web", "--help"]) == 0
    out = capsys.readouterr().out
    for flag in ("--host", "--port", "--open", "--idle", "--max-sessions"):
        assert flag in out
    assert main(["web", "--port", "70000"]) == 2
    assert main(["web", "--idle", "0"]) == 2


def test_without_the_extra_web_names_the_install(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import bots.web
    from bots.cli import main

    monkeypatch.delitem(sys.modules, "bots.web.server")
    monkeypatch.delattr(bots.web, "server")  # else 'from bots.web import server' finds it
    monkeypatch.setitem(sys.modules, "starlette", None)  # import starlette now fails
    monkeypatch.setitem(sys.modules, "starlette.applications", None)
    assert main(["web", "--port", "0", "--host", "256.0.0.1"]) == 2  # never serves, even if it imported
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and 'pip install ".[web]"' in err


def test_the_rest_of_copsolver_never_imports_the_web_libraries() -> None:
    script = ("import sys\n"
              "from bots.cli import main\n"
              "import bots.protocol, bots.draw, bots.web\n"
              "main(['bots'])\n"
              "from bots.protocol import SeatServer\n"
              "SeatServer().handle({'type': 'hello'})\n"
              "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
              "('starlette', 'uvicorn', 'websockets', 'httpx', 'anyio'))\n"
              "assert not loaded, loaded\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def test_threads_do_not_pile_up(web: tuple[WebApp, TestClient]) -> None:
    app, http = web
    before = threading.active_count()
    for _ in range(5):
        client = WSClient(app, http)
        client.one({"type": "hello"})
        client.close()
    assert threading.active_count() <= before + 3
