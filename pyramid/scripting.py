"""The scripted mode's two ends: a source of actions and the outputs it leaves.

The scripted mode runs the console's real main loop; only the source of
actions differs (a fixed list instead of buttons), so what the tests drive is
what a player drives.

Outputs are what a test or a bug report reads afterwards, so a half-written
one is worse than none: ``--dump-state`` and ``--screenshot`` go to a
temporary file in the same directory, are fsynced, then renamed over the
target, so the target is either the whole new file or untouched. The trace is
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
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, Sequence

from pyramid.actions import Action
from pyramid.errors import PyramidError


class OutputError(PyramidError):
    """An output file of the scripted mode that could not be written; the message names the option and the file."""


class ScriptSource:
    """Hands the main loop one action at a time, then ``None`` (the script is over, or it was stopped).

    ``delay`` seconds pass after each action has been handled, before the next
    one, so a test can cut the power in the middle of a game. The delay is a
    wait on an event, not a sleep, so :meth:`stop` (from a signal handler, see
    :meth:`stopping_on`) ends it at once.
    """

    def __init__(self, actions: Sequence[Action], delay: float = 0.0) -> None:
        self._actions = list(actions)
        self._delay = delay
        self._started = False
        self._stop = threading.Event()
        #: The signal that stopped the script, if one did.
        self.stopped_by: int | None = None

    def wait(self, timeout: float | None) -> list[Action] | None:
        if self._started and self._delay:
            self._stop.wait(self._delay)
        self._started = True
        if self._stop.is_set() or not self._actions:
            return None
        return [self._actions.pop(0)]

    def stop(self) -> None:
        """End the script before its next action (from any thread)."""
        self._stop.set()

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
    directory = os.path.dirname(os.path.abspath(target))
    try:
        descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(target)}.",
                                                 suffix=".tmp")
    except OSError as error:
        raise _output_error(option, target, error) from None
    try:
        with open(descriptor, "wb") as file:
            _write_all(file, data)
        os.replace(temporary, target)
        _sync_directory(directory)
    except OSError as error:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise _output_error(option, target, error) from None


def _write_all(file: BinaryIO, data: bytes) -> None:
    file.write(data)
    file.flush()
    os.fsync(file.fileno())


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


def _sync_directory(directory: str) -> None:
    """Make the rename durable: fsync of a file does not cover its new name."""
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _output_error(option: str, target: str, error: OSError) -> OutputError:
    return OutputError(f"{option} {target!r}: cannot write it ({error.strerror or error})")
