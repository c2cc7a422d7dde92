"""Police Precinct positions for tests: a set-up played with chosen outcomes, then fields set by hand.

The rule tables build a position in two steps: :func:`after_setup` plays the set-up (characters by
name, every chance node given a chosen or the first outcome), then the test puts the pieces where the
rule under test needs them (:func:`clear_board`, :func:`put`, :func:`to_action`) and applies actions
by their notation (:func:`act`). Expected values are always computed in the tests, by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from solver import games
from solver.core import CHANCE, TERMINAL
from solver.games.precinct.board import AT_BUILDING, AT_CROSSING, AT_HOOD, AT_STREET, Slot
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState

CHARS = ("Costello", "Kirkland", "Pearce", "Hartley", "Nakamura", "Alvarez", "Brody", "Okafor")


def load(players: int = 4, **options: Any) -> PrecinctGame:
    """The precinct game for ``players`` with ``options``."""
    game = games.load("precinct", players=players, **options)
    if not isinstance(game, PrecinctGame):
        raise TypeError("precinct loaded another game type")
    return game


def act(st: PrecinctState, text: str) -> None:
    """Apply the (checked) action written ``text``."""
    st.apply(st.game.str_to_action(text))


def legal_text(st: PrecinctState) -> list[str]:
    """The legal actions in notation."""
    return [st.game.action_to_str(a) for a in st.legal_actions()]


def outcomes(st: PrecinctState) -> dict[str, float]:
    """The chance node's outcomes by notation."""
    return {st.game.action_to_str(a): p for a, p in st.chance_outcomes()}


def head(st: PrecinctState) -> str:
    """The name of the task at the head of the queue ('' when the game is over)."""
    return str(st.todo[0][0]) if st.todo else ""


def after_setup(game: PrecinctGame, chars: Sequence[str] | None = None, marked: bool = True,
                choose: Callable[[PrecinctState], int] | None = None) -> PrecinctState:
    """The state at the first player's first decision, set up with characters ``chars`` (by name,
    in pick order), cars ``marked``, and ``choose(state)`` for each chance node (default: the
    first outcome)."""
    st = game.new_initial_state()
    chars = list(chars or CHARS)
    picks = iter(chars)
    while st.current_player() != TERMINAL:
        name = head(st)
        if name in ("turn_start", "start", "move", "action"):
            break
        if st.order and name not in ("deal_police", "setup_punk", "stack_block", "setup_emergency",
                                     "place_roll", "punk_roll", "resolve", "gang", "deal_loyalty"):
            break
        if st.current_player() == CHANCE:
            st.apply(choose(st) if choose else st.chance_outcomes()[0][0])
        elif name == "pick":
            act(st, f"pick {next(picks)}")
        elif name == "car":
            act(st, "car marked" if marked else "car unmarked")
        else:
            break
    return st


def clear_board(st: PrecinctState) -> None:
    """Remove every punk, gang, officer on the board, emergency, the Urgent! token; cars to the station;
    hands emptied (cards to the deck) and the queue emptied."""
    st.punk_supply += sum(st.punks)
    st.punks = [0] * 6
    st.gang_pool = sorted(st.gang_pool + [g for g in st.gangs if g >= 0])
    st.gangs = [-1] * 6
    st.patrol_stock += sum(st.patrol)
    st.patrol = [0] * 6
    for e, slot in enumerate(st.slots):
        if slot is not None:
            st.events_left[slot.card] += 1
            st.slots[e] = None
    st.urgent = -1
    for c in st.cops:
        for k in c.hand:
            st.police[k] += 1
        c.hand, c.fresh = [], []
        c.street = st.game.station
    st.todo = []
    st.ctx = {}


def street(st: PrecinctState, name: str) -> int:
    """A street's index by name."""
    return st.game.city.street_ids[name]


def put(st: PrecinctState, cop: int, street_name: str) -> None:
    """Put cop ``cop``'s car on street ``street_name``."""
    st.cops[cop].street = street(st, street_name)


def give(st: PrecinctState, cop: int, *names: str, fresh: bool = False) -> None:
    """Put police cards (by name) from the deck into ``cop``'s hand."""
    for name in names:
        k = st.game.police_names.index(name)
        st.police[k] -= 1
        st.cops[cop].hand.append(k)
        st.cops[cop].fresh.append(fresh)


def to_task(st: PrecinctState, cop: int, first: tuple[Any, ...], rest: bool = True) -> None:
    """Make it ``cop``'s turn with ``first`` at the head of the queue (then the turn's later phases)."""
    st.at = st.order.index(cop)
    st.ctx = {}
    tail = [("police_phase", cop), ("hand_limit", cop), ("event_phase", cop), ("end_turn", cop)]
    st.todo = [first, *(tail if rest else [])]


def to_action(st: PrecinctState, cop: int, rest: bool = True) -> None:
    """Make it ``cop``'s PHASE 2 (one action)."""
    to_task(st, cop, ("action", cop), rest)


def event_kind(st: PrecinctState, name: str) -> int:
    """An event card's kind by name."""
    return st.game.event_names.index(name)


def place(st: PrecinctState, e: int, name: str, where: str, unknown: int = -1, data: int = 0) -> Slot:
    """Put event card ``name`` in board slot ``e`` at ``where`` (a building, intersection, street or
    ``Bad Hood h``), taking it off the event deck."""
    city = st.game.city
    kind = event_kind(st, name)
    st.events_left[kind] -= 1
    if where in city.buildings:
        slot = Slot(kind, AT_BUILDING, city.buildings[where], where, unknown)
    elif where in city.intersection_ids:
        slot = Slot(kind, AT_CROSSING, city.intersection_ids[where], "", unknown)
    elif where.startswith("Bad Hood "):
        slot = Slot(kind, AT_HOOD, int(where.split()[-1]), "", unknown)
    else:
        slot = Slot(kind, AT_STREET, city.street_ids[where], "", unknown)
    st.serial += 1
    slot.serial = st.serial
    slot.data = data
    st.slots[e] = slot
    return slot


def play_random(game: PrecinctGame, seed: int, max_steps: int = 1_000_000,
                stop: Callable[[PrecinctState], bool] | None = None) -> tuple[PrecinctState, int]:
    """A uniformly random game (chance by its odds) until its end or ``stop``; (state, actions taken)."""
    rng = np.random.default_rng(seed)
    st = game.new_initial_state()
    steps = 0
    while not st.is_terminal() and steps < max_steps:
        if stop is not None and stop(st):
            break
        if st.current_player() == CHANCE:
            outs = st.chance_outcomes()
            if not outs:
                raise AssertionError(f"a chance node without outcomes: {st.todo[:2]}")
            p = np.array([q for _, q in outs])
            a = outs[int(rng.choice(len(outs), p=p / p.sum()))][0]
        else:
            legal = st.legal_actions()
            if not legal:
                raise AssertionError(f"a decision without options: {st.todo[:2]}")
            a = legal[int(rng.integers(len(legal)))]
        st.apply_unchecked(a)
        steps += 1
    return st, steps


def heuristic_position(game: PrecinctGame, seed: int, majors: int, seat: int | None = None,
                       minor: bool = False) -> PrecinctState:
    """A seeded game of ``heuristic`` bots stopped at the ``majors``-th major decision with a choice
    (the car's move or the turn's action) of ``seat`` (None: of any seat), or with ``minor`` at the
    first minor decision with a choice of that seat after it."""
    from bots.precinct.heuristic import PrecinctHeuristic
    from bots.precinct.ismcts import is_major

    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    team = [PrecinctHeuristic(game, s, np.random.default_rng([seed, s])) for s in range(game.num_players)]
    seen = 0
    while not st.is_terminal():
        p = st.current_player()
        if p == CHANCE:
            out = st.chance_outcomes()
            st.apply(out[rng.choice(len(out), p=[q for _, q in out])][0])
            continue
        legal = st.legal_actions()
        if (seat is None or p == seat) and len(legal) > 1:
            if is_major(legal):
                seen += 1
                if seen == majors and not minor:
                    return st
            elif minor and seen >= majors:
                return st
        st.apply(team[p].step(st.view(p)))
    raise AssertionError("the game ended first")
