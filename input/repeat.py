"""Hold-to-repeat and long presses, done once for every input source.

docs/rules.md, "Controls": held arrows repeat after about 350 ms, then about 10 times a second,
"the same for every source". So the sources (keyboard, GPIO, remotes, gamepads)
only report *press* and *release*; this module turns held buttons into repeated
actions. Keyboards' own auto-repeat (SDL's, the kernel's value-2 events) is
ignored by the sources for the same reason: one rhythm, whatever the device.

A handheld has no help button: docs/rules.md, "Controls" gives it "long press of star". A button
pressed with ``long_press="help"`` emits nothing on the press; releasing it
early gives the button, holding it past ``hold_time`` gives the long action.

Time comes from an injectable clock (a function returning seconds), so tests
drive the repeat with a fake clock instead of sleeping, and the main loop asks
:meth:`Repeater.next_deadline` how long it may sleep.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from pyramid.actions import REPEATING, Action

#: A function returning the current time in seconds (``time.monotonic``).
Clock = Callable[[], float]

REPEAT_DELAY = 0.35
REPEAT_INTERVAL = 0.1
HOLD_TIME = 1.0


class Emitted(NamedTuple):
    """An action produced by a held button, with the device that holds it."""

    action: Action
    device: str
    repeated: bool


@dataclass(slots=True)
class _Hold:
    button: str
    long_press: str | None
    deadline: float | None


class Repeater:
    """Turns press/release of buttons into actions, repeats and long presses.

    Holds are kept per ``(button, device)``: a release from one device never
    ends another device's hold, and an unplugged device can be forgotten with
    :meth:`forget_device` so its arrow stops repeating.
    """

    def __init__(
        self,
        clock: Clock = time.monotonic,
        *,
        delay: float = REPEAT_DELAY,
        interval: float = REPEAT_INTERVAL,
        hold_time: float = HOLD_TIME,
    ) -> None:
        self._clock = clock
        self.delay = delay
        self.interval = interval
        self.hold_time = hold_time
        self._holds: dict[tuple[str, str], _Hold] = {}

    def press(self, button: str, device: str, *, long_press: str | None = None) -> list[Emitted]:
        """A button went down. Returns the action to play now (none for a long-press button)."""
        action = Action(button)  # validates the name
        if long_press is not None:
            Action(long_press)
        key = (button, device)
        if key in self._holds:
            return []  # already held: a duplicate press is not a new one
        now = self._clock()
        if long_press is not None:
            self._holds[key] = _Hold(button, long_press, now + self.hold_time)
            return []
        deadline = now + self.delay if button in REPEATING else None
        self._holds[key] = _Hold(button, None, deadline)
        return [Emitted(action, device, False)]

    def release(self, button: str, device: str) -> list[Emitted]:
        """A button went up. A long-press button released early gives its short action."""
        hold = self._holds.pop((button, device), None)
        if hold is not None and hold.long_press is not None and hold.deadline is not None:
            return [Emitted(Action(button), device, False)]
        return []

    def forget_device(self, device: str) -> None:
        """Drop every hold of a device that went away, without emitting anything."""
        for key in [key for key in self._holds if key[1] == device]:
            del self._holds[key]

    def due(self) -> list[Emitted]:
        """Repeats and long presses whose time has come.

        One repeat per held button per call: a main loop that was busy for a
        while gets one step, not a burst of queued-up steps.
        """
        now = self._clock()
        emitted: list[Emitted] = []
        for (_, device), hold in self._holds.items():
            if hold.deadline is None or hold.deadline > now:
                continue
            if hold.long_press is not None:
                emitted.append(Emitted(Action(hold.long_press), device, False))
                hold.deadline = None
                continue
            emitted.append(Emitted(Action(hold.button), device, True))
            hold.deadline += self.interval
            if hold.deadline <= now:
                hold.deadline = now + self.interval
        return emitted

    def next_deadline(self) -> float | None:
        """The clock time of the next repeat or long press, or None when nothing is pending."""
        deadlines = [hold.deadline for hold in self._holds.values() if hold.deadline is not None]
        return min(deadlines, default=None)
