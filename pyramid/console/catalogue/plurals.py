"""Plural categories, as CLDR names them: each language's rule picks one for a count.

Unicode's CLDR (TR35, "Language Plural Rules"; the tables at
https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html) gives every
language a rule that maps a number to one of six categories; English has two of them (1 deal,
2 deals), French three (0 and 1 take the singular, a million takes "de"), Polish four (1 ruch, 2
ruchy, 5 ruchów, 22 ruchy, 25 ruchów). A catalogue's ``plural(count)`` is its language's rule on whole
numbers, written from those tables and checked against them (``tests/test_plurals.py``, against
Babel's CLDR data); its messages give a ``key.<category>`` form for each category in its
``PLURAL_FORMS``. Any category a catalogue gives no form for reads its ``other`` form, as CLDR's
"other" is the catch-all (French's ``many``: "1 000 000 de donnes" is no count the console shows).
"""

from typing import Literal

PluralCategory = Literal["zero", "one", "two", "few", "many", "other"]

#: Every category, in CLDR's order.
CATEGORIES: tuple[PluralCategory, ...] = ("zero", "one", "two", "few", "many", "other")
