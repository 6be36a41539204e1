"""The player's data, everything the console keeps between power cycles: the game in progress, the
statistics, the bests, the daily deals, the settings, in one SQLite file.

The file itself — where it lives (:func:`~pyramid.saved.database.data_directory`), its schema and
migrations, opening it damaged, newer or read-only, salvage, the integrity check — is
:mod:`pyramid.saved.database`'s; this module is the queries. A handheld is switched off at any
moment, so:

* every change is one transaction, committed durably before the call returns
  (see :func:`pyramid.saved.database._configure` for the journal and sync modes);
* the game in progress is saved after every move by appending the new move
  rows, so a save costs the same on move 5 as on move 5000;
* nothing here ever stops the console: a file that cannot be used gives a store in memory, and a
  saved game that no longer replays is put aside (as JSON next to the database) so Continue is never
  offered for it. Each case leaves a :class:`~pyramid.saved.notices.StoreNotice` in
  :attr:`Store.notices` for the player, told once;
* a write that fails during play (a full or read-only card) is dropped and
  play goes on; the first failure leaves a notice for the game
  screen (:meth:`Store.take_save_failure`), and every save method says
  whether it saved.

Progress and statistics types load on first use: the console opens the store
and shows its main menu before it needs any game's rules.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from pyramid.saved.database import (DATABASE_NAME, STATS_COLUMNS, DamagedDatabaseError, UnusableDatabaseError,
                                    data_directory, memory_database, open_database, write_aside)
from pyramid.saved.notices import StoreNotice
from pyramid.saved.settings import PlayerSettings, check_setting
from pyramid.saved.shares import DailyShare

if TYPE_CHECKING:
    from pyramid.saved.progress import Progress, Replayer
    from pyramid.saved.stats import DailyPlay, DailyRecord, DealBest, GameResult, Stats


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
            opened = open_database(path, clock)
        except UnusableDatabaseError as error:
            return cls.in_memory(StoreNotice.of("unusable_file", path=str(path), reason=str(error)), replayers)
        except (OSError, sqlite3.Error, DamagedDatabaseError) as error:
            return cls.in_memory(StoreNotice.of("unusable_directory", path=str(path.parent), reason=str(error)),
                                 replayers)
        store = cls(opened.connection, path, opened.notices, replayers, read_only=opened.read_only, clock=clock)
        store._put_aside_unresumable()
        return store

    @classmethod
    def in_memory(
        cls,
        notice: StoreNotice | None = None,
        replayers: Mapping[str, Replayer] | None = None,
    ) -> "Store":
        """A store that works for this run only (tests, or when the disk cannot be used)."""
        return cls(memory_database(), None, [notice] if notice else [], replayers)

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
            kept = write_aside(self.location, f"unresumable-{game}", self._clock(),
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
                      daily: DailyPlay | None = None, best: DealBest | None = None,
                      share: DailyShare | None = None) -> Stats:
        """Count a finished game and return the new statistics of its (game, variant).

        With ``clear_progress`` the saved game of the same kind is forgotten in
        the same transaction, so a power cut can never leave a game that is
        both counted and still offered by "Continue". ``saved_game`` names that
        kind when it is not the result's own (a network match is saved as a
        ``"pyramids"`` game and counted under its own statistics key). ``daily``: the daily deal this game
        was, counted for its day and variant (and the streaks, unless played late) in the same transaction:
        a won day stays won if it is played again, the fewest moves and the best score stay. ``best``: the score, moves and time of a numbered deal
        won unaided, kept when they better the deal's best (:func:`~pyramid.saved.stats.improvement`).
        ``share``: this game's result to share with friends, kept until the table server has it unless
        its day and variant have one already (:mod:`pyramid.saved.shares`).
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
            if share is not None:
                db.execute("INSERT INTO daily_shares (day, variant, result, sent) VALUES (?, ?, ?, 0)"
                           " ON CONFLICT (day, variant) DO NOTHING", (share.day.isoformat(), share.variant, share.result))
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

    def deal_score(self, variant: str, deal: int) -> int | None:
        """The best score reachable of numbered deal ``deal`` under ``variant`` (a statistics key), as
        :meth:`keep_deal_score` kept it; ``None`` when not known (or the record cannot be read)."""
        try:
            row = self._connection.execute("SELECT score FROM deal_scores WHERE variant = ? AND deal = ?",
                                           (variant, deal)).fetchone()
        except sqlite3.Error as error:
            self._tell(StoreNotice.of("stats_unreadable", reason=str(error)))
            return None
        return row[0] if row is not None and type(row[0]) is int and row[0] >= 0 else None

    def keep_deal_score(self, variant: str, deal: int, score: int) -> None:
        """Keep the best score reachable of numbered deal ``deal`` under ``variant``, found by the solver
        (a score challenge does not search for it again)."""
        self._write("deal_scores", lambda db: db.execute(
            "INSERT OR REPLACE INTO deal_scores (variant, deal, score) VALUES (?, ?, ?)", (variant, deal, score)))

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

    def pending_shares(self) -> list[DailyShare]:
        """The daily results (and withdrawals) the table server has not taken yet, oldest day first; none
        when they cannot be read (said once)."""
        try:
            rows = self._connection.execute("SELECT day, variant, result FROM daily_shares WHERE sent = 0"
                                            " ORDER BY day, variant").fetchall()
        except sqlite3.Error as error:
            self._tell(StoreNotice.of("daily_unreadable", reason=str(error)))
            return []
        pending = []
        for day, variant, result in rows:
            try:
                date = datetime.date.fromisoformat(str(day))
            except ValueError:
                continue  # a row edited out of shape is no share
            if isinstance(variant, str) and (result is None or isinstance(result, bytes)):
                pending.append(DailyShare(date, variant, result))
        return pending

    def share_taken(self, day: datetime.date, variant: str, shared: bool) -> bool:
        """The table server has this console's result of ``day`` under ``variant`` (``shared``), or its
        withdrawal: not sent again. A result that became a withdrawal meanwhile stays to be sent."""
        return self._write("shares", lambda db: db.execute(
            "UPDATE daily_shares SET sent = 1 WHERE day = ? AND variant = ? AND (result IS NOT NULL) = ?",
            (day.isoformat(), variant, int(shared))))

    def withdraw_shares(self) -> bool:
        """Sharing turned off: every result shared or to share becomes a withdrawal to send."""
        return self._write("shares", lambda db: db.execute(
            "UPDATE daily_shares SET result = NULL, sent = 0 WHERE result IS NOT NULL"))

    def stats(self, game: str, variant: str) -> Stats:
        """The statistics of (game, variant); all zero before the first game."""
        from pyramid.saved.stats import Stats

        try:
            row = self._connection.execute(
                f"SELECT game, variant, {', '.join(STATS_COLUMNS)} FROM stats WHERE game = ? AND variant = ?",
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
                f"SELECT game, variant, {', '.join(STATS_COLUMNS)} FROM stats ORDER BY game, variant"
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
        return Stats(game, variant, **dict(zip(STATS_COLUMNS, values)))

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


def _put_stats(db: sqlite3.Connection, stats: Stats) -> None:
    """Write the statistics row of (game, variant)."""
    db.execute(
        f"INSERT OR REPLACE INTO stats (game, variant, {', '.join(STATS_COLUMNS)})"
        f" VALUES (?, ?, {', '.join('?' * len(STATS_COLUMNS))})",
        (stats.game, stats.variant, *(getattr(stats, column) for column in STATS_COLUMNS)),
    )
