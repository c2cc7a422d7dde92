"""Determinization: full states consistent with one seat's view (DESIGN.md section 2).

``resample(game, view_json, rng, belief)`` draws what the seat cannot see and returns a state whose
``view(seat)`` equals the view, reached by replaying the seat's own history with the hidden parts
filled in (so ``to_json`` replays). It reads only the view: the seat's history, each step's text as
the seat saw it and the events it saw, and, during the deal, how many cards each hand holds.

**What it samples.** The hidden facts are the Integrity deal (each seat's three cards in the
positions it laid them out at set-up), the Equipment cards drawn from the unseen deck, and other
seats' hidden choices: the order after another seat's Flashbang and which card another seat kept at
the hand limit. With ``belief=None`` the draw is *exactly* the game's own distribution conditioned
on the view, under two stated assumptions about choices the rules leave to the players (each seat
lays its cards out uniformly over their distinct orders; another seat's Flashbang order and
hand-limit keep are uniform):

* the deal prior is uniform over ordered deals with the Agent and the Kingpin in two different
  seats' hands and at most ``side_cards`` Honest and Crooked cards: the ordered pair of leader seats
  is uniform, every other card a draw without replacement from one deck, and a seat's layouts
  match its card sequences (a leader's seat 3 layouts per 3 sequences' worth), so every ordered deal
  has the same probability (``k!/(k-h)! * k!/(k-(3n-2-h))!`` is flat over the feasible Honest
  counts ``h``; see :mod:`solver.belief.gcbc_posterior`);
* Equipment variables (the k-th card drawn from the unseen deck) are a uniform injection into the
  cards; hidden orders and keeps are uniform permutations.

The draw is uniform over every complete hidden assignment consistent with the view, weighted by
those priors. No rejection: consistency is decided symbolically and counted.

How. (1) A pass over the seat's events follows every Integrity card as a *token* (token ``3 * s +
p`` is the card seat ``s`` laid at position ``p`` at set-up) through swaps, Flashbangs and revivals
(:class:`TokenPass`), and every Equipment card drawn from the unseen deck as a *variable*, through
hands, the bottom queue, takings and plays. What the seat saw binds tokens (a face-up card, an
investigation, a Polygraph, a shot, a card received) and variables (a card it drew, a card anyone
played). A hidden permutation is resolved slot by slot only when an observation needs it; each
such step is a branch point, and every branch (each remaining item, 1/remaining a priori) is
followed: a depth-first enumeration over the resolutions the observations force, by re-running the
pass with a prefix of choices (:class:`_Choices`). Each surviving leaf has its prior weight. (2)
What the rules prove without a shown card is a constraint on the leader cards: a swap that did not
end the game leaves no living hand with both leader cards [Fin], and a wounded seat in it still
holds one [Recibir un disparo]; during the deal a hand of one card is a leader's, an empty one is
not. (3) Per token leaf, every placement of the Agent and the Kingpin is checked against the
bindings and constraints, and the Honest/Crooked completions of the other tokens are *counted*
(``sum_h C(r, h)`` over the feasible Honest counts); per Equipment leaf the completions are the
falling factorial of free cards over free variables. One (leaf, placement) is drawn by weight, then
the Honest count by ``C(r, h)``, the Honest tokens uniformly, the free variables uniformly, and the
slots no observation touched uniformly. (4) The history is replayed with the hidden steps
(``leaders ?``, ``deal ?``, ``arrange ?``, ``draw ?``, ``keep ?``) computed from that world, and the
result's view is compared with the given one; a difference means the view is not one any game
produces (BadStateError), never a second draw.

The belief hook. ``belief`` may be ``None`` (the distribution above), an object with
``sample_deal(view_json, rng)``, or a sequence of ``(weight, deal)`` pairs. A *deal* lists, per
seat, the three Integrity card names in the positions that seat laid them out at set-up, e.g.
``[["honest", "agent", "crooked"], ...]``. A deal that contradicts the view is drawn again (at most
:data:`MAX_BELIEF_DRAWS` times: the belief is the caller's, its errors are reported, not hidden)
or filtered out of the list before the weights are applied. Given the deal, the hidden orders are
drawn from their exact conditional distribution; Equipment as above. This is where exact Bayesian
inference over deals plugs in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb, perm
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

import numpy as np

from solver.core import JSON, BadStateError, IllegalActionError, InvalidActionError
from solver.games.gcbc import codec, ops
from solver.games.gcbc.deal import INTEGRITY_NAMES, LEADERS, MAX_PLAYERS, Integrity, arrangement_for

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCGame, GCBCState

#: Deals drawn from a ``sample_deal`` belief before its inconsistency is reported.
MAX_BELIEF_DRAWS: Final = 64
#: Passes the enumeration of hidden orders may take before the view is declared too tangled (a
#: bound on work, not on luck: no real game comes near it; the tests report the largest seen).
MAX_PASSES: Final = 200_000

_T = TypeVar("_T")


class Contradiction(Exception):
    """The hidden facts chosen so far cannot have produced the view."""


Cell = int | tuple[int, int]  # a token/variable id, or (permutation, slot) not resolved yet


class _Choices:
    """The branch taken at each hidden choice of one pass, and its prior weight.

    A pass takes ``prefix[d]`` at its d-th branch point and the first option after the prefix,
    recording every point it met, so that :func:`_enumerate` can start the siblings.
    """

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.taken: list[tuple[int, int]] = []  # (option taken, options) per branch point
        self.weight = 1.0

    def pick(self, options: int, of: int) -> int:
        """An index below ``options``: one of ``options`` viable items among ``of`` equally likely
        ones (the others were ruled out before branching; their branches weigh 0)."""
        if options == 0:
            raise Contradiction
        d = len(self.taken)
        i = self.prefix[d] if d < len(self.prefix) else 0
        self.taken.append((i, options))
        self.weight /= of
        return i


def _enumerate(run: Callable[[_Choices], _T]) -> list[tuple[float, _T]]:
    """Every leaf of the choice tree ``run`` walks, with its weight (depth first, by re-running)."""
    leaves: list[tuple[float, _T]] = []
    todo: list[list[int]] = [[]]
    passes = 0
    while todo:
        passes += 1
        if passes > MAX_PASSES:
            raise BadStateError(f"gcbc view: more than {MAX_PASSES} hidden orders to enumerate")
        prefix = todo.pop()
        choices = _Choices(prefix)
        try:
            result = run(choices)
            leaves.append((choices.weight, result))  # the weight the run multiplied in
        except Contradiction:
            pass
        for d in range(len(prefix), len(choices.taken)):
            head = [i for i, _ in choices.taken[:d]]
            todo += [head + [j] for j in range(1, choices.taken[d][1])]
    return leaves


class _Perms:
    """Hidden permutations of one domain (tokens or variables), resolved only where observed.

    Another seat's Flashbang puts its cards in an order the observer does not see; another seat's
    hand-limit choice keeps one of two cards unseen. Each is a permutation from slots to the items
    it reorders, uniform a priori. A slot is resolved when an observation binds it: to each
    remaining item in turn (a branch of :class:`_Choices`, weight 1/remaining), skipping items
    whose identity rules it out. The slots nobody observed are resolved at random at the end.
    """

    def __init__(self, choices: _Choices, unique: frozenset[int]) -> None:
        self.choices = choices
        self.known: dict[int, int] = {}  # id -> identity
        self.unique = unique  # identities at most one id may take
        self.perms: list[tuple[list[Cell], list[Cell | None]]] = []

    def new(self, items: list[Cell]) -> list[Cell]:
        """A hidden permutation of ``items``; returns its slots."""
        k = len(self.perms)
        self.perms.append((list(items), [None] * len(items)))
        return [(k, j) for j in range(len(items))]

    def base(self, cell: Cell) -> int | None:
        """The id behind ``cell``, or None while a permutation on the way is unresolved."""
        while isinstance(cell, tuple):
            found = self.perms[cell[0]][1][cell[1]]
            if found is None:
                return None
            cell = found
        return cell

    def identity(self, cell: Cell) -> int | None:
        """What ``cell`` is known to be, if anything."""
        b = self.base(cell)
        return None if b is None else self.known.get(b)

    def compatible(self, cell: Cell, x: int) -> bool:
        """Whether ``cell`` could be ``x``: looks through unresolved slots to the items they may be."""
        while isinstance(cell, tuple):
            items, slots = self.perms[cell[0]]
            got = slots[cell[1]]
            if got is None:
                return any(self.compatible(it, x) for it in items if it not in slots)
            cell = got
        if cell in self.known:
            return self.known[cell] == x
        return x not in self.unique or x not in self.known.values()

    def _step(self, cell: tuple[int, int], x: int | None) -> Cell:
        """Resolve one unresolved slot (to an item that could be ``x``, when given)."""
        items, slots = self.perms[cell[0]]
        free = [it for it in items if it not in slots]
        viable = free if x is None else [it for it in free if self.compatible(it, x)]
        got = viable[self.choices.pick(len(viable), len(free))]
        slots[cell[1]] = got
        return got

    def bind(self, cell: Cell, x: int) -> None:
        """Record that ``cell`` holds identity ``x``."""
        while isinstance(cell, tuple):
            got = self.perms[cell[0]][1][cell[1]]
            cell = self._step(cell, x) if got is None else got
        if cell in self.known:
            if self.known[cell] != x:
                raise Contradiction
        elif x in self.unique and x in self.known.values():
            raise Contradiction
        else:
            self.known[cell] = x

    def resolve(self, cell: Cell) -> int:
        """The id behind ``cell``, resolving the slots on the way (branch points)."""
        while isinstance(cell, tuple):
            got = self.perms[cell[0]][1][cell[1]]
            cell = self._step(cell, None) if got is None else got
        return cell

    def finish(self, rng: np.random.Generator) -> list[list[int]]:
        """Resolve every slot left, uniformly; return each permutation's ids, slot by slot."""
        for items, slots in self.perms:
            free = [it for it in items if it not in slots]
            order = rng.permutation(len(free))
            picks = iter(free[int(i)] for i in order)
            for j, got in enumerate(slots):
                if got is None:
                    slots[j] = next(picks)
        out = []
        for k, (items, _) in enumerate(self.perms):
            ids = [self.base((k, j)) for j in range(len(items))]
            out.append([i for i in ids if i is not None])
        return out


@dataclass
class _World:
    """One draw of the hidden facts: what the replay needs."""

    tokens: list[int] = field(default_factory=list)  # token -> Integrity
    cards: list[int] = field(default_factory=list)  # variable -> Equipment card
    flashes: list[list[int]] = field(default_factory=list)  # tokens after each hidden Flashbang
    keeps: list[int] = field(default_factory=list)  # the variable kept at each hidden hand limit


def resample(game: GCBCGame, data: JSON, rng: np.random.Generator, belief: Any | None) -> GCBCState:
    """A state consistent with the view ``data`` (see the module docstring)."""
    state, _ = search(game, data, rng, belief)
    if state is None:
        raise BadStateError(f"gcbc: no game is consistent with seat {data.get('seat')}'s view")
    return state


def search(game: GCBCGame, data: JSON, rng: np.random.Generator,
           belief: Any | None) -> tuple[GCBCState | None, GCBCState | None]:
    """``(a state with exactly this view, or None; the state the history replayed to, or None)``.

    The second lets a caller name the field of a view that no game produces.
    """
    seat, history = _checked(game, data)
    try:
        world = _draw_world(game, data, rng, belief)
    except (KeyError, IndexError, TypeError) as err:
        raise BadStateError(f"gcbc view: malformed event in the history ({err!r})") from err
    if world is None:
        return None, None
    state = _replay(game, history, world)
    if state is not None and state.view(seat).to_json() == data:
        return state, state
    return None, state


def _checked(game: GCBCGame, data: JSON) -> tuple[int, list[list[Any]]]:
    if not isinstance(data, dict) or data.get("game") != game.name or data.get("config") != game.config():
        raise BadStateError(f"gcbc: cannot resample a view of another game or config in {game!r}")
    seat, history = data.get("seat"), data.get("history")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise BadStateError(f"gcbc view: seat {seat!r} is not 0..{game.num_players - 1}")
    if not isinstance(history, list) or not all(
        isinstance(h, list) and len(h) == 3 and isinstance(h[1], str) and isinstance(h[2], list)
        and all(isinstance(e, dict) for e in h[2]) for h in history
    ):
        raise BadStateError("gcbc view: 'history' must list [actor, text, [events]] entries")
    return seat, history


class Binder(Protocol):
    """What the token pass needs from whoever records its findings (resample's :class:`_Lazy`, the
    posterior's constraint recorder)."""

    def new(self, items: list[Cell]) -> list[Cell]:
        """A hidden permutation of ``items``; returns its slots."""

    def bind(self, cell: Cell, x: int) -> None:
        """Record that ``cell`` holds Integrity card ``x``."""

    def identity(self, cell: Cell) -> int | None:
        """What ``cell`` is known to be, if anything."""


INTEGRITY_IDS: Final[dict[str, int]] = {name: i for i, name in enumerate(INTEGRITY_NAMES)}


class TokenPass:
    """The symbolic pass over Integrity cards, one event at a time (see the module docstring).

    ``pos[s]`` lists the cells at seat ``s``'s positions now: a token ``3 * s0 + p0`` (the card
    seat ``s0`` laid at position ``p0`` at set-up) or a slot of a hidden permutation. Each event the
    seat saw moves cells (swaps, Flashbangs, revivals) or binds them through ``binder`` (face-up
    cards, investigations, Polygraphs, received cards, the final reveal).
    """

    def __init__(self, n: int, seat: int, binder: Binder) -> None:
        self.seat = seat
        self.binder = binder
        self.pos: list[list[Cell]] = [[3 * s + p for p in range(3)] for s in range(n)]
        self.dealt: list[str] | None = None
        self.arranged = False

    def bind_all(self, s: int, names: Sequence[str]) -> None:
        """Every card of seat ``s``, position by position."""
        if len(names) != len(self.pos[s]):
            raise Contradiction
        for cell, name in zip(self.pos[s], names, strict=True):
            self.binder.bind(cell, INTEGRITY_IDS[name])

    def event(self, e: dict[str, Any]) -> bool:
        """Apply one event; False when it is not about Integrity cards."""
        kind, pos, binder = e["kind"], self.pos, self.binder
        if kind == "IntegrityDealt":
            if e["cards"] is not None:
                self.dealt = list(e["cards"])
        elif kind == "Arranged":
            s = e["seat"]
            if e["why"] == "setup":
                if e["cards"] is not None:
                    self.arranged = True
                    self.bind_all(s, e["cards"])
            elif e["cards"] is not None:  # our own Flashbang: follow the known cards
                pos[s] = _follow(pos[s], [INTEGRITY_IDS[c] for c in e["cards"]], binder)
            else:
                pos[s] = binder.new(pos[s])
        elif kind in ("CardFlipped", "CardReceived") or (kind == "Investigated" and e["card"]):
            binder.bind(pos[e["seat"]][e["pos"]], INTEGRITY_IDS[e["card"]])
        elif kind == "CardsRevealed" or (kind == "PolygraphSeen" and e["cards"] is not None):
            self.bind_all(e["seat"], e["cards"])
        elif kind == "CardsSwapped":
            a, pa, b, pb = e["seat_a"], e["pos_a"], e["seat_b"], e["pos_b"]
            pos[a][pa], pos[b][pb] = pos[b][pb], pos[a][pa]
        elif kind == "Revived":
            pos[e["seat"]] = [pos[e["seat"]][e["pos"]]]
            self.bind_all(e["seat"], [e["card"]])
        elif kind == "GameOver":
            for s, names in enumerate(e["cards"]):
                self.bind_all(s, names)
        else:
            return kind in ("Investigated", "PolygraphSeen")
        return True

    def finish(self, binder: Binder | None = None) -> None:
        """Dealt but not laid out yet: the seat's hand is in canonical order (bound through
        ``binder``, by default the pass's own: a caller that walks on later passes another)."""
        if self.dealt is not None and not self.arranged:
            for p, name in enumerate(self.dealt):
                (binder or self.binder).bind(3 * self.seat + p, INTEGRITY_IDS[name])


# --- (1)-(3): a world ---------------------------------------------------------------------------------
NOT_BOTH: Final = 0  # the cells hold at most one of the two leader cards
HAS_LEADER: Final = 1  # the cells hold a leader card
NO_LEADER: Final = 2  # the cells hold no leader card
HAS_AGENT: Final = 3
HAS_KINGPIN: Final = 4


@dataclass
class _TokenLeaf:
    """One resolution of the Integrity side: bound tokens, leader constraints on token sets."""

    perms: _Perms
    rules: list[tuple[int, frozenset[int]]]


@dataclass
class _CardLeaf:
    """One resolution of the Equipment side: bound variables, the hand-limit permutations."""

    perms: _Perms
    nvars: int
    keeps: list[int]  # the permutations that are hand-limit choices, in order


def _draw_world(game: GCBCGame, data: JSON, rng: np.random.Generator, belief: Any | None) -> _World | None:
    """A world drawn exactly (module docstring), or None if the view admits none."""
    seat, history = data["seat"], data["history"]
    token_leaves = _enumerate(lambda ch: _token_pass(game, seat, history, data, ch))
    card_leaves = _enumerate(lambda ch: _card_pass(game, history, ch))
    if not token_leaves or not card_leaves:
        return None
    world = _World()
    if belief is None:
        leaf = _sample_tokens(game, token_leaves, rng, world)
        if leaf is None:
            return None
    else:
        leaf = _belief_tokens(game, token_leaves, rng, belief, data, world)
    world.flashes = leaf.perms.finish(rng)
    _sample_cards(game, card_leaves, rng, world)
    return world


def _token_pass(game: GCBCGame, seat: int, history: list[list[Any]], data: JSON,
                choices: _Choices) -> _TokenLeaf:
    """Follow the Integrity cards through the seat's events; collect what binds and constrains them."""
    n = game.num_players
    perms = _Perms(choices, frozenset(LEADERS))
    tokens = TokenPass(n, seat, perms)
    alive, wounded = [True] * n, [False] * n
    dealt: set[int] = set()
    rules: list[tuple[int, tuple[Cell, ...]]] = []
    for _, _, events in history:
        swapped: list[int] = []
        ended = False
        for e in events:
            tokens.event(e)
            kind = e["kind"]
            if kind == "IntegrityDealt":
                dealt.add(e["seat"])
            elif kind == "CardsSwapped":
                swapped += [e["seat_a"], e["seat_b"]]
            elif kind == "Eliminated":
                alive[e["seat"]], wounded[e["seat"]] = False, False
            elif kind == "Wounded":
                wounded[e["seat"]] = True
            elif kind == "Revived":
                alive[e["seat"]], wounded[e["seat"]] = True, False
            elif kind == "GameOver":
                ended = True
        if swapped and not ended:
            # [Fin] both leader cards in one living hand win at once; [Recibir un disparo] a
            # wounded player left without a leader card is out. Neither happened: that is evidence.
            for s in dict.fromkeys(swapped):
                if alive[s]:
                    rules.append((NOT_BOTH, tuple(tokens.pos[s])))
                    if wounded[s]:
                        rules.append((HAS_LEADER, tuple(tokens.pos[s])))
    tokens.finish()
    if history and len(dealt) < n and seat not in dealt:
        # During the deal the leaders' seats hold their leader card alone until their turn to be
        # dealt; the view shows only the seat's own hand then (view.py), which says whether it holds
        # a leader card.
        cards = data["players"][seat]["cards"]
        hand = tuple(range(3 * seat, 3 * seat + 3))
        if not cards:
            rules.append((NO_LEADER, hand))
        elif len(cards) == 1 and cards[0]["card"] in ("agent", "kingpin"):
            rules.append((HAS_AGENT if cards[0]["card"] == "agent" else HAS_KINGPIN, hand))
        else:
            raise Contradiction
    return _TokenLeaf(perms, [(kind, frozenset(perms.resolve(c) for c in cells)) for kind, cells in rules])


def _card_pass(game: GCBCGame, history: list[list[Any]], choices: _Choices) -> _CardLeaf:
    """Follow the Equipment cards drawn from the unseen deck through the seat's events."""
    n = game.num_players
    cards = _Perms(choices, frozenset(range(len(game.card_ids))))
    equipment = {cid: i for i, cid in enumerate(game.card_ids)}
    hands: list[list[Cell]] = [[] for _ in range(n)]
    queue: list[Cell] = []
    keeps: list[int] = []
    nvars = 0
    for _, _, events in history:
        for e in events:
            kind = e["kind"]
            if kind == "EquipmentDrawn":
                if e["source"] == "deck":
                    v: Cell = nvars
                    nvars += 1
                elif queue:
                    v = queue.pop(0)
                else:
                    raise Contradiction
                hands[e["seat"]].append(v)
                if e["card"] is not None:
                    cards.bind(v, equipment[e["card"]])
            elif kind == "EquipmentPlayed":
                hand = hands[e["seat"]]
                if len(hand) != 1:
                    raise Contradiction
                cards.bind(hand[0], equipment[e["card"]])
                queue.append(hand.pop())
            elif kind == "EquipmentReturned":
                hand = hands[e["seat"]]
                if e["why"] == "eliminated":
                    for v in hand:
                        if e["card"] is not None:
                            cards.bind(v, equipment[e["card"]])
                    queue += hand
                    hand.clear()
                elif len(hand) != 2:
                    raise Contradiction
                elif e["card"] is not None:  # our own choice: the returned card is known
                    card = equipment[e["card"]]
                    i = next((i for i, c in enumerate(hand) if cards.identity(c) == card), None)
                    if i is None:
                        raise Contradiction
                    queue.append(hand.pop(i))
                else:
                    keeps.append(len(cards.perms))
                    kept, returned = cards.new(hand)
                    hands[e["seat"]] = [kept]
                    queue.append(returned)
            elif kind == "EquipmentTaken":
                if len(hands[e["seat"]]) != 1:
                    raise Contradiction
                v = hands[e["seat"]].pop()
                hands[e["by"]].append(v)
                if e["card"] is not None:
                    cards.bind(v, equipment[e["card"]])
            elif kind == "EquipmentSeen" and e["card"] is not None:
                if len(hands[e["seat"]]) != 1:
                    raise Contradiction
                cards.bind(hands[e["seat"]][0], equipment[e["card"]])
    return _CardLeaf(cards, nvars, keeps)


def _follow(cells: list[Cell], layout: list[int], toks: Binder) -> list[Cell]:
    """Cells in the order that gives ``layout`` (a seat's own cards, all known to it)."""
    left = list(cells)
    out = []
    for card in layout:
        i = next((i for i, c in enumerate(left) if toks.identity(c) == card), None)
        if i is None:
            raise Contradiction
        out.append(left.pop(i))
    return out


def _holds(rules: list[tuple[int, frozenset[int]]], agent: int, kingpin: int) -> bool:
    """Whether the Agent at token ``agent`` and the Kingpin at ``kingpin`` meet every rule."""
    for kind, cells in rules:
        a, k = agent in cells, kingpin in cells
        if ((kind == NOT_BOTH and a and k) or (kind == HAS_LEADER and not (a or k))
                or (kind == NO_LEADER and (a or k)) or (kind == HAS_AGENT and not a)
                or (kind == HAS_KINGPIN and not k)):
            return False
    return True


def _sample_tokens(game: GCBCGame, leaves: list[tuple[float, _TokenLeaf]], rng: np.random.Generator,
                   world: _World) -> _TokenLeaf | None:
    """Identities for every token, uniform over the complete deals consistent with the leaves.

    Per leaf and per placement of the two leader cards (distinct set-up seats, meeting the rules),
    the other free tokens take any Honest/Crooked sequence within the supply: ``C(r, h)`` sequences
    with ``h`` Honest, all equally likely a priori (the module docstring).
    """
    n, k = game.num_players, game.side_cards
    options: list[tuple[float, int, int, int]] = []  # (weight, leaf, agent token, kingpin token)
    for i, (weight, leaf) in enumerate(leaves):
        bound = leaf.perms.known
        at = {c: [t for t, x in bound.items() if x == c] for c in Integrity}
        free = [t for t in range(3 * n) if t not in bound]  # bound: keys are tokens
        agents = at[Integrity.AGENT] or free
        kingpins = at[Integrity.KINGPIN] or free
        room_h, room_c = k - len(at[Integrity.HONEST]), k - len(at[Integrity.CROOKED])
        for a in agents:
            for b in kingpins:
                if a // 3 == b // 3 or not _holds(leaf.rules, a, b):
                    continue
                r = len(free) - (a not in bound) - (b not in bound)
                ways = sum(comb(r, h) for h in range(max(0, r - room_c), min(r, room_h) + 1))
                if ways:
                    options.append((weight * ways, i, a, b))
    if not options:
        return None
    w = np.array([o[0] for o in options])
    _, i, a, b = options[int(rng.choice(len(options), p=w / w.sum()))]
    leaf = leaves[i][1]
    tokens = dict(leaf.perms.known)
    tokens[a], tokens[b] = Integrity.AGENT, Integrity.KINGPIN
    rest = [t for t in range(3 * n) if t not in tokens]
    counts = [sum(1 for c in tokens.values() if c == x) for x in range(4)]
    sizes = [h for h in range(len(rest) + 1)
             if h <= k - counts[Integrity.HONEST] and len(rest) - h <= k - counts[Integrity.CROOKED]]
    by_size = np.array([comb(len(rest), h) for h in sizes], dtype=float)
    honest = sizes[int(rng.choice(len(sizes), p=by_size / by_size.sum()))]
    chosen = set(rng.permutation(len(rest))[:honest].tolist())
    for j, t in enumerate(rest):
        tokens[t] = Integrity.HONEST if j in chosen else Integrity.CROOKED
    world.tokens = [tokens[t] for t in range(3 * n)]
    return leaf


def _belief_tokens(game: GCBCGame, leaves: list[tuple[float, _TokenLeaf]], rng: np.random.Generator,
                   belief: Any, data: JSON, world: _World) -> _TokenLeaf:
    """Identities from the belief's deal; the leaf (hidden orders) from its exact conditional."""
    def fits(deal: Any) -> list[float]:
        """Each leaf's weight given ``deal`` (0 where the deal contradicts it)."""
        if not isinstance(deal, Sequence) or len(deal) != game.num_players:
            raise BadStateError(f"gcbc belief: a deal lists {game.num_players} hands, not {deal!r:.100}")
        flat = [name for hand in deal for name in hand]
        if len(flat) != 3 * game.num_players or any(name not in INTEGRITY_NAMES for name in flat):
            raise BadStateError(f"gcbc belief: each hand is three Integrity card names, not {deal!r:.100}")
        ids = [INTEGRITY_NAMES.index(name) for name in flat]
        if ids.count(Integrity.AGENT) != 1 or ids.count(Integrity.KINGPIN) != 1:
            return [0.0] * len(leaves)
        agent, kingpin = ids.index(Integrity.AGENT), ids.index(Integrity.KINGPIN)
        return [weight if all(ids[t] == c for t, c in leaf.perms.known.items())
                and _holds(leaf.rules, agent, kingpin) else 0.0 for weight, leaf in leaves]

    if hasattr(belief, "sample_deal"):
        for _ in range(MAX_BELIEF_DRAWS):
            deal = belief.sample_deal(data, rng)
            weights = fits(deal)
            if sum(weights) > 0:
                break
        else:
            raise BadStateError(
                f"gcbc belief: {MAX_BELIEF_DRAWS} deals drawn from the belief all contradict the view")
    else:
        kept = [(float(wt), deal, fit) for wt, deal in belief if float(wt) > 0
                for fit in [fits(deal)] if sum(fit) > 0]
        if not kept:
            raise BadStateError("gcbc belief: no weighted deal is consistent with the view")
        p = np.array([wt for wt, _, _ in kept])
        _, deal, weights = kept[int(rng.choice(len(kept), p=p / p.sum()))]
    world.tokens = [INTEGRITY_NAMES.index(name) for hand in deal for name in hand]
    w = np.array(weights)
    return leaves[int(rng.choice(len(leaves), p=w / w.sum()))][1]


def _sample_cards(game: GCBCGame, leaves: list[tuple[float, _CardLeaf]], rng: np.random.Generator,
                  world: _World) -> None:
    """The Equipment side: a leaf by its weight times its completions (distinct cards for the
    unbound variables: a falling factorial), then those cards uniformly."""
    total = len(game.card_ids)
    w = np.array([weight * perm(total - len(leaf.perms.known), leaf.nvars - len(leaf.perms.known))
                  for weight, leaf in leaves], dtype=float)
    leaf = leaves[int(rng.choice(len(leaves), p=w / w.sum()))][1]
    kept_ids = leaf.perms.finish(rng)
    world.keeps = [kept_ids[k][0] for k in leaf.keeps]
    bound = leaf.perms.known
    used = set(bound.values())
    free_cards = [c for c in range(total) if c not in used]
    order = rng.permutation(len(free_cards))
    picks = iter(free_cards[int(i)] for i in order)
    world.cards = [bound[v] if v in bound else next(picks) for v in range(leaf.nvars)]


# --- (3) the replay ---------------------------------------------------------------------------------
def _replay(game: GCBCGame, history: list[list[Any]], w: _World) -> GCBCState | None:
    """The seat's history with the hidden steps taken from ``w``; None if ``w`` cannot produce it."""
    state = game.new_initial_state()
    draws = keeps = flashes = 0
    try:
        for _, text, _ in history:
            head = text.split()[0] if text.split() else ""
            top = state.stack[-1] if state.stack else (-1,)
            if text.endswith("?"):
                if head == "leaders":
                    agent = w.tokens.index(Integrity.AGENT) // 3
                    kingpin = w.tokens.index(Integrity.KINGPIN) // 3
                    action = codec.LEADERS + MAX_PLAYERS * agent + kingpin
                elif head == "deal":
                    hand = w.tokens[3 * top[1]:3 * top[1] + 3]
                    action = codec.DEAL + sum(1 for c in hand if c == Integrity.HONEST)
                elif head == "draw":
                    action = codec.DRAW + w.cards[draws]
                elif head == "arrange":
                    s = top[1]
                    if top[2] == ops.SETUP:
                        target = w.tokens[3 * s:3 * s + 3]
                    else:
                        target = [w.tokens[t] for t in w.flashes[flashes]]
                        flashes += 1
                    action = codec.ARRANGE + arrangement_for(state.cards[s], target)
                elif head == "keep":
                    action = codec.KEEP_EQUIP + w.cards[w.keeps[keeps]]
                    keeps += 1
                else:
                    raise BadStateError(f"gcbc view: no hidden step reads {text!r}")
            else:
                action = game.str_to_action(text)
            if top[0] == ops.DRAW:
                draws += 1
            state.apply(action)
    except InvalidActionError as err:
        raise BadStateError(f"gcbc view: history holds an unreadable action: {err}") from err
    except (IllegalActionError, IndexError, ValueError):
        return None
    return state
