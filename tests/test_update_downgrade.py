"""No going back without saying so (issue 46, part 4).

Every release ever signed stays valid, so anyone who could log in replayed the signed 1.0 on a
device running 4.0: 1.0 was reinstalled and made current, and 2.0 deleted as "old" (pruning went by
install time). Now a bundle older than the newest release ever installed is refused unless the
owner names it (``--allow-downgrade VERSION``, or ``rollback``), the newest is remembered after its
release is gone, and pruning keeps the newest by version.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from test_update_hostile import UPDATE, fake_ssh_tools
from test_update_release import install, load_release_tool, release_dirs
from update_fakes import assert_console_healthy, current_version, make_bundle, run_release_tool
from update_fakes import root, service  # noqa: F401 (fixtures, used by name)
from update_fakes import FakeService


def replay(tmp_path: Path, root: Path, service: FakeService | None, version: str,
           *options: str) -> subprocess.CompletedProcess[str]:
    bundle = make_bundle(tmp_path / "replayed" / f"{version}{''.join(options)}", version)
    return run_release_tool(root, service, "install", *options, str(bundle))


def test_an_old_signed_bundle_replayed_is_refused_and_nothing_is_pruned(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    for version in ("1.0", "2.0", "3.0", "4.0"):
        install(tmp_path / version, root, service, version)
    assert release_dirs(root) == {"2.0", "3.0", "4.0"}  # 1.0 pruned long ago
    result = replay(tmp_path, root, service, "1.0")
    assert result.returncode == 1
    assert "release 1.0 is older than 4.0, installed here before: refused" in result.stdout
    assert release_dirs(root) == {"2.0", "3.0", "4.0"} and assert_console_healthy(root, service) == "4.0"


def test_the_owner_goes_back_by_naming_the_version_and_pruning_keeps_the_newest_by_version(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    for version in ("2.0", "3.0"):
        install(tmp_path / version, root, service, version)
    result = replay(tmp_path, root, service, "1.0", "--allow-downgrade", "1.0")
    assert result.returncode == 0, result.stdout
    assert "installing 1.0 although 3.0 was installed here" in result.stdout
    assert assert_console_healthy(root, service) == "1.0"
    install(tmp_path / "4.0", root, service, "4.0")
    # By install time 2.0 was the oldest (1.0 came later); by version 1.0 is.
    assert release_dirs(root) == {"2.0", "3.0", "4.0"} and current_version(root) == "4.0"
    assert run_release_tool(root, service, "rollback").returncode == 0
    assert assert_console_healthy(root, service) == "3.0", "rollback goes to the next older version"


def test_the_newest_is_remembered_after_its_release_is_gone(tmp_path: Path, root: Path, service: FakeService) -> None:
    for version in ("1.0", "2.0"):
        install(tmp_path / version, root, service, version)
    assert run_release_tool(root, service, "rollback").returncode == 0
    tool = load_release_tool()
    tool.remove(root / "opt" / "pyramid" / "releases" / "2.0")  # gone: a damaged card, a hand
    assert (root / "opt" / "pyramid" / "newest").read_text() == "2.0\n"
    result = replay(tmp_path, root, service, "1.5")
    assert result.returncode == 1 and "older than 2.0" in result.stdout
    assert replay(tmp_path, root, service, "2.0").returncode == 0, "the same version is no downgrade"


def test_a_version_out_of_order_is_installed_only_by_name(tmp_path: Path, root: Path, service: FakeService) -> None:
    install(tmp_path / "1.0", root, service, "1.0")
    result = replay(tmp_path, root, service, "nightly-7")
    assert result.returncode == 1 and "--allow-downgrade nightly-7" in result.stdout
    assert replay(tmp_path, root, service, "nightly-7", "--allow-downgrade", "nightly-7").returncode == 0


def test_update_sh_passes_the_owners_choice_as_words_of_their_own(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path / "bundles", "1.0")
    env, log = fake_ssh_tools(tmp_path)
    result = subprocess.run(["sh", str(UPDATE), "--allow-downgrade", "1.0", "--bundle", str(bundle), "pi@device"],
                            env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert log.read_text().splitlines() == ["prepare", "1.0", "install", "--allow-downgrade", "1.0",
                                            "/staging dir/1.0"]


@pytest.mark.parametrize("older, newer", [("1.0", "1.1"), ("1.0.dev1", "1.0a1"), ("1.0a1", "1.0b1"), ("1.0rc2", "1.0"),
                                          ("1.0", "1.0.post1"), ("1.9", "1.10"), ("0.1.0", "0.2"), ("2.0", "10.0")])
def test_versions_are_ordered_as_pep_440_orders_them(older: str, newer: str) -> None:
    tool = load_release_tool()
    assert tool.version_order(older) < tool.version_order(newer)
    assert tool.version_order("1.0") == tool.version_order("1.0.0") == tool.version_order("1.0+local.2")
    assert tool.version_order("nightly-7") is None
