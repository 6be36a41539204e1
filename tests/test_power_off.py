"""Powering off through systemd-logind: the exact call, and every way it can fail told plainly.

The refusals are real: the real ``busctl`` against a real, private D-Bus
daemon on which nobody owns ``org.freedesktop.login1``, and against a bus
socket that is not there. The call logind accepts is checked with a stand-in
``busctl`` that records its arguments (a real logind would power this machine
off); the appliance VM test (tests/test_vm_appliance.py) does it for real.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramid.system import power
from pyramid.system.power import PowerOffError, power_off

BUSCTL = shutil.which("busctl")
DBUS_DAEMON = shutil.which("dbus-daemon")


def fake_busctl(directory: Path, script: str) -> Path:
    """A ``busctl`` that runs ``script`` (sh), first on PATH."""
    directory.mkdir(exist_ok=True)
    program = directory / "busctl"
    program.write_text("#!/bin/sh\n" + script)
    program.chmod(0o755)
    return directory


def test_power_off_asks_logind_without_interaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = tmp_path / "calls"
    monkeypatch.setenv("PATH", str(fake_busctl(tmp_path / "bin", f'echo "$@" > "{calls}"\n')))
    power_off()
    assert calls.read_text().split() == ["call", "--system", "org.freedesktop.login1", "/org/freedesktop/login1",
                                         "org.freedesktop.login1.Manager", "PowerOff", "b", "false"]


def test_a_refusal_is_quoted_with_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    refusal = "Call failed: Interactive authentication required."
    monkeypatch.setenv("PATH", str(fake_busctl(tmp_path / "bin", f'echo "{refusal}" >&2; exit 1\n')))
    with pytest.raises(PowerOffError) as raised:
        power_off()
    assert repr(refusal) in str(raised.value)
    assert power.RULE in str(raised.value)


def test_without_busctl_the_error_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(PowerOffError, match="busctl .* is not installed"):
        power_off()


def test_a_bus_that_never_answers_is_an_error_not_a_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(fake_busctl(tmp_path / "bin", f"exec {shutil.which('sleep')} 60\n")))
    monkeypatch.setattr(power, "TIMEOUT_SECONDS", 0.5)
    with pytest.raises(PowerOffError, match="did not answer"):
        power_off()


@pytest.fixture
def private_bus(tmp_path: Path) -> Iterator[str]:
    """A real dbus-daemon on a socket of its own, with no logind on it; yields its address."""
    assert DBUS_DAEMON is not None
    address = f"unix:path={tmp_path / 'bus'}"
    config = tmp_path / "bus.conf"
    config.write_text(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>{address}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
<allow own="*"/></policy></busconfig>
""")
    daemon = subprocess.Popen([DBUS_DAEMON, "--nofork", "--print-address", f"--config-file={config}"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert daemon.stdout is not None and daemon.stdout.readline().strip().startswith("unix:")
        yield address
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


@pytest.mark.skipif(BUSCTL is None or DBUS_DAEMON is None, reason="needs busctl (systemd) and dbus-daemon (dbus)")
def test_real_busctl_on_a_bus_without_logind_is_refused(private_bus: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", private_bus)
    with pytest.raises(PowerOffError, match="org.freedesktop.login1"):
        power_off()


@pytest.mark.skipif(BUSCTL is None, reason="needs busctl (systemd)")
def test_real_busctl_without_a_system_bus_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", f"unix:path={tmp_path / 'no-bus'}")
    with pytest.raises(PowerOffError, match="systemd-logind did not power off"):
        power_off()
