"""Three passes now scores rows as Microsoft does (issue 33): nothing of a player's data is lost
or silently mixed. ``tests/data/before-msc-scoring/`` is a data directory written by main before
the change (9f90971): Three passes results with best scores 790 and 330 under the old row values,
a RetroHub win of 1,000, and a Three passes game in progress whose seven removals emptied the two
lowest rows (85 points then, 110 now).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from console_steps import choose
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.saved.progress import replay
from pyramid.saved.stats import GameResult
from pyramid.saved.store import Store

WRITTEN_BEFORE = Path(__file__).parent / "data" / "before-msc-scoring"


def data_before(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(WRITTEN_BEFORE, folder)
    return folder / "pyramid.db"


def test_the_game_in_progress_resumes_with_its_score_under_the_new_values(tmp_path: Path) -> None:
    store = Store.open(data_before(tmp_path))
    progress = store.load_progress("pyramid")
    assert progress is not None and progress.preset == "three-pass" and len(progress.moves) == 7
    assert replay(progress).score == 7 * 5 + 25 + 50
    session = Session(None, DealChoice(), store=store)
    open_console(session)
    state = choose(session, "Continue")
    assert state["screen"] == "game" and state["game"]["score"] == 110


def test_old_best_scores_are_kept_apart_and_never_compared_with_new_ones(tmp_path: Path) -> None:
    store = Store.open(data_before(tmp_path))
    kept = {(stats.variant): stats for stats in store.all_stats()}
    two, none, retrohub = kept["three-pass/two"], kept["three-pass/none"], kept["retrohub/none"]
    assert (two.played, two.won, two.best_score, two.old_best_score) == (2, 1, None, 790)
    assert (none.best_score, none.old_best_score) == (None, 330)
    assert (retrohub.best_score, retrohub.old_best_score) == (1000, None), "other presets keep their scoring"
    after = store.record_result(GameResult("pyramid", "three-pass/two", False, 415))
    assert (after.played, after.best_score, after.old_best_score) == (3, 415, 790), "415 is not compared with 790"


def test_the_statistics_page_shows_the_old_best_apart(tmp_path: Path) -> None:
    store = Store.open(data_before(tmp_path))
    session = Session(None, DealChoice(), store=store)
    open_console(session)
    choose(session, "Statistics")
    sections = dict(session.view().text.sections)  # type: ignore[union-attr]
    lines = sections["Three passes, two redeals"]
    assert "best score –" in lines[0]
    assert lines[-1] == "Best score under the old row values: 790"


def test_a_store_written_now_has_no_old_best(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "pyramid.db")
    stats = store.record_result(GameResult("pyramid", "three-pass/two", True, 1290))
    assert (stats.best_score, stats.old_best_score) == (1290, None)


def test_a_card_that_cannot_be_written_shows_the_statistics_as_a_writable_one_would(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of the schema before, read-only (a card locked, a file owned by someone else): read
    through a copy migrated in memory, and left as it was, byte for byte."""
    from pyramid.saved import store as store_module

    path = data_before(tmp_path)
    before = path.read_bytes()
    real_access = os.access
    monkeypatch.setattr(store_module.os, "access",
                        lambda name, mode: False if Path(name) == path and mode == os.W_OK else real_access(name, mode))
    store = Store.open(path)
    assert store.read_only
    kept = {stats.variant: (stats.best_score, stats.old_best_score) for stats in store.all_stats()}
    assert kept == {"retrohub/none": (1000, None), "three-pass/none": (None, 330), "three-pass/two": (None, 790)}
    assert not [notice for notice in store.take_notice() if "stats" in notice.key]
    assert replay(store.load_progress("pyramid")).score == 110  # type: ignore[arg-type]
    store.close()
    assert path.read_bytes() == before
