"""Builds the hub with the input sources chosen by ``--input`` or the settings file.

The composition root (pyramid.app) calls :func:`open_hub` once, after the
display exists, and closes the hub at exit. Each source's library is imported
only when that source is chosen, so a desktop without gpiozero or evdev still
runs with the keyboard.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from input.errors import SourceUnavailableError
from input.hub import InputHub
from input.keymap import InputSettings
from input.repeat import Clock
from input.touch import PanelSize


def open_hub(
    sources: Sequence[str],
    panel_size: PanelSize,
    settings: InputSettings | None = None,
    *,
    on_other_event: Callable[[Any], None] | None = None,
    clock: Clock = time.monotonic,
) -> InputHub:
    """A hub fed by ``sources`` ("keyboard", "gpio", "evdev"; see input.keymap.parse_sources).

    ``panel_size`` gives the screen's size in pixels for touches (input.touch).
    "keyboard" is SDL's keyboard, mouse and touch: it needs a pygame display
    that gets input (a window or KMS; fbdev and headless have none) and makes the hub
    sleep in SDL's event wait, passing window events to ``on_other_event``.
    Raises :class:`SourceUnavailableError` when a chosen source cannot run
    here; nothing is left open then.
    """
    settings = settings if settings is not None else InputSettings()
    hub = InputHub(clock)
    try:
        if "keyboard" in sources:
            keyboard = _import("keyboard", "pygame-ce")
            keyboard.PygameEvents(hub, panel_size, on_other_event)
        if "gpio" in sources:
            gpio = _import("gpio", "gpiozero")
            hub.add_source(gpio.GpioButtons(hub, settings.gpio_pins))
        if "evdev" in sources:
            evdev_devices = _import("evdev_devices", "evdev")
            hub.add_source(evdev_devices.EvdevDevices(hub, settings.keys, panel_size))
    except BaseException:
        hub.close()
        raise
    return hub


def _import(module: str, library: str) -> Any:
    try:
        return importlib.import_module(f"input.{module}")
    except ImportError as error:
        raise SourceUnavailableError(f"input source {module.split('_')[0]!r} needs the {library} package "
                                     f"(pip install {library}): {error}") from error
