"""A settings file that is wrong in any way never stops the console (issue 13, items 6 to 9).

The same file is read by every release on a Pi, so a file that crashes the
console would crash the rollback too: each case gives one line and defaults
for what was wrong, and keeps everything else.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from evdev import ecodes

from display.headless import HeadlessDisplay
from display.settings import DisplaySettings
from pyramid.app.settings_file import MAX_SETTINGS_BYTES, load_settings, parse_settings
from input.keymap import DEFAULT_GPIO_PINS, InputSettings
from pyramid.app.modes import open_input
from pyramid.app.settings_file import input_settings, load_hardware_settings
from pyramid.options import parse_options

GOOD = "[display]\nrotation = 180\n"


def one_problem(path: Path) -> str:
    settings = load_settings(path)
    assert settings.display == DisplaySettings()
    (problem,) = settings.problems
    assert "\n" not in problem and problem.startswith(f"{path}: ") and problem.endswith("using the defaults")
    return problem


@pytest.mark.parametrize("data", [b"# caf\xe9\n[display]\nrotation = 0\n",
                                  "[display]\nrotation = 0\n".encode("utf-16"),
                                  bytes(range(256))])
def test_text_that_is_not_utf8_is_one_line_and_the_defaults(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "pyramid.toml"
    path.write_bytes(data)
    assert "not UTF-8" in one_problem(path)


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "pyramid.toml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    settings = load_settings(path)
    assert settings.problems == () and settings.display.rotation == 180
    assert settings.text == GOOD


def test_missing_file_directory_fifo_and_device_are_refused_without_reading(tmp_path: Path) -> None:
    assert "No such file" in one_problem(tmp_path / "absent.toml")
    assert "not a regular file" in one_problem(tmp_path)
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)  # no writer: opening it for reading would block for ever
    assert "not a regular file" in one_problem(fifo)
    assert "not a regular file" in one_problem(Path("/dev/zero"))
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    assert "not a regular file" in one_problem(link)


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(GOOD + "#" * MAX_SETTINGS_BYTES + "\n")
    assert f"larger than {MAX_SETTINGS_BYTES // 1024} KiB" in one_problem(path)


@pytest.mark.parametrize("size", ['"99999999x99999999"', '"100000x100000"', '"20000x20000"', "[20000, 20000]",
                                  '"100x100"'])
def test_size_in_the_file_is_bounded_like_the_option(size: str) -> None:
    settings = parse_settings(f"[display]\nsize = {size}\nrotation = 90\n")
    assert settings.display == DisplaySettings(rotation=90)
    (problem,) = settings.problems
    assert "between 200x200 and 7680x4320" in problem


def console_input(tmp_path: Path, data: bytes):
    path = tmp_path / "pyramid.toml"
    path.write_bytes(data)
    options, _ = parse_options(["--settings", str(path), "--input", "keyboard"])
    settings = load_hardware_settings(options)
    display = HeadlessDisplay((480, 320))
    try:
        hub = open_input(options, display, input_settings(settings))
        hub.close()
    finally:
        display.close()


@pytest.mark.parametrize("data", [b"# caf\xe9\n[display]\nrotation = 0\n", b"\xff\xfe[\x00"])
def test_the_console_opens_its_inputs_after_a_file_it_could_not_read(
        tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    console_input(tmp_path, data)
    (line,) = capsys.readouterr().err.splitlines()
    assert "not UTF-8" in line


def test_the_console_opens_its_inputs_when_the_file_is_gone(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    options, _ = parse_options(["--settings", str(tmp_path / "absent.toml"), "--input", "keyboard"])
    settings = load_hardware_settings(options)
    display = HeadlessDisplay((480, 320))
    try:
        open_input(options, display, input_settings(settings)).close()
    finally:
        display.close()
    assert len(capsys.readouterr().err.splitlines()) == 1


HANDHELD = """\
[input]
sources = ["gpio", "evdev"]

[input.gpio]
ok = 16
help = 12

[input.keys]
ok = ["KEY_OOK", "KEY_PLAYPAUSE"]
star = ["KEY_ESC"]
"""


def load(text: str) -> InputSettings:
    return InputSettings.from_settings(tomllib.loads(text), text, "pyramid.toml")


def test_one_bad_key_name_drops_only_that_name() -> None:
    settings = load(HANDHELD)
    assert settings.sources == ("gpio", "evdev") and settings.sources_given
    assert settings.gpio_pins["ok"] == 16 and settings.gpio_pins["help"] == 12
    remote = settings.keys.codes(keyboard=False)
    assert remote[ecodes.KEY_PLAYPAUSE] == "ok" and remote[ecodes.KEY_ESC] == "star"
    (problem,) = settings.problems
    assert problem.startswith("pyramid.toml line 9: [input.keys] ok: unknown key name 'KEY_OOK'")
    assert "did you mean 'KEY_OK'" in problem and problem.endswith("ignored")


def test_a_pin_used_twice_drops_only_the_later_line() -> None:
    settings = load(HANDHELD.replace("help = 12", "help = 16"))
    assert settings.sources == ("gpio", "evdev")
    assert settings.gpio_pins["ok"] == 16 and "help" not in settings.gpio_pins
    assert settings.keys.codes(keyboard=False)[ecodes.KEY_PLAYPAUSE] == "ok"
    problems = [p for p in settings.problems if "GPIO" in p]
    assert problems == ["pyramid.toml line 6: [input.gpio] help: GPIO 16 is used twice: by 'help' and by 'ok'; "
                        "ignored"]


def test_a_pin_taken_from_a_default_keeps_the_default() -> None:
    settings = load(HANDHELD.replace("help = 12", "help = 5"))  # 5 is the default "up"
    assert settings.gpio_pins["up"] == 5 and "help" not in settings.gpio_pins
    assert any(p.startswith("pyramid.toml line 6: [input.gpio] help: GPIO 5 is used twice: by 'help' and by 'up'")
               for p in settings.problems)


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("ok = 16", "ok = 40", "line 5: [input.gpio] ok: ok = 40: a GPIO pin is a BCM number from 0 to 27"),
    ("help = 12", "jump = 12", "line 6: [input.gpio] jump: unknown action 'jump'"),
    ('star = ["KEY_ESC"]', "star = 3", "star must be a list of key names"),
    ('star = ["KEY_ESC"]', 'star = ["KEY_PLAYPAUSE"]', "key 'KEY_PLAYPAUSE' is given to both 'ok' and 'star'"),
    ('sources = ["gpio", "evdev"]', 'sources = ["gpio", "evdev", "joystick"]',
     "line 2: [input] sources: unknown input source 'joystick'"),
    ('sources = ["gpio", "evdev"]', 'sources = ["gpio", "evdev"]\ncolour = 1', "line 3: [input] colour: unknown"),
])
def test_each_mistake_is_dropped_alone(old: str, new: str, expected: str) -> None:
    settings = load(HANDHELD.replace('"KEY_OOK", ', "").replace(old, new))
    (problem,) = settings.problems
    assert expected in problem and problem.endswith("ignored")
    assert settings.sources == ("gpio", "evdev")
    assert settings.gpio_pins["up"] == DEFAULT_GPIO_PINS["up"]
    assert settings.keys.codes(keyboard=False)[ecodes.KEY_OK] == "ok"


def test_sources_that_name_nothing_usable_leave_the_choice_to_the_display() -> None:
    settings = load('[input]\nsources = ["joystick"]\n[input.gpio]\nok = 16\n')
    assert not settings.sources_given and settings.gpio_pins["ok"] == 16
    assert len(settings.problems) == 1


def test_tables_of_the_wrong_type_are_dropped_alone() -> None:
    settings = InputSettings.from_settings({"input": {"keys": ["KEY_OK"], "gpio": {"ok": 16}}})
    assert settings.gpio_pins["ok"] == 16
    (problem,) = settings.problems
    assert "[input.keys] must be a table" in problem
    assert InputSettings.from_settings({"input": 3}).problems[0].startswith("settings: [input] must be a table")
