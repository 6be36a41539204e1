"""The real release build (firmware/build-release.sh): opt-in, it needs PyPI.

PYRAMID_RELEASE_BUILD=1 builds the bundle for a Pi (aarch64) and checks it the
way the device will, then builds one for this machine and installs it with the
device tool into a temporary device root, which runs the real
``pyramid --self-test``.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from update_fakes import REPOSITORY, current_version, device_root, run_release_tool
from test_update_release import load_release_tool

BUILD = REPOSITORY / "firmware" / "build-release.sh"
#: e_machine of an ELF file built for 64-bit ARM.
ELF_AARCH64 = 183

pytestmark = [pytest.mark.skipif(os.environ.get("PYRAMID_RELEASE_BUILD") != "1",
                                 reason="builds the real release from PyPI: set PYRAMID_RELEASE_BUILD=1"),
              pytest.mark.xdist_group("release-build"), pytest.mark.timeout(3600)]


def build(out: Path, arch: str) -> Path:
    result = subprocess.run(["sh", str(BUILD), "--arch", arch, "--python-version", "3.11", str(out)],
                            env={**os.environ, "PYTHON": sys.executable}, capture_output=True, text=True,
                            timeout=900, check=False)
    assert result.returncode == 0, result.stderr
    return Path(result.stdout.strip().splitlines()[-1])


def project_version() -> str:
    return tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]["version"]


def test_bundle_for_a_pi_holds_the_console_and_its_aarch64_wheels(tmp_path: Path) -> None:
    bundle = build(tmp_path, "aarch64")
    assert load_release_tool().verify_bundle(bundle).version == project_version()
    wheels = [path.name for path in (bundle / "wheels").iterdir()]
    assert any(name.startswith("pygame_ce-") and "aarch64" in name and "cp311" in name for name in wheels), wheels
    console = next((bundle / "wheels").glob("pyramid_console-*.whl"))
    with zipfile.ZipFile(console) as wheel:
        core = wheel.read("pyramid/engine/solver/_core-aarch64.so")
    assert core[:4] == b"\x7fELF" and int.from_bytes(core[18:20], "little") == ELF_AARCH64, "the Pi's solver core"


def test_bundle_for_this_machine_installs_and_passes_its_self_test(tmp_path: Path) -> None:
    bundle = build(tmp_path / "dist", platform.machine())
    root = device_root(tmp_path)
    result = run_release_tool(root, None, "install", str(bundle))
    assert result.returncode == 0, result.stdout + result.stderr
    assert current_version(root) == project_version()
    version = subprocess.run([str(root / "opt/pyramid/current/bin/pyramid"), "--version"], capture_output=True,
                             text=True, check=True).stdout.splitlines()
    assert version[1] == "solver core: compiled", version
