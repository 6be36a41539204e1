"""The console on the TV's CEC bus: every adapter, one thread that waits and only reports.

Why a thread of its own: the adapters' messages come at any time and some need
an answer within the CEC specification's 1 s (a TV asking for the power status
gives up and shows "no signal"), whatever the main loop is drawing. The thread
waits in ``select`` on the adapters' file descriptors (messages as readable,
the kernel's events as exceptional) and on a pipe the main loop writes to, so
an idle console wakes for nothing. It answers the bus through each adapter's
:class:`~pyramid.system.cec.playback.Playback` and posts the news (the TV's
standby, the console shown or not, a remote key read from the messages) to the
main loop; the main loop's requests (wake the TV, put it to standby) go the
other way through the queue. An adapter that fails (unplugged) is closed and
left; the console plays on.
"""

from __future__ import annotations

import glob
import logging
import os
import queue
import select
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from pyramid.system.cec.adapter import Addresses, AdapterInfo, CecAdapter, LostMessages, Sent
from pyramid.system.cec.messages import CecError, CecMessage, CecPermissionError, dotted, osd_name_bytes
from pyramid.system.cec.playback import CecNews, CecStep, Playback

log = logging.getLogger(__name__)

#: Where the kernel's CEC adapters are.
ADAPTERS = "/dev/cec*"
DEVICES = "/dev"
#: The root of the HDMI tree: only a TV (a sink) is there; a Playback device never is.
TV_PHYSICAL_ADDRESS = 0x0000
Opener = Callable[[str], CecAdapter]


@dataclass(frozen=True, slots=True)
class CecStatus:
    """One adapter as the System page shows it."""

    info: AdapterInfo
    physical: str
    logical: int | None
    active: bool
    #: The TV's OSD name and vendor (its IEEE OUI, as ``00:00:f0``), once it answered.
    tv_name: str | None = None
    tv_vendor: str | None = None


class NodeWatch(Protocol):
    """A watch on /dev, readable when a node comes or goes (input/evdev_devices.NodeWatcher is one)."""

    def fileno(self) -> int: ...

    def drain(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class _Opened:
    """An adapter the console follows: what it is, and its Playback device's state."""

    adapter: CecAdapter
    info: AdapterInfo
    playback: Playback


class CecService:
    """The console's CEC adapters; ``post`` takes the news on the main loop's queue (thread-safe)."""

    def __init__(self, post: Callable[[CecNews], None], osd_name: str = "Pyramid", wake_tv: bool = True,
                 paths: Callable[[], list[str]] = lambda: sorted(glob.glob(ADAPTERS)),
                 opener: Opener = CecAdapter.open, watch: NodeWatch | None = None) -> None:
        self._post, self._name, self._wake_tv = post, osd_name_bytes(osd_name), wake_tv
        self._paths, self._opener = paths, opener
        #: New adapters plugged in later (a USB-CEC adapter) are looked for when this watch says /dev changed.
        self._watch = watch
        self._opened: dict[str, _Opened] = {}
        self._passed: set[str] = set()  # adapters looked at and left (a TV's own, one that failed)
        self._refused: set[str] = set()  # adapters whose refusal was told (retried, not told again)
        self._asked: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._wakeup_read, self._wakeup_write = os.pipe()
        self._thread: threading.Thread | None = None
        #: The adapters as the System page shows them, replaced whole by the thread (read without a lock).
        self._statuses: tuple[CecStatus, ...] = ()

    # -- the main loop's side -----------------------------------------------------------------
    def start(self) -> None:
        """Open every adapter found and start following the bus (nothing found and nothing watched for:
        nothing runs)."""
        self._scan()
        if self._opened or self._watch is not None:
            self._thread = threading.Thread(target=self._run, name="pyramid-cec", daemon=True)
            self._thread.start()

    def wake(self) -> None:
        """One Touch Play: wake the TV and show it this console (a key pressed on another device, say)."""
        self._ask("wake")

    def standby_tv(self) -> None:
        self._ask("standby")

    def statuses(self) -> tuple[CecStatus, ...]:
        return self._statuses

    def stop(self) -> None:
        self._ask("stop")
        if self._thread is not None:
            self._thread.join(timeout=5)
        for opened in self._opened.values():
            opened.adapter.close()
        self._opened.clear()
        if self._watch is not None:
            self._watch.close()
        os.close(self._wakeup_read)
        os.close(self._wakeup_write)

    def _ask(self, what: str) -> None:
        self._asked.put(what)
        os.write(self._wakeup_write, b"!")

    # -- the thread -------------------------------------------------------------------------------
    def _scan(self) -> None:
        """Open the adapters not seen yet; forget the left ones that are gone (one plugged again is looked at)."""
        present = set(self._paths())
        self._passed &= present
        for path in sorted(present - self._passed - set(self._opened)):
            self._open(path)

    def _open(self, path: str) -> None:
        self._passed.add(path)  # until it is taken below
        try:
            adapter = self._opener(path)
        except CecPermissionError as error:
            # A node just made is root's until udev gives it the group video: tried again at the next change
            # of /dev (udev's own), and told once.
            self._passed.discard(path)
            if path not in self._refused:
                self._refused.add(path)
                log.warning("HDMI-CEC adapter not used (yet): %s", error)
            return
        except CecError as error:
            log.warning("HDMI-CEC adapter not used: %s", error)
            return
        try:
            info = adapter.info()
            if adapter.addresses().physical == TV_PHYSICAL_ADDRESS:
                adapter.close()  # an HDMI input's adapter: the TV's own side of the bus (vivid's capture side)
                log.info("HDMI-CEC adapter %s (%s) is a TV's, at 0.0.0.0: left alone", path, info.name)
                return
            adapter.follow()
            adapter.claim(self._name, keys_to_kernel=info.has_remote)
        except CecError as error:
            adapter.close()
            log.warning("HDMI-CEC adapter not used: %s", error)
            return
        log.info("HDMI-CEC adapter %s (%s, %s): claiming a Playback address as %r", path, info.driver, info.name,
                 self._name.decode())
        self._passed.discard(path)
        self._opened[path] = _Opened(adapter, info, Playback(keys_from_messages=not info.has_remote))
        # Claimed already (the console restarted; the kernel keeps a claim): taken as the event would be.
        self._guarded(path, lambda opened: self._addresses(opened, opened.adapter.addresses()))
        self._publish()

    def _run(self) -> None:
        watch = [] if self._watch is None else [self._watch.fileno()]
        while self._opened or watch:
            descriptors = {opened.adapter.fileno(): path for path, opened in self._opened.items()}
            readable, _, exceptional = select.select([self._wakeup_read, *watch, *descriptors], [], list(descriptors))
            if self._wakeup_read in readable and self._requests():
                return
            if self._watch is not None and watch[0] in readable:
                self._watch.drain()
                self._scan()
            for fd in {*readable, *exceptional} & set(descriptors):
                self._guarded(descriptors[fd], self._drain)

    def _requests(self) -> bool:
        """The main loop's requests; True when it asks the thread to end."""
        os.read(self._wakeup_read, 512)
        while not self._asked.empty():
            what = self._asked.get()
            if what == "stop":
                return True
            for path in list(self._opened):
                self._guarded(path, self._waking if what == "wake" else self._standing_by)
        return False

    def _waking(self, opened: _Opened) -> None:
        self._carry(opened, opened.playback.wake())

    def _standing_by(self, opened: _Opened) -> None:
        self._carry(opened, opened.playback.standby_tv())

    def _drain(self, opened: _Opened) -> None:
        """Everything the adapter has: its events (the kernel's exceptional condition), then its messages."""
        self._events(opened)
        self._messages(opened)

    def _guarded(self, path: str, act: Callable[[_Opened], None]) -> None:
        opened = self._opened.get(path)
        if opened is None:
            return
        try:
            act(opened)
        except CecError as error:
            log.warning("HDMI-CEC adapter %s left: %s", path, error)
            opened.adapter.close()
            del self._opened[path]
            self._passed.add(path)  # looked at again once it is gone and back
            self._publish()

    def _events(self, opened: _Opened) -> None:
        while (event := opened.adapter.event()) is not None:
            if isinstance(event, LostMessages):
                log.warning("HDMI-CEC adapter %s: %d messages lost", opened.info.path, event.count)
                continue
            self._addresses(opened, event)

    def _addresses(self, opened: _Opened, addresses: Addresses) -> None:
        was_claimed = opened.playback.claimed
        self._carry(opened, opened.playback.addresses(addresses.logical, addresses.physical))
        log.info("HDMI-CEC adapter %s: physical address %s, logical %s", opened.info.path,
                 dotted(addresses.physical), addresses.logical)
        if opened.playback.claimed and not was_claimed and self._wake_tv:
            self._carry(opened, opened.playback.wake())  # One Touch Play when the console comes on the bus
        self._publish()

    def _messages(self, opened: _Opened) -> None:
        while (received := opened.adapter.receive()) is not None:
            if isinstance(received, Sent):
                if not received.ok:
                    log.info("HDMI-CEC %s: %s not acknowledged", opened.info.path, message_text(received.message))
                continue
            self._carry(opened, opened.playback.receive(received))
            self._publish()  # the TV's name or vendor may have come

    def _carry(self, opened: _Opened, step: CecStep) -> None:
        for message in step.send:
            opened.adapter.transmit(message)
        for news in step.news:
            self._post(news)
        if step.news:
            self._publish()

    def _publish(self) -> None:
        statuses = tuple(_status(opened) for opened in self._opened.values())
        self._statuses = statuses


def _status(opened: _Opened) -> CecStatus:
    playback = opened.playback
    vendor = None if playback.tv_vendor is None else ":".join(f"{byte:02x}" for byte in playback.tv_vendor.to_bytes(3, "big"))
    return CecStatus(opened.info, dotted(playback.physical), playback.logical, playback.active, playback.tv_name, vendor)


def message_text(message: CecMessage) -> str:
    """A message as cec-ctl's monitor shows it, for the log: ``4f:82:10:00``."""
    return ":".join(f"{byte:02x}" for byte in message.to_bytes())
