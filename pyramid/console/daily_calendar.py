"""The daily deals' calendar: a month of daily deals, each day marked as it went, any of the last
twelve months' played again.

Players of Microsoft Solitaire Collection's daily challenges come back to a month page; this is
ours (issue 47). Each variant has its own daily deal, so the page is the variant's the menu is on,
and its marks read that variant's records. A past day's deal is dealt from its date, as today's is
(offline, the same on every console), and counts for its own day: a win marks the day, never a
streak (docs/rules.md, "The daily deal"). Days to come and days over a year ago cannot be chosen.
"""

from __future__ import annotations

import calendar
import datetime
from typing import TYPE_CHECKING, Callable

from pyramid.actions import Action, Kind
from pyramid.console.catalogue import say
from pyramid.console.protocols import Console, Followed
from pyramid.console.screen import MenuScreen, Screen
from pyramid.console.wording import month_name, variant_title
from pyramid.engine.daily import DAYS_BACK  # how far back the calendar goes: the last twelve months
from pyramid.saved.stats import DailyRecord, PyramidVariant
from pyramid.view import CalendarDay, CalendarView, DayMark, Hit, MenuHit, MonthHit, View

if TYPE_CHECKING:
    from pyramid.engine.daily import DailyChallenge

#: The arrows' steps through the days: ◀ ▶ a day, ▲ ▼ a week (a row of the page).
STEPS = {Kind.LEFT: -1, Kind.RIGHT: 1, Kind.UP: -7, Kind.DOWN: 7}


def day_mark(record: DailyRecord | None, challenge: DailyChallenge) -> DayMark:
    """How a playable day went, from its ``record`` (``None``: not played) and its ``challenge``'s
    pars: the best score reached, else won in par, else won, else played."""
    if record is None:
        return "open"
    if challenge.score_par is not None and record.score is not None and record.score >= challenge.score_par:
        return "best"
    if record.won and record.moves is not None and record.moves <= challenge.par:
        return "par"
    return "won" if record.won else "played"


def month_shift(day: datetime.date, months: int) -> datetime.date:
    """The same day number ``months`` months away (the month's last day when it has fewer)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    return day.replace(year=year, month=month + 1, day=min(day.day, calendar.monthrange(year, month + 1)[1]))


class DailyCalendar(Screen):
    """A month page of the daily deals: arrows choose a day (crossing into the next or last month),
    ✓ or a second tap plays it, a tap on ◀ ▶ turns the month; Back and ✱ leave."""

    name = "calendar"

    def __init__(self, session: Console, play: Callable[[Console, datetime.date], None]) -> None:
        """``play`` deals a day's daily deal (the table's entry point, given so this page imports no table)."""
        super().__init__(session)
        self._play = play
        rules = session.rules  # a daily deal is played under the preset's own redeals
        self.preset = rules.name
        self.variant = PyramidVariant(rules.name, rules.redeals).key
        self.selected = session.today()
        self.records = session.store.daily_records(self.variant)

    # -- which days ----------------------------------------------------------
    @property
    def last(self) -> datetime.date:
        """Today: the last day that can be played."""
        return self.session.today()

    @property
    def first(self) -> datetime.date:
        """The first day that can be played."""
        return self.last - datetime.timedelta(days=DAYS_BACK)

    def playable(self, day: datetime.date) -> bool:
        return self.first <= day <= self.last

    def challenge(self, day: datetime.date) -> DailyChallenge:
        from pyramid.engine.daily import daily_challenge  # the lists load with the calendar, not the menu

        return daily_challenge(day, self.preset)

    def _select(self, day: datetime.date) -> None:
        """Select ``day``, brought into the days that can be played."""
        self.selected = min(max(day, self.first), self.last)

    # -- actions ---------------------------------------------------------------
    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind in STEPS:
            self._select(self.selected + datetime.timedelta(days=STEPS[action.kind]))
        elif isinstance(hit, MonthHit):
            self._select(month_shift(self.selected, hit.step))
        elif isinstance(hit, MenuHit):
            month_days = calendar.monthrange(self.selected.year, self.selected.month)[1]
            if 0 <= hit.index < month_days:
                day = self.selected.replace(day=hit.index + 1)
                if day == self.selected:
                    self.play()
                elif self.playable(day):
                    self.selected = day
        elif action.kind is Kind.OK:
            self.play()
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.session.pop()

    def play(self) -> None:
        """Deal the selected day's daily deal (asking first while a game is saved); with a table server,
        first the choice between playing it and its board among friends (issue 50)."""
        if self.session.friends.available:
            self.session.push(DayChoice(self, self.selected))
        else:
            self.deal(self.selected)

    def deal(self, day: datetime.date) -> None:
        """Deal ``day``'s daily deal (asking first while a game is saved)."""
        self._play(self.session, day)

    def friends(self, day: datetime.date) -> None:
        """The board of ``day``'s deal among friends, under the variant the calendar shows."""
        from pyramid.console.friends_board import FriendsBoardScreen  # loaded when first shown

        rules = self.session.rules
        board = Followed(day, PyramidVariant(rules.name, rules.redeals))
        self.session.push(FriendsBoardScreen(self.session, board, day == self.session.today(), self.challenge(day).par))

    def resume(self) -> None:
        """Back from a game: the marks read the records again."""
        self.records = self.session.store.daily_records(self.variant)

    # -- what it shows -----------------------------------------------------------
    def month(self) -> tuple[CalendarDay, ...]:
        """Every day of the selected day's month, marked."""
        month_days = calendar.monthrange(self.selected.year, self.selected.month)[1]
        days = (self.selected.replace(day=number) for number in range(1, month_days + 1))
        return tuple(CalendarDay(day.day, day_mark(self.records.get(day), self.challenge(day))
                                 if self.playable(day) else "closed") for day in days)

    def view(self) -> View:
        shown, days = self.selected, self.month()
        first_column = calendar.monthrange(shown.year, shown.month)[0]
        page = CalendarView(
            say("calendar.title", month=month_name(shown.month), year=shown.year),
            tuple(say("calendar.weekdays").split()), first_column, days, shown.day - 1,
            self.detail(days[shown.day - 1].mark),
            say("calendar.keys", variant=variant_title(self.preset)),
            earlier=(shown.year, shown.month) > (self.first.year, self.first.month),
            later=(shown.year, shown.month) < (self.last.year, self.last.month))
        return View(self.name, calendar=page)

    def detail(self, mark: DayMark) -> str:
        """The selected day in words: its date, then how it went against its pars."""
        day = self.selected
        date = say("calendar.date", day=day.day, month=month_name(day.month))
        if mark == "closed":
            return say("calendar.to_come" if day > self.last else "calendar.too_old", date=date)
        challenge, record = self.challenge(day), self.records.get(day)
        if record is None or mark == "open":
            return say("calendar.open", date=date, par=challenge.par)
        if mark == "best":
            return say("calendar.best", date=date, points=record.score)
        if mark == "par":
            return say("calendar.par", date=date, moves=record.moves)
        if record.won and record.moves is not None:
            return say("calendar.won", date=date, moves=record.moves, par=challenge.par)
        return say("calendar.won_before" if record.won else "calendar.played", date=date, par=challenge.par)


class DayChoice(MenuScreen):
    """A day of the calendar with a table server: play its deal, or see how the friends did."""

    name = "calendar_day"

    def __init__(self, calendar: DailyCalendar, day: datetime.date) -> None:
        super().__init__(calendar.session)
        self.calendar, self.day = calendar, day

    def heading(self) -> str:
        return say("calendar.date", day=self.day.day, month=month_name(self.day.month))

    def items(self) -> list[str]:
        return [say("calendar.play_day"), say("end.friends") if self.day == self.session.today() else say("calendar.friends")]

    def choose(self, index: int) -> None:
        self.session.pop()
        if index == 0:
            self.calendar.deal(self.day)
        else:
            self.calendar.friends(self.day)
