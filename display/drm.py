"""Which DRM card drives a screen that is plugged in, read from sysfs.

A Pi 4/5 has two DRM cards (the render-only v3d and the vc4 display card);
only the one with a connected connector can show anything (FACTS.md). The
sysfs root is a parameter so tests can build a fake tree.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

import re
from pathlib import Path
from typing import NamedTuple

SYSFS = Path("/sys")

#: Connector types shown on a TV (overscan: keep to a safe area).
TV_CONNECTORS = ("HDMI", "Composite", "SVIDEO", "TV")

_CONNECTOR_DIR = re.compile(r"card(\d+)-(.+)")


class DrmOutput(NamedTuple):
    """A connected connector: ``card`` is N in /dev/dri/cardN, ``connector`` e.g. ``"HDMI-A-1"``."""

    card: int
    connector: str

    @property
    def is_tv(self) -> bool:
        return self.connector.startswith(TV_CONNECTORS)


def connected_outputs(sysfs: Path = SYSFS) -> list[DrmOutput]:
    """Every connector whose ``status`` says ``connected``, by card then connector name."""
    outputs = []
    for status in sorted((sysfs / "class" / "drm").glob("card*-*/status")):
        match = _CONNECTOR_DIR.fullmatch(status.parent.name)
        try:
            connected = status.read_text().strip() == "connected"
        except OSError:
            continue
        if match and connected:
            outputs.append(DrmOutput(int(match.group(1)), match.group(2)))
    return outputs
