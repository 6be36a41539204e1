"""The updater's check of an installed release before it is switched to."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from pyramid.app.frontend import Frontend
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.rules import Redeals, preset
from pyramid.options import Options
from pyramid.system import device_info


def self_test(options: Options) -> int:
    """Check an installed release before it is switched to (used by the updater).

    Reads the settings file as the console will (``--settings``, else where it
    is found), imports every part, opens a data store (a scratch one: a
    self-test must never migrate the player's data before the switch), and
    renders one frame offscreen. Prints what failed and exits non-zero on any
    failure.
    """
    import tempfile

    from pyramid.app.settings_file import check_every_table, load_hardware_settings

    settings = load_hardware_settings(options)
    try:
        check_every_table(settings)
    except Exception as error:  # anything at all: the console would stop on it at every start
        print(f"pyramid: self-test: the settings file {settings.name} would stop the console: "
              f"{type(error).__name__}: {error}", file=sys.stderr)
        return 1

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
