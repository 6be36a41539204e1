"""The console on the CEC bus: one thread over every adapter (faked at the ioctl seam), news to the main loop.

Waits are bounded only so that a broken build fails instead of hanging; each
waits for a condition, never for a fixed time.
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Callable, Iterator

import pytest

from pyramid.system.cec.adapter import CecAdapter
from pyramid.system.cec.messages import BROADCAST, TV, CecError, CecMessage, CecPermissionError, Opcode
from pyramid.system.cec.playback import ActiveSource, RemoteKey, TvStandby
from pyramid.system.cec.service import CecService

from fake_cec import FakeAdapter

GUARD = 10.0


class DevWatch:
    """Stands in for the inotify watch on /dev (a pipe the test writes to when it plugs an adapter in)."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)

    def changed(self) -> None:
        os.write(self._write, b"!")

    def fileno(self) -> int:
        return self._read

    def drain(self) -> None:
        try:
            os.read(self._read, 4096)
        except BlockingIOError:
            pass

    def close(self) -> None:
        os.close(self._read)
        os.close(self._write)


class Bus:
    """Fake adapters by path, the service over them and the news it posted."""

    def __init__(self, *paths: str, has_remote: bool = True, wake_tv: bool = True, watch: DevWatch | None = None) -> None:
        capabilities = FakeAdapter().capabilities if has_remote else FakeAdapter().capabilities & ~(1 << 4)
        self.adapters = {path: FakeAdapter(capabilities=capabilities) for path in paths}
        self.news: queue.Queue[object] = queue.Queue()
        self.root_only: set[str] = set()  # nodes udev has not given the group video yet
        self.service = CecService(self.news.put, wake_tv=wake_tv, paths=lambda: list(self.adapters),
                                  opener=self.open, watch=watch)

    def open(self, path: str) -> CecAdapter:
        fake = self.adapters[path]
        if fake.gone:
            raise CecError(f"{path}: No such device")
        if path in self.root_only:
            raise CecPermissionError(f"{path}: permission denied")
        return CecAdapter(path, os.dup(fake.node), fake)

    def until(self, condition: Callable[[], bool]) -> None:
        deadline = time.monotonic() + GUARD
        while not condition():
            assert time.monotonic() < deadline, "the service did not get there"
            time.sleep(0.005)

    def next_news(self) -> object:
        return self.news.get(timeout=GUARD)


@pytest.fixture
def bus() -> Iterator[Bus]:
    made = Bus("/dev/cec0")
    made.service.start()
    yield made
    made.service.stop()


def test_the_console_claims_an_address_and_wakes_the_tv_once_claimed(bus: Bus) -> None:
    tv = bus.adapters["/dev/cec0"]
    assert bus.next_news() == ActiveSource(True)
    assert tv.sent[:4] == [CecMessage(4, TV, Opcode.GIVE_OSD_NAME), CecMessage(4, TV, Opcode.GIVE_DEVICE_VENDOR_ID),
                           CecMessage(4, TV, Opcode.IMAGE_VIEW_ON),
                           CecMessage(4, BROADCAST, Opcode.ACTIVE_SOURCE, b"\x10\x00")]
    status, = bus.service.statuses()
    assert (status.physical, status.logical, status.active, status.info.driver) == ("1.0.0.0", 4, True, "vivid")
    tv.hear(CecMessage(TV, 4, Opcode.SET_OSD_NAME, b"BRAVIA"))
    tv.hear(CecMessage(TV, BROADCAST, Opcode.DEVICE_VENDOR_ID, b"\x08\x00\x46"))
    bus.until(lambda: bus.service.statuses()[0].tv_vendor == "08:00:46")
    assert bus.service.statuses()[0].tv_name == "BRAVIA"


def test_a_console_restarted_on_its_own_claim_still_wakes_the_tv() -> None:
    """The kernel keeps a claim when the console's process ends: the next console keeps it, and no event
    comes; it is taken as if it had."""
    again = Bus("/dev/cec0")
    fake = again.adapters["/dev/cec0"]
    first = CecAdapter("/dev/cec0", os.dup(fake.node), fake)
    first.claim(b"Pyramid", keys_to_kernel=True)
    first.close()
    fake.events.clear()
    again.service.start()
    try:
        assert again.next_news() == ActiveSource(True)
        assert CecMessage(4, TV, Opcode.IMAGE_VIEW_ON) in fake.sent
    finally:
        again.service.stop()


def test_the_tvs_questions_are_answered_and_its_standby_told(bus: Bus) -> None:
    tv = bus.adapters["/dev/cec0"]
    bus.next_news()
    tv.hear(CecMessage(TV, 4, Opcode.GIVE_DEVICE_POWER_STATUS))
    bus.until(lambda: CecMessage(4, TV, Opcode.REPORT_POWER_STATUS, b"\x00") in tv.sent)
    tv.hear(CecMessage(TV, BROADCAST, Opcode.STANDBY))
    assert bus.next_news() == TvStandby()


def test_the_main_loop_asks_for_the_tv_and_its_standby(bus: Bus) -> None:
    tv = bus.adapters["/dev/cec0"]
    bus.next_news()
    tv.hear(CecMessage(8, BROADCAST, Opcode.ACTIVE_SOURCE, b"\x20\x00"))  # another input shown
    assert bus.next_news() == ActiveSource(False)
    bus.service.wake()
    assert bus.next_news() == ActiveSource(True)
    bus.service.standby_tv()
    bus.until(lambda: tv.sent[-1] == CecMessage(4, TV, Opcode.STANDBY))


def test_an_adapter_unplugged_is_left_and_the_others_go_on() -> None:
    two = Bus("/dev/cec0", "/dev/cec1")
    two.service.start()
    try:
        two.next_news(), two.next_news()
        two.adapters["/dev/cec0"].unplug()
        two.until(lambda: [status.info.path for status in two.service.statuses()] == ["/dev/cec1"])
        two.adapters["/dev/cec1"].hear(CecMessage(TV, BROADCAST, Opcode.STANDBY))
        assert two.next_news() == TvStandby()
    finally:
        two.service.stop()


def test_keys_are_read_from_the_messages_only_without_the_kernels_remote_device() -> None:
    plain = Bus("/dev/cec0", has_remote=False, wake_tv=False)
    plain.service.start()
    try:
        tv = plain.adapters["/dev/cec0"]
        plain.until(lambda: bool(plain.service.statuses()) and plain.service.statuses()[0].logical == 4)
        assert Opcode.IMAGE_VIEW_ON not in [message.opcode for message in tv.sent], "wake_tv off: the TV is left as it is"
        tv.hear(CecMessage(TV, 4, Opcode.USER_CONTROL_PRESSED, b"\x00"))
        assert plain.next_news() == RemoteKey("KEY_OK", True)
    finally:
        plain.service.stop()


def test_an_adapter_at_the_tvs_address_is_left_alone() -> None:
    """An HDMI input's adapter (a TV's own; vivid makes one beside its output) is at 0.0.0.0: never claimed."""
    both = Bus("/dev/cec0", "/dev/cec1")
    both.adapters["/dev/cec0"].physical = 0x0000
    both.service.start()
    try:
        assert both.next_news() == ActiveSource(True)
        assert [status.info.path for status in both.service.statuses()] == ["/dev/cec1"]
        assert both.adapters["/dev/cec0"].claim.num_log_addrs == 0 and both.adapters["/dev/cec0"].sent == []
    finally:
        both.service.stop()


def test_an_adapter_plugged_in_later_is_followed_and_one_unplugged_and_plugged_again_too() -> None:
    watch = DevWatch()
    later = Bus(watch=watch)
    later.service.start()
    try:
        assert later.service.statuses() == ()
        later.adapters["/dev/cec0"] = FakeAdapter()
        watch.changed()
        assert later.next_news() == ActiveSource(True)
        later.adapters["/dev/cec0"].unplug()
        later.until(lambda: later.service.statuses() == ())
        watch.changed()  # the node still there (a failing adapter): not opened again until it is gone and back
        del later.adapters["/dev/cec0"]
        watch.changed()
        later.until(lambda: "/dev/cec0" not in later.service._passed)  # noqa: SLF001 (seen gone)
        later.adapters["/dev/cec0"] = FakeAdapter()
        watch.changed()
        assert later.next_news() == ActiveSource(True)
    finally:
        later.service.stop()


def test_a_new_node_refused_until_udev_gives_it_its_group_is_opened_then(caplog: pytest.LogCaptureFixture) -> None:
    """Seen on a real kernel (tests/test_vm_cec.py): the node appears as root's, udev changes it a moment later."""
    watch = DevWatch()
    later = Bus(watch=watch)
    later.service.start()
    try:
        later.adapters["/dev/cec0"] = FakeAdapter()
        later.root_only.add("/dev/cec0")
        watch.changed()
        later.until(lambda: "not used (yet)" in caplog.text)
        watch.changed()  # another change, still refused: not told again
        later.root_only.clear()
        watch.changed()  # udev's change of its group
        assert later.next_news() == ActiveSource(True)
        assert caplog.text.count("not used (yet)") == 1
    finally:
        later.service.stop()


def test_no_adapter_no_thread() -> None:
    service = CecService(lambda news: None, paths=lambda: [])
    service.start()
    assert service.statuses() == () and service._thread is None  # noqa: SLF001 (nothing runs)
    service.stop()
