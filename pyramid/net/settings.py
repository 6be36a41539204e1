"""The ``[network]`` table of the hardware settings file: the port a table listens on.

The file is the owner's (``/boot/firmware/pyramid.toml`` on a Pi, edited on
another computer), so a wrong value must never stop the console: each problem
is one line naming the key and the default used instead, and the rest of the
table still counts. ``pyramid/app/settings_file.py`` reads the file and hands
this table here (``HardwareSettings.sections``); reading it here keeps the
network's settings with the network.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from pyramid.net.limits import DEFAULT_PORT

#: How much of a wrong value a problem line quotes.
SHOWN = 40

#: Ports below this need privileges the console does not have (its unit drops every capability).
LOWEST_PORT = 1024


class NetworkSettings(NamedTuple):
    """The port tables listen on (and that "Join by address" starts from), and what was wrong in the file."""

    port: int = DEFAULT_PORT
    problems: tuple[str, ...] = ()


def read_network_settings(sections: Mapping[str, object], source: str = "settings") -> NetworkSettings:
    """Read ``sections["network"]`` (absent: the defaults); ``source`` names the file in the problems."""
    table = sections.get("network")
    if table is None:
        return NetworkSettings()
    if not isinstance(table, Mapping):
        return NetworkSettings(problems=(f"{source}: [network] must be a table; using port {DEFAULT_PORT}",))
    problems = [f"{source}: unknown key {_shown(key)} in [network], ignored" for key in table if key != "port"]
    port = table.get("port", DEFAULT_PORT)
    if type(port) is not int or not LOWEST_PORT <= port <= 65535:
        problems.append(f"{source}: [network] port = {_shown(port)} is not a port from {LOWEST_PORT} to 65535;"
                        f" using {DEFAULT_PORT}")
        port = DEFAULT_PORT
    return NetworkSettings(port, tuple(problems))


def _shown(value: object) -> str:
    """``value`` as the file wrote it, cut short: a problem is one line, whatever the file holds."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"
