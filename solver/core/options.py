"""Typed options, declared as data: a game's variants and a bot's settings alike.

An :class:`Option` carries its default, type, range or choices and help text, and validates a value
in one place (as python-chess's UCI engine options describe themselves), so the CLI's flags, the
seat server's ``config``/``options`` objects and a bot's constructor all accept and refuse the same
values with the same message.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver.core.errors import ConfigError

_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


@dataclass(frozen=True)
class Option:
    """One option: its default, accepted type, allowed range or choices, and a one-line help text.

    ``file``: the value names a file to read (such an option is never taken from a client of the
    seat server, and a replay's record of it opens no file by itself); ``shipped``: the names of
    shipped content such an option takes instead of a path (Police 07's ``board="budapest"``).
    """

    default: Any
    kind: type
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: Sequence[Any] | None = None
    file: bool = False
    shipped: tuple[str, ...] = ()

    def check(self, owner: str, name: str, value: Any) -> Any:
        """Return ``value`` converted to the option's type; ConfigError naming ``owner`` and the option.

        ``owner`` begins the message, e.g. ``"ismcts bot"`` or ``"police07"``. ``None`` is accepted
        where the default is ``None`` (a file option left to the shipped content).
        """
        if value is None and self.default is None:
            return None
        numeric = self.kind in (int, float)
        ok = isinstance(value, self.kind) or (self.kind is float and isinstance(value, int))
        if not ok or ((numeric or self.kind is str) and isinstance(value, bool)):
            raise ConfigError(f"{owner}: option {name!r} must be a {self.kind.__name__}, not {value!r}")
        if numeric:
            value = self.kind(value)
            if isinstance(value, float) and not math.isfinite(value):
                raise ConfigError(f"{owner}: option {name!r} must be a finite number, not {value!r}")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise ConfigError(
                    f"{owner}: option {name!r} must be in [{self.minimum}, {self.maximum}], not {value!r}"
                )
        if self.choices is not None and value not in self.choices:
            raise ConfigError(
                f"{owner}: option {name!r} must be one of {', '.join(map(str, self.choices))}, not {value!r}"
            )
        return value

    def parse(self, owner: str, name: str, text: str) -> Any:
        """The value a command-line string gives (``NAME=VALUE``), checked as :meth:`check` does."""
        value: Any = text
        if self.kind is bool:
            low = text.strip().lower()
            if low not in _TRUE + _FALSE:
                raise ConfigError(f"{owner}: option {name}={text!r}: expected true or false")
            value = low in _TRUE
        elif self.kind in (int, float):
            try:
                value = self.kind(text)
            except ValueError:
                kind = self.kind.__name__
                raise ConfigError(f"{owner}: option {name}={text!r}: expected a {kind}") from None
        return self.check(owner, name, value)

    def describe(self) -> str:
        """The help text with the default and the accepted values, for ``--help`` and ``copsolver bots``."""
        accepted = ""
        if self.choices is not None:
            accepted = f"; one of {', '.join(map(str, self.choices))}"
        elif self.minimum is not None or self.maximum is not None:
            low = "" if self.minimum is None else f"{self.minimum:g}"
            high = "" if self.maximum is None else f"{self.maximum:g}"
            accepted = f"; {low}..{high}"
        return f"{self.help} (default {self.default!r}{accepted})"
