"""What a Good Cop Bad Cop hint adds: the posterior table per player and reasons that cite it.

The table is the exact posterior of :mod:`solver.belief.gcbc_posterior` for the advised seat's view
(deduction times the shipped behaviour model), so it shows only what that seat could infer:

    seat  status   honest  Agent  Kingpin  cards
       0  alive     62.7%  14.4%    18.8%  H 37% C 47% K 9% A 7% | honest (up) | ...
       4  you      100.0% 100.0%     0.0%  agent | honest | crooked

Each ranked action's reason is prefixed by the posterior fact it turns on, in the issue's words:
``seat 3 is Kingpin with 0.62; shoot``. Integrity cards are written ``A`` (Agent), ``K`` (Kingpin),
``H`` (Honest), ``C`` (Crooked).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final

from bots.base import Advice, RankedAction
from solver.core import Action, Game, View

_LETTER: Final = {"agent": "A", "kingpin": "K", "honest": "H", "crooked": "C"}


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
