"""evdev devices: real InputEvent sequences through fake devices at the opener seam.

The reader thread, its select loop, the inotify hot-plug watch and the hub are
real; only the device nodes are fakes (files in a temporary directory, opened
by a fake opener that returns devices whose file descriptor is a pipe).
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from pathlib import Path

import pytest

evdev = pytest.importorskip("evdev")
from evdev import AbsInfo, DeviceInfo, InputEvent, ecodes

from display.rotation import Rotation
from input import evdev_devices
from input.evdev_devices import DeviceTranslator, EvdevDevices
from input.hub import TV_REMOTE as TV_REMOTE_DEVICE, InputHub
from input.keymap import InputSettings, KeyMap
from pyramid.actions import Action
from fake_clock import FakeClock

PANEL = (800, 480)
REMOTE_KEYS = [ecodes.KEY_UP, ecodes.KEY_DOWN, ecodes.KEY_LEFT, ecodes.KEY_RIGHT, ecodes.KEY_OK, ecodes.KEY_SELECT,
               ecodes.KEY_BACK, ecodes.KEY_EXIT, ecodes.KEY_ESC, ecodes.KEY_HOMEPAGE, ecodes.KEY_MENU,
               ecodes.KEY_INFO, ecodes.KEY_VOLUMEUP]
KEYBOARD_KEYS = [ecodes.KEY_Q, ecodes.KEY_A, ecodes.KEY_Z, ecodes.KEY_ESC, ecodes.KEY_SPACE, ecodes.KEY_ENTER,
                 ecodes.KEY_BACKSPACE, ecodes.KEY_KPASTERISK, ecodes.KEY_F1, ecodes.KEY_UP, ecodes.KEY_DOWN]
GAMEPAD = {
    ecodes.EV_KEY: [ecodes.BTN_SOUTH, ecodes.BTN_EAST, ecodes.BTN_START, ecodes.BTN_SELECT, ecodes.BTN_DPAD_UP],
    ecodes.EV_ABS: [(ecodes.ABS_X, AbsInfo(0, -32768, 32767, 16, 128, 0)),
                    (ecodes.ABS_HAT0X, AbsInfo(0, -1, 1, 0, 0, 0)), (ecodes.ABS_HAT0Y, AbsInfo(0, -1, 1, 0, 0, 0))],
}
MT_TOUCHSCREEN = {
    ecodes.EV_KEY: [ecodes.BTN_TOUCH],
    ecodes.EV_ABS: [(ecodes.ABS_MT_SLOT, AbsInfo(0, 0, 9, 0, 0, 0)),
                    (ecodes.ABS_MT_POSITION_X, AbsInfo(0, 0, 4095, 0, 0, 0)),
                    (ecodes.ABS_MT_POSITION_Y, AbsInfo(0, 0, 4095, 0, 0, 0)),
                    (ecodes.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0))],
}
GPIO_KEYS = {ecodes.EV_KEY: [ecodes.KEY_UP, ecodes.KEY_DOWN, ecodes.KEY_LEFT, ecodes.KEY_RIGHT, ecodes.KEY_ENTER,
                             ecodes.KEY_BACKSPACE, ecodes.KEY_HOMEPAGE]}


def key(code: int, value: int) -> list[InputEvent]:
    return [InputEvent(1, 0, ecodes.EV_KEY, code, value), InputEvent(1, 0, ecodes.EV_SYN, ecodes.SYN_REPORT, 0)]


def absolute(code: int, value: int) -> InputEvent:
    return InputEvent(1, 0, ecodes.EV_ABS, code, value)


def report() -> InputEvent:
    return InputEvent(1, 0, ecodes.EV_SYN, ecodes.SYN_REPORT, 0)


class FakeDevice:
    """Stands in for evdev.InputDevice: a pipe makes it readable for select, like a real node."""

    def __init__(self, name: str, capabilities: dict, props: tuple[int, ...] = (), bus: int = ecodes.BUS_USB) -> None:
        self.name = name
        self.info = DeviceInfo(bus, 0x1234, 0x5678, 1)
        self._capabilities = capabilities
        self._props = list(props)
        self._readable, self._writable = os.pipe()
        os.set_blocking(self._readable, False)
        self._pending: list[InputEvent] = []
        self._lock = threading.Lock()
        self.unplugged = False
        self.reads = 0
        self.grabbed = False
        self.closed = False

    def fileno(self) -> int:
        return self._readable

    def capabilities(self, verbose: bool = False, absinfo: bool = True) -> dict:
        return self._capabilities

    def input_props(self) -> list[int]:
        return self._props

    def grab(self) -> None:
        self.grabbed = True

    def send(self, *events: InputEvent) -> None:
        with self._lock:
            self._pending.extend(events)
        os.write(self._writable, b"e")

    def unplug(self) -> None:
        self.unplugged = True
        os.write(self._writable, b"u")  # a dead node stays readable, as after ENODEV

    def read(self):
        self.reads += 1
        if self.unplugged:
            raise OSError(errno.ENODEV, "No such device")
        try:
            os.read(self._readable, 4096)
        except BlockingIOError:
            pass
        with self._lock:
            events, self._pending = self._pending, []
        if not events:
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        return iter(events)

    def close(self) -> None:
        self.closed = True
        os.close(self._readable)
        os.close(self._writable)


class FakeNodes:
    """A directory of event nodes (plain files, so glob and inotify are real) and the opener for them."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.devices: dict[str, FakeDevice] = {}
        self.refused: set[str] = set()
        self.opens: list[str] = []

    def plug(self, node: str, device: FakeDevice) -> FakeDevice:
        self.devices[str(self.directory / node)] = device
        (self.directory / node).touch()
        return device

    def remove(self, node: str) -> None:
        (self.directory / node).unlink()

    def open(self, path: str) -> FakeDevice:
        self.opens.append(path)
        if path in self.refused:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        if path not in self.devices:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        if self.devices[path].unplugged:  # the node of an unplugged device lingers for a moment
            raise OSError(errno.ENODEV, "No such device", path)
        return self.devices[path]


@pytest.fixture
def nodes(tmp_path: Path) -> FakeNodes:
    return FakeNodes(tmp_path)


@pytest.fixture
def hub() -> InputHub:
    return InputHub()


@pytest.fixture
def start(hub: InputHub, nodes: FakeNodes):
    started: list[EvdevDevices] = []

    def start(**options) -> EvdevDevices:
        options.setdefault("panel_size", lambda: PANEL)
        reader = EvdevDevices(hub, directory=str(nodes.directory), opener=nodes.open, **options)
        started.append(reader)
        return reader

    yield start
    for reader in started:
        reader.close()


def wait_for(hub: InputHub, count: int) -> list[Action]:
    """Collect actions until ``count`` arrived (bounded, so a bug fails instead of hanging)."""
    actions: list[Action] = []
    deadline = time.monotonic() + 10
    while len(actions) < count and time.monotonic() < deadline:
        actions += hub.wait(0.2)
    return actions


def wait_until(hub: InputHub, condition) -> None:
    deadline = time.monotonic() + 10
    while not condition() and time.monotonic() < deadline:
        hub.wait(0.05)
    assert condition()


# -- translation, without threads ---------------------------------------------


def translate(capabilities: dict, events: list[InputEvent], *, props=(), panel_size=None, clock=None,
              keymap: KeyMap | None = None) -> list[Action]:
    hub = InputHub(clock or FakeClock(0.0))
    translator = DeviceTranslator("dev", capabilities, props, keymap or KeyMap.default(), panel_size)
    for event in events:
        translator.handle(event, hub)
    return hub.wait(0)


@pytest.mark.parametrize(
    ("code", "action"),
    [(ecodes.KEY_UP, "up"), (ecodes.KEY_OK, "ok"), (ecodes.KEY_SELECT, "ok"), (ecodes.KEY_BACK, "back"),
     (ecodes.KEY_EXIT, "back"), (ecodes.KEY_ESC, "back"), (ecodes.KEY_HOMEPAGE, "star"), (ecodes.KEY_MENU, "star"),
     (ecodes.KEY_INFO, "help")],
)
def test_remote_keys(code, action):
    assert translate({ecodes.EV_KEY: REMOTE_KEYS}, key(code, 1) + key(code, 0)) == [Action(action)]


@pytest.mark.parametrize(
    ("code", "action"),
    [(ecodes.KEY_ESC, "star"), (ecodes.KEY_KPASTERISK, "star"), (ecodes.KEY_SPACE, "ok"), (ecodes.KEY_ENTER, "ok"),
     (ecodes.KEY_BACKSPACE, "back"), (ecodes.KEY_F1, "help")],
)
def test_keyboard_keys_follow_the_keyboard_row(code, action):
    assert translate({ecodes.EV_KEY: KEYBOARD_KEYS}, key(code, 1) + key(code, 0)) == [Action(action)]


def test_held_back_undoes_on_a_device_without_an_undo_key_and_is_immediate_with_one():
    clock = FakeClock(0.0)
    hub = InputHub(clock)
    remote = DeviceTranslator("remote", {ecodes.EV_KEY: REMOTE_KEYS}, (), KeyMap.default(), None)
    remote.handle(key(ecodes.KEY_BACK, 1)[0], hub)
    assert hub.wait(0) == []  # could still become a long press
    clock.now = 1.5
    assert hub.wait(0) == [Action("undo")]
    remote.handle(key(ecodes.KEY_BACK, 0)[0], hub)
    assert hub.wait(0) == []
    pad = DeviceTranslator("pad", {ecodes.EV_KEY: [ecodes.BTN_EAST, ecodes.BTN_WEST, ecodes.BTN_NORTH]}, (),
                           KeyMap.default(), None)
    for event in key(ecodes.BTN_EAST, 1) + key(ecodes.BTN_WEST, 1) + key(ecodes.BTN_NORTH, 1):
        pad.handle(event, hub)
    assert hub.wait(0) == [Action("back"), Action("undo"), Action("hint")]


def test_keys_the_console_does_not_use_are_ignored():
    assert translate({ecodes.EV_KEY: REMOTE_KEYS}, key(ecodes.KEY_VOLUMEUP, 1)) == []


def test_kernel_repeats_are_ignored_and_the_hub_repeats():
    clock = FakeClock(0.0)
    hub = InputHub(clock)
    translator = DeviceTranslator("remote", {ecodes.EV_KEY: REMOTE_KEYS}, (), KeyMap.default(), None)
    for event in key(ecodes.KEY_DOWN, 1) + key(ecodes.KEY_DOWN, 2) + key(ecodes.KEY_DOWN, 2):
        translator.handle(event, hub)
    assert hub.wait(0) == [Action("down")]
    clock.now = 0.35
    assert hub.wait(0) == [Action("down")]
    for event in key(ecodes.KEY_DOWN, 0):
        translator.handle(event, hub)
    clock.now = 2
    assert hub.wait(0) == []


@pytest.mark.parametrize(
    ("code", "action"),
    [(ecodes.BTN_SOUTH, "ok"), (ecodes.BTN_EAST, "back"), (ecodes.BTN_START, "star"), (ecodes.BTN_SELECT, "help"),
     (ecodes.BTN_DPAD_UP, "up")],
)
def test_gamepad_buttons(code, action):
    assert translate(GAMEPAD, key(code, 1) + key(code, 0)) == [Action(action)]


def test_gamepad_hat_presses_and_releases_arrows():
    clock = FakeClock(0.0)
    events = [absolute(ecodes.ABS_HAT0X, -1), report(), absolute(ecodes.ABS_HAT0X, 1), report(),
              absolute(ecodes.ABS_HAT0X, 0), report(), absolute(ecodes.ABS_HAT0Y, 1), report(),
              absolute(ecodes.ABS_HAT0Y, -1), report(), absolute(ecodes.ABS_X, 30000), report()]
    assert translate(GAMEPAD, events, clock=clock) == [Action("left"), Action("right"), Action("down"), Action("up")]


def test_gamepad_hat_held_repeats_until_centred():
    clock = FakeClock(0.0)
    hub = InputHub(clock)
    translator = DeviceTranslator("pad", GAMEPAD, (), KeyMap.default(), None)
    translator.handle(absolute(ecodes.ABS_HAT0Y, 1), hub)
    assert hub.wait(0) == [Action("down")]
    clock.now = 0.35
    assert hub.wait(0) == [Action("down")]
    translator.handle(absolute(ecodes.ABS_HAT0Y, 0), hub)
    clock.now = 3
    assert hub.wait(0) == []


def test_gpio_key_buttons_without_help_key_get_help_by_holding_star():
    clock = FakeClock(0.0)
    hub = InputHub(clock)
    translator = DeviceTranslator("gpio_keys", GPIO_KEYS, (), KeyMap.default(), None)
    for event in key(ecodes.KEY_HOMEPAGE, 1):
        translator.handle(event, hub)
    assert hub.wait(0) == []
    clock.now = 1.0
    assert hub.wait(0) == [Action("help")]
    for event in key(ecodes.KEY_HOMEPAGE, 0) + key(ecodes.KEY_HOMEPAGE, 1) + key(ecodes.KEY_HOMEPAGE, 0):
        translator.handle(event, hub)
    assert hub.wait(0) == [Action("star")]


def test_a_remote_with_an_info_key_has_an_immediate_star():
    assert translate({ecodes.EV_KEY: REMOTE_KEYS}, key(ecodes.KEY_HOMEPAGE, 1)) == [Action("star")]


def test_settings_key_map_is_used():
    settings = InputSettings.from_settings({"input": {"keys": {"ok": ["KEY_PLAYPAUSE"]}}})
    caps = {ecodes.EV_KEY: [ecodes.KEY_PLAYPAUSE]}
    assert translate(caps, key(ecodes.KEY_PLAYPAUSE, 1), keymap=settings.keys) == [Action("ok")]


def touch_at(x: int, y: int) -> list[InputEvent]:
    return [InputEvent(1, 0, ecodes.EV_KEY, ecodes.BTN_TOUCH, 1), absolute(ecodes.ABS_MT_SLOT, 0),
            absolute(ecodes.ABS_MT_TRACKING_ID, 7), absolute(ecodes.ABS_MT_POSITION_X, x),
            absolute(ecodes.ABS_MT_POSITION_Y, y), report()]


def lift() -> list[InputEvent]:
    return [absolute(ecodes.ABS_MT_TRACKING_ID, -1), InputEvent(1, 0, ecodes.EV_KEY, ecodes.BTN_TOUCH, 0), report()]


def on_frame(taps: list[Action], degrees: int) -> list[tuple[int, int]]:
    """Taps (panel pixels) as the application sees them: turned back by the display's rotation."""
    rotation = Rotation(degrees)
    frame = rotation.frame_size(PANEL)
    return [rotation.to_frame_point(tap.x, tap.y, frame) for tap in taps]


@pytest.mark.parametrize(
    ("degrees", "top_left", "top_right", "middle"),
    [
        # Touches at the panel's top-left and top-right corners and at its centre, as frame points.
        (0, (0, 0), (799, 0), (400, 240)),
        (90, (0, 799), (0, 0), (240, 399)),
        (180, (799, 479), (0, 479), (399, 239)),
        (270, (479, 0), (479, 799), (239, 400)),
    ],
)
def test_touchscreen_taps_follow_the_display_rotation(degrees, top_left, top_right, middle):
    events = touch_at(0, 0) + lift() + touch_at(4095, 0) + lift() + touch_at(2048, 2048) + lift()
    taps = translate(MT_TOUCHSCREEN, events, props=(ecodes.INPUT_PROP_DIRECT,), panel_size=lambda: PANEL)
    assert taps == [Action.tap(0, 0), Action.tap(799, 0), Action.tap(400, 240)]
    assert on_frame(taps, degrees) == [top_left, top_right, middle]


def test_single_touch_axes_are_scaled_by_their_min_and_max():
    caps = {ecodes.EV_KEY: [ecodes.BTN_TOUCH],
            ecodes.EV_ABS: [(ecodes.ABS_X, AbsInfo(0, 200, 3900, 0, 0, 0)), (ecodes.ABS_Y, AbsInfo(0, 300, 3800, 0, 0, 0))]}
    events = [InputEvent(1, 0, ecodes.EV_KEY, ecodes.BTN_TOUCH, 1), absolute(ecodes.ABS_X, 2050),
              absolute(ecodes.ABS_Y, 3800), report(), absolute(ecodes.ABS_X, 2100), report(),
              InputEvent(1, 0, ecodes.EV_KEY, ecodes.BTN_TOUCH, 0), report(),
              InputEvent(1, 0, ecodes.EV_KEY, ecodes.BTN_TOUCH, 1), absolute(ecodes.ABS_X, 0), report()]
    # One tap per touch (moving the finger is not another tap); out-of-range values are clamped.
    assert translate(caps, events, panel_size=lambda: PANEL) == [Action.tap(400, 479), Action.tap(0, 479)]


def test_second_finger_does_not_move_the_tap():
    events = [InputEvent(1, 0, ecodes.EV_KEY, ecodes.BTN_TOUCH, 1), absolute(ecodes.ABS_MT_SLOT, 1),
              absolute(ecodes.ABS_MT_POSITION_X, 4095), absolute(ecodes.ABS_MT_SLOT, 0),
              absolute(ecodes.ABS_MT_POSITION_X, 0), absolute(ecodes.ABS_MT_POSITION_Y, 0), report()]
    assert translate(MT_TOUCHSCREEN, events, panel_size=lambda: PANEL) == [Action.tap(0, 0)]


def test_touchpad_is_not_a_touchscreen():
    translator = DeviceTranslator("pad", MT_TOUCHSCREEN, (ecodes.INPUT_PROP_POINTER,), KeyMap.default(),
                                  lambda: PANEL)
    assert not translator.useful


# -- the reader thread with fake nodes -----------------------------------------


def test_remote_present_at_start_is_grabbed_and_read(start, nodes, hub):
    remote = nodes.plug("event3", FakeDevice("Logitech USB Receiver", {ecodes.EV_KEY: REMOTE_KEYS}))
    start()
    remote.send(*key(ecodes.KEY_OK, 1), *key(ecodes.KEY_OK, 0))
    assert wait_for(hub, 1) == [Action("ok")]
    assert remote.grabbed
    assert str(hub.recent_presses[-1]) == "ok from 'Logitech USB Receiver'"
    assert hub.connected_devices == ("Logitech USB Receiver",)


def test_a_tvs_remote_is_counted_as_the_tv_remote_whatever_its_adapter_is_called(start, nodes, hub, caplog):
    """The rc device of an HDMI-CEC adapter (bus BUS_CEC) is named after the adapter ("vc4-hdmi-0" on a
    Pi 4's first port): its presses and the Controls page say the TV's remote; the log keeps the kernel's name."""
    caplog.set_level(logging.INFO, logger="input")
    tv = nodes.plug("event5", FakeDevice("vc4-hdmi-0", {ecodes.EV_KEY: RC_CEC_KEYS}, bus=ecodes.BUS_CEC))
    start()
    tv.send(*key(ecodes.KEY_RIGHT, 1), *key(ecodes.KEY_RIGHT, 0))
    assert wait_for(hub, 1) == [Action("right")]
    assert hub.connected_devices == (TV_REMOTE_DEVICE,)
    assert str(hub.recent_presses[-1]) == f"right from {TV_REMOTE_DEVICE!r}"
    assert "input device 'vc4-hdmi-0' on" in caplog.text and "TV remote, HDMI-CEC" in caplog.text
    tv.unplug()
    wait_until(hub, lambda: hub.connected_devices == ())


def test_devices_without_anything_useful_are_left_alone(start, nodes, hub):
    power = nodes.plug("event0", FakeDevice("pwr_button", {ecodes.EV_KEY: [ecodes.KEY_POWER]}))
    start()
    hub.wait(0)
    assert not power.grabbed and power.closed
    assert hub.connected_devices == ()


def test_touchscreen_through_the_reader(start, nodes, hub):
    screen = nodes.plug("event1", FakeDevice("ADS7846 Touchscreen", MT_TOUCHSCREEN, (ecodes.INPUT_PROP_DIRECT,)))
    start()
    screen.send(*touch_at(4095, 4095), *lift())
    assert wait_for(hub, 1) == [Action.tap(799, 479)]
    assert str(hub.recent_presses[-1]) == "tap:799,479 from 'ADS7846 Touchscreen'"


def test_without_a_panel_size_touchscreens_are_left_alone(start, nodes, hub):
    screen = nodes.plug("event1", FakeDevice("ADS7846 Touchscreen", MT_TOUCHSCREEN, (ecodes.INPUT_PROP_DIRECT,)))
    start(panel_size=None)
    assert not screen.grabbed and screen.closed


def test_unplug_mid_read_drops_the_device_without_spinning(start, nodes, hub):
    pad = nodes.plug("event5", FakeDevice("Gamepad", GAMEPAD))
    remote = nodes.plug("event6", FakeDevice("Remote", {ecodes.EV_KEY: REMOTE_KEYS}))
    start()
    pad.send(absolute(ecodes.ABS_HAT0X, 1), report())  # held right ...
    assert wait_for(hub, 1) == [Action("right")]
    pad.unplug()
    nodes.remove("event5")
    wait_until(hub, lambda: hub.connected_devices == ("Remote",))
    reads = pad.reads
    time.sleep(0.2)  # a descriptor left in select would be read again and again here
    assert pad.reads == reads and pad.closed
    assert hub.wait(0.5) == []  # ... and the held arrow stopped repeating
    # The other device still works (a remote without an undo key: Back is told on release, see below).
    remote.send(*key(ecodes.KEY_BACK, 1), *key(ecodes.KEY_BACK, 0))
    assert wait_for(hub, 1) == [Action("back")]


def test_hot_plugged_device_is_picked_up(start, nodes, hub):
    start()
    assert hub.wait(0) == []
    pad = nodes.plug("event7", FakeDevice("8BitDo", GAMEPAD))
    wait_until(hub, lambda: hub.connected_devices == ("8BitDo",))
    pad.send(*key(ecodes.BTN_SOUTH, 1))
    assert wait_for(hub, 1) == [Action("ok")]


def test_replugged_device_on_the_same_node_is_opened_again(start, nodes, hub):
    first = nodes.plug("event4", FakeDevice("Remote", {ecodes.EV_KEY: REMOTE_KEYS}))
    start()
    first.unplug()
    nodes.remove("event4")
    wait_until(hub, lambda: hub.connected_devices == ())
    second = nodes.plug("event4", FakeDevice("Remote", {ecodes.EV_KEY: REMOTE_KEYS}))
    wait_until(hub, lambda: hub.connected_devices == ("Remote",))
    second.send(*key(ecodes.KEY_INFO, 1))
    assert wait_for(hub, 1) == [Action("help")]


def test_rescans_without_inotify(start, nodes, hub, monkeypatch, caplog):
    def no_inotify(directory: str):
        raise OSError(errno.ENOSYS, "Function not implemented", directory)

    monkeypatch.setattr(evdev_devices.NodeWatcher, "open", staticmethod(no_inotify))
    with caplog.at_level(logging.WARNING):
        start()
    assert "looking again every 1 s" in caplog.text
    pad = nodes.plug("event2", FakeDevice("Pad", GAMEPAD))
    wait_until(hub, lambda: hub.connected_devices == ("Pad",))
    pad.send(*key(ecodes.BTN_EAST, 1), *key(ecodes.BTN_EAST, 0))  # a pad without BTN_WEST: Back on release
    assert wait_for(hub, 1) == [Action("back")]


def test_a_node_that_cannot_be_opened_is_reported_once(start, nodes, hub, caplog):
    nodes.refused.add(str(nodes.directory / "event9"))
    nodes.plug("event9", FakeDevice("Secret", {ecodes.EV_KEY: REMOTE_KEYS}))
    with caplog.at_level(logging.WARNING, logger="input.evdev_devices"):
        start(permission_grace=0)
        for number in range(3):  # more hot-plug activity makes the reader look at event9 again
            nodes.plug(f"event1{number}", FakeDevice(f"Pad {number}", GAMEPAD))
        wait_until(hub, lambda: len(hub.connected_devices) == 3)
    warnings = [r.getMessage() for r in caplog.records if "event9" in r.getMessage()]
    assert len(warnings) == 1
    assert "Permission denied" in warnings[0] and "'input' group" in warnings[0]
    assert nodes.opens.count(str(nodes.directory / "event9")) > 1  # retried, reported once


def test_a_node_whose_permissions_are_fixed_is_opened(start, nodes, hub, caplog):
    path = str(nodes.directory / "event8")
    nodes.refused.add(path)
    remote = nodes.plug("event8", FakeDevice("Remote", {ecodes.EV_KEY: REMOTE_KEYS}))
    with caplog.at_level(logging.WARNING, logger="input.evdev_devices"):
        start(permission_grace=60)  # within the grace period: udev may still be setting the permissions
        nodes.refused.clear()
        os.chmod(path, 0o640)  # what udev does: an attribute change wakes the reader
        wait_until(hub, lambda: hub.connected_devices == ("Remote",))
    assert "event8" not in caplog.text
    remote.send(*key(ecodes.KEY_OK, 1))
    assert wait_for(hub, 1) == [Action("ok")]


def test_close_stops_the_thread_and_closes_devices(hub, nodes):
    remote = nodes.plug("event3", FakeDevice("Remote", {ecodes.EV_KEY: REMOTE_KEYS}))
    reader = EvdevDevices(hub, directory=str(nodes.directory), opener=nodes.open)
    hub.add_source(reader)
    hub.close()
    assert remote.closed
    assert not any(thread.name == "evdev input" for thread in threading.enumerate())


@pytest.mark.machine
@pytest.mark.skipif(not os.path.exists("/dev/uinput") or not os.access("/dev/uinput", os.W_OK),
                    reason="needs a writable /dev/uinput")
def test_a_real_uinput_remote_end_to_end(hub):
    with evdev.UInput({ecodes.EV_KEY: [ecodes.KEY_OK, ecodes.KEY_EXIT]}, name="pyramid test remote") as remote:
        ours = remote.device.path

        def open_only_ours(path: str) -> evdev.InputDevice:
            """Leave the machine's real keyboard alone: grabbing it would steal the developer's keys."""
            if path != ours:
                raise FileNotFoundError(errno.ENOENT, "not the test device", path)
            return evdev.InputDevice(path)

        reader = EvdevDevices(hub, opener=open_only_ours)
        try:
            wait_until(hub, lambda: "pyramid test remote" in hub.connected_devices)
            remote.write(ecodes.EV_KEY, ecodes.KEY_EXIT, 1)
            remote.syn()
            assert wait_for(hub, 1) == [Action("back")]
        finally:
            reader.close()


#: The keys of a TV's own remote as the kernel's rc-cec keymap gives them (drivers/media/rc/keymaps/rc-cec.c:
#: CEC user control code → key), for the buttons the console answers to (issue 49's keymap).
TV_REMOTE = {
    0x00: (ecodes.KEY_OK, "ok"), 0x01: (ecodes.KEY_UP, "up"), 0x02: (ecodes.KEY_DOWN, "down"),
    0x03: (ecodes.KEY_LEFT, "left"), 0x04: (ecodes.KEY_RIGHT, "right"), 0x09: (ecodes.KEY_ROOT_MENU, "star"),
    0x0B: (ecodes.KEY_MENU, "star"), 0x0D: (ecodes.KEY_EXIT, "back"), 0x11: (ecodes.KEY_CONTEXT_MENU, "star"),
    0x35: (ecodes.KEY_INFO, "help"), 0x4C: (ecodes.KEY_BACK, "back"), 0x72: (ecodes.KEY_RED, "undo"),
    0x73: (ecodes.KEY_GREEN, "hint"),
}
RC_CEC_KEYS = [code for code, _ in TV_REMOTE.values()] + [getattr(ecodes, f"KEY_NUMERIC_{n}") for n in range(10)]


@pytest.mark.parametrize("ui_command", sorted(TV_REMOTE), ids=lambda command: f"cec-{command:#04x}")
def test_a_tv_remotes_keys_through_hdmi_cec(ui_command: int) -> None:
    code, action = TV_REMOTE[ui_command]
    assert translate({ecodes.EV_KEY: RC_CEC_KEYS}, key(code, 1) + key(code, 0)) == [Action(action)]


def test_a_tv_remotes_digits_are_typed_once_however_long_held() -> None:
    """rc-cec repeats a held key (value 2) until 550 ms after the TV's last repeat; a digit is typed once."""
    four, two = ecodes.KEY_NUMERIC_4, ecodes.KEY_NUMERIC_2
    events = key(four, 1) + key(four, 2) + key(four, 2) + key(four, 0) + key(two, 1) + key(two, 0)
    assert translate({ecodes.EV_KEY: RC_CEC_KEYS}, events) == [Action.typed("4"), Action.typed("2")]


def test_a_keyboards_digit_row_is_not_typed_twice() -> None:
    """A real keyboard types through the keyboard source; its evdev digit keys give nothing here."""
    assert translate({ecodes.EV_KEY: KEYBOARD_KEYS + [ecodes.KEY_4]}, key(ecodes.KEY_4, 1) + key(ecodes.KEY_4, 0)) == []
