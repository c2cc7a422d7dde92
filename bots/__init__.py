"""Everything that faces a front end: the bot registry and bots, the hint advisor."""

from bots.base import Advice, Bot, Option, RankedAction, seat_together
from bots.registry import available, make, register

__all__ = ["Advice", "Bot", "Option", "RankedAction", "available", "make", "register", "seat_together"]
