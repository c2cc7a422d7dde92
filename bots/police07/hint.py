"""What a Police 07 hint adds: where Dr. Factor may be, and what each move does to that set.

With ``P`` the exact set of stops Dr. Factor may be at
(:func:`solver.games.police07.locations.possible_locations`) and ``w`` the probability of each, from
the location filter: his moves followed from the start with a model of how he moves, learnt from
recorded games (:func:`solver.belief.location_filter.filtered_belief`)::

    for a detective, per move m to stop d (:func:`detective_covers`):
      catch(m)  = w(d) if d is in P, else none       the chance that m lands on Dr. Factor
      covers(m) = {s in P : s is one ride from d}     rides on the lines the piece still holds a
                                                      ticket for after m; shown as |covers| of |P|
                                                      and the chance sum of w over covers(m)
    for Dr. Factor, per move m (:func:`factor_ambiguity`):
      hidden among(m) = the stops the detectives would consider right after m (1 when m is shown)

``covers`` says how much of where he may be now the piece keeps within one ride. Dr. Factor moves
before the piece does again, so it measures closeness to the set, not a chance of capture.

The generic advisor (:mod:`bots.hint`) calls :func:`role`, :func:`extras` and :func:`weights`;
everything here reads only the view it is given. A free-start placement needs no hook: the ``ismcts``
bot's own advice there is the heuristic's ranking, with ``decided_by`` and a note saying why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeAlias

from bots.base import Advice
from bots.hint import NONE, Asked, Column, Extras, pct, stops_text
from solver.core import Action, Game, View

if TYPE_CHECKING:
    from solver.games.police07.rules import Police07Game

Stop: TypeAlias = int

_SHOWN_STOPS: Final = 40  # a longer list of possible stops is cut, with the count kept
_LIKELY_SHOWN: Final = 5  # the most likely stops named, with their probabilities


def _police(game: Game) -> Police07Game | None:
    from solver.games.police07.rules import Police07Game

    return game if isinstance(game, Police07Game) else None


# --- the advisor ----------------------------------------------------------------------------------


def role(game: Game, view: View) -> str:
    """The seat's role as the hint's first line names it: ``Dr. Factor`` or ``detective``."""
    own = getattr(view, "role", None)
    if _police(game) is None or not isinstance(own, str):
        return "player"
    return "Dr. Factor" if own == "factor" else "detective"


# --- what the view tells about Dr. Factor -----------------------------------------------------------


def location_probabilities(game: Game, view: View) -> dict[Stop, float]:
    """Probability per stop Dr. Factor may be at, from the location filter.

    The stops are the view's exact possible set, weighed by following his moves with the behaviour
    model learnt from recorded games (:mod:`solver.belief.location_filter`), the belief the
    ``ismcts`` detectives search with. Dr. Factor's own view gives his stop probability 1. Empty for
    another game, or before he has placed his piece (free start).
    """
    police = _police(game)
    if police is None:
        return {}
    from solver.belief.location_filter import filtered_belief

    return filtered_belief(police, view.to_json())


def weights(game: Game, view: View) -> dict[int, float]:
    """The board drawing's heat map: the same learnt probabilities the text lists."""
    return location_probabilities(game, view)


@dataclass(frozen=True)
class Cover:
    """What one detective move does to Dr. Factor's possible set ``P`` (see the module docstring)."""

    #: the stop the move goes to
    stop: Stop
    #: whether ``stop`` is in ``P``
    lands: bool
    #: the chance that the move lands on Dr. Factor (0.0 when ``stop`` is not possible)
    catch: float
    #: the possible stops one ride from ``stop`` on the lines the piece holds tickets for after it
    stops: tuple[Stop, ...]
    #: their total probability
    share: float
    #: the size of ``P``
    possible: int


def detective_covers(
    game: Game, view: View, probabilities: Mapping[Stop, float] | None = None
) -> dict[Action, Cover]:
    """Per legal move of a detective's ``view``: its :class:`Cover` of the possible set.

    ``probabilities`` weigh the possible stops (default :func:`location_probabilities`). Empty for
    Dr. Factor's view, another game, or while the possible set is empty (free start). Actions that
    are not moves (``pass``, ``place N``) are left out.
    """
    police = _police(game)
    data = view.to_json()
    if police is None or data.get("role") != "detective" or not isinstance(data.get("piece"), int):
        return {}
    from solver.games.police07 import codec
    from solver.games.police07.heuristics import acting_piece, detective_lines, detective_pieces
    from solver.games.police07.locations import possible_locations

    possible = sorted(possible_locations(police, data))
    if not possible:
        return {}
    weights = dict(probabilities) if probabilities is not None else location_probabilities(game, view)
    piece = acting_piece(police, data)
    tickets = next(p.tickets for p in detective_pieces(data) if p.piece == piece)
    neighbours = police.board.neighbours
    out: dict[Action, Cover] = {}
    for action in view.legal_actions:
        if not codec.is_move(action):
            continue
        ticket, _, stop = codec.decode_move(action)
        left = dict(tickets)
        name = codec.TICKET_NAMES[ticket]
        count = left.get(name)
        if count is not None:  # None: unlimited tickets
            left[name] = count - 1
        reach = {n for line in detective_lines(left) for n in neighbours[line][stop]}
        near = tuple(s for s in possible if s in reach)
        out[action] = Cover(
            stop=stop,
            lands=stop in possible,
            catch=float(weights.get(stop, 0.0)) if stop in possible else 0.0,
            stops=near,
            share=sum(float(weights.get(s, 0.0)) for s in near),
            possible=len(possible),
        )
    return out


def public_count(game: Game, view: View) -> int | None:
    """How many stops the detectives consider for Dr. Factor now, from his own ``view``.

    None for a detective's view (the possible set is theirs already), another game, or before he
    has placed his piece.
    """
    police = _police(game)
    data = view.to_json()
    if police is None or data.get("role") != "factor" or not (data.get("factor") or {}).get("stop"):
        return None
    from solver.games.police07.heuristics import public_history
    from solver.games.police07.locations import track_factor

    return len(track_factor(police, {"history": public_history(data)}).now)


def factor_ambiguity(game: Game, view: View) -> dict[Action, int]:
    """Per legal move of Dr. Factor's ``view``: how many stops the detectives would consider after it.

    That is the public possible set right after the move: the detectives' set now, pushed through
    the move's ticket (they see the ticket, not the stop), minus the stops detectives stand on; 1
    when the move is shown. Empty for a detective's view or another game; actions that are not
    moves (``double``, ``show``, ``take``) are left out.
    """
    police = _police(game)
    data = view.to_json()
    if police is None or data.get("role") != "factor" or not (data.get("factor") or {}).get("stop"):
        return {}
    from solver.games.police07 import codec
    from solver.games.police07.heuristics import public_history
    from solver.games.police07.locations import track_factor

    shown = int(data["factor"]["moves"]) + 1 in codec.REVEALED_MOVES
    history = public_history(data)
    by_ticket: dict[int, int] = {}
    out: dict[Action, int] = {}
    for action in view.legal_actions:
        if not codec.is_move(action):
            continue
        ticket, _, _ = codec.decode_move(action)
        if shown:
            out[action] = 1
            continue
        if ticket not in by_ticket:
            # the tracker that builds the detectives' sets, fed the move as they would log it
            after = {"history": [*history, [0, f"{codec.TICKET_NAMES[ticket]} ?"]]}
            by_ticket[ticket] = len(track_factor(police, after).now)
        out[action] = by_ticket[ticket]
    return out


# --- the text -------------------------------------------------------------------------------------


def extras(game: Game, view: View, advice: Advice, asked: Asked | None = None) -> Extras:
    """Dr. Factor's possible (or, for himself, public) set and the catch/covers or hidden-among columns."""
    police = _police(game)
    if police is None:
        return Extras(advice)
    belief = dict(advice.belief)
    if "possible_stops" not in belief:
        # bots that keep no location belief (random) still get the exact set printed: it is
        # computed from the same view, so it shows nothing the seat does not know
        from solver.games.police07.locations import possible_locations

        belief["possible_stops"] = sorted(possible_locations(police, view.to_json()))
    stops = belief.pop("possible_stops", None)
    belief.pop("count", None)
    lines: list[str] = []
    columns: list[Column] = []
    key: list[str] = []
    data = view.to_json()
    if isinstance(stops, list):
        if not stops:
            lines.append("Dr. Factor has not placed his piece yet.")
        elif view.seat == 0:
            lines.append(f"Dr. Factor is at {stops[0]}.")
            now = public_count(game, view)
            if now is not None:
                lines.append(f"The detectives consider {stops_text(now)} for him now.")
            hidden = factor_ambiguity(game, view)
            if hidden:
                from solver.games.police07.codec import REVEALED_MOVES

                shown = int(data["factor"]["moves"]) + 1 in REVEALED_MOVES
                cells = {a: "1 (shown)" if shown else stops_text(n) for a, n in hidden.items()}
                columns.append(Column("hidden among", cells))
                key.append(
                    "  hidden among: how many stops the detectives would consider right after the move"
                )
        else:
            listed = ", ".join(str(s) for s in stops[:_SHOWN_STOPS])
            more = f" ... (+{len(stops) - _SHOWN_STOPS} more)" if len(stops) > _SHOWN_STOPS else ""
            lines.append(f"Dr. Factor may be at {stops_text(len(stops))}: {listed}{more}")
            probabilities = location_probabilities(game, view)
            if len(probabilities) > 1:
                likely = sorted(probabilities, key=lambda s: (-probabilities[s], s))[:_LIKELY_SHOWN]
                named = ", ".join(f"{s} ({pct(probabilities[s])})" for s in likely)
                lines.append(f"Most likely (his moves followed with a learnt model of how he moves): {named}")
            covers = detective_covers(game, view, probabilities)
            if covers:
                catch = {a: pct(c.catch) if c.lands else NONE for a, c in covers.items()}
                near = {a: f"{len(c.stops)} of {c.possible} ({pct(c.share)})" for a, c in covers.items()}
                columns += [Column("catch", catch), Column("covers", near)]
                key.append(
                    "  catch: the chance the move lands on Dr. Factor; covers: the possible stops "
                    f"D{data.get('piece')} could ride to on its next move from where this one ends (with "
                    "the tickets it has left), and their chance"
                )
    return Extras(
        dataclasses.replace(advice, belief=belief), lines=tuple(lines), columns=tuple(columns), key=tuple(key)
    )
