"""How long a press takes to come out of ``hub.wait()``, and what waiting costs when idle.

Run: ``nice .venv/bin/python benchmarks/bench_input.py [SAMPLES]`` (default 500; about
ten seconds). A worker thread reports a press (or drives a source) while the main
thread is blocked in ``hub.wait()``; the latency is from just before the report to
just after ``wait()`` returns. Paths measured:

1. queue: a thread calls ``hub.press`` (what every hardware thread does);
2. GPIO: a gpiozero ``MockFactory`` pin driven low from a thread (callback → hub);
3. evdev: a real ``evdev.InputEvent`` written to a fake device (a pipe) read by the
   evdev reader thread (select → translate → hub);
4. SDL: ``hub.press`` from a thread while the hub sleeps in ``pygame.event.wait``
   (SDL dummy driver), woken by a posted user event.

Each latency is also given as a fraction of one 60 Hz frame (16.7 ms). The idle table
gives the CPU time used by two seconds of ``hub.wait()`` with nothing happening, as a
percentage of one core.
"""

from __future__ import annotations

import errno
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
from evdev import InputEvent, ecodes
from gpiozero.pins.mock import MockFactory

from input.evdev_devices import EvdevDevices
from input.gpio import GpioButtons
from input.hub import InputHub
from input.keyboard import PygameEvents

FRAME = 1 / 60
GAP = 0.002  # between samples, so that the main thread is really asleep in wait()


class PipeDevice:
    """A minimal evdev device: a pipe makes it readable; read() returns the queued events."""

    name = "bench remote"

    def __init__(self) -> None:
        self._readable, self._writable = os.pipe()
        os.set_blocking(self._readable, False)
        self._events: list[InputEvent] = []
        self._lock = threading.Lock()

    def fileno(self) -> int:
        return self._readable

    def capabilities(self, verbose: bool = False, absinfo: bool = True) -> dict:
        return {ecodes.EV_KEY: [ecodes.KEY_OK]}

    def input_props(self) -> list[int]:
        return []

    def grab(self) -> None:
        """Nothing to grab: no other reader exists."""

    def send(self, value: int) -> None:
        with self._lock:
            self._events += [InputEvent(0, 0, ecodes.EV_KEY, ecodes.KEY_OK, value),
                             InputEvent(0, 0, ecodes.EV_SYN, ecodes.SYN_REPORT, 0)]
        os.write(self._writable, b"e")

    def read(self):
        os.read(self._readable, 4096)
        with self._lock:
            events, self._events = self._events, []
        if not events:
            raise BlockingIOError(errno.EAGAIN, "nothing to read")
        return iter(events)

    def close(self) -> None:
        os.close(self._readable)
        os.close(self._writable)


def measure(hub: InputHub, trigger: Callable[[int], None], samples: int) -> list[float]:
    """Latencies of ``samples`` presses; ``trigger(i)`` makes press i happen (from a worker thread)."""
    started: list[float] = []
    latencies: list[float] = []

    def worker() -> None:
        for i in range(samples * 2):  # press, release, press, release ...
            time.sleep(GAP)
            started.append(time.perf_counter())
            trigger(i)

    thread = threading.Thread(target=worker)
    thread.start()
    while len(latencies) < samples:
        actions = hub.wait(1.0)
        now = time.perf_counter()
        for _ in actions:  # several when this thread was descheduled for longer than GAP
            latencies.append(now - started[2 * len(latencies)])
    thread.join()
    return latencies


def queue_path(samples: int) -> list[float]:
    hub = InputHub()
    return measure(hub, lambda i: (hub.release if i % 2 else hub.press)("ok", "bench"), samples)


def gpio_path(samples: int) -> list[float]:
    hub = InputHub()
    factory = MockFactory()
    buttons = GpioButtons(hub, {"ok": 22}, bounce_time=0, pin_factory=factory)
    pin = factory.pin(22)
    try:
        return measure(hub, lambda i: pin.drive_high() if i % 2 else pin.drive_low(), samples)
    finally:
        buttons.close()
        factory.reset()


def evdev_path(samples: int) -> list[float]:
    hub = InputHub()
    device = PipeDevice()
    with tempfile.TemporaryDirectory() as directory:
        (Path(directory) / "event0").touch()
        reader = EvdevDevices(hub, directory=directory, opener=lambda path: device)
        try:
            return measure(hub, lambda i: device.send(0 if i % 2 else 1), samples)
        finally:
            reader.close()


def sdl_path(samples: int) -> list[float]:
    pygame.display.init()
    pygame.display.set_mode((320, 240))
    hub = InputHub()
    PygameEvents(hub, lambda: (320, 240))
    hub.wait(0)
    try:
        return measure(hub, lambda i: (hub.release if i % 2 else hub.press)("ok", "bench"), samples)
    finally:
        pygame.display.quit()


def idle_cpu(make_hub: Callable[[], tuple[InputHub, Callable[[], None]]], seconds: float = 2.0) -> float:
    """Percent of one core used while ``hub.wait`` has nothing to do for ``seconds``."""
    hub, close = make_hub()
    hub.wait(0)
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        hub.wait(seconds)
    after = resource.getrusage(resource.RUSAGE_SELF)
    close()
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return 100 * used / seconds


def idle_queue_with_evdev_reader() -> tuple[InputHub, Callable[[], None]]:
    hub = InputHub()
    directory = tempfile.TemporaryDirectory()
    reader = EvdevDevices(hub, directory=directory.name, opener=lambda path: PipeDevice())

    def close() -> None:
        reader.close()
        directory.cleanup()

    return hub, close


def idle_sdl() -> tuple[InputHub, Callable[[], None]]:
    pygame.display.init()
    pygame.display.set_mode((320, 240))
    hub = InputHub()
    PygameEvents(hub, lambda: (320, 240))
    return hub, pygame.display.quit


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    print(f"input-to-action latency, {samples} presses each (ms; fraction of a 60 Hz frame)")
    print(f"{'path':<34}{'median':>10}{'p95':>10}{'max':>10}{'median/frame':>14}")
    for name, path in (("queue (thread → hub.wait)", queue_path), ("GPIO (MockFactory pin)", gpio_path),
                       ("evdev (reader thread)", evdev_path), ("SDL wait (dummy driver)", sdl_path)):
        latencies = sorted(path(samples))
        median = statistics.median(latencies)
        p95 = latencies[int(0.95 * (len(latencies) - 1))]
        print(f"{name:<34}{median * 1e3:>10.3f}{p95 * 1e3:>10.3f}{latencies[-1] * 1e3:>10.3f}"
              f"{median / FRAME:>13.1%}")
    print()
    print("idle CPU while hub.wait() has nothing to do (% of one core)")
    print(f"{'queue wait + evdev reader thread':<34}{idle_cpu(idle_queue_with_evdev_reader):>10.2f}")
    print(f"{'SDL wait (dummy driver)':<34}{idle_cpu(idle_sdl):>10.2f}")


if __name__ == "__main__":
    main()
