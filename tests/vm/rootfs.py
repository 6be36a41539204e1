"""The guest system: a Debian root file system for one architecture and release, cached, and its disk images.

Debian stands in for Raspberry Pi OS Lite: trixie (Debian 13, systemd 257,
Python 3.13) is what a new owner flashes today, bookworm (Debian 12, systemd
252, Python 3.11) is still supported, and arm64 is what every Pi this console
targets runs. ``PYRAMID_VM_SUITE`` and ``PYRAMID_VM_ARCH`` choose (trixie and
amd64 by default). The base system is built once with mmdebstrap and kept in
the cache; every run copies it, installs the console into the copy with
firmware/install.sh (in a chroot, where the host's network reaches Debian, as a
Pi's would), and packs the copy into ext4 images with ``mkfs.ext4 -d`` (no loop
devices, no root mounts outside a private mount namespace).

A foreign architecture's packages run through qemu-user (binfmt_misc), where
building the initramfs is what costs: the kernel's and initramfs-tools'
postinst scripts would each build one. ``update-initramfs`` is diverted to
``true`` while the packages go in and run once at the end.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


class GuestSetupError(RuntimeError):
    """The host cannot build or run the chosen guest; the message says what to do."""


@dataclass(frozen=True)
class Architecture:
    """What differs between the emulated machines: Debian's and Python's names, the kernel, the console."""

    debian: str
    wheel: str  # build-release.sh --arch: the manylinux platform suffix
    kernel_package: str
    serial_console: str


@dataclass(frozen=True)
class Suite:
    """A Debian release and the Python it carries (the release bundle's wheels are for that Python)."""

    name: str
    python: str


ARCHITECTURES = {
    "amd64": Architecture("amd64", "x86_64", "linux-image-amd64", "ttyS0"),
    "arm64": Architecture("arm64", "aarch64", "linux-image-arm64", "ttyAMA0"),
}
SUITES = {"trixie": Suite("trixie", "3.13"), "bookworm": Suite("bookworm", "3.11")}


@dataclass(frozen=True)
class Guest:
    """The guest chosen for a run: which architecture, which Debian release."""

    architecture: Architecture
    suite: Suite

    @property
    def name(self) -> str:
        return f"{self.suite.name}-{self.architecture.debian}"


def chosen_guest() -> Guest:
    """The guest ``PYRAMID_VM_ARCH`` (amd64, arm64) and ``PYRAMID_VM_SUITE`` (trixie, bookworm) name."""
    arch = os.environ.get("PYRAMID_VM_ARCH", "amd64")
    suite = os.environ.get("PYRAMID_VM_SUITE", "trixie")
    if arch not in ARCHITECTURES:
        raise GuestSetupError(f"PYRAMID_VM_ARCH={arch!r}: not one of {', '.join(ARCHITECTURES)}")
    if suite not in SUITES:
        raise GuestSetupError(f"PYRAMID_VM_SUITE={suite!r}: not one of {', '.join(SUITES)}")
    return Guest(ARCHITECTURES[arch], SUITES[suite])


def is_foreign(architecture: Architecture) -> bool:
    """Whether the guest's programs need qemu-user to run on this host."""
    return {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine()) != architecture.debian


def check_foreign_binaries(architecture: Architecture) -> None:
    """A foreign guest's programs run in the chroot only through a binfmt_misc handler."""
    if not is_foreign(architecture):
        return
    handler = Path("/proc/sys/fs/binfmt_misc") / f"qemu-{architecture.wheel}"
    if not handler.exists() or "enabled" not in handler.read_text():
        raise GuestSetupError(
            f"no binfmt_misc handler for {architecture.wheel} ({handler}): apt-get install qemu-user-static "
            f"binfmt-support, then mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc "
            f"and update-binfmts --enable qemu-{architecture.wheel}")


#: The host's programs a run needs, and the Debian package of each.
TOOLS = {"qemu-img": "qemu-utils", "mmdebstrap": "mmdebstrap", "mkfs.ext4": "e2fsprogs", "debugfs": "e2fsprogs",
         "unshare": "util-linux", "ssh": "openssh-client", "rsync": "rsync"}
EMULATORS = {"amd64": {"qemu-system-x86_64": "qemu-system-x86"}, "arm64": {"qemu-system-aarch64": "qemu-system-arm"}}
#: A foreign guest's programs in the chroot: qemu-user, registered with binfmt_misc; and the cross
#: compiler that builds the release's solver core for it (firmware/build-release.sh).
FOREIGN_TOOLS = {"arm64": {"qemu-aarch64-static": "qemu-user-static", "update-binfmts": "binfmt-support",
                           "aarch64-linux-gnu-gcc": "gcc-aarch64-linux-gnu"},
                 "amd64": {"qemu-x86_64-static": "qemu-user-static", "update-binfmts": "binfmt-support",
                           "x86_64-linux-gnu-gcc": "gcc-x86-64-linux-gnu"}}


def missing_packages(architecture: Architecture) -> list[str]:
    """The Debian packages to install before a guest of ``architecture`` can be built and booted here."""
    tools = {**TOOLS, **EMULATORS[architecture.debian]}
    if is_foreign(architecture):
        tools.update(FOREIGN_TOOLS[architecture.debian])
    return sorted({package for tool, package in tools.items() if shutil.which(tool) is None})


# What Raspberry Pi OS Lite has and install.sh expects to find: systemd, sshd, sudo, Python; and
# v4l-utils, whose cec-ctl plays the TV on vivid's emulated HDMI-CEC bus (tests/test_vm_cec.py).
# The kernel and its initramfs are booted directly by qemu (-kernel/-initrd).
PACKAGES = ["systemd-sysv", "udev", "kmod", "dbus", "openssh-server", "sudo",
            "python3", "ca-certificates", "iproute2", "procps", "v4l-utils"]
GUEST_USER = "pi"
IMAGE_SIZE = "4G"
DATA_IMAGE_SIZE = "1G"

# Before the packages: update-initramfs does nothing (every kernel-related postinst calls it).
DIVERT_INITRAMFS = ("chroot \"$1\" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs && "
                    "ln -s /bin/true \"$1/usr/sbin/update-initramfs\"")

# Run inside the new system by mmdebstrap once the packages are in: the real update-initramfs
# back, one initramfs built; the owner's account (passwordless sudo, as Raspberry Pi Imager sets
# it up), DHCP on the emulated network card, and a root file system qemu names /dev/vda.
SETUP = f"""set -eu
rm /usr/sbin/update-initramfs
dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs
update-initramfs -c -k all
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


def base_rootfs(cache: Path, guest: Guest) -> Path:
    """The cached base system of ``guest``, built with mmdebstrap the first time.

    Named by a digest of what goes into it, so changing the package list or the
    set-up builds a new one instead of reusing a stale one.
    """
    packages = [*PACKAGES, guest.architecture.kernel_package]
    key = hashlib.sha256(repr((guest.name, packages, DIVERT_INITRAMFS, SETUP)).encode()).hexdigest()[:12]
    rootfs = cache / f"{guest.name}-{key}"
    if (rootfs / "etc" / "os-release").exists():
        return rootfs
    check_foreign_binaries(guest.architecture)
    partial = rootfs.with_name(rootfs.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["nice", "-n", "10", "mmdebstrap", "--quiet", "--variant=minbase",
         f"--architectures={guest.architecture.debian}", f"--include={','.join(packages)}",
         f"--essential-hook={DIVERT_INITRAMFS}",
         "--customize-hook=chroot \"$1\" sh -c " + shell_quote(SETUP),
         guest.suite.name, str(partial)],
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


def make_image(tree: Path, image: Path, label: str = "pyramid-root", size: str = IMAGE_SIZE) -> None:
    """An ext4 disk image holding ``tree``, made without loop devices or mounting."""
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", label, "-d", str(tree), str(image), size],
                   stdout=subprocess.DEVNULL, check=True)
