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
import importlib
import importlib.util
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
from solver.games.escape import codec, phases, setup, turn  # noqa: F401  (they register their tasks)
from solver.games.escape.city import City, load_city
from solver.games.escape.content import ASSETS, Content, load_content
from solver.games.escape.spec import SPEC
from solver.games.escape.state import EscapeState, EscapeView

for _module in ("visit", "executive", "sandra"):
    if importlib.util.find_spec(f"solver.games.escape.{_module}") is not None:
        importlib.import_module(f"solver.games.escape.{_module}")


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

        The seat's history is replayed; the only steps it did not see are the other seats' Escape Plan
        cards (``plan ?``), each drawn uniformly from the cards not yet dealt other than the seat's own:
        that is the deal's distribution given the seat's card. Nothing the rules implement so far
        reveals anything about another seat's card (visits, where an income mark would show, come with
        ``visit.py``), so this draw is exact; ``belief`` is not used yet.
        """
        if not isinstance(view, EscapeView) or view.game != self:
            raise BadStateError(f"escape: cannot resample {view!r} in {self!r}")
        data = view.to_json()
        seat = view.seat
        own = next((i for i, p in enumerate(self.content.plans) if p.name == data["plan"]), -1)
        st = self.new_initial_state()
        for i, entry in enumerate(data["history"]):
            text = entry[1]
            try:
                if text == "plan ?":
                    options = [a for a, _ in st.chance_outcomes() if a - codec.PLAN != own]
                    if not options:
                        raise BadStateError(f"escape: step {i}: no plan card left to deal")
                    action = options[int(rng.integers(len(options)))]
                else:
                    action = self.str_to_action(text)
                if action in st.legal_actions():
                    st.apply_unchecked(action)
                else:
                    raise BadStateError(f"escape: step {i} ({text!r}) is not legal in the replay")
            except (IllegalActionError, InvalidActionError) as err:
                raise BadStateError(f"escape: step {i} ({text!r}) does not replay: {err}") from None
        if st.view(seat).to_json() != data:
            raise BadStateError(f"escape: seat {seat}'s view does not replay to itself")
        return st
