"""Every registered game against the conformance suite, at its default density (issue 20 item 8).

The cases are a function of the registry (:func:`conformance_cases`): every game of
``solver.games.names()``, every player count its spec allows, and the variants its spec declares
(:func:`variants`: each boolean option on, each other choice of a choice option, all boolean options on
together). A game gets these runs by registering; ``test_a_registered_toy_game_is_picked_up`` checks
that with the toy game of ``tests/toygame.py``.

``check_game`` keeps its default density (every second state deep-checked, two resamples per seat,
eight actions tried on clones) and is bounded only by how many games and how many states of each are
deep-checked. The fast run checks each game at its default player count, in every variant, on the
first 60 states of one game; the slow run checks every player count in every variant, on whole games
unless :data:`SLOW_DEPTH` says a game's are too long (the depths the per-game files had). Checks a
game needs beyond these (Police 07 on a small board file) stay in its own test file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

import solver.games
from solver._accel import TWINS
from solver.core import ConfigError
from solver.core.spec import GameSpec
from solver.testing import CheckReport, check_game
from tests.markers import NOTHING_HIDDEN, compiled_pass_only

#: The fast run: one game per case, the first this many states deep-checked (the game is still
#: played to its end with the cheap checks).
FAST_DEEP_STATES = 60

#: The slow run's bounds per game (whole games by default): a whole 8-player GCBC game at the default
#: density takes over 7 minutes, and a LineUp game has some 2,000 states, too long to repeat for every
#: configuration in CI. These are the depths the per-game conformance files used.
SLOW_DEPTH: dict[str, dict[str, int]] = {
    "gcbc": {"games": 1, "deep_states": 150},
    "lineup": {"games": 1, "deep_states": 250},
    # a 2-player game at the default density takes 40 s; 8 players with the Dirty Cop some minutes
    "precinct": {"games": 1, "deep_states": 150},
    # a whole 5-player game at the default density takes about a minute
    "escape": {"games": 1},
}
SLOW_DEFAULT: dict[str, int] = {"games": 2}

#: What a game's own conformance runs asserted besides the generic checks, kept from its old file.
EXTRA: dict[str, tuple[str, Callable[[CheckReport], bool]]] = {
    "gcbc": ("response windows were reached", lambda report: report.response_nodes > 0),
}


@dataclass(frozen=True)
class Case:
    """One conformance run: a game, its player count and options, and how far to check it."""

    game: str
    players: int
    variant: str
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    games: int = 1
    deep_states: int | None = None

    @property
    def id(self) -> str:
        return f"{self.game}-{self.players}p-{self.variant}"


def variants(spec: GameSpec) -> list[tuple[str, dict[str, Any]]]:
    """``plain`` and the variants ``spec`` declares as data, as (name, options).

    Each boolean option turned on, each non-default choice of an option with choices, and (when
    there are two or more) all boolean options on together. Options that name files are content, not
    variants: a game tests its own content files.
    """
    out: list[tuple[str, dict[str, Any]]] = [("plain", {})]
    flags = [name for name, opt in spec.options.items() if opt.kind is bool and not opt.file]
    for name, opt in spec.options.items():
        if opt.file:
            continue
        if opt.kind is bool:
            out.append((name, {name: not opt.default}))
        elif opt.choices is not None:
            out += [(f"{name}={choice}", {name: choice}) for choice in opt.choices if choice != opt.default]
    if len(flags) > 1:
        out.append(("all", {name: not spec.options[name].default for name in flags}))
    return out


def conformance_cases(thorough: bool, names: list[str] | None = None) -> list[Case]:
    """The conformance runs over the registry (``names``, default: every registered game).

    Fast (``thorough=False``): each game at its default player count, in each variant, on the first
    :data:`FAST_DEEP_STATES` states of one game. Thorough: every player count from ``min_players``
    to ``max_players``, in each variant, as deep as :data:`SLOW_DEPTH` allows (whole games by
    default). Seeds are the player count (fast) and 100 + the player count (thorough), as before.
    """
    cases: list[Case] = []
    for name in solver.games.names() if names is None else names:
        spec = solver.games.spec(name)
        counts = range(spec.min_players, spec.max_players + 1) if thorough else [spec.default_players]
        for players in counts:
            for variant, options in variants(spec):
                if not _playable(name, players, options):
                    continue  # a variant the game refuses at this count (the Dirty Cop below 3)
                if thorough:
                    depth = SLOW_DEPTH.get(name, SLOW_DEFAULT)
                    cases.append(Case(name, players, variant, options, seed=100 + players, **depth))
                else:
                    cases.append(Case(name, players, variant, options, seed=players,
                                      deep_states=FAST_DEEP_STATES))
    return cases


def _playable(name: str, players: int, options: Mapping[str, Any]) -> bool:
    """Whether the game accepts ``options`` at ``players`` (a refused one is no conformance case)."""
    try:
        solver.games.load(name, players=players, **options)
    except ConfigError:
        return False
    return True


def run_case(case: Case) -> CheckReport:
    """Run ``check_game`` at its default density on ``case`` and check what its report must show."""
    game = solver.games.load(case.game, players=case.players, **case.options)
    report = check_game(game, seed=case.seed, games=case.games, deep_states=case.deep_states)
    assert report.games == case.games
    # the density is kept: every second state of the deep-checked stretch (and the terminal one)
    if case.deep_states is None:
        assert report.deep_checks >= report.states // 2, report
    elif case.games == 1:
        assert report.deep_checks >= min(report.states, case.deep_states) // 2, report
    if (case.game, case.players) not in NOTHING_HIDDEN:
        assert report.resamples_varied > 0, "views must hide something for resample to vary"
    extra = EXTRA.get(case.game)
    if extra is not None:
        assert extra[1](report), f"{case.id}: expected {extra[0]}: {report}"
    return report


def compiled_rules(name: str) -> bool:
    """True when game ``name``'s rules run compiled kernels (a twin of one is in its package)."""
    return any(module.startswith(f"solver.games.{name}.") for twin in TWINS.values() for module in twin.pure)


def _params(cases: list[Case], thorough: bool = False) -> Iterator[Any]:
    for case in cases:
        # a slow run of Python-only rules is the same in the pure pass: run it in the compiled pass only
        marks = [compiled_pass_only] if thorough and not compiled_rules(case.game) else []
        yield pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", list(_params(conformance_cases(thorough=False))))
def test_check_game(case: Case) -> None:
    run_case(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", list(_params(conformance_cases(thorough=True), thorough=True)))
def test_check_game_thorough(case: Case) -> None:
    run_case(case)


# --- the parametrisation follows the registry -------------------------------------------------------
def test_every_game_player_count_and_variant_is_covered() -> None:
    fast, thorough = conformance_cases(False), conformance_cases(True)
    for name in solver.games.names():
        spec = solver.games.spec(name)
        declared = {variant for variant, _ in variants(spec)}
        assert {c.variant for c in fast if c.game == name} == declared
        assert {c.players for c in fast if c.game == name} == {spec.default_players}
        # every count and variant the game accepts (the Dirty Cop needs three players)
        assert {(c.players, c.variant) for c in thorough if c.game == name} == {
            (p, v) for p in range(spec.min_players, spec.max_players + 1) for v, options in variants(spec)
            if _playable(name, p, options)
        }
    assert ("precinct", 2, "dirty_cop") not in {(c.game, c.players, c.variant) for c in thorough}


def test_police07_variants_are_the_rulebook_variants() -> None:
    """The variants read off Police 07's spec are those its old conformance file listed by hand."""
    got = dict(variants(solver.games.spec("police07")))
    assert got == {
        "plain": {},
        "voluntary_show": {"voluntary_show": True},
        "unlimited_tickets": {"unlimited_tickets": True},
        "free_start": {"free_start": True},
        "all": {"voluntary_show": True, "unlimited_tickets": True, "free_start": True},
    }
    assert dict(variants(solver.games.spec("gcbc"))) == {"plain": {}, "deck=4th": {"deck": "4th"}}
    # Police 07's and (since issue 35) GCBC's rules have compiled twins; LineUp's are Python only
    assert [compiled_rules(name) for name in ("police07", "gcbc", "lineup")] == [True, True, False]


def test_a_registered_toy_game_is_picked_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registering a game is all it takes: the same functions give it every player count, and it passes."""
    monkeypatch.setitem(solver.games.GAMES, "hidden_pass", "tests.toygame")
    spec = solver.games.spec("hidden_pass")
    fast = [c for c in conformance_cases(False) if c.game == "hidden_pass"]
    thorough = [c for c in conformance_cases(True) if c.game == "hidden_pass"]
    assert [c.players for c in fast] == [spec.default_players]
    assert sorted({c.players for c in thorough}) == list(range(spec.min_players, spec.max_players + 1))
    for case in fast + [c for c in thorough if c.players in (spec.min_players, spec.max_players)]:
        run_case(case)
