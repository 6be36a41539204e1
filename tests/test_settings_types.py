"""Every key of every table of the settings file, given a value of every TOML type (issue 45, part 3).

The console reads the file at every start, and a Pi reads the same file in every release: a value
that raised (``[console] language = []`` did: ``unhashable type: 'list'``, exit 1 at every start)
is a crash loop no rollback ends. Each value here is read the way the console reads it
(:func:`check_every_table`, the self-test's own check): nothing raises, a value the key takes says
nothing, and any other is one line that names the key, the rest of the file read as before.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display.settings import DisplaySettings
from pyramid.app.settings_file import check_every_table, parse_settings

ROOT = Path(__file__).resolve().parents[1]


class Key(NamedTuple):
    """A key of the file: its table, its name, the lines that make the rest of the table valid (a
    table server needs its other keys), and a value of the type it takes, written as TOML."""

    table: str
    name: str
    beside: str
    good: str
    also: tuple[type, ...] = ()
    """Other types it takes besides the good value's."""


SERVER = {"server": '"mqtts://tables.example.org:8883"', "user": '"ann"', "password_file": '"/etc/pyramid/server/password"',
          "ca_file": '"/etc/pyramid/server/ca.crt"'}
CERTIFICATE = {"server": '"mqtts://tables.example.org:8884"', "user": '"dee"', "cert_file": '"/etc/pyramid/server/client.crt"',
               "key_file": '"/etc/pyramid/server/client.key"'}


def server_key(name: str, table: dict[str, str]) -> Key:
    return Key("network", name, "".join(f"{key} = {value}\n" for key, value in table.items() if key != name), table[name])


KEYS = [
    Key("display", "display", "", '"window"'),
    Key("display", "rotation", "", "90"),
    Key("display", "safe_area", "", "5", (float, str)),
    Key("display", "size", "", '"800x480"', (list,)),
    Key("console", "language", "", '"fr"'),
    Key("network", "port", "", "47313"),
    *(server_key(name, SERVER) for name in SERVER),
    *(server_key(name, CERTIFICATE) for name in ("cert_file", "key_file")),
    Key("input", "sources", "", '["keyboard", "gpio"]', (str,)),
    Key("input.gpio", "ok", "", "16"),
    Key("input.keys", "ok", "", '["KEY_PLAYPAUSE"]', (str,)),
]


def toml(value: Any) -> str:
    """``value`` written as a TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value)
    if isinstance(value, str):  # JSON's escapes are TOML's; TOML escapes DEL too
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml(key)} = {toml(item)}" for key, item in value.items()) + "}"
    raise TypeError(value)


SCALARS = st.one_of(
    st.booleans(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40), st.sampled_from(["", "auto", "en", "fr", "window", "evdev", "ok", "800x480", "mqtts://x:1",
                                           "/etc/x", "KEY_OK"]),
    st.datetimes(timezones=st.just(datetime.timezone.utc)), st.datetimes(), st.dates(), st.times())
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(min_size=1, max_size=8), inner, max_size=3), max_leaves=8)


def said(text: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What reading ``text`` the console's way tells: the display table's problems, then each other
    reader's lines (printed as the console prints them)."""
    capsys.readouterr()
    settings = parse_settings(text)
    check_every_table(settings)
    printed = [line for line in capsys.readouterr().err.splitlines() if line]
    return list(settings.problems) + printed


@pytest.mark.parametrize("key", KEYS, ids=[f"{key.table}.{key.name}" for key in KEYS])
def test_the_keys_own_values_say_nothing(key: Key, capsys: pytest.CaptureFixture[str]) -> None:
    assert said(f"[{key.table}]\n{key.beside}{key.name} = {key.good}\n", capsys) == []


@pytest.mark.parametrize("key", KEYS, ids=[f"{key.table}.{key.name}" for key in KEYS])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=VALUES)
def test_any_value_of_any_type_is_at_most_one_line_naming_the_key(key: Key, value: Any,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    written = toml(value)
    lines = said(f"[{key.table}]\n{key.beside}{key.name} = {written}\n", capsys)
    kind = type(value)
    takes = (type(parse_settings(f"x = {key.good}\n").sections["x"]), *key.also)
    # A list the key takes is a list of entries, each left out on its own with its own line.
    assert len(lines) <= (max(1, len(value)) if kind is list and list in takes else 1), lines
    assert all(key.name in line for line in lines), lines
    if kind not in takes and not (kind is int and float in takes):
        assert len(lines) == 1, f"{key.table}.{key.name} = {written} is not of its type, and nothing was said"


@pytest.mark.parametrize("table", ["display", "console", "network", "input", "input.gpio", "input.keys"])
@given(value=st.one_of(SCALARS, st.lists(SCALARS, max_size=3)))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_table_that_is_not_a_table_is_one_line(table: str, value: Any, capsys: pytest.CaptureFixture[str]) -> None:
    head, _, tail = table.rpartition(".")
    text = f"[{head}]\n{tail} = {toml(value)}\n" if head else f"{table} = {toml(value)}\n"
    lines = said(text, capsys)
    assert len(lines) == 1 and tail in lines[0], lines


def test_the_self_test_reads_the_settings_file_and_says_what_would_stop_the_console(tmp_path: Path) -> None:
    """The self-test reads the file the console would: a hostile value is one line, and the test
    passes (the console starts on it too); the language bug of issue 45 is such a value."""
    path = tmp_path / "pyramid.toml"
    path.write_text("[console]\nlanguage = []\n[display]\nrotation = {a = 1}\n[network]\nport = \"x\"\n")
    run = subprocess.run([sys.executable, "-m", "pyramid", "--self-test", "--settings", str(path)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    told = [line for line in run.stderr.splitlines() if line.startswith("pyramid: ")]
    assert [word in " ".join(told) for word in ("console.language", "display.rotation", "port")] == [True] * 3
    assert parse_settings(path.read_text()).display == DisplaySettings()


def test_the_self_test_fails_on_what_would_stop_the_console(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A reader that raises (as ``language = []`` did) fails the self-test, with the file named."""
    from pyramid.app import self_test as module, settings_file
    from pyramid.options import parse_options

    path = tmp_path / "pyramid.toml"
    path.write_text("[console]\nlanguage = \"fr\"\n")

    def unhashable(settings: object) -> str:
        raise TypeError("unhashable type: 'list'")

    monkeypatch.setattr(settings_file, "console_language", unhashable)
    assert module.self_test(parse_options(["--self-test", "--settings", str(path)])[0]) == 1
    assert f"the settings file {path} would stop the console: TypeError: unhashable type: 'list'" in \
        capsys.readouterr().err
