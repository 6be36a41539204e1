"""Deal numbers known to be winnable, for the "winnable deals only" option, and a live search past them.

The lists in ``pyramid/engine/data/winnable-<preset>.bin`` were found by the
solver (``python benchmarks/make_winnable_lists.py``) under each preset's
default redeals, and the tests solve a sample of them again. A deal won with
some redeals is also won with more, so a list serves every allowance at least
the default; for fewer redeals, for rules that are no preset, and once a player
has played every listed deal, :func:`find_winnable_number` draws random deal
numbers and asks the solver, each with a small time budget.

The files are packed small because they ship on every console: the sorted
numbers as gaps (each minus the one before), each gap a little-endian base-128
varint (one byte below 128), the whole compressed with zlib. A header records
how far the search went (every deal up to ``searched`` was tried), so that the
generator can carry on where it stopped.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable, Collection, Iterator
from functools import cache
from importlib import resources
from typing import NamedTuple

from pyramid.engine.board import Board
from pyramid.engine.deal import MAX_DEAL_NUMBER, numbered_deal
from pyramid.engine.rules import PRESETS, Rules
from pyramid.engine.solver import solve

#: The first bytes of a list file (and its format version).
MAGIC = b"PYWN1"
#: The solver's time budget per random deal in the live search: a deal that
#: needs longer is rare and skipped, so one hard loss never eats the search.
LIVE_DEAL_SECONDS = 0.5


class WinnableList(NamedTuple):
    """A preset's proven-winnable deal numbers (ascending) and the last deal number tried."""

    numbers: tuple[int, ...]
    searched: int


def list_file_name(preset_name: str) -> str:
    """The data file holding ``preset_name``'s winnable deal numbers."""
    return f"winnable-{preset_name}.bin"


def _varints(values: Iterator[int]) -> bytes:
    out = bytearray()
    for value in values:
        while value >= 0x80:
            out.append(value & 0x7F | 0x80)
            value >>= 7
        out.append(value)
    return bytes(out)


def _read_varints(data: bytes) -> Iterator[int]:
    value = shift = 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
        else:
            yield value
            value = shift = 0


def pack_numbers(winnable: WinnableList) -> bytes:
    """The file contents for ``winnable`` (see the module docstring)."""
    numbers = sorted(set(winnable.numbers))
    gaps = (number - before for number, before in zip(numbers, [0, *numbers]))
    return MAGIC + zlib.compress(_varints(iter([winnable.searched, len(numbers), *gaps])), 9)


def unpack_numbers(data: bytes) -> WinnableList:
    """The inverse of :func:`pack_numbers`; ``ValueError`` for anything else."""
    if not data.startswith(MAGIC):
        raise ValueError("not a winnable-deal list")
    try:
        values = list(_read_varints(zlib.decompress(data[len(MAGIC):])))
    except zlib.error as error:
        raise ValueError(f"damaged winnable-deal list: {error}") from None
    if len(values) < 2 or len(values) != values[1] + 2:
        raise ValueError("truncated winnable-deal list")
    numbers, total = [], 0
    for gap in values[2:]:
        total += gap
        numbers.append(total)
    return WinnableList(tuple(numbers), values[0])


@cache
def read_list(preset_name: str) -> WinnableList:
    """The shipped list of ``preset_name`` (empty when it has none)."""
    path = resources.files("pyramid.engine").joinpath("data", list_file_name(preset_name))
    if not path.is_file():
        return WinnableList((), 0)
    return unpack_numbers(path.read_bytes())


def _redeals_at_least(redeals: int | None, minimum: int | None) -> bool:
    if redeals is None:
        return True
    return minimum is not None and redeals >= minimum


def winnable_deal_numbers(rules: Rules) -> list[int]:
    """Numbered deals (see :func:`pyramid.deal.numbered_deal`) known winnable under ``rules``.

    Empty when ``rules`` is not a preset with at least its default redeals.
    """
    default = PRESETS.get(rules.name)
    if default is None or rules._replace(redeals=default.redeals) != default:
        return []
    if not _redeals_at_least(rules.redeals, default.redeals):
        return []
    return list(read_list(rules.name).numbers)


def find_winnable_number(rules: Rules, rng: random.Random, seconds: float,
                         cancelled: Callable[[], bool] | None = None) -> int | None:
    """A random deal number the solver proves winnable under ``rules``, searched live for up to ``seconds``.

    Each deal gets at most :data:`LIVE_DEAL_SECONDS`; ``None`` when none was
    proven in time, or once ``cancelled`` (asked by the search too) says so.
    """
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or (cancelled is not None and cancelled()):
            return None
        number = rng.randint(1, MAX_DEAL_NUMBER)
        board = Board(numbered_deal(number, rules.deck), rules)
        if solve(board, max_seconds=min(left, LIVE_DEAL_SECONDS), cancelled=cancelled).verdict == "win":
            return number


def pick_winnable_number(
    rules: Rules, rng: random.Random, seconds: float, played: Collection[int] = (), live: bool = False,
    cancelled: Callable[[], bool] | None = None,
) -> int | None:
    """A deal number the solver wins under ``rules``: from the list, else searched live for ``seconds``.

    Listed deals in ``played`` are not offered again; once all are played, or
    with ``live``, or for rules without a list, the deal comes from
    :func:`find_winnable_number` (which ``cancelled`` calls off). ``None`` when the search found
    none in time (the console then deals at random).
    """
    if not live:
        seen = set(played)
        fresh = [number for number in winnable_deal_numbers(rules) if number not in seen]
        if fresh:
            return rng.choice(fresh)
    return find_winnable_number(rules, rng, seconds, cancelled)
