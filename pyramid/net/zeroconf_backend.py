"""The python-zeroconf backend, for hosts where no avahi-daemon owns mDNS.

It runs on the network thread's own event loop (``AsyncZeroconf``), IPv4 only
(the home networks a console meets), on the interfaces with a home-network
address (private or link-local: the only ones a peer is served from) and on
loopback. The table is published at the home-network addresses, or at
127.0.0.1 when the host has none: then the announcement never leaves the host,
and consoles on the same machine still meet (issue 29: on a machine whose only
address was outside the home ranges, the table went out with no address at all,
which no browser could resolve, and two consoles there never saw each other).
A table announced at several addresses is joined at the first that is not
loopback. python-zeroconf re-queries with growing intervals (up to an hour)
and keeps a cache, so an idle browser costs no CPU to speak of. Received
announcements are resolved and checked by :meth:`TableAd.from_txt`.
"""

from __future__ import annotations

import asyncio
import ipaddress

import ifaddr
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from pyramid.net.addresses import is_allowed_peer
from pyramid.net.advert import SERVICE_TYPE, TableAd
from pyramid.net.context import NetContext, log
from pyramid.net.errors import ProtocolError
from pyramid.net.events import TableGone, TableSeen

FULL_TYPE = f"{SERVICE_TYPE}.local."
#: How long one resolution of a found service may take, in milliseconds.
RESOLVE_MS = 3000


LOOPBACK = "127.0.0.1"


def lan_addresses() -> list[str]:
    """This host's IPv4 addresses that peers may come from: private or link-local, not loopback."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and is_allowed_peer(ip.ip) and not ipaddress.ip_address(ip.ip).is_loopback:
                found.append(ip.ip)
    return found


class ZeroconfBackend:
    name = "zeroconf"

    def __init__(self, context: NetContext) -> None:
        self.context = context
        self._zeroconf = AsyncZeroconf(interfaces=[*lan_addresses(), LOOPBACK], ip_version=IPVersion.V4Only)
        self._info: AsyncServiceInfo | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: set[str] = set()

    async def publish(self, ad: TableAd, instance: str) -> None:
        info = AsyncServiceInfo(
            FULL_TYPE, f"{instance}.{FULL_TYPE}", port=ad.port, properties=ad.txt(),
            parsed_addresses=lan_addresses() or [LOOPBACK],
        )
        if self._info is not None and self._info.name == info.name:
            info.set_server_if_missing()  # as registering does; updating does not, and refuses an info without one
            await self._zeroconf.async_update_service(info)
        else:
            await self.unpublish()
            await self._zeroconf.async_register_service(info, allow_name_change=True)
        self._info = info

    async def unpublish(self) -> None:
        info, self._info = self._info, None
        if info is not None:
            await self._zeroconf.async_unregister_service(info)

    async def browse(self) -> None:
        if self._browser is None:
            self._browser = AsyncServiceBrowser(self._zeroconf.zeroconf, [FULL_TYPE], handlers=[self._on_change])

    def _on_change(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            if name in self._seen:
                self._seen.discard(name)
                self.context.emit(TableGone(_instance(name)))
            return
        task = asyncio.ensure_future(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        info = AsyncServiceInfo(FULL_TYPE, name)
        if not await info.async_request(self._zeroconf.zeroconf, RESOLVE_MS):
            log.info("could not resolve the announced table %r", name[:100])
            return
        addresses = sorted(info.parsed_addresses(IPVersion.V4Only), key=lambda address: address.startswith("127."))
        if not addresses or info.port is None:
            return
        txt = {
            key.decode("utf-8", "replace"): (value or b"").decode("utf-8", "replace")
            for key, value in info.properties.items()
        }
        try:
            ad = TableAd.from_txt(_instance(name), addresses[0], info.port, txt)
        except ProtocolError as error:
            log.info("ignored an announcement: %s", error)
            return
        self._seen.add(name)
        self.context.emit(TableSeen(ad))

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        await self.unpublish()
        for task in list(self._tasks):
            task.cancel()
        await self._zeroconf.async_close()


def _instance(name: str) -> str:
    """The instance part of a full service name (what avahi calls the service's name)."""
    return name[: -len(FULL_TYPE) - 1] if name.endswith("." + FULL_TYPE) else name
