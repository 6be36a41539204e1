"""Opening the screen the user asked for — or, for ``auto``, the one that is there.

``auto`` (the console service's default) tries, in order: a window when a
desktop session is present (``DISPLAY`` / ``WAYLAND_DISPLAY``), KMS/DRM when a
connected output exists, then the first framebuffer. Each step that is
skipped or fails is logged and named in the final error, so falling through
is never silent. Targets (and the device probing) are imported only when
needed: start-up time is part of the console's feel.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Mapping

from .base import Display
from .drm import SYSFS
from .errors import DisplayError
from .rotation import Rotation
from .settings import DisplaySettings, check_display_spec

log = logging.getLogger(__name__)

DEFAULT_WINDOW_SIZE = (800, 480)
DEFAULT_HEADLESS_SIZE = (480, 320)


def open_display(
    spec: str | None = None,
    size: tuple[int, int] | None = None,
    settings: DisplaySettings = DisplaySettings(),
    *,
    environ: Mapping[str, str] = os.environ,
    sysfs: Path = SYSFS,
    dev: Path = Path("/dev"),
    console: bool = True,
) -> Display:
    """Open ``spec`` (``window``, ``headless``, ``kmsdrm``, ``fbdev``, ``fbdev:/dev/fbN`` or ``auto``).

    ``spec`` ``None`` takes the settings' choice. ``size`` (from --size)
    applies to a window or headless frame and wins over the settings' size;
    KMS and framebuffers use the device's own size. ``console`` lets a
    framebuffer switch the text console to graphics mode. ``environ``,
    ``sysfs`` and ``dev`` are seams for tests. Raises :class:`DisplayError`
    with advice when the screen cannot be opened.
    """
    try:
        spec = check_display_spec(spec or settings.display)
    except ValueError as error:
        raise DisplayError(str(error)) from None
    rotation = Rotation(settings.rotation)
    frame_size = size or settings.size
    kind, _, device = spec.partition(":")
    if kind == "window":
        from .window import WindowDisplay
        return WindowDisplay(frame_size or DEFAULT_WINDOW_SIZE, rotation, settings.safe_area or 0)
    if kind == "headless":
        from .headless import HeadlessDisplay
        return HeadlessDisplay(frame_size or DEFAULT_HEADLESS_SIZE, settings.safe_area or 0)
    if kind == "kmsdrm":
        from .kmsdrm import KmsDrmDisplay
        return KmsDrmDisplay(rotation, settings.safe_area, sysfs)
    if kind == "fbdev":
        from .fbdev import FramebufferDisplay
        device_path = Path(device) if device else None
        return FramebufferDisplay(device_path, rotation, settings.safe_area, sysfs=sysfs, dev=dev, console=console)
    return _open_automatically(frame_size, settings, environ, sysfs, dev, console)


def _open_automatically(
    size: tuple[int, int] | None, settings: DisplaySettings, environ: Mapping[str, str], sysfs: Path, dev: Path, console: bool
) -> Display:
    from .drm import connected_outputs
    from .fbinfo import list_framebuffers

    tried: list[str] = []
    candidates: list[str] = []
    if environ.get("WAYLAND_DISPLAY") or environ.get("DISPLAY"):
        candidates.append("window")
    else:
        tried.append("window: no desktop session (DISPLAY and WAYLAND_DISPLAY are unset)")
    if connected_outputs(sysfs):
        candidates.append("kmsdrm")
    else:
        tried.append(f"kmsdrm: no connected output under {sysfs / 'class' / 'drm'}")
    if list_framebuffers(dev):
        candidates.append("fbdev")
    else:
        tried.append(f"fbdev: no {dev / 'fb*'} device")
    for candidate in candidates:
        try:
            display = open_display(candidate, size, settings, environ=environ, sysfs=sysfs, dev=dev, console=console)
        except DisplayError as error:
            log.warning("display auto: %s failed: %s", candidate, error)
            tried.append(f"{candidate}: {error}")
            continue
        log.info("display auto: using %s", display.description)
        return display
    raise DisplayError("no screen found. Tried " + "; ".join(tried) + ". Use --display headless to run without a screen.")
