"""The package's own build carries the solver's compiled core (issue 44): a wheel of a copy of the
checkout, installed in a fresh virtual environment, solves with ``--core compiled``.

Built the way pip builds it (``pip wheel``: setup.py's ``build_solver_core`` step), offline: with the
test environment's setuptools (``--no-build-isolation``) and no index. Also: where there is no C
compiler the wheel is pure Python and its console says why the compiled core is not there; the
release's ``PYRAMID_CORE_REQUIRED=1`` makes that an error; a cross-compiled wheel carries the Pi's
core and only it. The editable install of ``./run.sh`` and ``./test.sh`` is the rest of the suite's:
its compiled-core tests fail where that install did not build the core.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from reference import RULES_PRESET, reference_deals, write_decks

ROOT = Path(__file__).resolve().parents[1]
MACHINE = platform.machine()
CORE = f"pyramid/engine/solver/_core-{MACHINE}.so"
#: e_machine of an ELF file built for 64-bit ARM.
ELF_AARCH64 = 183
#: What a stranger's clone does not have: what the checkout's own use of it made.
NOT_IN_A_CLONE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "_core-*.so",
                                        ".pytest_cache", ".hypothesis", ".mypy_cache")

pytestmark = pytest.mark.skipif(shutil.which("cc") is None,
                                reason="no C compiler here: apt-get install gcc (scripts/venv.sh does)")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout as a clone has it: no build, no core, no environment."""
    copy = tmp_path_factory.mktemp("source") / "pyramid-console"
    shutil.copytree(ROOT, copy, ignore=NOT_IN_A_CLONE)
    return copy


def build_wheel(source: Path, out: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    out.mkdir()
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "--wheel-dir", str(out), str(source)],
                          env={**os.environ, **environment}, capture_output=True, text=True, timeout=300)


def only_wheel(folder: Path) -> Path:
    (wheel,) = folder.glob("*.whl")
    return wheel


def installed(wheel: Path, folder: Path) -> Path:
    """A fresh virtual environment with ``wheel`` alone in it (``pyramid solve`` needs nothing else)."""
    venv.create(folder, with_pip=False)
    python = folder / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, timeout=300)
    where = subprocess.run([str(python), "-c", "import pyramid; print(pyramid.__file__)"], cwd=folder,
                           capture_output=True, text=True, check=True).stdout
    assert Path(where).is_relative_to(folder), f"not the installed package: {where}"
    return folder / "bin" / "pyramid"


def test_a_wheel_of_the_checkout_solves_with_its_compiled_core(source: Path, tmp_path: Path) -> None:
    built = build_wheel(source, tmp_path / "wheels")
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = only_wheel(tmp_path / "wheels")
    assert wheel.name.endswith(f"-py3-none-linux_{MACHINE}.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        assert [name for name in archive.namelist() if "/_core-" in name] == [CORE]
    pyramid = installed(wheel, tmp_path / "venv")
    deals = list(reference_deals()[:3])  # won in 45 and 45 steps, then a pyramid that cannot be cleared
    run = subprocess.run([str(pyramid), "solve", "--rules", RULES_PRESET, "--optimal", "--core", "compiled",
                          str(write_decks(tmp_path / "deals.txt", deals))],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    answers = [line.split()[:3] for line in run.stdout.splitlines()]
    assert answers == [[str(deal.number), "win" if deal.winnable else "lose", str(deal.length)] for deal in deals]
    version = subprocess.run([str(pyramid), "--version"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert version.stdout.splitlines()[1] == "solver core: compiled"


def test_without_a_compiler_the_wheel_is_pure_python_and_says_so(source: Path, tmp_path: Path) -> None:
    built = build_wheel(source, tmp_path / "wheels", CC="no-such-cc")
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = only_wheel(tmp_path / "wheels")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        assert not [name for name in archive.namelist() if "/_core-" in name]
    pyramid = installed(wheel, tmp_path / "venv")
    deals = write_decks(tmp_path / "deals.txt", list(reference_deals()[:1]))
    refused = subprocess.run([str(pyramid), "solve", "--core", "compiled", str(deals)], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "is not built" in refused.stderr and "apt-get install gcc" in refused.stderr
    python = subprocess.run([str(pyramid), "solve", "--rules", RULES_PRESET, str(deals)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert python.returncode == 0 and python.stdout.split()[:2] == ["1", "win"], python.stderr
    said = [line for line in python.stderr.splitlines() if "solver core" in line]
    assert len(said) == 1 and "pure Python" in said[0] and "is not built" in said[0], python.stderr
    version = subprocess.run([str(pyramid), "--version"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert version.stdout.splitlines()[1] == "solver core: python"


def test_a_release_build_without_its_compiler_stops(source: Path, tmp_path: Path) -> None:
    built = build_wheel(source, tmp_path / "wheels", CC="no-such-cc", PYRAMID_CORE_REQUIRED="1")
    assert built.returncode != 0 and "solver core: no C compiler (no-such-cc)" in built.stderr
    assert not list((tmp_path / "wheels").glob("*.whl"))


@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None,
                    reason="cross-compiles the Pi's core: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross")
def test_a_wheel_for_the_pi_carries_the_pis_core_and_only_it(source: Path, tmp_path: Path) -> None:
    # Built in the same copy after this machine's wheel: its build tree holds this machine's core.
    built = build_wheel(source, tmp_path / "native")
    assert built.returncode == 0, built.stderr[-3000:]
    built = build_wheel(source, tmp_path / "wheels", CC="aarch64-linux-gnu-gcc", PYRAMID_CORE_MACHINE="aarch64")
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = only_wheel(tmp_path / "wheels")
    assert wheel.name.endswith("-py3-none-linux_aarch64.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        assert [name for name in archive.namelist() if "/_core-" in name] == ["pyramid/engine/solver/_core-aarch64.so"]
        core = archive.read("pyramid/engine/solver/_core-aarch64.so")
    assert core[:4] == b"\x7fELF" and int.from_bytes(core[18:20], "little") == ELF_AARCH64
