"""The compiled Good Cop Bad Cop rules (``ext/gcbc_sim.pyx``) against the Python rules.

Lockstep runs: a Python :class:`GCBCState` and a compiled ``GCBCRulesSim`` take the same actions
from the state before the deal. At every step they must agree on the player to act, the legal
actions (order included), the chance outcomes with bit-identical probabilities and every rules field
(``state_dict`` against :func:`py_state_dict` here); at the end on the payoffs. Actions are chosen
uniformly at random, by a card-biased mix (a play rather than ``pass`` half the time, so every
Equipment card is reached), or by the ``heuristic`` bot at every seat. Coverage is counted: every
Effect, every PICK purpose and every window kind must have been exercised, so losing one fails.

Beyond the rules the compiled state keeps what a search needs: ``know`` (each seat's knowledge of
every Integrity card: -1 or the true card, and covering every card the seat's view shows),
``aimed``, ``shot``, and the information-set ``key`` (equal keys exactly when the seat's views are
equal: checked on worlds resampled from one view). ``from_actions`` (how the search converts a
Python world) must give the lockstep sim's state, knowledge and keys.

The compiled module is imported directly, so the comparison runs even under
``COPSOLVER_PUREPYTHON=1`` whenever it has been built; the tests skip, saying why, when it is not.
"""

from __future__ import annotations

import copy
import importlib
import json
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import solver.games
from bots.gcbc.heuristic import HeuristicBot
from solver.core import CHANCE, InvalidActionError
from solver.core.files import read_shipped
from solver.games.gcbc import actions, codec, effects, flow, ops, rules
from solver.games.gcbc.deal import INTEGRITY_NAMES
from solver.games.gcbc.equipment import Effect, Timing
from solver.games.gcbc.events import Arranged, Investigated, PolygraphSeen
from solver.games.gcbc.view import view_from_history


def _import_compiled() -> ModuleType | None:
    try:
        return importlib.import_module("solver._ext.gcbc_sim")
    except ImportError:
        return None


gcbc_sim = _import_compiled()
pytestmark = pytest.mark.skipif(gcbc_sim is None, reason="solver._ext.gcbc_sim is not built")

DECKS = ("rulebook", "4th")
#: the ops modules' PICK purposes and window kinds, read from ops.py so a new one must be covered
PICK_PURPOSES = frozenset(range(len(ops.PICK_NAMES)))
WINDOW_KINDS = frozenset(range(len(ops.WINDOW_NAMES)))


# --- the Python side of state_dict ------------------------------------------------------------------
def py_state_dict(st: rules.GCBCState) -> dict[str, Any]:
    """Every rules field of a GCBCState in the layout of ``GCBCRulesSim.state_dict``."""
    return {
        "cards": [[int(c) for c in cards] for cards in st.cards],
        "face_up": [[bool(f) for f in up] for up in st.face_up],
        "alive": list(st.alive),
        "wounded": list(st.wounded),
        "inverted": list(st.inverted),
        "gun": list(st.gun),
        "aim": list(st.aim),
        "guns_centre": st.guns_centre,
        "honest_left": st.honest_left,
        "crooked_left": st.crooked_left,
        "hands": [list(h) for h in st.hands],
        "unseen": list(st.unseen),
        "bottom": list(st.bottom),
        "bottom_known": [None if k is None else sorted(k) for k in st.bottom_known],
        "turn": st.turn,
        "active": st.active,
        "base": st.base,
        "direction": st.direction,
        "extra_turns": list(st.extra_turns),
        "next_turn": st.next_turn,
        "announced": st.announced,
        "forced_shoot": st.forced_shoot,
        "camera": [[t, p] for t, p in st.camera],
        "winner": st.winner,
        "winners": list(st.winners),
        "reason": st.reason,
        "stack": [list(t) + [0] * (5 - len(t)) for t in st.stack],  # entries padded to 5 ints
    }


# --- driving games ------------------------------------------------------------------------------------
def _chance(st: rules.GCBCState, rng: np.random.Generator) -> int:
    outcomes = st.chance_outcomes()
    probs = np.array([p for _, p in outcomes])
    return int(outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0])


def choose(st: rules.GCBCState, rng: np.random.Generator, mode: str,
           bots: list[HeuristicBot] | None = None) -> int:
    """The next action: chance by its probabilities; a decision by ``mode``."""
    seat = st.current_player()
    if seat == CHANCE:
        return _chance(st, rng)
    legal = st.legal_actions()
    if mode == "heuristic" and bots is not None:
        return int(bots[seat].step(st.view(seat)))
    if mode == "cards" and len(legal) > 1 and legal[0] == codec.PASS and rng.random() < 0.5:
        return int(legal[1 + int(rng.integers(len(legal) - 1))])  # play rather than pass
    return int(legal[int(rng.integers(len(legal)))])


def note_coverage(st: rules.GCBCState, action: int, coverage: Counter[tuple[str, Any]]) -> None:
    """Count the decision kinds and cards one step exercises."""
    top = st.stack[-1]
    if top[0] == ops.PICK:
        coverage["pick", top[2]] += 1
    elif top[0] == ops.WINDOW:
        coverage["window", top[1]] += 1
    if top[0] in (ops.WINDOW, ops.ANNOUNCE) and codec.is_play(action):
        card, _ = codec.decode_play(action)
        coverage["effect", st.game.equipment.cards[card].effect] += 1


def assert_same(st: rules.GCBCState, sim: Any, where: str) -> None:
    """The Python state and the compiled sim agree on everything the rules define."""
    assert sim.current_player() == st.current_player(), where
    assert sim.legal_actions() == st.legal_actions(), where
    assert sim.is_terminal() == st.is_terminal(), where
    if st.current_player() == CHANCE:
        assert sim.chance_outcomes() == st.chance_outcomes(), where  # exact floats
    else:
        assert sim.chance_outcomes() == [], where
    assert sim.state_dict() == py_state_dict(st), where


def assert_knowledge(st: rules.GCBCState, sim: Any, where: str) -> None:
    """know is -1 or the truth, and covers every card each seat's view shows."""
    for v in range(st.n):
        know = sim.know(v)
        players = view_from_history(st, v, [], []).to_json()["players"]
        for s in range(st.n):
            for p in range(3):
                k = know[s][p]
                if p < len(st.cards[s]):
                    assert k in (-1, st.cards[s][p]), f"{where}: seat {v} 'knows' {s}.{p} wrongly"
                    cards = players[s]["cards"]  # empty for the others while the deal lasts
                    shown = cards[p]["card"] if p < len(cards) else None
                    if shown is not None:
                        assert k == INTEGRITY_NAMES.index(shown), f"{where}: seat {v} misses {s}.{p}"
                else:
                    assert k == -1, f"{where}: seat {v} knows a card beyond seat {s}'s hand"


def lockstep(game: rules.GCBCGame, seed: int, mode: str, coverage: Counter[tuple[str, Any]],
             knowledge: bool = False, replays: int = 0) -> int:
    """Play one game in lockstep; return its number of steps. ``knowledge``: check know at every
    step; ``replays``: compare from_actions with the lockstep sim at that many random steps."""
    assert gcbc_sim is not None
    rng = np.random.default_rng(seed)
    st = game.new_initial_state()
    sim = gcbc_sim.GCBCRulesSim(game)
    bots = None
    if mode == "heuristic":
        bots = [HeuristicBot(game, s, np.random.default_rng([seed, s])) for s in range(game.num_players)]
    replay_at = set(rng.integers(0, 300, size=replays).tolist())
    steps = 0
    while True:
        where = f"{game.config()} seed {seed} {mode} step {steps}"
        assert_same(st, sim, where)
        if knowledge:
            assert_knowledge(st, sim, where)
        if steps in replay_at or (replays and st.is_terminal()):
            assert_replay_equal(game, st, sim, where)
        if st.is_terminal():
            break
        action = choose(st, rng, mode, bots)
        note_coverage(st, action, coverage)
        st.apply(action)
        sim.apply(action)
        steps += 1
    assert sim.payoffs() == st.returns()
    assert sim.returns() == [1.0 if r > 0 else 0.0 for r in st.returns()]
    coverage["games", mode] += 1
    return steps


def assert_replay_equal(game: rules.GCBCGame, st: rules.GCBCState, sim: Any, where: str) -> None:
    """from_actions(history) is the lockstep sim: rules fields, knowledge, aims, shots, keys."""
    assert gcbc_sim is not None
    other = gcbc_sim.GCBCRulesSim.from_actions(game, st.history)
    assert other.state_dict() == sim.state_dict(), where
    for v in range(st.n):
        assert other.know(v) == sim.know(v), where
        assert other.key(v) == sim.key(v), where
    assert other.aimed() == sim.aimed() and other.shot() == sim.shot(), where


def games_plan(count: int, modes: tuple[str, ...], seed: int) -> list[tuple[int, str, int, str]]:
    """(players, deck, seed, mode) for ``count`` games over every player count, deck and mode."""
    return [(4 + i % 5, DECKS[i // 5 % 2], seed + i, modes[i % len(modes)]) for i in range(count)]


def expected_coverage() -> set[tuple[str, Any]]:
    """Every Effect, PICK purpose and window kind (both decks together reach them all)."""
    return ({("effect", e) for e in Effect} | {("pick", p) for p in PICK_PURPOSES}
            | {("window", w) for w in WINDOW_KINDS})


# --- tests ---------------------------------------------------------------------------------------------
def test_constants_match_the_enums() -> None:
    """The pxd's EF_ and TM_ indices are the positions in the Effect and Timing enums, and a game's
    tables carry each card's effect and timing by those indices."""
    assert gcbc_sim is not None
    assert list(gcbc_sim.EFFECT_INDEX) == [e.name for e in Effect]
    assert list(gcbc_sim.EFFECT_INDEX.values()) == list(range(len(Effect)))
    assert list(gcbc_sim.TIMING_INDEX) == [t.name for t in Timing]
    assert list(gcbc_sim.TIMING_INDEX.values()) == list(range(len(Timing)))
    for deck in DECKS:
        game = rules.GCBCGame(5, deck)
        tables = gcbc_sim.GCBCTables.of(game)
        assert tables.effects() == [list(Effect).index(c.effect) for c in game.equipment.cards]
        assert tables.timings() == [list(Timing).index(c.timing) for c in game.equipment.cards]


def test_lockstep_random_and_card_biased_games_equal_python() -> None:
    """150 games (uniform and card-biased, 4..8 players, both decks) step by step; every Effect,
    PICK purpose and window kind is exercised; from_actions equals the lockstep sim at random steps."""
    coverage: Counter[tuple[str, Any]] = Counter()
    total = 0
    for players, deck, seed, mode in games_plan(150, ("random", "cards", "cards"), 1000):
        game = rules.GCBCGame(players, deck)
        total += lockstep(game, seed, mode, coverage, replays=2)
    missing = expected_coverage() - set(coverage)
    assert not missing, f"not exercised: {sorted(map(str, missing))}"
    assert total > 150 * 50


def test_lockstep_heuristic_games_equal_python() -> None:
    """20 games with the heuristic bot at every seat (chance by its probabilities)."""
    coverage: Counter[tuple[str, Any]] = Counter()
    for players, deck, seed, mode in games_plan(20, ("heuristic",), 5000):
        lockstep(rules.GCBCGame(players, deck), seed, mode, coverage)
    assert coverage["games", "heuristic"] == 20
    assert any(k[0] == "effect" for k in coverage)  # the bots do play cards


def test_knowledge_is_true_and_covers_the_views() -> None:
    """At every step of 20 games, know[v] is -1 or the truth and shows every card v's view shows."""
    coverage: Counter[tuple[str, Any]] = Counter()
    for players, deck, seed, mode in games_plan(20, ("cards", "random"), 7000):
        lockstep(rules.GCBCGame(players, deck), seed, mode, coverage, knowledge=True)


def test_investigations_are_known_and_flashbang_forgets() -> None:
    """Each look (Investigated, PolygraphSeen events) is in the looker's know right after the step;
    after a Flashbang nobody else knows any of the player's cards, even where someone did before."""
    assert gcbc_sim is not None
    looks = forgotten = 0
    for players, deck, seed, _ in games_plan(40, ("cards",), 9000):
        game = rules.GCBCGame(players, deck)
        rng = np.random.default_rng(seed)
        st, sim = game.new_initial_state(), gcbc_sim.GCBCRulesSim(game)
        while not st.is_terminal():
            before = [sim.know(v) for v in range(st.n)]
            action = choose(st, rng, "cards")
            mark = len(st.events)
            st.apply(action)
            sim.apply(action)
            for event in st.events[mark:]:
                if isinstance(event, Investigated) and event.card is not None:
                    assert sim.know(event.by)[event.seat][event.pos] == INTEGRITY_NAMES.index(event.card)
                    looks += 1
                elif isinstance(event, PolygraphSeen) and event.cards is not None:
                    assert sim.know(event.by)[event.seat][:len(event.cards)] == [
                        INTEGRITY_NAMES.index(c) for c in event.cards]
                elif isinstance(event, Arranged) and event.why == "flashbang" and event.cards is not None:
                    s = event.seat
                    knew = any(before[v][s][p] >= 0 for v in range(st.n) if v != s for p in range(3))
                    assert all(sim.know(v)[s] == [-1, -1, -1] for v in range(st.n) if v != s)
                    assert sim.know(s)[s][:len(st.cards[s])] == [int(c) for c in st.cards[s]]
                    forgotten += knew
    assert looks > 100 and forgotten > 0


def _play_to(game: rules.GCBCGame, rng: np.random.Generator, steps: int) -> tuple[rules.GCBCState, Any]:
    """A random game (card-biased) and its lockstep sim, ``steps`` actions in or at its end."""
    assert gcbc_sim is not None
    st, sim = game.new_initial_state(), gcbc_sim.GCBCRulesSim(game)
    for _ in range(steps):
        if st.is_terminal():
            break
        action = choose(st, rng, "cards")
        st.apply(action)
        sim.apply(action)
    return st, sim


def test_keys_follow_the_views_across_resampled_worlds() -> None:
    """Worlds resampled from one seat's view give that seat the true world's key; then, playing one
    line in two worlds, each seat's keys are equal exactly when its views are."""
    assert gcbc_sim is not None
    equal_pairs = unequal_pairs = 0
    for trial in range(8):
        game = rules.GCBCGame(4 + trial % 5, DECKS[trial % 2])
        rng = np.random.default_rng(11_000 + trial)
        st, sim = _play_to(game, rng, int(rng.integers(40, 220)))
        if st.is_terminal():
            continue
        root = st.current_player() if st.current_player() >= 0 else int(rng.integers(st.n))
        view = st.view(root)
        worlds = [game.resample(view, rng) for _ in range(3)]
        sims = [gcbc_sim.GCBCRulesSim.from_actions(game, w.history) for w in worlds]
        for w, s in zip(worlds, sims, strict=True):
            assert w.view(root).to_json() == view.to_json()
            assert s.key(root) == sim.key(root)
        (a, b), (sa, sb) = worlds[:2], sims[:2]
        for _ in range(20):
            for seat in range(st.n):
                same_view = a.view(seat).to_json() == b.view(seat).to_json()
                assert same_view == (sa.key(seat) == sb.key(seat)), f"trial {trial} seat {seat}"
                equal_pairs += same_view
                unequal_pairs += not same_view
            if a.is_terminal() or a.current_player() != b.current_player():
                break
            common = [x for x in a.legal_actions() if x in set(b.legal_actions())]
            if not common:
                break
            action = common[int(rng.integers(len(common)))]
            for state, s in ((a, sa), (b, sb)):
                state.apply(action)
                s.apply(action)
    assert equal_pairs > 20 and unequal_pairs > 20  # both directions were tested


def test_keys_differ_between_seats_and_change_every_action() -> None:
    """On one line of play the seats' keys are pairwise different and each changes at every action."""
    assert gcbc_sim is not None
    for players in (4, 8):
        game = rules.GCBCGame(players, "rulebook")
        rng = np.random.default_rng(players)
        st, sim = game.new_initial_state(), gcbc_sim.GCBCRulesSim(game)
        while not st.is_terminal():
            keys = [sim.key(s) for s in range(players)]
            assert len(set(keys)) == players
            action = choose(st, rng, "random")
            st.apply(action)
            sim.apply(action)
            assert all(sim.key(s) != keys[s] for s in range(players))


def test_aimed_and_shot_record_the_decisions() -> None:
    """aimed: every AIM decision's target and a Planted Evidence re-aim of the player's own Gun (not of
    another's); shot: every shot fired."""
    assert gcbc_sim is not None
    shots_seen = 0
    for players, deck, seed, _ in games_plan(20, ("cards",), 13_000):
        game = rules.GCBCGame(players, deck)
        rng = np.random.default_rng(seed)
        st, sim = game.new_initial_state(), gcbc_sim.GCBCRulesSim(game)
        aimed, shot = [0] * players, [0] * players
        while not st.is_terminal():
            action = choose(st, rng, "cards")
            top = st.stack[-1]
            if top[0] == ops.AIM or (top[0] == ops.REAIM and top[1] == top[2]):
                aimed[top[1]] |= 1 << (action - codec.AIM)
            mark = len(st.events)
            st.apply(action)
            sim.apply(action)
            for event in st.events[mark:]:
                if type(event).__name__ == "Shot":
                    shot[event.by] |= 1 << event.seat
                    shots_seen += 1
            assert sim.aimed() == aimed and sim.shot() == shot
    assert shots_seen > 10


def test_from_actions_rejects_an_illegal_action_and_replays_fast() -> None:
    """from_actions names an illegal action; a whole game replays in well under a millisecond."""
    assert gcbc_sim is not None
    game = rules.GCBCGame(8, "rulebook")
    st, sim = _play_to(game, np.random.default_rng(3), 400)
    with pytest.raises(InvalidActionError, match="index 1"):
        gcbc_sim.GCBCRulesSim.from_actions(game, [st.history[0], codec.SHOOT])
    history = list(st.history)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        gcbc_sim.GCBCRulesSim.from_actions(game, history)
        best = min(best, time.perf_counter() - t)
    assert len(history) >= 300 and best < 1e-3, (len(history), best)


def test_copy_and_default_action_play_a_whole_game() -> None:
    """A copy is independent; default_action plays legal moves to the end (SplitMix64 draws)."""
    assert gcbc_sim is not None
    from solver.core.rng import SplitMix64

    game = rules.GCBCGame(6, "4th")
    sim = gcbc_sim.GCBCRulesSim(game)
    rng = SplitMix64(5)
    st = game.new_initial_state()
    while not sim.is_terminal():
        before = sim.state_dict()
        other = sim.copy()
        action = sim.default_action(rng)
        assert action in st.legal_actions()
        sim.apply(action)
        st.apply(action)
        assert other.state_dict() == before and other.key(0) != sim.key(0)
    assert sim.payoffs() == st.returns()


def _subset_content(tmp_path: Path) -> str:
    """A user content file: ten of the shipped cards, two with other timings."""
    data = copy.deepcopy(read_shipped_equipment())
    keep = ["blackmail", "coffee", "defibrillator", "evidence-bag", "flashbang", "polygraph",
            "restraining-order", "surveillance-camera", "taser", "wiretap"]
    data["cards"] = [c for c in data["cards"] if c["id"] in keep]
    for card in data["cards"]:
        if card["id"] == "taser":
            card["rulebook"]["timing"] = "any"
        if card["id"] == "coffee":
            card["rulebook"]["timing"] = "own-action"
    path = tmp_path / "subset.json"
    path.write_text(json.dumps(data))
    return str(path)


def read_shipped_equipment() -> Any:
    """The shipped equipment.json as JSON data."""
    return read_shipped("solver.games.gcbc", "data/equipment.json")


def test_user_content_file_plays_equal(tmp_path: Path) -> None:
    """A content file with a subset of the cards (and other timings) plays equal too."""
    content = _subset_content(tmp_path)
    coverage: Counter[tuple[str, Any]] = Counter()
    for i in range(20):
        game = solver.games.load("gcbc", players=4 + i % 5, content=content)
        assert isinstance(game, rules.GCBCGame) and len(game.equipment.cards) == 10
        lockstep(game, 15_000 + i, ("random", "cards")[i % 2], coverage, replays=1)
    assert ("effect", Effect.TAKE_GUN) in coverage and ("effect", Effect.NEXT_TURN) in coverage


@pytest.mark.slow
def test_lockstep_many_games_slow() -> None:
    """About 2,000 lockstep games: random, card-biased and heuristic, every player count, both decks."""
    coverage: Counter[tuple[str, Any]] = Counter()
    for players, deck, seed, mode in games_plan(1800, ("random", "cards"), 100_000):
        lockstep(rules.GCBCGame(players, deck), seed, mode, coverage, replays=1)
    for players, deck, seed, mode in games_plan(200, ("heuristic",), 200_000):
        lockstep(rules.GCBCGame(players, deck), seed, mode, coverage)
    missing = expected_coverage() - set(coverage)
    assert not missing, f"not exercised: {sorted(map(str, missing))}"


# the twin modules the table in solver/_accel.py names (imported above for the rules they define)
TWIN_MODULES = (rules, flow, actions, effects)
