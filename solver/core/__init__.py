"""Game-agnostic protocol: states, views, decisions, events, errors, seeds."""

from solver.core.errors import (
    BadStateError,
    ConfigError,
    CopsolverError,
    IllegalActionError,
    InvalidActionError,
)
from solver.core.events import Event, visible_events
from solver.core.game import JSON, Decision, DecisionKind, Game, JSONView, State, View, stable_hash
from solver.core.seeds import make_rng, restore_rng, rng_to_json, spawn
from solver.core.types import CHANCE, TERMINAL, Action, Seat

__all__ = [
    "CHANCE",
    "JSON",
    "TERMINAL",
    "Action",
    "BadStateError",
    "ConfigError",
    "CopsolverError",
    "Decision",
    "DecisionKind",
    "Event",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "JSONView",
    "Seat",
    "State",
    "View",
    "make_rng",
    "restore_rng",
    "rng_to_json",
    "spawn",
    "stable_hash",
    "visible_events",
]
