"""The pieces of a Police Precinct position: cops, emergency slots, investigation stacks.

Plain mutable records with a ``copy`` each, so a state clones cheaply. Deck orders are chance, not
state: a stack holds counts, plus the cards someone has looked at (``top``/``bottom``, with who knows
them), because a look fixes those cards' places until the stack is shuffled again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass
class Cop:
    """One character on the board (a seat plays one, two in the solo game)."""

    seat: int
    char: int  # index into Content.characters
    street: int
    marked: bool = True
    donuts: int = 0
    hand: list[int] = field(default_factory=list)  # police card kinds, in the order received
    fresh: list[bool] = field(default_factory=list)  # per hand card: acquired this turn
    upgrades: list[int] = field(default_factory=list)
    swat: int = 0
    fed: int = 0
    out: bool = False  # removed from the game (a dirty cop revealed or exposed)
    hospital: bool = False  # sent to the hospital this turn
    skip_event: bool = False  # a reward skips this turn's event draw
    arrests: int = 0  # punks arrested this turn
    switched: bool = False  # car side switched this turn
    extra_move: int = 0  # streets added this turn (Overtime)
    no_draw: bool = False  # no police card in phase 3 this turn (a wrong accusation)
    rewarded: bool = False  # the three-arrests donut was paid this turn
    empty: int = 0  # public tally: this cop's investigations that placed no evidence

    def copy(self) -> Cop:
        """An independent copy."""
        return replace(self, hand=self.hand.copy(), fresh=self.fresh.copy(), upgrades=self.upgrades.copy())


#: where an emergency lies: a building's street, an intersection, a street, or a Bad Hood
AT_BUILDING, AT_CROSSING, AT_STREET, AT_HOOD = 0, 1, 2, 3


@dataclass
class Slot:
    """An event card on the board: an emergency, or a special event that stays until handled."""

    card: int  # event kind
    at: int  # AT_BUILDING / AT_CROSSING / AT_STREET / AT_HOOD
    where: int  # building street / intersection / street / hood (1..6)
    building: str = ""  # the building's name when at a building
    unknown: int = -1  # -1 none, -2 face down, else the revealed kind
    serial: int = 0  # placement order (the Urgent! rules read it)
    data: int = 0  # a special's counter (escapees left, turns waited, the stolen car's street ...)

    def copy(self) -> Slot:
        """An independent copy."""
        return replace(self)


@dataclass
class Stack:
    """An investigation stack: counts of its evidence and useless cards, and the cards looked at.

    ``evidence``/``useless`` count the whole stack, ``top`` and ``bottom`` included; ``top`` lists the
    top cards someone knows as (kind, the seats that know it), top first (True = evidence);
    ``bottom`` those at the bottom, bottom-most last.
    """

    building: str
    evidence: int
    useless: int
    top: list[tuple[bool, frozenset[int]]] = field(default_factory=list)
    bottom: list[tuple[bool, frozenset[int]]] = field(default_factory=list)
    gone: bool = False  # the category is complete: the stack left the board

    @property
    def size(self) -> int:
        """Cards in the stack."""
        return self.evidence + self.useless

    def middle(self) -> tuple[int, int]:
        """(evidence, useless) among the cards nobody has looked at."""
        known = [kind for kind, _ in self.top + self.bottom]
        return self.evidence - sum(known), self.useless - (len(known) - sum(known))

    def shuffle(self) -> None:
        """Shuffle: every card's place is unknown again."""
        self.top.clear()
        self.bottom.clear()

    def copy(self) -> Stack:
        """An independent copy."""
        return replace(self, top=self.top.copy(), bottom=self.bottom.copy())
