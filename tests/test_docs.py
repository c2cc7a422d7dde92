"""The examples in README.md and docs/*.md run, and print what the page says they print.

An example is runnable when an HTML comment marks it, on the line right before its fence:

``<!-- doctest: console -->`` before a fenced block of ``$ copsolver ARGS`` lines, each followed by
the output it prints. The commands run in order through :func:`bots.cli.main` (``copsolver`` is
``python -m bots``) and must exit 0 and print exactly the lines that follow, where a line ``...``
stands for any number of lines (for what varies and does not matter, e.g. a long list).
``<!-- doctest: python -->`` before a fenced Python block: the block runs; with ``>>>`` prompts it
is a doctest and its outputs are compared.

The examples of one page share a temporary working directory, in page order, so a later example
reads the files an earlier one wrote (``--replay game.jsonl``). Only reproducible commands can be
marked: a ``hint`` or ``arena`` needs ``--iterations``, a ``play`` a ``--seed``; a time budget
(``--seconds``) prints what the machine's speed decides. Add ``slow`` to the marker
(``<!-- doctest: console slow -->``) for an example that takes more than a few seconds: the page is
then tested under ``-m slow``. docs/protocol.md's session transcript is checked by
tests/test_protocol.py.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from bots.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
MARKER = re.compile(r"^<!-- doctest: (console|python)( slow)? -->$")
FENCE = re.compile(r"^(`{3,})")
ANY = "..."  # an expected-output line that matches any number of lines


@dataclass(frozen=True)
class Example:
    """One marked block of a page."""

    page: Path
    line: int  # of its first content line, 1-based
    kind: str  # "console" or "python"
    slow: bool
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass(frozen=True)
class Command:
    """One ``$ copsolver ...`` line of a console example and the output it should print."""

    args: tuple[str, ...]
    expected: tuple[str, ...]
    line: int


def examples(page: Path) -> list[Example]:
    """The marked blocks of ``page``, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found = []
    i = 0
    while i < len(lines):
        marker = MARKER.match(lines[i].strip())
        if marker is None:
            i += 1
            continue
        fence = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if fence is None:
            raise AssertionError(f"{page.name}:{i + 1}: a doctest marker must stand right before a fence")
        end = next((j for j in range(i + 2, len(lines)) if lines[j].startswith(fence.group(1))), None)
        if end is None:
            raise AssertionError(f"{page.name}:{i + 2}: the marked block is not closed")
        text = "\n".join(lines[i + 2 : end]) + "\n"
        found.append(Example(page, i + 3, marker.group(1), marker.group(2) is not None, text))
        i = end + 1
    return found


def commands(example: Example) -> list[Command]:
    """The commands of a console example with their expected output."""
    out: list[Command] = []
    for offset, line in enumerate(example.text.splitlines()):
        if line.startswith("$ "):
            words = shlex.split(line[2:])
            if words[:1] != ["copsolver"]:
                raise AssertionError(f"{example.where}: a console example runs copsolver only: {line!r}")
            out.append(Command(tuple(words[1:]), (), example.line + offset))
        elif not out:
            raise AssertionError(f"{example.where}: output before the first '$ copsolver' line")
        else:
            last = out[-1]
            out[-1] = Command(last.args, (*last.expected, line), last.line)
    return out


def matches(expected: Sequence[str], actual: Sequence[str]) -> bool:
    """True when ``actual`` lines are ``expected``, each ``...`` line standing for any lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == ANY:
        return any(matches(rest, actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and actual[0] == head and matches(rest, actual[1:])


def run_console(example: Example) -> None:
    for command in commands(example):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            code = main(list(command.args))
        printed = buffer.getvalue().splitlines()
        where = f"{example.page.relative_to(ROOT)}:{command.line}: copsolver {shlex.join(command.args)}"
        assert code == 0, f"{where}: exit code {code}"
        assert matches(command.expected, printed), (
            f"{where} printed (the page has other lines):\n" + "\n".join(printed)
        )


def run_python(example: Example) -> None:
    if ">>>" in example.text:
        test = doctest.DocTestParser().get_doctest(
            example.text, {}, example.where, str(example.page), example.line - 1
        )
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        report = io.StringIO()
        runner.run(test, out=report.write)
        assert runner.failures == 0, report.getvalue()
        return
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(example.text, example.where, "exec"), {"__name__": "__doc_example__"})  # noqa: S102


def _page_param(page: Path) -> object:
    marks = [pytest.mark.slow] if any(e.slow for e in examples(page)) else []
    return pytest.param(page, id=str(page.relative_to(ROOT)), marks=marks)


RUNNABLE = [page for page in PAGES if examples(page)]


@pytest.mark.parametrize("page", [_page_param(p) for p in RUNNABLE])
def test_page_examples_print_what_the_page_says(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # files the examples write stay in the test's directory
    for example in examples(page):
        if example.kind == "console":
            run_console(example)
        else:
            run_python(example)


def test_marked_examples_exist_and_are_reproducible() -> None:
    """The convention is in use, and no marked command depends on the clock."""
    every = [e for page in PAGES for e in examples(page)]
    assert any(e.kind == "console" for e in every) and any(e.kind == "python" for e in every)
    for example in every:
        if example.kind != "console":
            continue
        for command in commands(example):
            args = command.args
            assert "--seconds" not in args, f"{example.where}: a time budget is not reproducible"
            if args[:1] in (("hint",), ("arena",)):
                assert "--iterations" in args, f"{example.where}: {args[0]} needs --iterations here"
            if args[:1] == ("play",):
                assert "--seed" in args, f"{example.where}: play needs --seed here"


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["a", "c"], False),
        (["a"], ["a", "b"], False),
        (["a", "...", "d"], ["a", "b", "c", "d"], True),
        (["a", "...", "d"], ["a", "d"], True),
        (["a", "...", "d"], ["a", "b"], False),
        (["..."], [], True),
    ],
)
def test_output_matching(expected: list[str], actual: list[str], result: bool) -> None:
    assert matches(expected, actual) is result
