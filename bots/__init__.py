"""Everything that faces a front end: the bot registry and bots, the hint advisor."""

from bots.base import Advice, Bot, Option, RankedAction
from bots.registry import available, make, register

__all__ = ["Advice", "Bot", "Option", "RankedAction", "available", "make", "register"]
