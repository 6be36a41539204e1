"""The hardware settings file, and its one owner: which file, read once, each table handed to its reader.

A TOML file, so it can be edited with any text editor — on a Pi it lives on
the boot partition (``/boot/firmware/pyramid.toml``), readable from any PC.
A console must start whatever is in the file: a syntax error, a wrong type or
an unknown value gives a clear message (with the line number for syntax
errors) and the default for what was wrong, never a crash. Every release on a
Pi reads the same file, so a crash here would be a crash loop that neither a
restart nor a rollback ends: the file is read once, only if it is a regular
file of at most :data:`MAX_SETTINGS_BYTES`, as UTF-8 (a byte order mark, as
Notepad writes, is allowed), and anything else is one message and the
defaults.

Each table holds one part's values and is read by that part, from here:
``[display]`` by :func:`display.settings.read_display`, ``[input]`` by
:meth:`input.keymap.InputSettings.from_settings` (when the inputs open, after
the first frame), ``[network]`` by :func:`pyramid.net.settings.read_network_settings`,
and ``[console]`` (the language before the player chooses one) here. Every
problem is printed as one line naming the file. The format is documented in
docs/settings-display.md.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

from display.settings import DisplaySettings, read_display
from pyramid.languages import LANGUAGES
from pyramid.options import Options

if TYPE_CHECKING:
    from input.keymap import InputSettings
    from pyramid.net.settings import NetworkSettings
    from pyramid.system.cec.settings import CecSettings

BOOT_SETTINGS = Path("/boot/firmware/pyramid.toml")
USER_SETTINGS = Path("~/.config/pyramid/pyramid.toml")
ENVIRONMENT_VARIABLE = "PYRAMID_SETTINGS"
#: A real settings file is a few hundred bytes; the limit stops /dev/zero-like files, not people.
MAX_SETTINGS_BYTES = 64 * 1024


class SettingsFileError(ValueError):
    """The settings file cannot be used at all; the message says why, in a few words."""


class HardwareSettings(NamedTuple):
    """Everything read from the settings file, and what was wrong with it.

    ``sections`` holds the other tables (``input`` …) exactly as parsed, for
    their readers; ``problems`` are messages for the user, each naming the
    file; ``text`` is the file as read, so other parts can name lines without
    reading it again.
    """

    display: DisplaySettings = DisplaySettings()
    sections: Mapping[str, Any] = MappingProxyType({})
    path: Path | None = None
    problems: tuple[str, ...] = ()
    text: str | None = None

    @property
    def name(self) -> str:
        """The file as messages name it."""
        return str(self.path or "settings")


def settings_path(explicit: str | Path | None = None, environ: Mapping[str, str] = os.environ) -> Path | None:
    """The file to read: ``explicit`` (--settings), else $PYRAMID_SETTINGS, else the first existing default."""
    if explicit is not None:
        return Path(explicit)
    if environ.get(ENVIRONMENT_VARIABLE):
        return Path(environ[ENVIRONMENT_VARIABLE])
    for candidate in (BOOT_SETTINGS, USER_SETTINGS.expanduser()):
        if candidate.is_file():
            return candidate
    return None


def load_settings(explicit: str | Path | None = None, environ: Mapping[str, str] = os.environ) -> HardwareSettings:
    """Read the settings file (see :func:`settings_path`); defaults and a message for anything wrong."""
    path = settings_path(explicit, environ)
    if path is None:
        return HardwareSettings()
    try:
        text = read_settings_text(path)
    except SettingsFileError as error:
        return HardwareSettings(path=path, problems=(f"{path}: {error}; using the defaults",))
    return parse_settings(text, path)


def read_settings_text(path: Path) -> str:
    """The text of the settings file; :class:`SettingsFileError` for anything but a small UTF-8 regular file.

    Opened without blocking and checked on the open descriptor: opening a FIFO
    for reading would wait for a writer for ever, and checking the name before
    opening it would leave a gap for the file to change in between.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise SettingsFileError(f"cannot read the settings ({error.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise SettingsFileError("cannot read the settings: not a regular file")
        data = os.read(descriptor, MAX_SETTINGS_BYTES + 1)
    except OSError as error:
        raise SettingsFileError(f"cannot read the settings ({error.strerror})") from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_SETTINGS_BYTES:
        raise SettingsFileError(f"cannot read the settings: larger than {MAX_SETTINGS_BYTES // 1024} KiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SettingsFileError(f"the settings are not UTF-8 text (byte {data[error.start]:#04x} at offset "
                                f"{error.start}); save the file as UTF-8") from None


def parse_settings(text: str, path: Path | None = None) -> HardwareSettings:
    """The settings from TOML ``text``; ``path`` only names the file in messages."""
    import tomllib  # here, not at the top: a start without a settings file does not pay for it

    name = str(path) if path else "settings"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return HardwareSettings(path=path, problems=(f"{name}: syntax error: {error}; using the defaults",), text=text)
    sections = {key: value for key, value in data.items() if key != "display"}
    table = data.get("display", {})
    if not isinstance(table, dict):
        problem = f"{name}: 'display' must be a table ([display]); using the defaults"
        return HardwareSettings(sections=MappingProxyType(sections), path=path, problems=(problem,), text=text)
    display, problems = read_display(table, name)
    return HardwareSettings(display, MappingProxyType(sections), path, tuple(problems), text)


def _tell(problems: tuple[str, ...] | list[str]) -> None:
    for problem in problems:
        print(f"pyramid: {problem}", file=sys.stderr)


def load_hardware_settings(options: Options) -> HardwareSettings:
    """The settings file (``--settings``, else where it is found); what is wrong in it is told, and defaults used."""
    settings = load_settings(options.settings)
    _tell(settings.problems)
    return settings


def console_language(settings: HardwareSettings) -> str:
    """The ``[console] language`` (the language before the player chooses one in Settings); anything
    wrong in ``[console]`` is told, and English used."""
    name = settings.name
    table = settings.sections.get("console", {})
    if not isinstance(table, dict):
        _tell([f"{name}: 'console' must be a table ([console]); using en"])
        return "en"
    _tell([f"{name}: unknown setting console.{key} (known: language); ignored" for key in table.keys() - {"language"}])
    language = table.get("language", "en")
    if not isinstance(language, str) or language not in LANGUAGES:
        shown = repr(language) if len(repr(language)) <= 40 else repr(language)[:40] + "…"
        _tell([f"{name}: console.language {shown}: use one of {', '.join(LANGUAGES)}; using en"])
        return "en"
    return language


def check_every_table(settings: HardwareSettings) -> None:
    """Read every table of the file the way the console does as it starts (each problem told, as
    there), so that what would stop the console stops this instead: ``--self-test`` runs it on the
    settings file the installed release will read."""
    console_language(settings)
    network_settings(settings)
    input_settings(settings)
    cec_settings(settings)


def network_settings(settings: HardwareSettings) -> NetworkSettings:
    """The ``[network]`` port and table server; what is wrong in the table is told, and the default used."""
    from pyramid.net.settings import read_network_settings

    network = read_network_settings(settings.sections, settings.name)
    _tell(network.problems)
    return network


def cec_settings(settings: HardwareSettings) -> CecSettings:
    """The ``[cec]`` table (the TV's HDMI-CEC bus); what is wrong in it is told, and the default used."""
    from pyramid.system.cec.settings import read_cec_settings

    cec = read_cec_settings(settings.sections, settings.name)
    _tell(cec.problems)
    return cec


def input_settings(settings: HardwareSettings) -> InputSettings:
    """The ``[input]`` table (sources, GPIO pins, keys), from the text read at start: a second read
    could fail, or differ, once the console is up. What is wrong is told; each mistake leaves out
    only its own entry."""
    from input.keymap import InputSettings

    config = InputSettings.from_settings(settings.sections, settings.text, settings.name)
    _tell(config.problems)
    return config
