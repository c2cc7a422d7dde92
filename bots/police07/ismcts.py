"""ISMCTS for Police 07 (``ismcts`` for police07): the generic search on the game's simulator.

The generic ``ismcts`` bot (:mod:`bots.ismcts_bot`) determinizes with the game's resampler over the
Python rules and scores wins and losses. This one keeps its budget, search and advice and changes
what is searched: determinizations and playouts run on the Police 07 simulator
(:mod:`solver.games.police07.sim`, compiled when built), with the game's own rewards (coalition
reduction for the detectives), playout policy and tree keys by role, and the detectives' belief of
where Dr. Factor is. Free-start placements, which the simulator does not search, are left to the
``heuristic`` bot; the advice there is the heuristic's ranking, with ``decided_by`` and a note.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, cast

import numpy as np

from bots.base import Bot, Option, on_the_clock
from bots.ismcts_bot import _BUDGET_OPTIONS, ISMCTSBot
from bots.police07.heuristic import HeuristicBot
from bots.registry import register
from solver.core import Action, ConfigError, Game, View
from solver.games.police07 import sim
from solver.games.police07.codec import PLACE_BASE
from solver.games.police07.locations import possible_locations
from solver.games.police07.rules import Police07Game
from solver.games.police07.sim import Chase, FactorKeys, SimTables
from solver.search.ismcts import NodeKeys
from solver.search.sim import Determinizer

#: How the Police 07 detectives' search weighs Dr. Factor's possible stops (option ``belief``).
BELIEFS = ("filter", "categories", "uniform")
#: The choices of the options ``chase``, ``factor_keys``, ``tree`` and ``move_filter`` (each also
#: takes ``auto``).
CHASES = ("true", "belief")
FACTOR_KEYS = ("path", "stop")
TREES = ("actor", "searcher")
MOVE_FILTERS = ("playout", "tree")
#: What ``auto`` means for those options, by role (key: the bot plays Dr. Factor). Each side
#: searches one tree keyed by what it knows (Nijssen & Winands 2012's single tree): Dr. Factor's
#: detectives in it see where he is, and he merges paths that reach the same stop; in the
#: detectives' tree his decisions are nodes of the public history, pooling every determinization of
#: where he is (their ``factor_keys`` is then unused: no node is his own). Playout detectives chase
#: his true stop, so playouts need not track the possible set. Measured against the other choices
#: in bench/results/README.md ("Dr. Factor's search", "The detectives' tree").
ROLE_DEFAULTS: Mapping[bool, Mapping[str, str]] = {
    True: {"chase": "true", "factor_keys": "stop", "tree": "searcher", "move_filter": "playout"},
    False: {"chase": "true", "factor_keys": "path", "tree": "searcher", "move_filter": "playout"},
}


class Police07ISMCTSBot(ISMCTSBot):
    """ISMCTS on the Police 07 simulator (compiled when built), for Dr. Factor and the detectives.

    Determinizations draw Dr. Factor's hidden path from the detectives' possible-location sets.
    Playouts follow the simulator's policy: with probability ``epsilon`` a uniform move, otherwise
    Dr. Factor flees and detectives chase his stop (``chase="true"``; ``"belief"``: a stop drawn from
    the public possible set). Each side searches a single tree keyed by its own information
    (``tree="searcher"``, Cowling, Powley & Whitehouse 2012's single-observer ISMCTS, the tree
    shape of Nijssen & Winands 2012): in the detectives' tree Dr. Factor's decisions are nodes of
    the public history, pooling every determinization of where he is; Dr. Factor, who sees
    everything but the detectives' future choices, merges his paths that reach the same stop
    (``factor_keys="stop"``). ``tree="actor"`` keys every node by the acting seat's information
    instead (their multiple-observer keys: Dr. Factor's nodes in the detectives' tree are then his
    information sets). ``auto`` picks these by role (:data:`ROLE_DEFAULTS`). Detective rewards are
    shared with ``coalition_r`` (coalition reduction: a little less for a teammate's capture). As
    detectives it draws his stop from ``belief``: ``filter`` (default) follows his moves with a
    learnt model of how he moves (:mod:`solver.belief.location_filter`), ``categories`` weighs the
    possible stops by location categories (:mod:`solver.belief.categories`), ``uniform`` draws any
    possible stop. See :mod:`solver.games.police07.sim`.
    """

    description: ClassVar[str] = (
        "Information Set MCTS on the Police 07 simulator, both roles; strength by --iterations or --seconds"
    )
    options: ClassVar[Mapping[str, Option]] = {
        **_BUDGET_OPTIONS,
        "epsilon": Option(0.1, float, "playout: probability of a uniform move, not the policy's", 0.0, 1.0),
        # 0.3, not NW2012's 0.1: the better of 0.1/0.3/0.5 against nw2012 in seeded arenas
        # (bench/results/README.md, "tuning ismcts").
        "coalition_r": Option(
            0.3, float, "reward a detective gives up when a teammate captures (below 1)", 0.0, 0.999
        ),
        # filter, not categories: better held-out log-probability of his true stop
        # (solver/games/police07/data/factor_model.json) and win rate (bench/results/README.md).
        "belief": Option(
            "filter", str, "detectives: draw Dr. Factor's stop by filter (a learnt model of his moves, "
            "followed from his start), categories (location-category weights) or uniform",
            choices=BELIEFS,
        ),
        "chase": Option(
            "auto", str, "playout detectives chase: auto (by role, see ROLE_DEFAULTS), true (his stop) "
            "or belief (a stop drawn from the public possible set)", choices=("auto", *CHASES),
        ),
        "factor_keys": Option(
            "auto", str, "Dr. Factor's nodes: auto (by role), path (one per path from the root) or stop "
            "(paths with the same public history that reach the same stop share one: transpositions)",
            choices=("auto", *FACTOR_KEYS),
        ),
        "tree": Option(
            "auto", str, "whose information keys a node: auto (by role), actor (each seat's own, ISMCTS) "
            "or searcher (the searching seat's, as Nijssen & Winands' single tree)", choices=("auto", *TREES),
        ),
        "move_filter": Option(
            "auto", str, "Dr. Factor's moves: auto (by role), playout (playout candidates thinned: no "
            "joker while an own ticket moves, double only in danger) or tree (Nijssen & Winands' filter "
            "on his legal moves in tree and playouts: no joker where an own ticket reaches the stop)",
            choices=("auto", *MOVE_FILTERS),
        ),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        if not isinstance(game, Police07Game):
            raise ConfigError(f"ismcts bot: the Police 07 bot plays police07 only, not {game.name!r}")
        super().__init__(game, seat, rng, **options)
        #: the game, typed as Police 07's
        self.police = game
        #: the search settings of this seat's role, ``auto`` resolved (:data:`ROLE_DEFAULTS`)
        self.role_settings: dict[str, str] = {
            name: ROLE_DEFAULTS[seat == 0][name] if self.settings[name] == "auto" else self.settings[name]
            for name in ROLE_DEFAULTS[True]
        }
        self.params = dataclasses.replace(self.params, keys=cast(NodeKeys, self.role_settings["tree"]))
        role = self.role_settings
        # The simulator's tables depend on the game and the settings only, so they are built once,
        # with the bot (as nw2012's), not at every decision. Only the belief chase reads the sim's
        # possible set; not tracking it saves time per playout.
        self.tables = SimTables.build(
            game, epsilon=self.settings["epsilon"], coalition_r=self.settings["coalition_r"],
            chase=cast(Chase, role["chase"]), factor_keys=cast(FactorKeys, role["factor_keys"]),
            track_possible=role["chase"] == "belief", filter_tree=role["move_filter"] == "tree",
            joker_filter="same_stop" if role["move_filter"] == "tree" else "all")
        if seat != 0 and self.settings["belief"] == "filter":
            # The filter's tables are built on first use (tens of ms, once a process): here rather
            # than in the first decision, which would overrun its time budget by that much.
            from solver.belief.factor_model import load_model
            from solver.belief.location_filter import adjacency
            from solver.games.police07.bitsets import mask_stops

            load_model()
            adjacency(game.board)
            mask_stops(0)

    def _placing(self, view: View) -> bool:
        # The simulator starts after set-up, so free-start placements (variant) are not searched.
        return any(PLACE_BASE < a < PLACE_BASE + 256 for a in view.legal_actions)

    def _placer(self) -> Bot:
        return HeuristicBot(self.game, self.seat, self.rng)

    @on_the_clock
    def step(self, view: View) -> Action:
        """The search's choice; a free-start placement is left to the heuristic bot."""
        self.check_view(view)
        if self._placing(view):
            return self._placer().step(view)
        return super().step(view)

    def left_to_policy(self, view: View) -> str | None:
        """A free-start placement, left to the heuristic bot (the simulator starts after set-up)."""
        if self._placing(view):
            return ("a free-start placement: the ismcts simulator starts after set-up, so it leaves "
                    "placements to the heuristic unsearched")
        return None

    def policy(self) -> Bot:
        """The heuristic bot: it places the pieces at a free start."""
        return self._placer()

    def determinizer(self, view: View) -> Determinizer:
        """The Police 07 simulator's determinizer for ``view`` (compiled when built)."""
        belief = None
        if self.seat != 0 and self.settings["belief"] == "filter":
            from solver.belief.location_filter import filtered_belief

            belief = filtered_belief(self.police, view)
        elif self.seat != 0 and self.settings["belief"] == "categories":
            from solver.belief.categories import category_weights

            # Location categorisation (Nijssen & Winands 2012): likelier stops are drawn more often.
            belief = category_weights(self.police, view)
        # looked up on the module at each call, so tests can watch what it is handed
        return sim.make_determinizer(self.police, view, self.tables, belief)

    def belief(self, view: View) -> dict[str, Any]:
        """Dr. Factor's possible stops as the seat's view allows (his own stop, for him)."""
        stops = sorted(possible_locations(self.police, view.to_json()))
        return {"possible_stops": stops, "count": len(stops)}


register("police07", Police07ISMCTSBot)
