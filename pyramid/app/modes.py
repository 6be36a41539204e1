"""The two ways the console runs: the console proper (screen, input sources, the loop until stopped)
and the scripted mode (a script through the same loop, then its outputs)."""

from __future__ import annotations

import contextlib
import signal
import sys
from typing import TYPE_CHECKING

from pyramid.app.console_trace import ConsoleTrace
from pyramid.app.loop import announce_ready, run_loop
from pyramid.app.settings_file import HardwareSettings, cec_settings, input_settings
from pyramid.app.start import open_console_parts
from pyramid.console.protocols import PressSeen
from pyramid.console.session import Session
from pyramid.options import Options
from pyramid.scripting import OutputError, ScriptSource, ScriptWait, Trace, dump_state, write_output
from pyramid.system.sdnotify import Notifier

if TYPE_CHECKING:
    from display.base import Display
    from input.hub import InputHub
    from input.keymap import InputSettings


def run_scripted(options: Options) -> int:
    """Play the script through the main loop, then write the outputs asked for.

    An output that cannot be written is one line naming the option and exit
    status 1; SIGTERM stops the script (128 + 15, and no final outputs: the
    script did not finish).
    """
    settings, sink, session, frontend = open_console_parts(options)
    source = ScriptSource(options.script or (), options.script_delay_ms / 1000, probe=ConsoleWaits(session))
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


class ConsoleWaits:
    """What the script's waits read of the console (:class:`~pyramid.scripting.ScriptProbe`): the table's
    news and state, the daily results the table server has not taken yet, the friends' results shown."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def heard(self, item: object) -> bool:
        return self.session.tables.heard(item)

    def reached(self, wait: ScriptWait) -> bool:
        if wait.goal == "shared":
            return not self.session.store.pending_shares()
        if wait.goal == "friends":
            friends = self.session.friends
            return sum(len(friends.entries(board)) for board in friends.following) == wait.results
        return self.session.tables.reached(wait.goal)


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
    try:
        trace_file = Trace(options.trace) if options.trace else None
    except OutputError as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return 1
    settings, sink, session, frontend = open_console_parts(options)
    session.can_quit = frontend.display.name == "window"  # a console is switched off, a window closed
    notifier = Notifier.from_environ()
    stop = StopRequest()
    signal.signal(signal.SIGTERM, stop)  # SDL's own handler would only queue a quit event nobody reads yet
    try:
        frontend.show(session.view())
        config = input_settings(settings)
        keys = config.keys
        hub = open_input(options, frontend.display, config)
    except BaseException:
        session.tables.stop()
        frontend.close()
        if trace_file is not None:
            with contextlib.suppress(OutputError):
                trace_file.close()
        raise
    stop.hand_to(hub)
    from pyramid.app.hdmi_cec import start_tv_bus  # after the first frame, as the inputs

    tv = start_tv_bus(cec_settings(settings), hub, keys)
    if tv is not None:
        session.cec_statuses = tv.service.statuses
        if tv.settings.tv_standby and session.power_off is not None:
            session.tv_standby_request = tv.service.standby_tv
    announce_ready(frontend, notifier)
    sink.attach(hub.post)
    session.input_log = lambda: [PressSeen(str(record.action), record.device) for record in hub.recent_presses]
    session.input_devices = lambda: list(hub.connected_devices)
    trace = ConsoleTrace(trace_file, session, lambda: hub.recent_presses) if trace_file is not None else None
    try:
        run_loop(session, frontend, hub, notifier, after_action=(lambda s: tv.pressed()) if tv else (lambda s: None),
                 after_input=trace.after_input if trace else (lambda shown: None))
    finally:
        if trace is not None:
            trace.close()
        if tv is not None:
            tv.stop()
        session.tables.stop()
        hub.close()
        frontend.close()
    return 0


def open_input(options: Options, display: "Display", config: "InputSettings") -> "InputHub":
    """The input hub with the sources asked for: ``--input``, else the settings file, else by display.

    A window gets SDL's keyboard and mouse; the console on KMS or a framebuffer
    reads evdev devices (remotes, gamepads, keyboards, touchscreens), because
    SDL does not know the keys TV remotes send.
    """
    import pygame

    from input import keymap, sources

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
