"""The TV's own remote on a real kernel CEC bus (issue 49): vivid's emulated HDMI output and input in the VM.

Opt-in as the other machine tests (``PYRAMID_VM=1``): the appliance is built
and booted as in tests/test_vm_appliance.py; in the guest the kernel's ``vivid``
driver makes one HDMI input and one HDMI output, whose CEC adapters share one
emulated bus (Documentation/admin-guide/media/vivid.rst). The input's adapter
is the TV: v4l-utils' ``cec-ctl`` claims the TV's address on it and, as an
outsider, asks and presses what a TV does. The console follows the output's
adapter as it appears (its watch on /dev), and, restarted once the TV is set
up (with ``--trace``, docs/developers.md), is a Playback device there: the
kernel answers its OSD name, the console its power and menu status; it wakes
the TV (One Touch Play, seen on the TV's monitor); the TV's remote moves its
menu through the kernel's rc-cec device, plays a game (the trace shows the
cursor moved and a card chosen), reaches the screen about as fast as the
guest's USB keyboard (measured, both on the guest's CLOCK_MONOTONIC), and,
last, powers the console off with the TV (Standby on the TV's monitor).
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from vm.appliance import prepare
from vm.machine import GuestError, Machine
from vm.marks import machine_test
from vm.rootfs import GUEST_USER, chosen_guest

from input.hub import TV_REMOTE
from pyramid.console.catalogue.en import MESSAGES

GUEST = chosen_guest()
BOOT_TIMEOUT = 300.0
#: One HDMI input (input type 3) and one HDMI output (output type 1).
VIVID = "vivid n_devs=1 num_inputs=1 input_types=0x3 num_outputs=1 output_types=0x1"
#: The console's trace, in the one directory its unit may write.
TRACE = "/var/lib/pyramid/trace.jsonl"
#: The installed unit's command with --trace: the drop-in a maintainer writes for a bug report.
TRACE_DROP_IN = ("[Service]\nExecStart=\nExecStart=/opt/pyramid/current/bin/pyramid --display auto --power-off logind"
                 f" --trace {TRACE}\n")
#: The input devices the presses come from, as the console names them: the TV's remote is the rc device
#: the kernel makes for the console's adapter (vivid's HDMI output, "vivid-000-vid-out0"), counted under
#: input.hub.TV_REMOTE; the keyboard is QEMU's usb-kbd.
USB_KEYBOARD = "QEMU QEMU USB Keyboard"
#: UI command 0x0D: "Exit" in CEC 1.4, "Back" in 2.0, and cec-ctl's name for it ("exit" is not one:
#: cec-ctl reads an unknown name as 0, Select).
EXIT = "back"
#: Presses of each device for the latency measure, right and left in turn.
LATENCY_PRESSES = 20

pytestmark = machine_test("boots a virtual machine (about 5 minutes)", GUEST.architecture)


class TvPress(NamedTuple):
    """A key of the TV's remote, on the guest's CLOCK_MONOTONIC: when the TV began to send it (the
    bus's wait and the message's bit times follow) and when its last bit was sent."""

    pressed: float
    sent: float


@dataclass
class Bus:
    machine: Machine
    tv: str  # the TV's adapter (vivid's HDMI input)
    monitor: str  # what the TV's side saw while the console started
    remote: subprocess.Popen[str]  # the TV's remote control in the guest (tests/vm/tv_remote.py)

    def tv_says(self, arguments: str) -> str:
        return self.machine.ssh(f"sudo cec-ctl -d {self.tv} {arguments}").stdout

    def tv_press(self, key: str) -> TvPress:
        """Press and release ``key`` on the TV's remote (cec-ctl's name of the UI command)."""
        assert self.remote.stdin is not None and self.remote.stdout is not None
        self.remote.stdin.write(key + "\n")
        self.remote.stdin.flush()
        said = self.remote.stdout.readline().split()
        assert len(said) == 2, f"the TV's remote stopped (exit {self.remote.poll()})"
        return TvPress(float(said[0]), float(said[1]))

    def trace(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.machine.ssh(f"sudo cat {TRACE}").stdout.splitlines()]

    def pressed(self, press: Any, device: str, timeout: float = 30.0) -> dict[str, Any]:
        """Press by calling ``press``; the trace's line of that press from ``device`` (after the line
        count before), once its frame is shown or it changed nothing."""
        before = len(self.trace())
        press()
        deadline = time.monotonic() + timeout
        while True:
            lines = self.trace()[before:]
            found = [line for line in lines if any(p["device"] == device for p in line["presses"])]
            if found:
                return found[0]
            assert time.monotonic() < deadline, f"no press from {device!r} in the trace: {lines}"
            time.sleep(0.2)

    def tv_key(self, key: str) -> dict[str, Any]:
        return self.pressed(lambda: self.tv_press(key), TV_REMOTE)

    def to_menu_line(self, label: str) -> dict[str, Any]:
        """From a menu, move the selection to the line ``label`` with the TV's arrows."""
        state = self.trace()[-1]
        target = state["menu"]["items"].index(label)
        while state["menu"]["selected"] != target:
            state = self.tv_key("down" if state["menu"]["selected"] < target else "up")
        return state


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
    remote: subprocess.Popen[str] | None = None
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
        machine.ssh("sudo mkdir -p /etc/systemd/system/pyramid.service.d && printf '%s' '"
                    f"{TRACE_DROP_IN}' | sudo tee /etc/systemd/system/pyramid.service.d/trace.conf && sudo systemctl daemon-reload")
        machine.ssh("sudo systemctl restart pyramid.service")
        machine.wait_until("systemctl is-active --quiet pyramid.service", BOOT_TIMEOUT, "pyramid.service active again")
        logged(machine, "HDMI-CEC adapter .*logical 4", "the console's Playback address claimed")
        time.sleep(3)  # the TV's monitor: One Touch Play's two messages on the bus
        monitor = machine.ssh("sudo cat /tmp/tv-monitor.log").stdout
        project = f"/home/{GUEST_USER}/pyramid"
        remote = subprocess.Popen([*machine.ssh_command, machine.ssh_target,
                                   f"sudo env PYTHONPATH={project} python3 {project}/tests/vm/tv_remote.py {tv}"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        yield Bus(machine, tv, monitor, remote)
    finally:
        if remote is not None:
            remote.kill()
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


def test_the_tvs_remote_plays_a_game(bus: Bus) -> None:
    """The issue's sequence on a game dealt with the TV's remote: right, right, select, exit. The trace:
    each press from the TV's rc device, the cursor moved twice, a card chosen (or a king, taken at once,
    gone), and exit (Back) taking the choice back."""
    bus.to_menu_line(MESSAGES["menu.new_game"])
    state = bus.tv_key("select")
    if state["screen"] == "redeal_choice":
        state = bus.tv_key("select")
    assert state["screen"] == "game", state["screen"]
    steps = [state] + [bus.tv_key(key) for key in ("right", "right", "select", EXIT)]
    assert [[(p["action"], p["device"]) for p in step["presses"]] for step in steps[1:]] == [
        [(action, TV_REMOTE)] for action in ("right", "right", "ok", "back")]
    games = [step["game"] for step in steps]
    assert games[0]["cursor"] != games[1]["cursor"] != games[2]["cursor"], "each right moved the cursor"
    chose = games[3]["chosen"] == games[2]["cursor"] or games[3]["pyramid"] != games[2]["pyramid"]
    assert chose, (games[2]["cursor"], games[3]["chosen"])
    if games[3]["chosen"] is not None:
        assert games[4]["chosen"] is None, "exit took the choice back"
    else:  # a king went at once: nothing to take back, so exit leaves the game for the menu
        assert steps[4]["screen"] == "menu", steps[4]["screen"]
    assert all(step["shown"] is not None for step in steps[1:]), "each press changed the screen"


def test_a_tv_key_reaches_the_screen_as_a_keyboard_key_does(bus: Bus, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Measured, not asserted against a time: right and left in turn on the game, from the TV's remote
    and from the guest's USB keyboard. The console's part, from its input thread reading the key to
    the frame shown, for both; for the TV also the whole way from the key pressed (its transmit asked
    for), through the bus (vivid keeps CEC's bit times) to the console. The figures go to the test's
    output and cec-latency.json."""
    if bus.trace()[-1]["screen"] == "menu":
        bus.to_menu_line(MESSAGES["menu.continue"])
        bus.tv_key("select")
    state = bus.trace()[-1]
    assert state["screen"] == "game", state["screen"]
    tv: list[tuple[TvPress, float, float]] = []
    keyboard: list[tuple[float, float]] = []
    # The two devices in turn, each as often right as left: neither has the first (slower) frames alone.
    for _ in range(LATENCY_PRESSES // 2):
        for device, key in ((TV_REMOTE, "right"), (USB_KEYBOARD, "left"), (USB_KEYBOARD, "right"), (TV_REMOTE, "left")):
            if device == TV_REMOTE:
                sent: list[TvPress] = []
                line = bus.pressed(lambda: sent.append(bus.tv_press(key)), TV_REMOTE)
                tv.append((sent[0], line["presses"][0]["read"], line["shown"]))
            else:
                line = bus.pressed(lambda: bus.machine.press(key), USB_KEYBOARD)
                keyboard.append((line["presses"][0]["read"], line["shown"]))
    assert all(shown is not None for *_, shown in tv + keyboard), "each press moved the cursor"

    def figures(milliseconds: list[float]) -> dict[str, float]:
        ordered = sorted(milliseconds)
        return {"median": round(statistics.median(ordered), 1),
                "p95": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 1)}

    measured = {
        "presses of each device": len(tv),
        "tv: key pressed -> frame shown (ms)": figures([(shown - key.pressed) * 1000 for key, _, shown in tv]),
        "tv: key pressed -> sent, on the bus (ms)": figures([(key.sent - key.pressed) * 1000 for key, _, _ in tv]),
        "tv: sent -> read by the console (ms)": figures([(read - key.sent) * 1000 for key, read, _ in tv]),
        "tv: read -> frame shown (ms)": figures([(shown - read) * 1000 for _, read, shown in tv]),
        "usb keyboard: read -> frame shown (ms)": figures([(shown - read) * 1000 for read, shown in keyboard]),
    }
    print("\nHDMI-CEC latency in the VM guest:", json.dumps(measured, indent=1))
    Path(tmp_path_factory.getbasetemp(), "cec-latency.json").write_text(json.dumps(measured, indent=1) + "\n")
    assert all(key.pressed <= key.sent <= read <= shown for key, read, shown in tv), "read after the TV sent it"


def test_power_off_from_the_tvs_remote_puts_the_tv_to_standby_then_halts(bus: Bus) -> None:
    """Last: the guest halts. The TV's remote goes back to the main menu, to "Power off", takes
    "Power off the console and the TV": the TV's monitor, read over SSH as it runs, sees Standby from
    the console before the machine powers off."""
    machine = bus.machine
    monitor = subprocess.Popen([*machine.ssh_command, machine.ssh_target, f"sudo cec-ctl -d {bus.tv} --monitor"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    try:
        time.sleep(3)  # the monitor is on the bus
        while bus.trace()[-1]["screen"] != "menu":
            bus.tv_key(EXIT)
        bus.to_menu_line(MESSAGES["menu.power_off"])
        assert bus.tv_key("select")["screen"] == "power_off"
        machine.screendump("cec-power-off-question")
        bus.to_menu_line(MESSAGES["power.with_tv"])
        bus.tv_press("select")
        machine.wait_for_halt(180)
    finally:
        monitor.kill()
    seen = monitor.communicate(timeout=30)[0]
    assert re.search(r"from Playback Device 1 to TV \(4 to 0\): STANDBY", seen), seen[-2000:]
