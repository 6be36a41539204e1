"""The package's build step for the solver's compiled core; everything else is in pyproject.toml.

The core (``pyramid/engine/solver/core/``, C loaded with ctypes: no Python extension) is compiled by
the PEP 517 build itself, so ``pip install .``, ``pip wheel .`` and ``pip install -e .`` each carry it,
and ``./run.sh``, ``./test.sh`` (an editable install) and the release bundle (a wheel, cross-compiled
for the Pi) build it the one same way. Setuptools' own build step rather than meson-python or
scikit-build-core: the core is one ``cc`` command over a dozen files (``build_core.build``), which
needs no build system of its own, and the wheel stays the one setuptools made before, with the
library added (measured: the build of the whole wheel takes some 5 s here, 3 s of it the compile).

``$CC`` names the compiler (default ``cc``), ``$PYRAMID_CORE_MACHINE`` the machine the core is built
for (default this one's: the library is ``_core-<machine>.so``, and the wheel is tagged
``linux_<machine>``). Where there is no compiler, or the compile fails, the package is built without
the core and the build says so in one line: the console then runs the pure-Python solver and logs
it. ``PYRAMID_CORE_REQUIRED=1`` (the release build) makes that an error instead.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from setuptools import Command, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build import build

HERE = Path(__file__).resolve().parent
SOLVER = Path("pyramid", "engine", "solver")


def build_core_module() -> ModuleType:
    """``build_core.py`` by its path: importing the package would need its dependencies here."""
    spec = importlib.util.spec_from_file_location("build_core", HERE / SOLVER / "build_core.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildSolverCore(Command):
    """Compile the core into ``_core-<machine>.so`` beside its sources: in the build tree for a wheel,
    in the source tree for an editable install (whose package files are read from there)."""

    description = "compile the solver's C core (pyramid/engine/solver/core/)"
    user_options: list[tuple[str, str | None, str]] = []

    def initialize_options(self) -> None:
        self.build_lib: str | None = None
        self.editable_mode = False
        self.machine_built: str | None = None
        self.outputs: list[str] = []

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def run(self) -> None:
        machine = os.environ.get("PYRAMID_CORE_MACHINE") or platform.machine()
        compiler = shlex.split(os.environ.get("CC") or "cc")
        required = os.environ.get("PYRAMID_CORE_REQUIRED") == "1"
        assert self.build_lib is not None
        target = (HERE if self.editable_mode else Path(self.build_lib)) / SOLVER
        target.mkdir(parents=True, exist_ok=True)
        if not self.editable_mode:
            # A build tree kept from an earlier build may hold another machine's core: a wheel
            # carries the core this build made, and only it.
            for stale in target.glob("_core-*.so"):
                stale.unlink()
        output = target / f"_core-{machine}.so"
        if not compiler or shutil.which(compiler[0]) is None:
            self.without_core(f"no C compiler ({' '.join(compiler)}): apt-get install gcc, then build again",
                              required)
            return
        try:
            build_core_module().build(output, compiler)
        except subprocess.CalledProcessError as error:
            self.without_core(f"the compile failed ({error})", required)
            return
        self.machine_built = machine
        self.outputs = [] if self.editable_mode else [str(output)]

    @staticmethod
    def without_core(why: str, required: bool) -> None:
        if required:
            raise SystemExit(f"solver core: {why}")
        print(f"solver core: not built, the pure-Python solver will run: {why}", file=sys.stderr)

    def get_outputs(self) -> list[str]:
        return self.outputs

    def get_output_mapping(self) -> dict[str, str]:
        return {}

    def get_source_files(self) -> list[str]:
        return [str(path.relative_to(HERE)) for path in build_core_module().source_files()]


class WheelForTheCore(bdist_wheel):
    """A wheel that carries a core is tagged with the machine it runs on (``py3-none-linux_aarch64``):
    the library is loaded by ctypes, so any Python 3 of that machine takes it; without a core the
    wheel is pure Python (``py3-none-any``)."""

    def get_tag(self) -> tuple[str, str, str]:
        machine = self.get_finalized_command("build_solver_core").machine_built
        if machine is not None:
            self.plat_name_supplied, self.plat_name = True, f"linux_{machine}"
        return super().get_tag()


build.sub_commands = [*build.sub_commands, ("build_solver_core", None)]
setup(cmdclass={"build_solver_core": BuildSolverCore, "bdist_wheel": WheelForTheCore})
