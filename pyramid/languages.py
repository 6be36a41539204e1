"""The interface languages: one list, read by the catalogues, the player's settings and the options.

Each language has a catalogue, ``pyramid/console/catalogue/<code>.py``, with every
message and its plural rule. Adding a language is that file and its line here
(docs/architecture.md, "Adding a language").
"""

from types import MappingProxyType
from typing import Mapping

#: Each language's code, with its name in its own words (as the Settings line shows it); English first,
#: the default.
LANGUAGES: Mapping[str, str] = MappingProxyType({
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
})
