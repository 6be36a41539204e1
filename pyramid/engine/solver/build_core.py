"""Compile the solver's core (``core/``) into a shared library: the one compile every build makes.

The package's build (``setup.py``'s ``build_solver_core`` step: ``pip install``, ``pip wheel``, the
editable install of ``./run.sh`` and ``./test.sh``, the release bundle cross-compiling the Pi's) puts
``_core-<machine>.so`` beside ``core/``; ``tests/test_solver_core.py`` builds one with
AddressSanitizer and UndefinedBehaviorSanitizer (``sanitize=True``) and loads it with the
sanitizer's runtime preloaded. Every library carries the digest of the sources it was built from
(:func:`source_digest`), which :func:`pyramid.engine.solver.compiled.load` checks: a core built from
other sources is never run. It imports nothing but the standard library: ``setup.py`` loads it by its
path, before the package's dependencies are there.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

#: The core's sources: a header and a file an idea (core/core.h says which).
SOURCES = Path(__file__).with_name("core")
#: -O3 rather than -O2: King Tut's verdicts with unlimited redeals 15% faster (its slowest reference deal
#: 99-103 ms -> 84-88 ms), the others the same (issue 51, same session); one link-time partition, as
#: -O3 made two and gcc then warned of compiling them one after the other.
FLAGS = ["-std=gnu99", "-O3", "-flto", "-flto-partition=one", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
         "-fvisibility=hidden"]
#: No -march or -mpopcnt: the release build is made on one machine and run on others, and the
#: appliance test's emulated x86-64 processor has no POPCNT (a core built with it died there of
#: SIGILL, taking the console with it).
SANITIZE_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g"]


def source_files(sources: Path = SOURCES) -> list[Path]:
    """The core's files (``*.c`` and ``*.h``), in a fixed order."""
    return sorted([*sources.glob("*.c"), *sources.glob("*.h")])


def source_digest(files: dict[str, bytes]) -> str:
    """The digest a build of the core's ``files`` (name → text) carries (``core_source`` in the
    library), first 16 hex digits."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return digest.hexdigest()[:16]


def build(output: Path, compiler: Sequence[str] = ("cc",), sanitize: bool = False, sources: Path = SOURCES) -> None:
    """Compile the core into ``output`` with ``compiler`` (a command and its arguments) atomically: a
    half-written library is never loaded. Raises :class:`subprocess.CalledProcessError` when the
    compile fails."""
    files = source_files(sources)
    digest = source_digest({path.name: path.read_bytes() for path in files})
    flags = FLAGS + (SANITIZE_FLAGS if sanitize else [])
    with tempfile.TemporaryDirectory(dir=output.parent) as scratch:
        built = Path(scratch) / output.name
        subprocess.run([*compiler, *flags, f'-DCORE_SOURCE="{digest}"', "-o", str(built),
                        *(str(path) for path in files if path.suffix == ".c")], check=True)
        os.replace(built, output)
