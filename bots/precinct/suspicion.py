"""How suspicious a Police Precinct seat looks to the table, now and at the end of a line of play.

:func:`table_suspicion` is the dirty cop's P(dirty) as the other seats would compute it: each other
seat's exact posterior (:mod:`solver.belief.dirty_cop`, the learnt behaviour model) from the public
record with its own card good, averaged. The hint shows it per option; the search's dirty cop starts
from it.

:class:`Watch` follows it down a search's line of play cheaply: the public record of one good seat
of the world is read once at the root (:class:`~solver.belief.precinct_behaviour.HistoryReader`),
and a leaf feeds a copy of that reader only the entries since. The dirty seat's log-odds move by its
new signals' and investigation records' log likelihood ratios (the other seats' choices in the line
are not his doing, and their factors move every seat's odds alike), so the table's P(dirty) at the
leaf is the root's with those log-odds added.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from solver.belief.dirty_cop import record_likelihood
from solver.belief.precinct_behaviour import HistoryReader, PrecinctBehaviour, load_behaviour
from solver.core import BadStateError

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState

#: events only their viewer sees: left out of the record the table reads
_PRIVATE: Final = frozenset({"InvestigationSeen", "Looked", "EventSeen"})
#: odds are kept inside (EPS, 1 - EPS): a root of exactly 0 or 1 still moves
EPS: Final = 1e-6


def _public_record(data: Mapping[str, Any]) -> list[list[Any]]:
    """The view's history with what only its seat saw left out (private events, cards not shown to all)."""
    public = data.get("loyalty") or []

    def shown(ev: Mapping[str, Any]) -> bool:
        if ev["kind"] in _PRIVATE:
            return False
        if ev["kind"] == "LoyaltyShown":
            p = int(ev["seat"])
            return p < len(public) and public[p] is not None
        return True

    return [[entry[0], entry[1], [ev for ev in entry[2] if shown(ev)]] for entry in data["history"]]


def table_suspicion(data: Mapping[str, Any], extra: Mapping[str, Any] | None = None) -> float | None:
    """The mean P(``data``'s seat is dirty) over the other seats' posteriors, each from the public record.

    Each other seat ``k`` not shown to be dirty computes it with its own card good and the record
    that the whole table saw, plus ``extra`` (a hypothetical ``Investigated`` event) when given.
    None when no other seat can judge, or when no deal explains the record.
    """
    from solver.belief.dirty_cop import dirty_marginals

    me = int(data["seat"])
    history = _public_record(data)
    if extra is not None:
        history.append([me, "claim ?", [dict(extra)]])
    public = data.get("loyalty") or []
    roll = data.get("roll")
    if roll is not None:  # his own draw is his alone
        roll = {key: value for key, value in roll.items() if key != "cards"}
    chances = []
    for k in range(int(data["config"]["players"])):
        if k == me or (k < len(public) and public[k] == "dirty"):
            continue
        seen = {**data, "seat": k, "my_loyalty": "good", "history": history, "hand": [], "roll": roll,
                "known": {"stacks": {}, "events": {"top": [], "bottom": []}, "loyalty": {}}}
        try:
            chances.append(dirty_marginals(seen)[me])
        except BadStateError:  # the record with this option contradicts every deal: no number
            return None
    return sum(chances) / len(chances) if chances else None


@dataclass
class Watch:
    """The table's view of one dirty ``seat`` along a line of play from the root (module docstring).

    ``reader`` has read the root's public record (as good seat ``watcher`` saw it); ``signals`` and
    ``records`` are how many it held then; ``odds`` is the root's log-odds of ``seat`` being dirty.
    """

    seat: int
    watcher: int
    reader: HistoryReader
    signals: int
    records: int
    odds: float
    model: PrecinctBehaviour

    @classmethod
    def at_root(cls, st: PrecinctState, seat: int, root: float) -> Watch | None:
        """The watch of ``seat`` in world ``st`` from the table's P(dirty) ``root``; None when no other
        seat of the world is good."""
        good = [p for p in range(st.n) if p != seat and not st.loyalty[p]]
        if not good:
            return None
        reader = HistoryReader([{"seat": c.seat} for c in st.cops])
        reader.feed(st.seat_entries(good[0]))
        p = min(max(root, EPS), 1.0 - EPS)
        return cls(seat, good[0], reader, len(reader.out.signals), len(reader.out.records),
                   math.log(p / (1.0 - p)), load_behaviour())

    def chance(self, st: PrecinctState) -> float:
        """The table's P(``seat`` is dirty) at ``st``, a line of play from the root."""
        reader = self.reader.copy()
        reader.feed(st.seat_entries(self.watcher, reader.read), [{"seat": c.seat} for c in st.cops])
        reading = reader.reading()
        logit = self.odds
        for sig in reading.signals[self.signals:]:
            if sig.seat == self.seat:
                good, dirty = self.model.factor(sig)
                logit += math.log(dirty / good)
        for p, ev in reading.records[self.records:]:
            if p == self.seat:
                good, dirty = record_likelihood(ev, self.model.hide_chance(ev))
                if good <= 0.0:  # only a dirty cop explains the record
                    return 1.0
                logit += math.log(max(dirty, 1e-300) / good)
        return 1.0 / (1.0 + math.exp(-max(min(logit, 700.0), -700.0)))
