"""Keyboards, TV remotes, gamepads, gpio-key buttons and touchscreens through evdev.

SDL does not know the keys TV remotes send (KEY_OK, KEY_SELECT, KEY_EXIT come
out as "unknown"), and a console on a framebuffer has no SDL input at all, so
the ``/dev/input/event*`` devices are read here with python-evdev:

- keys and buttons by the key map (input.keymap: remotes, gamepads, gpio-key
  buttons, keyboards — where Esc is star on a keyboard and Back on a remote);
- a gamepad's hat (ABS_HAT0X/Y) as arrows;
- a touchscreen (BTN_TOUCH with ABS_X/Y or ABS_MT_POSITION_X/Y, not a
  touchpad) as ``tap``: the position is scaled by the axis' min/max onto the
  panel's pixels; the application turns that with the display's rotation
  (input.touch).

Kernel auto-repeat (value 2) is dropped: the hub repeats, like for every
source. A device without a help key gets help by holding star (docs/rules.md, "Controls").

Every useful device is grabbed (EVIOCGRAB) while the console runs, so its keys
do not also type on the text console, and SDL (which reads the same devices on
KMS) never sees them: a key counts once.

One reader thread blocks in ``select`` on all devices, an inotify watch of
``/dev/input`` (hot-plug: a device plugged in later is opened at once) and a
stop pipe. It never spins: an unplugged device (``OSError`` ENODEV) is
unregistered before it is closed, and without inotify the directory is
rescanned once a second. A node that cannot be opened is reported once,
after a short grace period because udev sets a new node's permissions just
after creating it.

Devices are opened through a seam (``opener``, ``evdev.InputDevice`` by
default) so tests drive the real threads with fake devices and real
``evdev.InputEvent`` objects.
"""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import selectors
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from evdev import InputDevice, InputEvent, ecodes

from input.hub import TV_REMOTE, InputHub
from input.keymap import LONG_PRESSES, KeyMap
from input.touch import PanelSize, panel_point

log = logging.getLogger(__name__)

INPUT_DIRECTORY = "/dev/input"
RESCAN_INTERVAL = 1.0
PERMISSION_GRACE = 1.0

#: Letter keys: a device with these is a real keyboard (not a remote that has a few keyboard keys).
LETTER_KEYS = (ecodes.KEY_Q, ecodes.KEY_A, ecodes.KEY_Z)
HAT_AXES: Mapping[int, tuple[str, str]] = {ecodes.ABS_HAT0X: ("left", "right"), ecodes.ABS_HAT0Y: ("up", "down")}
#: A remote's digit keys, typed where digits are typed (a deal's number): KEY_NUMERIC_n as a TV remote
#: sends them (HDMI-CEC's rc-cec keymap, most IR keymaps), KEY_n as older keymaps did.
DIGIT_KEYS: Mapping[int, str] = {
    **{getattr(ecodes, f"KEY_NUMERIC_{digit}"): str(digit) for digit in range(10)},
    **{getattr(ecodes, f"KEY_{digit}"): str(digit) for digit in range(10)},
}

# What the reader's selector keys carry besides device paths.
_STOP = object()
_NODES_CHANGED = object()


class DeviceId(Protocol):
    """What is used of ``evdev.DeviceInfo``."""

    @property
    def bustype(self) -> int: ...


class EventDevice(Protocol):
    """What is used of ``evdev.InputDevice`` (the seam for fake devices)."""

    name: str

    @property
    def info(self) -> DeviceId: ...

    def fileno(self) -> int: ...

    def capabilities(self, verbose: Literal[False] = False, absinfo: bool = True) -> Mapping[int, Sequence[Any]]: ...

    def input_props(self) -> Sequence[int]: ...

    def read(self) -> Iterable[InputEvent]: ...

    def grab(self) -> None: ...

    def close(self) -> None: ...


Opener = Callable[[str], EventDevice]


@dataclass(frozen=True, slots=True)
class _Axis:
    minimum: int
    maximum: int

    def fraction(self, value: int) -> float:
        span = self.maximum - self.minimum
        return min(1.0, max(0.0, (value - self.minimum) / span)) if span > 0 else 0.0


@dataclass(slots=True)
class _Touch:
    """Follows one touchscreen's first contact; a tap is complete at the SYN_REPORT after BTN_TOUCH goes down."""

    x_code: int
    y_code: int
    x_axis: _Axis
    y_axis: _Axis
    multitouch: bool
    x: int | None = None
    y: int | None = None
    slot: int = 0
    touched: bool = False

    @classmethod
    def of(cls, keys: set[int], axes: Mapping[int, Any], props: Sequence[int]) -> _Touch | None:
        if ecodes.BTN_TOUCH not in keys or ecodes.INPUT_PROP_POINTER in props:
            return None  # not touch, or a touchpad that moves a pointer
        for x_code, y_code, multitouch in ((ecodes.ABS_X, ecodes.ABS_Y, False),
                                           (ecodes.ABS_MT_POSITION_X, ecodes.ABS_MT_POSITION_Y, True)):
            if x_code in axes and y_code in axes:
                x_info, y_info = axes[x_code], axes[y_code]
                return cls(x_code, y_code, _Axis(x_info.min, x_info.max), _Axis(y_info.min, y_info.max), multitouch)
        return None

    def move(self, code: int, value: int) -> None:
        if code == ecodes.ABS_MT_SLOT:
            self.slot = value
        elif self.multitouch and self.slot != 0:
            return
        elif code == self.x_code:
            self.x = value
        elif code == self.y_code:
            self.y = value

    def tap(self) -> tuple[float, float] | None:
        """At a report: the fractions of the panel where a new touch went down, if one did."""
        if not self.touched or self.x is None or self.y is None:
            return None
        self.touched = False
        return self.x_axis.fraction(self.x), self.y_axis.fraction(self.y)


class DeviceTranslator:
    """Turns one device's events into hub reports; built from what the device says it has."""

    def __init__(self, name: str, capabilities: Mapping[int, Sequence[Any]], props: Sequence[int],
                 keymap: KeyMap, panel_size: PanelSize | None) -> None:
        self.name = name
        keys = set(capabilities.get(ecodes.EV_KEY, ()))
        axes = dict(capabilities.get(ecodes.EV_ABS, ()))
        self.keyboard = all(key in keys for key in LETTER_KEYS)
        self.keys = {code: action for code, action in keymap.codes(self.keyboard).items() if code in keys}
        #: Digits typed from a remote's number keys (a keyboard's own typing comes through the keyboard source).
        self.digits = {} if self.keyboard else {code: digit for code, digit in DIGIT_KEYS.items() if code in keys}
        self.hats = {axis: directions for axis, directions in HAT_AXES.items() if axis in axes}
        self.touch = _Touch.of(keys, axes, props) if panel_size is not None else None
        self.panel_size = panel_size
        #: What holding a button gives on a device without a key of its own for it (a handheld's buttons).
        self.long_presses = {button: action for button, action in LONG_PRESSES.items()
                             if action not in self.keys.values()}
        self._hat_held: dict[int, str] = {}

    @property
    def useful(self) -> bool:
        """Whether the device has anything that means an action (else it is left alone)."""
        return bool(self.keys or self.digits or self.hats or self.touch)

    @property
    def kind(self) -> str:
        kinds = [kind for kind, present in (("TV remote, HDMI-CEC", self.name == TV_REMOTE), ("keyboard", self.keyboard),
                                            ("touchscreen", self.touch), ("gamepad hat", self.hats)) if present]
        return ", ".join(kinds) or "buttons"

    def handle(self, event: InputEvent, hub: InputHub) -> None:
        if event.type == ecodes.EV_KEY:
            self._key(event.code, event.value, hub)
        elif event.type == ecodes.EV_ABS:
            if event.code in self.hats:
                self._hat(event.code, event.value, hub)
            elif self.touch is not None:
                self.touch.move(event.code, event.value)
        elif event.type == ecodes.EV_SYN and event.code == ecodes.SYN_REPORT and self.touch is not None:
            fractions = self.touch.tap()
            if fractions is not None and self.panel_size is not None:
                hub.tap(*panel_point(*fractions, self.panel_size), self.name)

    def _key(self, code: int, value: int, hub: InputHub) -> None:
        if value == 2:
            return  # the kernel's auto-repeat: the hub repeats instead
        if self.touch is not None and code == ecodes.BTN_TOUCH:
            self.touch.touched = value == 1
            return
        digit = self.digits.get(code)
        if digit is not None:
            if value:
                hub.typed(digit, self.name)
            return
        action = self.keys.get(code)
        if action is None:
            return
        if value:
            hub.press(action, self.name, long_press=self.long_presses.get(action))
        else:
            hub.release(action, self.name)

    def _hat(self, axis: int, value: int, hub: InputHub) -> None:
        held = self._hat_held.pop(axis, None)
        if held is not None:
            hub.release(held, self.name)
        if value:
            negative, positive = self.hats[axis]
            self._hat_held[axis] = negative if value < 0 else positive
            hub.press(self._hat_held[axis], self.name)


class NodeWatcher:
    """An inotify watch on the input directory, through libc: readable when a node comes, goes or changes mode."""

    _IN_ATTRIB, _IN_MOVED_TO, _IN_CREATE, _IN_DELETE = 0x4, 0x80, 0x100, 0x200

    def __init__(self, fd: int) -> None:
        self._fd = fd

    @classmethod
    def open(cls, directory: str) -> NodeWatcher:
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            number = ctypes.get_errno()
            raise OSError(number, os.strerror(number), "inotify")
        mask = cls._IN_ATTRIB | cls._IN_MOVED_TO | cls._IN_CREATE | cls._IN_DELETE
        if libc.inotify_add_watch(fd, os.fsencode(directory), mask) < 0:
            number = ctypes.get_errno()
            os.close(fd)
            raise OSError(number, os.strerror(number), directory)
        return cls(fd)

    def fileno(self) -> int:
        return self._fd

    def drain(self) -> None:
        """Consume the notifications: they only say "look again", the rescan finds what changed."""
        try:
            while os.read(self._fd, 4096):
                pass
        except BlockingIOError:
            pass

    def close(self) -> None:
        os.close(self._fd)


@dataclass(slots=True)
class _Opened:
    device: EventDevice
    translator: DeviceTranslator


@dataclass(slots=True)
class _Failure:
    inode: int
    since: float
    reported: bool = False


class EvdevDevices:
    """Reads every useful evdev device on one thread and reports to ``hub``; see the module docstring.

    Touchscreens are read only when ``panel_size`` is given (it places their taps).
    """

    def __init__(
        self,
        hub: InputHub,
        keymap: KeyMap | None = None,
        panel_size: PanelSize | None = None,
        *,
        directory: str = INPUT_DIRECTORY,
        opener: Opener = InputDevice,
        grab: bool = True,
        permission_grace: float = PERMISSION_GRACE,
    ) -> None:
        self._hub = hub
        self._keymap = keymap if keymap is not None else KeyMap.default()
        self._panel_size = panel_size
        self._directory = Path(directory)
        self._opener = opener
        self._grab = grab
        self._permission_grace = permission_grace
        # What is known of each node path; the inode tells a re-used path (eventN after a re-plug) apart.
        self._opened: dict[str, _Opened] = {}
        self._ignored: dict[str, int] = {}
        self._failing: dict[str, _Failure] = {}
        self._selector = selectors.DefaultSelector()
        self._stop_reader, self._stop_writer = os.pipe()
        self._selector.register(self._stop_reader, selectors.EVENT_READ, _STOP)
        self._watcher: NodeWatcher | None
        try:
            self._watcher = NodeWatcher.open(directory)
            self._selector.register(self._watcher, selectors.EVENT_READ, _NODES_CHANGED)
        except OSError as error:
            log.warning("cannot watch %s for new input devices (%s): looking again every %.0f s",
                        directory, error.strerror, RESCAN_INTERVAL)
            self._watcher = None
        self._scan()
        self._thread = threading.Thread(target=self._run, name="evdev input", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the reader thread and close (and so ungrab) every device."""
        os.write(self._stop_writer, b"x")
        self._thread.join()
        for path in list(self._opened):
            self._forget(path)
        self._selector.close()
        if self._watcher is not None:
            self._watcher.close()
        os.close(self._stop_reader)
        os.close(self._stop_writer)

    def _run(self) -> None:
        while True:
            ready = self._selector.select(self._select_timeout())
            rescan = not ready
            for key, _ in ready:
                if key.data is _STOP:
                    return
                if key.data is _NODES_CHANGED and self._watcher is not None:
                    self._watcher.drain()
                    rescan = True
                elif isinstance(key.data, str):
                    rescan |= self._read(key.data)
            if rescan:
                self._scan()

    def _select_timeout(self) -> float | None:
        waiting = [f.since + self._permission_grace for f in self._failing.values() if not f.reported]
        timeout = None if self._watcher is not None else RESCAN_INTERVAL
        if waiting:
            left = max(0.0, min(waiting) - time.monotonic())
            timeout = left if timeout is None else min(timeout, left)
        return timeout

    def _scan(self) -> None:
        present: dict[str, int] = {}
        for node in sorted(self._directory.glob("event*")):
            try:
                present[str(node)] = node.stat().st_ino
            except FileNotFoundError:
                continue
        for path in [path for path, inode in self._ignored.items() if present.get(path) != inode]:
            del self._ignored[path]
        for path in [path for path, failure in self._failing.items() if present.get(path) != failure.inode]:
            del self._failing[path]
        for path, inode in present.items():
            if path not in self._opened and self._ignored.get(path) != inode:
                self._open(path, inode)

    def _open(self, path: str, inode: int) -> None:
        try:
            device = self._opener(path)
        except OSError as error:
            if error.errno not in (errno.ENOENT, errno.ENODEV):  # else: gone again already
                self._failed(path, inode, error)
            return
        try:
            translator = DeviceTranslator(player_name(device), device.capabilities(absinfo=True), device.input_props(),
                                          self._keymap, self._panel_size)
        except OSError:
            device.close()
            return
        self._failing.pop(path, None)
        if not translator.useful:
            device.close()
            self._ignored[path] = inode
            log.debug("input device %r on %s has no key, hat or touch the console uses", device.name, path)
            return
        if self._grab:
            try:
                device.grab()
            except OSError as error:
                log.warning("input device %r on %s cannot be grabbed (%s): another program also gets its keys",
                            device.name, path, error.strerror)
        self._selector.register(device.fileno(), selectors.EVENT_READ, path)
        self._opened[path] = _Opened(device, translator)
        self._hub.device_added(translator.name)
        log.info("input device %r on %s (%s)", device.name, path, translator.kind)

    def _failed(self, path: str, inode: int, error: OSError) -> None:
        failure = self._failing.setdefault(path, _Failure(inode, time.monotonic()))
        if failure.reported or time.monotonic() - failure.since < self._permission_grace:
            return
        failure.reported = True
        hint = ": add the console's user to the 'input' group" if isinstance(error, PermissionError) else ""
        log.warning("cannot open input device %s%s (%s)%s", path, _sysfs_name(path), error.strerror, hint)

    def _read(self, path: str) -> bool:
        """Read what the device has; True when it went away (the caller then rescans)."""
        opened = self._opened[path]
        try:
            events = list(opened.device.read())
        except BlockingIOError:
            return False
        except OSError as error:
            log.info("input device %r on %s went away (%s)", opened.device.name, path, error.strerror)
            self._forget(path)
            self._hub.device_gone(opened.translator.name)
            return True
        for event in events:
            opened.translator.handle(event, self._hub)
        return False

    def _forget(self, path: str) -> None:
        """Unregister first: a dead descriptor left in select would make it spin."""
        opened = self._opened.pop(path)
        self._selector.unregister(opened.device.fileno())
        try:
            opened.device.close()
        except OSError:
            pass


def player_name(device: EventDevice) -> str:
    """The name the device's presses are counted under: its own, but one name for every TV's remote (the
    rc device of an HDMI-CEC adapter, bus BUS_CEC in linux/input.h), whose kernel name is the adapter's
    ("vc4-hdmi-0"), which says nothing to a player."""
    return TV_REMOTE if device.info.bustype == ecodes.BUS_CEC else device.name


def _sysfs_name(path: str) -> str:
    """The device's name from sysfs, which needs no permission, to say *which* device failed."""
    try:
        name = Path("/sys/class/input", Path(path).name, "device", "name").read_text().strip()
    except OSError:
        return ""
    return f" ({name!r})"
