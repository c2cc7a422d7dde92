"""Choose between the compiled kernels in ``solver._ext`` and their pure-Python twins.

One switch, as in msgpack and SQLAlchemy: ``COPSOLVER_PUREPYTHON=1`` forces the twins. Without it the
compiled modules are used when the build made them; if it did not, the engine says so once (a
warning) and runs on the twins. ``copsolver --version`` prints which.
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType

#: True when the user asked for the pure-Python twins.
PURE_REQUESTED: bool = os.environ.get("COPSOLVER_PUREPYTHON", "") not in ("", "0")

#: The compiled modules every build must produce (one per ``ext/*.pyx``).
EXT_MODULES: tuple[str, ...] = ("ismcts", "p07belief", "p07moves", "p07sim", "simbase")

_warned = False


def load_ext(name: str) -> ModuleType | None:
    """Return compiled module ``solver._ext.<name>``, or None when pure Python is in force."""
    global _warned
    if PURE_REQUESTED:
        return None
    try:
        return importlib.import_module(f"solver._ext.{name}")
    except ImportError:
        if not _warned:
            _warned = True
            warnings.warn(
                "copsolver: compiled kernels not built; running on the pure-Python twins",
                RuntimeWarning,
                stacklevel=2,
            )
        return None


def compiled_status() -> dict[str, bool]:
    """Which compiled modules are in use (False for each when pure Python is in force)."""
    status = {}
    for name in EXT_MODULES:
        if PURE_REQUESTED:
            status[name] = False
            continue
        try:
            importlib.import_module(f"solver._ext.{name}")
            status[name] = True
        except ImportError:
            status[name] = False
    return status


def is_compiled() -> bool:
    """True when every compiled module is built and in use."""
    return all(compiled_status().values())
