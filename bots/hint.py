"""The hint advisor: read a position as JSON, rank the moves of the seat to act, explain them.

A position is either a full state (``{"game", "config", "actions"}``, as ``State.to_json`` writes
it: the advisor replays it and advises the seat that must act) or one seat's view (as
``View.to_json`` writes it, recognised by its ``seat`` and ``history`` keys: the advisor checks it
and advises that seat). Everything printed is computed from that seat's view alone, so a hint for a
detective never shows where Dr. Factor really is.
"""

from __future__ import annotations

from typing import Any

from bots.base import Advice
from bots.registry import make
from solver import games
from solver.core import (
    CHANCE,
    TERMINAL,
    BadStateError,
    ConfigError,
    CopsolverError,
    Game,
    View,
)

_SHOWN_STOPS = 40  # a longer list of possible stops is cut, with the count kept
_BELIEF_WIDTH = 200  # other belief entries are printed up to this many characters


def _game_from(game_name: str, data: dict[str, Any]) -> Game:
    named = data.get("game", game_name)
    if named != game_name:
        raise BadStateError(f"the position is for game {named!r}, not {game_name!r}")
    config = data.get("config", {})
    if not isinstance(config, dict):
        raise BadStateError(f"'config' must be an object of game options, not {config!r}")
    try:
        return games.load(game_name, **config)
    except ConfigError as err:
        raise BadStateError(f"the position's config does not describe a {game_name} game: {err}") from None


def load_position(game_name: str, data: dict[str, Any]) -> tuple[Game, View]:
    """Build the game and the view to advise from a state JSON or a view JSON.

    Raises :class:`BadStateError` naming the fault for content that is not a position, a game that
    is over, a chance node, or a view whose seat has no decision now.
    """
    if not isinstance(data, dict):
        raise BadStateError(f"a position must be a JSON object, not {type(data).__name__}")
    game = _game_from(game_name, data)
    try:
        if "seat" in data and "history" in data:
            view = game.view_from_json(data)
        elif "actions" in data:
            state = game.state_from_json(data)
            decision = state.decision()
            if decision.seat == TERMINAL:
                raise BadStateError(f"the game is over ({decision.prompt}): there is no move to advise")
            if decision.seat == CHANCE:
                raise BadStateError(f"chance acts next ({decision.prompt}): there is no move to advise")
            view = state.view(decision.seat)
        else:
            raise BadStateError("expected a state (with 'actions') or a view (with 'seat' and 'history')")
    except BadStateError:
        raise
    except (CopsolverError, KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        # a malformed position can trip any layer below; report it as what it is: bad input
        raise BadStateError(f"not a valid {game_name} position: {type(err).__name__}: {err}") from None
    if not view.legal_actions:
        raise BadStateError(f"seat {view.seat} has no decision now ({view.decision.prompt})")
    return game, view


def advise(
    game: Game, view: View, bot: str = "heuristic", budget: float | None = None, seed: int = 0
) -> Advice:
    """Ask bot ``bot`` (seeded with ``seed``) to rank the moves of ``view``."""
    return make(game, bot, seat=view.seat, rng=seed).advise(view, budget)


def _role(game: Game, view: View) -> str:
    role = getattr(view, "role", None)
    if game.name == "police07" and isinstance(role, str):
        return "Dr. Factor" if role == "factor" else "detective"
    return "player"


def format_advice(game: Game, view: View, advice: Advice) -> str:
    """The advice as text: who is to move, the ranked moves with reasons, and the belief."""
    lines = [f"{game.name}, seat {view.seat} ({_role(game, view)}) to act: {view.decision.prompt}"]
    belief = dict(advice.belief)
    if game.name == "police07" and "possible_stops" not in belief:
        # bots that keep no location belief (random) still get the exact set printed: it is
        # computed from the same view, so it shows nothing the seat does not know
        from solver.belief.locations import possible_locations
        from solver.games.police07.rules import Police07Game

        if isinstance(game, Police07Game):
            belief["possible_stops"] = sorted(possible_locations(game, view.to_json()))
    stops = belief.pop("possible_stops", None)
    belief.pop("count", None)
    if isinstance(stops, list):
        if not stops:
            lines.append("Dr. Factor has not placed his piece yet.")
        elif view.seat == 0:
            lines.append(f"Dr. Factor is at {stops[0]}.")
        else:
            shown = ", ".join(str(s) for s in stops[:_SHOWN_STOPS])
            more = f" ... (+{len(stops) - _SHOWN_STOPS} more)" if len(stops) > _SHOWN_STOPS else ""
            noun = "stop" if len(stops) == 1 else "stops"
            lines.append(f"Dr. Factor may be at {len(stops)} {noun}: {shown}{more}")
    for key, value in belief.items():
        text = str(value)
        lines.append(f"{key}: {text if len(text) <= _BELIEF_WIDTH else text[:_BELIEF_WIDTH] + ' ...'}")
    lines.append("Ranked moves:")
    width = max((len(r.text) for r in advice.ranked), default=4)
    for rank, r in enumerate(advice.ranked, start=1):
        extra = ""
        if r.visits is not None:
            extra += f"  visits {r.visits}"
        if r.value is not None:
            extra += f"  value {r.value:+.3f}"
        lines.append(f"{rank:3d}. {r.text:<{width}}  score {r.score:9.2f}{extra}  {r.reason}")
    if advice.summary:
        lines.append(f"Summary: {advice.summary}")
    return "\n".join(lines)
