"""Sandra the Police Inspector: the game-controlled third pawn of 2-player games.

Registers :mod:`.turn`'s ``sandra_turn`` hook and the tasks below. Rulebook sections: "2-Player Setup",
"Only 2 Player", "Sandra's Turn", "Sandra's Cards", "Adjusting Sandra's Notoriety". Her pawn is
``st.n``; her board holds only her notoriety cubes and marker, her Income cubes (the cubes she puts on
displays) and her Extra Action discs.

Her turn, as tasks::

    sandra_turn -> s_reveal (chance: an Inspector card) -> v_crowd (visit.py) -> the card's steps

    business N:   s_notoriety +1, s_cube (amount hex), s_contacts, s_group
    safe house N: s_notoriety -1, s_cube (red hex), s_key (chance), s_fixer (chance), s_group
    store A..D:   s_notoriety +1 (A, C) / -1 (B, D), s_discard (unseen chance, one per stack), s_contacts
    closed exit:  s_notoriety -1, s_discard (unseen chance), s_contacts

What the rest of the engine already does for her: her notoriety cubes settle with everyone's at the end
of each part of the day (``phases.settle``: a cube above and one below cancel), her thresholds and the
players' move officers as :func:`.phases.police_moves` says (the players below her move toward her; the
player who did not cross moves one on her behalf), the turn order places her by her notoriety, she spends
her Extra Action discs at Night and Dawn (``phases._extra``), she counts as an officer of the avoiding
player's choice (``turn.sandra_as``) and as a player at her Location (:func:`.visit.others_at`).

Where the rulebook is silent or unclear, we chose:

* **The Travel is one chance node** over the Inspector cards left that depict a Location now in the city
  (a business or safe house whose tile is placed, a store or exit whose City tile is placed; an exit only
  while closed), each equally likely. Revealing cards one by one and shuffling the skipped ones back in
  picks each such card with the same probability (every order of the deck is equally likely), and the
  skipped cards tell nobody anything (the deck's set is public and they go back), so one node is the
  same game with fewer chance steps.
* **No card left fits** (every card left depicts a Location not in the city): all are revealed and
  shuffled back, and Sandra stays where she is and visits nothing; she still "always moves" in the
  sense that she never rests.
* **The revealed card is set aside at once**, face up, and removed from the game (its removal "after all
  steps" changes nothing in between: nothing reads the deck during her Visit).
* **The white hex** of a business is its amount hex (the "white hexagon without the Income symbol",
  "Businesses" 2); the safe house's red hex is :data:`.state.RED_HEX`. Her cubes are her 9 Income cubes
  (2-Player Setup e); she places at most 9 (6 businesses and 3 safe houses, each card once).
* **A closed business** gets her cube too ("Sandra visits closed businesses"); it stays closed.
* **Each discarded contact card that gives an Extra Action disc gives her one** (two such cards, two
  discs: "she gets that disc" is the card's disc). After discarding the 2 rightmost cards the display
  slides right and two new cards are drawn into the leftmost spaces, as when a player takes a card in a
  2-player game ("Do the same when Sandra takes Contact cards"); fewer when the display or deck is short.
* **A group of businesses** (1-3, 4-6) or **all safe houses** gives her a disc the turn she completes it,
  once per group (her visits are tracked on her board like a player's).
* **The depicted locker stack**: the Inspector cards' pictures are not public (a stand-in,
  ``docs/escape-content.md``): store A depicts the green stack, B the black, C the brown; D every stack.
* **Keys and Fixer tiles** she discards are face up, so those discards are public chance nodes; a
  locker or exit tile goes "to the box without anyone seeing it": a chance node whose outcome no seat
  sees (:data:`.state.UNSEEN_CHANCES`; the others see ``discard value ?``), which the resample draws
  as a hidden removal (``rules._replay``). A discard from an empty stack, key space or Fixer stack does
  nothing.
* **Her notoriety** is gained and lost with the players' cubes (:func:`.board.gain_notoriety`): 4 cubes,
  so at most 4 net steps in one part of the day, as for a player; on the top row she takes no wound.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core import Action
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape.city import BUSINESS, EXIT, SAFE_HOUSE, STORE
from solver.games.escape.events import (
    BusinessClosed,
    ContactsDiscarded,
    CubePlaced,
    FixerDiscarded,
    InspectorCard,
    KeyDiscarded,
    SandraDisc,
    TileDiscarded,
    Travelled,
)
from solver.games.escape.phases import exit_open
from solver.games.escape.state import AMOUNT_HEX, HEX_NAMES, RED_HEX, UNSEEN_CHANCES
from solver.games.escape.tasks import HOOKS, applies, auto, chance, push
from solver.games.escape.visit import (
    EXIT_STACK,
    GROUP_NAMES,
    LOCKER,
    site_of_business,
    site_of_safe_house,
    stack_name,
    stack_of,
)

if TYPE_CHECKING:
    from solver.games.escape.state import EscapeState, Task

#: The locker stacks (green 0, black 1, brown 2) each store's Inspector card depicts (module docstring).
STORE_LOCKERS: dict[str, tuple[int, ...]] = {"A": (0,), "B": (1,), "C": (2,), "D": (0, 1, 2)}
#: Notoriety Sandra gains (+1) or loses (-1) at each store ("Sandra's Cards", Stores 1).
STORE_NOTORIETY: dict[str, int] = {"A": 1, "B": -1, "C": 1, "D": -1}
#: Contact cards she discards from the display's right end ("Sandra's Cards").
CONTACTS_DISCARDED = 2


def card_location(st: EscapeState, card: int) -> int:
    """The Location Inspector card ``card`` depicts if it is in the city now, else -1 ("Step 1: Travel":
    "a Location which is currently in the city"; "Ignore Exit cards for open exits")."""
    kind, label = st.game.content.inspector[card]
    if kind == BUSINESS:
        return next((loc for loc, b in st.business_at.items() if str(b) == label), -1)
    if kind == SAFE_HOUSE:
        return next((loc for loc, h in st.safe_house_at.items() if str(h) == label), -1)
    city = st.game.city
    placed = {t for t, _ in st.placed.values()}
    for loc in city.locations:
        if loc.kind == kind and loc.label == label and loc.tile in placed:
            if kind == EXIT and exit_open(st, int(label)):
                return -1
            return loc.id
    return -1


def card_name(st: EscapeState, card: int) -> str:
    """``business 3``, ``safe house 1``, ``store A``, ``exit 2``."""
    kind, label = st.game.content.inspector[card]
    return f"{kind.replace('_', ' ')} {label}"


def candidates(st: EscapeState) -> list[int]:
    """The Inspector cards left whose Location is in the city: the cards her reveal can stop on."""
    return [c for c in st.inspector_left if card_location(st, c) >= 0]


def sandra_turn(st: EscapeState, pawn: int) -> None:
    """The ``sandra_turn`` hook: reveal a card ("Sandra's Turn"); she never rests."""
    st.ctx = {}
    if not candidates(st):
        st.note("sandra", "Sandra reveals every Inspector card left, none is in the city: she stays")
        return
    push(st, ("s_reveal", pawn))


HOOKS["sandra_turn"] = sandra_turn


@chance("s_reveal", "an Inspector card is revealed")
def _reveal_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    """Step 1: Travel: each card she can stop on, equally likely (module docstring)."""
    cards = candidates(st)
    return [(codec.INSPECTOR + c, 1 / len(cards)) for c in cards]


@applies("s_reveal")
def _reveal_apply(st: EscapeState, task: Task, action: Action) -> None:
    """Move her to the card's Location (unlimited MP, no Avoid: "Step 2"), remove the card from the game,
    and queue her Visit: the others present, then the card's instructions ("Step 3: Visit")."""
    pawn = task[1]
    card = action - codec.INSPECTOR
    dest = card_location(st, card)
    st.inspector_left.remove(card)
    names = st.game.location_names
    start = st.location[pawn]
    st.location[pawn] = dest
    st.events.append(InspectorCard(card_name(st, card), names[dest]))
    st.events.append(Travelled(pawn, names[start], names[dest], (), 0))
    kind, label = st.game.content.inspector[card]
    steps: list[Task] = [("v_crowd", pawn, dest)]  # "according to the normal rules"
    if kind == BUSINESS:
        steps += [("s_notoriety", pawn, 1), ("s_cube", pawn, dest), ("s_contacts", pawn),
                  ("s_group", pawn, 0 if int(label) <= 3 else 1)]
    elif kind == SAFE_HOUSE:
        house = int(label)
        steps += [("s_notoriety", pawn, -1), ("s_cube", pawn, dest), ("s_key", pawn, house),
                  ("s_fixer", pawn), ("s_group", pawn, 2)]
    elif kind == STORE:
        steps.append(("s_notoriety", pawn, STORE_NOTORIETY[label]))
        steps += [("s_discard", pawn, LOCKER, colour) for colour in STORE_LOCKERS[label]]
        steps.append(("s_contacts", pawn))
    else:  # a closed exit: card_location offers no open one
        stack = st.exit_stack_at.get(int(label))
        steps.append(("s_notoriety", pawn, -1))
        if stack is not None and int(label) not in st.exit_pending:
            steps.append(("s_discard", pawn, EXIT_STACK, stack))
        steps.append(("s_contacts", pawn))
    push(st, *steps)


@auto("s_notoriety")
def _notoriety(st: EscapeState, task: Task) -> None:
    """A card's step 1: a cube above (gain) or below (lose) her marker; it moves when the part of the
    day settles ("Adjusting Sandra's Notoriety")."""
    board = st.boards[task[1]]
    if task[2] > 0:
        pb.gain_notoriety(board)
        st.note("notoriety", "Sandra gains 1 notoriety")
    else:
        pb.lose_notoriety(board)
        st.note("notoriety", "Sandra loses 1 notoriety")


@auto("s_cube")
def _cube(st: EscapeState, task: Task) -> None:
    """Businesses 2: her cube in the white (amount) hex; the display's closing count closes the business
    "as usual". Safe Houses 2: her cube in the red hex. Her visit is marked for the group discs."""
    pawn, location = task[1], task[2]
    board = st.boards[pawn]
    if location in st.business_at:
        number = st.business_at[location]
        site, hex_, name = site_of_business(number), AMOUNT_HEX, f"business {number}"
        board.businesses[number - 1] = True
    else:
        number = st.safe_house_at[location]
        site, hex_, name = site_of_safe_house(number), RED_HEX, f"safe house {number}"
        board.safe_houses[number - 1] = True
    if board.income_cubes <= 0:  # 9 cubes, at most 9 cube-placing cards: never short
        return
    pb.take_income_cube(board)
    st.cubes[site].append([pawn, hex_])
    st.events.append(CubePlaced(pawn, name, HEX_NAMES[hex_]))
    if hex_ == AMOUNT_HEX and len(st.cubes[site]) == st.game.content.closing_visits[st.n]:
        st.events.append(BusinessClosed(number, len(st.cubes[site])))


@auto("s_contacts")
def _contacts(st: EscapeState, task: Task) -> None:
    """Discard the 2 rightmost display cards to the box, a disc for each that gives one; the display
    slides right and refills from the left (module docstring)."""
    pawn = task[1]
    content = st.game.content
    gone = [st.display.pop() for _ in range(min(CONTACTS_DISCARDED, len(st.display)))]
    discs = sum(1 for c in gone if content.contacts[c].extra_action)
    st.boards[pawn].extra_actions += discs
    if gone:
        st.events.append(ContactsDiscarded(tuple(content.contacts[c].name for c in gone), discs))
    push(st, *[("v_refill", 0)] * len(gone))


@auto("s_group")
def _group(st: EscapeState, task: Task) -> None:
    """Businesses 4 / Safe Houses 5: a disc when this turn completes a group (once per group)."""
    pawn, group = task[1], task[2]
    board = st.boards[pawn]
    flags = board.safe_houses if group == 2 else board.businesses[3 * group:3 * group + 3]
    if all(flags) and not board.group_bonus[group]:
        board.group_bonus[group] = True
        board.extra_actions += 1
        st.events.append(SandraDisc(GROUP_NAMES[group]))


@chance("s_key", "Sandra discards a key at random")
def _key_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    """Safe Houses 3: one of the keys on that Safe House, each equally likely (by colour)."""
    keys = st.keys[task[2] - 1]
    return [(codec.S_KEY + c, keys.count(c) / len(keys)) for c in sorted(set(keys))]


@applies("s_key")
def _key_apply(st: EscapeState, task: Task, action: Action) -> None:
    """The key goes back to the box."""
    house, colour = task[2], action - codec.S_KEY
    st.keys[house - 1].remove(colour)
    st.events.append(KeyDiscarded(house, codec.LOCKER_NAMES[colour]))


@chance("s_fixer", "Sandra discards a Fixer tile at random")
def _fixer_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    """Safe Houses 4: one of the Fixer tiles left, each equally likely."""
    left = st.fixers_left
    return [(codec.S_FIXER + f, 1 / len(left)) for f in left]


@applies("s_fixer")
def _fixer_apply(st: EscapeState, task: Task, action: Action) -> None:
    """The tile goes back to the box."""
    fixer = action - codec.S_FIXER
    st.fixers_left.remove(fixer)
    st.events.append(FixerDiscarded(codec.FIXER_NAMES[fixer]))


@chance("s_discard", "Sandra discards a tile at random, unseen")
def _discard_outcomes(st: EscapeState, task: Task) -> list[tuple[Action, float]]:
    """Stores 2 / Closed Exits 2: a tile of the stack's multiset, seen by nobody."""
    stack = stack_of(st, task[2], task[3])
    return [(codec.S_TILE + v, stack.count(v) / len(stack)) for v in sorted(set(stack))]


@applies("s_discard")
def _discard_apply(st: EscapeState, task: Task, action: Action) -> None:
    """The tile goes to the box face down: the event names the stack only."""
    stack_of(st, task[2], task[3]).remove(action - codec.S_TILE)
    st.events.append(TileDiscarded(stack_name(task[2], task[3])))


UNSEEN_CHANCES["s_discard"] = codec.DISCARD_MASKED
