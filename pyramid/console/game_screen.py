"""The Pyramid table as a screen, and the ways into it: a new deal, the redeal question, Continue.

Every completed move is saved at once (a handheld is switched off at any
moment); the result goes into the statistics as soon as the deal is over.
Assists (hint, undo) mark the game as assisted, which the statistics count
apart. The entry points (:func:`new_game`, :func:`start_pyramid`,
:func:`continue_game`) live here, beside the screen they open, so the menus
call into this module and nothing here calls back into the menus.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from pyramid.actions import ARROWS, Action, Kind
from pyramid.console.catalogue import say, say_count
from pyramid.console.dealing import DealingScreen, DealRequest, Dealt, deal_at_once
from pyramid.console.help_text import pyramid_help
from pyramid.console.screen import Console, HelpScreen, MenuScreen, NoticeScreen, Screen, choose_line
from pyramid.console.table import Table
from pyramid.console.thinking import THINKING_CUE
from pyramid.console.widgets import ConfirmScreen
from pyramid.console.wording import card_name, describe_move, month_name, variant_title
from pyramid.engine.board import Board, Move
from pyramid.engine.cards import format_cards
from pyramid.engine.difficulty import GRADES, Grade
from pyramid.engine.rules import REDEAL_CHOICES, Rules, preset
from pyramid.engine.verdicts import GameVerdicts, Solve
from pyramid.engine.errors import ReplayError
from pyramid.saved.progress import Progress, replay
from pyramid.saved.stats import GameResult, PyramidVariant, daily_streaks
from pyramid.view import Hit, MenuHit, PanelView, Target, View

if TYPE_CHECKING:
    from pyramid.engine.advice import Advice
    from pyramid.engine.solver import DealSolver, Solution
    from pyramid.saved.store import Store

GAME = "pyramid"
#: Seconds the solver may think for a hint or a verdict (a Pi is ~10x slower than a PC).
SOLVER_SECONDS = 3.0
#: The end panel's lines, as catalogue keys.
PLAY_AGAIN, RETRY, UNDO_LAST, WATCH, TO_MENU = (
    "end.play_again", "end.retry", "end.undo_last", "end.watch", "end.to_menu")
#: Seconds the search for the best move on a deal that cannot be won may take (after the solver).
ADVICE_SECONDS = 1.0


def game_solver() -> Solve:
    """The solver for the positions of one game, within the console's time budget.

    A :class:`~pyramid.engine.solver.DealSolver` of the deal, made at the first
    question (the solver loads then: start-up time), so that what a search
    proved serves the next hints, even when its budget ran out first.
    """
    solvers: list[DealSolver] = []

    def solve(board: Board, *, cancelled: Callable[[], bool] | None = None) -> "Solution":
        from pyramid.engine.solver import DealSolver

        if not solvers:
            solvers.append(DealSolver(Board(board.deal, board.rules)))
        return solvers[0].solve(board, max_seconds=SOLVER_SECONDS, cancelled=cancelled)

    return solve


class HintAnswer(NamedTuple):
    """What a hint found: the solver's answer, and for a deal it could not win from here, the move
    that removes the most pyramid cards (``None`` when it won, or when no move is left)."""

    solution: "Solution"
    advice: "Advice | None"


def think_of_hint(verdicts: GameVerdicts, board: Board, cancelled: Callable[[], bool]) -> HintAnswer:
    """The search behind a hint, run on the session's thinker (a worker thread): it reads ``board``,
    a copy of the position, and this game's solver, nothing of the screen."""
    from pyramid.engine.advice import best_move  # loaded on the first hint, with the solver

    solution = verdicts.solve(board, cancelled)
    if solution.verdict == "win" or cancelled():
        return HintAnswer(solution, None)
    return HintAnswer(solution, best_move(board, ADVICE_SECONDS))


def variant_of(board: Board) -> PyramidVariant:
    """The statistics key of a game: its preset and redeal allowance."""
    return PyramidVariant(board.rules.name, board.rules.redeals)


def result_of(progress: Progress, board: Board) -> GameResult:
    """How a game ended (or was abandoned), for the statistics."""
    cards_left = board.rules.scoring == "cards_left"
    score = board.cards_left() if cards_left else board.score
    return GameResult(GAME, variant_of(board).key, board.status() == "cleared", score,
                      progress.assisted, not cards_left)


def daily_of(progress: Progress) -> datetime.date | None:
    """The date whose daily deal ``progress`` plays, if it is one (saved in its context)."""
    daily = progress.context.get("daily")
    try:
        return datetime.date.fromisoformat(daily) if isinstance(daily, str) else None
    except ValueError:
        return None


def par_of(progress: Progress) -> int | None:
    """The par of the daily deal ``progress`` plays (saved in its context), if it has one."""
    par = progress.context.get("par")
    return par if type(par) is int and par > 0 else None


def score_par_of(progress: Progress) -> int | None:
    """The score par (best score reachable) of the daily deal ``progress`` plays, if it has one."""
    score_par = progress.context.get("score_par")
    return score_par if type(score_par) is int and score_par > 0 else None


def grade_in(progress: Progress) -> Grade | None:
    """The difficulty of the deal ``progress`` plays (saved in its context), if known."""
    grade = progress.context.get("grade")
    return next((known for known in GRADES if known == grade), None)


def record_abandoned(store: "Store", progress: Progress) -> None:
    """Count a saved game that the player replaced by a new deal (a loss, unless it was over)."""
    try:
        board = replay(progress)
    except ReplayError:
        store.clear_progress(progress.game)
        return
    store.record_result(result_of(progress, board))


# -- the ways into a game ------------------------------------------------------
def continue_game(session: Console) -> None:
    """Resume the saved Pyramid game at its last completed move."""
    progress = session.store.load_progress(GAME)
    if progress is None:
        return
    try:
        board = replay(progress)
    except ReplayError as error:
        session.store.clear_progress(GAME)
        session.push(NoticeScreen(session, say("game.cannot_resume"), str(error)))
        return
    session.rules = preset(progress.preset)
    session.push(GameScreen(session, Table(board), progress))


def new_game(session: Console, number: int | None = None, daily: datetime.date | None = None,
             par: int | None = None, score_par: int | None = None) -> None:
    """A new deal from the menus; with a game in progress, asks first (it would count as lost),
    so a game is never lost by one press."""
    if session.store.has_progress(GAME):
        session.push(ConfirmScreen(session, say("game.new_question"), say("menu.new_game"),
                                   lambda: deal_new_game(session, number, daily, par, score_par),
                                   (say("game.new_detail"),)))
    else:
        deal_new_game(session, number, daily, par, score_par)


def daily_game(session: Console) -> None:
    """Today's daily challenge: the same winnable deal for everyone on this date, with its par."""
    from pyramid.engine.daily import NoDailyChallenge, daily_challenge  # the lists load only when asked

    today = session.today()
    try:
        challenge = daily_challenge(today, session.rules.name)
    except NoDailyChallenge:
        session.push(NoticeScreen(session, say("game.no_daily_title"),
                                  say("game.no_daily", variant=variant_title(session.rules.name))))
        return
    new_game(session, challenge.number, today, challenge.par, challenge.score_par)


def score_challenge(session: Console, replace: Screen | None = None) -> None:
    """A score challenge: a deal whose best score is known (one of the daily deals, not today's), to
    be reached under the preset's own redeals; the end panel says how close the player came.
    ``replace``: the finished game's screen, when "Play again" asks for the next challenge."""
    from pyramid.engine.daily import challenges, daily_challenge  # the lists load only when asked

    today = daily_challenge(session.today(), session.rules.name).number if challenges(session.rules.name) else None
    known = [challenge for challenge in challenges(session.rules.name)
             if challenge.score_par is not None and challenge.number != today]
    if not known:
        session.push(NoticeScreen(session, say("game.no_challenge_title"),
                                  say("game.no_challenge", variant=variant_title(session.rules.name))))
        return
    challenge = session.rng.choice(known)
    request = DealRequest(challenge.number, score_par=challenge.score_par)

    def deal() -> None:
        start_pyramid(session, session.rules.redeals, request, replace)

    if session.store.has_progress(GAME):
        session.push(ConfirmScreen(session, say("game.new_question"), say("menu.new_game"), deal,
                                   (say("game.new_detail"),)))
    else:
        deal()


def deal_new_game(session: Console, number: int | None = None, daily: datetime.date | None = None,
                  par: int | None = None, score_par: int | None = None) -> None:
    """Ask "Redeal the stock?" when the rules say so, else deal at once with the preset's redeals.

    The daily deal never asks: its par is for the preset's own redeals, the same for everyone."""
    request = DealRequest(number, daily=daily, par=par, score_par=score_par)
    if session.rules.asks_redeals and daily is None:
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
    _abandon_saved_game(session.store)
    context: dict[str, Any] = {"daily": request.daily.isoformat()} if request.daily else {}
    if request.par is not None:
        context["par"] = request.par
    if request.score_par is not None:
        context["score_par"] = request.score_par
    if dealt.grade is not None:
        context["grade"] = dealt.grade
    progress = Progress(GAME, rules.name, rules.redeals, format_cards(dealt.cards), deal_number=dealt.number,
                        context=context)
    session.store.save_progress(progress)
    if replace is not None and session.screen is replace:
        session.pop()
    session.push(GameScreen(session, Table(Board(dealt.cards, rules)), progress))
    session.show_store_notice()


def _abandon_saved_game(store: "Store") -> None:
    """A saved game replaced by a new deal counts as lost (as in most solitaire games)."""
    saved = store.load_progress(GAME)
    if saved is not None:
        record_abandoned(store, saved)


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

    def __init__(self, session: Console, table: Table, progress: Progress) -> None:
        super().__init__(session)
        self.table = table
        self.progress = progress
        self.message = ""
        self.hint: tuple[Target, ...] = ()
        self.recorded = False
        self.from_start: Solution | None = None
        #: The solver for this game: a hint along the line it found, or after a proven loss, comes at once.
        self.verdicts = GameVerdicts(game_solver())
        #: When the hint being searched for was asked (the session's clock), or ``None``.
        self.thinking_since: float | None = None
        #: The end panel's line highlighted, by its catalogue key: it stays on its line when "Watch the
        #: solution" comes in once the deal is judged (see :attr:`end_selected`).
        self.end_key = TO_MENU
        #: The deal is being judged from its start (on the session's thinker) for the end panel.
        self.judging = False
        self._check_end()

    @property
    def board(self) -> Board:
        return self.table.board

    @property
    def over(self) -> bool:
        return self.board.status() != "playing"

    # -- actions ------------------------------------------------------------
    def handle(self, action: Action, hit: Hit) -> None:
        if self.over:
            self._handle_end(action, hit)
            return
        self.message, self.hint = "", ()
        if self.thinking_since is not None and action.kind not in ARROWS and action.kind is not Kind.HINT:
            self.stop_thinking()  # Back, a pick or an undo: the hint asked for is no longer wanted
            if action.kind is Kind.BACK:
                return  # Back calls the search off, and does nothing more
        if action.kind in ARROWS:
            self.table.move_cursor(action.kind)
        elif action.kind is Kind.OK and self.table.cursor is not None:
            self._pick(self.table.cursor)
        elif action.kind is Kind.TAP and hit is not None and not isinstance(hit, MenuHit):
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
            self.session.push(AssistPanel(self.session, self))

    def _pick(self, target: Target) -> None:
        """Pick ``target``. What the cards do not show is cued: a pair that does not make the
        target is told ("9♦ + 3♠ make 12, not 13") and shaken, a removal's points rise, the end
        of the deal is a win or a loss."""
        score = self.board.score
        move = self.table.pick(target)
        self._played(move)
        refused = self.table.refused
        if move is None and refused is not None:
            letters = self.session.settings.card_letters
            first, second = refused
            self.message = say("game.wrong_pair", first=card_name(first, letters), second=card_name(second, letters),
                               total=first.rank + second.rank, target=self.board.rules.target)
            places = tuple(place for place in map(self.table.target_of, refused) if place is not None)
            self.session.cue("wrong", targets=places)
        elif move is not None and self.over:
            self.session.cue("win" if self.board.status() == "cleared" else "lose")
        elif move is not None and move.kind == "remove":
            self.session.cue("pair", points=max(0, self.board.score - score))

    def _played(self, move: Move | None) -> None:
        if move is None:
            return
        self.progress = self.progress.with_move(move)
        self.session.store.save_progress(self.progress)
        self._check_end()

    def _check_end(self) -> None:
        """Count the result once, as soon as the deal is over, and judge the deal."""
        status = self.board.status()
        if status == "playing":
            return
        if self.recorded:  # over again after "Undo the last move": counted the first time
            self.session.store.clear_progress(GAME)
            return
        self.recorded = True
        self.session.store.record_result(result_of(self.progress, self.board), daily=daily_of(self.progress))
        if status != "cleared":
            self.thinking_since = None  # a hint's search, even called off, leaves this game's solver first
            self.session.thinker.cancel(wait=True)
            verdicts, start = self.verdicts, Board(self.board.deal, self.board.rules)
            self.judging = True
            self.session.thinker.ask(lambda cancelled: verdicts.solve(start, cancelled), self.judged)

    def judged(self, solution: "Solution") -> None:
        """The deal's verdict from its start (for the end panel: "Watch the solution" when it was won)."""
        self.judging = False
        self.from_start = solution

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
        "Thinking…" after :data:`THINKING_CUE` seconds); Back calls it off. Shown by :meth:`show_hint`."""
        if self.thinking_since is not None:
            return  # already searching from this very position
        verdicts, board = self.verdicts, self.board.copy()
        self.thinking_since = self.session.clock()
        self.session.thinker.ask(lambda cancelled: think_of_hint(verdicts, board, cancelled), self.show_hint)

    def stop_thinking(self) -> None:
        """Call off the hint being searched for, if any."""
        if self.thinking_since is not None:
            self.thinking_since = None
            self.session.thinker.cancel()

    def due(self) -> float | None:
        """While a hint is searched for: when "Thinking…" is due on the status line."""
        since = self.thinking_since
        if since is None or self.session.clock() >= since + THINKING_CUE:
            return None
        return since + THINKING_CUE

    def show_hint(self, answer: "HintAnswer") -> None:
        """The next move of a winning line; when there is none, the move that removes the most
        pyramid cards, saying plainly that the deal cannot be cleared. Only a hint that
        suggests a move makes the game assisted."""
        self.thinking_since = None
        solution, advice = answer
        letters = self.session.settings.card_letters
        if solution.verdict == "win":
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
        self.progress = self.progress.with_assist("hint")
        self.session.store.save_progress(self.progress)
        self.hint = self.table.targets_of(move)
        self.table.cursor = self.hint[0]

    def undo(self) -> None:
        if self.table.undo() is None:
            self.message = say("undo.nothing")
            return
        self.progress = self.progress.without_last_move().with_assist("undo")
        self.session.store.save_progress(self.progress)

    # -- the end ------------------------------------------------------------
    def end_items(self) -> tuple[str, ...]:
        """The end panel's choices: the flow goes on from here (another deal, the same deal again,
        the last move back after "No move left", the solution when there was one). The menu comes
        first, so ✓ alone still returns to it as docs/rules.md says."""
        if self.board.status() == "cleared":
            return (TO_MENU, PLAY_AGAIN, RETRY)
        watch = (WATCH,) if self.from_start is not None and self.from_start.verdict == "win" else ()
        undo = (UNDO_LAST,) if self.board.move_stack else ()
        return (TO_MENU, *watch, *undo, PLAY_AGAIN, RETRY)

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

            assert self.from_start is not None
            self.session.push(ReplayScreen(self.session, Table(Board(self.board.deal, self.board.rules)),
                                           self.from_start.moves, say("end.solution")))
        elif items[self.end_selected] == UNDO_LAST:
            self.end_key = TO_MENU
            self.undo()
        elif items[self.end_selected] == PLAY_AGAIN and self.challenge_line():
            score_challenge(self.session, replace=self)  # the next challenge
        elif items[self.end_selected] == PLAY_AGAIN:
            start_pyramid(self.session, self.progress.redeals, DealRequest(), replace=self)
        elif items[self.end_selected] == RETRY:
            start_pyramid(self.session, self.progress.redeals,
                          DealRequest(self.progress.deal_number, self.board.deal, daily_of(self.progress),
                                      par_of(self.progress), grade_in(self.progress), score_par_of(self.progress)),
                          replace=self)

    def daily_line(self) -> tuple[str, ...]:
        """For a daily deal: the moves against the par when cleared ("You: 43 moves · Par: 35 moves"),
        else the par; the points against the score par, for the presets that score points ("You: 340
        points · Par: 420 points"); then the streak it makes ("Daily deals: 3 days in a row, 2 won")."""
        if daily_of(self.progress) is None:
            return ()
        par, score_par = par_of(self.progress), score_par_of(self.progress)
        streaks = daily_streaks(self.session.store.daily_results(), self.session.today())
        streak = say_count("end.daily_streak", streaks.played, won=streaks.won)
        points = (say("end.you_score_par", points=self.board.score, par=score_par),) if score_par else ()
        if par is None:
            return (*points, streak)
        if self.board.status() == "cleared":
            return say("end.you_par", moves=len(self.board.move_stack), par=par), *points, streak
        return say("game.par", par=par), *points, streak

    def challenge_line(self) -> tuple[str, ...]:
        """For a score challenge: the goal reached ("Best score reached: 420 points"), or how far from
        it ("380 of 420 points: 40 short")."""
        goal = score_par_of(self.progress)
        if goal is None or daily_of(self.progress) is not None:
            return ()
        points = self.board.score
        if points >= goal:
            return (say("end.score_reached", points=points),)
        return (say("end.score_short", points=points, goal=goal, short=goal - points),)

    def end_panel(self) -> PanelView | None:
        status = self.board.status()
        if status == "cleared":
            if self.board.rules.scoring == "cards_left":
                return PanelView(say("end.cleared"), (say("end.no_card_left"), *self.daily_line()),
                                 self.end_lines(), self.end_selected)
            return PanelView(say("end.cleared_points", points=self.board.score),
                             (*self.challenge_line(), *self.daily_line()), self.end_lines(), self.end_selected)
        if status == "no_moves":
            lines = [self.table.view().score_label, *self.challenge_line(), *self.daily_line()]
            verdict = "judging" if self.judging else self.from_start.verdict if self.from_start else "unknown"
            lines.append(say(f"end.verdict_{verdict}"))
            return PanelView(say("end.no_move"), tuple(lines), self.end_lines(), self.end_selected)
        return None

    # -- views --------------------------------------------------------------
    def title(self) -> str:
        """The variant and the deal: "Pyramid · deal 7", or "Daily · 1 December" for the daily deal."""
        day = daily_of(self.progress)
        if day is not None:
            return say("game.daily_title", day=day.day, month=month_name(day.month))
        number = self.progress.deal_number
        name = variant_title(self.board.rules.name)
        return say("game.numbered_title", variant=name, number=number) if number else name

    def detail(self) -> str:
        """Under the title: the deal's difficulty, when known ("Hard"), and a daily deal's par (its score
        par, on the end panel: with it the line no longer fits a 320x240 screen); for a score challenge,
        the score to reach."""
        grade, par = grade_in(self.progress), par_of(self.progress)
        goal = score_par_of(self.progress)
        if goal is not None and daily_of(self.progress) is None:
            return say("game.score_goal", goal=goal)  # a score challenge: the goal alone fits 320x240
        parts = ([say(f"game.grade.{grade}")] if grade else []) + ([say("game.par", par=par)] if par else [])
        return " · ".join(parts)

    def view(self) -> View:
        table = self.table.view(self.title())._replace(detail=self.detail())
        since = self.thinking_since
        if since is not None and self.session.clock() >= since + THINKING_CUE:
            table = table._replace(status_line=say("hint.thinking"))
        elif self.message or self.hint or self.progress.assisted:
            status = self.message or (say("game.assisted") if self.progress.assisted else "")
            table = table._replace(status_line=status, hint=self.hint)
        panel = self.end_panel()
        return View("game_over" if panel else "game", table=table, panel=panel)

    def menu_state(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        return {"items": list(self.end_lines()), "selected": self.end_selected}

    def game_state(self) -> dict[str, Any]:
        return self.table.state()


class AssistPanel(MenuScreen):
    """The panel ``help`` opens during a game: Resume, Hint, Undo, Rules & controls."""

    name = "assists"
    title_key = "assists.title"
    ITEMS = ("assists.resume", "assists.hint", "assists.undo", "menu.rules")

    def __init__(self, session: Console, game: GameScreen) -> None:
        super().__init__(session)
        self.game = game

    def items(self) -> list[str]:
        return [say(key) for key in self.ITEMS]

    def choose(self, index: int) -> None:
        choice = self.ITEMS[index]
        if choice == "menu.rules":
            self.session.push(HelpScreen(self.session, sections=pyramid_help(self.game.board.rules)))
            return
        self.session.pop()
        if choice == "assists.hint":
            self.game.give_hint()
        elif choice == "assists.undo":
            self.game.undo()

    def on_help(self) -> None:
        self.session.pop()

    def view(self) -> View:
        under = self.game.view()
        return View(self.name, table=under.table,
                    panel=PanelView(self.heading(), (), tuple(self.items()), self.selected))
