"""The referee's record of a game (``copsolver play --replay``): writing, reading and checking it.

One JSON object per line: a header (game, config, seed, who sat where), one record per action (its
ply, the acting seat, the action in notation; seat -1 is chance), and a result. Reading re-applies
every action with the rules' checks, so a tampered record fails with the line that breaks it. The
command line (``play``, ``replay``, ``hint``) and the seat protocol (``load_replay``, ``save``)
share this module, so both read and write the same files.

A record opens no file by itself: see :func:`record_config`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import solver
from bots.cli_args import UsageError, file_options, game_parameters
from solver import games
from solver.core import (
    JSON,
    BadStateError,
    CopsolverError,
    Game,
    IllegalActionError,
    InvalidActionError,
    Seat,
    State,
)
from solver.core.files import parse_json, read_text
from solver.core.referee import outcome
from solver.games import load as load_game


def record_config(name: str, config: JSON, files: Mapping[str, str], where: str, record: str) -> JSON:
    """A record's game ``config`` with each file it names replaced by the path ``--file`` gave.

    A record (``record``: "replay" or "position") opens no file by itself, since a path in it could
    name any file on the machine: a file option must be the shipped content (the option's
    default) or given on the command line, which then replaces whatever path the record holds.
    Raise :class:`BadStateError` (``where`` names the line) for an option the game does not take
    or a file the command line did not give; :class:`UsageError` for a ``--file`` that does not fit.
    """
    takes = game_parameters(name)
    if takes is None:
        return dict(config)  # an unknown game: load_game names it
    stray = [option for option in config if option not in takes]
    if stray:
        raise BadStateError(
            f"{where}: {_short(stray[0])} is not a {name} option (its options: {', '.join(takes)})"
        )
    known = file_options(name)
    for option, path in files.items():
        if option not in known:
            raise UsageError(
                f"--file {option}={path}: {name} has no file option {option!r} "
                f"(its file options: {', '.join(known) or 'none'})"
            )
    screened = dict(config)
    part = "header" if record == "replay" else "config"
    for option in known:
        shipped = games.spec(name).options[option].default
        named = config.get(option, shipped)
        if option in files:
            if named == shipped:
                raise UsageError(
                    f"--file {option}={files[option]}: the {record} uses the shipped {option}, not a file"
                )
            screened[option] = files[option]
        elif named != shipped:
            raise BadStateError(
                f"{where}: the {part} names the file {_short(named)} as its {option}; a {record} opens "
                f"no file by itself: give it with --file {option}=PATH"
            )
    return screened


def _short(value: object, width: int = 80) -> str:
    """``repr(value)``, cut to ``width`` characters: file data quoted in a one-line message."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


class ReplayWriter:
    """Writes the referee's record as it happens (flushed per line, so a crash leaves a prefix)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, record: JSON) -> None:
        """Append one record as a JSON line."""
        self.stream.write(json.dumps(record, separators=(", ", ": ")) + "\n")
        self.stream.flush()



def replay_header(game: Game, seed: int | None, seats: dict[Seat, str]) -> JSON:
    """The first record of a replay file."""
    return {
        "type": "header",
        "game": game.name,
        "config": game.config(),
        "seed": seed,
        "seats": {str(s): who for s, who in sorted(seats.items())},
        "version": solver.__version__,
    }


@dataclass
class Replay:
    """A checked replay: the header's facts and the state after every recorded action."""

    game: Game
    seed: int | None
    seats: dict[Seat, str]
    state: State
    finished: bool  # False when the record says the game was abandoned
    reason: str


def _records(text: str, path: str) -> Iterator[tuple[int, JSON]]:
    """Yield ``(line number, object)`` for each non-blank line; BadStateError names a bad line."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        record = parse_json(line, f"{path}, line {number}")
        if not isinstance(record, dict):
            raise BadStateError(f"{path}, line {number}: expected a JSON object, got {json_type(record)}")
        yield number, record


def json_type(value: object) -> str:
    """What a JSON value is, in the words of the JSON spec."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "true or false", type(None): "null"}
    return names.get(type(value), "a number")


def read_replay(path: Path, stop_after: int | None = None, files: Mapping[str, str] | None = None) -> Replay:
    """Re-apply a replay file with every check; raise :class:`BadStateError` naming the line.

    ``stop_after`` stops after that many actions (for advice on a position inside the game); the
    rest of the file is not checked then. ``files`` are the ``--file`` paths (see
    :func:`record_config`): a header naming a file is refused unless they give it.
    """
    return parse_replay(read_text(path, "replay"), str(path), stop_after, files or {})


def parse_replay(text: str, path: str, stop_after: int | None, files: Mapping[str, str]) -> Replay:
    """:func:`read_replay` on the file's ``text`` (``path`` names it in errors)."""
    records = _records(text, path)
    first = next(records, None)
    if first is None:
        raise BadStateError(f"{path}: empty file, not a replay")
    number, header = first
    where = f"{path}, line {number}"
    if header.get("type") != "header":
        raise BadStateError(
            f"{where}: expected the header record first, got type {_short(header.get('type'))}"
        )
    name, config = header.get("game"), header.get("config")
    if not isinstance(name, str) or not isinstance(config, dict):
        raise BadStateError(f"{where}: the header needs 'game' (a name) and 'config' (an object)")
    config = record_config(name, config, files, where, "replay")
    try:
        game = load_game(name, **config)
    except CopsolverError as err:
        raise BadStateError(f"{where}: {err}") from None
    if game.config() != config:
        raise BadStateError(
            f"{where}: config {_short(config)} is not what the game builds ({_short(game.config())})"
        )
    seed = header.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise BadStateError(f"{where}: seed {_short(seed)} is not an int")
    raw_seats = header.get("seats", {})
    if not isinstance(raw_seats, dict) or not all(
        isinstance(k, str) and k.isdigit() and isinstance(v, str) for k, v in raw_seats.items()
    ):
        raise BadStateError(f"{where}: 'seats' must map seat numbers to 'human' or a bot name")
    seats = {int(k): v for k, v in raw_seats.items()}
    state = game.new_initial_state()
    for number, record in records:
        where = f"{path}, line {number}"
        kind = record.get("type")
        if kind == "result":
            finished, reason = _check_result(where, state, record)
            extra = next(records, None)
            if extra is not None:
                raise BadStateError(f"{path}, line {extra[0]}: records after the result")
            return Replay(game, seed, seats, state, finished, reason)
        if kind != "action":
            raise BadStateError(f"{where}: expected an action or the result, got type {_short(kind)}")
        if stop_after is not None and len(state.history) >= stop_after:
            return Replay(game, seed, seats, state, False, "")
        _apply_record(where, game, state, record)
    if stop_after is not None:
        return Replay(game, seed, seats, state, False, "")
    raise BadStateError(f"{path}: ends without a result record (truncated?)")


def _apply_record(where: str, game: Game, state: State, record: JSON) -> None:
    ply, seat, text = record.get("ply"), record.get("seat"), record.get("action")
    if state.is_terminal():
        raise BadStateError(f"{where}: an action after the end of the game")
    if ply != len(state.history):
        raise BadStateError(f"{where}: ply {_short(ply)}, but this is ply {len(state.history)}")
    if seat != state.current_player():
        raise BadStateError(
            f"{where}: seat {_short(seat)} acts, but it is seat {state.current_player()}'s decision "
            f"({state.decision().prompt})"
        )
    if not isinstance(text, str):
        raise BadStateError(f"{where}: 'action' must be a string in notation, not {_short(text)}")
    try:
        state.apply(game.str_to_action(text))
    except (InvalidActionError, IllegalActionError) as err:
        raise BadStateError(f"{where}: {_short(text)} cannot be played: {err}") from None


def _check_result(where: str, state: State, record: JSON) -> tuple[bool, str]:
    winner, reason = record.get("winner"), record.get("reason")
    if winner is None:
        if state.is_terminal():
            raise BadStateError(f"{where}: the result says abandoned, but the moves end the game")
        return False, str(reason or "abandoned")
    if not state.is_terminal():
        raise BadStateError(f"{where}: the result names a winner, but the moves do not end the game")
    expected = outcome(state)
    if (winner, reason) != expected or record.get("returns") != state.returns():
        raise BadStateError(
            f"{where}: the result ({_short(winner)}: {_short(reason)}, "
            f"returns {_short(record.get('returns'))}) is not what the moves give "
            f"({expected[0]!r}: {expected[1]!r}, returns {state.returns()!r})"
        )
    return True, str(reason)

