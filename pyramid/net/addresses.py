"""Which peers a console talks to: loopback, link-local and private networks only (issues 12, 26).

Checked on every accepted connection before a byte is read, on every address
an announcement gives (a table elsewhere is never listed) and before every
connection this console opens (joins by address or from an invite, invites). An explicit list
rather than :attr:`ipaddress.IPv4Address.is_private`, whose meaning shifts
between Python versions (it covers documentation and benchmark ranges too).
IPv4 addresses mapped into IPv6 (``::ffff:10.0.0.2``, as a dual-stack socket
reports them) are judged as the IPv4 address they carry.
"""

from __future__ import annotations

import ipaddress
from typing import Final

ALLOWED_NETWORKS: Final = tuple(
    ipaddress.ip_network(text)
    for text in (
        "127.0.0.0/8", "::1/128",  # loopback
        "169.254.0.0/16", "fe80::/10",  # link-local
        "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",  # RFC 1918
        "fc00::/7",  # unique local addresses
    )
)

#: The mDNS multicast groups (RFC 6762, IPv4 and IPv6): discovery's, allowed beside the home networks.
MDNS_GROUPS: Final = (ipaddress.ip_network("224.0.0.251/32"), ipaddress.ip_network("ff02::fb/128"))


def is_allowed_peer(host: str) -> bool:
    """Whether a connection from ``host`` (as the socket reports it) may be served."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in ALLOWED_NETWORKS)


class OutsideHomeNetwork(OSError):
    """A connection this console was asked to open to an address :func:`is_allowed_peer` refuses."""

    def __init__(self, host: str) -> None:
        super().__init__(f"{host[:80]!r} is not a loopback, link-local or private address")
