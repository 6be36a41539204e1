"""Stand-ins for the update tests: tiny release bundles and a fake systemctl.

A fake release is a real wheel of ``pyramid-console`` whose ``pyramid`` command
is a few lines that behave as asked (pass or fail its self-test, start and send
``READY=1``, crash, hang...), so the device tool builds a real venv from it with
no network. The fake systemctl starts ``current/bin/pyramid`` the way systemd
would for a ``Type=notify`` unit: it listens on a ``NOTIFY_SOCKET`` and calls the
start good only when ``READY=1`` arrives.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pwd
import signal
import stat
import subprocess
import time
import zipfile
from pathlib import Path
from typing import Any, Iterator

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
RELEASE_TOOL = REPOSITORY / "firmware" / "opt" / "pyramid" / "bin" / "pyramid-release"
DEVICE_PYTHON = "/usr/bin/python3"
"""The device runs its tool with the system Python; venvs are built from it."""

BEHAVIOURS = ("good", "self-test-fails", "self-test-slow", "self-test-says-who", "crashes", "hangs",
              "dies-after-ready")
#: The behaviours of a release that works: an update to it lands.
WORKING = ("good", "self-test-slow")
#: The settle time pyramid-ready.service waits before it marks a release (15 s on a device).
READY_AFTER = 0.5
#: Whom the device tool runs a release's self-test as in the tests (on a device: the console's user,
#: ``pyramid``). Only root can switch users: as another user, the tool runs it as that user.
SELF_TEST_USER = "nobody"

FAKE_CONSOLE = '''\
"""A stand-in console: behaves as {behaviour!r}."""
import os, socket, sys, time

def main():
    args = sys.argv[1:]
    if "--version" in args:
        print({version!r})
        return 0
    if "--self-test" in args:
        if os.getuid() == 0:  # the device tool runs it as the console's user (issue 46)
            print("the self-test ran as root", file=sys.stderr)
            return 5
        if {behaviour!r} == "self-test-slow":
            time.sleep(1.0)
        if {behaviour!r} == "self-test-says-who":  # fails, so that the tool reports its last line
            print(f"uid {{os.getuid()}} gid {{os.getgid()}} groups {{sorted(os.getgroups())}} home {{os.environ['HOME']}}",
                  file=sys.stderr)
            return 1
        return 1 if {behaviour!r} == "self-test-fails" else 0
    if {behaviour!r} == "crashes":
        return 3
    if {behaviour!r} == "hangs":
        time.sleep(3600)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.sendto(b"READY=1", os.environ["NOTIFY_SOCKET"])
    if {behaviour!r} == "dies-after-ready":
        time.sleep(0.1)
        return 4
    time.sleep(3600)
'''

FAKE_SYSTEMCTL = '''\
"""Fake systemctl: fake-systemctl STATE_DIR DEVICE_ROOT VERB UNIT."""
import json, os, signal, socket, subprocess, sys, time
from pathlib import Path

state_dir, root, verb = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
state_file = state_dir / "service.json"
state = json.loads(state_file.read_text()) if state_file.exists() else {"pid": None, "version": None}
with open(state_dir / "calls.log", "a") as log:
    log.write(verb + "\\n")

READY_UNIT = """
import json, os, subprocess, sys, time
from pathlib import Path
console, state_dir = int(sys.argv[1]), Path(sys.argv[2])
unit = subprocess.Popen(json.loads((state_dir / "exec-start-post.json").read_text()),
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def alive(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
while unit.poll() is None and alive(console):
    time.sleep(0.02)
ended = "exited" if unit.poll() is not None else "stopped"
unit.kill()
with open(state_dir / "ready-unit.log", "a") as log:
    log.write(ended + "\\\\n")
"""

def alive(pid):
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] != "Z"

def save(pid, version):
    state_file.write_text(json.dumps({"pid": pid, "version": version}))

if verb == "is-active":
    active = alive(state["pid"])
    print("active" if active else "failed")
    sys.exit(0 if active else 3)
if verb == "reset-failed":
    sys.exit(0)
if verb != "restart":
    sys.exit(f"fake systemctl: unknown verb {verb}")
if alive(state["pid"]):
    os.killpg(state["pid"], signal.SIGKILL)
save(None, None)
current = root / "opt" / "pyramid" / "current"
notify = state_dir / "notify"
notify.unlink(missing_ok=True)
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(str(notify))
listener.settimeout(0.05)
console = subprocess.Popen([str(current / "bin" / "pyramid"), "--display", "auto"],
                           env={**os.environ, "NOTIFY_SOCKET": str(notify)}, start_new_session=True,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.monotonic() + float(os.environ.get("FAKE_START_TIMEOUT", "3"))
while time.monotonic() < deadline and console.poll() is None:
    try:
        if listener.recv(64) == b"READY=1":
            save(console.pid, os.readlink(current).split("/")[-1])
            # pyramid-ready.service, which the unit's Wants= starts once READY=1 came (its failure
            # never fails the console), on its own: restart does not wait for it. BindsTo=: should
            # the console stop first, the unit is stopped. Its end is written to ready-unit.log.
            subprocess.Popen([sys.executable, "-c", READY_UNIT, str(console.pid), str(state_dir)],
                             start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            sys.exit(0)
    except TimeoutError:
        pass
if console.poll() is None:
    os.killpg(console.pid, signal.SIGKILL)
sys.exit(1)
'''


def make_bundle(directory: Path, version: str, behaviour: str = "good", padding: int = 0) -> Path:
    """A release bundle as firmware/build-release.sh lays it out, holding one fake wheel."""
    if behaviour not in BEHAVIOURS:
        raise ValueError(f"unknown fake behaviour {behaviour!r}")
    bundle = directory / f"pyramid-{version}"
    (bundle / "wheels").mkdir(parents=True)
    (bundle / "VERSION").write_text(version + "\n")
    write_wheel(bundle / "wheels" / f"pyramid_console-{version}-py3-none-any.whl", version,
                FAKE_CONSOLE.format(behaviour=behaviour, version=version))
    if padding:
        (bundle / "padding.bin").write_bytes(os.urandom(padding))
    sums = [f"{sha256(path)}  {path.relative_to(bundle)}" for path in sorted(bundle.rglob("*")) if path.is_file()]
    (bundle / "SHA256SUMS").write_text("\n".join(sums) + "\n")
    return bundle


def write_wheel(path: Path, version: str, module: str) -> None:
    """The smallest wheel pip installs: one module and a ``pyramid`` console script."""
    info = f"pyramid_console-{version}.dist-info"
    files = {
        "fake_console.py": module,
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: pyramid-console\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": "[console_scripts]\npyramid = fake_console:main\n",
    }
    record = []
    with zipfile.ZipFile(path, "w") as wheel:
        for name, text in files.items():
            data = text.encode()
            wheel.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(data)}")
        record.append(f"{info}/RECORD,,")
        wheel.writestr(f"{info}/RECORD", "\n".join(record) + "\n")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class FakeService:
    """The fake systemctl's state for one device root: which release runs, what was called."""

    def __init__(self, state_dir: Path, root: Path) -> None:
        self.state_dir = state_dir
        self.root = root
        state_dir.mkdir(parents=True, exist_ok=True)
        self.script = state_dir / "fake-systemctl"
        self.script.write_text(FAKE_SYSTEMCTL)
        # What pyramid-ready.service runs (tests/test_systemd_units.py holds the unit to it).
        post = [DEVICE_PYTHON, str(RELEASE_TOOL), "--root", str(root), "mark-ready", "--after", str(READY_AFTER)]
        (state_dir / "exec-start-post.json").write_text(json.dumps(post))

    @property
    def command(self) -> str:
        """What the device tool's ``--systemctl`` option gets."""
        return f"{DEVICE_PYTHON} {self.script} {self.state_dir} {self.root}"

    def running_version(self) -> str | None:
        """The release whose console is alive, or None."""
        state_file = self.state_dir / "service.json"
        if not state_file.exists():
            return None
        state = json.loads(state_file.read_text())
        if state["pid"] is None or not process_alive(state["pid"]):
            return None
        return state["version"]

    def ready_unit_ends(self) -> list[str]:
        """How each run of the stand-in pyramid-ready.service ended: "exited", or "stopped" (the console
        stopped first)."""
        log = self.state_dir / "ready-unit.log"
        return log.read_text().split() if log.exists() else []

    def calls(self) -> list[str]:
        log = self.state_dir / "calls.log"
        return log.read_text().split() if log.exists() else []

    def stop(self) -> None:
        """Kill the fake console so no test leaves processes behind."""
        state_file = self.state_dir / "service.json"
        if state_file.exists():
            pid = json.loads(state_file.read_text())["pid"]
            if pid is not None and process_alive(pid):
                os.killpg(pid, signal.SIGKILL)


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def release_tool(root: Path, service: FakeService | None, *arguments: str, settle: float = 0.3) -> list[str]:
    """The command line that runs the device tool on a test device root."""
    options = ["--root", str(root), "--settle", str(settle), "--self-test-user", SELF_TEST_USER]
    options += ["--systemctl", service.command] if service else ["--no-restart"]
    return [DEVICE_PYTHON, str(RELEASE_TOOL), *options, *arguments]


def run_release_tool(root: Path, service: FakeService | None, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(release_tool(root, service, *arguments), capture_output=True, text=True, timeout=300,
                          check=False)


def current_version(root: Path) -> str | None:
    link = root / "opt" / "pyramid" / "current"
    return os.readlink(link).split("/")[-1] if link.is_symlink() else None


def assert_console_healthy(root: Path, service: FakeService) -> str:
    """The invariant of every update: ``current`` is a complete, self-testing release and it runs.

    Returns the current version.
    """
    version = current_version(root)
    assert version is not None, "no current release"
    release = root / "opt" / "pyramid" / "releases" / version
    assert (release / ".installed").is_file(), f"current points at unfinished release {version}"
    self_test = subprocess.run([str(release / "bin" / "pyramid"), "--self-test"], timeout=60, check=False,
                               **as_self_test_user())
    assert self_test.returncode == 0, f"current release {version} fails its self-test"
    assert service.running_version() == version, (
        f"the console runs {service.running_version()!r}, current is {version!r}")
    return version


def wait_until(condition, timeout: float = 30.0, interval: float = 0.05) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` passes (for synchronising, never asserted on time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


def as_self_test_user() -> dict[str, Any]:
    """``subprocess`` arguments that run a command as :data:`SELF_TEST_USER` with its own group and no
    other (when the tests run as root; else none)."""
    if os.geteuid() != 0:
        return {}
    entry = pwd.getpwnam(SELF_TEST_USER)
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def device_root(folder: Path) -> Path:
    """Where a fake device's file system starts, in ``folder``: a directory the console's user can reach,
    as it reaches / on a device (pytest's temporary folders are closed to other users; each folder
    above it is opened for passing through, not for listing). Two test sessions at once as root
    defeat this: each pytest start closes ``/tmp/pytest-of-root`` again (run them one at a time)."""
    for directory in (folder, *folder.parents):
        mode = directory.stat().st_mode
        if not mode & stat.S_IXOTH:
            directory.chmod(stat.S_IMODE(mode) | stat.S_IXOTH)
    return folder / "device"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """Where the fake device's file system starts."""
    return device_root(tmp_path)


@pytest.fixture
def service(tmp_path: Path, root: Path) -> Iterator[FakeService]:
    """The console's service on the fake device, stopped after the test."""
    fake = FakeService(tmp_path / "systemd", root)
    yield fake
    fake.stop()
