"""LineUp: many seeded random games, and what views may hold.

``check_game`` (solver/testing.py) runs on every player count (2-6) in tests/test_conformance.py,
over the registry. The random-game runs check the rules' own invariants in every state (every
Suspect and Lucky Break card is in exactly one place, counts stay in 3..10, hands hold at most 3,
the winner has four scenes) and that no view holds a face-down card's identity outside its study
moment. The 10,000-game run is marked ``slow``.
"""

from __future__ import annotations

import copy
import json
import time
from collections import Counter
from typing import Any

import numpy as np
import pytest

import solver.games
from solver.core import BadStateError
from solver.games.lineup.turn import Phase
from solver.testing import random_game as play_random
from tests.markers import compiled_pass_only

PLAYERS = [2, 3, 4, 5, 6]


# --- many random games ----------------------------------------------------------------------------
def check_invariants(state: Any) -> None:
    """What must hold in every state of every game (read off the true state)."""
    game, n = state.game, state.game.num_players
    for scene, ids in enumerate(game.cards):
        places = list(state.unseen[scene]) + list(state.returned[scene])
        places += [c for seat in range(n) for s, c in state.held[seat] + state.identified[seat] if s == scene]
        if state.phase in (Phase.INNOCENT, Phase.GUILTY, Phase.PICK) and state.scene == scene:
            places += state.stands if state.phase == Phase.PICK else [*state.stands, state.suspect[1]]
        assert sorted(places) == list(range(len(ids))), f"scene {scene}: cards {sorted(places)}"
    lucky = [u + r + sum(h[k] for h in state.hand)
             for k, (u, r) in enumerate(zip(state.lucky_unseen, state.lucky_returned, strict=True))]
    assert lucky == list(game.lucky.counts)
    assert all(3 <= c <= 10 for c in state.count) and all(sum(h) <= 3 for h in state.hand)


def random_game(game: Any, rng: np.random.Generator, every: int = 1) -> Any:
    state = play_random(game, rng, check_invariants, every, max_steps=50_000)
    check_end(state)
    return state


def check_end(state: Any) -> None:
    n = state.game.num_players
    if state.winner >= 0:
        assert len({s for s, _ in state.identified[state.winner]}) == 4
        assert all(len({s for s, _ in state.identified[p]}) < 4 for p in range(n) if p != state.winner)
        assert state.returns() == [1.0 if s == state.winner else -1.0 for s in range(n)]
    else:
        assert state.returns() == [0.0] * n


def play_many(games: int, seed: int, every: int = 7) -> Counter[str]:
    tally: Counter[str] = Counter()
    for i, seq in enumerate(np.random.SeedSequence(seed).spawn(games)):
        players = PLAYERS[i % len(PLAYERS)]
        state = random_game(solver.games.load("lineup", players=players), np.random.default_rng(seq),
                            every=1 if i < 20 else every)
        tally["won" if state.winner >= 0 else "nobody"] += 1
        kinds = Counter(e.kind for e in state.events)
        tally["lucky played"] += kinds["LuckyPlayed"]
        tally["right"] += sum(1 for e in state.events if e.kind == "LineupResult" and e.correct)
        tally["wrong"] += sum(1 for e in state.events if e.kind == "LineupResult" and not e.correct)
    return tally


def test_random_games_quick() -> None:
    tally = play_many(200, seed=2026, every=25)
    assert tally["won"] + tally["nobody"] == 200 and tally["won"] > 0
    assert tally["right"] and tally["wrong"] and tally["lucky played"]


@pytest.mark.slow
@compiled_pass_only
def test_ten_thousand_random_games() -> None:
    begin = time.perf_counter()
    tally = play_many(10_000, seed=7, every=50)
    assert tally["won"] + tally["nobody"] == 10_000
    print(f"\n10,000 random games in {time.perf_counter() - begin:.0f}s: {dict(tally)}")


def test_same_seed_same_game() -> None:
    game = solver.games.load("lineup", players=4)
    a = random_game(game, np.random.default_rng(5), every=100)
    b = random_game(game, np.random.default_rng(5), every=100)
    assert a.to_json() == b.to_json() and a.returns() == b.returns()


# --- hidden information ---------------------------------------------------------------------------
def test_no_view_holds_a_face_down_card_outside_its_study_moment() -> None:
    """A card drawn from the never-seen part is named in no view until a lineup shows it, except in
    its own seat's view during the study (or Another Look) moment."""
    for players, seed in ((2, 1), (4, 2), (6, 3)):
        game = solver.games.load("lineup", players=players)
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        shown: set[str] = set()
        studied = 0
        while not state.is_terminal() and len(state.history) < 900:
            legal = state.legal_actions()
            if len(state.history) % 7 and state.phase != Phase.STUDY:  # views are dear on long histories
                state.apply(legal[int(rng.integers(len(legal)))])
                continue
            shown |= {c for e in state.events if e.kind == "LineupShown" for c in e.stands}
            secret = {game.cards[s][c] for seat in range(players) for s, c in state.held[seat]} - shown
            for seat in range(players):
                text = json.dumps(state.view(seat).to_json())
                allowed = set()
                if state.phase == Phase.STUDY and seat == state.active:
                    allowed = {game.cards[s][c] for s, c in [state.held[seat][state.studying]]}
                    studied += 1
                assert not [c for c in secret - allowed if f'"{c}"' in text], (seat, state.history[-5:])
            state.apply(legal[int(rng.integers(len(legal)))])
        assert studied > 0


def test_resample_forgets_the_seats_own_face_down_card() -> None:
    game = solver.games.load("lineup", players=3)
    state = game.new_initial_state()
    for text in ("roll", "die 5", "move wharf", "draw wharf-09"):
        state.apply_str(text)
    moment = state.view(0)
    drawn = {tuple(game.resample(moment, np.random.default_rng(i)).held[0]) for i in range(5)}
    assert drawn == {((5, 8),)}  # during the study the card is known
    state.apply_str("study")
    after = state.view(0)
    drawn = {tuple(game.resample(after, np.random.default_rng(i)).held[0]) for i in range(40)}
    assert len(drawn) > 5  # afterwards it is any wharf card


def test_belief_places_the_guilty_card() -> None:
    game = solver.games.load("lineup", players=2)
    state = game.new_initial_state()
    for text in ("roll", "die 5", "move wharf", "draw wharf-09", "study", "roll", "die 1", "move 19",
                 "roll", "die 5", "move station", "lineup 1", "innocent wharf-01", "innocent wharf-02",
                 "innocent wharf-03", "guilty 3"):
        state.apply_str(text)
    view = state.view(0)
    assert [s["card"] for s in view.to_json()["lineup"]["stands"]] == [
        "wharf-01", "wharf-02", "wharf-09", "wharf-03"]
    for i in range(5):
        drawn = game.resample(view, np.random.default_rng(i), {"guilty": [0, 0, 1, 0]})
        assert drawn.guilty == 2
    guesses = {game.resample(view, np.random.default_rng(i)).guilty for i in range(30)}
    assert guesses == {0, 1, 2, 3}  # without a memory, any stand


def test_view_from_json_rejects_what_no_game_shows() -> None:
    game = solver.games.load("lineup", players=2)
    state = game.new_initial_state()
    for text in ("roll", "die 5", "move wharf", "draw wharf-09", "study"):
        state.apply_str(text)
    data = state.view(0).to_json()
    assert game.view_from_json(copy.deepcopy(data)) == state.view(0)
    peek = copy.deepcopy(data)
    peek["studying"] = {"held": 1, "scene": "wharf", "card": "wharf-09", "features": {}}
    with pytest.raises(BadStateError, match="'studying'"):
        game.view_from_json(peek)
    with pytest.raises(BadStateError, match="seat"):
        game.view_from_json(dict(data, seat=5))
    with pytest.raises(BadStateError):
        game.view_from_json(dict(data, history=[[0, "fly away", []]]))
