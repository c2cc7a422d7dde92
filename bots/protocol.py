"""The seat protocol: newline-delimited JSON that lets any front end, in any language, seat a bot.

A front end (the *table*) talks to a :class:`SeatServer` over stdin/stdout (:func:`serve_stdio`) or
TCP (:func:`serve_tcp`, one session per connection), or a WebSocket (``bots.web``, one session per
page, kept across reloads). Each line is one JSON object with a ``"type"``
and an optional ``"id"`` that every reply echoes. The full schema, with a real transcript, is in
``docs/protocol.md``; in short:

* ``hello`` -> ``welcome``: protocol version, engine version, compiled or not, games and their bots.
* Stateful games, where the server keeps the referee's true state: ``new_game`` -> ``game_started``;
  ``apply`` (the table reports a move), ``chance`` (the server rolls), ``act`` (a seated bot moves),
  ``advance`` (chance and bots until a human must act) -> ``applied``; ``view``, ``events``,
  ``hint`` for one seat (``"draw": true`` adds the picture, ``svg``; the game's advisor unless a
  ``bot`` is named, its advice resolved as ``copsolver hint`` resolves it); ``end_game`` -> ``ended``;
  ``tables`` lists the session's games.
* Replays: ``load_replay`` (a replay file's text) -> ``game_started`` at its end; ``goto`` a step
  of it -> ``at``; ``save`` -> ``replay``, the referee's record (once the game is over, or when no
  human plays in it: the record holds hidden facts).
* Stateless requests, where the table keeps the truth and sends one seat's view: ``decide`` ->
  ``decision``, ``hint_view`` -> ``hint``.
* ``review`` of a table of the session or of a replay's text: ``review_progress`` lines while it
  runs (sent at once through the transport: :meth:`SeatServer.handle`'s ``emit``), then ``review``.
* ``bye`` -> ``bye``, and the session ends. ``stop`` -> ``stopping`` is read while a request runs
  and ends that request's searches early (the request then answers with what it has).

Two rules make the server safe to put in front of people:

* **Nothing reaches a seat that it may not see.** A reply addressed to a seat (it carries ``"seat"``)
  holds only that seat's view, events, advice or own action; every other reply holds public facts
  only: the pending decision, results, and each action as every seat sees it (``public``). Error
  messages follow the same rule, which is why an illegal move is not answered with the legal list
  (it could locate Dr. Factor); the table asks ``view`` for the acting seat instead.
* **Every input gets an answer and no failure changes anything.** :meth:`SeatServer.handle_line`
  never raises; each fault has a typed ``error`` reply (:class:`ErrorKind`). Moves are applied to a
  clone that replaces the state only on success, and bots are told of events lazily, right before
  they are asked to move, so that no bot code runs inside an ``apply``.

And limits keep one client from taking the server (:class:`Limits`, ``docs/protocol.md``): every
request runs in a :class:`~solver.search.limits.SearchScope` whose caps bound each search
(iterations, seconds, tree nodes) and whose cancellation ``stop``, a disconnect and a shutdown
signal set; a reader thread per session notices those while a search runs; TCP clients are dropped
when idle or when a line is not complete in time; and options that name content files take only
names (:class:`Content`), never a path.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import io
import json
import logging
import math
import os
import queue
import re
import selectors
import shutil
import signal
import socket
import socketserver
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Protocol, cast

import numpy as np

import bots
import solver
import solver.games
from bots import draw, replays
from bots.base import Advice, Bot
from bots.cli_args import UsageError
from bots.hint import resolve as resolve_advice
from solver.core import (
    JSON,
    Action,
    BadStateError,
    ConfigError,
    CopsolverError,
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    Seat,
    State,
    View,
    make_rng,
    spawn,
)
from solver.core.files import parse_json, read_text
from solver.core.options import Option
from solver.core.referee import draw_chance, outcome, play_out
from solver.search.ismcts import Budget
from solver.search.limits import SearchCaps, SearchScope, current_scope, search_scope

PROTOCOL_VERSION: Final = 1
#: Longest accepted line, in bytes (characters for text streams); longer lines get ``bad_message``.
MAX_LINE: Final = 1 << 20
#: Games one session may hold at once; each keeps a state and its bots in memory.
MAX_GAMES: Final = 64
#: Steps one ``advance`` takes at most, so a request always returns; the table sends it again.
MAX_ADVANCE_STEPS: Final = 10_000
#: Clients one TCP server serves at once.
MAX_CLIENTS: Final = 8
#: Default caps of one search (``--max-iterations``, ``--max-seconds``, ``--max-nodes``): the
#: search scope's own defaults.
MAX_ITERATIONS: Final = SearchCaps().max_iterations
MAX_SECONDS: Final = SearchCaps().max_seconds
MAX_NODES: Final = SearchCaps().max_nodes
#: A TCP client that sends nothing and has no request running for this long is dropped.
IDLE_TIMEOUT: Final = 300.0
#: A TCP line must be complete this long after its first byte arrived, or the client is dropped.
LINE_DEADLINE: Final = 10.0
#: Lines a session reads ahead of the request it runs; past this the reader waits (back-pressure).
READ_AHEAD: Final = 32
#: The bot a stateless decision uses when the request names none (and a hint, in a game that has
#: no advisor: one given to the server by a test; a game's advisor is ``bots.registry.advisor``).
DEFAULT_BOT: Final = "heuristic"
#: Default of ``--max-review-seconds``: the most wall time one ``review`` request runs.
MAX_REVIEW_SECONDS: Final = 300.0

log = logging.getLogger(__name__)

Reply = dict[str, Any]


class ErrorKind(StrEnum):
    """The ``error`` field of an error reply: what class of fault the request had."""

    BAD_JSON = "bad_json"  # the line is not JSON, not UTF-8, or not a JSON object
    BAD_MESSAGE = "bad_message"  # missing/unknown type, a missing or wrong-typed field, a huge line
    UNKNOWN_GAME = "unknown_game"  # no game of that name
    UNKNOWN_GAME_ID = "unknown_game_id"  # no running game with that id in this session
    BAD_CONFIG = "bad_config"  # game options, bot name or bot options that do not work (ConfigError)
    INVALID_ACTION = "invalid_action"  # action text the game cannot read (InvalidActionError)
    ILLEGAL_ACTION = "illegal_action"  # a readable action that is not legal now (IllegalActionError)
    BAD_STATE = "bad_state"  # a view that no real game could show that seat (BadStateError)
    NOT_YOUR_TURN = "not_your_turn"  # act/hint/decide for a seat not deciding; act on a seat without a bot
    GAME_OVER = "game_over"  # a move or hint requested after the end
    NOT_OVER = "not_over"  # save or review while the game goes on and a human plays in it (secrets)
    LIMIT = "limit"  # a limit: games per session, clients, a budget over a cap, an idle or slow client
    INTERNAL = "internal"  # a fault of the server or a bot; details are in the server's log


def content_options() -> dict[str, dict[str, tuple[str, ...]]]:
    """Per game, the options that name content files (its spec's ``file`` options), each with the
    shipped content names it takes (null takes a game's shipped default). Over the protocol these
    options take only those names and the names the operator registered (:class:`Content`), never a
    path: a client must not make the server read its files."""
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for name in solver.games.names():
        spec = solver.games.spec(name)
        out[name] = {option: spec.options[option].shipped for option in spec.file_options}
    return out


@dataclass(frozen=True)
class Limits:
    """What one server allows: per search (iterations, seconds, tree nodes, whatever a request or a
    bot option asks), per ``review`` (its wall time; its work is counted against
    ``max_iterations``), and per TCP client (how many at once, how long idle, how long a line
    takes). ``None`` turns a TCP timeout off."""

    max_iterations: int = MAX_ITERATIONS
    max_seconds: float = MAX_SECONDS
    max_nodes: int = MAX_NODES
    max_clients: int = MAX_CLIENTS
    idle_timeout: float | None = IDLE_TIMEOUT
    line_deadline: float | None = LINE_DEADLINE
    max_review_seconds: float = MAX_REVIEW_SECONDS

    def __post_init__(self) -> None:
        _ = self.caps  # SearchCaps checks the three caps
        clients = self.max_clients
        if isinstance(clients, bool) or not isinstance(clients, int) or clients < 1:
            raise ConfigError(f"max_clients must be a whole number >= 1, not {self.max_clients!r}")
        for name in ("idle_timeout", "line_deadline", "max_review_seconds"):
            value = getattr(self, name)
            if (value is None and name == "max_review_seconds") or (value is not None and (
                    isinstance(value, bool) or not isinstance(value, (int, float))
                    or not (math.isfinite(value) and value > 0))):
                raise ConfigError(f"{name} must be a number of seconds > 0, not {value!r}")

    @property
    def caps(self) -> SearchCaps:
        """The caps every search of a request is held to."""
        return SearchCaps(self.max_iterations, self.max_seconds, self.max_nodes)


_CONTENT_SPEC: Final = re.compile(r"([a-z0-9_]+)\.([a-z0-9_]+):([^=]*)=(.+)", re.DOTALL)
_CONTENT_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class Content:
    """What the operator set up at start-up: the content a client may choose by name (shipped
    names, and files the operator registered), and default bot options (``serve --opt``).

    :meth:`register` reads each operator file once, copies it into a private directory and checks
    it by building its game with it; games are then built from that copy, so the operator's file is
    never read again and a client never learns its path (replies name it by its registered name).
    """

    def __init__(self) -> None:
        #: (game, option) -> registered name -> the private copy's path
        self.entries: dict[tuple[str, str], dict[str, str]] = {}
        self._dir: str | None = None
        #: bot option -> its text: the value for every bot that takes it, unless a request sets it
        self.bot_defaults: dict[str, str] = {}

    def set_bot_defaults(self, specs: Iterable[str]) -> None:
        """Default bot options from ``NAME=VALUE`` specs; BadStateError for a malformed one, one
        that no bot of any game takes, or a value a bot that takes it refuses."""
        defaults: dict[str, str] = {}
        for spec in specs:
            name, sep, value = spec.partition("=")
            name = name.strip()
            if not sep or not name:
                raise BadStateError(f"--opt {spec[:80]!r}: expected NAME=VALUE, e.g. --opt iterations=500")
            takers = [(game, bot, cls) for game in solver.games.names()
                      for bot, cls in bots.registry.bots_for(game).items() if name in cls.options]
            if not takers:
                raise BadStateError(f"--opt {spec[:80]!r}: no bot of any game takes option {name!r}")
            for game, bot, cls in takers:
                try:
                    cls.options[name].parse(f"{game} {bot} bot", name, value)
                except ConfigError as err:
                    raise BadStateError(f"--opt {spec[:80]}: {err}") from None
            defaults[name] = value
        self.bot_defaults = defaults

    def bot_options(self, game: Game, bot: str, options: JSON) -> JSON:
        """``options`` with the operator's defaults added for the options ``bot`` takes and lacks."""
        if not self.bot_defaults:
            return options
        cls = bots.registry.bots_for(game.name).get(bot)
        if cls is None:
            return options  # an unknown bot: _make_bot names it
        out = dict(options)
        for name, text in self.bot_defaults.items():
            if name not in out and name in cls.options:
                out[name] = cls.options[name].parse(f"{bot} bot", name, text)
        return out

    @classmethod
    def register(cls, specs: Iterable[str],
                 load: Callable[..., Game] = solver.games.load) -> Content:
        """Content from ``GAME.OPTION:NAME=PATH`` specs (e.g. ``police07.board:mine=board.json``).

        Each file is checked by building its game with it, its other options at their defaults;
        entries of one game with the same name are checked together, in one game built with all of
        them (a LineUp board and the suspect decks made for it). A fault of the file is a
        :class:`BadStateError` in one line that names the spec; a clash with the game's default
        options (a board with fewer start stops than the default pieces) is not, since a client's
        options may fit it.
        """
        content = cls()
        try:
            groups: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}
            for spec in specs:
                game, option, name, path = _parse_content_spec(spec)
                label = f"{game}.{option}:{name}"
                names = content.entries.setdefault((game, option), {})
                if name in names:
                    raise BadStateError(f"content {label}: registered twice")
                names[name] = content._copy(label, game, option, name, path)
                groups.setdefault((game, name), {})[option] = (names[name], path)
            for (game, name), options in groups.items():
                try:
                    load(game, **{option: copy for option, (copy, _) in options.items()})
                except ConfigError:
                    pass  # the files loaded; the game's default options do not fit them
                except (CopsolverError, TypeError, OSError) as err:
                    text = str(err)
                    for copy, path in options.values():
                        text = text.replace(copy, path)
                    labels = ", ".join(f"{game}.{option}:{name} ({path})"
                                       for option, (_, path) in options.items())
                    raise BadStateError(f"content {labels}: {' '.join(text.split())}") from None
        except BaseException:
            content.close()
            raise
        return content

    def _copy(self, label: str, game: str, option: str, name: str, path: str) -> str:
        # the engine's one reader of user files: bounded size, UTF-8, a one-line error naming it
        text = read_text(path, f"content {label}")
        if self._dir is None:
            self._dir = tempfile.mkdtemp(prefix="copsolver-content-")
        copy = os.path.join(self._dir, f"{game}.{option}.{name}{os.path.splitext(path)[1][:16]}")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(text)
        return copy

    def names(self) -> dict[str, dict[str, list[str]]]:
        """Per game and content option, the names a client may give (``welcome.content``)."""
        return {game: {option: sorted({*shipped, *self.entries.get((game, option), {})})
                       for option, shipped in sorted(options.items())}
                for game, options in sorted(content_options().items())}

    def resolve(self, game: str, config: JSON) -> JSON:
        """``config`` with each content name replaced by what the game loads; anything else in a
        content option (a path, an unknown name, a number) is refused before any file is touched,
        with one message per game and option, whatever the value (no oracle on the server's files)."""
        options = content_options().get(game, {})
        if not any(option in config for option in options):
            return config
        out = dict(config)
        for option, shipped in options.items():
            value = config.get(option)
            if option not in config or value is None or (isinstance(value, str) and value in shipped):
                continue
            registered = self.entries.get((game, option), {})
            if not isinstance(value, str) or value not in registered:
                offered = self.names()[game][option]
                choices = ", ".join(offered) if offered else "none registered"
                default = "" if shipped else ", or null for the shipped default"
                raise ProtocolError(ErrorKind.BAD_CONFIG, (
                    f"{game} option {option!r} takes a content name this server offers ({choices}){default}, "
                    "never a file path; see welcome.content"))
            out[option] = registered[value]
        return out

    def public(self, value: Any) -> Any:
        """``value`` (a reply) with every private copy's path replaced by its registered name."""
        if self._dir is None:
            return value
        if isinstance(value, str):
            if self._dir not in value:
                return value
            for names in self.entries.values():
                for name, copy in names.items():
                    value = value.replace(copy, name)
            return value
        if isinstance(value, dict):
            return {k: self.public(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.public(v) for v in value]
        return value

    def close(self) -> None:
        """Remove the private copies."""
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


def _parse_content_spec(spec: str) -> tuple[str, str, str, str]:
    match = _CONTENT_SPEC.fullmatch(spec)
    if match is None:
        raise BadStateError(f"content {spec[:80]!r}: expected GAME.OPTION:NAME=PATH "
                            "(e.g. police07.board:mine=board.json)")
    game, option, name, path = match.groups()
    table = content_options()
    if game not in table:
        raise BadStateError(f"content {spec[:80]!r}: no game {game!r} has content options; "
                            f"known: {', '.join(sorted(table))}")
    if option not in table[game]:
        known = ", ".join(sorted(table[game])) or "none"
        raise BadStateError(f"content {spec[:80]!r}: {game} has no content option {option!r} "
                            f"(it has: {known})")
    if not _CONTENT_NAME.fullmatch(name):
        raise BadStateError(f"content {spec[:80]!r}: the name must be 1-64 letters, digits, '_', '-' or '.', "
                            "starting with a letter or digit")
    if name in table[game][option]:
        raise BadStateError(f"content {spec[:80]!r}: {name!r} is a shipped name")
    return game, option, name, path


class ProtocolError(Exception):
    """A request the server answers with an ``error`` reply of ``kind``."""

    def __init__(self, kind: ErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def public_action_text(state: State, index: int) -> str | None:
    """The action at ``state.history[index]`` as every seat sees it, or None when the game does
    not say (then the server never guesses: the action text alone could be secret)."""
    text = state.public_action_text(index)
    return text if isinstance(text, str) else None


def public_events(events: list[Event], players: int) -> list[JSON]:
    """The events every one of ``players`` seats may see, as JSON."""
    seats = frozenset(range(players))
    return [e.to_json() for e in events if e.visible_to is None or seats <= e.visible_to]


GameFactory = Callable[..., Game]
#: Where a running request's interim replies go at once (a transport's writer): they are written
#: before the request's final replies, in order. Without one they lead the list :meth:`handle` returns.
Emit = Callable[[list["Reply"]], None]


def _registry_games() -> dict[str, GameFactory]:
    return {name: functools.partial(solver.games.load, name) for name in solver.games.names()}


@dataclass
class _Table:
    """One running game: the referee's true state, its generators and the seated bots."""

    game_id: str
    game: Game
    state: State
    rng: np.random.Generator  # root of this game's randomness; hint bots spawn children from it
    chance_rng: np.random.Generator
    bots: dict[Seat, Bot]
    bot_names: dict[Seat, str]
    #: per bot seat: index into ``state.events`` up to which that bot has been informed
    informed: dict[Seat, int] = field(default_factory=dict)
    #: the seat's bot and its options, to seat it again after a ``goto``
    bot_specs: dict[Seat, tuple[str, JSON]] = field(default_factory=dict)
    #: the seed the table gave (None: fresh entropy, never reported)
    seed: int | None = None
    #: every action of the game, with the seat that made it (-1: chance); the state holds the first
    #: ``len(state.history)`` of them (fewer only after a ``goto`` back in a loaded replay)
    line: list[tuple[Seat, Action]] = field(default_factory=list)
    #: loaded by ``load_replay``: ``goto`` steps through :attr:`line`
    loaded: bool = False

    @property
    def humans(self) -> list[Seat]:
        """The seats the table plays (no bot)."""
        return [seat for seat in range(self.game.num_players) if seat not in self.bots]

    def replay_json(self) -> JSON | None:
        """Where a loaded replay stands (``step`` of ``steps``), or None for a game not loaded."""
        if not self.loaded:
            return None
        return {"step": len(self.state.history), "steps": len(self.line)}

    def end_state(self) -> State:
        """The state after every action of :attr:`line`."""
        if len(self.state.history) == len(self.line):
            return self.state
        state = self.state.clone()
        for _, action in self.line[len(state.history):]:
            state.apply(action)
        return state


# --- field checks ------------------------------------------------------------------------------
_MISSING: Final = object()


def _bad(message: str) -> ProtocolError:
    return ProtocolError(ErrorKind.BAD_MESSAGE, message)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _get(msg: JSON, name: str, required: bool) -> Any:
    value = msg.get(name, _MISSING)
    if value is _MISSING and required:
        raise _bad(f"'{msg['type']}' needs field {name!r}")
    return value


def _str_field(msg: JSON, name: str) -> str:
    value = _get(msg, name, True)
    if not isinstance(value, str):
        raise _bad(f"field {name!r} must be a string, not {_type_name(value)}")
    return value


def _opt_field(msg: JSON, name: str, kind: type | tuple[type, ...], what: str, default: Any) -> Any:
    """Field ``name`` when given (not null) and of ``kind`` (``what`` names it), else ``default``."""
    value = _get(msg, name, False)
    if value is _MISSING or value is None:
        return default
    if not isinstance(value, kind):
        raise _bad(f"field {name!r} must be {what}, not {_type_name(value)}")
    return value


def _opt_str_field(msg: JSON, name: str, default: str) -> str:
    return cast(str, _opt_field(msg, name, str, "a string", default))


def _int_value(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"field {name!r} must be an integer, not {_type_name(value)}")
    if value < minimum:
        raise _bad(f"field {name!r} must be at least {minimum}, not {value}")
    return value


def _opt_int_field(msg: JSON, name: str, minimum: int) -> int | None:
    value = _get(msg, name, False)
    if value is _MISSING or value is None:
        return None
    return _int_value(name, value, minimum)


def _opt_bool_field(msg: JSON, name: str) -> bool:
    return cast(bool, _opt_field(msg, name, bool, "true or false", False))


def _opt_obj_field(msg: JSON, name: str) -> JSON:
    value = _get(msg, name, False)
    if value is _MISSING or value is None:
        return {}
    if not isinstance(value, dict):
        raise _bad(f"field {name!r} must be an object, not {_type_name(value)}")
    return value


def _memory_field(msg: JSON) -> JSON | None:
    """A stateless request's ``memory``: None when absent or null (a fresh bot), else an object."""
    value = _get(msg, "memory", False)
    if value is _MISSING or value is None:
        return None
    if not isinstance(value, dict):
        raise _bad(f"field 'memory' must be an object or null, not {_type_name(value)}")
    return value


def _obj_field(msg: JSON, name: str) -> JSON:
    value = _get(msg, name, True)
    if not isinstance(value, dict):
        raise _bad(f"field {name!r} must be an object, not {_type_name(value)}")
    return value


def _budget_field(msg: JSON) -> int | float | None:
    # Bots read a number as their own budget unit (iterations for search bots); JSON gives no
    # other unit to pass through, and None lets the bot use its default.
    value = _get(msg, "budget", False)
    if value is _MISSING or value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise _bad(f"field 'budget' must be a positive number, not {value!r}")
    return value


def _json_default(value: Any) -> Any:
    # Bots may hand back numpy scalars or arrays in advice; everything else is a server bug.
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON-able")


def encode_reply(reply: Reply) -> str:
    """One reply as a line of JSON (no newline), never failing: an unencodable reply becomes an
    ``internal`` error that keeps the request's id."""
    try:
        return json.dumps(reply, separators=(",", ":"), allow_nan=False, default=_json_default)
    except (TypeError, ValueError, RecursionError) as err:
        log.error("cannot encode a %r reply: %s", reply.get("type"), err)
        fallback: Reply = {"type": "error"}
        if "id" in reply:
            try:
                json.dumps(reply["id"], allow_nan=False)
                fallback["id"] = reply["id"]
            except (TypeError, ValueError, RecursionError):
                pass
        fallback["error"] = str(ErrorKind.INTERNAL)
        fallback["message"] = f"the {reply.get('type')!r} reply could not be encoded as JSON"
        return json.dumps(fallback, separators=(",", ":"))


def error_reply(kind: ErrorKind, message: str) -> Reply:
    """An ``error`` reply (without id; :meth:`SeatServer.handle` adds it)."""
    return {"type": "error", "error": str(kind), "message": message}


# --- the server --------------------------------------------------------------------------------
class SeatServer:
    """One protocol session: a pure message-in, replies-out machine with no I/O of its own.

    ``games`` maps game names to factories taking the game's options (default: every game of
    :mod:`solver.games`); tests pass their own games through it.
    """

    def __init__(
        self,
        *,
        games: Mapping[str, GameFactory] | None = None,
        max_games: int = MAX_GAMES,
        max_advance_steps: int = MAX_ADVANCE_STEPS,
        limits: Limits | None = None,
        content: Content | None = None,
        shutdown: threading.Event | None = None,
        tcp: bool = False,
    ) -> None:
        self.games: dict[str, GameFactory] = dict(games) if games is not None else _registry_games()
        self.max_games = max_games
        self.max_advance_steps = max_advance_steps
        self.limits = limits if limits is not None else Limits()
        self.content = content if content is not None else Content()
        #: set by the transport for a server-wide stop (a signal): every running search ends
        self.shutdown = shutdown if shutdown is not None else threading.Event()
        #: the TCP limits (clients, idle timeout, line deadline) apply to this session
        self.tcp = tcp
        self.tables: dict[str, _Table] = {}
        #: set once ``bye`` is handled; the serving loop stops reading
        self.closed = False
        self._next_id = 1
        #: the scope of the request being handled (another thread may cancel it), and its guard
        self._running: SearchScope | None = None
        self._guard = threading.Lock()
        #: sends an interim reply of the request being handled (:meth:`_interim`)
        self._send_interim: Callable[[Reply], None] | None = None
        self._handlers: dict[str, Callable[[JSON], list[Reply]]] = {
            "hello": self._hello,
            "new_game": self._new_game,
            "apply": self._apply,
            "chance": self._chance,
            "act": self._act,
            "advance": self._advance,
            "view": self._view,
            "events": self._events,
            "hint": self._hint,
            "decide": self._decide,
            "hint_view": self._hint_view,
            "end_game": self._end_game,
            "load_replay": self._load_replay,
            "goto": self._goto,
            "save": self._save,
            "review": self._review,
            "tables": self._tables,
            "bye": self._bye,
            "stop": self._stop,
        }

    @property
    def message_types(self) -> list[str]:
        """The request types this server understands."""
        return list(self._handlers)

    # --- entry points ---------------------------------------------------------------------------
    def handle_line(self, line: str | bytes, emit: Emit | None = None) -> list[Reply]:
        """Answer one line of input; never raises. A blank line gets no reply. ``emit``: see
        :meth:`handle`."""
        try:
            if len(line) > MAX_LINE:
                return self.reject_overlong(len(line))
            if isinstance(line, bytes):
                try:
                    line = line.decode("utf-8")
                except UnicodeDecodeError as err:
                    message = f"line is not UTF-8: byte {err.start} is invalid"
                    return [error_reply(ErrorKind.BAD_JSON, message)]
            if not line.strip():
                return []
            try:  # strict JSON, as every file the engine reads: no NaN, no overflow, bounded depth
                msg = parse_json(line, "line")
            except BadStateError as err:
                return [error_reply(ErrorKind.BAD_JSON, str(err))]
            return self.handle(msg, emit)
        except Exception:  # the promise is "never raises": a bug becomes an internal error
            log.exception("seat protocol: unexpected failure on a line")
            return [error_reply(ErrorKind.INTERNAL, "unexpected server failure; see the server log")]

    def reject_overlong(self, size: int) -> list[Reply]:
        """The answer to a line of ``size`` bytes over :data:`MAX_LINE` (its id is never read)."""
        return [error_reply(ErrorKind.BAD_MESSAGE, f"line of {size} bytes is over the {MAX_LINE}-byte limit")]

    def handle(self, msg: object, emit: Emit | None = None) -> list[Reply]:
        """Answer one decoded message; never raises. Every reply echoes the message's ``id``.

        A request that reports progress while it runs (``review``) hands each interim reply to
        ``emit`` at once (the transport writes it); without ``emit`` the interim replies lead the
        returned list. Either way they come before the request's final replies.
        """
        scope = SearchScope(self.limits.caps, self.shutdown)
        interim: list[Reply] = []

        def send(reply: Reply) -> None:
            out = _with_id(msg, [self.content.public(reply)])
            if emit is None:
                interim.extend(out)
                return
            try:
                emit(out)
            except Exception:  # a transport's fault: the client cannot be told, so the request ends
                log.exception("seat protocol: an interim reply could not be sent")
                scope.cancel()

        with self._guard:
            self._running = scope
            self._send_interim = send
        try:
            with search_scope(scope):
                replies = self._dispatch(msg)
        except ProtocolError as err:
            replies = [error_reply(err.kind, err.message)]
        except Exception as err:
            log.exception("seat protocol: unexpected failure handling %r", _short(msg))
            message = f"unexpected {type(err).__name__}; see the server log"
            replies = [error_reply(ErrorKind.INTERNAL, message)]
        finally:
            with self._guard:
                self._running = None
                self._send_interim = None
        if scope.event.is_set() and replies:
            # a stop arrived while the request ran: its searches ended early
            replies[-1]["stopped"] = True
        return interim + _with_id(msg, [self.content.public(r) for r in replies])

    def _interim(self, reply: Reply) -> None:
        """Send ``reply`` now, ahead of the running request's final replies (its id added)."""
        send = self._send_interim
        if send is not None:
            send(reply)

    def interrupt(self, msg: object) -> list[Reply]:
        """Answer a ``stop`` read while another request may be running (from the reader thread):
        the running request's searches end after their current iteration. Never raises."""
        with self._guard:
            running = self._running
        if running is not None:
            running.cancel()
        return _with_id(msg, [{"type": "stopping", "busy": running is not None}])

    def cancel(self) -> None:
        """End the running request's searches early: the client has gone."""
        with self._guard:
            if self._running is not None:
                self._running.cancel()

    @property
    def busy(self) -> bool:
        """True while a request is being handled."""
        return self._running is not None

    def _dispatch(self, msg: object) -> list[Reply]:
        if not isinstance(msg, dict):
            raise ProtocolError(ErrorKind.BAD_JSON, f"a message is a JSON object, not {_type_name(msg)}")
        kind = msg.get("type", _MISSING)
        if kind is _MISSING:
            raise _bad("message has no 'type'")
        if not isinstance(kind, str):
            raise _bad(f"field 'type' must be a string, not {_type_name(kind)}")
        handler = self._handlers.get(kind)
        if handler is None:
            raise _bad(f"unknown message type {kind[:60]!r}; known: {', '.join(self._handlers)}")
        return handler(msg)

    # --- session --------------------------------------------------------------------------------
    def _hello(self, msg: JSON) -> list[Reply]:
        games: JSON = {}
        for name, factory in sorted(self.games.items()):
            entry: JSON = {"bots": _available_bots(name), "advisor": _advisor(name),
                           "policy": _policy(name), "draw": _has_drawing(name),
                           "options": _game_options(name), "bot_options": _bot_options(name)}
            try:
                entry["default_config"] = factory().config()
            except Exception:  # a game that needs options has no default to show
                log.debug("no default config for %s", name, exc_info=True)
            games[name] = entry
        return [{
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "engine": solver.__version__,
            "compiled": solver.is_compiled(),
            "games": games,
            "messages": self.message_types,
            "limits": self._limits_json(),
            "content": {name: names for name, names in self.content.names().items() if name in self.games},
        }]

    def _limits_json(self) -> JSON:
        lim = self.limits
        return {"max_line": MAX_LINE, "max_games": self.max_games,
                "max_advance_steps": self.max_advance_steps, "max_iterations": lim.max_iterations,
                "max_seconds": lim.max_seconds, "max_nodes": lim.max_nodes,
                "max_review_seconds": lim.max_review_seconds,
                # the transport's limits: none on stdin/stdout
                "max_clients": lim.max_clients if self.tcp else None,
                "idle_timeout": lim.idle_timeout if self.tcp else None,
                "line_deadline": lim.line_deadline if self.tcp else None}

    def _stop(self, msg: JSON) -> list[Reply]:
        # Read in turn (no reader thread, or nothing was running when it came): nothing to stop.
        return [{"type": "stopping", "busy": False}]

    def _bye(self, msg: JSON) -> list[Reply]:
        self.closed = True
        self.tables.clear()
        return [{"type": "bye"}]

    # --- stateful games -------------------------------------------------------------------------
    def _new_game(self, msg: JSON) -> list[Reply]:
        name = _str_field(msg, "game")
        config = _opt_obj_field(msg, "config")
        seed = _opt_int_field(msg, "seed", 0)
        seat_specs = _opt_obj_field(msg, "bots")
        game = self._load_game(name, config)
        specs = _parse_seat_bots(seat_specs, game)
        for bot_name, options in specs.values():
            self._check_options(bot_name, options)
        if len(self.tables) >= self.max_games:
            raise ProtocolError(ErrorKind.LIMIT, f"this session already holds {len(self.tables)} games "
                                f"(the limit); send end_game for one first")
        table = self._open_table(game, specs, seed, game.new_initial_state())
        return [self._started(table)]

    def _open_table(self, game: Game, specs: dict[Seat, tuple[str, JSON]], seed: int | None,
                    state: State, line: list[tuple[Seat, Action]] | None = None) -> _Table:
        """A new table of this session at ``state`` (its ``line`` of actions: the state's), with
        the bots of ``specs`` seated as if they had played from the start."""
        # One root generator per game; its children drive chance and each seat, so a seat's bot
        # draws the same numbers whatever the other seats do (solver.core.seeds).
        rng = make_rng(seed)
        chance_rng, *seat_rngs = spawn(rng, game.num_players + 1)
        game_id = f"g{self._next_id}"
        table = _Table(game_id, game, state, rng, chance_rng, {}, {}, bot_specs=specs, seed=seed,
                       line=[] if line is None else line)
        self._seat_bots(table, seat_rngs)
        self._next_id += 1
        self.tables[game_id] = table
        return table

    def _seat_bots(self, table: _Table, rngs: list[np.random.Generator]) -> None:
        """Seat the table's bots afresh, restarted at the game's start: each is told of the events
        up to the table's state lazily, right before its first move (:meth:`_bot_move`)."""
        game = table.game
        start = game.new_initial_state()
        seated: dict[Seat, Bot] = {}
        for seat, (bot_name, options) in sorted(table.bot_specs.items()):
            seated[seat] = _make_bot(game, bot_name, seat, rngs[seat],
                                     self.content.bot_options(game, bot_name, options))
        for seat, bot in seated.items():
            _call_bot(bot.restart, table.bot_specs[seat][0], start.view(seat))
        table.bots = seated
        table.bot_names = {seat: spec[0] for seat, spec in table.bot_specs.items()}
        table.informed = {seat: len(start.events) for seat in seated}

    @staticmethod
    def _started(table: _Table) -> Reply:
        state = table.state
        return {
            "type": "game_started",
            "game_id": table.game_id,
            "game": table.game.name,
            "config": table.game.config(),
            "players": table.game.num_players,
            "seats": {str(s): table.bot_names.get(s) for s in range(table.game.num_players)},
            "decision": state.decision().to_json(),
            "over": state.is_terminal(),
        }

    def _apply(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        text = _str_field(msg, "action")
        _check_not_over(table)
        action = _parse_action(table.game, text)
        state = table.state
        if action not in state.legal_actions():
            # The legal list is not quoted: at a hidden seat's turn it would give away its position.
            raise ProtocolError(
                ErrorKind.ILLEGAL_ACTION,
                f"{text[:80]!r} is not legal now ({state.decision().prompt}); "
                f"ask 'view' for the acting seat to see its legal actions",
            )
        return [self._commit(table, action)]

    def _chance(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        _check_not_over(table)
        if not table.state.is_chance_node():
            raise ProtocolError(ErrorKind.NOT_YOUR_TURN,
                                f"not a chance node: {table.state.decision().prompt}")
        return [self._commit(table, draw_chance(table.state, table.chance_rng))]

    def _act(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        seat = self._seat(msg, table)
        _check_not_over(table)
        decision = table.state.decision()
        if decision.seat != seat:
            raise ProtocolError(ErrorKind.NOT_YOUR_TURN, f"seat {seat} is not to act: {decision.prompt}")
        if seat not in table.bots:
            raise ProtocolError(ErrorKind.NOT_YOUR_TURN,
                                f"seat {seat} has no bot; send 'apply' with that seat's move")
        action = self._bot_move(table, seat)
        reply = self._commit(table, action)
        # Addressed to the seat: its own move in full, which the public part may hide.
        reply["seat"] = seat
        reply["action"] = table.game.action_to_str(action)
        return [reply]

    def _advance(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        replies: list[Reply] = []
        scope = current_scope()

        def stop(state: State) -> bool:  # a cancelled request, or a seat that must be asked for its move
            cancelled = scope is not None and scope.cancelled()
            return cancelled or (not state.is_chance_node() and state.current_player() not in table.bots)

        def commit(_: State, action: Action) -> State:
            replies.append(self._commit(table, action))
            return table.state

        try:
            play_out(table.state, lambda _, seat: self._bot_move(table, seat), table.chance_rng,
                     max_steps=self.max_advance_steps, stop=stop, apply=commit)
        except ProtocolError as err:
            # Each step stands on its own: the steps already made are reported before the fault.
            replies.append(error_reply(err.kind, f"after {len(replies)} steps: {err.message}"))
            return replies
        except Exception as err:  # the catch-all in handle() would drop the steps already made
            log.exception("seat protocol: advance failed after %d steps", len(replies))
            message = f"after {len(replies)} steps: unexpected {type(err).__name__}; see the server log"
            replies.append(error_reply(ErrorKind.INTERNAL, message))
            return replies
        replies.append(self._status(table, "advanced", steps=len(replies)))
        return replies

    def _view(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        seat = self._seat(msg, table)
        drawn = _opt_bool_field(msg, "draw")
        view = table.state.view(seat)
        reply: Reply = {"type": "view", "game_id": table.game_id, "seat": seat, "view": view.to_json()}
        if drawn:
            # addressed to the seat, like the view it is drawn from
            reply["svg"] = draw.view_svg(table.game, view)
        return [reply]

    def _events(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        seat = self._seat(msg, table)
        since = _opt_int_field(msg, "since", 0) or 0
        # Positions count only this seat's events: a global index would tell how many hidden
        # events other seats received.
        visible = table.state.events_for(seat)
        return [{"type": "events", "game_id": table.game_id, "seat": seat,
                 "events": [e.to_json() for e in visible[since:]], "next": len(visible)}]

    def _hint(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        seat = self._seat(msg, table)
        bot_name = _opt_str_field(msg, "bot", _advisor(table.game.name) or DEFAULT_BOT)
        options = _opt_obj_field(msg, "options")
        budget = self._checked_budget(msg)
        drawn = _opt_bool_field(msg, "draw")
        self._check_options(bot_name, options)
        _check_not_over(table)
        decision = table.state.decision()
        if decision.seat != seat:
            raise ProtocolError(ErrorKind.NOT_YOUR_TURN, f"seat {seat} is not to act: {decision.prompt}")
        view = table.state.view(seat)
        # the bot's generator and the seed of the policy that may rank for it (hint.resolve): both
        # from the table's root, so a seeded table gives the same hints
        rng, policy = spawn(table.rng, 2)
        bot = _make_bot(table.game, bot_name, seat, rng,
                        self.content.bot_options(table.game, bot_name, options))
        return [_hint_reply(bot, bot_name, view, budget, int(policy.integers(2**31)),
                            game_id=table.game_id, drawn=table.game if drawn else None)]

    def _end_game(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        del self.tables[table.game_id]
        return [{"type": "ended", "game_id": table.game_id, "over": table.state.is_terminal()}]

    # --- replays and the session's tables -----------------------------------------------------
    def _load_replay(self, msg: JSON) -> list[Reply]:
        text = _str_field(msg, "replay")
        seed = _opt_int_field(msg, "seed", 0)
        seat_specs = _get(msg, "bots", False)
        if seat_specs is not _MISSING and seat_specs is not None and not isinstance(seat_specs, dict):
            raise _bad(f"field 'bots' must be an object, not {_type_name(seat_specs)}")
        if len(self.tables) >= self.max_games:
            raise ProtocolError(ErrorKind.LIMIT, f"this session already holds {len(self.tables)} games "
                                f"(the limit); send end_game for one first")
        replay = self._parse_replay(text)
        game = replay.game
        if isinstance(seat_specs, dict):
            specs = _parse_seat_bots(seat_specs, game)
        else:  # the header's bots sit again; its humans (and bots this server lacks) are the table's
            offered = _available_bots(game.name)
            specs = {seat: (who, {}) for seat, who in replay.seats.items()
                     if who in offered and 0 <= seat < game.num_players}
        for bot_name, options in specs.values():
            self._check_options(bot_name, options)
        line = _line_of(game, replay.state.history)
        table = self._open_table(game, specs, replay.seed if seed is None else seed, replay.state, line)
        table.loaded = True
        return [{**self._started(table), "replay": {"steps": len(line)}}]

    def _parse_replay(self, text: str) -> replays.Replay:
        """A replay file's text read with the CLI's reader (every record re-applied with the rules'
        checks; content by name only, no file opened); its faults are ``bad_state``."""
        files = self._replay_files(text)
        try:
            replay = replays.parse_replay(text, "replay", None, files)
        except CopsolverError as err:
            raise ProtocolError(ErrorKind.BAD_STATE, str(err)) from None
        except UsageError as err:  # record_config's fault with the files: the header's
            raise ProtocolError(ErrorKind.BAD_STATE, f"replay: {err}") from None
        if replay.game.name not in self.games:
            raise ProtocolError(ErrorKind.UNKNOWN_GAME, f"unknown game {replay.game.name!r}; known: "
                                f"{', '.join(sorted(self.games))}")
        return replay

    def _replay_files(self, text: str) -> dict[str, str]:
        """The content a replay's header names, checked as ``new_game`` checks it: shipped or
        registered names only, never a path (the reply is the same for every refused value)."""
        first = next((line for line in text.splitlines() if line.strip()), "")
        try:
            header = parse_json(first, "replay, line 1") if first else None
        except BadStateError:
            return {}  # not a header: the reader names the fault
        if not isinstance(header, dict):
            return {}
        name, config = header.get("game"), header.get("config")
        if not isinstance(name, str) or not isinstance(config, dict):
            return {}
        if name not in self.games:
            raise ProtocolError(ErrorKind.UNKNOWN_GAME,
                                f"unknown game {name[:60]!r}; known: {', '.join(sorted(self.games))}")
        resolved = self.content.resolve(name, config)
        # a registered name stands for the operator's private copy, given to the reader as a file
        return {option: path for option, path in resolved.items()
                if option in content_options().get(name, {}) and path != config.get(option)}

    def _goto(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        step = _int_value("step", _get(msg, "step", True), 0)
        if not table.loaded:
            raise _bad(f"game {table.game_id} was not loaded from a replay; goto steps through replays")
        if step > len(table.line):
            raise _bad(f"step {step} is past the replay's end (steps 0..{len(table.line)})")
        state = table.game.new_initial_state()
        for _, action in table.line[:step]:
            state.apply(action)
        table.state = state
        # The bots start again and are told what happened up to here before their next move.
        self._seat_bots(table, spawn(table.rng, table.game.num_players))
        return [self._status(table, "at", step=step, steps=len(table.line))]

    def _save(self, msg: JSON) -> list[Reply]:
        table = self._table(msg)
        end = table.end_state()
        humans = table.humans
        if humans and not end.is_terminal():
            raise ProtocolError(ErrorKind.NOT_OVER, (
                f"game {table.game_id} is not over and the table plays seat(s) "
                f"{', '.join(map(str, humans))}: its record holds every seat's secrets; save it at the end"))
        out = io.StringIO()
        writer = replays.ReplayWriter(out)
        seats = {seat: table.bot_names.get(seat, "human") for seat in range(table.game.num_players)}
        writer.write(replays.replay_header(table.game, table.seed, seats))
        for ply, (seat, action) in enumerate(table.line):
            writer.write({"type": "action", "ply": ply, "seat": seat,
                          "action": table.game.action_to_str(action)})
        if end.is_terminal():
            winner, reason = outcome(end)
            writer.write({"type": "result", "winner": winner, "reason": reason, "returns": end.returns()})
        else:  # read back as a game not finished
            writer.write({"type": "result", "winner": None, "reason": "unfinished: saved before the end",
                          "returns": None})
        return [{"type": "replay", "game_id": table.game_id, "text": out.getvalue()}]

    # --- reviews ----------------------------------------------------------------------------------
    def _review(self, msg: JSON) -> list[Reply]:
        """A review of a table's line of actions or of a replay's text (:func:`bots.review.review_game`):
        a ``review_progress`` reply after each reviewed decision, then the ``review``."""
        fields = _review_fields(msg)
        table: _Table | None = None
        if fields.game_id is not None:
            table = self._table(msg)
            game, line = table.game, list(table.line)
            humans = table.humans
            if humans and not table.end_state().is_terminal():
                # a review reads every reviewed seat's view and compares beliefs with the truth
                raise ProtocolError(ErrorKind.NOT_OVER, (
                    f"game {table.game_id} is not over and the table plays seat(s) "
                    f"{', '.join(map(str, humans))}: a review shows what each seat saw and the hidden "
                    "facts; review it at the end"))
        else:
            replay = self._parse_replay(cast(str, fields.replay))
            game = replay.game
            line = _line_of(game, replay.state.history)
        seats = _review_seats(fields.seats, game)
        bot_name = fields.bot
        if bot_name is not None and bot_name not in _available_bots(game.name):
            raise ProtocolError(ErrorKind.BAD_CONFIG, f"unknown bot {bot_name[:40]!r} for {game.name}; "
                                f"available: {', '.join(_available_bots(game.name))}")
        advisor = bot_name or _advisor(game.name) or DEFAULT_BOT
        options = self._review_options(game, advisor, seats[0], fields.options)
        actions = [action for _, action in line]
        budget, worlds = self._review_work(game, advisor, fields, _decisions(game, actions, seats))
        return [self._run_review(game, actions, fields, seats, bot_name, options, budget, worlds,
                                 game_id=None if table is None else table.game_id)]

    def _review_options(self, game: Game, bot_name: str, seat: Seat, options: JSON) -> JSON:
        """The advising bot's options for a review, checked by building the bot for ``seat`` (a
        fault is ``bad_config`` before any work), with the operator's defaults; the budget is the
        review's."""
        given = sorted(set(options) & {"iterations", "seconds"})
        if given:
            raise _bad(f"a review's budget is its 'iterations' or 'seconds' field, not options.{given[0]}")
        # the operator's default budget gives way to the review's own
        out = {k: v for k, v in self.content.bot_options(game, bot_name, options).items()
               if k in options or k not in ("iterations", "seconds")}
        _make_bot(game, bot_name, seat, make_rng(0), out)
        return out

    def _review_work(self, game: Game, bot_name: str, fields: _ReviewFields, decisions: int
                     ) -> tuple[Budget | None, int | None]:
        """The review's budget and worlds (None: the review's defaults), refused with a ``limit``
        error when its work is over this server's limits: per decision the advisor's iterations and
        two playouts a world, ``decisions`` times, against ``max_iterations``; the advisor's seconds,
        ``decisions`` times, against ``max_review_seconds``."""
        from bots.evaluate import MAX_WORLDS, MIN_WORLDS, reading

        lim = self.limits
        worlds = fields.worlds
        if worlds is not None and worlds < MIN_WORLDS:
            raise _bad(f"field 'worlds' must be at least {MIN_WORLDS} (a standard error needs two), "
                       f"not {worlds}")
        if worlds is not None and worlds > MAX_WORLDS:
            raise ProtocolError(ErrorKind.LIMIT, f"worlds {worlds} is over the limit of {MAX_WORLDS}")
        if fields.iterations is not None and fields.iterations > lim.max_iterations:
            raise ProtocolError(ErrorKind.LIMIT, f"iterations {fields.iterations} is over this server's "
                                f"limit of {lim.max_iterations} iterations a search (--max-iterations)")
        if fields.seconds is not None and fields.seconds > lim.max_seconds:
            raise ProtocolError(ErrorKind.LIMIT, f"seconds {fields.seconds:g} is over this server's limit "
                                f"of {lim.max_seconds:g} seconds a search (--max-seconds)")
        defaults = reading(game)
        per_worlds = worlds if worlds is not None else defaults.worlds
        if fields.seconds is not None:
            per_iterations = 0
            total = decisions * fields.seconds
            if total > lim.max_review_seconds:
                raise ProtocolError(ErrorKind.LIMIT, (
                    f"a review of {decisions} decisions at {fields.seconds:g} s each is {total:g} s of "
                    f"search, over this server's limit of {lim.max_review_seconds:g} s a review "
                    "(--max-review-seconds); review fewer seats or give fewer seconds"))
        elif fields.iterations is not None:
            per_iterations = fields.iterations
        else:
            per_iterations = _default_iterations(game, bot_name, defaults.iterations)
        work = decisions * (per_iterations + 2 * per_worlds)
        if work > lim.max_iterations:
            asked = "" if fields.iterations is not None or fields.seconds is not None else " (the defaults)"
            raise ProtocolError(ErrorKind.LIMIT, (
                f"a review of {decisions} decisions at {per_iterations} iterations and {per_worlds} worlds "
                f"each{asked} is {work} simulations, over this server's limit of {lim.max_iterations} "
                "(--max-iterations); review fewer seats, or give fewer iterations or worlds"))
        try:
            budget = (Budget(seconds=fields.seconds) if fields.seconds is not None
                      else Budget(iterations=fields.iterations) if fields.iterations is not None else None)
        except ConfigError as err:
            raise ProtocolError(ErrorKind.BAD_CONFIG, str(err)) from None
        return budget, worlds

    def _run_review(self, game: Game, actions: list[Action], fields: _ReviewFields, seats: list[Seat],
                    bot_name: str | None, options: JSON, budget: Budget | None, worlds: int | None,
                    game_id: str | None) -> Reply:
        """Run the review in this request's scope, a ``review_progress`` reply after each decision,
        and cut it at ``max_review_seconds``; its reply."""
        from bots import review as reviewing

        scope = current_scope()
        if scope is None:  # handle() always opens one; a review outside it would run unbounded
            raise ProtocolError(ErrorKind.INTERNAL, "a review runs only inside a request")
        timed_out = threading.Event()

        def time_up() -> None:
            timed_out.set()
            scope.cancel()  # its searches end too, not only the loop over decisions

        timer = threading.Timer(self.limits.max_review_seconds, time_up)
        timer.daemon = True
        last = [0]

        def progress(done: int, total: int) -> None:
            # at most one line a reviewed decision, whatever the review calls
            if isinstance(done, int) and isinstance(total, int) and done > last[0]:
                last[0] = done
                self._interim({"type": "review_progress", "done": done, "total": total})

        timer.start()
        try:
            result = reviewing.review_game(game, actions, seats=seats, bot=bot_name, budget=budget,
                                           seed=fields.seed, worlds=worlds, options=options or None,
                                           progress=progress, cancelled=scope.cancelled)
            body = result.to_json()
        except ProtocolError:
            raise
        except ConfigError as err:
            raise ProtocolError(ErrorKind.BAD_CONFIG, str(err)) from None
        except CopsolverError as err:
            raise ProtocolError(ErrorKind.BAD_STATE, str(err)) from None
        except Exception as err:
            log.exception("seat protocol: the review failed")
            raise ProtocolError(ErrorKind.INTERNAL,
                                f"the review failed ({type(err).__name__}); see the server log") from None
        finally:
            timer.cancel()
        reply: Reply = {"type": "review"}
        if game_id is not None:
            reply["game_id"] = game_id
        reply["review"] = body
        if timed_out.is_set():
            reply["timed_out"] = True  # handle() adds "stopped": the review ended early
        return reply

    def _tables(self, msg: JSON) -> list[Reply]:
        rows = []
        for table in self.tables.values():
            row = self._started(table)
            del row["type"]
            rows.append({**row, "replay": table.replay_json()})
        return [{"type": "tables", "tables": rows}]

    # --- stateless requests ---------------------------------------------------------------------
    def _decide(self, msg: JSON) -> list[Reply]:
        game, view, bot_name, options, seed = self._stateless(msg, lambda game: DEFAULT_BOT)
        memory = _memory_field(msg)
        _check_view_decides(view)
        options = self.content.bot_options(game, bot_name, options)
        bot = _make_bot(game, bot_name, view.seat, make_rng(seed), options)
        _call_bot(bot.restart, bot_name, view)
        if memory is not None:
            _import_memory(bot, bot_name, memory, view)
        action = _checked_bot_action(bot, view, bot_name)
        # addressed to the seat: the memory holds only what its views showed and the bot's own draws
        return [{"type": "decision", "seat": view.seat, "bot": bot_name,
                 "action": game.action_to_str(action), "memory": _call_bot(bot.export_memory, bot_name)}]

    def _hint_view(self, msg: JSON) -> list[Reply]:
        game, view, bot_name, options, seed = self._stateless(
            msg, lambda game: _advisor(game) or DEFAULT_BOT)
        memory = _memory_field(msg)
        budget = self._checked_budget(msg)
        drawn = _opt_bool_field(msg, "draw")
        _check_view_decides(view)
        options = self.content.bot_options(game, bot_name, options)
        bot = _make_bot(game, bot_name, view.seat, make_rng(seed), options)
        # the policy that may rank for the bot is seeded as copsolver hint seeds it: with the seed
        return [_hint_reply(bot, bot_name, view, budget, 0 if seed is None else seed, memory=memory,
                            drawn=game if drawn else None)]

    def _stateless(self, msg: JSON, default_bot: Callable[[str], str]
                   ) -> tuple[Game, View, str, JSON, int | None]:
        """The game, the checked view, the bot (``default_bot(game name)`` when the request names
        none), its options and the seed of a stateless request."""
        name = _str_field(msg, "game")
        config_given = _get(msg, "config", False)
        view_json = _obj_field(msg, "view")
        asked = _opt_field(msg, "bot", str, "a string", None)
        bot_name = asked if asked is not None else default_bot(name)
        options = _opt_obj_field(msg, "options")
        seed = _opt_int_field(msg, "seed", 0)
        # Without a config the view's own is used: a view always carries the options it was made in.
        if config_given is _MISSING or config_given is None:
            config = view_json.get("config")
            if not isinstance(config, dict):
                config = {}
        else:
            config = _opt_obj_field(msg, "config")
        self._check_options(bot_name, options)
        game = self._load_game(name, config)
        view_config = view_json.get("config")
        if isinstance(view_config, dict):
            # the view names content as the client does; the game compares it with its own config
            view_json = {**view_json, "config": self.content.resolve(name, view_config)}
        try:
            view = game.view_from_json(view_json)
        except BadStateError as err:
            raise ProtocolError(ErrorKind.BAD_STATE, str(err)) from None
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
            # A game's reader should raise BadStateError itself; the fault is still in the input.
            log.warning("%s.view_from_json raised %s instead of BadStateError", name, type(err).__name__)
            raise ProtocolError(ErrorKind.BAD_STATE,
                                f"{name} view is malformed ({type(err).__name__}: {str(err)[:200]})",
                                ) from None
        return game, view, bot_name, options, seed

    # --- helpers --------------------------------------------------------------------------------
    def _load_game(self, name: str, config: JSON) -> Game:
        factory = self.games.get(name)
        if factory is None:
            raise ProtocolError(ErrorKind.UNKNOWN_GAME,
                                f"unknown game {name[:60]!r}; known: {', '.join(sorted(self.games))}")
        # A client must not make the server read its files: content by name only, checked first.
        config = self.content.resolve(name, config)
        try:
            return factory(**config)
        except CopsolverError as err:  # ConfigError, or BadStateError from a content file
            raise ProtocolError(ErrorKind.BAD_CONFIG, str(err)) from None
        except (TypeError, OSError) as err:
            raise ProtocolError(ErrorKind.BAD_CONFIG, f"{name}: bad options: {err}") from None

    def _checked_budget(self, msg: JSON) -> int | float | None:
        budget = _budget_field(msg)
        cap = self.limits.max_iterations
        if budget is not None and budget > cap:
            raise ProtocolError(ErrorKind.LIMIT, f"budget {budget:g} is over this server's limit of {cap} "
                                "iterations (--max-iterations)")
        return budget

    def _check_options(self, bot_name: str, options: JSON) -> None:
        """Refuse bot options that ask a search for more than the caps (the search scope would cut
        it anyway; a clear error is better than a quietly weaker bot)."""
        caps = (("iterations", self.limits.max_iterations, "--max-iterations"),
                ("seconds", self.limits.max_seconds, "--max-seconds"))
        for option, cap, flag in caps:
            value = options.get(option)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > cap:
                raise ProtocolError(ErrorKind.LIMIT, f"bot {bot_name[:40]!r}: option {option}={value:g} is "
                                    f"over this server's limit of {cap:g} {option} ({flag})")

    def _table(self, msg: JSON) -> _Table:
        game_id = _str_field(msg, "game_id")
        table = self.tables.get(game_id)
        if table is None:
            raise ProtocolError(ErrorKind.UNKNOWN_GAME_ID, f"no game {game_id[:60]!r} in this session")
        return table

    def _seat(self, msg: JSON, table: _Table) -> Seat:
        seat = _int_value("seat", _get(msg, "seat", True), 0)
        if seat >= table.game.num_players:
            raise _bad(f"seat {seat} is not a seat of this game (0..{table.game.num_players - 1})")
        return seat

    def _bot_move(self, table: _Table, seat: Seat) -> Action:
        """Bring the seat's bot up to date with what it may see, and ask it for a move."""
        bot = table.bots[seat]
        events = table.state.events
        start = table.informed.get(seat, 0)
        for i in range(start, len(events)):
            if events[i].visible(seat):
                _call_bot(bot.inform, table.bot_names[seat], events[i])
            table.informed[seat] = i + 1
        return _checked_bot_action(bot, table.state.view(seat), table.bot_names[seat])

    def _commit(self, table: _Table, action: Action) -> Reply:
        """Apply a legal ``action`` to a clone, keep the clone, and describe the step publicly."""
        state = table.state
        before = len(state.events)
        trial = state.clone()
        try:
            trial.apply(action)
        except IllegalActionError:
            # The engine's message may list the acting seat's legal moves; only the public prompt
            # is repeated.
            prompt = state.decision().prompt
            raise ProtocolError(ErrorKind.ILLEGAL_ACTION, f"the action is not legal now ({prompt})") from None
        table.state = trial
        # A move made back in a loaded replay drops the replay's later actions.
        del table.line[len(state.history):]
        table.line.append((state.current_player(), action))
        public = {
            "action": public_action_text(trial, len(trial.history) - 1),
            "events": public_events(trial.events[before:], table.game.num_players),
        }
        return self._status(table, "applied", public=public)

    @staticmethod
    def _status(table: _Table, kind: str, **fields: Any) -> Reply:
        state = table.state
        reply: Reply = {"type": kind, "game_id": table.game_id, **fields,
                        "decision": state.decision().to_json(), "over": state.is_terminal()}
        if state.is_terminal():
            reply["returns"] = state.returns()
        return reply


def _short(msg: object) -> str:
    return repr(msg)[:200]


def _decisions(game: Game, actions: Iterable[Action], seats: Sequence[Seat]) -> int:
    """How many decisions of ``seats`` a review of ``actions`` weighs: those with a choice (a review
    counts a single legal move without reviewing it)."""
    count = 0
    walk = game.new_initial_state()
    for action in actions:
        if walk.current_player() in seats and len(walk.legal_actions()) > 1:
            count += 1
        walk.apply(action)
    return count


def _line_of(game: Game, actions: Iterable[Action]) -> list[tuple[Seat, Action]]:
    """Each action of a game from its start, with the seat that made it (-1: chance)."""
    line: list[tuple[Seat, Action]] = []
    walk = game.new_initial_state()
    for action in actions:
        line.append((walk.current_player(), action))
        walk.apply(action)
    return line


@dataclass(frozen=True)
class _ReviewFields:
    """A ``review`` request's fields, their JSON types checked."""

    game_id: str | None
    replay: str | None
    seats: list[int] | None
    bot: str | None
    options: JSON
    iterations: int | None
    seconds: float | None
    worlds: int | None
    seed: int


def _review_fields(msg: JSON) -> _ReviewFields:
    """The fields of a ``review`` request, each of the right JSON type (``bad_message`` otherwise)."""
    game_id = _opt_field(msg, "game_id", str, "a string", None)
    replay = _opt_field(msg, "replay", str, "a string", None)
    if (game_id is None) == (replay is None):
        raise _bad("'review' needs either 'game_id' (a game of this session) or 'replay' (a replay's "
                   "text), not both")
    raw = _get(msg, "seats", False)
    seats: list[int] | None = None
    if raw is not _MISSING and raw is not None:
        if not isinstance(raw, list):
            raise _bad(f"field 'seats' must be an array of seat numbers, not {_type_name(raw)}")
        seats = [_int_value(f"seats[{i}]", value, 0) for i, value in enumerate(raw)]
        if not seats:
            raise _bad("field 'seats' must name at least one seat (omit it to review every seat)")
        twice = next((seat for i, seat in enumerate(seats) if seat in seats[:i]), None)
        if twice is not None:
            raise _bad(f"field 'seats' lists seat {twice} twice")
    iterations = _opt_int_field(msg, "iterations", 1)
    seconds = _opt_field(msg, "seconds", (int, float), "a number of seconds", None)
    if seconds is not None and (isinstance(seconds, bool) or not seconds > 0):
        raise _bad(f"field 'seconds' must be a number of seconds > 0, not {seconds!r}")
    if iterations is not None and seconds is not None:
        raise _bad("a review's budget is 'iterations' or 'seconds', not both")
    return _ReviewFields(
        game_id=game_id, replay=replay, seats=seats, bot=_opt_field(msg, "bot", str, "a string", None),
        options=_opt_obj_field(msg, "options"), iterations=iterations,
        seconds=None if seconds is None else float(seconds), worlds=_opt_int_field(msg, "worlds", 1),
        seed=_opt_int_field(msg, "seed", 0) or 0)


def _review_seats(seats: list[int] | None, game: Game) -> list[Seat]:
    """The seats a review covers: those asked, each a seat of ``game``, or every seat."""
    if seats is None:
        return list(range(game.num_players))
    for seat in seats:
        if seat >= game.num_players:
            raise _bad(f"seat {seat} is not a seat of this game (0..{game.num_players - 1})")
    return seats


def _default_iterations(game: Game, bot_name: str, reading_iterations: int | None) -> int:
    """The iterations a review's advisor searches a decision by default: the game's review reading's,
    else the bot's own default (0 for a bot that does not search)."""
    cls = bots.registry.bots_for(game.name).get(bot_name)
    if cls is None or not {"iterations", "seconds"} <= set(cls.options):
        return 0
    if reading_iterations is not None:
        return reading_iterations
    return int(cls.options["iterations"].default)


def _with_id(msg: object, replies: list[Reply]) -> list[Reply]:
    """``replies`` with the request's id, if it had one, right after the type (transcripts read well)."""
    if not (isinstance(msg, dict) and "id" in msg):
        return replies
    return [{"type": r.pop("type"), "id": msg["id"], **r} for r in replies]


def _available_bots(game_name: str) -> dict[str, str]:
    try:
        return dict(bots.available(game_name))
    except Exception:  # a game without bots still shows up, with none
        log.debug("no bots for %s", game_name, exc_info=True)
        return {}


def _advisor(game_name: str) -> str | None:
    """The game's advisor (``bots.registry.advisor``), or None for a game without a bot package."""
    try:
        return bots.registry.advisor(game_name)
    except Exception:  # a game given to the server by a test has none
        log.debug("no advisor for %s", game_name, exc_info=True)
        return None


def _policy(game_name: str) -> str | None:
    """The game's policy (``bots.registry.policy``), or None for a game without a bot package."""
    try:
        return bots.registry.policy(game_name)
    except Exception:
        log.debug("no policy for %s", game_name, exc_info=True)
        return None


def _parse_seat_bots(specs: JSON, game: Game) -> dict[Seat, tuple[str, JSON]]:
    """``{"<seat>": "<bot>" | {"name": ..., "options": {...}}}`` -> seat -> (name, options)."""
    seats: dict[Seat, tuple[str, JSON]] = {}
    for key, spec in specs.items():
        if not re.fullmatch(r"[0-9]{1,3}", key):
            raise _bad(f"bots: key {key[:20]!r} is not a seat number")
        seat = int(key)
        if seat >= game.num_players:
            raise ProtocolError(ErrorKind.BAD_CONFIG,
                                f"bots: seat {seat} is not a seat of this game (0..{game.num_players - 1})")
        if isinstance(spec, str):
            seats[seat] = (spec, {})
            continue
        if not isinstance(spec, dict):
            raise _bad(f"bots[{key!r}] must be a bot name or an object, not {_type_name(spec)}")
        name = spec.get("name")
        if not isinstance(name, str):
            raise _bad(f"bots[{key!r}].name must be a string, not {_type_name(name)}")
        options = spec.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise _bad(f"bots[{key!r}].options must be an object, not {_type_name(options)}")
        seats[seat] = (name, options)
    return seats


def _make_bot(game: Game, name: str, seat: Seat, rng: np.random.Generator, options: JSON) -> Bot:
    try:
        bot: Bot = bots.make(game, name, seat=seat, rng=rng, **options)
    except ConfigError as err:
        raise ProtocolError(ErrorKind.BAD_CONFIG, str(err)) from None
    except TypeError as err:  # an option the bot's constructor does not take
        raise ProtocolError(ErrorKind.BAD_CONFIG, f"bot {name[:40]!r}: bad options: {err}") from None
    return bot


def _call_bot(fn: Callable[..., Any], bot_name: str, *args: Any) -> Any:
    """Call into bot code; a failure there is the server's fault, reported without its text (the
    text could quote what the bot's seat knows)."""
    try:
        return fn(*args)
    except ProtocolError:
        raise
    except Exception as err:
        log.exception("bot %r failed", bot_name)
        raise ProtocolError(ErrorKind.INTERNAL,
                            f"bot {bot_name!r} failed ({type(err).__name__}); see the server log") from None


def _import_memory(bot: Bot, bot_name: str, memory: JSON, view: View) -> None:
    """Hand a stateless request's ``memory`` to a fresh bot: a fault in it is ``bad_state``."""
    try:
        bot.import_memory(memory, view)
    except BadStateError as err:
        raise ProtocolError(ErrorKind.BAD_STATE, str(err)) from None
    except Exception as err:
        log.exception("bot %r failed reading its memory", bot_name)
        raise ProtocolError(ErrorKind.INTERNAL,
                            f"bot {bot_name!r} failed ({type(err).__name__}); see the server log") from None


def _checked_bot_action(bot: Bot, view: View, bot_name: str) -> Action:
    action = _call_bot(bot.step, bot_name, view)
    if isinstance(action, np.integer):
        action = int(action)
    if isinstance(action, bool) or not isinstance(action, int) or action not in view.legal_actions:
        log.error("bot %r chose %r, not among its legal actions", bot_name, action)
        raise ProtocolError(ErrorKind.INTERNAL, f"bot {bot_name!r} chose an action that is not legal")
    return action


def _hint_reply(bot: Bot, bot_name: str, view: View, budget: int | float | None, policy_seed: int,
                game_id: str | None = None, memory: JSON | None = None, drawn: Game | None = None) -> Reply:
    """The ``hint`` reply of ``bot`` on ``view``; with ``drawn`` (the game), its picture too.

    The advice is :func:`bots.hint.resolve`'d, as ``copsolver hint`` resolves it: a search that ran
    too few simulations to tell the moves apart gives way to its policy (the bot's own base, else
    the game's, seeded with ``policy_seed``), and ``decided_by``/``note`` say so.
    """
    _call_bot(bot.restart, bot_name, view)
    if memory is not None:
        _import_memory(bot, bot_name, memory, view)
    advice: Advice = _call_bot(bot.advise, bot_name, view, budget)
    advice = _call_bot(resolve_advice, bot_name, view.game, view, advice, policy_seed, bot)
    reply: Reply = {"type": "hint"}
    if game_id is not None:
        reply["game_id"] = game_id
    reply.update({"seat": view.seat, "bot": bot_name, "advice": _call_bot(advice.to_json, bot_name)})
    if drawn is not None:
        # drawn from the seat's view and its advice: addressed to the seat like the advice
        reply["svg"] = draw.hint_svg(drawn, view, advice)
    return reply


def option_json(option: Option) -> JSON:
    """What a client needs to offer an option: default, type, help, and its range or choices."""
    out: JSON = {"default": option.default, "type": option.kind.__name__, "help": option.help}
    if option.minimum is not None:
        out["minimum"] = option.minimum
    if option.maximum is not None:
        out["maximum"] = option.maximum
    if option.choices is not None:
        out["choices"] = list(option.choices)
    if option.file:  # a client gives a name from welcome's content, never a path
        out["content"] = True
    return out


def _game_options(name: str) -> JSON:
    """A registered game's options, ``players`` first (none for a game given by a test)."""
    if name not in solver.games.names():
        return {}
    spec = solver.games.spec(name)
    out: JSON = {"players": {"default": spec.default_players, "type": "int", "help": "number of players",
                             "minimum": spec.min_players, "maximum": spec.max_players}}
    out.update({option: option_json(opt) for option, opt in spec.options.items()})
    return out


def _bot_options(name: str) -> JSON:
    """Each bot's options (``copsolver bots``'s list), for a client's seat form."""
    try:
        return {bot: {option: option_json(opt) for option, opt in cls.options.items()}
                for bot, cls in bots.registry.bots_for(name).items()}
    except Exception:  # a game without bots still shows up, with none
        log.debug("no bots for %s", name, exc_info=True)
        return {}


def _has_drawing(name: str) -> bool:
    """Whether game ``name`` draws its positions (``"draw": true`` gives an ``svg``, not null)."""
    if name not in solver.games.names():
        return False  # a game given to the server by a test: no bot package
    try:
        return draw.drawing_module(name) is not None
    except Exception:  # a broken drawing module is reported when it is used, not in hello
        log.warning("the drawing module of %s does not import", name, exc_info=True)
        return False


def _check_not_over(table: _Table) -> None:
    if table.state.is_terminal():
        prompt = table.state.decision().prompt
        raise ProtocolError(ErrorKind.GAME_OVER, f"game {table.game_id} is over: {prompt}")


def _check_view_decides(view: View) -> None:
    if not view.legal_actions:
        raise ProtocolError(ErrorKind.NOT_YOUR_TURN,
                            f"the view's seat {view.seat} is not to act: {view.decision.prompt}")


def _parse_action(game: Game, text: str) -> Action:
    try:
        return game.str_to_action(text)
    except InvalidActionError as err:
        raise ProtocolError(ErrorKind.INVALID_ACTION, str(err)) from None
    except ValueError as err:
        # A parser should raise InvalidActionError itself (some int() calls slip through on
        # digits like "²"); the fault is still in the text.
        log.warning("%s.str_to_action raised %s instead of InvalidActionError", game.name, type(err).__name__)
        raise ProtocolError(ErrorKind.INVALID_ACTION, f"cannot read action {text[:80]!r}: {err}") from None


# --- transports --------------------------------------------------------------------------------
class LineReader(Protocol):
    """A readable stream, text or binary (``sys.stdin.buffer``, a socket file, ``io.StringIO``)."""

    def readline(self, size: int = -1, /) -> Any: ...


class LineWriter(Protocol):
    """A writable stream, text or binary."""

    def write(self, data: Any, /) -> Any: ...

    def flush(self) -> Any: ...


@dataclass(frozen=True)
class _Dropped:
    """Stands for an input line longer than :data:`MAX_LINE`, read to its end and thrown away."""

    size: int


def _read_lines(stream: LineReader) -> Iterator[str | bytes | _Dropped]:
    """Yield the stream's lines; a line over :data:`MAX_LINE` is consumed in bounded chunks (never
    held whole in memory) and yielded as :class:`_Dropped`."""
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and line[-1:] not in ("\n", b"\n"):
            size = len(line)
            while True:
                more = stream.readline(MAX_LINE + 1)
                size += len(more)
                if not more or more[-1:] in ("\n", b"\n"):
                    break
            yield _Dropped(size)
            continue
        yield line


def serve_lines(server: SeatServer, rfile: LineReader, wfile: LineWriter) -> None:
    """Run ``server`` over a pair of streams (text or binary) until EOF or ``bye``."""
    binary = not isinstance(wfile, io.TextIOBase)

    def write(replies: list[Reply]) -> None:
        for reply in replies:
            text = encode_reply(reply) + "\n"
            wfile.write(text.encode("utf-8") if binary else text)
        wfile.flush()

    for line in _read_lines(rfile):
        if isinstance(line, _Dropped):
            replies = server.reject_overlong(line.size)
        else:
            replies = server.handle_line(line, emit=write)
        write(replies)
        if server.closed:
            return


def _binary(stream: Any) -> Any:
    # A text wrapper's buffer lets each line be decoded strictly, so bad UTF-8 gets a reply
    # instead of an exception inside the wrapper.
    buffer = getattr(stream, "buffer", None)
    return buffer if buffer is not None else stream


@dataclass(frozen=True)
class _Expired:
    """Stands for a TCP client dropped by a timeout; ``message`` says which."""

    message: str


#: Marks the end of a session's input in its queue.
_END: Final = object()
#: How often a TCP reader wakes to check its client's timeouts (seconds).
_TICK: Final = 0.1

Line = str | bytes | _Dropped


class _LineSplitter:
    """Cuts a byte stream into lines, holding at most :data:`MAX_LINE` bytes of one (a longer line
    is counted and thrown away, then stands as :class:`_Dropped`), and knows when the line in
    progress began."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.skipped: int | None = None  # bytes of an overlong line being thrown away
        #: when the first byte of the line in progress arrived (None between lines)
        self.began: float | None = None

    def feed(self, chunk: bytes, now: float) -> list[Line]:
        """The lines ``chunk`` completes."""
        out: list[Line] = []
        pos = 0
        while pos < len(chunk):
            newline = chunk.find(b"\n", pos)
            end = len(chunk) if newline < 0 else newline + 1
            if self.began is None:
                self.began = now
            if self.skipped is not None:
                self.skipped += end - pos
            else:
                self.buf += chunk[pos:end]
                if newline < 0 and len(self.buf) > MAX_LINE:
                    self.skipped, self.buf = len(self.buf), bytearray()
            if newline >= 0:
                out.append(bytes(self.buf) if self.skipped is None else _Dropped(self.skipped))
                self.buf, self.skipped, self.began = bytearray(), None, None
            pos = end
        return out

    def rest(self) -> list[Line]:
        """The unfinished last line at the end of the input, if any."""
        if self.skipped is not None:
            return [_Dropped(self.skipped)]
        return [bytes(self.buf)] if self.buf else []


def _fd_lines(read: Callable[[int], bytes]) -> Iterator[Line]:
    """Lines from a blocking byte source (a file descriptor: no buffered object whose lock a
    reader thread could hold while the interpreter exits)."""
    splitter = _LineSplitter()
    while True:
        chunk = read(65536)
        if not chunk:
            yield from splitter.rest()
            return
        yield from splitter.feed(chunk, time.monotonic())


def _selector() -> selectors.BaseSelector:
    # poll, unlike epoll, also takes regular files; select has no descriptor-number limit issue here
    return selectors.PollSelector() if hasattr(selectors, "PollSelector") else selectors.SelectSelector()


def _socket_lines(sock: socket.socket, session: _Session) -> Iterator[Line | _Expired]:
    """Lines from a TCP client, ending with :class:`_Expired` when it idles or a line is too slow."""
    splitter = _LineSplitter()
    with _selector() as selector:
        selector.register(sock, selectors.EVENT_READ)
        while True:
            ready = selector.select(_TICK)
            now = time.monotonic()
            if ready:
                chunk = sock.recv(65536)
                if not chunk:
                    yield from splitter.rest()
                    return
                session.heard(now)
                yield from splitter.feed(chunk, now)
            session.line_began = splitter.began
            expired = session.expired(now)
            if expired is not None:
                yield _Expired(expired)
                return


def stop_request(line: Line) -> JSON | None:
    """The ``stop`` request a line holds, or None (then it is queued and answered in turn)."""
    if isinstance(line, _Dropped) or (b"stop" not in line if isinstance(line, bytes) else "stop" not in line):
        return None
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return msg if isinstance(msg, dict) and msg.get("type") == "stop" else None


class _Session:
    """One client's session: a reader thread reads ahead, so that ``stop``, the end of the input and
    the TCP timeouts are noticed while a request runs; the thread that calls :meth:`run` answers
    the requests in order."""

    def __init__(self, server: SeatServer, write: Callable[[bytes], Any], *, gone_at_eof: bool) -> None:
        self.server = server
        self._write = write
        #: the end of the input means the client is gone (TCP): its running request is cancelled
        self.gone_at_eof = gone_at_eof
        self.queue: queue.Queue[object] = queue.Queue(READ_AHEAD)
        self._write_lock = threading.RLock()
        self.heard_at = self.done_at = time.monotonic()
        #: when the first byte of the client's line in progress arrived (TCP)
        self.line_began: float | None = None
        #: the client is gone or was dropped: nothing more is answered
        self.gone = threading.Event()
        self.finished = threading.Event()

    # --- what the reader asks ---------------------------------------------------------------------
    def heard(self, now: float) -> None:
        """Bytes arrived from the client."""
        self.heard_at = now

    def busy(self) -> bool:
        """True while a request of this client runs or waits."""
        return self.server.busy or not self.queue.empty()

    def expired(self, now: float) -> str | None:
        """Why the client is dropped now (too slow a line, idle too long), or None."""
        lim = self.server.limits
        if self.line_began is not None:
            if lim.line_deadline is not None and now - self.line_began > lim.line_deadline:
                return (f"a line must be complete within {lim.line_deadline:g} s of its first byte "
                        "(--line-deadline); closing the connection")
            return None
        quiet = now - max(self.heard_at, self.done_at)
        if lim.idle_timeout is not None and quiet > lim.idle_timeout and not self.busy():
            return f"idle for {lim.idle_timeout:g} s (--idle-timeout); closing the connection"
        return None

    def free_in(self, now: float) -> float:
        """Seconds until this client's slot frees at the soonest, if the client stays silent."""
        lim = self.server.limits
        if lim.idle_timeout is None:
            return math.inf
        if self.busy():
            return lim.max_seconds + lim.idle_timeout
        if self.line_began is not None and lim.line_deadline is not None:
            return max(0.0, self.line_began + lim.line_deadline - now)
        return max(0.0, max(self.heard_at, self.done_at) + lim.idle_timeout - now)

    # --- the two threads --------------------------------------------------------------------------
    def send(self, replies: list[Reply]) -> None:
        """Write replies (whole lines, never interleaved); a failed write means the client is gone."""
        if not replies or self.gone.is_set():
            return
        data = "".join(encode_reply(r) + "\n" for r in replies).encode("utf-8")
        with self._write_lock:
            try:
                self._write(data)
            except (OSError, ValueError):
                log.debug("cannot write to the client", exc_info=True)
                self._lose()

    def _lose(self) -> None:
        self.gone.set()
        self.server.cancel()

    def _put(self, item: object) -> bool:
        while not self.finished.is_set():
            try:
                self.queue.put(item, timeout=_TICK)
                return True
            except queue.Full:  # the client reads ahead of its requests: wait for the worker
                continue
        return False

    def _read(self, lines: Iterable[Line | _Expired]) -> None:
        try:
            for item in lines:
                if isinstance(item, _Expired):
                    self.send([error_reply(ErrorKind.LIMIT, item.message)])
                    self._lose()
                    break
                stop = stop_request(item)
                if stop is not None:
                    # Holding the write lock across the cancel puts 'stopping' on the wire before
                    # the stopped request's own reply, whichever thread gets there first.
                    with self._write_lock:
                        self.send(self.server.interrupt(stop))
                elif not self._put(item):
                    break
            else:
                if self.gone_at_eof:
                    self._lose()
        except Exception:  # a closed socket or stream: the client is gone
            log.debug("session input ended", exc_info=True)
            self._lose()
        finally:
            self._put(_END)

    def run(self, lines: Iterable[Line | _Expired], on_end: Callable[[], Any] | None = None) -> None:
        """Answer the client's requests until the end of its input, ``bye``, or a shutdown."""
        reader = threading.Thread(target=self._read, args=(lines,), daemon=True, name="seat-reader")
        reader.start()
        try:
            while not (self.server.closed or self.server.shutdown.is_set()):
                try:
                    item = self.queue.get(timeout=_TICK)
                except queue.Empty:
                    continue
                if item is _END or self.gone.is_set() or self.server.shutdown.is_set():
                    break
                if isinstance(item, _Dropped):
                    replies = self.server.reject_overlong(item.size)
                else:
                    # interim replies (a review's progress) go out as they come, through send's lock
                    replies = self.server.handle_line(cast(str | bytes, item), emit=self.send)
                self.done_at = time.monotonic()
                self.send(replies)
        finally:
            self.finished.set()
            if on_end is not None:
                on_end()  # wakes the reader (a socket shut down)
                reader.join(timeout=1.0)
            # else the reader may wait on stdin for good; it is a daemon thread and holds no lock


def _fileno(stream: Any) -> int | None:
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    return fd if isinstance(fd, int) else None


def serve_stdio(stdin: LineReader | None = None, stdout: LineWriter | None = None, *,
                limits: Limits | None = None, content: Content | None = None,
                halt: threading.Event | None = None) -> int:
    """Serve one session over stdin/stdout (or the given streams); return 0 at EOF, ``bye`` or
    once ``halt`` is set (a signal: the running search ends early, nothing more is answered).

    The end of input ends the session after the requests read before it are answered (a script
    piped in), so on stdio it does not cancel a running request.
    """
    rfile = _binary(stdin if stdin is not None else sys.stdin)
    wfile = _binary(stdout if stdout is not None else sys.stdout)
    server = SeatServer(limits=limits, content=content, shutdown=halt)
    fd = _fileno(rfile)
    lines: Iterable[Line] = _read_lines(rfile) if fd is None else _fd_lines(functools.partial(os.read, fd))
    binary = not isinstance(wfile, io.TextIOBase)

    def write(data: bytes) -> None:
        wfile.write(data if binary else data.decode("utf-8"))
        wfile.flush()

    session = _Session(server, write, gone_at_eof=False)
    worker = threading.Thread(target=session.run, args=(lines,), daemon=True, name="seat-session")
    worker.start()
    # The main thread only waits, so a signal handler runs at once whatever the session does.
    while worker.is_alive():
        worker.join(_TICK)
        if server.shutdown.is_set():
            worker.join(1.0)
            break
    return 0


class SeatTCPServer(socketserver.ThreadingTCPServer):
    """A TCP seat server: one :class:`SeatServer` session per connection, in its own thread.

    :meth:`shutdown` stops accepting; :meth:`server_close` also ends every running search
    (:attr:`halt`) and closes live connections, so a test or a signal handler can stop it without
    waiting for clients.
    """

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], *, limits: Limits | None = None,
                 max_clients: int | None = None, games: Mapping[str, GameFactory] | None = None,
                 content: Content | None = None) -> None:
        lim = limits if limits is not None else Limits()
        if max_clients is not None:
            lim = dataclasses.replace(lim, max_clients=max_clients)
        self.limits = lim
        self.max_clients = lim.max_clients
        self.session_games = dict(games) if games is not None else None
        self.content = content
        #: set when the server closes: every session's running search ends
        self.halt = threading.Event()
        self._slots = threading.BoundedSemaphore(lim.max_clients)
        self._lock = threading.Lock()
        self._live: dict[_Session, socket.socket] = {}
        super().__init__(address, _SeatHandler)

    @property
    def port(self) -> int:
        """The port bound (useful after binding port 0)."""
        return int(self.server_address[1])

    def retry_after(self) -> int:
        """Whole seconds after which a slot is expected to be free, if every client stays silent."""
        now = time.monotonic()
        with self._lock:
            soonest = min((s.free_in(now) for s in self._live), default=0.0)
        if not math.isfinite(soonest):
            soonest = self.limits.max_seconds
        return max(1, math.ceil(soonest))

    def server_close(self) -> None:
        """Close the listening socket, end every running search and close every live connection."""
        super().server_close()
        self.halt.set()
        with self._lock:
            live = list(self._live.values())
        for conn in live:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)

    def wait_sessions(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the sessions to end; True when none is left."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._live:
                    return True
            time.sleep(0.02)
        with self._lock:
            return not self._live


class _SeatHandler(socketserver.BaseRequestHandler):
    server: SeatTCPServer

    def handle(self) -> None:
        sock: socket.socket = self.request
        tcp = self.server
        # A reply waits at most this long for a client that does not read (then it is dropped).
        sock.settimeout(tcp.limits.line_deadline)
        if not tcp._slots.acquire(blocking=False):
            retry = tcp.retry_after()
            busy = error_reply(ErrorKind.LIMIT, f"the server is serving {tcp.max_clients} clients "
                                                f"(the limit); retry in {retry} s")
            busy["retry_after"] = retry
            with contextlib.suppress(OSError):
                sock.sendall((encode_reply(busy) + "\n").encode())
            return
        server = SeatServer(games=tcp.session_games, limits=tcp.limits, content=tcp.content,
                            shutdown=tcp.halt, tcp=True)
        session = _Session(server, sock.sendall, gone_at_eof=True)
        with tcp._lock:
            tcp._live[session] = sock
        try:
            if not tcp.halt.is_set():
                session.run(_socket_lines(sock, session), on_end=functools.partial(_shut, sock))
        finally:
            with tcp._lock:
                del tcp._live[session]
            tcp._slots.release()


def _shut(sock: socket.socket) -> None:
    # wakes the session's reader: it sees the end of its input
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


def tcp_server(port: int, host: str = "127.0.0.1", *, limits: Limits | None = None,
               max_clients: int | None = None, games: Mapping[str, GameFactory] | None = None,
               content: Content | None = None) -> SeatTCPServer:
    """Bind a :class:`SeatTCPServer` (loopback only by default; port 0 picks a free port).

    The caller runs ``serve_forever()`` and later ``shutdown()`` and ``server_close()``.
    """
    return SeatTCPServer((host, port), limits=limits, max_clients=max_clients, games=games, content=content)


def serve_tcp(port: int, host: str = "127.0.0.1", *, limits: Limits | None = None,
              max_clients: int | None = None, content: Content | None = None,
              stop: threading.Event | None = None,
              ready: Callable[[SeatTCPServer], None] | None = None) -> int:
    """Serve the protocol on TCP until ``stop`` is set (or an interrupt); return 0.

    The default host is loopback: the protocol has no authentication, so exposing it to a network
    is a choice the caller makes by naming another host. ``ready`` is called once bound. On the way
    out every running search is ended and the sessions get a second to finish.
    """
    server = tcp_server(port, host, limits=limits, max_clients=max_clients, content=content)
    if stop is not None:
        def watch(event: threading.Event) -> None:
            event.wait()
            server.shutdown()

        threading.Thread(target=watch, args=(stop,), daemon=True).start()
    try:
        if ready is not None:
            ready(server)
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        server.wait_sessions(1.0)
    return 0


def port_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0..65535)")
    return value


def _seconds_or_off(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds >= 0")
    return value or None


def main(argv: list[str] | None = None) -> int:
    """``copsolver serve``: the seat protocol on stdin/stdout, or on TCP with ``--tcp PORT``."""
    parser = argparse.ArgumentParser(
        prog="copsolver serve",
        description="Seat bots for any front end: newline-delimited JSON (docs/protocol.md).",
    )
    parser.add_argument("--tcp", type=port_arg, metavar="PORT",
                        help="listen on TCP instead of stdin/stdout (0: any free port)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind with --tcp (default loopback; there is no authentication)")
    parser.add_argument("--max-clients", type=int, default=MAX_CLIENTS, metavar="N",
                        help=f"TCP clients served at once (default {MAX_CLIENTS})")
    parser.add_argument("--idle-timeout", type=_seconds_or_off, default=IDLE_TIMEOUT, metavar="SECONDS",
                        help=f"drop a TCP client that sends nothing and has no request running for this "
                             f"long (default {IDLE_TIMEOUT:g}; 0: never)")
    parser.add_argument("--line-deadline", type=_seconds_or_off, default=LINE_DEADLINE, metavar="SECONDS",
                        help=f"drop a TCP client whose line is not complete this long after its first byte, "
                             f"or that does not take a reply this long (default {LINE_DEADLINE:g}; 0: never)")
    parser.add_argument("--max-iterations", type=int, default=MAX_ITERATIONS, metavar="N",
                        help=f"most iterations of one search (default {MAX_ITERATIONS})")
    parser.add_argument("--max-seconds", type=float, default=MAX_SECONDS, metavar="SECONDS",
                        help=f"most seconds of one search (default {MAX_SECONDS:g})")
    parser.add_argument("--max-nodes", type=int, default=MAX_NODES, metavar="N",
                        help=f"most search-tree nodes of one search: its memory (default {MAX_NODES})")
    parser.add_argument("--max-review-seconds", type=float, default=MAX_REVIEW_SECONDS, metavar="SECONDS",
                        help=f"most seconds one review request runs; it then answers with the decisions "
                             f"reviewed so far (default {MAX_REVIEW_SECONDS:g})")
    parser.add_argument("--board", action="append", default=[], metavar="NAME=PATH",
                        help="register a Police 07 board file under NAME (clients choose it by name)")
    parser.add_argument("--content", action="append", default=[], metavar="GAME.OPTION:NAME=PATH",
                        help="register a content file for a game's content option, e.g. "
                             "lineup.suspects:mine=suspects.json")
    parser.add_argument("--opt", action="append", default=[], metavar="NAME=VALUE",
                        help="a default bot option: every bot that takes it gets it unless a request "
                             "sets it (repeatable), e.g. --opt iterations=500")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        limits = Limits(args.max_iterations, args.max_seconds, args.max_nodes, max(1, args.max_clients),
                        args.idle_timeout, args.line_deadline, args.max_review_seconds)
    except ConfigError as err:
        parser.error(str(err))
    try:
        content = Content.register([f"police07.board:{spec}" for spec in args.board] + args.content)
        content.set_bot_defaults(args.opt)
    except BadStateError as err:
        print(f"copsolver serve: {err}", file=sys.stderr)
        return 2
    # SIGTERM (a service manager) and SIGINT (Ctrl-C) end the server cleanly, even mid-search:
    # every running search sees the server-wide cancel at its next poll.
    halt = threading.Event()
    previous: dict[signal.Signals, Any] = {}
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            previous[signum] = signal.signal(signum, lambda num, frame: halt.set())
        except ValueError:  # not the main thread (an embedding caller); it stops us its own way
            break
    try:
        if args.tcp is None:
            out = sys.stdout
            # Anything the engine prints must not corrupt the reply stream: stdout is the protocol's.
            with contextlib.redirect_stdout(sys.stderr):
                return serve_stdio(sys.stdin, out, limits=limits, content=content, halt=halt)

        def announce(server: SeatTCPServer) -> None:
            host, port = server.server_address[:2]
            print(f"copsolver: seat protocol on {host!s}:{port}", file=sys.stderr, flush=True)

        return serve_tcp(args.tcp, args.host, limits=limits, content=content, stop=halt, ready=announce)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        content.close()


if __name__ == "__main__":
    raise SystemExit(main())
