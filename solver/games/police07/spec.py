"""Police 07 declares itself (:class:`~solver.core.spec.GameSpec`): seats, roles, options, flags."""

from __future__ import annotations

from solver.core.options import Option
from solver.core.spec import GameSpec, Role
from solver.games.police07 import codec


def _detectives(players: int) -> tuple[int, ...]:
    return tuple(range(1, players))


def _factor(players: int) -> tuple[int, ...]:
    return (0,)


SPEC = GameSpec(
    name="police07",
    title='Police 07 ("Where is Dr. Factor?")',
    game="solver.games.police07.rules:Police07Game",
    min_players=2,
    max_players=6,
    default_players=4,
    # the take block is the codec's last: TAKE_BASE + piece * 4 + ticket, pieces 1..MAX_PIECE
    num_distinct_actions=codec.TAKE_BASE + (codec.MAX_PIECE + 1) * 4,
    bounds="solver.games.police07.bounds:bounds",
    summary="hunt Dr. Factor across a 196-stop Budapest board (Scotland Yard-like)",
    options={
        "pieces": Option(None, list, "detective pieces per detective seat (default: the rulebook's split)"),
        "voluntary_show": Option(False, bool, "variant: Dr. Factor may show himself to take tickets"),
        "unlimited_tickets": Option(False, bool, "variant: detectives ride ticket-free"),
        "free_start": Option(False, bool, "variant: pieces choose their start stops"),
        "board": Option("budapest", str, "a board file instead of the game's shipped board", file=True,
                        shipped=("budapest",)),
    },
    flags={
        "--voluntary-show": "voluntary_show",
        "--unlimited-tickets": "unlimited_tickets",
        "--free-start": "free_start",
        "--board": "board",
    },
    # Seat 0 is Dr. Factor, the rest are the detectives (rulebook, Seats and pieces).
    roles=(Role("detectives", _detectives), Role("factor", _factor)),
)
