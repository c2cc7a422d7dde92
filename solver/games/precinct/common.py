"""Helpers every part of the rules shares: hands, donuts, the hospital, the murderer's hood, dice odds."""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.precinct import codec
from solver.games.precinct.events import CardDrawn, Discarded
from solver.games.precinct.tasks import applies, chance, cop_name, push

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState, Task


#: the public note of a police deck made from the discard pile (the resampler reads the decks' order)
POLICE_RESHUFFLE = "the police card discard pile is shuffled into a new deck"


# --- hands --------------------------------------------------------------------------------------
def give_card(st: PrecinctState, cop: int, kind: int, fresh: bool) -> None:
    """Police card ``kind`` goes to ``cop``'s hand (only its owner learns which)."""
    c = st.cops[cop]
    c.hand.append(kind)
    c.fresh.append(fresh)
    name = st.game.police_names[kind]
    st.events.append(CardDrawn(cop, name, visible_to=frozenset({c.seat})))
    st.events.append(CardDrawn(cop, "?", visible_to=frozenset(range(st.n)) - {c.seat}))


def take_card(st: PrecinctState, cop: int, kind: int, fresh_ok: bool = True) -> None:
    """Remove one card ``kind`` from ``cop``'s hand to the discard pile (an older copy first)."""
    c = st.cops[cop]
    slots = [i for i, k in enumerate(c.hand) if k == kind]
    slots.sort(key=lambda i: c.fresh[i])  # spend a card held since before this turn first
    i = slots[0]
    del c.hand[i]
    del c.fresh[i]
    st.police_discard[kind] += 1
    st.events.append(Discarded(cop, st.game.police_names[kind]))


def playable(st: PrecinctState, cop: int, own_turn: bool) -> list[int]:
    """Card kinds ``cop`` may play now: on its own turn, not one acquired this turn [Police Cards]."""
    c = st.cops[cop]
    return sorted({k for k, f in zip(c.hand, c.fresh, strict=True) if not (own_turn and f)})


def police_left(st: PrecinctState) -> int:
    """Cards that can still be drawn (the deck, then the reshuffled discard pile)."""
    return sum(st.police) + sum(st.police_discard)


def draw_police(st: PrecinctState, cop: int, fresh: bool = True) -> None:
    """Queue a police card draw for ``cop`` (nothing when deck and discard pile are empty)."""
    if police_left(st) > 0:
        push(st, ("deal_police", cop, int(fresh)))


@chance("deal_police", "a police card is dealt to {turn}")
def _deal_police(st: PrecinctState, task: Task) -> list[tuple[Action, float]]:
    counts = st.police if sum(st.police) else st.police_discard  # the rulebook is silent: reshuffle
    total = sum(counts)
    return [(codec.POLICE + k, c / total) for k, c in enumerate(counts) if c]


@applies("deal_police")
def _dealt_police(st: PrecinctState, task: Task, action: Action) -> None:
    if not sum(st.police):
        st.police, st.police_discard = st.police_discard, [0] * len(st.police)
        st.note("reshuffle", POLICE_RESHUFFLE)
    kind = action - codec.POLICE
    st.police[kind] -= 1
    give_card(st, task[1], kind, bool(task[2]))


def murderer_hood(st: PrecinctState) -> int:
    """The murderer's Bad Hood (1..6), 0 before he appears [Turn Track; First Player]."""
    content = st.game.content
    if st.turn_track < content.murderer_turn:
        return 0
    return max(0, 6 - (st.turn_track - content.murderer_turn))


def station_overrun(st: PrecinctState) -> bool:
    """Detainees Run Amok holds the station (our stand-in: no switching, upgrades or dispatch)."""
    return any(s is not None and st.game.content.events[s.card].special == "detainees_run_amok"
               for s in st.slots)


def gain_donut(st: PrecinctState, cop_i: int, n: int = 1) -> None:
    """``cop_i`` takes up to ``n`` donuts from the supply (donuts are limited) [Components: 18 DONUTS]."""
    got = min(n, st.donut_supply)
    st.donut_supply -= got
    st.cops[cop_i].donuts += got
    if got:
        st.note("donut", f"{cop_name(st, cop_i)} takes {got} donut{'s' * (got != 1)}")


def spend_donuts(st: PrecinctState, cop_i: int, n: int) -> None:
    """``cop_i`` discards ``n`` donuts back to the supply."""
    st.cops[cop_i].donuts -= n
    st.donut_supply += n


def hospital(st: PrecinctState, cop_i: int) -> None:
    """Send ``cop_i`` to the hospital: discard two police cards, no police card [At the Hospital]."""
    c = st.cops[cop_i]
    c.street = st.game.hospital
    c.hospital = True
    st.note("hospital", f"{cop_name(st, cop_i)} is injured and goes to the Hospital")
    if st.has(c, "tough"):
        return
    if len(c.hand) <= 2:
        for kind in sorted(c.hand):  # face up in card order: the hand's order is nobody's business
            take_card(st, cop_i, kind)
        return
    push(st, ("discard", cop_i, "hospital"), ("discard", cop_i, "hospital"))


def draw_chance(evidence: int, size: int, drawn: int, found: int) -> float:
    """The chance that ``drawn`` cards from a stack of ``size`` holding ``evidence`` hold ``found``."""
    if not 0 <= found <= drawn <= size or found > evidence or drawn - found > size - evidence:
        return 0.0
    return comb(evidence, found) * comb(size - evidence, drawn - found) / comb(size, drawn)


def hypergeometric(good: int, bad: int, drawn: int) -> list[tuple[int, float]]:
    """(k, P(k good among ``drawn`` cards from ``good`` + ``bad``)) for every possible k."""
    low, high = max(0, drawn - bad), min(good, drawn)
    return [(k, draw_chance(good, good + bad, drawn, k)) for k in range(low, high + 1)]


def binomial(n: int, p: float) -> list[tuple[int, float]]:
    """(k, P(k successes of ``n`` trials of chance ``p``))."""
    return [(k, comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(n + 1)]
