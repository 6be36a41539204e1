"""The packed winnable-deal lists and the live search past them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS, preset
from pyramid.engine.solver import solve
from pyramid.engine.winnable import (
    WinnableList,
    find_winnable_number,
    pack_numbers,
    pick_winnable_number,
    read_list,
    unpack_numbers,
    winnable_deal_numbers,
)


@given(st.sets(st.integers(min_value=1, max_value=2**32), max_size=300), st.integers(min_value=0, max_value=2**32))
def test_packed_lists_read_back(numbers: set[int], searched: int) -> None:
    packed = pack_numbers(WinnableList(tuple(numbers), searched))
    assert unpack_numbers(packed) == WinnableList(tuple(sorted(numbers)), searched)


def test_other_bytes_are_no_list() -> None:
    with pytest.raises(ValueError):
        unpack_numbers(b"32\n40\n")
    packed = pack_numbers(WinnableList((3, 9), 10))
    with pytest.raises(ValueError):
        unpack_numbers(packed[:-3])


@pytest.mark.parametrize("name", list(PRESETS))
def test_shipped_lists_are_sorted_and_within_the_search(name: str) -> None:
    listed = read_list(name)
    assert list(listed.numbers) == sorted(set(listed.numbers))
    assert listed.numbers and listed.numbers[-1] <= listed.searched


def test_the_live_search_finds_a_deal_the_solver_wins() -> None:
    rules = preset("three-pass")
    number = find_winnable_number(rules, random.Random(7), 30.0)
    assert number is not None
    assert solve(Board(numbered_deal(number, rules.deck), rules)).verdict == "win"


def test_once_every_listed_deal_is_played_the_deal_comes_from_the_live_search() -> None:
    rules = preset("three-pass")
    listed = winnable_deal_numbers(rules)
    rng = random.Random(3)
    assert pick_winnable_number(rules, rng, 30.0, played=listed[1:]) == listed[0]
    number = pick_winnable_number(rules, rng, 30.0, played=listed)
    assert number is not None and number not in listed
    assert solve(Board(numbered_deal(number, rules.deck), rules)).verdict == "win"
    live = pick_winnable_number(rules.with_redeals(0), rng, 30.0)
    assert live is not None
    assert solve(Board(numbered_deal(live, rules.deck), rules.with_redeals(0))).verdict == "win"
