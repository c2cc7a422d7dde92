"""The LineUp printer for ``copsolver play lineup``: text portraits, the five-second study, lineups.

A Suspect card is drawn as a small portrait from its features (hat, hair, glasses, facial hair,
clothing, accessory; a user deck's other features are written out under it). When a human studies a
card, the portrait stays on screen for :attr:`LineUpPrinter.seconds` (default 5, the rulebook's
five seconds; the environment variable ``COPSOLVER_STUDY_SECONDS`` or the ``seconds`` argument set
it, tests use 0), then the lines are erased with ANSI cursor-up and clear-to-end
(:meth:`LineUpPrinter.after_prompt`; also under ``--quiet``, since the portrait is part of the
human's prompt, not of the record of events). Lineups face the table, so they are shown as numbered
portraits to everyone. No event carries a face-down card's features, so the spectator of an all-bot
game reads only "seat 2 studies a suspect".
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from typing import Any, Final

from bots.display import PRINTERS, GamePrinter, numbered
from solver.core import Event, Game, Seat, View

DEFAULT_SECONDS: Final = 5.0
_HAT = {"none": "         ", "cap": "  ,___,_ ", "fedora": " _[===]_ ", "beanie": "  (~~~)  "}
_HAIR = {"short": " /'''''\\ ", "long": " /|||||\\ ", "curly": " (@@@@@) ", "bald": " /     \\ "}
_EYES = {"none": "| o   o |", "round": "|(o)-(o)|", "square": "|[o]-[o]|", "sunglasses": "|(#)-(#)|"}
_MOUTH = {"none": "|   -   |", "moustache": "|  ~~~  |", "beard": "|\\_____/|", "stubble": "|  :-:  |"}
_CLOTH = {"red": "r", "blue": "b", "green": "g", "grey": ".", "black": "#"}
_MARK = {"none": ("", ""), "earring": ("*", ""), "scar": ("", "/"), "tattoo": ("", "%"),
         "necklace": ("", "")}
WIDTH: Final = 11


def portrait(features: dict[str, Any]) -> list[str]:
    """A few lines picturing a Suspect card (features the drawing does not know are written out)."""
    f = {k: str(v) for k, v in features.items()}
    ear, cheek = _MARK.get(f.get("accessory", "none"), ("", ""))
    eyes = _EYES.get(f.get("glasses", ""), "|  ? ?  |")
    mouth = _MOUTH.get(f.get("facial_hair", ""), "|   ?   |")
    if cheek:
        mouth = mouth[:1] + cheek + mouth[2:]
    cloth = _CLOTH.get(f.get("clothing", ""), "?") * 5
    neck = "o-o-o" if f.get("accessory") == "necklace" else cloth
    lines = [
        _HAT.get(f.get("hat", ""), "    ?    "),
        _HAIR.get(f.get("hair", ""), " /  ?  \\ "),
        ear + eyes if ear else " " + eyes,
        " " + mouth,
        f" /{neck}\\",
        f" /{cloth}\\",
    ]
    known = {"hat", "hair", "glasses", "facial_hair", "clothing", "accessory"}
    lines = [line.ljust(WIDTH)[:WIDTH] for line in lines]
    # whole, however long: a cut value could hide the one difference between two cards
    lines += [f"{k}: {v}".ljust(WIDTH) for k, v in f.items() if k not in known]
    return lines


def side_by_side(cards: Sequence[dict[str, Any]], per_row: int = 5) -> list[str]:
    """Numbered portraits in rows (stand 1 first)."""
    out: list[str] = []
    for start in range(0, len(cards), per_row):
        row = [portrait(c) for c in cards[start:start + per_row]]
        height = max(len(p) for p in row)
        width = max(len(line) for p in row for line in p) + 2
        out.append("    " + "".join(f"[{start + i + 1}]".center(width) for i in range(len(row))))
        for k in range(height):
            out.append("    " + "".join((p[k] if k < len(p) else "").ljust(width) for p in row))
    return out


def study_seconds() -> float:
    """Seconds a studied card stays on screen: ``COPSOLVER_STUDY_SECONDS`` or 5."""
    text = os.environ.get("COPSOLVER_STUDY_SECONDS", "")
    try:
        return max(0.0, float(text)) if text else DEFAULT_SECONDS
    except ValueError:
        return DEFAULT_SECONDS


class LineUpPrinter(GamePrinter):
    """LineUp: one line per event, lineups as portraits, the study moment shown then hidden."""


    def __init__(self, game: Game, seats: Iterable[Seat] | None = None, seconds: float | None = None) -> None:
        super().__init__(game, seats)
        self.seconds = study_seconds() if seconds is None else seconds
        self._hide = 0  # lines of a studied portrait still on screen

    def after_prompt(self) -> list[str]:
        """Once a human's study moment is answered: wait out the study time, then erase the card.

        A prompt line, not an event line, so quiet play erases the portrait too.
        """
        if not self._hide:
            return []
        if self.seconds > 0:
            time.sleep(self.seconds)
        # cursor up over the portrait and the line after it, then clear to the end of the screen
        line = f"\x1b[{self._hide}A\x1b[J  (the suspect card is face down now)"
        self._hide = 0
        return [line]

    def render(self, event: Event) -> list[str]:
        """Lines for one LineUp event."""
        e = event.to_json()
        kind, s = e["kind"], e.get("seat")
        if kind == "TurnStarted":
            return ["", f"Turn {e['turn']}: seat {s}"]
        if kind == "GameOver":
            who = "nobody" if e["winner"] is None else f"seat {e['winner']}"
            self.winner_line = f"Winner: {who} — {e['reason']}"
            return ["", self.winner_line]
        if kind == "LineupShown":
            stands = [self._features(c) for c in e["stands"]]
            return [f"  the lineup for seat {s} ({e['scene']}):", *side_by_side(stands)]
        if kind == "Moved":  # the space as a player types it: a scene's or the station's name
            e = dict(e, to=self.game.board.label(e["to"]))  # type: ignore[attr-defined]
        text = _line(e)
        return [f"  {text}"] if text else []

    def _features(self, card: str) -> dict[str, Any]:
        scene, number = self.game.codec.by_id[card]  # type: ignore[attr-defined]
        suspects = self.game.suspects  # type: ignore[attr-defined]
        entry = suspects.scenes[self.game.board.scene_names[scene]][number]  # type: ignore[attr-defined]
        return dict(suspects.features_of(entry))

    def describe_view(self, view: View) -> list[str]:
        """The seat's table; the studied card's portrait (then hidden) or the lineup's portraits."""
        data = view.to_json()
        me = view.seat
        lines = [f"Seat {me}: {view.decision.prompt.removeprefix(f'seat {me}: ')}"]
        for p in data["players"]:
            you = " (you)" if p["seat"] == me else ""
            held = ", ".join(p["held"]) or "none"
            space = self.game.board.label(p["space"])  # type: ignore[attr-defined]
            known = ", ".join(p["identified"]) or "none"
            lines.append(f"  seat {p['seat']}{you}: space {space}, count {p['count']}, face down: {held}, "
                         f"identified: {known}, Lucky Break: {p['lucky']}")
        if data["hand"]:
            lines.append(f"  Your Lucky Break cards: {', '.join(data['hand'])}")
        lineup = data.get("lineup")
        if lineup and lineup.get("stands"):
            lines.append(f"  The lineup ({lineup['scene']}): which one did you see?")
            lines += side_by_side([c["features"] for c in lineup["stands"]])
        lines.append("  Legal moves:")
        lines.extend(numbered([self.game.action_to_str(a) for a in view.legal_actions]))
        studying = data.get("studying")
        if studying:
            shown = [f"  Study this {studying['scene']} suspect ({self.seconds:g} seconds):",
                     *("      " + line for line in portrait(studying["features"]))]
            lines += shown
            self._hide = len(shown) + 1  # and the "Only one move: study" line printed after it
        return lines


PRINTERS["lineup"] = LineUpPrinter


def _line(e: dict[str, Any]) -> str:
    kind, s = e["kind"], e.get("seat")
    if kind == "DieRolled":
        return f"seat {s} rolls {e['value']}"
    if kind == "Moved":
        how = " (Lucky Break: straight to the station)" if e["why"] != "roll" else ""
        return f"seat {s} moves to {e['to']}{how}"
    if kind == "SuspectDrawn":
        return f"seat {s} draws a suspect at the {e['scene']}"
    if kind == "SuspectStudied":
        return f"seat {s} studies a suspect" + (" again (another look)" if e["why"] != "scene" else "")
    if kind == "LuckyDrawn":
        return f"seat {s} draws a Lucky Break card" + (f": {e['card']}" if e["card"] else "")
    if kind == "LuckyPlayed":
        on = f" on card {e['held']}" if e["held"] else ""
        on = f" on seat {e['target']}" if e["target"] is not None else on
        return f"seat {s} plays {e['card']}{on}"
    if kind == "LineupRequested":
        return f"seat {s} asks for a lineup of its {e['scene']} card ({e['size']} suspects)"
    if kind == "LineupResult":
        verdict = "RIGHT" if e["correct"] else f"wrong (the guilty one stood at {e['guilty']})"
        return f"seat {s} picks stand {e['picked']}: {verdict}"
    if kind == "CountChanged":
        return f"seat {s}'s Lineup Count is now {e['count']} ({e['why']})"
    return ""
