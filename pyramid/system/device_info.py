"""What the System screen tells the owner: the software version and where to SSH.

The addresses come from ``/proc/net`` rather than from sockets or netlink: the
unit allows the families the tables need (``RestrictAddressFamilies=AF_UNIX
AF_NETLINK AF_INET AF_INET6``, systemd/pyramid.service), but the System page
needs no socket at all, and ``/proc/net`` shows the host's addresses as long as
the unit keeps the host network namespace (it does: no ``PrivateNetwork=``).
Reading text files also keeps this free of ioctls and platform-specific structures.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

DISTRIBUTION = "pyramid-console"
"""The name the console is installed under (pyproject.toml's ``[project] name``)."""


def software_version() -> str:
    """The installed console's version, e.g. ``"0.1.0"``.

    ``"unknown"`` when the code runs from a source tree that was never installed,
    so the System screen still has something honest to show.
    """
    from importlib import metadata  # 20 ms of imports: paid only when the version is shown

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def ip_addresses(proc: Path = Path("/proc")) -> list[str]:
    """The device's IPv4 then IPv6 addresses an owner could SSH to, in kernel order.

    Loopback addresses are left out, and so are IPv6 link-local ones: those need
    the *client's* interface as a zone (``fe80::1%eth0``), which the device
    cannot know. An address family the kernel does not offer is simply absent.
    """
    return _ipv4_addresses(proc / "net" / "fib_trie") + _ipv6_addresses(proc / "net" / "if_inet6")


def _ipv4_addresses(fib_trie: Path) -> list[str]:
    """Local host routes (``/32 host LOCAL``) of the routing trie are the addresses.

    In the trie each ``|-- ADDRESS`` line is followed by its route lines; the
    same address appears under both the Main and the Local table.
    """
    try:
        lines = fib_trie.read_text().splitlines()
    except FileNotFoundError:
        return []
    found: list[str] = []
    for previous, line in zip(lines, lines[1:]):
        if line.split() != ["/32", "host", "LOCAL"] or "|--" not in previous:
            continue
        address = ipaddress.IPv4Address(previous.split("|--")[1].strip())
        if not address.is_loopback and str(address) not in found:
            found.append(str(address))
    return found


def _ipv6_addresses(if_inet6: Path) -> list[str]:
    """Each line: 32 hex digits of address, index, prefix length, scope, flags, name."""
    try:
        lines = if_inet6.read_text().splitlines()
    except FileNotFoundError:
        return []
    found: list[str] = []
    for line in lines:
        fields = line.split()
        if not fields:
            continue
        address = ipaddress.IPv6Address(int(fields[0], 16))
        if not (address.is_loopback or address.is_link_local) and str(address) not in found:
            found.append(str(address))
    return found
