"""LineUp (MindWare, about 2010) as a state machine: the game and the state.

The rulebook (``shared/rulebooks/lineup.txt``, cut off before "End of the Game") is the
specification, with the end of the game from ``shared/research/components.md``: the first player to
correctly identify four suspects, each from a different crime scene, wins at once. Sections are
cited as [Setup], [Game Play], [On a Lucky Break Space], [At a Crime Scene], [At the Police Station],
[Lineups]; the choices where they are silent are in ``docs/lineup-rules.md``. The modules:

* :mod:`.board` the (stand-in) board; :mod:`.content` Suspect and Lucky Break decks (stand-ins);
* :mod:`.turn` the phases of a turn; :mod:`.codec` notation; :mod:`.events`;
* :mod:`.view` what a seat knows; :mod:`.resample` states consistent with a view.

The state holds no RNG and no hidden order: die rolls, Suspect and Lucky Break draws and where the
Guilty card stands in a lineup are chance nodes. Each Suspect deck is the set of cards never drawn
(``unseen``) above the set of cards returned under it (``returned``, drawn only once ``unseen`` is
empty); the Lucky Break deck is the same with counts per kind.
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
from solver.games.lineup import codec, turn
from solver.games.lineup.board import Board, load_board
from solver.games.lineup.content import LuckyDeck, Suspects, load_lucky, load_suspects
from solver.games.lineup.spec import SPEC
from solver.games.lineup.turn import CHANCE_PHASES, START_COUNT, Phase
from solver.games.lineup.view import LineUpView, build_view

MIN_PLAYERS = SPEC.min_players
MAX_PLAYERS = SPEC.max_players


@lru_cache(maxsize=16)
def _content(board: str | None, suspects: str | None, lucky: str | None) -> tuple[Board, Suspects, LuckyDeck]:
    return load_board(board), load_suspects(suspects), load_lucky(lucky)


class LineUpGame(Game):
    """LineUp for ``players`` (2..6) on ``board`` with ``suspects`` and ``lucky`` content (paths or None)."""

    name = "lineup"

    def __init__(self, players: int = 4, board: str | None = None, suspects: str | None = None,
                 lucky: str | None = None) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not (
            MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise ConfigError(f"lineup: players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {players!r}")
        for what, value in (("board", board), ("suspects", suspects), ("lucky", lucky)):
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"lineup: {what} must be a file path or null, not {value!r}")
        try:
            self.board, self.suspects, self.lucky = _content(board, suspects, lucky)
        except BadStateError as err:
            raise ConfigError(str(err)) from err
        names = self.board.scene_names
        if set(names) != set(self.suspects.scenes):
            raise ConfigError(
                f"lineup: the board's crime scenes ({', '.join(names)}) are not the suspect decks' "
                f"({', '.join(self.suspects.scenes)})"
            )
        self.num_players = players
        self.options = {"board": board, "suspects": suspects, "lucky": lucky}
        #: card ids per scene number (the board's scene order)
        self.cards: tuple[tuple[str, ...], ...] = tuple(
            tuple(c.id for c in self.suspects.scenes[name]) for name in names
        )
        self.codec = codec.Codec(self.board, self.cards)

    def config(self) -> JSON:
        """The options as JSON (what ``solver.games.load('lineup', **config)`` takes)."""
        return {"players": self.num_players, **self.options}

    def new_initial_state(self) -> LineUpState:
        """Every pawn in the station, every count on 4, seat 0 to roll [Setup]."""
        return LineUpState(self)

    def action_to_str(self, action: Action) -> str:
        """Notation of ``action`` (see :mod:`solver.games.lineup.codec`)."""
        return self.codec.action_to_str(action)

    def str_to_action(self, text: str) -> Action:
        """Parse notation (``roll``, ``move 12``, ``lineup 1``, ``pick 3``, ``play hinder 2`` ...)."""
        return self.codec.str_to_action(text)

    def resample(self, view: Any, rng: np.random.Generator, belief: Any | None = None) -> LineUpState:
        """A full state whose ``view(view.seat)`` equals ``view`` (see :mod:`.resample`)."""
        from solver.games.lineup.resample import resample

        return resample(self, view.to_json(), rng, belief)

    def view_from_json(self, data: JSON) -> LineUpView:
        """Rebuild and check a view: it must be one a real game could show that seat."""
        from solver.games.lineup.resample import rebuild_view

        return rebuild_view(self, data)


class LineUpState(ActionRecords, State):
    """The true position: pawns, counts, every Suspect card's place, Lucky Break hands, the turn."""

    game: LineUpGame

    def __init__(self, game: LineUpGame) -> None:
        super().__init__(game)
        n = game.num_players
        self.n = n
        self.board = game.board
        self.pos = [game.board.station] * n
        self.count = [START_COUNT] * n
        self.held: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # face-down (scene, card)
        self.identified: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # face up
        self.hand = [[0] * len(game.lucky.counts) for _ in range(n)]  # Lucky Break cards per kind
        self.unseen = [list(range(len(ids))) for ids in game.cards]
        self.returned: list[list[int]] = [[] for _ in game.cards]
        self.lucky_unseen = list(game.lucky.counts)
        self.lucky_returned = [0] * len(game.lucky.counts)
        self.active = 0
        self.turn = 0
        self.phase = Phase.START
        self.die = 0
        self.scene = -1  # the deck being drawn from (a scene number)
        self.studying = -1  # the face-down card being studied (index into held), or -1
        self.after_study = Phase.START
        self.suspect = (-1, -1)  # the card in the Guilty stand of the lineup under way
        self.size = 0
        self.stands: list[int] = []  # innocents drawn so far, then the whole lineup
        self.guilty = -1
        self.drawn = -1  # the Lucky Break kind just drawn
        self.winner = -1
        self.reason = ""
        #: per action: (actor, its text, who sees the text (None: everyone), the text for the others)
        self.init_records()
        turn.start_turn(self)

    # --- protocol -------------------------------------------------------------------------------
    def current_player(self) -> Seat:
        """The seat to act, CHANCE, or TERMINAL."""
        if self.phase == Phase.OVER:
            return TERMINAL
        return CHANCE if self.phase in CHANCE_PHASES else self.active

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions (chance outcomes at a chance node)."""
        if self.phase == Phase.OVER:
            return []
        if self.phase in CHANCE_PHASES:
            return [a for a, _ in turn.chance_outcomes(self)]
        return turn.options(self)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Die faces, card draws and the Guilty stand, with their probabilities."""
        if self.current_player() != CHANCE:
            return super().chance_outcomes()
        return turn.chance_outcomes(self)

    def apply_unchecked(self, action: Action) -> None:
        """Apply ``action`` with no legality check (search only: an illegal action corrupts)."""
        self.history.append(action)
        self.log_action(self._record(action))
        turn.apply(self, action)

    def returns(self) -> list[float]:
        """+1 to the winner and -1 to the others; 0 to all while playing or when nobody can win."""
        if self.winner < 0:
            return [0.0] * self.n
        return [1.0 if s == self.winner else -1.0 for s in range(self.n)]

    def decision(self) -> Decision:
        """Who acts now and why, in words every seat may read."""
        seat = self.current_player()
        if seat == TERMINAL:
            return Decision(TERMINAL, DecisionKind.NONE, TERMINAL, f"game over: {self.reason}")
        prompt = _PROMPTS[self.phase].format(seat=self.active, die=self.die)
        if seat == CHANCE:
            return Decision(CHANCE, DecisionKind.CHANCE, self.active, prompt)
        return Decision(seat, DecisionKind.TURN, seat, prompt)

    def view(self, seat: Seat) -> LineUpView:
        """What ``seat`` knows (see :mod:`solver.games.lineup.view`)."""
        return build_view(self, seat)

    def clone(self) -> Self:
        """An independent copy."""
        other = copy.copy(self)
        other.history = self.history.copy()
        other.events = self.events.copy()
        for name in ("pos", "count", "lucky_unseen", "lucky_returned", "stands", "records", "marks"):
            setattr(other, name, getattr(self, name).copy())
        for name in ("held", "identified", "hand", "unseen", "returned"):
            setattr(other, name, [x.copy() for x in getattr(self, name)])
        return other

    # --- helpers for the turn -------------------------------------------------------------------
    def scene_name(self, scene: int) -> str:
        """The name of scene number ``scene``."""
        return self.board.scene_names[scene]

    def card_name(self, scene: int, card: int) -> str:
        """The content id of a Suspect card."""
        return self.game.cards[scene][card]

    def lucky_left(self) -> int:
        """Cards in the Lucky Break deck."""
        return sum(self.lucky_unseen) + sum(self.lucky_returned)

    def _record(self, action: Action) -> Record:
        text = self.game.action_to_str(action)
        actor = CHANCE if self.phase in CHANCE_PHASES else self.active
        if self.phase == Phase.DRAW:  # nobody keeps the card's identity: the study moment is the view's
            return (actor, text, frozenset(), f"draw {self.scene_name(self.scene)} ?")
        if self.phase in (Phase.INNOCENT, Phase.GUILTY):  # behind the Security Shield
            return (actor, text, frozenset(), text.split()[0] + " ?")
        if self.phase == Phase.LUCKY:
            return (actor, text, frozenset({self.active}), "lucky ?")
        return (actor, text, None, text)


_PROMPTS = {
    Phase.START: "seat {seat}: roll the die, stay at the station for a lineup, or play a Lucky Break card",
    Phase.DIE: "seat {seat} rolls the die",
    Phase.MOVE: "seat {seat} moves up to {die} spaces",
    Phase.DRAW: "seat {seat} draws a Suspect card",
    Phase.STUDY: "seat {seat} studies a Suspect card",
    Phase.STATION: "seat {seat} at the police station: request a lineup or end the turn",
    Phase.INNOCENT: "a lineup is prepared for seat {seat}",
    Phase.GUILTY: "the lineup for seat {seat} is put in order",
    Phase.PICK: "seat {seat} picks the guilty suspect",
    Phase.OFFER: "seat {seat} on a Lucky Break space: draw a card or end the turn",
    Phase.LUCKY: "seat {seat} draws a Lucky Break card",
    Phase.USE: "seat {seat}: play the Lucky Break card now or keep it",
}
