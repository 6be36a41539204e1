"""The framebuffer target on a file-backed framebuffer (a regular file and a made-up geometry).

After rendering, the bytes in the "device" must be the offscreen frame in the
panel's pixel layout, turned for the rotation; an update must touch only the
bytes of what changed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

import samples
from display.errors import DisplayError
from display.fbdev import FramebufferDisplay, choose_framebuffer
from display.fbinfo import (
    BGR565,
    RGB565,
    XBGR8888,
    XRGB8888,
    FramebufferGeometry,
    PixelFormat,
    read_geometry,
)
from display.rect import Rect
from display.render import Renderer
from display.rotation import Rotation
from pyramid.view import View

PANEL = (480, 320)
SENTINEL = 0xA5
FORMATS = {"RGB565": RGB565, "BGR565": BGR565, "XRGB8888": XRGB8888, "XBGR8888": XBGR8888}


def fake_framebuffer(tmp_path: Path, fmt: PixelFormat, padding: int = 24, y_offset: int = 2) -> tuple[Path, FramebufferGeometry]:
    """A regular file as big as the device memory, filled with a sentinel byte; lines padded, panned down."""
    line_length = PANEL[0] * fmt.bytes_per_pixel + padding
    geometry = FramebufferGeometry(PANEL[0], PANEL[1], line_length, fmt, x_offset=0, y_offset=y_offset, driver="test")
    path = tmp_path / "fb9"
    path.write_bytes(bytes([SENTINEL]) * geometry.memory_size)
    return path, geometry


def decode(memory: bytes, geometry: FramebufferGeometry, x: int, y: int) -> tuple[int, int, int]:
    """The colour fields stored for panel pixel (x, y), read by hand from the raw bytes."""
    fmt = geometry.pixel_format
    offset = geometry.offset_of(x, y)
    value = int.from_bytes(memory[offset : offset + fmt.bytes_per_pixel], "little")
    return tuple((value >> off) & ((1 << length) - 1) for off, length in (fmt.red, fmt.green, fmt.blue))  # type: ignore[return-value]


def expected(frame: pygame.Surface, fmt: PixelFormat, x: int, y: int) -> tuple[int, int, int]:
    colour = frame.get_at((x, y))
    return tuple(c >> (8 - length) for c, (_, length) in zip((colour.r, colour.g, colour.b), (fmt.red, fmt.green, fmt.blue)))  # type: ignore[return-value]


def sample_points(size: tuple[int, int], renderer: Renderer) -> list[tuple[int, int]]:
    """A grid over the frame plus known regions: felt, a card's corner, the cursor ring, the stock."""
    table = renderer.layout.table(7)
    points = [(x, y) for x in range(0, size[0], 37) for y in range(0, size[1], 29)]
    points += [(size[0] - 1, size[1] - 1), table.cards[0].center, (table.cards[0].x + 3, table.cards[0].y + 3)]
    points += [table.stock.center, (table.status.x + 1, table.status.y + 1)]
    return points


@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
@pytest.mark.parametrize("name", FORMATS)
def test_the_device_holds_the_frame_in_its_format_for_each_rotation(tmp_path: Path, name: str, degrees: int) -> None:
    path, geometry = fake_framebuffer(tmp_path, FORMATS[name])
    rotation = Rotation(degrees)
    with FramebufferDisplay(path, rotation, 0, geometry=geometry, console=False) as display:
        assert display.size == rotation.frame_size(PANEL)
        renderer = Renderer(display.size)
        display.present(renderer.frame, renderer.draw(samples.game_view()))
        memory = path.read_bytes()
        for x, y in sample_points(display.size, renderer):
            panel = rotation.to_panel(Rect(x, y, 1, 1), display.size)
            assert decode(memory, geometry, panel.x, panel.y) == expected(renderer.frame, geometry.pixel_format, x, y), (x, y)
        whole = pygame.Surface(PANEL, 0, geometry.pixel_format.bits_per_pixel, geometry.pixel_format.masks)
        whole.blit(rotation.turn(renderer.frame), (0, 0))
        row_bytes = PANEL[0] * geometry.pixel_format.bytes_per_pixel
        converted = whole.get_buffer().raw
        for y in range(PANEL[1]):
            start = geometry.offset_of(0, y)
            assert memory[start : start + row_bytes] == converted[y * whole.get_pitch() : y * whole.get_pitch() + row_bytes]
            padding = memory[start + row_bytes : start + geometry.line_length]
            assert padding == bytes([SENTINEL]) * len(padding), "line padding is never written"
        assert memory[: geometry.offset_of(0, 0)] == bytes([SENTINEL]) * geometry.offset_of(0, 0), "lines above the panned view stay"
        assert display.bytes_written == row_bytes * PANEL[1]


@pytest.mark.parametrize("degrees", [0, 90])
@pytest.mark.parametrize("name", ["RGB565", "XRGB8888"])
def test_a_move_rewrites_only_the_bytes_of_what_changed(tmp_path: Path, name: str, degrees: int) -> None:
    path, geometry = fake_framebuffer(tmp_path, FORMATS[name])
    rotation = Rotation(degrees)
    game = samples.game_view()
    assert game.table is not None
    with FramebufferDisplay(path, rotation, 0, geometry=geometry, console=False) as display:
        renderer = Renderer(display.size)
        display.present(renderer.frame, renderer.draw(game))
        full = display.bytes_written
        before = path.read_bytes()
        moved = View("game", table=game.table._replace(cursor="stock"))
        dirty = renderer.draw(moved)
        display.present(renderer.frame, dirty)
        after = path.read_bytes()
        written = display.bytes_written - full
    areas = [rotation.to_panel(rect, display.size) for rect in dirty]
    bpp = geometry.pixel_format.bytes_per_pixel
    allowed = set()
    for area in areas:
        for y in range(area.y, area.bottom):
            start = geometry.offset_of(area.x, y)
            allowed.update(range(start, start + area.w * bpp))
    changed = {i for i, (a, b) in enumerate(zip(before, after)) if a != b}
    assert changed and changed <= allowed
    assert written <= len(allowed) and written < 0.15 * full
    for x, y in sample_points(display.size, renderer):
        panel = rotation.to_panel(Rect(x, y, 1, 1), display.size)
        assert decode(after, geometry, panel.x, panel.y) == expected(renderer.frame, geometry.pixel_format, x, y)


def test_presenting_nothing_new_writes_nothing(tmp_path: Path) -> None:
    path, geometry = fake_framebuffer(tmp_path, RGB565)
    with FramebufferDisplay(path, geometry=geometry, console=False) as display:
        renderer = Renderer(display.size)
        view = samples.game_view()
        display.present(renderer.frame, renderer.draw(view))
        written = display.bytes_written
        display.present(renderer.frame, renderer.draw(view))
        assert display.bytes_written == written


def test_refresh_rewrites_the_whole_frame_after_the_screen_lost_it(tmp_path: Path) -> None:
    path, geometry = fake_framebuffer(tmp_path, RGB565)
    with FramebufferDisplay(path, geometry=geometry, console=False) as display:
        renderer = Renderer(display.size)
        display.present(renderer.frame, renderer.draw(samples.game_view()))
        shown = path.read_bytes()
        path.write_bytes(bytes(len(shown)))  # something else drew over the whole device
        display.refresh()
        restored, row = path.read_bytes(), PANEL[0] * 2
        for y in range(PANEL[1]):
            start = geometry.offset_of(0, y)
            assert restored[start : start + row] == shown[start : start + row]


def test_the_geometry_falls_back_to_sysfs_when_the_ioctl_is_refused(tmp_path: Path) -> None:
    sysfs, dev = fake_sysfs(tmp_path, {"fb1": ("fb_ili9486", "480,320", 16, 960)})
    device = dev / "fb1"
    fd = os.open(device, os.O_RDWR)
    try:
        geometry = read_geometry(fd, device, sysfs)  # a regular file answers ENOTTY to the ioctl
    finally:
        os.close(fd)
    assert geometry == FramebufferGeometry(480, 320, 960, RGB565, driver="fb_ili9486")


def test_a_device_that_is_not_a_framebuffer_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "fb3").write_bytes(b"")
    with pytest.raises(DisplayError, match="geometry of .*fb3"):
        FramebufferDisplay(tmp_path / "fb3", console=False, sysfs=tmp_path / "sys")
    with pytest.raises(DisplayError, match="cannot open .*fb8.*video"):
        FramebufferDisplay(tmp_path / "fb8", console=False)
    path, geometry = fake_framebuffer(tmp_path, PixelFormat(24, (16, 8), (8, 8), (0, 8)))
    with pytest.raises(DisplayError, match="not supported"):
        FramebufferDisplay(path, geometry=geometry, console=False)


def test_the_panel_framebuffer_is_chosen_before_the_drm_emulation(tmp_path: Path) -> None:
    sysfs, dev = fake_sysfs(tmp_path, {"fb0": ("vc4drmfb", "1920,1080", 32, 7680), "fb1": ("fb_ili9486", "480,320", 16, 960)})
    assert choose_framebuffer(dev, sysfs) == dev / "fb1"
    with FramebufferDisplay(None, console=False, sysfs=sysfs, dev=dev) as display:
        assert display.device == dev / "fb1" and display.size == (480, 320)
        assert "fb1 (chosen automatically)" in display.description and "RGB565" in display.description
    (dev / "fb1").unlink()
    assert choose_framebuffer(dev, sysfs) == dev / "fb0"
    (dev / "fb0").unlink()
    with pytest.raises(DisplayError, match="no framebuffer"):
        choose_framebuffer(dev, sysfs)


def fake_sysfs(tmp_path: Path, framebuffers: dict[str, tuple[str, str, int, int]]) -> tuple[Path, Path]:
    """A /sys/class/graphics tree and a /dev with regular files standing in for the devices."""
    sysfs, dev = tmp_path / "sys", tmp_path / "dev"
    dev.mkdir(exist_ok=True)
    for name, (driver, virtual_size, bpp, stride) in framebuffers.items():
        node = sysfs / "class" / "graphics" / name
        node.mkdir(parents=True)
        (node / "name").write_text(driver + "\n")
        (node / "virtual_size").write_text(virtual_size + "\n")
        (node / "bits_per_pixel").write_text(f"{bpp}\n")
        (node / "stride").write_text(f"{stride}\n")
        height = int(virtual_size.split(",")[1])
        (dev / name).write_bytes(bytes(stride * height))
    return sysfs, dev
