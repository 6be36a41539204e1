"""What is installed is what was checked (issue 46, part 3).

``incoming/<version>`` belongs to the SSH user who copies a bundle in. The device tool used to check
the bundle there and let pip read the wheels there again: an unsigned wheel renamed over the checked
one 0.1 s after the check was installed, and its code ran as root in the self-test. Now the tool
copies the bundle into a directory only root may enter, checks the copy and installs from it, each
wheel pinned to its digest in the signed SHA256SUMS (pip's hash-checking mode).

The tool runs in this process here, its check wrapped to act at the moment the attack did.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from test_update_release import load_release_tool
from update_fakes import DEVICE_PYTHON, FAKE_CONSOLE, SELF_TEST_USER, device_root, make_bundle, write_wheel


def evil_wheel(path: Path, version: str) -> None:
    """An unsigned wheel of the same name whose console says who it is."""
    write_wheel(path, version, FAKE_CONSOLE.format(behaviour="good", version="evil"))


def installed_console(root: Path, version: str) -> str:
    (module,) = (root / "opt" / "pyramid" / "releases" / version).glob("lib/python*/site-packages/fake_console.py")
    return module.read_text()


def tool_on_a_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, Path, Any]:
    """The device tool loaded in this process, a device root, and its ``Device``. Release venvs are made
    from the Python running the tool: the device's own, not the tests' (out of the self-test user's reach)."""
    monkeypatch.setattr(sys, "executable", DEVICE_PYTHON)
    tool = load_release_tool()
    root = device_root(tmp_path)
    return tool, root, tool.Device(root, SELF_TEST_USER)


def checked_then(tool: ModuleType, act: Any) -> Any:
    """The tool's check, followed at once by ``act(the bundle it checked)``."""
    check = tool.verify_bundle

    def verify(bundle: Path, allowed_signers: Path | None = None) -> Any:
        verified = check(bundle, allowed_signers)
        act(bundle)
        return verified

    return verify


def test_a_wheel_swapped_in_incoming_after_the_check_is_not_what_is_installed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool, root, device = tool_on_a_device(tmp_path, monkeypatch)
    incoming = tool.prepare(device, "2.0")
    shutil.copytree(make_bundle(tmp_path / "bundles", "2.0"), incoming, dirs_exist_ok=True)
    wheel = incoming / "wheels" / "pyramid_console-2.0-py3-none-any.whl"
    monkeypatch.setattr(tool, "verify_bundle", checked_then(tool, lambda checked: evil_wheel(wheel, "2.0")))
    tool.install(device, None, incoming)
    assert "'evil'" not in installed_console(root, "2.0") and "'2.0'" in installed_console(root, "2.0")
    assert device.current_version() == "2.0"
    assert not device.verified.exists(), "the private copy is gone once used"


def test_a_wheel_changed_in_the_checked_copy_is_refused_by_its_digest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Should anything reach root's copy between the check and pip, pip's own hash check refuses it."""
    tool, root, device = tool_on_a_device(tmp_path, monkeypatch)
    bundle = make_bundle(tmp_path / "bundles", "2.0")
    swap = checked_then(tool, lambda checked: evil_wheel(checked / "wheels" / "pyramid_console-2.0-py3-none-any.whl",
                                                         "2.0"))
    monkeypatch.setattr(tool, "verify_bundle", swap)
    with pytest.raises(tool.ReleaseError, match="release 2.0 was not installed"):
        tool.install(device, None, bundle)
    assert device.current_version() is None and not (root / "opt" / "pyramid" / "releases" / "2.0").exists()


def test_the_private_copy_takes_regular_files_only_and_only_root_enters_it(tmp_path: Path) -> None:
    tool = load_release_tool()
    bundle = make_bundle(tmp_path / "bundles", "2.0")
    (bundle / "wheels" / "link.whl").symlink_to("/etc/passwd")
    copy = tool.private_copy(bundle, tmp_path / "verified")
    assert sorted(path.name for path in copy.rglob("*") if path.is_file()) == \
        ["SHA256SUMS", "VERSION", "pyramid_console-2.0-py3-none-any.whl"]
    assert not (copy / "wheels" / "link.whl").exists()
    assert (tmp_path / "verified").stat().st_mode & 0o777 == 0o700
    assert tool.verify_bundle(copy).version == "2.0"
