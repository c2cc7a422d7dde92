"""ISMCTS for Police Precinct (``ismcts`` for precinct): the good cops' and the dirty cop's search.

The shared pruned search of :mod:`bots.pruned_ismcts` on Police Precinct's sims
(:mod:`bots.precinct.search`):

1. **Worlds.** ``worlds`` full states are drawn per search by the game's resampler from the seat's
   own view: the other seats' hands (matched to the cards they later showed), their investigation
   draws, and with the Dirty Cop the loyalty deal, weighted by each public investigation's
   hypergeometric chance (:mod:`solver.games.precinct.resample`). Each good cop searches from its
   own view, so it does not see the others' hands. With the Dirty Cop the deal also carries the
   learnt public signals' weights (:meth:`PrecinctISMCTSBot.posterior`). Deck orders are not in a
   state: draws are chance nodes, sampled afresh in each iteration.
2. **Playouts** by the ``heuristic`` for every seat on its own board data, cut ``horizon`` cop turns
   after the root and scored by the learnt value (``value=learnt``), or played to the end
   (``horizon=0``). Good cops share one objective (the team's win); the dirty cop's is its
   complement, so the same search serves his seat, less ``suspicion`` times how dirty he looks to
   the table at the end of the line (:class:`bots.precinct.suspicion.Watch`, from the table's
   posterior at the root, :func:`bots.precinct.suspicion.table_suspicion`).
3. **Root and choice.** The heuristic's best ``prune`` actions are searched, and a good cop's
   accusation of his likeliest suspect once the learnt posterior gives him ``accuse_floor``; the
   heuristic's own choice stands unless the most visited beats it by ``margin`` standard errors.
   Decisions outside the turn's car move and action (help windows, donuts, rewards, card plays at
   the turn's start, discards) are minor: ``window_share`` of the budget, by default none (the
   heuristic makes them): a search needs its worlds first (~20 ms each mid-game), and there are
   three minor decisions to a major one.

How the defaults were chosen, and the tournaments against the heuristic team, are in
``bench/results/precinct-search.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, cast

import numpy as np

from bots.base import Bot, Option
from bots.ismcts_bot import _BUDGET_OPTIONS
from bots.observer_sim import PoolDeterminizer
from bots.precinct.heuristic import PrecinctHeuristic
from bots.precinct.search import PrecinctSim
from bots.precinct.suspicion import Watch, table_suspicion
from bots.pruned_ismcts import PRUNED_OPTIONS, PrunedISMCTSBot
from bots.registry import register
from solver.core import Action, ConfigError, Game, State, View
from solver.games.precinct import codec

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState

#: the blocks of the turn's two main decisions: where the car goes, and the action
_MAJOR: frozenset[int] = frozenset({codec.MOVE, codec.NO_ACTION})


def check_precinct(bot: str, game: Game) -> None:
    """ConfigError unless ``game`` is Police Precinct."""
    if game.name != "precinct":
        raise ConfigError(f"{bot} bot: this one plays precinct, not {game.name!r}")


def is_major(legal: tuple[Action, ...] | list[Action]) -> bool:
    """True for the car's move or the turn's action (the decisions that get the whole budget)."""
    return any(codec.block_of(a)[0] in _MAJOR for a in legal)


class PrecinctISMCTSBot(PrunedISMCTSBot):
    """ISMCTS over Police Precinct: heuristic playouts to a horizon, scored by the learnt value."""

    description: ClassVar[str] = (
        "Information Set MCTS (Cowling et al. 2012) over worlds drawn from the seat's view, heuristic "
        "playouts cut at a horizon and scored by a learnt value; strength by --iterations or --seconds"
    )
    options: ClassVar[Mapping[str, Option]] = {
        **_BUDGET_OPTIONS,
        **PRUNED_OPTIONS,
        "worlds": Option(8, int, "determinized worlds drawn per search and copied by its iterations",
                         1, 4096),
        "window_share": Option(0.0, float, "share of the budget for a minor decision (0: the heuristic "
                               "makes it unsearched)", 0.0, 1.0),
        "margin": Option(1.0, float, "play the most visited action only if it beats the heuristic's choice "
                         "by this many standard errors (0: always the most visited)", 0.0, 10.0),
        "horizon": Option(4, int, "cop turns a playout runs before the value scores it (0: to the end)",
                          0, 400),
        "value": Option("learnt", str, "how a cut playout is scored: learnt (the fitted value) or even "
                        "(1/2, a draw)", choices=("learnt", "even")),
        "accuse_floor": Option(0.5, float, "a good cop's search also tries accusing his likeliest suspect "
                               "from this posterior chance", 0.0, 1.0),
        "suspicion": Option(0.2, float, "a hidden dirty cop's cost per unit of the table's P(he is dirty) "
                            "at the end of a cut playout (0: he ignores how he looks)", 0.0, 1.0),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        check_precinct("ismcts", game)
        super().__init__(game, seat, rng, **options)
        self._base = PrecinctHeuristic(game, seat, self.rng)
        #: the table's P(this seat is dirty) at the root of the search under way (a hidden dirty cop)
        self._table: float | None = None
        self._evaluate = None
        if self.settings["value"] == "learnt":
            from solver.search.precinct_value import load_value

            self._evaluate = load_value().value

    def world(self, state: State) -> PrecinctSim:
        """A drawn world's sim: heuristic playouts cut at the horizon, scored by the value (and, for a
        hidden dirty cop, by how he looks to the table)."""
        st = cast("PrecinctState", state)
        watch = None
        if self._table is not None and st.loyalty[self.seat] and not st.revealed[self.seat]:
            watch = Watch.at_root(st, self.seat, self._table)
        return PrecinctSim(state, horizon=self.settings["horizon"], evaluate=self._evaluate, watch=watch,
                           suspicion=self.settings["suspicion"])

    def determinizer(self, view: View) -> PoolDeterminizer[Any]:
        """The pool of worlds; a hidden dirty cop first reads how the table sees him now."""
        self._table = None
        data = view.to_json()
        if self.settings["suspicion"] > 0.0 and data.get("my_loyalty") == "dirty" \
                and not (data.get("loyalty") or [None] * (self.seat + 1))[self.seat]:
            self._table = table_suspicion(data)
        return super().determinizer(view)

    def posterior(self, view: View) -> Any:
        """With the Dirty Cop, the resampler's extra weight per seat: the likelihood ratio dirty : good
        of its learnt public signals (:mod:`solver.belief.precinct_behaviour`). The resampler weighs
        the investigation records itself, so they are left out here; the worlds' loyalty deals then
        follow the learnt posterior of :mod:`solver.belief.dirty_cop`."""
        data = view.to_json()
        if not data["config"].get("dirty_cop"):
            return None
        from solver.belief.dirty_cop import seat_factors
        from solver.belief.precinct_behaviour import Reading, load_behaviour, read_history

        reading = read_history(data)
        signals_only = Reading(reading.signals, [], reading.shown, reading.public)
        _, like = seat_factors(data, model=load_behaviour(), reading=signals_only)
        return {"dirty": {p: dirty / good for p, (good, dirty) in like.items() if good > 0}}

    def always_searched(self, view: View) -> set[Action]:
        """A good cop's accusation of his likeliest suspect, once the learnt posterior gives him at
        least ``accuse_floor``: whether it pays is for the search to say."""
        data = view.to_json()
        accusations = [a for a in view.legal_actions if codec.block_of(a)[0] == codec.ACCUSE]
        if not accusations or data.get("my_loyalty") != "good":
            return set()
        from solver.belief.dirty_cop import dirty_marginals

        odds = dirty_marginals(data)
        best = max(accusations, key=lambda a: (odds[a - codec.ACCUSE], -a))
        return {best} if odds[best - codec.ACCUSE] >= self.settings["accuse_floor"] else set()

    def in_window(self, view: View) -> bool:
        """Every decision but the car's move and the turn's action is minor."""
        return not is_major(view.legal_actions)

    def unsearched_decision(self, legal: tuple[Action, ...]) -> bool:
        """A minor decision when minor decisions get no share of the budget."""
        return self.settings["window_share"] == 0.0 and not is_major(legal)

    def unsearched_note(self, view: View) -> str:
        """A minor decision, left to the heuristic because ``window_share`` is 0 (module docstring)."""
        return ("a minor decision (anything but the car's move and the turn's action: help windows, card "
                "plays, the turn's start, discards and the like): ismcts leaves these to the heuristic "
                "unsearched (window_share 0: a search needs its worlds first, and there are three minor "
                "decisions to a major one)")

    def _heuristic(self) -> Bot:
        return self._base


register("precinct", PrecinctISMCTSBot)
