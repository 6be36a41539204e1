"""The ``[network]`` table of the hardware settings file: the port a table listens on, and the
table server (``server``, ``user``, ``password_file`` or ``cert_file`` and ``key_file``, ``ca_file``: see
:mod:`pyramid.net.server.account`).

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

from pyramid.net.errors import NetError
from pyramid.net.limits import DEFAULT_PORT
from pyramid.net.server.account import ClientCertificate, ServerAccount, check_account, check_path, parse_server_address

#: How much of a wrong value a problem line quotes.
SHOWN = 40

#: Ports below this need privileges the console does not have (its unit drops every capability).
LOWEST_PORT = 1024


#: The keys of ``[network]``.
KEYS = ("port", "server", "user", "password_file", "ca_file", "cert_file", "key_file")
#: The keys of a table server; it needs the first two and a way to sign in: ``password_file``, or
#: ``cert_file`` with ``key_file``. ``ca_file`` is optional (without it the system's CAs are trusted).
SERVER_KEYS = KEYS[1:]


class NetworkSettings(NamedTuple):
    """The port tables listen on (and that "Join by address" starts from), the table server if one
    is set (None: nothing beyond the home is ever contacted), and what was wrong in the file."""

    port: int = DEFAULT_PORT
    problems: tuple[str, ...] = ()
    server: ServerAccount | None = None


def read_network_settings(sections: Mapping[str, object], source: str = "settings") -> NetworkSettings:
    """Read ``sections["network"]`` (absent: the defaults); ``source`` names the file in the problems."""
    table = sections.get("network")
    if table is None:
        return NetworkSettings()
    if not isinstance(table, Mapping):
        return NetworkSettings(problems=(f"{source}: [network] must be a table; using port {DEFAULT_PORT}",))
    problems = [f"{source}: unknown key {_shown(key)} in [network], ignored" for key in table if key not in KEYS]
    port = table.get("port", DEFAULT_PORT)
    if type(port) is not int or not LOWEST_PORT <= port <= 65535:
        problems.append(f"{source}: [network] port = {_shown(port)} is not a port from {LOWEST_PORT} to 65535;"
                        f" using {DEFAULT_PORT}")
        port = DEFAULT_PORT
    server = _server(table, source, problems)
    return NetworkSettings(port, tuple(problems), server)


def _server(table: Mapping[str, object], source: str, problems: list[str]) -> ServerAccount | None:
    """The table server of ``table``, or None (none set, or a value wrong: then a problem line says so)."""
    given = [key for key in SERVER_KEYS if key in table]
    if not given:
        return None
    by_certificate = "cert_file" in table or "key_file" in table
    if by_certificate and "password_file" in table:
        problems.append(f"{source}: [network] has password_file and {'cert_file' if 'cert_file' in table else 'key_file'}:"
                        " write one way to sign in, not both; no table server is used")
        return None
    needed = ("server", "user", *(("cert_file", "key_file") if by_certificate else ("password_file",)))
    missing = [key for key in needed if key not in table]
    if missing:
        problems.append(f"{source}: [network] has {', '.join(given)} but not {', '.join(missing)};"
                        " no table server is used")
        return None
    try:
        host, port = parse_server_address(table["server"])
        ca = table.get("ca_file")
        certificate = ClientCertificate(check_path("cert_file", table["cert_file"]),
                                        check_path("key_file", table["key_file"])) if by_certificate else None
        password = None if by_certificate else check_path("password_file", table["password_file"])
        return ServerAccount(host, port, check_account(table["user"]), password,
                             None if ca is None else check_path("ca_file", ca), certificate)
    except NetError as error:
        problems.append(f"{source}: [network] {error}; no table server is used")
        return None


def _shown(value: object) -> str:
    """``value`` as the file wrote it, cut short: a problem is one line, whatever the file holds."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"
