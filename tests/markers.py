"""Shared pytest marks."""

from __future__ import annotations

import pytest

from solver._accel import PURE_REQUESTED

#: A slow test that runs no compiled code (a game with only Python rules): the compiled pass of
#: ``.ci/run`` already runs it, and the pure pass (COPSOLVER_PUREPYTHON=1) would repeat it exactly.
compiled_pass_only = pytest.mark.skipif(
    PURE_REQUESTED, reason="no compiled code involved: run once, in the compiled pass"
)
