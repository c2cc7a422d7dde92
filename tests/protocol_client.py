"""A TCP client of the seat protocol, and a server process of its own (tests and bench/)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def line(msg: dict[str, Any]) -> bytes:
    """``msg`` as one protocol line."""
    return (json.dumps(msg) + "\n").encode()


class Conn:
    """A TCP client that sends requests and reads reply lines with a timeout."""

    def __init__(self, port: int, timeout: float = 10.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""

    def send(self, msg: dict[str, Any]) -> None:
        self.sock.sendall(line(msg))

    def recv(self) -> dict[str, Any]:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the connection")
            self.buffer += chunk
        text, self.buffer = self.buffer.split(b"\n", 1)
        reply: dict[str, Any] = json.loads(text)
        return reply

    def until(self, kind: str) -> dict[str, Any]:
        """The next reply of type ``kind`` (or the next error)."""
        while True:
            reply = self.recv()
            if reply["type"] == kind or reply["type"] == "error":
                return reply

    def hello(self) -> float:
        """One ``hello`` round trip, in seconds."""
        began = time.perf_counter()
        self.send({"type": "hello"})
        self.recv()
        return time.perf_counter() - began

    def close(self) -> None:
        self.sock.close()


def start_server(*flags: str) -> tuple[subprocess.Popen[bytes], int]:
    """``copsolver serve --tcp 0 [flags]`` in a process of its own, and its port. Timing a server in
    the same process would be wrong: a search holding the GIL would stop the timing client too."""
    proc = subprocess.Popen([sys.executable, "-m", "bots.protocol", "--tcp", "0", *flags], cwd=ROOT,
                            env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    if proc.stderr is None:  # for the type checker: stderr is a pipe
        raise RuntimeError("no stderr pipe")
    banner = proc.stderr.readline().decode()
    return proc, int(banner.rsplit(":", 1)[1])


def start_longest_search(conn: Conn, seconds: float, hint_id: str = "long") -> None:
    """Bring a Police 07 game to Dr. Factor's first move and ask for a ``seconds`` search there."""
    conn.send({"type": "new_game", "id": "g", "game": "police07", "seed": 5})
    conn.until("game_started")
    conn.send({"type": "advance", "id": "a", "game_id": "g1"})
    conn.until("advanced")
    conn.send({"type": "hint", "id": hint_id, "game_id": "g1", "seat": 0, "bot": "ismcts",
               "options": {"seconds": seconds}})
