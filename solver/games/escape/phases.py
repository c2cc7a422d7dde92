"""The round's phases ("Gameplay" 1-6), notoriety settling and thresholds, and the end of the game.

Each phase is bookkeeping that queues the decisions and chance nodes of its steps:

* ``day_start`` -> "1. Income" (skipped on day 1), "2. Patrol", "3. City", "4. Turn Order", then the five
  parts of "5. Day Turns" (``part_start`` 0..4), each ending with the notoriety update in turn order
  (``settle``), then "6. Change of Day" (skipped on day 3) or the end.
* The game ends after day 3's Dawn, or after a part of the day once every player has escaped or been
  arrested ("Goal of the Game"; "Escaping the City").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape.city import EXIT, City, distance, legal_placements
from solver.games.escape.content import ASSETS, Asset
from solver.games.escape.events import (
    GameOver,
    NotorietySettled,
    OfficerMoved,
    PatrolDrawn,
    TilePlaced,
    Unlocked,
    Wounded,
)
from solver.games.escape.setup import place_pending_exits, place_spaces_auto
from solver.games.escape.tasks import applies, auto, chance, decision, push

if TYPE_CHECKING:
    from solver.games.escape.state import EscapeState, Task

PARTS = ("Morning", "Afternoon", "Evening", "Night", "Dawn")
DAYS = 3
#: Patrol cards drawn on days 1, 2, 3 ("2. Patrol": two; "If it is Day 3, draw the last remaining card").
PATROL_DRAWS = (2, 2, 1)
#: Per threshold line: assets unlocked, Extra Action discs taken ("Crossing the Threshold").
LINE_REWARDS = ((1, 0), (2, 0), (1, 1))


@auto("day_start")
def _day_start(st: EscapeState, task: Task) -> None:
    """Queue the day's phases 1-4 and the first part of the day."""
    queue: list[Task] = []
    if st.day > 1:
        queue.append(("income",))
    queue += [("patrol",)] * PATROL_DRAWS[st.day - 1]
    queue += [("city_start",), ("turn_order",), ("part_start", 0)]
    push(st, *queue)


# --- 1. Income --------------------------------------------------------------------------------------

@auto("income")
def _income(st: EscapeState, task: Task) -> None:
    """"1. Income": every player receives the lowest visible number of the Income track (Sandra none,
    "Only 2 Player"); then, in turn order, each player below the first threshold line ("a Notoriety of 1
    or 2") may pay $3k to unlock an asset."""
    st.phase = "income"
    for seat in range(st.n):
        if st.active(seat):
            got = pb.receive_income(st.boards[seat])
            st.note("income", f"seat {seat} receives ${got}k")
    price = st.game.content.prices.income_unlock
    track = st.game.content.notoriety
    offers: list[Task] = []
    for pawn in st.order:
        if not st.is_sandra(pawn) and st.active(pawn):
            board = st.boards[pawn]
            if pb.can_unlock_at_income(board, track) and board.money >= price and pb.locked_assets(board):
                offers.append(("income_unlock", pawn))
    push(st, *offers)


@decision("income_unlock", "{who} may pay to unlock an asset (Income phase)")
def _income_unlock_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.DONE] + [codec.UNLOCK + a for a in pb.locked_assets(st.boards[task[1]])]


@applies("income_unlock")
def _income_unlock_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Pay the income-phase price and unlock the chosen asset ("1. Income"; "Asset Tiles")."""
    if action == codec.DONE:
        return
    board = st.boards[task[1]]
    board.money -= st.game.content.prices.income_unlock
    unlock(st, task[1], Asset(action - codec.UNLOCK), "income")


def unlock(st: EscapeState, seat: int, asset: Asset, why: str) -> None:
    """Unlock ``asset`` on ``seat``'s board and say so."""
    kept = pb.unlock_asset(st.boards[seat], st.game.content, asset)
    st.events.append(Unlocked(seat, ASSETS[asset], kept is not None, why))


# --- 2. Patrol --------------------------------------------------------------------------------------

@chance("patrol", "a patrol card is drawn")
def _patrol_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    total = sum(st.patrol_left)
    return [(codec.PATROL + e, n / total) for e, n in enumerate(st.patrol_left) if n] if total else []


@applies("patrol")
def _patrol_apply(st: EscapeState, task: Task, action: Action) -> None:
    """"2. Patrol": the card goes on its exit's patrol space; a second card closes the exit, which takes
    one of the exit tile stacks (the first closed exit stack 0, the second stack 1): on its tile if that
    tile is on the board or shows in the display, else pending until it shows."""
    st.phase = "patrol"
    e = action - codec.PATROL
    st.patrol_left[e] -= 1
    st.patrol_on[e] += 1
    closed = st.patrol_on[e] == 2
    st.events.append(PatrolDrawn(f"exit {e + 1}", closed))
    if closed:
        stack = len(st.exit_stack_at)
        if stack < len(st.exit_stacks):
            st.exit_stack_at[e + 1] = stack
            st.exit_pending.append(e + 1)
            place_pending_exits(st)


def exit_open(st: EscapeState, number: int) -> bool:
    """Whether exit ``number`` (1..3) is open: fewer than 2 patrol cards on it ("Exits")."""
    return st.patrol_on[number - 1] < 2


def escape_exit(st: EscapeState) -> int:
    """The exit Location players may escape through, or -1 ("Escaping the City": only on day 3, through
    "the only open exit", known once the last patrol card is drawn in day 3's Patrol phase). With a
    user's patrol cards that leave several exits open, nobody can escape (the rule names one exit)."""
    if st.day != DAYS or st.part < 0:
        return -1
    open_exits = [e for e in (1, 2, 3) if exit_open(st, e)]
    if len(open_exits) != 1:
        return -1
    return st.game.city.labelled(EXIT, str(open_exits[0]))


# --- 3. City ----------------------------------------------------------------------------------------

@auto("city_start")
def _city_start(st: EscapeState, task: Task) -> None:
    """"3. City": beginning with the first player and in turn order, players place the 4 display tiles;
    with fewer than 4 players the sequence repeats (2 players: 2 each, Sandra none), with 5 the last in
    turn order places none. Then the emptied stacks show new tops, each with two officers."""
    st.phase = "city"
    seats = [p for p in st.order if not st.is_sandra(p)]
    placing = [seats[i % len(seats)] for i in range(4)]
    push(st, *[("choose_tile", s) for s in placing], ("city_end",))


def placeable(st: EscapeState, tile: int) -> tuple[tuple[tuple[int, int], int], ...]:
    """The legal (cell, rotation) placements of ``tile`` ("3. City"), remembered per placed city."""
    city = st.game.city
    key = (id(city), tuple(sorted(st.placed.items())), tile)
    got = _PLACEMENTS.get(key)
    if got is None or got[0] is not city:  # keyed by id: a City hashes slowly
        if len(_PLACEMENTS) >= 4096:
            _PLACEMENTS.clear()
        got = _PLACEMENTS[key] = (city, tuple(legal_placements(city, st.placed, tile)))
    return got[1]


_PLACEMENTS: dict[tuple[int, tuple[tuple[tuple[int, int], tuple[int, int]], ...], int],
                  tuple[City, tuple[tuple[tuple[int, int], int], ...]]] = {}


@decision("choose_tile", "{who} chooses a display tile to place")
def _choose_tile_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.DISPLAY + s for s, t in enumerate(st.tops) if t >= 0 and placeable(st, t)]


@applies("choose_tile")
def _choose_tile_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Take the chosen stack's top tile from the display (its officers go with it)."""
    s = action - codec.DISPLAY
    tile = st.tops[s]
    st.tops[s] = -1
    push(st, ("place_tile", task[1], tile))


@decision("place_tile", "{who} places the chosen tile")
def _place_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.place(cell, k) for cell, k in placeable(st, task[2])]


@applies("place_tile")
def _place_apply(st: EscapeState, task: Task, action: Action) -> None:
    """"3. City": the tile goes on the chosen cell and rotation; its officers move with it; a Business or
    Safe House space makes the placer choose an available tile for it; a gang space gets 2 members."""
    cell_index, k = divmod(action - codec.PLACE, 6)
    cell = codec.REGION[cell_index]
    tile = task[2]
    seat = task[1]
    st.placed[cell] = (tile, k)
    city = st.game.city
    st.events.append(TilePlaced(seat, city.tiles[tile].name, cell, k))
    place_spaces_auto(st, tile)
    follow: list[Task] = []
    for loc in city.tiles[tile].locations:
        kind = city.locations[loc].kind
        if kind == "business":
            follow.append(("choose_business", seat, loc))
        elif kind == "safe_house":
            follow.append(("choose_safe_house", seat, loc))
    push(st, *follow)


@auto("city_end")
def _city_end(st: EscapeState, task: Task) -> None:
    """Flip the top tile of every stack whose top was placed, then two officers for each new top."""
    draws: list[Task] = [("draw_top", s) for s in range(4) if st.tops[s] < 0 and st.stacks[s]]
    push(st, *draws, ("officers_for_new_tops", "city"))


# --- 4. Turn order ----------------------------------------------------------------------------------

def new_order(order: list[int], notoriety: list[int]) -> list[int]:
    """"4. Turn Order": highest notoriety first; tied players' relative positions are reversed."""
    position = {p: i for i, p in enumerate(order)}
    return sorted(order, key=lambda p: (-notoriety[p], -position[p]))


@auto("turn_order")
def _turn_order(st: EscapeState, task: Task) -> None:
    """Set the day's turn order (Sandra by her notoriety too, "Only 2 Player")."""
    st.phase = "turn order"
    st.order = new_order(st.order, [b.notoriety for b in st.boards])
    st.note("order", "turn order: " + ", ".join(st.pawn_name(p) for p in st.order))


# --- 5. Day turns -----------------------------------------------------------------------------------

@auto("part_start")
def _part_start(st: EscapeState, task: Task) -> None:
    """"5. Day Turns": in turn order one Action each (Morning, Afternoon, Evening: mandatory; Night and
    Dawn: each decides in turn whether to spend an Extra Action disc, then acts), then the notoriety
    update in turn order."""
    part = task[1]
    st.part = part
    st.phase = PARTS[part]
    kind = "turn" if part < 3 else "extra"
    queue: list[Task] = [(kind, p) for p in st.order]
    queue += [("settle", p) for p in st.order]
    queue.append(("part_end", part))
    push(st, *queue)


@auto("extra")
def _extra(st: EscapeState, task: Task) -> None:
    """Night and Dawn: a player with an Extra Action disc decides whether to spend it; Sandra spends hers
    whenever she has one ("Only 2 Player": "At night and dawn, Sandra uses her Extra Tokens")."""
    pawn = task[1]
    board = st.boards[pawn]
    if board.extra_actions <= 0:
        return
    if st.is_sandra(pawn):
        board.extra_actions -= 1
        push(st, ("turn", pawn))
    elif st.active(pawn):
        push(st, ("extra_action", pawn))


@decision("extra_action", "{who} decides whether to spend an Extra Action disc")
def _extra_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.YES, codec.NO]


@applies("extra_action")
def _extra_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Spend the disc and take the turn now, before the next player decides ("5. Day Turns")."""
    if action == codec.YES:
        st.boards[task[1]].extra_actions -= 1
        push(st, ("turn", task[1]))


@auto("settle")
def _settle(st: EscapeState, task: Task) -> None:
    """"Adjusting Notoriety": the marker moves by red minus blue cubes; each step above the top is a
    wound; each threshold line crossed upward: every lower player, in turn order, moves an officer
    toward the mover, then the mover unlocks 1 / 2 / 1 asset (+ an Extra Action disc at the third line).

    An arrested player is out of the game and settles nothing; an escaped one still settles ("Your
    Notoriety is still updated on the turn you escape"). Sandra's marker moves the same way ("Adjusting
    Sandra's Notoriety": a cube above and one below cancel); she takes no wounds and unlocks nothing."""
    pawn = task[1]
    sandra = st.is_sandra(pawn)
    if not sandra and st.arrested[pawn]:
        return
    board = st.boards[pawn]
    result = pb.settle_notoriety(board, st.game.content.notoriety)
    if result.old != result.new or result.wounds:
        st.events.append(NotorietySettled(pawn, result.old, result.new, tuple(i + 1 for i in result.crossed)))
    if result.wounds and not sandra:
        wound(st, pawn, result.wounds, "the top of the Notoriety track")
    queue: list[Task] = []
    for line in result.crossed:
        queue += police_moves(st, pawn)
        if not sandra:
            unlocks, discs = LINE_REWARDS[line]
            queue += [("unlock", pawn, f"threshold {line + 1}")] * unlocks
            if discs:
                queue.append(("extra_disc", pawn, discs))
    push(st, *queue)


def police_moves(st: EscapeState, mover: int) -> list[Task]:
    """"Crossing the Threshold": every player with less notoriety than ``mover``, in turn order, moves one
    officer toward it. Sandra's move is made by the player who did not cross ("Adjusting Sandra's
    Notoriety"); when Sandra crosses, the players below her move. An arrested player is out of the
    game and moves nothing; an escaped one still does (the rule exempts nobody still scoring)."""
    row = st.boards[mover].notoriety
    out: list[Task] = []
    for p in st.order:
        if p == mover or st.boards[p].notoriety >= row:
            continue
        if st.is_sandra(p):
            deciders = [s for s in range(st.n) if s != mover and not st.arrested[s]]
            if deciders:
                out.append(("police_pick", deciders[0], mover))
        elif not st.arrested[p]:
            out.append(("police_pick", p, mover))
    return out


@auto("extra_disc")
def _extra_disc(st: EscapeState, task: Task) -> None:
    """The third line's Extra Action disc."""
    st.boards[task[1]].extra_actions += task[2]


def _mover_cell(st: EscapeState, mover: int) -> tuple[int, int] | None:
    """The cell of the tile of ``mover``'s Location (an escapee's last one: the exit it left by)."""
    return st.tile_cell(st.game.city.locations[st.location[mover]].tile)


def officer_targets(st: EscapeState, mover: int, tile: int, police: int) -> list[int]:
    """Placed tiles an officer of type ``police`` on ``tile`` may move to toward ``mover``: at least one
    tile closer to the mover's Location's tile, none of its type there, never the hospital tile
    ("Crossing the Threshold"; "Moving Police Officers")."""
    target = _mover_cell(st, mover)
    source = st.tile_cell(tile)
    if target is None or source is None:
        return []
    far = distance(source, target)
    hospital = st.game.city.hospital_tile
    return sorted(t for cell, (t, _) in st.placed.items()
                  if t != hospital and t != tile and not st.officers[t][police]
                  and distance(cell, target) < far)


@decision("police_pick", "{who} moves a police officer toward a player who crossed a threshold")
def _pick_legal(st: EscapeState, task: Task) -> list[Action]:
    """Officers on placed tiles with a legal destination (display tiles are not in the city, so they
    have no distance to the mover: our reading). Skipped when no officer can move ("if possible")."""
    mover = task[2]
    out = []
    for _, (t, _) in st.placed.items():
        for p in range(3):
            if st.officers[t][p] and officer_targets(st, mover, t, p):
                out.append(codec.PICK_OFFICER + 3 * t + p)
    return out


@applies("police_pick")
def _pick_apply(st: EscapeState, task: Task, action: Action) -> None:
    tile, police = divmod(action - codec.PICK_OFFICER, 3)
    push(st, ("police_dest", task[1], task[2], tile, police))


@decision("police_dest", "{who} chooses where the officer goes")
def _dest_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.DEST + t for t in officer_targets(st, task[2], task[3], task[4])]


@applies("police_dest")
def _dest_apply(st: EscapeState, task: Task, action: Action) -> None:
    seat, mover, tile, police = task[1], task[2], task[3], task[4]
    dest = action - codec.DEST
    st.officers[tile][police] = False
    st.officers[dest][police] = True
    names = st.game.city.tiles
    st.events.append(OfficerMoved(seat, codec.POLICE_NAMES[police], names[tile].name, names[dest].name,
                                  mover))


@decision("unlock", "{who} unlocks an asset")
def _unlock_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.UNLOCK + a for a in pb.locked_assets(st.boards[task[1]])]


@applies("unlock")
def _unlock_apply(st: EscapeState, task: Task, action: Action) -> None:
    unlock(st, task[1], Asset(action - codec.UNLOCK), str(task[2]))


def wound(st: EscapeState, seat: int, count: int, why: str) -> None:
    """``count`` wounds, one at a time ("Step 2: Avoid": "resolve each Wound separately"). A wound that
    would take a Handcuff card while none is left in the supply of 10 does nothing (the rulebook is
    silent; like ``board.take_wound`` with every space handcuffed, it gives the player nothing)."""
    board = st.boards[seat]
    cuffs = 0
    for _ in range(count):
        if board.green == 0 and st.handcuffs == 0:
            continue
        effect = pb.take_wound(board).effect
        if effect in (pb.WoundEffect.HANDCUFF_EMPTY, pb.WoundEffect.HANDCUFF_ASSET,
                      pb.WoundEffect.HANDCUFF_CONTACT):
            st.handcuffs -= 1
            cuffs += 1
    st.events.append(Wounded(seat, count, cuffs, why))


@auto("part_end")
def _part_end(st: EscapeState, task: Task) -> None:
    """After the update: the next part, or "6. Change of Day" (Rest tokens back; skipped on day 3), or
    the end (after day 3's Dawn, or once nobody is left in the city)."""
    part = task[1]
    if not any(st.active(s) for s in range(st.n)):
        end(st, "every player has escaped or been arrested")
    elif part < len(PARTS) - 1:
        push(st, ("part_start", part + 1))
    elif st.day == DAYS:
        end(st, "day 3 is over")
    else:
        st.phase = "change of day"
        for board in st.boards:
            board.rested = False
        st.day += 1
        st.part = -1
        push(st, ("day_start",))


def final_keys(st: EscapeState) -> dict[int, tuple[int, int, int, int]]:
    """Each escaped seat's tie-break key ("Final Scoring": only escaped players may win)."""
    content = st.game.content
    out = {}
    for s in range(st.n):
        if st.escaped[s]:
            board = st.boards[s]
            out[s] = pb.tie_break_key(board, pb.score(board, content.plans[st.plan[s]], content))
    return out


def end(st: EscapeState, reason: str) -> None:
    """End the game and announce the scores (escaped players) and the winners."""
    if st.over:
        return
    content = st.game.content
    scores = tuple(pb.score(st.boards[s], content.plans[st.plan[s]], content).total if st.escaped[s] else None
                   for s in range(st.n))
    st.over = True
    st.phase = "over"
    st.reason = reason
    st.todo.clear()
    st.events.append(GameOver(scores, tuple(st.winners()), reason))
