"""``copsolver arena``: a seeded, seat-balanced tournament between two bots, with a progress bar.

Usage::

    copsolver arena police07 --detectives ismcts --factor nw2012 --games 200 --seconds 0.2
    copsolver arena police07 --a heuristic --b random --games 50 --seed 1 --json out.json

The two entrants are named either by role (``--detectives X --factor Y``, for games whose rulebook
names two roles: X is entrant A, Y entrant B) or generically (``--a X --b Y``). ``--games N`` is
the number of *deals* (seeds); every deal is played once per line-up, and the line-ups swap the
entrants (Police 07: X as the detectives against Y as Dr. Factor, then Y as the detectives against
X as Dr. Factor), so N deals make 2N games in Police 07. ``--no-swap`` plays only the named line-up,
for bots that play one role only; that result is not seat-balanced.

Bot options:

* ``--seconds S`` and ``--iterations N`` set the search budget of every entrant whose bot declares
  that option (``copsolver bots`` lists them). Entrants whose bot has no such option (``random``,
  ``heuristic``) play as they always do, and a note on stderr says so: one command can then sweep a
  search bot against fixed baselines without special cases, and the report's entrant labels show
  exactly which options each bot got.
* ``--a-opt NAME=VALUE`` / ``--b-opt`` (or ``--detectives-opt`` / ``--factor-opt``) set one option of
  one entrant (repeatable), converted to the option's declared type; these are strict: an option
  the bot does not declare is an error. They override ``--seconds``/``--iterations``.

Seat substitution (``--substitute``), for games with many seats and no two sides to swap::

    copsolver arena gcbc --players 6 --a ismcts --b heuristic --substitute --games 100 --seed 1

For each deal and each seat s (all seats, or ``--seats 0,2``) the deal is played twice: A in seat s
and the *field* in every other seat, then B in seat s and the same field. The field is B unless
``--field BOT`` names another bot (with ``--field-opt NAME=VALUE``); ``--seconds``/``--iterations``
reach the field's bot too when it takes them. The table counts the substituted seat's wins, draws
and times per entrant, by the team that seat was on at the end of the game (Good Cop Bad Cop:
honest/crooked; Police 07: factor/detectives) and overall, with Wilson 95% intervals; the headline is
the paired difference A - B in win rate over the same (deal, seat), with a 95% normal interval.
``--games N`` plays N deals x seats x 2 games; when the field is B, the all-B game of a deal is
played once and serves every seat. ``--team NAME`` substitutes only the seats on team NAME in that
baseline game (Police Precinct with ``--dirty-cop``: ``--team dirty`` measures a bot in the Dirty
Cop's seat): the baseline games are played first, then the A games of the seats that were on it.

The table goes to stdout, the progress bar to stderr (only on a terminal, and not with
``--quiet``). ``--json PATH`` writes the whole report: settings, the command line that reproduces
it (with the seed even when it was drawn), versions, kernel mode, per-entrant per-role tallies with
Wilson 95% intervals, and every game with its deal seed, result, times and actions.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import secrets
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from bots.arena import substitution
from bots.arena import tournament as arena
from bots.arena.substitution import SubstitutionGame
from bots.arena.tournament import ArenaGame, BotSpec, Side, TournamentReport
from bots.cli_args import (
    DEFAULT_GAME,
    EXIT_OK,
    UsageError,
    add_variant_flags,
    count_arg,
    game_options,
    positive_float,
    positive_int,
)
from solver.core import JSON, ConfigError, Game
from solver.core.spec import Role
from solver.games import GAMES
from solver.games import load as load_game
from solver.games import names as game_names
from solver.games import spec as game_spec

DEFAULT_GAMES = 100
#: Budget flags and the bot option each one sets.
BUDGETS: tuple[tuple[str, str], ...] = (("seconds", "--seconds"), ("iterations", "--iterations"))


def _role_names() -> list[str]:
    """Every role name some game's spec gives, in registry order without repeats."""
    seen: dict[str, None] = {}
    for name in game_names():
        for role in game_spec(name).roles:
            seen.setdefault(role.name, None)
    return list(seen)


def _roles_of(game: Game) -> tuple[Role, ...]:
    return game_spec(game.name).roles if game.name in GAMES else ()


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Register ``copsolver arena`` and its flags; return its parser."""
    p = commands.add_parser(
        "arena",
        help="a seeded, seat-balanced tournament between two bots (win rates, 95%% intervals)",
        description="Play seeded deals between two bots, each deal once per line-up (the entrants "
        "swap roles or seats), and print win rates with Wilson 95% intervals. Police 07 names the "
        "entrants by role: --detectives X --factor Y makes X entrant A and Y entrant B.",
        epilog="Example: copsolver arena police07 --detectives heuristic --factor random "
        "--games 50 --seed 1 --json out.json",
    )
    p.add_argument("game", nargs="?", default=DEFAULT_GAME, help=f"the game (default {DEFAULT_GAME})")
    p.add_argument("--a", metavar="BOT", help="entrant A (generic form; with --b)")
    p.add_argument("--b", metavar="BOT", help="entrant B (generic form; with --a)")
    for role in _role_names():
        p.add_argument(
            f"--{role}", metavar="BOT", help=f"the bot in the {role} role of the first line-up (role form)"
        )
    p.add_argument(
        "--games", type=positive_int, default=DEFAULT_GAMES, metavar="N",
        help=f"deals to play (default {DEFAULT_GAMES}); each deal is played once per line-up, "
        "so Police 07 plays 2N games",
    )
    p.add_argument(
        "--seed", type=count_arg, help="seed of the tournament (default: drawn at random and printed)"
    )
    p.add_argument(
        "--seconds", type=positive_float, metavar="S",
        help="search time per move, for the entrants whose bot takes a 'seconds' option",
    )
    p.add_argument(
        "--iterations", type=positive_int, metavar="N",
        help="search iterations per move, for the entrants whose bot takes an 'iterations' option",
    )
    for side in ["a", "b", *_role_names()]:
        p.add_argument(
            f"--{side}-opt", action="append", default=[], metavar="NAME=VALUE",
            help=f"an option of the {side if len(side) > 1 else side.upper()} bot (repeatable)",
        )
    p.add_argument(
        "--no-swap", action="store_true",
        help="play only the named line-up (for bots that play one role only; not seat-balanced)",
    )
    p.add_argument(
        "--substitute", action="store_true",
        help="seat substitution: per deal and seat, A then B in that seat, the field in the others",
    )
    p.add_argument(
        "--field", metavar="BOT", help="with --substitute: the bot in the other seats (default: B)"
    )
    p.add_argument(
        "--field-opt", action="append", default=[], metavar="NAME=VALUE",
        help="with --field: an option of the field's bot (repeatable)",
    )
    p.add_argument(
        "--seats", type=seat_list, metavar="LIST",
        help="with --substitute: the seats to substitute, e.g. 0,2 (default: every seat)",
    )
    p.add_argument(
        "--team", metavar="NAME",
        help="with --substitute: substitute only the seats on team NAME in the baseline game",
    )
    p.add_argument(
        "--backend", choices=arena.BACKENDS, default="process",
        help="where games run: process (local processes, default), serial, or ray (a Ray cluster)",
    )
    p.add_argument("--workers", type=positive_int, metavar="N", help="parallel games (default: CPU count)")
    p.add_argument("--json", metavar="PATH", help="write the full report (settings, tallies, games) to PATH")
    p.add_argument("--players", type=int, metavar="N", help="number of players (Police 07: 2..6, default 4)")
    add_variant_flags(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar and no heading: only the table")
    return p


def seat_list(text: str) -> list[int]:
    """argparse type: comma-separated seat numbers, e.g. ``0,2``."""
    words = [w.strip() for w in text.split(",")]
    if not all(w.isdigit() for w in words):
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of seat numbers")
    return [int(w) for w in words]


# --- entrants ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Entrants:
    """The two bots as named on the command line, and the flag words each came from."""

    names: dict[Side, str]
    flags: dict[Side, str]  # "a"/"b", or the role name


def entrants_from(args: argparse.Namespace, game: Game) -> Entrants:
    """Read ``--a/--b`` or the role flags; UsageError for a mix, a gap or roles the game lacks."""
    given_roles = {role: getattr(args, role) for role in _role_names() if getattr(args, role) is not None}
    generic = {side: getattr(args, side) for side in ("a", "b") if getattr(args, side) is not None}
    if given_roles and generic:
        raise UsageError("name the entrants either by role (e.g. --detectives/--factor) or with --a/--b")
    if given_roles:
        game_roles = [role.name for role in _roles_of(game)]
        stray = sorted(set(given_roles) - set(game_roles))
        if stray:
            have = f"its roles are {', '.join('--' + r for r in game_roles)}" if game_roles else "use --a/--b"
            raise UsageError(f"--{stray[0]}: {game.name} has no such role; {have}")
        if len(game_roles) != 2 or len(given_roles) != 2:
            wanted = " and ".join("--" + r for r in game_roles)
            raise UsageError(f"{game.name}: give both {wanted} (or use --a/--b)")
        first, second = game_roles
        return Entrants({"A": given_roles[first], "B": given_roles[second]}, {"A": first, "B": second})
    if len(generic) != 2:
        roles = _roles_of(game)
        by_role = " and ".join("--" + r.name for r in roles)
        hint = f" (or {by_role})" if by_role else ""
        raise UsageError(f"name two entrants: --a BOT and --b BOT{hint}")
    return Entrants({"A": generic["a"], "B": generic["b"]}, {"A": "a", "B": "b"})


def bot_spec(game: Game, bot: str, flag: str, pairs: Sequence[str], budgets: dict[str, Any]) -> BotSpec:
    """The entrant's spec: ``budgets`` the bot declares, then its own ``NAME=VALUE`` options."""
    import bots

    table = bots.registry.bots_for(game.name)
    cls = table.get(bot)
    if cls is None:
        raise UsageError(f"--{flag} {bot!r}: {game.name} has no such bot; choose {', '.join(table)}")
    options: dict[str, Any] = {k: v for k, v in budgets.items() if k in cls.options}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--{flag}-opt {pair!r}: expected NAME=VALUE")
        spec = cls.options.get(name)
        if spec is None:
            known = ", ".join(sorted(cls.options)) or "none"
            raise UsageError(
                f"--{flag}-opt {pair!r}: the {bot} bot has no option {name!r} (options: {known})"
            )
        try:
            options[name] = spec.parse(f"{bot} bot", name, raw.strip())
        except ConfigError as err:
            raise UsageError(f"--{flag}-opt {pair}: {err}") from None
    return BotSpec(bot, options)


def budget_note(specs: Iterable[BotSpec], budgets: dict[str, Any]) -> str | None:
    """A note naming the budget flags that some entrant's bot does not take, or None."""
    lines = []
    for option, flag in BUDGETS:
        if option not in budgets:
            continue
        skipped = sorted({s.name for s in specs if option not in s.options})
        if skipped:
            lines.append(f"note: {flag} does not apply to {', '.join(skipped)} (no '{option}' option)")
    return "\n".join(lines) or None


# --- the command ------------------------------------------------------------------------------


def command_line(args: argparse.Namespace, who: Entrants, seed: int, options: dict[str, Any]) -> list[str]:
    """The command that reproduces this tournament (the seed filled in; output flags left out)."""
    words = ["copsolver", "arena", args.game]
    for side in arena.SIDES:
        words += [f"--{who.flags[side]}", who.names[side]]
    words += ["--games", str(args.games), "--seed", str(seed)]
    for option, flag in BUDGETS:
        value = getattr(args, option)
        if value is not None:
            words += [flag, str(value)]
    for side in arena.SIDES:
        for pair in getattr(args, f"{who.flags[side]}_opt"):
            words += [f"--{who.flags[side]}-opt", pair]
    if args.no_swap:
        words.append("--no-swap")
    if args.substitute:
        words.append("--substitute")
        if args.field is not None:
            words += ["--field", args.field]
        for pair in args.field_opt:
            words += ["--field-opt", pair]
        if args.seats is not None:
            words += ["--seats", ",".join(str(s) for s in args.seats)]
        if args.team is not None:
            words += ["--team", args.team]
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        words += [flag] if value is True else [flag, str(value)]
    words += ["--backend", args.backend]
    if args.workers is not None:
        words += ["--workers", str(args.workers)]
    return words


def git_revision() -> JSON | None:
    """The checkout's commit and whether it has local changes, when it is a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=here, capture_output=True, text=True, timeout=10, check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None  # an installed copy, or no git: the version in the report still names the code
    return {"commit": commit, "dirty": bool(status.strip())}


def substitution_flags(args: argparse.Namespace, who: Entrants) -> None:
    """UsageError for substitution flags without ``--substitute``, or ones it cannot take."""
    if not args.substitute:
        for flag, given in (("--field", args.field is not None), ("--field-opt", bool(args.field_opt)),
                            ("--seats", args.seats is not None), ("--team", args.team is not None)):
            if given:
                raise UsageError(f"{flag} needs --substitute")
        return
    if args.no_swap:
        raise UsageError("--substitute and --no-swap do not go together (substitution swaps one seat)")
    if who.flags != {"A": "a", "B": "b"}:
        raise UsageError("--substitute: name the entrants with --a and --b")
    if args.field_opt and args.field is None:
        raise UsageError("--field-opt: name the field's bot with --field (without it the field is B)")
    try:
        substitution.check_team(args.team)
    except ConfigError as err:
        raise UsageError(f"--team: {err}") from None


class BarUpdate(Protocol):
    """``update(done, text, total=None)``: a given ``total`` is the new one (``--team`` learns it late)."""

    def __call__(self, done: int, text: str, total: int | None = None) -> None: ...


@contextlib.contextmanager
def progress_bar(
    err: TextIO, hidden: bool, total: int, description: str
) -> Iterator[BarUpdate]:
    """A progress bar on ``err`` (none when ``hidden`` or off a terminal); yields its :class:`BarUpdate`."""
    # rich loads only when a tournament runs: cli.py imports this module to build every parser.
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(file=err)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=hidden or not console.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)

        def update(done: int, text: str, total: int | None = None) -> None:
            bar.update(task, completed=done, description=text, total=total)

        yield update


def cmd_arena(args: argparse.Namespace, out: TextIO, err: TextIO | None = None) -> int:
    """Run the tournament (or the seat substitution); print the table; write the JSON report if asked."""
    err = sys.stderr if err is None else err
    options = game_options(args)
    game = load_game(args.game, **options)
    who = entrants_from(args, game)
    substitution_flags(args, who)
    for flag in ["a", "b", *_role_names()]:
        if getattr(args, f"{flag}_opt") and flag not in who.flags.values():
            named = " and ".join(f"--{f}" for f in who.flags.values())
            raise UsageError(f"--{flag}-opt: there is no --{flag} entrant here (the entrants are {named})")
    budgets = {option: getattr(args, option) for option, _ in BUDGETS if getattr(args, option) is not None}
    specs: dict[Side, BotSpec] = {}
    for side in arena.SIDES:
        flag = who.flags[side]
        specs[side] = bot_spec(game, who.names[side], flag, getattr(args, f"{flag}_opt"), budgets)
    field = specs["B"] if args.field is None else bot_spec(game, args.field, "field", args.field_opt, budgets)
    seats = substitution.check_seats(game, args.seats) if args.substitute else ()
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    note = budget_note([*specs.values(), field], budgets)
    if note is not None:
        err.write(note + "\n")
    arena.check_backend(args.backend)  # before the heading: a missing ray fails at once
    json_path = Path(args.json) if args.json is not None else None
    if json_path is not None and (json_path.is_dir() or not json_path.parent.is_dir()):
        # checked now so that a long tournament does not end unable to write its report
        raise UsageError(f"--json {args.json}: not a file in an existing folder")
    if args.substitute:
        shared = substitution.same_field(specs["B"], field)  # one all-B baseline game per deal
        baselines = args.games * (1 if shared else len(seats))
        mode = f", field = {field.label}, seat(s) {','.join(map(str, seats))} substituted"
        if args.team is None:
            total = baselines + args.games * len(seats)
            count = f"{total} games"
        else:
            total = baselines  # the A games are known once the baseline games are in
            mode += f" when on team {args.team} in the baseline game"
            count = f"{baselines} baseline games, then A games for the seats on team {args.team}"
    else:
        total = args.games * len(arena.game_lineups(game, not args.no_swap))
        mode = ""
        count = f"{total} games"
    if not args.quiet:
        drawn = "" if args.seed is not None else f" (drawn at random: rerun with --seed {seed})"
        out.write(
            f"Arena: {game.name}, A = {specs['A'].label}, B = {specs['B'].label}{mode}; "
            f"{args.games} deals, {count}; seed {seed}{drawn}; {args.backend} backend\n"
        )
        out.flush()
    a, b = specs["A"].name, specs["B"].name
    wins = {"A": 0, "B": 0, "draw": 0}
    command = command_line(args, who, seed, options)
    with progress_bar(err, args.quiet, total, f"A {a} 0 : 0 B {b}") as update:
        report: TournamentReport
        if args.substitute:

            def seat_tick(done: int, total: int, played: SubstitutionGame) -> None:
                if played.side == "A":
                    wins["A"] += played.won
                else:  # a shared baseline game counts once for each seat it serves
                    served = substitution.baseline_seats(played, seats, args.team, shared)
                    wins["B"] += sum(played.record.returns[s] > 0 for s in served)
                update(done, f"A {a} {wins['A']} : {wins['B']} B {b} (seat wins)", total)

            report = substitution.run(
                game, specs["A"], specs["B"], games=args.games, seed=seed, field=field, seats=seats,
                team=args.team, backend=args.backend, workers=args.workers, progress=seat_tick,
                command=command,
            )
        else:

            def tick(done: int, total: int, played: ArenaGame) -> None:
                wins[played.winner_side or "draw"] += 1
                update(done, f"A {a} {wins['A']} : {wins['B']} B {b}")

            report = arena.run(
                game, specs["A"], specs["B"], games=args.games, seed=seed, swap=not args.no_swap,
                backend=args.backend, workers=args.workers, progress=tick, command=command,
            )
    revision = git_revision()
    if revision is not None:
        report = dataclasses.replace(report, environment=report.environment | {"git": revision})
    if isinstance(report, substitution.SubstitutionReport):
        out.write(substitution.format_report(report))
    elif isinstance(report, arena.ArenaReport):
        out.write(arena.format_report(report))
    if json_path is not None:
        json_path.write_text(report.dumps(), encoding="utf-8")
        if not args.quiet:
            out.write(f"Report written to {json_path}\n")
    return EXIT_OK
