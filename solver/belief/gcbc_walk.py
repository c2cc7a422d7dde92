"""The public walk of a Good Cop Bad Cop view: what one seat's history says about the deal.

One pass over the seat's history (``view["history"]``, see :mod:`solver.games.gcbc.view`) turns it
into the pieces the posterior (:mod:`solver.belief.gcbc_posterior`) multiplies together:

* **cells** — the token pass of :mod:`solver.games.gcbc.resample` (:class:`TokenPass`, the one
  implementation) follows every Integrity card as a token (``3 * seat + position`` at set-up) through
  swaps, Flashbangs and revivals. Another seat's Flashbang is a hidden permutation of that seat's
  cells (its slots are cells too), recorded here instead of resolved.
* **binds** — a cell seen to hold a card (own cards, face-up cards, investigations, Polygraph,
  received cards, the final reveal).
* **rules** — what a swap that did *not* end the game says [Fin, Recibir un disparo]: neither seat in
  the swap holds both leader cards now, and a wounded seat in it still holds one.
* **decisions** — the public choices the behaviour model scores (:mod:`solver.belief.gcbc_behaviour`):
  announcements, aims, flips, targeted Equipment plays, the card given away with a Blackmail. Each
  carries the actor's cells at that moment and only public features (what its targets show face up).
  When a seat's whole hand comes face up (shot, or every card flipped), each seat that had aimed at
  it adds an ``aimed`` decision: what the seat it chose to aim at turned out to be, scored on the
  aimer's cells at its last aim there.
* **known decisions** — aims and announcements of an actor that had investigated a face-down card
  of a seat the options are about (:class:`Known`): which cell it saw is public, its card is part of
  the deal, so the pair factor of :meth:`gcbc_behaviour.BehaviourModel.known_table` ties the actor's
  cells to the seen cells.

The walk reads public events and the seat's own private events only, so what it finds is a function
of the view. It is resumable: :meth:`Walk.extend` takes the history entries not seen yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from solver.games.gcbc.deal import INTEGRITY_NAMES, Integrity
from solver.games.gcbc.equipment import Effect
from solver.games.gcbc.resample import INTEGRITY_IDS, Cell, TokenPass

if TYPE_CHECKING:
    from solver.games.gcbc.rules import GCBCGame

#: What a seat's face-up cards show to everyone: a leader card, more Honest ("h") or more Crooked
#: ("c") cards (counted the other way under a 4th-edition Planted Evidence marker), as many of each
#: ("m"), or nothing face up ("u"). Aim, shoot, investigate and play options use the finer
#: :meth:`Walk.shows`; a whole hand face up is one of the first five (the ``aimed`` outcomes).
CATEGORIES: Final = ("A", "K", "h", "c", "m", "u")
OUTCOMES: Final = CATEGORIES[:5]
_AGENT, _KINGPIN, _HONEST = int(Integrity.AGENT), int(Integrity.KINGPIN), int(Integrity.HONEST)
NOT_BOTH: Final = "not-both"  # the cells hold at most one of the two leader cards
HAS_LEADER: Final = "has-leader"  # the cells hold a leader card


@dataclass(frozen=True)
class Choice:
    """One public decision of ``actor`` (history entry ``index``) the behaviour model scores.

    ``kind`` is "announce", "aim", "play", "aimed" (options and choice are public feature names) or
    "flip", "give" (options and choice are the actor's positions; the feature is the card there,
    which only the actor knows). ``cells`` are the actor's cards then, position by position.
    """

    index: int
    actor: int
    kind: str
    cells: tuple[Cell, ...]
    inverted: bool
    chosen: str | int
    options: tuple[str | int, ...]


#: What an announcement is about (:meth:`Walk._announce_slots`): no seat (``equip``), or every
#: living seat (``arm``: the actor may arm on what it saw anywhere).
_NO_SEAT: Final = -1
_EVERY_SEAT: Final = -2


@dataclass(frozen=True)
class Known:
    """An ``aim`` or ``announce`` decision of ``actor`` (history entry ``index``) with what it had
    seen: per option, its public feature (as in :class:`Choice`) and the cells the option is about
    that the actor had investigated and that are not face up now (``looked``: the (history index,
    seat, position) of each look, for training). ``chosen`` indexes ``options``; ``scored``: the walk
    also lists the decision as a single-seat :class:`Choice`.

    Across a hidden Flashbang two seen cells may name one card (a look before it and a slot after
    it, :func:`may_coincide`), and a seen cell may be one of the face-up cells ``up``: which, depends
    on the hidden order, so the posterior resolves it per order (``gcbc_clusters.ByOrder``): the
    actor saw each card once, and a seen card now face up is public."""

    index: int
    actor: int
    kind: str
    cells: tuple[Cell, ...]
    inverted: bool
    chosen: int
    options: tuple[tuple[str, tuple[Cell, ...]], ...]
    looked: tuple[tuple[tuple[int, int, int], ...], ...]
    scored: bool
    up: tuple[Cell, ...] = ()

    def seen(self) -> tuple[Cell, ...]:
        """Every seen cell once, in the order of the options."""
        return tuple(dict.fromkeys(c for _, cells in self.options for c in cells))

    def seats(self) -> int:
        """How many seats hold the seen cells."""
        return len({seat for looks in self.looked for _, seat, _ in looks})


def may_coincide(a: Cell, b: Cell, perms: Sequence[Sequence[Cell]]) -> bool:
    """Whether cells ``a`` and ``b`` name the same card in some order of the hidden permutations.

    A slot of permutation ``k`` holds one of its items, and a cell is an item of one permutation at
    most (it leaves every hand when the slots replace it), so two resolution paths can only meet
    where one starts: the cells coincide in some order exactly when one leads to the other."""
    return a == b or _leads_to(a, b, perms) or _leads_to(b, a, perms)


def _leads_to(a: Cell, b: Cell, perms: Sequence[Sequence[Cell]]) -> bool:
    if not isinstance(a, tuple):
        return False
    return any(item == b or _leads_to(item, b, perms) for item in perms[a[0]])


class Recorder:
    """A :class:`~solver.games.gcbc.resample.Binder` that records instead of resolving."""

    def __init__(self) -> None:
        self.perms: list[list[Cell]] = []
        self.binds: list[tuple[Cell, int]] = []
        self.known: dict[Cell, int] = {}

    def new(self, items: list[Cell]) -> list[Cell]:
        """A hidden permutation of ``items`` (uniform a priori); its slots are new cells."""
        k = len(self.perms)
        self.perms.append(list(items))
        return [(k, j) for j in range(len(items))]

    def bind(self, cell: Cell, x: int) -> None:
        """Record the observation (a contradiction shows up later as zero posterior mass)."""
        self.binds.append((cell, x))
        self.known.setdefault(cell, x)

    def identity(self, cell: Cell) -> int | None:
        """The card seen at ``cell``, if any."""
        return self.known.get(cell)


@dataclass
class Walk:
    """Everything one seat's history says about the deal (see the module docstring)."""

    game: GCBCGame
    seat: int
    done: int = 0  # history entries walked
    rec: Recorder = field(default_factory=Recorder)
    rules: list[tuple[str, tuple[Cell, ...]]] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    known: list[Known] = field(default_factory=list)
    last_entry: list[Any] | None = None

    def __post_init__(self) -> None:
        n = self.game.num_players
        self.tokens = TokenPass(n, self.seat, self.rec)
        self.alive = [True] * n
        self.wounded = [False] * n
        self.inverted = [False] * n
        self.gun = [False] * n
        self.aim = [-1] * n
        self.guns_centre = self.game.guns
        self.shown: list[list[int | None]] = [[None] * 3 for _ in range(n)]  # face-up cards
        self.effects = {card.id: card.effect for card in self.game.equipment.cards}
        self.pending = ""  # a card whose next decision is special: "re-aim", "restrain", "give"
        self.pending_seat = -1
        self.over = False
        #: target -> aimer -> (history index, aimer's cells, aimer inverted) of the aimer's last aim
        #: at it, until the target's hand is all face up (then an ``aimed`` decision) or changes
        self.aimed: dict[int, dict[int, tuple[int, tuple[Cell, ...], bool]]] = {}
        #: actor -> seat -> (cell, (history index, seat, position)) of every card it investigated
        #: while that seat holds the same hand
        self.seen_by: dict[int, dict[int, list[tuple[Cell, tuple[int, int, int]]]]] = {}

    # --- public features ----------------------------------------------------------------------------
    def category(self, t: int) -> str:
        """What seat ``t``'s face-up cards show (one of :data:`CATEGORIES`)."""
        ids = [x for x in self.shown[t] if x is not None]
        if _AGENT in ids:
            return "A"
        if _KINGPIN in ids:
            return "K"
        if not ids:
            return "u"
        h = sum(1 for x in ids if x == _HONEST)
        c = len(ids) - h
        if self.inverted[t]:
            h, c = c, h
        return "h" if h > c else "c" if c > h else "m"

    def shows(self, t: int) -> str:
        """Seat ``t``'s face-up cards as an option feature: ``A``/``K`` (a leader card), else one
        letter per face-up Honest (``h``) and Crooked (``c``) card, Honest first (``hh``, ``hc``, ...;
        counted the other way under Planted Evidence), or ``u``. Finer than :meth:`category`: a seat
        showing two Honest cards is far likelier honest than one showing one, and aims tell it apart."""
        cat = self.category(t)
        if cat in ("A", "K", "u"):
            return cat
        h = sum(1 for x in self.shown[t] if x == _HONEST)
        c = sum(1 for x in self.shown[t] if x is not None) - h
        if self.inverted[t]:
            h, c = c, h
        return "h" * h + "c" * c

    def living(self, but: int = -1) -> list[int]:
        """Living seats other than ``but``."""
        return [t for t in range(len(self.alive)) if self.alive[t] and t != but]

    def face_down(self, s: int) -> list[int]:
        """Seat ``s``'s face-down positions."""
        return [p for p, x in enumerate(self.shown[s][:len(self.tokens.pos[s])]) if x is None]

    # --- the walk -----------------------------------------------------------------------------------
    def extend(self, history: Sequence[list[Any]]) -> None:
        """Walk the entries ``history[self.done:]`` (the seat's history grows at the end only)."""
        for index in range(self.done, len(history)):
            actor, text, events = history[index]
            if not self.over:
                self._decision(index, actor, text, events)
            self._events(events, index, actor)
            self.last_entry = history[index]
        self.done = len(history)

    def _choice(self, index: int, actor: int, kind: str, chosen: str | int,
                options: Sequence[str | int]) -> None:
        opts = tuple(options)
        if len(set(opts)) < 2:
            return  # a forced choice, or one among options that look alike, says nothing
        cells = tuple(self.tokens.pos[actor])
        self.choices.append(Choice(index, actor, kind, cells, self.inverted[actor], chosen, opts))

    def _decision(self, index: int, actor: int, text: str, events: list[dict[str, Any]]) -> None:
        words = text.split()
        if actor < 0 or not words or words[-1] == "?" or words[0] == "pass":
            return
        head = words[0]
        announced = any(e["kind"] == "ActionAnnounced" and e["seat"] == actor for e in events)
        if announced:
            before = len(self.choices)
            restrained = self.pending == "restrain"
            if not (restrained and head == "shoot"):
                slots = self._announce_slots(actor)
                self._choice(index, actor, "announce", self._announce_feature(actor, words),
                             [feature for _, feature, _ in slots])
                self._announce_known(index, actor, words, slots, len(self.choices) > before)
            self.pending = ""
        elif head == "aim":
            target = int(words[1])
            if self.pending == "re-aim":
                holder = self.pending_seat
                seats = [u for u in self.living(holder) if u != self.aim[holder]]
            else:
                exclude = self.aim[actor] if self.pending == "restrain" else -1
                seats = [u for u in self.living(actor) if u != exclude]
            self.pending = "" if self.pending == "re-aim" else self.pending
            before = len(self.choices)
            self._choice(index, actor, "aim", self.shows(target), [self.shows(u) for u in seats])
            if len(seats) >= 2 and target in seats:
                self._known(index, actor, "aim", seats.index(target),
                            [(self.shows(u), self._still_seen(actor, u)) for u in seats],
                            len(self.choices) > before)
        elif head == "flip":
            self._choice(index, actor, "flip", int(words[1]), self.face_down(actor))
        elif head == "pick" and self.pending == "give" and self.pending_seat == actor:
            self.pending = ""
            seat, pos = (int(x) for x in words[1].split("."))
            if seat == actor:
                self._choice(index, actor, "give", pos, range(len(self.tokens.pos[actor])))
        elif head == "play" and len(words) == 3:
            card, target = words[1], int(words[2])
            targets = self._play_targets(actor, self.effects[card])
            if target not in targets:
                return  # the camera, or a target the public part cannot list: not scored
            self._choice(index, actor, "play", f"{card}:{self._target_feature(actor, target)}",
                         [f"{card}:{self._target_feature(actor, t)}" for t in targets])

    def _still_seen(self, actor: int, t: int) -> list[tuple[Cell, tuple[int, int, int]]]:
        """The cells of seat ``t`` that ``actor`` investigated, still in its hand and not face up.

        Each cell once; two cells that may be one card across a hidden Flashbang, and a cell that
        may be a face-up card, stay: which they are depends on the order (:class:`Known`)."""
        pos = self.tokens.pos[t]
        out: list[tuple[Cell, tuple[int, int, int]]] = []
        for cell, where in self.seen_by.get(actor, {}).get(t, []):
            if cell in pos and self.shown[t][pos.index(cell)] is not None:
                continue
            if all(cell != c for c, _ in out):
                out.append((cell, where))
        return out

    def _announce_feature(self, actor: int, words: list[str]) -> str:
        head = words[0]
        if head == "investigate":
            return "inv:" + self.shows(int(words[1].split(".")[0]))
        if head == "shoot":
            return "shoot:" + self.shows(self.aim[actor])
        return head

    def _announce_known(self, index: int, actor: int, words: list[str],
                        slots: list[tuple[str, str, int]], scored: bool) -> None:
        """The announcement as a :class:`Known` decision: ``arm`` with every card seen, ``shoot``
        with the cards seen of the aimed-at seat, each ``inv`` with those of its seat."""
        seen = {t: self._still_seen(actor, t) for t in self.living(actor)}
        every = [x for t in seen for x in seen[t]]
        options = [(feature, [] if about == _NO_SEAT else every if about == _EVERY_SEAT else seen[about])
                   for _, feature, about in slots]
        keys = [key for key, _, _ in slots]
        key = words[1] if words[0] == "investigate" else words[0]
        if key in keys and len(options) >= 2:
            self._known(index, actor, "announce", keys.index(key), options, scored)

    def _known(self, index: int, actor: int, kind: str, chosen: int,
               options: list[tuple[str, list[tuple[Cell, tuple[int, int, int]]]]], scored: bool) -> None:
        """Record a :class:`Known` decision if the actor had seen a face-down card of an option."""
        if any(seen for _, seen in options):
            self.known.append(Known(
                index, actor, kind, tuple(self.tokens.pos[actor]), self.inverted[actor], chosen,
                tuple((f, tuple(c for c, _ in seen)) for f, seen in options),
                tuple(tuple(w for _, w in seen) for _, seen in options), scored,
                self._maybe_up([x for _, seen in options for x in seen])))

    def _maybe_up(self, seen: list[tuple[Cell, tuple[int, int, int]]]) -> tuple[Cell, ...]:
        """The face-up cells now that may hold one of the ``seen`` cards (seen before a hidden
        Flashbang of its seat: :attr:`Known.up`)."""
        perms = self.rec.perms
        up: dict[Cell, None] = {}
        for cell, (_, t, _) in seen:
            for p, u in enumerate(self.tokens.pos[t]):
                if self.shown[t][p] is not None and u != cell and may_coincide(u, cell, perms):
                    up[u] = None
        return tuple(up)

    def _announce_slots(self, actor: int) -> list[tuple[str, str, int]]:
        """The actions ``actor`` could announce: (its word in the history, ``equip``, ``arm``,
        ``shoot`` or ``t.p``; its public feature; the seat it is about, or ``_NO_SEAT`` /
        ``_EVERY_SEAT``). The single-seat choice and the :class:`Known` decision both read it."""
        slots = [("equip", "equip", _NO_SEAT)]
        if not self.gun[actor] and self.guns_centre > 0:
            slots.append(("arm", "arm", _EVERY_SEAT))
        aimed = self.aim[actor]
        if self.gun[actor] and aimed >= 0 and self.alive[aimed]:
            slots.append(("shoot", "shoot:" + self.shows(aimed), aimed))
        for t in self.living(actor):
            slots += [(f"{t}.{p}", "inv:" + self.shows(t), t) for p in self.face_down(t)]
        return slots

    def _new_hand(self, s: int) -> None:
        """Seat ``s``'s hand changed (a swap, a revival): aims at it and looks at it were at cards it
        may no longer hold, so they are dropped."""
        self.aimed.pop(s, None)
        for seen in self.seen_by.values():
            seen.pop(s, None)

    def _target_feature(self, actor: int, t: int) -> str:
        return "self" if t == actor else self.shows(t)

    def _play_targets(self, actor: int, effect: Effect) -> list[int]:
        """The public part of :func:`solver.games.gcbc.plays.targets` (hands are not public)."""
        if effect == Effect.REVIVE:
            return [t for t in range(len(self.alive)) if not self.alive[t] and t != actor]
        if effect in (Effect.DISARM, Effect.RE_AIM):
            return [t for t in self.living() if self.gun[t]]
        if effect == Effect.TAKE_GUN:
            return [t for t in self.living(actor) if self.gun[t]]
        if effect == Effect.INVERT:
            return self.living()
        if effect == Effect.REVEAL_ONE:
            return [t for t in self.living() if self.face_down(t)]
        if effect == Effect.INVESTIGATE_TWO_CARDS:
            return [t for t in self.living(actor) if len(self.face_down(t)) >= 2]
        if effect == Effect.EXPOSE_INVESTIGATED:
            return []  # the camera's target is whoever was just investigated: no choice to score
        return self.living(actor)

    def _events(self, events: list[dict[str, Any]], index: int, actor: int) -> None:
        swapped: list[int] = []
        ended = False
        for e in events:
            self.tokens.event(e)
            kind = e["kind"]
            if kind == "CardFlipped":
                self.shown[e["seat"]][e["pos"]] = INTEGRITY_IDS[e["card"]]
            elif kind == "CardsRevealed":
                self.shown[e["seat"]] = [INTEGRITY_IDS[c] for c in e["cards"]]
            elif kind == "CardsSwapped":
                a, pa, b, pb = e["seat_a"], e["pos_a"], e["seat_b"], e["pos_b"]
                self.shown[a][pa], self.shown[b][pb] = self.shown[b][pb], self.shown[a][pa]
                swapped += [a, b]
            elif kind == "Arranged":
                self.shown[e["seat"]] = [None] * len(self.tokens.pos[e["seat"]])
            elif kind == "Revived":
                s = e["seat"]
                self.shown[s] = [INTEGRITY_IDS[e["card"]]]
                self.alive[s], self.wounded[s], self.gun[s], self.aim[s] = True, False, False, -1
                self._new_hand(s)
            elif kind == "Eliminated":
                self.alive[e["seat"]], self.wounded[e["seat"]] = False, False
            elif kind == "Wounded":
                self.wounded[e["seat"]] = True
            elif kind == "AllegianceInverted":
                self.inverted[e["seat"]] = e["inverted"]
            elif kind == "GunTaken":
                s, source = e["seat"], e["source"]
                if source == "centre":
                    self.guns_centre -= 1
                else:
                    self.gun[int(source)], self.aim[int(source)] = False, -1
                self.gun[s], self.aim[s] = True, -1
            elif kind == "GunReturned":
                self.gun[e["seat"]], self.aim[e["seat"]] = False, -1
                self.guns_centre += 1
            elif kind == "Aimed":
                self.aim[e["seat"]] = e["target"]
                if e["seat"] == actor and not self.over:  # the holder's own aim (not Planted Evidence)
                    self.aimed.setdefault(e["target"], {})[actor] = (
                        index, tuple(self.tokens.pos[actor]), self.inverted[actor])
            elif kind == "Investigated":  # an announced investigation or an Equipment look
                self._looked(e["by"], e["seat"], [e["pos"]], index)
            elif kind == "PolygraphSeen":
                self._looked(e["by"], e["seat"], range(len(self.tokens.pos[e["seat"]])), index)
            elif kind == "EquipmentPlayed":
                effect = self.effects[e["card"]]
                if effect == Effect.RE_AIM:
                    self.pending, self.pending_seat = "re-aim", e["target"]
                elif effect == Effect.REDIRECT_SHOT:
                    self.pending, self.pending_seat = "restrain", -1
                elif effect == Effect.SWAP_OWN:
                    self.pending, self.pending_seat = "give", e["seat"]
            elif kind == "GameOver":
                ended = self.over = True
                self.shown = [[INTEGRITY_IDS[c] for c in cards] for cards in e["cards"]]
        for s in swapped:
            self._new_hand(s)
        if not ended:
            self._aimed_outcomes()
        if swapped and not ended:
            # [Fin] both leader cards in one living hand win at once; [Recibir un disparo] a wounded
            # player left without a leader card is out. Neither happened, and that is evidence.
            for s in dict.fromkeys(swapped):
                if self.alive[s]:
                    self.rules.append((NOT_BOTH, tuple(self.tokens.pos[s])))
                    if self.wounded[s]:
                        self.rules.append((HAS_LEADER, tuple(self.tokens.pos[s])))

    def _looked(self, by: int, t: int, positions: Sequence[int], index: int) -> None:
        """``by`` saw seat ``t``'s cards at ``positions`` (which cells is public, the cards are not).
        Read after the entry's decision: the actor had not seen them when it chose."""
        looks = self.seen_by.setdefault(by, {}).setdefault(t, [])
        looks += [(self.tokens.pos[t][p], (index, t, p)) for p in positions]

    def _whole(self, t: int) -> bool:
        """Every card of seat ``t`` is face up."""
        return None not in self.shown[t][:len(self.tokens.pos[t])]

    def _aimed_outcomes(self) -> None:
        """An ``aimed`` decision per seat that aimed at a seat whose hand is now all face up.

        The heuristic aims at whom it believes an enemy, from cards only it saw; once the target's
        hand is public, what it turned out to be says which team the aimer is on. The feature is a
        function of public facts, scored on the aimer's cells when it aimed (its class then). An aim
        at a hand already all face up gets its outcome at once: skipping it, since the aim's own
        features say as much, measured no better on the held-out games."""
        for t in [t for t in self.aimed if self._whole(t)]:
            outcome = self.category(t)
            for actor, (index, cells, inverted) in self.aimed.pop(t).items():
                self.choices.append(Choice(index, actor, "aimed", cells, inverted, outcome, OUTCOMES))


def card_names(ids: Sequence[int]) -> list[str]:
    """Integrity card names of ``ids``."""
    return [INTEGRITY_NAMES[i] for i in ids]
