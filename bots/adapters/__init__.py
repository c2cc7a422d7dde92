"""Seat copsolver games in other ecosystems: an OpenSpiel game registration and a PettingZoo env.

Both are optional extras, so importing this package needs neither; each adapter module imports its
ecosystem on load and fails with an :class:`ImportError` that names the extra to install::

    pip install 'copsolver[openspiel]'     # bots.adapters.openspiel
    pip install 'copsolver[pettingzoo]'    # bots.adapters.pettingzoo

What the adapters must know about a game beyond the core protocol (action-id bounds, game-length
bounds, the observation vector) is each game's ``bots/<name>/adapter.py``, found by name through
:func:`bots.adapters.specs.spec_for`; docs/adapters.md says how to write one.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: extra name -> what ``pip install 'copsolver[<extra>]'`` brings
EXTRAS: dict[str, str] = {
    "openspiel": "OpenSpiel (open_spiel>=1.5)",
    "pettingzoo": "PettingZoo and Gymnasium (pettingzoo>=1.24, gymnasium>=0.29)",
}


def require(module: str, extra: str) -> ModuleType:
    """Import ``module`` from an optional extra, or raise ImportError saying what to install.

    The module comes back typed as a plain module (its attributes are ``Any``): mypy checks this
    package the same way whether or not the extras are installed.
    """
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise ImportError(
            f"{module!r} is not installed: the {extra} adapter needs {EXTRAS[extra]}; "
            f"install it with: pip install 'copsolver[{extra}]'"
        ) from err


__all__ = ["EXTRAS", "require"]
