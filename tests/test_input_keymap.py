"""Key maps and GPIO pins: defaults, settings-file additions and clear messages for what is left out."""

from __future__ import annotations

import re
import tomllib

import pytest
from evdev import ecodes

from input.errors import InputSettingsError
from input.keymap import DEFAULT_GPIO_PINS, InputSettings, KeyMap, parse_sources

SETTINGS = """\
# Pyramid console settings
[display]
rotation = 0

[input]
sources = ["gpio", "evdev"]

[input.gpio]
ok = 16
help = 12

[input.keys]
ok = ["KEY_PLAYPAUSE"]
star = ["KEY_ESC"]
"""


def load(text: str) -> InputSettings:
    return InputSettings.from_settings(tomllib.loads(text), text, "settings.toml")


def the_problem(settings: InputSettings) -> str:
    (problem,) = settings.problems
    return problem


def test_defaults_follow_spec_section_2():
    settings = InputSettings.from_settings({})
    assert settings.sources == ("keyboard",)
    assert settings.gpio_pins == DEFAULT_GPIO_PINS
    remote = settings.keys.codes(keyboard=False)
    keyboard = settings.keys.codes(keyboard=True)
    assert remote[ecodes.KEY_OK] == remote[ecodes.KEY_SELECT] == remote[ecodes.KEY_KPENTER] == "ok"
    assert remote[ecodes.KEY_BACK] == remote[ecodes.KEY_EXIT] == remote[ecodes.KEY_BACKSPACE] == "back"
    assert remote[ecodes.KEY_HOMEPAGE] == remote[ecodes.KEY_MENU] == "star"
    assert remote[ecodes.KEY_INFO] == remote[ecodes.KEY_F1] == "help"
    assert remote[ecodes.BTN_SOUTH] == "ok" and remote[ecodes.BTN_EAST] == "back"
    assert remote[ecodes.BTN_START] == "star" and remote[ecodes.BTN_SELECT] == "help"
    # The one difference: Esc is Back on a remote, star on a keyboard.
    assert remote[ecodes.KEY_ESC] == "back"
    assert keyboard[ecodes.KEY_ESC] == "star"
    assert keyboard[ecodes.KEY_KPASTERISK] == "star" and keyboard[ecodes.KEY_SPACE] == "ok"


def test_settings_add_keys_move_them_and_replace_pins():
    settings = load(SETTINGS)
    assert settings.sources == ("gpio", "evdev")
    assert settings.gpio_pins["ok"] == 16 and settings.gpio_pins["help"] == 12
    assert settings.gpio_pins["up"] == DEFAULT_GPIO_PINS["up"]
    remote = settings.keys.codes(keyboard=False)
    assert remote[ecodes.KEY_PLAYPAUSE] == "ok"
    assert remote[ecodes.KEY_OK] == "ok"  # defaults stay
    assert remote[ecodes.KEY_ESC] == "star"  # moved for every device


def test_unknown_key_name_names_line_key_and_suggests():
    text = SETTINGS.replace('"KEY_PLAYPAUSE"', '"KEY_OOK"')
    message = the_problem(load(text))
    assert message.startswith("settings.toml line 13: [input.keys] ok: unknown key name 'KEY_OOK'")
    assert "did you mean 'KEY_OK'" in message


def test_pin_used_twice_names_the_line_of_the_setting():
    text = SETTINGS.replace("help = 12", "help = 5")  # 5 is the default "up"
    assert re.match(r"^settings.toml line 10: \[input.gpio\] help: GPIO 5 is used twice: by 'help' and by 'up'",
                    the_problem(load(text)))


def test_two_settings_on_one_pin():
    text = SETTINGS.replace("help = 12", "help = 16")
    assert "GPIO 16 is used twice: by 'help' and by 'ok'" in the_problem(load(text))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("ok = 16", "ok = 40"), r"line 9: \[input.gpio\] ok: ok = 40: a GPIO pin is a BCM number from 0 to 27"),
        (("ok = 16", "ok = true"), r"ok = True: a GPIO pin"),
        (("help = 12", "jump = 12"), r"line 10: \[input.gpio\] jump: unknown action 'jump'"),
        (('star = ["KEY_ESC"]', 'star = ["KEY_PLAYPAUSE"]'), r"key 'KEY_PLAYPAUSE' is given to both 'ok' and 'star'"),
        (('star = ["KEY_ESC"]', "star = 3"), r"star must be a list of key names"),
        (('star = ["KEY_ESC"]', 'star = ["ABS_X"]'), r"unknown key name 'ABS_X'"),
        (('sources = ["gpio", "evdev"]', 'sources = ["gpio", "joystick"]'),
         r"line 6: \[input\] sources: unknown input source 'joystick'"),
        (('sources = ["gpio", "evdev"]', "colour = 1"), r"line 6: \[input\] colour: unknown setting 'colour'"),
    ],
)
def test_mistakes_are_messages_naming_the_problem(change, expected):
    old, new = change
    assert re.search(expected, the_problem(load(SETTINGS.replace(old, new))))


def test_without_the_raw_text_errors_still_name_the_key():
    assert the_problem(InputSettings.from_settings({"input": {"gpio": {"ok": -1}}})).startswith(
        "settings: [input.gpio] ok: ")


def test_input_setting_must_be_a_table():
    assert "[input.keys] must be a table" in the_problem(InputSettings.from_settings({"input": {"keys": ["KEY_OK"]}}))


def test_single_key_name_string_is_accepted():
    settings = InputSettings.from_settings({"input": {"keys": {"help": "KEY_QUESTION"}}})
    assert settings.keys.codes(keyboard=True)[ecodes.KEY_QUESTION] == "help"


def test_command_line_sources():
    assert parse_sources("keyboard,gpio, evdev,gpio") == ("keyboard", "gpio", "evdev")
    with pytest.raises(InputSettingsError, match=r"--input 'keyboard,mouse': unknown input source 'mouse'"):
        parse_sources("keyboard,mouse")
    with pytest.raises(InputSettingsError, match="no input source"):
        parse_sources(" , ")


def test_default_key_map_is_read_only():
    with pytest.raises(TypeError):
        KeyMap.default().names["KEY_A"] = "ok"  # type: ignore[index]
