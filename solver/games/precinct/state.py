"""The Police Precinct state: every piece on the board, every hand, the tracks, and the work queue.

The turn is a queue of *tasks* (``todo``): each is a tuple ``(name, *args)``. The head task is a
decision of one seat, a chance node, or bookkeeping that runs at once (:mod:`.tasks` runs it). An
action pops the head and may push sub-tasks in front of the rest: an arrest pushes the choice of
patrol officers, donuts, the help window, the sabotage window and the roll. Tasks are tuples of
ints and strings, so the queue copies in one slice.

The state holds no RNG and no deck order: every die, draw and deal is a chance node.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Self

from solver.core import CHANCE, TERMINAL, Action, BadStateError, Decision, DecisionKind, Seat, State
from solver.core.records import ActionRecords, Record
from solver.games.precinct import codec, tasks, turn
from solver.games.precinct.board import AT_CROSSING, Cop, Slot, Stack
from solver.games.precinct.content import DECKS, UPGRADES
from solver.games.precinct.events import GameOver, Note

if TYPE_CHECKING:
    from solver.games.precinct.rules import PrecinctGame
    from solver.games.precinct.view import PrecinctView

Task = tuple[Any, ...]


class PrecinctState(ActionRecords, State):
    """The true position of a Police Precinct game."""

    game: PrecinctGame

    def __init__(self, game: PrecinctGame) -> None:
        super().__init__(game)
        c = game.content
        self.n = game.num_players
        self.cops: list[Cop] = []
        self.order: list[int] = []  # cop indices in turn order, first player first
        self.at = 0  # index into order of the cop whose turn it is
        self.support: list[int] = [game.station] * game.support_vehicles
        self.loyalty: list[bool] = [False] * self.n  # True: dirty
        self.dealt = 0
        self.revealed: list[bool] = [False] * self.n  # loyalty public (revealed, exposed, cleared)
        self.underground: list[bool] = [False] * self.n  # a dirty cop playing loyalty-card turns
        self.peeks: list[set[int]] = [set() for _ in range(self.n)]  # seats whose loyalty a seat saw
        self.punks = [0] * 6
        self.punk_supply = game.punks
        self.gangs = [-1] * 6
        self.gang_pool = list(range(len(c.gangs)))
        self.patrol = [0] * 6
        self.patrol_stock = game.patrol_officers
        self.murderer = 0  # 0: not on the board; else his Bad Hood
        self.slots: list[Slot | None] = [None] * codec.MAX_SLOTS
        self.serial = 0
        self.urgent = -1
        self.stacks: list[Stack] = [Stack("", e, u) for e, u in c.decks]
        self.stacks[DECKS.index("crime_scene")].building = "Crime Scene Lot"
        self.stacks[DECKS.index("examine_body")].building = "Morgue"
        self.placed = [0] * len(DECKS)
        self.police = list(c.police_counts)
        self.police_discard = [0] * len(c.police)
        self.events_left = list(c.event_counts)
        # event cards someone looked at: (kind, the seats that know it), on top / at the bottom
        self.event_top: list[tuple[int, frozenset[int]]] = []
        self.event_bottom: list[tuple[int, frozenset[int]]] = []
        self.event_discard = [0] * len(c.events)
        self.unknown = list(c.unknown_counts)  # the stack and the face-down markers on the board
        self.unknown_discard = [0] * len(c.unknown_counts)
        self.unknown_unseen = 0  # markers discarded face down: still among those nobody has seen
        self.upgrades_left = list(c.upgrade_counts)
        self.donut_supply = c.donuts
        self.turn_track = game.start_turn
        self.crime = 0
        self.turns = 0  # player turns begun (a clock for "acquired this turn")
        self.result = 0  # 0 playing, 1 the good cops won, -1 they lost
        self.reason = ""
        self.ctx: dict[str, Any] = {}  # the procedure under way (dice, cards, who asked)
        self.todo: list[Task] = []
        self.init_records()
        turn.setup(self)

    # --- protocol -------------------------------------------------------------------------------
    def current_player(self) -> Seat:
        """The seat to act, CHANCE, or TERMINAL."""
        if self.result != 0 or not self.todo:
            return TERMINAL
        return tasks.actor(self, self.todo[0])

    def decision(self) -> Decision:
        """Who acts and why, in words every seat may read."""
        seat = self.current_player()
        if seat == TERMINAL:
            return Decision(TERMINAL, DecisionKind.NONE, TERMINAL, f"game over: {self.reason}")
        task = self.todo[0]
        turn_of = self.cops[self.order[self.at]].seat if self.order else 0
        prompt = tasks.prompt(self, task)
        if seat == CHANCE:
            return Decision(CHANCE, DecisionKind.CHANCE, turn_of, prompt)
        kind = DecisionKind.TURN if seat == turn_of or not self.order else DecisionKind.RESPONSE
        return Decision(seat, kind, seat if kind == DecisionKind.TURN else turn_of, prompt)

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
        """+1 to each seat whose side won, -1 to the others; zeros while playing."""
        if self.result == 0:
            return [0.0] * self.n
        good_won = self.result > 0
        return [(1.0 if good_won != self.loyalty[s] else -1.0) for s in range(self.n)]

    def team(self, seat: Seat) -> str | None:
        """``"dirty"`` for a dirty cop, ``"good"`` otherwise."""
        return "dirty" if self.loyalty[seat] else "good"

    def view(self, seat: Seat) -> PrecinctView:
        """What ``seat`` knows (:mod:`solver.games.precinct.view`)."""
        from solver.games.precinct.view import build_view

        return build_view(self, seat)

    def clone(self) -> Self:
        """An independent copy."""
        other = copy.copy(self)
        other.history = self.history.copy()
        other.events = self.events.copy()
        other.records = self.records.copy()
        other.marks = self.marks.copy()
        other.cops = [cop.copy() for cop in self.cops]
        other.slots = [None if s is None else s.copy() for s in self.slots]
        other.stacks = [s.copy() for s in self.stacks]
        other.peeks = [set(p) for p in self.peeks]
        other.ctx = copy.deepcopy(self.ctx)
        for name in ("order", "support", "loyalty", "revealed", "underground", "punks", "gangs",
                     "gang_pool", "patrol", "placed", "police", "police_discard", "events_left",
                     "event_top", "event_bottom", "event_discard", "unknown", "unknown_discard",
                     "upgrades_left", "todo"):
            setattr(other, name, getattr(self, name).copy())
        return other

    # --- small helpers the rules share ----------------------------------------------------------
    @property
    def cop(self) -> Cop:
        """The cop whose turn it is."""
        return self.cops[self.order[self.at]]

    @property
    def cop_index(self) -> int:
        """Index of the cop whose turn it is."""
        return self.order[self.at]

    def note(self, what: str, text: str) -> None:
        """Emit a public :class:`Note`."""
        self.events.append(Note(what, text))

    def advance_crime(self, why: str) -> None:
        """The City Crime Track moves one step [The City Crime Track]; at FAIL the good cops lose."""
        self.crime += 1
        self.note("crime", f"City Crime advances to {self.crime} ({why})")
        if self.crime >= self.game.content.crime_fail:
            self.end(False, "the City Crime Track reached FAIL")

    def end(self, good_win: bool, reason: str) -> None:
        """End the game [Game End]."""
        if self.result != 0:
            return
        self.result = 1 if good_win else -1
        self.reason = reason
        self.todo.clear()
        self.events.append(GameOver(good_win, reason))

    def board_complete(self) -> bool:
        """Every evidence slot of the Murder Investigation Board is filled."""
        return all(self.placed[d] >= self.game.content.decks[d][0] for d in range(len(DECKS)))

    def cars_on(self, street: int, exclude: int = -1) -> int:
        """Police cars (cops' and support vehicles) on ``street``, not counting cop ``exclude``."""
        cops = sum(1 for i, c in enumerate(self.cops) if not c.out and c.street == street and i != exclude)
        return cops + sum(1 for s in self.support if s == street)

    def stat(self, cop: Cop, what: str) -> int:
        """A cop's investigate/arrest/emergency value with its upgrade."""
        ch = self.game.content.characters[cop.char]
        base = {"investigate": ch.investigate, "arrest": ch.arrest, "emergency": ch.emergency}[what]
        return base + (1 if UPGRADES.index(what) in cop.upgrades else 0)

    def has(self, cop: Cop, power: str) -> bool:
        """The cop's character has ``power``."""
        return power in self.game.content.characters[cop.char].powers

    def stack_at(self, street: int) -> list[int]:
        """Investigation decks on the board whose building is entered from ``street``."""
        city = self.game.city
        return [d for d, s in enumerate(self.stacks)
                if not s.gone and s.building and city.buildings[s.building] == street]

    def slot(self, e: int) -> Slot:
        """The card in board slot ``e``; BadStateError when the slot is empty (a corrupt queue)."""
        card = self.slots[e]
        if card is None:
            raise BadStateError(f"precinct: board slot {e + 1} is empty")
        return card

    def covered(self, deck: int) -> bool:
        """An emergency lies on the stack's building [Emergency Cards: "ON TOP of the Investigation Deck"]."""
        building = self.stacks[deck].building
        return any(s is not None and s.building == building for s in self.slots)

    def blocked(self) -> frozenset[int]:
        """Intersections an emergency lies on: no car passes them [PHASE 1]."""
        return frozenset(s.where for s in self.slots if s is not None and s.at == AT_CROSSING)

    def _record(self, action: Action) -> Record:
        return tasks.record(self, action)
