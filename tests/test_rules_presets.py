"""The rules presets of docs/rules.md, "Variants": one Rules object each, read by the same board code."""

from __future__ import annotations

import pytest

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS, RETROHUB, preset

SPEC_PRESETS = ["retrohub", "classic", "par", "relaxed", "three-pass", "king-tut", "overlap", "six-rows", "spanish"]


def test_every_spec_preset_exists_and_retrohub_is_the_default() -> None:
    assert list(PRESETS) == SPEC_PRESETS
    assert preset("retrohub") is RETROHUB
    assert all(PRESETS[name].name == name for name in PRESETS)


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="three-pass"):
        preset("klondike")


def differences(name: str, base: str) -> dict[str, object]:
    a, b = preset(name), preset(base)
    return {name: value for name, value in a._asdict().items() if value != getattr(b, name)}


def test_the_wikipedia_family() -> None:
    classic = preset("classic")
    assert (classic.stock_top_playable, classic.waste_playable) == (True, True)
    assert (classic.redeals, classic.goal, classic.scoring) == (0, "all", "cards_left")
    assert differences("par", "classic") == {"name": "par", "title": "Par Pyramid", "redeals": 2}
    assert differences("relaxed", "classic") == {"name": "relaxed", "title": "Relaxed", "goal": "pyramid"}


def test_three_passes_is_the_msc_rules() -> None:
    rules = preset("three-pass")
    assert (rules.stock_top_playable, rules.redeals, rules.goal, rules.scoring) == (True, 2, "pyramid", "msc")


def test_king_tut_draws_three_with_unlimited_redeals_and_only_the_waste_top() -> None:
    rules = preset("king-tut")
    assert (rules.draw_count, rules.redeals, rules.stock_top_playable, rules.goal) == (3, None, False, "pyramid")


def test_one_change_variants() -> None:
    assert differences("overlap", "relaxed") == {"name": "overlap", "title": "Overlap", "overlap": True}
    assert differences("six-rows", "relaxed") == {"name": "six-rows", "title": "Six rows", "rows": 6}
    assert differences("spanish", "relaxed") == {
        "name": "spanish", "title": "Spanish deck", "deck_name": "spanish", "target": 12,
    }


def test_with_redeals_changes_only_the_allowance() -> None:
    rules = preset("three-pass").with_redeals(None)
    assert rules.redeals is None and rules.name == "three-pass"
    assert preset("three-pass").redeals == 2


@pytest.mark.parametrize("name", SPEC_PRESETS)
def test_every_preset_deals_and_round_trips_through_json(name: str) -> None:
    rules = preset(name)
    board = Board(numbered_deal(5, rules.deck), rules)
    assert len(board.pyramid) == rules.pyramid_size
    assert len(board.stock) == rules.deck.size - rules.pyramid_size
    data = board.to_json()
    assert data["rules"] == name
    again = Board.from_json(data)
    assert again.rules == rules and again.pyramid == board.pyramid and again.stock == board.stock
