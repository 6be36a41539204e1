"""Files that survive a power cut: whole or not at all, their names made durable.

A handheld is switched off at any moment. ``fsync`` of a file makes its data
durable, not its name: a file created, renamed or moved aside must have its
directory synced too, or after a power cut the name can be gone (ext4 and
vfat alike). One helper for every file the console writes itself (the store's
new directories, the files it puts aside, the scripted mode's outputs);
SQLite syncs its own files, and the store syncs the directory of a database
it created (issue 48: the helper existed twice).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def sync_directory(directory: str | Path) -> None:
    """Make the names in ``directory`` durable (a file created, renamed or removed there)."""
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def make_directories(directory: Path, mode: int = 0o700) -> None:
    """Create ``directory`` and its missing parents, each new name made durable."""
    missing = []
    while not directory.exists():
        missing.append(directory)
        directory = directory.parent
    for new in reversed(missing):
        new.mkdir(mode=mode)
        sync_directory(new.parent)


def write_new(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` to a new file ``path`` (``FileExistsError`` if there is one), durably."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.write(descriptor, data)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    sync_directory(path.parent)


def replace_file(target: str | Path, data: bytes) -> None:
    """Put ``data`` at ``target`` whole or not at all: a temporary file beside it, synced, renamed over
    it, the directory synced. ``OSError`` when it cannot be done; the temporary file never stays."""
    directory = os.path.dirname(os.path.abspath(target))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    try:
        with open(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except OSError:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    sync_directory(directory)
