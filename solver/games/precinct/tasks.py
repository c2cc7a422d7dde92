"""The work queue's machinery: task kinds register their options, chance outcomes and effects.

A task is a tuple ``(name, *args)`` at the head of ``PrecinctState.todo``. Each kind of task is a
decision of one seat (registered with :func:`decision` and :func:`applies`), a chance node
(:func:`chance`, :func:`applies`), or bookkeeping that runs at once (:func:`auto`). :func:`apply`
pops the head, applies the action, and :func:`run` carries on to the next decision or chance node.
The rules live in :mod:`.turn`, :mod:`.procedures` and :mod:`.eventcards`; this module only routes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from solver.core import CHANCE, Action, Seat
from solver.core.records import Record

if TYPE_CHECKING:
    from solver.games.precinct.state import PrecinctState, Task

Legal = Callable[["PrecinctState", "Task"], list[Action]]
Outcomes = Callable[["PrecinctState", "Task"], list[tuple[Action, float]]]
Apply = Callable[["PrecinctState", "Task", Action], None]
Auto = Callable[["PrecinctState", "Task"], None]

#: decision task name -> (who decides: "cop" = args[0] is a cop index, "seat" = a seat; options; apply)
DECISIONS: dict[str, tuple[str, Legal, Apply]] = {}
#: chance task name -> (outcomes, apply)
CHANCES: dict[str, tuple[Outcomes, Apply]] = {}
#: bookkeeping task name -> run
AUTOS: dict[str, Auto] = {}
#: task name -> prompt template (``{who}`` is the deciding cop or seat, ``{turn}`` the turn's cop)
PROMPTS: dict[str, str] = {}


def decision(name: str, by: str, prompt: str) -> Callable[[Any], Any]:
    """Register a decision task's options (the decorated function) and its apply (``.apply``)."""
    def wrap(legal: Legal) -> Legal:
        PROMPTS[name] = prompt
        DECISIONS[name] = (by, legal, _missing)
        return legal
    return wrap


def applies(name: str) -> Callable[[Apply], Apply]:
    """Register the apply of decision or chance task ``name``."""
    def wrap(fn: Apply) -> Apply:
        if name in DECISIONS:
            by, legal, _ = DECISIONS[name]
            DECISIONS[name] = (by, legal, fn)
        else:
            CHANCES[name] = (CHANCES[name][0], fn)
        return fn
    return wrap


def chance(name: str, prompt: str) -> Callable[[Outcomes], Outcomes]:
    """Register a chance task's outcomes."""
    def wrap(fn: Outcomes) -> Outcomes:
        PROMPTS[name] = prompt
        CHANCES[name] = (fn, _missing)
        return fn
    return wrap


def auto(name: str) -> Callable[[Auto], Auto]:
    """Register a bookkeeping task."""
    def wrap(fn: Auto) -> Auto:
        AUTOS[name] = fn
        return fn
    return wrap


def _missing(st: PrecinctState, task: Task, action: Action) -> None:
    raise NotImplementedError(f"precinct: task {task[0]!r} has no apply")


# --- the machinery ------------------------------------------------------------------------------
def actor(st: PrecinctState, task: Task) -> Seat:
    """Who acts on ``task``: a seat, or CHANCE."""
    if task[0] in CHANCES:
        return CHANCE
    by = DECISIONS[task[0]][0]
    return st.cops[task[1]].seat if by == "cop" else int(task[1])


def legal(st: PrecinctState) -> list[Action]:
    """The legal actions at the head of the queue, sorted."""
    task = st.todo[0]
    if task[0] in CHANCES:
        return sorted(a for a, _ in outcomes(st))
    return sorted(set(DECISIONS[task[0]][1](st, task)))


def outcomes(st: PrecinctState) -> list[tuple[Action, float]]:
    """The chance outcomes at the head of the queue (probabilities > 0, summing to 1)."""
    task = st.todo[0]
    return [(a, p) for a, p in CHANCES[task[0]][0](st, task) if p > 0]


def apply(st: PrecinctState, action: Action) -> None:
    """Apply ``action`` to the head task, then run bookkeeping up to the next decision or chance node."""
    task = st.todo.pop(0)
    if task[0] in CHANCES:
        CHANCES[task[0]][1](st, task, action)
    else:
        DECISIONS[task[0]][2](st, task, action)
    run(st)


def run(st: PrecinctState) -> None:
    """Run bookkeeping tasks, and skip decisions with a single forced option nobody needs to see."""
    while st.result == 0 and st.todo:
        task = st.todo[0]
        if task[0] in AUTOS:
            st.todo.pop(0)
            AUTOS[task[0]](st, task)
            continue
        if task[0] in DECISIONS and not DECISIONS[task[0]][1](st, task):
            st.todo.pop(0)  # nothing to decide (no card to play, no donut to spend)
            continue
        if task[0] in CHANCES and not outcomes(st):
            st.todo.pop(0)  # nothing left to draw (a second draw from an emptied deck)
            continue
        return


def push(st: PrecinctState, *tasks: Task) -> None:
    """Put ``tasks`` at the front of the queue, in the order given."""
    st.todo[0:0] = list(tasks)


def prompt(st: PrecinctState, task: Task) -> str:
    """The pending task in words."""
    template = str(PROMPTS.get(task[0], task[0]))
    who = ""
    if task[0] in DECISIONS:
        by = DECISIONS[task[0]][0]
        who = cop_name(st, task[1]) if by == "cop" else f"seat {task[1]}"
    turn = cop_name(st, st.cop_index) if st.order else "set-up"
    return template.format(who=who, turn=turn)


#: id(game) -> (the game, action -> its notation): every applied action is recorded with its text, and
#: the codec rebuilds its name tables at every call; the game is held so that its id stays its own
_TEXTS: dict[int, tuple[Any, dict[Action, str]]] = {}


def action_text(game: Any, action: Action) -> str:
    """``game.action_to_str(action)``, remembered per game (a game's notation never changes)."""
    if type(action) is not int:  # the codec's own error for a bool or a numpy integer
        return str(game.action_to_str(action))
    got = _TEXTS.get(id(game))
    if got is None or got[0] is not game:
        if len(_TEXTS) >= 64:  # tests build many games; a program plays a few
            _TEXTS.clear()
        got = _TEXTS[id(game)] = (game, {})
    texts = got[1]
    text = texts.get(action)
    if text is None:
        text = texts[action] = game.action_to_str(action)
    return text


def record(st: PrecinctState, action: Action) -> Record:
    """Who saw ``action``'s text: hidden draws and looks are seen by their owner only."""
    text = action_text(st.game, action)
    task = st.todo[0]
    name = task[0]
    if name in CHANCES:
        if name == "deal_police":
            seat = st.cops[task[1]].seat
            return (CHANCE, text, frozenset({seat}), "police ?")
        if name == "deal_loyalty":
            return (CHANCE, text, frozenset({task[1]}), "loyalty ?")
        if name == "inv_draw":
            return (CHANCE, text, frozenset({st.cops[task[1]].seat}), "found ?")
        if name == "look":
            return (CHANCE, text, frozenset({st.cops[task[1]].seat}), "looked ?")
        if name == "peek_event":
            return (CHANCE, text, frozenset({st.cops[task[1]].seat}), "event ?")
        return (CHANCE, text, None, text)
    who = actor(st, task)
    if name == "order":  # how the looker put back the cards he saw
        return (who, text, frozenset({who}), "order ?")
    if name == "claim":  # the table sees only what is placed (the Investigated event)
        return (who, text, frozenset({who}), "claim ?")
    return (who, text, None, text)


def cop_name(st: PrecinctState, cop: int) -> str:
    """A cop as players call it: ``Costello (seat 2)``."""
    c = st.cops[cop]
    return f"{st.game.content.characters[c.char].name} (seat {c.seat})"
