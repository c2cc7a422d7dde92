"""Good Cop Bad Cop in the terminal: the table's record and a seat's view (cards, guns, aims)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bots.display import PRINTERS, GamePrinter, numbered
from solver.core import Event, Game, Seat, View
from solver.games.gcbc.deal import INTEGRITY_NAMES, team_of


class GCBCPrinter(GamePrinter):
    """Good Cop Bad Cop: one block per turn, each event once, secrets only for those who know them.

    The rules emit a private fact twice (see ``GCBCState.split``): the full event for the seats that
    know it and a copy with the secret set to None for the others. An audience of seats reads the
    full event when one of its seats knows it, else the copy; the spectator is nobody at the table,
    so it reads the copies only ("seat 0 looks at seat 3's card 2") and the public events, until the
    end shows every card. A :class:`~solver.games.gcbc.events.CardReceived` has no copy: only its
    receiver reads it.
    """


    def __init__(self, game: Game, seats: Iterable[Seat] | None = None) -> None:
        super().__init__(game, seats)
        self.audience: frozenset[Seat] = self.seats or frozenset()
        self._setup_said = False

    def sees(self, event: Event) -> bool:
        """Public events; a secret's full event when the audience knows it, else its copy."""
        known = event.visible_to
        if known is None:
            return True
        if _secret_hidden(event):  # the copy: shown unless an audience seat reads the full event
            return self.audience <= known
        return bool(self.audience & known)

    def render(self, event: Event) -> list[str]:
        """Lines for one Good Cop Bad Cop event."""
        e = event.to_json()
        kind = e["kind"]
        if kind in ("IntegrityDealt", "Arranged", "EquipmentDrawn") and self._is_setup(e):
            return self._setup(e)
        if kind == "TurnStarted":
            return ["", f"Turn {e['turn']}: seat {e['seat']}"]
        if kind == "GameOver":
            return self._game_over(e)
        text = _LINES.get(kind)
        if text is None:
            return super().render(event)
        return ["  " + text(e)]

    @staticmethod
    def _is_setup(e: dict[str, Any]) -> bool:
        return e["kind"] == "IntegrityDealt" or e.get("why") in ("setup", "deal")

    def _setup(self, e: dict[str, Any]) -> list[str]:
        lines = []
        if not self._setup_said:
            self._setup_said = True
            lines = ["", "Set-up", "  Integrity cards and one Equipment card each are dealt face down"]
        seat = e["seat"]
        if e["kind"] == "IntegrityDealt" and e["cards"] is not None:
            lines.append(f"  seat {seat} is dealt {', '.join(e['cards'])}")
        elif e["kind"] == "EquipmentDrawn" and e["card"] is not None:
            lines.append(f"  seat {seat} is dealt Equipment: {e['card']}")
        elif e["kind"] == "Arranged" and e["cards"] is not None:
            lines.append(f"  seat {seat} lays its cards out as {_layout(e['cards'])}")
        return lines

    def _game_over(self, e: dict[str, Any]) -> list[str]:
        lines = ["", "The cards:"]
        lines += [f"  seat {s}: {', '.join(cards)}" for s, cards in enumerate(e["cards"])]
        seats = ", ".join(str(s) for s in e["winners"])
        if e["winner"] == "solo":
            who = f"seat {seats} alone"
        else:
            who = f"the {e['winner']} team (seat{'s' if len(e['winners']) != 1 else ''} {seats})"
        self.winner_line = f"Winner: {who} — {e['reason']}"
        return [*lines, "", self.winner_line]

    def describe_view(self, view: View) -> list[str]:
        """The table as ``view.seat`` knows it: its cards and Equipment, every seat, its looks."""
        data = view.to_json()
        me = view.seat
        lines = [f"Seat {me}: {view.decision.prompt.removeprefix(f'seat {me}: ')}"]
        if len(view.legal_actions) == 1:  # a window with nothing to play: no need for the table
            return lines
        mine = data["players"][me]
        cards = [f"{p} {c['card']} ({'up' if c['face_up'] else 'down'})" for p, c in enumerate(mine["cards"])]
        team = team_of([INTEGRITY_NAMES.index(c["card"]) for c in mine["cards"]], mine["inverted"])
        lines.append(f"  Your Integrity cards: {', '.join(cards)} (you are on the {team} team)")
        equipment = getattr(self.game, "equipment", None)  # a GCBCGame's cards (any content file)
        texts = {c.id: c.text for c in equipment.cards} if equipment is not None else {}
        for card in data["hand"]:
            lines.append(f"  Your Equipment: {card} — {texts.get(card, '')}")
        lines.append("  The table:")
        for p in data["players"]:
            lines.append("    " + _seat_line(p, me))
        looks = [f"seat {s} card {pos}: {card}" for _, s, pos, card in data["investigated"]]
        if looks:
            lines.append(f"  You looked at: {'; '.join(looks)}")
        deck = data["deck"]
        order = "seat numbers up" if data["direction"] == 1 else "seat numbers down"
        lines.append(
            f"  Guns in the centre: {data['guns_centre']}; Equipment deck: {deck['unseen']} unseen, "
            f"{len(deck['bottom'])} returned; turn order: {order}"
        )
        lines.append("  Legal moves:")
        lines.extend(numbered([self.game.action_to_str(a) for a in view.legal_actions]))
        return lines


def _secret_hidden(e: Event) -> bool:
    """True for the redacted copy of a private event (its secret field is None)."""
    data = e.to_json()
    return any(data.get(name, "") is None for name in ("card", "cards"))


def _layout(cards: Sequence[str]) -> str:
    return ", ".join(f"{p} {c}" for p, c in enumerate(cards))


def _seat_line(p: dict[str, Any], me: Seat) -> str:
    cards = " ".join(
        (c["card"] if c["face_up"] or p["seat"] == me else "?") + ("" if c["face_up"] else "(down)")
        for c in p["cards"]
    )
    facts = [] if p["alive"] else ["eliminated"]
    facts += ["wounded"] * p["wounded"] + ["counts inverted"] * p["inverted"]
    if p["gun"]:
        facts.append("Gun" + (f" aimed at seat {p['aim']}" if p["aim"] is not None else ""))
    if p["equipment"]:
        facts.append(f"{p['equipment']} Equipment")
    you = " (you)" if p["seat"] == me else ""
    return f"seat {p['seat']}{you}: {cards}" + (f"; {', '.join(facts)}" if facts else "")


def _target(e: dict[str, Any]) -> str:
    return "" if e.get("target") is None else f" at seat {e['target']}"


def _secret(value: str | None, known: str, unknown: str = "") -> str:
    return known.format(value) if value is not None else unknown


#: Event kind -> its line (the set-up, turns and the end have their own methods).
_LINES: dict[str, Callable[[dict[str, Any]], str]] = {
    "ActionAnnounced": lambda e: f"seat {e['seat']} announces{' again' if e['again'] else ''}: {e['action']}",
    "Investigated": lambda e: f"seat {e['by']} looks at seat {e['seat']}'s card {e['pos']}"
    + _secret(e["card"], ": {}"),
    "CardFlipped": lambda e: f"seat {e['seat']} turns card {e['pos']} face up: {e['card']}",
    "CardsRevealed": lambda e: f"seat {e['seat']} shows every card: {', '.join(e['cards'])}",
    "GunTaken": lambda e: f"seat {e['seat']} takes a Gun "
    + ("from the centre" if e["source"] == "centre" else f"from seat {e['source']}"),
    "Aimed": lambda e: f"seat {e['seat']} aims at seat {e['target']}",
    "GunReturned": lambda e: f"seat {e['seat']}'s Gun goes back to the centre",
    "Shot": lambda e: f"seat {e['by']} SHOOTS seat {e['seat']}",
    "Wounded": lambda e: f"seat {e['seat']} is a leader: wounded, not out",
    "Eliminated": lambda e: f"seat {e['seat']} is eliminated ({e['reason']})",
    "EquipmentPlayed": lambda e: f"seat {e['seat']} plays {e['card']}{_target(e)}",
    "EquipmentDrawn": lambda e: f"seat {e['seat']} draws "
    + _secret(e["card"], "{}", "an Equipment card") + f" ({e['why']})",
    "Arranged": lambda e: f"seat {e['seat']} lays its cards face down again"
    + _secret(e["cards"] and _layout(e["cards"]), " as {}"),
    "EquipmentReturned": lambda e: f"seat {e['seat']} puts "
    + _secret(e["card"], "{}", "an Equipment card") + f" at the bottom of the deck ({e['why']})",
    "EquipmentTaken": lambda e: f"seat {e['by']} takes seat {e['seat']}'s Equipment card"
    + _secret(e["card"], ": {}"),
    "EquipmentSeen": lambda e: f"seat {e['by']} looks at seat {e['seat']}'s Equipment card"
    + _secret(e["card"], ": {}"),
    "PolygraphSeen": lambda e: f"seat {e['by']} sees seat {e['seat']}'s cards"
    + _secret(e["cards"] and _layout(e["cards"]), ": {}"),
    "CardsSwapped": lambda e: f"seat {e['seat_a']}'s card {e['pos_a']} and seat {e['seat_b']}'s card "
    f"{e['pos_b']} change places",
    "CardReceived": lambda e: f"seat {e['seat']} now holds {e['card']} at position {e['pos']}",
    "Revived": lambda e: f"seat {e['seat']} is revived and keeps {e['card']}",
    "TurnOrderReversed": lambda e: "play now goes the other way",
    "ExtraTurnGranted": lambda e: f"seat {e['seat']} will take an extra turn",
    "NextTurnGiven": lambda e: f"seat {e['seat']} takes the next turn",
    "AllegianceInverted": lambda e: f"seat {e['seat']}'s Honest and Crooked cards now count "
    + ("the other way" if e["inverted"] else "as printed again"),
}


PRINTERS["gcbc"] = GCBCPrinter
