"""copsolver: rules cores, search and belief tracking for five police board games."""

from solver._accel import is_compiled

__version__ = "0.1.0"

__all__ = ["__version__", "is_compiled"]
