"""The daily challenge: a winnable deal a day, the same everywhere, with its par (the shortest solution)."""

from __future__ import annotations

import datetime
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramid.engine.board import Board
from pyramid.engine.daily import (
    NoDailyChallenge,
    challenges,
    daily_challenge,
    pack_pars,
    pack_scores,
    stride,
    unpack_pars,
    unpack_scores,
)
from pyramid.engine.solver.best_score import best_score
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS, preset
from pyramid.engine.solver import solve
from pyramid.engine.winnable import read_list

DAY = datetime.date(2026, 12, 1)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_has_a_winnable_daily_deal_with_its_par(name: str) -> None:
    challenge = daily_challenge(DAY, name)
    assert challenge == daily_challenge(datetime.date(2026, 12, 1), name)
    assert challenge.number in read_list(name).numbers
    assert len(challenges(name)) >= 30
    rules = preset(name)
    board = Board(numbered_deal(challenge.number, rules.deck), rules)
    assert solve(board, max_nodes=100_000).verdict == "win"


def test_the_par_is_the_length_of_the_shortest_solution() -> None:
    challenge = daily_challenge(DAY, "spanish")
    rules = preset("spanish")
    shortest = solve(Board(numbered_deal(challenge.number, rules.deck), rules), optimal=True)
    assert challenge.par == shortest.steps


def test_no_daily_deal_comes_back_before_every_other_has_been_played() -> None:
    shipped = challenges("retrohub")
    days = [DAY + datetime.timedelta(days=offset) for offset in range(len(shipped))]
    assert sorted(daily_challenge(day, "retrohub") for day in days) == sorted(shipped)
    assert daily_challenge(DAY, "retrohub") != daily_challenge(DAY + datetime.timedelta(days=1), "retrohub")


@given(st.integers(min_value=1, max_value=5_000))
def test_the_stride_is_coprime_with_the_count(count: int) -> None:
    step = stride(count)
    assert 1 <= step and (count == 1 or len({step * day % count for day in range(count)}) == count)


@given(st.binary(max_size=500))
def test_packed_pars_read_back(pars: bytes) -> None:
    assert unpack_pars(pack_pars(pars)) == pars


def test_other_bytes_are_no_par_list() -> None:
    for data in (b"PYGR1xx", b"PYPR1not zlib"):
        with pytest.raises(ValueError):
            unpack_pars(data)


def test_rules_without_pars_have_no_daily_challenge() -> None:
    with pytest.raises(NoDailyChallenge, match="'house rules'"):
        daily_challenge(DAY, "house rules")


@given(st.lists(st.integers(0, 65_535), max_size=300))
def test_packed_best_scores_read_back(scores: list[int]) -> None:
    assert unpack_scores(pack_scores(scores)) == tuple(scores)


def test_other_bytes_are_no_best_score_list() -> None:
    for data in (b"PYPR1xx", b"PYBS1not zlib", pack_scores([7])[:-1], b"PYBS1" + zlib.compress(b"123")):
        with pytest.raises(ValueError):
            unpack_scores(data)


@pytest.mark.parametrize("name", [name for name, rules in PRESETS.items() if rules.scoring != "cards_left"])
def test_the_presets_that_score_points_have_a_score_par_the_best_score_reachable(name: str) -> None:
    shipped = challenges(name)
    assert sum(challenge.score_par is not None for challenge in shipped) >= 30
    challenge = next(challenge for challenge in shipped if challenge.score_par is not None)
    rules = preset(name)
    best = best_score(Board(numbered_deal(challenge.number, rules.deck), rules), max_bytes=1 << 30)
    assert (best.verdict, best.score) == ("best", challenge.score_par)


def test_the_presets_that_count_cards_left_have_no_score_par() -> None:
    assert all(challenge.score_par is None for challenge in challenges("classic"))


def test_a_damaged_best_score_list_leaves_the_daily_deals_their_moves_par(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from pyramid.engine import daily

    def damaged(data: bytes) -> tuple[int, ...]:
        raise ValueError("damaged best-score list: Error -3 while decompressing data")

    shipped = challenges("three-pass")
    monkeypatch.setattr(daily, "unpack_scores", damaged)
    challenges.cache_clear()
    try:
        again = challenges("three-pass")
        assert [(challenge.number, challenge.par) for challenge in again] == [
            (challenge.number, challenge.par) for challenge in shipped]
        assert all(challenge.score_par is None for challenge in again)
        assert "no score par (damaged best-score list" in caplog.text
    finally:
        challenges.cache_clear()
