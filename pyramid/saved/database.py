"""The database's life: where the file is, its schema and its migrations, opening it whatever state
it is found in, salvaging what still reads, the integrity check.

:mod:`pyramid.saved.store` holds the player's data (the queries: the game in progress, statistics,
settings, bests, the daily deals); this module holds the file (issue 48: one module did both, in
1,000 lines). A handheld is switched off at any moment, so nothing here ever stops the console and
nothing that can still be read is thrown away: a damaged file is put aside and the store starts
afresh with the statistics, settings and days that could still be read from it; a file of a newer
schema (what a rollback after a migrating update meets) is opened read-only, so the newer version
finds it whole when it is back; a directory where a file should be is put aside like damage; a path
that leads to a device, or a directory that cannot be written, is refused (the store then keeps its
data in memory). Each case gives a :class:`~pyramid.saved.notices.StoreNotice` for the player.

Run ``python -m pyramid.saved check PATH`` to print SQLite's integrity check of a database (the
power-cut tests use it), ``python -m pyramid.saved where`` to print where the console keeps its data.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

from pyramid.durable import make_directories, sync_directory, write_new
from pyramid.saved.notices import StoreNotice

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
    # 11: the daily results shared with friends on a table server (issue 50): the first game of a day's
    # deal under a variant, its published bytes (NULL: its withdrawal), and whether the server has it.
    ("CREATE TABLE daily_shares (day TEXT NOT NULL, variant TEXT NOT NULL, result BLOB, sent INTEGER NOT NULL,"
     " PRIMARY KEY (day, variant)) WITHOUT ROWID",),
    # 12: the best score reachable of a numbered deal under a variant (its statistics key), once the solver
    # found it for a score challenge (issue 51): found once, never searched for again.
    ("CREATE TABLE deal_scores (variant TEXT NOT NULL, deal INTEGER NOT NULL, score INTEGER NOT NULL,"
     " PRIMARY KEY (variant, deal)) WITHOUT ROWID",),
)
SCHEMA_VERSION = len(MIGRATIONS)

STATS_COLUMNS = ("played", "won", "best_score", "current_streak", "best_streak", "assisted_played", "assisted_won",
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


class OpenedDatabase(NamedTuple):
    """A database opened: its connection, what the player must be told of it, and whether it is only read."""

    connection: sqlite3.Connection
    notices: tuple[StoreNotice, ...]
    read_only: bool


def open_database(path: Path, clock: Callable[[], datetime.datetime]) -> OpenedDatabase:
    """The database at ``path``, whatever state it is in (see the module note); ``clock`` stamps the names
    of what is put aside. :class:`UnusableDatabaseError` for a path that leads to a device; ``OSError``,
    ``sqlite3.Error`` or :class:`DamagedDatabaseError` when no file can be used in its directory."""
    make_directories(path.parent)
    if not os.access(path.parent, os.W_OK):
        raise PermissionError(f"no write permission on {str(path.parent)!r}")
    _refuse_special_file(path)
    notices = _set_aside_directories(path, clock())
    connection, notice, read_only = _open_file(path, clock)
    return OpenedDatabase(connection, (*notices, *([notice] if notice else [])), read_only)


def memory_database() -> sqlite3.Connection:
    """A database of the current schema in memory (tests, or when no file can be used)."""
    connection = connect(":memory:")
    migrate(connection)
    return connection


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
    connection = connect(path)
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
            connection = connect(path)
            _prepare(connection)
            kept = _salvage(aside, connection)
            notice = StoreNotice.of("damaged", reason=str(damage), aside=aside.name, **kept._asdict())
    except BaseException:
        connection.close()
        raise
    if created:
        sync_directory(path.parent)  # SQLite syncs the file's data, not its new name in the directory
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
        copy = connect(":memory:")
        source.backup(copy)
    except BaseException:
        source.close()
        raise
    source.close()
    try:
        migrate(copy)
    except BaseException:
        copy.close()
        raise
    return copy


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write, whatever is asked of it: the file stays as it is, byte for byte."""
    return connect(f"{path.absolute().as_uri()}?mode=ro")


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
    has_log = Path(f"{aside}-wal").exists()
    try:
        source = connect(f"{aside.absolute().as_uri()}?mode=ro{'' if has_log else '&immutable=1'}")
    except sqlite3.Error:
        return Salvaged()
    try:
        settings, stats, days = _readable_settings(source), _readable_stats(source), _readable_days(source)
    finally:
        source.close()
    if not settings and not stats and not days:
        return Salvaged()
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.executemany("INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)", settings)
        connection.executemany(
            f"INSERT OR REPLACE INTO stats (game, variant, {', '.join(STATS_COLUMNS)})"
            f" VALUES (?, ?, {', '.join('?' * len(STATS_COLUMNS))})", stats)
        connection.executemany("INSERT OR REPLACE INTO daily_deals (day, variant, won, late, moves, score)"
                               " VALUES (?, ?, ?, ?, ?, ?)", days)
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return Salvaged(len(stats), len(settings), len(days))


def _readable_settings(source: sqlite3.Connection) -> list[tuple[str, str]]:
    """The settings of a damaged copy that read, each one this version accepts."""
    from pyramid.saved.settings import CHECKS

    return [(name, text) for name, text in _readable_rows(source, "SELECT name, value FROM settings")
            if isinstance(name, str) and name in CHECKS and isinstance(text, str) and _accepted(CHECKS[name].accepts, text)]


def _readable_stats(source: sqlite3.Connection) -> list[tuple[Any, ...]]:
    """The statistics rows of a damaged copy that read as counts."""
    rows = _readable_rows(source, f"SELECT game, variant, {', '.join(STATS_COLUMNS)} FROM stats")
    return [row for row in rows if isinstance(row[0], str) and isinstance(row[1], str)
            and all(type(value) is int and value >= 0 for value in row[2:] if value is not None)]


def _readable_days(source: sqlite3.Connection) -> list[tuple[Any, ...]]:
    """The daily deals played of a damaged copy, of any schema since they were kept (the columns a
    copy of an older schema lacks take their defaults), each row as a fresh read would check it."""
    played = (_readable_rows(source, "SELECT day, variant, won, late, moves, score FROM daily_deals")
              or [(*row, 0, None, None) for row in _readable_rows(source, "SELECT day, variant, won FROM daily_deals")]
              or [(day, "", won, 0, None, None) for day, won in _readable_rows(source, "SELECT day, won FROM daily")])
    return [row for row in played if _a_day(*row)]


def _a_day(day: object, variant: object, won: object, late: object, moves: object, score: object) -> bool:
    return (isinstance(day, str) and _is_iso_date(day) and isinstance(variant, str) and won in (0, 1)
            and late in (0, 1) and all(value is None or type(value) is int for value in (moves, score)))


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
            sync_directory(path.parent)
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


def write_aside(database: Path, what: str, now: datetime.datetime, data: bytes) -> Path:
    """Write ``data`` durably to ``<database>.<what>-YYYYmmdd-HHMMSS.json`` (a name not taken); its path."""
    path = _free_name(database.with_name(f"{database.name}.{what}-{now:%Y%m%d-%H%M%S}.json"))
    write_new(path, data)
    return path


def connect(target: Path | str) -> sqlite3.Connection:
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
        migrate(connection)
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


def migrate(connection: sqlite3.Connection, target: int = SCHEMA_VERSION) -> None:
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
    connection = connect(":memory:")
    try:
        migrate(connection, version)
        return _schema(connection)
    finally:
        connection.close()


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
    sync_directory(path.parent)
    return aside


# -- checks ------------------------------------------------------------------
def integrity_check(path: Path | str) -> list[str]:
    """What ``PRAGMA integrity_check`` says of the database at ``path`` (``["ok"]`` when sound).

    Opens an existing file only (a missing one is reported, not created); when
    SQLite cannot read the file at all, the error is the single line returned.
    """
    try:
        connection = connect(f"{Path(path).absolute().as_uri()}?mode=rw")
    except sqlite3.Error as error:
        return [f"cannot open {str(path)!r}: {error}"]
    try:
        return [row[0] for row in connection.execute("PRAGMA integrity_check").fetchall()]
    except (sqlite3.Error, UnicodeDecodeError) as error:
        return [f"cannot check {str(path)!r}: {error}"]
    finally:
        connection.close()
