"""Card notation, deal parsing and numbered deals (docs/rules.md, "Cards and deals")."""

from __future__ import annotations

import pytest

from pyramid.engine.cards import SPANISH_DECK, STANDARD_DECK, Card, format_cards, parse_deal
from pyramid.engine.deal import MAX_DEAL_NUMBER, SplitMix64, numbered_deal
from pyramid.errors import PyramidError
from pyramid.engine.errors import InvalidCardError, InvalidDealError


def test_every_card_round_trips() -> None:
    for card in STANDARD_DECK.cards + SPANISH_DECK.cards:
        assert Card.parse(str(card)) == card
    assert str(Card.parse("th")) == "Th"
    assert Card.parse("Qs").rank == 12 and Card.parse("Ad").rank == 1


@pytest.mark.parametrize("text", ["1h", "Tx", "T", "Thh", "", "10h"])
def test_bad_card_raises_typed_error_quoting_input(text: str) -> None:
    with pytest.raises(InvalidCardError) as error:
        Card.parse(text)
    assert repr(text) in str(error.value)
    assert isinstance(error.value, PyramidError) and isinstance(error.value, ValueError)


def test_deal_errors_name_the_problem() -> None:
    deal = format_cards(STANDARD_DECK.cards)
    assert parse_deal(deal) == STANDARD_DECK.cards
    with pytest.raises(InvalidDealError, match="duplicate card 'Ac'"):
        parse_deal(deal.replace("2c", "Ac"))
    with pytest.raises(InvalidDealError, match="needs 52 cards, got 51; missing Ks"):
        parse_deal(deal.rsplit(" ", 1)[0])
    with pytest.raises(InvalidCardError, match="'Zz'"):
        parse_deal(deal.replace("2c", "Zz"))
    with pytest.raises(InvalidDealError, match="duplicate card .Ac."):
        parse_deal(deal + " Ac")


def test_splitmix64_matches_the_published_reference_output() -> None:
    # First output of SplitMix64 seeded with 0, as in the reference C implementation.
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


def test_numbered_deals_are_pinned() -> None:
    # Golden values: a change here changes every numbered deal for every player.
    assert format_cards(numbered_deal(1)) == (
        "7d 9c 4d 8h 8d 5s Jd 6d 9s Jc 5d Kd 3c 2d Jh 5h 7h 4h 2c Ad 6s Kc Kh Th Ts Js Td 8s "
        "Qc 4s 6c 7c As 5c Ah Ks 6h Qs Qh Qd 9d 3d 3s Ac 4c 2h 8c Tc 3h 2s 9h 7s")
    assert format_cards(numbered_deal(MAX_DEAL_NUMBER)) == (
        "Ah 4h Kc Qc 8d As 3h Qs Ks 5h 3s 7s 3d Ts 8s 2d 2c Qd Ad 8c 5c 3c 9d 5d 7h 4s 9s Jh "
        "Th Jc 5s Td 4c Ac Kh 6c Kd 2s 4d 9c Jd 2h 8h Qh 7c 6d 9h 6h Tc 7d Js 6s")


def test_numbered_deals_are_permutations_and_differ() -> None:
    deals = {numbered_deal(n) for n in range(1, 200)}
    assert len(deals) == 199
    for deal in list(deals)[:20]:
        assert sorted(deal) == sorted(STANDARD_DECK.cards)
    assert sorted(numbered_deal(7, SPANISH_DECK)) == sorted(SPANISH_DECK.cards)


def test_deal_number_out_of_range() -> None:
    with pytest.raises(ValueError, match="0"):
        numbered_deal(0)
