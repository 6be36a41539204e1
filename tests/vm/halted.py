"""A halted guest's disks, read on the host: file systems checked, the store and the release looked at.

After a power-off (clean or a cut) nothing runs in the guest, so the raw disk
files are read directly: ``e2fsck -fn`` checks a file system without changing
it, ``debugfs`` copies files out of one without mounting it (no loop devices),
and the copied data store is checked with SQLite itself. A file system cut off
while it was written has a journal to replay, which the kernel does at the next
mount and debugfs does not: such a disk is read from a copy whose journal
``e2fsck -E journal_only`` has replayed, and checked again there (what the
kernel will mount). The disks themselves are never changed. On a sealed console
the releases and the store are on the data disk (/dev/vdb: ``/opt``,
``/state``); otherwise on the root disk (``/opt/pyramid``, ``/var/lib/pyramid``).
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from .machine import Boot


@dataclass(frozen=True)
class Place:
    """Where the releases and the player's store are: which disk, which directories in it."""

    disk: Path
    releases: str
    state: str


@dataclass(frozen=True)
class DiskReport:
    """What the host found on a halted guest's disks."""

    root_clean: bool  # nothing to replay, nothing to fix
    root_state: str  # "clean", "replayed, clean" (a journal to replay, nothing to fix after it) or "ERRORS"
    root_fsck: str
    data_fsck: str
    integrity: str  # PRAGMA integrity_check's answer ("ok"), or why the store could not be read
    progress: list[str]  # the games in progress, one line each, as the guest's query prints them
    current_release: str  # where /opt/pyramid/current points ("" if nowhere)
    current_complete: bool  # that release is marked complete (.installed)


def place(boot: Boot, sealed: bool) -> Place:
    if sealed:
        return Place(boot.disks[1], "/opt", "/state")
    return Place(boot.disks[0], "/opt/pyramid", "/var/lib/pyramid")


def fsck(disk: Path) -> subprocess.CompletedProcess[str]:
    """``e2fsck -fn``: a full check that answers no to every repair (the disk is not changed)."""
    return subprocess.run(["e2fsck", "-fn", str(disk)], capture_output=True, text=True, check=False)


def debugfs(disk: Path, request: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["debugfs", "-R", request, str(disk)], capture_output=True, check=False)


def link_target(disk: Path, path: str) -> str:
    found = re.search(r"Fast link dest: \"?([^\"\n]*)", debugfs(disk, f"stat {path}").stdout.decode(errors="replace"))
    return found.group(1) if found else ""


def exists(disk: Path, path: str) -> bool:
    return b"Inode:" in debugfs(disk, f"stat {path}").stdout


def read_store(where: Place, scratch: Path) -> tuple[str, list[str]]:
    """The store copied out (with its journal files, if any) and checked: integrity and games in progress."""
    for suffix in ("", "-wal", "-journal"):
        if exists(where.disk, f"{where.state}/pyramid.db{suffix}"):
            copied = debugfs(where.disk, f"cat {where.state}/pyramid.db{suffix}")
            (scratch / f"pyramid.db{suffix}").write_bytes(copied.stdout)
    if not (scratch / "pyramid.db").exists():
        return "no pyramid.db", []
    try:
        with sqlite3.connect(scratch / "pyramid.db") as db:
            integrity = "; ".join(row[0] for row in db.execute("PRAGMA integrity_check"))
            progress = [str(row) for row in db.execute("SELECT game, deal, started FROM progress ORDER BY game")]
    except sqlite3.DatabaseError as error:
        return f"unreadable: {error}", []
    return integrity, progress


def mountable(disk: Path, scratch: Path) -> tuple[Path, str, str]:
    """``disk`` as the kernel will mount it: itself when clean, else a copy with its journal replayed.

    Returns the file to read, its state and e2fsck's report.
    """
    first = fsck(disk)
    # e2fsck -n skips a journal it may not replay and may then find nothing wrong: ask the superblock.
    features = subprocess.run(["dumpe2fs", "-h", str(disk)], capture_output=True, text=True, check=False).stdout
    if first.returncode == 0 and "needs_recovery" not in features:
        return disk, "clean", first.stdout + first.stderr
    copy = scratch / f"replayed-{disk.name}"
    subprocess.run(["cp", "--sparse=always", str(disk), str(copy)], check=True)
    subprocess.run(["e2fsck", "-E", "journal_only", "-y", str(copy)], capture_output=True, check=False)
    second = fsck(copy)
    state = "replayed, clean" if second.returncode == 0 else "ERRORS"
    return copy, state, first.stdout + first.stderr + second.stdout + second.stderr


def inspect_disks(boot: Boot, workdir: Path, sealed: bool) -> DiskReport:
    """Check and read the raw disks of a halted guest (``boot.disks``: root first, then data)."""
    with tempfile.TemporaryDirectory(dir=workdir) as name:
        scratch = Path(name)
        root, root_state, root_report = mountable(boot.disks[0], scratch)
        data, _, data_report = mountable(boot.disks[1], scratch) if sealed else (root, root_state, root_report)
        where = place(replace(boot, disks=(root, data) if sealed else (root,)), sealed)
        store = scratch / "store"
        store.mkdir()
        integrity, progress = read_store(where, store)
        current = link_target(where.disk, f"{where.releases}/current")
        complete = bool(current) and exists(where.disk, f"{where.releases}/{current}/.installed")
    return DiskReport(root_state == "clean", root_state, root_report, data_report, integrity, progress, current,
                      complete)
