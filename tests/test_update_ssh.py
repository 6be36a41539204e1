"""Updates over SSH: firmware/update.sh against a real sshd on 127.0.0.1.

The test starts its own sshd (throwaway host and user keys, a free port) and
deploys into a temporary device root; a fake systemctl stands in for the service
manager. After every update, killed or not, the console must be healthy: a
complete release is current and it is the one running.

Needs root (sshd's privilege separation), /usr/sbin/sshd, ssh and rsync, as
.ci/run provides. PYRAMID_SLOW=1 runs 50 fault-injected updates instead of 4.
"""

from __future__ import annotations

import itertools
import os
import random
import shlex
import shutil
import signal
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ports import free_port
from update_fakes import (
    BEHAVIOURS,
    WORKING,
    DEVICE_PYTHON,
    RELEASE_TOOL,
    REPOSITORY,
    SELF_TEST_USER,
    FakeService,
    assert_console_healthy,
    current_version,
    device_root,
    make_bundle,
    run_release_tool,
    wait_until,
)

UPDATE = REPOSITORY / "firmware" / "update.sh"
SSHD = "/usr/sbin/sshd"
SETTLE = 1.0

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists(SSHD) or not shutil.which("ssh") or not shutil.which("rsync"),
    reason="needs root, /usr/sbin/sshd, ssh and rsync (installed by .ci/run)",
)


@dataclass
class Sshd:
    process: subprocess.Popen[bytes]
    client_config: Path

    def wait_idle(self) -> None:
        """Wait until no SSH session is left: every remote command has finished."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        assert wait_until(lambda: children.read_text().strip() == "", timeout=120), "an SSH session never ended"


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sshd]:
    home = tmp_path_factory.mktemp("sshd")
    for key in ("host_key", "user_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(home / key)], check=True)
    shutil.copy(home / "user_key.pub", home / "authorized_keys")
    port = free_port()
    (home / "sshd_config").write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {home / 'host_key'}\nPidFile {home / 'sshd.pid'}\n"
        f"AuthorizedKeysFile {home / 'authorized_keys'}\nPermitRootLogin prohibit-password\nStrictModes no\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\nLogLevel ERROR\n"
        f"UsePAM {'yes' if root_is_locked() else 'no'}\n")
    host_key = (home / "host_key.pub").read_text().split()
    (home / "known_hosts").write_text(f"[127.0.0.1]:{port} {host_key[0]} {host_key[1]}\n")
    client_config = home / "ssh_config"
    client_config.write_text(
        f"Host device\n  HostName 127.0.0.1\n  Port {port}\n  User root\n  IdentityFile {home / 'user_key'}\n"
        f"  IdentitiesOnly yes\n  UserKnownHostsFile {home / 'known_hosts'}\n  StrictHostKeyChecking yes\n"
        "  BatchMode yes\n  LogLevel ERROR\n")
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(home / "sshd_config")])
    server = Sshd(process, client_config)
    try:
        # sshd writes its pid file once it listens.
        assert wait_until((home / "sshd.pid").exists, timeout=30), "sshd did not start"
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)


def root_is_locked() -> bool:
    """Without PAM, sshd refuses even a key for an account whose password starts with '!'."""
    for line in Path("/etc/shadow").read_text().splitlines():
        name, password = line.split(":")[:2]
        if name == "root":
            return password.startswith("!")
    return False


@dataclass
class Device:
    root: Path
    service: FakeService
    bundles: Path
    sshd: Sshd

    def update_command(self, *arguments: str) -> tuple[list[str], dict[str, str]]:
        tool = [DEVICE_PYTHON, str(RELEASE_TOOL), "--root", str(self.root), "--settle", str(SETTLE),
                "--systemctl", self.service.command, "--self-test-user", SELF_TEST_USER]
        env = {**os.environ, "PYRAMID_SSH": f"ssh -F {self.sshd.client_config}",
               "PYRAMID_REMOTE_TOOL": shlex.join(tool)}
        return ["sh", str(UPDATE), *arguments, "device"], env

    def update(self, *arguments: str) -> subprocess.CompletedProcess[str]:
        command, env = self.update_command(*arguments)
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)
        self.wait_for_device()
        return result

    def wait_for_device(self) -> None:
        """Wait until the device has finished: no SSH session, no device tool still working.

        The tool outlives a killed update on purpose (it ignores the hang-up and
        finishes or rolls back), and then it is no longer sshd's child.
        """
        self.sshd.wait_idle()
        assert wait_until(lambda: not self.tool_running(), timeout=300), "the device tool never finished"

    def tool_running(self) -> bool:
        marks = (str(RELEASE_TOOL).encode(), str(self.root).encode())
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                arguments = cmdline.read_bytes()
            except OSError:
                continue
            if all(mark in arguments for mark in marks):
                return True
        return False

    def start_update(self, *arguments: str, rsync_options: str = "") -> subprocess.Popen[bytes]:
        """An update in its own process group, so the test can kill it with its ssh and rsync."""
        command, env = self.update_command(*arguments)
        env["PYRAMID_RSYNC_OPTIONS"] = rsync_options
        return subprocess.Popen(command, env=env, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def kill(self, update: subprocess.Popen[bytes]) -> None:
        """What the owner's Ctrl-C, a closed laptop or a lost Wi-Fi does to an update."""
        try:
            os.killpg(update.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        update.wait(timeout=30)
        self.wait_for_device()

    def bundle(self, version: str, behaviour: str = "good", padding: int = 0) -> Path:
        return make_bundle(self.bundles, version, behaviour, padding)

    def staging(self, version: str) -> Path:
        return self.root / "opt" / "pyramid" / "incoming" / version

    def releases(self) -> set[str]:
        return {path.name for path in (self.root / "opt" / "pyramid" / "releases").iterdir()}


@pytest.fixture
def device(tmp_path: Path, sshd: Sshd) -> Iterator[Device]:
    """A device running release 1.0, with some player data."""
    root = device_root(tmp_path)
    service = FakeService(tmp_path / "systemd", root)
    result = run_release_tool(root, service, "install", str(make_bundle(tmp_path / "bundles", "1.0")))
    assert result.returncode == 0, result.stdout + result.stderr
    state = root / "var" / "lib" / "pyramid"
    state.mkdir(parents=True)
    (state / "pyramid.sqlite").write_bytes(b"player data")
    yield Device(root, service, tmp_path / "bundles", sshd)
    service.stop()


def test_good_update_lands_and_rollback_goes_back(device: Device) -> None:
    result = device.update("--bundle", str(device.bundle("2.0")))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "100%" in result.stdout  # rsync's progress display
    assert "2.0 is running" in result.stdout
    assert assert_console_healthy(device.root, device.service) == "2.0"
    assert not device.staging("2.0").exists()
    assert (device.root / "var" / "lib" / "pyramid" / "pyramid.sqlite").read_bytes() == b"player data"

    back = device.update("--rollback")
    assert back.returncode == 0, back.stdout + back.stderr
    assert assert_console_healthy(device.root, device.service) == "1.0"
    assert device.releases() == {"1.0", "2.0"}


def test_release_failing_its_self_test_is_never_switched_to(device: Device) -> None:
    restarts = device.service.calls().count("restart")
    result = device.update("--bundle", str(device.bundle("2.0", "self-test-fails")))
    assert result.returncode != 0
    assert "self-test of 2.0 failed" in result.stdout
    assert device.service.calls().count("restart") == restarts
    assert assert_console_healthy(device.root, device.service) == "1.0"
    assert device.releases() == {"1.0"}


def test_transfer_killed_half_way_leaves_the_old_release_running(device: Device) -> None:
    restarts = device.service.calls().count("restart")
    bundle = device.bundle("2.0", padding=4_000_000)
    update = device.start_update("--bundle", str(bundle), rsync_options="--bwlimit=1000")
    staging = device.staging("2.0")

    def padding_arriving() -> bool:
        return any(path.name.startswith(".padding.bin") and path.stat().st_size > 0
                   for path in staging.glob(".*") if path.is_file())

    assert wait_until(padding_arriving, timeout=60), "the copy never started"
    device.kill(update)
    assert current_version(device.root) == "1.0"
    assert assert_console_healthy(device.root, device.service) == "1.0"
    assert device.service.calls().count("restart") == restarts
    assert device.releases() == {"1.0"}

    resumed = device.update("--bundle", str(bundle))
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert assert_console_healthy(device.root, device.service) == "2.0"


def test_release_that_never_becomes_ready_is_rolled_back(device: Device) -> None:
    result = device.update("--bundle", str(device.bundle("2.0", "hangs")))
    assert result.returncode != 0
    assert "2.0 did not become ready; switched back to 1.0" in result.stdout
    assert assert_console_healthy(device.root, device.service) == "1.0"
    assert device.releases() == {"1.0"}


FAULT_RUNS = 50 if os.environ.get("PYRAMID_SLOW") == "1" else 4


def test_fault_injected_updates_never_break_the_console(device: Device) -> None:
    """Releases good or broken in every way, updates killed during the copy or at any moment."""
    seed = int(os.environ.get("PYRAMID_FAULT_SEED", random.randrange(1 << 30)))
    chance = random.Random(seed)
    outcomes: Counter[str] = Counter()
    broken: list[str] = []
    kinds = list(itertools.product(BEHAVIOURS, ["none", "during-copy", "any-moment"]))
    chance.shuffle(kinds)  # every kind of fault before any repeats; the timings vary
    for run in range(FAULT_RUNS):
        version = f"3.{run}"
        behaviour, interruption = kinds[run % len(kinds)]
        padding = 1_000_000 if interruption == "during-copy" else 0
        update = device.start_update("--bundle", str(device.bundle(version, behaviour, padding)),
                                     rsync_options="--bwlimit=2000" if padding else "")
        if interruption == "none":
            update.wait(timeout=300)
            device.wait_for_device()
        else:
            delay = chance.uniform(0.2, 1.0) if padding else chance.uniform(0.0, 6.0)
            try:
                update.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                pass
            device.kill(update)
        landed = current_version(device.root) == version
        outcomes[f"{behaviour}/{interruption}/{'landed' if landed else 'kept old'}"] += 1
        try:
            assert_console_healthy(device.root, device.service)
            assert landed or interruption != "none" or behaviour not in WORKING, "a good update did not land"
            assert not landed or behaviour in WORKING, f"a {behaviour} release became current"
        except AssertionError as error:
            broken.append(f"run {run} ({behaviour}, {interruption}): {error}")
    print(f"\nfault injection: seed {seed}, {FAULT_RUNS} runs, {len(broken)} broken consoles")
    for outcome, count in sorted(outcomes.items()):
        print(f"  {count:3d}  {outcome}")
    assert broken == [], f"seed {seed}: " + "; ".join(broken)
