"""The frontend: a display plus the renderer that draws views for it, and the motion and sound between views."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable, NamedTuple

from pyramid.view import Hit, View
from pyramid.view_change import view_change

if TYPE_CHECKING:
    from audio.player import SoundPlayer
    from display.base import Display


class Liveliness(NamedTuple):
    """What the frontend adds between views, asked at each view (Settings can change it meanwhile):
    ``motion`` animates, ``sound`` plays the effects at ``volume`` percent. ``play_through`` draws
    every frame of an animation at once (the scripted mode does not wait between its steps)."""

    motion: Callable[[], bool] = lambda: False
    sound: Callable[[], bool] = lambda: False
    volume: Callable[[], int] = lambda: 100
    play_through: bool = False


class Frontend:
    """A display plus the renderer that draws views for it, and the motion and sound between views."""

    def __init__(self, display: "Display", clock: Callable[[], float] = time.monotonic) -> None:
        from display.animator import Animator
        from display.render import Renderer

        self.display = display
        self.renderer = Renderer(display.size, display.safe_area)
        self.animator = Animator(self.renderer, lambda dirty: display.present(self.renderer.frame, dirty), clock)
        self.liveliness = Liveliness()
        self.player: "SoundPlayer | None" = None
        self.shown: View | None = None

    def show(self, view: View) -> None:
        """Draw ``view`` (animated from the view before, with motion on) and play what it sounds like: what
        changed is worked out once, for both."""
        before, lively = self.shown, self.liveliness
        motion, sound = before is not None and lively.motion(), before is not None and lively.sound()
        change = view_change(before, view) if motion or sound else None
        self.animator.show(view, change if motion else None)
        if lively.play_through:
            self.animator.play_through()
        if sound and change is not None:
            self.start_sound()
            if self.player is not None:
                self.player.hear(change, lively.volume())
        self.shown = view

    def forget(self) -> None:
        """Draw the next view whole and without motion: a frame left half drawn by a failure is not trusted."""
        self.renderer.invalidate()
        self.shown = None

    def due(self) -> float | None:
        """When the running animation wants its next frame (``None``: nothing moves)."""
        return self.animator.due()

    def tick(self) -> None:
        """Draw the animation's frame for now, if one is due."""
        due = self.animator.due()
        if due is not None and self.animator.clock() >= due:
            self.animator.tick()

    def finish(self) -> None:
        """End a running animation at once: the view it was going to, drawn plainly."""
        self.animator.finish()

    def start_sound(self) -> None:
        """Open audio, once, if sound is on: called after the first frame, which it never delays."""
        if self.player is None and self.liveliness.sound():
            from audio.player import SoundPlayer

            self.player = SoundPlayer()
            self.player.open()

    def locate(self, view: View, x: int, y: int) -> Hit:
        """What a tap at screen point (x, y) lands on, through the display's rotation."""
        return self.renderer.hit_at(view, *self.display.to_frame_point(x, y))

    def close(self) -> None:
        if self.player is not None:
            self.player.close()
        self.display.close()
