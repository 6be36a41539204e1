"""Updates against hostile bundles and a damaged release area (issue 13, items 13 to 15).

No code may run from a bundle's VERSION, no file outside SHA256SUMS may be
installed, and every malformed input is one line from the device tool (the
OnFailure unit runs it, so a traceback there is a console left broken).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_update_release import install, load_release_tool
from update_fakes import (
    REPOSITORY,
    FakeService,
    assert_console_healthy,
    current_version,
    make_bundle,
    run_release_tool,
    sha256,
    write_wheel,
)
from update_fakes import root, service  # noqa: F401 (fixtures, used by name)

UPDATE = REPOSITORY / "firmware" / "update.sh"
BUILD = REPOSITORY / "firmware" / "build-release.sh"


def write_sums(bundle: Path, names: list[str] | None = None) -> None:
    names = names if names is not None else sorted(
        str(p.relative_to(bundle)) for p in bundle.rglob("*") if p.is_file() and p.name != "SHA256SUMS")
    (bundle / "SHA256SUMS").write_text("".join(f"{sha256(bundle / name)}  {name}\n" for name in names))


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    (line,) = [line for line in result.stdout.splitlines() if "error:" in line]
    return line


# -- item 13: VERSION is never code ------------------------------------------------------------

def fake_ssh_tools(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An ``ssh`` that runs the remote command with sh locally, and an ``rsync`` that copies.

    The remote tool is a script that records its arguments one a line, so the
    test sees exactly the words the device's shell made of the command.
    """
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "remote.log"
    (bin_dir / "fake-ssh").write_text('#!/bin/sh\nshift\necho "$*" >> "$FAKE_LOG.ssh"\nexec sh -c "$*"\n')
    (bin_dir / "rsync").write_text('#!/bin/sh\necho rsync >> "$FAKE_LOG.ssh"\n')
    (bin_dir / "fake-tool").write_text(
        '#!/bin/sh\nfor word in "$@"; do printf "%s\\n" "$word"; done >> "$FAKE_LOG"\n'
        'if [ "$1" = prepare ]; then echo "/staging dir/$2"; fi\n')
    for script in bin_dir.iterdir():
        script.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_LOG": str(log),
           "PYRAMID_SSH": str(bin_dir / "fake-ssh"), "PYRAMID_REMOTE_TOOL": str(bin_dir / "fake-tool")}
    return env, log


@pytest.mark.parametrize("version", ["4.0$(touch {marker})", "4.0; touch {marker}", "4.0`touch {marker}`",
                                     "4.0\ntouch {marker}", "../4.0", "", "-rf"])
def test_a_version_that_is_not_a_plain_name_is_refused_before_the_device_is_asked(
        tmp_path: Path, version: str) -> None:
    marker = tmp_path / "INJECTED"
    bundle = make_bundle(tmp_path / "bundles", "4.0")
    (bundle / "VERSION").write_text(version.format(marker=marker) + "\n")
    env, log = fake_ssh_tools(tmp_path)
    result = subprocess.run(["sh", str(UPDATE), "--bundle", str(bundle), "pi@device"], env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "VERSION" in result.stderr
    assert not marker.exists()
    assert not Path(f"{log}.ssh").exists()  # the device was not even asked


def test_every_remote_argument_reaches_the_tool_as_one_word(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path / "bundles", "4.0+rc_1-2")
    env, log = fake_ssh_tools(tmp_path)
    result = subprocess.run(["sh", str(UPDATE), "--bundle", str(bundle), "pi@device"], env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert log.read_text().splitlines() == ["prepare", "4.0+rc_1-2", "install", "/staging dir/4.0+rc_1-2"]


# -- item 14: nothing but the listed files -------------------------------------------------------

def test_a_wheel_not_listed_in_the_sums_is_refused(tmp_path: Path, root: Path, service: FakeService) -> None:
    bundle = make_bundle(tmp_path / "bundles", "2.0")
    write_wheel(bundle / "wheels" / "pyramid_console-2.0-1-py3-none-any.whl", "2.0",
                "def main():\n    open('/tmp/unlisted-wheel-ran', 'w')\n")  # a higher build tag: pip's favourite
    line = one_error_line(run_release_tool(root, service, "install", str(bundle)))
    assert "'wheels/pyramid_console-2.0-1-py3-none-any.whl' is not listed in SHA256SUMS" in line
    assert current_version(root) is None and not (root / "opt" / "pyramid" / "releases" / "2.0").exists()


def test_pip_installs_exactly_the_listed_wheels_and_nothing_from_elsewhere(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    install(tmp_path, root, service, "2.0")
    assert assert_console_healthy(root, service) == "2.0"
    tool = load_release_tool()
    requirements = tmp_path / "requirements.txt"
    command = tool.pip_command(Path("/venv"), Path("/bundle"), {"wheels/b.whl": "b" * 64, "wheels/a.whl": "a" * 64},
                               requirements)
    assert command[-3:] == ["--require-hashes", "-r", str(requirements)]
    assert requirements.read_text().splitlines() == [f"/bundle/wheels/b.whl --hash=sha256:{'b' * 64}",
                                                     f"/bundle/wheels/a.whl --hash=sha256:{'a' * 64}"]
    assert "--no-index" in command and "--only-binary=:all:" in command
    assert "--find-links" not in command


@pytest.mark.parametrize("line", ["deadbeef", "0" * 64 + "  ../outside", "0" * 64 + "  /etc/passwd",
                                  "not-hex" + "0" * 57 + "  VERSION", "0" * 64 + "  wheels/missing.whl"])
def test_malformed_sums_lines_are_one_line_refusals(tmp_path: Path, root: Path, line: str) -> None:
    bundle = make_bundle(tmp_path / "bundles", "2.0")
    with open(bundle / "SHA256SUMS", "a") as sums:
        sums.write(line + "\n")
    assert "SHA256SUMS" in one_error_line(run_release_tool(root, None, "install", str(bundle)))


# -- item 15: a damaged release area --------------------------------------------------------------

@pytest.mark.parametrize("damage", ["directory", "latin-1", "missing"])
def test_a_version_file_that_cannot_be_read_is_one_line(tmp_path: Path, root: Path, damage: str) -> None:
    bundle = make_bundle(tmp_path / "bundles", "2.0")
    (bundle / "VERSION").unlink()
    if damage == "directory":
        (bundle / "VERSION").mkdir()
    elif damage == "latin-1":
        (bundle / "VERSION").write_bytes(b"2.0\xe9\n")
    write_sums(bundle)
    assert "VERSION" in one_error_line(run_release_tool(root, None, "install", str(bundle)))


def test_an_empty_marker_in_an_old_release_does_not_stop_status_or_rollback(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    for version in ("1.0", "2.0", "3.0"):
        install(tmp_path / version, root, service, version)
    (root / "opt" / "pyramid" / "releases" / "1.0" / ".installed").write_text("")
    result = run_release_tool(root, service, "status")
    assert result.returncode == 0 and result.stdout.split() == ["2.0", "*", "3.0"]
    assert run_release_tool(root, service, "rollback").returncode == 0
    assert assert_console_healthy(root, service) == "2.0"


def test_rollback_from_a_current_that_is_a_directory_leaves_a_complete_release_current(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    for version in ("1.0", "2.0"):
        install(tmp_path / version, root, service, version)
    current = root / "opt" / "pyramid" / "current"
    current.unlink()
    current.mkdir()
    assert "current" in one_error_line(run_release_tool(root, service, "status"))
    result = run_release_tool(root, service, "rollback")
    assert result.returncode == 0, result.stdout
    assert assert_console_healthy(root, service) == "2.0"


def test_rollback_from_a_current_whose_marker_is_damaged_goes_to_the_newest_complete_release(
        tmp_path: Path, root: Path, service: FakeService) -> None:
    for version in ("1.0", "2.0", "3.0"):
        install(tmp_path / version, root, service, version)
    (root / "opt" / "pyramid" / "releases" / "3.0" / ".installed").write_bytes(b"\xff")
    assert run_release_tool(root, service, "rollback").returncode == 0
    assert assert_console_healthy(root, service) == "2.0"


def test_a_file_among_the_releases_is_no_reason_to_fail(tmp_path: Path, root: Path, service: FakeService) -> None:
    (root / "opt" / "pyramid" / "releases").mkdir(parents=True)
    (root / "opt" / "pyramid" / "releases" / "stray").write_text("x")
    install(tmp_path, root, service, "1.0")
    assert assert_console_healthy(root, service) == "1.0"


# -- fuzz: the bundle check over malformed bundles ---------------------------------------------

TOOL = load_release_tool()
NAMES = st.sampled_from(["VERSION", "SHA256SUMS", "wheels/pyramid_console-2.0-py3-none-any.whl", "wheels/x.whl",
                         "../x", "wheels", "extra"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(version=st.binary(max_size=20), sums=st.binary(max_size=300),
       extra=st.lists(st.tuples(NAMES, st.binary(max_size=20)), max_size=4))
def test_verify_bundle_only_ever_accepts_or_says_why_in_one_line(
        tmp_path_factory: pytest.TempPathFactory, version: bytes, sums: bytes,
        extra: list[tuple[str, bytes]]) -> None:
    bundle = make_bundle(tmp_path_factory.mktemp("fuzz"), "2.0")
    (bundle / "VERSION").write_bytes(version)
    for name, data in extra:
        path = bundle / name
        if path.resolve().is_relative_to(bundle) and not path.is_dir():
            path.write_bytes(data)
    (bundle / "SHA256SUMS").write_bytes(sums)
    try:
        assert TOOL.verify_bundle(bundle).version == "2.0"
    except TOOL.ReleaseError as error:
        assert "\n" not in str(error)
    shutil.rmtree(bundle.parent)
