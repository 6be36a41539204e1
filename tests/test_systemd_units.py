"""The units in systemd/: `systemd-analyze verify` clean, `security` exposure at most 1.5.

`verify` checks that ExecStart= binaries exist, so it runs with ``--root`` on a
small device root: the host's own unit files (for targets such as
multi-user.target), our units, the release tool and a stand-in console at
/opt/pyramid/current/bin/pyramid.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from update_fakes import RELEASE_TOOL, REPOSITORY

UNITS = REPOSITORY / "systemd"
SYSTEM_UNITS = Path("/usr/lib/systemd/system")
MAX_EXPOSURE = 1.5

pytestmark = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                reason="needs systemd-analyze (installed by .ci/run)")


def unit_settings(name: str) -> dict[str, list[str]]:
    """Every Key=value of a unit file, values in order (keys may repeat)."""
    settings: dict[str, list[str]] = {}
    for line in (UNITS / name).read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def exposure(unit: Path) -> float:
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager", str(unit)],
                            capture_output=True, text=True, check=False)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1))


def test_console_unit_exposure_is_at_most_one_and_a_half() -> None:
    level = exposure(UNITS / "pyramid.service")
    print(f"\nsystemd-analyze security --offline=yes pyramid.service: exposure {level}")
    assert level <= MAX_EXPOSURE


def test_console_still_reaches_screen_input_tty_gpio_and_sound() -> None:
    """Hardened, but not blind: the devices the console needs stay allowed."""
    settings = unit_settings("pyramid.service")
    assert settings["DevicePolicy"] == ["closed"]
    allowed = {entry.split()[0] for entry in settings["DeviceAllow"] if entry.split()[1] == "rw"}
    assert allowed == {"char-drm", "char-fb", "char-input", "char-cec", "char-gpiochip", "char-alsa", "/dev/tty1",
                       "/dev/tty"}
    assert "PrivateDevices" not in settings  # it would hide /dev/dri and /dev/input
    assert "PrivateNetwork" not in settings  # /proc/net must show the host's addresses
    assert "AF_UNIX" in settings["RestrictAddressFamilies"][0].split()  # sd_notify
    assert settings["SupplementaryGroups"] == ["video render input gpio audio"]  # audio: the sound card
    assert settings["User"] == ["pyramid"]


def test_console_unit_boots_on_tty1_and_falls_back_on_failure() -> None:
    settings = unit_settings("pyramid.service")
    assert settings["ExecStart"] == ["/opt/pyramid/current/bin/pyramid --display auto --power-off logind"]
    assert settings["Conflicts"] == ["getty@tty1.service"]
    assert settings["TTYPath"] == ["/dev/tty1"]
    assert settings["StandardInput"] == ["tty"]
    assert settings["Type"] == ["notify"]
    assert settings["Restart"] == ["on-failure"]
    assert settings["OnFailure"] == ["pyramid-rollback.service"]
    assert int(settings["StartLimitBurst"][0]) > 1
    assert settings["StateDirectory"] == ["pyramid"]
    assert settings["WorkingDirectory"] == ["/run/pyramid"]  # writable: RuntimeDirectory=pyramid
    assert settings["RuntimeDirectory"] == ["pyramid"]
    assert unit_settings("pyramid-rollback.service")["ExecStart"] == [
        "/opt/pyramid/bin/pyramid-release rollback --only-if-failed"]
    # Once READY=1 came, the release is marked as having run (what the fake systemctl of the
    # update tests runs too): the rollback unit never rolls back such a release. Not by an
    # ExecStartPost=: started on the console's tty, it hung the tty up under the running console.
    assert "ExecStartPost" not in settings
    # Each start of the console runs the table server's allowance again, unordered (the console never
    # waits for a name to resolve): a server named in the settings file is reached after a restart.
    assert settings["Wants"] == ["pyramid-ready.service", "pyramid-table-server.service"]
    ordered = " ".join(settings["After"] + settings.get("Before", [])).split()
    assert "getty@tty1.service" in ordered and "pyramid-table-server.service" not in ordered
    ready = unit_settings("pyramid-ready.service")
    assert ready["ExecStart"] == ["/opt/pyramid/bin/pyramid-release mark-ready --after 15"]
    assert ready["After"] == ready["Requisite"] == ready["BindsTo"] == ["pyramid.service"] and ready["Type"] == ["oneshot"]
    assert "StandardInput" not in ready and "TTYPath" not in ready


def test_units_verify_clean_on_a_device_root(tmp_path: Path) -> None:
    root = tmp_path / "device"
    shutil.copytree(SYSTEM_UNITS, root / SYSTEM_UNITS.relative_to("/"), symlinks=True)
    units = root / "etc" / "systemd" / "system"
    units.mkdir(parents=True)
    for unit in [*UNITS.glob("*.service"), *UNITS.glob("*.timer")]:
        shutil.copy(unit, units / unit.name)
    tool = root / "opt" / "pyramid" / "bin" / "pyramid-release"
    tool.parent.mkdir(parents=True)
    shutil.copy(RELEASE_TOOL, tool)
    console = root / "opt" / "pyramid" / "releases" / "1.0" / "bin" / "pyramid"
    console.parent.mkdir(parents=True)
    console.write_text("#!/bin/sh\n")
    console.chmod(0o755)
    (root / "opt" / "pyramid" / "current").symlink_to("releases/1.0")

    result = subprocess.run(["systemd-analyze", "verify", f"--root={root}", "pyramid.service",
                             "pyramid-rollback.service", "pyramid-ready.service", "pyramid-table-server.service",
                             "pyramid-table-server.timer"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == ""


MAX_ROLLBACK_EXPOSURE = 2.0


@pytest.mark.parametrize("unit", ["pyramid-rollback.service", "pyramid-ready.service", "pyramid-table-server.service"])
def test_root_units_exposure_is_at_most_two(unit: str) -> None:
    """They run as root (7.7 "EXPOSED" unconfined): no capability, no network, nothing writable but the releases."""
    level = exposure(UNITS / unit)
    print(f"\nsystemd-analyze security --offline=yes {unit}: exposure {level}")
    assert level <= MAX_ROLLBACK_EXPOSURE


def test_rollback_unit_can_still_switch_releases_and_restart_the_console() -> None:
    """What the confinement must leave: root's uid for systemd's private socket, /opt/pyramid, Unix sockets."""
    settings = unit_settings("pyramid-rollback.service")
    assert "User" not in settings and "DynamicUser" not in settings  # systemctl restart as root, no polkit
    assert "PrivateUsers" not in settings  # root mapped to nobody would be refused by systemd
    assert "ProtectProc" not in settings  # systemctl looks at PID 1, hidden from a process without capabilities
    assert settings["ReadWritePaths"] == ["/opt/pyramid"] and settings["ProtectSystem"] == ["strict"]
    assert settings["RestrictAddressFamilies"] == ["AF_UNIX"]
    assert settings["CapabilityBoundingSet"] == [""]
    assert settings["UMask"] == ["0022"]  # the console's user reads the releases
    assert "@system-service" in settings["SystemCallFilter"]
