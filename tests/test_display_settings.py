"""The hardware settings file: values, defaults, and clear messages for every kind of mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from display.settings import DisplaySettings, parse_size
from pyramid.app.settings_file import load_settings, parse_settings, settings_path

REPO = Path(__file__).resolve().parents[1]


def test_a_complete_file_is_read_and_other_tables_pass_through_untouched() -> None:
    settings = parse_settings(
        '[display]\ndisplay = "fbdev:/dev/fb1"\nrotation = 90\nsafe_area = 3.5\nsize = "480x320"\n'
        '[input]\nrepeat_delay_ms = 350\n[input.keys]\nok = ["KEY_OK", "KEY_ENTER"]\n'
    )
    assert settings.display == DisplaySettings("fbdev:/dev/fb1", 90, 3.5, (480, 320))
    assert settings.sections == {"input": {"repeat_delay_ms": 350, "keys": {"ok": ["KEY_OK", "KEY_ENTER"]}}}
    assert settings.problems == ()


def test_automatic_values_and_size_as_a_list() -> None:
    settings = parse_settings('[display]\nsafe_area = "auto"\nsize = [800, 480]\n')
    assert settings.display.safe_area is None and settings.display.size == (800, 480)


def test_a_syntax_error_names_the_line_and_gives_the_defaults() -> None:
    settings = parse_settings('[display]\nrotation = 90\ndisplay = "kmsdrm\n', Path("/boot/firmware/pyramid.toml"))
    assert settings.display == DisplaySettings()
    (problem,) = settings.problems
    assert problem.startswith("/boot/firmware/pyramid.toml: syntax error") and "line 3" in problem


@pytest.mark.parametrize("line,key", [
    ('rotation = "90"', "rotation"),
    ("rotation = 45", "rotation"),
    ("safe_area = 50", "safe_area"),
    ("safe_area = true", "safe_area"),
    ('display = "hdmi"', "display"),
    ('display = "kmsdrm:/dev/dri/card1"', "display"),
    ('size = "big"', "size"),
    ("size = [800]", "size"),
])
def test_a_bad_value_is_reported_and_only_that_setting_falls_back(line: str, key: str) -> None:
    good = {"rotation": "rotation = 180", "safe_area": "safe_area = 2", "display": 'display = "window"', "size": 'size = "320x240"'}
    good[key] = line
    settings = parse_settings("[display]\n" + "\n".join(good.values()) + "\n")
    (problem,) = settings.problems
    assert f"display.{key}" in problem and "default" in problem
    expected = DisplaySettings("window", 180, 2, (320, 240))
    assert settings.display == expected._replace(**{key: getattr(DisplaySettings(), key)})


def test_unknown_keys_and_a_non_table_display_are_reported() -> None:
    assert "unknown setting display.brightness" in parse_settings("[display]\nbrightness = 3\n").problems[0]
    settings = parse_settings('display = "window"\n')
    assert settings.display == DisplaySettings() and "must be a table" in settings.problems[0]


def test_where_the_file_is_looked_for(tmp_path: Path) -> None:
    chosen, other = tmp_path / "a.toml", tmp_path / "b.toml"
    chosen.write_text('[display]\ndisplay = "window"\n')
    other.write_text('[display]\ndisplay = "headless"\n')
    environ = {"PYRAMID_SETTINGS": str(other)}
    assert settings_path(chosen, environ) == chosen
    assert settings_path(None, environ) == other
    assert load_settings(chosen, environ).display.display == "window"
    assert load_settings(None, environ).display.display == "headless"
    missing = load_settings(tmp_path / "none.toml", environ)
    assert missing.display == DisplaySettings() and "cannot read" in missing.problems[0]


def test_sizes_parse_and_bad_ones_are_quoted() -> None:
    assert parse_size("1920x1080") == (1920, 1080)
    with pytest.raises(ValueError, match="'0x5'"):
        parse_size("0x5")


def test_the_shipped_boot_file_is_valid() -> None:
    shipped = REPO / "firmware" / "boot" / "firmware" / "pyramid.toml"
    if not shipped.exists():
        pytest.skip("the appliance part has not shipped pyramid.toml yet")
    assert load_settings(shipped).problems == ()
