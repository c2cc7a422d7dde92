"""The Escape Plan state: the city, the officers, the piles as multisets, the boards, the work queue.

The turn is a queue of *tasks* (``todo``, see :mod:`.tasks`). The state holds **no deck order and no
RNG**: the four City tile stacks, the officer bag, the contact deck, the plan cards, the locker and exit
stacks, the patrol deck and the Inspector deck are multisets, and every draw is a chance node. Pawns
``0..n-1`` are the seats; in a 2-player game pawn ``n`` is Sandra, the game-controlled Inspector ("Only 2
Player"), with a board of her own used only for her notoriety cubes, marker and Extra Action discs.

``ctx`` holds the turn under way (movement points, travel resources, the tiles left, the officers to
avoid); hooks for the later modules read and write it (see :mod:`.turn`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Self

from solver.core import CHANCE, TERMINAL, Action, Decision, DecisionKind, JSONView, Seat, State
from solver.core.records import ActionRecords, Record
from solver.games.escape import board as pb
from solver.games.escape import setup, tasks
from solver.games.escape.board import Piece, PlayerBoard
from solver.games.escape.city import City, Layout
from solver.games.escape.codec import POLICE_NAMES

if TYPE_CHECKING:
    from solver.games.escape.rules import EscapeGame

Task = tuple[Any, ...]
Cell = tuple[int, int]

#: Decision task name -> the text the other seats see of its action (a decision whose choice is secret:
#: which drawn locker or exit tile is kept, "Lockers" 3). :mod:`.visit` fills it.
HIDDEN_DECISIONS: dict[str, Callable[[Action], str]] = {}
#: Chance task name -> the text every seat sees of its outcome, for a draw nobody sees (Sandra's locker and
#: exit tile discards, "Sandra's Cards": "without anyone seeing it"). :mod:`.sandra` fills it.
UNSEEN_CHANCES: dict[str, str] = {}
#: Income-track cube hexes on a Business or Safe House display ("Businesses" 2, "Sandra's Cards").
AMOUNT_HEX, INCOME_HEX, RED_HEX = 0, 1, 2
HEX_NAMES = ("amount", "income", "red")
#: Sites with cube displays: businesses 1..6 are sites 0..5, safe houses 1..3 sites 6..8.
SITES = 9


#: (id(city), placed) -> (the city, its Layout): states with the same city share one Layout and its memo
_LAYOUTS: dict[tuple[int, tuple[tuple[Cell, tuple[int, int]], ...]], tuple[City, Layout]] = {}


def _layout(city: City, placed: tuple[tuple[Cell, tuple[int, int]], ...]) -> Layout:
    key = (id(city), placed)
    got = _LAYOUTS.get(key)
    if got is None or got[0] is not city:  # keyed by id: a City hashes slowly
        if len(_LAYOUTS) >= 256:
            _LAYOUTS.clear()
        got = _LAYOUTS[key] = (city, Layout.of(city, dict(placed)))
    return got[1]


class EscapeView(JSONView):
    """One seat's information state; equal views have equal JSON and equal ``key()``."""


class EscapeState(ActionRecords, State):
    """The true position of an Escape Plan game."""

    game: EscapeGame

    def __init__(self, game: EscapeGame) -> None:
        super().__init__(game)
        city, content = game.city, game.content
        self.n = game.num_players
        self.sandra = self.n == 2
        self.pawns = self.n + (1 if self.sandra else 0)
        self.boards = [PlayerBoard(content) for _ in range(self.pawns)]
        self.location = [city.hospital] * self.pawns  # Player Setup A; 2-Player Setup b
        self.order = list(range(self.pawns))  # Player Setup M (seat 0 first); Sandra 3rd (2-Player d)
        self.plan = [-1] * self.n
        self.plans_left = list(range(len(content.plans)))  # the Escape Plan cards not dealt
        self.placed: dict[Cell, tuple[int, int]] = {}
        self.stacks = [list(city.stacks[s]) for s in ("A", "B", "C", "D")]  # tiles still face down
        self.tops = [-1] * 4  # the face-up top of each stack (the display), -1: none
        self.placing: list[int] = []  # this City phase: seats still to place, in order
        self.officers = [[False, False, False] for _ in city.tiles]  # per tile, per type
        self.bag = [10, 10, 10]  # 30 officers, 10 of each type (Game Components)
        self.returning = [0, 0, 0]  # same-type duplicates waiting to go back to the bag
        self.business_at: dict[int, int] = {}  # business Location -> Business tile number 1..6
        self.safe_house_at: dict[int, int] = {}  # safe house Location -> Safe House tile number 1..3
        self.keys: list[list[int]] = [[], [], []]  # per Safe House tile: the key colours on it
        self.keys_left = [content.keys_per_colour] * 3
        self.gang_supply = 8  # gang members in their area of the board (Board Setup 16)
        self.gangs: dict[int, int] = {}  # gang Location -> members on it
        self.contacts_left = [0] * len(content.contacts)  # the deck, by each card's first copy
        for card in content.contacts:
            self.contacts_left[content.contacts.index(card)] += 1
        self.display: list[int] = []  # the contact display, leftmost first
        self.lockers = [list(stack.values) for stack in content.lockers]  # multisets (visit.py draws)
        self.exit_stacks = [list(values) for values in content.exit_tiles]
        self.exit_stack_at: dict[int, int] = {}  # closed exit number 1..3 -> its exit tile stack
        self.exit_pending: list[int] = []  # closed exits whose tile is not visible yet
        self.patrol_left = [content.patrol.count(e) for e in (1, 2, 3)]
        self.patrol_on = [0, 0, 0]
        self.inspector_left = list(range(len(content.inspector)))  # Sandra's deck (sandra.py)
        self.handcuffs = 10  # Handcuff cards (Game Components)
        self.gas_supply = 6
        self.equipment_left = list(content.equipment_counts)
        self.fixers_left = list(range(len(content.fixer_costs)))
        # per site (business b: b - 1; safe house h: 5 + h) the income cubes on its display, in order:
        # [pawn, hex] with hex AMOUNT_HEX, INCOME_HEX or RED_HEX (visit.py; Sandra's cards in sandra.py)
        self.cubes: list[list[list[int]]] = [[] for _ in range(SITES)]
        self.escaped = [False] * self.n
        self.arrested = [False] * self.n
        self.escapes = 0
        self.day = 1
        self.part = -1  # -1 before the Day turns phase; 0..4 Morning .. Dawn
        self.phase = "setup"
        self.over = False
        self.reason = ""
        self.ctx: dict[str, Any] = {}
        self.todo: list[Task] = []
        self.layout_cache: tuple[int, Layout] | None = None
        self.init_records()
        setup.begin(self)

    # --- protocol -------------------------------------------------------------------------------
    def current_player(self) -> Seat:
        """The seat to act, CHANCE, or TERMINAL."""
        if self.over or not self.todo:
            return TERMINAL
        return tasks.actor(self, self.todo[0])

    def decision(self) -> Decision:
        """Who acts and why."""
        seat = self.current_player()
        if seat == TERMINAL:
            return Decision(TERMINAL, DecisionKind.NONE, TERMINAL, f"game over: {self.reason}")
        task = self.todo[0]
        text = f"day {self.day} {self.phase}: " + tasks.prompt(self, task)
        turn_of = self.ctx.get("seat", -1)
        if seat == CHANCE:
            return Decision(CHANCE, DecisionKind.CHANCE, CHANCE if turn_of < 0 else turn_of, text)
        if turn_of < 0 or turn_of == seat:
            return Decision(seat, DecisionKind.TURN, seat, text)
        return Decision(seat, DecisionKind.RESPONSE, turn_of, text)

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions (chance outcomes at a chance node)."""
        if self.current_player() == TERMINAL:
            return []
        return tasks.legal(self)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The outcomes of the chance node at the head of the queue, with their probabilities."""
        if self.current_player() != CHANCE:
            return super().chance_outcomes()
        return tasks.outcomes(self)

    def apply_unchecked(self, action: Action) -> None:
        """Apply ``action`` without checking it (search only)."""
        self.history.append(action)
        self.log_action(self._record(action))
        tasks.apply(self, action)

    def returns(self) -> list[float]:
        """+1 to each winner, -1 to every other seat; zeros while playing ("Final Scoring").

        Only escaped players may win; the highest score wins, ties broken by
        :func:`~solver.games.escape.board.tie_break_key`, and players still tied share the victory
        (each gets +1, as in the other free-for-all games here). When nobody escaped, nobody won:
        every seat gets -1 (each was arrested or failed to leave, which the rulebook calls losing).
        """
        if not self.over:
            return [0.0] * self.n
        winners = set(self.winners())
        return [1.0 if s in winners else -1.0 for s in range(self.n)]

    def winners(self) -> list[int]:
        """The seats that win ("Final Scoring"): escaped, with the best tie-break key."""
        from solver.games.escape.phases import final_keys

        keys = final_keys(self)
        if not keys:
            return []
        best = max(keys.values())
        return sorted(s for s, k in keys.items() if k == best)

    def view(self, seat: Seat) -> EscapeView:
        """What ``seat`` knows (:func:`build_view`)."""
        return build_view(self, seat)

    def clone(self) -> Self:
        """An independent copy."""
        other = copy.copy(self)
        other.history = self.history.copy()
        other.events = self.events.copy()
        other.records = self.records.copy()
        other.marks = self.marks.copy()
        other.boards = [b.copy() for b in self.boards]
        other.placed = dict(self.placed)
        other.stacks = [list(s) for s in self.stacks]
        other.officers = [list(o) for o in self.officers]
        other.business_at = dict(self.business_at)
        other.safe_house_at = dict(self.safe_house_at)
        other.keys = [list(k) for k in self.keys]
        other.gangs = dict(self.gangs)
        other.lockers = [list(s) for s in self.lockers]
        other.exit_stacks = [list(s) for s in self.exit_stacks]
        other.exit_stack_at = dict(self.exit_stack_at)
        other.ctx = copy.deepcopy(self.ctx)
        other.cubes = [[list(c) for c in site] for site in self.cubes]
        for name in ("location", "order", "plan", "plans_left", "tops", "placing", "bag", "returning",
                     "keys_left", "contacts_left", "display", "exit_pending", "patrol_left", "patrol_on",
                     "inspector_left", "equipment_left", "fixers_left", "escaped", "arrested", "todo"):
            setattr(other, name, getattr(self, name).copy())
        return other

    # --- helpers the rules share -----------------------------------------------------------------
    def layout(self) -> Layout:
        """The movement graph of the placed city (:class:`~.city.Layout`), shared by every state with the
        same placed city (its memo of reachable sets with it)."""
        key = len(self.placed)
        if self.layout_cache is None or self.layout_cache[0] != key:
            self.layout_cache = (key, _layout(self.game.city, tuple(sorted(self.placed.items()))))
        return self.layout_cache[1]

    def tile_cell(self, tile: int) -> Cell | None:
        """The cell of a placed tile, None when it is not on the board."""
        for cell, (t, _) in self.placed.items():
            if t == tile:
                return cell
        return None

    def active(self, seat: int) -> bool:
        """Whether ``seat`` is still in the city (neither escaped nor arrested)."""
        return not (self.escaped[seat] or self.arrested[seat])

    def is_sandra(self, pawn: int) -> bool:
        """Whether ``pawn`` is Sandra (2-player games)."""
        return self.sandra and pawn == self.n

    def pawn_name(self, pawn: int) -> str:
        """``seat 2`` or ``Sandra``."""
        return "Sandra" if self.is_sandra(pawn) else f"seat {pawn}"

    def note(self, what: str, text: str) -> None:
        """Emit a public :class:`~.events.Note`."""
        from solver.games.escape.events import Note

        self.events.append(Note(what, text))

    def _record(self, action: Action) -> Record:
        task = self.todo[0] if self.todo else None
        if task is not None and task[0] in UNSEEN_CHANCES:
            return (CHANCE, tasks.action_text(self.game, action), frozenset(), UNSEEN_CHANCES[task[0]])
        mask = HIDDEN_DECISIONS.get(task[0]) if task is not None else None
        if mask is not None and task is not None:
            seat = int(task[1])
            return (seat, tasks.action_text(self.game, action), frozenset({seat}), mask(action))
        return tasks.record(self, action)


# --- the view -------------------------------------------------------------------------------------------

def _board_json(st: EscapeState, pawn: int, seat: Seat) -> dict[str, Any]:
    """A board as ``seat`` sees it: everything public (money too: every change of it is public, so a
    careful player tracks it, ``docs/escape-rules.md`` "Hidden information"), but the values of another
    seat's Locker and Exit tiles hidden (they lie face down)."""
    data = st.boards[pawn].to_json()
    if pawn != seat and not st.over:
        data["items"] = [_hide_tile(s) for s in st.boards[pawn].items]
    return data


def _hide_tile(slot: pb.Slot) -> str:
    if slot.piece == Piece.LOCKER:
        return f"locker:{('green', 'black', 'brown')[slot.ident]}:?"
    if slot.piece == Piece.EXIT:
        return f"exit:{slot.ident}:?"
    return pb._slot_text(slot)


def view_data(st: EscapeState, seat: Seat) -> dict[str, Any]:
    """The JSON of ``seat``'s view, less the history, legal actions and decision.

    Public: the placed city and the display, officers by tile, the bag, keys, gangs, the contact display
    and deck size, the Business and Safe House tiles placed, patrol cards and closed exits, pile sizes,
    every pawn's Location, every board (another seat's Locker and Exit tile values hidden), escapes and
    arrests, the turn order, the income cubes on the Business and Safe House displays (a cube in an
    income hex shows that plan card's income mark), the Fixer tiles and Equipment left, the Inspector
    cards left in Sandra's deck (each card she reveals is removed from the game face up, so the deck's
    set is known to all; its order is chance). Only sizes of the Locker and Exit tile stacks: Sandra's
    discards from them are seen by nobody ("Sandra's Cards"). Private: the
    seat's own Escape Plan card (no deck order is in the state); every card is shown once the game is
    over (Escape Plan Cards: "revealed only at the end of the game")."""
    game = st.game
    city = game.city
    content = game.content
    tile_names = [t.name for t in city.tiles]
    return {
        "game": game.name, "config": game.config(), "seat": seat,
        "day": st.day, "part": st.part, "phase": st.phase, "order": list(st.order),
        "placed": [[q, r, tile_names[t], k] for (q, r), (t, k) in sorted(st.placed.items())],
        "display": [tile_names[t] if t >= 0 else None for t in st.tops],
        "stack_sizes": [len(s) for s in st.stacks],
        "officers": {tile_names[t]: [POLICE_NAMES[p] for p in range(3) if o[p]]
                     for t, o in enumerate(st.officers) if any(o)},
        "bag": list(st.bag), "returning": list(st.returning),
        "business_at": {game.location_names[loc]: b for loc, b in sorted(st.business_at.items())},
        "safe_house_at": {game.location_names[loc]: h for loc, h in sorted(st.safe_house_at.items())},
        "keys": [list(k) for k in st.keys], "gang_supply": st.gang_supply,
        "gangs": {game.location_names[loc]: c for loc, c in sorted(st.gangs.items())},
        "contact_display": [content.contacts[c].name for c in st.display],
        "contact_deck": sum(st.contacts_left),
        "lockers": [len(s) for s in st.lockers], "exit_stacks": [len(s) for s in st.exit_stacks],
        "exit_stack_at": {str(e): s for e, s in sorted(st.exit_stack_at.items())},
        "exit_pending": list(st.exit_pending),
        "patrol_on": list(st.patrol_on), "patrol_deck": sum(st.patrol_left),
        "inspector_deck": len(st.inspector_left),
        "inspector_left": [_inspector_name(content.inspector[c]) for c in st.inspector_left],
        "handcuffs": st.handcuffs, "gas_supply": st.gas_supply,
        "location": [game.location_names[loc] for loc in st.location],
        "boards": [_board_json(st, p, seat) for p in range(st.pawns)],
        "escaped": list(st.escaped), "arrested": list(st.arrested),
        "plan": content.plans[st.plan[seat]].name if st.plan[seat] >= 0 else None,
        "over": st.over, "reason": st.reason,
        "cubes": [[[c[0], HEX_NAMES[c[1]]] for c in site] for site in st.cubes],
        "equipment_left": list(st.equipment_left), "fixers_left": list(st.fixers_left),
        # "Escape Plan cards are revealed only at the end of the game" (Escape Plan Cards)
        "plans": [content.plans[p].name if p >= 0 else None for p in st.plan] if st.over else None,
    }


def _inspector_name(card: tuple[str, str]) -> str:
    """``business 3``, ``store A``: the Location an Inspector card depicts."""
    kind, label = card
    return f"{kind.replace('_', ' ')} {label}"


def build_view(st: EscapeState, seat: Seat) -> EscapeView:
    """Compute ``seat``'s view of ``st`` (the only place hidden facts are filtered)."""
    decision = st.decision()
    legal = tuple(st.legal_actions()) if decision.seat == seat else ()
    data = view_data(st, seat)
    data["history"] = st.seat_entries(seat)
    data["decision"] = decision.to_json()
    data["legal_actions"] = [st.game.action_to_str(a) for a in legal]
    return EscapeView(st.game, seat, data, legal, decision)
