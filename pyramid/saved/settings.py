"""The player's settings: typed defaults and the check of every stored value.

Settings are stored as name → JSON value (see :mod:`pyramid.store`), so a
value written by another version of the program may be of the wrong type or
name a choice that no longer exists. :meth:`PlayerSettings.from_stored` keeps each
value only when it passes its check and falls back to the default otherwise;
names it does not know are ignored (and left in the database, so going back
to a newer version finds them again). Hardware settings (screen, buttons)
live in the display's TOML file, not here.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

from types import MappingProxyType
from typing import Any, Callable, Literal, Mapping, NamedTuple

from pyramid.languages import LANGUAGES
from pyramid.engine.cards import FACE_LETTERS, CardLetters
from pyramid.engine.difficulty import GRADES, Grade
from pyramid.saved.errors import InvalidSettingError
from pyramid.engine.rules import PRESETS, REDEAL_CHOICES

#: How court cards are lettered: as the language in use letters them (the default), or one language's
#: letters whatever the language (docs/rules.md, "Pyramid").
LetterChoice = Literal["language"] | CardLetters
CARD_LETTERS: tuple[str, ...] = ("language", *FACE_LETTERS)
#: The widest margin, in percent of each screen dimension (the limit of ``display.layout``).
MAX_SAFE_AREA = 20
#: The longest player name: what the name-entry screen types and the network protocol carries.
MAX_NAME = 32
DEFAULT_PLAYER_NAME = "Player"
#: Sound volume steps, in percent, as Settings offers them.
VOLUME_LEVELS = (10, 25, 50, 75, 100)


class PlayerSettings(NamedTuple):
    """Every player setting with its default.

    ``redeal_default`` is the line selected first in "Redeal the stock?".
    ``winnable_only`` deals only games the solver can win, and with a grade
    (``"easy"`` … ``"expert"``) only winnable games of that difficulty
    (:mod:`pyramid.engine.grade`); ``True`` and ``False`` as stored before grades stay valid. ``safe_area`` is
    the margin, in percent of the screen's width and height, left clear at
    each edge for TVs that crop the picture (``None``: the display decides —
    5 % on HDMI, none on a built-in panel). ``menu_choices`` remembers the
    last line chosen in each menu (menu name → line name). ``player_name`` is
    shown to the other console at a network table; ``join_address`` is the
    table last joined by address (``"192.168.1.20:47312"``, ``""`` before the first).
    ``language`` picks the catalogue every screen's words come from (``""``: not
    chosen yet, so the settings file's ``[console] language`` or English). ``motion``
    animates moves, ``sound`` plays the effects at ``volume`` percent. ``timer`` shows a game's time
    beside its moves while it is played (off: the moves alone; the end panel gives both). ``share_daily``
    shares the player's daily results with friends on the table server, when one is set (issue 50).
    """

    card_letters: LetterChoice = "language"
    four_colour_suits: bool = False
    redeal_default: str = "none"
    winnable_only: bool | Grade = False
    safe_area: int | None = None
    rules_preset: str = "retrohub"
    menu_choices: Mapping[str, str] = MappingProxyType({})
    player_name: str = DEFAULT_PLAYER_NAME
    join_address: str = ""
    language: str = ""
    motion: bool = True
    sound: bool = True
    volume: int = 75
    timer: bool = False
    share_daily: bool = True

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> "PlayerSettings":
        """PlayerSettings from stored values: invalid values become defaults, unknown names are ignored."""
        valid = {name: value for name, value in stored.items() if name in CHECKS and CHECKS[name].accepts(value)}
        return cls(**valid)


class Check(NamedTuple):
    """What a setting accepts, and how to say it in an error message."""

    accepts: Callable[[Any], bool]
    expected: str


def _is_bool(value: Any) -> bool:
    return type(value) is bool


def _is_safe_area(value: Any) -> bool:
    return value is None or (type(value) is int and 0 <= value <= MAX_SAFE_AREA)


def _is_menu_choices(value: Any) -> bool:
    return isinstance(value, Mapping) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def _is_name(value: Any) -> bool:
    """1 to :data:`MAX_NAME` printable characters, no spaces at either end (what a table accepts)."""
    return (isinstance(value, str) and 1 <= len(value) <= MAX_NAME and value == value.strip()
            and value.isprintable())


def _is_join_address(value: Any) -> bool:
    """``""`` or an IPv4 address and a port, as "Join by address" enters them."""
    if not isinstance(value, str):
        return False
    if value == "":
        return True
    host, colon, port = value.rpartition(":")
    parts = host.split(".")
    return (bool(colon) and len(parts) == 4 and all(p.isdigit() and len(p) <= 3 and int(p) <= 255 for p in parts)
            and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65535)


#: The check of every known setting (one per field of :class:`PlayerSettings`).
CHECKS: dict[str, Check] = {
    "card_letters": Check(lambda v: v in CARD_LETTERS, f"one of {', '.join(CARD_LETTERS)}"),
    "four_colour_suits": Check(_is_bool, "true or false"),
    "redeal_default": Check(lambda v: isinstance(v, str) and v in REDEAL_CHOICES, f"one of {', '.join(REDEAL_CHOICES)}"),
    "winnable_only": Check(lambda v: _is_bool(v) or v in GRADES, f"true, false or one of {', '.join(GRADES)}"),
    "safe_area": Check(_is_safe_area, f"null (automatic) or a whole number of percent from 0 to {MAX_SAFE_AREA}"),
    "rules_preset": Check(lambda v: isinstance(v, str) and v in PRESETS, "the name of a rules preset"),
    "menu_choices": Check(_is_menu_choices, "a mapping of menu names to line names"),
    "player_name": Check(_is_name, f"a name of 1 to {MAX_NAME} printable characters, no spaces at either end"),
    "join_address": Check(_is_join_address, "an empty string or an IPv4 address and port, like 192.168.1.20:47312"),
    "language": Check(lambda v: v == "" or v in LANGUAGES, f"one of {', '.join(LANGUAGES)}, or \"\" (not chosen)"),
    "motion": Check(_is_bool, "true or false"),
    "timer": Check(_is_bool, "true or false"),
    "sound": Check(_is_bool, "true or false"),
    "share_daily": Check(_is_bool, "true or false"),
    "volume": Check(lambda v: v in VOLUME_LEVELS and type(v) is int, f"one of {', '.join(map(str, VOLUME_LEVELS))}"),
}


def check_setting(name: str, value: Any) -> None:
    """Raise ``KeyError`` for an unknown name, :class:`InvalidSettingError` for a bad value."""
    try:
        check = CHECKS[name]
    except KeyError:
        raise KeyError(f"unknown setting {name!r} (known: {', '.join(CHECKS)})") from None
    if not check.accepts(value):
        raise InvalidSettingError(f"invalid value {value!r} for setting {name!r}: expected {check.expected}")
