"""The console as an HDMI-CEC Playback device, as rules alone: a message in, messages out and news for the console.

Why apart from the adapter (as the network's match core is apart from its
sockets): what a Playback device must answer, when it is the TV's active
source and what the TV's standby means are decided here, from the messages
and nothing else, so every case is tested without a kernel; the adapter
(``/dev/cecN``'s ioctls) only carries the steps.

What the kernel answers itself, from the addresses and the OSD name the
console claimed (``CEC_ADAP_S_LOG_ADDRS``), never reaches this follower and is
never answered twice: Give OSD Name, Give Physical Address, Get CEC Version,
Give Device Vendor ID, Give Features and Abort (Documentation/userspace-api/
media/cec/cec-ioc-g-mode.rst, "Core message processing"). Every other message
addressed to the console that it does not handle is answered with Feature
Abort "unrecognized opcode", as the CEC specification asks of a follower.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pyramid.system.cec.messages import (
    BROADCAST, NO_PHYSICAL_ADDRESS, TV, UI_KEYS, CecError, CecMessage, Opcode, Operand, physical_bytes,
)

#: What the kernel answers itself (see the module note): not this follower's to answer.
KERNELS: frozenset[int] = frozenset({
    Opcode.GIVE_OSD_NAME, Opcode.GIVE_PHYSICAL_ADDR, Opcode.GET_CEC_VERSION, Opcode.GIVE_DEVICE_VENDOR_ID,
    Opcode.ABORT, Opcode.GIVE_FEATURES,
})
#: Answers and reports: never answered with Feature Abort (a reply to a reply would never end).
REPLIES: frozenset[int] = frozenset({
    Opcode.FEATURE_ABORT, Opcode.SET_OSD_NAME, Opcode.REPORT_PHYSICAL_ADDR, Opcode.REPORT_POWER_STATUS,
    Opcode.MENU_STATUS, Opcode.DECK_STATUS, Opcode.CEC_VERSION, Opcode.DEVICE_VENDOR_ID, Opcode.INACTIVE_SOURCE,
    Opcode.IMAGE_VIEW_ON, Opcode.ROUTING_INFORMATION,
})


@dataclass(frozen=True, slots=True)
class TvStandby:
    """The TV (or whoever sent Standby) put the bus to sleep: the console pauses and idles."""


@dataclass(frozen=True, slots=True)
class ActiveSource:
    """Whether the console is now the TV's active source (its picture shown, its keys sent to it)."""

    active: bool


@dataclass(frozen=True, slots=True)
class RemoteKey:
    """A TV remote's key read from the messages (no remote-control device in this kernel): the evdev
    name the kernel's rc-cec keymap gives it, pressed or released."""

    key: str
    pressed: bool


CecNews = TvStandby | ActiveSource | RemoteKey


@dataclass(frozen=True, slots=True)
class CecStep:
    """What one input asks of the adapter: ``send`` in order, and ``news`` for the console."""

    send: tuple[CecMessage, ...] = ()
    news: tuple[CecNews, ...] = ()


NOTHING = CecStep()


class Playback:
    """One claimed Playback logical address on one adapter, and whether the console is the active source.

    ``keys_from_messages``: read the remote's keys from User Control messages
    (the kernel made no remote-control device for the adapter); never both, so
    a key is never taken twice.
    """

    def __init__(self, keys_from_messages: bool = False) -> None:
        self.keys_from_messages = keys_from_messages
        self.logical: int | None = None
        self.physical = NO_PHYSICAL_ADDRESS
        self.active = False
        self._held: str | None = None  # the remote's key pressed and not yet released
        #: The TV's OSD name and vendor ID (IEEE OUI) once it answered (the System page shows them).
        self.tv_name: str | None = None
        self.tv_vendor: int | None = None

    @property
    def claimed(self) -> bool:
        return self.logical is not None and self.physical != NO_PHYSICAL_ADDRESS

    def addresses(self, logical: int | None, physical: int) -> CecStep:
        """The adapter's addresses changed (claimed, lost, or a new physical address after an HDMI
        hot-plug): the console is no longer the active source until the TV or the player says so."""
        changed, was_claimed = (logical, physical) != (self.logical, self.physical), self.claimed
        self.logical, self.physical = logical, physical
        news: tuple[CecNews, ...] = ()
        if changed and self.active:
            self.active = False
            news = (ActiveSource(False),)
        if self.claimed and not was_claimed:  # who the TV is, for the System page
            return CecStep(send=(self._to(TV, Opcode.GIVE_OSD_NAME), self._to(TV, Opcode.GIVE_DEVICE_VENDOR_ID)),
                           news=news)
        return CecStep(news=news)

    def wake(self) -> CecStep:
        """One Touch Play: the TV is woken (Image View On) and shown this console (Active Source)."""
        if not self.claimed:
            return NOTHING
        became = not self.active
        self.active = True
        return CecStep(send=(self._to(TV, Opcode.IMAGE_VIEW_ON), self._active_source()),
                       news=(ActiveSource(True),) if became else ())

    def standby_tv(self) -> CecStep:
        """Put the TV to standby ("Power off" in the console's menu, when the player asks)."""
        return CecStep(send=(self._to(TV, Opcode.STANDBY),)) if self.claimed else NOTHING

    def receive(self, message: CecMessage) -> CecStep:
        """Act on one message the adapter received (addressed to this device, or broadcast)."""
        if self.logical is None or message.initiator == self.logical:
            return NOTHING
        opcode = message.opcode
        if opcode is None or opcode in KERNELS:
            return NOTHING
        handler = _HANDLERS.get(opcode)
        if handler is not None:
            return handler(self, message)
        if message.broadcast or opcode in REPLIES:
            return NOTHING
        return self._abort(message, Operand.ABORT_UNRECOGNIZED_OP)

    # -- the messages handled -------------------------------------------------------------
    def _power_status(self, message: CecMessage) -> CecStep:
        if message.broadcast:
            return NOTHING
        return CecStep(send=(self._to(message.initiator, Opcode.REPORT_POWER_STATUS,
                                      bytes([Operand.POWER_STATUS_ON])),))

    def _menu_request(self, message: CecMessage) -> CecStep:
        """The console's menu is always on screen (it is the console): "activated", whatever was asked."""
        if message.broadcast:
            return NOTHING
        return CecStep(send=(self._to(message.initiator, Opcode.MENU_STATUS,
                                      bytes([Operand.MENU_STATE_ACTIVATED])),))

    def _request_active_source(self, message: CecMessage) -> CecStep:
        return CecStep(send=(self._active_source(),)) if self.active and self.claimed else NOTHING

    def _routed(self, message: CecMessage) -> CecStep:
        """Set Stream Path, or the new address of a Routing Change: the TV shows whoever is at that address."""
        operands = message.operands
        target = (int.from_bytes(operands[2:4], "big") if message.opcode == Opcode.ROUTING_CHANGE and len(operands) >= 4
                  else message.physical_address())
        if target is None or not message.broadcast:
            return NOTHING
        if target == self.physical and self.claimed:
            became = not self.active
            self.active = True
            return CecStep(send=(self._active_source(),), news=(ActiveSource(True),) if became else ())
        return self._not_active()

    def _other_source(self, message: CecMessage) -> CecStep:
        """Another device took the screen (Active Source with another address)."""
        address = message.physical_address()
        if address is None or address == self.physical:
            return NOTHING
        return self._not_active()

    def _standby(self, message: CecMessage) -> CecStep:
        self.active = False
        return CecStep(news=(TvStandby(),))

    def _tv_name(self, message: CecMessage) -> CecStep:
        """The TV's name, as the System page shows it: printable ASCII (as Set OSD Name carries), anything else
        a "?" (a byte that would draw nothing, or a box)."""
        if message.initiator == TV and not message.broadcast and message.operands:
            self.tv_name = "".join(chr(byte) if 0x20 <= byte < 0x7F else "?" for byte in message.operands)
        return NOTHING

    def _tv_vendor(self, message: CecMessage) -> CecStep:
        if message.initiator == TV and len(message.operands) == 3:
            self.tv_vendor = int.from_bytes(message.operands, "big")
        return NOTHING

    def _key(self, message: CecMessage) -> CecStep:
        if not self.keys_from_messages or message.broadcast:
            return NOTHING
        news: list[CecNews] = []
        if self._held is not None:  # a press without the release of the key before: released first
            news.append(RemoteKey(self._held, False))
            self._held = None
        if message.opcode == Opcode.USER_CONTROL_PRESSED and message.operands:
            key = UI_KEYS.get(message.operands[0])
            if key is not None:
                self._held = key
                news.append(RemoteKey(key, True))
        return CecStep(news=tuple(news))

    # -- helpers ----------------------------------------------------------------------------
    def _not_active(self) -> CecStep:
        if not self.active:
            return NOTHING
        self.active = False
        return CecStep(news=(ActiveSource(False),))

    def _active_source(self) -> CecMessage:
        return self._to(BROADCAST, Opcode.ACTIVE_SOURCE, physical_bytes(self.physical))

    def _abort(self, message: CecMessage, reason: int) -> CecStep:
        opcode = message.opcode if message.opcode is not None else 0
        return CecStep(send=(self._to(message.initiator, Opcode.FEATURE_ABORT, bytes([opcode, reason])),))

    def _to(self, destination: int, opcode: int, operands: bytes = b"") -> CecMessage:
        if self.logical is None:
            raise CecError("no logical address is claimed: nothing can be sent")
        return CecMessage(self.logical, destination, opcode, operands)


_HANDLERS: dict[int, Callable[[Playback, CecMessage], CecStep]] = {
    Opcode.GIVE_DEVICE_POWER_STATUS: Playback._power_status,
    Opcode.MENU_REQUEST: Playback._menu_request,
    Opcode.REQUEST_ACTIVE_SOURCE: Playback._request_active_source,
    Opcode.SET_STREAM_PATH: Playback._routed,
    Opcode.ROUTING_CHANGE: Playback._routed,
    Opcode.ACTIVE_SOURCE: Playback._other_source,
    Opcode.STANDBY: Playback._standby,
    Opcode.SET_OSD_NAME: Playback._tv_name,
    Opcode.DEVICE_VENDOR_ID: Playback._tv_vendor,
    Opcode.USER_CONTROL_PRESSED: Playback._key,
    Opcode.USER_CONTROL_RELEASED: Playback._key,
}
