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

from pyramid.net.addresses import ALLOWED_NETWORKS, MDNS_GROUPS, is_allowed_peer
from pyramid.net.limits import DEFAULT_PORT
from pyramid.net.settings import LOWEST_PORT

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "pyramid.service"
MAX_EXPOSURE = 1.5


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
    assert {str(group) for group in MDNS_GROUPS} == {"224.0.0.251/32", "ff02::fb/128"}  # RFC 6762, section 3
    assert allowed() == set(ALLOWED_NETWORKS) | set(MDNS_GROUPS)
    for network in allowed() - set(MDNS_GROUPS):
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


def allow_server(tmp_path: Path, server: str | None, *args: str, nft_fails: bool = False,
                 without_nft: bool = False) -> subprocess.CompletedProcess[str]:
    """``pyramid allow-server`` with a settings file naming ``server``, and a ``systemctl`` and an ``nft``
    on PATH that record their calls in ``calls`` (nft its script in ``nft.script``) — the seam: the real
    ones would change this machine's units and firewall."""
    import os
    import sys

    settings = tmp_path / "pyramid.toml"
    settings.write_text("" if server is None else
                        f'[network]\nserver = "{server}"\nuser = "ann"\npassword_file = "/etc/pyramid/server/password"\n')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    recorders = {
        "systemctl": f'printf "%s\\n" "$@" > "{tmp_path}/systemctl.args"\n',
        "nft": f'cat > "{tmp_path}/nft.script"\n'
               + ('echo "Error: Could not process rule: Operation not permitted" >&2\nexit 1\n' if nft_fails else ""),
    }
    for name, body in recorders.items():
        if name == "nft" and without_nft:
            continue
        (bin_dir / name).write_text(f'#!/bin/sh\necho {name} >> "{tmp_path}/calls"\n{body}')
        (bin_dir / name).chmod(0o755)
    return subprocess.run([sys.executable, "-m", "pyramid", "allow-server", "--settings", str(settings), *args],
                          capture_output=True, text=True, timeout=60, check=False, cwd=UNIT.parents[1],
                          env={**os.environ, "PATH": str(bin_dir) if without_nft else f"{bin_dir}:{os.environ['PATH']}"})


def calls(tmp_path: Path) -> list[str]:
    recorded = tmp_path / "calls"
    return recorded.read_text().split() if recorded.exists() else []


def test_the_servers_address_and_port_and_nothing_else_are_allowed_to_the_running_console(tmp_path: Path) -> None:
    done = allow_server(tmp_path, "mqtts://192.0.2.10:8883")
    assert done.returncode == 0, done.stderr
    assert calls(tmp_path) == ["nft", "systemctl"], "the port rule is in place before the address is allowed"
    assert (tmp_path / "systemctl.args").read_text().split("\n")[:-1] == [
        "set-property", "--runtime", "pyramid.service", "IPAddressAllow=192.0.2.10/32"]
    script = (tmp_path / "nft.script").read_text()
    assert 'meta skuid "pyramid" ip daddr { 192.0.2.10 } tcp dport 8883 accept' in script
    assert 'meta skuid "pyramid" ip daddr != { 127.0.0.0/8, ' in script, "beyond the home, nothing else"
    assert script.startswith("table inet pyramid\ndelete table inet pyramid\n"), "replaced whole"
    assert "192.0.2.10" in done.stdout and "TCP port 8883 only" in done.stdout


def test_a_port_rule_that_cannot_be_loaded_widens_nothing(tmp_path: Path) -> None:
    done = allow_server(tmp_path, "mqtts://192.0.2.10:8883", nft_fails=True)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1
    assert "Operation not permitted" in done.stderr and "nothing allowed" in done.stderr
    assert calls(tmp_path) == ["nft"]


def test_without_nftables_the_server_is_not_allowed_and_the_journal_says_what_to_install(tmp_path: Path) -> None:
    done = allow_server(tmp_path, "mqtts://192.0.2.10:8883", without_nft=True)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1
    assert "install nftables" in done.stderr and calls(tmp_path) == []
    assert allow_server(tmp_path, None, without_nft=True).returncode == 0, "nothing to close where nothing was allowed"


@pytest.mark.parametrize("server, says", [
    (None, "no table server"),
    ("mqtts://127.0.0.1:8883", "already allowed"),
    ("mqtts://192.168.1.5", "already allowed"),
])
def test_no_server_or_one_at_home_allows_nothing_and_keeps_the_console_at_home(tmp_path: Path, server: str | None,
                                                                              says: str) -> None:
    done = allow_server(tmp_path, server)
    assert done.returncode == 0 and says in done.stdout
    assert calls(tmp_path) == ["nft"], "no address allowed"
    script = (tmp_path / "nft.script").read_text()
    assert script.startswith("table inet pyramid\ndelete table inet pyramid\n") and "dport" not in script
    assert 'meta skuid "pyramid" ip daddr != { 127.0.0.0/8, ' in script


def test_a_server_that_cannot_be_resolved_is_one_line_and_a_failure(tmp_path: Path) -> None:
    done = allow_server(tmp_path, "mqtts://tables.invalid", "--wait", "0")
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1
    assert "cannot resolve tables.invalid" in done.stderr
    assert calls(tmp_path) == []


#: Run as root in a network namespace of its own: the server's addresses, an address an earlier run
#: allowed (the server's before it moved) and a home address on loopback, each with listeners on the
#: server's port and another; the rule loaded by the real nft, then a connection to each from a process
#: of the console's user (here ``nobody``) and from root.
PORT_PROBE = """import encodings.idna, json, os, socket, subprocess, sys, time  # idna: before the user who cannot read it
hosts = sys.argv[2:]
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
for host in hosts:
    subprocess.run(["ip", "addr", "add", host + ("/128" if ":" in host else "/32"), "dev", "lo"], check=True)
# The kernel clears an IPv6 address's "tentative" mark from a work queue, even on lo, and bind refuses
# a tentative address: wait for it (a loaded machine ran late here once).
for _ in range(200):
    if not subprocess.run(["ip", "-6", "-o", "addr", "show", "tentative"], capture_output=True, text=True,
                          check=True).stdout.strip():
        break
    time.sleep(0.05)
listeners = [socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
             for host in hosts for port in (8883, 8884)]
subprocess.run(["nft", "-f", sys.argv[1]], check=True)
def attempts():
    seen = {}
    for host in hosts:
        for port in (8883, 8884):
            try:
                socket.create_connection((host, port), timeout=2).close()
                seen[f"{host} {port}"] = "connected"
            except OSError as error:
                seen[f"{host} {port}"] = type(error).__name__
    return seen
reader, writer = os.pipe()
child = os.fork()
if child == 0:
    os.setgid(65534)
    os.setuid(65534)
    os.write(writer, json.dumps(attempts()).encode())
    os._exit(0)
os.close(writer)
os.waitpid(child, 0)
print(json.dumps({"console": json.loads(os.read(reader, 65536)), "root": attempts()}))
"""
SERVER = ("198.18.0.1", "2001:db8::1")
FORMER_SERVER = ("198.18.0.2", "2001:db8::2")
HOME = ("192.168.77.1", "fd00::77")


def probe(tmp_path: Path, script: str) -> dict[str, dict[str, str]]:
    """What the console's user and root reach, in a network namespace with ``script`` loaded."""
    import json
    import sys

    (tmp_path / "rules.nft").write_text(script)
    (tmp_path / "probe.py").write_text(PORT_PROBE)
    done = subprocess.run(["unshare", "--net", sys.executable, str(tmp_path / "probe.py"), str(tmp_path / "rules.nft"),
                           *SERVER, *FORMER_SERVER, *HOME], capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0 and "Operation not permitted" in done.stderr:
        pytest.skip(f"no network namespace here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    seen: dict[str, dict[str, str]] = json.loads(done.stdout)
    assert set(seen["root"].values()) == {"connected"}, "only the console's user is held"
    return seen


def reached(seen: dict[str, dict[str, str]], hosts: tuple[str, ...]) -> dict[str, str]:
    return {target: outcome for target, outcome in seen["console"].items() if target.split()[0] in hosts}


REFUSED = "ConnectionRefusedError"
needs_nft = pytest.mark.skipif(shutil.which("nft") is None or shutil.which("unshare") is None,
                               reason="needs nft and unshare: apt-get install nftables")


@needs_nft
def test_the_rule_lets_the_consoles_user_reach_the_server_on_its_port_only(tmp_path: Path) -> None:
    """The script ``pyramid allow-server`` loads, in the real kernel (a network namespace this test
    makes): the console's user reaches the server on its port only, IPv4 and IPv6, the home on any
    port, and not an address an earlier run allowed (systemd's allowance keeps it until the next boot)."""
    from pyramid.app.server_allowance import Endpoint, egress_rules

    seen = probe(tmp_path, egress_rules(Endpoint(SERVER, 8883), user="nobody"))
    assert reached(seen, SERVER) == {"198.18.0.1 8883": "connected", "198.18.0.1 8884": REFUSED,
                                     "2001:db8::1 8883": "connected", "2001:db8::1 8884": REFUSED}
    assert set(reached(seen, FORMER_SERVER).values()) == {REFUSED}
    assert set(reached(seen, HOME).values()) == {"connected"}


@needs_nft
def test_with_no_server_the_rule_keeps_the_consoles_user_at_home(tmp_path: Path) -> None:
    from pyramid.app.server_allowance import egress_rules

    seen = probe(tmp_path, egress_rules(None, user="nobody"))
    assert set(reached(seen, SERVER + FORMER_SERVER).values()) == {REFUSED}
    assert set(reached(seen, HOME).values()) == {"connected"}


def test_the_allowance_unit_runs_the_command_as_a_confined_root_oneshot() -> None:
    text = SERVER_UNIT.read_text()
    assert "ExecStart=/opt/pyramid/current/bin/pyramid allow-server\n" in text
    assert "Type=oneshot" in text and "CapabilityBoundingSet=CAP_NET_ADMIN\n" in text and "User=" not in text
    assert "Before=pyramid.service" not in text, "the console starts at once; it reaches the server once allowed"
    assert "IPAddressDeny=any\n" in text, "its resolver is at home, as the console's"


def test_a_timer_runs_the_allowance_again_to_follow_a_server_that_moves() -> None:
    timer = SERVER_UNIT.with_suffix(".timer").read_text()
    assert "OnUnitActiveSec=30min\n" in timer and "WantedBy=timers.target\n" in timer
    assert "RemainAfterExit" not in SERVER_UNIT.read_text(), "a oneshot that stays active is not started again"
