"""The console unit's network allowances (issue 12): exactly what the tables need, and still hardened.

The tables need TCP on the home network and mDNS; the unit allows the address
families for that, and only the addresses the network layer serves
(``pyramid/net/addresses.py``) plus the mDNS group, with ``IPAddressDeny=any``
as the default. ``systemd-analyze security`` must still rate it at most 1.5.
"""

from __future__ import annotations

import ipaddress
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pyramid.net.addresses import ALLOWED_NETWORKS, is_allowed_peer
from pyramid.net.limits import DEFAULT_PORT
from pyramid.net.settings import LOWEST_PORT

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "pyramid.service"
MAX_EXPOSURE = 1.5
#: The mDNS multicast groups (RFC 6762), IPv4 and IPv6.
MDNS_GROUPS = {ipaddress.ip_network("224.0.0.251/32"), ipaddress.ip_network("ff02::fb/128")}


def settings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def allowed() -> set[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return {ipaddress.ip_network(entry) for value in settings()["IPAddressAllow"] for entry in value.split()}


def test_only_the_families_the_tables_need() -> None:
    families = settings()["RestrictAddressFamilies"]
    assert len(families) == 1 and set(families[0].split()) == {"AF_UNIX", "AF_NETLINK", "AF_INET", "AF_INET6"}
    assert "PrivateNetwork" not in settings()


def test_every_address_is_denied_but_those_a_table_serves_and_the_mdns_group() -> None:
    assert settings()["IPAddressDeny"] == ["any"]
    assert allowed() == set(ALLOWED_NETWORKS) | MDNS_GROUPS
    for network in allowed() - MDNS_GROUPS:
        assert is_allowed_peer(str(network.network_address))
    for outside in ("8.8.8.8", "100.64.0.1", "2001:db8::1", "2a00:1450::1", "224.0.0.1"):
        assert not any(ipaddress.ip_address(outside) in network for network in allowed())


def test_the_default_port_needs_no_privilege() -> None:
    """The unit drops every capability, so a table listens above the privileged ports."""
    assert settings()["CapabilityBoundingSet"] == [""]
    assert DEFAULT_PORT >= LOWEST_PORT


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze (installed by .ci/run)")
def test_exposure_stays_at_most_one_and_a_half() -> None:
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager", str(UNIT)],
                            capture_output=True, text=True, check=False)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    level = float(match.group(1))
    print(f"\nsystemd-analyze security --offline=yes pyramid.service with the network: exposure {level}")
    assert level <= MAX_EXPOSURE
    assert re.search(r"✓ RestrictAddressFamilies=~AF_PACKET ", result.stdout)  # raw packets stay refused


# -- the table server's allowance (issue 30) -------------------------------------------------------
SERVER_UNIT = UNIT.parent / "pyramid-table-server.service"


def allow_server(tmp_path: Path, server: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    """``pyramid allow-server`` with a settings file naming ``server``, and a ``systemctl`` on PATH
    that records its arguments (the seam: the real one would change this machine's units)."""
    import os
    import sys

    settings = tmp_path / "pyramid.toml"
    settings.write_text("" if server is None else
                        f'[network]\nserver = "{server}"\nuser = "ann"\npassword_file = "/etc/pyramid/server/password"\n')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "systemctl"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{tmp_path}/systemctl.args"\n')
    fake.chmod(0o755)
    return subprocess.run([sys.executable, "-m", "pyramid", "allow-server", "--settings", str(settings), *args],
                          capture_output=True, text=True, timeout=60, cwd=UNIT.parents[1],
                          env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"})


def test_the_servers_address_and_nothing_else_is_added_to_the_running_consoles_allowance(tmp_path: Path) -> None:
    done = allow_server(tmp_path, "mqtts://192.0.2.10:8883")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "systemctl.args").read_text().split("\n")[:-1] == [
        "set-property", "--runtime", "pyramid.service", "IPAddressAllow=192.0.2.10/32"]
    assert "192.0.2.10" in done.stdout


@pytest.mark.parametrize("server, says", [
    (None, "no table server"),
    ("mqtts://127.0.0.1:8883", "already allowed"),
    ("mqtts://192.168.1.5", "already allowed"),
])
def test_no_server_or_one_at_home_changes_nothing(tmp_path: Path, server: str | None, says: str) -> None:
    done = allow_server(tmp_path, server)
    assert done.returncode == 0 and says in done.stdout
    assert not (tmp_path / "systemctl.args").exists()


def test_a_server_that_cannot_be_resolved_is_one_line_and_a_failure(tmp_path: Path) -> None:
    done = allow_server(tmp_path, "mqtts://tables.invalid", "--wait", "0")
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1
    assert "cannot resolve tables.invalid" in done.stderr
    assert not (tmp_path / "systemctl.args").exists()


def test_the_allowance_unit_runs_the_command_as_a_confined_root_oneshot() -> None:
    text = SERVER_UNIT.read_text()
    assert "ExecStart=/opt/pyramid/current/bin/pyramid allow-server\n" in text
    assert "Type=oneshot" in text and "CapabilityBoundingSet=\n" in text and "User=" not in text
    assert "Before=pyramid.service" not in text, "the console starts at once; it reaches the server once allowed"
