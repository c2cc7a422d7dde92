"""One error hierarchy under ``ValueError`` (python-chess style).

``InvalidActionError`` is for what cannot be parsed, ``IllegalActionError`` for what parses but is
not legal now, ``BadStateError`` for inconsistent input (a state, view or board file), and
``ConfigError`` for impossible game options. Messages name the input and the position.
"""

from __future__ import annotations


class CopsolverError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidActionError(CopsolverError):
    """An action string or int that no game notation can read."""


class IllegalActionError(CopsolverError):
    """A well-formed action that is not legal in the current position."""


class BadStateError(CopsolverError):
    """A state, view, replay or content file whose contents are inconsistent."""


class ConfigError(CopsolverError):
    """Game options that do not describe a playable game."""
