"""A Polish catalogue for the plural tests, not shipped: the counted messages the tests read, with
Polish's four CLDR forms (one, few, many, other). What a translator adds is this file whole."""

from pyramid.console.catalogue.plurals import PluralCategory
from pyramid.engine.cards import CardLetters


def plural(count: int) -> PluralCategory:
    """CLDR's Polish rule on whole numbers: "one" for 1; "few" when the last digit is 2–4 but not the
    last two 12–14; "many" for every other whole number (0, 5–21, 25…); "other" is for fractions."""
    number = abs(count)
    if number == 1:
        return "one"
    if number % 10 in (2, 3, 4) and number % 100 not in (12, 13, 14):
        return "few"
    return "many"


PLURAL_FORMS: tuple[PluralCategory, ...] = ("one", "few", "many", "other")
COURT_LETTERS: CardLetters = "english"
ELISIONS: dict[str, str] = {}

MESSAGES = {
    "game.moves.one": "{count} ruch",
    "game.moves.few": "{count} ruchy",
    "game.moves.many": "{count} ruchów",
    "game.moves.other": "{count} ruchu",
    "table.redeals_left.one": "Zostało {count} rozdanie",
    "table.redeals_left.few": "Zostały {count} rozdania",
    "table.redeals_left.many": "Zostało {count} rozdań",
    "table.redeals_left.other": "Zostało {count} rozdania",
}
