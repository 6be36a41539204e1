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
