"""A hint at every seat decision of every game, at any budget (issue 34, item 1).

Seeded games of all five titles are played by seeded bots (``heuristic`` in every seat; in LineUp a
``random`` seat too, which lands on Lucky Break spaces the heuristic walks past), and the default
advisor of each game is asked for a hint at their seat decisions through :func:`bots.hint.advise` and
:func:`bots.hint.hint_text`, once with an iteration budget and once with a time budget.

Every hint must answer: a ranking of every legal action (no other, none twice), each with a reason,
the best one legal; ``decided_by`` set (with a note, and printed) exactly when the ranking is not the
advisor's own work, and a ranking without it never a search that could not tell the moves apart
(fewer than :data:`bots.hint.MIN_VISITS` simulations on its most visited move); and the same
iteration-budget hint twice is the same hint.

The fast part advises at the first decision of each kind (:func:`kind`) of each game, with small
budgets; the slow part at every decision, with the command line's default budget.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bots
from bots import hint, registry
from bots.base import Advice
from bots.cli import main
from bots.registry import bots_for
from bots.replays import read_replay
from solver import games
from solver.core import Game, View, referee
from solver.search.ismcts import Budget

#: the advising bot's seed
SEED = 5
#: small budgets for the fast part: a search, and a time budget too short for most searches
ITERATIONS = Budget(iterations=6)
SECONDS = Budget(seconds=0.01)


# --- the games -----------------------------------------------------------------------------------


def first_words(game: Game, view: View) -> tuple[Any, ...]:
    """A decision's kind: the first words of its legal actions' texts (``taxi``, ``pass``, ``play``)
    and whether it has only one."""
    words = sorted({game.action_to_str(a).split()[0] for a in view.legal_actions})
    return (*words, len(view.legal_actions) == 1)


def police07_kind(game: Game, view: View) -> tuple[Any, ...]:
    """Dr. Factor's decisions apart from the detectives'."""
    return (getattr(view, "role", None), *first_words(game, view))


def precinct_kind(game: Game, view: View) -> tuple[Any, ...]:
    """The two searched decisions (the car's move, the turn's action) as one kind each, the minor
    ones by their words; each for a good cop and for the dirty cop."""
    from bots.precinct.ismcts import is_major
    from solver.games.precinct import codec

    loyalty = view.to_json().get("my_loyalty")
    if is_major(view.legal_actions):
        move = any(codec.block_of(a)[0] == codec.MOVE for a in view.legal_actions)
        return (loyalty, "car move" if move else "action", len(view.legal_actions) == 1)
    return (loyalty, *first_words(game, view))


@dataclass(frozen=True)
class Case:
    """A seeded game: its title, options, seed, the bots that play it and the kinds of decision."""

    name: str
    options: tuple[tuple[str, Any], ...]
    seed: int
    kind: Callable[[Game, View], tuple[Any, ...]] = first_words
    #: seats played by ``random`` instead of ``heuristic``
    random_seats: tuple[int, ...] = ()

    @property
    def id(self) -> str:
        """The case's pytest id."""
        opts = "-".join(f"{k}={v}" for k, v in self.options)
        return f"{self.name}-{opts}-seed{self.seed}"


CASES = [
    Case("police07", (("players", 4),), 1, police07_kind),
    Case("police07", (("players", 3), ("free_start", True)), 2, police07_kind),
    Case("gcbc", (("players", 6),), 3),
    Case("lineup", (("players", 2),), 3, random_seats=(0,)),
    Case("precinct", (("players", 4), ("dirty_cop", True)), 11, precinct_kind),
    Case("escape", (("players", 2),), 1),
    Case("escape", (("players", 3),), 2),
]


@cache
def decisions(case: Case) -> tuple[Game, tuple[View, ...]]:
    """The game of ``case`` and the view of every seat decision of its seeded game, in order."""
    game = games.load(case.name, **dict(case.options))
    seated = {s: bots.make(game, "random" if s in case.random_seats else "heuristic", seat=s,
                           rng=case.seed + s) for s in range(game.num_players)}
    views: list[View] = []

    def act(state: Any, seat: int) -> int:
        view = state.view(seat)
        views.append(view)
        return seated[seat].step(view)

    end = referee.play_out(game.new_initial_state(), act, np.random.default_rng(case.seed))
    assert end.is_terminal()
    return game, tuple(views)


def one_of_each_kind(case: Case) -> tuple[Game, list[View]]:
    """The first decision of each kind of ``case``'s game."""
    game, views = decisions(case)
    firsts: dict[tuple[Any, ...], View] = {}
    for view in views:
        firsts.setdefault(case.kind(game, view), view)
    return game, list(firsts.values())


# --- what every hint must be ------------------------------------------------------------------------


def check_advice(game: Game, view: View, advice: Advice, asked: str, text: str, where: str) -> None:
    """The properties every hint has (module docstring); ``asked``: the bot asked."""
    legal = view.legal_actions
    actions = [r.action for r in advice.ranked]
    assert actions, f"{where}: an empty ranking"
    assert len(actions) == len(set(actions)), f"{where}: a move ranked twice"
    assert set(actions) == set(legal), f"{where}: ranks {sorted(actions)}, legal {sorted(legal)}"
    assert all(r.reason.strip() for r in advice.ranked), f"{where}: a move without a reason"
    assert advice.best.action in legal and advice.seat == view.seat
    if advice.decided_by:
        # another policy's ranking: named, explained, printed
        assert advice.decided_by in bots_for(game.name) and advice.decided_by != asked, where
        assert advice.note.strip(), f"{where}: decided by {advice.decided_by} without a note"
        assert f"Decided by the {advice.decided_by} policy: {advice.note}" in text, where
    else:
        assert not advice.note, f"{where}: a note without decided_by"
        visits = [r.visits for r in advice.ranked if r.visits is not None]
        # the bot's own search ranking: backed by enough simulations
        assert not visits or max(visits) >= hint.MIN_VISITS, f"{where}: {visits}"
    assert "Ranked moves:" in text and text.endswith("\n")
    assert text.splitlines()[0].startswith(f"{game.name}, seat {view.seat} ")


def hint_at(game: Game, view: View, budget: Budget | None, where: str, *, again: bool = False,
            bot: str | None = None) -> Advice:
    """The hint of ``bot`` (None: the game's advisor) at ``view``, checked; with ``again`` it is asked
    twice and must be the same."""
    advice = hint.advise(game, view, bot=bot, budget=budget, seed=SEED)
    text = hint.hint_text(game, view, advice, bot, budget, SEED)
    check_advice(game, view, advice, bot or registry.advisor(game.name), text, where)
    if again:
        twin = hint.advise(game, view, bot=bot, budget=budget, seed=SEED)
        assert twin == advice, f"{where}: the same iteration budget gave another hint"
        assert hint.hint_text(game, view, twin, bot, budget, SEED) == text
    return advice


# --- the fast part ----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_hint_at_every_kind_of_decision(case: Case) -> None:
    """The default advisor at the first decision of each kind, with an iteration budget (twice, the
    same hint) and a time budget."""
    game, views = one_of_each_kind(case)
    assert len(views) >= 5  # the game has kinds to cover
    searching = hint.searches(game, registry.advisor(game.name))
    for view in views:
        where = f"{case.id}, {view.decision.prompt!r}"
        first = hint_at(game, view, ITERATIONS, f"{where}, {ITERATIONS}", again=searching)
        timed = hint_at(game, view, SECONDS, f"{where}, {SECONDS}")
        if not searching:  # a planner takes no budget: the time budget's hint is the same hint again
            assert timed == first, where


#: the search bots that are not their game's advisor, and the advisors' own other decisions
OTHER_SEARCHERS = [
    ("police07", "nw2012"), ("gcbc", "rollout"), ("lineup", "ismcts"), ("precinct", "rhea"),
    ("escape", "ismcts"),
]


@pytest.mark.parametrize(("name", "bot"), OTHER_SEARCHERS, ids=[f"{n}-{b}" for n, b in OTHER_SEARCHERS])
def test_every_search_bot_answers_at_the_smallest_budgets(name: str, bot: str) -> None:
    """A search bot answers wherever it plays, at one iteration and at 10 ms (the decisions of one
    seeded game, a few of each kind)."""
    case = next(c for c in CASES if c.name == name)
    game, views = one_of_each_kind(case)
    assert hint.searches(game, bot)
    for view in views[:12]:
        where = f"{case.id}, {bot}, {view.decision.prompt!r}"
        hint_at(game, view, Budget(iterations=1), f"{where}, 1 iteration", again=True, bot=bot)
        hint_at(game, view, Budget(seconds=0.01), f"{where}, 10 ms", bot=bot)


def test_a_lone_legal_move_is_ranked_alone_without_a_search() -> None:
    game, views = decisions(CASES[2])  # gcbc, 6 players: most windows hold only a pass
    view = next(v for v in views if len(v.legal_actions) == 1)
    advice = hint_at(game, view, ITERATIONS, "a lone move")
    assert not advice.decided_by and advice.ranked[0].visits is None
    assert "the only legal move" in advice.ranked[0].reason and "no time" not in advice.summary


def test_a_search_ranks_the_moves_it_did_not_try_after_the_others_with_why() -> None:
    """gcbc's ismcts prunes the root to the heuristic's best 4: the other moves follow, each with the
    heuristic's reason and why the search did not try it."""
    game, views = decisions(CASES[2])
    view = next(v for v in views if len(v.legal_actions) > 8 and "announces" in v.decision.prompt)
    player = bots.make(game, "ismcts", seat=view.seat, rng=1, iterations=12)
    advice = player.advise(view)
    assert {r.action for r in advice.ranked} == set(view.legal_actions)
    tried = [r for r in advice.ranked if r.visits]
    untried = advice.ranked[len(tried):]
    assert tried and untried and all(not r.visits for r in untried)
    assert all(r.reason.startswith("not searched: pruned (the search tries only the heuristic's best 4)")
               for r in untried)
    heuristic = [r.action for r in bots.make(game, "heuristic", seat=view.seat, rng=1, estimate="posterior")
                 .advise(view).ranked]
    assert [r.action for r in untried] == [a for a in heuristic if a in {r.action for r in untried}]


def test_an_iteration_budget_never_blames_the_time() -> None:
    """With one candidate after pruning (``prune=1``) the bot does not search; the note says so, not
    that the time ran out (an iteration budget has no clock)."""
    game, views = decisions(CASES[2])
    view = next(v for v in views if len(v.legal_actions) > 8 and "announces" in v.decision.prompt)
    advice = bots.make(game, "ismcts", seat=view.seat, rng=1, iterations=50, prune=1).advise(view)
    assert advice.decided_by == "heuristic" and "one candidate move after pruning" in advice.note
    assert "time" not in advice.note and "time" not in advice.summary


def test_precinct_minor_decisions_are_the_heuristics_and_say_why() -> None:
    """Help windows, card plays, the turn's start: ismcts leaves them to the heuristic (window_share
    0) at every budget, and the hint is the heuristic's ranking."""
    case = next(c for c in CASES if c.name == "precinct")
    game, views = one_of_each_kind(case)
    from bots.precinct.ismcts import is_major

    minor = [v for v in views if not is_major(v.legal_actions) and len(v.legal_actions) > 1]
    assert any("help" in first_words(game, v) for v in minor)
    for view in minor[:6]:
        for budget in (Budget(iterations=100), Budget(seconds=0.02), None):
            advice = hint.advise(game, view, budget=budget, seed=SEED)
            assert advice.decided_by == "heuristic" and "window_share 0" in advice.note
            policy = bots.make(game, "heuristic", seat=view.seat, rng=SEED).advise(view)
            assert [r.action for r in advice.ranked] == [r.action for r in policy.ranked]
            assert [r.reason for r in advice.ranked] == [r.reason for r in policy.ranked]


# --- the command line, at the plies issue 34 names --------------------------------------------------


@pytest.fixture(scope="module")
def precinct_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Issue 34's Police Precinct game: 4 players with the Dirty Cop, seed 11."""
    path = tmp_path_factory.mktemp("hint") / "r.jsonl"
    assert main(["play", "precinct", "--players", "4", "--dirty-cop", "--seed", "11", "--replay", str(path),
                 "--quiet"]) == 0
    return path


@pytest.mark.parametrize("ply", [48, 51])
def test_cli_hint_at_the_plies_the_issue_names(precinct_replay: Path, ply: int,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``copsolver hint precinct REPLAY --ply N`` with the defaults (1 s of search) answers; at a
    minor decision the heuristic's ranking, saying why. (Failed with "seconds must be a finite
    number > 0, not 0.0" before.)"""
    capsys.readouterr()
    assert main(["hint", "precinct", str(precinct_replay), "--ply", str(ply)]) == 0
    out = capsys.readouterr().out
    state = read_replay(precinct_replay, stop_after=ply).state
    seat = state.current_player()
    assert seat >= 0, "the issue's ply is a seat decision"
    legal = state.legal_actions()
    from bots.precinct.ismcts import is_major

    lines = out.splitlines()
    assert lines[0].startswith(f"precinct, seat {seat} ")
    table = lines[lines.index("Ranked moves:") + 2:]  # after the header row
    rows = table[:next(i for i, line in enumerate(table) if not re.match(r"^ +\d+\. ", line))]
    assert len(rows) == len(legal)  # every legal move ranked
    if not is_major(legal) and len(legal) > 1:
        assert "Decided by the heuristic policy: a minor decision" in out


# --- the slow part ------------------------------------------------------------------------------------


def every_decision(case: Case, budget: Budget, limit: int | None = None) -> int:
    """Advise at every decision of ``case`` (the first ``limit``): the number advised."""
    game, views = decisions(case)
    chosen: Sequence[View] = views if limit is None else views[:limit]
    for i, view in enumerate(chosen):
        hint_at(game, view, budget, f"{case.id}, decision {i}, {view.decision.prompt!r}, {budget}")
    return len(chosen)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_hint_at_every_decision_with_the_default_budget(case: Case) -> None:
    """Every seat decision of each seeded game (90 to 440 a game, every kind of the fast part's and
    all their repeats) with the command line's default budget, 1 s of search
    (:data:`bots.hint.DEFAULT_SECONDS`; the planners of escape and lineup take no budget): about 7
    minutes of work in all (escape at 3 players, precinct and police07 the longest, 1.5 minutes
    each), under 4 minutes with ``-n 2``."""
    assert every_decision(case, Budget(seconds=hint.DEFAULT_SECONDS)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_hint_at_every_decision_with_an_iteration_budget(case: Case) -> None:
    """Every seat decision of each seeded game with a small iteration budget (6: most searches give
    way to the policy, which must then say so), each hint asked twice and the same."""
    game, views = decisions(case)
    for i, view in enumerate(views):
        hint_at(game, view, Budget(iterations=6), f"{case.id}, decision {i}, {view.decision.prompt!r}",
                again=True)
