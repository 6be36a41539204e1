"""The real main loop driven by real input sources (gpiozero's MockFactory at the pin seam)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from display.headless import HeadlessDisplay
from input import sources
from input.keymap import DEFAULT_GPIO_PINS, InputSettings
from pyramid.app.frontend import Frontend
from pyramid.app.loop import run_loop
from pyramid.engine.cards import parse_deal
from pyramid.system.sdnotify import Notifier
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.console.menus import open_console
from pyramid.engine.rules import Redeals
from pyramid.saved.store import Store

from deals import clearable_deal


@pytest.fixture
def mock_pins():
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = None


class CountingFrontend(Frontend):
    """The real frontend, counting frames so the test can wait for the loop."""

    def __init__(self) -> None:
        super().__init__(HeadlessDisplay((480, 320)))
        self.frames = 0

    def show(self, view) -> None:
        super().show(view)
        self.frames += 1


def wait_until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the main loop did not get there in time"
        time.sleep(0.01)


def test_buttons_play_through_the_main_loop_and_idle_draws_nothing(mock_pins, tmp_path: Path) -> None:
    frontend = CountingFrontend()
    hub = sources.open_hub(("gpio",), lambda: (480, 320), InputSettings())
    sessions: list[Session] = []

    def console() -> None:
        """The loop's own thread owns the session and its store, as the console's main thread does."""
        session = Session(None, DealChoice(cards=parse_deal(clearable_deal())), store=Store.open(tmp_path / "p.db"))
        open_console(session, "pyramid", Redeals(0))
        sessions.append(session)
        run_loop(session, frontend, hub, Notifier(None))

    loop = threading.Thread(target=console)
    loop.start()
    try:
        wait_until(lambda: frontend.frames == 1)
        session = sessions[0]
        ok = mock_pins.pin(DEFAULT_GPIO_PINS["ok"])
        ok.drive_low()   # pressed (pull-up: active low)
        ok.drive_high()
        wait_until(lambda: session.state()["game"]["pyramid"][6][0] is None)
        wait_until(lambda: frontend.frames == 2)
        time.sleep(0.3)
        assert frontend.frames == 2, "an idle console draws nothing"
        right = mock_pins.pin(DEFAULT_GPIO_PINS["right"])
        right.drive_low()
        right.drive_high()
        wait_until(lambda: session.state()["game"]["cursor"] == "Qc")
        assert session.view().screen == "game", "every move was saved: no notice"
    finally:
        hub.stop()
        loop.join(5)
        hub.close()
        frontend.close()
    assert not loop.is_alive()
    assert [str(record) for record in hub.recent_presses][-2:] == ["ok from 'GPIO 22'", "right from 'GPIO 26'"]


def test_sigterm_right_after_ready_ends_the_console_cleanly(tmp_path: Path) -> None:
    """READY=1 comes once the first frame is shown and the input sources are open: a stop at once must not be lost."""
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(30)
    env = {**os.environ, "NOTIFY_SOCKET": address, "GPIOZERO_PIN_FACTORY": "mock"}
    console = subprocess.Popen([sys.executable, "-m", "pyramid", "--display", "headless", "--size", "480x320",
                                "--input", "gpio"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        while listener.recv(4096) != b"READY=1":
            pass
        console.send_signal(signal.SIGTERM)
        _, errors = console.communicate(timeout=20)
    finally:
        console.kill()
        listener.close()
    assert console.returncode == 0, errors


def test_quit_is_offered_in_a_window_only_and_ends_the_main_loop(tmp_path: Path) -> None:
    from display.headless import HeadlessDisplay
    from pyramid.actions import Action
    from pyramid.scripting import ScriptSource

    console = Session(None, store=Store.open(tmp_path / "console.db"))
    open_console(console)
    assert "Quit" not in console.state()["menu"]["items"], "a console is switched off, not quit"
    session = Session(None, store=Store.open(tmp_path / "window.db"))
    session.can_quit = True
    open_console(session)
    assert session.state()["menu"]["items"][-1] == "Quit"
    script = ScriptSource([Action("up"), Action("ok"), Action("down"), Action("down")])  # up wraps round to Quit
    frontend = Frontend(HeadlessDisplay((320, 240)))
    run_loop(session, frontend, script, Notifier(None))
    frontend.close()
    assert session.quit_requested
    assert script.wait(0) == [Action("down")], "the loop ended at once, with the rest of the script unplayed"


def test_the_main_loop_wakes_for_a_replay_playing_by_itself_and_a_press_still_acts_at_once(tmp_path: Path) -> None:
    """No busy loop: the loop waits on the input until the replay's next move is due, then draws it."""
    from input.hub import InputHub
    from pyramid.console import replay
    from pyramid.console.replay import ReplayScreen
    from pyramid.console.table import Table
    from pyramid.engine.board import Board
    from pyramid.engine.solver import solve

    frontend = CountingFrontend()
    hub = InputHub()
    screens: list[ReplayScreen] = []

    def console() -> None:
        session = Session(None, store=Store.open(tmp_path / "p.db"))
        open_console(session)
        board = Board(parse_deal(clearable_deal()))
        screen = ReplayScreen(session, Table(board.copy()), solve(board).moves, "Solution")
        session.push(screen)
        screens.append(screen)
        run_loop(session, frontend, hub, Notifier(None))

    loop = threading.Thread(target=console)
    loop.start()
    try:
        # The step moves on, then the loop draws it: wait for both (reading the frames as soon as the
        # step was 2 failed once on a loaded machine, the second move not drawn yet).
        wait_until(lambda: bool(screens) and screens[0].step >= 2 and frontend.frames >= 3,
                   seconds=4 * replay.PACES[-1] * 3)
        assert frontend.frames >= 3, "each move it played was drawn"
        hub.press("ok", "test")  # pause: at once, not after the next move
        hub.release("ok", "test")
        wait_until(lambda: not screens[0].playing)
        step = screens[0].step
        time.sleep(2 * replay.PACES[replay.START_PACE])
        assert screens[0].step == step, "paused: it waits for the player"
    finally:
        hub.stop()
        loop.join(5)
        frontend.close()
    assert not loop.is_alive()
