"""Police Precinct: the exact posterior over who holds the dirty loyalty card(s), from one seat's view.

The deal is the prior: one loyalty card per seat from ``players - d`` good and ``d`` dirty cards,
every deal equally likely [Dirty Cop]. Deduction fixes the cards a seat knows: its own, every card
shown to the table (a reveal, an accusation), and those Internal Affairs showed it. The evidence is
public and exactly computable: each investigation's ``Investigated`` event says how many cards were
drawn from a stack that held ``evidence`` evidence among ``size`` cards, and how many were placed.

* An honest investigator places every evidence card he draws, so the chance of his record is
  hypergeometric: ``C(e, placed) C(size - e, drawn - placed) / C(size, drawn)``.
* A dirty one, under the stated behaviour model, hides his evidence with probability ``hide``
  whenever the rules let him (at least one evidence card and one useless card drawn), and places it
  otherwise. His record's chance: ``placed > 0`` needs exactly that many drawn and, when the draw
  was mixed, no hiding; ``placed == 0`` is an honest empty draw, or a hidden mixed one.

These are the per-seat factors of :func:`solver.belief.roles.posterior`, the generic exact
hidden-role posterior (variable elimination over the deal), so the marginals are sums over every
consistent deal. ``tests/test_dirty_cop.py`` checks them against an enumeration of every deal with
an independent likelihood. Other public signals (help withheld, emergencies ignored) are issue 22's
learnt factors, not modelled here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from solver.belief.roles import Deck, RolePosterior, SeatEvidence, posterior
from solver.core import BadStateError
from solver.games.precinct.common import draw_chance

GOOD, DIRTY = 0, 1
DECK_NAMES = ("good", "dirty")


def record_likelihood(ev: Mapping[str, Any], hide: float) -> tuple[float, float]:
    """(honest, dirty) likelihood of one public investigation record (an ``Investigated`` event)."""
    e, size, drawn, placed = int(ev["evidence"]), int(ev["size"]), int(ev["drawn"]), int(ev["placed"])
    honest = draw_chance(e, size, drawn, placed)
    if placed > 0:
        mixed = placed < drawn  # he could have hidden it, and did not
        return honest, honest * ((1.0 - hide) if mixed else 1.0)
    hidden = sum(draw_chance(e, size, drawn, k) for k in range(1, drawn))  # mixed draws: hideable
    return honest, honest + hide * hidden


def dirty_posterior(view: Mapping[str, Any], hide: float = 0.5) -> RolePosterior:
    """The posterior over the loyalty deal seen from ``view`` (a Police Precinct view's JSON).

    ``hide``: the behaviour model's chance that a dirty cop hides evidence when he may. Raises
    BadStateError for a view of a game without the Dirty Cop, or one no deal explains.
    """
    config = view["config"]
    if not config.get("dirty_cop"):
        raise BadStateError("dirty cop posterior: the game has no Dirty Cop")
    if not 0.0 <= hide <= 1.0:
        raise BadStateError(f"dirty cop posterior: hide={hide!r} is not a probability")
    n = int(config["players"])
    d = int(config.get("dirty_cops") or 1)
    seat = int(view["seat"])
    known: dict[int, int] = {}
    if view.get("my_loyalty") in DECK_NAMES:
        known[seat] = DECK_NAMES.index(view["my_loyalty"])
    for entry in view["history"]:
        for ev in entry[2]:
            if ev["kind"] == "LoyaltyShown":
                known[int(ev["seat"])] = DIRTY if ev["dirty"] else GOOD
    cop_seat = [int(c["seat"]) for c in view["cops"]]
    factors: dict[int, list[np.ndarray]] = {}
    for entry in view["history"]:
        for ev in entry[2]:
            if ev["kind"] == "Investigated":
                p = cop_seat[int(ev["cop"])]
                factors.setdefault(p, []).append(np.array(record_likelihood(ev, hide)))
    evidence = {p: SeatEvidence(known={0: kind}) for p, kind in known.items()}
    return posterior(Deck(DECK_NAMES, (n - d, d)), n, 1, evidence=evidence,
                     seat_factors={p: list(fs) for p, fs in factors.items()})


def dirty_marginals(view: Mapping[str, Any], hide: float = 0.5) -> list[float]:
    """P(seat p holds a dirty card), for each seat, from ``view``."""
    return [float(m.holds[DIRTY]) for m in dirty_posterior(view, hide).marginals()]

