"""``pyramid allow-server``: let the console's unit reach the table server the settings file names.

Why a command of its own, run as root by ``pyramid-table-server.service``: the
console's unit denies every address but the home network's and mDNS
(``IPAddressDeny=any``, enforced by the kernel for its cgroup), and the console,
unprivileged, cannot widen that. This reads the same settings file as the
console, resolves the server's host name, and adds exactly its addresses to the
running unit's allowance (``systemctl set-property --runtime pyramid.service
IPAddressAllow=…``: a resource-control setting systemd applies to a running
unit, kept under /run until the next boot). The console, which tries the server
again 1 s doubling to 30 s, then gets through; nothing else beyond the home
does. With no server set it does nothing. Addresses already allowed (the home
network's) are left out.

systemd filters addresses only, not ports: the port is the console's own (it
connects to the configured one alone); docs/network.md says so.
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

from pyramid.app.settings_file import load_hardware_settings, network_settings
from pyramid.net.addresses import is_allowed_peer
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


#: The nftables script that withdraws the port rule: declaring the table first makes deleting it safe
#: when it is not there (``nft -f`` applies a script as one transaction).
WITHDRAW = f"table {TABLE}\ndelete table {TABLE}\n"


def port_rules(addresses: Sequence[str], port: int, user: str = CONSOLE_USER) -> str:
    """The nftables script that lets ``user``'s sockets reach ``addresses`` by TCP on ``port`` only,
    replacing the table whole and atomically."""
    parsed = [ipaddress.ip_address(address) for address in addresses]
    rules = []
    for family, version in (("ip", 4), ("ip6", 6)):
        chosen = [str(address) for address in parsed if address.version == version]
        if chosen:
            where = f'meta skuid "{user}" {family} daddr {{ {", ".join(chosen)} }}'
            rules += [f"\t\t{where} tcp dport {port} accept", f"\t\t{where} reject"]
    return (WITHDRAW + f"table {TABLE} {{\n\tchain console_egress {{\n"
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
                        help=f"the user the console runs as, whose sockets the port rule holds (default {CONSOLE_USER})")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the nftables script and the systemctl call instead of running them")
    args = parser.parse_args(argv)
    server = network_settings(load_hardware_settings(Options(settings=args.settings))).server
    if server is None:
        print("pyramid allow-server: no table server in the settings file: nothing to allow")
        return withdraw_rules(args.dry_run)
    try:
        addresses = to_allow(server, wait=args.wait)
    except OSError as error:
        print(f"pyramid allow-server: cannot resolve {server.host}: {error}", file=sys.stderr)
        return 1
    if not addresses:
        print(f"pyramid allow-server: {server.address} is on the home network, already allowed")
        return withdraw_rules(args.dry_run)
    script, command = port_rules(addresses, server.port, args.console_user), allowance_command(addresses)
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


def withdraw_rules(dry_run: bool) -> int:
    """No server beyond the home: an earlier port rule goes (a machine without nftables never had one)."""
    if dry_run:
        print(WITHDRAW, end="")
        return 0
    failed = None if shutil.which("nft") is None else load_rules(WITHDRAW)
    if failed is not None:
        print(f"pyramid allow-server: withdrawing the port rule: {failed}", file=sys.stderr)
        return 1
    return 0
