"""Handheld buttons wired straight to the Pi's GPIO header, read with gpiozero.

Default wiring (BCM numbers; each button between its pin and a ground pin, the
Pi's internal pull-up holds the pin high, pressing pulls it low)::

    button   BCM   header pin        button   BCM   header pin
    up        5      29              ok       22      15
    down      6      31              back     23      16
    left     13      33              star     27      13
    right    26      37              (ground: 30, 34, 39, 14 or 9)

These avoid I2C, UART, SPI0 and the pins common SPI displays and I2S audio
boards take; change them under ``[input.gpio]`` in the settings file (see
docs/settings-input.md). A handheld has no help button, so holding star for a
second gives ``help`` (docs/rules.md, "Controls") — unless a ``help`` pin is configured.

Each button is a gpiozero ``DigitalInputDevice`` rather than a ``Button``:
holds are timed in the hub, and a ``Button`` keeps a thread per pin that
wakes ten times a second to watch for holds. gpiozero calls
``when_activated``/``when_deactivated`` on its own thread (lgpio's alert
thread on a Pi, the driving thread under ``MockFactory``): the callbacks only
report to the hub. Debounce, repeat and long press happen in the hub on
its injectable clock (see input.debounce for why gpiozero's ``bounce_time`` is
not used). The pin factory is lgpio, which drives ``/dev/gpiochip*`` on every
current Pi including the Pi 5; tests pass ``MockFactory`` (or set
``GPIOZERO_PIN_FACTORY=mock``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import partial

from gpiozero import Device, DigitalInputDevice
from gpiozero.pins import Factory

from input.errors import SourceUnavailableError
from input.hub import InputHub
from input.keymap import DEFAULT_GPIO_PINS, LONG_PRESSES

BOUNCE_TIME = 0.02


def default_pin_factory() -> Factory | None:
    """lgpio, unless a factory was chosen the gpiozero way (``GPIOZERO_PIN_FACTORY``, ``Device.pin_factory``).

    None lets gpiozero use that choice. lgpio needs a writable working
    directory: it creates a notification pipe there.
    """
    if Device.pin_factory is not None or os.environ.get("GPIOZERO_PIN_FACTORY"):
        return None
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as error:  # ImportError without lgpio, lgpio.error without a GPIO chip
        raise SourceUnavailableError(f"GPIO buttons need lgpio and a GPIO chip: {error}") from error


def device_name(pin: int) -> str:
    """How a GPIO button is named in the press log ("OK from 'GPIO 22'")."""
    return f"GPIO {pin}"


class GpioButtons:
    """One gpiozero input per action, reporting presses and releases to ``hub``."""

    def __init__(
        self,
        hub: InputHub,
        pins: Mapping[str, int] = DEFAULT_GPIO_PINS,
        *,
        bounce_time: float = BOUNCE_TIME,
        pin_factory: Factory | None = None,
    ) -> None:
        """``pin_factory``: gpiozero's seam to the hardware (``MockFactory`` in tests); see default_pin_factory."""
        factory = pin_factory if pin_factory is not None else default_pin_factory()
        # Seven buttons, more actions: holding star gives help, holding Back undoes a move,
        # unless those actions have pins of their own.
        long_presses = {button: action for button, action in LONG_PRESSES.items() if action not in pins}
        self._buttons: list[DigitalInputDevice] = []
        try:
            for action, pin in pins.items():
                self._buttons.append(self._button(hub, factory, action, pin, bounce_time, long_presses.get(action)))
        except Exception as error:  # GPIOPinInUse, PinInvalidPin, ... : nothing half-open is left behind
            self.close()
            raise SourceUnavailableError(f"cannot use GPIO {pin} for {action!r}: {error}") from error

    @staticmethod
    def _button(hub: InputHub, factory: Factory | None, action: str, pin: int, bounce_time: float,
                long_press: str | None) -> DigitalInputDevice:
        button = DigitalInputDevice(pin, pull_up=True, pin_factory=factory)
        name = device_name(pin)
        button.when_activated = partial(hub.press, action, name, bounce_time=bounce_time, long_press=long_press)
        button.when_deactivated = partial(hub.release, action, name, bounce_time=bounce_time)
        return button

    def close(self) -> None:
        """Free the pins (callbacks stop)."""
        while self._buttons:
            self._buttons.pop().close()
