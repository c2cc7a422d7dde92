"""Escape Plan set-up as chance nodes and decisions ("Board Setup", "Player Setup", "2-Player Setup").

Every random step is a chance node over what is left, never a stored order:

* "City Setup" 2: the starting tiles, 4 outcomes (which starting tile lies at ``(0, 0)``, both turned
  0 or both 3); 4: each stack's top tile, uniform over the stack's tiles.
* "Police Setup" 6-8: an officer drawn from the bag, one chance node each, by the bag's counts: two for
  each displayed top tile, two for the starting tile without the hospital. A second officer of a type
  on one tile goes back to the bag only once every officer of the step is drawn (rule 8: "now has"),
  so until then it is out of the bag (``returning``).
* "Police Setup" 5, the patrol deck: no card is removed at set-up. Drawing 2, 2 and then 1 of the 6
  cards at the three Patrol phases gives every sequence of 5 cards the same probability as removing
  one card unseen first and drawing all 5 others, and it keeps no hidden future (the removed card) in
  the state.
* Rule 10: the 9 keys over the 9 Safe House spaces, 3 a safe house, one public chance node a space.
* Rule 15: the 7-card contact display, one public chance node a card over the deck's multiset.
* Rule 16: two gang members on the Gang HQ of the starting tile.
* Player Setup L: each seat's Escape Plan card, a chance node its owner alone sees (``plan ?`` to
  the others).

Where the rulebook is silent: a starting tile with a Business or Safe House space (the shipped Gang
Quarter has a business) gets its tile like a tile placed in the City phase ("3. City": "choose any
available Business tile"), chosen by the first player (seat 0, Player Setup M).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.escape import codec
from solver.games.escape.city import BUSINESS, EXIT, GANG, SAFE_HOUSE, START_ROTATIONS, start_layout
from solver.games.escape.events import OfficerDrawn, PlanDealt
from solver.games.escape.tasks import applies, auto, chance, decision, push

if TYPE_CHECKING:
    from solver.games.escape.state import EscapeState, Task

DISPLAY_SIZE = 7  # Board Setup 15
KEYS_PER_SAFE_HOUSE = 3  # Board Setup 10: "the 9 spaces of the Safe Houses"
GANG_MEMBERS_PER_GANG = 2


def begin(st: EscapeState) -> None:
    """Queue the whole set-up; the first chance node (the starting tiles) is then at the head."""
    city = st.game.city
    queue: list[Task] = [("start_tiles",)]
    queue += [("draw_top", s) for s in range(4)]
    queue.append(("officers_for_new_tops", "setup"))
    queue += [("key", h) for h in range(3) for _ in range(KEYS_PER_SAFE_HOUSE)]
    queue += [("contact",) for _ in range(DISPLAY_SIZE)]
    queue += [("plan", s) for s in range(st.n)]
    queue.append(("start_spaces", city.gang_start_tile))
    queue.append(("day_start",))
    st.todo = queue
    st.ctx = {}


@chance("start_tiles", "the starting tiles are laid out")
def _start_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    return [(codec.START + i, 0.25) for i in range(4)]


@applies("start_tiles")
def _start_apply(st: EscapeState, task: Task, action: Action) -> None:
    """City Setup 2: both starting tiles face up, same orientation."""
    city = st.game.city
    i = action - codec.START
    first = city.start_tiles[i // 2]
    st.placed = dict(start_layout(city, first, START_ROTATIONS[i % 2]))
    for tile in city.start_tiles:
        place_spaces_auto(st, tile)
    st.note("setup", f"starting tiles: {city.tiles[first].name} at (0,0), rotation {START_ROTATIONS[i % 2]}")


def place_spaces_auto(st: EscapeState, tile: int) -> None:
    """A tile's gang spaces get 2 gang members each from their area ("3. City"; Board Setup 16)."""
    city = st.game.city
    for loc in city.tiles[tile].locations:
        if city.locations[loc].kind == GANG:
            members = min(GANG_MEMBERS_PER_GANG, st.gang_supply)
            st.gang_supply -= members
            st.gangs[loc] = st.gangs.get(loc, 0) + members


def place_pending_exits(st: EscapeState) -> None:
    """Closed exits whose tile is now visible (placed or on a stack's top) get their exit tile stack."""
    city = st.game.city
    visible = {t for t, _ in st.placed.values()} | {t for t in st.tops if t >= 0}
    for e in list(st.exit_pending):
        if city.locations[city.labelled(EXIT, str(e))].tile in visible:
            st.exit_pending.remove(e)
            st.note("patrol", f"exit {e} is closed: exit tile stack {st.exit_stack_at[e]} covers it")


@chance("draw_top", "a City tile stack shows its new top")
def _top_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    stack = st.stacks[task[1]]
    return [(codec.REVEAL + t, 1.0 / len(stack)) for t in sorted(stack)] if stack else []


@applies("draw_top")
def _top_apply(st: EscapeState, task: Task, action: Action) -> None:
    """City Setup 4 / "3. City": flip the stack's top tile; a closed exit pending its tile gets its exit
    tile stack as soon as the tile shows ("2. Patrol")."""
    tile = action - codec.REVEAL
    s = task[1]
    st.stacks[s].remove(tile)
    st.tops[s] = tile
    st.ctx.setdefault("new_tops", []).append(tile)
    st.note("city", f"stack {codec.STACK_NAMES[s]} shows {st.game.city.tiles[tile].name}")
    place_pending_exits(st)


@auto("officers_for_new_tops")
def _officers_for_tops(st: EscapeState, task: Task) -> None:
    """Police Setup 7 / "3. City": two officers for each newly shown tile (at set-up, two more on the
    starting tile without the hospital), then the same-type rule's returns."""
    new = st.ctx.pop("new_tops", [])
    draws: list[Task] = [("officer", t) for t in new for _ in range(2)]
    if task[1] == "setup":
        draws += [("officer", st.game.city.gang_start_tile)] * 2
    push(st, *draws, ("return_officers",))


@chance("officer", "a police officer is drawn from the bag")
def _officer_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    total = sum(st.bag)
    return [(codec.OFFICER + p, st.bag[p] / total) for p in range(3) if st.bag[p]] if total else []


@applies("officer")
def _officer_apply(st: EscapeState, task: Task, action: Action) -> None:
    """An officer onto tile ``task[1]``; a second of its type waits to go back to the bag (rule 8)."""
    p = action - codec.OFFICER
    tile = task[1]
    st.bag[p] -= 1
    kept = not st.officers[tile][p]
    if kept:
        st.officers[tile][p] = True
    else:
        st.returning[p] += 1
    st.events.append(OfficerDrawn(st.game.city.tiles[tile].name, codec.POLICE_NAMES[p], kept))


@auto("return_officers")
def _return_officers(st: EscapeState, task: Task) -> None:
    """Police Setup 8: the same-type duplicates go back to the bag (no replacement is drawn)."""
    for p in range(3):
        st.bag[p] += st.returning[p]
        st.returning[p] = 0


@chance("key", "a key is placed on a safe house")
def _key_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    total = sum(st.keys_left)
    return [(codec.KEY + k, st.keys_left[k] / total) for k in range(3) if st.keys_left[k]] if total else []


@applies("key")
def _key_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Board Setup 10: a key at random on a space of Safe House ``task[1] + 1``."""
    k = action - codec.KEY
    st.keys_left[k] -= 1
    st.keys[task[1]].append(k)


@chance("contact", "a contact card is revealed to the display")
def _contact_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    return contact_outcomes(st)


def contact_outcomes(st: EscapeState) -> list[tuple[Action, float]]:
    """A contact card drawn from the deck's multiset (each card named by its first copy)."""
    total = sum(st.contacts_left)
    if not total:
        return []
    return [(codec.CONTACT + c, n / total) for c, n in enumerate(st.contacts_left) if n]


@applies("contact")
def _contact_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Board Setup 15: the card joins the display (on the right; the display fills left to right)."""
    c = action - codec.CONTACT
    st.contacts_left[c] -= 1
    st.display.append(c)


@chance("plan", "an Escape Plan card is dealt", hidden=(1, "plan ?"))
def _plan_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    left = st.plans_left
    return [(codec.PLAN + c, 1.0 / len(left)) for c in left] if left else []


@applies("plan")
def _plan_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Player Setup L: the card to seat ``task[1]``, who alone sees it."""
    c = action - codec.PLAN
    seat = task[1]
    st.plans_left.remove(c)
    st.plan[seat] = c
    name = st.game.content.plans[c].name
    st.split(PlanDealt(seat, name), PlanDealt(seat, "?"), frozenset({seat}))


@auto("start_spaces")
def _start_spaces(st: EscapeState, task: Task) -> None:
    """Fill the Business and Safe House spaces of both starting tiles (the module docstring's choice)."""
    city = st.game.city
    for tile in city.start_tiles:
        for loc in city.tiles[tile].locations:
            kind = city.locations[loc].kind
            if kind == BUSINESS:
                push(st, ("choose_business", 0, loc))
            elif kind == SAFE_HOUSE:
                push(st, ("choose_safe_house", 0, loc))


@decision("choose_business", "{who} chooses the Business tile for the new business space")
def _business_legal(st: EscapeState, task: Task) -> list[Action]:
    used = set(st.business_at.values())
    return [codec.BUSINESS + b - 1 for b in range(1, 7) if b not in used]


@applies("choose_business")
def _business_apply(st: EscapeState, task: Task, action: Action) -> None:
    """"3. City": "choose any available Business tile ... and place it on the Business space"."""
    st.business_at[task[2]] = action - codec.BUSINESS + 1


@decision("choose_safe_house", "{who} chooses the Safe House tile for the new safe house space")
def _safe_house_legal(st: EscapeState, task: Task) -> list[Action]:
    used = set(st.safe_house_at.values())
    return [codec.SAFE_HOUSE + h - 1 for h in range(1, 4) if h not in used]


@applies("choose_safe_house")
def _safe_house_apply(st: EscapeState, task: Task, action: Action) -> None:
    """"3. City": "choose any available Safe House tile ... and place it on the Safe House space"."""
    st.safe_house_at[task[2]] = action - codec.SAFE_HOUSE + 1
