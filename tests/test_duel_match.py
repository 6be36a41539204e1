"""The duel between two contenders: turns, results round by round, win / lose / tie."""

from __future__ import annotations

import pytest

from pyramid.engine.duel.board import DuelBoard
from pyramid.engine.duel.ai import play_match
from pyramid.engine.duel.match import Contender, Duel, FinishedGame
from pyramid.engine.errors import IllegalMoveError


def computer_played(duel: Duel) -> Duel:
    """``duel`` with the computer's game in, when its turn has come (the console plays it on a worker)."""
    index = duel.next_to_play
    if index is None or not duel.contenders[index].is_computer:
        return duel
    return duel.with_result(index, FinishedGame.of_record(duel.computer_game(index)))


def test_against_the_computer_the_person_plays_first_then_the_computer() -> None:
    duel = Duel.against_computer(17, "Ada", "good")
    assert [c.name for c in duel.contenders] == ["Ada", "Computer (good)"]
    assert [c.is_computer for c in duel.contenders] == [False, True]
    assert duel.next_to_play == 0
    assert computer_played(duel) == duel  # the person's turn comes first
    with pytest.raises(IllegalMoveError, match="'Computer \\(good\\)'"):
        duel.with_result(1, FinishedGame((10,), 0))


def test_the_computer_game_comes_from_the_same_match_and_its_level() -> None:
    duel = Duel.against_computer(17, "Ada", "casual").with_result(0, FinishedGame((40, -15), 1))
    finished = computer_played(duel)
    record = play_match(17, "casual")
    assert finished.is_finished
    assert finished.results[1] == FinishedGame.of_record(record)
    assert finished.computer_game(1) == record


def test_the_higher_total_wins() -> None:
    duel = Duel.against_computer(17, "Ada", "casual").with_result(0, FinishedGame((400, 120), 1))
    duel = computer_played(duel)
    assert duel.totals()[0] == 520
    assert duel.winner == 0
    assert (duel.outcome_for(0), duel.outcome_for(1)) == ("win", "lose")


def test_pass_the_console_two_persons_in_turn_and_a_tie() -> None:
    duel = Duel.pass_the_console(8, "Ada", "Bob")
    assert duel.next_to_play == 0
    duel = duel.with_result(0, FinishedGame((100, 30), 1))
    assert duel.next_to_play == 1 and not duel.is_finished
    with pytest.raises(ValueError, match="not finished"):
        duel.outcome_for(0)
    with pytest.raises(IllegalMoveError, match="'Ada'"):
        duel.with_result(0, FinishedGame((5,), 0))
    duel = duel.with_result(1, FinishedGame((130,), 0))
    assert duel.is_finished and duel.next_to_play is None
    assert duel.winner is None
    assert duel.outcome_for(0) == duel.outcome_for(1) == "tie"


def test_rounds_are_compared_side_by_side() -> None:
    duel = Duel.pass_the_console(8, "Ada", "Bob").with_result(0, FinishedGame((100, 30), 1)).with_result(
        1, FinishedGame((90, 80, -20), 2)
    )
    assert duel.rounds_compared() == [(1, 100, 90), (2, 30, 80), (3, None, -20)]
    assert duel.outcome_for(1) == "win"


def test_a_persons_result_comes_from_the_finished_board() -> None:
    board = DuelBoard.for_match(8)
    with pytest.raises(ValueError, match="not over"):
        FinishedGame.of_board(board)
    for move in play_match(8, "good").moves:
        board.push(move)
    result = FinishedGame.of_board(board)
    assert result.total == board.score
    assert result.round_scores == tuple(board.round_scores())


def test_duel_json_round_trips() -> None:
    duel = Duel.against_computer(3, "Ada", "expert").with_result(0, FinishedGame((55, 210), 1))
    assert Duel.from_json(duel.to_json()) == duel


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="'grandmaster'"):
        Contender("HAL", "grandmaster")
    with pytest.raises(ValueError, match="not a computer"):
        Duel.pass_the_console(1, "Ada", "Bob").computer_game(0)
