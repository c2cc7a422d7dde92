"""Escape Plan: the documented rule-based ``heuristic`` bot (docs/escape-bots.md lists its rules).

The bot reads its seat's view (``view.to_json()``, ``view.legal_actions``, the decision's prompt), the
game's static city and content, and, for the decisions that need the turn under way (the Travel's
routes, the Avoid step's officers, the tile being placed), a state drawn by ``game.resample(view, rng)``
from which it reads only public facts and its own turn's context ("Hidden information" in
docs/escape-rules.md: nothing it reads differs between the resampled worlds). Every decision scores each
legal action in $k of final score ("Final Scoring") and plays the best; ties go to the lowest action id,
so the bot is deterministic given its generator (the generator only feeds the resample).

The core is a greedy Travel: each destination is worth its Visit to this seat (its own Escape Plan card's
amount or income at a Business or Safe House, a contact card toward the contacts table, a key, a locker,
healing, an unlock ...), plus half the best Visit one more turn away, less $20k per officer it cannot
avoid on the tiles the route leaves ("Step 2: Avoid"; a red wound costs $20k at the end) and $3k per
notoriety gained. On day 3 it heads for the open exit and escapes ("Escaping the City") once the exit is
reachable, unless a rich Visit still leaves it time to come back; it keeps the escape's price in hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import comb
from typing import Any, ClassVar, Final

from bots.base import Advice, Bot, RankedAction
from bots.registry import register
from solver.core import Action, View
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape import executive as ex
from solver.games.escape import tasks as etasks
from solver.games.escape.board import PlayerBoard
from solver.games.escape.city import City, Layout, distance, reachable
from solver.games.escape.content import ASSETS, Asset, Content, Equipment, Fixer, Locker, PlanCard

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

Scored = tuple[Action, float, str]

#: decisions for which the bot draws a state (their options depend on the turn's context, ``st.ctx``)
_NEEDS_STATE: Final = frozenset({"gas", "travel", "avoid", "exec_avoid_tile", "exec_avoid_one",
                                 "place_tile"})
_AVOID_EFFECTS: Final = frozenset({"avoid_tile", "avoid_one"})


def _task_of(prompt: str, seat: int) -> str:
    """The decision task's name from the view's prompt (``day 1 Morning: seat 0 chooses ...``)."""
    who = f"seat {seat}"
    for name, template in etasks.PROMPTS.items():
        if name in etasks.DECISIONS and prompt.endswith(template.format(who=who)):
            return name
    return ""


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

    def avoid_tools(self) -> tuple[list[int], list[int], int]:
        """Face-up avoid components: one-officer colour masks, tile-wide colour masks, money they cost."""
        one: list[int] = []
        tile: list[int] = []
        for slot in self.me.items:
            if slot.piece == pb.Piece.EQUIPMENT and slot.face_up:
                one.append(ex.EQUIPMENT_EFFECTS[Equipment(slot.ident)].arg)
        cost = 0
        for slot in self.me.contacts[:len(self.me.contacts) - self.me.handcuffs]:
            if slot.piece == pb.Piece.CONTACT and slot.face_up:
                card = self.content.contacts[slot.ident]
                effect = ex.contact_effect(card.kind, tuple(int(p) for p in card.police))
                if effect.kind == "avoid_one":
                    one.append(effect.arg)
                elif effect.kind == "avoid_tile":
                    tile.append(effect.arg)
                else:
                    continue
                cost += card.cost
        for slot in self.me.unlocked:
            if slot.piece == pb.Piece.ASSET and slot.face_up and slot.ident == Asset.AVOID_TILE:
                tile.append(ex.ALL_TYPES)
        tile += [ex.ALL_TYPES] * len(self.me.gang_members)
        return one, tile, cost

    def wounds_on(self, tiles: Sequence[int]) -> int:
        """Officers on ``tiles`` this seat's face-up avoid components would not cover (greedy: tile-wide
        components on the most crowded tiles first, then one-officer components)."""
        groups = [list(self.officers.get(t, [])) for t in tiles]
        if self.n == 2:  # Sandra counts as an officer of the traveller's choice ("Only 2 Player")
            sandra_tile = self.city.locations[self.pawn_loc[self.n]].tile
            for g, t in zip(groups, tiles, strict=True):
                if t == sandra_tile:
                    g.append(-1)
        one, tile, _ = self.avoid_tools()
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

    def hospital_value(self) -> float:
        """Healing what the money allows at the Hospital ("Hospital" 1)."""
        prices = self.content.prices.hospital
        best = 0.0
        for k in range(1, min(self.me.red, len(prices)) + 1):
            if prices[k - 1] <= self.spendable():
                best = max(best, WOUND * k - prices[k - 1])
        return best

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


# --- the decisions ------------------------------------------------------------------------------------

def score(game: Any, data: Mapping[str, Any], legal: Sequence[Action], st: Any | None = None
          ) -> list[Scored]:
    """Every legal action of the view ``data`` with its score ($k) and reason."""
    r = Reader(game, data, st)
    task = _task_of(str(data["decision"]["prompt"]), r.seat)
    rule = _RULES.get(task)
    if rule is None:
        return [_fallback(a) for a in legal]
    return [rule(r, a) for a in legal]


def _fallback(a: Action) -> Scored:
    """An unknown decision: ``done``, then ``no``, then the lowest id (always a legal action)."""
    if a == codec.DONE:
        return a, 2.0, "unknown decision: done"
    if a == codec.NO:
        return a, 1.0, "unknown decision: no"
    return a, -float(a) * 1e-6, "unknown decision: the lowest id"


def _travel_target(r: Reader, a: Action) -> tuple[int, int, bool]:
    """(destination Location, route, escape) of a Travel action."""
    if codec.ESCAPE <= a < codec.ESCAPE + codec.MAX_ROUTES:
        return r.open_exit(), a - codec.ESCAPE, True
    loc, route = divmod(a - codec.TRAVEL, codec.MAX_ROUTES)
    return loc, route, False


def _reach(r: Reader, mp: int) -> dict[int, list[frozenset[int]]]:
    """The Travel's reachable set with ``mp`` and the turn's declared resources (the drawn state's
    context: only this seat's own choices this turn are in it)."""
    ctx = r.st.ctx if r.st is not None else {}
    return reachable(r.layout(), r.my_location(), min(mp, 12), jet_ski=ctx.get("jet_ski"),
                     flights=ctx.get("flights", 0), sewers=ctx.get("sewers", 0))


def _escape_value(r: Reader, tiles: Sequence[int]) -> float:
    """Escaping now: the score is kept when the price is paid, lost when it cannot be."""
    cost = r.content.escape_cost(r.n, r.escapes)
    if r.me.money < cost:
        return -STAKE
    return STAKE / 2 - r.wound_cost(r.wounds_on(tiles))


def _travel(r: Reader, a: Action) -> Scored:
    loc, route, escape = _travel_target(r, a)
    found = _reach(r, int(r.st.ctx["mp"]) if r.st is not None else 3)
    sets = found.get(loc, [])
    tiles = sorted(sets[route]) if route < len(sets) else []
    if escape:
        tiles = sorted(set(tiles) | {r.city.locations[loc].tile})
        return a, _escape_value(r, tiles), "escape through the open exit"
    value = r.route_value(loc, tiles)
    if r.day == 3 and r.open_exit() >= 0 and r.exit_turns(r.my_location()) <= 1:
        value -= 6.0  # every turn spent lets others escape first (a dearer escape, $1k fees)
        if r.me.money - 1 < r.worst_escape_cost():
            value -= STAKE / 4  # the escape may become dearer than the money in hand
    return a, value, f"visit {r.game.location_names[loc]} ({len(tiles)} tiles left)"


def best_travel(r: Reader, mp: int) -> float:
    """The best Travel with ``mp`` and no resources (Rest, Extra Action and gas decisions compare it)."""
    best = -STAKE * 2
    exit_loc = r.open_exit()
    for loc, sets in _reach(r, mp).items():
        tiles = min(sets, key=lambda s: r.wounds_on(sorted(s)))
        if loc == exit_loc:
            best = max(best, _escape_value(r, sorted(tiles | {r.city.locations[loc].tile})))
        if _can_end(r, loc):
            best = max(best, r.route_value(loc, sorted(tiles)))
    return best


def _can_end(r: Reader, loc: int) -> bool:
    """Whether a Travel may end at ``loc`` as far as the bot's own board tells (visited Businesses and
    Safe Houses are not destinations; the rules' legal list decides the rest)."""
    return r.visit_value(loc) > -1.0 or r.city.locations[loc].kind not in ("business", "safe_house")


def _rest_value(r: Reader) -> float:
    """"Rest": an unlock, the face-down contact cards and equipment and the First Aid tile back up."""
    down = sum(1 for s in r.me.items if s.piece == pb.Piece.EQUIPMENT and not s.face_up)
    down += sum(1 for s in r.me.contacts if s.piece == pb.Piece.CONTACT and not s.face_up)
    value = (UNLOCK_VALUE if pb.locked_assets(r.me) else 0.0) + 4.0 * down
    if not r.me.first_aid_up and r.me.red:
        value += 10.0
    return value


def _action(r: Reader, a: Action) -> Scored:
    if a == codec.PASS:
        return a, 0.0, "nothing else is possible"
    if a == codec.REST:
        if r.day == 3:
            return a, -STAKE, "no rest on the day of the escape"
        return a, _rest_value(r), "rest: flip back, unlock"
    return a, best_travel(r, 3 + r.me.gas_cans), "move"


def _extra(r: Reader, a: Action) -> Scored:
    if a == codec.NO:
        if r.day == 3:  # a player who does not move on day 3's last parts stays in the city
            return a, -STAKE, "keeping the disc leaves me in the city"
        return a, 0.0, "keep the disc"
    r.disc_pending = True
    rest = _rest_value(r) if not r.me.rested and r.day < 3 else -STAKE
    return a, max(best_travel(r, 3 + r.me.gas_cans), rest), "take the extra turn"


def _gas(r: Reader, a: Action) -> Scored:
    k = a - codec.GAS
    base = int(r.st.ctx["mp"]) if r.st is not None else 3
    return a, best_travel(r, base + k) - 0.5 * k, f"return {k} gas cans"


def _component(r: Reader, k: int) -> tuple[ex.Effect | None, int, bool, bool]:
    """The effect (as in the start/end windows), price, red star and whether it is an asset, of executive
    component ``k`` on this seat's board; effect None when it is not one of those."""
    me = r.me
    if ex.USE_CONTACT <= k < ex.USE_ITEM:
        slot = me.contacts[k - ex.USE_CONTACT]
        card = r.content.contacts[slot.ident]
        effect = ex.contact_effect(card.kind, tuple(int(p) for p in card.police))
        return effect, card.cost, card.notoriety, False
    if ex.USE_ITEM <= k < ex.USE_ASSET:
        slot = me.items[k - ex.USE_ITEM]
        if slot.piece == pb.Piece.EQUIPMENT:
            return ex.EQUIPMENT_EFFECTS[Equipment(slot.ident)], 0, False, False
        return ex.FIXER_EFFECTS[Fixer(slot.ident)], 0, False, False
    if ex.USE_ASSET <= k < ex.FIRST_AID:
        space = k - ex.USE_ASSET
        slot = me.unlocked[space]
        return ex.ASSET_EFFECTS[Asset(slot.ident)], r.content.board.asset_costs[space], False, True
    if k == ex.FIRST_AID:
        return ex.HEAL, 0, False, False
    if ex.USE_GANG <= k < ex.AVOID_TILE:
        return ex.GANG_ABILITY, 0, False, False
    return None, 0, False, False


def _effect_value(r: Reader, effect: ex.Effect, window: str) -> float:
    """What a component's benefit is worth now (before its price)."""
    me = r.me
    kind = effect.kind
    if kind == "disc":
        return DISC_VALUE
    if kind == "lose":
        pending = me.notoriety + me.cubes_red - me.cubes_blue
        return NOTORIETY + 2.0 if pending >= 4 else -1.0
    if kind == "heal":
        return WOUND if me.red else -1.0
    if kind == "income":
        return r.income_value()
    if kind == "unlock":
        return UNLOCK_VALUE
    if kind == "refresh":
        down = sum(1 for s in me.items if s.piece == pb.Piece.EQUIPMENT and not s.face_up)
        down += sum(1 for s in me.contacts if s.piece == pb.Piece.CONTACT and not s.face_up)
        return 3.0 * (down - 1)
    if kind == "contact":
        return r.contact_gain() - 1.0
    if kind in ("police", "snitch"):
        here = r.officers.get(r.my_tile(), [])
        return 8.0 if effect.arg in here else 0.0
    if kind in _AVOID_EFFECTS:
        return WOUND if window == "avoid" else -1.0
    return -1.0  # Travel resources: the bot plans its Travel without them


def _exec(r: Reader, a: Action, window: str) -> Scored:
    if a in (codec.DONE, codec.TAKE_WOUNDS):
        return a, 0.0, "done" if a == codec.DONE else "take the wounds"
    k = a - codec.EXEC
    effect, cost, star, asset = _component(r, k)
    if effect is None:
        return a, -1.0, "not a component"
    shown = ex.in_window(effect, window)
    if shown is None and window != "avoid":
        return a, -1.0, "a Travel resource: not used"
    if shown is not None:
        effect = shown
    if cost > r.spendable():
        return a, -5.0, "kept for the escape"
    value = _effect_value(r, effect, window) - cost - (NOTORIETY if star else 0.0)
    if asset:
        value += r.content.scoring.used_asset  # "$10k per each Asset tile used"
    return a, value, f"use {effect.kind}"


def _exec_window(r: Reader, a: Action) -> Scored:
    return _exec(r, a, "start")


def _avoid(r: Reader, a: Action) -> Scored:
    got = _exec(r, a, "avoid")
    if a == codec.TAKE_WOUNDS or r.st is None or got[1] < 0:
        return got
    # prefer the component that clears most of the officers still to avoid (the turn's context)
    left = r.st.ctx.get("avoid", [])
    effect, _, _, _ = _component(r, a - codec.EXEC)
    if effect is not None:
        shown = ex.in_window(effect, "avoid") or effect
        if shown.kind == "avoid_tile":
            per_tile: dict[int, int] = {}
            for tile, p, _sandra in left:
                if shown.arg >> int(p) & 1:
                    per_tile[int(tile)] = per_tile.get(int(tile), 0) + 1
            cleared = max(per_tile.values(), default=0)
            return a, got[1] + WOUND * (cleared - 1) - 0.5, got[2]
    return got


def _avoid_tile(r: Reader, a: Action) -> Scored:
    tile = a - codec.EXEC - ex.AVOID_TILE
    left = r.st.ctx.get("avoid", []) if r.st is not None else []
    count = sum(1 for t, _p, _s in left if int(t) == tile)
    return a, float(count), "the tile with most officers left"


def _avoid_one(r: Reader, a: Action) -> Scored:
    return a, 0.0, "one officer"


def _away_from_me(r: Reader, tile: int) -> float:
    """Hex distance from this seat's tile: officers are best far from it."""
    return float(r.tile_distance(tile, r.my_tile()))


def _police_from(r: Reader, a: Action, start: int) -> Scored:
    tile, _p = divmod(a - start, 3)
    return a, -_away_from_me(r, tile), "move the officer nearest to me"


def _police_to(r: Reader, a: Action, start: int) -> Scored:
    tile = a - start
    return a, _away_from_me(r, tile), "send it far from me"


def _choose_tile(r: Reader, a: Action) -> Scored:
    name = r.data["display"][a - codec.DISPLAY]
    tile = r.tile_id.get(name, -1) if name else -1
    value = 0.0
    if tile >= 0:
        kinds = [r.city.locations[loc].kind for loc in r.city.tiles[tile].locations]
        value = 2.0 * sum(1 for k in kinds if k in ("business", "safe_house")) + 0.5 * len(kinds)
    return a, value, "a tile with Locations to visit"


def _place(r: Reader, a: Action) -> Scored:
    cell_index, rotation = divmod(a - codec.PLACE, 6)
    cell = codec.REGION[cell_index]
    if r.st is None or not r.st.todo:
        return a, 0.0, "place"
    tile = int(r.st.todo[0][2])
    new = r.city.tiles[tile]
    matches = 0
    for d, (dq, dr) in enumerate(((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))):
        there = r.st.placed.get((cell[0] + dq, cell[1] + dr))
        if there is not None and new.edge_type(d, rotation) == r.city.tiles[there[0]].edge_type(
                (d + 3) % 6, there[1]):
            matches += 1
    here = r.cell_of.get(r.my_tile())
    near = distance(cell, here) if here is not None else 0
    return a, matches - 0.3 * near, f"{matches} matching edges"


def _plan_entry_value(r: Reader, entry: int | None) -> float:
    return float(entry) if entry is not None else r.income_value()


def _business_tile(r: Reader, a: Action) -> Scored:
    number = a - codec.BUSINESS + 1
    value = _plan_entry_value(r, r.plan.business(number)) if r.plan else 0.0
    return a, value, f"business {number} is worth {value:.0f} to me"


def _safe_house_tile(r: Reader, a: Action) -> Scored:
    house = a - codec.SAFE_HOUSE + 1
    value = _plan_entry_value(r, r.plan.safe_house(house)) if r.plan else 0.0
    return a, value, f"safe house {house} is worth {value:.0f} to me"


#: unlock preference: assets on Contact spaces free a space for a card; then the useful ones
_UNLOCK_ORDER: Final = {Asset.AVOID_TILE: 3.0, Asset.HEAL: 2.5, Asset.MASTER_KEY: 2.0,
                        Asset.EXTRA_ACTION: 1.5, Asset.MOVE_FEDERAL: 1.0, Asset.MOVE_COUNTY: 1.0,
                        Asset.MOVE_SWAT: 1.0}


def _unlock(r: Reader, a: Action) -> Scored:
    if a == codec.DONE:
        return a, 0.0, "no unlock"
    asset = Asset(a - codec.UNLOCK)
    on_contact = any(s.piece == pb.Piece.ASSET and s.ident == asset for s in r.me.contacts)
    value = _UNLOCK_ORDER[asset] + (5.0 if on_contact else 0.0)
    return a, value, f"unlock {ASSETS[asset]}"


def _income_unlock(r: Reader, a: Action) -> Scored:
    if a == codec.DONE:
        return a, 0.0, "keep the money"
    price = r.content.prices.income_unlock
    if price > r.spendable():
        return a, -1.0, "kept for the escape"
    scored = _unlock(r, a)
    return a, UNLOCK_VALUE - price + scored[1] * 0.1, scored[2]


#: a contact card's use to the bot (cards that avoid officers save $20k wounds)
_CARD_USE: Final = {"avoid_tile": 4.0, "avoid_one": 3.0, "heal": 3.0, "disc": 3.0, "income": 2.5,
                    "lose": 2.0, "unlock": 2.0, "contact": 1.5, "police": 1.5, "snitch": 1.5}


def _pick(r: Reader, a: Action) -> Scored:
    card = r.content.contacts[(a - codec.V_PICK) % codec.MAX_CARDS]
    effect = ex.contact_effect(card.kind, tuple(int(p) for p in card.police))
    return a, _CARD_USE.get(effect.kind, 0.5) - 0.1 * card.cost, f"take {card.name}"


def _how(r: Reader, a: Action) -> Scored:
    h = a - codec.V_HOW
    if h == 0:
        return a, 0.0, "to the box"
    if h <= codec.CONTACT_SPACES:
        return a, 10.0, "onto an empty space"
    return a, -5.0, "replacing a card costs notoriety"


def _key(r: Reader, a: Action) -> Scored:
    colour = a - codec.V_KEY
    need = r.content.lockers[colour].requirement
    return a, -float(need), f"the {codec.LOCKER_NAMES[colour]} key (easiest locker first)"


def _enter(r: Reader, a: Action) -> Scored:
    k = a - codec.V_ENTER
    if k == 3:
        cost = _master_key_cost(r)
        if cost > r.spendable():
            return a, -20.0, "the master key's price is kept for the escape"
        return a, r.content.scoring.used_asset - cost - 8.0, "the master key"
    key = r.me.keys[k]
    colour = int(key.colour) if key is not None else 0
    return a, -4.0 + 0.5 * colour, "the key I need least"


def _master_key_cost(r: Reader) -> int:
    """The price of using the unlocked master key (its unlocked Asset space's cost)."""
    space = next((i for i, s in enumerate(r.me.unlocked)
                  if s.piece == pb.Piece.ASSET and s.ident == Asset.MASTER_KEY), 0)
    return r.content.board.asset_costs[space]


def _locker(r: Reader, a: Action) -> Scored:
    if a == codec.DONE:
        return a, 0.0, "no locker"
    colour, k = divmod(a - codec.V_LOCKER, 4)
    if k == 3 and _master_key_cost(r) > r.spendable():
        return a, -1.0, "the master key's price is kept for the escape"
    stack = r.content.lockers[colour]
    draws = min(pb.locker_draws(r.me, r.content, Locker(colour)), int(r.data["lockers"][colour]))
    return a, best_of_draws(tuple(stack.values), draws), f"open the {codec.LOCKER_NAMES[colour]} locker"


def _replaced_value(r: Reader, space: int) -> float:
    """What is lost by covering Item space ``space`` (and the notoriety of replacing)."""
    slot = r.me.items[space]
    if slot.piece == pb.Piece.EMPTY:
        return 0.0
    if slot.piece in (pb.Piece.LOCKER, pb.Piece.EXIT):
        return float(slot.value) + NOTORIETY
    return 4.0 + NOTORIETY


def _keep(r: Reader, a: Action) -> Scored:
    value, space = divmod(a - codec.V_KEEP, codec.MAX_ITEMS)
    return a, value - _replaced_value(r, space), f"keep {value}"


def _equip(r: Reader, a: Action) -> Scored:
    if a == codec.DONE:
        return a, 0.0, "no equipment"
    kind, space = divmod(a - codec.V_EQUIP, codec.MAX_ITEMS)
    cost = r.content.equipment_costs[kind]
    if cost > r.spendable():
        return a, -1.0, "kept for the escape"
    worth = 7.0 if kind == Equipment.GAS_MASK else 6.0
    return a, worth - cost - _replaced_value(r, space), f"buy {codec.EQUIPMENT_NAMES[kind]}"


_FIXER_WORTH: Final = {Fixer.ID_CARD: DISC_VALUE, Fixer.FIRST_AID_KIT: 4.0, Fixer.DISGUISE: 3.0}


def _fixer(r: Reader, a: Action) -> Scored:
    if a == codec.DONE:
        return a, 0.0, "no fixer"
    kind, space = divmod(a - codec.V_FIXER, codec.MAX_ITEMS)
    cost = r.content.fixer_costs[kind]
    if cost + 3 > r.spendable():
        return a, -1.0, "kept for the escape"
    worth = r.income_value() if kind == Fixer.SAFE else _FIXER_WORTH.get(Fixer(kind), 0.0)
    return a, worth - cost - _replaced_value(r, space), f"buy {codec.FIXER_NAMES[kind]}"


def _hospital(r: Reader, a: Action) -> Scored:
    k = a - codec.V_HOSPITAL
    if k == 0:
        return a, 0.0, "no healing"
    price = r.content.prices.hospital[k - 1]
    if price > r.spendable():
        return a, -1.0, "kept for the escape"
    return a, WOUND * k - price, f"heal {k}"


def _word(r: Reader, a: Action) -> Scored:
    if a == codec.DONE:
        return a, 0.0, "done"
    if a == codec.TAKE_GAS:
        return a, 1.0, "a gas can"
    if a == codec.CLINIC_HEAL:
        return a, WOUND, "heal a wound"
    if a == codec.CHURCH_PAY:
        worth = NOTORIETY - 1.0 if r.me.notoriety >= 2 and r.spendable() >= 1 else -1.0
        return a, worth, "pay to lose notoriety"
    if a == codec.EXIT_INCOME:
        return a, r.income_value(), "income"
    if a == codec.EXIT_TILE:
        return a, r.exit_tile_value(), "an exit tile"
    if a == codec.BONUS_DISC:
        return a, DISC_VALUE + 1.0 if r.day < 3 else 1.0, "an Extra Action disc"
    if a == codec.BONUS_UNLOCK:
        return a, UNLOCK_VALUE + 2.0, "unlock"
    return _fallback(a)


def _visit_choice(r: Reader, a: Action) -> Scored:
    start, _ = codec.block_of(a)
    if start == codec.UNLOCK:
        return _unlock(r, a)
    if start == codec.V_HOSPITAL:
        return _hospital(r, a)
    return _word(r, a)


def _sandra_as(r: Reader, a: Action) -> Scored:
    p = a - codec.SANDRA_AS
    one, tile, _ = r.avoid_tools()
    covered = sum(1 for m in one if m >> p & 1) + sum(1 for m in tile if m >> p & 1)
    return a, float(covered), f"Sandra as {codec.POLICE_NAMES[p]}"


_RULES: Final[dict[str, Any]] = {
    "action": _action,
    "extra_action": _extra,
    "gas": _gas,
    "travel": _travel,
    "exec_window": _exec_window,
    "avoid": _avoid,
    "exec_avoid_tile": _avoid_tile,
    "exec_avoid_one": _avoid_one,
    "exec_police_from": lambda r, a: _police_from(r, a, codec.EXEC + ex.POLICE_FROM),
    "exec_police_to": lambda r, a: _police_to(r, a, codec.EXEC + ex.POLICE_TO),
    "exec_snitch": lambda r, a: _police_from(r, a, codec.EXEC + ex.SNITCH),
    "police_pick": lambda r, a: _police_from(r, a, codec.PICK_OFFICER),
    "police_dest": lambda r, a: _police_to(r, a, codec.DEST),
    "choose_tile": _choose_tile,
    "place_tile": _place,
    "choose_business": _business_tile,
    "choose_safe_house": _safe_house_tile,
    "unlock": _unlock,
    "rest_unlock": _unlock,
    "income_unlock": _income_unlock,
    "v_unlock": _visit_choice,
    "v_pick": _pick,
    "v_how": _how,
    "v_key": _key,
    "v_enter": _enter,
    "v_locker": _locker,
    "v_keep": _keep,
    "v_equip": _equip,
    "v_fixer": _fixer,
    "v_hospital": _visit_choice,
    "v_gas": _visit_choice,
    "v_heal": _visit_choice,
    "v_church": _visit_choice,
    "v_exit_income": _visit_choice,
    "v_exit": _visit_choice,
    "v_bonus": _visit_choice,
    "sandra_as": _sandra_as,
}


def ranked(scored: Sequence[Scored]) -> list[Scored]:
    """Best first; equal scores by the lower action id (the bot's tie-break)."""
    return sorted(scored, key=lambda s: (-s[1], s[0]))


class EscapeHeuristic(Bot):
    """Greedy Visits against the police, a Rest when worn, the open exit on day 3 (module docstring)."""

    name: ClassVar[str] = "heuristic"
    description: ClassVar[str] = ("rule-based: greedy value of the next Visit against the wounds of the "
                                  "route, rests when worn, escapes through the open exit on day 3")

    def scores(self, view: View) -> list[Scored]:
        """Every legal action with its score and reason (a state is drawn only when the decision needs
        the turn's context: routes, officers still to avoid, the tile being placed)."""
        legal = self.check_view(view)
        data = view.to_json()
        task = _task_of(str(data["decision"]["prompt"]), view.seat)
        st = self.game.resample(view, self.rng) if task in _NEEDS_STATE else None
        return score(self.game, data, legal, st)

    def step(self, view: View) -> Action:
        """The best-scored legal action."""
        return ranked(self.scores(view))[0][0]

    def advise(self, view: View, budget: float | None = None) -> Advice:
        """The legal actions ranked by the bot's scores, with each rule's reason."""
        rows = ranked(self.scores(view))
        game = self.game
        out = tuple(RankedAction(a, game.action_to_str(a), s, why) for a, s, why in rows)
        return Advice(view.seat, out, {}, f"heuristic: {out[0].text} ({out[0].reason})")


register("escape", EscapeHeuristic)
