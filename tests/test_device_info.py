"""Version and IP addresses for the System screen, read the way the hardened unit allows."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from pyramid.system.device_info import ip_addresses, software_version

FIB_TRIE = """\
Main:
  +-- 0.0.0.0/0 3 0 5
     |-- 0.0.0.0
        /0 universe UNICAST
     +-- 127.0.0.0/8 2 0 2
        +-- 127.0.0.0/31 1 0 0
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
     +-- 192.168.1.0/24 2 0 2
        |-- 192.168.1.0
           /24 link UNICAST
        |-- 192.168.1.42
           /32 host LOCAL
        |-- 192.168.1.255
           /32 link BROADCAST
     |-- 10.0.0.7
        /32 host LOCAL
Local:
  +-- 0.0.0.0/0 3 0 5
     +-- 192.168.1.0/24 2 0 2
        |-- 192.168.1.42
           /32 host LOCAL
"""

IF_INET6 = """\
fe8000000000000002e04cfffe680001 02 40 20 80     eth0
20010db8000000000000000000000042 03 40 00 00    wlan0
00000000000000000000000000000001 01 80 10 80       lo
"""


def write_proc(root: Path, fib_trie: str | None, if_inet6: str | None) -> Path:
    (root / "net").mkdir(parents=True)
    if fib_trie is not None:
        (root / "net" / "fib_trie").write_text(fib_trie)
    if if_inet6 is not None:
        (root / "net" / "if_inet6").write_text(if_inet6)
    return root


def test_addresses_skip_loopback_broadcast_and_link_local(tmp_path: Path) -> None:
    proc = write_proc(tmp_path, FIB_TRIE, IF_INET6)
    assert ip_addresses(proc) == ["192.168.1.42", "10.0.0.7", "2001:db8::42"]


def test_missing_ipv6_support_leaves_ipv4(tmp_path: Path) -> None:
    proc = write_proc(tmp_path, FIB_TRIE, None)
    assert ip_addresses(proc) == ["192.168.1.42", "10.0.0.7"]


def test_loopback_only_device_has_no_address(tmp_path: Path) -> None:
    proc = write_proc(tmp_path, FIB_TRIE.split("     +-- 192.168.1.0/24")[0], IF_INET6.splitlines()[2] + "\n")
    assert ip_addresses(proc) == []


def test_this_machine_addresses_are_valid_and_not_loopback() -> None:
    for text in ip_addresses():
        address = ipaddress.ip_address(text)
        assert not address.is_loopback


def test_version_is_the_installed_distribution() -> None:
    from importlib import metadata

    assert software_version() == metadata.version("pyramid-console")
