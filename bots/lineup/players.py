"""LineUp bots with a human-like memory: ``greedy`` (a documented rule), ``planner`` (the MDP plan)
and ``random`` (random moves, memory at the pick: the baseline that has the memory but no strategy).

All three keep the memory of :mod:`solver.belief.lineup_memory` at their ``memory`` level (child,
adult, sharp, perfect; default adult): at each study moment they note the features the view shows
under ``studying`` (never the card id) and draw the recall from their own generator; at a lineup they
pick the stand most likely under what they recall. Their memory is their own state: it lives between
``step`` calls, is reset by ``restart``, and is kept from the views alone, so it works the same in
process and over the seat protocol. A stateless ``decide`` builds a fresh bot per request; the table
carries the memory between them (:meth:`_LineUpBot.memory_to_json`, docs/protocol.md). Ages (own
turns since the study) are read off the view's history.

**greedy**: holding a card of an unsolved scene, head for the station; otherwise for the unsolved
scene nearest in expected turns. At the station: line up the held card most likely to be right, and
chain while that chance is at least :data:`CONFIDENT`. Never line up a card of a scene already solved.

**planner**: follows :class:`~solver.plan.lineup_plan.Plan` (expected own turns to win): which scene
next, when to go to the station, stay and line up, and whether to chain.

**heuristic**: ``greedy`` under the common name of every game's documented heuristic, which the
seat protocol and ``copsolver play`` seat by default.

**random**: every other choice uniformly among the legal moves.

Greedy and planner, for Lucky Break cards: always draw; play ``to-station`` when heading for the
station with a card; play ``another-look`` at the station, on the card about to be lined up, before
the lineup; play ``hinder`` at once on the opponent with most scenes solved (then the smaller
count). A seat with no memory of a card (a stateless ``decide`` without the bot's memory) picks a
stand at random.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, TypeGuard

from bots.base import Advice, Bot, Option, RankedAction
from bots.registry import register
from solver.belief.lineup_memory import LEVELS, Memory, Trace, feature_values, level, pick
from solver.core import JSON, Action, BadStateError, ConfigError, Game, View
from solver.games.lineup import codec
from solver.games.lineup.rules import LineUpGame
from solver.plan.lineup_plan import STATION, Choice, Held, Plan, cached_plan, greedy_step

#: greedy chains lineups while the best card's chance is at least this
CONFIDENT: Final = 0.5

_MEMORY = Option("adult", str, f"memory level: {', '.join(LEVELS)}", choices=tuple(LEVELS))


def replay_hand(data: dict[str, Any], seat: int) -> tuple[int, list[tuple[str, int | None]]]:
    """The seat's own-turn number and, per face-down card, its scene and the own turn it was studied."""
    own = 0
    slots: list[tuple[str, int | None]] = []
    for _, _, events in data["history"]:
        for e in events:
            if e.get("seat") != seat:
                continue
            kind = e["kind"]
            if kind == "TurnStarted":
                own += 1
            elif kind == "SuspectDrawn":
                slots.append((e["scene"], None))
            elif kind == "SuspectStudied" and 1 <= e["held"] <= len(slots):
                slots[e["held"] - 1] = (e["scene"], own)
            elif kind == "LineupRequested" and 1 <= e["held"] <= len(slots):
                slots.pop(e["held"] - 1)
    return own, slots


class _LineUpBot(Bot):
    options: ClassVar[dict[str, Option]] = {"memory": _MEMORY}

    def __init__(self, game: Game, seat: int, rng: Any, **options: Any) -> None:
        super().__init__(game, seat, rng, **options)
        if not isinstance(game, LineUpGame):
            raise ConfigError(f"{self.name} bot plays lineup, not {game.name}")
        self.lineup_game = game
        self.level = level(self.settings["memory"])
        self.values = feature_values(game.suspects)
        self.memory = Memory(self.values)
        self.pending: tuple[Trace | None, int, int] | None = None  # trace, age, load at the lineup
        self.target: int | None = None  # the loc the pawn heads for
        self.scene_no = {name: i for i, name in enumerate(game.board.scene_names)}
        #: the last decision's reasons for actions other than the choice (advice; empty: none known)
        self._others: dict[Action, str] = {}

    def restart(self, view: View) -> None:
        """Forget everything: a new game."""
        super().restart(view)
        self.memory = Memory(self.values)
        self.pending = None
        self.target = None

    # --- memory as JSON (a stateless seat-protocol front end carries it between decisions) -------------
    def memory_to_json(self) -> JSON:
        """The notes of the cards held face down, the trace of the card in the lineup, the target.

        ``{"traces": [trace | null, ...], "pending": {"trace": trace | null, "age", "load"} | null,
        "target": loc | null}``, a trace being ``{"scene", "study_turn", "features": {feature:
        value}, "u": {feature: float}, "guess": {feature: value}}``: the features the view showed
        while studying and the bot's own recall draws, never a card id.
        """
        pending = None
        if self.pending is not None:
            trace, age, load = self.pending
            pending = {"trace": self._trace_json(trace), "age": age, "load": load}
        return {"traces": [self._trace_json(t) for t in self.memory.traces], "pending": pending,
                "target": self.target}

    def memory_from_json(self, data: Any, view: View) -> None:
        """Read :meth:`memory_to_json`'s output back, checked against this seat's ``view``.

        The traces must fit the hand the view shows (at most one per face-down card, each of that
        card's scene, studied no later than now); a pending trace only while this seat picks from a
        lineup of its scene; the target a loc of the board. BadStateError names the first fault.
        """
        if not isinstance(data, dict):
            raise BadStateError(f"memory.state of a {self.name} bot must be an object, "
                                f"not {type(data).__name__}")
        view_data = view.to_json()
        own, _ = replay_hand(view_data, self.seat)
        held = view_data["players"][self.seat]["held"]
        traces = data.get("traces")
        if not isinstance(traces, list) or len(traces) > len(held):
            raise BadStateError(f"memory.state.traces must be a list of at most {len(held)} "
                                "(the cards held face down)")
        notes = [self._trace_from(t, f"traces[{i}]", own, held[i]) for i, t in enumerate(traces)]
        pending = data.get("pending")
        kept: tuple[Trace | None, int, int] | None = None
        if pending is not None:
            lineup = view_data.get("lineup") or {}
            if view_data["phase"] != "pick" or lineup.get("seat") != self.seat:
                raise BadStateError("memory.state.pending: a lineup trace, but this seat is not "
                                    "picking a stand")
            if not isinstance(pending, dict):
                raise BadStateError("memory.state.pending must be an object or null")
            trace = self._trace_from(pending.get("trace"), "pending.trace", own, lineup.get("scene"))
            age, load = pending.get("age"), pending.get("load")
            if not _int_in(age, 0, own) or not _int_in(load, 1, len(held) + 1):
                raise BadStateError(f"memory.state.pending: age must be an int in 0..{own} and load in "
                                    f"1..{len(held) + 1}")
            kept = (trace, age, load)
        target, locs = data.get("target"), len(self.lineup_game.board.scenes)
        if target is not None and not _int_in(target, 0, locs):
            raise BadStateError(f"memory.state.target must be null or a loc 0..{locs} (0: the station)")
        self.memory = Memory(self.values, notes)
        self.pending = kept
        self.target = target

    def _trace_json(self, trace: Trace | None) -> JSON | None:
        if trace is None:
            return None
        names = tuple(self.values)
        return {"scene": trace.scene, "study_turn": trace.study_turn,
                "features": dict(zip(names, trace.features, strict=True)),
                "u": dict(zip(names, trace.u, strict=True)),
                "guess": dict(zip(names, trace.guess, strict=True))}

    def _trace_from(self, data: Any, where: str, own: int, scene: Any) -> Trace | None:
        """A trace read from JSON; ``scene``: the scene the card it notes must be from."""
        if data is None:
            return None
        if not isinstance(data, dict):
            raise BadStateError(f"memory.state.{where} must be an object or null")
        if data.get("scene") != scene:
            raise BadStateError(f"memory.state.{where}: scene {str(data.get('scene'))[:40]!r}, "
                                f"but the card is from {scene!r}")
        if not _int_in(data.get("study_turn"), 0, own):
            raise BadStateError(f"memory.state.{where}: study_turn must be an int in 0..{own} "
                                "(own turns so far)")
        parts: dict[str, dict[str, Any]] = {}
        for part in ("features", "u", "guess"):
            table = data.get(part)
            if not isinstance(table, dict) or set(table) != set(self.values):
                raise BadStateError(f"memory.state.{where}.{part} must map exactly the features "
                                    f"{', '.join(self.values)}")
            parts[part] = table
        for name, values in self.values.items():
            if parts["features"][name] not in values or parts["guess"][name] not in values:
                raise BadStateError(f"memory.state.{where}: a value of feature {name!r} "
                                    "that no card has")
            u = parts["u"][name]
            if isinstance(u, bool) or not isinstance(u, int | float) or not 0 <= u < 1:
                raise BadStateError(f"memory.state.{where}.u.{name} must be a number in [0, 1)")
        names = tuple(self.values)
        return Trace(str(scene), tuple(str(parts["features"][n]) for n in names), int(data["study_turn"]),
                     tuple(float(parts["u"][n]) for n in names), tuple(str(parts["guess"][n]) for n in names))

    # --- reading the view ---------------------------------------------------------------------------
    def situation(self, data: dict[str, Any]) -> tuple[int, list[tuple[int, int]], int]:
        """(solved scenes bitmask, per held card (scene number, age; -1 unknown), own turn)."""
        me = data["players"][self.seat]
        solved = 0
        for cid in me["identified"]:
            solved |= 1 << self.lineup_game.codec.by_id[cid][0]
        own, slots = replay_hand(data, self.seat)
        held = [(self.scene_no[sc], -1 if t is None else own - t) for sc, t in slots]
        return solved, held, own

    def p_card(self, held: list[tuple[int, int]], i: int, count: int, plan: Plan) -> float:
        """P(correct) of held card ``i`` now (a card never studied: one in the lineup size)."""
        scene, age = held[i]
        if age < 0 or i >= len(self.memory.traces) or self.memory.traces[i] is None:
            return 1 / max(1, count)
        return plan.p_right(scene, min(age, plan.max_age), len(held), count)

    # --- acting -----------------------------------------------------------------------------------
    def step(self, view: View) -> Action:
        """The bot's action (see the module docstring)."""
        return self.ranked(view)[0].action

    def advise(self, view: View, budget: float | None = None) -> Advice:
        """The legal actions, best first, with reasons (expected turns to win for the planner)."""
        ranked = self.ranked(view, commit=False)
        return Advice(view.seat, tuple(ranked), {"memory": self.level.name}, ranked[0].reason)

    def ranked(self, view: View, commit: bool = True) -> list[RankedAction]:
        legal = self.check_view(view)
        data = view.to_json()
        self._others = {}
        best, reason = self.decide(data, legal, commit)
        text = self.game.action_to_str
        turns = self.turns(data, legal) if not commit else {}
        # the bot's choice first, then the others by the plan's expected turns to win when known
        rest = sorted((a for a in legal if a != best), key=lambda a: (turns.get(a, float("inf")), a))
        out = [RankedAction(best, text(best), -turns.get(best, 0.0), reason)]
        for a in rest:
            if a in turns:
                out.append(RankedAction(a, text(a), -turns[a], f"plan: {turns[a]:.2f} turns to win expected"))
            else:
                out.append(RankedAction(a, text(a), -1e9, self._others.get(a, "not the bot's choice")))
        return out

    def turns(self, data: dict[str, Any], legal: tuple[Action, ...]) -> dict[Action, float]:
        """Expected own turns to win after each legal action, where the plan says (hints only)."""
        return {}

    def decide(self, data: dict[str, Any], legal: tuple[Action, ...], commit: bool) -> tuple[Action, str]:
        phase = data["phase"]
        if phase == "study":
            st = data["studying"]
            if commit:
                own, slots = replay_hand(data, self.seat)
                while len(self.memory.traces) < len(slots):
                    self.memory.drawn()
                self.memory.study(int(st["held"]), st["scene"], st["features"], own, self.rng)
            return codec.STUDY, "study the suspect (memory noted)"
        if phase == "pick":
            return self.pick_stand(data, legal, commit)
        if phase == "offer":
            return codec.LUCKY, "a Lucky Break card is free"
        if phase == "use":
            return self.use_lucky(data, legal)
        if phase == "move":
            return self.move(data, legal)
        return self.turn_choice(data, legal, commit)

    def pick_stand(self, data: dict[str, Any], legal: tuple[Action, ...], commit: bool) -> tuple[Action, str]:
        stands = [tuple(str(c["features"][f]) for f in self.values) for c in data["lineup"]["stands"]]
        trace, age, load = self.pending if self.pending is not None else (None, 0, 1)
        if trace is None:
            self._others = dict.fromkeys(legal, "no memory of this suspect: as likely as the guess")
            return legal[int(self.rng.integers(len(legal)))], "no memory of this suspect: a guess"
        s = self.level.retention(age, load)
        j, post = pick(s, trace.recall(s), stands, self.values, self.rng)
        self._others = {codec.PICK + k: f"stand {k + 1}: posterior {p:.2f} by what I recall"
                        for k, p in enumerate(post)}
        if commit:
            self.pending = None
        return codec.PICK + j, f"stand {j + 1} is the one I recall, posterior {post[j]:.2f}"

    def use_lucky(self, data: dict[str, Any], legal: tuple[Action, ...]) -> tuple[Action, str]:
        if codec.TO_STATION in legal and data["players"][self.seat]["held"]:
            return codec.TO_STATION, "straight to the station with a card to line up"
        hinder = self.hinder(data, legal)
        if hinder is not None:
            return hinder
        return codec.END, "keep the card for later"

    def hinder(self, data: dict[str, Any], legal: tuple[Action, ...]) -> tuple[Action, str] | None:
        targets = [a - codec.HINDER for a in legal if codec.HINDER <= a < codec.HINDER + codec.MAX_SEATS]
        if not targets:
            return None
        players = data["players"]

        def lead(s: int) -> tuple[int, int, int]:
            scenes = {self.lineup_game.codec.by_id[c][0] for c in players[s]["identified"]}
            return (-len(scenes), players[s]["count"], s)

        t = min(targets, key=lead)
        return codec.HINDER + t, f"hinder seat {t}, the closest to winning"

    def move(self, data: dict[str, Any], legal: tuple[Action, ...]) -> tuple[Action, str]:
        plan = self.plan()
        here = data["players"][self.seat]["space"]
        if self.target is None:
            self.target = self.head_for(data, plan)
        space = plan.locs[self.target]
        to = greedy_step(plan.board, here, int(data["die"]), space, plan.street_distances(self.target))
        action = codec.MOVE + to
        if action not in legal:
            action = legal[0]
        return action, f"towards {plan.board.label(space)}"

    def turn_choice(self, data: dict[str, Any], legal: tuple[Action, ...], commit: bool
                    ) -> tuple[Action, str]:
        """START (roll, stay and line up, Lucky Break) and STATION (line up or end)."""
        plan = self.plan()
        me = data["players"][self.seat]
        solved, held, _ = self.situation(data)
        card, why = self.lineup_choice(data, plan, solved, held, me["count"], data["phase"] == "station")
        if card is not None:
            look = codec.LOOK + card
            if look in legal and held[card][1] > 0:
                return look, "another look at the card before its lineup"
            action = codec.LINEUP + card
            if action in legal:
                if commit:
                    self.hand_over(held, card)
                return action, why
        if data["phase"] == "station":
            return codec.END, why
        self.target = self.head_for(data, plan)
        if self.target == STATION and codec.TO_STATION in legal and held:
            return codec.TO_STATION, "straight to the station"
        hinder = self.hinder(data, legal)
        if hinder is not None:
            return hinder
        return codec.ROLL, f"roll and head for {plan.board.label(plan.locs[self.target])}"

    def hand_over(self, held: list[tuple[int, int]], card: int) -> None:
        """Held card ``card`` (from 0) goes to a lineup: its trace, age and load wait for the pick."""
        _, age = held[card]
        self.pending = (self.memory.lined_up(card + 1), max(0, age), len(held))

    def useful(self, held: list[tuple[int, int]], solved: int) -> list[int]:
        """Held cards of scenes not solved yet."""
        return [i for i, (s, _) in enumerate(held) if not solved >> s & 1]

    def plan(self) -> Plan:
        return cached_plan(self.lineup_game, self.level.name)

    def head_for(self, data: dict[str, Any], plan: Plan) -> int:
        raise NotImplementedError

    def lineup_choice(self, data: dict[str, Any], plan: Plan, solved: int, held: list[tuple[int, int]],
                      count: int, arrived: bool) -> tuple[int | None, str]:
        raise NotImplementedError


class GreedyBot(_LineUpBot):
    """Nearest unsolved scene; the station when holding a card; chain lineups while confident."""

    name: ClassVar[str] = "greedy"
    description: ClassVar[str] = ("nearest unsolved scene, the station with a card, lineups while "
                                  "confident; memory=child|adult|sharp|perfect")

    def head_for(self, data: dict[str, Any], plan: Plan) -> int:
        solved, held, _ = self.situation(data)
        here = data["players"][self.seat]["space"]
        if self.useful(held, solved):
            return STATION
        taken = {s for s, _ in held}
        open_ = [s for s in range(len(plan.board.scenes)) if not solved >> s & 1 and s not in taken
                 and plan.street_distances(s + 1)[here] > 0]  # a street path, not through the station
        if not open_:
            return STATION
        return 1 + min(open_, key=lambda s: (_mean(plan.travel(here, s + 1)) if plan.locs[s + 1] != here
                                              else 99.0, s))

    def lineup_choice(self, data: dict[str, Any], plan: Plan, solved: int, held: list[tuple[int, int]],
                      count: int, arrived: bool) -> tuple[int | None, str]:
        if data["players"][self.seat]["space"] != plan.board.station:
            return None, ""
        cards = self.useful(held, solved)
        if not cards:
            return None, "no card to line up"
        best = max(cards, key=lambda i: (self.p_card(held, i, count, plan), -i))
        p = self.p_card(held, best, count, plan)
        chained = any(e["kind"] == "LineupResult" and e["seat"] == self.seat
                      for e in data["history"][-1][2]) if data["history"] else False
        if chained and p < CONFIDENT:
            return None, f"best card only {p:.2f} likely: stop"
        return best, f"line up card {best + 1}: P(correct) {p:.2f}"


class HeuristicBot(GreedyBot):
    """``greedy`` under the name every game's documented heuristic has (DESIGN.md section 6), so that
    front ends which default to ``heuristic`` (the seat protocol, ``copsolver play``) seat it."""

    name: ClassVar[str] = "heuristic"
    description: ClassVar[str] = ("the greedy rule under the common name (see greedy); "
                                  "memory=child|adult|sharp|perfect")


class PlannerBot(_LineUpBot):
    """Follows the optimal plan for its memory level (expected own turns to win)."""

    name: ClassVar[str] = "planner"
    description: ClassVar[str] = ("the optimal plan for its memory (value iteration over scenes, held cards' "
                                  "ages, count); memory=child|adult|sharp|perfect")

    def key(self, data: dict[str, Any], plan: Plan) -> tuple[int, Held, int, list[int]]:
        solved, held, _ = self.situation(data)
        useful = sorted(self.useful(held, solved), key=lambda i: (held[i][1], i))
        keep: list[int] = []
        for i in useful:  # the plan's hands hold distinct scenes: the youngest card of each
            if len(keep) < plan.max_held and all(held[j][0] != held[i][0] for j in keep):
                keep.append(i)
        # at the start of a turn the view has counted the turn just begun; the plan's end-of-turn
        # states age cards when the next turn begins, so they are read one turn younger
        back = 1 if data["phase"] == "start" else 0
        cards = tuple(sorted((held[i][0], min(plan.max_age, max(0, held[i][1] - back))) for i in keep))
        return solved, cards, int(data["players"][self.seat]["count"]), keep

    def best(self, data: dict[str, Any], plan: Plan) -> Choice:
        solved, cards, count, _ = self.key(data, plan)
        here = data["players"][self.seat]["space"]
        loc = plan.loc_of(here)
        if data["phase"] == "station":
            return plan.ranked(("A", solved, cards, count))[0]
        key = ("E", loc, solved, cards, count)
        if loc is None or key not in plan.index:  # a street, or a scene the pawn did not draw at
            return plan.from_space(here, solved, cards, count)[0]
        return plan.ranked(key)[0]

    def turns(self, data: dict[str, Any], legal: tuple[Action, ...]) -> dict[Action, float]:
        """Expected own turns to win of roll, end and each lineup, from the plan's ranked choices;
        of each move, from the space it ends on (the plan's best continuation there)."""
        if data["phase"] == "move":
            return self.move_turns(data, legal)
        if data["phase"] not in ("start", "station"):
            return {}
        plan = self.plan()
        solved, cards, count, keep = self.key(data, plan)
        here = data["players"][self.seat]["space"]
        loc = plan.loc_of(here)
        if data["phase"] == "station":
            choices = plan.ranked(("A", solved, cards, count))
        elif loc is None or ("E", loc, solved, cards, count) not in plan.index:
            choices = plan.from_space(here, solved, cards, count)
        else:
            choices = plan.ranked(("E", loc, solved, cards, count))
        _, held, _ = self.situation(data)
        out: dict[Action, float] = {}
        for c in choices:  # best first: the first value found for an action is its best
            if c.kind == "go" and codec.ROLL in legal:
                out.setdefault(codec.ROLL, c.value)
            elif c.kind == "stop" and codec.END in legal:
                out.setdefault(codec.END, c.value)
            elif c.kind in ("stay", "lineup"):
                for i in keep:
                    if held[i][0] == c.card[0] and codec.LINEUP + i in legal:
                        out.setdefault(codec.LINEUP + i, c.value)
        return out

    def move_turns(self, data: dict[str, Any], legal: tuple[Action, ...]) -> dict[Action, float]:
        """Expected own turns to win after each move, by the plan's value where the move ends."""
        plan = self.plan()
        solved, cards, count, _ = self.key(data, plan)
        out: dict[Action, float] = {}
        for a in legal:
            space = a - codec.MOVE
            if not 0 <= space < len(plan.board.kinds):
                continue
            loc = plan.loc_of(space)
            key = ("E", loc, solved, cards, count)
            if loc is not None and key in plan.index:
                out[a] = plan.value(key)
            elif loc is None:
                out[a] = plan.from_space(space, solved, cards, count)[0].value
        return out

    def head_for(self, data: dict[str, Any], plan: Plan) -> int:
        choice = self.best(data, plan)
        if choice.kind == "go":
            return choice.target
        solved, cards, count, _ = self.key(data, plan)
        return plan.from_space(data["players"][self.seat]["space"], solved, cards, count)[0].target

    def lineup_choice(self, data: dict[str, Any], plan: Plan, solved: int, held: list[tuple[int, int]],
                      count: int, arrived: bool) -> tuple[int | None, str]:
        if data["players"][self.seat]["space"] != plan.board.station:
            return None, ""
        choice = self.best(data, plan)
        if choice.kind not in ("stay", "lineup"):
            return None, f"plan: {choice.kind}, {choice.value:.2f} turns to win expected"
        _, _, _, keep = self.key(data, plan)
        scene = choice.card[0]
        for i in keep:
            if held[i][0] == scene:
                return i, f"plan: line up card {i + 1}; {choice.value:.2f} turns to win expected"
        return None, "plan: stop"


class RandomLineUpBot(_LineUpBot):
    """Uniform random legal moves, except the pick: by its memory, like the others (a baseline that
    keeps the memory and drops the strategy)."""

    name: ClassVar[str] = "random"
    description: ClassVar[str] = ("uniform random legal moves; picks a lineup stand by its memory; "
                                  "memory=child|adult|sharp|perfect")

    def decide(self, data: dict[str, Any], legal: tuple[Action, ...], commit: bool) -> tuple[Action, str]:
        """Study and pick as every LineUp bot; anything else uniformly at random."""
        if data["phase"] in ("study", "pick"):
            return super().decide(data, legal, commit)
        action = legal[int(self.rng.integers(len(legal)))]
        if commit and codec.LINEUP <= action < codec.LINEUP + codec.MAX_HELD:
            _, held, _ = self.situation(data)
            self.hand_over(held, action - codec.LINEUP)
        return action, "random"


def _int_in(value: Any, low: int, high: int) -> TypeGuard[int]:
    """``value`` is a JSON integer (not a bool) in ``low..high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _mean(dist: tuple[tuple[int, float], ...]) -> float:
    return sum(t * p for t, p in dist)


register("lineup", RandomLineUpBot)
register("lineup", GreedyBot)
register("lineup", HeuristicBot)
register("lineup", PlannerBot)
