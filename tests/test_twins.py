"""Every compiled kernel has a pure-Python twin and an equality test, as ``solver._accel.TWINS`` says.

The table is checked against the sources, not against itself: every ``ext/*.pyx`` must be listed,
every twin must import, and every named test must exist in a file that imports both the twin and
the compiled module (by ``import_module("solver._ext.<name>")`` or ``from solver._ext import``).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from solver import _accel

ROOT = Path(__file__).resolve().parent.parent


def _imported(tree: ast.Module) -> set[str]:
    """The dotted names a test file imports, anywhere in it (``from a.b import c`` gives a.b and a.b.c)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
    return names


def _functions(tree: ast.Module) -> set[str]:
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_every_pyx_is_in_the_twin_table() -> None:
    kernels = sorted(p.stem for p in (ROOT / "ext").glob("*.pyx"))
    assert kernels, "no ext/*.pyx found"
    assert kernels == sorted(_accel.TWINS)
    assert tuple(_accel.TWINS) == _accel.EXT_MODULES  # the build's list is the table's


@pytest.mark.parametrize("kernel", sorted(_accel.TWINS))
def test_every_twin_imports(kernel: str) -> None:
    for module in _accel.TWINS[kernel].pure:
        importlib.import_module(module)


@pytest.mark.parametrize("kernel", sorted(_accel.TWINS))
def test_every_kernel_has_an_equality_test_that_imports_both(kernel: str) -> None:
    twin = _accel.TWINS[kernel]
    assert twin.tests
    for node_id in twin.tests:
        path, _, function = node_id.partition("::")
        source = ROOT / path
        assert source.is_file(), f"{kernel}: {path} does not exist"
        tree = ast.parse(source.read_text(encoding="utf-8"))
        assert function in _functions(tree), f"{kernel}: {path} has no test {function!r}"
        imported = _imported(tree)
        assert f"solver._ext.{kernel}" in imported, f"{kernel}: {path} does not import the compiled module"
        for module in twin.pure:
            assert module in imported, f"{kernel}: {path} does not import the twin {module}"


def test_the_checks_catch_a_missing_import() -> None:
    """The import scan is not vacuous: a file without the compiled module is caught."""
    tree = ast.parse("from solver.core.rng import SplitMix64\n\ndef test_x():\n    pass\n")
    assert "solver.core.rng" in _imported(tree) and "solver._ext.simbase" not in _imported(tree)
    assert _functions(tree) == {"test_x"}
