"""An independent reference for the Good Cop Bad Cop posterior (issue 19 B).

``brute_force_posterior`` shares the walk, the factors, the cluster rule and the marginals with the
posterior it checks. This reference shares none of them. For a 4-player table it

1. enumerates every deal through the game's own chance nodes (``leaders``, ``deal``) and every
   layout a seat may choose (set-up and hidden Flashbang orders, uniform over the distinct layouts:
   the posterior's stated assumption), replaying the *true* game's other actions through the rules
   engine (Equipment draws and hand-limit keeps as they were: they do not depend on the deal);
2. keeps a replay while every history entry the seat sees is the one it saw, and at a position
   only if the seat's whole view is the same;
3. weighs each kept replay by its prior (chance probabilities times 1/layouts) times the behaviour
   model's probability of every scored decision of every other seat, computed in a plain loop from
   the replayed state before the decision (the actor's true cards, what the others show face up,
   the cards the actor had looked at) by calling ``BehaviourModel.weight`` directly; and
4. compares P(honest), P(Agent), P(Kingpin) and every card's distribution per seat with
   :func:`posterior` to 1e-9.

Which decisions are scored, and on what, is the model of ``docs/gcbc-inference.md`` ("Behaviour"):
announcements (not an own-action card), aims (also another seat's Gun pointed by the stand-in
Planted Evidence), flips, the card given away with a Blackmail, targeted Equipment plays, the
``aimed`` outcome once an aimed-at hand is all face up, and the pair factors of aims and
announcements by what the actor had seen. The seat's own decisions are left out: their factors
depend only on its own cards and what it saw, the same in every kept replay, so they cancel.
The model is the shipped one with the cluster-size rule opened up (``pair_seats`` 9: at 4 players
every pair factor is then built and admitted), so no factor depends on that rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import bots
from solver import games
from solver.belief.gcbc_behaviour import BehaviourModel, load_behaviour, seen_name
from solver.belief.gcbc_posterior import posterior
from solver.core import IllegalActionError
from solver.core.referee import play_out
from solver.games.gcbc import codec, ops
from solver.games.gcbc.deal import ARRANGEMENTS, INTEGRITY_NAMES, Integrity, team_of
from solver.games.gcbc.equipment import Effect
from solver.games.gcbc.rules import GCBCState

PLAYERS = 4
SETUP = 1 + 3 * PLAYERS  # leaders, deals, Equipment draws, layouts
OUTCOMES = ("A", "K", "h", "c", "m")
CLASSES = {"honest": 0, "crooked": 1}  # then 2 agent, 3 kingpin (the model's class order)
SCORED = frozenset({ops.ANNOUNCE, ops.AIM, ops.REAIM, ops.FLIP, ops.PICK, ops.WINDOW})


def model_without_rule() -> BehaviourModel:
    return dataclasses.replace(load_behaviour(), pair_seats=9)


# --- public features, read off a replayed state ------------------------------------------------------
def face_up(st: GCBCState, t: int) -> list[int]:
    return [c for c, up in zip(st.cards[t], st.face_up[t], strict=True) if up]


def shows(st: GCBCState, t: int) -> str:
    """What seat ``t``'s face-up cards show everyone: A, K, u, or one letter per Honest/Crooked."""
    up = face_up(st, t)
    if Integrity.AGENT in up:
        return "A"
    if Integrity.KINGPIN in up:
        return "K"
    h, c = up.count(Integrity.HONEST), up.count(Integrity.CROOKED)
    if st.inverted[t]:
        h, c = c, h
    return "h" * h + "c" * c or "u"


def outcome(st: GCBCState, t: int) -> str:
    """What a whole face-up hand turned out to be: A, K, or the majority h/c (m for a tie)."""
    cat = shows(st, t)
    if cat in ("A", "K"):
        return cat
    h, c = cat.count("h"), cat.count("c")
    return "h" if h > c else "c" if c > h else "m"


def class_of(st: GCBCState, s: int) -> int:
    cards = st.cards[s]
    if Integrity.AGENT in cards:
        return 2
    if Integrity.KINGPIN in cards:
        return 3
    return CLASSES[team_of(cards, st.inverted[s])]


# --- one replay ---------------------------------------------------------------------------------------
@dataclasses.dataclass
class Branch:
    state: GCBCState
    prior: float
    lik: float
    aimed: dict[int, dict[int, int]]  # target -> aimer -> aimer's class at its last aim there
    looks: dict[int, dict[int, list[int]]]  # looker -> seat -> positions of the cards it saw there

    def fork(self) -> Branch:
        return Branch(self.state.clone(), self.prior, self.lik,
                      {t: dict(a) for t, a in self.aimed.items()},
                      {a: {t: list(p) for t, p in seen.items()} for a, seen in self.looks.items()})


class Reference:
    """The enumeration for one seat of one game (see the module docstring)."""

    def __init__(self, truth: GCBCState, seat: int, model: BehaviourModel | None) -> None:
        self.game, self.seat, self.model = truth.game, seat, model
        self.actions = list(truth.history)
        self.entries = truth.view(seat).to_json()["history"]
        self.effects = {card.id: card.effect for card in self.game.equipment.cards}

    # the model, called directly
    def p(self, kind: str, cls: int, chosen: str, options: list[str]) -> float:
        assert self.model is not None
        w = self.model.weight
        return float((w(kind, cls, chosen) / sum(w(kind, cls, o) for o in options)) ** self.model.temper)

    def seen(self, b: Branch, actor: int, t: int) -> list[int]:
        """The cards of seat ``t`` that ``actor`` looked at, still there and still face down."""
        st = b.state
        return [st.cards[t][p] for p in b.looks.get(actor, {}).get(t, []) if not st.face_up[t][p]]

    def p_seen(self, kind: str, cls: int, chosen: int, options: list[tuple[str, list[int]]]) -> float:
        assert self.model is not None
        per = self.model.weights[kind + "-seen"][cls]

        def w(feature: str, cards: list[int]) -> float:
            return per.get(f"{feature}|{seen_name(feature, cards)}", per.get(f"{feature}|", 1.0))

        ws = [w(f, cards) for f, cards in options]
        return float((ws[chosen] / sum(ws)) ** self.model.temper)

    def factor(self, b: Branch, action: int) -> float:
        """The behaviour model's probability of ``action`` in ``b``'s state (1 when not scored)."""
        st, top = b.state, b.state.stack[-1]
        actor = st.current_player()
        if self.model is None or actor == self.seat or top[0] not in SCORED:
            return 1.0
        text = self.game.action_to_str(action)
        words = text.split()
        legal = [self.game.action_to_str(a) for a in st.legal_actions()]
        cls = class_of(st, actor)
        f = 1.0
        if top[0] == ops.ANNOUNCE and words[0] != "play":
            if st.forced_shoot and words[0] == "shoot":
                return 1.0  # a Restraining Order's shooter must shoot again
            mine = [a for a in legal if not a.startswith("play")]

            def about(a: str) -> tuple[str, list[int]]:
                if a == "shoot":
                    return "shoot:" + shows(st, st.aim[actor]), self.seen(b, actor, st.aim[actor])
                if a.startswith("investigate"):
                    t = int(a.split()[1].split(".")[0])
                    return "inv:" + shows(st, t), self.seen(b, actor, t)
                if a == "arm":
                    return "arm", [c for t in range(PLAYERS) if st.alive[t] and t != actor
                                   for c in self.seen(b, actor, t)]
                return a, []

            options = [about(a) for a in mine]
            public = [o for o, _ in options]
            chosen = mine.index(text)
            scored = len(set(public)) >= 2
            if scored:
                f *= self.p("announce", cls, public[chosen], public)
            if len(options) >= 2 and any(cards for _, cards in options):
                f *= self.p_seen("announce", cls, chosen, options)
                if scored:
                    f /= self.p("announce", cls, public[chosen], public)
        elif top[0] in (ops.AIM, ops.REAIM):
            seats = [int(a.split()[1]) for a in legal]
            public = [shows(st, u) for u in seats]
            chosen = seats.index(int(words[1]))
            scored = len(set(public)) >= 2
            if scored:
                f *= self.p("aim", cls, public[chosen], public)
            options = [(public[i], self.seen(b, actor, u)) for i, u in enumerate(seats)]
            if len(seats) >= 2 and any(cards for _, cards in options):
                f *= self.p_seen("aim", cls, chosen, options)
                if scored:
                    f /= self.p("aim", cls, public[chosen], public)
        elif top[0] == ops.FLIP:
            cards = st.cards[actor]
            spots = [int(a.split()[1]) for a in legal]
            if len(spots) >= 2:
                f *= self.p("flip", cls, INTEGRITY_NAMES[cards[int(words[1])]],
                            [INTEGRITY_NAMES[cards[p]] for p in spots])
        elif top[0] == ops.PICK and top[2] == ops.PICK_SWAP_MINE:
            cards = st.cards[actor]
            if len(cards) >= 2:
                f *= self.p("give", cls, INTEGRITY_NAMES[cards[int(words[1].split(".")[1])]],
                            [INTEGRITY_NAMES[c] for c in cards])
        elif words[0] == "play" and len(words) == 3:  # in a window, or the Taser as the action
            card = words[1]
            if self.effects[card] != Effect.EXPOSE_INVESTIGATED:
                targets = [int(a.split()[2]) for a in legal if a.startswith(f"play {card} ")]
                public = [f"{card}:" + ("self" if t == actor else shows(st, t)) for t in targets]
                if len(set(public)) >= 2:
                    f *= self.p("play", cls, public[targets.index(int(words[2]))], public)
        return f

    def after(self, b: Branch, actor: int, start: int) -> None:
        """Follow the entry's events: looks, own aims, new hands, and ``aimed`` outcomes."""
        st = b.state
        swapped: list[int] = []
        arranged: set[int] = set()
        over = False
        for e in st.events[start:]:
            d = e.to_json()
            kind = d["kind"]
            if kind == "Investigated":  # one event for the looker, one for everyone else
                spots = b.looks.setdefault(d["by"], {}).setdefault(d["seat"], [])
                spots += [] if d["pos"] in spots else [d["pos"]]
            elif kind == "PolygraphSeen":
                b.looks.setdefault(d["by"], {})[d["seat"]] = list(range(len(st.cards[d["seat"]])))
            elif kind == "Aimed" and d["seat"] == actor and not st.winner:
                b.aimed.setdefault(d["target"], {})[actor] = class_of(st, actor)
            elif kind == "Arranged" and d["why"] != "setup" and d["seat"] not in arranged:
                arranged.add(d["seat"])  # one event for the seat, one for everyone else
                order = ARRANGEMENTS[st.history[-1] - codec.ARRANGE]  # new position i: old order[i]
                for seen in b.looks.values():
                    if d["seat"] in seen:
                        seen[d["seat"]] = [order.index(p) for p in seen[d["seat"]]]
            elif kind == "CardsSwapped":
                swapped += [d["seat_a"], d["seat_b"]]
            elif kind == "Revived":
                self.new_hand(b, d["seat"])
            elif kind == "GameOver":
                over = True
        for s in swapped:
            self.new_hand(b, s)
        if over or self.model is None:
            return
        for t in [t for t in b.aimed if all(st.face_up[t])]:
            got = outcome(st, t)
            for aimer, cls in b.aimed.pop(t).items():
                if aimer != self.seat:
                    b.lik *= self.p("aimed", cls, got, list(OUTCOMES))

    @staticmethod
    def new_hand(b: Branch, s: int) -> None:
        b.aimed.pop(s, None)
        for seen in b.looks.values():
            seen.pop(s, None)

    def run(self, points: list[int]) -> dict[int, list[tuple[float, GCBCState]]]:
        """Per position (actions applied), the kept replays: (weight, state)."""
        out: dict[int, list[tuple[float, GCBCState]]] = {t: [] for t in points}
        last = max(points)
        todo = [(Branch(self.game.new_initial_state(), 1.0, 1.0, {}, {}), 0)]
        while todo:
            b, i = todo.pop()
            while True:
                if i in out:
                    if b.state.view(self.seat).to_json() != self.view_at(i):
                        break
                    out[i].append((b.prior * b.lik, b.state.clone()))
                if i == last:
                    break
                st, top = b.state, b.state.stack[-1]
                hidden = top[0] in (ops.LEADERS, ops.DEAL) or top[0] == ops.ARRANGE
                if hidden:
                    options = (st.chance_outcomes() if st.is_chance_node()
                               else [(a, 1.0 / len(st.legal_actions())) for a in st.legal_actions()])
                    for a, p in options[1:]:
                        other = b.fork()
                        other.prior *= p
                        if self.step(other, i, a):
                            todo.append((other, i + 1))
                    b.prior *= options[0][1]
                    action = options[0][0]
                else:
                    action = self.actions[i]
                if not self.step(b, i, action):
                    break
                i += 1
        return out

    def step(self, b: Branch, i: int, action: int) -> bool:
        """Apply history entry ``i`` as ``action``; False if the seat would see another entry."""
        st = b.state
        actor, start = st.current_player(), len(st.events)
        b.lik *= self.factor(b, action) if actor >= 0 else 1.0
        try:
            st.apply(action)
        except IllegalActionError:
            return False
        if st.seat_entries(self.seat, i, i + 1)[0] != self.entries[i]:
            return False
        self.after(b, actor, start)
        return True

    def view_at(self, i: int) -> Any:
        return self.views[i]

    views: dict[int, Any]


def marginals(kept: list[tuple[float, GCBCState]]) -> list[dict[str, Any]]:
    total = sum(w for w, _ in kept)
    out = []
    for s in range(PLAYERS):
        m: dict[str, Any] = {"p_honest": 0.0, "p_agent": 0.0, "p_kingpin": 0.0, "cards": None}
        for w, st in kept:
            cards, p = st.cards[s], w / total
            m["p_honest"] += p * (team_of(cards, st.inverted[s]) == "honest")
            m["p_agent"] += p * (Integrity.AGENT in cards)
            m["p_kingpin"] += p * (Integrity.KINGPIN in cards)
            if m["cards"] is None:
                m["cards"] = [dict.fromkeys(INTEGRITY_NAMES, 0.0) for _ in cards]
            for pos, c in enumerate(cards):
                m["cards"][pos][INTEGRITY_NAMES[c]] += p
        out.append(m)
    return out


# --- positions ----------------------------------------------------------------------------------------
def play(seed: int, heuristic: bool, actions: int) -> GCBCState:
    """A seeded 4-player game of random or heuristic bots, stopped after ``actions`` actions."""
    game = games.load("gcbc", players=PLAYERS)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    seated = {s: bots.make(game, "heuristic" if heuristic else "random", seat=s, rng=seed + s)
              for s in range(PLAYERS)}
    play_out(state, lambda st, seat: seated[seat].step(st.view(seat)), rng, max_steps=actions)
    if not isinstance(state, GCBCState):
        raise TypeError("gcbc game built another state type")
    return state


def prefix(truth: GCBCState, i: int) -> GCBCState:
    state = truth.game.new_initial_state()
    for a in truth.history[:i]:
        state.apply(a)
    return state


def points_of(truth: GCBCState, every: int) -> Iterator[int]:
    """Positions to compare at: every ``every``-th action after set-up, and right after each swap,
    Flashbang and Equipment play."""
    marks = truth.marks
    for i in range(SETUP, len(truth.history)):
        kinds = {e.kind for e in truth.events[marks[i - 1]:marks[i]]} if i > 0 else set()
        if i % every == 0 or kinds & {"CardsSwapped", "Arranged", "EquipmentPlayed"}:
            yield i


def compare(truth: GCBCState, seat: int, model: BehaviourModel | None, points: list[int]) -> float:
    """The largest difference between the reference and the posterior over the positions."""
    ref = Reference(truth, seat, model)
    ref.views = {i: prefix(truth, i).view(seat).to_json() for i in points}
    kept = ref.run(points)
    worst = 0.0
    for i in points:
        assert kept[i], f"no replay kept at position {i}"
        want = marginals(kept[i])
        got = posterior(truth.game, ref.views[i], model).marginals()
        for s in range(PLAYERS):
            for key in ("p_honest", "p_agent", "p_kingpin"):
                worst = max(worst, abs(want[s][key] - got[s][key]))
            for pos, dist in enumerate(want[s]["cards"]):
                for name, p in dist.items():
                    worst = max(worst, abs(p - got[s]["cards"][pos].get(name, 0.0)))
    return worst


# --- the tests ------------------------------------------------------------------------------------------
#: (seed, heuristic bots?, actions played, compare every n-th action, seats): seeded 4-player games
#: with swaps (Blackmail), hidden Flashbangs, Equipment plays, looks and aims before their last action.
Case = tuple[int, bool, int, int, tuple[int, ...]]
QUICK: list[Case] = [(7, False, 90, 10, (1,)), (13, True, 90, 10, (0,)), (1, False, 40, 5, (2,))]
ALL = (0, 1, 2, 3)
THOROUGH: list[Case] = [(7, False, 90, 5, ALL), (13, True, 90, 5, ALL), (3, True, 90, 5, ALL),
                        (9, True, 90, 5, ALL), (1, False, 60, 5, ALL)]


def check(seed: int, heuristic: bool, actions: int, every: int, seats: tuple[int, ...]) -> int:
    truth = play(seed, heuristic, actions)
    points = list(points_of(truth, every))
    for seat in seats:
        for model in (None, model_without_rule()):
            worst = compare(truth, seat, model, points)
            assert worst < 1e-9, (seed, heuristic, seat, model is not None, worst)
    return len(points) * len(seats)


def covered(cases: list[Case]) -> set[str]:
    kinds: set[str] = set()
    for seed, heuristic, actions, _, _ in cases:
        truth = play(seed, heuristic, actions)
        kinds |= {e.kind for e in truth.events[truth.marks[SETUP]:]}
        kinds |= {"hidden Flashbang" for e in truth.events if e.kind == "Arranged"
                  and e.to_json()["why"] == "flashbang"}
    return kinds


def test_positions_cover_swaps_flashbangs_plays_looks_and_aims() -> None:
    want = {"CardsSwapped", "hidden Flashbang", "EquipmentPlayed", "Investigated", "Aimed", "CardFlipped"}
    assert want <= covered(QUICK)


def ids(cases: list[Case]) -> list[str]:
    return [f"{'heuristic' if c[1] else 'random'}-{c[0]}" for c in cases]


@pytest.mark.parametrize("case", QUICK, ids=ids(QUICK))
def test_posterior_equals_the_independent_reference(case: Case) -> None:
    assert check(*case) >= 7


@pytest.mark.slow
@pytest.mark.parametrize("case", THOROUGH, ids=ids(THOROUGH))
def test_posterior_equals_the_independent_reference_thorough(case: Case) -> None:
    check(*case)


def test_a_card_looked_at_twice_across_a_hidden_flashbang() -> None:
    # Seat 1's view: seat 0 looks at seat 2's position 1 (token 2) at entry 23, seat 2 plays a
    # hidden Flashbang at 25, seat 0 looks at position 1 again at 35 (slot (0, 1)). In the orders
    # that put token 2 in that slot seat 0 saw one card, and the pair factor of its announcement
    # at entry 53 must count it once.
    truth = play(31, False, 54)
    assert compare(truth, 1, None, [54]) < 1e-9
    assert compare(truth, 1, model_without_rule(), [54]) < 1e-9


def test_a_seen_card_turned_face_up_after_a_hidden_flashbang() -> None:
    # Seat 1's view: seat 2's Polygraph shows it seat 0's hand (tokens 0, 1, 2) at entry 19, seat
    # 0 plays a hidden Flashbang at 25 and flips position 2 (slot (0, 2)) at 36. The card there is
    # one of those seat 2 saw, now public: the pair factor of seat 2's announcement at entry 39
    # must leave it out in the orders that put it there.
    truth = play(322, False, 40)
    assert compare(truth, 1, None, [40]) < 1e-9
    assert compare(truth, 1, model_without_rule(), [40]) < 1e-9


def test_a_seen_card_among_equal_cards_follows_the_engine_s_layout() -> None:
    # Seat 2's view: seat 3 looks at seat 1's position 2 (token 5, Crooked) at entry 34, seat 1
    # plays a hidden Flashbang at 41 and flips position 0 (Crooked) at 55. Seat 1 holds two
    # Crooked cards, so whether the card seat 3 saw is the one now face up is the engine's
    # convention: each layout is laid out by its first permutation, and the looks follow it.
    # Uniform permutations instead put the seen card face up half the time.
    truth = play(105, False, 64)
    assert compare(truth, 2, None, [64]) < 1e-9
    assert compare(truth, 2, model_without_rule(), [64]) < 1e-9
