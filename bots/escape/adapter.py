"""Escape Plan in the OpenSpiel and PettingZoo adapters: its view encoder (the bounds are the game's,
``solver/games/escape/bounds.py``).

Found by :func:`bots.adapters.specs.spec_for` through :func:`adapter_spec`. The encoder reads the view's
JSON and the game's static configuration (its city and content) only, so it shows a seat exactly what
its view holds: another seat's Locker and Exit tiles are face down there (``locker:green:?``) and its
plan card absent until the game is over.
"""

from __future__ import annotations

import itertools
from typing import Any, Final

import numpy as np

from bots.adapters.specs import AdapterSpec, Encoder, Vector, check_game, one_hot, ratio
from solver.core import Game, View
from solver.games.escape import codec
from solver.games.escape.content import ASSETS, EQUIPMENT, FIXERS, LOCKERS, POLICE
from solver.games.escape.phases import PARTS

#: The state's phases, as a view names them (``state.phase``).
PHASES: Final = ("setup", "income", "patrol", "city", "turn order", *PARTS, "change of day", "over")
#: What a board space can hold (``board.Piece`` order), as the slot text starts.
PIECES: Final = ("empty", "asset", "equipment", "fixer", "locker", "exit", "contact")
#: Scales of counts without a fixed top in the content (each reads 1 from there on).
MONEY_SCALE: Final = 100.0
WOUND_SCALE: Final = 6.0
EXTRA_SCALE: Final = 3.0
GANG_SCALE: Final = 4.0
OFFICERS_PER_TYPE: Final = 10.0  # Game Components: 30 officers, 10 of each type
HANDCUFFS: Final = 10.0
GAS_SUPPLY: Final = 6.0
GANG_MEMBERS: Final = 8.0
SITES: Final = 9


class EscapeEncoder:
    """Escape Plan views as vectors; one layout per configured game, the same for every seat.

    With N seats, P pawns (N, plus Sandra at 2 players), T City tiles, L Locations, K distinct contact
    cards, C plan cards, J Locations on Inspector cards, I item, S contact and U unlocked-asset spaces,
    and a space's block ``7 + 3 + M`` (piece one-hot, used or face down, hidden value, value / the
    largest tile value, its ident one-hot over M = the largest of assets, equipment, fixers, locker
    colours, exit stacks, K)::

        block        size              content
        observer     N                 the observing seat, one-hot
        acting       N                 the seat that decides now (none at chance or the end)
        when         3 + 12            day one-hot, phase one-hot (set-up .. Dawn, change of day, over)
        order        P * P             each pawn's place in the turn order, one-hot
        tiles        T * 10            placed, q and r over the placement region, rotation one-hot, on a
                                       stack's display
        stacks       4                 tiles face down / the stack's size
        officers     T * 3             an officer of each type on the tile
        bag          6                 officers in the bag / 10, returning / 10, per type
        sites        6 * 6 + 3 * 3     each business space's Business tile, each safe house space's
                                       Safe House tile, one-hot
        keys         3 * 3             keys of each colour on each Safe House / keys per colour
        gangs        1 + 4             members left / 8, members on each gang Location / 2
        contacts     K + 1             copies of each card on the display / its copies, the deck / cards
        piles        3 + 2 + 6 + 3 + 3 + 4  locker stacks, exit stacks (/ their sizes), each closed exit's
                                       stack one-hot, exits pending, patrol cards per exit / 2, patrol
                                       deck, Inspector deck, handcuffs / 10, gas cans / 6
        location     P * L             each pawn's Location, one-hot
        boards       P * board         money / 100, income cubes, rested, first aid up, green and red
                                       wounds, handcuffs, notoriety cubes (bottom, red, blue), the row
                                       one-hot, the spaces (I + S + U), gas cans, 3 keys (colour one-hot,
                                       unused), extra actions, gang members, gang markers controlled and
                                       left, businesses 6, safe houses 3, group bonuses 3
        out          2 * N             escaped, arrested
        plan         C                 this seat's plan card, one-hot
        plans        N * C             every plan card, once the game is over
        cubes        9 * P * 3         each pawn's cubes per site and hex (amount, income, red)
        supply       4 + 8             equipment left / its count, each Fixer tile left
        inspector    J                 Sandra's Inspector cards left, per Location depicted / its copies
        end          1                 the game is over
    """

    def __init__(self, game: Game) -> None:
        from solver.games.escape.rules import EscapeGame

        self.game = check_game(game, EscapeGame, "escape encoder")
        g = self.game
        city, content = g.city, g.content
        n = self.seats = g.num_players
        p = self.pawns = n + (1 if n == 2 else 0)
        self.tiles = len(city.tiles)
        self.tile_index = {t.name: t.id for t in city.tiles}
        self.locations = len(city.locations)
        self.location_index = {name: k for k, name in enumerate(g.location_names)}
        names = list(dict.fromkeys(c.name for c in content.contacts))
        self.card_index = {name: k for k, name in enumerate(names)}
        self.card_copies = [sum(c.name == name for c in content.contacts) for name in names]
        self.plan_index = {pl.name: k for k, pl in enumerate(content.plans)}
        inspector = [f"{kind.replace('_', ' ')} {label}" for kind, label in content.inspector]
        self.inspector_index = {name: k for k, name in enumerate(dict.fromkeys(inspector))}
        self.inspector_copies = [inspector.count(name) for name in self.inspector_index]
        self.businesses = city.of_kind("business")
        self.houses = city.of_kind("safe_house")
        self.gang_spots = city.of_kind("gang")
        layout = content.board
        self.rows = content.notoriety.top - content.notoriety.bottom + 1
        self.idents = max(len(ASSETS), len(EQUIPMENT), len(FIXERS), len(LOCKERS), len(content.exit_tiles),
                          len(names))
        self.slot_size = len(PIECES) + 3 + self.idents
        self.spaces = layout.item_spaces + layout.contact_spaces + len(layout.asset_costs)
        tile_values = [v for stack in content.lockers for v in stack.values]
        tile_values += [v for values in content.exit_tiles for v in values]
        self.max_value = max([1, *tile_values])
        # 10 counts and flags, the row, the spaces, gas cans, 3 keys of 4, 4 gang and extra counts, 12 flags
        self.board_size = 10 + self.rows + self.spaces * self.slot_size + 1 + 12 + 4 + 12
        plans = len(content.plans)
        sizes = [("observer", n), ("acting", n), ("when", 3 + len(PHASES)), ("order", p * p),
                 ("tiles", self.tiles * 10), ("stacks", 4), ("officers", self.tiles * 3), ("bag", 6),
                 ("sites", len(self.businesses) * 6 + len(self.houses) * 3), ("keys", 9),
                 ("gangs", 1 + len(self.gang_spots)), ("contacts", len(names) + 1),
                 ("piles", 3 + 2 + 6 + 3 + 3 + 4), ("location", p * self.locations),
                 ("boards", p * self.board_size), ("out", 2 * n), ("plan", plans), ("plans", n * plans),
                 ("cubes", SITES * p * 3), ("supply", 4 + len(FIXERS)),
                 ("inspector", len(self.inspector_index)), ("end", 1)]
        starts = itertools.accumulate((size for _, size in sizes), initial=0)
        self.at: dict[str, int] = dict(zip((name for name, _ in sizes), starts, strict=False))
        self.size = sum(size for _, size in sizes)

    def encode(self, view: View) -> Vector:
        """The view as a float32 vector (see the class docstring for the layout)."""
        d: dict[str, Any] = view.to_json()
        g = self.game
        city, content = g.city, g.content
        n, p = self.seats, self.pawns
        out = np.zeros(self.size, dtype=np.float32)
        at = self.at
        out[at["observer"] + view.seat] = 1.0
        one_hot(out, at["acting"], d["decision"]["seat"], n)
        one_hot(out, at["when"], int(d["day"]) - 1, 3)
        one_hot(out, at["when"] + 3, PHASES.index(d["phase"]) if d["phase"] in PHASES else None, len(PHASES))
        for place, pawn in enumerate(d["order"][:p]):
            one_hot(out, at["order"] + int(pawn) * p, place, p)
        shown = {name for name in d["display"] if name}
        radius = codec.REGION_RADIUS
        for q, r, name, rot in d["placed"]:
            base = at["tiles"] + self.tile_index[name] * 10
            out[base] = 1.0
            out[base + 1] = ratio(q + radius, 2 * radius)
            out[base + 2] = ratio(r + radius, 2 * radius)
            one_hot(out, base + 3, int(rot), 6)
        for name in shown:
            out[at["tiles"] + self.tile_index[name] * 10 + 9] = 1.0
        for s, size in enumerate(d["stack_sizes"][:4]):
            out[at["stacks"] + s] = ratio(size, max(1, len(city.stacks["ABCD"[s]])))
        for name, cops in d["officers"].items():
            for cop in cops:
                out[at["officers"] + self.tile_index[name] * 3 + POLICE.index(cop)] = 1.0
        for i in range(3):
            out[at["bag"] + i] = ratio(d["bag"][i], OFFICERS_PER_TYPE)
            out[at["bag"] + 3 + i] = ratio(d["returning"][i], OFFICERS_PER_TYPE)
        self._sites(out, d)
        self._piles(out, d)
        for pawn, where in enumerate(d["location"][:p]):
            base = at["location"] + pawn * self.locations
            one_hot(out, base, self.location_index.get(where), self.locations)
        for pawn, board in enumerate(d["boards"][:p]):
            self._board(out, at["boards"] + pawn * self.board_size, board)
        for s in range(n):
            out[at["out"] + s] = float(bool(d["escaped"][s]))
            out[at["out"] + n + s] = float(bool(d["arrested"][s]))
        plans = len(content.plans)
        one_hot(out, at["plan"], self.plan_index.get(d["plan"]) if d["plan"] else None, plans)
        for s, name in enumerate((d.get("plans") or [])[:n]):
            if name is not None:
                one_hot(out, at["plans"] + s * plans, self.plan_index.get(name), plans)
        for site, cubes in enumerate(d["cubes"][:SITES]):
            for pawn, hex_name in cubes:
                if 0 <= int(pawn) < p and hex_name in ("amount", "income", "red"):
                    k = at["cubes"] + (site * p + int(pawn)) * 3 + ("amount", "income", "red").index(hex_name)
                    out[k] = 1.0
        for e, left in enumerate(d["equipment_left"][:4]):
            out[at["supply"] + e] = ratio(left, max(1, content.equipment_counts[e]))
        for f in d["fixers_left"]:
            one_hot(out, at["supply"] + 4, int(f), len(FIXERS))
        for name in d.get("inspector_left", []):
            card = self.inspector_index.get(name)
            if card is not None:
                out[at["inspector"] + card] += 1.0 / self.inspector_copies[card]
        out[at["end"]] = float(bool(d["over"]))
        # counts stay within 1 by their scales; the clip keeps the contract regardless
        np.clip(out, 0.0, 1.0, out=out)
        return out

    def _sites(self, out: Vector, d: dict[str, Any]) -> None:
        at = self.at
        names = self.game.location_names
        for i, loc in enumerate(self.businesses):
            one_hot(out, at["sites"] + i * 6, _minus_one(d["business_at"].get(names[loc])), 6)
        base = at["sites"] + len(self.businesses) * 6
        for i, loc in enumerate(self.houses):
            one_hot(out, base + i * 3, _minus_one(d["safe_house_at"].get(names[loc])), 3)
        per_colour = max(1, self.game.content.keys_per_colour)
        for h, keys in enumerate(d["keys"][:3]):
            for colour in keys:
                if 0 <= int(colour) < 3:
                    out[at["keys"] + h * 3 + int(colour)] += 1.0 / per_colour
        out[at["gangs"]] = ratio(d["gang_supply"], GANG_MEMBERS)
        for i, loc in enumerate(self.gang_spots):
            out[at["gangs"] + 1 + i] = ratio(d["gangs"].get(names[loc], 0), 2)
        base = at["contacts"]
        for name in d["contact_display"]:
            k = self.card_index.get(name)
            if k is not None:
                out[base + k] += 1.0 / self.card_copies[k]
        out[base + len(self.card_index)] = ratio(d["contact_deck"], max(1, len(self.game.content.contacts)))

    def _piles(self, out: Vector, d: dict[str, Any]) -> None:
        content = self.game.content
        k = self.at["piles"]
        for i, size in enumerate(d["lockers"][:3]):
            out[k + i] = ratio(size, max(1, len(content.lockers[i].values)))
        for i, size in enumerate(d["exit_stacks"][:2]):
            out[k + 3 + i] = ratio(size, max(1, len(content.exit_tiles[i])))
        for e, stack in d["exit_stack_at"].items():
            if 1 <= int(e) <= 3:
                one_hot(out, k + 5 + (int(e) - 1) * 2, int(stack), 2)
        for e in d["exit_pending"]:
            one_hot(out, k + 11, int(e) - 1, 3)
        for e in range(3):
            out[k + 14 + e] = ratio(d["patrol_on"][e], 2)
        out[k + 17] = ratio(d["patrol_deck"], max(1, len(content.patrol)))
        out[k + 18] = ratio(d["inspector_deck"], max(1, len(content.inspector)))
        out[k + 19] = ratio(d["handcuffs"], HANDCUFFS)
        out[k + 20] = ratio(d["gas_supply"], GAS_SUPPLY)

    def _board(self, out: Vector, k: int, b: dict[str, Any]) -> None:
        layout = self.game.content.board
        track = self.game.content.notoriety
        out[k] = ratio(b["money"], MONEY_SCALE)
        out[k + 1] = ratio(b["income_cubes"], max(1, layout.income_cubes))
        out[k + 2] = float(bool(b["rested"]))
        out[k + 3] = float(bool(b["first_aid_up"]))
        out[k + 4] = ratio(b["green"], max(1, layout.green_wounds))
        out[k + 5] = ratio(b["red"], WOUND_SCALE)
        out[k + 6] = ratio(b["handcuffs"], max(1, layout.contact_spaces))
        for i, key in enumerate(("cubes_bottom", "cubes_red", "cubes_blue")):
            out[k + 7 + i] = ratio(b[key], max(1, layout.notoriety_cubes))
        k += 10
        one_hot(out, k, int(b["notoriety"]) - track.bottom, self.rows)
        k += self.rows
        for text in [*b["items"], *b["contacts"], *b["unlocked"]][: self.spaces]:
            self._slot(out, k, str(text))
            k += self.slot_size
        k += (self.spaces - len(b["items"]) - len(b["contacts"]) - len(b["unlocked"])) * self.slot_size
        out[k] = ratio(b["gas_cans"], max(1, layout.max_gas_cans))
        k += 1
        for i, key in enumerate(b["keys"][:3]):
            if key:
                colour, face = str(key).split(":")[:2]
                one_hot(out, k + i * 4, LOCKERS.index(colour) if colour in LOCKERS else None, 3)
                out[k + i * 4 + 3] = float(face == "up")
        k += 12
        out[k] = ratio(b["extra_actions"], EXTRA_SCALE)
        out[k + 1] = ratio(len(b["gang_members"]), GANG_SCALE)
        out[k + 2] = ratio(len(b["gang_controlled"]), GANG_SCALE)
        out[k + 3] = ratio(b["gang_markers"], max(1, layout.gang_markers))
        k += 4
        for i, flag in enumerate([*b["businesses"][:6], *b["safe_houses"][:3], *b["group_bonus"][:3]]):
            out[k + i] = float(bool(flag))

    def _slot(self, out: Vector, k: int, text: str) -> None:
        """One board space: piece, used or face down, hidden value, value, ident (``board._slot_text``)."""
        parts = text.split(":")
        if parts[0] not in PIECES:
            return
        out[k + PIECES.index(parts[0])] = 1.0
        flags = k + len(PIECES)
        ident: int | None = None
        if parts[0] == "asset":
            ident = ASSETS.index(parts[1]) if parts[1] in ASSETS else None
            out[flags] = float(parts[2:] == ["used"])
        elif parts[0] in ("equipment", "fixer"):
            names = EQUIPMENT if parts[0] == "equipment" else FIXERS
            ident = names.index(parts[1]) if parts[1] in names else None
            out[flags] = float(parts[2:] == ["down"])
        elif parts[0] == "contact":
            cards = self.game.content.contacts
            c = int(parts[1])
            ident = self.card_index.get(cards[c].name) if 0 <= c < len(cards) else None
            out[flags] = float(parts[2:] == ["down"])
        elif parts[0] in ("locker", "exit"):
            ident = LOCKERS.index(parts[1]) if parts[0] == "locker" and parts[1] in LOCKERS else \
                int(parts[1]) if parts[0] == "exit" else None
            if parts[2] == "?":
                out[flags + 1] = 1.0  # another seat's tile: face down, value unknown
            else:
                out[flags + 2] = ratio(int(parts[2]), self.max_value)
                out[flags] = float(parts[3:] == ["down"])
        one_hot(out, flags + 3, ident, self.idents)


def _minus_one(number: Any) -> int | None:
    return None if number is None else int(number) - 1


def encoder(game: Game) -> Encoder:
    """The view encoder of one configured Escape Plan game."""
    return EscapeEncoder(game)


def adapter_spec() -> AdapterSpec:
    """Escape Plan's adapter spec: the encoder; the history is the seat's recall."""
    return AdapterSpec(encoder=encoder, recall_keys=("history",))
