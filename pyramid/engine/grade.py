"""Difficulty grades of winnable deals — Easy, Medium, Hard, Expert — measured by the solver.

**The measure: traps.** The solver finds a winning line; along it, every
other legal move is solved too, and a *trap* is a move there that turns the
won deal into a lost one. A deal with no trap forgives anything; one with
many punishes every move played by sight. Measured over 400 winnable deals
each of Three passes and Relaxed, the traps separated a greedy player's wins
(``tests/greedy.py``) best of the measures tried: by quarters of
each measure, the greedy win rate went 77/52/29/17 % (Three passes) and
42/15/7/1 % (Relaxed) for traps, against 57/48/44/26 % and 38/15/7/5 % for the
solver's effort (nodes), 47/52/37/39 % and 25/23/11/7 % for the length of its
line, and 72/53/28/22 % and 34/11/14/7 % for how early the first trap comes.

**The grades** cut the traps of a preset's winnable deals into quarters (the
scale of each preset: :class:`GradeScale`, from the deals graded by
``benchmarks/make_grade_lists.py``), so each grade holds about a quarter of
the winnable deals of its preset.

**Cost, and why lists.** Grading solves some 40 positions per deal: with the
compiled core 9 to 17 ms here on average, depending on the preset, and 185 ms
at most over the 90,000 shipped deals (a Pi Zero 2 is about ten times slower;
the pure-Python search ten times slower again). The grades of the shipped winnable deals are shipped too,
in ``data/grades-<preset>.bin`` (the scale, then one byte of traps a deal in the
order of the winnable list, zlib-compressed), so a chosen grade is dealt at
once; deals proven live (:func:`live_grade`) and deals under other redeals than
a preset's own (:func:`pick_graded_number`) are graded live. The node budgets make the grade of a
shipped deal the same on every console, however slow: a deal that needs more is
simply not graded.
"""

from __future__ import annotations

import bisect
import random
import struct
import time
import zlib
from collections.abc import Callable, Collection, Sequence
from functools import cache
from importlib import resources
from typing import NamedTuple

from pyramid.engine.board import Board
from pyramid.engine.cards import Card
from pyramid.engine.deal import numbered_deal
from pyramid.engine.difficulty import GRADES, Grade
from pyramid.engine.rules import PRESETS, Rules
from pyramid.engine.solver import Core, solve
from pyramid.engine.winnable import find_winnable_number, read_list

#: The first bytes of a grade file (and its format version).
MAGIC = b"PYGR1"
#: Node budget of the verdict search for the deal itself.
LINE_NODES = 100_000
#: Node budget for each position off the winning line; a position that needs
#: more is not counted as a trap (it is rare, and a hard proof is no quick trap).
BRANCH_NODES = 20_000
#: Node budget for grading one deal in all: past it the deal gets no grade.
GRADE_NODES = 400_000
#: In a grade file, a listed deal that got no grade; more traps than that are stored as one less.
UNGRADED = 255
_HEADER = struct.Struct("<HHH")


class Difficulty(NamedTuple):
    """What grading a winnable deal measured: ``traps`` (moves off the solver's line that lose the
    deal), ``choices`` (moves off the line examined), the line's length and the solver nodes spent."""

    traps: int
    choices: int
    steps: int
    nodes: int


class GradeScale(NamedTuple):
    """The least traps of a Medium, a Hard and an Expert deal under one preset."""

    medium: int
    hard: int
    expert: int

    def grade(self, traps: int) -> Grade:
        """The grade of a deal with ``traps`` traps."""
        return GRADES[sum(traps >= least for least in self)]


class GradeList(NamedTuple):
    """A preset's scale and the traps of the first ``len(traps)`` numbers of its winnable list
    (:data:`UNGRADED` for a deal whose measure did not fit in the budget)."""

    scale: GradeScale
    traps: bytes

    def grade(self, index: int) -> Grade | None:
        """The grade of the ``index``-th listed deal."""
        traps = self.traps[index]
        return None if traps == UNGRADED else self.scale.grade(traps)


def measure(board: Board, max_seconds: float | None = None, cancelled: Callable[[], bool] | None = None,
            core: Core | None = None) -> Difficulty | None:
    """The traps of ``board`` from its position; ``None`` unless the solver proves it winnable
    and the whole measure fits in :data:`GRADE_NODES` (and ``max_seconds``, for a live search
    that must not keep a player waiting; the grade is then no longer the same on every console),
    or once ``cancelled`` says so. ``core`` chooses the search (:func:`~pyramid.engine.solver.solve`):
    the shipped grades were measured with the compiled core, and the Python search measures the
    same traps on 98-100 % of deals (the lines of the two may differ where two moves are as good).
    Every question is asked ``pairs_first`` (see :func:`~pyramid.engine.solver.solve`): traps
    counted along the lines that put removals inside the pyramid off separated a greedy player's
    wins less well (``benchmarks/bench_grades.py``, 1,000 deals a preset: the easiest quarter's
    win rate fell on eight presets of nine, the hardest one's rose on all nine), and the node budgets
    would no longer match the shipped lists'."""
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    solution = solve(board, max_nodes=LINE_NODES, max_seconds=max_seconds, cancelled=cancelled, core=core,
                     pairs_first=True)
    if solution.verdict != "win":
        return None
    game, nodes, traps, choices = board.copy(), solution.nodes, 0, 0
    for move in solution.moves:
        for other in game.legal_moves:
            if other == move:
                continue
            game.push(other)
            branch = solve(game, max_nodes=min(BRANCH_NODES, GRADE_NODES - nodes), cancelled=cancelled, core=core,
                           pairs_first=True)
            game.pop()
            nodes += branch.nodes
            if (nodes >= GRADE_NODES or (deadline is not None and time.monotonic() > deadline)
                    or (cancelled is not None and cancelled())):
                return None
            choices += 1
            traps += branch.verdict == "lose"
        game.push(move)
    return Difficulty(traps, choices, solution.steps, nodes)


def scale_from(traps: Sequence[int]) -> GradeScale:
    """The scale cutting ``traps`` (a sample of a preset's winnable deals) into quarters.

    Each threshold is the traps of the deal a quarter further in the sorted
    sample, and at least one more than the threshold before, so that no grade
    is empty by construction even when many deals have no trap at all.
    """
    if not traps:
        raise ValueError("a grade scale needs at least one graded deal")
    ordered = sorted(traps)
    least = []
    floor = 1
    for quarter in (1, 2, 3):
        value = max(ordered[len(ordered) * quarter // 4], floor)
        least.append(value)
        floor = value + 1
    return GradeScale(*least)


def grade_file_name(preset_name: str) -> str:
    """The data file holding ``preset_name``'s grade scale and grades."""
    return f"grades-{preset_name}.bin"


def pack_grades(grades: GradeList) -> bytes:
    """The file contents for ``grades`` (see the module docstring)."""
    return MAGIC + zlib.compress(_HEADER.pack(*grades.scale) + grades.traps, 9)


def unpack_grades(data: bytes) -> GradeList:
    """The inverse of :func:`pack_grades`; ``ValueError`` for anything else."""
    if not data.startswith(MAGIC):
        raise ValueError("not a grade list")
    try:
        body = zlib.decompress(data[len(MAGIC):])
    except zlib.error as error:
        raise ValueError(f"damaged grade list: {error}") from None
    if len(body) < _HEADER.size:
        raise ValueError("truncated grade list")
    medium, hard, expert = _HEADER.unpack_from(body)
    if not 0 < medium < hard < expert:
        raise ValueError(f"grade list scale {medium}, {hard}, {expert} is not increasing")
    return GradeList(GradeScale(medium, hard, expert), body[_HEADER.size:])


@cache
def read_grades(preset_name: str) -> GradeList | None:
    """The shipped grades of ``preset_name`` (``None`` when it has none)."""
    path = resources.files("pyramid.engine").joinpath("data", grade_file_name(preset_name))
    if not path.is_file():
        return None
    return unpack_grades(path.read_bytes())


@cache
def _listed(rules: Rules) -> tuple[tuple[int, ...], tuple[Grade | None, ...]]:
    """The graded winnable numbers of ``rules`` and their grades (empty unless ``rules`` is a preset's own)."""
    shipped = read_grades(rules.name)
    if shipped is None or PRESETS.get(rules.name) != rules:
        return (), ()
    numbers = read_list(rules.name).numbers[: len(shipped.traps)]
    return numbers, tuple(shipped.grade(index) for index in range(len(numbers)))


def listed_grade(rules: Rules, number: int) -> Grade | None:
    """The shipped grade of deal ``number`` under ``rules``; ``None`` when it is not among the
    graded deals of ``rules`` (which must be a preset's own)."""
    numbers, grades = _listed(rules)
    index = bisect.bisect_left(numbers, number)
    if index < len(numbers) and numbers[index] == number:
        return grades[index]
    return None


def pick_graded_number(
    rules: Rules, grade: Grade, rng: random.Random, seconds: float, played: Collection[int] = (),
    cancelled: Callable[[], bool] | None = None,
) -> int | None:
    """A winnable deal number of ``grade`` under ``rules``: from the shipped grades, else searched live.

    Listed deals in ``played`` are not offered again. Once every listed deal
    of the grade is played, or when none is listed, random deals are proven
    winnable and graded for up to ``seconds`` (under rules other than the
    preset's own, such as more redeals, on the preset's scale). ``None`` when none was found
    in time, the preset has no scale, or ``cancelled`` called the search off.
    """
    seen = set(played)
    numbers, grades = _listed(rules)
    fresh = [number for number, of in zip(numbers, grades) if of == grade and number not in seen]
    if fresh:
        return rng.choice(fresh)
    shipped = read_grades(rules.name)
    if shipped is None:
        return None
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        number = find_winnable_number(rules, rng, left, cancelled)
        if number is None:
            return None
        difficulty = measure(Board(numbered_deal(number, rules.deck), rules), max(0.0, deadline - time.monotonic()),
                             cancelled)
        if difficulty is not None and shipped.scale.grade(difficulty.traps) == grade:
            return number
    return None


def live_grade(rules: Rules, cards: Sequence[Card], seconds: float,
               cancelled: Callable[[], bool] | None = None) -> Grade | None:
    """The grade of a deal proven winnable live (``cards`` under ``rules``), measured within ``seconds``
    on its preset's scale (as :func:`pick_graded_number` does: rules other than the preset's own, such as
    more redeals, are graded on it too); ``None`` when it did not fit or the preset has no scale."""
    shipped = read_grades(rules.name)
    if shipped is None:
        return None
    difficulty = measure(Board(tuple(cards), rules), seconds, cancelled)
    return None if difficulty is None else shipped.scale.grade(difficulty.traps)
