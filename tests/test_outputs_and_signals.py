"""The scripted mode's outputs and stops (issue 13, items 10 and 11).

An output that cannot be written is one line naming the option and a non-zero
exit, and never leaves a truncated or empty file where a good one was asked
for; SIGTERM ends the scripted mode and the keyboard source on headless at once.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from disks import fill, tmpfs

from update_fakes import wait_until

REPO = Path(__file__).resolve().parents[1]


def pyramid(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pyramid", "--display", "headless", *args],
                          capture_output=True, text=True, timeout=120, cwd=REPO)


def refused(result: subprocess.CompletedProcess[str], option: str, status: int = 1) -> str:
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert option in line
    return line


@pytest.mark.parametrize("option", ["--screenshot", "--dump-state", "--trace"])
def test_an_output_in_a_missing_directory_or_onto_a_directory_is_one_line(tmp_path: Path, option: str) -> None:
    refused(pyramid("--script", "ok", option, str(tmp_path / "missing" / "out")), option)
    refused(pyramid("--script", "ok", option, str(tmp_path)), option)
    assert sorted(tmp_path.iterdir()) == []  # no temporary file left behind


@pytest.mark.parametrize("option", ["--screenshot", "--dump-state", "--trace"])
def test_an_output_onto_a_device_is_refused_and_the_device_kept(option: str) -> None:
    assert "not a regular file" in refused(pyramid("--script", "ok", option, "/dev/full"), option)
    assert Path("/dev/full").is_char_device()


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs, filled up but for a few bytes."""
    with tmpfs(tmp_path / "full", "64k") as mount:
        fill(mount)
        yield mount


@pytest.mark.parametrize("option", ["--screenshot", "--dump-state", "--trace"])
def test_an_output_on_a_full_disk_fails_and_leaves_nothing_half_written(full_disk: Path, option: str) -> None:
    target = full_disk / "out"
    result = pyramid("--size", "1920x1080", "--script", "ok down ok", option, str(target))
    assert "No space left on device" in refused(result, option)
    if option != "--trace":  # the trace is a log, written as it goes, so a killed run leaves one
        assert not target.exists()
    assert sorted(path.name for path in full_disk.iterdir()) == ["filler"] + (["out"] if target.exists() else [])


def test_outputs_replace_an_old_file_whole(tmp_path: Path) -> None:
    state, shot = tmp_path / "state.json", tmp_path / "shot.png"
    state.write_text("old")
    shot.write_text("old")
    assert pyramid("--script", "ok", "--dump-state", str(state), "--screenshot", str(shot)).returncode == 0
    assert json.loads(state.read_text())["screen"] and shot.read_bytes().startswith(b"\x89PNG")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shot.png", "state.json"]


@pytest.mark.parametrize("delay", ["99999999999999999999", "3600001", "-1"])
def test_a_script_delay_out_of_range_is_one_line(delay: str) -> None:
    refused(pyramid("--script", "ok", "--script-delay", delay), "--script-delay", status=2)


def test_sigterm_ends_the_scripted_mode_during_its_delay(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "pyramid", "--display", "headless", "--game", "pyramid",
                                "--redeals", "one", "--script-delay", "3600000", "--script", "ok ok",
                                "--trace", str(trace)], cwd=REPO, stderr=subprocess.PIPE, text=True)
    try:
        # Two lines: the state before the first action and after it; the delay has begun.
        assert wait_until(lambda: trace.exists() and len(trace.read_text().splitlines()) >= 2, timeout=60)
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=60)
    finally:
        process.kill()
    assert "Traceback" not in errors
    assert process.returncode == 128 + signal.SIGTERM


def test_sigterm_ends_a_keyboard_wait_without_a_timeout_on_headless() -> None:
    """The hub's wait with no time-out (no watchdog) must still let a signal handler stop it."""
    program = textwrap.dedent("""
        import signal
        from display.headless import HeadlessDisplay
        from input.hub import InputHub
        from input.keyboard import PygameEvents

        display = HeadlessDisplay((480, 320))
        hub = InputHub()
        PygameEvents(hub, lambda: (480, 320))
        signal.signal(signal.SIGALRM, lambda number, frame: hub.stop())
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        while (actions := hub.wait(None)) is not None:
            pass
        print("stopped")
    """)
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, cwd=REPO,
                            env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert result.stdout.strip().endswith("stopped"), result.stderr
