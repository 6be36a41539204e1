"""Motion in the real main loop: frames only while an animation runs, and a press never waits for one.

The loop (``pyramid.app.loop.run_loop``) drives a real session and renderer; the
source of actions is a script that also turns the animator's clock, so what
is checked does not depend on the machine's speed.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from pathlib import Path  # noqa: E402
from typing import Sequence  # noqa: E402

import pygame  # noqa: E402

from display.headless import HeadlessDisplay  # noqa: E402
from display.motion import FRAME  # noqa: E402
from display.rect import Rect  # noqa: E402
from display.render import Renderer  # noqa: E402
from pyramid.actions import Action  # noqa: E402
from pyramid.app.frontend import Frontend, Liveliness  # noqa: E402
from pyramid.app.loop import run_loop  # noqa: E402
from pyramid.app.start import open_console_parts  # noqa: E402
from pyramid.console.menus import open_console  # noqa: E402
from pyramid.console.protocols import DealChoice  # noqa: E402
from pyramid.console.session import Session  # noqa: E402
from pyramid.engine.cards import parse_deal  # noqa: E402
from pyramid.engine.rules import Redeals  # noqa: E402
from pyramid.options import parse_options  # noqa: E402
from pyramid.scripting import ScriptSource  # noqa: E402
from pyramid.system.sdnotify import Notifier  # noqa: E402

from deals import clearable_deal  # noqa: E402
from fake_clock import FakeClock


class CountingDisplay(HeadlessDisplay):
    """The headless screen, counting the frames presented."""

    def __init__(self) -> None:
        super().__init__((480, 320))
        self.presented = 0

    def present(self, frame: pygame.Surface, dirty: Sequence[Rect]) -> None:
        self.presented += 1
        super().present(frame, dirty)


class Steps:
    """An action source that plays ``plan``: an action, or ``"wait"`` (the wait runs out: the clock
    moves by the time-out the loop asked for). It notes each time-out and what the loop saw then."""

    def __init__(self, plan: list[str], clock: FakeClock, frontend: Frontend) -> None:
        self.plan, self.clock, self.frontend = list(plan), clock, frontend
        self.timeouts: list[float | None] = []
        self.running_at_press: list[bool] = []

    def wait(self, timeout: float | None) -> list[object] | None:
        self.timeouts.append(timeout)
        if not self.plan:
            return None
        step = self.plan.pop(0)
        if step == "wait":
            assert timeout is not None, "an animation is running: the loop must wake for its next frame"
            self.clock.now += timeout
            return []
        self.running_at_press.append(self.frontend.animator.running)
        return [Action(step)]


def same_pixels(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def test_a_press_during_an_animation_acts_at_once_and_the_last_frame_is_the_plain_view() -> None:
    clock = FakeClock(50.0)
    session = Session(None, DealChoice(cards=parse_deal(clearable_deal())))
    open_console(session, "pyramid", Redeals(0))
    frontend = Frontend(CountingDisplay(), clock=clock)
    frontend.liveliness = Liveliness(motion=lambda: True)
    # The cursor starts on the king: ok removes it (an animation starts), a frame is due and drawn,
    # then the cursor is on the ace beside it, and ok chooses it while the king is still on its way.
    steps = Steps(["ok", "wait", "ok"], clock, frontend)
    run_loop(session, frontend, steps, Notifier(None))
    try:
        assert steps.timeouts[1] is not None and steps.timeouts[1] <= FRAME, "frames at a fixed rate while it runs"
        assert steps.running_at_press == [False, True], "the press came during the animation"
        game = session.state()["game"]
        assert game["pyramid"][6][0] is None and game["chosen"] == "Ac", "both presses acted, none waited"
        assert not frontend.animator.running, "the loop ends on the view itself"
        plain = Renderer((480, 320))
        plain.draw(session.view())
        assert same_pixels(frontend.renderer.frame, plain.frame)
    finally:
        frontend.close()


class UntilIdle(Steps):
    """Plays its actions, then lets every wait run out until the loop asks for none (it would sleep)."""

    def wait(self, timeout: float | None) -> list[object] | None:
        if self.plan:
            return super().wait(timeout)
        self.timeouts.append(timeout)
        if timeout is None:
            return None
        self.clock.now += timeout
        return []


def test_once_the_animation_is_over_the_loop_sleeps_until_the_next_press() -> None:
    clock = FakeClock(50.0)
    session = Session(None, DealChoice(cards=parse_deal(clearable_deal())))
    open_console(session, "pyramid", Redeals(0))
    display = CountingDisplay()
    frontend = Frontend(display, clock=clock)
    frontend.liveliness = Liveliness(motion=lambda: True)
    steps = UntilIdle(["ok"], clock, frontend)
    run_loop(session, frontend, steps, Notifier(None))
    frontend.close()
    frames = steps.timeouts[1:-1]
    assert 3 <= len(frames) <= 12 and all(timeout is not None and timeout <= FRAME for timeout in frames)
    assert steps.timeouts[-1] is None, "no time-out once motion ends (no watchdog here): idle is idle"
    assert display.presented == 2 + len(frames), "the first frame, the removal, one per frame due"


def scripted_frames(tmp_path: Path, motion: str) -> tuple[int, bytes, list[dict]]:
    """Frames presented, the final screenshot and the states, for a script run as ``--motion motion``."""
    shot = tmp_path / f"{motion}.png"
    args = ["--display", "headless", "--size", "480x320", "--game", "pyramid", "--redeals", "none",
            "--deal", clearable_deal(), "--script", "ok right ok left", "--screenshot", str(shot)]
    options, _ = parse_options(args + ([] if motion == "default" else ["--motion", motion]))
    _, _, session, frontend = open_console_parts(options)
    frontend.display.close()  # the same screen, counting what it is shown
    display = CountingDisplay()
    frontend.display = display
    frontend.animator.present = lambda dirty: display.present(frontend.renderer.frame, dirty)
    states: list[dict] = []
    run_loop(session, frontend, ScriptSource(options.script or ()), Notifier(None),
             after_action=lambda s: states.append(s.state()))
    picture = display.screenshot(shot)
    frontend.close()
    return display.presented, picture, states


def test_the_scripted_mode_has_no_motion_unless_asked_and_ends_on_the_same_frame(tmp_path: Path) -> None:
    default, default_shot, default_states = scripted_frames(tmp_path, "default")
    moving, moving_shot, moving_states = scripted_frames(tmp_path, "on")
    assert default == 5, "without motion: the first frame and one per action"
    assert moving >= default + 5, "--motion on draws every frame of the removal's animation"
    assert moving_states == default_states, "the trace stays as it is"
    assert moving_shot == default_shot, "the last frame is the one drawn without motion"


def test_settings_motion_and_sound_reach_the_frontend_at_once_unless_the_run_decides(tmp_path: Path) -> None:
    from pyramid.app.start import liveliness

    console, _ = parse_options(["--display", "headless"])
    session = Session(None)
    lively = liveliness(console, session)
    assert lively.motion() and lively.sound() and lively.volume() == 75, "the settings' defaults"
    session.change_setting("motion", False)
    session.change_setting("volume", 25)
    assert not lively.motion() and lively.volume() == 25, "Settings → Motion, Volume: at the next view"
    forced, _ = parse_options(["--display", "headless", "--motion", "on", "--sound", "off"])
    assert liveliness(forced, session).motion() and not liveliness(forced, session).sound()
    scripted, _ = parse_options(["--display", "headless", "--script", "ok"])
    assert not liveliness(scripted, session).motion() and not liveliness(scripted, session).sound()
    assert liveliness(scripted, session).play_through
