"""The web transport of the seat protocol: a Starlette app served by uvicorn (docs/web.md).

``GET /`` is the page and ``GET /static/...`` its files, all from this package; ``WS /ws`` carries
the protocol itself, one text message per request and one per reply, exactly the JSON objects the
stdio and TCP transports write as lines. There is no second protocol: each WebSocket session is a
:class:`~bots.protocol.SeatServer`, with the same limits, errors and rules about hidden facts.

What the web adds:

* **Sessions survive a reload.** A new connection first gets ``{"type": "session", "session":
  <token>, "resumed": bool}``; reconnecting with ``/ws?session=<token>`` re-attaches the same
  SeatServer (its games intact). A detached session expires after ``idle`` seconds; at most
  ``max_sessions`` are kept (when full, the one detached longest is dropped first; when every one
  is attached, the connection is refused with a ``limit`` error and close code 1013).
* **Only the page may connect.** The server binds loopback by default and refuses (close code
  1008, before accepting) a WebSocket whose ``Origin`` is not the page's own, so another web site
  open in the same browser cannot drive it; HTTP requests must name a known ``Host`` (no DNS
  rebinding).
* **Stop and disconnect.** A request runs in a worker thread while the connection keeps reading: a
  ``stop`` interrupts it (``SeatServer.interrupt``) and is answered at once, before the stopped
  request's reply, as on TCP; a disconnect cancels it. Replies go out in request order; a running
  request's interim replies (a review's progress) go out as it sends them, before its final ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import mimetypes
import secrets
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError as FutureCancelled
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import anyio.to_thread
import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from bots.protocol import (
    MAX_GAMES,
    MAX_LINE,
    READ_AHEAD,
    Content,
    ErrorKind,
    Limits,
    Reply,
    SeatServer,
    encode_reply,
    error_reply,
    stop_request,
)
from solver.core import ConfigError

log = logging.getLogger(__name__)

#: The page's files, shipped as package data.
STATIC: Final = Path(__file__).resolve().parent / "static"
DEFAULT_PORT: Final = 8765
#: Seconds a detached session (the page closed or reloading) is kept before it expires.
IDLE: Final = 600.0
#: Sessions kept at once (attached or detached).
MAX_SESSIONS: Final = 16
#: WebSocket close codes: policy violation (a foreign Origin), try again later (no session free),
#: and a session taken over by a newer connection with the same token.
CLOSE_POLICY: Final = 1008
CLOSE_BUSY: Final = 1013
CLOSE_TAKEN_OVER: Final = 4000
#: uvicorn drops larger messages itself (close 1009); up to this size they get the protocol's own
#: ``max_line`` error and the session goes on.
WS_MAX_SIZE: Final = 4 * MAX_LINE
#: Seconds a running request waits for its interim reply to be sent; a client that takes longer is
#: treated as gone (its request is cancelled), as a TCP client that does not read is dropped.
SEND_WAIT: Final = 30.0

# Module scripts must be served as JavaScript, whatever the machine's mime.types says.
for _type, _ext in (("text/javascript", ".js"), ("text/javascript", ".mjs"), ("text/css", ".css"),
                    ("image/svg+xml", ".svg"), ("text/html", ".html")):
    mimetypes.add_type(_type, _ext)


def origins(host: str, port: int) -> frozenset[str]:
    """The ``Origin`` values of the page served at ``host:port`` (loopback names always)."""
    names = {"127.0.0.1", "localhost", host}
    return frozenset(f"http://{_url_host(name)}:{port}" for name in names)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


@dataclass(eq=False)
class WebSession:
    """One page's protocol session, kept across reloads by its token."""

    token: str
    server: SeatServer
    #: one request at a time, whichever connection sent it (a reload's old one may still run)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: the live connection, or None while detached
    connection: Connection | None = None
    detached_at: float = 0.0


class Sessions:
    """The live sessions by token: attach, detach, expire. Used from the event loop only."""

    def __init__(self, make_server: Callable[[], SeatServer], *, idle: float = IDLE,
                 max_sessions: int = MAX_SESSIONS, clock: Callable[[], float] = time.monotonic) -> None:
        if not (idle > 0):
            raise ConfigError(f"idle must be a number of seconds > 0, not {idle!r}")
        if isinstance(max_sessions, bool) or not isinstance(max_sessions, int) or max_sessions < 1:
            raise ConfigError(f"max_sessions must be a whole number >= 1, not {max_sessions!r}")
        self.make_server = make_server
        self.idle = idle
        self.max_sessions = max_sessions
        self.clock = clock
        self.live: dict[str, WebSession] = {}

    def sweep(self) -> None:
        """Forget the sessions detached for longer than :attr:`idle`."""
        now = self.clock()
        for token, session in list(self.live.items()):
            if session.connection is None and now - session.detached_at > self.idle:
                self._forget(token)

    def attach(self, token: str | None, connection: Connection) -> tuple[WebSession, bool, Connection | None]:
        """The session of ``token`` (resumed) or a fresh one, now served by ``connection``, and the
        connection it was taken from (to close). :class:`LookupError` when every session is attached."""
        self.sweep()
        session = self.live.get(token) if token is not None else None
        if session is not None:
            previous = session.connection
            session.connection = connection
            return session, True, previous
        if len(self.live) >= self.max_sessions:
            detached = [s for s in self.live.values() if s.connection is None]
            if not detached:
                raise LookupError(f"the server keeps {self.max_sessions} sessions (the limit), all in use")
            self._forget(min(detached, key=lambda s: s.detached_at).token)
        session = WebSession(secrets.token_urlsafe(16), self.make_server(), connection=connection)
        self.live[session.token] = session
        return session, False, None

    def detach(self, session: WebSession, connection: Connection) -> None:
        """``connection`` is gone: the session waits for a reload (unless another took it over)."""
        if session.connection is connection:
            session.connection = None
            session.detached_at = self.clock()
        if session.server.closed:  # bye: nothing to come back to
            self._forget(session.token)

    def _forget(self, token: str) -> None:
        session = self.live.pop(token, None)
        if session is not None:
            session.server.cancel()
            session.server.tables.clear()


class Connection:
    """One WebSocket: reads requests, runs them one at a time in a worker thread, sends replies."""

    def __init__(self, websocket: WebSocket) -> None:
        self.ws = websocket
        self.send_lock = asyncio.Lock()
        #: set once the client is gone or the session was taken over: nothing more runs or is sent
        self.gone = threading.Event()
        #: the event loop that serves the socket (set by :meth:`serve`): worker threads send through it
        self.loop: asyncio.AbstractEventLoop | None = None

    async def send(self, replies: list[Reply]) -> None:
        """Send replies in order, one message each; a failed send means the client is gone."""
        for reply in replies:
            if self.gone.is_set():
                return
            try:
                await self.ws.send_text(encode_reply(reply))
            except (WebSocketDisconnect, RuntimeError, OSError):
                self.gone.set()
                return

    async def close(self, code: int, reason: str = "") -> None:
        """Close the socket (once); errors mean it is closed already."""
        self.gone.set()
        if self.ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await self.ws.close(code, reason)

    async def _send_locked(self, replies: list[Reply]) -> None:
        async with self.send_lock:
            await self.send(replies)

    def _emit(self, session: WebSession, replies: list[Reply]) -> None:
        """Send a running request's interim replies from its worker thread, and wait until they are
        out, so that they precede its final replies (those are sent once the worker returns)."""
        loop = self.loop
        if loop is None or self.gone.is_set():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._send_locked(replies), loop).result(SEND_WAIT)
        except (FutureTimeout, FutureCancelled, RuntimeError):  # slow, or the loop is closing
            log.debug("an interim reply was not sent", exc_info=True)
            self.gone.set()
            session.server.cancel()

    async def serve(self, session: WebSession) -> None:
        """Read until the client goes; answer each request in order in a worker thread."""
        self.loop = asyncio.get_running_loop()
        requests: asyncio.Queue[str | bytes | int] = asyncio.Queue(READ_AHEAD)
        worker = asyncio.create_task(self._answer(session, requests))
        try:
            while not self.gone.is_set():
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data: str | bytes | None = message.get("text")
                if data is None:
                    data = message.get("bytes")
                if data is None:
                    continue
                # (a text frame is valid UTF-8 on the wire; an ASGI server in-process may hand over
                # lone surrogates, which the protocol then answers as bad_json)
                size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
                if size > MAX_LINE:
                    await requests.put(size)  # answered in turn, never parsed
                    continue
                stop = stop_request(data)
                if stop is not None:
                    # Holding the send lock across the cancel puts 'stopping' before the stopped
                    # request's own reply, as on TCP.
                    async with self.send_lock:
                        await self.send(session.server.interrupt(stop))
                    continue
                await requests.put(data)
                if worker.done():
                    break
        except WebSocketDisconnect:
            pass
        finally:
            self.gone.set()
            if session.connection is self or session.connection is None:
                session.server.cancel()  # the running request of this client ends early
            worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async def _answer(self, session: WebSession, requests: asyncio.Queue[str | bytes | int]) -> None:
        while True:
            item = await requests.get()
            replies = await anyio.to_thread.run_sync(self._run, session, item, abandon_on_cancel=True)
            async with self.send_lock:
                await self.send(replies)
            if session.server.closed:  # bye
                await self.close(1000, "bye")
                return

    def _run(self, session: WebSession, item: str | bytes | int) -> list[Reply]:
        with session.lock:
            if self.gone.is_set():
                return []
            if isinstance(item, int):
                return session.server.reject_overlong(item)
            return session.server.handle_line(item, emit=functools.partial(self._emit, session))


class _SecurityHeaders:
    """Headers for every HTTP response: no sniffing, no framing, scripts only from this server."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[tuple[bytes, bytes]] = list(message.get("headers", []))
                headers += [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                            (b"referrer-policy", b"no-referrer"),
                            (b"content-security-policy", _CSP)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# 'self' covers the page's own ws:// origin (CSP 3); SVG drawings may carry style attributes.
_CSP: Final = (b"default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
               b"style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; "
               b"frame-ancestors 'none'")


class WebApp:
    """The Starlette app and the sessions behind it (:attr:`app` is the ASGI application)."""

    def __init__(self, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT, limits: Limits | None = None,
                 content: Content | None = None, max_games: int = MAX_GAMES, idle: float = IDLE,
                 max_sessions: int = MAX_SESSIONS, static: Path | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.host = host
        self.port = port
        self.limits = limits if limits is not None else Limits()
        self.content = content if content is not None else Content()
        #: set when the server stops: every running search ends
        self.halt = threading.Event()
        self.origins = origins(host, port)
        self.static = static if static is not None else STATIC

        def make_server() -> SeatServer:
            return SeatServer(limits=self.limits, content=self.content, max_games=max_games,
                              shutdown=self.halt)

        self.sessions = Sessions(make_server, idle=idle, max_sessions=max_sessions, clock=clock)
        hosts = sorted({"127.0.0.1", "localhost", host, _url_host(host)})
        self.app = Starlette(
            routes=[
                Route("/", self._index),
                Mount("/static", app=StaticFiles(directory=self.static, check_dir=False), name="static"),
                WebSocketRoute("/ws", self._websocket),
            ],
            middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
                        Middleware(_SecurityHeaders)],
        )

    async def _index(self, request: Request) -> Response:
        page = self.static / "index.html"
        if not page.is_file():
            return PlainTextResponse("the page is not installed (bots/web/static/index.html)", 404)
        return FileResponse(page, media_type="text/html; charset=utf-8",
                            headers={"cache-control": "no-cache"})

    async def _websocket(self, websocket: WebSocket) -> None:
        if websocket.headers.get("origin") not in self.origins:
            # before accepting: the browser sees a failed handshake, another site learns nothing
            await websocket.close(CLOSE_POLICY)
            return
        connection = Connection(websocket)
        token = websocket.query_params.get("session")
        try:
            session, resumed, previous = self.sessions.attach(token, connection)
        except LookupError as err:
            await websocket.accept()
            await connection.send([error_reply(ErrorKind.LIMIT, str(err))])
            await connection.close(CLOSE_BUSY, "no session free")
            return
        await websocket.accept()
        if previous is not None:  # a reload whose old socket is not closed yet
            await previous.close(CLOSE_TAKEN_OVER, "session resumed by another connection")
        await connection.send([{"type": "session", "session": session.token, "resumed": resumed}])
        try:
            await connection.serve(session)
        finally:
            self.sessions.detach(session, connection)
            await connection.close(1000)

    def close(self) -> None:
        """End every running search (the server is stopping)."""
        self.halt.set()


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (0: a free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _uvicorn(web: WebApp) -> uvicorn.Server:
    config = uvicorn.Config(web.app, lifespan="off", log_level="warning", ws_max_size=WS_MAX_SIZE,
                            timeout_graceful_shutdown=2)
    return uvicorn.Server(config)


def url_of(host: str, port: int) -> str:
    """The page's address."""
    return f"http://{_url_host(host)}:{port}/"


def serve_in_thread(port: int = 0, host: str = "127.0.0.1", **options: Any) -> tuple[str, Callable[[], None]]:
    """Serve the page from a background thread (tests, the browser tests); return its URL and a
    function that stops the server. ``options`` are :class:`WebApp`'s (``idle``, ``max_sessions``,
    ``limits``, ``content``, ``max_games``, ``static``)."""
    sock = bind(host, port)
    bound = int(sock.getsockname()[1])
    web = WebApp(host=host, port=bound, **options)
    server = _uvicorn(web)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True,
                              name="copsolver-web")
    thread.start()
    deadline = time.monotonic() + 10.0
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    if not server.started:
        server.should_exit = True
        sock.close()
        raise RuntimeError("the web server did not start")

    def stop() -> None:
        web.close()
        server.should_exit = True
        thread.join(10.0)
        sock.close()

    return url_of(host, bound), stop


def run(host: str = "127.0.0.1", port: int = DEFAULT_PORT, *, open_browser: bool = False,
        announce: Callable[[str], None] | None = None, **options: Any) -> int:
    """Serve until interrupted (``copsolver web``); return 0. ``announce`` gets the URL once bound."""
    sock = bind(host, port)
    bound = int(sock.getsockname()[1])
    web = WebApp(host=host, port=bound, **options)
    url = url_of(host, bound)
    if announce is not None:
        announce(url)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        _uvicorn(web).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shut down cleanly, then re-raised the Ctrl-C it caught
        pass
    finally:
        web.close()
        sock.close()
    return 0

