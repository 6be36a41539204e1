"""The ``[cec]`` table of the hardware settings file: the console on the TV's HDMI-CEC bus.

Keys (docs/settings-input.md lists them with the messages each sends):

- ``enabled`` (default true): claim a Playback address on every CEC adapter
  found and answer the TV; false leaves the bus alone (the TV's keys may still
  arrive through the kernel's remote-control device, claimed by another program);
- ``wake_tv`` (default true): One Touch Play — the TV is woken and switched to
  the console when it comes on the bus, and when a key is pressed on another
  device while the TV shows another input;
- ``tv_standby`` (default true): "Power off" in the console's menu offers to put
  the TV to standby too;
- ``osd_name`` (default "Pyramid"): the name the TV shows for the console,
  1–14 printable ASCII characters.

As for every table of the file, a wrong value never stops the console: each
problem is one line naming the key and the default used instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from pyramid.system.cec.messages import CecError, osd_name_bytes

KEYS = ("enabled", "wake_tv", "tv_standby", "osd_name")
DEFAULT_OSD_NAME = "Pyramid"
#: How much of a wrong value a problem line quotes.
SHOWN = 40


class CecSettings(NamedTuple):
    enabled: bool = True
    wake_tv: bool = True
    tv_standby: bool = True
    osd_name: str = DEFAULT_OSD_NAME
    problems: tuple[str, ...] = ()


def read_cec_settings(sections: Mapping[str, object], source: str = "settings") -> CecSettings:
    """Read ``sections["cec"]`` (absent: the defaults); ``source`` names the file in the problems."""
    table = sections.get("cec")
    if table is None:
        return CecSettings()
    if not isinstance(table, Mapping):
        return CecSettings(problems=(f"{source}: [cec] must be a table; using the defaults",))
    problems = [f"{source}: unknown key {_shown(key)} in [cec], ignored" for key in table if key not in KEYS]
    switches = {}
    for key in KEYS[:3]:
        value = table.get(key, True)
        if type(value) is not bool:
            problems.append(f"{source}: [cec] {key} = {_shown(value)} is not true or false; using true")
            value = True
        switches[key] = value
    name = table.get("osd_name", DEFAULT_OSD_NAME)
    try:
        if not isinstance(name, str):
            raise CecError("not text")
        osd_name_bytes(name)
    except CecError:
        problems.append(f"{source}: [cec] osd_name = {_shown(name)} is not 1 to 14 printable ASCII characters;"
                        f" using {DEFAULT_OSD_NAME!r}")
        name = DEFAULT_OSD_NAME
    return CecSettings(switches["enabled"], switches["wake_tv"], switches["tv_standby"], name, tuple(problems))


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"
