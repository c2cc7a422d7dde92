"""The build switches: compiled kernels when CI demands them, none when pure Python is asked for.

CI installs with ``COPSOLVER_REQUIRE_COMPILED=1`` and runs the suite twice, once as built and once
with ``COPSOLVER_PUREPYTHON=1``; these tests make each run prove it ran on what it claims.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import solver
from solver import _accel

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")
EXT_SOURCES = Path(__file__).resolve().parent.parent / "ext"


@pytest.mark.skipif(
    not REQUIRE_COMPILED or _accel.PURE_REQUESTED,
    reason="runs only when COPSOLVER_REQUIRE_COMPILED=1 and COPSOLVER_PUREPYTHON is not set",
)
def test_required_build_is_compiled() -> None:
    status = _accel.compiled_status()
    missing = sorted(name for name, ok in status.items() if not ok)
    assert solver.is_compiled(), f"compiled kernels required but not importable: {missing}"


@pytest.mark.skipif(not _accel.PURE_REQUESTED, reason="runs only when COPSOLVER_PUREPYTHON=1")
def test_pure_switch_turns_compiled_kernels_off() -> None:
    assert _accel.load_ext("p07moves") is None
    assert not solver.is_compiled()
    assert not any(_accel.compiled_status().values())


@pytest.mark.skipif(not EXT_SOURCES.is_dir(), reason="no ext/ folder (not a source checkout)")
def test_every_pyx_is_a_listed_module() -> None:
    stems = sorted(p.stem for p in EXT_SOURCES.glob("*.pyx"))
    assert stems == sorted(_accel.EXT_MODULES)
