"""The Escape Plan printer for ``copsolver play escape``: events as lines, the city and boards from a view.

:meth:`EscapePrinter.describe_view` prints what one seat knows, from its view's JSON alone: the day and
its part, every placed City tile (cell, rotation, Land zones, Locations with their Business and Safe
House numbers, gang members, exits open or closed, officers by type, the pawns standing there), the
contact display, the notoriety track with each pawn's marker, the income cubes of every board, the
cubes on the Business and Safe House displays, each board, and the seat's own Escape Plan card. Another
seat's Locker and Exit tiles are face down in the view (``locker:green:?``), so they print as face down;
its plan card is not in the view until the game is over. Money is printed for every board: the view
carries it because every change of it is public (``docs/escape-rules.md``, "Hidden information").

Events print one line each; a hidden event (a plan dealt, a tile kept) prints as the audience sees it.
The spectator sees the owner's copy of a split event and skips the redacted twin the others get.
"""

from __future__ import annotations

from typing import Any, Final

from bots.display import PRINTERS, GamePrinter, numbered
from solver.core import Event, Game, Seat, View
from solver.games.escape.city import City, LandType, Tile
from solver.games.escape.content import Content
from solver.games.escape.phases import PARTS

#: Letters for the officer types on a tile (county, federal, swat), as on the drawing.
OFFICER_LETTERS: Final = {"county": "C", "federal": "F", "swat": "S"}
#: Event lines that are the event's fields in a sentence (``seat`` and ``pawn`` named as the table does).
_TEMPLATES: Final = {
    "OfficerMoved": "{seat} moves a {police} officer {source} -> {dest}",
    "Arrested": "{seat} is ARRESTED (could not pay ${cost}k: {why})",
    "CubePlaced": "{pawn} puts a cube on {site} ({hex} hex)",
    "BusinessClosed": "Business {business} closes after {visits} visits",
    "ContactTaken": "{seat} takes {card} ({how})",
    "TilesDrawn": "{seat} secretly draws {count} tiles from the {stack}",
    "Bonus": "{seat} takes the {group} bonus: {choice}",
    "InspectorCard": "Sandra reveals Inspector card {card} and goes to {location}",
    "KeyDiscarded": "Sandra discards a {colour} key from Safe House {house}",
    "FixerDiscarded": "Sandra discards Fixer tile {fixer}",
    "TileDiscarded": "Sandra discards a tile of the {stack} unseen",
    "SandraDisc": "Sandra takes an extra action disc ({why})",
}
#: Events whose redacted twin (the copy for the seats that may not know) a spectator skips.
_REDACTED: Final = {"PlanDealt": ("plan", "?"), "TileKept": ("value", None)}


def city_of(game: Game) -> City:
    """The game's City (typed; ``Game`` does not declare it)."""
    city: City = game.city  # type: ignore[attr-defined]
    return city


def content_of(game: Game) -> Content:
    """The game's cards and tracks (typed; ``Game`` does not declare them)."""
    content: Content = game.content  # type: ignore[attr-defined]
    return content


def pawn_name(game: Game, pawn: int) -> str:
    """``seat 2``, or ``Sandra`` for pawn ``n`` of a 2-player game ("Only 2 Player")."""
    return "Sandra" if pawn == game.num_players else f"seat {pawn}"


def tiles_by_name(game: Game) -> dict[str, Tile]:
    """The City tiles by name (views name tiles)."""
    return {t.name: t for t in city_of(game).tiles}


def part_text(data: dict[str, Any]) -> str:
    """``Day 2, Afternoon`` (or the phase under way before the day's turns)."""
    part = int(data["part"])
    when = PARTS[part] if 0 <= part < len(PARTS) and data["phase"] in PARTS else data["phase"]
    return f"Day {data['day']}, {when}"


def exit_open(data: dict[str, Any], number: int) -> bool:
    """Whether exit ``number`` (1..3) is open: fewer than 2 patrol cards on it ("2. Patrol")."""
    return int(data["patrol_on"][number - 1]) < 2


def open_exits(data: dict[str, Any]) -> list[int]:
    """The numbers of the open exits."""
    return [e for e in (1, 2, 3) if exit_open(data, e)]


def escape_cost(game: Game, data: dict[str, Any]) -> int:
    """What the next player to escape pays ("Escaping the City": the cost by leaving order)."""
    left = sum(bool(x) for x in data["escaped"])
    costs = content_of(game).escape_costs[game.num_players]
    return costs[min(left, len(costs) - 1)]


def location_label(game: Game, data: dict[str, Any], location: int) -> str:
    """A Location's name with what the view shows on it: Business/Safe House number, gang members,
    an exit's state."""
    name = game.location_names[location]  # type: ignore[attr-defined]
    loc = city_of(game).locations[location]
    extra = ""
    if name in data["business_at"]:
        extra = f" = Business {data['business_at'][name]}"
    elif name in data["safe_house_at"]:
        extra = f" = Safe House {data['safe_house_at'][name]}"
    elif name in data["gangs"]:
        extra = f", {data['gangs'][name]} gang members"
    elif loc.kind == "exit":
        extra = " (open)" if exit_open(data, int(loc.label)) else " (closed)"
    return str(name) + extra


def slot_text(game: Game, text: str, own: bool) -> str:
    """A board space's content in words (``contact:12:up`` names the card; a face-down tile of another
    seat stays a face-down tile)."""
    parts = text.split(":")
    head = parts[0]
    if head == "empty":
        return "-"
    if head == "asset":
        return parts[1].replace("_", " ") + (" (used)" if parts[2:] == ["used"] else "")
    if head in ("equipment", "fixer"):
        return f"{parts[1].replace('_', ' ')}" + (" (used)" if parts[2:] == ["down"] else "")
    if head == "contact":
        cards = content_of(game).contacts
        k = int(parts[1])
        name = cards[k].name if 0 <= k < len(cards) else f"contact {k}"
        return name + (" (used)" if parts[2:] == ["down"] else "")
    what = f"{parts[1]} locker tile" if head == "locker" else f"exit tile (stack {parts[1]})"
    if parts[2] == "?":
        return f"{what}, face down"
    return f"{what} ${parts[2]}k" + (" (yours)" if own else "")


def city_lines(game: Game, data: dict[str, Any]) -> list[str]:
    """The placed City tiles with their Land, Locations, officers and pawns."""
    tiles = tiles_by_name(game)
    names = game.location_names  # type: ignore[attr-defined]
    here: dict[str, list[str]] = {}
    for pawn, where in enumerate(data["location"]):
        if pawn < len(data["escaped"]) and (data["escaped"][pawn] or data["arrested"][pawn]):
            continue
        here.setdefault(where, []).append(pawn_name(game, pawn))
    lines = ["  City (cell q,r; rotation; Land; Locations [pawns]; officers):"]
    for q, r, name, rot in data["placed"]:
        tile = tiles[name]
        land = ", ".join(
            LandType(z.type).name.lower() + (" with ferry" if z.ferry else "") for z in tile.zones)
        cops = [OFFICER_LETTERS[p] for p in data["officers"].get(name, [])]
        extra = " helipad" if tile.helipad else ""
        lines.append(f"    ({q},{r}) {name}, rot {rot}{extra}: {land}; officers "
                     f"{' '.join(cops) if cops else 'none'}")
        for loc in tile.locations:
            pawns = here.get(names[loc], [])
            at = f"  [{', '.join(pawns)}]" if pawns else ""
            lines.append(f"        {location_label(game, data, loc)}{at}")
    shown = [t for t in data["display"] if t]
    lines.append(f"  Tile stacks A-D: {data['stack_sizes']} face down; on display: "
                 f"{', '.join(shown) if shown else 'none'}")
    return lines


def track_lines(game: Game, data: dict[str, Any]) -> list[str]:
    """The notoriety track (each pawn's row), the income cubes and the cube displays."""
    track = content_of(game).notoriety
    boards = data["boards"]
    rows: dict[int, list[str]] = {}
    for pawn, board in enumerate(boards):
        rows.setdefault(int(board["notoriety"]), []).append(pawn_name(game, pawn))
    marks = [f"{row}: {', '.join(who)}" for row, who in sorted(rows.items())]
    lines = [f"  Notoriety (rows {track.bottom}-{track.top}, lines at {', '.join(map(str, track.lines))}): "
             + "; ".join(marks)]
    lines.append("  Income cubes: " + ", ".join(
        f"{pawn_name(game, p)} {b['income_cubes']}" for p, b in enumerate(boards)))
    sites = [f"Business {s + 1}" for s in range(6)] + [f"Safe House {s + 1}" for s in range(3)]
    cubes = [f"{sites[s]}: " + ", ".join(f"{pawn_name(game, int(c[0]))} ({c[1]})" for c in site)
             for s, site in enumerate(data["cubes"]) if site]
    if cubes:
        lines.append("  Cubes on displays: " + "; ".join(cubes))
    exits = []
    for e in (1, 2, 3):
        state = "open" if exit_open(data, e) else "closed"
        stack = data["exit_stack_at"].get(str(e))
        exits.append(f"exit {e} {state}" + ("" if stack is None else f" (tile stack {stack})"))
    lines.append(f"  Exits: {', '.join(exits)}; patrol deck {data['patrol_deck']}; next escape costs "
                 f"${escape_cost(game, data)}k")
    lines.append(f"  Contact display: {', '.join(data['contact_display']) or 'empty'} "
                 f"(deck {data['contact_deck']})")
    if game.num_players == 2 and "inspector_left" in data:
        lines.append(f"  Sandra's Inspector cards left ({data['inspector_deck']}): "
                     + ", ".join(data["inspector_left"]))
    lines.append(f"  Officer bag county/federal/swat {data['bag']}; gang members left "
                 f"{data['gang_supply']}; keys on Safe Houses {data['keys']}; gas cans {data['gas_supply']}; "
                 f"lockers {data['lockers']}; exit stacks {data['exit_stacks']}")
    return lines


def board_lines(game: Game, data: dict[str, Any]) -> list[str]:
    """Every board as the seat sees it, and the seat's own plan card."""
    me = int(data["seat"])
    content = content_of(game)
    lines = ["  Boards:"]
    for pawn, b in enumerate(data["boards"]):
        who = pawn_name(game, pawn)
        if who == "Sandra":
            lines.append(f"    Sandra: notoriety {b['notoriety']}, extra actions {b['extra_actions']}")
            continue
        status = " ESCAPED" if data["escaped"][pawn] else " ARRESTED" if data["arrested"][pawn] else ""
        you = " (you)" if pawn == me else ""
        money = f"${b['money']}k" + (" behind your screen" if pawn == me else " (tracked)")
        lines.append(f"    {who}{you}{status} at {data['location'][pawn]}: {money}, wounds green "
                     f"{b['green']} red {b['red']}, handcuffs {b['handcuffs']}, gas cans {b['gas_cans']}, "
                     "extra actions "
                     f"{b['extra_actions']}, {'rested' if b['rested'] else 'not rested'}")
        own = pawn == me
        lines.append("      items: " + ", ".join(slot_text(game, s, own) for s in b["items"]))
        lines.append("      contacts: " + ", ".join(slot_text(game, s, own) for s in b["contacts"]))
        lines.append("      unlocked: " + ", ".join(slot_text(game, s, own) for s in b["unlocked"]))
        keys = [k for k in b["keys"] if k]
        visited = [str(i + 1) for i, v in enumerate(b["businesses"]) if v]
        houses = [str(i + 1) for i, v in enumerate(b["safe_houses"]) if v]
        lines.append(f"      keys {', '.join(keys) or 'none'}; businesses visited "
                     f"{', '.join(visited) or '-'}; safe houses {', '.join(houses) or '-'}; "
                     f"gang members {len(b['gang_members'])}")
    plan = data.get("plan")
    if plan is not None:
        card = next((p for p in content.plans if p.name == plan), None)
        entries = "" if card is None else ": " + " | ".join(
            " ".join("income" if v is None else f"${v}k" for v in group) for group in card.groups)
        lines.append(f"  Your Escape Plan card: {plan}{entries} (Businesses 1-3 | 4-6 | Safe Houses 1-3)")
    if data.get("plans"):
        lines.append("  Plan cards revealed: " + ", ".join(
            f"seat {s} {p}" for s, p in enumerate(data["plans"]) if p is not None))
    return lines


def view_lines(game: Game, data: dict[str, Any]) -> list[str]:
    """The whole printout of a view's JSON (no legal moves)."""
    head = f"  {part_text(data)}; turn order {', '.join(pawn_name(game, p) for p in data['order'])}"
    if data["over"]:
        head += f"; game over: {data['reason']}"
    return [head, *city_lines(game, data), *track_lines(game, data), *board_lines(game, data)]


class EscapePrinter(GamePrinter):
    """Escape Plan: events in words, the city and the boards from a view."""

    def seat_name(self, seat: Seat) -> str:
        """``seat 2`` (Sandra is never a seat)."""
        return f"seat {seat}"

    def render(self, event: Event) -> list[str]:
        """Lines for one Escape Plan event."""
        e = event.to_json()
        kind = e["kind"]
        redacted = _REDACTED.get(kind)
        if self.spectator and redacted is not None and e[redacted[0]] == redacted[1]:
            return []  # the spectator read the owner's copy already
        if kind == "GameOver":
            won = ", ".join(f"seat {s}" for s in e["winners"]) or "nobody"
            scores = ", ".join(f"seat {s}: {'-' if v is None else f'${v}k'}"
                               for s, v in enumerate(e["scores"]))
            self.winner_line = f"Winner: {won} ({e['reason']}; scores {scores})"
            return ["", self.winner_line]
        if kind == "Note" and e["what"] == "order":  # a new day's turns begin
            return ["", f"  -- {e['text']} --"]
        return [f"  {self._line(e)}"]

    def _line(self, e: dict[str, Any]) -> str:
        kind = e["kind"]
        g = self.game

        def who(key: str = "seat") -> str:
            return pawn_name(g, int(e[key]))

        if kind == "Note":
            return str(e["text"])
        if kind == "PlanDealt":
            return f"{who()} is dealt " + ("an Escape Plan card" if e["plan"] == "?" else e["plan"])
        if kind == "TilePlaced":
            return f"{who()} places {e['tile']} at {e['cell'][0]},{e['cell'][1]} rotation {e['rotation']}"
        if kind == "OfficerDrawn":
            back = "" if e["kept"] else " (same type: back to the bag)"
            return f"a {e['police']} officer for {e['tile']}{back}"
        if kind == "PatrolDrawn":
            return f"patrol card for {e['exit']}" + (": it closes" if e["closed"] else "")
        if kind == "Travelled":
            left = ", ".join(e["tiles"]) or "no tile"
            gas = f", {e['gas']} gas cans" if e["gas"] else ""
            return f"{who('pawn')} travels {e['start']} -> {e['dest']} (leaves {left}{gas})"
        if kind == "Wounded":
            cuffs = f", {e['handcuffs']} as handcuffs" if e["handcuffs"] else ""
            wounds = "1 wound" if e["wounds"] == 1 else f"{e['wounds']} wounds"
            return f"{who()} takes {wounds}{cuffs} ({e['why']})"
        if kind == "NotorietySettled":
            crossed = f", crossing line {', '.join(map(str, e['crossed']))}" if e["crossed"] else ""
            return f"{who('pawn')}'s notoriety {e['old']} -> {e['new']}{crossed}"
        if kind == "Unlocked":
            kept = "" if e["kept"] else " (no space: removed)"
            return f"{who()} unlocks {e['asset'].replace('_', ' ')}{kept} ({e['why']})"
        if kind == "Escaped":
            return f"{who()} ESCAPES the city, #{e['order'] + 1} to leave, paying ${e['cost']}k"
        if kind == "TileKept":
            value = "" if e["value"] is None else f" worth ${e['value']}k"
            return f"{who()} keeps a tile from the {e['stack']} face down on item {e['space']}{value}"
        if kind == "ContactsDiscarded":
            discs = f", taking {e['discs']} extra action discs" if e["discs"] else ""
            return f"Sandra discards {', '.join(e['cards']) or 'no contact'}{discs}"
        template = _TEMPLATES.get(kind)
        if template is not None:
            words = {k: v.replace("_", " ") if isinstance(v, str) else v for k, v in e.items()}
            words.update({k: pawn_name(g, int(e[k])) for k in ("seat", "pawn") if k in e})
            return template.format(**words)
        fields = ", ".join(f"{k}={v}" for k, v in e.items() if k != "kind")
        return f"{kind}: {fields}"

    def describe_view(self, view: View) -> list[str]:
        """The city, the tracks and the boards as the seat sees them, then the numbered legal moves."""
        lines = [f"Seat {view.seat}: {view.decision.prompt}", *view_lines(self.game, view.to_json())]
        lines.append("  Legal moves:")
        lines.extend(numbered([self.game.action_to_str(a) for a in view.legal_actions]))
        return lines


PRINTERS["escape"] = EscapePrinter
