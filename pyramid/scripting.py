"""The scripted mode's two ends: a source of actions and the outputs it leaves.

The scripted mode runs the console's real main loop; only the source of
actions differs (a fixed list instead of buttons), so what the tests drive is
what a player drives.

Outputs are what a test or a bug report reads afterwards, so a half-written
one is worse than none: ``--dump-state`` and ``--screenshot`` go to a
temporary file in the same directory, are fsynced, then renamed over the
target (:func:`pyramid.durable.replace_file`), so the target is either the whole new file or untouched. The trace is
the exception: it is written a line at a time, so a run that is killed (the
power-cut tests do that) still leaves the lines it got to. Whatever fails is
an :class:`OutputError` naming the option.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol, Sequence, Union

from pyramid.actions import Action
from pyramid.durable import replace_file
from pyramid.errors import InvalidActionError, PyramidError

WaitGoal = Literal["message", "joined", "done", "shared", "friends"]
#: The script words that wait for the network instead of playing, and the longest each waits: for the
#: other console at a table (issue 12), for the table server to take this console's daily results, and
#: (``wait:friends:N``, :data:`FRIENDS`) for N friends' results on the boards shown (issue 50).
WAITS: dict[str, tuple[WaitGoal, float]] = {
    "wait": ("message", 10.0),
    "wait:joined": ("joined", 30.0),
    "wait:done": ("done", 60.0),
    "wait:shared": ("shared", 30.0),
}
#: ``wait:friends:N``'s prefix, and its limit: a board's results are each proven by a replay first.
FRIENDS = ("wait:friends:", 60.0)
#: The most results ``wait:friends:N`` can ask for (a board keeps 2,000 at most).
MOST_FRIENDS = 2000


class ScriptWait(NamedTuple):
    """A script step that plays nothing: it waits for ``goal``, at most ``limit`` seconds; ``results`` is
    the results awaited for ``"friends"``."""

    goal: WaitGoal
    limit: float
    results: int = 0

    def __str__(self) -> str:
        if self.goal == "friends":
            return f"{FRIENDS[0]}{self.results}"
        return next(word for word, (goal, _) in WAITS.items() if goal == self.goal)


Step = Union[Action, ScriptWait]


def parse_steps(text: str) -> list[Step]:
    """``--script``'s words: actions (:meth:`~pyramid.actions.Action.parse`), plus the waits.

    The waits exist only here: a device never produces them, so they are not actions.
    """
    steps: list[Step] = []
    for word in text.split():
        wait = parse_wait(word.lower())
        if wait is not None:
            steps.append(wait)
            continue
        try:
            steps.append(Action.parse(word))
        except InvalidActionError as error:
            raise InvalidActionError(f"{error}; or {', '.join(WAITS)}, {FRIENDS[0]}N") from None
    return steps


def parse_wait(word: str) -> ScriptWait | None:
    """The wait ``word`` names, or None when it names none (``wait:friends:`` with no count or a count
    out of 0..:data:`MOST_FRIENDS` is refused, quoted)."""
    wait = WAITS.get(word)
    if wait is not None:
        return ScriptWait(*wait)
    prefix, limit = FRIENDS
    if not word.startswith(prefix):
        return None
    count = word[len(prefix):]
    if not (count.isascii() and count.isdigit() and int(count) <= MOST_FRIENDS):
        raise InvalidActionError(f"{word!r}: {prefix} takes a count of results from 0 to {MOST_FRIENDS}")
    return ScriptWait("friends", limit, int(count))


class ScriptProbe(Protocol):
    """What the script's waits ask the console: is this item news from the other console, is a goal reached."""

    def heard(self, item: object) -> bool:
        """``item`` (posted to the source) is a message from the other console."""

    def reached(self, wait: ScriptWait) -> bool:
        """The console's state satisfies ``wait``'s goal (any but "message") now."""


class OutputError(PyramidError):
    """An output file of the scripted mode that could not be written; the message names the option and the file."""


class ScriptSource:
    """Hands the main loop one action at a time, then ``None`` (the script is over, or it was stopped).

    ``delay`` seconds pass after each action has been handled, before the next
    one, so a test can cut the power in the middle of a game. The delay is a
    wait on an event, not a sleep, so :meth:`stop` (from a signal handler, see
    :meth:`stopping_on`) ends it at once.

    Like the input hub, it takes items posted by other threads (:meth:`post`:
    the network's events) and hands them over before the next step. A
    :class:`ScriptWait` step blocks on those posts, never polls: it ends when
    ``probe`` says its goal is reached (checked after the loop has handled
    what arrived), or after its limit; the script then goes on.
    """

    def __init__(self, steps: Sequence[Step], delay: float = 0.0, probe: ScriptProbe | None = None) -> None:
        self._steps = deque(steps)
        self._delay = delay
        self._probe = probe
        self._after_action = False
        self._stop = threading.Event()
        self._ready = threading.Condition()
        self._posted: deque[object] = deque()
        self._heard = 0
        self._wait_started: tuple[float, int] | None = None  # (deadline, messages heard before it)
        #: The signal that stopped the script, if one did.
        self.stopped_by: int | None = None

    def post(self, item: object) -> None:
        """Hand ``item`` to the main loop before the next step (from any thread)."""
        with self._ready:
            self._posted.append(item)
            self._ready.notify()

    def until(self, wanted: Callable[[object], bool], limit: float) -> list[object]:
        """Block until a posted item is ``wanted`` (at most ``limit`` seconds); every item taken, in order.

        For what must be known before the first step (the real port of ``--table open``).
        """
        deadline = time.monotonic() + limit
        taken: list[object] = []
        with self._ready:
            while not any(wanted(item) for item in taken) and not self._stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0 or not self._ready.wait_for(lambda: bool(self._posted) or self._stop.is_set(), left):
                    break
                taken += self._posted
                self._posted.clear()
        return taken

    def wait(self, timeout: float | None) -> list[object] | None:
        if self._after_action and self._delay:
            self._stop.wait(self._delay)
        self._after_action = False
        while not self._stop.is_set():
            with self._ready:
                posted = list(self._posted)
                self._posted.clear()
            if posted:
                self._heard += sum(1 for item in posted if self._probe is not None and self._probe.heard(item))
                return posted
            if not self._steps:
                return None
            step = self._steps[0]
            if isinstance(step, Action):
                self._steps.popleft()
                self._after_action = True
                return [step]
            if self._waited(step, timeout):
                return []  # the watchdog's turn: the loop comes back here
        return None

    def _waited(self, step: ScriptWait, timeout: float | None) -> bool:
        """Block for ``step`` until something is posted (False), or it is over (popped, False), or ``timeout`` (True)."""
        now = time.monotonic()
        if self._wait_started is None:
            self._wait_started = (now + step.limit, self._heard)
        deadline, heard_before = self._wait_started
        if self._goal_reached(step, heard_before) or now >= deadline:
            self._steps.popleft()
            self._wait_started = None
            return False
        block = deadline - now if timeout is None else min(deadline - now, timeout)
        with self._ready:
            arrived = self._ready.wait_for(lambda: bool(self._posted) or self._stop.is_set(), block)
        return not arrived and time.monotonic() < deadline

    def _goal_reached(self, step: ScriptWait, heard_before: int) -> bool:
        if step.goal == "message":
            return self._heard > heard_before
        return self._probe is not None and self._probe.reached(step)

    def stop(self) -> None:
        """End the script before its next action (from any thread)."""
        self._stop.set()
        with self._ready:
            self._ready.notify()

    @contextlib.contextmanager
    def stopping_on(self, number: int) -> Iterator[None]:
        """While inside, signal ``number`` stops the script; the handler before is put back after.

        Needed because SDL, once a display is open, turns SIGTERM into a quit
        event that nobody reads in the scripted mode: the script would play on.
        """
        def handle(received: int, frame: object) -> None:
            self.stopped_by = received
            self.stop()

        previous = signal.signal(number, handle)
        try:
            yield
        finally:
            signal.signal(number, previous)


class Trace:
    """Writes one JSON state per line and flushes it, so a killed run leaves a usable trace."""

    def __init__(self, path: str | Path) -> None:
        self._path = str(path)
        _check_target("--trace", self._path)
        try:
            self._file = open(self._path, "w", encoding="utf-8")
        except OSError as error:
            raise _output_error("--trace", self._path, error) from None

    def write(self, state: dict[str, Any]) -> None:
        try:
            self._file.write(json.dumps(state, separators=(",", ":")) + "\n")
            self._file.flush()
        except OSError as error:
            raise _output_error("--trace", self._path, error) from None

    def close(self) -> None:
        """Make the trace durable and close it; a write that fails only now still fails the run."""
        try:
            with contextlib.closing(self._file):
                self._file.flush()
                os.fsync(self._file.fileno())
        except OSError as error:
            raise _output_error("--trace", self._path, error) from None


def dump_state(path: str | Path, state: dict[str, Any]) -> None:
    write_output("--dump-state", path, (json.dumps(state, indent=1) + "\n").encode())


def write_output(option: str, path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (see the module note); :class:`OutputError` otherwise."""
    target = str(path)
    _check_target(option, target)
    try:
        replace_file(target, data)
    except OSError as error:
        raise _output_error(option, target, error) from None


def _check_target(option: str, target: str) -> None:
    """Only a regular file (or a new name) is written: renaming over ``/dev/full`` as root would replace the device."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise _output_error(option, target, error) from None
    if not stat.S_ISREG(mode):
        raise OutputError(f"{option} {target!r}: not a regular file")


def _output_error(option: str, target: str, error: OSError) -> OutputError:
    return OutputError(f"{option} {target!r}: cannot write it ({error.strerror or error})")
