"""Plurals by CLDR category (issue 48, item 4): each catalogue's rule agrees with the CLDR tables (as
Babel ships them), and a language with more forms than two is one file and one line."""

from __future__ import annotations

import sys
from importlib import import_module

import pytest
from babel.core import Locale

import polish_catalogue
from pyramid.console import catalogue
from pyramid.console.catalogue import say_count, use_language
from pyramid.console.catalogue.plurals import CATEGORIES
from pyramid.languages import LANGUAGES

#: Whole numbers that tell every CLDR rule of the languages here apart (and negative scores).
COUNTS = [*range(0, 130), 1000, 1001, 1002, 1005, 1012, 1022, 999_999, 1_000_000, 2_000_000, -1, -2, -5, -22]


@pytest.mark.parametrize("language", list(LANGUAGES) + ["pl"])
def test_each_rule_is_cldrs(language: str) -> None:
    module = polish_catalogue if language == "pl" else import_module(f"pyramid.console.catalogue.{language}")
    cldr = Locale.parse(language).plural_form
    assert [module.plural(count) for count in COUNTS] == [cldr(count) for count in COUNTS]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_counted_message_has_its_languages_forms(language: str) -> None:
    module = import_module(f"pyramid.console.catalogue.{language}")
    assert "other" in module.PLURAL_FORMS and set(module.PLURAL_FORMS) <= set(CATEGORIES)
    families: dict[str, set[str]] = {}
    for key in module.MESSAGES:
        family, _, form = key.rpartition(".")
        if form in CATEGORIES:
            families.setdefault(family, set()).add(form)
    counted = {family: forms for family, forms in families.items() if "other" in forms}  # not "redeals.one"
    assert counted, "the catalogue has counted messages: the check can fail"
    assert all(forms == set(module.PLURAL_FORMS) for forms in counted.values()), counted


def test_polish_is_one_file_and_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counts 1, 2, 5, 22, 25 read as a Polish reader expects: ruch, ruchy, ruchów, ruchy, ruchów."""
    monkeypatch.setattr(catalogue, "LANGUAGES", {**LANGUAGES, "pl": "Polski"})  # the line
    monkeypatch.setitem(sys.modules, "pyramid.console.catalogue.pl", polish_catalogue)  # the file
    use_language("pl")
    assert [say_count("game.moves", count) for count in (1, 2, 5, 22, 25)] == [
        "1 ruch", "2 ruchy", "5 ruchów", "22 ruchy", "25 ruchów"]
    assert say_count("table.redeals_left", 12) == "Zostało 12 rozdań"
    assert say_count("table.redeals_left", 3) == "Zostały 3 rozdania"


def test_a_category_without_a_form_reads_the_other_form() -> None:
    """French has CLDR's "many" for a million and more; its catalogue writes no such form."""
    use_language("fr")
    assert say_count("game.moves", 1_000_000) == "1000000 coups"
    assert say_count("game.moves", 0) == "0 coup"
