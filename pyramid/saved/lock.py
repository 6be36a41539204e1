"""One console per data directory: an exclusive lock held for the whole run.

Why: two consoles on one store (a scripted game started beside the running
console, a second ``./run.sh``) each believe they own the saved game; they
write over each other's moves, and the next start finds a game that replays to
nothing and sets it aside. SQLite's own locking keeps the file whole, not the
game. So the console takes ``flock(LOCK_EX | LOCK_NB)`` on ``pyramid.lock`` in
the data directory before it opens the store, and a second console says who
holds it, in one line, and exits 1. The kernel lets the lock go when the
process ends, however it ends, so a power cut or a kill leaves nothing stale.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import BinaryIO

LOCK_NAME = "pyramid.lock"


class DataDirectoryInUseError(OSError):
    """Another process holds the data directory's lock (an ``OSError``: the console exits 1)."""

    def __init__(self, directory: Path, holder: str) -> None:
        super().__init__(f"another console is using the data directory {str(directory)!r}{holder}; "
                         "only one may run on it at a time (quit it, or set PYRAMID_DATA_DIR to another directory)")


#: The lock files this process holds, by directory: open until the process ends.
_held: dict[Path, BinaryIO] = {}


def hold_data_directory(directory: Path) -> bool:
    """Take the data directory's lock for the rest of the process (again: nothing more to do).

    False when the directory cannot hold a lock file (read-only, missing and
    not creatable): the store then reports the directory as unusable and plays
    on in memory, where nothing is shared. :class:`DataDirectoryInUseError`
    when another process holds the lock.
    """
    directory = directory.absolute()
    if directory in _held:
        return True
    try:
        directory.mkdir(parents=True, exist_ok=True)
        lock = open(directory / LOCK_NAME, "a+b")
    except OSError:
        return False
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        pid = lock.read(16).decode("ascii", "replace").strip()
        lock.close()
        raise DataDirectoryInUseError(directory, f" (process {pid})" if pid.isdigit() else "") from None
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n".encode())
    lock.flush()
    _held[directory] = lock
    return True
