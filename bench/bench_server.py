"""Seat server responsiveness: how long a ``hello`` takes while another client runs a long search.

A ``copsolver serve --tcp 0`` process of its own, its iteration and node caps raised so the search
runs its whole time (so the measuring client shares no GIL with it);
client A brings a Police 07 game to Dr. Factor's first move and asks for the longest search the
server allows (a ``hint`` from the ``ismcts`` bot with ``seconds`` at the server's ``max_seconds``);
while it runs, client B sends ``hello`` after ``hello`` and times each round trip. The same is
measured with no search running, for comparison; A's search is ended with ``stop`` afterwards.

    python bench/bench_server.py                      # prints the figures, no pytest
    python -m pytest bench/bench_server.py --benchmark-only
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.protocol_client import Conn, start_longest_search, start_server  # noqa: E402

HELLOS = 50
GAP = 0.02  # seconds between two hellos
#: caps high enough that the search runs its whole ``max_seconds`` (the default iteration and node
#: caps end it after ~1.5 s on a quiet machine, and the hellos would time an idle server)
RAISED_CAPS = ("--max-iterations", "2000000000", "--max-nodes", "20000000")
#: seconds into the search before the hellos start: the tree is large by then
WARM = 5.0


def measure() -> dict[str, Any]:
    """Hello round trips (seconds) with no search and during the longest allowed search."""
    proc, port = start_server(*RAISED_CAPS)
    searcher, other = Conn(port, timeout=120), Conn(port, timeout=120)
    try:
        other.send({"type": "hello"})
        welcome = other.recv()  # the first hello builds every game's defaults: not timed
        compiled, max_seconds = welcome["compiled"], welcome["limits"]["max_seconds"]
        idle = []
        for _ in range(HELLOS):
            idle.append(other.hello())
            time.sleep(GAP)
        start_longest_search(searcher, max_seconds)
        time.sleep(WARM)
        busy = []
        for _ in range(HELLOS):
            busy.append(other.hello())
            time.sleep(GAP)
        searcher.send({"type": "stop"})
        hint = searcher.until("hint")
        return {"compiled": compiled, "max_seconds": max_seconds, "idle": idle, "busy": busy,
                "stopped": hint.get("stopped", False), "summary": hint.get("advice", {}).get("summary")}
    finally:
        searcher.close()
        other.close()
        proc.kill()
        proc.wait(timeout=30)


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return (f"median {statistics.median(ordered) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
            f"worst {ordered[-1] * 1000:.1f} ms")


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[Conn, Conn]]:
    proc, port = start_server(*RAISED_CAPS)
    searcher, other = Conn(port, timeout=120), Conn(port, timeout=120)
    other.send({"type": "hello"})
    max_seconds = other.recv()["limits"]["max_seconds"]
    start_longest_search(searcher, max_seconds)
    time.sleep(WARM)
    yield searcher, other
    searcher.send({"type": "stop"})
    searcher.until("hint")
    searcher.close()
    other.close()
    proc.kill()
    proc.wait(timeout=30)


def test_hello_during_the_longest_search(benchmark: Any, server: tuple[Conn, Conn]) -> None:
    _, other = server
    benchmark.pedantic(other.hello, rounds=HELLOS, iterations=1)


def main() -> None:
    result = measure()
    print(f"engine: {'compiled' if result['compiled'] else 'pure Python'}; "
          f"{HELLOS} hellos {GAP * 1000:.0f} ms apart")
    print(f"no search running:                          {_ms(result['idle'])}")
    print(f"during a {result['max_seconds']:g} s search (the longest allowed): {_ms(result['busy'])}")
    print(f"the search, stopped afterwards: stopped={result['stopped']}; {result['summary']}")


if __name__ == "__main__":
    main()
