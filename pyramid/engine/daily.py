"""The daily challenge: one winnable deal a day, the same on every console, with its par.

The **par** is the length of the shortest solution: draws, redeals and
removals, each one move, as the console counts the player's moves. The presets
that score points (RetroHub, Three passes) have a **score par** too: the best
score reachable (:mod:`pyramid.engine.solver.best_score`), shipped in
``data/best-scores-<preset>.bin`` (``benchmarks/make_score_lists.py``): the
compiled search takes from milliseconds to some twenty seconds and gigabytes a
deal here, more than a Pi Zero 2 can give.

**Why shipped.** A shortest solution takes the solver 0.1 to 1 s here for a
typical winnable deal and up to ~7 s (a Pi Zero 2 is about ten times
slower), and under RetroHub rules one random deal in 27 is winnable at all:
finding and solving the day's deal live would keep a Pi busy for half a
minute. So the pars of the first deals of each preset's winnable list
(:mod:`pyramid.engine.winnable`) are shipped in ``data/pars-<preset>.bin``
(one byte a deal, in list order, 0 for a deal not solved within the budget;
zlib-compressed), made by ``benchmarks/make_par_lists.py``, and the day picks
one of them: the deals with a par are visited in a fixed permutation of the
date (a stride coprime with their count), so no deal comes back before every
other one has been the daily deal. Every console with the same lists agrees
on the day's deal and its par.
"""

from __future__ import annotations

import datetime
import logging
import math
import zlib
from functools import cache
from importlib import resources
from typing import NamedTuple

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.errors import EngineError
from pyramid.engine.rules import Rules
from pyramid.engine.winnable import read_list

log = logging.getLogger(__name__)

#: Days after its day that a daily deal can still be played (the calendar's span, and how long a result
#: shared among friends is kept).
DAYS_BACK = 365
#: The first bytes of a par file (and its format version).
MAGIC = b"PYPR1"
#: In a par file: a listed deal whose shortest solution was not found within the budget (in a
#: best-score file: whose best score was not).
NO_PAR = 0
#: The first bytes of a best-score file (and its format version).
SCORE_MAGIC = b"PYBS1"


class DailyChallenge(NamedTuple):
    """The day's deal number and its par (the moves of its shortest solution); for the presets
    that score points, its score par too (the best score reachable), when it was found."""

    number: int
    par: int
    score_par: int | None = None


class NoDailyChallenge(EngineError, ValueError):
    """The preset ships no deal with a par, so it has no daily challenge."""


def par_file_name(preset_name: str) -> str:
    """The data file holding the pars of ``preset_name``'s first winnable deals."""
    return f"pars-{preset_name}.bin"


def score_file_name(preset_name: str) -> str:
    """The data file holding the best scores of ``preset_name``'s daily deals (the scoring presets)."""
    return f"best-scores-{preset_name}.bin"


def pack_scores(scores: list[int]) -> bytes:
    """The file contents for ``scores``: :data:`SCORE_MAGIC`, then zlib of one little-endian
    16-bit score a deal in list order (:data:`NO_PAR` for a deal not searched to the end)."""
    return SCORE_MAGIC + zlib.compress(b"".join(score.to_bytes(2, "little") for score in scores), 9)


def unpack_scores(data: bytes) -> tuple[int, ...]:
    """The inverse of :func:`pack_scores`; ``ValueError`` for anything else."""
    if not data.startswith(SCORE_MAGIC):
        raise ValueError("not a best-score list")
    try:
        body = zlib.decompress(data[len(SCORE_MAGIC):])
    except zlib.error as error:
        raise ValueError(f"damaged best-score list: {error}") from None
    if len(body) % 2:
        raise ValueError("truncated best-score list")
    return tuple(int.from_bytes(body[at:at + 2], "little") for at in range(0, len(body), 2))


def pack_pars(pars: bytes) -> bytes:
    """The file contents for ``pars`` (see the module docstring)."""
    return MAGIC + zlib.compress(pars, 9)


def unpack_pars(data: bytes) -> bytes:
    """The inverse of :func:`pack_pars`; ``ValueError`` for anything else."""
    if not data.startswith(MAGIC):
        raise ValueError("not a par list")
    try:
        return zlib.decompress(data[len(MAGIC):])
    except zlib.error as error:
        raise ValueError(f"damaged par list: {error}") from None


@cache
def challenges(preset_name: str) -> tuple[DailyChallenge, ...]:
    """Every shipped deal of ``preset_name`` with its par (and score par, if shipped), in list order."""
    data = resources.files("pyramid.engine").joinpath("data")
    path = data.joinpath(par_file_name(preset_name))
    if not path.is_file():
        return ()
    pars = unpack_pars(path.read_bytes())
    scores_path = data.joinpath(score_file_name(preset_name))
    try:
        scores = unpack_scores(scores_path.read_bytes()) if scores_path.is_file() else ()
    except ValueError as error:  # a damaged card: the daily deals keep their moves par
        log.warning("daily deals of %s: no score par (%s)", preset_name, error)
        scores = ()
    numbers = read_list(preset_name).numbers
    return tuple(DailyChallenge(number, par, scores[index] if index < len(scores) and scores[index] else None)
                 for index, (number, par) in enumerate(zip(numbers, pars)) if par != NO_PAR)


def stride(count: int) -> int:
    """The step of the day's permutation over ``count`` deals: near the golden section of ``count``
    (consecutive days far apart in the list) and coprime with it (every deal once per cycle)."""
    step = max(1, round(count * 0.618))
    while math.gcd(step, count) != 1:
        step += 1
    return step


def daily_challenge(day: datetime.date, preset_name: str) -> DailyChallenge:
    """The daily challenge of ``day`` under ``preset_name``'s rules and default redeals.

    :class:`NoDailyChallenge` for a preset without shipped pars.
    """
    shipped = challenges(preset_name)
    if not shipped:
        raise NoDailyChallenge(f"the {preset_name!r} rules have no daily challenge (no deal with a par is shipped)")
    return shipped[day.toordinal() * stride(len(shipped)) % len(shipped)]


def daily_board(day: datetime.date, rules: Rules) -> Board:
    """A fresh board of the daily deal of ``day`` under ``rules`` (its preset's deal of the day, with the
    redeal allowance ``rules`` has: RetroHub's player chooses it). :class:`NoDailyChallenge` as
    :func:`daily_challenge`."""
    return Board(numbered_deal(daily_challenge(day, rules.name).number, rules.deck), rules)
