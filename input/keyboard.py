"""Keyboard, mouse and touch through SDL (pygame-ce), for a window or KMS display.

docs/rules.md, "Controls", keyboard row: arrows; Space, Enter (and keypad Enter) = ok;
Backspace = back; Esc and ``*`` (keypad ``*`` too) = star; F1 = help.
A mouse click (left button) or an SDL touch is ``tap(x, y)`` in panel
pixels (see input.touch). Closing the window (SDL's quit event, which SDL
also sends on SIGTERM and SIGINT) stops the hub: ``wait`` returns None.

Auto-repeat is switched off here (``pygame.key.set_repeat()``) and a second
key-down without a key-up is ignored: held keys repeat in the hub's action
layer, at the same rhythm as every other source.

:class:`PygameEvents` is also the hub's :class:`~input.hub.Waiter` when a
pygame display exists: the main loop then sleeps in ``pygame.event.wait``
(window events arrive there too: every event that is not a key, click,
touch or quit is passed on to ``on_other_event``, e.g. to redraw an exposed
window), and producer threads wake it by posting a user event. In an X11
window it sleeps on the X connection instead (input.x11_wait), because
pygame's wait polls every millisecond.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import pygame

from input.hub import InputHub
from pyramid.actions import TYPABLE
from input.touch import PanelSize, panel_point
from input.x11_wait import X11Wait

KEYBOARD = "keyboard"
MOUSE = "mouse"
TOUCHSCREEN = "touchscreen"
LEFT_MOUSE_BUTTON = 1
#: The longest a signal handler waits to run while the hub sleeps in SDL (seconds).
SIGNAL_SLICE = 0.1

KEYS: dict[int, str] = {
    pygame.K_UP: "up",
    pygame.K_DOWN: "down",
    pygame.K_LEFT: "left",
    pygame.K_RIGHT: "right",
    pygame.K_SPACE: "ok",
    pygame.K_RETURN: "ok",
    pygame.K_KP_ENTER: "ok",
    pygame.K_BACKSPACE: "erase",  # back, except where a number or a name is typed
    pygame.K_ESCAPE: "star",
    pygame.K_ASTERISK: "star",
    pygame.K_KP_MULTIPLY: "star",
    pygame.K_F1: "help",
    pygame.K_u: "undo",
    pygame.K_h: "hint",
}


def button_for_key(key: int, text: str) -> str | None:
    """The button a key-down means; ``text`` catches ``*`` typed as Shift+8 on layouts without a ``*`` key."""
    return KEYS.get(key) or ("star" if text == "*" else None)


class PygameEvents:
    """Feeds SDL input events to ``hub`` and lets the hub sleep in SDL's event wait."""

    def __init__(
        self,
        hub: InputHub,
        panel_size: PanelSize,
        on_other_event: Callable[[pygame.event.Event], None] | None = None,
    ) -> None:
        self._hub = hub
        self._panel_size = panel_size
        self._on_other_event = on_other_event
        self._held: dict[int, str] = {}
        self._wake_type = pygame.event.custom_type()
        self._wake_pending = False
        self._x11 = X11Wait.for_window()
        pygame.key.set_repeat()
        hub.use_waiter(self)
        hub.add_source(self)
        hub.device_added(KEYBOARD)

    def block(self, timeout: float | None) -> None:
        """Wait for SDL events (at most ``timeout`` seconds), then handle all that are pending."""
        if self._x11 is not None:
            events = pygame.event.get()
            if not events and (timeout is None or timeout > 0):
                self._x11.wait(timeout)
                events = pygame.event.get()
        else:
            events = self._sdl_wait(timeout) + pygame.event.get()
        for event in events:
            self.handle(event)

    def _sdl_wait(self, timeout: float | None) -> list[pygame.event.Event]:
        """SDL's event wait, at most ``timeout`` seconds, in slices of :data:`SIGNAL_SLICE`.

        A Python signal handler (SIGTERM's, which stops the hub) runs only
        between two calls into SDL, never during one: a single wait without a
        time-out would keep a stop from ever being handled.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = SIGNAL_SLICE if deadline is None else min(SIGNAL_SLICE, deadline - time.monotonic())
            if left <= 0:
                return []
            event = pygame.event.wait(max(1, math.ceil(left * 1000)))
            if event.type != pygame.NOEVENT:
                return [event]

    def wake(self) -> None:
        """From any thread: make a pending wait return."""
        if self._x11 is not None:
            self._x11.wake()
        elif not self._wake_pending:
            self._wake_pending = True
            pygame.event.post(pygame.event.Event(self._wake_type))

    def close(self) -> None:
        """Free the X connection waiter's pipe (the window itself belongs to the display)."""
        if self._x11 is not None:
            self._x11.close()
            self._x11 = None

    def handle(self, event: pygame.event.Event) -> None:
        """Turn one SDL event into hub reports; pass non-input events on."""
        if event.type == self._wake_type:
            self._wake_pending = False
        elif event.type == pygame.KEYDOWN:
            self._key_down(event.key, getattr(event, "unicode", ""))
        elif event.type == pygame.KEYUP:
            button = self._held.pop(event.key, None)
            if button is not None:
                self._hub.release(button, KEYBOARD)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self._release_all()
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if event.button == LEFT_MOUSE_BUTTON and not getattr(event, "touch", False):
                x, y = event.pos
                self._hub.tap(x, y, MOUSE)
        elif event.type == pygame.FINGERDOWN:
            self._hub.tap(*panel_point(event.x, event.y, self._panel_size), TOUCHSCREEN)
        elif event.type == pygame.QUIT:
            self._hub.stop()
        elif event.type != pygame.NOEVENT and self._on_other_event is not None:
            self._on_other_event(event)

    def _key_down(self, key: int, text: str) -> None:
        if key in self._held:
            return
        button = button_for_key(key, text)
        if button is not None:
            self._held[key] = button
            self._hub.press(button, KEYBOARD)
        elif text in TYPABLE and text:
            self._hub.typed(text, KEYBOARD)

    def _release_all(self) -> None:
        """Focus moved away: the key-ups will go elsewhere, so nothing may stay held (and repeat)."""
        for button in self._held.values():
            self._hub.release(button, KEYBOARD)
        self._held.clear()

