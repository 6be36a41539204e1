"""Pyramids through the real `pyramid` command: scripted, headless, traced.

The script is what a player with a touchscreen would do: a tap on the
card, the stock or the joker for every move of the engine's good player,
✓ on each end-of-round panel, then the results and the computer's game.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pyramid.engine.duel.board import DuelBoard
from pyramid.engine.duel.ai import opponent_for, play_match

from duel_taps import SIZE, tap_for

#: The good player clears the first round of this match, then loses the second.
MATCH = 16


def pyramid(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pyramid", "--display", "headless",
                           "--size", f"{SIZE[0]}x{SIZE[1]}", *args],
                          capture_output=True, text=True, timeout=120)


def traced(tmp_path: Path, script: str, *extra: str) -> list[dict]:
    trace = tmp_path / "trace.jsonl"
    result = pyramid("--script", script, "--trace", str(trace), *extra)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in trace.read_text().splitlines()]


def good_game_script(match: int) -> tuple[str, DuelBoard]:
    """Taps for the good player's whole game of ``match``, with ✓ on each round panel."""
    board, player, actions = DuelBoard.for_match(match), opponent_for("good"), []
    while not board.is_over():
        move = player.choose(board)
        actions.append(tap_for(board, move))
        round_before = board.round_number
        board.push(move)
        if board.round_number != round_before and not board.is_over():
            actions.append("ok")
    return " ".join(actions), board


def test_whole_match_against_the_computer(tmp_path: Path) -> None:
    script, mine = good_game_script(MATCH)
    computer = play_match(MATCH, "good")
    states = traced(tmp_path, f"{script} ok ok", "--game", "pyramids", "--deal-number", str(MATCH))
    first = states[0]
    assert first["screen"] == "duel" and first["menu"] is None
    game = first["game"]
    assert game["rules"] == "pyramids" and game["match"] == MATCH and game["round"] == 1
    assert set(game) >= {"pile", "joker_available", "round", "streak", "cursor", "chosen", "stock", "pyramid"}
    assert game["chosen"] is None and len(game["pile"]) == 1 and len(game["stock"]) == 23
    screens = [state["screen"] for state in states]
    assert "duel_over" in screens and screens[-2:] == ["duel_result", "replay"]
    final = states[-1]["game"]
    assert final["moves"] == [str(move) for move in mine.move_stack] and final["score"] == mine.score
    results = final["duel"]["results"]
    assert results[0]["round_scores"] == mine.round_scores()
    assert results[1]["round_scores"] == list(computer.round_scores)
    assert max(state["game"]["round"] for state in states) >= 2  # a round was cleared and the next dealt


def test_cut_mid_match_then_continue_from_the_main_menu(tmp_path: Path) -> None:
    script, _ = good_game_script(MATCH)
    taps = script.split()[:20]
    before = traced(tmp_path, " ".join(taps), "--game", "pyramids", "--deal-number", str(MATCH))[-1]
    after = traced(tmp_path, "ok")
    assert after[0]["screen"] == "menu" and after[0]["menu"]["items"][0] == "Continue Pyramids"
    resumed = after[-1]
    assert resumed["screen"] == "duel"
    for key in ("pyramid", "stock", "pile", "round", "streak", "score", "joker_available", "moves"):
        assert resumed["game"][key] == before["game"][key]


def test_two_players_from_the_menus(tmp_path: Path) -> None:
    # Main menu: "Pyramids" is the fourth line; then "Two players", both names kept as they are.
    states = traced(tmp_path, "down down down down ok down down ok ok ok", "--deal-number", "3")
    assert [s["screen"] for s in states[-4:]] == ["pyramids_menu", "name_entry", "name_entry", "duel_turn"]
    turn = states[-1]
    assert turn["screen"] == "duel_turn" and turn["menu"]["items"] == ["Start"]
    assert turn["game"]["player"] == "Player 1" and turn["game"]["match"] == 3
    assert [c["name"] for c in turn["game"]["duel"]["contenders"]] == ["Player 1", "Player 2"]
