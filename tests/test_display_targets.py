"""Opening displays: headless for real, and every failure of window, kmsdrm and auto as a clear error."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest
from test_fbdev import fake_sysfs

import samples
from display.auto import open_display
from display.drm import DrmOutput, connected_outputs
from display.errors import DisplayError
from display.headless import HeadlessDisplay
from display.kmsdrm import KmsDrmDisplay
from display.render import Renderer
from display.settings import DisplaySettings


@pytest.fixture(autouse=True)
def sdl_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Targets set SDL variables in os.environ; put them back after each test."""
    for name in ("SDL_VIDEODRIVER", "SDL_KMSDRM_DEVICE_INDEX", "SDL_FRAMEBUFFER_ACCELERATION"):
        monkeypatch.setenv(name, os.environ.get(name, "dummy" if name == "SDL_VIDEODRIVER" else ""))
    yield
    pygame.display.quit()


def fake_drm(tmp_path: Path, connectors: dict[str, str]) -> Path:
    sysfs = tmp_path / "sys"
    for name, status in connectors.items():
        node = sysfs / "class" / "drm" / name
        node.mkdir(parents=True)
        (node / "status").write_text(status + "\n")
    return sysfs


def test_headless_renders_and_saves_a_screenshot(tmp_path: Path) -> None:
    display = open_display("headless", (320, 240))
    assert isinstance(display, HeadlessDisplay) and display.size == (320, 240)
    assert pygame.display.get_driver() == "dummy"
    with pytest.raises(DisplayError, match="no frame"):
        display.screenshot("early.png")
    renderer = Renderer(display.size, display.safe_area)
    display.present(renderer.frame, renderer.draw(samples.game_view()))
    (tmp_path / "shot.png").write_bytes(display.screenshot("shot.png"))
    saved = pygame.image.load(str(tmp_path / "shot.png"))
    assert saved.get_size() == (320, 240)
    assert pygame.image.tobytes(saved, "RGB") == pygame.image.tobytes(renderer.frame, "RGB")
    with pytest.raises(DisplayError, match="frame of"):
        display.present(pygame.Surface((10, 10)), [])
    display.close()


def test_the_settings_choose_the_display_and_size_when_the_command_line_does_not() -> None:
    with open_display(None, None, DisplaySettings(display="headless", size=(800, 480), safe_area=3)) as display:
        assert display.name == "headless" and display.size == (800, 480) and display.safe_area == 3
    with open_display("headless", (320, 240), DisplaySettings(size=(800, 480))) as display:
        assert display.size == (320, 240)


def test_an_unknown_display_lists_the_choices() -> None:
    with pytest.raises(DisplayError, match="'hdmi'.*auto, window, headless, kmsdrm, fbdev"):
        open_display("hdmi")


def test_a_window_without_a_desktop_says_what_to_use_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(DisplayError, match="no desktop.*--display kmsdrm, fbdev or headless"):
        open_display("window")
    assert not pygame.display.get_init()


def test_connected_drm_outputs_are_found_and_tvs_recognised(tmp_path: Path) -> None:
    sysfs = fake_drm(tmp_path, {"card0-Unknown-1": "disconnected", "card1-HDMI-A-1": "connected", "card1-DSI-1": "connected"})
    assert connected_outputs(sysfs) == [DrmOutput(1, "DSI-1"), DrmOutput(1, "HDMI-A-1")]
    assert [output.is_tv for output in connected_outputs(sysfs)] == [False, True]


def test_kmsdrm_without_a_connected_screen_fails_clearly(tmp_path: Path) -> None:
    sysfs = fake_drm(tmp_path, {"card0-HDMI-A-1": "disconnected"})
    with pytest.raises(DisplayError, match="no connected screen.*text console"):
        KmsDrmDisplay(sysfs=sysfs)


def test_kmsdrm_picks_the_connected_card_and_never_falls_back_silently(tmp_path: Path) -> None:
    sysfs = fake_drm(tmp_path, {"card0-Unknown-1": "disconnected", "card1-HDMI-A-1": "connected"})
    with pytest.raises(DisplayError, match="kmsdrm"):  # no /dev/dri here: SDL cannot start kmsdrm
        open_display("kmsdrm", sysfs=sysfs)
    assert os.environ["SDL_KMSDRM_DEVICE_INDEX"] == "1"
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "opengles2"
    assert not pygame.display.get_init()


def test_auto_with_nothing_to_show_on_lists_what_it_tried(tmp_path: Path) -> None:
    (tmp_path / "dev").mkdir()
    with pytest.raises(DisplayError) as error:
        open_display("auto", environ={}, sysfs=tmp_path / "sys", dev=tmp_path / "dev")
    message = str(error.value)
    assert "window: no desktop session" in message and "kmsdrm: no connected output" in message
    assert "fbdev: no" in message and "--display headless" in message


def test_auto_goes_on_to_the_framebuffer_when_kmsdrm_fails(tmp_path: Path) -> None:
    sysfs, dev = fake_sysfs(tmp_path, {"fb1": ("fb_ili9486", "480,320", 16, 960)})
    node = sysfs / "class" / "drm" / "card0-HDMI-A-1"
    node.mkdir(parents=True)
    (node / "status").write_text("connected\n")
    with open_display("auto", environ={}, sysfs=sysfs, dev=dev, console=False) as display:
        assert display.name == "fbdev" and display.size == (480, 320) and display.safe_area == 0
