"""One console per data directory (issue 26, item 10): the second says so in one line and exits 1.

Two real console processes (the scripted mode on a named data directory, as the
issue's two scripted games at once were); before the lock, neither said anything
and the next start set the saved game aside as unresumable.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from pyramid.saved.lock import LOCK_NAME

ROOT = Path(__file__).resolve().parents[1]


def console(data: Path | None, script: str, *args: str) -> subprocess.Popen[str]:
    environment = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    environment.pop("PYRAMID_DATA_DIR", None)
    if data is not None:
        environment["PYRAMID_DATA_DIR"] = str(data)
    return subprocess.Popen([sys.executable, "-m", "pyramid", "--display", "headless", "--game", "pyramid",
                             "--script", script, *args], cwd=ROOT, env=environment, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_second_console_on_the_same_data_directory_says_so_and_exits_1(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = console(data, "ok right ok", "--script-delay", "1500")
    try:
        deadline = time.monotonic() + 60
        while not (data / LOCK_NAME).exists() or not (data / LOCK_NAME).read_text().strip():
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()[1]
            time.sleep(0.05)
        second = console(data, "ok")
        out, err = second.communicate(timeout=120)
        assert second.returncode == 1, err
        assert err.strip().splitlines() == [
            f"pyramid: another console is using the data directory {str(data)!r} (process {first.pid}); "
            "only one may run on it at a time (quit it, or set PYRAMID_DATA_DIR to another directory)"]
        assert first.poll() is None, "the first console plays on"
        other = console(tmp_path / "other", "ok")  # another directory is another console's
        assert other.wait(timeout=120) == 0
    finally:
        first.kill()
        first.communicate(timeout=60)
    # The lock goes with the process, however it ended: the next console starts.
    again = console(data, "ok")
    assert again.wait(timeout=120) == 0, again.communicate()[1]


def test_scripted_games_on_the_scratch_store_run_side_by_side(tmp_path: Path) -> None:
    """No data directory named: each plays on its own scratch store, and nothing is locked."""
    games = [console(None, "ok right ok", "--script-delay", "300") for _ in range(2)]
    assert [game.wait(timeout=120) for game in games] == [0, 0]
    for game in games:
        game.communicate()
