"""``--trace`` on the console proper: what the player did and saw, and when.

Why: the scripted mode's trace (docs/developers.md) is the state after each action of a script.
A console played with a real remote, a TV's among them, has two more things to say, for a bug
report and for the measure of a remote's latency (issue 49): which presses (the action, the device
it came from, when the input thread read it: ``read``) and when the frame they changed was on
screen (``shown``). Both times are ``time.monotonic()``, CLOCK_MONOTONIC: the clock a probe on the
same machine can read the kernel's input events on (EVIOCSCLOCKID) and time a TV's key with, so
a press and its frame are put side by side. One line for the presses the loop read together, the
first line the state before any.

The trace must not stop the game: one that can no longer be written (a full disk) is said once in
the log and ends there; the console plays on.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Sequence

from pyramid.console.session import Session
from pyramid.scripting import OutputError, Trace

if TYPE_CHECKING:
    from input.hub import PressRecord

log = logging.getLogger("pyramid")


class ConsoleTrace:
    """Writes the console's trace: the state, the presses since the line before, and ``shown``."""

    def __init__(self, trace: Trace, session: Session, presses: Callable[[], Sequence[PressRecord]],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._trace: Trace | None = trace
        self._session, self._presses, self._clock = session, presses, clock
        self._last: PressRecord | None = None  # the last press written (the log keeps the newest few)
        self._write([], None)

    def after_input(self, shown: bool) -> None:
        """The loop applied the presses it read together; ``shown``: their frame is on screen now."""
        at = self._clock() if shown else None
        recent = list(self._presses())
        seen = next((n for n in range(len(recent) - 1, -1, -1) if recent[n] is self._last), -1)
        new = recent[seen + 1:]
        if new:
            self._last = new[-1]
        self._write([{"action": str(press.action), "device": press.device, "read": round(press.at, 6)}
                     for press in new], None if at is None else round(at, 6))

    def close(self) -> None:
        if self._trace is not None:
            try:
                self._trace.close()
            except OutputError as error:
                log.warning("the console's trace ends incomplete: %s", error)

    def _write(self, presses: list[dict[str, Any]], shown: float | None) -> None:
        if self._trace is None:
            return
        try:
            self._trace.write({**self._session.state(), "presses": presses, "shown": shown})
        except OutputError as error:
            log.warning("the console's trace stops here, the console plays on: %s", error)
            self._trace = None
