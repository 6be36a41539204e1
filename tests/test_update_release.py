"""The device side of updates (firmware/opt/pyramid/bin/pyramid-release) on a temporary device root.

Real venvs built from tiny fake wheels, a fake systemctl that starts the console
and waits for READY=1. The SSH path is in test_update_ssh.py.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import subprocess
import threading
from pathlib import Path
from types import ModuleType

import pytest

from update_fakes import (
    RELEASE_TOOL,
    FakeService,
    assert_console_healthy,
    current_version,
    make_bundle,
    run_release_tool,
    wait_until,
)
from update_fakes import root, service  # noqa: F401 (fixtures, used by name)


def load_release_tool() -> ModuleType:
    """The tool is a script without .py (it is installed as a command); import it by path."""
    loader = importlib.machinery.SourceFileLoader("pyramid_release", str(RELEASE_TOOL))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def install(tmp_path: Path, root: Path, service: FakeService | None, version: str, behaviour: str = "good") -> str:
    bundle = make_bundle(tmp_path / "bundles", version, behaviour)
    result = run_release_tool(root, service, "install", str(bundle))
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def release_dirs(root: Path) -> set[str]:
    return {path.name for path in (root / "opt" / "pyramid" / "releases").iterdir()}


def test_keeps_three_releases_and_rollback_goes_back_one_at_a_time(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    for version in ("1.0", "1.1", "1.2", "1.3"):
        install(tmp_path, root, service, version)
    assert release_dirs(root) == {"1.1", "1.2", "1.3"}
    assert assert_console_healthy(root, service) == "1.3"

    assert run_release_tool(root, service, "rollback").returncode == 0
    assert assert_console_healthy(root, service) == "1.2"
    assert run_release_tool(root, service, "rollback").returncode == 0
    assert assert_console_healthy(root, service) == "1.1"

    oldest = run_release_tool(root, service, "rollback")
    assert oldest.returncode == 1
    assert "no release older than '1.1'" in oldest.stdout
    assert assert_console_healthy(root, service) == "1.1"


def test_rollback_unit_only_acts_when_the_console_has_failed(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    install(tmp_path, root, service, "1.0")
    install(tmp_path, root, service, "2.0")

    untouched = run_release_tool(root, service, "rollback", "--only-if-failed")
    assert untouched.returncode == 0
    assert "nothing to roll back" in untouched.stdout
    assert assert_console_healthy(root, service) == "2.0"
    # When it has failed: the two tests below (a release that ran before, one that never came up).


def test_the_rollback_unit_never_rolls_back_a_release_that_has_run_before(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    """Issue 26: a peer that crashed the console at every start made it roll back a good release.

    Now a release that became ready once (pyramid-ready.service marks it) stays, whatever
    fails it later; only one that never came up since it was installed is rolled back."""
    install(tmp_path, root, service, "1.0")
    install(tmp_path, root, service, "2.0")
    assert wait_until(lambda: (root / "opt" / "pyramid" / "releases" / "2.0" / ".ready").is_file())
    service.stop()  # crashed at every start (a peer's name, a saved table): systemd gave up
    kept = run_release_tool(root, service, "rollback", "--only-if-failed")
    assert kept.returncode == 0
    assert "2.0 has run here before; not rolling it back" in kept.stdout
    assert current_version(root) == "2.0"
    assert run_release_tool(root, service, "rollback").returncode == 0, "the owner can still roll back by hand"
    assert assert_console_healthy(root, service) == "1.0"


def test_a_release_that_never_became_ready_is_rolled_back_by_the_unit(tmp_path: Path, root: Path) -> None:
    """install.sh switches without starting (the console starts at the next boot): a release that
    then never comes up is what the rollback unit is for."""
    service = FakeService(tmp_path / "systemd", root)
    try:
        install(tmp_path, root, service, "1.0")
        install(tmp_path, root, None, "2.0", behaviour="crashes")  # switched, not started
        assert current_version(root) == "2.0"
        assert not (root / "opt" / "pyramid" / "releases" / "2.0" / ".ready").exists()
        service.stop()  # the next boot: 2.0 crashes at every start, systemd gives up
        assert run_release_tool(root, service, "rollback", "--only-if-failed").returncode == 0
        assert assert_console_healthy(root, service) == "1.0"
    finally:
        service.stop()


def test_a_release_that_dies_just_after_ready_is_not_marked_and_the_rollback_unit_takes_it_back(
        tmp_path: Path, root: Path) -> None:
    """Issue 46, item 5: the update interrupted in its settle window (here: switched, not started, as
    after the installer was killed) and the release dying 0.1 s after READY=1 at the next start. It
    was marked at READY=1 and the rollback unit kept the dead console; now pyramid-ready.service
    marks a release only once it stayed up through the settle time, and is stopped with it."""
    service = FakeService(tmp_path / "systemd", root)
    try:
        install(tmp_path, root, service, "1.0")
        assert wait_until(lambda: service.ready_unit_ends() == ["exited"])
        install(tmp_path, root, None, "2.0", behaviour="dies-after-ready")  # switched, not started
        started = subprocess.run([*service.command.split(), "restart", "pyramid.service"], check=False)
        assert started.returncode == 0, "READY=1 came: the start succeeded, then the console died"
        assert wait_until(lambda: service.ready_unit_ends() == ["exited", "stopped"])
        assert not (root / "opt" / "pyramid" / "releases" / "2.0" / ".ready").exists()
        assert run_release_tool(root, service, "rollback", "--only-if-failed").returncode == 0
        assert assert_console_healthy(root, service) == "1.0"
    finally:
        service.stop()


def test_damaged_bundle_is_refused_and_kept_so_the_copy_can_resume(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    staging = Path(run_release_tool(root, service, "prepare", "3.0").stdout.strip())
    assert staging == root / "opt" / "pyramid" / "incoming" / "3.0"
    bundle = make_bundle(tmp_path / "bundles", "3.0")
    for path in bundle.iterdir():
        os.rename(path, staging / path.name)
    wheel = next((staging / "wheels").iterdir())
    wheel.write_bytes(wheel.read_bytes()[:100])  # the copy stopped here

    result = run_release_tool(root, service, "install", str(staging))
    assert result.returncode == 1
    assert "does not match SHA256SUMS" in result.stdout
    assert staging.is_dir()
    assert current_version(root) is None
    assert service.calls() == []


def test_prepare_clears_other_versions_but_keeps_a_partial_copy(root: Path) -> None:
    first = Path(run_release_tool(root, None, "prepare", "4.0").stdout.strip())
    (first / "half-copied").write_text("x")
    assert Path(run_release_tool(root, None, "prepare", "4.0").stdout.strip()) == first
    assert (first / "half-copied").exists()
    run_release_tool(root, None, "prepare", "4.1")
    assert not first.exists()


@pytest.mark.parametrize("version", ["../etc", "", ".hidden", "1.0/../../x"])
def test_versions_that_are_not_plain_names_are_refused(root: Path, version: str) -> None:
    result = run_release_tool(root, None, "prepare", version)
    assert result.returncode != 0
    assert not (root / "etc").exists()


def test_unfinished_release_is_cleared_and_reinstall_of_current_is_a_no_op(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    debris = root / "opt" / "pyramid" / "releases" / "0.9"
    (debris / "bin").mkdir(parents=True)  # power was cut while 0.9 was being built
    install(tmp_path, root, service, "1.0")
    assert release_dirs(root) == {"1.0"}

    restarts = service.calls().count("restart")
    again = install(tmp_path / "again", root, service, "1.0")
    assert "already the current release" in again
    assert service.calls().count("restart") == restarts
    assert assert_console_healthy(root, service) == "1.0"


def test_switching_current_never_leaves_it_missing(tmp_path: Path) -> None:
    """A reader polling the link while it is switched 2,000 times always finds a release."""
    tool = load_release_tool()
    device = tool.Device(tmp_path)
    for version in ("1.0", "2.0"):
        (device.releases / version).mkdir(parents=True)
        (device.releases / version / tool.COMPLETE_MARKER).write_text("1")
    device.switch_to("1.0")
    seen: set[str] = set()
    missing: list[OSError] = []
    done = threading.Event()

    def read_link() -> None:
        while not done.is_set():
            try:
                seen.add(os.readlink(device.current_link))
            except OSError as error:
                missing.append(error)

    reader = threading.Thread(target=read_link)
    reader.start()
    for turn in range(2000):
        device.switch_to("2.0" if turn % 2 else "1.0")
    done.set()
    reader.join()
    assert missing == []
    assert seen <= {"releases/1.0", "releases/2.0"}
    assert not (tmp_path / "opt" / "pyramid" / ".current.new").exists()


def test_switching_to_an_unfinished_release_is_refused(tmp_path: Path) -> None:
    tool = load_release_tool()
    device = tool.Device(tmp_path)
    (device.releases / "5.0").mkdir(parents=True)
    with pytest.raises(tool.ReleaseError, match="'5.0' is not completely installed"):
        device.switch_to("5.0")
    assert device.current_version() is None
