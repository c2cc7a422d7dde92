"""Determinization: full states consistent with one seat's view (DESIGN.md section 2).

``resample(game, view_json, rng, belief)`` replays the seat's history, filling in every step the seat
did not see, and returns a state whose ``view(seat)`` equals the view (so ``to_json`` replays). It
reads only the view: each step's text as the seat saw it, the events it saw, and the momentary
``studying`` and ``lineup`` fields.

What is hidden, and how it is drawn:

* A Suspect card drawn at a scene (``draw bakery ?``) is a *variable*. A later lineup of it binds it
  (the result names the Guilty stand, whose card everyone saw); the seat's own study moment binds it
  (``studying``); the lineup standing now binds it to the stand chosen as Guilty (uniform, or by the
  belief). A free variable takes, uniformly, a card of the pile it was drawn from that no later step
  shows anywhere (a card shown later cannot be the one still held face down).
* The innocents of a lineup follow from its stands and its Guilty stand; while a lineup is still
  being drawn behind the shield, its innocents are free in the same way.
* Another seat's Lucky Break draw (``lucky ?``) is a variable of that seat's hand; each card the
  seat plays binds one (the card just drawn when played at once, else one of its hand at random);
  free ones are drawn with the deck's probabilities.

A choice that a later step rules out (rare) makes the replay fail, and the world is drawn again.

``belief`` (optional) is the seat's memory, a mapping with ``"guilty"``: weights per stand of the
lineup standing now (where the seat thinks its card stands), and/or ``"held"``: ``{held index (from
1): {card id: weight}}`` for its face-down cards. Weights for impossible cards are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.core import JSON, BadStateError, IllegalActionError, InvalidActionError
from solver.games.lineup import codec

if TYPE_CHECKING:
    from solver.games.lineup.rules import LineUpGame, LineUpState
    from solver.games.lineup.view import LineUpView

MAX_TRIES = 200


@dataclass
class _Lineup:
    var: int
    stands: list[str] | None = None
    guilty: int | None = None  # 0-based stand


@dataclass
class _Plan:
    """What the pre-scan learnt: variables, their bindings, lineups, later appearances of cards."""

    draw_var: dict[int, int] = field(default_factory=dict)  # history step -> suspect variable
    bound: dict[int, str] = field(default_factory=dict)  # suspect variable -> card id
    step_lineup: dict[int, _Lineup] = field(default_factory=dict)  # innocent/guilty step -> its lineup
    seen_at: dict[str, list[int]] = field(default_factory=dict)  # card id -> steps that show it
    current: _Lineup | None = None
    lucky_var: dict[int, int] = field(default_factory=dict)  # history step -> lucky variable
    lucky_bound: dict[int, str] = field(default_factory=dict)  # lucky variable -> kind


def resample(game: LineUpGame, data: JSON, rng: np.random.Generator, belief: Any | None) -> LineUpState:
    """A state consistent with the view ``data`` (see the module docstring)."""
    state, _ = search(game, data, rng, belief)
    if state is None:
        raise BadStateError(
            f"lineup: no game is consistent with seat {data.get('seat')}'s view (after {MAX_TRIES} tries)"
        )
    return state


def rebuild_view(game: LineUpGame, data: JSON) -> LineUpView:
    """The view of a state that shows ``data``; :class:`BadStateError` names the field no game shows."""
    state, closest = search(game, data, np.random.default_rng(0), None)
    if state is not None:
        return state.view(data["seat"])
    if closest is None:
        raise BadStateError(f"lineup view: seat {data.get('seat')}'s history does not replay to any game")
    rebuilt = closest.view(data["seat"]).to_json()
    key = next(k for k in sorted(set(rebuilt) | set(data)) if rebuilt.get(k) != data.get(k))
    raise BadStateError(
        f"lineup view: field {key!r} does not follow from the history "
        f"(given {str(data.get(key))[:200]}, a game gives {str(rebuilt.get(key))[:200]})"
    )


def search(game: LineUpGame, data: JSON, rng: np.random.Generator,
           belief: Any | None) -> tuple[LineUpState | None, LineUpState | None]:
    """``(a state with exactly this view or None, the last state the history replayed to or None)``."""
    seat, history = _checked(game, data)
    closest = None
    for _ in range(MAX_TRIES):
        try:
            plan = _scan(game, seat, history, data, rng, belief)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
            raise BadStateError(f"lineup view: malformed history or field ({err!r})") from err
        state = _replay(game, history, plan, rng, belief, seat)
        if state is not None:
            if state.view(seat).to_json() == data:
                return state, state
            closest = state
    return None, closest


def _checked(game: LineUpGame, data: JSON) -> tuple[int, list[list[Any]]]:
    if not isinstance(data, dict) or data.get("game") != game.name or data.get("config") != game.config():
        raise BadStateError(f"lineup view: it is not a view of {game!r}")
    seat, history = data.get("seat"), data.get("history")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise BadStateError(f"lineup view: seat {seat!r} is not 0..{game.num_players - 1}")
    if not isinstance(history, list) or not all(
        isinstance(h, list) and len(h) == 3 and isinstance(h[1], str) and isinstance(h[2], list)
        and all(isinstance(e, dict) for e in h[2]) for h in history
    ):
        raise BadStateError("lineup view: 'history' must list [actor, text, [events]] entries")
    return seat, history


def _scan(game: LineUpGame, seat: int, history: list[list[Any]], data: JSON, rng: np.random.Generator,
          belief: Any | None) -> _Plan:
    """Follow the face-down cards and Lucky Break hands through the history; bind what was shown."""
    plan = _Plan()
    n = game.num_players
    held: list[list[int]] = [[] for _ in range(n)]
    hands: list[list[int]] = [[] for _ in range(n)]
    nvars = nlucky = 0
    lineup: _Lineup | None = None
    for t, (actor, text, events) in enumerate(history):
        words = text.split()
        if words[0] == "draw" and words[-1] == "?":
            drawer = next(e["seat"] for e in events if e["kind"] == "SuspectDrawn")
            plan.draw_var[t] = nvars
            held[drawer].append(nvars)
            nvars += 1
        elif words[0] == "lineup":
            lineup = _Lineup(held[actor].pop(int(words[1]) - 1))
            plan.current = lineup
        elif words[0] in ("innocent", "guilty") and lineup is not None:
            plan.step_lineup[t] = lineup
        elif text == "lucky ?":
            plan.lucky_var[t] = nlucky
            hands[next(e["seat"] for e in events if e["kind"] == "LuckyDrawn")].append(nlucky)
            nlucky += 1
        for e in events:
            if e["kind"] == "LineupShown" and lineup is not None:
                lineup.stands = list(e["stands"])
                for card in e["stands"]:
                    plan.seen_at.setdefault(card, []).append(t)
            elif e["kind"] == "LineupResult" and lineup is not None and lineup.stands is not None:
                lineup.guilty = e["guilty"] - 1
                plan.bound[lineup.var] = lineup.stands[lineup.guilty]
                lineup = plan.current = None
            elif e["kind"] == "LuckyPlayed" and e["seat"] != seat:
                hand = hands[e["seat"]]
                just = t > 0 and plan.lucky_var.get(t - 1) in hand
                v = plan.lucky_var[t - 1] if just else _pick_lucky(hand, plan, e["card"], rng)
                plan.lucky_bound[v] = e["card"]
                hand.remove(v)
    studying = data.get("studying")
    if studying is not None:
        plan.bound[held[seat][studying["held"] - 1]] = studying["card"]
    weights = belief.get("held", {}) if isinstance(belief, Mapping) else {}
    for index, var in enumerate(held[seat]):
        memory = weights.get(index + 1)
        if var not in plan.bound and memory:
            plan.bound[var] = _weighted(list(memory), [float(w) for w in memory.values()], rng)
    if plan.current is not None and plan.current.stands is not None:
        stands = plan.current.stands
        guess = belief.get("guilty") if isinstance(belief, Mapping) else None
        k = (_weighted(list(range(len(stands))), [float(w) for w in guess], rng) if guess
             else int(rng.integers(len(stands))))
        plan.current.guilty = k
        plan.bound[plan.current.var] = stands[k]
    return plan


def _pick_lucky(hand: list[int], plan: _Plan, kind: str, rng: np.random.Generator) -> int:
    same = [v for v in hand if plan.lucky_bound.get(v) == kind]
    if same:
        return same[0]
    free = [v for v in hand if v not in plan.lucky_bound]
    if not free:
        raise ValueError(f"a {kind} card was played from a hand without one")
    return free[int(rng.integers(len(free)))]


def _weighted(items: list[Any], weights: list[float], rng: np.random.Generator) -> Any:
    w = np.array([max(x, 0.0) for x in weights[:len(items)]] + [0.0] * (len(items) - len(weights)))
    if w.sum() <= 0:
        return items[int(rng.integers(len(items)))]
    return items[int(rng.choice(len(items), p=w / w.sum()))]


def _replay(game: LineUpGame, history: list[list[Any]], plan: _Plan, rng: np.random.Generator,
            belief: Any | None, seat: int) -> LineUpState | None:
    """The history with the hidden steps filled in from ``plan``; None when a choice runs into a wall."""
    state = game.new_initial_state()
    by_id = game.codec.by_id
    # a card bound to a variable drawn at step s must still be in its pile at s
    drawn_at = {var: t for t, var in plan.draw_var.items()}
    later = sorted((drawn_at[var], card) for var, card in plan.bound.items())
    innocents: dict[int, int] = {}  # id(lineup) -> innocents placed so far
    try:
        for t, (_, text, _) in enumerate(history):
            if not text.endswith("?"):
                state.apply(game.str_to_action(text))
                continue
            legal = state.legal_actions()
            if t in plan.draw_var:
                var = plan.draw_var[t]
                if var in plan.bound:
                    action = codec.card_action(codec.DRAW, *by_id[plan.bound[var]])
                else:
                    action = _free_card(game, legal, t, plan, later, rng)
            elif t in plan.step_lineup and text.startswith("innocent"):
                lu = plan.step_lineup[t]
                if lu.stands is None or lu.guilty is None:
                    action = _free_card(game, legal, t, plan, later, rng)
                else:
                    j = innocents.get(id(lu), 0)
                    innocents[id(lu)] = j + 1
                    rest = [c for k, c in enumerate(lu.stands) if k != lu.guilty]
                    action = codec.card_action(codec.INNOCENT, *by_id[rest[j]])
            elif t in plan.step_lineup:
                guilty = plan.step_lineup[t].guilty
                action = codec.GUILTY + (guilty if guilty is not None else -1)
            elif t in plan.lucky_var:
                kind = plan.lucky_bound.get(plan.lucky_var[t])
                if kind is None:
                    outcomes = state.chance_outcomes()
                    action = _weighted([a for a, _ in outcomes], [p for _, p in outcomes], rng)
                else:
                    action = game.str_to_action(f"lucky {kind}")
            else:
                raise BadStateError(f"lineup view: no hidden step reads {text!r}")
            state.apply(action)
    except InvalidActionError as err:
        raise BadStateError(f"lineup view: history holds an unreadable action: {err}") from err
    except (IllegalActionError, KeyError, ValueError):
        return None
    return state


def _free_card(game: LineUpGame, legal: list[int], t: int, plan: _Plan,
               later: list[tuple[int, str]], rng: np.random.Generator) -> int:
    """A card for a free draw at step ``t``: from the pile, shown by no later step, and not the card
    of a variable drawn later."""
    taken = {card for step, card in later if step > t}
    names = [game.action_to_str(a).split()[1] for a in legal]
    ok = [a for a, name in zip(legal, names, strict=True)
          if name not in taken and not any(s > t for s in plan.seen_at.get(name, ()))]
    if not ok:
        raise ValueError("no card fits a free draw")
    return ok[int(rng.integers(len(ok)))]
