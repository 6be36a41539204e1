"""The composition root: options → session, display, inputs → the one main loop.

This is the only module that imports ``display`` and ``input``. Everything it
builds is chosen explicitly (flags, the settings file, the environment); if
the screen that was asked for cannot be opened the console exits non-zero
with a message that says what to do, rather than falling back silently.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from pyramid.system import device_info
from pyramid.actions import Action
from pyramid.errors import PyramidError
from pyramid.options import OptionError, Options, parse_options
from pyramid.engine.rules import Redeals, preset
from pyramid.scripting import OutputError, ScriptSource, Trace, dump_state, write_output
from pyramid.system.sdnotify import Notifier
from pyramid.console.menus import open_console
from pyramid.console.screen import DealChoice
from pyramid.console.session import Session
from pyramid.view import Hit, View

if TYPE_CHECKING:
    from display.base import Display
    from display.settings import HardwareSettings
    from input.hub import InputHub

log = logging.getLogger("pyramid")


class ActionSource(Protocol):
    """Where the main loop gets actions: the input hub, or a script."""

    def wait(self, timeout: float | None) -> list[Action] | None:
        """Block up to ``timeout`` seconds; ``[]`` on time-out, ``None`` when it is time to stop."""


class Frontend:
    """A display plus the renderer that draws views for it."""

    def __init__(self, display: "Display") -> None:
        from display.render import Renderer

        self.display = display
        self.renderer = Renderer(display.size, display.safe_area)
        self.shown: View | None = None

    def show(self, view: View) -> None:
        dirty = self.renderer.draw(view)
        self.display.present(self.renderer.frame, dirty)
        self.shown = view

    def locate(self, view: View, x: int, y: int) -> Hit:
        """What a tap at screen point (x, y) lands on, through the display's rotation."""
        return self.renderer.hit_at(view, *self.display.to_frame_point(x, y))

    def close(self) -> None:
        self.display.close()


def run_loop(session: Session, frontend: Frontend, source: ActionSource, notifier: Notifier,
             after_action: Callable[[Session], None] = lambda session: None) -> None:
    """The one main loop: wait for actions, apply them, redraw only when the view changed.

    It blocks in ``source.wait`` (no busy loop); the time-out is the watchdog's
    half-period, so a hung console is noticed and a healthy idle one stays idle.
    The first frame is drawn here unless the caller has shown it already.
    """
    view = frontend.shown if frontend.shown is not None else show_first_frame(session, frontend, notifier)
    timeout = notifier.watchdog_interval()
    while True:
        actions = source.wait(timeout)
        if actions is None:
            break
        for action in actions:
            session.handle(action, lambda x, y: frontend.locate(session.view(), x, y))
            after_action(session)
        new_view = session.view()
        if new_view != view:
            frontend.show(new_view)
            view = new_view
        notifier.watchdog()
    notifier.stopping()


def show_first_frame(session: Session, frontend: Frontend, notifier: Notifier) -> View:
    """Draw the session's screen and tell systemd the console is up (``READY=1``: the screen is on)."""
    view = session.view()
    frontend.show(view)
    notifier.ready()
    return view


def build_session(options: Options) -> Session:
    """The session over the player's store, on its first screens; ``--rules`` overrides the
    remembered preset.

    The scripted mode plays on a scratch store unless the data directory is named
    (``PYRAMID_DATA_DIR``, or systemd's ``STATE_DIRECTORY``): a demo or a bug report
    run on a desktop must not abandon the player's saved game or count its result.
    """
    from pyramid.saved.store import Store

    rules = preset(options.rules) if options.rules else None
    named = any(os.environ.get(name) for name in ("PYRAMID_DATA_DIR", "STATE_DIRECTORY"))
    store = Store.open() if named or not options.scripted else Store.in_memory()
    session = Session(rules, DealChoice(cards=options.deal, number=options.deal_number), store=store)
    open_console(session, options.game, options.redeals)
    return session


def load_hardware_settings(options: Options) -> "HardwareSettings":
    """The settings file (screen, buttons); what is wrong in it is told, and defaults used."""
    from display.settings import load_settings

    settings = load_settings(options.settings)
    for problem in settings.problems:
        print(f"pyramid: {problem}", file=sys.stderr)
    return settings


def open_frontend(options: Options, settings: "HardwareSettings") -> Frontend:
    from display.auto import open_display

    display = open_display(options.display, options.size, settings.display)
    log.info("display: %s", display.description)
    return Frontend(display)


def run_scripted(options: Options) -> int:
    """Play the script through the main loop, then write the outputs asked for.

    An output that cannot be written is one line naming the option and exit
    status 1; SIGTERM stops the script (128 + 15, and no final outputs: the
    script did not finish).
    """
    session = build_session(options)
    frontend = open_frontend(options, load_hardware_settings(options))
    session.hardware.append(f"Display: {frontend.display.description}")
    source = ScriptSource(options.script or (), options.script_delay_ms / 1000)
    try:
        with contextlib.closing(Trace(options.trace)) if options.trace else contextlib.nullcontext() as trace, \
                source.stopping_on(signal.SIGTERM):
            if trace:
                trace.write(session.state())
            run_loop(session, frontend, source, Notifier.from_environ(),
                     after_action=(lambda s: trace.write(s.state())) if trace else (lambda s: None))
        if source.stopped_by is not None:
            return 128 + source.stopped_by
        if options.dump_state:
            dump_state(options.dump_state, session.state())
        if options.screenshot:
            write_output("--screenshot", options.screenshot, frontend.display.screenshot(options.screenshot))
    except OutputError as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return 1
    finally:
        frontend.close()
    return 0


class StopRequest:
    """The SIGTERM handler: remembers a stop that comes before the input hub exists, then stops the hub.

    The first frame is on screen before the inputs open, so SIGTERM can come
    while they are still opening; the hub is not made earlier because its
    modules would then load before the first frame.
    """

    def __init__(self) -> None:
        self.requested = False
        self._hub: "InputHub | None" = None

    def __call__(self, number: int, frame: object) -> None:
        self.requested = True
        if self._hub is not None:
            self._hub.stop()

    def hand_to(self, hub: "InputHub") -> None:
        """From now on a stop goes to ``hub``; one that came already is passed on at once."""
        self._hub = hub
        if self.requested:
            hub.stop()


def run_console(options: Options) -> int:
    """The console proper: the screen, the input sources, and the loop until asked to stop.

    The first frame is shown before the input sources open: importing
    gpiozero alone takes about as long as starting pygame, and the player
    should see the menu rather than a dark screen meanwhile. A source that
    cannot open still ends the console with its message, and the updater,
    which watches the console for a while after ``READY=1``, still sees that.
    """
    session = build_session(options)
    settings = load_hardware_settings(options)
    frontend = open_frontend(options, settings)
    notifier = Notifier.from_environ()
    stop = StopRequest()
    signal.signal(signal.SIGTERM, stop)  # SDL's own handler would only queue a quit event nobody reads yet
    try:
        show_first_frame(session, frontend, notifier)
        hub = open_input(options, frontend.display, settings)
    except BaseException:
        frontend.close()
        raise
    stop.hand_to(hub)
    session.hardware.append(f"Display: {frontend.display.description}")
    session.input_log = lambda: [str(record) for record in hub.recent_presses]
    session.input_devices = lambda: list(hub.connected_devices)
    try:
        run_loop(session, frontend, hub, notifier)
    finally:
        hub.close()
        frontend.close()
    return 0


def open_input(options: Options, display: "Display", settings: "HardwareSettings") -> "InputHub":
    """The input hub with the sources asked for: ``--input``, else the settings file, else by display.

    A window gets SDL's keyboard and mouse; the console on KMS or a framebuffer
    reads evdev devices (remotes, gamepads, keyboards, touchscreens), because
    SDL does not know the keys TV remotes send.
    """
    import pygame

    from input import keymap, sources

    # The text read once by load_hardware_settings: a second read could fail (or differ) after READY=1.
    config = keymap.InputSettings.from_settings(settings.sections, settings.text, str(settings.path or "settings"))
    for problem in config.problems:
        print(f"pyramid: {problem}", file=sys.stderr)
    if options.inputs:
        names = keymap.parse_sources(",".join(options.inputs))
    elif config.sources_given:
        names = config.sources
    else:
        names = ("keyboard",) if display.name == "window" else ("evdev",)
    if display.name == "window" and "keyboard" not in names:
        names = ("keyboard", *names)  # a window must pump SDL's events, or it stops answering
    # The screen lost its picture (exposed, shown again, resized from outside): paint it again.
    repaint = {pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED, pygame.WINDOWMAXIMIZED,
               pygame.WINDOWSIZECHANGED, pygame.WINDOWRESIZED, pygame.VIDEORESIZE, pygame.VIDEOEXPOSE}
    on_other_event = (lambda event: display.refresh() if event.type in repaint else None)
    return sources.open_hub(names, lambda: display.rotation.panel_size(display.size), config,
                            on_other_event=on_other_event)


def self_test() -> int:
    """Check an installed release before it is switched to (used by the updater).

    Imports every part, opens a data store (a scratch one: a self-test must
    never migrate the player's data before the switch), and renders one frame
    offscreen. Prints what failed and exits non-zero on any failure.
    """
    import tempfile

    os.environ["SDL_VIDEODRIVER"] = "offscreen"
    from display import auto, fbdev, kmsdrm, window  # noqa: F401 (the check is that they import)
    from display.headless import HeadlessDisplay
    from input import hub, keyboard, sources  # noqa: F401 (gpio and evdev need their libraries: checked at start)

    from pyramid.console.duel import screens  # noqa: F401
    from pyramid.engine import solver  # noqa: F401

    from pyramid.saved.store import Store

    with tempfile.TemporaryDirectory() as scratch:
        store = Store.open(Path(scratch) / "self-test.db")
        if store.location is None:
            print(f"pyramid: self-test: the data store did not open: {store.notice}", file=sys.stderr)
            return 1
        store.close()
    frontend = Frontend(HeadlessDisplay((480, 320)))
    session = Session(preset("retrohub"), DealChoice(number=1))
    open_console(session, "pyramid", Redeals(0))
    frontend.show(session.view())
    frontend.close()
    print(f"pyramid {device_info.software_version()}: self-test passed")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pyramid`` command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    logging.basicConfig(level=os.environ.get("PYRAMID_LOG", "WARNING").upper(),
                        format="pyramid: %(message)s")
    if argv[:1] == ["solve"]:
        from pyramid.solve_cli import main as solve_main

        return solve_main(argv[1:])
    try:
        options, show_version = parse_options(argv)
    except OptionError as error:
        print(f"pyramid: error: {error}", file=sys.stderr)
        return 2
    if show_version:
        print(device_info.software_version())
        return 0
    from display.errors import DisplayError
    from input.errors import InputSettingsError, SourceUnavailableError

    try:
        if options.self_test:
            return self_test()
        return run_scripted(options) if options.scripted else run_console(options)
    except (DisplayError, SourceUnavailableError) as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return 1
    except (InputSettingsError, PyramidError) as error:
        print(f"pyramid: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
