"""Collect ``bench_*.py`` here, so ``python -m pytest bench/ --benchmark-only`` finds the benchmarks.

The plain test run never sees them: ``testpaths`` is ``tests`` and this conftest only loads when
``bench/`` is named on the command line. A file named explicitly is collected by pytest itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    if (
        file_path.suffix == ".py"
        and file_path.name.startswith("bench_")
        and not parent.session.isinitpath(file_path)
    ):
        module: pytest.Module = pytest.Module.from_parent(parent, path=file_path)
        return module
    return None
