"""The Police 07 simulator for search: a pure-Python twin of the compiled ``ext/p07sim.pyx``.

:class:`P07Sim` implements the :class:`~solver.search.sim.Sim` protocol on a flat copy of a
:class:`~solver.games.police07.rules.Police07State` taken after set-up. It runs the same transition
function as the rules (moves, doubles, reveals, voluntary show and take, unlimited tickets,
capture, cornered, no detective can move, the end of move 24, pass) and lists legal actions in the
same sorted order; ``tests/test_p07sim.py`` replays thousands of games through the rules and both
twins in lockstep. Both twins make exactly the same SplitMix64 draws in the same order, so a search
gives the same result on either.

Rewards (``returns``), for search, in [0, 1]. Dr. Factor: 1 when he wins, else 0. A detective seat:
1 when one of its own pieces caught him (or he was cornered: nobody's capture, the coalition's
win), ``1 - r`` when another seat's piece caught him, 0 when he wins. This is coalition reduction
(Nijssen & Winands 2012, "Monte-Carlo Tree Search for the Hide-and-Seek Game Scotland Yard", IEEE
TCIAIG 4(4)): with ``r > 0`` each detective prefers the capture to be its own, which stops a seat
from idling while the others hunt. Before the end every seat gets 0.5 (a playout cut short by a
depth limit is undecided).

Information-set keys (``key(seat)``), 64-bit, rolled forward in ``apply`` by
:func:`mix_key` ``(key, code) = SplitMix64(key ^ code).next()`` (the SplitMix64 output function of
:mod:`solver.core.rng`, the same arithmetic as the C twin). Codes::

    full   (piece << 12) | action                Dr. Factor's key: every action as played
    public (piece << 12) | action                the detectives' key, for every action they see
                                                 whole: detective moves, passes, double, take
           PUBLIC_MOVE | ticket << 8 | shown     a Factor move: ticket kind, stop only when shown
           PUBLIC_SHOW | stop                    a voluntary show
           END | winner << 8 | Factor's stop     the public key, once the game is over (he is
                                                 shown at the end)

Root keys come from the loaded state. The detectives' key is ``stable_hash`` of the config and
their view's history (:func:`root_fields`), so equal detective views give equal keys. Detectives
have no private facts, so one key serves every detective seat (the search tells seats apart by
``(seat, key)``). Dr. Factor's root key is ``mix_key(public root, ROOT_STOP | his stop)``: his
options from here on depend only on the public history and where he stands, so determinizations
that put him on different stops are different information sets for him, and equal views of his give
equal keys. His key then follows ``SimTables.factor_keys``. With ``"path"`` it rolls in every action
as played, so his nodes are per path from the root (an ordinary tree, as Nijssen & Winands' hider
searches), and paths that reach the same stop stay apart. With ``"stop"`` it is recomputed after
every action as ``mix_key(public key, ROOT_STOP | his stop)``, the root key's formula: paths with
the same public history that reach the same stop share his node (a transposition table for him).
Nothing is lost by the merge: the rest of the game depends on his past stops only through what was
shown, which the public key holds (bench/results/README.md measures both).

The public possible-location set (``possible``, a stop bitset) is kept as
:func:`solver.games.police07.locations.track_factor` keeps it: a Factor move spreads it one link along the
ticket's lines minus the detectives' stops, a shown move or a show narrows it to his stop, a
detective who lands on a stop without a capture strikes that stop out, a cornered check he passes
(his turn start, between the moves of a double) and a double (legal only with a first move) strike
out every stop where he would have had no legal move; at the end it is his stop.
Only the ``"belief"`` chase reads it; ``track_possible=False`` turns it off (``possible`` stays 0) for
searches that do not, saving about an eighth of a random playout's time.

The playout policy (:meth:`P07Sim.default_action`), ε-greedy (Nijssen & Winands 2012), with a draw
only where there is a choice (one candidate: no draw):

1. One legal action: play it. Dr. Factor taking a ticket after a show: from the robbed piece, the
   kind it holds fewest of (ties: metro, then bus, then taxi), as losing its last ticket of a kind
   strands it; no draw.
2. Candidates. Detectives: the legal actions. Dr. Factor: his moves, never ``show`` (a playout that
   shows him is rarely what the game would see); with ``filter_factor_moves`` his joker moves are
   thinned by ``joker_filter`` and ``double`` is a candidate only *in danger* (below). Without the
   filter, every move is a candidate and so is ``double`` whenever legal. ``joker_filter``:
   ``"all"`` (the default) drops every joker move while he has any taxi/bus/metro move;
   ``"same_stop"`` drops a joker move only where one of his taxi/bus/metro moves reaches the same
   stop (:func:`drop_covered_jokers`, Nijssen & Winands' rule, the one ``filter_tree`` applies).
3. With probability ε (``rng.uniform() < ε``; no draw when ε is 0 or 1) a uniform candidate
   (``rng.below``). ε is ``epsilon`` for a detective and ``epsilon_factor`` for Dr. Factor (by
   default the same number).
4. Otherwise greedy, over detective distances (taxi/bus/metro, networkx: :mod:`.distances`).
   Detectives: the move that ends nearest the target, ties by ``rng.below``. The target is his
   determinized stop (``chase="true"``) or a stop drawn uniformly from the public possible set
   (``chase="belief"``, ``rng.below``, drawn only when the set has two stops or more): in Dr.
   Factor's own search the detectives must not know where he is. Dr. Factor: *in danger* when the
   best candidate move leaves a detective piece at distance 1 or less; then ``double`` when it is a
   candidate; otherwise the move that maximises the distance to the nearest detective piece, ties
   by ``rng.below``.

Move filtering in the tree (``filter_tree``, off by default). On, :meth:`P07Sim.legal_actions` gives
Dr. Factor only what Nijssen & Winands' move filter keeps (:func:`nw_move_filter`: no joker move to
a stop one of his taxi/bus/metro moves also reaches; ``double`` only when every stop he can reach is
within one detective move of a detective piece), so the search, and the playouts that draw from the
legal actions, never consider the rest. The applied transitions stay the rules'; off, the legal
actions are exactly the rules' (the differential tests' premise).

``max_depth`` (0: none) cuts :func:`playout` short; the game itself ends by move 24.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, Literal, Self, TypeAlias

import numpy as np
import numpy.typing as npt

from solver._accel import load_ext
from solver.core import TERMINAL, Action, BadStateError, ConfigError, Seat, stable_hash
from solver.core.rng import SplitMix64
from solver.games.police07 import codec
from solver.games.police07.bitsets import (
    TICKET_LINES,
    factor_lines,
    mask_stops,
    movable,
    neighbour_masks,
    neighbour_words,
    stop_mask,
    union_masks,
)
from solver.games.police07.codec import DOUBLE, LAST_MOVE, PASS, REVEALED_MOVES, SHOW, TAKE_BASE
from solver.games.police07.distances import detective_distances
from solver.games.police07.locations import track_factor

if TYPE_CHECKING:
    from solver.games.police07.rules import Police07Game, Police07State
    from solver.search.sim import Determinizer, Sim

Stop: TypeAlias = int
StopMask: TypeAlias = int
Chase = Literal["true", "belief"]

#: Room every legal-action buffer of the compiled twin has (simbase.pxd SIM_MAX_ACTIONS).
MAX_ACTIONS: Final = 512
#: Pieces at most: Dr. Factor and five detective pieces.
MAX_PIECES: Final = 6
#: Tickets per piece in the flat ``tickets`` list: taxi, bus, metro, joker, double (codec.Ticket).
KINDS: Final = 5
UNDECIDED: Final = 0.5

# Phases, as in rules.Phase (set-up never reaches a simulator).
FACTOR_PHASE: Final = 1
DETECTIVE_PHASE: Final = 2
OVER: Final = 3

# Key codes above every (piece << 12) | action (piece <= 5, action < 4096).
PUBLIC_MOVE: Final = 1 << 16
PUBLIC_SHOW: Final = 2 << 16
END: Final = 3 << 16
ROOT_STOP: Final = 4 << 16

_MASK64: Final = (1 << 64) - 1
_JOKER_MOVE: Final = codec.JOKER_COMBO << 8  # the first joker move id
_MOVE_END: Final = codec.MOVE_COMBOS << 8  # every move id is below (the other actions are above)

JokerFilter = Literal["all", "same_stop"]
#: How Dr. Factor's key follows his moves (``SimTables.factor_keys``, module docstring).
FactorKeys = Literal["path", "stop"]


def mix_key(key: int, code: int) -> int:
    """Roll ``code`` into a 64-bit information-set key (the SplitMix64 output of ``key ^ code``)."""
    return SplitMix64(key ^ code).next()


# --- tables ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SimTables:
    """Everything a simulator reads but never writes: the board, the game's options, the policy.

    Built once per game and policy by :meth:`build` (cached). The compiled twin reads the numpy
    arrays (``nbr_words`` in the ``solver/_ext/p07bits.pxd`` layout, ``dist_flat``) and keeps its
    own C view of them in ``ext_cache``.
    """

    game: Police07Game
    #: the detectives' playout ε
    epsilon: float
    #: Dr. Factor's playout ε (``epsilon`` unless set apart)
    epsilon_factor: float
    coalition_r: float
    chase: Chase
    filter_factor_moves: bool
    #: which joker moves ``filter_factor_moves`` drops from Dr. Factor's playout candidates
    joker_filter: JokerFilter
    #: Dr. Factor's legal actions are the NW-filtered ones (:func:`nw_move_filter`)
    filter_tree: bool
    #: Dr. Factor's keys: ``"path"`` (every action rolled in) or ``"stop"`` (public key and his stop)
    factor_keys: FactorKeys
    max_depth: int
    track_possible: bool
    num_stops: int
    num_players: int
    num_pieces: int
    piece_seat: tuple[Seat, ...]
    voluntary_show: bool
    #: the board flattened for the move kernel (see ``_moves.flatten``)
    flat: npt.NDArray[np.int32]
    offsets: npt.NDArray[np.int32]
    #: ``nbr[line][stop]``: the stops one link away, as a bitset
    nbr: tuple[tuple[StopMask, ...], ...]
    #: ``spread[ticket][stop]``: the union of ``nbr`` over the lines the ticket rides (joker: all)
    spread: tuple[tuple[StopMask, ...], ...]
    #: the same masks as ``nbr``, four uint64 words per set, ``((line * 256) + s) * 4 + w``
    nbr_words: npt.NDArray[np.uint64]
    #: detective distances, ``dist[a][b]``, and row-major ``dist_flat[a * (num_stops + 1) + b]``
    dist: tuple[tuple[int, ...], ...]
    dist_flat: npt.NDArray[np.int32]
    #: per-implementation caches (the compiled twin's C tables); not part of the value
    ext_cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @staticmethod
    def build(
        game: Police07Game,
        *,
        epsilon: float = 0.1,
        coalition_r: float = 0.1,
        chase: Chase = "true",
        filter_factor_moves: bool = True,
        max_depth: int = 0,
        track_possible: bool = True,
        epsilon_factor: float | None = None,
        joker_filter: JokerFilter = "all",
        filter_tree: bool = False,
        factor_keys: FactorKeys = "path",
    ) -> SimTables:
        """The tables of ``game`` with these playout options (cached per game and options).

        ``chase="true"``: playout detectives chase the determinized stop; ``"belief"``: a stop of
        the public possible set, so in Dr. Factor's search they do not know where he is
        (:meth:`for_searcher`; the ``ismcts`` bot's Dr. Factor now uses ``"true"``, as measured in
        bench/results/README.md). ``track_possible`` keeps the
        public possible-location set (needed by ``"belief"``). ``epsilon`` is the detectives'
        playout ε and ``epsilon_factor`` Dr. Factor's (None: ``epsilon``). ``joker_filter`` picks
        the playout joker rule of ``filter_factor_moves`` and ``filter_tree`` filters Dr. Factor's
        legal actions (module docstring). ``factor_keys`` is how Dr. Factor's key follows his
        moves: per path or per stop (module docstring, "keys"). The defaults are starting points
        for arena tuning, not measured optima.
        """
        # Checked before the cache, which would take 1 for True.
        _check_options(epsilon, coalition_r, chase, filter_factor_moves, max_depth, track_possible)
        _check_nw_options(epsilon_factor, joker_filter, filter_tree)
        if factor_keys not in ("path", "stop"):
            raise ConfigError(f"p07 sim: factor_keys must be 'path' or 'stop', not {factor_keys!r}")
        # None is resolved here, so leaving epsilon_factor out and passing epsilon's value share
        # one cache entry (and one compiled table).
        factor_eps = float(epsilon if epsilon_factor is None else epsilon_factor)
        return _build_tables(game, float(epsilon), float(coalition_r), chase, filter_factor_moves,
                             max_depth, track_possible, factor_eps, joker_filter, filter_tree, factor_keys)

    @staticmethod
    def for_searcher(game: Police07Game, seat: Seat, **options: Any) -> SimTables:
        """:meth:`build` with the chase that keeps each side's playouts to its information: "belief"
        for Dr. Factor (seat 0), whose playout detectives then do not know where he is; "true" for a
        detective. (Benchmarks and tests use it; the bots choose their chase by option.)"""
        return SimTables.build(game, chase="belief" if seat == 0 else "true", **options)


def _check_options(epsilon: Any, coalition_r: Any, chase: Any, filter_factor_moves: Any, max_depth: Any,
                   track_possible: Any) -> None:
    for name, value in (("epsilon", epsilon), ("coalition_r", coalition_r)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"p07 sim: {name} must be a number, not {value!r}")
    if not (math.isfinite(epsilon) and 0.0 <= epsilon <= 1.0):
        raise ConfigError(f"p07 sim: epsilon must be in [0, 1], not {epsilon!r}")
    if not (math.isfinite(coalition_r) and 0.0 <= coalition_r < 1.0):
        raise ConfigError(f"p07 sim: coalition_r must be in [0, 1), not {coalition_r!r}")
    if chase not in ("true", "belief"):
        raise ConfigError(f"p07 sim: chase must be 'true' or 'belief', not {chase!r}")
    if not isinstance(filter_factor_moves, bool):
        raise ConfigError(f"p07 sim: filter_factor_moves must be true or false, not {filter_factor_moves!r}")
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or not 0 <= max_depth < 2**31:
        raise ConfigError(f"p07 sim: max_depth must be a whole number >= 0 (0: none), not {max_depth!r}")
    if not isinstance(track_possible, bool):
        raise ConfigError(f"p07 sim: track_possible must be true or false, not {track_possible!r}")
    if chase == "belief" and not track_possible:
        raise ConfigError("p07 sim: chase='belief' draws from the possible set: track_possible must be on")


def _check_nw_options(epsilon_factor: Any, joker_filter: Any, filter_tree: Any) -> None:
    if epsilon_factor is not None and (
        isinstance(epsilon_factor, bool) or not isinstance(epsilon_factor, (int, float))
        or not (math.isfinite(epsilon_factor) and 0.0 <= epsilon_factor <= 1.0)
    ):
        raise ConfigError(f"p07 sim: epsilon_factor must be None or in [0, 1], not {epsilon_factor!r}")
    if joker_filter not in ("all", "same_stop"):
        raise ConfigError(f"p07 sim: joker_filter must be 'all' or 'same_stop', not {joker_filter!r}")
    if not isinstance(filter_tree, bool):
        raise ConfigError(f"p07 sim: filter_tree must be true or false, not {filter_tree!r}")


@lru_cache(maxsize=32)
def _build_tables(
    game: Police07Game, epsilon: float, coalition_r: float, chase: str, filter_factor_moves: bool,
    max_depth: int, track_possible: bool, epsilon_factor: float, joker_filter: str, filter_tree: bool,
    factor_keys: str,
) -> SimTables:
    board = game.board
    nbr = neighbour_masks(board)
    # Dr. Factor's widest choice: every own-ticket move, every joker move, double and show; the
    # compiled twin's buffers hold SIM_MAX_ACTIONS.
    widest = max(
        2 * sum(len(board.neighbours[line][s]) for line in range(3)) + len(board.neighbours[3][s]) + 2
        for s in board.stops
    )
    if widest > MAX_ACTIONS:
        raise ConfigError(
            f"p07 sim: board {board.name} allows {widest} actions at one stop, more than {MAX_ACTIONS}"
        )
    spread = tuple(union_masks(board, lines) for lines in TICKET_LINES)
    table = detective_distances(board)
    dist_flat = np.ascontiguousarray(table, dtype=np.int32).reshape(-1)
    dist_flat.setflags(write=False)
    return SimTables(
        game=game,
        epsilon=epsilon,
        epsilon_factor=epsilon_factor,
        coalition_r=coalition_r,
        chase="belief" if chase == "belief" else "true",
        filter_factor_moves=filter_factor_moves,
        joker_filter="same_stop" if joker_filter == "same_stop" else "all",
        filter_tree=filter_tree,
        factor_keys="stop" if factor_keys == "stop" else "path",
        max_depth=max_depth,
        track_possible=track_possible,
        num_stops=board.num_stops,
        num_players=game.num_players,
        num_pieces=game.num_pieces,
        piece_seat=game.piece_seat,
        voluntary_show=game.voluntary_show,
        flat=game.flat,
        offsets=game.offsets,
        nbr=nbr,
        spread=spread,
        nbr_words=neighbour_words(board),
        dist=tuple(tuple(int(d) for d in row) for row in table),
        dist_flat=dist_flat,
    )


# --- loading a position --------------------------------------------------------------------------


@dataclass(frozen=True)
class RootFields:
    """A post-set-up :class:`Police07State` as flat fields: what both twins load from.

    ``tickets`` holds :data:`KINDS` counts per piece (-1: unlimited; detectives hold no joker or
    double)::

        index  0     1    2      3      4       5     6    7      8  9    10 ...
               taxi  bus  metro  joker  double  taxi  bus  metro  0  0    taxi ...
               '------- piece 0 (Dr. Factor) -'  '--- piece 1 ---------'  piece 2 ...
    """

    pos: tuple[int, ...]
    tickets: tuple[int, ...]  # KINDS per piece, -1 unlimited
    occupied: StopMask
    possible: StopMask  # 0 when the tables do not track it
    phase: int
    piece: int
    double_steps: int
    turn_moves: int
    moves: int
    shown_this_turn: bool
    take_queue: tuple[int, ...]
    visible_at: Stop
    winner: int
    capturer: int  # the piece that caught him, 0 if none
    key_factor: int
    key_public: int


#: The simulator's state fields, named as in :class:`RootFields` (and the compiled ``snapshot``).
_FIELDS: Final = tuple(f.name for f in dataclasses.fields(RootFields))


def root_fields(state: Police07State, tables: SimTables) -> RootFields:
    """Flatten ``state`` for a simulator; BadStateError before set-up is done or for another game.

    The detectives' root key is ``stable_hash`` of the config and their view's history, so equal
    detective views give equal keys whatever Dr. Factor's hidden path (every determinization of one
    search shares its root).
    """
    if state.game != tables.game:
        raise BadStateError(
            f"p07 sim: the state's game {state.game.config()!r} is not the tables' {tables.game.config()!r}"
        )
    if state.phase not in (FACTOR_PHASE, DETECTIVE_PHASE, OVER):
        raise BadStateError(f"p07 sim: set-up is not over ({state.decision().prompt}); "
                            "simulators start after the last start card or placement")
    view = state.view(1).to_json()  # any detective's: they all see the same
    public = stable_hash({"config": state.game.config(), "history": view["history"]})
    tickets: list[int] = []
    for t in state.tickets:
        tickets.extend(t + [0] * (KINDS - len(t)))
    capturer = 0
    if state.winner == 1 and state.records:
        piece, stop = state.records[-1]
        if piece != 0 and stop == state.pos[0]:
            capturer = piece
    if not tables.track_possible:
        possible = 0
    elif state.winner >= 0:
        possible = 1 << state.pos[0]
    else:
        possible = stop_mask(track_factor(state.game, view).now)
    return RootFields(
        pos=tuple(state.pos),
        tickets=tuple(tickets),
        occupied=stop_mask([state.pos[p] for p in range(1, state.game.num_pieces)]),
        possible=possible,
        phase=state.phase,
        piece=state.piece,
        double_steps=state.double_steps,
        turn_moves=state.turn_moves,
        moves=len(state.log),
        shown_this_turn=state.shown_this_turn,
        take_queue=tuple(state.take_queue),
        visible_at=state.visible_at,
        winner=state.winner,
        capturer=capturer,
        key_factor=factor_root_key(public, state.pos[0]),
        key_public=public,
    )


def factor_root_key(public_key: int, stop: Stop) -> int:
    """Dr. Factor's root key: the public root key and the stop he stands on."""
    return mix_key(public_key, ROOT_STOP | stop)


# --- the simulator -------------------------------------------------------------------------------


class P07Sim:
    """One Police 07 game in flight for search (pure Python; the compiled twin has the same API)."""

    __slots__ = (
        "capturer", "double_steps", "key_factor", "key_public", "moves", "num_players", "occupied",
        "phase", "piece", "pos", "possible", "shown_this_turn", "t", "take_queue", "tickets",
        "turn_moves", "visible_at", "winner",
    )

    t: SimTables
    num_players: int
    pos: list[int]
    tickets: list[int]
    occupied: StopMask
    possible: StopMask
    phase: int
    piece: int
    double_steps: int
    turn_moves: int
    moves: int
    shown_this_turn: bool
    take_queue: list[int]
    visible_at: Stop
    winner: int
    capturer: int
    key_factor: int
    key_public: int

    @classmethod
    def from_state(cls, state: Police07State, tables: SimTables) -> Self:
        """A simulator of ``state`` (after set-up; BadStateError otherwise) with ``tables``."""
        return cls.from_fields(root_fields(state, tables), tables)

    @classmethod
    def from_fields(cls, f: RootFields, tables: SimTables) -> Self:
        """A simulator of flattened fields (see :func:`root_fields`)."""
        sim = object.__new__(cls)
        sim.t = tables
        sim.num_players = tables.num_players
        for name in _FIELDS:
            value = getattr(f, name)
            setattr(sim, name, list(value) if isinstance(value, tuple) else value)
        return sim

    # --- the Sim protocol ---------------------------------------------------------------------
    def current_player(self) -> Seat:
        """Dr. Factor (0), the seat of the detective piece to move, or TERMINAL."""
        if self.phase == OVER:
            return TERMINAL
        return 0 if self.phase == FACTOR_PHASE else self.t.piece_seat[self.piece]

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions, exactly as ``Police07State.legal_actions`` (with ``filter_tree``:
        Dr. Factor's after :func:`nw_move_filter`)."""
        if self.phase == FACTOR_PHASE:
            tk = self.tickets
            if self.take_queue:
                p = self.take_queue[0]
                return [TAKE_BASE + p * 4 + k for k in range(3) if tk[p * KINDS + k] > 0]
            acts = self._moves(0)
            if self.double_steps == 0 and self.turn_moves == 0:
                if tk[4] > 0 and self.moves + 2 <= LAST_MOVE and acts:
                    acts.append(DOUBLE)
                if self._can_show():
                    acts.append(SHOW)
            if self.t.filter_tree:
                return nw_move_filter(acts, self._nearest)
            return acts
        if self.phase == DETECTIVE_PHASE:
            return self._moves(self.piece) or [PASS]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """None: a simulator starts after the last chance node."""
        return []

    def apply(self, action: Action) -> None:
        """Apply a legal action, unchecked (an illegal one corrupts; nothing happens once over)."""
        if self.phase == FACTOR_PHASE:
            self._factor_action(action)
        elif self.phase == DETECTIVE_PHASE:
            self._detective_action(action)
        else:
            return
        if self.t.factor_keys == "stop":
            self.key_factor = factor_root_key(self.key_public, self.pos[0])

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.phase == OVER

    def returns(self) -> list[float]:
        """Search rewards in [0, 1] per seat (module docstring: coalition reduction)."""
        n = self.num_players
        if self.winner < 0:
            return [UNDECIDED] * n
        if self.winner == 0:
            return [1.0] + [0.0] * (n - 1)
        out = [0.0] + [1.0] * (n - 1)
        if self.capturer:
            own = self.t.piece_seat[self.capturer]
            shared = 1.0 - self.t.coalition_r
            for seat in range(1, n):
                if seat != own:
                    out[seat] = shared
        return out

    def key(self, seat: Seat) -> int:
        """Dr. Factor's key for seat 0, the detectives' public key for any other seat."""
        return self.key_factor if seat == 0 else self.key_public

    def copy(self) -> P07Sim:
        """An independent copy (sharing the read-only tables)."""
        # Spelled out, not a loop over _FIELDS: this is the pure search's per-iteration cost.
        other = object.__new__(P07Sim)
        other.t = self.t
        other.num_players = self.num_players
        other.pos = self.pos.copy()
        other.tickets = self.tickets.copy()
        other.occupied = self.occupied
        other.possible = self.possible
        other.phase = self.phase
        other.piece = self.piece
        other.double_steps = self.double_steps
        other.turn_moves = self.turn_moves
        other.moves = self.moves
        other.shown_this_turn = self.shown_this_turn
        other.take_queue = self.take_queue.copy()
        other.visible_at = self.visible_at
        other.winner = self.winner
        other.capturer = self.capturer
        other.key_factor = self.key_factor
        other.key_public = self.key_public
        return other

    def default_action(self, rng: SplitMix64) -> Action:
        """The ε-greedy playout move (module docstring gives the policy and every draw)."""
        legal = self.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.phase == FACTOR_PHASE:
            if self.take_queue:
                return self._take_choice()
            return self._factor_choice(legal, rng)
        return self._detective_choice(legal, rng)

    # --- extras both twins share --------------------------------------------------------------
    @property
    def max_depth(self) -> int:
        """The playout depth limit of the tables (0: none)."""
        return self.t.max_depth

    def possible_locations(self) -> set[Stop]:
        """The stops Dr. Factor may be at, as the detectives know it now (ConfigError when the
        tables do not track them)."""
        if not self.t.track_possible:
            raise ConfigError("p07 sim: built with track_possible=False; no possible set is kept")
        return set(mask_stops(self.possible))

    def playout(self, rng: SplitMix64, max_depth: int = -1) -> list[float]:
        """Play :meth:`default_action` to the end (or ``max_depth`` actions; -1: the tables'; 0:
        none) in place, and return :meth:`returns`."""
        return playout(self, rng, self.t.max_depth if max_depth < 0 else max_depth)

    def snapshot(self) -> dict[str, Any]:
        """Every field as plain data (the twins must agree on it; tests compare)."""
        out: dict[str, Any] = {}
        for name in _FIELDS:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, list) else value
        return out

    # --- rules --------------------------------------------------------------------------------
    def _moves(self, piece: int) -> list[Action]:
        # Combos ascending and each neighbour set walked from its lowest stop: sorted like the rules.
        nbr = self.t.nbr
        pos = self.pos[piece]
        free = ~self.occupied
        tk = self.tickets
        b = piece * KINDS
        out: list[Action] = []
        for line in range(3):
            if tk[b + line]:
                _append_bits(out, line << 8, nbr[line][pos] & free)
        if piece == 0 and tk[3]:
            for line in range(4):
                _append_bits(out, (codec.JOKER_COMBO + line) << 8, nbr[line][pos] & free)
        return out

    def _has_move(self, piece: int) -> bool:
        nbr = self.t.nbr
        pos = self.pos[piece]
        free = ~self.occupied
        b = piece * KINDS
        tk = self.tickets
        for line in range(3):
            if tk[b + line] and nbr[line][pos] & free:
                return True
        if piece == 0 and tk[3]:
            return any(nbr[line][pos] & free for line in range(4))
        return False

    def _can_show(self) -> bool:
        # [Var] voluntary show: once a turn, before moving, only while he is hidden (as the rules)
        return (self.t.voluntary_show and not self.shown_this_turn and self.visible_at == 0
                and self.turn_moves == 0 and self.double_steps == 0)

    def _factor_action(self, action: Action) -> None:
        tk = self.tickets
        self.key_factor = mix_key(self.key_factor, action)
        if action >= TAKE_BASE:
            self.key_public = mix_key(self.key_public, action)
            piece, kind = divmod(action - TAKE_BASE, 4)
            tk[piece * KINDS + kind] -= 1
            tk[kind] += 1
            self.take_queue.pop(0)
            self._check_cornered()
            return
        if action == SHOW:
            stop = self.pos[0]
            self.key_public = mix_key(self.key_public, PUBLIC_SHOW | stop)
            self.shown_this_turn = True
            self.visible_at = stop
            if self.t.track_possible:
                self.possible = 1 << stop
            self.take_queue = [
                p for p in range(1, self.t.num_pieces) if any(tk[p * KINDS + k] > 0 for k in range(3))
            ]
            self._check_cornered()
            return
        if action == DOUBLE:
            self.key_public = mix_key(self.key_public, action)
            tk[4] -= 1
            self.double_steps = 2
            self._drop_cornered()  # double is legal only with a first move (news under the show)
            return
        combo, stop = action >> 8, action & 255
        ticket = combo if combo < codec.JOKER_COMBO else codec.JOKER_COMBO
        if tk[ticket] > 0:
            tk[ticket] -= 1
        self.moves += 1
        shown = self.moves in REVEALED_MOVES
        self.key_public = mix_key(self.key_public, PUBLIC_MOVE | ticket << 8 | (stop if shown else 0))
        if not self.t.track_possible:
            pass
        elif shown:
            self.possible = 1 << stop
        else:
            self.possible = _spread(self.possible, self.t.spread[ticket]) & ~self.occupied
        self.pos[0] = stop
        self.visible_at = stop if shown else 0
        self.turn_moves += 1
        if self.double_steps == 2:
            self.double_steps = 1
            if not self._has_move(0):
                self._end(1)  # cornered: no second move for his double
            else:
                self._drop_cornered()
            return
        self.double_steps = 0
        self._start_detectives()

    def _detective_action(self, action: Action) -> None:
        p = self.piece
        code = p << 12 | action
        self.key_factor = mix_key(self.key_factor, code)
        self.key_public = mix_key(self.key_public, code)
        if action != PASS:
            ticket, stop = action >> 8, action & 255
            tk = self.tickets
            own = p * KINDS + ticket
            if tk[own] > 0:
                tk[own] -= 1
                if tk[ticket] >= 0:
                    tk[ticket] += 1  # the spent ticket goes to Dr. Factor [Rules]
            self.occupied = (self.occupied & ~(1 << self.pos[p])) | 1 << stop
            self.pos[p] = stop
            if stop == self.pos[0]:
                self.capturer = p
                self._end(1)
                return
            self.possible &= ~(1 << stop)  # stays 0 when not tracked
        if p + 1 < self.t.num_pieces:
            self.piece = p + 1
        elif self.moves >= LAST_MOVE:
            self._end(0)
        else:
            self._start_factor_turn()

    def _start_factor_turn(self) -> None:
        self.phase = FACTOR_PHASE
        self.piece = 0
        self.turn_moves = 0
        self.double_steps = 0
        self.shown_this_turn = False
        if not self._can_show():
            self._check_cornered()
            if self.phase != OVER:
                self._drop_cornered()

    def _check_cornered(self) -> None:
        if not self.take_queue and not self._has_move(0):
            self._end(1)

    def _drop_cornered(self) -> None:
        # The game went on past a cornered check (his turn start, between the moves of a double)
        # or he announced a double (legal only with a first move), so the public set loses every
        # stop where he would have had no legal move, as LocationTracker.drop_cornered does for
        # track_factor. After a show's takes the set is his shown stop, which the check just
        # passed on: nothing to drop there.
        if self.t.track_possible:
            tk = self.tickets
            moves = union_masks(self.t.game.board, factor_lines(tk[0], tk[1], tk[2], tk[3]))
            self.possible = movable(self.possible, moves, self.occupied)

    def _start_detectives(self) -> None:
        self.phase = DETECTIVE_PHASE
        self.piece = 1
        if not any(self._has_move(p) for p in range(1, self.t.num_pieces)):
            self._end(0)

    def _end(self, winner: int) -> None:
        stop = self.pos[0]
        self.phase = OVER
        self.winner = winner
        self.visible_at = stop
        if self.t.track_possible:
            self.possible = 1 << stop
        self.key_public = mix_key(self.key_public, END | winner << 8 | stop)

    # --- playout policy -----------------------------------------------------------------------
    def _take_choice(self) -> Action:
        p = self.take_queue[0]
        tk = self.tickets
        best, best_n = -1, 0
        for kind in range(3):
            n = tk[p * KINDS + kind]
            if n > 0 and (best < 0 or n <= best_n):
                best, best_n = kind, n
        return TAKE_BASE + p * 4 + best

    def _nearest(self, stop: Stop) -> int:
        dist = self.t.dist
        pos = self.pos
        return min(dist[pos[p]][stop] for p in range(1, self.t.num_pieces))

    def _factor_choice(self, legal: list[Action], rng: SplitMix64) -> Action:
        t = self.t
        moves = [a for a in legal if a < DOUBLE]
        if t.filter_factor_moves:
            if t.joker_filter == "same_stop":
                moves = drop_covered_jokers(moves)
            elif moves[0] < _JOKER_MOVE:
                moves = [a for a in moves if a < _JOKER_MOVE]
        has_double = DOUBLE in legal
        scores: list[int] | None = None
        best = 0
        if has_double and t.filter_factor_moves:
            scores = [self._nearest(a & 255) for a in moves]
            best = max(scores)
            has_double = best <= 1
        cands = moves + [DOUBLE] if has_double else moves
        if len(cands) == 1:
            return cands[0]
        if _explore(t.epsilon_factor, rng):
            return cands[rng.below(len(cands))]
        if scores is None:
            scores = [self._nearest(a & 255) for a in moves]
            best = max(scores)
        if has_double and best <= 1:
            return DOUBLE
        return _pick(moves, scores, best, rng)

    def _detective_choice(self, legal: list[Action], rng: SplitMix64) -> Action:
        t = self.t
        if _explore(t.epsilon, rng):
            return legal[rng.below(len(legal))]
        if t.chase == "true":
            target = self.pos[0]
        else:
            count = self.possible.bit_count()
            target = _nth(self.possible, rng.below(count) if count > 1 else 0)
        row = t.dist[target]
        scores = [row[a & 255] for a in legal]
        return _pick(legal, scores, min(scores), rng)


# --- Nijssen & Winands' move filter for Dr. Factor -------------------------------------------------


def drop_covered_jokers(actions: Sequence[Action]) -> list[Action]:
    """``actions`` without each joker move to a stop that a taxi/bus/metro move among them reaches.

    The joker stays for the water bus and for lines he holds no ticket for. Order is kept.

    >>> taxi_5, joker_5, joker_7 = (codec.move_action(c, s) for c, s in ((0, 5), (3, 5), (3, 7)))
    >>> drop_covered_jokers([taxi_5, joker_5, joker_7]) == [taxi_5, joker_7]
    True
    """
    ordinary = 0
    for a in actions:
        if 0 <= a < _JOKER_MOVE:
            ordinary |= 1 << (a & 255)
    return [a for a in actions if not (_JOKER_MOVE <= a < _MOVE_END and ordinary >> (a & 255) & 1)]


def factor_in_danger(moves: Iterable[Action], nearest: Callable[[Stop], int]) -> bool:
    """True when every move of ``moves`` ends within one detective move of a detective piece.

    ``nearest(stop)`` is the detective distance from ``stop`` to the nearest detective piece (the
    table the playout policy reads). No moves: not in danger.
    """
    best = -1
    for a in moves:
        d = nearest(a & 255)
        if d > best:
            best = d
    return 0 <= best <= 1


def nw_move_filter(legal: Sequence[Action], nearest: Callable[[Stop], int]) -> list[Action]:
    """Dr. Factor's legal actions that Nijssen & Winands' move filtering keeps (the one
    implementation: ``filter_tree`` and ``bots.police07.nw2012.filtered_actions`` both call it).

    Scotland Yard's hider filtering of black-fare tickets and double moves, mapped to the joker and
    the double-move ticket: a joker move is dropped where a taxi/bus/metro move reaches the same
    stop (:func:`drop_covered_jokers`); ``double`` is kept only in danger
    (:func:`factor_in_danger` over his moves). Everything else (show, take) is kept, and every
    stop he can reach keeps a move, so a non-empty ``legal`` stays non-empty.
    """
    kept = drop_covered_jokers(legal)
    if DOUBLE in kept and not factor_in_danger([a for a in kept if 0 <= a < _MOVE_END], nearest):
        kept.remove(DOUBLE)
    return kept


def _explore(epsilon: float, rng: SplitMix64) -> bool:
    # No draw when the answer is certain (ε 0 or 1): both twins skip it alike.
    if epsilon >= 1.0:
        return True
    return epsilon > 0.0 and rng.uniform() < epsilon


def _pick(actions: list[Action], scores: list[int], best: int, rng: SplitMix64) -> Action:
    # The actions scoring ``best``, in order; one drawn by rng.below when there are several.
    tied = [a for a, s in zip(actions, scores, strict=True) if s == best]
    return tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]


def _append_bits(out: list[Action], base: int, mask: StopMask) -> None:
    while mask:
        low = mask & -mask
        out.append(base | (low.bit_length() - 1))
        mask ^= low


def _spread(mask: StopMask, table: tuple[StopMask, ...]) -> StopMask:
    image = 0
    while mask:
        low = mask & -mask
        image |= table[low.bit_length() - 1]
        mask ^= low
    return image


def _nth(mask: StopMask, i: int) -> Stop:
    for _ in range(i):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def playout(sim: Sim, rng: SplitMix64, max_depth: int = 0) -> list[float]:
    """Apply ``sim.default_action(rng)`` until the end or ``max_depth`` actions (0: no limit), in
    place; return ``sim.returns()``. Works on any :class:`~solver.search.sim.Sim`."""
    depth = 0
    while not sim.is_terminal() and (max_depth == 0 or depth < max_depth):
        sim.apply(sim.default_action(rng))
        depth += 1
    return sim.returns()


# --- determinization ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DeterminizerBase:
    """What a determinizer needs, computed once from a view (both twins build from it)."""

    root: RootFields
    #: Dr. Factor's possible stops, ascending (one stop when nothing is hidden from the searcher)
    stops: tuple[Stop, ...]
    #: per stop of ``stops``: its weight (>= 0), or None for uniform
    weights: tuple[float, ...] | None


def determinizer_base(
    game: Police07Game, view: Any, tables: SimTables, belief: Mapping[int, float] | None = None
) -> DeterminizerBase:
    """The base state and the stops to draw from for ``view`` (Dr. Factor's or a detective's)."""
    if view.game != game:
        raise BadStateError(f"p07 sim: the view's game {view.game.config()!r} is not {game.config()!r}")
    data = view.to_json()
    state = game.resample(view, np.random.default_rng(0))
    root = root_fields(state, tables)
    if view.seat == 0:
        return DeterminizerBase(root, (state.pos[0],), None)
    stops = tuple(sorted(track_factor(game, data).now)) if root.winner < 0 else (state.pos[0],)
    weights = None
    if belief is not None:
        weights = tuple(max(0.0, float(belief.get(s, 0.0))) for s in stops)
        if not all(math.isfinite(w) for w in weights):
            raise BadStateError("p07 sim: belief weights must be finite numbers")
    return DeterminizerBase(root, stops, weights)


def draw_stop(base: DeterminizerBase, rng: SplitMix64) -> Stop:
    """Dr. Factor's stop for one determinization: ``rng.uniform`` over the weights when they sum
    above 0, else ``rng.below`` over the stops; no draw when there is one stop."""
    stops = base.stops
    if len(stops) == 1:
        return stops[0]
    weights = base.weights
    if weights is not None:
        total = 0.0
        for w in weights:
            total += w
        if total > 0.0:
            u = rng.uniform() * total
            acc = 0.0
            last = 0
            for i, w in enumerate(weights):
                if w > 0.0:
                    acc += w
                    last = i
                    if u < acc:
                        return stops[i]
            return stops[last]  # rounding left u at the top: the last stop that has weight
    return stops[rng.below(len(stops))]


class P07Determinizer:
    """Draws Police 07 simulators consistent with one seat's view.

    Dr. Factor's view hides nothing: every sample is the real position. A detective's view: one
    base state is built once (``game.resample`` seeded with 0) along with the exact possible set
    (:func:`solver.games.police07.locations.track_factor`); each sample copies the base and puts Dr. Factor
    on a stop drawn from the set (:func:`draw_stop`: uniform, or by ``belief`` weights per stop),
    with his root key for that stop. His past path does not matter to the rest of the game, so the
    base's sampled path can be reused.
    """

    def __init__(self, game: Police07Game, view: Any, tables: SimTables,
                 belief: Mapping[int, float] | None = None) -> None:
        self.base = determinizer_base(game, view, tables, belief)
        self.sim = P07Sim.from_fields(self.base.root, tables)

    def sample(self, rng: SplitMix64) -> P07Sim:
        """A fresh simulator of one state consistent with the view."""
        sim = self.sim.copy()
        stop = draw_stop(self.base, rng)
        sim.pos[0] = stop
        sim.key_factor = factor_root_key(sim.key_public, stop)
        return sim


# --- selectors ----------------------------------------------------------------------------------


def make_sim(state: Police07State, tables: SimTables) -> Sim:
    """The compiled simulator of ``state`` when built (and not switched off), else the pure one."""
    ext = load_ext("p07sim")
    if ext is not None:
        sim: Sim = ext.P07Sim.from_state(state, tables)
        return sim
    return P07Sim.from_state(state, tables)


def make_determinizer(game: Police07Game, view: Any, tables: SimTables,
                      belief: Mapping[int, float] | None = None) -> Determinizer:
    """The compiled determinizer when built (and not switched off), else the pure one."""
    ext = load_ext("p07sim")
    if ext is not None:
        det: Determinizer = ext.P07Determinizer(game, view, tables, belief)
        return det
    return P07Determinizer(game, view, tables, belief)
