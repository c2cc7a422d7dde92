"""Domain integers with names, shared by every game.

Signatures read like the rules: a ``Seat`` is a player's index at the table, an ``Action`` is the
int a game's codec turns into human notation, and two sentinel seats mark chance and the end.
"""

from __future__ import annotations

from typing import Final, TypeAlias

Seat: TypeAlias = int
Action: TypeAlias = int

#: ``State.current_player()`` at a chance node (dice, deals, shuffles).
CHANCE: Final[Seat] = -1
#: ``State.current_player()`` once the game is over.
TERMINAL: Final[Seat] = -4
