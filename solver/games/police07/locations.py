"""Where can Dr. Factor be? Exact possible-location sets from a detective's view.

This module reads a view's public history and feeds it to a location tracker
(:mod:`solver.games.police07.bitsets`, compiled when built), where the set logic lives: the set starts at
his start stop and is pushed through each logged ticket: every stop one link of that ticket's
line(s) away (a joker: any line, water included), minus the stops detectives stand on when he
moves; a shown move or a voluntary show narrows it to one stop; every stop a detective reaches
without a capture is struck out; and where the rules would have ended the game had he no legal
move (his turn start, between the two moves of a double) but it went on, and where he announces a
double (offered only with a first move), every stop from which he had none is struck out too (a
cornered Dr. Factor loses: ``solver/games/police07/rules.py``). Sampling walks back from a drawn
current stop through the stored sets, so the whole sampled path is consistent with the view
(Nijssen & Winands 2012, "Monte-Carlo Tree Search for the Hide-and-Seek Game Scotland Yard", IEEE
TCIAIG 4(4), determinization over possible locations).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.core import JSON, Action, BadStateError
from solver.core.rng import SplitMix64
from solver.games.police07 import codec
from solver.games.police07.bitsets import TICKET_LINES, Tracker, factor_lines, make_tracker, mask_stops
from solver.games.police07.codec import FACTOR_TICKETS, LAST_MOVE, UNLIMITED

if TYPE_CHECKING:
    from solver.games.police07.rules import Police07Game

_JOKER_LINES = (0, 1, 2, 3)


@dataclass
class FactorTrack:
    """The possible-location sets along Dr. Factor's moves, as a detective sees them.

    ``tracker`` holds the sets (:mod:`solver.games.police07.bitsets`); ``now`` and ``moves`` read them out.
    """

    start: int
    tracker: Tracker
    #: the set now
    now: set[int] = field(default_factory=set)
    #: the history index of each Factor move
    move_indices: list[int] = field(default_factory=list)

    @property
    def moves(self) -> list[tuple[int, tuple[int, ...], frozenset[int]]]:
        """Per Factor move: (history index, lines ridden, set before the move)."""
        out = []
        for k, index in enumerate(self.move_indices):
            line_mask = self.tracker.move_lines(k)
            lines = tuple(line for line in _JOKER_LINES if line_mask >> line & 1)
            out.append((index, lines, frozenset(mask_stops(self.tracker.before(k)))))
        return out


def _fail(index: int, text: str, why: str) -> BadStateError:
    return BadStateError(f"police07 view: history[{index}] {text!r}: {why}")


def track_factor(game: Police07Game, view: JSON) -> FactorTrack:
    """Replay a view's history and return the possible-location sets (BadStateError if none).

    Besides the updates in the module docstring, it strikes out the stops where Dr. Factor would
    have been cornered (no legal move) at each point where the rules end the game for that, once
    the game has gone on past it (see :func:`_cornered_check`), and at each ``double``.
    """
    history = view.get("history")
    if not isinstance(history, list):
        raise BadStateError("police07 view: 'history' must be a list of [piece, text]")
    num_stops = game.board.num_stops
    tracker = make_tracker(game.board)
    det = [0] * game.num_pieces  # detective stops (0: not placed); entry 0 is unused
    indices: list[int] = []
    last = len(history) - 1
    winner = view.get("winner")
    shown_now = (view.get("factor") or {}).get("stop")
    # His ticket stock, replayed from the public history as the rules keep it (the stocks lie on
    # the table [Start]): taxi, bus, metro (below 0: unlimited) and jokers. It decides which lines
    # he could still ride where the cornered check applies.
    stock = [UNLIMITED] * 3 + [FACTOR_TICKETS[3]] if game.unlimited_tickets else list(FACTOR_TICKETS[:4])
    placed = 0
    factor_moves = 0
    double_steps = 0  # moves left in an announced double (2, then 1), as rules.Police07State
    visible = 0  # his stop as the detectives know it after his last move or show, 0 if hidden
    for i, item in enumerate(history):
        if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int)
                or not isinstance(item[1], str) or not 0 <= item[0] < game.num_pieces):
            raise BadStateError(f"police07 view: history[{i}] must be [piece, text], not {item!r}")
        piece, text = item
        words = text.split()
        head = words[0] if words else ""
        stop = int(words[-1]) if words and words[-1].isascii() and words[-1].isdigit() else 0
        if stop > num_stops:
            raise _fail(i, text, f"{stop} is not a stop of the board (1..{num_stops})")
        # Whether the rules check for a cornered Dr. Factor right after this action (and he may
        # not show first): his turn starts, or the first move of a double is made.
        check = False
        if head in ("start", "place"):
            if not stop:
                raise _fail(i, text, "not a start stop")
            if piece == 0:
                tracker.reset(stop)
                visible = stop
            else:
                det[piece] = stop
            placed += 1
            check = placed == game.num_pieces  # set-up is over: his first turn starts
        elif piece == 0:
            if head == "double":
                double_steps = 2
                # The rules offer a double only when he has a first move (rules.py legal_actions):
                # news only under the voluntary show, where his turn start was not checked.
                if tracker.drop_cornered(_factor_lines(stock), _blocked(det)) == 0:
                    raise _fail(i, text, "Dr. Factor has no move from any stop he could be at")
                continue
            if head == "take":
                if len(words) != 3 or words[2] not in codec.TICKET_NAMES[:3]:
                    raise _fail(i, text, "not a ticket taken after a show")
                stock[codec.TICKET_NAMES.index(words[2])] += 1
                continue
            if head == "show":
                if not stop or tracker.show(stop) == 0:
                    raise _fail(i, text, "he cannot be at that stop")
                visible = stop
                continue
            if head not in codec.TICKET_NAMES[:4] or not (stop or words[-1] == "?"):
                raise _fail(i, text, "not a Dr. Factor move as a detective sees it")
            ticket = codec.TICKET_NAMES.index(head)
            if tracker.factor_move(TICKET_LINES[ticket], _blocked(det), stop) == 0:
                raise _fail(i, text, "no stop is consistent with the moves so far")
            indices.append(i)
            if stock[ticket] > 0:
                stock[ticket] -= 1
            factor_moves += 1
            visible = stop
            check = double_steps == 2
            double_steps = max(0, double_steps - 1)
        else:
            if head != "pass":
                if not stop or head not in codec.TICKET_NAMES[:3]:
                    raise _fail(i, text, "not a detective move")
                det[piece] = stop
                ticket = codec.TICKET_NAMES.index(head)
                if stock[ticket] >= 0:
                    stock[ticket] += 1  # the spent ticket goes to Dr. Factor [Rules]
                if i == last and winner == "detectives" and shown_now == stop:
                    left = tracker.capture(stop)
                else:
                    left = tracker.strike(stop)
                if left == 0:
                    raise _fail(i, text, "it strikes out the last stop Dr. Factor could be at")
            # After the last piece's round his turn starts, unless move 24 is done [End].
            check = piece == game.num_pieces - 1 and factor_moves < LAST_MOVE
        if (check and _cornered_check(game, double_steps, visible) and (i < last or winner is None)
                and tracker.drop_cornered(_factor_lines(stock), _blocked(det)) == 0):
            raise _fail(i, text, "Dr. Factor would be cornered at every stop he could be at, "
                                 "and the game went on")
    if isinstance(shown_now, int) and (
        not 1 <= shown_now <= num_stops or tracker.show(shown_now) == 0
    ):
        raise BadStateError(f"police07 view: Dr. Factor cannot be at {shown_now}")
    return FactorTrack(start=tracker.start, tracker=tracker, now=set(tracker.stops()),
                       move_indices=indices)


def _cornered_check(game: Police07Game, double_steps: int, visible: int) -> bool:
    """Whether the rules end the game here if Dr. Factor has no legal move (a turn start, or the
    point between the two moves of a double; the caller knows it is one of them).

    The rule is the rules engine's (``solver/games/police07/rules.py``, where the rulebook is
    silent: cornered when he must move and cannot): ``_start_factor_turn`` checks at his turn start
    unless he may still make a voluntary show ([Var]: only while hidden, before moving), and
    ``_factor_action`` checks after the first move of a double. It also checks once he has taken
    his tickets after a show; that check is not replayed here because the set is then the one stop
    he showed, which the game going on already proves he could move from. (A ``double`` tells the
    same as a check, since it is offered only with a first move; the caller applies that itself.)
    """
    if double_steps == 1:
        return True
    return not (game.voluntary_show and visible == 0)


def _factor_lines(stock: list[int]) -> int:
    return factor_lines(stock[0], stock[1], stock[2], stock[3])


def _blocked(det: list[int]) -> int:
    blocked = 0
    for d in det:
        blocked |= 1 << d  # bit 0 (an unplaced piece, or entry 0) is never a stop
    return blocked


def possible_locations(game: Police07Game, view: JSON) -> set[int]:
    """The exact set of stops Dr. Factor may be at, given a detective's view JSON."""
    if view.get("role") == "factor":
        stop = (view.get("factor") or {}).get("stop")
        return {stop} if isinstance(stop, int) else set()
    return set(track_factor(game, view).now)


def sample_path(
    game: Police07Game, track: FactorTrack, rng: np.random.Generator,
    belief: Mapping[int, float] | None = None,
) -> list[int]:
    """Draw Dr. Factor's stop after each of his moves: the last from ``belief`` (weights per stop,
    uniform when None or all zero), each earlier one uniformly among the consistent predecessors."""
    if track.start == 0:
        return []  # free start: Dr. Factor has not placed his piece yet
    now = sorted(track.now)
    weights = np.array([max(0.0, float(belief.get(s, 0.0))) for s in now]) if belief else None
    if weights is not None and weights.sum() > 0:
        stop = now[int(rng.choice(len(now), p=weights / weights.sum()))]
    else:
        stop = now[int(rng.integers(len(now)))]
    # The tracker walks back through the stored sets; it draws from SplitMix64 so its pure and
    # compiled twins give the same path, seeded here from the caller's generator.
    return track.tracker.sample_path(SplitMix64.from_generator(rng), stop)[1:]  # [0]: the start


def resample_actions(
    game: Police07Game, view: JSON, rng: np.random.Generator, belief: Any | None = None
) -> list[Action]:
    """The action list of a full game consistent with ``view`` (hidden moves drawn by ``rng``)."""
    history = view.get("history")
    if not isinstance(history, list):
        raise BadStateError("police07 view: 'history' must be a list of [piece, text]")
    if view.get("role") == "factor" or view.get("seat") == 0:
        return [codec.str_to_action(_text(item, i)) for i, item in enumerate(history)]
    track = track_factor(game, view)
    path = sample_path(game, track, rng, belief)
    nbrs = game.board.neighbours
    stops = iter(path)
    prev = track.start
    actions: list[Action] = []
    move_indices = set(track.move_indices)
    for i, item in enumerate(history):
        piece, text = item
        if piece == 0 and i in move_indices:
            stop = next(stops)
            head = text.split()[0]
            if head == "joker":
                lines = [line for line in _JOKER_LINES if stop in nbrs[line][prev]]
                combo = codec.JOKER_COMBO + lines[int(rng.integers(len(lines)))]
            else:
                combo = codec.TICKET_NAMES.index(head)
            actions.append(codec.move_action(combo, stop))
            prev = stop
        elif piece == 0 and text.startswith("show"):
            actions.append(codec.SHOW)
        else:
            actions.append(codec.str_to_action(text))
    return actions


def _text(item: Any, i: int) -> str:
    if not isinstance(item, list) or len(item) != 2 or not isinstance(item[1], str):
        raise BadStateError(f"police07 view: history[{i}] must be [piece, text], not {item!r}")
    return item[1]
