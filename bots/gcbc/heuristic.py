"""Good Cop Bad Cop: the documented rule-based ``heuristic`` bot (4-8 players, both decks).

The bot reads nothing but its seat's view (``view.to_json()``): its own cards, face-up cards, what
it investigated or was shown, and the public history. It keeps no memory between decisions, so its
action is a function of the view and its generator alone (ties between equal scores are broken by
the generator). Every decision scores every legal action with a plain reason; ``step`` plays the best
and ``advise`` lists them all.

**Team estimate** (recomputed at every decision, :func:`read_view`):

1. Cards it knows are followed through the history: its investigations, Polygraph and Wiretap looks,
   face-up cards, swaps (the knowledge moves with the card) and Flashbangs (positions are forgotten,
   the cards still count as seen for that seat); a revived seat holds only its kept card.
2. A known leader card decides a seat's team. Otherwise each unknown card is drawn, independently,
   from the Integrity cards it has not located yet (the uninformed prior), and the team is the
   majority rule of the rulebook (with the 4th-edition Planted Evidence marker counted). This gives
   P(crooked), P(holds the Agent), P(holds the Kingpin) per seat.
3. Public behaviour nudges the estimate of seats whose team the cards do not settle: a seat that
   chose to aim at, or shot, a seat whose team the bot is sure of (from cards alone) probably is on
   the other team (log-odds +0.6 per distinct aim, +1.2 per shot, scaled by that certainty).

With ``estimate=posterior`` (:func:`informed`) rules 2-3 give way to the exact posterior of
:mod:`solver.belief.gcbc_posterior` with the shipped behaviour model: P(crooked), P(Agent),
P(Kingpin) per seat, and per face-down card the chance that it is the enemy leader (rule 7). The
rules below are the same; only the numbers they read are better calibrated. It costs a posterior
(a few ms) a decision, so the default stays ``rules``: playouts and the field use that one.

**Acting** (the announcement; higher tiers win):

4. Shoot when the Gun aims at a likely enemy (P >= 0.75), first of all a known enemy leader,
   a wounded one above all; never at a known leader of its own team.
5. Taser (an own-action card) a likely enemy's Gun when it has no Gun and a target worth aiming at.
6. Arm when it has no Gun, a Gun is in the centre, and some seat is a likely enemy (P >= 0.6).
7. Otherwise investigate the face-down card that tells it most: the seat whose team it is least sure
   of (4p(1-p)), plus the chance that card is the enemy leader.
8. Equip when no investigation is worth much (every team is nearly settled).

**Aiming**: the likeliest enemy, known enemy leader first (a wounded one above all), never a known
leader of its own team; among equals it keeps its current aim.

**Turning a card face up** (Equip, Arm, Truth Serum, Report Audit): Honest first, then Crooked, a
leader card last. An honest player shows the truth; a crooked player hides behind an Honest card
while it has one; a leader keeps its leader card face down as long as it can.

**Equipment** (played only when its rule below applies; otherwise ``pass`` in windows):

9. Blackmail (swap own): take the other leader card when it holds a leader card and knows where the
   other one is (both leader cards: it wins alone); take the leader card of its wounded team leader
   (the team's leader is whole again). Blackmail (4th, swap others): move the wounded team leader's
   card to another seat (not wounded, unlikely to hold the other leader).
10. Coffee (next turn): give the next turn to a likely ally whose Gun aims at a likely enemy.
    Coffee (4th, extra turn): take it after its own action.
11. Defibrillator: revive an eliminated player of its own team. Evidence Bag: take a likely enemy's
    card. K-9 (stand-in): look at a likely enemy's card on its own turn. K-9 (4th): send home the Gun
    of a likely enemy aimed at it or an ally.
12. Flashbang: hide again a face-up card that betrays it (a leader card, or a Crooked card of a
    crooked player). Planted Evidence (stand-in): turn a Gun announced against it or an ally, or an
    ally's Gun aimed at a non-enemy, onto the likeliest enemy. Planted Evidence (4th): invert itself
    when its team's leader is wounded and the other is not.
13. Looks (Metal Detector, Polygraph (not as a leader), Truth Serum, both Wiretaps, Report Audit):
    when some seat's team is still open (4p(1-p) >= 0.75 or so), on its own turn for the free ones.
14. Restraining Order: when a shot is announced at it or a likely ally. Smoke Grenade: when the next
    player is a likely enemy whose Gun aims at it or an ally and the other neighbour is not.
    Surveillance Camera: expose a just-investigated card it knows to be the enemy leader, or (when it
    is honest) a Crooked card.
15. Hand limit: keep the card with the higher fixed value (:data:`KEEP_VALUE`). Defibrillator keep: a
    card of its own team. Layouts: uniformly drawn (only the seat sees them).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from operator import itemgetter
from typing import Any, ClassVar, Final

import numpy as np

from bots.base import Advice, Bot, Option, RankedAction
from bots.gcbc.belief import posterior_for
from bots.registry import register
from solver.core import JSON, Action, ConfigError, Game, View
from solver.games.gcbc import codec, ops
from solver.games.gcbc.deal import CARDS_PER_PLAYER, INTEGRITY_NAMES, SIDE_CARDS, team_of
from solver.games.gcbc.equipment import Effect
from solver.games.gcbc.rules import GCBCGame

#: (action, score, reason)
Scored = tuple[Action, float, str]

_TIE: Final = 1e-9
AGENT, KINGPIN, HONEST, CROOKED = INTEGRITY_NAMES
LEADER_OF: Final = {"honest": AGENT, "crooked": KINGPIN}
OTHER: Final = {"honest": "crooked", "crooked": "honest"}
#: Flip preference (rule: Honest first, then Crooked, a leader card last).
FLIP_VALUE: Final = {HONEST: 3.0, CROOKED: 2.0, AGENT: 0.0, KINGPIN: 0.0}
#: Evidence weights in log-odds (rule 3).
AIM_WEIGHT: Final = 0.6
SHOT_WEIGHT: Final = 1.2
#: Fixed value of holding each effect (hand limit, rule 15).
KEEP_VALUE: Final[dict[Effect, float]] = {
    Effect.TAKE_GUN: 10, Effect.REDIRECT_SHOT: 9, Effect.REVIVE: 8, Effect.RE_AIM: 8, Effect.DISARM: 8,
    Effect.SWAP_OWN: 7, Effect.POLYGRAPH: 6, Effect.INVESTIGATE_TWO_CARDS: 6,
    Effect.INVESTIGATE_TWO_PLAYERS: 6, Effect.EXTRA_TURN: 6, Effect.INVESTIGATE_ARMED: 5,
    Effect.TAKE_EQUIPMENT: 5, Effect.REVEAL_ONE: 5, Effect.EXPOSE_INVESTIGATED: 4, Effect.AUDIT: 4,
    Effect.NEXT_TURN: 3, Effect.REARRANGE: 3, Effect.SEE_EQUIPMENT: 2, Effect.REVERSE: 2,
    Effect.INVERT: 2, Effect.SWAP_OTHERS: 2,
}
_CARD_INDEX: Final = {name: i for i, name in enumerate(INTEGRITY_NAMES)}
#: A history entry's events (``[actor, text, events]``): filters out the entries without any.
_EVENTS: Final = itemgetter(2)
_REAIM = re.compile(r"points seat (\d+)'s Gun")
_PICKS: Final = tuple(
    (purpose, re.compile(r"seat \d+: " + re.escape(text).replace(r"\{a\}", r"(-?\d+)") + "$"))
    for purpose, text in enumerate(ops.PICK_NAMES)
)


def _is(action: Action, base: int, size: int) -> bool:
    return base <= action < base + size


def _window_kind(prompt: str) -> str:
    """"start", "announced" or "resolved", read off the public window prompt (see flow.prompt)."""
    if ops.WINDOW_NAMES[ops.START] in prompt:
        return "start"
    return "resolved" if ops.WINDOW_NAMES[ops.RESOLVED] in prompt else "announced"


# --- what the seat knows --------------------------------------------------------------------------
@dataclass
class Knowledge:
    """One seat's reading of its view: known cards, team probabilities, public facts."""

    me: int
    n: int
    team: str  # this seat's own team
    alive: list[bool]
    wounded: list[bool]
    gun: list[bool]
    aim: list[int | None]
    equipment: list[int]
    face_up: list[list[bool]]
    cards: list[list[str | None]]  # known card per position
    floating: list[list[str]]  # cards seen at a seat whose positions a Flashbang hid
    p_crooked: list[float] = field(default_factory=list)
    p_agent: list[float] = field(default_factory=list)
    p_kingpin: list[float] = field(default_factory=list)
    settled: list[bool] = field(default_factory=list)  # the cards alone decide the team
    why: list[str] = field(default_factory=list)
    #: per seat and position, P(each card name) when an exact posterior gave it (:func:`informed`)
    card_odds: list[list[dict[str, float]]] = field(default_factory=list)

    def p_enemy(self, seat: int) -> float:
        """P(``seat`` is on the other team)."""
        if seat == self.me:
            return 0.0
        return self.p_crooked[seat] if self.team == "honest" else 1.0 - self.p_crooked[seat]

    def p_enemy_leader(self, seat: int) -> float:
        """P(``seat`` holds the other team's leader card)."""
        return self.p_kingpin[seat] if self.team == "honest" else self.p_agent[seat]

    def p_ally_leader(self, seat: int) -> float:
        """P(``seat`` holds this team's leader card)."""
        return self.p_agent[seat] if self.team == "honest" else self.p_kingpin[seat]

    def uncertainty(self, seat: int) -> float:
        """4p(1-p) of the seat's team: 1 for a coin flip, 0 when settled."""
        p = self.p_crooked[seat]
        return 4.0 * p * (1.0 - p)

    def unknown(self, seat: int) -> list[int]:
        """Face-down positions of ``seat`` whose card this seat does not know."""
        return [p for p, c in enumerate(self.cards[seat]) if c is None and not self.face_up[seat][p]]

    def others(self) -> list[int]:
        """Living seats other than this one."""
        return [s for s in range(self.n) if s != self.me and self.alive[s]]

    def where(self, card: str) -> tuple[int, int] | None:
        """(seat, pos) of a living seat's known ``card`` other than this seat's, if any."""
        for s in self.others():
            for p, c in enumerate(self.cards[s]):
                if c == card:
                    return s, p
        return None

    def describe(self, seat: int) -> str:
        """"seat 3 is likely crooked (2 of 3 cards seen crooked)"."""
        if seat == self.me:
            return f"seat {seat} is me ({self.team})"
        p = self.p_crooked[seat]
        word = "crooked" if p >= 0.5 else "honest"
        sure = max(p, 1.0 - p)
        how = "is" if sure > 0.999 else "is likely" if sure >= 0.7 else "may be"
        if self.p_agent[seat] > 0.999:
            word = "the Agent"
        elif self.p_kingpin[seat] > 0.999:
            word = "the Kingpin"
        return f"seat {seat} {how} {word} (P {sure:.2f}; {self.why[seat]})"


def _learn(cards: list[list[str | None]], floating: list[list[str]], seat: int, pos: int, card: str) -> None:
    """``seat``'s card at ``pos`` is ``card`` (a card seen before a Flashbang is placed again)."""
    if cards[seat][pos] is None and card in floating[seat]:
        floating[seat].remove(card)
    cards[seat][pos] = card


class HistoryReader:
    """What a seat's history entries say, read in order: cards followed through it (rule 1) and who
    aimed at or shot whom (rule 3).

    :func:`read_view` reads a view's whole history with a fresh reader. A caller that sees one seat's
    history grow (a rollout) may keep a reader, :meth:`feed` it the entries that will not change,
    and hand :func:`read_view` a :meth:`copy` fed the rest: the result is the same.
    """

    __slots__ = ("cards", "floating", "me", "pairs", "read")

    def __init__(self, me: int, n: int) -> None:
        self.me = me
        #: entries fed so far
        self.read = 0
        self.cards: list[list[str | None]] = [[None] * CARDS_PER_PLAYER for _ in range(n)]
        self.floating: list[list[str]] = [[] for _ in range(n)]
        #: (actor, target) -> the strongest evidence weight of an aim or a shot
        self.pairs: dict[tuple[int, int], float] = {}

    def copy(self) -> HistoryReader:
        """An independent copy."""
        other = HistoryReader(self.me, 0)
        other.read = self.read
        other.cards = [list(c) for c in self.cards]
        other.floating = [list(f) for f in self.floating]
        other.pairs = dict(self.pairs)
        return other

    def feed(self, entries: Sequence[list[Any]]) -> None:
        """Read history entries ``[actor, text, events]``, the next ones after those already read."""
        me, cards, floating, pairs = self.me, self.cards, self.floating, self.pairs
        self.read += len(entries)
        for actor, _text, events in filter(_EVENTS, entries):  # entries with events
            for e in events:
                kind = e["kind"]
                mine = kind == "Investigated" and e["by"] == me and e["card"] is not None
                if mine or kind in ("CardFlipped", "CardReceived"):  # CardReceived: only this seat's
                    _learn(cards, floating, e["seat"], e["pos"], e["card"])
                elif kind in ("CardsRevealed", "PolygraphSeen") and e["cards"] is not None:
                    if kind == "PolygraphSeen" and e["by"] != me:
                        continue
                    floating[e["seat"]] = []
                    cards[e["seat"]] = [*e["cards"], *[None] * (CARDS_PER_PLAYER - len(e["cards"]))]
                elif kind == "CardsSwapped":
                    a, pa, b, pb = e["seat_a"], e["pos_a"], e["seat_b"], e["pos_b"]
                    cards[a][pa], cards[b][pb] = cards[b][pb], cards[a][pa]
                elif kind == "Arranged" and e["why"] == "flashbang" and e["seat"] != me:
                    floating[e["seat"]] += [c for c in cards[e["seat"]] if c is not None]
                    cards[e["seat"]] = [None] * CARDS_PER_PLAYER
                elif kind == "Revived":
                    floating[e["seat"]] = []
                    cards[e["seat"]] = [e["card"], None, None]
                elif kind == "Aimed" and e["seat"] == actor:
                    pairs[(actor, e["target"])] = max(pairs.get((actor, e["target"]), 0.0), AIM_WEIGHT)
                elif kind == "Shot":
                    pairs[(e["by"], e["seat"])] = SHOT_WEIGHT


def _history_cards(
    data: JSON, n: int, reader: HistoryReader
) -> tuple[list[list[str | None]], list[list[str]]]:
    """Known cards per position: the history's (rule 1), then the view's face-up and own cards."""
    sizes = [len(p["cards"]) for p in data["players"]]
    cards = [list(c) for c in reader.cards]
    floating = [list(f) for f in reader.floating]
    # The view is the authority on face-up cards and on this seat's own cards.
    for s, player in enumerate(data["players"]):
        for p, c in enumerate(player["cards"]):
            if c["card"] is not None:
                _learn(cards, floating, s, p, c["card"])
        cards[s] = cards[s][: sizes[s]]
    return cards, floating


def read_view(game: GCBCGame, data: JSON, reader: HistoryReader | None = None) -> Knowledge:
    """The seat's knowledge and team estimate from its view JSON (rules 1-3).

    ``reader``: a :class:`HistoryReader` already fed this view's whole history (else one is fed here).
    """
    me, n = data["seat"], game.num_players
    players = data["players"]
    if reader is None:
        reader = HistoryReader(me, n)
        reader.feed(data["history"])
    cards, floating = _history_cards(data, n, reader)
    mine = [_CARD_INDEX[c] for c in cards[me] if c is not None]
    k = Knowledge(
        me=me, n=n, team=team_of(mine, players[me]["inverted"]),
        alive=[p["alive"] for p in players], wounded=[p["wounded"] for p in players],
        gun=[p["gun"] for p in players], aim=[p["aim"] for p in players],
        equipment=[p["equipment"] for p in players],
        face_up=[[c["face_up"] for c in p["cards"]] for p in players],
        cards=cards, floating=floating,
    )
    # The uninformed prior: each unknown card is one of the cards not located yet.
    side = SIDE_CARDS.get(n, 0)
    pool = {AGENT: 1.0, KINGPIN: 1.0, HONEST: float(side), CROOKED: float(side)}
    for s in range(n):
        for c in [*cards[s], *floating[s]]:
            if c is not None:
                pool[c] = max(0.0, pool[c] - 1.0)
    total = sum(pool.values()) or 1.0
    slot = [pool[name] / total for name in INTEGRITY_NAMES]
    memo: dict[tuple[tuple[int, ...], int, bool], tuple[float, float, float]] = {}
    for s in range(n):
        known = [c for c in cards[s] if c is not None] + floating[s]
        missing = max(0, len(cards[s]) - len(known))
        key = (tuple(sorted(_CARD_INDEX[c] for c in known)), missing, bool(players[s]["inverted"]))
        if key not in memo:  # seats with the same known cards share the sum
            memo[key] = _team_odds(*key, tuple(slot))
        pc, pa, pk = memo[key]
        k.p_crooked.append(pc)
        k.p_agent.append(pa)
        k.p_kingpin.append(pk)
        k.settled.append(missing == 0 or AGENT in known or KINGPIN in known)
        seen = len(known)
        bad = sum(1 for c in known if c in (CROOKED, KINGPIN))
        k.why.append(f"{bad} of {seen} seen cards crooked" if seen else "no card seen")
    _behaviour(k, reader.pairs)
    return k


@lru_cache(maxsize=4096)
def _team_odds(
    known: tuple[int, ...], missing: int, inverted: bool, slot: tuple[float, ...]
) -> tuple[float, float, float]:
    """(P(crooked), P(holds the Agent), P(holds the Kingpin)) of a hand with ``missing`` unknown
    cards, each drawn independently with the probabilities ``slot`` (rule 2). A pure function of its
    arguments, so it is cached: a rollout asks it the same few questions thousands of times."""
    pc = pa = pk = mass = 0.0
    for combo in product(range(4), repeat=missing):
        weight = math.prod(slot[i] for i in combo)
        if weight == 0.0:
            continue
        mass += weight
        hand = [*known, *combo]
        if team_of(hand, inverted) == "crooked":
            pc += weight
        pa += weight if 0 in hand else 0.0
        pk += weight if 1 in hand else 0.0
    mass = mass or 1.0
    return pc / mass, pa / mass, pk / mass


def _behaviour(k: Knowledge, pairs: dict[tuple[int, int], float]) -> None:
    """Rule 3: who chose to aim at or shoot a seat whose team the cards settle (``pairs``: the
    strongest evidence per (actor, target), from :class:`HistoryReader`)."""
    base = list(k.p_crooked)
    base[k.me] = 1.0 if k.team == "crooked" else 0.0
    shift = [0.0] * k.n
    notes: list[list[str]] = [[] for _ in range(k.n)]
    for (s, t), weight in pairs.items():
        if s == t or k.settled[s] or s == k.me:
            continue
        lean = 1.0 - 2.0 * base[t]  # +1: t is surely honest, so s is likely crooked
        if abs(lean) < 0.5:
            continue
        shift[s] += weight * lean
        verb = "shot" if weight == SHOT_WEIGHT else "aimed at"
        notes[s].append(f"{verb} {'honest' if lean > 0 else 'crooked'} seat {t}")
    for s in range(k.n):
        if shift[s]:
            p = min(max(k.p_crooked[s], 1e-6), 1 - 1e-6)
            k.p_crooked[s] = 1.0 / (1.0 + math.exp(-(math.log(p / (1 - p)) + shift[s])))
            k.why[s] += "; " + ", ".join(notes[s])


def informed(k: Knowledge, marginals: Sequence[Mapping[str, Any]]) -> Knowledge:
    """``k`` with the exact posterior's marginals (:meth:`GCBCPosterior.marginals`) in place of the
    team estimate of rules 2-3, for every other seat the posterior covers: P(crooked), P(Agent),
    P(Kingpin), and per face-down position P(each card), which rule 7 then reads for the chance
    that a card is the enemy leader. The rules that act on the estimate are unchanged."""
    k.card_odds = [[] for _ in range(k.n)]
    for s, m in enumerate(marginals):
        if s == k.me or not m:
            continue
        k.p_crooked[s] = 1.0 - float(m["p_honest"])
        k.p_agent[s] = float(m["p_agent"])
        k.p_kingpin[s] = float(m["p_kingpin"])
        k.card_odds[s] = list(m["cards"])
        k.why[s] = f"exact posterior; {k.why[s]}"
    return k


# --- the bot --------------------------------------------------------------------------------------
def score_view(game: GCBCGame, data: JSON, legal: tuple[Action, ...],
               reader: HistoryReader | None = None,
               marginals: Sequence[Mapping[str, Any]] | None = None) -> tuple[list[Scored], Knowledge]:
    """(action, score, reason) for each of ``legal`` from a seat's view JSON ``data``, and the knowledge
    behind them (rules 1-15; ``data`` is read, never changed; ``reader`` as for :func:`read_view`;
    ``marginals``: an exact posterior's, to replace the team estimate, :func:`informed`)."""
    k = read_view(game, data, reader)
    if marginals is not None:
        informed(k, marginals)
    return _Decider(game, k, data, legal).score(), k


#: Team estimates of the heuristic (option ``estimate``): rules 2-3, or the exact posterior.
ESTIMATES: Final = ("rules", "posterior")


def best_actions(scored: list[Scored]) -> list[Action]:
    """The actions of ``scored`` whose score ties the best (within 1e-9), in ``scored``'s order."""
    top = max(s for _, s, _ in scored)
    return [a for a, s, _ in scored if s >= top - _TIE]


class HeuristicBot(Bot):
    """Rule-based Good Cop Bad Cop: a team estimate from what the seat saw, then fixed rules."""

    name: ClassVar[str] = "heuristic"
    description: ClassVar[str] = (
        "rule-based Good Cop Bad Cop: team estimate from seen cards and aims; shoot, arm, investigate"
    )
    options: ClassVar[Mapping[str, Option]] = {
        "epsilon": Option(0.0, float, "probability of a uniformly random move instead", 0.0, 1.0),
        "estimate": Option("rules", str, "team estimate: rules (rules 2-3, ~0.3 ms) or posterior (the "
                           "exact posterior with the behaviour model, a few ms)", choices=ESTIMATES),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        if not isinstance(game, GCBCGame):
            raise ConfigError(f"heuristic bot: this one plays gcbc, not {game.name!r}")
        super().__init__(game, seat, rng, **options)
        self.gcbc: GCBCGame = game
        self.epsilon: float = self.settings["epsilon"]
        self.estimate: str = self.settings["estimate"]
        #: the last view, its exact posterior and (once asked) its marginals: one decision asks more
        #: than once, and the ``ismcts`` bot draws its worlds from the same posterior
        self._posterior: tuple[View, Any, list[dict[str, Any]] | None] | None = None

    def posterior(self, view: View) -> Any:
        """The exact posterior for ``view`` with the shipped behaviour model, kept for the last view."""
        cached = self._posterior
        if cached is None or cached[0] is not view:
            cached = self._posterior = (view, posterior_for(self.gcbc, view, "full"), None)
        return cached[1]

    def marginals(self, view: View) -> list[dict[str, Any]] | None:
        """The exact posterior's marginals for ``view`` with ``estimate=posterior``, else None."""
        if self.estimate == "rules":
            return None
        post = self.posterior(view)
        cached = self._posterior
        if cached is None or cached[2] is None:
            cached = self._posterior = (view, post, post.marginals())
        return cached[2]

    def scores(self, view: View) -> tuple[list[Scored], Knowledge]:
        """(action, score, reason) for every legal action of ``view``, and the knowledge behind it."""
        return score_view(self.gcbc, view.to_json(), self.check_view(view), marginals=self.marginals(view))

    def step(self, view: View) -> Action:
        """The best-scoring legal action (ties and the epsilon exploration use the generator)."""
        legal = self.check_view(view)
        if len(legal) == 1:
            return legal[0]
        if self.epsilon > 0.0 and self.rng.random() < self.epsilon:
            return legal[int(self.rng.integers(len(legal)))]
        scored, _ = self.scores(view)
        best = best_actions(scored)
        return best[int(self.rng.integers(len(best)))] if len(best) > 1 else best[0]

    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Every legal action ranked by score with its reason; the team estimate as the belief.

        ``budget`` is ignored: the rules need no search time.
        """
        scored, k = self.scores(view)
        ranked = tuple(
            RankedAction(a, self.game.action_to_str(a), round(s, 3), reason)
            for a, s, reason in sorted(scored, key=lambda x: (-x[1], x[0]))
        )
        belief = {
            "team": k.team,
            "seats": [
                {"seat": s, "p_crooked": round(k.p_crooked[s], 3), "p_agent": round(k.p_agent[s], 3),
                 "p_kingpin": round(k.p_kingpin[s], 3), "why": k.why[s]}
                for s in range(k.n)
            ],
        }
        likely = sorted(k.others(), key=lambda s: -k.p_enemy(s))
        summary = f"I am {k.team}; best: {ranked[0].text} ({ranked[0].reason})"
        if likely:
            summary += f"; likeliest enemy: {k.describe(likely[0])}"
        return Advice(view.seat, ranked, belief, summary)


class _Decider:
    """Scores the legal actions of one decision (rules 4-15)."""

    def __init__(self, game: GCBCGame, k: Knowledge, data: JSON, legal: tuple[Action, ...]) -> None:
        self.game = game
        self.k = k
        self.data = data
        self.legal = legal
        self.prompt: str = data["decision"]["prompt"]
        self.active: int | None = data["active"]

    def effect(self, card: int) -> Effect:
        """The effect of Equipment card ``card`` in this game's deck."""
        return self.game.equipment.cards[card].effect

    # --- dispatch ---------------------------------------------------------------------------
    def score(self) -> list[Scored]:
        """Score every legal action of the pending decision."""
        legal = self.legal
        first = legal[0]
        if codec.EQUIP in legal or legal == (codec.SHOOT,):
            return self.announce()
        if codec.PASS in legal:
            return self.window()
        if _is(first, codec.ARRANGE, 16):
            return [(a, 1.0, "the layout is hidden: any order is as good") for a in legal]
        if _is(first, codec.AIM, 8):
            match = _REAIM.search(self.prompt)
            return self.aim(int(match.group(1)) if match else self.k.me)
        if _is(first, codec.FLIP, 3):
            return self.flip()
        if _is(first, codec.KEEP_CARD, 3):
            return self.keep_card()
        if _is(first, codec.KEEP_EQUIP, 32):
            return self.keep_equipment()
        return self.pick()

    # --- targets ----------------------------------------------------------------------------
    def target_value(self, t: int) -> tuple[float, str]:
        """How much this seat wants ``t`` shot (aim and shoot, rules 4 and Aiming)."""
        k = self.k
        if t == k.me:
            return -9.0, "myself"
        if k.p_ally_leader(t) > 0.999:
            return -5.0, f"seat {t} holds my team's leader card"
        value = k.p_enemy(t) + 0.75 * k.p_enemy_leader(t)
        if k.p_enemy_leader(t) > 0.999:
            value += 1.0 + (1.0 if k.wounded[t] else 0.0)
            return value, f"seat {t} is the enemy leader{' (wounded: one shot wins)' if k.wounded[t] else ''}"
        return value, k.describe(t)

    def info_value(self, seat: int, pos: int) -> tuple[float, str]:
        """What looking at ``seat``'s card at ``pos`` is worth (rule 7)."""
        k = self.k
        if seat == k.me or k.cards[seat][pos] is not None or k.face_up[seat][pos]:
            return 0.0, "I already know that card"
        if k.card_odds and pos < len(k.card_odds[seat]):
            # the posterior's own chance that this very card is the enemy leader (:func:`informed`)
            leader = k.card_odds[seat][pos].get(KINGPIN if k.team == "honest" else AGENT, 0.0)
        else:
            leader = k.p_enemy_leader(seat) / max(1, len(k.unknown(seat)))
        value = k.uncertainty(seat) + 1.5 * leader
        return value, f"{k.describe(seat)}; look at an unknown card"

    def best_looks(self, exclude: tuple[int, ...] = ()) -> list[tuple[float, int]]:
        """(uncertainty, seat) of other living seats with an unknown face-down card, most open first."""
        k = self.k
        out = [(k.uncertainty(s), s) for s in k.others() if s not in exclude and k.unknown(s)]
        return sorted(out, key=lambda x: (-x[0], x[1]))

    # --- the announcement (rules 4-8) -------------------------------------------------------
    def announce(self) -> list[Scored]:
        k = self.k
        me = k.me
        best_target = max((self.target_value(t)[0] for t in k.others()), default=-9.0)
        best_enemy = max((k.p_enemy(t) for t in k.others()), default=0.0)
        out: list[Scored] = []
        for a in self.legal:
            if a == codec.SHOOT:
                aimed = k.aim[me]
                t = me if aimed is None else aimed  # shoot is legal only with an aimed Gun
                value, why = self.target_value(t)
                if value < -1:
                    out.append((a, -5.0, f"never shoot: {why}"))
                elif k.p_enemy_leader(t) > 0.999:
                    out.append((a, 10.0 + value, f"{why}; shoot"))
                elif k.p_enemy(t) >= 0.75:
                    out.append((a, 8.0 + value, f"{why}; shoot"))
                else:
                    out.append((a, 0.5 + k.p_enemy(t), f"{why}; too unsure to shoot"))
            elif a == codec.ARM:
                if best_enemy >= 0.6 or best_target > 1.5:
                    out.append((a, 6.0 + best_enemy, f"a likely enemy to aim at (P {best_enemy:.2f}); arm"))
                else:
                    out.append((a, 1.2, "nobody is a likely enemy yet; arming would show a card for nothing"))
            elif a == codec.EQUIP:
                out.append((a, 1.5, "draw Equipment (nothing better to learn)"))
            elif _is(a, codec.INVESTIGATE, 24):
                seat, pos = codec.slot(a, codec.INVESTIGATE)
                value, why = self.info_value(seat, pos)
                out.append((a, 1.0 + 3.0 * value, f"{why}; investigate"))
            else:
                out.append(self.own_action(a, best_target))
        return out

    def own_action(self, a: Action, best_target: float) -> Scored:
        """An own-action card (the Taser, rule 5)."""
        k = self.k
        card, target = codec.decode_play(a)
        if self.effect(card) == Effect.TAKE_GUN and target >= 0:
            aimed = k.aim[target]
            threat = aimed is not None and (aimed == k.me or k.p_ally_leader(aimed) > 0.5)
            if k.p_enemy(target) >= 0.5 and (best_target >= 0.6 or threat):
                return a, 6.5 + k.p_enemy(target) + (1.0 if threat else 0.0), (
                    f"{k.describe(target)}; take its Gun (no card shown) and aim it myself")
            return a, 0.3, f"{k.describe(target)}; not worth taking its Gun"
        return a, 0.3, "no rule for this card as an action"

    # --- windows (rules 9-14) ---------------------------------------------------------------
    def window(self) -> list[Scored]:
        out: list[Scored] = [(codec.PASS, 1.0, "nothing worth a card now")]
        kind = _window_kind(self.prompt)
        for a in self.legal:
            if a == codec.PASS:
                continue
            card, target = codec.decode_play(a)
            rule = _WINDOW_RULES.get(self.effect(card))
            found = rule(self, target, kind) if rule is not None else None
            out.append((a, *found) if found is not None else (a, 0.0, "no rule says this card helps now"))
        return out

    @property
    def my_turn(self) -> bool:
        return self.active == self.k.me

    def next_seat(self, after: int, direction: int) -> int:
        """The next living seat after ``after`` in ``direction``."""
        k = self.k
        for i in range(1, k.n + 1):
            s = (after + i * direction) % k.n
            if k.alive[s]:
                return s
        return after

    def threatens(self, g: int) -> bool:
        """``g`` is a likely enemy whose Gun aims at this seat or a likely ally."""
        k = self.k
        t = k.aim[g]
        if not k.gun[g] or t is None or g == k.me:
            return False
        return k.p_enemy(g) >= 0.5 and (t == k.me or k.p_enemy(t) <= 0.4)

    def swap_plan(self) -> tuple[str, tuple[int, int], int] | None:
        """Rule 9: (kind, leader card to move, receiver) or None. Kind "solo" or "heal"."""
        k = self.k
        mine = k.cards[k.me]
        if AGENT in mine or KINGPIN in mine:
            other = KINGPIN if AGENT in mine else AGENT
            spot = k.where(other)
            if spot is not None:
                return "solo", spot, k.me
            return None
        spot = k.where(LEADER_OF[k.team])
        if spot is not None and k.wounded[spot[0]]:
            return "heal", spot, k.me
        return None

    def heal_others_plan(self) -> tuple[tuple[int, int], int] | None:
        """Rule 9 (4th Blackmail): the wounded team leader's card and a healthy receiver."""
        k = self.k
        spot = k.where(LEADER_OF[k.team])
        if spot is None or not k.wounded[spot[0]]:
            return None
        other = AGENT if k.team == "crooked" else KINGPIN
        fits = [s for s in k.others() if s != spot[0] and not k.wounded[s]
                and (k.p_agent[s] if other == AGENT else k.p_kingpin[s]) < 0.2]
        if not fits:
            return None
        return spot, min(fits, key=lambda s: (k.p_enemy(s), s))

    # --- picks, aims, flips, keeps -------------------------------------------------------------
    def pick(self) -> list[Scored]:
        purpose = next((p for p, pattern in _PICKS if pattern.search(self.prompt)), -1)
        k = self.k
        out: list[Scored] = []
        for action in self.legal:
            if _is(action, codec.INVESTIGATE, 24):
                seat, pos = codec.slot(action, codec.INVESTIGATE)
                value, why = self.info_value(seat, pos)
                out.append((action, 1.0 + value, why))
                continue
            seat, pos = codec.slot(action, codec.PICK)
            card = k.cards[seat][pos] if pos < len(k.cards[seat]) else None
            out.append(self.pick_card(purpose, seat, pos, card, action))
        return out

    def pick_card(self, purpose: int, seat: int, pos: int, card: str | None, action: Action) -> Scored:
        """Blackmail and camera picks follow the plan that made the card worth playing."""
        k = self.k
        leader = card in (AGENT, KINGPIN)
        if purpose == ops.PICK_SWAP_MINE:
            return action, (0.5 if leader else 2.0), "give away a card that is not a leader card"
        if purpose == ops.PICK_SWAP_THEIRS:
            plan = self.swap_plan()
            hit = plan is not None and plan[1] == (seat, pos)
            return action, (3.0 if hit else 1.0), ("take the leader card" if hit else "a card of theirs")
        if purpose == ops.PICK_SWAP_FIRST:
            hplan = self.heal_others_plan()
            hit = hplan is not None and hplan[0] == (seat, pos)
            return action, (3.0 if hit else 1.0), ("move our wounded leader's card" if hit else "a card")
        if purpose == ops.PICK_SWAP_SECOND:
            # the receiver: not a leader card, a seat unlikely to be the other leader, ally first
            leaders = k.p_agent[seat] + k.p_kingpin[seat]
            value = 2.0 - k.p_enemy(seat) - 2.0 * leaders - (2.0 if leader else 0.0)
            return action, value, f"{k.describe(seat)}; receives our leader card"
        # the camera: expose the card this seat knows hurts the enemy
        bad = card == LEADER_OF[OTHER[k.team]] or (k.team == "honest" and card == CROOKED)
        if bad:
            return action, 2.0, f"expose a known {card} card"
        return action, 1.0, "an investigated card"

    def aim(self, holder: int) -> list[Scored]:
        k = self.k
        out: list[Scored] = []
        for a in self.legal:
            t = a - codec.AIM
            if holder == k.me:
                value, why = self.target_value(t)
                # keep the current aim among equals: a needless re-aim only adds noise to the table
                same = t == k.aim[k.me]
                out.append((a, value + (0.01 if same else 0.0), f"{why}; {'keep aiming' if same else 'aim'}"))
            else:
                # Planted Evidence: the most likely enemy of mine, wherever the Gun is
                out.append((a, k.p_enemy(t) + 0.75 * k.p_enemy_leader(t) - (3.0 if t == k.me else 0.0),
                            f"{k.describe(t)}; point seat {holder}'s Gun there"))
        return out

    def flip(self) -> list[Scored]:
        k = self.k
        out: list[Scored] = []
        for a in self.legal:
            pos = a - codec.FLIP
            card = k.cards[k.me][pos] or HONEST
            reason = {
                HONEST: "show an Honest card first" + (" (looks honest)" if k.team == "crooked" else ""),
                CROOKED: "no Honest card left to show; a Crooked card before a leader card",
            }.get(card, "keep the leader card face down as long as I can")
            out.append((a, FLIP_VALUE[card], reason))
        return out

    def keep_card(self) -> list[Scored]:
        k = self.k
        side = HONEST if k.team == "honest" else CROOKED
        out: list[Scored] = []
        for a in self.legal:
            card = k.cards[k.me][a - codec.KEEP_CARD]
            out.append((a, 2.0 if card == side else 1.0,
                        f"keep {card}: stay on my team" if card == side else f"keep {card}"))
        return out

    def keep_equipment(self) -> list[Scored]:
        out: list[Scored] = []
        for a in self.legal:
            card = a - codec.KEEP_EQUIP
            effect = self.effect(card)
            value = KEEP_VALUE.get(effect, 1.0)
            out.append((a, value, f"{self.game.card_ids[card]} is worth keeping ({value:g} of 10)"))
        return out


# --- the window rule of each effect (rules 9-14); None: the card does not help now ------------------
Rule = Callable[[_Decider, int, str], tuple[float, str] | None]


def _swap_own(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    plan = d.swap_plan()
    if plan is None or plan[1][0] != target:
        return None
    if plan[0] == "solo":
        return 9.0, f"I hold a leader card and know where seat {target}'s is: take it, win alone"
    return 6.0, f"seat {target}, our leader, is wounded: take its leader card"


def _swap_others(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    plan = d.heal_others_plan()
    if plan is None:
        return None
    return 5.0, f"our wounded leader's card goes to seat {plan[1]}, unhurt"


def _next_turn(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    t = k.aim[target]
    if not k.gun[target] or t is None or k.p_enemy(target) > 0.3 or k.p_enemy(t) < 0.75:
        return None
    if d.active is not None and d.next_seat(d.active, d.data["direction"]) == target:
        return None
    return 3.0, f"{k.describe(target)} aims at seat {t}, a likely enemy: it plays next"


def _extra_turn(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    if d.my_turn and kind == "resolved":
        return 3.0, "one more turn for me"
    return None


def _revive(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    if k.p_enemy(target) < 0.5:
        return 5.0, f"seat {target} was on my team: bring it back"
    return None


def _take_equipment(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    if k.p_enemy(target) >= 0.65:
        return 2.0 + k.p_enemy(target), f"{k.describe(target)}: take its Equipment"
    return None


def _rearrange(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    mine = k.cards[k.me]
    shown = [c for c, up in zip(mine, k.face_up[k.me], strict=True) if up]
    betrays = any(c in (AGENT, KINGPIN) for c in shown) or (
        k.team == "crooked" and CROOKED in shown)
    if kind == "start" and betrays:
        return 2.5, "a face-up card of mine gives me away: lay them face down again"
    return None


def _see_equipment(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    if d.my_turn and kind == "start" and k.p_enemy(target) >= 0.6:
        return 1.5, f"{k.describe(target)}: see its Equipment"
    return None


def _disarm(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    if not d.threatens(target):
        return None
    shot = kind == "announced" and d.data["announced"] == "shoot" and d.active == target
    return (7.0 if shot else 4.0), f"{k.describe(target)} aims at seat {k.aim[target]}: send its Gun home"


def _investigate_armed(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    armed = [u for u, s in d.best_looks() if k.gun[s]]
    if armed and armed[0] >= 0.5:
        return 2.0 + armed[0], "an armed seat's team is still open: Metal Detector"
    return None


def _re_aim(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    t = k.aim[target]
    if t is None:
        return None
    enemies = [u for u in k.others() if u not in (target, t) and k.p_enemy(u) >= 0.75]
    shot = kind == "announced" and d.data["announced"] == "shoot" and d.active == target
    if shot and (t == k.me or k.p_enemy(t) <= 0.4):
        return 6.0, f"seat {target} is about to shoot seat {t}, not an enemy: turn its Gun"
    if target != k.me and d.threatens(target):
        return 3.5, f"{k.describe(target)} aims at seat {t}: turn its Gun away"
    if enemies and k.p_enemy(target) <= 0.3 and k.p_enemy(t) < 0.5:
        return 3.0, f"seat {target}'s Gun aims at seat {t}, not an enemy: point it at a likely enemy"
    return None


def _invert(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    if target != k.me or AGENT in k.cards[k.me] or KINGPIN in k.cards[k.me]:
        return None
    ours, theirs = k.where(LEADER_OF[k.team]), k.where(LEADER_OF[OTHER[k.team]])
    if ours is not None and k.wounded[ours[0]] and not (theirs is not None and k.wounded[theirs[0]]):
        return 2.0, "my team's leader is wounded and theirs is not: change sides"
    return None


def _polygraph(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    if AGENT in k.cards[k.me] or KINGPIN in k.cards[k.me] or not d.my_turn:
        return None
    if k.unknown(target) and k.uncertainty(target) >= 0.75:
        return 2.0 + k.uncertainty(target), f"{k.describe(target)}: see all its cards (it sees mine)"
    return None


def _audit(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    hidden = [s for s in k.others() if not any(k.face_up[s])]
    if len(hidden) >= 2:
        return 2.5, f"{len(hidden)} players show no card: each turns one face up"
    return None


def _redirect(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    t = None if d.active is None else k.aim[d.active]
    if d.active is None or t is None:
        return None
    if t == k.me:
        return 8.0, f"seat {d.active} is about to shoot me"
    if k.p_ally_leader(t) > 0.999:
        return 9.0, f"seat {d.active} is about to shoot our leader, seat {t}"
    if k.p_enemy(t) <= 0.4:
        return 6.0, f"seat {d.active} is about to shoot seat {t}, a likely ally"
    return None


def _reverse(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    if d.active is None:
        return None
    direction = d.data["direction"]
    ahead, behind = d.next_seat(d.active, direction), d.next_seat(d.active, -direction)
    if d.threatens(ahead) and not d.threatens(behind):
        return 3.0, f"seat {ahead}, a likely enemy aiming at my side, would play next: reverse"
    return None


def _expose(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    if target == k.me:
        return None
    for seat, pos in d.data["camera"]:
        card = k.cards[seat][pos] if seat == target and pos < len(k.cards[seat]) else None
        if card == LEADER_OF[OTHER[k.team]]:
            return 6.0, f"seat {target}'s investigated card is the {card}: expose it"
        if card == CROOKED and k.team == "honest":
            return 3.0, f"seat {target}'s investigated card is Crooked: expose it"
    return None


def _look(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    k = d.k
    if not d.my_turn or target == k.me or not k.unknown(target):
        return None
    if k.uncertainty(target) >= 0.75:
        return 2.0 + k.uncertainty(target), f"{k.describe(target)}: learn one of its cards"
    return None


def _look_two_players(d: _Decider, target: int, kind: str) -> tuple[float, str] | None:
    looks = d.best_looks()
    if d.my_turn and len(looks) >= 2 and looks[0][0] + looks[1][0] >= 1.0:
        return 2.5, f"seats {looks[0][1]} and {looks[1][1]} are still open: look at one card of each"
    return None


_WINDOW_RULES: Final[dict[Effect, Rule]] = {
    Effect.SWAP_OWN: _swap_own,
    Effect.SWAP_OTHERS: _swap_others,
    Effect.NEXT_TURN: _next_turn,
    Effect.EXTRA_TURN: _extra_turn,
    Effect.REVIVE: _revive,
    Effect.TAKE_EQUIPMENT: _take_equipment,
    Effect.REARRANGE: _rearrange,
    Effect.SEE_EQUIPMENT: _see_equipment,
    Effect.DISARM: _disarm,
    Effect.INVESTIGATE_ARMED: _investigate_armed,
    Effect.RE_AIM: _re_aim,
    Effect.INVERT: _invert,
    Effect.POLYGRAPH: _polygraph,
    Effect.AUDIT: _audit,
    Effect.REDIRECT_SHOT: _redirect,
    Effect.REVERSE: _reverse,
    Effect.EXPOSE_INVESTIGATED: _expose,
    Effect.REVEAL_ONE: _look,
    Effect.INVESTIGATE_TWO_CARDS: _look,
    Effect.INVESTIGATE_TWO_PLAYERS: _look_two_players,
}


register("gcbc", HeuristicBot)
