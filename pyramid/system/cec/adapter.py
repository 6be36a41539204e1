"""One HDMI-CEC adapter (``/dev/cecN``) opened for the console: claim a Playback address, send, read.

The file is opened non-blocking and shared: the console is an initiator and a
follower, never exclusive (``cec-ctl --monitor`` still sees the bus, and the
kernel's remote-control device still gets the TV's keys). Non-blocking, a claim
returns at once and the kernel reports the addresses it got as a state-change
event; it claims again by itself after an HDMI hot-plug or a TV restart (a new
physical address), and says so the same way, so the console only follows the
events. A transmission's result comes back later through ``receive`` as a
:class:`Sent`.

Every call goes through one ``ioctl`` function (:data:`Ioctl`): the kernel's,
or a fake that answers as an adapter would (tests/test_cec_adapter.py).
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from pyramid.system.cec import kernel
from pyramid.system.cec.messages import CecError, CecMessage, CecPermissionError

#: CEC_TX_STATUS_OK in struct cec_msg.tx_status.
TX_STATUS_OK = 1 << 0


class Ioctl(Protocol):
    """``ioctl(fd, request, arg)`` filling ``arg`` in place; ``OSError`` as the kernel's."""

    def __call__(self, fd: int, request: int, arg: Any) -> None: ...


def kernel_ioctl(fd: int, request: int, arg: Any) -> None:
    fcntl.ioctl(fd, request, arg, True)


@dataclass(frozen=True, slots=True)
class AdapterInfo:
    """What the adapter says of itself (the System page shows it)."""

    path: str
    driver: str
    name: str
    capabilities: int

    @property
    def has_remote(self) -> bool:
        """Whether the kernel makes a remote-control (evdev) device for this adapter."""
        return bool(self.capabilities & kernel.CAP_RC)


@dataclass(frozen=True, slots=True)
class Addresses:
    """The adapter's addresses now: its physical address and the logical one claimed (None: none)."""

    physical: int
    logical: int | None

    @classmethod
    def of(cls, physical: int, mask: int) -> Addresses:
        """From the kernel's physical address and mask of logical addresses (the lowest one is the console's)."""
        logical = next((address for address in range(15) if mask & 1 << address), None)
        return cls(physical, logical)


@dataclass(frozen=True, slots=True)
class Sent:
    """The result of one transmission: whether some device took it (a TV that is off does not)."""

    message: CecMessage
    ok: bool


@dataclass(frozen=True, slots=True)
class LostMessages:
    """The console read too slowly and the kernel dropped ``count`` messages."""

    count: int


class CecAdapter:
    """``/dev/cecN`` opened for the console."""

    def __init__(self, path: str, fd: int, ioctl: Ioctl = kernel_ioctl) -> None:
        self.path, self._fd, self._ioctl = path, fd, ioctl

    @classmethod
    def open(cls, path: str, ioctl: Ioctl = kernel_ioctl,
             opener: Callable[[str, int], int] = os.open) -> CecAdapter:
        """Open ``path``; :class:`CecError` saying what to do when it cannot be."""
        try:
            fd = opener(path, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
        except PermissionError:
            raise CecPermissionError(f"{path}: permission denied (the console's user must be in the group 'video', and its"
                           " unit allow the 'cec' devices: the cec module loaded before it starts)") from None
        except OSError as error:
            raise CecError(f"{path}: {error.strerror}") from None
        return cls(path, fd, ioctl)

    def fileno(self) -> int:
        return self._fd

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _call(self, request: int, arg: Any, what: str) -> None:
        try:
            self._ioctl(self._fd, request, arg)
        except OSError as error:
            raise CecError(f"{self.path}: {what}: {error.strerror or error}") from None

    def info(self) -> AdapterInfo:
        caps = kernel.Caps()
        self._call(kernel.ADAP_G_CAPS, caps, "reading its capabilities")
        return AdapterInfo(self.path, caps.driver.decode(errors="replace"), caps.name.decode(errors="replace"),
                           caps.capabilities)

    def addresses(self) -> Addresses:
        physical, claimed = ctypes.c_uint16(), kernel.LogAddrs()
        self._call(kernel.ADAP_G_PHYS_ADDR, physical, "reading its physical address")
        self._call(kernel.ADAP_G_LOG_ADDRS, claimed, "reading its logical addresses")
        return Addresses.of(physical.value, claimed.log_addr_mask)

    def follow(self) -> None:
        """Send and follow, sharing the adapter (never exclusive)."""
        self._call(kernel.S_MODE, ctypes.c_uint32(kernel.MODE_INITIATOR | kernel.MODE_FOLLOWER), "following the bus")

    def claim(self, osd_name: bytes, keys_to_kernel: bool) -> None:
        """Claim one Playback address under ``osd_name`` (the kernel finishes the claim on its own and tells it
        as an event). An adapter claimed already under this name is kept; one claimed otherwise (cec-ctl's
        settings, a console of another name) is cleared first, as ``cec-ctl --clear`` does."""
        current = kernel.LogAddrs()
        self._call(kernel.ADAP_G_LOG_ADDRS, current, "reading its logical addresses")
        if current.num_log_addrs:
            if current.log_addr_type[0] == kernel.LOG_ADDR_TYPE_PLAYBACK and current.osd_name == osd_name:
                return
            self._call(kernel.ADAP_S_LOG_ADDRS, kernel.LogAddrs(), "clearing its logical addresses")
        self._call(kernel.ADAP_S_LOG_ADDRS, kernel.playback_claim(osd_name, keys_to_kernel),
                   "claiming a Playback address")

    def transmit(self, message: CecMessage) -> None:
        """Queue ``message`` (its result comes back as a :class:`Sent`)."""
        data = message.to_bytes()
        msg = kernel.Msg()
        msg.len = len(data)
        msg.msg[:len(data)] = data
        self._call(kernel.TRANSMIT, msg, f"sending {data.hex()}")

    def receive(self) -> CecMessage | Sent | None:
        """The next message received or transmission finished, or None when there is none now."""
        msg = kernel.Msg()
        try:
            self._ioctl(self._fd, kernel.RECEIVE, msg)
        except OSError as error:
            if error.errno in (errno.EAGAIN, errno.ETIMEDOUT):
                return None
            raise CecError(f"{self.path}: reading a message: {error.strerror or error}") from None
        message = CecMessage.parse(bytes(msg.msg[:min(msg.len, kernel.MAX_MSG_SIZE)]))
        if msg.tx_status:
            return Sent(message, bool(msg.tx_status & TX_STATUS_OK))
        return message

    def event(self) -> Addresses | LostMessages | None:
        """The next event (the addresses changed, messages lost), or None when there is none now."""
        event = kernel.Event()
        try:
            self._ioctl(self._fd, kernel.DQEVENT, event)
        except OSError as error:
            if error.errno == errno.EAGAIN:
                return None
            raise CecError(f"{self.path}: reading an event: {error.strerror or error}") from None
        if event.event == kernel.EVENT_STATE_CHANGE:
            change = event.state_change
            return Addresses.of(change.phys_addr, change.log_addr_mask)
        if event.event == kernel.EVENT_LOST_MSGS:
            return LostMessages(event.lost_msgs)
        return None
