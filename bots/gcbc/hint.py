"""What a Good Cop Bad Cop hint adds: the posterior table per player and reasons that cite it.

The table is the exact posterior of :mod:`solver.belief.gcbc_posterior` for the advised seat's view
(deduction times the shipped behaviour model), so it shows only what that seat could infer:

    seat  status   honest  Agent  Kingpin  cards
       0  alive     62.7%  14.4%    18.8%  H 37% C 47% K 9% A 7% | honest (up) | ...
       4  you      100.0% 100.0%     0.0%  agent | honest | crooked

Each ranked action's reason is prefixed by the posterior fact it turns on, in the issue's words:
``seat 3 is Kingpin with 0.62; shoot``. Integrity cards are written ``A`` (Agent), ``K`` (Kingpin),
``H`` (Honest), ``C`` (Crooked).

What the bots believe is printed as tables too: the search bot's likeliest leaders (its
``top_leader``, with the seats just as likely) and the heuristic's per-seat estimate. A search bot
spends only its ``window_share`` of the budget on an Equipment window (play or pass); the hint then
says so under the advisor line, with the iterations asked, the share's count and the simulations
run, so that the advisor line and the summary's count agree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final

from bots.base import Advice, RankedAction
from bots.hint import NONE, Asked, Extras, table
from bots.registry import bots_for
from solver.core import Action, Game, View

_LETTER: Final = {"agent": "A", "kingpin": "K", "honest": "H", "crooked": "C"}
_TIE: Final = 1e-9  # leader chances closer than this are the same (symmetric seats)


def marginals_for(game: Game, view: View) -> list[dict[str, Any]]:
    """The posterior marginals per seat from ``view`` (full behaviour model)."""
    from solver.belief.gcbc_behaviour import load_behaviour
    from solver.belief.gcbc_posterior import posterior
    from solver.games.gcbc.rules import GCBCGame

    if not isinstance(game, GCBCGame):
        return []
    return list(posterior(game, view.to_json(), load_behaviour()).marginals())


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _card_text(dist: Mapping[str, float], face_up: bool) -> str:
    if len(dist) == 1:
        name = next(iter(dist))
        return f"{name} (up)" if face_up else name
    ordered = sorted(dist.items(), key=lambda kv: -kv[1])
    return " ".join(f"{_LETTER[k]} {100 * p:.0f}%" for k, p in ordered if p >= 0.005)


def posterior_lines(view: View, marginals: Sequence[Mapping[str, Any]]) -> list[str]:
    """The posterior table as text lines (empty without marginals)."""
    if not marginals:
        return []
    data = view.to_json()
    players = data["players"]
    rows = [["seat", "status", "honest", "Agent", "Kingpin", "cards (by position)"]]
    for m in marginals:
        s = int(m["seat"])
        p = players[s]
        status = "you" if s == view.seat else "out" if not p["alive"] else (
            "wounded" if p["wounded"] else "alive")
        pairs = zip(m["cards"], p["cards"], strict=False)
        cards = " | ".join(_card_text(dist, bool(card["face_up"])) for dist, card in pairs)
        rows.append([str(s), status, _pct(m["p_honest"]), _pct(m["p_agent"]), _pct(m["p_kingpin"]), cards])
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["Who is who (exact posterior from this seat's view; behaviour model: shipped):"]
    for r in rows:
        head = [r[0].rjust(widths[0]), r[1].ljust(widths[1])] + [r[i].rjust(widths[i]) for i in (2, 3, 4)]
        lines.append("  " + "  ".join(head) + "  " + r[5])
    return lines


def _role_fact(m: Mapping[str, Any], own_team: str | None) -> str:
    """The strongest statement about one seat: a leader, else its team."""
    s = m["seat"]
    if m["p_kingpin"] >= max(m["p_agent"], 0.2):
        return f"seat {s} is Kingpin with {m['p_kingpin']:.2f}"
    if m["p_agent"] >= 0.2:
        return f"seat {s} is Agent with {m['p_agent']:.2f}"
    honest = float(m["p_honest"])
    if own_team is not None:
        enemy = 1 - honest if own_team == "honest" else honest
        return f"seat {s} is on the other team with {enemy:.2f}"
    return f"seat {s} is honest with {honest:.2f}"


def _own_team(view: View) -> str | None:
    from solver.games.gcbc.deal import INTEGRITY_NAMES, team_of

    me = view.to_json()["players"][view.seat]
    cards = [INTEGRITY_NAMES.index(c["card"]) for c in me["cards"] if c["card"] is not None]
    return team_of(cards, bool(me.get("inverted"))) if cards else None


def reason_prefix(game: Game, view: View, action: Action, marginals: Sequence[Mapping[str, Any]]) -> str:
    """The posterior fact an action turns on ('' when none applies)."""
    from solver.games.gcbc import codec

    if not marginals:
        return ""
    by_seat = {int(m["seat"]): m for m in marginals}
    own = _own_team(view)
    players = view.to_json()["players"]
    target: int | None = None
    if action == codec.SHOOT:
        target = players[view.seat]["aim"]
    elif codec.AIM <= action < codec.AIM + len(players):
        target = action - codec.AIM
    elif codec.INVESTIGATE <= action < codec.PICK:
        seat, pos = codec.slot(action, codec.INVESTIGATE)
        dist = by_seat[seat]["cards"][pos]
        return f"seat {seat}'s card {pos} is {_card_text(dist, False)}; {_role_fact(by_seat[seat], own)}"
    elif codec.is_play(action):
        _, t = codec.decode_play(action)
        target = None if t == codec.NO_TARGET else t
    elif action == codec.ARM:
        others = [m for m in marginals if m["seat"] != view.seat and players[m["seat"]]["alive"]]
        if own is not None and others:
            best = max(others, key=lambda m: (1 - m["p_honest"]) if own == "honest" else m["p_honest"])
            return f"likeliest enemy: {_role_fact(best, own)}"
        return ""
    if target is None or target not in by_seat or target == view.seat:
        return ""
    return _role_fact(by_seat[target], own)


def annotate(game: Game, view: View, advice: Advice, marginals: Sequence[Mapping[str, Any]]) -> Advice:
    """``advice`` with each reason prefixed by its posterior fact; the raw marginals left out."""
    ranked: list[RankedAction] = []
    for r in advice.ranked:
        fact = reason_prefix(game, view, r.action, marginals)
        ranked.append(dataclasses.replace(r, reason=f"{fact}; {r.reason}" if fact else r.reason))
    belief = {k: v for k, v in advice.belief.items() if k not in ("marginals",)}
    return dataclasses.replace(advice, ranked=tuple(ranked), belief=belief)


def leader_lines(top: Mapping[str, int], marginals: Sequence[Mapping[str, Any]]) -> list[str]:
    """The bot's likeliest holder of each leader card as a table, with the seats just as likely.

    ``top`` is the bot's ``top_leader`` (``{"agent": seat, "kingpin": seat}``), ``marginals`` the
    posterior it was read from. Empty when either is missing.
    """
    by_seat = {int(m["seat"]): m for m in marginals}
    rows = []
    for leader, seat in top.items():
        if seat not in by_seat:
            return []
        chance = float(by_seat[seat][f"p_{leader}"])
        key = f"p_{leader}"
        same = [s for s, m in sorted(by_seat.items()) if s != seat and abs(float(m[key]) - chance) < _TIE]
        tied = ("seat " if len(same) == 1 else "seats ") + ", ".join(str(s) for s in same) if same else NONE
        rows.append([leader.capitalize(), str(seat), _pct(chance), tied])
    if not rows:
        return []
    header = ["leader", "seat", "chance", "as likely"]
    body = table(header, rows, frozenset({0}))
    return ["Likeliest leaders (the bot's posterior):", *("  " + row for row in body)]


def estimate_lines(seats: Sequence[Mapping[str, Any]], team: str | None = None) -> list[str]:
    """The heuristic's per-seat estimate (its ``seats`` belief entry) as a table, under its ``team``."""
    rows = [
        [str(e["seat"]), _pct(float(e["p_crooked"])), _pct(float(e["p_agent"])), _pct(float(e["p_kingpin"])),
         str(e["why"])]
        for e in seats
    ]
    if not rows:
        return []
    header = ["seat", "crooked", "Agent", "Kingpin", "why"]
    body = table(header, rows, frozenset())
    own = "" if team is None else f" (its own team: {team})"
    return [f"The heuristic's estimate per seat{own}:", *("  " + row for row in body)]


def budget_note(game: Game, view: View, advice: Advice, asked: Asked | None) -> str | None:
    """What the budget bought at an Equipment window, where a search bot spends its ``window_share``.

    None unless ``asked`` names a bot with that option that searched this window. The count of
    simulations run is the advice's visits, the number the summary gives.
    """
    from solver.games.gcbc import codec

    if asked is None or codec.PASS not in view.legal_actions:
        return None
    cls = bots_for(game.name).get(asked.bot)
    searched = any(r.visits is not None for r in advice.ranked)
    if cls is None or "window_share" not in cls.options or not searched:
        return None
    share = float(cls.options["window_share"].default)  # the hint sets no bot option but the budget
    done = sum(r.visits or 0 for r in advice.ranked)
    budget = asked.budget
    if budget is not None and budget.seconds is not None:
        got = f"{budget.seconds:g} s asked: {budget.seconds * share:g} s"
    else:
        iterations = int(cls.options["iterations"].default if budget is None else budget.iterations or 0)
        got = f"{iterations} iterations asked: {max(1, round(iterations * share))}"
    return (
        f"Budget here: an Equipment window gets the bot's window_share ({share:.0%}) of the {got}; "
        f"simulations run: {done}"
    )


def extras(game: Game, view: View, advice: Advice, asked: Asked | None = None) -> Extras:
    """The posterior table, reasons citing it, the bots' beliefs as tables, and the window's budget."""
    marginals = marginals_for(game, view)
    lines = posterior_lines(view, marginals)
    raw = advice.belief
    shown = dict(raw)
    top = raw.get("top_leader")
    if isinstance(top, Mapping):
        leaders = leader_lines(top, raw.get("marginals") or marginals)
        if leaders:
            lines += leaders
            shown.pop("top_leader")
    seats = raw.get("seats")
    if isinstance(seats, list) and all(isinstance(e, Mapping) for e in seats):
        team = raw.get("team")
        lines += estimate_lines(seats, team if isinstance(team, str) else None)
        shown.pop("seats")
        shown.pop("team", None)
    annotated = annotate(game, view, dataclasses.replace(advice, belief=shown), marginals)
    note = budget_note(game, view, advice, asked)
    return Extras(annotated, notes=() if note is None else (note,), lines=tuple(lines))
