"""Releases signed by the owner: a device with allowed signers refuses any other bundle (issue 13, item 14).

SHA256SUMS only proves that a bundle arrived whole. The owner signs it with an
SSH key (``build-release.sh --sign``); a device whose ``/etc/pyramid/
allowed_signers`` lists that key (``install.sh``, ``PYRAMID_SIGNERS``)
installs nothing else.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from test_update_hostile import write_sums
from test_update_release import load_release_tool
from update_fakes import (REPOSITORY, FakeService, assert_console_healthy, current_version, device_root, make_bundle,
                          run_release_tool)
from update_fakes import root, service  # noqa: F401 (fixtures, used by name)

BUILD = REPOSITORY / "firmware" / "build-release.sh"

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen (openssh-client)")


def new_key(directory: Path, name: str) -> Path:
    key = directory / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)], check=True)
    return key


def trust(root: Path, key: Path) -> None:
    """What install.sh writes for PYRAMID_SIGNERS."""
    signers = root / "etc" / "pyramid" / "allowed_signers"
    signers.parent.mkdir(parents=True, exist_ok=True)
    kind, body, _comment = Path(f"{key}.pub").read_text().split()
    signers.write_text(f'pyramid-release namespaces="pyramid-release" {kind} {body}\n')


def sign(bundle: Path, key: Path, namespace: str = "pyramid-release") -> None:
    (bundle / "SHA256SUMS.sig").unlink(missing_ok=True)
    subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-f", str(key), "-n", namespace, str(bundle / "SHA256SUMS")],
                   check=True)


def refusal(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    (line,) = [line for line in result.stdout.splitlines() if "error:" in line]
    return line


def test_a_bundle_signed_by_the_owner_is_installed(tmp_path: Path, root: Path, service: FakeService) -> None:
    owner = new_key(tmp_path, "owner")
    trust(root, owner)
    bundle = make_bundle(tmp_path / "bundles", "2.0")
    sign(bundle, owner)
    result = run_release_tool(root, service, "install", str(bundle))
    assert result.returncode == 0, result.stdout
    assert "signature of pyramid-2.0 checked: Good" in result.stdout
    assert assert_console_healthy(root, service) == "2.0"


@pytest.mark.parametrize("case", ["unsigned", "stranger", "other-namespace", "changed-after-signing"])
def test_any_other_bundle_is_refused(tmp_path: Path, root: Path, service: FakeService, case: str) -> None:
    owner, stranger = new_key(tmp_path, "owner"), new_key(tmp_path, "stranger")
    trust(root, owner)
    bundle = make_bundle(tmp_path / "bundles", "2.0")
    if case == "stranger":
        sign(bundle, stranger)
    elif case == "other-namespace":
        sign(bundle, owner, namespace="file")
    elif case == "changed-after-signing":
        sign(bundle, owner)
        (bundle / "VERSION").write_text("2.0\n\n")  # and new sums to match, as an attacker would
        write_sums(bundle, ["VERSION", "wheels/pyramid_console-2.0-py3-none-any.whl"])
    line = refusal(run_release_tool(root, service, "install", str(bundle)))
    assert "not signed" in line
    assert current_version(root) is None and service.calls() == []


def test_without_allowed_signers_a_signature_is_not_needed(tmp_path: Path, root: Path, service: FakeService) -> None:
    bundle = make_bundle(tmp_path / "bundles", "2.0")
    assert run_release_tool(root, service, "install", str(bundle)).returncode == 0
    assert assert_console_healthy(root, service) == "2.0"


FAKE_PYTHON = '''#!/bin/sh
# A python for build-release.sh without PyPI: pip wheel writes a fake wheel, pip download nothing.
if [ "$1" = -m ] && [ "$2" = pip ]; then
    if [ "$3" = wheel ]; then
        exec {python} -c 'import sys; sys.path.insert(0, sys.argv[1]); from update_fakes import write_wheel
from pathlib import Path
write_wheel(Path(sys.argv[2]) / "pyramid_console-{version}-py3-none-any.whl", "{version}", "def main(): return 0\\n")' \\
            {tests} "$7"
    fi
    exit 0
fi
exec {python} "$@"
'''


@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None,
                    reason="the release's solver core is cross-compiled: apt-get install gcc-aarch64-linux-gnu")
def test_build_release_signs_what_the_device_checks(tmp_path: Path) -> None:
    tool = load_release_tool()
    version = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]["version"]
    fake = tmp_path / "python"
    fake.write_text(FAKE_PYTHON.format(python=sys.executable, version=version, tests=Path(__file__).parent))
    fake.chmod(0o755)
    owner = new_key(tmp_path, "owner")
    result = subprocess.run(["sh", str(BUILD), "--sign", str(owner), str(tmp_path / "dist")], capture_output=True,
                            text=True, timeout=120, check=False, env={**os.environ, "PYTHON": str(fake)})
    assert result.returncode == 0, result.stderr
    bundle = Path(result.stdout.strip().splitlines()[-1])
    assert (bundle / "SHA256SUMS.sig").is_file()
    root = device_root(tmp_path)
    trust(root, owner)
    verified = tool.verify_bundle(bundle, root / "etc" / "pyramid" / "allowed_signers")
    assert verified.version == version
    trust(root, new_key(tmp_path, "stranger"))
    with pytest.raises(tool.ReleaseError, match="not signed by a key in"):
        tool.verify_bundle(bundle, root / "etc" / "pyramid" / "allowed_signers")
