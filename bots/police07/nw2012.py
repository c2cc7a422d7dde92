"""The ``nw2012`` bot: Nijssen & Winands' Monte Carlo tree search for Scotland Yard, on Police 07.

This is the published baseline the engine must beat, re-implemented as faithfully as the sources
we could read allow, with every parameter written down:

- [NW11] J.A.M. Nijssen, M.H.M. Winands, "Monte-Carlo Tree Search for the Game of Scotland Yard",
  IEEE Conference on Computational Intelligence and Games (CIG) 2011, pp. 158-165,
  doi:10.1109/CIG.2011.6032002 (and its two-page extended abstract of the same title).
- [NW12] P. Nijssen, M.H.M. Winands, "Monte Carlo Tree Search for the Hide-and-Seek Game Scotland
  Yard", IEEE Transactions on Computational Intelligence and AI in Games 4(4), Dec. 2012,
  pp. 282-294, doi:10.1109/TCIAIG.2012.2210424.
- [N13] J.A.M. Nijssen, "Monte-Carlo Tree Search for Multi-Player Games", PhD thesis, Maastricht
  University, 2013 (SIKS dissertation series 2013-40), its Scotland Yard chapter.

``docs/nw2012.md`` explains each part, says which values come from the text we could read, which
we recall from the papers but could not check, which we had to choose, and how Scotland Yard maps
onto Police 07. The parameter table below (:data:`PARAMETERS`) is the one the document reprints
(:func:`markdown_table`); a test checks that they agree.

NW2012 is a configuration of the shared search machinery, so it runs on the same ISMCTS kernel and
the same Police 07 simulator (compiled when built) as the ``ismcts`` bot; tournaments then compare
the algorithms at equal iterations and at equal time:

- determinization: one per iteration. Detectives (the seekers) draw Dr. Factor's stop from the exact
  possible-location set, weighted by *location categorisation* (the ``nw`` weights: per
  distance-to-the-nearest-detective category, the times he was really there over the times a
  possible stop was there, from the shipped self-play counts). Dr. Factor searches the true state.
- the tree: one tree shared by all determinizations, every node keyed by what the *searching side*
  knows (``SearchParams.keys="searcher"``); in the detectives' tree Dr. Factor's decisions are
  therefore public-information nodes, not his own information sets as in our ISMCTS.
- playouts: ε-greedy (the simulator's policy): detectives step towards his determinized stop, he
  steps away from the nearest detective.
- coalition reduction: a detective seat scores 1 for its own capture, ``1 - r`` for a teammate's.
- move filtering for Dr. Factor (:func:`filtered_actions`, which is the simulator's
  :func:`~solver.games.police07.sim.nw_move_filter`, the rule's one implementation): no joker where
  one of his own tickets reaches the same stop; ``double`` only in danger. In the tree (the
  simulator's ``filter_tree``) and in playouts (``filter_factor_moves`` with
  ``joker_filter="same_stop"``); the move the bot plays always obeys it.
- ε per role: the simulator's ``epsilon`` (detectives) and ``epsilon_factor`` (Dr. Factor).
- final move: the most visited root action.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar, Final

import numpy as np

from bots.base import Advice, Bot, Option, RankedAction, on_the_clock
from bots.ismcts_bot import ISMCTSBot, advice_iterations
from bots.police07.heuristic import HeuristicBot
from bots.registry import register
from solver.belief.categories import (
    categories,
    category_names,
    category_weights,
    detective_stops,
    load_weights,
)
from solver.core import JSON, Action, BadStateError, ConfigError, Game, View
from solver.games.police07 import codec
from solver.games.police07.distances import UNREACHABLE, detective_distances
from solver.games.police07.locations import possible_locations
from solver.games.police07.rules import Police07Game
from solver.games.police07.sim import Chase, SimTables, factor_in_danger, make_determinizer, nw_move_filter
from solver.games.police07.view import Police07View
from solver.search.ismcts import MAX_ITERATIONS, SearchParams, SearchResult, choose
from solver.search.sim import Determinizer

# --- the parameter table ---------------------------------------------------------------------------

#: Where a parameter's value comes from (the ``origin`` column).
ORIGINS: Final[Mapping[str, str]] = {
    "paper": "stated in the text of [NW11]/[NW12] that we could read (abstracts, extended abstract)",
    "recalled": "in [NW12]/[N13] as we recall them; the full text was not available to check",
    "ours": "not found in the text available to us; our choice, reason in docs/nw2012.md",
    "mapping": "our mapping of Scotland Yard onto Police 07",
}


@dataclass(frozen=True)
class Parameter:
    """One NW2012 parameter: the bot option that overrides it, its value, and where it comes from."""

    name: str
    value: float | str
    origin: str
    meaning: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def option(self) -> Option:
        """The bot option of this parameter (default: the documented value)."""
        return Option(self.value, type(self.value), self.meaning, self.minimum, self.maximum,
                      choices=self.choices or None)


#: The NW2012 parameters, each overridable by the bot option of the same name.
PARAMETERS: Final[tuple[Parameter, ...]] = (
    Parameter("c_factor", 0.7, "ours",
              "UCT exploration constant C of Dr. Factor's search (rewards in [0, 1])", 0.0, 10.0),
    Parameter("c_detectives", 0.7, "ours",
              "UCT exploration constant C of the detectives' searches (rewards in [0, 1])", 0.0, 10.0),
    Parameter("epsilon_factor", 0.1, "ours",
              "playout: probability that Dr. Factor moves uniformly at random, not greedily", 0.0, 1.0),
    Parameter("epsilon_detectives", 0.1, "ours",
              "playout: probability that a detective moves uniformly at random, not greedily", 0.0, 1.0),
    Parameter("coalition_r", 0.1, "recalled",
              "coalition reduction: a detective seat scores 1 - r when a teammate captures", 0.0, 0.999),
    Parameter("categorisation", "distance", "paper",
              "location categories: distance from the nearest detective, 1/2/3/4/5+",
              choices=("distance", "distance_type")),
    Parameter("location_weights", "nw", "recalled",
              "determinization weights: nw (hits / possible stops per category), learnt, uniform",
              choices=("nw", "learnt", "uniform")),
    Parameter("tree_keys", "searcher", "paper",
              "one tree over all determinizations, nodes keyed by the searching side's information",
              choices=("searcher", "actor")),
    Parameter("move_filter", "tree", "mapping",
              "Dr. Factor's joker and double filtering: in the tree and playouts, playouts only, off",
              choices=("tree", "playout", "off")),
    Parameter("factor_chase", "true", "recalled",
              "Dr. Factor's search: playout detectives chase his true stop (true) or a possible one",
              choices=("true", "belief")),
    Parameter("factor_keys", "path", "recalled",
              "Dr. Factor's search: one node per path of his (path, an ordinary tree) or paths with the "
              "same public history that reach the same stop share one (stop: transpositions, as ismcts)",
              choices=("path", "stop")),
    Parameter("final", "visits", "recalled",
              "the move played: the most visited root action (visits) or the best mean (value)",
              choices=("visits", "value")),
)

_BY_NAME: Final = {p.name: p for p in PARAMETERS}


def format_value(value: float | str) -> str:
    """A parameter value as the document's table prints it."""
    return repr(value) if isinstance(value, float) else str(value)


def markdown_table() -> str:
    """The parameter table as docs/nw2012.md prints it (one row per :data:`PARAMETERS` entry)."""
    lines = ["| option | default | origin | meaning |", "|---|---|---|---|"]
    for p in PARAMETERS:
        lines.append(f"| `{p.name}` | `{format_value(p.value)}` | {p.origin} | {p.meaning} |")
    return "\n".join(lines)


# --- location categorisation ----------------------------------------------------------------------


@lru_cache(maxsize=4)
def nw_category_weights(scheme: str = "distance") -> tuple[float, ...]:
    """NW's weight per category, ``hits / possible stops`` (the "general table" as we recall it).

    From the shipped self-play counts (``solver/games/police07/data/location_weights.json``): for
    each category, how often Dr. Factor's true stop was in it over how often a possible stop was in
    it; a possible stop is then drawn with probability proportional to its category's weight. A
    category never seen gets the overall rate, so no possible stop is ever excluded.
    """
    names = category_names(scheme)
    text = resources.files("solver.games.police07").joinpath("data/location_weights.json").read_text()
    entry = json.loads(text).get("schemes", {}).get(scheme, {})
    hits, stops = entry.get("hits"), entry.get("possible_stops")
    if (not isinstance(hits, list) or not isinstance(stops, list) or len(hits) != len(names)
            or len(stops) != len(names) or not all(isinstance(n, int) and n >= 0 for n in hits + stops)):
        raise ConfigError(
            f"nw2012: the shipped location weights have no per-category 'hits' and 'possible_stops' "
            f"counts for scheme {scheme!r}; relearn them with python -m bots.police07.learn_categories"
        )
    overall = sum(hits) / sum(stops) if sum(stops) else 1.0
    return tuple(h / n if n else overall for h, n in zip(hits, stops, strict=True))


def location_belief(
    game: Police07Game, view: JSON, mode: str, scheme: str = "distance"
) -> dict[int, float] | None:
    """Weight per possible stop of Dr. Factor for the detectives' determinizations (None: uniform).

    ``mode`` is the ``location_weights`` option: ``nw`` (:func:`nw_category_weights`), ``learnt``
    (the project's weights, :func:`solver.belief.categories.category_weights`) or ``uniform``.
    """
    if mode == "uniform":
        return None
    possible = sorted(possible_locations(game, view))
    if len(possible) <= 1:
        return None
    if mode == "learnt":
        return category_weights(game, view, load_weights(scheme=scheme))
    table = nw_category_weights(scheme)
    cats = categories(game.board, possible, detective_stops(view), scheme)
    return {stop: table[int(c)] for stop, c in zip(possible, cats, strict=True)}


# --- move filtering -------------------------------------------------------------------------------


def _nearest(game: Police07Game, view: JSON) -> Callable[[int], int]:
    # The detective distance from a stop to the nearest detective piece of the view, read from the
    # table the simulator's filter and playouts read (UNREACHABLE, so never danger, without pieces).
    table = detective_distances(game.board)
    rows = [table[stop] for stop in detective_stops(view)]
    return lambda stop: min((int(row[stop]) for row in rows), default=UNREACHABLE)


def in_danger(game: Police07Game, view: JSON, moves: list[Action]) -> bool:
    """True when no move of ``moves`` takes Dr. Factor two stops or more from every detective piece.

    Distances are the detectives' shortest paths over taxi, bus and metro (tickets ignored), the
    table the simulator's playout policy uses, so the tree and the playouts agree on "danger"
    (:func:`~solver.games.police07.sim.factor_in_danger` on the view's detective stops).
    """
    return factor_in_danger(moves, _nearest(game, view))


def filtered_actions(game: Police07Game, view: Police07View) -> tuple[Action, ...]:
    """The legal actions NW2012 move filtering keeps (every legal action for a detective).

    Dr. Factor, mapped from the hider's filtering of black-fare tickets and double moves
    (:func:`~solver.games.police07.sim.nw_move_filter`, the same code the simulator's
    ``filter_tree`` runs):

    - a joker move to a stop is dropped when one of his taxi/bus/metro tickets reaches the same
      stop now (the joker is kept for the water bus and for lines he has no ticket for);
    - ``double`` is kept only *in danger* (:func:`in_danger`): every stop he can reach now is
      within one move of a detective piece.

    Other actions (show, take, place) are never filtered, and a move to every reachable stop stays.
    """
    legal = view.legal_actions
    if view.seat != 0:
        return legal
    return tuple(nw_move_filter(legal, _nearest(game, view.to_json())))


def _filter_reason(action: Action) -> str:
    if action == codec.DOUBLE:
        return "filtered out (NW2012 move filtering): double only when every move ends next to a detective"
    return "filtered out (NW2012 move filtering): an ordinary ticket reaches the same stop"


# --- the bot --------------------------------------------------------------------------------------

_BUDGET: Final[dict[str, Option]] = {
    "iterations": Option(1000, int, "search iterations per move (unless seconds is given)", 1,
                         MAX_ITERATIONS),
    "seconds": Option(None, float, "time per move in seconds, the whole decision's; overrides iterations",
                      0.001, 3600.0),
}


def _is_setup(legal: tuple[Action, ...]) -> bool:
    # Free-start placement: the simulator starts after set-up, and Scotland Yard deals start cards.
    return all(codec.PLACE_BASE < a < codec.PLACE_BASE + 256 for a in legal)


class NW2012Bot(ISMCTSBot):
    """Nijssen & Winands' Scotland Yard MCTS for Police 07, both roles (see the module docstring)."""

    name: ClassVar[str] = "nw2012"
    description: ClassVar[str] = (
        "Nijssen & Winands 2012 Scotland Yard MCTS (published baseline), both roles; "
        "strength by --iterations or --seconds"
    )
    options: ClassVar[Mapping[str, Option]] = {**_BUDGET, **{p.name: p.option() for p in PARAMETERS}}

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        if not isinstance(game, Police07Game):
            raise ConfigError(f"nw2012 bot: plays police07 only, not {game.name!r}")
        # ISMCTSBot.__init__ builds its search parameters from one option "c"; NW2012 has a C per
        # role, so the base Bot validates the options and this constructor builds the rest.
        Bot.__init__(self, game, seat, rng, **options)
        s = self.settings
        self.police_game: Police07Game = game
        self.last: SearchResult | None = None
        factor = seat == 0
        self.params = SearchParams(c=s["c_factor"] if factor else s["c_detectives"], final=s["final"],
                                   keys=s["tree_keys"])
        chase: Chase = s["factor_chase"] if factor else "true"
        # move_filter: "tree" filters Dr. Factor's legal actions everywhere in the search (tree and
        # playouts draw from them); "tree" and "playout" both filter his playout candidates with
        # the same per-stop joker rule, so tree and playouts filter alike.
        self.tables = SimTables.build(
            game,
            epsilon=s["epsilon_detectives"],
            epsilon_factor=s["epsilon_factor"],
            coalition_r=s["coalition_r"],
            chase=chase,
            filter_factor_moves=s["move_filter"] != "off",
            joker_filter="same_stop",
            filter_tree=s["move_filter"] == "tree",
            track_possible=chase == "belief",  # only the belief chase reads the possible set
            # how Dr. Factor's key follows his moves, in his own search (the option's meaning)
            factor_keys=s["factor_keys"] if factor else "path",
        )
        # Placement (free-start variant only) is outside NW2012: the heuristic's placement score.
        self.placer = HeuristicBot(game, seat, rng)

    # --- configuration ------------------------------------------------------------------------------
    def determinizer(self, view: View) -> Determinizer:
        """The Police 07 simulator's determinizer, weighted by location categorisation for detectives."""
        belief = None
        if self.seat != 0:
            belief = location_belief(self.police_game, view.to_json(), self.settings["location_weights"],
                                     self.settings["categorisation"])
        return make_determinizer(self.police_game, view, self.tables, belief)

    def belief(self, view: View) -> dict[str, Any]:
        """Dr. Factor's possible stops and, for detectives, the determinization probability of each."""
        data = view.to_json()
        stops = sorted(possible_locations(self.police_game, data))
        out: dict[str, Any] = {"possible_stops": stops, "count": len(stops)}
        if self.seat != 0:
            weights = location_belief(self.police_game, data, self.settings["location_weights"],
                                      self.settings["categorisation"])
            if weights:
                total = sum(weights.values())
                out["probabilities"] = {str(s): round(w / total, 4) for s, w in sorted(weights.items())}
        return out

    def allowed(self, view: View) -> tuple[Action, ...]:
        """The legal actions the bot may play: NW2012 move filtering unless ``move_filter="off"``."""
        legal = self.check_view(view)
        if self.settings["move_filter"] == "off" or self.seat != 0:
            return legal
        if not isinstance(view, Police07View):
            raise BadStateError(f"nw2012 bot: expected a police07 view, not {type(view).__name__}")
        return filtered_actions(self.police_game, view)

    # --- the bot API ------------------------------------------------------------------------------------
    @on_the_clock
    def step(self, view: View) -> Action:
        """The most visited root action among the filtered ones (a lone one is played unsearched).

        A ``seconds`` budget counts from here: the move filter and the determinizer's location
        weights are inside it, as for ``ismcts`` (:meth:`ISMCTSBot.search`)."""
        legal = self.check_view(view)
        if _is_setup(legal):
            return self.placer.step(view)
        allowed = self.allowed(view)
        if len(allowed) == 1:
            return allowed[0]
        return self._choice(self.search(view), allowed)

    def _choice(self, result: SearchResult, allowed: tuple[Action, ...]) -> Action:
        # With the filter in the tree every root action is allowed; without it, the root keeps the
        # filtered moves and only the final choice can obey the filter.
        kept = tuple(s for s in result.stats if s.action in allowed)
        return choose(kept or result.stats, self.params.final)

    def left_to_policy(self, view: View) -> str | None:
        """A free-start placement, left to the heuristic's placement score (outside NW2012)."""
        if _is_setup(view.legal_actions):
            return ("a free-start placement: NW2012's search starts after set-up, so the heuristic's "
                    "placement score places the piece unsearched")
        return None

    def policy(self) -> Bot:
        """The heuristic bot: it places the pieces at a free start."""
        return self.placer

    @on_the_clock
    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Root actions ranked by visits (filtered moves last, with the reason), and the belief.

        ``budget`` is a number of iterations, as for the ``ismcts`` bot. A free-start placement is
        the heuristic's advice (``decided_by``); a move the filter leaves alone is ranked unsearched,
        as :meth:`step` plays it.
        """
        legal = self.check_view(view)
        allowed = self.allowed(view) if not _is_setup(legal) else legal
        if len(allowed) == 1 < len(legal):
            advice_iterations(self.name, budget)  # a bad budget is still an error
            only = allowed[0]
            text = self.game.action_to_str
            ranked = (RankedAction(only, text(only), 1.0, "the only move the NW2012 move filter allows: "
                                   "nothing to search"),
                      *(RankedAction(a, text(a), 0.0, _filter_reason(a)) for a in legal if a != only))
            return Advice(view.seat, ranked, self.belief(view), f"NW2012 MCTS, no search: {text(only)} is "
                          "the only move its filter allows")
        base = super().advise(view, budget)
        if base.decided_by or not any(r.visits for r in base.ranked):
            return base  # the heuristic's placement, or a lone legal move
        kept = [r for r in base.ranked if r.action in allowed]
        dropped = [dataclasses.replace(r, reason=_filter_reason(r.action)) for r in base.ranked
                   if r.action not in allowed]
        if self.last is not None and kept:
            best_action = self._choice(self.last, tuple(allowed))
            kept.sort(key=lambda r: r.action != best_action)  # stable: the played move first
        ranked = tuple(kept + dropped)
        best = ranked[0]
        win = f"estimated win chance {best.value:.0%}" if best.value is not None else "not searched"
        done = self.last.iterations if self.last is not None else 0
        summary = f"NW2012 MCTS, {done} simulations; best: {best.text} ({win})"
        return Advice(base.seat, ranked, base.belief, summary)


def _check_table() -> None:
    # The table drives the options: a bad row is a programming error, caught when the module loads.
    for p in PARAMETERS:
        if p.origin not in ORIGINS:
            raise ConfigError(f"nw2012: parameter {p.name!r} has unknown origin {p.origin!r}")
        if p.choices and p.value not in p.choices:
            raise ConfigError(f"nw2012: parameter {p.name!r} default {p.value!r} is not a choice")
        if isinstance(p.value, float) and not math.isfinite(p.value):
            raise ConfigError(f"nw2012: parameter {p.name!r} default must be finite")


_check_table()
register("police07", NW2012Bot)
