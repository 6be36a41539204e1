"""The ``[cec]`` table: each wrong value is one line and its default, the rest of the table still counts."""

from __future__ import annotations

import pytest

from pyramid.system.cec.settings import CecSettings, read_cec_settings


def test_absent_means_on_with_the_consoles_name() -> None:
    assert read_cec_settings({}) == CecSettings(True, True, True, "Pyramid", ())


def test_every_key_read() -> None:
    table = {"enabled": False, "wake_tv": False, "tv_standby": False, "osd_name": "Den console"}
    assert read_cec_settings({"cec": table}) == CecSettings(False, False, False, "Den console", ())


@pytest.mark.parametrize(("table", "problem"), [
    ({"enabled": "yes"}, "pyramid.toml: [cec] enabled = 'yes' is not true or false; using true"),
    ({"osd_name": "Pyramide für alle"}, "pyramid.toml: [cec] osd_name = 'Pyramide für alle' is not 1 to 14 printable"
                                         " ASCII characters; using 'Pyramid'"),
    ({"osd_name": 7}, "pyramid.toml: [cec] osd_name = 7 is not 1 to 14 printable ASCII characters; using 'Pyramid'"),
    ({"wake": True}, "pyramid.toml: unknown key 'wake' in [cec], ignored"),
])
def test_a_wrong_value_is_told_and_its_default_used(table: dict[str, object], problem: str) -> None:
    read = read_cec_settings({"cec": {**table, "tv_standby": False}}, "pyramid.toml")
    assert read.problems == (problem,)
    assert (read.enabled, read.wake_tv, read.tv_standby, read.osd_name) == (True, True, False, "Pyramid")


def test_a_cec_value_that_is_no_table() -> None:
    assert read_cec_settings({"cec": 1}, "pyramid.toml").problems == ("pyramid.toml: [cec] must be a table; using the defaults",)
