"""The ``[display]`` table of the hardware settings file: which screen, how it is turned, the TV safe area.

The file itself is read by the console's composition root
(``pyramid/app/settings_file.py``, its one owner), which hands this table to
:func:`read_display`: each value wrong is one message and its default, never a
crash. The format is documented in docs/settings-display.md.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

from typing import Any, Callable, Mapping, NamedTuple

from pyramid.sizes import check_size, parse_size

from .rotation import ROTATIONS

DISPLAY_KINDS = ("auto", "window", "headless", "kmsdrm", "fbdev")
MAX_SAFE_AREA = 20


class DisplaySettings(NamedTuple):
    """The ``[display]`` table. ``safe_area`` ``None`` means automatic: 5 % on a TV, 0 on a panel."""

    display: str = "auto"
    rotation: int = 0
    safe_area: float | None = None
    size: tuple[int, int] | None = None


def check_display_spec(spec: str) -> str:
    """``spec`` if it names a display (``auto``, ``window``, ``headless``, ``kmsdrm``, ``fbdev[:/dev/fbN]``)."""
    kind, _, device = spec.partition(":")
    if kind not in DISPLAY_KINDS or (device and kind != "fbdev") or (kind == "fbdev" and ":" in spec and not device):
        raise ValueError(f"invalid display {spec!r}: use one of {', '.join(DISPLAY_KINDS)} or fbdev:/dev/fbN")
    return spec


def read_display(table: Mapping[str, Any], name: str) -> tuple[DisplaySettings, list[str]]:
    """The ``[display]`` table's settings, and a message for each value left at its default (``name``: the file)."""
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
