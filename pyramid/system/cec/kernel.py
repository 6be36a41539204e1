"""The kernel's CEC adapter API (``/dev/cecN``, ``linux/cec.h``): its structures, ioctls and modes.

Why the kernel's API and not ``cec-ctl`` or libcec: the console must keep the
adapter shared (libcec takes it for itself, and the kernel's remote-control
device then gets no keys), must hear the TV's messages as they come without a
process per message, and must wait on the adapter's file descriptor in a
``select`` as it waits on evdev devices. ``cec-ctl`` (v4l-utils) does the same
ioctls; it is what a person uses to look at the bus (docs/settings-input.md).

The layouts below are the header's, written with ctypes; tests/test_cec.py
compiles a C program against ``linux/cec.h`` and holds every size, offset and
ioctl number here equal to the compiler's.
"""

from __future__ import annotations

import ctypes
from typing import Final

#: linux/cec.h's sizes.
MAX_MSG_SIZE: Final = 16
MAX_LOG_ADDRS: Final = 4

# The initiator and follower modes (CEC_S_MODE): this console sends (shared, not exclusive) and follows
# (gets the messages the kernel does not answer itself; shared too, so ``cec-ctl --monitor`` still works).
MODE_INITIATOR: Final = 0x01
MODE_FOLLOWER: Final = 0x10

# Capabilities (struct cec_caps.capabilities).
CAP_PHYS_ADDR: Final = 1 << 0
CAP_LOG_ADDRS: Final = 1 << 1
CAP_TRANSMIT: Final = 1 << 2
CAP_RC: Final = 1 << 4

# struct cec_log_addrs.flags: the remote's keys go to the kernel's remote-control (evdev) device.
LOG_ADDRS_FL_ALLOW_RC_PASSTHRU: Final = 1 << 1
# A Playback device: its logical address type, primary device type and (CEC 2.0) device types.
LOG_ADDR_TYPE_PLAYBACK: Final = 3
PRIM_DEVTYPE_PLAYBACK: Final = 4
ALL_DEVTYPE_PLAYBACK: Final = 0x10
CEC_VERSION_2_0: Final = 6
VENDOR_ID_NONE: Final = 0xFFFFFFFF

# Events (struct cec_event.event).
EVENT_STATE_CHANGE: Final = 1
EVENT_LOST_MSGS: Final = 2


class Caps(ctypes.Structure):
    """struct cec_caps (CEC_ADAP_G_CAPS)."""

    _fields_ = [("driver", ctypes.c_char * 32), ("name", ctypes.c_char * 32), ("available_log_addrs", ctypes.c_uint32),
                ("capabilities", ctypes.c_uint32), ("version", ctypes.c_uint32)]


class Msg(ctypes.Structure):
    """struct cec_msg (CEC_TRANSMIT, CEC_RECEIVE)."""

    _fields_ = [("tx_ts", ctypes.c_uint64), ("rx_ts", ctypes.c_uint64), ("len", ctypes.c_uint32),
                ("timeout", ctypes.c_uint32), ("sequence", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                ("msg", ctypes.c_uint8 * MAX_MSG_SIZE), ("reply", ctypes.c_uint8), ("rx_status", ctypes.c_uint8),
                ("tx_status", ctypes.c_uint8), ("tx_arb_lost_cnt", ctypes.c_uint8), ("tx_nack_cnt", ctypes.c_uint8),
                ("tx_low_drive_cnt", ctypes.c_uint8), ("tx_error_cnt", ctypes.c_uint8)]


class LogAddrs(ctypes.Structure):
    """struct cec_log_addrs (CEC_ADAP_S_LOG_ADDRS, CEC_ADAP_G_LOG_ADDRS)."""

    _fields_ = [("log_addr", ctypes.c_uint8 * MAX_LOG_ADDRS), ("log_addr_mask", ctypes.c_uint16),
                ("cec_version", ctypes.c_uint8), ("num_log_addrs", ctypes.c_uint8), ("vendor_id", ctypes.c_uint32),
                ("flags", ctypes.c_uint32), ("osd_name", ctypes.c_char * 15),
                ("primary_device_type", ctypes.c_uint8 * MAX_LOG_ADDRS),
                ("log_addr_type", ctypes.c_uint8 * MAX_LOG_ADDRS),
                ("all_device_types", ctypes.c_uint8 * MAX_LOG_ADDRS),
                ("features", (ctypes.c_uint8 * 12) * MAX_LOG_ADDRS)]


class StateChange(ctypes.Structure):
    """struct cec_event_state_change."""

    _fields_ = [("phys_addr", ctypes.c_uint16), ("log_addr_mask", ctypes.c_uint16),
                ("have_conn_info", ctypes.c_uint16)]


class _EventPayload(ctypes.Union):
    _fields_ = [("state_change", StateChange), ("lost_msgs", ctypes.c_uint32), ("raw", ctypes.c_uint32 * 16)]


class Event(ctypes.Structure):
    """struct cec_event (CEC_DQEVENT)."""

    _anonymous_ = ("payload",)
    _fields_ = [("ts", ctypes.c_uint64), ("event", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                ("payload", _EventPayload)]


def _ioc(direction: int, number: int, size: int) -> int:
    """The kernel's _IOC(dir, 'a', nr, size) (include/uapi/asm-generic/ioctl.h: the number in bits 0-7,
    the type in 8-15, the size in 16-29, the direction in 30-31)."""
    return direction << 30 | size << 16 | ord("a") << 8 | number


_WRITE, _READ = 1, 2
ADAP_G_CAPS: Final = _ioc(_READ | _WRITE, 0, ctypes.sizeof(Caps))
ADAP_G_PHYS_ADDR: Final = _ioc(_READ, 1, 2)
ADAP_G_LOG_ADDRS: Final = _ioc(_READ, 3, ctypes.sizeof(LogAddrs))
ADAP_S_LOG_ADDRS: Final = _ioc(_READ | _WRITE, 4, ctypes.sizeof(LogAddrs))
TRANSMIT: Final = _ioc(_READ | _WRITE, 5, ctypes.sizeof(Msg))
RECEIVE: Final = _ioc(_READ | _WRITE, 6, ctypes.sizeof(Msg))
DQEVENT: Final = _ioc(_READ | _WRITE, 7, ctypes.sizeof(Event))
G_MODE: Final = _ioc(_READ, 8, 4)
S_MODE: Final = _ioc(_WRITE, 9, 4)


def playback_claim(osd_name: bytes, keys_to_kernel: bool) -> LogAddrs:
    """What CEC_ADAP_S_LOG_ADDRS is given to claim one Playback address under ``osd_name`` (CEC 2.0;
    the remote's keys passed to the kernel's remote-control device when ``keys_to_kernel``)."""
    claim = LogAddrs()
    claim.cec_version = CEC_VERSION_2_0
    claim.num_log_addrs = 1
    claim.vendor_id = VENDOR_ID_NONE
    claim.flags = LOG_ADDRS_FL_ALLOW_RC_PASSTHRU if keys_to_kernel else 0
    claim.osd_name = osd_name
    claim.primary_device_type[0] = PRIM_DEVTYPE_PLAYBACK
    claim.log_addr_type[0] = LOG_ADDR_TYPE_PLAYBACK
    claim.all_device_types[0] = ALL_DEVTYPE_PLAYBACK
    return claim
