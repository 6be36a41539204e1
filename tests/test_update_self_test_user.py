"""A new release's self-test runs as the console's user, never as root (issue 46, item 3).

The self-test is the first time a release's own code runs; the tool runs as root (an update over
SSH, install.sh). Before, that code ran as root: an unsigned wheel swapped in after the check ran
its code as uid 0. Now, when the tool is root, the self-test runs as ``--self-test-user`` (the
console's user, ``pyramid``, by default) with that user's groups only; no such user, or root named,
is refused before anything is built. Every fake release of the update tests fails its self-test
when run as root (tests/update_fakes.py), so every install in them checks this too.
"""

from __future__ import annotations

import os
import pwd
import subprocess
from pathlib import Path

import pytest

from update_fakes import SELF_TEST_USER, make_bundle, release_tool
from update_fakes import root  # noqa: F401 (a fixture, used by name)

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="only root can run the self-test as another user")


def install_as(root: Path, user: str, bundle: Path) -> subprocess.CompletedProcess[str]:
    command = release_tool(root, None, "install", str(bundle))
    command[command.index("--self-test-user") + 1] = user
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


def test_the_self_test_runs_as_the_consoles_user_with_its_groups_only(tmp_path: Path, root: Path) -> None:
    result = install_as(root, SELF_TEST_USER, make_bundle(tmp_path / "bundles", "1.0", "self-test-says-who"))
    entry = pwd.getpwnam(SELF_TEST_USER)
    groups = sorted(os.getgrouplist(SELF_TEST_USER, entry.pw_gid))
    assert result.returncode == 1
    said = result.stdout.strip().splitlines()[-1]
    assert f"uid {entry.pw_uid} gid {entry.pw_gid} groups {groups} home /" in said, said
    assert "pyramid-self-test-" in said, "a scratch home of its own"


@pytest.mark.parametrize("user, why", [("root", "'root' is root, and a release's self-test never runs as root"),
                                       ("no-such-user", "there is no user 'no-such-user' to run the self-test as")])
def test_root_or_a_missing_user_is_refused_before_anything_is_built(tmp_path: Path, root: Path, user: str,
                                                                     why: str) -> None:
    result = install_as(root, user, make_bundle(tmp_path / "bundles", "1.0"))
    assert result.returncode == 1 and why in result.stdout, result.stdout + result.stderr
    assert not (root / "opt" / "pyramid" / "releases" / "1.0").exists()
    assert not (root / "opt" / "pyramid" / "current").is_symlink()
