"""The hint advisor: read a position as JSON, rank the moves of the seat to act, explain them.

A position is either a full state (``{"game", "config", "actions"}``, as ``State.to_json`` writes
it: the advisor replays it and advises the seat that must act) or one seat's view (as
``View.to_json`` writes it, recognised by its ``seat`` and ``history`` keys: the advisor checks it
and advises that seat). Everything printed is computed from that seat's view alone, so a hint for a
detective never shows where Dr. Factor really is.

The advising bot is the search bot ``ismcts`` unless another is named (:data:`DEFAULT_BOT`). How long
it thinks is a :class:`~solver.search.ismcts.Budget` of either search iterations (reproducible: the
same position, bot, budget and seed give the same hint) or seconds of wall time (the number of
simulations, and so the hint, varies with the machine's speed and load). Bots that do not search
(``heuristic``, ``random``) ignore the budget.

What a Police 07 hint shows besides the ranked moves, with ``P`` the exact set of stops Dr. Factor
may be at (:func:`solver.games.police07.locations.possible_locations`) and ``w`` the probability of each,
from the location filter: his moves followed from the start with a model of how he moves, learnt
from recorded games (:func:`solver.belief.location_filter.filtered_belief`)::

    for a detective, per move m to stop d (:func:`detective_covers`):
      catch(m)  = w(d) if d is in P, else none       the chance that m lands on Dr. Factor
      covers(m) = {s in P : s is one ride from d}     rides on the lines the piece still holds a
                                                      ticket for after m; shown as |covers| of |P|
                                                      and the chance sum of w over covers(m)
    for Dr. Factor, per move m (:func:`factor_ambiguity`):
      hidden among(m) = the stops the detectives would consider right after m (1 when m is shown)

``covers`` says how much of where he may be now the piece keeps within one ride. Dr. Factor moves
before the piece does again, so it measures closeness to the set, not a chance of capture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from bots.base import Advice, RankedAction
from bots.registry import bots_for, make
from solver import games
from solver.core import (
    CHANCE,
    TERMINAL,
    Action,
    BadStateError,
    ConfigError,
    CopsolverError,
    Game,
    View,
)
from solver.search.ismcts import Budget

if TYPE_CHECKING:
    from solver.games.police07.rules import Police07Game

Stop: TypeAlias = int

#: The bot that advises unless another is named: Information Set MCTS.
DEFAULT_BOT: Final = "ismcts"
#: The command line's search time per hint when neither seconds nor iterations are given.
DEFAULT_SECONDS: Final = 1.0

_SHOWN_STOPS: Final = 40  # a longer list of possible stops is cut, with the count kept
_LIKELY_SHOWN: Final = 5  # the most likely stops named, with their probabilities
_BELIEF_WIDTH: Final = 200  # other belief entries are printed up to this many characters
_NONE: Final = "-"  # a table cell that does not apply to the move


# --- reading a position -------------------------------------------------------------------------


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


# --- asking a bot -------------------------------------------------------------------------------


def searches(game: Game, bot: str) -> bool:
    """True when bot ``bot`` of ``game`` searches, so a budget applies (it has both budget options)."""
    cls = bots_for(game.name).get(bot)
    return cls is not None and {"iterations", "seconds"} <= set(cls.options)


def _budget_options(game: Game, bot: str, budget: Budget | None) -> dict[str, Any]:
    """The bot options that set ``budget`` (none for a bot that does not search)."""
    if budget is None or not searches(game, bot):
        return {}
    if budget.iterations is not None and budget.seconds is not None:
        # a search bot's seconds option overrides its iterations: a hint must not drop one silently
        raise ConfigError("a hint's budget is iterations or seconds, not both")
    if budget.seconds is not None:
        return {"seconds": float(budget.seconds)}
    return {"iterations": budget.iterations}


def _placing(game: Game, view: View) -> bool:
    """True at a free-start placement of Police 07 (every legal action places a piece)."""
    if _police(game) is None:
        return False
    from solver.games.police07 import codec

    return all(codec.PLACE_BASE < a < codec.PLACE_BASE + 256 for a in view.legal_actions)


def advising_bot(game: Game, view: View, bot: str) -> str:
    """The bot that advises on ``view`` when ``bot`` is asked.

    ``bot`` itself, except at a Police 07 free-start placement asked of ``ismcts``: its simulator
    starts after set-up, so the heuristic's placement score advises (as the ``nw2012`` bot does
    internally).
    """
    return "heuristic" if bot == "ismcts" and _placing(game, view) else bot


def advise(
    game: Game, view: View, bot: str = DEFAULT_BOT, budget: Budget | None = None, seed: int = 0
) -> Advice:
    """Ask bot ``bot`` (seeded with ``seed``) to rank the moves of ``view``.

    ``budget`` bounds a search bot: ``Budget(iterations=N)`` gives the same advice on every run,
    ``Budget(seconds=S)`` searches for S seconds of wall time, so its advice varies with the
    machine. None leaves the bot's own default (``ismcts``: 1000 iterations). A bot that does not
    search ignores it. Raises :class:`ConfigError` for an unknown bot, a budget that gives both
    iterations and seconds, or seconds outside the bot's range. See :func:`advising_bot` for the one
    position where another bot answers.
    """
    options = _budget_options(game, bot, budget)  # checked even when another bot answers
    name = advising_bot(game, view, bot)
    if name != bot:
        options = {}
    player = make(game, name, seat=view.seat, rng=seed, **options)
    return player.advise(view)


def describe_advisor(game: Game, view: View, bot: str, budget: Budget | None, seed: int) -> str:
    """One line naming the advising bot, its budget and seed, and whether the hint is reproducible."""
    name = advising_bot(game, view, bot)
    if name != bot:
        return (
            f"Advisor: {name} bot for this placement ({bot} searches only after set-up; no search, so "
            "the same position gives the same hint)"
        )
    if not searches(game, bot):
        return f"Advisor: {bot} bot (no search, so no budget: the same position gives the same hint)"
    if budget is None:
        default = bots_for(game.name)[bot].options["iterations"].default
        budget = Budget(iterations=default)
    if budget.seconds is not None:
        return (
            f"Advisor: {bot} bot, {budget.seconds:g} s of search, seed {seed} (a time budget: the number "
            "of simulations, and so the hint, varies with the machine's speed; give iterations to "
            "reproduce a hint)"
        )
    return (
        f"Advisor: {bot} bot, {budget.iterations} iterations, seed {seed} (reproducible: the same "
        "position, bot, budget and seed give this hint again)"
    )


# --- what the view tells about Dr. Factor ---------------------------------------------------------


def _police(game: Game) -> Police07Game | None:
    from solver.games.police07.rules import Police07Game

    return game if isinstance(game, Police07Game) else None


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


# --- the text -----------------------------------------------------------------------------------


def _role(game: Game, view: View) -> str:
    role = getattr(view, "role", None)
    if game.name == "police07" and isinstance(role, str):
        return "Dr. Factor" if role == "factor" else "detective"
    return "player"


def _pct(x: float, digits: int = 0) -> str:
    return f"{100.0 * x:.{digits}f}%"


def _stops(n: int) -> str:
    return "1 stop" if n == 1 else f"{n} stops"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], left: frozenset[int]) -> list[str]:
    """Rows as aligned columns: the columns in ``left`` and the last one left-aligned, others right."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    out = []
    for row in [header, *rows]:
        cells = [
            cell.ljust(width) if i in left else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row[:-1], widths, strict=True))
        ]
        out.append(("  ".join([*cells, row[-1]])).rstrip())
    return out


def _moves_table(
    advice: Advice, covers: Mapping[Action, Cover], hidden: Mapping[Action, int], shown: bool
) -> list[str]:
    """The ranked moves as a table: rank, move, visits and win (or score), extras, reason."""
    ranked: tuple[RankedAction, ...] = advice.ranked
    searched = any(r.visits is not None for r in ranked)
    total = sum(r.visits or 0 for r in ranked) or 1
    digits = len(str(len(ranked)))
    # rank and move share a column, one space apart ("  1. taxi 24"), the rank right-aligned
    header = [f"{'#':>{digits}}  move", *(("visits", "win") if searched else ("score",))]
    if covers:
        header += ["catch", "covers"]
    if hidden:
        header.append("hidden among")
    header.append("reason")
    rows = []
    for rank, r in enumerate(ranked, start=1):
        row = [f"{rank:>{digits}}. {r.text}"]
        if searched:
            visited = bool(r.visits)
            row.append(_pct((r.visits or 0) / total, 1) if r.visits is not None else _NONE)
            row.append(_pct(r.value, 1) if visited and r.value is not None else _NONE)
        else:
            row.append(f"{r.score:.2f}")
        if covers:
            c = covers.get(r.action)
            if c is None:
                row += [_NONE, _NONE]
            else:
                row.append(_pct(c.catch) if c.lands else _NONE)
                row.append(f"{len(c.stops)} of {c.possible} ({_pct(c.share)})")
        if hidden:
            n = hidden.get(r.action)
            row.append(_NONE if n is None else "1 (shown)" if shown else _stops(n))
        row.append(r.reason)
        rows.append(row)
    return _table(header, rows, left=frozenset({0}))  # the move; the numbers right


def _key(view: View, searched: bool, covers: bool, hidden: bool, piece: object) -> list[str]:
    """What the table's columns mean."""
    lines = []
    if searched:
        lines.append(
            "  visits: the share of the search's simulations spent on the move; win: the search's "
            f"estimated chance that seat {view.seat} wins after it"
        )
    if covers:
        lines.append(
            "  catch: the chance the move lands on Dr. Factor; covers: the possible stops "
            f"D{piece} could ride to on its next move from where this one ends (with the tickets "
            "it has left), and their chance"
        )
    if hidden:
        lines.append("  hidden among: how many stops the detectives would consider right after the move")
    return ["Key:", *lines] if lines else []


def format_advice(game: Game, view: View, advice: Advice, advisor: str = "") -> str:
    """The advice as text: who is to move, the advisor, the belief and the ranked moves explained.

    ``advisor`` (from :func:`describe_advisor`) is printed under the first line when given.
    """
    lines = [f"{game.name}, seat {view.seat} ({_role(game, view)}) to act: {view.decision.prompt}"]
    if advisor:
        lines.append(advisor)
    if game.name == "gcbc":
        from bots.gcbc import hint as gcbc_hint

        marginals = gcbc_hint.marginals_for(game, view)
        lines += gcbc_hint.posterior_lines(view, marginals)
        advice = gcbc_hint.annotate(game, view, advice, marginals)
    if game.name == "lineup":
        from bots.lineup import hint as lineup_hint

        lines += lineup_hint.lines(game, view, advice)
    belief = dict(advice.belief)
    police = _police(game)
    if police is not None and "possible_stops" not in belief:
        # bots that keep no location belief (random) still get the exact set printed: it is
        # computed from the same view, so it shows nothing the seat does not know
        from solver.games.police07.locations import possible_locations

        belief["possible_stops"] = sorted(possible_locations(police, view.to_json()))
    stops = belief.pop("possible_stops", None)
    belief.pop("count", None)
    covers: dict[Action, Cover] = {}
    hidden: dict[Action, int] = {}
    if isinstance(stops, list):
        if not stops:
            lines.append("Dr. Factor has not placed his piece yet.")
        elif view.seat == 0:
            lines.append(f"Dr. Factor is at {stops[0]}.")
            now = public_count(game, view)
            if now is not None:
                lines.append(f"The detectives consider {_stops(now)} for him now.")
            hidden = factor_ambiguity(game, view)
        else:
            shown = ", ".join(str(s) for s in stops[:_SHOWN_STOPS])
            more = f" ... (+{len(stops) - _SHOWN_STOPS} more)" if len(stops) > _SHOWN_STOPS else ""
            lines.append(f"Dr. Factor may be at {_stops(len(stops))}: {shown}{more}")
            probabilities = location_probabilities(game, view)
            if len(probabilities) > 1:
                likely = sorted(probabilities, key=lambda s: (-probabilities[s], s))[:_LIKELY_SHOWN]
                named = ", ".join(f"{s} ({_pct(probabilities[s])})" for s in likely)
                lines.append(f"Most likely (his moves followed with a learnt model of how he moves): {named}")
            covers = detective_covers(game, view, probabilities)
    for key, value in belief.items():
        text = str(value)
        lines.append(f"{key}: {text if len(text) <= _BELIEF_WIDTH else text[:_BELIEF_WIDTH] + ' ...'}")
    lines.append("Ranked moves:")
    data = view.to_json()
    shown_move = False
    if hidden:
        from solver.games.police07.codec import REVEALED_MOVES

        shown_move = int(data["factor"]["moves"]) + 1 in REVEALED_MOVES
    lines += ["  " + row for row in _moves_table(advice, covers, hidden, shown_move)]
    if advice.summary:
        lines.append(f"Summary: {advice.summary}")
    searched = any(r.visits is not None for r in advice.ranked)
    lines += _key(view, searched, bool(covers), bool(hidden), data.get("piece"))
    return "\n".join(lines)
