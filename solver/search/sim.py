"""The simulator contract search runs on, and its generic adapter over the Python rules.

Search (ISMCTS) does not walk :class:`~solver.core.State` objects directly: it walks a ``Sim``, a
game in flight that is cheap to copy, lists legal actions, applies them unchecked, says whose
information set the current decision belongs to (``key(seat)``), and proposes the default playout
move. Every game gets one for free, :class:`StateSim`, which wraps the Python rules (keys are view
keys). A game may add a compiled simulator (Police 07 must, DESIGN.md section 3) with the same
methods and the same results; a differential test proves it equal to the rules.

Determinization is separate: a :class:`Determinizer` is built once per search from the searching
seat's view (and belief), and ``sample(rng)`` returns a fresh ``Sim`` of one full state consistent
with that view for each iteration. All randomness comes from :class:`~solver.core.rng.SplitMix64`,
so the pure-Python and compiled searches draw the same numbers.
"""

from __future__ import annotations

from typing import Any, Protocol, Self

import numpy as np

from solver.core import CHANCE, Action, Game, Seat, State, View
from solver.core.rng import SplitMix64


class Sim(Protocol):
    """One game in flight for search (pure-Python or compiled; same methods, same results).

    Optional hook: a sim may define ``rollout(rng, max_steps) -> int``, the playout below the tree
    played in one call (say in compiled code). The pure-Python ISMCTS then calls it instead of
    ``while steps < max_steps and not is_terminal(): apply(default_action(rng))``, and it must do
    exactly what that loop does: the same draws from ``rng`` (the generator left in the same state)
    and the same :meth:`returns` afterwards; it returns the steps played. It may leave the sim's
    other methods stale: after it, search reads only :meth:`returns`.
    """

    num_players: int

    def current_player(self) -> Seat:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""
        ...

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions (at chance: the outcomes)."""
        ...

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Outcomes and probabilities at a chance node."""
        ...

    def apply(self, action: Action) -> None:
        """Apply a legal action (unchecked)."""
        ...

    def is_terminal(self) -> bool:
        """True once the game is over."""
        ...

    def returns(self) -> list[float]:
        """One payoff per seat at the end."""
        ...

    def key(self, seat: Seat) -> int:
        """The information-set key of ``seat`` now (equal keys: ``seat`` cannot tell them apart)."""
        ...

    def default_action(self, rng: SplitMix64) -> Action:
        """The playout policy's move now (uniform random unless the game says otherwise)."""
        ...

    def copy(self) -> Self:
        """An independent copy."""
        ...


class Determinizer(Protocol):
    """Draws full states consistent with one seat's view, for one search."""

    def sample(self, rng: SplitMix64) -> Sim:
        """A fresh simulator of one state consistent with the view."""
        ...


class StateSim:
    """The generic :class:`Sim` over a game's Python rules: keys are ``view(seat).key()``."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.num_players = state.game.num_players

    def current_player(self) -> Seat:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""
        return self.state.current_player()

    def legal_actions(self) -> list[Action]:
        """The rules' legal actions."""
        return self.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The rules' chance outcomes."""
        return self.state.chance_outcomes()

    def apply(self, action: Action) -> None:
        """Apply without the legality check."""
        self.state.apply_unchecked(action)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.state.is_terminal()

    def returns(self) -> list[float]:
        """The rules' returns."""
        return self.state.returns()

    def key(self, seat: Seat) -> int:
        """The seat's view key."""
        return self.state.view(seat).key()

    def default_action(self, rng: SplitMix64) -> Action:
        """Uniform among legal actions; chance by its probabilities."""
        if self.state.current_player() == CHANCE:
            outcomes = self.state.chance_outcomes()
            u = rng.uniform()
            for action, p in outcomes:
                u -= p
                if u < 0:
                    return action
            return outcomes[-1][0]
        legal = self.state.legal_actions()
        return legal[rng.below(len(legal))]

    def copy(self) -> StateSim:
        """An independent copy."""
        return StateSim(self.state.clone())


class ResampleDeterminizer:
    """The generic :class:`Determinizer`: ``game.resample(view, ...)`` seeded from the SplitMix."""

    def __init__(self, game: Game, view: View, belief: Any | None = None) -> None:
        self.game = game
        self.view = view
        self.belief = belief

    def sample(self, rng: SplitMix64) -> StateSim:
        """One consistent state, drawn by the game's own resampler."""
        np_rng = np.random.default_rng(rng.next())
        return StateSim(self.game.resample(self.view, np_rng, self.belief))
