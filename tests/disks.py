"""Small disks of the tests' own: a tmpfs mounted for one test, and a way to fill it up.

Mounting needs root (as the appliance tests do); without it, or where the
sandbox forbids mounts, the test that asked is skipped with the reason.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path
from typing import Iterator

import pytest


@contextlib.contextmanager
def tmpfs(mount: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` ("64k") mounted at ``mount`` (made here) for the ``with`` block."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], check=False).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def fill(directory: Path) -> Path:
    """Write zeros into ``directory/filler`` until the disk is full; the filler, to free the room."""
    filler = directory / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(descriptor, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(descriptor)
    return filler
