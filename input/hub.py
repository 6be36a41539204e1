"""The one object the main loop talks to for input.

Sources live on their own threads (gpiozero's callback thread, the evdev
reader thread) or in the main thread (SDL events). They only *report* —
:meth:`InputHub.press`, :meth:`~InputHub.release`, :meth:`~InputHub.tap`,
:meth:`~InputHub.device_gone` — which appends to a locked queue and wakes the
main loop. Everything with state (debounce, repeats, long presses, the press
log) runs in the main loop inside :meth:`InputHub.wait`, so none of it needs a
lock and all of it follows one injectable clock.

Other threads may also hand the main loop items that are not input at all
(:meth:`InputHub.post`: the network thread's events); they come out of
``wait`` in order among the actions, untouched. The hub does not know what
they are, so ``input/`` stays free of any other layer.

``wait(timeout)`` blocks until something arrives, a repeat falls due, or the
timeout passes; it never spins. :meth:`InputHub.stop` (any thread, or a
signal handler) makes it return None, which ends the main loop. When a pygame window is used, the main loop
must block in SDL's own event wait (window events arrive there), so the
waiting strategy is pluggable: :class:`Waiter`. The default blocks on the
queue's condition variable; ``input.keyboard.PygameEvents`` blocks in ``pygame.event.wait`` and is
woken by a user event that producer threads post.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from input.debounce import Debouncer
from input.repeat import Clock, Repeater
from pyramid.actions import Action

#: The device name every TV's remote is counted under, through the kernel's rc device of an HDMI-CEC adapter or the
#: console's own reading of the CEC messages (the console words it: "TV remote (HDMI-CEC)").
TV_REMOTE = "tv_remote"
PRESS_LOG_SIZE = 16


class Waiter(Protocol):
    """How the main loop sleeps until input arrives."""

    def block(self, timeout: float | None) -> None:
        """Return when woken, when an event is ready, or after ``timeout`` seconds (None: no limit)."""

    def wake(self) -> None:
        """Called from producer threads after they queued something."""


class Source(Protocol):
    """Anything the hub should close on shutdown (a GPIO button set, the evdev reader)."""

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class PressRecord:
    """One action as a player produced it, and where it came from (for the Controls screen)."""

    action: Action
    device: str
    at: float

    def __str__(self) -> str:
        return f"{self.action} from {self.device!r}"


class _Edge(NamedTuple):
    button: str
    device: str
    pressed: bool
    at: float
    bounce_time: float
    long_press: str | None


class _Immediate(NamedTuple):
    """A tap or a typed character: acted on at once, never debounced nor repeated."""

    action: Action
    device: str
    at: float


class _DeviceChange(NamedTuple):
    device: str
    added: bool


class _Posted(NamedTuple):
    item: object


class InputHub:
    """Thread-safe collection point of every input source; see the module docstring."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._repeater = Repeater(clock)
        self._debouncer = Debouncer()
        self._long_press: dict[tuple[str, str], str | None] = {}
        self._ready = threading.Condition()
        self._events: deque[_Edge | _Immediate | _DeviceChange | _Posted] = deque()
        self._waiter: Waiter | None = None
        self._main_thread = threading.get_ident()
        self._sources: list[Source] = []
        self._presses: deque[PressRecord] = deque(maxlen=PRESS_LOG_SIZE)
        self._devices: Counter[str] = Counter()
        self._stopping = False

    # -- producer side: any thread ------------------------------------------

    def press(self, button: str, device: str, *, bounce_time: float = 0.0, long_press: str | None = None) -> None:
        """``button`` went down on ``device``. ``long_press``: the action a long hold gives instead."""
        Action(button)
        if long_press is not None:
            Action(long_press)
        self._put(_Edge(button, device, True, self._clock(), bounce_time, long_press))

    def release(self, button: str, device: str, *, bounce_time: float = 0.0) -> None:
        """``button`` went up on ``device``."""
        self._put(_Edge(button, device, False, self._clock(), bounce_time, None))

    def tap(self, x: int, y: int, device: str) -> None:
        """A touch or click at screen position (x, y)."""
        self._put(_Immediate(Action.tap(x, y), device, self._clock()))

    def typed(self, character: str, device: str) -> None:
        """A character typed on a keyboard (it never repeats: the keyboard's own repeat is ignored)."""
        self._put(_Immediate(Action.typed(character), device, self._clock()))

    def device_added(self, device: str) -> None:
        self._put(_DeviceChange(device, True))

    def device_gone(self, device: str) -> None:
        """The device was unplugged: whatever it held is released, silently."""
        self._put(_DeviceChange(device, False))

    def post(self, item: object) -> None:
        """Hand ``item`` (not an input: a network event, say) to the main loop, in order with the input."""
        self._put(_Posted(item))

    def stop(self) -> None:
        """Time to end (the window was closed, SIGTERM): ``wait`` returns None from now on."""
        with self._ready:
            self._stopping = True
            self._ready.notify()
        if self._waiter is not None:
            self._waiter.wake()  # from the main thread too: a signal handler runs there while it waits

    def _put(self, event: _Edge | _Immediate | _DeviceChange | _Posted) -> None:
        with self._ready:
            self._events.append(event)
            self._ready.notify()
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and threading.get_ident() != self._main_thread:
            self._waiter.wake()

    # -- main loop side ------------------------------------------------------

    def use_waiter(self, waiter: Waiter) -> None:
        """Block in ``waiter`` instead of on the queue (e.g. in SDL's event wait)."""
        self._waiter = waiter

    def add_source(self, source: Source) -> None:
        """Keep ``source`` to close it in :meth:`close`."""
        self._sources.append(source)

    def wait(self, timeout: float | None) -> list[object] | None:
        """Block until input or a repeat is due (at most ``timeout`` seconds); return the actions.

        Items given to :meth:`post` are among them, where they arrived. May return an empty list (timeout, or a wake-up with nothing to play yet):
        the caller just loops. ``timeout=None`` waits without limit. Returns None
        once :meth:`stop` was called: the main loop ends.
        """
        self._main_thread = threading.get_ident()
        if self._stopping:
            return None
        block_for = self._time_to_block(timeout)
        if self._waiter is not None:
            self._waiter.block(0.0 if self._events else block_for)  # always lets SDL hand over its events
        else:
            with self._ready:
                self._ready.wait_for(lambda: bool(self._events) or self._stopping, block_for)
        return None if self._stopping else self._collect()

    def next_deadline(self) -> float | None:
        """Clock time at which a repeat, long press or debounce falls due, or None."""
        deadlines = [d for d in (self._repeater.next_deadline(), self._debouncer.next_deadline()) if d is not None]
        return min(deadlines, default=None)

    @property
    def recent_presses(self) -> tuple[PressRecord, ...]:
        """The last presses and taps (not repeats), oldest first."""
        return tuple(self._presses)

    @property
    def connected_devices(self) -> tuple[str, ...]:
        """Names of the devices the sources currently have open, sorted."""
        return tuple(sorted(name for name, count in self._devices.items() if count > 0))

    def close(self) -> None:
        """Close every source (last added first); the hub can still be drained afterwards."""
        while self._sources:
            self._sources.pop().close()

    def _time_to_block(self, timeout: float | None) -> float | None:
        deadline = self.next_deadline()
        if deadline is None:
            return timeout
        left = max(0.0, deadline - self._clock())
        return left if timeout is None else min(timeout, left)

    def _collect(self) -> list[object]:
        with self._ready:
            events = list(self._events)
            self._events.clear()
        actions: list[object] = []
        for event in events:
            if isinstance(event, _Posted):
                actions.append(event.item)
            elif isinstance(event, _Immediate):
                self._presses.append(PressRecord(event.action, event.device, event.at))
                actions.append(event.action)
            elif isinstance(event, _DeviceChange):
                self._change_device(event)
            else:
                actions += self._edge(event)
        now = self._clock()
        for (button, device), pressed in self._debouncer.settle(now):
            actions += self._level(button, device, pressed, now)
        for emitted in self._repeater.due():
            actions.append(self._note(emitted.action, emitted.device, emitted.repeated, now))
        return actions

    def _edge(self, edge: _Edge) -> list[Action]:
        key = (edge.button, edge.device)
        if edge.pressed:
            self._long_press[key] = edge.long_press
        actions: list[Action] = []
        for pressed in self._debouncer.edge(key, edge.pressed, edge.at, edge.bounce_time):
            actions += self._level(edge.button, edge.device, pressed, edge.at)
        return actions

    def _level(self, button: str, device: str, pressed: bool, at: float) -> list[Action]:
        if pressed:
            emitted = self._repeater.press(button, device, long_press=self._long_press.get((button, device)))
        else:
            emitted = self._repeater.release(button, device)
        return [self._note(e.action, e.device, e.repeated, at) for e in emitted]

    def _note(self, action: Action, device: str, repeated: bool, at: float) -> Action:
        if not repeated:
            self._presses.append(PressRecord(action, device, at))
        return action

    def _change_device(self, change: _DeviceChange) -> None:
        if change.added:
            self._devices[change.device] += 1
            return
        self._devices[change.device] -= 1
        self._repeater.forget_device(change.device)
        self._debouncer.forget_device(change.device)

