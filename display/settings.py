"""The hardware settings file: which screen, how it is turned, the TV safe area.

A TOML file, so it can be edited with any text editor — on a Pi it lives on
the boot partition (``/boot/firmware/pyramid.toml``), readable from any PC.
A console must start whatever is in the file: a syntax error, a wrong type or
an unknown value gives a clear message (with the line number for syntax
errors) and the default for what was wrong, never a crash. Tables other than
``[display]`` (such as ``[input]``) belong to other parts and are passed
through untouched. The format is documented in docs/settings-display.md.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

import os
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from .rotation import ROTATIONS

BOOT_SETTINGS = Path("/boot/firmware/pyramid.toml")
USER_SETTINGS = Path("~/.config/pyramid/pyramid.toml")
ENVIRONMENT_VARIABLE = "PYRAMID_SETTINGS"

DISPLAY_KINDS = ("auto", "window", "headless", "kmsdrm", "fbdev")
MAX_SAFE_AREA = 20


class DisplaySettings(NamedTuple):
    """The ``[display]`` table. ``safe_area`` ``None`` means automatic: 5 % on a TV, 0 on a panel."""

    display: str = "auto"
    rotation: int = 0
    safe_area: float | None = None
    size: tuple[int, int] | None = None


class Settings(NamedTuple):
    """Everything read from the settings file, and what was wrong with it.

    ``sections`` holds the other tables (``input`` …) exactly as parsed;
    ``problems`` are messages for the user, each naming the file.
    """

    display: DisplaySettings = DisplaySettings()
    sections: Mapping[str, Any] = MappingProxyType({})
    path: Path | None = None
    problems: tuple[str, ...] = ()


def parse_size(text: str) -> tuple[int, int]:
    """``"800x480"`` → ``(800, 480)``; ``ValueError`` quoting ``text`` otherwise."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match or int(match.group(1)) < 1 or int(match.group(2)) < 1:
        raise ValueError(f"invalid size {text!r}: expected WIDTHxHEIGHT, e.g. '800x480'")
    return (int(match.group(1)), int(match.group(2)))


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


def load_settings(explicit: str | Path | None = None, environ: Mapping[str, str] = os.environ) -> Settings:
    """Read the settings file (see :func:`settings_path`); defaults and a message for anything wrong."""
    path = settings_path(explicit, environ)
    if path is None:
        return Settings()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return Settings(path=path, problems=(f"{path}: cannot read the settings ({error}); using the defaults",))
    return parse_settings(text, path)


def parse_settings(text: str, path: Path | None = None) -> Settings:
    """Settings from TOML ``text``; ``path`` only names the file in messages."""
    import tomllib  # here, not at the top: a start without a settings file does not pay for it

    name = str(path) if path else "settings"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return Settings(path=path, problems=(f"{name}: syntax error: {error}; using the defaults",))
    sections = {key: value for key, value in data.items() if key != "display"}
    table = data.get("display", {})
    if not isinstance(table, dict):
        problem = f"{name}: 'display' must be a table ([display]); using the defaults"
        return Settings(sections=MappingProxyType(sections), path=path, problems=(problem,))
    display, problems = _read_display(table, name)
    return Settings(display, MappingProxyType(sections), path, tuple(problems))


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
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        return (value[0], value[1])
    raise ValueError(f"invalid size {value!r}: expected \"WIDTHxHEIGHT\" or [WIDTH, HEIGHT]")


_READERS = {"display": _read_display_kind, "rotation": _read_rotation, "safe_area": _read_safe_area, "size": _read_size}
