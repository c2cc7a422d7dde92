"""LineUp's review hooks: the advisor's memory follows the seat's moves, and its belief shapes the
evaluator's worlds; there is no belief gap to measure (:func:`belief_gap` is always None).

What a LineUp seat does not see is the deck, the other seats' face-down cards and its own face-down
cards' features once it has stopped studying them. Only the last is anything a seat *believes*, and
that belief is not in the view: the seat saw the card at its study decision only
(docs/lineup-rules.md, "The study moment"), and remembering it is the player's business, a bot's
memory of :mod:`solver.belief.lineup_memory`. A review therefore keeps one advising bot per seat alive
through the replay (:func:`bots.review.review_game`), shown every view and event that seat saw, with
the perfect memory of its review reading (``memory="perfect"``, :data:`bots.evaluate.READINGS`: the
review reads what the seat saw; a forgetful memory is for playing, not for judging):

* :func:`follow` tells it the move the seat played (its study, the card it lined up, its pick), so
  that its notes stay those of the seat's hand whatever it would have played itself;
* :func:`advisor_belief` turns its notes into the resampler's belief (``{"guilty": weights per
  stand, "held": {i: {card: weight}}}``), so that the evaluator's worlds put the seat's studied cards
  where the seat saw them.

The belief gap stays None: counting the features a seat misremembers would measure the draws of one
bot's generator, not the seat's play.
"""

from __future__ import annotations

from typing import Any

from bots.base import Bot
from bots.lineup.players import _LineUpBot
from bots.review import Gap
from solver.belief.lineup_memory import likelihoods
from solver.core import Action, Game, State, View
from solver.games.lineup import codec


def belief_gap(game: Game, view: View, truth: State) -> Gap | None:
    """Always None: a LineUp view holds no belief about hidden facts (see the module docstring)."""
    return None


def follow(bot: Bot, view: View, action: Action) -> None:
    """Show the review's live advisor ``bot`` the seat's decision ``view`` and the move it played.

    A study or a pick is the bot's own step (its memory notes the card, or lets the lined-up card's
    trace go); a lineup of face-down card *i* hands that card's trace to the lineup, as when the bot
    lines it up itself. Anything else leaves its memory as it is. Bots without LineUp memory step.
    """
    if not isinstance(bot, _LineUpBot):
        bot.step(view)
        return
    data = view.to_json()
    if data["phase"] in ("study", "pick"):
        bot.step(view)
    elif codec.LINEUP <= action < codec.LINEUP + codec.MAX_HELD:
        _, held, _ = bot.situation(data)
        bot.hand_over(held, action - codec.LINEUP)


def advisor_belief(bot: Bot, view: View) -> dict[str, Any] | None:
    """The resampler's belief from ``bot``'s memory at ``view``: per face-down card of the seat, its
    notes' likelihood of each card of its scene; in a lineup of the seat's card, of each stand.
    None for a bot without LineUp memory."""
    if not isinstance(bot, _LineUpBot):
        return None
    data = view.to_json()
    _, held, _ = bot.situation(data)
    suspects = bot.lineup_game.suspects
    names = tuple(bot.values)
    out: dict[str, Any] = {}
    cards: dict[int, dict[str, float]] = {}
    for i, trace in enumerate(bot.memory.traces[:len(held)]):
        if trace is None or held[i][1] < 0:
            continue
        s = bot.level.retention(held[i][1], len(held))
        deck = suspects.scenes[trace.scene]
        vectors = [tuple(suspects.features_of(c)[n] for n in names) for c in deck]
        post = likelihoods(s, trace.recall(s), vectors, bot.values)
        cards[i + 1] = {c.id: float(w) for c, w in zip(deck, post, strict=True)}
    if cards:
        out["held"] = cards
    lineup = data.get("lineup") or {}
    if bot.pending is not None and data["phase"] == "pick" and lineup.get("seat") == view.seat:
        trace, age, load = bot.pending
        if trace is not None:
            s = bot.level.retention(age, load)
            stands = [tuple(str(c["features"][n]) for n in names) for c in lineup["stands"]]
            out["guilty"] = [float(w) for w in likelihoods(s, trace.recall(s), stands, bot.values)]
    return out or None
