"""The daily results to share with friends, in the saved data (issue 50): kept with the game that made
them until the table server has them, the first game of a day's deal only, withdrawn when sharing is off.

A real SQLite file each time, opened again as after a power cut.
"""

from __future__ import annotations

import datetime
import sqlite3
from pathlib import Path

from pyramid.saved.database import DATABASE_NAME
from pyramid.saved.shares import DailyShare
from pyramid.saved.stats import DailyPlay, GameResult
from pyramid.saved.store import Store

DAY = datetime.date(2026, 12, 6)


def finish(store: Store, won: bool, share: bytes, day: datetime.date = DAY, variant: str = "retrohub/none") -> None:
    store.record_result(GameResult("pyramid", variant, won, 100), daily=DailyPlay(day, moves=40, score=100),
                        share=DailyShare(day, variant, share))


def test_a_result_waits_until_the_server_has_it_power_cut_or_not(tmp_path: Path) -> None:
    with Store.open(tmp_path / DATABASE_NAME) as store:
        finish(store, True, b"first")
    with Store.open(tmp_path / DATABASE_NAME) as store:  # the server was out of reach, the console switched off meanwhile
        assert store.pending_shares() == [DailyShare(DAY, "retrohub/none", b"first")]
        assert store.stats("pyramid", "retrohub/none").won == 1, "counted in the same transaction"
        assert store.share_taken(DAY, "retrohub/none", shared=True)
    with Store.open(tmp_path / DATABASE_NAME) as store:
        assert store.pending_shares() == [], "sent once"


def test_the_first_game_of_a_days_deal_is_the_one_shared(tmp_path: Path) -> None:
    with Store.open(tmp_path / DATABASE_NAME) as store:
        finish(store, False, b"lost first")
        finish(store, True, b"won after")
        finish(store, True, b"another variant", variant="retrohub/one")
        finish(store, True, b"the next day", day=DAY + datetime.timedelta(days=1))
        assert store.pending_shares() == [DailyShare(DAY, "retrohub/none", b"lost first"),
                                          DailyShare(DAY, "retrohub/one", b"another variant"),
                                          DailyShare(DAY + datetime.timedelta(days=1), "retrohub/none", b"the next day")]


def test_sharing_off_withdraws_what_was_shared_and_what_was_about_to_be(tmp_path: Path) -> None:
    with Store.open(tmp_path / DATABASE_NAME) as store:
        finish(store, True, b"taken")
        store.share_taken(DAY, "retrohub/none", shared=True)
        finish(store, True, b"not yet", day=DAY + datetime.timedelta(days=1))
        assert store.withdraw_shares()
        withdrawals = store.pending_shares()
        assert withdrawals == [DailyShare(DAY, "retrohub/none", None),
                               DailyShare(DAY + datetime.timedelta(days=1), "retrohub/none", None)]
        store.share_taken(DAY, "retrohub/none", shared=True)
        assert store.pending_shares() == withdrawals, "the result's acknowledgement, arriving late, is not the withdrawal's"
        store.share_taken(DAY, "retrohub/none", shared=False)
        assert store.pending_shares() == withdrawals[1:]
        finish(store, True, b"played again", day=DAY)
        assert store.pending_shares() == withdrawals[1:], "a withdrawn day is not shared again"


def test_rows_edited_out_of_shape_are_no_shares(tmp_path: Path) -> None:
    with Store.open(tmp_path / DATABASE_NAME) as store:
        finish(store, True, b"good")
    with sqlite3.connect(tmp_path / DATABASE_NAME) as db:
        db.execute("INSERT INTO daily_shares VALUES ('not a day', 'retrohub/none', x'00', 0)")
        db.execute("INSERT INTO daily_shares VALUES ('2026-12-07', 'retrohub/none', 'text, not bytes', 0)")
    with Store.open(tmp_path / DATABASE_NAME) as store:
        assert store.pending_shares() == [DailyShare(DAY, "retrohub/none", b"good")]
