"""What a Linux framebuffer looks like: size, line length and pixel layout.

Read from the device with the ``FBIOGET_VSCREENINFO`` / ``FBIOGET_FSCREENINFO``
ioctls (struct layouts from ``<linux/fb.h>``), or from sysfs when the ioctls
are refused. Tests pass a :class:`FramebufferGeometry` directly instead, so a
regular file can stand in for ``/dev/fbN``.
"""

from __future__ import annotations

import fcntl
import re
import struct
from dataclasses import dataclass
from pathlib import Path

from .drm import SYSFS
from .errors import DisplayError

FBIOGET_VSCREENINFO = 0x4600
FBIOGET_FSCREENINFO = 0x4602
#: struct fb_var_screeninfo: 40 __u32 (only the first 17 are read).
VAR_SCREENINFO_SIZE = 160
#: struct fb_fix_screeninfo, native alignment (unsigned long differs on 32/64-bit).
FIX_SCREENINFO = struct.Struct("@16sLIIIIHHHILIIHHH")


@dataclass(frozen=True, slots=True)
class PixelFormat:
    """Bits per pixel and each colour's (bit offset, bit length), as the kernel reports them."""

    bits_per_pixel: int
    red: tuple[int, int]
    green: tuple[int, int]
    blue: tuple[int, int]

    @property
    def bytes_per_pixel(self) -> int:
        return self.bits_per_pixel // 8

    @property
    def masks(self) -> tuple[int, int, int, int]:
        """The masks of a pygame surface with this layout (no alpha)."""
        def mask(offset: int, length: int) -> int:
            return ((1 << length) - 1) << offset
        return (mask(*self.red), mask(*self.green), mask(*self.blue), 0)

    @property
    def name(self) -> str:
        for name, known in KNOWN_FORMATS.items():
            if known == self:
                return name
        return f"{self.bits_per_pixel} bpp (red {self.red}, green {self.green}, blue {self.blue})"

    @property
    def supported(self) -> bool:
        return self.bits_per_pixel in (16, 32) and all(length > 0 for _, length in (self.red, self.green, self.blue))


RGB565 = PixelFormat(16, (11, 5), (5, 6), (0, 5))
BGR565 = PixelFormat(16, (0, 5), (5, 6), (11, 5))
XRGB8888 = PixelFormat(32, (16, 8), (8, 8), (0, 8))
XBGR8888 = PixelFormat(32, (0, 8), (8, 8), (16, 8))
KNOWN_FORMATS = {"RGB565": RGB565, "BGR565": BGR565, "XRGB8888": XRGB8888, "XBGR8888": XBGR8888}


@dataclass(frozen=True, slots=True)
class FramebufferGeometry:
    """The visible ``width`` x ``height`` pixels, starting ``x_offset``, ``y_offset`` into the memory."""

    width: int
    height: int
    line_length: int
    pixel_format: PixelFormat
    x_offset: int = 0
    y_offset: int = 0
    driver: str = ""

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def memory_size(self) -> int:
        """Bytes to map: every line up to the last visible one."""
        return self.line_length * (self.y_offset + self.height)

    def offset_of(self, x: int, y: int) -> int:
        """Byte offset of the visible pixel ``(x, y)``."""
        return (self.y_offset + y) * self.line_length + (self.x_offset + x) * self.pixel_format.bytes_per_pixel


def read_geometry(fd: int, device: Path, sysfs: Path = SYSFS) -> FramebufferGeometry:
    """The geometry of the open framebuffer ``fd`` (ioctl), else from sysfs; :class:`DisplayError` if neither works."""
    try:
        return geometry_from_ioctl(fd)
    except OSError as ioctl_error:
        try:
            return geometry_from_sysfs(device, sysfs)
        except (OSError, ValueError) as sysfs_error:
            raise DisplayError(
                f"cannot read the geometry of {device}: ioctl failed ({ioctl_error}), sysfs failed ({sysfs_error}). "
                "Is it a framebuffer device?"
            ) from None


def geometry_from_ioctl(fd: int) -> FramebufferGeometry:
    var = fcntl.ioctl(fd, FBIOGET_VSCREENINFO, bytes(VAR_SCREENINFO_SIZE))
    (xres, yres, _xv, _yv, xoffset, yoffset, bpp, _grey,
     red_offset, red_length, _, green_offset, green_length, _, blue_offset, blue_length, _) = struct.unpack_from("17I", var)
    fix = fcntl.ioctl(fd, FBIOGET_FSCREENINFO, bytes(FIX_SCREENINFO.size))
    fields = FIX_SCREENINFO.unpack(fix)
    driver, line_length = fields[0].rstrip(b"\0").decode("ascii", "replace"), fields[9]
    pixel_format = PixelFormat(bpp, (red_offset, red_length), (green_offset, green_length), (blue_offset, blue_length))
    return FramebufferGeometry(xres, yres, line_length or xres * bpp // 8, pixel_format, xoffset, yoffset, driver)


def geometry_from_sysfs(device: Path, sysfs: Path = SYSFS) -> FramebufferGeometry:
    """Size, stride and depth from ``/sys/class/graphics/fbN``; the usual colour order for the depth."""
    node = sysfs / "class" / "graphics" / device.name
    width, height = (int(v) for v in (node / "virtual_size").read_text().strip().split(","))
    bpp = int((node / "bits_per_pixel").read_text())
    stride = int((node / "stride").read_text()) if (node / "stride").exists() else width * bpp // 8
    formats = {16: RGB565, 32: XRGB8888}
    if bpp not in formats:
        raise ValueError(f"{bpp} bits per pixel is not supported (16 or 32)")
    return FramebufferGeometry(width, height, stride, formats[bpp], driver=framebuffer_driver(device, sysfs))


def framebuffer_driver(device: Path, sysfs: Path = SYSFS) -> str:
    """The driver name sysfs gives for ``device`` (e.g. ``"vc4drmfb"``, ``"fb_ili9486"``), or ``""``."""
    try:
        return (sysfs / "class" / "graphics" / device.name / "name").read_text().strip()
    except OSError:
        return ""


def list_framebuffers(dev: Path = Path("/dev")) -> list[Path]:
    """``/dev/fb0``, ``/dev/fb1`` … in numeric order."""
    found = [path for path in dev.glob("fb*") if re.fullmatch(r"fb\d+", path.name)]
    return sorted(found, key=lambda path: int(path.name[2:]))


def is_drm_emulation(driver: str) -> bool:
    """The fbdev emulation of a DRM driver (``vc4drmfb``, ``virtio_gpudrmfb`` …), better driven through KMS."""
    return driver.endswith("drmfb")
