"""firmware/install.sh into a device root, run twice: the same result, no errors.

apt-get and useradd are skipped (PYRAMID_SKIP); everything else is real: the
release is built by the device tool from a tiny fake bundle, the units are
enabled with ``systemctl --root``, the boot files are edited in place.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from display.settings import DisplaySettings
from pyramid.app.settings_file import parse_settings
from update_fakes import REPOSITORY, SELF_TEST_USER, device_root, make_bundle

INSTALL = REPOSITORY / "firmware" / "install.sh"
SYSTEM_UNITS = Path("/usr/lib/systemd/system")

PI_CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait\n"
PI_CONFIG = """\
# For more options and information see
# http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
arm_64bit=1

[cm4]
otg_mode=1

[all]
"""

pytestmark = pytest.mark.skipif(shutil.which("systemctl") is None, reason="needs systemctl (installed by .ci/run)")


def fresh_pi(root: Path) -> None:
    """The parts of a fresh Raspberry Pi OS Lite that install.sh touches."""
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "cmdline.txt").write_text(PI_CMDLINE)
    (root / "boot" / "firmware" / "config.txt").write_text(PI_CONFIG)
    shutil.copytree(SYSTEM_UNITS, root / SYSTEM_UNITS.relative_to("/"), symlinks=True)
    wants = root / "etc" / "systemd" / "system" / "getty.target.wants"
    wants.mkdir(parents=True)
    (wants / "getty@tty1.service").symlink_to("/lib/systemd/system/getty@.service")


def run_install(root: Path, bundle: Path, extra: dict[str, str] | None = None,
                arguments: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYRAMID_ROOT": str(root), "PYRAMID_SKIP": "packages accounts",
           "PYRAMID_BUNDLE": str(bundle), "PYRAMID_SELF_TEST_USER": SELF_TEST_USER, **(extra or {})}
    return subprocess.run(["sh", str(INSTALL), *arguments], env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def snapshot(root: Path) -> dict[str, tuple[str, ...]]:
    """Every path under root: kind, mode and content (hash) or link target."""
    entries: dict[str, tuple[str, ...]] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            entries[name] = ("link", os.readlink(path))
        elif path.is_dir():
            entries[name] = ("dir", oct(path.stat().st_mode))
        else:
            entries[name] = ("file", oct(path.stat().st_mode), hashlib.sha256(path.read_bytes()).hexdigest())
    return entries


def test_install_twice_gives_the_same_console(tmp_path: Path) -> None:
    root = device_root(tmp_path)
    fresh_pi(root)
    bundle = make_bundle(tmp_path, "1.0")

    first = run_install(root, bundle)
    assert first.returncode == 0, first.stdout + first.stderr
    after_first = snapshot(root)
    second = run_install(root, bundle)
    assert second.returncode == 0, second.stdout + second.stderr
    assert second.stderr == ""
    assert "1.0 is the current release" in second.stdout
    assert snapshot(root) == after_first

    opt = root / "opt" / "pyramid"
    assert os.readlink(opt / "current") == "releases/1.0"
    assert (opt / "releases" / "1.0" / ".installed").is_file()
    assert os.access(opt / "bin" / "pyramid-release", os.X_OK)
    system = root / "etc" / "systemd" / "system"
    for unit in ("pyramid.service", "pyramid-rollback.service", "pyramid-table-server.service",
                 "pyramid-table-server.timer"):
        assert (system / unit).read_text() == (REPOSITORY / "systemd" / unit).read_text()
    for unit in ("pyramid.service", "pyramid-table-server.service"):
        assert os.readlink(system / "multi-user.target.wants" / unit) == f"/etc/systemd/system/{unit}"
    timer = "pyramid-table-server.timer"
    assert os.readlink(system / "timers.target.wants" / timer) == f"/etc/systemd/system/{timer}"
    assert not (system / "getty.target.wants" / "getty@tty1.service").exists()
    rule = root / "etc" / "polkit-1" / "rules.d" / "50-pyramid-power-off.rules"
    cec = root / "etc" / "modules-load.d" / "pyramid-cec.conf"  # issue 49: the CEC core before the console
    for installed in (rule, cec):
        assert installed.read_text() == (REPOSITORY / "firmware" / installed.relative_to(root)).read_text()
        assert oct(installed.stat().st_mode & 0o777) == "0o644"


def test_boot_configuration_is_added_once_and_keeps_the_owners_lines(tmp_path: Path) -> None:
    root = device_root(tmp_path)
    fresh_pi(root)
    boot = root / "boot" / "firmware"
    (boot / "pyramid.toml").write_text('[display]\nrotation = 180\n')
    bundle = make_bundle(tmp_path, "1.0")
    for _ in range(2):
        assert run_install(root, bundle).returncode == 0

    config = (boot / "config.txt").read_text()
    assert config.startswith(PI_CONFIG)
    assert config.count("# >>> pyramid console") == 1
    assert config.count("disable_splash=1") == 1
    cmdline = (boot / "cmdline.txt").read_text()
    assert cmdline.count("\n") == 1  # the kernel command line is one line
    options = cmdline.split()
    assert options[:6] == PI_CMDLINE.split()
    for option in ("quiet", "loglevel=3", "logo.nologo", "vt.global_cursor_default=0", "consoleblank=0"):
        assert options.count(option) == 1
    assert (boot / "pyramid.toml").read_text() == '[display]\nrotation = 180\n'


def test_settings_example_is_installed_on_a_fresh_card(tmp_path: Path) -> None:
    root = device_root(tmp_path)
    fresh_pi(root)
    assert run_install(root, make_bundle(tmp_path, "1.0")).returncode == 0
    example = (root / "boot" / "firmware" / "pyramid.toml").read_text()
    assert example == (REPOSITORY / "firmware" / "boot" / "firmware" / "pyramid.toml").read_text()
    for key in ("display = \"auto\"", "rotation = 0", "safe_area = 5"):
        assert f"#{key}" in example
    uncommented = parse_settings(example.replace("\n#display", "\ndisplay").replace("\n#rotation", "\nrotation")
                                 .replace("\n#safe_area", "\nsafe_area"))
    assert uncommented.problems == ()
    assert uncommented.display == DisplaySettings(display="auto", rotation=0, safe_area=5)


def test_the_owners_signing_key_is_installed_once(tmp_path: Path) -> None:
    root = device_root(tmp_path)
    fresh_pi(root)
    key = tmp_path / "owner"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "owner@laptop", "-f", str(key)], check=True)
    env = {"PYRAMID_SIGNERS": f"{key}.pub"}
    first = run_install(root, make_bundle(tmp_path, "1.0"), env)
    assert first.returncode == 0, first.stdout + first.stderr
    signers = root / "etc" / "pyramid" / "allowed_signers"
    kind, body, _comment = Path(f"{key}.pub").read_text().split()
    assert signers.read_text() == f'pyramid-release namespaces="pyramid-release" {kind} {body}\n'
    before = snapshot(root)
    assert run_install(root, make_bundle(tmp_path / "again", "1.0"), env).returncode == 0
    assert snapshot(root) == before
    empty = tmp_path / "empty.pub"
    empty.write_text("# no key yet\n")
    refused = run_install(root, make_bundle(tmp_path / "third", "1.0"), {"PYRAMID_SIGNERS": str(empty)})
    assert refused.returncode == 2 and "holds no public key" in refused.stderr


def test_a_private_key_given_as_the_signers_is_refused_and_written_nowhere(tmp_path: Path) -> None:
    """Issue 26, item 12: ~/.ssh/id_ed25519 for id_ed25519.pub was written, mode 0644, into
    /etc/pyramid/allowed_signers, and every later bundle was refused with "invalid key"."""
    root = device_root(tmp_path)
    fresh_pi(root)
    key = tmp_path / "owner"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "owner@laptop", "-f", str(key)], check=True)
    mixed = tmp_path / "mixed"
    mixed.write_text(Path(f"{key}.pub").read_text() + "# the laptop's key\nssh-ed25519 not-base64!\n")
    for signers, line in ((key, 1), (mixed, 3)):
        refused = run_install(root, make_bundle(tmp_path / f"bundle-{line}", "1.0"), {"PYRAMID_SIGNERS": str(signers)})
        assert refused.returncode == 2
        assert refused.stderr.strip().splitlines() == [
            f"install.sh: {signers} must hold SSH public keys only (such as ~/.ssh/id_ed25519.pub); line {line} is not one"]
        assert not (root / "etc" / "pyramid" / "allowed_signers").exists()
        assert "PRIVATE KEY" not in "".join(path.read_text(errors="replace") for path in root.rglob("*") if path.is_file()
                                              and path.stat().st_size < 1 << 20)


SEALED = {"PYRAMID_SKIP": "packages accounts data-mount"}  # ROOT/data stands for the data partition


@pytest.mark.skipif(os.geteuid() != 0, reason="binds the data partition's directories in a mount namespace: run as root")
def test_sealed_install_puts_releases_and_data_on_the_data_partition(tmp_path: Path) -> None:
    root = device_root(tmp_path)
    fresh_pi(root)
    boot = root / "boot" / "firmware"
    (boot / "cmdline.txt").write_text(PI_CMDLINE.replace("rootwait", "rootwait rw"))
    state = root / "var" / "lib" / "pyramid"
    state.mkdir(parents=True)
    (state / "pyramid.db").write_bytes(b"the player's games")
    bundle = make_bundle(tmp_path, "1.0")
    assert run_install(root, bundle).returncode == 0  # installed unsealed first, played on, then sealed

    sealed = run_install(root, bundle, SEALED, ("--sealed",))
    assert sealed.returncode == 0, sealed.stdout + sealed.stderr
    data = root / "data"
    assert os.readlink(data / "opt" / "current") == "releases/1.0"
    assert (data / "opt" / "releases" / "1.0" / ".installed").is_file()
    assert (data / "state" / "pyramid.db").read_bytes() == b"the player's games"
    assert list((root / "opt" / "pyramid").iterdir()) == [] and list(state.iterdir()) == []  # mount points now
    fstab = (root / "etc" / "fstab").read_text()
    assert "LABEL=pyramid-data  /data" in fstab
    assert "/data/opt           /opt/pyramid      none  bind" in fstab
    assert "/data/state         /var/lib/pyramid  none  bind" in fstab
    journald = (root / "etc" / "systemd" / "journald.conf.d" / "pyramid-sealed.conf").read_text()
    assert "Storage=volatile" in journald
    assert os.access(root / "usr" / "lib" / "pyramid" / "sealed-init", os.X_OK)
    options = (boot / "cmdline.txt").read_text().split()
    assert "init=/usr/lib/pyramid/sealed-init" in options and "rw" not in options
    assert options[:6] == PI_CMDLINE.split()

    # Run again as on the sealed device, where fstab binds the data partition's directories.
    before = snapshot(root)
    binds = (f'mount --make-rprivate / && mount --bind "{data}/opt" "{root}/opt/pyramid" && '
             f'mount --bind "{data}/state" "{state}" && exec sh "{INSTALL}" --sealed')
    env = {**os.environ, "PYRAMID_ROOT": str(root), "PYRAMID_BUNDLE": str(bundle),
           "PYRAMID_SELF_TEST_USER": SELF_TEST_USER, **SEALED}
    again = subprocess.run(["unshare", "--mount", "sh", "-c", binds], env=env, capture_output=True, text=True,
                           timeout=300, check=False)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "is the current release" in again.stdout and again.stderr == ""
    assert snapshot(root) == before


def test_sealing_without_a_data_partition_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    root = device_root(tmp_path)
    fresh_pi(root)
    bundle = make_bundle(tmp_path, "1.0")
    assert run_install(root, bundle).returncode == 0
    before = snapshot(root)
    refused = run_install(root, bundle, None, ("--sealed",))
    assert refused.returncode == 2
    assert "needs a partition labelled pyramid-data" in refused.stderr
    assert snapshot(root) == before


def test_an_unknown_argument_is_refused_by_name(tmp_path: Path) -> None:
    root = device_root(tmp_path)
    fresh_pi(root)
    refused = run_install(root, make_bundle(tmp_path, "1.0"), None, ("--seal",))
    assert refused.returncode == 2
    assert "unknown argument '--seal'" in refused.stderr
    assert not (root / "opt").exists()
