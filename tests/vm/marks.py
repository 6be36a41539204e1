"""What every machine test module is marked with: opt-in, its tools, root, one worker, an hour at most."""

from __future__ import annotations

import os

import pytest

from vm.rootfs import Architecture, missing_packages


def machine_test(what: str, architecture: Architecture) -> list[pytest.MarkDecorator]:
    """The marks of a module that boots a guest of ``architecture``; ``what`` says what it does and how long
    (the skip message of a run without ``PYRAMID_VM=1``)."""
    missing = missing_packages(architecture)
    return [
        pytest.mark.skipif(os.environ.get("PYRAMID_VM") != "1", reason=f"{what}: set PYRAMID_VM=1"),
        pytest.mark.skipif(bool(missing), reason=f"needs: apt-get install {' '.join(missing)}"),
        pytest.mark.skipif(os.geteuid() != 0, reason="builds the guest system with mmdebstrap and chroot: run as root"),
        # One guest for the module, in one worker (--dist loadgroup); its build and boot take minutes.
        pytest.mark.xdist_group("vm"), pytest.mark.timeout(3600),
    ]
