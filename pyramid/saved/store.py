"""Everything the console keeps between power cycles, in one SQLite file.

The game in progress, the statistics and the settings live in
``pyramid.db`` in the state directory (:func:`data_directory`). A handheld
is switched off at any moment, so:

* every change is one transaction, committed durably before the call returns
  (see :func:`_configure` for the journal and sync modes);
* the game in progress is saved after every move by appending the new move
  rows, so a save costs the same on move 5 as on move 5000;
* nothing here ever stops the console. A damaged file is put aside and the
  store starts afresh; a directory that cannot be written gives a store in
  memory; a write that fails later is dropped. Each case leaves a message in
  :attr:`Store.notice` for the player, shown once.

Run ``python -m pyramid.store check PATH`` to print SQLite's integrity check
of a database (the power-cut tests use it), ``python -m pyramid.store where``
to print where the console keeps its data.

Progress and statistics types load on first use: the console opens the store
and shows its main menu before it needs any game's rules.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from pyramid.saved.settings import PlayerSettings, check_setting

if TYPE_CHECKING:
    from pyramid.saved.progress import Progress, Replayer
    from pyramid.saved.stats import GameResult, Stats

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
)
SCHEMA_VERSION = len(MIGRATIONS)

_STATS_COLUMNS = ("played", "won", "best_score", "current_streak", "best_streak", "assisted_played", "assisted_won")
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
        notice: str | None = None,
        replayers: Mapping[str, Replayer] | None = None,
    ) -> None:
        self._connection = connection
        #: The database file, or ``None`` when nothing is saved.
        self.location = location
        #: A message for the player, shown once: see :meth:`take_notice`.
        self.notice = notice
        self._replayers = replayers
        self._saved: dict[str, Progress] = {}

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
        ``clock`` stamps the name of a damaged file put aside.
        """
        path = Path(path) if path is not None else data_directory(environ) / DATABASE_NAME
        try:
            _make_directory(path.parent)
            if not os.access(path.parent, os.W_OK):
                raise PermissionError(f"no write permission on {str(path.parent)!r}")
            connection, notice = _open_file(path, clock)
            return cls(connection, path, notice, replayers)
        except (OSError, sqlite3.Error, DamagedDatabaseError) as error:
            return cls.in_memory(
                f"The data directory {str(path.parent)!r} cannot be used ({error}): nothing will be saved.",
                replayers,
            )

    @classmethod
    def in_memory(
        cls,
        notice: str | None = None,
        replayers: Mapping[str, Replayer] | None = None,
    ) -> "Store":
        """A store that works for this run only (tests, or when the disk cannot be used)."""
        connection = _connect(":memory:")
        _migrate(connection)
        return cls(connection, None, notice, replayers)

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def take_notice(self) -> str | None:
        """The pending message for the player, once: the next call returns ``None``."""
        notice, self.notice = self.notice, None
        return notice

    # -- the game in progress ---------------------------------------------
    def save_progress(self, progress: Progress) -> None:
        """Save the game in progress (call it after every completed move, undo or assist).

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

        if self._write("the game", write):
            self._saved[progress.game] = progress

    def load_progress(self, game: str) -> Progress | None:
        """The saved game of kind ``game``, or ``None``.

        ``None`` too when the saved game cannot be read or no longer replays
        (the reason goes to :attr:`notice`); the saved rows stay untouched
        until the next game is saved over them.
        """
        try:
            header = self._connection.execute(
                "SELECT preset, redeals, deal, deal_number, started, assists, context FROM progress WHERE game = ?", (game,)
            ).fetchone()
            rows = self._connection.execute(
                "SELECT ply, move FROM progress_moves WHERE game = ? ORDER BY ply", (game,)
            ).fetchall()
        except sqlite3.Error as error:
            self._tell(f"The saved game could not be read ({error}).")
            return None
        if header is None:
            return None
        try:
            progress = _progress_from_rows(game, header, rows)
            replayer = self._replayers_by_game().get(game)
            if replayer is not None:
                replayer(progress)
        except Exception as error:  # whatever this version's engine makes of an old game, play goes on
            self._tell(f"The saved game could not be resumed ({error}).")
            return None
        self._saved[game] = progress
        return progress

    def _replayers_by_game(self) -> Mapping[str, Replayer]:
        """The replayers given, or every game's (which loads the game rules: not before a game is needed)."""
        if self._replayers is None:
            from pyramid.saved.progress import REPLAYERS

            self._replayers = REPLAYERS
        return self._replayers

    def has_progress(self, game: str) -> bool:
        """Whether a game of kind ``game`` is saved; cheap (nothing is replayed), for menus."""
        try:
            return self._connection.execute("SELECT 1 FROM progress WHERE game = ?", (game,)).fetchone() is not None
        except sqlite3.Error:
            return False

    def clear_progress(self, game: str) -> None:
        """Forget the saved game of kind ``game`` (it ended, or the player started another)."""
        self._saved.pop(game, None)
        self._write("the end of the game", lambda db: _delete_progress(db, game))

    # -- statistics -------------------------------------------------------
    def record_result(self, result: GameResult, *, clear_progress: bool = True) -> Stats:
        """Count a finished game and return the new statistics of its (game, variant).

        With ``clear_progress`` the saved game of the same kind is forgotten in
        the same transaction, so a power cut can never leave a game that is
        both counted and still offered by "Continue".
        """
        updated = self.stats(result.game, result.variant).after(result)
        if clear_progress:
            self._saved.pop(result.game, None)

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                f"INSERT OR REPLACE INTO stats (game, variant, {', '.join(_STATS_COLUMNS)})"
                f" VALUES (?, ?, {', '.join('?' * len(_STATS_COLUMNS))})",
                (updated.game, updated.variant, *(getattr(updated, column) for column in _STATS_COLUMNS)),
            )
            if clear_progress:
                _delete_progress(db, result.game)

        self._write("the statistics", write)
        return updated

    def stats(self, game: str, variant: str) -> Stats:
        """The statistics of (game, variant); all zero before the first game."""
        from pyramid.saved.stats import Stats

        try:
            row = self._connection.execute(
                f"SELECT game, variant, {', '.join(_STATS_COLUMNS)} FROM stats WHERE game = ? AND variant = ?",
                (game, variant),
            ).fetchone()
        except sqlite3.Error as error:
            self._tell(f"The statistics could not be read ({error}).")
            row = None
        return (self._stats_from_row(row) if row else None) or Stats(game, variant)

    def all_stats(self) -> list[Stats]:
        """Every (game, variant) played so far, sorted by game then variant."""
        try:
            rows = self._connection.execute(
                f"SELECT game, variant, {', '.join(_STATS_COLUMNS)} FROM stats ORDER BY game, variant"
            ).fetchall()
        except sqlite3.Error as error:
            self._tell(f"The statistics could not be read ({error}).")
            return []
        return [stats for stats in map(self._stats_from_row, rows) if stats is not None]

    def reset_stats(self, game: str | None = None, variant: str | None = None) -> None:
        """Erase the statistics: all of them, one game's, or one (game, variant)'s."""
        conditions = [(column, value) for column, value in (("game", game), ("variant", variant)) if value is not None]
        where = " AND ".join(f"{column} = ?" for column, _ in conditions) or "1"
        self._write(
            "the statistics", lambda db: db.execute(f"DELETE FROM stats WHERE {where}", tuple(v for _, v in conditions))
        )

    # -- settings ---------------------------------------------------------
    def settings(self) -> PlayerSettings:
        """The player's settings: stored values that pass their check, defaults for the rest."""
        try:
            rows = self._connection.execute("SELECT name, value FROM settings").fetchall()
        except sqlite3.Error as error:
            self._tell(f"The settings could not be read ({error}).")
            rows = []
        stored = {}
        for name, text in rows:
            try:
                stored[name] = json.loads(text)
            except ValueError:
                continue
        return PlayerSettings.from_stored(stored)

    def set_setting(self, name: str, value: Any) -> None:
        """Store one setting; ``KeyError`` for an unknown name, ``InvalidSettingError`` for a bad value."""
        check_setting(name, value)
        self._write(
            "the settings",
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
            self._tell(f"The statistics of {game}/{variant} were unreadable and start again from zero.")
            return None
        return Stats(game, variant, **dict(zip(_STATS_COLUMNS, values)))

    def _write(self, what: str, work: Callable[[sqlite3.Connection], object]) -> bool:
        """Run ``work`` as one durable transaction; tell the player, instead of raising, if it fails."""
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
            self._tell(f"Could not save {what} ({error}). Play goes on.")
            return False
        return True

    def _tell(self, message: str) -> None:
        if self.notice is None:
            self.notice = message
        elif message not in self.notice:
            self.notice = f"{self.notice}\n{message}"


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
def _open_file(path: Path, clock: Callable[[], datetime.datetime]) -> tuple[sqlite3.Connection, str | None]:
    """A connection to a sound, current database at ``path``, and the notice for the player.

    A damaged file (see :func:`_prepare`) is put aside and replaced by a new
    one. Other ``sqlite3.Error`` / ``OSError`` mean that no file can be used
    here (permissions, a full disk) and are raised.
    """
    created = not path.exists()
    connection = _connect(path)
    notice = None
    try:
        try:
            _prepare(connection)
        except DamagedDatabaseError as damage:
            # Rename before closing: on close SQLite deletes the -wal and -shm files it finds.
            aside = _move_aside(path, clock())
            connection.close()
            notice = f"The saved data was damaged ({damage}). It was kept as {aside.name} and the console starts afresh."
            created = True
            connection = _connect(path)
            _prepare(connection)
    except BaseException:
        connection.close()
        raise
    if created:
        _sync_directory(path.parent)  # SQLite syncs the file's data, not its new name in the directory
    return connection, notice


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
    not a database, when its schema version is newer than this program's, or
    when its tables are not exactly those of its version (an SQLite file of
    another program, or one edited by hand).
    """
    try:
        _check_integrity(connection)
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise DamagedDatabaseError(
                f"it is in schema version {version}, newer than this program's {SCHEMA_VERSION}"
            )
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
