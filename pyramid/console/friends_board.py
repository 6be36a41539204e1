"""The board of a day's deal among friends: each account's result, ranked, any of them watched (issue 50).

The results come from the table server proven by the network layer (each line replayed on the day's
deal to exactly its claim): this screen only ranks and words them. The ranking is docs/rules.md's
("The day's deal among friends"): won first, then the better score (more points, or fewer cards
left), then fewer moves, then less time. A line a result; the player's own is selected when the board
opens, so it is on screen however long the board; ✓ watches the selected result's line move by move
(as "Watch the solution"); ▶ shows the week (the seven days to the board's: each account's days won
and points, ranked by days won, then points, then days played; ◀ or Back come back); Back leaves, and
the board is no longer followed.

A big board is ranked again at most every :data:`RANK_EVERY` seconds while results pour in: on a Pi
Zero 2 a thousand results' proofs come some 8 ms apart and ranking them takes some 20 ms, which at
each frame would keep the main loop busy for the seconds the board fills. A small board (under
:data:`RANKED_AT_ONCE` results) is ranked as each result comes.
"""

from __future__ import annotations

import datetime
import functools
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar

from pyramid.console.catalogue import current_language, say, say_count
from pyramid.console.protocols import Console, Followed
from pyramid.console.screen import MenuScreen
from pyramid.console.wording import clock_time, month_name
from pyramid.engine.rules import PRESETS

if TYPE_CHECKING:
    from pyramid.net.daily_result import DailyResult, ProvenResult


#: Seconds between two rankings of a big board while its results come.
RANK_EVERY = 0.25
#: Results a board ranks at once as each comes (benchmarks/bench_daily_board.py: 0.2 ms here, 2 ms on a
#: Pi Zero 2); from this many on, at most every :data:`RANK_EVERY` seconds.
RANKED_AT_ONCE = 200


class Standing(NamedTuple):
    """One result on the board: its rank (equal results share one), its account, and whether it is this console's."""

    rank: int
    account: str
    result: DailyResult
    mine: bool


def standings(entries: Mapping[str, ProvenResult], points: bool, mine: str | None,
              before: Iterable[str] = ()) -> list[Standing]:
    """``entries`` ranked: won, then the score (higher when ``points``, else lower), then moves, then time;
    results equal in all four share a rank, listed by account. ``before``: the accounts as last ranked,
    taken in that order first (a board ranked again as its results come is then nearly in order, which
    the sort goes through in a tenth of the time: a thousand results, 0.07 ms instead of 0.5 here)."""
    sign = -1 if points else 1
    ordered = {account: entries[account] for account in before if account in entries}
    ordered.update(entries)  # the accounts ranked before keep their places; the new ones come last
    keyed = sorted(((not proven.result.won, sign * proven.result.score, proven.result.moves, proven.result.seconds),
                    proven.account, proven) for proven in ordered.values())
    board: list[Standing] = []
    rank, previous = 0, None
    for place, (key, account, proven) in enumerate(keyed, start=1):
        rank, previous = (rank if key == previous else place), key
        board.append(Standing(rank, account, proven.result, account == mine))
    return board


class WeekStanding(NamedTuple):
    """One account over a week of daily deals: its name (its latest), days played and won, points summed."""

    rank: int
    account: str
    name: str
    played: int
    won: int
    score: int
    mine: bool


def week_standings(days: Sequence[Mapping[str, ProvenResult]], points: bool, mine: str | None) -> list[WeekStanding]:
    """Each account of ``days`` (latest first) ranked: days won, then the score summed (higher when
    ``points``, else lower), then days played; equal ones share a rank, listed by account."""
    totals: dict[str, WeekStanding] = {}
    for entries in days:
        for account, proven in entries.items():
            result = proven.result
            seen = totals.get(account) or WeekStanding(0, account, result.name, 0, 0, 0, account == mine)
            totals[account] = seen._replace(played=seen.played + 1, won=seen.won + result.won,
                                            score=seen.score + result.score)

    def order(standing: WeekStanding) -> tuple[int, int, int]:
        return (-standing.won, -standing.score if points else standing.score, -standing.played)

    ranked = sorted(totals.values(), key=lambda standing: (order(standing), standing.account))
    board: list[WeekStanding] = []
    for place, standing in enumerate(ranked, start=1):
        rank = board[-1].rank if board and order(board[-1]) == order(standing) else place
        board.append(standing._replace(rank=rank))
    return board


def shown_names(names: Mapping[str, str]) -> dict[str, str]:
    """Each account's name as a board shows it (``names``: account → the name its results carry). The
    name is the player's word, the account the server's: a name another account on the board also
    shows (case and accents aside) has its account beside it, so that no one reads as somebody else,
    and a name that draws nothing (combining marks alone, U+034F) is shown as its account."""
    seen = {account: _as_seen(name) for account, name in names.items()}
    counts = Counter(seen.values())
    return {account: (account if not seen[account] else name if counts[seen[account]] == 1
                      else say("friends.name_as", name=name, account=account)) for account, name in names.items()}


@functools.lru_cache(maxsize=4096)
def _as_seen(name: str) -> str:
    """``name`` as a reader tells it from another: case and combining marks aside (kept for the names of
    a board, which is ranked again as each result comes: bench_daily_board.py measured it)."""
    return "".join(char for char in name.casefold() if not unicodedata.category(char).startswith("M")).strip()


#: What a ranking ranks (a day's results, a week's accounts).
T = TypeVar("T")


class Ranking(NamedTuple, Generic[T]):
    """A board's standings and their lines, as a screen shows them."""

    standings: list[T]
    lines: list[str]


class Remade(Generic[T]):
    """A screen's ranking of the friends' entries, made again only when they or the language changed;
    a big one (:data:`RANKED_AT_ONCE` lines) at most every :data:`RANK_EVERY` seconds while news comes
    (:meth:`due` says when the screen should ask again)."""

    def __init__(self, session: Console, make: Callable[[bool], Ranking[T]]) -> None:
        #: ``make(same_language)``: the ranking now (``same_language``: what was worded before still reads).
        self.session, self.make = session, make
        self._made: tuple[tuple[int, str], Ranking[T]] | None = None  # by the entries' version and the language
        self._at = 0.0  # when (the session's clock)

    def get(self) -> Ranking[T]:
        made_for, made = (self.session.friends.version, current_language()), self._made
        if made is not None and (made[0] == made_for or self._waits(made)):
            return made[1]
        self._at = self.session.clock()
        self._made = (made_for, self.make(made is not None and made[0][1] == made_for[1]))
        return self._made[1]

    def _waits(self, made: tuple[tuple[int, str], Ranking[T]]) -> bool:
        """A big board filling up is made again only when :meth:`due` says (a new language at once)."""
        return (made[0][1] == current_language() and len(made[1].lines) >= RANKED_AT_ONCE
                and self.session.clock() < self._at + RANK_EVERY)

    def due(self) -> float | None:
        """When a ranking that has had news since is made again (the view after the tick does it)."""
        made = self._made
        return None if made is None or made[0][0] == self.session.friends.version else self._at + RANK_EVERY


class FriendsBoardScreen(MenuScreen):
    """The results of one day's deal under one variant among friends (see the module's docstring)."""

    name = "friends_board"

    def __init__(self, session: Console, board: Followed, today: bool, par: int | None) -> None:
        self.board, self.today, self.par = board, today, par
        session.friends.follow([board])
        super().__init__(session)
        self._placed = False  # the player's own line selected once, when it first comes
        self._ranking = Remade(session, self._rank)
        #: By account: its result (the same object), mine, its shown name, and the words made of them.
        self._words: dict[str, tuple[DailyResult, bool, str, str]] = {}

    def ranked(self) -> list[Standing]:
        return self._ranking.get().standings

    def _rank(self, same_language: bool) -> Ranking[Standing]:
        """The standings and their lines, each result worded once while it stays (a board filling up
        with a thousand results is ranked again as they come, but only the new ones are worded: measured
        in benchmarks/bench_daily_board.py)."""
        friends = self.session.friends
        points = PRESETS[self.board.variant.preset].scoring != "cards_left"
        ranked = standings(friends.entries(self.board), points, friends.account, self._words)
        kept = self._words if same_language else {}
        names = shown_names({standing.account: standing.result.name for standing in ranked})
        self._words, lines = {}, []
        for standing in ranked:
            known, name = kept.get(standing.account), names[standing.account]
            same = known is not None and known[0] is standing.result and known[1:3] == (standing.mine, name)
            words = known[3] if known is not None and same else self.line(standing, name)
            self._words[standing.account] = (standing.result, standing.mine, name, words)
            lines.append(say("friends.ranked", rank=standing.rank, line=words))
        return Ranking(ranked, lines)

    def heading(self) -> str:
        day = self.board.day
        return say("friends.today") if self.today else say("friends.day", date=say("calendar.date", day=day.day,
                                                                                   month=month_name(day.month)))

    def items(self) -> list[str]:
        ranked, lines = self._ranking.get()
        if not self._placed:
            own = next((index for index, standing in enumerate(ranked) if standing.mine), None)
            if own is not None:
                self.selected, self._placed = own, True
        return lines or [say("friends.none")]

    def line(self, standing: Standing, name: str) -> str:
        """A result in words under ``name`` (:func:`shown_names`), without its rank (which moves as others come)."""
        result = standing.result
        if PRESETS[result.variant.preset].scoring != "cards_left":
            outcome = say("friends.points", points=result.score)
        elif result.won:
            outcome = say_count("friends.moves", result.moves)
        else:
            outcome = say_count("friends.cards_left", result.score)
        marks = " ".join(say(f"friends.{mark}") for mark, shown in (
            ("won", result.won), ("par", result.won and self.par is not None and result.moves <= self.par),
            ("aided", result.assisted), ("you", standing.mine)) if shown)
        line = say("friends.line", name=name, outcome=outcome, time=clock_time(result.seconds))
        return say("friends.marked", line=line, marks=marks) if marks else line

    def footer(self) -> str:
        return say("friends.footer") if self.ranked() else say("friends.waiting")

    def due(self) -> float | None:
        return self._ranking.due()

    def sideways(self, direction: int) -> None:
        if direction > 0:
            self.session.push(FriendsWeekScreen(self.session, self.board))

    def resume(self) -> None:
        """Back from the week or a game watched: this board is the one followed again."""
        self.session.friends.follow([self.board])
        super().resume()

    def choose(self, index: int) -> None:
        ranked = self.ranked()
        if index >= len(ranked):
            return
        from pyramid.console.replay import ReplayScreen  # loaded when first watched
        from pyramid.console.table import Table
        from pyramid.engine.daily import daily_board

        result = ranked[index].result
        rules = PRESETS[result.variant.preset].with_redeals(result.variant.redeals)
        played, moves = daily_board(result.day, rules), []
        for text in result.line:  # proven already: every move replays
            moves.append(played.parse_move(text))
            played.push(moves[-1])
        self.session.push(ReplayScreen(self.session, Table(daily_board(result.day, rules)), moves,
                                       say("friends.watching", name=result.name)))

    def leave(self) -> None:
        self.session.friends.follow([])
        self.session.pop()


class FriendsWeekScreen(MenuScreen):
    """The seven days to a board's among friends: each account's days won and points (see the module's
    docstring); ◀ or Back return to the day's board."""

    name = "friends_week"
    DAYS = 7

    def __init__(self, session: Console, last: Followed) -> None:
        self.boards = [Followed(last.day - datetime.timedelta(days=back), last.variant) for back in range(self.DAYS)]
        session.friends.follow(self.boards)
        super().__init__(session)
        self._ranking = Remade(session, self._rank)

    def heading(self) -> str:
        return say("friends.week")

    def _rank(self, same_language: bool) -> Ranking[WeekStanding]:
        friends = self.session.friends
        points = PRESETS[self.boards[0].variant.preset].scoring != "cards_left"
        ranked = week_standings([friends.entries(board) for board in self.boards], points, friends.account)
        names = shown_names({standing.account: standing.name for standing in ranked})
        return Ranking(ranked, [self.line(standing, names[standing.account], points) for standing in ranked])

    def items(self) -> list[str]:
        return self._ranking.get().lines or [say("friends.none")]

    def due(self) -> float | None:
        return self._ranking.due()

    @staticmethod
    def line(standing: WeekStanding, name: str, points: bool) -> str:
        score = say("friends.points", points=standing.score) if points else say_count("friends.cards_left",
                                                                                     standing.score)
        line = say("friends.week_line", rank=standing.rank, name=name,
                   won=say_count("friends.days_won", standing.won, played=standing.played), score=score)
        return say("friends.marked", line=line, marks=say("friends.you")) if standing.mine else line

    def footer(self) -> str:
        return say("friends.week_footer")

    def choose(self, index: int) -> None:
        """A line is an account's week: nothing to open."""

    def sideways(self, direction: int) -> None:
        if direction < 0:
            self.session.pop()
