"""Difficulty grades: the measure, the scale, the packed files and choosing a deal of a grade."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.difficulty import GRADES
from pyramid.engine.grade import (
    UNGRADED,
    GradeList,
    GradeScale,
    listed_grade,
    measure,
    pack_grades,
    pick_graded_number,
    read_grades,
    scale_from,
    unpack_grades,
)
from pyramid.engine.rules import PRESETS, preset
from pyramid.engine.solver import solve
from pyramid.engine.winnable import read_list


def listed(name: str, index: int) -> Board:
    rules = preset(name)
    return Board(numbered_deal(read_list(name).numbers[index], rules.deck), rules)


def test_a_trap_is_a_move_off_the_winning_line_that_loses() -> None:
    board = listed("retrohub", 0)
    difficulty = measure(board)
    assert difficulty is not None
    line = solve(board, pairs_first=True).moves  # the line grades count along (measure's docstring)
    assert difficulty.steps == len(line)
    traps = choices = 0
    for move in line:
        for other in board.legal_moves:
            if other != move:
                board.push(other)
                traps += solve(board).verdict == "lose"
                choices += 1
                board.pop()
        board.push(move)
    assert (difficulty.traps, difficulty.choices) == (traps, choices)


def test_a_lost_deal_has_no_measure() -> None:
    rules = preset("retrohub")
    lost = next(n for n in range(1, 100) if n not in read_list("retrohub").numbers)
    assert measure(Board(numbered_deal(lost, rules.deck), rules)) is None


@given(st.lists(st.integers(min_value=0, max_value=254), min_size=1, max_size=400))
def test_the_scale_increases_and_cuts_the_sample_near_quarters(traps: list[int]) -> None:
    scale = scale_from(traps)
    assert 0 < scale.medium < scale.hard < scale.expert
    assert scale.grade(0) == "easy" and scale.grade(scale.expert) == "expert"
    assert [scale.grade(value) for value in (scale.medium - 1, scale.medium, scale.hard, scale.expert - 1)] == [
        "easy", "medium", "hard", "hard"]
    if len(traps) >= 4 and len(set(traps)) == len(traps) and min(traps) > 0:  # no ties: exact quarters
        n = len(traps)
        counts = [sum(scale.grade(value) == grade for value in traps) for grade in GRADES]
        assert counts == [n // 4, n // 2 - n // 4, 3 * n // 4 - n // 2, n - 3 * n // 4]


def test_an_empty_sample_has_no_scale() -> None:
    with pytest.raises(ValueError, match="at least one"):
        scale_from([])


@given(st.binary(max_size=300))
def test_packed_grades_read_back(traps: bytes) -> None:
    grades = GradeList(GradeScale(2, 5, 9), traps)
    assert unpack_grades(pack_grades(grades)) == grades


def test_other_bytes_are_no_grade_list() -> None:
    for data in (b"PYWN1xxxx", b"PYGR1not zlib", pack_grades(GradeList(GradeScale(2, 5, 9), b""))[:-4]):
        with pytest.raises(ValueError):
            unpack_grades(data)
    with pytest.raises(ValueError, match="not increasing"):
        unpack_grades(pack_grades(GradeList(GradeScale(5, 5, 9), b"\x01")))


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_ships_grades_for_its_first_deals_as_measured(name: str) -> None:
    shipped = read_grades(name)
    assert shipped is not None and len(shipped.traps) >= 100
    assert len(shipped.traps) <= len(read_list(name).numbers)
    assert {shipped.grade(index) for index in range(len(shipped.traps))} >= set(GRADES)
    difficulty = measure(listed(name, 1))
    assert shipped.traps[1] == (UNGRADED if difficulty is None else difficulty.traps)


def test_a_listed_deal_has_its_shipped_grade_and_others_none() -> None:
    rules = preset("three-pass")
    shipped = read_grades("three-pass")
    assert shipped is not None
    numbers = read_list("three-pass").numbers
    assert listed_grade(rules, numbers[2]) == shipped.grade(2)
    assert listed_grade(rules.with_redeals(None), numbers[2]) is None  # not the preset's own rules
    unlisted = next(number for number in range(1, 100) if number not in numbers)
    assert listed_grade(rules, unlisted) is None


def test_a_deal_of_the_grade_asked_comes_from_the_list_then_live() -> None:
    rules = preset("three-pass")
    shipped = read_grades("three-pass")
    assert shipped is not None
    numbers = read_list("three-pass").numbers
    rng = random.Random(5)
    hard = [numbers[index] for index in range(len(shipped.traps)) if shipped.grade(index) == "hard"]
    assert pick_graded_number(rules, "hard", rng, 30.0, played=hard[1:]) == hard[0]
    more = rules.with_redeals(None)  # not the preset's own rules: searched live, graded on the preset's scale
    number = pick_graded_number(more, "easy", rng, 60.0)
    assert number is not None and number not in numbers[: len(shipped.traps)]
    difficulty = measure(Board(numbered_deal(number, rules.deck), more))
    assert difficulty is not None and shipped.scale.grade(difficulty.traps) == "easy"


def test_a_measure_out_of_time_gives_no_grade() -> None:
    assert measure(listed("retrohub", 0), max_seconds=0.0) is None


def test_rules_without_a_scale_have_no_grades() -> None:
    rules = preset("three-pass")._replace(name="house rules")
    assert listed_grade(rules, 1) is None
    assert pick_graded_number(rules, "easy", random.Random(1), 5.0) is None
