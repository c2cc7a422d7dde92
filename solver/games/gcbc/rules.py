"""Good Cop Bad Cop (Overworld Games, 2014) as a state machine: the game, the state, the run loop.

The rulebook (``shared/rulebooks/good-cop-bad-cop.es.txt``) is the specification; its sections are
cited as [Preparar], [Integridad], [Como se Juega], [Recibir un disparo], [Armas], [Equipo] and
[Fin]. Decisions where it is silent are listed in ``docs/gcbc-rules.md``. The modules:

* :mod:`.deal` set-up counts, the deal as chance nodes, arrangements, teams;
* :mod:`.flow` turns and Equipment windows (the timing model);
* :mod:`.actions` Investigate, Equip, Arm, Shoot, Aim, wounds, elimination, the end;
* :mod:`.effects` the 16 Equipment cards; :mod:`.equipment` their content file;
* :mod:`.view` what a seat knows; :mod:`.resample` states consistent with a view; :mod:`.codec`.

The state holds no RNG and no hidden order: Integrity cards are dealt by chance nodes, and the
Equipment deck is the multiset of cards never drawn (drawn from at a chance node) above the queue of
returned cards, in the order they went to the bottom (see :mod:`.actions`).
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any, Self

import numpy as np

from solver.core import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    BadStateError,
    ConfigError,
    Decision,
    DecisionKind,
    Game,
    Seat,
    State,
)
from solver.core.records import ActionRecords, Record
from solver.games.gcbc import actions, codec, effects, flow, ops
from solver.games.gcbc.deal import GUNS, MAX_PLAYERS, MIN_PLAYERS, SIDE_CARDS, team_of
from solver.games.gcbc.equipment import EquipmentSet, load_equipment
from solver.games.gcbc.resample import resample, search
from solver.games.gcbc.spec import DECKS
from solver.games.gcbc.view import GCBCView, build_view


@lru_cache(maxsize=16)
def _cached_equipment(content: str | None, deck: str) -> EquipmentSet:
    return load_equipment(content, deck)


class GCBCGame(Game):
    """Good Cop Bad Cop for ``players`` (4..8), with the ``deck`` of Equipment and its ``content``."""

    name = "gcbc"

    def __init__(self, players: int = 6, deck: str = "rulebook", content: str | None = None) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not (
            MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise ConfigError(f"gcbc: players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {players!r}")
        if not isinstance(deck, str):
            raise ConfigError(f"gcbc: deck must be a deck name such as 'rulebook' or '4th', not {deck!r}")
        if content is not None and not isinstance(content, str):
            raise ConfigError(f"gcbc: content must be a file path or null, not {content!r}")
        if content is None and deck not in DECKS:
            raise ConfigError(f"gcbc: deck must be one of {', '.join(DECKS)}, not {deck!r}")
        try:
            self.equipment = _cached_equipment(content, deck)
        except BadStateError as err:
            raise ConfigError(str(err)) from err
        if len(self.equipment.cards) < players + 2:
            # Hands hold at most players + 1 cards at once, so the deck can never run dry.
            raise ConfigError(
                f"gcbc: {players} players need at least {players + 2} Equipment cards, "
                f"the content has {len(self.equipment.cards)}"
            )
        self.num_players = players
        self.deck = deck
        self.content = content
        self.side_cards = SIDE_CARDS[players]
        self.guns = GUNS[players]
        self.card_ids = self.equipment.ids

    def config(self) -> JSON:
        """The options as JSON (what ``solver.games.load('gcbc', **config)`` takes)."""
        return {"players": self.num_players, "deck": self.deck, "content": self.content}

    def new_initial_state(self) -> GCBCState:
        """The state before the deal (a chance node)."""
        return GCBCState(self)

    def action_to_str(self, action: Action) -> str:
        """Notation of ``action`` (see :mod:`solver.games.gcbc.codec`)."""
        return codec.action_to_str(action, self.card_ids)

    def str_to_action(self, text: str) -> Action:
        """Parse notation (``investigate 2.1``, ``play taser 3``, ``aim 3``, ``pass`` ...)."""
        return codec.str_to_action(text, self.card_ids)

    def resample(self, view: Any, rng: np.random.Generator, belief: Any | None = None) -> GCBCState:
        """A full state whose ``view(view.seat)`` equals ``view`` (see :mod:`.resample`)."""
        return resample(self, view.to_json(), rng, belief)

    def view_from_json(self, data: JSON) -> GCBCView:
        """Rebuild and check a view: it must be one a real game could show that seat."""
        if not isinstance(data, dict):
            raise BadStateError("gcbc view: expected a JSON object")
        if data.get("game") != self.name or data.get("config") != self.config():
            raise BadStateError(
                f"gcbc view: it is for {data.get('game')!r} {data.get('config')!r}, "
                f"not {self.name!r} {self.config()!r}"
            )
        seat = data.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise BadStateError(f"gcbc view: seat {seat!r} is not 0..{self.num_players - 1}")
        state, closest = search(self, data, np.random.default_rng(0), None)
        if state is not None:
            return state.view(seat)
        if closest is None:
            raise BadStateError(f"gcbc view: seat {seat}'s history does not replay to any game")
        rebuilt = closest.view(seat).to_json()
        key = next(k for k in sorted(set(rebuilt) | set(data)) if rebuilt.get(k) != data.get(k))
        raise BadStateError(
            f"gcbc view: field {key!r} does not follow from the history "
            f"(given {str(data.get(key))[:200]}, a game gives {str(rebuilt.get(key))[:200]})"
        )


class GCBCState(ActionRecords, State):
    """The true position: every card, the deck, the guns, the turn and its to-do stack."""

    game: GCBCGame

    def __init__(self, game: GCBCGame) -> None:
        super().__init__(game)
        n = game.num_players
        self.n = n
        self.cards: list[list[int]] = [[] for _ in range(n)]  # Integrity card per position
        self.face_up: list[list[bool]] = [[] for _ in range(n)]
        self.alive = [True] * n
        self.wounded = [False] * n
        self.inverted = [False] * n  # 4th-edition Planted Evidence
        self.gun = [False] * n
        self.aim = [-1] * n  # the seat a Gun points at, -1 before it is aimed or without a Gun
        self.guns_centre = game.guns
        self.honest_left = game.side_cards  # Honest/Crooked cards not dealt yet
        self.crooked_left = game.side_cards
        self.hands: list[list[int]] = [[] for _ in range(n)]  # Equipment cards held
        self.unseen: list[int] = list(range(len(game.card_ids)))  # never drawn: the deck's top part
        self.bottom: list[int] = []  # returned cards, the next to draw first
        self.bottom_known: list[frozenset[int] | None] = []  # who knows each (None: everyone)
        self.turn = 0  # 0 during set-up
        self.active = 0  # whose turn it is (holds the Lead Investigator marker)
        self.base = 0  # the seat play continues from after an extra turn
        self.direction = 1  # +1: seat numbers go up (clockwise, to the left); -1 after a Smoke Grenade
        self.extra_turns: list[int] = []
        self.next_turn = -1
        self.announced = -1  # the announced action, until it resolves
        self.forced_shoot = False
        self.camera: list[tuple[int, int]] = []  # cards just investigated (Surveillance Camera)
        self.winner = ""  # "honest", "crooked" or "solo" once the game is over
        self.winners: tuple[int, ...] = ()
        self.reason = ""
        self.init_records()
        self.stack: list[ops.Task] = [(ops.SETUP_DONE,)]
        self.stack += [(ops.ARRANGE, s, ops.SETUP) for s in reversed(range(n))]
        self.stack += [(ops.DRAW, s, ops.FROM_DEAL) for s in reversed(range(n))]
        self.stack += [(ops.DEAL, s) for s in reversed(range(n))]
        self.stack.append((ops.LEADERS,))
        self._legal: list[Action] = []
        self._chance: list[tuple[Action, float]] = []
        self._run()

    # --- protocol -------------------------------------------------------------------------------
    def current_player(self) -> Seat:
        """The seat to act, CHANCE, or TERMINAL."""
        if self.winner:
            return TERMINAL
        top = self.stack[-1]
        if top[0] in ops.CHANCE_OPS:
            return CHANCE
        if top[0] == ops.ANNOUNCE:
            return self.active
        return top[2] if top[0] == ops.WINDOW else top[1]

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions (chance outcomes at a chance node)."""
        return list(self._legal)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Deal and draw outcomes with their probabilities."""
        if self.current_player() != CHANCE:
            return super().chance_outcomes()
        return list(self._chance)

    def apply_unchecked(self, action: Action) -> None:
        """Apply ``action`` with no legality check (search only: an illegal action corrupts)."""
        top = self.stack.pop()
        self.history.append(action)
        self.log_action(self._record(top, action))
        _APPLY[top[0]](self, top, action)
        self._run()

    def returns(self) -> list[float]:
        """+1 to each winner, -1 to everyone else (the lone winner of both leader cards too)."""
        if not self.winner:
            return [0.0] * self.n
        return [1.0 if s in self.winners else -1.0 for s in range(self.n)]

    def decision(self) -> Decision:
        """Who acts now and why, in words every seat may read."""
        seat = self.current_player()
        if seat == TERMINAL:
            return Decision(TERMINAL, DecisionKind.NONE, TERMINAL, f"game over: {self.reason}")
        turn_of = self.active if self.turn else (CHANCE if seat == CHANCE else seat)
        prompt = flow.prompt(self, self.stack[-1])
        if seat == CHANCE:
            return Decision(CHANCE, DecisionKind.CHANCE, turn_of, prompt)
        kind = DecisionKind.TURN if seat == turn_of else DecisionKind.RESPONSE
        return Decision(seat, kind, turn_of, prompt)

    def team(self, seat: Seat) -> str | None:
        """``"honest"`` or ``"crooked"`` by the seat's Integrity cards now; None before the deal.

        Read with :func:`.deal.team_of` (Planted Evidence included), as the end of the game reads it
        [Integridad]; a hand holding both leader cards reads ``"honest"`` (that player wins alone).
        """
        cards = self.cards[seat]
        return team_of(cards, self.inverted[seat]) if cards else None

    def view(self, seat: Seat) -> GCBCView:
        """What ``seat`` knows (see :mod:`solver.games.gcbc.view`)."""
        return build_view(self, seat)

    def clone(self) -> Self:
        """An independent copy."""
        other = copy.copy(self)
        other.history = self.history.copy()
        other.events = self.events.copy()
        for name in ("alive", "wounded", "inverted", "gun", "aim", "unseen", "bottom", "bottom_known",
                     "extra_turns", "camera", "records", "marks", "stack", "_legal", "_chance"):
            setattr(other, name, getattr(self, name).copy())
        other.cards = [c.copy() for c in self.cards]
        other.face_up = [f.copy() for f in self.face_up]
        other.hands = [h.copy() for h in self.hands]
        return other

    # --- the run loop ---------------------------------------------------------------------------
    def _run(self) -> None:
        """Run automatic steps until a decision or chance node is on top; cache its options."""
        self._legal, self._chance = [], []
        while not self.winner:
            if not self.stack:
                raise BadStateError("gcbc: the to-do stack ran empty before the game ended")
            top = self.stack[-1]
            op = top[0]
            if op in ops.AUTOMATIC_OPS:
                self.stack.pop()
                _AUTOMATIC[op](self)
                continue
            if op in ops.CHANCE_OPS:
                if op == ops.DRAW and not self.unseen:
                    self.stack.pop()
                    actions.draw_from_bottom(self, top[1], top[2])
                    continue
                self._chance = actions.chance_outcomes(self, top)
                self._legal = [a for a, _ in self._chance]
                return
            if op == ops.WINDOW:
                ready = flow.next_in_window(self, top)
                if ready is None:
                    self.stack.pop()
                    flow.close_window(self, top)
                    continue
                self.stack[-1] = top = ready
            legal = _OPTIONS[op](self, top)
            if legal:
                self._legal = legal
                return
            self.stack.pop()  # a choice nobody can make (no target left) is skipped

    def _record(self, top: ops.Task, action: Action) -> Record:
        text = self.game.action_to_str(action)
        op = top[0]
        if op == ops.LEADERS:
            return (CHANCE, text, frozenset(), "leaders ?")
        if op in (ops.DEAL, ops.DRAW):
            return (CHANCE, text, frozenset({top[1]}), text.split()[0] + " ?")
        if op in (ops.ARRANGE, ops.KEEP_EQUIP):
            return (top[1], text, frozenset({top[1]}), text.split()[0] + " ?")
        return (self.current_actor(top), text, None, text)

    def current_actor(self, top: ops.Task) -> int:
        """The seat that decides ``top``."""
        if top[0] == ops.ANNOUNCE:
            return self.active
        return top[2] if top[0] == ops.WINDOW else top[1]


_AUTOMATIC = {
    ops.SETUP_DONE: flow.setup_done,
    ops.TURN_START: flow.turn_start,
    ops.RESOLVE: actions.resolve,
    ops.AIM_PHASE: actions.aim_phase,
    ops.TURN_END: flow.turn_end,
}
_OPTIONS = {
    ops.ARRANGE: actions.arrange_options,
    ops.WINDOW: flow.window_options,
    ops.ANNOUNCE: actions.announce_options,
    ops.AIM: actions.aim_options,
    ops.REAIM: effects.reaim_options,
    ops.FLIP: actions.flip_options,
    ops.KEEP_EQUIP: actions.keep_equip_options,
    ops.KEEP_CARD: effects.keep_card_options,
    ops.PICK: effects.pick_options,
}
_APPLY = {
    ops.LEADERS: actions.apply_leaders,
    ops.DEAL: actions.apply_deal,
    ops.DRAW: actions.apply_draw,
    ops.ARRANGE: actions.apply_arrange,
    ops.WINDOW: flow.apply_window,
    ops.ANNOUNCE: flow.apply_announce,
    ops.AIM: actions.apply_aim,
    ops.REAIM: effects.apply_reaim,
    ops.FLIP: actions.apply_flip,
    ops.KEEP_EQUIP: actions.apply_keep_equip,
    ops.KEEP_CARD: effects.apply_keep_card,
    ops.PICK: effects.apply_pick,
}
