"""The Dirty Cop posterior (solver/belief/dirty_cop.py) against an enumeration of every loyalty deal.

The reference shares no code with the module: it lists every set of dirty seats, keeps those that
agree with the loyalty cards the seat saw, and weighs each by its own product of the investigation
records' chances, written out here from the rulebook and the stated behaviour model, and (with a
learnt model) of the public signals' factors, found in the raw history by a second reading written
here (index by index, not the module's one pass) and looked up in the model's tables.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import Any

import numpy as np
import pytest

import bots
from solver.belief.dirty_cop import DirtyCopTracker, dirty_marginals
from solver.belief.precinct_behaviour import (
    HIDE_BINS,
    HistoryReader,
    PrecinctBehaviour,
    Signal,
    fit,
    load_behaviour,
)
from solver.core import BadStateError, make_rng, spawn
from solver.core.referee import play_out
from solver.games import load


def _chance(e: int, size: int, drawn: int, k: int) -> float:
    if k < 0 or k > e or drawn - k < 0 or drawn - k > size - e:
        return 0.0
    return comb(e, k) * comb(size - e, drawn - k) / comb(size, drawn)


def reference(view: dict[str, Any], hide: float, model: PrecinctBehaviour | None = None) -> list[float]:
    """P(dirty) per seat by enumerating every deal of the dirty cards; with ``model``, each record's
    hiding chance is the model's for its bin of an honest empty draw's chance (``hide`` unused),
    and each public signal's factor multiplies in."""
    n, d, me = view["config"]["players"], view["config"]["dirty_cops"], view["seat"]
    shown = {me: view["my_loyalty"] == "dirty"}
    records = []
    for _, _, events in view["history"]:
        for ev in events:
            if ev["kind"] == "LoyaltyShown":
                shown[ev["seat"]] = ev["dirty"]
            if ev["kind"] == "Investigated":
                records.append((view["cops"][ev["cop"]]["seat"], ev))
    signals = public_signals(view) if model is not None else []
    total = [0.0] * n
    z = 0.0
    for dirty in itertools.combinations(range(n), d):
        if any((p in dirty) != is_dirty for p, is_dirty in shown.items()):
            continue
        w = 1.0
        for p, kind, context, outcome in signals:
            assert model is not None
            pair = model.tables.get(f"{kind}|{context}", {}).get(outcome, (1.0, 1.0))
            w *= pair[p in dirty] ** model.temper
        for p, ev in records:
            e, size, drawn, placed = ev["evidence"], ev["size"], ev["drawn"], ev["placed"]
            if model is not None:
                p0 = _chance(e, size, drawn, 0)
                hide = model.hide[min(9, int(p0 * 10 + 1e-9))]
            if p not in dirty:
                w *= _chance(e, size, drawn, placed)
            elif placed:
                w *= _chance(e, size, drawn, placed) * (1 - hide if 0 < placed < drawn else 1)
            else:  # an empty draw, or a mixed one he chose to hide
                mixed = sum(_chance(e, size, drawn, k) for k in range(1, drawn))
                w *= _chance(e, size, drawn, 0) + hide * mixed
        z += w
        for p in dirty:
            total[p] += w
    return [t / z for t in total]


_ROLL_WORDS = {"investigates": "investigate", "arrest the murderer": "murderer", "tries to arrest": "arrest",
               "handles": "handle"}
_OTHER_WORDS = {"draws a police card": "draw", "takes no action": "none"}


def _action_name(text: str) -> str:
    for words in (_ROLL_WORDS, _OTHER_WORDS):
        for needle, name in words.items():
            if needle in text:
                return name
    return "other"


def public_signals(view: dict[str, Any]) -> list[tuple[int, str, str, str]]:
    """(seat, kind, context, outcome) of every public signal, read entry by entry from the raw history:
    the help windows first (from each roll's action note to the next chance step or action note),
    then the single-entry signals."""
    hist = view["history"]
    seat_of = [c["seat"] for c in view["cops"]]
    last: dict[int, int] = {}  # the entry where a seat's card was shown to all: later ones are not his
    for i, (_, _, evs) in enumerate(hist):
        if any(e["kind"] == "Note" and e["what"] in ("reveal", "accuse") for e in evs):
            for e in evs:
                if e["kind"] == "LoyaltyShown":
                    last.setdefault(e["seat"], i)

    def live(p: int, i: int) -> bool:
        return p >= 0 and i <= last.get(p, len(hist))

    def notes(i: int, what: str) -> list[str]:
        return [e["text"] for e in hist[i][2] if e["kind"] == "Note" and e["what"] == what]

    def cards(p: int, i: int) -> int:  # police cards seat p held before entry i
        return sum((e["kind"] == "CardDrawn") - (e["kind"] == "Discarded")
                   for _, _, evs in hist[:i] for e in evs
                   if e["kind"] in ("CardDrawn", "Discarded") and seat_of[e["cop"]] == p)

    starts = [i for i, (a, _, _) in enumerate(hist) if live(a, i) and notes(i, "action")]
    out: list[tuple[int, str, str, str]] = []
    window_of: dict[int, tuple[int, str]] = {}  # entry -> (roller, roll kind) of the window it is in
    helped: set[int] = set()  # entries that were help decisions
    for i in starts:
        kind = _action_name(notes(i, "action")[-1])
        if kind not in _ROLL_WORDS.values():
            continue
        roller = hist[i][0]
        j = i + 1
        while j < len(hist) and hist[j][0] >= 0 and not (live(hist[j][0], j) and notes(j, "action")):
            j += 1
        answers: dict[int, list[int]] = {}
        for k in range(i + 1, min(j + 1, len(hist))):
            a, text = hist[k][0], hist[k][1]
            window_of[k] = (roller, kind)
            if a >= 0 and a != roller and live(a, k) and text.split(" ")[0] in ("help", "play", "proceed"):
                answers.setdefault(a, []).append(k)
                helped.add(k)
        for a, ks in answers.items():
            gave = any(hist[k][1].split(" ")[0] in ("help", "play") for k in ks)
            out.append((a, "help", f"{kind}|{min(cards(a, ks[0]), 4)}", "gave" if gave else "passed"))
    for i, (a, text, _) in enumerate(hist):
        if not live(a, i):
            continue
        word, _, rest = text.partition(" ")
        if word == "play" and i not in helped:
            out.append((a, "play", "", rest))
        if word == "donuts":
            roller, kind = window_of.get(i, (-1, ""))
            out.append((a, "donuts", kind if roller == a else "", "kept" if rest == "0" else "spent"))
        if word == "donate":
            out.append((a, "donate", "", "kept" if rest == "0" else "gave"))
        out.extend((a, "action", "", _action_name(t)) for t in notes(i, "action"))
        out.extend((a, "move", "", "donuts" if "spending" in t else "free") for t in notes(i, "move"))
    return out


def _views(players: int, dirty: int, seed: int, every: int = 25) -> list[dict[str, Any]]:
    game = load("precinct", players=players, dirty_cop=True, dirty_cops=dirty)
    rngs = spawn(make_rng(seed), players + 1)
    team = {s: bots.make(game, "heuristic", seat=s, rng=rngs[s]) for s in range(players)}
    out: list[dict[str, Any]] = []

    def keep(state: Any, seat: int, action: int) -> None:
        if len(state.history) % every == 0:
            out.extend(state.view(s).to_json() for s in range(players))

    play_out(game.new_initial_state(), lambda st, s: team[s].step(st.view(s)), rngs[-1], on_step=keep)
    return out


@pytest.mark.parametrize(("players", "dirty", "seed"), [(4, 1, 3), (5, 1, 8), (6, 2, 4)])
@pytest.mark.parametrize("hide", [0.0, 0.5, 1.0])
def test_marginals_equal_the_enumeration(players: int, dirty: int, seed: int, hide: float) -> None:
    views = _views(players, dirty, seed)
    informative = 0
    for view in views:
        try:
            got = dirty_marginals(view, hide, model=None)
        except BadStateError:  # no deal explains the record under this model (hide = 0 or 1)
            with pytest.raises(ZeroDivisionError):
                reference(view, hide)
            continue
        want = reference(view, hide)
        assert np.allclose(got, want, atol=1e-9, rtol=0), (got, want)
        assert abs(sum(got) - dirty) < 1e-9
        unsure = [p for p in got if 1e-9 < p < 1 - 1e-9]
        informative += len(unsure) > 1 and max(unsure) - min(unsure) > 1e-3  # evidence told seats apart
    if 0 < hide < 1:  # at 0 placing tells nothing; at 1 a placing investigator is surely honest
        assert informative, "no view where the investigations moved the posterior"


def _random_model(seed: int) -> PrecinctBehaviour:
    """Every table the shipped model knows, with random chances, random hiding and a temper."""
    rng = np.random.default_rng(seed)
    shipped = load_behaviour()
    tables = {k: {o: (float(rng.uniform(0.05, 1)), float(rng.uniform(0.05, 1))) for o in t}
              for k, t in shipped.tables.items()}
    return PrecinctBehaviour(tables, tuple(float(h) for h in rng.uniform(0, 1, HIDE_BINS)), temper=0.7)


@pytest.mark.parametrize(("players", "dirty", "seed"), [(4, 1, 3), (5, 1, 8), (6, 2, 4)])
@pytest.mark.parametrize("which", ["shipped", "random"])
def test_learnt_factors_equal_the_enumeration(players: int, dirty: int, seed: int, which: str) -> None:
    model = load_behaviour() if which == "shipped" else _random_model(seed)
    views = _views(players, dirty, seed)
    moved = 0
    for view in views:
        got = dirty_marginals(view, model=model)
        want = reference(view, 0.5, model)
        assert np.allclose(got, want, atol=1e-9, rtol=0), (got, want)
        assert abs(sum(got) - dirty) < 1e-9
        plain = dirty_marginals(view, 0.5, model=None)
        moved += max(abs(a - b) for a, b in zip(got, plain, strict=True)) > 1e-3
    assert moved, "the signals never moved the posterior"
    assert public_signals(views[-1]), "no public signal read"


def test_the_default_is_the_shipped_model() -> None:
    views = _views(5, 1, 8)[::4]
    assert all(dirty_marginals(v) == dirty_marginals(v, model=load_behaviour()) for v in views)
    assert any(dirty_marginals(v) != dirty_marginals(v, model=None) for v in views)


@pytest.mark.parametrize(("players", "dirty", "seed"), [(5, 1, 8), (6, 2, 4)])
def test_the_tracker_follows_the_game(players: int, dirty: int, seed: int) -> None:
    views = _views(players, dirty, seed, every=7)
    trackers: dict[int, DirtyCopTracker] = {}
    for view in views:
        seat = view["seat"]
        tracker = trackers.setdefault(seat, DirtyCopTracker(view))
        got = [float(m.holds[1]) for m in tracker.update(view).marginals()]
        assert np.allclose(got, dirty_marginals(view), atol=1e-12, rtol=0)


def test_hands_are_counted_as_the_view_shows_them() -> None:
    for view in _views(6, 2, 4, every=11):
        reader = HistoryReader(view["cops"])
        reader.feed(view["history"])
        assert [reader.hand[c["seat"]] for c in view["cops"]] == [c["cards"] for c in view["cops"]]


def test_fit_counts_with_add_alpha() -> None:
    good = [(Signal(0, "help", "investigate|3", "gave"), False)] * 3 + \
        [(Signal(0, "help", "investigate|3", "passed"), False)]
    bad = [(Signal(1, "help", "investigate|3", "passed"), True)] * 2
    model = fit(good + bad, [(3, True), (3, True), (0, False)], alpha=1.0)
    table = model.tables["help|investigate|3"]
    assert table["gave"] == pytest.approx((4 / 6, 1 / 4))  # (3+1)/(4+2), (0+1)/(2+2)
    assert table["passed"] == pytest.approx((2 / 6, 3 / 4))
    assert model.hide[3] == pytest.approx(3 / 4) and model.hide[0] == pytest.approx(1 / 3)
    assert model.hide[5] == pytest.approx(1 / 2)  # no draw: the prior's half
    assert model.factor(Signal(2, "help", "arrest|1", "gave")) == (1.0, 1.0)  # never seen
    only_good = fit([(Signal(0, "help", "murderer|1", "gave"), False)] * 3
                    + [(Signal(0, "help", "murderer|1", "passed"), False)], [], alpha=1.0)
    assert only_good.tables["help|murderer|1"]["gave"] == pytest.approx((4 / 6, 4 / 6))  # no dirty data


def test_a_game_without_the_dirty_cop_is_refused() -> None:
    game = load("precinct", players=4)
    with pytest.raises(BadStateError, match="no Dirty Cop"):
        dirty_marginals(game.new_initial_state().view(0).to_json())
