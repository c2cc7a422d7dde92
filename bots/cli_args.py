"""Command-line arguments that more than one command reads: the usage error and exit codes,
number types, the game-variant flags and ``--file OPTION=PATH``."""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver import games
from solver.core import ConfigError
from solver.core.options import Option
from solver.core.spec import GameSpec

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


def specs() -> list[GameSpec]:
    """Every registered game's spec, in name order (specs load no game data)."""
    return [games.spec(name) for name in games.names()]


def file_options(name: str) -> tuple[str, ...]:
    """Game ``name``'s options that name a file (its spec's ``file`` options); () for an unknown game.

    A replay or position may name such a file only through ``--file OPTION=PATH`` (see
    ``bots.cli.record_config``): a path inside a record could point anywhere on the machine.
    """
    return games.spec(name).file_options if name in games.GAMES else ()


def game_parameters(name: str) -> list[str] | None:
    """The options game ``name`` takes (``players`` first); None for an unknown game."""
    if name not in games.GAMES:
        return None
    return ["players", *games.spec(name).options]


def _dest(flag: str) -> str:
    return "variant_" + flag.lstrip("-").replace("-", "_")


def _flag_table() -> dict[str, tuple[str, Option, list[str]]]:
    """flag -> (option name, its Option, the games that take it), game and bot flags alike."""
    table: dict[str, tuple[str, Option, list[str]]] = {}
    for spec in specs():
        for flag, option in spec.flags.items():
            entry = table.setdefault(flag, (option, spec.options[option], []))
            entry[2].append(spec.name)
        for flag, option in spec.bot_flags.items():
            entry = table.setdefault(flag, (option, Option(None, str, f"the bots' {option}"), []))
            entry[2].append(spec.name)
    return table


def add_variant_flags(p: argparse.ArgumentParser) -> None:
    """The variant flags of ``play`` and ``arena``, read from every game's spec (read back by
    :func:`game_options` and :func:`bot_flag_options`, which refuse a flag the chosen game lacks)."""
    for flag, (option, opt, names) in _flag_table().items():
        games_text = ", ".join(names)
        if opt.kind is bool:
            p.add_argument(flag, dest=_dest(flag), action="store_true", help=f"{opt.help} ({games_text})")
        else:
            metavar = "PATH" if opt.file else option.upper()
            p.add_argument(flag, dest=_dest(flag), metavar=metavar, help=f"{opt.help} ({games_text})")


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """flag -> value for the variant flags given on the command line."""
    given = {}
    for flag in _flag_table():
        value = getattr(args, _dest(flag), None)
        if value is not None and value is not False:
            given[flag] = value
    return given


def _check_applies(args: argparse.Namespace, flag: str, spec: GameSpec) -> None:
    if flag not in spec.flags and flag not in spec.bot_flags:
        applies = ", ".join(["--players", *spec.flags, *spec.bot_flags])
        raise UsageError(f"{flag} does not apply to {args.game} (its variant flags: {applies})")


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options the play flags ask for (only the ones given, so defaults stay the game's).

    Raise :class:`UsageError` for a flag that does not apply to ``args.game`` or a bad value.
    """
    options: dict[str, Any] = {}
    if args.players is not None:
        options["players"] = args.players
    if args.game not in games.GAMES:
        return options  # an unknown game is named by load_game
    spec = games.spec(args.game)
    for flag, value in _given(args).items():
        _check_applies(args, flag, spec)
        if flag in spec.flags:
            option = spec.flags[flag]
            opt = spec.options[option]
            try:
                options[option] = True if opt.kind is bool else opt.parse(args.game, option, value)
            except ConfigError as err:
                raise UsageError(f"{flag}: {err}") from None
    return options


def bot_flag_options(args: argparse.Namespace) -> dict[str, str]:
    """Bot option -> value from the game's bot flags given (LineUp's ``--memory``)."""
    if args.game not in games.GAMES:
        return {}
    spec = games.spec(args.game)
    return {spec.bot_flags[flag]: value for flag, value in _given(args).items() if flag in spec.bot_flags}


def add_file_flag(p: argparse.ArgumentParser) -> None:
    """``--file OPTION=PATH`` of ``replay`` and ``hint`` (read back by :func:`file_paths`)."""
    p.add_argument(
        "--file", action="append", default=[], metavar="OPTION=PATH",
        help="the file a record's game option names, e.g. --file board=my_board.json (repeatable): "
        "a replay or position opens no file it names by itself",
    )


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


def add_opt_flag(p: argparse.ArgumentParser, what: str) -> None:
    """``--opt NAME=VALUE``: a bot option, for ``what`` (read back by :func:`bot_options`)."""
    p.add_argument(
        "--opt", action="append", default=[], metavar="NAME=VALUE",
        help=f"an option of {what} (repeatable; 'copsolver bots GAME' lists each bot's options)",
    )


def bot_options(game: str, bots: Sequence[str], specs: Sequence[str],
                extra: Mapping[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Bot name -> its options, from ``--opt NAME=VALUE`` specs (and ``extra``, the game's bot flags).

    An option goes to every bot in ``bots`` that takes it, converted and checked by that bot's own
    :class:`Option`; UsageError for a malformed spec, an option none of them takes, or a bad value.
    """
    from bots.registry import bots_for

    table = bots_for(game)
    pairs: list[tuple[str, str, str]] = []
    for spec in specs:
        name, sep, value = spec.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--opt {spec!r}: expected NAME=VALUE, e.g. --opt iterations=500")
        pairs.append((f"--opt {spec}", name, value))
    for flag_name, value in (extra or {}).items():
        pairs.append((f"--{flag_name} {value}", flag_name, value))
    chosen = sorted(set(bots))
    out: dict[str, dict[str, Any]] = {bot: {} for bot in chosen}
    for where, name, value in pairs:
        takers = [bot for bot in chosen if name in table[bot].options]
        if not takers:
            bots_text = ", ".join(chosen) or "none"
            raise UsageError(f"{where}: no bot here takes option {name!r} (bots: {bots_text})")
        for bot in takers:
            try:
                out[bot][name] = table[bot].options[name].parse(f"{bot} bot", name, value)
            except ConfigError as err:
                raise UsageError(f"{where}: {err}") from None
    return out
