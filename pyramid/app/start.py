"""What both modes start from: the settings file read, the session on its first screens, the screen."""

from __future__ import annotations

import logging
import os
from typing import Callable, NamedTuple

from pyramid.app.frontend import Frontend, Liveliness
from pyramid.app.network import EventSink, network_opener
from pyramid.app.settings_file import HardwareSettings, console_language, load_hardware_settings, network_settings
from pyramid.console.menus import open_console
from pyramid.console.net.tables import Tables
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.console.thinking import Thinker
from pyramid.engine.rules import preset
from pyramid.options import Options

log = logging.getLogger("pyramid")


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
    from pyramid.saved.database import data_directory
    from pyramid.saved.store import Store

    rules = preset(options.rules) if options.rules else None
    named = any(os.environ.get(name) for name in ("PYRAMID_DATA_DIR", "STATE_DIRECTORY"))
    if named or not options.scripted:
        hold_data_directory(data_directory())  # DataDirectoryInUseError (an OSError): one line, exit 1
        store = Store.open()
    else:
        store = Store.in_memory()
    network = network_settings(settings)
    if options.table is not None and options.table.via == "server" and network.server is None:
        from pyramid.options import OptionError

        raise OptionError("--table join:server: needs a table server in the settings file"
                          " ([network] server, user, password_file or cert_file and key_file)")
    tables = Tables(network_opener(sink, network.server),
                    network.port if options.table_port is None else options.table_port,
                    options.table_address or "", options.name, network.server)
    # Hints search on a worker thread, their answers posted like the network's events; the scripted
    # mode answers at once, so that its traces do not depend on timing.
    thinker = Thinker.inline() if options.scripted else Thinker(sink)
    session = Session(rules, DealChoice(cards=options.deal, number=options.deal_number), store=store, tables=tables,
                      thinker=thinker)
    session.device_language = console_language(settings)
    session.speak(options.language)
    session.friends.send_pending()  # daily results made while the table server was out of reach (issue 50)
    if options.power_off == "logind":
        from pyramid.system.power import power_off

        session.power_off = power_off
    if options.table is None:
        open_console(session, options.game, options.redeals)
    else:
        from pyramid.console.net.lobby import start_table

        open_console(session)
        start_table(session, options.table.where)
    return session


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
    session.display_description = frontend.display.description
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
