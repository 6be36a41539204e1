"""The guest system: a Debian bookworm amd64 root file system, cached, and its disk image.

Debian bookworm stands in for Raspberry Pi OS Lite (Bookworm): the same systemd
252 and Python 3.11, so the unit, the release tool and the console meet the
same versions they meet on a Pi. The base system is built once with
mmdebstrap (about a minute and a half) and kept in the cache; every run copies
it, installs the console into the copy with firmware/install.sh (in a chroot,
where the host's network reaches Debian and PyPI, as a Pi's would), and packs
the copy into an ext4 image with ``mkfs.ext4 -d`` (no loop devices, no root
mounts outside a private mount namespace).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

SUITE = "bookworm"
# What Raspberry Pi OS Lite has and install.sh expects to find: systemd, sshd, sudo, Python.
# The kernel and its initramfs are booted directly by qemu (-kernel/-initrd).
PACKAGES = [
    "systemd-sysv", "udev", "kmod", "dbus", "linux-image-amd64", "openssh-server", "sudo",
    "python3", "ca-certificates", "iproute2", "procps",
]
GUEST_USER = "pi"
IMAGE_SIZE = "4G"

# Run inside the new system by mmdebstrap once the packages are in: the owner's
# account (passwordless sudo, as Raspberry Pi Imager sets it up), DHCP on the
# emulated network card, and a root file system qemu names /dev/vda.
SETUP = f"""set -eu
echo pyramid > /etc/hostname
printf '127.0.0.1 localhost\n127.0.1.1 pyramid\n' > /etc/hosts
echo '/dev/vda / ext4 defaults 0 1' > /etc/fstab
useradd --create-home --shell /bin/bash --groups sudo {GUEST_USER}
echo '{GUEST_USER} ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/010_{GUEST_USER}-nopasswd
chmod 0440 /etc/sudoers.d/010_{GUEST_USER}-nopasswd
printf '[Match]\\nName=en*\\n\\n[Network]\\nDHCP=yes\\n' > /etc/systemd/network/20-wired.network
systemctl enable systemd-networkd.service
"""


def cache_directory() -> Path:
    """``$PYRAMID_VM_CACHE``, else ``~/.cache/pyramid-vm``: the base system survives between runs."""
    configured = os.environ.get("PYRAMID_VM_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "pyramid-vm"


def base_rootfs(cache: Path) -> Path:
    """The cached base system, built with mmdebstrap the first time.

    Named by a digest of what goes into it, so changing the package list or the
    set-up builds a new one instead of reusing a stale one.
    """
    key = hashlib.sha256(repr((SUITE, PACKAGES, SETUP)).encode()).hexdigest()[:12]
    rootfs = cache / f"{SUITE}-amd64-{key}"
    if (rootfs / "etc" / "os-release").exists():
        return rootfs
    partial = rootfs.with_name(rootfs.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["mmdebstrap", "--quiet", "--variant=minbase", "--architectures=amd64",
         f"--include={','.join(PACKAGES)}",
         "--customize-hook=chroot \"$1\" sh -c " + shell_quote(SETUP),
         SUITE, str(partial)],
        check=True)
    partial.rename(rootfs)
    return rootfs


def shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def kernel_and_initrd(rootfs: Path) -> tuple[Path, Path]:
    """The guest's own kernel and initramfs, for qemu's -kernel and -initrd."""
    kernels = sorted((rootfs / "boot").glob("vmlinuz-*"))
    if not kernels:
        raise FileNotFoundError(f"no kernel in {rootfs / 'boot'}")
    kernel = kernels[-1]
    return kernel, rootfs / "boot" / kernel.name.replace("vmlinuz-", "initrd.img-")


def copy_rootfs(base: Path, target: Path) -> None:
    """A private copy of the base system for one run (the cache stays pristine)."""
    subprocess.run(["cp", "-a", f"{base}/.", str(target)], check=True)


def run_in_chroot(rootfs: Path, command: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run a command inside ``rootfs`` as on a booted system, but on the host's kernel and network.

    /proc, /sys, /dev and the host's resolver are mounted in a private mount
    namespace (``unshare --mount``), so they vanish with the command, whatever
    way it ends.
    """
    mounts = (
        "set -eu; mount --make-rprivate /; r=\"$1\"; shift; "
        "mount -t proc proc \"$r/proc\"; mount -t sysfs sysfs \"$r/sys\"; mount --rbind /dev \"$r/dev\"; "
        "mount -t tmpfs tmpfs \"$r/tmp\"; mount -t tmpfs tmpfs \"$r/run\"; "
        "touch \"$r/etc/resolv.conf\"; mount --bind /etc/resolv.conf \"$r/etc/resolv.conf\"; "
        "exec chroot \"$r\" \"$@\""
    )
    clean = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
             "LANG": "C.UTF-8", **environment}
    return subprocess.run(["unshare", "--mount", "sh", "-c", mounts, "chroot-mounts", str(rootfs), *command],
                          env=clean, capture_output=True, text=True, check=False)


def make_image(rootfs: Path, image: Path) -> None:
    """An ext4 disk image holding ``rootfs``, made without loop devices or mounting."""
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "pyramid-root", "-d", str(rootfs), str(image), IMAGE_SIZE],
                   stdout=subprocess.DEVNULL, check=True)
