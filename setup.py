"""Build ext/*.pyx into solver._ext.<stem> with Cython; all other metadata is in pyproject.toml.

The compiled kernels are optional: each has a pure-Python twin. The build therefore falls back to
no extensions, with one warning line, when

- ``COPSOLVER_PUREPYTHON=1`` is set at build time,
- Cython is not installed (a build without isolation), or
- there is no working C compiler, or compiling fails,

except when ``COPSOLVER_REQUIRE_COMPILED=1`` is set: then any of these is an error, so CI cannot
pass on a build that silently fell back.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

HERE = Path(__file__).resolve().parent
DIRECTIVES = {"language_level": 3, "boundscheck": False, "wraparound": False}


def _flag(name: str) -> bool:
    """Read an on/off environment switch the way solver._accel does: set and not "0" means on."""
    return os.environ.get(name, "") not in ("", "0")


PURE = _flag("COPSOLVER_PUREPYTHON")
REQUIRE = _flag("COPSOLVER_REQUIRE_COMPILED")


class OptionalBuildExt(build_ext):
    """Cythonize and compile the kernels, or skip them with a warning (see the module docstring)."""

    def run(self) -> None:
        if PURE and REQUIRE:
            raise SystemExit(
                "copsolver: COPSOLVER_PUREPYTHON=1 and COPSOLVER_REQUIRE_COMPILED=1 contradict each other"
            )
        if PURE:
            self._skip("COPSOLVER_PUREPYTHON=1 is set")
            return
        try:
            from Cython.Build import cythonize
            from Cython.Compiler.Errors import CompileError as CythonError
        except ImportError:
            self._skip_or_fail("Cython is not installed")
            return
        try:
            # Keep setuptools' own Extension objects (finalize_options annotated them); take only
            # the generated C sources from cythonize's copies.
            # Sources live in ext/, their .pxd declarations in solver/_ext/ under the module's own
            # dotted name, so kernels can cimport each other (``from solver._ext.x cimport X``).
            cythonized = cythonize(self.extensions, compiler_directives=DIRECTIVES, include_path=[str(HERE)])
            generated = {e.name: e.sources for e in cythonized}
            for ext in self.extensions:
                ext.sources = generated[ext.name]
            super().run()
        except (CythonError, CCompilerError, ExecError, PlatformError) as exc:
            self._skip_or_fail(f"{type(exc).__name__}: {exc}")

    def _skip_or_fail(self, reason: str) -> None:
        if REQUIRE:
            raise SystemExit(f"copsolver: compiled kernels required (COPSOLVER_REQUIRE_COMPILED=1): {reason}")
        self._skip(reason)

    def _skip(self, reason: str) -> None:
        self.extensions[:] = []
        print(
            f"WARNING: copsolver: building without compiled kernels ({reason}); "
            "the pure-Python twins will run instead",
            file=sys.stderr,
        )


EXTENSIONS = [
    Extension(f"solver._ext.{pyx.stem}", [pyx.relative_to(HERE).as_posix()])
    for pyx in sorted((HERE / "ext").glob("*.pyx"))
]

setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": OptionalBuildExt})
