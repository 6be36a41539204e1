"""Showing views with motion: the frames of an animation, on time, and never in the way of a press.

The main loop asks :meth:`Animator.due` when the next frame is wanted and
waits no longer than that (the loop still reads input meanwhile); a press acts
at once and ends the animation: the view it leads to is drawn straight away
(:meth:`Animator.show`), or the running one finished (:meth:`Animator.finish`)
when the press changed nothing. Frames come at
a fixed rate only while an animation runs; once it is over ``due`` is ``None``
again and an idle console sleeps. The last frame of an animation is the view
drawn plainly, so motion never changes what is left on the screen.
"""

from __future__ import annotations

import time
from typing import Callable, NamedTuple

from pyramid.view import View
from pyramid.view_change import ViewChange

from .motion import FRAME, Animation, plan
from .rect import Rect
from .render import Renderer, Sprite


class _Cards(NamedTuple):
    """What lies on a table, whatever the cursor, the labels or the panels over it."""

    pyramid: tuple[object, ...]
    stock: int
    waste: tuple[object, ...]


def _cards_of(view: View) -> _Cards | None:
    table = view.table
    return None if table is None else _Cards(table.pyramid, table.stock_count, table.waste)


class _Running(NamedTuple):
    animation: Animation
    scene: list[Sprite]
    started: float


class Animator:
    """Draws views through ``renderer`` and hands each frame's changed rectangles to ``present``."""

    def __init__(self, renderer: Renderer, present: Callable[[list[Rect]], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.renderer = renderer
        self.present = present
        self.clock = clock
        self._view: View | None = None
        self._scene: list[Sprite] = []
        #: The cards of the last table shown, so a table seen again after a page without one (the rules,
        #: a menu over nothing) is not dealt in again.
        self._last_cards: _Cards | None = None
        self._running: _Running | None = None
        self._next_frame = 0.0

    def show(self, view: View, change: ViewChange | None = None) -> None:
        """Draw ``view``; given the ``change`` from the view shown before (:func:`~pyramid.view_change.view_change`,
        worked out once by the frontend, which the sound hears too), the way there first.

        An animation still running is dropped, not finished: the renderer repaints
        from whatever frame of it is on screen, so nothing is sent twice.
        """
        self._running = None
        before, before_scene = self._view, self._scene
        scene = self.renderer.scene_for(view)
        self._view, self._scene = view, scene
        animation = Animation(())
        cards = _cards_of(view)
        back_to_the_same_table = (cards is not None and cards == self._last_cards and before is not None
                                  and before.table is None)
        if cards is not None:
            self._last_cards = cards
        if change is not None and view.table is not None and not back_to_the_same_table:
            table = self.renderer.layout.table(view.table.rows, view.table.fanned)
            animation = plan(change, before_scene, scene, table)
        if not animation.flights:
            self.present(self.renderer.paint(scene))
            return
        self._running = _Running(animation, scene, self.clock())
        self._frame(0.0)

    @property
    def running(self) -> bool:
        return self._running is not None

    def due(self) -> float | None:
        """When the next frame of the running animation is wanted (``None``: nothing moves)."""
        return self._next_frame if self._running is not None else None

    def tick(self) -> None:
        """Draw the frame the clock has come to (the last one, the plain view, once time is up)."""
        if self._running is None:
            return
        progress = (self.clock() - self._running.started) / self._running.animation.duration
        if progress >= 1:
            self.finish()
        else:
            self._frame(progress)

    def finish(self) -> None:
        """End the running animation at once: the view, drawn plainly."""
        if self._running is not None:
            self._running = None
            self.present(self.renderer.paint(self._scene))

    def play_through(self) -> None:
        """Draw every frame of the running animation now, one after the other, then the view.

        For the scripted mode, which does not wait between its steps: the frames
        are the same whatever the machine's speed, and all of them are drawn.
        """
        running = self._running
        if running is None:
            return
        frames = round(running.animation.duration / FRAME)
        for index in range(1, frames):
            self._draw(running, index / frames)
        self.finish()

    def _frame(self, progress: float) -> None:
        if self._running is not None:
            self._draw(self._running, progress)
            self._next_frame = self.clock() + FRAME

    def _draw(self, running: _Running, progress: float) -> None:
        self.present(self.renderer.paint(running.scene, running.animation.overlay(progress)))
