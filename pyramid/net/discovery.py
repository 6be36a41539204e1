"""Finding tables: DNS-SD over mDNS, through avahi when it runs, python-zeroconf otherwise.

Why two backends, chosen explicitly: Raspberry Pi OS runs avahi-daemon, which
owns UDP 5353; a second mDNS responder beside it (python-zeroconf's) makes both
unreliable (avahi logs "Detected another IPv4 mDNS stack"). So when avahi is on
the system bus this console publishes and browses through avahi's own client
tools (``avahi-publish``, ``avahi-browse``, package avahi-utils: the documented,
stable interface, run as subprocesses of the network thread's event loop, with
arguments as a list and never through a shell); when it is not,
python-zeroconf's asyncio API runs on the network thread's loop. The choice
(``"auto"``, or forced with ``"avahi"``/``"zeroconf"``) is made once and
reported with :class:`~pyramid.net.events.DiscoveryStarted`; a backend that
fails is reported with :class:`~pyramid.net.events.DiscoveryFailed` and never
replaced silently by the other.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
from typing import Literal, Protocol

from pyramid.net.advert import TableAd
from pyramid.net.context import NetContext, log
from pyramid.net.events import DiscoveryFailed, DiscoveryStarted

DiscoveryChoice = Literal["auto", "avahi", "zeroconf", "off"]
AVAHI_NAME = "org.freedesktop.Avahi"


class Backend(Protocol):
    name: str

    async def publish(self, ad: TableAd, instance: str) -> None: ...
    async def unpublish(self) -> None: ...
    async def browse(self) -> None: ...
    async def close(self) -> None: ...


#: Where the D-Bus system bus listens unless ``DBUS_SYSTEM_BUS_ADDRESS`` says otherwise.
SYSTEM_BUS = "unix:path=/run/dbus/system_bus_socket"


async def avahi_running() -> tuple[bool, str]:
    """Whether avahi-daemon owns its name on the system bus, and how that was found out."""
    dbus_send = shutil.which("dbus-send")
    if dbus_send is None:
        return False, "dbus-send is not installed, so no avahi-daemon can be reached"
    address = os.environ.get("DBUS_SYSTEM_BUS_ADDRESS", SYSTEM_BUS)
    if address.startswith("unix:path=") and not os.path.exists(address[len("unix:path="):].split(",")[0]):
        return False, "there is no D-Bus system bus"  # known without starting dbus-send
    process = await asyncio.create_subprocess_exec(
        dbus_send, "--system", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus.NameHasOwner", f"string:{AVAHI_NAME}",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    output, _ = await process.communicate()
    if process.returncode != 0:
        return False, "there is no D-Bus system bus"
    if b"boolean true" in output:
        return True, "avahi-daemon runs (it owns mDNS on this host)"
    return False, "avahi-daemon is not running"


def instance_name(player: str) -> str:
    """The DNS-SD instance name: the player and the machine, at most 63 bytes (one DNS label)."""
    text = f"{player} ({socket.gethostname()})"
    while len(text.encode("utf-8")) > 63:
        text = text[:-1]
    return text


class Discovery:
    """Publishes this console's table and browses for the others, through one chosen backend."""

    def __init__(self, context: NetContext, choice: DiscoveryChoice) -> None:
        self.context, self.choice = context, choice
        self._backend: Backend | None = None
        self._failed = False
        self._lock = asyncio.Lock()

    async def _ready(self) -> Backend | None:
        async with self._lock:
            if self._backend is None and not self._failed:
                self._backend = await self._choose()
            return self._backend

    async def _choose(self) -> Backend | None:
        choice, why = self.choice, "it was chosen"
        if choice == "auto":
            running, why = await avahi_running()
            choice = "avahi" if running else "zeroconf"
        try:
            backend: Backend
            if choice == "avahi":
                from pyramid.net.avahi import AvahiBackend

                backend = AvahiBackend(self.context)
            else:
                from pyramid.net.zeroconf_backend import ZeroconfBackend

                backend = ZeroconfBackend(self.context)
        except (OSError, ImportError, RuntimeError) as error:  # RuntimeError: zeroconf finds no IPv4 interface
            self._failed = True
            self.context.emit(DiscoveryFailed(choice, str(error)))
            return None
        log.info("discovery through %s: %s", choice, why)
        self.context.emit(DiscoveryStarted(choice, why))
        return backend

    async def publish(self, ad: TableAd) -> None:
        backend = await self._ready()
        if backend is not None:
            await backend.publish(ad, instance_name(self.context.name))

    async def unpublish(self) -> None:
        if self._backend is not None:
            await self._backend.unpublish()

    async def browse(self) -> None:
        backend = await self._ready()
        if backend is not None:
            await backend.browse()

    async def close(self) -> None:
        if self._backend is not None:
            await self._backend.close()
            self._backend = None
