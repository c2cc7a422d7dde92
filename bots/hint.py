"""The hint advisor: read a position as JSON, rank the moves of the seat to act, explain them.

A position is either a full state (``{"game", "config", "actions"}``, as ``State.to_json`` writes
it: the advisor replays it and advises the seat that must act) or one seat's view (as
``View.to_json`` writes it, recognised by its ``seat`` and ``history`` keys: the advisor checks it
and advises that seat). Everything printed is computed from that seat's view alone, so a hint for a
detective never shows where Dr. Factor really is.

The advising bot is the game's advisor unless another is named (:func:`bots.registry.advisor`: its
strongest bot at the default budget, ``ismcts`` or ``planner``). How long it thinks is a
:class:`~solver.search.ismcts.Budget` of either search iterations (reproducible: the same position,
bot, budget and seed give the same hint) or seconds of wall time (the number of simulations, and so
the hint, varies with the machine's speed and load). Bots that do not search (``heuristic``,
``random``) ignore the budget.

Every decision gets a ranking with reasons (:func:`resolve`): where a search bot leaves a decision
to its policy it says so itself (:attr:`bots.base.Advice.decided_by`), and where its search ran too
few simulations to tell the moves apart (fewer than :data:`MIN_VISITS` on its most visited move) the
game's policy (:func:`bots.registry.policy`) ranks the moves instead, the search's numbers added to
each reason. A ranking is thus never shown as a search result the search could not back.

What a game adds (its possible locations, posterior table, memory table, extra columns of the move
table) comes from the game's own hint module, ``bots/<game>/hint.py``, loaded by the game's name
(:func:`game_hint`); a game without one gets the generic hint. Such a module may define any of::

    role(game, view) -> str                   the seat's role in the first line (default "player")
    extras(game, view, advice, asked) -> Extras
                                              notes, lines, moves-table columns and key lines, and
                                              the advice as printed (annotated, shown entries removed)
    weights(game, view) -> {stop: probability} a board drawing's heat map (:func:`heat_weights`)
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final

from bots import registry
from bots.base import Advice, Bot, RankedAction
from bots.ismcts_bot import ISMCTSBot
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

#: The fewest simulations on its most visited move for a search to rank the moves (see :func:`resolve`):
#: below it a move's win estimate has a standard error above 0.1, too wide to order moves by.
MIN_VISITS: Final = 20
#: The command line's search time per hint when neither seconds nor iterations are given.
DEFAULT_SECONDS: Final = 1.0

_BELIEF_WIDTH: Final = 200  # other belief entries are printed up to this many characters
#: A table cell that does not apply to the move.
NONE: Final = "-"


# --- what a game's hint module gives --------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """One more column of the ranked-moves table: its header and a cell per action (others: ``-``)."""

    header: str
    cells: Mapping[Action, str]


@dataclass(frozen=True)
class Asked:
    """What the hint was asked for: the bot and its budget (None: the bot's default)."""

    bot: str
    budget: Budget | None = None


@dataclass(frozen=True)
class Extras:
    """What a game's hint module adds to the generic text (see the module docstring)."""

    #: the advice as printed: reasons annotated, the belief entries the lines show removed
    advice: Advice
    #: lines right under the advisor line (what the budget bought, for example)
    notes: tuple[str, ...] = ()
    #: lines before the remaining belief entries and the ranked moves
    lines: tuple[str, ...] = ()
    #: more columns of the ranked-moves table, after visits and win (or score)
    columns: tuple[Column, ...] = ()
    #: what those columns mean, for the key under the table
    key: tuple[str, ...] = field(default=())


def game_hint(game: Game) -> ModuleType | None:
    """The hint module of ``game`` (``bots.<name>.hint``), or None when the game has none."""
    name = f"bots.{game.name}.hint"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name in (name, f"bots.{game.name}"):
            return None
        raise  # the module exists but something it imports does not: a real fault


def _hook(game: Game, hook: str) -> Any:
    """The function ``hook`` of the game's hint module, or None."""
    module = game_hint(game)
    return None if module is None else getattr(module, hook, None)


def pct(x: float, digits: int = 0) -> str:
    """``x`` as a percentage with ``digits`` decimals (``0.25`` -> ``25%``)."""
    return f"{100.0 * x:.{digits}f}%"


def stops_text(n: int) -> str:
    """``1 stop`` or ``n stops``."""
    return "1 stop" if n == 1 else f"{n} stops"


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


def budget_options(game: Game, bot: str, budget: Budget | None) -> dict[str, Any]:
    """The bot options that set ``budget`` (none for a bot that does not search); ConfigError for a
    budget of both iterations and seconds. The hint's and the review's advisors are built with it."""
    if budget is None or not searches(game, bot):
        return {}
    if budget.iterations is not None and budget.seconds is not None:
        # a search bot's seconds option overrides its iterations: a hint must not drop one silently
        raise ConfigError("a hint's budget is iterations or seconds, not both")
    if budget.seconds is not None:
        return {"seconds": float(budget.seconds)}
    return {"iterations": budget.iterations}


def advise(
    game: Game, view: View, bot: str | None = None, budget: Budget | None = None, seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> Advice:
    """Ask bot ``bot`` (seeded with ``seed``; None: the game's advisor) to rank the moves of ``view``.

    The answer is :func:`resolve`'d: a search that could not tell the moves apart gives way to the
    game's policy, and says so.

    ``budget`` bounds a search bot: ``Budget(iterations=N)`` gives the same advice on every run,
    ``Budget(seconds=S)`` searches for S seconds of wall time, so its advice varies with the
    machine. None leaves the bot's own default (``ismcts``: 1000 iterations). A bot that does not
    search ignores it. ``options``: the bot's other options (``copsolver hint --opt``); one that
    sets the budget too is a ConfigError. Raises :class:`ConfigError` for an unknown bot, a budget
    that gives both iterations and seconds, or seconds outside the bot's range.
    """
    bot = bot or registry.advisor(game.name)
    chosen = budget_options(game, bot, budget)
    clash = sorted(set(chosen) & set(options or {}))
    if clash:
        raise ConfigError(f"option {clash[0]!r} is the hint's budget: give it as --{clash[0]}, not --opt")
    chosen.update(options or {})
    player = make(game, bot, seat=view.seat, rng=seed, **chosen)
    return resolve(game, view, player.advise(view), seed, player)


def searched(advice: Advice) -> bool:
    """True when ``advice`` ranks by a search's simulations (some move has a visit count)."""
    return any(r.visits is not None for r in advice.ranked)


def _policy_advice(game: Game, view: View, seed: int, player: Bot | None) -> Advice:
    """The ranking of the policy behind ``player`` (a search bot's own base, as it would play it),
    else of the game's policy (:func:`bots.registry.policy`, seeded with ``seed``); ``decided_by``
    names it."""
    if isinstance(player, ISMCTSBot):
        try:
            base = player.policy_ranking(view)
            return dataclasses.replace(base, decided_by=base.decided_by or player.policy().name)
        except NotImplementedError:  # a search bot with no policy of its own: the game's
            pass
    name = registry.policy(game.name)
    base = make(game, name, seat=view.seat, rng=seed).advise(view)
    return dataclasses.replace(base, decided_by=base.decided_by or name)


def resolve(game: Game, view: View, advice: Advice, seed: int = 0, player: Bot | None = None) -> Advice:
    """``advice`` as a front end should show it: unchanged when a bot's own rule or a search that
    backs it made it; a policy's ranking when a search could not tell the moves apart.

    A search ranks by visits; with fewer than :data:`MIN_VISITS` simulations on its most visited
    move the order is noise. Then the policy ranks the moves with its reasons: ``player``'s own
    (the base a pruned search keeps unless it resolves a better move), else the game's
    (:func:`bots.registry.policy`, seeded with ``seed``). Each move the search tried adds its
    numbers to its reason, and ``decided_by``/``note`` say what happened (the note keeps the
    search's summary: what its budget bought). Advice a bot already handed to its policy
    (``decided_by`` set) is returned as it is.
    """
    if advice.decided_by or not searched(advice):
        return advice
    visits = [r.visits or 0 for r in advice.ranked]
    top = max(visits, default=0)
    if top >= MIN_VISITS:
        return advice
    base = _policy_advice(game, view, seed, player)
    by_action = {r.action: r for r in advice.ranked}
    ranked = []
    for r in base.ranked:
        tried = by_action.get(r.action)
        if tried is not None and tried.visits and tried.value is not None:
            plural = "s" * (tried.visits != 1)
            extra = f"; the search: {tried.visits} simulation{plural}, win {tried.value:.0%}"
            r = dataclasses.replace(r, reason=r.reason + extra)
        ranked.append(r)
    total = sum(visits)
    note = (f"the search ran {total} simulation{'s' * (total != 1)}, {top} on its most visited move: too "
            f"few to tell the moves apart (a ranking needs {MIN_VISITS}); the {base.decided_by} policy "
            "ranks them, the search's numbers in the reasons")
    if advice.summary:
        note += f" (the search: {advice.summary})"
    belief = {**base.belief, **advice.belief}
    return Advice(advice.seat, tuple(ranked), belief, base.summary, decided_by=base.decided_by, note=note)


def describe_advisor(game: Game, view: View, bot: str | None, budget: Budget | None, seed: int) -> str:
    """One line naming the advising bot, its budget and seed, and whether the hint is reproducible
    (``bot`` None: the game's advisor, named as such)."""
    if bot is None:
        bot = registry.advisor(game.name)
        line = describe_advisor(game, view, bot, budget, seed)
        return line.replace(f"Advisor: {bot} bot", f"Advisor: {bot} bot (the default for {game.name})", 1)
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


# --- the text -------------------------------------------------------------------------------------


def heat_weights(game: Game, view: View) -> dict[int, float]:
    """The probabilities a board drawing shades (Police 07: where Dr. Factor may be); empty if none."""
    hook = _hook(game, "weights")
    return {} if hook is None else dict(hook(game, view))


def _role(game: Game, view: View) -> str:
    hook = _hook(game, "role")
    return "player" if hook is None else str(hook(game, view))


def _extras(game: Game, view: View, advice: Advice, asked: Asked | None) -> Extras:
    hook = _hook(game, "extras")
    if hook is None:
        return Extras(advice)
    extras = hook(game, view, advice, asked)
    if not isinstance(extras, Extras):  # a game module's fault, not the user's
        raise TypeError(f"bots.{game.name}.hint.extras returned {type(extras).__name__}, not Extras")
    return extras


def table(header: Sequence[str], rows: Sequence[Sequence[str]], left: frozenset[int]) -> list[str]:
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


def _moves_table(advice: Advice, columns: Sequence[Column]) -> list[str]:
    """The ranked moves as a table: rank, move, visits and win (or score), the game's columns, reason."""
    ranked: tuple[RankedAction, ...] = advice.ranked
    searched = any(r.visits is not None for r in ranked)
    total = sum(r.visits or 0 for r in ranked) or 1
    digits = len(str(len(ranked)))
    # rank and move share a column, one space apart ("  1. taxi 24"), the rank right-aligned
    header = [f"{'#':>{digits}}  move", *(("visits", "win") if searched else ("score",))]
    header += [c.header for c in columns]
    header.append("reason")
    rows = []
    for rank, r in enumerate(ranked, start=1):
        row = [f"{rank:>{digits}}. {r.text}"]
        if searched:
            visited = bool(r.visits)
            row.append(pct((r.visits or 0) / total, 1) if r.visits is not None else NONE)
            row.append(pct(r.value, 1) if visited and r.value is not None else NONE)
        else:
            row.append(f"{r.score:.2f}")
        row += [c.cells.get(r.action, NONE) for c in columns]
        row.append(r.reason)
        rows.append(row)
    return table(header, rows, left=frozenset({0}))  # the move; the numbers right


def format_advice(
    game: Game, view: View, advice: Advice, advisor: str = "", asked: Asked | None = None
) -> str:
    """The advice as text: who is to move, the advisor, the belief and the ranked moves explained.

    ``advisor`` (from :func:`describe_advisor`) is printed under the first line when given;
    ``asked`` lets the game's module say what the budget bought (see :func:`hint_text`).
    """
    lines = [f"{game.name}, seat {view.seat} ({_role(game, view)}) to act: {view.decision.prompt}"]
    extras = _extras(game, view, advice, asked)
    if advisor:
        lines.append(advisor)
        lines += extras.notes
    if advice.note:
        lines.append(f"Decided by the {advice.decided_by} policy: {advice.note}")
    lines += extras.lines
    advice = extras.advice
    for key, value in advice.belief.items():
        text = str(value)
        lines.append(f"{key}: {text if len(text) <= _BELIEF_WIDTH else text[:_BELIEF_WIDTH] + ' ...'}")
    lines.append("Ranked moves:")
    lines += ["  " + row for row in _moves_table(advice, extras.columns)]
    if advice.summary:
        lines.append(f"Summary: {advice.summary}")
    meaning: list[str] = []
    if any(r.visits is not None for r in advice.ranked):
        meaning.append(
            "  visits: the share of the search's simulations spent on the move; win: the search's "
            f"estimated chance that seat {view.seat} wins after it"
        )
    meaning += extras.key
    if meaning:
        lines += ["Key:", *meaning]
    return "\n".join(lines)


def hint_text(game: Game, view: View, advice: Advice, bot: str | None, budget: Budget | None, seed: int,
              options: Mapping[str, Any] | None = None) -> str:
    """The whole hint as ``copsolver hint`` prints it: the advisor line and :func:`format_advice`.

    ``advice`` is what :func:`advise` returned for the same ``bot``, ``budget``, ``seed`` and
    ``options`` (listed under the advisor line when given). Ends with a newline.
    """
    advisor = describe_advisor(game, view, bot, budget, seed)
    if options:
        advisor += "\nBot options: " + ", ".join(f"{k}={v}" for k, v in sorted(options.items()))
    asked = Asked(bot or registry.advisor(game.name), budget)
    return format_advice(game, view, advice, advisor, asked).rstrip("\n") + "\n"
