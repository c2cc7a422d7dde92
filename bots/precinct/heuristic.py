"""Police Precinct: the documented rule-based ``heuristic`` bot, for good cops and for the dirty cop.

It reads only the seat's view (``view.to_json()``, ``view.legal_actions``, ``view.decision``) and the
game's static configuration (the city map and the content's card tables, the same for every world).
Every decision scores each legal action and plays the best; ties go to the bot's generator.

**Good cop**, in the order of the issue's hierarchy (each rule is a score, so a rich lower rule can
beat a poor higher one):

1. *Urgent emergencies.* Handling an emergency is worth its rewards, much more with the Urgent! token
   (a third card of its colour fails it) or when it blocks an intersection, times the chance the
   highest die reaches its number (dice: emergency value, upgrade, negotiator, cars adjacent, revealed
   Unknown Circumstances; a face-down marker counts a little against). A card that sends a failing
   cop to the hospital costs more when the odds are poor (few dice).
2. *Gangs and crowded hoods.* An arrest is worth the punks it is expected to remove, weighted up at
   three punks and more at four or a gang, less the chance of removing none (the hospital). Arresting
   the murderer, once the board is complete and he is in the car's hood, beats everything.
3. *Investigation when calm.* A stack that still holds evidence is worth the evidence the draw is
   expected to find (the hypergeometric mean), more as the murderer's turn nears.
4. *Station visits for upgrades* when holding a donut; drawing a police card is the fallback.

The move phase scores each reachable street by the best of those actions there (with the cars that
would stand by the car), plus a little for opportunities within a turn's drive, plus 6 for joining
another car on the stolen car's street (two cars catch it), less two points per donut the move would
spend; the gas leak counts once another car stands on its street (the second car fixes it).
In others' rolls the bot assists with symbol cards when the roll matters
(an arrest whose chance to remove a punk is poor, the murderer, an emergency below 70%, an
investigation of a stack with evidence left) but keeps two cards; donuts go on own rolls when a donut
raises the chance of success by 12 points or more. Rewards: donut > police card > skip an event >
look at a stack > look at an event. Evidence is always placed. At the hand limit the least useful
card goes. Characters are picked to balance the team (the role the team lacks most); the car is
marked unless the character is an investigator.

Accusations (``accuse_at``, unset by default: good cops then never accuse and give no donuts to
accusations). With it set, a good cop reads the exact posterior of :mod:`solver.belief.dirty_cop`
from its view; once the likeliest other seat is dirty with at least ``accuse_at``, accusing it is
worth P x :data:`EXPOSE` less (1 - P) x what a wrong accusation costs (three donuts and the hand's
worth), against the turn's other actions, and only when the cops other than the suspect hold the
three donuts; a donor backs an accusation with the donuts it still needs when its target is his own
likeliest suspect with at least :data:`BACKING`. Board data without a history (a
search's playouts) never accuses.

**Dirty cop** (``my_loyalty == "dirty"``), sabotage that stays plausible: he plays the good cop's
moves, but claims drawn evidence useless only when an honest draw of that many cards would show no
evidence with a chance of at least :data:`HIDE_THRESHOLD` (computed from the stack's public size and
evidence before the draw); he never helps with cards nor spends donuts on others' behalf, never
accuses, and reveals himself when the good team is close (the board two evidence or less from
complete, or the murderer's arrest possible) or when suspicion is high (three or more of his own
investigations placed nothing). Revealed, he incites punks in the most crowded hood, steals a donut
when he has none, and spends donuts against the good cops' rolls when that cuts their odds a lot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb
from typing import Any, ClassVar, Final

import numpy as np

from bots.base import Advice, Bot, Option, RankedAction
from bots.registry import register
from solver.core import Action, ConfigError, Game, View
from solver.games.precinct import codec

#: a dirty cop hides evidence when an honest draw would show none with at least this chance
HIDE_THRESHOLD: Final = 0.3
#: scores closer than this are ties (broken by the generator)
_TIE: Final = 1e-9
#: points one donut is worth (a move that spends donuts must gain that much)
DONUT: Final = 2.0
#: points exposing the dirty cop is worth to a good cop (he stops sabotaging; the accuser gets a donut)
EXPOSE: Final = 40.0
#: a donor backs an accusation of his own likeliest suspect from this posterior chance
BACKING: Final = 0.5
#: cards a helper keeps in hand before assisting others
KEEP_CARDS: Final = 2
_REWARD_VALUE: Final = {"donut": 5.0, "police_card": 4.0, "skip_event": 3.5, "look_investigation": 3.0,
                        "look_event": 2.5}
#: how much a police card's text is worth keeping (the discard drops the lowest; unknown texts 1.0)
_TEXT_VALUE: Final = {"air_support": 5.0, "backup": 4.0, "crime_lab": 4.0, "hot_pursuit": 3.5,
                      "paperwork": 3.0, "coffee_break": 3.0, "dispatch_officers": 2.5,
                      "community_outreach": 2.5, "fresh_perspective": 2.0, "overtime": 1.5,
                      "tow_truck": 1.5, "informant_tip": 1.0}
_DIE_MINUS: Final = ("punks", "angry_dog", "shotgun")
#: event cards the informant may leave on top (they hurt nobody)
_HARMLESS: Final = ("dedicated_officer", "optional_training", "internal_affairs", "overburdened")

Scored = tuple[Action, float, str]
#: the fallback action of every street (a police card)
_DRAW: Final = (1.0, "draw a police card")


def p_highest(dice: float, need: int) -> float:
    """Chance the highest of ``dice`` dice reaches ``need`` (a fractional count interpolates)."""
    if need <= 1:
        return 1.0 if dice > 0 else 0.0
    miss = min(1.0, (need - 1) / 6)
    return float(1.0 - miss ** max(0.0, dice))


def die_chance(need: int) -> float:
    """One arrest die's chance: a 6 always arrests, a 1 never [Arrest Street Punks]."""
    return min(5 / 6, max(1 / 6, (7 - need) / 6))


def p_more_than(dice: int, p: float, k: int) -> float:
    """Chance that more than ``k`` of ``dice`` dice of chance ``p`` succeed."""
    return sum(comb(dice, j) * p**j * (1 - p) ** (dice - j) for j in range(k + 1, dice + 1))


def p_no_evidence(size: int, evidence: int, drawn: int) -> float:
    """Chance that ``drawn`` cards from a stack of ``size`` holding ``evidence`` show no evidence."""
    if drawn <= 0:
        return 1.0
    if drawn > size - evidence:
        return 0.0
    return comb(size - evidence, drawn) / comb(size, drawn)


def _block_table() -> tuple[tuple[int, int] | None, ...]:
    out: list[tuple[int, int] | None] = []
    for a in range(codec.NUM_ACTIONS):
        try:
            out.append(codec.block_of(a))
        except ValueError:  # a gap in the action layout
            out.append(None)
    return tuple(out)


#: :func:`codec.block_of` of every action id (it scans the blocks; a decision asks for each legal action)
_BLOCKS: Final = _block_table()


def _block_of(a: Action) -> tuple[int, int]:
    """(block start, index in block) of a legal action, from the table."""
    got = _BLOCKS[a] if 0 <= a < len(_BLOCKS) else None
    return got if got is not None else codec.block_of(a)  # the codec raises its error


class _Static:
    """What a :class:`Reader` looks up that depends on the game alone (its content and city): built once
    per game, not at every decision (a search's playouts make ~30 decisions per iteration)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        content = game.content  # type: ignore[attr-defined]
        city = game.city  # type: ignore[attr-defined]
        self.chars: dict[str, Any] = {c.name: c for c in content.characters}
        self.events: dict[str, Any] = {e.name: e for e in content.events}
        self.police: dict[str, Any] = {p.name: p for p in content.police}
        self.deck_evidence: tuple[int, ...] = tuple(e for (e, _) in content.decks)
        self.evidence_total = sum(self.deck_evidence)
        self.streets = len(city.streets)
        self.station: int = game.station  # type: ignore[attr-defined]
        # a board card's location name -> the streets it is handled from, filled as names appear
        self.card_streets: dict[str, tuple[int, ...]] = {}


#: id(game) -> (game, its tables); the game is kept so that its id is not reused while the entry lives
_STATICS: dict[int, tuple[Game, _Static]] = {}


def _static(game: Game) -> _Static:
    got = _STATICS.get(id(game))
    if got is None or got[0] is not game:
        if len(_STATICS) >= 64:  # tests build many games; a program plays a few
            _STATICS.clear()
        got = _STATICS[id(game)] = (game, _Static(game))
    return got[1]


class Reader:
    """The view's JSON with the lookups every rule needs (names to ids, cars per street, odds).

    A Reader lives for one decision: what every action's score reads (cars per street, the cards and
    stacks handled from each street, the cops' characters) is computed once here, the game's tables
    once per game (:class:`_Static`).
    """

    def __init__(self, game: Game, data: Mapping[str, Any], accuse_at: float | None = None) -> None:
        self.game = game
        self.data = data
        self.accuse_at = accuse_at if "history" in data and data.get("my_loyalty") != "dirty" else None
        self._suspects: list[float] | None = None
        static = self._static = _static(game)
        self.city = game.city  # type: ignore[attr-defined]
        self.content = game.content  # type: ignore[attr-defined]
        self.chars = static.chars
        self.events = static.events
        self.police = static.police
        self.seat: int = int(data["seat"])
        self.cops: list[dict[str, Any]] = list(data["cops"])
        street = self.city.street
        self.street_of = [street(c["street"]) for c in self.cops]
        self.support = [street(s) for s in data["support"]]
        self.mine = [i for i, c in enumerate(self.cops) if c["seat"] == self.seat]
        self.dirty = data.get("my_loyalty") == "dirty"
        self.revealed = bool(self.dirty and (data.get("loyalty") or [None] * (self.seat + 1))[self.seat])
        placed = data["placed"]
        self.complete = all(p >= e for p, e in zip(placed, static.deck_evidence, strict=True))
        self.evidence_left = static.evidence_total - sum(placed)
        self.board = list(data["board"])
        ids = self.city.intersection_ids
        self.blocked = frozenset(ids[b["where"]] for b in self.board if b["where"] in ids)
        self._best: dict[tuple[int, int], tuple[float, str]] = {}
        self._reach: dict[int, tuple[int, dict[int, int], dict[int, int]]] = {}
        # streets by the best action there, per cop (the move phase's "nearby chances")
        self._ranked: dict[int, list[int]] = {}
        self._roll: tuple[str, float, float, float] | None = None
        # (a name the content lacks fails where a rule reads it, as it did before this table)
        self._char_of: list[Any] = [static.chars.get(c["character"]) for c in self.cops]
        # built on first use (most decisions are small and never read them): see _board_tables
        self._cars: list[int] | None = None
        self._on: list[int] = []
        self._cards_at: dict[int, list[dict[str, Any]]] = {}
        self._stacks_at: dict[int, list[dict[str, Any]]] = {}
        self._stack_of: dict[str, dict[str, Any]] | None = None
        self._thefts: list[dict[str, Any]] | None = None

    def _car_tables(self) -> list[int]:
        """Police cars per street (cops on the board and support vehicles), and where each cop's car
        counts (-1 once out): :meth:`cars_on` is asked by every rule at every street."""
        self._on = [-1 if c["out"] else s for c, s in zip(self.cops, self.street_of, strict=True)]
        cars = [0] * self._static.streets
        for s in self._on:
            if s >= 0:
                cars[s] += 1
        for s in self.support:
            cars[s] += 1
        self._cars = cars
        return cars

    def _stack_tables(self) -> dict[str, dict[str, Any]]:
        """The board's cards by the streets they are handled from, and the stacks no card covers by
        their building's street, each in board / stack order (what :meth:`_best_at` scans at each
        street); the stacks by deck name."""
        for card in self.board:
            for s in dict.fromkeys(self.card_streets(card["where"])):
                self._cards_at.setdefault(s, []).append(card)
        covered = {b["where"] for b in self.board}
        buildings = self.city.buildings
        stack_of: dict[str, dict[str, Any]] = {}
        for stack in self.data["stacks"]:
            stack_of.setdefault(stack["deck"], stack)
            b = stack["building"]
            if b and b not in covered and b in buildings:
                self._stacks_at.setdefault(buildings[b], []).append(stack)
        self._stack_of = stack_of
        return stack_of

    # --- who decides -----------------------------------------------------------------------------
    def acting_cop(self) -> int:
        """The cop of this seat the decision is for (the prompt names it; solo seats hold two)."""
        prompt = str(self.data["decision"].get("prompt", ""))
        for i in self.mine:
            if prompt.startswith(f"{self.cops[i]['character']} (seat {self.seat})"):
                return i
        turn = self.data.get("turn")
        if turn and turn["cop"] in self.mine:
            return int(turn["cop"])
        return self.mine[0] if self.mine else 0

    # --- the board -------------------------------------------------------------------------------
    def reach(self, cop: int) -> tuple[int, dict[int, int], dict[int, int]]:
        """(streets a move allows, reachable without donuts, reachable spending every donut) for
        ``cop``'s car this turn (computed once per decision: every candidate street reads it)."""
        got = self._reach.get(cop)
        if got is None:
            c = self.cops[cop]
            allowance = (3 if c["marked"] else 2) + (1 if self.has(cop, "fast") else 0)
            allowance += 1 if "move" in c["upgrades"] else 0
            start, through = self.street_of[cop], self.has(cop, "motorcycle")
            free = self.city.moves(start, allowance, self.blocked, through_blocked=through)
            full = self.city.moves(start, allowance + int(c["donuts"]), self.blocked, through_blocked=through)
            got = self._reach[cop] = (allowance, free, full)
        return got

    def suspects(self) -> list[float]:
        """P(seat p holds a dirty card) for every seat, from this view (the exact posterior, once)."""
        if self._suspects is None:
            from solver.belief.dirty_cop import dirty_marginals

            self._suspects = dirty_marginals(self.data)
        return self._suspects

    def card_streets(self, where: str) -> tuple[int, ...]:
        """Streets from which a card lying at ``where`` is handled (and whose cars are adjacent)."""
        cache = self._static.card_streets
        got = cache.get(where)
        if got is None:
            got = cache[where] = self._card_streets(where)
        return got

    def _card_streets(self, where: str) -> tuple[int, ...]:
        city = self.city
        if where in city.buildings:
            return (city.buildings[where],)
        if where in city.intersection_ids:
            return tuple(city.streets_at(city.intersection_ids[where]))
        if where.startswith("Bad Hood "):
            return tuple(city.hood_streets[int(where.split()[-1]) - 1])
        if where in city.street_ids:
            return (city.street_ids[where],)
        return ()

    def cars_on(self, street: int, exclude: int = -1) -> int:
        """Police cars on ``street`` (cops still on the board and support vehicles), but cop ``exclude``."""
        cars = self._cars if self._cars is not None else self._car_tables()
        n = cars[street]
        if 0 <= exclude < len(self._on) and self._on[exclude] == street:
            n -= 1
        return n

    def stat(self, cop: int, what: str) -> int:
        """A cop's investigate/arrest/emergency value with its upgrade."""
        return int(getattr(self._char_of[cop], what)) + (1 if what in self.cops[cop]["upgrades"] else 0)

    def has(self, cop: int, power: str) -> bool:
        """The cop's character has ``power``."""
        return power in self._char_of[cop].powers

    def unknown_of(self, card: Mapping[str, Any]) -> str | None:
        """The revealed marker of a board card, "face down", or None (no marker on this card)."""
        u = card["unknown"]
        event = self.events.get(card["card"])
        if event is None or not event.unknown or event.special:
            return None  # a card without a marker slot: the view's value is not a marker
        return None if u is None else str(u)

    def special(self, card: Mapping[str, Any]) -> str:
        """The card's special kind ("" for an emergency)."""
        event = self.events.get(card["card"])
        return "" if event is None else str(event.special)

    def thefts(self) -> list[dict[str, Any]]:
        """The board's car theft cards, in board order (every candidate street of a move asks)."""
        if self._thefts is None:
            self._thefts = [b for b in self.board if self.special(b) == "car_theft"]
        return self._thefts

    def card_by_slot(self, slot: int) -> dict[str, Any] | None:
        """The board card in 0-based slot ``slot``."""
        return next((b for b in self.board if b["slot"] == slot + 1), None)

    def hood_need(self, hood: int) -> int:
        """The die result each arrest die needs in Bad Hood ``hood`` (1..6)."""
        need = int(self.data["punks"][hood - 1]) + (2 if self.data["murderer"] == hood else 0)
        return need + (1 if self.data["gangs"][hood - 1] == "enforcers" else 0)

    def emergency_mods(self, card: Mapping[str, Any], cop: int) -> tuple[float, int]:
        """(dice added, need added) by the card's Unknown Circumstances for ``cop``."""
        u = self.unknown_of(card)
        marked = bool(self.cops[cop]["marked"])
        if u is None:
            return 0.0, 0
        if u == "face down":
            return -0.4, 0  # most markers hurt: a fraction of a die against
        if u in _DIE_MINUS or (u == "disrespect" and marked):
            return -1.0, 0
        if u == "respect" and marked:
            return 1.0, 0
        return 0.0, 1 if u == "big_knife" else 0

    # --- what an action is worth ------------------------------------------------------------------
    def handle_value(self, card: Mapping[str, Any], cop: int, street: int, extra: float = 0.0
                     ) -> tuple[float, str]:
        """Score of handling ``card`` by ``cop`` from ``street`` with ``extra`` dice, and why."""
        event = self.events[card["card"]]
        special = event.special
        streets = self.card_streets(card["where"])
        adjacent = sum(self.cars_on(s, exclude=cop) for s in streets)
        if special in ("jail_break", "detainees_run_amok"):
            left = int(card["data"])
            dice = self.stat(cop, "arrest") + adjacent + extra
            p = die_chance(left)
            expect = min(left, dice * p)
            return 4.0 + 2.5 * expect, f"arrest {left} escapees (about {expect:.1f})"
        if special == "gas_leak":
            return 9.0, "fix the gas leak"
        dice = self.stat(cop, "emergency") + adjacent + extra + (1 if self.has(cop, "negotiator") else 0)
        plus, need_plus = self.emergency_mods(card, cop)
        need = event.number + need_plus
        p = p_highest(dice + plus, need)
        worth = 6.0 + max((_REWARD_VALUE.get(r, 2.0) for r in event.rewards), default=0.0)
        if event.both:
            worth += 0.6 * sum(_REWARD_VALUE.get(r, 2.0) for r in event.rewards)
        why = f"{event.name} needs {need}, {dice + plus:.0f} dice: {p:.0%}"
        if card["urgent"]:
            worth += 9.0
            why = "URGENT " + why
        if card["where"] in self.city.intersection_ids:
            worth += 2.0  # it blocks an intersection
        if special == "officer_down":
            worth += 3.0
        loss = (1 - p) * (5.0 if event.hospital else 0.5)
        return p * worth - loss, why

    def arrest_value(self, cop: int, street: int, extra: float = 0.0) -> tuple[float, str]:
        """Score of arresting street punks in ``street``'s hood, and why."""
        hood = self.city.hood_of(street)
        if hood is None:
            return -1.0, "no Bad Hood here"
        punks = int(self.data["punks"][hood - 1])
        if punks == 0:
            return -1.0, "no punks"
        dice = self.arrest_dice(cop, street, hood, murderer=False) + extra
        p = die_chance(self.hood_need(hood))
        expect = min(punks, dice * p)
        gang = self.data["gangs"][hood - 1]
        weight = 5.0 if punks >= 4 or gang else 3.0 if punks == 3 else 1.0
        p_none = (1 - p) ** max(0.0, dice)
        why = f"Bad Hood {hood}: {punks} punks{' and a gang' if gang else ''}, {dice:.0f} dice"
        return expect * weight - 4.0 * p_none, why

    def arrest_dice(self, cop: int, street: int, hood: int, murderer: bool) -> float:
        """Dice of an arrest by ``cop`` from ``street``: handcuffs, cars, officers, SWAT, street smarts."""
        c = self.cops[cop]
        dice = self.stat(cop, "arrest") + self.cars_on(street, exclude=cop)
        dice += int(self.data["patrol"][hood - 1])
        dice += 2 * int(c["swat"]) if murderer else min(2, 2 * int(c["swat"]))
        if self.has(cop, "street_smart") and not murderer:
            dice += 1
        if self.data["gangs"][hood - 1] == "lookouts":
            dice = max(1, dice - 1)
        return float(dice)

    def murderer_value(self, cop: int, street: int) -> tuple[float, str]:
        """Score of arresting the murderer from ``street`` (only with the board complete)."""
        hood = self.city.hood_of(street)
        if not self.complete or hood is None or self.data["murderer"] != hood:
            return -1.0, "the murderer is not arrestable here"
        dice = int(self.arrest_dice(cop, street, hood, murderer=True) + self.cops[cop]["donuts"])
        punks = int(self.data["punks"][hood - 1])
        p = p_more_than(dice, die_chance(self.hood_need(hood)), punks)
        return 60.0 + 200.0 * p, f"arrest the murderer ({p:.0%})"

    def investigate_value(self, cop: int, street: int, deck: str, extra: float = 0.0) -> tuple[float, str]:
        """Score of investigating stack ``deck`` from ``street``: the expected evidence found."""
        stack = (self._stack_of if self._stack_of is not None else self._stack_tables())[deck]
        size, evidence = int(stack["size"]), int(stack["evidence"])
        if stack["gone"] or size == 0 or evidence == 0:
            return -0.5, f"the {deck} stack holds no evidence"
        n = self.stat(cop, "investigate") + (0 if self.cops[cop]["marked"] else 1)
        n += self.cars_on(street, exclude=cop)
        if self.has(cop, "forensics") and deck in ("examine_body", "crime_scene"):
            n += 1
        if self.has(cop, "canvasser") and deck in ("interview", "weapon"):
            n += 1
        drawn = min(size, n + extra)
        expect = drawn * evidence / size
        turn = int(self.data["turn_track"])
        urgency = 1.0 + max(0, turn - self.content.murderer_turn + 6) / 5
        return 6.0 * urgency * expect, f"investigate {deck}: {drawn:.0f} of {size} cards, {evidence} evidence"

    def best_at(self, cop: int, street: int) -> tuple[float, str]:
        """The best action ``cop`` could take standing on ``street`` (used by the move phase).

        Every rule counts the other cars with ``cop`` left out, so where ``cop`` stands now does not
        change the answer: it is computed once per street.
        """
        key = (cop, street)
        if key not in self._best:
            self._best[key] = self._best_at(cop, street)
        return self._best[key]

    def _best_at(self, cop: int, street: int) -> tuple[float, str]:
        if self._stack_of is None:
            self._stack_tables()
        if street not in self._cards_at and street not in self._stacks_at \
                and street != self._static.station and self.city.hood_of(street) is None:
            # most streets: nothing to handle or investigate, and both arrests score -1 off a Bad Hood
            return _DRAW
        options: list[tuple[float, str]] = [_DRAW]
        for card in self._cards_at.get(street, ()):
            special = self.special(card)
            if special in ("", "jail_break", "detainees_run_amok", "officer_down") or (
                    special == "gas_leak" and self.cars_on(street, exclude=cop) >= 1
                    and int(self.cops[cop]["cards"]) >= 2):  # the second car fixes the leak
                options.append(self.handle_value(card, cop, street))
        options.append(self.arrest_value(cop, street))
        options.append(self.murderer_value(cop, street))
        for stack in self._stacks_at.get(street, ()):  # stacks no card covers
            options.append(self.investigate_value(cop, street, stack["deck"]))
        c = self.cops[cop]
        if street == self.game.station and c["donuts"] > 0 and len(c["upgrades"]) < 2:  # type: ignore[attr-defined]
            options.append((4.5, "upgrade at the station"))
        return max(options)

    def best_near(self, cop: int, street: int, steps: int) -> float:
        """The best action's score over the streets within ``steps`` moves of ``street`` (not
        ``street`` itself), 0 when there is none: the move phase's "opportunities within a turn's drive".

        Every candidate street asks this of ~20 neighbours, so the streets are ranked once per decision
        by their best action and the first one in reach is the maximum.
        """
        ranked = self._ranked.get(cop)
        if ranked is None:
            best = [self.best_at(cop, s)[0] for s in range(self._static.streets)]
            ranked = self._ranked[cop] = sorted(range(len(best)), key=best.__getitem__, reverse=True)
        reach = self.city.reach(street, steps, self.blocked)
        for s in ranked:
            if s != street and s in reach:
                return self._best[(cop, s)][0]
        return 0.0


class PrecinctHeuristic(Bot):
    """Rule-based Police Precinct for good cops and the dirty cop (the module docstring has the rules)."""

    name: ClassVar[str] = "heuristic"
    description: ClassVar[str] = (
        "rule-based Police Precinct: urgent emergencies, crowded hoods, investigation; a plausible dirty cop"
    )
    options: ClassVar[Mapping[str, Option]] = {
        "hide_threshold": Option(HIDE_THRESHOLD, float, "a dirty cop hides evidence when an honest "
                                 "no-evidence draw is at least this likely", 0.0, 1.0),
        "accuse_at": Option(None, float, "a good cop accuses the likeliest dirty seat once the exact "
                            "posterior gives it at least this chance, and gives donuts to an accusation "
                            "his own posterior backs as much (unset: never accuses)", 0.0, 1.0),
    }

    def __init__(self, game: Game, seat: int, rng: np.random.Generator, **options: Any) -> None:
        if game.name != "precinct":
            raise ConfigError(f"heuristic bot: this one plays precinct, not {game.name!r}")
        super().__init__(game, seat, rng, **options)
        self.hide_threshold: float = self.settings["hide_threshold"]
        self.accuse_at: float | None = self.settings["accuse_at"]

    def scores(self, view: View) -> list[Scored]:
        """(action, score, reason) for every legal action of ``view``."""
        legal = self.check_view(view)
        return score(self.game, view.to_json(), legal, self.hide_threshold, self.accuse_at)

    def step(self, view: View) -> Action:
        """The best-scoring legal action; ties are broken by the generator."""
        legal = self.check_view(view)
        if len(legal) == 1:
            return legal[0]
        scored = self.scores(view)
        top = max(s for _, s, _ in scored)
        best = [a for a, s, _ in scored if s >= top - _TIE]
        return best[int(self.rng.integers(len(best)))] if len(best) > 1 else best[0]

    def advise(self, view: View, budget: float | None = None) -> Advice:
        """Every legal action ranked by its score, with the rule that scored it (``budget`` ignored)."""
        scored = self.scores(view)
        ranked = tuple(RankedAction(a, self.game.action_to_str(a), round(s, 3), why)
                       for a, s, why in sorted(scored, key=lambda x: (-x[1], x[0])))
        loyalty = view.to_json().get("my_loyalty") or "good"
        return Advice(view.seat, ranked, {"loyalty": loyalty},
                      f"{loyalty} cop; best: {ranked[0].text} ({ranked[0].reason})")


# --- the decisions --------------------------------------------------------------------------------
def score(game: Game, data: Mapping[str, Any], legal: Sequence[Action],
          hide_threshold: float = HIDE_THRESHOLD, accuse_at: float | None = None) -> list[Scored]:
    """Score every legal action of the view ``data`` (the decision is read off the actions' blocks).

    ``accuse_at``: the posterior chance from which a good cop accuses (None: never); it needs the
    view's history (board data without one never accuses).
    """
    r = Reader(game, data, accuse_at)
    cop = r.acting_cop()
    prompt = str(data["decision"].get("prompt", ""))
    blocks = {_block_of(a)[0] for a in legal}
    if codec.PICK in blocks:
        return [_pick(r, a) for a in legal]
    if codec.MOVE in blocks:
        return [_move(r, cop, a) for a in legal]
    if codec.SUPPORT in blocks:
        target = r.street_of[cop]
        return [(a, -float(r.city.distance(a - codec.SUPPORT, target)), "next to my car") for a in legal]
    if codec.NO_ACTION in blocks:
        return [_action(r, cop, a) for a in legal]
    if codec.PLACE in blocks:
        return [_claim(r, a, hide_threshold) for a in legal]
    if data.get("roll") and blocks & {codec.HELP, codec.PLAY}:  # a roll's help window
        return [_help(r, cop, a) for a in legal]
    if codec.DONUTS in blocks:
        return [_donuts(r, cop, a) for a in legal]
    if codec.SABOTAGE in blocks:
        return [_sabotage(r, a) for a in legal]
    if codec.LOYALTY in blocks:
        return [_loyalty(r, cop, a) for a in legal]
    return [_other(r, cop, prompt, a) for a in legal]


def _pick(r: Reader, a: Action) -> Scored:
    """Balance the team: the character strongest where the team picked so far is weakest."""
    char = r.content.characters[a - codec.PICK]
    team = {w: sum(getattr(r.chars[c["character"]], w) for c in r.cops) for w in ("investigate", "arrest",
                                                                                  "emergency")}
    s = sum(getattr(char, w) / (1.0 + team[w]) for w in team)
    s += 0.3 * max(getattr(char, w) for w in team)  # a specialist
    s += 0.2 * len(char.powers)
    return a, s, f"{char.name} fills the team's weakest role"


def _preferred_marked(r: Reader, cop: int) -> bool:
    ch = r.chars[r.cops[cop]["character"]]
    return not ch.investigate > max(ch.arrest, ch.emergency)


def _move(r: Reader, cop: int, a: Action) -> Scored:
    """A street's worth: the best action there, nearby chances, less the donuts the move spends."""
    dest = a - codec.MOVE
    allowance, free, full = r.reach(cop)
    spent = 0 if dest in free else max(0, full.get(dest, allowance) - allowance)
    value, why = r.best_at(cop, dest)
    for card in r.thefts():  # a second car on the stolen car's street catches it at the turn's end
        if dest in r.card_streets(card["where"]) and r.cars_on(dest, exclude=cop) >= 1:
            value += 6.0
            why += "; catch the stolen car"
    near = r.best_near(cop, dest, allowance)
    total = value + 0.15 * near - DONUT * spent
    return a, total, f"{why}{f', {spent} donut(s)' if spent else ''}"


def _action(r: Reader, cop: int, a: Action) -> Scored:
    """PHASE 2: the same priorities as the move, for the car where it stands."""
    start, i = _block_of(a)
    street = r.street_of[cop]
    c = r.cops[cop]
    if a == codec.NO_ACTION:
        return a, 0.0, "nothing to do"
    if a == codec.DRAW_ACTION:
        return a, 1.0 + (0.5 if c["cards"] < 3 else 0.0), "draw a police card"
    if start == codec.INVESTIGATE:
        value, why = r.investigate_value(cop, street, r.game.deck_names[i])  # type: ignore[attr-defined]
        return a, value, why
    if a == codec.ARREST:
        return a, *r.arrest_value(cop, street)
    if a == codec.ARREST_MURDERER:
        return a, *r.murderer_value(cop, street)
    if start == codec.HANDLE:
        card = r.card_by_slot(i)
        if card is None:
            return a, 0.5, "handle"
        return a, *r.handle_value(card, cop, street)
    if start == codec.UPGRADE:
        return a, *_upgrade(r, cop, i)
    if start == codec.PLAY:
        return a, *_play_text(r, cop, i, action_phase=True)
    if a == codec.REVEAL:
        return a, *_reveal(r)
    if start == codec.ACCUSE:
        return a, *_accuse(r, cop, i)
    return a, 0.0, "?"


def _accuse(r: Reader, cop: int, target: int) -> tuple[float, str]:
    """Accuse the likeliest dirty seat once the posterior reaches ``accuse_at``: worth
    P x :data:`EXPOSE` less (1 - P) x what a wrong accusation costs (three donuts and the hand)."""
    if r.accuse_at is None:
        return -5.0, "never accuse"
    odds = r.suspects()
    p = odds[target]
    if p < r.accuse_at or p < max(q for s, q in enumerate(odds) if s != r.seat):
        return -5.0, f"seat {target} is dirty with {p:.2f} only"
    if sum(int(c["donuts"]) for c in r.cops if not c["out"] and c["seat"] != target) < 3:
        # the suspect gives nothing to his own accusation: with fewer it is dropped, the turn wasted
        return -5.0, "too few donuts without the suspect's"
    names: tuple[str, ...] = r.game.police_names  # type: ignore[attr-defined]
    hand = sum((_card_keep(r, names.index(h["card"])) for h in r.data["hand"] if h["cop"] == cop), 0.0)
    worth = p * EXPOSE - (1.0 - p) * (3 * DONUT + hand)
    return worth, f"seat {target} is dirty with {p:.2f}: accuse"


def _upgrade(r: Reader, cop: int, u: int) -> tuple[float, str]:
    what = r.game.upgrade_names[u]  # type: ignore[attr-defined]
    ch = r.chars[r.cops[cop]["character"]]
    if what == "move":
        return 4.2, "upgrade move"
    # the specialist's own strength first: the team counts on it
    return 4.0 + 0.3 * getattr(ch, what), f"upgrade {what}"


def _play_text(r: Reader, cop: int, kind: int, action_phase: bool) -> tuple[float, str]:
    """Whether to play a police card's text now (most are kept for their symbol)."""
    card = r.content.police[kind]
    text = card.text
    hand = int(r.cops[cop]["cards"])
    punks = r.data["punks"]
    if text == "coffee_break":
        return 6.0, "a free donut"
    if text == "paperwork" and hand < 6:
        return 5.5, "two police cards for one"
    if text == "hot_pursuit" and r.data["murderer"] and not r.complete:
        return 6.0, "hold the murderer back a hood"
    if text == "community_outreach" and (max(punks) >= 3 or any(r.data["gangs"])):
        return 5.0, "a punk out of a crowded hood"
    if text == "dispatch_officers" and int(r.data["patrol_stock"]) + sum(r.data["patrol"]) > 0:
        return 5.0, "officers to the crowded hoods"
    if text == "tow_truck" and r.blocked:
        return 4.0, "clear a blocked intersection"
    if text == "fresh_perspective" and action_phase:
        here = r.street_of[cop]
        for s in r.data["stacks"]:
            if not s["gone"] and s["evidence"] and r.city.buildings.get(s["building"]) == here:
                return 7.0, "look at the stack before investigating it"
    return -1.0, f"keep {card.name}"


def _reveal(r: Reader) -> tuple[float, str]:
    """A dirty cop reveals when the good team is close, or when his investigations look bad."""
    if r.revealed or not r.dirty:
        return -10.0, "stay hidden"
    if r.evidence_left <= 2 or r.complete:
        return 50.0, "the board is nearly complete: reveal and fight openly"
    if _suspicion(r) >= 3 and sum(int(c["donuts"]) for c in r.cops if not c["out"]) >= 3:
        return 40.0, "suspicion is high: reveal before an accusation"
    return -10.0, "stay hidden"


def _suspicion(r: Reader) -> int:
    """How many of this seat's investigations placed nothing (what the table can hold against it)."""
    return sum(int(r.cops[i]["empty"]) for i in r.mine)


def _claim(r: Reader, a: Action, threshold: float) -> Scored:
    """Place evidence (good); a dirty cop hides it only when "no evidence" is a plausible draw."""
    if not r.dirty or r.revealed:
        return a, 1.0 if a == codec.PLACE else 0.0, "a good cop places the evidence"
    roll = r.data.get("roll") or {}
    cards = list(roll.get("cards", ()))
    stack = next((s for s in r.data["stacks"] if s["deck"] == r.game.deck_names[roll.get("deck", 0)]), None)  # type: ignore[attr-defined]
    if stack is None or not cards:
        return a, 1.0 if a == codec.PLACE else 0.0, "place"
    size, evidence = int(stack["size"]) + len(cards), int(stack["evidence"]) + sum(bool(c) for c in cards)
    p0 = p_no_evidence(size, evidence, len(cards))
    hide = p0 >= threshold
    why = f"an honest empty draw has chance {p0:.2f}"
    return a, (1.0 if (a == codec.HIDE) == hide else 0.0), why


def _roll_context(r: Reader, dice: float | None = None) -> tuple[str, float, float, float]:
    """(kind, chance of success now, with one more die, the roll's worth) of the roll under way, or as
    if its dice so far (the view's ``n``) were ``dice``. Every action of a help window asks for the
    same context: it is computed once per decision."""
    if dice is None:
        if r._roll is None:
            r._roll = _roll_context_of(r, None)
        return r._roll
    return _roll_context_of(r, dice)


def _roll_context_of(r: Reader, dice: float | None) -> tuple[str, float, float, float]:
    roll = r.data.get("roll") or {}
    kind = str(roll.get("kind", ""))
    cop = int(roll.get("cop", 0))
    n = float(roll.get("n", 0) if dice is None else dice) - float(roll.get("sabotage", 0))
    if kind == "arrest":
        hood = int(roll.get("hood", 1))
        punks = int(r.data["punks"][hood - 1])
        p = die_chance(r.hood_need(hood))
        if r.data["gangs"][hood - 1] == "lookouts":
            n = max(1.0, n - 1)
        if r.complete and r.data["murderer"] == hood:  # the murderer counts as two punks, arrested last
            return "murderer", p_more_than(int(n), p, punks), p_more_than(int(n) + 1, p, punks), 200.0
        worth = 5.0 if punks >= 3 or r.data["gangs"][hood - 1] else 2.0
        return kind, 1 - (1 - p) ** n, 1 - (1 - p) ** (n + 1), worth
    if kind == "escapees":
        card = r.card_by_slot(int(roll.get("slot", 0)))
        need = int(card["data"]) if card else 3
        p = die_chance(need)
        return kind, 1 - (1 - p) ** n, 1 - (1 - p) ** (n + 1), 5.0
    if kind in ("emergency", "officer_down"):
        card = r.card_by_slot(int(roll.get("slot", 0)))
        if card is None:
            return kind, 0.5, 0.6, 5.0
        plus, need_plus = r.emergency_mods(card, cop)
        need = r.events[card["card"]].number + need_plus
        worth = 14.0 if card["urgent"] else 8.0
        return kind, p_highest(n + plus, need), p_highest(n + plus + 1, need), worth
    if kind == "investigate":
        deck = r.game.deck_names[int(roll.get("deck", 0))]  # type: ignore[attr-defined]
        stack = next(s for s in r.data["stacks"] if s["deck"] == deck)
        size, ev = int(stack["size"]), int(stack["evidence"])
        if not size or not ev or n >= size:
            return kind, 1.0, 1.0, 0.0
        return kind, 1 - p_no_evidence(size, ev, int(n)), 1 - p_no_evidence(size, ev, int(n) + 1), 8.0
    return kind, 1.0, 1.0, 0.0


def _help(r: Reader, cop: int, a: Action) -> Scored:
    """Assist a roll with a card when it matters; keep two cards; the dirty cop never helps others."""
    if a == codec.PROCEED:
        return a, 0.0, "no help"
    start, kind = _block_of(a)
    card = r.content.police[kind]
    roll = r.data.get("roll") or {}
    own = int(roll.get("cop", -1)) == cop
    what, p, p1, worth = _roll_context(r)
    bonus = 2 if (start == codec.PLAY or card.double) else 1
    gain = min(1.0, (p1 - p) * bonus)
    if what in ("emergency", "officer_down") and start == codec.HELP:
        slot = r.card_by_slot(int(roll.get("slot", 0)))
        if slot is not None and r.unknown_of(slot) in ("hostage", "bomb"):
            return a, -1.0, "the marker cancels emergency symbols"
    if r.dirty and not own and not r.revealed:
        return a, -1.0, "withhold help"
    if r.dirty and r.revealed:
        return a, -5.0, "never help"
    hand = int(r.cops[cop]["cards"])
    if what == "murderer":
        return a, 100.0 * gain + 1.0, "everything on the murderer"
    if hand <= KEEP_CARDS and not own:
        return a, -0.5, "keep a card or two"
    if what == "investigate":
        useful = worth > 0 and p < 0.9
        return a, (gain * worth - 0.3) if useful else -0.5, f"investigation odds {p:.0%}"
    matters = p < 0.7 or what == "arrest" and p < 0.85
    if not matters:
        return a, -0.5, f"the roll is likely already ({p:.0%})"
    value = gain * worth - (0.3 if own else 0.6) + (0.05 * (hand - KEEP_CARDS))
    return a, value, f"{what} odds {p:.0%} -> {min(1.0, p + gain):.0%}"


def _donuts(r: Reader, cop: int, a: Action) -> Scored:
    """Spend donuts on an own roll while each raises the chance of success by 12 points or more."""
    k = a - codec.DONUTS
    if k == 0:
        return a, 0.0, "keep the donuts"
    if r.dirty and not r.revealed:
        return a, -1.0, "a dirty cop keeps his donuts"
    what, p, _, worth = _roll_context(r)
    roll = r.data.get("roll") or {}
    n = float(roll.get("n", 0))
    if what == "murderer":
        return a, float(k), "every donut on the murderer"
    gains = _odds_with(r, what, n + k) - p
    return a, gains - 0.12 * k - (0.05 if worth < 3 else 0.0), f"{what}: +{k} dice, +{gains:.0%}"


def _odds_with(r: Reader, what: str, dice: float) -> float:
    """The success chance of the roll under way with ``dice`` dice."""
    return _roll_context(r, dice)[1]


def _sabotage(r: Reader, a: Action) -> Scored:
    """A revealed dirty cop spends donuts against a roll when it cuts the odds a lot."""
    k = a - codec.SABOTAGE
    if k == 0:
        return a, 0.0, "save the donuts"
    what, p, _, worth = _roll_context(r)
    roll = r.data.get("roll") or {}
    n = float(roll.get("n", 0)) - float(roll.get("sabotage", 0))
    after = _odds_with(r, what, n - k + float(roll.get("sabotage", 0))) if n - k >= 0 else 0.0
    drop = p - after
    bonus = 1.0 if what == "murderer" else 0.0
    return a, drop * (1.0 + bonus) - 0.1 * k, f"cut {what} odds {p:.0%} -> {after:.0%}"


def _loyalty(r: Reader, cop: int, a: Action) -> Scored:
    """The revealed dirty cop's turn: incite in a crowded hood, steal a donut when he has none."""
    what = r.game.loyalty_names[a - codec.LOYALTY]  # type: ignore[attr-defined]
    donuts = sum(int(c["donuts"]) for c in r.cops if c["seat"] == r.seat)
    if what == "incite":
        return a, 3.0 + max(r.data["punks"]), "a punk into the most crowded hood"
    if what == "steal_donut":
        return a, 7.0 if donuts == 0 else 1.0, "donuts to spend against rolls"
    return a, 2.5, "stir trouble: an event now"


def _donate(r: Reader, k: int) -> tuple[float, str]:
    """Back an accusation with every donut it still needs when its target is this seat's own likeliest
    suspect, dirty with at least :data:`BACKING` (each seat knows its own card, so two good seats'
    posteriors differ, and the accuser already found ``accuse_at``); otherwise give none."""
    roll = r.data.get("roll") or {}
    target = roll.get("target")
    if r.accuse_at is None or target is None:
        return -float(k), "give no donuts to this accusation"
    odds = r.suspects()
    p = odds[int(target)]
    if p < BACKING or p < max(q for s, q in enumerate(odds) if s != r.seat):
        return -float(k), f"seat {target} is dirty with {p:.2f} only: give nothing"
    return float(k), f"seat {target} is dirty with {p:.2f}: back the accusation"


def _card_keep(r: Reader, kind: int) -> float:
    card = r.content.police[kind]
    return _TEXT_VALUE.get(card.text, 1.0) + (2.0 if card.double else 0.0)


def _hood_pick(r: Reader, h: int, why: str) -> float:
    punks = int(r.data["punks"][h])
    gang = 2.0 if r.data["gangs"][h] else 0.0
    if why == "incite":
        return punks + gang + (5.0 if punks == 3 else 0.0)
    return punks + gang - 0.5 * int(r.data["patrol"][h])


def _other(r: Reader, cop: int, prompt: str, a: Action) -> Scored:
    """The smaller decisions: car side, start-of-turn cards, rewards, discards, looks, hoods, specials."""
    start, i = _block_of(a)
    if a in (codec.MARKED, codec.UNMARKED):
        want = _preferred_marked(r, cop)
        return a, 1.0 if (a == codec.MARKED) == want else -0.5, "marked unless an investigator"
    if start == codec.PLAY:
        return a, *_play_text(r, cop, i, action_phase=False)
    if start == codec.REWARD:
        name = r.game.reward_names[i]  # type: ignore[attr-defined]
        return a, _REWARD_VALUE.get(name, 1.0), f"reward {name}"
    if start == codec.DISCARD:
        return a, -_card_keep(r, i), "the least useful card"
    if start == codec.DECK:
        s = r.data["stacks"][i]
        return a, float(s["evidence"]) / max(1, int(s["size"])), "the stack richest in evidence"
    if a in (codec.EV_FIRST, codec.EV_LAST, codec.SHUFFLE):
        return a, {codec.EV_FIRST: 1.0, codec.SHUFFLE: 0.0, codec.EV_LAST: -1.0}[a], "evidence on top"
    if start == codec.HOOD:
        why = "incite" if r.dirty and r.revealed else "help"
        return a, 0.5 + _hood_pick(r, i, why), "the most crowded hood"
    if start == codec.UPGRADE:
        return a, *_upgrade(r, cop, i)
    if start == codec.HANDLE:  # the second emergency (Federal Agent) or the tow truck
        card = r.card_by_slot(i)
        if "tows" in prompt or card is None:
            return a, 1.0, "tow it"
        return a, *r.handle_value(card, cop, r.street_of[cop])
    if a in (codec.KEEP, codec.BOTTOM):
        top = (r.data["known"]["events"]["top"] or [None])[0]
        event = r.events.get(top) if top else None
        harmless = event is not None and event.special in _HARMLESS
        return a, 1.0 if (a == codec.KEEP) == harmless else 0.0, "bad events to the bottom"
    if start == codec.DONATE:
        return a, *_donate(r, i)
    if start == codec.OFFICERS:
        return a, float(i), "every officer on the arrest"
    if start == codec.SWAT:
        return a, _swat(r, i), "SWAT on the big arrests"
    if start == codec.TARGET:
        return a, -float(i), "ask about the next seat"
    if a == codec.YES:
        if "van" in prompt:
            return a, _van(r, cop), "escort the van towards City Hall"
        return a, 1.0, "take it"
    if a == codec.PROCEED:
        return a, 0.0, "carry on"
    return a, 0.0, "?"


def _swat(r: Reader, k: int) -> float:
    roll = r.data.get("roll") or {}
    what, p, _, _ = _roll_context(r)
    if what == "murderer":
        return float(k)
    hood = int(roll.get("hood", 1))
    big = r.data["punks"][hood - 1] >= 3 or r.data["gangs"][hood - 1]
    return (1.0 if k == 1 else 0.0) if big and p < 0.95 else -float(k)


def _van(r: Reader, cop: int) -> float:
    hall = r.city.buildings.get("City Hall")
    van = next((b for b in r.board if r.special(b) == "escort_van"), None)
    if hall is None or van is None:
        return -1.0
    streets = r.card_streets(van["where"])
    if not streets:
        return -1.0
    return 1.0 if r.city.distance(r.street_of[cop], hall) < r.city.distance(streets[0], hall) else -1.0


register("precinct", PrecinctHeuristic)
