"""Fuzzing what a person can type or write: the settings file, the command line, deals and scripts (issue 13).

Each reader either accepts its input, within the bounds it documents, or says
why in one line through its own error type; nothing else may come out of it.
"""

from __future__ import annotations

import json
import random
import string
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display.rotation import ROTATIONS
from display.settings import MAX_SAFE_AREA
from pyramid.app.settings_file import load_settings, parse_settings
from input.keymap import GPIO_PIN_RANGE, SOURCES, InputSettings
from pyramid.engine.cards import DECKS, format_cards, parse_deal
from pyramid.errors import PyramidError
from pyramid.options import OptionError, parse_options
from pyramid.sizes import SIZE_LIMITS
from pyramid.scripting import parse_steps

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# -- the settings file ------------------------------------------------------------------------

SCALARS = st.one_of(st.integers(-2**70, 2**70), st.booleans(), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=12), st.sampled_from(["auto", "480x320", "99999999x99999999", "0x0", "gpio",
                                                           "evdev", "keyboard", "KEY_OK", "KEY_OOK", "BTN_SOUTH"]))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=4))
KEYS = st.sampled_from(["display", "rotation", "safe_area", "size", "sources", "ok", "back", "up", "help", "star",
                        "jump", "colour"])


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # without control characters, a TOML basic string
    return "[" + ", ".join(toml_value(item) for item in value) + "]"


TABLES = st.dictionaries(st.sampled_from(["display", "input", "input.gpio", "input.keys", "other"]),
                         st.dictionaries(KEYS, VALUES, max_size=5), max_size=5)


def toml_text(tables: dict[str, dict[str, Any]]) -> str:
    return "".join(f"[{name}]\n" + "".join(f"{key} = {toml_value(value)}\n" for key, value in table.items())
                   for name, table in tables.items())


def check_settings_text(text: str) -> None:
    hardware = parse_settings(text, Path("pyramid.toml"))
    display = hardware.display
    assert display.rotation in ROTATIONS
    assert display.safe_area is None or 0 <= display.safe_area <= MAX_SAFE_AREA
    if display.size is not None:
        (min_w, min_h), (max_w, max_h) = SIZE_LIMITS
        assert min_w <= display.size[0] <= max_w and min_h <= display.size[1] <= max_h
    buttons = InputSettings.from_settings(hardware.sections, hardware.text, "pyramid.toml")
    assert set(buttons.sources) <= set(SOURCES) and buttons.sources
    pins = list(buttons.gpio_pins.values())
    assert len(pins) == len(set(pins)) and all(pin in GPIO_PIN_RANGE for pin in pins)
    for problem in (*hardware.problems, *buttons.problems):
        assert "\n" not in problem and problem.startswith("pyramid.toml")


@FUZZ
@given(tables=TABLES)
def test_any_well_formed_settings_file_gives_bounded_settings_and_one_line_problems(tables: dict[str, Any]) -> None:
    text = toml_text(tables)
    tomllib.loads(text)  # the generator writes valid TOML: the fuzzing is of the values
    check_settings_text(text)


@FUZZ
@given(text=st.text(alphabet=st.sampled_from(list("[]=\"'#.,\n =xX0123456789abcdeinoprstuvyz_-\ufeff\x00")),
                    max_size=200))
def test_any_text_at_all_is_read_without_an_exception(text: str) -> None:
    check_settings_text(text)


@FUZZ
@given(data=st.binary(max_size=300))
def test_any_bytes_in_the_file_are_read_without_an_exception(tmp_path_factory: pytest.TempPathFactory,
                                                            data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "pyramid.toml"
    path.write_bytes(data)
    loaded = load_settings(path)
    assert all("\n" not in problem for problem in loaded.problems)
    if loaded.text is not None:
        check_settings_text(loaded.text)


# -- the command line ------------------------------------------------------------------------

OPTION_NAMES = ["--display", "--size", "--game", "--rules", "--redeals", "--deal", "--deal-number", "--script",
                "--script-delay", "--trace", "--dump-state", "--screenshot", "--settings", "--input",
                "--self-test", "--version", "--frobnicate", "-x"]
WORDS = st.one_of(st.sampled_from(OPTION_NAMES), st.text(max_size=15),
                  st.sampled_from(["480x320", "0x0", "1e9x2", "pyramid", "pyramids", "one", "retrohub", "ok down",
                                   "tap:1,2", "tap:-1,99999999999", "99999999999999999999", "-1", "=", "--"]))


@FUZZ
@given(argv=st.lists(WORDS, max_size=8))
def test_any_command_line_gives_options_or_one_line(argv: list[str]) -> None:
    try:
        options, _ = parse_options(argv)
    except OptionError as error:
        assert "\n" not in str(error)
        return
    (min_w, min_h), (max_w, max_h) = SIZE_LIMITS
    assert options.size is None or (min_w <= options.size[0] <= max_w and min_h <= options.size[1] <= max_h)
    assert options.script_delay_ms >= 0


# -- deals and scripts -------------------------------------------------------------------------

def shuffled_deal(seed: int, deck_name: str) -> str:
    cards = list(DECKS[deck_name].cards)
    random.Random(seed).shuffle(cards)
    return format_cards(cards)


@FUZZ
@given(seed=st.integers(0, 2**32), deck_name=st.sampled_from(sorted(DECKS)), edits=st.lists(
    st.tuples(st.integers(0, 200), st.text(alphabet=string.printable + "\u00e9\u2660", max_size=3)), max_size=4))
def test_any_deal_text_parses_to_the_whole_deck_or_one_line(seed: int, deck_name: str,
                                                           edits: list[tuple[int, str]]) -> None:
    text = shuffled_deal(seed, deck_name)
    for position, inserted in edits:
        text = text[:position] + inserted + text[position + len(inserted):]
    deck = DECKS[deck_name]
    try:
        cards = parse_deal(text, deck)
    except PyramidError as error:
        assert "\n" not in str(error)
        return
    assert sorted(map(str, cards)) == sorted(map(str, deck.cards))
    assert parse_deal(format_cards(cards), deck) == cards


@FUZZ
@given(text=st.text(max_size=60))
def test_any_script_parses_or_is_one_line(text: str) -> None:
    try:
        actions = parse_steps(text)
    except PyramidError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert len(actions) == len(text.split())
