"""The hardware settings file: which screen, how it is turned, the TV safe area.

A TOML file, so it can be edited with any text editor — on a Pi it lives on
the boot partition (``/boot/firmware/pyramid.toml``), readable from any PC.
A console must start whatever is in the file: a syntax error, a wrong type or
an unknown value gives a clear message (with the line number for syntax
errors) and the default for what was wrong, never a crash. Every release on a
Pi reads the same file, so a crash here would be a crash loop that neither a
restart nor a rollback ends: the file is read once, only if it is a regular
file of at most :data:`MAX_SETTINGS_BYTES`, as UTF-8 (a byte order mark, as
Notepad writes, is allowed), and anything else is one message and the
defaults. Tables other than
``[display]`` (such as ``[input]``) belong to other parts and are passed
through untouched. The format is documented in docs/settings-display.md.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

import os
import stat
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping, NamedTuple

from pyramid.view import check_size, parse_size

from .rotation import ROTATIONS

BOOT_SETTINGS = Path("/boot/firmware/pyramid.toml")
USER_SETTINGS = Path("~/.config/pyramid/pyramid.toml")
ENVIRONMENT_VARIABLE = "PYRAMID_SETTINGS"

DISPLAY_KINDS = ("auto", "window", "headless", "kmsdrm", "fbdev")
MAX_SAFE_AREA = 20
#: A real settings file is a few hundred bytes; the limit stops /dev/zero-like files, not people.
MAX_SETTINGS_BYTES = 64 * 1024


class SettingsFileError(ValueError):
    """The settings file cannot be used at all; the message says why, in a few words."""


class DisplaySettings(NamedTuple):
    """The ``[display]`` table. ``safe_area`` ``None`` means automatic: 5 % on a TV, 0 on a panel."""

    display: str = "auto"
    rotation: int = 0
    safe_area: float | None = None
    size: tuple[int, int] | None = None


class HardwareSettings(NamedTuple):
    """Everything read from the settings file, and what was wrong with it.

    ``sections`` holds the other tables (``input`` …) exactly as parsed;
    ``problems`` are messages for the user, each naming the file; ``text``
    is the file as read, so other parts can name lines without reading it
    again.
    """

    display: DisplaySettings = DisplaySettings()
    sections: Mapping[str, Any] = MappingProxyType({})
    path: Path | None = None
    problems: tuple[str, ...] = ()
    text: str | None = None


def check_display_spec(spec: str) -> str:
    """``spec`` if it names a display (``auto``, ``window``, ``headless``, ``kmsdrm``, ``fbdev[:/dev/fbN]``)."""
    kind, _, device = spec.partition(":")
    if kind not in DISPLAY_KINDS or (device and kind != "fbdev") or (kind == "fbdev" and ":" in spec and not device):
        raise ValueError(f"invalid display {spec!r}: use one of {', '.join(DISPLAY_KINDS)} or fbdev:/dev/fbN")
    return spec


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
    display, problems = _read_display(table, name)
    return HardwareSettings(display, MappingProxyType(sections), path, tuple(problems), text)


def _read_display(table: Mapping[str, Any], name: str) -> tuple[DisplaySettings, list[str]]:
    settings, problems = DisplaySettings(), []
    for key, value in table.items():
        reader = _READERS.get(key)
        if reader is None:
            problems.append(f"{name}: unknown setting display.{key} (known: {', '.join(_READERS)}); ignored")
            continue
        try:
            settings = settings._replace(**{key: reader(value)})
        except (TypeError, ValueError) as error:
            problems.append(f"{name}: display.{key}: {error}; using the default")
    return settings, problems


def _read_display_kind(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string such as \"auto\", got {value!r}")
    return check_display_spec(value)


def _read_rotation(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in ROTATIONS:
        raise ValueError(f"invalid rotation {value!r}: use 0, 90, 180 or 270")
    return value


def _read_safe_area(value: Any) -> float | None:
    if value == "auto":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_SAFE_AREA:
        raise ValueError(f"invalid safe area {value!r}: a percentage from 0 to {MAX_SAFE_AREA}, or \"auto\"")
    return value


def _read_size(value: Any) -> tuple[int, int] | None:
    if value == "auto":
        return None
    if isinstance(value, str):
        return parse_size(value)
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return check_size(value, value[0], value[1])
    raise ValueError(f"invalid size {value!r}: expected \"WIDTHxHEIGHT\" or [WIDTH, HEIGHT]")


_READERS: dict[str, Callable[[Any], Any]] = {"display": _read_display_kind, "rotation": _read_rotation, "safe_area": _read_safe_area, "size": _read_size}
