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
from typing import Any, ClassVar, Final

from bots.base import Advice, Bot, RankedAction
from bots.registry import register
from solver.core import Action, View
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape import executive as ex
from solver.games.escape import tasks as etasks
from solver.games.escape.city import distance, reachable
from solver.games.escape.content import ASSETS, Asset, Equipment, Fixer, Locker

# the value model lives in the engine so the route planner shares it; its names stay importable here
from solver.plan.escape_values import (
    DISC_VALUE,
    FEES,
    HANDCUFF_WOUND,
    LOOKAHEAD,
    NOTORIETY,
    STAKE,
    UNLOCK_VALUE,
    WOUND,
    Reader,
    best_of_draws,
)

__all__ = ["DISC_VALUE", "FEES", "HANDCUFF_WOUND", "LOOKAHEAD", "NOTORIETY", "STAKE", "UNLOCK_VALUE",
           "WOUND", "EscapeHeuristic", "Reader", "best_of_draws", "ranked", "score"]

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
        if r.day == 3 and r.spendable() < 0:  # short of the escape's price: an arrest loses everything
            return a, r.income_value() + STAKE / 4, "income (the escape's price)"
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
    one, tile = r.avoid_tools()
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
