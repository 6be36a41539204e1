"""Damaged or unusable data through the real console: a clear message, and play goes on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pyramid.saved.database import DATABASE_NAME
from pyramid.saved.store import Store


def run(data: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    """The console with its data in ``data``; the final state is dumped beside the test's files."""
    dump = Path(os.environ["PYRAMID_DATA_DIR"]) / "state.json"
    env = {**os.environ, "PYRAMID_DATA_DIR": str(data)}
    result = subprocess.run([sys.executable, "-m", "pyramid", "--display", "headless", "--dump-state",
                             str(dump), *args], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    return result, json.loads(dump.read_text())


@pytest.mark.parametrize("damage", [b"this is not a database" * 100, b"SQLite format 3\x00" + b"\xff" * 3000, b""])
def test_a_damaged_database_is_put_aside_and_the_player_told_once(tmp_path: Path, damage: bytes) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "pyramid.db").write_bytes(damage)
    _, state = run(data, "--script", "")
    if damage:
        assert state["screen"] == "notice" and state["menu"] == {"items": ["OK"], "selected": 0}
        assert [p.name.startswith("pyramid.db.damaged-") for p in data.iterdir()].count(True) == 1
        _, state = run(data, "--script", "")
    assert state["screen"] == "menu", "the message is shown once"
    _, state = run(data, "--script", "ok ok ok")
    assert state["screen"] == "game"


def test_an_unwritable_directory_lets_the_player_play_with_a_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the data directory should be")
    _, state = run(blocker / "data", "--script", "")
    assert state["screen"] == "notice"
    _, state = run(blocker / "data", "--script", "ok ok ok ok")
    assert state["screen"] == "game", "play goes on"


def test_the_scripted_mode_leaves_the_players_data_alone(tmp_path: Path) -> None:
    """The README's own example, run on a desktop, must not abandon the saved game or count a loss."""
    home = tmp_path / "home"
    player = home / ".local" / "state" / "pyramid"
    env = {key: value for key, value in os.environ.items() if key not in ("PYRAMID_DATA_DIR", "STATE_DIRECTORY",
                                                                          "XDG_STATE_HOME")}
    env["HOME"] = str(home)
    # The player's own game, left in the middle: made by the console through its data directory.
    keep = {**env, "PYRAMID_DATA_DIR": str(player)}
    command = [sys.executable, "-m", "pyramid", "--display", "headless", "--game", "pyramid", "--redeals", "one",
               "--deal-number", "7"]
    subprocess.run([*command, "--script", "right ok"], env=keep, check=True, timeout=120)
    before = Store.open(player / DATABASE_NAME)
    saved, stats = before.load_progress("pyramid"), before.all_stats()
    before.close()
    assert saved is not None
    result = subprocess.run([*command, "--script", "ok ok star", "--dump-state", str(tmp_path / "s.json")],
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "s.json").read_text())["screen"] == "menu"
    after = Store.open(player / DATABASE_NAME)
    assert (after.load_progress("pyramid"), after.all_stats()) == (saved, stats)
    after.close()
