"""Police Precinct in the OpenSpiel and PettingZoo adapters: its view encoder (the bounds are the
game's, ``solver/games/precinct/bounds.py``).

Found by :func:`bots.adapters.specs.spec_for` through :func:`adapter_spec`.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from bots.adapters.specs import AdapterSpec, Encoder, Vector, check_game, one_hot, ratio
from solver.core import Game, View
from solver.games.precinct import codec

#: roll kinds a view's ``roll`` may name
ROLL_KINDS: Final = ("investigate", "arrest", "escapees", "emergency", "officer_down", "accuse")
#: scales of counts that have no fixed top (each reads 1 from there on)
DONUT_SCALE: Final = 10.0
CARD_SCALE: Final = 9.0
DICE_SCALE: Final = 40.0
HOODS: Final = 6
MARKERS: Final = 12  # ten Unknown Circumstances kinds, face down, none


class PrecinctEncoder:
    """Police Precinct views as vectors; one layout per configured game, the same for every seat.

    With N seats, C cops (N; 2 in the solo game), S streets, B buildings, E event kinds, P police card
    kinds, G gangs, V support vehicles, 16 board slots and 4 stacks (every entry in [0, 1])::

        block          size                 content
        observer       N                    the observing seat, one-hot
        acting         N                    the seat that decides now, one-hot (none at chance or the end)
        turn           C                    whose turn it is (cop), one-hot
        tracks         2 + 7                turn track / FAIL turn, crime / FAIL, murderer's hood 0..6 one-hot
        cops           C * (S + 12 + 2)     street one-hot, marked, donuts / 10, cards / 9, 4 upgrades,
                                            SWAT / 2, Federal Agent token, out, injured, loyalty shown
                                            (good, dirty)
        support        V * S                each support vehicle's street, one-hot
        hoods          6 * (2 + G)          punks / 6, patrol officers / 5, the gang one-hot
        supplies       3                    punks / the game's, officers in stock / 5, donuts / the box's
        board          16 * (1 + E + 12 + 2) a card there, its kind one-hot, its marker one-hot (ten
                                            kinds, face down, none), Urgent!, its counter / 64
        stacks         4 * (B + 4)          building one-hot, cards / deck size, evidence left / deck
                                            evidence, gone, evidence placed / needed
        decks          3                    police deck / 44, event deck / its total, marker stack / 20
        roll           6 + C + 1 + 4 + 6 + 16 + 2  kind one-hot, cop one-hot, dice / 40, stack, hood, slot
                                            one-hot, sabotage donuts / 10, evidence in the own draw / cards
        hand           P                    this seat's cards per kind / 9
        loyalty        2                    this seat's loyalty card: good, dirty (none before the deal)
        known          E                    the top event card this seat has looked at, one-hot
        end            3                    playing, the good cops won, they lost

    The known order of looked-at investigation cards is left out (a few bits of a seat's memory).
    """

    def __init__(self, game: Game) -> None:
        from solver.games.precinct.rules import PrecinctGame

        self.game = check_game(game, PrecinctGame, "precinct encoder")
        g = self.game
        c = g.content
        n = self.seats = g.num_players
        self.cops = 2 if n == 1 else n
        self.streets = len(g.city.streets)
        self.street_ids = g.city.street_ids
        self.building_index = {name: k for k, name in enumerate(sorted(g.city.buildings))}
        self.event_index = {e.name: k for k, e in enumerate(c.events)}
        self.police_index = {p.name: k for k, p in enumerate(c.police)}
        self.gang_index = {name: k for k, name in enumerate(c.gangs)}
        self.marker_index = {name: k for k, name in enumerate(g.unknown_names)}
        self.deck_index = {name: k for k, name in enumerate(g.deck_names)}
        self.upgrade_index = {name: k for k, name in enumerate(g.upgrade_names)}
        self.vehicles = g.support_vehicles
        self.police_total = max(1, sum(c.police_counts))
        self.event_total = max(1, sum(c.event_counts))
        self.marker_total = max(1, sum(c.unknown_counts))
        e, b, p, gangs = len(c.events), len(self.building_index), len(c.police), len(c.gangs)
        sizes = [("observer", n), ("acting", n), ("turn", self.cops), ("tracks", 9),
                 ("cops", self.cops * (self.streets + 14)), ("support", self.vehicles * self.streets),
                 ("hoods", HOODS * (2 + gangs)), ("supplies", 3),
                 ("board", codec.MAX_SLOTS * (1 + e + MARKERS + 2)),
                 ("stacks", 4 * (b + 4)), ("decks", 3),
                 ("roll", len(ROLL_KINDS) + self.cops + 1 + 4 + HOODS + codec.MAX_SLOTS + 2),
                 ("hand", p), ("loyalty", 2), ("known", e), ("end", 3)]
        self.at: dict[str, int] = {}
        k = 0
        for name, size in sizes:
            self.at[name] = k
            k += size
        self.size = k
        self._cop_block = self.streets + 14
        self._slot_block = 1 + e + MARKERS + 2
        self._stack_block = b + 4
        self._gangs = gangs

    def encode(self, view: View) -> Vector:
        """The view as a float32 vector (see the class docstring for the layout)."""
        d: dict[str, Any] = view.to_json()
        g = self.game
        c = g.content
        n = self.seats
        out = np.zeros(self.size, dtype=np.float32)
        at = self.at
        out[at["observer"] + view.seat] = 1.0
        one_hot(out, at["acting"], d["decision"]["seat"], n)
        if d.get("turn"):
            one_hot(out, at["turn"], d["turn"]["cop"], self.cops)
        out[at["tracks"]] = ratio(d["turn_track"], c.fail_turn)
        out[at["tracks"] + 1] = ratio(d["crime"], c.crime_fail)
        one_hot(out, at["tracks"] + 2, d["murderer"], 7)
        loyalty = d.get("loyalty") or []
        for i, cop in enumerate(d["cops"][: self.cops]):
            base = at["cops"] + i * self._cop_block
            one_hot(out, base, self.street_ids.get(cop["street"]), self.streets)
            k = base + self.streets
            out[k] = float(bool(cop["marked"]))
            out[k + 1] = ratio(cop["donuts"], DONUT_SCALE)
            out[k + 2] = ratio(cop["cards"], CARD_SCALE)
            for u in cop["upgrades"]:
                one_hot(out, k + 3, self.upgrade_index.get(u), 4)
            out[k + 7] = ratio(cop["swat"], 2)
            out[k + 8] = ratio(cop["fed"], 1)
            out[k + 9] = float(bool(cop["out"]))
            out[k + 10] = float(bool(cop.get("hospital")))
            shown = loyalty[cop["seat"]] if cop["seat"] < len(loyalty) else None
            if shown is not None:
                out[k + 11 + (1 if shown == "dirty" else 0)] = 1.0
        for v, street in enumerate(d["support"][: self.vehicles]):
            one_hot(out, at["support"] + v * self.streets, self.street_ids.get(street), self.streets)
        for h in range(HOODS):
            base = at["hoods"] + h * (2 + self._gangs)
            out[base] = ratio(d["punks"][h], 6)
            out[base + 1] = ratio(d["patrol"][h], 5)
            gang = d["gangs"][h]
            one_hot(out, base + 2, None if gang is None else self.gang_index.get(gang), self._gangs)
        out[at["supplies"]] = ratio(d["punk_supply"], max(1, g.punks))
        out[at["supplies"] + 1] = ratio(d["patrol_stock"], 5)
        out[at["supplies"] + 2] = ratio(d["donut_supply"], max(1, c.donuts))
        self._encode_board(out, d)
        for s in d["stacks"]:
            k = self.deck_index[s["deck"]]
            base = at["stacks"] + k * self._stack_block
            one_hot(out, base, self.building_index.get(s["building"]), len(self.building_index))
            b = base + len(self.building_index)
            total, evidence = c.decks[k][0] + c.decks[k][1], c.decks[k][0]
            out[b] = ratio(s["size"], max(1, total))
            out[b + 1] = ratio(s["evidence"], max(1, evidence))
            out[b + 2] = float(bool(s["gone"]))
            out[b + 3] = ratio(d["placed"][k], max(1, evidence))
        out[at["decks"]] = ratio(d["police_deck"], self.police_total)
        out[at["decks"] + 1] = ratio(d["event_deck"], self.event_total)
        out[at["decks"] + 2] = ratio(d["unknown_stack"], self.marker_total)
        self._encode_roll(out, d.get("roll"))
        for h in d["hand"]:
            kind = self.police_index.get(h["card"])
            if kind is not None:
                out[at["hand"] + kind] += 1.0 / CARD_SCALE
        mine = d.get("my_loyalty")
        if mine is not None:
            out[at["loyalty"] + (1 if mine == "dirty" else 0)] = 1.0
        top = [t for t in d["known"]["events"]["top"][:1] if t]
        if top:
            one_hot(out, at["known"], self.event_index.get(top[0]), len(self.event_index))
        result = int(d["result"])
        out[at["end"] + (0 if result == 0 else 1 if result > 0 else 2)] = 1.0
        # sums of counts stay within 1 by their scales; the clip keeps the contract regardless
        np.clip(out, 0.0, 1.0, out=out)
        return out

    def _encode_board(self, out: Vector, d: dict[str, Any]) -> None:
        e = len(self.event_index)
        for card in d["board"]:
            slot = int(card["slot"]) - 1
            if not 0 <= slot < codec.MAX_SLOTS:
                continue
            base = self.at["board"] + slot * self._slot_block
            out[base] = 1.0
            one_hot(out, base + 1, self.event_index.get(card["card"]), e)
            u = card["unknown"]
            marker: int | None = MARKERS - 1 if u is None else MARKERS - 2
            if u is not None and u != "face down":
                marker = self.marker_index.get(u)
            one_hot(out, base + 1 + e, marker, MARKERS)
            out[base + 1 + e + MARKERS] = float(bool(card["urgent"]))
            out[base + 2 + e + MARKERS] = ratio(int(card["data"]), 64)

    def _encode_roll(self, out: Vector, roll: Any) -> None:
        if not roll:
            return
        base = self.at["roll"]
        kind = roll.get("kind")
        one_hot(out, base, ROLL_KINDS.index(kind) if kind in ROLL_KINDS else None, len(ROLL_KINDS))
        k = base + len(ROLL_KINDS)
        one_hot(out, k, roll.get("cop"), self.cops)
        k += self.cops
        out[k] = ratio(roll.get("n", 0), DICE_SCALE)
        one_hot(out, k + 1, roll.get("deck"), 4)
        hood = roll.get("hood")
        one_hot(out, k + 5, None if hood is None else hood - 1, HOODS)
        one_hot(out, k + 5 + HOODS, roll.get("slot"), codec.MAX_SLOTS)
        k += 5 + HOODS + codec.MAX_SLOTS
        out[k] = ratio(roll.get("sabotage", 0), DONUT_SCALE)
        cards = roll.get("cards")
        if cards:
            out[k + 1] = sum(bool(x) for x in cards) / len(cards)


def encoder(game: Game) -> Encoder:
    """The view encoder of one configured Police Precinct game."""
    return PrecinctEncoder(game)


def adapter_spec() -> AdapterSpec:
    """Police Precinct's adapter spec: the encoder (seats, ids and bounds come from the game's spec)."""
    return AdapterSpec(encoder=encoder)
