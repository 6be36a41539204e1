"""Which cards a new Pyramid game deals, and the screen shown while the solver looks for them.

With "Winnable deals only" (or a grade, "Hard deals only") the deal is proven winnable by the
solver first: a fresh random deal proven live, graded live too, else one of the shipped proven
and graded deals. That search takes up to :data:`WINNABLE_SEARCH_SECONDS` (ten times the work on
a Pi Zero 2 as here), so it runs on the session's thinker, beside the main loop: the screen keeps
drawing, says "Looking for a winnable deal" after :data:`~pyramid.console.thinking.THINKING_CUE`
seconds, and Back calls the search off (issue 27). Every other deal is chosen at once.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any, NamedTuple

from pyramid.actions import Action, Kind
from pyramid.console.catalogue import say
from pyramid.console.protocols import Console
from pyramid.console.screen import Screen
from pyramid.console.thinking import THINKING_CUE
from pyramid.engine.cards import Card
from pyramid.engine.deal import MAX_DEAL_NUMBER, numbered_deal
from pyramid.engine.difficulty import Grade
from pyramid.engine.rules import Rules
from pyramid.view import Hit, MenuHit, PanelView, View

#: How long "winnable deals only" may search when a preset has no precomputed list.
WINNABLE_SEARCH_SECONDS = 5.0
#: How long "winnable deals only" first searches random deals live (about 3 wins a second here under
#: RetroHub rules, one every 3 s on a Pi Zero 2: benchmarks/make_winnable_lists.py).
WINNABLE_LIVE_SECONDS = 2.0
#: How long the search for a deal's best score may take: the slowest of the 1,500 reference deals took
#: 3.9 s here under Three passes (issue 51), ten times that on a Pi Zero 2; Back calls it off sooner.
BEST_SCORE_SECONDS = 60.0
#: How long grading a deal proven live may take: 9-17 ms on average here with the compiled core,
#: 185 ms at most over the shipped lists (benchmarks/make_grade_lists.py), ten times that on a Pi Zero 2.
LIVE_GRADE_SECONDS = 2.0


class DealRequest(NamedTuple):
    """Which deal the player asked for: a number, or ``None`` for a random one; ``cards`` to
    play a deal again exactly (one given as cards has no number); ``daily``: the date whose
    daily deal this is, ``par`` its par and ``score_par`` its best score, when known; ``grade``: its
    difficulty, when known."""

    number: int | None = None
    cards: tuple[Card, ...] | None = None
    daily: datetime.date | None = None
    par: int | None = None
    grade: Grade | None = None
    score_par: int | None = None


class Dealt(NamedTuple):
    """The cards dealt, their deal number (``None`` for cards given) and their grade, when known."""

    cards: tuple[Card, ...]
    number: int | None
    grade: Grade | None


def numbered(rules: Rules, number: int, grade: Grade | None) -> Dealt:
    """Deal ``number`` under ``rules``, with ``grade`` or else its shipped grade, if any."""
    if grade is None:
        from pyramid.engine.grade import listed_grade  # the solver loads only when needed

        grade = listed_grade(rules, number)
    return Dealt(numbered_deal(number, rules.deck), number, grade)


def deal_at_once(session: Console, rules: Rules, request: DealRequest) -> Dealt | None:
    """The deal when no search is needed: the cards or number asked for (on the command line
    too), or a random one; ``None`` when "winnable deals only" must search for it."""
    if request.cards is not None:
        return Dealt(request.cards, request.number, request.grade)
    fixed = session.fixed_deal
    if fixed.cards is not None:
        cards, fixed.cards = fixed.cards, None
        return Dealt(cards, None, None)
    number = fixed.number or request.number
    fixed.number = None
    if number is not None:
        return numbered(rules, number, request.grade)
    if session.settings.winnable_only:
        return None
    return numbered(rules, session.rng.randint(1, MAX_DEAL_NUMBER), None)


def find_deal(rules: Rules, wanted: bool | Grade, rng: random.Random, cancelled: Callable[[], bool]) -> Dealt | None:
    """A deal the solver wins under ``rules`` (of grade ``wanted`` when it names one), searched for on
    the thinker; a random deal when none was found in time, ``None`` once ``cancelled``.

    A fresh deal proven live comes first (no repeats in practice), graded live; then, on a console
    too slow for that in time, one of the shipped proven deals. A grade asked for comes from the
    shipped graded deals first (grading live takes a second on a Pi Zero 2).
    """
    from pyramid.engine.grade import live_grade, pick_graded_number  # the solver loads only when needed
    from pyramid.engine.winnable import pick_winnable_number

    number: int | None = None
    if isinstance(wanted, str):
        number = pick_graded_number(rules, wanted, rng, WINNABLE_SEARCH_SECONDS, cancelled=cancelled)
        if number is not None:
            return numbered(rules, number, wanted)
    else:
        number = pick_winnable_number(rules, rng, WINNABLE_LIVE_SECONDS, live=True, cancelled=cancelled)
        if number is not None:
            cards = numbered_deal(number, rules.deck)
            return Dealt(cards, number, live_grade(rules, cards, LIVE_GRADE_SECONDS, cancelled))
    if cancelled():
        return None
    number = pick_winnable_number(rules, rng, WINNABLE_SEARCH_SECONDS, cancelled=cancelled)
    if cancelled():
        return None
    return numbered(rules, number if number is not None else rng.randint(1, MAX_DEAL_NUMBER), None)


class BestScoreFound(NamedTuple):
    """Numbered deal ``number``'s best score reachable, as the solver found it (``None``: not within
    :data:`BEST_SCORE_SECONDS`)."""

    number: int
    score: int | None


def find_best_score(rules: Rules, number: int, cancelled: Callable[[], bool]) -> BestScoreFound:
    """Deal ``number``'s best score under ``rules``, searched for on the thinker (a score challenge on a
    deal no list or saved data knows the best score of)."""
    from pyramid.engine.board import Board  # the solver loads only when needed
    from pyramid.engine.solver.best_score import best_score

    found = best_score(Board(numbered_deal(number, rules.deck), rules), max_seconds=BEST_SCORE_SECONDS,
                       cancelled=cancelled)
    return BestScoreFound(number, found.score if found.verdict == "best" else None)


class Searching(NamedTuple):
    """What a search screen says, and its name in traces: "Looking for a winnable deal", "Finding this
    deal's best score"."""

    name: str
    title: str
    detail: str


#: The search for a winnable deal (or one of a grade).
WINNABLE = Searching("dealing", "dealing.title", "dealing.detail")
#: The search for a deal's best score (a score challenge).
BEST_SCORE = Searching("score_search", "score_search.title", "score_search.detail")


class DealingScreen(Screen):
    """Shown while the thinker searches (a winnable deal, a deal's best score): the screen below, then
    after :data:`THINKING_CUE` a panel saying what it looks for. Back (or OK on Cancel) calls the search
    off and goes back; the answer goes to ``then`` (which deals), this screen closed first; an answer of
    ``None`` (nothing found) closes it alone."""

    name = WINNABLE.name

    def __init__(self, session: Console, then: Callable[[Any], None], searching: Searching = WINNABLE) -> None:
        super().__init__(session)
        self.since = session.clock()
        self.then = then
        self.searching = searching
        self.name = searching.name

    @classmethod
    def search(cls, session: Console, rules: Rules, then: Callable[[Dealt], None]) -> None:
        """Show the screen and ask the thinker for a winnable deal (which may answer at once: the
        scripted mode's does)."""
        wanted = session.settings.winnable_only
        rng = session.rng  # nothing else draws from it while this screen is on top
        cls.ask(session, lambda cancelled: find_deal(rules, wanted, rng, cancelled), then)

    @classmethod
    def ask(cls, session: Console, work: Callable[[Callable[[], bool]], Any], then: Callable[[Any], None],
            searching: Searching = WINNABLE) -> None:
        """Show the screen and ask the thinker ``work``; its answer goes to ``then``."""
        screen = cls(session, then, searching)
        session.push(screen)
        session.thinker.ask(work, screen.found)

    def found(self, answer: object) -> None:
        if self.session.screen is not self:
            return
        self.session.pop()
        if answer is not None:
            self.then(answer)

    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind in (Kind.BACK, Kind.OK, Kind.STAR, Kind.TAP) or isinstance(hit, MenuHit):
            self.session.thinker.cancel()
            self.session.pop()

    def due(self) -> float | None:
        cue = self.since + THINKING_CUE
        return cue if self.session.clock() < cue else None

    def view(self) -> View:
        below = self.view_below()
        if self.session.clock() < self.since + THINKING_CUE:
            return below._replace(screen=self.name)
        return View(self.name, menu=below.menu, table=below.table,
                    panel=PanelView(say(self.searching.title), (say(self.searching.detail),), (say("dealing.cancel"),), 0))

    def menu_state(self) -> dict[str, Any]:
        return {"items": [say("dealing.cancel")], "selected": 0}
