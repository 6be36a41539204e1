"""The scripted mode's two ends: a source of actions and the trace it leaves.

The scripted mode runs the console's real main loop; only the source of
actions differs (a fixed list instead of buttons), so what the tests drive is
what a player drives.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from pyramid.actions import Action


class ScriptSource:
    """Hands the main loop one action at a time, then ``None`` (the script is over).

    ``delay`` seconds pass after each action has been handled, before the next
    one, so a test can cut the power in the middle of a game.
    """

    def __init__(self, actions: Sequence[Action], delay: float = 0.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self._actions = list(actions)
        self._delay = delay
        self._sleep = sleep
        self._started = False

    def wait(self, timeout: float | None) -> list[Action] | None:
        if self._started and self._delay:
            self._sleep(self._delay)
        self._started = True
        if not self._actions:
            return None
        return [self._actions.pop(0)]


class Trace:
    """Writes one JSON state per line and flushes it, so a killed run leaves a usable trace."""

    def __init__(self, path: str | Path) -> None:
        self._file: TextIO = open(path, "w", encoding="utf-8")

    def write(self, state: dict[str, Any]) -> None:
        self._file.write(json.dumps(state, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def dump_state(path: str | Path, state: dict[str, Any]) -> None:
    Path(path).write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")
