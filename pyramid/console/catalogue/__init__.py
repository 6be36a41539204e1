"""Every word the console shows, in one catalogue per language (:data:`pyramid.languages.LANGUAGES`).

Screens hold no player-visible text: they ask :func:`say` for a message by its
dotted key (``"menu.new_game"``), with named fields for what varies
(``say("game.cleared_points", points=420)``), so a translator works on one file
per language and never on the code. :func:`say_count` picks the form of a
count by its CLDR plural category, each language's own rule (each catalogue's
``plural``: French says "1 donne", "0 donne"; Polish would say "2 ruchy", "5
ruchów", :mod:`.plurals`).

The language is one for the whole console, like gettext's current locale: the
player's setting (or ``--language``) chooses it at start and Settings changes it,
after which every screen's next view speaks the new language. English is the
default and is loaded with this module; another catalogue loads only when chosen
(start-up time on a Pi Zero 2).
"""

from __future__ import annotations

from collections.abc import Callable
import re
import string
from importlib import import_module
from typing import Mapping

from pyramid.console.catalogue import en
from pyramid.console.catalogue.plurals import PluralCategory
from pyramid.engine.cards import FACE_LETTERS, CardLetters
from pyramid.languages import LANGUAGES


#: A word a field's value (a player's name) is put after, and the vowels before which it elides.
_OPEN = "\x00"
_VOWELS = "AEIOUYÀÂÄÆÉÈÊËÎÏÔÖŒÙÛÜaeiouyàâäæéèêëîïôöœùûü"


class _Marking(string.Formatter):
    """``str.format``, each text filled in (a name) marked at its start, for :func:`_elided`."""

    def format_field(self, value: object, format_spec: str) -> str:
        text: str = super().format_field(value, format_spec)
        return _OPEN + text if isinstance(value, str) else text


_MARKING = _Marking()


class _Current:
    """The language in use, its messages, its plural rule and its elisions (one per console: see the
    module's docstring)."""

    language = "en"
    messages: Mapping[str, str] = en.MESSAGES
    plural: Callable[[int], PluralCategory] = staticmethod(en.plural)
    elisions: Mapping[str, str] = en.ELISIONS
    court_letters: CardLetters = en.COURT_LETTERS


def use_language(language: str) -> None:
    """Speak ``language`` from now on; ``ValueError`` quoting it when there is no such catalogue."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}")
    module = import_module(f"{__name__}.{language}")
    _Current.language, _Current.messages, _Current.plural = language, module.MESSAGES, module.plural
    _Current.elisions, _Current.court_letters = module.ELISIONS, module.COURT_LETTERS


def letters_for(choice: str) -> CardLetters:
    """The court letters to show for the player's choice: ``"language"`` (the default) gives the
    language in use's own (J Q K, V D R, B D K); any other is a language's letters, kept whatever the
    language."""
    for letters in FACE_LETTERS:
        if choice == letters:
            return letters
    return _Current.court_letters


def current_language() -> str:
    return _Current.language


def say(key: str, **fields: object) -> str:
    """The message ``key`` in the current language, its ``{fields}`` filled in."""
    try:
        message = _Current.messages[key]
    except KeyError:
        raise KeyError(f"no message {key!r} in the {_Current.language!r} catalogue") from None
    if not fields:
        return message
    if not _Current.elisions:
        return message.format(**fields)
    return _elided(_MARKING.format(message, **fields))


def _elided(text: str) -> str:
    """French puts "d'" for "de" before a name that starts with a vowel ("Table d'Anne-Sophie"): each
    word of the catalogue's ``ELISIONS`` that stands right before a filled-in name (marked) is elided."""
    for word, elided in _Current.elisions.items():
        text = re.sub(rf"\b{word} {_OPEN}(?=[{_VOWELS}])", elided + _OPEN, text)
    return text.replace(_OPEN, "")


def knows(key: str) -> bool:
    """Whether the catalogue has ``key`` (a code from outside, such as a level a peer sent, may be unknown)."""
    return key in _Current.messages


def say_count(key: str, count: int, **fields: object) -> str:
    """``key.<category>`` for ``count``'s CLDR plural category in the language in use (English: "one"
    for 1; French: for 0 and 1; Polish: "few" for 2–4, 22–24…), with ``count`` among the fields; a
    category the catalogue gives no form for reads ``key.other`` (see :mod:`.plurals`)."""
    form = f"{key}.{_Current.plural(count)}"
    return say(form if form in _Current.messages else f"{key}.other", count=count, **fields)
