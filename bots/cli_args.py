"""Command-line arguments that more than one command reads: the usage error and exit codes,
number types, the game-variant flags and ``--file OPTION=PATH``."""

from __future__ import annotations

import argparse
import importlib
import inspect
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver.games import GAMES

DEFAULT_GAME = "police07"
#: Exit codes: 2 is argparse's for usage errors, and ours for every user error.
EXIT_OK, EXIT_ABANDONED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A command-line mistake found after parsing (a bad ``--seat``): print usage, exit 2."""


# --- arguments --------------------------------------------------------------------------------


@dataclass(frozen=True)
class WholeNumber:
    """An argparse type: a whole number of at least ``least``; one number for the check and its message."""

    least: int

    def __call__(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number (it must be {self.least} or more)"
            ) from None
        if value < self.least:
            fault = "is negative" if value < 0 else "is too small"
            raise argparse.ArgumentTypeError(f"{value} {fault}: it must be {self.least} or more")
        return value


#: Seeds and ply counts: 0 is a seed, and a ply count of 0 is the start of the game.
count_arg = WholeNumber(0)
#: Games, iterations and workers: none of them means anything at 0.
positive_int = WholeNumber(1)


def positive_float(text: str) -> float:
    """argparse type: a finite number above 0 (budgets in seconds; 'inf' would never end a search)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (of seconds, more than 0)") from None
    if not (math.isfinite(value) and value > 0.0):
        raise argparse.ArgumentTypeError(f"{text} must be more than 0 (a finite number of seconds)")
    return value


#: The variant flags of ``play`` and ``arena`` and the game option each one sets. A flag applies
#: to a game whose constructor takes its option (:func:`game_parameters`), so a game gains a flag
#: by taking the option. (A later issue moves the flags into each game's own spec.)
VARIANT_FLAGS: dict[str, str] = {
    "--players": "players",
    "--voluntary-show": "voluntary_show",
    "--unlimited-tickets": "unlimited_tickets",
    "--free-start": "free_start",
    "--board": "board",
}
#: Game options whose value names a file to read; each option's default is the shipped content.
#: A replay or position may name such a file only through ``--file OPTION=PATH`` (see
#: :func:`record_config`): a path inside a record could point anywhere on the machine.
FILE_OPTIONS: dict[str, tuple[str, ...]] = {
    "police07": ("board",),
    "gcbc": ("content",),
    "lineup": ("board", "suspects", "lucky"),
}


def game_parameters(name: str) -> dict[str, inspect.Parameter] | None:
    """The options game ``name``'s constructor takes, by name; None for an unknown game."""
    target = GAMES.get(name)
    if target is None:
        return None
    module, _, cls_name = target.partition(":")
    cls = getattr(importlib.import_module(module), cls_name)
    return {
        p.name: p for p in inspect.signature(cls).parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }


def add_file_flag(p: argparse.ArgumentParser) -> None:
    """``--file OPTION=PATH`` of ``replay`` and ``hint`` (read back by :func:`file_paths`)."""
    p.add_argument(
        "--file", action="append", default=[], metavar="OPTION=PATH",
        help="the file a record's game option names, e.g. --file board=my_board.json (repeatable): "
        "a replay or position opens no file it names by itself",
    )


def add_variant_flags(p: argparse.ArgumentParser) -> None:
    """The game-variant flags that ``play`` and ``arena`` share (read back by :func:`game_options`)."""
    p.add_argument(
        "--voluntary-show", action="store_true", help="variant: Dr. Factor may show himself to take tickets"
    )
    p.add_argument("--unlimited-tickets", action="store_true", help="variant: detectives ride ticket-free")
    p.add_argument("--free-start", action="store_true", help="variant: pieces choose their start stops")
    p.add_argument("--board", metavar="PATH", help="a board file instead of the game's shipped board")


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options the play flags ask for (only the ones given, so defaults stay the game's).

    Raise :class:`UsageError` for a flag that does not apply to ``args.game``.
    """
    options: dict[str, Any] = {}
    if args.players is not None:
        options["players"] = args.players
    for flag in ("voluntary_show", "unlimited_tickets", "free_start"):
        if getattr(args, flag):
            options[flag] = True
    if args.board is not None:
        options["board"] = args.board
    takes = game_parameters(args.game)
    if takes is not None:  # an unknown game is named by load_game
        for flag, option in VARIANT_FLAGS.items():
            if option in options and option not in takes:
                applies = ", ".join(f for f, o in VARIANT_FLAGS.items() if o in takes) or "none"
                raise UsageError(f"{flag} does not apply to {args.game} (its variant flags: {applies})")
    return options


def file_paths(specs: Sequence[str]) -> dict[str, str]:
    """Option -> path from ``--file OPTION=PATH`` specs; UsageError for a malformed or repeated one."""
    files: dict[str, str] = {}
    for spec in specs:
        option, sep, path = spec.partition("=")
        option = option.strip()
        if not sep or not option or not path:
            raise UsageError(f"--file {spec!r}: expected OPTION=PATH, e.g. --file board=my_board.json")
        if option in files:
            raise UsageError(f"--file {spec}: {option} is given twice")
        files[option] = path
    return files
