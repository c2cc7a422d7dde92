"""The ``copsolver`` command line: play, replay, hint, serve, arena, list bots.

``copsolver play`` with no arguments plays a whole bots-only Police 07 game and prints it round by
round. Any seat can be given to a human (``--seat 1=human``), who is shown only that seat's view and
types moves in notation (``taxi 118``) or by number. What is printed respects hidden information:
with no human at the table the printer is an omniscient spectator (Dr. Factor's hidden moves shown
and marked hidden); with humans it prints only what the human seats may see.

Randomness: one ``numpy.random.Generator`` is seeded at the top and spawns one child per seat (for
the bots) and one for chance, so a seed replays the same game. Without ``--seed`` a seed is drawn
and printed, so every game can be replayed.

Replay files (``--replay out.jsonl``) are the referee's record, one JSON object per line::

    {"type": "header", "game": "police07", "config": {...}, "seed": 7, "seats": {"0": "heuristic", ...}}
    {"type": "action", "ply": 0, "seat": -1, "action": "start 99"}      # seat -1: chance
    ...
    {"type": "result", "winner": "detectives", "reason": "...", "returns": [-1.0, 1.0, ...]}

``copsolver replay`` re-applies every action with the rules' checks, so a tampered file fails
with the line that breaks it. A game abandoned by its human ends with ``"winner": null``.

A record opens no file by itself. A header's ``config`` (or a position's, for ``hint``) may name
a content file (a ``--board`` the game was played on), and a path there could name any file on
the machine: ``replay`` and ``hint`` open it only when the command line gives it,
``--file board=PATH``, whose path then stands in for the record's (so a record still replays after
its board moved). Shipped content (the option's default, e.g. ``budapest``) needs no flag.

Every file the CLI reads (boards, positions, replays, content) goes through
:mod:`solver.core.files`: at most 4 MiB, UTF-8, strict JSON nested at most 32 deep.

User errors (bad arguments, unreadable or inconsistent files, impossible options, a variant flag
the game does not take) end with a one-line message on stderr and exit code 2, never a traceback
(argparse already exits 2 on its own errors; ``main`` returns that code instead of raising). A
human's ``quit`` exits 0; a game left unfinished because input ended exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import solver
from bots.cli_args import (
    DEFAULT_GAME,
    EXIT_ABANDONED,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    WholeNumber,
    add_file_flag,
    add_opt_flag,
    add_variant_flags,
    bot_flag_options,
    bot_options,
    count_arg,
    file_paths,
    game_options,
    positive_float,
    positive_int,
)
from bots.display import GamePrinter, game_title, make_printer, numbered
from bots.registry import available as available_bots
from bots.replays import (  # the record format, shared with the seat protocol
    ReplayWriter,
    json_type,
    parse_replay,
    read_replay,
    record_config,
    replay_header,
)
from solver import _accel
from solver.core import (
    CHANCE,
    JSON,
    Action,
    BadStateError,
    ConfigError,
    CopsolverError,
    Game,
    InvalidActionError,
    Seat,
    State,
    make_rng,
    spawn,
)
from solver.core.files import parse_json, read_text
from solver.core.referee import outcome, play_out
from solver.games import load as load_game
from solver.games import names as game_names

DEFAULT_BOT = "heuristic"
#: ``copsolver web`` defaults (bots.web.server has the same; the parser must not import it)
WEB_PORT = 8765
WEB_IDLE = 600.0
WEB_SESSIONS = 16
#: The libraries the web server needs (the ``web`` extra).
WEB_LIBRARIES = ("starlette", "uvicorn", "anyio", "websockets", "wsproto")
HUMAN = "human"
#: Default seeds are drawn below this bound, so they stay short enough to retype.
_SEED_BOUND = 2**31


class GameAbandoned(Exception):
    """A human quit, or input ended, before the game was over."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser and the parser of each command (for command-specific usage)."""
    parser = argparse.ArgumentParser(
        prog="copsolver",
        description="Rules engines and AI bots for police board games.",
        epilog="Run 'copsolver COMMAND --help' for a command's options. "
        "'copsolver play' alone plays a whole bots-only Police 07 game.",
    )
    parser.add_argument(
        "--version", action="store_true", help="print the version and whether compiled kernels are in use"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub: dict[str, argparse.ArgumentParser] = {}

    p = commands.add_parser("bots", help="list the games and their bots")
    p.add_argument("game", nargs="?", help="only this game")
    sub["bots"] = p

    p = commands.add_parser(
        "play",
        help="play a game in the terminal (humans and bots)",
        description="Play a whole game in the terminal. With no options: a bots-only Police 07 game "
        "(4 players, heuristic bots) printed round by round.",
    )
    p.add_argument("game", nargs="?", default=DEFAULT_GAME, help=f"the game (default {DEFAULT_GAME})")
    p.add_argument("--players", type=int, metavar="N", help="number of players (Police 07: 2..6, default 4)")
    p.add_argument(
        "--seat", action="append", default=[], metavar="N=WHO",
        help="who plays seat N: 'human' or a bot name (repeatable; seat 0 is Dr. Factor)",
    )
    p.add_argument(
        "--bot", default=None,
        help=f"bot for the seats no --seat names (default {DEFAULT_BOT}, or random for a game without one)"
    )
    p.add_argument("--seed", type=count_arg, help="seed of the game (default: drawn at random and printed)")
    p.add_argument("--replay", metavar="PATH", help="write the referee's record of the game to PATH (JSONL)")
    add_variant_flags(p)
    add_opt_flag(p, "the seated bots (each bot that takes it)")
    p.add_argument("--quiet", action="store_true", help="print only the result (and human prompts)")
    sub["play"] = p

    p = commands.add_parser("replay", help="check a replay file and print the game again")
    p.add_argument("path", help="a file written by 'copsolver play --replay'")
    p.add_argument("--as-seat", type=int, metavar="N", help="print only what seat N saw")
    add_file_flag(p)
    sub["replay"] = p

    from bots import hint  # the advisor's defaults live with it

    p = commands.add_parser(
        "hint",
        help="advise on a position (JSON state or view, or a replay)",
        description="Rank the moves of the seat to act, from that seat's view only: visit share and "
        "estimated win chance per move, Dr. Factor's possible stops, and what each move does to them. "
        "See docs/hint.md.",
    )
    p.add_argument("game", help="the game (e.g. police07)")
    p.add_argument("position", help="a position as JSON (a state or a view), or a replay file")
    p.add_argument(
        "--bot", default=None,
        help="the advising bot (default: the game's advisor, its strongest bot; 'copsolver bots' lists all)",
    )
    thinking = p.add_mutually_exclusive_group()
    thinking.add_argument(
        "--seconds", type=positive_float, metavar="S",
        help=f"search time in seconds (default {hint.DEFAULT_SECONDS}); the hint varies with machine speed",
    )
    thinking.add_argument(
        "--iterations", type=positive_int, metavar="N",
        help="search iterations instead of time: the same position, N and seed give the same hint",
    )
    p.add_argument("--seed", type=count_arg, default=0, help="seed of the advising bot (default 0)")
    p.add_argument("--ply", type=count_arg, metavar="N",
                   help="with a replay: advise after its first N actions (at a chance ply: at the next "
                   "seat decision; after the end: the result)")
    p.add_argument("--save-view", metavar="PATH",
                   help="also write the advised seat's view as JSON: a position file for later hints, "
                   "holding only what that seat may know")
    add_opt_flag(p, "the advising bot")
    p.add_argument("--svg", metavar="PATH",
                   help="also draw the board and the advice as SVG (the games with a drawing)")
    p.add_argument("--png", metavar="PATH", help="also draw it as PNG (cairosvg, rsvg-convert or convert)")
    add_file_flag(p)
    sub["hint"] = p

    sub["review"] = add_review_parser(commands)

    from bots.arena import cli as arena_cli  # the arena's flags and logic live in their own module

    sub["arena"] = arena_cli.add_parser(commands)

    # 'serve' is parsed by the protocol server itself (main hands it everything after the word), so
    # its options and --help are the server's own; it is registered here to be listed.
    sub["serve"] = commands.add_parser(
        "serve", help="seat bots for another front end (JSON lines on stdin/stdout, or --tcp PORT)"
    )

    p = commands.add_parser(
        "web",
        help="play in the browser: a page on this machine (needs pip install \".[web]\")",
        description="Serve a local page to play every game against the bots, with hints, replays and "
        "bot games to watch (docs/web.md). It speaks the seat protocol over a WebSocket; only the "
        "page itself may connect to it.",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default loopback; the server has no authentication)")
    p.add_argument("--port", type=_port, default=WEB_PORT, metavar="PORT",
                   help=f"port to bind (default {WEB_PORT}; 0: any free port, printed)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--idle", type=positive_float, default=WEB_IDLE, metavar="SECONDS",
                   help=f"forget a closed page's session after this long (default {WEB_IDLE:g})")
    p.add_argument("--max-sessions", type=positive_int, default=WEB_SESSIONS, metavar="N",
                   help=f"sessions (pages) kept at once (default {WEB_SESSIONS})")
    p.add_argument("--max-iterations", type=positive_int, metavar="N",
                   help="most iterations of one search (default: the seat protocol's)")
    p.add_argument("--max-seconds", type=positive_float, metavar="SECONDS",
                   help="most seconds of one search (default: the seat protocol's)")
    p.add_argument("--max-nodes", type=positive_int, metavar="N",
                   help="most search-tree nodes of one search (default: the seat protocol's)")
    p.add_argument("--content", action="append", default=[], metavar="GAME.OPTION:NAME=PATH",
                   help="offer a content file to the page by name, e.g. police07.board:mine=board.json")
    sub["web"] = p
    return parser, sub


def _port(text: str) -> int:
    """A TCP port number (0 lets the system choose)."""
    port = int(text) if text.isdigit() else -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0..65535)")
    return port


# --- version and bots -------------------------------------------------------------------------


def kernels_status() -> str:
    """``yes``, or which pure-Python mode is in force and why."""
    if _accel.PURE_REQUESTED:
        return "pure Python (COPSOLVER_PUREPYTHON=1)"
    status = _accel.compiled_status()
    if all(status.values()):
        return "yes"
    missing = sorted(name for name, ok in status.items() if not ok)
    if len(missing) == len(status):
        return "pure Python (compiled kernels not built)"
    return f"partly: pure Python for {', '.join(missing)} (not built)"


def cmd_version(out: TextIO) -> int:
    """Print the version and the kernel status."""
    out.write(f"copsolver {solver.__version__}\ncompiled kernels: {kernels_status()}\n")
    return EXIT_OK


def cmd_bots(game: str | None, out: TextIO) -> int:
    """List each game and its bots with their descriptions."""
    import bots  # the registry imports every game's bots; only commands that need them pay for it

    known = game_names()
    if game is not None and game not in known:
        raise UsageError(f"unknown game {game!r}; known: {', '.join(known)}")
    for name in [game] if game is not None else known:
        out.write(f"{name}: {game_title(name)}\n")
        available = bots.available(name)
        width = max((len(b) for b in available), default=0)
        for bot, description in available.items():
            out.write(f"  {bot.ljust(width)}  {description}\n")
            for option, spec in bots.registry.bots_for(name)[bot].options.items():
                out.write(f"  {''.ljust(width)}    {option}: {spec.describe()}\n")
    return EXIT_OK


# --- play -------------------------------------------------------------------------------------



def assign_seats(game: Game, specs: Sequence[str], default_bot: str) -> dict[Seat, str]:
    """Seat -> ``"human"`` or a bot name, from ``N=WHO`` specs; other seats get ``default_bot``."""
    import bots

    available = bots.available(game.name)
    known = f"'{HUMAN}' or a bot ({', '.join(available)})"
    if default_bot not in available:
        raise UsageError(f"--bot {default_bot!r}: {game.name} has no such bot; choose {', '.join(available)}")
    seats = {seat: default_bot for seat in range(game.num_players)}
    given: set[Seat] = set()
    for spec in specs:
        number, sep, who = spec.partition("=")
        if not sep or not number.strip().isdigit():
            raise UsageError(f"--seat {spec!r}: expected N=WHO, e.g. --seat 1=human")
        seat, who = int(number), who.strip()
        if not 0 <= seat < game.num_players:
            raise UsageError(
                f"--seat {spec!r}: seats are 0..{game.num_players - 1} in a {game.num_players}-player game"
            )
        if seat in given:
            raise UsageError(f"--seat {spec!r}: seat {seat} is given twice")
        if who != HUMAN and who not in available:
            raise UsageError(f"--seat {spec!r}: {who!r} is not {known}")
        seats[seat] = who
        given.add(seat)
    return seats



@dataclass
class Terminal:
    """The human side of the table: where prompts go and where moves come from."""

    stdin: TextIO
    out: TextIO
    echo: bool = False  # repeat piped input after the prompt, so a transcript reads as a dialogue

    def say(self, *lines: str) -> None:
        """Print lines to the players."""
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        """One line of input (without its newline), or None at end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if line == "":
            self.out.write("\n")
            return None
        text = line.rstrip("\r\n")
        if self.echo:
            self.out.write(text + "\n")
        return text


def notation_examples(texts: Sequence[str]) -> list[str]:
    """One move of each notation among ``texts`` (the legal moves), by first word, in list order.

    Help and errors quote these and nothing else, so a player is only ever offered notation that
    applies to the decision in front of him (no 'start 42' to a detective choosing a taxi).
    """
    examples: dict[str, str] = {}
    for text in texts:
        examples.setdefault(text.split(" ", 1)[0], text)
    return list(examples.values())


def help_text(texts: Sequence[str]) -> str:
    """What 'help' prints for a decision whose legal moves are ``texts``."""
    examples = ", ".join(repr(t) for t in notation_examples(texts))
    return (
        f"Type a move from the list: its number (1..{len(texts)}) or its notation, e.g. {examples}.\n"
        "Other commands: 'moves' shows the position and the moves again, 'help' this text, "
        "'quit' ends the game."
    )


def ask_human(game: Game, state: State, seat: Seat, printer: GamePrinter, term: Terminal) -> Action:
    """Show ``seat`` its view and read a legal move; raise :class:`GameAbandoned` on quit or EOF."""
    view = state.view(seat)
    legal = list(view.legal_actions)
    texts = [game.action_to_str(a) for a in legal]
    examples = notation_examples(texts)
    heads = {text.split(" ", 1)[0] for text in examples}
    term.say("", *printer.describe_view(view))
    if len(legal) == 1:
        term.say(f"  Only one move: {texts[0]}")
        return legal[0]
    while True:
        text = term.ask(f"Seat {seat}, your move (number, notation or 'help'): ")
        if text is None:
            raise GameAbandoned("Input ended before the game did; game abandoned.", EXIT_ABANDONED)
        text = text.strip()
        word = text.lower()
        if not word:
            continue
        if word in ("help", "?", "h"):
            term.say(help_text(texts))
            continue
        if word in ("quit", "exit", "q"):
            raise GameAbandoned(f"Seat {seat} quit; game abandoned.", EXIT_OK)
        if word in ("moves", "list", "board"):
            term.say(*printer.describe_view(view))
            continue
        if word.isdigit():
            number = int(word)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            term.say(f"There is no move {number}: choose 1..{len(legal)}, or type a move like '{texts[0]}'.")
            continue
        try:
            action = game.str_to_action(text)
        except InvalidActionError as err:
            if word.split()[0] in heads:  # a move of this decision, mistyped: the codec names how
                term.say(f"{err}. Type 'help' for the notation.")
            else:  # the codec's own list would offer notation of other decisions
                term.say(f"cannot read {text!r}: moves now look like {', '.join(map(repr, examples))}.")
            continue
        if action not in legal:
            term.say(f"{text!r} is not legal now. Legal moves:", *numbered(texts))
            continue
        return action


@dataclass
class Match:
    """One game at the table: the state, who sits where, the printer and the record."""

    game: Game
    seats: dict[Seat, str]
    seed: int
    printer: GamePrinter
    term: Terminal
    quiet: bool = False
    writer: ReplayWriter | None = None
    #: bot name -> the options it is built with (``--opt``, the game's bot flags)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    state: State = field(init=False)
    printed: int = 0

    def __post_init__(self) -> None:
        self.state = self.game.new_initial_state()

    def show_events(self) -> None:
        """Print the events that happened since the last call (unless quiet)."""
        lines = self.printer.feed(self.state.events[self.printed :])
        self.printed = len(self.state.events)
        if not self.quiet:
            self.term.say(*lines)

    def run(self) -> int:
        """Play to the end; return the exit code."""
        import bots

        game, state = self.game, self.state
        root = make_rng(self.seed)
        children = spawn(root, game.num_players + 1)
        chance_rng = children[game.num_players]  # its own child: bots' draws never shift the deal
        players = {
            seat: bots.make(game, name, seat=seat, rng=children[seat], **self.options.get(name, {}))
            for seat, name in self.seats.items()
            if name != HUMAN
        }
        for seat, bot in players.items():
            bot.restart(state.view(seat))
        if self.writer is not None:
            self.writer.write(replay_header(game, self.seed, self.seats))
        informed = 0

        def act(st: State, seat: Seat) -> Action:
            if self.seats.get(seat) == HUMAN:
                action = ask_human(game, st, seat, self.printer, self.term)
                self.term.say(*self.printer.after_prompt())  # even when quiet: part of the prompt
                return action
            return players[seat].step(st.view(seat))

        def after(st: State, seat: Seat, action: Action) -> None:
            nonlocal informed
            if self.writer is not None:
                self.writer.write({"type": "action", "ply": len(st.history) - 1, "seat": seat,
                                   "action": game.action_to_str(action)})
            for event in st.events[informed:]:
                for bot_seat, bot in players.items():
                    if event.visible(bot_seat):
                        bot.inform(event)
            informed = len(st.events)
            if not st.is_terminal():
                self.show_events()

        try:
            self.show_events()
            play_out(state, act, chance_rng, on_step=after)
        except GameAbandoned as stop:
            if self.writer is not None:
                self.writer.write(
                    {"type": "result", "winner": None, "reason": f"abandoned: {stop}", "returns": None}
                )
            self.term.say(str(stop))
            return stop.code
        self.show_events()
        if self.writer is not None:
            winner, reason = outcome(state)
            self.writer.write(
                {"type": "result", "winner": winner, "reason": reason, "returns": state.returns()}
            )
        if self.quiet or self.printer.winner_line is None:
            self.term.say(result_line(state, self.printer))
        return EXIT_OK


def result_line(state: State, printer: GamePrinter) -> str:
    """The line naming the winner (the printer's own when it printed one)."""
    if printer.winner_line is not None:
        return printer.winner_line
    winner, reason = outcome(state)
    return f"Winner: {winner} — {reason}"




def seating_lines(game: Game, seats: dict[Seat, str], printer: GamePrinter) -> list[str]:
    """Who sits where, one line per seat."""
    lines = []
    for seat in range(game.num_players):
        who = seats.get(seat, "?")
        label = "human" if who == HUMAN else f"{who} bot"
        lines.append(f"  seat {seat}: {printer.seat_name(seat)} ({label})")
    return lines


def audience(seats: dict[Seat, str]) -> frozenset[Seat] | None:
    """Whose eyes the printed record is for: the human seats, or the spectator when none."""
    humans = frozenset(s for s, who in seats.items() if who == HUMAN)
    return humans or None


def cmd_play(args: argparse.Namespace, term: Terminal) -> int:
    """Play one game; print it round by round."""
    game = load_game(args.game, **game_options(args))
    default_bot = args.bot
    if default_bot is None:
        default_bot = DEFAULT_BOT if DEFAULT_BOT in available_bots(game.name) else "random"
    seats = assign_seats(game, args.seat, default_bot)
    options = bot_options(game.name, [who for who in seats.values() if who != HUMAN], args.opt,
                          bot_flag_options(args))
    seed = args.seed if args.seed is not None else secrets.randbelow(_SEED_BOUND)
    viewers = audience(seats)
    printer = make_printer(game, viewers)
    with contextlib.ExitStack() as files:
        # Open the record first: a path that cannot be written fails before the game starts.
        writer = None
        if args.replay is not None:
            writer = ReplayWriter(files.enter_context(open(args.replay, "w", encoding="utf-8")))
        if not args.quiet:
            drawn = "" if args.seed is not None else " (drawn at random)"
            term.say(f"{game_title(game.name)}, seed {seed}{drawn}: replay it with --seed {seed}")
            term.say(*seating_lines(game, seats, printer))
            if viewers is not None and len(viewers) > 1:
                term.say("  (several humans share this screen: it shows what any of them may see)")
        return Match(game, seats, seed, printer, term, quiet=args.quiet, writer=writer, options=options).run()


# --- replay -----------------------------------------------------------------------------------



def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    """Check a replay file and print the game again, as the spectator or as one seat."""
    replay = read_replay(Path(args.path), files=file_paths(args.file))
    game = replay.game
    if args.as_seat is not None and not 0 <= args.as_seat < game.num_players:
        raise UsageError(f"--as-seat {args.as_seat}: seats are 0..{game.num_players - 1}")
    printer = make_printer(game, None if args.as_seat is None else [args.as_seat])
    seed = "unknown" if replay.seed is None else str(replay.seed)
    seen = "" if args.as_seat is None else f", as seat {args.as_seat} saw it"
    lines = [f"Replay of {args.path}: {game_title(game.name)}, seed {seed}{seen}"]
    lines += seating_lines(game, replay.seats, printer)
    lines += printer.feed(replay.state.events)
    if replay.finished and printer.winner_line is None:
        lines.append(result_line(replay.state, printer))
    if not replay.finished:
        lines += ["", f"The game was not finished: {replay.reason}"]
    out.write("\n".join(lines) + "\n")
    return EXIT_OK


# --- hint and serve ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """What ``hint`` advises: a position's JSON, and for a replay at ``--ply`` what the seat to act
    saw happen since that ply (chance's draws, in its printer's words), or the result after the end."""

    data: JSON
    between: tuple[str, ...] = ()
    #: the game is over at the asked ply: nothing to advise, this line says how it ended
    result: str | None = None


def load_position_file(
    game_name: str, path: Path, ply: int | None, files: Mapping[str, str] | None = None
) -> Position:
    """A position's JSON from a ``.json`` file, or a replay's state after ``ply`` actions.

    ``files`` are the ``--file`` paths: the only files a position's or replay's config may name.
    A replay whose state at ``ply`` waits for chance is followed along its own records to the next
    seat decision (:func:`replay_position`).
    """
    text = read_text(path, "position")
    first = text.lstrip().split("\n", 1)[0]
    try:
        head = parse_json(first, str(path)) if first else None
    except BadStateError:
        head = None  # not a replay's header line: read as a whole position below
    replay = isinstance(head, dict) and head.get("type") == "header"
    if not replay:
        try:
            data = parse_json(text, str(path))
        except BadStateError:
            if ply is None:
                raise
            replay = True  # --ply says a replay was meant: name the line that breaks it
    if replay:
        return replay_position(game_name, text, path, ply, files or {})
    if ply is not None:  # the file, not the flag, is what the user has to look at
        raise BadStateError(f"{path}: not a replay, and --ply applies to replay files only")
    if not isinstance(data, dict):
        raise BadStateError(f"{path}: expected a JSON object (a state or a view), got {json_type(data)}")
    config = data.get("config", {})
    if data.get("game", game_name) == game_name and isinstance(config, dict):
        # a position for another game, or with a malformed config, is the advisor's to name
        data = data | {"config": record_config(game_name, config, files or {}, str(path), "position")}
    return Position(data)


def _result(state: State) -> str:
    """How the game of ``state`` (over) ended, in its printer's words (every event is public by then
    as far as the result goes; only the winner line is used)."""
    printer = make_printer(state.game)
    printer.feed(state.events)
    return result_line(state, printer)


def replay_position(
    game_name: str, text: str, path: Path, ply: int | None, files: Mapping[str, str]
) -> Position:
    """The position of a replay after ``ply`` actions (None: its end), advised at a seat decision.

    Where chance acts at ``ply`` (a draw, a roll, a deal), the replay's own records are followed to
    the next seat decision, and the events the seat then to act saw in between are given in its
    printer's words: only what that seat may know. After the game's end there is nothing to advise:
    the result is given instead.
    """
    replay = parse_replay(text, str(path), ply, files)
    if replay.game.name != game_name:
        raise BadStateError(f"{path}: a replay of {replay.game.name}, not {game_name}")
    walk = replay.state
    if walk.is_terminal():
        return Position(walk.to_json(), result=_result(walk))
    if walk.current_player() != CHANCE or ply is None:
        return Position(walk.to_json())
    # chance acts here: the records after the ply say what it did (read only now they are needed)
    start = len(walk.history)
    seen = {seat: len(walk.events_for(seat)) for seat in range(replay.game.num_players)}
    for action in parse_replay(text, str(path), None, files).state.history[start:]:
        if walk.current_player() != CHANCE:
            break
        walk.apply(action)
    if walk.is_terminal():
        return Position(walk.to_json(), result=_result(walk))
    seat = walk.current_player()
    if seat == CHANCE:
        raise BadStateError(f"{path}: chance acts at ply {start} and the replay records no seat decision "
                            "after it")
    printer = make_printer(replay.game, [seat])
    printer.feed(walk.events_for(seat)[:seen[seat]])  # the printer follows the game from its start
    lines = [x for x in printer.feed(walk.events_for(seat)[seen[seat]:]) if x.strip()]
    moved = len(walk.history) - start
    head = (f"Chance acts at ply {start}: the replay's next {moved} action{'s' * (moved != 1)} "
            f"lead to seat {seat}'s decision at ply {len(walk.history)}; what seat {seat} saw:")
    return Position(walk.to_json(), between=(head, *("  " + x for x in lines or ["(nothing it may see)"])))


def cmd_hint(args: argparse.Namespace, out: TextIO) -> int:
    """Print the advice of a bot on a saved position (and draw it with --svg/--png)."""
    import bots
    from bots import hint
    from bots.draw import drawing_module, hint_svg
    from solver.search.ismcts import Budget

    if args.game not in game_names():
        raise UsageError(f"unknown game {args.game!r}; known: {', '.join(game_names())}")
    available = bots.available(args.game)
    if args.bot is not None and args.bot not in available:
        raise UsageError(f"--bot {args.bot!r}: {args.game} has no such bot; choose {', '.join(available)}")
    drawing = args.svg is not None or args.png is not None
    draw = drawing_module(args.game) if drawing else None
    if drawing and draw is None:
        can = [name for name in game_names() if drawing_module(name) is not None]
        raise UsageError(f"--svg and --png draw {', '.join(can) or 'no'} boards only, not {args.game}")
    if args.iterations is not None:
        budget = Budget(iterations=args.iterations)
    else:
        budget = Budget(seconds=hint.DEFAULT_SECONDS if args.seconds is None else args.seconds)
    position = load_position_file(args.game, Path(args.position), args.ply, file_paths(args.file))
    if position.result is not None:
        out.write(f"The game is over at ply {args.ply}: nothing to advise.\n{position.result}\n")
        return EXIT_OK
    out.write("".join(line + "\n" for line in position.between))
    try:
        game, view = hint.load_position(args.game, position.data)
    except BadStateError as err:
        raise BadStateError(f"{args.position}: {err}") from None  # the advisor does not know the file
    if args.save_view is not None:
        Path(args.save_view).write_text(json.dumps(view.to_json()) + "\n", encoding="utf-8")
    bot = args.bot or bots.registry.advisor(args.game)
    options = bot_options(args.game, [bot], args.opt)[bot]
    advice = hint.advise(game, view, bot=args.bot, budget=budget, seed=args.seed, options=options)
    out.write(hint.hint_text(game, view, advice, args.bot, budget, args.seed, options))
    svg = hint_svg(game, view, advice) if drawing else None
    if draw is not None and svg is not None:
        if args.svg is not None:
            Path(args.svg).write_text(svg, encoding="utf-8")
        if args.png is not None:
            from bots.svg import svg_to_png  # the one converter, shared by every drawing

            svg_to_png(svg, args.png)
    return EXIT_OK


def cmd_serve(argv: list[str]) -> int:
    """Hand over to the seat protocol server, which parses its own options (``--tcp PORT`` ...)."""
    from bots import protocol

    try:
        return protocol.main(argv)
    except SystemExit as exit_:  # its argparse exits on --help and on bad options
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE


def cmd_web(args: argparse.Namespace, out: TextIO) -> int:
    """Serve the page until interrupted (``copsolver web``)."""
    import importlib.util

    from bots.web import INSTALL_HINT

    need = f"copsolver web needs Starlette, uvicorn and a WebSocket library: {INSTALL_HINT}"
    if not any(importlib.util.find_spec(name) for name in ("websockets", "wsproto")):
        raise ConfigError(need)
    try:
        from bots.web import server
    except ModuleNotFoundError as err:
        if err.name is not None and err.name.split(".")[0] in WEB_LIBRARIES:
            raise ConfigError(need) from None
        raise
    from bots.protocol import Content, Limits

    defaults = Limits()
    limits = Limits(args.max_iterations or defaults.max_iterations, args.max_seconds or defaults.max_seconds,
                    args.max_nodes or defaults.max_nodes)
    try:
        content = Content.register(args.content)
    except BadStateError as err:
        raise ConfigError(str(err)) from None

    def announce(url: str) -> None:
        out.write(f"copsolver web: the page is at {url} (Ctrl-C stops the server)\n")
        out.flush()

    try:
        return server.run(args.host, args.port, open_browser=args.open, announce=announce, limits=limits,
                          content=content, idle=args.idle, max_sessions=args.max_sessions)
    finally:
        content.close()


# --- review -----------------------------------------------------------------------------------


def plies_arg(text: str) -> tuple[int, int | None]:
    """argparse type of ``review --plies``: ``A:B`` (plies A..B-1) or ``A:`` (A to the end)."""
    start, sep, stop = text.partition(":")
    try:
        first, last = int(start), (int(stop) if stop.strip() else None)
    except ValueError:
        first, last = -1, None
    if not sep or first < 0 or (last is not None and last <= first):
        raise argparse.ArgumentTypeError(f"{text!r} is not a range A:B of plies with 0 <= A < B (or A:)")
    return first, last


def add_review_parser(commands: Any) -> argparse.ArgumentParser:
    """The ``review`` command's parser (docs/review.md)."""
    p: argparse.ArgumentParser = commands.add_parser(
        "review",
        help="review a whole game: each decision of a seat against the advisor's best move",
        description="For every decision of the chosen seats, from that seat's view only: the move played, "
        "the advisor's best move, the estimated win chance (Escape Plan: score) after each, the loss and "
        "a mark (inaccuracy, mistake, blunder); per seat a summary. The game is the replay's. "
        "See docs/review.md.",
    )
    p.add_argument("replay", help="a file written by 'copsolver play --replay'")
    p.add_argument("--seat", type=int, action="append", metavar="N",
                   help="review seat N (repeatable; default: every seat)")
    p.add_argument("--bot", default=None, help="the advising bot (default: the game's advisor)")
    thinking = p.add_mutually_exclusive_group()
    thinking.add_argument("--seconds", type=positive_float, metavar="S",
                          help="the advisor's search time per decision (the review then varies with the "
                          "machine's speed)")
    thinking.add_argument("--iterations", type=positive_int, metavar="N",
                          help="the advisor's search iterations per decision (default: the game's review "
                          "default, docs/review.md); the same replay, N and seed give the same review")
    p.add_argument("--worlds", type=WholeNumber(2), metavar="N",
                   help="worlds the evaluator draws per decision (default: the game's, docs/review.md)")
    p.add_argument("--seed", type=count_arg, default=0, help="seed of the advisor and evaluator (default 0)")
    p.add_argument("--plies", type=plies_arg, metavar="A:B", help="review only the decisions at plies A..B-1")
    p.add_argument("--json", metavar="PATH", help="also write the review as JSON to PATH")
    p.add_argument("--svg-dir", metavar="DIR",
                   help="also draw each reviewed decision's hint as DIR/ply-P-seat-S.svg")
    add_opt_flag(p, "the advising bot")
    add_file_flag(p)
    return p


@contextlib.contextmanager
def review_progress() -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on the terminal (rich, on stderr, cleared at the end) when stdout and stderr are
    terminals; None otherwise, so a piped review prints nothing but its result."""
    if not (_isatty(sys.stdout) and _isatty(sys.stderr)):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task("review", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def cmd_review(args: argparse.Namespace, out: TextIO) -> int:
    """Review a replay (``copsolver review``): print a table per seat and its summary."""
    import json

    import bots
    from bots.base import Advice
    from bots.draw import drawing_module, hint_svg
    from bots.review import DecisionReview, review_game, review_text
    from solver.core import View
    from solver.search.ismcts import Budget

    replay = read_replay(Path(args.replay), files=file_paths(args.file))
    game = replay.game
    for seat in args.seat or []:  # checked here, as replay's --as-seat, to name the game's seats
        if not 0 <= seat < game.num_players:
            raise UsageError(f"--seat {seat}: seats are 0..{game.num_players - 1} in this {game.name} game")
    available = bots.available(game.name)
    if args.bot is not None and args.bot not in available:
        raise UsageError(f"--bot {args.bot!r}: {game.name} has no such bot; choose {', '.join(available)}")
    svg_dir = None if args.svg_dir is None else Path(args.svg_dir)
    if svg_dir is not None:
        if drawing_module(game.name) is None:
            raise UsageError(f"--svg-dir: {game.name} has no drawing")
        svg_dir.mkdir(parents=True, exist_ok=True)
    bot = args.bot or bots.registry.advisor(game.name)
    options = bot_options(game.name, [bot], args.opt)[bot]
    budget = None
    if args.iterations is not None or args.seconds is not None:
        budget = Budget(iterations=args.iterations, seconds=args.seconds)

    def draw(view: View, advice: Advice, decision: DecisionReview) -> None:
        if svg_dir is not None:
            svg = hint_svg(game, view, advice)
            if svg is not None:
                (svg_dir / f"ply-{decision.ply}-seat-{decision.seat}.svg").write_text(svg, encoding="utf-8")

    with contextlib.ExitStack() as files:
        # open the JSON first: a path that cannot be written fails before the review's work
        record = None if args.json is None else files.enter_context(open(args.json, "w", encoding="utf-8"))
        with review_progress() as progress:
            review = review_game(game, replay.state.history, seats=args.seat, bot=args.bot, budget=budget,
                                 seed=args.seed, worlds=args.worlds, options=options, progress=progress,
                                 plies=args.plies, each=draw)
        if record is not None:
            record.write(json.dumps(review.to_json(), indent=1) + "\n")
    out.write(review_text(review, make_printer(game, None).seat_name))
    return EXIT_OK


# --- main -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the ``copsolver`` command line; return the exit code (2 for every user error)."""
    words = sys.argv[1:] if argv is None else list(argv)
    parser, sub = build_parser()
    if words[:1] == ["serve"]:
        return _guarded(lambda: cmd_serve(words[1:]), parser)
    try:
        args = parser.parse_args(words)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    return _guarded(lambda: _dispatch(args, parser), sub.get(args.command or "", parser))


def _dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    out = sys.stdout
    if args.version:
        return cmd_version(out)
    if args.command is None:
        parser.print_help(out)
        return EXIT_USAGE
    if args.command == "bots":
        return cmd_bots(args.game, out)
    if args.command == "play":
        return cmd_play(args, Terminal(sys.stdin, out, echo=not _isatty(sys.stdin)))
    if args.command == "replay":
        return cmd_replay(args, out)
    if args.command == "arena":
        from bots.arena import cli as arena_cli

        return arena_cli.cmd_arena(args, out)
    if args.command == "web":
        return cmd_web(args, out)
    if args.command == "review":
        return cmd_review(args, out)
    return cmd_hint(args, out)


def _guarded(run: Callable[[], int], parser: argparse.ArgumentParser) -> int:
    """Run a command; turn user errors into a message on stderr and exit code 2."""
    try:
        return run()
    except UsageError as err:
        parser.print_usage(sys.stderr)
        sys.stderr.write(f"{parser.prog}: error: {err}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly, as Unix tools do.
        _silence_stdout()
        return EXIT_OK
    except (CopsolverError, OSError) as err:
        sys.stderr.write(f"copsolver: error: {_describe(err)}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("\ncopsolver: interrupted\n")
        return 130


def _describe(err: Exception) -> str:
    """An error in one line; OSError's ``str`` names the errno, so build it from its parts."""
    if isinstance(err, OSError) and err.strerror:
        text = f"{err.filename}: {err.strerror}" if err.filename else err.strerror
    else:
        text = str(err)
    # A path the user typed may hold a line break; the message stays one line all the same.
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _silence_stdout() -> None:
    # Python flushes stdout at exit; point it at devnull so that flush cannot raise again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
