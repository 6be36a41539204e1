"""The appliance end to end in an emulated machine: boot, play, harden, update, power off.

Opt-in (``PYRAMID_VM=1``), never part of the normal run: it builds a Debian
system once into a cache (``PYRAMID_VM_SUITE``: trixie, the default, is today's
Raspberry Pi OS base, systemd 257 and Python 3.13; bookworm has systemd 252 and
Python 3.11; ``PYRAMID_VM_ARCH``: amd64, the default, or arm64, every Pi's),
installs the console with firmware/install.sh (``--sealed`` with
``PYRAMID_VM_SEALED=1``), boots it under qemu and checks on a real kernel and a
real systemd what the other tests check offline:

- pyramid.service replaces the login prompt on tty1, ``--display auto`` picks
  kmsdrm, and the unit is active once the console sent READY=1;
- the screen (a QMP screendump) shows the green felt and the menu, and keys
  typed on the emulated USB keyboard arrive through evdev and move the menu;
- a game started keeps its data in /var/lib/pyramid;
- ``systemd-analyze security`` on the loaded unit, and the watchdog restarting
  a console that stopped answering;
- firmware/update.sh over SSH lands a new release, and refuses one whose
  self-test fails while the old one keeps running;
- sealed, the root file system is a RAM overlay and its disk is never written;
- the power button (QMP ``system_powerdown``) and the main menu's "Power off"
  halt the guest, the player's data intact and the file systems clean.

The tests share one machine and run in file order, each building on the last
(the menu's power-off boots the disks the power button left). About 6 minutes
for amd64 on two shared cores, more for arm64 (docs/appliance.md has the times).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from vm.appliance import PROJECT, PreparedImage, prepare, project_copy
from vm.halted import DiskReport, inspect_disks
from vm.machine import Boot, Machine, Screen
from vm.marks import machine_test
from vm.rootfs import GUEST_USER, chosen_guest
from pyramid.engine.cards import format_cards
from pyramid.engine.deal import numbered_deal

GUEST = chosen_guest()
SEALED = os.environ.get("PYRAMID_VM_SEALED", "0") == "1"

pytestmark = machine_test("the appliance test boots a virtual machine (about 6 minutes)", GUEST.architecture)

BOOT_TIMEOUT = 300.0
TIMINGS: dict[str, float] = {}


class Guest:
    """The booted appliance, with what the tests learn along the way."""

    def __init__(self, machine: Machine, prepared: PreparedImage) -> None:
        self.machine = machine
        self.prepared = prepared
        self.menu_screen: Screen | None = None
        self.halted_disks: Boot | None = None  # raw copies of the disks after the power button


@pytest.fixture(scope="module")
def guest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guest]:
    """One machine for the whole module: preparing and booting it is most of the run's time."""
    started = time.monotonic()
    workdir = tmp_path_factory.mktemp("vm")
    prepared = prepare(workdir, GUEST, SEALED)
    TIMINGS.update(prepared.timings)
    machine = Machine(prepared.boot, workdir, prepared.key, GUEST_USER)
    guest = Guest(machine, prepared)
    try:
        TIMINGS["power-on to SSH"] = machine.wait_for_ssh(BOOT_TIMEOUT)
        yield guest
    finally:
        guest.machine.stop()
        TIMINGS["whole run"] = time.monotonic() - started
        print(f"\nappliance VM ({GUEST.name}{', sealed' if SEALED else ''}) timings (s): "
              + ", ".join(f"{name} {value:.0f}" for name, value in TIMINGS.items()))
        print(f"screendumps and logs in {workdir}")


def journal(guest: Guest) -> str:
    return guest.machine.ssh("sudo journalctl -b -u pyramid.service --no-pager -o cat").stdout


def test_console_replaces_the_login_prompt_on_tty1(guest: Guest) -> None:
    machine = guest.machine
    TIMINGS["power-on to console active"] = machine.wait_until(
        "systemctl is-active --quiet pyramid.service", BOOT_TIMEOUT, "pyramid.service active")
    ready_after_kernel_start = int(machine.unit_property("pyramid.service", "ActiveEnterTimestampMonotonic")) / 1e6
    TIMINGS["guest boot to READY=1"] = ready_after_kernel_start
    assert machine.unit_property("pyramid.service", "Type") == "notify"
    assert machine.unit_property("pyramid.service", "User") == "pyramid"
    assert machine.ssh("systemctl is-active getty@tty1.service", check=False).stdout.strip() != "active"
    log = journal(guest)
    assert re.search(r"display auto: using kmsdrm card\d+ Virtual-\d+ \d+x\d+", log), log
    assert "QEMU QEMU USB Keyboard" in log, log


def test_screen_shows_the_felt_and_the_menu(guest: Guest) -> None:
    screen = guest.machine.screendump("menu")
    TIMINGS["power-on to first frame (upper bound: the first screendump)"] = time.monotonic() - guest.machine.started
    assert screen.felt_share() > 0.5, f"only {screen.felt_share():.0%} of the screen is felt green"
    assert screen.light_share() > 0.002, f"no menu text on the screen ({screen.light_share():.2%} light pixels)"
    assert screen.highlight_row() is not None, "no highlighted menu line"
    guest.menu_screen = screen


def test_keys_on_the_usb_keyboard_move_the_menu_selection(guest: Guest) -> None:
    assert guest.menu_screen is not None, "needs the screen of the previous test"
    before = guest.menu_screen.highlight_row()
    guest.machine.press("down")
    moved = guest.machine.settled_screen(
        "menu-down", lambda screen: (screen.highlight_row() or 0) > (before or 0) + 10)
    assert moved.felt_share() > 0.5
    after = moved.highlight_row()
    assert before is not None and after is not None, "no highlighted menu line"
    assert after > before + 10, f"the highlight stayed at row {before:.0f} (now {after:.0f})"


def saved_games(guest: Guest) -> list[str]:
    """The games in progress in the console's store, read with the guest's Python."""
    query = ("import sqlite3; db = sqlite3.connect('file:/var/lib/pyramid/pyramid.db?mode=ro', uri=True); "
             "print(*db.execute('SELECT game, deal, started FROM progress ORDER BY game'), sep=chr(10))")
    return guest.machine.ssh(f'sudo python3 -c "{query}"').stdout.splitlines()


def test_a_game_started_keeps_its_data_in_the_state_directory(guest: Guest) -> None:
    machine = guest.machine
    for key in ("up", "ret", "ret"):  # New game, then the redeal question's first answer
        machine.press(key)
        time.sleep(2)
    game = machine.settled_screen("game", lambda screen: screen.light_share() > 0.1)  # the deal flies in
    assert game.light_share() > 0.1, "no cards on the screen after starting a game"
    listing = machine.ssh("sudo stat -c '%U %a %n' /var/lib/pyramid /var/lib/pyramid/pyramid.db").stdout
    assert listing.splitlines() == ["pyramid 700 /var/lib/pyramid", "pyramid 600 /var/lib/pyramid/pyramid.db"]
    assert saved_games(guest), "the game in progress is not in the store"


def test_the_installed_console_searches_with_its_compiled_core(guest: Guest) -> None:
    """The release carries the solver core built for the guest's machine (arm64 included), and it answers."""
    machine = guest.machine
    version = machine.ssh("/opt/pyramid/current/bin/pyramid --version")
    assert version.stdout.splitlines()[1:] == ["solver core: compiled"], version.stdout + version.stderr
    deal = format_cards(numbered_deal(1))
    answer = machine.ssh(f"echo '{deal}' | /opt/pyramid/current/bin/pyramid solve --core compiled --rules classic -")
    number, verdict, *_ = answer.stdout.split()
    assert number == "1" and verdict in ("win", "lose"), answer.stdout


def test_security_exposure_of_the_loaded_unit(guest: Guest) -> None:
    report = guest.machine.ssh("sudo systemd-analyze security --no-pager pyramid.service").stdout
    match = re.search(r"Overall exposure level for pyramid\.service: (\d+\.\d+) (\S+)", report)
    assert match, report
    print(f"\nsystemd-analyze security in the guest: {match.group(1)} {match.group(2)}")
    assert float(match.group(1)) <= 1.5


#: A probe run as root that joins pyramid.service's cgroup (so the unit's IP filter applies to it),
#: becomes the console's user (so the port rule does), and says whether a TCP connection to the table
#: server's address gets through on the server's port, then on another; and the listeners there.
#: Run as root in the guest: joins the console's cgroup, becomes its user, and tries each address given
#: on ports 8883 and 8884; prints "ADDRESS:PORT OUTCOME" for each (connected, or the error's name).
PROBE = """import encodings.idna, pwd, os, socket, sys
open('/sys/fs/cgroup/system.slice/pyramid.service/cgroup.procs', 'w').write('0')
console = pwd.getpwnam('pyramid')
os.setgid(console.pw_gid)
os.setuid(console.pw_uid)
for host in sys.argv[1:]:
    for port in (8883, 8884):
        try:
            socket.create_connection((host, port), timeout=3).close()
            print(f'{host}:{port} connected')
        except OSError as error:
            print(f'{host}:{port} {type(error).__name__}')
"""
#: The server where it is first and where it moves: outside the home ranges, on the guest's loopback.
FIRST, MOVED = "198.18.0.1", "198.18.0.2"
LISTENER = f"""import selectors, socket
watch = selectors.DefaultSelector()
for host in ('{FIRST}', '{MOVED}'):
    for port in (8883, 8884):
        watch.register(socket.create_server((host, port)), selectors.EVENT_READ)
while True:
    for key, _ in watch.select():
        key.fileobj.accept()[0].close()
"""


def server_lines(address: str) -> str:
    return f'[network]\nserver = "mqtts://{address}:8883"\nuser = "ann"\npassword_file = "/etc/pyramid/server/password"\n'


#: The shipped timer's period shortened for the test (a runtime drop-in, gone at the next boot).
SOON = "[Timer]\nOnUnitActiveSec=\nOnUnitActiveSec=5s\nRandomizedDelaySec=0\n"
SOON_PATH = "/run/systemd/system/pyramid-table-server.timer.d/soon.conf"
#: The service giving up on a name at once rather than after 120 s (a runtime drop-in too).
QUICK = "[Service]\nExecStart=\nExecStart=/opt/pyramid/current/bin/pyramid allow-server --wait 1\n"
QUICK_PATH = "/run/systemd/system/pyramid-table-server.service.d/quick.conf"


def put(guest: Guest, text: str, path: str) -> None:
    """Write ``text`` to ``path`` in the guest, as root, its directory made if need be (base64 on the
    command line: no quoting)."""
    import base64

    encoded = base64.b64encode(text.encode()).decode()
    guest.machine.ssh(f"sudo mkdir -p {path.rsplit('/', 1)[0]} && echo {encoded} | base64 -d | sudo tee {path} >/dev/null")


def test_the_table_server_allowance_reaches_the_running_console(guest: Guest) -> None:
    """pyramid-table-server.service adds the server's address (outside the home ranges, on the guest's
    loopback with listeners) to the running console's allowance, on the server's port only: a connection
    from the console's cgroup and user is refused before and gets through after on port 8883, not on
    8884. Then the server moves: the timer's next run (its period shortened) allows the new
    address, and the old one, still in systemd's allowance, is closed by the rule; the console was not
    restarted for any of it. Then the settings name the first server again and only the console is
    restarted: its start runs the allowance, which lets it through. Last, a name that does not resolve:
    the runs fail, the allowance stays as it was, and the timer goes on after a failed run."""
    machine = guest.machine
    settings = "/boot/firmware/pyramid.toml"
    machine.ssh(f"sudo cp {settings} /root/pyramid.toml.before && sudo ip addr add {FIRST}/32 dev lo "
                f"&& sudo ip addr add {MOVED}/32 dev lo")
    put(guest, PROBE, "/root/probe.py")
    put(guest, LISTENER, "/root/listener.py")
    machine.ssh("sudo sh -c 'nohup python3 /root/listener.py >/dev/null 2>&1 &'")
    original = machine.ssh(f"sudo cat {settings}").stdout

    def probe() -> dict[str, str]:
        lines = machine.ssh(f"sudo python3 /root/probe.py {FIRST} {MOVED}").stdout.splitlines()
        return dict(line.split() for line in lines)

    try:
        assert machine.ssh("systemctl is-enabled pyramid-table-server.timer").stdout.strip() == "enabled"
        assert machine.ssh("systemctl is-active pyramid-table-server.timer").stdout.strip() == "active"
        console = machine.unit_property("pyramid.service", "MainPID")
        put(guest, original + "\n" + server_lines(FIRST), settings)
        time.sleep(1)  # the listener is up
        before = probe()
        # Refused by the rule the boot's run loaded with no server (home only), ahead of the unit's
        # address filter (which would say EPERM: the cgroup's filter comes after netfilter's output hook).
        assert set(before.values()) == {"ConnectionRefusedError"}, before
        assert "198.18" not in machine.unit_property("pyramid.service", "IPAddressAllow")
        machine.ssh("sudo systemctl restart pyramid-table-server.service")
        assert f"{FIRST}/32" in machine.unit_property("pyramid.service", "IPAddressAllow")
        after = probe()
        assert after == {f"{FIRST}:8883": "connected", f"{FIRST}:8884": "ConnectionRefusedError",  # the rule
                         f"{MOVED}:8883": "ConnectionRefusedError", f"{MOVED}:8884": "ConnectionRefusedError"}, after
        print(f"\nthe console's user after the allowance: {after}")
        told = machine.ssh("sudo journalctl -b -u pyramid-table-server.service --no-pager -o cat").stdout
        assert f"may reach mqtts://{FIRST}:8883 at {FIRST}, TCP port 8883 only" in told, told

        put(guest, original + "\n" + server_lines(MOVED), settings)
        put(guest, SOON, SOON_PATH)
        machine.ssh("sudo systemctl daemon-reload && sudo systemctl restart pyramid-table-server.timer")
        machine.wait_until(f"sudo journalctl -b -u pyramid-table-server.service -o cat | grep -q 'at {MOVED},'", 120,
                           "the timer's run for the moved server")
        moved = probe()
        assert moved == {f"{FIRST}:8883": "ConnectionRefusedError", f"{FIRST}:8884": "ConnectionRefusedError",
                         f"{MOVED}:8883": "connected", f"{MOVED}:8884": "ConnectionRefusedError"}, moved
        assert f"{FIRST}/32" in machine.unit_property("pyramid.service", "IPAddressAllow"), "closed by the rule"
        print(f"the console's user after the server moved: {moved}")
        assert machine.unit_property("pyramid.service", "MainPID") == console, "the console was not restarted"

        # An owner names the first server again and restarts the console alone: its start runs the
        # allowance (Wants=), which follows the settings at once.
        put(guest, original + "\n" + server_lines(FIRST), settings)
        machine.ssh("sudo systemctl restart pyramid.service")
        machine.wait_until(f"test \"$(sudo journalctl -b -u pyramid-table-server.service -o cat | grep -c 'at {FIRST},')\" "
                           "-ge 2", 120, "the allowance's run with the console's restart")
        back = probe()
        assert back == {f"{FIRST}:8883": "connected", f"{FIRST}:8884": "ConnectionRefusedError",
                        f"{MOVED}:8883": "ConnectionRefusedError", f"{MOVED}:8884": "ConnectionRefusedError"}, back
        print(f"the console's user after the console's restart: {back}")

        # A name that does not resolve (the network down, the server's name gone): the run fails and
        # changes nothing (a game under way goes on), and the timer still runs it again after a failure.
        put(guest, original + "\n" + server_lines("nowhere.invalid"), settings)
        put(guest, QUICK, QUICK_PATH)
        machine.ssh("sudo systemctl daemon-reload && sudo systemctl restart pyramid-table-server.timer")
        machine.wait_until(f"test \"$(sudo journalctl -b -u pyramid-table-server.service -o cat "
                           "| grep -c 'cannot resolve nowhere.invalid')\" -ge 2", 120, "two failed runs")
        assert probe() == back, "a failed run keeps the last allowance"
    finally:
        machine.ssh(f"sudo cp /root/pyramid.toml.before {settings}; sudo rm -f {SOON_PATH} {QUICK_PATH}; "
                    "sudo systemctl daemon-reload; sudo systemctl start pyramid-table-server.service", check=False)


def test_watchdog_restarts_a_console_that_stopped_answering(guest: Guest) -> None:
    machine = guest.machine
    hung = machine.unit_property("pyramid.service", "MainPID")
    restarts = int(machine.unit_property("pyramid.service", "NRestarts"))
    machine.ssh(f"sudo kill -STOP {hung}")
    started = time.monotonic()
    machine.wait_until(
        f"test \"$(systemctl show --value -p NRestarts pyramid.service)\" -gt {restarts} && "
        "systemctl is-active --quiet pyramid.service", 240, "restart after the watchdog")
    TIMINGS["SIGSTOP to console active again"] = time.monotonic() - started
    assert machine.unit_property("pyramid.service", "MainPID") != hung
    assert "Watchdog timeout" in machine.ssh("sudo journalctl -b -u pyramid.service --no-pager").stdout


def update(guest: Guest, project: Path) -> subprocess.CompletedProcess[str]:
    """firmware/update.sh from a copy of the project, over SSH to the guest, as the owner runs it."""
    machine = guest.machine
    environment = {**os.environ, "PYRAMID_SSH": " ".join(machine.ssh_command), "PYTHON": sys.executable}
    return subprocess.run([str(project / "firmware" / "update.sh"), machine.ssh_target], env=environment,
                          capture_output=True, text=True, timeout=900, check=False)


def current_version() -> str:
    """The version in the repository's pyproject.toml; the copies an update brings bump it."""
    match = re.search(r'(?m)^version = "([^"]*)"$', (PROJECT / "pyproject.toml").read_text())
    assert match, "no version in pyproject.toml"
    return match.group(1)


def test_update_over_ssh_switches_to_the_new_release(guest: Guest, tmp_path: Path) -> None:
    machine = guest.machine
    games_before = saved_games(guest)
    version = f"{current_version()}.post1"
    started = time.monotonic()
    result = update(guest, project_copy(tmp_path / "project", version=version))
    TIMINGS["update.sh (build, copy, install, restart)"] = time.monotonic() - started
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{version} is running" in result.stdout
    assert f"* {version}" in machine.ssh("sudo /opt/pyramid/bin/pyramid-release status").stdout
    assert machine.ssh("/opt/pyramid/current/bin/pyramid --version").stdout.splitlines()[0].strip().endswith(version)
    assert machine.ssh("systemctl is-active pyramid.service").stdout.strip() == "active"
    assert saved_games(guest) == games_before  # the player's game in progress survived


def test_update_with_a_failing_self_test_is_refused(guest: Guest, tmp_path: Path) -> None:
    machine = guest.machine
    running = machine.unit_property("pyramid.service", "MainPID")
    good = machine.ssh("readlink /opt/pyramid/current").stdout.strip()
    broken = f"{current_version()}.post2"
    result = update(guest, project_copy(tmp_path / "project", version=broken, broken=True))
    assert result.returncode != 0
    assert "self-test" in result.stdout + result.stderr, result.stdout + result.stderr
    assert machine.ssh("readlink /opt/pyramid/current").stdout.strip() == good
    assert machine.ssh(f"test -e /opt/pyramid/releases/{broken}", check=False).returncode != 0
    assert machine.unit_property("pyramid.service", "MainPID") == running
    assert machine.ssh("systemctl is-active pyramid.service").stdout.strip() == "active"


@pytest.mark.skipif(not SEALED, reason="a sealed console only (PYRAMID_VM_SEALED=1)")
def test_sealed_root_is_a_ram_overlay_and_its_disk_is_never_written(guest: Guest) -> None:
    machine = guest.machine
    assert machine.ssh("findmnt -n -o FSTYPE /").stdout.strip() == "overlay"
    assert machine.ssh("findmnt -n -o OPTIONS /media/root-ro").stdout.strip().startswith("ro,")
    for path in ("/data", "/var/lib/pyramid", "/opt/pyramid"):
        assert machine.ssh(f"findmnt -n -o SOURCE {path}").stdout.strip().startswith("/dev/vdb"), path
    assert machine.ssh("sudo journalctl --header | grep -c '^File path: /run/log/journal'", check=False).stdout.strip() != "0"
    assert machine.ssh("cat /proc/swaps").stdout.splitlines()[1:] == []  # the header only: no swap
    sectors_written = int(machine.ssh("cat /sys/block/vda/stat").stdout.split()[6])
    assert sectors_written == 0, f"{sectors_written} sectors written to the sealed root's disk"


def check_halted_cleanly(guest: Guest, disks: Boot, games_before: list[str]) -> DiskReport:
    report = inspect_disks(disks, guest.machine.workdir, SEALED)
    assert report.root_clean, report.root_fsck
    assert report.integrity == "ok", report.integrity
    assert report.progress == games_before, "the game in progress did not survive the power-off"
    return report


def test_the_power_button_saves_and_halts(guest: Guest) -> None:
    machine = guest.machine
    games = saved_games(guest)
    assert games, "needs the game in progress of the earlier tests"
    machine.power_button()
    TIMINGS["power button to halt"] = machine.wait_for_halt(180)
    guest.halted_disks = machine.snapshot_disks(machine.workdir / "after-button")
    check_halted_cleanly(guest, guest.halted_disks, games)


def test_power_off_in_the_main_menu_saves_and_halts(guest: Guest) -> None:
    assert guest.halted_disks is not None, "needs the disks the power button left"
    disks = guest.halted_disks
    machine = Machine(disks, guest.machine.workdir, guest.prepared.key, GUEST_USER, name="-again")
    guest.machine = machine
    machine.wait_for_ssh(BOOT_TIMEOUT)
    machine.wait_until("systemctl is-active --quiet pyramid.service", BOOT_TIMEOUT, "pyramid.service active again")
    games = saved_games(guest)
    time.sleep(3)
    menu = machine.screendump("menu-again")
    machine.press("up")  # from the first line the selection wraps to the last, "Power off"
    before = menu.highlight_row()
    last = machine.settled_screen("menu-power-off", lambda screen: (screen.highlight_row() or 0) > (before or 0) + 10)
    after = last.highlight_row()
    assert before is not None and after is not None and after > before + 10, "Up did not select the last line"
    machine.press("ret")
    time.sleep(2)
    machine.screendump("power-off-question")
    machine.press("ret")  # the question's first line: "Power off"
    TIMINGS["menu Power off to halt"] = machine.wait_for_halt(180)
    check_halted_cleanly(guest, disks, games)


@pytest.mark.skipif(not SEALED, reason="a sealed console only (PYRAMID_VM_SEALED=1)")
def test_the_settings_line_unseals_and_the_data_stays(guest: Guest, tmp_path: Path) -> None:
    """``sealed = false`` in the settings file: the next boot runs on the card's root, written as usual."""
    disks = guest.machine.snapshot_disks(guest.machine.workdir / "after-menu")
    settings = tmp_path / "pyramid.toml"
    settings.write_text("[system]\nsealed = false\n")
    requests = tmp_path / "debugfs"
    requests.write_text(f"cd /boot/firmware\nrm pyramid.toml\nwrite {settings} pyramid.toml\n")
    subprocess.run(["debugfs", "-w", "-f", str(requests), str(disks.disks[0])], capture_output=True, check=True)
    machine = Machine(disks, guest.machine.workdir, guest.prepared.key, GUEST_USER, name="-unsealed")
    guest.machine = machine
    machine.wait_for_ssh(BOOT_TIMEOUT)
    machine.wait_until("systemctl is-active --quiet pyramid.service", BOOT_TIMEOUT, "pyramid.service active unsealed")
    assert machine.ssh("findmnt -n -o FSTYPE,OPTIONS /").stdout.split()[0] == "ext4"
    assert machine.ssh("findmnt -n -o OPTIONS /").stdout.startswith("rw")
    assert saved_games(guest), "the player's data is still on the data partition"
    machine.ssh("sudo touch /etc/pyramid-unsealed-change")  # an owner's change lands on the card
    assert int(machine.ssh("cat /sys/block/vda/stat").stdout.split()[6]) > 0
