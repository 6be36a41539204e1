"""open_hub: the hub built the way the main loop builds it."""

from __future__ import annotations

import pygame
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from input.errors import SourceUnavailableError
from input.keymap import InputSettings
from input.sources import open_hub
from pyramid.actions import Action

PANEL = (320, 240)


@pytest.fixture
def mock_gpio(monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    yield
    if isinstance(Device.pin_factory, MockFactory):
        Device.pin_factory.reset()


@pytest.fixture
def display():
    pygame.display.init()
    pygame.display.set_mode(PANEL)
    pygame.event.clear()
    yield
    pygame.display.quit()


def test_keyboard_and_gpio_together(display, mock_gpio):
    settings = InputSettings.from_settings({"input": {"gpio": {"ok": 16}}})
    others: list[pygame.event.Event] = []
    hub = open_hub(("keyboard", "gpio"), lambda: PANEL, settings, on_other_event=others.append)
    try:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1, unicode="", mod=0, scancode=0))
        Device.pin_factory.pin(16).drive_low()
        pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
        assert hub.wait(1) == [Action("ok"), Action("help")]  # GPIO reported at once, SDL pumped in wait
        assert [str(r) for r in hub.recent_presses] == ["ok from 'GPIO 16'", "help from 'keyboard'"]
        assert pygame.WINDOWEXPOSED in [event.type for event in others]
    finally:
        hub.close()


def test_gpio_alone_blocks_on_the_queue(mock_gpio):
    hub = open_hub(("gpio",), lambda: PANEL)
    try:
        assert hub.wait(0.01) == []
        Device.pin_factory.pin(5).drive_low()
        assert hub.wait(1) == [Action("up")]
    finally:
        hub.close()


def test_an_unavailable_source_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    try:
        import lgpio  # noqa: F401
    except ImportError:
        with pytest.raises(SourceUnavailableError, match="GPIO buttons need lgpio"):
            open_hub(("gpio",), lambda: PANEL)
    else:
        pytest.skip("lgpio is installed here")
