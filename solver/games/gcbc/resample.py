"""Determinization: full states consistent with one seat's view (DESIGN.md section 2).

``resample(game, view_json, rng, belief)`` draws what the seat cannot see and returns a state whose
``view(seat)`` equals the view, reached by replaying the seat's own history with the hidden parts
filled in (so ``to_json`` replays). It reads only the view: the seat's history, each step's text as
the seat saw it and the events it saw.

How. (1) A symbolic pass over the seat's events follows every Integrity card as a *token* (token
``3 * s + p`` is the card seat ``s`` laid at position ``p`` at set-up) through swaps, Flashbangs and
revivals, and every Equipment card drawn from the unseen deck as a *variable*, through hands, the
bottom queue, takings and plays. What the seat saw binds tokens (a face-up card, an investigation,
a Polygraph, a shot, a card received) and variables (a card it drew, a card anyone played). The
hidden choices of other seats are drawn uniformly: the order after another seat's Flashbang, which
card another seat kept at the hand limit. (2) Unbound tokens get identities uniformly among the
complete deals that respect the bindings (the Agent and the Kingpin in two different seats' hands at
set-up, at most the Honest and Crooked cards in play); unbound variables get distinct cards
uniformly among the cards not bound. (3) The history is replayed with the hidden steps (``leaders
?``, ``deal ?``, ``arrange ?``, ``draw ?``, ``keep ?``) computed from that world, and the result's view
is compared with the given one; a contradiction at any stage (rare: a hidden choice that later
events rule out) draws again.

The belief hook. ``belief`` may be ``None`` (uniform over what the seat cannot rule out), an object
with ``sample_deal(view_json, rng)``, or a sequence of ``(weight, deal)`` pairs. A *deal* lists, per
seat, the three Integrity card names in the positions that seat laid them out at set-up, e.g.
``[["honest", "agent", "crooked"], ...]``. A deal that contradicts the view is rejected (drawn again,
or filtered out of the list before weights are applied). Equipment and the other hidden choices are
drawn uniformly in every case. This is where exact Bayesian inference over deals plugs in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb
from typing import TYPE_CHECKING, Any, Final, Protocol

import numpy as np

from solver.core import JSON, BadStateError, IllegalActionError, InvalidActionError
from solver.games.gcbc import codec, ops
from solver.games.gcbc.deal import INTEGRITY_NAMES, LEADERS, MAX_PLAYERS, Integrity, arrangement_for

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCGame, GCBCState

#: Symbolic passes (cheap) and replays (dear) tried before giving up on a view.
MAX_WORLDS = 2000
MAX_REPLAYS = 64


class Contradiction(Exception):
    """The world drawn so far cannot have produced the view."""


Cell = int | tuple[int, int]  # a token/variable id, or (permutation, slot) not resolved yet


class _Lazy:
    """Hidden permutations of one domain (tokens or variables), resolved only when needed.

    Another seat's Flashbang puts its cards in an order the observer does not see; another seat's
    hand-limit choice keeps one of two cards unseen. Each is a permutation from slots to the items
    it reorders. A slot is resolved when an observation binds it: to an item compatible with what was
    seen, uniformly; the slots nobody observed are resolved at random at the end. Drawing the order
    up front instead would contradict later observations far more often.
    """

    def __init__(self, rng: np.random.Generator, known: dict[int, int], unique: frozenset[int]) -> None:
        self.rng = rng
        self.known = known  # id -> identity
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
        b = cell
        if b in self.known:
            return self.known[b] == x
        return x not in self.unique or x not in self.known.values()

    def bind(self, cell: Cell, x: int) -> None:
        """Record that ``cell`` holds identity ``x``."""
        while isinstance(cell, tuple):
            items, slots = self.perms[cell[0]]
            if slots[cell[1]] is None:
                free = [it for it in items if it not in slots and self.compatible(it, x)]
                if not free:
                    raise Contradiction
                slots[cell[1]] = free[int(self.rng.integers(len(free)))]
            cell = slots[cell[1]]  # type: ignore[assignment]
        if self.known.setdefault(cell, x) != x:
            raise Contradiction

    def finish(self) -> list[list[int]]:
        """Resolve every slot; return each permutation's ids, slot by slot."""
        for items, slots in self.perms:
            free = [it for it in items if it not in slots]
            order = self.rng.permutation(len(free))
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
    """One guess at the hidden facts, built by the symbolic pass."""

    n: int
    tok: dict[int, int] = field(default_factory=dict)  # token -> Integrity
    var: dict[int, int] = field(default_factory=dict)  # variable -> Equipment card
    flashes: list[list[int]] = field(default_factory=list)  # tokens after each hidden Flashbang
    keeps: list[int] = field(default_factory=list)  # the variable kept at each hidden hand limit
    nvars: int = 0
    tokens: list[int] = field(default_factory=list)  # identities after sampling
    cards: list[int] = field(default_factory=list)


def resample(game: GCBCGame, data: JSON, rng: np.random.Generator, belief: Any | None) -> GCBCState:
    """A state consistent with the view ``data`` (see the module docstring)."""
    state, _ = search(game, data, rng, belief)
    if state is None:
        raise BadStateError(
            f"gcbc: no game is consistent with seat {data.get('seat')}'s view (after {MAX_REPLAYS} tries)"
        )
    return state


def search(game: GCBCGame, data: JSON, rng: np.random.Generator,
           belief: Any | None) -> tuple[GCBCState | None, GCBCState | None]:
    """``(a state with exactly this view, or None; the last state the history replayed to, or None)``.

    The second lets a caller name the field of a view that no game produces.
    """
    seat, history = _checked(game, data)
    closest = None
    for _ in range(MAX_REPLAYS):
        world = _draw_world(game, data, rng, belief)
        state = _replay(game, history, world)
        if state is not None:
            if state.view(seat).to_json() == data:
                return state, state
            closest = state
    return None, closest


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


# --- (1) and (2): a world ----------------------------------------------------------------------------
def _draw_world(game: GCBCGame, data: JSON, rng: np.random.Generator, belief: Any | None) -> _World:
    seat, history = data["seat"], data["history"]
    for _ in range(MAX_WORLDS):
        try:
            world = _symbolic(game, seat, history, rng)
            _sample_tokens(game, world, rng, belief, data)
            _sample_cards(game, world, rng)
            return world
        except Contradiction:
            continue
        except (KeyError, IndexError, TypeError, ValueError) as err:
            raise BadStateError(f"gcbc view: malformed event in the history ({err!r})") from err
    raise BadStateError(f"gcbc: no deal is consistent with seat {seat}'s view")


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


def _symbolic(game: GCBCGame, seat: int, history: list[list[Any]], rng: np.random.Generator) -> _World:
    """Follow tokens and variables through the seat's events, binding what it saw."""
    n = game.num_players
    w = _World(n)
    toks = _Lazy(rng, w.tok, frozenset(LEADERS))
    cards = _Lazy(rng, w.var, frozenset(range(len(game.card_ids))))
    tokens = TokenPass(n, seat, toks)
    equipment = {cid: i for i, cid in enumerate(game.card_ids)}
    hands: list[list[Cell]] = [[] for _ in range(n)]
    queue: list[Cell] = []
    keeps: list[int] = []  # the variable permutations that are hand-limit choices, in order

    for _, _, events in history:
        for e in events:
            if tokens.event(e):
                continue
            kind = e["kind"]
            if kind == "EquipmentDrawn":
                if e["source"] == "deck":
                    v: Cell = w.nvars
                    w.nvars += 1
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
    tokens.finish()
    w.flashes = toks.finish()
    kept_ids = cards.finish()
    w.keeps = [kept_ids[k][0] for k in keeps]
    return w


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


def _sample_tokens(game: GCBCGame, w: _World, rng: np.random.Generator, belief: Any | None,
                   data: JSON) -> None:
    """Identities for every token: from the belief's deal, or uniform over consistent deals."""
    n, k = game.num_players, game.side_cards
    if belief is not None:
        deal = _belief_deal(game, w, rng, belief, data)
        w.tokens = [INTEGRITY_NAMES.index(name) for hand in deal for name in hand]
        return
    bound = w.tok
    counts = [sum(1 for c in bound.values() if c == i) for i in range(4)]
    if counts[Integrity.AGENT] > 1 or counts[Integrity.KINGPIN] > 1:
        raise Contradiction
    free = [t for t in range(3 * n) if t not in bound]
    leader_at = {c: t for t, c in bound.items() if c in LEADERS}
    options = {
        c: [leader_at[c]] if c in leader_at else free for c in LEADERS
    }
    pairs = [(a, b) for a in options[Integrity.AGENT] for b in options[Integrity.KINGPIN]
             if a != b and a // 3 != b // 3]
    if not pairs:
        raise Contradiction
    agent, kingpin = pairs[int(rng.integers(len(pairs)))]
    tokens = dict(bound)
    tokens[agent], tokens[kingpin] = Integrity.AGENT, Integrity.KINGPIN
    rest = [t for t in range(3 * n) if t not in tokens]
    honest_room = k - counts[Integrity.HONEST]
    crooked_room = k - counts[Integrity.CROOKED]
    sizes = [h for h in range(len(rest) + 1) if h <= honest_room and len(rest) - h <= crooked_room]
    if not sizes:
        raise Contradiction
    # Every sequence of Honest/Crooked cards over the slots is equally likely (0 or 1 card is left
    # over), so the number of Honest among the free slots is weighted by its count of sequences.
    weights = np.array([comb(len(rest), h) for h in sizes], dtype=float)
    honest = sizes[int(rng.choice(len(sizes), p=weights / weights.sum()))]
    chosen = set(rng.permutation(len(rest))[:honest].tolist())
    for i, t in enumerate(rest):
        tokens[t] = Integrity.HONEST if i in chosen else Integrity.CROOKED
    w.tokens = [tokens[t] for t in range(3 * n)]


def _belief_deal(game: GCBCGame, w: _World, rng: np.random.Generator, belief: Any,
                 data: JSON) -> list[list[str]]:
    def consistent(deal: Any) -> bool:
        if not isinstance(deal, Sequence) or len(deal) != game.num_players:
            raise BadStateError(f"gcbc belief: a deal lists {game.num_players} hands, not {deal!r:.100}")
        flat = [name for hand in deal for name in hand]
        if len(flat) != 3 * game.num_players or any(name not in INTEGRITY_NAMES for name in flat):
            raise BadStateError(f"gcbc belief: each hand is three Integrity card names, not {deal!r:.100}")
        return all(INTEGRITY_NAMES[c] == flat[t] for t, c in w.tok.items())

    if hasattr(belief, "sample_deal"):
        deal = belief.sample_deal(data, rng)
        if not consistent(deal):
            raise Contradiction
        return [list(hand) for hand in deal]
    kept = [(float(weight), deal) for weight, deal in belief if float(weight) > 0 and consistent(deal)]
    if not kept:
        raise BadStateError("gcbc belief: no weighted deal is consistent with the view")
    weights = np.array([wt for wt, _ in kept])
    return [list(hand) for hand in kept[int(rng.choice(len(kept), p=weights / weights.sum()))][1]]


def _sample_cards(game: GCBCGame, w: _World, rng: np.random.Generator) -> None:
    """Distinct cards for the unbound variables, uniformly among the cards no variable is bound to."""
    if len(set(w.var.values())) != len(w.var):
        raise Contradiction  # two cards drawn from the unseen deck are never the same card
    free_cards = [c for c in range(len(game.card_ids)) if c not in set(w.var.values())]
    order = rng.permutation(len(free_cards))
    picks = iter(free_cards[int(i)] for i in order)
    w.cards = [w.var[v] if v in w.var else next(picks) for v in range(w.nvars)]


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
