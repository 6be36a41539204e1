"""HDMI-CEC messages as the console sends and reads them: one frozen record, checked from its bytes.

A CEC message is at most 16 bytes: a header (the initiator's logical address
in the high nibble, the destination's in the low one; 15 as destination is
"broadcast"), then an opcode and its operands. The values below are the CEC
specification's, as the kernel's ``linux/cec.h`` names them
(``CEC_MSG_*``, ``CEC_OP_*``, ``CEC_LOG_ADDR_*``); tests/test_cec.py reads
that header and holds every value here equal to it. Only what a Playback
device needs is named: anything else read is kept as its number.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from pyramid.errors import PyramidError

#: The longest message on the bus, header included (CEC_MAX_MSG_SIZE).
MAX_MESSAGE: Final = 16
#: The TV's logical address, and the destination that means every device.
TV: Final = 0
BROADCAST: Final = 15
#: A physical address that is not known (no HDMI sink, or no EDID yet): CEC_PHYS_ADDR_INVALID.
NO_PHYSICAL_ADDRESS: Final = 0xFFFF
#: The longest OSD name (the Set OSD Name message's operand).
MAX_OSD_NAME: Final = 14


class CecError(PyramidError):
    """Bytes that are no CEC message, or a message the console cannot send (quoted)."""


class CecPermissionError(CecError):
    """An adapter the console may not open (yet: udev gives a new node its group a moment after it appears)."""


class Opcode(IntEnum):
    """The messages a Playback device sends, answers or acts on (``CEC_MSG_*``)."""

    FEATURE_ABORT = 0x00
    IMAGE_VIEW_ON = 0x04
    GIVE_DECK_STATUS = 0x1A
    DECK_STATUS = 0x1B
    STANDBY = 0x36
    USER_CONTROL_PRESSED = 0x44
    USER_CONTROL_RELEASED = 0x45
    GIVE_OSD_NAME = 0x46
    SET_OSD_NAME = 0x47
    ROUTING_CHANGE = 0x80
    ROUTING_INFORMATION = 0x81
    ACTIVE_SOURCE = 0x82
    GIVE_PHYSICAL_ADDR = 0x83
    REPORT_PHYSICAL_ADDR = 0x84
    REQUEST_ACTIVE_SOURCE = 0x85
    SET_STREAM_PATH = 0x86
    DEVICE_VENDOR_ID = 0x87
    GIVE_DEVICE_VENDOR_ID = 0x8C
    MENU_REQUEST = 0x8D
    MENU_STATUS = 0x8E
    GIVE_DEVICE_POWER_STATUS = 0x8F
    REPORT_POWER_STATUS = 0x90
    INACTIVE_SOURCE = 0x9D
    CEC_VERSION = 0x9E
    GET_CEC_VERSION = 0x9F
    GIVE_FEATURES = 0xA5
    ABORT = 0xFF


class Operand(IntEnum):
    """Operand values the console sends (``CEC_OP_*``)."""

    POWER_STATUS_ON = 0x00
    MENU_STATE_ACTIVATED = 0x00
    ABORT_UNRECOGNIZED_OP = 0x00


@dataclass(frozen=True, slots=True)
class CecMessage:
    """One message: who sends it, to whom (:data:`BROADCAST` for all), its opcode (None: a poll) and operands."""

    initiator: int
    destination: int
    opcode: int | None = None
    operands: bytes = b""

    def __post_init__(self) -> None:
        if not (0 <= self.initiator <= 15 and 0 <= self.destination <= 15):
            raise CecError(f"a logical address is 0..15: {self.initiator}, {self.destination}")
        if self.opcode is None and self.operands:
            raise CecError("a poll has no operands")
        if self.opcode is not None and not 0 <= self.opcode <= 0xFF:
            raise CecError(f"an opcode is one byte: {self.opcode}")
        if 2 + len(self.operands) > MAX_MESSAGE:
            raise CecError(f"a CEC message is at most {MAX_MESSAGE} bytes: {len(self.operands)} operand bytes")

    @property
    def broadcast(self) -> bool:
        return self.destination == BROADCAST

    def to_bytes(self) -> bytes:
        header = bytes([self.initiator << 4 | self.destination])
        return header if self.opcode is None else header + bytes([self.opcode]) + self.operands

    @classmethod
    def parse(cls, data: bytes) -> CecMessage:
        """The message in ``data`` (as the kernel hands it over); :class:`CecError` for anything else."""
        if not 1 <= len(data) <= MAX_MESSAGE:
            raise CecError(f"a CEC message is 1..{MAX_MESSAGE} bytes: {data[:MAX_MESSAGE + 1].hex()!r}")
        return cls(data[0] >> 4, data[0] & 0xF, data[1] if len(data) > 1 else None, bytes(data[2:]))

    def physical_address(self) -> int | None:
        """The physical address this message's first two operand bytes hold (Active Source, Set
        Stream Path…), or None when it has fewer."""
        return int.from_bytes(self.operands[:2], "big") if len(self.operands) >= 2 else None


def physical_bytes(address: int) -> bytes:
    """A physical address as the messages carry it (two bytes, ``a.b.c.d`` a nibble each)."""
    return address.to_bytes(2, "big")


def osd_name_bytes(name: str) -> bytes:
    """The OSD name as Set OSD Name carries it: printable ASCII, at most :data:`MAX_OSD_NAME`."""
    if not name or len(name) > MAX_OSD_NAME or not all(0x20 <= ord(char) < 0x7F for char in name):
        raise CecError(f"an OSD name is 1..{MAX_OSD_NAME} printable ASCII characters: {name[:40]!r}")
    return name.encode("ascii")


def dotted(address: int) -> str:
    """A physical address as people write it: ``1.0.0.0``."""
    return ".".join(str(address >> shift & 0xF) for shift in (12, 8, 4, 0))


#: The user control codes a TV's remote sends, as the kernel's rc-cec keymap names their keys
#: (drivers/media/rc/keymaps/rc-cec.c), for the buttons the console answers to: read from the
#: messages themselves where the kernel makes no remote-control device (MEDIA_CEC_RC off), so that
#: the console's one keymap (input/keymap.py) applies either way.
UI_KEYS: Final = {
    0x00: "KEY_OK", 0x01: "KEY_UP", 0x02: "KEY_DOWN", 0x03: "KEY_LEFT", 0x04: "KEY_RIGHT",
    0x09: "KEY_ROOT_MENU", 0x0B: "KEY_MENU", 0x0D: "KEY_EXIT", 0x11: "KEY_CONTEXT_MENU",
    **{0x20 + digit: f"KEY_NUMERIC_{digit}" for digit in range(10)},
    0x2B: "KEY_ENTER", 0x35: "KEY_INFO", 0x36: "KEY_HELP", 0x4C: "KEY_BACK",
    0x71: "KEY_BLUE", 0x72: "KEY_RED", 0x73: "KEY_GREEN", 0x74: "KEY_YELLOW",
}
