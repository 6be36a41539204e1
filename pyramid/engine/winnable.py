"""Deal numbers known to be winnable, for the "winnable deals only" option.

The lists in ``pyramid/engine/data/winnable-<preset>.txt`` were found by the solver
(``python benchmarks/make_winnable_lists.py``) under each preset's default
redeals, and the tests solve a sample of them again. A deal won with some
redeals is also won with more, so a list serves every allowance at least the
default; for fewer redeals there is no list and the console falls back to the
solver with a time budget.
"""

from __future__ import annotations

import random
import time
from functools import cache
from importlib import resources

from pyramid.engine.board import Board
from pyramid.engine.deal import MAX_DEAL_NUMBER, numbered_deal
from pyramid.engine.rules import PRESETS, Rules
from pyramid.engine.solver import solve


def list_file_name(preset_name: str) -> str:
    """The data file holding ``preset_name``'s winnable deal numbers."""
    return f"winnable-{preset_name}.txt"


def _redeals_at_least(redeals: int | None, minimum: int | None) -> bool:
    if redeals is None:
        return True
    return minimum is not None and redeals >= minimum


@cache
def _read_list(preset_name: str) -> tuple[int, ...]:
    text = resources.files("pyramid.engine").joinpath("data", list_file_name(preset_name)).read_text(encoding="utf-8")
    return tuple(int(line) for line in text.split("\n") if line.strip() and not line.startswith("#"))


def winnable_deal_numbers(rules: Rules) -> list[int]:
    """Numbered deals (see :func:`pyramid.deal.numbered_deal`) known winnable under ``rules``.

    Empty when ``rules`` is not a preset with at least its default redeals.
    """
    default = PRESETS.get(rules.name)
    if default is None or rules._replace(redeals=default.redeals) != default:
        return []
    if not _redeals_at_least(rules.redeals, default.redeals):
        return []
    return list(_read_list(rules.name))


def pick_winnable_number(rules: Rules, rng: random.Random, seconds: float) -> int | None:
    """A deal number the solver wins under ``rules``: from the list, else searched for ``seconds``.

    ``None`` when the search found none in time (the console then deals at random).
    """
    known = winnable_deal_numbers(rules)
    if known:
        return rng.choice(known)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        number = rng.randint(1, MAX_DEAL_NUMBER)
        board = Board(numbered_deal(number, rules.deck), rules)
        if solve(board, max_seconds=max(deadline - time.monotonic(), 0.01)).verdict == "win":
            return number
    return None
