"""A CEC adapter faked at the ioctl seam: it answers each request as the kernel's adapter would.

It holds the adapter's physical address, its claim, the messages waiting to be
read and the events; a claim is reported as a state-change event (as the kernel
does for a non-blocking file), each transmission as its result, a TV that is
off not acknowledging. ``gone`` makes every call fail as an unplugged adapter's
does (ENODEV).
"""

from __future__ import annotations

import ctypes
import errno
import os
import threading
from collections import deque
from typing import Any

from pyramid.system.cec import kernel
from pyramid.system.cec.adapter import TX_STATUS_OK
from pyramid.system.cec.messages import CecMessage

TX_STATUS_NACK = 1 << 3  # CEC_TX_STATUS_NACK


class FakeAdapter:
    def __init__(self, physical: int = 0x1000, capabilities: int = kernel.CAP_LOG_ADDRS | kernel.CAP_TRANSMIT
                 | kernel.CAP_RC, logical: int = 4) -> None:
        self.physical, self.capabilities, self.logical = physical, capabilities, logical
        self.claim = kernel.LogAddrs()
        self.mode: int | None = None
        self.sent: list[CecMessage] = []
        self.incoming: deque[kernel.Msg] = deque()
        self.events: deque[kernel.Event] = deque()
        self.tv_on = True
        self.gone = False
        #: Readable while something waits to be read, as the adapter's node is for select().
        self.node, self._ready = os.pipe()
        os.set_blocking(self.node, False)
        #: The test's thread adds messages while the service's reads them: a message added between the
        #: service finding nothing left and emptying the node would leave it unreadable with a message
        #: waiting (a lost wake-up the kernel never has), so the queues and the node change under one lock.
        self._lock = threading.RLock()

    # -- what the test does ------------------------------------------------------------------------
    def hear(self, message: CecMessage) -> None:
        with self._lock:
            self.incoming.append(_msg(message.to_bytes(), 0))
            self._signal()

    def unplug(self) -> None:
        with self._lock:
            self.gone = True
            self._signal()

    def _signal(self) -> None:
        os.write(self._ready, b"!")

    def _quiet(self) -> None:
        """Nothing left to read: the node is no longer readable (called under the lock)."""
        if not self.incoming and not self.events:
            try:
                os.read(self.node, 4096)
            except BlockingIOError:
                pass

    def hot_plug(self, physical: int) -> None:
        """The HDMI cable out and in again at ``physical``: the kernel claims the same address again."""
        with self._lock:
            self.physical = physical
            self._state_change()

    # -- the adapter --------------------------------------------------------------------------------
    def __call__(self, fd: int, request: int, arg: Any) -> None:
        with self._lock:
            self._request(request, arg)

    def _request(self, request: int, arg: Any) -> None:
        if self.gone:
            raise OSError(errno.ENODEV, "No such device")
        if request == kernel.ADAP_G_CAPS:
            arg.driver, arg.name, arg.capabilities = b"vivid", b"vivid-000-vid-out0", self.capabilities
        elif request == kernel.ADAP_G_PHYS_ADDR:
            arg.value = self.physical
        elif request == kernel.ADAP_G_LOG_ADDRS:
            _copy(self.claim, arg)
        elif request == kernel.ADAP_S_LOG_ADDRS:
            if arg.num_log_addrs and self.claim.num_log_addrs:
                raise OSError(errno.EBUSY, "Device or resource busy")
            _copy(arg, self.claim)
            self.claim.log_addr_mask = 1 << self.logical if arg.num_log_addrs else 0
            self._state_change()
        elif request == kernel.S_MODE:
            self.mode = arg.value
        elif request == kernel.TRANSMIT:
            data = bytes(arg.msg[:arg.len])
            self.sent.append(CecMessage.parse(data))
            self.incoming.append(_msg(data, TX_STATUS_OK if self.tv_on else TX_STATUS_NACK))
            self._signal()
        elif request == kernel.RECEIVE:
            if not self.incoming:
                self._quiet()
                raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
            _copy(self.incoming.popleft(), arg)
        elif request == kernel.DQEVENT:
            if not self.events:
                self._quiet()
                raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
            _copy(self.events.popleft(), arg)
        else:
            raise OSError(errno.ENOTTY, "Inappropriate ioctl for device")

    def _state_change(self) -> None:
        event = kernel.Event()
        event.event = kernel.EVENT_STATE_CHANGE
        event.state_change.phys_addr = self.physical
        event.state_change.log_addr_mask = self.claim.log_addr_mask
        self.events.append(event)
        self._signal()


def _copy(source: Any, target: Any) -> None:
    """What the kernel copies into the caller's structure (``source`` held by a name while it is copied)."""
    ctypes.memmove(ctypes.addressof(target), ctypes.addressof(source), ctypes.sizeof(target))


def _msg(data: bytes, tx_status: int) -> kernel.Msg:
    msg = kernel.Msg()
    msg.len = len(data)
    msg.msg[:len(data)] = data
    msg.tx_status = tx_status
    return msg
