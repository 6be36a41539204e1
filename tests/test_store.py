"""The store on real SQLite files: location, game in progress, statistics, settings, CLI."""

from __future__ import annotations

import dataclasses
import datetime
import json
import sqlite3
from pathlib import Path

import pytest

from pyramid.engine.board import Board, Move
from pyramid.engine.cards import format_cards
from pyramid.engine.deal import numbered_deal
from pyramid.engine.errors import ReplayError
from pyramid.saved.errors import InvalidSettingError
from pyramid.saved.progress import Progress, replay
from pyramid.engine.rules import preset
from pyramid.saved.settings import CHECKS, PlayerSettings
from pyramid.saved.stats import GameResult, Stats
from pyramid.saved.__main__ import main
from pyramid.saved.database import DATABASE_NAME, data_directory, integrity_check
from pyramid.saved.store import Store
from told import told
from pyramid.saved.notices import StoreNotice

STARTED = datetime.datetime(2026, 11, 30, 17, 0, tzinfo=datetime.timezone.utc)


def new_game(deal_number: int = 1, redeals: int | None = 0) -> Progress:
    return Progress(
        "pyramid", "retrohub", redeals, format_cards(numbered_deal(deal_number)),
        started=STARTED, deal_number=deal_number,
    )


def played(progress: Progress, count: int) -> Progress:
    """``progress`` with ``count`` more moves (the first legal move each time)."""
    board = replay(progress)
    for _ in range(count):
        move = board.legal_moves[0]
        board.push(move)
        progress = progress.with_move(move)
    return progress


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / DATABASE_NAME


# -- location -----------------------------------------------------------------
def test_systemd_state_directory_comes_first() -> None:
    environ = {"STATE_DIRECTORY": "/var/lib/pyramid:/var/lib/other", "PYRAMID_DATA_DIR": "/data", "HOME": "/home/pi"}
    assert data_directory(environ) == Path("/var/lib/pyramid")


def test_own_variable_before_xdg() -> None:
    assert data_directory({"PYRAMID_DATA_DIR": "/data", "XDG_STATE_HOME": "/xdg"}) == Path("/data")


def test_xdg_state_home_when_absolute_only() -> None:
    assert data_directory({"XDG_STATE_HOME": "/xdg", "HOME": "/home/pi"}) == Path("/xdg/pyramid")
    assert data_directory({"XDG_STATE_HOME": "relative", "HOME": "/home/pi"}) == Path(
        "/home/pi/.local/state/pyramid"
    )


def test_home_fallback() -> None:
    assert data_directory({"HOME": "/home/pi"}) == Path("/home/pi/.local/state/pyramid")


def test_open_creates_the_directory_from_the_environment(tmp_path: Path) -> None:
    with Store.open(environ={"PYRAMID_DATA_DIR": str(tmp_path / "a" / "b")}) as store:
        assert store.location == tmp_path / "a" / "b" / DATABASE_NAME
        assert not store.notices
    assert (tmp_path / "a" / "b" / DATABASE_NAME).is_file()


def test_durable_modes(path: Path) -> None:
    with Store.open(path) as store:
        assert store._connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert store._connection.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


# -- game in progress -----------------------------------------------------------
def test_progress_round_trips_through_the_file(path: Path) -> None:
    progress = played(new_game(redeals=None), 12).with_assist("hint").with_assist("undo").with_assist("hint")
    with Store.open(path) as store:
        store.save_progress(progress)
    with Store.open(path) as store:
        loaded = store.load_progress("pyramid")
    assert loaded == progress
    assert loaded is not None and loaded.assists == {"hint": 2, "undo": 1} and loaded.redeals is None


def test_each_move_appends_one_row(path: Path) -> None:
    with Store.open(path) as store:
        progress = played(new_game(), 5)
        store.save_progress(progress)
        before = store._connection.total_changes
        store.save_progress(played(progress, 1))
        assert store._connection.total_changes - before == 1


def test_undo_then_another_move_is_saved_exactly(path: Path) -> None:
    start = new_game()
    while len(replay(start).legal_moves) < 2:  # a position with a choice, to take back and choose again
        start = played(start, 1)
    game = played(start, 2)
    resumed = start.with_assist("undo").with_move(replay(start).legal_moves[1])
    with Store.open(path) as store:
        store.save_progress(game)
        store.save_progress(resumed)
    with Store.open(path) as store:
        assert store.load_progress("pyramid") == resumed


def test_first_save_after_opening_rewrites_the_game(path: Path) -> None:
    with Store.open(path) as store:
        store.save_progress(played(new_game(), 10))
    shorter = played(new_game(), 3)
    with Store.open(path) as store:
        store.save_progress(shorter)  # no cached copy: the 10 old rows must go
    with Store.open(path) as store:
        assert store.load_progress("pyramid") == shorter


def test_a_new_deal_replaces_the_saved_game(path: Path) -> None:
    with Store.open(path) as store:
        store.save_progress(played(new_game(1), 6))
        store.save_progress(played(new_game(2), 1))
        loaded = store.load_progress("pyramid")
    assert loaded is not None and loaded.deal_number == 2 and len(loaded.moves) == 1


def test_games_are_kept_apart(path: Path) -> None:
    duel = Progress("patience", "level-3", 0, "duel deal", ("p1", "p2"), started=STARTED)
    with Store.open(path) as store:
        store.save_progress(played(new_game(), 4))
        store.save_progress(duel)
        store.clear_progress("pyramid")
    with Store.open(path) as store:
        assert store.load_progress("pyramid") is None
        assert store.load_progress("patience") == duel  # no replayer registered: kept as written


def test_moves_that_no_longer_replay_give_none_and_a_notice(path: Path) -> None:
    broken = new_game().with_move("draw").with_move("Kd+Kd")
    with Store.open(path) as store:
        store.save_progress(broken)
    with Store.open(path) as store:
        assert store.load_progress("pyramid") is None
        assert "saved move 2 'Kd+Kd'" in told(store.take_notice())
        store.save_progress(new_game())  # a new game goes over it
        assert store.load_progress("pyramid") == new_game()


def test_an_unknown_preset_gives_none(path: Path) -> None:
    with Store.open(path) as store:
        store.save_progress(dataclasses.replace(new_game(), preset="gone"))
        assert store.load_progress("pyramid") is None
        assert "gone" in told(store.notices)


def test_replay_names_the_failing_move() -> None:
    progress = new_game().with_move("draw").with_move("redeal")
    with pytest.raises(ReplayError, match=r"saved move 2 'redeal' no longer replays: illegal move 'redeal'"):
        replay(progress)


def test_replay_rebuilds_the_position_under_the_chosen_redeals() -> None:
    progress = played(new_game(redeals=1), 15)
    board = Board(progress.deal, preset("retrohub").with_redeals(1))
    for text in progress.moves:
        board.push(Move.parse(text))
    replayed = replay(progress)
    assert replayed.to_json() == board.to_json()
    assert replayed.rules.redeals == 1 and len(replayed.move_stack) == 15


def test_without_last_move_at_the_start() -> None:
    with pytest.raises(IndexError):
        new_game().without_last_move()


def test_a_failed_write_is_told_and_play_goes_on(path: Path) -> None:
    with Store.open(path) as store:
        store.save_progress(played(new_game(), 2))
        store._connection.execute("PRAGMA query_only = ON")  # every write now fails in SQLite
        assert not store.save_progress(played(new_game(), 3))
        assert not store.set_setting("safe_area", 5)
        failure = told(store.take_save_failure())
        assert "Could not save the game" in failure and "Play goes on" in failure
        assert store.take_save_failure() is None and not store.take_notice()  # once, for the game screen
        store._connection.execute("PRAGMA query_only = OFF")
        later = played(new_game(), 4)
        assert store.save_progress(later)
    with Store.open(path) as store:
        assert store.load_progress("pyramid") == later


# -- statistics -------------------------------------------------------------------
def result(won: bool, score: int | None = None, assisted: bool = False, higher: bool = True) -> GameResult:
    return GameResult("pyramid", "retrohub", won, score, assisted, higher)


def test_streaks_and_win_rate() -> None:
    stats = Stats("pyramid", "retrohub")
    assert stats.win_rate is None
    for won in (True, True, False, True, True, True, False):
        stats = stats.after(result(won))
    assert (stats.played, stats.won, stats.current_streak, stats.best_streak) == (7, 5, 0, 3)
    assert stats.win_rate == pytest.approx(5 / 7)


def test_assisted_games_are_counted_apart() -> None:
    stats = Stats("pyramid", "retrohub").after(result(True, 400)).after(result(True, 420, assisted=True))
    stats = stats.after(result(False, 10, assisted=True))
    assert (stats.played, stats.won, stats.current_streak, stats.best_score) == (1, 1, 1, 400)
    assert (stats.assisted_played, stats.assisted_won) == (2, 1)


def test_best_score_follows_the_scoring_direction() -> None:
    points = Stats("pyramid", "retrohub")
    cards_left = Stats("pyramid", "retrohub")
    for score in (5, 2, 9):
        points = points.after(result(False, score))
        cards_left = cards_left.after(result(False, score, higher=False))
    assert (points.best_score, cards_left.best_score) == (9, 2)


def test_a_result_for_another_key_is_refused() -> None:
    with pytest.raises(ValueError, match="'pyramids'"):
        Stats("pyramid", "retrohub").after(GameResult("pyramids", "retrohub", True))


def test_record_result_persists_and_ends_the_saved_game(path: Path) -> None:
    with Store.open(path) as store:
        store.save_progress(played(new_game(), 3))
        store.record_result(result(True, 120))
        assert store.load_progress("pyramid") is None
        kept = played(new_game(), 3)
        store.save_progress(kept)
        returned = store.record_result(result(False, 35), clear_progress=False)
    with Store.open(path) as store:
        assert store.stats("pyramid", "retrohub") == returned
        assert (returned.played, returned.won, returned.best_score, returned.best_streak) == (2, 1, 120, 1)
        assert store.load_progress("pyramid") == kept


def test_all_stats_and_reset(path: Path) -> None:
    with Store.open(path) as store:
        for game, variant in (("pyramids", "level-2"), ("pyramid", "classic"), ("pyramid", "retrohub")):
            store.record_result(GameResult(game, variant, True))
        assert [(s.game, s.variant) for s in store.all_stats()] == [
            ("pyramid", "classic"), ("pyramid", "retrohub"), ("pyramids", "level-2")
        ]
        store.reset_stats("pyramid", "classic")
        assert [s.variant for s in store.all_stats()] == ["retrohub", "level-2"]
        store.reset_stats("pyramid")
        assert [s.game for s in store.all_stats()] == ["pyramids"]
        store.reset_stats()
        assert store.all_stats() == []
        assert store.stats("pyramid", "retrohub") == Stats("pyramid", "retrohub")


# -- settings ---------------------------------------------------------------------
def test_settings_default_then_persist(path: Path) -> None:
    with Store.open(path) as store:
        assert store.settings() == PlayerSettings()
        store.set_setting("card_letters", "english")
        store.set_setting("four_colour_suits", True)
        store.set_setting("redeal_default", "unlimited")
        store.set_setting("safe_area", 5)
        store.set_setting("rules_preset", "retrohub")
        store.set_setting("menu_choices", {"main": "new-game"})
    with Store.open(path) as store:
        settings = store.settings()
    assert (settings.card_letters, settings.four_colour_suits, settings.redeal_default) == ("english", True, "unlimited")
    assert (settings.safe_area, settings.menu_choices, settings.winnable_only) == (5, {"main": "new-game"}, False)


@pytest.mark.parametrize(
    "name, value",
    [("card_letters", "spanish"), ("four_colour_suits", 1), ("safe_area", True), ("safe_area", 21),
     ("redeal_default", "always"), ("rules_preset", "no-such-preset"), ("menu_choices", {"main": 3})],
)
def test_bad_setting_values_are_refused(path: Path, name: str, value: object) -> None:
    with Store.open(path) as store:
        with pytest.raises(InvalidSettingError, match=f"invalid value {value!r} for setting {name!r}"):
            store.set_setting(name, value)
        assert store.settings() == PlayerSettings()


def test_unknown_setting_name_is_refused(path: Path) -> None:
    with Store.open(path) as store, pytest.raises(KeyError, match="colour_scheme"):
        store.set_setting("colour_scheme", "dark")


def test_stored_values_that_fail_their_check_fall_back(path: Path) -> None:
    with Store.open(path) as store:
        store.set_setting("card_letters", "english")
    with sqlite3.connect(path) as raw:
        raw.executemany(
            "INSERT OR REPLACE INTO settings VALUES (?, ?)",
            [("safe_area", json.dumps("wide")), ("from_a_newer_version", "1"), ("winnable_only", "not json")],
        )
    with Store.open(path) as store:
        settings = store.settings()
        assert settings == PlayerSettings(card_letters="english")
        rows = dict(store._connection.execute("SELECT name, value FROM settings").fetchall())
    assert rows["from_a_newer_version"] == "1"  # unknown names are kept for the version that knows them


def test_every_setting_has_a_check() -> None:
    assert set(CHECKS) == set(PlayerSettings()._asdict())
    for name, value in PlayerSettings()._asdict().items():
        assert CHECKS[name].accepts(value), name


# -- notice and command line --------------------------------------------------------
def test_notice_is_taken_once() -> None:
    notice = StoreNotice.of("settings_unreadable", reason="disk I/O error")
    store = Store.in_memory(notice)
    assert store.take_notice() == (notice,) and told(notice) == "The settings could not be read (disk I/O error)."
    assert not store.take_notice() and not store.notices


def test_check_command(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Store.open(path).close()
    assert integrity_check(path) == ["ok"]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out == "ok\n"
    path.write_bytes(b"not a database at all" * 100)
    assert main(["check", str(path)]) == 1
    assert "file is not a database" in capsys.readouterr().out


def test_check_does_not_create_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    assert integrity_check(missing)[0].startswith("cannot open")
    assert not missing.exists()


def test_where_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("PYRAMID_DATA_DIR", str(tmp_path))
    assert main(["where"]) == 0
    assert capsys.readouterr().out == f"{tmp_path / DATABASE_NAME}\n"


def test_a_saved_game_edited_out_of_shape_gives_none(path: Path) -> None:
    with Store.open(path) as store:
        store.save_progress(played(new_game(), 3))
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE progress SET redeals = 'many'")
    with Store.open(path) as store:
        assert store.load_progress("pyramid") is None
        assert "unreadable saved game" in told(store.notices)


def test_a_missing_move_row_gives_none(path: Path) -> None:
    with Store.open(path) as store:
        store.save_progress(played(new_game(), 3))
    with sqlite3.connect(path) as raw:
        raw.execute("DELETE FROM progress_moves WHERE ply = 1")
    with Store.open(path) as store:
        assert store.load_progress("pyramid") is None
        assert "gaps" in told(store.notices)


def test_statistics_edited_out_of_shape_start_again(path: Path) -> None:
    with Store.open(path) as store:
        store.record_result(result(True, 50))
        store.record_result(GameResult("pyramid", "classic", True))
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE stats SET won = 'lots' WHERE variant = 'retrohub'")
    with Store.open(path) as store:
        assert [s.variant for s in store.all_stats()] == ["classic"]
        assert store.record_result(result(True, 30)).played == 1
        assert "pyramid/retrohub" in told(store.notices)


def test_the_documented_where_command_runs(tmp_path: Path) -> None:
    """README.md tells owners to run ``python -m pyramid.saved where``: it must work as written."""
    import os
    import subprocess
    import sys

    env = {key: value for key, value in os.environ.items() if key != "STATE_DIRECTORY"}
    env["PYRAMID_DATA_DIR"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-m", "pyramid.saved", "where"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout) == (0, f"{tmp_path / DATABASE_NAME}\n"), result.stderr


def test_classic_bests_counted_on_the_pyramid_are_kept_apart(tmp_path: Path) -> None:
    """Store migration 9 (issue 47): Classic's best "cards left" counted the pyramid's only; such a best
    is kept and shown apart, never compared with the new count of all 52 cards."""
    from contextlib import closing

    from old_store import database_at

    path = tmp_path / "pyramid.db"
    with closing(database_at(path, 8)) as db:
        db.execute("INSERT INTO stats VALUES ('pyramid', 'classic/none', 4, 1, 3, 0, 1, 0, 0, NULL)")
        db.execute("INSERT INTO stats VALUES ('pyramid', 'retrohub/none', 2, 1, 420, 1, 1, 0, 0, NULL)")
    with Store.open(path) as store:
        classic, retrohub = store.stats("pyramid", "classic/none"), store.stats("pyramid", "retrohub/none")
    assert (classic.played, classic.won, classic.best_score, classic.old_best_score) == (4, 1, None, 3)
    assert (retrohub.best_score, retrohub.old_best_score) == (420, None)


def test_a_deals_best_score_found_is_kept_across_a_restart_and_a_row_out_of_shape_is_none(tmp_path: Path) -> None:
    """Issue 51: the best score the solver found for a score challenge, by variant and numbered deal."""
    path = tmp_path / "pyramid.db"
    with Store.open(path) as store:
        assert store.deal_score("three-pass/two", 532) is None
        store.keep_deal_score("three-pass/two", 532, 1290)
        store.keep_deal_score("retrohub/none", 532, 510)
    with Store.open(path) as store:
        assert (store.deal_score("three-pass/two", 532), store.deal_score("retrohub/none", 532)) == (1290, 510)
        assert store.deal_score("three-pass/two", 533) is None
    with sqlite3.connect(path) as edited:
        edited.execute("UPDATE deal_scores SET score = 'lots' WHERE variant = 'retrohub/none'")
        edited.execute("UPDATE deal_scores SET score = -5 WHERE variant = 'three-pass/two'")
    with Store.open(path) as store:
        assert store.deal_score("retrohub/none", 532) is None and store.deal_score("three-pass/two", 532) is None
