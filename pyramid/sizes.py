"""Screen sizes as the command line and the settings file give them ("800x480"), checked.

A base module beside the view contract: the options (``--size``) and the display's settings read it,
and it knows nothing of either (issue 48: it lived in ``view.py``, the view contract's module).
"""

import re

#: The smallest and largest screens the layout supports (``--size`` and the settings file):
#: pygame fails, or takes gigabytes, far beyond them.
SIZE_LIMITS = ((200, 200), (7680, 4320))


def parse_size(text: str, name: str = "size") -> tuple[int, int]:
    """``"800x480"`` → ``(800, 480)``; ``ValueError`` naming ``name`` and quoting ``text`` otherwise."""
    match = re.fullmatch(r"\s*(\d{1,9})\s*[xX]\s*(\d{1,9})\s*", text)
    if not match:
        raise ValueError(f"invalid {name} {text!r}: expected WIDTHxHEIGHT, e.g. '800x480'")
    return check_size(text, int(match.group(1)), int(match.group(2)), name)


def check_size(given: object, width: int, height: int, name: str = "size") -> tuple[int, int]:
    """(``width``, ``height``) within :data:`SIZE_LIMITS`; ``ValueError`` quoting ``given`` otherwise."""
    (min_w, min_h), (max_w, max_h) = SIZE_LIMITS
    if not (min_w <= width <= max_w and min_h <= height <= max_h):
        raise ValueError(f"invalid {name} {given!r}: between {min_w}x{min_h} and {max_w}x{max_h}")
    return (width, height)
