"""An update killed at any step of the install leaves a device that boots a good release, and the next
run clears what it left (issue 46, item 5).

The device tool on a test device root with 1.0 installed and running installs 2.0, and is killed with
SIGKILL at each step it goes through: the private copy of the bundle, the venv, pip, the self-test, the
marker, the switch of ``current``, the settle wait and the pruning. Killed with its whole process group
(what a power cut does to processes; the whole-box cut, disks and all, is tests/test_vm_power_cut.py,
opt-in), and killed alone (its children must die with it, and none may write beside the next run:
before, pip went on writing without the lock and the next install failed 3 times in 14 with
"Directory not empty"). After each: ``current`` names a complete release; what the next boot does
(systemd starts the console; if it fails, the rollback unit runs) gives a running console; the update
run again succeeds at once and nothing of the interrupted one is left.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from update_fakes import (
    FakeService,
    assert_console_healthy,
    current_version,
    device_root,
    make_bundle,
    release_tool,
    run_release_tool,
    wait_until,
)

#: A bundle this large takes a moment to copy and check, so the kill can land in that step.
PADDING = 8 << 20


class Install:
    """The device tool installing a bundle, its output read as it comes, its process group watched."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        start_new_session=True)
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def said(self, words: str) -> bool:
        return any(words in line for line in self.lines)

    def children(self) -> list[str]:
        """The command lines of the processes in the tool's group but the tool itself."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == self.process.pid:
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except (OSError, IndexError):
                continue  # gone meanwhile
            if int(fields[2]) == self.process.pid and fields[0] != "Z":
                found.append(command)
        return found

    def running(self, words: str) -> bool:
        return any(words in command for command in self.children())


class Device(NamedTuple):
    root: Path
    service: FakeService
    #: Where the fake service notes which release sent READY=1 last.
    state: Path


def ready_version(device: Device) -> str | None:
    """The release that sent READY=1 last (None also while the fake systemctl is writing its state)."""
    try:
        version: str | None = json.loads((device.state / "service.json").read_text())["version"]
    except (OSError, ValueError):
        return None
    return version


#: Each step of an install, by what shows the tool is in it.
STEPS: dict[str, Callable[[Install, Device], bool]] = {
    "copy": lambda install, device: (device.root / "opt" / "pyramid" / "verified").exists(),
    "venv": lambda install, device: install.running(" -m venv "),
    "pip": lambda install, device: install.running(" -m pip "),
    "self-test": lambda install, device: install.running("--self-test"),
    "marker": lambda install, device: install.said("self-test of 2.0 passed"),
    "switch": lambda install, device: install.said("current -> 2.0"),
    "settle": lambda install, device: ready_version(device) == "2.0",
    "prune": lambda install, device: install.said("2.0 is running"),
}


class Template(NamedTuple):
    """A device root with 1.0 installed, kept aside, and the bundles of 2.0."""

    device: Device
    pristine: Path
    good: Path
    dies_after_ready: Path


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Template]:
    base = tmp_path_factory.mktemp("interrupted")
    root, state = device_root(base), base / "systemd"
    service = FakeService(state, root)
    try:
        first = run_release_tool(root, service, "install", str(make_bundle(base / "bundles", "1.0")))
        assert first.returncode == 0, first.stdout + first.stderr
    finally:
        service.stop()
    assert wait_until(lambda: service.ready_unit_ends() != [])
    shutil.copytree(root, base / "pristine", symlinks=True)
    yield Template(Device(root, service, state), base / "pristine",
                   make_bundle(base / "good", "2.0", "self-test-slow", padding=PADDING),
                   make_bundle(base / "dies", "2.0", "dies-after-ready"))


@pytest.fixture
def device(template: Template) -> Iterator[Device]:
    """The template's device as it was after 1.0 was installed (a venv cannot move: restored in place), its
    console running 1.0."""
    device = template.device
    shutil.rmtree(device.root)
    shutil.copytree(template.pristine, device.root, symlinks=True)
    for log in ("service.json", "calls.log", "ready-unit.log"):
        (device.state / log).unlink(missing_ok=True)
    start(device)
    assert device.service.running_version() == "1.0"
    try:
        yield device
    finally:
        device.service.stop()


def start(device: Device) -> int:
    """``systemctl restart pyramid.service`` as the fake systemd does it: its exit status."""
    return subprocess.run([*device.service.command.split(), "restart", "pyramid.service"], check=False,
                          timeout=60).returncode


def kill_at(device: Device, bundle: Path, step: str, whole_group: bool) -> Install:
    """Install ``bundle`` and SIGKILL the tool (with its group, or alone) as soon as it is in ``step``."""
    install = Install(release_tool(device.root, device.service, "install", str(bundle)))
    in_step = STEPS[step]
    assert wait_until(lambda: in_step(install, device) or install.process.poll() is not None, interval=0.002)
    assert install.process.poll() is None, f"the install ended before it was seen in {step}: {install.lines}"
    if whole_group:
        os.killpg(install.process.pid, signal.SIGKILL)
    else:
        os.kill(install.process.pid, signal.SIGKILL)
    install.process.wait(timeout=30)
    return install


def next_boot(device: Device) -> None:
    """What the next boot does: every process gone, systemd starts the console on ``current``; a start
    that fails, or a console that dies, makes systemd run the rollback unit (``OnFailure=``)."""
    device.service.stop()
    if start(device) == 0:  # READY=1 came; a console dying just after it is seen within a second
        wait_until(lambda: device.service.running_version() is None, timeout=1.0)
    if device.service.running_version() is None:
        rolled = run_release_tool(device.root, device.service, "rollback", "--only-if-failed")
        assert rolled.returncode == 0, rolled.stdout + rolled.stderr


def assert_nothing_left(root: Path) -> None:
    home = root / "opt" / "pyramid"
    releases = sorted(path.name for path in (home / "releases").iterdir())
    assert all((home / "releases" / name / ".installed").is_file() for name in releases), releases
    assert not (home / "verified").exists() and not (home / ".current.new").is_symlink()


def assert_current_complete(root: Path) -> str:
    version = current_version(root)
    assert version in ("1.0", "2.0") and (root / "opt" / "pyramid" / "releases" / version / ".installed").is_file()
    return version


@pytest.mark.parametrize("step", list(STEPS))
def test_the_whole_group_killed_at_any_step_leaves_a_good_release_and_the_update_goes_through_again(
        template: Template, device: Device, step: str) -> None:
    kill_at(device, template.good, step, whole_group=True)
    assert_current_complete(device.root)
    next_boot(device)
    assert assert_console_healthy(device.root, device.service) in ("1.0", "2.0")
    again = run_release_tool(device.root, device.service, "install", str(template.good))
    assert again.returncode == 0, again.stdout + again.stderr
    assert assert_console_healthy(device.root, device.service) == "2.0"
    assert_nothing_left(device.root)


@pytest.mark.parametrize("step", ["venv", "pip", "self-test"])
def test_the_installer_killed_alone_takes_its_children_with_it(template: Template, device: Device, step: str) -> None:
    """Its children die with it (pip and the self-test at once, long before they would have ended;
    the venv's own pip bootstrap, a grandchild, holds the lock until it ends), and the next install,
    started at once, waits for the lock, clears the unfinished release and goes through."""
    install = kill_at(device, template.good, step, whole_group=False)
    if step != "venv":
        assert wait_until(lambda: install.children() == [], timeout=0.3), install.children()
    if step == "pip":
        time.sleep(1.0)  # pip takes 0.3 s here: had it gone on, it would have installed the console by now
        installed = list((device.root / "opt" / "pyramid" / "releases" / "2.0").rglob("fake_console.py"))
        assert installed == [], "pip went on installing after the installer died"
    again = run_release_tool(device.root, device.service, "install", str(template.good))
    assert again.returncode == 0, again.stdout + again.stderr
    assert assert_console_healthy(device.root, device.service) == "2.0"
    assert_nothing_left(device.root)


def test_a_release_that_dies_after_ready_killed_in_the_settle_wait_is_rolled_back_at_the_next_boot(
        template: Template, device: Device) -> None:
    """The case the issue found: the installer gone in the settle window, the new release dying just
    after READY=1. The next boot's failure runs the rollback unit, which takes 1.0 back: 2.0 was never
    marked ready."""
    kill_at(device, template.dies_after_ready, "settle", whole_group=True)
    assert current_version(device.root) == "2.0"
    next_boot(device)
    assert assert_console_healthy(device.root, device.service) == "1.0"
    assert not (device.root / "opt" / "pyramid" / "releases" / "2.0" / ".ready").exists()
