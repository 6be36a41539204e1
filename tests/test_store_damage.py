"""Bad data never stops the console: damaged files are put aside, old schemas migrate."""

from __future__ import annotations

import datetime
import os
import random
import sqlite3
from pathlib import Path

import pytest

from pyramid.engine.cards import format_cards
from pyramid.engine.deal import numbered_deal
from pyramid.saved.progress import Progress, replay
from pyramid.saved.settings import PlayerSettings
from pyramid.saved.stats import GameResult
from pyramid.saved.database import DATABASE_NAME, SCHEMA_VERSION, integrity_check
from pyramid.saved.store import Store
from told import told

NOW = datetime.datetime(2026, 11, 30, 17, 45, 9)
ASIDE = f"{DATABASE_NAME}.damaged-20261130-174509"


def clock() -> datetime.datetime:
    return NOW


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / DATABASE_NAME


def saved_game() -> Progress:
    progress = Progress(
        "pyramid", "retrohub", None, format_cards(numbered_deal(7)), started=NOW.astimezone(), deal_number=7
    )
    board = replay(progress)
    while board.legal_moves and len(progress.moves) < 60:
        move = board.legal_moves[-1]
        board.push(move)
        progress = progress.with_move(move)
    return progress


def filled_database(path: Path) -> None:
    """A database with a few pages of real data, checkpointed into the main file."""
    with Store.open(path) as store:
        store.save_progress(saved_game())
        store.set_setting("card_letters", "english")
        for variant in ("classic", "retrohub", "par"):
            store.record_result(GameResult("pyramid", variant, True, 100), clear_progress=False)


def assert_started_afresh(path: Path, store: Store, original: bytes) -> None:
    """The bad file is kept byte for byte, the player is told once, and the new store works.

    What could still be read of the statistics and settings is kept, and only
    what the file really held (see test_store_hostile.py for the salvage).
    """
    assert (path.parent / ASIDE).read_bytes() == original
    notice = told(store.take_notice())
    assert "damaged" in notice and ASIDE in notice
    assert not store.take_notice()
    assert store.location == path
    assert store.load_progress("pyramid") is None
    assert {(s.variant, s.won, s.best_score) for s in store.all_stats()} <= {
        (variant, 1, 100) for variant in ("classic", "retrohub", "par")}
    assert store.settings() in (PlayerSettings(), PlayerSettings(card_letters="english"))
    store.save_progress(saved_game())
    store.close()
    assert integrity_check(path) == ["ok"]
    with Store.open(path) as reopened:
        assert not reopened.notices and reopened.load_progress("pyramid") == saved_game()


def test_garbage_bytes(path: Path) -> None:
    original = random.Random(1).randbytes(10_000)
    path.write_bytes(original)
    assert_started_afresh(path, Store.open(path, clock=clock), original)


@pytest.mark.parametrize("keep", [50, 4096 + 100, 0.5])
def test_truncated_file(path: Path, keep: float) -> None:
    filled_database(path)
    data = path.read_bytes()
    original = data[: int(len(data) * keep) if isinstance(keep, float) else keep]
    path.write_bytes(original)
    assert_started_afresh(path, Store.open(path, clock=clock), original)


def test_garbage_over_a_page(path: Path) -> None:
    filled_database(path)
    data = bytearray(path.read_bytes())
    data[4096 : 2 * 4096] = random.Random(2).randbytes(4096)
    path.write_bytes(bytes(data))
    assert_started_afresh(path, Store.open(path, clock=clock), bytes(data))


def test_wal_files_move_with_the_database(path: Path) -> None:
    original = b"garbage" * 1000
    path.write_bytes(original)
    Path(f"{path}-wal").write_bytes(b"old log")
    Path(f"{path}-shm").write_bytes(b"old index")
    store = Store.open(path, clock=clock)
    assert (path.parent / f"{ASIDE}-wal").read_bytes() == b"old log"
    assert (path.parent / f"{ASIDE}-shm").exists()  # an index SQLite rebuilds: its bytes do not matter
    assert_started_afresh(path, store, original)


def test_sqlite_file_of_another_program(path: Path) -> None:
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    original = path.read_bytes()
    assert_started_afresh(path, Store.open(path, clock=clock), original)


def test_wrong_tables_at_our_version(path: Path) -> None:
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        other.execute("CREATE TABLE stats (game TEXT, wins INTEGER)")
        other.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    original = path.read_bytes()
    store = Store.open(path, clock=clock)
    assert "do not match schema version" in told(store.notices)
    assert_started_afresh(path, store, original)


def test_schema_newer_than_the_program_is_read_and_left_as_it_is(path: Path) -> None:
    filled_database(path)
    with sqlite3.connect(path) as newer:
        newer.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    original = path.read_bytes()
    with Store.open(path, clock=clock) as store:
        assert f"schema {SCHEMA_VERSION + 1}" in told(store.notices) and store.read_only
        assert store.settings().card_letters == "english"
    assert path.read_bytes() == original


def test_two_damaged_files_in_the_same_second_keep_both(path: Path) -> None:
    path.write_bytes(b"first" * 1000)
    Store.open(path, clock=clock).close()
    path.write_bytes(b"second" * 1000)
    store = Store.open(path, clock=clock)
    assert f"{ASIDE}-2" in told(store.notices)
    assert (path.parent / ASIDE).read_bytes() == b"first" * 1000
    assert (path.parent / f"{ASIDE}-2").read_bytes() == b"second" * 1000
    store.close()


def test_an_empty_file_is_a_new_database(path: Path) -> None:
    path.touch()
    with Store.open(path, clock=clock) as store:
        assert not store.notices
        store.set_setting("winnable_only", True)
    assert [p.name for p in path.parent.iterdir() if "damaged" in p.name] == []


def test_random_damage_never_stops_the_store(path: Path) -> None:
    """Bytes flipped anywhere: opening and every read still return (perhaps nothing)."""
    filled_database(path)
    pristine = path.read_bytes()
    rng = random.Random(3)
    for trial in range(25):
        data = bytearray(pristine)
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
        with Store.open(path, clock=lambda: NOW + datetime.timedelta(seconds=trial)) as store:
            store.load_progress("pyramid")
            store.all_stats()
            store.settings()
            store.save_progress(saved_game())
            assert store.location == path
        assert integrity_check(path) == ["ok"]


# -- migrations ---------------------------------------------------------------------
def test_version_1_file_migrates_and_keeps_its_data(path: Path) -> None:
    """The first released schema, written out by hand as it was, with a game and a setting."""
    game = saved_game()
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        old.execute(
            "CREATE TABLE progress (game TEXT PRIMARY KEY, preset TEXT NOT NULL, redeals INTEGER,"
            " deal TEXT NOT NULL, deal_number INTEGER, started TEXT NOT NULL, assists TEXT NOT NULL)"
        )
        old.execute(
            "CREATE TABLE progress_moves (game TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT NOT NULL,"
            " PRIMARY KEY (game, ply)) WITHOUT ROWID"
        )
        old.execute("INSERT INTO settings VALUES ('four_colour_suits', 'true')")
        old.execute(
            "INSERT INTO progress VALUES ('pyramid', 'retrohub', NULL, ?, 7, ?, '{\"hint\": 1}')",
            (game.deal, game.started.isoformat()),
        )
        old.executemany("INSERT INTO progress_moves VALUES ('pyramid', ?, ?)", enumerate(game.moves))
        old.execute("PRAGMA user_version = 1")
    with Store.open(path, clock=clock) as store:
        assert not store.notices
        assert store._connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert store.settings().four_colour_suits is True
        assert store.load_progress("pyramid") == game.with_assist("hint")
        assert store.record_result(GameResult("pyramid", "retrohub", True, 300)).won == 1
    assert integrity_check(path) == ["ok"]


# -- directories that cannot be used ----------------------------------------------------
def assert_plays_in_memory(store: Store) -> None:
    assert store.location is None
    notice = told(store.take_notice())
    assert "nothing will be saved" in notice
    store.save_progress(saved_game())
    store.record_result(GameResult("pyramid", "retrohub", True, 420), clear_progress=False)
    store.set_setting("safe_area", 3)
    assert store.load_progress("pyramid") == saved_game()
    assert store.stats("pyramid", "retrohub").won == 1 and store.settings().safe_area == 3


def test_directory_that_cannot_be_created(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("a file where the directory should be")
    store = Store.open(environ={"PYRAMID_DATA_DIR": str(tmp_path / "state" / "pyramid")})
    assert_plays_in_memory(store)


def test_database_path_taken_by_a_directory_is_put_aside(path: Path) -> None:
    path.mkdir()
    with Store.open(path, clock=clock) as store:
        assert store.location == path and f"kept as {ASIDE}" in told(store.notices)
    assert (path.parent / ASIDE).is_dir()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through any permission")
def test_read_only_directory(tmp_path: Path) -> None:
    directory = tmp_path / "pyramid"
    directory.mkdir(mode=0o500)
    try:
        assert_plays_in_memory(Store.open(directory / DATABASE_NAME))
    finally:
        directory.chmod(0o700)
