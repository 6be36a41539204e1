"""Which key, button or GPIO pin means which action: defaults and the settings file.

Defaults follow docs/rules.md, "Controls". One choice needed making: a keyboard's Esc is
``star`` (SPEC keyboard row, and the seeds' "Esc leaves the game"), while many
TV remotes send KEY_ESC from their Back key, where the issue asks for
``back``. So an evdev device that is a real keyboard (it has letter keys) gets
the keyboard table on top of the remote table: KEY_ESC is ``star`` on a
keyboard and ``back`` on a remote, gamepad or button box.

The settings file (TOML, loaded elsewhere) may add to the maps::

    [input]
    sources = ["gpio", "evdev"]

    [input.gpio]          # action = BCM pin; replaces that action's default pin
    ok = 16

    [input.keys]          # action = evdev key names; added to the defaults
    ok = ["KEY_PLAYPAUSE"]

A key named in the settings moves to the action it is listed under (a key
means one action). A mistake leaves out only the entry it is in, with a
message naming the file, line and key (:attr:`InputSettings.problems`), so a
handheld builder finds the typo without reading code and the console keeps
every control that is right. A bad ``--input`` option, typed by hand, raises
:class:`InputSettingsError`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from input.errors import InputSettingsError
from pyramid.actions import BUTTONS

SOURCES = ("keyboard", "gpio", "evdev")
DEFAULT_SOURCES = ("keyboard",)

#: A typical handheld: each button between its BCM pin and ground (internal pull-ups).
#: Avoids I2C (2, 3), UART (14, 15), SPI0 (7-11), the DC/reset/backlight pins of
#: common SPI TFTs (24, 25, 18), the Waveshare touch interrupt (17) and I2S audio (18-21).
DEFAULT_GPIO_PINS: Mapping[str, int] = MappingProxyType(
    {"up": 5, "down": 6, "left": 13, "right": 26, "ok": 22, "back": 23, "star": 27}
)
GPIO_PIN_RANGE = range(28)

#: Remotes (USB, IR, HDMI-CEC), gamepads, gpio-key buttons and the shared keyboard keys.
DEFAULT_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "up": ("KEY_UP", "BTN_DPAD_UP"),
        "down": ("KEY_DOWN", "BTN_DPAD_DOWN"),
        "left": ("KEY_LEFT", "BTN_DPAD_LEFT"),
        "right": ("KEY_RIGHT", "BTN_DPAD_RIGHT"),
        "ok": ("KEY_OK", "KEY_SELECT", "KEY_ENTER", "KEY_KPENTER", "KEY_SPACE", "BTN_SOUTH"),
        "back": ("KEY_BACK", "KEY_EXIT", "KEY_ESC", "KEY_BACKSPACE", "BTN_EAST"),
        # A TV's own remote through HDMI-CEC (the kernel's rc-cec keymap): Root menu is KEY_ROOT_MENU,
        # Contents menu KEY_MENU, and a CEC 2.0 remote's context menu KEY_CONTEXT_MENU.
        "star": ("KEY_HOMEPAGE", "KEY_HOME", "KEY_MENU", "KEY_ROOT_MENU", "KEY_CONTEXT_MENU", "KEY_KPASTERISK",
                 "BTN_START"),
        "help": ("KEY_INFO", "KEY_HELP", "KEY_F1", "BTN_SELECT"),
        # The assists within one press: a keyboard's U and H, a gamepad's west and north
        # buttons (X and Y), a remote's red and green keys.
        "undo": ("KEY_UNDO", "KEY_U", "BTN_WEST", "KEY_RED"),
        "hint": ("KEY_H", "BTN_NORTH", "KEY_GREEN"),
    }
)
#: Buttons that give another action when held (HOLD_TIME, input/repeat.py) on devices without a key
#: of its own for that action: a handheld's star gives help, its Back undoes the last move.
LONG_PRESSES: Mapping[str, str] = MappingProxyType({"star": "help", "back": "undo"})
#: What changes on a real keyboard (docs/rules.md, "Controls" keyboard row).
KEYBOARD_OVERRIDES: Mapping[str, str] = MappingProxyType({"KEY_ESC": "star"})


@dataclass(frozen=True)
class KeyMap:
    """evdev key names → actions, for keyboards and for every other device."""

    names: Mapping[str, str] = field(default_factory=dict)
    keyboard_names: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def default(cls) -> KeyMap:
        return cls.with_settings({})

    @classmethod
    def with_settings(cls, added: Mapping[str, str]) -> KeyMap:
        """The defaults plus ``added`` (key name → action), where ``added`` wins on both tables."""
        names = {name: action for action, keys in DEFAULT_KEYS.items() for name in keys}
        keyboard_names = {**names, **KEYBOARD_OVERRIDES}
        names.update(added)
        keyboard_names.update(added)
        return cls(MappingProxyType(names), MappingProxyType(keyboard_names))

    def codes(self, keyboard: bool) -> dict[int, str]:
        """The map by evdev key code, for a keyboard or for any other device."""
        ecodes = _ecodes()
        table = self.keyboard_names if keyboard else self.names
        return {ecodes.ecodes[name]: action for name, action in table.items()}


@dataclass(frozen=True)
class InputSettings:
    """The validated ``[input]`` part of the settings file.

    ``sources_given`` says whether the file chose the sources (otherwise the
    display decides); ``problems`` holds one message per entry left out.
    """

    sources: tuple[str, ...] = DEFAULT_SOURCES
    gpio_pins: Mapping[str, int] = field(default_factory=lambda: DEFAULT_GPIO_PINS)
    keys: KeyMap = field(default_factory=KeyMap.default)
    sources_given: bool = False
    problems: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], text: str | None = None,
                      filename: str = "settings") -> InputSettings:
        """Validate the parsed settings file; ``text`` (the raw TOML) lets messages give line numbers.

        Each mistake leaves out only the entry it is in: a typo in one key name
        must not cost a handheld its GPIO buttons or a TV box its remote, which
        is what falling back to the defaults as a whole would do.
        """
        where = _Locator(text, filename)
        problems: list[str] = []
        section = settings.get("input", {})
        if not isinstance(section, Mapping):
            problems.append(f"{where('input', None)}[input] must be a table, got {section!r}; ignored")
            return cls(problems=tuple(problems))
        for name in sorted(set(section) - {"sources", "gpio", "keys"}):
            problems.append(f"{where('input', name)}unknown setting {name!r} "
                            "(use sources, [input.gpio] or [input.keys]); ignored")
        sources = _file_sources(section["sources"], where("input", "sources"), problems) if "sources" in section else None
        return cls(sources or DEFAULT_SOURCES, _gpio_pins(section.get("gpio", {}), where, problems),
                   _key_map(section.get("keys", {}), where, problems), sources is not None, tuple(problems))


def parse_sources(text: str) -> tuple[str, ...]:
    """``--input keyboard,gpio,evdev`` → ("keyboard", "gpio", "evdev"); a bad option is an error."""
    return _check_sources([word.strip() for word in text.split(",") if word.strip()], f"--input {text!r}: ")


def _check_sources(words: Iterable[str], prefix: str) -> tuple[str, ...]:
    chosen: list[str] = []
    for word in words:
        if word not in SOURCES:
            raise InputSettingsError(f"{prefix}unknown input source {word!r} (use {', '.join(SOURCES)})")
        if word not in chosen:
            chosen.append(word)
    if not chosen:
        raise InputSettingsError(f"{prefix}no input source given (use {', '.join(SOURCES)})")
    return tuple(chosen)


def _file_sources(value: Any, prefix: str, problems: list[str]) -> tuple[str, ...] | None:
    """The known sources of the file's list, or ``None`` when none is left (the display then decides)."""
    if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
        problems.append(f"{prefix}sources must be a list of names, got {value!r}; ignored")
        return None
    known = []
    for word in value:
        if word in SOURCES:
            known.append(word)
        else:
            problems.append(f"{prefix}unknown input source {word!r} (use {', '.join(SOURCES)}); ignored")
    return tuple(dict.fromkeys(known)) or None


def _gpio_pins(table: Any, where: _Locator, problems: list[str]) -> Mapping[str, int]:
    if not _is_table(table, "input.gpio", where, problems):
        return DEFAULT_GPIO_PINS
    chosen: dict[str, int] = {}
    for action, pin in table.items():
        prefix = where("input.gpio", action)
        if not _is_action(action, prefix, problems):
            continue
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in GPIO_PIN_RANGE:
            problems.append(f"{prefix}{action} = {pin!r}: a GPIO pin is a BCM number from 0 to 27; ignored")
            continue
        chosen[action] = pin
    while True:
        clash = _first_clash(chosen)
        if clash is None:
            return MappingProxyType({**DEFAULT_GPIO_PINS, **chosen})
        action, other = clash
        problems.append(f"{where('input.gpio', action)}GPIO {chosen[action]} is used twice: "
                        f"by {action!r} and by {other!r}; ignored")
        del chosen[action]  # its default pin (if it has one) may clash in turn: look again


def _first_clash(chosen: Mapping[str, int]) -> tuple[str, str] | None:
    """The first line of the file whose pin an earlier button holds, and that button.

    Defaults the file leaves alone come first, then the file's lines in order,
    so it is always a line of the file that gives way, the later one of two.
    """
    pins = {**DEFAULT_GPIO_PINS, **chosen}
    by_pin: dict[int, str] = {}
    for action in [name for name in pins if name not in chosen] + list(chosen):
        if pins[action] in by_pin:
            return action, by_pin[pins[action]]
        by_pin[pins[action]] = action
    return None


def _key_map(table: Any, where: _Locator, problems: list[str]) -> KeyMap:
    if not _is_table(table, "input.keys", where, problems) or not table:
        return KeyMap.default()
    try:
        known = _ecodes().ecodes
    except InputSettingsError as error:
        problems.append(f"{where('input.keys', None)}{error}; [input.keys] ignored")
        return KeyMap.default()
    added: dict[str, str] = {}
    for action, names in table.items():
        prefix = where("input.keys", action)
        if not _is_action(action, prefix, problems):
            continue
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            problems.append(f"{prefix}{action} must be a list of key names such as [\"KEY_OK\"], "
                            f"got {names!r}; ignored")
            continue
        for name in names:
            if name not in known or not name.startswith(("KEY_", "BTN_")):
                close = difflib.get_close_matches(name.upper(), [k for k in known if k.startswith(("KEY_", "BTN_"))], 1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                problems.append(f"{prefix}unknown key name {name!r}{hint}; ignored")
            elif name in added and added[name] != action:
                problems.append(f"{prefix}key {name!r} is given to both {added[name]!r} and {action!r}; ignored")
            else:
                added[name] = action
    return KeyMap.with_settings(added)


def _is_action(action: str, prefix: str, problems: list[str]) -> bool:
    if action in BUTTONS:
        return True
    problems.append(f"{prefix}unknown action {action!r} (use {', '.join(BUTTONS)}); ignored")
    return False


def _is_table(value: Any, name: str, where: _Locator, problems: list[str]) -> bool:
    if isinstance(value, Mapping):
        return True
    problems.append(f"{where(name, None)}[{name}] must be a table, got {value!r}; ignored")
    return False


def _ecodes() -> Any:
    """evdev's code tables, imported only when key maps are used (evdev is Linux-only)."""
    try:
        from evdev import ecodes
    except ImportError as error:
        raise InputSettingsError(f"evdev key maps need python-evdev ({error})") from None
    return ecodes


class _Locator:
    """Finds the line of ``key`` inside table ``[section]`` in the raw TOML, for error messages."""

    _HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")

    def __init__(self, text: str | None, filename: str) -> None:
        self._lines = text.splitlines() if text is not None else []
        self._filename = filename

    def __call__(self, section: str, key: str | None) -> str:
        """A message prefix such as ``settings.toml line 12: [input.keys] ok: ``."""
        line = self._find(section, key)
        place = f"{self._filename} line {line}" if line else self._filename
        return f"{place}: [{section}] {key}: " if key is not None else f"{place}: "

    def _find(self, section: str, key: str | None) -> int | None:
        current = ""
        key_line = re.compile(rf"^\s*\"?{re.escape(key)}\"?\s*=") if key is not None else None
        for number, line in enumerate(self._lines, start=1):
            header = self._HEADER.match(line)
            if header:
                current = header.group(1).replace(" ", "").replace('"', "")
                if key_line is None and current == section:
                    return number
            elif key_line is not None and current == section and key_line.match(line):
                return number
        return None
