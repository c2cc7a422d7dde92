"""Police Precinct: the public signals a seat reads from a view's history, and their learnt factors.

Beyond the investigation records (:mod:`solver.belief.dirty_cop`), the table sees how each player
behaves. One pass over the history (:func:`read_history`) turns the public entries into *signals*,
each about one seat and each a choice whose chance may differ for a good and a dirty cop:

* ``help``: a help window [Police Cards: helping] was open for another player's roll (opened by the
  ``action`` note of an investigation, an arrest or an emergency, closed by the next chance step);
  a player asked in it ``gave`` (``help <card>`` or ``play <card>``) or ``passed`` (``proceed``).
  Context: the roll's kind and how many police cards he held then (1, 2, 3, 4+; the table counts
  them exactly from the ``CardDrawn`` and ``Discarded`` events every seat sees).
* ``donuts``: on his own roll a player holding donuts ``spent`` some or ``kept`` them; context: the
  roll's kind. ``donate``: asked to fund an accusation, he ``gave`` or ``kept``.
* ``play``: a police card he played for its text outside another's help window; the outcome is the
  card's name.
* ``action``: the kind of each main action he took (``investigate``, ``arrest``, ``murderer``,
  ``handle``, ``draw``, ``none``): the cheap, exact proxy for emergencies left alone.
* ``move``: whether a move spent donuts.

A seat's signals after its loyalty card was shown to everyone (a reveal, an accusation) are left
out: the card is then known, and a revealed dirty cop plays by other rules.

**The model** (:class:`PrecinctBehaviour`) gives, per ``kind|context`` table and outcome, the chance
``P(outcome | good)`` and ``P(outcome | dirty)``, by counting on self-play with add-``alpha``
smoothing over the outcomes any class showed there: ``(n + alpha) / (N + alpha K)`` (a class the
table never saw takes the other's chances: ratio 1). A signal's
factor is that pair raised to ``temper`` (the signals of one player are not independent; the
exponent, chosen on held-out games, is the stated correction). An outcome or table the training
games never showed scores 1 for both. It also learns the dirty cop's hiding rule: the chance he
hides a mixed draw, by tenths of the chance ``p0`` that an honest draw of that size holds no
evidence (:data:`HIDE_BINS`), in place of the fixed ``hide`` of the hypergeometric-only model.
:mod:`bots.precinct.calibrate` fits it; the shipped file names the command.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, NamedTuple

from solver.core import BadStateError
from solver.core.files import read_json, read_shipped
from solver.games.precinct.common import draw_chance

FORMAT: Final = "copsolver-precinct-behaviour/1"
KINDS: Final = ("help", "donuts", "donate", "play", "action", "move")
SHIPPED: Final = "shipped"
#: The dirty cop's hiding chance is learnt per tenth of ``p0`` (an honest draw's chance of no evidence).
HIDE_BINS: Final = 10
#: Hand sizes above this share one help context.
HAND_CAP: Final = 4
#: Which main action an ``action`` note's text names (first match), and whether a roll follows.
_ACTIONS: Final = (("investigates", "investigate"), ("arrest the murderer", "murderer"),
                   ("tries to arrest", "arrest"), ("handles", "handle"), ("draws a police card", "draw"),
                   ("takes no action", "none"))
_ROLLS: Final = frozenset({"investigate", "murderer", "arrest", "handle"})


class Signal(NamedTuple):
    """One public choice of ``seat``: its table ``kind|context`` and the ``outcome`` seen (a named
    tuple: a late-game history holds hundreds, read on every posterior from scratch)."""

    seat: int
    kind: str
    context: str
    outcome: str

    @property
    def key(self) -> str:
        """The model table it is scored by."""
        return f"{self.kind}|{self.context}"


@dataclass
class Reading:
    """What one pass over a view's history found: signals, investigation records (seat, event),
    loyalty cards shown (seat -> dirty) and the seats shown to everyone."""

    signals: list[Signal] = field(default_factory=list)
    records: list[tuple[int, Mapping[str, Any]]] = field(default_factory=list)
    shown: dict[int, bool] = field(default_factory=dict)
    public: set[int] = field(default_factory=set)


def p0_bin(ev: Mapping[str, Any]) -> int:
    """The :data:`HIDE_BINS` bin of an ``Investigated`` record's chance that an honest draw holds none."""
    p0 = draw_chance(int(ev["evidence"]), int(ev["size"]), int(ev["drawn"]), 0)
    return min(int(p0 * HIDE_BINS + 1e-9), HIDE_BINS - 1)  # 0.3 is bin 3 despite rounding


def _action_of(text: str) -> str:
    for needle, name in _ACTIONS:
        if needle in text:
            return name
    return "other"


def read_history(view: Mapping[str, Any]) -> Reading:
    """Every signal, investigation record and shown loyalty card in ``view``'s history, in one pass.

    Only public entries are read (and the seat's own loyalty card), so every seat of a game reads
    the same signals."""
    reader = HistoryReader(view["cops"])
    reader.feed(view["history"])
    return reader.reading()


class HistoryReader:
    """:func:`read_history` one entry at a time, so a seat that follows a game reads each entry once.

    :meth:`feed` takes the entries after those already read; :meth:`reading` is what they say so
    far (a help window still open counts as closed now: who was asked has answered)."""

    def __init__(self, cops: Sequence[Mapping[str, Any]]) -> None:
        self.cop_seat = [int(c["seat"]) for c in cops]
        self.hand: defaultdict[int, int] = defaultdict(int)  # police cards per seat, as the table counts
        self.out = Reading()
        self.roller, self.roll = -1, ""  # the open help window: whose roll, of which kind
        self.asked: dict[int, tuple[str, bool]] = {}  # helper -> (context, gave) in the open window
        self.read = 0  # entries fed so far

    def _close(self) -> None:
        self.out.signals.extend(self.pending())
        self.asked.clear()
        self.roller = -1

    def pending(self) -> list[Signal]:
        """The help signals of the window still open (final when it closes)."""
        return [Signal(p, "help", ctx, "gave" if gave else "passed") for p, (ctx, gave) in self.asked.items()]

    def copy(self) -> HistoryReader:
        """An independent reader at the same point (a search feeds each line of play its own copy)."""
        other = HistoryReader(())
        other.cop_seat = list(self.cop_seat)
        other.hand = self.hand.copy()
        other.out = Reading(list(self.out.signals), list(self.out.records), dict(self.out.shown),
                            set(self.out.public))
        other.roller, other.roll = self.roller, self.roll
        other.asked, other.read = dict(self.asked), self.read
        return other

    def reading(self) -> Reading:
        """The signals, records and shown cards read so far (a copy: feeding on does not change it)."""
        out = self.out
        return Reading(out.signals + self.pending(), list(out.records), dict(out.shown), set(out.public))

    def feed(self, entries: Iterable[Sequence[Any]], cops: Sequence[Mapping[str, Any]] = ()) -> None:
        """Read history entries ``[actor, action, events]`` that follow those already fed; ``cops``:
        the view's cops, when more have been picked since the reader was made."""
        if len(cops) > len(self.cop_seat):  # cops are added in pick order: known indices keep their seat
            self.cop_seat = [int(c["seat"]) for c in cops]
        cop_seat, hand, out, asked = self.cop_seat, self.hand, self.out, self.asked
        signals, public = out.signals, out.public
        for actor, action, events in entries:
            self.read += 1
            if actor < 0:
                if self.roller >= 0:
                    self._close()
            elif actor not in public and action:
                word, _, rest = action.partition(" ")
                if self.roller >= 0 and actor != self.roller:
                    # the context is his hand when first asked; one signal per window, gave if any card
                    ctx = asked[actor][0] if actor in asked else f"{self.roll}|{min(hand[actor], HAND_CAP)}"
                    if word in ("help", "play"):
                        asked[actor] = (ctx, True)
                    elif word == "proceed" and actor not in asked:
                        asked[actor] = (ctx, False)
                elif word == "play":
                    signals.append(Signal(actor, "play", "", rest))
                if word == "donuts":
                    signals.append(Signal(actor, "donuts", self.roll if self.roller == actor else "",
                                          "spent" if rest != "0" else "kept"))
                elif word == "donate":
                    signals.append(Signal(actor, "donate", "", "gave" if rest != "0" else "kept"))
            reveal = False
            for ev in events:
                kind = ev["kind"]
                if kind == "CardDrawn":
                    hand[cop_seat[ev["cop"]]] += 1
                elif kind == "Discarded":
                    hand[cop_seat[ev["cop"]]] -= 1
                elif kind == "Investigated":
                    out.records.append((cop_seat[ev["cop"]], ev))
                elif kind == "LoyaltyShown":
                    out.shown[int(ev["seat"])] = bool(ev["dirty"])
                elif kind == "Note":
                    what = ev["what"]
                    if what in ("reveal", "accuse"):
                        reveal = True
                    elif actor >= 0 and actor not in public:
                        if what == "action":
                            if self.roller >= 0:
                                self._close()
                            name = _action_of(ev["text"])
                            signals.append(Signal(actor, "action", "", name))
                            if name in _ROLLS:
                                self.roller, self.roll = actor, name
                        elif what == "move":
                            signals.append(Signal(actor, "move", "",
                                                  "donuts" if "spending" in ev["text"] else "free"))
            if reveal:
                public.update(int(ev["seat"]) for ev in events if ev["kind"] == "LoyaltyShown")


@dataclass
class PrecinctBehaviour:
    """Per table and outcome ``(P(good), P(dirty))``, the dirty cop's hiding chance per ``p0`` bin,
    and the tempering exponent (see the module docstring)."""

    tables: dict[str, dict[str, tuple[float, float]]]
    hide: tuple[float, ...]
    temper: float = 1.0
    meta: dict[str, Any] = field(default_factory=dict)
    #: per table, how many signals of good and of dirty seats training saw (for the record)
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # the tempered factors, by (kind, context, outcome): one lookup per signal
        self._factors = {(*k.split("|", 1), o): (p[0] ** self.temper, p[1] ** self.temper)
                         for k, t in self.tables.items() for o, p in t.items()}

    def factor(self, signal: Signal) -> tuple[float, float]:
        """``(P(good), P(dirty)) ** temper`` of one signal; ``(1, 1)`` where training saw nothing
        (the tables are read when the model is made: change them by making another)."""
        return self._factors.get(signal[1:], (1.0, 1.0))

    def hide_chance(self, ev: Mapping[str, Any]) -> float:
        """The chance the dirty cop hides the mixed draw of an ``Investigated`` record."""
        return self.hide[p0_bin(ev)]

    def to_json(self) -> dict[str, Any]:
        """The file format (see :func:`load_behaviour`)."""
        return {"format": FORMAT, **self.meta, "temper": self.temper,
                "hide": [round(h, 6) for h in self.hide],
                "tables": {k: {o: [round(p[0], 6), round(p[1], 6)] for o, p in sorted(t.items())}
                           for k, t in sorted(self.tables.items())},
                "counts": {k: list(v) for k, v in sorted(self.counts.items())}}


def fit(signals: Iterable[tuple[Signal, bool]], hides: Iterable[tuple[int, bool]], alpha: float = 1.0,
        temper: float = 1.0, meta: Mapping[str, Any] | None = None) -> PrecinctBehaviour:
    """The model from signals with their seat's truth (dirty or not) and the dirty cop's mixed draws
    (``p0`` bin, hidden or not), by add-``alpha`` counting (see the module docstring)."""
    counts: dict[str, list[Counter[str]]] = {}
    for s, dirty in signals:
        counts.setdefault(s.key, [Counter(), Counter()])[int(dirty)][s.outcome] += 1
    tables: dict[str, dict[str, tuple[float, float]]] = {}
    seen: dict[str, tuple[int, int]] = {}
    for key, (good, bad) in counts.items():
        outcomes = sorted(set(good) | set(bad))
        ng, nd, k = sum(good.values()), sum(bad.values()), len(outcomes)
        pg = [(good[o] + alpha) / (ng + alpha * k) for o in outcomes]
        pd = [(bad[o] + alpha) / (nd + alpha * k) for o in outcomes]
        # a class never seen in this table: the table cannot tell the classes apart (ratio 1), where
        # smoothing alone would give that class a uniform guess and a spurious ratio
        pg, pd = (pd if not ng else pg), (pg if not nd else pd)
        tables[key] = {o: (g, d) for o, g, d in zip(outcomes, pg, pd, strict=True)}
        seen[key] = (ng, nd)
    hid, mixed = [0] * HIDE_BINS, [0] * HIDE_BINS
    for b, hidden in hides:
        mixed[b] += 1
        hid[b] += int(hidden)
    hide = tuple((h + alpha) / (m + 2 * alpha) for h, m in zip(hid, mixed, strict=True))
    return PrecinctBehaviour(tables, hide, temper, dict(meta or {}), seen)


def load_behaviour(path: str | Path | None = None) -> PrecinctBehaviour:
    """The shipped model (``solver/belief/data/precinct_behaviour.json``) or a file of its format."""
    if path is None or path == SHIPPED:
        return _shipped()
    return _parse(read_json(path, "precinct behaviour model"), str(path))


@lru_cache(maxsize=1)
def _shipped() -> PrecinctBehaviour:
    return _parse(read_shipped("solver.belief", "data/precinct_behaviour.json"), SHIPPED)


def _parse(data: Any, where: str) -> PrecinctBehaviour:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadStateError(f"precinct behaviour model {where!r}: format is not {FORMAT!r}")
    try:
        tables = {str(k): {str(o): (float(p[0]), float(p[1])) for o, p in t.items()}
                  for k, t in data["tables"].items()}
        hide = tuple(float(h) for h in data["hide"])
        temper = float(data["temper"])
        counts = {str(k): (int(v[0]), int(v[1])) for k, v in data.get("counts", {}).items()}
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise BadStateError(f"precinct behaviour model {where!r}: bad tables ({err!r})") from err
    probs = [x for t in tables.values() for p in t.values() for x in p]
    if len(hide) != HIDE_BINS or not all(0.0 <= h <= 1.0 for h in hide) or temper <= 0 \
            or not all(0.0 < x <= 1.0 for x in probs):
        raise BadStateError(f"precinct behaviour model {where!r}: {HIDE_BINS} hiding chances in [0, 1], "
                            "chances in (0, 1] and temper > 0 expected")
    meta = {k: v for k, v in data.items() if k not in ("format", "tables", "hide", "temper", "counts")}
    return PrecinctBehaviour(tables, hide, temper, meta, counts)


def hidden_draws(view: Mapping[str, Any]) -> list[tuple[int, bool]]:
    """Training: the mixed draws of ``view``'s own seat (``p0`` bin, hidden or not), read from its
    private ``InvestigationSeen`` events before each of its ``Investigated`` records."""
    seat = int(view["seat"])
    cop_seat = [int(c["seat"]) for c in view["cops"]]
    seen: dict[int, Sequence[bool]] = {}
    out = []
    for _, _, events in view["history"]:
        for ev in events:
            if ev["kind"] == "InvestigationSeen" and cop_seat[ev["cop"]] == seat:
                seen[int(ev["cop"])] = ev["cards"]
            elif ev["kind"] == "Investigated" and cop_seat[ev["cop"]] == seat:
                cards = seen.pop(int(ev["cop"]), ())
                if 0 < sum(bool(c) for c in cards) < len(cards):
                    out.append((p0_bin(ev), int(ev["placed"]) == 0))
    return out
