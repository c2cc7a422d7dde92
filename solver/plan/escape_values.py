"""Escape Plan: what a Location, a route and a wound are worth to one seat, read from its view.

The value model of the ``heuristic`` bot (docs/escape-bots.md, "The value of a Visit" and "Day 3"),
kept in the engine so that the route planner (:mod:`solver.plan.escape_problem`) prices its prizes the
same way the bot does (``solver/`` never imports ``bots/``). :class:`Reader` reads one seat's view
(``view.to_json()``) and, optionally, a resampled state for public facts only; every value is in $k of
final score ("Final Scoring").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import comb
from typing import Any, Final

from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape import executive as ex
from solver.games.escape.board import PlayerBoard
from solver.games.escape.city import City, Layout, distance, reachable
from solver.games.escape.content import Asset, Content, Equipment, Locker, PlanCard

#: $k lost per red wound at the end ("Final Scoring": -$20k per Wound cube in the Red Wounds box)
WOUND: Final = 20.0
#: $k a wound costs when the green box is empty (a Handcuff card blocks a contact space, "Step 2: Avoid")
HANDCUFF_WOUND: Final = 30.0
#: $k one notoriety gained costs: the track's penalty grows about $5k a row past the first line
NOTORIETY: Final = 3.0
#: share of the best Visit one turn beyond a destination that counts toward the destination
LOOKAHEAD: Final = 0.5
#: what escaping is worth against staying: the whole score is lost when a player fails to escape
STAKE: Final = 400.0
#: $k the bot keeps for the escape's price and the $1k fees after the first escape, on day 3
FEES: Final = 4
#: an unlocked asset, valued by what using it later scores ("$10k per each Asset tile used")
UNLOCK_VALUE: Final = 6.0
#: an Extra Action disc: one more turn, usually one more Visit
DISC_VALUE: Final = 10.0

@lru_cache(maxsize=64)
def best_of_draws(values: tuple[int, ...], draws: int) -> float:
    """The expected best of ``draws`` tiles drawn without replacement from ``values`` ("Lockers" 2-3:
    the drawer keeps the best one)."""
    n = len(values)
    k = min(draws, n)
    if k <= 0:
        return 0.0
    ordered = sorted(values)
    # the i-th smallest is the best of the draw when it is drawn and every other tile drawn is below it
    return sum(v * comb(i, k - 1) for i, v in enumerate(ordered)) / comb(n, k)


_LAYOUTS: dict[tuple[int, tuple[tuple[int, int, int, int], ...]], tuple[City, Layout]] = {}


def _layout(city: City, placed: tuple[tuple[int, int, int, int], ...]) -> Layout:
    """The movement graph of a placed city (``(q, r, tile, rotation)`` rows), one per city and placement."""
    key = (id(city), placed)
    got = _LAYOUTS.get(key)
    if got is None or got[0] is not city:
        if len(_LAYOUTS) >= 128:
            _LAYOUTS.clear()
        got = _LAYOUTS[key] = (city, Layout.of(city, {(q, r): (t, k) for q, r, t, k in placed}))
    return got[1]


class Reader:
    """One decision's view with the lookups the rules need (names to ids, my board, officers per tile)."""

    def __init__(self, game: Any, data: Mapping[str, Any], st: Any | None = None) -> None:
        self.game = game
        self.data = data
        self.st = st
        self.city: City = game.city
        self.content: Content = game.content
        self.seat: int = int(data["seat"])
        self.n: int = game.num_players
        tile_ids = {t.name: i for i, t in enumerate(self.city.tiles)}
        self.tile_id = tile_ids
        self.loc_id = {name: i for i, name in enumerate(game.location_names)}
        self.placed_rows = tuple((int(q), int(r), tile_ids[name], int(k)) for q, r, name, k in data["placed"])
        self.cell_of = {t: (q, r) for q, r, t, _ in self.placed_rows}
        self.officers: dict[int, list[int]] = {
            tile_ids[name]: [codec.POLICE_NAMES.index(p) for p in types]
            for name, types in data["officers"].items()}
        self.pawn_loc = [self.loc_id[name] for name in data["location"]]
        self.me: PlayerBoard = PlayerBoard.from_json(data["boards"][self.seat], self.content)
        plan = data.get("plan")
        self.plan: PlanCard | None = next((p for p in self.content.plans if p.name == plan), None)
        self.day: int = int(data["day"])
        self.part: int = int(data["part"])
        self.escapes = sum(1 for e in data["escaped"] if e)
        self.business_at = {self.loc_id[k]: int(v) for k, v in data["business_at"].items()}
        self.safe_house_at = {self.loc_id[k]: int(v) for k, v in data["safe_house_at"].items()}
        self._layout: Layout | None = None
        self._base: dict[int, float] = {}
        #: an Extra Action disc is about to pay for this turn (the Night/Dawn decision)
        self.disc_pending = False
        self._turns: dict[tuple[int, int], dict[int, int]] = {}
        self._into: dict[int, dict[int, list[int]]] = {}

    # --- the city ------------------------------------------------------------------------------
    def layout(self) -> Layout:
        """The placed city's movement graph."""
        if self._layout is None:
            self._layout = self.st.layout() if self.st is not None else _layout(self.city, self.placed_rows)
        return self._layout

    def my_location(self) -> int:
        """This seat's Location."""
        return self.pawn_loc[self.seat]

    def tile_distance(self, a: int, b: int) -> int:
        """Hex distance between two placed tiles (10 when one is not placed)."""
        ca, cb = self.cell_of.get(a), self.cell_of.get(b)
        return distance(ca, cb) if ca is not None and cb is not None else 10

    def my_tile(self) -> int:
        """The tile of this seat's Location."""
        return self.city.locations[self.my_location()].tile

    def open_exit(self) -> int:
        """The exit Location one escapes through on day 3 ("Escaping the City"), -1 before it is known."""
        if self.day != 3 or self.part < 0:
            return -1
        open_exits = [e for e in (1, 2, 3) if self.data["patrol_on"][e - 1] < 2]
        if len(open_exits) != 1:
            return -1
        return self.city.labelled("exit", str(open_exits[0]))

    def exit_turns(self, loc: int) -> int:
        """Turns from ``loc`` to the open exit with the gas cans held (as if each turn could return them:
        an estimate); 99 when it cannot be reached or is not known."""
        return self.turns_to(self.open_exit(), loc, 3 + self.me.gas_cans)

    def candidate_exits(self) -> list[int]:
        """The exits that may still be the open one on day 3 (fewer than 2 patrol cards, "2. Patrol")."""
        out = []
        for e in (1, 2, 3):
            if self.data["patrol_on"][e - 1] < 2:
                loc = self.city.labelled("exit", str(e))
                if loc in self.layout().location_node:
                    out.append(loc)
        return out

    def turns_to(self, goal: int, loc: int, mp: int = 3) -> int:
        """Travels of ``mp`` MP from ``loc`` until one ends on ``goal`` (a breadth-first search backwards
        over every Location's one-turn reach without resources, stopping over only where a Travel surely
        may end); 99 when it cannot be reached."""
        turns = self._turns.get((goal, mp))
        if turns is None:
            layout = self.layout()
            turns = self._turns[(goal, mp)] = {}
            if goal >= 0 and goal in layout.location_node:
                into = self.into(mp)
                turns[goal] = 0
                frontier = [goal]
                while frontier:
                    nxt = []
                    for dst in frontier:
                        if dst != goal and not self.stopover(dst):
                            continue
                        for src in into.get(dst, []):
                            if src not in turns:
                                turns[src] = turns[dst] + 1
                                nxt.append(src)
                    frontier = nxt
                # a Travel never ends where it starts ("Step 1: Travel"): from the goal itself one
                # leaves and comes back
                back = [turns[x] for x in reachable(layout, goal, mp) if x != goal and x in turns
                        and self.stopover(x)]
                turns[goal] = 1 + min(back) if back else 99
        return turns.get(loc, 99)

    def into(self, mp: int) -> dict[int, list[int]]:
        """Location -> the Locations one ``mp``-MP Travel without resources reaches it from."""
        got = self._into.get(mp)
        if got is None:
            layout = self.layout()
            got = self._into[mp] = {}
            for src in layout.locations:
                for dst in reachable(layout, src, mp):
                    got.setdefault(dst, []).append(src)
        return got

    def stopover(self, loc: int) -> bool:
        """Whether a Travel may surely end on ``loc`` on the way to the exit, now and later: not a
        Business or Safe House (each is visited once and a Business closes), not a Gang (a marker or
        another pawn bars it): "Step 3: Visit" lists where one cannot end."""
        return self.city.locations[loc].kind not in ("business", "safe_house", "gang")

    def turns_left(self) -> int:
        """Turns this seat still has today, this one included (Morning to Evening, then one per Extra
        Action disc at Night and Dawn: "5. Day Turns")."""
        discs = self.me.extra_actions - (1 if self.disc_pending else 0)
        if self.part <= 2:
            return (3 - max(self.part, 0)) + min(discs, 2)
        return 1 + min(discs, 4 - self.part)

    # --- money ---------------------------------------------------------------------------------
    def worst_escape_cost(self) -> int:
        """What escaping costs if every other player still in the city leaves first."""
        costs = self.content.escape_costs[self.n]
        return max(costs[self.escapes:]) if self.escapes < len(costs) else 0

    def reserve(self) -> int:
        """Money kept for the escape: its worst price and fees on day 3; before, that less the income
        still due (counting the Income track two cubes lower: visits take cubes)."""
        need = self.worst_escape_cost() + FEES
        if self.day >= 3:
            return need
        return max(0, need - (3 - self.day) * max(0, self.me.income_cubes - 2))

    def spendable(self) -> int:
        """Money above the reserve."""
        return self.me.money - self.reserve()

    # --- my board ------------------------------------------------------------------------------
    def empty_contact_space(self) -> bool:
        """Whether option B of "Taking Contact Cards" is open: an empty, unblocked Contact space."""
        free = len(self.me.contacts) - self.me.handcuffs
        return any(s.piece == pb.Piece.EMPTY for s in self.me.contacts[:max(free, 0)])

    def contact_gain(self) -> float:
        """What one more contact card on the board adds to the contacts table (0 without room)."""
        if not self.empty_contact_space():
            return 0.0
        table = self.content.scoring.contacts
        have = pb.contact_count(self.me)
        return float(table[min(have + 1, len(table) - 1)] - table[min(have, len(table) - 1)]) + 2.0

    def empty_item_space(self) -> bool:
        """Whether an Item space holds nothing."""
        return any(s.piece == pb.Piece.EMPTY for s in self.me.items)

    def wound_cost(self, wounds: int) -> float:
        """What ``wounds`` more wounds cost at the end (the first ones while green cubes remain)."""
        green = self.me.green
        return sum(WOUND if i < green else HANDCUFF_WOUND for i in range(wounds))

    def avoid_components(self) -> list[tuple[int, int, bool]]:
        """Face-up avoid components as (price $k, colour mask, tile-wide), in board order: equipment,
        contact cards, the Avoid asset, gang members ("Step 2: Avoid"; a contact costs its price, an
        asset its space's price, "Asset Tiles")."""
        out: list[tuple[int, int, bool]] = []
        for slot in self.me.items:
            if slot.piece == pb.Piece.EQUIPMENT and slot.face_up:
                out.append((0, ex.EQUIPMENT_EFFECTS[Equipment(slot.ident)].arg, False))
        for slot in self.me.contacts[:len(self.me.contacts) - self.me.handcuffs]:
            if slot.piece == pb.Piece.CONTACT and slot.face_up:
                card = self.content.contacts[slot.ident]
                effect = ex.contact_effect(card.kind, tuple(int(p) for p in card.police))
                if effect.kind in ("avoid_one", "avoid_tile"):
                    out.append((card.cost, effect.arg, effect.kind == "avoid_tile"))
        for a, slot in enumerate(self.me.unlocked):
            if slot.piece == pb.Piece.ASSET and slot.face_up and slot.ident == Asset.AVOID_TILE:
                out.append((self.content.board.asset_costs[a], ex.ALL_TYPES, True))
        out += [(0, ex.ALL_TYPES, True)] * len(self.me.gang_members)
        return out

    def avoid_tools(self) -> tuple[list[int], list[int]]:
        """Face-up avoid components' colour masks: one-officer ones, tile-wide ones."""
        comps = self.avoid_components()
        return [m for _, m, wide in comps if not wide], [m for _, m, wide in comps if wide]

    def wounds_on(self, tiles: Sequence[int]) -> int:
        """Officers on ``tiles`` this seat's face-up avoid components would not cover (greedy: tile-wide
        components on the most crowded tiles first, then one-officer components)."""
        groups = [list(self.officers.get(t, [])) for t in tiles]
        if self.n == 2:  # Sandra counts as an officer of the traveller's choice ("Only 2 Player")
            sandra_tile = self.city.locations[self.pawn_loc[self.n]].tile
            for g, t in zip(groups, tiles, strict=True):
                if t == sandra_tile:
                    g.append(-1)
        one, tile = self.avoid_tools()
        groups.sort(key=len, reverse=True)
        left: list[int] = []
        for g in groups:
            if not g:
                continue
            used = next((m for m in tile if m == ex.ALL_TYPES), None) if len(g) > 1 else None
            if used is None and len(g) > 1:
                used = next((m for m in tile if all(p < 0 or m >> p & 1 for p in g)), None)
            if used is not None:
                tile.remove(used)
                continue
            left += g
        wounds = 0
        for p in left:
            mask = next((m for m in one if p < 0 or m >> p & 1), None)
            if mask is None:
                mask = next((m for m in tile if p < 0 or m >> p & 1), None)
                if mask is None:
                    wounds += 1
                    continue
                tile.remove(mask)
                continue
            one.remove(mask)
        return wounds

    # --- the value of a Visit ------------------------------------------------------------------
    def others_at(self, loc: int) -> int:
        """Other pawns at ``loc`` still in the city (Sandra counts)."""
        count = 0
        for pawn, where in enumerate(self.pawn_loc):
            if pawn == self.seat or where != loc:
                continue
            if pawn < self.n and (self.data["escaped"][pawn] or self.data["arrested"][pawn]):
                continue
            count += 1
        return count

    def income_value(self) -> float:
        """Receiving income now."""
        return float(self.me.income_cubes)

    def cube_value(self, entry: int | None) -> float:
        """A Business or Safe House visit's cube ("Businesses" 2): the card's amount, or income now; the
        cube leaves the Income track, so each Income phase still to come pays $1k less."""
        later = max(0, 3 - self.day)
        gain = float(entry) if entry is not None else self.income_value()
        return gain - later

    def locker_value(self) -> float:
        """The best locker this seat may open now: its expected best tile ("Lockers"), 0 when none."""
        if not self.empty_item_space():
            return 0.0
        best = 0.0
        for colour, stack in enumerate(self.content.lockers):
            if not pb.can_open_locker(self.me, self.content, Locker(colour)):
                continue
            size = int(self.data["lockers"][colour])
            draws = min(pb.locker_draws(self.me, self.content, Locker(colour)), size)
            best = max(best, best_of_draws(tuple(stack.values), draws))
        return best

    def exit_tile_value(self) -> float:
        """An exit tile at a closed exit ("Exits"): the expected best of the draws, 0 without contacts."""
        draws = pb.exit_draws(self.me)
        if draws <= 0 or not self.empty_item_space():
            return 0.0
        return max(best_of_draws(tuple(s), draws) for s in self.content.exit_tiles)

    def visit_value(self, loc: int) -> float:
        """What visiting ``loc`` now is worth to this seat ("Step 3: Visit", each Location's steps)."""
        got = self._base.get(loc)
        if got is None:
            got = self._base[loc] = self._visit_value(loc)
        return got

    def _visit_value(self, loc: int) -> float:
        kind = self.city.locations[loc].kind
        crowd = -NOTORIETY * self.others_at(loc) if kind != "hospital" else 0.0
        contact = self.contact_gain()
        me = self.me
        if kind == "business":
            number = self.business_at.get(loc)
            if number is None or me.businesses[number - 1] or self.plan is None:
                return -1.0
            value = self.cube_value(self.plan.business(number)) + contact + crowd
            group = range(3) if number <= 3 else range(3, 6)
            if all(me.businesses[b] or b == number - 1 for b in group):
                value += DISC_VALUE if self.day < 3 else UNLOCK_VALUE
            return value
        if kind == "safe_house":
            house = self.safe_house_at.get(loc)
            if house is None or me.safe_houses[house - 1] or self.plan is None:
                return -1.0
            value = self.cube_value(self.plan.safe_house(house)) + NOTORIETY + crowd
            if self.data["keys"][house - 1]:
                value += 4.0
            if all(me.safe_houses[h] or h == house - 1 for h in range(3)):
                value += DISC_VALUE if self.day < 3 else UNLOCK_VALUE
            return value
        if kind == "gang":  # "Gangs" 1: the $5k is paid on arrival, so only money to spare goes there
            price = self.content.prices.gang
            return 3.0 if self.day < 3 and self.spendable() >= price else -3.0 * price
        if kind == "store":
            value = crowd + self.locker_value()
            if me.gas_cans < self.content.board.max_gas_cans and int(self.data["gas_supply"]) > 0:
                value += 1.0
                if self.day == 3 and self.exit_turns(self.my_location()) >= 99:
                    value += STAKE / 4  # the exit is out of reach without more MP
            if self.spendable() >= 2 and self.empty_item_space():
                value += 3.0
            return value
        if kind == "clinic":
            value = crowd + contact + (UNLOCK_VALUE if pb.locked_assets(me) else 0.0)
            return value + (WOUND if me.red else 0.0)
        if kind == "church":
            value = crowd + contact + (UNLOCK_VALUE if pb.locked_assets(me) else 0.0)
            return value + (NOTORIETY - 1.0 if self.spendable() >= 1 and me.notoriety >= 2 else 0.0)
        if kind == "hospital":
            return self.hospital_value() - NOTORIETY
        if kind == "exit":
            label = self.city.locations[loc].label
            closed = self.data["patrol_on"][int(label) - 1] >= 2
            best = max(self.income_value(), self.exit_tile_value() if closed else 0.0)
            return crowd + contact + best
        return 0.0  # subway, heliport: no Visit

    def hospital_heal(self) -> tuple[float, int]:
        """The best heal the money allows at the Hospital ("Hospital" 1): its gain ($k) and price."""
        prices = self.content.prices.hospital
        best, paid = 0.0, 0
        for k in range(1, min(self.me.red, len(prices)) + 1):
            if prices[k - 1] <= self.spendable() and WOUND * k - prices[k - 1] > best:
                best, paid = WOUND * k - prices[k - 1], prices[k - 1]
        return best, paid

    def hospital_value(self) -> float:
        """Healing what the money allows at the Hospital ("Hospital" 1)."""
        return self.hospital_heal()[0]

    def route_value(self, loc: int, tiles: Sequence[int]) -> float:
        """A Travel's worth: the Visit, less the wounds of the tiles left, plus the look-ahead."""
        value = self.visit_value(loc) - self.wound_cost(self.wounds_on(tiles))
        value += LOOKAHEAD * self.next_best(loc)
        return value + self.day3_term(loc)

    def next_best(self, loc: int) -> float:
        """The best Visit one 3-MP turn after ``loc`` (its cheapest route's officers counted, no tools)."""
        if loc not in self.layout().location_node:
            return 0.0
        best = 0.0
        for other, sets in reachable(self.layout(), loc, 3).items():
            if other == loc:
                continue
            officers = min(sum(len(self.officers.get(t, [])) for t in s) for s in sets)
            best = max(best, self.visit_value(other) - WOUND * officers * 0.5)
        return best

    def day3_term(self, loc: int) -> float:
        """On day 3: losing everything when the exit can no longer be reached in time, and a pull toward
        it ("Escaping the City"); on day 2's last parts a small pull toward the exits still open."""
        if self.day == 3 and self.open_exit() >= 0:
            turns = self.exit_turns(loc)
            spare = self.turns_left() - 1
            if turns > spare:
                return -STAKE
            slack = 15.0 if turns == spare and spare > 0 else 0.0  # one blocked turn would strand me
            # each turn later risks a dearer escape (others leave first) and costs a $1k fee after that
            pull = 4.0 if self.me.money >= self.worst_escape_cost() + turns + 1 else 25.0
            return -pull * turns - slack
        if self.day == 2 and self.part >= 2:
            near = min((self.turns_to(e, loc) for e in self.candidate_exits()), default=0)
            return -3.0 * min(near, 4)
        return 0.0
