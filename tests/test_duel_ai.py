"""The computer opponent: the round search against brute force, records that replay, determinism."""

from __future__ import annotations

import pytest
from deals import build_deal

from pyramid.engine.deal import numbered_deal
from pyramid.engine.duel.board import DuelBoard, DuelMove, DuelRules
from pyramid.engine.duel.ai import (
    LEVELS,
    CasualPlayer,
    GoodPlayer,
    MatchRecord,
    opponent_for,
    play_game,
    play_match,
)
from pyramid.engine.duel.search import RoundSearch


def brute_force_best(board: DuelBoard, memo: dict) -> int:
    """Best points still to earn, by trying every legal move of the engine (the joker included
    whenever it is legal), remembering positions by their full state."""
    key = (tuple(board.pyramid), len(board.stock), board.pile_top.rank, board.joker_available,
           board.joker_armed, board.streak)
    if key not in memo:
        best = None
        for move in board.legal_moves:
            before = board.score
            board.push(move)
            value = board.score - before + brute_force_best(board, memo)
            board.pop()
            best = value if best is None or value > best else best
        memo[key] = 0 if best is None else best
    return memo[key]


@pytest.mark.parametrize(("rows", "deal_number"), [(3, 1), (3, 2), (3, 7), (4, 9)])
def test_round_search_finds_the_brute_force_best_on_small_pyramids(rows: int, deal_number: int) -> None:
    """Small pyramids leave long stocks (41 to 45 cards), so this also checks the search's state keys."""
    board = DuelBoard([numbered_deal(deal_number)], DuelRules(rows=rows))
    value = RoundSearch(board).value()
    best = max(points for points in (value.cleared, value.failed) if points is not None)
    assert best == brute_force_best(board, {})


@pytest.mark.parametrize("deal_number", [11, 12])
def test_round_search_plans_replay_to_their_values(deal_number: int) -> None:
    board = DuelBoard([numbered_deal(deal_number)])
    search = RoundSearch(board)
    value = search.value()
    for clear, points in ((True, value.cleared), (False, value.failed)):
        if points is None:
            with pytest.raises(ValueError, match="cannot end"):
                search.plan(clear)
            continue
        replay = DuelBoard([numbered_deal(deal_number)])
        for move in search.plan(clear):
            replay.push(move)
        assert replay.score == points
        assert replay.status() == ("cleared" if clear else "no_moves")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("match_number", [1, 2])
def test_a_recorded_game_replays_move_by_move_through_the_engine(match_number: int, level: str) -> None:
    record = play_match(match_number, level)
    board = DuelBoard.for_match(match_number)
    for round_record in record.rounds:
        assert board.round_number == round_record.round_number
        for move in round_record.moves:
            board.push(move)
        assert board.tallies[round_record.round_number - 1].points == round_record.points
    assert board.is_over()
    assert board.score == record.total
    assert tuple(board.round_scores()) == record.round_scores
    assert (record.match_number, record.level) == (match_number, level)


@pytest.mark.parametrize("level", LEVELS)
def test_the_computer_game_is_decided_by_match_number_and_level(level: str) -> None:
    assert play_match(5, level) == play_match(5, level)


def test_the_casual_player_misses_some_placements_and_the_good_one_never_does() -> None:
    def missed_placements(player) -> int:
        missed = 0
        for match_number in range(1, 6):
            board = DuelBoard.for_match(match_number)
            while not board.is_over():
                move = player.choose(board)
                if move.kind == "turn" and any(m.kind == "place" for m in board.legal_moves):
                    missed += 1
                board.push(move)
        return missed

    assert missed_placements(CasualPlayer(seed=1)) > 0
    assert missed_placements(GoodPlayer()) == 0


def test_the_casual_player_follows_its_seed() -> None:
    games = {play_game(DuelBoard.for_match(9), CasualPlayer(seed)).moves for seed in range(4)}
    assert len(games) > 1
    assert play_game(DuelBoard.for_match(9), CasualPlayer(3)) == play_game(DuelBoard.for_match(9), CasualPlayer(3))


def test_the_good_player_starts_the_longest_run_it_can_see() -> None:
    pyramid = ["Qc", "Qd", "Qh", "Qs", "Jc", "Jd", "Jh", "Js", "Tc", "Td", "Th", "Ts", "9c", "9d", "9h",
               "9s", "2c", "2d", "2h", "2s", "3c", "4d", "6c", "7c", "8c", "Kd", "Kh", "Ks"]
    board = DuelBoard([build_deal(pyramid, ["5c"])])
    assert [str(m) for m in board.legal_moves][:2] == ["4d", "6c"]
    assert GoodPlayer().choose(board) == DuelMove.parse("6c")


@pytest.mark.parametrize("match_number", [1, 2, 3])
def test_the_expert_never_scores_below_the_other_levels(match_number: int) -> None:
    """The expert's search covers every move the other levels make, and plans the match
    backwards exactly, so no game of theirs can beat it on the same deals."""
    expert = play_match(match_number, "expert").total
    assert expert >= play_match(match_number, "good").total
    assert expert >= play_match(match_number, "casual").total


def test_the_expert_takes_over_a_game_in_the_middle_of_a_round() -> None:
    board = DuelBoard.for_match(4)
    for _ in range(5):
        board.push(board.legal_moves[-1])
    record = play_game(board, opponent_for("expert"))
    assert board.is_over()
    assert record.total == board.score


def test_match_record_json_round_trips() -> None:
    record = play_match(3, "good")
    assert MatchRecord.from_json(record.to_json()) == record


def test_unknown_level_is_refused_quoting_it() -> None:
    with pytest.raises(ValueError, match="'master'"):
        play_match(1, "master")
    with pytest.raises(ValueError, match="'master'"):
        opponent_for("master")
