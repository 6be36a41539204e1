"""``--trace`` on the console proper: the presses, the device each came from, and when its frame was shown.

Driven through the real main loop by gpiozero's MockFactory at the pin seam (as test_console_loop.py);
the trace's times are the loop's CLOCK_MONOTONIC, which a probe on the same machine reads too (the
VM's TV-remote measure, tests/test_vm_cec.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from display.headless import HeadlessDisplay
from input import sources
from input.gpio import BOUNCE_TIME
from input.keymap import DEFAULT_GPIO_PINS, InputSettings
from pyramid.app.console_trace import ConsoleTrace
from pyramid.app.frontend import Frontend
from pyramid.app.loop import run_loop
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.cards import parse_deal
from pyramid.engine.rules import Redeals
from pyramid.saved.store import Store
from pyramid.scripting import OutputError, Trace
from pyramid.system.sdnotify import Notifier

from deals import clearable_deal


@pytest.fixture
def mock_pins() -> Any:
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = None


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_each_press_is_traced_with_its_device_and_the_frame_it_changed(mock_pins: Any, tmp_path: Path) -> None:
    frontend = Frontend(HeadlessDisplay((480, 320)))
    hub = sources.open_hub(("gpio",), lambda: (480, 320), InputSettings())
    path = tmp_path / "trace.jsonl"
    ready = threading.Event()

    def console() -> None:
        session = Session(None, DealChoice(cards=parse_deal(clearable_deal())), store=Store.open(tmp_path / "p.db"))
        open_console(session, "pyramid", Redeals(0))
        trace = ConsoleTrace(Trace(path), session, lambda: hub.recent_presses)
        ready.set()
        try:
            run_loop(session, frontend, hub, Notifier(None), after_input=trace.after_input)
        finally:
            trace.close()

    loop = threading.Thread(target=console)
    loop.start()
    try:
        assert ready.wait(10)
        for count, name in enumerate(("right", "right", "ok"), 1):
            pin = mock_pins.pin(DEFAULT_GPIO_PINS[name])
            pin.drive_low()  # pressed (pull-up: active low)
            time.sleep(BOUNCE_TIME * 3)  # held as a finger holds it: a shorter press is a bounce
            pin.drive_high()
            time.sleep(BOUNCE_TIME * 3)
            deadline = time.monotonic() + 10
            while sum(len(line["presses"]) for line in lines(path)) < count:
                assert time.monotonic() < deadline, f"press {count} did not reach the trace"
                time.sleep(0.01)
    finally:
        hub.stop()
        loop.join(5)
        hub.close()
        frontend.close()
    traced = lines(path)
    assert traced[0]["presses"] == [] and traced[0]["shown"] is None, "the first line: the state before any press"
    presses = [press for line in traced for press in line["presses"]]
    assert [(press["action"], press["device"]) for press in presses] == [
        (name, f"GPIO {DEFAULT_GPIO_PINS[name]}") for name in ("right", "right", "ok")]
    for line in traced[1:]:
        assert line["shown"] is not None and all(press["read"] <= line["shown"] for press in line["presses"]), line
    cursors = [line["game"]["cursor"] for line in traced]
    assert cursors[0] != cursors[1] != cursors[2], "each right moved the cursor"
    before, after = traced[-2]["game"], traced[-1]["game"]
    assert after["chosen"] is not None or after["pyramid"] != before["pyramid"], "ok chose a card (or took a king)"


class FullDisk(Trace):
    """A trace whose file fills up after ``room`` lines, as a full /var/lib would."""

    def __init__(self, path: Path, room: int) -> None:
        super().__init__(path)
        self.room = room

    def write(self, state: dict[str, Any]) -> None:
        if self.room == 0:
            raise OutputError(f"--trace {str(self._path)!r}: cannot write it (No space left on device)")
        self.room -= 1
        super().write(state)


def test_a_trace_that_cannot_be_written_ends_and_the_console_plays_on(tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    session = Session(None, DealChoice(cards=parse_deal(clearable_deal())), store=Store.open(tmp_path / "p.db"))
    open_console(session, "pyramid", Redeals(0))
    trace = ConsoleTrace(FullDisk(tmp_path / "trace.jsonl", room=1), session, lambda: ())
    trace.after_input(True)
    trace.after_input(True)
    trace.close()
    assert len(lines(tmp_path / "trace.jsonl")) == 1
    said = [record.getMessage() for record in caplog.records if "trace stops here" in record.getMessage()]
    assert len(said) == 1 and "No space left on device" in said[0], "said once"


def test_a_trace_the_console_cannot_open_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """Before anything is on screen: a console told to trace where it cannot does not start half-traced."""
    ran = subprocess.run([sys.executable, "-m", "pyramid", "--display", "window", "--trace",
                          str(tmp_path / "no" / "such" / "dir" / "trace.jsonl")],
                         capture_output=True, text=True, timeout=60,
                         env={"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert ran.returncode == 1 and ran.stderr.startswith("pyramid: --trace "), ran.stderr
    assert len(ran.stderr.splitlines()) == 1, ran.stderr
