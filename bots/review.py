"""A review of a whole game: every decision of the chosen seats against the advisor's best move.

For every decision of a reviewed seat, from that seat's view alone, the advisor
(:func:`bots.hint.advise`) names its best move, and the rollout evaluator of :mod:`bots.evaluate`
estimates the seat's win chance (Escape Plan: its expected score) after the played move and after
the best one on the same drawn worlds; their difference is the loss, and a loss over the thresholds
of :class:`Thresholds` (and over :attr:`Thresholds.errors` standard errors, so that noise is not
marked) is marked. Decisions with a single legal move are counted, not reviewed. Per seat a
summary: moves that matched the advisor, the biggest losses, and where the seat's belief was
furthest from the truth.

What reads what. The advisor and the evaluator are handed the seat's view at the decision, the
seat's own move there and a seed derived from the review's seed, the seat and the decision's index
among that seat's decisions (:func:`bots.evaluate.derive_seed`); so a review of seat N is the same
whatever seat N could not see.

An advisor that remembers. A bot whose :meth:`~bots.base.Bot.memory_to_json` is not None once
restarted keeps memory between decisions (LineUp's bots: the card a seat studied, which no later
view holds). Such an advisor is built once per reviewed seat (seeded from the review's seed and the
seat), restarted with the seat's first view, informed of every event the seat sees and shown every
decision of the seat in order, the single-move ones too, with the move the seat played (the game's
review hook ``follow(bot, view, action)``, else the bot's own ``step``): what it remembers is what
the seat saw. Its advice at a reviewed decision is its own, and the game's hook
``advisor_belief(bot, view)`` turns its memory into a belief for the evaluator's worlds
(:func:`bots.evaluate.compare`'s ``belief``). Only the seat's views, events and moves reach it.

The belief gap alone reads the replay's truth, the full state at the decision, by design: it
compares the seat's belief with it (a game's ``bots/<game>/review.py`` hook ``belief_gap(game,
view, truth) -> Gap | None``; a game without one has nothing to compare). It fills
:attr:`DecisionReview.gap` and :attr:`SeatSummary.furthest` and nothing else;
``Review.to_json(truth=False)`` leaves both out.

A game's review module (``bots/<game>/review.py``) may also give ``READING`` (a
:class:`bots.evaluate.Reading`: its unit, value reading, evaluator options and defaults) and
``THRESHOLDS`` (a :class:`Thresholds` in that unit); without them :data:`bots.evaluate.READINGS`
and :data:`THRESHOLDS` apply.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bots import evaluate, hint, registry
from bots.base import Advice, Bot
from bots.evaluate import derive_seed
from solver.core import Action, ConfigError, Game, State, View
from solver.search.ismcts import Budget


@dataclass(frozen=True)
class Gap:
    """How far a seat's belief at one decision was from the truth: ``distance`` (larger: further;
    its unit is the game's, named in ``text``) and one line saying it in words."""

    distance: float
    text: str

    def to_json(self) -> dict[str, Any]:
        """The gap as JSON."""
        return {"distance": _num(self.distance), "text": self.text}


@dataclass(frozen=True)
class Thresholds:
    """Losses from which a move is marked: inaccuracy, mistake, blunder (in the game's unit); the
    loss must also exceed ``errors`` standard errors of its estimate."""

    inaccuracy: float
    mistake: float
    blunder: float
    errors: float = 2.0

    def mark(self, loss: float, se: float) -> str:
        """The mark of a move that lost ``loss`` (signed; a gain is never marked) with error ``se``."""
        loss = max(loss, 0.0)
        if loss <= self.errors * se:
            return ""
        for name, floor in (("blunder", self.blunder), ("mistake", self.mistake),
                            ("inaccuracy", self.inaccuracy)):
            if loss >= floor:
                return name
        return ""

    def to_json(self) -> dict[str, Any]:
        """The thresholds as JSON."""
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder,
                "errors": self.errors}


#: Thresholds by unit: a win chance lost (5, 10, 20 points), and Escape Plan's score in thousands of
#: dollars (15, 30, 60: 5, 10 and 20% of a typical escaped score of ~$300k).
THRESHOLDS: Final[Mapping[str, Thresholds]] = {
    "win chance": Thresholds(0.05, 0.10, 0.20),
    "score": Thresholds(15.0, 30.0, 60.0),
}


@dataclass(frozen=True)
class DecisionReview:
    """One reviewed decision. ``loss`` is ``value_best - value_played`` (signed), ``se`` its paired
    standard error; ``index`` counts the seat's decisions before this one (all of them, single-move
    ones too); ``decided_by`` names the policy that ranked the advice when its bot did not."""

    ply: int
    seat: int
    prompt: str
    played: str
    best: str
    value_played: float
    value_best: float
    loss: float
    se: float
    mark: str  # "", "inaccuracy", "mistake" or "blunder"
    gap: Gap | None = None
    index: int = 0
    decided_by: str = ""

    @property
    def matched(self) -> bool:
        """True when the move played is the advisor's best."""
        return self.played == self.best

    def to_json(self, truth: bool = True) -> dict[str, Any]:
        """The decision as JSON (``truth`` False: without the belief gap, the one part that read
        the replay's hidden facts)."""
        out = {
            "ply": self.ply, "seat": self.seat, "index": self.index, "prompt": self.prompt,
            "played": self.played, "best": self.best, "matched": self.matched,
            "value_played": _num(self.value_played), "value_best": _num(self.value_best),
            "loss": _num(self.loss), "se": _num(self.se), "mark": self.mark, "decided_by": self.decided_by,
        }
        if truth:
            out["gap"] = None if self.gap is None else self.gap.to_json()
        return out


@dataclass(frozen=True)
class SeatSummary:
    """One seat's summary: decisions reviewed, how many matched the advisor, the (up to three)
    biggest losses, the decision whose belief was furthest from the truth, and the decisions with
    a single legal move that were skipped."""

    seat: int
    decisions: int
    matched: int
    biggest: tuple[DecisionReview, ...]
    furthest: DecisionReview | None = None
    skipped: int = 0

    def to_json(self, truth: bool = True) -> dict[str, Any]:
        """The summary as JSON (decisions named by ply; ``truth`` False: without ``furthest``)."""
        out: dict[str, Any] = {
            "seat": self.seat, "decisions": self.decisions, "matched": self.matched,
            "skipped": self.skipped,
            "biggest": [{"ply": d.ply, "played": d.played, "best": d.best, "loss": _num(d.loss),
                         "mark": d.mark} for d in self.biggest],
        }
        if truth:
            far = self.furthest
            gap = None if far is None or far.gap is None else {"ply": far.ply, **far.gap.to_json()}
            out["furthest"] = gap
        return out


@dataclass(frozen=True)
class Review:
    """A whole review: its settings, the decisions in order, a summary per seat; ``stopped`` when
    it was cancelled before the end."""

    game: str
    unit: str  # "win chance" or "score"
    decisions: tuple[DecisionReview, ...]
    summaries: tuple[SeatSummary, ...]
    settings: dict[str, Any] = field(default_factory=dict)
    thresholds: Thresholds | None = None
    stopped: bool = False

    def to_json(self, truth: bool = True) -> dict[str, Any]:
        """The review as JSON (``copsolver review --json``, the protocol's ``review`` reply).
        ``truth`` False leaves out the belief gaps, the one part that read the replay's hidden facts."""
        return {
            "game": self.game, "unit": self.unit, "settings": self.settings,
            "thresholds": None if self.thresholds is None else self.thresholds.to_json(),
            "stopped": self.stopped,
            "decisions": [d.to_json(truth) for d in self.decisions],
            "summaries": [s.to_json(truth) for s in self.summaries],
        }


def _num(x: float) -> float | None:
    """A number for JSON (None for one that is not finite)."""
    return round(x, 6) if math.isfinite(x) else None


#: progress(done, total): called after each reviewed decision
Progress = Callable[[int, int], None]
#: each(view, advice, decision): called after each reviewed decision (``copsolver review --svg-dir``)
Each = Callable[[View, Advice, DecisionReview], None]


def thresholds_for(game: Game | str) -> Thresholds:
    """The game's thresholds: its review module's ``THRESHOLDS``, else :data:`THRESHOLDS` by unit."""
    own = getattr(evaluate.game_review(game), "THRESHOLDS", None)
    if isinstance(own, Thresholds):
        return own
    return THRESHOLDS.get(evaluate.reading(game).unit, THRESHOLDS["win chance"])


@dataclass(frozen=True)
class _Pending:
    """A decision to review as its seat knew it: where, whose, the seat's view and own move."""

    ply: int
    seat: int
    index: int
    view: View
    action: Action
    #: the remembering advisor's advice and belief here (None: ask a fresh advisor, no belief)
    advice: Advice | None = None
    belief: Any = None


#: follow(bot, view, action): show a remembering advisor the seat's decision and the move played
Follow = Callable[[Bot, View, Action], None]
#: advisor_belief(bot, view): the evaluator's belief from a remembering advisor's memory
AdvisorBelief = Callable[[Bot, View], Any]


@dataclass
class _Advisors:
    """The remembering advisors of the reviewed seats (module docstring), and how to read them."""

    bots: dict[int, Bot]
    seeds: dict[int, int]
    follow: Follow | None = None
    belief: AdvisorBelief | None = None
    informed: int = 0

    def advise(self, game: Game, seat: int, view: View) -> tuple[Advice, Any]:
        """The seat's advisor's advice at ``view`` (resolved as a hint's) and its belief."""
        bot = self.bots[seat]
        advice = hint.resolve(game, view, bot.advise(view), self.seeds[seat], bot)
        return advice, None if self.belief is None else self.belief(bot, view)

    def show(self, seat: int, view: View, action: Action) -> None:
        """Show the seat's advisor its decision and the move the seat played there."""
        bot = self.bots.get(seat)
        if bot is None:
            return
        if self.follow is not None:
            self.follow(bot, view, action)
        else:
            bot.step(view)

    def inform(self, state: State) -> None:
        """Tell every advisor the events since the last call that its seat may see, in order."""
        for event in state.events[self.informed:]:
            for seat, bot in self.bots.items():
                if event.visible(seat):
                    bot.inform(event)
        self.informed = len(state.events)


def _advisors(game: Game, name: str, seats: tuple[int, ...], options: Mapping[str, Any], seed: int
              ) -> _Advisors:
    """A remembering advisor per seat in ``seats``; none when the bot keeps no memory."""
    hook = evaluate.game_review(game)
    follow, belief = getattr(hook, "follow", None), getattr(hook, "advisor_belief", None)
    start = game.new_initial_state()
    out = _Advisors({}, {}, follow if callable(follow) else None, belief if callable(belief) else None)
    for seat in seats:
        bot_seed = derive_seed(seed, seat, "advisor")
        bot = registry.make(game, name, seat=seat, rng=bot_seed, **options)
        bot.restart(start.view(seat))
        if bot.memory_to_json() is None:
            return _Advisors({}, {})
        out.bots[seat], out.seeds[seat] = bot, bot_seed
    return out


def _seats(game: Game, seats: Sequence[int] | None) -> tuple[int, ...]:
    if seats is None:
        return tuple(range(game.num_players))
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
            raise ConfigError(f"review: seat {seat!r} is not a seat of this game (0..{game.num_players - 1})")
    return tuple(sorted(set(seats)))


def _plies(plies: tuple[int, int | None] | None) -> tuple[int, float]:
    if plies is None:
        return 0, math.inf
    start, stop = plies
    if start < 0 or (stop is not None and stop <= start):
        shown = "" if stop is None else stop
        raise ConfigError(f"review: plies {start}:{shown} is not a range A:B with 0 <= A < B")
    return start, math.inf if stop is None else stop


def _decisions(game: Game, actions: Sequence[Action], seats: tuple[int, ...], plies: tuple[int, float],
               truth: bool, advisors: _Advisors | None = None,
               ) -> tuple[list[tuple[_Pending, State | None]], dict[int, int]]:
    """The decisions to review, in order, each with the full state there when ``truth`` (for the
    belief gap alone), and per seat the single-move decisions skipped. ``advisors``' bots are shown
    every decision and event of their seats on the way, and advise at the decisions to review.

    Replays ``actions`` with the rules' checks (an illegal one raises IllegalActionError).
    """
    state = game.new_initial_state()
    pending: list[tuple[_Pending, State | None]] = []
    skipped = dict.fromkeys(seats, 0)
    index = dict.fromkeys(range(game.num_players), 0)
    for ply, action in enumerate(actions):
        seat = state.current_player()
        if seat >= 0:
            if seat in skipped and plies[0] <= ply < plies[1]:
                legal = state.legal_actions()
                if len(legal) > 1:
                    view = state.view(seat)
                    item = _Pending(ply, seat, index[seat], view, action)
                    if advisors is not None and seat in advisors.bots and action in legal:
                        advice, belief = advisors.advise(game, seat, view)
                        item = dataclasses.replace(item, advice=advice, belief=belief)
                    pending.append((item, state.clone() if truth else None))
                else:
                    skipped[seat] += 1
            if advisors is not None and seat in advisors.bots and action in state.legal_actions():
                advisors.show(seat, state.view(seat), action)
            index[seat] += 1
        state.apply(action)  # checked: an action after the end or an illegal one raises
        if advisors is not None:
            advisors.inform(state)
    return pending, skipped


def review_game(
    game: Game,
    actions: Sequence[Action],
    *,
    seats: Sequence[int] | None = None,
    bot: str | None = None,
    budget: Budget | None = None,
    seed: int = 0,
    worlds: int | None = None,
    options: dict[str, Any] | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    plies: tuple[int, int | None] | None = None,
    each: Each | None = None,
) -> Review:
    """Review the game played by ``actions`` (a replay's whole action list) for ``seats`` (None:
    all). ``cancelled()`` true ends the review early: the decisions reviewed so far are returned.

    ``bot`` advises (None: the game's advisor) with ``budget`` (None: the game's review default,
    :attr:`bots.evaluate.Reading.iterations`, else the bot's own) and ``options``; ``worlds``
    (None: the game's default) worlds per decision go to the evaluator. ``plies=(A, B)`` reviews
    the decisions at plies A..B-1 only (B None: to the end); their seeds are those of a whole
    review. Raises ConfigError for a seat, bot, budget, option or range that does not fit, and
    IllegalActionError for actions the rules refuse.
    """
    chosen = _seats(game, seats)
    read = evaluate.reading(game)
    worlds = evaluate.check_worlds(read.worlds if worlds is None else worlds)
    name = bot or registry.advisor(game.name)
    if name not in registry.bots_for(game.name):
        raise ConfigError(f"review: unknown bot {name!r} for {game.name}; "
                          f"available: {', '.join(registry.bots_for(game.name))}")
    clash = sorted({"iterations", "seconds"} & set(options or {}))
    if clash:
        raise ConfigError(f"review: option {clash[0]!r} is the advisor's budget: give it as the budget "
                          f"(--{clash[0]}), not as a bot option")
    if budget is None and read.iterations is not None and hint.searches(game, name):
        budget = Budget(iterations=read.iterations)
    table = registry.bots_for(game.name)[name].options
    options = {**{k: v for k, v in read.advisor.items() if k in table}, **(options or {})}
    marks = thresholds_for(game)
    gap_hook = getattr(evaluate.game_review(game), "belief_gap", None)
    window = _plies(plies)
    advisors = _advisors(game, name, chosen, {**hint.budget_options(game, name, budget), **options}, seed)
    pending, skipped = _decisions(game, actions, chosen, window, callable(gap_hook), advisors)
    done: list[DecisionReview] = []
    stopped = False
    for item, truth in pending:
        if cancelled is not None and cancelled():
            stopped = True
            break
        advice = item.advice or hint.advise(game, item.view, bot=name, budget=budget, options=options,
                                            seed=derive_seed(seed, item.seat, item.index, "advisor"))
        decision = _review_one(game, item, advice, worlds, seed, read, marks)
        if callable(gap_hook) and truth is not None:
            # the one place the replay's truth is read: the belief gap (module docstring)
            gap = gap_hook(game, item.view, truth)
            decision = dataclasses.replace(decision, gap=gap)
        done.append(decision)
        if each is not None:
            each(item.view, advice, decision)
        if progress is not None:
            progress(len(done), len(pending))
    settings = {
        "bot": name, "budget": _budget_json(budget, game, name), "seed": seed, "worlds": worlds,
        "seats": list(chosen), "options": dict(options or {}),
        "plies": None if plies is None else [plies[0], plies[1]],
    }
    summaries = tuple(summarise(seat, done, skipped[seat]) for seat in chosen)
    return Review(game.name, read.unit, tuple(done), summaries, settings, marks, stopped)


def _review_one(game: Game, item: _Pending, advice: Advice, worlds: int, seed: int,
                read: evaluate.Reading, marks: Thresholds) -> DecisionReview:
    """One decision from the seat's view, move and derived seed (never the truth)."""
    best = advice.best.action
    result = evaluate.compare(game, item.view, item.action, best, worlds=worlds,
                              seed=derive_seed(seed, item.seat, item.index, "evaluate"),
                              options=read.options, outcome=read.outcome, belief=item.belief)
    return DecisionReview(
        item.ply, item.seat, item.view.decision.prompt, game.action_to_str(item.action),
        game.action_to_str(best), result.value_played, result.value_best, result.loss, result.se,
        marks.mark(result.loss, result.se), index=item.index, decided_by=advice.decided_by,
    )


def _budget_json(budget: Budget | None, game: Game, bot: str) -> dict[str, Any] | None:
    """The advisor's budget as JSON: None for a bot that does not search; the bot's own default
    iterations when none was given."""
    if not hint.searches(game, bot):
        return None
    if budget is None:
        return {"iterations": registry.bots_for(game.name)[bot].options["iterations"].default}
    if budget.seconds is not None:
        return {"seconds": budget.seconds}
    return {"iterations": budget.iterations}


def summarise(seat: int, decisions: Sequence[DecisionReview], skipped: int = 0) -> SeatSummary:
    """The summary of ``seat`` over ``decisions`` (any seats'; only its own count)."""
    own = [d for d in decisions if d.seat == seat]
    losing = sorted((d for d in own if d.loss > 0.0), key=lambda d: (-d.loss, d.ply))
    gaps = [d for d in own if d.gap is not None]
    furthest = max(gaps, key=lambda d: (d.gap.distance if d.gap else 0.0, -d.ply), default=None)
    return SeatSummary(seat, len(own), sum(d.matched for d in own), tuple(losing[:3]), furthest, skipped)


# --- the text ---------------------------------------------------------------------------------


def show(unit: str, x: float) -> str:
    """A value or loss in ``unit``: a win chance as a percentage, a score with one decimal."""
    if not math.isfinite(x):
        return "-"
    return hint.pct(x, 1) if unit == "win chance" else f"{x:.1f}"


def _header(review: Review) -> list[str]:
    s = review.settings
    budget = s.get("budget")
    if budget is None:
        thinking = "no search"
    elif "seconds" in budget:
        thinking = f"{budget['seconds']:g} s a decision (a time budget: not reproducible)"
    else:
        thinking = f"{budget['iterations']} iterations a decision"
    lines = [f"Review of {review.game}: advisor {s.get('bot')} ({thinking}), evaluator {s.get('worlds')} "
             f"worlds a decision, seed {s.get('seed')}"]
    t = review.thresholds
    if t is not None:
        lines.append(f"Marks (loss in {review.unit}, and above {t.errors:g} standard errors): inaccuracy "
                     f"{show(review.unit, t.inaccuracy)}, mistake {show(review.unit, t.mistake)}, "
                     f"blunder {show(review.unit, t.blunder)}")
    return lines


def _seat_lines(review: Review, summary: SeatSummary, name: str) -> list[str]:
    unit = review.unit
    own = [d for d in review.decisions if d.seat == summary.seat]
    skipped = f", {summary.skipped} with a single legal move skipped" if summary.skipped else ""
    lines = ["", f"Seat {summary.seat} ({name}): {summary.decisions} decisions reviewed{skipped}"]
    if own:
        after = "win after" if unit == "win chance" else "score after"
        rows = [[str(d.ply), d.played, d.best, show(unit, d.value_played), show(unit, d.value_best),
                 f"{show(unit, d.loss)} ± {show(unit, d.se)}", d.mark or "-"] for d in own]
        header = ["ply", "played", "best", f"{after} played", f"{after} best", "loss", "mark"]
        lines += ["  " + row for row in hint.table(header, rows, left=frozenset({1, 2}))]
    lines.append(f"  Matched the advisor: {summary.matched} of {summary.decisions}")
    if summary.biggest:
        parts = [f"ply {d.ply} {d.played} ({show(unit, d.loss)}{', ' + d.mark if d.mark else ''})"
                 for d in summary.biggest]
        lines.append("  Biggest losses: " + "; ".join(parts))
    far = summary.furthest
    if far is not None and far.gap is not None:
        lines.append(f"  Belief furthest from the truth: ply {far.ply}: {far.gap.text}")
    return lines


def review_text(review: Review, names: Callable[[int], str] | None = None) -> str:
    """The review as ``copsolver review`` prints it: settings, thresholds, a table per seat and its
    summary lines (``names(seat)`` names a seat, e.g. "detective 1"). Ends with a newline."""
    lines = _header(review)
    for summary in review.summaries:
        lines += _seat_lines(review, summary, names(summary.seat) if names else f"seat {summary.seat}")
    if review.stopped:
        lines += ["", "The review was stopped before the end."]
    return "\n".join(lines) + "\n"

