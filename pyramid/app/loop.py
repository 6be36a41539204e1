"""The one main loop, the first frame and ``READY=1``: the console is up, and stays alive for the watchdog."""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from pyramid.actions import Action
from pyramid.app.frontend import Frontend
from pyramid.console.session import Session
from pyramid.system.sdnotify import Notifier
from pyramid.view import View


class ActionSource(Protocol):
    """Where the main loop gets actions (and the network's events): the input hub, or a script."""

    def wait(self, timeout: float | None) -> Sequence[object] | None:
        """Block up to ``timeout`` seconds; ``[]`` on time-out, ``None`` when it is time to stop."""


def run_loop(session: Session, frontend: Frontend, source: ActionSource, notifier: Notifier,
             after_action: Callable[[Session], None] = lambda session: None,
             after_input: Callable[[bool], None] = lambda shown: None) -> None:
    """The one main loop: wait for actions, apply them, redraw only when the view changed.

    It blocks in ``source.wait`` (no busy loop); the time-out is the watchdog's
    half-period, so a hung console is noticed and a healthy idle one stays idle.
    Items that are not actions are the network's events, posted to the same
    queue by the network thread: they reach the session here, in order.
    The first frame is drawn here unless the caller has shown it already.
    ``after_action`` is called after each action, ``after_input`` once the actions read together
    are applied and their frame drawn (``True``; ``False`` when they changed nothing on screen).
    """
    view = frontend.shown if frontend.shown is not None else show_first_frame(session, frontend, notifier)
    timeout = notifier.watchdog_interval()
    while True:
        # A screen that moves by itself (a replay playing) and a running animation wake the loop
        # when due; input is read all the while, so nothing waits behind an animation.
        waits = [timeout, seconds_until(session.due(), session.clock),
                 seconds_until(frontend.due(), frontend.animator.clock)]
        wait = min((seconds for seconds in waits if seconds is not None), default=None)
        items = source.wait(wait)
        if items is None:
            break
        if not items:  # the wait ran out: nothing pressed, the replay goes on, the animation draws its next frame
            session.tick()
            frontend.tick()
        for item in items:
            if isinstance(item, Action):
                session.handle(item, lambda x, y: frontend.locate(session.view(), x, y))
                after_action(session)
            else:
                session.post_event(item)  # posted by the network thread
        if session.quit_requested:  # "Quit" on a desktop
            break
        new_view = session.view()
        changed = new_view != view
        if changed:  # a press during an animation ends it: the new view is drawn at once
            view = show_or_recover(session, frontend, new_view)
        elif items:
            frontend.finish()  # a press that changed nothing still ends the animation at once
        if any(isinstance(item, Action) for item in items):
            after_input(changed)
        notifier.watchdog()
    frontend.finish()  # what is left on screen (and in a screenshot) is the last view, whole
    notifier.stopping()


def seconds_until(due: float | None, clock: Callable[[], float]) -> float | None:
    """Seconds from now on ``clock`` until ``due`` (0 when past; ``None`` when nothing is due)."""
    return None if due is None else max(0.0, due - clock())


def show_first_frame(session: Session, frontend: Frontend, notifier: Notifier) -> View:
    """Draw the session's screen and tell systemd the console is up (see :func:`announce_ready`)."""
    view = show_or_recover(session, frontend, session.view())
    announce_ready(frontend, notifier)
    return view


def show_or_recover(session: Session, frontend: Frontend, view: View) -> View:
    """Draw ``view``; if drawing it fails, the session goes back to its menu (:meth:`Session.recover`),
    which is drawn in full instead. Returns the view on screen. A menu that cannot be drawn either
    is a defect of the release, not of data, and ends the console."""
    try:
        frontend.show(view)
        return view
    except Exception:
        session.recover("being drawn")
    frontend.forget()
    view = session.view()
    frontend.show(view)
    return view


def announce_ready(frontend: Frontend, notifier: Notifier) -> None:
    """``READY=1``: the screen is on and the input is read, so a key pressed from now on counts;
    audio opens only then."""
    notifier.ready()
    frontend.start_sound()
