"""A player's turn: the Action (Rest or Move = Travel, Avoid, Visit), executive windows, escaping.

Rulebook sections: "Actions", "Rest", "Move", "Step 1: Travel", "Transportation", "Step 2: Avoid",
"Step 3: Visit", "Executive Actions", "Escaping the City". A turn is queued as tasks::

    turn (pays $1k after the first escape, or arrest)
      exec_window start -> action (rest | move | pass)
      rest:  rest_unlock -> exec_window end -> end_turn
      move:  exec_window travel -> gas -> travel -> [sandra_as] -> avoid -> wounds
             -> escape_step | visit_step (-> visit) -> exec_window end -> end_turn

**Hooks for the later modules** (``visit.py``, ``executive.py``, ``sandra.py``), kept in
:data:`.tasks.HOOKS` so that :mod:`.codec` can name executive actions without importing this module.
Each registers itself when imported (:mod:`.rules` imports them):

* ``HOOKS["visit"](st, seat, location) -> None``, run by the auto task ``("visit", seat, location)``:
  pushes the Location's steps ("Step 3: Visit") with :func:`.tasks.push` (they run before the ``end``
  executive window). The default does nothing. Subways and the Heliport never reach it
  (``visit_step`` skips them).
* ``HOOKS["sandra_turn"](st, pawn) -> None``, run by the auto task ``("sandra_turn", pawn)`` in a
  2-player game ("Sandra's Turn"; pawn ``st.n``; also at Night and Dawn when she spends a disc). The
  default is a documented no-op (Sandra stays where she is); :mod:`.sandra` replaces it with her turn.
* ``HOOKS["executive_options"](st, seat, window) -> list[Action]``: the executive actions ``seat`` may
  take in ``window`` (``"start"``, ``"travel"``, ``"avoid"``, ``"end"``), ids in ``codec.EXEC`` ..;
  default none. ``HOOKS["apply_executive"](st, seat, window, action) -> None`` applies one. In the
  ``"avoid"`` window the choices are made against ``st.ctx["avoid"]``, the officers still to avoid
  (``[tile, police type, from Sandra]`` lists; an avoid resource removes entries), and the traveller
  ends the loop with ``take wounds``. In the ``"travel"`` window a resource sets ``st.ctx["jet_ski"]``
  (a body index of the layout), adds to ``st.ctx["flights"]`` / ``st.ctx["sewers"]`` / ``st.ctx["mp"]``;
  the travel decision reads them. A window with no executive action is skipped; with some, ``done``
  (``take wounds`` in the Avoid step) ends it.
* ``HOOKS["executive_name"](game, k) -> str | None``: the notation of ``codec.EXEC + k``.
* ``HOOKS["can_end_at"](st, seat, location) -> bool``: whether a Travel may end on ``location``
  ("Some Locations list possible situations where you cannot visit that Location": a closed business
  without a key, a gang with a marker ...); default True.

Turn context (``st.ctx`` during a turn): ``seat``, ``mp`` (3 + gas cans returned + resources), ``gas``,
``jet_ski``, ``flights``, ``sewers``, ``start`` (the Location the Travel starts from), ``dest``,
``left`` (tile ids left), ``avoid`` (officers still to avoid), ``escape`` (True on an escape).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.core import Action
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape.city import HELIPORT, SUBWAY, reachable
from solver.games.escape.content import Asset
from solver.games.escape.events import Arrested, Escaped, Travelled
from solver.games.escape.phases import escape_exit, unlock, wound
from solver.games.escape.tasks import HOOKS, applies, auto, decision, push

if TYPE_CHECKING:
    from solver.games.escape.state import EscapeState, Task

#: Movement points of a Travel before resources ("Step 1: Travel": "1, 2, or 3").
BASE_MP = 3
WINDOWS = ("start", "travel", "avoid", "end")


def executive_name(game: Any, k: int) -> str | None:
    """The notation of executive action ``codec.EXEC + k`` (None: no such action)."""
    name: str | None = HOOKS["executive_name"](game, k)
    return name


@auto("turn")
def _turn(st: EscapeState, task: Task) -> None:
    """One pawn's turn in a part of the day. After the first escape a player pays $1k before each of
    his actions or is arrested at once ("Escaping the City"). Escaped and arrested players take no
    more turns; Sandra's turn is the ``sandra_turn`` hook."""
    pawn = task[1]
    if st.is_sandra(pawn):
        push(st, ("sandra_turn", pawn))
        return
    if not st.active(pawn):
        return
    board = st.boards[pawn]
    if st.escapes:
        fee = st.game.content.prices.after_escape
        if board.money < fee:
            st.arrested[pawn] = True
            st.events.append(Arrested(pawn, fee, "could not pay the fee after the first escape"))
            return
        board.money -= fee
    st.ctx = {"seat": pawn, "mp": BASE_MP, "gas": 0, "jet_ski": None, "flights": 0, "sewers": 0}
    push(st, ("exec_window", pawn, "start"), ("action", pawn))


@auto("sandra_turn")
def _sandra_turn(st: EscapeState, task: Task) -> None:
    """Sandra's turn ("Sandra's Turn"): the ``sandra_turn`` hook (:mod:`.sandra`)."""
    HOOKS["sandra_turn"](st, task[1])


@decision("exec_window", "{who} may take executive actions")
def _window_legal(st: EscapeState, task: Task) -> list[Action]:
    options = list(HOOKS["executive_options"](st, task[1], task[2]))
    return options + [codec.DONE] if options else []


@applies("exec_window")
def _window_apply(st: EscapeState, task: Task, action: Action) -> None:
    """"Executive Actions": any number in the step they belong to; ``done`` ends the window."""
    if action != codec.DONE:
        HOOKS["apply_executive"](st, task[1], task[2], action)
        push(st, task)


def travel_options(st: EscapeState, seat: int, mp: int) -> list[Action]:
    """The Travel choices with ``mp`` movement points and the turn's resources: per destination
    Location ``reachable`` offers and the hook allows, each of its first :data:`codec.MAX_ROUTES` minimal
    sets of tiles left; and, on day 3, escaping through the open exit by each of its routes."""
    ctx = st.ctx
    found = reachable(st.layout(), st.location[seat], min(mp, 12), jet_ski=ctx.get("jet_ski"),
                      flights=ctx.get("flights", 0), sewers=ctx.get("sewers", 0))
    can_end = HOOKS["can_end_at"]
    out = []
    exit_loc = escape_exit(st)
    for loc, sets in found.items():
        routes = min(len(sets), codec.MAX_ROUTES)
        if can_end(st, seat, loc):
            out += [codec.travel(loc, r) for r in range(routes)]
        if loc == exit_loc:
            out += [codec.ESCAPE + r for r in range(routes)]
    return out


@decision("action", "{who} chooses an Action: rest or move")
def _action_legal(st: EscapeState, task: Task) -> list[Action]:
    """"Actions": Rest (not twice a day) or Move (when some Travel is possible, gas cans included).
    When neither is possible the player passes (the rulebook is silent; nothing else can be done)."""
    seat = task[1]
    board = st.boards[seat]
    out = []
    if not board.rested:
        out.append(codec.REST)
    if travel_options(st, seat, st.ctx["mp"] + board.gas_cans):
        out.append(codec.MOVE)
    return out or [codec.PASS]


@applies("action")
def _action_apply(st: EscapeState, task: Task, action: Action) -> None:
    seat = task[1]
    if action == codec.REST:
        pb.rest(st.boards[seat])
        st.note("rest", f"seat {seat} rests")
        push(st, ("rest_unlock", seat), ("exec_window", seat, "end"), ("end_turn", seat))
    elif action == codec.MOVE:
        push(st, ("exec_window", seat, "travel"), ("gas", seat), ("travel", seat),
             ("exec_window", seat, "end"), ("end_turn", seat))
    else:
        st.note("pass", f"seat {seat} can neither rest nor move")
        push(st, ("exec_window", seat, "end"), ("end_turn", seat))


@decision("rest_unlock", "{who} unlocks an asset (Rest)")
def _rest_unlock_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.UNLOCK + a for a in pb.locked_assets(st.boards[task[1]])]


@applies("rest_unlock")
def _rest_unlock_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Rest 3: unlock any one locked asset tile."""
    unlock(st, task[1], Asset(action - codec.UNLOCK), "rest")


@decision("gas", "{who} decides how many gas cans to return for extra MP")
def _gas_legal(st: EscapeState, task: Task) -> list[Action]:
    """"Step 1: Travel": +1 MP per gas can returned; declared before the destination (the contract:
    a larger reach contains the smaller). Only counts that leave some Travel are offered."""
    seat = task[1]
    cans = st.boards[seat].gas_cans
    if not cans:
        return []
    mp = st.ctx["mp"]
    return [codec.GAS + k for k in range(cans + 1) if travel_options(st, seat, mp + k)]


@applies("gas")
def _gas_apply(st: EscapeState, task: Task, action: Action) -> None:
    k = action - codec.GAS
    st.boards[task[1]].gas_cans -= k
    st.gas_supply += k
    st.ctx["mp"] += k
    st.ctx["gas"] = k


@decision("travel", "{who} chooses where to travel and by which route")
def _travel_legal(st: EscapeState, task: Task) -> list[Action]:
    return travel_options(st, task[1], st.ctx["mp"])


@applies("travel")
def _travel_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Move the pawn; the officers of every tile left are to be avoided ("Step 2: Avoid"), and in a
    2-player game Sandra too when she stands on a tile left ("Only 2 Player"). An escape leaves the exit's
    tile too ("Escaping the City"). Sandra counts even on the Hospital tile (she is the Inspector, not an
    officer piece, so "No Police Officers can ever be on the Hospital tile" does not cover her; she
    leaves it on her first turn, which day 1's reversed order makes the first, sandra.py)."""
    seat = task[1]
    ctx = st.ctx
    escape = action >= codec.ESCAPE and action < codec.ESCAPE + codec.MAX_ROUTES
    if escape:
        dest, route = escape_exit(st), action - codec.ESCAPE
    else:
        dest, route = divmod(action - codec.TRAVEL, codec.MAX_ROUTES)
    found = reachable(st.layout(), st.location[seat], min(ctx["mp"], 12), jet_ski=ctx.get("jet_ski"),
                      flights=ctx.get("flights", 0), sewers=ctx.get("sewers", 0))
    tiles_left = set(found[dest][route])
    if escape:  # "including any that were on the tile with the Exit (since you are also leaving that tile)"
        tiles_left.add(st.game.city.locations[dest].tile)
    left = sorted(tiles_left)
    start = st.location[seat]
    st.location[seat] = dest
    names = st.game.location_names
    tiles = st.game.city.tiles
    st.events.append(Travelled(seat, names[start], names[dest], tuple(tiles[t].name for t in left),
                               ctx["gas"]))
    ctx.update(start=start, dest=dest, left=left, escape=escape)
    ctx["avoid"] = [[t, p, False] for t in left for p in range(3) if st.officers[t][p]]
    queue: list[Task] = []
    if st.sandra and st.game.city.locations[st.location[st.n]].tile in left:
        queue.append(("sandra_as", seat))
    queue += [("avoid", seat), ("wounds", seat)]
    queue.append(("escape_step", seat) if escape else ("visit_step", seat, dest))
    push(st, *queue)


@decision("sandra_as", "{who} chooses which officer type Sandra counts as")
def _sandra_legal(st: EscapeState, task: Task) -> list[Action]:
    return [codec.SANDRA_AS + p for p in range(3)]


@applies("sandra_as")
def _sandra_apply(st: EscapeState, task: Task, action: Action) -> None:
    """"Only 2 Player": Sandra counts as another officer of any type, chosen by the player avoiding her."""
    tile = st.game.city.locations[st.location[st.n]].tile
    st.ctx["avoid"].append([tile, action - codec.SANDRA_AS, True])


@decision("avoid", "{who} avoids the officers of the tiles left")
def _avoid_legal(st: EscapeState, task: Task) -> list[Action]:
    """"Step 2: Avoid": use avoid resources (executive actions) one at a time, or take the wounds."""
    if not st.ctx.get("avoid"):
        return []
    options = list(HOOKS["executive_options"](st, task[1], "avoid"))
    return options + [codec.TAKE_WOUNDS] if options else []


@applies("avoid")
def _avoid_apply(st: EscapeState, task: Task, action: Action) -> None:
    if action != codec.TAKE_WOUNDS:
        HOOKS["apply_executive"](st, task[1], "avoid", action)
        push(st, task)


@auto("wounds")
def _wounds(st: EscapeState, task: Task) -> None:
    """One wound per officer not avoided ("Step 2: Avoid"), resolved one by one."""
    count = len(st.ctx.get("avoid", ()))
    st.ctx["avoid"] = []
    if count:
        wound(st, task[1], count, "officers not avoided")


@auto("escape_step")
def _escape(st: EscapeState, task: Task) -> None:
    """"Escaping the City": pay the cost by player count and order of leaving, or be arrested; the pawn
    leaves the board (its last Location stays recorded: police move toward it) and there is no Visit."""
    seat = task[1]
    content = st.game.content
    cost = content.escape_cost(st.n, st.escapes)
    board = st.boards[seat]
    if board.money >= cost:
        board.money -= cost
        st.escaped[seat] = True
        st.events.append(Escaped(seat, st.escapes, cost))
        st.escapes += 1
    else:
        st.arrested[seat] = True
        st.events.append(Arrested(seat, cost, "could not pay the escape"))
    st.todo = [t for t in st.todo if not (t[0] == "exec_window" and t[1] == seat and t[2] == "end")]


@auto("visit_step")
def _visit_step(st: EscapeState, task: Task) -> None:
    """"Step 3: Visit", skipped on a Subway or the Heliport."""
    kind = st.game.city.locations[task[2]].kind
    if kind not in (SUBWAY, HELIPORT):
        push(st, ("visit", task[1], task[2]))


@auto("visit")
def _visit(st: EscapeState, task: Task) -> None:
    """Visit Location ``task[2]`` ("Step 3: Visit"): the ``visit`` hook (for now nothing happens)."""
    HOOKS["visit"](st, task[1], task[2])


@auto("end_turn")
def _end_turn(st: EscapeState, task: Task) -> None:
    """The turn is over: its context is dropped."""
    st.ctx = {}
