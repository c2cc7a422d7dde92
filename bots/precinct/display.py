"""The Police Precinct printer for ``copsolver play precinct``: events as lines, a seat's board as text.

:meth:`PrecinctPrinter.describe_view` draws what one seat knows from its view alone: the tracks (turn,
murderer, City Crime), each cop's street, car, donuts, card count, upgrades and tokens, the punks,
gangs and patrol officers per Bad Hood, each card on the board with where it lies, its Unknown
Circumstances marker and the Urgent! token, the investigation stacks and the Murder Investigation
Board, the support vehicles, the roll under way, then the seat's own hand and loyalty card and the
numbered moves. Other seats' hands are never in a view, so they cannot be printed.

Events print one line each; a cop is named as the table calls it (``Costello (seat 2)``), learned
from the set-up's pick notes, since events carry the cop's index only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bots.display import PRINTERS, GamePrinter, numbered
from solver.core import Event, Game, Seat, View


class PrecinctPrinter(GamePrinter):
    """Police Precinct: Notes as their text, rolls and investigations in words, the board from a view."""

    def __init__(self, game: Game, seats: Iterable[Seat] | None = None) -> None:
        super().__init__(game, seats)
        self._cops: list[str] = []  # cop index -> "Name (seat s)", from the pick notes

    def _cop(self, cop: int) -> str:
        return self._cops[cop] if 0 <= cop < len(self._cops) else f"cop {cop}"

    def render(self, event: Event) -> list[str]:
        """Lines for one Police Precinct event."""
        e = event.to_json()
        kind = e["kind"]
        if kind == "Note":
            if e["what"] == "pick":  # "seat 2 plays Costello"
                words = str(e["text"]).split()
                if len(words) >= 4 and words[0] == "seat":
                    self._cops.append(f"{' '.join(words[3:])} (seat {words[1]})")
            if e["what"] == "turn":
                return ["", f"  {e['text']}"]
            return [f"  {e['text']}"]
        if kind == "TurnBegins":
            return ["", f"  -- {e['name']}'s turn --"]
        if kind == "GameOver":
            verdict = "The good cops win" if e["good_win"] else "The good cops lose"
            self.winner_line = f"{verdict}: {e['reason']}"
            return ["", self.winner_line]
        text = _line(self, e)
        return [f"  {text}"] if text else []

    def describe_view(self, view: View) -> list[str]:
        """The seat's board, its hand and loyalty, and the numbered legal moves."""
        lines = [f"Seat {view.seat}: {view.decision.prompt}", *board_lines(self.game, view.to_json())]
        lines.append("  Legal moves:")
        lines.extend(numbered([self.game.action_to_str(a) for a in view.legal_actions]))
        return lines


def board_lines(game: Game, data: dict[str, Any]) -> list[str]:
    """The board as one seat sees it (its view's JSON), in plain lines."""
    content = game.content  # type: ignore[attr-defined]
    me = data["seat"]
    murderer = f"Bad Hood {data['murderer']}" if data["murderer"] else \
        f"appears on turn {content.murderer_turn}"
    lines = [f"  Turn Track {data['turn_track']} (FAIL at {content.fail_turn}); murderer: {murderer}; "
             f"City Crime {data['crime']}/{content.crime_fail}"]
    turn = data.get("turn")
    lines.append("  Cops:" + (f" (turn of seat {turn['seat']})" if turn else ""))
    loyalty = data.get("loyalty") or []
    for i, c in enumerate(data["cops"]):
        you = " (you)" if c["seat"] == me else ""
        extras = []
        if c["upgrades"]:
            extras.append("upgrades " + ", ".join(c["upgrades"]))
        if c["swat"]:
            extras.append(f"SWAT {c['swat']}")
        if c["fed"]:
            extras.append("Federal Agent token")
        if c.get("hospital"):
            extras.append("injured this turn")
        if c["out"]:
            extras.append("OUT of the game")
        shown = loyalty[c["seat"]] if c["seat"] < len(loyalty) else None
        if shown:
            extras.append(f"loyalty shown: {shown}")
        tail = f"; {'; '.join(extras)}" if extras else ""
        lines.append(f"    {i}. {c['character']} (seat {c['seat']}){you}: {c['street']}, "
                     f"{'marked' if c['marked'] else 'unmarked'} car, donuts {c['donuts']}, "
                     f"cards {c['cards']}{tail}")
    if data["support"]:
        lines.append("  Support vehicles: " + ", ".join(data["support"]))
    lines.append("  Bad Hoods (punks / gang / patrol officers):")
    hoods = []
    for h in range(6):
        gang = data["gangs"][h] or "-"
        star = " MURDERER" if data["murderer"] == h + 1 else ""
        hoods.append(f"{h + 1}: {data['punks'][h]} / {gang} / {data['patrol'][h]}{star}")
    lines.append("    " + "   ".join(hoods[:3]))
    lines.append("    " + "   ".join(hoods[3:]))
    lines.append(f"    punk supply {data['punk_supply']}, officers in stock {data['patrol_stock']}, "
                 f"donut supply {data['donut_supply']}")
    lines.append("  On the board:" + ("" if data["board"] else " nothing"))
    for b in data["board"]:
        event = next((ev for ev in content.events if ev.name == b["card"]), None)
        marker = ""
        if event is not None and event.unknown and not event.special and b["unknown"]:
            marker = f", Unknown Circumstances: {str(b['unknown']).replace('_', ' ')}"
        need = f" (needs {event.number})" if event is not None and not event.special else ""
        urgent = "  URGENT!" if b["urgent"] else ""
        counted = event is not None and event.special in ("jail_break", "detainees_run_amok", "escort_van")
        data_note = f", counter {b['data']}" if counted and b["data"] else ""
        lines.append(f"    [{b['slot']}] {b['card']}{need} at {b['where']}{marker}{data_note}{urgent}")
    lines.append("  Investigation stacks (cards, evidence left) and the Murder Investigation Board:")
    for d, s in enumerate(data["stacks"]):
        total = content.decks[d][0]
        where = "complete" if s["gone"] else \
            f"at {s['building'] or '?'}: {s['size']} cards, {s['evidence']} evidence"
        lines.append(f"    {s['deck'].replace('_', ' '):<13} {where}; board {data['placed'][d]}/{total}")
    roll = data.get("roll")
    if roll:
        parts = [f"{k} {v}" for k, v in roll.items() if k not in ("kind", "cop")]
        lines.append(f"  Under way: {roll['kind']} by cop {roll['cop']} ({', '.join(parts)})")
    hand = [h["card"] + (" (new)" if h["new"] else "") for h in data["hand"]]
    lines.append("  Your hand: " + (", ".join(hand) if hand else "empty"))
    if data.get("my_loyalty"):
        lines.append(f"  Your loyalty card: {data['my_loyalty']}")
    top = [t for t in data["known"]["events"]["top"] if t]
    if top:
        lines.append("  You know the top event card: " + ", ".join(top))
    return lines


def _line(printer: PrecinctPrinter, e: dict[str, Any]) -> str:
    kind = e["kind"]
    who = printer._cop(int(e["cop"])) if "cop" in e else ""
    if kind == "CardDrawn":
        return f"{who} draws a police card" + ("" if e["card"] == "?" else f": {e['card']}")
    if kind == "Discarded":
        return ""  # a discard decision, a play and a help each have their own Note already
    if kind == "Investigated":
        return (f"{who} drew {e['drawn']} of {e['size']} {e['deck'].replace('_', ' ')} cards "
                f"({e['evidence']} evidence in the stack): places {e['placed']}, discards {e['discarded']}")
    if kind == "InvestigationSeen":
        cards = ", ".join("evidence" if c else "useless" for c in e["cards"]) or "nothing"
        return f"{who} sees: {cards}"
    if kind == "Looked":
        cards = ", ".join("evidence" if c else "useless" for c in e["cards"]) or "nothing"
        return f"{who} looks at {e['deck'].replace('_', ' ')} cards: {cards}"
    if kind == "EventSeen":
        return f"{who} sees the top event card: {e['card']}"
    if kind == "LoyaltyShown":
        return f"seat {e['seat']}'s loyalty card: {'DIRTY' if e['dirty'] else 'good'}"
    if kind == "Rolled":
        ok = "succeeds" if e["result"] else "fails"
        if e["what"] == "arrest":
            ok = f"{e['result']} succeed"
        return f"{who} rolls {e['dice']} dice for the {e['what']} (needs {e['need']}): {ok}"
    fields = ", ".join(f"{k}={v}" for k, v in e.items() if k != "kind")
    return f"{kind}: {fields}"


PRINTERS["precinct"] = PrecinctPrinter
