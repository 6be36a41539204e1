"""The composition root: options → session, display, inputs → the one main loop.

This is the only module that imports ``display``, ``input`` and ``audio``. Everything it
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
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NamedTuple, Protocol, Sequence

from pyramid.system import device_info
from pyramid.actions import Action
from pyramid.errors import PyramidError
from pyramid.options import OptionError, Options, parse_options
from pyramid.engine.rules import Redeals, preset
from pyramid.scripting import OutputError, ScriptSource, Trace, dump_state, write_output
from pyramid.system.sdnotify import Notifier
from pyramid.console.menus import open_console
from pyramid.console.screen import DealChoice, PressSeen
from pyramid.console.net.tables import Tables
from pyramid.console.thinking import Thinker
from pyramid.console.session import Session
from pyramid.view import Hit, View

if TYPE_CHECKING:
    from audio.player import SoundPlayer
    from display.base import Display
    from display.settings import HardwareSettings
    from input.hub import InputHub
    from pyramid.net.network import Network

log = logging.getLogger("pyramid")


class ActionSource(Protocol):
    """Where the main loop gets actions (and the network's events): the input hub, or a script."""

    def wait(self, timeout: float | None) -> Sequence[object] | None:
        """Block up to ``timeout`` seconds; ``[]`` on time-out, ``None`` when it is time to stop."""


class EventSink:
    """Where the network thread posts its events: the main loop's queue once it exists.

    The network can start before the queue does (``--table`` opens a table
    while the session is built, before the inputs open); what it posts until
    then is kept and handed over, in order, by :meth:`attach`.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._early: list[object] = []
        self._post: Callable[[object], None] | None = None

    def __call__(self, event: object) -> None:
        with self._lock:
            if self._post is None:
                self._early.append(event)
                return
            post = self._post
        post(event)

    def attach(self, post: Callable[[object], None]) -> None:
        with self._lock:
            self._post = post
            early, self._early = self._early, []
        for event in early:
            post(event)


def network_opener(sink: EventSink) -> Callable[[str], "Network"]:
    """How the console makes its :class:`~pyramid.net.network.Network` (only when a network screen needs it)."""

    def open_network(name: str) -> "Network":
        from pyramid.net.network import Network

        return Network(name, sink)

    return open_network


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
        """Draw ``view`` (animated from the view before, with motion on) and play what it sounds like."""
        before, lively = self.shown, self.liveliness
        self.animator.show(view, before is not None and lively.motion())
        if lively.play_through:
            self.animator.play_through()
        if before is not None and lively.sound():
            self.start_sound()
            if self.player is not None:
                self.player.hear(before, view, lively.volume())
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


def run_loop(session: Session, frontend: Frontend, source: ActionSource, notifier: Notifier,
             after_action: Callable[[Session], None] = lambda session: None) -> None:
    """The one main loop: wait for actions, apply them, redraw only when the view changed.

    It blocks in ``source.wait`` (no busy loop); the time-out is the watchdog's
    half-period, so a hung console is noticed and a healthy idle one stays idle.
    Items that are not actions are the network's events, posted to the same
    queue by the network thread: they reach the session here, in order.
    The first frame is drawn here unless the caller has shown it already.
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
        if new_view != view:  # a press during an animation ends it: the new view is drawn at once
            view = show_or_recover(session, frontend, new_view)
        elif items:
            frontend.finish()  # a press that changed nothing still ends the animation at once
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


def build_session(options: Options, settings: "HardwareSettings", sink: EventSink) -> Session:
    """The session over the player's store, on its first screens; ``--rules`` overrides the
    remembered preset.

    The scripted mode plays on a scratch store unless the data directory is named
    (``PYRAMID_DATA_DIR``, or systemd's ``STATE_DIRECTORY``): a demo or a bug report
    run on a desktop must not abandon the player's saved game or count its result.
    A store on disk is opened only once this process holds the data directory's
    lock: one console per data directory.
    The network tables get the settings file's port (``--table-port`` wins) and
    post their events to ``sink``; ``--table`` opens or joins a table at once.
    """
    from pyramid.saved.lock import hold_data_directory
    from pyramid.saved.store import Store, data_directory

    rules = preset(options.rules) if options.rules else None
    named = any(os.environ.get(name) for name in ("PYRAMID_DATA_DIR", "STATE_DIRECTORY"))
    if named or not options.scripted:
        hold_data_directory(data_directory())  # DataDirectoryInUseError (an OSError): one line, exit 1
        store = Store.open()
    else:
        store = Store.in_memory()
    port = network_port(settings)
    tables = Tables(network_opener(sink), port if options.table_port is None else options.table_port,
                    options.table_address or "", options.name)
    # Hints search on a worker thread, their answers posted like the network's events; the scripted
    # mode answers at once, so that its traces do not depend on timing.
    thinker = Thinker.inline() if options.scripted else Thinker(sink)
    session = Session(rules, DealChoice(cards=options.deal, number=options.deal_number), store=store, tables=tables,
                      thinker=thinker)
    session.device_language = device_language(settings)
    session.speak(options.language)
    if options.power_off == "logind":
        from pyramid.system.power import power_off

        session.power_off = power_off
    if options.table is None:
        open_console(session, options.game, options.redeals)
    else:
        from pyramid.console.net.lobby import start_table

        open_console(session)
        start_table(session, options.table.host, options.table.port)
    return session


def device_language(settings: "HardwareSettings") -> str:
    """The settings file's ``[console] language`` (the language before the player chooses one in
    Settings); anything wrong in ``[console]`` is told, and English used."""
    from pyramid.console.catalogue import LANGUAGES

    name = settings.path or "settings"
    table = settings.sections.get("console", {})
    if not isinstance(table, dict):
        print(f"pyramid: {name}: 'console' must be a table ([console]); using en", file=sys.stderr)
        return "en"
    for key in table.keys() - {"language"}:
        print(f"pyramid: {name}: unknown setting console.{key} (known: language); ignored", file=sys.stderr)
    language = table.get("language", "en")
    if language not in LANGUAGES:
        print(f"pyramid: {name}: console.language {language!r}: use one of {', '.join(LANGUAGES)}; using en",
              file=sys.stderr)
        return "en"
    return str(language)


def network_port(settings: "HardwareSettings") -> int:
    """The ``[network]`` port of the settings file; what is wrong in the table is told, and the default used."""
    from pyramid.net.settings import read_network_settings

    network = read_network_settings(settings.sections, str(settings.path or "settings"))
    for problem in network.problems:
        print(f"pyramid: {problem}", file=sys.stderr)
    return network.port


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


class ConsoleParts(NamedTuple):
    """What both modes start from: the settings file, the network's event sink, the session, the screen."""

    settings: HardwareSettings
    sink: EventSink
    session: Session
    frontend: Frontend


def open_console_parts(options: Options) -> ConsoleParts:
    """The settings file, the session on its first screens, and the screen; if the screen cannot
    open, the network the session may already have started is stopped before the error goes on."""
    settings = load_hardware_settings(options)
    sink = EventSink()
    session = build_session(options, settings, sink)
    try:
        frontend = open_frontend(options, settings)
    except BaseException:
        session.tables.stop()
        raise
    session.hardware.append(f"Display: {frontend.display.description}")
    frontend.liveliness = liveliness(options, session)
    return ConsoleParts(settings, sink, session, frontend)


def liveliness(options: Options, session: Session) -> Liveliness:
    """Motion and sound as ``--motion`` and ``--sound`` say, else as the player's settings say; the
    scripted mode has neither unless asked, so its traces and its timing stay as they were."""

    def chosen(option: bool | None, setting: Callable[[], bool]) -> Callable[[], bool]:
        if option is not None or options.scripted:
            return lambda: bool(option)
        return setting

    return Liveliness(motion=chosen(options.motion, lambda: session.settings.motion),
                      sound=chosen(options.sound, lambda: session.settings.sound),
                      volume=lambda: session.settings.volume, play_through=options.scripted)


def run_scripted(options: Options) -> int:
    """Play the script through the main loop, then write the outputs asked for.

    An output that cannot be written is one line naming the option and exit
    status 1; SIGTERM stops the script (128 + 15, and no final outputs: the
    script did not finish).
    """
    settings, sink, session, frontend = open_console_parts(options)
    source = ScriptSource(options.script or (), options.script_delay_ms / 1000, probe=session.tables)
    sink.attach(source.post)
    try:
        with contextlib.closing(Trace(options.trace)) if options.trace else contextlib.nullcontext() as trace, \
                source.stopping_on(signal.SIGTERM):
            if options.table is not None and options.table.opens and not table_listening(session, source):
                return 1
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
        from pyramid.console.net.lobby import leave_current

        leave_current(session)  # the script is over: leave the table cleanly
    except OutputError as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return 1
    finally:
        session.tables.stop()
        frontend.close()
    return 0


def table_listening(session: Session, source: ScriptSource) -> bool:
    """``--table open``: wait until the table listens, so the trace's first line has its real port.

    A table that cannot listen ends the run with one line naming the port.
    """
    from pyramid.net.events import Listening, ListenFailed

    arrived = source.until(lambda item: isinstance(item, (Listening, ListenFailed)), 10.0)
    for item in arrived:
        session.post_event(item)
    failed = next((item for item in arrived if isinstance(item, ListenFailed)), None)
    if failed is not None or not any(isinstance(item, Listening) for item in arrived):
        detail = failed.detail if failed is not None else "no answer from the network thread"
        print(f"pyramid: --table open: cannot listen on port {session.tables.port} ({detail})", file=sys.stderr)
        return False
    return True


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
    should see the menu rather than a dark screen meanwhile. ``READY=1``
    waits for the sources, though: "active" then means a key is read (a
    press before a device is open never reaches it; a power-cut trial in the
    emulator pressed Continue in that gap once). A source that cannot open
    ends the console with its message before it is ready: its start fails,
    and the updater sees that.
    """
    settings, sink, session, frontend = open_console_parts(options)
    session.can_quit = frontend.display.name == "window"  # a console is switched off, a window closed
    notifier = Notifier.from_environ()
    stop = StopRequest()
    signal.signal(signal.SIGTERM, stop)  # SDL's own handler would only queue a quit event nobody reads yet
    try:
        frontend.show(session.view())
        hub = open_input(options, frontend.display, settings)
    except BaseException:
        session.tables.stop()
        frontend.close()
        raise
    stop.hand_to(hub)
    announce_ready(frontend, notifier)
    sink.attach(hub.post)
    session.input_log = lambda: [PressSeen(str(record.action), record.device) for record in hub.recent_presses]
    session.input_devices = lambda: list(hub.connected_devices)
    try:
        run_loop(session, frontend, hub, notifier)
    finally:
        session.tables.stop()
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
    from audio import cues, player, synth  # noqa: F401

    from pyramid.console.duel import screens  # noqa: F401
    from pyramid.engine import solver  # noqa: F401

    from pyramid.console.wording import describe_notices
    from pyramid.saved.store import Store

    with tempfile.TemporaryDirectory() as scratch:
        store = Store.open(Path(scratch) / "self-test.db")
        if store.location is None:
            print(f"pyramid: self-test: the data store did not open: {describe_notices(store.notices)}", file=sys.stderr)
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
        from pyramid.engine.solver.compiled import core_name

        print(device_info.software_version())
        print(f"solver core: {core_name()}")
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
