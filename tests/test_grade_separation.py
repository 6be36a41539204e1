"""The grades separate: a greedy player wins fewer deals at each grade (benchmarks/bench_grades.py on 1,000)."""

from __future__ import annotations

import pytest

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.difficulty import GRADES
from pyramid.engine.grade import read_grades
from greedy import greedy_move, greedy_wins
from pyramid.engine.rules import preset
from pyramid.engine.winnable import read_list

#: Deals per grade in the sample.
SAMPLE = 40


@pytest.mark.parametrize("name", ["retrohub", "three-pass"])
def test_the_greedy_win_rate_falls_grade_by_grade(name: str) -> None:
    rules = preset(name)
    shipped = read_grades(name)
    assert shipped is not None
    numbers = read_list(name).numbers
    wins = {}
    for grade in GRADES:
        sample = [numbers[i] for i in range(len(shipped.traps)) if shipped.grade(i) == grade][:SAMPLE]
        assert len(sample) == SAMPLE
        wins[grade] = sum(greedy_wins(Board(numbered_deal(number, rules.deck), rules)) for number in sample)
    assert wins["easy"] > wins["medium"] > wins["hard"] >= wins["expert"], wins
    assert wins["easy"] - wins["expert"] >= SAMPLE // 4, wins


def test_the_greedy_player_takes_the_most_pyramid_cards_from_the_lowest_row() -> None:
    rules = preset("retrohub")
    board = Board(numbered_deal(read_list("retrohub").numbers[0], rules.deck), rules)
    while (move := greedy_move(board)) is not None and move.kind != "remove":
        board.push(move)
    assert move is not None
    places = [index for index in map(board.index_of, move.cards) if index is not None]
    for other in board.legal_moves:
        if other.kind == "remove":
            theirs = [index for index in map(board.index_of, other.cards) if index is not None]
            assert (len(theirs), max(theirs, default=-1)) <= (len(places), max(places, default=-1))
