"""Where the Good Cop Bad Cop search bots draw their deals from: the exact posterior, with or
without the behaviour model, or the resampler's uniform draw (option ``belief``)."""

from __future__ import annotations

from typing import Any

from bots.base import Option
from solver.core import ConfigError, Game, Seat, View

#: Where deals come from (option ``belief``).
BELIEFS = ("full", "deduction", "uniform")

#: The option the GCBC search bots share: where deals come from.
BELIEF_OPTION = Option("full", str, "deals drawn from: full (posterior with the behaviour model), "
                       "deduction (posterior without it) or uniform (the resampler alone)", choices=BELIEFS)


def check_gcbc(bot: str, game: Game) -> None:
    """ConfigError unless ``game`` is Good Cop Bad Cop."""
    if game.name != "gcbc":
        raise ConfigError(f"{bot} bot: the Good Cop Bad Cop bot plays gcbc only, not {game.name!r}")


def posterior_for(game: Game, view: View, kind: str) -> Any:
    """The exact posterior for ``view``: ``full`` (with the shipped behaviour model), ``deduction``
    (without it), or None for ``uniform`` (the resampler's own uniform draw)."""
    from solver.belief.gcbc_behaviour import load_behaviour
    from solver.belief.gcbc_posterior import posterior

    if kind == "uniform":
        return None
    return posterior(game, view.to_json(), load_behaviour() if kind == "full" else None)  # type: ignore[arg-type]


def warm_up(game: Game, seat: Seat, kind: str) -> None:
    """Build what a first posterior builds (the behaviour model, the game's tables; tens of ms, once
    a process) now, with the bot, rather than in its first decision, which would overrun a time
    budget by that much: the posterior of the seat's view before the deal."""
    if kind != "uniform":
        posterior_for(game, game.new_initial_state().view(seat), kind)
