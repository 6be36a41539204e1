"""What the console's network menu asks of discovery that the net tests did not: a console announced in
its network menu then opening a table (the same DNS-SD instance, updated), and no IPv4 interface.

Both were defects found while wiring the console: python-zeroconf refuses to
update a service whose new ``ServiceInfo`` has no server (registering sets
one, updating does not), and it raises ``RuntimeError`` when no interface has
an IPv4 address (a console whose Wi-Fi is not up yet). No socket is opened
here: the zeroconf object is a stand-in that checks what it is given.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pyramid.net import zeroconf_backend
from pyramid.net.advert import TableAd
from pyramid.net.context import NetContext
from pyramid.net.discovery import Discovery
from pyramid.net.events import DiscoveryFailed


class StandInZeroconf:
    """Checks services as python-zeroconf 0.154 does: an update needs a server, as a registration gets one."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    async def async_register_service(self, info: Any, allow_name_change: bool = False) -> None:
        info.set_server_if_missing()
        self.calls.append(("register", info))

    async def async_update_service(self, info: Any) -> None:
        assert info.server, "ServiceInfo must have a server"
        self.calls.append(("update", info))

    async def async_unregister_service(self, info: Any) -> None:
        self.calls.append(("unregister", info))


def test_the_lobby_announcement_becomes_the_table_announcement() -> None:
    backend = zeroconf_backend.ZeroconfBackend.__new__(zeroconf_backend.ZeroconfBackend)
    stand_in = StandInZeroconf()
    backend._zeroconf = stand_in  # type: ignore[assignment]
    backend._info = None
    lobby = TableAd.lobby("Ann", 47312, 1)
    table = TableAd("Ann", "", 47312, 16, "good", 1, 1)

    async def announce() -> None:
        await backend.publish(lobby, "Ann (pi)")
        await backend.publish(table, "Ann (pi)")

    asyncio.run(announce())
    assert [kind for kind, _ in stand_in.calls] == ["register", "update"]
    updated = stand_in.calls[1][1]
    assert updated.server == stand_in.calls[0][1].server
    assert updated.properties[b"match"] == b"16"


def test_no_ipv4_interface_is_a_discovery_failure_not_a_silent_one(monkeypatch: Any) -> None:
    def no_interface(**_: object) -> None:
        raise RuntimeError("No interfaces to listen on, check that any interfaces have IP version IPVersion.V4Only")

    monkeypatch.setattr(zeroconf_backend, "AsyncZeroconf", no_interface)
    posted: list[object] = []
    discovery = Discovery(NetContext("Ann", posted.append), "zeroconf")
    asyncio.run(discovery.browse())
    assert len(posted) == 1 and isinstance(posted[0], DiscoveryFailed)
    assert posted[0].backend == "zeroconf" and "No interfaces" in posted[0].detail


def test_leaving_the_network_menu_ends_the_network_thread_quietly(tmp_path) -> None:
    """Nothing is left running at exit: no "Task was destroyed but it is pending" in the log."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYRAMID_DATA_DIR": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "pyramid", "--display", "headless", "--size", "320x240",
                             "--script", "down down down down ok down down down down ok", "--dump-state",
                             str(tmp_path / "state.json")], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert '"screen": "network_menu"' in (tmp_path / "state.json").read_text()
    assert "destroyed" not in result.stderr and "Traceback" not in result.stderr, result.stderr
