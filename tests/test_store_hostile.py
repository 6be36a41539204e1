"""The store against damage that reads, newer schemas, odd files and failing disks (issue 13, items 2 to 4).

Nothing that could still be read is thrown away, a saved game that cannot be
resumed is never offered, and a save that fails during play is reported
once, for the game screen to show.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from disks import fill, tmpfs

from pyramid.saved.progress import Progress
from pyramid.saved.settings import PlayerSettings
from pyramid.saved.stats import DailyPlay, GameResult
from pyramid.saved.database import DATABASE_NAME, SCHEMA_VERSION, integrity_check
from pyramid.saved.store import Store
from test_store_damage import ASIDE, clock, filled_database, saved_game
from told import told


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / DATABASE_NAME


def stats_of(store: Store) -> list[tuple[str, int]]:
    return [(stats.variant, stats.won) for stats in store.all_stats()]


FILLED_STATS = [("classic", 1), ("par", 1), ("retrohub", 1)]


# -- item 3: a saved game that does not replay is set aside, Continue goes ------------------

def corrupt_saved_game(path: Path, sql: str) -> None:
    filled_database(path)
    with sqlite3.connect(path) as raw:
        raw.execute(sql)
    assert integrity_check(path) == ["ok"]  # damage SQLite cannot see


@pytest.mark.parametrize("sql", ["UPDATE progress SET deal = replace(deal, 'Kh', 'Kd')",  # two Kd: no deal
                                 "UPDATE progress_moves SET move = 'Kd+Kd' WHERE ply = 3",
                                 "UPDATE progress SET preset = 'gone'"])
def test_a_saved_game_that_cannot_be_resumed_is_set_aside_when_the_store_opens(path: Path, sql: str) -> None:
    corrupt_saved_game(path, sql)
    with Store.open(path, clock=clock) as store:
        assert not store.has_progress("pyramid")  # no Continue
        notice = told(store.take_notice())
        assert "could not be resumed" in notice
        kept = path.parent / f"{DATABASE_NAME}.unresumable-pyramid-20261130-174509.json"
        assert kept.name in notice
        assert len(json.loads(kept.read_text())["moves"]) == len(saved_game().moves)
        assert stats_of(store) == FILLED_STATS and store.settings().card_letters == "english"
    with Store.open(path, clock=clock) as store:
        assert not store.notices and not store.has_progress("pyramid")  # told once, not on every start


def test_a_saved_game_that_resumes_stays_where_it_is(path: Path) -> None:
    filled_database(path)
    with Store.open(path, clock=clock) as store:
        assert not store.notices and store.has_progress("pyramid")
        assert store.load_progress("pyramid") == saved_game()


# -- item 4: salvage what reads ------------------------------------------------------------

def damage_table(path: Path, table: str) -> None:
    """Overwrite the root page of ``table`` (its b-tree header): that table, and only it, is unreadable."""
    with sqlite3.connect(path) as raw:
        (root,) = raw.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        (page_size,) = raw.execute("PRAGMA page_size").fetchone()
    data = bytearray(path.read_bytes())
    offset = (root - 1) * page_size
    data[offset:offset + 12] = b"\xff" * 12
    path.write_bytes(bytes(data))


def test_damage_confined_to_the_moves_keeps_the_statistics_and_settings(path: Path) -> None:
    filled_database(path)
    damage_table(path, "progress_moves")
    original = path.read_bytes()
    with Store.open(path, clock=clock) as store:
        notice = told(store.take_notice())
        assert "damaged" in notice and ASIDE in notice
        assert "3 statistics records and 1 setting" in notice
        assert stats_of(store) == FILLED_STATS and store.settings().card_letters == "english"
        assert not store.has_progress("pyramid")
        assert store.record_result(GameResult("pyramid", "classic", True, 10)).won == 2
    assert (path.parent / ASIDE).read_bytes() == original  # the damaged copy is kept as it was
    assert integrity_check(path) == ["ok"]


def test_damaged_statistics_keep_the_settings(path: Path) -> None:
    filled_database(path)
    damage_table(path, "stats")
    with Store.open(path, clock=clock) as store:
        assert "1 setting" in told(store.take_notice())
        assert store.all_stats() == [] and store.settings().card_letters == "english"


def test_a_newer_schema_is_opened_read_only_and_nothing_is_lost(path: Path) -> None:
    filled_database(path)
    with sqlite3.connect(path) as newer:
        newer.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    original = path.read_bytes()
    with Store.open(path, clock=clock) as store:
        notice = told(store.take_notice())
        assert "newer version" in notice and "nothing will be saved" in notice
        assert store.read_only and store.location == path
        assert stats_of(store) == FILLED_STATS and store.settings().card_letters == "english"
        assert store.load_progress("pyramid") == saved_game()
        assert not store.save_progress(saved_game().with_move("draw"))
        assert not store.set_setting("card_letters", "french")
        assert store.record_result(GameResult("pyramid", "classic", True)).won == 2  # this run only
        assert store.take_save_failure() is None  # the notice said it already: no message on every move
    assert path.read_bytes() == original
    assert [p.name for p in path.parent.iterdir() if "damaged" in p.name] == []


def test_a_newer_schema_with_a_game_this_version_cannot_resume_leaves_it_untouched(path: Path) -> None:
    corrupt_saved_game(path, "UPDATE progress SET preset = 'from-the-future'")
    with sqlite3.connect(path) as newer:
        newer.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    original = path.read_bytes()
    with Store.open(path, clock=clock) as store:
        assert not store.has_progress("pyramid")
        assert "could not be resumed" in told(store.take_notice())
    assert path.read_bytes() == original


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal"])
def test_a_directory_in_place_of_a_file_is_set_aside(path: Path, suffix: str) -> None:
    if suffix:
        filled_database(path)
    blocker = Path(f"{path}{suffix}")
    blocker.mkdir()
    (blocker / "inside").write_text("kept")
    with Store.open(path, clock=clock) as store:
        assert store.location == path and not store.read_only
        notice = told(store.take_notice())
        aside = Path(f"{path}{suffix}.damaged-20261130-174509")
        assert aside.name in notice and "nothing will be saved" not in notice
        assert (aside / "inside").read_text() == "kept"
        if suffix:
            assert stats_of(store) == FILLED_STATS
        assert store.save_progress(saved_game())
    with Store.open(path, clock=clock) as store:
        assert not store.notices and store.load_progress("pyramid") == saved_game()


@pytest.mark.parametrize("target", ["/dev/null", "/dev/zero", "missing-target"])
def test_a_database_path_that_leads_to_no_regular_file_is_refused(path: Path, target: str) -> None:
    companions = [Path(f"{target}{suffix}") for suffix in ("-journal", "-wal", "-shm")]
    before = {companion: companion.exists() for companion in companions}
    path.symlink_to(target)
    try:
        with Store.open(path, clock=clock) as store:
            assert store.location is None
            notice = told(store.take_notice())
            assert "not a regular file" in notice and "nothing will be saved" in notice
            store.save_progress(saved_game())
        assert {companion: companion.exists() for companion in companions} == before
        assert sorted(p.name for p in path.parent.iterdir()) == [DATABASE_NAME]
    finally:
        for companion in companions:
            if companion.exists() and not before[companion] and companion.parent == Path("/dev"):
                companion.unlink()  # what the old code left in /dev


# -- item 2: a save that fails during play is reported once ----------------------------------

@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs of its own."""
    with tmpfs(tmp_path / "disk", "256k") as mount:
        yield mount


def longer(progress: Progress, moves: int) -> Progress:
    for _ in range(moves):
        progress = progress.with_move("draw")
    return progress


def test_a_full_disk_during_play_is_reported_once_and_play_goes_on(small_disk: Path) -> None:
    path = small_disk / DATABASE_NAME
    game = saved_game()
    with Store.open(path, clock=clock, replayers={}) as store:
        assert store.save_progress(game)
        filler = fill(small_disk)
        game = longer(game, 400)  # rows the full disk has no room for
        assert not store.save_progress(game)
        failure = told(store.take_save_failure())
        assert "Could not save the game" in failure and "full" in failure
        assert "\n" not in failure
        assert not store.save_progress(longer(game, 1))
        assert store.take_save_failure() is None  # once, not after every move
        filler.unlink()
        game = longer(game, 2)
        assert store.save_progress(game)
        assert store.take_save_failure() is None
        fill(small_disk)
        assert not store.set_setting("card_letters", "english")
        assert "Could not save the settings" in told(store.take_save_failure())  # a new failure is told again
        (small_disk / "filler").unlink()
    with Store.open(path, clock=clock, replayers={}) as store:
        assert store.load_progress("pyramid") == game


@pytest.fixture
def ext4_card(tmp_path: Path) -> Iterator[Path]:
    """An ext4 file system on a loop device, mounted ``errors=remount-ro`` as an SD card is (needs root)."""
    if os.geteuid() != 0 or not shutil.which("losetup") or not shutil.which("mkfs.ext4"):
        pytest.skip("needs root, losetup and mkfs.ext4")
    image, mount = tmp_path / "card.img", tmp_path / "card"
    with open(image, "wb") as file:
        file.truncate(16 << 20)
    subprocess.run(["mkfs.ext4", "-q", str(image)], check=True)
    attached = subprocess.run(["losetup", "-f", "--show", str(image)], capture_output=True, text=True, check=False)
    if attached.returncode:
        pytest.skip(f"no loop device: {attached.stderr.strip()}")
    device = attached.stdout.strip()
    try:
        mount.mkdir()
        subprocess.run(["mount", "-o", "errors=remount-ro", device, str(mount)], check=True)
        try:
            yield mount
        finally:
            subprocess.run(["umount", "-l", str(mount)], check=True)
    finally:
        subprocess.run(["losetup", "-d", device], check=True)


def test_a_card_the_kernel_remounts_read_only_during_play_is_reported_once(ext4_card: Path) -> None:
    path = ext4_card / DATABASE_NAME
    game = saved_game()
    with Store.open(path, clock=clock) as store:
        assert store.save_progress(game)
        device = Path(next(line.split()[0] for line in Path("/proc/mounts").read_text().splitlines()
                           if line.split()[1] == str(ext4_card)))
        # What the kernel does on an I/O error of a card mounted errors=remount-ro.
        Path(f"/sys/fs/ext4/{device.name}/trigger_fs_error").write_text("test: the card failed")
        assert not store.save_progress(game.with_move("draw"))
        failure = told(store.take_save_failure())
        assert "Could not save the game" in failure and "\n" not in failure
        assert store.record_result(GameResult("pyramid", "retrohub", False)).played == 1  # play goes on
        assert not store.clear_progress("pyramid")
        assert store.take_save_failure() is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through any permission")
def test_a_read_only_database_file_is_said_at_start(path: Path) -> None:
    filled_database(path)
    path.chmod(0o444)
    with Store.open(path, clock=clock) as store:
        assert store.read_only and "nothing will be saved" in told(store.take_notice())
        assert stats_of(store) == FILLED_STATS
        assert not store.save_progress(saved_game().with_move("draw"))


def test_a_read_only_database_file_is_said_at_start_even_for_root(path: Path) -> None:
    """Root writes through permissions, so the file is made read-only the way a card is: a read-only bind mount."""
    if os.geteuid() != 0:
        pytest.skip("bind mounts need root")
    filled_database(path)
    if subprocess.run(["mount", "--bind", str(path), str(path)], check=False).returncode:
        pytest.skip("cannot bind-mount here")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(path)], check=True)
        with Store.open(path, clock=clock) as store:
            assert store.read_only and "nothing will be saved" in told(store.take_notice())
            assert stats_of(store) == FILLED_STATS and store.has_progress("pyramid")
            assert not store.save_progress(saved_game().with_move("draw"))
            assert store.take_save_failure() is None
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_the_player_settings_of_a_salvaged_file_are_checked_again(path: Path) -> None:
    filled_database(path)
    with sqlite3.connect(path) as raw:
        raw.execute("INSERT INTO settings VALUES ('safe_area', '99')")  # out of range: not kept
    damage_table(path, "progress_moves")
    with Store.open(path, clock=clock) as store:
        assert store.settings() == PlayerSettings(card_letters="english")


def test_damage_confined_to_the_moves_keeps_the_daily_deals_played(path: Path) -> None:
    import datetime

    filled_database(path)
    with Store.open(path, clock=clock) as store:
        store.record_result(GameResult("pyramid", "retrohub/none", True, 420), clear_progress=False,
                            daily=DailyPlay(datetime.date(2026, 11, 30)))
    damage_table(path, "progress_moves")
    with Store.open(path, clock=clock) as store:
        assert "1 daily deal" in told(store.take_notice())
        assert store.daily_results() == {datetime.date(2026, 11, 30): True}


def test_a_best_or_a_time_edited_out_of_shape_is_no_best_and_no_time(tmp_path: Path) -> None:
    """Issue 29's bests and game time come from the data file: a row or a value of the wrong kind is
    read as none, never a crash."""
    import dataclasses

    from pyramid.console.game_flow import seconds_of
    from pyramid.saved.progress import Progress

    path = tmp_path / "pyramid.db"
    with Store.open(path) as store:
        store._connection.execute("INSERT INTO bests VALUES ('pyramid', 'retrohub/one', 7, 'many', 12, NULL)")
        store._connection.execute("INSERT INTO bests VALUES ('pyramid', 'retrohub/one', 9, 30, 12, 'lots')")
        store._connection.commit()
        assert store.best_of("pyramid", "retrohub/one", 7) is None
        assert store.best_of("pyramid", "retrohub/one", 8) is None
        assert store.best_of("pyramid", "retrohub/one", 9) is None
    game = Progress("pyramid", "retrohub", 1, "x" * 10, ())
    for wrong in ("12", -5, 1.5, None, [3]):
        assert seconds_of(dataclasses.replace(game, context={"seconds": wrong})) == 0
    assert seconds_of(dataclasses.replace(game, context={"seconds": 95})) == 95
