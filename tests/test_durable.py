"""pyramid.durable: files written whole or not at all, on a real file system (tmp_path)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pyramid.durable import make_directories, replace_file, write_new


def test_replace_file_puts_the_whole_data_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_bytes(b"old")
    replace_file(target, b"new data")
    assert target.read_bytes() == b"new data"
    assert sorted(os.listdir(tmp_path)) == ["state.json"]


def test_replace_file_that_cannot_rename_keeps_the_target_and_removes_its_temporary(tmp_path: Path) -> None:
    target = tmp_path / "a-directory"
    target.mkdir()
    (target / "inside").write_bytes(b"kept")
    with pytest.raises(OSError):
        replace_file(target, b"data")  # a file cannot be renamed over a directory
    assert (target / "inside").read_bytes() == b"kept"
    assert sorted(os.listdir(tmp_path)) == ["a-directory"]


def test_write_new_never_writes_over_a_file(tmp_path: Path) -> None:
    path = tmp_path / "aside.json"
    write_new(path, b"first")
    with pytest.raises(FileExistsError):
        write_new(path, b"second")
    assert path.read_bytes() == b"first" and (path.stat().st_mode & 0o777) == 0o600


def test_make_directories_makes_every_missing_parent_private(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b" / "c"
    make_directories(deep)
    assert deep.is_dir() and all((p.stat().st_mode & 0o777) == 0o700 for p in (deep, deep.parent, deep.parent.parent))
    make_directories(deep)  # already there: nothing to do
