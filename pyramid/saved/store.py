"""Everything the console keeps between power cycles, in one SQLite file.

The game in progress, the statistics and the settings live in
``pyramid.db`` in the state directory (:func:`data_directory`). A handheld
is switched off at any moment, so:

* every change is one transaction, committed durably before the call returns
  (see :func:`_configure` for the journal and sync modes);
* the game in progress is saved after every move by appending the new move
  rows, so a save costs the same on move 5 as on move 5000;
* nothing here ever stops the console, and nothing that can still be read is
  thrown away. A damaged file is put aside and the store starts afresh with
  the statistics and settings that could still be read from it; a file of a
  newer schema (what a rollback after a migrating update meets) is opened
  read-only, so the newer version finds it whole when it is back; a directory
  where a file should be is put aside like damage; a path that leads to a
  device, or a directory that cannot be written, gives a store in memory. A
  saved game that no longer replays is put aside (as JSON next to the
  database) so Continue is never offered for it. Each case leaves a
  :class:`~pyramid.saved.notices.StoreNotice` in :attr:`Store.notices` for the
  player, told once;
* a write that fails during play (a full or read-only card) is dropped and
  play goes on; the first failure leaves a notice for the game
  screen (:meth:`Store.take_save_failure`), and every save method says
  whether it saved.

Run ``python -m pyramid.saved check PATH`` to print SQLite's integrity check
of a database (the power-cut tests use it), ``python -m pyramid.saved where``
to print where the console keeps its data.

Progress and statistics types load on first use: the console opens the store
and shows its main menu before it needs any game's rules.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
import stat
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Sequence

from pyramid.saved.notices import StoreNotice
from pyramid.saved.settings import PlayerSettings, check_setting

if TYPE_CHECKING:
    from pyramid.saved.progress import Progress, Replayer
    from pyramid.saved.stats import DailyPlay, DailyRecord, DealBest, GameResult, Stats

DATABASE_NAME = "pyramid.db"

#: Each step takes the schema from version ``i`` to ``i + 1`` (``PRAGMA user_version``).
#: Steps are only ever appended: a released step never changes.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: settings and the game in progress (one header row per game, one row per move).
    (
        "CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE progress (game TEXT PRIMARY KEY, preset TEXT NOT NULL, redeals INTEGER,"
        " deal TEXT NOT NULL, deal_number INTEGER, started TEXT NOT NULL, assists TEXT NOT NULL)",
        "CREATE TABLE progress_moves (game TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT NOT NULL,"
        " PRIMARY KEY (game, ply)) WITHOUT ROWID",
    ),
    # 2: statistics per game and variant.
    (
        "CREATE TABLE stats (game TEXT NOT NULL, variant TEXT NOT NULL,"
        " played INTEGER NOT NULL, won INTEGER NOT NULL, best_score INTEGER,"
        " current_streak INTEGER NOT NULL, best_streak INTEGER NOT NULL,"
        " assisted_played INTEGER NOT NULL, assisted_won INTEGER NOT NULL,"
        " PRIMARY KEY (game, variant))",
    ),
    # 3: what else a game in progress needs to resume (the duel's contenders and finished games).
    ("ALTER TABLE progress ADD COLUMN context TEXT NOT NULL DEFAULT '{}'",),
    # 4: the daily deals played, by date (ISO), and whether each was won: the daily streaks.
    ("CREATE TABLE daily (day TEXT PRIMARY KEY, won INTEGER NOT NULL)",),
    # 5: Three passes scores rows as Microsoft does (docs/rules.md, "Scoring"): its best scores made
    # under the values before are kept apart, never compared with the new ones.
    (
        "ALTER TABLE stats ADD COLUMN old_best_score INTEGER",
        "UPDATE stats SET old_best_score = best_score, best_score = NULL"
        " WHERE game = 'pyramid' AND variant LIKE 'three-pass/%'",
    ),
    # 6: the fewest moves (and the time, in seconds, of that game) a numbered deal was won in, unaided,
    # per game and variant: the end panel's "New best for this deal".
    ("CREATE TABLE bests (game TEXT NOT NULL, variant TEXT NOT NULL, deal INTEGER NOT NULL,"
     " moves INTEGER NOT NULL, seconds INTEGER NOT NULL, PRIMARY KEY (game, variant, deal)) WITHOUT ROWID",),
    # 7: a deal's best is its score first, then moves, then time (issue 47): the score of each best;
    # NULL for a best kept before, compared on moves and time only.
    ("ALTER TABLE bests ADD COLUMN score INTEGER",),
    # 8: each variant has its own daily deal (issue 47): the days played per variant (its statistics
    # key, "three-pass/two"). A day played before is kept under the variant "" (not known): it counts in
    # the streaks, which go across variants, and for no variant's menu line.
    (
        "CREATE TABLE daily_deals (day TEXT NOT NULL, variant TEXT NOT NULL, won INTEGER NOT NULL,"
        " PRIMARY KEY (day, variant)) WITHOUT ROWID",
        "INSERT INTO daily_deals (day, variant, won) SELECT day, '', won FROM daily",
        "DROP TABLE daily",
    ),
    # 9: Classic's "cards left" counts all the cards its goal asks to remove, not the pyramid's only
    # (issue 47): its best scores made before are kept apart, never compared with the new ones.
    (
        "UPDATE stats SET old_best_score = best_score, best_score = NULL"
        " WHERE game = 'pyramid' AND variant LIKE 'classic/%'",
    ),
    # 10: the daily deals' calendar (issue 47): a past day's deal played late marks its day, never a
    # streak; the fewest moves of an unaided win (won in par) and the best unaided score (best score
    # reached). A day played before was played on its day; its moves and score are not known.
    (
        "ALTER TABLE daily_deals ADD COLUMN late INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE daily_deals ADD COLUMN moves INTEGER",
        "ALTER TABLE daily_deals ADD COLUMN score INTEGER",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

_STATS_COLUMNS = ("played", "won", "best_score", "current_streak", "best_streak", "assisted_played", "assisted_won",
                  "old_best_score")
_DAMAGE_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def data_directory(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the console keeps its data, from the environment.

    ``$STATE_DIRECTORY`` (set by systemd's ``StateDirectory=``; the first
    entry when it lists several), else ``$PYRAMID_DATA_DIR``, else
    ``$XDG_STATE_HOME/pyramid`` (ignored unless absolute, as the XDG
    specification says), else ``~/.local/state/pyramid``.
    """
    if environ.get("STATE_DIRECTORY"):
        return Path(environ["STATE_DIRECTORY"].split(":")[0])
    if environ.get("PYRAMID_DATA_DIR"):
        return Path(environ["PYRAMID_DATA_DIR"]).expanduser()
    xdg_state = environ.get("XDG_STATE_HOME", "")
    if os.path.isabs(xdg_state):
        return Path(xdg_state) / "pyramid"
    home = environ.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".local" / "state" / "pyramid"


class DamagedDatabaseError(Exception):
    """The database file cannot be trusted; the message says why (used inside this module)."""


class UnusableDatabaseError(Exception):
    """The database path cannot be written safely (it leads to a device...); the message says why."""


class _NewerSchema(Exception):
    """The file is of a schema newer than this program's (used inside this module)."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


class Store:
    """The console's saved data: game in progress, statistics, settings.

    Build one with :meth:`open` (a file) or :meth:`in_memory`. The store is
    the only writer of its file: it remembers the last saved game of each kind
    so that the next save only writes the difference.
    """

    def __init__(
        self,
        connection: sqlite3.Connection,
        location: Path | None,
        notices: Sequence[StoreNotice] = (),
        replayers: Mapping[str, Replayer] | None = None,
        *,
        read_only: bool = False,
        clock: Callable[[], datetime.datetime] = datetime.datetime.now,
    ) -> None:
        self._connection = connection
        #: The database file, or ``None`` when nothing is saved.
        self.location = location
        #: What the player must be told, once: see :meth:`take_notice`.
        self.notices: list[StoreNotice] = list(notices)
        #: Whether the file is only read (a newer schema, a read-only file): every save then returns False.
        self.read_only = read_only
        self._replayers = replayers
        self._clock = clock
        self._saved: dict[str, Progress] = {}
        #: Saved games that cannot be resumed but could not be put aside (a read-only file): never offered.
        self._hidden: set[str] = set()
        self._save_failure: StoreNotice | None = None
        #: Whether the last write failed: a failure is reported once, until a write succeeds again.
        self._failing = read_only

    # -- opening ------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: Path | str | None = None,
        *,
        environ: Mapping[str, str] = os.environ,
        clock: Callable[[], datetime.datetime] = datetime.datetime.now,
        replayers: Mapping[str, Replayer] | None = None,
    ) -> "Store":
        """The store at ``path`` (default: ``pyramid.db`` in :func:`data_directory`).

        Never raises for bad data or an unusable directory: see the module note.
        ``clock`` stamps the names of what is put aside.
        """
        path = Path(path) if path is not None else data_directory(environ) / DATABASE_NAME
        try:
            _make_directory(path.parent)
            if not os.access(path.parent, os.W_OK):
                raise PermissionError(f"no write permission on {str(path.parent)!r}")
            _refuse_special_file(path)
            notices = _set_aside_directories(path, clock())
            connection, notice, read_only = _open_file(path, clock)
        except UnusableDatabaseError as error:
            return cls.in_memory(StoreNotice.of("unusable_file", path=str(path), reason=str(error)), replayers)
        except (OSError, sqlite3.Error, DamagedDatabaseError) as error:
            return cls.in_memory(StoreNotice.of("unusable_directory", path=str(path.parent), reason=str(error)),
                                 replayers)
        store = cls(connection, path, [*notices, *([notice] if notice else [])], replayers,
                    read_only=read_only, clock=clock)
        store._put_aside_unresumable()
        return store

    @classmethod
    def in_memory(
        cls,
        notice: StoreNotice | None = None,
        replayers: Mapping[str, Replayer] | None = None,
    ) -> "Store":
        """A store that works for this run only (tests, or when the disk cannot be used)."""
        connection = _connect(":memory:")
        _migrate(connection)
        return cls(connection, None, [notice] if notice else [], replayers)

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def take_notice(self) -> tuple[StoreNotice, ...]:
        """What the player must be told, once: the next call returns nothing."""
        notices, self.notices = tuple(self.notices), []
        return notices

    def take_save_failure(self) -> StoreNotice | None:
        """A save that failed during play, once, for the game screen; else ``None``.

        One line. A run of failures (a full card fails every move) gives one
        message; after a save succeeds again, the next failure gives another.
        A store that is read-only from the start gives none: its notice said so.
        """
        failure, self._save_failure = self._save_failure, None
        return failure

    # -- the game in progress ---------------------------------------------
    def save_progress(self, progress: Progress) -> bool:
        """Save the game in progress (call it after every completed move, undo or assist); False if not saved.

        Compared with the last save of the same game, only the moves that
        changed are written: usually one new row.
        """
        saved = self._saved.pop(progress.game, None)

        def write(db: sqlite3.Connection) -> None:
            if saved is None or _header(saved) != _header(progress):
                db.execute("DELETE FROM progress_moves WHERE game = ?", (progress.game,))
                db.execute(
                    "INSERT OR REPLACE INTO progress"
                    " (game, preset, redeals, deal, deal_number, started, assists, context)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        progress.game, progress.preset, progress.redeals, progress.deal, progress.deal_number,
                        progress.started.isoformat(), json.dumps(dict(progress.assists), sort_keys=True),
                        json.dumps(dict(progress.context), sort_keys=True),
                    ),
                )
                kept = 0
            else:
                kept = _common_prefix(saved.moves, progress.moves)
                if kept < len(saved.moves):
                    db.execute("DELETE FROM progress_moves WHERE game = ? AND ply >= ?", (progress.game, kept))
                if saved.assists != progress.assists:
                    db.execute(
                        "UPDATE progress SET assists = ? WHERE game = ?",
                        (json.dumps(dict(progress.assists), sort_keys=True), progress.game),
                    )
            db.executemany(
                "INSERT INTO progress_moves (game, ply, move) VALUES (?, ?, ?)",
                ((progress.game, ply, move) for ply, move in enumerate(progress.moves[kept:], start=kept)),
            )

        saved_now = self._write("game", write)
        if saved_now:
            self._saved[progress.game] = progress
            self._hidden.discard(progress.game)
        return saved_now

    def load_progress(self, game: str) -> Progress | None:
        """The saved game of kind ``game``, or ``None``.

        ``None`` too when the saved game cannot be read or no longer replays:
        it is then put aside (:meth:`_put_aside`) and the reason goes to
        :attr:`notice`.
        """
        if game in self._hidden:
            return None
        try:
            header = self._connection.execute(
                "SELECT preset, redeals, deal, deal_number, started, assists, context FROM progress WHERE game = ?", (game,)
            ).fetchone()
            rows = self._connection.execute(
                "SELECT ply, move FROM progress_moves WHERE game = ? ORDER BY ply", (game,)
            ).fetchall()
        except sqlite3.Error as error:
            self._tell(StoreNotice.of("game_unreadable", reason=str(error)))
            return None
        if header is None:
            return None
        try:
            progress = _progress_from_rows(game, header, rows)
            replayer = self._replayers_by_game().get(game)
            if replayer is not None:
                replayer(progress)
        except Exception as error:  # whatever this version's engine makes of an old game, play goes on
            self._put_aside(game, header, rows, error)
            return None
        self._saved[game] = progress
        return progress

    def _put_aside_unresumable(self) -> None:
        """Replay every saved game once, at open: one that does not replay must not be offered by Continue.

        The game rules load here only when there is a saved game, that is when
        Continue would need them anyway.
        """
        try:
            games = [game for (game,) in self._connection.execute("SELECT game FROM progress").fetchall()]
        except sqlite3.Error as error:
            self._tell(StoreNotice.of("game_unreadable", reason=str(error)))
            return
        for game in games:
            self.load_progress(game)

    def _put_aside(self, game: str, header: tuple[Any, ...], rows: list[tuple[Any, ...]], error: Exception) -> None:
        """Move a saved game that cannot be resumed out of the database, into a JSON file next to it.

        Kept, not deleted: another version may resume it. A store that cannot
        write (read-only, in memory) only stops offering it for this run.
        """
        self._hidden.add(game)
        self._saved.pop(game, None)
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        if self.location is None or self.read_only:
            self._tell(StoreNotice.of("unresumable_left" if self.read_only else "unresumable", reason=reason))
            return
        record = {"game": game, "header": dict(zip(_PROGRESS_COLUMNS, header)),
                  "moves": [move for _, move in rows]}
        try:
            kept = _write_aside(self.location, f"unresumable-{game}", self._clock(),
                                json.dumps(record, indent=1, default=str).encode())
        except OSError as failure:
            self._tell(StoreNotice.of("unresumable_not_kept", reason=reason, failure=failure.strerror or ""))
            return
        if self._write("game_end", lambda db: _delete_progress(db, game)):
            self._hidden.discard(game)
        self._tell(StoreNotice.of("unresumable_kept", reason=reason, aside=kept.name))

    def _replayers_by_game(self) -> Mapping[str, Replayer]:
        """The replayers given, or every game's (which loads the game rules: not before a game is needed)."""
        if self._replayers is None:
            from pyramid.saved.progress import REPLAYERS

            self._replayers = REPLAYERS
        return self._replayers

    def has_progress(self, game: str) -> bool:
        """Whether a game of kind ``game`` is saved; cheap (nothing is replayed), for menus."""
        if game in self._hidden:
            return False
        try:
            return self._connection.execute("SELECT 1 FROM progress WHERE game = ?", (game,)).fetchone() is not None
        except sqlite3.Error:
            return False

    def clear_progress(self, game: str) -> bool:
        """Forget the saved game of kind ``game`` (it ended, or the player started another); False if not saved."""
        self._saved.pop(game, None)
        self._hidden.add(game)  # gone for this run even if the delete cannot be written
        return self._write("game_end", lambda db: _delete_progress(db, game))

    # -- statistics -------------------------------------------------------
    def record_result(self, result: GameResult, *, clear_progress: bool = True, saved_game: str | None = None,
                      daily: DailyPlay | None = None, best: DealBest | None = None) -> Stats:
        """Count a finished game and return the new statistics of its (game, variant).

        With ``clear_progress`` the saved game of the same kind is forgotten in
        the same transaction, so a power cut can never leave a game that is
        both counted and still offered by "Continue". ``saved_game`` names that
        kind when it is not the result's own (a network match is saved as a
        ``"pyramids"`` game and counted under its own statistics key). ``daily``: the daily deal this game
        was, counted for its day and variant (and the streaks, unless played late) in the same transaction:
        a won day stays won if it is played again, the fewest moves and the best score stay. ``best``: the score, moves and time of a numbered deal
        won unaided, kept when they better the deal's best (:func:`~pyramid.saved.stats.improvement`).
        """
        from pyramid.saved.stats import improvement

        updated = self.stats(result.game, result.variant).after(result)
        if best is not None and improvement(best, self.best_of(result.game, result.variant, best.deal),
                                            result.higher_is_better) is None:
            best = None  # not better than the deal's best: that one stays
        saved = saved_game or result.game
        if clear_progress:
            self._saved.pop(saved, None)

        def write(db: sqlite3.Connection) -> None:
            _put_stats(db, updated)
            if clear_progress:
                _delete_progress(db, saved)
            if daily is not None:
                unaided_win = result.won and not result.assisted
                db.execute("INSERT INTO daily_deals (day, variant, won, late, moves, score) VALUES (?, ?, ?, ?, ?, ?)"
                           " ON CONFLICT (day, variant) DO UPDATE SET won = max(won, excluded.won),"
                           " late = min(late, excluded.late),"
                           " moves = coalesce(min(moves, excluded.moves), moves, excluded.moves),"
                           " score = coalesce(max(score, excluded.score), score, excluded.score)",
                           (daily.day.isoformat(), result.variant, int(unaided_win), int(daily.late),
                            daily.moves if unaided_win else None,
                            daily.score if not result.assisted and result.higher_is_better else None))
            if best is not None:
                db.execute("INSERT OR REPLACE INTO bests (game, variant, deal, moves, seconds, score)"
                           " VALUES (?, ?, ?, ?, ?, ?)",
                           (result.game, result.variant, best.deal, best.moves, best.seconds, best.score))

        self._write("stats", write)
        return updated

    def uncount(self, before: Stats) -> None:
        """Take back a result counted moments ago: its (game, variant) statistics as they were before it.

        A Pyramid game lost is counted at once (a power cut must not lose the loss), yet "Undo the last
        move" on its end panel plays on: the game is one game, counted once it is over again, assisted.
        """
        self._write("stats", lambda db: _put_stats(db, before))

    def best_of(self, game: str, variant: str, deal: int) -> DealBest | None:
        """The best win of numbered deal ``deal``, unaided, under (game, variant): its moves, time and
        score; ``None`` before its first such win (or when the record cannot be read)."""
        try:
            row = self._connection.execute("SELECT moves, seconds, score FROM bests WHERE game = ? AND variant = ?"
                                           " AND deal = ?", (game, variant, deal)).fetchone()
        except sqlite3.Error as error:
            self._tell(StoreNotice.of("stats_unreadable", reason=str(error)))
            return None
        if row is None or type(row[0]) is not int or type(row[1]) is not int or type(row[2]) not in (int, type(None)):
            return None  # none yet, or a row edited out of shape: no best
        from pyramid.saved.stats import DealBest

        return DealBest(deal, row[0], row[1], row[2])

    def daily_results(self, variant: str | None = None) -> dict[datetime.date, bool]:
        """The days a daily deal was played on its day, and whether it was won unaided: the streaks'
        days (a day played late, from the calendar, is no streak's). Under ``variant`` (a statistics
        key: each variant has its own daily deal), or under any (a day is won when a daily deal of
        that day was won under any variant)."""
        days: dict[datetime.date, bool] = {}
        for (date, _), record in self._daily_rows(variant).items():
            if not record.late:
                days[date] = days.get(date, False) or record.won
        return days

    def daily_records(self, variant: str) -> dict[datetime.date, DailyRecord]:
        """How the daily deal of each day played went under ``variant``, on its day or late: the calendar."""
        return {date: record for (date, _), record in self._daily_rows(variant).items()}

    def _daily_rows(self, variant: str | None) -> dict[tuple[datetime.date, str], DailyRecord]:
        """The daily deals played, under ``variant`` or any; a row edited out of shape is no day."""
        try:
            rows = self._connection.execute("SELECT day, variant, won, late, moves, score FROM daily_deals").fetchall()
        except sqlite3.Error as error:
            self._tell(StoreNotice.of("daily_unreadable", reason=str(error)))
            return {}
        from pyramid.saved.stats import DailyRecord

        found: dict[tuple[datetime.date, str], DailyRecord] = {}
        for day, played_under, won, late, moves, score in rows:
            if variant is not None and played_under != variant:
                continue
            try:
                date = datetime.date.fromisoformat(str(day))
            except ValueError:
                continue
            found[date, str(played_under)] = DailyRecord(
                bool(won), moves if type(moves) is int and moves > 0 else None,
                score if type(score) is int else None, bool(late))
        return found

    def stats(self, game: str, variant: str) -> Stats:
        """The statistics of (game, variant); all zero before the first game."""
        from pyramid.saved.stats import Stats

        try:
            row = self._connection.execute(
                f"SELECT game, variant, {', '.join(_STATS_COLUMNS)} FROM stats WHERE game = ? AND variant = ?",
                (game, variant),
            ).fetchone()
        except sqlite3.Error as error:
            self._tell(StoreNotice.of("stats_unreadable", reason=str(error)))
            row = None
        return (self._stats_from_row(row) if row else None) or Stats(game, variant)

    def all_stats(self) -> list[Stats]:
        """Every (game, variant) played so far, sorted by game then variant."""
        try:
            rows = self._connection.execute(
                f"SELECT game, variant, {', '.join(_STATS_COLUMNS)} FROM stats ORDER BY game, variant"
            ).fetchall()
        except sqlite3.Error as error:
            self._tell(StoreNotice.of("stats_unreadable", reason=str(error)))
            return []
        return [stats for stats in map(self._stats_from_row, rows) if stats is not None]

    def reset_stats(self, game: str | None = None, variant: str | None = None) -> bool:
        """Erase the statistics: all of them, one game's, or one (game, variant)'s; False if not saved."""
        conditions = [(column, value) for column, value in (("game", game), ("variant", variant)) if value is not None]
        where = " AND ".join(f"{column} = ?" for column, _ in conditions) or "1"
        return self._write(
            "stats", lambda db: db.execute(f"DELETE FROM stats WHERE {where}", tuple(v for _, v in conditions))
        )

    # -- settings ---------------------------------------------------------
    def settings(self) -> PlayerSettings:
        """The player's settings: stored values that pass their check, defaults for the rest."""
        try:
            rows = self._connection.execute("SELECT name, value FROM settings").fetchall()
        except sqlite3.Error as error:
            self._tell(StoreNotice.of("settings_unreadable", reason=str(error)))
            rows = []
        stored = {}
        for name, text in rows:
            try:
                stored[name] = json.loads(text)
            except ValueError:
                continue
        return PlayerSettings.from_stored(stored)

    def set_setting(self, name: str, value: Any) -> bool:
        """Store one setting (False if not saved); ``KeyError`` for an unknown name, ``InvalidSettingError`` for a bad value."""
        check_setting(name, value)
        return self._write(
            "settings",
            lambda db: db.execute(
                "INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)", (name, json.dumps(value, sort_keys=True))
            ),
        )

    # -- internals --------------------------------------------------------
    def _stats_from_row(self, row: tuple[Any, ...]) -> Stats | None:
        """The row as :class:`Stats`, or ``None`` (and a notice) when it holds anything but counts."""
        from pyramid.saved.stats import Stats

        game, variant, *values = row
        if not all(type(value) is int for value in values if value is not None):
            self._tell(StoreNotice.of("stats_row_unreadable", game=f"{game}/{variant}"))
            return None
        return Stats(game, variant, **dict(zip(_STATS_COLUMNS, values)))

    def _write(self, what: str, work: Callable[[sqlite3.Connection], object]) -> bool:
        """Run ``work`` as one durable transaction; report a failure (see :meth:`take_save_failure`), never raise.

        ``what`` names what was being saved (``game``, ``game_end``, ``stats``, ``settings``): the
        failure's notice is ``store.not_saved.WHAT``."""
        if self.read_only:
            return False
        db = self._connection
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                work(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            self._saved.clear()  # unknown state on disk: the next save rewrites everything
            if not self._failing:
                reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                self._save_failure = StoreNotice.of(f"not_saved.{what}", reason=reason)
            self._failing = True
            return False
        self._failing = False
        return True

    def _tell(self, notice: StoreNotice) -> None:
        if notice not in self.notices:
            self.notices.append(notice)


#: The header columns of a saved game, in the order :meth:`Store.load_progress` reads them.
_PROGRESS_COLUMNS = ("preset", "redeals", "deal", "deal_number", "started", "assists", "context")


def _header(progress: Progress) -> tuple[object, ...]:
    return (progress.preset, progress.redeals, progress.deal, progress.deal_number, progress.started,
            json.dumps(dict(progress.context), sort_keys=True))


def _common_prefix(old: Sequence[str], new: Sequence[str]) -> int:
    length = 0
    for a, b in zip(old, new):
        if a != b:
            break
        length += 1
    return length


def _delete_progress(db: sqlite3.Connection, game: str) -> None:
    db.execute("DELETE FROM progress_moves WHERE game = ?", (game,))
    db.execute("DELETE FROM progress WHERE game = ?", (game,))


def _progress_from_rows(game: str, header: tuple[Any, ...], rows: list[tuple[int, str]]) -> Progress:
    """A :class:`Progress` from its rows; ``ValueError`` when they do not make one."""
    from pyramid.saved.progress import Progress

    preset, redeals, deal, deal_number, started, assists_text, context_text = header
    if [ply for ply, _ in rows] != list(range(len(rows))):
        raise ValueError("the saved move list has gaps")
    if not (
        isinstance(preset, str) and isinstance(deal, str) and all(isinstance(move, str) for _, move in rows)
        and (redeals is None or type(redeals) is int) and (deal_number is None or type(deal_number) is int)
    ):
        raise ValueError(f"unreadable saved game {header!r}")
    assists = json.loads(assists_text)
    if not isinstance(assists, dict) or not all(
        isinstance(name, str) and type(count) is int for name, count in assists.items()
    ):
        raise ValueError(f"unreadable assists {assists_text!r}")
    context = json.loads(context_text)
    if not isinstance(context, dict):
        raise ValueError(f"unreadable context {context_text!r}")
    return Progress(
        game=game,
        preset=preset,
        redeals=redeals,
        deal=deal,
        moves=tuple(move for _, move in rows),
        assists=assists,
        started=datetime.datetime.fromisoformat(started),
        deal_number=deal_number,
        context=context,
    )




# -- opening a file ---------------------------------------------------------
def _open_file(path: Path, clock: Callable[[], datetime.datetime]) -> tuple[sqlite3.Connection, StoreNotice | None,
                                                                           bool]:
    """A connection to a sound database at ``path``, the notice for the player, and whether it is read-only.

    A damaged file (see :func:`_prepare`) is put aside and replaced by a new
    one holding what could still be read of it. A file of a newer schema, or
    one that cannot be written, is opened read-only. Other ``sqlite3.Error``
    / ``OSError`` mean that no file can be used here (permissions, a full
    disk) and are raised.
    """
    created = not path.exists()
    if not created and not os.access(path, os.W_OK):
        return _read_as_current(path), StoreNotice.of("read_only", path=str(path)), True
    connection = _connect(path)
    notice = None
    try:
        try:
            _prepare(connection)
        except _NewerSchema as newer:
            connection.close()
            return _connect_read_only(path), StoreNotice.of("newer", schema=newer.version, known=SCHEMA_VERSION), True
        except DamagedDatabaseError as damage:
            # Rename before closing: on close SQLite deletes the -wal and -shm files it finds.
            aside = _move_aside(path, clock())
            connection.close()
            created = True
            connection = _connect(path)
            _prepare(connection)
            kept = _salvage(aside, connection)
            notice = StoreNotice.of("damaged", reason=str(damage), aside=aside.name, **kept._asdict())
    except BaseException:
        connection.close()
        raise
    if created:
        _sync_directory(path.parent)  # SQLite syncs the file's data, not its new name in the directory
    return connection, notice, False


def _read_as_current(path: Path) -> sqlite3.Connection:
    """A file this program may not write, checked, and read as this schema: an older one is copied
    into memory and migrated there (the file stays as it is), so a console on a read-only card shows
    what it would show on a writable one, Three passes' old best scores apart included."""
    source = _connect_read_only(path)
    try:
        _check_integrity(source)
        if source.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
            return source
        copy = _connect(":memory:")
        source.backup(copy)
    except BaseException:
        source.close()
        raise
    source.close()
    try:
        _migrate(copy)
    except BaseException:
        copy.close()
        raise
    return copy


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write, whatever is asked of it: the file stays as it is, byte for byte."""
    return _connect(f"{path.absolute().as_uri()}?mode=ro")


class Salvaged(NamedTuple):
    """How much of a damaged file was kept: statistics records, settings, daily deals."""

    stats: int = 0
    settings: int = 0
    days: int = 0


def _salvage(aside: Path, connection: sqlite3.Connection) -> Salvaged:
    """Copy the statistics and settings that still read from the damaged copy ``aside``; count what was kept.

    The copy is opened read-only (immutable when it has no log, so not even a
    ``-shm`` appears next to it) and read row by row: a table whose pages are
    damaged gives the rows before the damage. Every row is checked as a fresh
    read would check it, so damage that reads as data is not kept.
    """
    from pyramid.saved.settings import CHECKS

    has_log = Path(f"{aside}-wal").exists()
    try:
        source = _connect(f"{aside.absolute().as_uri()}?mode=ro{'' if has_log else '&immutable=1'}")
    except sqlite3.Error:
        return Salvaged()
    try:
        settings = [(name, text) for name, text in _readable_rows(source, "SELECT name, value FROM settings")
                    if isinstance(name, str) and name in CHECKS and isinstance(text, str)
                    and _accepted(CHECKS[name].accepts, text)]
        stats = [row for row in _readable_rows(
                     source, f"SELECT game, variant, {', '.join(_STATS_COLUMNS)} FROM stats")
                 if isinstance(row[0], str) and isinstance(row[1], str)
                 and all(type(value) is int and value >= 0 for value in row[2:] if value is not None)]
        played = (_readable_rows(source, "SELECT day, variant, won, late, moves, score FROM daily_deals")
                  or [(*row, 0, None, None) for row in _readable_rows(source, "SELECT day, variant, won FROM daily_deals")]
                  or [(day, "", won, 0, None, None) for day, won in _readable_rows(source, "SELECT day, won FROM daily")])
        days = [(day, variant, won, late, moves, score) for day, variant, won, late, moves, score in played
                if isinstance(day, str) and _is_iso_date(day) and isinstance(variant, str) and won in (0, 1)
                and late in (0, 1) and all(value is None or type(value) is int for value in (moves, score))]
    finally:
        source.close()
    if not settings and not stats and not days:
        return Salvaged()
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.executemany("INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)", settings)
        connection.executemany(
            f"INSERT OR REPLACE INTO stats (game, variant, {', '.join(_STATS_COLUMNS)})"
            f" VALUES (?, ?, {', '.join('?' * len(_STATS_COLUMNS))})", stats)
        connection.executemany("INSERT OR REPLACE INTO daily_deals (day, variant, won, late, moves, score)"
                               " VALUES (?, ?, ?, ?, ?, ?)", days)
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return Salvaged(len(stats), len(settings), len(days))


def _is_iso_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _readable_rows(source: sqlite3.Connection, query: str) -> list[tuple[Any, ...]]:
    """The rows of ``query`` up to the first that cannot be read."""
    rows: list[tuple[Any, ...]] = []
    try:
        for row in source.execute(query):
            rows.append(row)
    except (sqlite3.Error, UnicodeDecodeError):
        pass
    return rows


def _accepted(accepts: Callable[[Any], bool], text: str) -> bool:
    try:
        return accepts(json.loads(text))
    except ValueError:
        return False


def _refuse_special_file(path: Path) -> None:
    """Refuse a database path that leads anywhere but to a regular file or nothing.

    SQLite follows a symbolic link and writes its journal next to where it
    leads: a link to ``/dev/null`` made it create ``/dev/null-journal``. A
    link that leads nowhere would make SQLite create the file it names.
    """
    try:
        link = path.is_symlink()
        mode = path.stat().st_mode if link else path.lstat().st_mode
    except FileNotFoundError:
        if link:
            raise UnusableDatabaseError(f"is not a regular file: a link to {os.readlink(path)!r}, "
                                        "which does not exist") from None
        return
    if stat.S_ISREG(mode) or (stat.S_ISDIR(mode) and not link):
        return  # a directory in its place is damage, put aside by _set_aside_directories
    target = f"a link to {os.readlink(path)!r}" if link else "a special file"
    raise UnusableDatabaseError(f"is not a regular file ({target})")


def _set_aside_directories(path: Path, now: datetime.datetime) -> list[StoreNotice]:
    """Rename a directory found in place of the database or one of its companions; the messages for the player.

    A directory cannot be opened as a file, so it would make every start a
    start with nothing saved. Only that entry moves: a database whose log is
    a directory has no log to lose.
    """
    notices = []
    for suffix in ("", "-wal", "-shm", "-journal"):
        entry = Path(f"{path}{suffix}")
        if entry.is_dir() and not entry.is_symlink():
            aside = _free_name(entry.with_name(f"{entry.name}.damaged-{now:%Y%m%d-%H%M%S}"))
            entry.rename(aside)
            _sync_directory(path.parent)
            notices.append(StoreNotice.of("directory_afresh" if not suffix else "directory", entry=entry.name,
                                          aside=aside.name))
    return notices


def _free_name(wanted: Path) -> Path:
    """``wanted``, or ``wanted-2``, ``-3``... whichever is not taken."""
    candidate, count = wanted, 1
    while candidate.exists() or candidate.is_symlink():
        count += 1
        candidate = wanted.with_name(f"{wanted.name}-{count}")
    return candidate


def _put_stats(db: sqlite3.Connection, stats: Stats) -> None:
    """Write the statistics row of (game, variant)."""
    db.execute(
        f"INSERT OR REPLACE INTO stats (game, variant, {', '.join(_STATS_COLUMNS)})"
        f" VALUES (?, ?, {', '.join('?' * len(_STATS_COLUMNS))})",
        (stats.game, stats.variant, *(getattr(stats, column) for column in _STATS_COLUMNS)),
    )


def _write_aside(database: Path, what: str, now: datetime.datetime, data: bytes) -> Path:
    """Write ``data`` durably to ``<database>.<what>-YYYYmmdd-HHMMSS.json``; return the path."""
    path = _free_name(database.with_name(f"{database.name}.{what}-{now:%Y%m%d-%H%M%S}.json"))
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(descriptor, data)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    _sync_directory(database.parent)
    return path


def _connect(target: Path | str) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit) that reads any bytes as text.

    A damaged file can hold invalid UTF-8, even in the messages of
    ``integrity_check``; decoding with replacement lets the checks and the
    parsers refuse it instead of an exception escaping from the read.
    """
    connection = sqlite3.connect(target, isolation_level=None, timeout=5.0, uri=isinstance(target, str))
    connection.text_factory = lambda data: data.decode("utf-8", "replace")
    return connection


def _prepare(connection: sqlite3.Connection) -> None:
    """Check the file without writing to it, then set the durable modes and migrate.

    Raises :class:`DamagedDatabaseError` when SQLite finds the file corrupt or
    not a database, or when its tables are not exactly those of its version
    (an SQLite file of another program, or one edited by hand), and
    :class:`_NewerSchema` when its schema version is newer than this
    program's (nothing is changed then).
    """
    try:
        _check_integrity(connection)
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise _NewerSchema(version)
        if _schema(connection) != _expected_schema(version):
            if version == 0:
                raise DamagedDatabaseError("it holds the tables of another program")
            raise DamagedDatabaseError(f"its tables do not match schema version {version}")
        _configure(connection)
        _migrate(connection)
    except sqlite3.DatabaseError as error:
        if (error.sqlite_errorcode or 0) & 0xFF in _DAMAGE_CODES:
            raise DamagedDatabaseError(str(error)) from None
        raise
    except UnicodeDecodeError:
        # SQLite's own error message quoted a damaged schema's bytes, which Python cannot decode.
        raise DamagedDatabaseError("its schema is unreadable") from None


def _check_integrity(connection: sqlite3.Connection) -> None:
    """The full check, not ``quick_check``: only it sees rows out of key order, and the file is small."""
    problems = [row[0] for row in connection.execute("PRAGMA integrity_check").fetchall()]
    if problems != ["ok"]:
        raise DamagedDatabaseError(f"integrity check: {'; '.join(problems[:3])}")


def _configure(connection: sqlite3.Connection) -> None:
    """Journal and sync modes for a file that must survive a power cut.

    WAL with ``synchronous=FULL``: a commit appends the changed pages to the
    write-ahead log and fsyncs it before returning, so a committed move is on
    the card when the power goes, and a half-written commit is ignored (its
    checksum does not match) when the log is replayed at the next start.
    SQLite's default WAL setting, ``NORMAL``, skips that fsync and may lose the
    last commits. The rollback journal (``DELETE``) with ``FULL`` is as safe
    but needs several fsyncs and a file creation per commit; WAL needs one
    fsync, which matters for a save after every move on an SD card.
    """
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = FULL")


def _migrate(connection: sqlite3.Connection, target: int = SCHEMA_VERSION) -> None:
    """Apply the missing :data:`MIGRATIONS` steps up to ``target``, each in its own transaction."""
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    for number, step in enumerate(MIGRATIONS[version:target], start=version + 1):
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in step:
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise


def _tables(connection: sqlite3.Connection) -> list[str]:
    rows = connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).fetchall()
    return [name for (name,) in rows]


def _schema(connection: sqlite3.Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Each table's columns as (name, type, not null, primary key position)."""
    return {
        table: [(name, kind, notnull, pk) for _, name, kind, notnull, _, pk in connection.execute(
            f"PRAGMA table_info({table})"
        )]
        for table in _tables(connection)
    }


@lru_cache(maxsize=None)
def _expected_schema(version: int) -> dict[str, list[tuple[Any, ...]]]:
    """The tables of schema ``version``, read back from a database in memory built by the migrations."""
    connection = _connect(":memory:")
    try:
        _migrate(connection, version)
        return _schema(connection)
    finally:
        connection.close()


def _make_directory(directory: Path) -> None:
    """Create ``directory`` and its missing parents, each new name made durable."""
    missing = []
    while not directory.exists():
        missing.append(directory)
        directory = directory.parent
    for new in reversed(missing):
        new.mkdir(mode=0o700)
        _sync_directory(new.parent)


def _sync_directory(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _move_aside(path: Path, now: datetime.datetime) -> Path:
    """Rename a damaged database and its WAL files to ``<name>.damaged-YYYYmmdd-HHMMSS``.

    The companions become ``<new name>-wal`` / ``-shm``, so SQLite opens the
    kept copy together with its log. They move first: a log left behind next
    to a fresh database would be replayed into it.
    """
    base = f"{path.name}.damaged-{now:%Y%m%d-%H%M%S}"
    aside = path.with_name(base)
    count = 1
    while any(Path(f"{aside}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
        count += 1
        aside = path.with_name(f"{base}-{count}")
    for suffix in ("-wal", "-shm", ""):
        companion = Path(f"{path}{suffix}")
        if companion.exists():
            companion.rename(f"{aside}{suffix}")
    _sync_directory(path.parent)
    return aside


# -- checks ------------------------------------------------------------------
def integrity_check(path: Path | str) -> list[str]:
    """What ``PRAGMA integrity_check`` says of the database at ``path`` (``["ok"]`` when sound).

    Opens an existing file only (a missing one is reported, not created); when
    SQLite cannot read the file at all, the error is the single line returned.
    """
    try:
        connection = _connect(f"{Path(path).absolute().as_uri()}?mode=rw")
    except sqlite3.Error as error:
        return [f"cannot open {str(path)!r}: {error}"]
    try:
        return [row[0] for row in connection.execute("PRAGMA integrity_check").fetchall()]
    except (sqlite3.Error, UnicodeDecodeError) as error:
        return [f"cannot check {str(path)!r}: {error}"]
    finally:
        connection.close()
