"""HDMI-CEC (issue 49): the messages and the kernel's API held to ``linux/cec.h``, and the Playback rules.

The values come from outside (the CEC specification, as the kernel's header
names them): each one here is read from ``/usr/include/linux/cec.h`` and, for
the structures and ioctl numbers, from a C compiler given that header. The
Playback device's answers are checked message by message, as a TV would send
them.
"""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from evdev import ecodes

from input.keymap import KeyMap
from pyramid.system.cec import kernel
from pyramid.system.cec.messages import (
    BROADCAST, TV, UI_KEYS, CecError, CecMessage, Opcode, Operand, dotted, osd_name_bytes,
)
from pyramid.system.cec.playback import ActiveSource, CecStep, Playback, RemoteKey, TvStandby

HEADER = Path("/usr/include/linux/cec.h")
ME, PLAYER = 4, 0x1000  # Playback device 1 at HDMI input 1
OTHER = 0x2000  # a device on HDMI input 2


def header_values() -> dict[str, int]:
    """Every ``#define NAME value`` of the header whose value is a number or ``(a << b)``."""
    if not HEADER.exists():
        pytest.skip("linux/cec.h is not installed (apt-get install linux-libc-dev)")
    values = {}
    for name, value in re.findall(r"^#define\s+(CEC_\w+)\s+([^/\n]+?)\s*(?:/\*.*)?$", HEADER.read_text(), re.M):
        shift = re.fullmatch(r"\((0x[0-9a-fA-F]+|\d+)\s*<<\s*(\d+)\)", value)
        if shift:
            values[name] = int(shift.group(1), 0) << int(shift.group(2))
        elif re.fullmatch(r"0x[0-9a-fA-F]+|\d+", value):
            values[name] = int(value, 0)
    return values


def test_every_opcode_and_operand_is_the_kernel_headers() -> None:
    values = header_values()
    for opcode in Opcode:
        assert values[f"CEC_MSG_{opcode.name}"] == opcode, opcode
    for operand in Operand:
        assert values[f"CEC_OP_{operand.name}"] == operand, operand
    assert (values["CEC_LOG_ADDR_TV"], values["CEC_LOG_ADDR_BROADCAST"]) == (TV, BROADCAST)


def test_the_remotes_codes_are_the_headers_user_control_codes_and_each_key_means_something() -> None:
    values = header_values()
    named = {"KEY_OK": "SELECT", "KEY_ROOT_MENU": "DEVICE_ROOT_MENU", "KEY_MENU": "CONTENTS_MENU", "KEY_EXIT": "BACK",
             "KEY_CONTEXT_MENU": "MEDIA_CONTEXT_SENSITIVE_MENU", "KEY_INFO": "DISPLAY_INFORMATION",
             "KEY_BACK": "SKIP_BACKWARD", "KEY_RED": "F2_RED", "KEY_GREEN": "F3_GREEN", "KEY_UP": "UP",
             "KEY_NUMERIC_7": "NUMBER_7"}
    codes = {key: code for code, key in UI_KEYS.items()}
    for key, command in named.items():
        assert codes[key] == values[f"CEC_OP_UI_CMD_{command}"], key
    actions = KeyMap.default().codes(False)
    for key in ("KEY_OK", "KEY_UP", "KEY_EXIT", "KEY_BACK", "KEY_ROOT_MENU", "KEY_MENU", "KEY_INFO", "KEY_RED"):
        assert getattr(ecodes, key) in actions, f"{key} does nothing on the console"


def test_the_adapters_constants_are_the_kernel_headers() -> None:
    values = header_values()
    pairs = {"CEC_MODE_INITIATOR": kernel.MODE_INITIATOR, "CEC_MODE_FOLLOWER": kernel.MODE_FOLLOWER,
             "CEC_CAP_PHYS_ADDR": kernel.CAP_PHYS_ADDR, "CEC_CAP_LOG_ADDRS": kernel.CAP_LOG_ADDRS,
             "CEC_CAP_TRANSMIT": kernel.CAP_TRANSMIT, "CEC_CAP_RC": kernel.CAP_RC,
             "CEC_LOG_ADDRS_FL_ALLOW_RC_PASSTHRU": kernel.LOG_ADDRS_FL_ALLOW_RC_PASSTHRU,
             "CEC_LOG_ADDR_TYPE_PLAYBACK": kernel.LOG_ADDR_TYPE_PLAYBACK,
             "CEC_OP_PRIM_DEVTYPE_PLAYBACK": kernel.PRIM_DEVTYPE_PLAYBACK,
             "CEC_OP_ALL_DEVTYPE_PLAYBACK": kernel.ALL_DEVTYPE_PLAYBACK, "CEC_OP_CEC_VERSION_2_0": kernel.CEC_VERSION_2_0,
             "CEC_VENDOR_ID_NONE": kernel.VENDOR_ID_NONE, "CEC_EVENT_STATE_CHANGE": kernel.EVENT_STATE_CHANGE,
             "CEC_EVENT_LOST_MSGS": kernel.EVENT_LOST_MSGS, "CEC_MAX_MSG_SIZE": kernel.MAX_MSG_SIZE,
             "CEC_MAX_LOG_ADDRS": kernel.MAX_LOG_ADDRS}
    assert {name: values[name] for name in pairs} == pairs


ABI = """
#include <stdio.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <linux/cec.h>
int main(void) {
    printf("%zu %zu %zu %zu\\n", sizeof(struct cec_caps), sizeof(struct cec_msg), sizeof(struct cec_log_addrs),
           sizeof(struct cec_event));
    printf("%zu %zu %zu %zu %zu %zu\\n", offsetof(struct cec_msg, msg), offsetof(struct cec_msg, tx_status),
           offsetof(struct cec_log_addrs, osd_name), offsetof(struct cec_log_addrs, features),
           offsetof(struct cec_event, state_change), offsetof(struct cec_caps, capabilities));
    printf("%lu %lu %lu %lu %lu %lu %lu %lu %lu\\n", (unsigned long)CEC_ADAP_G_CAPS, (unsigned long)CEC_ADAP_G_PHYS_ADDR,
           (unsigned long)CEC_ADAP_G_LOG_ADDRS, (unsigned long)CEC_ADAP_S_LOG_ADDRS, (unsigned long)CEC_TRANSMIT,
           (unsigned long)CEC_RECEIVE, (unsigned long)CEC_DQEVENT, (unsigned long)CEC_G_MODE, (unsigned long)CEC_S_MODE);
    return 0;
}
"""


def test_the_structures_and_ioctls_are_the_compilers(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not HEADER.exists():
        pytest.skip("needs a C compiler and linux/cec.h (apt-get install gcc libc6-dev)")
    (tmp_path / "abi.c").write_text(ABI)
    subprocess.run([compiler, "-o", str(tmp_path / "abi"), str(tmp_path / "abi.c")], check=True)
    sizes, offsets, ioctls = (line.split() for line in subprocess.run(
        [str(tmp_path / "abi")], capture_output=True, text=True, check=True).stdout.splitlines())
    assert [int(size) for size in sizes] == [ctypes.sizeof(kind) for kind in
                                             (kernel.Caps, kernel.Msg, kernel.LogAddrs, kernel.Event)]
    assert [int(offset) for offset in offsets] == [
        kernel.Msg.msg.offset, kernel.Msg.tx_status.offset, kernel.LogAddrs.osd_name.offset,
        kernel.LogAddrs.features.offset, kernel.Event.payload.offset, kernel.Caps.capabilities.offset]
    assert [int(number) for number in ioctls] == [
        kernel.ADAP_G_CAPS, kernel.ADAP_G_PHYS_ADDR, kernel.ADAP_G_LOG_ADDRS, kernel.ADAP_S_LOG_ADDRS,
        kernel.TRANSMIT, kernel.RECEIVE, kernel.DQEVENT, kernel.G_MODE, kernel.S_MODE]


def test_a_playback_claim_says_what_the_console_is() -> None:
    claim = kernel.playback_claim(osd_name_bytes("Pyramid"), keys_to_kernel=True)
    assert (claim.num_log_addrs, claim.cec_version, claim.osd_name) == (1, kernel.CEC_VERSION_2_0, b"Pyramid")
    assert claim.log_addr_type[0] == kernel.LOG_ADDR_TYPE_PLAYBACK and claim.flags & kernel.LOG_ADDRS_FL_ALLOW_RC_PASSTHRU
    assert not kernel.playback_claim(b"Pyramid", keys_to_kernel=False).flags


# -- the messages ------------------------------------------------------------------------------
def test_a_message_reads_back_from_its_bytes() -> None:
    message = CecMessage(ME, BROADCAST, Opcode.ACTIVE_SOURCE, bytes([0x10, 0x00]))
    assert message.to_bytes() == bytes([0x4F, 0x82, 0x10, 0x00])
    assert CecMessage.parse(message.to_bytes()) == message and message.physical_address() == PLAYER
    assert CecMessage.parse(b"\x44") == CecMessage(ME, ME)  # a poll
    assert dotted(PLAYER) == "1.0.0.0"


@pytest.mark.parametrize("data", [b"", bytes(17)])
def test_bytes_that_are_no_message_are_refused(data: bytes) -> None:
    with pytest.raises(CecError):
        CecMessage.parse(data)


@pytest.mark.parametrize("name", ["", "A name far too long", "Pyramide\u00e9", "tab\there"])
def test_an_osd_name_is_short_printable_ascii(name: str) -> None:
    with pytest.raises(CecError):
        osd_name_bytes(name)


# -- the Playback device -----------------------------------------------------------------------
def claimed(keys_from_messages: bool = False) -> Playback:
    device = Playback(keys_from_messages)
    device.addresses(ME, PLAYER)
    return device


def from_tv(opcode: int, operands: bytes = b"", to: int = ME) -> CecMessage:
    return CecMessage(TV, to, opcode, operands)


def test_one_touch_play_wakes_the_tv_and_shows_the_console() -> None:
    device = claimed()
    step = device.wake()
    assert step.send == (CecMessage(ME, TV, Opcode.IMAGE_VIEW_ON), CecMessage(ME, BROADCAST, Opcode.ACTIVE_SOURCE, b"\x10\x00"))
    assert step.news == (ActiveSource(True),) and device.active
    assert Playback().wake() == CecStep(), "nothing is sent before an address is claimed"


def test_the_queries_a_playback_device_answers() -> None:
    device = claimed()
    assert device.receive(from_tv(Opcode.GIVE_DEVICE_POWER_STATUS)).send == (
        CecMessage(ME, TV, Opcode.REPORT_POWER_STATUS, bytes([Operand.POWER_STATUS_ON])),)
    assert device.receive(from_tv(Opcode.MENU_REQUEST, b"\x02")).send == (
        CecMessage(ME, TV, Opcode.MENU_STATUS, bytes([Operand.MENU_STATE_ACTIVATED])),)
    assert device.receive(from_tv(Opcode.REQUEST_ACTIVE_SOURCE, to=BROADCAST)).send == (), "not the active source"
    device.wake()
    assert device.receive(from_tv(Opcode.REQUEST_ACTIVE_SOURCE, to=BROADCAST)).send == (
        CecMessage(ME, BROADCAST, Opcode.ACTIVE_SOURCE, b"\x10\x00"),)


@pytest.mark.parametrize("opcode", [Opcode.GIVE_OSD_NAME, Opcode.GIVE_PHYSICAL_ADDR, Opcode.GET_CEC_VERSION,
                                    Opcode.GIVE_DEVICE_VENDOR_ID, Opcode.ABORT, Opcode.GIVE_FEATURES])
def test_what_the_kernel_answers_is_never_answered_twice(opcode: Opcode) -> None:
    assert claimed().receive(from_tv(opcode)) == CecStep()


def test_an_unknown_message_to_the_console_is_aborted_and_a_reply_or_broadcast_never_is() -> None:
    device = claimed()
    assert device.receive(from_tv(Opcode.GIVE_DECK_STATUS, b"\x01")).send == (
        CecMessage(ME, TV, Opcode.FEATURE_ABORT, bytes([Opcode.GIVE_DECK_STATUS, Operand.ABORT_UNRECOGNIZED_OP])),)
    assert device.receive(from_tv(0x68, b"\x01")).send[0].opcode == Opcode.FEATURE_ABORT  # any opcode at all
    assert device.receive(from_tv(Opcode.FEATURE_ABORT, b"\x44\x00")) == CecStep()
    assert device.receive(from_tv(Opcode.REPORT_POWER_STATUS, b"\x00")) == CecStep()
    assert device.receive(from_tv(0x68, b"\x01", to=BROADCAST)) == CecStep()


def test_the_tv_showing_another_input_and_back() -> None:
    device = claimed()
    device.wake()
    assert device.receive(CecMessage(8, BROADCAST, Opcode.ACTIVE_SOURCE, b"\x20\x00")).news == (ActiveSource(False),)
    step = device.receive(from_tv(Opcode.SET_STREAM_PATH, b"\x10\x00", to=BROADCAST))
    assert step.news == (ActiveSource(True),) and step.send[0].opcode == Opcode.ACTIVE_SOURCE
    step = device.receive(from_tv(Opcode.ROUTING_CHANGE, b"\x10\x00\x20\x00", to=BROADCAST))
    assert step.news == (ActiveSource(False),) and not device.active


def test_the_tvs_standby_is_told_and_the_console_stops_being_its_source() -> None:
    device = claimed()
    device.wake()
    assert device.receive(from_tv(Opcode.STANDBY, to=BROADCAST)).news == (TvStandby(),)
    assert not device.active
    assert device.standby_tv().send == (CecMessage(ME, TV, Opcode.STANDBY),)


def test_once_claimed_the_console_asks_who_the_tv_is_and_keeps_its_answers() -> None:
    device = Playback()
    assert device.addresses(ME, PLAYER).send == (CecMessage(ME, TV, Opcode.GIVE_OSD_NAME),
                                                 CecMessage(ME, TV, Opcode.GIVE_DEVICE_VENDOR_ID))
    assert device.addresses(ME, PLAYER).send == (), "asked once a claim"
    device.receive(from_tv(Opcode.SET_OSD_NAME, b"TV\x07"))
    device.receive(from_tv(Opcode.DEVICE_VENDOR_ID, b"\x00\x00\xf0", to=BROADCAST))
    assert (device.tv_name, device.tv_vendor) == ("TV?", 0xF0)
    device.receive(from_tv(Opcode.SET_OSD_NAME, "Tél\u034f".encode()))  # a hostile TV: bytes that draw nothing
    assert device.tv_name == "T??l??"
    device.receive(from_tv(Opcode.SET_OSD_NAME))  # no name at all: the one before stays
    assert device.tv_name == "T??l??"


def test_a_hot_plug_with_a_new_physical_address_ends_being_the_source() -> None:
    device = claimed()
    device.wake()
    assert device.addresses(ME, OTHER).news == (ActiveSource(False),)
    assert device.wake().send[1].operands == b"\x20\x00"


def test_the_remotes_keys_from_messages_only_where_the_kernel_makes_no_remote_device() -> None:
    pressed = from_tv(Opcode.USER_CONTROL_PRESSED, b"\x01")
    assert claimed().receive(pressed) == CecStep(), "the kernel's remote-control device has them"
    device = claimed(keys_from_messages=True)
    assert device.receive(pressed).news == (RemoteKey("KEY_UP", True),)
    assert device.receive(from_tv(Opcode.USER_CONTROL_PRESSED, b"\x22")).news == (
        RemoteKey("KEY_UP", False), RemoteKey("KEY_NUMERIC_2", True))  # no release in between: released first
    assert device.receive(from_tv(Opcode.USER_CONTROL_RELEASED)).news == (RemoteKey("KEY_NUMERIC_2", False),)
    assert device.receive(from_tv(Opcode.USER_CONTROL_PRESSED, b"\x60")).news == ()  # a key the console has no use for
