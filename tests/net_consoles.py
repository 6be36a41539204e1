"""Real console processes at a network table, for the tests/test_net_console_*.py files.

Each console is `python -m pyramid --display headless` with its own
``PYRAMID_DATA_DIR``; the host listens on 127.0.0.1 with ``--table-port 0``
and the guest learns the port from the first line of the host's trace, which
is written before the first action. Scripts are what a touchscreen player
does: a tap on the card, the stock or the joker for every move of the engine's
good player, ✓ on each end-of-round panel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from pyramid.engine.duel.ai import opponent_for
from pyramid.engine.duel.board import DuelBoard, DuelMove

from duel_taps import SIZE, tap_for

ROOT = Path(__file__).resolve().parents[1]
#: Longest a console process may take (its waits are at most 60 s each).
RUN_LIMIT = 240


def good_moves(match: int, level: str = "good") -> list[DuelMove]:
    """The whole game of the engine's player at ``level`` on ``match``."""
    board, player, moves = DuelBoard.for_match(match), opponent_for(level), []
    while not board.is_over():
        move = player.choose(board)
        moves.append(move)
        board.push(move)
    return moves


def taps(match: int, moves: Sequence[DuelMove], start: int = 0, stop: int | None = None) -> str:
    """The taps for ``moves[start:stop]`` (the board already at ``start``), ✓ after each round cleared."""
    board = DuelBoard.for_match(match)
    for move in moves[:start]:
        board.push(move)
    actions = []
    for move in moves[start:stop]:
        actions.append(tap_for(board, move))
        round_before = board.round_number
        board.push(move)
        if board.round_number != round_before and not board.is_over():
            actions.append("ok")
    return " ".join(actions)


@dataclass
class Console:
    """One console process and its files."""

    directory: Path
    name: str
    process: subprocess.Popen[str] | None = None
    args: list[str] = field(default_factory=list)
    #: What the process wrote on stderr, once :meth:`finish` has collected it.
    stderr: str = ""

    def __post_init__(self) -> None:
        (self.directory / "data").mkdir(parents=True, exist_ok=True)

    @property
    def trace_path(self) -> Path:
        return self.directory / "trace.jsonl"

    @property
    def dump_path(self) -> Path:
        return self.directory / "final.json"

    def start(self, script: str, *args: str, delay_ms: int = 0) -> "Console":
        environment = {**os.environ, "PYRAMID_DATA_DIR": str(self.directory / "data"), "SDL_VIDEODRIVER": "dummy"}
        self.trace_path.unlink(missing_ok=True)
        self.dump_path.unlink(missing_ok=True)
        command = [sys.executable, "-m", "pyramid", "--display", "headless", "--size", f"{SIZE[0]}x{SIZE[1]}",
                   "--name", self.name, "--script", script, "--script-delay", str(delay_ms),
                   "--trace", str(self.trace_path), "--dump-state", str(self.dump_path), *args]
        self.args = command
        self.process = subprocess.Popen(command, cwd=ROOT, env=environment, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return self

    def states(self) -> list[dict[str, Any]]:
        if not self.trace_path.exists():
            return []
        lines = self.trace_path.read_text().splitlines()
        return [json.loads(line) for line in lines if line.endswith("}")]

    def wait_for_trace(self, condition: Any = lambda states: bool(states), limit: float = 60) -> list[dict[str, Any]]:
        """The trace once ``condition(states)`` holds (the process must still be running or have left it)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            states = self.states()
            if condition(states):
                return states
            assert self.process is not None
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"{self.name}: the trace never got there; stderr: {self.stderr_now()}")

    def stderr_now(self) -> str:
        if self.process is None or self.process.poll() is None:
            return "(still running)"
        return self.process.stderr.read() if self.process.stderr else ""

    def port(self) -> int:
        """The real port of a ``--table open --table-port 0`` host, from its first trace line."""
        first = self.wait_for_trace()[0]
        return int(first["game"]["table"]["port"])

    def finish(self) -> dict[str, Any]:
        """Wait for a clean exit; the final state (``--dump-state``)."""
        assert self.process is not None
        out, err = self.process.communicate(timeout=RUN_LIMIT)
        self.stderr = err
        assert self.process.returncode == 0, f"{self.name} exited {self.process.returncode}: {err}"
        return dict(json.loads(self.dump_path.read_text()))

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.communicate(timeout=30)

    def stats(self) -> dict[tuple[str, str], Any]:
        from pyramid.saved.store import Store

        with Store.open(self.directory / "data" / "pyramid.db") as store:
            return {(stats.game, stats.variant): stats for stats in store.all_stats()}

    def saved_moves(self) -> list[str]:
        from pyramid.saved.store import Store

        with Store.open(self.directory / "data" / "pyramid.db") as store:
            progress = store.load_progress("pyramids")
            assert progress is not None, f"{self.name} has no saved game"
            return list(progress.moves)


def host(directory: Path, name: str, match: int, script: str, *args: str, delay_ms: int = 0) -> Console:
    return Console(directory / name, name).start(
        script, "--table", "open", "--table-port", "0", "--table-address", "127.0.0.1", "--deal-number", str(match),
        *args, delay_ms=delay_ms)


def guest(directory: Path, name: str, port: int, script: str, delay_ms: int = 0) -> Console:
    return Console(directory / name, name).start(script, "--table", f"join:127.0.0.1:{port}", delay_ms=delay_ms)


def stop_all(*consoles: Console) -> None:
    """Kill what is still running (a failed test must not leave consoles behind)."""
    for console in consoles:
        if console.process is not None and console.process.poll() is None:
            console.process.kill()
            console.process.communicate(timeout=30)


def played(states: list[dict[str, Any]]) -> int:
    """How many moves the console's game holds in its latest trace line."""
    games = [state["game"] for state in states if state["game"] is not None]
    return len(games[-1]["moves"]) if games else 0


def kill_and_continue(victim: Console, survivor: Console, moves: Sequence[DuelMove], match: int, after: int,
                      consoles: list[Console], *args: str) -> tuple[dict[str, Any], dict[str, Any], list[str], Console]:
    """kill -9 of ``victim`` once it has played ``after`` of its ``moves``, then started again (with
    ``args``), Continue and the rest of its moves: both final games, the moves it had saved, and the
    console started again."""
    victim.wait_for_trace(lambda states: played(states) >= after)
    victim.kill()
    saved = victim.saved_moves()
    assert saved == [str(move) for move in moves[:len(saved)]] and len(saved) >= after
    again = Console(victim.directory, victim.name)
    consoles.append(again)
    again.start(f"ok wait:joined {taps(match, moves, start=len(saved))} wait:done ok", *args)
    assert again.wait_for_trace()[0]["menu"]["items"][0] == "Continue Pyramids"
    victim_final, survivor_final = again.finish(), survivor.finish()
    return victim_final["game"], survivor_final["game"], saved, again
