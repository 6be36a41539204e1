"""The Pyramid table as a screen, the redeal question and the assists panel, and the ways into them.

The game itself — which deal, the moves saved, the result counted, the
solver's questions — is a :class:`~pyramid.console.game_flow.PyramidRun`
(``game_flow.py``), as a duel is a :class:`~pyramid.console.duel.flow.DuelRun`;
the screens here show it and take the player's presses. The entry points
(:func:`new_game`, :func:`start_pyramid`, :func:`continue_game` …) open the
screens, beside them, so the menus call into this module and nothing here
calls back into the menus.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from pyramid.actions import ARROWS, Action, Kind
from pyramid.console.catalogue import letters_for, say, say_count
from pyramid.console.dealing import (BEST_SCORE, BestScoreFound, DealingScreen, DealRequest, Dealt, deal_at_once,
                                     find_best_score)
from pyramid.console.game_flow import (GAME, PyramidRun, challenge_request, daily_of, daily_request, known_best_score,
                                       new_run, saved_run, variant_of)
from pyramid.console.help_text import pyramid_help
from pyramid.console.protocols import Console, Followed
from pyramid.console.screen import HelpScreen, MenuScreen, NoticeScreen, Screen, choose_line
from pyramid.console.table import Table
from pyramid.console.thinking import THINKING_CUE
from pyramid.console.widgets import ConfirmScreen
from pyramid.console.wording import card_name, clock_time, describe_move, month_name, variant_title
from pyramid.engine.board import Board, Move
from pyramid.engine.errors import ReplayError
from pyramid.engine.rules import MSC_REMOVAL_POINTS, REDEAL_CHOICES, Rules
from pyramid.saved.stats import PyramidVariant, daily_streaks
from pyramid.view import Hit, PanelView, Target, View

if TYPE_CHECKING:
    from pyramid.console.game_flow import HintAnswer
    from pyramid.saved.progress import Progress

#: The end panel's lines, as catalogue keys.
PLAY_AGAIN, RETRY, UNDO_LAST, WATCH, TO_MENU, FRIENDS, CHALLENGE = (
    "end.play_again", "end.retry", "end.undo_last", "end.watch", "end.to_menu", "end.friends", "end.challenge")


# -- the ways into a game ------------------------------------------------------
def continue_game(session: Console) -> None:
    """Resume the saved Pyramid game at its last completed move."""
    try:
        run = saved_run(session)
    except ReplayError as error:
        session.push(NoticeScreen(session, say("game.cannot_resume"), str(error)))
        return
    if run is not None:
        session.push(GameScreen(session, run))


def new_game(session: Console, request: DealRequest = DealRequest()) -> None:
    """A new deal from the menus; with a game in progress, asks first (it would count as lost),
    so a game is never lost by one press."""
    _replacing_the_saved_game(session, lambda: deal_new_game(session, request))


def _replacing_the_saved_game(session: Console, deal: Callable[[], None], question: str = "game.new_question",
                              yes: str = "menu.new_game") -> None:
    """``deal``, asked first while a game is saved (the new deal would count it as lost), naming it."""
    saved = session.store.load_progress(GAME) if session.store.has_progress(GAME) else None
    if saved is not None:
        detail = say("game.new_detail", game=saved_game_name(saved), moves=say_count("game.moves", len(saved.moves)))
        session.push(ConfirmScreen(session, say(question), say(yes), deal, (detail,)))
    else:
        deal()


def saved_game_name(progress: Progress) -> str:
    """The saved game as its title says it: "Daily · 3 December", "Pyramid · deal 7", "Classic"."""
    day = daily_of(progress)
    if day is not None:
        return say("game.daily_title", day=day.day, month=month_name(day.month))
    name = variant_title(progress.preset)
    number = progress.deal_number
    return say("game.numbered_title", variant=name, number=number) if number else name


def daily_game(session: Console, day: datetime.date | None = None) -> None:
    """The daily challenge of ``day`` (default today; an earlier day from the calendar): the same
    winnable deal for everyone on that date, with its par."""
    request = daily_request(session, day)
    if request is None:
        _no_daily_deal(session)
        return
    new_game(session, request)


def _no_daily_deal(session: Console) -> None:
    """The notice for a variant that ships no daily deal (from the menu's line, or its calendar)."""
    session.push(NoticeScreen(session, say("game.no_daily_title"),
                              say("game.no_daily", variant=variant_title(session.rules.name))))


def daily_calendar(session: Console) -> None:
    """The month page of the variant's daily deals (a notice when the variant has none)."""
    from pyramid.engine.daily import challenges

    if not challenges(session.rules.name):
        _no_daily_deal(session)
        return
    from pyramid.console.daily_calendar import DailyCalendar  # loaded when first opened

    session.push(DailyCalendar(session, daily_game))


def score_challenge(session: Console, replace: Screen | None = None) -> None:
    """A score challenge, to be reached under the preset's own redeals; the end panel says how close
    the player came. ``replace``: the finished game's screen, when "Play again" asks for the next."""
    request = challenge_request(session)
    if request is None:
        session.push(NoticeScreen(session, say("game.no_challenge_title"),
                                  say("game.no_challenge", variant=variant_title(session.rules.name))))
        return
    challenge_deal(session, session.rules.redeals, request, replace)


def challenge_deal(session: Console, redeals: int | None, request: DealRequest, replace: Screen | None) -> None:
    """Deal ``request`` (a numbered deal) as a score challenge with ``redeals``: at once when its best
    score is known, else once the solver found it, beside the main loop ("Finding this deal's best
    score", Back calls it off); the best score found is kept, never searched for again."""
    rules = session.rules.with_redeals(redeals)

    def challenge(score_par: int) -> None:
        found = request._replace(score_par=score_par)
        _replacing_the_saved_game(session, lambda: start_pyramid(session, redeals, found, replace))

    if request.score_par is not None:
        challenge(request.score_par)
        return
    number = request.number
    assert number is not None, "a challenge's deal is a numbered one"

    def found(best: BestScoreFound) -> None:
        if not best.score:
            session.push(NoticeScreen(session, say("game.no_best_score_title"), say("game.no_best_score")))
            return
        session.store.keep_deal_score(PyramidVariant(rules.name, rules.redeals).key, best.number, best.score)
        session.show_store_notice()
        challenge(best.score)

    DealingScreen.ask(session, lambda cancelled: find_best_score(rules, number, cancelled), found, BEST_SCORE)


def deal_new_game(session: Console, request: DealRequest = DealRequest()) -> None:
    """Ask "Redeal the stock?" when the rules say so, else deal at once with the preset's redeals.

    The daily deal never asks: its par is for the preset's own redeals, the same for everyone."""
    if session.rules.asks_redeals and request.daily is None:
        session.push(RedealChoice(session, request))
    else:
        start_pyramid(session, session.rules.redeals, request)


def start_pyramid(session: Console, redeals: int | None, request: DealRequest = DealRequest(),
                  replace: Screen | None = None) -> None:
    """Deal a new game with ``redeals`` redeals (``None`` = unlimited); it replaces any saved one.
    A deal that must be proven winnable first is searched for beside the main loop."""
    rules = session.rules.with_redeals(redeals)
    dealt = deal_at_once(session, rules, request)
    if dealt is None:
        DealingScreen.search(session, rules, lambda found: _deal(session, rules, request, found, replace))
    else:
        _deal(session, rules, request, dealt, replace)


def _deal(session: Console, rules: Rules, request: DealRequest, dealt: Dealt, replace: Screen | None) -> None:
    run = new_run(session, rules, request, dealt)
    if replace is not None and session.screen is replace:
        session.pop()
    while isinstance(session.screen, GameScreen):  # the game this one replaces (a new deal from its pause)
        session.pop()
    screen = GameScreen(session, run)
    variant = variant_of(run.board).key
    played = session.store.daily_results(variant).get(request.daily) if request.daily is not None else None
    if played is not None:  # this variant's daily deal again: it says so, and how it went
        best = session.store.best_of(GAME, variant, dealt.number) if dealt.number else None
        screen.message = (say("game.daily_again_best", moves=best.moves) if best is not None
                          else say("game.daily_again_won" if played else "game.daily_again"))
    session.push(screen)
    session.show_store_notice()


class RedealChoice(MenuScreen):
    """ "Redeal the stock?" — asked before a deal under rules that ask it (RetroHub; docs/rules.md)."""

    name = "redeal_choice"
    title_key = "redeal.title"
    #: (catalogue key, redeal choice) of each line.
    CHOICES = (("redeal.none", "none"), ("redeal.one", "one"), ("redeal.unlimited", "unlimited"))

    def __init__(self, session: Console, deal: DealRequest) -> None:
        super().__init__(session)
        self.deal = deal
        default = session.settings.redeal_default
        words = [word for _, word in self.CHOICES]
        if default in words:
            self.selected = words.index(default)

    def items(self) -> list[str]:
        return [say(label) for label, _ in self.CHOICES]

    def choose(self, index: int) -> None:
        start_pyramid(self.session, REDEAL_CHOICES[self.CHOICES[index][1]], self.deal, replace=self)


class GameScreen(Screen):
    """The felt: cursor moves, picks and draws; an end panel when the deal is over.

    ``undo`` and ``hint`` (a button of their own, a long press of Back) act at
    once, as often as pressed; ``help`` opens the panel with both.
    """

    name = "game"

    def __init__(self, session: Console, run: PyramidRun) -> None:
        super().__init__(session)
        self.run = run
        self.table = Table(run.board)
        self.message = ""
        self.hint: tuple[Target, ...] = ()
        #: The hints shown in a position (the moves played to it): H again shows the next one.
        self.hints_shown: tuple[tuple[Move, ...], tuple[Move, ...]] = ((), ())
        #: The end panel's line highlighted, by its catalogue key: it stays on its line when "Watch the
        #: solution" comes in once the deal is judged (see :attr:`end_selected`).
        self.end_key = TO_MENU
        #: The deal's best score as the lists or the saved data know it, once asked (the end panel's
        #: "Go for its best score" is drawn at each frame; the answer changes only by a search, which
        #: leaves this screen): a one-item tuple, empty until asked.
        self._known_best: tuple[int | None, ...] = ()

    @property
    def board(self) -> Board:
        return self.run.board

    @property
    def over(self) -> bool:
        return self.run.over

    # -- actions ------------------------------------------------------------
    def handle(self, action: Action, hit: Hit) -> None:
        if self.over:
            self._handle_end(action, hit)
            return
        hinted = self.hint
        self.message, self.hint = "", ()
        if self.run.thinking_since is not None and action.kind not in ARROWS and action.kind is not Kind.HINT:
            self.run.stop_hint()  # Back, a pick or an undo: the hint asked for is no longer wanted
            if action.kind is Kind.BACK:
                return  # Back calls the search off, and does nothing more
        if action.kind in ARROWS:
            self.table.move_cursor(action.kind)
        elif action.kind is Kind.OK and hinted and self.table.cursor in hinted:
            self._play_hint(hinted)
        elif action.kind is Kind.OK and self.table.cursor is not None:
            self._pick(self.table.cursor)
        elif action.kind is Kind.TAP and isinstance(hit, (int, str)):  # a card, the stock, the waste or the joker
            self._pick(hit)
        elif action.kind is Kind.BACK and self.table.cancel():
            pass
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.session.pop()
        elif action.kind is Kind.UNDO:
            self.undo()
        elif action.kind is Kind.HINT:
            self.give_hint()

    def on_help(self) -> None:
        if self.over:
            super().on_help()
        else:
            self.run.pause()  # a paused game's clock stops
            self.session.push(AssistPanel(self.session, self))

    def resume(self) -> None:
        self.run.go_on()

    def _pick(self, target: Target) -> None:
        """Pick ``target``. What the cards do not show is cued: a pair that does not make the
        target is told ("9♦ + 3♠ make 12, not 13") and shaken, a removal's points rise, the end
        of the deal is a win or a loss."""
        score = self.board.score
        move = self.table.pick(target)
        self._played(move)
        refused = self.table.refused
        if move is None and refused is not None:
            letters = letters_for(self.session.settings.card_letters)
            first, second = refused
            self.message = say("game.wrong_pair", first=card_name(first, letters), second=card_name(second, letters),
                               total=first.rank + second.rank, target=self.board.rules.target)
            places = tuple(place for place in map(self.table.target_of, refused) if place is not None)
            self.session.cue("wrong", targets=places)
        elif move is not None and self.over:
            self.session.cue("win" if self.board.status() == "cleared" else "lose")
        elif move is not None and move.kind == "remove":
            gained = max(0, self.board.score - score)
            # Under Microsoft's scoring a removal is 25 points, and a row it empties its bonus on top:
            # each shows where it is won, as Microsoft shows them ("+25", "+150 row"; issue 47).
            bonus = gained - MSC_REMOVAL_POINTS if self.board.rules.scoring == "msc" else 0
            if bonus > 0:
                self.session.cue("pair", points=MSC_REMOVAL_POINTS, bonus=say("feedback.row_bonus", points=bonus))
            else:
                self.session.cue("pair", points=gained)

    def _play_hint(self, targets: tuple[Target, ...]) -> None:
        """✓ on a card of the hint shown plays the hint's whole move: both cards of its pair (the stock
        picked last, as a first pick there turns it), the king, the turn (issue 47: ✓ chose the first
        card only, and the player went looking for the second)."""
        for target in sorted(targets, key=lambda target: target == "stock"):
            self._pick(target)

    def _played(self, move: Move | None) -> None:
        if move is not None:
            self.run.played(move)

    @property
    def end_selected(self) -> int:
        """The end panel's highlighted line, by number (the first when its line has gone)."""
        items = self.end_items()
        return items.index(self.end_key) if self.end_key in items else 0

    @end_selected.setter
    def end_selected(self, index: int) -> None:
        self.end_key = self.end_items()[index]

    # -- assists ------------------------------------------------------------
    def give_hint(self) -> None:
        """Ask for a hint: searched for on the session's thinker, so the screen keeps drawing (and says
        "Thinking…" after :data:`THINKING_CUE` seconds); Back calls it off. Shown by :meth:`show_hint`.
        Asked again in the same position, the next hint: another move that wins too (any other move
        where the deal is lost), then the first again once all were shown."""
        position, shown = self.hints_shown
        self.run.ask_hint(self.show_hint, shown if position == tuple(self.board.move_stack) else ())

    def due(self) -> float | None:
        """While a hint is searched for: when "Thinking…" is due on the status line; with the timer on,
        while the game is played, the next second (the only time an idle game wakes)."""
        now, since = self.session.clock(), self.run.thinking_since
        if since is not None and now < since + THINKING_CUE:
            return since + THINKING_CUE
        if self.session.settings.timer and not self.over and self.run.since is not None:
            return now + 1 - (now - self.run.since) % 1
        return None

    def show_hint(self, answer: "HintAnswer") -> None:
        """The next move of a winning line; when there is none, the move that removes the most
        pyramid cards, saying plainly that the deal cannot be cleared. Only a hint that
        suggests a move makes the game assisted."""
        solution, advice, other = answer
        letters = letters_for(self.session.settings.card_letters)
        if other is not None:
            move = other
            self.message = say("hint.also_wins" if solution.verdict == "win" else "hint.another",
                               move=describe_move(move, letters))
        elif solution.verdict == "win":
            move = solution.moves[0]
            self.message = say("hint.move", move=describe_move(move, letters))
        else:
            if advice is None:
                self.message = say("hint.no_move")
                return
            move = advice.move
            if solution.verdict == "unknown":
                verdict = "hint.unknown_best"
            else:
                verdict = "hint.lost_here_best" if self.board.move_stack else "hint.lost_best"
            self.message = say(verdict, move=describe_move(move, letters))
        self.run.hinted()
        position, shown = self.hints_shown
        here = tuple(self.board.move_stack)
        self.hints_shown = here, (shown if position == here and other is not None else ()) + (move,)
        self.hint = self.table.targets_of(move)
        self.table.chosen = None  # a card chosen before would pair with the hinted one, not its partner
        self.table.cursor = self.hint[0]

    def undo(self) -> None:
        if self.table.undo() is None:
            self.message = say("undo.nothing")
            return
        self.run.undone()

    # -- the end ------------------------------------------------------------
    def end_items(self) -> tuple[str, ...]:
        """The end panel's choices: the flow goes on from here (another deal, the same deal again,
        the last move back after "No move left", the solution when there was one). The menu comes
        first, so ✓ alone still returns to it as docs/rules.md says."""
        # A daily deal played on its day, with a table server: how the friends did (issue 50).
        friends = (FRIENDS,) if self.run.daily == self.session.today() and self.session.friends.available else ()
        if self.board.status() == "cleared":
            return (TO_MENU, *friends, *self.challenge_offered(), PLAY_AGAIN, RETRY)
        from_start = self.run.from_start
        watch = (WATCH,) if from_start is not None and from_start.verdict == "win" else ()
        undo = (UNDO_LAST,) if self.board.move_stack else ()
        # A deal that cannot be cleared offers its best score where another offers its winning line: it
        # has a best score all the same, and no other way to a challenge on it (issue 51: "a score
        # challenge on every deal"); in the line's place, so the panel still fits 320x240.
        unwinnable = from_start is not None and from_start.verdict == "lose"
        return (TO_MENU, *friends, *watch, *undo, *(self.challenge_offered() if unwinnable else ()), PLAY_AGAIN, RETRY)

    def challenge_offered(self) -> tuple[str, ...]:
        """"Go for its best score", on a numbered deal cleared (or that cannot be) under rules that score
        points, when the game was no score challenge and did not make the best score already (known, or
        to be found)."""
        if self.run.progress.deal_number is None or self.board.rules.scoring == "cards_left" \
                or self.run.score_goal is not None:
            return ()
        best = self.known_best()
        return (CHALLENGE,) if best is None or self.board.score < best else ()

    def known_best(self) -> int | None:
        """The best score of this numbered deal, as the lists or the saved data know it (asked once)."""
        if not self._known_best:
            number = self.run.progress.deal_number
            self._known_best = (None if number is None else known_best_score(self.session, self.board.rules, number),)
        return self._known_best[0]

    def end_lines(self) -> tuple[str, ...]:
        """The end panel's choices as the player reads them."""
        return tuple(say(key) for key in self.end_items())

    def _handle_end(self, action: Action, hit: Hit) -> None:
        items = self.end_items()
        if action.kind is Kind.UNDO and UNDO_LAST in items:
            action, self.end_selected = Action("ok"), items.index(UNDO_LAST)
        choice = choose_line(action, hit, self.end_selected, len(items))
        if choice is None:
            if action.kind in (Kind.STAR, Kind.BACK):
                self.session.pop()
            return
        self.end_selected = choice.selected
        if not choice.chosen:
            return
        if items[self.end_selected] == TO_MENU:
            self.session.pop()
        elif items[self.end_selected] == WATCH:
            from pyramid.console.replay import ReplayScreen  # loaded when first watched

            assert self.run.from_start is not None
            self.session.push(ReplayScreen(self.session, Table(Board(self.board.deal, self.board.rules)),
                                           self.run.from_start.moves, say("end.solution")))
        elif items[self.end_selected] == FRIENDS:
            from pyramid.console.friends_board import FriendsBoardScreen  # loaded when first shown

            day = self.run.daily
            assert day is not None
            self.session.push(FriendsBoardScreen(self.session, Followed(day, variant_of(self.board)), True, self.run.par))
        elif items[self.end_selected] == UNDO_LAST:
            self.end_key = TO_MENU
            self.undo()
        elif items[self.end_selected] == CHALLENGE:
            challenge_deal(self.session, self.run.progress.redeals,
                           DealRequest(self.run.progress.deal_number, score_par=self.known_best()), self)
        elif items[self.end_selected] == PLAY_AGAIN and self.challenge_line():
            score_challenge(self.session, replace=self)  # the next challenge
        elif items[self.end_selected] == PLAY_AGAIN:
            start_pyramid(self.session, self.run.progress.redeals, DealRequest(), replace=self)
        elif items[self.end_selected] == RETRY:
            start_pyramid(self.session, self.run.progress.redeals, self.run.same_deal(), replace=self)

    def daily_line(self) -> tuple[str, ...]:
        """For a daily deal: the moves against the par when cleared ("You: 43 moves · Par: 35 moves");
        the points against the score par, for the presets that score points ("You: 340 points · Par:
        420 points"); then the streak it makes ("Daily deals: 3 days in a row, 2 won"). A lost deal's
        moves par is not repeated (it is under the title): the panel's choices must fit 320x240; for
        that too, a lost deal's panel that offers "Today among friends" leaves the streak to the menu's
        daily line."""
        if self.run.daily is None:
            return ()
        par, score_par = self.run.par, self.run.score_par
        streaks = daily_streaks(self.session.store.daily_results(), self.session.today())
        streak = say_count("end.daily_streak", streaks.played, won=say_count("count.won", streaks.won))
        points = (say("end.you_score_par", points=self.board.score, par=score_par),) if score_par else ()
        if par is None or self.board.status() != "cleared":
            return (*points,) if FRIENDS in self.end_items() else (*points, streak)
        moves = len(self.board.move_stack)
        made = (say("end.under_par") if moves < par else say("end.par_made"),) if moves <= par else ()
        return *made, say("end.you_par", moves=moves, par=par), *points, streak

    def challenge_line(self) -> tuple[str, ...]:
        """For a score challenge: the goal reached ("Best score reached: 420 points"), or how far from
        it ("380 of 420 points: 40 short")."""
        goal = self.run.score_goal
        if goal is None:
            return ()
        points = self.board.score
        if points >= goal:
            return (say("end.score_reached", points=points),)
        return (say("end.score_short", points=points, goal=goal, short=goal - points),)

    def played_line(self, timed: bool) -> str:
        """ "12 moves", or with the time "12 moves · 1:23"."""
        moves = say_count("game.moves", len(self.board.move_stack))
        return say("game.moves_time", moves=moves, time=clock_time(self.run.seconds)) if timed else moves

    def won_lines(self) -> tuple[str, ...]:
        """A won game's moves and time, and what it bettered in the deal's best, if anything but its first
        win (a daily deal with a par says its moves against the par instead: :meth:`daily_line`)."""
        bettered = self.run.bettered
        best = (say(f"end.best_{bettered}"),) if bettered is not None and bettered != "first" else ()
        # An assisted win is counted apart (the statistics' "won" is unaided): the panel says so.
        assisted = (say("end.assisted"),) if self.run.progress.assisted else ()
        if self.run.daily is not None and self.run.par:
            return *best, *assisted
        return *best, self.played_line(True), *assisted

    def points_said_below(self) -> bool:
        """Whether a line of the end panel gives the points against a goal (a daily deal's score par, a
        score challenge's goal): then the title or a score line does not say them again."""
        return self.board.rules.scoring != "cards_left" and bool(
            self.run.score_goal is not None or (self.run.daily is not None and self.run.score_par))

    def end_panel(self) -> PanelView | None:
        status = self.board.status()
        if status == "cleared":
            if self.board.rules.scoring == "cards_left":
                return PanelView(say("end.cleared"), (say("end.no_card_left"), *self.won_lines(), *self.daily_line()),
                                 self.end_lines(), self.end_selected)
            title = say("end.cleared") if self.points_said_below() else say("end.cleared_points", points=self.board.score)
            return PanelView(title, (*self.challenge_line(), *self.won_lines(), *self.daily_line()), self.end_lines(),
                             self.end_selected)
        if status == "no_moves":
            left = self.board.cards_to_clear()
            # The score once: under "cards left" scoring the first line says it.
            scored = self.board.rules.scoring != "cards_left" and not self.points_said_below()
            lines = [say_count("end.why_stuck", left), *((self.table.view().score_label,) if scored else ()),
                     *self.challenge_line(), *self.daily_line()]
            from_start = self.run.from_start
            verdict = "judging" if self.run.judging else from_start.verdict if from_start else "unknown"
            lines.append(say(f"end.verdict_{verdict}"))
            par = self.run.par
            if from_start is not None and verdict == "win" and par is not None and len(from_start.moves) != par:
                lines.append(say("end.line_not_par", moves=len(from_start.moves), par=par))
            return PanelView(say("end.no_move"), tuple(lines), self.end_lines(), self.end_selected)
        return None

    # -- views --------------------------------------------------------------
    def title(self) -> str:
        """The variant and the deal: "Pyramid · deal 7", or "Daily · 1 December" for the daily deal."""
        day = self.run.daily
        if day is not None:
            return say("game.daily_title", day=day.day, month=month_name(day.month))
        number = self.run.progress.deal_number
        name = variant_title(self.board.rules.name)
        return say("game.numbered_title", variant=name, number=number) if number else name

    def detail(self) -> str:
        """Under the title: the deal's difficulty, when known ("Hard"), and a daily deal's par (its score
        par, on the end panel: with it the line no longer fits a 320x240 screen); for a score challenge,
        the score to reach."""
        grade, par, goal = self.run.grade, self.run.par, self.run.score_goal
        if goal is not None:
            return say("game.score_goal", goal=goal)  # a score challenge: the goal alone fits 320x240
        parts = ([say(f"game.grade.{grade}")] if grade else []) + ([say("game.par", par=par)] if par else [])
        return " · ".join(parts)

    def view(self) -> View:
        table = self.table.view(self.title())._replace(detail=self.detail())
        since, assisted = self.run.thinking_since, self.run.progress.assisted
        if since is not None and self.session.clock() >= since + THINKING_CUE:
            table = table._replace(status_line=say("hint.thinking"))
        elif self.message or self.hint:
            table = table._replace(status_line=self.message, hint=self.hint)
        else:  # the game's moves (and time, with the timer on), and whether it is assisted
            played = self.played_line(self.session.settings.timer and not self.over)
            table = table._replace(status_line=say("game.assisted_played", played=played) if assisted else played)
        panel = self.end_panel()
        return View("game_over" if panel else "game", table=table, panel=panel)

    def menu_state(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        return {"items": list(self.end_lines()), "selected": self.end_selected}

    def game_state(self) -> dict[str, Any]:
        return {**self.table.state(), "score_goal": self.run.score_goal}


class AssistPanel(MenuScreen):
    """The panel ``help`` opens during a game: Resume, Hint, Undo, Restart this deal, New game (both
    asked first: the game in progress would count as lost), Rules & controls."""

    name = "assists"
    title_key = "assists.title"
    ITEMS = ("assists.resume", "assists.hint", "assists.undo", "assists.restart", "menu.new_game", "menu.rules")

    def __init__(self, session: Console, game: GameScreen) -> None:
        super().__init__(session)
        self.game = game

    def items(self) -> list[str]:
        return [say(key) for key in self.ITEMS]

    def choose(self, index: int) -> None:
        choice = self.ITEMS[index]
        if choice == "menu.rules":
            letters = letters_for(self.session.settings.card_letters)
            rules = self.game.board.rules
            self.session.push(HelpScreen(self.session, say("help.title_of", variant=variant_title(rules.name)),
                                         pyramid_help(rules, letters)))
            return
        session, game = self.session, self.game
        session.pop()
        if choice == "assists.hint":
            game.give_hint()
        elif choice == "assists.undo":
            game.undo()
        elif choice == "assists.restart":  # the same cards again, from the start: asked first
            again = partial(start_pyramid, session, game.run.progress.redeals, game.run.same_deal(), game)
            _replacing_the_saved_game(session, again, "game.restart_question", "assists.restart")
        elif choice == "menu.new_game":
            new_game(session)

    def on_help(self) -> None:
        self.session.pop()

    def view(self) -> View:
        under = self.game.view()
        return View(self.name, table=under.table,
                    panel=PanelView(self.heading(), (), tuple(self.items()), self.selected))
