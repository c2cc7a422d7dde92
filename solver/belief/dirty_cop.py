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

The other public signals (help given or withheld, donuts kept, cards played, actions taken) are
learnt factors, ``P(signal | good)`` against ``P(signal | dirty)`` counted on self-play
(:mod:`solver.belief.precinct_behaviour`, fitted and calibrated by :mod:`bots.precinct.calibrate`);
the learnt model also replaces the fixed ``hide`` by the dirty cop's hiding chance per record.
``model=None`` keeps the hypergeometric-only posterior for comparison. A seat that follows a game
keeps a :class:`DirtyCopTracker`, which reads each history entry once.

All of these are per-seat factors of :func:`solver.belief.roles.posterior`, the generic exact
hidden-role posterior (variable elimination over the deal), so the marginals are sums over every
consistent deal. ``tests/test_dirty_cop.py`` checks them against an enumeration of every deal with
an independent likelihood.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from solver.belief.precinct_behaviour import (
    SHIPPED,
    HistoryReader,
    PrecinctBehaviour,
    Reading,
    Signal,
    load_behaviour,
    read_history,
)
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


Model = PrecinctBehaviour | str | Path | None


def _behaviour(model: Model) -> PrecinctBehaviour | None:
    return load_behaviour(model) if isinstance(model, (str, Path)) else model


def _accumulate(like: dict[int, list[float]], records: Iterable[tuple[int, Mapping[str, Any]]],
                signals: Iterable[Signal], hide: float | None, model: PrecinctBehaviour | None) -> None:
    """Multiply each seat's ``[good, dirty]`` likelihood in ``like`` by its records' and signals' factors."""
    for p, ev in records:
        h = hide if hide is not None else model.hide_chance(ev) if model is not None else 0.5
        good, dirty = record_likelihood(ev, h)
        acc = like.setdefault(p, [1.0, 1.0])
        acc[0] *= good
        acc[1] *= dirty
    if model is not None:
        factor = model.factor
        for s in signals:
            good, dirty = factor(s)
            if good != dirty:  # a factor equal for both kinds changes nothing
                acc = like.setdefault(s.seat, [1.0, 1.0])
                acc[0] *= good
                acc[1] *= dirty


def _known(view: Mapping[str, Any], shown: Mapping[int, bool]) -> dict[int, int]:
    known = {p: DIRTY if dirty else GOOD for p, dirty in shown.items()}
    if view.get("my_loyalty") in DECK_NAMES:
        known[int(view["seat"])] = DECK_NAMES.index(view["my_loyalty"])
    return known


def _check(view: Mapping[str, Any], hide: float | None) -> tuple[int, int]:
    """(players, dirty cards) of ``view``'s game; BadStateError without the Dirty Cop or a bad ``hide``."""
    config = view["config"]
    if not config.get("dirty_cop"):
        raise BadStateError("dirty cop posterior: the game has no Dirty Cop")
    if hide is not None and not 0.0 <= hide <= 1.0:
        raise BadStateError(f"dirty cop posterior: hide={hide!r} is not a probability")
    return int(config["players"]), int(config.get("dirty_cops") or 1)


def _posterior(n: int, d: int, known: Mapping[int, int],
               like: Mapping[int, Sequence[float]]) -> RolePosterior:
    evidence = {p: SeatEvidence(known={0: kind}) for p, kind in known.items()}
    return posterior(Deck(DECK_NAMES, (n - d, d)), n, 1, evidence=evidence,
                     seat_factors={p: [np.array(f, dtype=np.float64)] for p, f in like.items()})


def seat_factors(view: Mapping[str, Any], hide: float | None = None, model: PrecinctBehaviour | None = None,
                 reading: Reading | None = None) -> tuple[dict[int, int], dict[int, list[float]]]:
    """Deduction (seat -> known card) and each seat's likelihood ``[good, dirty]`` from ``view``:
    the product of its investigation records' chances and, with ``model``, its signals' factors.

    ``hide``: the dirty cop's hiding chance for every record; None takes the model's per-record
    chance (:meth:`PrecinctBehaviour.hide_chance`), or 0.5 without a model. ``reading``: the
    history already read (:func:`read_history` of ``view``), to score several models on one view."""
    if reading is None:
        reading = read_history(view)
    like: dict[int, list[float]] = {}
    _accumulate(like, reading.records, reading.signals, hide, model)
    return _known(view, reading.shown), like


def dirty_posterior(view: Mapping[str, Any], hide: float | None = None, *, model: Model = SHIPPED,
                    reading: Reading | None = None) -> RolePosterior:
    """The posterior over the loyalty deal seen from ``view`` (a Police Precinct view's JSON).

    ``model``: the behaviour model of the other public signals (the shipped learnt one by default,
    a model or a file of one); None gives the hypergeometric-only posterior (the investigation
    records alone). ``hide``: the dirty cop's chance to hide evidence when he may; None takes the
    model's learnt chance (0.5 without a model). ``reading``: as :func:`seat_factors`. Raises
    BadStateError for a view of a game without the Dirty Cop, or one no deal explains.
    """
    n, d = _check(view, hide)
    known, like = seat_factors(view, hide, _behaviour(model), reading)
    return _posterior(n, d, known, like)


def dirty_marginals(view: Mapping[str, Any], hide: float | None = None, *,
                    model: Model = SHIPPED) -> list[float]:
    """P(seat p holds a dirty card), for each seat, from ``view`` (arguments as :func:`dirty_posterior`)."""
    return [float(m.holds[DIRTY]) for m in dirty_posterior(view, hide, model=model).marginals()]


class DirtyCopTracker:
    """One seat's posterior as its game goes on: each :meth:`update` reads only the history entries
    added since the last one, and multiplies only their factors in (the same posterior as
    :func:`dirty_posterior` of that view: ``tests/test_dirty_cop.py`` checks it).

    An entry already read is final once the game waits for a decision or a chance step, which is
    when views are taken; should its events have grown since (a view taken mid-step), the tracker
    reads the whole history again."""

    def __init__(self, view: Mapping[str, Any], hide: float | None = None, *, model: Model = SHIPPED) -> None:
        self.n, self.d = _check(view, hide)
        self.hide, self.model = hide, _behaviour(model)
        self._reset(view)

    def _reset(self, view: Mapping[str, Any]) -> None:
        self.reader = HistoryReader(view["cops"])
        self.like: dict[int, list[float]] = {}
        self.records = self.signals = 0  # how many of the reader's records and signals ``like`` holds
        self.tail = 0  # the events of the last entry read

    def update(self, view: Mapping[str, Any]) -> RolePosterior:
        """The posterior from ``view``, a later view of the same seat in the same game."""
        history = view["history"]
        read = self.reader.read
        if read > len(history) or (read and len(history[read - 1][2]) != self.tail):
            self._reset(view)
            read = 0
        self.reader.feed(history[read:], view["cops"])
        if history:
            self.tail = len(history[-1][2])
        out = self.reader.out
        _accumulate(self.like, out.records[self.records:], out.signals[self.signals:], self.hide, self.model)
        self.records, self.signals = len(out.records), len(out.signals)
        like = self.like
        pending = self.reader.pending()
        if pending and self.model is not None:  # an open help window: its answers so far, not kept
            like = {p: list(v) for p, v in like.items()}
            _accumulate(like, (), pending, self.hide, self.model)
        return _posterior(self.n, self.d, _known(view, out.shown), like)
