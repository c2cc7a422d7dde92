"""Police Precinct views: what a seat sees never holds another seat's secrets, and resampling a view
gives a world with that same view.

Random seeded 4-player games, with and without the Dirty Cop, are checked at every state: no other
seat's police card names (beyond those discarded face up), no loyalty card before it is shown to the
seat, no other seat's investigation draw, look or event peek; two states that differ only in another
seat's hand look the same to the seat; ``game.resample(view, rng)`` rebuilds a state with that view.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from solver.core import CHANCE
from solver.games.precinct.state import PrecinctState
from tests.precinct_positions import load

GAMES = [(False, 11), (False, 12), (True, 21), (True, 22)]
PRIVATE = ("InvestigationSeen", "Looked", "EventSeen")


def states(dirty: bool, seed: int, limit: int = 5000) -> Iterator[PrecinctState]:
    """Every state of a uniformly random 4-player game (chance by its odds), the initial one first."""
    game = load(4, dirty_cop=dirty)
    rng = np.random.default_rng(seed)
    st = game.new_initial_state()
    for _ in range(limit):
        yield st
        if st.is_terminal():
            return
        if st.current_player() == CHANCE:
            outs = st.chance_outcomes()
            p = np.array([q for _, q in outs])
            action = outs[int(rng.choice(len(outs), p=p / p.sum()))][0]
        else:
            legal = st.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        st.apply(action)


def _leaves(data: Any, skip: tuple[str, ...]) -> Iterator[str]:
    """Every string in a JSON value (keys too), skipping the top-level keys ``skip``."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k in skip:
                continue
            yield str(k)
            yield from _leaves(v, ())
    elif isinstance(data, list | tuple):
        for v in data:
            yield from _leaves(v, ())
    elif isinstance(data, str):
        yield data


def secrets_kept(st: PrecinctState, seat: int) -> list[str]:
    """What of other seats' secrets the view of ``seat`` shows (empty when none)."""
    game = st.game
    data = st.view(seat).to_json()
    police = set(game.police_names)
    mine = {i for i, c in enumerate(st.cops) if c.seat == seat}
    own = {game.police_names[k] for i in mine for k in st.cops[i].hand}
    public = set(data["police_discard"])
    faults = []
    named = police & set(_leaves(data, ("hand", "history", "legal_actions")))
    if named - public:
        faults.append(f"police card names outside the hand: {sorted(named - public)}")
    for text in data["legal_actions"]:
        word, _, rest = text.partition(" ")
        if word in ("play", "help", "discard") and rest not in own:
            faults.append(f"a legal action names a card the seat does not hold: {text}")
    if sorted(h["card"] for h in data["hand"]) != sorted(game.police_names[k] for i in mine
                                                         for k in st.cops[i].hand):
        faults.append("the hand is not the seat's own")
    roll = data["roll"]
    if roll and "cards" in roll and st.cops[roll["cop"]].seat != seat:
        faults.append("another seat's investigation draw in the roll")
    for p, shown in enumerate(data["loyalty"]):
        if shown is not None and not st.revealed[p]:
            faults.append(f"seat {p}'s loyalty shown to all before it was revealed")
    for k, (actor, text, events) in enumerate(data["history"]):
        kinds = {e["kind"] for e in events}
        for e in events:
            owner = st.cops[e["cop"]].seat if "cop" in e else None
            if e["kind"] == "CardDrawn" and owner != seat and e["card"] != "?":
                faults.append(f"step {k}: another seat's card drawn: {e['card']}")
            if e["kind"] in PRIVATE and owner != seat:
                faults.append(f"step {k}: another seat's {e['kind']}")
            if e["kind"] == "LoyaltyShown" and e["seat"] != seat and not (
                    st.revealed[e["seat"]] or e["seat"] in st.peeks[seat]):
                faults.append(f"step {k}: seat {e['seat']}'s loyalty card")
        word, _, rest = text.partition(" ")
        if word == "police" and rest != "?" and not any(
                e["kind"] == "CardDrawn" and st.cops[e["cop"]].seat == seat for e in events):
            faults.append(f"step {k}: another seat's police draw reads {text!r}")
        if word == "found" and rest != "?" and "InvestigationSeen" not in kinds:
            faults.append(f"step {k}: another seat's investigation draw reads {text!r}")
        if word == "looked" and rest != "?" and "Looked" not in kinds:
            faults.append(f"step {k}: another seat's look reads {text!r}")
        if word == "loyalty" and rest in ("good", "dirty") and not any(
                e["kind"] == "LoyaltyShown" and e["seat"] == seat for e in events):
            faults.append(f"step {k}: another seat's loyalty deal reads {text!r}")
        if text in ("claim useless", "evidence first", "evidence last") and actor != seat:
            faults.append(f"step {k}: another seat's hidden choice reads {text!r}")
    return faults


@pytest.mark.parametrize("dirty,seed", GAMES)
def test_views_keep_other_seats_secrets(dirty: bool, seed: int) -> None:
    checked = 0
    for st in states(dirty, seed):
        for seat in range(4):
            faults = secrets_kept(st, seat)
            assert not faults, f"step {len(st.history)}, seat {seat}: {faults[:3]}"
        checked += 1
    assert checked > 50


def test_the_check_finds_a_leak() -> None:
    # the checker must be able to fail: another seat's draw told to the whole table is caught
    from solver.games.precinct.events import CardDrawn

    st = next(s for s in states(False, 11) if s.order and s.cops[1].hand)
    assert not secrets_kept(st, 0)
    st.events.append(CardDrawn(1, st.game.police_names[st.cops[1].hand[0]]))
    assert any("another seat's card drawn" in f for f in secrets_kept(st, 0))


def _swap_hand_card(st: PrecinctState, cop: int) -> PrecinctState | None:
    """A copy of ``st`` with one card of ``cop``'s hand exchanged for another kind still in the deck."""
    c = st.cops[cop]
    if not c.hand:
        return None
    k = c.hand[0]
    other = next((j for j, n in enumerate(st.police) if n and j != k), None)
    if other is None:
        return None
    twin = st.clone()
    twin.cops[cop].hand[0] = other
    twin.police[other] -= 1
    twin.police[k] += 1
    return twin


@pytest.mark.parametrize("dirty,seed", GAMES[::2])
def test_another_seats_hand_does_not_change_the_view(dirty: bool, seed: int) -> None:
    compared = 0
    for n, st in enumerate(states(dirty, seed)):
        if n % 7 or not st.order:
            continue
        for cop, c in enumerate(st.cops):
            twin = _swap_hand_card(st, cop)
            if twin is None:
                continue
            for seat in range(4):
                if seat == c.seat:
                    assert twin.view(seat).to_json() != st.view(seat).to_json()  # its owner sees it
                else:
                    assert twin.view(seat).to_json() == st.view(seat).to_json(), (n, cop, seat)
                    assert twin.view(seat).key() == st.view(seat).key()
            compared += 1
    assert compared > 20


@pytest.mark.parametrize("dirty,seed", GAMES)
def test_resample_gives_a_state_with_the_same_view(dirty: bool, seed: int) -> None:
    game = load(4, dirty_cop=dirty)
    sampled = 0
    for n, st in enumerate(states(dirty, seed)):
        if n % 37:
            continue
        for seat in range(4):
            view = st.view(seat)
            world = game.resample(view, np.random.default_rng(1000 * n + seat))
            assert world.view(seat).to_json() == view.to_json(), (n, seat)
            sampled += 1
    assert sampled >= 8
