"""The console installed the way an owner installs it, in an image the emulator boots.

``prepare`` takes the cached base system (rootfs.py), copies the project into
the owner's home as ``git clone`` would, gives it a stand-in for a Pi's boot
partition (/boot/firmware with cmdline.txt and config.txt, which install.sh
edits and the machine boots with), and runs ``sudo firmware/install.sh`` (with
``--sealed`` for a sealed console) in a chroot of it: the packages come from Debian through the host's network
(the restricted guest reaches nothing), the release bundle is built on the host
by firmware/build-release.sh, as update.sh builds one, and handed over with
``PYRAMID_BUNDLE`` (pip inside the chroot would not trust a host that reaches
PyPI through its own certificate authority). Then the owner's account gets a
throwaway SSH key and the tree becomes a disk image; a sealed console's
/data (its data partition, a plain directory in the chroot) becomes a second
image labelled pyramid-data.

``project_copy`` makes the releases an update brings: the project with another
version number, or one whose self-test fails, in a temporary directory (the
repository is never touched).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .machine import Boot
from .rootfs import (
    DATA_IMAGE_SIZE,
    GUEST_USER,
    Guest,
    base_rootfs,
    cache_directory,
    copy_rootfs,
    kernel_and_initrd,
    make_image,
    run_in_chroot,
)

PROJECT = Path(__file__).resolve().parents[2]
GUEST_PROJECT = Path("home") / GUEST_USER / "pyramid"


@dataclass(frozen=True)
class PreparedImage:
    """Disk images with the console installed, what to boot them with, and the key to log in."""

    boot: Boot
    key: Path
    install_log: str
    timings: dict[str, float]


def project_copy(target: Path, version: str | None = None, broken: bool = False) -> Path:
    """The project's files as they are in the work tree (tracked, and new ones git does not ignore).

    ``version`` replaces the version in the copy's pyproject.toml; ``broken``
    makes the copy's self-test fail, the way a release with a bad import would.
    """
    listed = subprocess.run(["git", "-C", str(PROJECT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"], capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = PROJECT / name
        if source.is_file():
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
    if version is not None:
        pyproject = target / "pyproject.toml"
        text, count = re.subn(r'(?m)^version = "[^"]*"$', f'version = "{version}"', pyproject.read_text())
        if count != 1:
            raise ValueError(f"no version line in {pyproject}")
        pyproject.write_text(text)
    if broken:
        with open(target / "display" / "__init__.py", "a") as module:
            module.write('\nraise ImportError("a deliberately broken release (tests/vm)")\n')
    return target


def prepare(workdir: Path, guest: Guest, sealed: bool = False) -> PreparedImage:
    """Build (or reuse) the base system, install the console into a copy, make the images."""
    timings: dict[str, float] = {}
    started = time.monotonic()
    base = base_rootfs(cache_directory(), guest)
    timings["base system (0 when cached)"] = time.monotonic() - started

    started = time.monotonic()
    rootfs = workdir / "rootfs"
    rootfs.mkdir()
    copy_rootfs(base, rootfs)
    boot = rootfs / "boot" / "firmware"
    boot.mkdir(parents=True)
    (boot / "cmdline.txt").write_text(f"root=/dev/vda rw console={guest.architecture.serial_console}\n")
    (boot / "config.txt").write_text("")
    project = project_copy(rootfs / GUEST_PROJECT)
    bundle = build_bundle(project, rootfs / "root", guest)
    environment = {"PYRAMID_BUNDLE": f"/{bundle.relative_to(rootfs)}", "SYSTEMD_OFFLINE": "1"}
    if sealed:
        environment["PYRAMID_SKIP"] = "data-mount"
    installed = run_in_chroot(rootfs, ["sh", f"/{GUEST_PROJECT}/firmware/install.sh", *(["--sealed"] if sealed else [])],
                              environment)
    shutil.rmtree(bundle)
    install_log = installed.stdout + installed.stderr
    if installed.returncode != 0:
        tail = "\n".join(install_log.splitlines()[-15:])
        raise RuntimeError(f"install.sh failed in the chroot ({installed.returncode}):\n{tail}")
    timings["install.sh in the chroot"] = time.monotonic() - started

    key = workdir / "owner_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "pyramid-vm-test", "-f", str(key)],
                   check=True)
    authorize(rootfs, key.with_suffix(".pub").read_text())

    started = time.monotonic()
    disks = [workdir / "root.img"]
    if sealed:
        disks.append(workdir / "data.img")
        make_image(rootfs / "data", disks[1], label="pyramid-data", size=DATA_IMAGE_SIZE)
        shutil.rmtree(rootfs / "data")
        (rootfs / "data").mkdir()
    make_image(rootfs, disks[0])
    kernel, initrd = kernel_and_initrd(rootfs)
    shutil.copy2(kernel, workdir / "vmlinuz")
    shutil.copy2(initrd, workdir / "initrd.img")
    cmdline = (boot / "cmdline.txt").read_text().strip()
    shutil.rmtree(rootfs)
    timings["mkfs.ext4 -d"] = time.monotonic() - started
    return PreparedImage(Boot(guest.architecture, workdir / "vmlinuz", workdir / "initrd.img", cmdline, tuple(disks)),
                         key, install_log, timings)


def build_bundle(project: Path, out: Path, guest: Guest) -> Path:
    """A release bundle of ``project`` for the guest (its platform and Python), built on the host."""
    built = subprocess.run([str(project / "firmware" / "build-release.sh"), "--arch", guest.architecture.wheel,
                            "--python-version", guest.suite.python, str(out)],
                           env={**os.environ, "PYTHON": sys.executable}, capture_output=True, text=True, check=False)
    if built.returncode != 0:
        raise RuntimeError(f"build-release.sh failed ({built.returncode}):\n{built.stderr}")
    return Path(built.stdout.strip().splitlines()[-1])


def authorize(rootfs: Path, public_key: str) -> None:
    """Let the throwaway key log in as the owner (what Raspberry Pi Imager's SSH setting does)."""
    passwd = (rootfs / "etc" / "passwd").read_text()
    uid, gid = next(line.split(":")[2:4] for line in passwd.splitlines() if line.startswith(f"{GUEST_USER}:"))
    ssh_directory = rootfs / "home" / GUEST_USER / ".ssh"
    ssh_directory.mkdir(mode=0o700, exist_ok=True)
    keys = ssh_directory / "authorized_keys"
    keys.write_text(public_key)
    keys.chmod(0o600)
    for path in (ssh_directory, keys):
        shutil.chown(path, int(uid), int(gid))
