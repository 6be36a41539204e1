"""The console in a real X11 window (Xvfb), driven by real key presses (xdotool).

Skipped when Xvfb or xdotool is missing (`apt-get install xvfb xdotool x11-utils`;
.ci/run installs them).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyramid.store import Store

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("Xvfb", "xdotool", "xwininfo")),
    reason="needs Xvfb, xdotool and xwininfo: apt-get install xvfb xdotool x11-utils",
)


@pytest.fixture
def x_display():
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as stream:
        number = stream.readline().strip()
    yield f":{number}"
    server.terminate()
    server.wait(10)


def until(condition, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def window_id(env: dict[str, str]) -> str | None:
    tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True).stdout
    return next((line.split()[0] for line in tree.splitlines() if '"Pyramid"' in line), None)


def test_keys_in_a_window_start_a_game_and_sigterm_ends_cleanly(x_display: str, tmp_path: Path) -> None:
    env = {**os.environ, "DISPLAY": x_display, "PYRAMID_DATA_DIR": str(tmp_path / "data")}
    env.pop("SDL_VIDEODRIVER", None)
    console = subprocess.Popen([sys.executable, "-m", "pyramid", "--display", "window", "--size", "480x320"],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        window = until(lambda: window_id(env))
        subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env, check=True)
        for key in ("Return", "Return"):  # New game, then "No redeal"
            subprocess.run(["xdotool", "key", "--window", window, key], env=env, check=True)
            time.sleep(0.3)
        store = Store.open(tmp_path / "data" / "pyramid.db")
        until(lambda: store.has_progress("pyramid"))
        store.close()
    finally:
        console.send_signal(signal.SIGTERM)
        _, errors = console.communicate(timeout=20)
    assert console.returncode == 0, errors
