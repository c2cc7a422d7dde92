"""Determinization: full Police Precinct states consistent with one seat's view (DESIGN.md section 2).

:func:`resample` replays the seat's history (``view["history"]``: each action as the seat saw it and
the events it saw), filling in each step it did not see:

* ``loyalty ?`` (another seat's loyalty card): the dirty seats are drawn first, over every
  assignment consistent with what the seat knows (its own card, cards shown to all, cards Internal
  Affairs showed it), weighted by the chance of every public investigation under each assignment:
  an honest investigator places every evidence card he draws, so the chance his draw held exactly
  the evidence he placed is hypergeometric in the stack's public counts; a dirty one may instead
  claim a draw with evidence useless (his choice is not modelled: weight 1). ``belief`` may give
  other weights (issue 22's posterior): ``{"dirty": {seat: weight}}`` multiplies each assignment by
  the weights of its dirty seats.
* ``found ?`` (another seat's investigation draw): drawn given that seat's loyalty and its public
  claim (the evidence placed, whether a useless card left the game).
* ``police ?`` (a card dealt to another seat): drawn before the replay by
  :func:`~solver.games.precinct.dealing.assign_deals`, deck by deck, so that every card a seat later
  gives up face up was dealt to it first.
* ``claim ?`` (what another investigator did with his draw): hiding exactly when evidence was drawn
  and none placed.
* ``looked ?``/``event ?``/``order ?`` (another seat's look at a stack or the event deck, and how it
  put the cards back): at random; a look at the event deck kept on top is the card the next public
  event draw shows.

A draw that a later step rules out makes the replay fail, and the world is drawn again (at most
:data:`MAX_TRIES` times); the replayed state's view is checked equal to the given view.

**Time.** Most draws replay the record once (~10-25 ms mid-game), but a look at a stack, the order
it was put back in, or an investigation draw that a later public claim rules out is only found
wrong at that claim, and every backtrack replays each step since the draw again: a few draws in a
hundred take 0.1-1 s late in the game. A timed search cannot wait for those, so
:func:`resample_within` takes ``expired`` (the caller's deadline), asks it before every replayed
step and gives up (None) once it is true. With ``expired`` never true it draws exactly what
:func:`resample` draws from the same generator: the checks draw nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.core import (
    CHANCE,
    JSON,
    BadStateError,
    Decision,
    DecisionKind,
    IllegalActionError,
    InvalidActionError,
)
from solver.games.precinct import codec
from solver.games.precinct.common import draw_chance
from solver.games.precinct.dealing import assign_deals

if TYPE_CHECKING:
    from solver.games.precinct.rules import PrecinctGame
    from solver.games.precinct.state import PrecinctState
    from solver.games.precinct.view import PrecinctView

MAX_TRIES = 100
BACKTRACKS = 200
RETRIES = 8  # redraws of one masked step before going back to an earlier one
_MASKS = ("police ?", "loyalty ?", "found ?", "looked ?", "event ?", "order ?", "claim ?")


def rebuild_view(game: PrecinctGame, data: JSON) -> PrecinctView:
    """A view from its JSON; BadStateError naming the fault when it is not one of this game's views."""
    from solver.games.precinct.view import PrecinctView

    if not isinstance(data, dict):
        raise BadStateError(f"precinct: a view is a JSON object, not {type(data).__name__}")
    if data.get("game") != game.name or data.get("config") != game.config():
        raise BadStateError(f"precinct: the view is for {data.get('game')!r} {data.get('config')!r}, "
                            f"not {game.name!r} {game.config()!r}")
    need = {"seat", "history", "decision", "legal_actions", "cops", "hand"}
    missing = need - data.keys()
    if missing:
        raise BadStateError(f"precinct: the view lacks {sorted(missing)}")
    seat = data["seat"]
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.num_players:
        raise BadStateError(f"precinct: view seat {seat!r} is not a seat")
    d = data["decision"]
    try:
        decision = Decision(int(d["seat"]), DecisionKind(d["kind"]), int(d["turn_of"]), str(d["prompt"]))
        legal = tuple(game.str_to_action(t) for t in data["legal_actions"])
    except (KeyError, TypeError, ValueError) as err:
        raise BadStateError(f"precinct: the view's decision or legal actions are malformed: {err}") from None
    if not isinstance(data["history"], list):
        raise BadStateError("precinct: the view's history is not a list")
    return PrecinctView(game, seat, copy.deepcopy(data), legal, decision)


class _OutOfTime(Exception):
    """The caller's deadline passed during a draw (caught by :func:`resample_within`, never raised
    beyond this module)."""


def resample(game: PrecinctGame, view: PrecinctView, rng: np.random.Generator,
             belief: Any | None = None) -> PrecinctState:
    """A full state whose ``view(view.seat)`` equals ``view``; BadStateError if none is found."""
    return _resample(game, view, rng, belief, None)


def resample_within(game: PrecinctGame, view: PrecinctView, rng: np.random.Generator,
                    belief: Any | None, expired: Callable[[], bool]) -> PrecinctState | None:
    """:func:`resample`'s world, or None once ``expired()`` is true before it is found (module
    docstring, **Time**): a timed search keeps its budget. The same world as :func:`resample` for
    the same generator while ``expired()`` stays false; BadStateError if there is none."""
    try:
        return _resample(game, view, rng, belief, expired)
    except _OutOfTime:
        return None


def _resample(game: PrecinctGame, view: PrecinctView, rng: np.random.Generator, belief: Any | None,
              expired: Callable[[], bool] | None) -> PrecinctState:
    """:func:`resample`, raising _OutOfTime once ``expired`` (when given) is true."""
    data = view.to_json()
    seat = view.seat
    history: list[list[Any]] = data["history"]
    if not any(entry[1] in _MASKS for entry in history):
        state = _replay(game, seat, history, rng, {}, check_only=True)
        if state is not None and state.view(seat).to_json() == data:
            return state
        raise BadStateError(f"precinct: the view of seat {seat} does not replay")
    for _ in range(MAX_TRIES):
        dirty = _draw_loyalty(game, seat, data, rng, belief)
        if dirty is None:
            break
        state = _replay(game, seat, history, rng, dirty, expired=expired)
        if state is not None and state.view(seat).to_json() == data:
            return state
    raise BadStateError(f"precinct: no world consistent with seat {seat}'s view was found")


# --- loyalty ------------------------------------------------------------------------------------
def _draw_loyalty(game: PrecinctGame, seat: int, data: JSON, rng: np.random.Generator,
                  belief: Any | None) -> dict[int, bool] | None:
    """Draw the dirty seats: consistent with what ``seat`` knows, weighted by the public investigations."""
    if not game.dirty_cops:
        return {}
    n = game.num_players
    known: dict[int, bool] = {}
    for entry in data["history"]:
        for ev in entry[2]:
            if ev["kind"] == "LoyaltyShown":
                known[int(ev["seat"])] = bool(ev["dirty"])
    weights = {p: _investigation_odds(data, p) for p in range(n)}
    extra = (belief or {}).get("dirty", {}) if isinstance(belief, dict) else {}
    combos: list[tuple[int, ...]] = []
    probs: list[float] = []
    for dirty in combinations(range(n), game.dirty_cops):
        if any(known.get(p, p in dirty) != (p in dirty) for p in known):
            continue
        w = 1.0
        for p in range(n):
            if p in known:
                continue
            w *= weights[p][1] if p in dirty else weights[p][0]
            if p in dirty and str(p) in extra:
                w *= float(extra[str(p)])
            elif p in dirty and p in extra:
                w *= float(extra[p])
        if w > 0:
            combos.append(dirty)
            probs.append(w)
    if not combos:
        return None
    chosen = combos[int(rng.choice(len(combos), p=np.array(probs) / sum(probs)))]
    return {q: q in chosen for q in range(n)}


def _investigation_odds(data: JSON, p: int) -> tuple[float, float]:
    """(likelihood honest, likelihood dirty) of seat ``p``'s public investigations."""
    cops = data["cops"]
    honest = dirty = 1.0
    for entry in data["history"]:
        for ev in entry[2]:
            if ev["kind"] != "Investigated" or cops[ev["cop"]]["seat"] != p:
                continue
            e, size, drawn, placed = ev["evidence"], ev["size"], ev["drawn"], ev["placed"]
            honest *= draw_chance(e, size, drawn, placed)
            dirty *= draw_chance(e, size, drawn, placed) if placed else sum(
                draw_chance(e, size, drawn, k) for k in range(drawn))
    return honest, dirty


# --- the replay ---------------------------------------------------------------------------------
def _replay(game: PrecinctGame, seat: int, history: list[list[Any]], rng: np.random.Generator,
            dirty: dict[int, bool], check_only: bool = False,
            expired: Callable[[], bool] | None = None) -> PrecinctState | None:
    """Replay ``history``, filling the masked steps; None when a step turns out impossible.

    After every step the events the seat would see are compared with those it saw, so a masked
    step that a later step rules out is found at once; the replay then goes back to the last
    masked draw (a look, an investigation draw ...) and draws it again (:data:`RETRIES` times
    before going back further), at most :data:`BACKTRACKS` times in all. ``expired`` (when given) is
    asked before every step: _OutOfTime once it is true.
    """
    st = game.new_initial_state()
    deals: dict[int, int] = {}
    if not check_only:
        mine = {i for i, cop in enumerate(_cops(history)) if cop == seat}
        assigned = assign_deals(game, history, mine, rng)
        if assigned is None:
            return None
        deals = assigned
    saved: list[tuple[int, PrecinctState]] = []  # (step, the state before it) of redrawable steps
    tries: dict[int, int] = {}
    budget = BACKTRACKS
    i = 0
    while i < len(history):
        if expired is not None and expired():
            raise _OutOfTime
        _, text, seen = history[i]
        try:
            if text not in _MASKS:
                action: int | None = game.str_to_action(text)
            elif check_only:
                return None
            elif text == "police ?":
                action = codec.POLICE + deals[i]
            else:
                saved.append((i, st))
                st = st.clone()  # the saved state stays as it was; the replay goes on with a copy
                action = _fill(st, history, i, text, rng, dirty)
            ok = action is not None
            if ok:
                mark = len(st.events)
                st.apply(action)  # type: ignore[arg-type]
                ok = [e.to_json() for e in st.events[mark:] if e.visible(seat)] == seen
        except (IllegalActionError, InvalidActionError, KeyError):
            ok = False
        if ok:
            i += 1
            continue
        while saved and tries.get(saved[-1][0], 0) >= RETRIES:
            saved.pop()  # this draw was tried enough: an earlier one must change
        if not saved or budget == 0:
            return None
        budget -= 1
        i, st = saved.pop()  # drawn again (and saved again) when the loop reaches it
        tries[i] = tries.get(i, 0) + 1
    return st


def _cops(history: list[list[Any]]) -> list[int]:
    """The seat of each cop, in pick order (from the picks' record)."""
    return [int(actor) for actor, text, _ in history if text.startswith("pick ")]


def _fill(st: PrecinctState, history: list[list[Any]], i: int, text: str,
          rng: np.random.Generator, dirty: dict[int, bool]) -> int | None:
    """The action to replay for masked step ``i``."""
    task = st.todo[0]
    outcomes = st.chance_outcomes() if st.current_player() == CHANCE else []
    if text == "loyalty ?":
        return codec.DIRTY if dirty.get(int(task[1])) else codec.LOYAL
    if text == "found ?":
        return _found(st, history, i, outcomes, rng, dirty)
    if text == "event ?":
        forced = _next_event(st, history, i)
        if forced is not None and any(a == forced for a, _ in outcomes):
            return forced
        # a card put on the bottom unseen cannot be one the rest of the record draws from the deck
        later = [st.game.str_to_action(t) for actor, t, _ in history[i + 1:]
                 if actor == CHANCE and t.startswith("event ") and t != "event ?"]
        spare = [(a, q) for a, q in outcomes if later.count(a) < st.events_left[a - codec.EVENT]]
        return _pick(spare or outcomes, rng)
    if text == "claim ?":  # hidden evidence shows as nothing placed
        claim = next((ev for entry in history[i:] for ev in entry[2] if ev["kind"] == "Investigated"), None)
        hide = claim is not None and claim["placed"] == 0 and any(st.ctx["cards"])
        return codec.HIDE if hide else codec.PLACE
    if text == "order ?":
        legal = st.legal_actions()
        return int(legal[int(rng.integers(len(legal)))])
    return _pick(outcomes, rng)


def _pick(outcomes: list[tuple[int, float]], rng: np.random.Generator) -> int | None:
    if not outcomes:
        return None
    p = np.array([q for _, q in outcomes])
    return int(outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0])


def _found(st: PrecinctState, history: list[list[Any]], i: int, outcomes: list[tuple[int, float]],
           rng: np.random.Generator, dirty: dict[int, bool]) -> int | None:
    """The evidence count of another seat's draw, given its loyalty and its public claim."""
    claim = next((ev for entry in history[i:] for ev in entry[2] if ev["kind"] == "Investigated"), None)
    if claim is None:  # the draw is still in his hands: any count the rules allow
        return _pick(outcomes, rng)
    from solver.games.precinct.procedures import _draw_split

    s = st.stacks[st.ctx["deck"]]
    t, m, b = _draw_split(st)
    known = sum(k for k, _ in s.top[:t]) + sum(k for k, _ in s.bottom[:b])
    drawn, placed = t + m + b, claim["placed"]
    is_dirty = dirty.get(st.cops[st.ctx["cop"]].seat, False)
    ok = []
    for a, q in outcomes:
        total = known + a - codec.FOUND
        if total == placed or (is_dirty and placed == 0 and total < drawn):
            ok.append((a, q))
    return _pick(ok, rng)


def _next_event(st: PrecinctState, history: list[list[Any]], i: int) -> int | None:
    """The card the next public event draw shows, when a look at the top is kept on top."""
    if i + 1 >= len(history) or history[i + 1][1] != "keep on top":
        return None
    for actor, text, _ in history[i + 2:]:
        if text == "put on bottom":  # looked at again and moved: the next draw says nothing of it
            return None
        if actor == CHANCE and text.startswith("event ") and text != "event ?":
            try:
                return st.game.str_to_action(text)
            except InvalidActionError:
                return None
    return None
