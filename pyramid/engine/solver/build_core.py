"""Build the compiled solver core (``core/``) for this machine, or for another one.

``python pyramid/engine/solver/build_core.py`` puts ``_core-<machine>.so`` beside ``core/``
(run by its path, and importing nothing of the package, it builds the ``core/`` beside it even
where another copy of the project is installed);
``./run.sh`` and ``./test.sh`` run it (through scripts/venv.sh) whenever a file of ``core/`` changed. With
no C compiler it says so in one line and exits 0: the pure-Python solver then runs (see
:func:`pyramid.engine.solver.compiled.load`).

``--cc aarch64-linux-gnu-gcc --machine aarch64`` builds the Pi's core on a desktop (the release
bundle does); ``--sanitize`` builds with AddressSanitizer and UndefinedBehaviorSanitizer for the
tests (tests/test_solver_core.py), which load it with the sanitizer's runtime preloaded.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The core's sources: a header and a file an idea (core/core.h says which).
SOURCES = Path(__file__).with_name("core")
FLAGS = ["-std=gnu99", "-O2", "-flto", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-fvisibility=hidden"]
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


def output_for(machine: str) -> Path:
    return SOURCES.with_name(f"_core-{machine}.so")


def build(output: Path, cc: str = "cc", sanitize: bool = False, sources: Path = SOURCES) -> None:
    """Compile the core into ``output`` (atomically: a half-written library is never loaded)."""
    files = source_files(sources)
    digest = source_digest({path.name: path.read_bytes() for path in files})
    flags = FLAGS + (SANITIZE_FLAGS if sanitize else [])
    with tempfile.TemporaryDirectory(dir=output.parent) as scratch:
        built = Path(scratch) / output.name
        subprocess.run([cc, *flags, f'-DCORE_SOURCE="{digest}"', "-o", str(built),
                        *(str(path) for path in files if path.suffix == ".c")], check=True)
        os.replace(built, output)


def up_to_date(output: Path) -> bool:
    return output.exists() and all(output.stat().st_mtime >= path.stat().st_mtime for path in source_files())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build_core.py", description=__doc__.split("\n")[0])
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"), help="the C compiler (default: $CC or cc)")
    parser.add_argument("--machine", default=platform.machine(), help="the machine built for (names the file)")
    parser.add_argument("--output", type=Path, help="where to put the library (default: beside core/)")
    parser.add_argument("--sanitize", action="store_true", help="build with ASan and UBSan")
    parser.add_argument("--force", action="store_true", help="build even when the library is newer than core/")
    args = parser.parse_args(argv)
    output = args.output or output_for(args.machine)
    if not args.force and not args.sanitize and up_to_date(output):
        return 0
    if shutil.which(args.cc) is None:
        print(f"solver core: no C compiler ({args.cc}); the pure-Python solver will run "
              f"(apt-get install gcc, then ./test.sh builds it)", file=sys.stderr)
        return 0
    try:
        build(output, args.cc, args.sanitize)
    except subprocess.CalledProcessError as error:
        print(f"solver core: the build failed ({error}); the pure-Python solver will run", file=sys.stderr)
        return 0 if not args.sanitize else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
