"""The computer opponent: the expert's expectation against brute force, records that replay, determinism."""

from __future__ import annotations

import statistics

import pytest
from deals import build_deal
from test_duel_rules import chain_deal

from pyramid.engine.deal import numbered_deal
from pyramid.engine.duel.board import DuelBoard, DuelMove, DuelRules
from pyramid.engine.duel.ai import (
    LEVELS,
    CasualPlayer,
    ExpertPlayer,
    GoodPlayer,
    MatchRecord,
    opponent_for,
    play_game,
    play_match,
)
from pyramid.engine.duel.search import Lookahead, Observation

CLEAR_WORTH = 170  # the clear bonus and something for later rounds, so a clear is told apart


def brute_force_move(board: DuelBoard, move: DuelMove, turns: int, memo: dict) -> float:
    """Expected points of ``move`` and the best play after it within ``turns`` turns: a turn is
    the mean over every card left in the stock put on top of it; once the turns are used up,
    turning means stopping (worth nothing)."""
    if move.kind == "turn":
        if not turns:
            return 0.0
        outcomes = []
        for card in board.stock:
            probe = board.copy()
            probe.stock.remove(card)
            probe.stock.insert(0, card)
            probe.push(move)
            outcomes.append(probe.score - board.score + brute_force_expectation(probe, turns - 1, memo))
        return sum(outcomes) / len(outcomes)
    before = board.score
    board.push(move)
    bonus = CLEAR_WORTH - board.rules.clear_bonus if board.status() == "cleared" else 0
    value = board.score - before + bonus + brute_force_expectation(board, turns, memo)
    board.pop()
    return value


def brute_force_expectation(board: DuelBoard, turns: int, memo: dict) -> float:
    """The best of every legal move of the engine (the joker included whenever it is legal),
    remembering positions by what a person sees of them."""
    key = (tuple(board.pyramid), frozenset(board.stock), board.pile_top.rank, board.joker_available,
           board.joker_armed, board.streak, turns)
    if key not in memo:
        memo[key] = max((brute_force_move(board, move, turns, memo) for move in board.legal_moves), default=0.0)
    return memo[key]


@pytest.mark.parametrize(("rows", "deal_number", "turns_first"),
                         [(3, 1, 0), (3, 2, 0), (3, 7, 0), (4, 9, 0), (4, 9, 39), (7, 5, 0), (7, 3, 22)])
def test_the_expert_expectation_is_the_brute_force_one_a_turn_ahead(rows: int, deal_number: int, turns_first: int) -> None:
    """One turn ahead the lookahead's odds are exact (each unseen card equally likely), so its
    value of every legal move is the brute force's. Small pyramids leave long stocks (41 to 45
    cards), which also checks the state keys; positions one and two cards before the end of
    the stock check the end of the round."""
    board = DuelBoard([numbered_deal(deal_number)], DuelRules(rows=rows))
    for _ in range(turns_first):
        board.push(DuelMove.turn())
    seen = Observation.of(board)
    memo: dict = {}
    for move, value in Lookahead(seen, 1, CLEAR_WORTH).move_values(seen):
        assert value == pytest.approx(brute_force_move(board, move, 1, memo)), move


def test_the_expert_clears_a_round_that_needs_no_turn_and_scores_its_value() -> None:
    """With nothing left to chance the expectation is the exact best, and play reaches it."""
    board = DuelBoard([chain_deal()])
    seen = Observation.of(board)
    best = max(value for _, value in Lookahead(seen, 3, board.rules.clear_bonus).move_values(seen))
    record = play_game(board, ExpertPlayer())
    assert board.status() == "cleared" and record.total == best == sum(5 * n for n in range(1, 29)) + 50


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


def test_the_levels_are_ordered_casual_good_expert() -> None:
    """Without the stock's order the expert can lose a match to a luckier weaker level, so
    the order holds over matches: in mean score and in matches won against the level below."""
    totals = {level: [play_match(number, level).total for number in range(1, 13)] for level in LEVELS}
    assert statistics.mean(totals["casual"]) < statistics.mean(totals["good"]) < statistics.mean(totals["expert"])
    for weaker, stronger in zip(LEVELS, LEVELS[1:]):
        assert sum(a > b for a, b in zip(totals[stronger], totals[weaker])) > len(totals[weaker]) // 2


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
