"""``pyramid allow-server``: let the console's unit reach the table server the settings file names.

Why a command of its own, run as root by ``pyramid-table-server.service``: the
console's unit denies every address but the home network's and mDNS
(``IPAddressDeny=any``, enforced by the kernel for its cgroup), and the console,
unprivileged, cannot widen that. This reads the same settings file as the
console, resolves the server's host name, loads a firewall rule for the
console's user (nftables: beyond the home, the server's addresses by TCP on its
port, nothing else) and then adds exactly those addresses to the running unit's
allowance (``systemctl set-property --runtime pyramid.service
IPAddressAllow=…``: a resource-control setting systemd applies to a running
unit, kept under /run until the next boot). systemd filters addresses only; the
rule holds the port, and keeps closed an address an earlier run of this boot
allowed (systemd's runtime allowance only grows: a server whose address changed
leaves its old one there). The console, which tries the server again 1 s
doubling to 30 s, then gets through. Run again at each start of the console
(its unit ``Wants=`` this one: a restart follows changed settings) and by
``pyramid-table-server.timer``, so that a server whose address changes (a Pi at
a friend's home behind dynamic DNS) is followed within 35 minutes.
"""

from __future__ import annotations

import argparse
import ipaddress
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from pyramid.app.settings_file import load_hardware_settings, network_settings
from pyramid.net.addresses import ALLOWED_NETWORKS, MDNS_GROUPS, is_allowed_peer
from pyramid.net.server.account import ServerAccount
from pyramid.options import Options

UNIT = "pyramid.service"
#: The console's user (pyramid.service's ``User=``): the port rule applies to its sockets.
CONSOLE_USER = "pyramid"
#: The nftables table this command owns, whole.
TABLE = "inet pyramid"
#: Resolving at boot may come before the network: tried again every RETRY seconds, WAIT in all.
WAIT, RETRY = 120.0, 2.0

Resolve = Callable[[str, int], list[str]]


def resolve(host: str, port: int) -> list[str]:
    """The host's addresses (IPv4 and IPv6), in the resolver's order, each once."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(entry[4][0]) for entry in found))


def to_allow(server: ServerAccount, lookup: Resolve = resolve, wait: float = WAIT,
             sleep: Callable[[float], None] = time.sleep) -> list[str]:
    """The server's addresses not yet allowed to the console; ``OSError`` when it cannot be resolved
    within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        try:
            addresses = lookup(server.host, server.port)
            break
        except OSError:
            if time.monotonic() + RETRY > deadline:
                raise
            sleep(RETRY)
    return [address for address in addresses if not is_allowed_peer(address)]


def allowance_command(addresses: Sequence[str]) -> list[str]:
    """The systemctl call adding ``addresses`` (each a single host) to the console's allowance."""
    hosts = [str(ipaddress.ip_network(address)) for address in addresses]
    return ["systemctl", "set-property", "--runtime", UNIT, f"IPAddressAllow={' '.join(hosts)}"]


class Endpoint(NamedTuple):
    """Where the console's user may go beyond the home: these addresses, by TCP on this port."""

    addresses: tuple[str, ...]
    port: int


def egress_rules(server: Endpoint | None, user: str = CONSOLE_USER) -> str:
    """The nftables script for ``user``'s sockets: the home networks and mDNS as the console's unit
    allows them, the server's addresses by TCP on its port (if there is a server beyond the home), and
    nothing else. It replaces the table whole, in one transaction (``nft -f``): declaring the table
    first makes deleting it safe when it is not there."""
    home = [*ALLOWED_NETWORKS, *MDNS_GROUPS]
    parsed = [ipaddress.ip_address(address) for address in server.addresses] if server else []
    rules = []
    for family, version in (("ip", 4), ("ip6", 6)):
        owner = f'meta skuid "{user}" {family} daddr'
        chosen = [str(address) for address in parsed if address.version == version]
        if chosen and server:
            rules.append(f"\t\t{owner} {{ {', '.join(chosen)} }} tcp dport {server.port} accept")
        at_home = ", ".join(str(network) for network in home if network.version == version)
        rules.append(f"\t\t{owner} != {{ {at_home} }} reject")
    return (f"table {TABLE}\ndelete table {TABLE}\ntable {TABLE} {{\n\tchain console_egress {{\n"
            "\t\ttype filter hook output priority filter; policy accept;\n"
            + "\n".join(rules) + "\n\t}\n}\n")


def load_rules(script: str) -> str | None:
    """Load an nftables script; the reason it failed, or ``None``."""
    if shutil.which("nft") is None:
        return "nft not found: install nftables (firmware/install.sh does)"
    done = subprocess.run(["nft", "-f", "-"], input=script, capture_output=True, text=True, check=False)
    said = " / ".join(line.strip() for line in done.stderr.splitlines() if line.strip())
    return None if done.returncode == 0 else f"nft -f: {said or done.returncode}"


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="pyramid allow-server", description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--settings", metavar="FILE", help="the settings file (default: the console's)")
    parser.add_argument("--wait", type=float, default=WAIT, metavar="S",
                        help=f"seconds to keep trying to resolve the server (default {WAIT:g})")
    parser.add_argument("--console-user", default=CONSOLE_USER, metavar="NAME",
                        help=f"the user the console runs as, whose sockets the rule holds (default {CONSOLE_USER})")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the nftables script and the systemctl call instead of running them")
    args = parser.parse_args(argv)
    server = network_settings(load_hardware_settings(Options(settings=args.settings))).server
    if server is None:
        print("pyramid allow-server: no table server in the settings file: nothing to allow")
        return stay_at_home(args.console_user, args.dry_run)
    try:
        addresses = to_allow(server, wait=args.wait)
    except OSError as error:
        print(f"pyramid allow-server: cannot resolve {server.host}: {error}", file=sys.stderr)
        return 1
    if not addresses:
        print(f"pyramid allow-server: {server.address} is on the home network, already allowed")
        return stay_at_home(args.console_user, args.dry_run)
    script = egress_rules(Endpoint(tuple(addresses), server.port), args.console_user)
    command = allowance_command(addresses)
    if args.dry_run:
        print(script + " ".join(command))
        return 0
    failed = load_rules(script)
    if failed is not None:
        print(f"pyramid allow-server: the port rule for {server.address}: {failed}; nothing allowed", file=sys.stderr)
        return 1
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"pyramid allow-server: {' '.join(command)}: {done.stderr.strip() or done.returncode}", file=sys.stderr)
        return 1
    print(f"pyramid allow-server: {UNIT} may reach {server.address} at {', '.join(addresses)}, "
          f"TCP port {server.port} only")
    return 0


def stay_at_home(user: str, dry_run: bool) -> int:
    """No server beyond the home: the rule keeps the console's user at home, closing what an earlier run
    of this boot allowed. Without nftables there is nothing to close (nothing is allowed without it)."""
    script = egress_rules(None, user)
    if dry_run:
        print(script, end="")
        return 0
    failed = None if shutil.which("nft") is None else load_rules(script)
    if failed is not None:
        print(f"pyramid allow-server: the rule keeping the console at home: {failed}", file=sys.stderr)
        return 1
    return 0
