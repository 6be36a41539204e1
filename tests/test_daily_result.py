"""A friend's daily result: shown only once its line replays to exactly its claim (issue 50, point 2).

The lines are real games of the day's deal: the solver's shortest win, and a game given up after a
few moves; every hostile claim is one of these with one thing changed.
"""

from __future__ import annotations

import dataclasses
import datetime
import json

import pytest
from hypothesis import given, settings, strategies as st

from pyramid.engine.daily import DAYS_BACK, daily_board
from pyramid.engine.rules import PRESETS, RETROHUB
from pyramid.engine.solver import solve
from pyramid.net.daily_result import (MAX_LINE, MAX_RESULT, DailyResult, ResultRefused, parse_result, prove)
from pyramid.saved.stats import PyramidVariant

TODAY = datetime.date(2026, 12, 6)
VARIANT = PyramidVariant("retrohub", 0)


def played(day: datetime.date, line: list[str], variant: PyramidVariant = VARIANT, **claims: object) -> DailyResult:
    """A result of ``line`` on ``day``'s deal as an honest console publishes it, then ``claims`` changed."""
    board = daily_board(day, PRESETS[variant.preset].with_redeals(variant.redeals))
    board.replay(line)
    honest = DailyResult(day, variant, "Ann", board.status() == "cleared", board.counted_score(),
                         len(board.move_stack), 245, False, tuple(line))
    return dataclasses.replace(honest, **claims)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def won_line() -> list[str]:
    solution = solve(daily_board(TODAY, RETROHUB.with_redeals(0)), optimal=True, max_seconds=30)
    assert solution.verdict == "win"
    return [str(move) for move in solution.moves]


def test_a_won_game_is_proven_under_the_account_that_published_it(won_line: list[str]) -> None:
    result = played(TODAY, won_line)
    assert result.won and result.moves == len(won_line) and result.score > 0
    proven = prove(parse_result(result.to_bytes()), "ann", TODAY)
    assert proven.account == "ann" and proven.result == result


def test_the_longest_result_fits_the_brokers_packets() -> None:
    """MAX_LINE moves of the longest notation, the longest name: within MAX_RESULT, within 8 KiB."""
    longest = DailyResult(TODAY, PyramidVariant("six-rows", 0), "W" * 32, False, 999_999, MAX_LINE, 10**7, True,
                          ("redeal",) * MAX_LINE)
    assert len(longest.to_bytes()) <= MAX_RESULT <= 8192 - 256, "the topic and the MQTT header fit in the rest"
    assert parse_result(longest.to_bytes()) == longest


def test_a_game_given_up_is_proven_as_not_won(won_line: list[str]) -> None:
    result = played(TODAY, won_line[:7])
    assert not result.won
    assert prove(parse_result(result.to_bytes()), "bob", TODAY).result == result


def test_the_calendar_s_days_and_tomorrow_elsewhere_are_shown(won_line: list[str]) -> None:
    """A friend east of here may already be on tomorrow; a day of the last twelve months is the calendar's."""
    for day in (TODAY + datetime.timedelta(days=1), TODAY - datetime.timedelta(days=DAYS_BACK)):
        line = [str(move) for move in solve(daily_board(day, RETROHUB.with_redeals(0)), max_seconds=30).moves]
        assert prove(played(day, line), "ann", TODAY).result.day == day


@pytest.mark.parametrize(("change", "reason"), [
    ({"score": 10_000}, "claim"),
    ({"moves": 1}, "claim"),
    ({"won": False}, "claim"),
    ({"day": TODAY + datetime.timedelta(days=2)}, "day"),
    ({"day": TODAY - datetime.timedelta(days=DAYS_BACK + 1)}, "day"),
    ({"day": TODAY - datetime.timedelta(days=1)}, "line"),  # another day's deal: its line does not replay
    ({"variant": PyramidVariant("nosuch", 0)}, "variant"),
    ({"variant": PyramidVariant("classic", None)}, "variant"),  # Classic deals with its own redeals
])
def test_a_claim_its_line_does_not_make_is_refused(won_line: list[str], change: dict[str, object], reason: str) -> None:
    result = dataclasses.replace(played(TODAY, won_line), **change)  # type: ignore[arg-type]
    with pytest.raises(ResultRefused) as refused:
        prove(parse_result(result.to_bytes()), "mallory", TODAY)
    assert refused.value.reason == reason, refused.value


def test_a_line_with_a_move_the_deal_refuses_is_refused(won_line: list[str]) -> None:
    line = list(won_line)
    line[5] = "Kc+Kd"
    result = dataclasses.replace(played(TODAY, won_line), line=tuple(line))
    with pytest.raises(ResultRefused, match="mallory's result") as refused:
        prove(result, "mallory", TODAY)
    assert refused.value.reason == "line"


def test_a_name_inside_the_payload_is_shown_never_counted(won_line: list[str]) -> None:
    """Mallory's payload says "Ann": the result is Mallory's, the account whose topic it came under."""
    proven = prove(played(TODAY, won_line, name="Ann"), "mallory", TODAY)
    assert proven.account == "mallory"


def payload(**fields: object) -> bytes:
    data: dict[str, object] = {"v": 1, "day": "2026-12-06", "variant": "retrohub/none", "name": "Ann", "won": False,
                               "score": 0, "moves": 0, "seconds": 0, "assisted": False, "line": ""}
    data.update(fields)
    return json.dumps(data).encode()


@pytest.mark.parametrize("sent", [
    b"", b"\xff\xfe", b"null", b"[]", b"{}", b'{"v":2}', b"{" * 100_000, b"x" * (MAX_RESULT + 1),
    payload(v="1"), payload(day="2026-13-01"), payload(day="20261206"), payload(day=20261206),
    payload(day="2026-12-06T00:00"), payload(variant="retrohub"), payload(variant="retrohub/seven"),
    payload(variant=["retrohub", "none"]), payload(won=1), payload(assisted="no"), payload(score=True),
    payload(score=-1), payload(moves=MAX_LINE + 1), payload(seconds=1.5), payload(name=""), payload(name="A\u202eB"),
    payload(name="x" * 33), payload(name=None), payload(line=["draw"]), payload(line=1), payload(line="draw" * 3),
    payload(line=" ".join(["draw"] * (MAX_LINE + 1))), payload(line=" draw"), payload(line="draw  draw"),
    payload(line="draw "),
], ids=lambda sent: repr(sent[:40]))
def test_what_is_not_a_result_is_refused_as_its_format(sent: bytes) -> None:
    with pytest.raises(ResultRefused) as refused:
        parse_result(sent)
    assert refused.value.reason == "format"
    assert len(str(refused.value)) < 300, "the log line quotes a bounded part of it"


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=300), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["v", "day", "variant", "name", "won", "score", "moves", "seconds", "assisted", "line"]), inner, max_size=10),
    max_leaves=20).map(lambda data: json.dumps(data).encode())))
def test_nothing_from_the_network_breaks_the_reader(sent: bytes) -> None:
    """Whatever comes, the reader and the proof answer a result or ResultRefused, nothing else."""
    try:
        prove(parse_result(sent), "mallory", TODAY)
    except ResultRefused:
        pass
