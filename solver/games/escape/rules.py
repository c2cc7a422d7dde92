"""Escape Plan (Eagle-Gryphon, 2019): the game, its configuration, notation, views and resampling.

The rulebook (``shared/rulebooks/escape-plan.txt``) is the specification; the module contract is
``docs/escape-rules.md``. The modules:

* :mod:`.city` the stand-in city; :mod:`.content` the stand-in cards; :mod:`.board` a player's board;
* :mod:`.state` the position and its work queue, and the view; :mod:`.tasks` the queue's machinery;
* :mod:`.setup` the set-up; :mod:`.phases` the round's phases, notoriety and the end; :mod:`.turn` the
  turn (Rest, Travel, Avoid, the Visit hook, executive windows, escaping);
* :mod:`.codec` action notation; :mod:`.events` what the table sees.

``visit.py``, ``executive.py`` and ``sandra.py`` are imported when they exist; they register their tasks
and hooks (:mod:`.turn`'s docstring lists them).
"""

from __future__ import annotations

import copy
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from solver.core import (
    JSON,
    BadStateError,
    Decision,
    DecisionKind,
    Game,
    IllegalActionError,
    InvalidActionError,
    State,
    View,
)

# each module registers its tasks, and visit, executive and sandra fill turn's hooks, when imported
from solver.games.escape import codec, executive, phases, sandra, setup, turn  # noqa: F401
from solver.games.escape.city import City, load_city
from solver.games.escape.content import ASSETS, Content, PlanCard, load_content
from solver.games.escape.spec import SPEC
from solver.games.escape.state import EscapeState, EscapeView
from solver.games.escape.visit import stack_of


@lru_cache(maxsize=8)
def _load(city_path: str | None, content_path: str | None) -> tuple[City, Content]:
    return load_city(city_path), load_content(content_path)


class EscapeGame(Game):
    """Escape Plan for ``players`` (2..5; at 2 Sandra the Inspector is a game-controlled third pawn)."""

    name = "escape"

    def __init__(self, players: int = 3, city: str | None = None, content: str | None = None) -> None:
        options = {"players": players, "city": city, "content": content}
        checked = SPEC.check_options(options)
        self._options = {k: checked[k] for k in options}
        self.num_players = int(checked["players"])
        self.city, self.content = _load(city, content)
        if len(self.city.locations) > codec.MAX_LOCATIONS or len(self.content.contacts) > codec.MAX_CARDS:
            raise BadStateError("escape: the city or content is larger than the action layout holds")

    def config(self) -> JSON:
        """The options, as given."""
        return dict(self._options)

    def new_initial_state(self) -> EscapeState:
        """The state before the first chance node (the starting tiles)."""
        return EscapeState(self)

    # --- names --------------------------------------------------------------------------------
    @cached_property
    def location_names(self) -> tuple[str, ...]:
        """A unique readable name per Location: ``store A``, ``exit 1``, ``hospital``, or kind and tile
        (``business (Riverside)``) for kinds the city holds several of."""
        city = self.city
        names = []
        for loc in city.locations:
            kind = loc.kind.replace("_", " ")
            if loc.label:
                names.append(f"{kind} {loc.label}")
            elif len(city.of_kind(loc.kind)) == 1:
                names.append(kind)
            else:
                names.append(f"{kind} ({city.tiles[loc.tile].name})")
        if len(set(n.lower() for n in names)) != len(names):
            names = [f"{n} #{i}" for i, n in enumerate(names)]
        return tuple(names)

    asset_names = ASSETS

    @cached_property
    def contact_kinds(self) -> frozenset[int]:
        """The index of each distinct contact card's first copy (chance outcomes name cards by it)."""
        cards = self.content.contacts
        return frozenset(cards.index(c) for c in cards)

    # --- notation -----------------------------------------------------------------------------
    def action_to_str(self, action: int) -> str:
        """``action`` in notation (``travel store A route 1``, ``place at 1,-1 rot 3``)."""
        return codec.to_str(self, action)

    @cached_property
    def _parse(self) -> dict[str, int]:
        return codec.parse_table(self)

    def str_to_action(self, text: str) -> int:
        """Parse notation; InvalidActionError naming the text."""
        if not isinstance(text, str):
            raise InvalidActionError(f"escape: action {text!r} is not a string")
        key = " ".join(text.strip().lower().split())
        if key not in self._parse:
            raise InvalidActionError(f"escape: cannot read action {text[:80]!r}")
        return self._parse[key]

    # --- information --------------------------------------------------------------------------
    def view_from_json(self, data: JSON) -> EscapeView:
        """Rebuild a view from its JSON; BadStateError naming the fault."""
        if not isinstance(data, dict):
            raise BadStateError(f"escape: a view is a JSON object, not {type(data).__name__}")
        if data.get("game") != self.name or data.get("config") != self.config():
            raise BadStateError(f"escape: the view is for {data.get('game')!r} {data.get('config')!r}")
        missing = {"seat", "history", "decision", "legal_actions", "plan"} - data.keys()
        if missing:
            raise BadStateError(f"escape: the view lacks {sorted(missing)}")
        seat = data["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise BadStateError(f"escape: view seat {seat!r} is not a seat")
        d = data["decision"]
        try:
            decision = Decision(int(d["seat"]), DecisionKind(d["kind"]), int(d["turn_of"]), str(d["prompt"]))
            legal = tuple(self.str_to_action(t) for t in data["legal_actions"])
        except (KeyError, TypeError, ValueError) as err:
            raise BadStateError(f"escape: the view's decision or legal actions are malformed: {err}") \
                from None
        if not isinstance(data["history"], list):
            raise BadStateError("escape: the view's history is not a list")
        return EscapeView(self, seat, copy.deepcopy(data), legal, decision)

    def resample(self, view: View, rng: np.random.Generator, belief: Any | None = None) -> State:
        """A full state whose view for ``view.seat`` equals ``view``, drawn exactly.

        The seat's history is replayed; the steps it did not see are drawn from their distribution given
        everything the view shows (``belief`` is not used):

        * the other seats' Escape Plan cards (``plan ?``): uniformly among the joint deals (distinct cards,
          none the seat's own) consistent with the income cubes their visits placed (a cube in an income
          hex shows the card's income mark there, one in an amount hex shows an amount), and with the
          cards themselves once the game is over (they are revealed);
        * the other seats' secret locker and exit tile draws (``value ?``) and the tile kept (``keep ?``):
          a kept tile is, under a uniform choice among the tiles drawn, a uniform tile of the stack, the
          others drawn with it a uniform sample of the rest. Kept tiles still on a board when the game is
          over are revealed and forced; the seat's own later draws from the same stack are evidence. Both
          enter by rejection (:func:`_replay`): a forced value or an own draw of value ``v`` is accepted
          with probability ``c / (c + h)``, ``c`` the copies of ``v`` in the stack as drawn, ``h`` the
          hidden removals of ``v`` drawn so far, whose sum does not depend on the hidden draws. That is
          the exact posterior (the stacks' composition is public; every earlier hidden draw counts);
        * Sandra's unseen locker and exit tile discards (``discard value ?``, 2 players): a uniform tile of
          the stack as it then is, counted among the hidden removals ``h`` above, so the same rejection
          step weighs them by the seat's own later draws and the tiles revealed at the end.

        Her Inspector cards, key and Fixer discards are public and replay as shown.
        """
        if not isinstance(view, EscapeView) or view.game != self:
            raise BadStateError(f"escape: cannot resample {view!r} in {self!r}")
        data = view.to_json()
        seat = view.seat
        history = data["history"]
        plans = _draw_plans(self, data, seat, rng)
        forced = _forced_keeps(self, data, seat) if data.get("over") else {}
        first = next((i for i, e in enumerate(history) if e[1] in (HIDDEN_DRAW, codec.DISCARD_MASKED)),
                     len(history))
        base = _replay(self, self.new_initial_state(), history, 0, first, seat, plans, forced, rng, {})
        for _ in range(MAX_REJECTIONS):
            st = base.clone() if first < len(history) else base
            try:
                st = _replay(self, st, history, first, len(history), seat, plans, forced, rng, {})
            except _Rejected:
                continue
            if st.view(seat).to_json() != data:
                raise BadStateError(f"escape: seat {seat}'s view does not replay to itself")
            return st
        raise BadStateError(f"escape: no hidden tile draws consistent with seat {seat}'s view were found")


#: The text the other seats see of a secret tile draw, and the start of a secret keep's text.
HIDDEN_DRAW = "value ?"
HIDDEN_KEEP = "keep ? on item "
#: Attempts of the rejection step before giving up (acceptance is high: stacks are small and mostly
#: of distinct values).
MAX_REJECTIONS = 20_000


class _Rejected(Exception):
    """The hidden draws made so far are rejected (:func:`_replay`)."""


def _plan_entry(card: PlanCard, site: int) -> int | None:
    """Card ``card``'s entry for cube display ``site`` (businesses 1..6, then safe houses 1..3)."""
    return card.business(site + 1) if site < 6 else card.safe_house(site - 5)


def _draw_plans(game: EscapeGame, data: dict[str, Any], seat: int, rng: np.random.Generator) -> list[int]:
    """Each seat's plan card index: the seat's own, and for the others a joint deal drawn uniformly
    among those consistent with the cubes on the displays (and the revealed cards at the end)."""
    cards = game.content.plans
    names = [c.name for c in cards]
    own = names.index(data["plan"]) if data["plan"] in names else -1
    n = game.num_players
    marks: list[list[tuple[int, bool]]] = [[] for _ in range(n)]
    for site, cubes in enumerate(data["cubes"]):
        for pawn, hex_name in cubes:
            if pawn < n and hex_name != "red":
                marks[pawn].append((site, hex_name == "income"))
    revealed = data.get("plans")
    candidates: list[list[int]] = []
    for s in range(n):
        if s == seat:
            candidates.append([own])
        elif revealed is not None and revealed[s] is not None:
            candidates.append([names.index(revealed[s])])
        else:
            candidates.append([c for c in range(len(cards)) if c != own and all(
                (_plan_entry(cards[c], site) is None) == income for site, income in marks[s])])
    deals: list[list[int]] = []

    def extend(prefix: list[int]) -> None:
        if len(prefix) == n:
            deals.append(list(prefix))
            return
        for c in candidates[len(prefix)]:
            if c not in prefix:
                prefix.append(c)
                extend(prefix)
                prefix.pop()

    extend([])
    if not deals:
        raise BadStateError(f"escape: no deal of plan cards is consistent with seat {seat}'s view")
    return deals[int(rng.integers(len(deals)))]


def _forced_keeps(game: EscapeGame, data: dict[str, Any], seat: int) -> dict[int, int]:
    """Once the game is over: history index of another seat's secret keep -> the value it shows, for the
    kept tiles still on their Item space (the last placement there: every placement's notation ends
    ``on item N``)."""
    last: dict[tuple[int, int], int] = {}
    for i, (actor, text, _events) in enumerate(data["history"]):
        head, _, tail = text.rpartition(" on item ")
        if head and actor >= 0 and tail.isdigit():
            last[(actor, int(tail) - 1)] = i
    forced: dict[int, int] = {}
    for (actor, space), i in last.items():
        if actor != seat and data["history"][i][1].startswith(HIDDEN_KEEP):
            forced[i] = int(data["boards"][actor]["items"][space].split(":")[2])
    return forced


def _accept(rng: np.random.Generator, stack: list[int], value: int, hidden: int) -> None:
    """Accept a forced or observed draw of ``value`` with probability ``c / (c + hidden)``."""
    if hidden:
        c = stack.count(value)
        if rng.random() * (c + hidden) >= c:
            raise _Rejected


def _replay(game: EscapeGame, st: EscapeState, history: list[Any], start: int, stop: int, seat: int,
            plans: list[int], forced: dict[int, int], rng: np.random.Generator,
            op: dict[str, Any]) -> EscapeState:
    """Apply ``history[start:stop]`` to ``st``: the seat's own steps as shown, hidden steps drawn (the
    plan cards from ``plans``; secret tile draws as :meth:`EscapeGame.resample` says). Raises
    :class:`_Rejected` when the rejection step refuses the hidden draws."""
    # (stack kind, index, value) -> hidden removals drawn; empty at ``start``: no hidden draw precedes the
    # first one, where the rejection step starts over
    removed: dict[tuple[str, int, int], int] = {}
    for i in range(start, stop):
        text = history[i][1]
        task = st.todo[0] if st.todo else ("",)
        try:
            if text == "plan ?":
                action = codec.PLAN + plans[int(task[1])]
            elif text == HIDDEN_DRAW and task[0] == "v_draw":
                action = _hidden_draw(st, task, history, i, forced, rng, op, removed)
            elif text == codec.DISCARD_MASKED and task[0] == "s_discard":
                action = _hidden_discard(st, task, rng, removed)
            elif text.startswith(HIDDEN_KEEP):
                action = codec.keep(op["value"], int(text[len(HIDDEN_KEEP):]) - 1)
            else:
                action = game.str_to_action(text)
                if task[0] == "v_draw" and int(task[1]) == seat and history[i][0] < 0:
                    value = action - codec.TILE_VALUE
                    _accept(rng, stack_of(st, task[2], task[3]), value,
                            removed.get((task[2], task[3], value), 0))
            if action in st.legal_actions():
                st.apply_unchecked(action)
            else:
                raise BadStateError(f"escape: step {i} ({text!r}) is not legal in the replay")
        except (IllegalActionError, InvalidActionError) as err:
            raise BadStateError(f"escape: step {i} ({text!r}) does not replay: {err}") from None
    return st


def _hidden_discard(st: EscapeState, task: tuple[Any, ...], rng: np.random.Generator,
                    removed: dict[tuple[str, int, int], int]) -> int:
    """Sandra's unseen discard (``discard value ?``, sandra.py): a uniform tile of the stack as it is,
    counted as a hidden removal for the rejection step (:func:`_accept`)."""
    kind, index = task[2], task[3]
    stack = sorted(stack_of(st, kind, index))
    value = stack[int(rng.integers(len(stack)))]
    key = (kind, index, value)
    removed[key] = removed.get(key, 0) + 1
    return codec.S_TILE + value


def _hidden_draw(st: EscapeState, task: tuple[Any, ...], history: list[Any], i: int,
                 forced: dict[int, int], rng: np.random.Generator, op: dict[str, Any],
                 removed: dict[tuple[str, int, int], int]) -> int:
    """Draw one of another seat's secret tiles. At the first draw of an op the kept tile is chosen: the
    revealed value when forced (accepted as :func:`_accept` says), else a uniform tile of the stack; it
    sits at a uniform position among the draws, the other draws uniform from the rest."""
    drawer, kind, index, j, count = int(task[1]), task[2], task[3], int(task[4]), int(task[5])
    stack = sorted(stack_of(st, kind, index))
    if j == 0:
        keep_at = next((q for q in range(i + 1, len(history))
                        if history[q][0] == drawer and history[q][1].startswith(HIDDEN_KEEP)), -1)
        if keep_at in forced:
            value = forced[keep_at]
            _accept(rng, stack, value, removed.get((kind, index, value), 0))
        else:
            value = stack[int(rng.integers(len(stack)))]
        key = (kind, index, value)
        removed[key] = removed.get(key, 0) + 1
        op.clear()
        op.update(value=value, position=int(rng.integers(count)), taken=False)
    if j == op["position"]:
        op["taken"] = True
        return codec.TILE_VALUE + int(op["value"])
    if not op["taken"]:
        stack.remove(op["value"])
    return codec.TILE_VALUE + stack[int(rng.integers(len(stack)))]
