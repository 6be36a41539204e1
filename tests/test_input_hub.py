"""The input hub: thread-safe reports in, actions out of one blocking wait()."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from input.hub import InputHub
from pyramid.actions import Action
from pyramid.errors import InvalidActionError
from fake_clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(50.0)


@pytest.fixture
def hub(clock: FakeClock) -> InputHub:
    return InputHub(clock)


def test_press_from_a_worker_thread_wakes_a_blocked_wait():
    hub = InputHub()
    worker = threading.Timer(0.05, hub.press, ("ok", "remote"))
    worker.start()
    actions = hub.wait(timeout=10)
    worker.join()
    assert actions == [Action("ok")]


def test_wait_times_out_with_no_actions():
    assert InputHub().wait(timeout=0.01) == []


def test_held_arrow_repeats_through_the_hub(hub, clock):
    hub.press("left", "keyboard")
    assert hub.wait(0) == [Action("left")]
    assert hub.next_deadline() == pytest.approx(clock.now + 0.35)
    assert hub.wait(0) == []
    clock.advance(0.35)
    # The repeat is due: even an unlimited wait returns at once.
    assert hub.wait(None) == [Action("left")]
    hub.release("left", "keyboard")
    clock.advance(1)
    assert hub.wait(0) == []
    assert hub.next_deadline() is None


def test_taps_pass_through_in_order_with_buttons(hub):
    hub.press("ok", "mouse-and-keys")
    hub.tap(10, 20, "mouse")
    hub.release("ok", "mouse-and-keys")
    assert hub.wait(0) == [Action("ok"), Action.tap(10, 20)]


def test_unplugged_device_stops_repeating(hub, clock):
    hub.press("down", "pad")
    hub.wait(0)
    hub.device_gone("pad")
    clock.advance(2)
    assert hub.wait(0) == []


def test_bouncy_press_is_one_press_and_a_release_in_the_quiet_period_is_kept(hub, clock):
    hub.press("ok", "GPIO 22", bounce_time=0.02)
    clock.advance(0.002)
    hub.release("ok", "GPIO 22", bounce_time=0.02)
    clock.advance(0.002)
    hub.press("ok", "GPIO 22", bounce_time=0.02)
    clock.advance(0.005)
    hub.release("ok", "GPIO 22", bounce_time=0.02)  # a real, very short press: ends inside the quiet period
    assert hub.wait(0) == [Action("ok")]
    assert hub.next_deadline() == pytest.approx(50.02)
    clock.advance(0.011)
    # A new press right as the release settles: the release opened its own quiet period,
    # so the press counts when that period ends.
    hub.press("ok", "GPIO 22", bounce_time=0.02)
    assert hub.wait(0) == []
    clock.advance(0.02)
    assert hub.wait(0) == [Action("ok")]
    assert [str(record) for record in hub.recent_presses] == ["ok from 'GPIO 22'"] * 2


def test_long_press_through_the_hub(hub, clock):
    hub.press("star", "GPIO 27", long_press="help")
    assert hub.wait(0) == []
    clock.advance(1.0)
    assert hub.wait(0) == [Action("help")]
    hub.release("star", "GPIO 27")
    assert hub.wait(0) == []


def test_recent_presses_name_the_device_and_skip_repeats(hub, clock):
    hub.press("ok", "Logitech USB Receiver")
    hub.press("up", "gpio-keys")
    hub.tap(3, 4, "ADS7846 Touchscreen")
    hub.wait(0)
    clock.advance(1)
    hub.wait(0)  # repeats of "up"
    assert [str(record) for record in hub.recent_presses] == [
        "ok from 'Logitech USB Receiver'",
        "up from 'gpio-keys'",
        "tap:3,4 from 'ADS7846 Touchscreen'",
    ]


def test_press_log_keeps_only_the_latest(hub):
    for _ in range(40):
        hub.press("ok", "kbd")
        hub.release("ok", "kbd")
    hub.wait(0)
    assert 0 < len(hub.recent_presses) <= 16


def test_connected_devices_follow_plug_and_unplug(hub):
    hub.device_added("Pad")
    hub.device_added("Remote")
    hub.device_added("Remote")
    hub.device_gone("Remote")
    hub.device_gone("Pad")
    hub.wait(0)
    assert hub.connected_devices == ("Remote",)


def test_unknown_button_is_rejected_in_the_reporting_thread(hub):
    with pytest.raises(InvalidActionError, match="'select'"):
        hub.press("select", "pad")


def test_close_closes_sources_last_first(hub):
    closed: list[str] = []

    class Named:
        def __init__(self, name: str) -> None:
            self.name = name

        def close(self) -> None:
            closed.append(self.name)

    hub.add_source(Named("gpio"))
    hub.add_source(Named("evdev"))
    hub.close()
    hub.close()
    assert closed == ["evdev", "gpio"]


def test_custom_waiter_is_woken_only_by_other_threads(hub):
    class RecordingWaiter:
        def __init__(self) -> None:
            self.wakes = 0
            self.blocks: list[float | None] = []

        def block(self, timeout: float | None) -> None:
            self.blocks.append(timeout)

        def wake(self) -> None:
            self.wakes += 1

    waiter = RecordingWaiter()
    hub.use_waiter(waiter)
    hub.press("ok", "main thread")
    assert waiter.wakes == 0
    worker = threading.Thread(target=hub.press, args=("back", "worker"))
    worker.start()
    worker.join()
    assert waiter.wakes == 1
    assert hub.wait(5) == [Action("ok"), Action("back")]
    assert waiter.blocks == [0.0]  # events were already queued: the waiter may only poll
    hub.wait(5)
    assert waiter.blocks == [0.0, 5]


def test_stop_from_another_thread_ends_a_blocked_wait():
    hub = InputHub()
    worker = threading.Timer(0.05, hub.stop)
    worker.start()
    assert hub.wait(timeout=None) is None
    worker.join()
    hub.press("ok", "kbd")
    assert hub.wait(0) is None  # stopped for good


def test_stop_from_a_signal_handler_ends_a_blocked_wait():
    hub = InputHub()
    previous = signal.signal(signal.SIGUSR1, lambda number, frame: hub.stop())
    worker = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGUSR1))
    try:
        worker.start()
        assert hub.wait(timeout=None) is None
    finally:
        worker.join()
        signal.signal(signal.SIGUSR1, previous)
