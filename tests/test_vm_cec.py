"""The TV's own remote on a real kernel CEC bus (issue 49): vivid's emulated HDMI output and input in the VM.

Opt-in as the other machine tests (``PYRAMID_VM=1``): the appliance is built
and booted as in tests/test_vm_appliance.py; in the guest the kernel's ``vivid``
driver makes one HDMI input and one HDMI output, whose CEC adapters share one
emulated bus (Documentation/admin-guide/media/vivid.rst). The input's adapter
is the TV: v4l-utils' ``cec-ctl`` claims the TV's address on it and, as an
outsider, asks and presses what a TV does. The console follows the output's
adapter as it appears (its watch on /dev), and, restarted once the TV is set
up, is a Playback device there: the kernel answers its OSD name, the console
its power and menu status; it wakes the TV (One Touch Play, seen on the TV's
monitor); the TV's remote moves its menu through the kernel's rc-cec device,
and, last, powers the console off with the TV (Standby on the TV's monitor).
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from vm.appliance import prepare
from vm.machine import GuestError, Machine
from vm.marks import machine_test
from vm.rootfs import GUEST_USER, chosen_guest

GUEST = chosen_guest()
BOOT_TIMEOUT = 300.0
#: One HDMI input (input type 3) and one HDMI output (output type 1).
VIVID = "vivid n_devs=1 num_inputs=1 input_types=0x3 num_outputs=1 output_types=0x1"

pytestmark = machine_test("boots a virtual machine (about 5 minutes)", GUEST.architecture)


@dataclass
class Bus:
    machine: Machine
    tv: str  # the TV's adapter (vivid's HDMI input)
    monitor: str  # what the TV's side saw while the console started

    def tv_says(self, arguments: str) -> str:
        return self.machine.ssh(f"sudo cec-ctl -d {self.tv} {arguments}").stdout


def logged(machine: Machine, pattern: str, what: str, timeout: float = 120.0) -> None:
    """Wait until the console's journal has a line matching ``pattern``; fail with the journal's end and the
    adapters as cec-ctl reports them."""
    try:
        machine.wait_until(f"sudo journalctl -b -u pyramid.service -o cat | grep -q '{pattern}'", timeout, what)
    except GuestError as error:
        said = machine.ssh("sudo journalctl -b -u pyramid.service -o cat | tail -n 30; ls -l /dev/cec*;"
                           " for d in /dev/cec*; do sudo cec-ctl -d $d; done", check=False)
        raise GuestError(f"{error}\n{said.stdout}{said.stderr}") from None


@pytest.fixture(scope="module")
def bus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bus]:
    workdir = tmp_path_factory.mktemp("vm-cec")
    prepared = prepare(workdir, GUEST)
    machine = Machine(prepared.boot, workdir, prepared.key, GUEST_USER)
    try:
        machine.wait_for_ssh(BOOT_TIMEOUT)
        machine.wait_until("systemctl is-active --quiet pyramid.service", BOOT_TIMEOUT, "pyramid.service active")
        machine.ssh(f"sudo modprobe {VIVID}")
        machine.wait_until("ls /dev/cec1", 60, "vivid's two CEC adapters")
        # Plugged in while the console runs (as a USB-CEC adapter would be): seen through its watch on /dev.
        logged(machine, "HDMI-CEC adapter /dev/cec1 (vivid", "the adapter plugged in later followed")
        names = {path: machine.ssh(f"sudo cec-ctl -d {path}").stdout for path in ("/dev/cec0", "/dev/cec1")}
        tv = next(path for path, said in names.items() if "vid-cap" in said)
        # The HDMI input fed by the output (its control's menu: 0 test pattern, 1 none, 2 output 000-0): the
        # output's adapter then has a physical address, 1.0.0.0, as a player plugged into a TV's HDMI 1.
        capture = machine.ssh("for v in /dev/video*; do sudo v4l2-ctl -d $v --list-ctrls 2>/dev/null"
                              " | grep -q hdmi_000_0_is_connected_to && echo $v && break; done").stdout.strip()
        machine.ssh(f"sudo v4l2-ctl -d {capture} -c hdmi_000_0_is_connected_to=2")
        machine.ssh(f"sudo cec-ctl -d {tv} --tv --osd-name TestTV")
        machine.ssh(f"sudo sh -c 'timeout 60 cec-ctl -d {tv} --monitor > /tmp/tv-monitor.log 2>&1 &'")
        machine.ssh("sudo systemctl restart pyramid.service")
        machine.wait_until("systemctl is-active --quiet pyramid.service", BOOT_TIMEOUT, "pyramid.service active again")
        logged(machine, "HDMI-CEC adapter .*logical 4", "the console's Playback address claimed")
        time.sleep(3)  # the TV's monitor: One Touch Play's two messages on the bus
        monitor = machine.ssh("sudo cat /tmp/tv-monitor.log").stdout
        yield Bus(machine, tv, monitor)
    finally:
        machine.stop()
        print(f"\nscreendumps and logs in {workdir}")


def test_the_console_is_a_playback_device_named_pyramid(bus: Bus) -> None:
    said = bus.tv_says("--to 4 --give-osd-name")
    assert re.search(r"name: Pyramid", said), said


def test_the_console_answers_the_tvs_power_and_menu_queries(bus: Bus) -> None:
    assert re.search(r"pwr-state: on", bus.tv_says("--to 4 --give-device-power-status")), "power status"
    assert re.search(r"menu-state: activated", bus.tv_says("--to 4 --menu-request menu-req=query")), "menu status"


def test_one_touch_play_woke_the_tv_and_showed_the_console(bus: Bus) -> None:
    assert "IMAGE_VIEW_ON" in bus.monitor and "ACTIVE_SOURCE" in bus.monitor, bus.monitor


def test_the_tvs_remote_moves_the_menu(bus: Bus) -> None:
    machine = bus.machine
    before = machine.settled_screen("cec-menu", lambda screen: screen.highlight_row() is not None).highlight_row()
    bus.tv_says("--to 4 --user-control-pressed ui-cmd=down --user-control-released")
    moved = machine.settled_screen("cec-menu-down", lambda screen: (screen.highlight_row() or 0) > (before or 0) + 10)
    after = moved.highlight_row()
    assert before is not None and after is not None and after > before + 10, (before, after)


def test_power_off_from_the_tvs_remote_puts_the_tv_to_standby_then_halts(bus: Bus) -> None:
    """Last: the guest halts. The TV's remote goes to "Power off" (Up from the first line wraps to the last), takes its
    second line, "Power off the console and the TV": the TV's monitor, read over SSH as it runs, sees
    Standby from the console before the machine powers off."""
    machine = bus.machine
    monitor = subprocess.Popen([*machine.ssh_command, machine.ssh_target, f"sudo cec-ctl -d {bus.tv} --monitor"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    try:
        time.sleep(3)  # the monitor is on the bus
        # The test before left the second line selected: Up, then Up again wraps to the last, "Power off".
        for command in ("ui-cmd=up", "ui-cmd=up", "ui-cmd=select"):
            bus.tv_says(f"--to 4 --user-control-pressed {command} --user-control-released")
            time.sleep(2)
        machine.screendump("cec-power-off-question")
        for command in ("ui-cmd=down", "ui-cmd=select"):
            bus.tv_says(f"--to 4 --user-control-pressed {command} --user-control-released")
            time.sleep(1)
        machine.wait_for_halt(180)
    finally:
        monitor.kill()
    seen = monitor.communicate(timeout=30)[0]
    assert re.search(r"from Playback Device 1 to TV \(4 to 0\): STANDBY", seen), seen[-2000:]
