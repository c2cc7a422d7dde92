"""The work queue's machinery: task kinds register their options, chance outcomes and effects.

A task is a tuple ``(name, *args)`` at the head of ``EscapeState.todo``. Each kind of task is a
decision (registered with :func:`decision` and :func:`applies`; its deciding seat is always
``args[0]``), a chance node (:func:`chance`, :func:`applies`), or bookkeeping that runs at once
(:func:`auto`). :func:`apply` pops the head, applies the action, and :func:`run` carries on to the next
decision or chance node. A decision with no option is skipped (nothing to decide: no asset left to
unlock, no executive action to offer). The rules live in :mod:`.setup`, :mod:`.phases` and :mod:`.turn`;
this module only routes (the pattern of Police Precinct's queue).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from solver.core import CHANCE, Action, Seat
from solver.core.records import Record

if TYPE_CHECKING:
    from solver.games.escape.state import EscapeState, Task

Legal = Callable[["EscapeState", "Task"], list[Action]]
Outcomes = Callable[["EscapeState", "Task"], list[tuple[Action, float]]]
Apply = Callable[["EscapeState", "Task", Action], None]
Auto = Callable[["EscapeState", "Task"], None]

#: decision task name -> (options, apply); the deciding seat is ``task[1]``
DECISIONS: dict[str, tuple[Legal, Apply]] = {}
#: chance task name -> (outcomes, apply)
CHANCES: dict[str, tuple[Outcomes, Apply]] = {}
#: bookkeeping task name -> run
AUTOS: dict[str, Auto] = {}
#: task name -> prompt template (``{who}`` the deciding seat)
PROMPTS: dict[str, str] = {}
#: chance task names whose outcome only one seat sees: name -> (the seat's arg index, masked text)
HIDDEN: dict[str, tuple[int, str]] = {}


def decision(name: str, prompt: str) -> Callable[[Legal], Legal]:
    """Register a decision task's options (the decorated function); its apply with :func:`applies`."""
    def wrap(legal: Legal) -> Legal:
        PROMPTS[name] = prompt
        DECISIONS[name] = (legal, _missing)
        return legal
    return wrap


def applies(name: str) -> Callable[[Apply], Apply]:
    """Register the apply of decision or chance task ``name``."""
    def wrap(fn: Apply) -> Apply:
        if name in DECISIONS:
            DECISIONS[name] = (DECISIONS[name][0], fn)
        else:
            CHANCES[name] = (CHANCES[name][0], fn)
        return fn
    return wrap


def chance(name: str, prompt: str, hidden: tuple[int, str] | None = None) -> Callable[[Outcomes], Outcomes]:
    """Register a chance task's outcomes; ``hidden`` = (index of the seeing seat in the task, the text
    the other seats see) for a draw only one seat sees."""
    def wrap(fn: Outcomes) -> Outcomes:
        PROMPTS[name] = prompt
        CHANCES[name] = (fn, _missing)
        if hidden is not None:
            HIDDEN[name] = hidden
        return fn
    return wrap


def auto(name: str) -> Callable[[Auto], Auto]:
    """Register a bookkeeping task."""
    def wrap(fn: Auto) -> Auto:
        AUTOS[name] = fn
        return fn
    return wrap


def _missing(st: EscapeState, task: Task, action: Action) -> None:
    raise NotImplementedError(f"escape: task {task[0]!r} has no apply")


def actor(st: EscapeState, task: Task) -> Seat:
    """Who acts on ``task``: a seat, or CHANCE."""
    if task[0] in CHANCES:
        return CHANCE
    return int(task[1])


def legal(st: EscapeState) -> list[Action]:
    """The legal actions at the head of the queue, sorted."""
    task = st.todo[0]
    if task[0] in CHANCES:
        return sorted(a for a, _ in outcomes(st))
    return sorted(set(DECISIONS[task[0]][0](st, task)))


def outcomes(st: EscapeState) -> list[tuple[Action, float]]:
    """The chance outcomes at the head of the queue (probabilities > 0, summing to 1)."""
    task = st.todo[0]
    return [(a, p) for a, p in CHANCES[task[0]][0](st, task) if p > 0]


def apply(st: EscapeState, action: Action) -> None:
    """Apply ``action`` to the head task, then run bookkeeping up to the next decision or chance node."""
    task = st.todo.pop(0)
    if task[0] in CHANCES:
        CHANCES[task[0]][1](st, task, action)
    else:
        DECISIONS[task[0]][1](st, task, action)
    run(st)


def run(st: EscapeState) -> None:
    """Run bookkeeping tasks; skip decisions with no option and chance nodes with no outcome."""
    while not st.over and st.todo:
        task = st.todo[0]
        if task[0] in AUTOS:
            st.todo.pop(0)
            AUTOS[task[0]](st, task)
            continue
        if task[0] in DECISIONS and not DECISIONS[task[0]][0](st, task):
            st.todo.pop(0)
            continue
        if task[0] in CHANCES and not outcomes(st):
            st.todo.pop(0)
            continue
        return


def push(st: EscapeState, *tasks: Task) -> None:
    """Put ``tasks`` at the front of the queue, in the order given."""
    st.todo[0:0] = list(tasks)


def prompt(st: EscapeState, task: Task) -> str:
    """The pending task in words."""
    template = str(PROMPTS.get(task[0], task[0]))
    who = f"seat {task[1]}" if task[0] in DECISIONS else ""
    return template.format(who=who)


#: id(game) -> (the game, action -> its notation), as Police Precinct keeps it
_TEXTS: dict[int, tuple[Any, dict[Action, str]]] = {}


def action_text(game: Any, action: Action) -> str:
    """``game.action_to_str(action)``, remembered per game (a game's notation never changes)."""
    if type(action) is not int:
        return str(game.action_to_str(action))
    got = _TEXTS.get(id(game))
    if got is None or got[0] is not game:
        if len(_TEXTS) >= 64:
            _TEXTS.clear()
        got = _TEXTS[id(game)] = (game, {})
    texts = got[1]
    text = texts.get(action)
    if text is None:
        text = texts[action] = game.action_to_str(action)
    return text


def record(st: EscapeState, action: Action) -> Record:
    """Who saw ``action``'s text: a hidden draw (an Escape Plan card) is seen by its owner only."""
    text = action_text(st.game, action)
    task = st.todo[0]
    name = task[0]
    if name in CHANCES:
        if name in HIDDEN:
            index, masked = HIDDEN[name]
            return (CHANCE, text, frozenset({int(task[index])}), masked)
        return (CHANCE, text, None, text)
    return (actor(st, task), text, None, text)


# --- hooks for the later modules (documented in turn.py) -----------------------------------------


def _no_options(st: EscapeState, seat: int, window: str) -> list[Action]:
    return []


def _no_apply(st: EscapeState, seat: int, window: str, action: Action) -> None:
    raise NotImplementedError("escape: no executive actions exist yet (executive.py)")


def _no_name(game: Any, k: int) -> str | None:
    return None


def _anywhere(st: EscapeState, seat: int, location: int) -> bool:
    return True


def _no_visit(st: EscapeState, seat: int, location: int) -> None:
    """Nothing happens at a Location until visit.py exists."""


def _sandra_stays(st: EscapeState, pawn: int) -> None:
    """The default: Sandra stays where she is (sandra.py replaces it on import)."""


#: The later modules' hooks (:mod:`.turn`'s docstring); they replace these entries when imported.
HOOKS: dict[str, Callable[..., Any]] = {
    "executive_options": _no_options,
    "apply_executive": _no_apply,
    "executive_name": _no_name,
    "can_end_at": _anywhere,
    "visit": _no_visit,
    "sandra_turn": _sandra_stays,
}
