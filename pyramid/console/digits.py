"""Numbers entered digit by digit, with the arrows or typed: the deal and match number, an address and its port.

A console has arrows, not a keyboard: ▲ ▼ change the digit under the cursor,
◀ ▶ move from digit to digit through every field, so each digit costs at most
five presses (issue 29: an address used to be stepped a whole number at a
time, 235 presses for 127.0.0.1). A keyboard types too: the first digit typed
in a field replaces it, the next ones come in on the right as on a calculator,
and a field that can take no more digits hands the next one to the field after
it (192, 168, 1, 20 typed in a row fill an address).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pyramid.actions import ARROWS, Action, Kind


class DigitField(NamedTuple):
    """One number of an entry: ``width`` digits, valid from ``smallest`` to ``largest``."""

    width: int
    smallest: int
    largest: int


def _top(field: DigitField) -> int:
    """The largest number the field's digits can show (999 for three)."""
    return int("9" * field.width)


class DigitEntry:
    """The numbers of some fields and a cursor on one digit of them (digit 0: the first field's first)."""

    def __init__(self, fields: Sequence[DigitField], values: Sequence[int], cursor: int) -> None:
        self.fields = tuple(fields)
        self.values: list[int] = [min(max(value, 0), _top(field)) for field, value in zip(self.fields, values)]
        self.cursor = cursor
        #: Whether the field under the cursor was typed into since the cursor came (else a digit replaces it).
        self.typed = False

    @property
    def digits(self) -> int:
        return sum(field.width for field in self.fields)

    @property
    def field(self) -> int:
        """The field the cursor is on."""
        return self._place(self.cursor)[0]

    def _place(self, cursor: int) -> tuple[int, int]:
        """(field, place): ``place`` 0 is the field's last digit (units), 1 its tens …"""
        for index, field in enumerate(self.fields):
            if cursor < field.width:
                return index, field.width - 1 - cursor
            cursor -= field.width
        raise ValueError(f"no digit {cursor}")

    def _last_digit_of(self, field: int) -> int:
        return sum(one.width for one in self.fields[:field + 1]) - 1

    @property
    def valid(self) -> bool:
        return all(field.smallest <= value <= field.largest for field, value in zip(self.fields, self.values))

    def step(self, up: bool) -> None:
        """▲ ▼: the digit under the cursor one up or down (9 goes round to 0)."""
        field, place = self._place(self.cursor)
        digit = self.values[field] // 10 ** place % 10
        self.values[field] += ((digit + (1 if up else -1)) % 10 - digit) * 10 ** place
        self.typed = False

    def move(self, right: bool) -> None:
        """◀ ▶: the next or previous digit, round the ends."""
        self.cursor = (self.cursor + (1 if right else -1)) % self.digits
        self.typed = False

    def type(self, digit: int) -> None:
        """A typed digit (see the module note); the cursor stays on the field's last digit."""
        field = self.field
        spec, value = self.fields[field], self.values[field]
        grown = value * 10 + digit if self.typed else digit
        if self.typed and (grown > _top(spec) or grown > spec.largest) and field + 1 < len(self.fields):
            field, grown = field + 1, digit  # this field is full: the digit starts the next one
        self.values[field] = grown % (_top(self.fields[field]) + 1)
        self.cursor, self.typed = self._last_digit_of(field), True

    def erase(self) -> None:
        """Backspace: the field's last digit goes (its number loses a place)."""
        field = self.field
        self.values[field] //= 10
        self.cursor, self.typed = self._last_digit_of(field), True

    def edit(self, action: Action) -> bool:
        """Apply ``action`` if it edits the numbers (a digit typed, Backspace, an arrow); whether it did."""
        if action.kind is Kind.TYPE and action.text.isdigit():
            self.type(int(action.text))
        elif action.kind is Kind.ERASE:
            self.erase()
        elif action.kind in (Kind.UP, Kind.DOWN):
            self.step(action.kind is Kind.UP)
        elif action.kind in ARROWS:
            self.move(action.kind is Kind.RIGHT)
        else:
            return False
        return True

    def shown(self) -> list[str]:
        """Each field as written, the cursor's digit in brackets; leading zeros only from the cursor on
        ("[1]", "[0]1": never "000000000[1]")."""
        shown = []
        start = 0
        for field, value in zip(self.fields, self.values):
            text = str(value).rjust(field.width, "0")
            if start <= self.cursor < start + field.width:
                at = self.cursor - start
                first = min(at, field.width - len(str(value)))
                shown.append(text[first:at] + f"[{text[at]}]" + text[at + 1:])
            else:
                shown.append(str(value))
            start += field.width
        return shown
