"""Escape Plan: one seat's planning problem, built from its view (issue 24).

:func:`build` turns a seat's view (``view.to_json()``) into a :class:`~solver.plan.escape_route.RouteProblem`
wrapped in a :class:`PlanInstance` that remembers which Location each node is and how to play the first
step of a plan. The pieces, with the rulebook sections they follow:

* **Nodes.** Node 0 is where the seat stands. The others are the Locations it can still profit from:
  every Location whose Visit is worth more than nothing to it (:meth:`Reader.visit_value
  <solver.plan.escape_values.Reader.visit_value>`: its plan card's businesses and safe houses, income
  marks, keys, lockers it can open, contacts, the Clinic, Church, Hospital ...) and where a Travel may
  end ("Step 3: Visit": not a visited business or safe house, a closed business only with a key, a gang
  only when it may be visited), the best ``max_nodes`` of them by value. On day 3, once the open exit is
  known ("2. Patrol", "Escaping the City"), it is one more node, ``problem.end``, even when the seat
  stands on it (a Travel never ends where it starts, "Step 1: Travel": the arc then takes two turns).
* **Second Visits.** The Clinic, the Church and an exit give a contact card at every Visit (an exit
  its income or a tile too): each such node has a twin, its second Visit, reached by Travels into the
  Location, so a route that takes both leaves and comes back.
* **Arcs.** One Travel is one turn of 3 MP (``city.reachable``; gas cans are left out: each is spent
  when used, so counting them on every arc would overstate the reach; but the escape's own Travel may
  burn every gas can held, there being nothing left to save them for). A one-turn arc's officers are
  those of the tiles left by the route with fewest officers ("Step 2: Avoid"; in a 2-player game Sandra
  counts as one more where she stands, "Only 2 Player"). Longer arcs are shortest paths over one-turn
  Travels that stop over only where a Travel surely may end now and later (:meth:`Reader.stopover`),
  fewest turns first, then fewest officers (a networkx Dijkstra on ``turns * 1000 + officers``). The arc
  into the day-3 exit is the escape: it leaves the exit's tile too ("Escaping the City").
* **Police later.** Officers stay on their tiles from day to day: a City phase adds new tiles with their
  own officers but moves none ("3. City"), so ``later_officers`` are today's officers, without Sandra
  (she moves every turn: where she will be is not known).
* **Avoids.** ``free_avoids`` counts the face-up avoid components the seat can pay for (contacts cost
  their price, an asset its space's price, from the money above the escape's reserve; equipment and
  gang members are free), cheapest first: one per one-officer component; a tile-wide one (contact,
  asset, gang member) as the officers of its colours on the most crowded placed tile not already given
  to another (each tile-wide component covers one tile).
  Used components come back at a Rest; the plan does not count on that. Every further officer is a
  red wound, ``wound`` = $20k ("Final Scoring").
* **Money.** ``money`` in hand; ``gain`` what a stop changes (income at an income-mark Business or Safe
  House or at an exit, the Gang's -$5k, the Hospital's heal, the Church's $1k, equipment at a store,
  each as the Visit's value assumed it); ``need`` on day 3 the escape's worst price and fees
  (:meth:`Reader.reserve`), 0 before.
* **Turns.** ``today`` = the turns left today (:meth:`Reader.turns_left`); ``horizon`` = today plus
  3 turns a later day and the Extra Action discs not spent today (two a day at most, "5. Day Turns"),
  less the escape's own Travel on day 3 when it is not yet a node (days 1-2 have no ``end``).
* **Contact cards.** A Visit to a Business, the Clinic, the Church or an Exit gives a card; the route's
  cards are worth the contacts table at their number (``card_values``: the table is convex, $0, 10,
  30, 60, 100k for 1-5 cards, so the fifth is worth far more than the first), up to the spaces they
  can fill: the empty Contact spaces and those under a locked asset (unlocked over the game). The
  prizes of those stops leave the card out.
* **Decay.** A prize loses ``decay`` (5%) of itself per turn of the route before it: the values are
  today's and the world moves (others take cubes and close businesses, plans change at every
  re-plan), so of two routes worth the same the one that takes the big prizes first is the surer; it
  also makes a turn spent resting cost what it delays.

What the model leaves out (re-planning every turn absorbs most of it): other players' moves and the
officers they move toward thresholds; tiles not yet placed (new routes and Locations on later days);
businesses closing and contact cards taken by others; visit values changing along the route (money,
contacts, keys and lockers gained on the way, notoriety and the crowd); Rest turns and the avoid
components they flip back; the executive Travel resources (Jet Ski, Sewer, flights, gas cans); the
Visits made at stopovers.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import networkx as nx

from solver.games.escape import board as pb
from solver.games.escape.city import reachable
from solver.games.escape.content import Asset
from solver.plan.escape_route import NO_ARC, SCALE, Plan, RouteProblem
from solver.plan.escape_values import WOUND, Reader

__all__ = ["MAX_NODES", "PlanInstance", "build"]

#: prize Locations kept (the best by value): the solves stay well under a second
MAX_NODES: Final = 14
#: movement points of a planned Travel ("Step 1: Travel": 1, 2 or 3)
MP: Final = 3
#: a turn's weight in the shortest paths: fewer turns always beat fewer officers
_TURN: Final = 1000
#: share of a prize lost per turn of the route before it (``RouteProblem.decay``)
DECAY: Final = 0.05

#: a Travel the plan makes: (destination Location, the tiles it leaves)
Leg = tuple[int, frozenset[int]]


@dataclass(frozen=True, eq=False)
class PlanInstance:
    """A seat's route problem with its node -> Location map and the Travels each arc stands for."""

    problem: RouteProblem
    #: node -> Location id (node 0: where the seat stands; the exit node: the open exit)
    locations: tuple[int, ...]
    #: (u, v) -> the Travels of arc u->v in order (the last ends at ``locations[v]``)
    legs: Mapping[tuple[int, int], tuple[Leg, ...]]
    #: the day-3 open exit's node (the escape), or None
    exit_node: int | None = None

    def first_leg(self, plan: Plan) -> Leg | None:
        """The next Travel of ``plan``: its first stop's first waypoint and the tiles it leaves (for an
        escape, the tiles before the exit's own); None when the plan makes no stop."""
        if not plan.stops:
            return None
        legs = self.legs.get((0, plan.stops[0]))
        return legs[0] if legs else None

    def escapes_now(self, plan: Plan) -> bool:
        """Whether ``plan``'s next Travel is the escape through the open exit."""
        return (bool(plan.stops) and plan.stops[0] == self.exit_node
                and len(self.legs.get((0, plan.stops[0]), ())) == 1)

    def describe(self, plan: Plan) -> list[tuple[str, float]]:
        """The plan's stops as (name, prize in $k)."""
        p = self.problem
        return [(p.names[s], p.prize[s] / SCALE) for s in plan.stops]


def build(game: Any, data: Mapping[str, Any], st: Any | None = None, *,
          max_nodes: int = MAX_NODES, decay: float = DECAY) -> PlanInstance:
    """The planning problem of the seat whose view is ``data`` (``view.to_json()``); ``st`` (a state
    resampled from that view) is read for public facts only (module docstring)."""
    r = Reader(game, data, st)
    layout = r.layout()
    here = r.my_location()
    officers = _officer_counts(r)
    plain = {t: len(types) for t, types in r.officers.items()}

    # one-turn Travels between every pair of placed Locations: the fewest-officer set of tiles left
    graph = nx.DiGraph()
    for src in layout.locations:
        graph.add_node(src)
        for dst, sets in reachable(layout, src, MP).items():
            best = min(sets, key=lambda s: (_count(officers, s), sorted(s)))
            graph.add_edge(src, dst, w=_TURN + _count(officers, best), later=_count(plain, best),
                           tiles=best)
    exit_loc = r.open_exit()
    escape = -1  # the escape's node in the graph: an arc from every Location that reaches the exit
    if exit_loc >= 0:
        exit_tile = game.city.locations[exit_loc].tile
        # the escape may burn every gas can held (+1 MP each, "Step 1: Travel"): nothing is left to
        # save them for
        escape_mp = MP + r.me.gas_cans
        for src in layout.locations:
            to_exit = reachable(layout, src, escape_mp).get(exit_loc)
            if to_exit:
                best = min(to_exit, key=lambda s: (_count(officers, s | {exit_tile}), sorted(s)))
                graph.add_edge(src, escape, w=_TURN + _count(officers, best | {exit_tile}),
                               later=_count(plain, best | {exit_tile}), tiles=best)

    def through(a: int, b: int, attrs: dict[str, Any], source: int) -> int | None:
        # a Travel may start at the source or at a stopover only (it ends there and goes on)
        return attrs["w"] if a == source or r.stopover(a) else None

    paths: dict[int, tuple[dict[int, int], dict[int, list[int]]]] = {}

    def paths_from(source: int) -> tuple[dict[int, int], dict[int, list[int]]]:
        # once per source and graph: a Location and its second Visit share theirs
        got = paths.get(source)
        if got is None:
            got = paths[source] = nx.single_source_dijkstra(
                graph, source, weight=lambda a, b, attrs: through(a, b, attrs, source))
        return got

    dist0, _ = paths_from(here)
    candidates = [loc for loc in layout.locations
                  if loc != here and loc != exit_loc and loc in dist0 and _may_end(r, loc)]
    scored = [(round(r.visit_value(loc) * SCALE), loc) for loc in candidates]
    best_prizes = heapq.nlargest(max_nodes, [(v, -loc) for v, loc in scored if v > 0])
    nodes = [here] + sorted(-loc for _, loc in best_prizes)
    cards = [0] + [int(_gives_card(r, loc)) for loc in nodes[1:]]
    # a card's part of the Visit's value is the table's marginal now: the route's cards are counted
    # by the whole table instead (``card_values``)
    prize = [0] + [round((r.visit_value(loc) - r.contact_gain() * c) * SCALE)
                   for loc, c in zip(nodes[1:], cards[1:], strict=True)]
    names = [game.location_names[loc] for loc in nodes]
    # a second Visit where one gives a card each time (the Clinic, the Church, an exit): its own node,
    # reached by Travels into the Location, so the route leaves and comes back ("Step 1: Travel")
    target = list(nodes)
    for v in range(1, len(nodes)):
        loc = nodes[v]
        if game.city.locations[loc].kind not in _AGAIN_KINDS:
            continue
        again = -2 - loc  # the second Visit's node in the graph: every Travel into loc reaches it
        for src, _, attrs in list(graph.in_edges(loc, data=True)):
            graph.add_edge(src, again, **attrs)
        kind = game.city.locations[loc].kind
        target.append(again)
        nodes.append(loc)
        cards.append(cards[v])
        prize.append(prize[v] if kind == "exit" else 0)  # an exit pays income or a tile again
        names.append(f"{names[v]} again")
    paths.clear()  # the second Visits' nodes are new in the graph
    exit_node = None
    if exit_loc >= 0:
        exit_node = len(nodes)
        nodes.append(exit_loc)
        target.append(escape)
        prize.append(0)
        names.append(f"escape via {game.location_names[exit_loc]}")
        cards.append(0)
    n = len(nodes)
    turns = [[NO_ARC] * n for _ in range(n)]
    today_off = [[0] * n for _ in range(n)]
    later_off = [[0] * n for _ in range(n)]
    legs: dict[tuple[int, int], tuple[Leg, ...]] = {}
    for u in range(n):
        if u == exit_node:
            continue  # the escape ends the game: nothing leaves it
        dist, path = paths_from(nodes[u])
        for v in range(1, n):
            if v == u or target[v] not in dist or target[v] == nodes[u]:
                continue  # (a Location and its second Visit: the arc is to the other node)
            steps = path[target[v]]
            turns[u][v] = len(steps) - 1
            today_off[u][v] = int(dist[target[v]]) - _TURN * turns[u][v]
            later_off[u][v] = sum(graph.edges[a, b]["later"] for a, b in zip(steps, steps[1:], strict=False))
            legs[u, v] = tuple((nodes[v] if b < 0 else b, graph.edges[a, b]["tiles"])
                               for a, b in zip(steps, steps[1:], strict=False))
    gain = [_gain(r, loc) for loc in nodes]
    if exit_node is not None:
        gain[exit_node] = 0  # the escape pays its price, which ``need`` holds back
    problem = RouteProblem(
        names=tuple(names), prize=tuple(prize),
        turns=tuple(map(tuple, turns)), officers=tuple(map(tuple, today_off)),
        later_officers=tuple(map(tuple, later_off)),
        today=r.turns_left(), horizon=_horizon(r, exit_node is not None),
        free_avoids=_free_avoids(r), wound=round(WOUND * SCALE),
        money=max(0, r.me.money) * SCALE, gain=tuple(gain),
        need=r.reserve() * SCALE if exit_node is not None else 0, end=exit_node,
        decay=tuple(round(max(0, x) * decay) for x in prize), cards=tuple(cards),
        card_values=_card_values(r))
    return PlanInstance(problem, tuple(nodes), legs, exit_node)


def _officer_counts(r: Reader) -> dict[int, int]:
    """Officers per placed tile today; in a 2-player game Sandra is one more where she stands ("Only 2
    Player": she counts as an officer of the traveller's choice)."""
    counts = {t: len(types) for t, types in r.officers.items()}
    if r.n == 2:
        tile = r.city.locations[r.pawn_loc[r.n]].tile
        counts[tile] = counts.get(tile, 0) + 1
    return counts


def _count(counts: Mapping[int, int], tiles: frozenset[int]) -> int:
    """Officers on ``tiles``."""
    return sum(counts.get(t, 0) for t in tiles)


def _may_end(r: Reader, loc: int) -> bool:
    """Whether a Travel of this seat may end on ``loc`` as its view tells ("Step 3: Visit"; the
    ``can_end_at`` rules of the Visit module, read from the view): not a visited business or safe house
    (the Visit's value is negative there), a closed business only with a key, a gang only when no marker
    and no other pawn are there and the seat has a marker and $5k."""
    kind = r.city.locations[loc].kind
    if kind == "business":
        number = r.business_at.get(loc)
        if number is None:
            return False
        cubes = r.data["cubes"][number - 1]  # "Closing a Business": its display's cubes
        if len(cubes) >= r.content.closing_visits[r.n]:
            keys = any(k is not None and k.face_up for k in r.me.keys)
            master = any(s.piece == pb.Piece.ASSET and s.face_up and s.ident == Asset.MASTER_KEY
                         for s in r.me.unlocked)
            return keys or master
        return True
    if kind == "gang":
        if r.me.money < r.content.prices.gang or r.me.gang_markers <= 0 or r.others_at(loc):
            return False
        return all(loc not in b["gang_controlled"] for b in r.data["boards"])  # public location ids
    return True


def _gain(r: Reader, loc: int) -> int:
    """The money a Visit to ``loc`` changes, as its value assumes (scaled)."""
    kind = r.city.locations[loc].kind
    me = r.me
    got = 0
    if kind == "business" and r.plan is not None and loc in r.business_at:
        if r.plan.business(r.business_at[loc]) is None:  # the income mark: income after the cube goes
            got = max(0, me.income_cubes - 1)
    elif kind == "safe_house" and r.plan is not None and loc in r.safe_house_at:
        if r.plan.safe_house(r.safe_house_at[loc]) is None:
            got = max(0, me.income_cubes - 1)
    elif kind == "exit":
        closed = r.data["patrol_on"][int(r.city.locations[loc].label) - 1] >= 2
        short = r.day == 3 and r.spendable() < 0  # the income may pay the escape: it is taken
        if not closed or short or r.exit_tile_value() <= r.income_value():
            got = me.income_cubes
    elif kind == "gang":
        got = -r.content.prices.gang
    elif kind == "hospital":
        got = -r.hospital_heal()[1]
    elif kind == "church" and r.spendable() >= 1 and me.notoriety >= 2:
        got = -r.content.prices.church
    elif kind == "store" and r.spendable() >= 2 and r.empty_item_space():
        got = -min(r.content.equipment_costs)
    return got * SCALE


#: Locations whose Visit gives a card every time, planned twice at most
_AGAIN_KINDS: Final = frozenset({"clinic", "church", "exit"})
#: Locations whose Visit gives a contact card ("Step 3: Visit": Businesses, the Clinic, the Church,
#: Exits)
_CARD_KINDS: Final = frozenset({"business", "clinic", "church", "exit"})


def _gives_card(r: Reader, loc: int) -> bool:
    """Whether a Visit to ``loc`` gives this seat a contact card."""
    return r.city.locations[loc].kind in _CARD_KINDS


def _card_values(r: Reader) -> tuple[int, ...]:
    """What k more contact cards are worth, k = 0 .. the spaces they can fill ("Final Scoring": the
    contacts table, + $2k a card for its use, as :meth:`Reader.contact_gain`): the empty open Contact
    spaces and those under a locked asset (unlocked over the game, those first: "Asset Tiles")."""
    me = r.me
    open_spaces = me.contacts[:max(0, len(me.contacts) - me.handcuffs)]
    room = sum(1 for s in open_spaces if s.piece in (pb.Piece.EMPTY, pb.Piece.ASSET))
    table = r.content.scoring.contacts
    have = pb.contact_count(me)
    top = len(table) - 1
    return tuple(round((table[min(have + k, top)] - table[min(have, top)] + 2 * k) * SCALE)
                 for k in range(room + 1))


def _free_avoids(r: Reader) -> int:
    """Officers the face-up avoid components cover, those the seat can pay for (module docstring).

    A component's price ("Executive Actions"): equipment and gang members are free, a contact card
    costs its price, an unlocked asset its space's price ("Asset Tiles"); the Avoid step pays only
    from money above the escape's reserve (:meth:`Reader.spendable`), so the cheapest components are
    counted while the money lasts. A one-officer component covers 1; a tile-wide one the officers of
    its colours on the most crowded tile not given to another (at least 1).
    """
    money = max(0, r.spendable())
    free = 0
    taken: set[int] = set()
    sandra = r.city.locations[r.pawn_loc[r.n]].tile if r.n == 2 else -1
    for price, mask, wide in sorted(r.avoid_components(), key=lambda t: (t[0], t[2])):
        if price > money:
            break
        money -= price
        if not wide:
            free += 1
            continue
        best, where = 0, -1
        for t, types in sorted(r.officers.items()):
            if t in taken:
                continue
            covered = sum(1 for p in types if mask >> p & 1) + (1 if t == sandra else 0)
            if covered > best:
                best, where = covered, t
        if where >= 0:
            taken.add(where)
        free += max(best, 1)
    return free


def _horizon(r: Reader, escaping: bool) -> int:
    """Turns left in the whole plan: today's, then 3 a later day plus the Extra Action discs left (two
    a day at most: Night and Dawn, "5. Day Turns"), less day 3's escape when it is not a node."""
    today = r.turns_left()
    discs = r.me.extra_actions
    spent = min(discs, 2) if r.part <= 2 else min(discs, 4 - r.part)
    left = max(0, discs - spent)
    total = today
    for _day in range(r.day + 1, 4):
        use = min(left, 2)
        total += 3 + use
        left -= use
    if r.day < 3 and not escaping:
        total -= 1  # the escape's Travel on day 3
    return max(total, 0)
