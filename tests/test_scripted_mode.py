"""The scripted mode end to end: the real `pyramid` command, headless."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from deals import build_deal, clearable_deal

UPPER = ["3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "Kd", "Kh", "Ks", "Ac", "Ad", "Ah",
         "As", "2c", "2d", "2h", "2s", "9s", "Qc"]
BASE = ["Tc", "Td", "Th", "Ts", "9c", "9d", "9h"]


def pyramid(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pyramid", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def scripted(tmp_path: Path, script: str, *extra: str) -> list[dict]:
    trace = tmp_path / "trace.jsonl"
    result = pyramid("--display", "headless", "--size", "480x320", "--script", script,
                     "--trace", str(trace), *extra)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in trace.read_text().splitlines()]


def test_trace_has_the_state_before_and_after_each_action(tmp_path: Path) -> None:
    states = scripted(tmp_path, "ok ok right", "--deal", clearable_deal())
    assert len(states) == 4
    assert [s["screen"] for s in states] == ["menu", "redeal_choice", "game", "game"]
    game = states[-1]["game"]
    assert set(game) >= {"rules", "deal", "pyramid", "stock", "waste", "redeals_left", "score",
                         "chosen", "cursor", "status"}
    assert game["rules"] == "retrohub" and game["deal"] == clearable_deal()
    assert [len(row) for row in game["pyramid"]] == [1, 2, 3, 4, 5, 6, 7]
    assert len(game["stock"]) == 24 and game["cursor"] == "Ac" and game["status"] == "playing"


def test_game_and_redeals_skip_the_menus(tmp_path: Path) -> None:
    states = scripted(tmp_path, "ok", "--game", "pyramid", "--redeals", "unlimited",
                      "--deal", clearable_deal())
    assert states[0]["screen"] == "game" and states[0]["game"]["redeals_left"] is None
    states = scripted(tmp_path, "down ok", "--game", "pyramid", "--deal", clearable_deal())
    assert states[0]["screen"] == "redeal_choice"
    assert states[-1]["game"]["redeals_left"] == 1


def test_whole_game_cleared_through_the_command(tmp_path: Path) -> None:
    # Base row first: Kc alone, then Ac+Qc, 2c+Jc, 3c+Tc, and so on up the rows.
    script = "ok " + " ".join(["ok right ok"] * 3)
    states = scripted(tmp_path, script, "--game", "pyramid", "--redeals", "none", "--deal", clearable_deal())
    assert states[-1]["game"]["pyramid"][6] == [None] * 7
    assert states[-1]["game"]["score"] == 35


def test_no_move_left_and_back_to_menu(tmp_path: Path) -> None:
    deal = build_deal(UPPER[:-1] + ["Kc"] + BASE, [])
    states = scripted(tmp_path, "ok", "--game", "pyramid", "--redeals", "unlimited", "--deal", deal)
    assert states[0]["screen"] == "game_over" and states[0]["game"]["status"] == "no_moves"
    assert states[1]["screen"] == "menu"


def test_dump_state_and_screenshot(tmp_path: Path) -> None:
    dump, shot = tmp_path / "state.json", tmp_path / "shot.png"
    result = pyramid("--display", "headless", "--size", "320x240", "--game", "pyramid", "--redeals", "one",
                     "--deal-number", "7", "--script", "ok up ok", "--dump-state", str(dump),
                     "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr
    state = json.loads(dump.read_text())
    assert state["screen"] == "game" and state["game"]["redeals_left"] == 1
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, message", [
    (["--deal", "Ac 2c"], "invalid --deal: a deal needs 52 cards, got 2"),
    (["--deal", clearable_deal().replace("Ks", "Kc", 1)], "duplicate card 'Kc'"),
    (["--deal", clearable_deal().replace("Ks", "Kx", 1)], "'Kx'"),
    (["--script", "ok jump"], "invalid --script"),
    (["--size", "big"], "invalid --size 'big'"),
    (["--redeals", "seven", "--game", "pyramid"], "--redeals"),
    (["--rules", "nonsense"], "unknown rules preset 'nonsense'"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
])
def test_bad_options_exit_non_zero_with_one_line(args: list[str], message: str) -> None:
    result = pyramid("--display", "headless", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr
