"""Shared pytest marks, and configurations the registry-driven suites treat specially."""

from __future__ import annotations

import pytest

from solver._accel import PURE_REQUESTED

#: A slow test that runs no compiled code (a game with only Python rules): the compiled pass of
#: ``.ci/run`` already runs it, and the pure pass (COPSOLVER_PUREPYTHON=1) would repeat it exactly.
compiled_pass_only = pytest.mark.skipif(
    PURE_REQUESTED, reason="no compiled code involved: run once, in the compiled pass"
)

#: Configurations where a seat's view hides nothing, so no resample can vary: solo Police Precinct,
#: one player running both characters with every card open (deck orders being chance, not state).
NOTHING_HIDDEN: frozenset[tuple[str, int]] = frozenset({("precinct", 1)})
