"""Power cuts at the system level: the emulator killed at random moments, sealed and unsealed.

Opt-in (``PYRAMID_VM=1``, about 40 minutes for both): a handheld is switched
off by its switch whenever its owner likes. Each trial boots the console from
raw disks that carry everything the trials before did (qemu honours the
guest's flushes, so killing it loses just what a real power cut loses), does
something, and kills qemu at a random moment of it:

- ``play``: keys pressed on the game or the menu;
- ``save``: right after Enter, the key that plays a card or starts a deal, so
  the cut falls in or around the store's write;
- ``update-copy``, ``update-install``, ``update-switch``: firmware/update.sh
  over SSH, cut while rsync copies, while the device installs (venv, wheels,
  self-test), and around the switch of ``current`` and the restart.

Then, on the host, the halted disks: the root file system is clean for
``e2fsck -fn`` (sealed: never even a journal to replay; unsealed: nothing to fix
once its journal is replayed, as the kernel does at mount), the data store passes
``PRAGMA integrity_check``, ``current`` names a complete release; and booting
again, the console comes back on its own with exactly the games the store held,
and Continue puts the game back on the screen. ``PYRAMID_VM_TRIALS`` (20) sets
the trials per mode, ``PYRAMID_VM_SEED`` repeats a run. The table is printed
at the end. amd64 only: the power cut is the same on any architecture.

First, the writes to the root file system's disk during ``PYRAMID_VM_PLAY_MINUTES``
(10) of play, from the guest's block-device counters (/sys/block/vda/stat):
none at all when sealed.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from vm.appliance import PreparedImage, build_bundle, prepare, project_copy
from vm.halted import DiskReport, inspect_disks
from vm.machine import Boot, KernelPanic, Machine
from vm.marks import machine_test
from vm.rootfs import ARCHITECTURES, GUEST_USER, Guest, chosen_guest

GUEST = Guest(ARCHITECTURES["amd64"], chosen_guest().suite)
TRIALS = int(os.environ.get("PYRAMID_VM_TRIALS", "20"))
SEED = int(os.environ.get("PYRAMID_VM_SEED", str(random.SystemRandom().randrange(1 << 30))))
MOMENTS = ("play", "save", "update-copy", "update-install", "update-switch")
PLAY_MINUTES = float(os.environ.get("PYRAMID_VM_PLAY_MINUTES", "10"))
BOOT_TIMEOUT = 400.0

pytestmark = machine_test("power-cut trials in a virtual machine (about 40 minutes)", GUEST.architecture)


@dataclass(frozen=True)
class Outcome:
    """One trial: what was cut, and what the disks and the next boot showed."""

    mode: str
    trial: int
    moment: str
    cut_after: float  # seconds after the moment began
    root_clean: bool
    root_state: str
    integrity: str
    current_release: str
    release_complete: bool
    came_back: bool
    games_kept: bool  # the guest, booted, holds the games and the complete release the disk held
    continued: bool
    emulator_panics: int  # boots before that one whose kernel panicked in the emulator

    def row(self) -> str:
        return (f"{self.mode:8} {self.trial:3} {self.moment:15} {self.cut_after:6.1f}s  "
                f"root {self.root_state:15} store {self.integrity:4} "
                f"current {self.current_release or '-':>14} {'complete' if self.release_complete else 'HALF'}  "
                f"back {'yes' if self.came_back else 'NO'}  state {'kept' if self.games_kept else 'CHANGED'}  "
                f"continue {'yes' if self.continued else 'no'}"
                + (f"  (after {self.emulator_panics} emulator kernel panic)" if self.emulator_panics else ""))


RESULTS: list[Outcome] = []


class Console:
    """One mode's console across its trials: the disks it keeps, the machine running now."""

    def __init__(self, mode: str, workdir: Path, prepared: PreparedImage, project: Path) -> None:
        self.mode = mode
        self.project = project  # its firmware/update.sh is the owner's
        self.sealed = mode == "sealed"
        self.workdir = workdir
        self.prepared = prepared
        disks = tuple(workdir / f"disk{number}.img" for number in range(len(prepared.boot.disks)))
        for image, disk in zip(prepared.boot.disks, disks):
            subprocess.run(["cp", "--sparse=always", str(image), str(disk)], check=True)
        self.boot: Boot = replace(prepared.boot, disks=disks, keep_disks=True)
        self.machine: Machine | None = None

    def power_on(self, trial: int) -> Machine:
        self.machine = Machine(self.boot, self.workdir, self.prepared.key, GUEST_USER, name=f"-{trial}")
        return self.machine

    def power_on_again(self, trial: int) -> Machine:
        """The same disks once more, with logs of their own (after an emulator kernel panic)."""
        self.machine = Machine(self.boot, self.workdir, self.prepared.key, GUEST_USER, name=f"-{trial}-again")
        return self.machine

    def games(self) -> list[str]:
        assert self.machine is not None
        query = ("import sqlite3; db = sqlite3.connect('file:/var/lib/pyramid/pyramid.db?mode=ro', uri=True); "
                 "print(*db.execute('SELECT game, deal, started FROM progress ORDER BY game'), sep=chr(10))")
        return self.machine.ssh(f'sudo python3 -c "{query}"').stdout.splitlines()


def cut_during_update(console: Console, moment: str, bundle: Path, rng: random.Random) -> float:
    """Run update.sh and cut the power at a random point of the phase ``moment`` names."""
    machine = console.machine
    assert machine is not None
    marker, longest = {"update-copy": ("Copying pyramid", 4.0), "update-install": ("installing ", 25.0),
                       "update-switch": ("self-test of", 3.0)}[moment]
    environment = {**os.environ, "PYRAMID_SSH": " ".join(machine.ssh_command), "PYTHON": sys.executable}
    update = subprocess.Popen([str(console.project / "firmware" / "update.sh"), "--bundle", str(bundle),
                               machine.ssh_target], env=environment, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    reached = threading.Event()
    log: list[str] = []

    def watch() -> None:
        assert update.stdout is not None
        for line in update.stdout:
            log.append(line)
            if marker in line:
                reached.set()
        reached.set()  # the update ended without reaching it: cut now, and say so below

    threading.Thread(target=watch, daemon=True).start()
    reached.wait(timeout=600)
    delay = rng.uniform(0.0, longest)
    time.sleep(delay)
    machine.cut_power()
    try:
        update.wait(timeout=60)
    except subprocess.TimeoutExpired:  # its ssh may wait on a connection that died with the machine
        update.kill()
        update.wait()
    (console.workdir / f"update-{bundle.name}.log").write_text("".join(log))
    return delay


def cut_during_play(console: Console, moment: str, rng: random.Random) -> float:
    machine = console.machine
    assert machine is not None
    keys = ["down", "up", "left", "right", "ret"]
    for _ in range(rng.randrange(2, 8)):
        machine.press(rng.choice(keys))
        time.sleep(rng.uniform(0.1, 0.8))
    if moment == "save":
        machine.press("ret")
        delay = rng.uniform(0.0, 0.3)
    else:
        delay = rng.uniform(0.0, 2.0)
    time.sleep(delay)
    machine.cut_power()
    return delay


def came_back(console: Console, trial: int, report: DiskReport) -> tuple[bool, bool, bool, int]:
    """Boot again: the console active on its own, the games and the complete release the disk held,
    and Continue showing the game; and how many boots the emulator's kernel panicked in first.

    A kernel that panics in the emulator 1.5 s into its boot, before it mounted anything, says
    nothing of what the power cut left on the disks (an int3 oops in the timer softirq under
    multi-threaded TCG, once in about 100 boots here): the machine is powered on once more, and
    the row says so. A second panic, or any other boot that does not come back, fails the trial.
    """
    machine = console.power_on(trial)
    panics = 0
    while True:
        try:
            machine.wait_for_ssh(BOOT_TIMEOUT)
            break
        except KernelPanic as panic:
            if panics:
                print(f"\n{console.mode} trial {trial}: the kernel panicked twice: {panic}")
                return False, False, False, panics
            panics += 1
            print(f"\n{console.mode} trial {trial}: emulator kernel panic, powered on again: {panic}")
            machine.stop()
            machine = console.power_on_again(trial)
        except Exception as error:  # noqa: BLE001 - the outcome is recorded and asserted on below
            return not_back(console, machine, trial, error) + (panics,)
    try:
        machine.wait_until("systemctl is-active --quiet pyramid.service", BOOT_TIMEOUT, "console back")
    except Exception as error:  # noqa: BLE001 - the outcome is recorded and asserted on below
        return not_back(console, machine, trial, error) + (panics,)
    games = console.games()
    # What the guest itself sees once its kernel replayed the journals: the same release, complete.
    release = machine.ssh("readlink /opt/pyramid/current").stdout.strip()
    if release != report.current_release or machine.ssh(f"test -e /opt/pyramid/{release}/.installed",
                                                         check=False).returncode != 0:
        return True, False, False, panics
    continued = False
    if games:
        time.sleep(3)
        machine.press("ret")  # the first line of the main menu: Continue
        continued = machine.settled_screen(f"continue-{trial}", lambda screen: screen.light_share() > 0.1,
                                           timeout=20).light_share() > 0.1
    return True, games == report.progress, continued, panics


def not_back(console: Console, machine: Machine, trial: int, error: Exception) -> tuple[bool, bool, bool]:
    """What a maintainer needs to tell a slow host from a guest that hangs: how long it was
    given, what it said, and its screen (no-boot-N.ppm in the work directory)."""
    print(f"\n{console.mode} trial {trial}: not back after {time.monotonic() - machine.started:.0f} s: {error}")
    try:
        machine.screendump(f"no-boot-{trial}")
    except Exception as screen_error:  # noqa: BLE001 - a hung qemu may not answer either
        print(f"(no screendump: {screen_error})")
    return False, False, False


def release_for(console: Console, trial: int) -> Path:
    """A real bundle of the project under a version the device has not seen (the device checks
    that the wheel inside carries the version the bundle is named for)."""
    out = console.workdir / f"release-{trial}"
    return build_bundle(project_copy(out / "project", version=f"0.2.{trial}"), out, GUEST)


@pytest.fixture(scope="module", params=["unsealed", "sealed"])
def console(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    mode = request.param
    workdir = tmp_path_factory.mktemp(f"power-cut-{mode}")
    (workdir / "prepare").mkdir()
    prepared = prepare(workdir / "prepare", GUEST, sealed=mode == "sealed")
    result = Console(mode, workdir, prepared, project_copy(workdir / "project"))
    yield result
    if result.machine is not None:
        result.machine.stop()


def sectors_written(machine: Machine, disk: str) -> int:
    """Sectors the guest has written to ``disk`` since it booted (the 7th field of its stat file)."""
    return int(machine.ssh(f"cat /sys/block/{disk}/stat").stdout.split()[6])


def running(console: Console) -> Machine:
    """The console's machine, booted (the first time) and in a game."""
    if console.machine is not None and console.machine.process.poll() is None:
        return console.machine
    machine = console.power_on(0)
    machine.wait_for_ssh(BOOT_TIMEOUT)
    machine.wait_until("systemctl is-active --quiet pyramid.service", BOOT_TIMEOUT, "console active")
    for key in ("ret", "ret"):  # New game (the first line before any game), the redeal question's first answer
        machine.press(key)
        time.sleep(2)
    return machine


def test_writes_to_the_root_disk_during_play(console: Console) -> None:
    machine = running(console)
    rng = random.Random(f"{SEED}-play")
    root_before = sectors_written(machine, "vda")
    ended = time.monotonic() + PLAY_MINUTES * 60
    while time.monotonic() < ended:
        machine.press(rng.choice(["left", "right", "up", "down", "ret"]))
        time.sleep(rng.uniform(0.5, 3.0))
    root = sectors_written(machine, "vda") - root_before
    data = sectors_written(machine, "vdb") if console.sealed else None
    print(f"\n{console.mode}: {root} sectors ({root * 512 // 1024} KiB) written to the root disk in "
          f"{PLAY_MINUTES:g} minutes of play" + (f"; {data} sectors to the data disk since boot" if data is not None
                                                 else ""))
    if console.sealed:
        assert root == 0 and sectors_written(machine, "vda") == 0


def test_power_cuts_leave_a_console_that_comes_back(console: Console) -> None:
    rng = random.Random(f"{SEED}-{console.mode}")
    print(f"\npower-cut trials, {console.mode}: PYRAMID_VM_SEED={SEED}")
    running(console)
    for trial in range(1, TRIALS + 1):
        moment = MOMENTS[(trial - 1) % len(MOMENTS)]
        if moment.startswith("update"):
            bundle = release_for(console, trial)
            delay = cut_during_update(console, moment, bundle, rng)
        else:
            delay = cut_during_play(console, moment, rng)
        report = inspect_disks(console.boot, console.workdir, console.sealed)
        back, kept, continued, panics = came_back(console, trial, report)
        outcome = Outcome(console.mode, trial, moment, delay, report.root_clean, report.root_state, report.integrity,
                          report.current_release.removeprefix("releases/"), report.current_complete,
                          back, kept, continued, panics)
        RESULTS.append(outcome)
        print(outcome.row(), flush=True)
        if not back:
            break
    failures = [outcome for outcome in RESULTS if outcome.mode == console.mode and not (
        outcome.integrity == "ok" and outcome.release_complete and outcome.came_back and outcome.games_kept
        and outcome.root_state != "ERRORS" and (outcome.root_clean or not console.sealed))]
    assert not failures, "\n".join(outcome.row() for outcome in failures)
    assert len([outcome for outcome in RESULTS if outcome.mode == console.mode]) == TRIALS
