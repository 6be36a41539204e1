"""The ``pyramid`` command: its options, the mode they ask for, and every error as one line and an exit status."""

from __future__ import annotations

import logging
import os
import sys
from typing import Sequence

from pyramid.errors import PyramidError
from pyramid.options import OptionError, parse_options
from pyramid.system import device_info


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pyramid`` command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    logging.basicConfig(level=os.environ.get("PYRAMID_LOG", "WARNING").upper(),
                        format="pyramid: %(message)s")
    if argv[:1] == ["solve"]:
        from pyramid.solve_cli import main as solve_main

        return solve_main(argv[1:])
    if argv[:1] == ["allow-server"]:
        from pyramid.app.server_allowance import main as allow_main

        return allow_main(argv[1:])
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
    # The modes load the screen's libraries: only now, once the options are known (``solve`` and
    # ``--version`` need none) and pygame's banner is turned off.
    from display.errors import DisplayError
    from input.errors import InputSettingsError, SourceUnavailableError
    from pyramid.app.modes import run_console, run_scripted
    from pyramid.app.self_test import self_test

    try:
        if options.self_test:
            return self_test(options)
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
