"""The CEC adapter through its ioctls, faked at that seam (tests/fake_cec.py) as the kernel answers them."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from pyramid.system.cec import kernel
from pyramid.system.cec.adapter import Addresses, CecAdapter, LostMessages, Sent
from pyramid.system.cec.messages import BROADCAST, TV, CecError, CecMessage, Opcode

from fake_cec import FakeAdapter


@pytest.fixture
def bus() -> FakeAdapter:
    return FakeAdapter()


@pytest.fixture
def adapter(bus: FakeAdapter) -> Iterator[CecAdapter]:
    opened = CecAdapter("/dev/cec0", os.open(os.devnull, os.O_RDONLY), bus)
    yield opened
    opened.close()


def test_the_adapter_says_what_it_is_and_whether_the_kernel_reads_its_remote(adapter: CecAdapter) -> None:
    info = adapter.info()
    assert (info.driver, info.name, info.has_remote) == ("vivid", "vivid-000-vid-out0", True)


def test_a_claim_is_shared_and_told_as_an_event(adapter: CecAdapter, bus: FakeAdapter) -> None:
    adapter.follow()
    assert bus.mode == kernel.MODE_INITIATOR | kernel.MODE_FOLLOWER, "never exclusive"
    adapter.claim(b"Pyramid", keys_to_kernel=True)
    assert bus.claim.osd_name == b"Pyramid" and bus.claim.flags == kernel.LOG_ADDRS_FL_ALLOW_RC_PASSTHRU
    assert adapter.event() == Addresses(0x1000, 4)
    assert adapter.event() is None
    assert adapter.addresses() == Addresses(0x1000, 4)


def test_an_adapter_claimed_under_this_name_is_kept_and_another_claim_cleared_first(
        adapter: CecAdapter, bus: FakeAdapter) -> None:
    adapter.claim(b"Pyramid", keys_to_kernel=True)
    bus.events.clear()
    adapter.claim(b"Pyramid", keys_to_kernel=True)
    assert not bus.events, "kept: nothing claimed again"
    adapter.claim(b"Other", keys_to_kernel=False)  # claimed by cec-ctl, say: EBUSY unless cleared first
    assert bus.claim.osd_name == b"Other" and [event.state_change.log_addr_mask for event in bus.events] == [0, 1 << 4]


def test_a_hot_plug_is_told_with_the_new_physical_address(adapter: CecAdapter, bus: FakeAdapter) -> None:
    adapter.claim(b"Pyramid", keys_to_kernel=True)
    adapter.event()
    bus.hot_plug(0x2000)
    assert adapter.event() == Addresses(0x2000, 4)


def test_messages_in_and_the_results_of_messages_out(adapter: CecAdapter, bus: FakeAdapter) -> None:
    adapter.claim(b"Pyramid", keys_to_kernel=True)
    query = CecMessage(TV, 4, Opcode.GIVE_DEVICE_POWER_STATUS)
    bus.hear(query)
    assert adapter.receive() == query
    wake = CecMessage(4, TV, Opcode.IMAGE_VIEW_ON)
    adapter.transmit(wake)
    assert bus.sent == [wake] and adapter.receive() == Sent(wake, True)
    bus.tv_on = False
    active = CecMessage(4, BROADCAST, Opcode.ACTIVE_SOURCE, b"\x10\x00")
    adapter.transmit(active)
    assert adapter.receive() == Sent(active, False) and adapter.receive() is None


def test_lost_messages_are_told(adapter: CecAdapter, bus: FakeAdapter) -> None:
    event = kernel.Event()
    event.event, event.lost_msgs = kernel.EVENT_LOST_MSGS, 3
    bus.events.append(event)
    assert adapter.event() == LostMessages(3)


def test_an_adapter_unplugged_says_so_with_its_path(adapter: CecAdapter, bus: FakeAdapter) -> None:
    bus.gone = True
    with pytest.raises(CecError, match="/dev/cec0: reading a message: No such device"):
        adapter.receive()


def test_an_adapter_the_console_may_not_open_says_what_to_do() -> None:
    def refuse(path: str, flags: int) -> int:
        raise PermissionError(13, "Permission denied")

    with pytest.raises(CecError, match="group 'video'"):
        CecAdapter.open("/dev/cec0", opener=refuse)
