"""What a Police Precinct hint adds: the seat's role, the board, and with the Dirty Cop who he may be.

``copsolver hint precinct`` prints ``seat 2 (good cop)`` or ``(dirty cop)`` from the seat's own loyalty
card (only that seat's view holds it), then the board printout of :func:`bots.precinct.display.board_lines`
before the ranked moves.

With the Dirty Cop in the game, the exact posterior of :mod:`solver.belief.dirty_cop` from the advised
seat's view follows, one line per seat with the public evidence it turns on::

    seat 3 is the dirty cop with 0.71: 2 investigations of 4 cards found nothing, which an honest
    draw does with 0.12

The evidence is each ``Investigated`` record of the seat's cops: an honest draw of ``drawn`` cards
finds nothing with the hypergeometric chance of :func:`~solver.games.precinct.common.draw_chance`;
then the seat's strongest group of learnt public signals (help given or withheld, donuts spent,
actions, cards played: :mod:`solver.belief.precinct_behaviour`) with its likelihood ratio.
A card the seat has seen (its own, one shown to the table, one Internal Affairs showed it) is ``known``.

The dirty cop's own hint says how suspicious he looks to the table: his P(dirty) as the other seats
would compute it, from the public record only and each of them taking its own card as good. At the
claim (place the evidence drawn, or claim the cards useless) that number is given per option, with
the hypothetical ``Investigated`` record the option would add; other decisions leave no
investigation record, and the hint says it does not rate them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from math import prod
from typing import Any, Final

from bots.base import Advice, RankedAction
from bots.hint import NONE, Asked, Column, Extras
from bots.precinct.suspicion import table_suspicion
from solver.belief.precinct_behaviour import Signal
from solver.core import Action, Game, View
from solver.games.precinct import codec
from solver.games.precinct.common import draw_chance
from solver.games.precinct.content import DECKS

#: a chance this close to 0 or 1 is a certainty (the posterior's sums round)
_SURE: Final = 1e-9
#: a group of signals whose log likelihood ratio is below this is not worth a mention
_WEAK: Final = 0.5
#: the column of the dirty cop's claim options
_LOOKS: Final = "looks dirty"


def role(game: Game, view: View) -> str:
    """``good cop`` or ``dirty cop`` by the seat's loyalty card (``cop`` before the deal or without one)."""
    loyalty = view.to_json().get("my_loyalty")
    return f"{loyalty} cop" if loyalty else "cop"


# --- the public record --------------------------------------------------------------------------


def _events(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [ev for entry in data["history"] for ev in entry[2]]


def records_by_seat(data: Mapping[str, Any]) -> dict[int, list[Mapping[str, Any]]]:
    """Each seat's public investigation records (``Investigated`` events of its cops), oldest first."""
    cop_seat = [int(c["seat"]) for c in data["cops"]]
    out: dict[int, list[Mapping[str, Any]]] = {}
    for ev in _events(data):
        if ev["kind"] == "Investigated":
            out.setdefault(cop_seat[int(ev["cop"])], []).append(ev)
    return out


def known_loyalty(data: Mapping[str, Any]) -> dict[int, tuple[bool, str]]:
    """``{seat: (dirty, how the viewer knows)}`` for every loyalty card the view's seat has seen."""
    me = int(data["seat"])
    public = data.get("loyalty") or []
    out: dict[int, tuple[bool, str]] = {}
    for ev in _events(data):
        if ev["kind"] != "LoyaltyShown":
            continue
        p = int(ev["seat"])
        if p < len(public) and public[p] is not None:
            how = "shown to the table"
        elif p == me:
            how = "your own card"
        else:
            how = "Internal Affairs showed you"
        out[p] = (bool(ev["dirty"]), how)
    return out


def _cards(counts: Sequence[int]) -> str:
    """``4`` or ``4 and 3`` or ``4, 3 and 2`` cards drawn (one number when all are equal)."""
    if len(set(counts)) == 1:
        return f"{counts[0]} cards" if counts[0] != 1 else "1 card"
    words = [str(c) for c in counts]
    return ", ".join(words[:-1]) + f" and {words[-1]} cards"


def _investigations(n: int) -> str:
    return "1 investigation" if n == 1 else f"{n} investigations"


def evidence_text(records: Sequence[Mapping[str, Any]]) -> str:
    """The public evidence of one seat's investigations, with an honest draw's chance of the empty ones."""
    if not records:
        return "no investigation of its own yet"
    empty = [r for r in records if int(r["placed"]) == 0]
    full = [r for r in records if int(r["placed"]) > 0]
    parts = []
    if empty:
        # an honest investigator places all he draws: his record is empty only when the draw was
        # (the chance that all these draws were, their product)
        honest = prod(draw_chance(int(r["evidence"]), int(r["size"]), int(r["drawn"]), 0) for r in empty)
        parts.append(f"{_investigations(len(empty))} of {_cards([int(r['drawn']) for r in empty])} found "
                     f"nothing, which an honest draw does with {honest:.2f}")
    if full:
        placed = sum(int(r["placed"]) for r in full)
        parts.append(f"{_investigations(len(full))} placed {placed} evidence")
    return "; ".join(parts)


def _signal_words(kind: str, context: str, outcome: str, n: int) -> str:
    """A group of one seat's public choices in words (``helped with cards in 2 investigate rolls``)."""
    times = "once" if n == 1 else f"{n} times"
    roll = context.split("|")[0]
    if kind == "help":
        what = "helped with cards" if outcome == "gave" else "passed when asked to help"
        return f"{what} in {roll} rolls {times}"
    if kind == "donuts":
        return f"{'spent' if outcome == 'spent' else 'kept'} donuts on own {roll} rolls {times}"
    if kind == "action":
        return f"chose '{outcome}' as the action {times}"
    if kind == "play":
        return f"played {outcome} {times}"
    return f"{kind} {outcome} {times}"


def signal_text(signals: Sequence[Signal]) -> str:
    """The strongest group of one seat's learnt public signals (help, donuts, actions, cards), with
    its likelihood ratio dirty : good under the shipped behaviour model; '' when none moves it."""
    from solver.belief.precinct_behaviour import load_behaviour

    model = load_behaviour()
    if not signals:
        return ""
    groups: dict[tuple[str, str, str], list[Signal]] = {}
    for sig in signals:
        groups.setdefault((sig.kind, sig.context.split("|")[0], sig.outcome), []).append(sig)
    best, best_log = None, 0.0
    for key, members in groups.items():
        log_ratio = sum(math.log(d / g) for g, d in (model.factor(m) for m in members) if g > 0 and d > 0)
        if abs(log_ratio) > abs(best_log) + 1e-12:
            best, best_log = key, log_ratio
    if best is None or abs(best_log) < _WEAK:
        return ""
    ratio = math.exp(best_log)
    shown = f"{ratio:.2g}" if 1e-3 <= ratio <= 1e3 else f"{ratio:.0e}"
    return f"{_signal_words(*best, len(groups[best]))} (dirty : good {shown})"


def _seats(seats: Sequence[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]} is"
    return "seats " + ", ".join(str(p) for p in seats[:-1]) + f" and {seats[-1]} are"


def posterior_lines(data: Mapping[str, Any], marginals: Sequence[float]) -> list[str]:
    """One line per seat: ``seat p is the dirty cop with x: <evidence>``, or what the seat knows.

    Seats whose card deduction fixes (a chance of 0 or 1 without a card seen) share a line at the end.
    """
    from solver.belief.precinct_behaviour import read_history

    me = int(data["seat"])
    known = known_loyalty(data)
    records = records_by_seat(data)
    signals: dict[int, list[Signal]] = {}
    for signal in read_history(data).signals:
        signals.setdefault(signal.seat, []).append(signal)
    lines = []
    deduced: dict[bool, list[int]] = {True: [], False: []}
    for p, chance in enumerate(marginals):
        who = "you" if p == me else f"seat {p}"
        if p in known:
            dirty, how = known[p]
            is_word = "are" if p == me else "is"
            lines.append(f"  {who} {is_word} {'the dirty cop' if dirty else 'good'} (known: {how})")
        elif chance < _SURE or chance > 1 - _SURE:  # the cards seen, or a record only one side explains
            deduced[chance > 0.5].append(p)
        else:
            why = evidence_text(records.get(p, []))
            strongest = signal_text(signals.get(p, []))
            lines.append(f"  seat {p} is the dirty cop with {chance:.2f}: {why}"
                         + (f"; {strongest}" if strongest else ""))
    for dirty, seats in deduced.items():
        if seats:
            lines.append(f"  {_seats(seats)} {'dirty' if dirty else 'good'} (known by deduction)")
    return lines


def marginals_for(view: View) -> list[float] | None:
    """P(dirty) per seat from ``view`` (the module's default behaviour model); None without the Dirty Cop."""
    from solver.belief.dirty_cop import dirty_marginals

    data = view.to_json()
    if not data["config"].get("dirty_cop"):
        return None
    return dirty_marginals(data)


# --- how the dirty cop looks to the table -------------------------------------------------------


def claim_record(data: Mapping[str, Any], hide: bool) -> dict[str, Any] | None:
    """The ``Investigated`` event the investigator's claim would add (``hide``: claim the cards useless).

    None when the view holds no draw of its own seat's (no claim under way).
    """
    roll = data.get("roll") or {}
    cards = [bool(c) for c in roll.get("cards", ())]
    if roll.get("kind") != "investigate" or not cards:
        return None
    name = DECKS[int(roll["deck"])]
    stack = next((s for s in data["stacks"] if s["deck"] == name), None)
    if stack is None:
        return None
    found = sum(cards)
    placed = 0 if hide else found
    # the view's stack is after the draw; the record gives the counts before it
    return {"kind": "Investigated", "cop": int(roll["cop"]), "deck": name,
            "size": int(stack["size"]) + len(cards), "evidence": int(stack["evidence"]) + found,
            "drawn": len(cards), "placed": placed, "discarded": 1 if len(cards) > found else 0}


def claim_suspicion(data: Mapping[str, Any], legal: Sequence[Action]) -> dict[Action, float | None]:
    """Per claim option among ``legal``: how dirty the table would then think ``data``'s seat is."""
    out: dict[Action, float | None] = {}
    for action in (a for a in legal if a in (codec.PLACE, codec.HIDE)):
        record = claim_record(data, hide=action == codec.HIDE)
        if record is not None:
            out[action] = table_suspicion(data, record)
    return out


def _num(x: float | None) -> str:
    return NONE if x is None else f"{x:.2f}"


def dirty_lines(view: View) -> tuple[list[str], Column | None, list[str]]:
    """The dirty cop's own lines: how the table sees him now and, at a claim, after each option.

    Returns the lines, the ``looks dirty`` column of the claim options (None elsewhere) and its key.
    """
    data = view.to_json()
    now = table_suspicion(data)
    lines = [f"How the table sees you: the other seats would put you as the dirty cop with {_num(now)} "
             "(each from the public record, its own card good)"]
    after = claim_suspicion(data, view.legal_actions)
    if not after:
        lines.append("  your moves here leave no investigation record: not rated as public evidence "
                     "(only the claim after a draw is)")
        return lines, None, []
    record = claim_record(data, hide=False) or {}
    honest = draw_chance(int(record["evidence"]), int(record["size"]), int(record["drawn"]), 0)
    names = {codec.PLACE: "place evidence", codec.HIDE: "claim useless"}
    lines.append("  after " + ", ".join(f"{names[a]}: {_num(p)}" for a, p in after.items())
                 + f" (an honest draw of {record['drawn']} of {record['size']} cards with "
                 f"{record['evidence']} evidence finds nothing with {honest:.2f})")
    column = Column(_LOOKS, {a: _num(p) for a, p in after.items()})
    key = [f"  {_LOOKS}: the chance the other seats would give that you are the dirty cop after the move "
           "(they see only what is placed)"]
    return lines, column, key


# --- the hook -----------------------------------------------------------------------------------


def _annotate(advice: Advice, marginals: Sequence[float], known: Mapping[int, tuple[bool, str]]) -> Advice:
    """Accusations and Internal Affairs targets prefixed with the target's P(dirty)."""
    ranked: list[RankedAction] = []
    for r in advice.ranked:
        target = None
        if codec.ACCUSE <= r.action < codec.ACCUSE + 8:
            target = r.action - codec.ACCUSE
        elif codec.TARGET <= r.action < codec.TARGET + 8:
            target = r.action - codec.TARGET
        if target is None or target >= len(marginals):
            ranked.append(r)
            continue
        fact = (f"seat {target} is {'the dirty cop' if known[target][0] else 'good'} (known)"
                if target in known else f"seat {target} is the dirty cop with {marginals[target]:.2f}")
        ranked.append(dataclasses.replace(r, reason=f"{fact}; {r.reason}"))
    return dataclasses.replace(advice, ranked=tuple(ranked))


def extras(game: Game, view: View, advice: Advice, asked: Asked | None = None) -> Extras:
    """The board printout, then with the Dirty Cop the posterior table and the dirty cop's suspicion."""
    from bots.precinct.display import board_lines

    data = view.to_json()
    lines = list(board_lines(game, data))
    marginals = marginals_for(view)
    if marginals is None:
        return Extras(advice, lines=tuple(lines))
    lines.append(f"Who is the dirty cop (exact posterior from seat {view.seat}'s view; each line gives the "
                 "seat's public investigation record and its strongest learnt signal, or how its card "
                 "is known):")
    lines += posterior_lines(data, marginals)
    columns: tuple[Column, ...] = ()
    key: list[str] = []
    if data.get("my_loyalty") == "dirty":
        more, column, key = dirty_lines(view)
        lines += more
        columns = () if column is None else (column,)
    annotated = _annotate(advice, marginals, known_loyalty(data))
    return Extras(annotated, lines=tuple(lines), columns=columns, key=tuple(key))
