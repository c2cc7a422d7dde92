"""Police Precinct (Common Man Games, Ole Steiness, 2013): the game and its configuration.

The rulebook (``shared/rulebooks/police-precinct.txt``) is the specification; its sections are cited
in brackets in each module. The modules:

* :mod:`.city` the stand-in street map; :mod:`.content` the stand-in cards and tracks;
* :mod:`.state` the position and its work queue; :mod:`.tasks` the queue's machinery;
* :mod:`.turn` set-up and the four phases; :mod:`.procedures` the actions and police cards;
  :mod:`.eventcards` the event phase, the Urgent! token, gangs and special events;
* :mod:`.codec` action notation; :mod:`.view` what a seat knows; :mod:`.resample` worlds consistent
  with a view.

Where the rulebook is silent, the choice made is said where the rule is implemented, and listed in
``docs/precinct-rules.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from solver.core import JSON, Action, BadStateError, ConfigError, Game, InvalidActionError, State, View
from solver.games.precinct import codec
from solver.games.precinct.city import City, load_city
from solver.games.precinct.content import (
    DECKS,
    LOYALTY_ACTIONS,
    REWARDS,
    UNKNOWN,
    UPGRADES,
    Content,
    load_content,
)
from solver.games.precinct.spec import SPEC
from solver.games.precinct.state import PrecinctState
from solver.games.precinct.view import PrecinctView

#: [Set-Up Chart]: players -> (police cards dealt, street punks used, start turn) without / with the
#: Dirty Cop; 7 and 8 players ("all the tools are available", Adjusting Difficulty) repeat the 6-player row
CHART: dict[int, tuple[tuple[int, int, int], tuple[int, int, int] | None]] = {
    1: ((2, 14, 1), None),
    2: ((2, 14, 1), None),
    3: ((3, 16, 8), None),
    4: ((2, 15, 12), (6, 16, 12)),
    5: ((2, 14, 14), (5, 16, 14)),
    6: ((2, 13, 15), (4, 15, 15)),
    7: ((2, 13, 15), (4, 15, 15)),
    8: ((2, 13, 15), (4, 15, 15)),
}
PUNKS = 18  # street punks in the box [Components]
OFFICERS = 5  # patrol officers in the box; the chart uses 4


@lru_cache(maxsize=8)
def _content(city_path: str | None, content_path: str | None) -> tuple[City, Content]:
    city = load_city(city_path)
    return city, load_content(content_path, city)


class PrecinctGame(Game):
    """Police Precinct for ``players`` (1..8) with the set-up chart's row, adjustable by options."""

    name = "precinct"

    def __init__(self, players: int = 4, dirty_cop: bool = False, dirty_cops: int = 1,
                 start_turn: int | None = None, punks: int | None = None,
                 patrol_officers: int | None = None, cards_dealt: int | None = None,
                 start_donuts: int = 0, support_vehicles: int | None = None, support_speed: int = 3,
                 events_at_start: int = 2, city: str | None = None, content: str | None = None) -> None:
        options = {"players": players, "dirty_cop": dirty_cop, "dirty_cops": dirty_cops,
                   "start_turn": start_turn, "punks": punks, "patrol_officers": patrol_officers,
                   "cards_dealt": cards_dealt, "start_donuts": start_donuts,
                   "support_vehicles": support_vehicles, "support_speed": support_speed,
                   "events_at_start": events_at_start, "city": city, "content": content}
        checked = SPEC.check_options(options)
        self._options = {k: checked[k] for k in options}
        self.num_players = int(checked["players"])
        n = self.num_players
        if dirty_cop and n < 3:  # the designer: "not for solo; 3+ players recommended"
            raise ConfigError(f"precinct: a dirty cop needs at least 3 players, not {n}")
        if dirty_cop and not 1 <= dirty_cops <= max(1, n - 2):
            raise ConfigError(
                f"precinct: dirty_cops={dirty_cops}, expected 1 to {max(1, n - 2)} at {n} players")
        self.city, self.content = _content(city, content)
        self._check_layout()
        plain, traitor = CHART[n]
        row = traitor if dirty_cop and traitor is not None else plain
        dealt, used, start = row
        self.dirty_cops = int(dirty_cops) if dirty_cop else 0
        self.cards_dealt = dealt if cards_dealt is None else int(cards_dealt)
        self.punks = used if punks is None else int(punks)
        self.start_turn = start if start_turn is None else int(start_turn)
        self.patrol_officers = 4 if patrol_officers is None else int(patrol_officers)
        self.start_donuts = int(start_donuts)
        # the support vehicle joins 1- and 2-player games [Support Vehicle]
        self.support_vehicles = (1 if n <= 2 else 0) if support_vehicles is None else int(support_vehicles)
        self.support_speed = int(support_speed)
        self.events_at_start = int(events_at_start)
        if self.start_turn >= self.content.fail_turn:
            raise ConfigError(f"precinct: start_turn={self.start_turn} is past the FAIL space "
                              f"({self.content.fail_turn})")
        if self.punks < 6 or self.punks > PUNKS:
            raise ConfigError(f"precinct: punks={self.punks}, expected 6 (the set-up roll) to {PUNKS}")
        events = self.content.events
        emergencies = sum(c for k, c in enumerate(self.content.event_counts) if not events[k].special)
        if self.events_at_start > emergencies:
            raise ConfigError(f"precinct: events_at_start={self.events_at_start}, but the deck holds "
                              f"{emergencies} emergencies")
        picks = 2 if n == 1 else n
        if picks > len(self.content.characters):
            raise ConfigError(f"precinct: {n} players need {picks} characters; the content has "
                              f"{len(self.content.characters)}")

    def _check_layout(self) -> None:
        """The content must fit the action layout (:mod:`.codec`)."""
        limits = ((len(self.content.characters), codec.MAX_CHARACTERS, "characters"),
                  (len(self.content.police), codec.MAX_POLICE_KINDS, "police card kinds"),
                  (len(self.content.events), codec.MAX_EVENT_KINDS, "event card kinds"),
                  (len(self.city.streets), codec.MAX_STREETS, "streets"))
        for have, most, what in limits:
            if have > most:
                raise ConfigError(f"precinct: the content has {have} {what}; at most {most} fit")
        if any(e > codec.MAX_FOUND for e, _ in self.content.decks):
            raise ConfigError(f"precinct: a deck holds more than {codec.MAX_FOUND} evidence cards")

    def config(self) -> JSON:
        """The options, as given (None: the chart's value)."""
        return dict(self._options)

    def new_initial_state(self) -> PrecinctState:
        """The state before the first pick."""
        return PrecinctState(self)

    # --- names --------------------------------------------------------------------------------
    @cached_property
    def station(self) -> int:
        """The street the Police Station is entered from."""
        return self.city.buildings["Police Station"]

    @cached_property
    def hospital(self) -> int:
        """The street the Hospital is entered from."""
        return self.city.buildings["Hospital"]

    @cached_property
    def police_names(self) -> tuple[str, ...]:
        """Police card names by kind."""
        return tuple(c.name for c in self.content.police)

    @cached_property
    def event_names(self) -> tuple[str, ...]:
        """Event card names by kind."""
        return tuple(c.name for c in self.content.events)

    deck_names = DECKS
    upgrade_names = UPGRADES
    reward_names = REWARDS
    unknown_names = UNKNOWN
    loyalty_names = LOYALTY_ACTIONS

    @cached_property
    def gang_names(self) -> tuple[str, ...]:
        """The street gang markers, by index."""
        return tuple(g for g in self.content.gangs)

    # --- notation -----------------------------------------------------------------------------
    def action_to_str(self, action: Action) -> str:
        """``action`` in notation (``move Stickel Avenue``)."""
        return codec.to_str(self, action)

    @cached_property
    def _parse(self) -> dict[str, Action]:
        return codec.parse_table(self)

    def str_to_action(self, text: str) -> Action:
        """Parse notation; InvalidActionError naming the text."""
        if not isinstance(text, str):
            raise InvalidActionError(f"precinct: action {text!r} is not a string")
        key = " ".join(text.strip().lower().split())
        if key not in self._parse:
            raise InvalidActionError(f"precinct: cannot read action {text[:80]!r}")
        return self._parse[key]

    # --- information --------------------------------------------------------------------------
    def resample(self, view: View, rng: np.random.Generator, belief: Any | None = None) -> State:
        """A full state whose view for ``view.seat`` equals ``view`` (:mod:`.resample`)."""
        from solver.games.precinct.resample import resample

        if not isinstance(view, PrecinctView) or view.game != self:
            raise BadStateError(f"precinct: cannot resample {view!r} in {self!r}")
        return resample(self, view, rng, belief)

    def resample_within(self, view: View, rng: np.random.Generator, belief: Any | None,
                        expired: Callable[[], bool]) -> State | None:
        """:meth:`resample`'s world, or None once ``expired()`` is true before it is found: a draw
        can backtrack for a second where the usual one takes milliseconds, and a timed search
        cannot wait for it (:func:`.resample.resample_within`)."""
        from solver.games.precinct.resample import resample_within

        if not isinstance(view, PrecinctView) or view.game != self:
            raise BadStateError(f"precinct: cannot resample {view!r} in {self!r}")
        return resample_within(self, view, rng, belief, expired)

    def view_from_json(self, data: JSON) -> PrecinctView:
        """Rebuild a view from its JSON, checking it could be one of this game's."""
        from solver.games.precinct.resample import rebuild_view

        return rebuild_view(self, data)

