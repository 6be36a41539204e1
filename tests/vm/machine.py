"""One emulated machine: qemu under TCG, its QMP socket, SSH into it, its screen.

FACTS.md: KVM does not run a stock kernel usefully on these hosts, so the guest
runs under TCG (two vCPUs, multi-threaded): an amd64 guest on a ``q35`` board
with ``-cpu qemu64``, an arm64 guest on the ``virt`` board with a Cortex-A72
(a Pi 4's core). The network is user-mode and restricted (the guest reaches
nothing; the host reaches its sshd on a loopback port), virtio-gpu gives the
guest /dev/dri/card0 and /dev/fb0, and a USB keyboard on an xHCI controller is
what QMP ``input-send-event`` types on. QMP ``system_powerdown`` is the power
button: ACPI's on q35, a gpio-keys KEY_POWER on virt, as dtoverlay=gpio-shutdown
gives a Pi. The kernel command line is the one install.sh left in the image's
/boot/firmware/cmdline.txt, as a Pi's firmware reads it.

The disks are either throwaway qcow2 overlays (``cache=unsafe``: a run's disk is
never kept) or raw files whose flushes qemu honours (``cache=writeback``), for
the power-cut trials: killing qemu then loses exactly what a real power cut
loses, what the guest had not yet written out.
"""

from __future__ import annotations

import json
import shlex
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from .rootfs import Architecture

PixelTest = Callable[[int, int, int], bool]  # (red, green, blue) -> whether the pixel counts


class GuestError(Exception):
    """The emulated machine did not do what a step waited for; the message says what."""


class KernelPanic(GuestError):
    """The guest's kernel panicked while booting (seen under TCG: an int3 oops in the timer softirq,
    1.5 s into a boot, before any file system was mounted)."""


def free_loopback_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (qemu binds it right after)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass(frozen=True)
class Screen:
    """A screendump: RGB pixels, row by row."""

    width: int
    height: int
    rgb: bytes

    @classmethod
    def from_ppm(cls, data: bytes) -> Screen:
        """Parse the binary PPM (P6, maxval 255) that QMP ``screendump`` writes."""
        fields: list[bytes] = []
        position = 0
        while len(fields) < 4:
            while data[position:position + 1].isspace():
                position += 1
            if data[position:position + 1] == b"#":
                position = data.index(b"\n", position)
                continue
            end = position
            while not data[end:end + 1].isspace():
                end += 1
            fields.append(data[position:end])
            position = end
        magic, width, height, maxval = fields
        if magic != b"P6" or maxval != b"255":
            raise GuestError(f"screendump is not an 8-bit binary PPM: {magic!r} {maxval!r}")
        pixels = data[position + 1:]
        return cls(int(width), int(height), pixels[: int(width) * int(height) * 3])

    def share(self, predicate: PixelTest) -> float:
        """The fraction of pixels (sampled on a 4-pixel grid) for which ``predicate(r, g, b)`` holds."""
        hits = total = 0
        for y in range(0, self.height, 4):
            row = y * self.width * 3
            for x in range(0, self.width, 4):
                r, g, b = self.rgb[row + x * 3: row + x * 3 + 3]
                total += 1
                hits += bool(predicate(r, g, b))
        return hits / total if total else 0.0

    def mean_row(self, predicate: PixelTest) -> float | None:
        """The average row of the (sampled) pixels for which ``predicate(r, g, b)`` holds, None if none do."""
        rows = [y for y in range(0, self.height, 4) for x in range(0, self.width, 4)
                if predicate(*self.rgb[(y * self.width + x) * 3:(y * self.width + x) * 3 + 3])]
        return sum(rows) / len(rows) if rows else None

    def felt_share(self) -> float:
        """How much of the screen is the table's green felt: green clearly above red and blue."""
        return self.share(lambda r, g, b: g >= 60 and g > r + 20 and g > b + 20)

    def highlight_row(self) -> float | None:
        """Where the menu's selected line is: the mean row of its amber highlight."""
        return self.mean_row(lambda r, g, b: r > 200 and 150 < g < 230 and b < 80)

    def light_share(self) -> float:
        """Text and card faces: near-white pixels."""
        return self.share(lambda r, g, b: min(r, g, b) > 180)


class Qmp:
    """A QMP client on qemu's unix socket: one command at a time, events skipped."""

    def __init__(self, path: Path, timeout: float = 60.0) -> None:
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._socket.settimeout(timeout)
        self._socket.connect(str(path))
        self._file = self._socket.makefile("rwb")
        self._read()  # the greeting
        self.execute("qmp_capabilities")

    def _read(self) -> dict:
        line = self._file.readline()
        if not line:
            raise GuestError("qemu closed its QMP socket")
        return json.loads(line)

    def execute(self, command: str, **arguments: object) -> object:
        message: dict[str, object] = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        self._file.write(json.dumps(message).encode() + b"\n")
        self._file.flush()
        while True:
            reply = self._read()
            if "event" in reply:
                continue
            if "error" in reply:
                raise GuestError(f"QMP {command} failed: {reply['error']}")
            return reply.get("return")

    def close(self) -> None:
        self._file.close()
        self._socket.close()


BOARDS = {
    "amd64": ["qemu-system-x86_64", "-cpu", "qemu64", "-machine", "q35"],
    "arm64": ["qemu-system-aarch64", "-cpu", "cortex-a72", "-machine", "virt"],
}
#: Added to the command line from cmdline.txt for the emulator's sake, not the console's: on a
#: busy host the x86 kernel's early check that the timer interrupt arrives can run out of time
#: under TCG and panic ("IO-APIC + timer doesn't work!"), seen once in 60 boots.
EMULATOR_KERNEL_OPTIONS = {"amd64": " no_timer_check", "arm64": ""}


@dataclass(frozen=True)
class Boot:
    """What a machine boots: the guest's own kernel and initramfs, its command line, its disks in order."""

    architecture: Architecture
    kernel: Path
    initrd: Path
    cmdline: str
    disks: tuple[Path, ...]  # /dev/vda, /dev/vdb, ...
    keep_disks: bool = False  # raw disks written in place (power cuts), else throwaway overlays


class Machine:
    """A running guest, powered on by the constructor."""

    def __init__(self, boot: Boot, workdir: Path, key: Path, user: str, name: str = "") -> None:
        self.workdir = workdir
        self.key = key
        self.user = user
        self.boot = boot
        self.port = free_loopback_port()
        self.serial_log = workdir / f"serial{name}.log"
        drives: list[str] = []
        self.overlays: list[Path] = []
        for number, disk in enumerate(boot.disks):
            if boot.keep_disks:
                drives += ["-drive", f"file={disk},format=raw,if=virtio,cache=writeback"]
                continue
            overlay = workdir / f"overlay{name}-{number}.qcow2"
            subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b", str(disk), str(overlay)],
                           check=True)
            self.overlays.append(overlay)
            drives += ["-drive", f"file={overlay},format=qcow2,if=virtio,cache=unsafe"]
        qmp_path = workdir / f"qmp{name}.sock"
        command = [
            "nice", "-n", "10", *BOARDS[boot.architecture.debian],
            "-accel", "tcg,thread=multi", "-smp", "2", "-m", "1024",
            "-nodefaults", "-display", "none",
            "-kernel", str(boot.kernel), "-initrd", str(boot.initrd), "-append", boot.cmdline + EMULATOR_KERNEL_OPTIONS[boot.architecture.debian],
            *drives,
            "-device", "virtio-gpu-pci",
            "-device", "qemu-xhci", "-device", "usb-kbd",
            "-netdev", f"user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:{self.port}-:22",
            "-device", "virtio-net-pci,netdev=net0",
            "-serial", f"file:{self.serial_log}",
            "-qmp", f"unix:{qmp_path},server=on,wait=off",
        ]
        self.started = time.monotonic()
        self.qemu_log = workdir / f"qemu{name}.log"
        with open(self.qemu_log, "wb") as log:  # qemu keeps its own copy of the descriptor
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
        self.qmp = self._connect_qmp(qmp_path)

    def _connect_qmp(self, path: Path) -> Qmp:
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise GuestError(f"qemu exited ({self.process.returncode}): {self.qemu_log.read_text()}")
            try:
                return Qmp(path)
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise GuestError("qemu's QMP socket never appeared") from None
                time.sleep(0.2)

    @property
    def ssh_command(self) -> list[str]:
        """The ssh command line (without the host) that reaches the guest's sshd."""
        return ["ssh", "-p", str(self.port), "-i", str(self.key), "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10"]

    @property
    def ssh_target(self) -> str:
        return f"{self.user}@127.0.0.1"

    def ssh(self, command: str, timeout: float = 120.0, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a shell command in the guest as the owner's user (``sudo`` works without a password)."""
        result = subprocess.run([*self.ssh_command, self.ssh_target, command], capture_output=True, text=True,
                                timeout=timeout, stdin=subprocess.DEVNULL, check=False)
        if check and result.returncode != 0:
            raise GuestError(f"{command!r} in the guest failed ({result.returncode}): {result.stderr.strip()}")
        return result

    def wait_for_ssh(self, timeout: float) -> float:
        """Seconds from power-on until the guest's sshd answered."""
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise GuestError(f"qemu exited ({self.process.returncode}) before SSH came up")
            if self.kernel_panicked():
                raise KernelPanic(f"the guest's kernel panicked; serial console: {self.serial_tail()}")
            try:
                if self.ssh("true", timeout=30, check=False).returncode == 0:
                    return time.monotonic() - self.started
            except subprocess.TimeoutExpired:
                pass
            if time.monotonic() > deadline:
                raise GuestError(f"no SSH after {timeout:.0f} s; serial console: {self.serial_tail()}")
            time.sleep(2)

    def wait_until(self, command: str, timeout: float, what: str) -> float:
        """Poll a guest command until it succeeds; return the seconds from power-on."""
        deadline = time.monotonic() + timeout
        while True:
            if self.ssh(command, check=False).returncode == 0:
                return time.monotonic() - self.started
            if time.monotonic() > deadline:
                raise GuestError(f"{what}: not after {timeout:.0f} s ({command!r})")
            time.sleep(2)

    def unit_property(self, unit: str, name: str) -> str:
        return self.ssh(f"systemctl show --value -p {shlex.quote(name)} {shlex.quote(unit)}").stdout.strip()

    def screendump(self, name: str) -> Screen:
        """The guest's screen now, as qemu sees it (saved in the work directory as NAME.ppm)."""
        path = (self.workdir / f"{name}.ppm").resolve()  # QMP wants an absolute path
        self.qmp.execute("screendump", filename=str(path))
        return Screen.from_ppm(path.read_bytes())

    def settled_screen(self, name: str, shows: Callable[[Screen], bool], timeout: float = 30.0) -> Screen:
        """The screen once ``shows`` says it is there, or the last one seen at ``timeout``.

        A view change animates for 220 ms on a Pi; under TCG each frame of it can take a
        second or more, so a screen read a fixed time after a key may still be mid-motion.
        """
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screendump(name)
            if shows(screen) or time.monotonic() > deadline:
                return screen
            time.sleep(1)

    def press(self, qcode: str) -> None:
        """Press and release one key on the guest's USB keyboard (a QEMU "qcode": down, ret, esc…)."""
        for down in (True, False):
            self.qmp.execute("input-send-event",
                             events=[{"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": qcode}}}])
            time.sleep(0.1)

    def kernel_panicked(self) -> bool:
        """True once the guest's kernel said it panicked (a panic reaches the serial console even when quiet)."""
        try:
            return "Kernel panic - not syncing" in self.serial_log.read_text(errors="replace")
        except FileNotFoundError:
            return False

    def serial_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.serial_log.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no serial output)"

    def power_button(self) -> None:
        """Press the emulated power button (what dtoverlay=gpio-shutdown makes of a Pi's button)."""
        self.qmp.execute("system_powerdown")

    def wait_for_halt(self, timeout: float) -> float:
        """Seconds until the guest powered itself off (qemu exits when it does)."""
        started = time.monotonic()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise GuestError(f"the guest did not power off within {timeout:.0f} s; serial console: "
                             f"{self.serial_tail()}") from None
        self.qmp.close()
        return time.monotonic() - started

    def snapshot_disks(self, directory: Path) -> Boot:
        """The disks of a halted machine as raw files, to inspect on the host or boot again as they are."""
        if self.boot.keep_disks:
            return self.boot
        directory.mkdir()
        disks = tuple(directory / f"disk{number}.img" for number in range(len(self.overlays)))
        for overlay, disk in zip(self.overlays, disks):
            subprocess.run(["qemu-img", "convert", "-O", "raw", str(overlay), str(disk)], check=True)
        return replace(self.boot, disks=disks, keep_disks=True)

    def cut_power(self) -> None:
        """The power cut: qemu killed at once, nothing flushed, nothing shut down."""
        self.process.kill()
        self.process.wait()
        self.qmp.close()

    def stop(self) -> None:
        """Power off at once: the overlay is thrown away, so a clean shutdown buys nothing."""
        if self.process.poll() is not None:
            return
        try:
            self.qmp.execute("quit")
        except (GuestError, OSError):
            pass
        self.qmp.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
